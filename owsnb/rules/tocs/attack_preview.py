"""The preview of an attack order (10.6): the defender's strength is hidden until the battle
(3.9), so the attacker sees the exact CRT result for every column.

:class:`AttackPreview` is a frozen dataclass registered with the kernel codec, so it travels
exactly (distributions and all) between the seminar server and its seats.

>>> from owsnb.kernel.codec import dumps, loads
>>> p = AttackPreview("hasty", {"1:1": Distribution({"-/-": 1})})
>>> loads(dumps(p)) == p, p["1:1"]["-/-"], list(p)
(True, Fraction(1, 1), ['1:1'])
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from owsnb.kernel.codec import register
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.combat import result_distribution

__all__ = ["AttackPreview", "attack_preview"]


@register
@dataclass(frozen=True)
class AttackPreview:
    """The exact CRT result of an attack of *kind* on each column, in the CRT's order.

    Reads like a mapping of column to :class:`~owsnb.kernel.dist.Distribution`
    (``preview["3:1"]``, ``list(preview)``); ``_repr_html_`` draws one row per column.
    """

    kind: str
    columns: Mapping[str, Distribution]

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", FrozenDict(self.columns))

    def __getitem__(self, column: str) -> Distribution:
        return self.columns[column]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __repr__(self) -> str:
        rows = "; ".join(
            f"{c}: " + ", ".join(f"{r} {p}" for r, p in d.rows()) for c, d in self.columns.items()
        )
        return f"<AttackPreview {self.kind}: {rows}>"

    def _repr_html_(self) -> str:
        e = html.escape
        rows = "".join(
            f"<tr><td><b>{e(c)}</b></td><td>"
            + " · ".join(
                f"<span style='white-space:nowrap'><code>{e(str(r))}</code> {e(str(p))}</span>"
                for r, p in d.rows()
            )
            + "</td></tr>"
            for c, d in self.columns.items()
        )
        body = (
            f"<b>{e(self.kind)} attack</b>: the defender's strength is hidden, so the result on "
            "every CRT column <span class='rule'>rule 10.6, fought in 3.9</span>"
            f"<table class='owsnb-attack-preview'><tr><th>column</th><th>result (exact)</th></tr>"
            f"{rows}</table><span class='muted'>result: attacker/defender step losses, "
            "R hexes retreated <span class='rule'>L726</span></span>"
        )
        try:
            from owsnb.display.html import wrap
        except ImportError:  # pragma: no cover
            return body
        return wrap(body, repr(self))


def attack_preview(state: StateLike, kind: str) -> AttackPreview:
    """The preview of an attack of *kind*: every CRT column's exact result distribution."""
    cols = state.tables["crt"]["columns"]
    return AttackPreview(kind, {c: result_distribution(state, kind, i) for i, c in enumerate(cols)})
