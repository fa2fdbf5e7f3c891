"""Offline coastlines and national borders for a map's background (no tile server, no download).

The data are Natural Earth's *Admin 0 - Countries* at 1:10m (version 4.1.0, public domain), as
redistributed in TopoJSON by the npm package ``world-atlas`` 2.0.2 (ISC licence, see
``geodata/LICENSE-world-atlas.txt``); the file ``geodata/countries-10m.json`` is vendored here,
gzipped (0.9 MB), so this module needs nothing but numpy and works anywhere.

In the country topology an arc that bounds exactly one country is **coast** (sea or large lake
shore) and an arc shared by two countries is a **border**. :func:`coastline_geojson` and
:func:`borders_geojson` clip those arcs to a lon/lat box, thin them with Douglas-Peucker to a
tolerance in km, and round the coordinates, so a Western-Pacific-sized box at the 200 nm scale
fits in well under 200 KB. Scenario authoring stores the result beside the scenario
(:func:`owsnb.authoring.generate.write_scenario`), so drawing a bundled map never reads the
world file at all.

Example:
    >>> fc = coastline_geojson((127.5, 26.0, 128.4, 26.95), simplify_km=1)  # Okinawa
    >>> fc["type"], fc["features"][0]["properties"]["kind"]
    ('FeatureCollection', 'coast')
    >>> lines = fc["features"][0]["geometry"]["coordinates"]
    >>> all(127.5 <= lon <= 128.4 and 26.0 <= lat <= 26.95 for line in lines for lon, lat in line)
    True
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from owsnb.authoring.bbox import check_bbox

__all__ = ["SOURCE", "coastline_geojson", "borders_geojson", "background_geojson", "geojson_size"]

#: Where the lines come from (also written into every FeatureCollection).
SOURCE = (
    "Natural Earth 1:10m Admin 0 Countries v4.1.0 (public domain), "
    "TopoJSON from the npm package world-atlas 2.0.2 (ISC)"
)

_DATA = Path(__file__).resolve().parent / "geodata" / "countries-10m.json.gz"
_COAST, _BORDER = 1, 2
_KM_PER_DEG = 111.195  # mean Earth radius, km per degree of a great circle


@lru_cache(maxsize=1)
def _world() -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Decoded arcs (lon/lat arrays), their kind (coast/border) and their bounding boxes."""
    with gzip.open(_DATA, "rt", encoding="utf-8") as fh:
        topo = json.load(fh)
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        q = np.cumsum(np.asarray(arc, dtype=np.int64), axis=0)
        arcs.append(np.column_stack([q[:, 0] * sx + tx, q[:, 1] * sy + ty]))
    users = np.zeros(len(arcs), dtype=np.int64)
    for geom in topo["objects"]["countries"]["geometries"]:
        used: set[int] = set()
        _collect(geom.get("arcs", []), used)
        for i in used:
            users[i] += 1
    kind = np.where(users >= 2, _BORDER, np.where(users == 1, _COAST, 0))
    boxes = np.array([[a[:, 0].min(), a[:, 1].min(), a[:, 0].max(), a[:, 1].max()] for a in arcs])
    return arcs, kind, boxes


def _collect(nested: Any, out: set[int]) -> None:
    for item in nested:
        if isinstance(item, list):
            _collect(item, out)
        else:
            out.add(item if item >= 0 else ~item)


def _clip(line: np.ndarray, box: tuple[float, float, float, float]) -> list[np.ndarray]:
    """Pieces of a polyline inside a rectangle (segments cut exactly at its sides)."""
    x0, y0, x1, y1 = box
    x, y = line[:, 0], line[:, 1]
    inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
    if inside.all():
        return [line]
    pieces: list[np.ndarray] = []
    cur: list[tuple[float, float]] = []
    for i in range(len(line) - 1):
        seg = _clip_segment(line[i], line[i + 1], box)
        if seg is None:
            if len(cur) > 1:
                pieces.append(np.array(cur))
            cur = []
            continue
        a, b = seg
        if cur and cur[-1] != a:
            if len(cur) > 1:
                pieces.append(np.array(cur))
            cur = []
        if not cur:
            cur.append(a)
        cur.append(b)
        if not inside[i + 1]:  # the segment left the box
            if len(cur) > 1:
                pieces.append(np.array(cur))
            cur = []
    if len(cur) > 1:
        pieces.append(np.array(cur))
    return pieces


