"""The shared state of one game table: seat, moment shown, selection and the order being prepared.

Every widget of an :class:`~owsnb.widgets.app.App` observes one :class:`Table` (plain traitlets,
never synced to the browser): the map draws its ``view`` and selection, the order panel writes the
draft ``order``, the dashboard charts its ``preview``, the history slider moves ``at``. The table
talks to the game only through its seat (:mod:`owsnb.widgets.seat`).

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> t = Table.of(tiny_game(), "blue")
    >>> t.pick(hex="0101")
    >>> t.hex, t.unit, t.stack
    ('0101', 'B-1', ['B-1'])
    >>> t.submit("blue: done").order
    Order.parse('blue: done')
    >>> t.view.clock.done
    frozenset({'blue'})
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import traitlets as T

from owsnb.kernel.errors import AuthError, HistoryError, IllegalOrderError, StaleStateError
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.state import UMPIRE, Unit
from owsnb.widgets.seat import as_seat

__all__ = ["Table", "Pick", "Refusal"]


@dataclass(frozen=True)
class Pick:
    """A click on the map: the hex (printed label) and the unit clicked, if any. ``stack``: a
    click on a stack of several counters (its top unit is shown, its list opens; which unit is
    meant is the next click's to say)."""

    hex: str | None
    unit: str | None = None
    stack: bool = False


@dataclass(frozen=True)
class Refusal:
    """Why an order was refused (or could not be prepared): message, code and rule paragraph."""

    message: str
    code: str = ""
    rule: str = ""

    @classmethod
    def of(cls, exc: BaseException) -> Refusal:
        return cls(
            str(getattr(exc, "reason", None) or exc),
            getattr(exc, "code", "") or type(exc).__name__,
            getattr(exc, "rule", "") or "",
        )

    def __str__(self) -> str:
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"{self.message}{rule}"


class Table(T.HasTraits):
    """The game table shared by the widgets (see the module docstring).

    Traits (all observable, none synced to a browser):
        seat: the seat whose view is shown and whose orders are given.
        at: ``None`` for the present, or the event number shown by the history slider.
        view: the :class:`~owsnb.kernel.view.SideView` shown.
        revision: grows on every refresh (observe it to redraw).
        hex, unit, stack: the selected hex label, unit id and the ids of the units on that hex.
        actor: the side whose orders are prepared (the seat's side; the umpire may pick).
        follow: the umpire's panel acts for whoever acts now (``actor`` follows the clock);
            ``False`` once the umpire picks a side, which then never changes by itself.
        order: the order being prepared (complete or ``None``).
        preview: its exact outcome (``Distribution``, a rich object or ``None``).
        problem: a :class:`Refusal` if the order being prepared would be refused.
        refusal: the :class:`Refusal` of the last submission that failed.
        last: the last :class:`~owsnb.kernel.game.Submission` made here.
        show_reach, show_ranges: overlays wanted on the map for the selected unit.
        what_if: a hypothetical unit of the seat's side (see :mod:`owsnb.widgets.whatif`) whose
            reach and ranges are drawn instead of the selected unit's; never in the game.
        measuring: the time & distance panel is in sight: a hex picked is measured from the
            unit (the map draws the route, :mod:`owsnb.widgets.measure`).
        marks: what another seat was seen doing, for the map to draw besides this seat's own
            order: ``{"kind": "move" | "attack" | "target", "from": label or None, "to": label,
            "title": text}`` (the computer's orders as this seat saw them,
            :mod:`owsnb.widgets.opponent`); cleared when this seat gives an order.
    """

    seat = T.Any()
    at = T.Int(None, allow_none=True)
    view = T.Any()
    revision = T.Int(0)
    hex = T.Unicode(None, allow_none=True)
    unit = T.Unicode(None, allow_none=True)
    stack = T.List(T.Unicode())
    actor = T.Unicode("")
    follow = T.Bool(True)
    order = T.Any(None, allow_none=True)
    preview = T.Any(None, allow_none=True)
    problem = T.Any(None, allow_none=True)
    refusal = T.Any(None, allow_none=True)
    last = T.Any(None, allow_none=True)
    show_reach = T.Bool(True)
    show_ranges = T.Bool(False)
    what_if = T.Any(None, allow_none=True)
    measuring = T.Bool(False)
    marks = T.List(T.Dict())

    def __init__(self, seat: Any, **kwargs: Any):
        self.state_id = -1  # the game's revision the view shown was taken at
        self._unsubscribe: Callable[[], None] | None = None
        self._pick_callbacks: list[Callable[[Pick], Any]] = []
        self._legal: tuple[int, str, LegalOrders] | None = None
        self._held: list[Any] = []
        self._unbatched: weakref.WeakSet = weakref.WeakSet()
        self._batching = False
        super().__init__(**kwargs)
        self.seat = seat

    @classmethod
    def of(cls, source: Any, seat: str | None = None) -> Table:
        """A table from a :class:`Table` (returned as is), a Game (with *seat*) or a seat."""
        if isinstance(source, Table):
            if seat is not None and seat != source.seat.side:
                source.switch(seat)
            return source
        return cls(as_seat(source, seat))

    # -- batching ------------------------------------------------------------------------------
    def hold(self, root: Any) -> None:
        """Register a widget whose whole tree is held during table operations (see
        :meth:`batch`)."""
        if root not in self._held:
            self._held.append(root)

    def unhold(self, root: Any) -> None:
        """Forget a widget registered with :meth:`hold` (it was closed)."""
        if root in self._held:
            self._held.remove(root)

    def unbatched(self, widget: Any) -> Any:
        """Let *widget* send at once even during :meth:`batch`: a widget whose new state must
        reach the browser before the widgets that refer to it (a map counter's re-filled icon).
        Returns *widget*."""
        self._unbatched.add(widget)
        self._held_key: tuple[int, int] | None = None
        return widget

    def _held_widgets(self, widget_tree: Callable[..., list[Any]]) -> list[Any]:
        # walking the trees costs more than holding: walk again only when widgets came or went
        from ipywidgets.widgets import widget as _w

        key = (len(self._held), len(_w._instances))
        if getattr(self, "_held_key", None) != key:
            self._held_cache = [w for w in widget_tree(*self._held) if w not in self._unbatched]
            self._held_key = key
        return self._held_cache

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Hold the registered widgets' syncing while one operation runs, so each widget sends at
        most one message per click or move however many of its traits changed."""
        if self._batching or not self._held:
            yield
            return
        from owsnb.widgets.wire import widget_tree

        self._batching = True
        try:
            with contextlib.ExitStack() as stack:
                for w in self._held_widgets(widget_tree):
                    stack.enter_context(w.hold_sync())
                yield
        finally:
            self._batching = False

    # -- seat and moment -----------------------------------------------------------------------
    @T.observe("seat")
    def _seat_changed(self, change: dict) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        seat = change["new"]
        self._unsubscribe = seat.subscribe(self._on_change)
        self._legal = None
        with self.hold_trait_notifications():
            self.at = None
            self.hex = self.unit = None
            self.what_if = None
            self.stack = []
            self.order = None
            self.refusal = None
            self.last = None
            self.actor = "" if seat.side == UMPIRE else seat.side
            self.follow = True
            self.marks = []
        self.refresh()

    def act_as(self, side: str | None) -> None:
        """Umpire: give the orders of *side* from now on (``None``: of whoever acts now, following
        the clock). Only this changes who the umpire acts for."""
        with self.hold_trait_notifications():
            self.follow = side is None
            if side is not None:
                self.actor = side
        self.refresh()

    def switch(self, side: str) -> None:
        """Hot-seat: show the table to *side* (a local game only; a remote seat is fixed).

        Raises:
            AuthError: the seat cannot be switched (it is not on a local game).
        """
        game = getattr(self.seat, "_game", None)
        if game is None:
            raise AuthError(
                f"this {self.seat.side} seat is fixed; connect with another token to play {side}"
            )
        if side == self.seat.side:
            return
        from owsnb.widgets.seat import LocalSeat

        self.seat = LocalSeat(game, side)

    @property
    def live(self) -> bool:
        """True when the present is shown (orders may be given)."""
        return self.at is None

    def go_to(self, at: int | None) -> None:
        """Show the game after event *at* (``None``: the present)."""
        with self.batch():
            self.at = at

    @T.observe("at")
    def _at_changed(self, change: dict) -> None:
        self.refresh()

    def _on_change(self, change: Any) -> None:
        with self.batch():
            if change.kind == "annotate":
                self.revision += 1
                return
            self.refresh()

    def refresh(self) -> None:
        """Recompute the view shown, keep the selection consistent, bump ``revision``."""
        seat = self.seat
        self.state_id = seat.state_id
        view = seat.view() if self.at is None else seat.view_at(self.at)
        self._legal = None
        with self.hold_trait_notifications():
            self.view = view
            if seat.side == UMPIRE and (self.follow or not self.actor):
                # "act as: whoever acts" (the umpire's choice, shown as such): the panel follows
                # the clock; a side the umpire picked by hand is kept whatever happens
                acting = tuple(view.clock.acting)
                self.actor = acting[0] if acting else UMPIRE
            if self.unit is not None and self.unit not in view.units:
                self.unit = None
            if self.hex is not None:
                self.stack = self.stack_ids(self.hex)
            self.revision += 1
        if self.order is not None:
            self._evaluate(self.order)

    # -- reading -------------------------------------------------------------------------------
    @property
    def legal(self) -> LegalOrders | None:
        """Legal orders of ``actor`` now (``None`` while the history is rewound)."""
        if not self.live:
            return None
        key = (self.state_id, self.actor)
        if self._legal is None or self._legal[:2] != key:
            self._legal = (
                *key,
                self.seat.legal_orders(self.actor if self.actor != self.seat.side else None),
            )
        return self._legal[2]

    @property
    def presentation(self) -> Any:
        """The rule set's presentation object (:mod:`owsnb.kernel.presentation`): what the
        widgets draw, asked of it and never of the rules."""
        from owsnb.kernel.presentation import presentation_of

        return presentation_of(self.seat.ruleset)

    @property
    def focus(self) -> tuple[Any, str | None]:
        """The view and the unit id that reach, ranges and transit are of: a copy of the view
        holding the :attr:`what_if` unit when there is one (the game is not touched), else the
        view and the selected unit."""
        if self.what_if is not None:
            try:
                return self.view.with_unit(self.what_if), self.what_if.id
            except (KeyError, ValueError):  # not this seat's (it is cleared on a change of seat)
                pass
        return self.view, self.unit

    def hex_of(self, label: str) -> Any:
        """The :class:`Hex` of a printed label on this map."""
        return self.view.map.hex(label)

    def label(self, h: Any) -> str:
        """The printed label of a hex."""
        return self.view.map.label(h)

    def _stack_at(self, label: str) -> list[Unit]:
        h = self.view.map.hex(label)
        return sorted(
            (u for u in self.view.units.values() if u.hex == h),
            key=lambda u: (u.side != (self.actor or self.seat.side), u.id),
        )

    def stack_ids(self, label: str) -> list[str]:
        """Ids of the units on hex *label* in this view (the acting side's first)."""
        return [u.id for u in self._stack_at(label)]

    # -- selection -----------------------------------------------------------------------------
    def on_pick(self, callback: Callable[[Pick], Any], remove: bool = False) -> None:
        """Call *callback(pick)* after every map pick (the order panel fills parameters so)."""
        if remove:
            self._pick_callbacks.remove(callback)
        else:
            self._pick_callbacks.append(callback)

    def pick(self, hex: str | None = None, unit: str | None = None) -> None:
        """A click on the map: select *hex* (and *unit*, or the top unit of the hex's stack).

        A click on an empty hex keeps the selected unit (so its reach stays drawn while a
        destination is picked).
        """
        view = self.view
        if unit is not None:
            u = view.units.get(unit)
            if u is None:
                raise KeyError(f"no unit {unit!r} visible to {self.seat.side}")
            if u.hex is not None:
                hex = view.map.label(u.hex)
        stack = self.stack_ids(hex) if hex is not None else []
        several = unit is None and len(stack) > 1
        if unit is None and stack:
            unit = stack[0] if self.unit not in stack else self.unit
        with self.batch():
            with self.hold_trait_notifications():
                self.hex = hex
                self.stack = stack
                if unit is not None:
                    self.unit = unit
            p = Pick(hex, unit, several)
            for cb in list(self._pick_callbacks):
                cb(p)

    def clear(self) -> None:
        """Clear the selection, the what-if unit and the order being prepared."""
        with self.hold_trait_notifications():
            self.hex = self.unit = None
            self.what_if = None
            self.stack = []
            self.order = None

    # -- orders --------------------------------------------------------------------------------
    @T.observe("order")
    def _order_changed(self, change: dict) -> None:
        self._evaluate(change["new"])

    def _evaluate(self, order: Order | None) -> None:
        preview = problem = None
        if order is not None and self.live:
            try:
                self.seat.check(order)
            except (IllegalOrderError, AuthError) as exc:
                problem = Refusal.of(exc)
            if problem is None:
                try:
                    preview = self.seat.preview(order)
                except (IllegalOrderError, KeyError, ValueError) as exc:
                    problem = Refusal.of(exc)
        with self.hold_trait_notifications():
            self.preview = preview
            self.problem = problem

    def submit(self, order: Order | str) -> Any:
        """Submit *order* through the seat; a refusal is kept in ``refusal`` (and returned as
        ``None``) so the panels can show it with its rule paragraph."""
        with self.batch():
            return self._submit(order)

    def _submit(self, order: Order | str) -> Any:
        if not self.live:
            self.refusal = Refusal(
                "the table shows the past: return to the present (or fork) to give orders",
                "history",
            )
            return None
        try:
            sub = self.seat.submit(order, state_id=self.state_id)
        except (IllegalOrderError, AuthError, HistoryError) as exc:
            self.refusal = Refusal.of(exc)
            return None
        except StaleStateError as exc:
            self.refresh()
            self.refusal = Refusal(f"{exc}; the table was refreshed, look again", "stale")
            return None
        with self.hold_trait_notifications():
            self.refusal = None
            self.last = sub
            self.order = None
            self.marks = []
        return sub

    def undo(self) -> None:
        """Take back the last submission (a refusal is kept in ``refusal``)."""
        with self.batch():
            self._undo()

    def _undo(self) -> None:
        try:
            self.seat.undo()
        except (HistoryError, AuthError) as exc:
            self.refusal = Refusal.of(exc)
        else:
            self.refusal = None

    def close(self) -> None:
        """Stop listening to the seat."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
