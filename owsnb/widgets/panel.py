"""The base of the table's panels: a box bound to a :class:`~owsnb.widgets.table.Table` that
stops listening and closes every widget it made (browser models included) when closed, and that
sends nothing while it is out of sight.

A panel in a hidden tab (``panel.show(False)``) does not redraw: its table watchers only mark it
stale, and it redraws once when shown again. A panel whose logic must keep running while hidden
(the order panel prepares orders from map clicks, which the map and the dashboard draw) sets
``lazy = False``: it keeps working, but its widgets hold their messages until it is shown, when
each widget that changed sends one.

Example:
    >>> import ipywidgets as W
    >>> from owsnb.widgets._doc import tiny_game
    >>> from owsnb.widgets.table import Table
    >>> class Where(Panel):
    ...     def __init__(self, table):
    ...         self.table, self.out = table, W.HTML()
    ...         super().__init__([self.out])
    ...         self.watch(self.redraw, ["hex"])
    ...     def redraw(self, change=None):
    ...         self.out.value = str(self.table.hex)
    >>> p = Where(Table.of(tiny_game(), "blue"))
    >>> p.show(False); p.table.pick(hex="0201"); p.out.value, p.stale
    ('', True)
    >>> p.show(); p.out.value, p.stale
    ('0201', False)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from owsnb.widgets.wire import widget_tree

__all__ = ["Panel"]


class Panel(W.VBox):
    """A VBox with a ``table``; ``watch`` observes table traits, ``show`` hides and shows it,
    ``close`` undoes it all."""

    table: Any
    lazy: bool = True
    """Hidden: skip redraws and redraw once when shown (else: run, hold the messages)."""

    _shown = True
    _stale = False
    _held: contextlib.ExitStack | None = None

    def watch(self, fn: Callable[..., Any], names: list[str]) -> None:
        """Observe *names* of the table with *fn* until the panel is closed (while the panel is
        hidden, a lazy panel only notes that it is stale)."""
        if not hasattr(self, "_watches"):
            self._watches: list[tuple[Callable[..., Any], Callable[..., Any], list[str]]] = []

        def run(change: Any = None) -> None:
            if self.lazy and not self._shown:
                self._stale = True
                return
            fn(change)

        self.table.observe(run, names)
        self._watches.append((fn, run, names))

    @property
    def shown(self) -> bool:
        """False while the panel is out of sight (a hidden tab)."""
        return self._shown

    @property
    def stale(self) -> bool:
        """True when the table changed while a lazy panel was hidden (it redraws when shown)."""
        return self._stale

    def show(self, shown: bool = True) -> None:
        """Tell the panel it is in sight (or not); a stale panel redraws now, a held one sends
        what changed (one message per widget)."""
        if shown == self._shown:
            return
        self._shown = shown
        if not self.lazy:
            if shown:
                self._release()
            else:
                self._hold()
            return
        if shown and self._stale:
            self._stale = False
            with self.table.batch():
                self.refresh()

    def catch_up(self) -> None:
        """Bring what the browser holds up to date now, even out of sight: after a change of
        seat, a hidden tab must not keep the last seat's content (nor show it for a moment when
        chosen)."""
        if self.lazy:
            if self._stale:
                self._stale = False
                with self.table.batch():
                    self.refresh()
        elif self._held is not None:
            self._release()
            self._hold()

    def refresh(self) -> None:
        """Redraw everything from the table (every watcher once)."""
        done: list[Callable[..., Any]] = []
        for fn, _, _ in getattr(self, "_watches", []):
            if fn not in done:
                done.append(fn)
                fn(None)

    def _hold(self) -> None:
        self._held = contextlib.ExitStack()
        for w in widget_tree(self, *self.extra_widgets()):
            self._held.enter_context(w.hold_sync())

    def adopt(self, widget: Any) -> Any:
        """Hold the messages of a widget made while the panel is hidden (a panel that is not
        lazy calls this for every widget it makes later). Returns *widget*."""
        if self._held is not None:
            for w in widget_tree(widget):
                self._held.enter_context(w.hold_sync())
        return widget

    def _release(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            with self.table.batch():
                held.close()

    def extra_widgets(self) -> list[Any]:
        """Widgets the panel made that are not shown right now (closed with it)."""
        return []

    def close(self) -> None:
        try:
            for _, run, names in getattr(self, "_watches", []):
                self.table.unobserve(run, names)
            self.table.unhold(self)
            self._watches = []
            self._release()
            for w in reversed(
                [*widget_tree(self)[1:], *(x for e in self.extra_widgets() for x in widget_tree(e))]
            ):
                w.close()
        except Exception:  # noqa: BLE001 - closing at interpreter exit must not raise
            pass
        super().close()
