"""``owsnb serve``: start the seminar server and print the seat links.

With no arguments it creates a game of the tutorial in the embedded SQLite store
``$OWSNB_HOME/games/seminar.owsnb``, starts the authority on http://127.0.0.1:8765 and the Voila
seat dashboards on the next port, and prints one link per seat (umpire, each side, observer).
``--store postgresql://...`` shares games between several server processes; ``--resume`` serves
the games already in the store without creating one (after a restart, seats reconnect by
themselves with the tokens they hold).

Voila runs as a child process (``voila notebooks/seminar``) rather than inside the authority:
kernels must never share a process with the truth, and a child is restarted or left out
(``--no-voila``) without touching the games. Dashboards find the authority through
``$OWSNB_SERVER`` (set for the child) or a ``url=`` in the link.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

__all__ = ["add_serve_command", "run_serve", "seat_links", "dashboards_dir", "VoilaProcess"]

DEFAULT_PORT = 8765


def dashboards_dir() -> Path | None:
    """Where the seat dashboards are: ``$OWSNB_DASHBOARDS``, the repository's
    ``notebooks/seminar`` or the installed copy."""
    here = Path(__file__).resolve().parent.parent
    custom = [Path(os.environ["OWSNB_DASHBOARDS"])] if os.environ.get("OWSNB_DASHBOARDS") else []
    for d in (*custom, here.parent / "notebooks" / "seminar", here / "_notebooks" / "seminar"):
        if (d / "seat.ipynb").exists():
            return d
    return None


def add_serve_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to an ``argparse`` sub-parser collection (``owsnb/cli.py`` calls this)."""
    p = subparsers.add_parser(
        "serve",
        help="start the seminar server (authority + Voila seat dashboards) and print seat links",
        description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "scenario",
        nargs="?",
        default=None,
        help="scenario file or bundled name for a new game (default: tutorial)",
    )
    p.add_argument(
        "--store",
        help="game store: a file, sqlite:///path or postgresql://... "
        "(default: $OWSNB_HOME/games/seminar.owsnb)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="interface to listen on (default 127.0.0.1; 0.0.0.0 for a classroom network)",
    )
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"authority port (default {DEFAULT_PORT})"
    )
    p.add_argument("--voila-port", type=int, help="dashboard port (default: authority port + 1)")
    p.add_argument("--no-voila", action="store_true", help="do not start the Voila dashboards")
    p.add_argument(
        "--voila-pool",
        type=int,
        default=2,
        metavar="N",
        help="kernels Voila keeps warm per dashboard (default 2; 0: start one per visit)",
    )
    p.add_argument(
        "--public-url",
        help="the authority's URL as seats reach it (behind a proxy, or "
        "with --host 0.0.0.0); default http://HOST:PORT",
    )
    p.add_argument("--seed", type=int, help="dice seed of the new game")
    p.add_argument("--game", help="id of the new game (default: the scenario's id)")
    p.add_argument("--resume", action="store_true", help="create no game; serve those in the store")
    p.add_argument(
        "--observer",
        action="append",
        metavar="VIEW[:DELAY]",
        help="an observer seat watching VIEW (a side or 'umpire') DELAY events behind; "
        "repeatable (default umpire:20; 'none' for no observer)",
    )
    p.add_argument(
        "--ruleset",
        action="append",
        default=[],
        metavar="NAME=MODULE:ATTR",
        help="register a rule set that is not installed as a package (also for Voila)",
    )
    p.add_argument(
        "--links-file", help="also write the links and tokens as JSON to this file (mode 0600)"
    )
    p.add_argument(
        "--hub",
        metavar="PREFIX",
        help="run behind jupyter-server-proxy at PREFIX (the JupyterLab launcher does this): "
        "resume the store's games or create one, no Voila, links in "
        "$OWSNB_HOME/seminar-links.json on $OWSNB_PUBLIC_URL + PREFIX",
    )
    p.set_defaults(func=run_serve)
    return p


