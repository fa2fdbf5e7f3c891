"""What a Combat Operations position is worth, for bots (``owsnb.bots``): pure functions over a
view (or the truth), in points on the scale of the victory conditions (16.0, 17.1, 17.2).

* ``standing`` — from the attacker's side of the scenario's conditions: the share of the towns
  it holds (17.1; the umpire's capture record on the truth, occupation on a view) or of the
  East-West road no enemy in supply contests (17.2), worth ``OBJECTIVE`` points in all (the
  defender's standing is its negative), plus ``MATERIAL`` points per step on the map more than
  the enemy's (battalions kept, #34; a face-down counter counts ``GUESS_STEPS``);
* ``order_value`` — an ``attack`` is worth the CRT result (11.1-11.7) at the column its exact
  preview gives for the defence the attacker can estimate (printed values of revealed counters,
  ``GUESS_DFN`` per face-down one: 2.1 hides them): steps the defender loses minus the
  attacker's, a retreat a little; ``enter`` and ``replace`` bring steps onto the map (14.0,
  14.1);
* ``unit_weight`` — a unit's steps in battalions (``BATTALION_STEPS`` each): a regiment counts
  three times a battalion toward the goals, so breaking it down (17.0) moves nothing closer;
* ``goals`` — the towns or the road hexes (both sides: to take or to hold) and enemy counters;
* ``sample_hidden`` — each face-down counter gets plausible values (a battalion of its shown
  type and movement rate, or — with ``DUMMY_SHARE`` — a dummy); the enemy's private records are
  empty (its reinforcements are unknown), the town record is what the view shows occupied.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import Unit
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops import victory
from owsnb.rules.combatops.terrain import map_info, parse_hex

__all__ = ["SCALE", "APPROACH", "standing", "order_value", "goals", "sample_hidden", "unit_weight"]

SCALE = 2.0
APPROACH = 0.5
MATERIAL = 0.25
OBJECTIVE = 6.0
GUESS_DFN = 3
GUESS_STEPS = 2
DUMMY_SHARE = 0.15
BATTALION_STEPS = 2


def _spec(state: Any) -> tuple[str | None, str | None]:
    spec = state.public.get("victory", {})
    return spec.get("type"), spec.get("side")


def _face_down(u: Any) -> bool:
    return "dfn" not in u.data and not U.is_dummy(u)


def _steps(u: Any) -> int:
    if U.is_dummy(u) or not u.alive:
        return 0
    return GUESS_STEPS if _face_down(u) else int(u.steps)


def _towns_held(state: Any, attacker: str, towns: list[str]) -> int:
    if "control" in state.secret and state.options.get("town_capture", "last-entered") != "occupy":
        ctl = victory.town_control(state)
        return sum(1 for t in towns if ctl.get(t) == attacker)
    held = 0
    for t in towns:
        here = [u for u in state.units_at(parse_hex(state.map, t)) if u.alive]
        if any(u.side == attacker and not U.is_dummy(u) for u in here):
            held += 1
    return held


def objective_share(state: Any) -> float:
    """The attacker's share (0..1) of its objective now: towns held (17.1) or road hexes no enemy
    in supply contests (17.2)."""
    kind, attacker = _spec(state)
    spec = state.public.get("victory", {})
    if attacker is None:
        return 0.0
    if kind == "towns":
        towns = list(spec.get("towns", ()))
        return _towns_held(state, attacker, towns) / len(towns) if towns else 0.0
    if kind == "road":
        road = str(spec.get("road", "East-West road"))
        hexes = map_info(state.map).road_hexes.get(road, frozenset())
        if not hexes:
            return 0.0
        try:
            _, bad = victory.road_controlled(state, attacker, road)
        except (KeyError, ValueError, TypeError, AttributeError):
            return 0.0
        return 1.0 - len(bad) / len(hexes)
    return 0.0


def standing(state: Any, side: str) -> float:
    """*side*'s standing: its part of the objective plus material (see the module docstring)."""
    _, attacker = _spec(state)
    share = objective_share(state) * OBJECTIVE
    obj = share if side == attacker else -share
    own = sum(_steps(u) for u in state.units.values() if u.side == side and u.hex is not None)
    foe = sum(_steps(u) for u in state.units.values() if u.side != side and u.hex is not None)
    return obj + MATERIAL * (own - foe)


