"""Vectorised OWS engagements (montecarlo.py) against the exact previews and the per-event rule code.

Each comparison is within 3 sigma: a sample against an exact probability (binomial sigma), or two
samples against each other (two-sample sigma of the difference of proportions).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from owsnb.kernel.dice import Dice, rng_state_for_seed
from owsnb.kernel.game import Game
from owsnb.kernel.orders import Order
from owsnb.rules.ows import isr, strike
from owsnb.rules.ows import montecarlo as mc
from owsnb.rules.ows.common import Roller, apply_hits
from owsnb.rules.ows.dice import LADDER, hits, success_probability
from owsnb.rules.ows.salvos import SalvoPlan, allocate

from .conftest import at, load, within_3_sigma

N = 100_000
SEEN = {"Type055-1": {"seen_by": ["blue"]}, "Type054-1": {"seen_by": ["blue"]}}


def _counts(a: np.ndarray) -> dict[int, int]:
    v, c = np.unique(a, return_counts=True)
    return {int(k): int(x) for k, x in zip(v, c, strict=True)}


def _vs_exact(sample: np.ndarray, dist) -> list[str]:
    return within_3_sigma({int(k): p for k, p in dist.items()}, _counts(sample), len(sample))


def two_sample_3_sigma(a: dict[int, int], na: int, b: dict[int, int], nb: int) -> list[str]:
    """Outcomes whose frequencies in two independent samples differ by more than 3 sigma."""
    bad = []
    for k in set(a) | set(b):
        pa, pb = a.get(k, 0) / na, b.get(k, 0) / nb
        p = (a.get(k, 0) + b.get(k, 0)) / (na + nb)
        sigma = (p * (1 - p) * (1 / na + 1 / nb)) ** 0.5
        if abs(pa - pb) > 3 * sigma + 1e-12:
            bad.append(f"{k}: {pa:.4f} vs {pb:.4f} (3 sigma {3 * sigma:.4f})")
    return bad


# -- building blocks -------------------------------------------------------------------------------
def test_2_1_1_3_hit_tables_are_read_from_dice_hits_for_every_die_and_shield():
    for die in LADDER:
        for red in range(0, 9):
            for crit in (True, False):
                t = mc.hits_table(die, red, crit)
                want = [
                    hits(r, red, critical=crit) if red > 0 else 1
                    for r in range(1, int(die[1:]) + 1)
                ]
                assert t[1:].tolist() == want, (die, red, crit)


def test_2_1_rolls_are_uniform_on_the_die_faces():
    r = mc.roll(mc.rng_of(5), "d12", N)
    assert within_3_sigma({k: 1 / 12 for k in range(1, 13)}, _counts(r), N) == []


def test_same_seed_same_sample_other_seed_other_sample():
    e = mc.strike_engagement(
        salvos=["d10", "d12", "d8"], grey_shields=[7, 6, 6, 5], red_shield=4, cap=1, steps=2
    )
    a, b, c = e.sample(5_000, seed=11), e.sample(5_000, seed=11), e.sample(5_000, seed=12)
    for k in e.outcomes:
        assert np.array_equal(a[k], b[k])
    assert not np.array_equal(a["hits"], c["hits"])


def test_9_6_steps_lost_agree_with_apply_hits_countermeasures_and_last_step():
    g = load(units={"DDG-1": {"markers": ["countermeasures"]}})
    for n in range(0, 6):
        _, lost, _ = apply_hits(
            g.state, g.unit("DDG-1"), n, rule="9.6"
        )  # 7.2.1.4: first hit absorbed
        assert mc.steps_lost(n, g.unit("DDG-1").steps, countermeasures=True) == lost
        _, lost, _ = apply_hits(g.state, g.unit("Type055-1"), n, rule="9.6")
        assert mc.steps_lost(n, 2) == lost
    g2 = load(options={"missiles_spare_last_step": True})
    for n in range(0, 5):  # 9.4.1: missiles cannot take a manoeuvre unit's last step
        _, lost, _ = apply_hits(g2.state, g2.unit("BDE-R"), n, rule="9.6", cause="missile")
        assert mc.steps_lost(n, g2.unit("BDE-R").steps, spare_last_step=True) == lost
    assert np.array_equal(mc.steps_lost(np.arange(5), 2, countermeasures=True), [0, 0, 1, 2, 2])


# -- strike vs the exact previews (10^5 replications) ------------------------------------------------
@pytest.mark.parametrize("excess", ["demote", "layered"])
def test_9_2_1_three_d10_salvos_vs_five_grey_shields_match_the_exact_preview(excess):
    """9.2.1.1 basic (two salvos demoted) and 9.2.1.2 layered (two salvos face two layers)."""
    e = mc.strike_engagement(
        salvos=["d10"] * 3, grey_shields=5, red_shield=5, excess=excess, steps=2
    )
    assert [p.die for p in e.plans] == [
        p.die for p in allocate(["d10"] * 3, [6] * 5, excess=excess, red=5)
    ]
    pv = strike.preview(None, "target", ["d10"] * 3, grey_shields=5, red_shield=5, excess=excess)
    assert e.exact()["hits"][0] == pv.hits  # the exact preview of the rule code
    s = e.sample(N, seed=1)
    ex = e.exact()
    for k in e.outcomes:
        assert _vs_exact(s[k][:, 0], ex[k][0]) == [], k


def test_9_9_4_1_and_2_1_1_3_cap_intercept_mixed_dice_and_criticals_match_salvo_distribution():
    plans = allocate(["d10", "d12", "d8", "d20"], [7, 6, 6, 5, 5], excess="demote", red=4)
    plans = [replace(p, target="T") for p in plans]
    plans[0] = replace(plans[0], cap=("d10", 5))  # a subsonic salvo intercepted by a CAP
    plans[3] = replace(plans[3], cap=("d12", 7))  # a supersonic one
    e = mc.StrikeEngagement(tuple(plans), {"T": 3})
    exact = strike._sum(p.distribution() for p in plans)
    assert e.exact()["hits"][0] == exact
    s = e.sample(N, seed=2)
    assert _vs_exact(s["hits"][:, 0], exact) == []
    assert _vs_exact(s["killed"][:, 0], e.exact()["killed"][0]) == []
    # per salvo too: every column follows its own SalvoPlan
    per = mc.sample_salvos(plans, N, seed=3)
    for j, p in enumerate(plans):
        assert _vs_exact(per[:, j], p.distribution()) == [], p


def test_2_2_2_7_ballistic_salvo_skips_non_bmd_shields_and_red_arrow_demotes():
    bal = SalvoPlan("d12", red=5, flags=frozenset({"MRBM"}), base_die="d12", target="T")
    plans = allocate(
        [bal, replace(bal, flags=frozenset({"SRBM"}))],
        [{"value": 7, "bmd": True, "red_arrow": True}, 6],
    )
    e = mc.StrikeEngagement(tuple(plans), {"T": 2})
    s = e.sample(N, seed=4)
    assert _vs_exact(s["hits"][:, 0], e.exact()["hits"][0]) == []


def test_strike_from_a_game_uses_the_previews_plans_and_agrees_with_it():
    g = at(load(units=SEEN), "6.B.2")
    pv = strike.preview(g, "Type055-1", ["DDG-1:tlam", "DDG-1:tlam"], grey_shields=3)
    e = mc.strike_engagement(g, "Type055-1", ["DDG-1:tlam", "DDG-1:tlam"], grey_shields=3)
    assert e.plans == tuple(pv.plans) and e.steps == {"Type055-1": 2}
    assert e.exact()["hits"][0] == pv.targets["Type055-1"]
    assert (
        e.exact()["steps_lost"][0] == pv.steps["Type055-1"]
    )  # same as the preview's own step mapping
    assert e.exact()["killed"][0][1] == pv.kill_probability()
    s = e.sample(N, seed=5)
    for k in e.outcomes:
        assert _vs_exact(s[k][:, 0], e.exact()[k][0]) == [], k


def test_9_9_one_to_many_strike_has_one_column_per_target():
    ssgn = {
        "id": "SSGN-1",
        "type": "ssn",
        "side": "blue",
        "hex": "0404",
        "data": {
            "attacks": [
                {
                    "id": "tlam",
                    "die": "d10",
                    "count": 18,
                    "targets": ["ground", "naval"],
                    "range": 6,
                }
            ]
        },
    }
    seen = {"HQ-R": {"seen_by": ["blue"]}, "BDE-R": {"seen_by": ["blue"]}}
    g = at(load(units=seen, add=[ssgn], options={"one_to_many": True}, remove=("HQ9-1",)), "6.B.1")
    e = mc.strike_engagement(g, "HQ-R", ["SSGN-1:tlam:HQ-R"] * 2 + ["SSGN-1:tlam:BDE-R"] * 3)
    assert e.targets == ("HQ-R", "BDE-R")
    s = e.sample(N, seed=6)
    for j in range(2):
        assert _vs_exact(s["hits"][:, j], e.exact()["hits"][j]) == []


# -- strike vs the per-event rule code ---------------------------------------------------------------
def test_9_2_vectorised_salvos_agree_with_roll_salvo_through_seeded_dice():
    """The rule code's own roll function (``strike._roll_salvo``) through a seeded kernel Dice."""
    plans = [
        replace(p, target="T")
        for p in allocate(["d10", "d12", "d8"], [6, 7, 6, 5], excess="demote", red=4)
    ]
    plans[0] = replace(plans[0], cap=("d10", 5))
    roller = Roller(Dice.from_seed(8))
    n_event = 20_000
    per_event: dict[int, int] = {}
    for _ in range(n_event):
        h = sum(strike._roll_salvo(roller, p, None, "salvo") for p in plans)
        per_event[h] = per_event.get(h, 0) + 1
        roller.rolls.clear()
        roller.dice.events.clear()
    vec = mc.StrikeEngagement(tuple(plans), {"T": 9}).sample(N, seed=8)["hits"][:, 0]
    assert two_sample_3_sigma(per_event, n_event, _counts(vec), N) == []
    assert (
        within_3_sigma(dict(strike._sum(p.distribution() for p in plans)), per_event, n_event) == []
    )


