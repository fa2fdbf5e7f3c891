"""Regeneration & logistics (11.2–11.10, with 6.6.1.2 SOF regeneration); supply (11.1) is part 2.

Paragraphs: 11.2 remove offensive IO/cyber (defensive tokens may stay) unless a cyber effect
endures: its victim rolls the card's recovery die (``tables/cyber_cards.yaml``); 11.3 reset the space
dashboard, except rows a cyber effect still holds down; 11.4 return air missions (CAP/OCA/DCA/Interdiction/SUCAP/CAS
and their tankers may
stay); 11.5 timers; 11.6 remove status markers (RSO&I, suppression, main effort, cavitation,
TACSIT 1, assault markers C6; partisan suppression lasts through the next turn C8); 11.6.1 repair
infrastructure (D6 = 1, 1–3 with an engineer); 11.7 air mission regeneration by a per-counter
probability (scenario table); 6.6.1.2 SOF: 1D4 missions, each back 1D4 turns ahead (C5); 11.8
reset fires and air defence with auto-resupply (and regenerating grey shields, 2.2.2.3.2); 11.9
resupply from a co-located ASP (2.2.2.5, option); 11.10 advance the turn, weather (2.3.5).

>>> dict(repair_preview(engineer=False)), dict(repair_preview(engineer=True))
({False: Fraction(5, 6), True: Fraction(1, 6)}, {False: Fraction(1, 2), True: Fraction(1, 2)})
>>> dict(air_regeneration_preview("d10", 6))
{False: Fraction(1, 2), True: Fraction(1, 2)}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, hex_set, note, side_set, state_set, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import Result, Roller, legal_examples, option, space, table, watchers
from owsnb.rules.ows.dice import parse_die, success_probability
from owsnb.rules.ows.units import counter

__all__ = [
    "repair_preview",
    "air_regeneration_preview",
    "sof_regeneration_preview",
    "regen_rule",
    "Resupply",
    "HANDLERS",
    "STEP_EFFECTS",
    "TURN_EFFECTS",
    "preview",
    "cyber_recovery",
]

STAY_IN_PLACE = ("cap", "dca", "oca", "interdiction", "sucap", "cas", "tanker")
TURN_MARKERS = (
    "suppressed",
    "main-effort",
    "cavitation",
    "tacsit1",
    "engaged",
    "inserted",
    "sof-mission",
    "sigint",
    "disrupted-c2",
    "expended",
    "idf-spt",
)


def repair_preview(
    engineer: bool = False, die: str = "d6", target_max: int = 1, target_max_engineer: int = 3
) -> Distribution:
    """11.6.1: P(one damaged step is repaired): a D6 roll of 1 (1–3 with an engineer)."""
    n = int(parse_die(die)[1:])
    k = target_max_engineer if engineer else target_max
    return Distribution.bernoulli(Fraction(k, n), label="repaired")


def air_regeneration_preview(die: str = "d10", target: int = 6) -> Distribution:
    """11.7: P(an air mission in the Regeneration Box regenerates) = P(die >= target)."""
    return Distribution.bernoulli(success_probability(die, target), label="regenerated")


def sof_regeneration_preview(in_box: int) -> Distribution:
    """6.6.1.2: number of SOF missions regenerated = 1D4, at most those in the box."""
    return Distribution.die(4).map(lambda r: min(r, in_box), label="SOF missions regenerated")


preview = air_regeneration_preview


def regen_rule(state: StateLike, unit: Any) -> tuple[str, int]:
    """The (die, target) that regenerates *unit* (11.7): the counter's own, else by side, else default."""
    c = counter(unit)
    if c.regen_target:
        return parse_die(c.regen_die or "d10"), int(c.regen_target)
    t = table(state, "regeneration")["air"]
    row = t.get(unit.side) or t.get(c.nation) or t["default"]
    return parse_die(row["die"]), int(row["target"])


