"""Combat as played (11.0-13.5): attack orders, losses, retreats, advances, soak-off, artillery."""

from __future__ import annotations

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.combatops.units import hits

from .conftest import at, game, to_step


def U(uid, kind, side, hx, **data):
    d = {"id": uid, "type": kind, "side": side, "hex": hx}
    if data:
        d["data"] = data
    return d


def refused(g, order, code):
    before = (g.state_id, g.seq)
    with pytest.raises(IllegalOrderError) as exc:
        g.submit(order)
    assert exc.value.code == code, exc.value
    assert (g.state_id, g.seq) == before  # nothing changed
    return exc.value


def test_11_0_attack_reveals_both_sides_and_marks_the_attackers():
    g = to_step(
        game(
            [
                U("B-I1", "b-inf-bn-36", "blue", "D2"),
                U("B-I2", "b-inf-bn-36", "blue", "D3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    assert "red" not in g.unit("B-I1").seen_by and "blue" not in g.unit("R-I").seen_by
    res = g.submit("blue: attack E3 with=B-I1,B-I2").result
    assert (res.attack_total, res.defense_total, res.column) == (6, 3, "2-1")
    assert "red" in g.unit("B-I1").seen_by and "blue" in g.unit("R-I").seen_by
    assert g.unit("B-I1").has("attacked")


def test_13_3_armor_takes_the_attackers_loss_and_at_the_defenders():
    g = to_step(
        game(
            [
                U("B-A", "b-arm-bn-2", "blue", "D3"),
                U("B-I", "b-inf-bn-36", "blue", "D2"),
                U("R-AT", "r-at-49", "red", "E3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-I,B-A").result
    assert (res.attack_total, res.defense_total, res.column, res.steps) == (7, 5, "1-1", 4)
    assert (hits(g.unit("B-A")), hits(g.unit("B-I"))) == (
        1,
        0,
    )  # the armor battalion, though listed second
    assert (hits(g.unit("R-AT")), hits(g.unit("R-I"))) == (1, 0)  # the anti-tank battalion


def test_5_2_retreat_into_unoccupied_enemy_zoc_costs_a_step():
    units = [
        U("B-I1", "b-inf-bn-36", "blue", "D2"),
        U("B-I2", "b-inf-bn-36", "blue", "D3"),
        U("B-Z", "b-inf-bn-36", "blue", "G3"),
        U("R-I", "r-inf-bn-49", "red", "E3"),
    ]
    heads = {"supply_heads": {"blue": ["A3"], "red": ["E3"]}}  # keep R-I in supply despite the ZOCs
    g = to_step(game(units, rules=heads), "A4")
    res = g.submit("blue: attack E3 with=B-I1,B-I2").result
    assert res.column == "2-1" and res.defender_loss == 0  # floor(2/3) = 0, retreat 1 hex (11.5)
    assert at(g, "R-I") in ("F2", "F3") and hits(g.unit("R-I")) == 1  # both hexes lie in B-Z's ZOC
    # a friendly unit in the hex negates the loss (errata 3.1, 11.10)
    g2 = to_step(game([*units, U("R-F", "r-inf-bn-49", "red", "F2")], rules=heads), "A4")
    g2.submit("blue: attack E3 with=B-I1,B-I2")
    assert at(g2, "R-I") == "F2" and hits(g2.unit("R-I")) == 0


def test_errata_11_10_retreat_that_would_overstack_eliminates():
    units = [
        U("B-I1", "b-inf-bn-36", "blue", "D2"),
        U("B-I2", "b-inf-bn-36", "blue", "D3"),
        U("R-I", "r-inf-bn-49", "red", "E3"),
        U("R-R", "r-inf-reg-49", "red", "F2"),
        U("R-X", "r-inf-bn-49", "red", "F2"),
        U("R-Y", "r-inf-bn-49", "red", "F2"),
    ]
    g = to_step(game(units, edges=[{"type": "river", "hexes": ["E3", "F3"]}]), "A4")
    g.submit("blue: attack E3 with=B-I1,B-I2")
    assert (
        at(g, "R-I") == "eliminated"
    )  # F3 is across a river; F2 already holds 4 battalions' worth


def test_11_8_advance_after_the_defender_retreats():
    g = to_step(
        game(
            [
                U("B-I1", "b-inf-bn-36", "blue", "D2"),
                U("B-I2", "b-inf-bn-36", "blue", "D3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    g.submit("blue: attack E3 with=B-I1,B-I2")
    assert g.state.public["pending_advance"]["hex"] == "E3"
    refused(g, "blue: occupy E4 with=B-I1", "no-advance")
    g.submit("blue: occupy E3 with=B-I2")
    assert at(g, "B-I2") == "E3" and at(g, "B-I1") == "D2"
    refused(g, "blue: occupy E3 with=B-I1", "no-advance")  # the chance has passed


def test_11_7_four_to_one_eliminates_the_defender_and_the_hex_may_be_taken():
    g = to_step(
        game([U("B-R", "b-inf-reg-36", "blue", "D3"), U("R-I", "r-inf-bn-49", "red", "E3")]), "A4"
    )
    res = g.submit("blue: attack E3 with=B-R").result
    assert res.column == "4-1" and at(g, "R-I") == "eliminated"
    assert hits(g.unit("B-R")) == 1  # the attacker loses exactly 1 step
    g.submit("blue: occupy E3 with=B-R")
    assert at(g, "B-R") == "E3"


def test_11_1_attacker_retreats_after_a_one_to_four():
    g = to_step(
        game([U("B-E", "b-eng-36", "blue", "D3"), U("R-R", "r-inf-reg-49", "red", "E3")]), "A4"
    )
    res = g.submit("blue: attack E3 with=B-E").result
    assert res.column == "1-4" and res.attacker_loss == 4
    assert at(g, "B-E") == "eliminated" and at(g, "R-R") == "E3"


def test_dummy_only_hex_is_revealed_removed_and_may_be_entered():
    g = to_step(
        game([U("B-I", "b-inf-bn-36", "blue", "D3"), U("R-D", "r-dummy-inf-reg", "red", "E3")]),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-I").result
    assert res.dummies == ["R-D"] and at(g, "R-D") == "removed" and res.vacated
    g.submit("blue: occupy E3 with=B-I")
    assert at(g, "B-I") == "E3"


def test_11_9_soak_off_must_be_possible_and_is_enforced():
    units = [
        U("B-I", "b-inf-bn-36", "blue", "D3"),
        U("R-1", "r-inf-bn-49", "red", "E3"),
        U("R-2", "r-inf-bn-49", "red", "E4"),
    ]
    g = to_step(game(units), "A4")
    e = refused(g, "blue: attack E3 with=B-I", "soak-off")
    assert e.rule == "11.9"
    g = to_step(game([*units, U("B-J", "b-inf-bn-36", "blue", "D4")]), "A4")
    g.submit("blue: attack E3 with=B-I")
    refused(g, "blue: done", "soak-off-owed")  # E4 is adjacent to an attacker and B-J can attack it
    g.submit("blue: attack E4 with=B-J")
    g.submit("blue: done")
    assert g.clock.step == "A5"


def test_13_4_artillery_range_and_once_per_phase():
    units = [
        U("R-I", "r-inf-bn-49", "red", "D3"),
        U("R-J", "r-inf-bn-49", "red", "D4"),
        U("R-L", "r-art-l-49", "red", "B2"),
        U("R-M", "r-art-m-49", "red", "B3"),
        U("B-1", "b-inf-bn-36", "blue", "E3"),
        U("B-2", "b-inf-bn-36", "blue", "E5"),
    ]
    g = to_step(
        game(
            units,
            rules={
                "attacker": "red",
                "defender": "blue",
                "setup_areas": {"red": {"cols": "A-D"}, "blue": {"cols": "E-H"}},
            },
        ),
        "A4",
    )
    refused(
        g, "red: attack E3 with=R-I support=R-L", "out-of-range"
    )  # light artillery: 2 hexes (13.4)
    res = g.submit("red: attack E3 with=R-I support=R-M").result  # medium: 3 hexes
    assert [c.unit for c in res.attack] == ["R-I", "R-M"]
    refused(g, "red: attack E5 with=R-J support=R-M", "supported")  # once per phase


def test_13_4_defensive_artillery_supports_automatically_unless_held():
    units = [
        U("B-I1", "b-inf-bn-36", "blue", "D2"),
        U("B-I2", "b-inf-bn-36", "blue", "D3"),
        U("R-I", "r-inf-bn-49", "red", "E3"),
        U("R-M", "r-art-m-49", "red", "G3"),
    ]
    g = to_step(game(units), "A4")
    res = g.submit("blue: attack E3 with=B-I1,B-I2").result
    assert res.defense_total == 3 + 4 and res.column == "1-2"
    g = game(units)
    g.submit("red: artillery R-M hold")  # a standing order, given at any time
    to_step(g, "A4")
    assert g.submit("blue: attack E3 with=B-I1,B-I2").result.defense_total == 3


def test_13_4_artillery_supports_again_in_exploitation_combat():
    units = [
        U("B-I", "b-inf-bn-36", "blue", "D2"),
        U("B-A", "b-arm-bn-2", "blue", "D4"),
        U("B-M", "b-art-m-36", "blue", "B3"),
        U("R-1", "r-inf-bn-49", "red", "E2"),
        U("R-2", "r-inf-bn-49", "red", "E5"),
    ]
    g = to_step(game(units), "A4")
    g.submit("blue: attack E2 with=B-I support=B-M")
    to_step(g, "A6")
    assert g.unit("B-A").has("exploit") and not g.unit("B-I").has("exploit")
    refused(g, "blue: attack E5 with=B-I", "attacked")  # it fought in step 4 (10.0)
    res = g.submit("blue: attack E5 with=B-A support=B-M").result
    assert "B-M" in [c.unit for c in res.attack]


def test_attack_refusals_cite_their_rule():
    units = [
        U("B-I", "b-inf-bn-36", "blue", "C3"),
        U("B-M", "b-art-m-36", "blue", "D3"),
        U("B-D", "b-dummy-inf-reg", "blue", "D2"),
        U("R-1", "r-inf-bn-49", "red", "E3"),
    ]
    g = to_step(game(units), "A4")
    assert refused(g, "blue: attack E3 with=B-I", "not-adjacent").rule == "11.0"
    assert refused(g, "blue: attack E3 with=B-M", "artillery-attacks").rule == "13.4"
    assert refused(g, "blue: attack E3 with=B-D", "dummy").rule == "11.0"
    assert refused(g, "blue: attack C4 with=B-M", "no-enemy").rule == "11.0"


def test_preview_shows_bands_without_revealing_the_defender():
    g = to_step(
        game(
            [
                U("B-I1", "b-inf-bn-36", "blue", "D2"),
                U("B-I2", "b-inf-bn-36", "blue", "D3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    p = g.preview("blue: attack E3 with=B-I1,B-I2")
    assert p.result is None and p.attack_total == 6
    assert p.bands == [
        ("4-1", 1, 1),
        ("3-1", 2, 2),
        ("2-1", 3, 3),
        ("1-1", 4, 6),
        ("1-2", 7, 12),
        ("1-3", 13, 18),
        ("1-4", 19, None),
    ]
    assert "blue" not in g.unit("R-I").seen_by  # previewing reveals nothing


def test_preview_html_prints_each_defense_band_as_read():
    """One value ("1"), a range ("4–6") and the open-ended last band ("19+")."""
    import re

    g = to_step(
        game(
            [
                U("B-I1", "b-inf-bn-36", "blue", "D2"),
                U("B-I2", "b-inf-bn-36", "blue", "D3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    shown = g.preview("blue: attack E3 with=B-I1,B-I2")._repr_html_()
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td></tr>", shown)
    assert rows == [
        ("1", "4-1"),
        ("2", "3-1"),
        ("3", "2-1"),
        ("4–6", "1-1"),
        ("7–12", "1-2"),
        ("13–18", "1-3"),
        ("19+", "1-4"),
    ]
    assert "None" not in shown


def test_13_2_example_armor_turns_two_to_one_into_three_to_one():
    g = to_step(
        game(
            [
                U("B-A", "b-arm-bn-2", "blue", "D3"),
                U("B-I", "b-inf-bn-36", "blue", "D2"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-A,B-I").result
    assert (res.attack_total, res.defense_total, res.raw_column, res.column) == (7, 3, "2-1", "3-1")


def test_13_2_no_armor_bonus_against_a_stack_with_an_engineer():
    g = to_step(
        game(
            [
                U("B-A", "b-arm-bn-2", "blue", "D3"),
                U("B-I", "b-inf-bn-36", "blue", "D2"),
                U("B-M", "b-art-m-36", "blue", "B3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
                U("R-E", "r-eng-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-A,B-I support=B-M").result
    assert (res.attack_total, res.defense_total, res.column) == (10, 5, "2-1") and not res.shifts


def test_13_3_example_two_armor_battalions_alone_three_to_one_becomes_two_to_one():
    g = to_step(
        game(
            [
                U("B-A", "b-arm-bn-2", "blue", "D3"),
                U("B-B", "b-arm-bn-2", "blue", "D2"),
                U("B-M", "b-art-m-36", "blue", "B3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
            ]
        ),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-A,B-B support=B-M").result
    assert (res.attack_total, res.defense_total, res.raw_column, res.column) == (
        11,
        3,
        "3-1",
        "2-1",
    )


def test_13_4_artillery_in_the_attacked_hex_takes_losses_with_it():
    g = to_step(
        game(
            [
                U("B-R", "b-inf-reg-36", "blue", "D3"),
                U("B-I", "b-inf-bn-36", "blue", "D2"),
                U("B-M", "b-art-m-36", "blue", "B3"),
                U("R-I", "r-inf-bn-49", "red", "E3"),
                U("R-L", "r-art-l-49", "red", "E3"),
            ],
            terrain={"E3": "town"},
        ),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-R,B-I support=B-M").result
    assert (
        res.defense_total == 5 + 1
    )  # infantry 3+2 (town); artillery its printed 1 (errata 7.0/9.1)
    assert (res.attack_total, res.column, res.steps, res.defender_loss) == (18, "3-1", 4, 2)
    assert (hits(g.unit("R-I")), hits(g.unit("R-L"))) == (
        1,
        1,
    )  # 12.0 spreads them over both (13.4)
