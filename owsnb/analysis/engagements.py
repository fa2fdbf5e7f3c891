"""Engagement sweeps: one adjudication replicated many times (vectorised), over a parameter grid,
into an ``xarray.Dataset`` with the Monte Carlo frequencies next to the rule code's exact odds.

An *engagement* is an object with ``sample(n, seed)`` and ``exact()`` (see
:mod:`owsnb.rules.ows.montecarlo`): ``"strike"`` (OWS salvos vs grey and red shields, CAP, criticals),
``"detection"`` (OWS theater/local detection, cooperative sensing), ``"gcat"`` (OWS ground combat,
when the rule set has it), or any callable ``make(**params) -> engagement``.

>>> import owsnb.analysis as an
>>> ds = an.engagement_sweep("strike", salvos=["d10"] * 3, red_shield=5, steps=2,
...                          grid={"grey_shields": [0, 3, 6]}, n=20_000, seed=1, progress=False)
>>> dict(ds["killed_mean"].sizes)
{'grey_shields': 3, 'target': 1}
>>> bool((abs(ds["killed_mean"] - ds["killed_mean_exact"]) < 4 * ds["killed_stderr"] + 1e-9).all())
True
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

__all__ = ["engagement_sweep", "make_engagement", "plot_odds", "ENGAGEMENTS"]

ENGAGEMENTS: dict[str, str] = {
    "strike": "owsnb.rules.ows.montecarlo:strike_engagement",
    "detection": "owsnb.rules.ows.montecarlo:detection_engagement",
    "gcat": "owsnb.rules.ows.montecarlo:gcat_engagement",
}
"""Named engagement builders (``module:function``), imported when used."""


def _builder(kind: str | Callable[..., Any]) -> Callable[..., Any]:
    if callable(kind):
        return kind
    if kind not in ENGAGEMENTS:
        raise ValueError(
            f"unknown engagement {kind!r}; known: {', '.join(ENGAGEMENTS)} (or pass a callable)"
        )
    import importlib

    mod, _, fn = ENGAGEMENTS[kind].partition(":")
    try:
        return getattr(importlib.import_module(mod), fn)
    except AttributeError:
        raise ValueError(
            f"engagement {kind!r} is not available in this version of the rule set"
        ) from None


def make_engagement(kind: str | Callable[..., Any] | Any = "strike", **params: Any) -> Any:
    """Build an engagement by name (``"strike"``, ``"detection"``, ``"gcat"``) or with a callable;
    an object that already has ``sample`` is returned as is."""
    if hasattr(kind, "sample") and hasattr(kind, "exact"):
        if params:
            raise TypeError("parameters given with a ready engagement object")
        return kind
    return _builder(kind)(**params)


def _label(v: Any) -> Any:
    if isinstance(v, (bool, int, float, str, np.integer, np.floating)):
        return v
    return str(v)


def engagement_sweep(
    engagement: str | Callable[..., Any] | Any = "strike",
    *,
    grid: Mapping[str, Sequence[Any]] | None = None,
    n: int = 10_000,
    seed: int = 0,
    keep: bool = False,
    progress: bool | None = None,
    chunk: int = 1_000_000,
    **params: Any,
) -> xr.Dataset:
    """Replicate an engagement *n* times for every point of a parameter *grid*.

    Args:
        engagement: ``"strike"``, ``"detection"``, ``"gcat"``, a callable ``make(**params)``, or a
            ready engagement object (then no *grid*).
        grid: ``{parameter: [values...]}``, full factorial; each becomes a dimension.
        n: replications per grid point.
        seed: one seed for the whole sweep (each grid point gets its own child stream, so the same
            seed and grid give the same Dataset).
        keep: also keep every replication (``<outcome>_sample``, dim ``replication``).
        progress: ``tqdm.auto`` bar (default: shown when the sweep rolls a million replications or more).
        chunk: replications rolled per numpy batch (bounds memory).
        **params: fixed parameters of the engagement builder (e.g. ``salvos=["d10"] * 3``).

    Returns:
        a Dataset with dims ``(*grid, target, outcome)``: for every outcome ``o`` of the engagement
        (``hits``, ``steps_lost``, ``killed``; ``detected``...) the Monte Carlo frequency ``o``, the
        exact probability ``o_exact``, the mean ``o_mean`` (for a 0/1 outcome: its probability), the
        exact mean ``o_mean_exact`` and the standard error ``o_stderr`` of the mean.
    """
    from tqdm.auto import tqdm

    grid = dict(grid or {})
    names = list(grid)
    points = list(itertools.product(*(list(grid[k]) for k in names))) if names else [()]
    children = np.random.SeedSequence(int(seed)).spawn(len(points))
    total = len(points) * int(n)
    bar = tqdm(
        total=total,
        desc="owsnb engagements",
        unit="rep",
        unit_scale=True,
        disable=(total < 1_000_000) if progress is None else not progress,
    )
    cells: list[dict[str, Any]] = []
    try:
        for pt, child in zip(points, children, strict=True):
            eng = make_engagement(engagement, **{**params, **dict(zip(names, pt, strict=True))})
            rng = np.random.Generator(np.random.PCG64(child))
            counts: dict[str, dict[int, np.ndarray]] = {o: {} for o in eng.outcomes}
            sums = {o: np.zeros(len(eng.targets)) for o in eng.outcomes}
            sq = {o: np.zeros(len(eng.targets)) for o in eng.outcomes}
            kept: dict[str, list[np.ndarray]] = {o: [] for o in eng.outcomes}
            done = 0
            while done < n:
                m = min(int(chunk), int(n) - done)
                smp = eng.sample(m, rng)
                for o in eng.outcomes:
                    a = smp[o]
                    for v in np.unique(a):
                        c = counts[o].setdefault(int(v), np.zeros(len(eng.targets), dtype=np.int64))
                        c += (a == v).sum(axis=0)
                    sums[o] += a.sum(axis=0, dtype=np.float64)
                    sq[o] += (a.astype(np.float64) ** 2).sum(axis=0)
                    if keep:
                        kept[o].append(a)
                done += m
                bar.update(m)
            cells.append(
                {
                    "eng": eng,
                    "counts": counts,
                    "sums": sums,
                    "sq": sq,
                    "exact": eng.exact(),
                    "kept": {o: np.concatenate(v) for o, v in kept.items()} if keep else None,
                }
            )
    finally:
        bar.close()
    return _dataset(cells, names, grid, points, int(n), int(seed), engagement, params, keep)


def _dataset(
    cells: list[dict[str, Any]],
    names: list[str],
    grid: Mapping[str, Sequence[Any]],
    points: list[tuple],
    n: int,
    seed: int,
    engagement: Any,
    params: Mapping[str, Any],
    keep: bool,
) -> xr.Dataset:
    first = cells[0]["eng"]
    outcomes = list(first.outcomes)
    targets = list(dict.fromkeys(t for c in cells for t in c["eng"].targets))
    values: set[int] = set()
    for c in cells:
        for o in outcomes:
            values.update(c["counts"][o])
            for d in c["exact"][o]:
                values.update(int(k) for k in d)
    vals = list(range(0, max(values, default=0) + 1))
    gshape = tuple(len(list(grid[k])) for k in names)
    T, V = len(targets), len(vals)
    data: dict[str, Any] = {}
    gdims = tuple(names)
    for o in outcomes:
        freq = np.full((*gshape, T, V), np.nan)
        ex = np.full((*gshape, T, V), np.nan)
        mean = np.full((*gshape, T), np.nan)
        mean_ex = np.full((*gshape, T), np.nan)
        se = np.full((*gshape, T), np.nan)
        smp = np.zeros((*gshape, n, T), dtype=np.int16) if keep else None
        for idx, c in zip(np.ndindex(*gshape) if gshape else [()], cells, strict=True):
            for j, t in enumerate(c["eng"].targets):
                k = targets.index(t)
                for vi, v in enumerate(vals):
                    freq[(*idx, k, vi)] = c["counts"][o].get(v, np.zeros(T, dtype=np.int64))[j] / n
                d = c["exact"][o][j]
                for vi, v in enumerate(vals):
                    ex[(*idx, k, vi)] = float(d[v])
                m = c["sums"][o][j] / n
                mean[(*idx, k)] = m
                var = max(c["sq"][o][j] / n - m * m, 0.0)
                se[(*idx, k)] = (var / n) ** 0.5
                mean_ex[(*idx, k)] = float(d.mean())
                if smp is not None:
                    smp[(*idx, slice(None), k)] = c["kept"][o][:, j]
        data[o] = ((*gdims, "target", "outcome"), freq, {"long_name": f"P({o}) (Monte Carlo)"})
        data[f"{o}_exact"] = ((*gdims, "target", "outcome"), ex, {"long_name": f"P({o}) (exact)"})
        data[f"{o}_mean"] = ((*gdims, "target"), mean, {"long_name": f"mean {o} (Monte Carlo)"})
        data[f"{o}_mean_exact"] = ((*gdims, "target"), mean_ex, {"long_name": f"mean {o} (exact)"})
        data[f"{o}_stderr"] = ((*gdims, "target"), se, {"long_name": f"standard error of mean {o}"})
        if keep:
            data[f"{o}_sample"] = ((*gdims, "replication", "target"), smp)
    coords: dict[str, Any] = {k: [_label(v) for v in grid[k]] for k in names}
    coords.update({"target": targets, "outcome": vals})
    if keep:
        coords["replication"] = np.arange(n)
    ds = xr.Dataset(
        {k: xr.Variable(v[0], v[1], v[2] if len(v) > 2 else None) for k, v in data.items()},
        coords=coords,
    )
    kind = (
        engagement
        if isinstance(engagement, str)
        else getattr(first, "kind", getattr(engagement, "__name__", "custom"))
    )
    ds.attrs.update(
        {
            "title": f"owsnb engagement sweep: {kind}",
            "engagement": str(kind),
            "replications": n,
            "seed": seed,
            "grid": json.dumps({k: [_label(v) for v in grid[k]] for k in names}, default=str),
            "params": json.dumps({k: v for k, v in params.items() if k != "game"}, default=str),
            "rules": ", ".join(first.rules),
            "example": json.dumps(first.describe(), default=str),
        }
    )
    return ds


def plot_odds(
    ds: xr.Dataset,
    outcome: str = "killed",
    *,
    x: str | None = None,
    target: str | None = None,
    ax: Any = None,
    label: str | None = None,
) -> Any:
    """Plot the mean of *outcome* (for a 0/1 outcome, its probability) along grid dimension *x*:
    Monte Carlo points with 3-sigma error bars over the exact line (matplotlib). Returns the axes."""
    import matplotlib.pyplot as plt

    grid_dims = [d for d in ds[f"{outcome}_mean"].dims if d != "target"]
    if x is None:
        if len(grid_dims) != 1:
            raise ValueError(f"name the x dimension (one of {grid_dims})")
        x = str(grid_dims[0])
    sel = {"target": target or ds["target"].values[0]}
    mc = ds[f"{outcome}_mean"].sel(sel)
    ex = ds[f"{outcome}_mean_exact"].sel(sel)
    se = ds[f"{outcome}_stderr"].sel(sel)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    xs = ds[x].values
    name = label or f"{outcome}"
    (line,) = ax.plot(xs, ex.values, "-", label=f"{name}: exact (rule code)")
    ax.errorbar(
        xs,
        mc.values,
        yerr=3 * se.values,
        fmt="o",
        capsize=3,
        color=line.get_color(),
        label=f"{name}: Monte Carlo, n={ds.attrs.get('replications'):,} (±3σ)",
    )
    ax.set_xlabel(x.replace("_", " "))
    if np.issubdtype(np.asarray(xs).dtype, np.integer) and len(xs) <= 20:
        ax.set_xticks(xs)
    exd = ds[f"{outcome}_exact"].fillna(0)
    support = ds["outcome"].values[(exd.sum([d for d in exd.dims if d != "outcome"]) > 0).values]
    ax.set_ylabel(f"P({outcome})" if set(support.tolist()) <= {0, 1} else f"mean {outcome}")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return ax
