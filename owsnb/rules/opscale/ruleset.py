"""The Operational Scale rule set: sequence of play, options, setup, automatic phases, view policy.

Turn (TS): 1 Income / Event (automatic, not on Turn 1) · 2 Production (turns 1, 6, 11...) ·
3 Supply (automatic) · 4 Movement · 5 Combat · 6 Deployment (turns 5, 10, 15...). Each phase is
played by every player in the scenario's side order (ruling R1); neutral sides never act.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from owsnb.kernel import Dice, IllegalOrderError, Option, Phase, RuleSet, SequenceOfPlay, Step, Unit
from owsnb.kernel.data import freeze, thaw
from owsnb.kernel.events import Event, note, side_set, state_set, unit_move, unit_set
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.state import UMPIRE, GameState, StateLike
from owsnb.rules.opscale import decks, present
from owsnb.rules.opscale.board import alive_on_map, domain, players
from owsnb.rules.opscale.combat_orders import (
    Clear,
    Engage,
    Fight,
    Play,
    Retaliate,
    Round,
    Surrender,
    Tactical,
    Withdraw,
)
from owsnb.rules.opscale.economy import (
    control_of,
    event_drawn,
    force_total,
    has_income,
    income,
    is_deployment_turn,
    is_production_turn,
    on_battlefield,
    supply_cost,
)
from owsnb.rules.opscale.editor import EDITOR
from owsnb.rules.opscale.engagement import Report, Tally, close_events, record, retaliation_events
from owsnb.rules.opscale.experience import BONUSES, bonus_for, eligible
from owsnb.rules.opscale.movement_orders import Disembark, Embark, Move, Pack, Recon, SetUp, Sortie
from owsnb.rules.opscale.orders import Award, Buy, Deploy
from owsnb.rules.opscale.scoring import action_points
from owsnb.rules.opscale.tables import load_tables
from owsnb.rules.opscale.units import validate_unit_data

__all__ = ["OpScale", "OPTIONS"]

OPTIONS = (
    Option(
        "supply_rounding",
        "half-up",
        "how 10% of the Force Total rounds to the nearest 1 (halves up, half to even, or down)",
        ("half-up", "half-even", "down"),
        "R2",
    ),
    Option(
        "supply_deficit",
        "none",
        "Supply Deficit penalty (lost from the aid): none (recorded only) or -1 initiative "
        "while in deficit (placeholder)",
        ("none", "initiative"),
        "R3",
    ),
    Option(
        "events",
        True,
        "draw and carry out an Event Card on a D10 of 3 or less in the Income / Event Phase",
        (),
        "TS.1",
    ),
    Option(
        "initiative_bonus_scope",
        "highest",
        "how the declared units' experience initiative bonuses combine for a side",
        ("highest", "sum", "lead"),
        "R5",
    ),
    Option(
        "combat_round",
        "both-sides",
        "a combat round is both sides firing (initiative side first) or one side's volley",
        ("both-sides", "single-volley"),
        "R6",
    ),
    Option(
        "natural_19",
        "auto-hit",
        "a natural 19 always hits with Double Intensity, or doubles only a hit",
        ("auto-hit", "if-hit"),
        "R7",
    ),
    Option(
        "double_intensity",
        "intensity",
        "Double Intensity doubles the Intensity die, or Intensity + DI",
        ("intensity", "total"),
        "R7",
    ),
    Option(
        "retarget",
        True,
        "a unit whose target is destroyed fires at another enemy of the engagement",
        (),
        "R11",
    ),
    Option(
        "multiple_secondaries",
        False,
        "a unit fires every declared secondary weapon, not just one",
        (),
        "R12",
    ),
    Option(
        "crew_damage",
        "track",
        "pierced hits also hurt the crew (crew at 0: unit lost) — a placeholder for the lost rules",
        ("track", "off"),
        "R15",
    ),
    Option(
        "withdrawal",
        True,
        "either side may withdraw from an engagement (the other earns experience)",
        (),
        "R16",
    ),
    Option(
        "auto_retaliate",
        False,
        "player defenders retaliate automatically with every unit in reach (solo play)",
        (),
        "OES.2",
    ),
    Option(
        "surrender",
        True,
        "engaged units may surrender (conditional or unconditional) and be captured",
        (),
        "R35",
    ),
    Option("max_fight_rounds", 20, "the most rounds one 'fight' order resolves", (), "OES.10"),
    Option(
        "experience_checks",
        True,
        "surviving crews and infantry roll for experience after each engagement",
        (),
        "OES.11",
    ),
    Option(
        "experience_stacking",
        True,
        "the same experience bonus can be earned twice and adds up",
        (),
        "R17",
    ),
    Option(
        "surrender_bonus_to",
        "surrendering",
        "who scores the 50 for a conditional surrender negotiated when nearly defeated",
        ("surrendering", "none"),
        "R19",
    ),
    Option(
        "network_scope",
        "majority",
        "Command Network penalties apply when the majority, any, or the first of a side's "
        "declared units is beyond the network",
        ("majority", "any", "lead"),
        "R25",
    ),
    Option(
        "engineer_reading",
        "at-or-above",
        "how the engineer table reads: D10 at or above the number ('No Roll' = automatic "
        "success) or at or under it ('No Roll' = no further attempt)",
        ("at-or-above", "roll-under"),
        "R21",
    ),
    Option(
        "deployment_radius",
        1,
        "staged units deploy within this many hexes of a friendly Command Post, Forward HQ or "
        "controlled city",
        (),
        "R30",
    ),
    Option(
        "open_unit_cards",
        True,
        "enemy Unit Cards are open (Endurance, crew, experience visible)",
        (),
        "R41",
    ),
    Option(
        "sudden_death",
        True,
        "a player with no unit left (on the map, in transit or staged) loses at once",
        (),
        "R42",
    ),
)


HANDLERS = (
    Buy(),
    Move(),
    Sortie(),
    Embark(),
    Disembark(),
    SetUp(),
    Pack(),
    Recon(),
    Engage(),
    Retaliate(),
    Round(),
    Fight(),
    Withdraw(),
    Surrender(),
    Play(),
    Clear(),
    Deploy(),
    Award(),
    Tactical(),
)
"""One handler per order verb, from Production (TS.2) to Deployment (TS.6) and the umpire's."""


