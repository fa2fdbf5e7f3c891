"""Author a scenario map from real geography, offline: grid, land/sea, overrides, YAML out.

:func:`new_scenario` lays a hex grid of a chosen size (``200 nm``, ``100 nm``, ``20 km``,
``10 km`` or any) over a lon/lat box, classifies every hex, applies the author's overrides and
returns a scenario dict (map, sides, empty order of battle) that :func:`write_scenario` saves as
YAML, together with an offline coastline/borders layer beside it. Loading the scenario later
never touches the land mask: the classification is stored in the file.

**The grid.** Hex ``0101`` sits at the north-west corner, columns run east and rows south, and
the map is the smallest ``cols x rows`` rectangle of hexes that covers every point of the box.
The projection is azimuthal equidistant about the middle of the box (the layout's ``anchor``
hex, see :class:`~owsnb.kernel.geo.GeoLayout`), so hexes stay within a few per cent of their
true size even on a 4,000 km map and rows follow the parallels closely.

**Land, littoral, deep sea** (the documented rule). Each hex is sampled at ``1 + 3k(k-1)``
points of a triangular lattice inside it (``k = samples``, default 5: 61 points) against the
``global-land-mask`` package (GLOBE 1 km land/sea mask; most lakes count as land):

1. a hex is **land** (terrain ``land``, default ``clear``) when at least ``land_threshold``
   (default 0.5: a majority) of its samples are on land;
2. a hex holding a port, airfield, airbase, city or railhead feature is land whatever its
   samples say (so Guam or Okinawa keep their airfields on a 200 nm map);
3. the author's terrain overrides are applied, in order (later wins);
4. every other hex is sea: **littoral** if any of its samples is on land or it is next to a land
   hex, otherwise **deep-sea**.

**Overrides** (a *recipe*, see :func:`scenario_from_recipe`) name places by printed label or by
lon/lat and are resolved to labels here, so the written file needs no geography to load:

* terrain regions: ``{terrain: forest, name: ..., only: land}`` plus any of ``hexes`` (labels),
  ``rect`` (two corner labels), ``bbox`` (hex centres in a lon/lat box), ``around`` (a label or
  ``[lon, lat]`` and a radius in hexes), ``at`` (the hex under one point) and ``polygon`` (hex
  centres inside a lon/lat ring); ``only: land`` / ``only: sea`` keeps only hexes the land
  mask (rules 1-2) calls so (not ``on:``, which YAML reads as ``true``);
* features: ``{type: port, at: [lon, lat], name: ..., capacity: 4, shield: 3}`` (or ``hex:``);
  a hex holds at most one feature of each type (merge two airfields into one entry);
* edges: ``{type: river, line: [[lon, lat], ...]}`` (or ``hexes:``). Rivers and canals run
  along hexsides: the line is traced on the hex corners and written as a chain of hexes whose
  consecutive pairs share the river's hexsides. Roads and rail run through hexes: the chain is
  the hexes the line passes through.

Example:
    >>> scn = new_scenario("demo", "Demo", ruleset="skirmish", bbox=(127.6, 26.1, 128.0, 26.4),
    ...                    hex_size=10, is_land=lambda lon, lat: lon > 127.8)
    >>> m = scn["map"]
    >>> m["cols"], m["rows"], m["layout"]["anchor"], m["terrain"]["default"]
    (5, 5, '0303', 'clear')
    >>> sorted({r["terrain"] for r in scn["map"]["terrain"]["regions"]})
    ['deep-sea', 'littoral']
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from owsnb.kernel.errors import InvalidHexError, ScenarioError, ScenarioProblem
from owsnb.kernel.geo import NM_KM, GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem

__all__ = [
    "SEA", "HEXSIDE_EDGES", "LAND_FEATURES", "Grid", "fit_grid", "parse_hex_size", "land_fractions",
    "new_scenario", "scenario_from_recipe", "write_scenario", "dump_yaml", "MapRecipe",
]

#: Sea terrains; every other terrain is land.
SEA = ("deep-sea", "littoral")
#: Edge types traced along hexsides (the others run through hex centres).
HEXSIDE_EDGES = frozenset({"river", "major-river", "minor-river", "canal"})
#: Feature types whose hex is land even when the mask says sea.
LAND_FEATURES = frozenset({"port", "airfield", "airbase", "city", "railhead"})
#: Sides of a new scenario unless given.
DEFAULT_SIDES = {"blue": {"title": "Blue", "color": "#1f5fbf"}, "red": {"title": "Red", "color": "#c0392b"}}
LAND_SOURCE = "global-land-mask (GLOBE 1 km land/sea mask)"

LandFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


# -- sizes ----------------------------------------------------------------------------------------
def parse_hex_size(value: str | float | int, unit: str | None = None) -> tuple[float, Literal["km", "nm"]]:
    """A hex size as ``(number, unit)`` from ``"200nm"``, ``"20 km"``, ``"10"`` or a number.

    Raises:
        ValueError: for anything else.

    Example:
        >>> parse_hex_size("200nm"), parse_hex_size("20 km"), parse_hex_size(10)
        ((200.0, 'nm'), (20.0, 'km'), (10.0, 'km'))
        >>> parse_hex_size("3 miles")
        Traceback (most recent call last):
        ...
        ValueError: hex size must look like '200nm', '100 nm', '20km' or '10', got '3 miles'
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        size, found = float(value), None
    else:
        m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*(km|nm)?\s*", str(value), flags=re.IGNORECASE)
        if not m:
            raise ValueError(f"hex size must look like '200nm', '100 nm', '20km' or '10', got {value!r}")
        size, found = float(m.group(1)), (m.group(2) or "").lower() or None
    if found and unit and found != unit:
        raise ValueError(f"hex size {value!r} says {found} but unit={unit!r}")
    u = found or unit or "km"
    if u not in ("km", "nm"):
        raise ValueError(f"unit must be 'km' or 'nm', got {u!r}")
    if not size > 0 or not math.isfinite(size):
        raise ValueError(f"hex size must be positive, got {value!r}")
    return size, u  # type: ignore[return-value]


