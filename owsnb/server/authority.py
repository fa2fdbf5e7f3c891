"""The authority: the one process that holds the truth of served games.

An :class:`Authority` owns an event store and the games in it. Every request names a game and
carries a seat token; the authority finds the seat, checks what the seat may do, runs the kernel
:class:`~owsnb.kernel.game.Game` (which validates every order with the rule set and appends its
events to the store in one transaction) and answers with only what that seat may see: its side's
view, the events visible to it, annotations it may read. Nothing here knows about HTTP; the ASGI
app (:mod:`owsnb.server.app`) calls these methods from worker threads.

Concurrency: each game has a lock, so submissions to one game are serialised; a submission names
the ``state_id`` it was prepared against and a stale one is refused, never merged. Several
authority processes may share a PostgreSQL store: before acting on a game, a process compares its
revision with the store's and reloads if the store moved on, and the store's unique
``(game, revision)`` key refuses the loser of any remaining race (which then reloads and answers
"stale"). Other processes' writes also arrive as ``NOTIFY`` messages (:meth:`Authority.reload`).

Every change is kept in a short per-game ring (a **cursor** is ``"<boot>:<tick>"``), so a seat that
reconnects gets exactly the changes it missed, each cut down for it, or one ``"sync"`` change when
the ring no longer reaches back (or the authority restarted).

Pushes (:meth:`Authority.push`) are **frames** built from the seat's view: the changes the seat may
see since its cursor and the view as a delta from the view it holds (or whole, when it holds none
or is too far behind). A frame is encoded once per seat-view (role, side watched, delay) and
cursor, and shared by every connection in the same place; a seat that would receive nothing new
gets no frame. The numbers a frame carries (``state_id``, ``seq``) come from one method,
:meth:`Authority.numbers`.

Example:
    >>> import tempfile, pathlib
    >>> from owsnb.store import open_store
    >>> from owsnb.kernel.registry import register_ruleset
    >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
    >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> auth = Authority(open_store(tmp / "seminar.owsnb"))
    >>> created = auth.create_game(SCENARIO, seed=11)
    >>> sorted(created.tokens)
    ['blue', 'observer', 'red', 'umpire']
    >>> blue = auth.seat(created.game_id, created.tokens["blue"])
    >>> auth.submit(blue, "move B-INF-1 0303")["state_id"]
    1
    >>> auth.submit(blue, "red: done")
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.AuthError: the blue seat cannot give red's orders
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import owsnb.rules  # noqa: F401  (registers the built-in rule sets, e.g. to resume an OWS game)
from owsnb.kernel import codec
from owsnb.kernel.errors import HistoryError, StaleStateError, StoreError
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation, Change, Game
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import SideView, side_view
from owsnb.server import wire
from owsnb.server.seats import Seat, SeatTable, auth_error
from owsnb.store.base import EventStore, NoSuchGame

__all__ = ["Authority", "ServedGame", "CreatedGame", "DEFAULT_OBSERVERS"]

log = logging.getLogger("owsnb.server")

DEFAULT_OBSERVERS: tuple[tuple[str, int], ...] = (("umpire", 20),)
"""Observer seats a new game gets: (view, delay in events) — the umpire's view, 20 events behind."""

RING = 512
"""How many recent changes a game keeps for reconnecting seats."""

SEAT_VIEWS = 16
"""How many recent pushed views a game keeps per seat-view, to send the next push as a delta (a
client further behind gets the whole view)."""

_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
"""What a game id may look like; anything else is an unknown game (never a store query)."""

UNKNOWN_SEAT = "unknown seat token for this game"
NO_TOKEN = "no seat token: send 'Authorization: Bearer <token>' (the token from your seat link)"


