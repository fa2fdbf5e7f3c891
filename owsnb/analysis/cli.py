"""``owsnb sweep``: run a scenario many times and save the results as NetCDF or Zarr."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_sweep_command"]


def _seeds(text: str) -> range | list[int]:
    if ":" in text:
        a, _, b = text.partition(":")
        return range(int(a), int(b))
    return [int(x) for x in text.split(",") if x]


def _options(items: list[str]) -> dict[str, list[Any]]:
    import yaml

    out: dict[str, list[Any]] = {}
    for item in items:
        key, eq, vals = item.partition("=")
        if not eq:
            raise SystemExit(f"--option needs NAME=V1,V2 (got {item!r})")
        out[key] = [yaml.safe_load(v) for v in vals.split(",")]
    return out


def _run(args: argparse.Namespace) -> int:
    from owsnb.analysis.io import save
    from owsnb.analysis.sweep import sweep

    ds = sweep(args.scenario, seeds=_seeds(args.seeds), options=_options(args.option) or None,
               plans=args.plan or ["random"], turns=args.turns, workers=args.workers, client=args.scheduler)
    print(ds)
    if args.out:
        print(f"saved {save(ds, args.out)}")
    return 0


def add_sweep_command(subparsers: Any) -> None:
    """Add ``owsnb sweep`` to the CLI."""
    p = subparsers.add_parser("sweep", help="play a scenario many times (seeds x options x plans)")
    p.add_argument("scenario", help="scenario file or bundled name")
    p.add_argument("--seeds", default="0:10", help="A:B (range) or a comma list (default 0:10)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=V1,V2", help="option values to compare")
    p.add_argument("--plan", action="append", metavar="PLAN", help="random, pass or a YAML plan file (repeatable)")
    p.add_argument("--turns", type=int, help="stop each game after this many turns")
    p.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", help="Dask scheduler address (run on a cluster)")
    p.add_argument("--out", help="save results to FILE.nc or FILE.zarr")
    p.set_defaults(func=_run)
