"""Concrete orders from a side's legal-order specs, for bots to score.

An :class:`~owsnb.kernel.orders.OrderSpec` lists the candidate values of each parameter (and
maybe fully formed ``examples``); :func:`enumerate_orders` turns them into orders: the examples
first, then every combination of the candidates when there are few, else a seeded sample of them.
Repeatable parameters get each single value and the whole list; optional ones are left out or
given one value drawn at random. The orders are *not* validated: ``order in legal`` (or a determinised game)
says whether one is legal.

>>> from owsnb.kernel.orders import OrderSpec, OrderType, Param
>>> from owsnb.kernel.data import FrozenDict
>>> import numpy as np
>>> move = OrderType("move", (Param("unit", "unit"), Param("to", "hex")))
>>> spec = OrderSpec("blue", move, FrozenDict(unit=("A", "B"), to=("0101", "0102")))
>>> [str(o) for o in enumerate_orders(spec, np.random.default_rng(0))]
['blue: move A 0101', 'blue: move A 0102', 'blue: move B 0101', 'blue: move B 0102']
>>> len(enumerate_orders(spec, np.random.default_rng(0), limit=3))
3
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.orders import LegalOrders, Order, OrderSpec

__all__ = ["enumerate_orders", "candidate_orders"]


def _choices(spec: OrderSpec, p: Any, rng: np.random.Generator) -> list[Any] | None:
    """The values parameter *p* may take (``[None]`` = left out); ``None`` if it cannot be
    filled from the spec (free input without candidates). An optional parameter is left out or
    given one value drawn at random (its default is usually what a player means)."""
    cands = list(spec.candidates.get(p.name, p.choices))
    if not cands:
        return [None] if p.optional else None
    if p.repeat:
        vals: list[Any] = [[c] for c in cands]
        if len(cands) > 1:
            vals.append(list(cands))
    else:
        vals = cands
    if p.optional:
        return [None, vals[int(rng.integers(len(vals)))]]
    return vals


def enumerate_orders(spec: OrderSpec, rng: np.random.Generator, limit: int = 64) -> list[Order]:
    """Up to *limit* distinct concrete orders of *spec* (examples first)."""
    out: dict[str, Order] = {}
    for ex in spec.examples:
        out.setdefault(str(ex), ex)
        if len(out) >= limit:
            return list(out.values())
    params = spec.type.params
    lists = [_choices(spec, p, rng) for p in params]
    if any(v is None for v in lists):
        return list(out.values())
    sizes = [len(v) for v in lists]  # type: ignore[arg-type]
    total = math.prod(sizes)
    room = limit - len(out)
    if total <= room:
        combos: Iterable[tuple[Any, ...]] = itertools.product(*lists)  # type: ignore[arg-type]
    else:
        picks = rng.choice(total, size=min(total, room * 2), replace=False)
        combos = (_combo(lists, int(i)) for i in picks)  # type: ignore[arg-type]
    for combo in combos:
        values = {p.name: v for p, v in zip(params, combo, strict=True) if v is not None}
        try:
            order = spec.type.make(spec.side, **values)
        except (ValueError, TypeError, OwsnbError):
            continue
        out.setdefault(str(order), order)
        if len(out) >= limit:
            break
    return list(out.values())


def _combo(lists: list[list[Any]], i: int) -> tuple[Any, ...]:
    """The *i*-th combination of the product of *lists* (mixed radix)."""
    out = []
    for vals in reversed(lists):
        i, k = divmod(i, len(vals))
        out.append(vals[k])
    return tuple(reversed(out))


def candidate_orders(
    legal: LegalOrders,
    rng: np.random.Generator,
    *,
    per_spec: int = 48,
    skip: Iterable[str] = ("done",),
    view: Any = None,
) -> list[Order]:
    """Concrete orders of every spec of *legal* but the verbs in *skip* (unchecked), then —
    given the side's *view* — the rule set's own candidates (its evaluation's ``candidates``:
    e.g. destinations a spec's few examples leave out), without repeats."""
    skipped = set(skip)
    out: dict[str, Order] = {}
    for spec in legal.specs:
        if spec.verb in skipped:
            continue
        for o in enumerate_orders(spec, rng, per_spec):
            out.setdefault(str(o), o)
    if view is not None:
        from owsnb.bots.evaluate import evaluation_for
        from owsnb.kernel.registry import get_ruleset

        ev = evaluation_for(get_ruleset(view.ruleset))
        for o in ev.candidates(view, legal, rng):
            if o.verb not in skipped:
                out.setdefault(str(o), o)
    return list(out.values())
