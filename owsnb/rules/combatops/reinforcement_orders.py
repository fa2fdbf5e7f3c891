"""Reinforcement orders of Combat Operations: chits assigned and drawn (14.0, errata 10.0), units
entering the map (14.2, 17.1) and replacements (14.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, note, side_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import OrderHandler
from owsnb.kernel.state import StateLike, Unit
from owsnb.rules.combatops import chits
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.combat import visibility_of
from owsnb.rules.combatops.movement import enemy_of
from owsnb.rules.combatops.order_checks import (
    alias_note,
    check_stack,
    rotate,
    stack_after,
    stack_limit,
    unit_types,
)
from owsnb.rules.combatops.supply import supply_heads
from owsnb.rules.combatops.terrain import hexid, map_info, occupied, parse_hex

__all__ = ["Assign", "Draw", "Enter", "Replace", "entry_hexes"]


def entry_hexes(state: StateLike, u: Unit) -> list[Hex]:
    """Where *u* may enter the map now (14.2; 17.1 entry from a map edge)."""
    info = map_info(state.map)
    foe = enemy_of(state, u.side)
    enemy_at = set(occupied(state, foe))
    if u.box == "entry":
        return [
            parse_hex(state.map, x)
            for x in state.public.get("entry_hexes", {}).get(u.side, ())
            if parse_hex(state.map, x) not in enemy_at
        ]
    heads = supply_heads(state, u.side)
    free = [h for h in heads if h not in enemy_at]
    if free:
        return free
    anyone = set(occupied(state))
    empty = [h for h in info.edge_hexes if h not in anyone]
    if not empty or not heads:
        return []
    best = min(min(h.distance(s) for s in heads) for h in empty)
    return sorted(
        (h for h in empty if min(h.distance(s) for s in heads) == best), key=lambda h: info.ids[h]
    )


class Assign(OrderHandler):
    type = OrderType(
        "assign",
        (
            Param("letter", "choice", "reinforcement letter (A, B ...)"),
            Param("chit", "int", "one of your chits"),
        ),
        rule="14.0",
        doc="secretly put a reinforcement on one of your chits",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        rein = state.sides[side].private.get("reinforcements", {})
        mine = [c for c in state.public.get("chits", ()) if chits.chit_owner(state, c) == side]
        if not rein or not mine:
            return None
        ex = tuple(self.type.make(side, letter=k, chit=c) for k in sorted(rein) for c in mine[:2])
        return OrderSpec(
            side,
            self.type,
            FrozenDict(letter=tuple(sorted(rein)), chit=tuple(str(c) for c in mine)),
            ex,
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        rein = state.sides[order.side].private.get("reinforcements", {})
        if args["letter"] not in rein:
            raise IllegalOrderError(
                f"{order.side} has no reinforcement {args['letter']!r}; it has "
                f"{', '.join(sorted(rein)) or 'none'}",
                code="no-such-reinforcement",
                rule="14.0",
                order=order,
            )
        c = args["chit"]
        if c not in state.public.get("chits", ()) or chits.chit_owner(state, c) != order.side:
            raise IllegalOrderError(
                f"chit {c} is not one of {order.side}'s chits (errata 10.0)",
                code="not-your-chit",
                rule="14.0",
                order=order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        side, letter, chit = order.side, args["letter"], str(args["chit"])
        priv = state.sides[side].private
        pas = str(priv["reinforcements"][letter].get("pass", 1))
        table = {p: dict(m) for p, m in priv.get("assign", {}).items()}
        cur = table.setdefault(pas, {})
        old_chit = next((c for c, held in cur.items() if held == letter), None)
        other = cur.get(chit)
        if old_chit is not None:
            cur.pop(old_chit)
        cur[chit] = letter
        if other is not None and other != letter and old_chit is not None:
            cur[old_chit] = other  # swap: every reinforcement stays on a chit
        return [
            side_set(side, "private", {"assign": table}, rule="14.0"),
            note(
                f"reinforcement {letter} put on chit {chit} (pass {pas})",
                visible_to=side,
                rule="14.0",
            ),
        ]


class Draw(OrderHandler):
    type = OrderType("draw", (), rule="14.0", doc="draw a reinforcement chit from the cup")

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if state.public.get("half_drawn"):
            return None
        return OrderSpec(side, self.type, examples=(Order(side, "draw"),))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if state.public.get("half_drawn"):
            raise IllegalOrderError(
                "you have drawn your chit for this half-turn", code="drawn", rule="4.0", order=order
            )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Any:
        return chits.preview(state, order.side)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        return chits.draw_events(state, order.side, dice)


class Enter(OrderHandler):
    type = OrderType(
        "enter",
        (Param("unit", "unit", "a unit waiting off the map", on_map=False), Param("to", "hex")),
        rule="14.2",
        doc="bring a reinforcement (or a unit entering from the map edge) onto the map",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        waiting = [
            u
            for u in state.units_of(side)
            if u.hex is None and u.box in ("arrived", "entry") and u.alive
        ]
        if not waiting:
            return None
        ex = []
        for u in rotate(waiting, state, 6):
            hexes = [
                h
                for h in entry_hexes(state, u)
                if stack_after(state, side, h, [u]) <= stack_limit(state)
            ]
            for h in rotate(hexes, state, 2):
                ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in waiting)), tuple(ex))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if u.hex is not None or u.box not in ("arrived", "entry") or not u.alive:
            raise IllegalOrderError(
                f"{u.id} is not waiting to enter the map",
                code="not-waiting",
                rule="14.0",
                order=order,
            )
        to = args["to"]
        allowed = entry_hexes(state, u)
        if to not in allowed:
            names = ", ".join(hexid(state.map, h) for h in allowed) or "none free"
            raise IllegalOrderError(
                f"{u.id} may enter only at {names} (14.2)",
                code="bad-entry-hex",
                rule="14.2",
                order=order,
            )
        check_stack(state, order, to, [u])

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u, to = args["unit"], args["to"]
        vis = visibility_of(state, u)
        ev = [
            unit_move(u.id, to, visible_to=vis, rule="14.2"),
            unit_set(
                u.id,
                markers=u.markers | {"entered"},
                data={"oos": False},
                visible_to=vis,
                rule="14.2",
            ),
        ]
        ev += alias_note(state, u, f"a counter {{unit}} enters at {hexid(state.map, to)}", "14.2")
        return ev


class Replace(OrderHandler):
    type = OrderType(
        "replace",
        (Param("letter", "choice", "a replacement that has arrived"), Param("unit", "unit")),
        rule="14.1",
        doc="remove a hit marker from a battalion in supply",
    )

    def _fits(self, state: StateLike, kind: str, u: Unit) -> bool:
        t = unit_types(state)
        return (
            U.is_infantry(u, t)
            if kind == "infantry"
            else U.is_armor(u, t)
            if kind == "armor"
            else True
        )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        priv = state.sides[side].private
        toks = list(priv.get("replacements", ()))
        if not toks:
            return None
        ex = []
        for t in toks:
            kind = priv["reinforcements"][t].get("replacement")
            for u in state.units_of(side):
                if (
                    u.hex is not None
                    and U.hits(u)
                    and not u.data.get("oos")
                    and self._fits(state, kind, u)
                ):
                    ex.append(self.type.make(side, letter=t, unit=u.id))
        if not ex:
            return None
        units = tuple(dict.fromkeys(o.args[1] for o in ex))
        return OrderSpec(side, self.type, FrozenDict(letter=tuple(toks), unit=units), tuple(ex[:8]))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        priv = state.sides[order.side].private
        if args["letter"] not in priv.get("replacements", ()):
            raise IllegalOrderError(
                f"replacement {args['letter']!r} has not arrived or was used",
                code="no-replacement",
                rule="14.1",
                order=order,
            )
        u = args["unit"]
        kind = priv["reinforcements"][args["letter"]].get("replacement")
        if not U.hits(u):
            raise IllegalOrderError(
                f"{u.id} carries no hit marker", code="no-hit", rule="14.1", order=order
            )
        if u.data.get("oos"):
            raise IllegalOrderError(
                f"{u.id} is out of supply", code="out-of-supply", rule="14.1", order=order
            )
        if not self._fits(state, kind, u):
            raise IllegalOrderError(
                f"a {kind} replacement cannot go to {U.utype(u)} {u.id} (owsnb ruling, "
                "digest omission 12)",
                code="wrong-type",
                rule="14.1",
                order=order,
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = args["unit"]
        toks = tuple(
            t
            for t in state.sides[order.side].private.get("replacements", ())
            if t != args["letter"]
        )
        return [
            side_set(order.side, "private", {"replacements": toks}, rule="14.1"),
            unit_set(u.id, steps=u.steps + 1, visible_to=visibility_of(state, u), rule="14.1"),
            note(
                f"{u.id} takes replacement {args['letter']}: one hit marker removed",
                visible_to=visibility_of(state, u),
                rule="14.1",
            ),
        ]
