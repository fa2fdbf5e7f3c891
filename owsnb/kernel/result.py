"""One record for what a rule's ``resolve`` returns, rendered once for every rule set.

A :class:`Result` carries the dice rolled (die, value, what for, rule), the outcome (plain values:
hits per target, units detected...), an optional table (rows under named columns), narration
lines and the rule paragraphs applied. Its ``_repr_html_`` and its text are drawn by
:mod:`owsnb.display.results` (imported lazily: the kernel draws nothing): labels in words,
escaped, with a text fallback. A rule set's own result class describes itself as a ``Result``
(:class:`Recorded`) instead of writing HTML.

>>> r = Result("Strike on R-052D-1", {"hits": {"R-052D-1": 0}, "defender_left": False}, ["9.8"])
>>> r.hits, r.dice
({'R-052D-1': 0}, [])
>>> print(r.text())
Strike on R-052D-1 (9.8)
  hits: R-052D-1: 0
  defender left the hex: no
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Result", "Recorded"]


@dataclass
class Result:
    """What a ``resolve`` returns: the dice rolled, the outcome, the paragraphs applied.

    ``outcome`` holds plain values (hits per target, detected units...), readable as attributes
    (``result.hits``); ``lines`` narrate; ``columns`` and ``table`` hold rows when the result is
    a table (a forecast per unit, an odds ladder); ``charts`` exact distributions.
    """

    title: str
    outcome: dict[str, Any] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)
    rolls: list[tuple[str, int, str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    order: str = ""
    columns: list[str] = field(default_factory=list)
    table: list[Mapping[str, Any]] = field(default_factory=list)
    charts: dict[str, Any] = field(default_factory=dict)
    """Exact distributions (caption -> {outcome: probability}) drawn as bars."""

    @property
    def dice(self) -> list[tuple[str, int]]:
        """(die, result) of every roll, in order."""
        return [(d, v) for d, v, _, _ in self.rolls]

    def __getattr__(self, name: str) -> Any:
        if name not in ("outcome", "__setstate__") and name in self.__dict__.get("outcome", {}):
            return self.outcome[name]
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"<Result {self.title}: {self.outcome} rules {', '.join(self.rules)}>"

    def text(self) -> str:
        """The result in words, as plain text."""
        from owsnb.display.results import result_text

        return result_text(self)

    def _repr_html_(self) -> str:
        from owsnb.display.results import result_html

        return result_html(self)


class Recorded:
    """A rule set's own result (or rich preview) that describes itself as a :class:`Result`
    (:meth:`record`), so it is drawn like every other: in words, escaped, with a text fallback."""

    def record(self) -> Result:  # pragma: no cover - interface
        raise NotImplementedError

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()