class OpScale(RuleSet):
    """The Operational Scale engagement system (from its player aids)."""

    name = "opscale"
    title = "Operational Scale (player-aid engagement system)"
    version = "1"
    sequence = SequenceOfPlay(
        (
            Phase(
                "1",
                "Income / Event",
                (
                    Step(
                        "1",
                        "Collect income, draw a Command Card, event check",
                        actors="none",
                        auto=True,
                        rule="TS.1",
                    ),
                ),
                rule="TS.1",
            ),
            Phase(
                "2",
                "Production",
                (
                    Step(
                        "2",
                        "Purchase and stage units, fortifications, structures",
                        actors="all",
                        verbs=("buy",),
                        rule="TS.2",
                    ),
                ),
                rule="TS.2",
            ),
            Phase(
                "3",
                "Supply",
                (Step("3", "Pay 10% of Force Total", actors="none", auto=True, rule="TS.3"),),
                rule="TS.3",
            ),
            Phase(
                "4",
                "Movement",
                (
                    Step(
                        "4",
                        "Move, declare sorties, transport, set up or pack artillery",
                        actors="all",
                        verbs=("move", "sortie", "embark", "disembark", "setup", "pack", "recon"),
                        rule="TS.4",
                    ),
                ),
                rule="TS.4",
            ),
            Phase(
                "5",
                "Combat",
                (
                    Step(
                        "5",
                        "Engagements (Operational Engagement Sequence)",
                        actors="all",
                        verbs=("engage", "retaliate", "round", "fight", "clear"),
                        rule="TS.5",
                    ),
                ),
                rule="TS.5",
            ),
            Phase(
                "6",
                "Deployment",
                (
                    Step(
                        "6",
                        "Place staged units and structures",
                        actors="all",
                        verbs=("deploy",),
                        rule="TS.6",
                    ),
                ),
                rule="TS.6",
            ),
        )
    )
    option_list = OPTIONS
    editor = EDITOR  # what the scenario editor needs (editor.py)
    spelling = {"defence": "defense"}  # data keys as the rule book spells them

    def __init__(self) -> None:
        super().__init__(HANDLERS)

    # -- data -------------------------------------------------------------------------------------
    def default_tables(self) -> dict[str, Any]:
        return {**load_tables(), "unit_types": {}, "production": {}}

    def validate_unit(
        self, kind: str, data: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        return validate_unit_data(data, BONUSES)

    # -- scenario -----------------------------------------------------------------------------------
    def _catalog(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        cat = rules.get("catalog")
        if cat is None:
            return {}, []
        if isinstance(cat, Mapping):
            types = dict(cat.get("types", cat))
        else:
            base = (
                Path(state.scenario.get("file") or ".").parent
                if state.scenario.get("file")
                else Path.cwd()
            )
            path = (base / str(cat)).resolve()
            try:
                with open(path, encoding="utf-8") as fh:
                    data = yaml.safe_load(fh)
            except (OSError, yaml.YAMLError) as exc:
                return {}, [("rules.catalog", f"cannot read catalog {cat!r}: {exc}")]
            types = dict((data or {}).get("types", {}))
        problems = []
        out = {}
        for key, t in types.items():
            if not isinstance(t, Mapping):
                problems.append(
                    (f"rules.catalog.{key}", "a unit type is a mapping (name, steps, data)")
                )
                continue
            norm, errs = validate_unit_data(t.get("data", {}), BONUSES)
            problems += [(f"rules.catalog.{key}.data.{p}", m) for p, m in errs]
            out[key] = {"name": t.get("name", key), "steps": int(t.get("steps", 1)), "data": norm}
        return out, problems

    def validate_scenario(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        known = {"neutral", "currency", "catalog", "production", "deployment_zones", "objectives"}
        for k in rules:
            if k not in known:
                problems.append(
                    (f"rules.{k}", f"unknown key; opscale reads {', '.join(sorted(known))}")
                )
        for s in rules.get("neutral", ()):
            if s not in state.sides:
                problems.append(("rules.neutral", f"no side {s!r}"))
        types, errs = self._catalog(state, rules)
        problems += errs
        for side, lst in (rules.get("production") or {}).items():
            if side not in state.sides:
                problems.append((f"rules.production.{side}", f"no side {side!r}"))
            for t in lst or ():
                if t not in types:
                    problems.append(
                        (
                            f"rules.production.{side}",
                            f"unknown unit type {t!r} (not in rules.catalog)",
                        )
                    )
        for side, lst in (rules.get("deployment_zones") or {}).items():
            for lab in lst or ():
                try:
                    state.map.hex(lab)
                except Exception as exc:  # noqa: BLE001 - reported as a scenario problem
                    problems.append((f"rules.deployment_zones.{side}", str(exc)))
        for i, ob in enumerate(rules.get("objectives") or ()):
            if ob.get("kind") not in ("primary", "secondary"):
                problems.append((f"rules.objectives[{i}].kind", "primary or secondary"))
            if ob.get("side") not in state.sides:
                problems.append((f"rules.objectives[{i}].side", f"no side {ob.get('side')!r}"))
            try:
                state.map.hex(str(ob.get("hex")))
            except Exception as exc:  # noqa: BLE001
                problems.append((f"rules.objectives[{i}].hex", str(exc)))
        for i, u in enumerate(state.units.values()):
            half = int(u.data.get("half_endurance", 0))
            if half >= u.max_steps and u.max_steps > 1:
                problems.append(
                    (
                        f"units[{i}].data.half_endurance",
                        f"{u.id}: Half Endurance {half} must be below its Endurance "
                        f"{u.max_steps} (catalog 'steps')",
                    )
                )
        return problems

    def setup(self, state: GameState, rules: Mapping[str, Any]) -> GameState:
        types, _ = self._catalog(state, rules)
        neutral = list(rules.get("neutral", ()))
        public = dict(thaw(state.public))
        public.update(
            neutral=neutral,
            engagements=0,
            objectives=list(rules.get("objectives") or ()),
            objectives_done=[],
            deployment_zones={k: list(v) for k, v in (rules.get("deployment_zones") or {}).items()},
        )
        sides = {}
        for name, s in state.sides.items():
            pub = dict(thaw(s.public))
            priv = dict(thaw(s.private))
            if name not in neutral:
                pub.setdefault("score", 0)
                pub.setdefault("hand_size", 0)
                pub.setdefault("deficit", 0)
                priv.setdefault("currency", int((rules.get("currency") or {}).get(name, 0)))
                priv.setdefault("hand", [])
            sides[name] = replace(s, public=freeze(pub), private=freeze(priv))
        tables = dict(state.tables)
        tables["unit_types"] = freeze(types)
        tables["production"] = freeze(
            {k: list(v or ()) for k, v in (rules.get("production") or {}).items()}
        )
        state = state.evolve(public=public, sides=sides, tables=tables)
        return self._start(state)

    def _start(self, state: GameState) -> GameState:
        """The clock starts at the first step with actors; the first turn's Income / Event Phase is
        not played (starting funds come from the scenario); Supply is paid if it comes before."""
        turn = state.clock.turn
        for phase, step in self.sequence.walk(state.options):
            if step.key == "1":
                continue
            state = replace(state, clock=self.clock_for(state, phase, step, turn))
            if step.auto:
                dice = Dice(state.rng)
                state = apply_all(state, self.on_enter(state, phase, step, dice))
                state = replace(state, rng=dice.state)
                continue
            if state.clock.active:
                return state
        return state

    # -- who acts ---------------------------------------------------------------------------------
    def actors(
        self, state: GameState, phase: Phase, step: Step, turn: int | None = None
    ) -> tuple[str, ...]:
        """Players acting in *step* of *turn* (none in automatic steps and out-of-schedule phases)."""
        turn = state.clock.turn if turn is None else turn
        if step.auto:
            return ()
        ps = players(state)
        if step.key == "2":
            return (
                ps
                if is_production_turn(turn, int(state.table("economy").get("production_every", 5)))
                else ()
            )
        if step.key == "6":
            # every player takes the Deployment phase of a deployment turn, staged units or not:
            # who acts is public, and staged units are private (R41), so a player with none left
            # to place says done like the others (the clock must not tell who holds units)
            if not is_deployment_turn(turn, int(state.table("economy").get("deployment_every", 5))):
                return ()
            return ps
        return ps

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Dice) -> Any:
        adj = super().adjudicate(state, order, args, dice)
        if not state.options.get("open_unit_cards", True):
            adj.events = closed_cards(state, adj.events)
            dice.events[:] = closed_cards(state, dice.events)  # the rolls, committed first
        return adj

    def resolve_hidden(
        self, state: GameState, order: Any, args: Any, refusal: Any, dice: Dice
    ) -> Any:
        adj = super().resolve_hidden(state, order, args, refusal, dice)
        if not state.options.get("open_unit_cards", True):
            adj.events = closed_cards(state, adj.events)
            dice.events[:] = closed_cards(state, dice.events)  # the rolls, committed first
        return adj

    def check(self, state: StateLike, order: Any) -> dict[str, Any]:
        args = super().check(state, order)
        if order.verb == "done":
            rec = record(state)
            if rec is not None and rec["stage"] == "rounds":
                raise IllegalOrderError(
                    f"engagement {rec['n']} at {rec['hex']} is open: order round or fight, "
                    "withdraw, surrender, or play a "
                    "Command Card that ends it",
                    code="engagement-open",
                    rule="OES.10",
                    order=order,
                )
        return args

    def legal_orders(self, state: StateLike, side: str) -> list:
        specs = super().legal_orders(state, side)
        rec = record(state)
        if rec is not None and rec["stage"] == "rounds":
            specs = [s for s in specs if s.verb != "done"]
        return specs

    def done_events(self, state: GameState, side: str, dice: Dice) -> list[Event]:
        rec = record(state)
        if rec is not None and rec["stage"] == "retaliate" and side == rec["defender"]:
            events, _ = retaliation_events(state, rec, [], dice)
            return events
        return super().done_events(state, side, dice)

    def on_leave(self, state: GameState, dice: Dice) -> list[Event]:
        """R44: an engagement still open when the Combat step ends is broken off."""
        rec = record(state)
        if rec is None:
            return []
        t = Tally(state, dice)
        close_events(t, rec, Report("broken off"), "broken off when the Combat Phase ended")
        return t.events

    # -- automatic phases -------------------------------------------------------------------------
    def on_enter(self, state: GameState, phase: Phase, step: Step, dice: Dice) -> list[Event]:
        if self.is_over(state):
            return []
        if step.key == "1" and has_income(state.clock.turn):
            return self._income_phase(state, dice)
        if step.key == "3":
            return self._supply_phase(state)
        return []

    def _draw(self, t: Tally, deck: str, dice: Dice) -> str | None:
        """The top card of *deck*; an empty pile is reshuffled from the cards in no hand (TS.1).
        ``None`` when none is left (every command card held): nothing is drawn."""
        decks_now = dict(thaw(t.state.secret.get("decks", {})))
        pile = list(decks_now.get(deck, ()))
        if not pile:
            table = t.state.table("cards")["command" if deck == "command" else "events"]
            held = {c for s in t.state.sides.values() for c in s.private.get("hand", ())}
            rest = [c for c in decks.build_deck(table) if c not in held]
            if not rest:
                t.add(note(f"the {deck} deck is exhausted: no card is drawn", rule="TS.1"))
                return None
            pile = dice.shuffle(
                rest,
                purpose=f"shuffle the {deck} deck",
                rule="TS.1",
                actor=None,
                visible_to=(),
            )
        card = pile.pop(0)
        decks_now[deck] = pile
        t.add(state_set("secret", {"decks": decks_now}, rule="TS.1"))
        return card

    def _income_phase(self, state: GameState, dice: Dice) -> list[Event]:
        t = Tally(state, dice)
        econ = state.table("economy")
        for side in players(state):
            amount, lines = income(t.state, side)
            cash = int(t.state.sides[side].private.get("currency", 0)) + amount
            t.add(
                side_set(side, "private", {"currency": cash}, rule="TS.1"),
                note(
                    f"{side} collects {amount} income "
                    f"({'; '.join(f'{a} {n}' for a, n in lines)}): {cash} currency",
                    visible_to=side,
                    rule="TS.1",
                ),
            )
            for _ in range(int(econ.get("command_cards_per_turn", 1))):
                card = self._draw(t, "command", dice)
                if card is None:  # every command card is in a hand (TS.1)
                    break
                hand = [*t.state.sides[side].private.get("hand", ()), card]
                title = decks.card_def(state.table("cards"), "command", card)["title"]
                t.add(
                    side_set(side, "private", {"hand": hand}, rule="TS.1"),
                    side_set(side, "public", {"hand_size": len(hand)}, rule="TS.1"),
                    note(f"{side} draws Command Card {title}", visible_to=side, rule="TS.1"),
                    note(
                        f"{side} draws a Command Card",
                        visible_to=[s for s in state.sides if s != side],
                        rule="TS.1",
                    ),
                )
            if not state.options.get("events", True):
                continue
            thr = int(econ.get("event_threshold", 3))
            r = dice.roll(
                10,
                purpose=f"event check for {side} (Event Card on {thr} or less)",
                rule="TS.1",
                actor=side,
                visible_to=None,
            )
            if event_drawn(r, thr):
                card = self._draw(t, "events", dice)
                if card is not None:
                    self._event(t, side, card, dice)
        return t.events

    def _event(self, t: Tally, side: str, card: str, dice: Dice) -> None:
        """Carry out an Event Card (PLACEHOLDER deck, ruling R32); executed events are public."""
        d = decks.card_def(t.state.table("cards"), "events", card)
        eff, value = d.get("effect"), int(d.get("value", 0) or 0)
        t.add(note(f"Event for {side}: {d['title']}", rule="TS.1", card=card))
        if eff == "currency":
            cash = max(0, int(t.state.sides[side].private.get("currency", 0)) + value)
            t.add(side_set(side, "private", {"currency": cash}, rule="TS.1"))
        elif eff == "supply_relief":
            t.add(side_set(side, "public", {"supply_relief": True}, rule="TS.1"))
        elif eff == "experience":
            xp = t.state.table("experience")
            cands = [
                u.id
                for u in t.state.units.values()
                if u.side == side and alive_on_map(u) and eligible(u, xp)
            ]
            if cands:
                uid = dice.choice(
                    cands,
                    purpose=f"unit gaining experience from {d['title']}",
                    rule="EXP.2",
                    actor=side,
                    visible_to=None,
                )
                gained = list(t.state.units[uid].data.get("experience", ()))
                for _ in range(max(1, value)):
                    b = bonus_for(
                        dice.roll(
                            10,
                            purpose=f"experience roll for {uid} (EXP.1)",
                            rule="EXP.2",
                            actor=side,
                            visible_to=None,
                        ),
                        xp,
                    )
                    if b != "none":
                        gained.append(b)
                t.add(unit_set(uid, data={"experience": gained}, rule="EXP.2"))

    def _supply_phase(self, state: GameState) -> list[Event]:
        t = Tally(state)
        rate = int(state.table("economy").get("supply_rate_percent", 10))
        for side in players(state):
            total, _ = force_total(t.state.units.values(), side)
            cost = supply_cost(total, rate, state.options.get("supply_rounding", "half-up"))
            pub = t.state.sides[side].public
            if pub.get("supply_relief"):
                t.add(
                    side_set(side, "public", {"supply_relief": None, "deficit": 0}, rule="TS.3"),
                    note(f"{side} pays no supply this turn (Event Card)", rule="TS.3"),
                )
                continue
            cash = int(t.state.sides[side].private.get("currency", 0))
            paid = min(cash, cost)
            deficit = cost - paid
            t.add(
                side_set(side, "private", {"currency": cash - paid}, rule="GS.1"),
                side_set(side, "public", {"deficit": deficit, "force_total": total}, rule="GS.1"),
                note(
                    f"{side} pays {paid} supply ({rate}% of Force Total {total})"
                    + (
                        f"; SUPPLY DEFICIT of {deficit} (penalty: "
                        f"{state.options.get('supply_deficit', 'none')}, ruling R3)"
                        if deficit
                        else ""
                    ),
                    rule="GS.1",
                ),
            )
        return t.events

    def on_new_turn(self, state: GameState, turn: int, dice: Dice) -> list[Event]:
        t = Tally(state, dice)
        for u in state.units.values():
            m = u.markers & {"moved", "attacked", "sortie"}
            if not m:
                continue
            if "sortie" in m and u.steps > 0 and u.data.get("base"):
                t.add(unit_move(u.id, state.map.hex(u.data["base"]), rule="TS.4"))
            t.add(unit_set(u.id, markers=u.markers - m, visible_to=None, rule="TS"))
        last = state.scenario.get("turns")
        final = last is not None and bool(last) and turn > int(last)
        self._objectives(t, final)
        return t.events

    def _objectives(self, t: Tally, final: bool) -> None:
        done = list(t.state.public.get("objectives_done", ()))
        for ob in t.state.public.get("objectives", ()):
            name = ob.get("name") or f"{ob['side']} {ob['kind']} {ob['hex']}"
            if name in done or (ob.get("when", "end") == "end" and not final):
                continue
            h = t.state.map.hex(str(ob["hex"]))
            if self.holds(t.state, ob["side"], h):
                done.append(name)
                t.add(state_set("public", {"objectives_done": done}, rule="SC.9"))
                t.score(
                    ob["side"],
                    action_points(f"{ob['kind']}_objective", t.state.table("scoring")),
                    f"{ob['kind']} objective: {name}",
                    "SC.10" if ob["kind"] == "primary" else "SC.9",
                )

    @staticmethod
    def holds(state: StateLike, side: str, h: Any) -> bool:
        """Does *side* hold hex *h*? (its ground unit there and no enemy's; for a city, its control)."""
        here = [
            u
            for u in state.units.values()
            if alive_on_map(u) and u.hex == h and domain(u) == "ground"
        ]
        if any(u.side != side for u in here):
            return False
        info = state.map.hexes[h]
        return any(u.side == side for u in here) or (
            "city" in info.features and control_of(info) == side
        )

    # -- end --------------------------------------------------------------------------------------
    @staticmethod
    def wiped_out(state: GameState) -> list[str]:
        """Players with no unit left on the map, in transit or staged (sudden death, R42)."""
        if not state.options.get("sudden_death", True):
            return []
        return [
            side
            for side in players(state)
            if not any(
                u.side == side and (on_battlefield(u) or u.box == "staged")
                for u in state.units.values()
            )
        ]

    def is_over(self, state: GameState) -> bool:
        return super().is_over(state) or bool(self.wiped_out(state))

    def outcome(self, state: GameState) -> Any:
        scores = {s: int(state.sides[s].public.get("score", 0)) for s in players(state)}
        gone = self.wiped_out(state)
        left = [s for s in players(state) if s not in gone]
        if gone:  # R42: a player with no unit left loses at once, whatever the score
            tally = ", ".join(f"{s} {v}" for s, v in sorted(scores.items(), key=lambda kv: -kv[1]))
            lost = " and ".join(gone)
            best = max((scores[x] for x in left), default=None)
            top = [x for x in left if scores[x] == best]
            head = f"{top[0]} wins" if len(top) == 1 else "drawn"  # among the players left
            return f"{head}: {lost} has no unit left (sudden death, ruling R42); score {tally}"
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            lead = "drawn"
        else:
            lead = f"{ranked[0][0]} leads" if not self.is_over(state) else f"{ranked[0][0]} wins"
        return (
            f"{lead}: "
            + ", ".join(f"{s} {v}" for s, v in ranked)
            + " (victory by score, ruling R42)"
        )

    def evaluation(self) -> Any:
        """Bots' knowledge of this rule set (``evaluation.py``)."""
        from owsnb.rules.opscale import evaluation

        return evaluation

    # -- view policy ------------------------------------------------------------------------------
    def view_unit(self, state: GameState, unit: Unit, side: str) -> Unit | None:
        """Staged units are private to their owner; deployed units are public (digest §4); with
        closed cards an enemy sees only the card's face (category, Cost, domain, damaged side)."""
        if side == UMPIRE or unit.side == side:
            return unit
        if unit.box == "staged":
            return None
        if state.options.get("open_unit_cards", True):
            return unit
        keep = {
            k: unit.data[k]
            for k in ("category", "cost", "domain", "half_endurance")
            if k in unit.data
        }
        shown = (
            unit.steps if unit.steps <= int(unit.data.get("half_endurance", 0)) else unit.max_steps
        )
        return replace(unit, data=freeze(keep), steps=shown)

    # -- presentation -----------------------------------------------------------------------------
    presentation = present.PRESENTATION
    """What the table draws (:mod:`owsnb.rules.opscale.present`)."""

    def guide(self) -> Any:
        """The briefing's standing, the step coach's phrases (``guide.py``)."""
        from owsnb.rules.opscale import guide

        return guide

    def observation_string(self, view: Any) -> str:
        units = ", ".join(
            f"{u.id}@{view.map.label(u.hex) if u.hex is not None else u.box}:{u.steps}"
            for u in view.units.values()
        )
        return f"{view.side} | {view.clock} | {units}"


CARD_FACE = ("category", "cost", "domain", "half_endurance")
"""What a closed Unit Card shows an enemy (R41): its category, Cost, domain and damaged side."""

CARD_ROLLS = ("OES.3", "OES.4", "OES.6", "OES.7", "OES.8", "EXP.1", "EXP.2")
"""Rolls whose purpose or result tells a card's ratings (initiative modifiers, attack ratings and
marksmanship, intensity and checks, experience)."""


def closed_cards(state: GameState, events: list[Event]) -> list[Event]:
    """Events as the option ``open_unit_cards: false`` lets an enemy see them (R41: only the
    card's face). A public change of a unit's card values (Endurance, crew, experience...) goes to
    its owner only (and, on a capture, to its captor), with a public copy of the face changes
    (position, box, markers, side, face data); the rolls that tell a card's ratings go to the side
    that rolls them only. Nothing else changes: the truth is the same.

    >>> from owsnb.kernel.events import unit_set
    >>> from owsnb.kernel.state import SideState, MapState
    >>> from owsnb.kernel.data import FrozenDict
    >>> s = GameState("opscale", MapState(FrozenDict()), FrozenDict(blue=SideState("blue")),
    ...               units=FrozenDict({"B-1": Unit("B-1", "blue", steps=4, max_steps=4)}))
    >>> out = closed_cards(s, [unit_set("B-1", steps=3, markers={"damaged"}, rule="OES.9")])
    >>> [(sorted(e.data["changes"]), e.visible_to) for e in out]
    [(['markers', 'steps'], frozenset({'blue'})), (['markers'], None)]
    """
    out: list[Event] = []
    cur = state
    for e in events:
        if e.kind == "die" and e.visible_to is None and e.rule in CARD_ROLLS:
            actor = e.data.get("actor")
            e = replace(e, visible_to=frozenset({actor}) if actor else frozenset())
        elif e.kind == "unit.set" and e.visible_to is None and e.data["id"] in cur.units:
            ch = dict(e.data["changes"])
            data = dict(ch.get("data") or {})
            face = {k: ch[k] for k in ("hex", "box", "markers", "side") if k in ch}
            face_data = {k: v for k, v in data.items() if k in CARD_FACE}
            secret = set(ch) - set(face) - {"data"} or set(data) - set(face_data)
            if secret:
                owner = cur.units[e.data["id"]].side
                seen = {owner, ch["side"]} if "side" in ch else {owner}
                out.append(replace(e, visible_to=frozenset(seen)))
                cur = apply_all(cur, [out[-1]])
                if face or face_data:
                    if face_data:
                        face["data"] = face_data
                    out.append(unit_set(e.data["id"], rule=e.rule, **face))
                    cur = apply_all(cur, [out[-1]])
                continue
        out.append(e)
        cur = apply_all(cur, [e])
    return out