# -- step effects ----------------------------------------------------------------------------------
def cyber_recovery(state: StateLike, roll: Roller) -> tuple[list[dict[str, Any]], list[Event]]:
    """11.2: each enduring cyber effect's victim rolls the card's recovery die; the effects that
    stay in play, and the events (rolls are public: the effect is)."""
    stay: list[dict[str, Any]] = []
    lines: list[str] = []
    for e in thaw(state.public.get("cyber_effects") or []):
        r = roll(
            e["die"], f"recovery from {e['card']} on {e['target']} ({e['needs']}+)", "11.2", None
        )
        if r >= int(e["needs"]):
            lines.append(f"{e['target']} recovers from {e['card']} ({r} vs {e['needs']}+)")
        else:
            stay.append(e)
            lines.append(f"{e['card']} stays in play on {e['target']} ({r} vs {e['needs']}+)")
    if not lines:
        return stay, []
    return stay, [
        state_set("public", {"cyber_effects": stay or None}, rule="11.2"),
        note("cyber recovery: " + "; ".join(lines), rule="11.2"),
    ]


def reset_io(state: StateLike, dice: Any) -> list[Event]:
    """7.B / 11.2: offensive IO effects come off unless a cyber effect endures (recovery rolls per
    card); defensive tokens may stay; tokens come back."""
    stay, events = cyber_recovery(state, Roller(dice))
    held = {e["target"] for e in stay}
    for u in state.units.values():
        drop = u.markers & ({"sigint", "disrupted-c2"} if u.id not in held else {"sigint"})
        if drop:
            events.append(
                unit_set(u.id, markers=u.markers - drop, rule="11.2", visible_to=watchers(state, u))
            )
    for s in state.sides:
        events.append(
            side_set(
                s, "private", {"io_used": None, "io_revealed": None, "nuke_used": None}, rule="11.2"
            )
        )
    return events


def reset_space(state: GameState, dice: Any) -> list[Event]:
    """7.C / 11.3: dashboards back to their default values unless a cyber effect is still in play
    (its row stays demoted, 11.2)."""
    from owsnb.kernel.reduce import apply
    from owsnb.rules.ows.information import demote_row

    cur = state
    for s in state.sides:
        d = state.sides[s].public.get("space_default")
        if d:
            cur = apply(cur, side_set(s, "public", {"space": thaw(d)}))
    for e in thaw(state.public.get("cyber_effects") or []):
        if str(e["target"]).startswith("space:"):
            _, who, row = e["target"].split(":")
            cur = apply(cur, demote_row(cur, who, row, "11.3"))
    return [
        side_set(s, "public", {"space": space(cur, s)}, rule="11.3")
        for s in state.sides
        if space(cur, s) != space(state, s)
    ]


def reset_aviation(state: StateLike, dice: Any) -> list[Event]:
    """7.D / 11.4: air missions return to base; CAP/OCA/DCA/Interdiction/SUCAP/CAS and their tankers
    may stay (option ``leave_missions_in_place``); munitions loadouts are unloaded."""
    events: list[Event] = []
    stay = option(state, "leave_missions_in_place")
    for u in state.units.values():
        c = counter(u)
        if not c.is_air or u.hex is None:
            continue
        changes: dict[str, Any] = {}
        if not (stay and c.mission in STAY_IN_PLACE):
            changes.update(hex=None, box="base")
            if u.data.get("tanker_id") or u.data.get("escorts"):
                changes["data"] = {"tanker_id": None, "escorts": []}
        attacks = [a for a in thaw(u.data.get("attacks", ())) if a["id"] != "munitions"]
        if len(attacks) != len(u.data.get("attacks", ())):
            changes.setdefault("data", {})
            changes["data"] = {**changes["data"], "attacks": attacks, "spent": {}}
        if changes:
            events.append(unit_set(u.id, rule="11.4", visible_to=watchers(state, u), **changes))
    return events


