"""Exact discrete distributions, for previews that are computed, not sampled.

>>> d10 = Distribution.die(10)
>>> d10.prob(lambda x: x >= 7)
Fraction(2, 5)
>>> two = Distribution.die(6) + Distribution.die(6)
>>> two[7], two.mean()
(Fraction(1, 6), Fraction(7, 1))
>>> hits = d10.map(lambda r: 1 if r >= 7 else 0)
>>> dict(hits)
{0: Fraction(3, 5), 1: Fraction(2, 5)}
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any

__all__ = ["Distribution"]


class Distribution(Mapping[Any, Fraction]):
    """An exact probability distribution over hashable outcomes (probabilities are Fractions).

    Outcomes keep a stable order (sorted where they are comparable).
    """

    __slots__ = ("_p", "label")

    def __init__(self, probs: Mapping[Any, Any] | Iterable[tuple[Any, Any]], label: str = ""):
        items = probs.items() if isinstance(probs, Mapping) else probs
        acc: dict[Any, Fraction] = {}
        for k, v in items:
            f = Fraction(v)
            if f < 0:
                raise ValueError(f"negative probability {f} for {k!r}")
            if f:
                acc[k] = acc.get(k, Fraction(0)) + f
        total = sum(acc.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")
        try:
            keys = sorted(acc)
        except TypeError:
            keys = list(acc)
        self._p = {k: acc[k] for k in keys}
        self.label = label

    # -- constructors --------------------------------------------------------------------------
    @classmethod
    def die(cls, sides: int, label: str = "") -> Distribution:
        """A fair die with faces 1..sides."""
        return cls({i: Fraction(1, sides) for i in range(1, sides + 1)}, label or f"d{sides}")

    @classmethod
    def point(cls, value: Hashable, label: str = "") -> Distribution:
        """A certain outcome."""
        return cls({value: 1}, label)

    @classmethod
    def uniform(cls, values: Iterable[Hashable], label: str = "") -> Distribution:
        """Equal chances over *values* (repeats weigh more)."""
        vals = list(values)
        return cls(((v, Fraction(1, len(vals))) for v in vals), label)

    @classmethod
    def bernoulli(cls, p: Any, label: str = "") -> Distribution:
        """``True`` with probability *p*."""
        p = Fraction(p)
        return cls({True: p, False: 1 - p}, label)

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Any, Distribution]], label: str = "") -> Distribution:
        """Weighted mixture of distributions (weights must sum to 1)."""
        acc: list[tuple[Any, Fraction]] = []
        for w, d in parts:
            w = Fraction(w)
            acc.extend((k, w * p) for k, p in d.items())
        return cls(acc, label)

    # -- mapping -------------------------------------------------------------------------------
    def __getitem__(self, key: Hashable) -> Fraction:
        return self._p.get(key, Fraction(0))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __contains__(self, key: object) -> bool:
        return key in self._p

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._p == other._p
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._p.items()))

    # -- algebra -------------------------------------------------------------------------------
    def map(self, fn: Callable[[Any], Hashable], label: str | None = None) -> Distribution:
        """The distribution of ``fn(outcome)``."""
        return Distribution(
            ((fn(k), p) for k, p in self._p.items()), self.label if label is None else label
        )

    def combine(
        self, other: Distribution, fn: Callable[[Any, Any], Hashable], label: str = ""
    ) -> Distribution:
        """The distribution of ``fn(a, b)`` for independent *a* ~ self and *b* ~ other."""
        return Distribution(
            ((fn(a, b), pa * pb) for a, pa in self._p.items() for b, pb in other._p.items()), label
        )

    def bind(self, fn: Callable[[Any], Distribution], label: str = "") -> Distribution:
        """Chain: for each outcome, a further distribution (``fn``) — the law of total probability."""
        return Distribution(
            ((k2, p * p2) for k, p in self._p.items() for k2, p2 in fn(k).items()), label
        )

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, Distribution):
            return self.combine(other, lambda a, b: a + b)
        return self.map(lambda a: a + other)

    __radd__ = __add__

    @classmethod
    def sum(cls, parts: Iterable[Distribution], label: str = "") -> Distribution:
        """Sum of independent distributions (``Distribution.point(0)`` if none)."""
        out = cls.point(0)
        for d in parts:
            out = out + d
        out.label = label
        return out

    # -- summaries -----------------------------------------------------------------------------
    def prob(self, pred: Callable[[Any], bool]) -> Fraction:
        """P(pred(outcome))."""
        return sum((p for k, p in self._p.items() if pred(k)), Fraction(0))

    def mean(self) -> Fraction:
        """Expected value (outcomes must be numbers)."""
        return sum((Fraction(k) * p for k, p in self._p.items()), Fraction(0))

    def at_least(self, x: Any) -> Fraction:
        """P(outcome >= x)."""
        return self.prob(lambda k: k >= x)

    def mode(self) -> Any:
        """The most likely outcome."""
        return max(self._p, key=self._p.__getitem__)

    def sample(self, rng: Any, n: int) -> list[Any]:
        """*n* samples (numpy Generator) — for checking an exact preview against dice."""
        keys = list(self._p)
        idx = rng.choice(len(keys), size=n, p=[float(self._p[k]) for k in keys])
        return [keys[i] for i in idx]

    def rows(self) -> list[tuple[Any, Fraction]]:
        """(outcome, probability) pairs in order."""
        return list(self._p.items())

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {p}" for k, p in self._p.items())
        name = f"{self.label} " if self.label else ""
        return f"<Distribution {name}{{{body}}}>"

    def _repr_html_(self) -> str:
        return bar_chart_html(self.rows(), caption=self.label)


def bar_chart_html(rows: list[tuple[Any, Fraction]], caption: str = "", width: int = 320) -> str:
    """A small horizontal bar chart of exact probabilities, as an HTML table (no JS needed)."""
    cap = (
        f"<caption style='text-align:left'><b>{html.escape(str(caption))}</b></caption>"
        if caption
        else ""
    )
    top = max((float(p) for _, p in rows), default=1.0) or 1.0
    lines = []
    for k, p in rows:
        w = int(width * float(p) / top)
        lines.append(
            f"<tr><td style='text-align:right;padding-right:6px'>{html.escape(str(k))}</td>"
            f"<td><div style='background:#3b6fb6;height:12px;width:{w}px;display:inline-block'></div>"
            f" {float(p):.1%} <span style='color:#888'>({html.escape(str(p))})</span></td></tr>"
        )
    return f"<table class='owsnb-dist'>{cap}{''.join(lines)}</table>"
