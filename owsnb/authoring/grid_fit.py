"""The hex grid of a generated map: a hex size read from ``"200nm"`` or ``"20 km"`` and the smallest
``cols x rows`` map, ``0101`` at the north-west, that covers a lon/lat box (see :mod:`.generate`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from owsnb.authoring.bbox import check_bbox
from owsnb.kernel.geo import NM_KM, GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem

__all__ = ["Grid", "fit_grid", "parse_hex_size"]


def parse_hex_size(
    value: str | float | int, unit: str | None = None
) -> tuple[float, Literal["km", "nm"]]:
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
            raise ValueError(
                f"hex size must look like '200nm', '100 nm', '20km' or '10', got {value!r}"
            )
        size, found = float(m.group(1)), (m.group(2) or "").lower() or None
    if found and unit and found != unit:
        raise ValueError(f"hex size {value!r} says {found} but unit={unit!r}")
    u = found or unit or "km"
    if u not in ("km", "nm"):
        raise ValueError(f"unit must be 'km' or 'nm', got {u!r}")
    if not size > 0 or not math.isfinite(size):
        raise ValueError(f"hex size must be positive, got {value!r}")
    return size, u  # type: ignore[return-value]


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
        return [
            round(float(v), 4)
            for v in (p[..., 0].min(), p[..., 1].min(), p[..., 0].max(), p[..., 1].max())
        ]


def fit_grid(
    bbox: Sequence[float],
    hex_size: str | float = 20,
    unit: str | None = None,
    orientation: Literal["flat", "pointy"] = "flat",
) -> Grid:
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
    x0, y0, x1, y1 = check_bbox(bbox)
    if x1 - x0 > 180:  # one projection: half the world at most
        raise ValueError(f"a map grid spans at most 180 degrees of longitude, got {list(bbox)!r}")
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
