"""The ``move`` order and its ground variants: ``move`` (6.3/6.4 a ship in Naval Movement, 3.A.1; 10.10
a ground unit in the Ground phase, 6.C.3, with an engineer's bridge, 10.11.1, or obstacle, 10.12),
``bypass`` (10.10.3.2) and ``disengage`` (10.10.3.3).

Planning and refusals live here; the walk of a naval move is :mod:`.naval`, of a ground move
:mod:`.ground`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import IllegalOrderError, refuse
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.movement.basics import (
    NAVAL_CATEGORIES,
    SUBS,
    _hex_nm,
    _movement_table,
    _naval_hexes_moved,
    _watching,
    is_light,
    known_enemies,
    moved_this_turn,
    naval_rate,
    rsoi_rule,
)
from owsnb.rules.ows.movement.ground import (
    GroundReach,
    _ground_checks,
    _ground_move,
    _ground_movers,
    _interdiction_preview,
    bridge_place_mp,
    ground_reach,
    movement_points,
    zoc_hexes,
)
from owsnb.rules.ows.movement.naval import (
    _naval_move,
    _sea_path,
    _visible_minefields,
    mine_preview,
    naval_reach,
    sucap_preview,
)
from owsnb.rules.ows.sequence import base_step
from owsnb.rules.ows.units import counter


class Move(OrderHandler):
    """6.3/6.4 naval movement in step 3.A.1; 10.10 ground movement in step 6.C.3."""

    verb = "move"
    type = OrderType(
        "move",
        (
            Param("unit", "unit", "unit to move"),
            Param("to", "hex", "destination hex"),
            Param(
                "flank",
                "choice",
                "submarines: move at flank speed (cavitates, 6.4.2.2)",
                positional=False,
                optional=True,
                choices=("yes", "no"),
            ),
            Param(
                "disorganized",
                "choice",
                "light infantry: disorganized movement at the wheeled rate (10.10.2)",
                positional=False,
                optional=True,
                choices=("yes",),
            ),
            Param(
                "engineer",
                "choice",
                "engineers: place a bridge at the destination (+2 MP, 10.11.1) or an obstacle "
                "in the hex it stays in (10.12)",
                positional=False,
                optional=True,
                choices=("bridge", "obstacle"),
            ),
        ),
        rule="10.10",
        doc="move a ship (3.A.1) or a ground unit (6.C.3)",
    )

    # -- candidates ----------------------------------------------------------------------------
    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        step = base_step(state.clock.step)
        ex: list[Order] = []
        if step == "3.A.1":
            units = [
                u
                for u in state.units_of(side)
                if counter(u).category in NAVAL_CATEGORIES
                and u.hex is not None
                and u.alive
                and not moved_this_turn(state, u, "3.A.1")
                and "rsoi" not in u.markers
            ]
            for u in units[:8]:
                r = naval_reach(state, u)
                for h in sorted(r, key=lambda x: (-r[x], x))[:3]:
                    if h != u.hex:
                        ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        elif step == "6.C.3":
            units = [u for u in _ground_movers(state, side) if self._may_move(state, u)]
            for u in units[:6]:
                r = ground_reach(state, u)
                far = sorted((h for h in r.ends if h != u.hex), key=lambda h: (-r.cost[h], h))
                for h in far[:2] + far[-1:]:
                    ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        else:
            return None
        if not ex:
            return None
        return OrderSpec(
            side, self.type, FrozenDict(unit=tuple(dict.fromkeys(o.args[0] for o in ex))), tuple(ex)
        )

    def _verb_checks(
        self,
        state: StateLike,
        order: Order | None,
        unit: Any,
        r: GroundReach | None = None,
        to: Hex | None = None,
    ) -> None:
        """Extra conditions of the bypass/disengage variants."""

    def _may_move(self, state: StateLike, unit: Any) -> bool:
        """Could *unit* make this kind of ground move now (10.3, 10.4, 5.1.1 and the verb's own terms)?"""
        try:
            _ground_checks(state, None, unit)
            self._verb_checks(state, None, unit)
        except IllegalOrderError:
            return False
        return True

    # -- validation ----------------------------------------------------------------------------
    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._plan(state, order, args)

    def _plan(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> dict[str, Any]:
        u, to = args["unit"], args["to"]  # bound: the side's unit alive on the map, a map hex
        if state.clock.step == "3.A.1":
            return self._naval_plan(state, order, args, u, to)
        if base_step(state.clock.step) != "6.C.3":
            raise refuse(
                "units move in Naval Movement (3.A.1) or the Ground phase (6.C.3)",
                "wrong-step",
                "3",
                order,
            )
        return self._ground_plan(state, order, args, u, to)

    def _naval_plan(
        self, state: StateLike, order: Order, args: Mapping[str, Any], u: Any, to: Hex
    ) -> dict[str, Any]:
        c = counter(u)
        if c.category not in NAVAL_CATEGORIES:
            raise refuse(
                f"{u.id} is not a ship or submarine: ground units move in the Ground phase (6.C.3)",
                "not-naval",
                "6.3",
                order,
            )
        if _naval_hexes_moved(state, u) > 0:
            raise refuse(f"{u.id} has already moved this turn", "already-moved", "6.3", order)
        if "rsoi" in u.markers:
            rule = rsoi_rule(u)
            raise refuse(f"{u.id} is in RSO&I and cannot move ({rule})", "rsoi", rule, order)
        flank = args.get("flank")
        sub = c.subtype in SUBS
        r = naval_reach(state, u, flank=(None if not sub else (flank != "no")))
        path = _sea_path(state, u, to, r) if to in r else None
        if path is None:
            nt = _movement_table(state)["naval"]
            rate = naval_rate(c.subtype or "surface", hex_nm=_hex_nm(state), table_=nt)
            why = (
                f"{state.map.label(to)} is not a sea or port hex within {rate} hexes of {u.id} (6.4)"
                if c.subtype != "patrol"
                else f"patrol craft stay within {nt.get('patrol_leash', 2)} hexes of a friendly port or mother ship "
                "(6.4.1.1)"
            )
            raise refuse(why, "out-of-reach", "6.4.1.1" if c.subtype == "patrol" else "6.4", order)
        return {"unit": u, "to": to, "path": path, "naval": True}

    def _ground_plan(
        self, state: StateLike, order: Order, args: Mapping[str, Any], u: Any, to: Hex
    ) -> dict[str, Any]:
        dis = args.get("disorganized") == "yes"
        eng = args.get("engineer")
        _ground_checks(state, order, u)
        if eng and counter(u).category != "engineer":
            raise refuse(
                f"{u.id} is not an engineer",
                "not-engineer",
                "10.11" if eng == "bridge" else "10.12",
                order,
            )
        if eng == "obstacle":
            if to != u.hex:
                raise refuse(
                    "an engineer places an obstacle in the hex it stays in for the whole movement impulse (10.12)",
                    "must-stay",
                    "10.12",
                    order,
                )
            return {
                "unit": u,
                "to": to,
                "path": [to],
                "reach": ground_reach(state, u),
                "obstacle": True,
                "naval": False,
            }
        if dis and not is_light(u):
            raise refuse(
                "only light infantry may use disorganized movement (10.10.2)",
                "not-light",
                "10.10.2",
                order,
            )
        m = u.data.get("moved") or {}
        follow_on = m.get("bridge_continue") and int(m.get("turn", 0) or 0) == state.clock.turn
        if follow_on:  # 10.11.3: the engineer continues with the MP it has left
            left = movement_points(state, u).mp - float(m.get("mp", 0) or 0)
            r = ground_reach(state, u, mp=max(left, 0.0))
            if to in r.cost and r.cost[to] > left + 1e-9:
                raise refuse(
                    f"{u.id} has {left:g} MP left after placing its bridge (10.11.3)",
                    "out-of-reach",
                    "10.11.3",
                    order,
                )
        else:
            r = ground_reach(state, u, disorganized=dis)
        self._verb_checks(state, order, u, r, to)
        if to == u.hex and eng != "bridge":
            raise refuse(f"{u.id} is already in {state.map.label(to)}", "no-move", "10.10", order)
        if to not in r.cost:
            why = r.blocked.get(to)
            if why:
                raise refuse(
                    f"{u.id} cannot enter {state.map.label(to)}: {why}",
                    "blocked",
                    "10.10.1" if why.startswith("NP") else "10.10",
                    order,
                )
            raise refuse(
                f"{state.map.label(to)} is beyond {u.id}'s {r.allowance.mp:g} MP this turn "
                f"({'; '.join(r.allowance.reasons)})",
                "out-of-reach",
                "10.10.1",
                order,
            )
        if to not in r.ends:
            raise refuse(
                f"{u.id} may not end its move in {state.map.label(to)}: {r.blocked.get(to, 'stacking (10.9)')}",
                "overstacked",
                "10.9",
                order,
            )
        if eng == "bridge":
            self._bridge_checks(state, order, u, r, to)
        from owsnb.rules.ows import css as _css

        _css.check_fuel(state, order, u)
        return {
            "unit": u,
            "to": to,
            "path": list(r.path_to(to)),
            "reach": r,
            "disorganized": dis,
            "naval": False,
            "bridge": eng == "bridge",
        }

    def _bridge_checks(
        self, state: StateLike, order: Order, u: Any, r: GroundReach, to: Hex
    ) -> None:
        """10.11/10.11.1: a bridging engineer with a bridge left enters a crossing site free of enemy
        ZOC, paying +2 MP to place the bridge; in an enemy ZOC a river assault is needed (10.11.2)."""
        if not u.data.get("bridging"):
            raise refuse(f"{u.id} has no bridge symbol (10.11)", "no-bridging", "10.11", order)
        placed = list(u.data.get("bridges") or ())
        if len(placed) >= u.steps:
            raise refuse(
                f"{u.id} has placed all its bridges (one per step, 10.11)",
                "no-bridge-left",
                "10.11",
                order,
            )
        if not any(
            "major-river" in state.map.edge(to, n) for n in to.neighbours() if n in state.map.hexes
        ):
            raise refuse(
                f"{state.map.label(to)} is not on a major river", "not-a-crossing", "10.11", order
            )
        if to in r.zoc:
            raise refuse(
                f"{state.map.label(to)} is in an enemy ZOC: a river assault is needed (10.11.2)",
                "opposed",
                "10.11.2",
                order,
            )
        place = bridge_place_mp(state)
        if r.cost[to] + place > r.allowance.mp + 1e-9 and len(r.path_to(to)) > 2:
            raise refuse(
                f"placing the bridge costs +{place:g} MP: {r.cost[to]:g} + {place:g} > {r.allowance.mp:g} (10.11.1)",
                "out-of-reach",
                "10.11.1",
                order,
            )

    # -- preview ---------------------------------------------------------------------------------
    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Any:
        try:
            plan = self._plan(state, order, args)
        except IllegalOrderError:
            return None
        if plan["naval"]:
            u = plan["unit"]
            seen = known_enemies(state, u.side)
            for h in plan["path"][1:]:
                m = _watching(state, u, h, "sucap", seen)
                if m is not None:
                    return sucap_preview(state, m, u)
            known = _visible_minefields(state)
            dists = [
                mine_preview(known[state.map.label(h)].get("die", "d6"), counter(u).red_shield)
                for h in plan["path"][1:]
                if state.map.label(h) in known and known[state.map.label(h)].get("side") != u.side
            ]
            if not dists:
                return None
            return Distribution.sum(dists, label=f"mine hits on {u.id} along its route (6.4.5.2)")
        return _interdiction_preview(state, plan)

    # -- adjudication --------------------------------------------------------------------------
    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        plan = self._plan(state, order, args)
        if plan["naval"]:
            return _naval_move(state, plan, dice, args)
        return _ground_move(state, plan, dice, self.type.verb)


class _MoveVariant(Move):
    """A ``move`` whose path must have a shape (:meth:`_path_ok`); +2 MP are in the reach already."""

    code = ""
    wrong_path = ""

    @staticmethod
    def _type(verb: str, rule: str, doc: str) -> OrderType:
        return OrderType(
            verb,
            (Param("unit", "unit", "unit to move"), Param("to", "hex", "destination hex")),
            rule=rule,
            doc=doc,
        )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        return _variant_candidates(self, state, side)

    def _unit_ok(self, state: StateLike, order: Order | None, unit: Any) -> None:
        """Refuse a unit that cannot make this kind of move at all."""

    def _path_ok(self, r: GroundReach, path: Sequence[Hex]) -> bool:
        return True

    def _verb_checks(
        self,
        state: StateLike,
        order: Order | None,
        unit: Any,
        r: GroundReach | None = None,
        to: Hex | None = None,
    ) -> None:
        self._unit_ok(state, order, unit)
        if r is None or to is None or to not in r.cost:
            return
        if not self._path_ok(r, r.path_to(to)):
            raise refuse(self.wrong_path, self.code, self.type.rule, order)


class Bypass(_MoveVariant):
    """10.10.3.2: a move whose path goes through a ZOC hex held by a friendly unit (+2 MP)."""

    type = _MoveVariant._type(
        "bypass", "10.10.3.2", "move through a friendly-held hex in an enemy ZOC (+2 MP)"
    )
    code = "not-a-bypass"
    wrong_path = "this path does not pass through a friendly-held hex in an enemy ZOC: use 'move'"

    def _path_ok(self, r: GroundReach, path: Sequence[Hex]) -> bool:
        return any(h in r.bypass for h in path[1:-1])


class Disengage(_MoveVariant):
    """10.10.3.3: leave a ZOC hex into a hex free of enemy ZOC (+2 MP)."""

    type = _MoveVariant._type("disengage", "10.10.3.3", "leave an enemy ZOC (+2 MP)")
    code = "not-a-disengage"
    wrong_path = "disengaging means moving into a hex free of enemy ZOC first (10.10.3.3)"

    def _unit_ok(self, state: StateLike, order: Order | None, unit: Any) -> None:
        if unit.hex not in zoc_hexes(state, known_enemies(state, unit.side)):
            raise refuse(
                f"{unit.id} is not in an enemy ZOC: use 'move'", "not-in-zoc", "10.10.3.3", order
            )

    def _path_ok(self, r: GroundReach, path: Sequence[Hex]) -> bool:
        return not (len(path) > 1 and path[1] in r.zoc)


def _variant_candidates(h: Move, state: StateLike, side: str) -> OrderSpec | None:
    if base_step(state.clock.step) != "6.C.3":
        return None
    ex = []
    for u in _ground_movers(state, side)[:12]:
        if not h._may_move(state, u):
            continue
        r = ground_reach(state, u)
        for t in sorted(r.ends, key=lambda x: (-r.cost[x], x)):
            if t == u.hex:
                continue
            try:
                h._verb_checks(state, None, u, r, t)
            except IllegalOrderError:
                continue
            ex.append(h.type.make(side, unit=u.id, to=state.map.label(t)))
            if len(ex) >= 6:
                break
    return OrderSpec(side, h.type, FrozenDict(), tuple(ex)) if ex else None
