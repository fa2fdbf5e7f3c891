"""Reinforcements (Basic L42; OMG-N L782-L783): ``enter``.

"Each player refers to their Game Module Mission Brief to determine whether reinforcements will
arrive this turn and where they will appear. These units will remain 'hidden' off board" (L42).
A scenario's ``rules.reinforcements`` maps a unit to the turn it arrives (``{turn: N}``; its
scenario hex is where it appears, or ``hex:``). Until then it waits off the map (box
``reinforcement``), seen by its owner only. From that turn on, in its side's Operational Impulse,
``enter U`` spends OP (table ``op.reinforcement``: "All reinforcing units require OPs to be spent
in order to enter onboard", L782) and places it on its entry hex, secretly (L247: inside its own
perimeter). "Once onboard all reinforcement units requires OPs to perform actions" (L782): it
activates like any unit. Rulings: an entry hex the enemy now owns sends the unit to the nearest
hex of its own perimeter; the cost applies to every reinforcement (the OMG-N exceptions,
paratroops and the Dutch Resistance, L782, arrive by rules not implemented here); over stacking
on entry is allowed until the end of the impulse (L145).

>>> entry_order({"arrives": 3, "entry": "0101"})
(3, '0101')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import state_set, unit_set
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import check_spend, spend
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import owner
from owsnb.rules.tocs.order_checks import clock_step, unit_choice_spec

__all__ = ["BOX", "entry_order", "entry_hex", "waiting", "Enter"]

BOX = "reinforcement"


def entry_order(data: Mapping[str, Any]) -> tuple[int, str]:
    """(turn it arrives, label of its entry hex) of a waiting reinforcement."""
    return int(data.get("arrives", 1)), str(data.get("entry", ""))


def entry_hex(state: StateLike, u: Any) -> Any | None:
    """Where *u* appears: its entry hex if its side owns it, else the nearest hex its side owns."""
    want = state.map.hex(entry_order(u.data)[1])
    if owner(state, want) == u.side:
        return want
    own = [h for h in state.map.hexes if owner(state, h) == u.side]
    return min(own, key=lambda h: (h.distance(want), state.map.label(h)), default=None)


def waiting(state: StateLike, side: str) -> list[Any]:
    """*side*'s reinforcements that have arrived and wait off the map, in id order."""
    return sorted(
        (
            u
            for u in state.units.values()
            if u.side == side
            and u.alive
            and u.box == BOX
            and entry_order(u.data)[0] <= state.clock.turn
        ),
        key=lambda u: u.id,
    )


class Enter(OrderHandler):
    type = OrderType(
        "enter",
        (Param("unit", "unit", "a reinforcement that has arrived", on_map=False),),
        rule="L42",
        doc="bring an arrived reinforcement onto the map at its entry hex (OP, L782)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ids = tuple(u.id for u in waiting(state, side))
        return unit_choice_spec(side, self.type, ids)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if u.box != BOX:
            raise refuse(
                f"{u.id} is not a reinforcement waiting to enter", "not-waiting", "L42", order
            )
        turn, _ = entry_order(u.data)
        if turn > state.clock.turn:
            raise refuse(f"{u.id} arrives on turn {turn}", "not-yet", "L42", order)
        if clock_step(state) != "3.5":
            raise refuse(
                "reinforcements enter in your Operational Impulse", "wrong-step", "L42", order
            )
        if entry_hex(state, u) is None:
            raise refuse("your side owns no hex to enter", "no-entry", "L42", order)
        check_spend(
            state, order.side, int(state.tables["op"].get("reinforcement", 1)), order, "L782"
        )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        h = entry_hex(state, u)
        if h is None:  # validated; kept for the reader (and the type checker)
            raise refuse("your side owns no hex to enter", "no-entry", "L42", order)
        cost = int(state.tables["op"].get("reinforcement", 1))
        spend(em, order.side, cost, rule="L782", what=f"{u.id} enters")
        em.emit(
            unit_set(u.id, hex=h, box=None, visible_to=order.side, rule="L42"),
            state_set("public", {"spent_this_impulse": True}, rule="L63"),
        )
        em.say(
            f"{u.id} enters the map at {state.map.label(h)} ({cost} OP)",
            rule="L42",
            visible_to=order.side,
        )
        return em.events
