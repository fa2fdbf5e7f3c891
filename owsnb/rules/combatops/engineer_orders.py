"""Engineer orders of Combat Operations: bridges built, placed at set-up and destroyed (9.7, 17.2)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, note, side_set, state_set, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import OrderHandler
from owsnb.kernel.state import StateLike, Unit, edge_key
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.order_checks import step_no, unit_types
from owsnb.rules.combatops.terrain import bridge_kind, edge_id, hexid, map_info

__all__ = ["Build", "Demolish"]


def _river_sides(state: StateLike, side: str) -> Iterator[tuple[Unit, Hex]]:
    """Each real engineer of *side* on the map, with each hex across a river hexside from it."""
    info = map_info(state.map)
    for u in state.units_of(side):
        if (
            u.hex is not None
            and u.alive
            and U.is_engineer(u, unit_types(state))
            and not U.is_dummy(u)
        ):
            for n in info.neighbours[u.hex]:
                if edge_key(u.hex, n) in info.rivers:
                    yield u, n


def _engineer(state: StateLike, order: Order, args: Mapping[str, Any]) -> Unit:
    """The engineer an order names, or its refusal (9.7)."""
    u: Unit = args["unit"]
    if not U.is_engineer(u, unit_types(state)) or U.is_dummy(u):
        raise IllegalOrderError(
            f"{u.id} is not an engineer", code="not-an-engineer", rule="9.7", order=order
        )
    return u


def _order_edge(state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Unit, str]:
    """The (validated) engineer of an order and the id of the hexside it works on."""
    u = args["unit"]
    return u, edge_id(state.map, u.map_hex, args["across"])


def _unit_spec(
    order_type: OrderType, side: str, ex: list[Order], k: int, **choices: Any
) -> OrderSpec | None:
    """The spec of an engineer verb from its examples (none: no spec); *k* examples shown."""
    if not ex:
        return None
    units = tuple(dict.fromkeys(o.args[0] for o in ex))
    return OrderSpec(side, order_type, FrozenDict(unit=units, **choices), tuple(ex[:k]))


def _task_events(u: Unit, kind: str, eid: str, text: str) -> list[Event]:
    """The engineer's task for the half-turn (9.7), told to its own side only."""
    return [
        unit_set(u.id, data={"task": {"kind": kind, "edge": eid}}, visible_to=u.side, rule="9.7"),
        note(text, visible_to=u.side, rule="9.7"),
    ]


class Build(OrderHandler):
    type = OrderType(
        "build",
        (
            Param("unit", "unit", "an engineer"),
            Param("across", "hex", "the hex across the river"),
            Param("kind", "choice", "bridge type", positional=False, choices=("infantry", "armor")),
        ),
        rule="9.7",
        doc="start (or, by a scenario's set-up rule, place) a bridge across a river hexside",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = [
            self.type.make(side, unit=u.id, across=state.map.label(n), kind=k)
            for u, n in _river_sides(state, side)
            if bridge_kind(state, u.map_hex, n) != "armor"
            for k in ("infantry", "armor")
        ]
        return _unit_spec(self.type, side, ex, 8, kind=("infantry", "armor"))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u, n = _engineer(state, order, args), args["across"]
        if n.distance(u.map_hex) != 1 or edge_key(u.map_hex, n) not in map_info(state.map).rivers:
            raise IllegalOrderError(
                f"{u.id} is not beside a river hexside facing {hexid(state.map, n)}",
                code="no-river",
                rule="9.7",
                order=order,
            )
        kind = args.get("kind", "infantry")
        have = bridge_kind(state, u.map_hex, n)
        if have == "armor" or have == kind:
            raise IllegalOrderError(
                f"there is already an {have} bridge there", code="bridged", rule="9.7", order=order
            )
        if step_no(state) == 0:
            sb = state.public.get("setup_bridge", {})
            if sb.get("side") != order.side or kind != "armor":
                raise IllegalOrderError(
                    "bridges are built during the movement phase; only a scenario set-up rule "
                    "places one at the start",
                    code="not-now",
                    rule="9.7",
                    order=order,
                )
            if u.id in state.sides[order.side].private.get("setup_bridges", ()):
                raise IllegalOrderError(
                    f"{u.id} has already placed its set-up bridge",
                    code="used",
                    rule=str(sb.get("rule", "17.2")),
                    order=order,
                )
        elif u.has("moved") or u.has("attacked"):
            raise IllegalOrderError(
                f"{u.id} has moved or attacked this half-turn",
                code="moved",
                rule="9.7",
                order=order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u, eid = _order_edge(state, order, args)
        kind = args.get("kind", "infantry")
        if step_no(state) == 0:
            rule = str(state.public.get("setup_bridge", {}).get("rule", "17.2"))
            bridges = dict(state.public.get("bridges", {}))
            bridges[eid] = {"kind": "armor", "side": order.side}
            used = tuple(state.sides[order.side].private.get("setup_bridges", ())) + (u.id,)
            return [
                state_set("public", {"bridges": bridges}, rule=rule),
                side_set(order.side, "private", {"setup_bridges": used}, rule=rule),
                note(f"{order.side} places an armor bridge across {eid} ({rule})", rule=rule),
            ]
        return _task_events(u, kind, eid, f"{u.id} starts an {kind} bridge across {eid}")


class Demolish(OrderHandler):
    type = OrderType(
        "demolish",
        (Param("unit", "unit", "an engineer"), Param("across", "hex", "the hex across the bridge")),
        rule="9.7",
        doc="destroy a bridge (the engineer spends the half-turn in the bridge hex)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = [
            self.type.make(side, unit=u.id, across=state.map.label(n))
            for u, n in _river_sides(state, side)
            if bridge_kind(state, u.map_hex, n)
        ]
        return _unit_spec(self.type, side, ex, 4)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u, n = _engineer(state, order, args), args["across"]
        if n.distance(u.map_hex) != 1 or not bridge_kind(state, u.map_hex, n):
            raise IllegalOrderError(
                f"no bridge between {hexid(state.map, u.map_hex)} and {hexid(state.map, n)}",
                code="no-bridge",
                rule="9.7",
                order=order,
            )
        if u.has("moved") or u.has("attacked"):
            raise IllegalOrderError(
                f"{u.id} must spend the whole half-turn in the bridge hex (9.7)",
                code="moved",
                rule="9.7",
                order=order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u, eid = _order_edge(state, order, args)
        return _task_events(
            u, "destroy", eid, f"{u.id} prepares to destroy the bridge across {eid}"
        )
