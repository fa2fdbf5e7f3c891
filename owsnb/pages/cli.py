"""``owsnb edit FILE``: the scenario editor in the browser, on this machine.

Starts Voila (a child process, on 127.0.0.1 only) serving ``notebooks/seminar/editor.ipynb`` with
``$OWSNB_EDIT_FILE`` set, prints the page's address (and opens it unless ``--no-browser``), and
stops it on Ctrl-C. The page edits FILE: a new scenario if it does not exist yet (draw its map),
or a copy of a bundled one with ``--from tutorial``; Save writes FILE.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["add_edit_command", "run_edit"]


def add_edit_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``edit`` to an ``argparse`` sub-parser collection (``owsnb/cli.py`` calls this)."""
    p = subparsers.add_parser(
        "edit",
        help="edit a scenario in the browser (map, units, options, tables), checked as you go",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("file", help="the scenario file to edit (created on Save if it does not exist)")
    p.add_argument(
        "--from",
        dest="source",
        metavar="SCENARIO",
        help="start from this scenario (a bundled name such as tutorial, or a file)",
    )
    p.add_argument("--ruleset", default="ows", help="rule set of a new scenario (default ows)")
    p.add_argument("--port", type=int, default=0, help="the page's port (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="only print the page's address")
    p.set_defaults(func=run_edit)
    return p


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_edit(args: argparse.Namespace) -> int:
    """The ``owsnb edit`` command."""
    from owsnb.server.cli import VoilaProcess, dashboards_dir

    path = Path(args.file).expanduser().resolve()
    if path.exists() and not path.is_file():
        print(f"owsnb edit: {path} is not a file", file=sys.stderr)
        return 2
    if path.suffix not in (".yaml", ".yml"):
        print(f"owsnb edit: {path.name}: a scenario file ends in .yaml", file=sys.stderr)
        return 2
    if args.source and path.exists():
        print(f"owsnb edit: {path} exists; --from starts a new file", file=sys.stderr)
        return 2
    root = dashboards_dir()
    if root is None or not (root / "editor.ipynb").is_file():
        print("owsnb edit: the editor page (notebooks/seminar) is not installed", file=sys.stderr)
        return 1
    os.environ["OWSNB_EDIT_FILE"] = str(path)
    os.environ["OWSNB_EDIT_FROM"] = args.source or ""
    os.environ["OWSNB_EDIT_RULESET"] = args.ruleset
    voila = VoilaProcess(root, "127.0.0.1", args.port or _free_port(), "", preheat=1)
    try:
        if not voila.wait(120):
            print("owsnb edit: Voila did not start", file=sys.stderr)
            return 1
        url = f"{voila.url}/voila/render/editor.ipynb"
        print(f"owsnb scenario editor: {url}\n  editing {path} — Ctrl-C stops", flush=True)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(url)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while voila.proc.poll() is None:
            time.sleep(0.5)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        voila.stop()
