"""Improve Position (WWII 10.9, L287-L291): a Good Order Company spends all its AP to raise its
hex's improved position one level (Entrenched -> Strongpoint -> Fortified Area), then degrades.

Rulings: a unit improves a hex at most one level per game turn (L288, appendix E11: per unit, not
per hex); a Fatigued engineer Company may also dig (digest 3.5); on frozen ground only engineers
dig (digest 3.5). The work is secret: only the owner hears of it (the perimeter, L39).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import close_activation
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import FATIGUED, GOOD_ORDER, is_company, owner, state_of
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    unit_choice_spec,
    units_spec,
)
from owsnb.rules.tocs.positions import level_at, level_name, set_level
from owsnb.rules.tocs.zoc import engaged

__all__ = ["Improve", "why_not_improve"]


def why_not_improve(state: StateLike, u: Any) -> tuple[str, str, str] | None:
    """Why *u* may not improve its position now: (message, code, rule), or ``None`` if it may."""
    if not is_company(u):
        return f"{u.id} is not a Company", "not-company", "L287"
    st = state_of(u)
    if not (st == GOOD_ORDER or (st == FATIGUED and u.get("engineer"))):
        return (
            f"{u.id} is not in Good Order (a Fatigued engineer Company may dig)",
            "not-good-order",
            "L287",
        )
    if state.public.get("weather", {}).get("ground") == "frozen" and not u.get("engineer"):
        return "the ground is frozen: only engineers improve positions", "frozen", "10.9"
    if int(u.get("ap", 0)) < 1:
        return f"{u.id} has no AP left", "no-ap", "L287"
    if owner(state, u.hex) != u.side or engaged(state, u.hex):
        return (
            f"{state.map.label(u.hex)} is not a friendly hex out of battle",
            "not-friendly",
            "L290",
        )
    lv = level_at(state, u.side, u.hex)
    if lv >= len(state.tables["improved_positions"]["names"]):
        return (
            f"{state.map.label(u.hex)} is already a {level_name(state, lv)} area",
            "max-level",
            "L288",
        )
    if u.get("improved_turn") == state.clock.turn:
        return f"{u.id} already improved a position this turn", "once-per-turn", "L288"
    return None


class Improve(OrderHandler):
    type = OrderType(
        "improve",
        (Param("unit", "unit"),),
        rule="10.9",
        doc="all AP: raise the hex's improved position one level (Entrenched +2, Strongpoint +4, "
        "Fortified +6 per Company in defence); the Company then degrades",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ids = units_spec(state, side, lambda u: is_open(u) and why_not_improve(state, u) is None)
        return unit_choice_spec(side, self.type, ids)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "positions are improved in your Operational Impulse", "wrong-step", "L287", order
            )
        need_open(u, order)
        why = why_not_improve(state, u)
        if why:
            raise refuse(why[0], why[1], why[2], order)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        lv = level_at(state, u.side, u.hex) + 1
        set_level(em, u.side, u.hex, lv, rule="L288")
        em.data(u.id, rule="L287", ap=0, mp_left=0, acted=True, improved_turn=state.clock.turn)
        em.say(
            f"{u.id} improves {state.map.label(u.hex)} to {level_name(state, lv)}",
            rule="L288",
            visible_to=order.side,
        )
        close_activation(em, u.id, rule="L287")
        return em.events
