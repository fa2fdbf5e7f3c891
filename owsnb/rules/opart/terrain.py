"""The battlefield: terrain classes, hills, roads, line of sight and facing (§5, §13, §14).

Terrain keys, their cover, obstacle and entry classes come from the ``terrain`` table. Hills are
heights: a hex's level is its terrain's default (``hill`` 1, ``crest`` 2) unless the scenario
sets it (``rules.elevation``); crossing from level *a* to level *b* crosses ``|a - b|`` contours.
Roads are hexside features (``map.edges`` of type ``road``); defence works are a hex feature
(``works``) that gives cover and counts as a fortified area.

Facing and bearings use the kernel's hex directions, named by compass point:

>>> direction_names("flat")
('SE', 'NE', 'N', 'NW', 'SW', 'S')
>>> from owsnb.kernel.hexgrid import Hex
>>> bearing(Hex(0, 0), Hex(0, -3), "flat")   # straight north
(2, None)
>>> bearing(Hex(0, 0), Hex(1, -2), "flat")   # on the spine between N and NE: a tie
(1, 2)
>>> hexside_offset(facing=2, sector=5)        # facing N, attacked from S: directly behind
3
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from owsnb.kernel.hexgrid import DIRECTIONS, Hex, hex_round
from owsnb.kernel.state import StateLike
from owsnb.rules.opart.tables import table

__all__ = [
    "TerrainIndex",
    "terrain_index",
    "direction_names",
    "parse_direction",
    "bearing",
    "hexside_offset",
    "arc",
    "line_of_sight",
    "sight_line",
]

_FLAT_NAMES = ("SE", "NE", "N", "NW", "SW", "S")
_POINTY_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
_SQRT3 = math.sqrt(3.0)


def direction_names(orientation: str) -> tuple[str, ...]:
    """Compass names of the six hex directions (kernel direction order)."""
    return _POINTY_NAMES if orientation == "pointy" else _FLAT_NAMES


def parse_direction(value: Any, orientation: str) -> int:
    """A facing given as a compass name (``"N"``) or a direction number 0-5.

    >>> parse_direction("nw", "flat"), parse_direction("4", "flat"), parse_direction(0, "pointy")
    (3, 4, 0)
    """
    names = direction_names(orientation)
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a direction")
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        i = int(value)
        if 0 <= i < 6:
            return i
    elif isinstance(value, str) and value.strip().upper() in names:
        return names.index(value.strip().upper())
    raise ValueError(f"{value!r} is not a direction; use one of {', '.join(names)} (or 0-5)")


def _xy(h: Hex, orientation: str) -> tuple[float, float]:
    q, r = h
    if orientation == "pointy":
        return _SQRT3 * (q + r / 2), -1.5 * r
    return 1.5 * q, -(_SQRT3 / 2 * q + _SQRT3 * r)


def bearing(target: Hex, source: Hex, orientation: str) -> tuple[int, int | None]:
    """Which of the target's hexsides the source lies beyond: ``(direction, tie)``.

    ``tie`` is the second direction when the source lies exactly on the spine between two
    hexsides (ruling R7a: such ties are resolved toward the front, see :func:`arc`).
    """
    v = source - target
    if v == Hex(0, 0):
        raise ValueError("a stand has no bearing on its own hex")
    for k in range(6):
        d = DIRECTIONS[k] + DIRECTIONS[(k + 1) % 6]
        if (
            v[0] * d[1] - v[1] * d[0] == 0
            and v[0] * d[0] + v[1] * d[1] + (v[0] + v[1]) * (d[0] + d[1]) > 0
        ):
            return k, (k + 1) % 6
    x, y = _xy(v, orientation)
    best, best_dot = 0, -math.inf
    for k in range(6):
        dx, dy = _xy(DIRECTIONS[k], orientation)
        dot = x * dx + y * dy
        if dot > best_dot:
            best, best_dot = k, dot
    return best, None


def hexside_offset(facing: int, sector: int) -> int:
    """How many hexsides round from the front (0 = front, 3 = directly behind)."""
    d = (sector - facing) % 6
    return min(d, 6 - d)


def arc(state: StateLike, target_hex: Hex, facing: int, source: Hex) -> str:
    """``"front"``, ``"flank"`` or ``"rear"``: the arc of a stand at *target_hex* facing
    *facing* that a stand at *source* attacks (footnote xii; placeholder ``flank_arcs`` table)."""
    arcs = table(state, "flank_arcs")
    sector, tie = bearing(target_hex, source, state.map.offset.orientation)
    offsets = [hexside_offset(facing, sector)]
    if tie is not None:
        offsets.append(hexside_offset(facing, tie))
    off = min(offsets)  # R7a: a spine bearing counts toward the front
    for name in ("front", "flank", "rear"):
        if off in arcs.get(name, ()):
            return name
    return "front"


# -- terrain index --------------------------------------------------------------------------------
@dataclass(frozen=True)
class TerrainIndex:
    """Per-hex facts of one map under one terrain table (built once, cached)."""

    terrain: dict[Hex, str]
    level: dict[Hex, int]
    cover: frozenset[Hex]
    obstacle: frozenset[Hex]
    built_up: frozenset[Hex]
    entry: dict[Hex, str]
    roads: frozenset[frozenset[Hex]]
    height: dict[Hex, int]
    orientation: str
    extent: tuple[int, int, int, int] = (0, 0, 0, 0)  # min col, max col, min row, max row (offset)

    def on_road(self, a: Hex, b: Hex) -> bool:
        """Is the step from *a* to neighbour *b* along a road?"""
        return frozenset((a, b)) in self.roads

    def has_road(self, h: Hex) -> bool:
        """Does a road run through *h*?"""
        return any(h in e for e in self.roads)

    def contours(self, a: Hex, b: Hex) -> int:
        """Hill contours crossed stepping from *a* to *b* (§13)."""
        return abs(self.level.get(a, 0) - self.level.get(b, 0))


def terrain_index(state: StateLike) -> TerrainIndex:
    """The :class:`TerrainIndex` of *state*'s map under its terrain table and options."""
    village_cover = bool(state.options.get("village_cover", True))
    return _index(state.map, table(state, "terrain"), village_cover)


