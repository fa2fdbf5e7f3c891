"""Cost of terrain (COT) and what may be entered (WWII section 11, source L362-L447).

Hexside features come from the scenario's ``edges``: ``river`` (``class: major|medium|minor``),
``canal``, ``stream``, ``road`` and ``bridge``. Rivers are drawn on hexsides here (the source
draws them inside hexes with bank markers, L111; a documented simplification).

>>> from owsnb.kernel.hexgrid import Hex
>>> river_blocks({"river": {"class": "medium"}}, ["major", "medium", "canal"])
True
>>> river_blocks({"river": {"class": "medium"}, "bridge": {}}, ["major", "medium", "canal"])
False
"""

from __future__ import annotations

import math
from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.model import is_tw, mobility_column

__all__ = ["river_blocks", "can_cross", "enterable", "step_cost", "is_road_step"]


def river_blocks(edge: Any, impassable: list[str]) -> bool:
    """True if a hexside holds a river or canal that only a bridge crosses (L395-401, L790)."""
    if not edge or "bridge" in edge:
        return False
    if "canal" in edge and "canal" in impassable:
        return True
    river = edge.get("river")
    if river is not None:
        cls = (river or {}).get("class", "medium")
        return cls in impassable or cls == "major"
    return False


def can_cross(state: StateLike, a: Hex, b: Hex) -> bool:
    """May anyone cross the hexside between adjacent *a* and *b*?"""
    cot = state.tables["cot"]
    edge: dict[str, Any] = state.map.edge(a, b)  # a FrozenDict, or a changed copy below
    dyn = state.public.get("bridges", {}).get(
        "-".join(sorted((state.map.label(a), state.map.label(b))))
    )
    if dyn is not None:  # a bridge destroyed, damaged, repaired or built in play (10.13-10.14)
        edge = {k: v for k, v in edge.items() if k != "bridge"}
        if dyn.get("status") == "intact":
            edge["bridge"] = dict(dyn)
    return not river_blocks(edge, list(cot.get("impassable_rivers", ())))


def enterable(state: StateLike, unit: Any, h: Hex) -> bool:
    """Can *unit* ever stand in *h* (terrain column not null)?"""
    if h not in state.map.hexes:
        return False
    row = state.tables["cot"]["terrain"].get(state.map.terrain(h))
    if row is None:
        return False
    return row.get(mobility_column(unit)) is not None


def is_road_step(state: StateLike, a: Hex, b: Hex) -> bool:
    return "road" in state.map.edge(a, b)


def step_cost(
    state: StateLike, unit: Any, a: Hex, b: Hex, *, road: bool = True, night: bool | None = None
) -> float:
    """MP for *unit* to step from *a* into adjacent *b* (``math.inf`` if it cannot).

    ``road=False`` prices the step off-road (reconnaissance pays full non-road COT, L267).
    """
    if b not in state.map.hexes or not can_cross(state, a, b) or not enterable(state, unit, b):
        return math.inf
    cot = state.tables["cot"]
    col = mobility_column(unit)
    facts_a = state.map.hexes[a].facts if a in state.map.hexes else {}
    interdicted = bool(facts_a.get("interdicted") or state.map.hexes[b].facts.get("interdicted"))
    on_road = road and is_road_step(state, a, b) and not interdicted  # L353: no roads or road rate
    if on_road:
        cost = float(cot["road"][col])
    else:
        cost = float(cot["terrain"][state.map.terrain(b)][col])
        if "stream" in state.map.edge(a, b):
            cost += float(cot["stream"][col])  # L403: a road cancels the stream cost
        if state.map.terrain(b) == "polder":
            cost += float(cot.get("polder_enter", 0))
        if a in state.map.hexes and state.map.terrain(a) == "polder":
            cost += float(cot.get("polder_leave", 0))
        ground = state.public.get("weather", {}).get("ground", "dry")
        g = cot.get("ground", {}).get(ground, {})
        cost += float(g.get("tw_off_road", 0)) if is_tw(unit) else float(g.get("foot", 0))
        if night is None:
            from owsnb.rules.tocs.model import daypart

            night = daypart(state) == "night"
        if night:
            cost *= float(cot.get("night_factor", 2))  # L504: 2xCOT at night except on roads
    if interdicted:  # L353, L355: +1 MP into or out of an interdicted hex, for either side
        cost += float(state.tables.get("artillery", {}).get("interdiction_mp", 1))
    return cost