def _check_bbox(bbox: Sequence[float]) -> tuple[float, float, float, float]:
    try:
        x0, y0, x1, y1 = (float(v) for v in bbox)
    except (TypeError, ValueError):
        raise ValueError(f"bbox must be (min_lon, min_lat, max_lon, max_lat), got {bbox!r}") from None
    if not (x0 < x1 and y0 < y1):
        raise ValueError(f"bbox must have min_lon < max_lon and min_lat < max_lat, got {list(bbox)!r}")
    if not (-85 <= y0 and y1 <= 85 and -180 <= x0 and x1 <= 360 and x1 - x0 <= 180):
        raise ValueError(f"bbox must lie within latitudes +-85 and span at most 180 degrees of longitude, got {list(bbox)!r}")
    return x0, y0, x1, y1


# -- the grid -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """A ``cols x rows`` printed map placed on the Earth (see :func:`fit_grid`)."""

    layout: GeoLayout
    offset: OffsetSystem
    cols: int
    rows: int
    size: float
    unit: str

    @property
    def hexes(self) -> list[Hex]:
        """Every hex, column by column (label order)."""
        return self.offset.rectangle(self.cols, self.rows)

    @property
    def anchor(self) -> str:
        """Label of the hex centred on the layout's origin (the middle of the box)."""
        return self.offset.to_label(Hex(*self.layout.anchor))

    def label(self, h: Hex) -> str:
        return self.offset.to_label(h)

    def on_map(self, h: Hex) -> bool:
        c, r = self.offset.to_offset(h)
        return 1 <= c <= self.cols and 1 <= r <= self.rows

    def hex_at(self, lon: float, lat: float) -> Hex | None:
        """The hex under a point, or ``None`` off the map."""
        h = self.layout.hex_at(lon, lat)
        return h if self.on_map(h) else None

    def extent(self) -> list[float]:
        """``[min_lon, min_lat, max_lon, max_lat]`` of every hex polygon."""
        p = self.layout.polygons(self.hexes)
        return [round(float(v), 4) for v in (p[..., 0].min(), p[..., 1].min(), p[..., 0].max(), p[..., 1].max())]


