"""Set-up orders of Combat Operations: placing units in the set-up areas (3.0, 17.x) and breaking
regiments down into battalions (17.0, in set-up and in the movement step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, unit_move
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import OrderHandler
from owsnb.kernel.state import StateLike, edge_key
from owsnb.rules.combatops import combat
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.combat import visibility_of
from owsnb.rules.combatops.movement import enemy_of
from owsnb.rules.combatops.order_checks import alias_note, check_stack, rotate
from owsnb.rules.combatops.terrain import hexid, map_info, occupied

__all__ = ["Place", "Breakdown", "north_of_river", "in_setup_area"]


_NORTH: dict[int, tuple[Any, frozenset]] = {}


def north_of_river(state: StateLike) -> frozenset:
    """Hexes reached from the north edge without crossing a river hexside."""
    m = state.map
    hit = _NORTH.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    info = map_info(m)
    top = min(info.rows.values())
    seen = {h for h in info.hexes if info.rows[h] == top}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in info.neighbours[h]:
            if n not in seen and edge_key(h, n) not in info.rivers:
                seen.add(n)
                todo.append(n)
    out = frozenset(seen)
    _NORTH[id(m)] = (m, out)
    return out


def in_setup_area(state: StateLike, side: str, h: Hex) -> bool:
    """Is *h* in *side*'s scenario set-up area (3.0, 17.x)?"""
    area = state.public.get("setup_areas", {}).get(side, {})
    river = area.get("river")
    if river == "north" and h not in north_of_river(state):
        return False
    if river == "south" and h in north_of_river(state):
        return False
    cols = area.get("cols")
    if cols:
        lo, _, hi = str(cols).partition("-")
        c = hexid(state.map, h).rstrip("0123456789")
        if not (lo <= c <= (hi or lo)) or len(c) != 1:
            return False
    return bool(area)


class Place(OrderHandler):
    type = OrderType(
        "place",
        (Param("unit", "unit"), Param("to", "hex")),
        rule="3.0",
        doc="set a unit up anywhere in your set-up area",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        mine = [u for u in state.units_of(side) if u.hex is not None and u.alive]
        area = [h for h in map_info(state.map).hexes if in_setup_area(state, side, h)]
        if not mine or not area:
            return None
        area.sort(key=lambda h: map_info(state.map).ids[h])
        ex = []
        for u in rotate(mine, state, 4):
            for h in rotate(area, state, 3):
                ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in mine)), tuple(ex))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u, to = args["unit"], args["to"]
        if not in_setup_area(state, order.side, to):
            raise IllegalOrderError(
                f"{hexid(state.map, to)} is outside {order.side}'s set-up area",
                code="outside-setup-area",
                rule="3.0",
                order=order,
            )
        if to in occupied(state, enemy_of(state, order.side)):
            raise IllegalOrderError(
                f"{hexid(state.map, to)} holds an enemy unit",
                code="enemy-hex",
                rule="8.0",
                order=order,
            )
        check_stack(state, order, to, [u])

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u, to = args["unit"], args["to"]
        return [
            unit_move(
                u.id, to, path=(u.map_hex, to), visible_to=visibility_of(state, u), rule="3.0"
            )
        ]


class Breakdown(OrderHandler):
    type = OrderType(
        "breakdown",
        (Param("unit", "unit", "a regiment counter"),),
        rule="17.0",
        doc="replace a regiment counter by its battalions",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        regs = [
            u
            for u in state.units_of(side)
            if u.hex is not None
            and u.alive
            and u.data.get("echelon") == "regiment"
            and not U.is_dummy(u)
        ]
        if not regs:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(unit=tuple(u.id for u in regs)),
            tuple(self.type.make(side, unit=u.id) for u in regs[:3]),
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if u.data.get("echelon") != "regiment" or U.bns(u) < 2:
            raise IllegalOrderError(
                f"{u.id} is not a regiment counter", code="not-a-regiment", rule="17.0", order=order
            )
        if U.is_dummy(u):
            raise IllegalOrderError(
                f"{u.id} is a dummy: it has no battalions", code="dummy", rule="17.0", order=order
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = args["unit"]
        events = combat.breakdown_events(state, u, rule="17.0")
        events += alias_note(state, u, "the counter {unit} is replaced by several counters", "17.0")
        return events
