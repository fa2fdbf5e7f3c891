"""The OWS rule set object: collects the chapter modules' handlers, step effects, options and
reducers; owns the view policy (8.3.1, 8.4.1), setup (2.1.3, 2.1.4) and the data tables.

Extension protocol (see README.md): a module listed in :data:`MODULES` may define

* ``HANDLERS`` — a list of :class:`~owsnb.kernel.ruleset.OrderHandler` instances;
* ``STEP_EFFECTS`` — ``{step_key: fn(state, dice) -> list[Event]}`` run when the step begins;
* ``LEAVE_EFFECTS`` — ``{step_key: fn(state, dice) -> list[Event]}`` run when the step ends;
* ``TURN_EFFECTS`` — a list of ``fn(state, turn, dice) -> list[Event]`` run when a turn begins;
* ``OPTIONS`` — extra :class:`~owsnb.kernel.ruleset.Option` entries;
* ``REDUCERS`` — ``{event kind: fn(state, event) -> state}``;
* ``UNIT_FIELDS`` — extra payload fields ``{name: (type, default)}``;
* ``RULES_KEYS`` — extra keys the module reads from a scenario's ``rules:`` block;
* ``PRIVATE_KEYS`` — extra payload bookkeeping an enemy never sees (added to :data:`PRIVATE_KEYS`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from importlib.util import find_spec
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dice import Dice
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, clock_set, note, state_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.reduce import apply
from owsnb.kernel.ruleset import Adjudication, OrderHandler, RuleSet
from owsnb.kernel.state import UMPIRE, GameState, StateLike, Unit
from owsnb.kernel.view import masked
from owsnb.rules.ows import units as _units
from owsnb.rules.ows.common import Result, Roller, detected, option
from owsnb.rules.ows.editor import EDITOR
from owsnb.rules.ows.options import OPTIONS
from owsnb.rules.ows.sequence import DEFER_STEPS, SEQUENCE, base_step
from owsnb.rules.ows.tables import load_tables

__all__ = ["OWS", "MODULES", "load_tables", "loaded_modules"]

from owsnb.kernel.ruleset import DONE as DONE_T  # noqa: E402

MODULES: tuple[str, ...] = (
    # part 1 (issue 3)
    "planning",
    "information",
    "isr",
    "air",
    "strike",
    "torpedo",
    "sof",
    "regeneration",
    # part 2 (issue 4): add or keep names here; missing modules are skipped
    "movement",
    "strategic",
    "timedistance",
    "ground",
    "supply",
    "css",
    "rear",
)
"""Chapter modules of ``owsnb.rules.ows`` collected by the rule set, in this order."""


def loaded_modules() -> list[Any]:
    """The chapter modules present, imported, in :data:`MODULES` order."""
    mods = []
    for name in MODULES:
        full = f"owsnb.rules.ows.{name}"
        if find_spec(full) is None:
            continue
        mods.append(importlib.import_module(full))
    return mods


PRIVATE_KEYS = (
    "escorts",
    "tanker_id",
    "base",
    "last_known",
    "back_on_turn",
    "timers",
    "engagement",
)
"""Payload bookkeeping an enemy never sees, even of a detected counter (it may name hidden units)."""


def _public_face(unit: Unit, marks: bool = True) -> Unit:
    """What the other side sees of a detected counter: its printed values, not its owner's notes;
    with *marks*, the salvos and shields crossed out on it (2.2: "Players use dry-erase markers on
    the counters themselves to record ... the consumption of missiles"; option
    ``enemy_expenditure``)."""
    hide = PRIVATE_KEYS if marks else (*PRIVATE_KEYS, "spent")
    if not any(k in unit.data for k in hide):
        return unit
    from dataclasses import replace as _replace

    return _replace(unit, data=unit.data.without(*hide))


# -- generic OWS orders ---------------------------------------------------------------------------
class Defer(OrderHandler):
    """3.5 / 6.3: the initiative side moves first or defers first move in the Naval, Air and SOF steps."""

    type = OrderType(
        "defer", (), rule="3.5", doc="initiative side: let the other side move first in this step"
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        try:
            self._check(state, side, None)
        except IllegalOrderError:
            return None
        return OrderSpec(side, self.type)

    def _check(self, state: StateLike, side: str, order: Order | None) -> None:
        clock = state.clock
        if clock.step not in DEFER_STEPS:
            raise IllegalOrderError(
                "defer only in the naval, air and SOF steps",
                code="wrong-step",
                rule="3.5",
                order=order,
            )
        if (
            not clock.active
            or clock.active[0] != side
            or clock.done
            or state.public.get("deferred") == clock.step
        ):
            raise IllegalOrderError(
                "only the initiative side may defer, before anyone has finished the step",
                code="cannot-defer",
                rule="3.5",
                order=order,
            )
        if state.public.get("acted") == clock.step:
            raise IllegalOrderError(
                "you have already acted in this step", code="cannot-defer", rule="3.5", order=order
            )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order.side, order)

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Dice
    ) -> list[Event]:
        from dataclasses import replace

        clock = state.clock
        active = (*clock.active[1:], clock.active[0])
        return [
            state_set("public", {"deferred": clock.step}, rule="3.5"),
            clock_set(replace(clock, active=active), rule="3.5"),
            note(f"{order.side} defers first move in step {clock.step}", rule="3.5"),
        ]


class AdHoc(OrderHandler):
    """2.1.1.4 semi-rigid adjudication: the facilitator states a probability and rolls a D10."""

    type = OrderType(
        "adjudicate",
        (
            Param("percent", "int", "probability of success in percent (a multiple of 10)"),
            Param("what", "text", "what is being decided", positional=False, optional=True),
        ),
        rule="2.1.1.4",
        doc="umpire: ad hoc adjudication on a D10",
        actors="umpire",
    )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        p = str(args["percent"])
        if not p.isdigit() or int(p) % 10 or not 0 <= int(p) <= 100:
            raise IllegalOrderError(
                "the probability must be 0-100 in steps of 10 (one D10 face each)",
                code="bad-probability",
                rule="2.1.1.4",
                order=order,
            )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        k = int(args["percent"]) // 10
        return Distribution.bernoulli(
            Distribution.die(10).prob(lambda r: r >= 11 - k) if k else 0, label="success"
        )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Dice
    ) -> Adjudication:
        k = int(args["percent"]) // 10
        what = args.get("what", "ad hoc adjudication")
        roll = Roller(dice)
        r = roll("d10", f"{what}: {k * 10}% (success on {11 - k}+)", "2.1.1.4", visible_to=None)
        ok = k > 0 and r >= 11 - k
        res = Result(
            f"Ad hoc: {what}",
            {"percent": k * 10, "roll": r, "success": ok},
            ["2.1.1.4"],
            roll.rolls,
            [f"{what}: {'success' if ok else 'failure'} (d10 = {r}, needed {11 - k}+)"],
        )
        return Adjudication([note(res.lines[0], rule="2.1.1.4")], res)


class OWS(RuleSet):
    """The Operational Wargame System, series rules v2.3."""

    name = "ows"
    title = "Operational Wargame System (OWS) v2.3"
    version = "2.3"
    sequence = SEQUENCE
    editor = EDITOR  # what the scenario editor needs (editor.py)
    spelling = {"defence": "defense"}  # data keys as the rule book spells them

    def __init__(self) -> None:
        self.modules = loaded_modules()
        handlers: list[OrderHandler] = [Defer(), AdHoc()]
        options = list(OPTIONS)
        reducers: dict[str, Callable] = {}
        self.step_effects: dict[str, list[Callable]] = {}
        self.leave_effects: dict[str, list[Callable]] = {}
        self.turn_effects: list[Callable] = []
        for m in self.modules:
            handlers += list(getattr(m, "HANDLERS", ()))
            options += [
                o for o in getattr(m, "OPTIONS", ()) if o.name not in {x.name for x in options}
            ]
            reducers.update(getattr(m, "REDUCERS", {}))
            fields = getattr(m, "UNIT_FIELDS", None)
            if fields:
                _units.register_fields({k: v for k, v in fields.items() if k not in _units._EXTRA})
            for effects, table in (
                (getattr(m, "STEP_EFFECTS", {}), self.step_effects),
                (getattr(m, "LEAVE_EFFECTS", {}), self.leave_effects),
            ):
                for k, fn in effects.items():
                    for key in (
                        (k, f"{k}b") if k.startswith("6.C.") and base_step(k) == k else (k,)
                    ):  # 2nd Ground
                        table.setdefault(key, []).append(fn)
            self.turn_effects += list(getattr(m, "TURN_EFFECTS", ()))
            global PRIVATE_KEYS
            PRIVATE_KEYS = (
                *PRIVATE_KEYS,
                *(k for k in getattr(m, "PRIVATE_KEYS", ()) if k not in PRIVATE_KEYS),
            )
        self.option_list = tuple(options)  # type: ignore[misc]
        self.reducers = reducers  # type: ignore[misc]
        super().__init__(handlers)

    def resolve_options(self, given: Mapping[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
        """Options with defaults, plus the sequence switches derived from them (``options.DERIVED``:
        the second Ground phase of ``ground_phases: 2``)."""
        from owsnb.rules.ows.options import DERIVED

        given = dict(given or {})
        problems = [
            f"option {k!r} follows from ground_phases; set ground_phases: 2 instead"
            for k in DERIVED
            if k in given
        ]
        opts, more = super().resolve_options({k: v for k, v in given.items() if k not in DERIVED})
        opts.update({k: fn(opts) for k, fn in DERIVED.items()})
        return opts, problems + more

    # -- data ----------------------------------------------------------------------------------
    def default_tables(self) -> dict[str, Any]:
        import copy

        return copy.deepcopy(load_tables())

    def validate_unit(
        self, kind: str, data: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        return _units.validate(kind, data)

    def setup(self, state: GameState, rules: Mapping[str, Any]) -> GameState:
        """Space dashboards (2.1.3) and hands (2.1.4) from the scenario's ``rules:`` block."""
        from dataclasses import replace

        state = super().setup(state, rules)
        dflt = dict(load_tables()["space"]["default"])
        sides = {}
        space_cfg = dict(rules.get("space", {}) or {})
        hands = dict(rules.get("hands", {}) or {})
        for name, s in state.sides.items():
            dash = {**dflt, **dict(space_cfg.get(name, {}) or {})}
            pub = s.public.set(space=dash, space_default=dash)
            priv = s.private.set(hand=dict(hands.get(name, {}) or {}))
            sides[name] = replace(s, public=pub, private=priv)
        state = replace(state, sides=FrozenDict(sides))
        if rules.get("victory"):  # the scenario's score sheet, public (12.1; victory.py)
            state = state.evolve(public=state.public.set(victory=rules["victory"]))
        return state

    def validate_scenario(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        problems = []
        known = [
            "space",
            "hands",
            "regeneration",
            "notes",
            "supply",
            "reinforcements",
            "weather",
            "victory",
        ]
        for m in self.modules:
            known += [k for k in getattr(m, "RULES_KEYS", ()) if k not in known]
        for key in rules:
            if key not in known:
                problems.append(
                    (f"rules.{key}", f"unknown OWS rules key; known: {', '.join(known)}")
                )
        from owsnb.rules.ows import victory
        from owsnb.rules.ows.strategic import over_capacity

        problems += victory.problems(state, rules.get("victory"))

        index = {uid: i for i, uid in enumerate(state.units)}  # the scenario's units, in file order
        for h, ids, cap in over_capacity(state):  # 6.5.5: capacity can never be exceeded
            where = f"units[{index[ids[cap]]}].hex" if ids[cap] in index else "units"
            problems.append(
                (
                    where,
                    f"{ids[cap]} is squadron base {cap + 1} on the airfield at {state.map.label(h)}: "
                    f"{len(ids)} squadrons based, capacity {cap} (6.5.5)",
                )
            )
        for side, dash in dict(rules.get("space", {}) or {}).items():
            if side not in state.sides:
                problems.append((f"rules.space.{side}", f"no side {side!r}"))
                continue
            for k in dash:
                if k not in ("c2", "pnt", "isr_die", "isr_pawns"):
                    problems.append(
                        (
                            f"rules.space.{side}.{k}",
                            "unknown space dashboard row; rows are c2, pnt, isr_die, isr_pawns (2.1.3)",
                        )
                    )
        return problems

    # -- walking the sequence ------------------------------------------------------------------
    def _run(self, state: GameState, fns: list[Callable], *args: Any) -> list[Event]:
        events: list[Event] = []
        s = state
        for fn in fns:
            new = list(fn(s, *args))
            for e in new:
                s = apply(s, e, self.reducers)
            events += new
        return events

    def on_enter(self, state: GameState, phase: Any, step: Any, dice: Dice) -> list[Event]:
        events: list[Event] = []
        if state.public.get("deferred") or state.public.get("acted"):
            events.append(state_set("public", {"deferred": None, "acted": None}, rule="3.5"))
            state = apply(state, events[0], self.reducers)
        return events + self._run(state, self.step_effects.get(step.key, []), dice)

    def on_leave(self, state: GameState, dice: Dice) -> list[Event]:
        return self._run(state, self.leave_effects.get(state.clock.step, []), dice)

    def on_new_turn(self, state: GameState, turn: int, dice: Dice) -> list[Event]:
        return self._run(state, self.turn_effects, turn, dice)

    # -- a strike waiting for the defender's shot calculus (9.2.1) -------------------------------
    @staticmethod
    def _awaiting_shields(state: StateLike) -> str | None:
        inc = state.public.get("incoming")
        return inc.get("defender") if inc else None

    def allowed_verbs(self, state: StateLike, side: str) -> list[str]:
        verbs = super().allowed_verbs(state, side)
        if self._awaiting_shields(state) == side:
            return [v for v in verbs if v == "shields" or self.order_types[v].actors == "umpire"]
        return verbs

    def check(self, state: StateLike, order: Order) -> dict[str, Any]:
        d = self._awaiting_shields(state)
        if (
            d is not None
            and order.side == d
            and order.verb not in ("shields",)
            and self.order_types.get(order.verb, DONE_T).actors != "umpire"
        ):
            raise IllegalOrderError(
                "a strike on your units waits for your shot calculus: answer with 'shields' "
                "(grey shields, CAP, return fire; 'shields' alone commits none)",
                code="shields-first",
                rule="9.2.1",
                order=order,
            )
        return super().check(state, order)

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Dice
    ) -> Adjudication:
        adj = super().adjudicate(state, order, args, dice)
        if (
            order.verb not in ("done", "advance", "defer", "adjudicate", "card", "intent")
            and state.clock.step in DEFER_STEPS
            and state.public.get("acted") != state.clock.step
        ):
            adj.events.insert(0, state_set("public", {"acted": state.clock.step}, rule="3.5"))
        return adj

    def evaluation(self) -> Any:
        """Bots' knowledge of this rule set (``evaluation.py``)."""
        from owsnb.rules.ows import evaluation

        return evaluation

    # -- view policy (8.3.1, 8.4, 8.4.1) -------------------------------------------------------
    def view_unit(self, state: GameState, unit: Unit, side: str) -> Unit | None:
        if side == UMPIRE or unit.side == side:
            return unit
        marks = option(state, "enemy_expenditure") == "marked"
        if unit.hex is None:
            ok = side in unit.seen_by or side in (unit.data.get("last_known") or {})
            return _public_face(unit, marks) if ok else None
        if detected(state, unit, side):
            return _public_face(unit, marks)
        lk = unit.data.get("last_known", {}).get(side) if unit.data.get("last_known") else None
        if lk is not None:
            from owsnb.kernel.hexgrid import Hex

            return _public_face(unit).evolve(
                hex=Hex(int(lk[0]), int(lk[1])),
                markers=frozenset({"last-known"}),
                data={"spent": {}},
            )
        if option(state, "face_down"):
            return masked(state, unit, side)
        return None

    @property
    def presentation(self) -> Any:
        """What the table draws of OWS (:mod:`owsnb.rules.ows.presentation`)."""
        from owsnb.rules.ows.presentation import PRESENTATION

        return PRESENTATION

    def guide(self) -> Any:
        """The briefing's standing, the step coach's phrases (``guide.py``)."""
        from owsnb.rules.ows import guide

        return guide

    # -- research hooks (owsnb.analysis.history) ----------------------------------------------
    def unit_facts(self, unit: Unit) -> dict[str, Any]:
        """A counter's facts for ``game.history()``: domain, category, red shield, signature, salvos
        and grey shields left (9.5, 2.2.2.8; a multi-role pool counts in both). Nothing for a
        face-down counter (its payload is hidden)."""
        if "category" not in unit.data:
            return {}
        c = _units.counter(unit)
        salvos = {a.key: a.left for a in c.attacks if not a.air_to_air}
        return {
            "domain": self.presentation.unit_domain(None, unit),
            "category": c.category,
            "red_shield": c.red_shield,
            "signature": c.signature if c.signature is not None else -1,
            "salvos_left": sum(salvos.values()),
            "grey_shields_left": c.grey_left,
        }

    def unit_detected(self, state: GameState, unit: Unit, side: str) -> bool:
        """Is *unit* detected by *side*: TACSIT 1 / detection, fixed installations (8.3.1), emitting
        units (6.4.3) — ``common.detected``."""
        return unit.side != side and detected(state, unit, side)
