"""Seats: what a widget may ask of a game, cut down to one side's view.

Widgets never hold a :class:`~owsnb.kernel.game.Game`; they hold a **seat**: the game as one side
(or the umpire) may see and act on it. :meth:`Seat.local` wraps an in-memory game; the seminar
client (``owsnb.connect(url, token)``) offers the same surface for a game held by an authority
server, so every widget works unchanged against a remote game.

The surface (all a widget may call):

==========================  ========================================================================
``side``, ``ruleset``       the seat's side (or ``"umpire"``) and the rule set (presentation hooks)
``state_id``                the seat's revision (orders are submitted against it): it moves only
                            when something this seat may see changes
``view()``                  the :class:`~owsnb.kernel.view.SideView` now
``view_at(n)``              the view as it was after event *n* (rounded down to an event this
                            seat saw), for the history slider
``legal_orders(side)``      :class:`~owsnb.kernel.orders.LegalOrders` (``side`` defaults to the
                            seat's; only the umpire may ask for another side's)
``check(order)``            validate without committing (raises ``IllegalOrderError``)
``preview(order)``          the exact outcome ``Distribution`` (or a rich object, or ``None``)
``submit(order, state_id)`` commit; returns a :class:`~owsnb.kernel.game.Submission` holding only
                            the events this seat may see
``undo()``                  take back the last submission
``annotate(text, ...)``     write an annotation; ``annotations()`` lists those this seat may read
``subscribe(callback)``     ``callback(change)`` after every change; the change carries only the
                            events this seat may see. Returns an unsubscribe function.
``fork(at)``                a new seat on a what-if branch (a remote seat may refuse)
``computer`` (optional)     side -> bot: the sides the umpire handed to the computer, as far as
                            this seat may know (a seminar seat; see :func:`computer_holds`)
==========================  ========================================================================

A side seat may only give (and preview, and check) its own side's orders; the umpire's seat may
give any side's orders (solo study) as well as the umpire's own.

A side's seat numbers only what it sees (as :func:`~owsnb.kernel.view.renumber` does): event
``seq`` and ``batch`` numbers, the moments of ``view_at`` and of annotations count the events this
side may see, ``state_id`` is the side's :meth:`~owsnb.kernel.game.Game.revision`, and a change that
carries nothing this seat may see is not relayed to its subscribers. The umpire's seat keeps the
game's numbers.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> seat = Seat.local(tiny_game(), "blue")
    >>> seat.side, sorted(seat.view().units)
    ('blue', ['B-1'])
    >>> seat.submit("red: done")
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.AuthError: the blue seat cannot give red's orders
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from owsnb.kernel.errors import AuthError, HistoryError, UnknownSideError
from owsnb.kernel.game import Annotation, Change, Game, Submission
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import SideView, renumber, seen_positions, side_view

__all__ = ["Seat", "LocalSeat", "as_seat", "SEAT_METHODS", "computer_holds"]

SEAT_METHODS = (
    "view",
    "view_at",
    "legal_orders",
    "check",
    "preview",
    "submit",
    "undo",
    "annotate",
    "annotations",
    "subscribe",
)
"""Methods an object must have to be used as a seat (besides ``side``, ``ruleset`` and
``state_id``)."""


class Seat:
    """The surface a widget may use (see the module docstring). Subclass or duck-type it."""

    side: str
    ruleset: Any

    @staticmethod
    def local(game: Game, side: str) -> LocalSeat:
        """A seat on an in-memory :class:`Game` for *side* (``"umpire"`` for solo study)."""
        return LocalSeat(game, side)

    @property
    def state_id(self) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def view(self) -> SideView:  # pragma: no cover - interface
        raise NotImplementedError

    def view_at(self, n: int) -> SideView:  # pragma: no cover - interface
        raise NotImplementedError

    def legal_orders(self, side: str | None = None) -> LegalOrders:  # pragma: no cover - interface
        raise NotImplementedError

    def check(self, order: Order | str) -> dict[str, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def preview(self, order: Order | str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def submit(
        self, order: Order | str, *, state_id: int | None = None
    ) -> Submission:  # pragma: no cover
        raise NotImplementedError

    def undo(self) -> tuple:  # pragma: no cover - interface
        raise NotImplementedError

    def annotate(self, text: str, **anchors: Any) -> Annotation:  # pragma: no cover - interface
        raise NotImplementedError

    def annotations(self) -> list[Annotation]:  # pragma: no cover - interface
        raise NotImplementedError

    def subscribe(
        self, callback: Callable[[Change], Any]
    ) -> Callable[[], None]:  # pragma: no cover
        raise NotImplementedError

    def fork(self, at: int | None = None) -> Seat:  # pragma: no cover - interface
        raise HistoryError("this seat cannot fork the game")


class LocalSeat(Seat):
    """A seat on an in-memory game (hot-seat play, solo study, tests).

    Args:
        game: the :class:`Game`.
        side: a side of the game, or ``"umpire"``.

    Raises:
        KeyError: *side* is neither a side of the game nor ``"umpire"``.
    """

    def __init__(self, game: Game, side: str):
        if side != UMPIRE and side not in game.state.sides:
            raise UnknownSideError.of(side, game.state.sides)
        self._game = game
        self.side = side
        self.ruleset = game.ruleset

    def __repr__(self) -> str:
        return f"<LocalSeat {self.side} on {self._game!r}>"

    # -- reading -------------------------------------------------------------------------------
    @property
    def state_id(self) -> int:
        return self._game.revision(self.side)

    @property
    def sides(self) -> list[str]:
        """The game's sides (in play order)."""
        return list(self._game.state.sides)

    @property
    def scenario_file(self) -> str | None:
        """The scenario's file on this machine (a local game's; views never carry it)."""
        return self._game.state.scenario.get("file") or None

    def view(self) -> SideView:
        """What this seat may know now (at the end of the history)."""
        g = self._game
        if g.at_head:
            return g.view(self.side)
        # someone rewound the game (Game.step_to): the seat still sees the present
        return side_view(g.state_at(g.seq), self.side, g.ruleset, g.events)

    def view_at(self, n: int) -> SideView:
        """The view after the *n*-th event this seat saw (the umpire: the game's event *n*).

        Raises:
            HistoryError: *n* is outside the history this seat saw.
        """
        g = self._game
        k = self._game_seq(n)
        return side_view(g.state_at(k), self.side, g.ruleset, g.events[:k])

    def legal_orders(self, side: str | None = None) -> LegalOrders:
        """What *side* (default: this seat's) may order now."""
        return self._game.legal_orders(self._actor(side))

    def check(self, order: Order | str) -> dict[str, Any]:
        """Validate *order* without committing; returns its bound arguments."""
        return self._game.check(self._own(order))

    def preview(self, order: Order | str) -> Any:
        """Exact outcome distribution of *order* (computed on the ordering side's view)."""
        return self._game.preview(self._own(order))

    # -- changing ------------------------------------------------------------------------------
    def submit(self, order: Order | str, *, state_id: int | None = None) -> Submission:
        """Commit *order* (*state_id*: this seat's revision it was prepared against); the returned
        submission holds only the events this seat may see, numbered as it sees them."""
        sub = self._game.submit(self._own(order), state_id=state_id, seat=self.side)
        return replace(sub, events=self._numbered(sub.events), state_id=self.state_id)

    def undo(self) -> tuple:
        """Take back the last submission; returns the undone events this seat may see."""
        before = self._game.events
        removed = self._game.undo()
        return self._numbered(removed, before)

    def annotate(self, text: str, **anchors: Any) -> Annotation:
        """Write an annotation (private to this seat unless ``side=None`` is given)."""
        anchors.setdefault("side", self.side)
        if anchors["side"] not in (None, self.side) and self.side != UMPIRE:
            raise AuthError(f"the {self.side} seat cannot write {anchors['side']}'s annotations")
        if (
            self.side != UMPIRE
            and anchors.get("unit") is not None
            and anchors["unit"] not in self.view().units
        ):
            raise KeyError(f"no unit {anchors['unit']!r} visible to {self.side}")
        if self.side != UMPIRE:
            seen = seen_positions(self._game.events[: self._game.cursor], self.side)
            at = anchors.get("seq")
            anchors["seq"] = self._game_seq(len(seen) if at is None else int(at))
        return self._seat_note(self._game.annotate(text, **anchors))

    def annotations(self) -> list[Annotation]:
        """Annotations this seat may read: public ones and its own side's (the umpire reads all),
        anchored at the moments this seat numbers."""
        return [self._seat_note(a) for a in self._game.annotations if self._may_read(a)]

    def subscribe(self, callback: Callable[[Change], Any]) -> Callable[[], None]:
        """Call *callback(change)* after every change (events filtered for this seat)."""

        def relay(change: Change) -> None:
            ann = change.annotation
            if ann is not None and not self._may_read(ann):
                return
            events = tuple(self._visible(change.events))
            if change.kind in ("commit", "undo") and change.events and not events:
                return  # nothing this seat may see: it hears nothing
            if change.kind == "commit":
                events = self._numbered(change.events)
            elif change.kind == "undo":
                events = self._numbered(change.events, (*self._game.events, *change.events))
            callback(
                replace(
                    change,
                    state_id=self.state_id,
                    events=events,
                    annotation=None if ann is None else self._seat_note(ann),
                )
            )

        return self._game.subscribe(relay)

    def fork(self, at: int | None = None) -> LocalSeat:
        """A seat for the same side on a what-if branch from the *at*-th event this seat saw
        (default: now)."""
        n = self._game.seq if at is None else self._game_seq(at)
        return LocalSeat(self._game.fork(n), self.side)

    # -- helpers -------------------------------------------------------------------------------
    def _actor(self, side: str | None) -> str:
        side = self.side if side is None else side
        if side != self.side and self.side != UMPIRE:
            raise AuthError(f"the {self.side} seat cannot act for {side}")
        return side

    def _own(self, order: Order | str) -> Order:
        o = (
            order
            if isinstance(order, Order)
            else Order.parse(order, side=self.side if self.side != UMPIRE else None)
        )
        if o.side != self.side and self.side != UMPIRE:
            raise AuthError(f"the {self.side} seat cannot give {o.side}'s orders")
        return o

    def _visible(self, events: Iterable[Any]) -> list[Any]:
        return [e for e in events if e.visible(self.side)]

    def _game_seq(self, n: int) -> int:
        """The game's event count just after the *n*-th event this seat saw (HistoryError if it
        saw fewer)."""
        g = self._game
        if self.side == UMPIRE:
            if not 0 <= n <= g.seq:
                raise HistoryError(f"event {n} is outside the history (0..{g.seq})")
            return n
        seen = seen_positions(g.events, self.side)
        if not 0 <= n <= len(seen):
            raise HistoryError(f"event {n} is outside the history (0..{len(seen)})")
        return seen[n - 1] if n else 0

    def _numbered(self, events: Iterable[Any], history: Iterable[Any] | None = None) -> tuple:
        """*events* — the last ones of *history* (default: the game's) — as this seat numbers
        them: only those it may see."""
        mine = self._visible(events)
        if not mine or self.side == UMPIRE:
            return tuple(renumber(mine, UMPIRE)) if self.side == UMPIRE else ()
        seen = renumber(self._game.events if history is None else history, self.side)
        return seen[len(seen) - len(mine) :]

    def _seat_note(self, a: Annotation) -> Annotation:
        """*a* anchored at the moment this seat numbers (the events it saw up to it)."""
        if self.side == UMPIRE:
            return a
        return replace(
            a, seq=bisect.bisect_right(seen_positions(self._game.events, self.side), a.seq)
        )

    def _may_read(self, a: Annotation) -> bool:
        return self.side == UMPIRE or a.side in (None, self.side)


