"""§7-§9, §11: stands, combat values, divisional morale, dice."""

from __future__ import annotations

import pytest

from owsnb.kernel.errors import ScenarioError
from owsnb.rules.opart import stands
from owsnb.rules.opart.stands import combat_value, division_morale

from .conftest import battlefield


def test_8_fn_viii_conscript_russian_rifle_regiment_has_cv_2():
    assert combat_value({"arm": "infantry", "quality": "conscript"}) == 2


def test_8_fn_viii_elite_panzer_grenadier_has_cv_4_table_plus_3_not_plus_4():
    # footnote viii says "plus 4 for being elite infantry" but the §8 table gives +3 and a total of 4
    assert combat_value({"arm": "infantry", "quality": "elite"}) == 4
    assert stands.cv_breakdown({"arm": "infantry", "quality": "elite"})[1][:2] == (
        "elite_infantry",
        3,
    )


@pytest.mark.parametrize(
    "stand, cv",
    [
        ({"arm": "infantry", "quality": "poor"}, 1),
        ({"arm": "cavalry", "quality": "poor"}, 1),
        ({"arm": "cavalry", "quality": "conscript"}, 2),
        ({"arm": "infantry", "quality": "regular"}, 3),
        ({"arm": "cavalry", "quality": "regular"}, 3),
        ({"arm": "transport"}, 2),
        ({"arm": "artillery", "gun": "field"}, 3),
        ({"arm": "artillery", "gun": "heavy"}, 3),
        ({"arm": "afv", "afv": "light"}, 3),
        ({"arm": "afv", "afv": "medium"}, 4),
        ({"arm": "afv", "afv": "heavy"}, 5),
        ({"arm": "afv", "afv": "very_heavy"}, 6),
        ({"arm": "command", "quality": "poor"}, 1),
        ({"arm": "command", "quality": "average"}, 2),
        ({"arm": "hq", "quality": "good"}, 3),
        ({"arm": "command", "quality": "exceptional"}, 4),
    ],
)
def test_8_every_row_of_the_combat_value_table(stand, cv):
    assert combat_value(stand) == cv


def test_8_starred_general_rows_apply_only_to_command_stands():
    with pytest.raises(ValueError, match="only to command stands"):
        stands.cv_breakdown(
            {"arm": "infantry", "quality": "elite", "additions": ["good_general"]}, rule="sum"
        )


def test_8_option_cv_additions_sum_adds_listed_rows():
    pzgr = {"arm": "infantry", "quality": "elite", "additions": ["transport"]}
    assert combat_value(pzgr, rule="single") == 4
    assert combat_value(pzgr, rule="sum") == 5


def test_9_fn_x_rifle_division_total_11_gives_morale_6():
    values = [combat_value({"arm": "infantry", "quality": "conscript"})] * 3 + [
        combat_value({"arm": "artillery", "gun": "field"}),
        combat_value({"arm": "command", "quality": "average"}),
    ]
    assert values == [2, 2, 2, 3, 2] and sum(values) == 11
    assert division_morale(values) == 6


def test_9_fn_x_in_the_scenario_74th_rifle_division(kalinovka):
    s = kalinovka.state
    cvs = sorted(u.max_steps for u in s.units.values() if u.get("formation") == "74rd")
    assert cvs == [2, 2, 2, 2, 3]
    assert s.public["morale"]["74rd"] == s.public["morale_start"]["74rd"] == 6


def test_9_fn_vi_panzer_division_13_gives_morale_7(kalinovka):
    s = kalinovka.state
    assert sum(u.max_steps for u in s.units.values() if u.get("formation") == "19pz") == 13
    assert s.public["morale"]["19pz"] == 7


def test_9_fn_ix_fractions_round_up_and_even_totals_halve():
    assert division_morale([3, 3, 3, 3, 3]) == 8
    assert division_morale([4, 4]) == 4


def test_9_asset_groups_have_no_morale(kalinovka):
    s = kalinovka.state
    assert s.public["formations"]["29rc"]["kind"] == "assets"
    assert "29rc" not in s.public["morale"]


def test_11_germans_throw_d12_russians_and_axis_allies_d10(kalinovka):
    s = kalinovka.state
    assert stands.die_sides(s, s.unit("168-417")) == 12
    assert stands.die_sides(s, s.unit("74-360")) == 10
    g = battlefield(
        [
            ("R-1", "rom-infantry", "axis", "0505", "rom"),
            ("R-HQ", "rom-general-average", "axis", "0504", "rom"),
            ("S-HQ", "sov-general-average", "soviet", "0109", "s"),
        ]
    )
    assert stands.die_sides(g.state, g.state.unit("R-1")) == 10  # Axis ally on the German side, D10


@pytest.mark.parametrize(
    "data, problem",
    [
        ({"formation": "x", "nation": "soviet", "arm": "infantry"}, "needs a quality"),
        (
            {
                "formation": "x",
                "nation": "soviet",
                "arm": "infantry",
                "quality": "elite",
                "mode": "tracked",
            },
            "moves foot or vehicles",
        ),
        ({"formation": "x", "nation": "soviet", "arm": "afv"}, "needs afv"),
        ({"formation": "x", "nation": "soviet", "arm": "artillery"}, "needs gun"),
        (
            {"formation": "x", "nation": "soviet", "arm": "cavalry", "quality": "elite"},
            "must be one of poor, conscript, regular",
        ),
        ({"formation": "x", "nation": "finnish", "arm": "transport"}, "nation"),
        ({"nation": "soviet", "arm": "transport"}, "formation"),
    ],
)
def test_7_bad_stand_payloads_are_explained(data, problem):
    _, problems = stands.validate_stand(data)
    assert problems and any(problem in f"{p} {m}" for p, m in problems), problems


def test_7_catalog_steps_must_equal_the_8_combat_value():
    with pytest.raises(ScenarioError, match="combat value is 4"):
        battlefield(
            [
                ("P-1", "ger-panzer-medium", "axis", "0505", "pz", {}),
                ("P-HQ", "ger-general-good", "axis", "0504", "pz"),
                ("S-HQ", "sov-general-average", "soviet", "0109", "s"),
                (
                    "P-2",
                    "ger-infantry-regular",
                    "axis",
                    "0503",
                    "pz",
                    {"arm": "afv", "quality": None, "afv": "medium", "mode": "tracked"},
                ),
            ]
        )


def test_7_every_formation_needs_exactly_one_command_stand():
    with pytest.raises(ScenarioError, match="exactly one command stand"):
        battlefield(
            [
                ("G-1", "ger-infantry-regular", "axis", "0505", "168id"),
                ("S-HQ", "sov-general-average", "soviet", "0109", "s"),
            ]
        )
