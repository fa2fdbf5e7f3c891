"""The :class:`Game` handle: the mutable object a notebook plays with.

A game is an initial state plus an append-only list of events. ``submit`` validates an order with
the rule set, adjudicates it with the game's dice, and commits the resulting events (to memory and,
if the game has an event sink, to its store) — or raises :class:`IllegalOrderError` and changes
nothing. ``undo``, ``step_to``, ``fork`` and ``annotate`` serve study and research.

A complete (tiny) rule set and game, to show the moving parts:

>>> from owsnb.kernel import (Game, GameState, MapState, SideState, Unit, Hex, HexInfo, RuleSet,
...     OrderHandler, OrderType, Param, SequenceOfPlay, Phase, Step, Distribution, FrozenDict)
>>> from owsnb.kernel.dice import rng_state_for_seed
>>> from owsnb.kernel.events import unit_set
>>> class Shoot(OrderHandler):
...     type = OrderType("shoot", (Param("target", "enemy"),), rule="X.1", doc="d6, 4+ hits")
...     def preview(self, state, order, args):
...         return Distribution.die(6).map(lambda r: r >= 4)
...     def adjudicate(self, state, order, args, dice):
...         t = args["target"]  # bound: the enemy unit blue has detected
...         hit = dice.roll(6, purpose=f"shoot {t.id}", rule="X.1") >= 4
...         return [unit_set(t.id, steps=t.steps - 1, rule="X.1")] if hit else []
>>> class Duel(RuleSet):
...     name, title = "duel", "Duel"
...     sequence = SequenceOfPlay((Phase("1", "Fire", (Step("1", "Fire", actors="initiative", verbs=("shoot",)),)),))
...     def __init__(self):
...         super().__init__([Shoot()])
>>> board = MapState(FrozenDict({Hex(0, 0): HexInfo("clear"), Hex(1, 0): HexInfo("clear")}))
>>> state = GameState("duel", board, FrozenDict(blue=SideState("blue"), red=SideState("red")),
...     units=FrozenDict(R1=Unit("R1", "red", hex=Hex(1, 0), steps=2, max_steps=2, seen_by=frozenset({"blue"}))),
...     rng=rng_state_for_seed(7))
>>> rs = Duel()
>>> game = Game(rs, rs.setup(state, {}))
>>> str(game.clock)
'Turn 1 · Phase 1 Fire · Blue acts'
>>> game.preview("blue: shoot R1")[True]
Fraction(1, 2)
>>> sub = game.submit("blue: shoot R1")
>>> [e.kind for e in sub.events][:1], game.state_id
(['die'], 1)
>>> game.submit("red: shoot R1")
Traceback (most recent call last):
...
owsnb.kernel.errors.NotYourTurnError: red may not act now (Turn 1 · Phase 1 Fire · Blue acts); acting: blue
>>> _ = game.undo(); game.seq
0
"""

from __future__ import annotations

import datetime as _dt
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.dice import Dice
from owsnb.kernel.errors import HistoryError, IllegalOrderError, StaleStateError
from owsnb.kernel.events import Event
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.reduce import apply
from owsnb.kernel.ruleset import Adjudication, RuleSet
from owsnb.kernel.state import UMPIRE, GameState, StateLike, Unit, check_side
from owsnb.kernel.view import SideView, renumber, side_view

__all__ = ["Game", "Annotation", "Submission", "Change", "EventSink", "SNAPSHOT_EVERY"]

SNAPSHOT_EVERY = 256
"""A state snapshot is kept every this many events, so ``step_to`` replays at most this many."""


@dataclass(frozen=True)
class Annotation:
    """A note anchored to a point of the history (and optionally a turn, hex, unit or side).

    Annotations are commentary, not game state: undo does not remove them.
    """

    id: int
    text: str
    seq: int
    turn: int | None = None
    hex: Hex | None = None
    unit: str | None = None
    side: str | None = None
    author: str = ""
    tags: tuple[str, ...] = ()
    created: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "seq": self.seq,
            "turn": self.turn,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
            "unit": self.unit,
            "side": self.side,
            "author": self.author,
            "tags": list(self.tags),
            "created": self.created,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Annotation:
        h = d.get("hex")
        return cls(
            id=int(d["id"]),
            text=str(d["text"]),
            seq=int(d["seq"]),
            turn=d.get("turn"),
            hex=None if h is None else Hex(int(h[0]), int(h[1])),
            unit=d.get("unit"),
            side=d.get("side"),
            author=d.get("author", ""),
            tags=tuple(d.get("tags", ())),
            created=d.get("created", ""),
        )


