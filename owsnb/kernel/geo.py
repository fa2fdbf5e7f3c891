"""Put a hex grid on the Earth (or on an abstract board): centres, corners, distances.

A :class:`GeoLayout` lays hexes out in a planar frame in kilometres (x east, y north, the
centre of ``Hex(0, 0)`` at ``(0, 0)``, ``r`` growing south) and maps that plane to longitude and
latitude with one of three projections:

* ``"aeqd"`` (default): azimuthal equidistant about the origin on a sphere, so distances from
  the origin are true and hex size stays close to true across large maps;
* ``"mercator"``: spherical Mercator, true scale at the origin's latitude;
* ``"simple"``: no Earth at all; "lon/lat" are the planar ``(x, y)`` in km.

Corners are computed on an integer lattice in the plane before projecting, so neighbouring
polygons share their corner points exactly. Returned longitudes stay within 180 degrees of
the origin's longitude (they may pass +-180 near the antimeridian, so polygons never split).

Example:
    >>> layout = GeoLayout.from_size(200, "nm", origin=(127.7, 26.3))
    >>> round(layout.distance_nm(Hex(0, 0), Hex(1, 0)), 1)
    200.0
    >>> layout.hex_at(*layout.centre(Hex(4, -2)))
    Hex(4, -2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from owsnb.kernel.errors import InvalidHexError
from owsnb.kernel.hexgrid import Hex, hex_round

__all__ = ["NM_KM", "EARTH_RADIUS_KM", "great_circle_km", "GeoLayout", "Hex"]

#: Kilometres in one international nautical mile.
NM_KM = 1.852
#: Mean Earth radius (IUGG), km.
EARTH_RADIUS_KM = 6371.0088

_ORIENTATIONS = ("flat", "pointy")
_PROJECTIONS = ("aeqd", "mercator", "simple")
_SQRT3 = math.sqrt(3.0)

# Corner offsets on the integer lattice (units: see GeoLayout._units), counter-clockwise.
_FLAT_CORNERS = np.array([(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)], dtype=np.int64)
_POINTY_CORNERS = np.array([(1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)], dtype=np.int64)


def great_circle_km(lon1: Any, lat1: Any, lon2: Any, lat2: Any) -> Any:
    """Great-circle distance in km on a sphere of mean Earth radius (haversine).

    Accepts scalars or numpy arrays (broadcast); returns a float for scalar input.

    Example:
        >>> round(great_circle_km(-0.1276, 51.5072, 2.3522, 48.8566), 1)  # London - Paris
        343.5
        >>> great_circle_km(np.array([0.0, 0.0]), 0.0, np.array([1.0, 90.0]), 0.0).round(1)
        array([  111.2, 10007.6])
    """
    p1 = np.radians(lat1)
    p2 = np.radians(lat2)
    dp = p2 - p1
    dl = np.radians(np.asarray(lon2, dtype=float) - np.asarray(lon1, dtype=float))
    a = np.sin(dp / 2.0) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2.0) ** 2
    d = 2.0 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))
    return float(d) if np.ndim(d) == 0 else d


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return v


@dataclass(frozen=True)
class GeoLayout:
    """Where the hexes of a grid lie on the Earth.

    Attributes:
        orientation: ``"flat"`` (flat-topped hexes, columns) or ``"pointy"`` (rows).
        size_km: hex width across flats in km, i.e. the distance between neighbour centres.
        origin: ``(lon, lat)`` in degrees of the centre of ``Hex(0, 0)`` (planar ``(x, y)``
            in km for the ``"simple"`` projection).
        projection: ``"aeqd"``, ``"mercator"`` or ``"simple"`` (see the module docstring).
        anchor: the axial ``(q, r)`` of the hex whose centre is at ``origin`` (default
            ``Hex(0, 0)``). Anchoring a large map at its middle hex keeps the projection centred
            on the map, which halves the distortion at its edges.

    Example:
        >>> board = GeoLayout("pointy", 10.0, projection="simple")
        >>> board.centre(Hex(1, 0)), [round(v, 4) for v in board.centre(Hex(0, 1))]
        ((10.0, 0.0), [5.0, -8.6603])
    """

    orientation: Literal["flat", "pointy"]
    size_km: float
    origin: tuple[float, float] = (0.0, 0.0)
    projection: Literal["aeqd", "mercator", "simple"] = "aeqd"
    anchor: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        try:
            aq, ar = self.anchor
            object.__setattr__(self, "anchor", (int(Hex(aq, ar).q), int(Hex(aq, ar).r)))
        except (TypeError, ValueError):
            raise ValueError(
                f"anchor must be a (q, r) pair of whole numbers, got {self.anchor!r}"
            ) from None
        if self.orientation not in _ORIENTATIONS:
            raise ValueError(f"orientation must be 'flat' or 'pointy', got {self.orientation!r}")
        if self.projection not in _PROJECTIONS:
            raise ValueError(
                f"projection must be 'aeqd', 'mercator' or 'simple', got {self.projection!r}"
            )
        size = _number(self.size_km, "size_km")
        if size <= 0:
            raise ValueError(f"size_km must be positive, got {self.size_km!r}")
        try:
            lon, lat = self.origin
        except (TypeError, ValueError):
            raise ValueError(f"origin must be a (lon, lat) pair, got {self.origin!r}") from None
        lon = _number(lon, "origin longitude")
        lat = _number(lat, "origin latitude")
        if self.projection == "aeqd" and abs(lat) > 90.0:
            raise ValueError(f"origin latitude must be within +-90 degrees, got {lat!r}")
        if self.projection == "mercator" and abs(lat) >= 89.0:
            raise ValueError(
                f"origin latitude must be within +-89 degrees for 'mercator', got {lat!r}"
            )
        object.__setattr__(self, "size_km", size)
        object.__setattr__(self, "origin", (lon, lat))

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_size(
        cls,
        size: float,
        unit: Literal["km", "nm"] = "km",
        *,
        origin: tuple[float, float] = (0.0, 0.0),
        orientation: Literal["flat", "pointy"] = "flat",
        projection: Literal["aeqd", "mercator", "simple"] = "aeqd",
        anchor: tuple[int, int] = (0, 0),
    ) -> GeoLayout:
        """A layout whose hexes are ``size`` ``unit`` across flats (``"km"`` or ``"nm"``).

        Raises:
            ValueError: for an unknown unit or a size that is not a positive number.

        Example:
            >>> round(GeoLayout.from_size(200, "nm").size_km, 9)
            370.4
            >>> GeoLayout.from_size(5, "miles")
            Traceback (most recent call last):
            ...
            ValueError: unit must be 'km' or 'nm' (nautical miles), got 'miles'
        """
        if unit not in ("km", "nm"):
            raise ValueError(f"unit must be 'km' or 'nm' (nautical miles), got {unit!r}")
        value = _number(size, "size")
        if value <= 0:
            raise ValueError(f"size must be positive, got {size!r}")
        size_km = value * NM_KM if unit == "nm" else value
        return cls(orientation, size_km, origin, projection, anchor)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form.

        Example:
            >>> GeoLayout("flat", 10.0, (1.0, 2.0)).to_dict()
            {'orientation': 'flat', 'size_km': 10.0, 'origin': [1.0, 2.0], 'projection': 'aeqd'}
        """
        return {
            "orientation": self.orientation,
            "size_km": self.size_km,
            "origin": [self.origin[0], self.origin[1]],
            "projection": self.projection,
            **({"anchor": list(self.anchor)} if self.anchor != (0, 0) else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GeoLayout:
        """Inverse of :meth:`to_dict`.

        Raises:
            ValueError: for missing or unknown keys, or bad values.

        Example:
            >>> g = GeoLayout.from_size(10, origin=(3.0, 4.0))
            >>> GeoLayout.from_dict(g.to_dict()) == g
            True
        """
        if not isinstance(data, dict):
            raise ValueError(f"a geo layout must be a mapping, got {type(data).__name__}")
        known = {"orientation", "size_km", "origin", "projection", "anchor"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown geo layout keys {unknown}; expected {sorted(known)}")
        missing = [k for k in ("orientation", "size_km") if k not in data]
        if missing:
            raise ValueError(f"geo layout is missing {missing}")
        origin = data.get("origin", (0.0, 0.0))
        if not isinstance(origin, (list, tuple)) or len(origin) != 2:
            raise ValueError(f"origin must be a [lon, lat] pair, got {origin!r}")
        return cls(
            data["orientation"],
            data["size_km"],
            (origin[0], origin[1]),
            data.get("projection", "aeqd"),
            tuple(data.get("anchor", (0, 0))),
        )

    # --- planar frame ------------------------------------------------------------------------
    @property
    def size_nm(self) -> float:
        """Hex width across flats in nautical miles.

        Example:
            >>> round(GeoLayout("flat", 370.4).size_nm, 9)
            200.0
        """
        return self.size_km / NM_KM

    @property
    def corner_radius_km(self) -> float:
        """Distance from a hex centre to its corners, ``size_km / sqrt(3)``.

        Example:
            >>> round(GeoLayout("flat", 10.0).corner_radius_km, 4)
            5.7735
        """
        return self.size_km / _SQRT3

    def _units(self) -> tuple[float, float]:
        """Planar km per lattice unit in x and y (centres and corners are integer points)."""
        half = self.size_km / 2.0
        half_r = self.size_km / (2.0 * _SQRT3)
        return (half_r, half) if self.orientation == "flat" else (half, half_r)

    def _lattice(self, q: Any, r: Any) -> tuple[Any, Any]:
        """Integer lattice point of a hex centre (relative to the anchor hex)."""
        q = q - self.anchor[0]
        r = r - self.anchor[1]
        if self.orientation == "flat":
            return 3 * q, -(q + 2 * r)
        return 2 * q + r, -3 * r

    def hex_to_xy(self, h: Hex) -> tuple[float, float]:
        """Planar centre of a hex in km (x east, y north, ``Hex(0, 0)`` at the origin).

        Example:
            >>> GeoLayout("flat", 10.0).hex_to_xy(Hex(0, 1))
            (0.0, -10.0)
        """
        q, r = _as_hex(h)
        mx, ny = self._lattice(q, r)
        ux, uy = self._units()
        return mx * ux + 0.0, ny * uy + 0.0

    def xy_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing the planar point ``(x, y)`` km.

        Example:
            >>> GeoLayout("flat", 10.0).xy_to_hex(0.4, -9.0)
            Hex(0, 1)
        """
        ux, uy = self._units()
        if self.orientation == "flat":
            fq = x / (3.0 * ux)
            fr = (-y / uy - fq) / 2.0
        else:
            fr = -y / (3.0 * uy)
            fq = (x / ux - fr) / 2.0
        return hex_round(fq + self.anchor[0], fr + self.anchor[1])

    # --- projection --------------------------------------------------------------------------
    def _to_lonlat(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Inverse projection: planar km -> degrees (arrays)."""
        lon0, lat0 = self.origin
        if self.projection == "simple":
            return x + lon0, y + lat0
        R = EARTH_RADIUS_KM
        p0 = math.radians(lat0)
        if self.projection == "mercator":
            k = R * math.cos(p0)
            dl = x / k
            lat = np.arctan(np.sinh(y / k + math.asinh(math.tan(p0))))
            return lon0 + np.degrees(dl), np.degrees(lat)
        # aeqd: walk angle c = rho / R from the origin along azimuth atan2(x, y)
        sp0, cp0 = math.sin(p0), math.cos(p0)
        c = np.hypot(x, y) / R
        cos_c = np.cos(c)
        k = np.sinc(c / np.pi) / R  # sin(c) / rho, well defined at rho = 0
        vx = cos_c * cp0 - k * y * sp0
        vy = k * x
        vz = cos_c * sp0 + k * y * cp0
        lat = np.arctan2(vz, np.hypot(vx, vy))
        dl = np.arctan2(vy, vx)
        return lon0 + np.degrees(dl), np.degrees(lat)

    def _to_xy(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Forward projection: degrees -> planar km (arrays)."""
        lon0, lat0 = self.origin
        if self.projection == "simple":
            return lon - lon0, lat - lat0
        R = EARTH_RADIUS_KM
        p0 = math.radians(lat0)
        dl = np.radians(lon - lon0)
        dl = np.where(np.abs(dl) <= np.pi, dl, (dl + np.pi) % (2.0 * np.pi) - np.pi)
        p = np.radians(lat)
        if self.projection == "mercator":
            k = R * math.cos(p0)
            return k * dl, k * (np.arcsinh(np.tan(p)) - math.asinh(math.tan(p0)))
        sp0, cp0 = math.sin(p0), math.cos(p0)
        cp = np.cos(p)
        vx = cp * np.cos(dl)
        vy = cp * np.sin(dl)
        vz = np.sin(p)
        a = vx * cp0 + vz * sp0  # along the origin
        e = vy  # east at the origin
        n = vz * cp0 - vx * sp0  # north at the origin
        s = np.hypot(e, n)
        c = np.arctan2(s, a)
        f = R * np.where(s > 0.0, c / np.where(s > 0.0, s, 1.0), 1.0)
        return f * e, f * n

    def _project_lattice(self, mx: np.ndarray, ny: np.ndarray) -> np.ndarray:
        """Integer lattice points -> (..., 2) array of lon/lat."""
        ux, uy = self._units()
        lon, lat = self._to_lonlat(mx * ux, ny * uy)
        return np.stack([lon, lat], axis=-1).astype(float)

    # --- hexes on the Earth ------------------------------------------------------------------
    def centre(self, h: Hex) -> tuple[float, float]:
        """``(lon, lat)`` of a hex centre.

        Example:
            >>> GeoLayout("flat", 10.0, (127.7, 26.3)).centre(Hex(0, 0))
            (127.7, 26.3)
        """
        lon, lat = self.centres([h])[0]
        return float(lon), float(lat)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners ``(lon, lat)`` of a hex, counter-clockwise.

        Example:
            >>> sq = GeoLayout("pointy", 2.0, projection="simple")
            >>> [(round(x, 3), round(y, 3)) for x, y in sq.corners(Hex(0, 0))][:2]
            [(1.0, 0.577), (0.0, 1.155)]
        """
        return [(float(lon), float(lat)) for lon, lat in self.polygons([h])[0]]

    def hex_at(self, lon: float, lat: float) -> Hex:
        """The hex containing the point ``(lon, lat)``.

        Raises:
            InvalidHexError: if the point is not finite.

        Example:
            >>> GeoLayout.from_size(10, origin=(127.7, 26.3)).hex_at(127.75, 26.3)
            Hex(0, 0)
        """
        x, y = self._to_xy(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float))
        return self.xy_to_hex(float(x), float(y))

    def distance_km(self, a: Hex, b: Hex) -> float:
        """Great-circle distance between two hex centres in km (planar for ``"simple"``).

        Example:
            >>> round(GeoLayout("flat", 10.0).distance_km(Hex(0, 0), Hex(3, 0)), 2)
            30.0
        """
        if self.projection == "simple":
            ax, ay = self.hex_to_xy(a)
            bx, by = self.hex_to_xy(b)
            return math.hypot(bx - ax, by - ay)
        (lon1, lat1), (lon2, lat2) = self.centres([a, b])
        return great_circle_km(lon1, lat1, lon2, lat2)

    def distance_nm(self, a: Hex, b: Hex) -> float:
        """Like :meth:`distance_km`, in nautical miles.

        Example:
            >>> round(GeoLayout.from_size(200, "nm").distance_nm(Hex(0, 0), Hex(0, 1)), 3)
            200.0
        """
        return self.distance_km(a, b) / NM_KM

    def centres(self, hexes: Iterable[Hex]) -> np.ndarray:
        """Centres of many hexes as an ``(N, 2)`` array of ``(lon, lat)``.

        Example:
            >>> GeoLayout("flat", 10.0, projection="simple").centres([Hex(0, 0), Hex(0, 1)])
            array([[  0.,   0.],
                   [  0., -10.]])
        """
        qr = _qr_array(hexes)
        mx, ny = self._lattice(qr[:, 0], qr[:, 1])
        return self._project_lattice(mx, ny)

    def polygons(self, hexes: Iterable[Hex]) -> np.ndarray:
        """Corners of many hexes as an ``(N, 6, 2)`` array (counter-clockwise ``(lon, lat)``).

        Shared corners of neighbouring hexes are bit-for-bit equal.

        Example:
            >>> g = GeoLayout.from_size(370.4, origin=(127.7, 26.3))
            >>> p = g.polygons([Hex(0, 0), Hex(1, 0)])
            >>> p.shape, bool((p[0, 0] == p[1, 2]).all())
            ((2, 6, 2), True)
        """
        qr = _qr_array(hexes)
        offsets = _FLAT_CORNERS if self.orientation == "flat" else _POINTY_CORNERS
        mx, ny = self._lattice(qr[:, 0], qr[:, 1])
        pts = np.stack([mx, ny], axis=-1)[:, None, :] + offsets[None, :, :]  # (N, 6, 2)
        flat = pts.reshape(-1, 2)
        # project each distinct lattice point once, so shared corners are identical
        uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
        lonlat = self._project_lattice(uniq[:, 0], uniq[:, 1])
        return lonlat[inverse.reshape(-1)].reshape(len(qr), 6, 2)

    def bounds(self, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
        """``(min_lon, min_lat, max_lon, max_lat)`` over the corners of ``hexes``.

        Raises:
            ValueError: if ``hexes`` is empty.

        Example:
            >>> box = GeoLayout("flat", 2 * 3**0.5, projection="simple").bounds([Hex(0, 0)])
            >>> [round(v, 3) for v in box]
            [-2.0, -1.732, 2.0, 1.732]
        """
        polys = self.polygons(hexes)
        if len(polys) == 0:
            raise ValueError("bounds() needs at least one hex")
        pts = polys.reshape(-1, 2)
        lo = pts.min(axis=0)
        hi = pts.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _as_hex(h: object) -> Hex:
    if not isinstance(h, Hex):
        raise InvalidHexError(f"expected a Hex, got {h!r}")
    return h


def _qr_array(hexes: Iterable[Hex]) -> np.ndarray:
    """``(N, 2)`` int64 array of axial coordinates."""
    hs = [_as_hex(h) for h in hexes]
    if not hs:
        return np.zeros((0, 2), dtype=np.int64)
    return np.array(hs, dtype=np.int64).reshape(-1, 2)
