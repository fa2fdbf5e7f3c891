"""Lines of communication (LOC, L184-L199) and lines of supply (LOS, L200-L225).

Overland LOC is traced through hexes the unit could legally move through, within the HQ's
command radius: never through enemy hexes, Engagement Battles (tracing *out of* one is allowed),
impassable terrain, unbridged rivers, or EZOC unless a friendly unit occupies that hex (L190-192).
Which EZOC counts is the option ``ezoc_for_loc``: ``declared`` (default: EZOC the side has been
told of and that is not disproved, appendix A.2, so LOC results never leak hidden companies) or
``actual``. Wireless LOC (L193-199) is not modelled: its ranges are lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.model import ground_units, hq_chain, los_hqs, owner
from owsnb.rules.tocs.terrain import can_cross, enterable
from owsnb.rules.tocs.zoc import declared_against, engaged, ezoc_sources

__all__ = ["trace", "in_loc", "in_los", "supply_sources", "facilities"]


def _blocked_ezoc(state: StateLike, side: str) -> Any:
    if state.options.get("ezoc_for_loc", "declared") == "actual":
        return lambda h: bool(ezoc_sources(state, side, h))
    known = declared_against(state, side)
    return lambda h: state.map.label(h) in known


def trace(state: StateLike, unit: Any, start: Hex, goals: set[Hex], radius: int) -> bool:
    """Is some hex of *goals* within *radius* hexes of *start* along a legal LOC/LOS path?"""
    if start in goals:
        return True
    side = unit.side
    ezoc = _blocked_ezoc(state, side)
    friendly = {u.hex for u in ground_units(state, side)}
    seen: dict[Hex, int] = {}

    def moves(h: Hex, d: int) -> Iterator[tuple[Hex, int]]:
        if d >= radius:
            return
        for n in h.neighbours():
            if n in seen or n not in state.map.hexes:
                continue
            if not can_cross(state, h, n) or not enterable(state, unit, n):
                continue
            if n in goals and owner(state, n) == side:
                yield n, d + 1  # reached: the search ends when it is taken off the queue
                continue
            if owner(state, n) != side or engaged(state, n):
                continue
            if ezoc(n) and n not in friendly:
                continue
            yield n, d + 1

    def reached(h: Hex, d: int) -> bool:
        return h in goals and owner(state, h) == side

    return search(start, moves, zero=0, goal=reached, fifo=True, labels=seen).found is not None


def in_loc(state: StateLike, unit: Any) -> bool:
    """Can *unit* trace LOC to its parent HQ or a higher HQ of its chain (L184-L192)?"""
    if unit.get("independent") or unit.hex is None:
        return True
    chain = [hq for hq in hq_chain(state, unit) if hq.alive and hq.hex is not None]
    if not unit.get("parent"):
        return unit.get("cls") == "hq"  # a top HQ is its own command post
    return any(trace(state, unit, unit.hex, {hq.hex}, int(hq.get("radius", 0))) for hq in chain)


def facilities(state: StateLike) -> list[dict[str, Any]]:
    """Supply facilities (the referee's truth): dicts with hex, type, side, sp, name."""
    return [dict(f) for f in state.secret.get("facilities", ())]


def supply_sources(state: StateLike, side: str) -> set[Hex]:
    """Hexes of *side*'s supply bases, dumps and depots with SP left (L202, L224)."""
    out = set()
    for f in facilities(state):
        h = state.map.hex(f["hex"])
        if f.get("sp", 1) > 0 and owner(state, h) == side:
            out.add(h)
    for lab in state.public.get("supply_edges", {}).get(side, ()):
        h = state.map.hex(lab)
        if owner(state, h) == side:
            out.add(h)
    return out


def in_los(state: StateLike, unit: Any, _depth: int = 0) -> bool:
    """Can *unit* trace supply directly to a source within range, or through its HQ chain
    (L217-L222)? Airborne units are supplied for their first turns (L222)."""
    if unit.get("independent") or unit.hex is None:
        return True
    if unit.get("para") and state.clock.turn <= int(
        state.tables["supply"].get("airborne_auto_supply_turns", 3)
    ):
        return True
    sources = supply_sources(state, unit.side)
    rng = int(
        state.tables["supply"]["range"].get(
            unit.get("nation", "default"), state.tables["supply"]["range"]["default"]
        )
    )
    if trace(state, unit, unit.hex, sources, rng):
        return True
    if _depth > 6:
        return False
    for hq in los_hqs(state, unit):  # the chain, and original parents of reassigned units (L315)
        if (
            hq.alive
            and hq.hex is not None
            and trace(state, unit, unit.hex, {hq.hex}, int(hq.get("radius", 0)))
        ):
            if in_los(state, hq, _depth + 1):
                return True
    return False