class EventSink(Protocol):
    """Where a game writes what it commits (the store implements this; the kernel does no I/O)."""

    def append(self, rev: int, events: Sequence[Event]) -> None:
        """Commit one batch as revision *rev* (must be the store's last revision + 1, else raise
        :class:`StaleStateError`)."""

    def truncate(self, rev: int, seq: int) -> None:
        """Record revision *rev*: the history is cut back to its first *seq* events."""

    def annotate(self, annotation: Annotation) -> None:
        """Store an annotation."""


@dataclass(frozen=True)
class Submission:
    """What ``submit`` returns: the order, the events committed and the rule set's result."""

    order: Order
    events: tuple[Event, ...]
    result: Any = None
    state_id: int = 0

    @property
    def dice(self) -> list[Event]:
        """The roll events of this submission."""
        return [e for e in self.events if e.kind == "die"]

    def __repr__(self) -> str:
        return f"<Submission {self.order} -> {len(self.events)} events, state {self.state_id}>"

    def _repr_html_(self) -> str:
        if self.result is not None and hasattr(self.result, "_repr_html_"):
            return self.result._repr_html_()
        from owsnb.display.html import submission_html

        return submission_html(self)


@dataclass(frozen=True)
class Change:
    """Sent to subscribers: ``kind`` is ``"commit"``, ``"undo"``, ``"step"`` or ``"annotate"``."""

    kind: str
    state_id: int
    events: tuple[Event, ...] = ()
    annotation: Annotation | None = None


