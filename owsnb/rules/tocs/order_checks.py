"""What TOCS order handlers check beyond their bound arguments (the kernel resolves units and
hexes, and refuses with :func:`owsnb.kernel.errors.refuse`): an open activation, the step.

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel import OrderSpec, OrderType, refuse
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.model import alive_on_map

__all__ = [
    "is_open",
    "need_open",
    "clock_step",
    "units_spec",
    "spec_from_examples",
    "unit_choice_spec",
]


def is_open(u: Any) -> bool:
    """Is *u* activated this impulse (B3.5)?"""
    return u.get("act") == "open"


def need_open(u: Any, order: Any, rule: str = "B3.5") -> None:
    """Refuse the order (``not-activated``) unless *u* is activated."""
    if not is_open(u):
        raise refuse(
            f"{u.id} is not activated (activate it first: 1 OP)", "not-activated", rule, order
        )


def clock_step(state: StateLike) -> str:
    """The step of the sequence of play now (``"3.5"``, ``"3.8"``...)."""
    return state.clock.step


def units_spec(state: StateLike, side: str, pred: Any) -> tuple[str, ...]:
    """Ids of *side*'s units alive on the map that satisfy *pred* (an order's choices)."""
    return tuple(
        u.id for u in state.units.values() if u.side == side and alive_on_map(u) and pred(u)
    )


def spec_from_examples(side: str, order_type: OrderType, ex: list[Any], k: int) -> OrderSpec | None:
    """The spec of a verb offered with example orders *ex*: its units are those of the examples
    (first use first), *k* examples are shown; ``None`` without examples."""
    return (
        OrderSpec(
            side, order_type, FrozenDict(unit=tuple({o.args[0]: 0 for o in ex})), tuple(ex[:k])
        )
        if ex
        else None
    )


def unit_choice_spec(side: str, order_type: OrderType, ids: tuple[str, ...]) -> OrderSpec | None:
    """The spec of a verb whose one parameter is a unit: *ids* are its choices, the first eight
    shown as examples; ``None`` without choices."""
    return OrderSpec.of(side, order_type, [{"unit": i} for i in ids], shown=8)
