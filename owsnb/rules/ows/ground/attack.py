"""A ground attack from declaration to result (10.3 3.C-3.F): the Attack and Defensive Fire
orders, landings and the notebook helpers ``preview`` and ``resolve``.

Paragraphs: 10.3 3.C/3.D an attack declared with its supporting fires, 3.E the defender answers
(defensive fires, supporting fires, recon switching to Delay 10.8.1, its result choices, ruling
G3), 3.F the GCAT is rolled (ruling G1); 10.15.1 at most 3 steps attack across one hexside;
10.15.6 IDF SPT, CAS and NGFS as supporting arms; 10.15.8 landings (10.15.8.1 mechanised units may
advance one hex then attack; 10.15.8.2 waves of 6 from the sea and 6 from the air; 10.15.8.3
opposed: an immediate second round, topped up with the landing force's reserves); 10.4.1 reserves
never attack in normal combat and lose the marker when attacked; 10.10.2 no attack after a
disorganized move; 10.11.2 a river assault that forces the enemy out places the bridge; the end
of the 6.C.3 step resolves an unanswered attack and hands the next activation the clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError, refuse
from owsnb.kernel.events import (
    Event,
    clock_set,
    hex_set,
    note,
    state_set,
    unit_set,
)
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param, enemy_unit, own_unit
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import Result, Roller, detected, legal_examples, watchers
from owsnb.rules.ows.ground.fires import _can_fire, _in_range, _missions, _span_of_control, fire_on
from owsnb.rules.ows.ground.gcat import (
    DEFENDERS,
    Combat,
    _ground_attacks,
    _manoeuvre,
    apply_result,
    combat,
    defenders,
    gcat_cell,
    row_index,
)
from owsnb.rules.ows.ground.phase import (
    _g,
    _pending,
    _queue,
    _set_stage,
    _window,
    check_may_act,
    cleanup,
)
from owsnb.rules.ows.movement import (
    is_mech,
    known_enemies,
    ptable,
)
from owsnb.rules.ows.sequence import base_step, ground_block, ground_round
from owsnb.rules.ows.units import counter

RESULT_CHOICES = (
    Param(
        "hold",
        "choice",
        "cancel a retreat by losing a step (10.15.9.1.6)",
        positional=False,
        optional=True,
        choices=("yes", "no"),
    ),
    Param(
        "trade",
        "choice",
        "turn extra step losses into retreat (10.15.9.1.6)",
        positional=False,
        optional=True,
        choices=("yes", "no"),
    ),
)
"""A side's choices on its GCAT result, given with its order (ruling G3)."""


