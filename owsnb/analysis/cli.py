"""``owsnb sweep``: run a scenario many times; ``owsnb engagements``: replicate one adjudication
(vectorised) over a parameter grid. Both save their Dataset as NetCDF or Zarr."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["add_sweep_command", "add_engagements_command"]


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


def _plan(text: str, think: float | None) -> Any:
    """``random``, a bot name, a YAML file, or ``blue=PLAN,red=PLAN`` (a plan per side); a
    ``search`` bot thinks *think* seconds per order when given."""

    def one(p: str) -> Any:
        return {"bot": "search", "budget": think} if p == "search" and think is not None else p

    if "=" not in text:
        return one(text)
    out: dict[str, Any] = {}
    for part in text.split(","):
        side, eq, p = part.partition("=")
        if not eq or not side.strip() or not p.strip():
            raise SystemExit(f"--plan SIDE=PLAN,SIDE=PLAN (got {text!r})")
        out[side.strip()] = one(p.strip())
    return out


def _run(args: argparse.Namespace) -> int:
    from owsnb.analysis.io import save
    from owsnb.analysis.sweep import sweep

    ds = sweep(
        args.scenario,
        seeds=_seeds(args.seeds),
        options=_options(args.option) or None,
        plans=[_plan(p, args.think) for p in args.plan or ["random"]],
        turns=args.turns,
        workers=args.workers,
        client=args.scheduler,
    )
    print(ds)
    if args.out:
        print(f"saved {save(ds, args.out)}")
    return 0


def _value(text: str) -> Any:
    """A number, boolean or text (odds such as ``3:1`` stay text; YAML would read them base 60)."""
    import yaml

    return text if ":" in text else yaml.safe_load(text)


def _params(items: list[str], *, lists: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, eq, vals = item.partition("=")
        if not eq or not key:
            raise SystemExit(f"write NAME=VALUE (got {item!r})")
        parts = [_value(v) for v in vals.split(",")]
        out[key] = parts if (lists or len(parts) > 1) else parts[0]
    return out


def _run_engagements(args: argparse.Namespace) -> int:
    from owsnb.analysis.engagements import engagement_sweep
    from owsnb.analysis.io import save

    ds = engagement_sweep(
        args.kind,
        grid=_params(args.grid, lists=True) or None,
        n=args.n,
        seed=args.seed,
        **_params(args.set, lists=False),
    )
    means = [str(v) for v in ds.data_vars if str(v).endswith("_mean")]
    table = ds[means + [f"{v}_exact" for v in means]].to_dataframe()
    print(table.to_string(float_format=lambda x: f"{x:.4f}"))
    if args.out:
        print(f"saved {save(ds, args.out)}")
    return 0


def add_engagements_command(subparsers: Any) -> None:
    """Add ``owsnb engagements`` to the CLI."""
    p = subparsers.add_parser(
        "engagements", help="replicate one adjudication (strike, detection, gcat) many times"
    )
    p.add_argument("kind", help="strike, detection or gcat")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a fixed parameter, e.g. salvos=d10,d10,d10 or red_shield=5 (repeatable)",
    )
    p.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="a grid dimension, e.g. grey_shields=0,1,2,3 (repeatable)",
    )
    p.add_argument(
        "--n", type=int, default=10_000, help="replications per grid point (default 10000)"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="save results to FILE.nc or FILE.zarr")
    p.set_defaults(func=_run_engagements)


def add_sweep_command(subparsers: Any) -> None:
    """Add ``owsnb sweep`` to the CLI."""
    p = subparsers.add_parser("sweep", help="play a scenario many times (seeds x options x plans)")
    p.add_argument("scenario", help="scenario file or bundled name")
    p.add_argument("--seeds", default="0:10", help="A:B (range) or a comma list (default 0:10)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="option values to compare",
    )
    p.add_argument(
        "--plan",
        action="append",
        metavar="PLAN",
        help="random, pass, a bot (greedy, search), a YAML plan file, or SIDE=PLAN,SIDE=PLAN "
        "(e.g. blue=plan.yaml,red=greedy); repeatable: the plans are compared",
    )
    p.add_argument("--think", type=float, help="seconds a search bot thinks per order (default: 1)")
    p.add_argument("--turns", type=int, help="stop each game after this many turns")
    p.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", help="Dask scheduler address (run on a cluster)")
    p.add_argument("--out", help="save results to FILE.nc or FILE.zarr")
    p.set_defaults(func=_run)
    add_engagements_command(subparsers)


def _run_debrief(args: Any) -> int:
    import owsnb
    from owsnb.analysis.debrief import debrief

    game = owsnb.resume(args.game, game_id=args.game_id)
    out = Path(args.out) if args.out else Path(f"{Path(str(args.game)).stem}-debrief.html")
    path = debrief(game, out, title=args.title)
    print(f"wrote {path} ({Path(path).stat().st_size / 1024:,.0f} KB): open it in any browser")
    return 0


def add_debrief_command(subparsers: Any) -> None:
    """Add ``owsnb debrief GAME`` to the CLI."""
    p = subparsers.add_parser(
        "debrief",
        help="write a saved game's debrief: one HTML file (maps per turn, events, notes, exports)",
    )
    p.add_argument("game", help="game file (.owsnb) or store URL")
    p.add_argument("--game-id", help="which game, if the store holds several")
    p.add_argument("-o", "--out", help="the HTML file to write (default: GAME-debrief.html here)")
    p.add_argument("--title", help="title of the debrief (default: the scenario's)")
    p.set_defaults(func=_run_debrief)
