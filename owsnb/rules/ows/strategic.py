"""Strategic movement (5.1): sealift, airlift, rail and HET, with RSO&I (2.3.1, 5.1.1.1, C1).

Paragraphs: 5.1 inter/intra-theater air, sea, rail and road movement in the Strategic Movement
phase; 5.1.1.1 every transported ground unit goes into RSO&I; 5.1.1.2 sealift: unit and ship start
the turn in the same port, one ground step per infantry silhouette box, a hit on such a box costs
the embarked unit a step, the ship sails in Naval Movement and offloads in port: ship and unit stay
in RSO&I for the rest of that turn and the next (the LMSR example: in port in Turn 2, free in Turn
4); 2.1.7.1 port capacity (white boxes = steps embarked or offloaded a turn; damage lowers it);
5.1.1.3 airlift: the unit starts in an airfield hex, one transport mission per step, a mechanised
or armoured unit one step at a time on heavy-lift transports only, two per step; transport
destroyed = cargo destroyed, transport to the Regeneration Box; RSO&I until this turn's
Regeneration; 5.1.1.4 rail: railhead and rail cars at the start of the turn, one car per step; one
turn embarking, one in transit, one offloading; 5.1.1.5 HET: one HET per step; embark and move in
one turn, then one full turn disembarking in RSO&I; 10.11 an engineer counts as one step.

Rulings: **SM1** airlift through an airfield is limited per turn to its squadron capacity
(2.1.7.2) in transport missions, less damage. **SM2** rail transit takes one turn per
``rail_km_per_turn`` of rail line (placeholder 600 km), at least one; HETs move by road up to
``het_road_mp`` wheeled road MP (placeholder 15). **SM3** a unit aboard a ship that sinks is lost
with it (as R11). RSO&I countdowns (C1) are ``tables.movement.strategic.rsoi_turns``.

>>> rail_turns(300, 600), rail_turns(1300, 600)
(3, 5)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, side_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import Result, apply_hits, legal_examples, watchers
from owsnb.rules.ows.movement import (
    cargo_of,
    carrier_of,
    friendly_port,
    known_enemies,
    lift_tag,
    moved_this_turn,
    ptable,
    stack_ok,
    zoc_hexes,
)
from owsnb.rules.ows.movement.ground import _cheaper, _cost_model
from owsnb.rules.ows.units import counter

__all__ = [
    "rail_turns",
    "port_capacity",
    "airfield_capacity",
    "over_capacity",
    "offload",
    "rail_route",
    "road_route",
    "Sealift",
    "Embark",
    "Disembark",
    "Airlift",
    "Rail",
    "Het",
    "cargo_losses",
    "rail_progress",
    "HANDLERS",
    "STEP_EFFECTS",
    "TURN_EFFECTS",
    "lift_steps",
    "rsoi_turns",
]


def rail_turns(km: float, km_per_turn: float) -> int:
    """5.1.1.4 (SM2): turns from embarking to moving freely: embark, transit (one turn per
    *km_per_turn*, at least one), offload."""
    return 2 + max(1, math.ceil(float(km) / float(km_per_turn) - 1e-9))


def rsoi_turns(state: StateLike, mode: str) -> int:
    """C1: the RSO&I countdown set on arrival by *mode* (sealift, airlift, het, rail)."""
    return int(ptable(state, "movement")["strategic"]["rsoi_turns"][mode])


def lift_steps(unit: Any) -> int:
    """Steps to lift (10.11: an engineer counts as one step)."""
    return 1 if counter(unit).category == "engineer" else unit.steps


def _damage(state: StateLike, h: Hex, kind: str) -> int:
    dmg = state.map.hexes[h].facts.get("damage") or {}
    return int(dmg.get(kind, 0) or 0)


def port_capacity(state: StateLike, h: Hex) -> int:
    """2.1.7.1: steps a port embarks or offloads per turn (its boxes, less damage)."""
    f = state.map.hexes[h].features.get("port")
    if not f:
        return 0
    return max(int(f.get("capacity", 0) or 0) - _damage(state, h, "port"), 0)


def airfield_capacity(state: StateLike, h: Hex) -> int:
    """SM1: transport missions an airfield handles per turn (its capacity, less damage)."""
    f = state.map.hexes[h].features.get("airfield")
    if not f:
        return 0
    return max(int(f.get("capacity", 0) or 0) - _damage(state, h, "airfield"), 0)


def over_capacity(state: StateLike) -> list[tuple[Any, list[str], int]]:
    """6.5.5: the airfields holding more squadron base counters than their capacity (less damage):
    ``(hex, ids of the squadron bases there, capacity)``."""
    out = []
    for h, info in state.map.hexes.items():
        if "airfield" not in info.features:
            continue
        ids = [
            u.id
            for u in state.units.values()
            if u.hex == h and u.alive and counter(u).category == "air-base"
        ]
        cap = airfield_capacity(state, h)
        if len(ids) > cap:
            out.append((h, ids, cap))
    return out


def basing_problems(state: StateLike) -> list[str]:
    """6.5.5: an airbase's capacity in squadrons can never be exceeded — one line per airfield over it."""
    return [
        f"{state.map.label(h)}: {len(ids)} squadrons based, capacity {cap} (6.5.5)"
        for h, ids, cap in over_capacity(state)
    ]