def fit_grid(bbox: Sequence[float], hex_size: str | float = 20, unit: str | None = None,
             orientation: Literal["flat", "pointy"] = "flat") -> Grid:
    """The smallest ``cols x rows`` map, ``0101`` at the north-west, covering *bbox*.

    The projection (azimuthal equidistant) is centred on the middle of the box: the hex there
    is the layout's *anchor*, so hex sizes stay true to a few per cent even on a 4,000 km map
    and rows follow the parallels closely. Every point of the box lies in a hex of the map; the
    map's corners may reach a little beyond it.

    Raises:
        ValueError: for a malformed box or size.

    Example:
        >>> g = fit_grid((127.0, 25.0, 129.0, 27.0), "20km")
        >>> g.cols, g.rows, g.anchor, g.label(g.hex_at(127.0, 27.0)), g.label(g.hex_at(129.0, 25.0))
        (13, 13, '0707', '0101', '1313')
    """
    x0, y0, x1, y1 = _check_bbox(bbox)
    size, u = parse_hex_size(hex_size, unit)
    size_km = size * NM_KM if u == "nm" else size
    if orientation not in ("flat", "pointy"):
        raise ValueError(f"orientation must be 'flat' or 'pointy', got {orientation!r}")
    centre = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
    tmp = GeoLayout(orientation, size_km, centre, "aeqd")  # Hex(0, 0) sits on the box's centre
    # every hex under a point of the box's edges (a quarter hex apart) or of an inner lattice
    span_km = max((x1 - x0) * 111.2, (y1 - y0) * 111.2)
    n = max(8, min(4000, int(4 * span_km / size_km) + 2))
    t = np.linspace(0.0, 1.0, n)
    lons = np.concatenate([x0 + (x1 - x0) * t, np.full(n, x1), x0 + (x1 - x0) * t, np.full(n, x0)])
    lats = np.concatenate([np.full(n, y1), y0 + (y1 - y0) * t, np.full(n, y0), y0 + (y1 - y0) * t])
    found = {tmp.hex_at(a, b) for a, b in zip(lons, lats, strict=True)}
    # renumber so that the north-west hex of the covering rectangle is Hex(0, 0), printed 0101
    zero = OffsetSystem(orientation, "odd", 0, 0, 9)
    cr = np.array([zero.to_offset(h) for h in found])
    nw = zero.from_offset(int(cr[:, 0].min()), int(cr[:, 1].min()))
    for _ in range(4):  # moving by an odd number of columns (rows) flips the stagger: settle it
        cr = np.array([zero.to_offset(h - nw) for h in found])
        cmin, rmin = int(cr[:, 0].min()), int(cr[:, 1].min())
        if cmin == 0 and rmin == 0:
            break
        nw = nw + zero.from_offset(cmin, rmin)
    cols, rows = int(cr[:, 0].max()) + 1, int(cr[:, 1].max()) + 1
    digits = max(2, len(str(max(cols, rows))))
    offset = OffsetSystem(orientation, "odd", 1, 1, digits)
    anchor = Hex(0, 0) - nw
    layout = GeoLayout(orientation, size_km, centre, "aeqd", (anchor.q, anchor.r))
    return Grid(layout, offset, cols, rows, size, u)


# -- land and sea ---------------------------------------------------------------------------------
def _mask_is_land(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    try:
        from global_land_mask import globe  # imported here only: it loads a 2.5 MB mask (seconds)
    except ImportError as exc:  # pragma: no cover - the package is a dependency
        raise ImportError("scenario generation needs the land mask: pip install global-land-mask") from exc
    return np.asarray(globe.is_land(np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)), dtype=bool)


def _sample_weights(k: int) -> np.ndarray:
    """Weights over (centre, 6 corners) of the interior points of a triangular lattice."""
    rows = [np.eye(7)[0]]
    for tri in range(6):
        for i in range(1, k):
            for j in range(0, k - i):
                w = np.zeros(7)
                w[0] = 1 - (i + j) / k
                w[1 + tri] += i / k
                w[1 + (tri + 1) % 6] += j / k
                rows.append(w)
    return np.array(rows)


def land_fractions(grid: Grid, samples: int = 5, is_land: LandFn | None = None) -> np.ndarray:
    """The share of each hex's sample points on land, in :attr:`Grid.hexes` order.

    Args:
        grid: the grid.
        samples: lattice subdivisions *k*; each hex is sampled at ``1 + 3k(k-1)`` points.
        is_land: ``f(lon_array, lat_array) -> bool array``; default the global land mask.

    Example:
        >>> g = fit_grid((0.0, 0.0, 0.3, 0.2), 10)
        >>> f = land_fractions(g, 3, lambda lon, lat: lon < 0.15)  # land west of 0.15 E
        >>> float(f[0]), float(f[-1])  # hex 0101 (north-west) and the south-east corner
        (1.0, 0.0)
    """
    if not (isinstance(samples, int) and 1 <= samples <= 20):
        raise ValueError(f"samples must be a whole number from 1 to 20, got {samples!r}")
    hexes = grid.hexes
    pts = np.concatenate([grid.layout.centres(hexes)[:, None, :], grid.layout.polygons(hexes)], axis=1)
    w = _sample_weights(samples)
    sp = np.einsum("sc,ncd->nsd", w, pts)  # (N hexes, S samples, lon/lat)
    lon = (sp[..., 0] + 180.0) % 360.0 - 180.0
    land = (is_land or _mask_is_land)(lon.ravel(), sp[..., 1].ravel())
    return np.asarray(land, dtype=float).reshape(lon.shape).mean(axis=1)


# -- recipes --------------------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


LonLat = tuple[float, float]


class RegionRecipe(_Strict):
    """Terrain for a set of hexes, named by labels or by geography."""

    terrain: str = Field(min_length=1)
    name: str = ""
    only: Literal["land", "sea", "any"] = "any"
    hexes: list[str] = []
    rect: tuple[str, str] | None = None
    bbox: tuple[float, float, float, float] | None = None
    around: tuple[str | LonLat, int] | None = None
    at: LonLat | None = None
    polygon: list[LonLat] | None = Field(None, min_length=3)

    @model_validator(mode="after")
    def _some(self) -> RegionRecipe:
        if not (self.hexes or self.rect or self.bbox or self.around or self.at or self.polygon):
            raise ValueError("a terrain region needs hexes, rect, bbox, around, at or polygon")
        return self


