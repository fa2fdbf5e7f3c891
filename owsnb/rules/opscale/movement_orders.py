"""Movement Phase orders (TS.4): ``move``, ``sortie``, ``embark``, ``disembark``, ``setup``,
``pack``, ``recon`` (ENG.2); a ground unit entering a city captures it (SC.7, SC.8)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import (
    Adjudication,
    Distribution,
    OrderHandler,
    OrderSpec,
    OrderType,
    Param,
    Unit,
    refuse,
)
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.events import hex_set, note, side_set, unit_move, unit_set
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opscale.board import (
    alive_on_map,
    checks_on,
    domain,
    enemy_units_at,
    is_neutral,
    mobile,
    move_odds,
    move_reach,
    position,
    step_cost,
)
from owsnb.rules.opscale.economy import city_of, control_of
from owsnb.rules.opscale.engagement import (
    Report,
    Tally,
)
from owsnb.rules.opscale.orders import label
from owsnb.rules.opscale.scoring import action_points

__all__ = ["Move", "Sortie", "Embark", "Disembark", "SetUp", "Pack", "Recon", "capture_city"]


# -- movement (TS.4) ------------------------------------------------------------------------------
class Move(OrderHandler):
    type = OrderType(
        "move",
        (Param("unit", "unit"), Param("to", "hex")),
        rule="TS.4",
        doc="move a unit (terrain checks may stop it short)",
    )

    def _movers(self, state: StateLike, side: str) -> list[Unit]:
        return [
            u
            for u in state.units_of(side)
            if alive_on_map(u)
            and mobile(u)
            and "moved" not in u.markers
            and "set-up" not in u.markers
        ]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        movers = self._movers(state, side)
        if not movers:
            return None
        ex = []
        for u in movers[:12]:
            r = move_reach(state, u)
            for h in sorted(r.cost, key=lambda x: -r.cost[x])[:3]:
                if h != u.hex:
                    ex.append(self.type.make(side, unit=u.id, to=label(state, h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in movers)), tuple(ex))

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, to = args["unit"], args["to"]
        if not mobile(u):
            raise refuse(
                f"{u.id} cannot move ({u.data.get('category')})"
                + ("; aircraft fly sorties" if domain(u) == "air" else ""),
                "immobile",
                "TS.4",
                order,
            )
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "TS.4", order)
        if "set-up" in u.markers:
            raise refuse(
                f"{u.id} is set up: pack it before it moves (TS.4)", "set-up", "TS.4", order
            )
        if to == u.hex:
            raise refuse(f"{u.id} is already in {label(state, to)}", "no-move", "TS.4", order)
        if to not in move_reach(state, u):
            raise refuse(
                f"{label(state, to)} is out of {u.id}'s reach this turn (movement "
                f"{float(u.data.get('move', 0)):g}; "
                "enemy-occupied and impassable hexes cannot be entered)",
                "out-of-reach",
                "TS.4",
                order,
            )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        u, to = args["unit"], args["to"]
        return move_odds(state, u, move_reach(state, u).path_to(to))

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, to = args["unit"], args["to"]
        path = list(move_reach(state, u).path_to(to))
        die = int(state.table("terrain").get("check_die", 10))
        end = len(path) - 1
        lines = []
        for h, n, name in checks_on(state, u, path):
            r = dice.roll(
                die,
                purpose=f"{u.id}: check to {name} {label(state, h)} ({n}+)",
                rule="TI",
                actor=u.side,
                visible_to=None,
            )
            lines.append(
                f"check to {name} {label(state, h)}: {r} vs {n}+ — {'pass' if r >= n else 'fail'}"
            )
            if r < n:
                end = path.index(h) - 1
                break
        final = path[end]
        t = Tally(state, dice)
        markers = u.markers | {"moved"}
        if final != u.hex:
            t.add(unit_move(u.id, final, path=path[: end + 1], rule="TS.4"))
        t.add(
            unit_set(
                u.id,
                markers=markers,
                data={"used": True} if u.data.get("captured") else {},
                rule="TS.4",
            )
        )
        capture_city(t, u.side, final, u)
        text = f"{u.id} moves to {label(state, final)}" + (
            "" if end == len(path) - 1 else f" (stopped short of {label(state, to)})"
        )
        t.add(note(text, rule="TS.4"))
        return Adjudication(t.events, Report(text, lines=lines, rules=["TS.4", "TI"]))


def capture_city(t: Tally, side: str, h: Any, unit: Unit) -> None:
    """A ground unit entering a city it does not control captures it (SC.7 key city 25, SC.8 ruined
    city 20; ruling R34: any city not already held, once per change of hands)."""
    info = t.state.map.hexes[h]
    city = city_of(info)
    if (
        city is None
        or domain(unit) != "ground"
        or control_of(info) == side
        or is_neutral(t.state, side)
    ):
        return
    t.add(
        hex_set(h, {"control": side}, rule="TS.4"),
        note(f"{side} captures {city.get('name') or label(t.state, h)}", rule="TS.4"),
    )
    table = t.state.table("scoring")
    if city.get("ruined"):
        t.score(
            side,
            action_points("capture_ruined_city", table),
            f"captured ruined city {city.get('name', '')}",
            "SC.8",
        )
    elif city.get("key"):
        t.score(
            side,
            action_points("capture_key_city", table),
            f"captured key city {city.get('name', '')}",
            "SC.7",
        )


class Sortie(OrderHandler):
    type = OrderType(
        "sortie",
        (Param("unit", "unit"), Param("to", "hex")),
        rule="TS.4",
        doc="declare an aircraft sortie over a hex (it returns to base at the end of the turn)",
    )

    def _aircraft(self, state: StateLike, side: str) -> list[Unit]:
        return [
            u
            for u in state.units_of(side)
            if alive_on_map(u) and domain(u) == "air" and "moved" not in u.markers
        ]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ac = self._aircraft(state, side)
        if not ac:
            return None
        ex = []
        for u in ac:
            for e in state.units.values():
                if (
                    e.side != side
                    and alive_on_map(e)
                    and e.hex.distance(u.hex) <= int(u.data.get("sortie_range", 0))
                ):
                    ex.append(self.type.make(side, unit=u.id, to=label(state, e.hex)))
                    break
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in ac)), tuple(ex))

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, to = args["unit"], args["to"]
        if domain(u) != "air":
            raise refuse(f"{u.id} is not an aircraft on the map", "not-aircraft", "TS.4", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already flown this turn", "moved", "TS.4", order)
        rng = int(u.data.get("sortie_range", 0))
        if to.distance(u.map_hex) > rng:
            raise refuse(
                f"{label(state, to)} is beyond {u.id}'s sortie range ({rng} hexes)",
                "out-of-range",
                "TS.4",
                order,
            )

    def adjudicate(self, state: StateLike, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u, to = args["unit"], args["to"]
        return [
            unit_move(u.id, to, path=(u.map_hex, to), rule="TS.4"),
            unit_set(
                u.id,
                markers=u.markers | {"moved", "sortie"},
                data={"base": label(state, u.hex)},
                rule="TS.4",
            ),
            note(f"{u.id} flies a sortie over {label(state, to)}", rule="TS.4"),
        ]


class Embark(OrderHandler):
    type = OrderType(
        "embark",
        (Param("unit", "unit"), Param("transport", "unit")),
        rule="TS.4",
        doc="load a unit into a transport in its hex",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = []
        for t in state.units_of(side):
            if t.data.get("category") != "transport" or not alive_on_map(t):
                continue
            for u in state.units_of(side):
                if (
                    u.hex == t.hex
                    and u.id != t.id
                    and "moved" not in u.markers
                    and u.data.get("category") in _carries(t)
                ):
                    ex.append(self.type.make(side, unit=u.id, transport=t.id))
        return OrderSpec(side, self.type, examples=tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, t = args["unit"], args["transport"]
        if t.data.get("category") != "transport":
            raise refuse(f"{t.id} is not a transport on the map", "not-transport", "TS.4", order)
        if u.hex != t.hex:
            raise refuse(f"{u.id} is not in {t.id}'s hex", "not-together", "TS.4", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "TS.4", order)
        if u.data.get("category") not in _carries(t):
            raise refuse(
                f"{t.id} carries only {', '.join(_carries(t))}", "cannot-carry", "TS.4", order
            )
        load = sum(
            1
            for x in state.units.values()
            if x.box == "carried" and x.data.get("carried_by") == t.id
        )
        if load >= int(t.data.get("capacity", 0)):
            raise refuse(
                f"{t.id} is full (capacity {t.data.get('capacity', 0)})", "full", "TS.4", order
            )

    def adjudicate(self, state: StateLike, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u, t = args["unit"], args["transport"]
        return [
            unit_set(
                u.id,
                hex=None,
                box="carried",
                markers=u.markers | {"moved"},
                data={"carried_by": t.id},
                rule="TS.4",
            ),
            note(f"{u.id} embarks in {t.id}", rule="TS.4"),
        ]


def _carries(t: Unit) -> tuple[str, ...]:
    return tuple(t.data.get("carries", ("infantry", "engineer")))


class Disembark(OrderHandler):
    type = OrderType(
        "disembark",
        (Param("unit", "unit", on_map=False),),
        rule="TS.4",
        doc="unload a carried unit into its transport's hex",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        units = [u.id for u in state.units_of(side) if u.box == "carried" and u.steps > 0]
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(units))) if units else None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if u.box != "carried":
            raise refuse(f"{u.id} is not in a transport", "not-carried", "TS.4", order)
        h = position(state, u)
        if h is None or step_cost(state, u, h) is None:
            raise refuse(
                f"{u.id} cannot disembark here ({state.map.terrain(h) if h else 'no hex'})",
                "cannot-land",
                "TS.4",
                order,
            )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = args["unit"]
        h = position(state, u)
        t = Tally(state, dice)
        t.add(
            unit_set(
                u.id,
                hex=h,
                box=None,
                markers=u.markers | {"moved"},
                data={"carried_by": None},
                rule="TS.4",
            ),
            note(f"{u.id} disembarks at {label(state, h)}", rule="TS.4"),
        )
        capture_city(t, u.side, h, u)
        return t.events


class SetUp(OrderHandler):
    type = OrderType(
        "setup",
        (Param("unit", "unit"),),
        rule="TS.4",
        doc="set up artillery (it may then fire, not move)",
    )
    marker_wanted = False

    def _arty(self, state: StateLike, side: str) -> list[Unit]:
        return [
            u
            for u in state.units_of(side)
            if alive_on_map(u)
            and u.data.get("setup_required")
            and ("set-up" in u.markers) == self.marker_wanted
            and "moved" not in u.markers
        ]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        a = self._arty(state, side)
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in a))) if a else None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if not u.data.get("setup_required"):
            raise refuse(f"{u.id} is not artillery on the map", "not-artillery", "TS.4", order)
        if ("set-up" in u.markers) != self.marker_wanted:
            raise refuse(
                f"{u.id} is already {'set up' if not self.marker_wanted else 'packed'}",
                "already",
                "TS.4",
                order,
            )
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "TS.4", order)

    def adjudicate(self, state: StateLike, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = args["unit"]
        m = (u.markers - {"set-up"}) if self.marker_wanted else (u.markers | {"set-up"})
        return [
            unit_set(u.id, markers=m | {"moved"}, rule="TS.4"),
            note(f"{u.id} {'packs' if self.marker_wanted else 'sets up'}", rule="TS.4"),
        ]


class Pack(SetUp):
    type = OrderType(
        "pack",
        (Param("unit", "unit"),),
        rule="TS.4",
        doc="pack artillery (it may then move, not fire)",
    )
    marker_wanted = True


class Recon(OrderHandler):
    type = OrderType(
        "recon",
        (Param("unit", "unit"), Param("hex", "hex")),
        rule="ENG.2",
        doc="reconnoitre a hex (engineers then get +2 on clearing checks there)",
    )

    def _scouts(self, state: StateLike, side: str) -> list[Unit]:
        return [
            u
            for u in state.units_of(side)
            if alive_on_map(u)
            and "moved" not in u.markers
            and (u.data.get("recon") or u.data.get("category") == "engineer")
        ]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        s = self._scouts(state, side)
        if not s:
            return None
        ex = tuple(
            self.type.make(side, unit=u.id, hex=label(state, h))
            for u in s
            for h in u.map_hex.neighbours()
            if h in state.map.hexes and enemy_units_at(state, h, side)
        )
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in s)), ex)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if not (u.data.get("recon") or u.data.get("category") == "engineer"):
            raise refuse(
                f"{u.id} cannot reconnoitre (recon units and engineers only, ruling R40)",
                "not-recon",
                "ENG.2",
                order,
            )
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "ENG.2", order)
        if args["hex"].distance(u.map_hex) > 1:
            raise refuse(
                f"{label(state, args['hex'])} is not in or next to {u.id}'s hex",
                "too-far",
                "ENG.2",
                order,
            )

    def adjudicate(self, state: StateLike, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = args["unit"]
        h = label(state, args["hex"])
        known = list(state.sides[order.side].private.get("recon", ()))
        return [
            unit_set(u.id, markers=u.markers | {"moved"}, rule="ENG.2"),
            side_set(order.side, "private", {"recon": sorted(set(known) | {h})}, rule="ENG.2"),
            note(f"{u.id} reconnoitres {h}", visible_to=order.side, rule="ENG.2"),
        ]
