"""The authority: the one process that holds the truth of served games.

An :class:`Authority` owns an event store and the games in it. Every request names a game and
carries a seat token; the authority finds the seat, checks what the seat may do, runs the kernel
:class:`~owsnb.kernel.game.Game` (which validates every order with the rule set and appends its
events to the store in one transaction) and answers with only what that seat may see: its side's
view, the events visible to it, annotations it may read. Nothing here knows about HTTP; the ASGI
app (:mod:`owsnb.server.app`) calls these methods from worker threads.

Concurrency: each game has a lock, so submissions to one game are serialised; a submission names
the ``state_id`` it was prepared against — the seat's own revision — and a stale one is refused,
never merged. Several authority processes may share a PostgreSQL store: before acting on a game, a
process compares its revision with the store's and reloads if the store moved on, and the store's
unique ``(game, revision)`` key refuses the loser of any remaining race (which then reloads and
decides again). Other processes' writes also arrive as ``NOTIFY`` messages
(:meth:`Authority.reload`).

Each seat numbers only what it sees (issue 18): a side's ``state_id`` is its
:meth:`~owsnb.kernel.game.Game.revision`, its ``seq`` and the ``seq``/``batch`` of its events
count the events it saw, positions it gives (``view?at=``, ``events?since=``, a note's ``seq``)
are in that count; the umpire keeps the game's numbers, an observer gets those of the view it
watches (:meth:`Authority.numbers`). A commit a side cannot see sends its seats nothing and moves
none of its numbers.

Every change is kept, as each **audience** (:func:`audience`: the umpire, a side, the observers of
a view) is told it, in that audience's ring; a seat's **cursor** is
``"<boot>/<audience>:<tick>"``, the tick counting only its audience's changes. A seat that
reconnects gets exactly the changes it missed, or one ``"sync"`` change when its ring no longer
reaches back (or the authority restarted, or the seat now follows another audience).

Pushes (:meth:`Authority.push`) are **frames** built from the seat's view: the changes the seat is
told since its cursor and the view as a delta from the view it holds (or whole, when it holds none
or is too far behind). A frame is encoded once per seat-view (role, side watched, delay) and
cursor, and shared by every connection in the same place; a seat whose view, numbers and notes
did not change gets no frame.

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
    >>> red = auth.seat(created.game_id, created.tokens["red"])  # the move is out of its sight
    >>> auth.numbers(*red)
    {'state_id': 0, 'seq': 0}
    >>> auth.submit(blue, "red: done")
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.AuthError: the blue seat cannot give red's orders
"""

from __future__ import annotations

import bisect
import functools
import logging
import re
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import owsnb.rules  # noqa: F401  (registers the built-in rule sets, e.g. to resume an OWS game)
from owsnb.kernel import codec
from owsnb.kernel.errors import HistoryError, StaleStateError, StoreError
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation, Change, Game
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import SideView, renumber, seen_positions, side_view
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

COMPUTER_PREFIX = "computer:"
"""The store metadata key of a side the umpire handed to the computer (``computer:<side>``,
``{"bot": label}``; one key per side, as seats, so that processes never overwrite each other)."""


def computer_of(meta: Mapping[str, Any]) -> dict[str, str]:
    """The sides the umpire handed to the computer, and the bot playing each (store metadata).

    >>> computer_of({"computer:red": {"bot": "greedy"}, "seat:s-1": {}, "title": "t"})
    {'red': 'greedy'}
    """
    return {
        k[len(COMPUTER_PREFIX) :]: str(v["bot"])
        for k, v in meta.items()
        if k.startswith(COMPUTER_PREFIX) and isinstance(v, Mapping) and v.get("bot")
    }


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


@dataclass(frozen=True)
class Told:
    """One change as one audience (:func:`audience`) is told it: its revision after the change,
    the events it may see numbered as it numbers them, the note as it anchors it (``note`` is the
    note as stored, to decide who may read it)."""

    kind: str
    state_id: int
    events: tuple[Event, ...] = ()
    annotation: Annotation | None = None
    note: Annotation | None = None


