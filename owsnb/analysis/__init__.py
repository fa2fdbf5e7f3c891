"""Research tools: a game's history as an ``xarray.Dataset``, branch comparison, Monte Carlo
sweeps over seeds x options x plans (locally or on Dask), vectorised engagement sweeps (one
adjudication replicated many times over a parameter grid), and export to NetCDF / Zarr.

``import owsnb.analysis`` registers the ``ds.owsnb`` Dataset accessor.
"""

from owsnb.analysis.accessor import OwsnbAccessor
from owsnb.analysis.engagements import engagement_sweep, plot_odds
from owsnb.analysis.history import annotations_table, compare, events_table, history
from owsnb.analysis.io import open_dataset, save
from owsnb.analysis.sweep import sweep

__all__ = [
    "OwsnbAccessor",
    "annotations_table",
    "compare",
    "engagement_sweep",
    "events_table",
    "history",
    "open_dataset",
    "plot_odds",
    "save",
    "sweep",
]
