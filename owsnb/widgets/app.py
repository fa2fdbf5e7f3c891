"""App: the whole game table for JupyterLab — map, orders, time and distance, dashboard, dice,
notes and the history slider, all on one seat.

``App(game, seat="blue")`` wraps a local :class:`~owsnb.kernel.game.Game`; ``App(seat_like)``
takes a seat (e.g. the seminar client). Hot-seat play: switch the seat with the buttons at the
top (a local game only; the map goes blank between seats so the next player does not see the
last one's view until they click). Solo study: ``seat="umpire"`` sees everything and may give
every side's orders. The side panels sit in tabs; those out of sight send nothing until their tab
is chosen (by a click, or :meth:`App.show_tab`).

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> app = App(tiny_game(), seat="blue")
    >>> [type(w).__name__ for w in app.parts.values()]  # doctest: +NORMALIZE_WHITESPACE
    ['MapView', 'OrderPanel', 'Briefing', 'TimeDistancePanel', 'Dashboard', 'DiceLog',
     'AnnotationPanel', 'History', 'Coach']
    >>> list(app.tabs.titles)
    ['orders', 'briefing', 'distance', 'dashboard', 'dice', 'notes']
    >>> app.switch("red"); app.seat.side, sorted(app.table.view.units)
    ('red', ['R-1'])
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from owsnb.kernel.state import UMPIRE
from owsnb.widgets.annotations import AnnotationPanel
from owsnb.widgets.briefing import Briefing, standing_of
from owsnb.widgets.coach import Coach
from owsnb.widgets.controls import button
from owsnb.widgets.dashboard import Dashboard
from owsnb.widgets.dicelog import DiceLog
from owsnb.widgets.history import History
from owsnb.widgets.mapview import MapView
from owsnb.widgets.orderpanel import OrderPanel
from owsnb.widgets.panel import Panel
from owsnb.widgets.table import Table
from owsnb.widgets.timedistance import TimeDistancePanel

__all__ = ["App"]


class App(Panel):
    """The game table (see the module docstring).

    Args:
        source: a Game, a seat, or a :class:`~owsnb.widgets.table.Table`.
        seat: the seat to open (a side or ``"umpire"``); required for a Game.
        seats: the seats offered by the hot-seat switch (default: every side and the umpire; a
            remote seat offers none).
        curtain: hide the table between hot-seat switches until the next player clicks.
        map_height: CSS height of the map.
        basemap: start with the online basemap on (off by default: everything works offline).
    """

    def __init__(
        self,
        source: Any,
        seat: str | None = None,
        *,
        seats: tuple[str, ...] | None = None,
        curtain: bool = True,
        map_height: str = "560px",
        basemap: bool = False,
    ):
        self.table = Table.of(source, seat)
        t = self.table
        local = hasattr(t.seat, "_game")
        view = t.view
        self.seats = (
            tuple(seats)
            if seats is not None
            else ((*view.sides, UMPIRE) if local else (t.seat.side,))
        )
        self.title = W.HTML()
        self.seat_buttons = W.ToggleButtons(
            options=list(self.seats),
            value=t.seat.side,
            tooltips=[f"show the table to {s}" for s in self.seats],
            style={"button_width": "auto"},
        )
        self.seat_buttons.observe(self._on_seat_button, "value")
        self.seat_buttons.layout.display = "" if len(self.seats) > 1 else "none"
        self.banner = W.HTML()
        self.parts: dict[str, W.Widget] = {
            "map": MapView(t, height=map_height, basemap=basemap),
            "orders": OrderPanel(t),
            "briefing": Briefing(t),
            "distance": TimeDistancePanel(t),
            "dashboard": Dashboard(t),
            "dice": DiceLog(t),
            "notes": AnnotationPanel(t),
            "history": History(t),
            "coach": Coach(t),  # at the top of the orders tab
        }
        side_tabs = [k for k in self.parts if k not in ("map", "history", "coach")]
        self.tabs = W.Tab(
            children=[
                _Group(self.parts["coach"], self.parts[k]) if k == "orders" else self.parts[k]
                for k in side_tabs
            ],
            titles=side_tabs,
            layout=W.Layout(width="100%"),
        )
        self.tabs.observe(self._on_tab, "selected_index")
        self._on_tab()
        self.curtain = curtain
        self.reveal = button(
            "Show the table", self._show, icon="eye", style="primary", width="220px", height="48px"
        )
        self.curtain_box = W.VBox(
            [W.HTML(), self.reveal],
            layout=W.Layout(
                display="none",
                align_items="center",
                justify_content="center",
                height=map_height,
                width="100%",
            ),
        )
        self.body = W.HBox(
            [
                W.Box([self.parts["map"]], layout=W.Layout(flex="3 1 0%", min_width="420px")),
                W.Box([self.tabs], layout=W.Layout(flex="2 1 0%", min_width="340px")),
            ],
            layout=W.Layout(width="100%", align_items="flex-start"),
        )
        super().__init__(
            [
                W.HBox(
                    [self.title, self.seat_buttons],
                    layout=W.Layout(
                        justify_content="space-between", align_items="center", width="100%"
                    ),
                ),
                self.banner,
                self.curtain_box,
                self.body,
                self.parts["history"],
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-app")
        self.table.hold(self)
        self.watch(self._on_seat, ["seat"])
        self.watch(self._on_revision, ["revision"])
        self._on_seat()

    # -- seats ---------------------------------------------------------------------------------
    @property
    def seat(self) -> Any:
        """The seat whose view is shown."""
        return self.table.seat

    @property
    def map(self) -> MapView:
        return self.parts["map"]  # type: ignore[return-value]

    @property
    def orders(self) -> OrderPanel:
        return self.parts["orders"]  # type: ignore[return-value]

    def switch(self, side: str) -> None:
        """Hot-seat: hand the table to *side* (behind the curtain if ``curtain`` is on)."""
        if side not in self.seats:
            raise KeyError(f"no seat {side!r} at this table; seats: {list(self.seats)}")
        self.table.switch(side)
        if self.curtain:
            self._hide(side)

    def _on_tab(self, change: Any = None) -> None:
        # panels out of sight send nothing: they redraw (or send what changed) when shown
        shown = self.tabs.selected_index
        for i, part in enumerate(self.tabs.children):
            if i != shown:
                part.show(False)
        if shown is not None:
            self.tabs.children[shown].show(True)

    def show_tab(self, name: str) -> None:
        """Bring the tab *name* forward (``"orders"``, ``"distance"``, ``"dashboard"``, ``"dice"``,
        ``"notes"``), as a click on its title does."""
        self.tabs.selected_index = list(self.tabs.titles).index(name)

    def _on_seat_button(self, change: dict) -> None:
        if change["new"] and change["new"] != self.table.seat.side:
            self.switch(change["new"])

    def _hide(self, side: str) -> None:
        self.curtain_box.children[0].value = (
            "<div style='font:16px system-ui;text-align:center'>"
            f"The table is now <b>{html.escape(side)}</b>'s.<br>"
            f"<span style='color:#6b7280'>Pass the screen, then click.</span></div>"
        )
        self.body.layout.display = "none"
        self.curtain_box.layout.display = "flex"

    def _show(self) -> None:
        self.curtain_box.layout.display = "none"
        self.body.layout.display = ""

    def _on_seat(self, change: Any = None) -> None:
        side = self.table.seat.side
        if side in self.seats and self.seat_buttons.value != side:
            self.seat_buttons.value = side
        self._on_revision()
        if change is not None:  # nothing of the last seat may stay in a hidden tab
            for part in self.tabs.children:
                part.catch_up()

    def _on_revision(self, change: Any = None) -> None:
        t = self.table
        view = t.view
        title = view.scenario.get("title") or view.scenario.get("id") or "game"
        rs = getattr(t.seat.ruleset, "title", "") or getattr(t.seat.ruleset, "name", "")
        self.title.value = (
            f"<span style='font:15px system-ui'><b>{html.escape(str(title))}</b> "
            f"<span style='color:#6b7280'>· {html.escape(str(rs))} · "
            f"{html.escape(str(view.clock))}</span></span>"
        )
        notes = []
        forked = getattr(getattr(t.seat, "_game", None), "meta", {}).get("forked_from")
        if forked is not None:
            notes.append(f"what-if branch from event {forked} (in memory, not saved)")
        if not t.live:
            notes.append(
                f"showing the past (event {t.at}); orders are off until you return to the present"
            )
        if t.seat.ruleset.is_over(view) if hasattr(t.seat.ruleset, "is_over") else False:
            st = standing_of(t.seat.ruleset, view)
            result = st["text"] if st else t.seat.ruleset.outcome(view)
            notes.append(f"the game is over: {result} (the briefing tab has the details)")
        self.banner.value = "".join(
            f"<div style='background:#fef3c7;padding:2px 8px;font:13px system-ui'>"
            f"{html.escape(n)}</div>"
            for n in notes
        )

    def close(self) -> None:
        for part in self.parts.values():
            part.close()
        for tab in self.tabs.children:
            if isinstance(tab, _Group):
                tab.close()
        super().close()
        self.table.close()


class _Group(W.VBox):
    """Panels shown together in one tab (the coach above the order panel): shown, hidden and
    brought up to date together."""

    def __init__(self, *parts: Any):
        super().__init__(list(parts), layout=W.Layout(width="100%"))
        self.parts = parts

    def show(self, shown: bool = True) -> None:
        for p in self.parts:
            p.show(shown)

    def catch_up(self) -> None:
        for p in self.parts:
            p.catch_up()
