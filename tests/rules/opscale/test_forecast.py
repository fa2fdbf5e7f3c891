"""Exact previews: every rolling rule's Distribution is checked against brute-force enumeration
or against 100,000 seeded rolls of the very code that resolves play (within 3 sigma)."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from owsnb.rules.opscale.combat import (
    CombatRules,
    EngagementSpec,
    Fire,
    resolve_round,
    resolve_shot,
    roll_initiative,
)
from owsnb.rules.opscale.engineers import check, clearing_odds
from owsnb.rules.opscale.experience import bonus_for, bonus_odds
from owsnb.rules.opscale.forecast import (
    SHOT_DENOMINATOR,
    ForecastTooLarge,
    binomial_stars,
    forecast_engagement,
    initiative_odds,
    kill_chance,
    pair_forecast,
    shot_distribution,
    shot_outcomes,
    summarise,
)
from owsnb.rules.opscale.tables import load_tables
from owsnb.rules.opscale.transit import survival, survival_odds
from owsnb.rules.opscale.units import DESTROYED, Card, Weapon

N = 100_000
TABLES = load_tables()

AP_GUN = Weapon("primary", "main gun", attack_rating=11, di=6, ap=4)
TANK = Card(
    "A",
    "blue",
    "vehicle",
    endurance=16,
    half=8,
    defense=5,
    crew=10,
    weapons=(AP_GUN, Weapon("secondary", "mg", 10, 2)),
    damaged_weapons=(replace(AP_GUN, attack_rating=13),),
    damaged_defense=4,
    experience=("exploit-weakness",),
)
ENEMY = replace(TANK, id="B", side="red", experience=())


class Sampler:
    """A seeded roller for simulations: ``roll(sides, ...)`` from numpy, buffered per die size."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.buf: dict[int, tuple[list[int], int]] = {}

    def __call__(self, sides: int, purpose: str = "", rule: str = "", actor: str = "") -> int:
        vals, i = self.buf.get(sides, ([], 0))
        if i >= len(vals):
            vals, i = self.rng.integers(1, sides + 1, size=200_000).tolist(), 0
        self.buf[sides] = (vals, i + 1)
        return vals[i]


def within_3_sigma(p: Fraction, hits: int, n: int = N) -> bool:
    p = float(p)
    return abs(hits - n * p) <= 3 * math.sqrt(n * p * (1 - p)) + 1e-9


# -- exactness by enumeration --------------------------------------------------------------------
def test_oes_shot_outcomes_equal_brute_force_enumeration_of_all_dice():
    status = (16, 10)
    counts: dict = {}
    for dice in itertools.product(range(1, 21), range(1, 11), range(1, 11), range(1, 11)):
        it = iter(dice)
        shot = resolve_shot(TANK, AP_GUN, ENEMY, status, lambda *a, it=it: next(it))
        key = (shot.after, shot.kind == "malfunction")
        counts[key] = counts.get(key, 0) + 1
    exact = {(s, m): w for s, m, w in shot_outcomes(TANK, AP_GUN, ENEMY, status)}
    assert exact == counts and sum(exact.values()) == SHOT_DENOMINATOR


def test_oes_3_initiative_odds_by_enumeration():
    d = initiative_odds(2, 0)
    wins = sum(1 for a in range(1, 11) for b in range(1, 11) if a + 2 > b)
    losses = sum(1 for a in range(1, 11) for b in range(1, 11) if a + 2 < b)
    assert d["attacker"] == Fraction(wins, wins + losses) == Fraction(16, 23)


# -- exact vs 100k seeded rolls
# ---------------------------------------------------------------------
def test_oes_shot_distribution_matches_100k_seeded_attacks():
    d = shot_distribution(TANK, AP_GUN, ENEMY, (12, 7))
    roll = Sampler(11)
    seen = {k: 0 for k in d}
    for _ in range(N):
        s = resolve_shot(TANK, AP_GUN, ENEMY, (12, 7), roll)
        label = (
            "malfunction"
            if s.kind == "malfunction"
            else "destroyed"
            if s.after == DESTROYED
            else "no effect"
            if s.after == (12, 7)
            else "damaged"
            if ENEMY.damaged_at(s.after[0]) and not ENEMY.damaged_at(12)
            else "hurt"
        )
        seen[label] += 1
    assert set(seen) == set(d)
    for k, p in d.items():
        assert within_3_sigma(p, seen[k]), (k, p, seen[k])