def _clip_segment(
    p: np.ndarray, q: np.ndarray, box: tuple[float, float, float, float]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Liang-Barsky: the part of segment p-q inside the box, or None."""
    x0, y0, x1, y1 = box
    dx, dy = float(q[0] - p[0]), float(q[1] - p[1])
    t0, t1 = 0.0, 1.0
    for pk, qk in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pk == 0:
            if qk < 0:
                return None
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    a = (
        float(p[0]) if t0 == 0 else float(p[0] + t0 * dx),
        float(p[1]) if t0 == 0 else float(p[1] + t0 * dy),
    )
    b = (
        float(q[0]) if t1 == 1 else float(p[0] + t1 * dx),
        float(q[1]) if t1 == 1 else float(p[1] + t1 * dy),
    )
    return a, b


def _simplify(line: np.ndarray, tol_km: float) -> np.ndarray:
    """Douglas-Peucker in a local equirectangular frame (km); keeps both ends."""
    n = len(line)
    if n < 3 or tol_km <= 0:
        return line
    k = math.cos(math.radians(float(line[:, 1].mean())))
    xy = np.column_stack([line[:, 0] * k * _KM_PER_DEG, line[:, 1] * _KM_PER_DEG])
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j <= i + 1:
            continue
        a, b = xy[i], xy[j]
        seg = b - a
        pts = xy[i + 1 : j] - a
        norm = math.hypot(seg[0], seg[1])
        if norm == 0.0:
            d = np.hypot(pts[:, 0], pts[:, 1])
        else:
            d = np.abs(seg[0] * pts[:, 1] - seg[1] * pts[:, 0]) / norm
        m = int(np.argmax(d))
        if d[m] > tol_km:
            mid = i + 1 + m
            keep[mid] = True
            stack += [(i, mid), (mid, j)]
    return line[keep]


def _lines(
    kind: int, bbox: Sequence[float], simplify_km: float | None, precision: int
) -> list[list[list[float]]]:
    box = check_bbox(bbox)
    arcs, kinds, boxes = _world()
    out: list[list[list[float]]] = []
    for shift in (-360.0, 0.0, 360.0):  # boxes that reach past the antimeridian
        x0, y0, x1, y1 = box[0] - shift, box[1], box[2] - shift, box[3]
        hit = np.nonzero(
            (kinds == kind)
            & (boxes[:, 2] >= x0)
            & (boxes[:, 0] <= x1)
            & (boxes[:, 3] >= y0)
            & (boxes[:, 1] <= y1)
        )[0]
        for i in hit:
            for piece in _clip(arcs[i], (x0, y0, x1, y1)):
                if simplify_km:
                    piece = _simplify(piece, simplify_km)
                    ext = np.ptp(piece, axis=0) * _KM_PER_DEG
                    if np.array_equal(piece[0], piece[-1]) and max(ext) < 2 * simplify_km:
                        continue  # an island ring smaller than the tolerance
                coords = np.round(piece + [shift, 0.0], precision)
                keep = np.ones(len(coords), dtype=bool)
                keep[1:] = np.any(coords[1:] != coords[:-1], axis=1)
                coords = coords[keep]
                if len(coords) > 1:
                    out.append(coords.tolist())
    return out


def _collection(
    features: list[tuple[str, list]], bbox: Sequence[float], simplify_km: float | None
) -> dict[str, Any]:
    return {
        "type": "FeatureCollection",
        "bbox": [float(v) for v in bbox],
        "features": [
            {
                "type": "Feature",
                "properties": {"kind": kind, "source": SOURCE, "simplify_km": simplify_km},
                "geometry": {"type": "MultiLineString", "coordinates": lines},
            }
            for kind, lines in features
        ],
    }


def coastline_geojson(
    bbox: Sequence[float], simplify_km: float | None = None, *, precision: int = 4
) -> dict[str, Any]:
    """Coastlines inside a lon/lat box, as a GeoJSON FeatureCollection (one MultiLineString).

    Args:
        bbox: ``(min_lon, min_lat, max_lon, max_lat)``; longitudes may run past 180 (e.g.
            ``(170, -20, 190, -10)``), the output then keeps them past 180 too.
        simplify_km: Douglas-Peucker tolerance in km (``None``: the full 1:10m detail); islands
            smaller than twice the tolerance are dropped.
        precision: decimals kept in each coordinate (4 is about 10 m).

    Raises:
        ValueError: for a malformed box.

    Example:
        >>> fc = coastline_geojson((139.0, 34.8, 140.3, 35.8), simplify_km=2)  # Tokyo Bay
        >>> len(fc["features"][0]["geometry"]["coordinates"]) > 0
        True
        >>> coastline_geojson((10, 5, 0, 6))
        Traceback (most recent call last):
        ...
        ValueError: bbox must have min_lon < max_lon and min_lat < max_lat, got [10, 5, 0, 6]
    """
    return _collection([("coast", _lines(_COAST, bbox, simplify_km, precision))], bbox, simplify_km)


def borders_geojson(
    bbox: Sequence[float], simplify_km: float | None = None, *, precision: int = 4
) -> dict[str, Any]:
    """Land borders between countries inside a lon/lat box (see :func:`coastline_geojson`).

    Example:
        >>> fc = borders_geojson((22.0, 53.8, 24.0, 54.6), simplify_km=1)  # the Suwalki gap
        >>> fc["features"][0]["properties"]["kind"], len(fc["features"][0]["geometry"]["coordinates"]) >= 2
        ('border', True)
    """
    return _collection(
        [("border", _lines(_BORDER, bbox, simplify_km, precision))], bbox, simplify_km
    )


def background_geojson(
    bbox: Sequence[float], simplify_km: float | None = None, *, precision: int = 4
) -> dict[str, Any]:
    """Coast and borders together: two features, ``kind`` ``"coast"`` then ``"border"``.

    This is the file written beside a generated scenario (``scenarios/maps/<id>-coast.geojson``).

    Example:
        >>> fc = background_geojson((127.5, 26.0, 128.4, 26.95), simplify_km=1)
        >>> [f["properties"]["kind"] for f in fc["features"]]
        ['coast', 'border']
    """
    return _collection(
        [
            ("coast", _lines(_COAST, bbox, simplify_km, precision)),
            ("border", _lines(_BORDER, bbox, simplify_km, precision)),
        ],
        bbox,
        simplify_km,
    )


def geojson_size(fc: dict[str, Any]) -> int:
    """Bytes of the compact JSON text of *fc* (what a browser would receive).

    Example:
        >>> geojson_size({"type": "FeatureCollection", "features": []})
        42
    """
    return len(json.dumps(fc, separators=(",", ":")).encode("utf-8"))