def view_key(seat: Seat) -> tuple[str, str, int]:
    """What a seat sees depends on this only: its role, the side it watches and its delay."""
    return (seat.role, seat.view_side, seat.delay)


def audience(seat: Seat) -> str:
    """Whose changes a seat follows, and in whose numbers: the umpire's (every change), a side's
    (only what that side may see: issue 18), or the observers of a view (the watched view's
    changes, and the umpire's changes to observers). A seat's cursor counts its audience's
    changes only, so nothing a seat receives counts what it may not see."""
    if seat.role == "observer":
        return f"observer:{seat.view_side}"
    return seat.view_side


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
    """One game as the authority holds it: the kernel game, its seats, its lock and, per
    audience (:func:`audience`), the ring of its recent changes.

    Each seat numbers what it sees as the kernel numbers it for its view (issue 18): a side's
    ``state_id`` is :meth:`Game.revision` of the side, its ``seq`` the events it saw, its events
    and notes are numbered by the events it saw; the umpire keeps the game's numbers. An observer
    is numbered as the view it watches, ``delay`` events of that view behind.
    """

    def __init__(
        self,
        game_id: str,
        game: Game,
        seats: SeatTable,
        computer: Mapping[str, str] | None = None,
    ):
        self.game_id = game_id
        self.game = game
        self.seats = seats
        self.computer: dict[str, str] = dict(computer or {})  # side -> bot (handed over)
        self.lock = threading.RLock()
        self.tick = 0  # every change (the frame cache's clock; never sent)
        viewers = [UMPIRE, *game.state.sides]
        self.ticks: dict[str, int] = {a: 0 for v in viewers for a in (v, f"observer:{v}")}
        self.rings: dict[str, deque[tuple[int, Told]]] = {a: deque(maxlen=RING) for a in self.ticks}
        self.revs: dict[str, int] = self.revisions()
        self._views: dict[tuple[str, int, int], SideView] = {}
        self._seen: dict[tuple[str, int], list[int]] = {}
        # per seat-view: its audience's tick -> (the view pushed then, the numbers it carried)
        self.pushed: dict[tuple, OrderedDict[int, tuple[SideView, dict[str, Any]]]] = {}
        # frames of the current tick: (seat-view, base tick, has base) -> Frame
        self.frames: dict[tuple, Frame] = {}
        self.frames_tick = -1

    def revisions(self) -> dict[str, int]:
        """Every viewer's revision now (the umpire's: the game's ``state_id``)."""
        g = self.game
        return {v: g.revision(v) for v in (UMPIRE, *g.state.sides)}

    def seen(self, side: str) -> list[int]:
        """For each event *side* saw, the game's event count just after it
        (:func:`~owsnb.kernel.view.seen_positions`; cached per revision)."""
        g = self.game
        key = (side, g.state_id)
        hit = self._seen.get(key)
        if hit is None:
            if len(self._seen) > 32:
                self._seen.clear()
            hit = self._seen[key] = seen_positions(g.events, side)
        return hit

    def count(self, seat: Seat) -> int:
        """The seat's ``seq``: the events of the history it sees the end of, in its numbering."""
        if seat.view_side == UMPIRE:
            return self.horizon(seat)
        n = len(self.seen(seat.view_side))
        return max(0, n - seat.delay) if seat.role == "observer" else n

    def horizon(self, seat: Seat) -> int:
        """The game's event count the seat's view is taken at: the end for the umpire and the
        sides; an observer is ``delay`` events of its watched view behind (the umpire's view:
        the game's events; a side's: the events that side saw, so that what an observer of a
        side sees moves only with what the side sees)."""
        g = self.game
        if seat.role != "observer" or seat.delay == 0:
            return g.seq
        if seat.view_side == UMPIRE:
            return max(0, g.seq - seat.delay)
        return self.to_game(seat, self.count(seat))

    def to_game(self, seat: Seat, n: int) -> int:
        """The game's event count just after the seat's *n*-th event (its numbering).

        Raises:
            HistoryError: *n* is outside the history the seat sees (``0..seq``).
        """
        last = self.count(seat)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= last:
            raise HistoryError(f"event {n} is outside the history this seat sees (0..{last})")
        if seat.view_side == UMPIRE or n == 0:
            return n
        return self.seen(seat.view_side)[n - 1]

    def numbered(
        self, viewer: str, events: Iterable[Event], history: Sequence[Event] | None = None
    ) -> tuple[Event, ...]:
        """The events of *events* — the last ones of *history* (default: the game's) — that
        *viewer* may see, numbered as it numbers them."""
        mine = [e for e in events if e.visible(viewer)]
        if viewer == UMPIRE or not mine:
            return tuple(mine)
        seen = renumber(self.game.events if history is None else history, viewer)
        return seen[len(seen) - len(mine) :]

    def noted(self, viewer: str, ann: Annotation) -> Annotation:
        """*ann* anchored at the moment *viewer* numbers (the events it saw up to it)."""
        if viewer == UMPIRE:
            return ann
        return replace(ann, seq=bisect.bisect_right(self.seen(viewer), ann.seq))

    def view_for(self, seat: Seat, n: int | None = None) -> SideView:
        """The seat's view after the game's *n* events (default: its horizon), numbered as its
        viewer numbers (a side: the events it saw)."""
        g = self.game
        h = self.horizon(seat) if n is None else n
        key = (seat.view_side, g.state_id, h)
        v = self._views.get(key)
        if v is None:
            state = g.state if h == g.seq else g.state_at(h)
            v = side_view(state, seat.view_side, g.ruleset, g.events[:h])
            if len(self._views) > 64:
                self._views.clear()
            self._views[key] = v
        return v

    def forget(self) -> None:
        """Drop what is cached of the game (it was replaced)."""
        self._views.clear()
        self._seen.clear()


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

        The dice seed is drawn from the operating system's entropy unless *seed* is given: a
        scenario's ``seed:`` is for local, reproducible play; a served game taking it would roll
        the dice any seat can reproduce with ``owsnb.load(scenario)`` (issue 18). The seed stays
        in the store; the umpire may :meth:`export` it with the whole record once the game is over.
        """
        from owsnb.scenario.loader import Scenario, build_state, load_scenario

        scn = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        if seed is None:
            seed = secrets.randbits(63)  # never the scenario's: see above
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
            side_revs=rec.side_revs,
            annotations=rec.annotations,
            meta={
                k: v for k, v in rec.meta.items() if not k.startswith(("seat:", COMPUTER_PREFIX))
            },
        )
        return ServedGame(game_id, game, SeatTable(rec.meta), computer_of(rec.meta))

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
            sg.computer = computer_of(meta)
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
                    sg.computer = computer_of(meta)
                    self._reload_locked(sg, force=True)
                except StoreError as exc:
                    log.warning("could not reload %s: %s", sg.game_id, exc)
            self._wake(sg.game_id)

    def _reload_locked(self, sg: ServedGame, force: bool = False) -> None:
        old = sg.game
        fresh = self._load(sg.game_id)
        sg.seats = fresh.seats
        sg.computer = fresh.computer
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
        sg.forget()
        for c in changes:
            self._record(sg, c, wake=False, history=old_ev)
        sg.revs = sg.revisions()

    def _record(
        self,
        sg: ServedGame,
        change: Change,
        wake: bool = True,
        *,
        history: Sequence[Event] | None = None,
        observers: bool = False,
    ) -> None:
        """Keep *change* (just made to ``sg.game``) for the seats it concerns: each viewer (the
        umpire, each side) whose revision it moved or who may read its note is told it in its
        own numbers (:class:`Told`), and so are the observers of that viewer; the others are told
        nothing. *history*: the events before a ``"sync"`` (a reload), to tell each viewer what
        it amounts to for it. *observers*: a change to the observer seats (their umpire and
        the observers only)."""
        sg.tick += 1
        revs = sg.revisions()
        for v, rev in revs.items():
            ann = change.annotation
            if observers:
                told = Told("sync", rev)
                to = [f"observer:{v}"] + ([UMPIRE] if v == UMPIRE else [])
            elif rev != sg.revs.get(v) or (
                ann is not None and (v == UMPIRE or ann.side in (None, v))
            ):
                told = self._told(sg, v, rev, change, history)
                to = [v, f"observer:{v}"]
            else:
                continue
            for a in to:
                sg.ticks[a] += 1
                sg.rings[a].append((sg.ticks[a], told))
        sg.revs = revs
        if wake:
            self._wake(sg.game_id)

    @staticmethod
    def _told(
        sg: ServedGame, v: str, rev: int, change: Change, history: Sequence[Event] | None
    ) -> Told:
        """*change* as viewer *v* is told it (its revision *rev* after it)."""
        g = sg.game
        kind = change.kind
        events: tuple[Event, ...] = ()
        if kind == "commit":
            events = sg.numbered(v, change.events)
        elif kind == "undo":
            events = sg.numbered(v, change.events, (*g.events, *change.events))
        elif kind == "sync" and history is not None:
            # another process rewrote the history: what it amounts to for v
            was, now = renumber(history, v), renumber(g.events, v)
            if now[: len(was)] == was:
                kind, events = "commit", now[len(was) :]
            elif was[: len(now)] == now:
                kind, events = "undo", was[len(now) :]
        ann = change.annotation
        return Told(kind, rev, events, None if ann is None else sg.noted(v, ann), ann)

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
                "cursor": self.cursor(sg, seat),
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
            self._record(sg, Change("sync", sg.game.state_id), observers=True)
        return new.public()

    def set_computer(
        self, s: tuple[ServedGame, Seat], side: str, bot: str | None
    ) -> dict[str, Any]:
        """The umpire hands *side* to the computer (*bot*: the bot's label, e.g. ``"greedy"``),
        or takes it back (*bot* ``None`` or ``""``). While the computer holds a side, that
        side's own seats give none of its orders (:meth:`submit` refuses them: the bot, playing
        through the umpire's seat, gives them); they still see, check, preview and write notes.
        The side's seats and the umpire are told by a note for that side only (tagged
        ``computer``), and each frame and answer the side's seats get says it
        (``"computer": {side: bot}`` in :meth:`numbers`): the other sides learn nothing.

        Raises:
            AuthError: not the umpire's seat.
            KeyError: no such side.
            ValueError: *bot* is not text.
        """
        sg, seat = s
        self._umpire(seat, "hand a side to the computer")
        if side not in sg.game.state.sides:
            raise KeyError(f"no side {side!r}; sides: {', '.join(sg.game.state.sides)}")
        if bot is not None and not isinstance(bot, str):
            raise ValueError(f"the bot is named by text (e.g. 'greedy'), not {bot!r}")
        bot = (bot or "").strip()
        with sg.lock:
            if self.shared:
                self._reload_locked(sg)  # annotation ids are allocated from the current list
            was = sg.computer.get(side, "")
            if bot == was:
                return {"side": side, "bot": bot or None, **self.numbers(sg, seat)}
            self.store.set_meta(sg.game_id, {COMPUTER_PREFIX + side: {"bot": bot} if bot else None})
            if bot:
                sg.computer[side] = bot
                text = (
                    f"The umpire has handed {side} to the computer ({bot}). Its orders appear "
                    "on your map and in the results feed; you can watch. Your orders open again "
                    f"when the umpire takes {side} back."
                )
            else:
                sg.computer.pop(side, None)
                text = f"The umpire has taken {side} back from the computer: your orders are open."
            ann = sg.game.annotate(text, author=seat.label, side=side, tags=("computer",))
            self._record(sg, Change("annotate", sg.game.state_id, annotation=ann))
            return {"side": side, "bot": bot or None, **self.numbers(sg, seat)}

    # -- reading -------------------------------------------------------------------------------
    def view(
        self,
        s: tuple[ServedGame, Seat],
        at: int | None = None,
        known_map: str | None = None,
        side: str | None = None,
    ) -> dict[str, Any]:
        """The seat's view now, or after its event *at* (its own numbering: a side counts the
        events it saw); the umpire may ask for a *side*'s view (in that side's numbers)."""
        sg, seat = s
        asking = seat
        if side is not None and side != seat.view_side:
            seat = self._as_side(sg, seat, side)
        with sg.lock:
            if at is not None:
                v = sg.view_for(seat, sg.to_game(seat, at))
            else:
                v = sg.view_for(seat)
            return {**self.numbers(sg, seat, asking), **wire.encode_view(v, known_map)}

    def _as_side(self, sg: ServedGame, seat: Seat, side: str) -> Seat:
        """The umpire's seat looking through *side*'s eyes (AuthError for any other seat)."""
        if not seat.is_umpire:
            raise auth_error(f"the {seat.label} seat sees only its own view", 403)
        if side == UMPIRE:
            return seat
        if side not in sg.game.state.sides:
            raise KeyError(f"no side {side!r}")
        return Seat(seat.seat_id, "side", side, label=seat.label)

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

    def export(self, s: tuple[ServedGame, Seat]) -> dict[str, Any]:
        """The whole record, dice seed and states included (:meth:`Game.export`): the umpire's,
        once the game is over — before, it would predict every die to come (issue 18).

        Raises:
            AuthError: not the umpire.
            HistoryError: the game is not over.
        """
        sg, seat = s
        self._umpire(seat, "export the whole record")
        with sg.lock:
            g = sg.game
            if not g.ruleset.is_over(g.state):
                raise HistoryError(
                    "the whole record (the dice seed included) is exported once the game is over"
                )
            return g.export()

    def events(self, s: tuple[ServedGame, Seat], since: int = 0) -> dict[str, Any]:
        """Events the seat may see after its event *since* (up to its horizon), numbered as it
        numbers them."""
        sg, seat = s
        with sg.lock:
            h = sg.horizon(seat)
            evs = renumber(sg.game.events[:h], seat.view_side)[max(0, since) :]
            return {**self.numbers(sg, seat), "events": wire.encode_events(evs)}

    def annotations(self, s: tuple[ServedGame, Seat]) -> list[dict[str, Any]]:
        """The notes the seat may read, anchored at the moments it numbers."""
        sg, seat = s
        with sg.lock:
            h = sg.horizon(seat)
            return [
                wire.encode_annotation(sg.noted(seat.view_side, a))
                for a in sg.game.annotations
                if may_read(seat, a, h)
            ]

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
                **self.numbers(sg, seat),
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
                **self.numbers(sg, seat),
                "args": codec.encode(args),
            }

    def preview(self, s: tuple[ServedGame, Seat], order: Any) -> dict[str, Any]:
        """The order's exact outcome distribution, computed on the ordering side's view."""
        sg, seat = s
        o = self._order(seat, order, "preview")
        with sg.lock:
            return {
                "order": str(o),
                **self.numbers(sg, seat),
                "preview": wire.encode_value(sg.game.preview(o)),
            }

    # -- changing ------------------------------------------------------------------------------
    def submit(
        self,
        s: tuple[ServedGame, Seat],
        order: Any,
        state_id: int | None = None,
        seat_side: str | None = None,
    ) -> dict[str, Any]:
        """Validate, adjudicate and commit *order* as the seat; answers with the events the seat
        may see (numbered as it numbers them), its numbers after the order and the rule set's
        result.

        *state_id* is the seat's own revision the order was prepared against (a side's
        :meth:`Game.revision`: a commit it cannot see never makes its order stale). The umpire
        may name a side in *seat_side* (giving that side's order through its eyes): *state_id*
        is then that side's revision, and the answer is told as to that side.

        Raises:
            AuthError: the seat may not give this side's orders (or name another seat), or the
                umpire has handed its side to the computer (:meth:`set_computer`).
            StaleStateError: *state_id* is not the seat's revision (it saw something since).
            IllegalOrderError: the rule set refuses the order (nothing changes).
        """
        sg, seat = s
        o = self._order(seat, order)
        bot = sg.computer.get(o.side) if seat.role == "side" else None
        if bot:
            raise auth_error(
                f"the umpire has handed {o.side} to the computer ({bot}): it gives {o.side}'s "
                f"orders until the umpire takes {o.side} back",
                403,
            )
        if state_id is not None and (isinstance(state_id, bool) or not isinstance(state_id, int)):
            raise ValueError(f"state_id is a whole number, not {state_id!r}")
        told = seat
        if seat_side is not None and seat_side != seat.view_side:
            told = self._as_side(sg, seat, seat_side)
        who = told.view_side
        with sg.lock:
            for _attempt in range(4):
                if state_id is not None and state_id != sg.game.revision(who):
                    raise StaleStateError(state_id, sg.game.revision(who))
                try:
                    sub = sg.game.submit(o, state_id=state_id, seat=who)
                    break
                except StaleStateError:
                    # the store moved on under us (another process): catch up, then decide
                    # (in the seat's revision: a commit it cannot see does not make it stale)
                    self._reload_locked(sg, force=True)
            else:
                raise StaleStateError(
                    sg.game.revision(who) if state_id is None else state_id,
                    sg.game.revision(who),
                )
            self._record(sg, Change("commit", sub.state_id, sub.events))
            return {
                "order": str(o),
                **self.numbers(sg, told, seat),
                "events": wire.encode_events(sg.numbered(who, sub.events)),
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
                **self.numbers(sg, seat),
                "events": wire.encode_events(removed),
            }

    def annotate(
        self, s: tuple[ServedGame, Seat], text: Any, anchors: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Write an annotation. The umpire writes any; a side seat writes notes for its own side
        (its ``seq`` anchor in its own numbering: default, the last event it saw); observers
        write none."""
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
            if seat.role == "side":
                at = kw.get("seq")
                kw["seq"] = sg.to_game(seat, sg.count(seat) if at is None else at)
            unit = kw.get("unit")
            if (
                unit is not None
                and seat.view_side != UMPIRE
                and unit not in sg.game.view(seat.view_side).units
            ):
                raise KeyError(f"no unit {unit!r} visible to {seat.view_side}")
            ann = sg.game.annotate(text, author=seat.label, **kw)
            self._record(sg, Change("annotate", sg.game.state_id, annotation=ann))
            return wire.encode_annotation(sg.noted(seat.view_side, ann))

    # -- changes for seats ---------------------------------------------------------------------
    def cursor(self, sg: ServedGame, seat: Seat) -> str:
        """Where *seat* stands in the changes of its audience (:func:`audience`): only changes
        it is told move it. The cursor names its audience too, so that a cursor of another
        audience (an observer moved to another view) is never read as this one's."""
        return self._cursor(seat, sg.ticks[audience(seat)])

    def _cursor(self, seat: Seat, tick: int) -> str:
        return f"{self.boot}/{audience(seat)}:{tick}"

    def _cursor_tick(self, seat: Seat, cursor: str | None) -> str | None:
        """The tick part of *cursor* if it is one of this boot and the seat's audience."""
        where, _, t = (cursor or "").rpartition(":")
        return t if where == f"{self.boot}/{audience(seat)}" else None

    def numbers(self, sg: ServedGame, seat: Seat, asking: Seat | None = None) -> dict[str, Any]:
        """The numbers *seat* is told, each in its own count (issue 18): ``state_id``, the
        revision its orders name (a side's :meth:`Game.revision`, moved only by what it may see;
        the umpire's: the game's); ``seq``, the events of the history it sees the end of, as it
        numbers them. An observer is told those of the view it watches (``seq`` ``delay``
        events behind). The umpire (*asking*, when it looks through a side's eyes) is also told
        every side's revision (``revisions``). Every frame, ``seat_info`` and every answer that
        carries a number takes it from here."""
        g = sg.game
        out: dict[str, Any] = {"state_id": g.revision(seat.view_side), "seq": sg.count(seat)}
        if (asking or seat).is_umpire:
            out["revisions"] = {side: g.revision(side) for side in g.state.sides}
        # the sides the computer plays (set_computer), as far as the seat may know: the umpire
        # (and its observers) all of them, a side (and its observers) its own only
        held = (
            dict(sg.computer)
            if (asking or seat).is_umpire or seat.view_side == UMPIRE
            else {k: v for k, v in sg.computer.items() if k == seat.view_side}
        )
        if held:
            out["computer"] = held
        return out

    def _tick_of(self, sg: ServedGame, seat: Seat, cursor: str | None) -> int | None:
        """The tick of the seat's audience a cursor names, or ``None`` if its ring cannot serve
        it (another boot, too old, malformed): the receiver then gets a ``"sync"`` and the
        whole view."""
        try:
            tick = int(self._cursor_tick(seat, cursor) or "")
        except ValueError:
            return None
        aud = audience(seat)
        now, ring = sg.ticks[aud], sg.rings[aud]
        if tick < 0 or tick > now:
            return None
        if tick < now and (not ring or ring[0][0] - 1 > tick):
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
        key = (view_key(seat), self._cursor_tick(seat, cursor), base)
        return sg.frames.get(key)

    def push(self, s: tuple[ServedGame, Seat], cursor: str | None, base: bool = False) -> Frame:
        """What a seat at *cursor* is sent now: the changes it is told since then and its view —
        as a delta from the view it received at *cursor* if it holds that one (*base*) and the
        game still remembers it, else whole. Built from the seat's view and numbers only, once
        per seat-view, cursor and tick (shared by the seat's connections); a seat whose view,
        numbers and notes did not change is sent nothing (``data`` is ``None``)."""
        sg, seat = s
        with sg.lock:
            if sg.frames_tick != sg.tick:
                sg.frames.clear()
                sg.frames_tick = sg.tick
            fkey = (view_key(seat), self._cursor_tick(seat, cursor), base)
            hit = sg.frames.get(fkey)
            if hit is None:
                hit = self._build_frame(sg, seat, cursor, base)
                if len(sg.frames) > 256:
                    sg.frames.clear()
                sg.frames[fkey] = hit
            return hit

    def _build_frame(self, sg: ServedGame, seat: Seat, cursor: str | None, base: bool) -> Frame:
        aud = audience(seat)
        tick = self._tick_of(sg, seat, cursor)
        numbers = self.numbers(sg, seat)
        pending: list[Told]
        if tick is None:
            pending = [Told("sync", numbers["state_id"])]
        else:
            pending = [c for k, c in sg.rings[aud] if k > tick]
        h = sg.horizon(seat)
        changes = []
        for c in pending:
            if c.kind == "annotate" and (c.note is None or not may_read(seat, c.note, h)):
                continue
            changes.append(
                {
                    "kind": c.kind,
                    "state_id": c.state_id,
                    "events": wire.encode_events(() if seat.role == "observer" else c.events),
                    "annotation": None
                    if c.annotation is None
                    else wire.encode_annotation(c.annotation),
                }
            )
        view = sg.view_for(seat)
        key = view_key(seat)
        hist = sg.pushed.setdefault(key, OrderedDict())
        old = None
        if base and tick is not None and not any(c.kind == "sync" for c in pending):
            old = hist.get(tick)
        now_tick = sg.ticks[aud]
        hist[now_tick] = (view, numbers)
        hist.move_to_end(now_tick)
        while len(hist) > SEAT_VIEWS:
            hist.popitem(last=False)
        now = self._cursor(seat, now_tick)
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