def test_9_2_1_vectorised_strike_agrees_with_strike_resolve_on_forked_games():
    """The whole per-event path: ``strike.resolve`` submits strike + shields on a game with its own dice."""
    g = at(load(units=SEEN, remove=("SSK-1",)), "6.B.2")
    tokens = ["DDG-1:tlam", "DDG-1:tlam"]
    n_event = 600
    counts: dict[int, int] = {}
    for i in range(n_event):
        f = Game(g.ruleset, replace(g.state, rng=rng_state_for_seed(1000 + i)))
        r = strike.resolve(f, "Type055-1", tokens, grey_shields=2)
        lost = r.outcome["steps_lost"]["Type055-1"]
        assert lost == 2 - f.unit("Type055-1").steps
        counts[lost] = counts.get(lost, 0) + 1
    e = mc.strike_engagement(g, "Type055-1", tokens, grey_shields=2)
    vec = e.sample(N, seed=9)["steps_lost"][:, 0]
    assert two_sample_3_sigma(counts, n_event, _counts(vec), N) == []
    assert within_3_sigma(dict(e.exact()["steps_lost"][0]), counts, n_event) == []


# -- detection (8.4, 8.5, 8.5.3) -------------------------------------------------------------------
def test_8_4_theater_isr_dashboard_die_vs_every_unit_in_the_hex():
    g = at(load(), "5.1")
    e = mc.detection_engagement(g, "blue", "0504")
    assert e.rolls == (("Type055-1", "d10", 7), ("Type054-1", "d10", 7)) and e.mode == "theater"
    assert (
        e.exact()["detected"][0][1]
        == isr.theater_preview(g, "blue", 7)[True]
        == success_probability("d10", 7)
    )
    s = e.sample(N, seed=10)["detected"]
    for j in range(2):
        assert _vs_exact(s[:, j], e.exact()["detected"][j]) == []
    # per event: the TheaterISR handler adjudicating with seeded Dice
    o = Order.parse("blue: isr 0504")
    args = g.ruleset.check(g.state, o)
    handler = isr.TheaterISR()
    n_event = 5_000
    found = {"Type055-1": 0, "Type054-1": 0}
    for i in range(n_event):
        res = handler.adjudicate(g.state, o, args, Dice.from_seed(i)).result
        for u in res.outcome["detected"]:
            found[u] += 1
    for j, t in enumerate(e.targets):
        assert (
            two_sample_3_sigma({1: found[t], 0: n_event - found[t]}, n_event, _counts(s[:, j]), N)
            == []
        ), t