def advance_timers(state: StateLike, dice: Any) -> list[Event]:
    """7.E / 11.5: every countdown in ``data.timers`` goes down by one; at zero it and its marker go."""
    events: list[Event] = []
    for u in state.units.values():
        timers = thaw(u.data.get("timers") or {})
        if not timers:
            continue
        new = {k: int(v) - 1 for k, v in timers.items()}
        gone = {k for k, v in new.items() if v <= 0}
        events.append(
            unit_set(
                u.id,
                data={"timers": {k: v for k, v in new.items() if v > 0}},
                markers=u.markers - gone,
                rule="11.5",
                visible_to=watchers(state, u),
            )
        )
    return events


def remove_markers(state: StateLike, dice: Any) -> list[Event]:
    """7.F / 11.6: RSO&I (without a timer), Suppressed (except partisan suppression, C8), Main
    Effort, Cavitation, TACSIT 1 (detection lapses: enemies keep a last-known position), assault
    markers (C6), and the per-turn bookkeeping markers; a radiation plume placed in an earlier
    turn (7.4.1; the radiation marker of the struck hex stays, 7.4)."""
    events: list[Event] = []
    turn = state.clock.turn
    for u in state.units.values():
        m = set(u.markers)
        keep_supp = int(u.data.get("suppressed_until", 0) or 0) > turn
        drop = set(TURN_MARKERS) - ({"suppressed"} if keep_supp else set())
        if (
            "rsoi" in m
            and not (u.data.get("timers") or {}).get("rsoi")
            and option(state, "rsoi_turns") == "this-turn"
        ):
            drop.add("rsoi")
        if "rsoi" in m and not (u.data.get("timers") or {}):
            drop.add("rsoi")
        for a in ("amphibious-assault", "airborne-assault"):
            if a in m and (
                option(state, "assault_markers") == "regeneration"
                or u.hex is None
                or state.map.info(u.hex).facts.get("control") == u.side
            ):
                drop.add(a)
        changes: dict[str, Any] = {}
        if m & drop:
            changes["markers"] = frozenset(m - drop)
        if u.hex is not None and u.seen_by and not counter(u).is_fixed and "emitting" not in m:
            lk = dict(thaw(u.data.get("last_known") or {}))
            for s in u.seen_by:
                lk[s] = [u.hex.q, u.hex.r]
            changes["seen_by"] = frozenset()
            changes["data"] = {"last_known": lk}
        if changes:
            events.append(unit_set(u.id, rule="11.6", visible_to=watchers(state, u), **changes))
    for h, info in state.map.hexes.items():  # 7.4.1: "removed in the next turn's Regeneration"
        placed = info.facts.get("plume")
        if placed is not None and int(placed) < turn:
            events.append(hex_set(h, {"plume": None}, rule="7.4.1"))
    for s in state.sides:
        if state.sides[s].private.get("sr_hexes") or state.sides[s].private.get("sensed"):
            events.append(side_set(s, "private", {"sr_hexes": None, "sensed": None}, rule="8.5.1"))
    events.append(
        state_set(
            "public",
            {
                "isr_used": None,
                "air_resolved": None,
                "strikes_left": None,
                "strike_cup": None,
                "sead_allocations": None,
            },
            rule="11.6",
        )
    )
    return events


def repair(state: StateLike, dice: Any) -> list[Event]:
    """7.G / 11.6.1: each damaged infrastructure step is repaired on a D6 of 1 (1–3 with an engineer)."""
    roll = Roller(dice)
    t = table(state, "regeneration")["repair"]
    events: list[Event] = []
    for h, info in state.map.hexes.items():
        dmg = thaw(info.facts.get("damage") or {})
        if not dmg:
            continue
        eng = any(
            u.alive
            and u.hex == h
            and (counter(u).category == "engineer" or counter(u).subtype == "engineer")
            for u in state.units.values()
        )
        k = int(t["target_max_engineer"] if eng else t["target_max"])
        new = dict(dmg)
        for kind, n in dmg.items():
            for i in range(int(n)):
                r = roll(
                    t["die"],
                    f"repair {kind} at {state.map.label(h)} step {i + 1} (repaired on 1-{k})",
                    "11.6.1",
                    None,
                )
                if r <= k:
                    new[kind] = int(new[kind]) - 1
        new = {k2: v for k2, v in new.items() if v > 0}
        if new != dmg:
            events.append(hex_set(h, {"damage": new or None}, rule="11.6.1"))
    return events


