"""What an Operational Art position is worth, for bots (``owsnb.bots``): pure functions over a
view (or the truth), in victory points (R20).

* ``standing`` — the side's R20 score minus its enemy's (objectives held, enemy divisions
  broken, enemy stands destroyed) plus ``MATERIAL`` points per combat value on the battlefield
  more than the enemy's (the tie-breaker: losses also drain divisional morale, §9);
* ``order_value`` — an ``attack`` is worth its expected effect from the exact §14 preview
  (combat value the defender loses minus the attacker's, destruction scored as R20 scores it);
  a ``move`` onto an objective the side does not hold is worth the objective's points (R20);
* ``goals`` — objectives the side does not hold (their points) and enemy stands (to engage);
* ``sample_hidden`` — the table is open: only the face-down activation cards' order (§12.1) is
  unknown; it is drawn as a shuffle of the cards the view shows face down.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.rules.opart import activation, victory

__all__ = ["SCALE", "APPROACH", "standing", "order_value", "goals", "sample_hidden"]

SCALE = 3.0
APPROACH = 1.0
MATERIAL = 0.5

_LOSSES = {  # effect (combat.effect_of) -> (attacker CV lost, defender CV lost, defender withdraws)
    "no effect": (0, 0),
    "attacker -1": (1, 0),
    "defender -1": (0, 1),
    "defender -2": (0, 2),
    "defender -2, withdraws": (0, 2),
}


def _enemy(state: Any, side: str) -> list[str]:
    return [s for s in state.sides if s != side]


def standing(state: Any, side: str) -> float:
    """R20 points of *side* minus the best enemy's, plus material (combat value on the board)."""
    sc = victory.score(state)
    foe = max((sc[s]["total"] for s in _enemy(state, side)), default=0)
    own_cv = sum(u.steps for u in state.units.values() if u.side == side and u.hex is not None)
    foe_cv = sum(u.steps for u in state.units.values() if u.side != side and u.hex is not None)
    return float(sc[side]["total"] - foe) + MATERIAL * (own_cv - foe_cv)


def order_value(view: Any, order: Any, preview: Any) -> float:
    """Expected worth of *order* to ``view.side`` in points (see the module docstring)."""
    if order.verb == "attack" and preview is not None:
        att = view.units.get(order.args[0]) if order.args else None
        tgt = view.units.get(order.args[1]) if len(order.args) > 1 else None
        if att is None or tgt is None:
            return 0.0
        pts = victory.settings(view).get("destroyed_stand", 0)
        value = 0.0
        for effect, p in preview.items():
            if "attacker destroyed" in effect:
                lost_a, lost_d, dead_a, dead_d = att.steps, 0, 1, 0
            elif "destroyed" in effect:
                lost_a, lost_d, dead_a, dead_d = 0, tgt.steps, 0, 1
            else:
                lost_a, lost_d = _LOSSES.get(effect, (0, 0))
                dead_a = dead_d = 0
            value += float(p) * (MATERIAL * (lost_d - lost_a) + pts * (dead_d - dead_a))
        return value
    if order.verb == "move" and len(order.args) > 1:
        h = view.map.find(order.args[1])
        if h is None:
            return 0.0
        for o in victory.objectives(view):
            if view.map.hex(o["hex"]) == h and o["control"] != view.side:
                return float(o["points"])
    return 0.0


def goals(view: Any) -> dict[Hex, float]:
    """Objectives not held (their points) and enemy stands on the battlefield (0.5 each)."""
    out: dict[Hex, float] = {}
    for u in view.units.values():
        if u.side != view.side and u.hex is not None:
            out[u.hex] = out.get(u.hex, 0.0) + 0.5
    for o in victory.objectives(view):
        if o["control"] != view.side:
            h = view.map.hex(o["hex"])
            out[h] = out.get(h, 0.0) + float(o["points"])
    return out


def sample_hidden(view: Any, rng: Any) -> dict[str, Any]:
    """The face-down activation cards in a random order (§12.1): the only secret of the table."""
    cards = activation.face_down(view)
    order = [cards[int(i)] for i in rng.permutation(len(cards))]
    return {"secret": {"deck": order}}