class Attack(OrderHandler):
    """10.3 3.C/3.D: declare a ground attack on an adjacent hex with supporting fires; the defender
    answers (3.E), then the GCAT is rolled (3.F, 10.15.9)."""

    type = OrderType(
        "attack",
        (
            Param("hex", "hex", "hex attacked"),
            Param(
                "with",
                "unit",
                "attacking units (at most 3 steps per hexside, 10.15.1)",
                positional=False,
                repeat=True,
            ),
            Param(
                "lead",
                "unit",
                "lead unit (a Main Effort leads if it takes part)",
                positional=False,
                optional=True,
            ),
            Param(
                "support",
                "unit",
                "artillery (IDF SPT), CAS, NGFS ships, engineers, SOF",
                positional=False,
                repeat=True,
                optional=True,
            ),
            Param(
                "reserves",
                "unit",
                "opposed landing: reserves in the landing hex that top up the second wave (10.15.8.3)",
                positional=False,
                repeat=True,
                optional=True,
            ),
            *RESULT_CHOICES,
        ),
        rule="10.15.9",
        doc="attack a hex (GCAT)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.3" or _window(state):
            return None
        foes = [e for e in known_enemies(state, side) if counter(e).category in DEFENDERS]
        vals = []
        for e in foes:
            adj = [
                u
                for u in state.units_of(side)
                if u.hex is not None
                and _manoeuvre(u)
                and (u.hex.distance(e.hex) == 1 or u.hex == e.hex)
            ]
            if adj:
                vals.append({"hex": state.map.label(e.hex), "with": [u.id for u in adj[:2]]})
                vals.append({"hex": state.map.label(e.hex), "with": [adj[0].id]})
        ex = legal_examples(self, state, side, vals, 6)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _read(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> dict[str, Any]:
        if base_step(state.clock.step) != "6.C.3":
            raise refuse(
                "ground combat is in the Ground phase (6.C.3)", "wrong-step", "10.3", order
            )
        h = args["hex"]  # bound: a map hex; the units: the side's, alive on the map
        side = order.side
        units = list({u.id: u for u in args["with"]}.values())
        turn = state.clock.turn

        def exploiting(u: Any) -> bool:
            m = u.data.get("moved") or {}
            return int(m.get("turn", 0) or 0) == turn and bool(m.get("exploit"))

        exploit = any(exploiting(u) for u in units)
        for u in units:
            check_may_act(state, order, u, "exploit-attack" if exploit else "attack")
            c = counter(u)
            if c.category not in ("ground", "engineer"):
                raise refuse(
                    f"{u.id} is not a manoeuvre unit (10.15.9.1.1)", "not-manoeuvre", "10.15", order
                )
            if "delay" in u.markers:
                raise refuse(f"{u.id} is in Delay and cannot attack (10.8)", "delay", "10.8", order)
            if "reserve" in u.markers:
                raise refuse(
                    f"{u.id} is in reserve: reserves attack only as an exploitation force (10.4.1)",
                    "reserve",
                    "10.4.1",
                    order,
                )
            m = u.data.get("moved") or {}
            if int(m.get("turn", 0) or 0) == turn and m.get("disorganized"):
                raise refuse(
                    f"{u.id} made a disorganized move and may not attack (10.10.2)",
                    "disorganized",
                    "10.10.2",
                    order,
                )
            att = u.data.get("attacked") or {}
            if int(att.get("turn", 0) or 0) == turn and (not exploit or att.get("exploit")):
                raise refuse(
                    f"{u.id} has already attacked this Ground phase",
                    "already-attacked",
                    "10.3",
                    order,
                )
            if exploit and not exploiting(u):
                raise refuse(
                    f"{u.id} is not part of the exploitation force (3.H)",
                    "not-exploiting",
                    "10.3",
                    order,
                )
            d = u.hex.distance(h)
            if d > 1:
                raise refuse(
                    f"{u.id} is not next to {state.map.label(h)}", "not-adjacent", "10.15", order
                )
            if d == 0 and not (u.data.get("assault") or {}).get("delivered"):
                raise refuse(
                    f"{u.id} attacks from an adjacent hex (only a landing force assaults its own hex, 10.15.8.3)",
                    "not-adjacent",
                    "10.15.8.3",
                    order,
                )
            landed = int(u.data.get("landed", 0) or 0) == turn
            advanced = (
                int(m.get("turn", 0) or 0) == turn
                and int(m.get("hexes", 0) or 0) > 0
                and m.get("step") == "6.C.3"
            )
            if landed and advanced and (not is_mech(u) or (u.data.get("assault") or {}).get("zoc")):
                raise refuse(
                    f"{u.id} advanced from its landing hex: only mechanised units whose landing hex was not in "
                    "an enemy ZOC attack after advancing (10.15.8.1)",
                    "landed-advance",
                    "10.15.8.1",
                    order,
                )
        enemies = [
            e
            for e in state.units.values()
            if e.hex == h
            and e.side != side
            and e.alive
            and counter(e).category in DEFENDERS
            and detected(state, e, side)
        ]
        if not enemies:
            raise refuse(
                f"{state.map.label(h)} holds no detected enemy ground unit",
                "no-target",
                "10.15",
                order,
            )
        # hexside limit (10.15.1) and landing waves (10.15.8.3)
        lim = int(ptable(state, "movement").get("hexside_limit", 3))
        by_side: dict[Hex, int] = {}
        river = {}
        for u in units:
            e = state.map.edge(u.hex, h) if u.hex != h else {}
            river[u.id] = "major-river" in e or "river" in e
            if counter(u).category == "engineer" and river[u.id]:
                continue  # 10.11.2: the engineer of a river assault does not count
            by_side[u.hex] = by_side.get(u.hex, 0) + (
                1 if counter(u).category == "engineer" else u.steps
            )
        for src, n in by_side.items():
            if src == h:
                w = ptable(state, "ground")["landing"]
                sea = sum(
                    u.steps for u in units if (u.data.get("assault") or {}).get("mode") == "sea"
                )
                air = sum(
                    u.steps for u in units if (u.data.get("assault") or {}).get("mode") == "air"
                )
                if sea > int(w["wave_sea"]) or air > int(w["wave_air"]):
                    raise refuse(
                        f"an assault wave is at most {w['wave_sea']} steps from the sea and {w['wave_air']} from "
                        "the air (10.15.8.3)",
                        "wave-limit",
                        "10.15.8.3",
                        order,
                    )
            elif n > lim:
                raise refuse(
                    f"{n} steps attack across the hexside from {state.map.label(src)}: at most {lim} (10.15.1)",
                    "hexside-limit",
                    "10.15.1",
                    order,
                )
        reserves = []
        for r in {r.id: r for r in args.get("reserves", ())}.values():
            if h not in by_side:
                raise refuse(
                    "only the second wave of an opposed landing is topped up with reserves (10.15.8.3)",
                    "not-a-landing",
                    "10.15.8.3",
                    order,
                )
            if (
                r.hex != h
                or "reserve" not in r.markers
                or not (r.data.get("assault") or {}).get("delivered")
                or r.id in {u.id for u in units}
            ):
                raise refuse(
                    f"{r.id} is not a landing-force reserve in {state.map.label(h)} (10.15.8.3, 10.4)",
                    "not-a-reserve",
                    "10.15.8.3",
                    order,
                )
            reserves.append(r)
        lead = None
        if args.get("lead"):
            lead = args["lead"]
            if lead.id not in {u.id for u in units}:
                raise refuse(
                    "the lead unit must be one of the attackers", "bad-lead", "10.15.9.1", order
                )
        support = []
        for s in {s.id: s for s in args.get("support", ())}.values():
            c = counter(s)
            if c.category in ("engineer", "sof"):
                if s.hex.distance(h) > 1:
                    raise refuse(
                        f"{s.id} must be next to {state.map.label(h)} to support",
                        "out-of-range",
                        "10.15.9.1.2",
                        order,
                    )
            else:
                _can_fire(state, order, s, h, "10.15.6", idf=True)
                if c.is_air and c.mission != "cas" and c.aircraft != "rotary":
                    raise refuse(
                        f"{s.id} is not flying Close Air Support (6.5.10.3)",
                        "not-cas",
                        "6.5.10.3",
                        order,
                    )
            support.append(s)
        _span_of_control(state, order, support)
        from owsnb.rules.ows import css as _css

        for s in support:
            if counter(s).category == "artillery":
                _css.check_munitions(state, order, s, sum(a.left for a in _ground_attacks(s)))
        return {
            "hex": h,
            "units": units,
            "lead": lead,
            "support": support,
            "exploit": exploit,
            "enemies": enemies,
            "reserves": reserves,
        }

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._read(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Combat:
        r = self._read(state, order, args)
        return combat(
            state,
            order.side,
            r["hex"],
            r["units"],
            lead=r["lead"],
            support=r["support"],
            side_knows=True,
        )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        r = self._read(state, order, args)
        side = order.side
        defender = r["enemies"][0].side
        h = r["hex"]
        ev: list[Event] = []
        # the attackers are revealed by declaring (Combat marker); reserves attacked lose the marker later
        for u in r["units"]:
            ev.append(
                unit_set(
                    u.id,
                    markers=u.markers | {"combat"},
                    seen_by=u.seen_by | {defender},
                    rule="10.3",
                    visible_to=None,
                )
            )
        from owsnb.rules.ows import css as _css

        for s in r["support"]:
            if counter(s).category == "artillery":
                ev += _css.pay_munitions(state, s, sum(a.left for a in _ground_attacks(s)))
            ev.append(
                unit_set(
                    s.id,
                    markers=s.markers | {"idf-spt"},
                    rule="10.15.6",
                    visible_to=watchers(state, s),
                )
            )
        clock = state.clock
        pend = {
            "attacker": side,
            "defender": defender,
            "hex": [h.q, h.r],
            "with": [u.id for u in r["units"]],
            "lead": r["lead"].id if r["lead"] else None,
            "support": [s.id for s in r["support"]],
            "exploit": r["exploit"],
            "att_choice": {k: args[k] for k in ("hold", "trade") if args.get(k)},
            "reserves": [u.id for u in r["reserves"]],
            "clock": {"active": list(clock.active), "done": sorted(clock.done)},
            "react_left": None,
        }
        ev += [
            state_set("secret", {"ground_pending": pend}, rule="10.3"),
            state_set(
                "public",
                {
                    "ground_window": {
                        "attacker": side,
                        "defender": defender,
                        "hex": state.map.label(h),
                        "attackers": [u.id for u in r["units"]],
                        "react_left": None,
                    }
                },
                rule="10.3",
            ),
            clock_set(replace(clock, active=(defender,), done=frozenset()), rule="10.3"),
            note(
                f"{side} attacks {state.map.label(h)} with {', '.join(u.id for u in r['units'])}; {defender} may "
                "answer with defensive fires (3.E)",
                rule="10.3",
            ),
        ]
        ev += _set_stage(state, side, "exploit" if r["exploit"] else "move")
        res = Result(
            f"Attack declared on {state.map.label(h)}",
            {"pending": True, "hex": state.map.label(h)},
            ["10.3", "10.15"],
            [],
            [f"waiting for {defender}'s defensive fires (3.E)"],
        )
        return Adjudication(ev, res)


def _top_up(state: StateLike, p: Mapping[str, Any], h: Hex) -> tuple[list[Event], list[str]]:
    """10.15.8.3: the attacker's named reserves in the landing hex join the immediate second round, in
    the order given, while each wave stays within its limit (6 steps from the sea, 6 from the air);
    they lose the Reserve marker (10.4.1) and are revealed like the first wave."""
    w = ptable(state, "ground")["landing"]
    limit = {"sea": int(w["wave_sea"]), "air": int(w["wave_air"])}
    used = {"sea": 0, "air": 0}
    for x in p["with"]:
        u = state.units[x]
        mode = (u.data.get("assault") or {}).get("mode")
        if u.alive and u.hex == h and mode in used:
            used[mode] += u.steps
    events: list[Event] = []
    joined: list[str] = []
    for rid in p.get("reserves") or ():
        r = state.units.get(rid)
        mode = (r.data.get("assault") or {}).get("mode") if r is not None else None
        if r is None or not r.alive or r.hex != h or "reserve" not in r.markers or mode not in used:
            continue
        if used[mode] + r.steps > limit[mode]:
            continue
        used[mode] += r.steps
        joined.append(r.id)
        events.append(
            unit_set(
                r.id,
                markers=(r.markers - {"reserve"}) | {"combat"},
                seen_by=r.seen_by | {p["defender"]},
                rule="10.15.8.3",
                visible_to=None,
            )
        )
    return events, joined


def _resolve_pending(
    state: GameState,
    p: Mapping[str, Any],
    dargs: Mapping[str, Any],
    dice: Any,
) -> tuple[list[Event], Result]:
    """3.E and 3.F: defensive fires, the defender's supporting fires, then the GCAT (a second round
    at once for an inconclusive opposed landing, 10.15.8.3)."""
    roll = Roller(dice)
    h = Hex(*p["hex"])
    lab = state.map.label(h)
    events: list[Event] = [
        state_set("secret", {"ground_pending": None}, rule="10.3"),
        state_set("public", {"ground_window": None}, rule="10.3"),
    ]
    cur = apply_all(state, events)
    lines: list[str] = []
    rules = ["10.3", "10.15.9"]
    # recon switching to Delay (10.8.1)
    for rid in (d.id for d in dargs.get("delay", ())):  # bound units: the defender's
        u = cur.units[rid]
        ev = [
            unit_set(
                u.id, markers=u.markers | {"delay"}, rule="10.8.1", visible_to=watchers(cur, u)
            )
        ]
        events += ev
        cur = apply_all(cur, ev)
        lines.append(f"{u.id} (recon) switches to Delay (10.8.1)")
        rules.append("10.8.1")
    # defensive fires (3.E)
    for spec in dargs.get("fire", ()):
        fid, _, tid = spec.partition(":")
        f, t = cur.units.get(fid), cur.units.get(tid)
        if f is None or t is None or not t.alive or t.hex is None or not f.alive:
            continue
        from owsnb.rules.ows import css as _css

        ev = _css.pay_munitions(cur, f, len(_missions(cur, f, t)))
        fe, fired = fire_on(cur, [f], t, roll, rule="10.15.4")
        events += ev + fe
        cur = apply_all(cur, ev + fe)
        lines += [f"defensive fire: {x}" for x in fired["lines"]]
        rules.append("10.15.4")
    dsup = [cur.units[s.id] for s in dargs.get("support", ()) if cur.units[s.id].alive]
    for s in dsup:
        ev = [
            unit_set(
                s.id, markers=s.markers | {"idf-spt"}, rule="10.15.6", visible_to=watchers(cur, s)
            )
        ]
        from owsnb.rules.ows import css as _css

        if counter(s).category == "artillery":
            ev += _css.pay_munitions(cur, s, sum(a.left for a in _ground_attacks(s)))
        events += ev
        cur = apply_all(cur, ev)
    att = [cur.units[x] for x in p["with"] if cur.units[x].alive and cur.units[x].hex is not None]
    sup = [cur.units[x] for x in p.get("support", ()) if cur.units[x].alive]
    outcome: dict[str, Any] = {"hex": lab}
    rounds = 2 if any(u.hex == h for u in att) else 1
    for rnd in range(rounds):
        defs = defenders(cur, h, p["attacker"])
        att = [
            cur.units[x] for x in p["with"] if cur.units[x].alive and cur.units[x].hex is not None
        ]
        if not defs or not [u for u in att if _manoeuvre(u)]:
            if rnd == 0:
                lines.append(
                    "no combat: "
                    + ("the defenders are gone" if not defs else "no attacking manoeuvre unit left")
                )
            break
        lead = cur.units.get(p.get("lead") or "")
        cb = combat(
            cur,
            p["attacker"],
            h,
            att,
            lead=lead if lead is not None and lead.alive else None,
            support=sup,
            def_support=dsup,
            defender_side=p["defender"],
        )
        r = roll(
            cb.die,
            f"GCAT {cb.columns[cb.column]}: {cb.lead_att.id} {cb.die} vs shield {cb.shield}",
            "10.15.9",
            None,
        )
        cell = gcat_cell(cb.gcat, cb.column, r, cb.shield)
        lines += [f"{k}: {v}" for k, v in cb.rows(public=True)]
        lines.append(
            f"roll {r} -> row '{cb.gcat['rows'][row_index(r, cb.shield, cb.gcat['rows'])]['name']}': {cell}"
        )
        ev, more = apply_result(cur, cell, cb, att_choice=p.get("att_choice"), def_choice=dargs)
        events += ev
        cur = apply_all(cur, ev)
        lines += more
        outcome.update(
            {
                "cell": cell,
                "roll": r,
                "odds": cb.odds,
                "column": cb.columns[cb.column],
                "die": cb.die,
                "shield": cb.shield,
            }
        )
        if rnd == 0 and rounds == 2:
            still = defenders(cur, h, p["attacker"])
            if still:
                lines.append("opposed landing inconclusive: a second round at once (10.15.8.3)")
                rules.append("10.15.8.3")
                ev, joined = _top_up(cur, p, h)
                events += ev
                cur = apply_all(cur, ev)
                p = {**p, "with": [*p["with"], *joined]}
                lines += [f"{x} (reserve) joins the second wave (10.15.8.3)" for x in joined]
                continue
        break
    # bookkeeping: attackers attacked; reserves attacked lose the marker (10.4.1); control
    for x in p["with"]:
        u = cur.units[x]
        ev = [
            unit_set(
                u.id,
                data={"attacked": {"turn": cur.clock.turn, "exploit": bool(p.get("exploit"))}},
                markers=u.markers - {"combat"},
                rule="10.3",
                visible_to=watchers(cur, u),
            )
        ]
        events += ev
        cur = apply_all(cur, ev)
    for e in cur.units.values():
        if e.hex == h and e.side == p["defender"] and "reserve" in e.markers:
            ev = [
                unit_set(
                    e.id,
                    markers=e.markers - {"reserve"},
                    rule="10.4.1",
                    visible_to=watchers(cur, e),
                )
            ]
            events += ev
            cur = apply_all(cur, ev)
    left = [
        e
        for e in cur.units.values()
        if e.hex == h and e.side == p["defender"] and e.alive and counter(e).category in DEFENDERS
    ]
    if not left and any(cur.units[x].hex == h and cur.units[x].alive for x in p["with"]):
        events.append(hex_set(h, {"control": p["attacker"]}, rule="10.15.8"))
        lines.append(f"{p['attacker']} takes {lab}")
    outcome["defender_left"] = bool(left)
    if not left:  # 10.11.2: a river assault that forces the enemy out places the engineer's bridge
        for x in p["with"]:
            e = cur.units[x]
            if (
                counter(e).category == "engineer"
                and e.data.get("bridging")
                and e.alive
                and e.hex is not None
                and len(e.data.get("bridges") or ()) < e.steps
                and "major-river" in cur.map.edge(e.hex, h)
            ):
                site = cur.map.label(e.hex)
                events += [
                    hex_set(
                        e.hex, {"bridge": {"side": e.side, "turn": cur.clock.turn}}, rule="10.11.2"
                    ),
                    unit_set(
                        e.id,
                        data={"bridges": [*(e.data.get("bridges") or ()), site]},
                        rule="10.11.2",
                        visible_to=frozenset({e.side}),
                    ),
                ]
                lines.append(
                    f"river assault succeeds: {e.id} bridges the river at {site} (10.11.2)"
                )
                rules.append("10.11.2")
                break
    events += _set_stage(cur, p["attacker"], "combat") if not p.get("exploit") else []
    res = Result(f"Ground combat on {lab}", outcome, list(dict.fromkeys(rules)), roll.rolls, lines)
    return events, res


class DefensiveFire(OrderHandler):
    """10.3 3.E: the defender answers an attack: defensive fires on the FET at attacking units,
    supporting fires for the defence, recon switching to Delay (10.8.1), its retreat choices
    (G3); then the GCAT is rolled."""

    type = OrderType(
        "defensive-fire",
        (
            Param(
                "fire",
                "text",
                "FIRER:TARGET defensive fire missions",
                positional=False,
                repeat=True,
                optional=True,
            ),
            Param(
                "support",
                "unit",
                "artillery (IDF SPT), CAS, NGFS for the defence",
                positional=False,
                repeat=True,
                optional=True,
            ),
            Param(
                "delay",
                "unit",
                "recon units switching to Delay (10.8.1)",
                positional=False,
                repeat=True,
                optional=True,
            ),
            *RESULT_CHOICES,
        ),
        rule="10.3",
        doc="defender: defensive fires and supporting fires, then the GCAT is rolled",
    )

    def _p(self, state: StateLike, order: Order) -> dict[str, Any]:
        """The attack waiting for this side's defensive fires, as announced (10.3: the public
        window names the attacker, the hex and the attacking units); the umpire's record of it,
        with the attacker's hidden supporting fires, is read only to carry it out."""
        p = _window(state)
        if not p or p.get("defender") != order.side:
            raise refuse(
                "no attack on your units waits for defensive fires",
                "no-attack-pending",
                "10.3",
                order,
            )
        return p

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        try:
            p = self._p(state, Order(side, "defensive-fire"))
        except IllegalOrderError:
            return None
        h = state.map.hex(p["hex"])
        vals: list[dict[str, Any]] = [{}]
        arts = [
            u
            for u in state.units_of(side)
            if counter(u).category == "artillery"
            and u.hex is not None
            and _in_range(state, u, h)
            and "expended" not in u.markers
            and "idf-spt" not in u.markers
        ]
        if arts:
            vals.append({"support": [a.id for a in arts[:2]]})
            vals.append({"fire": [f"{arts[0].id}:{p['attackers'][0]}"]})
        ex = legal_examples(self, state, side, vals, 4)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        p = self._p(state, order)
        h = state.map.hex(p["hex"])
        used: set[str] = set()
        per_target: dict[str, list[Any]] = {}
        for spec in args.get("fire", ()):
            fid, sep, tid = spec.partition(":")
            if not sep:
                raise refuse(f"{spec!r}: write FIRER:TARGET", "bad-fire", "10.15.2", order)
            f = own_unit(state, order, fid, "10.15.2")
            t = enemy_unit(state, order, tid, "10.15.2", detected=detected)
            _can_fire(state, order, f, t.map_hex, "10.15.2")
            if f.id in used:
                raise refuse(f"{f.id} fires only once (10.15.5)", "expended", "10.15.5", order)
            used.add(f.id)
            per_target.setdefault(t.id, []).append(f)
        for fs in per_target.values():
            _span_of_control(state, order, fs)
        sup = []
        for s in args.get("support", ()):  # bound: the side's units alive on the map
            if s.id in used:
                raise refuse(
                    f"{s.id} has fired this impulse (10.15.5)", "expended", "10.15.5", order
                )
            _can_fire(state, order, s, h, "10.15.6", idf=True)
            sup.append(s)
        _span_of_control(state, order, sup)
        for u in args.get("delay", ()):
            if u.hex != h or counter(u).subtype != "recon":
                raise refuse(
                    f"{u.id} is not a recon unit under this attack (10.8.1)",
                    "not-recon",
                    "10.8.1",
                    order,
                )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        return None  # the defender cannot see the attacker's hidden supporting fires

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        self._p(state, order)
        p = _pending(state)
        if p is None:
            raise refuse(
                "no attack on your units waits for defensive fires",
                "no-attack-pending",
                "10.3",
                order,
            )
        ev, res = _resolve_pending(state, p, args, dice)
        clock = state.clock
        ev.insert(
            0,
            clock_set(
                replace(
                    clock, active=tuple(p["clock"]["active"]), done=frozenset(p["clock"]["done"])
                ),
                rule="10.3",
            ),
        )
        return Adjudication(ev, res)


def leave_ground(state: GameState, dice: Any) -> list[Event]:
    """6.C.3 ends: a pending attack the defender did not answer is resolved without defensive
    fires and the pass resumes; remaining activations re-enter the step; at the end the per-phase
    markers (Combat, Delay) come off."""
    events: list[Event] = []
    organize = (
        "6.C.2" if ground_block(state.clock.step) == 1 else "6.C.2b"
    )  # re-entered for the next pass
    p = _pending(state)
    if p:
        ev, _ = _resolve_pending(state, p, {}, dice)
        events += ev
        s2 = apply_all(state, events)
        g = _g(s2)
        g["resume"] = p["clock"]
        events.append(state_set("public", {"ground": g}, rule="10.3"))
        events.append(clock_set(replace(state.clock, step=organize), rule="10.3"))
        return events
    if _queue(state) and _g(state).get("turn") == ground_round(state):
        events.append(clock_set(replace(state.clock, step=organize), rule="10.2"))
        return events
    return events + cleanup(state, dice)


def _units(state: StateLike, ids: Iterable[str]) -> list[Any]:
    return [state.units[i] for i in ids]


def preview(
    game: Any,
    hex: str,
    with_: Sequence[str] = (),
    *,
    lead: str | None = None,
    support: Sequence[str] = (),
    def_support: Sequence[str] = (),
    **kw: Any,
) -> Combat:
    """The GCAT set-up of an attack on *hex* by *with_* (``with`` also accepted), as the umpire sees
    it; ``.distribution()`` is exact.

    >>> from owsnb.rules.ows.examples import example
    >>> callable(preview)
    True
    """
    units = list(with_ or kw.get("with", ()))
    s = game.state
    att = _units(s, units)
    h = s.map.hex(hex)
    return combat(
        s,
        att[0].side,
        h,
        att,
        lead=s.units.get(lead) if lead else None,
        support=_units(s, support),
        def_support=_units(s, def_support),
    )


def resolve(
    game: Any,
    hex: str,
    with_: Sequence[str] = (),
    *,
    lead: str | None = None,
    support: Sequence[str] = (),
    **kw: Any,
) -> Result:
    """Submit ``attack`` (and the defender's empty answer if it is waiting) and return the Result."""
    from owsnb.rules.ows.common import submit

    units = list(with_ or kw.get("with", ()))
    side = game.state.units[units[0]].side
    o = Order(
        side,
        "attack",
        (hex,),
        {
            "with": tuple(units),
            **({"lead": lead} if lead else {}),
            **({"support": tuple(support)} if support else {}),
        },
    )
    r = submit(game, o)
    w = _window(game.state)
    if w and r.outcome.get("pending"):
        return submit(game, Order(w["defender"], "defensive-fire"))
    return r
