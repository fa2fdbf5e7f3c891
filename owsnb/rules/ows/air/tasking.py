"""Air tasking orders (6.5): ``fly`` an air mission from its base, build a strike ``package``.

Paragraphs: 6.5 the air tasking order; 6.5.2 fuel source rule; 6.5.3 maximum radius with a tanker
or FARP; 6.5.4 tanker capacity and radius; 6.5.5 basing (a damaged airfield grounds the squadrons
beyond its capacity, ruling A1); 6.5.6 carrier sorties; 6.5.10 fighter mission designations;
9.6.1 a suppressed carrier flies nothing; 9.9.6.2 a strike package's traced route (checked, kept
secret, previewed); 10.13.2.1 a squadron's day of fuel paid from a CSS unit in radius when its
first mission flies (option ``css``); 6.5.1/6.5.1.1 strike packages and munitions (fighter 2,
bomber 6; organic or munitions, not both).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, unit_move, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.air.missions import (
    CAP_MISSIONS,
    FIGHTER_MISSIONS,
    ROUTED,
    _base_unit,
    _sorties_used,
    _tanker_load,
    airbase_capacity,
    grounded_squadrons,
    max_radius,
)
from owsnb.rules.ows.air.routes import route_plan
from owsnb.rules.ows.common import Result, legal_examples, watchers
from owsnb.rules.ows.units import counter

__all__ = ["Fly", "Package"]


def _labels(state: StateLike, hexes: Any) -> list[str]:
    """A route as it is recorded: the printed labels of its hexes (9.9.6.2)."""
    return [state.map.label(h) for h in hexes]


class Fly(OrderHandler):
    """6.5: place an air mission within the combat radius of a fuel source (6.5.2), up to 2x/3x
    with a tanker (6.5.3, 6.5.4); carriers limit sorties (6.5.6)."""

    type = OrderType(
        "fly",
        (
            Param("mission", "unit", "air mission counter at its base", on_map=False),
            Param("hex", "hex", "where it flies"),
            Param(
                "tanker",
                "unit",
                "supporting tanker mission (6.5.4)",
                positional=False,
                optional=True,
            ),
            Param(
                "task",
                "choice",
                "fighter mission designation (6.5.10)",
                positional=False,
                optional=True,
                choices=FIGHTER_MISSIONS,
            ),
            Param(
                "route",
                "hex",
                "strike route: the hexes flown to the release hex (9.9.6.2; default: straight)",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="6.5",
        doc="place an air mission (air tasking order)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ready = [u for u in state.units_of(side) if counter(u).is_air and u.box == "base"]
        bases = {m.id: _base_unit(state, m) for m in ready}
        ex = legal_examples(
            self,
            state,
            side,
            (
                {"mission": m.id, "hex": state.map.label(h)}
                for m in ready
                if (b := bases[m.id]) is not None and b.hex is not None
                for h in [b.hex, *b.hex.neighbours()]
                if h in state.map.hexes and h.distance(b.hex) <= int(counter(m).combat_radius or 1)
            ),
        )
        return (
            OrderSpec(
                side, self.type, FrozenDict(mission=tuple(m.id for m in ready)), tuple(ex[:30])
            )
            if ex
            else None
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        m = args["mission"]  # bound: the side's unit, alive
        c = counter(m)
        if not c.is_air:
            raise refuse(f"{m.id} is not an air mission", "not-air", "6.5", order)
        if m.box != "base":
            raise refuse(
                f"{m.id} is not ready at its base (it is {'in ' + m.box if m.box else 'airborne'})",
                "not-ready",
                "6.5",
                order,
            )
        b = _base_unit(state, m)
        if b is None or b.hex is None or not b.alive:
            raise refuse(
                f"{m.id}'s base is gone: missions of a destroyed base are lost (2.2.4)",
                "no-base",
                "6.5.5",
                order,
            )
        grounded = grounded_squadrons(state, b.hex)
        if b.id in grounded:
            raise refuse(
                f"{b.id} is beyond the capacity of its damaged airfield ({airbase_capacity(state, b.hex)} "
                "squadron(s)): no missions until it is repaired (6.5.5, 9.9.7)",
                "airbase-capacity",
                "6.5.5",
                order,
            )
        from owsnb.rules.ows import css as _css

        _css.check_fuel(state, order, b)  # 10.13.2.1: a squadron's day of fuel (option css)
        h = args["hex"]
        mission = args.get("task") or c.mission
        if args.get("route"):
            self._route(state, order, args, b.hex, h, mission)
        if args.get("task") and c.aircraft != "fighter":
            raise refuse("only fighters change mission (6.5.10)", "not-fighter", "6.5.10", order)
        r = int(c.combat_radius or 0)
        d = b.hex.distance(h)
        if counter(b).category == "naval":
            if "suppressed" in b.markers:
                raise refuse(
                    f"{b.id} is damaged and suppressed: no air operations this turn",
                    "suppressed",
                    "9.6.1",
                    order,
                )
            support = mission in ("tanker", "aew")  # 6.5.6: one-to-one with the sortie number
            if _sorties_used(state, b, support) >= counter(b).box_total("aircraft"):
                raise refuse(
                    f"{b.id} generates no more {'support missions' if support else 'sorties'} this "
                    f"turn (aircraft boxes left: {counter(b).box_total('aircraft')})",
                    "no-support-sorties" if support else "no-sorties",
                    "6.5.6",
                    order,
                )
        if c.tanker is not None:
            tr = c.tanker.get("radius")
            if tr is not None and d > int(tr):
                raise refuse(
                    f"{h} is beyond the tanker's radius {tr}", "out-of-radius", "6.5.4", order
                )
            return
        if d <= r:
            if args.get("tanker"):
                self._tanker(state, order, args, h, r)
            return
        if not args.get("tanker"):
            raise refuse(
                f"{state.map.label(h)} is {d} hexes from {b.id}; {m.id}'s combat radius is {r}: beyond it needs a "
                "tanker or FARP (6.5.2, 6.5.3)",
                "out-of-radius",
                "6.5.2",
                order,
            )
        if d > max_radius(r, mission):
            raise refuse(
                f"{state.map.label(h)} is {d} hexes away; a {mission} mission may go at most {max_radius(r, mission)} "
                f"({'3' if mission in ('strike', 'sead', 'bomber') else '2'}x radius {r})",
                "beyond-max-radius",
                "6.5.3",
                order,
            )
        self._tanker(state, order, args, h, r)

    def preview(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> Distribution | None:
        """A strike package's exact odds of reaching its release hex past the defensive CAP the side
        knows of (9.9.6.2); ``None`` for other missions."""
        m = args["mission"]
        if (args.get("task") or counter(m).mission) not in ROUTED:
            return None
        data = {"route": _labels(state, args["route"])} if args.get("route") else {}
        flown = m.evolve(hex=args["hex"], box=None, data=data)
        from dataclasses import replace as _replace

        return route_plan(
            # a frozen dataclass (the truth or a view): mypy cannot see that through the Protocol
            _replace(state, units=state.units.set({m.id: flown})),  # type: ignore[type-var]
            m.id,
        ).distribution()

    def _route(
        self,
        state: StateLike,
        order: Order,
        args: Mapping[str, Any],
        start: Any,
        h: Any,
        mission: str,
    ) -> None:
        if mission not in ROUTED:
            raise refuse(
                "only strike packages trace a route (9.9.6.2)", "no-route", "9.9.6.2", order
            )
        hexes = list(args["route"])  # bound: hexes of the map
        if hexes[-1] != h or any(
            a.distance(b) != 1 for a, b in zip([start, *hexes], hexes, strict=False)
        ):
            raise refuse(
                f"a route is a chain of adjacent hexes from {state.map.label(start)} ending in "
                f"{state.map.label(h)} (9.9.6.2)",
                "bad-route",
                "9.9.6.2",
                order,
            )
        most = max_radius(int(counter(args["mission"]).combat_radius or 0), mission)
        if len(hexes) > most:
            raise refuse(
                f"the route flies {len(hexes)} hexes: a {mission} mission flies at most {most} (6.5.3)",
                "route-too-long",
                "6.5.3",
                order,
            )

    def _tanker(
        self, state: StateLike, order: Order, args: Mapping[str, Any], h: Any, r: int
    ) -> None:
        t = args["tanker"]  # bound: the side's unit alive on the map
        tc = counter(t)
        if tc.tanker is None:
            raise refuse(f"{t.id} is not a tanker", "not-tanker", "6.5.4", order)
        if _tanker_load(state, t) >= int(tc.tanker.get("capacity", 1)):
            raise refuse(
                f"{t.id} already supports {tc.tanker.get('capacity')} mission(s) (6.5.4)",
                "tanker-full",
                "6.5.4",
                order,
            )
        if t.hex.distance(h) > r:
            raise refuse(
                f"the mission must stay within its combat radius ({r}) of its fuel source {t.id}",
                "out-of-radius",
                "6.5.2",
                order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        m, h = args["mission"], args["hex"]
        data: dict[str, Any] = {}
        if args.get("tanker"):
            data["tanker_id"] = args["tanker"].id
        if args.get("task"):
            data["mission"] = args["task"]
        if args.get("route"):
            data["route"] = _labels(state, args["route"])
        ev: list[Event] = [unit_move(m.id, h, rule="6.5", visible_to=watchers(state, m))]
        b = _base_unit(state, m)
        if b is not None:
            from owsnb.rules.ows import css as _css

            ev += _css.pay_fuel(state, b)  # 10.13.2.1, paid when the squadron's first mission flies
        if data:
            ev.append(
                unit_set(
                    m.id,
                    data=data,
                    rule="6.5.4" if "tanker_id" in data else "6.5.10",
                    visible_to=m.side if "route" in data else watchers(state, m),
                )
            )
        return Adjudication(
            ev,
            Result(
                f"{m.id} flies to {state.map.label(h)}",
                {"hex": state.map.label(h), **data},
                ["6.5", "6.5.2"] + (["6.5.3", "6.5.4"] if data.get("tanker_id") else []),
            ),
        )


class Package(OrderHandler):
    """6.5.1/6.5.1.1: build a strike package: load munitions from a co-located ASP (fighters up to 2
    salvos, bombers up to 6; a fighter then gives up its organic attack), name escorts."""

    type = OrderType(
        "package",
        (
            Param("lead", "unit", "strike mission at its base or airborne", on_map=False),
            Param(
                "munitions",
                "int",
                "salvos loaded from an ASP (6.5.1.1)",
                positional=False,
                optional=True,
            ),
            Param("asp", "unit", "ASP supplying the munitions", positional=False, optional=True),
            Param(
                "escorts",
                "unit",
                "escorting fighters",
                positional=False,
                repeat=True,
                optional=True,
                on_map=False,
            ),
        ),
        rule="6.5.1",
        doc="prepare a strike package",
    )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        m = args["lead"]  # bound: the side's units, alive; the ASP on the map
        c = counter(m)
        if not c.is_air or c.mission not in ("strike", "sead", "bomber", "cas"):
            raise refuse(f"{m.id} is not a strike mission", "not-strike", "6.5.1", order)
        n = args.get("munitions")
        if n is not None:
            if not str(n).isdigit() or int(n) < 1:
                raise refuse(
                    "munitions must be a positive number of salvos",
                    "bad-arguments",
                    "6.5.1.1",
                    order,
                )
            cap_ = int(c.munitions_max or (6 if c.aircraft == "bomber" else 2))
            if int(n) > cap_:
                raise refuse(
                    f"a {c.aircraft or 'fighter'} carries at most {cap_} strike salvos (6.5.1.1)",
                    "too-many-munitions",
                    "6.5.1.1",
                    order,
                )
            if not args.get("asp"):
                raise refuse(
                    "name the ASP that supplies the munitions (asp=...)",
                    "bad-arguments",
                    "6.5.1.1",
                    order,
                )
            a = args["asp"]
            if counter(a).category != "asp" or int(counter(a).salvos) < int(n):
                raise refuse(
                    f"{a.id} holds {counter(a).salvos} salvo(s)", "asp-empty", "2.2.2.6", order
                )
            b = _base_unit(state, m)
            where = m.hex if m.hex is not None else (b.hex if b is not None else None)
            if where is None or where.distance(a.hex) > 0:
                raise refuse(
                    f"{a.id} is not at {m.id}'s airfield", "asp-not-here", "6.5.1.1", order
                )
        for eu in args.get("escorts", ()):
            if counter(eu).mission not in CAP_MISSIONS:
                raise refuse(f"{eu.id} is not a fighter in CAP", "not-escort", "6.5.1", order)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        m = args["lead"]
        c = counter(m)
        ev: list[Event] = []
        data: dict[str, Any] = {"escorts": [e.id for e in args.get("escorts", ())]}
        if args.get("munitions"):
            n = int(args["munitions"])
            a = args["asp"]
            die = str(a.data.get("munition_die", "d10"))
            attacks = [dict(x) for x in thaw(m.data.get("attacks", ())) if x["id"] != "munitions"]
            attacks.append(
                {
                    "id": "munitions",
                    "die": die,
                    "count": n,
                    "targets": ["ground", "naval"],
                    "range": 1,
                    "flags": ["subsonic"],
                    "auto_resupply": False,
                    "pool": "",
                    "air_to_air": False,
                    "cap_defense": None,
                }
            )
            data["attacks"] = attacks
            if c.aircraft != "bomber":  # 6.5.1.1: organic or munitions, not both
                sp = dict(c.spent)
                for g in c.attacks:
                    if not g.air_to_air:
                        sp[g.key] = g.count
                data["spent"] = sp
            ev.append(
                unit_set(
                    a.id,
                    data={"salvos": int(counter(a).salvos) - n},
                    rule="6.5.1.1",
                    visible_to=a.side,
                )
            )
        ev.insert(0, unit_set(m.id, data=data, rule="6.5.1", visible_to=watchers(state, m)))
        return Adjudication(
            ev,
            Result(
                f"Strike package {m.id}",
                {"munitions": args.get("munitions"), "escorts": data["escorts"]},
                ["6.5.1", "6.5.1.1"],
            ),
        )
