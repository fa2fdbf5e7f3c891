"""Map 1 as the rules see it: hex ids, terrain, elevation, rivers, bridges, roads and zones of control.

The rule book names hexes by column letter and row number (``G13``: column G, row 13; letters run
west to east, rows north to south). Scenario files use the kernel's printed labels (``0713``);
orders accept either. Rivers, roads and bridges are hexside features of the map (``river``,
``road``, ``bridge`` edges); engineers build and destroy bridges during play (kept in
``state.public['bridges']``).

>>> from owsnb.kernel.offset import OffsetSystem
>>> from owsnb.kernel.state import MapState, HexInfo
>>> from owsnb.kernel.data import FrozenDict
>>> o = OffsetSystem()
>>> m = MapState(FrozenDict({h: HexInfo("clear") for h in o.rectangle(20, 12)}), o)
>>> hexid(m, parse_hex(m, "g12")), hexid(m, parse_hex(m, "0712"))
('G12', 'G12')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from owsnb.kernel.errors import InvalidHexError
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import MapState, StateLike, edge_key
from owsnb.rules.combatops import units as U

__all__ = [
    "hexid",
    "parse_hex",
    "edge_id",
    "MapInfo",
    "map_info",
    "bridges_now",
    "bridge_kind",
    "occupied",
    "zoc",
    "crosses_river",
]


def hexid(m: MapState, h: Hex) -> str:
    """The rule book's name of a hex: column letter + row (``G13``)."""
    col, row = m.offset.to_offset(h)
    letters = ""
    n = col
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row}"


def parse_hex(m: MapState, ref: Any) -> Hex:
    """A hex from ``"G13"``, ``"0713"``, a :class:`Hex` or ``(q, r)``; must be on the map.

    Raises:
        InvalidHexError: malformed or off the map.
    """
    if isinstance(ref, str):
        s = ref.strip().upper()
        i = 0
        while i < len(s) and s[i].isalpha():
            i += 1
        if 0 < i < len(s) and s[i:].isdigit():
            col = 0
            for ch in s[:i]:
                col = col * 26 + (ord(ch) - 64)
            h = m.offset.from_offset(col, int(s[i:]))
            if h not in m.hexes:
                raise InvalidHexError(f"hex {ref} is not on this map")
            return h
    return m.hex(ref)


def edge_id(m: MapState, a: Hex, b: Hex) -> str:
    """A hexside as text: the two rule-book hex ids in order (``F6|F7``)."""
    x, y = edge_key(a, b)
    return f"{hexid(m, x)}|{hexid(m, y)}"


@dataclass(frozen=True)
class MapInfo:
    """Static facts of a map, computed once per :class:`MapState`."""

    hexes: frozenset
    terrain: Mapping[Hex, str]
    elevation: Mapping[Hex, int]
    neighbours: Mapping[Hex, tuple[Hex, ...]]
    rivers: frozenset
    roads: frozenset
    bridges: Mapping[tuple[Hex, Hex], str]
    road_hexes: Mapping[str, frozenset]
    ids: Mapping[Hex, str]
    cols: Mapping[Hex, int]
    rows: Mapping[Hex, int]
    edge_hexes: frozenset


_CACHE: dict[int, tuple[MapState, MapInfo]] = {}