def test_8_5_3_cooperative_sensing_promotes_the_best_die_uncapped_against_surface_ships():
    # two DDG radars d10 and an E-2D one hex away (d10, 6.5.9.2): d10 promoted twice = d16; the
    # D12 cap is only "for ASW operations and when sensing stealth aircraft" (8.5.3)
    ddg2 = {"id": "DDG-2", "type": "ddg-flight-iia", "side": "blue", "hex": "0404"}
    g = at(
        load(units={"E2D-1": {"hex": "0404", "box": None}}, add=[ddg2], remove=("SSK-1",)), "5.2"
    )
    sensors = ["DDG-1", "DDG-2", "E2D-1"]
    e = mc.detection_engagement(g, "blue", "0504", sensors)
    assert e.targets == ("Type055-1", "Type054-1")
    for t, die, _ in e.rolls:
        assert (
            die
            == isr.local_die(g.state, "blue", [g.unit(s) for s in sensors], g.unit(t))[0]
            == "d16"
        )
        assert (
            e.exact()["detected"][e.targets.index(t)][1]
            == isr.local_preview(g, "blue", sensors, t)[True]
        )
    s = e.sample(N, seed=11)["detected"]
    for j in range(len(e.targets)):
        assert _vs_exact(s[:, j], e.exact()["detected"][j]) == []
    what_if = mc.detection_engagement(dice=["d10", "d10", "d8"], signature=7)
    assert what_if.rolls == (("target", "d16", 7),)  # no cap against a surface target (8.5.3)
    assert mc.detection_engagement(dice=["d10", "d10", "d8"], limit="d12").rolls[0][1] == "d12"


