"""The ``ds.owsnb`` accessor: common analyses of a history Dataset.

Registered on import of :mod:`owsnb.analysis` (xarray's accessor pattern; never a subclass).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

__all__ = ["OwsnbAccessor"]


def _fill(da: xr.DataArray, dim: str, backward: bool = False) -> xr.DataArray:
    """Forward- (or backward-) fill NaN along *dim* (numpy only; no bottleneck needed)."""

    def f(a: np.ndarray) -> np.ndarray:
        a = np.asarray(a, dtype=float)
        if backward:
            a = a[..., ::-1]
        n = a.shape[-1]
        idx = np.where(~np.isnan(a), np.arange(n), 0)
        np.maximum.accumulate(idx, axis=-1, out=idx)
        out = np.take_along_axis(a, idx, axis=-1)
        return out[..., ::-1] if backward else out

    return xr.apply_ufunc(f, da, input_core_dims=[[dim]], output_core_dims=[[dim]]).transpose(
        *da.dims
    )


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

    def _time_dim(self) -> str:
        """``time`` (a history) or ``turn`` (``by_turn``, a branch comparison)."""
        for d in ("time", "turn"):
            if d in self._obj.dims:
                return d
        raise ValueError("not an owsnb history: it has neither a 'time' nor a 'turn' dimension")

    def losses(self, by: str = "side") -> xr.DataArray:
        """Steps lost since the start, over time, per side (``by="side"``) or per unit kind
        (``by="kind"``) or per the rule set's ``domain`` fact if present (``by="domain"``).

        A unit counts from the first snapshot it appears in; a unit that drops out of a side's
        view keeps its last known steps (losing sight of a unit is not a loss)."""
        ds = self._obj
        t = self._time_dim()
        known = ds["steps"].where(ds["present"])
        start = (
            ds["steps_initial"]
            if "steps_initial" in ds
            else _fill(known, t, backward=True).isel({t: 0})
        )
        lost = (start - _fill(known, t)).fillna(0)
        lost = lost.where(lost > 0, 0).astype(int)
        if by == "side":
            key = ds["unit_side"]
        elif by == "kind":
            key = ds["unit_kind"]
        elif by == "domain":
            if "unit_domain" not in ds:
                raise KeyError(
                    "this history has no 'domain' unit fact; the rule set does not provide one"
                )
            dom = (
                ds["unit_domain"].where(ds["present"])
                if ds["unit_domain"].dtype.kind == "f"
                else ds["unit_domain"]
            )
            key = xr.DataArray(
                [
                    next(
                        (
                            str(v)
                            for v in dom.sel(unit=u).values.ravel()
                            if str(v) not in ("", "nan")
                        ),
                        "",
                    )
                    for u in ds["unit"].values
                ],
                coords={"unit": ds["unit"]},
                dims="unit",
                name="domain",
            )
        else:
            raise ValueError(f"by must be 'side', 'kind' or 'domain', not {by!r}")
        out = lost.groupby(key).sum("unit")
        out.name = "steps lost"
        out.attrs = {"long_name": "steps lost since first seen", "units": "1"}
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
        ratio.attrs = {"long_name": f"steps of {a} per step of {b}", "units": "1"}
        return ratio

    def time_to_first_detection(self, in_turns: bool = False) -> xr.DataArray:
        """For every unit and detecting side, the first ``seq`` (or turn, ``in_turns=True``) at
        which it was detected (NaN if never)."""
        ds = self._obj
        t = self._time_dim()
        det = ds["detected"]
        first = det.argmax(t)
        when = ds["turn"] if (in_turns or t == "turn") else ds["seq"]
        picked = when.isel({t: first})
        out = picked.where(det.any(t)).astype(float)
        out = out.drop_vars([c for c in out.coords if c not in first.coords and c not in out.dims])
        out.name = (
            "first detection (turn)" if (in_turns or t == "turn") else "first detection (event seq)"
        )
        return out

    def plot_force_ratio(
        self, a: str | None = None, b: str | None = None, ax: Any = None, x: str = "turn"
    ) -> Any:
        """Line plot of :meth:`force_ratio` against ``x`` (``"turn"`` or ``"seq"``, the event number;
        one line per branch in a comparison) with matplotlib."""
        ratio = self.force_ratio(a, b)
        kw: dict[str, Any] = {"hue": "branch"} if "branch" in ratio.dims else {}
        lines = ratio.plot.line(
            x=x, ax=ax, marker="o" if ratio.sizes.get("time", 0) <= 60 else None, **kw
        )
        if x == "turn":
            lines[0].axes.set_xticks(np.unique(ratio["turn"].values))
        return lines