class Game:
    """One game: a rule set, an initial state and its history.

    Args:
        ruleset: the :class:`RuleSet`.
        initial: the initial :class:`GameState` (``state.rng`` seeds the dice).
        events: history to replay (e.g. from a store).
        sink: where to write commits (``None``: memory only).
        rev: the store's current revision (the ``state_id``).
        side_revs: each side's revision (:meth:`revision`) as the store's log gives it
            (default: counted from *events*, as if nothing had been undone).
        annotations: annotations to restore.
        meta: free facts shown in the repr (store path, seed...).

    What a side is told is computed on what it knows (:meth:`knowledge`, its view): legal orders,
    checks, previews and the refusal an order gets at submit. An order legal as its side knows the
    game but refused by the truth (a hidden unit in the way) is resolved at adjudication, as the
    rule set says (:meth:`~owsnb.kernel.ruleset.RuleSet.resolve_hidden`). Each side numbers only
    what it sees: its view's events and ``seq`` (:func:`~owsnb.kernel.view.renumber`) and its
    :meth:`revision`, against which its orders are checked for staleness.
    """

    def __init__(
        self,
        ruleset: RuleSet,
        initial: GameState,
        events: Iterable[Event] = (),
        *,
        sink: EventSink | None = None,
        rev: int = 0,
        side_revs: Mapping[str, int] | None = None,
        annotations: Iterable[Annotation] = (),
        meta: Mapping[str, Any] | None = None,
    ):
        self.ruleset = ruleset
        self.initial = initial
        self.sink = sink
        self.meta = dict(meta or {})
        self._lock = threading.RLock()
        self._events: list[Event] = []
        self._snapshots: dict[int, GameState] = {0: initial}
        self._head = initial
        self._cursor: int | None = None
        self._rev = rev
        self._subs: list[Callable[[Change], Any]] = []
        self._views: dict[tuple[str, int, int], SideView] = {}
        self.annotations: list[Annotation] = list(annotations)
        for e in events:
            self._push(e)
        self._side_revs: dict[str, int] = self._count_side_revs()
        for side, r in (side_revs or {}).items():
            if side in self._side_revs:
                self._side_revs[side] = int(r)

    def _count_side_revs(self) -> dict[str, int]:
        """Each side's revision as if nothing had been undone: the submissions it saw something of."""
        out = {}
        for side in self.initial.sides:
            out[side] = len({e.batch for e in self._events if e.visible(side)})
        return out

    # -- reading -------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The state now (or at the cursor after :meth:`step_to`)."""
        return self._head if self._cursor is None else self.state_at(self._cursor)

    @property
    def state_id(self) -> int:
        """The game's monotonic revision (the umpire's and the store's): grows with every commit
        and undo. A side's own is :meth:`revision`."""
        return self._rev

    def revision(self, side: str = UMPIRE) -> int:
        """The revision *side* knows: it grows by one with every commit that adds, and every undo
        that removes, an event *side* may see — never with what *side* may not see (the umpire's is
        :attr:`state_id`). An order prepared against it is stale once it moved (:meth:`submit`).

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> _ = game.submit("blue: move B-INF-1 0303")  # out of Red's sight
        >>> game.state_id, game.revision("blue"), game.revision("red")
        (1, 1, 0)

        Raises:
            KeyError: no such side.
        """
        if side == UMPIRE:
            return self._rev
        try:
            return self._side_revs[side]
        except KeyError:
            raise KeyError(f"no side {side!r}; sides are {list(self._side_revs)}") from None

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole history (umpire's eyes)."""
        return tuple(self._events)

    @property
    def seq(self) -> int:
        """Number of events in the history."""
        return len(self._events)

    @property
    def clock(self):  # noqa: ANN201
        return self.state.clock

    @property
    def units(self) -> FrozenDict:
        return self.state.units

    @property
    def map(self):  # noqa: ANN201
        return self.state.map

    @property
    def sides(self) -> list[str]:
        return list(self.state.sides)

    @property
    def at_head(self) -> bool:
        """False after ``step_to`` moved the cursor back into the history."""
        return self._cursor is None

    @property
    def cursor(self) -> int:
        """The event count the displayed state reflects."""
        return self.seq if self._cursor is None else self._cursor

    def unit(self, unit_id: str) -> Unit:
        """A unit of the current state."""
        return self.state.unit(unit_id)

    def hex(self, ref: Any) -> Hex:
        """Resolve a hex label such as ``"0304"`` on this game's map."""
        return self.state.map.hex(ref)

    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def outcome(self) -> Any:
        return self.ruleset.outcome(self.state)

    def state_at(self, n: int) -> GameState:
        """The state after the first *n* events (from the nearest snapshot; never re-rolls)."""
        if not 0 <= n <= len(self._events):
            raise HistoryError(f"event {n} is outside the history (0..{len(self._events)})")
        if n == len(self._events):
            return self._head
        base = (n // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
        while base not in self._snapshots:
            base -= SNAPSHOT_EVERY
        s = self._snapshots[base]
        extra = self.ruleset.reducers
        for e in self._events[base:n]:
            s = apply(s, e, extra)
        return s

    def view(self, side: str) -> SideView:
        """What *side* may know now (``"umpire"``: the whole truth minus the dice state).

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> sorted(game.view("red").units)  # Blue's units are not detected yet
        ['R-ARM-1', 'R-INF-1', 'R-REC-1']
        >>> len(game.view("umpire").units)
        6
        """
        key = (side, self._rev, self.cursor)
        v = self._views.get(key)
        if v is None:
            evs = self._events[: self.cursor]
            v = side_view(self.state, side, self.ruleset, evs)
            if len(self._views) > 64:
                self._views.clear()
            self._views[key] = v
        return v

    def knowledge(self, side: str) -> StateLike:
        """What *side* knows now, on which everything it is told is computed: its view (own units,
        what it detected, its own private facts); the umpire's: the truth.

        Raises:
            UnknownSideError: *side* is neither a side of the game nor the umpire.
        """
        check_side(self.state, side)
        return self.state if side == UMPIRE else self.view(side)

    def legal_orders(self, side: str) -> LegalOrders:
        """What *side* may order now, with candidates for each parameter (computed on what *side*
        knows, :meth:`knowledge`).

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> legal = game.legal_orders("blue")
        >>> legal.verbs, legal["move"].candidates["unit"]
        (['done', 'move'], ('B-INF-1', 'B-ARM-1', 'B-REC-1'))
        >>> "blue: move B-INF-1 0303" in legal, "blue: move B-INF-1 0909" in legal
        (True, False)
        >>> game.legal_orders("red")  # Blue moves first
        <LegalOrders red: nothing>
        """
        state = self.knowledge(side)
        specs = self.ruleset.legal_orders(state, side)

        def check(order: Order) -> bool:
            try:
                self.ruleset.check(state, order)
                return True
            except IllegalOrderError:
                return False

        return LegalOrders(side, tuple(specs), check)

    def check(self, order: Order | str) -> dict[str, Any]:
        """Validate without committing, on what the ordering side knows (:meth:`knowledge`);
        returns the bound arguments or raises IllegalOrderError."""
        order = self._parse(order)
        return self.ruleset.check(self.knowledge(order.side), order)

    def preview(self, order: Order | str) -> Any:
        """Exact outcome distribution of *order*, computed on the ordering side's view."""
        order = self._parse(order)
        return self.ruleset.preview(self.knowledge(order.side), order)  # UnknownSideError if none

    # -- changing ------------------------------------------------------------------------------
    def submit(
        self, order: Order | str, *, state_id: int | None = None, seat: str | None = None
    ) -> Submission:
        """Validate, adjudicate and commit *order*.

        The order is checked on what its side knows (:meth:`knowledge`): its refusal never rests
        on a hidden fact. If the truth refuses an order its side could not know to be illegal, the
        rule set resolves it at adjudication (``RuleSet.resolve_hidden``), as at the table.

        Args:
            order: an :class:`Order` or its text (``"blue: done"``).
            state_id: the revision of *seat* (:meth:`revision`) the order was prepared against
                (refused if stale).
            seat: whose revision *state_id* is: the ordering side's (default), or ``"umpire"``
                (the game's :attr:`state_id`: an umpire giving a side's order).

        Raises:
            IllegalOrderError: the order is illegal (its code and rule paragraph say why);
                nothing changes.
            StaleStateError: *state_id* is not *seat*'s revision.
            HistoryError: the game is rewound (``step_to``); return to the end or ``fork``.
        """
        with self._lock:
            order = self._parse(order)
            if self._cursor is not None:
                raise HistoryError(
                    f"the game is rewound to event {self._cursor}; call step_to({self.seq}) to return "
                    "to the end, or fork() to branch from here"
                )
            who = seat if seat is not None else order.side
            who = who if who in self._side_revs else UMPIRE
            if state_id is not None and state_id != self.revision(who):
                raise StaleStateError(state_id, self.revision(who))
            state = self._head
            known = self.knowledge(order.side)
            args = self.ruleset.check(known, order)
            dice = self._dice(state, order)
            adj: Adjudication
            try:
                if known is not state:
                    args = self.ruleset.check(state, order)
            except IllegalOrderError as refusal:
                adj = self.ruleset.resolve_hidden(state, order, args, refusal, dice)
            else:
                try:
                    adj = self.ruleset.adjudicate(state, order, args, dice)
                except IllegalOrderError as refusal:
                    if known is state:
                        raise
                    # the truth refused it while carrying it out: its text may name what the side
                    # does not know, so it is resolved like any hidden fact (the rolls made on the
                    # way are not made: the dice start again from where they were)
                    dice = self._dice(state, order)
                    adj = self.ruleset.resolve_hidden(state, order, args, refusal, dice)
            events = [*dice.take_events(), *adj.events]
            if dice.used:
                events.append(Event("rng", freeze({"state": dice.state}), frozenset(), ""))
            return self._commit(order, events, adj.result)

    @staticmethod
    def _dice(state: GameState, order: Order) -> Dice:
        """The dice of a submission: the game's generator, rolls credited to and seen by the
        ordering side (the umpire's by nobody else)."""
        return Dice(
            state.rng, actor=order.side, visible_to=order.side if order.side != UMPIRE else ()
        )

    def _commit(self, order: Order, events: list[Event], result: Any) -> Submission:
        batch = (self._events[-1].batch + 1) if self._events else 1
        seq0 = len(self._events)
        placed = [e.at(seq0 + i + 1, batch) for i, e in enumerate(events)]
        # apply first: a reducer error must leave everything unchanged
        s = self._head
        snaps: dict[int, GameState] = {}
        for e in placed:
            s = apply(s, e, self.ruleset.reducers)
            if e.seq % SNAPSHOT_EVERY == 0:
                snaps[e.seq] = s
        if self.sink is not None:
            self.sink.append(self._rev + 1, placed)
        self._rev += 1
        self._see(placed)
        self._events.extend(placed)
        self._snapshots.update(snaps)
        self._head = s
        sub = Submission(order, tuple(placed), result, self._rev)
        self._notify(Change("commit", self._rev, tuple(placed)))
        return sub

    def _see(self, events: Sequence[Event]) -> None:
        """Move the revision of each side that may see one of *events* (added or removed)."""
        for side in self._side_revs:
            if any(e.visible(side) for e in events):
                self._side_revs[side] += 1

    def state_at_replay(self, n: int) -> GameState:
        """The state after *n* events by replaying from the initial state (no snapshots)."""
        s = self.initial
        extra = self.ruleset.reducers
        for e in self._events[:n]:
            s = apply(s, e, extra)
        return s

    def _push(self, e: Event) -> None:
        """Append an already-committed event during construction (replay)."""
        if e.seq != len(self._events) + 1:
            raise HistoryError(
                f"history is not contiguous: event #{e.seq} after #{len(self._events)}"
            )
        self._head = apply(self._head, e, self.ruleset.reducers)
        self._events.append(e)
        if e.seq % SNAPSHOT_EVERY == 0:
            self._snapshots[e.seq] = self._head

    def undo(self) -> tuple[Event, ...]:
        """Take back the last submission (all its events, dice included). Returns them.

        Raises:
            HistoryError: nothing to undo, or the game is rewound.
        """
        with self._lock:
            if self._cursor is not None:
                raise HistoryError("cannot undo while rewound; step_to the end first")
            if not self._events:
                raise HistoryError("nothing to undo: the game is at its start")
            batch = self._events[-1].batch
            cut = len(self._events)
            while cut > 0 and self._events[cut - 1].batch == batch:
                cut -= 1
            if self.sink is not None:
                self.sink.truncate(self._rev + 1, cut)
            self._rev += 1
            removed = tuple(self._events[cut:])
            self._see(removed)
            del self._events[cut:]
            for k in [k for k in self._snapshots if k > cut]:
                del self._snapshots[k]
            self._head = self._replay_from_snapshot(cut)
            self._views.clear()
            self._notify(Change("undo", self._rev, removed))
            return removed

    def _replay_from_snapshot(self, n: int) -> GameState:
        base = max(k for k in self._snapshots if k <= n)
        s = self._snapshots[base]
        for e in self._events[base:n]:
            s = apply(s, e, self.ruleset.reducers)
        return s

    def step_to(self, n: int) -> GameState:
        """Show the game as it was after *n* events (a history slider); ``step_to(game.seq)``
        returns to the present. Orders are refused while rewound (fork to branch).

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> game.step_to(0).units["B-INF-1"].hex, game.at_head
        (Hex(1, 2), False)
        >>> game.step_to(game.seq).units["B-INF-1"].hex, game.at_head
        (Hex(2, 1), True)
        """
        with self._lock:
            state = self.state_at(n)
            self._cursor = None if n == len(self._events) else n
            self._notify(Change("step", self._rev))
            return state

    def fork(self, at: int | None = None, *, sink: EventSink | None = None) -> Game:
        """A what-if branch: a new in-memory game with the first *at* events (default: the cursor).

        A submission's events are atomic, so a fork inside one starts just before it (the branch
        begins at a point where a player could give an order). Annotations anchored at or before
        the fork point come along.

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> what_if = game.fork(at=0)  # before the move
        >>> _ = what_if.submit("blue: move B-INF-1 0202")
        >>> what_if.unit("B-INF-1").hex == game.unit("B-INF-1").hex, what_if.meta["forked_from"]
        (False, 0)
        """
        n = self.cursor if at is None else at
        if not 0 <= n <= len(self._events):
            raise HistoryError(f"cannot fork at {n}: history has {len(self._events)} events")
        while 0 < n < len(self._events) and self._events[n].batch == self._events[n - 1].batch:
            n -= 1
        g = Game(
            self.ruleset,
            self.initial,
            (),
            sink=sink,
            meta={**self.meta, "forked_from": n, "store": None},
            annotations=[a for a in self.annotations if a.seq <= n],
        )
        g._events = list(self._events[:n])
        g._snapshots = {k: v for k, v in self._snapshots.items() if k <= n}
        g._head = self.state_at(n)
        g._side_revs = g._count_side_revs()
        return g

    def annotate(
        self,
        text: str,
        *,
        seq: int | None = None,
        turn: int | None = None,
        hex: Any = None,
        unit: str | None = None,
        side: str | None = None,
        author: str = "",
        tags: Iterable[str] = (),
        created: str | None = None,
    ) -> Annotation:
        """Write a note anchored to an event (default: the current one) and optionally a turn,
        hex (label or Hex), unit or side. Returns the :class:`Annotation`.

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> note = game.annotate("the infantry takes the ford", unit="B-INF-1", tags=["move"])
        >>> note.seq, note.turn, note.unit, note.tags
        (2, 1, 'B-INF-1', ('move',))
        >>> game.annotate("  ")
        Traceback (most recent call last):
        ...
        ValueError: an annotation needs some text
        """
        with self._lock:
            if not isinstance(text, str) or not text.strip():
                raise ValueError("an annotation needs some text")
            s = self.state
            h = s.map.hex(hex) if hex is not None else None
            if unit is not None and unit not in s.units:
                raise KeyError(f"no unit {unit!r} to annotate")
            if side is not None:
                check_side(s, side)
            ann = Annotation(
                id=max((a.id for a in self.annotations), default=0) + 1,
                text=text,
                seq=self.cursor if seq is None else int(seq),
                turn=s.clock.turn if turn is None else turn,
                hex=h,
                unit=unit,
                side=side,
                author=author,
                tags=tuple(tags),
                created=created or _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            )
            if self.sink is not None:
                self.sink.annotate(ann)
            self.annotations.append(ann)
            self._notify(Change("annotate", self._rev, annotation=ann))
            return ann

    def subscribe(self, callback: Callable[[Change], Any]) -> Callable[[], None]:
        """Call *callback(change)* after every commit, undo, step or annotation.
        Returns a function that unsubscribes.

        Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> seen = []
        >>> unsubscribe = game.subscribe(lambda change: seen.append(change.kind))
        >>> _ = game.submit("blue: move B-INF-1 0303"); _ = game.undo()
        >>> unsubscribe()
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> seen
        ['commit', 'undo']
        """
        self._subs.append(callback)

        def unsubscribe() -> None:
            if callback in self._subs:
                self._subs.remove(callback)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        for fn in list(self._subs):
            try:
                fn(change)
            except Exception as exc:  # a broken display must never break the game
                warnings.warn(
                    f"owsnb subscriber {fn!r} failed: {exc!r}", RuntimeWarning, stacklevel=2
                )

    def _parse(self, order: Order | str) -> Order:
        return order if isinstance(order, Order) else Order.parse(order)

    def export(self) -> dict[str, Any]:
        """The whole record as plain JSON data (:mod:`owsnb.kernel.codec`): the rule set, the
        initial state with its dice state, every event with the dice states, the annotations and
        the meta facts (the dice seed) — everything, every secret and the dice to come, to publish
        once the game is over (a served game's umpire may, :meth:`Authority.export`). Paths on the
        machine that holds the game are left out.

        Example:
        >>> import owsnb
        >>> from owsnb.kernel import codec
        >>> from owsnb.kernel.registry import register_ruleset
        >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
        >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
        >>> game = owsnb.load(SCENARIO, seed=11, save=False)
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> rec = game.export()
        >>> rec["meta"]["seed"], len(rec["events"]), "file" in rec["initial"]["f"]["scenario"]
        (11, 2, False)
        >>> again = Game(game.ruleset, codec.decode(rec["initial"]), codec.decode(rec["events"]))
        >>> again.state.units == game.state.units and again.state.rng == game.state.rng
        True
        """
        from owsnb.kernel import codec
        from owsnb.kernel.view import view_scenario

        initial = self.initial.evolve(scenario=view_scenario(self.initial.scenario))
        meta = {
            k: v
            for k, v in self.meta.items()
            if k not in ("store", "scenario_file") and not str(k).startswith("seat:")
        }
        return {
            "ruleset": self.ruleset.name,
            "state_id": self._rev,
            "meta": codec.encode(meta),
            "initial": codec.encode(initial),
            "events": [codec.encode(e) for e in self._events],
            "annotations": [a.to_dict() for a in self.annotations],
        }

    # -- convenience ---------------------------------------------------------------------------
    def history(self, **kwargs: Any) -> Any:
        """The history as an ``xarray.Dataset`` (see :mod:`owsnb.analysis`)."""
        from owsnb.analysis.history import history

        return history(self, **kwargs)

    def log(self, side: str = UMPIRE, kinds: Iterable[str] | None = None) -> list[Event]:
        """Events *side* may see (optionally only some kinds), e.g. ``game.log("blue", ["die"])``,
        numbered as *side* saw them (:func:`~owsnb.kernel.view.renumber`; the umpire: the game's
        numbers, the dice state left out)."""
        ks = set(kinds) if kinds is not None else None
        return [
            e for e in renumber(self._events[: self.cursor], side) if ks is None or e.kind in ks
        ]

    def __repr__(self) -> str:
        sid = self.state.scenario.get("id", "")
        store = self.meta.get("store")
        where = f", saving to {store}" if store else ""
        return f"<Game {self.ruleset.name}:{sid} {self.seq} events, state {self._rev}; {self.clock}{where}>"

    def _repr_html_(self) -> str:
        from owsnb.display.html import game_html

        return game_html(self)