def _crt_losses(view: Any, column: str, s: int) -> tuple[float, float, float, float]:
    """(attacker steps lost, defender steps lost, attacker retreats, defender retreats)."""
    row = view.tables["crt"]["results"].get(column, {})
    att, dfn = row.get("attacker", {}), row.get("defender", {})
    a = float(att.get("steps", math.floor(s * Fraction(str(att.get("fraction", "0"))))))
    d = float(
        s if dfn.get("eliminated") else math.floor(s * Fraction(str(dfn.get("fraction", "0"))))
    )
    return a, d, float(att.get("retreat", 0)), float(dfn.get("retreat", 0))


def order_value(view: Any, order: Any, preview: Any) -> float:
    """Expected worth of *order* to ``view.side`` (see the module docstring)."""
    if order.verb == "attack" and preview is not None:
        res = getattr(preview, "result", None)
        target = parse_hex(view.map, order.args[0])
        shown = [u for u in view.units_at(target) if u.side != view.side and u.alive]
        s = sum(_steps(u) for u in shown)
        if res is not None and res.column:
            a = float(res.attacker_loss)
            d = float(s if res.defender_loss == "eliminated" else res.defender_loss)
            return MATERIAL * (d - a)
        dfn = sum(
            GUESS_DFN if _face_down(u) else U.printed(u)[1] for u in shown if not U.is_dummy(u)
        )
        column = next(
            (c for c, lo, hi in preview.bands if lo <= max(dfn, 1) and (hi is None or dfn <= hi)),
            None,
        )
        if column is None:
            return 0.0
        a, d, ra, rd = _crt_losses(view, column, s)
        return MATERIAL * (d - a) + 0.5 * MATERIAL * (rd - ra)
    if order.verb == "enter" and order.args:
        u = view.units.get(order.args[0])
        return MATERIAL * int(u.steps) if u is not None else 0.0
    if order.verb == "replace":
        return MATERIAL
    return 0.0


def unit_weight(unit: Any) -> float:
    """*unit*'s share of its side's force toward the goals, in battalions: its steps over
    ``BATTALION_STEPS`` (a regiment of three battalions, 6 steps, is worth 3; its battalions
    after a breakdown, 17.0, 1 each; a face-down counter its guessed steps)."""
    return _steps(unit) / BATTALION_STEPS


def goals(view: Any) -> dict[Hex, float]:
    """The objective hexes (towns 1 each, road hexes 0.3 each) and enemy counters (0.3 each)."""
    kind, _ = _spec(view)
    spec = view.public.get("victory", {})
    out: dict[Hex, float] = {}
    for u in view.units.values():
        if u.side != view.side and u.hex is not None and u.alive:
            out[u.hex] = out.get(u.hex, 0.0) + 0.3
    if kind == "towns":
        for t in spec.get("towns", ()):
            h = parse_hex(view.map, t)
            out[h] = out.get(h, 0.0) + 1.0
    elif kind == "road":
        road = str(spec.get("road", "East-West road"))
        for h in map_info(view.map).road_hexes.get(road, frozenset()):
            out[h] = out.get(h, 0.0) + 0.3
    return out


def sample_hidden(view: Any, rng: Any) -> dict[str, Any]:
    """Plausible values for the face-down counters; empty enemy records (2.1: all hidden)."""
    units = []
    for u in view.units.values():
        if u.side == view.side or not _face_down(u) or u.hex is None:
            continue
        ut = str(u.data.get("utype", "infantry"))
        ma = int(u.data.get("ma", 1))
        if rng.random() < DUMMY_SHARE:
            data = {"utype": ut, "ma": ma, "dummy": True}
            steps = 1
        else:
            data = {"utype": ut, "atk": 3, "dfn": 2, "ma": ma, "division": ""}
            if ut in ("artillery", "motorized-artillery", "mechanized-artillery"):
                data.update(atk=3, dfn=1, art_class="M")
            steps = 2
        units.append(
            Unit(
                u.id,
                u.side,
                kind=u.kind,
                hex=u.hex,
                steps=steps,
                max_steps=steps,
                data=FrozenDict(data),
            )
        )
    kind, attacker = _spec(view)
    secret: dict[str, Any] = {}
    if kind == "towns":
        towns = list(view.public.get("victory", {}).get("towns", ()))
        secret["control"] = {
            t: u.side
            for t in towns
            for u in view.units_at(parse_hex(view.map, t))
            if u.alive and not U.is_dummy(u)
        }
    empty = {
        "reinforcements": {},
        "assign": {"1": {}, "2": {}},
        "received": (),
        "lost": (),
        "replacements": (),
        "artillery_hold": (),
        "baseline": {"*": 0},
    }
    private = {s: empty for s in view.sides if s != view.side}
    return {"units": units, "secret": secret, "private": private}
