"""The authority's HTTP JSON API and WebSocket push, as a small ASGI app (Starlette).

Every request under ``/games/<id>/`` carries its seat token as ``Authorization: Bearer <token>``.
Bodies are JSON objects of at most ``max_body`` bytes, nested at most :data:`MAX_DEPTH` deep, with
only the documented fields; their text is checked at the door (no lone surrogate, NUL or other
control character, at most :data:`MAX_TEXT` characters) and normalised (Unicode NFC) before
anything sees it. Errors are JSON ``{"error": ..., "message": ...}`` with a fitting status (400
malformed, 401 no valid token *or no such game* — the two answer alike, 403 not this seat's
right, 409 stale state, 413 too large, 422 refused order or bad value, 429 the seat's connection
was taken over by a newer one, 503 store unavailable — nothing changed); no answer names a path,
a database or an internal detail (the server log has them). The game's work runs in worker
threads, one game at a time.

Pushes: each seat may hold :data:`MAX_CONNECTIONS` WebSockets and long-polls at once; a newer one
closes the **oldest** (WebSocket close code 4429, long-poll 429; the client stops listening rather
than fight back). A connection has one frame in flight at most (the next one is built from the
game when the last has gone: a slow reader gets one larger delta, not a queue); a send that waits
more than :data:`SEND_TIMEOUT` seconds, or a client that answers no ping within
``PING_INTERVAL + PING_TIMEOUT`` (:mod:`owsnb.server.runner`), is dropped.

==========  ================================  ===================================================
method      path                              what
==========  ================================  ===================================================
GET         /                                 a landing page (no token, no game named)
GET         /health                           liveness (no token)
GET         /games/{id}                       who the seat is; game title, rule set, state_id
GET         /games/{id}/view?at=&map=&side=   the seat's view (map omitted if ``map`` is current)
GET         /games/{id}/events?since=         events the seat may see
GET         /games/{id}/legal?side=           legal orders
GET         /games/{id}/outcome               is the game over; its outcome (when over, or umpire)
GET         /games/{id}/export                umpire, once the game is over: the whole record
POST        /games/{id}/check                 ``{"order"}``: validate only
POST        /games/{id}/preview               ``{"order"}``: exact outcome distribution
POST        /games/{id}/orders                ``{"order", "state_id", "seat"}``: submit
POST        /games/{id}/undo                  ``{"state_id"}``: umpire
GET/POST    /games/{id}/annotations           read / write (``{"text", "turn", "hex", ...}``)
GET         /games/{id}/changes?cursor=       long-poll for changes (WebSocket fallback)
WS          /games/{id}/ws?cursor=&map=       pushed changes, each with the seat's view
GET/POST    /games/{id}/seats                 umpire: list / create seats (token shown once)
PATCH/DEL   /games/{id}/seats/{seat}          umpire: observer delay or view / revoke
POST        /games/{id}/computer              umpire: ``{"side", "bot"}`` hand a side to the
                                              computer (``"bot": null``: take it back)
==========  ================================  ===================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from owsnb.kernel.errors import StoreError
from owsnb.server import wire
from owsnb.server.authority import Authority
from owsnb.server.seats import auth_error

__all__ = ["make_app", "MAX_BODY", "MAX_DEPTH", "MAX_TEXT", "LONG_POLL", "MAX_CONNECTIONS"]

log = logging.getLogger("owsnb.server")

MAX_BODY = 64 * 1024
"""Largest request body accepted (bytes); an order or an annotation is far smaller."""

MAX_DEPTH = 8
"""Deepest nesting of a request body (an annotation's tags are at depth 2)."""

MAX_TEXT = {"text": 10_000, "order": 2_000}
"""Longest text of a field (characters); any other string: :data:`MAX_STRING`."""

MAX_STRING = 200

LONG_POLL = 25.0
"""Longest wait of a long-poll request (seconds)."""

MAX_CONNECTIONS = 4
"""WebSockets plus waiting long-polls one seat may hold at once (a newer one closes the oldest)."""

SEND_TIMEOUT = 5.0
"""A push that cannot be handed to the network within this many seconds drops the connection."""

STORE_DOWN = "the game store is not available right now (nothing was changed); try again shortly"


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


SEAT_HEADER = "x-owsnb-seat"
"""The seat token's header where ``Authorization`` belongs to a proxy in front (JupyterHub)."""


def bearer(headers: Any) -> str:
    """The seat token: an ``X-Owsnb-Seat`` header, else ``Authorization: Bearer`` (``""`` if
    none)."""
    seat = headers.get(SEAT_HEADER, "").strip()
    if seat:
        return seat
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
        self.conns: dict[tuple[str, str], list[_Conn]] = {}
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

    @contextlib.contextmanager
    def connection(self, game_id: str, seat_id: str, kind: str):  # noqa: ANN201
        """Hold one of the seat's :data:`MAX_CONNECTIONS` places while the block runs; a newer
        connection beyond the cap evicts the oldest (its ``evicted`` event is set)."""
        conn = _Conn(kind, time.monotonic())
        held = self.conns.setdefault((game_id, seat_id), [])
        held.append(conn)
        while len(held) > MAX_CONNECTIONS:
            oldest = held.pop(0)
            oldest.evicted.set()
        try:
            yield conn
        finally:
            if conn in held:
                held.remove(conn)
            if not held:
                self.conns.pop((game_id, seat_id), None)

    def held(self, game_id: str, seat_id: str) -> int:
        """How many connections the seat holds now."""
        return len(self.conns.get((game_id, seat_id), ()))

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
        self, request: Request, fields: AbstractSet[str], required: AbstractSet[str] = frozenset()
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
            data = parse_json(bytes(raw))
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
        return {k: clean(v, k) for k, v in data.items()}

    async def seat(self, request: Request) -> Any:
        return await anyio.to_thread.run_sync(
            self.auth.seat, request.path_params["gid"], bearer(request.headers)
        )

    async def frame(self, s: Any, cursor: str | None, base: bool) -> Any:
        """The push for seat *s* at *cursor*: from the shared cache on the event loop if it is
        built, else built in a worker thread (once per seat-view: the others find it cached)."""
        hit = self.auth.cached_push(s, cursor, base)
        if hit is not None:
            return hit
        return await _run(self.auth.push, s, cursor, base)

    async def call(self, request: Request, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """``fn(seat, *args)`` for the request's seat: token check and work in one worker thread."""
        gid, token = request.path_params["gid"], bearer(request.headers)
        return await anyio.to_thread.run_sync(lambda: fn(self.auth.seat(gid, token), *args, **kw))


class _Conn:
    """One WebSocket or waiting long-poll of a seat."""

    def __init__(self, kind: str, since: float):
        self.kind, self.since = kind, since
        self.evicted = asyncio.Event()


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(raw: bytes) -> Any:
    """A request body's JSON, refused with 400 if it is not UTF-8 JSON, nests deeper than
    :data:`MAX_DEPTH` (checked before parsing: a body nested 20,000 deep never reaches the
    parser's recursion) or holds ``NaN``/``Infinity``."""
    depth = deepest = 0
    in_string = escaped = False
    for b in raw:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x22:
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                raise HTTPError(
                    400, "BadRequest", f"the body is nested deeper than {MAX_DEPTH} levels"
                )
        elif b in (0x5D, 0x7D):
            depth -= 1
        deepest = max(deepest, depth)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise HTTPError(400, "BadRequest", f"the body is not JSON: {exc}") from None


_UNSTORABLE = re.compile(r"[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Lone surrogates (UTF-8 cannot carry them), NUL (PostgreSQL text cannot) and the other control
characters but tab, newline and carriage return."""


def clean(value: Any, field: str) -> Any:
    """*value* with every string checked and normalised (NFC): 400 for text that cannot be
    stored or sent (a lone surrogate, NUL or another control character but tab and newline)
    or longer than the field allows (:data:`MAX_TEXT`)."""
    if isinstance(value, str):
        limit = MAX_TEXT.get(field, MAX_STRING)
        bad = _UNSTORABLE.search(value)
        if bad is not None:
            raise HTTPError(
                400,
                "BadRequest",
                f"{field}: text with the character U+{ord(bad.group()):04X} cannot be stored",
            )
        value = unicodedata.normalize("NFC", value)
        if len(value) > limit:
            raise HTTPError(
                400, "BadRequest", f"{field}: at most {limit} characters, not {len(value)}"
            )
        return value
    if isinstance(value, list):
        if len(value) > 64:
            raise HTTPError(400, "BadRequest", f"{field}: at most 64 items")
        return [clean(v, field) for v in value]
    if isinstance(value, dict):
        return {clean(k, field): clean(v, field) for k, v in value.items()}
    return value


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
            status, body = answer_for(exc, f"{request.method} {request.url.path}")
            return _error(status, body)

    return handle


def answer_for(exc: BaseException, what: str) -> tuple[int, dict[str, Any]]:
    """Status and body for an error; a store failure or an internal error is logged with its
    details and answered without them (no path, no database address, no traceback)."""
    if isinstance(exc, StoreError):
        log.warning("store failure serving %s: %s", what, exc)
        return 503, {"error": "StoreError", "message": STORE_DOWN}
    status, body = wire.error_body(exc)
    if status >= 500:
        log.error("internal error serving %s", what, exc_info=exc)
        body = {
            "error": "InternalError",
            "message": "internal error; the server log has the details",
        }
    return status, body


def _run(fn: Callable[..., Any], *args: Any, **kw: Any) -> Awaitable[Any]:
    return anyio.to_thread.run_sync(partial(fn, *args, **kw))


# -- handlers --------------------------------------------------------------------------------------
@endpoint
async def health(srv: _Server, request: Request) -> Any:
    from owsnb import __version__

    return {"owsnb": __version__, "ok": True}


INDEX = """<!doctype html><meta charset="utf-8"><title>owsnb seminar</title>
<body style="font-family:sans-serif;max-width:40em;margin:2em auto">
<h1>owsnb seminar server</h1><p>The authority is running. Seats connect with their seat link:
<code>owsnb.connect(link, token)</code> in a notebook, or the seat dashboard.</p>
<p>The links were printed when the game was created; behind JupyterHub they are in
<code>$OWSNB_HOME/seminar-links.json</code> (readable by you only: open it in JupyterLab).</p>"""


async def index(request: Request) -> Response:
    """A landing page for a browser (the JupyterLab launcher opens it): no game, no token."""
    return Response(INDEX, media_type="text/html")


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
async def export(srv: _Server, request: Request) -> Any:
    return await srv.call(request, srv.auth.export)


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
    data = await srv.body(request, {"order", "state_id", "seat"}, {"order"})
    return await srv.call(
        request, srv.auth.submit, data["order"], data.get("state_id"), data.get("seat")
    )


@endpoint
async def undo(srv: _Server, request: Request) -> Any:
    data = await srv.body(request, {"state_id"})
    sid = data.get("state_id")
    if sid is not None and (isinstance(sid, bool) or not isinstance(sid, int)):
        raise HTTPError(400, "BadRequest", f"state_id is a whole number, not {sid!r}")
    return await srv.call(request, srv.auth.undo, sid)


@endpoint
async def annotations_(srv: _Server, request: Request) -> Any:
    s = await srv.seat(request)
    if request.method == "GET":
        return await _run(srv.auth.annotations, s)
    data = await srv.body(request, {"text", "seq", "turn", "hex", "unit", "side", "tags"}, {"text"})
    text = data.pop("text")
    return await _run(srv.auth.annotate, s, text, data)


@endpoint
async def computer(srv: _Server, request: Request) -> Any:
    data = await srv.body(request, {"side", "bot"}, {"side"})
    return await srv.call(request, srv.auth.set_computer, data["side"], data.get("bot"))


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
    """Long-poll: answer at once if the seat missed changes, else wait for one (or time out).

    ``?cursor=`` where the client stands, ``&base=1`` if it holds the view pushed at that cursor
    (then the view comes as a delta), ``&map=`` the map digest it holds. The answer is
    ``{"messages": [...], "cursor": ..., "map": ...}``: the same messages a WebSocket pushes.
    """
    q = request.query_params
    timeout = min(float(_int(q.get("timeout"), "timeout", int(LONG_POLL)) or 0), LONG_POLL)
    if srv.stopping:
        raise HTTPError(503, "Unavailable", "the server is stopping; reconnect in a moment")
    s = await srv.seat(request)
    gid = request.path_params["gid"]
    cursor, known, base = q.get("cursor"), q.get("map"), q.get("base") == "1"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    with srv.connection(gid, s[1].seat_id, "poll") as conn, srv.waiter(gid) as ev:
        frame = await srv.frame(s, cursor, base)
        while frame.data is None and not srv.stopping:
            left = deadline - loop.time()
            if left <= 0:
                break
            await _first(left, ev.wait(), conn.evicted.wait())
            if conn.evicted.is_set():
                raise HTTPError(429, "TooManyConnections", EVICTED)
            ev.clear()
            s = srv.auth.refreshed_seat(s)
            if srv.auth.revoked(s):
                raise auth_error("this seat's token was revoked; ask the umpire for a new link")
            frame = await srv.frame(s, cursor, base)
    messages = []
    if frame.data is not None:
        if frame.map_id != known:
            messages.append(frame.map_data)
            known = frame.map_id
        messages.append(frame.data)
    body = (
        b'{"messages":['
        + b",".join(messages)
        + b'],"cursor":'
        + wire.dumps(frame.cursor)
        + b',"map":'
        + wire.dumps(known)
        + b"}"
    )
    return Response(body, media_type="application/json")


EVICTED = (
    f"this seat opened more than {MAX_CONNECTIONS} connections; the oldest was closed "
    "(open the seat in fewer places)"
)


async def _first(timeout: float, *waits: Awaitable[Any]) -> None:
    """Wait until the first of *waits* is done, or *timeout* seconds."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()


async def websocket(ws: WebSocket) -> None:
    """Push every change to the seat: a ``hello``, then ``push`` frames (and a ``map`` message
    before the first frame that needs a map the client does not hold).

    ``?cursor=``, ``&base=1`` and ``&map=`` as for the long-poll. One frame in flight per
    connection; a send that takes longer than :data:`SEND_TIMEOUT` drops the connection.
    """
    srv: _Server = ws.app.state.owsnb
    gid = ws.path_params["gid"]
    await ws.accept()
    try:
        s = await _run(srv.auth.seat, gid, bearer(ws.headers))
    except Exception as exc:  # noqa: BLE001
        status, body = answer_for(exc, "WebSocket")
        await ws.send_text(json.dumps({"type": "error", "status": status, **body}))
        await ws.close(code=4000 + status if status < 1000 else 4500, reason=body.get("error", ""))
        return
    q = ws.query_params
    cursor, known, base = q.get("cursor"), q.get("map"), q.get("base") == "1"
    closed = asyncio.Event()

    async def receive() -> None:
        try:
            while True:
                msg = await ws.receive_text()
                if msg.strip() == '{"type":"ping"}':
                    await send('{"type":"pong"}')
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            pass
        finally:
            closed.set()

    async def send(text: str) -> None:
        await asyncio.wait_for(ws.send_text(text), SEND_TIMEOUT)

    async def refuse(status: int, error: str, message: str) -> None:
        await send(
            json.dumps({"type": "error", "status": status, "error": error, "message": message})
        )
        await ws.close(code=4000 + status, reason=error)

    reader = asyncio.create_task(receive())
    try:
        with (
            srv.connection(gid, s[1].seat_id, "ws") as conn,
            srv.waiter(gid) as ev,
        ):
            await send(wire.dumps({"type": "hello", **await _run(srv.auth.seat_info, s)}).decode())
            while not closed.is_set():
                if conn.evicted.is_set():
                    await refuse(429, "TooManyConnections", EVICTED)
                    return
                s = srv.auth.refreshed_seat(s)
                if srv.auth.revoked(s):
                    await refuse(401, "AuthError", "this seat's token was revoked")
                    return
                ev.clear()
                frame = await srv.frame(s, cursor, base)
                if frame.data is not None:
                    if frame.map_id != known:
                        await send(frame.map_data.decode("utf-8"))
                        known = frame.map_id
                    await send(frame.text)
                cursor, base = frame.cursor, True
                await _first(3600, ev.wait(), closed.wait(), conn.evicted.wait())
    except TimeoutError:
        log.info("dropped a WebSocket of %s that does not read", gid)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception as exc:  # noqa: BLE001
        answer_for(exc, f"WebSocket of {gid}")
        with contextlib.suppress(Exception):
            await ws.close(code=1011)
    finally:
        reader.cancel()


def make_app(
    authority: Authority, *, max_body: int = MAX_BODY, extra_routes: Sequence[Any] = ()
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
        Route("/", index),
        Route("/health", health),
        Route(g, game_info),
        Route(g + "/", game_info),
        Route(g + "/view", view),
        Route(g + "/events", events),
        Route(g + "/legal", legal),
        Route(g + "/outcome", outcome),
        Route(g + "/export", export),
        Route(g + "/check", check, methods=["POST"]),
        Route(g + "/preview", preview, methods=["POST"]),
        Route(g + "/orders", submit, methods=["POST"]),
        Route(g + "/undo", undo, methods=["POST"]),
        Route(g + "/annotations", annotations_, methods=["GET", "POST"]),
        Route(g + "/changes", changes),
        Route(g + "/seats", seats, methods=["GET", "POST"]),
        Route(g + "/seats/{sid}", seat_one, methods=["PATCH", "DELETE"]),
        Route(g + "/computer", computer, methods=["POST"]),
        WebSocketRoute(g + "/ws", websocket),
        *extra_routes,
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.owsnb = srv
    return app
