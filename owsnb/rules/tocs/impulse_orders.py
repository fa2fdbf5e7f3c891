"""Impulse verbs of TOCS: begin the impulse, pass, activate a unit (Basic 3.3-3.5).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel import Distribution, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import state_set
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs import economy
from owsnb.rules.tocs.activation import check_spend, close_activation, spend
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import ap_for, daypart, state_of
from owsnb.rules.tocs.order_checks import clock_step, unit_choice_spec, units_spec
from owsnb.rules.tocs.supply import in_loc

__all__ = ["Begin", "Pass", "Activate"]


# -- impulse verbs -----------------------------------------------------------------------------
class Begin(OrderHandler):
    """Start the Operational Impulse: impulse weather, aircraft boxes, supply check, earn OP."""

    type = OrderType(
        "begin",
        (),
        rule="B3.3",
        doc="start your impulse: roll weather and OP (minimum + d10 + deficit OP granted)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        return OrderSpec(side, self.type, examples=(self.type.make(side),))

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        side = order.side
        minimum = int(state.public.get("op_minimum", {}).get(side, 0))
        credit = int(state.public.get("deficit_credit", {}).get(side, 0))
        return economy.op_earned_distribution(minimum, credit)


class Pass(OrderHandler):
    type = OrderType(
        "pass",
        (),
        rule="B3.4",
        doc="perform no activations or actions: bank your OP; +pass on the turn-end roll",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if state.public.get("spent_this_impulse"):
            return None
        return OrderSpec(side, self.type, examples=(self.type.make(side),))

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        if int(state.public.get("op_spent", {}).get(order.side, 0)) or state.public.get(
            "spent_this_impulse"
        ):
            raise refuse(
                "you have already activated or spent OP this impulse; say 'done' instead",
                "not-a-pass",
                "L63",
                order,
            )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        box = economy.turn_end_box(state)
        p = economy.turn_end_chance(box, True, state.options.get("pass_bonus", "toward-end"))
        if state.public.get("last_passed") and state.public.get("last_passed") != order.side:
            p = Fraction(1)  # two consecutive passes end the turn (L83)
        return Distribution.bernoulli(p, label="turn ends after this pass")


class Activate(OrderHandler):
    type = OrderType(
        "activate",
        (Param("unit", "unit"),),
        rule="B3.5",
        doc="spend 1 OP to activate a unit (reserves activate free in Reserve Commitment and Exploitation)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        step = clock_step(state)
        col = state.tables["daypart"]["ap_column"][daypart(state)]

        def ok(u: Any) -> bool:
            if u.get("act") or u.get("cls") in ("aircraft", "naval"):
                return False
            if step in ("3.8", "3.10") and not u.get("reserve"):
                return False
            return ap_for(state_of(u), col) > 0

        ids = units_spec(state, side, ok)
        return unit_choice_spec(side, self.type, ids)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if u.get("cls") in ("aircraft", "naval"):
            raise refuse(f"{u.id} is an {u.get('cls')} unit: use 'fly'", "wrong-verb", "L56", order)
        if u.get("act"):
            raise refuse(
                f"{u.id} has already been activated this impulse",
                "already-activated",
                "L239",
                order,
            )
        col = state.tables["daypart"]["ap_column"][daypart(state)]
        if ap_for(state_of(u), col) <= 0:
            raise refuse(
                f"{u.id} is {state.tables['states']['names'][state_of(u)]}: no AP, it cannot activate",
                "no-ap",
                "L156",
                order,
            )
        step = clock_step(state)
        if step in ("3.8", "3.10"):
            if not u.get("reserve"):
                raise refuse(
                    "only units in reserve activate in this phase",
                    "not-reserve",
                    "L68" if step == "3.8" else "L79",
                    order,
                )
        else:
            check_spend(state, order.side, int(state.tables["op"]["activation"]), order, "L65")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        cur = state.sides[side].private.get("active")
        if cur and cur in state.units and state.units[cur].get("cls") != "hq":
            close_activation(em, cur, rule="L239")
        u = em.state.units[args["unit"].id]
        step = clock_step(state)
        free = step in ("3.8", "3.10") and u.get("reserve")
        if not free:
            spend(
                em, side, int(state.tables["op"]["activation"]), rule="L65", what=f"activate {u.id}"
            )
        col = state.tables["daypart"]["ap_column"][daypart(state)]
        ap = ap_for(state_of(u), col, state.tables["states"])
        loc = in_loc(em.state, u)
        if not loc:
            ap = max(0, ap - 1)  # L187
        em.data(
            u.id,
            rule="L65",
            act="open",
            ap=ap,
            mp_left=0,
            acted=False,
            in_loc=loc,
            reserve=False,
            reserve_used=bool(free),
        )  # L336: a reserve activates once, then it is spent
        em.private(side, rule="L239", active=u.id)
        em.emit(state_set("public", {"spent_this_impulse": True}, rule="L63"))
        em.say(
            f"{u.id} activated: {ap} AP" + ("" if loc else " (out of LOC: -1 AP)"),
            rule="L65",
            visible_to=side,
        )
        return em.events
