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

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

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

    def record(self) -> Any:
        """The preview as a result: every CRT column with its exact results."""
        from owsnb.kernel.result import Result

        return Result(
            f"{self.kind} attack: the defender's strength is hidden, so the result on every CRT "
            "column",
            {},
            ["10.6", "3.9", "L726"],
            columns=["column", "result (exact)"],
            table=[
                {"column": c, "result (exact)": " · ".join(f"{r} {p}" for r, p in d.rows())}
                for c, d in self.columns.items()
            ],
            lines=["result: attacker/defender step losses, R hexes retreated (L726)"],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def attack_preview(state: StateLike, kind: str) -> AttackPreview:
    """The preview of an attack of *kind*: every CRT column's exact result distribution."""
    cols = state.tables["crt"]["columns"]
    return AttackPreview(kind, {c: result_distribution(state, kind, i) for i, c in enumerate(cols)})
