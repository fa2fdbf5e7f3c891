"""AnnotationPanel: write a note anchored to the moment shown, the turn, the selected hex or unit;
list the notes this seat may read and jump to one.

Notes written from a side's seat are private to that side unless "public" is ticked; the
umpire's are the umpire's own unless ticked.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> p = AnnotationPanel(tiny_game(), seat="blue")
    >>> p.table.pick(hex="0101")
    >>> p.text.value = "hold this crossing"; _ = p.add()
    >>> [(a.text, a.unit, a.side) for a in p.table.seat.annotations()]
    [('hold this crossing', 'B-1', 'blue')]
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from owsnb.kernel.state import UMPIRE
from owsnb.widgets.controls import button, checkbox
from owsnb.widgets.panel import Panel
from owsnb.widgets.table import Refusal, Table

__all__ = ["AnnotationPanel"]


class AnnotationPanel(Panel):
    """Annotations of this seat (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side writing and reading when *source* is a Game.
    """

    def __init__(self, source: Any, seat: str | None = None):
        self.table = Table.of(source, seat)
        self.text = W.Textarea(
            placeholder="a note on this moment of the game…",
            layout=W.Layout(width="98%", height="60px"),
        )
        self.on_hex = checkbox("selected hex", True)
        self.on_unit = checkbox("selected unit", True)
        self.public = checkbox("public")
        self.add_button = button("Add note", self.add, icon="thumb-tack")
        self.notes = W.Select(options=[], rows=8, layout=W.Layout(width="98%"))
        self.jump_button = button("Jump to note", self.jump, icon="crosshairs")
        self.message = W.HTML()
        super().__init__(
            [
                self.text,
                W.HBox([self.on_hex, self.on_unit, self.public, self.add_button]),
                self.notes,
                W.HBox([self.jump_button]),
                self.message,
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-annotations")
        self.table.hold(self)
        self.watch(self._redraw, ["revision"])
        self._redraw()

    def add(self) -> Any:
        """Write the note in the text box (anchored as ticked); returns the annotation."""
        t = self.table
        text = self.text.value.strip()
        if not text:
            self.message.value = "<span style='color:#b91c1c'>write something first</span>"
            return None
        anchors: dict[str, Any] = {"side": None if self.public.value else t.seat.side}
        if t.at is not None:
            anchors["seq"] = t.at
        anchors["turn"] = t.view.clock.turn
        if self.on_hex.value and t.hex is not None:
            anchors["hex"] = t.hex
        if self.on_unit.value and t.unit is not None:
            anchors["unit"] = t.unit
        try:
            ann = t.seat.annotate(text, **anchors)
        except (KeyError, ValueError, Exception) as exc:  # noqa: BLE001 - shown, not raised
            self.message.value = f"<span style='color:#b91c1c'>{Refusal.of(exc)}</span>"
            return None
        self.text.value = ""
        self.message.value = ""
        self._redraw()
        return ann

    def _redraw(self, change: Any = None) -> None:
        opts = []
        for a in self.table.seat.annotations():
            where = " ".join(
                x
                for x in (str(self.table.label(a.hex)) if a.hex is not None else "", a.unit or "")
                if x
            )
            who = "public" if a.side is None else ("umpire" if a.side == UMPIRE else a.side)
            text = a.text if len(a.text) <= 60 else a.text[:59] + "…"
            opts.append(
                (
                    f"#{a.id} · turn {a.turn} · event {a.seq}"
                    f"{' · ' + where if where else ''} [{who}]: {text}",
                    a.id,
                )
            )
        if list(self.notes.options) != opts:
            self.notes.options = opts

    def jump(self, annotation_id: int | None = None) -> None:
        """Show the moment, hex and unit a note is anchored to."""
        aid = self.notes.value if annotation_id is None else annotation_id
        t = self.table
        ann = next((a for a in t.seat.annotations() if a.id == aid), None)
        if ann is None:
            return
        present = t.seat.view().seq
        t.go_to(None if ann.seq >= present else ann.seq)
        if (
            ann.unit is not None
            and ann.unit in t.view.units
            and t.view.units[ann.unit].hex is not None
        ):
            t.pick(unit=ann.unit)
        elif ann.hex is not None:
            t.pick(hex=t.label(ann.hex))