def regenerate(state: StateLike, dice: Any) -> list[Event]:
    """7.H / 11.7 and 6.6.1.2: air missions roll their per-counter probability; SOF by 1D4 missions,
    each back 1D4 turns ahead (1 = the next SOF phase)."""
    roll = Roller(dice)
    events: list[Event] = []
    turn = state.clock.turn
    sof_rule = option(state, "sof_regeneration")
    for side in state.sides:
        boxed = [u for u in state.units.values() if u.side == side and u.box == "regeneration"]
        for u in boxed:
            c = counter(u)
            if not c.is_air and not (c.category == "sof" and sof_rule == "11.7"):
                continue
            base = state.units.get(c.base) if c.base else None
            if base is not None and not base.alive:
                continue
            die, target = regen_rule(state, u)
            r = roll(die, f"regenerate {u.id} ({target}+)", "11.7", frozenset({side}))
            if r >= target:
                events.append(
                    unit_set(
                        u.id,
                        box="base",
                        steps=u.max_steps,
                        markers=frozenset(),
                        rule="11.7",
                        visible_to=watchers(state, u),
                    )
                )
        if sof_rule != "6.6.1.2":
            continue
        sofs = sorted(
            (u for u in boxed if counter(u).category == "sof" and not u.data.get("back_on_turn")),
            key=lambda u: u.id,
        )
        if not sofs:
            continue
        n = roll("d4", f"{side} SOF missions regenerated", "6.6.1.2", frozenset({side}))
        for u in sofs[:n]:
            k = roll("d4", f"turns until {u.id} is back", "6.6.1.2", frozenset({side}))
            events.append(
                unit_set(
                    u.id,
                    data={"back_on_turn": turn + k},
                    rule="6.6.1.2",
                    visible_to=watchers(state, u),
                )
            )
    return events


def sof_back(state: StateLike, turn: int, dice: Any) -> list[Event]:
    """6.6.1.2: SOF missions whose turn has come are back in play for this turn's SOF phase."""
    out = []
    for u in state.units.values():
        b = u.data.get("back_on_turn")
        if b and int(b) <= turn and u.box == "regeneration":
            out.append(
                unit_set(
                    u.id,
                    box="base",
                    steps=u.max_steps,
                    markers=frozenset(),
                    data={"back_on_turn": None},
                    rule="6.6.1.2",
                    visible_to=watchers(state, u),
                )
            )
        elif (
            counter(u).category == "sof"
            and u.hex is not None
            and u.markers & {"inserted", "sof-mission"}
        ):
            pass
    return out


def reset_fires(state: StateLike, dice: Any) -> list[Event]:
    """7.I / 11.8: dice and shields with the curved arrow (auto-resupply) and grey shields with the
    circular arrow (2.2.2.3.2) are reset; the others stay expended until resupplied (11.9)."""
    events: list[Event] = []
    for u in state.units.values():
        c = counter(u)
        sp = dict(c.spent)
        if not sp:
            continue
        auto = {a.key for a in c.attacks if a.auto_resupply} | {
            g.key for g in c.shields if g.auto_resupply or g.regenerates
        }
        new = {k: v for k, v in sp.items() if k not in auto}
        if new != sp:
            events.append(
                unit_set(u.id, data={"spent": new}, rule="11.8", visible_to=watchers(state, u))
            )
    return events


def new_turn(state: StateLike, dice: Any) -> list[Event]:
    """7.J / 11.10: the turn advances (the kernel moves the turn marker); roll the weather (2.3.5)."""
    w = table(state, "weather")
    roll = Roller(dice)
    r = roll(w["die"], "weather", "11.10", None)
    res = w["results"].get(r) or w["results"].get(str(r)) or "clear"
    return [
        state_set("public", {"weather": res}, rule="11.10"),
        note(f"Weather: {res}", rule="2.3.5"),
    ]