@pytest.mark.parametrize("mods", [(2, 0), (0, -1), (1, 3)])
def test_oes_3_initiative_odds_match_100k_seeded_rolls(mods):
    roll = Sampler(sum(mods) + 7)
    wins = sum(roll_initiative("blue", "red", *mods, roll)[0] == "blue" for _ in range(N))
    assert within_3_sigma(initiative_odds(*mods)["attacker"], wins)


def _small_engagement() -> EngagementSpec:
    inf = Card(
        "I",
        "red",
        "infantry",
        endurance=8,
        half=4,
        defense=1,
        weapons=(Weapon("primary", "rifles", 11, 3),),
    )
    return EngagementSpec(
        "blue",
        "red",
        {"A": TANK, "B": ENEMY, "I": inf},
        attacks=(Fire("A", "B"),),
        retaliations=(Fire("B", "A"), Fire("I", "A")),
        attacking=("A",),
        defending=("B", "I"),
        distance={(x, y): 1 for x in "ABI" for y in "ABI"},
    )


@pytest.mark.slow
def test_oes_round_forecast_matches_100k_seeded_rounds():
    spec = _small_engagement()
    st = {"A": (16, 10), "B": (9, 4), "I": (5, 0)}
    layer = forecast_engagement(spec, st, first="red", rounds=1)[0]
    fc = summarise(spec, layer, label="one round")
    roll = Sampler(5)
    dead = {u: 0 for u in spec.order}
    outcome = {k: 0 for k in fc}
    for _ in range(N):
        res = resolve_round(spec, st, (), "red", roll)
        for u in spec.order:
            dead[u] += res.statuses[u][0] <= 0
        key = (
            "engagement continues"
            if res.winner is None
            else f"{res.winner} wins ({'attacker' if res.winner == 'blue' else 'defender'})"
        )
        outcome[key] += 1
    for k, p in fc.items():
        assert within_3_sigma(p, outcome[k]), (k, p, outcome[k])
    for u in spec.order:
        assert within_3_sigma(fc.unit(u)["P(destroyed)"], dead[u]), u


@pytest.mark.slow
def test_oes_kill_chance_within_3_rounds_matches_100k_seeded_rounds():
    """'The probability that a given unit destroys another within N rounds' (issue 12)."""
    d = kill_chance(TANK, ENEMY, rounds=3, target_status=(10, 6))
    spec = EngagementSpec(
        "blue",
        "red",
        {"A": TANK, "B": ENEMY},
        attacks=(Fire("A", "B"),),
        retaliations=(),
        attacking=("A",),
        defending=("B",),
        distance={("A", "B"): 1, ("B", "A"): 1},
    )
    roll = Sampler(3)
    by_round = {1: 0, 2: 0, 3: 0, "survives": 0}
    for _ in range(N):
        st, dis = {"A": (16, 10), "B": (10, 6)}, frozenset()
        for r in (1, 2, 3):
            res = resolve_round(spec, st, dis, "blue", roll, r)
            st, dis = res.statuses, res.disabled_next
            if res.winner:
                by_round[r] += 1
                break
        else:
            by_round["survives"] += 1
    for k, p in d.items():
        assert within_3_sigma(p, by_round[k]), (k, p, by_round[k])
    assert d[1] + d[2] + d[3] + d["survives"] == 1 and d[1] > d[2] > 0


def test_ts_1_event_check_matches_100k_seeded_rolls():
    from owsnb.rules.opscale.economy import event_drawn, event_odds

    rolls = np.random.default_rng(1).integers(1, 11, size=N).tolist()
    assert within_3_sigma(event_odds()[True], sum(event_drawn(r) for r in rolls))


def test_ti_move_odds_match_100k_seeded_checks():
    """Where a move ends when it must ford a river and cross a swamp (placeholder checks)."""
    import owsnb
    from owsnb.rules.opscale.board import checks_on, move_odds, move_reach

    from .conftest import scenario

    walls = {
        lab: "impassable-mountain"
        for lab in ("0304", "0305", "0503", "0504", "0505", "0403", "0306", "0506")
    }
    g = owsnb.load(
        scenario(
            [{"id": "B", "type": "armour-bn", "side": "blue", "hex": "0404"}],
            terrain={"0405": "river", "0406": "swamp", **walls},
        ),
        seed=1,
        save=False,
    )
    unit = g.unit("B")
    path = move_reach(g.state, unit).path_to(g.hex("0406"))
    d = move_odds(g.state, unit, path)
    checks = checks_on(g.state, unit, path)
    assert [g.state.map.label(h) for h in path] == ["0404", "0405", "0406"] and [
        n for _, n, _ in checks
    ] == [4, 3]
    seen = {k: 0 for k in d}
    for a, b in np.random.default_rng(4).integers(1, 11, size=(N, 2)).tolist():
        end = "0404" if a < 4 else ("0405" if b < 3 else "0406")
        seen[end] += 1
    for k, p in d.items():
        assert within_3_sigma(p, seen[k])


