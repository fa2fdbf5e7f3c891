"""GeoJSON for hex maps: dissolved hex sets, grid lines, hexsides, arrows and hex-label images.

Everything is computed from the map's :class:`~owsnb.kernel.geo.GeoLayout` (corners of
neighbouring hexes are bit-for-bit equal there, so shared edges cancel exactly). Coordinates are
``[lon, lat]`` rounded to :func:`digits` decimals (about a metre; planar boards: 1/1000 of a km).

Example:
    >>> from owsnb.kernel.geo import GeoLayout
    >>> from owsnb.kernel.hexgrid import Hex
    >>> lay = GeoLayout("flat", 10.0, projection="simple")
    >>> g = dissolve(lay, Hex(0, 0).disc(1))          # seven hexes -> one ring of 18 edges
    >>> g["type"], len(g["coordinates"]), len(g["coordinates"][0][0])
    ('MultiPolygon', 1, 19)
    >>> len(dissolve(lay, Hex(0, 0).ring(2))["coordinates"][0])   # a ring of hexes has a hole
    2
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex

__all__ = [
    "digits",
    "dissolve",
    "grid_lines",
    "hexside_lines",
    "hex_outline",
    "arrow",
    "labels_image",
    "bounds_latlng",
    "point",
    "lonlat_to_pixels",
]

Pt = tuple[float, float]


def digits(layout: GeoLayout) -> int:
    """Decimals kept in coordinates: 5 for degrees (~1 m), 3 for planar km boards."""
    return 3 if layout.projection == "simple" else 5


def _corners(layout: GeoLayout, hexes: Sequence[Hex]) -> np.ndarray:
    if not hexes:
        return np.zeros((0, 6, 2))
    return np.round(layout.polygons(hexes), digits(layout))


def _pt(a: Any) -> Pt:
    return (float(a[0]), float(a[1]))


def _area2(ring: Sequence[Pt]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:], strict=False))


def _inside(p: Pt, ring: Sequence[Pt]) -> bool:
    x, y = p
    hit = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:], strict=False):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def dissolve(layout: GeoLayout, hexes: Iterable[Hex]) -> dict[str, Any]:
    """The union of *hexes* as one GeoJSON ``MultiPolygon`` (holes included).

    Interior edges cancel; the boundary edges are chained into rings. In a hex grid three hexes
    meet at every corner, so a boundary never touches itself and the chaining is unambiguous.
    """
    hs = list(dict.fromkeys(hexes))
    polys = _corners(layout, hs)
    edges: set[tuple[Pt, Pt]] = set()
    for poly in polys:
        pts = [_pt(p) for p in poly]
        for i in range(6):
            a, b = pts[i], pts[(i + 1) % 6]
            if (b, a) in edges:
                edges.remove((b, a))
            else:
                edges.add((a, b))
    nxt = dict(edges)
    rings: list[list[Pt]] = []
    while nxt:
        start, cur = nxt.popitem()
        ring = [start]
        while cur != start:
            ring.append(cur)
            cur = nxt.pop(cur)
        ring.append(start)
        rings.append(ring)
    if not rings:
        return {"type": "MultiPolygon", "coordinates": []}
    areas = [_area2(r) for r in rings]
    outer_sign = math.copysign(1.0, areas[max(range(len(rings)), key=lambda i: abs(areas[i]))])
    outers = [i for i, a in enumerate(areas) if a * outer_sign > 0]
    polygons: dict[int, list[list[Pt]]] = {i: [rings[i]] for i in outers}
    for i, area in enumerate(areas):
        if area * outer_sign > 0:
            continue
        holders = [o for o in outers if _inside(rings[i][0], rings[o])]
        if holders:
            polygons[min(holders, key=lambda o: abs(areas[o]))].append(rings[i])
    coords = [[[list(p) for p in ring] for ring in poly] for poly in polygons.values()]
    return {"type": "MultiPolygon", "coordinates": coords}


def hex_outline(layout: GeoLayout, h: Hex) -> dict[str, Any]:
    """One hex as a GeoJSON ``Polygon``."""
    ring = [list(_pt(p)) for p in _corners(layout, [h])[0]]
    return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


def grid_lines(layout: GeoLayout, hexes: Iterable[Hex]) -> dict[str, Any]:
    """Every hex edge once, chained into long lines: a GeoJSON ``MultiLineString``."""
    hs = list(dict.fromkeys(hexes))
    adj: dict[Pt, list[Pt]] = {}
    seen: set[frozenset] = set()
    for poly in _corners(layout, hs):
        pts = [_pt(p) for p in poly]
        for i in range(6):
            a, b = pts[i], pts[(i + 1) % 6]
            key = frozenset((a, b))
            if key in seen:
                continue
            seen.add(key)
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    used: set[frozenset] = set()

    def walk(start: Pt) -> list[Pt]:
        path, cur = [start], start
        while True:
            for n in adj[cur]:
                if frozenset((cur, n)) not in used:
                    used.add(frozenset((cur, n)))
                    path.append(n)
                    cur = n
                    break
            else:
                return path

    lines = []
    # start at odd-degree vertices first (they must be line ends), then mop up cycles
    for v in sorted(adj, key=lambda v: len(adj[v]) % 2 == 0):
        while any(frozenset((v, n)) not in used for n in adj[v]):
            lines.append([list(p) for p in walk(v)])
    return {"type": "MultiLineString", "coordinates": lines}


def hexside_lines(layout: GeoLayout, pairs: Iterable[tuple[Hex, Hex]]) -> dict[str, Any]:
    """The shared edges of adjacent hex pairs (rivers, roads along hexsides), as one
    ``MultiLineString``."""
    out = []
    for a, b in pairs:
        pa, pb = _corners(layout, [a, b])
        common = [list(_pt(p)) for p in pa if any((p == q).all() for q in pb)]
        if len(common) == 2:
            out.append(common)
    return {"type": "MultiLineString", "coordinates": out}


def point(layout: GeoLayout, h: Hex) -> list[float]:
    """``[lat, lon]`` of a hex centre (Leaflet order)."""
    lon, lat = layout.centre(h)
    d = digits(layout)
    return [round(lat, d), round(lon, d)]


def arrow(layout: GeoLayout, a: Hex, b: Hex, head: float = 0.28) -> list[dict[str, Any]]:
    """Geometries of an arrow from the centre of *a* to the centre of *b* (shaft and head)."""
    (x0, y0), (x1, y1) = layout.centre(a), layout.centre(b)
    d = digits(layout)
    # the head is sized in the hex's own scale, computed in a locally flat frame
    k = math.cos(math.radians(y1)) if layout.projection != "simple" else 1.0
    dx, dy = (x1 - x0) * k, y1 - y0
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    hx, hy = layout.centre(Hex(b.q + 1, b.r))
    size = math.hypot((hx - x1) * k, hy - y1) * head
    bx, by = x1 - ux * size / k, y1 - uy * size
    left = (bx - uy * size * 0.55 / k, by + ux * size * 0.55)
    right = (bx + uy * size * 0.55 / k, by - ux * size * 0.55)
    r = lambda p: [round(p[0], d), round(p[1], d)]  # noqa: E731
    return [
        {"type": "LineString", "coordinates": [r((x0, y0)), r((bx, by))]},
        {"type": "Polygon", "coordinates": [[r((x1, y1)), r(left), r(right), r((x1, y1))]]},
    ]


def lonlat_to_pixels(layout: GeoLayout, lon: Any, lat: Any) -> tuple[np.ndarray, np.ndarray]:
    """Map-plane coordinates in which Leaflet draws linearly: Web Mercator (metres) or, for
    planar boards, the plane itself. ``y`` grows north."""
    lon = np.asarray(lon, dtype=float)
    lat = np.asarray(lat, dtype=float)
    if layout.projection == "simple":
        return lon, lat
    r = 6378137.0
    return r * np.radians(lon), r * np.log(
        np.tan(np.pi / 4 + np.radians(np.clip(lat, -85, 85)) / 2)
    )


def bounds_latlng(layout: GeoLayout, hexes: Iterable[Hex]) -> list[list[float]]:
    """``[[south, west], [north, east]]`` around the corners of *hexes*."""
    w, s, e, n = layout.bounds(list(hexes))
    return [[s, w], [n, e]]


LABEL_FONT = 0.23
"""Hex labels' font size as a fraction of the hex's height (9 px on a 40 px hex)."""


def labels_image(
    layout: GeoLayout,
    labels: Mapping[Hex, str],
    names: Mapping[Hex, str] | None = None,
    colour: str = "#4b5563",
) -> tuple[str, list[list[float]]]:
    """An SVG image (``data:`` URL) of hex labels, and the bounds to lay it over the map.

    The SVG is drawn in the plane Leaflet draws linearly (see :func:`lonlat_to_pixels`), so each
    label sits on its hex at every zoom. Labels go near the top edge of the hex (as printed maps
    do), *names* (cities, ports) near the bottom.
    """
    hs = list(labels)
    if not hs:
        return "", [[0.0, 0.0], [0.0, 0.0]]
    polys = layout.polygons(hs)
    px, py = lonlat_to_pixels(layout, polys[..., 0], polys[..., 1])
    cx, cy = lonlat_to_pixels(layout, *layout.centres(hs).T)
    x0, x1, y0, y1 = px.min(), px.max(), py.min(), py.max()
    scale = 1000.0 / max(x1 - x0, y1 - y0)  # the SVG is about 1000 units across
    height = (py.max(axis=1) - py.min(axis=1)) * scale  # each hex's height in SVG units
    parts = []
    for i, h in enumerate(hs):
        x = (cx[i] - x0) * scale
        y = (y1 - cy[i]) * scale
        f = height[i] * LABEL_FONT
        parts.append(
            f"<text x='{x:.2f}' y='{y - height[i] * 0.29:.2f}' font-size='{f:.2f}'>"
            f"{html.escape(labels[h])}</text>"
        )
        name = (names or {}).get(h)
        if name:
            parts.append(
                f"<text x='{x:.2f}' y='{y + height[i] * 0.38:.2f}' font-size='{f * 0.9:.2f}' "
                f"font-weight='bold'>{html.escape(name)}</text>"
            )
    w, hgt = (x1 - x0) * scale, (y1 - y0) * scale
    svg = (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {w:.2f} {hgt:.2f}' "
        f"width='{w:.0f}' height='{hgt:.0f}' preserveAspectRatio='none'>"
        f"<g font-family='sans-serif' text-anchor='middle' fill='{html.escape(colour)}'>"
        + "".join(parts)
        + "</g></svg>"
    )
    url = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
    lon_w, lat_s = _inverse(layout, x0, y0)
    lon_e, lat_n = _inverse(layout, x1, y1)
    return url, [[lat_s, lon_w], [lat_n, lon_e]]


def _inverse(layout: GeoLayout, x: float, y: float) -> tuple[float, float]:
    if layout.projection == "simple":
        return float(x), float(y)
    r = 6378137.0
    return math.degrees(x / r), math.degrees(2 * math.atan(math.exp(y / r)) - math.pi / 2)
