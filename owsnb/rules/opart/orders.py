"""Orders of the activated formation: ``move``, ``face``, ``mode``, ``attack``, ``exit``.

Only stands of the division or group of assets whose card is face up may act (§12.2). Each stand
may move once and initiate combat once per activation, in either order (ruling R14); ``face``,
``mode`` and ``exit`` count as its move. ``done`` (the kernel's generic verb) ends the activation
and turns the next card.

Notation examples::

    soviet: move 74-360 0807 face=N
    soviet: attack 74-FA 19-PG
    axis: face 19-PZ SW
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError, refuse
from owsnb.kernel.events import note, unit_move, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opart import combat, movement
from owsnb.rules.opart.stands import MODES, formation_of, formations, is_artillery
from owsnb.rules.opart.terrain import direction_names, parse_direction, terrain_index
from owsnb.rules.opart.victory import control_events

__all__ = [
    "MoveOrder",
    "FaceOrder",
    "ModeOrder",
    "AttackOrder",
    "ExitOrder",
    "active_stands",
]


def active_stands(state: StateLike, side: str) -> list[Any]:
    """Stands of *side* in the activated formation that are on the battlefield."""
    card = state.public.get("card")
    return [
        u
        for u in state.units.values()
        if u.side == side and u.hex is not None and card and formation_of(u) == card
    ]


def _stand(state: StateLike, order: Order, u: Any) -> Any:
    """The bound stand *u* (the side's, on the battlefield), if its formation is activated."""
    card = state.public.get("card")
    if formation_of(u) != card:
        title = formations(state).get(card, {}).get("title", card)
        raise IllegalOrderError(
            f"{u.id} belongs to {formations(state).get(formation_of(u), {}).get('title')}; "
            f"only the activated formation ({title}) may move or fight now",
            code="not-activated",
            rule="12.2",
            order=order,
        )
    return u


def _unmoved(state: StateLike, order: Order, u: Any) -> None:
    if u.has("moved"):
        raise IllegalOrderError(
            f"{u.id} has already moved during this activation",
            code="moved",
            rule="R14",
            order=order,
        )
    if u.has("fired") and not state.options.get("fire_then_move", True):
        raise IllegalOrderError(
            f"{u.id} has initiated combat and may not move afterwards (option fire_then_move)",
            code="fired-no-move",
            rule="R14",
            order=order,
        )


def _facing(state: StateLike, order: Order, value: str) -> int:
    try:
        return parse_direction(value, state.map.offset.orientation)
    except ValueError as exc:
        raise IllegalOrderError(str(exc), code="bad-facing", rule="R7", order=order) from None


def why_not_reach(state: StateLike, unit: Any, to: Any, r: movement.MoveReach) -> movement.Refusal:
    """The most specific reason *unit* cannot move to *to* (it is not in its reach *r*)."""
    if to in r.refused:
        return r.refused[to]
    if to == unit.hex:
        return movement.Refusal("no-move", f"{unit.id} is already in {state.map.label(to)}", "13")
    enemies = movement.enemy_hexes(state, unit.side)
    if to in enemies:
        return movement.Refusal(
            "enemy-hex", "stands cannot move into or through enemy stands", "13"
        )
    if is_artillery(unit) and any(n in enemies for n in to.neighbours()):
        return movement.Refusal(
            "artillery-adjacent",
            "artillery stands may not be moved into a hex adjacent "
            "to a hex occupied by an enemy stand",
            "13",
        )
    if to.distance(unit.hex) == 1:
        why = movement.entry_refusal(state, unit, terrain_index(state), unit.hex, to)
        if why is not None:
            return why
    if movement.morale_zero(state, unit):
        return movement.Refusal(
            "morale-zero",
            "the division's morale is 0: it may only move to withdraw from the battlefield",
            "9",
        )
    return movement.Refusal(
        "out-of-reach",
        f"{state.map.label(to)} is beyond {unit.id}'s move: allowance "
        f"{r.allowance} hexes (+1 all by road, -1 per hill contour), around enemy stands, "
        "impassable terrain and gaps it may not slip through (ruling R15)",
        "13",
    )


class MoveOrder(OrderHandler):
    """``move UNIT HEX [face=DIR]`` (§13): the cheapest legal path is taken."""

    type = OrderType(
        "move",
        (
            Param("unit", "unit", "stand of the activated formation"),
            Param("to", "hex", "where it ends its move"),
            Param(
                "face",
                "text",
                "facing at the end (default: direction of travel)",
                positional=False,
                optional=True,
            ),
        ),
        rule="13",
        doc="move a stand (4/2 hexes, road +1, -1 per contour)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        movers = [
            u
            for u in active_stands(state, side)
            if not u.has("moved")
            and not (u.has("fired") and not state.options.get("fire_then_move", True))
        ]
        if not movers:
            return None
        examples: list[Order] = []
        targets: dict[str, None] = {}  # labels in reach, in order
        able: list[str] = []
        for u in movers:
            r = movement.reach(state, u)
            if r:
                able.append(u.id)
            for h in list(r)[:8]:
                examples.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
            for h in r:
                targets[state.map.label(h)] = None
        if not targets:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(
                unit=tuple(able),
                to=tuple(targets),
                face=direction_names(state.map.offset.orientation),
            ),
            tuple(examples),
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u, to = _stand(state, order, args["unit"]), args["to"]
        _unmoved(state, order, u)
        if args.get("face") is not None:
            _facing(state, order, args["face"])
        r = movement.reach(state, u)
        if to not in r:
            why = why_not_reach(state, u, to, r)
            raise refuse(why.message, why.code, why.rule, order)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, to = args["unit"], args["to"]
        r = movement.reach(state, u)
        path = r.path[to]
        if args.get("face") is not None:
            facing = _facing(state, order, args["face"])
        else:
            last = path[-1] - path[-2]
            facing = [tuple(n - path[-2]) for n in path[-2].neighbours()].index(tuple(last))
        events = [
            unit_move(u.id, to, path=path, rule="13"),
            unit_set(u.id, markers=u.markers | {"moved"}, data={"facing": facing}, rule="13"),
        ]
        events += control_events(state, u, to)
        road = " along the road" if r.road.get(to) else ""
        events.append(
            note(f"{u.id} moves {len(path) - 1} hexes{road} to {state.map.label(to)}", rule="13")
        )
        return Adjudication(
            events, {"path": [state.map.label(h) for h in path], "cost": r.cost[to]}
        )


class FaceOrder(OrderHandler):
    """``face UNIT DIR``: turn in place; counts as the stand's move (ruling R7b)."""

    type = OrderType(
        "face",
        (
            Param("unit", "unit", "stand of the activated formation"),
            Param("facing", "text", "new facing (compass point)"),
        ),
        rule="R7",
        doc="turn a stand to face a hexside (uses its move)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not state.options.get("flank_attacks", True):
            return None
        us = [u for u in active_stands(state, side) if not u.has("moved")]
        if not us:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(
                unit=tuple(u.id for u in us), facing=direction_names(state.map.offset.orientation)
            ),
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _stand(state, order, args["unit"])
        _unmoved(state, order, u)
        f = _facing(state, order, args["facing"])
        if f == int(u.get("facing", 0)):
            raise IllegalOrderError(
                f"{u.id} already faces {args['facing']}", code="same-facing", rule="R7", order=order
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list:
        u = args["unit"]
        f = _facing(state, order, args["facing"])
        return [
            unit_set(u.id, markers=u.markers | {"moved"}, data={"facing": f}, rule="R7"),
            note(
                f"{u.id} turns to face {direction_names(state.map.offset.orientation)[f]}",
                rule="R7",
            ),
        ]


class ModeOrder(OrderHandler):
    """``mode UNIT MODE``: mount/dismount or embark/debus; uses the stand's move (ruling R17)."""

    type = OrderType(
        "mode",
        (
            Param("unit", "unit", "stand that may change mode"),
            Param(
                "mode",
                "choice",
                "new mode of movement",
                choices=("foot", "vehicles", "mounted", "dismounted"),
            ),
        ),
        rule="R17",
        doc="mount/dismount or embark/debus (uses the move)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if state.options.get("mode_change", "costs_move") == "fixed":
            return None
        us = [u for u in active_stands(state, side) if u.get("remount") and not u.has("moved")]
        if not us:
            return None
        ex = tuple(
            self.type.make(side, unit=u.id, mode=m)
            for u in us
            for m in MODES[u.get("arm")]
            if m != u.get("mode")
        )
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in us)), ex)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if state.options.get("mode_change", "costs_move") == "fixed":
            raise IllegalOrderError(
                "stands keep the mode of their models (option mode_change: fixed)",
                code="mode-fixed",
                rule="R17",
                order=order,
            )
        u = _stand(state, order, args["unit"])
        _unmoved(state, order, u)
        if not u.get("remount"):
            raise IllegalOrderError(
                f"{u.id} cannot change its mode of movement",
                code="no-remount",
                rule="R17",
                order=order,
            )
        modes = MODES[u.get("arm")]
        if args["mode"] not in modes or args["mode"] == u.get("mode"):
            raise IllegalOrderError(
                f"{u.id} moves {' or '.join(modes)} and is now {u.get('mode')}",
                code="bad-mode",
                rule="R17",
                order=order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list:
        u = args["unit"]
        return [
            unit_set(u.id, markers=u.markers | {"moved"}, data={"mode": args["mode"]}, rule="R17"),
            note(f"{u.id} changes to {args['mode']}", rule="R17"),
        ]


class AttackOrder(OrderHandler):
    """``attack UNIT TARGET`` (§14): combat power against combat power, result by ratio."""

    type = OrderType(
        "attack",
        (
            Param("unit", "unit", "stand initiating combat"),
            Param("target", "enemy", "enemy stand it can see (artillery: any) in range"),
        ),
        rule="14",
        doc="initiate combat against an enemy stand",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        pairs = []
        enemies = [t for t in state.units.values() if t.side != side and t.hex is not None]
        for u in active_stands(state, side):
            if u.has("fired"):
                continue
            for t in enemies:
                if combat.attack_refusal(state, u, t) is None:
                    pairs.append((u, t))
        return OrderSpec.of(side, self.type, [{"unit": u.id, "target": t.id} for u, t in pairs])

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u, t = _stand(state, order, args["unit"]), args["target"]
        why = combat.attack_refusal(state, u, t)
        if why is not None:
            raise refuse(why.message, why.code, why.rule, order)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Any:
        return combat.preview(state, args["unit"], args["target"])

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, t = args["unit"], args["target"]

        def roll(sides: int, who: str, purpose: str) -> int:
            actor = u if who == "attacker" else t
            return dice.roll(
                sides,
                purpose=f"{actor.id} ({who}) {purpose}: {u.id} attacks {t.id}",
                rule="14",
                actor=actor.side,
                visible_to=None,
            )

        events, result = combat.resolve(state, u, t, roll)
        if not state.options.get("fire_then_move", True):
            events.insert(1, unit_set(u.id, markers=u.markers | {"fired", "moved"}, rule="R14"))
        return Adjudication(events, result)


class ExitOrder(OrderHandler):
    """``exit UNIT``: a stand on its side's home edge withdraws from the battlefield (§9, R22)."""

    type = OrderType(
        "exit",
        (Param("unit", "unit", "stand on its home edge"),),
        rule="9",
        doc="withdraw a stand from the battlefield (from its home edge)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        us = [
            u
            for u in active_stands(state, side)
            if not u.has("moved") and movement.home_edge_distance(state, side, u.hex) == 0
        ]
        if not us:
            return None
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in us)))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = _stand(state, order, args["unit"])
        _unmoved(state, order, u)
        if movement.home_edge_distance(state, u.side, u.hex) != 0:
            raise IllegalOrderError(
                f"{u.id} must be on its side's home edge to leave the battlefield",
                code="not-on-edge",
                rule="R22",
                order=order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list:
        u = args["unit"]
        return [
            unit_set(u.id, hex=None, box="withdrawn", markers=u.markers | {"moved"}, rule="9"),
            note(f"{u.id} withdraws from the battlefield", rule="9"),
        ]
