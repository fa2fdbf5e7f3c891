"""The Operational Art rule set: sequence of play, options, setup, view policy and hooks.

A turn is one step, *Activation*, repeated once per activation card: the side owning the
formation whose card is face up acts; ``done`` ends the activation and turns the next card;
when the pack is exhausted a new turn begins with a fresh shuffle (§12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dice import Dice
from owsnb.kernel.events import Event, clock_set
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Option, RuleSet
from owsnb.kernel.sequence import Phase, SequenceOfPlay, Step
from owsnb.kernel.state import Clock, GameState, StateLike, Unit
from owsnb.rules.opart import activation, present, victory
from owsnb.rules.opart.editor import EDITOR
from owsnb.rules.opart.orders import AttackOrder, ExitOrder, FaceOrder, ModeOrder, MoveOrder
from owsnb.rules.opart.stands import combat_value, division_morale, validate_stand
from owsnb.rules.opart.tables import default_tables
from owsnb.rules.opart.terrain import direction_names, parse_direction

__all__ = ["OperationalArt", "OPTIONS", "RULES_KEYS"]

OPTIONS = (
    Option(
        "cv_additions",
        "single",
        "one §8 addition per stand by arm, or also add the rows listed in a stand's `additions`",
        ("single", "sum"),
        "R12",
    ),
    Option(
        "band_boundaries",
        "defender",
        "D exactly A/2 or A/4: the milder band (defender) or the harsher one (attacker)",
        ("defender", "attacker"),
        "R1",
    ),
    Option(
        "round_thresholds",
        False,
        "compare with A/2 and A/4 rounded up (footnote ix); no effect with defender boundaries",
        (),
        "fn ix",
    ),
    Option(
        "rolloff_ties",
        "reroll",
        "equal roll-off dice: throw again, or the combat stands with no effect",
        ("reroll", "stand"),
        "R2",
    ),
    Option(
        "withdraw_distance",
        2,
        "a withdrawing stand ends at least this many hexes from every enemy "
        "stand (2 = 'one hex away')",
        (1, 2),
        "R4",
    ),
    Option(
        "engagement_limit",
        "target_hex",
        "footnote xi: per source hex and turn, one stand may engage "
        "each enemy hex, each enemy stand, or only one stand may engage at all",
        ("target_hex", "target_stand", "one_per_hex"),
        "R24",
    ),
    Option(
        "flank_attacks",
        True,
        "stands have a facing; attacks on flank or rear get +3 (footnote xii "
        "diagrams lost; arcs in the flank_arcs table)",
        (),
        "R7",
    ),
    Option(
        "command_bonus_same_hex",
        False,
        "a command stand in the same hex also gives its bonus (the text says 'adjacent')",
        (),
        "R6",
    ),
    Option(
        "anti_tank_needs_sight",
        False,
        "anti-tank artillery needs to see its target (the text exempts all artillery)",
        (),
        "R10",
    ),
    Option(
        "generals_in_woods",
        False,
        "Generals on foot may go off-road into woods and villages "
        "(the text names only infantry on foot and dismounted cavalry)",
        (),
        "R26",
    ),
    Option("village_cover", True, "villages give the -2 cover of built-up areas", (), "R19"),
    Option(
        "river_crossing",
        "bridges",
        "rivers: crossed only by road bridges, fordable (+1 hex), or impassable",
        ("bridges", "fordable", "impassable"),
        "R18",
    ),
    Option("stack_capacity", 3, "standard (4 x 4 cm) stands that fit in a 10 cm hex", (), "R21"),
    Option(
        "gap_span",
        3,
        "widest pair (in hexes) of enemy/enemy or enemy/obstacle a stand may not slip between",
        (),
        "R15",
    ),
    Option(
        "minimum_move",
        True,
        "a stand may always move one hex it may enter, whatever contours cost",
        (),
        "R16",
    ),
    Option(
        "mode_change",
        "costs_move",
        "mounting, dismounting, embarking or debussing uses the stand's move, or modes are fixed",
        ("costs_move", "fixed"),
        "R17",
    ),
    Option(
        "fire_then_move",
        True,
        "a stand may move after initiating combat (else firing ends its activation)",
        (),
        "R14",
    ),
)

RULES_KEYS = (
    "formations",
    "home_edges",
    "facing",
    "elevation",
    "objectives",
    "victory",
    "arrivals",
)
"""Keys of a scenario's ``rules:`` block."""


