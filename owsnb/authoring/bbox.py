"""The one check of a lon/lat bounding box, for fitting a grid (:mod:`.grid_fit`) and for cutting
coastlines and borders (:mod:`.coast`): the same box is good for both or for neither.

The limits are those of the map the box ends up on: ipyleaflet's Web Mercator shows latitudes up
to about 85 degrees; longitudes may run past 180 to cross the antimeridian, and a box may be as
wide as the world (the editor's globe). A grid fitted to a box has one limit more, its own: one
projection covers at most half the world (:func:`.grid_fit.fit_grid`).

>>> check_bbox((176, -19.5, 182, -15.5))  # Fiji, across the antimeridian
(176.0, -19.5, 182.0, -15.5)
>>> check_bbox((0, -100, 10, 0))
Traceback (most recent call last):
...
ValueError: bbox is not a lon/lat box on the map (latitudes within +-85, ...): [0, -100, 10, 0]
>>> check_bbox((-180, -80, 180, 84))  # the whole world, as the editor's globe draws it
(-180.0, -80.0, 180.0, 84.0)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["check_bbox", "MAX_LAT", "MAX_WIDTH"]

MAX_LAT = 85.0
"""Highest latitude, north or south (Web Mercator's edge is 85.05)."""
MAX_WIDTH = 360.0
"""Widest box in degrees of longitude."""


def check_bbox(bbox: Sequence[float]) -> tuple[float, float, float, float]:
    """``(min_lon, min_lat, max_lon, max_lat)`` as floats, or ``ValueError`` saying what is wrong."""
    try:
        x0, y0, x1, y1 = (float(v) for v in bbox)
    except (TypeError, ValueError):
        raise ValueError(
            f"bbox must be (min_lon, min_lat, max_lon, max_lat), got {bbox!r}"
        ) from None
    if not (x0 < x1 and y0 < y1):
        raise ValueError(
            f"bbox must have min_lon < max_lon and min_lat < max_lat, got {list(bbox)!r}"
        )
    if not (-MAX_LAT <= y0 and y1 <= MAX_LAT and -180 <= x0 and x1 <= 360 and x1 - x0 <= MAX_WIDTH):
        raise ValueError(
            "bbox is not a lon/lat box on the map (latitudes within +-85, longitudes -180..360, "
            f"at most 360 degrees wide): {list(bbox)!r}"
        )
    return x0, y0, x1, y1