def _observers(specs: list[str] | None) -> list[tuple[str, int]]:
    if not specs:
        from owsnb.server.authority import DEFAULT_OBSERVERS

        return list(DEFAULT_OBSERVERS)
    out = []
    for s in specs:
        if s.strip().lower() == "none":
            continue
        view, _, delay = s.partition(":")
        try:
            out.append((view.strip() or "umpire", int(delay) if delay else 0))
        except ValueError:
            raise SystemExit(
                f"owsnb serve: --observer {s!r}: the delay after ':' is a number of events"
            ) from None
    return out


def _register_rulesets(pairs: list[str]) -> None:
    if not pairs:
        return
    for pair in pairs:
        if "=" not in pair or ":" not in pair.partition("=")[2]:
            raise SystemExit(f"owsnb serve: --ruleset {pair!r}: write NAME=module.path:ATTRIBUTE")
    env = [x for x in os.environ.get("OWSNB_RULESETS", "").split(";") if x.strip()]
    os.environ["OWSNB_RULESETS"] = ";".join(env + pairs)
    from owsnb.kernel.registry import register_ruleset

    for pair in pairs:
        name, _, path = pair.partition("=")
        register_ruleset(name.strip(), path.strip())
    if os.getcwd() not in sys.path:  # unpackaged rule sets usually live in the working tree
        sys.path.insert(0, os.getcwd())


def seat_links(
    api: str, game_id: str, tokens: dict[str, str], seats: dict[str, Any], voila: str | None
) -> dict[str, dict[str, str]]:
    """One entry per seat: its token, its API URL and (with Voila) its dashboard link."""
    out = {}
    for label, token in tokens.items():
        entry = {"token": token, "api": f"{api}/games/{quote(game_id)}", "role": seats[label].role}
        if voila:
            nb = "umpire.ipynb" if seats[label].role == "umpire" else "seat.ipynb"
            query = urlencode({"game": game_id, "token": token})
            entry["link"] = f"{voila}/voila/render/{nb}?{query}"
            if seats[label].role == "umpire":  # the umpire's scenario editor (owsnb.pages.editor)
                entry["editor"] = f"{voila}/voila/render/editor.ipynb?{query}"
        out[label] = entry
    return out


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the child gets SIGTERM if ``owsnb serve`` dies (even by ``kill -9``)."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except OSError:
            pass