@lru_cache(maxsize=32)
def _index(m: Any, terrain_table: Any, village_cover: bool) -> TerrainIndex:
    terrain, level, entry, height = {}, {}, {}, {}
    cover, obstacle, built_up = set(), set(), set()
    for h, info in m.hexes.items():
        key = info.terrain
        row = terrain_table.get(key) or terrain_table.get("open") or {}
        terrain[h] = key
        hill = info.features.get("hill") or {}
        lv = int(hill.get("level", row.get("level", 0)))
        level[h] = lv
        entry[h] = str(row.get("entry", "any"))
        works = "works" in info.features
        if (row.get("cover") and (key != "village" or village_cover)) or works:
            cover.add(h)
        if row.get("obstacle") or lv > 0:
            obstacle.add(h)
        if row.get("built_up") or works:
            built_up.add(h)
        # woods and buildings stand one level above the ground for line of sight (ruling R10)
        height[h] = lv + (1 if key in ("wood", "village", "built_up") else 0)
    roads = frozenset(frozenset(k) for k, v in m.edges.items() if "road" in v)
    cr = [m.offset.to_offset(h) for h in m.hexes] or [(0, 0)]
    extent = (
        min(c for c, _ in cr),
        max(c for c, _ in cr),
        min(r for _, r in cr),
        max(r for _, r in cr),
    )
    return TerrainIndex(
        terrain,
        level,
        frozenset(cover),
        frozenset(obstacle),
        frozenset(built_up),
        entry,
        roads,
        height,
        m.offset.orientation,
        extent,
    )


# -- line of sight --------------------------------------------------------------------------------
def sight_line(a: Hex, b: Hex, sign: float = 1.0) -> list[Hex]:
    """Hexes on the straight line from *a* to *b*, nudged to one side (``sign`` +1 or -1) so
    that lines along hex edges resolve both ways."""
    n = a.distance(b)
    if n == 0:
        return [a]
    aq, ar = a[0] + sign * 1e-6, a[1] + sign * 2e-6
    dq, dr = (b[0] - a[0]) / n, (b[1] - a[1]) / n
    return [a, *(hex_round(aq + dq * i, ar + dr * i) for i in range(1, n)), b]


def line_of_sight(index: TerrainIndex, a: Hex, b: Hex) -> bool:
    """Can a stand at *a* see one at *b*? (ruling R10; §14 says only "that they can see").

    Adjacent hexes always see each other. Otherwise a hex between them blocks the view if it
    stands higher than the lower end and at least as high as the higher end (a hill, or a wood
    or built-up hex one level above its ground); stands never block. The line is tried nudged
    to either side and one clear line suffices.
    """
    if a.distance(b) <= 1:
        return True
    la, lb = index.level.get(a, 0), index.level.get(b, 0)
    lo, hi = min(la, lb), max(la, lb)
    for sign in (1.0, -1.0):
        between = sight_line(a, b, sign)[1:-1]
        if all(not (index.height.get(h, 0) > lo and index.height.get(h, 0) >= hi) for h in between):
            return True
    return False