def test_tr_transit_survival_matches_100k_seeded_rolls():
    rolls = np.random.default_rng(15).integers(1, 11, size=N).tolist()
    seen = {}
    for r in rolls:
        k = survival(r, TABLES["transit"])
        seen[k] = seen.get(k, 0) + 1
    for k, p in survival_odds(TABLES["transit"]).items():
        assert within_3_sigma(p, seen[k])


def test_exp_1_experience_roll_matches_100k_seeded_rolls():
    rolls = np.random.default_rng(9).integers(1, 11, size=N).tolist()
    d = bonus_odds(TABLES["experience"])
    assert d["none"] == Fraction(2, 5)
    seen = {}
    for r in rolls:
        k = bonus_for(r, TABLES["experience"])
        seen[k] = seen.get(k, 0) + 1
    for k, p in d.items():
        assert within_3_sigma(p, seen[k])


def test_exp_2_purchased_stars_match_100k_seeded_triples():
    rng = np.random.default_rng(12)
    d = binomial_stars(3)
    seen = {k: 0 for k in d}
    for triple in rng.integers(1, 11, size=(N, 3)).tolist():
        seen[sum(bonus_for(r, TABLES["experience"]) != "none" for r in triple)] += 1
    for k, p in d.items():
        assert within_3_sigma(p, seen[k])


@pytest.mark.parametrize(
    "item, attempt, recon, reading",
    [
        ("emplacement", 1, False, "at-or-above"),
        ("existing-bridge", 1, True, "at-or-above"),
        ("obstacle-infantry", 1, False, "roll-under"),
    ],
)
def test_eng_1_clearing_odds_match_100k_seeded_rolls(item, attempt, recon, reading):
    t = TABLES["engineers"]
    rolls = np.random.default_rng(attempt + len(item)).integers(1, 11, size=N).tolist()
    ok = sum(check(item, attempt, r, t, recon=recon, reading=reading) for r in rolls)
    assert within_3_sigma(clearing_odds(item, attempt, t, recon=recon, reading=reading)[True], ok)


# -- guards and fallbacks
# ---------------------------------------------------------------------------
def test_large_engagements_refuse_an_inexact_joint_forecast_and_fall_back_attack_by_attack():
    cards = {f"A{i}": replace(TANK, id=f"A{i}") for i in range(4)} | {
        f"B{i}": replace(ENEMY, id=f"B{i}") for i in range(4)
    }
    spec = EngagementSpec(
        "blue",
        "red",
        cards,
        attacks=tuple(Fire(f"A{i}", f"B{i}") for i in range(4)),
        retaliations=tuple(Fire(f"B{i}", f"A{i}") for i in range(4)),
        attacking=tuple(f"A{i}" for i in range(4)),
        defending=tuple(f"B{i}" for i in range(4)),
        distance={(a, b): 1 for a in cards for b in cards},
    )
    st = {u: (16, 10) for u in cards}
    with pytest.raises(ForecastTooLarge):
        forecast_engagement(spec, st, rounds=2, work_limit=20_000)
    fc = pair_forecast(spec, st, init_mods=(2, 0))
    assert fc["blue fires first"] == Fraction(16, 23) and len(fc.details) == 8
    single = kill_chance(TANK, ENEMY, rounds=1)
    assert fc.details[0]["P(destroyed)"] == single[1]


def test_oes_forecast_of_a_decided_engagement_stays_decided():
    spec = _small_engagement()
    layers = forecast_engagement(
        spec, {"A": (16, 10), "B": DESTROYED, "I": DESTROYED}, first="blue", rounds=2
    )
    assert [len(x) for x in layers] == [1, 1] and layers[-1].prob(lambda k: k[2] == "blue") == 1


def test_oes_rules_options_change_the_forecast():
    spec = _small_engagement()
    st = {"A": (16, 10), "B": (9, 4), "I": (5, 0)}
    # blue fires first: tracking the crew of a pierced target (R15) kills B more often
    base = forecast_engagement(spec, st, first="blue")[0]
    off = forecast_engagement(
        replace(spec, rules=CombatRules(crew_damage="off")), st, first="blue"
    )[0]
    assert base.prob(lambda k: k[0][1][0] <= 0) > off.prob(lambda k: k[0][1][0] <= 0)
