"""History: step back and forward through the game as this seat saw it, and fork a what-if.

The slider runs over the events this seat may see (event 0 is the start); every widget of the
table shows the game as it was then. Orders are given only in the present; "Fork here" starts a
new in-memory branch from the moment shown, with the same seat. A seat whose ``can_fork`` is
false (a remote seat, ``owsnb.connect``: it never holds the truth) has no "Fork here" button.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> h = History(tiny_game(), seat="blue")
    >>> _ = h.table.submit("blue: done")
    >>> h.points, h.slider.value
    ([0, 1], 1)
    >>> h.back(); h.table.at, h.table.view.clock.done
    (0, frozenset())
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from owsnb.kernel.errors import HistoryError
from owsnb.widgets.controls import button
from owsnb.widgets.panel import Panel
from owsnb.widgets.table import Refusal, Table

__all__ = ["History"]


class History(Panel):
    """The history slider of a table (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose history is shown when *source* is a Game.
    """

    def __init__(self, source: Any, seat: str | None = None):
        self.table = Table.of(source, seat)
        self.points: list[int] = [0]
        self._quiet = False
        self.slider = W.IntSlider(  # its description is the readout: one message per move
            min=0,
            max=0,
            value=0,
            description="event",
            readout=False,
            continuous_update=False,
            style={"description_width": "240px"},
            layout=W.Layout(width="60%"),
        )
        self.slider.observe(self._on_slider, "value")
        self.back_button = button(
            "", self.back, icon="step-backward", tooltip="one event back", width="40px"
        )
        self.forward_button = button(
            "", self.forward, icon="step-forward", tooltip="one event forward", width="40px"
        )
        self.present_button = button(
            "Present", self.present, icon="fast-forward", tooltip="back to the present"
        )
        self.fork_button = button(
            "Fork here",
            self.fork,
            icon="code-fork",
            tooltip="start a what-if branch from the moment shown",
        )
        self.readout = W.HTML()
        super().__init__(
            [
                W.HBox(
                    [
                        self.back_button,
                        self.slider,
                        self.forward_button,
                        self.present_button,
                        self.fork_button,
                    ],
                    layout=W.Layout(align_items="center"),
                ),
                self.readout,
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-history")
        self.table.hold(self)
        self.watch(self._redraw, ["revision"])
        self._redraw()

    def _redraw(self, change: Any = None) -> None:
        t = self.table
        present = t.seat.view()
        self.points = [0, *(e.seq for e in present.events)]
        last = len(self.points) - 1
        idx = last if t.at is None else max(i for i, p in enumerate(self.points) if p <= t.at)
        seq = self.points[idx]
        self._quiet = True
        try:
            with self.slider.hold_sync():
                self.slider.max = last
                self.slider.value = idx
                self.slider.description = (
                    f"{'present' if t.at is None else 'the past'} · turn {t.view.clock.turn} · "
                    f"event {seq}/{self.points[-1]}"
                )
        finally:
            self._quiet = False
        # the moment shown, spelled out while in the past (in the present: the orders panel)
        readout = ""
        if t.at is not None:
            event = next((e for e in present.events if e.seq == seq), None)
            what = html.escape(str(event)) if event is not None else "the start of the game"
            readout = (
                "<span style='font:12px system-ui'><span style='color:#b45309'><b>the past</b> "
                f"(orders off)</span> · {what}</span>"
            )
        if self.readout.value != readout:
            self.readout.value = readout
        # a seat that cannot branch the game (a remote seat: it never holds the truth) shows no
        # "Fork here" at all, rather than a button that can only be refused
        can_fork = hasattr(t.seat, "fork") and getattr(t.seat, "can_fork", True)
        self.fork_button.layout.display = None if can_fork else "none"
        self.fork_button.disabled = not can_fork

    def _on_slider(self, change: dict) -> None:
        if self._quiet:
            return
        i = change["new"]
        self.table.go_to(None if i >= len(self.points) - 1 else self.points[i])

    def back(self) -> None:
        """One visible event back."""
        self.slider.value = max(self.slider.value - 1, 0)

    def forward(self) -> None:
        """One visible event forward."""
        self.slider.value = min(self.slider.value + 1, self.slider.max)

    def present(self) -> None:
        """Back to the present."""
        self.table.go_to(None)

    def fork(self) -> Any:
        """A what-if branch from the moment shown; the table switches to it. Returns the new
        seat."""
        t = self.table
        try:
            seat = t.seat.fork(t.at)
        except (HistoryError, NotImplementedError) as exc:
            t.refusal = Refusal.of(exc)
            return None
        t.seat = seat
        return seat
