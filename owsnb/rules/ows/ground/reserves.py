"""Reserves in action: the reaction move (10.4.1.1.1) and exploitation (10.3 3.G, 10.4.1.1).

Paragraphs: 10.4.1.1 a reserve activated in exploitation moves half its MP and loses the marker,
as do units that won an EXP result (10.15.9.1.6), and they may attack again (3.H); 10.4.1.1.1
[optional] reaction move: d6 - HQ proficiency reserve counters of the attacked formation move up
to half their MP (-2 on the roll if the HQ is disrupted or suppressed).

>>> [reaction_units(r, 2) for r in (4, 2, 1)], reaction_units(4, 2, disrupted=True)
([2, 0, 0], 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import (
    Event,
    state_set,
    unit_move,
    unit_set,
)
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import Result, Roller, legal_examples, option, watchers
from owsnb.rules.ows.ground.phase import (
    _pending,
    _set_stage,
    _window,
    formation_of,
    reaction_window,
)
from owsnb.rules.ows.movement import (
    ground_reach,
    ptable,
)
from owsnb.rules.ows.sequence import base_step
from owsnb.rules.ows.units import counter


def reaction_units(roll: int, proficiency: int, disrupted: bool = False) -> int:
    """10.4.1.1.1: reserve counters that may react = d6 - HQ proficiency (-2 on the roll if the HQ is
    disrupted or suppressed), never below 0."""
    return max(int(roll) - (2 if disrupted else 0) - int(proficiency), 0)


def reaction_preview(proficiency: int, disrupted: bool = False) -> Distribution:
    """Exact distribution of the number of reserve counters that may react (10.4.1.1.1)."""
    return Distribution.die(6).map(
        lambda r: reaction_units(r, proficiency, disrupted), label="reserve counters reacting"
    )


def _proficiency(state: StateLike, hq: Any | None) -> tuple[int, bool]:
    t = ptable(state, "ground")["proficiency"]
    if hq is None:
        return int(t.get("default", 4)), False
    p = int(hq.data.get("proficiency") or 0) or int(t.get(counter(hq).nation, t.get("default", 4)))
    disrupted = bool(hq.markers & {"disrupted-c2", "suppressed"}) or not hq.alive
    return p, disrupted


class React(OrderHandler):
    """10.4.1.1.1 [optional]: in the Defensive Fires impulse, reserves of the attacked unit's
    formation react: d6 - HQ proficiency counters (-2 if the HQ is disrupted or suppressed) move
    up to half their MP and lose the Reserve marker."""

    type = OrderType(
        "react",
        (
            Param("unit", "unit", "reserve unit of the attacked formation"),
            Param("to", "hex", "where it moves (half MP)"),
        ),
        rule="10.4.1.1.1",
        doc="defender: reaction move by a reserve",
    )

    def _ctx(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[dict[str, Any], Any, Any]:
        if not option(state, "reaction_move"):
            raise refuse(
                "the reaction move is an optional rule this scenario does not use (10.4.1.1.1)",
                "option-off",
                "10.4.1.1.1",
                order,
            )
        w = reaction_window(state, order.side, order)
        h = state.map.hex(w["hex"])
        p = {**w, **(_pending(state) or {})}
        u = args["unit"]  # bound: the side's unit alive on the map
        if "reserve" not in u.markers:
            raise refuse(f"{u.id} is not in reserve", "not-reserve", "10.4.1.1.1", order)
        defs = [e for e in state.units.values() if e.hex == h and e.side == order.side and e.alive]
        forms = {formation_of(state, d) for d in defs}
        if formation_of(state, u) not in forms:
            raise refuse(
                f"{u.id} is not in the attacked unit's Division/Corps formation",
                "other-formation",
                "10.4.1.1.1",
                order,
            )
        if p.get("react_left") == 0:
            raise refuse(
                "no more reserve counters may react this time",
                "no-reaction-left",
                "10.4.1.1.1",
                order,
            )
        hq = state.units.get(formation_of(state, u) or "")
        return p, u, hq

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        w = _window(state)
        if not option(state, "reaction_move") or not w or w.get("defender") != side:
            return None
        vals = []
        for u in state.units_of(side):
            if "reserve" in u.markers and u.hex is not None:
                r = ground_reach(state, u, react=True)
                for t in sorted(r.ends - {u.hex})[:2]:
                    vals.append({"unit": u.id, "to": state.map.label(t)})
        ex = legal_examples(self, state, side, vals, 4)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        p, u, hq = self._ctx(state, order, args)
        to = args["to"]
        r = ground_reach(state, u, react=True)
        if to not in r.ends or to == u.hex:
            raise refuse(
                f"{state.map.label(to)} is not within half of {u.id}'s MP",
                "out-of-reach",
                "10.4.1.1.1",
                order,
            )

    def preview(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> Distribution | None:
        p, u, hq = self._ctx(state, order, args)
        if p.get("react_left") is not None:
            return None
        prof, dis = _proficiency(state, hq)
        return reaction_preview(prof, dis)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        p, u, hq = self._ctx(state, order, args)
        roll = Roller(dice)
        lines = []
        left = p.get("react_left")
        ev: list[Event] = []
        if left is None:
            prof, dis = _proficiency(state, hq)
            r = roll(
                "d6",
                f"reaction roll (HQ proficiency {prof}{', -2 disrupted' if dis else ''})",
                "10.4.1.1.1",
                None,
            )
            left = reaction_units(r, prof, dis)
            lines.append(
                f"d6 = {r} - proficiency {prof}{' - 2' if dis else ''} = {left} reserve counter(s) may react"
            )
        w = _window(state)
        if left <= 0:
            ev.append(
                state_set(
                    "secret",
                    {"ground_pending": {**_pending(state), "react_left": 0}},
                    rule="10.4.1.1.1",
                )
            )
            ev.append(
                state_set("public", {"ground_window": {**w, "react_left": 0}}, rule="10.4.1.1.1")
            )
            return Adjudication(
                ev,
                Result(
                    "Reaction failed",
                    {"react_left": 0},
                    ["10.4.1.1.1"],
                    roll.rolls,
                    lines + ["the reaction attempt fails"],
                ),
            )
        to = args["to"]
        r = ground_reach(state, u, react=True)
        vis = watchers(state, u)
        m = dict(thaw(u.data.get("moved") or {}))
        ev += [
            unit_move(u.id, to, path=r.path_to(to), rule="10.4.1.1.1", visible_to=vis),
            unit_set(
                u.id,
                markers=u.markers - {"reserve", "defend", "fortified"},
                data={"moved": {**m, "turn": state.clock.turn, "react": True}},
                rule="10.4.1.1.1",
                visible_to=vis,
            ),
            state_set(
                "secret",
                {"ground_pending": {**_pending(state), "react_left": left - 1}},
                rule="10.4.1.1.1",
            ),
            state_set(
                "public", {"ground_window": {**w, "react_left": left - 1}}, rule="10.4.1.1.1"
            ),
        ]
        lines.append(f"{u.id} reacts to {state.map.label(to)}; Reserve removed")
        return Adjudication(
            ev,
            Result(
                f"{u.id} reacts",
                {"react_left": left - 1, "to": state.map.label(to)},
                ["10.4.1.1.1"],
                roll.rolls,
                lines,
            ),
        )


class Exploit(OrderHandler):
    """10.3 3.G / 10.4.1.1: an exploitation move (half MP) by a reserve (activated: the marker comes
    off) or by units that won an EXP result; they may then attack again (3.H)."""

    type = OrderType(
        "exploit",
        (
            Param("unit", "unit", "reserve or unit with an EXP result"),
            Param("to", "hex", "destination (half MP; may stay to attack)", optional=True),
        ),
        rule="10.4.1.1",
        doc="exploitation move (half MP)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.3" or _window(state):
            return None
        vals = []
        for u in state.units_of(side):
            if u.hex is None or not (
                "reserve" in u.markers or int(u.data.get("exp", 0) or 0) == state.clock.turn
            ):
                continue
            r = ground_reach(state, u.evolve(markers=u.markers - {"reserve"}), exploit=True)
            vals.append({"unit": u.id})
            for t in sorted(r.ends - {u.hex})[:2]:
                vals.append({"unit": u.id, "to": state.map.label(t)})
        ex = legal_examples(self, state, side, vals, 6)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _plan(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, Hex, Any]:
        if base_step(state.clock.step) != "6.C.3":
            raise refuse(
                "exploitation is part of the Ground phase (6.C.3)", "wrong-step", "10.3", order
            )
        u = args["unit"]  # bound: the side's unit alive on the map
        if not ("reserve" in u.markers or int(u.data.get("exp", 0) or 0) == state.clock.turn):
            raise refuse(
                f"{u.id} is neither a reserve nor a unit with an EXP result",
                "not-exploitation",
                "10.4.1.1",
                order,
            )
        from owsnb.rules.ows.movement.ground import _ground_checks

        _ground_checks(state, order, u, exploit=True)
        free = u.evolve(markers=u.markers - {"reserve"})
        r = ground_reach(state, free, exploit=True)
        to = args["to"] if args.get("to") else u.hex
        if to not in r.ends:
            raise refuse(
                f"{state.map.label(to)} is beyond half of {u.id}'s MP ({r.allowance.mp:g})",
                "out-of-reach",
                "10.4.1.1",
                order,
            )
        return u, to, r

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._plan(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, to, r = self._plan(state, order, args)
        from owsnb.rules.ows.movement.basics import _moved

        vis = watchers(state, u)
        ev: list[Event] = []
        if to != u.hex:
            ev.append(unit_move(u.id, to, path=r.path_to(to), rule="10.4.1.1", visible_to=vis))
        ev.append(
            unit_set(
                u.id,
                markers=u.markers - {"reserve", "defend", "fortified"},
                data={"moved": _moved(state, u, len(r.path_to(to)) - 1, "6.C.3", exploit=True)},
                rule="10.4.1.1",
                visible_to=vis,
            )
        )
        ev += _set_stage(state, order.side, "exploit")
        return Adjudication(
            ev,
            Result(
                f"{u.id} exploits to {state.map.label(to)}",
                {"to": state.map.label(to)},
                ["10.3", "10.4.1.1"],
                [],
                ["may attack in exploitation combat (3.H)"],
            ),
        )
