"""Roadblocks (WWII 10.10, L292-L295).

A Good Order Company (or engineer unit) spends 1 AP to place a roadblock, secretly, in its own hex
or an adjacent hex of its perimeter that it could enter; never in or into an Engagement (L292).
A roadblock denies the enemy road rate *into* its hex, never out of it (L295): an enemy mover
pays the off-road cost, and one that cannot is sent back (here: it stays where it was and its move
action ends, like an EZOC stop; the roadblock is then known to it). A unit ambushed in the hex
is no road column (L293). Reconnaissance and probes find roadblocks in empty hexes (L293), which
are then announced. Roadblocks are kept in the owner's secret (``private["roadblocks"]``); what a
side has found is in its ``private["roadblocks_known"]``.

Not modelled: clearing roadblocks (10.12), a roadblock closing a bridge in its hex to vehicles
and LOS (L295), trains.

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import GOOD_ORDER, alive_on_map, enemy_of, is_company, owner, state_of
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    order_hex,
    own_unit,
    refusal,
    spec_from_examples,
)
from owsnb.rules.tocs.terrain import step_cost
from owsnb.rules.tocs.zoc import engaged

__all__ = ["Roadblock", "roadblocked", "known_roadblock", "learn_roadblock"]


def roadblocked(state: Any, side: str, h: Any) -> bool:
    """Does the enemy of *side* hold a roadblock in *h* (the referee's truth)?"""
    return state.map.label(h) in set(state.sides[enemy_of(state, side)].private.get("roadblocks", ()))


def known_roadblock(state: Any, side: str, h: Any) -> bool:
    """Does *side* know of an enemy roadblock in *h*?"""
    return state.map.label(h) in set(state.sides[side].private.get("roadblocks_known", ()))


def learn_roadblock(em: Emitter, side: str, h: Any, *, rule: str) -> None:
    known = set(em.state.sides[side].private.get("roadblocks_known", ()))
    lab = em.state.map.label(h)
    if lab not in known:
        em.private(side, rule=rule, roadblocks_known=sorted(known | {lab}))


class Roadblock(OrderHandler):
    type = OrderType("roadblock", (Param("unit", "unit", "a Good Order Company or engineer unit"),
                                   Param("hex", "hex", "its own hex or an adjacent friendly hex")),
                     rule="10.10", doc="1 AP: a secret roadblock that denies the enemy road rate into the hex")

    def _why_not(self, state: Any, u: Any, h: Any) -> tuple[str, str, str] | None:
        if not (is_company(u) or u.get("engineer")):
            return f"{u.id} is not a Company or engineer unit", "not-company", "L292"
        if state_of(u) != GOOD_ORDER:
            return f"{u.id} is not in Good Order", "not-good-order", "L292"
        if int(u.get("ap", 0)) < 1:
            return f"{u.id} has no AP left", "no-ap", "L292"
        if h.distance(u.hex) > 1 or owner(state, h) != u.side:
            return f"{state.map.label(h)} is not {u.id}'s hex or an adjacent friendly hex", "not-friendly", "L292"
        if engaged(state, u.hex) or engaged(state, h):
            return "never in or into an Engagement Battle", "engaged", "L292"
        if h != u.hex and step_cost(state, u, u.hex, h) == float("inf"):
            return f"{u.id} could not move to {state.map.label(h)}", "impassable", "L292"
        if state.map.label(h) in set(state.sides[u.side].private.get("roadblocks", ())):
            return f"there is a roadblock in {state.map.label(h)} already", "exists", "L292"
        return None

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if u.side == side and alive_on_map(u) and is_open(u):
                for h in (u.hex, *u.hex.neighbours()):
                    if h in state.map.hexes and self._why_not(state, u, h) is None:
                        ex.append(self.type.make(side, unit=u.id, hex=state.map.label(h)))
        return spec_from_examples(side, self.type, ex, 10)

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"])
        if clock_step(state) != "3.5":
            raise refusal("roadblocks are made in your Operational Impulse", "wrong-step", "L292", order)
        need_open(u, order)
        why = self._why_not(state, u, order_hex(state, order, args["hex"], "10.10"))
        if why:
            raise refusal(why[0], why[1], why[2], order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = state.units[args["unit"]]
        lab = state.map.label(state.map.hex(args["hex"]))
        em.data(u.id, rule="L292", ap=int(u.get("ap", 0)) - 1, acted=True)
        mine = set(state.sides[order.side].private.get("roadblocks", ()))
        em.private(order.side, rule="L292", roadblocks=sorted(mine | {lab}))
        em.say(f"{u.id} places a roadblock in {lab}", rule="L292", visible_to=order.side)
        return em.events
