"""What an Operational Scale position is worth, for bots (``owsnb.bots``): pure functions over a
view (or the truth), in scoring points (SC.1-SC.10: a destroyed unit scores its Cost).

* ``standing`` — the side's score minus the best other player's (public tracks), plus
  ``FORCE`` times the Cost of its forces on the battlefield (on a hex or carried, TS.4; weighted
  by Endurance left, OES.9) more than its enemies' (neutrals included: they fight back);
* ``order_value`` — ``engage``, ``retaliate``, ``round`` and ``fight`` are worth their exact
  forecast (per unit: P(destroyed) times its Cost — what SC.1 scores — and the Endurance it is
  expected to lose, as force); ``buy`` a little (force to come, TS.2); ``withdraw`` by a
  defender that has not answered yet (R16, OES.2) what staying without firing back would cost,
  by its exact forecast, less ``WITHDRAW`` (the enemy's experience); ``surrender`` nothing; a
  ``move`` (or ``deploy``) costs the own risk it adds — ``RISK`` of the unit's Cost per
  enemy unit that could engage it where it ends (weapon range, R11, and a move);
* ``goals`` — the side's objectives (primary 3, secondary 1.5) and enemy units (0.3 each);
* ``sample_hidden`` — what is hidden is the others' hands and funds (their private facts): the
  bots' default (none) stands.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.rules.opscale.economy import on_battlefield

__all__ = ["SCALE", "APPROACH", "standing", "order_value", "goals"]

SCALE = 20.0
APPROACH = 6.0
FORCE = 0.5
BUY = 2.0
RISK = 0.1
RISK_CAP = 0.4
WITHDRAW = 0.5

_FORECAST = ("engage", "retaliate", "round", "fight")


def _cost(u: Any) -> float:
    return float(u.data.get("cost", 0) or 0)


def _force(state: Any, side: str) -> float:
    """The Cost of *side*'s units on the battlefield, weighted by Endurance left (OES.9): on a
    hex or carried by a transport (TS.4, :func:`~owsnb.rules.opscale.economy.on_battlefield`) —
    a unit loaded aboard is not lost (counting hexes only made loading look like a loss and
    unloading like a gain); a staged one, bought but not deployed (TS.2), is not force yet."""
    return sum(
        _cost(u) * u.steps / max(1, u.max_steps)
        for u in state.units.values()
        if u.side == side and on_battlefield(u)
    )


def standing(state: Any, side: str) -> float:
    """Score lead over the best other player plus force on the map (see the module docstring)."""
    neutral = set(state.public.get("neutral", ()))
    others = [s for s in state.sides if s != side]
    players = [s for s in others if s not in neutral]
    score = {s: float(state.sides[s].public.get("score", 0) or 0) for s in state.sides}
    lead = score[side] - max((score[s] for s in players), default=0.0)
    return lead + FORCE * (_force(state, side) - sum(_force(state, s) for s in others))


def order_value(view: Any, order: Any, preview: Any) -> float:
    """Expected worth of *order* to ``view.side`` (see the module docstring)."""
    if order.verb in _FORECAST and preview is not None:
        rows = getattr(preview, "details", ())
        per: dict[str, list[Any]] = {}
        for r in rows:
            per.setdefault(str(r.get("unit")), []).append(r)
        value = 0.0
        for uid, rs in per.items():
            u = view.units.get(uid)
            if u is None:
                continue
            cost, steps = _cost(u), max(1, u.max_steps)
            alive = 1.0
            lost = 0.0
            for r in rs:
                alive *= 1.0 - float(r.get("P(destroyed)", 0))
                lost += max(0.0, u.steps - float(r.get("E[endurance]", u.steps)))
            lost = min(float(u.steps), lost)
            worth = (1.0 - alive) * cost + FORCE * cost * lost / steps
            value += worth if u.side != view.side else -worth
        if order.verb == "retaliate" and not order.args and not order.params:
            _remember(view, value)  # staying without firing back: what a withdrawal avoids
        return value
    if order.verb in ("move", "deploy") and len(order.args) > 1:
        u = view.units.get(order.args[0])
        dest = view.map.find(order.args[1])
        if dest is None:
            return 0.0
        if u is None:
            return 0.0
        before = _exposure(view, u, u.hex) if u.hex is not None else 0.0
        return -(_exposure(view, u, dest) - before)
    if order.verb == "withdraw":
        return _withdrawal(view)
    if order.verb == "buy":
        return BUY if not order.get("xp") or str(order.get("xp")) == "0" else BUY / 2
    return 0.0


def _reach(u: Any) -> int:
    """How far *u* can strike next Combat Phase: its longest weapon range (1 if unstated, R11)
    plus a hex if it can move."""
    ranges = [int(w.get("range", 1) or 1) for w in u.data.get("weapons", ()) or ()]
    return (max(ranges) if ranges else 0) + (1 if float(u.data.get("move", 0) or 0) > 0 else 0)


def _exposure(view: Any, unit: Any, h: Hex | None) -> float:
    """The own risk of *unit* standing at *h*: ``RISK`` of its Cost per enemy unit (neutrals
    too) that could engage it there (OES.1), at most ``RISK_CAP`` of it."""
    if h is None:
        return 0.0
    threats = sum(
        1
        for e in view.units.values()
        if e.side != view.side
        and e.hex is not None
        and e.steps > 0
        and e.data.get("weapons")
        and e.hex.distance(h) <= _reach(e)
    )
    return _cost(unit) * min(RISK_CAP, RISK * threats)


def goals(view: Any) -> dict[Hex, float]:
    """The side's objectives and enemy units on the map."""
    out: dict[Hex, float] = {}
    for u in view.units.values():
        if u.side != view.side and u.hex is not None and u.steps > 0:
            out[u.hex] = out.get(u.hex, 0.0) + 0.3
    for o in view.public.get("objectives", ()):
        if o.get("side") == view.side and o.get("hex"):
            h = view.map.hex(o["hex"])
            out[h] = out.get(h, 0.0) + (3.0 if o.get("kind") == "primary" else 1.5)
    return out


def _withdrawal(view: Any) -> float:
    """R16: a defender withdrawing from the open engagement before it answers (stage
    ``retaliate``, OES.2) is worth the loss it avoids — the exact forecast of staying without
    firing back (``retaliate`` with no fire) when that is a loss — less ``WITHDRAW`` (the enemy
    earns experience, R16). Valued at nothing, a withdrawal never beat the pass, and that pass
    is no pass: the defender stays and takes the exchange. (Staying *and* firing back is a
    ``retaliate`` candidate of its own; at other stages a withdrawal is still worth nothing.)"""
    from owsnb.kernel.errors import OwsnbError
    from owsnb.kernel.orders import Order
    from owsnb.kernel.registry import get_ruleset
    from owsnb.rules.opscale.engagement import record

    rec = record(view)
    if rec is None or rec.get("stage") != "retaliate" or rec.get("defender") != view.side:
        return 0.0
    if _STAY is not None and _STAY[0] is view:  # forecast once a view (greedy scores it too)
        stay = _STAY[1]
    else:
        order = Order(view.side, "retaliate")
        try:
            p = get_ruleset(view.ruleset).preview(view, order)
        except OwsnbError:
            return 0.0
        if p is None:
            return 0.0
        stay = order_value(view, order, p)
    return max(0.0, -stay) - WITHDRAW


_STAY: tuple[Any, float] | None = None


def _remember(view: Any, value: float) -> None:
    """The worth of staying without firing back, on *view* (the last view only)."""
    global _STAY
    _STAY = (view, value)