@dataclass(frozen=True)
class Frame:
    """One push for the seats of one seat-view at one cursor, encoded once and shared.

    ``data`` is the encoded ``{"type": "push"}`` message (``None``: nothing new for this seat),
    ``body`` the same before encoding (for tests that scan what leaves), ``cursor`` where the
    receiver stands after it, ``map_id``/``map_data`` the map it needs (sent apart, once per
    version per connection)."""

    cursor: str
    data: bytes | None
    map_id: str
    map_data: bytes
    body: Any = None

    @functools.cached_property
    def text(self) -> str | None:
        """The message as text (decoded once, for every connection)."""
        return None if self.data is None else self.data.decode("utf-8")


def view_key(seat: Seat) -> tuple[str, str, int]:
    """What a seat sees depends on this only: its role, the side it watches and its delay."""
    return (seat.role, seat.view_side, seat.delay)


@dataclass
class CreatedGame:
    """A new served game and the tokens of its seats (the only time tokens exist in clear).

    ``tokens`` maps a seat label (``"umpire"``, each side, ``"observer"``...) to its token;
    ``seats`` maps the same labels to :class:`~owsnb.server.seats.Seat` records.
    """

    game_id: str
    title: str
    seats: dict[str, Seat] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"<CreatedGame {self.game_id}: seats {', '.join(self.seats)}>"


class ServedGame:
    """One game as the authority holds it: the kernel game, its seats, its lock and change ring."""

    def __init__(self, game_id: str, game: Game, seats: SeatTable):
        self.game_id = game_id
        self.game = game
        self.seats = seats
        self.lock = threading.RLock()
        self.tick = 0
        self.ring: deque[tuple[int, Change]] = deque(maxlen=RING)
        self._views: dict[tuple[str, int, int], SideView] = {}
        # per seat-view: tick -> (the view pushed then, the numbers it carried)
        self.pushed: dict[tuple, OrderedDict[int, tuple[SideView, dict[str, Any]]]] = {}
        # frames of the current tick: (seat-view, base tick, has base) -> Frame
        self.frames: dict[tuple, Frame] = {}
        self.frames_tick = -1

    def horizon(self, seat: Seat) -> int:
        """The last event the seat may see (observers are ``delay`` events behind)."""
        return max(0, self.game.seq - seat.delay)

    def view_for(self, seat: Seat, n: int | None = None) -> SideView:
        """The seat's view after *n* events (default: its horizon)."""
        g = self.game
        h = self.horizon(seat) if n is None else n
        if h == g.seq:
            return g.view(seat.view_side)
        key = (seat.view_side, g.state_id, h)
        v = self._views.get(key)
        if v is None:
            v = side_view(g.state_at(h), seat.view_side, g.ruleset, g.events[:h])
            if len(self._views) > 64:
                self._views.clear()
            self._views[key] = v
        return v


def may_read(seat: Seat, ann: Annotation, horizon: int) -> bool:
    """May *seat* read *ann*? The umpire reads all; others read public notes (``side=None``) and
    their side's, and observers only those anchored within their horizon."""
    if seat.is_umpire:
        return True
    if seat.role == "observer" and ann.seq > horizon:
        return False
    return seat.view_side == UMPIRE or ann.side in (None, seat.view_side)