def _use(state: StateLike, side: str, kind: str) -> dict[str, int]:
    u = thaw(state.sides[side].private.get("lift_use") or {})
    if int(u.get("turn", 0) or 0) != state.clock.turn:
        return {}
    return dict(u.get(kind) or {})


def _use_event(state: StateLike, side: str, kind: str, label: str, n: int) -> Event:
    u = thaw(state.sides[side].private.get("lift_use") or {})
    if int(u.get("turn", 0) or 0) != state.clock.turn:
        u = {"turn": state.clock.turn}
    d = dict(u.get(kind) or {})
    d[label] = int(d.get(label, 0)) + n
    u[kind] = d
    return side_set(side, "private", {"lift_use": u}, rule="2.1.7")


def _rsoi(state: StateLike, u: Any, mode: str, rule: str, **data: Any) -> Event:
    timers = dict(thaw(u.data.get("timers") or {}))
    timers["rsoi"] = rsoi_turns(state, mode)
    return unit_set(
        u.id,
        markers=u.markers | {"rsoi"},
        data={"timers": timers, "rsoi_rule": rule, **data},
        rule=rule,
        visible_to=watchers(state, u),
    )


def offload(
    state: StateLike,
    ship: Any,
    dice: Any = None,
    *,
    only: Sequence[str] | None = None,
    rule: str = "5.1.1.2",
) -> tuple[list[Event], list[str]]:
    """5.1.1.2: offload a ship's cargo in a friendly port, within the port's capacity this turn
    (2.1.7.1); ship and offloaded units get RSO&I for one more full turn (C1)."""
    h = ship.hex
    lab = state.map.label(h)
    used = _use(state, ship.side, "port").get(lab, 0)
    cap = port_capacity(state, h) - used
    events: list[Event] = []
    lines: list[str] = []
    moved = 0
    left = []
    for u in cargo_of(state, ship):
        cid = u.id
        if not u.alive:
            continue
        n = lift_steps(u)
        if (only is not None and cid not in only) or n > cap:
            left.append(cid)
            if only is None or cid in only:
                lines.append(
                    f"{cid} stays aboard: {lab} can offload {max(cap, 0)} more step(s) this turn (2.1.7.1)"
                )
            continue
        if not stack_ok(state, u, h):
            left.append(cid)
            lines.append(f"{cid} stays aboard: {lab} is full (10.9)")
            continue
        cap -= n
        moved += n
        events.append(unit_move(cid, h, rule=rule, visible_to=watchers(state, u)))
        events.append(_rsoi(state, u.evolve(hex=h), "sealift", rule, aboard=""))
        lines.append(f"{cid} offloaded at {lab}: RSO&I (5.1.1.2)")
    if moved:
        events.append(_rsoi(state, ship, "sealift", rule))
        events.append(_use_event(state, ship.side, "port", lab, moved))
    return events, lines


