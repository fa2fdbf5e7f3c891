"""``owsnb.connect(url, token)``: a seat on a game held by an ``owsnb serve`` authority.

The handle offers the local :class:`~owsnb.kernel.game.Game`'s methods as far as a seat may use
them, and the widgets' seat surface (:mod:`owsnb.widgets.seat`), so ``owsnb.widgets.App(remote)``
and every notebook work unchanged against a remote game — from a Binder session too. The truth
never reaches this process: views, events, legal orders and previews are computed by the
authority for this seat only. ``Game``'s read surface (``state``, ``units``, ``unit``, ``map``,
``state_at``, ``step_to``, ``history``...) answers from the seat's view; ``is_over``/``outcome``
come from the authority; ``fork`` is refused (``can_fork`` is False).

Changes are pushed over a WebSocket (falling back to long-polling where a proxy blocks
WebSockets); the handle reconnects by itself after a network cut or a server restart and catches
up (exactly the changes it missed, or one ``"sync"`` change). Each push carries the view as a
delta from the one the handle holds (:func:`owsnb.server.wire.apply_view_delta`); the map comes
once per version. A handle whose seat was opened in more places than the authority allows is
the oldest one closed, and stops listening (``error`` says why). Subscribers are called on the
notebook's event loop when there is one (so widget updates happen on the kernel's main thread),
else on the listener thread.

Example (against a running server)::

    remote = owsnb.connect("http://127.0.0.1:8765/games/tutorial", token="…")
    remote.view()                      # this seat's SideView
    remote.legal_orders()              # what the seat may order now
    remote.submit("move B-INF-1 0303", state_id=remote.state_id)
    owsnb.widgets.App(remote)
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from owsnb.kernel import codec
from owsnb.kernel.errors import (
    AuthError,
    HistoryError,
    IllegalOrderError,
    OwsnbError,
    UnknownRulesetError,
    UnknownSideError,
)
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation, Change, Submission
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import SideView, renumber
from owsnb.server import wire

__all__ = ["connect", "RemoteGame", "SideSeat", "ConnectionLost"]

log = logging.getLogger("owsnb.client")


class ConnectionLost(OwsnbError):
    """The authority cannot be reached (it may be restarting: the handle reconnects by itself)."""


def _split_link(url: str, token: str | None) -> tuple[str, str]:
    """``http://host/games/ID`` plus a token, or a seat link carrying ``url=`` and ``token=``."""
    parts = urlsplit(url)
    q = parse_qs(parts.query)
    if token is None and "token" in q:
        token = q["token"][0]
    if "url" in q:
        return _split_link(q["url"][0], token)
    if token is None:
        raise AuthError("connect(url, token): a seat token is needed (it is in your seat link)")
    base = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    if "/games/" not in base:
        raise ValueError(f"{url!r} is not a game URL such as http://host:8765/games/tutorial")
    return base, token


def connect(
    url: str,
    token: str | None = None,
    *,
    transport: str = "auto",
    timeout: float = 15.0,
    listen: bool = True,
    headers: dict[str, str] | None = None,
) -> RemoteGame:
    """A seat on a served game.

    Args:
        url: the game's URL (``http://host:8765/games/tutorial``) or a whole seat link.
        token: the seat token (taken from the link if it holds one).
        transport: ``"auto"`` (WebSocket, long-poll if that fails), ``"ws"``, ``"poll"``.
        timeout: seconds to wait for an answer.
        listen: receive pushed changes (``False``: only what you ask for).
        headers: more HTTP headers for every request, e.g. a proxy's credential in front of the
            authority (JupyterHub: ``{"Authorization": "token …"}``); the seat token then goes
            in ``X-Owsnb-Seat``.

    Raises:
        AuthError: the token is missing, wrong or revoked.
        ConnectionLost: nobody answers at *url*.
    """
    base, tok = _split_link(url, token)
    return RemoteGame(
        base, tok, transport=transport, timeout=timeout, listen=listen, headers=headers
    )


class _GenericRules:
    """Presentation hooks of the kernel's base rule set, for a rule set not installed here."""

    def __new__(cls, name: str) -> Any:
        from owsnb.kernel.ruleset import RuleSet

        class Generic(RuleSet):
            pass

        Generic.name = name
        Generic.title = f"{name} (not installed here: generic display)"
        return Generic()


