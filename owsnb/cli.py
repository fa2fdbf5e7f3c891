"""The ``owsnb`` command line: validate, info, replay (plus scenario, serve and sweep when their
packages are present).

Run ``owsnb --help`` or ``owsnb COMMAND --help``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence

from owsnb.kernel.errors import OwsnbError, ScenarioError

__all__ = ["main", "build_parser"]

EPILOG = """examples:
  owsnb validate scenarios/*.yaml        check scenario files (every problem, located)
  owsnb info tutorial                    what a scenario holds
  owsnb replay ~/.owsnb/games/x.owsnb    print a saved game's history
  owsnb debrief ~/.owsnb/games/x.owsnb   one HTML file to open anywhere: maps, events, notes
"""


def _cmd_validate(args: argparse.Namespace) -> int:
    from owsnb.scenario import build_state, load_scenario

    failed = 0
    for name in args.files:
        t0 = time.perf_counter()
        try:
            scn = load_scenario(name)
            state, _ = build_state(scn, seed=0)
        except ScenarioError as exc:
            failed += 1
            print(f"FAIL {name}\n{exc}", file=sys.stderr)
            continue
        ms = (time.perf_counter() - t0) * 1000
        print(
            f"ok   {scn.path or name}: {scn.spec.ruleset}, {len(state.map)} hexes, "
            f"{len(state.units)} units, {len(state.sides)} sides ({ms:.0f} ms)"
        )
    return 1 if failed else 0


def _cmd_info(args: argparse.Namespace) -> int:
    from owsnb.scenario import build_state, load_scenario

    scn = load_scenario(args.scenario)
    state, rs = build_state(scn, seed=0)
    s = scn.spec
    layout = state.map.layout
    print(f"{s.title}  [{s.id}]")
    print(f"rule set   {rs.title} ({s.ruleset})")
    scale = (
        f"{layout.size_km:g} km ({layout.size_km / 1.852:g} nm) hexes, {layout.projection}"
        if layout
        else "abstract"
    )
    print(f"map        {len(state.map)} hexes, {scale}")
    for name, side in state.sides.items():
        n = sum(1 for u in state.units.values() if u.side == name)
        print(f"side       {name}: {side.title} — {n} units")
    if s.turns:
        print(f"turns      {s.turns}")
    opts = {
        k: v
        for k, v in state.options.items()
        if rs.options.get(k) is None or rs.options[k].default != v
    }
    print(f"options    {opts or 'defaults'}")
    print(f"clock      {state.clock}")
    if scn.briefing:
        print("\n" + "\n".join(scn.briefing.strip().splitlines()[: args.lines]))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    import owsnb

    game = owsnb.resume(args.store, game_id=args.game)
    events = game.log(args.side)
    if args.to is not None:
        events = [e for e in events if e.seq <= args.to]
    for e in events:
        if e.kind == "rng":
            continue
        rule = f"  [{e.rule}]" if e.rule else ""
        print(f"{e.seq:6d}  {e}{rule}")
    if args.verify:
        from owsnb.kernel.reduce import apply_all

        ok = apply_all(game.initial, game.events) == game.state
        print(f"replay {'matches' if ok else 'DIFFERS from'} the stored state ({game.seq} events)")
        return 0 if ok else 1
    print(f"-- {game.seq} events, state {game.state_id}; {game.clock}")
    return 0


def _cmd_rulesets(args: argparse.Namespace) -> int:
    import owsnb.rules  # noqa: F401
    from owsnb.kernel.registry import get_ruleset, ruleset_names

    for name in ruleset_names():
        try:
            rs = get_ruleset(name)
            print(f"{name:10s} {rs.title}")
        except Exception as exc:  # noqa: BLE001  (report, keep listing)
            print(f"{name:10s} (cannot load: {exc})")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (sub-commands of optional packages are added when importable)."""
    p = argparse.ArgumentParser(
        prog="owsnb",
        description="Play, teach and study operational wargames in Jupyter.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version="owsnb 0.1.0")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    v = sub.add_parser("validate", help="check scenario files and report every problem")
    v.add_argument("files", nargs="+", metavar="FILE", help="scenario files or bundled names")
    v.set_defaults(func=_cmd_validate)
    i = sub.add_parser("info", help="summarise a scenario")
    i.add_argument("scenario", help="scenario file or bundled name")
    i.add_argument("--lines", type=int, default=12, help="briefing lines to show (default 12)")
    i.set_defaults(func=_cmd_info)
    r = sub.add_parser("replay", help="print a saved game's history")
    r.add_argument("store", help="game file (.owsnb) or store URL")
    r.add_argument("--game", help="game id, if the store holds several")
    r.add_argument(
        "--side", default="umpire", help="show only what this side may see (default: umpire)"
    )
    r.add_argument("--to", type=int, help="stop at this event number")
    r.add_argument("--verify", action="store_true", help="replay from the start and compare")
    r.set_defaults(func=_cmd_replay)
    rs = sub.add_parser("rulesets", help="list the rule sets")
    rs.set_defaults(func=_cmd_rulesets)
    for module, fn in (
        ("owsnb.authoring.cli", "add_scenario_commands"),
        ("owsnb.server.cli", "add_serve_command"),
        ("owsnb.pages.cli", "add_edit_command"),
        ("owsnb.analysis.cli", "add_sweep_command"),
        ("owsnb.analysis.cli", "add_debrief_command"),
    ):
        try:
            getattr(importlib.import_module(module), fn)(sub)
        except (ImportError, AttributeError):
            pass
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``owsnb`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except OwsnbError as exc:
        print(f"owsnb {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
