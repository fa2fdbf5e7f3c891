"""The authority's HTTP JSON API and WebSocket push, as a small ASGI app (Starlette).

Every request under ``/games/<id>/`` carries its seat token as ``Authorization: Bearer <token>``.
Bodies are JSON objects of at most ``max_body`` bytes with only the documented fields; errors
are JSON ``{"error": ..., "message": ...}`` with a fitting status (400 malformed, 401 no valid
token, 403 not this seat's right, 404 no such game, 409 stale state, 413 too large, 422 refused
order, 503 store unavailable). The game's work runs in worker threads, one game at a time.

==========  ================================  ===================================================
method      path                              what
==========  ================================  ===================================================
GET         /health                           liveness (no token)
GET         /games/{id}                       who the seat is; game title, rule set, state_id
GET         /games/{id}/view?at=&map=&side=   the seat's view (map omitted if ``map`` is current)
GET         /games/{id}/events?since=         events the seat may see
GET         /games/{id}/legal?side=           legal orders
GET         /games/{id}/outcome               is the game over; its outcome (when over, or umpire)
POST        /games/{id}/check                 ``{"order"}``: validate only
POST        /games/{id}/preview               ``{"order"}``: exact outcome distribution
POST        /games/{id}/orders                ``{"order", "state_id"}``: submit
POST        /games/{id}/undo                  ``{"state_id"}``: umpire
GET/POST    /games/{id}/annotations           read / write (``{"text", "turn", "hex", ...}``)
GET         /games/{id}/changes?cursor=       long-poll for changes (WebSocket fallback)
WS          /games/{id}/ws?cursor=&map=       pushed changes, each with the seat's view
GET/POST    /games/{id}/seats                 umpire: list / create seats (token shown once)
PATCH/DEL   /games/{id}/seats/{seat}          umpire: observer delay or view / revoke
==========  ================================  ===================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from owsnb.kernel.errors import AuthError
from owsnb.server import wire
from owsnb.server.authority import Authority

__all__ = ["make_app", "MAX_BODY", "LONG_POLL"]

log = logging.getLogger("owsnb.server")

MAX_BODY = 64 * 1024
"""Largest request body accepted (bytes); an order or an annotation is far smaller."""

LONG_POLL = 25.0
"""Longest wait of a long-poll request (seconds)."""


class HTTPError(Exception):
    def __init__(self, status: int, error: str, message: str):
        super().__init__(message)
        self.status, self.error, self.message = status, error, message


def _json(data: Any, status: int = 200) -> Response:
    return Response(wire.dumps(data), status_code=status, media_type="application/json")


def _error(status: int, body: dict[str, Any]) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return Response(
        wire.dumps(body), status_code=status, media_type="application/json", headers=headers
    )


def bearer(headers: Any) -> str:
    """The token of an ``Authorization: Bearer`` header (``""`` if none)."""
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


class _Server:
    """The app's state: the authority and the waiters to wake when a game changes."""

    def __init__(self, authority: Authority, max_body: int):
        self.auth = authority
        self.max_body = max_body
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.stopping = False

    # -- change fan-out ------------------------------------------------------------------------
    def changed(self, game_id: str) -> None:
        """Called (from any thread) when a game changed: wake its waiters on the event loop."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:
        for ev in list(self.waiters.get(game_id, ())):
            ev.set()

    @contextlib.contextmanager
    def waiter(self, game_id: str):  # noqa: ANN201
        ev = asyncio.Event()
        self.waiters.setdefault(game_id, set()).add(ev)
        try:
            yield ev
        finally:
            self.waiters.get(game_id, set()).discard(ev)

    # -- life ----------------------------------------------------------------------------------
    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.auth.on_change.append(self.changed)
        listen = getattr(self.auth.store, "listen", None)
        if listen is not None and self.auth.shared:
            self._listener = threading.Thread(
                target=listen,
                args=(self.auth.reload, self._stop),
                kwargs={"poll": 0.25},
                name="owsnb-store-listener",
                daemon=True,
            )
            self._listener.start()

    def release(self) -> None:
        """Answer every waiting long-poll now (called before a shutdown, from any thread)."""
        self.stopping = True
        loop = self.loop
        if loop is not None and not loop.is_closed():
            for gid in list(self.waiters):
                loop.call_soon_threadsafe(self._wake, gid)

    def stop(self) -> None:
        self._stop.set()
        if self.changed in self.auth.on_change:
            self.auth.on_change.remove(self.changed)
        if self._listener is not None:
            self._listener.join(timeout=3)

    # -- request helpers -----------------------------------------------------------------------
    async def body(
        self, request: Request, fields: set[str], required: set[str] = frozenset()
    ) -> dict[str, Any]:
        """The JSON object sent; refuses bodies too large, malformed or with unknown fields."""
        declared = request.headers.get("content-length")
        if declared is not None:
            try:
                if int(declared) > self.max_body:
                    raise HTTPError(
                        413, "PayloadTooLarge", f"the body is larger than {self.max_body} bytes"
                    )
            except ValueError:
                raise HTTPError(400, "BadRequest", "Content-Length is not a number") from None
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > self.max_body:
                raise HTTPError(
                    413, "PayloadTooLarge", f"the body is larger than {self.max_body} bytes"
                )
        if not raw.strip():
            data: Any = {}
        else:
            try:
                data = json.loads(bytes(raw).decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise HTTPError(400, "BadRequest", f"the body is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise HTTPError(
                400, "BadRequest", f"the body must be a JSON object, not {type(data).__name__}"
            )
        unknown = sorted(set(data) - fields)
        if unknown:
            raise HTTPError(
                400,
                "BadRequest",
                f"unknown field(s) {unknown}; this request takes {sorted(fields)}",
            )
        missing = sorted(required - set(data))
        if missing:
            raise HTTPError(400, "BadRequest", f"missing field(s) {missing}")
        return data

    async def seat(self, request: Request) -> Any:
        return await anyio.to_thread.run_sync(
            self.auth.seat, request.path_params["gid"], bearer(request.headers)
        )

    async def call(self, request: Request, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """``fn(seat, *args)`` for the request's seat: token check and work in one worker thread."""
        gid, token = request.path_params["gid"], bearer(request.headers)
        return await anyio.to_thread.run_sync(lambda: fn(self.auth.seat(gid, token), *args, **kw))