class OperationalArt(RuleSet):
    """Operational Art (Eastern Front): divisions, activation cards, combat power by ratio."""

    name = "opart"
    title = "Operational Art (Eastern Front)"
    version = "1"
    sequence = SequenceOfPlay(
        (
            Phase(
                "12",
                "Turn",
                (
                    Step(
                        "12.2",
                        "Activation",
                        actors="card",
                        verbs=("move", "face", "mode", "attack", "exit"),
                        rule="12.2",
                    ),
                ),
                rule="12",
            ),
        )
    )
    option_list = OPTIONS
    editor = EDITOR  # what the scenario editor needs (editor.py)
    spelling = {"defense": "defence"}  # data keys as the rule book spells them

    def __init__(self) -> None:
        super().__init__([MoveOrder(), FaceOrder(), ModeOrder(), AttackOrder(), ExitOrder()])

    # -- data ----------------------------------------------------------------------------------
    def default_tables(self) -> dict[str, Any]:
        return default_tables()

    def validate_unit(
        self, kind: str, data: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        return validate_stand(data)

    def validate_scenario(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        for k in rules:
            if k not in RULES_KEYS:
                problems.append(
                    (f"rules.{k}", f"unknown key; opart scenarios know {', '.join(RULES_KEYS)}")
                )
        by_f: dict[str, list[Unit]] = {}
        for u in state.units.values():
            by_f.setdefault(u.get("formation"), []).append(u)
            try:
                cv = combat_value(u.data, state)
            except ValueError as exc:
                problems.append((f"units.{u.id}", str(exc)))
                continue
            if u.max_steps != cv:
                problems.append(
                    (
                        f"units.{u.id}",
                        f"type {u.kind} gives steps {u.max_steps}, but its §8 combat "
                        f"value is {cv}: set the catalog type's steps to {cv}",
                    )
                )
        titles = rules.get("formations", {}) or {}
        for fid, us in by_f.items():
            sides = {u.side for u in us}
            if len(sides) > 1:
                problems.append(
                    (f"units.{us[0].id}", f"formation {fid!r} has stands on several sides")
                )
            cmds = [u for u in us if u.get("arm") in ("command", "hq")]
            if len(cmds) != 1:
                problems.append(
                    (
                        f"rules.formations.{fid}",
                        f"formation {fid!r} needs exactly one command stand (§7), has {len(cmds)}",
                    )
                )
        for fid in titles:
            if fid not in by_f:
                problems.append(
                    (f"rules.formations.{fid}", f"no stand belongs to formation {fid!r}")
                )
        for s, edge in (rules.get("home_edges") or {}).items():
            if s not in state.sides:
                problems.append((f"rules.home_edges.{s}", f"no side {s!r}"))
            if edge not in ("north", "south", "east", "west"):
                problems.append(
                    (f"rules.home_edges.{s}", f"{edge!r} is not north, south, east or west")
                )
        for s, f in (rules.get("facing") or {}).items():
            try:
                parse_direction(f, state.map.offset.orientation)
            except ValueError as exc:
                problems.append((f"rules.facing.{s}", str(exc)))
        for u in state.units.values():
            if u.get("facing") is not None:
                try:
                    parse_direction(u.get("facing"), state.map.offset.orientation)
                except ValueError as exc:
                    problems.append((f"units.{u.id}.data.facing", str(exc)))
        for lab, lv in (rules.get("elevation") or {}).items():
            try:
                state.map.hex(str(lab))
            except ValueError as exc:
                problems.append((f"rules.elevation.{lab}", str(exc)))
            if not isinstance(lv, int) or lv < 0:
                problems.append(
                    (f"rules.elevation.{lab}", f"a hill level is a whole number >= 0, not {lv!r}")
                )
        for i, o in enumerate(rules.get("objectives") or ()):
            try:
                state.map.hex(str(o.get("hex")))
            except (ValueError, AttributeError) as exc:
                problems.append((f"rules.objectives[{i}].hex", str(exc)))
                continue
            if o.get("control") is not None and o["control"] not in state.sides:
                problems.append((f"rules.objectives[{i}].control", f"no side {o['control']!r}"))
        for fid, turn in (rules.get("arrivals") or {}).items():
            if fid not in by_f:
                problems.append((f"rules.arrivals.{fid}", f"no stand belongs to formation {fid!r}"))
            if not isinstance(turn, int) or turn < 1:
                problems.append(
                    (f"rules.arrivals.{fid}", f"a turn is a whole number >= 1, not {turn!r}")
                )
        for k, v in (rules.get("victory") or {}).items():
            if k not in self.default_tables()["victory"]:
                problems.append(
                    (
                        f"rules.victory.{k}",
                        f"unknown; known: {', '.join(self.default_tables()['victory'])}",
                    )
                )
            elif not isinstance(v, int):
                problems.append((f"rules.victory.{k}", f"points are whole numbers, not {v!r}"))
        return problems

    def setup(self, state: GameState, rules: Mapping[str, Any]) -> GameState:
        orient = state.map.offset.orientation
        titles = rules.get("formations", {}) or {}
        side_facing = rules.get("facing", {}) or {}
        # units: facing as a direction number
        arrivals = {str(k): int(v) for k, v in (rules.get("arrivals") or {}).items()}
        units = {}
        for u in state.units.values():
            f = u.get("facing")
            if f is None:
                f = side_facing.get(u.side, 0)
            units[u.id] = u.evolve(data={"facing": parse_direction(f, orient)})
            if arrivals.get(u.get("formation"), 0) > state.clock.turn:  # §10: not yet deployed
                units[u.id] = replace(
                    units[u.id].evolve(data={"entry": state.map.label(u.hex)}),
                    hex=None,
                    box="arriving",
                )
        state = state.evolve(units=units)
        # formations and morale (§7, §9)
        forms: dict[str, dict[str, Any]] = {}
        for u in state.units.values():
            fid = u.get("formation")
            f = forms.setdefault(fid, {"side": u.side, "stands": []})
            f["stands"].append(u)
            if u.get("arm") in ("command", "hq"):
                f["command"] = u.id
                f["kind"] = "division" if u.get("arm") == "command" else "assets"
        facts, morale = {}, {}
        for fid, f in forms.items():
            t = titles.get(fid, {}) or {}
            facts[fid] = {
                "title": t.get("title", fid),
                "short": t.get("short", fid),
                "side": f["side"],
                "kind": f.get("kind", "assets"),
                "command": f.get("command"),
            }
            if facts[fid]["kind"] == "division":
                morale[fid] = division_morale(u.max_steps for u in f["stands"])
        # the map: hill levels and objective control
        hexes = dict(state.map.hexes)
        for lab, lv in (rules.get("elevation") or {}).items():
            h = state.map.hex(str(lab))
            info = hexes[h]
            hexes[h] = replace(info, features=info.features.set(hill={"level": int(lv)}))
        objectives = []
        for o in rules.get("objectives") or ():
            h = state.map.hex(str(o["hex"]))
            objectives.append({k: v for k, v in o.items()})
            if o.get("control"):
                info = hexes[h]
                hexes[h] = replace(info, facts=info.facts.set(control=o["control"]))
        state = replace(state, map=replace(state.map, hexes=FrozenDict(hexes)))
        public = {
            **state.public,
            "formations": facts,
            "morale": morale,
            "morale_start": dict(morale),
            "home_edges": dict(rules.get("home_edges") or {}),
            "objectives": objectives,
            "victory": dict(rules.get("victory") or {}),
            "arrivals": arrivals,
            "engaged": [],
            "turned": [],
            "card": None,
        }
        state = state.evolve(public=public)
        # the first shuffle of the pack belongs to the initial state (seeded like every roll)
        dice = Dice(state.rng, visible_to=())
        events = activation.new_turn_events(state, state.clock.turn, dice)
        state = apply_all(
            state, [replace(e, seq=0) for e in events if e.kind not in ("die", "note")]
        )
        state = replace(state, rng=dice.state, seq=0)
        return super().setup(state, rules)

    # -- sequence ------------------------------------------------------------------------------
    def actors(
        self, state: GameState, phase: Phase, step: Step, turn: int | None = None
    ) -> tuple[str, ...]:
        if step.actors == "card":
            side = activation.current_side(state)
            return (side,) if side else ()
        return super().actors(state, phase, step, turn)

    def clock_for(self, state: GameState, phase: Phase, step: Step, turn: int) -> Clock:
        c = super().clock_for(state, phase, step, turn)
        card = state.public.get("card")
        title = (
            state.public.get("formations", {}).get(card, {}).get("title", "no card")
            if card
            else "no card"
        )
        n = len(state.public.get("turned", ()))
        d, t = activation.day_and_turn(turn)
        return replace(
            c,
            step_title=f"card {n} of {state.public.get('pack', 0)}: {title}",
            date=f"Day {d}, turn {t} of {activation.TURNS_PER_DAY}",
        )

    def advance_events(
        self, state: GameState, dice: Dice, to: str | None = None, limit: int = 200
    ) -> list[Event]:
        """End the activation: turn the next card, or begin a new turn when the pack is spent."""
        if to is None:
            nxt = activation.turn_card_events(
                state, list(state.secret.get("deck", ())), list(state.public.get("turned", ()))
            )
            if nxt:
                s = apply_all(state, nxt, self.reducers)
                ph, st = self.current(s)
                return [*nxt, clock_set(self.clock_for(s, ph, st, s.clock.turn), rule="12.3")]
        return super().advance_events(state, dice, to=to, limit=limit)

    def preview(self, state: StateLike, order: Any) -> Any:
        """Exact previews; ``done`` previews the next activation card (§12)."""
        if order.verb in ("done", "advance"):
            return activation.next_card(state)
        return super().preview(state, order)

    def on_new_turn(self, state: GameState, turn: int, dice: Dice) -> list[Event]:
        arrived = activation.arrival_events(state, turn)  # §10: before the shuffle
        return arrived + activation.new_turn_events(apply_all(state, arrived), turn, dice)

    def is_over(self, state: GameState) -> bool:
        last = state.scenario.get("turns") or activation.TURNS_PER_DAY
        if state.clock.turn > int(last):
            return True
        return bool(victory.left_battlefield(state))  # R20a

    def outcome(self, state: GameState) -> Any:
        return victory.outcome(state)["text"]

    def evaluation(self) -> Any:
        """Bots' knowledge of this rule set (``evaluation.py``)."""
        from owsnb.rules.opart import evaluation

        return evaluation

    # -- views: the table is open (the deck order is secret, and views never carry secrets) ---
    def view_unit(self, state: GameState, unit: Unit, side: str) -> Unit | None:
        return unit

    def unit_detected(self, state: GameState, unit: Unit, side: str) -> bool:
        """Every stand of the other side is known: the table is open (what a stand can see is
        line of sight, §14, judged when it attacks)."""
        return unit.side != side

    # -- presentation --------------------------------------------------------------------------
    presentation = present.PRESENTATION
    """What the table draws of Operational Art (:mod:`owsnb.rules.opart.present`)."""

    def guide(self) -> Any:
        """The briefing's standing, the step coach's phrases (``guide.py``)."""
        from owsnb.rules.opart import guide

        return guide

    def observation_string(self, view: Any) -> str:
        units = ", ".join(
            f"{u.id}@{view.map.label(u.hex)}:{u.steps}" for u in view.units.values() if u.hex
        )
        return (
            f"{view.side} | {view.clock} | morale {dict(view.public.get('morale', {}))} | {units}"
        )

    def facing_names(self, state: StateLike) -> tuple[str, ...]:
        """Compass names of facings on this map."""
        return direction_names(state.map.offset.orientation)

    def describe(self) -> list[dict[str, str]]:
        """Every option with its default and the rule or ruling it settles (for display)."""
        return [
            {"option": o.name, "default": repr(o.default), "rule": o.rule, "what": o.doc}
            for o in self.option_list
        ]