def _enemy_block(state: StateLike, side: str) -> tuple[set[Hex], set[Hex]]:
    foes = known_enemies(state, side)
    return {e.hex for e in foes}, zoc_hexes(state, foes)


def _edge_route(
    state: StateLike, a: Hex, b: Hex, kind: str, side: str, cost_of: Any
) -> tuple[list[Hex], float] | None:
    """Cheapest route from *a* to *b* along hexsides carrying *kind* (rail, road), avoiding known
    enemy units and ZOC."""
    blocked, zoc = _enemy_block(state, side)

    def moves(h: Hex, d: float) -> Iterator[tuple[Hex, float]]:
        for n in h.neighbours():
            if n not in state.map.hexes or kind not in state.map.edge(h, n):
                continue
            if n in blocked or (n in zoc and n != b):
                continue
            yield n, d + cost_of(h, n)

    found = search(a, moves, goal=lambda h, d: h == b, better=_cheaper)
    if found.found is None:
        return None
    return list(found.path_to(b)), found.labels[b]


def rail_route(state: StateLike, a: Hex, b: Hex, side: str) -> tuple[list[Hex], float] | None:
    """The rail line from *a* to *b* and its length in km (5.1.1.4)."""
    km = float(state.map.km_per_hex() or 20.0)
    return _edge_route(state, a, b, "rail", side, lambda x, y: km)


def road_route(state: StateLike, a: Hex, b: Hex, side: str) -> tuple[list[Hex], float] | None:
    """The road from *a* to *b* and its cost in wheeled MP (5.1.1.5)."""
    model = _cost_model(state, "wheeled")
    return _edge_route(
        state,
        a,
        b,
        "road",
        side,
        lambda x, y: (
            model.edge_cost.get((x, y)) if isinstance(model.edge_cost.get((x, y)), float) else 1.0
        ),
    )


def _ground_lift_checks(state: StateLike, order: Order, u: Any, rule: str) -> None:
    c = counter(u)
    if c.category not in ("ground", "hq", "artillery", "air-defence", "engineer", "css"):
        raise refuse(f"{u.id} is not a ground unit", "not-ground", rule, order)
    if "rsoi" in u.markers or u.data.get("aboard") or u.data.get("rail"):
        raise refuse(f"{u.id} is already in transit or RSO&I", "in-transit", rule, order)
    if moved_this_turn(state, u):
        raise refuse(f"{u.id} must start the turn where it embarks (5.1.1)", "moved", rule, order)


