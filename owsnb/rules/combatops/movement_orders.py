"""Movement orders of Combat Operations: moves (8.0) and exploitation moves (10.0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, unit_move, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import OrderHandler
from owsnb.kernel.state import StateLike, Unit
from owsnb.rules.combatops.combat import visibility_of
from owsnb.rules.combatops.movement import movement_allowance, path_to, reach
from owsnb.rules.combatops.order_checks import (
    alias_note,
    check_stack,
    rotate,
    stack_after,
    stack_limit,
    step_no,
)
from owsnb.rules.combatops.supply import supply_of
from owsnb.rules.combatops.terrain import hexid, map_info

__all__ = ["Move", "movement_note"]


def _movers(state: StateLike, side: str) -> list[Unit]:
    n = step_no(state)
    out = []
    for u in state.units_of(side):
        if u.hex is None or not u.alive or u.has("moved"):
            continue
        if n == 5 and not u.has("exploit"):
            continue
        out.append(u)
    return out


def exploit_filter(state: StateLike, u: Unit):  # noqa: ANN202
    """10.0: no unit may move out of supply during exploitation (option ``exploit_supply``)."""
    if step_no(state) != 5:
        return None, None
    sup = supply_of(state, u.side)
    ok = sup.hexes(sup.division_of(u))
    if state.options.get("exploit_supply", "every-hex") == "every-hex":
        return ok.__contains__, None
    return None, ok


class Move(OrderHandler):
    type = OrderType(
        "move",
        (Param("unit", "unit"), Param("to", "hex")),
        rule="8.0",
        doc="move a unit (cheapest legal path; stops on entering enemy ZOC)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        movers = _movers(state, side)
        if not movers:
            return None
        ex = []
        for u in rotate(movers, state, 5):
            allowed, ends = exploit_filter(state, u)
            cost, _ = reach(state, u, allowed=allowed)
            dests = sorted(
                (
                    h
                    for h in cost
                    if h != u.hex
                    and (ends is None or h in ends)
                    and stack_after(state, side, h, [u]) <= stack_limit(state)
                ),
                key=lambda h: (-cost[h], map_info(state.map).ids[h]),
            )
            for h in dests[:2] + dests[len(dests) // 2 : len(dests) // 2 + 1]:
                ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in movers)), tuple(ex))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        rule = "10.0" if step_no(state) == 5 else "8.0"
        u, to = args["unit"], args["to"]
        if u.has("moved"):
            raise IllegalOrderError(
                f"{u.id} has already moved this half-turn", code="moved", rule=rule, order=order
            )
        if step_no(state) == 5 and not u.has("exploit"):
            raise IllegalOrderError(
                f"{u.id} may not exploit: only motorized units that neither moved nor "
                "attacked this half-turn may (10.0)",
                code="not-exploiting",
                rule="10.0",
                order=order,
            )
        if to == u.hex:
            raise IllegalOrderError(
                f"{u.id} is already in {hexid(state.map, to)}",
                code="no-move",
                rule=rule,
                order=order,
            )
        allowed, ends = exploit_filter(state, u)
        cost, _ = reach(state, u, allowed=allowed)
        if to not in cost:
            raise IllegalOrderError(
                f"{hexid(state.map, to)} is beyond {u.id}'s reach this phase ({movement_note(state, u)})"
                + (" or out of supply (10.0)" if allowed is not None else ""),
                code="out-of-reach",
                rule=rule,
                order=order,
            )
        if ends is not None and to not in ends:
            raise IllegalOrderError(
                f"{u.id} would end out of supply in {hexid(state.map, to)} (10.0)",
                code="out-of-supply",
                rule="10.0",
                order=order,
            )
        check_stack(state, order, to, [u])

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u, to = args["unit"], args["to"]
        allowed, _ = exploit_filter(state, u)
        cost, parent = reach(state, u, allowed=allowed)
        path = path_to(parent, u.map_hex, to)
        vis = visibility_of(state, u)
        data = {"task": None} if u.data.get("task") else {}
        ev = [
            unit_move(u.id, to, path=path, visible_to=vis, rule="8.0"),
            unit_set(
                u.id,
                markers=u.markers | {"moved"},
                visible_to=vis,
                rule="8.0",
                **({"data": data} if data else {}),
            ),
        ]
        ev += alias_note(
            state,
            u,
            f"{{unit}} moves {hexid(state.map, u.map_hex)} -> {hexid(state.map, to)}",
            "8.0",
        )
        return ev


def movement_note(state: StateLike, u: Unit) -> str:
    ma = movement_allowance(state, u)
    return f"MA {ma}{' (halved: out of supply, 7.2)' if u.data.get('oos') else ''}"
