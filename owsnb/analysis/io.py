"""Save and reopen analysis Datasets: NetCDF (``.nc``, h5netcdf) or Zarr (``.zarr``, format 2,
which every Zarr reader understands)."""

from __future__ import annotations

import os
from pathlib import Path

import xarray as xr

__all__ = ["save", "open_dataset"]


def save(ds: xr.Dataset, path: str | os.PathLike) -> Path:
    """Write *ds* to ``path`` (``.nc`` or ``.zarr``); returns the path."""
    p = Path(path)
    if p.suffix == ".nc":
        ds.to_netcdf(p, engine="h5netcdf")
    elif p.suffix == ".zarr":
        ds.to_zarr(p, mode="w", zarr_format=2, consolidated=True)
    else:
        raise ValueError(f"{p}: use a .nc (NetCDF) or .zarr file name")
    return p


def open_dataset(path: str | os.PathLike) -> xr.Dataset:
    """Load a Dataset written by :func:`save` fully into memory."""
    p = Path(path)
    if p.suffix == ".nc":
        return xr.load_dataset(p, engine="h5netcdf")
    if p.suffix == ".zarr":
        return xr.open_zarr(p, consolidated=True).load()
    raise ValueError(f"{p}: use a .nc (NetCDF) or .zarr file name")
