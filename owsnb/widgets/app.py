"""App: the whole game table for JupyterLab and Voila — map, orders, time and distance,
dashboard, dice, notes and the history slider, all on one seat.

``App(game, seat="blue")`` wraps a local :class:`~owsnb.kernel.game.Game`; ``App(seat_like)``
takes a seat (e.g. the seminar client). Hot-seat play: switch the seat with the buttons at the
top (a local game only; the map goes blank between seats so the next player does not see the
last one's view until they click). Solo study: ``seat="umpire"`` sees everything and may give
every side's orders. An observer's seat (a seminar seat whose role is ``observer``) is read-only
and says so.

Layout: a header line (scenario, clock, whose seat; "projector" for a class, "history" to open
the slider, the hot-seat switch), the map on the left, and on the right the units off the map
(aboard, at base, in reserve: a click picks one, as on the map) above the side panels in tabs —
orders first. Tabs out of sight send nothing until chosen (by a click, or :meth:`App.show_tab`);
:meth:`App.add_tab` adds one (a briefing, say) without touching the others.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> app = App(tiny_game(), seat="blue")
    >>> [type(w).__name__ for w in app.parts.made()]  # a tab is made when first chosen
    ['MapView', 'OrderPanel', 'Coach']
    >>> [type(w).__name__ for w in app.parts.values()]  # doctest: +NORMALIZE_WHITESPACE
    ['MapView', 'OrderPanel', 'Coach', 'Briefing', 'TimeDistancePanel', 'Dashboard', 'DiceLog',
     'AnnotationPanel', 'History']
    >>> list(app.tabs.titles)
    ['orders', 'briefing', 'distance', 'dashboard', 'dice', 'notes']
    >>> app.switch("red"); app.seat.side, sorted(app.table.view.units)
    ('red', ['R-1'])
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping
from typing import Any

import ipywidgets as W

from owsnb.kernel.state import UMPIRE
from owsnb.widgets.annotations import AnnotationPanel
from owsnb.widgets.briefing import Briefing, standing_of
from owsnb.widgets.coach import Coach
from owsnb.widgets.controls import button, checkbox
from owsnb.widgets.dashboard import Dashboard
from owsnb.widgets.dicelog import DiceLog
from owsnb.widgets.history import History
from owsnb.widgets.mapview import MapView
from owsnb.widgets.orderpanel import OrderPanel
from owsnb.widgets.panel import Panel
from owsnb.widgets.seat import computer_holds
from owsnb.widgets.table import Table
from owsnb.widgets.timedistance import TimeDistancePanel

__all__ = ["App", "Parts", "seat_label", "APP_CSS"]


class Parts(Mapping):
    """The App's parts by name; a part not made yet is made when first asked for (its tab
    chosen, the history opened, or ``app.parts[name]`` read), then handed to *placed* to put it
    in its place. A page thus opens with the map and the orders alone: no widget of a tab nobody
    opened reaches the browser."""

    def __init__(self, made: dict[str, Any], makers: dict[str, Any], placed: Any):
        self._made = dict(made)
        self._makers = dict(makers)
        self._placed = placed
        self._order = [*made, *makers]

    def __getitem__(self, name: str) -> Any:
        if name not in self._made:
            if name not in self._makers:
                raise KeyError(name)
            part = self._made[name] = self._makers.pop(name)()
            self._placed(name, part)
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def add(self, name: str, part: Any) -> None:
        """A part made elsewhere (a tab added)."""
        self._made[name] = part
        self._makers.pop(name, None)
        if name not in self._order:
            self._order.append(name)

    def made(self) -> list[Any]:
        """The parts made so far."""
        return list(self._made.values())


APP_CSS = (
    # the header wraps to a second line rather than cut the step off (a long step title at
    # 1366 px, a hot seat's switch beside it, projector mode), and no further
    "<style>.owsnb-app .owsnb-head{font:15px system-ui,sans-serif;overflow:hidden;"
    "display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-height:1.3}"
    ".owsnb-app .owsnb-seat{background:#eef2ff;border-radius:4px;padding:0 5px;font-weight:600}"
    ".owsnb-projector .owsnb-head{font-size:22px}"
    ".owsnb-projector .owsnb-w,.owsnb-projector .owsnb-orders,.owsnb-projector .owsnb-boxes,"
    ".owsnb-projector .owsnb-map .widget-html{font-size:19px}"
    ".owsnb-projector .widget-button,.owsnb-projector .widget-toggle-button,"
    ".owsnb-projector .widget-dropdown select,.owsnb-projector .widget-text input,"
    ".owsnb-projector .widget-label{font-size:18px;height:auto;min-height:34px}"
    ".owsnb-projector .p-TabBar-tab,.owsnb-projector .lm-TabBar-tab{font-size:18px}"
    ".owsnb-projector .rule{font-size:15px}</style>"
)
"""The App's stylesheet (sent once): its header, and projector mode's larger text."""


def seat_label(seat: Any) -> str:
    """Who sits here, as the page says it: a side, an observer (and whose side it watches),
    the umpire of a seminar, or the umpire of a solo study (a local game).

    >>> from owsnb.widgets._doc import tiny_game
    >>> from owsnb.widgets.seat import LocalSeat
    >>> seat_label(LocalSeat(tiny_game(), "umpire")), seat_label(LocalSeat(tiny_game(), "blue"))
    ('umpire · solo study', 'blue')
    """
    role = getattr(seat, "role", None)
    side = seat.side
    if role == "observer":
        return "observer (read-only)" if side == UMPIRE else f"observer of {side} (read-only)"
    if side == UMPIRE:
        return "umpire · solo study" if hasattr(seat, "_game") else "umpire"
    return str(side)


class App(Panel):
    """The game table (see the module docstring).

    Args:
        source: a Game, a seat, or a :class:`~owsnb.widgets.table.Table`.
        seat: the seat to open (a side or ``"umpire"``); required for a Game.
        seats: the seats offered by the hot-seat switch (default: every side and the umpire; a
            remote seat offers none).
        curtain: hide the table between hot-seat switches until the next player clicks.
        map_height: CSS height of the map (any CSS length: a page gives
            ``"calc(100vh - 130px)"`` so the map fills the window).
        basemap: start with the online basemap on (off by default: everything works offline).
        projector: start in projector mode (larger counters and text, for a class).
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
        projector: bool = False,
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
        self.title = W.HTML(layout=W.Layout(flex="1 1 auto", overflow="hidden", min_width="0"))
        self.title.add_class("owsnb-title")
        self.seat_buttons = W.ToggleButtons(
            options=list(self.seats),
            value=t.seat.side,
            tooltips=[f"show the table to {s}" for s in self.seats],
            style={"button_width": "auto"},
        )
        self.seat_buttons.observe(self._on_seat_button, "value")
        self.seat_buttons.layout.display = "" if len(self.seats) > 1 else "none"
        self.seat_buttons.layout.flex = "0 0 auto"
        self.banner = W.HTML()
        self.style = W.HTML(APP_CSS, layout=W.Layout(display="none"))
        self.projector = checkbox(
            "projector", value=projector, tooltip="larger counters and text, for a class"
        )
        self.projector.layout.flex = "0 0 auto"
        self.projector.observe(lambda ch: self.set_projector(ch["new"]), "value")
        self.history_toggle = W.ToggleButton(
            value=False,
            description="history",
            icon="history",
            tooltip="step back through the game as this seat saw it (and fork a what-if)",
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.history_toggle.observe(self._on_history_toggle, "value")
        self.parts = Parts(
            {
                "map": MapView(t, height=map_height, basemap=basemap, tray=False),
                "orders": OrderPanel(t),
                "coach": Coach(t),  # at the top of the orders tab
            },
            {
                "briefing": lambda: Briefing(t),
                "distance": lambda: TimeDistancePanel(t),
                "dashboard": lambda: Dashboard(t),
                "dice": lambda: DiceLog(t),
                "notes": lambda: AnnotationPanel(t),
                "history": lambda: History(t),
            },
            self._placed,
        )
        # a tab is made when first chosen (or asked for): a page opens with the orders only
        self._spare = W.Layout()
        side_tabs = ["orders", "briefing", "distance", "dashboard", "dice", "notes"]
        self.tabs = W.Tab(
            children=[
                _Group(self.parts["coach"], self.parts["orders"])
                if k == "orders"
                else W.Box(layout=self._spare)
                for k in side_tabs
            ],
            titles=side_tabs,
            layout=W.Layout(width="100%"),
        )
        self.history_slot = W.Box(layout=W.Layout(display="none", width="100%"))
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
        # the side column never makes the page taller than the map: its tray and tabs scroll
        # on their own (``scroller``), so a long feed or result never moves the map under the
        # pointer; a panel added above them (:meth:`add_aside`) stays in sight beside the
        # scroller, never on top of the tabs or the order controls
        boxes = self.parts["map"].boxes  # many units off the map scroll in their own tray
        boxes.layout.flex = "0 0 auto"
        boxes.layout.max_height = "212px"
        boxes.layout.overflow = "hidden auto"  # (ipywidgets 8 has no overflow_y)
        self.tabs.layout.flex = "0 0 auto"
        self.scroller = W.VBox(
            [boxes, self.tabs],
            layout=W.Layout(flex="1 1 auto", min_height="0", overflow="hidden auto"),
        )
        self.scroller.add_class("owsnb-side-scroll")
        self.side = W.VBox(
            [self.scroller],
            layout=W.Layout(
                flex="2 1 0%",
                min_width="340px",
                max_height=f"calc({map_height} + 36px)",
                overflow="hidden",
            ),
        )
        self.body = W.HBox(
            [
                W.Box([self.parts["map"]], layout=W.Layout(flex="3 1 0%", min_width="420px")),
                self.side,
            ],
            layout=W.Layout(width="100%", align_items="flex-start"),
        )
        super().__init__(
            [
                self.style,
                W.HBox(
                    [self.title, self.projector, self.history_toggle, self.seat_buttons],
                    layout=W.Layout(
                        justify_content="space-between", align_items="center", width="100%"
                    ),
                ),
                self.banner,
                self.curtain_box,
                self.body,
                self.history_slot,
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-app")
        if projector:
            self.set_projector(True)
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

    def _placed(self, name: str, panel: W.Widget) -> None:
        """A part was made (its tab chosen, or asked for): put it in its place, out of sight
        unless its tab is the one shown."""
        if name == "history":
            panel.show(self.history_toggle.value)
            self.history_slot.children = (panel,)
            return
        titles = list(self.tabs.titles)
        if name not in titles:
            return
        i = titles.index(name)
        old = self.tabs.children[i]
        panel.show(self.tabs.selected_index == i)
        children = list(self.tabs.children)
        children[i] = panel
        self.tabs.children = children
        if old is not panel and type(old) is W.Box:
            old.close()

    def _on_tab(self, change: Any = None) -> None:
        # panels out of sight send nothing: they redraw (or send what changed) when shown
        shown = self.tabs.selected_index
        for i, part in enumerate(self.tabs.children):  # first: the tab left takes its charts out
            if i != shown and hasattr(part, "show"):  # before a new part re-lays the tabs
                part.show(False)
        if shown is not None:
            self.parts.get(self.tabs.titles[shown])  # made now, the first time it is chosen
        if shown is not None and hasattr(self.tabs.children[shown], "show"):
            self.tabs.children[shown].show(True)

    def add_tab(self, name: str, panel: W.Widget, index: int | None = None) -> None:
        """Add a side panel as a tab *name* (at *index*, default last). A :class:`Panel` out of
        sight sends nothing until its tab is chosen; it is closed with the App."""
        children = list(self.tabs.children)
        titles = list(self.tabs.titles)
        at = len(children) if index is None else index
        children.insert(at, panel)
        titles.insert(at, name)
        self.parts.add(name, panel)
        shown = self.tabs.selected_index
        self.tabs.children = children
        self.tabs.titles = titles
        if shown is not None and at <= shown:
            self.tabs.selected_index = shown + 1
        self._on_tab()

    def add_aside(self, panel: W.Widget) -> None:
        """Show *panel* above the tabs, always in sight (the computer's moves in a game against
        the computer, :mod:`owsnb.widgets.opponent`): it takes its own place at the top of the
        side column, outside the part that scrolls, so it never covers the tabs or the order
        controls (keep it short: a ``max_height`` of its own). It is closed with the App."""
        self.side.children = (panel, *self.side.children)
        self.parts.add(f"aside-{len(self.side.children)}", panel)

    def set_projector(self, on: bool = True) -> None:
        """Projector mode: counters, badges, trays and the panels' text 1.5 times larger."""
        if self.projector.value != on:
            self.projector.value = on  # (comes back here through the box)
            return
        self.map.set_projector(on)
        if on:
            self.add_class("owsnb-projector")
        else:
            self.remove_class("owsnb-projector")

    def _on_history_toggle(self, change: dict) -> None:
        h = self.parts["history"]  # made the first time it is opened
        self.history_slot.layout.display = "" if change["new"] else "none"
        h.show(change["new"])

    def show_tab(self, name: str) -> None:
        """Bring the tab *name* forward (``"orders"``, ``"distance"``, ``"dashboard"``, ``"dice"``,
        ``"notes"``), as a click on its title does."""
        self.tabs.selected_index = list(self.tabs.titles).index(name)

    def _on_seat_button(self, change: dict) -> None:
        if change["new"] and change["new"] != self.table.seat.side:
            self.switch(change["new"])

    def hide(self, side: str) -> None:
        """Draw the curtain: the table is hidden until the next player (*side*) clicks."""
        self._hide(side)

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
            for part in self.parts.made():
                if part is not self.parts["map"]:
                    part.catch_up()

    def _on_revision(self, change: Any = None) -> None:
        t = self.table
        view = t.view
        title = view.scenario.get("title") or view.scenario.get("id") or "game"
        rs = getattr(t.seat.ruleset, "title", "") or getattr(t.seat.ruleset, "name", "")
        tip = f"{rs}: {title} · {view.clock}"
        self.title.value = (
            # the whole line as its tooltip too
            f"<div class='owsnb-head' title='{html.escape(tip, quote=True)}'>"
            f"<b>{html.escape(str(title))}</b> · <span class='owsnb-seat'>"
            f"{html.escape(seat_label(t.seat))}</span> "
            f"<span style='color:#6b7280'>· {html.escape(str(view.clock))}</span></div>"
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
        bot = computer_holds(t.seat)
        handed = (
            ""
            if bot is None
            else "<div class='owsnb-handed' role='status' style='background:#ffedd5;"
            "border-left:5px solid #ea580c;padding:5px 10px;margin:2px 0;font:14px system-ui'>"
            f"<b>The umpire has handed {html.escape(t.seat.side)} to the computer "
            f"({html.escape(bot)}).</b> Its orders appear on your map and in the results feed; "
            "you can watch.</div>"
        )
        banner = handed + "".join(
            f"<div style='background:#fef3c7;padding:2px 8px;font:13px system-ui'>"
            f"{html.escape(n)}</div>"
            for n in notes
        )
        if self.banner.value != banner:
            self.banner.value = banner

    def close(self) -> None:
        for part in self.parts.made():
            part.close()
        for tab in self.tabs.children:
            if isinstance(tab, _Group):
                tab.close()
        super().close()
        self._spare.close()
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
