"""Lines traced on a hex grid: roads and rail through the hexes a lon/lat line crosses, rivers and
canals along the hexsides nearest it (written as chains of hexes).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np

from owsnb.authoring.grid_fit import Grid
from owsnb.kernel.hexgrid import Hex, search

__all__ = ["HEXSIDE_EDGES", "HexCorners", "trace_hexes", "trace_hexsides"]

#: Edge types traced along hexsides (the others run through hex centres).
HEXSIDE_EDGES = frozenset({"river", "major-river", "minor-river", "canal"})


def _km(lon: np.ndarray, lat: np.ndarray, lat0: float) -> np.ndarray:
    """Local equirectangular km (good enough to compare nearby distances)."""
    return np.column_stack(
        [np.asarray(lon) * 111.2 * math.cos(math.radians(lat0)), np.asarray(lat) * 111.2]
    )


def _densify(line: Sequence[Sequence[float]], step_km: float) -> np.ndarray:
    pts = np.asarray(line, dtype=float)
    out = [pts[:1]]
    lat0 = float(pts[:, 1].mean())
    for a, b in zip(pts[:-1], pts[1:], strict=True):
        d = float(np.hypot(*(_km(b[:1], b[1:], lat0) - _km(a[:1], a[1:], lat0))[0]))
        n = max(1, math.ceil(d / step_km))
        t = np.linspace(0, 1, n + 1)[1:, None]
        out.append(a + t * (b - a))
    return np.concatenate(out)


def trace_hexes(grid: Grid, line: Sequence[Sequence[float]]) -> list[list[Hex]]:
    """Chains of neighbouring hexes that a lon/lat line passes through (split where it leaves the map)."""
    size_km = grid.layout.size_km
    chains: list[list[Hex]] = [[]]
    for lon, lat in _densify(line, size_km / 6):
        h = grid.hex_at(float(lon), float(lat))
        cur = chains[-1]
        if h is None:
            if cur:
                chains.append([])
            continue
        if cur and h == cur[-1]:
            continue
        if cur and cur[-1].distance(h) > 1:
            cur.extend(x for x in cur[-1].line(h)[1:-1] if grid.on_map(x))
        cur.append(h)
    return [c for c in chains if len(c) >= 2]


class HexCorners:
    """The hex-corner graph of a grid: vertices, their neighbours, and the hexes on each side."""

    def __init__(self, grid: Grid):
        hexes = grid.hexes
        polys = grid.layout.polygons(hexes)
        index: dict[tuple[float, float], int] = {}
        self.sides: dict[tuple[int, int], list[Hex]] = {}
        for h, poly in zip(hexes, polys, strict=True):
            ids = [index.setdefault((float(x), float(y)), len(index)) for x, y in poly]
            for k in range(6):
                a, b = ids[k], ids[(k + 1) % 6]
                self.sides.setdefault((min(a, b), max(a, b)), []).append(h)
        pts = np.array(list(index), dtype=float)
        self.lat0 = float(pts[:, 1].mean())
        self.xy = _km(pts[:, 0], pts[:, 1], self.lat0)
        self.nbrs: dict[int, list[int]] = {}
        for a, b in self.sides:
            self.nbrs.setdefault(a, []).append(b)
            self.nbrs.setdefault(b, []).append(a)
        self.size_km = grid.layout.size_km

    def nearest(self, lon: float, lat: float) -> int:
        p = _km(np.array([lon]), np.array([lat]), self.lat0)[0]
        return int(np.argmin(np.hypot(*(self.xy - p).T)))

    def route(self, a: int, b: int, p: np.ndarray, q: np.ndarray) -> list[int]:
        """Cheapest corner path a -> b, hugging the segment p-q (km)."""
        seg = q - p
        norm2 = float(seg @ seg) or 1.0

        def off(v: np.ndarray) -> float:
            t = min(1.0, max(0.0, float((v - p) @ seg) / norm2))
            return float(np.hypot(*(v - (p + t * seg))))

        def moves(v: int, d: float) -> Iterator[tuple[int, float]]:
            for w in self.nbrs.get(v, ()):
                mid = (self.xy[v] + self.xy[w]) / 2
                length = float(np.hypot(*(self.xy[w] - self.xy[v])))
                yield w, d + length * (1.0 + (off(mid) / (0.5 * self.size_km)) ** 2)

        return list(search(a, moves, goal=lambda v, d: v == b).path_to(b))


def trace_hexsides(
    grid: Grid, corners: HexCorners, line: Sequence[Sequence[float]]
) -> list[list[Hex]]:
    """Chains of hexes whose consecutive pairs share the hexsides nearest a lon/lat line."""
    pts = np.asarray(line, dtype=float)
    ids = [corners.nearest(float(lon), float(lat)) for lon, lat in pts]
    xy = _km(pts[:, 0], pts[:, 1], corners.lat0)
    verts = [ids[0]]
    for k in range(1, len(ids)):
        verts += corners.route(verts[-1], ids[k], xy[k - 1], xy[k])[1:]
    chains: list[list[Hex]] = [[]]
    for a, b in zip(verts[:-1], verts[1:], strict=True):
        pair = corners.sides.get((min(a, b), max(a, b)), [])
        cur = chains[-1]
        if len(pair) != 2:  # a hexside on the map's rim has only one hex: the river leaves the map
            if cur:
                chains.append([])
            continue
        x, y = pair
        if not cur:
            cur += [x, y]
        elif cur[-1] in pair:
            cur.append(y if cur[-1] == x else x)
        else:  # turn the other way round the shared corner: step back over the last hexside
            shared = x if x in cur[-2:] else y
            cur += [shared, y if shared == x else x]
    return [c for c in chains if len(c) >= 2]
