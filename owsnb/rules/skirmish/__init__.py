"""Skirmish: a tiny rule set that exercises the kernel (sequence, orders, dice, views).

Each turn: 1 Movement (initiative side first; each unit moves once up to its ``move`` hexes, never
into or through enemy-occupied hexes), 2 Fire (simultaneous; each unit may fire once at an
adjacent, detected enemy: roll its ``attack`` die, meet or beat the target's ``defence`` for one
step loss; firing reveals the shooter to the target's side), 3 End (automatic: markers cleared; units adjacent to an
enemy are detected by it).

It is the kernel's worked example and test rule set: the documentation's examples play it (so they
run from an installed owsnb, ``skirmish.yaml`` ships beside this module) and the test suite drives
the kernel, the store, the server and the widgets with it. It is not one of the built-in rule sets
(``owsnb.rules.BUILTIN``): :func:`example` registers it under ``"skirmish"`` when it loads it.

>>> from owsnb.rules.skirmish import example
>>> game = example(seed=11)
>>> game.ruleset.name, sorted(game.view("blue").units)
('skirmish', ['B-ARM-1', 'B-INF-1', 'B-REC-1'])
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from owsnb.kernel import (
    Adjudication,
    Distribution,
    Option,
    OrderHandler,
    OrderSpec,
    OrderType,
    Param,
    Phase,
    RuleSet,
    SequenceOfPlay,
    Step,
    refuse,
)
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.events import note, unit_move, unit_set
from owsnb.kernel.hexgrid import reachable
from owsnb.kernel.state import GameState, StateLike


def reach(state: StateLike, unit: Any) -> Any:
    enemy = {u.hex for u in state.units.values() if u.side != unit.side and u.hex is not None}
    return reachable(
        unit.hex, unit.get("move", 1), passable=lambda h: h in state.map.hexes and h not in enemy
    )


class Move(OrderHandler):
    type = OrderType(
        "move", (Param("unit", "unit"), Param("to", "hex")), rule="S2", doc="move a unit"
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        movers = [
            u for u in state.units_of(side) if u.alive and u.hex is not None and not u.has("moved")
        ]
        if not movers:
            return None
        examples = []
        for u in movers:
            for h in list(reach(state, u))[:6]:
                if h != u.hex:
                    examples.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(
            side, self.type, FrozenDict(unit=tuple(u.id for u in movers)), tuple(examples)
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, to = args["unit"], args["to"]  # bound: the side's unit alive on the map, a map hex
        if u.has("moved"):
            raise refuse(f"{u.id} has already moved this turn", "moved", "S2", order)
        if to not in reach(state, u):
            raise refuse(
                f"{state.map.label(to)} is out of {u.id}'s reach ({u.get('move')} hexes)",
                "out-of-reach",
                "S2",
                order,
            )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u, to = args["unit"], args["to"]
        vis = {u.side} | set(u.seen_by)
        return [
            unit_move(u.id, to, path=reach(state, u).path_to(to), visible_to=vis, rule="S2"),
            unit_set(u.id, markers=u.markers | {"moved"}, visible_to=u.side, rule="S2"),
        ]


class Fire(OrderHandler):
    type = OrderType(
        "fire",
        (Param("unit", "unit"), Param("target", "enemy")),
        rule="S3",
        doc="fire at an adjacent enemy",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        pairs = [
            (u, t)
            for u in state.units_of(side)
            if u.alive and u.hex is not None and not u.has("fired")
            for t in state.units.values()
            if t.side != side
            and t.alive
            and t.hex is not None
            and side in t.seen_by
            and t.hex.distance(u.hex) == 1
        ]
        return OrderSpec.of(side, self.type, [{"unit": u.id, "target": t.id} for u, t in pairs])

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, t = args["unit"], args["target"]  # bound: the side's unit, a detected enemy
        if u.has("fired"):
            raise refuse(f"{u.id} has already fired", "fired", "S3", order)
        if t.hex.distance(u.hex) != 1:
            raise refuse(f"{t.id} is not adjacent to {u.id}", "not-adjacent", "S3", order)

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        u, t = args["unit"], args["target"]
        return Distribution.die(u.get("attack")).map(
            lambda r: int(r >= t.get("defence")), label="hits"
        )

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, t = args["unit"], args["target"]
        roll = dice.roll(
            u.get("attack"),
            purpose=f"{u.id} fires at {t.id} (defence {t.get('defence')})",
            rule="S3",
            visible_to=None,
        )
        # firing gives the shooter away: the target's side detects it (so the public note names
        # nothing that side has not seen)
        events = [
            unit_set(
                u.id,
                markers=u.markers | {"fired"},
                seen_by=u.seen_by | {t.side},
                visible_to={u.side, t.side},
                rule="S3",
            )
        ]
        hit = roll >= t.get("defence")
        if hit:
            steps = t.steps - 1
            changes: dict[str, Any] = {"steps": steps}
            if steps == 0:
                changes.update(hex=None, box="destroyed")
            events.append(unit_set(t.id, visible_to=None, rule="S3", **changes))
        events.append(note(f"{u.id} fires at {t.id}: {'hit' if hit else 'miss'}", rule="S3"))
        return Adjudication(events, {"roll": roll, "hit": hit})


class Skirmish(RuleSet):
    name = "skirmish"
    title = "Skirmish (kernel test rule set)"
    sequence = SequenceOfPlay(
        (
            Phase(
                "1",
                "Movement",
                (Step("1", "Move", actors="initiative", verbs=("move",), rule="S2"),),
            ),
            Phase(
                "2",
                "Fire",
                (Step("2", "Fire", actors="all", mode="simultaneous", verbs=("fire",), rule="S3"),),
            ),
            Phase("3", "End", (Step("3", "End of turn", actors="none", auto=True, rule="S4"),)),
        )
    )
    option_list = (Option("sudden_death", False, "end the game when a side has no unit left"),)
    spelling = {"defense": "defence"}  # one spelling for its data keys

    def __init__(self) -> None:
        super().__init__([Move(), Fire()])

    def validate_unit(self, kind: str, data: Mapping[str, Any]) -> tuple[dict, list]:
        problems = []
        for key in ("attack", "defence", "move"):
            v = data.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                problems.append((key, f"{key} must be a positive whole number, got {v!r}"))
        return dict(data), problems

    def on_enter(self, state: GameState, phase: Any, step: Any, dice: Any) -> list:
        if step.key != "3":
            return []
        events = []
        for u in state.units.values():
            if not u.alive or u.hex is None:
                continue
            spotters = frozenset(
                t.side
                for t in state.units.values()
                if t.side != u.side and t.alive and t.hex is not None and t.hex.distance(u.hex) <= 1
            )
            changes: dict[str, Any] = {}
            if u.markers & {"moved", "fired"}:
                changes["markers"] = u.markers - {"moved", "fired"}
            if spotters != u.seen_by:
                changes["seen_by"] = spotters
            if changes:
                events.append(unit_set(u.id, visible_to=u.side, rule="S4", **changes))
        return events

    def is_over(self, state: GameState) -> bool:
        if state.options.get("sudden_death"):
            alive = {u.side for u in state.units.values() if u.alive}
            if len(alive) < len(state.sides):
                return True
        return super().is_over(state)


RULESET = Skirmish()


SCENARIO = Path(__file__).parent / "skirmish.yaml"
"""Skirmish on the Rhine: a 10x8 map of 10 km hexes, three units a side (``skirmish-units.yaml``)."""


def example(seed: int = 11, **kwargs: Any) -> Any:
    """The :data:`SCENARIO` loaded in memory (``owsnb.load(SCENARIO, seed=seed, save=False)``),
    this rule set registered as ``"skirmish"`` first; *kwargs* go to :func:`owsnb.load`."""
    import owsnb
    from owsnb.kernel.registry import register_ruleset

    register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")
    kwargs.setdefault("save", False)
    return owsnb.load(SCENARIO, seed=seed, **kwargs)