class Authority:
    """Serves the games of one event store to their seats.

    Args:
        store: the :class:`~owsnb.store.base.EventStore` (SQLite or PostgreSQL).
        shared: other processes may write to the store too (default: true for PostgreSQL), so
            check the store's revision before acting.
    """

    def __init__(self, store: EventStore, *, shared: bool | None = None):
        self.store = store
        self.shared = store.url.startswith("postgres") if shared is None else shared
        self.boot = secrets.token_hex(4)
        self._games: dict[str, ServedGame] = {}
        self._lock = threading.Lock()
        self.on_change: list[Callable[[str], Any]] = []

    def __repr__(self) -> str:
        return f"<Authority {self.store!r}: {len(self._games)} games loaded>"

    # -- games ---------------------------------------------------------------------------------
    def create_game(
        self,
        scenario: Any,
        *,
        seed: int | None = None,
        game_id: str | None = None,
        options: Mapping[str, Any] | None = None,
        observers: Iterable[tuple[str, int]] = DEFAULT_OBSERVERS,
    ) -> CreatedGame:
        """Create a game from a scenario (file, bundled name, dict or ``Scenario``) with a seat
        for the umpire, one per side and the given observers (``(view, delay)`` pairs).

        The game id is the scenario id (``tutorial``, then ``tutorial-2``...) unless given.
        """
        from owsnb.scenario.loader import Scenario, build_state, load_scenario

        scn = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        if seed is None:
            seed = scn.spec.seed if scn.spec.seed is not None else secrets.randbits(32)
        state, _rs = build_state(scn, seed, options=options)
        table = SeatTable({})
        created = CreatedGame("", scn.spec.title or scn.spec.id)
        plan = [("umpire", "umpire", UMPIRE, 0)] + [(s, "side", s, 0) for s in state.sides]
        obs = list(observers)
        for i, (view, delay) in enumerate(obs):
            plan.append(
                ("observer" if len(obs) == 1 else f"observer-{i + 1}", "observer", view, int(delay))
            )
        meta: dict[str, Any] = {
            "seed": seed,
            "scenario": scn.spec.id,
            "title": created.title,
            "served": True,
        }
        for label, role, side, delay in plan:
            seat, token = table.issue(role, side=side, delay=delay, label=label, sides=state.sides)
            created.seats[label], created.tokens[label] = seat, token
            meta.update(table.meta_for(seat))
        base = game_id or scn.spec.id
        for n in range(1, 1000):
            gid = base if n == 1 else f"{base}-{n}"
            try:
                self.store.create_game(gid, state, meta)
                break
            except StoreError as exc:
                if game_id is not None or "already exists" not in str(exc):
                    raise
        else:  # pragma: no cover - a thousand games of one scenario
            raise StoreError(f"too many games named {base!r}")
        created.game_id = gid
        return created

    def game_ids(self) -> list[str]:
        """Ids of every game in the store."""
        return [g["id"] for g in self.store.games()]

    def served(self, game_id: str) -> ServedGame:
        """The game (loaded on first use; caught up with the store if it is shared).

        Raises:
            StoreError: no such game (``"no game"``) or the store failed.
        """
        with self._lock:
            sg = self._games.get(game_id)
            if sg is None:
                sg = self._load(game_id)
                self._games[game_id] = sg
                return sg
        if self.shared:
            self._catch_up(sg)
        return sg

    def _load(self, game_id: str) -> ServedGame:
        rec = self.store.load(game_id)
        rs = get_ruleset(rec.ruleset)
        game = Game(
            rs,
            rec.initial,
            rec.events,
            sink=self.store.sink(game_id),
            rev=rec.rev,
            annotations=rec.annotations,
            meta={k: v for k, v in rec.meta.items() if not k.startswith("seat:")},
        )
        return ServedGame(game_id, game, SeatTable(rec.meta))

    def _head(self, game_id: str) -> tuple[int, dict[str, Any]]:
        head = getattr(self.store, "head", None)
        if head is not None:
            return head(game_id)
        for g in self.store.games():
            if g["id"] == game_id:
                return int(g["rev"]), dict(g["meta"])
        raise NoSuchGame(f"no game {game_id!r}")

    def _catch_up(self, sg: ServedGame) -> None:
        """Reload *sg* if another process moved the store on; refresh its seats."""
        with sg.lock:
            rev, meta = self._head(sg.game_id)
            sg.seats.load(meta)
            if rev != sg.game.state_id:
                self._reload_locked(sg)

    def reload(self, game_id: str) -> None:
        """Another process wrote to *game_id* (``"*"``: maybe to any game): catch up and tell the
        seats what changed."""
        with self._lock:
            targets = list(self._games.values()) if game_id == "*" else [self._games.get(game_id)]
        for sg in targets:
            if sg is None:
                continue
            with sg.lock:
                try:
                    rev, meta = self._head(sg.game_id)
                    sg.seats.load(meta)
                    self._reload_locked(sg, force=True)
                except StoreError as exc:
                    log.warning("could not reload %s: %s", sg.game_id, exc)
            self._wake(sg.game_id)

    def _reload_locked(self, sg: ServedGame, force: bool = False) -> None:
        old = sg.game
        fresh = self._load(sg.game_id)
        sg.seats = fresh.seats
        new = fresh.game
        old_ev, new_ev = old.events, new.events
        changes: list[Change] = []
        if new.state_id != old.state_id:
            n = len(old_ev)
            if len(new_ev) > n and new_ev[:n] == old_ev:
                changes.append(Change("commit", new.state_id, new_ev[n:]))
            elif len(new_ev) < n and old_ev[: len(new_ev)] == new_ev:
                changes.append(Change("undo", new.state_id, old_ev[len(new_ev) :]))
            else:
                changes.append(Change("sync", new.state_id))
        known = {a.id: a for a in old.annotations}
        for a in new.annotations:
            if known.get(a.id) != a:
                changes.append(Change("annotate", new.state_id, annotation=a))
        if not changes and not force:
            return
        sg.game = new
        sg._views.clear()
        for c in changes:
            self._record(sg, c, wake=False)

    def _record(self, sg: ServedGame, change: Change, wake: bool = True) -> None:
        sg.tick += 1
        sg.ring.append((sg.tick, change))
        if wake:
            self._wake(sg.game_id)

    def _wake(self, game_id: str) -> None:
        for fn in list(self.on_change):
            try:
                fn(game_id)
            except Exception:  # noqa: BLE001 - a listener must not break the authority
                log.exception("change listener failed")

    # -- seats ---------------------------------------------------------------------------------
    def seat(self, game_id: str, token: str | None) -> tuple[ServedGame, Seat]:
        """The game and the seat holding *token*.

        An unknown game answers exactly as an unknown token of a known game (so nobody can list
        the games by trying ids).

        Raises:
            AuthError: missing, unknown or revoked token, or no such game (HTTP 401).
            StoreError: the store failed (HTTP 503).
        """
        if not token:
            raise auth_error(NO_TOKEN)
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise auth_error(UNKNOWN_SEAT)
        try:
            sg = self.served(game_id)
        except NoSuchGame:
            raise auth_error(UNKNOWN_SEAT) from None
        return sg, sg.seats.authenticate(token)

    @staticmethod
    def _umpire(seat: Seat, what: str) -> None:
        if not seat.is_umpire:
            raise auth_error(f"only the umpire may {what}", 403)

    def seat_info(self, s: tuple[ServedGame, Seat]) -> dict[str, Any]:
        """Who the seat is and where the game stands."""
        sg, seat = s
        g = sg.game
        with sg.lock:
            return {
                "game": sg.game_id,
                "title": g.meta.get("title", ""),
                "ruleset": g.ruleset.name,
                "seat": seat.public(),
                "sides": list(g.state.sides),
                **self.numbers(sg, seat),
                "cursor": self.cursor(sg),
            }

    def list_seats(self, s: tuple[ServedGame, Seat]) -> list[dict[str, Any]]:
        sg, seat = s
        self._umpire(seat, "list the seats")
        return [x.public() for x in sg.seats]

    def issue_seat(
        self,
        s: tuple[ServedGame, Seat],
        role: str,
        side: str = UMPIRE,
        delay: int = 0,
        label: str = "",
    ) -> dict[str, Any]:
        """A new seat (umpire only); the answer holds its token, shown this once."""
        sg, seat = s
        self._umpire(seat, "create seats")
        with sg.lock:
            new, token = sg.seats.issue(
                role, side=side, delay=delay, label=label, sides=sg.game.state.sides
            )
            try:
                self.store.set_meta(sg.game_id, sg.seats.meta_for(new))
            except Exception:
                sg.seats.seats.pop(new.seat_id, None)
                raise
        return {**new.public(), "token": token}

    def revoke_seat(self, s: tuple[ServedGame, Seat], seat_id: str) -> dict[str, Any]:
        """Revoke a seat's token (umpire only); its open connections are closed."""
        sg, seat = s
        self._umpire(seat, "revoke seats")
        with sg.lock:
            old = sg.seats.get(seat_id)
            new = sg.seats.revoke(seat_id)
            try:
                self.store.set_meta(sg.game_id, sg.seats.meta_for(new))
            except Exception:
                sg.seats.seats[seat_id] = old
                raise
        self._wake(sg.game_id)
        return new.public()

    def change_seat(
        self, s: tuple[ServedGame, Seat], seat_id: str, **changes: Any
    ) -> dict[str, Any]:
        """Change an observer's delay or view (umpire only)."""
        sg, seat = s
        self._umpire(seat, "change seats")
        with sg.lock:
            old = sg.seats.get(seat_id)
            new = sg.seats.change(seat_id, sides=sg.game.state.sides, **changes)
            try:
                self.store.set_meta(sg.game_id, sg.seats.meta_for(new))
            except Exception:
                sg.seats.seats[seat_id] = old
                raise
            self._record(sg, Change("sync", sg.game.state_id))
        return new.public()

    # -- reading -------------------------------------------------------------------------------
    def view(
        self,
        s: tuple[ServedGame, Seat],
        at: int | None = None,
        known_map: str | None = None,
        side: str | None = None,
    ) -> dict[str, Any]:
        """The seat's view now, or after event *at* (rounded down to an event the seat saw); the
        umpire may ask for a *side*'s view."""
        sg, seat = s
        asking = seat
        if side is not None and side != seat.view_side:
            if not seat.is_umpire:
                raise auth_error(f"the {seat.label} seat sees only its own view", 403)
            if side not in sg.game.state.sides:
                raise KeyError(f"no side {side!r}")
            seat = Seat(seat.seat_id, "side", side, label=seat.label)
        with sg.lock:
            h = sg.horizon(seat)
            if at is not None:
                if not 0 <= at <= h:
                    raise HistoryError(f"event {at} is outside the history this seat sees (0..{h})")
                events = sg.game.events
                if seat.view_side != UMPIRE:
                    while at > 0 and not events[at - 1].visible(seat.view_side):
                        at -= 1
                v = sg.view_for(seat, at)
            else:
                v = sg.view_for(seat)
            return {**self.numbers(sg, asking), **wire.encode_view(v, known_map)}

    def outcome(self, s: tuple[ServedGame, Seat]) -> dict[str, Any]:
        """Is the game over (at the seat's horizon), and its outcome: told to a seat that sees the
        umpire's view at any time, to the others only once the game is over (the rule set's
        ``outcome`` may tell how a running game stands, which can rest on hidden facts)."""
        sg, seat = s
        with sg.lock:
            g = sg.game
            h = sg.horizon(seat)
            state = g.state if h == g.seq else g.state_at(h)
            over = bool(g.ruleset.is_over(state))
            told = over or seat.view_side == UMPIRE
            return {
                **self.numbers(sg, seat),
                "over": over,
                "outcome": wire.encode_value(g.ruleset.outcome(state)) if told else None,
            }

    def events(self, s: tuple[ServedGame, Seat], since: int = 0) -> dict[str, Any]:
        """Events the seat may see after event *since* (up to its horizon)."""
        sg, seat = s
        with sg.lock:
            h = sg.horizon(seat)
            evs = [e for e in sg.game.events[max(0, since) : h] if e.visible(seat.view_side)]
            return {**self.numbers(sg, seat), "events": wire.encode_events(evs)}

    def annotations(self, s: tuple[ServedGame, Seat]) -> list[dict[str, Any]]:
        sg, seat = s
        with sg.lock:
            h = sg.horizon(seat)
            return [wire.encode_annotation(a) for a in sg.game.annotations if may_read(seat, a, h)]

    def _order(self, seat: Seat, text: Any, what: str = "give") -> Order:
        if isinstance(text, Order):
            order = text
        else:
            if not isinstance(text, str):
                raise ValueError("an order is text such as 'blue: move INF-1 0304'")
            default = seat.side if seat.role == "side" else (UMPIRE if seat.is_umpire else None)
            order = Order.parse(text, side=default)
        if not seat.may_order(order.side):
            who = "an observer" if seat.role == "observer" else f"the {seat.side} seat"
            raise auth_error(f"{who} cannot {what} {order.side}'s orders", 403)
        return order

    def legal(self, s: tuple[ServedGame, Seat], side: str | None = None) -> dict[str, Any]:
        """What *side* (default: the seat's) may order now (observers: nothing)."""
        sg, seat = s
        side = side or seat.side
        if seat.role == "observer":
            return wire.encode_legal(LegalOrders(side, ()))
        if not seat.may_order(side):
            raise auth_error(f"the {seat.side} seat cannot see {side}'s orders", 403)
        with sg.lock:
            return {
                "state_id": self.numbers(sg, seat)["state_id"],
                **wire.encode_legal(sg.game.legal_orders(side)),
            }

    def check(self, s: tuple[ServedGame, Seat], order: Any) -> dict[str, Any]:
        """Validate without committing: ``{"ok": true, "args": ...}`` or IllegalOrderError."""
        sg, seat = s
        o = self._order(seat, order, "check")
        with sg.lock:
            args = sg.game.check(o)
            return {
                "ok": True,
                "order": str(o),
                "state_id": self.numbers(sg, seat)["state_id"],
                "args": codec.encode(args),
            }

    def preview(self, s: tuple[ServedGame, Seat], order: Any) -> dict[str, Any]:
        """The order's exact outcome distribution, computed on the ordering side's view."""
        sg, seat = s
        o = self._order(seat, order, "preview")
        with sg.lock:
            return {
                "order": str(o),
                "state_id": self.numbers(sg, seat)["state_id"],
                "preview": wire.encode_value(sg.game.preview(o)),
            }

    # -- changing ------------------------------------------------------------------------------
    def submit(
        self, s: tuple[ServedGame, Seat], order: Any, state_id: int | None = None
    ) -> dict[str, Any]:
        """Validate, adjudicate and commit *order* as the seat; answers with the events the seat
        may see and the rule set's result.

        Raises:
            AuthError: the seat may not give this side's orders.
            StaleStateError: *state_id* is not the game's revision (someone acted first).
            IllegalOrderError: the rule set refuses the order (nothing changes).
        """
        sg, seat = s
        o = self._order(seat, order)
        if state_id is not None and (isinstance(state_id, bool) or not isinstance(state_id, int)):
            raise ValueError(f"state_id is a whole number, not {state_id!r}")
        with sg.lock:
            for attempt in range(2):
                before = sg.game.state_id
                try:
                    sub = sg.game.submit(o, state_id=state_id)
                    break
                except StaleStateError:
                    if sg.game.state_id != before or (state_id is not None and state_id != before):
                        raise  # the client's state_id is stale
                    # the store moved on under us (another process): catch up, then decide
                    self._reload_locked(sg, force=True)
                    if state_id is not None or attempt:
                        raise StaleStateError(
                            before if state_id is None else state_id, sg.game.state_id
                        ) from None
            self._record(sg, Change("commit", sub.state_id, sub.events))
            visible = [e for e in sub.events if e.visible(seat.view_side)]
            return {
                "order": str(o),
                "state_id": self.numbers(sg, seat)["state_id"],
                "events": wire.encode_events(visible),
                "result": wire.encode_value(sub.result),
            }

    def undo(self, s: tuple[ServedGame, Seat], state_id: int | None = None) -> dict[str, Any]:
        """Take back the last submission (umpire only)."""
        sg, seat = s
        self._umpire(seat, "undo")
        with sg.lock:
            if state_id is not None and state_id != sg.game.state_id:
                raise StaleStateError(state_id, sg.game.state_id)
            try:
                removed = sg.game.undo()
            except StaleStateError:
                self._reload_locked(sg, force=True)
                raise
            self._record(sg, Change("undo", sg.game.state_id, removed))
            return {
                "state_id": self.numbers(sg, seat)["state_id"],
                "events": wire.encode_events(removed),
            }

    def annotate(
        self, s: tuple[ServedGame, Seat], text: Any, anchors: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Write an annotation. The umpire writes any; a side seat writes notes for its own side;
        observers write none."""
        sg, seat = s
        if seat.role == "observer":
            raise auth_error("observers cannot write annotations", 403)
        allowed = {"seq", "turn", "hex", "unit", "side", "tags"}
        bad = set(anchors) - allowed
        if bad:
            raise ValueError(
                f"unknown annotation field(s) {sorted(bad)}; allowed: {sorted(allowed)}"
            )
        kw = dict(anchors)
        if seat.role == "side":
            kw.setdefault("side", seat.side)
            if kw["side"] != seat.side:
                raise auth_error(
                    f"the {seat.side} seat writes annotations for {seat.side} only", 403
                )
        if isinstance(kw.get("hex"), list):
            kw["hex"] = tuple(kw["hex"])
        if "tags" in kw:
            kw["tags"] = tuple(str(t) for t in kw["tags"] or ())
        with sg.lock:
            if self.shared:
                self._reload_locked(sg)  # annotation ids are allocated from the current list
            unit = kw.get("unit")
            if (
                unit is not None
                and seat.view_side != UMPIRE
                and unit not in sg.game.view(seat.view_side).units
            ):
                raise KeyError(f"no unit {unit!r} visible to {seat.view_side}")
            ann = sg.game.annotate(text, author=seat.label, **kw)
            self._record(sg, Change("annotate", sg.game.state_id, annotation=ann))
            return wire.encode_annotation(ann)

    # -- changes for seats ---------------------------------------------------------------------
    def cursor(self, sg: ServedGame) -> str:
        return f"{self.boot}:{sg.tick}"

    def numbers(self, sg: ServedGame, seat: Seat) -> dict[str, int]:
        """The revision numbers *seat* is told (``state_id``: the revision its orders name;
        ``seq``: the events in the history it sees the end of). Every frame, ``seat_info`` and
        every answer that carries a number takes it from here, so that the numbers can become
        the seat's own count in one place (issue 18)."""
        return {"state_id": sg.game.state_id, "seq": sg.horizon(seat)}

    def _tick_of(self, sg: ServedGame, cursor: str | None) -> int | None:
        """The tick a cursor names, or ``None`` if the ring cannot serve it (another boot, too
        old, malformed): the receiver then gets a ``"sync"`` and the whole view."""
        boot, _, t = (cursor or "").partition(":")
        try:
            tick = int(t)
        except ValueError:
            return None
        oldest = sg.ring[0][0] if sg.ring else sg.tick + 1
        if boot != self.boot or tick < 0 or tick > sg.tick or (tick < oldest - 1 < sg.tick):
            return None
        return tick

    def cached_push(
        self, s: tuple[ServedGame, Seat], cursor: str | None, base: bool
    ) -> Frame | None:
        """The frame :meth:`push` would answer, if it is already built (no lock, no work: the
        event loop asks this before sending work to a thread)."""
        sg, seat = s
        tick = sg.tick
        if sg.frames_tick != tick:
            return None
        boot, _, t = (cursor or "").partition(":")
        key = (view_key(seat), t if boot == self.boot else None, base)
        return sg.frames.get(key)

    def push(self, s: tuple[ServedGame, Seat], cursor: str | None, base: bool = False) -> Frame:
        """What a seat at *cursor* is sent now: the changes it may see since then and its view —
        as a delta from the view it received at *cursor* if it holds that one (*base*) and the
        game still remembers it, else whole. Built from the seat's view only, once per
        seat-view, cursor and tick (shared by the seat's connections)."""
        sg, seat = s
        with sg.lock:
            if sg.frames_tick != sg.tick:
                sg.frames.clear()
                sg.frames_tick = sg.tick
            boot, _, t = (cursor or "").partition(":")
            fkey = (view_key(seat), t if boot == self.boot else None, base)
            hit = sg.frames.get(fkey)
            if hit is None:
                hit = self._build_frame(sg, seat, cursor, base)
                if len(sg.frames) > 256:
                    sg.frames.clear()
                sg.frames[fkey] = hit
            return hit

    def _build_frame(self, sg: ServedGame, seat: Seat, cursor: str | None, base: bool) -> Frame:
        tick = self._tick_of(sg, cursor)
        if tick is None:
            pending = [Change("sync", sg.game.state_id)]
        else:
            pending = [c for k, c in sg.ring if k > tick]
        h = sg.horizon(seat)
        changes = []
        for c in pending:
            if c.kind == "annotate" and (
                c.annotation is None or not may_read(seat, c.annotation, h)
            ):
                continue
            events = () if seat.role == "observer" else self.visible_events(sg, seat, c.events)
            changes.append(
                {
                    "kind": c.kind,
                    "state_id": c.state_id,
                    "events": wire.encode_events(events),
                    "annotation": None
                    if c.annotation is None
                    else wire.encode_annotation(c.annotation),
                }
            )
        view = sg.view_for(seat)
        numbers = self.numbers(sg, seat)
        key = view_key(seat)
        hist = sg.pushed.setdefault(key, OrderedDict())
        old = None
        if base and tick is not None and not any(c.kind == "sync" for c in pending):
            old = hist.get(tick)
        hist[sg.tick] = (view, numbers)
        hist.move_to_end(sg.tick)
        while len(hist) > SEAT_VIEWS:
            hist.popitem(last=False)
        now = self.cursor(sg)
        map_id, map_data = wire.map_message(view.map)
        body: dict[str, Any] = {
            "type": "push",
            "cursor": now,
            "base": cursor if old is not None else None,
            **numbers,
            "changes": changes,
            "map_id": map_id,
        }
        if old is not None:
            old_view, old_numbers = old
            delta = wire.view_delta(old_view, view)
            if not changes and delta is None and old_numbers == numbers:
                return Frame(now, None, map_id, map_data)  # nothing new for this seat
            if delta is not None:
                body["delta"] = delta
        else:
            body["view"] = wire.encode_view_body(view)
        return Frame(now, wire.dumps(body), map_id, map_data, body)

    def revoked(self, s: tuple[ServedGame, Seat]) -> bool:
        """Has the seat been revoked (its connections must close)?"""
        sg, seat = s
        current = sg.seats.seats.get(seat.seat_id)
        return current is None or bool(current.revoked)

    def refreshed_seat(self, s: tuple[ServedGame, Seat]) -> tuple[ServedGame, Seat]:
        """The same seat with its latest settings (an observer's delay may have changed)."""
        sg, seat = s
        sg2 = self._games.get(sg.game_id, sg)
        return sg2, sg2.seats.seats.get(seat.seat_id, seat)

    def visible_events(self, sg: ServedGame, seat: Seat, events: Iterable[Event]) -> list[Event]:
        """The events of *events* the seat may see."""
        return [e for e in events if e.visible(seat.view_side)]