def _int(value: str | None, name: str, default: int | None = None) -> int | None:
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise HTTPError(
            400, "BadRequest", f"{name} must be a whole number, not {value!r}"
        ) from None


def endpoint(
    fn: Callable[[_Server, Request], Awaitable[Any]],
) -> Callable[[Request], Awaitable[Response]]:
    """Wrap a handler: JSON answer, errors mapped to statuses, internal errors logged not leaked."""

    async def handle(request: Request) -> Response:
        srv: _Server = request.app.state.owsnb
        try:
            out = await fn(srv, request)
            return out if isinstance(out, Response) else _json(out)
        except HTTPError as exc:
            return _error(exc.status, {"error": exc.error, "message": exc.message})
        except Exception as exc:  # noqa: BLE001 - every failure becomes a JSON answer
            status, body = wire.error_body(exc)
            if status >= 500 and body.get("error") == "InternalError":
                log.exception("internal error serving %s %s", request.method, request.url.path)
                body = {
                    "error": "InternalError",
                    "message": "internal error; the server log has the details",
                }
            return _error(status, body)

    return handle


def _run(fn: Callable[..., Any], *args: Any, **kw: Any) -> Awaitable[Any]:
    return anyio.to_thread.run_sync(partial(fn, *args, **kw))


# -- handlers --------------------------------------------------------------------------------------
@endpoint
async def health(srv: _Server, request: Request) -> Any:
    from owsnb import __version__

    return {"owsnb": __version__, "ok": True}


@endpoint
async def game_info(srv: _Server, request: Request) -> Any:
    return await srv.call(request, srv.auth.seat_info)


@endpoint
async def view(srv: _Server, request: Request) -> Any:
    q = request.query_params
    return await srv.call(
        request, srv.auth.view, _int(q.get("at"), "at"), q.get("map"), q.get("side") or None
    )


@endpoint
async def events(srv: _Server, request: Request) -> Any:
    return await srv.call(
        request, srv.auth.events, _int(request.query_params.get("since"), "since", 0)
    )


@endpoint
async def outcome(srv: _Server, request: Request) -> Any:
    return await srv.call(request, srv.auth.outcome)


@endpoint
async def legal(srv: _Server, request: Request) -> Any:
    return await srv.call(request, srv.auth.legal, request.query_params.get("side") or None)


@endpoint
async def check(srv: _Server, request: Request) -> Any:
    data = await srv.body(request, {"order"}, {"order"})
    return await srv.call(request, srv.auth.check, data["order"])


@endpoint
async def preview(srv: _Server, request: Request) -> Any:
    data = await srv.body(request, {"order"}, {"order"})
    return await srv.call(request, srv.auth.preview, data["order"])


@endpoint
async def submit(srv: _Server, request: Request) -> Any:
    data = await srv.body(request, {"order", "state_id"}, {"order"})
    return await srv.call(request, srv.auth.submit, data["order"], data.get("state_id"))


@endpoint
async def undo(srv: _Server, request: Request) -> Any:
    data = await srv.body(request, {"state_id"})
    sid = data.get("state_id")
    if sid is not None and (isinstance(sid, bool) or not isinstance(sid, int)):
        raise HTTPError(400, "BadRequest", f"state_id is a whole number, not {sid!r}")
    return await srv.call(request, srv.auth.undo, sid)


@endpoint
async def annotations(srv: _Server, request: Request) -> Any:
    s = await srv.seat(request)
    if request.method == "GET":
        return await _run(srv.auth.annotations, s)
    data = await srv.body(request, {"text", "seq", "turn", "hex", "unit", "side", "tags"}, {"text"})
    text = data.pop("text")
    return await _run(srv.auth.annotate, s, text, data)