class VoilaProcess:
    """Voila serving the seat dashboards, as a child process.

    Args:
        root: the dashboards' folder.
        host, port: where Voila listens.
        server: the authority's URL as the dashboards' kernels reach it (``$OWSNB_SERVER``).
        preheat: keep kernels warm with the notebook's imports done (faster time to interactive).
    """

    def __init__(
        self,
        root: Path,
        host: str,
        port: int,
        server: str,
        *,
        preheat: int = 2,
        log: Any = subprocess.DEVNULL,
    ):
        self.root, self.host, self.port = root, host, port
        cmd = [
            sys.executable,
            "-m",
            "voila",
            str(root),
            "--no-browser",
            f"--port={port}",
            f"--Voila.ip={host}",
            "--show_tracebacks=False",
            "--Voila.log_level=WARN",
        ]
        if preheat:
            cmd += [
                "--preheat_kernel=True",
                f"--pool_size={preheat}",
                "--progressive_rendering=False",
            ]
        env = {**os.environ, "OWSNB_SERVER": server}
        pypath = [p for p in (os.getcwd(), env.get("PYTHONPATH", "")) if p]
        env["PYTHONPATH"] = os.pathsep.join(pypath)
        self.proc = subprocess.Popen(
            cmd,
            env=env,
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait until Voila answers (False if it exited or timed out)."""
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                if httpx.get(self.url + "/voila/", timeout=2).status_code < 500:
                    return True
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def write_private(path: Path, text: str) -> None:
    """Write *text* to a file only its owner may read (0600, also when it existed before): seat
    links carry tokens."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def _shown(url: str) -> str:
    """A store URL without its password (for messages)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":…@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def run_serve(args: argparse.Namespace) -> int:
    """The ``owsnb serve`` command."""
    import uvicorn

    from owsnb.api import games_dir
    from owsnb.kernel.errors import StoreError
    from owsnb.server.app import make_app
    from owsnb.server.authority import Authority
    from owsnb.server.runner import bind, uvicorn_config
    from owsnb.store import open_store

    _register_rulesets(args.ruleset)
    store_url = args.store or str(games_dir() / "seminar.owsnb")
    if args.hub:
        args.no_voila = True
        args.links_file = args.links_file or str(games_dir().parent / "seminar-links.json")
        public = os.environ.get("OWSNB_PUBLIC_URL", "").rstrip("/")
        args.public_url = args.public_url or public + "/" + args.hub.strip("/")
        try:
            with open_store(store_url) as probe:
                args.resume = bool(probe.games())
        except StoreError as exc:
            print(f"owsnb serve: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(
            f"owsnb serve: cannot listen on {args.host}:{args.port} ({exc.strerror}); try --port",
            file=sys.stderr,
        )
        return 1
    port = sock.getsockname()[1]
    try:
        store = open_store(store_url, create=not args.resume)
        if args.resume:
            store.check()  # read-only, empty, damaged: refuse now, not at the first order
            if not store.games():
                store.close()
                raise StoreError(f"{_shown(store_url)} holds no game to resume")
    except StoreError as exc:
        sock.close()
        print(f"owsnb serve: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    auth = Authority(store)
    created = None
    if not args.resume:
        created = auth.create_game(
            args.scenario or "tutorial",
            seed=args.seed,
            game_id=args.game,
            observers=_observers(args.observer),
        )
    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    api = (args.public_url or f"http://{shown_host}:{port}").rstrip("/")
    voila = None
    root = dashboards_dir()
    if not args.no_voila and root is not None:
        vport = args.voila_port or port + 1
        voila = VoilaProcess(
            root,
            args.host,
            vport,
            f"http://127.0.0.1:{port}" if args.host in ("0.0.0.0", "::") else api,
            preheat=args.voila_pool,
        )
    elif not args.no_voila:
        print(
            "owsnb serve: the seat dashboards (notebooks/seminar) are not installed; "
            "serving the API only",
            file=sys.stderr,
        )
    voila_url = None
    if voila is not None:
        voila_url = f"http://{shown_host}:{voila.port}"
    out = sys.stdout
    print(f"owsnb seminar server — store {store!r}", file=out)
    ids = auth.game_ids()
    if created is not None:
        links = seat_links(api, created.game_id, created.tokens, created.seats, voila_url)
        print(f"new game {created.game_id!r}: {created.title}", file=out)
        width = max(len(k) for k in links)
        for label, entry in links.items():
            seat = created.seats[label]
            extra = (
                f"  ({seat.side} view, {seat.delay} events behind)"
                if seat.role == "observer"
                else ""
            )
            print(
                f"  {label:<{width}}  "
                f"{entry.get('link') or entry['api'] + '  token ' + entry['token']}{extra}",
                file=out,
            )
        if links["umpire"].get("editor"):
            print(f"  {'editor':<{width}}  {links['umpire']['editor']}  (the umpire's)", file=out)
        print(
            f"in a notebook: owsnb.connect({links['umpire']['api']!r}, token=<seat token>)",
            file=out,
        )
        if args.links_file:
            write_private(
                Path(args.links_file),
                json.dumps({"game": created.game_id, "api": api, "seats": links}, indent=1),
            )
    others = [g for g in ids if created is None or g != created.game_id]
    if others:
        print(
            f"also serving {len(others)} earlier game(s): {', '.join(others)} "
            "(their seats keep their links)",
            file=out,
        )
    print(
        f"authority {api}"
        + (f"   dashboards {voila_url}" if voila_url else "")
        + "   — Ctrl-C stops (games are saved; `owsnb serve --resume` continues)",
        file=out,
        flush=True,
    )
    server = uvicorn.Server(uvicorn_config(make_app(auth), args.host, port))
    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal: end quietly
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        if voila is not None:
            voila.stop()
        store.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m owsnb.server`` — the same as ``owsnb serve``."""
    parser = argparse.ArgumentParser(prog="owsnb")
    sub = parser.add_subparsers(dest="command")
    add_serve_command(sub)
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    from owsnb.kernel.errors import OwsnbError

    try:
        return int(args.func(args) or 0)
    except OwsnbError as exc:
        print(f"owsnb serve: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
