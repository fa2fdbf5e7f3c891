"""Turn schedule (TS), supply (GS), experience (EXP), scoring (SC), engineers (ENG), transit (TR)
and the shipped tables: the digest's test cases 1-3 and 12-15, and the transcribed tables
checked against the player aid's text."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from owsnb.kernel import Unit
from owsnb.kernel.data import freeze
from owsnb.rules.opscale.economy import (
    force_total,
    has_income,
    is_deployment_turn,
    is_production_turn,
    supply_cost,
    supply_exclusion,
)
from owsnb.rules.opscale.engineers import attempt_possible, check, check_number, needs_roll
from owsnb.rules.opscale.experience import bonus_for, eligible, purchase_price, stars
from owsnb.rules.opscale.scoring import action_points, capture_points, destroy_points
from owsnb.rules.opscale.tables import TABLE_DIR, load_tables
from owsnb.rules.opscale.transit import survival

from .conftest import ROOT

T = load_tables()
SOURCE = ROOT.parent / "shared" / "seeds" / "operational-scale-player-aids.txt"


# -- TS: the schedule (digest test 1) --------------------------------------------------------------
def test_ts_schedule_of_income_production_and_deployment():
    assert not has_income(1) and is_production_turn(1) and not is_deployment_turn(1)
    assert has_income(5) and is_deployment_turn(5) and not is_production_turn(5)
    assert has_income(6) and is_production_turn(6)
    assert is_deployment_turn(10) and is_production_turn(11)
    assert [t for t in range(1, 27) if is_production_turn(t)] == [1, 6, 11, 16, 21, 26]
    assert [t for t in range(1, 27) if is_deployment_turn(t)] == [5, 10, 15, 20, 25]


# -- GS: supply (digest test 3)
# ----------------------------------------------------------------------
def _u(uid, cat, cost, *, hex=True, box=None, **data):
    from owsnb.kernel import Hex

    return Unit(
        uid,
        "blue",
        hex=Hex(0, 0) if hex else None,
        box=box,
        steps=5,
        max_steps=5,
        data=freeze({"category": cat, "cost": cost, **data}),
    )


def test_gs_force_total_exclusions_and_10_percent_rounded_half_up():
    units = [
        _u("a", "vehicle", 40),
        _u("b", "infantry", 35),
        _u("c", "infantry", 0),
        _u("d", "vehicle", 22),
        _u("staged", "vehicle", 50, hex=False, box="staged"),
        _u("bunker", "bunker", 10),
        _u("pillbox", "pillbox", 8, weapons=[{"slot": "primary", "attack_rating": 11, "di": 3}]),
        _u("cp", "command-post", 30),
        _u("mines", "obstacle-vehicle", 5),
        _u("bridge", "engineered-bridge", 10),
        _u("prize", "vehicle", 40, captured=True, used=False),
        _u("prize2", "vehicle", 12, captured=True, used=True),
    ]
    total, rows = force_total(units, "blue")
    assert total == 40 + 35 + 22 + 8 + 12
    why = {r["unit"]: r["why not"] for r in rows}
    assert (
        why["staged"] == "staged unit"
        and why["c"] == "cost 0"
        and why["bunker"] == "bunker without weapons"
    )
    assert (
        why["cp"] == "building / structure"
        and why["mines"] == "fixed obstacle"
        and why["prize"] == "captured, not yet used"
    )
    total_digest = 40 + 35 + 22 + 8
    assert total_digest == 105 and supply_cost(105) == 11
    assert supply_cost(105, rounding="half-even") == 10 and supply_cost(105, rounding="down") == 10
    assert supply_cost(104) == 10 and supply_cost(106) == 11


def test_gs_2_carried_units_count_destroyed_do_not():
    carried = _u("x", "infantry", 20, hex=False, box="carried")
    dead = Unit(
        "y",
        "blue",
        box="destroyed",
        steps=0,
        max_steps=5,
        data=freeze({"category": "infantry", "cost": 20}),
    )
    assert supply_exclusion(carried) is None and force_total([carried, dead], "blue")[0] == 20


# -- EXP (digest test 12) --------------------------------------------------------------------------
def test_exp_1_rolls_and_exp_2_purchase_price():
    assert bonus_for(9, T["experience"]) == "exploit-weakness"
    assert bonus_for(4, T["experience"]) == "none"
    assert purchase_price(30, 3, T["experience"]) == 45
    with pytest.raises(ValueError, match="up to 3"):
        purchase_price(30, 4, T["experience"])


def test_exp_2_only_crews_and_infantry_earn_experience():
    assert eligible(_u("i", "infantry", 5), T["experience"]) and eligible(
        _u("t", "vehicle", 5, crew=6), T["experience"]
    )
    assert not eligible(_u("p", "pillbox", 5), T["experience"]) and not eligible(
        _u("v", "vehicle", 5), T["experience"]
    )
    assert stars(["none", "vigilant", "vigilant"]) == 2


# -- SC (digest test 13)
# ----------------------------------------------------------------------------
def test_sc_scoring_values():
    s = T["scoring"]
    assert destroy_points(30, 2, "vehicle", s) == 40
    assert capture_points(30, 2, False, s) == 70
    assert capture_points(30, 2, True, s) == 40
    assert (
        destroy_points(20, 0, "forward-hq", s) == 50
        and destroy_points(30, 3, "command-post", s) == 50
    )
    assert (
        action_points("capture_key_city", s) == 25 and action_points("capture_ruined_city", s) == 20
    )
    assert (
        action_points("secondary_objective", s) == 75
        and action_points("primary_objective", s) == 100
    )
    assert action_points("negotiate_conditional_surrender", s) == 50
    with pytest.raises(KeyError, match="known"):
        action_points("destroy_unit", s)


# -- ENG (digest test 14)
# ------------------------------------------------------------------------------
def test_eng_1_emplacement_recon_bridge_and_no_roll():
    e = T["engineers"]
    assert not check("emplacement", 1, 5, e) and check("emplacement", 2, 5, e)
    assert check("existing-bridge", 1, 3, e, recon=True) and not check("existing-bridge", 1, 3, e)
    assert check_number("engineered-bridge", 3, e) == "no-roll" and not needs_roll(
        "engineered-bridge", 3, e
    )
    assert check("engineered-bridge", 3, None, e)


def test_r21_roll_under_reading():
    e = T["engineers"]
    assert check("obstacle-infantry", 1, 3, e, reading="roll-under") and not check(
        "obstacle-infantry", 1, 4, e, reading="roll-under"
    )
    assert check("obstacle-infantry", 1, 5, e, recon=True, reading="roll-under")
    assert not attempt_possible("obstacle-infantry", 3, e, "roll-under") and attempt_possible(
        "obstacle-infantry", 3, e
    )


# -- TR (digest test 15)
# -------------------------------------------------------------------------------
def test_tr_transit_survival():
    t = T["transit"]
    assert [survival(r, t) for r in (1, 5, 6, 8, 9, 10)] == [
        "destroyed",
        "destroyed",
        "damaged",
        "damaged",
        "intact",
        "intact",
    ]


# -- the shipped tables
# ------------------------------------------------------------------------------------
@pytest.mark.skipif(not SOURCE.is_file(), reason="the player-aid text is not beside the repository")
def test_transcribed_tables_match_the_player_aid_text():
    text = SOURCE.read_text()
    rows = {
        "existing-bridge": "Existing Bridge 5 3 2 No Roll",
        "engineered-bridge": "Engineered Bridge 4 2 No Roll N/A",
        "obstacle-infantry": "Obstacle - Infantry 3 2 No Roll N/A",
        "obstacle-vehicle": "Obstacle - Vehicle 5 4 3 No Roll",
        "emplacement": "Emplacement 6 5 4 No Roll",
        "airfield": "Airfield 4 2 No Roll N/A",
        "shipping-facility": "Shipping Facility 4 2 No Roll N/A",
    }
    for item, line in rows.items():
        assert line in text
        cells = [
            str(c).replace("no-roll", "No Roll").replace("n/a", "N/A")
            for c in T["engineers"]["items"][item]
        ]
        assert " ".join(cells) in line, item
    assert "Check Roll Bonus 2" in text and T["engineers"]["recon_bonus"] == 2
    for roll, name in (
        (5, "Marksman, Primary"),
        (6, "Marksman, Secondary"),
        (7, "Vigilant"),
        (8, "Stealthy"),
        (9, "Exploit Weakness"),
        (10, "Combat Veteran"),
    ):
        assert f"Roll {roll}: {name}" in text
        assert T["experience"]["titles"][T["experience"]["bonuses"][roll]] == name
    assert "Roll 1-4: No Bonus" in text and "Up to 3 rolls, 5 Cost" in text
    for phrase, key in (
        ("Capture Key City 25", "capture_key_city"),
        ("Capture Ruined City 20", "capture_ruined_city"),
        ("Secondary Objective 75", "secondary_objective"),
        ("Primary Objective 100", "primary_objective"),
    ):
        assert phrase in text and T["scoring"][key]["points"] == int(phrase.split()[-1])
    assert "Add 5 Points/ Star" in text and T["scoring"]["experienced_unit"]["per_star"] == 5
    assert "1-5 Crew/Unit in transit" in text and "9-10 Crew/Unit in transit" in text
    assert (
        "10% (rounded to the nearest 1 currency)" in text
        and T["economy"]["supply_rate_percent"] == 10
    )


def test_lost_tables_ship_as_labelled_placeholders():
    for name in ("terrain", "economy", "command", "cards"):
        head = (TABLE_DIR / f"{name}.yaml").read_text()
        assert "PLACEHOLDER" in head, name
    titles = [c["title"] for deck in ("command", "events") for c in T["cards"][deck]]
    assert all("(placeholder)" in t for t in titles)
    for name in ("experience", "scoring", "engineers", "transit"):
        assert "NOT a placeholder" in (TABLE_DIR / f"{name}.yaml").read_text(), name


def test_terrain_key_names_every_type_of_the_aid():
    names = set(T["terrain"]["types"])
    assert names == {
        "sea",
        "coastal",
        "coastal-poor-lz",
        "plains",
        "river",
        "swamp",
        "mountain",
        "impassable-mountain",
        "large-city",
        "small-city",
    }
    assert (
        T["terrain"]["types"]["impassable-mountain"]["cost"] is None
        and T["terrain"]["types"]["sea"]["cost"] is None
    )


def test_tables_are_plain_yaml():
    for p in Path(TABLE_DIR).glob("*.yaml"):
        assert isinstance(yaml.safe_load(p.read_text()), dict)
