"""The Combat Operations rule set: sequence of play, options, set-up, automatic steps, view policy.

Game turn (4.0): 1 both sides' supply is determined; then the scenario Attacker plays steps 2-6
(2 draw a reinforcement chit, 3 move, 4 combat, 5 exploitation movement, 6 exploitation combat),
then the Defender does the same. Before turn 1 both players secretly assign reinforcements to
chits and set up, the Defender first (3.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from owsnb.kernel.data import freeze
from owsnb.kernel.dice import Dice
from owsnb.kernel.errors import IllegalOrderError, InvalidHexError
from owsnb.kernel.events import Event, note, side_set, state_set, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import DONE, Adjudication, Option, OrderHandler, RuleSet
from owsnb.kernel.sequence import Phase, SequenceOfPlay, Step
from owsnb.kernel.state import UMPIRE, Clock, GameState, MapState, StateLike, Unit
from owsnb.kernel.view import masked
from owsnb.rules.combatops import chits, combat, present, victory
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.editor import EDITOR
from owsnb.rules.combatops.orders import HANDLERS, Attack, attack_eligible, soak_off_owed, step_no
from owsnb.rules.combatops.supply import Supply
from owsnb.rules.combatops.terrain import hexid, parse_hex

__all__ = ["CombatOps", "OPTIONS", "SEQUENCE"]


def _half(key: str, who: str, title: str) -> Phase:
    return Phase(
        key,
        title,
        (
            Step(
                f"{key}2",
                "Draw a reinforcement chit",
                actors=who,
                verbs=("draw",),
                rule="4.0, 14.0",
            ),
            Step(
                f"{key}3",
                "Movement",
                actors=who,
                verbs=("move", "enter", "replace", "breakdown", "build", "demolish"),
                rule="8.0",
            ),
            Step(f"{key}4", "Combat", actors=who, verbs=("attack", "occupy"), rule="11.0"),
            Step(f"{key}5", "Exploitation movement", actors=who, verbs=("move",), rule="10.0"),
            Step(
                f"{key}6",
                "Exploitation combat",
                actors=who,
                verbs=("attack", "occupy"),
                rule="10.0",
            ),
            Step(f"{key}7", "End of half-turn", actors="none", auto=True, rule="6.0, 9.7, 15.0"),
        ),
    )


SEQUENCE = SequenceOfPlay(
    (
        Phase(
            "0",
            "Set-up",
            (
                Step(
                    "0.1",
                    "Assign reinforcements to chits",
                    actors="all",
                    mode="simultaneous",
                    verbs=("assign",),
                    rule="3.0, 14.0",
                ),
                Step(
                    "0.2",
                    "Defender sets up",
                    actors="defender",
                    verbs=("place", "breakdown", "build"),
                    rule="3.0",
                ),
                Step(
                    "0.3",
                    "Attacker sets up",
                    actors="attacker",
                    verbs=("place", "breakdown", "build"),
                    rule="3.0",
                ),
            ),
        ),
        Phase(
            "1",
            "Supply",
            (
                Step(
                    "1",
                    "Determine the supply of both sides",
                    actors="none",
                    auto=True,
                    rule="4.0, 7.0",
                ),
            ),
        ),
        _half("A", "attacker", "Attacker's half-turn"),
        _half("D", "defender", "Defender's half-turn"),
    )
)

OPTIONS: tuple[Option, ...] = (
    Option(
        "supply_path",
        "toward",
        "7.1: each step of a supply line may not increase ('toward'), must decrease "
        "('strictly-toward') or may do anything to ('any') the distance to its source",
        ("toward", "strictly-toward", "any"),
        "7.1",
    ),
    Option(
        "supply_hq",
        "own-division",
        "5.1/7.1: units trace to their own (or attached) division's HQ, or to any "
        "friendly HQ in supply (digest E4)",
        ("own-division", "any"),
        "7.1",
    ),
    Option(
        "hq_zoc",
        True,
        "errata 3.0: HQs exert a ZOC like all other units (False: rule 5.0 as printed)",
        (),
        "5.0",
    ),
    Option(
        "swamp_entry",
        "full-ma",
        "9.3: a swamp costs the whole MA, so it can only be a move's first hex "
        "('full-ma'), or it takes all remaining MP ('all-remaining')",
        ("full-ma", "all-remaining"),
        "9.3",
    ),
    Option(
        "clear_bonus_hex",
        "own",
        "9.1: the clear-terrain +1 of armor/cav/AT/AA depends on the unit's own hex "
        "('own', digest review #11) or, when attacking, on the target hex ('target')",
        ("own", "target"),
        "9.1",
    ),
    Option(
        "swamp_attack",
        "non-infantry",
        "9.3 vs TEC: attacks into swamp are quartered for non-infantry units (rule "
        "text) or for all units (TEC)",
        ("non-infantry", "all"),
        "9.3",
    ),
    Option(
        "modifier_order",
        "terrain-then-supply",
        "digest #10: add terrain modifiers before or after supply halving/quartering",
        ("terrain-then-supply", "supply-then-terrain"),
        "7.2",
    ),
    Option(
        "regiment_modifiers",
        "per-battalion",
        "digest #44: terrain modifiers apply once per battalion a regiment "
        "counter stands for, or once per counter",
        ("per-battalion", "per-counter"),
        "9.0",
    ),
    Option(
        "armor_shifts",
        "vulnerability-replaces-bonus",
        "digest #16: when Armor Vulnerability applies, Armor Bonus "
        "does not (the 13.3 example), or both apply",
        ("vulnerability-replaces-bonus", "both"),
        "13.3",
    ),
    Option(
        "loss_priority",
        "exhaust-priority",
        "13.3 vs 12.0 (digest E2): priority units take all losses until "
        "eliminated, or only the first hits",
        ("exhaust-priority", "first-hit"),
        "13.3",
    ),
    Option(
        "artillery_terrain_defense",
        False,
        "digest E3/#43: terrain modifies the defense of artillery in the "
        "attacked hex (default no: errata 7.0/9.1)",
        (),
        "13.4",
    ),
    Option(
        "artillery_supply",
        True,
        "digest omission 2: out-of-supply artillery supports with a quartered attack strength",
        (),
        "7.2",
    ),
    Option(
        "defensive_artillery",
        "auto",
        "13.4: every defending artillery unit in range that its owner has not held "
        "back supports ('auto'), or none does",
        ("auto", "none"),
        "13.4",
    ),
    Option(
        "end_chit",
        "half-turn",
        "15.0 (digest #31): the game ends after the half-turn of the player who drew the "
        "end chit, or after the whole game turn",
        ("half-turn", "game-turn"),
        "15.0",
    ),
    Option(
        "town_capture",
        "last-entered",
        "17.1 (digest #36): a town is captured by the side whose unit last entered "
        "it, or by the side occupying it at the end",
        ("last-entered", "occupy"),
        "17.1",
    ),
    Option(
        "exploit_supply",
        "every-hex",
        "10.0 (digest E12): an exploiting unit may not enter any hex out of supply, "
        "or only may not end there",
        ("every-hex", "end-hex"),
        "10.0",
    ),
    Option(
        "show_echelon",
        False,
        "2.1 (digest E5): face-down counters show type and movement only; True also shows "
        "regiment/battalion",
        (),
        "2.1",
    ),
)


class _Done(OrderHandler):
    """``done``, refused while a soak-off attack is still owed and possible (11.9)."""

    type = DONE

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if step_no(state) not in (4, 6) or order.side == UMPIRE:
            return
        atk = Attack()
        for h in soak_off_owed(state, order.side):
            adj = [
                u
                for u in state.units_of(order.side)
                if attack_eligible(state, u) and u.map_hex.distance(h) == 1
            ]
            tries = [adj] + [[u] for u in adj]
            for group in tries:
                if not group:
                    continue
                o = atk.type.make(
                    order.side, hex=state.map.label(h), **{"with": [u.id for u in group]}
                )
                try:
                    atk.validate(state, o, atk.type.bind(o, state, parse_hex=parse_hex))
                except IllegalOrderError:
                    continue
                raise IllegalOrderError(
                    f"soak-off: {hexid(state.map, h)} is adjacent to a unit that attacked and must be attacked too, "
                    f"e.g. '{o}' (11.9)",
                    code="soak-off-owed",
                    rule="11.9",
                    order=order,
                )


class CombatOps(RuleSet):
    """Combat Operations (BoneGames, Public Beta 1, 1997) with its errata and owsnb's rulings."""

    name = "combatops"
    title = "Combat Operations (Public Beta 1, with errata)"
    version = "1"
    sequence = SEQUENCE
    option_list = OPTIONS
    editor = EDITOR  # what the scenario editor needs (editor.py)
    spelling = {"defence": "defense"}  # data keys as the rule book spells them

    def __init__(self) -> None:
        super().__init__([*HANDLERS, _Done()])

    # -- data ----------------------------------------------------------------------------------
    def default_tables(self) -> dict[str, Any]:
        return {
            "crt": U.load_table("crt"),
            "terrain": U.load_table("terrain"),
            "unit_types": U.load_table("unit_types"),
        }

    def validate_unit(
        self, kind: str, data: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        return U.validate_counter(kind, data)

    def validate_scenario(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        sides = list(state.sides)
        for k in ("attacker", "defender"):
            if rules.get(k) not in sides:
                out.append((f"rules.{k}", f"must name a side ({', '.join(sides)})"))
        for side, heads in (rules.get("supply_heads") or {}).items():
            for i, h in enumerate(heads):
                try:
                    parse_hex(state.map, str(h))
                except ValueError as exc:
                    out.append((f"rules.supply_heads.{side}[{i}]", str(exc)))
        for side, rein in (rules.get("reinforcements") or {}).items():
            for letter, r in (rein or {}).items():
                if r.get("pass") not in (1, 2):
                    out.append(
                        (
                            f"rules.reinforcements.{side}.{letter}.pass",
                            "must be 1 (first half, '-') or 2 ('+')",
                        )
                    )
                for uid in r.get("units", ()):
                    u = state.units.get(uid)
                    if u is None:
                        out.append(
                            (f"rules.reinforcements.{side}.{letter}", f"no unit {uid!r} in units:")
                        )
                    elif u.box != "pool" or u.side != side:
                        out.append(
                            (
                                f"rules.reinforcements.{side}.{letter}",
                                f"{uid} must be a {side} unit in box 'pool'",
                            )
                        )
                if not r.get("units") and r.get("replacement") not in ("infantry", "armor"):
                    out.append(
                        (
                            f"rules.reinforcements.{side}.{letter}",
                            "give units: or replacement: infantry|armor",
                        )
                    )
        vic = rules.get("victory") or {}
        for i, t in enumerate(vic.get("towns", ())):
            try:
                parse_hex(state.map, str(t))
            except ValueError as exc:
                out.append((f"rules.victory.towns[{i}]", str(exc)))
        return out

    def setup(self, state: GameState, rules: Mapping[str, Any]) -> GameState:
        """Read the scenario's ``rules:`` block (sides' roles, chits, supply heads, set-up areas,
        reinforcements, victory) into the state; put the clock at the first set-up step."""
        att, dfn = rules["attacker"], rules["defender"]
        m = state.map
        norm = lambda xs: tuple(hexid(m, parse_hex(m, str(x))) for x in xs)  # noqa: E731
        owners = {}
        for side, nums in (
            rules.get("chits") or {"blue": [1, 2, 3, 4, 5], "red": [6, 7, 8, 9, 10]}
        ).items():
            for c in nums:
                owners[str(c)] = side
        all_chits = tuple(sorted(int(c) for c in owners))
        length = rules.get("length", "double")
        public = dict(state.public)
        public.update(
            {
                "attacker": att,
                "defender": dfn,
                "initiative": att,
                "length": length,
                "end_chit": rules.get("end_chit", 10 if length == "double" else None),
                "max_turns": int(rules.get("max_turns", 10 if length == "double" else 5)),
                "chits": all_chits,
                "chit_owners": owners,
                "cup": all_chits,
                "pass": 1,
                "drawn": (),
                "supply_heads": {s: norm(v) for s, v in (rules.get("supply_heads") or {}).items()},
                "setup_areas": dict(rules.get("setup_areas") or {}),
                "entry_hexes": {
                    s: self._entry(state, spec) for s, spec in (rules.get("entry") or {}).items()
                },
                "victory": dict(rules.get("victory") or {}),
                "bridges": {},
                "attacked": (),
                "pending_advance": None,
                "half_drawn": False,
            }
        )
        if rules.get("victory", {}).get("towns"):
            public["victory"]["towns"] = list(norm(rules["victory"]["towns"]))
        if rules.get("setup_bridge"):
            public["setup_bridge"] = dict(rules["setup_bridge"])
        sides = dict(state.sides)
        for side in state.sides:
            rein = {
                k: {
                    "pass": int(v.get("pass", 1)),
                    "units": tuple(v.get("units", ())),
                    "replacement": v.get("replacement"),
                    "text": v.get("text", ""),
                }
                for k, v in ((rules.get("reinforcements") or {}).get(side) or {}).items()
            }
            mine = [c for c in all_chits if owners[str(c)] == side]
            given = ((rules.get("assignment") or {}).get(side)) or {}
            table: dict[str, dict[str, str]] = {"1": {}, "2": {}}
            for pas in (1, 2):
                letters = sorted(k for k, v in rein.items() if v["pass"] == pas)
                free = [
                    c
                    for c in mine
                    if str(c) not in {str(given.get(x)) for x in letters if x in given}
                ]
                for letter in letters:
                    c = given.get(letter) or free.pop(0)
                    table[str(pas)][str(c)] = letter
            private = dict(state.sides[side].private)
            private.update(
                {
                    "reinforcements": rein,
                    "assign": table,
                    "received": (),
                    "lost": (),
                    "replacements": (),
                    "artillery_hold": (),
                    "baseline": victory.baseline(
                        u for u in state.units.values() if u.side == side and u.box != "pool"
                    ),
                }
            )
            sides[side] = replace(state.sides[side], private=freeze(private))
        state = state.evolve(public=public, sides=sides)
        state = state.evolve(secret=state.secret.set(control=self._control(state, {})))
        return super().setup(state, rules)

    def _entry(self, state: GameState, spec: Any) -> tuple[str, ...]:
        from owsnb.rules.combatops.terrain import map_info

        info = map_info(state.map)
        if isinstance(spec, str) and spec in ("north-edge", "south-edge", "west-edge", "east-edge"):
            if spec in ("north-edge", "south-edge"):
                row = (min if spec == "north-edge" else max)(info.rows.values())
                hexes = [h for h in info.hexes if info.rows[h] == row]
            else:
                col = (min if spec == "west-edge" else max)(info.cols.values())
                hexes = [h for h in info.hexes if info.cols[h] == col]
        else:
            hexes = [parse_hex(state.map, str(x)) for x in spec]
        return tuple(info.ids[h] for h in sorted(hexes, key=lambda h: (info.cols[h], info.rows[h])))

    # -- who acts ------------------------------------------------------------------------------
    def actors(
        self, state: GameState, phase: Phase, step: Step, turn: int | None = None
    ) -> tuple[str, ...]:
        a = step.actors
        if a in ("attacker", "defender"):
            return (state.public.get(a) or next(iter(state.sides)),)
        return super().actors(state, phase, step, turn)

    def clock_for(self, state: GameState, phase: Phase, step: Step, turn: int) -> Clock:
        c = super().clock_for(state, phase, step, turn)
        if phase.key == "0" and (turn > 1 or state.public.get("setup_done")):
            return replace(c, active=())
        if step.key == "0.3" and state.public.get("entry_hexes", {}).get(
            state.public.get("attacker")
        ):
            return replace(c, active=())  # 17.1: the attacker enters from the map edge instead
        return c

    # -- orders --------------------------------------------------------------------------------
    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Dice
    ) -> Adjudication:
        adj = super().adjudicate(state, order, args, dice)
        after = apply_all(state, adj.events, self.reducers)
        ctl = self._control(after, state.secret.get("control", {}))
        if ctl != dict(state.secret.get("control", {})):
            adj.events.append(state_set("secret", {"control": ctl}, rule="17.1"))
        return adj

    def _control(self, state: StateLike, old: Mapping[str, str]) -> dict[str, str]:
        """Town control (17.1): the side whose real unit last entered each victory town."""
        out = dict(old)
        for t in state.public.get("victory", {}).get("towns", ()):
            h = parse_hex(state.map, t)
            here = {
                u.side for u in state.units.values() if u.hex == h and u.alive and not U.is_dummy(u)
            }
            if len(here) == 1:
                out[t] = next(iter(here))
        return out

    def done_events(self, state: GameState, side: str, dice: Dice) -> list[Event]:
        """``done`` in a draw step draws the chit first (the draw is not optional, 4.0)."""
        if (
            step_no(state) == 2
            and not state.public.get("half_drawn")
            and side in state.clock.acting
        ):
            ev = chits.draw_events(state, side, dice)
            return ev + super().done_events(apply_all(state, ev, self.reducers), side, dice)
        return super().done_events(state, side, dice)

    # -- automatic steps -----------------------------------------------------------------------
    def on_enter(self, state: GameState, phase: Phase, step: Step, dice: Dice) -> list[Event]:
        key = step.key
        if key == "1":
            ev: list[Event] = []
            if not state.public.get("setup_done"):
                ev.append(state_set("public", {"setup_done": True}, rule="3.0"))
            return ev + self.supply_events(state)
        n = int(key[1]) if key[:1] in ("A", "D") else 0
        side = state.public.get("attacker" if key[:1] == "A" else "defender")
        if n == 2:
            return [state_set("public", {"half_drawn": False}, rule="4.0")]
        if n in (4, 6):
            ev = [state_set("public", {"attacked": (), "pending_advance": None}, rule="13.4")]
            for u in state.units.values():
                if u.has("supported"):
                    ev.append(
                        unit_set(
                            u.id,
                            markers=u.markers - {"supported"},
                            visible_to=combat.visibility_of(state, u),
                            rule="13.4",
                        )
                    )
            return ev
        if n == 5:
            ev = [state_set("public", {"pending_advance": None}, rule="10.0")]
            types = state.tables.get("unit_types", U.TYPES)
            for u in state.units_of(side):
                if (
                    u.hex is not None
                    and u.alive
                    and U.mechanized(u, types)
                    and not (u.markers & {"moved", "attacked", "entered"})
                ):
                    ev.append(
                        unit_set(
                            u.id,
                            markers=u.markers | {"exploit"},
                            visible_to=combat.visibility_of(state, u),
                            rule="10.0",
                        )
                    )
            return ev
        if n == 7:
            return self.end_of_half_events(state, side, key[:1])
        return []

    def supply_events(self, state: GameState) -> list[Event]:
        """Step 1: the supply status of every unit of both sides (7.0); owners see their own."""
        ev: list[Event] = []
        for side in state.sides:
            for uid, ok in Supply(state, side).status().items():
                u = state.units[uid]
                if bool(u.data.get("oos")) == (not ok):
                    continue
                ev.append(unit_set(uid, data={"oos": not ok}, visible_to=side, rule="7.0"))
                ev.append(
                    note(
                        f"{uid} is {'in' if ok else 'OUT OF'} supply",
                        visible_to=combat.visibility_of(state, u),
                        rule="7.1",
                    )
                )
        return ev

    def end_of_half_events(self, state: GameState, side: str, half: str) -> list[Event]:
        """Engineering (9.7), markers cleared, end of the game checked (15.0)."""
        ev: list[Event] = []
        priv = state.sides[side].private
        works = {k: dict(v) for k, v in priv.get("works", {}).items()}
        bridges = dict(state.public.get("bridges", {}))
        workers: dict[str, list[Unit]] = {}
        for u in state.units_of(side):
            task = u.data.get("task")
            if not task or u.hex is None or not u.alive or u.markers & {"moved", "attacked"}:
                continue
            if task.get("kind") == "destroy":
                bridges[task["edge"]] = {"kind": "destroyed", "side": side}
                ev += [
                    unit_set(u.id, data={"task": None}, visible_to=side, rule="9.7"),
                    note(f"{side} destroys the bridge across {task['edge']}", rule="9.7"),
                ]
                continue
            workers.setdefault(task["edge"], []).append(u)
        need = {"infantry": 2, "armor": 4}
        new_works: dict[str, Any] = {}
        for edge, team in workers.items():
            kind = team[0].data["task"]["kind"]
            prev = works.get(edge, {})
            done = (prev.get("done", 0) if prev.get("kind") == kind else 0) + min(2, len(team))
            if done >= need.get(kind, 2):
                bridges[edge] = {"kind": kind, "side": side}
                ev.append(
                    note(f"{side} completes an {kind} bridge across {edge} (9.7)", rule="9.7")
                )
                ev += [
                    unit_set(u.id, data={"task": None}, visible_to=side, rule="9.7") for u in team
                ]
            else:
                new_works[edge] = {"kind": kind, "done": done}
        if new_works != works:
            ev.append(side_set(side, "private", {"works": new_works}, rule="9.7"))
        if bridges != dict(state.public.get("bridges", {})):
            ev.append(state_set("public", {"bridges": bridges}, rule="9.7"))
        for u in state.units.values():
            drop = {"supported"} | (
                {"moved", "attacked", "exploit", "entered"} if u.side == side else set()
            )
            if u.markers & drop:
                ev.append(
                    unit_set(
                        u.id,
                        markers=u.markers - drop,
                        visible_to=combat.visibility_of(state, u),
                        rule="4.0",
                    )
                )
        pub: dict[str, Any] = {"attacked": (), "pending_advance": None, "half_drawn": False}
        end = state.public.get("end")
        turn = state.clock.turn
        over = None
        if end:
            if (
                state.options.get("end_chit", "half-turn") == "half-turn"
                and end.get("half") == half
                and end.get("turn") == turn
            ):
                over = f"end-of-game chit drawn by {end.get('side')} on turn {turn} (15.0)"
            elif half == "D":
                over = (
                    f"end-of-game chit drawn by {end.get('side')} on turn {end.get('turn')} (15.0)"
                )
        if over is None and half == "D" and turn >= int(state.public.get("max_turns", 10)):
            over = f"turn {turn} was the last turn"
        if over:
            pub.update({"over": True, "over_reason": over})
            ev.append(note(f"The game ends: {over}", rule="15.0"))
        ev.append(state_set("public", pub, rule="4.0"))
        return ev

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: GameState) -> bool:
        return bool(state.public.get("over"))

    def outcome(self, state: GameState) -> victory.Verdict:
        """The verdict of the scenario's victory conditions (16.0, 17.x), judged now."""
        return victory.judge(state)

    def parse_hex(self, map: MapState, text: str) -> Hex:
        """Orders name hexes as the rule book does (``G13``) or by their printed label (``0713``);
        :func:`~owsnb.rules.combatops.terrain.parse_hex`."""
        try:
            return parse_hex(map, text)
        except InvalidHexError as exc:
            raise InvalidHexError(f"{exc}; name hexes like 'G13' or '0713'") from None

    def evaluation(self) -> Any:
        """Bots' knowledge of this rule set (``evaluation.py``)."""
        from owsnb.rules.combatops import evaluation

        return evaluation

    # -- view policy ---------------------------------------------------------------------------
    def view_unit(self, state: GameState, unit: Unit, side: str) -> Unit | None:
        """Own units and revealed enemy units in full; other enemy counters face down, showing
        only their type and movement rate (2.1); enemy counters off the map are not shown."""
        if side == UMPIRE or unit.side == side or side in unit.seen_by:
            return unit
        if unit.hex is None:
            return None
        data = {"utype": U.utype(unit), "ma": int(unit.data.get("ma", 1))}
        if state.options.get("show_echelon"):
            data["echelon"] = unit.data.get("echelon", "battalion")
        return masked(state, unit, side, kind=U.utype(unit), data=data)

    # -- presentation --------------------------------------------------------------------------
    presentation = present.PRESENTATION
    """What the table draws of Combat Operations (:mod:`owsnb.rules.combatops.present`)."""

    def guide(self) -> Any:
        """The briefing's standing, the step coach's phrases (``guide.py``)."""
        from owsnb.rules.combatops import guide

        return guide

    def observation_string(self, view: Any) -> str:
        return present.observation_string(view)