class Sealift(OrderHandler):
    """5.1.1.2: embark a ground unit on a ship in the same port (both start the turn there)."""

    type = OrderType(
        "sealift",
        (
            Param("unit", "unit", "ground unit in port"),
            Param("ship", "unit", "ship in the same port"),
        ),
        rule="5.1.1.2",
        doc="embark a unit on a ship for sealift",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ships = [
            s
            for s in state.units_of(side)
            if s.hex is not None and counter(s).box_total("infantry") > 0
        ]
        ex = legal_examples(
            self,
            state,
            side,
            (
                {"unit": u.id, "ship": s.id}
                for s in ships
                for u in state.units_of(side)
                if u.hex == s.hex and u.id != s.id
            ),
            8,
        )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _check(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Any, Any]:
        u, s = args["unit"], args["ship"]  # bound: the side's units alive on the map
        _ground_lift_checks(state, order, u, "5.1.1.2")
        if counter(s).category != "naval":
            raise refuse(f"{s.id} is not a ship", "not-ship", "5.1.1.2", order)
        if s.hex != u.hex or "port" not in state.map.hexes[u.hex].features:
            raise refuse(
                f"{u.id} and {s.id} must start the turn in the same port hex",
                "not-in-port",
                "5.1.1.2",
                order,
            )
        cap = counter(s).box_total("infantry")
        aboard = sum(lift_steps(c) for c in cargo_of(state, s))
        if aboard + lift_steps(u) > cap:
            raise refuse(
                f"{s.id} carries {cap} ground step(s) (infantry silhouettes); {aboard} already aboard",
                "ship-full",
                "5.1.1.2",
                order,
            )
        lab = state.map.label(u.hex)
        left = port_capacity(state, u.hex) - _use(state, order.side, "port").get(lab, 0)
        if lift_steps(u) > left:
            raise refuse(
                f"{lab} can embark {max(left, 0)} more step(s) this turn (2.1.7.1)",
                "port-capacity",
                "2.1.7.1",
                order,
            )
        return u, s

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, s = self._check(state, order, args)
        vis = watchers(state, u)
        seen = list(counter(s).crossed_boxes)
        tag = s.data.get("hold") or lift_tag(state, "hold")
        ev = [
            unit_set(
                u.id,
                hex=None,
                box="aboard",
                markers=u.markers | {"rsoi"},
                seen_by=frozenset(),
                data={
                    "aboard": tag,
                    "moved": {"turn": state.clock.turn, "step": "2.1", "hexes": 0},
                    "rsoi_rule": "5.1.1.2",
                },
                rule="5.1.1.1",
                visible_to=vis,
            ),
            unit_set(
                s.id,
                data={"hold": tag, "cargo_boxes_seen": seen},
                rule="5.1.1.2",
                visible_to=watchers(state, s),
            ),
            _use_event(state, order.side, "port", state.map.label(s.hex), lift_steps(u)),
        ]
        return Adjudication(
            ev,
            Result(
                f"{u.id} embarks on {s.id}",
                {"ship": s.id},
                ["5.1.1.1", "5.1.1.2", "2.1.7.1"],
                [],
                [
                    f"{u.id} aboard {s.id} in RSO&I; {s.id} may sail in Naval Movement and offloads "
                    "in a friendly port (5.1.1.2)"
                ],
            ),
        )


class Embark(Sealift):
    """5.1.1.2: ``embark`` is the same as ``sealift`` (a ship in port); kept for amphibious lift."""

    type = OrderType(
        "embark",
        Sealift.type.params,
        rule="5.1.1.2",
        doc="embark a unit on a ship (same as sealift)",
    )


class Disembark(OrderHandler):
    """5.1.1.2: offload a unit still aboard a ship in a friendly port (within port capacity)."""

    type = OrderType(
        "disembark",
        (Param("unit", "unit", "unit aboard a ship in port", on_map=False),),
        rule="5.1.1.2",
        doc="offload a unit in port (RSO&I)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ok = legal_examples(
            self,
            state,
            side,
            ({"unit": u.id} for u in state.units_of(side) if u.data.get("aboard")),
        )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ok)) if ok else None

    def _check(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Any, Any]:
        u = args["unit"]  # bound: the side's unit, alive (aboard: off the map)
        s = carrier_of(state, u)
        if s is None or s.hex is None:
            raise refuse(f"{u.id} is not aboard a ship", "not-aboard", "5.1.1.2", order)
        if not friendly_port(state, s.hex, order.side):
            raise refuse(f"{s.id} is not in a friendly port", "not-in-port", "5.1.1.2", order)
        lab = state.map.label(s.hex)
        if lift_steps(u) > port_capacity(state, s.hex) - _use(state, order.side, "port").get(
            lab, 0
        ):
            raise refuse(
                f"{lab} has no capacity left this turn (2.1.7.1)", "port-capacity", "2.1.7.1", order
            )
        return u, s

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, s = self._check(state, order, args)
        ev, lines = offload(state, s, dice, only=[u.id])
        return Adjudication(
            ev, Result(f"{u.id} offloads", {"unit": u.id}, ["5.1.1.2", "2.1.7.1"], [], lines)
        )


def _mech(u: Any) -> bool:
    """5.1.1.3 "a mechanized or armored unit": tracked manoeuvre units (mech, armour)."""
    from owsnb.rules.ows.movement import mobility

    return counter(u).category == "ground" and (
        mobility(u) == "tracked" or counter(u).subtype in ("mech", "armour", "tank")
    )


