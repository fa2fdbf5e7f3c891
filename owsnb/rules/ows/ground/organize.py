"""The Organize step (6.C.2, 10.3 2.A-2.C): reserves, Main Efforts, Defend, Fortified, Delay and
task organisation.

Paragraphs: 10.4 reserves designated by an HQ in command radius (half MP, never attack in normal
combat, C2); 10.5 Main Effort (one per Div/Corps HQ per turn, not from a disrupted or suppressed
HQ); 10.6 Defend (+1 shield, lost on moving); 10.7 Fortified (+2, needs Defend at the start of the
phase and an engineer); 10.8 Delay (no attack); 10.3 2.A attachment to an HQ; 10.14 [ADV] Orders
markers within the side's action points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import (
    Event,
    side_set,
    unit_set,
)
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import Result, legal_examples, option, watchers
from owsnb.rules.ows.ground.gcat import _manoeuvre
from owsnb.rules.ows.ground.phase import _hq_of, formation_of
from owsnb.rules.ows.movement import (
    GROUND_CATEGORIES,
)
from owsnb.rules.ows.sequence import base_step
from owsnb.rules.ows.units import counter


def _organize_unit(state: StateLike, order: Order, u: Any, rule: str) -> Any:
    """The bound *u* (the side's unit alive on the map), in the Organize step (6.C.2)."""
    if base_step(state.clock.step) != "6.C.2":
        raise refuse("this is done in the Organize step (6.C.2)", "wrong-step", rule, order)
    return u


def _hq_in_radius(state: StateLike, u: Any) -> Any | None:
    hq = _hq_of(state, u)
    if hq is None or hq.hex is None or not hq.alive:
        return None
    r = int(counter(hq).command_radius or 0)
    if r:
        from owsnb.rules.ows.timedistance import command_radius_hexes

        if u.hex.distance(hq.hex) > command_radius_hexes(state, hq):
            return None
    return hq


def _unit_order(verb: str, what: str, rule: str, doc: str) -> OrderType:
    """An order on one unit: ``VERB UNIT``."""
    return OrderType(verb, (Param("unit", "unit", what),), rule=rule, doc=doc)


class _Organize(OrderHandler):
    """An Organize-step order (10.3 2.A-2.C) on one unit; by default it places :attr:`marker`."""

    marker = ""
    rule = ""

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.2":
            return None
        us = [
            u
            for u in state.units_of(side)
            if u.hex is not None and counter(u).category in GROUND_CATEGORIES
        ]
        ex = legal_examples(self, state, side, ({"unit": u.id} for u in us), 8)
        return (
            OrderSpec(side, self.type, FrozenDict(unit=tuple(o.args[0] for o in ex)), tuple(ex))
            if ex
            else None
        )

    def _events(self, state: StateLike, u: Any) -> list[Event]:
        return [
            unit_set(
                u.id,
                markers=u.markers | {self.marker},
                rule=self.rule,
                visible_to=watchers(state, u),
            )
        ]

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u = args["unit"]
        return Adjudication(
            self._events(state, u), Result(f"{u.id}: {self.marker}", {"unit": u.id}, [self.rule])
        )


class Reserve(_Organize):
    """10.4 (2.A): an HQ designates a unit in its command radius as Reserve (C2)."""

    marker, rule = "reserve", "10.4"
    type = _unit_order(
        "reserve",
        "unit to hold in reserve",
        "10.4",
        "designate a reserve (half MP; attacks only in exploitation)",
    )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.4")
        if counter(u).category not in ("ground", "artillery", "engineer"):
            raise refuse(f"{u.id} cannot be a reserve", "not-ground", "10.4", order)
        if "reserve" in u.markers:
            raise refuse(f"{u.id} is already in reserve", "already", "10.4", order)
        if _hq_in_radius(state, u) is None:
            raise refuse(
                f"{u.id} has no HQ within command radius to designate it (2.2.7.1)",
                "no-hq",
                "2.2.7.1",
                order,
            )


class MainEffort(_Organize):
    """10.5 (2.B): one Main Effort per Div/Corps HQ per turn; not from a disrupted or suppressed HQ."""

    marker, rule = "main-effort", "10.5"
    type = _unit_order(
        "main-effort", "unit (manoeuvre or fires) of the HQ", "10.5", "designate the Main Effort"
    )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.5")
        hq = _hq_in_radius(state, u)
        if hq is None:
            raise refuse(
                f"{u.id} has no HQ within command radius (2.2.7.1)", "no-hq", "2.2.7.1", order
            )
        top = state.units.get(formation_of(state, u) or "") or hq
        if hq.markers & {"disrupted-c2", "suppressed"} or top.markers & {
            "disrupted-c2",
            "suppressed",
        }:
            raise refuse(
                f"{hq.id} is disrupted or suppressed: no Main Effort (7.2.1.1, 10.15.7)",
                "hq-disrupted",
                "7.2.1.1",
                order,
            )
        if int(top.data.get("me_turn", 0) or 0) == state.clock.turn:
            raise refuse(
                f"{top.id} has already designated its Main Effort this turn",
                "one-main-effort",
                "10.5",
                order,
            )

    def _events(self, state: StateLike, u: Any) -> list[Event]:
        hq = _hq_of(state, u)
        top = state.units.get(formation_of(state, u) or "") or hq
        return [
            unit_set(
                u.id,
                markers=u.markers | {"main-effort"},
                rule="10.5",
                visible_to=watchers(state, u),
            ),
            unit_set(u.id, data={"me_by": hq.id}, rule="10.5", visible_to=frozenset({u.side})),
            unit_set(
                top.id,
                data={"me_turn": state.clock.turn},
                rule="10.5",
                visible_to=frozenset({u.side}),
            ),
        ]


class Defend(_Organize):
    """10.6 (2.C): a unit that will not move takes a Defend mission (+1 shield, lost on moving)."""

    marker, rule = "defend", "10.6"
    type = _unit_order("defend", "unit that will not move", "10.6", "Defend mission")

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.6")
        if counter(u).category not in GROUND_CATEGORIES:
            raise refuse(f"{u.id} is not a ground unit", "not-ground", "10.6", order)
        if u.markers & {"defend", "fortified"}:
            raise refuse(f"{u.id} is already in Defend/Fortified", "already", "10.6", order)

    def _events(self, state: StateLike, u: Any) -> list[Event]:
        return [
            unit_set(
                u.id,
                markers=(u.markers - {"delay"}) | {"defend"},
                data={"defend_turn": state.clock.turn},
                rule="10.6",
                visible_to=watchers(state, u),
            )
        ]


class Fortify(_Organize):
    """10.7: a unit that started the Ground phase in Defend, with an engineer, becomes Fortified."""

    marker, rule = "fortified", "10.7"
    type = _unit_order(
        "fortify", "unit in Defend with an engineer", "10.7", "upgrade Defend to Fortified (+2)"
    )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.7")
        if "defend" not in u.markers or int(u.data.get("defend_turn", 0) or 0) >= state.clock.turn:
            raise refuse(
                f"{u.id} must start the Ground phase already in Defend (10.7)",
                "not-in-defend",
                "10.7",
                order,
            )
        if not any(
            x.side == u.side and x.hex == u.hex and x.alive and counter(x).category == "engineer"
            for x in state.units.values()
        ):
            raise refuse(
                f"{u.id} needs an engineer in its hex (10.7)", "no-engineer", "10.7", order
            )

    def _events(self, state: StateLike, u: Any) -> list[Event]:
        return [
            unit_set(
                u.id,
                markers=(u.markers - {"defend"}) | {"fortified"},
                rule="10.7",
                visible_to=watchers(state, u),
            )
        ]


class Delay(_Organize):
    """10.8 (2.C): a Delay mission (cannot attack; the attacker is demoted; ignores a 1-step loss)."""

    marker, rule = "delay", "10.8"
    type = _unit_order("delay", "unit to delay", "10.8", "Delay mission")

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.8")
        if not _manoeuvre(u):
            raise refuse(f"{u.id} is not a manoeuvre unit", "not-manoeuvre", "10.8", order)
        if "delay" in u.markers:
            raise refuse(f"{u.id} is already in Delay", "already", "10.8", order)

    def _events(self, state: StateLike, u: Any) -> list[Event]:
        return [
            unit_set(
                u.id,
                markers=(u.markers - {"defend", "fortified"}) | {"delay"},
                rule="10.8",
                visible_to=watchers(state, u),
            )
        ]


class TaskOrganize(OrderHandler):
    """10.3 2.A: attach a unit to an HQ; 10.14 [ADV]: place Orders markers (secret, within the
    side's action points)."""

    type = OrderType(
        "task-organize",
        (
            Param("unit", "unit", "unit to attach", optional=True, on_map=False),
            Param("hq", "unit", "HQ it now answers to", optional=True, on_map=False),
            Param(
                "orders",
                "unit",
                "units or HQs given Orders markers (10.14, ADV)",
                positional=False,
                repeat=True,
                optional=True,
                on_map=False,
            ),
        ),
        rule="10.3",
        doc="task organisation; Orders markers (ADV)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.2":
            return None
        vals: list[dict[str, Any]] = []
        hqs = [u.id for u in state.units_of(side) if counter(u).category == "hq" and u.alive]
        for u in state.units_of(side)[:6]:
            if counter(u).category in ("ground", "artillery", "engineer") and hqs:
                vals.append({"unit": u.id, "hq": hqs[0]})
        if option(state, "action_points"):
            from owsnb.rules.ows import orders as _orders

            n = _orders.budget(state, side)
            vals.append({"orders": hqs[:n] or [u.id for u in state.units_of(side)][:n]})
        ex = legal_examples(self, state, side, vals, 10)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if base_step(state.clock.step) != "6.C.2":
            raise refuse(
                "task organisation is done in the Organize step (6.C.2)",
                "wrong-step",
                "10.3",
                order,
            )
        if bool(args.get("unit")) != bool(args.get("hq")):
            raise refuse("give both unit and hq to attach a unit", "bad-arguments", "10.3", order)
        if args.get("unit"):
            u, hq = args["unit"], args["hq"]  # bound: the side's units, alive
            if counter(hq).category != "hq" or hq.id == u.id:
                raise refuse(f"{hq.id} is not an HQ", "not-hq", "10.3", order)
        if args.get("orders"):
            from owsnb.rules.ows import orders as _orders

            _orders.validate_orders(state, order, [u.id for u in args["orders"]])
        if not args.get("unit") and not args.get("orders"):
            raise refuse("nothing to organise: give unit= hq= or orders=", "nothing", "10.3", order)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        ev: list[Event] = []
        lines = []
        shown: dict[str, Any] = {}  # the arguments as named (ids)
        if args.get("unit"):
            u, hq = args["unit"], args["hq"]
            shown.update(unit=u.id, hq=hq.id)
            ev.append(
                unit_set(u.id, data={"hq": hq.id}, rule="10.3", visible_to=frozenset({u.side}))
            )
            lines.append(f"{u.id} attached to {hq.id}")
        if args.get("orders"):
            ids = [u.id for u in args["orders"]]
            shown["orders"] = tuple(ids)
            ev.append(
                side_set(
                    order.side,
                    "private",
                    {"orders": {"turn": state.clock.turn, "units": ids}},
                    rule="10.14.2",
                )
            )
            lines.append(f"Orders markers on {', '.join(ids)} (10.14.2)")
        return Adjudication(ev, Result("Task organisation", shown, ["10.3"], [], lines))
