"""A throw-away PostgreSQL server for the tests, from Debian's package, on loopback.

One server per test process (started on first use, stopped at exit): ``initdb`` into a temporary
directory, ``pg_ctl start`` on a free 127.0.0.1 port with trust authentication. As root the
binaries run as the ``postgres`` user (``initdb`` refuses to run as root). Each caller gets a
fresh database (:func:`fresh_url`) so tests never see each other's games.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
from pathlib import Path


def _find_bin() -> Path:
    if os.environ.get("OWSNB_PG_BIN"):
        return Path(os.environ["OWSNB_PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


BIN = _find_bin()

_lock = threading.Lock()
_server: _Server | None = None


def available() -> str | None:
    """``None`` if a test server can be started here, else the reason why not."""
    for tool in ("initdb", "pg_ctl", "postgres"):
        if not (BIN / tool).exists():
            return f"PostgreSQL binaries not found in {BIN} (apt-get install postgresql-15)"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root but there is no 'postgres' user to run the server as"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'psycopg[binary]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="owsnb-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(
            [
                str(BIN / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--locale=C",
            ]
        )
        opts = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.dir} "
            "-c fsync=on -c max_connections=100"
        )
        self._run(
            [
                str(BIN / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.dir / "log"),
                "-w",
                "-t",
                "60",
                "-o",
                opts,
                "start",
            ]
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, cmd: list[str]) -> None:
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            log = ""
            if (self.dir / "log").exists():
                log = (self.dir / "log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}\n{log}")

    def stop(self) -> None:
        try:
            self._run([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        except Exception:  # noqa: BLE001 - best effort at exit
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def server_url() -> str:
    """The URL of the test server's maintenance database (starting the server if needed)."""
    global _server
    with _lock:
        if _server is None:
            reason = available()
            if reason:
                raise RuntimeError(reason)
            _server = _Server()
            atexit.register(_server.stop)
        return _server.url


def fresh_url() -> str:
    """A URL to a new, empty database on the test server."""
    import psycopg

    base = server_url()
    name = "t_" + secrets.token_hex(6)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.rsplit("/", 1)[0] + "/" + name
