"""Land or sea for each hex of a generated map: its share of sample points on land (the
``global-land-mask`` package by default) and the rule that makes it land, littoral or deep sea
(the rule is documented in :mod:`.generate`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from owsnb.authoring.grid_fit import Grid
from owsnb.kernel.hexgrid import Hex

__all__ = [
    "SEA",
    "LAND_FEATURES",
    "LAND_SOURCE",
    "LandFn",
    "land_fractions",
    "sample_weights",
    "classify",
]

#: Sea terrains; every other terrain is land.
SEA = ("deep-sea", "littoral")
#: Feature types whose hex is land even when the mask says sea.
LAND_FEATURES = frozenset({"port", "airfield", "airbase", "city", "railhead"})
LAND_SOURCE = "global-land-mask (GLOBE 1 km land/sea mask)"

LandFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _mask_is_land(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    try:
        from global_land_mask import globe  # imported here only: it loads a 2.5 MB mask (seconds)
    except ImportError as exc:  # pragma: no cover - the package is a dependency
        raise ImportError(
            "scenario generation needs the land mask: pip install global-land-mask"
        ) from exc
    return np.asarray(
        globe.is_land(np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)), dtype=bool
    )


def sample_weights(k: int) -> np.ndarray:
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
        >>> from owsnb.authoring.grid_fit import fit_grid
        >>> g = fit_grid((0.0, 0.0, 0.3, 0.2), 10)
        >>> f = land_fractions(g, 3, lambda lon, lat: lon < 0.15)  # land west of 0.15 E
        >>> float(f[0]), float(f[-1])  # hex 0101 (north-west) and the south-east corner
        (1.0, 0.0)
    """
    if not (isinstance(samples, int) and 1 <= samples <= 20):
        raise ValueError(f"samples must be a whole number from 1 to 20, got {samples!r}")
    hexes = grid.hexes
    pts = np.concatenate(
        [grid.layout.centres(hexes)[:, None, :], grid.layout.polygons(hexes)], axis=1
    )
    w = sample_weights(samples)
    sp = np.einsum("sc,ncd->nsd", w, pts)  # (N hexes, S samples, lon/lat)
    lon = (sp[..., 0] + 180.0) % 360.0 - 180.0
    land = (is_land or _mask_is_land)(lon.ravel(), sp[..., 1].ravel())
    return np.asarray(land, dtype=float).reshape(lon.shape).mean(axis=1)


def classify(
    hexes: Sequence[Hex],
    frac: Mapping[Hex, float],
    is_land_hex: Mapping[Hex, bool],
    land: str,
    override: Mapping[Hex, str],
) -> dict[Hex, str]:
    """Each hex's terrain before overrides: *land* where *is_land_hex* says so (rules 1-2), else
    ``littoral`` if it has land samples or is next to a hex that is land after *override*, else
    ``deep-sea`` (rule 4). Land hexes come first in the result, then the sea hexes.

    Example:
        >>> a, b, c = Hex(0, 0), Hex(1, 0), Hex(2, 0)
        >>> classify([a, b, c], {a: 0.9, b: 0.0, c: 0.0}, {a: True, b: False, c: False}, "clear", {})
        {Hex(0, 0): 'clear', Hex(1, 0): 'littoral', Hex(2, 0): 'deep-sea'}
    """
    base: dict[Hex, str] = {}
    for h in hexes:
        if is_land_hex[h]:
            base[h] = land
    final_land = {h for h in hexes if (override.get(h) or base.get(h, "deep-sea")) not in SEA}
    for h in hexes:
        if h not in base:
            near = frac[h] > 0 or any(n in final_land for n in h.neighbours())
            base[h] = "littoral" if near else "deep-sea"
    return base
