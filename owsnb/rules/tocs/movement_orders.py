"""Movement orders of TOCS: one hex at a time, EZOC to EZOC, ambush, joining an Engagement Battle
(10.1, 10.1.2, L173-L174, L246).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import unit_move
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import mp_available, pay_move, road_bonus_eligible
from owsnb.rules.tocs.combat import Battle, resolve_battle
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.minefield_orders import (
    enemy_mines,
    known_mines,
    leave_mined,
    mined_by,
    struck,
)
from owsnb.rules.tocs.model import alive_on_map, enemy_of, is_mech, owner, units_in
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce, take_hex
from owsnb.rules.tocs.roadblock_orders import known_roadblock, learn_roadblock, roadblocked
from owsnb.rules.tocs.stacking import congested
from owsnb.rules.tocs.terrain import is_road_step, step_cost
from owsnb.rules.tocs.zoc import declared_against, engaged, ezoc_at, learn_ezoc

__all__ = ["Move"]


class Move(OrderHandler):
    type = OrderType(
        "move",
        (Param("unit", "unit"), Param("to", "hex", "an adjacent hex")),
        rule="10.1",
        doc="move one hex (COT; extra AP are spent as needed, MP pool across consecutive moves)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        movers = [
            u for u in state.units.values() if u.side == side and alive_on_map(u) and is_open(u)
        ]
        ex = []
        for u in movers:
            if not alive_on_map(u) or engaged(state, u.hex):
                continue
            for n in u.hex.neighbours():
                if n in state.map.hexes and step_cost(state, u, u.hex, n) <= mp_available(u):
                    if u.get("cls") == "battery" and owner(state, n) != side:
                        continue
                    ex.append(self.type.make(side, unit=u.id, to=state.map.label(n)))
        return spec_from_examples(side, self.type, ex, 40)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        need_open(u, order)
        to = args["to"]
        if to.distance(u.hex) != 1:
            raise refuse(
                f"{state.map.label(to)} is not adjacent to {u.id} ({state.map.label(u.hex)}); move one hex at a time",
                "not-adjacent",
                "10.1",
                order,
            )
        if engaged(state, u.hex):
            raise refuse(
                f"{u.id} is in an Engagement Battle: it may only Withdraw", "engaged", "L246", order
            )
        if owner(state, to) != u.side:
            if u.get("cls") == "battery":
                raise refuse(
                    "batteries never enter the enemy perimeter", "battery-perimeter", "L234", order
                )
            if u.get("cls") == "asset" and not u.get("recon"):
                raise refuse(
                    "only recon assets enter the enemy perimeter alone",
                    "asset-perimeter",
                    "L234",
                    order,
                )
        if clock_step(state) == "3.8" and owner(state, to) != u.side:
            raise refuse(
                "reserves committed by the non-phasing player stay inside their perimeter (ruling E.6)",
                "reserve-no-attack",
                "L68",
                order,
            )
        if (
            known_mines(state, u.side, u.hex)
            and enemy_mines(state, u.side, u.hex)
            and int(u.get("ap", 0)) < 1
        ):
            raise refuse(
                f"leaving the minefield in {state.map.label(u.hex)} costs 1 more AP; {u.id} has none",
                "mined",
                "L297",
                order,
            )
        jam = congested(state, u.side, to)  # L365: an over-stacked hex's roads are congested
        cost = step_cost(
            state,
            u,
            u.hex,
            to,
            road=not (known_roadblock(state, u.side, to) or mined_by(state, u.side, to) or jam),
        )
        if cost == float("inf"):
            raise refuse(
                f"{u.id} cannot enter {state.map.label(to)} from {state.map.label(u.hex)} (terrain or river)",
                "impassable",
                "11.0",
                order,
            )
        bonus = (
            int(u.get("road_bonus", 0)) > 0
            and road_bonus_eligible(state, u)
            and is_road_step(state, u.hex, to)
            and not known_roadblock(state, u.side, to)
            and not mined_by(state, u.side, to)
            and not jam
        )  # L245
        if mp_available(u) + 1e-9 < cost and not bonus:
            raise refuse(
                f"{u.id} needs {cost:g} MP to enter {state.map.label(to)}; it has {mp_available(u):g}",
                "no-mp",
                "10.1",
                order,
            )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        frm, to = u.hex, args["to"]
        enemy = enemy_of(state, side)
        lab = state.map.label(to)
        if enemy_mines(state, side, frm) and not leave_mined(
            em, dice, u.id
        ):  # L297: it stays in the field
            return em.events
        u = em.state.units[u.id]
        road = is_road_step(state, frm, to)
        if road and mined_by(state, side, to):  # L297: own mines deny road rate to own units
            road = False
        if road and congested(state, side, to):  # L365: over stacked, its roads are congested
            road = False
        blocked = road and roadblocked(
            state, side, to
        )  # L295: no road rate into an enemy roadblock
        cost = step_cost(state, u, frm, to, road=road and not blocked)
        if blocked:
            learn_roadblock(em, side, to, rule="L295")
            road = False
            if mp_available(u) + 1e-9 < cost:  # sent back: the move action ends where it is
                em.data(u.id, rule="L295", mp_left=0, acted=True)
                em.say(
                    f"A roadblock in {lab} denies road rate: {u.id} cannot pay {cost:g} MP and stays",
                    rule="L295",
                    visible_to=side,
                )
                return em.events
        # EZOC -> EZOC (L174; extended-deployment hexes per option ext_ezoc_to_ezoc, L176 v L178)
        here = ezoc_at(state, side, frm)
        if (
            here
            and state.options.get("ext_ezoc_to_ezoc", "text") == "text"
            and set(here) == {"extended"}
        ):
            here = []
        there = ezoc_at(state, side, to)
        if here and there:
            if not is_mech(u):
                learn_ezoc(em, side, to, True, "L174")
                em.data(
                    u.id,
                    rule="L174",
                    mp_left=0,
                    acted=True,
                    ap=max(0, int(u.get("ap", 0)) - (1 if float(u.get("mp_left", 0)) <= 0 else 0)),
                )
                em.say(
                    f"{u.id} is blocked: {lab} is in EZOC and it may not move EZOC to EZOC",
                    rule="L174",
                    visible_to=side,
                )
                return em.events
            cost *= 2  # L174: mech/armor pay 2xCOT
        if not pay_move(em, em.state.units[u.id], cost, road and not (here and there), "10.1"):
            em.data(u.id, rule="L174", mp_left=0, acted=True)
            em.say(
                f"{u.id} lacks the MP for 2xCOT into EZOC hex {lab}: it stops",
                rule="L174",
                visible_to=side,
            )
            return em.events
        if u.get("ext_dir") is not None:
            em.data(u.id, rule="L310", ext_dir=None)
        if engaged(state, to):  # L246: join the battle, in secret
            em.emit(unit_move(u.id, to, path=(frm, to), visible_to=side, rule="L246"))
            em.data(u.id, rule="L246", mp_left=0, ap=0)
            em.say(f"{u.id} joins the Engagement Battle in {lab}", rule="L246", visible_to=side)
            return em.events
        if units_in(state, to, enemy):
            if clock_step(state) == "3.10":  # L80: exploitation stops short
                em.data(u.id, rule="L80", mp_left=0, ap=0)
                announce(
                    em,
                    f"Entry into {lab} is blocked: the hex is enemy occupied",
                    rule="L80",
                    hex=lab,
                )
                return em.events
            announce(em, f"Ambush in {lab}!", rule="10.1.2", hex=lab)
            em.data(u.id, rule="L251", mp_left=0, ap=0)
            shifts = ["ambush"]
            if (
                state.options.get("air_support_in_ambush", "l605") == "l605"
                and state.map.hexes[to].facts.get("air_support") == side
            ):
                shifts.append(
                    "tactical_air_support"
                )  # L605 v L252: the national rule counts in an ambush
            b = Battle(
                to, side, [u.id], "ambush", shifts=shifts, road_column=road and not u.get("recon")
            )
            summary = resolve_battle(em, dice, b, rule="10.1.2")
            em.say(
                f"{u.id} was ambushed in {lab}: {summary['result']} ({summary['outcome']})",
                rule="10.1.2",
                visible_to=side,
            )
            return em.events
        em.emit(unit_move(u.id, to, path=(frm, to), visible_to=side, rule="10.1"))
        if owner(state, to) != side:
            take_hex(em, side, to, rule="L247", why="a unit enters it")
        if enemy_mines(em.state, side, to):  # L297: stop and test morale
            struck(em, dice, u.id, to)
        kinds = ezoc_at(em.state, side, to)
        if kinds:
            learn_ezoc(em, side, to, True, "L173")
            stops = "normal" in kinds or not is_mech(u)
            msg = f"{lab} is in EZOC" + (
                "; the move action ends (remaining MP of this AP lost)"
                if stops
                else "; armor/mech is not stopped by extended EZOC"
            )
            em.say(
                msg,
                rule="L173" if "normal" in kinds else "L310",
                visible_to=side if owner(state, to) == side else None,
                hex=lab,
            )
            if stops:
                em.data(u.id, rule="L173", mp_left=0)
        elif lab in declared_against(state, side):
            learn_ezoc(em, side, to, False, "L172")
        return em.events
