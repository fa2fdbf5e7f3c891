"""Supply (11.1): checked at the start of Regeneration (step 7.A); effects last through the next turn.

Paragraphs: 11.1 a ground combat unit is in normal supply within 2 zones (the large yellow 100 km
hexes of a tactical map) of its supply source on an uninterrupted line — usually its own CSS unit;
where zones are missing or questionable, a trace of 15 wheeled movement points; 11.1.1 the line
is free of enemy ZOCs (and, 10.15.10.4, of disrupted partisan zones); 11.1.2 a connected line
longer than that = Low Supply (one GCAT column); 11.1.3 no line = Out of Supply (half MP, two GCAT
columns). Markers ``low-supply`` / ``out-of-supply`` are set at 7.A and replaced at the next 7.A.

Rulings: **S1** sources are, in order: the unit's ``supply_source`` (a unit id or hex label), its
side's CSS units, the hexes listed in the ground table's ``supply_sources.<side>``, then the side's
own ports and airfields (2.1.7); a side with none of these is not checked. **S2** the unit's own
hex and the source hex may be in an enemy ZOC, and a hex held by a friendly ground unit does not
block the line (the usual reading of "free of enemy ZOCs"). **S3** the trace goes through land
hexes (and ports) free of enemy units.

>>> status_for(zones=2, connected=True), status_for(zones=3, connected=True), status_for(None, False)
('normal', 'low', 'out')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from owsnb.kernel.events import Event, unit_set
from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import watchers
from owsnb.rules.ows.movement import (
    GROUND_CATEGORIES,
    is_water,
    ptable,
    rear_zone,
    zoc_hexes,
    zone_distance,
    zone_of,
)
from owsnb.rules.ows.movement.ground import _cheaper, _cost_model, _partisan_zones, _step
from owsnb.rules.ows.units import counter

__all__ = [
    "SupplyTrace",
    "trace",
    "status_for",
    "sources",
    "check_supply",
    "STEP_EFFECTS",
    "MARKERS",
]

MARKERS = {"low": "low-supply", "out": "out-of-supply"}
NORMAL_ZONES = 2
TRACE_MP = 15


def status_for(zones: int | None, connected: bool, mp: float | None = None) -> str:
    """11.1-11.1.3: ``normal`` within 2 zones (or 15 wheeled MP without zones), ``low`` if
    connected but farther, ``out`` if not connected."""
    if not connected:
        return "out"
    if zones is not None:
        return "normal" if zones <= NORMAL_ZONES else "low"
    return "normal" if mp is not None and mp <= TRACE_MP + 1e-9 else "low"


@dataclass
class SupplyTrace:
    """The result of one supply trace (11.1), plain data."""

    unit: str
    status: str
    source: str | None = None
    path: list[str] = field(default_factory=list)
    zones: int | None = None
    mp: float | None = None
    why: str = ""

    def record(self) -> Any:
        """The supply state as a result (11.1)."""
        from owsnb.kernel.result import Result

        return Result(f"{self.unit}: {self.status} supply", {}, ["11.1"], lines=[self.why])

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def sources(state: StateLike, unit: Any) -> list[Hex]:
    """S1: the supply source hexes of *unit*."""
    s = unit.data.get("supply_source")
    if s:
        src = state.units.get(s)
        if src is not None:
            return [src.hex] if src.hex is not None and src.alive else []
        try:
            return [state.map.hex(s)]
        except Exception:
            return []
    css = [
        c.hex
        for c in state.units.values()
        if c.side == unit.side and c.alive and c.hex is not None and counter(c).category == "css"
    ]
    if css:
        return css

    cfg = dict(ptable(state, "ground").get("supply_sources") or {})
    hexes = []
    for lab in cfg.get(unit.side) or []:
        try:
            hexes.append(state.map.hex(lab))
        except Exception:
            continue
    if hexes:
        return hexes
    out = []
    for h, info in state.map.hexes.items():
        for kind in ("port", "airfield"):
            f = info.features.get(kind)
            if f and (info.facts.get("control") or f.get("owner") or f.get("side")) == unit.side:
                out.append(h)
    return out


def trace(state: StateLike, unit: Any) -> SupplyTrace:
    """Trace supply for *unit* now (11.1): the cheapest line to a source through land hexes free
    of enemy units, enemy ZOC (S2) and hostile disrupted partisan zones."""
    if unit.hex is None:
        return SupplyTrace(unit.id, "normal", why="off the map")
    srcs = set(sources(state, unit))
    if not srcs:
        return SupplyTrace(
            unit.id, "normal", why="no supply source defined for this side (S1): not checked"
        )
    foes = [
        e for e in state.units.values() if e.side != unit.side and e.hex is not None and e.alive
    ]
    e_hexes = {e.hex for e in foes if counter(e).category in GROUND_CATEGORIES}
    zoc = zoc_hexes(state, foes)
    friends = {
        u.hex
        for u in state.units.values()
        if u.side == unit.side
        and u.hex is not None
        and u.alive
        and counter(u).category in GROUND_CATEGORIES
    }
    pz = _partisan_zones(state, unit.side)
    if pz and rear_zone(state, unit.hex) in pz:
        return SupplyTrace(
            unit.id,
            "out",
            why="in a disrupted partisan zone: no trace through it (10.15.10.4, 11.1.3)",
        )
    use_zones = zone_of(state, unit.hex) is not None
    model = _cost_model(state, "wheeled")
    start = unit.hex

    def moves(h: Hex, d: float) -> Iterator[tuple[Hex, float]]:
        for n in h.neighbours():
            if n not in state.map.hexes or n in e_hexes:
                continue
            if is_water(state, n) and "port" not in state.map.hexes[n].features:
                continue
            if n in zoc and n not in friends and n not in srcs:
                continue
            if pz and rear_zone(state, n) in pz:
                continue
            c = _step(model, h, n, unit.side)
            # a line of hexes: NP terrain still carries supply at cost 1 (S3)
            yield n, d + (1.0 if c is None else c)

    traced = search(start, moves, goal=lambda h, d: h in srcs, better=_cheaper)
    found = traced.found
    if found is None:
        return SupplyTrace(
            unit.id, "out", why="no line free of enemy units and ZOC to a source (11.1.3)"
        )
    best = traced.labels
    path = list(traced.path_to(found))
    labels = [state.map.label(h) for h in path]
    if use_zones:
        z = zone_distance(state, start, found)
        st = status_for(z, True)
        why = f"{z} zone(s) to {state.map.label(found)}" + (
            " (11.1)" if st == "normal" else ": beyond 2 zones (11.1.2)"
        )
        return SupplyTrace(unit.id, st, state.map.label(found), labels, z, best[found], why)
    mp = best[found]
    st = status_for(None, True, mp)
    why = f"{mp:g} wheeled MP to {state.map.label(found)}" + (
        " (11.1)" if st == "normal" else ": beyond 15 MP (11.1.2)"
    )
    return SupplyTrace(unit.id, st, state.map.label(found), labels, None, mp, why)


def _checked(unit: Any) -> bool:
    c = counter(unit)
    return (
        unit.alive
        and unit.hex is not None
        and c.category in ("ground", "artillery", "engineer", "air-defence", "hq")
        and c.subtype not in ("partisan", "security-zone")
    )


def check_supply(state: StateLike, dice: Any) -> list[Event]:
    """7.A / 11.1: trace every ground combat unit; set or clear the supply markers."""
    events: list[Event] = []
    for u in state.units.values():
        if not _checked(u):
            continue
        st = trace(state, u).status
        want = {MARKERS[st]} if st in MARKERS else set()
        have = u.markers & set(MARKERS.values())
        if want != have:
            events.append(
                unit_set(
                    u.id,
                    markers=(u.markers - set(MARKERS.values())) | want,
                    data={"supply": st},
                    rule={"normal": "11.1", "low": "11.1.2", "out": "11.1.3"}[st],
                    visible_to=watchers(state, u),
                )
            )
    return events


STEP_EFFECTS = {"7.A": check_supply}