def map_info(m: MapState) -> MapInfo:
    """The :class:`MapInfo` of *m* (cached while *m* lives)."""
    hit = _CACHE.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    hexes = frozenset(m.hexes)
    terrain = {h: info.terrain for h, info in m.hexes.items()}
    elevation = {
        h: int((info.features.get("elevation") or {}).get("level", 0))
        for h, info in m.hexes.items()
    }
    neighbours = {h: tuple(n for n in h.neighbours() if n in hexes) for h in hexes}
    rivers, roads, bridges = set(), set(), {}
    road_hexes: dict[str, set] = {}
    for key, feats in m.edges.items():
        if "river" in feats:
            rivers.add(key)
        if "road" in feats:
            roads.add(key)
            name = str((feats["road"] or {}).get("name") or "road")
            road_hexes.setdefault(name, set()).update(key)
        if "bridge" in feats:
            bridges[key] = str((feats["bridge"] or {}).get("kind") or "armor")
    cols, rows = {}, {}
    for h in hexes:
        cols[h], rows[h] = m.offset.to_offset(h)
    edge_hexes = frozenset(h for h in hexes if len(neighbours[h]) < 6)
    info = MapInfo(
        hexes,
        terrain,
        elevation,
        neighbours,
        frozenset(rivers),
        frozenset(roads),
        bridges,
        {k: frozenset(v) for k, v in road_hexes.items()},
        {h: hexid(m, h) for h in hexes},
        cols,
        rows,
        edge_hexes,
    )
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[id(m)] = (m, info)
    return info


def crosses_river(info: MapInfo, a: Hex, b: Hex) -> bool:
    """Is the hexside between *a* and *b* a river (9.6)?"""
    return edge_key(a, b) in info.rivers


_BRIDGES: dict[int, tuple[Any, Any, dict]] = {}


def bridges_now(state: StateLike) -> dict[tuple[Hex, Hex], str | None]:
    """Every bridged hexside now -> ``armor``, ``infantry`` or ``None`` (destroyed): printed
    bridges (armor, 9.7 and errata 7.1) updated by what engineers built or destroyed."""
    built = state.public.get("bridges", {})
    hit = _BRIDGES.get(id(state.map))
    if hit is not None and hit[0] is state.map and hit[1] is built:
        return hit[2]
    info = map_info(state.map)
    out: dict[tuple[Hex, Hex], str | None] = dict(info.bridges)
    for eid, b in built.items():
        x, _, y = eid.partition("|")
        key = edge_key(parse_hex(state.map, x), parse_hex(state.map, y))
        out[key] = None if b.get("kind") == "destroyed" else b.get("kind")
    if len(_BRIDGES) > 32:
        _BRIDGES.clear()
    _BRIDGES[id(state.map)] = (state.map, built, out)
    return out


def bridge_kind(state: StateLike, a: Hex, b: Hex) -> str | None:
    """The bridge across the hexside *a*-*b* now: ``armor``, ``infantry`` or ``None`` (none, or
    destroyed). Printed bridges are armor bridges (9.7, errata 7.1)."""
    return bridges_now(state).get(edge_key(a, b))


def occupied(
    state: StateLike, side: str | None = None, *, real_only: bool = False
) -> dict[Hex, list]:
    """Hex -> units on it (of *side*, or every side), on-map and alive."""
    out: dict[Hex, list] = {}
    for u in state.units.values():
        if u.hex is None or not u.alive or (side is not None and u.side != side):
            continue
        if real_only and U.is_dummy(u):
            continue
        out.setdefault(u.hex, []).append(u)
    return out


def zoc(state: StateLike, side: str, units: Iterable[Any] | None = None) -> set[Hex]:
    """Hexes in the zone of control of *side* (5.0): each on-map unit's hex and the 6 around it,
    never across a river hexside (9.6). Dummies (errata 14.0), out-of-supply units (7.3) and,
    under the default ruling, HQs (errata 3.0) all exert ZOC."""
    info = map_info(state.map)
    hq_zoc = bool(state.options.get("hq_zoc", True))
    types = state.tables.get("unit_types", U.TYPES)
    out: set[Hex] = set()
    pool = units if units is not None else state.units.values()
    for u in pool:
        if u.side != side or u.hex is None or not u.alive:
            continue
        if not hq_zoc and U.is_hq(u, types) and not U.is_dummy(u):
            continue
        out.add(u.hex)
        for n in info.neighbours.get(u.hex, ()):
            if edge_key(u.hex, n) not in info.rivers:
                out.add(n)
    return out