@endpoint
async def seats(srv: _Server, request: Request) -> Any:
    s = await srv.seat(request)
    if request.method == "GET":
        return await _run(srv.auth.list_seats, s)
    data = await srv.body(request, {"role", "side", "delay", "label"}, {"role"})
    return await _run(
        srv.auth.issue_seat,
        s,
        data["role"],
        data.get("side") or "umpire",
        data.get("delay", 0),
        data.get("label", ""),
    )


@endpoint
async def seat_one(srv: _Server, request: Request) -> Any:
    s = await srv.seat(request)
    sid = request.path_params["sid"]
    if request.method == "DELETE":
        return await _run(srv.auth.revoke_seat, s, sid)
    data = await srv.body(request, {"delay", "side", "label"})
    return await _run(srv.auth.change_seat, s, sid, **data)


@endpoint
async def changes(srv: _Server, request: Request) -> Any:
    """Long-poll: answer at once if the seat missed changes, else wait for one (or time out)."""
    q = request.query_params
    timeout = min(float(_int(q.get("timeout"), "timeout", int(LONG_POLL)) or 0), LONG_POLL)
    if srv.stopping:
        raise HTTPError(503, "Unavailable", "the server is stopping; reconnect in a moment")
    s = await srv.seat(request)
    gid = request.path_params["gid"]
    cursor, known = q.get("cursor"), q.get("map")
    with srv.waiter(gid) as ev:
        msgs, cursor, known = await _run(srv.auth.messages_since, s, cursor, known)
        if not msgs and timeout > 0:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(ev.wait(), timeout)
            s = srv.auth.refreshed_seat(s)
            if srv.auth.revoked(s):
                raise AuthError("this seat's token was revoked; ask the umpire for a new link")
            msgs, cursor, known = await _run(srv.auth.messages_since, s, cursor, known)
    return {"messages": msgs, "cursor": cursor, "map": known}


async def websocket(ws: WebSocket) -> None:
    """Push every change to the seat: a ``hello``, then ``change`` messages (each with the view)."""
    srv: _Server = ws.app.state.owsnb
    gid = ws.path_params["gid"]
    await ws.accept()
    try:
        s = await _run(srv.auth.seat, gid, bearer(ws.headers))
    except Exception as exc:  # noqa: BLE001
        status, body = wire.error_body(exc)
        await ws.send_text(json.dumps({"type": "error", "status": status, **body}))
        await ws.close(code=4000 + status if status < 1000 else 4500, reason=body.get("error", ""))
        return
    cursor, known = ws.query_params.get("cursor"), ws.query_params.get("map")
    closed = asyncio.Event()

    async def receive() -> None:
        try:
            while True:
                msg = await ws.receive_text()
                if msg.strip() == '{"type":"ping"}':
                    await ws.send_text('{"type":"pong"}')
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            closed.set()

    reader = asyncio.create_task(receive())
    try:
        with srv.waiter(gid) as ev:
            await ws.send_text(
                wire.dumps({"type": "hello", **await _run(srv.auth.seat_info, s)}).decode()
            )
            while not closed.is_set():
                s = srv.auth.refreshed_seat(s)
                if srv.auth.revoked(s):
                    await ws.send_text(
                        json.dumps(
                            {
                                "type": "error",
                                "status": 401,
                                "error": "AuthError",
                                "message": "this seat's token was revoked",
                            }
                        )
                    )
                    await ws.close(code=4401, reason="revoked")
                    return
                msgs, cursor, known = await _run(srv.auth.messages_since, s, cursor, known)
                for m in msgs:
                    await ws.send_text(wire.dumps(m).decode())
                waiting = asyncio.ensure_future(ev.wait())
                done = asyncio.ensure_future(closed.wait())
                await asyncio.wait({waiting, done}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                done.cancel()
                ev.clear()
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:  # noqa: BLE001
        log.exception("WebSocket of %s failed", gid)
        with contextlib.suppress(Exception):
            await ws.close(code=1011)
    finally:
        reader.cancel()


def make_app(
    authority: Authority, *, max_body: int = MAX_BODY, extra_routes: list[Any] = ()
) -> Starlette:
    """The ASGI app serving *authority* (run it with uvicorn, or any ASGI server)."""
    srv = _Server(authority, max_body)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):  # noqa: ANN202
        srv.start()
        try:
            yield
        finally:
            srv.stop()

    g = "/games/{gid}"
    routes = [
        Route("/health", health),
        Route(g, game_info),
        Route(g + "/", game_info),
        Route(g + "/view", view),
        Route(g + "/events", events),
        Route(g + "/legal", legal),
        Route(g + "/outcome", outcome),
        Route(g + "/check", check, methods=["POST"]),
        Route(g + "/preview", preview, methods=["POST"]),
        Route(g + "/orders", submit, methods=["POST"]),
        Route(g + "/undo", undo, methods=["POST"]),
        Route(g + "/annotations", annotations, methods=["GET", "POST"]),
        Route(g + "/changes", changes),
        Route(g + "/seats", seats, methods=["GET", "POST"]),
        Route(g + "/seats/{sid}", seat_one, methods=["PATCH", "DELETE"]),
        WebSocketRoute(g + "/ws", websocket),
        *extra_routes,
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.owsnb = srv
    return app