def computer_holds(seat: Any) -> str | None:
    """The bot playing this side's seat's own side, when the umpire of a seminar handed it to
    the computer (its ``computer`` attribute, told by the authority), else ``None``: the seat
    then watches, and the authority refuses its orders. Only a side's own seat is held so; the
    umpire's, an observer's and a local seat never are.

    >>> from owsnb.widgets._doc import tiny_game
    >>> computer_holds(Seat.local(tiny_game(), "blue")) is None
    True
    """
    if getattr(seat, "role", None) != "side":  # the umpire looking through a side: never
        return None
    held = getattr(seat, "computer", None) or {}
    bot = held.get(seat.side)
    return str(bot) if bot else None


def as_seat(source: Any, side: str | None = None) -> Any:
    """A seat from a :class:`Game` (wrapped for *side*) or a seat-like object (returned as is).

    Raises:
        TypeError: *source* is neither.
        ValueError: a Game without a side, or a seat for another side than *side*.
    """
    if isinstance(source, Game):
        if side is None:
            raise ValueError(f"which seat? give seat= one of {[*source.state.sides, UMPIRE]}")
        return LocalSeat(source, side)
    missing = [m for m in SEAT_METHODS if not callable(getattr(source, m, None))]
    if missing or not hasattr(source, "side"):
        raise TypeError(
            f"{type(source).__name__} is not a Game or a seat "
            f"(missing {', '.join(missing) or 'side'})"
        )
    if side is not None and side != source.side:
        as_side = getattr(source, "as_side", None)  # a remote umpire may look as one side
        if as_side is None or source.side != UMPIRE:
            raise ValueError(f"this seat is {source.side!r}, not {side!r}")
        return as_side(side)
    return source