class RemoteGame:
    """A seat on a game held by an authority (see the module docstring).

    Attributes:
        side: the seat's side (``"umpire"`` for the umpire; the watched view for an observer).
        role: ``"umpire"``, ``"side"`` or ``"observer"``.
        ruleset: the rule set, for presentation (legality is decided by the authority).
        game_id, title, sides: the game's.
    """

    def __init__(
        self,
        url: str,
        token: str,
        *,
        transport: str = "auto",
        timeout: float = 15.0,
        listen: bool = True,
        headers: dict[str, str] | None = None,
    ):
        import httpx

        if transport not in ("auto", "ws", "poll"):
            raise ValueError(f"transport is 'auto', 'ws' or 'poll', not {transport!r}")
        self.url = url
        self._token = token
        self._timeout = timeout
        self._transport = transport
        extra = dict(headers or {})
        if any(k.lower() == "authorization" for k in extra):  # a proxy's: the seat goes apart
            self._headers = {**extra, "X-Owsnb-Seat": token, "User-Agent": "owsnb-client"}
        else:
            self._headers = {
                **extra,
                "Authorization": f"Bearer {token}",
                "User-Agent": "owsnb-client",
            }
        self._http = httpx.Client(base_url=url, headers=self._headers, timeout=timeout)
        self._lock = threading.RLock()
        self._maps = wire.MapCache()
        self._subs: list[Callable[[Change], Any]] = []
        self._view: SideView | None = None
        self._view_key: tuple[int, int] = (-1, -1)
        self._pushed: SideView | None = None  # the view of the last push applied ...
        self._pushed_cursor: str | None = None  # ... at this cursor (the base of the next delta)
        self._legal: dict[tuple[str, int], LegalOrders] = {}
        self._past: dict[tuple[int, str | None, int], SideView] = {}
        self._cursor_at: int | None = None
        self._notified = 0
        self._notified_ann: set[tuple[int, str]] = set()
        self._closed = threading.Event()
        self._changed = threading.Condition(self._lock)
        self._ws: Any = None
        self.error: Exception | None = None
        self.connected = False
        info = self._get("")
        self._apply_info(info)
        self._rev = int(info["state_id"])
        self._seq = int(info["seq"])
        self._revs: dict[str, int] = {}  # the umpire's: every side's revision
        self._heard_revisions(info)
        # the sides the umpire handed to the computer, as far as this seat may know (its own
        # side's only, for a side's seat); kept from the info and every push, in their order
        self.computer: dict[str, str] = dict(info.get("computer") or {})
        self._notified = self._rev
        self._cursor = info["cursor"]
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        self._loop_thread = threading.current_thread()
        self._listener: threading.Thread | None = None
        if listen:
            self._listener = threading.Thread(
                target=self._listen, name=f"owsnb-seat-{self.side}", daemon=True
            )
            self._listener.start()

    def _apply_info(self, info: dict[str, Any]) -> None:
        from owsnb.kernel.registry import get_ruleset

        seat = info["seat"]
        self.game_id: str = info["game"]
        self.title: str = info.get("title", "")
        self.seat: dict[str, Any] = seat
        self.role: str = seat["role"]
        self.side: str = seat["side"]
        self.sides: list[str] = list(info["sides"])
        name = info["ruleset"]
        if getattr(getattr(self, "ruleset", None), "name", None) != name:
            try:
                import owsnb.rules  # noqa: F401  (registers the built-in rule sets)

                self.ruleset = get_ruleset(name)
            except UnknownRulesetError:
                warnings.warn(
                    f"rule set {name!r} is not installed here; using generic counters and styles",
                    RuntimeWarning,
                    stacklevel=3,
                )
                self.ruleset = _GenericRules(name)

    def __repr__(self) -> str:
        state = "closed" if self._closed.is_set() else ("live" if self.connected else "connecting")
        label = self.seat.get("label", self.side)
        return f"<RemoteGame {self.game_id} as {label} ({self.role}), state {self._rev}, {state}>"

    def _repr_html_(self) -> str:
        import html

        dot = "#2e7d32" if self.connected else "#999"
        return (
            f"<div class='owsnb-remote'><b>{html.escape(self.title or self.game_id)}</b> — seat "
            f"<b>{html.escape(str(self.seat.get('label', self.side)))}</b> "
            f"({html.escape(self.role)}), "
            f"state {self._rev} <span style='color:{dot}'>●</span> "
            f"<span style='color:#666'>{html.escape(self.url)}</span></div>"
        )

    # -- HTTP ----------------------------------------------------------------------------------
    def _request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
        retries: int = 0,
    ) -> Any:
        import httpx

        if self._closed.is_set():
            raise ConnectionLost("this seat handle is closed")
        p = {k: v for k, v in (params or {}).items() if v is not None}
        for attempt in range(retries + 1):
            try:
                r = self._http.request(
                    method,
                    path,
                    params=p,
                    content=None if body is None else wire.dumps(body),
                    headers={"Content-Type": "application/json"} if body is not None else None,
                )
                break
            except httpx.TransportError as exc:
                if attempt == retries:
                    raise ConnectionLost(
                        f"cannot reach the authority at {self.url}: {exc}"
                    ) from None
                time.sleep(0.3 * (attempt + 1))
        try:
            data = r.json()
        except ValueError:
            data = {"message": r.text[:200]}
        if r.status_code >= 400:
            wire.raise_error(r.status_code, data)
        return data

    def _get(self, path: str, **params: Any) -> Any:
        return self._request("GET", path, params=params, retries=2)

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        return self._request("POST", path, body=body)

    # -- reading -------------------------------------------------------------------------------
    @property
    def state_id(self) -> int:
        """This seat's revision as last heard from the authority (a side's: moved only by what
        it may see, as the local ``game.revision(side)``; the umpire's: the game's)."""
        return self._rev

    @property
    def seq(self) -> int:
        """Events in the history this seat sees the end of, as it numbers them (a side counts the
        events it saw; an observer's end is its horizon)."""
        return self._seq

    def revision(self, side: str | None = None) -> int:
        """The revision *side*'s orders are checked against (``Game.revision``): this seat's own
        (its ``state_id``); the umpire's seat also knows each side's, as last heard.

        Raises:
            AuthError: a side or observer seat asks for another side's.
            UnknownSideError: no such side.
        """
        if side is None or side == self.side:
            return self._rev
        if self.role != "umpire":
            raise AuthError(f"the {self.side} seat knows only its own revision")
        if side not in self.sides:
            raise UnknownSideError.of(side, self.sides)
        with self._lock:
            if side not in self._revs:
                self._heard_revisions(self._get(""))
            return self._revs[side]

    def _heard_revisions(self, data: dict[str, Any]) -> None:
        """Keep the sides' revisions an answer to the umpire carries (``revisions``)."""
        revs = data.get("revisions")
        if isinstance(revs, dict):
            with self._lock:
                for side, r in revs.items():
                    if r >= self._revs.get(side, -1):
                        self._revs[side] = int(r)

    def export(self) -> dict[str, Any]:
        """The whole record as plain data, the dice seed included: the umpire's, once the game is
        over (:meth:`owsnb.kernel.game.Game.export`; ``HistoryError`` before, ``AuthError`` for
        another seat)."""
        return self._get("/export")

    def knowledge(self, side: str | None = None) -> SideView:
        """What *side* (default: this seat's) knows now: its view (as :meth:`view`)."""
        return self.view(side)

    def view(self, side: str | None = None) -> SideView:
        """The seat's view now (the umpire may ask for a side's view)."""
        if side is not None and side != self.side:
            if self.role != "umpire":
                raise AuthError(f"the {self.side} seat sees only its own view")
            return self._decode_view(self._get("/view", side=side), side)
        if self._cursor_at is not None:
            return self.view_at(self._cursor_at)
        with self._changed:
            if self.connected and self._view is not None and self._view_key[0] < self._rev:
                # our own order moved the game on: its push is on its way (cheaper than asking)
                self._changed.wait_for(
                    lambda: self._view_key == (self._rev, self._seq) or not self.connected, 0.5
                )
            if self._view is not None and self._view_key == (self._rev, self._seq):
                return self._view
        data = self._get("/view", map=self._maps.latest)
        v = self._decode_view(data)
        self._heard_revisions(data)
        with self._lock:
            if data["state_id"] >= self._rev:
                self._rev, self._seq = int(data["state_id"]), int(data["seq"])
                self._view, self._view_key = v, (self._rev, self._seq)
        return v

    def _decode_view(self, data: dict[str, Any], side: str | None = None) -> SideView:
        try:
            return wire.decode_view(data, self._maps)
        except KeyError:  # the map was evicted meanwhile: ask again with no map
            again = self._get("/view", at=data.get("seq"), side=side)
            return wire.decode_view(again, self._maps)

    def view_at(self, n: int, side: str | None = None) -> SideView:
        """The view after event *n*, rounded down to the last event this seat saw (the umpire may
        ask for a *side*'s view then).

        Raises:
            HistoryError: *n* is outside the history this seat sees (``0..seq``).
        """
        key = (int(n), side, self._rev)
        hit = self._past.get(key)
        if hit is None:
            data = self._get("/view", at=int(n), map=self._maps.latest, side=side)
            hit = self._decode_view(data, side)
            if len(self._past) > 64:
                self._past.clear()
            self._past[key] = hit
        return hit

    # -- the local Game's read surface, on this seat's view ------------------------------------
    #: a seat never holds the truth (``owsnb.analysis.history`` asks for :meth:`history`)
    holds_truth = False
    #: a seat cannot branch the shared game (the History panel hides "Fork here")
    can_fork = False

    @property
    def state(self) -> SideView:
        """What this seat knows now (or at the cursor after :meth:`step_to`): its
        :class:`~owsnb.kernel.view.SideView`, which has the read API of a ``GameState``."""
        return self.view()

    @property
    def initial(self) -> SideView:
        """What this seat knew at the start (its view after event 0)."""
        return self.view_at(0)

    def state_at(self, n: int) -> SideView:
        """What this seat knew after event *n* (``Game.state_at`` for a seat: its view then).

        Raises:
            HistoryError: *n* is outside the history this seat sees (``0..seq``).
        """
        return self.view_at(n)

    @property
    def units(self) -> Any:
        """The units this seat sees (own units in full; enemies as detected)."""
        return self.state.units

    @property
    def map(self) -> Any:
        return self.state.map

    def unit(self, unit_id: str) -> Any:
        """A unit this seat sees (``KeyError`` for one it has not detected)."""
        return self.state.unit(unit_id)

    def hex(self, ref: Any) -> Hex:
        """Resolve a hex label such as ``"0304"`` on this game's map."""
        return self.state.map.hex(ref)

    def is_over(self) -> bool:
        """Has the game ended? (decided by the authority on the truth)"""
        return bool(self._get("/outcome")["over"])

    def outcome(self) -> Any:
        """Who won: the rule set's outcome, decided by the authority. A side seat learns it once
        the game is over (``None`` before: the standing may rest on hidden facts); the umpire at
        any time."""
        return wire.decode_value(self._get("/outcome")["outcome"])

    @property
    def cursor(self) -> int:
        """The event count the seat's displayed state reflects (see :meth:`step_to`)."""
        return self._seq if self._cursor_at is None else self._cursor_at

    @property
    def at_head(self) -> bool:
        """False after :meth:`step_to` moved this handle's cursor back into the history."""
        return self._cursor_at is None

    @property
    def meta(self) -> dict[str, Any]:
        """Facts about the game as served (no seed: a seat never learns the dice)."""
        return {"url": self.url, "game": self.game_id, "title": self.title, "seat": self.seat}

    @property
    def annotations(self) -> _Annotations:
        """Annotations this seat may read: a list, like ``Game.annotations``, that may also be
        called, like the seat surface's ``annotations()``."""
        return _Annotations(wire.decode_annotation(a) for a in self._get("/annotations"))

    def history(self, *, side: str | None = None, every: str = "step") -> Any:
        """The history this seat saw as an ``xarray.Dataset`` (see
        :mod:`owsnb.server.seat_history`): the same columns as ``Game.history``, built from the
        seat's views only.

        Args:
            side: the seat's own side (default); the umpire's seat may name a side.
            every: snapshot after every ``"event"``, ``"step"`` or ``"turn"``.
        """
        from owsnb.server.seat_history import seat_history

        if side in (None, self.side):
            return seat_history(self, every=every)
        if self.role != "umpire":
            raise AuthError(f"the {self.side} seat sees only its own history")
        return seat_history(_SideOf(self, side), every=every)

    @property
    def clock(self) -> Any:
        return self.view().clock

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this seat may see."""
        return wire.decode_events(self._get("/events")["events"])

    def log(self, side: str | None = None, kinds: Iterable[str] | None = None) -> list[Event]:
        """Events this seat may see (optionally only some kinds), like ``Game.log``."""
        if side not in (None, self.side) and self.role != "umpire":
            raise AuthError(f"the {self.side} seat reads only its own log")
        ks = set(kinds) if kinds is not None else None
        evs = self.events
        end = self.cursor
        if side not in (None, self.side):  # the umpire reads a side's log, in its numbers
            evs = renumber([e for e in evs if e.seq <= end], side)
            end = len(evs)
        return [e for e in evs if e.seq <= end and (ks is None or e.kind in ks)]

    def legal_orders(self, side: str | None = None) -> LegalOrders:
        """What *side* (default: this seat's) may order now (``order in legal`` asks the server)."""
        side = side or self.side
        key = (side, self._rev)
        hit = self._legal.get(key)
        if hit is not None:
            return hit
        data = self._get("/legal", side=side)
        legal = wire.decode_legal(data, self._is_legal)
        if len(self._legal) > 16:
            self._legal.clear()
        self._legal[(side, int(data.get("state_id", self._rev)))] = legal
        return legal

    def _is_legal(self, order: Order) -> bool:
        try:
            self.check(order)
            return True
        except (IllegalOrderError, AuthError):
            return False

    def _order_text(self, order: Order | str) -> str:
        if isinstance(order, Order):
            return str(order)
        if not isinstance(order, str):
            raise TypeError(f"an order is an Order or its text, not {type(order).__name__}")
        return order

    def check(self, order: Order | str) -> dict[str, Any]:
        """Validate without committing; returns the bound arguments or raises IllegalOrderError."""
        from owsnb.kernel import codec

        return dict(codec.decode(self._post("/check", {"order": self._order_text(order)})["args"]))

    def preview(self, order: Order | str) -> Any:
        """The exact outcome distribution of *order*, computed by the authority on the view."""
        return wire.decode_value(
            self._post("/preview", {"order": self._order_text(order)})["preview"]
        )

    # -- changing ------------------------------------------------------------------------------
    def submit(
        self, order: Order | str, *, state_id: int | None = None, seat: str | None = None
    ) -> Submission:
        """Have the authority validate, adjudicate and commit *order* (as ``Game.submit``).

        Args:
            order: an :class:`Order` or its text.
            state_id: this seat's revision the order was prepared against (refused if stale:
                this seat saw something since).
            seat: the umpire's seat may name a side: *state_id* is then that side's revision
                and the submission is told as to that side (its events, its numbers).

        Raises:
            IllegalOrderError: refused by the rule set (with the rule); nothing changed.
            StaleStateError: *state_id* is not current (this seat saw something since).
            AuthError: this seat may not give that side's orders.
        """
        text = self._order_text(order)
        if self._cursor_at is not None:
            raise HistoryError(
                f"this handle is rewound to event {self._cursor_at}; call step_to({self._seq}) "
                "to return to the present"
            )
        body: dict[str, Any] = {"order": text, "state_id": state_id}
        if seat is not None and seat != self.side:
            body["seat"] = seat
        data = self._post("/orders", body)
        self._heard_revisions(data)
        events = wire.decode_events(data["events"])
        sub = Submission(
            Order.parse(data["order"]),
            events,
            wire.decode_value(data["result"]),
            int(data["state_id"]),
        )
        if "seat" not in body:
            self._advance(sub.state_id, Change("commit", sub.state_id, events), data.get("seq"))
        return sub

    def undo(self) -> tuple[Event, ...]:
        """Take back the last submission (umpire only). Returns the undone events."""
        data = self._post("/undo", {})
        self._heard_revisions(data)
        removed = wire.decode_events(data["events"])
        rev = int(data["state_id"])
        self._advance(rev, Change("undo", rev, removed), data.get("seq"))
        return removed

    def annotate(self, text: str, **anchors: Any) -> Annotation:
        """Write an annotation (``turn``, ``hex``, ``unit``, ``side``, ``seq``, ``tags``); a side
        seat writes notes for its own side."""
        body: dict[str, Any] = {"text": text}
        for k, v in anchors.items():
            if k == "author":
                continue
            if isinstance(v, Hex):
                v = [v.q, v.r]
            elif isinstance(v, (tuple, set, frozenset)):
                v = list(v)
            body[k] = v
        ann = wire.decode_annotation(self._post("/annotations", body))
        with self._lock:
            self._notified_ann.add((ann.id, ann.text))
        self._emit(Change("annotate", self._rev, annotation=ann))
        return ann

    def fork(self, at: int | None = None) -> Any:
        """Refused (local only): a fork replays the truth from the start, and a seat never holds
        the truth — only its own view — so it cannot branch the shared game (``can_fork`` is
        False; the History panel hides its "Fork here" button). The umpire can fork a copy of
        the game on the server's machine (``owsnb.load`` of the store, then ``Game.fork``).

        Raises:
            HistoryError: always.
        """
        raise HistoryError(
            "a remote seat cannot fork the shared game: a fork replays the truth, and a seat "
            "holds only its own view; ask the umpire for a what-if branch (can_fork is False)"
        )

    def step_to(self, n: int) -> SideView:
        """Show this seat's game as it was after event *n* (``state``, ``view()``, ``units``...
        follow; ``step_to(seq)`` returns to the present). Only this handle moves — never the
        shared game — and its orders are refused while rewound, as with ``Game.step_to``.
        Returns the view then."""
        view = self.view_at(n)
        self._cursor_at = None if int(n) >= self._seq else int(n)
        self._emit(Change("step", self._rev))
        return view

    def as_side(self, side: str) -> RemoteGame | SideSeat:
        """This seat (*side* is its own), or — for the umpire's seat — a seat looking through
        *side*'s eyes (``App(remote, seat="blue")``, like ``App(game, seat="blue")``): that side's
        view, legal orders, events and notes; orders given as that side.

        Raises:
            AuthError: a side or observer seat asks for another side.
            KeyError: no such side.
        """
        if side == self.side:
            return self
        if self.role != "umpire":
            raise AuthError(f"the {self.side} seat cannot look through {side}'s eyes")
        if side not in self.sides:
            raise UnknownSideError.of(side, self.sides)
        return SideSeat(self, side)

    # -- seats (umpire) ------------------------------------------------------------------------
    def seats(self) -> list[dict[str, Any]]:
        """Every seat of the game (umpire only; no tokens)."""
        return self._get("/seats")

    def add_seat(
        self, role: str, side: str = UMPIRE, *, delay: int = 0, label: str = ""
    ) -> dict[str, Any]:
        """A new seat (umpire only); the answer holds its token, shown this once."""
        return self._post("/seats", {"role": role, "side": side, "delay": delay, "label": label})

    def revoke(self, seat_id: str) -> dict[str, Any]:
        """Revoke a seat's token (umpire only)."""
        return self._request("DELETE", f"/seats/{seat_id}")

    def set_observer(
        self, seat_id: str, *, delay: int | None = None, side: str | None = None
    ) -> dict[str, Any]:
        """Change an observer's delay (events behind) or the view it watches (umpire only)."""
        body = {k: v for k, v in {"delay": delay, "side": side}.items() if v is not None}
        return self._request("PATCH", f"/seats/{seat_id}", body=body)

    def set_computer(self, side: str, bot: str | None) -> dict[str, Any]:
        """Hand *side* to the computer (*bot*: its label, e.g. ``"greedy"``) or take it back
        (``None``), umpire only: the authority then refuses that side's orders from its own
        seats, and tells them (a note for that side; :attr:`computer` on their handles). The
        bot itself plays through this seat (``remote.as_side(side)``, e.g. an
        :class:`owsnb.bots.Autopilot`): the umpire's console does both."""
        answer = self._post("/computer", {"side": side, "bot": bot})
        with self._lock:
            self.computer = dict(answer.get("computer") or {})
        return answer

    # -- changes -------------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Change], Any]) -> Callable[[], None]:
        """Call *callback(change)* after every change this seat may see. Returns an unsubscribe
        function. A ``"sync"`` change means "reload everything" (after a reconnect)."""
        self._subs.append(callback)

        def unsubscribe() -> None:
            if callback in self._subs:
                self._subs.remove(callback)

        return unsubscribe

    def wait(self, state_id: int | None = None, timeout: float = 10.0) -> bool:
        """Block until this seat has heard of revision *state_id* (default: any change).
        Returns False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            target = self._rev + 1 if state_id is None else state_id
            while self._rev < target:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _advance(self, rev: int, change: Change, seq: int | None = None) -> None:
        """Our own commit/undo: move on (to revision *rev*, *seq* events) and tell subscribers
        (once, whoever hears first)."""
        with self._lock:
            if rev > self._rev:
                self._rev = rev
                if seq is not None:
                    self._seq = int(seq)
                self._changed.notify_all()
            if rev <= self._notified:
                return
            self._notified = rev
        self._emit(change)

    def _emit(self, change: Change) -> None:
        if (
            self._loop is not None
            and threading.current_thread() is not self._loop_thread
            and not self._loop.is_closed()
        ):
            try:
                self._loop.call_soon_threadsafe(self._notify, change)
                return
            except RuntimeError:
                pass
        self._notify(change)

    def _notify(self, change: Change) -> None:
        for fn in list(self._subs):
            try:
                fn(change)
            except Exception as exc:  # noqa: BLE001 - a broken display must not stop the seat
                warnings.warn(
                    f"owsnb subscriber {fn!r} failed: {exc!r}", RuntimeWarning, stacklevel=2
                )

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "hello":
            self.connected = True
            if "state_id" in msg:
                self.computer = dict(msg.get("computer") or {})
            return
        if kind == "error":
            wire.raise_error(int(msg.get("status", 500)), msg)
        if kind == "map":
            self._maps.put(msg["map_id"], msg["map"])
            return
        if kind != "push":
            return
        with self._lock:
            base = msg.get("base")
            if base is not None and (self._pushed is None or base != self._pushed_cursor):
                held, self._pushed, self._pushed_cursor = self._pushed_cursor, None, None
                raise _Resync(f"a delta from {base} reached a handle at {held}")
            m = self._maps.maps.get(msg["map_id"])
            if m is None:
                self._pushed = self._pushed_cursor = None
                raise _Resync(f"map {msg['map_id']} was neither sent nor kept")
            if "view" in msg:
                v = replace(codec.decode(msg["view"]), map=m)
            else:
                v = wire.apply_view_delta(self._pushed, msg.get("delta"))  # type: ignore[arg-type]
                if v.map is not m:
                    v = replace(v, map=m)
            self._pushed, self._pushed_cursor = v, msg["cursor"]
            self._cursor = msg["cursor"]
            rev, seq = int(msg["state_id"]), int(msg["seq"])
            self._heard_revisions(msg)
            self.computer = dict(msg.get("computer") or {})
            if rev >= self._rev:
                self._rev, self._seq = rev, seq
                self._view, self._view_key = v, (rev, seq)
            emit = []
            for c in msg.get("changes", ()):
                change = Change(
                    c["kind"],
                    int(c["state_id"]),
                    wire.decode_events(c.get("events")),
                    None
                    if c.get("annotation") is None
                    else wire.decode_annotation(c["annotation"]),
                )
                if change.kind in ("commit", "undo"):
                    if change.state_id <= self._notified:
                        continue
                    self._notified = change.state_id
                elif change.kind == "annotate" and change.annotation is not None:
                    key = (change.annotation.id, change.annotation.text)
                    if key in self._notified_ann:
                        continue
                    self._notified_ann.add(key)
                emit.append(change)
            self._changed.notify_all()
        for change in emit:
            self._emit(change)

    def _query(self) -> dict[str, str]:
        """Where this handle stands, for a (re)connection: its cursor, whether it holds the view
        pushed at that cursor (the next push is then a delta), the map it holds."""
        q = {"cursor": self._cursor, "map": self._maps.latest}
        if self._pushed is not None and self._pushed_cursor == self._cursor:
            q["base"] = "1"
        return {k: v for k, v in q.items() if v}

    def _listen(self) -> None:
        """The listener thread: WebSocket (or long-poll) with reconnection and catch-up."""
        mode = "poll" if self._transport == "poll" else "ws"
        pause = 0.1
        while not self._closed.is_set():
            try:
                if mode == "ws":
                    self._ws_session()
                else:
                    self._poll_session()
                pause = 0.1
            except (AuthError, wire.TooManyConnections) as exc:
                self.error = exc
                self.connected = False
                with self._lock:  # no more pushes: views are asked for (and refused if revoked)
                    self._view = self._pushed = self._pushed_cursor = None
                log.warning("seat %s: %s; no more updates", self.side, exc)
                return
            except _Resync as exc:
                log.info("seat %s: %s; reconnecting for the whole view", self.side, exc)
                continue
            except _NoWebSocket as exc:
                if self._transport == "ws":
                    self.error = exc
                    log.warning("seat %s: %s", self.side, exc)
                else:
                    log.info("WebSocket refused (%s); falling back to long-polling", exc)
                    mode = "poll"
                    continue
            except Exception as exc:  # noqa: BLE001 - network trouble: reconnect
                self.error = exc
            self.connected = False
            if self._closed.wait(pause):
                return
            pause = min(pause * 2, 2.0)

    def _ws_session(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidStatus
        from websockets.sync.client import connect as ws_connect

        parts = urlsplit(self.url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        query = urlencode(self._query())
        url = urlunsplit((scheme, parts.netloc, parts.path + "/ws", query, ""))
        try:
            ws = ws_connect(
                url,
                additional_headers=self._headers,
                open_timeout=self._timeout,
                max_size=64 * 2**20,
                ping_interval=20,
                ping_timeout=20,
            )
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status in (401, 403):
                raise AuthError(f"the authority refused this seat ({status})") from None
            raise _NoWebSocket(f"HTTP {status} instead of a WebSocket") from None
        self._ws = ws
        try:
            with ws:
                for raw in ws:
                    if self._closed.is_set():
                        return
                    self._handle(json.loads(raw))
        except ConnectionClosed:
            pass
        finally:
            self._ws = None

    def _poll_session(self) -> None:
        import httpx

        with httpx.Client(
            base_url=self.url, headers=self._headers, timeout=self._timeout + 30
        ) as http:
            while not self._closed.is_set():
                r = http.get("/changes", params={**self._query(), "timeout": 20})
                data = r.json()
                if r.status_code >= 400:
                    wire.raise_error(r.status_code, data)
                self.connected = True
                for m in data["messages"]:
                    self._handle(m)

    def close(self) -> None:
        """Stop listening and release connections."""
        self._closed.set()
        ws = self._ws
        if ws is not None:
            try:
                ws.close()
            except Exception:  # noqa: BLE001
                pass
        if self._listener is not None and self._listener is not threading.current_thread():
            self._listener.join(timeout=1)  # a long-poll in flight ends by itself (daemon thread)
        self._http.close()
        self.connected = False

    def __enter__(self) -> RemoteGame:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self._closed.set()
        except Exception:  # noqa: BLE001
            pass


class _Annotations(list):
    """A list of annotations that may also be called (``remote.annotations()`` is the seat
    surface, ``remote.annotations`` the ``Game`` attribute)."""

    def __call__(self) -> list[Annotation]:
        return list(self)


class SideSeat:
    """The umpire's remote seat looking through one side's eyes (see :meth:`RemoteGame.as_side`):
    the widgets' seat surface (:mod:`owsnb.widgets.seat`) for *side*, every answer asked of the
    authority by the umpire's seat and cut to *side* (views, events, notes), in *side*'s numbers
    (its ``state_id`` is the side's revision, its views count the events the side saw; a change
    the side cannot see is not relayed), as ``LocalSeat(game, side)``."""

    can_fork = False

    def __init__(self, remote: RemoteGame, side: str):
        self.remote, self.side = remote, side
        self.ruleset = remote.ruleset
        self.role = "side"

    def __repr__(self) -> str:
        return f"<SideSeat {self.side} through {self.remote!r}>"

    @property
    def state_id(self) -> int:
        """*side*'s revision (its orders are checked against it)."""
        return self.remote.revision(self.side)

    @property
    def sides(self) -> list[str]:
        return self.remote.sides

    def view(self) -> SideView:
        """What *side* may know now."""
        return self.remote.view(self.side)

    def view_at(self, n: int) -> SideView:
        """*side*'s view after event *n* (rounded down to an event it saw)."""
        return self.remote.view_at(n, self.side)

    def legal_orders(self, side: str | None = None) -> LegalOrders:
        return self.remote.legal_orders(self._actor(side))

    def check(self, order: Order | str) -> dict[str, Any]:
        return self.remote.check(self._own(order))

    def preview(self, order: Order | str) -> Any:
        return self.remote.preview(self._own(order))

    def submit(self, order: Order | str, *, state_id: int | None = None) -> Submission:
        """Commit *order* as *side* (*state_id*: *side*'s revision); the submission holds only the
        events *side* may see, numbered as it numbers them, and *side*'s revision after it."""
        return self.remote.submit(self._own(order), state_id=state_id, seat=self.side)

    def undo(self) -> tuple[Event, ...]:
        return self._visible(self.remote.undo())

    def annotate(self, text: str, **anchors: Any) -> Annotation:
        """Write a note for *side* (``side=None``: for everyone)."""
        anchors.setdefault("side", self.side)
        if anchors["side"] not in (None, self.side):
            raise AuthError(f"the {self.side} seat cannot write {anchors['side']}'s annotations")
        return self.remote.annotate(text, **anchors)

    def annotations(self) -> list[Annotation]:
        return [a for a in self.remote.annotations if a.side in (None, self.side)]

    def subscribe(self, callback: Callable[[Change], Any]) -> Callable[[], None]:
        """*callback(change)* after every change, its events cut to *side*."""

        def relay(change: Change) -> None:
            ann = change.annotation
            if ann is not None and ann.side not in (None, self.side):
                return
            events = self._visible(change.events)
            if change.kind in ("commit", "undo") and change.events and not events:
                return  # nothing this side may see: it hears nothing
            callback(Change(change.kind, self.state_id, events, ann))

        return self.remote.subscribe(relay)

    def fork(self, at: int | None = None) -> Any:
        """Refused, as :meth:`RemoteGame.fork`."""
        return self.remote.fork(at)

    def _actor(self, side: str | None) -> str:
        side = self.side if side is None else side
        if side != self.side:
            raise AuthError(f"the {self.side} seat cannot act for {side}")
        return side

    def _own(self, order: Order | str) -> Order:
        o = order if isinstance(order, Order) else Order.parse(order, side=self.side)
        if o.side != self.side:
            raise AuthError(f"the {self.side} seat cannot give {o.side}'s orders")
        return o

    def _visible(self, events: Iterable[Event]) -> tuple[Event, ...]:
        return tuple(e for e in events if e.visible(self.side))


class _SideOf:
    """The umpire's seat looking at one side's views (for :meth:`RemoteGame.history`)."""

    def __init__(self, remote: RemoteGame, side: str):
        self._remote, self.side = remote, side
        self.ruleset = remote.ruleset
        self.cursor = len(remote.log(side))  # the side's own count

    def log(self) -> list[Event]:
        return self._remote.log(self.side)

    def view_at(self, n: int) -> SideView:
        return self._remote.view_at(n, self.side)


class _Resync(Exception):
    """A push does not fit the view this handle holds: reconnect and take the whole view."""


class _NoWebSocket(Exception):
    """The server answered the WebSocket handshake with plain HTTP (a proxy, an old server)."""


if (
    TYPE_CHECKING
):  # the architecture's promise (the same methods as the local Game), checked by mypy
    from owsnb.kernel.surface import GameSurface

    def _remote(game: RemoteGame) -> GameSurface:
        return game