class Airlift(OrderHandler):
    """5.1.1.3: fly a unit from its airfield to a friendly airfield with one transport per step
    (mechanised: one step, two heavy-lift transports); RSO&I until this turn's Regeneration."""

    type = OrderType(
        "airlift",
        (
            Param("unit", "unit", "ground unit in an airfield hex"),
            Param("to", "hex", "destination airfield"),
            Param(
                "transports",
                "unit",
                "transport missions",
                positional=False,
                repeat=True,
                on_map=False,
            ),
        ),
        rule="5.1.1.3",
        doc="airlift a unit",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ts = [
            t for t in state.units_of(side) if t.box == "base" and counter(t).mission == "transport"
        ]
        if not ts:
            return None
        fields = [h for h, i in state.map.hexes.items() if "airfield" in i.features]
        movers = [
            u
            for u in state.units_of(side)
            if u.hex is not None and "airfield" in state.map.hexes[u.hex].features
        ]
        ex = legal_examples(
            self,
            state,
            side,
            (
                {
                    "unit": u.id,
                    "to": state.map.label(h),
                    "transports": [t.id for t in ts[: self._need(state, u)]],
                }
                for u in movers
                for h in fields
                if h != u.hex
            ),
            6,
        )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _need(self, state: StateLike, u: Any) -> int:
        if _mech(u):
            return int(ptable(state, "movement")["strategic"].get("heavy_lift_per_mech_step", 2))
        return lift_steps(u)

    def _check(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, Hex, list[Any]]:
        u = args["unit"]  # bound: the side's unit alive on the map
        _ground_lift_checks(state, order, u, "5.1.1.3")
        if "airfield" not in state.map.hexes[u.hex].features:
            raise refuse(
                f"{u.id} must start the turn in an airfield hex",
                "not-at-airfield",
                "5.1.1.3",
                order,
            )
        if _mech(u) and u.steps > 1:
            raise refuse(
                f"a mechanised or armoured unit flies one step at a time: {u.id} has {u.steps} (5.1.1.3)",
                "one-step-at-a-time",
                "5.1.1.3",
                order,
            )
        to = args["to"]
        f = state.map.hexes[to].features.get("airfield")
        owner = (
            state.map.hexes[to].facts.get("control")
            or (f or {}).get("owner")
            or (f or {}).get("side")
        )
        if not f or (owner and owner != order.side):
            raise refuse(
                f"{state.map.label(to)} is not a friendly airfield",
                "not-airfield",
                "5.1.1.3",
                order,
            )
        ts = []
        for t in {t.id: t for t in args.get("transports", ())}.values():
            if counter(t).mission != "transport" or t.box != "base":
                raise refuse(
                    f"{t.id} is not a transport mission ready at its base",
                    "not-transport",
                    "5.1.1.3",
                    order,
                )
            if _mech(u) and not t.data.get("heavy_lift"):
                raise refuse(
                    f"{t.id} is not heavy lift (tank symbol): mechanised and armoured units need it (5.1.1.3)",
                    "not-heavy-lift",
                    "5.1.1.3",
                    order,
                )
            ts.append(t)
        need = self._need(state, u)
        if len(ts) < need:
            raise refuse(
                f"{u.id} needs {need} transport mission(s)"
                + (" (double heavy lift per mechanised step)" if _mech(u) else " (one per step)"),
                "too-few-transports",
                "5.1.1.3",
                order,
            )
        st = ptable(state, "movement")["strategic"]
        reach = st.get("airlift_hexes") or 3 * min(
            (int(counter(t).combat_radius or 0) for t in ts), default=0
        )
        if reach and u.hex.distance(to) > int(reach):
            raise refuse(
                f"{state.map.label(to)} is beyond the transports' reach ({reach} hexes)",
                "out-of-radius",
                "5.1.1.3",
                order,
            )
        for h in (u.hex, to):
            lab = state.map.label(h)
            if len(ts) > airfield_capacity(state, h) - _use(state, order.side, "airfield").get(
                lab, 0
            ):
                raise refuse(
                    f"{lab} handles {airfield_capacity(state, h)} transport mission(s) a turn (SM1)",
                    "airfield-capacity",
                    "2.1.7.2",
                    order,
                )
        if not stack_ok(state, u, to):
            raise refuse(f"{state.map.label(to)} is full (10.9)", "overstacked", "10.9", order)
        return u, to, ts

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, to, ts = self._check(state, order, args)
        tag = lift_tag(state)
        ev: list[Event] = [
            unit_move(u.id, to, rule="5.1.1.3", visible_to=watchers(state, u)),
            _rsoi(
                state,
                u,
                "airlift",
                "5.1.1.3",
                airlifted={"turn": state.clock.turn, "tag": tag},
                moved={"turn": state.clock.turn, "step": "2.1", "hexes": 0},
            ),
        ]
        for t in ts:
            ev.append(unit_move(t.id, to, rule="5.1.1.3", visible_to=frozenset({t.side})))
            ev.append(_rsoi(state, t, "airlift", "5.1.1.3", lift_tag=tag))
        for h in (u.hex, to):
            ev.append(_use_event(state, order.side, "airfield", state.map.label(h), len(ts)))
        return Adjudication(
            ev,
            Result(
                f"{u.id} airlifted to {state.map.label(to)}",
                {"to": state.map.label(to), "transports": [t.id for t in ts]},
                ["5.1.1.3", "C1"],
                [],
                [
                    "RSO&I on the unit and its transports until this turn's Regeneration (C1)",
                    "a transport destroyed this turn destroys the unit (5.1.1.3)",
                ],
            ),
        )


def _carriers(state: StateLike, u: Any, kind: str) -> list[Any]:
    return [
        t
        for t in state.units.values()
        if t.side == u.side
        and t.hex == u.hex
        and t.alive
        and counter(t).category == "transport"
        and counter(t).subtype == kind
        and not t.data.get("rail")
    ]


def _car_count(state: StateLike, u: Any) -> int:
    cars = sum(
        max(int(t.data.get("cars", t.steps) or t.steps), 1) for t in _carriers(state, u, "rail")
    )
    f = state.map.hexes[u.hex].features.get("railhead") or {}
    return (
        cars
        + int(f.get("cars", 0) or 0)
        - _use(state, u.side, "rail").get(state.map.label(u.hex), 0)
    )


class Rail(OrderHandler):
    """5.1.1.4: a unit at a railhead with rail cars (one per step) travels by rail: one turn
    embarking, transit, one turn offloading (RSO&I throughout)."""

    type = OrderType(
        "rail",
        (
            Param("unit", "unit", "ground unit at a railhead"),
            Param("to", "hex", "destination railhead"),
        ),
        rule="5.1.1.4",
        doc="move a unit by rail",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        heads = [h for h, i in state.map.hexes.items() if "railhead" in i.features]
        movers = [
            u
            for u in state.units_of(side)
            if u.hex is not None and "railhead" in state.map.hexes[u.hex].features
        ]
        ex = legal_examples(
            self,
            state,
            side,
            ({"unit": u.id, "to": state.map.label(h)} for u in movers for h in heads if h != u.hex),
            6,
        )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _check(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, Hex, list[Hex], float]:
        u = args["unit"]  # bound: the side's unit alive on the map
        _ground_lift_checks(state, order, u, "5.1.1.4")
        if "railhead" not in state.map.hexes[u.hex].features:
            raise refuse(
                f"{u.id} must start the turn at a railhead", "not-at-railhead", "5.1.1.4", order
            )
        if _car_count(state, u) < lift_steps(u):
            raise refuse(
                f"{u.id} needs {lift_steps(u)} rail car(s) at {state.map.label(u.hex)}; {_car_count(state, u)} there",
                "too-few-cars",
                "5.1.1.4",
                order,
            )
        to = args["to"]
        if "railhead" not in state.map.hexes[to].features:
            raise refuse(
                f"{state.map.label(to)} is not a railhead", "not-railhead", "5.1.1.4", order
            )
        if not stack_ok(state, u, to):
            raise refuse(f"{state.map.label(to)} is full (10.9)", "overstacked", "10.9", order)
        route = rail_route(state, u.hex, to, order.side)
        if route is None:
            raise refuse(
                f"no rail line from {state.map.label(u.hex)} to {state.map.label(to)} free of known enemy units "
                "and ZOC",
                "no-rail-line",
                "5.1.1.4",
                order,
            )
        return u, to, route[0], route[1]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, to, path, km = self._check(state, order, args)
        kpt = float(ptable(state, "movement")["strategic"]["rail_km_per_turn"])
        total = rail_turns(km, kpt)
        transit = total - 2
        t = state.clock.turn
        timers = dict(thaw(u.data.get("timers") or {}))
        timers["rsoi"] = total
        need = lift_steps(u)
        cars = []
        for c in _carriers(state, u, "rail"):
            if need <= 0:
                break
            cars.append(c)
            need -= max(int(c.data.get("cars", c.steps) or c.steps), 1)
        trip = {"to": [to.q, to.r], "transit_from": t + 1, "arrive": t + 1 + transit}
        ev = [
            unit_set(
                u.id,
                markers=u.markers | {"rsoi"},
                data={
                    "timers": timers,
                    "rail": trip,
                    "moved": {"turn": t, "step": "2.1", "hexes": 0},
                    "rsoi_rule": "5.1.1.4",
                },
                rule="5.1.1.4",
                visible_to=watchers(state, u),
            ),
            *(
                [_use_event(state, order.side, "rail", state.map.label(u.hex), need)]
                if need > 0
                else []
            ),
        ]
        for c in cars:
            ev.append(
                unit_set(c.id, data={"rail": trip}, rule="5.1.1.4", visible_to=watchers(state, c))
            )
        return Adjudication(
            ev,
            Result(
                f"{u.id} entrains for {state.map.label(to)}",
                {
                    "to": state.map.label(to),
                    "km": round(km),
                    "embark": t,
                    "transit": list(range(t + 1, t + 1 + transit)),
                    "offload": t + 1 + transit,
                    "free": t + total,
                },
                ["5.1.1.4", "C1"],
                [],
                [
                    f"embarking in turn {t}, in transit turn(s) {t + 1}-{t + transit}, offloading in "
                    f"turn {t + 1 + transit}, free in turn {t + total} (5.1.1.4)"
                ],
            ),
        )


def rail_progress(state: StateLike, turn: int, dice: Any) -> list[Event]:
    """5.1.1.4: at the start of each turn, units entrained leave for transit, then arrive to offload."""
    events: list[Event] = []
    for u in state.units.values():
        r = u.data.get("rail")
        if not r:
            continue
        vis = watchers(state, u)
        if turn >= int(r["arrive"]):
            to = Hex(*r["to"])
            events.append(unit_move(u.id, to, rule="5.1.1.4", visible_to=vis))
            events.append(unit_set(u.id, data={"rail": None}, rule="5.1.1.4", visible_to=vis))
        elif turn >= int(r["transit_from"]) and u.hex is not None:
            events.append(
                unit_set(
                    u.id, hex=None, box="rail", seen_by=frozenset(), rule="5.1.1.4", visible_to=vis
                )
            )
    return events


class Het(OrderHandler):
    """5.1.1.5: a unit on Heavy Equipment Transporters (one per step) moves by road this turn, then
    spends a full turn disembarking in RSO&I."""

    type = OrderType(
        "het",
        (
            Param("unit", "unit", "ground unit with HETs in its hex"),
            Param("to", "hex", "destination on the road net"),
        ),
        rule="5.1.1.5",
        doc="move a unit by HET",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units_of(side):
            if (
                u.hex is None
                or len(_carriers(state, u, "het")) < lift_steps(u)
                or counter(u).category == "transport"
            ):
                continue
            far = sorted(u.map_hex.disc(4), key=lambda h: (-h.distance(u.map_hex), h))
            ex += legal_examples(
                self,
                state,
                side,
                (
                    {"unit": u.id, "to": state.map.label(n)}
                    for n in far
                    if n in state.map.hexes and n != u.hex
                ),
                1,
            )  # the farthest
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:6])) if ex else None

    def _check(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, Hex, list[Hex], list[Any]]:
        u = args["unit"]  # bound: the side's unit alive on the map
        _ground_lift_checks(state, order, u, "5.1.1.5")
        hets = _carriers(state, u, "het")
        if len(hets) < lift_steps(u):
            raise refuse(
                f"{u.id} needs {lift_steps(u)} HET(s) in its hex; {len(hets)} there (5.1.1.5)",
                "too-few-hets",
                "5.1.1.5",
                order,
            )
        to = args["to"]
        route = road_route(state, u.hex, to, order.side)
        mp = float(ptable(state, "movement")["strategic"]["het_road_mp"])
        if route is None or route[1] > mp + 1e-9:
            raise refuse(
                f"{state.map.label(to)} is not within {mp:g} road MP of {u.id} on roads free of known enemy "
                "units and ZOC (5.1.1.5)",
                "no-road",
                "5.1.1.5",
                order,
            )
        if not stack_ok(state, u, to):
            raise refuse(f"{state.map.label(to)} is full (10.9)", "overstacked", "10.9", order)
        return u, to, route[0], hets[: lift_steps(u)]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, to, path, hets = self._check(state, order, args)
        ev: list[Event] = [
            unit_move(u.id, to, path=tuple(path), rule="5.1.1.5", visible_to=watchers(state, u)),
            _rsoi(
                state,
                u,
                "het",
                "5.1.1.5",
                moved={"turn": state.clock.turn, "step": "2.1", "hexes": len(path) - 1},
            ),
        ]
        for t in hets:
            ev.append(
                unit_move(t.id, to, path=tuple(path), rule="5.1.1.5", visible_to=watchers(state, t))
            )
        return Adjudication(
            ev,
            Result(
                f"{u.id} moved by HET to {state.map.label(to)}",
                {"to": state.map.label(to)},
                ["5.1.1.5", "C1"],
                [],
                ["a full turn disembarking in RSO&I follows (5.1.1.5)"],
            ),
        )


