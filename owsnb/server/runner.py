"""Running the authority's ASGI app with uvicorn: in the foreground (``owsnb serve``) or in a
background thread (tests, a notebook that hosts a quick seminar).

>>> from owsnb.store import open_store
>>> import tempfile, pathlib, httpx
>>> from owsnb.server.authority import Authority
>>> srv = ServerThread(Authority(open_store(pathlib.Path(tempfile.mkdtemp()) / "s.owsnb"))).start()
>>> httpx.get(srv.url + "/health").json()["ok"]
True
>>> srv.stop()
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from owsnb.server.app import MAX_BODY, make_app
from owsnb.server.authority import Authority

__all__ = ["ServerThread", "uvicorn_config", "bind", "PING_INTERVAL", "PING_TIMEOUT"]

PING_INTERVAL = 2.5
"""Seconds between the server's WebSocket pings (the client library answers them by itself)."""

PING_TIMEOUT = 4.0
"""A WebSocket that has not answered a ping within this many seconds is dropped: a client that
does not read is gone within ``PING_INTERVAL + PING_TIMEOUT`` seconds."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on *host*:*port* (``0``: a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets that say they are TCP;
    # without it every HTTP answer waits ~40 ms (Nagle's algorithm against delayed ACKs)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app: Any, host: str, port: int, **kw: Any) -> Any:
    """uvicorn settings for the authority: quiet, no access log (URLs never carry tokens, but a
    log of every poll is noise), small WebSocket frames from seats, frequent pings (a client that
    does not read is dropped within seconds)."""
    import uvicorn
    from uvicorn.config import WS_PROTOCOLS

    opts: dict[str, Any] = dict(
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        ws="websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "auto",
        ws_max_size=MAX_BODY,
        ws_ping_interval=PING_INTERVAL,
        ws_ping_timeout=PING_TIMEOUT,
        timeout_graceful_shutdown=2,
    )
    opts.update(kw)
    return uvicorn.Config(app, **opts)


class ServerThread:
    """The authority served by uvicorn in a daemon thread.

    Args:
        authority: what to serve (or an ASGI app).
        host, port: where (port ``0``: a free one; read :attr:`url`).
    """

    def __init__(
        self, authority: Authority | Any, host: str = "127.0.0.1", port: int = 0, **config: Any
    ):
        import uvicorn

        self.app = make_app(authority) if isinstance(authority, Authority) else authority
        self.authority = authority if isinstance(authority, Authority) else None
        self._sock = bind(host, port)
        self.host, self.port = host, self._sock.getsockname()[1]
        config.setdefault("timeout_graceful_shutdown", 0.5)
        self.server = uvicorn.Server(uvicorn_config(self.app, host, self.port, **config))
        self.thread = threading.Thread(
            target=self.server.run,
            kwargs={"sockets": [self._sock]},
            name=f"owsnb-server-{self.port}",
            daemon=True,
        )

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 15.0) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the owsnb server did not start on {self.url}")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        state = getattr(getattr(self.app, "state", None), "owsnb", None)
        if state is not None:
            state.release()
        self.server.should_exit = True
        self.thread.join(timeout)
        self._sock.close()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
