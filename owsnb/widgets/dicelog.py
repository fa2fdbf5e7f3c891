"""DiceLog: every roll this seat may see, with its purpose and rule paragraph (newest first).

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> log = DiceLog(tiny_game(), seat="blue")
    >>> log.rows()
    []
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from owsnb.widgets.panel import Panel
from owsnb.widgets.render import style_widget
from owsnb.widgets.table import Table

__all__ = ["DiceLog"]


class DiceLog(Panel):
    """The dice rolled, as this seat saw them (the view's events are already filtered).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is listed when *source* is a Game.
        limit: at most this many rolls are shown.
    """

    def __init__(self, source: Any, seat: str | None = None, *, limit: int = 200):
        self.table = Table.of(source, seat)
        self.limit = limit
        self.filter = W.Text(
            placeholder="filter: purpose, rule or who",
            layout=W.Layout(width="98%"),
            continuous_update=False,
        )
        self.filter.observe(lambda _: self._redraw(), "value")
        self.out = W.HTML()
        super().__init__([style_widget(), self.filter, self.out], layout=W.Layout(width="100%"))
        self.add_class("owsnb-dicelog")
        self.table.hold(self)
        self.watch(self._redraw, ["revision"])
        self._redraw()

    def rows(self) -> list[dict[str, Any]]:
        """The rolls shown: ``seq``, ``turn``, ``who``, ``die``, ``result``, ``purpose``,
        ``rule``."""
        turn = 1
        out = []
        want = self.filter.value.strip().lower()
        for e in self.table.view.events:
            if e.kind == "clock.set":
                turn = e.data["clock"].turn
            if e.kind != "die":
                continue
            d = e.data
            row = {
                "seq": e.seq,
                "turn": turn,
                "who": d.get("actor") or "",
                "die": d.get("die", ""),
                "result": d.get("result"),
                "purpose": d.get("purpose", ""),
                "rule": e.rule,
            }
            if want and want not in " ".join(str(v) for v in row.values()).lower():
                continue
            out.append(row)
        return out[::-1][: self.limit]

    def _redraw(self, change: Any = None) -> None:
        rows = self.rows()
        if not rows:
            self.out.value = (
                "<div class='owsnb-w muted'>no dice rolled yet that this seat may see</div>"
            )
            return
        body = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape(str(r[c]))}</td>" for c in ("seq", "turn", "who", "die"))
            + f"<td><b>{html.escape(str(r['result']))}</b></td>"
            f"<td>{html.escape(str(r['purpose']))}</td>"
            f"<td class='rule'>{html.escape(str(r['rule']))}</td></tr>"
            for r in rows
        )
        self.out.value = (
            f"<div class='owsnb-w'><table><tr><th>#</th><th>turn</th><th>who</th><th>die</th>"
            f"<th>result</th><th>purpose</th><th>rule</th></tr>{body}</table></div>"
        )
