"""Command line for scenario authoring: ``owsnb scenario new`` and ``owsnb scenario preview``.

The main ``owsnb`` command adds these with :func:`add_scenario_commands`; until then (or
standalone) ``python -m owsnb.authoring.cli scenario new ...`` runs the same.

Examples::

    owsnb scenario new okinawa --bbox 126.5,25.8,128.6,27.2 --hex 10km --out scenarios/okinawa.yaml
    owsnb scenario new tutorial --recipe scenarios/maps/tutorial.recipe.yaml \\
        --out scenarios/tutorial.yaml --update
    owsnb scenario preview scenarios/tutorial.yaml --out tutorial.svg

(A box starting with a negative longitude is written ``--bbox=-10,50,2,60``.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from owsnb.kernel.errors import ScenarioError

__all__ = ["add_scenario_commands", "main"]


def _bbox(text: str) -> tuple[float, float, float, float]:
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != 4:
        raise argparse.ArgumentTypeError(
            f"expected MIN_LON,MIN_LAT,MAX_LON,MAX_LAT (four numbers), got {text!r}"
        )
    return values  # type: ignore[return-value]


def add_scenario_commands(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``scenario new`` and ``scenario preview`` to an argparse *subparsers* object.

    Each parsed command carries ``func(args) -> int`` (the exit status).

    Example:
        >>> parser = argparse.ArgumentParser(prog="owsnb")
        >>> _ = add_scenario_commands(parser.add_subparsers(dest="command"))
        >>> args = parser.parse_args(["scenario", "new", "demo", "--bbox", "127,25,129,27", "--hex", "20km",
        ...                           "--out", "demo.yaml"])
        >>> args.bbox, args.hex, args.ruleset, args.func.__name__
        ((127.0, 25.0, 129.0, 27.0), '20km', None, '_cmd_new')
    """
    p = subparsers.add_parser(
        "scenario",
        help="author scenarios: new maps from real geography, previews",
        description="Author scenarios on real geography (offline).",
    )
    sub = p.add_subparsers(dest="scenario_command", metavar="{new,preview}")
    sub.required = True
    new = sub.add_parser(
        "new",
        help="lay a hex grid over a lon/lat box, classify land/littoral/deep sea, write the scenario",
        description="Lay a hex grid over a lon/lat box, classify each hex as land, littoral or deep sea "
        "(global-land-mask), apply the recipe's overrides and write the scenario YAML plus its "
        "coastline/borders layer (maps/<id>-coast.geojson beside it).",
    )
    new.add_argument("id", help="scenario id (letters, digits, _ . -)")
    new.add_argument(
        "--bbox",
        type=_bbox,
        metavar="MIN_LON,MIN_LAT,MAX_LON,MAX_LAT",
        help="the box the map must cover (required unless the recipe gives one)",
    )
    new.add_argument(
        "--hex",
        metavar="SIZE",
        help="hex size across flats: 200nm, 100nm, 20km, 10km... (default 20km)",
    )
    new.add_argument("--ruleset", help="rule set the scenario plays (default ows)")
    new.add_argument("--title", help="scenario title (default: the id)")
    new.add_argument(
        "--orientation", choices=("flat", "pointy"), help="hex orientation (default flat)"
    )
    new.add_argument(
        "--land-threshold",
        type=float,
        metavar="SHARE",
        help="share of a hex's samples on land that makes it land (default 0.5)",
    )
    new.add_argument(
        "--recipe", type=Path, help="recipe YAML: overrides, features, edges, sides, briefing"
    )
    new.add_argument("--out", type=Path, required=True, help="scenario file to write")
    new.add_argument(
        "--no-coast", action="store_true", help="do not write the coastline/borders layer"
    )
    group = new.add_mutually_exclusive_group()
    group.add_argument(
        "--update",
        action="store_true",
        help="if --out exists, replace only its map (units, briefing... are kept)",
    )
    group.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    new.set_defaults(func=_cmd_new)
    pv = sub.add_parser(
        "preview", help="draw a scenario's map as SVG (terrain, coast, features, edges)"
    )
    pv.add_argument("scenario", help="scenario file or bundled name")
    pv.add_argument("--out", type=Path, required=True, help="SVG file to write")
    pv.add_argument("--width", type=int, default=900)
    pv.set_defaults(func=_cmd_preview)
    return p


def _cmd_new(args: argparse.Namespace) -> int:
    from owsnb.authoring.generate import scenario_from_recipe, write_scenario

    out: Path = args.out
    if out.exists() and not (args.update or args.force):
        print(
            f"error: {out} exists; use --update to replace only its map or --force to overwrite it",
            file=sys.stderr,
        )
        return 2
    recipe: dict[str, Any] = {}
    source = "<command line>"
    if args.recipe is not None:
        source = str(args.recipe)
        try:
            recipe = yaml.safe_load(args.recipe.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            print(f"error: cannot read recipe {args.recipe}: {exc}", file=sys.stderr)
            return 2
        if not isinstance(recipe, dict) or not isinstance(recipe.get("map", {}), dict):
            print(
                f"error: {args.recipe}: a recipe is a mapping with a 'map:' mapping",
                file=sys.stderr,
            )
            return 2
    recipe = dict(recipe)
    m = dict(recipe.get("map") or {})
    recipe["id"] = args.id
    recipe.setdefault("title", args.title or args.id)
    if args.title:
        recipe["title"] = args.title
    if args.ruleset:
        recipe["ruleset"] = args.ruleset
    for key, value in (
        ("bbox", args.bbox),
        ("hex", args.hex),
        ("orientation", args.orientation),
        ("land_threshold", args.land_threshold),
    ):
        if value is not None:
            m[key] = list(value) if key == "bbox" else value
    m.setdefault("hex", "20km")
    if "bbox" not in m:
        print(
            "error: give --bbox MIN_LON,MIN_LAT,MAX_LON,MAX_LAT (or a recipe with map.bbox)",
            file=sys.stderr,
        )
        return 2
    recipe["map"] = m
    t0 = time.perf_counter()
    try:
        scn = scenario_from_recipe(recipe, source=source)
        path = write_scenario(scn, out, background=not args.no_coast, keep_existing=args.update)
    except (ScenarioError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    mp = scn["map"]
    counts = _terrain_counts(mp)
    summary = ", ".join(f"{n} {t}" for t, n in counts.most_common())
    print(
        f"wrote {path}: {sum(counts.values())} hexes ({summary}), {len(mp['features'])} features, "
        f"{len(mp['edges'])} edges in {time.perf_counter() - t0:.1f} s"
    )
    cpath = path.parent / "maps" / f"{scn['id']}-coast.geojson"
    if not args.no_coast and cpath.is_file():
        print(f"wrote {cpath} ({cpath.stat().st_size / 1024:.1f} KB of coastline and borders)")
    return 0


def _terrain_counts(mp: dict[str, Any]) -> Counter[str]:
    from owsnb.authoring.preview import _resolve

    return Counter(_resolve(mp)[2].values())


def _cmd_preview(args: argparse.Namespace) -> int:
    from owsnb.authoring.preview import map_picture

    try:
        pic = map_picture(args.scenario, width=args.width)
    except (ScenarioError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pic.save(args.out)
    print(f"wrote {args.out}: {pic!r}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``scenario ...`` commands (``python -m owsnb.authoring.cli scenario new ...``)."""
    parser = argparse.ArgumentParser(prog="owsnb")
    add_scenario_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
