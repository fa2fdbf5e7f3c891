"""Random play-out of the OWS test strait for several full turns: invariants hold, expended salvos
come back only by a rule, views never show an undetected enemy unit."""

import pytest

from owsnb.rules.ows.units import counter
from owsnb.testing import random_playout

from .conftest import load

RESET_RULES = {"11.8", "11.9", "11.4", "2.2.2.5"}


def _spent_only_returns_by_rule(game):
    """Salvos and shields marked expended come back only in Regeneration (11.4, 11.8, 11.9)."""
    evs = game.events
    last = evs[-1].batch if evs else 0
    for e in evs:
        if e.batch != last or e.kind != "unit.set" or "data" not in e.data["changes"]:
            continue
        new = e.data["changes"]["data"].get("spent")
        if new is None:
            continue
        before = counter(game.state_at(e.seq - 1).units[e.data["id"]]).spent
        for k, v in before.items():
            if int(new.get(k, 0)) < int(v):
                assert e.rule in RESET_RULES, f"{e.data['id']} {k} restored by {e.rule!r}"


def _no_undetected_enemy_in_views(game):
    from owsnb.rules.ows.common import detected

    for side in game.state.sides:
        for u in game.view(side).units.values():
            if u.side == side or u.kind == "unknown" or "last-known" in u.markers:
                continue
            truth = game.state.units[u.id]
            if truth.hex is not None:
                assert detected(game.state, truth, side), f"{side} sees undetected {u.id}"


def _legal_orders_leak_nothing(game):
    """What the order panel would send a seat (legal order specs) names no hidden enemy unit."""
    from owsnb.testing import find_leaks, hidden_tokens

    for side in game.state.sides:
        legal = game.legal_orders(side)
        payload = [
            [str(o) for o in spec.examples] + [list(v) for v in spec.candidates.values()]
            for spec in legal
        ]
        leaks = find_leaks(payload, hidden_tokens(game.state, side, game.ruleset))
        assert not leaks, f"{side}'s legal orders leak {leaks[:3]}"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_three_turns(seed):
    g = load(seed=seed)
    checks = [_spent_only_returns_by_rule, _no_undetected_enemy_in_views]
    if seed == 1:
        checks.append(_legal_orders_leak_nothing)
    rep = random_playout(g, max_orders=400, seed=seed, extra_checks=checks)
    assert rep.turns >= 3 and rep.over
    verbs = {o.split(":")[1].split()[0] for o in rep.orders}
    assert {"isr", "detect", "io", "fly"} <= verbs


def test_random_playout_with_options():
    g = load(
        seed=5,
        options={
            "face_down": True,
            "strike_order": "chits",
            "best_die": True,
            "excess_shields": "layered",
        },
    )
    rep = random_playout(g, max_orders=300, seed=5, extra_checks=[_no_undetected_enemy_in_views])
    assert rep.turns >= 2