def _port_actions_left(state: StateLike, side: str, h: Any) -> int:
    """11.9 / 2.1.7.1: the port's actions (its capacity, less damage) not yet used this turn."""
    from owsnb.rules.ows.strategic import _use, port_capacity

    return port_capacity(state, h) - _use(state, side, "port").get(state.map.label(h), 0)


def _port_use(state: StateLike, side: str, h: Any) -> Event:
    from owsnb.rules.ows.strategic import _use_event

    return _use_event(state, side, "port", state.map.label(h), 1)


class Resupply(OrderHandler):
    """11.9 / 2.2.2.5: resupply a unit's critical munitions from a co-located ASP (scenario option);
    each salvo restored comes out of the ASP; a ship is resupplied in port, using one of the port's
    actions (its capacity per turn, shared with embarking and offloading, 2.1.7.1)."""

    type = OrderType(
        "resupply",
        (Param("unit", "unit", "unit to resupply"), Param("asp", "unit", "co-located ASP")),
        rule="11.9",
        doc="resupply missiles from an ASP",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not option(state, "missile_resupply"):
            return None
        pairs = [
            {"unit": u.id, "asp": a.id}
            for a in state.units_of(side)
            if counter(a).category == "asp" and a.hex is not None and int(counter(a).salvos) > 0
            for u in state.units_at(a.hex)
            if u.side == side and counter(u).spent and u.id != a.id
        ]
        ex = legal_examples(self, state, side, pairs)  # a busy port offers no ship (11.9)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if not option(state, "missile_resupply"):
            raise refuse(
                "this scenario does not allow missile resupply (2.2.2.5)",
                "option-off",
                "2.2.2.5",
                order,
            )
        u, a = args["unit"], args["asp"]  # bound: the side's units alive on the map
        if counter(a).category != "asp":
            raise refuse(f"{a.id} is not an ASP", "not-asp", "11.9", order)
        if a.hex != u.hex:
            raise refuse(f"{u.id} is not co-located with {a.id}", "not-co-located", "11.9", order)
        if int(counter(a).salvos) <= 0:
            raise refuse(f"{a.id} is empty", "asp-empty", "11.9", order)
        if counter(u).category == "naval":
            if "port" not in state.map.info(u.hex).features:
                raise refuse("a ship is resupplied in port (11.9)", "not-in-port", "11.9", order)
            if _port_actions_left(state, order.side, u.hex) < 1:
                raise refuse(
                    f"the port at {state.map.label(u.hex)} has no action left this turn: a ship "
                    "is resupplied 'using one of that port's actions' (11.9, 2.1.7.1)",
                    "port-busy",
                    "11.9",
                    order,
                )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, a = args["unit"], args["asp"]
        sp = dict(counter(u).spent)
        stock = int(counter(a).salvos)
        restored = 0
        for k in list(sp):
            n = min(int(sp[k]), stock - restored)
            sp[k] = int(sp[k]) - n
            restored += n
        sp = {k: v for k, v in sp.items() if v > 0}
        ev = [
            unit_set(u.id, data={"spent": sp}, rule="11.9", visible_to=watchers(state, u)),
            *([_port_use(state, order.side, u.hex)] if counter(u).category == "naval" else []),
            unit_set(
                a.id,
                data={"salvos": stock - restored},
                rule="2.2.2.5",
                visible_to=watchers(state, a),
            ),
        ]
        return Adjudication(
            ev, Result(f"{u.id} resupplied from {a.id}", {"salvos": restored}, ["11.9", "2.2.2.5"])
        )


HANDLERS = [Resupply()]
STEP_EFFECTS = {
    "7.B": reset_io,
    "7.C": reset_space,
    "7.D": reset_aviation,
    "7.E": advance_timers,
    "7.F": remove_markers,
    "7.G": repair,
    "7.H": regenerate,
    "7.I": reset_fires,
    "7.J": new_turn,
}
TURN_EFFECTS = [sof_back]