class FeatureRecipe(_Open):
    """A feature (port, airfield, city...) at a label or a lon/lat; other keys are its facts."""

    type: str = Field(min_length=1)
    name: str = ""
    hex: str | None = None
    at: LonLat | None = None

    @model_validator(mode="after")
    def _one(self) -> FeatureRecipe:
        if (self.hex is None) == (self.at is None):
            raise ValueError("a feature needs exactly one of hex (a label) or at ([lon, lat])")
        return self


class EdgeRecipe(_Open):
    """A river, road, rail... along labels or a lon/lat line; other keys are its facts."""

    type: str = Field(min_length=1)
    name: str = ""
    hexes: list[str] | None = Field(None, min_length=2)
    line: list[LonLat] | None = Field(None, min_length=2)
    trace: Literal["hexes", "hexsides"] | None = None

    @model_validator(mode="after")
    def _one(self) -> EdgeRecipe:
        if (self.hexes is None) == (self.line is None):
            raise ValueError("an edge needs exactly one of hexes (labels) or line ([[lon, lat], ...])")
        return self


class MapRecipe(_Strict):
    """The ``map:`` block of a recipe file (what :func:`new_scenario` takes as keywords)."""

    bbox: tuple[float, float, float, float]
    hex: str | float = Field(description="hex size: '200nm', '20km', 10 ...")
    unit: Literal["km", "nm"] | None = None
    orientation: Literal["flat", "pointy"] = "flat"
    land: str = "clear"
    land_threshold: float = Field(0.5, gt=0, le=1)
    samples: int = Field(5, ge=1, le=20)
    land_features: list[str] | None = None
    meta: dict[str, Any] = {}
    terrain: list[RegionRecipe] = []
    features: list[FeatureRecipe] = []
    edges: list[EdgeRecipe] = []


