"""The TOCS rule set: sequence of play, automatic steps, setup and the perimeter view policy.

Sequence of play (Basic 3.0-4.0, rebuilt by the digest from L40-L85):

* 2 Ground Sequence Phase: 2.1 turn weather, 2.2 Engagement Battles, 2.3 Initiative (automatic);
* 3 Operational Impulses, alternating until the turn ends: 3.3 begin (the phasing player rolls
  impulse weather and OP), 3.5 activations and actions (or ``pass``, B3.4), 3.8 Reserve
  Commitment (non-phasing), 3.9 Combat Resolution (automatic), 3.10 Exploitation (phasing),
  3.11 turn-end roll (automatic; back to 3.3 for the other side unless the turn ends);
* 4 End of Turn (automatic): recovery, deficit OP lapse, supply draw-down after the 2100 turn.

Turn 1 starts at 3.3 with the scenario's (or module's, L774) first player: the Pre-Game sequence
and turn-1 weather come from the scenario.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from owsnb.kernel import Adjudication, Option, Phase, RuleSet, SequenceOfPlay, Step
from owsnb.kernel.data import FrozenDict, deep_merge, freeze, thaw
from owsnb.kernel.events import clock_set, note, state_set
from owsnb.kernel.reduce import apply
from owsnb.kernel.ruleset import GAME_OVER
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs import economy, present, stacking, weather
from owsnb.rules.tocs.artillery_orders import clear_interdictions
from owsnb.rules.tocs.breakthrough_orders import exploits, grant, grant_exploit, pending
from owsnb.rules.tocs.bridge_orders import progress_bridges
from owsnb.rules.tocs.combat import Battle, resolve_battle
from owsnb.rules.tocs.command_orders import refit_at_end_of_turn
from owsnb.rules.tocs.editor import EDITOR
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.infiltration_orders import delay_others, infiltration_shift
from owsnb.rules.tocs.layers import MODULES, PERIODS, layer_stack, merged_rulings, merged_tables
from owsnb.rules.tocs.model import (
    alive_on_map,
    clock_hour,
    daypart,
    enemy_of,
    ground_units,
    improve,
    state_of,
    units_in,
)
from owsnb.rules.tocs.orders import HANDLERS, close_activation
from owsnb.rules.tocs.perimeter import announce, take_hex, visible_unit
from owsnb.rules.tocs.reinforcement_orders import BOX as REINFORCEMENT_BOX
from owsnb.rules.tocs.supply import in_los
from owsnb.rules.tocs.victory import score
from owsnb.rules.tocs.zoc import ezoc_at, learn_ezoc

__all__ = ["Tocs", "OPTIONS"]

_PHASE_OF = {
    "2.1": "2",
    "2.2": "2",
    "2.3": "2",
    "3.3": "3",
    "3.5": "3",
    "3.8": "3",
    "3.9": "3",
    "3.10": "3",
    "3.11": "3",
    "4.0": "4",
}

OPTIONS = (
    Option("period", "wwii", "time-period layer (only WWII exists)", PERIODS, "L14-L15"),
    Option(
        "module",
        "none",
        "game-module layer; overrides the period and basic layers",
        MODULES,
        "L6, L97",
    ),
    Option(
        "deficit_op",
        "extra",
        "deficit OP: 'extra' = granted OP that cost the pool nothing (appendix ruling "
        "on L24, L64); 'pool' = pool OP that also credit the opponent (digest 6 #3)",
        ("extra", "pool"),
        "B3.5 L64",
    ),
    Option(
        "pass_bonus",
        "toward-end",
        "the pass modifier on the turn-end roll: 'toward-end' (roll counts 1 less; "
        "digest 6 #2, L63 'increases the chances') or 'literal' (+1 as printed)",
        ("toward-end", "literal"),
        "B3.4 L82",
    ),
    Option(
        "ezoc_declaration",
        "always",
        "'always': the referee declares every real EZOC when a unit moves, "
        "reconnoitres or probes into it; 'declared': only standing declarations (verb zoc) count, while real",
        ("always", "declared"),
        "L170-L173, L268",
    ),
    Option(
        "ezoc_for_loc",
        "declared",
        "EZOC that blocks LOC/LOS traces: 'declared' (known to the side, not "
        "disproved; appendix A.2) or 'actual'",
        ("declared", "actual"),
        "L191, L219",
    ),
    Option(
        "ext_ezoc_to_ezoc",
        "text",
        "after entering extended-deployment EZOC: 'text' = not held by the "
        "EZOC-to-EZOC rule (L176); 'example' = blocked (Example 1, L178)",
        ("text", "example"),
        "L176 v L178",
    ),
    Option(
        "degrade_model",
        "appendix",
        "'appendix': attackers degrade for activating (+1 if they retreat), "
        "defenders 1 for the battle (+1 if they retreat), engagements only retreaters; 'literal': attackers also "
        "degrade for the combat",
        ("appendix", "literal"),
        "L155, L730",
    ),
    Option(
        "air_support_in_ambush",
        "l605",
        "tactical ground support over the hex where a mover is ambushed: 'l605' "
        "= it gives its column shift (the national rule, L605 'a battle or ambush'; appendix E.2: the specific "
        "rule wins); 'l252' = no aircraft on either side in an ambush",
        ("l605", "l252"),
        "L252 v L605",
    ),
    Option(
        "probe_reveals",
        "types",
        "what a probe reports of an occupied hex: 'types' (Infantry/Vehicles/Guns only, "
        "L277-L279; appendix E.3) or 'size' (types and the number of units, L276 'composition, size')",
        ("types", "size"),
        "L276 v L278",
    ),
    Option(
        "cloud_roll",
        "impulse",
        "when cloud cover, precipitation and fog are rolled: 'impulse' (each impulse with "
        "hysteresis, L54, L519: the WWII rules) or 'turn' (once with the ground condition, Basic L44)",
        ("impulse", "turn"),
        "L44 v L54, L519",
    ),
    Option(
        "road_bonus_motorized",
        "no",
        "the road bonus (+1 hex per AP spent entirely at road rate, L245) for "
        "motorized units: 'no' (the text names only foot, armor and mech; digest 6 #15) or 'yes'",
        ("no", "yes"),
        "L245, L365",
    ),
    Option(
        "rally_step",
        "capped",
        "rally success: 'capped' = +2 states, never better than Disordered (L325 literal); "
        "'plus2' = +2 states (digest proposal)",
        ("capped", "plus2"),
        "10.19 L324-L328",
    ),
)


def _diff(cur: Any, base: Any) -> Any:
    """What *cur* changes relative to *base* (nested mappings); ``None`` if nothing."""
    if isinstance(cur, Mapping) and isinstance(base, Mapping):
        out = {}
        for k, v in cur.items():
            if k not in base:
                out[k] = thaw(v)
            else:
                d = _diff(v, base[k])
                if d is not None:
                    out[k] = d
        return out or None
    return None if thaw(cur) == thaw(base) else thaw(cur)


class Tocs(RuleSet):
    name = "tocs"
    title = "TOCS: Tactical Operations Command System (Basic + WWII + modules), double blind"
    version = "1"
    sequence = SequenceOfPlay(
        (
            Phase(
                "2",
                "Ground Sequence Phase",
                (
                    Step("2.1", "Turn weather", actors="none", auto=True, rule="L44"),
                    Step("2.2", "Engagement Battles", actors="none", auto=True, rule="L46"),
                    Step("2.3", "Initiative", actors="none", auto=True, rule="L51"),
                ),
                rule="L43",
            ),
            Phase(
                "3",
                "Operational Impulse",
                (
                    Step(
                        "3.3",
                        "Begin impulse: weather, aircraft, supply, earn OP",
                        actors="phasing",
                        verbs=("begin",),
                        rule="B3.3",
                    ),
                    Step(
                        "3.5",
                        "Spend OP: activations and actions",
                        actors="phasing",
                        verbs=(
                            "pass",
                            "activate",
                            "move",
                            "recon",
                            "probe",
                            "attack",
                            "withdraw",
                            "extend",
                            "reserve",
                            "rally",
                            "fly",
                            "sail",
                            "improve",
                            "interdict",
                            "bridge",
                            "reassign",
                            "refit",
                            "strike",
                            "infiltrate",
                            "roadblock",
                            "minefield",
                            "bombard",
                            "clear",
                            "eliminate",
                            "enter",
                        ),
                        rule="B3.5",
                    ),
                    Step(
                        "3.8",
                        "Reserve Commitment",
                        actors="nonphasing",
                        verbs=("activate", "move", "recon", "interdict", "strike", "eliminate"),
                        rule="L68",
                    ),
                    Step("3.9", "Combat Resolution", actors="none", auto=True, rule="L69"),
                    Step(
                        "3.10",
                        "Exploitation",
                        actors="phasing",
                        verbs=(
                            "activate",
                            "move",
                            "recon",
                            "probe",
                            "breakthrough",
                            "exploit",
                            "eliminate",
                        ),
                        rule="L78",
                    ),
                    Step(
                        "3.11",
                        "End of Operational Impulse: turn-end roll",
                        actors="none",
                        auto=True,
                        rule="B3.11",
                    ),
                ),
                rule="B3.0",
            ),
            Phase(
                "4",
                "End of Turn",
                (Step("4.0", "End of Turn: recovery", actors="none", auto=True, rule="B4.0"),),
                rule="B4.0",
            ),
        )
    )
    option_list = OPTIONS
    editor = EDITOR  # what the scenario editor needs (editor.py)
    spelling = {"defence": "defense"}  # data keys as the rule book spells them

    def __init__(self) -> None:
        from owsnb.rules.tocs.airnaval import AIR_NAVAL_HANDLERS

        super().__init__([h() for h in (*HANDLERS, *AIR_NAVAL_HANDLERS)])

    # -- data ----------------------------------------------------------------------------------
    def default_tables(self) -> dict[str, Any]:
        stack = layer_stack("wwii", "none")
        tables = merged_tables(stack)
        tables["rulings"] = merged_rulings(stack)
        return tables

    def validate_unit(
        self, kind: str, data: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        from owsnb.rules.tocs.schema import validate_payload

        return validate_payload(data)

    def validate_scenario(
        self, state: GameState, rules: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Units report to an existing HQ of their side (L184); sides named in ``rules`` exist."""
        problems = []
        for i, u in enumerate(state.units.values()):
            p = u.get("parent")
            if p is None:
                if u.get("cls") not in ("hq", "aircraft", "naval") and not u.get("independent"):
                    problems.append(
                        (
                            f"units[{i}].data.parent",
                            f"{u.id} needs a parent HQ (LOC, L184) or independent: true",
                        )
                    )
            elif (
                p not in state.units
                or state.units[p].side != u.side
                or state.units[p].get("cls") != "hq"
            ):
                problems.append(
                    (f"units[{i}].data.parent", f"{u.id}'s parent {p!r} is not an HQ of its side")
                )
        later = dict(rules.get("reinforcements", {}) or {})
        for uid, spec in later.items():  # L42: reinforcements arrive on a turn, at a hex
            where = f"rules.reinforcements.{uid}"
            if uid not in state.units:
                problems.append((where, f"no unit {uid!r}"))
                continue
            turn = (spec or {}).get("turn") if isinstance(spec, Mapping) else None
            if not isinstance(turn, int) or turn < 1:
                problems.append((where, f"give the turn it arrives: {{turn: N}}, not {spec!r}"))
            if isinstance(spec, Mapping) and spec.get("hex") is not None:
                try:
                    state.map.hex(str(spec["hex"]))
                except ValueError as exc:
                    problems.append((f"{where}.hex", str(exc)))
        on_map = state.evolve(units={k: v for k, v in state.units.items() if k not in later})
        for side in state.sides:  # L144: a scenario sets up within the stacking limits
            for h, extra in stacking.overstacked(on_map, side).items():
                problems.append(
                    (
                        "units",
                        f"{side} is over stacked in {state.map.label(h)} "
                        f"({', '.join(u.id for u in extra)} too many, L144)",
                    )
                )
        names = list(self.default_tables()["improved_positions"]["names"])
        for side, where in (rules.get("positions", {}) or {}).items():
            for lab, level in (where or {}).items():
                if level not in names:
                    problems.append(
                        (
                            f"rules.positions.{side}.{lab}",
                            f"{level!r} is not one of {', '.join(names)} (10.9)",
                        )
                    )
        for key in (
            "op_minimum",
            "op_pool",
            "supply_edges",
            "initiative_drm",
            "briefs",
            "positions",
            "pools",
            "tot_sides",
        ):
            for side in rules.get(key, {}) or {}:
                if side not in state.sides:
                    problems.append(
                        (
                            f"rules.{key}.{side}",
                            f"no side {side!r}; sides are {', '.join(state.sides)}",
                        )
                    )
        return problems

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, state: GameState, rules: Mapping[str, Any]) -> Any:
        opts = state.options
        base = self.default_tables()
        stack = layer_stack(opts.get("period", "wwii"), opts.get("module", "none"))
        layered = merged_tables(stack)
        layered["rulings"] = merged_rulings(stack)
        tables: dict[str, Any] = {}
        for name in sorted(set(layered) | set(state.tables)):
            d = (
                _diff(state.tables.get(name, {}), base.get(name, {}))
                if name in state.tables
                else None
            )
            tables[name] = (
                deep_merge(layered.get(name, {}), d)
                if isinstance(d, Mapping)
                else (d if d is not None else layered.get(name, state.tables.get(name)))
            )
        # ownership (L227-L229)
        default = rules.get("perimeter", {}).get("default", next(iter(state.sides)))
        owners = {h: default for h in state.map.hexes}
        for reg in rules.get("perimeter", {}).get("regions", ()):
            side = reg["side"]
            cells = [state.map.hex(x) for x in reg.get("hexes", ())]
            if reg.get("around"):
                c = state.map.hex(reg["around"][0])
                cells += [h for h in state.map.hexes if h.distance(c) <= int(reg["around"][1])]
            if reg.get("rect"):
                (c0, r0), (c1, r1) = (
                    state.map.offset.to_offset(state.map.hex(x)) for x in reg["rect"]
                )
                cells += [
                    h
                    for h in state.map.hexes
                    if min(c0, c1) <= state.map.offset.to_offset(h)[0] <= max(c0, c1)
                    and min(r0, r1) <= state.map.offset.to_offset(h)[1] <= max(r0, r1)
                ]
            for h in cells:
                owners[h] = side
        hexes = {
            h: replace(info, facts=info.facts.set(owner=owners[h]))
            for h, info in state.map.hexes.items()
        }
        units = {}
        later = dict(rules.get("reinforcements", {}) or {})
        for uid, u in state.units.items():
            spec = later.get(uid) or {}
            if int(spec.get("turn", 1)) > state.clock.turn:  # L42: hidden off board until then
                entry = state.map.label(
                    state.map.hex(str(spec.get("hex") or state.map.label(u.hex)))
                )
                units[uid] = replace(
                    u.evolve(
                        data={
                            "state": int(u.get("state", 0)),
                            "arrives": int(spec["turn"]),
                            "entry": entry,
                        }
                    ),
                    hex=None,
                    box=REINFORCEMENT_BOX,
                )
                continue
            if u.hex is not None and owners[u.hex] != u.side:
                raise ValueError(
                    f"unit {uid} starts in {state.map.label(u.hex)}, outside {u.side}'s perimeter (L227)"
                )
            units[uid] = u.evolve(data={"state": int(u.get("state", 0))})
        rulings = tables["rulings"]
        first = (
            state.public.get("initiative")
            or rulings.get("first_turn_initiative")
            or next(iter(state.sides))
        )
        start = rules.get("start", {})
        public = {
            **dict(state.public),
            "calendar": {
                "start_hour": int(start.get("hour", 12)),
                "start_date": str(start.get("date", "")),
            },
            "op_minimum": dict(rules.get("op_minimum", {})),
            "initiative": first,
            "phasing": first,
            "impulse": 0,
            "turn_end_index": 0,
            "weather": {
                "ground": "dry",
                "cloud": "clear",
                "precipitation": "none",
                "fog": "none",
                "wind": "calm",
                **dict(rules.get("weather", {})),
            },
            "moon": rules.get("moon", "quarter"),
            "supply_edges": dict(rules.get("supply_edges", {})),
            "objectives": list(rules.get("objectives", ())),
            "sea_zones": list(rules.get("sea_zones", ())),
            "initiative_drm": dict(rules.get("initiative_drm", {})),
            "deficit_credit": {},
            "op_spent": {},
            "tot_sides": list(rules.get("tot_sides", ())),  # L350: sides with US Time On Target
        }
        public_fac = bool(rulings.get("supply_bases_public", True))
        facs = [dict(f) for f in rules.get("facilities", ())]
        sides = {}
        for name, s in state.sides.items():
            known = [
                {"hex": f["hex"], "type": f["type"], "name": f.get("name", "")}
                for f in facs
                if f.get("side") == name or (public_fac and f["type"] == "supply-base")
            ]
            priv = {
                **dict(s.private),
                "op_pool": int(rules.get("op_pool", {}).get(name, 0)),
                "earned_left": 0,
                "deficit_used": 0,
                "facilities_known": known,
                "positions": _positions(rules, name, tables),
                "pools": dict((rules.get("pools", {}) or {}).get(name, {}) or {}),
                "brief": str(rules.get("briefs", {}).get(name, "")),
            }
            sides[name] = replace(s, private=freeze(priv))
        secret = {**dict(state.secret), "facilities": facs}
        state = state.evolve(
            map=replace(state.map, hexes=FrozenDict(hexes)),
            units=FrozenDict(units),
            tables=tables,
            public=public,
            secret=secret,
            sides=FrozenDict(sides),
        )
        phase, step = self.sequence.find("3", "3.3")
        return replace(state, clock=self.clock_for(state, phase, step, state.clock.turn))

    # -- who acts ------------------------------------------------------------------------------
    def actors(
        self, state: GameState, phase: Phase, step: Step, turn: int | None = None
    ) -> tuple[str, ...]:
        p = state.public.get("phasing") or next(iter(state.sides))
        if step.actors == "phasing":
            return (p,)
        if step.actors == "nonphasing":
            return tuple(s for s in state.sides if s != p)
        return super().actors(state, phase, step, turn)

    def clock_for(self, state: GameState, phase: Phase, step: Step, turn: int) -> Any:
        c = super().clock_for(state, phase, step, turn)
        return replace(c, date=self.date_text(state, turn))

    def date_text(self, state: StateLike, turn: int) -> str:
        day, hour = clock_hour(state, turn)
        start = state.public.get("calendar", {}).get("start_date", "")
        try:
            d = _dt.date.fromisoformat(start) + _dt.timedelta(days=day)
            when = d.strftime("%b %d")
        except ValueError:
            when = f"day {day + 1}"
        return f"{when} {hour:02d}00 ({daypart(state, turn) if 'daypart' in state.tables else ''})"

    # -- walking the sequence ------------------------------------------------------------------
    def _next(self, s: Any) -> tuple[list, str, bool]:
        cur = s.clock.step
        p = s.public.get("phasing")
        other = next((x for x in s.sides if x != p), p)
        simple = {
            "2.1": "2.2",
            "2.2": "2.3",
            "2.3": "3.3",
            "3.3": "3.5",
            "3.8": "3.9",
            "3.10": "3.11",
        }
        if cur in simple:
            return [], simple[cur], False
        if cur == "3.5":
            if s.public.get("passed"):
                return [], "3.11", False
            has_res = any(u.get("reserve") for u in ground_units(s, other))
            return [], "3.8" if has_res else "3.9", False
        if cur == "3.9":
            has_res = (
                any(u.get("reserve") for u in ground_units(s, p))
                or bool(pending(s, p))
                or bool(exploits(s, p))
            )
            return [], "3.10" if has_res else "3.11", False
        if cur == "3.11":
            if s.public.get("turn_over"):
                return [], "4.0", False
            return [state_set("public", {"phasing": other}, rule="L83")], "3.3", False
        return [], "2.1", True  # 4.0 -> next turn

    def advance_events(
        self, state: GameState, dice: Any, to: str | None = None, limit: int = 200
    ) -> list:
        events = list(self.on_leave(state, dice))
        s = _apply_all(state, events)
        for _ in range(limit):
            pre, key, new_turn = self._next(s)
            events += pre
            s = _apply_all(s, pre)
            turn = s.clock.turn + (1 if new_turn else 0)
            phase, step = self.sequence.find(_PHASE_OF[key], key)
            ev = clock_set(self.clock_for(s, phase, step, turn), rule=step.rule)
            events.append(ev)
            s = apply(s, ev)
            if self.is_over(s):
                events.append(note(f"{GAME_OVER}: {self.outcome(s)['summary']}"))
                return events
            entered = self.on_enter(s, phase, step, dice)
            entered += self.aftermath(_apply_all(s, entered))
            events += entered
            s = _apply_all(s, entered)
            reached = to is None or to in (key, f"{_PHASE_OF[key]}/{key}")
            if s.clock.active and not step.auto and reached:
                return events
        raise RuntimeError("the sequence of play did not settle")

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        step = state.clock.step
        if order.verb == "begin" or (order.verb == "done" and step == "3.3"):
            ev = self.begin_events(state, order.side, dice)
            s = _apply_all(state, ev)
            return Adjudication(ev + self.advance_events(s, dice))
        if order.verb == "pass":
            ev = [
                state_set("public", {"passed": True}, rule="B3.4"),
                note(f"{state.sides[order.side].title} passes", rule="B3.4"),
            ]
            s = _apply_all(state, ev)
            return Adjudication(ev + self.advance_events(s, dice))
        out = super().adjudicate(state, order, args, dice)
        if order.verb not in ("done", "advance"):  # those walk the sequence (aftermath inside)
            out.events += self.aftermath(_apply_all(state, out.events))
        return out

    def aftermath(self, state: GameState) -> list:
        """What a change of position does at once, whoever caused it (after every order and every
        automatic step): a reserve in EZOC loses its status (L337), a refitting unit its refit
        (L338: it must "remain out of EZOC"); a unit marked out of LOS that
        traces LOS again loses its marker and its penalties (L216)."""
        em = Emitter(state)
        for u in sorted(ground_units(state), key=lambda x: x.id):
            if u.get("reserve") and ezoc_at(state, u.side, u.hex):
                em.data(u.id, rule="L337", reserve=False)
                learn_ezoc(em, u.side, u.hex, True, "L337")
                em.say(
                    f"{u.id} loses its reserve status: its hex is in EZOC",
                    rule="L337",
                    visible_to=u.side,
                )
            if u.get("refit") and ezoc_at(state, u.side, u.hex):
                em.data(u.id, rule="L338", refit=False)
                learn_ezoc(em, u.side, u.hex, True, "L338")
                em.say(
                    f"{u.id} stops refitting: its hex is in EZOC", rule="L338", visible_to=u.side
                )
            if u.get("in_los") is False and in_los(em.state, u):
                em.data(u.id, rule="L216", in_los=True)
                em.say(f"{u.id} is back in LOS", rule="L216", visible_to=u.side)
        return em.events

    # -- automatic effects ---------------------------------------------------------------------
    def begin_events(self, state: GameState, side: str, dice: Any) -> list:
        """Start of an Operational Impulse (3.1-3.3, L54-L62, L216)."""
        em = Emitter(state)
        part = daypart(state)
        w = weather.roll_impulse(state, dice, part)
        occupied = {s: sorted({u.hex for u in ground_units(state, s)}) for s in state.sides}
        em.emit(
            state_set(
                "public",
                {
                    "impulse": int(state.public.get("impulse", 0)) + 1,
                    "passed": False,
                    "spent_this_impulse": False,
                    "op_spent": {side: 0},
                    "weather": w,
                },
                rule="L54",
            )
        )
        em.emit(
            state_set(
                "secret",
                {"occupied_at_start": {k: tuple(v) for k, v in occupied.items()}},
                rule="L178",
            )
        )
        announce(
            em,
            f"{state.sides[side].title} impulse: {w['cloud']}, {w['precipitation']}, fog {w['fog']}, "
            f"ground {w['ground']}",
            rule="L54",
        )
        from owsnb.rules.tocs.airnaval import advance_aircraft

        advance_aircraft(em, side, dice)
        clear_interdictions(em, side)  # L351: until the start of the firer's next impulse
        for u in ground_units(em.state, side):  # L216: supply checked at the start of the impulse
            ok = in_los(em.state, u)
            if u.get("in_los", True) != ok:
                em.data(u.id, rule="L216", in_los=ok)
            if u.get("landed_impulses") is not None and int(u.get("landed_impulses")) < 2:
                em.data(u.id, rule="L625", landed_impulses=int(u.get("landed_impulses")) + 1)
        minimum = int(state.public.get("op_minimum", {}).get(side, 0))
        credit = int(state.public.get("deficit_credit", {}).get(side, 0))
        r = dice.roll(
            10,
            purpose="OP earned (module minimum + d10 + deficit OP)",
            rule="B3.3",
            visible_to=side,
        )
        total = minimum + r + credit
        priv = em.state.sides[side].private
        em.private(
            side,
            rule="B3.3",
            op_pool=int(priv.get("op_pool", 0)) + total,
            earned_left=total,
            deficit_used=0,
            active=None,
        )
        credits = dict(em.state.public.get("deficit_credit", {}))
        credits[side] = 0
        em.emit(state_set("public", {"deficit_credit": credits}, rule="L64"))
        em.say(
            f"OP earned: {minimum} + d10 {r} + {credit} deficit = {total}",
            rule="B3.3",
            visible_to=side,
        )
        return em.events

    def on_leave(self, state: GameState, dice: Any) -> list:
        if state.clock.step not in ("3.5", "3.8", "3.10"):
            return []
        em = Emitter(state)
        for u in state.units.values():
            if u.side in state.clock.active and u.get("act") == "open":
                close_activation(em, u.id, rule="L239")
        return em.events

    def on_enter(self, state: GameState, phase: Phase, step: Step, dice: Any) -> list:
        em = Emitter(state)
        k = step.key
        if k == "2.1":
            w = weather.roll_turn(state, dice)
            em.emit(state_set("public", {"weather": w}, rule="L44"))
            announce(
                em,
                f"Turn {state.clock.turn} ({state.clock.date}): ground {w['ground']}",
                rule="L44",
            )
        elif k == "2.2":
            self._engagements(em, dice)
        elif k == "2.3":
            self._initiative(em, dice)
        elif k == "3.9":
            self._combat(em, dice)
        elif k == "3.11":
            self._turn_end(em, dice)
        elif k == "4.0":
            self._end_of_turn(em, dice)
        return em.events

    def _engagements(self, em: Emitter, dice: Any) -> None:
        s = em.state
        for h in sorted(
            (h for h, i in s.map.hexes.items() if i.facts.get("engaged")), key=s.map.label
        ):
            holder = em.state.map.hexes[h].facts.get("owner")
            attacker = next((x for x in s.sides if x != holder), holder)
            att = [u.id for u in units_in(em.state, h, attacker)]
            if not att or not units_in(em.state, h, holder):
                em.hexfact(h, rule="L50", engaged=None)
                if att:
                    take_hex(em, attacker, h, rule="L50", why="engagement over")
                continue
            resolve_battle(
                em, dice, Battle(h, attacker, att, "engagement", engagement=True), rule="L46"
            )

    def _initiative(self, em: Emitter, dice: Any) -> None:
        s = em.state
        drm = s.public.get("initiative_drm", {})
        rolls = {
            x: dice.roll(
                10, purpose=f"initiative for {s.sides[x].title}", rule="L51", visible_to=None
            )
            + int(drm.get(x, 0))
            for x in s.sides
        }
        best = max(rolls.values())
        winners = [x for x, v in rolls.items() if v == best]
        win = s.public.get("initiative") if len(winners) > 1 else winners[0]
        em.emit(state_set("public", {"initiative": win, "phasing": win}, rule="L51"))
        announce(
            em,
            f"Initiative: {', '.join(f'{s.sides[x].title} {v}' for x, v in rolls.items())} -> {s.sides[win].title}",
            rule="L51",
        )

    def _combat(self, em: Emitter, dice: Any) -> None:
        s = em.state
        p = s.public["phasing"]
        enemy = enemy_of(s, p)
        infiltrated = {
            s.map.hex(u.get("attack_hex"))
            for u in ground_units(s, p)
            if u.get("attack_type") == "infiltration"
        }
        for h in sorted(
            {h for h, i in s.map.hexes.items() if i.facts.get("battle")} | infiltrated,
            key=s.map.label,
        ):
            lab = s.map.label(h)
            att = [u for u in ground_units(em.state, p) if u.get("attack_hex") == lab]
            leader = next((u for u in att if u.get("attack_type") == "infiltration"), None)
            if leader is not None and units_in(
                em.state, h, enemy
            ):  # L260: the infiltration leads, others wait 1 AP
                delay_others(em, lab, att)
                att = [
                    em.state.units[u.id]
                    for u in att
                    if em.state.units[u.id].get("attack_hex") == lab
                ]
            if not att:
                em.hexfact(h, rule="L67", battle=None)
                continue
            if not units_in(
                em.state, h, enemy
            ):  # L282, L284: into an empty hex the units simply move in
                for u in att:
                    em.unit(u.id, rule="L282", hex=h)
                em.hexfact(h, rule="L282", battle=None)
                take_hex(em, p, h, rule="L282", why="attack into an empty hex")
            else:
                ranks = em.state.tables["attack_types"]
                kind = max(
                    (u.get("attack_type", "hasty") for u in att), key=lambda k: ranks[k]["rank"]
                )
                scouts = [u for u in att if lab in (u.get("scouted") or ())]
                if scouts:  # L274-L275, L280: a unit that reconnoitred or probed the hex and
                    # joins the battle sets its length: no longer than that unit's own attack
                    kind = min(
                        (kind, *(u.get("attack_type", "hasty") for u in scouts)),
                        key=lambda k: ranks[k]["rank"],
                    )
                priv = em.state.sides[p].private
                shifts = [
                    n
                    for n, key in (("recon", "recon_marks"), ("probe", "probe_marks"))
                    if lab in priv.get(key, ())
                ]
                if em.state.map.hexes[h].facts.get("air_support") == p:
                    shifts.append("tactical_air_support")
                if (
                    leader is not None
                ):  # revealed only now (L259); the table gives one side the shift (L263)
                    shifts.append(
                        infiltration_shift(em, dice, h, leader, units_in(em.state, h, enemy))
                    )
                out = resolve_battle(
                    em,
                    dice,
                    Battle(
                        h,
                        p,
                        [u.id for u in att],
                        kind,
                        shifts=shifts,
                        pursue=any(u.get("pursue") for u in att),
                    ),
                    rule="L69",
                )
                winners = [
                    i
                    for i in out["winners"]
                    if alive_on_map(em.state.units[i]) and em.state.units[i].hex == h
                ]
                if out["wiped_out"] and winners:  # L76: every defender destroyed
                    grant(em, p, lab, winners)
                if out["exploit"]:  # L736: Intensive pursuers exploit in 3.10
                    grant_exploit(em, p, out["exploit"])
            for u in att:
                if em.state.units[u.id].alive:
                    em.data(
                        u.id,
                        rule="L69",
                        attack_hex=None,
                        attack_type=None,
                        attack_from=None,
                        pursue=None,
                    )
            if em.state.map.hexes[h].facts.get("air_support"):
                em.hexfact(h, rule="L605", air_support=None)

    def _turn_end(self, em: Emitter, dice: Any) -> None:
        s = em.state
        p = s.public["phasing"]
        passed = bool(s.public.get("passed"))
        both = passed and s.public.get("last_passed") not in (None, p)
        # L145-L147: the phasing side's stacks must be legal at the end of its impulse (its units
        # that retreated earlier have had their next impulse, L146); the other side's moves in
        # Reserve Commitment likewise (a ruling), its retreats wait for its own impulse
        stacking.enforce(em, p, exempt=False, rule="L145")
        stacking.clear_retreated(em, p)
        stacking.enforce(em, enemy_of(em.state, p), exempt=True, rule="L145")
        s = em.state
        for u in s.units.values():  # end-of-impulse housekeeping
            if u.get("act") or u.get("recon_last") or u.get("withdrew") or u.get("scouted"):
                em.unit(
                    u.id,
                    rule="B3.11",
                    data={
                        "act": None,
                        "acted": False,
                        "ap": 0,
                        "mp_left": 0,
                        "recon_last": None,
                        "recon_mp": 0,
                        "withdrew": False,
                        **({"scouted": None} if u.get("scouted") else {}),
                    },
                )
        if pending(em.state, p) or exploits(
            em.state, p
        ):  # unused advances lapse with the impulse (rulings)
            em.private(p, rule="L76", breakthroughs={}, exploits={})
        if both:
            over = True
            announce(em, "Both players passed in a row: the turn ends", rule="L83")
        else:
            box = economy.turn_end_box(s)
            r = sum(
                dice.roll_many(
                    2,
                    6,
                    purpose=f"turn end (box {box}{', passed' if passed else ''})",
                    rule="B3.11",
                    visible_to=None,
                )
            )
            over = economy.turn_ends(r, box, passed, s.options.get("pass_bonus", "toward-end"))
            announce(
                em,
                f"Turn-end roll {r} against box {box}: "
                + ("the turn ends" if over else "the turn goes on"),
                rule="B3.11",
                roll=r,
                box=box,
            )
        idx = int(s.public.get("turn_end_index", 0)) + (2 if passed else 1)
        em.emit(
            state_set(
                "public",
                {
                    "turn_over": over,
                    "turn_end_index": idx,
                    "last_passed": p if passed else None,
                    "passed": False,
                },
                rule="L82",
            )
        )

    def _end_of_turn(self, em: Emitter, dice: Any) -> None:
        for side in em.state.sides:  # L146: retreats over stacked until the end of the turn at most
            stacking.enforce(em, side, exempt=False, rule="L146")
        stacking.clear_retreated(em, None)
        s = em.state
        progress_bridges(em)  # L302: bridge progress before units recover
        refit_at_end_of_turn(em)  # L338: refits (digest 2: after bridges)
        s = em.state
        n = int(s.tables["states"].get("recovery", 2))
        for u in s.units.values():
            if alive_on_map(u) and state_of(u) > 0:
                em.data(u.id, rule="L85", state=improve(state_of(u), n))
        for side in s.sides:
            em.private(side, rule="B4.0", recon_marks=[], probe_marks=[])
        _, hour = clock_hour(s)
        if hour == int(s.tables["supply"].get("drawdown_hour", 21)):
            self._drawdown(em)
        em.emit(
            state_set(
                "public",
                {
                    "deficit_credit": {},
                    "turn_end_index": 0,
                    "last_passed": None,
                    "turn_over": False,
                },
                rule="L64",
            )
        )
        from owsnb.rules.tocs.airnaval import end_of_turn_air_naval

        end_of_turn_air_naval(em)

    def _drawdown(self, em: Emitter) -> None:
        """L224: each Division/Regiment/Brigade HQ in LOS draws 1 SP from the nearest source."""
        s = em.state
        facs = [dict(f) for f in s.secret.get("facilities", ())]
        for hq in ground_units(s):
            if (
                hq.get("cls") != "hq"
                or hq.get("echelon") not in ("regiment", "brigade", "division")
                or not in_los(s, hq)
            ):
                continue
            own = [
                f
                for f in facs
                if f.get("side") == hq.side
                and int(f.get("sp", 0)) > 0
                and s.map.hexes[s.map.hex(f["hex"])].facts.get("owner") == hq.side
            ]
            if own:
                f = min(own, key=lambda f: s.map.hex(f["hex"]).distance(hq.hex))
                f["sp"] = int(f["sp"]) - 1
        em.emit(state_set("secret", {"facilities": facs}, rule="L224"))

    # -- end -----------------------------------------------------------------------------------
    def outcome(self, state: StateLike) -> dict[str, Any]:
        scores = {side: score(state, side) for side in state.sides}
        totals = {k: v["total"] for k, v in scores.items()}
        best = max(totals.values()) if totals else 0
        lead = [k for k, v in totals.items() if v == best]
        winner = lead[0] if len(lead) == 1 else None
        summary = ", ".join(f"{state.sides[k].title} {v} VP" for k, v in totals.items()) + (
            f": {state.sides[winner].title} wins" if winner else ": a draw"
        )
        return {"winner": winner, "vp": totals, "details": scores, "summary": summary}

    def evaluation(self) -> Any:
        """Bots' knowledge of this rule set (``evaluation.py``)."""
        from owsnb.rules.tocs import evaluation

        return evaluation

    # -- views ---------------------------------------------------------------------------------
    def view_unit(self, state: StateLike, unit: Any, side: str) -> Any:
        return visible_unit(state, unit, side)

    # -- presentation --------------------------------------------------------------------------
    presentation = present.PRESENTATION
    """What the table draws of TOCS (:mod:`owsnb.rules.tocs.present`)."""

    def guide(self) -> Any:
        """The briefing's standing, the step coach's phrases (``guide.py``)."""
        from owsnb.rules.tocs import guide

        return guide

    def observation_string(self, view: Any) -> str:
        own = ", ".join(
            f"{u.id}@{view.map.label(u.hex)}"
            for u in view.units.values()
            if u.side == view.side and u.hex is not None
        )
        return f"{view.side} | {view.clock} | {own}"


def _positions(rules: Mapping[str, Any], side: str, tables: Mapping[str, Any]) -> dict[str, int]:
    """Improved positions a module places at setup (L291): ``rules.positions.<side>.<hex>: <level name>``."""
    names = list(tables["improved_positions"]["names"])
    return {
        str(lab): names.index(level) + 1
        for lab, level in ((rules.get("positions", {}) or {}).get(side, {}) or {}).items()
    }


def _apply_all(state: GameState, events: list) -> Any:
    for e in events:
        state = apply(state, e)
    return state
