"""Random play-out of the OWS ground test map (tests/data/ows-ground): every phase including strategic
movement, naval moves, the Ground phase (organize, initiative passes, prep fire, moves, attacks with the
defender's window, exploitation) and supply; invariants hold, stacking is never exceeded, views and
legal-order payloads never name an undetected enemy unit, the history replays."""

import pytest

from owsnb.rules.ows.common import detected
from owsnb.rules.ows.movement import stack_steps, stacking_limit
from owsnb.testing import find_leaks, hidden_tokens, random_playout

from .ground_kit import gload


def _stacking(game):
    s = game.state
    lim = stacking_limit(s)
    for side in s.sides:
        for hx in {u.hex for u in s.units.values() if u.hex is not None and u.side == side}:
            here = [u for u in s.units.values() if u.hex == hx and u.side == side]
            landed = any(int(u.data.get("landed", 0) or 0) for u in here)
            assert stack_steps(s, here, hx) <= (12 if landed else lim), (
                f"{side} overstacked in {s.map.label(hx)}"
            )


def _views(game):
    for side in game.state.sides:
        for u in game.view(side).units.values():
            if u.side == side or u.kind == "unknown" or "last-known" in u.markers:
                continue
            truth = game.state.units[u.id]
            if truth.hex is not None:
                assert detected(game.state, truth, side), f"{side} sees undetected {u.id}"


def _legal(game):
    for side in game.state.sides:
        payload = [
            [str(o) for o in spec.examples] + [list(v) for v in spec.candidates.values()]
            for spec in game.legal_orders(side)
        ]
        leaks = find_leaks(payload, hidden_tokens(game.state, side, game.ruleset))
        assert not leaks, f"{side}'s legal orders leak {leaks[:3]}"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_of_the_ground_phases(seed):
    g = gload(seed=seed)
    rep = random_playout(
        g,
        max_orders=260,
        seed=seed,
        extra_checks=[_stacking, _views] + ([_legal] if seed == 1 else []),
    )
    assert rep.turns >= 3
    verbs = {o.split(":")[1].split()[0] for o in rep.orders}
    assert {"move", "defend"} & verbs and len(
        {"move", "attack", "prep-fire", "exploit", "bypass", "disengage"} & verbs
    ) >= 1
    steps = {e.data["clock"].step for e in g.events if e.kind == "clock.set"}
    assert {"6.C.2", "6.C.3", "7.A"} <= steps


def test_random_playout_with_the_advanced_and_optional_ground_rules():
    g = gload(
        seed=4,
        options={
            "ground_initiative": "formation",
            "reaction_move": True,
            "css": True,
            "rear_area": True,
            "fire_splitting": True,
            "quality_alternative": True,
        },
    )
    rep = random_playout(g, max_orders=220, seed=4, extra_checks=[_stacking, _views])
    assert rep.turns >= 2