def test_8_5_local_detection_agrees_with_the_detect_handler_per_event():
    g = at(load(units={"E2D-1": {"hex": "0404", "box": None}}, remove=("SSK-1",)), "5.2")
    sensors = ["DDG-1", "E2D-1"]
    o = Order.parse("blue: detect 0504 sensors=DDG-1,E2D-1")
    args = g.ruleset.check(g.state, o)
    e = mc.detection_engagement(g, "blue", "0504", sensors)
    assert e.rolls == (
        ("Type055-1", "d12", 7),
        ("Type054-1", "d12", 7),
    )  # d10 + d10 cooperating (8.5.3)
    n_event = 4_000
    found = dict.fromkeys(e.targets, 0)
    for i in range(n_event):
        res = isr.Detect().adjudicate(g.state, o, args, Dice.from_seed(50_000 + i)).result
        for u in res.outcome["detected"]:
            found[u] += 1
    s = e.sample(N, seed=12)["detected"]
    for j, t in enumerate(e.targets):
        assert (
            two_sample_3_sigma({1: found[t], 0: n_event - found[t]}, n_event, _counts(s[:, j]), N)
            == []
        ), t


# -- the GCAT (10.15.9) ------------------------------------------------------------------------------
def test_10_15_9_gcat_column_shifts_die_changes_and_rows_come_from_the_ground_module():
    from owsnb.rules.ows import ground
    from owsnb.rules.ows.dice import shift

    e = mc.gcat_engagement(odds="1:1", shift=2, die="d10", die_change=1, shield=5)
    cols = e.gcat["columns"]
    assert e.column == ground.column_index("1:1", cols, 2) and e.die == shift("d10", 1) == "d12"
    t = e._tables()
    for r in range(1, 13):
        assert t["row"][r] == ground.row_index(r, 5, e.gcat["rows"])
        cell = ground.parse_result(ground.gcat_cell(e.gcat, e.column, r, 5))
        assert (
            t["defender_steps"][r],
            t["defender_retreat"][r],
            t["attacker_steps"][r],
            t["exploit"][r],
        ) == (cell["d"], cell["dr"], cell["a"], int(cell["exp"]))
    s = e.sample(N, seed=13)
    ex = e.exact()
    for k in e.outcomes:
        assert _vs_exact(s[k][:, 0], ex[k][0]) == [], k


