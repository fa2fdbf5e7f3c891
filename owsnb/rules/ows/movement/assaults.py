"""Landings: amphibious assault placement (6.4.6), airborne (6.5.11) and air assault (6.5.12)
placement, and the delivery of the landing force when the Ground phase begins (10.15.8).

Paragraphs: 6.4.6 an embarked force goes ashore in a beach hex next to its ship (amphibious units
swim, others need a landing ship); 6.5.11 an airborne unit in an airfield hex is placed with one
transport per step, two per mechanised step; 6.5.12 an air-assault unit in an airfield or LHD/LHA
hex, one air-assault transport per step; 6.5.3 the transports' reach; 2.3.4 transports and force
are targets meanwhile; 10.15.8 surviving transports deliver the force (R11: a unit aboard a
transport shot down is lost with it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import Result, apply_hits, option, watchers
from owsnb.rules.ows.movement.basics import (
    _movement_table,
    carrier_of,
    is_mech,
    is_water,
    lift_tag,
    moved_this_turn,
)
from owsnb.rules.ows.movement.ground import zoc_hexes
from owsnb.rules.ows.units import counter


# -- assaults (6.4.6, 6.5.11, 6.5.12) ---------------------------------------------------------------
def _land(state: StateLike, h: Hex) -> bool:
    return h in state.map.hexes and not is_water(state, h)


class AmphibiousAssault(OrderHandler):
    """6.4.6: place an embarked landing force in a beach hex next to its ship, under an Amphibious
    Assault marker; only amphibious units swim ashore, others need a landing ship (LST/LSM/LCAC)."""

    type = OrderType(
        "amphibious-assault",
        (
            Param("unit", "unit", "ground unit aboard the ship", on_map=False),
            Param("hex", "hex", "beach landing hex (land, next to the ship)"),
        ),
        rule="6.4.6",
        doc="place an amphibious assault",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units_of(side):
            ship = carrier_of(state, u)
            if ship is None or ship.hex is None:
                continue
            for n in ship.hex.neighbours():
                if _land(state, n):
                    ex.append(self.type.make(side, unit=u.id, hex=state.map.label(n)))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:10])) if ex else None

    def _check(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, Any, Hex]:
        u = args["unit"]  # bound: the side's unit, alive (aboard: off the map); a map hex
        ship = carrier_of(state, u)
        if ship is None or ship.hex is None or not ship.alive:
            raise refuse(f"{u.id} is not aboard a ship at sea", "not-aboard", "6.4.6", order)
        if not (u.data.get("amphibious") or ship.data.get("landing_craft")):
            raise refuse(
                f"{u.id} is not amphibious and {ship.id} is not a landing ship (LST/LSM/LCAC/causeway)",
                "no-landing-means",
                "6.4.6",
                order,
            )
        h = args["hex"]
        if not _land(state, h) or h.distance(ship.hex) > 1:
            raise refuse(
                f"the beach hex must be a land hex next to {ship.id}", "bad-beach", "6.4.6", order
            )
        return u, ship, h

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, ship, h = self._check(state, order, args)
        own = frozenset({u.side})
        tag = ship.data.get("assault_tag") or lift_tag(state, "assault")
        ev = [
            unit_move(u.id, h, rule="6.4.6", visible_to=own),
            unit_set(
                u.id,
                markers=(u.markers - {"rsoi"}) | {"amphibious-assault"},
                data={
                    "aboard": "",
                    "assault": {"mode": "sea", "tag": tag, "turn": state.clock.turn, "per_step": 1},
                },
                rule="6.4.6",
                visible_to=own,
            ),
            unit_move(ship.id, h, rule="2.3.4", visible_to=watchers(state, ship)),
            unit_set(
                ship.id,
                markers=ship.markers | {"amphibious-assault"},
                data={
                    "assault_tag": tag,
                    "assault_from": ship.data.get("assault_from") or [ship.hex.q, ship.hex.r],
                },
                rule="2.3.4",
                visible_to=watchers(state, ship),
            ),
        ]
        return Adjudication(
            ev,
            Result(
                f"{u.id} assaults {state.map.label(h)} from {ship.id}",
                {"hex": state.map.label(h)},
                ["6.4.6", "2.3.4"],
                [],
                [
                    "ship and landing force are targets in the Combat phase; ashore in the Ground "
                    "phase if the ship survives (6.4.6, 10.15.8)"
                ],
            ),
        )


class AirborneAssault(OrderHandler):
    """6.5.11: an airborne unit that started the turn in an airfield hex is placed with its
    transports (one per step, two per mechanised step) in a land hex under an Airborne Assault marker."""

    verb = "airborne-assault"
    rule = "6.5.11"
    flag = "airborne"
    type = OrderType(
        "airborne-assault",
        (
            Param("unit", "unit", "airborne unit in an airfield hex"),
            Param("hex", "hex", "drop zone (land hex)"),
            Param(
                "transports",
                "unit",
                "air transport missions",
                positional=False,
                repeat=True,
                on_map=False,
            ),
        ),
        rule="6.5.11",
        doc="place an airborne assault",
    )

    def _transports_ok(self, t: Any) -> bool:
        c = counter(t)
        return c.is_air and c.mission in ("transport", "air-assault")

    def _start_ok(self, state: StateLike, u: Any) -> bool:
        return u.hex is not None and "airfield" in state.map.hexes[u.hex].features

    def _capable(self, u: Any) -> bool:
        """An airborne (6.5.11) or air-assault (6.5.12) unit: by its flag or its subtype."""
        return bool(u.data.get(self.flag) or counter(u).subtype == self.flag.replace("_", "-"))

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ready = [t for t in state.units_of(side) if t.box == "base" and self._transports_ok(t)]
        ex = []
        for u in state.units_of(side):
            if not self._capable(u) or not self._start_ok(state, u):
                continue
            need = self._need(state, u)
            if len(ready) < need:
                continue
            for n in u.map_hex.neighbours():
                if _land(state, n):
                    ex.append(
                        self.type.make(
                            side,
                            unit=u.id,
                            hex=state.map.label(n),
                            transports=[t.id for t in ready[:need]],
                        )
                    )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:8])) if ex else None

    def _need(self, state: StateLike, u: Any) -> int:
        per = (
            int(_movement_table(state)["strategic"].get("heavy_lift_per_mech_step", 2))
            if (is_mech(u) and self.flag == "airborne")
            else 1
        )
        return u.steps * per

    def _check(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, Hex, list[Any]]:
        u = args["unit"]  # bound: the side's unit alive on the map
        if not self._capable(u):
            raise refuse(
                f"{u.id} is not {self.flag.replace('_', ' ')} capable",
                "not-capable",
                self.rule,
                order,
            )
        if not self._start_ok(state, u) or moved_this_turn(state, u):
            raise refuse(
                f"{u.id} must start the turn in an airfield hex"
                + (" or with an LHD/LHA" if self.flag == "air_assault" else ""),
                "not-at-airfield",
                self.rule,
                order,
            )
        h = args["hex"]
        if not _land(state, h):
            raise refuse("the landing zone must be a land hex", "not-land", self.rule, order)
        ts = []
        for t in args.get("transports", ()):  # bound: the side's units, alive
            if not self._transports_ok(t) or t.box != "base":
                raise refuse(
                    f"{t.id} is not a ready transport mission", "not-transport", self.rule, order
                )
            ts.append(t)
        need = self._need(state, u)
        if len(set(t.id for t in ts)) < need:
            raise refuse(
                f"{u.id} has {u.steps} step(s): it needs {need} transport mission(s)"
                + (" (two per mechanised step)" if need > u.steps else ""),
                "too-few-transports",
                self.rule,
                order,
            )
        radius = max((int(counter(t).combat_radius or 0) for t in ts), default=0)
        if radius and u.hex.distance(h) > radius * 3:
            raise refuse(
                f"{state.map.label(h)} is beyond the transports' reach ({radius * 3} hexes)",
                "out-of-radius",
                "6.5.3",
                order,
            )
        return u, h, ts

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, h, ts = self._check(state, order, args)
        own = frozenset({u.side})
        tag = lift_tag(state, "assault")
        ev = [
            unit_move(u.id, h, rule=self.rule, visible_to=own),
            unit_set(
                u.id,
                markers=u.markers | {"airborne-assault"},
                data={
                    "assault": {
                        "mode": "air",
                        "tag": tag,
                        "turn": state.clock.turn,
                        "per_step": self._need(state, u) // max(u.steps, 1),
                    }
                },
                rule=self.rule,
                visible_to=own,
            ),
        ]
        for t in ts:
            ev.append(unit_move(t.id, h, rule=self.rule, visible_to=frozenset({t.side})))
            ev.append(
                unit_set(
                    t.id,
                    markers=t.markers | {"airborne-assault"},
                    data={"assault_tag": tag},
                    rule="2.3.4",
                    visible_to=frozenset({t.side}),
                )
            )
        return Adjudication(
            ev,
            Result(
                f"{u.id} {self.flag.replace('_', ' ')} assault on {state.map.label(h)}",
                {"hex": state.map.label(h), "transports": [t.id for t in ts]},
                [self.rule, "2.3.4"],
                [],
                [
                    "exposed to CAP and air defence in Air Combat; on the ground if the transports survive (10.15.8)"
                ],
            ),
        )


class AirAssault(AirborneAssault):
    """6.5.12: an air-assault unit in an airfield or LHD/LHA hex goes in with one air-assault
    capable transport per step."""

    rule = "6.5.12"
    flag = "air_assault"
    type = OrderType(
        "air-assault",
        (
            Param("unit", "unit", "air assault unit"),
            Param("hex", "hex", "landing zone (land hex)"),
            Param(
                "transports",
                "unit",
                "air assault transports (helicopters, tilt-rotors)",
                positional=False,
                repeat=True,
                on_map=False,
            ),
        ),
        rule="6.5.12",
        doc="place an air assault",
    )

    def _transports_ok(self, t: Any) -> bool:
        c = counter(t)
        return c.is_air and (c.mission == "air-assault" or bool(t.data.get("air_assault")))

    def _start_ok(self, state: StateLike, u: Any) -> bool:
        if u.hex is None:
            return False
        if "airfield" in state.map.hexes[u.hex].features:
            return True
        return any(
            x.side == u.side and x.hex == u.hex and counter(x).subtype in ("lhd", "lha")
            for x in state.units.values()
        )

    def _need(self, state: StateLike, u: Any) -> int:
        return u.steps


def deliver_landings(state: StateLike, dice: Any) -> list[Event]:
    """10.15.8 (entering the Ground phase): surviving transports deliver their landing forces —
    ships go back to sea, air transports to base; the force aboard a lost transport is lost with
    it (R11, option ``airborne_lost_with_transport``; for ships owsnb applies the same reading)."""
    events: list[Event] = []
    turn = state.clock.turn
    for u in state.units.values():
        a = u.data.get("assault") or {}
        if not a or int(a.get("turn", 0)) != turn or a.get("delivered") or u.hex is None:
            continue
        vis = watchers(state, u)
        lost_steps = 0
        carriers = [
            t
            for t in state.units.values()
            if t.data.get("assault_tag") == a.get("tag") and a.get("tag")
        ]
        for t in carriers:
            if not t.alive or t.box in ("regeneration", "attrition"):
                lost_steps += 1
                continue
            if a.get("mode") == "sea":
                back = Hex(*t.data.get("assault_from")) if t.data.get("assault_from") else None
                if back is None:
                    back = next((n for n in u.hex.neighbours() if is_water(state, n)), None)
                events.append(unit_move(t.id, back, rule="10.15.8", visible_to=watchers(state, t)))
                events.append(
                    unit_set(
                        t.id,
                        markers=t.markers - {"amphibious-assault"},
                        data={"assault_from": None, "assault_tag": None},
                        rule="10.15.8",
                        visible_to=watchers(state, t),
                    )
                )
            else:
                events.append(
                    unit_set(
                        t.id,
                        hex=None,
                        box="base",
                        markers=t.markers - {"airborne-assault"},
                        data={"assault_tag": None},
                        rule="10.15.8",
                        visible_to=frozenset({t.side}),
                    )
                )
        rule = "R11" if a.get("mode") == "air" else "10.15.8"
        if lost_steps and (a.get("mode") == "sea" or option(state, "airborne_lost_with_transport")):
            per = int(a.get("per_step", 1) or 1)
            steps = u.steps if a.get("mode") == "sea" else min(u.steps, -(-lost_steps // per))
            ev, _, _ = apply_hits(state, u, steps, rule=rule, cause="ground", visible_to=vis)
            events += ev
            events.append(
                note(
                    f"{u.id}: {steps} step(s) lost with their transport ({rule})",
                    rule=rule,
                    visible_to=vis,
                )
            )
            if steps >= u.steps:
                continue
        foes = [
            e for e in state.units.values() if e.side != u.side and e.hex is not None and e.alive
        ]
        in_zoc = u.hex in zoc_hexes(state, foes)
        events.append(
            unit_set(
                u.id,
                data={
                    "landed": turn,
                    "assault": {
                        **thaw(a),
                        "delivered": True,
                        "at": [u.hex.q, u.hex.r],
                        "zoc": in_zoc,
                    },
                },
                rule="10.15.8",
                visible_to=vis,
            )
        )
    return events
