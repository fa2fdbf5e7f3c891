"""The package: isolation from other rule sets, the layers, the scenario and a random play-out."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

import owsnb
from owsnb.kernel import ScenarioError
from owsnb.rules.tocs.layers import layer_stack, merged_rulings
from owsnb.testing import random_playout

from .conftest import board


def test_tocs_imports_no_other_rule_set():
    code = (
        "import sys, owsnb.rules.tocs, owsnb\n"
        "g = owsnb.load('tocs-nijmegen', save=False)\n"
        "others = sorted(m for m in sys.modules if m.startswith('owsnb.rules.') and not "
        "m.startswith('owsnb.rules.tocs') and m != 'owsnb.rules.tables')\n"  # the shared reader
        "print(others)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_l6_l97_precedence_module_over_period_over_basic():
    stack = layer_stack("wwii", "omg-n")
    r = merged_rulings(stack)
    assert r["pursuit_into_occupied"] == "engagement"  # WWII L738 over Basic L74
    assert r["supply_bases_public"] is False  # OMG-N L824 over WWII L207
    assert r["paradrop_into_enemy"] == "engagement"  # OMG-N L780 over WWII L624
    assert merged_rulings(layer_stack("wwii", "none"))["paradrop_into_enemy"] == "ambush"


def test_module_tables_and_scenario_overrides_stack():
    g = board(options={"module": "omg-n"}, tables={"crt_terrain": {"shift": {"clear": 1}}})
    t = g.state.tables
    assert t["victory_points"]["german"]["nijmegen_bridge"] == 5  # module table present
    assert (
        t["crt_terrain"]["shift"]["clear"] == 1 and t["crt_terrain"]["shift"]["city"] == -2
    )  # scenario wins key by key
    assert t["rulings"]["supply_bases_public"] is False


def test_every_lost_table_is_labelled_placeholder():
    t = board().state.tables
    for name in ("crt", "crt_terrain", "cot", "weather", "interrogation", "turn_end_track"):
        assert t[name]["placeholder"] is True, name


# digest 6 "Tables: every one": the lost tables actions will read, each labelled and citing its lines
LOST = (
    "straying",
    "infiltration",
    "fording",
    "artillery_strike",
    "bombardment",
    "aa_combat",
    "air_interception",
    "air_combat",
    "ground_strike",
    "bombing",
    "descending_drift",
)


@pytest.mark.parametrize("name", LOST)
def test_digest_6_lost_table_ships_as_labelled_placeholder(name):
    t = board().state.tables[name]
    assert t["placeholder"] is True
    assert (
        "PLACEHOLDER" in t["note"]
        and "lost" in t["note"]
        and "L" in t["note"].split("lost", 1)[1][:12]
    )
    assert t["dice"] in ("d6", "2d6")


def test_lost_tables_keep_the_constraints_the_text_states():
    t = board().state.tables
    # 2d6 tables read one entry per roll 2..12
    for name, key in (("artillery_strike", "results"), ("bombardment", "hits")):
        assert all(len(row) == 11 for row in t[name][key].values()), name
    assert len(t["ground_strike"]["results"]) == 11 and len(t["bombing"]["hits"]) == 11
    # L345/L349/L350: harder fire never does less; TOT doubles the strength
    bands = t["bombardment"]["hits"]
    rows = [bands[str(b)] for b in t["bombardment"]["strength_bands"]]
    assert all(
        a <= b for lo, hi in zip(rows, rows[1:], strict=False) for a, b in zip(lo, hi, strict=True)
    )
    assert t["bombardment"]["tot_factor"] == 2
    # L569-L570: light AA range 1 against low missions, heavy AA range 2 against bombing only
    aa = t["aa_combat"]
    assert aa["range"] == {"light": 1, "heavy": 2} and list(aa["high_altitude"]) == [
        "bombing",
        "carpet-bombing",
    ]
    assert not set(aa["low_altitude"]) & set(aa["high_altitude"])
    # L615 (text): carpet bombing twice per hex, accurate on d6 + pathfinders >= 4, misses 1 hex (1-5) or 2 (6)
    carpet = t["bombing"]["carpet"]
    assert carpet["resolutions_per_hex"] == 2 and carpet["accurate_at_least"] == 4
    assert [carpet["miss_distance"][r] for r in range(1, 7)] == [1, 1, 1, 1, 1, 2]
    # L609: a pathfinder negates one drift / helps accuracy
    assert t["descending_drift"]["drm"]["pathfinder"] < 0 < t["ground_strike"]["drm"]["pathfinder"]
    # L263: infiltration success and failure are column shifts the CRT shift list carries
    assert t["crt_shifts"]["infiltration_success"]["to"] == "attacker"
    assert t["crt_shifts"]["infiltration_failure"]["to"] == "defender"
    # L395-L401: fording is a d6 per ground condition, drier never harder
    f = t["fording"]["succeeds_at_most"]
    assert f["dry"] >= f["moist"] >= f["wet"] >= f["mud"]


def test_scenario_loads_with_perimeter_and_secret_victory():
    g = owsnb.load("tocs-nijmegen", save=False)
    s = g.state
    assert (
        s.clock.step == "3.3" and s.public["phasing"] == "allied"
    )  # OMG-N: the Allies move first (L774)
    own = {x: sum(1 for i in s.map.hexes.values() if i.facts["owner"] == x) for x in s.sides}
    assert own["allied"] > 0 and own["german"] > own["allied"]
    assert "vp" not in str(dict(s.public)).lower()
    assert g.view("german").sides["allied"].private == {}


def test_unit_outside_its_perimeter_is_a_located_scenario_error():
    with pytest.raises(ScenarioError) as e:
        board(extra_units=[{"id": "A-9", "type": "para-company", "side": "allied", "hex": "0909"}])
    assert "outside allied's perimeter" in str(e.value)


def test_random_playout_is_sound_and_fast():
    g = owsnb.load("tocs-nijmegen", seed=5, save=False)
    t = time.perf_counter()
    rep = random_playout(g, max_orders=120, seed=5, pass_weight=0.1)
    assert time.perf_counter() - t < 20
    assert len(rep.orders) >= 100 or rep.over
    verbs = {o.split(":")[1].split()[0] for o in rep.orders}
    assert {"begin", "activate", "move"} <= verbs


def test_wwii_action_list_names_only_verbs_that_exist():
    g = board()
    verbs = set(g.ruleset.order_types)
    actions = g.state.tables["actions"]
    assert len(actions) >= 30
    used = {a["verb"] for a in actions.values() if a["verb"]}
    assert used <= verbs
    assert {
        "move",
        "recon",
        "probe",
        "attack",
        "withdraw",
        "extend",
        "reserve",
        "rally",
        "fly",
        "sail",
    } <= used


def test_random_playout_offers_and_plays_the_new_actions_without_a_leak():
    g = owsnb.load("tocs-nijmegen", seed=5, save=False)
    rep = random_playout(
        g, max_orders=250, seed=5, pass_weight=0.05
    )  # scans every view after each order
    verbs = {o.split(":")[1].split()[0] for o in rep.orders}
    assert {"improve", "reassign"} <= verbs and verbs & {"interdict", "strike", "infiltrate"}, verbs
