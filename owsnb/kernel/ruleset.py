"""The rule-set protocol: what a rule set declares and how the kernel calls it.

A rule set is a registered, stateless object (options live in the game state). It declares

* its **sequence of play** (:class:`~owsnb.kernel.sequence.SequenceOfPlay`) and who acts in each step;
* its **order types**, each with a handler that offers candidates, validates and adjudicates
  (:class:`OrderHandler`: state + order + dice -> events);
* its **reducers** for event kinds of its own (most rules only need the kernel's generic kinds);
* its **unit payload schema** (:meth:`RuleSet.validate_unit`), **options** and **data tables**;
* its **view policy** (:meth:`RuleSet.view_unit` and friends): what detection reveals;
* what the **scenario editor** needs (:attr:`RuleSet.editor`, a
  :class:`~owsnb.kernel.editing.EditorSpec`: catalogs, payload schema, boxes, map vocabulary,
  tables an instructor may override).

The base class supplies two generic verbs: ``done`` (a side has finished the current step) and
``advance`` (the umpire moves the game to the next step), and walks the sequence of play,
calling :meth:`RuleSet.on_enter` when a step begins (automatic steps run there).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.dice import Dice
from owsnb.kernel.editing import EditorSpec
from owsnb.kernel.errors import IllegalOrderError, InvalidHexError, NotYourTurnError
from owsnb.kernel.events import Event, clock_set, note
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param, seen
from owsnb.kernel.reduce import Reducer, apply
from owsnb.kernel.sequence import Phase, SequenceOfPlay, Step
from owsnb.kernel.state import UMPIRE, Clock, GameState, MapState, StateLike, Unit, check_side

__all__ = [
    "Option",
    "Adjudication",
    "OrderHandler",
    "RuleSet",
    "DONE",
    "ADVANCE",
    "GAME_OVER",
    "game_over_note",
]

GAME_OVER = "Game over"
"""How the note that ends a game begins (``Game over: <outcome>``), a note every side sees."""


def game_over_note(view: Any) -> str | None:
    """The text of the last ``Game over`` note among *view*'s events, or ``None`` if it has none.

    >>> from owsnb.kernel.events import note
    >>> from types import SimpleNamespace
    >>> game_over_note(SimpleNamespace(events=[note("Turn 2"), note("Game over: blue wins")]))
    'Game over: blue wins'
    """
    for e in reversed(view.events):
        if e.kind == "note" and str(e.data.get("text", "")).startswith(GAME_OVER):
            return str(e.data["text"])
    return None


@dataclass(frozen=True)
class Option:
    """A rule-set option (optional rules, rulings, methods), with its default.

    Attributes:
        name: option key used in scenario files (``strike_order``).
        default: default value; its type is the option's type.
        doc: what it changes.
        choices: allowed values, if a fixed list.
        rule: paragraph or ruling it implements (``"9.9.3"``, ``"R3"``).
    """

    name: str
    default: Any
    doc: str = ""
    choices: tuple[Any, ...] = ()
    rule: str = ""


@dataclass
class Adjudication:
    """What an adjudicator returns when it has more to say than its events.

    Attributes:
        events: events to commit (die rolls are prepended automatically, in the order rolled).
        result: a rich result object (dice, outcome, rules applied, HTML repr) for the caller.
    """

    events: list[Event] = field(default_factory=list)
    result: Any = None


class OrderHandler:
    """Handles one order verb: offers it, validates it and adjudicates it.

    Subclasses set :attr:`type` and override the methods they need.
    """

    type: ClassVar[OrderType]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        """The spec offered to *side* now (``None`` if nothing makes sense now)."""
        return OrderSpec(side, self.type)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        """Raise :class:`IllegalOrderError` (with the rule paragraph) if *order* is illegal."""

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Dice
    ) -> list[Event] | Adjudication:
        """Events that carry the order out (rolls go through *dice*)."""
        return []

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Any:
        """The exact distribution of outcomes, before committing (``None`` if nothing rolls)."""
        return None

    def resolve_hidden(
        self,
        state: GameState,
        order: Order,
        args: Mapping[str, Any],
        refusal: IllegalOrderError,
        dice: Dice,
    ) -> list[Event] | Adjudication:
        """Events for an order its side could give — legal as it knows the game (``candidates``
        and ``validate`` run on its view) — but that the truth refuses with *refusal* (a hidden
        unit in the way, a secret placement). A handler whose rule says what happens at the table
        (the move stops short, the attack finds the hex empty...) overrides this, citing it.

        The default carries nothing out and tells the side only that (the refusal's code and
        rule, never its text, which may name what the side does not know).
        """
        return [
            note(
                f"{order} could not be carried out ({refusal.code}"
                + (f", {refusal.rule})" if refusal.rule else ")"),
                visible_to=order.side,
                rule=refusal.rule,
                order=str(order),
                code=refusal.code,
                hidden_fact=True,
            )
        ]


DONE = OrderType("done", (), rule="", doc="finished with this step", actors="side")
ADVANCE = OrderType(
    "advance",
    (Param("to", "text", "phase/step key to jump to (optional)", positional=True, optional=True),),
    rule="",
    doc="umpire: end the current step and move on",
    actors="umpire",
)


class _Done(OrderHandler):
    type = DONE


class _Advance(OrderHandler):
    type = ADVANCE


class RuleSet:
    """Base class of rule sets. Subclass, set the class attributes, supply handlers and hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    sequence: ClassVar[SequenceOfPlay]
    option_list: ClassVar[tuple[Option, ...]] = ()
    reducers: ClassVar[Mapping[str, Reducer]] = {}
    presentation: Any = None
    """What the table draws of this rule set (terrain styles, counters, unit summaries, reach,
    ranges, transit, the hex overlay, the dashboard, unit domains): an
    ``owsnb.kernel.presentation.Presentation``, asked by the widgets and never by the rules;
    ``None`` gives its defaults. The kernel itself draws nothing."""
    editor: ClassVar[EditorSpec | None] = None
    """What the scenario editor needs to know (``None``: a generic editor, payloads as YAML)."""
    spelling: ClassVar[Mapping[str, str]] = {}
    """One spelling for data keys: each spelling this rule set's keys do not use, with the one they
    do (its rule book's), e.g. ``{"defence": "defense"}``. The scenario loader refuses a key of a
    scenario or catalog of this rule set that contains the first, naming the right key."""

    def __init__(self, handlers: Iterable[OrderHandler] = ()):
        self._handlers: dict[str, OrderHandler] = {"done": _Done(), "advance": _Advance()}
        for h in handlers:
            own = self._handlers.get(h.type.verb)
            if isinstance(own, (_Done, _Advance)) and h.type is not own.type:
                raise ValueError(
                    f"{h.type.verb!r} is the kernel's own verb (every rule set has it, and rule sets"
                    " treat it as such): give this order another verb, or refine the kernel's"
                    " (a handler whose type is DONE / ADVANCE)"
                )
            if own is not None and not isinstance(own, (_Done, _Advance)):
                raise ValueError(f"two handlers for verb {h.type.verb!r}")
            self._handlers[h.type.verb] = h

    def __repr__(self) -> str:
        return f"<RuleSet {self.name!r}: {self.title}>"

    # -- declarations --------------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Option]:
        """Declared options by name."""
        return {o.name: o for o in self.option_list}

    @property
    def order_types(self) -> dict[str, OrderType]:
        """Declared order types by verb (``done`` and ``advance`` included)."""
        return {v: h.type for v, h in self._handlers.items()}

    def handler(self, verb: str) -> OrderHandler:
        """The handler of *verb* (``KeyError`` if unknown)."""
        return self._handlers[verb]

    def default_tables(self) -> dict[str, Any]:
        """The rule set's data tables (loaded from its package data)."""
        return {}

    def resolve_options(self, given: Mapping[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
        """Options with defaults filled in, and a list of problems (unknown name, bad value)."""
        opts = {o.name: o.default for o in self.option_list}
        problems: list[str] = []
        for k, v in (given or {}).items():
            o = self.options.get(k)
            if o is None:
                problems.append(
                    f"unknown option {k!r}; known options: {', '.join(sorted(self.options)) or 'none'}"
                )
                continue
            if o.choices and v not in o.choices:
                problems.append(f"option {k!r} must be one of {list(o.choices)}, not {v!r}")
                continue
            if not o.choices and o.default is not None and type(v) is not type(o.default):
                if not (
                    isinstance(o.default, float) and isinstance(v, int) and not isinstance(v, bool)
                ):
                    problems.append(f"option {k!r} must be {type(o.default).__name__}, not {v!r}")
                    continue
            opts[k] = v
        return opts, problems

    def validate_unit(
        self, kind: str, data: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """Check a unit's payload against the rule set's schema.

        Returns:
            the normalised payload and a list of ``(key path, problem)`` pairs (empty if valid).
        """
        return dict(data), []

    def setup(self, state: GameState, rules: Mapping[str, Any]) -> GameState:
        """Rule-set specific initial state from the scenario's ``rules:`` block; also sets the clock.

        The default puts the clock at the first step of turn ``state.clock.turn``.
        """
        ph, st = self.sequence.first(state.options)
        return replace(state, clock=self.clock_for(state, ph, st, state.clock.turn))

    def validate_scenario(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Extra scenario checks: ``(key path, problem)`` pairs."""
        return []

    # -- who acts ------------------------------------------------------------------------------
    def initiative(self, state: GameState) -> str:
        """The side with the initiative (default: ``state.public['initiative']`` or the first side)."""
        return state.public.get("initiative") or next(iter(state.sides))

    def actors(
        self, state: GameState, phase: Phase, step: Step, turn: int | None = None
    ) -> tuple[str, ...]:
        """The sides acting in *step* (of *turn*: the clock's when not given), in order; a rule
        set overrides it to say who acts (:meth:`clock_for` asks it)."""
        a = step.actors
        sides = list(state.sides)
        if a == "all":
            return tuple(sides)
        if a == "initiative":
            first = self.initiative(state)
            return (first, *[s for s in sides if s != first])
        if a in ("none", UMPIRE):
            return (UMPIRE,) if a == UMPIRE else ()
        if isinstance(a, str):
            return (a,)
        return tuple(a)

    def clock_for(self, state: GameState, phase: Phase, step: Step, turn: int) -> Clock:
        """The clock at the start of (phase, step) of *turn*."""
        return Clock(
            turn=turn,
            phase=phase.key,
            step=step.key,
            phase_title=phase.title,
            step_title=step.title,
            active=self.actors(state, phase, step, turn),
            done=frozenset(),
            mode=step.mode,
            date=state.clock.date,
        )

    def current(self, state: StateLike) -> tuple[Phase, Step]:
        """The current phase and step."""
        return self.sequence.find(state.clock.phase, state.clock.step)

    # -- validation ----------------------------------------------------------------------------
    def allowed_verbs(self, state: StateLike, side: str) -> list[str]:
        """Verbs *side* may use now (before looking at their parameters)."""
        if self.ended(state):
            return []
        _, step = self.current(state)
        out = []
        for verb, h in self._handlers.items():
            who = h.type.actors
            if who == "umpire":
                if side == UMPIRE:
                    out.append(verb)
            elif who == "any":
                if side in state.sides or side == UMPIRE:
                    out.append(verb)
            elif side in state.clock.acting and (verb == "done" or verb in step.verbs):
                out.append(verb)
        return out

    def check(self, state: StateLike, order: Order) -> dict[str, Any]:
        """Validate *order* now; returns its bound arguments.

        Raises:
            IllegalOrderError: with a stable code and the rule paragraph.
            NotYourTurnError: the side may not act in this step.
        """
        if self.ended(state):
            raise IllegalOrderError("the game is over", code="game-over", order=order)
        h = self._handlers.get(order.verb)
        if h is None:
            raise IllegalOrderError(
                f"unknown order {order.verb!r}; {self.name} knows: {', '.join(sorted(self._handlers))}",
                code="unknown-verb",
                order=order,
            )
        check_side(state, order.side, order)
        phase, step = self.current(state)
        who = h.type.actors
        if who == "umpire" and order.side != UMPIRE:
            raise NotYourTurnError(f"only the umpire may '{order.verb}'", order=order)
        if who == "side":
            if order.side not in state.clock.acting:
                acting = ", ".join(state.clock.acting) or "nobody"
                raise NotYourTurnError(
                    f"{order.side} may not act now ({state.clock}); acting: {acting}",
                    rule=step.rule,
                    order=order,
                )
            if order.verb != "done" and order.verb not in step.verbs:
                allowed = ", ".join(["done", *step.verbs])
                raise IllegalOrderError(
                    f"'{order.verb}' is not an order of step {step.key} {step.title}; allowed now: {allowed}",
                    code="wrong-step",
                    rule=step.rule or h.type.rule,
                    order=order,
                )
        args = self.bind(state, order)
        if order.verb == "advance" and args.get("to"):
            self._check_step(state, order, str(args["to"]))
        with _references(order, h.type.rule):
            h.validate(state, order, args)
        return args

    def bind(self, state: StateLike, order: Order) -> dict[str, Any]:
        """The arguments of *order* (whose verb is known) resolved on *state*, what its side
        knows: units, hexes and numbers for the parameters whose kind binds
        (:meth:`OrderType.bind`, with this rule set's :meth:`unit_detected` and
        :meth:`parse_hex`), the standard refusals citing the order type's rule otherwise."""
        t = self._handlers[order.verb].type
        return t.bind(order, state, detected=self.unit_detected, parse_hex=self.parse_hex)

    def parse_hex(self, map: MapState, text: str) -> Hex:
        """The hex an order names by *text* (``InvalidHexError`` if none): by default its printed
        label (``MapState.hex``); a rule set whose book names hexes otherwise reads that too."""
        return map.hex(text)

    def _check_step(self, state: StateLike, order: Order, to: str) -> None:
        """``advance TO``: *to* must name a step played under the game's options."""
        keys = [(p.key, st.key) for p, st in self.sequence.walk(state.options)]
        if not any(to in (k, f"{pk}/{k}") for pk, k in keys):
            raise IllegalOrderError(
                f"no step {to!r} in the sequence of play; steps are "
                + ", ".join(k for _, k in keys),
                code="bad-step",
                order=order,
            )

    def legal_orders(self, state: StateLike, side: str) -> list[OrderSpec]:
        """Specs of the orders *side* may give now (``UnknownSideError`` for a side not in the
        game)."""
        check_side(state, side)
        specs = []
        for verb in self.allowed_verbs(state, side):
            spec = self._handlers[verb].candidates(state, side)
            if spec is not None:
                specs.append(spec)
        return specs

    # -- adjudication --------------------------------------------------------------------------
    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Dice
    ) -> Adjudication:
        """Carry out a validated order; generic verbs walk the sequence of play."""
        if order.verb == "done":
            return Adjudication(self.done_events(state, order.side, dice))
        if order.verb == "advance":
            return Adjudication(self.advance_events(state, dice, to=args.get("to")))
        out = self._handlers[order.verb].adjudicate(state, order, args, dice)
        return out if isinstance(out, Adjudication) else Adjudication(list(out))

    def preview(self, state: StateLike, order: Order) -> Any:
        """The exact outcome distribution of *order* (``None`` if it does not roll)."""
        h = self._handlers.get(order.verb)
        if h is None:
            raise IllegalOrderError(
                f"unknown order {order.verb!r}", code="unknown-verb", order=order
            )
        args = self.bind(state, order)
        with _references(order, h.type.rule):
            return h.preview(state, order, args)

    def resolve_hidden(
        self,
        state: GameState,
        order: Order,
        args: Mapping[str, Any],
        refusal: IllegalOrderError,
        dice: Dice,
    ) -> Adjudication:
        """Carry out an order that was legal as its side knew the game but that the truth
        refuses with *refusal*: the handler's :meth:`OrderHandler.resolve_hidden` says how."""
        out = self._handlers[order.verb].resolve_hidden(state, order, args, refusal, dice)
        return out if isinstance(out, Adjudication) else Adjudication(list(out))

    def done_events(self, state: GameState, side: str, dice: Dice) -> list[Event]:
        """``side`` finished the step; when every actor is done, move on."""
        clock = state.clock
        done = clock.done | {side}
        if all(a in done for a in clock.active):
            return self.advance_events(state, dice)
        return [clock_set(replace(clock, done=frozenset(done)))]

    def advance_events(
        self, state: GameState, dice: Dice, to: str | None = None, limit: int = 200
    ) -> list[Event]:
        """Events that end the current step and enter the next one(s).

        Steps whose actors are empty (automatic steps) are entered, resolved by :meth:`on_enter`
        and left at once. ``to`` (``"phase/step"`` or a step key) jumps forward to that step; an
        automatic step cannot be rested on, so a jump to one resolves it and stops at the first
        step after it where anyone acts.
        """
        reached = to is None
        events: list[Event] = self.on_leave(state, dice)
        s = _apply_all(state, events, self.reducers)
        for _ in range(limit):
            clock = s.clock
            p_key, s_key, new_turn = self.sequence.after(clock.phase, clock.step, s.options)
            turn = clock.turn + (1 if new_turn else 0)
            if new_turn:
                turn_events = self.on_new_turn(s, turn, dice)
                events += turn_events
                s = _apply_all(s, turn_events, self.reducers)
            phase, step = self.sequence.find(p_key, s_key)
            ev = clock_set(self.clock_for(s, phase, step, turn), rule=step.rule)
            events.append(ev)
            s = apply(s, ev, self.reducers)
            entered = self.on_enter(s, phase, step, dice)
            events += entered
            s = _apply_all(s, entered, self.reducers)
            if self.is_over(s):
                events.append(note(f"{GAME_OVER}: {self.outcome(s)}"))
                return events
            reached = reached or to in (s_key, f"{p_key}/{s_key}")
            if s.clock.active and not step.auto and reached:
                return events
        raise IllegalOrderError(f"could not find step {to!r} within {limit} steps", code="bad-step")

    # -- hooks for rule sets -------------------------------------------------------------------
    def on_enter(self, state: GameState, phase: Phase, step: Step, dice: Dice) -> list[Event]:
        """Automatic effects when *step* begins (automatic steps resolve here)."""
        return []

    def on_leave(self, state: GameState, dice: Dice) -> list[Event]:
        """Effects when the current step ends."""
        return []

    def on_new_turn(self, state: GameState, turn: int, dice: Dice) -> list[Event]:
        """Effects when a new turn begins (before its first step is entered)."""
        return []

    def ended(self, state: StateLike) -> bool:
        """Has the game ended, on the truth or on a side's view? The end is public — every side is
        told — so a view carries it (``view.over``) and :meth:`is_over`, which may need the truth
        (a side with no unit left), is asked only of the truth."""
        if isinstance(state, GameState):
            return bool(self.is_over(state))
        return bool(getattr(state, "over", False))

    def is_over(self, state: GameState) -> bool:
        """Has the game ended? (default: past ``scenario['turns']`` if set)."""
        last = state.scenario.get("turns")
        return last is not None and bool(last) and state.clock.turn > int(last)

    def outcome(self, state: GameState) -> Any:
        """Who won, or how it stands (rule-set specific)."""
        return "no victory conditions evaluated"

    def guide(self) -> Any:
        """Guidance for the people at the table — the briefing, the step coach, the debrief —
        or ``None``; never required for play. An object (usually the module
        ``owsnb/rules/<name>/guide.py``) of pure functions over a view, each optional:

        * ``standing(view) -> dict``: the victory standing as *view* can judge it (a side's
          view: only what that side knows; the umpire's: the truth) — ``text`` (one line),
          ``scores`` (``{side: number}``; a side whose score this view cannot know is left
          out), ``leader`` (a side or ``None``), ``final`` (the game is over and this is the
          result), ``rows`` (``[{"side", "what", "points"}]``: where the points come from),
          ``notes`` (what the rule set cannot judge), ``rule`` (the paragraph);
        * ``VERBS``: ``{verb or "verb@step": how to give it with the mouse}`` for the coach;
        * ``STEPS``: ``{step key: what matters in this step}``;
        * ``briefing(view) -> [(title, html)]``: sections of the briefing the rule set adds
          (the side's secret objectives...).
        """
        return None

    # -- view policy ---------------------------------------------------------------------------
    def view_unit(self, state: GameState, unit: Unit, side: str) -> Unit | None:
        """What *side* sees of *unit*: the unit, a redacted copy, or ``None`` (hidden).

        Default: own units in full; enemy units in full once detected (``side in unit.seen_by``),
        otherwise hidden.
        """
        if side == UMPIRE or unit.side == side or side in unit.seen_by:
            return unit
        return None

    def unit_detected(self, state: GameState, unit: Unit, side: str) -> bool:
        """Has *side* detected the enemy *unit*? (default: ``side in unit.seen_by``; a rule set may
        add units that are always known, such as fixed installations). The ``enemy`` parameters
        of orders bind to the units this says a side has detected."""
        return seen(state, unit, side)

    def unit_facts(self, unit: Unit) -> dict[str, Any]:
        """Per-unit facts recorded in research datasets (numbers or text). Default: the payload's
        top-level numbers and strings. A ``domain`` fact enables losses by domain."""
        return {
            k: v
            for k, v in unit.data.items()
            if isinstance(v, (int, float, str)) and not isinstance(v, bool)
        }

    def view_public(self, state: GameState, side: str) -> FrozenDict:
        """The game's public facts as *side* sees them (default: all of ``state.public``)."""
        return state.public

    # -- bots (asked by owsnb.bots; never required for play) ------------------------------------
    def evaluation(self) -> Any:
        """The rule set's knowledge for bots (:mod:`owsnb.bots`), or ``None`` (bots then judge by
        steps alone): an object — usually the module ``owsnb/rules/<name>/evaluation.py`` — of
        pure functions over a view (each optional):

        * ``standing(state, side) -> float``: *side*'s victory standing in points (its score
          minus its enemies', material as a tie-breaker) as *state* shows it — a side's view
          (what it knows) or the truth (the judge at a turn limit);
        * ``order_value(view, order, preview) -> float``: the immediate worth of *order* to
          ``view.side`` in the same points, from the rule set's exact *preview* (expected enemy
          losses, own risk, objectives);
        * ``goals(view) -> {Hex: weight}``: where ``view.side``'s units should head (objectives
          to take or hold, known threats), for the bots' time-distance term;
        * ``sample_hidden(view, rng) -> dict``: one sample of what ``view.side`` cannot see,
          drawn from the view alone (``units``, ``secret``, ``private``, ``public``), for the
          search bot's determinised states;
        * ``SCALE``: how many points make a clear difference (normalises search rewards) and
          ``APPROACH``: what a unit's step toward its goals is worth in points.
        """
        return None

    def observation_string(self, view: Any) -> str:
        """A one-line text summary of a view, for golden transcripts: the viewer, the clock and
        every unit it sees as ``id@where:steps`` (*where* is the hex's printed label, else the box,
        else ``off-map`` — never a ``repr``, so transcripts do not change with one)."""
        units = ", ".join(
            f"{u.id}@{view.map.label(u.hex) if u.hex is not None else u.box or 'off-map'}:{u.steps}"
            for u in view.units.values()
        )
        return f"{view.side} | {view.clock} | {units}"


def _tokens(order: Order) -> set[str]:
    """The references an order's text makes: each argument, and each part of one (``a,b``,
    ``DDG-1:tlam``), as rule code splits them."""
    out: set[str] = set()
    for arg in order.args:
        out.add(arg)
        out.update(p for p in re.split(r"[,:;\s]+", arg) if p)
    return out


@contextlib.contextmanager
def _references(order: Order, rule: str) -> Iterator[None]:
    """Turn a bad hex, or a lookup of something the order names that is not there, met while
    validating into a refusal. Any other ``KeyError`` is a bug in the rule code: it is raised as
    it is, not dressed up as a refusal."""
    try:
        yield
    except IllegalOrderError:
        raise
    except InvalidHexError as exc:
        raise IllegalOrderError(str(exc), code="bad-hex", rule=rule, order=order) from None
    except KeyError as exc:
        key = getattr(exc, "key", exc.args[0] if exc.args else None)
        if not isinstance(key, str) or key not in _tokens(order):
            raise
        msg = (
            exc.args[0] if exc.args and isinstance(exc.args[0], str) else f"unknown reference {exc}"
        )
        raise IllegalOrderError(msg, code="unknown-reference", rule=rule, order=order) from None


def _apply_all(
    state: GameState, events: Sequence[Event], reducers: Mapping[str, Reducer]
) -> GameState:
    for e in events:
        state = apply(state, e, reducers)
    return state


def freeze_table(obj: Any) -> FrozenDict:
    """Freeze a data table."""
    return freeze(obj)