def cargo_losses(state: GameState, dice: Any) -> list[Event]:
    """5.1.1.2 / 5.1.1.3: a hit on a ship's infantry box costs its cargo a step (SM3: a sunk ship's
    cargo is lost); an airlifted unit whose transport was destroyed this turn is destroyed."""
    events: list[Event] = []
    cur = state
    for s in list(state.units.values()):
        cargo = [c for c in cargo_of(cur, s) if c.alive]
        if not cargo:
            continue
        boxes = s.data.get("boxes") or ()
        seen = set(s.data.get("cargo_boxes_seen") or ())
        crossed = set(counter(s).crossed_boxes) if s.alive else set(range(len(boxes)))
        new = sorted(crossed - seen)
        losses = (
            len(cargo) * 99
            if not s.alive
            else sum(1 for i in new if i < len(boxes) and int(boxes[i].get("infantry", 0)) > 0)
        )
        for u in cargo:
            if losses <= 0:
                break
            n = min(losses, u.steps)
            ev, lost, _ = apply_hits(
                cur, u, n, rule="5.1.1.2", cause="ground", visible_to=frozenset({u.side})
            )
            events += ev
            from owsnb.kernel.reduce import apply_all

            cur = apply_all(cur, ev)
            losses -= lost
        if new:
            events.append(
                unit_set(
                    s.id,
                    data={"cargo_boxes_seen": sorted(crossed)},
                    rule="5.1.1.2",
                    visible_to=frozenset({s.side}),
                )
            )
    for u in list(cur.units.values()):
        a = u.data.get("airlifted") or {}
        if not a or int(a.get("turn", 0)) != state.clock.turn or not u.alive:
            continue
        if any(
            not t.alive
            for t in cur.units.values()
            if a.get("tag") and t.data.get("lift_tag") == a.get("tag")
        ):
            ev, _, _ = apply_hits(
                cur, u, u.steps, rule="5.1.1.3", cause="ground", visible_to=watchers(cur, u)
            )
            events += ev
            events.append(
                note(
                    f"{u.id} destroyed with its air transport (5.1.1.3)",
                    rule="5.1.1.3",
                    visible_to=watchers(cur, u),
                )
            )
    return events


HANDLERS = [Sealift(), Embark(), Disembark(), Airlift(), Rail(), Het()]
STEP_EFFECTS = {"6.C.1": cargo_losses, "7.A": cargo_losses}
TURN_EFFECTS = [rail_progress]