class _Problems:
    def __init__(self, file: str):
        self.file = file
        self.items: list[ScenarioProblem] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(ScenarioProblem(self.file, path, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.items)


def _validation(exc: ValidationError, problems: _Problems, prefix: str) -> None:
    for err in exc.errors():
        path = prefix
        for part in err["loc"]:
            path += f"[{part}]" if isinstance(part, int) else f".{part}"
        msg = "unknown key (check spelling)" if err["type"] == "extra_forbidden" else err["msg"]
        problems.add(path.lstrip("."), msg)


# -- resolving places -----------------------------------------------------------------------------
class _Resolver:
    """Turns labels and lon/lat into hexes of one grid, collecting located problems."""

    def __init__(self, grid: Grid, problems: _Problems):
        self.grid = grid
        self.problems = problems
        self.hexes = grid.hexes
        self.centres = grid.layout.centres(self.hexes)

    def label(self, lab: str, path: str) -> Hex | None:
        try:
            h = self.grid.offset.from_label(str(lab))
        except InvalidHexError as exc:
            self.problems.add(path, str(exc))
            return None
        if not self.grid.on_map(h):
            self.problems.add(path, f"hex {lab} is off the map ({self.grid.cols} columns x {self.grid.rows} rows)")
            return None
        return h

    def point(self, lonlat: Sequence[float], path: str) -> Hex | None:
        lon, lat = float(lonlat[0]), float(lonlat[1])
        h = self.grid.hex_at(lon, lat)
        if h is None:
            self.problems.add(path, f"[{lon}, {lat}] is off the map (its extent is {self.grid.extent()})")
        return h

    def place(self, ref: str | Sequence[float], path: str) -> Hex | None:
        return self.label(ref, path) if isinstance(ref, str) else self.point(ref, path)

    def region(self, reg: RegionRecipe, path: str) -> list[Hex]:
        out: list[Hex] = []
        for k, lab in enumerate(reg.hexes):
            h = self.label(lab, f"{path}.hexes[{k}]")
            if h is not None:
                out.append(h)
        if reg.rect:
            a, b = self.label(reg.rect[0], f"{path}.rect[0]"), self.label(reg.rect[1], f"{path}.rect[1]")
            if a is not None and b is not None:
                (c0, r0), (c1, r1) = self.grid.offset.to_offset(a), self.grid.offset.to_offset(b)
                out += [h for h in self.hexes
                        if min(c0, c1) <= self.grid.offset.to_offset(h)[0] <= max(c0, c1)
                        and min(r0, r1) <= self.grid.offset.to_offset(h)[1] <= max(r0, r1)]
        if reg.bbox:
            x0, y0, x1, y1 = reg.bbox
            lon, lat = self.centres[:, 0], self.centres[:, 1]
            out += [self.hexes[i] for i in np.nonzero((lon >= x0) & (lon <= x1) & (lat >= y0) & (lat <= y1))[0]]
        if reg.around:
            c = self.place(reg.around[0], f"{path}.around[0]")
            if c is not None:
                out += [h for h in self.hexes if c.distance(h) <= int(reg.around[1])]
        if reg.at:
            h = self.point(reg.at, f"{path}.at")
            if h is not None:
                out.append(h)
        if reg.polygon:
            inside = _in_polygon(self.centres, np.asarray(reg.polygon, dtype=float))
            out += [self.hexes[i] for i in np.nonzero(inside)[0]]
        return list(dict.fromkeys(out))


def _in_polygon(pts: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """Even-odd rule: which points lie inside a lon/lat ring."""
    x, y = pts[:, 0], pts[:, 1]
    inside = np.zeros(len(pts), dtype=bool)
    xs, ys = ring[:, 0], ring[:, 1]
    for i in range(len(ring)):
        xa, ya, xb, yb = xs[i - 1], ys[i - 1], xs[i], ys[i]
        if ya == yb:
            continue
        cross = ((ya > y) != (yb > y)) & (x < xa + (y - ya) * (xb - xa) / (yb - ya))
        inside ^= cross
    return inside


def _km(lon: np.ndarray, lat: np.ndarray, lat0: float) -> np.ndarray:
    """Local equirectangular km (good enough to compare nearby distances)."""
    return np.column_stack([np.asarray(lon) * 111.2 * math.cos(math.radians(lat0)), np.asarray(lat) * 111.2])


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


def _trace_hexes(grid: Grid, line: Sequence[Sequence[float]]) -> list[list[Hex]]:
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


class _Corners:
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

        best = {a: 0.0}
        prev: dict[int, int] = {}
        heap = [(0.0, a)]
        while heap:
            d, v = heapq.heappop(heap)
            if v == b:
                break
            if d > best.get(v, math.inf):
                continue
            for w in self.nbrs.get(v, ()):
                mid = (self.xy[v] + self.xy[w]) / 2
                length = float(np.hypot(*(self.xy[w] - self.xy[v])))
                nd = d + length * (1.0 + (off(mid) / (0.5 * self.size_km)) ** 2)
                if nd < best.get(w, math.inf):
                    best[w], prev[w] = nd, v
                    heapq.heappush(heap, (nd, w))
        path = [b]
        while path[-1] != a:
            path.append(prev[path[-1]])
        return path[::-1]


def _trace_hexsides(grid: Grid, corners: _Corners, line: Sequence[Sequence[float]]) -> list[list[Hex]]:
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


# -- the scenario ---------------------------------------------------------------------------------
def new_scenario(id: str, title: str, *, bbox: Sequence[float], hex_size: str | float = 20,
                 unit: str | None = None, ruleset: str = "ows", orientation: Literal["flat", "pointy"] = "flat",
                 land: str = "clear", land_threshold: float = 0.5, samples: int = 5,
                 land_features: Sequence[str] | None = None, terrain: Sequence[Mapping[str, Any]] = (),
                 features: Sequence[Mapping[str, Any]] = (), edges: Sequence[Mapping[str, Any]] = (),
                 meta: Mapping[str, Any] | None = None, sides: Mapping[str, Any] | None = None,
                 is_land: LandFn | None = None, source: str = "<new_scenario>", **scenario: Any) -> dict[str, Any]:
    """A new scenario on real geography: its map classified and overridden, no units yet.

    Args:
        id: scenario id (letters, digits, ``_.-``).
        title: its title.
        bbox: ``(min_lon, min_lat, max_lon, max_lat)`` the map must cover.
        hex_size: ``200`` / ``"200nm"`` / ``"20km"``: hex width across flats.
        unit: ``"km"`` or ``"nm"`` when *hex_size* is a bare number (default km).
        ruleset: the rule set the scenario plays.
        orientation: ``"flat"`` (columns, OWS maps) or ``"pointy"``.
        land: terrain of land hexes before overrides.
        land_threshold: share of land samples that makes a hex land (0.5 = majority).
        samples: lattice subdivisions per hex (``1 + 3k(k-1)`` points; 5 gives 61).
        land_features: feature types that force their hex to land (default :data:`LAND_FEATURES`).
        terrain: override regions (see the module docstring), applied in order.
        features: ports, airfields, cities... by ``at: [lon, lat]`` or ``hex:``.
        edges: rivers, roads, rail... by ``line: [[lon, lat], ...]`` or ``hexes:``.
        meta: map facts (``scale``, ``zone_km``...) stored under ``map.meta``.
        sides: the sides (default blue and red).
        is_land: a replacement land test ``f(lon_array, lat_array) -> bool array`` (tests,
            other data); default the ``global-land-mask`` package.
        source: name used in error messages (the recipe file).
        **scenario: any other scenario key (``briefing``, ``victory``, ``options``, ``units``...).

    Returns:
        the scenario as a plain dict, ready for :func:`write_scenario` or ``owsnb.load``.

    Raises:
        ScenarioError: every bad override, each located (``terrain[2].at: ... off the map``).
        ValueError: a malformed box or size.
    """
    problems = _Problems(source)
    try:
        recipe = MapRecipe(bbox=tuple(bbox), hex=hex_size, unit=unit, orientation=orientation, land=land,
                           land_threshold=land_threshold, samples=samples,
                           land_features=None if land_features is None else list(land_features),
                           meta=dict(meta or {}), terrain=list(terrain), features=list(features), edges=list(edges))
    except ValidationError as exc:
        _validation(exc, problems, "map")
        problems.raise_if_any()
    grid = fit_grid(recipe.bbox, recipe.hex, recipe.unit, recipe.orientation)
    res = _Resolver(grid, problems)
    hexes = res.hexes
    frac = dict(zip(hexes, land_fractions(grid, recipe.samples, is_land), strict=True))
    is_land_hex = {h: frac[h] >= recipe.land_threshold for h in hexes}

    # features (and the land they force)
    forcing = set(LAND_FEATURES if recipe.land_features is None else recipe.land_features)
    out_features: list[dict[str, Any]] = []
    seen: dict[tuple[Hex, str], int] = {}
    for j, f in enumerate(recipe.features):
        facts = f.model_dump(exclude_none=True)
        where = f"map.features[{j}].hex" if f.hex is not None else f"map.features[{j}].at"
        h = res.label(f.hex, where) if f.hex is not None else res.point(f.at, where)
        if h is None:
            continue
        if (h, f.type) in seen:
            k = seen[h, f.type]
            other = recipe.features[k].name or f"features[{k}]"
            problems.add(where, f"hex {grid.label(h)} already has a {f.type} ({other!r}, features[{k}]): a hex holds "
                                "one feature of each type, so merge them into one entry (e.g. add the capacities)")
            continue
        seen[h, f.type] = j
        if f.type in forcing:
            is_land_hex[h] = True
        entry: dict[str, Any] = {"hex": grid.label(h), "type": f.type}
        if f.name:
            entry["name"] = f.name
        entry.update({k: list(v) if isinstance(v, tuple) else v for k, v in facts.items()
                      if k not in ("hex", "type", "name")})
        out_features.append(entry)

    # terrain overrides
    override: dict[Hex, str] = {}
    regions: list[tuple[RegionRecipe, list[Hex]]] = []
    for j, reg in enumerate(recipe.terrain):
        path = f"map.terrain[{j}]"
        found = res.region(reg, path)
        if reg.only != "any":
            found = [h for h in found if is_land_hex[h] == (reg.only == "land")]
        if not found and not any(p.path.startswith(path) for p in problems.items):
            problems.add(path, f"region {reg.name or reg.terrain!r} matches no hex"
                         + (f" that is {reg.only}" if reg.only != "any" else ""))
        for h in found:
            override[h] = reg.terrain
        regions.append((reg, found))

    # edges
    corners: _Corners | None = None
    out_edges: list[dict[str, Any]] = []
    for j, e in enumerate(recipe.edges):
        facts = {k: v for k, v in e.model_dump(exclude_none=True).items() if k not in ("hexes", "line", "trace", "type", "name")}
        if e.hexes is not None:
            chain = [res.label(lab, f"map.edges[{j}].hexes[{k}]") for k, lab in enumerate(e.hexes)]
            for k in range(len(chain) - 1):
                a, b = chain[k], chain[k + 1]
                if a is not None and b is not None and a.distance(b) != 1:
                    problems.add(f"map.edges[{j}].hexes[{k + 1}]", f"{e.hexes[k]} and {e.hexes[k + 1]} are not adjacent")
            chains = [[h for h in chain if h is not None]]
        else:
            along = e.trace == "hexsides" or (e.trace is None and e.type in HEXSIDE_EDGES)
            if along:
                corners = corners or _Corners(grid)
                chains = _trace_hexsides(grid, corners, e.line)
            else:
                chains = _trace_hexes(grid, e.line)
            if not chains:
                problems.add(f"map.edges[{j}].line", f"{e.type} {e.name!r} does not cross the map")
        for chain in chains:
            entry = {"type": e.type, **({"name": e.name} if e.name else {}), "hexes": [grid.label(h) for h in chain], **facts}
            out_edges.append(entry)
    problems.raise_if_any()

    # final classification: land, littoral, deep sea
    base: dict[Hex, str] = {}
    for h in hexes:
        if is_land_hex[h]:
            base[h] = recipe.land
    final_land = {h for h in hexes if (override.get(h) or base.get(h, "deep-sea")) not in SEA}
    for h in hexes:
        if h not in base:
            near = frac[h] > 0 or any(n in final_land for n in h.neighbours())
            base[h] = "littoral" if near else "deep-sea"
    free = [h for h in hexes if h not in override]
    counts = Counter(base[h] for h in free) if free else Counter(base.values())
    default = counts.most_common(1)[0][0]
    out_regions: list[dict[str, Any]] = []
    for t in sorted(counts, key=lambda k: (-counts[k], k)):
        if t == default:
            continue
        out_regions.append({"terrain": t, "name": "generated", "hexes": [grid.label(h) for h in free if base[h] == t]})
    for reg, found in regions:
        entry = {"terrain": reg.terrain}
        if reg.name:
            entry["name"] = reg.name
        entry["hexes"] = [grid.label(h) for h in found]
        out_regions.append(entry)

    lay: dict[str, Any] = {"orientation": recipe.orientation, "size": grid.size, "unit": grid.unit,
                           "origin": [round(v, 6) for v in grid.layout.origin], "anchor": grid.anchor,
                           "projection": "aeqd"}
    map_meta = {
        **recipe.meta,
        "bbox": [float(v) for v in recipe.bbox],
        "extent": grid.extent(),
        "terrain_source": {
            "land": LAND_SOURCE if is_land is None else "custom land test",
            "samples_per_hex": int(_sample_weights(recipe.samples).shape[0]),
            "land_threshold": recipe.land_threshold,
            "rule": "land if share of land samples >= threshold or the hex holds a "
                    + "/".join(sorted(forcing)) + "; sea hexes with land samples or next to land are littoral",
        },
    }
    mp: dict[str, Any] = {
        "layout": lay,
        "labels": {"parity": grid.offset.parity, "first_col": 1, "first_row": 1, "digits": grid.offset.digits},
        "cols": grid.cols, "rows": grid.rows,
        "terrain": {"default": default, "regions": out_regions},
        "features": out_features, "edges": out_edges, "meta": map_meta,
    }
    scn: dict[str, Any] = {"owsnb": 1, "id": id, "title": title, "ruleset": ruleset}
    for key in ("description", "briefing", "briefing_file", "options", "seed", "turns"):
        if key in scenario:
            scn[key] = scenario.pop(key)
    scn["map"] = mp
    scn["sides"] = {k: dict(v) for k, v in (sides or DEFAULT_SIDES).items()}
    scn["catalogs"] = list(scenario.pop("catalogs", []))
    scn["units"] = list(scenario.pop("units", []))
    scn.update(scenario)
    return scn


def scenario_from_recipe(recipe: str | Path | Mapping[str, Any], *, is_land: LandFn | None = None,
                         source: str | None = None) -> dict[str, Any]:
    """A scenario from a recipe: a scenario file whose ``map:`` is a :class:`MapRecipe`.

    A recipe (e.g. ``scenarios/maps/tutorial.recipe.yaml``) holds every scenario key
    (``id``, ``title``, ``ruleset``, ``sides``, ``briefing``...) plus a ``map:`` block with
    ``bbox``, ``hex``, and the overrides (``terrain``, ``features``, ``edges``, ``meta``).

    Args:
        recipe: a recipe file or the same as a dict.
        is_land: a replacement land test (see :func:`new_scenario`).
        source: the name to put in error messages (default the file, or ``<recipe>``).

    Raises:
        ScenarioError: the recipe is broken (each problem located).
    """
    source = source or "<recipe>"
    if not isinstance(recipe, Mapping):
        source = str(recipe)
        try:
            recipe = yaml.safe_load(Path(recipe).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ScenarioError(f"cannot read recipe: {exc}", file=source) from None
    if not isinstance(recipe, Mapping):
        raise ScenarioError("a recipe must be a mapping with id, title, ruleset and map", file=source)
    data = dict(recipe)
    problems = _Problems(source)
    for key in ("id", "title", "map"):
        if key not in data:
            problems.add(key, "required key is missing")
    problems.raise_if_any()
    m = data.pop("map")
    if not isinstance(m, Mapping):
        raise ScenarioError([ScenarioProblem(source, "map", "must be a mapping (bbox, hex, terrain...)")])
    try:
        mr = MapRecipe.model_validate(m)
    except ValidationError as exc:
        _validation(exc, problems, "map")
        problems.raise_if_any()
    kw = {"bbox": mr.bbox, "hex_size": mr.hex, "unit": mr.unit, "orientation": mr.orientation, "land": mr.land,
          "land_threshold": mr.land_threshold, "samples": mr.samples, "land_features": mr.land_features,
          "terrain": [r.model_dump(exclude_none=True) for r in mr.terrain],
          "features": [f.model_dump(exclude_none=True) for f in mr.features],
          "edges": [e.model_dump(exclude_none=True) for e in mr.edges], "meta": mr.meta}
    return new_scenario(data.pop("id"), data.pop("title"), ruleset=data.pop("ruleset", "ows"), is_land=is_land,
                        source=source, **kw, **data)


# -- YAML out -------------------------------------------------------------------------------------
class _Label(str):
    """A printed hex label: always written quoted ("0304"), never read back as a number."""


class _Flow(list):
    """A list written on one line."""


class _FlowMap(dict):
    """A mapping written on one line."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Label, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", str(s), style='"'))
_Dumper.add_representer(_Flow, lambda d, s: d.represent_sequence("tag:yaml.org,2002:seq", list(s), flow_style=True))
_Dumper.add_representer(_FlowMap, lambda d, s: d.represent_mapping("tag:yaml.org,2002:map", dict(s), flow_style=True))
_Dumper.add_representer(str, lambda d, s: d.represent_scalar(
    "tag:yaml.org,2002:str", s, style="|" if "\n" in s else None))

_LABEL_KEYS = {"hexes", "hex", "rect", "around"}


def _styled(obj: Any, key: str = "", depth: int = 0) -> Any:
    if isinstance(obj, Mapping):
        out = {k: _styled(v, str(k), depth + 1) for k, v in obj.items()}
        if key in ("hexes",) and depth > 0 and all(isinstance(v, str) for v in obj.values()):
            return _FlowMap({_Label(k): v for k, v in out.items()})
        small = all(not isinstance(v, (Mapping, list)) or isinstance(v, (_Flow, _FlowMap)) for v in out.values())
        if small and depth >= 3 and len(str(obj)) < 400 and "briefing" not in obj:
            return _FlowMap(out)
        return out
    if isinstance(obj, (list, tuple)):
        items = [_styled(v, key, depth + 1) for v in obj]
        if key in _LABEL_KEYS:
            items = [_Label(v) if isinstance(v, str) else v for v in items]
        if all(not isinstance(v, (Mapping, list, tuple)) or isinstance(v, _Flow) for v in items):
            return _Flow(items)
        return items
    if key in ("hex", "anchor") and isinstance(obj, str):
        return _Label(obj)
    return obj


def dump_yaml(scenario: Mapping[str, Any]) -> str:
    """The scenario as YAML: block layout, one-line entries, labels always quoted.

    Example:
        >>> print(dump_yaml({"id": "x", "map": {"terrain": {"hexes": {"0304": "urban"}},
        ...                  "edges": [{"type": "road", "hexes": ["0101", "0102"]}]}}), end="")
        id: x
        map:
          terrain:
            hexes: {"0304": urban}
          edges:
          - {type: road, hexes: ["0101", "0102"]}
    """
    return yaml.dump(_styled(scenario), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=False)


def write_scenario(scenario: Mapping[str, Any], path: str | Path, *, background: bool = True,
                   simplify_km: float | None = None, keep_existing: bool = False) -> Path:
    """Save a scenario as YAML, with its coastline/borders layer beside it.

    Args:
        scenario: a dict from :func:`new_scenario` (or any scenario dict).
        path: the ``.yaml`` file to write (folders are created).
        background: also write ``maps/<id>-coast.geojson`` next to the file (Natural Earth coast
            and borders over the map's extent, see :mod:`owsnb.scenario.coast`) and record it
            as ``map.meta.coast``.
        simplify_km: tolerance of that layer (default a fortieth of a hex).
        keep_existing: if *path* exists, replace only its ``map`` (keeping units, briefing and
            every other key of the file; comments are not kept).

    Returns:
        the path written.
    """
    path = Path(path)
    scn = dict(scenario)
    if keep_existing and path.is_file():
        old = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if isinstance(old, Mapping):
            scn = {**old, "map": scn["map"]}
    mp = dict(scn["map"])
    meta = dict(mp.get("meta") or {})
    path.parent.mkdir(parents=True, exist_ok=True)
    if background and "extent" in meta:
        from owsnb.scenario.coast import background_geojson

        lay = mp["layout"]
        hex_km = float(lay["size"]) * (NM_KM if lay.get("unit") == "nm" else 1.0)
        tol = simplify_km if simplify_km is not None else round(hex_km / 40, 3)
        fc = background_geojson(meta["extent"], simplify_km=tol, precision=3 if hex_km >= 5 else 4)
        rel = f"maps/{scn['id']}-coast.geojson"
        target = path.parent / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        import json

        target.write_text(json.dumps(fc, separators=(",", ":")) + "\n", encoding="utf-8")
        meta["coast"] = rel
    mp["meta"] = meta
    scn["map"] = mp
    path.write_text(dump_yaml(scn), encoding="utf-8")
    return path