def test_10_15_9_gcat_from_a_game_agrees_with_the_preview_and_with_ground_resolve():
    from owsnb.rules.ows import ground

    g = at(
        load(units={"BDE-R": {"hex": "0205", "seen_by": ["blue"]}, "BDE-B": {"seen_by": ["red"]}}),
        "6.C.3",
    )
    cb = ground.preview(g, "0205", ["BDE-B"])
    e = mc.gcat_engagement(g, "0205", ["BDE-B"])
    assert (e.column, e.die, e.shield) == (cb.column, cb.die, cb.shield) and e.targets == ("0205",)
    cells = cb.distribution()
    for name, key in (("defender_steps", "d"), ("attacker_steps", "a"), ("defender_retreat", "dr")):
        assert e.exact()[name][0] == cells.map(lambda c, key=key: int(ground.parse_result(c)[key]))
    vec = e.sample(N, seed=14)
    n_event = 400
    per_event: dict[str, dict[int, int]] = {
        "defender_steps": {},
        "attacker_steps": {},
        "defender_retreat": {},
    }
    for i in range(n_event):
        f = Game(g.ruleset, replace(g.state, rng=rng_state_for_seed(7_000 + i)))
        res = ground.resolve(f, "0205", ["BDE-B"])
        parsed = ground.parse_result(res.outcome["cell"])
        for name, key in (
            ("defender_steps", "d"),
            ("attacker_steps", "a"),
            ("defender_retreat", "dr"),
        ):
            per_event[name][parsed[key]] = per_event[name].get(parsed[key], 0) + 1
    for name, counts in per_event.items():
        assert two_sample_3_sigma(counts, n_event, _counts(vec[name][:, 0]), N) == [], name
        assert (
            within_3_sigma({int(k): p for k, p in e.exact()[name][0].items()}, counts, n_event)
            == []
        ), name


def test_9_9_7_infrastructure_target_loses_capacity_as_the_preview_says():
    shooter = {
        "id": "R-GLCM",
        "type": "df21",
        "side": "red",
        "hex": "0303",
        "data": {
            "attacks": [{"id": "c", "die": "d12", "count": 2, "targets": ["ground"], "range": 2}]
        },
    }
    g = at(load(add=[shooter], remove=("PATRIOT-1",)), "6.B.1")
    e = mc.strike_engagement(g, "port:0203", ["R-GLCM:c", "R-GLCM:c"])
    assert e.targets == ("port:0203",) and e.steps == {"port:0203": 4}  # capacity 4 (9.9.7)
    pv = strike.preview(g, "port:0203", ["R-GLCM:c", "R-GLCM:c"])
    assert e.exact()["steps_lost"][0] == pv.steps["port:0203"]
    s = e.sample(N, seed=15)
    assert _vs_exact(s["steps_lost"][:, 0], e.exact()["steps_lost"][0]) == []
