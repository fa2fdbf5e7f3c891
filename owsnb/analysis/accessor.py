"""The ``ds.owsnb`` accessor: common analyses of a history Dataset.

Registered on import of :mod:`owsnb.analysis` (xarray's accessor pattern; never a subclass).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

__all__ = ["OwsnbAccessor"]


@xr.register_dataset_accessor("owsnb")
class OwsnbAccessor:
    """Analyses of an owsnb history (``owsnb.analysis.history``)."""

    def __init__(self, ds: xr.Dataset):
        self._obj = ds

    def by_turn(self) -> xr.Dataset:
        """The last snapshot of every turn, with dim ``turn`` instead of ``time``."""
        ds = self._obj
        turns = ds["turn"].values
        last = [int(np.flatnonzero(turns == t)[-1]) for t in np.unique(turns)]
        out = ds.isel(time=last).swap_dims(time="turn")
        return out.drop_vars("time")

    def losses(self, by: str = "side") -> xr.DataArray:
        """Steps lost since the start, over time, per side (``by="side"``) or per unit kind
        (``by="kind"``) or per the rule set's ``domain`` fact if present (``by="domain"``)."""
        ds = self._obj
        steps = ds["steps"].where(ds["present"], 0)
        lost = steps.isel(time=0) - steps
        lost = lost.where(lost > 0, 0)
        if by == "side":
            key = ds["unit_side"]
        elif by == "kind":
            key = ds["unit_kind"]
        elif by == "domain":
            if "unit_domain" not in ds:
                raise KeyError("this history has no 'domain' unit fact; the rule set does not provide one")
            key = ds["unit_domain"].isel(time=0).rename("domain")
        else:
            raise ValueError(f"by must be 'side', 'kind' or 'domain', not {by!r}")
        out = lost.groupby(key).sum("unit")
        out.name = "steps lost"
        return out

    def force_ratio(self, a: str | None = None, b: str | None = None) -> xr.DataArray:
        """Steps of side *a* divided by steps of side *b*, over time (default: the first two sides)."""
        ds = self._obj
        sides = list(ds["side"].values)
        a = a or sides[0]
        b = b or sides[1]
        tot = ds["steps_total"]
        ratio = tot.sel(side=a) / tot.sel(side=b).where(tot.sel(side=b) > 0)
        ratio.name = f"force ratio {a}:{b}"
        return ratio

    def time_to_first_detection(self) -> xr.DataArray:
        """For every unit and detecting side, the first ``seq`` at which it was detected (NaN if never)."""
        ds = self._obj
        det = ds["detected"]
        first = det.argmax("time")
        seq = ds["seq"].values[first.values]
        out = xr.DataArray(np.where(det.any("time").values, seq, np.nan), coords=first.coords, dims=first.dims,
                           name="first detection (event seq)")
        return out

    def plot_force_ratio(self, a: str | None = None, b: str | None = None, ax: Any = None) -> Any:
        """Line plot of :meth:`force_ratio` against turn (matplotlib)."""
        ratio = self.force_ratio(a, b)
        return ratio.plot.line(x="turn", ax=ax, marker="o")
