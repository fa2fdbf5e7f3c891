"""Engagements inside a game: the open engagement's record, its rounds, and how it ends.

The open engagement is public (every unit in it is deployed, and deployed units are public):
``state.public["engagement"]`` holds who attacks whom with what, the stage (``"retaliate"`` while
the defender declares, then ``"rounds"``), who won the initiative, the malfunctioned weapons and
the clock to return to. The pure mechanics are in :mod:`owsnb.rules.opscale.combat`; this module
turns their results into kernel events (Endurance, damage, destruction, transit survival, score,
experience).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.events import Event, clock_set, note, side_set, state_set, unit_set
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opscale.board import (
    alive_on_map,
    beyond_network,
    enemy_units_at,
    is_neutral,
    position,
    step_cost,
)
from owsnb.rules.opscale.combat import (
    CombatRules,
    EngagementSpec,
    Fire,
    RoundResult,
    Shot,
    can_fire,
    initiative_bonus,
    resolve_round,
    roll_initiative,
)
from owsnb.rules.opscale.experience import bonus_for, eligible
from owsnb.rules.opscale.scoring import capture_points, destroy_points
from owsnb.rules.opscale.transit import survival
from owsnb.rules.opscale.units import DESTROYED, OBSTACLES, card_of, status_of

__all__ = [
    "record",
    "spec_of",
    "statuses",
    "initiative_mods",
    "Report",
    "Tally",
    "open_events",
    "retaliation_events",
    "round_events",
    "close_events",
    "defending_group",
    "roller",
]


def record(state: StateLike) -> dict[str, Any] | None:
    """The open engagement (plain data), or ``None``."""
    rec = state.public.get("engagement")
    return thaw(rec) if rec else None


def roller(dice: Any) -> Any:
    """A combat roller over the kernel's dice; engagement rolls are public."""

    def roll(sides: int, purpose: Any, rule: str, actor: str) -> int:
        text = purpose() if callable(purpose) else purpose
        return dice.roll(sides, purpose=text, rule=rule, actor=actor, visible_to=None)

    return roll


def _fires(rows: Iterable[Sequence[Any]]) -> tuple[Fire, ...]:
    return tuple(Fire(r[0], r[1], tuple(r[2])) for r in rows)


def defending_group(state: StateLike, side: str, h: Any) -> list[str]:
    """OES.10: the defender's units in the engagement hex (fixed obstacles are cleared by engineers,
    not engaged; carried units are inside their transport)."""
    return [
        u.id
        for u in state.units.values()
        if u.side == side
        and alive_on_map(u)
        and u.hex == h
        and u.data.get("category") not in OBSTACLES
    ]


def spec_of(state: StateLike, rec: Mapping[str, Any]) -> EngagementSpec:
    """The :class:`EngagementSpec` of an engagement record in this state."""
    ids = list(dict.fromkeys([*rec["attacking"], *rec["defending"]]))
    cards = {u: card_of(state.units[u]) for u in ids}
    pos = {u: position(state, state.units[u]) for u in ids}
    dist = {
        (a, b): pos[a].distance(pos[b])
        for a in ids
        for b in ids
        if a != b and pos[a] is not None and pos[b] is not None
    }
    return EngagementSpec(
        attacker=rec["attacker"],
        defender=rec["defender"],
        cards=cards,
        attacks=_fires(rec["attacks"]),
        retaliations=_fires(rec.get("retaliations", ())),
        attacking=tuple(rec["attacking"]),
        defending=tuple(rec["defending"]),
        distance=dist,
        rules=CombatRules.from_options(state.options),
    )


def statuses(state: StateLike, spec: EngagementSpec) -> dict[str, tuple[int, int]]:
    """(Endurance, crew) of every unit in the engagement now."""
    return {u: status_of(state.units[u]) for u in spec.order}


def initiative_mods(state: StateLike, rec: Mapping[str, Any]) -> tuple[int, int, list[str]]:
    """OES.3 modifiers (attacker, defender) with the reasons: the attacker's +2 (lost beyond the
    Command Network, CN.2), the defender's -1 beyond the network (CN.1), experience (EXP.1, R5),
    Command Cards, and the supply-deficit placeholder penalty (R3)."""
    cmd = state.table("command")
    scope = state.options.get("network_scope", "majority")
    bscope = state.options.get("initiative_bonus_scope", "highest")
    att_units = [state.units[r[0]] for r in rec["attacks"]]
    def_ids = [r[0] for r in rec.get("retaliations", ())] or list(rec["defending"])
    def_units = [state.units[u] for u in def_ids]
    a, d, why = 0, 0, []
    if beyond_network(state, att_units, scope):
        why.append(
            f"{rec['attacker']} attacks beyond the Command Network: no "
            f"+{cmd['attack_initiative_bonus']} (CN.2)"
        )
    else:
        a += int(cmd["attack_initiative_bonus"])
        why.append(f"{rec['attacker']} attacker bonus +{cmd['attack_initiative_bonus']} (OES.3)")
    if beyond_network(state, def_units, scope):
        pen = int(cmd["penalties"]["defensive_initiative"])
        d += pen
        why.append(f"{rec['defender']} defends beyond the Command Network {pen:+d} (CN.1)")
    ab = initiative_bonus([card_of(u) for u in att_units], "attack", bscope)
    db = initiative_bonus([card_of(u) for u in def_units], "defense", bscope)
    if ab:
        a += ab
        why.append(f"{rec['attacker']} experience +{ab} (Stealthy/Combat Veteran, EXP.1)")
    if db:
        d += db
        why.append(f"{rec['defender']} experience +{db} (Vigilant/Combat Veteran, EXP.1)")
    for side, bonus in (rec.get("init_bonus") or {}).items():
        if side == rec["attacker"]:
            a += int(bonus)
        else:
            d += int(bonus)
        why.append(f"{side} Command Card {int(bonus):+d}")
    if state.options.get("supply_deficit") == "initiative":
        for side in (rec["attacker"], rec["defender"]):
            if state.sides[side].public.get("deficit"):
                if side == rec["attacker"]:
                    a -= 1
                else:
                    d -= 1
                why.append(f"{side} in supply deficit -1 (placeholder penalty, R3)")
    return a, d, why


@dataclass
class Report:
    """What an engagement order did: dice, shots, outcome, rules applied (rich display)."""

    title: str
    lines: list[str] = field(default_factory=list)
    shots: list[Shot] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    winner: str | None = None
    initiative: str | None = None
    ended: bool = False

    def __repr__(self) -> str:
        return f"<Report {self.title}: {len(self.shots)} attacks{'; ended' if self.ended else ''}>"

    def text(self) -> str:
        return "\n".join([self.title, *self.lines, *(s.text() for s in self.shots)])

    def record(self) -> Any:
        """The engagement as a result: its narration, one row per attack (D20, result, net)."""
        from owsnb.kernel.result import Result

        return Result(
            self.title,
            {},
            list(dict.fromkeys(self.rules)),
            lines=list(self.lines),
            columns=["unit", "weapon", "target", "D20", "result", "net", "effect"]
            if self.shots
            else [],
            table=[
                {
                    "unit": s.shooter,
                    "weapon": s.weapon,
                    "target": s.target,
                    "D20": f"{s.nat}{'+' + str(s.bonus) if s.bonus else ''}",
                    "result": s.kind,
                    "net": s.net if s.intensity else "",
                    "effect": "destroyed" if s.destroyed else ("damaged" if s.damaged else ""),
                }
                for s in self.shots
            ],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


class Tally:
    """Collects events while keeping the state they lead to (so later steps see earlier effects)."""

    def __init__(self, state: GameState, dice: Any = None):
        self.state = state
        self.dice = dice
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        self.events.extend(events)
        self.state = apply_all(self.state, events)

    def score(self, side: str, points: int, why: str, rule: str) -> None:
        if not points or side not in self.state.sides or is_neutral(self.state, side):
            return
        new = int(self.state.sides[side].public.get("score", 0)) + int(points)
        self.add(
            side_set(side, "public", {"score": new}, rule=rule),
            note(f"{side} scores {points} ({why}); score {new}", rule=rule),
        )


def _place_survivor(state: StateLike, unit: Any, h: Any) -> Any:
    """Where a unit thrown out of a destroyed transport lands (ruling R23): the nearest hex it may
    enter with no enemy unit in it, else ``None``."""
    for cand in sorted(state.map.hexes, key=lambda x: (x.distance(h), x)):
        if step_cost(state, unit, cand) is not None and not enemy_units_at(state, cand, unit.side):
            return cand
    return None


def destroy(t: Tally, uid: str, by: str | None, rule: str, report: Report | None = None) -> None:
    """A unit is destroyed: removed from the map (box ``destroyed``), the destroyer scores (SC.1,
    SC.4, SC.5), and every unit it carried rolls for transit survival (TR)."""
    from owsnb.rules.opscale.experience import stars

    u = t.state.units[uid]
    where = position(t.state, u)
    t.add(
        unit_set(
            uid,
            steps=0,
            hex=None,
            box="destroyed",
            markers=(u.markers - {"set-up", "sortie"}) | {"destroyed"},
            data={"carried_by": None},
            rule=rule,
        ),
        note(f"{uid} destroyed", rule=rule),
    )
    if by is not None and by != u.side:
        pts = destroy_points(
            int(u.data.get("cost", 0)),
            stars(u.data.get("experience", ())),
            u.data.get("category", ""),
            t.state.table("scoring"),
        )
        t.score(
            by,
            pts,
            f"destroyed {uid}",
            "SC.5" if u.data.get("category") in ("command-post", "forward-hq") else "SC.1",
        )
    for c in [
        x for x in t.state.units.values() if x.box == "carried" and x.data.get("carried_by") == uid
    ]:
        transit_survival(t, c, where, by, report)


def transit_survival(
    t: Tally, unit: Any, where: Any, by: str | None, report: Report | None
) -> None:
    """TR: D10 for a unit in transit whose transport was destroyed."""
    roll = t.dice.roll(
        10,
        purpose=f"transit survival of {unit.id} (TR: 1-5 destroyed, 6-8 damaged, 9-10 intact)",
        rule="TR",
        actor=unit.side,
        visible_to=None,
    )
    result = survival(roll, t.state.table("transit"))
    if report is not None:
        report.lines.append(f"{unit.id} in transit rolls {roll}: {result} (TR)")
        report.rules.append("TR")
    if result == "destroyed":
        destroy(t, unit.id, by, "TR", report)
        return
    h = _place_survivor(t.state, unit, where) if where is not None else None
    if h is None:
        destroy(t, unit.id, by, "TR", report)
        return
    changes: dict[str, Any] = {"hex": h, "box": None, "data": {"carried_by": None}}
    if result == "damaged":
        half = int(unit.data.get("half_endurance", 0))
        changes["steps"] = max(1, min(unit.steps, half))
        changes["markers"] = unit.markers | {"damaged"}
    t.add(
        unit_set(unit.id, rule="TR", **changes),
        note(f"{unit.id} survives, {result}, at {t.state.map.label(h)}", rule="TR"),
    )


def _apply_round(t: Tally, spec: EngagementSpec, res: RoundResult, report: Report) -> None:
    for shot in res.shots:
        report.shots.append(shot)
        report.rules.extend(shot.rules)
    before = statuses(t.state, spec)
    for uid in spec.order:
        after = res.statuses[uid]
        if after == before[uid]:
            continue
        if after == DESTROYED:
            destroy(t, uid, spec.other(spec.cards[uid].side), "OES.9", report)
            continue
        u = t.state.units[uid]
        changes: dict[str, Any] = {"steps": after[0]}
        if spec.cards[uid].crew:
            changes["data"] = {"crew_now": after[1]}
        if spec.cards[uid].damaged_at(after[0]) and "damaged" not in u.markers:
            changes["markers"] = u.markers | {"damaged"}
        t.add(unit_set(uid, rule="OES.9", **changes))


def open_events(
    state: GameState,
    attacker: str,
    defender: str,
    attacks: list[list[Any]],
    h: Any,
    dice: Any,
    auto: bool,
) -> tuple[list[Event], Report]:
    """OES.1: the attacker declares; the engagement opens (and, for a neutral or auto-retaliating
    defender, OES.2-OES.3 follow at once)."""
    n = int(state.public.get("engagements", 0)) + 1
    rec = {
        "n": n,
        "hex": state.map.label(h),
        "attacker": attacker,
        "defender": defender,
        "attacks": attacks,
        "retaliations": [],
        "attacking": [a[0] for a in attacks],
        "defending": defending_group(state, defender, h),
        "stage": "retaliate",
        "first": None,
        "rounds": 0,
        "disabled": [],
        "init_bonus": {},
        "resume": {"active": list(state.clock.active), "done": sorted(state.clock.done)},
        "turn": state.clock.turn,
    }
    t = Tally(state, dice)
    report = Report(
        f"Engagement {n} at {rec['hex']}: {attacker} attacks {defender}", rules=["OES.1"]
    )
    for a in attacks:
        u = state.units[a[0]]
        t.add(
            unit_set(
                a[0],
                markers=u.markers | {"attacked"},
                data={"used": True} if u.data.get("captured") else {},
                rule="OES.1",
            )
        )
        report.lines.append(f"{a[0]} attacks {a[1]} with {' and '.join(a[2])} (OES.1)")
    t.add(
        state_set("public", {"engagement": rec, "engagements": n}, rule="OES.1"),
        note(report.title + " — " + ", ".join(f"{a[0]}→{a[1]}" for a in attacks), rule="OES.1"),
    )
    if auto:
        rets = auto_retaliation(t.state, rec)
        ev, rep2 = retaliation_events(t.state, record(t.state), rets, dice, automatic=True)
        t.add(*ev)
        report.lines += rep2.lines
        report.rules += rep2.rules
        report.initiative = rep2.initiative
    else:
        t.add(
            clock_set(replace(t.state.clock, active=(defender,), done=frozenset()), rule="OES.2"),
            note(f"{defender} declares retaliating units (OES.2)", rule="OES.2"),
        )
        report.lines.append(f"{defender} now declares retaliating units (OES.2)")
    return t.events, report


def auto_retaliation(state: StateLike, rec: Mapping[str, Any]) -> list[list[Any]]:
    """Neutral forces (and, under ``auto_retaliate``, any defender) retaliate with every defending
    unit that can reach an attacker, at the first attacker it can hit (ruling R16/R41)."""
    spec = spec_of(state, {**rec, "retaliations": []})
    out = []
    for uid in rec["defending"]:
        card = spec.cards[uid]
        if not card.can_fire:
            continue
        weapons = card.profile(card.damaged_at(state.units[uid].steps)).weapons
        for a in rec["attacking"]:
            if any(spec.may_hit(uid, w, a) for w in weapons):
                out.append([uid, a, ["primary", "secondary"]])
                break
    return out


def retaliation_events(
    state: GameState, rec: dict[str, Any], rets: list[list[Any]], dice: Any, automatic: bool = False
) -> tuple[list[Event], Report]:
    """OES.2-OES.3: retaliating units are declared and the initiative is rolled."""
    t = Tally(state, dice)
    report = Report(
        f"Engagement {rec['n']}: {rec['defender']} retaliates", rules=["OES.2", "OES.3"]
    )
    rec = dict(rec)
    rec["retaliations"] = rets
    rec["defending"] = list(dict.fromkeys([*rec["defending"], *(r[0] for r in rets)]))
    for r in rets:
        report.lines.append(
            f"{r[0]} retaliates against {r[1]} (OES.2{', automatic' if automatic else ''})"
        )
        u = state.units[r[0]]
        if u.data.get("captured") and not u.data.get("used"):
            t.add(unit_set(r[0], data={"used": True}, rule="GS.2"))
    if not rets:
        report.lines.append(f"{rec['defender']} declares no retaliating unit (OES.2)")
    a, d, why = initiative_mods(t.state, rec)
    winner, pairs = roll_initiative(rec["attacker"], rec["defender"], a, d, roller(dice))
    report.lines += why
    for x, y in pairs:
        report.lines.append(
            f"initiative: {rec['attacker']} {x}{a:+d} = {x + a} vs {rec['defender']} {y}{d:+d} = "
            f"{y + d}" + (" — tie, re-roll" if x + a == y + d else "")
        )
    report.lines.append(f"{winner} wins the initiative and fires first (OES.3)")
    report.initiative = winner
    rec["first"] = winner
    rec["stage"] = "rounds"
    t.add(
        state_set("public", {"engagement": rec}, rule="OES.3"),
        note(f"Engagement {rec['n']}: {winner} wins the initiative (OES.3)", rule="OES.3"),
    )
    if not automatic:
        t.add(
            clock_set(
                replace(
                    t.state.clock,
                    active=tuple(rec["resume"]["active"]),
                    done=frozenset(rec["resume"]["done"]),
                ),
                rule="OES.3",
            )
        )
    return t.events, report


def round_events(
    state: GameState, rec: dict[str, Any], dice: Any, rounds: int = 1
) -> tuple[list[Event], Report]:
    """OES.4-OES.10: fight up to *rounds* combat rounds; the engagement closes when one side's
    units are all destroyed."""
    t = Tally(state, dice)
    report = Report(f"Engagement {rec['n']} at {rec['hex']}")
    rec = dict(rec)
    for _ in range(rounds):
        spec = spec_of(t.state, rec)
        if not can_fire(spec, statuses(t.state, spec)):
            _stalemate(t, rec, report)
            return t.events, report
        res = resolve_round(
            spec,
            statuses(t.state, spec),
            rec["disabled"],
            rec["first"],
            roller(dice),
            rec["rounds"] + 1,
        )
        rec["rounds"] += 1
        rec["disabled"] = sorted(res.disabled_next)
        report.lines.append(f"round {rec['rounds']}: {len(res.shots)} attacks")
        _apply_round(t, spec, res, report)
        for uid in (*spec.attacking, *(r.unit for r in spec.retaliations)):
            u = t.state.units[uid]
            if u.data.get("captured") and not u.data.get("used") and u.side == spec.cards[uid].side:
                t.add(unit_set(uid, data={"used": True}, rule="GS.2"))
        if res.winner is not None:
            report.winner = res.winner
            report.lines.append(
                f"{res.winner} wins engagement {rec['n']}: the other side's units are all "
                "destroyed (OES.10)"
            )
            report.rules.append("OES.10")
            t.add(state_set("public", {"engagement": rec}, rule="OES.10"))
            close_events(t, rec, report, f"{res.winner} won")
            return t.events, report
        spec = spec_of(t.state, rec)
        if not can_fire(spec, statuses(t.state, spec)):
            _stalemate(t, rec, report)
            return t.events, report
    t.add(
        state_set("public", {"engagement": rec}, rule="OES.10"),
        note(
            f"Engagement {rec['n']}: round {rec['rounds']} fought; the engagement continues "
            "(OES.10)",
            rule="OES.10",
        ),
    )
    return t.events, report


def _stalemate(t: Tally, rec: dict[str, Any], report: Report) -> None:
    """Ruling R45: no surviving declared unit of either side can fire at a legal target, so the
    engagement ends (neither group destroyed: nobody wins it)."""
    report.lines.append(
        f"engagement {rec['n']}: no unit of either side can fire at a legal target; it ends (R45)"
    )
    report.rules.append("R45")
    t.add(state_set("public", {"engagement": rec}, rule="R45"))
    close_events(t, rec, report, "no unit of either side can fire (R45)")


def close_events(
    t: Tally, rec: Mapping[str, Any], report: Report, why: str, forced_by: str | None = None
) -> None:
    """End the engagement: experience for surviving crews and infantry (OES.11, EXP.2: a roll for
    a combat action, once a round was fought, and one for forcing a withdrawal), then the clock
    returns to the attacker's Combat step."""
    state = t.state
    xp = state.table("experience")
    if state.options.get("experience_checks", True):
        participants = [
            *(r[0] for r in rec["attacks"]),
            *(r[0] for r in rec.get("retaliations", ())),
        ]
        for uid in dict.fromkeys(participants):
            u = t.state.units.get(uid)
            if (
                u is None
                or u.steps <= 0
                or u.box == "destroyed"
                or not eligible(u, xp)
                or is_neutral(state, u.side)
            ):
                continue
            # EXP.2 "Combat Action": only once a combat round has been fought (an attack
            # declared and broken off at once is none); "Forcing A Withdrawal" stands alone
            n = int(xp.get("rolls_per_combat_action", 1)) if int(rec.get("rounds", 0)) else 0
            if forced_by is not None and u.side == forced_by:
                n += int(xp.get("rolls_per_forced_withdrawal", 1))
            if not n:
                continue
            gained = list(u.data.get("experience", ()))
            for _ in range(n):
                roll = t.dice.roll(
                    10,
                    purpose=f"experience roll for {uid} (EXP.1)",
                    rule="EXP.2",
                    actor=u.side,
                    visible_to=None,
                )
                b = bonus_for(roll, xp)
                if b != "none" and (
                    state.options.get("experience_stacking", True) or b not in gained
                ):
                    gained.append(b)
                report.lines.append(
                    f"{uid} experience roll {roll}: {xp['titles'].get(b, b)} (EXP.1)"
                )
            if gained != list(u.data.get("experience", ())):
                t.add(unit_set(uid, data={"experience": gained}, rule="EXP.1"))
            report.rules.append("EXP.2")
    resume = rec["resume"]
    t.add(
        state_set("public", {"engagement": None}, rule="OES.10"),
        clock_set(
            replace(t.state.clock, active=tuple(resume["active"]), done=frozenset(resume["done"])),
            rule="TS.5",
        ),
        note(f"Engagement {rec['n']} at {rec['hex']} ends: {why}", rule="OES.10"),
    )
    report.ended = True


def surrender_events(
    t: Tally, rec: Mapping[str, Any], side: str, conditional: bool, report: Report
) -> None:
    """Ruling R35: the surrendering side's engaged units are captured by the other side (SC.2/SC.3),
    and a nearly defeated side negotiating a conditional surrender scores 50 (SC.6, R19)."""
    from owsnb.rules.opscale.experience import stars

    state = t.state
    captor = rec["defender"] if side == rec["attacker"] else rec["attacker"]
    group = rec["attacking"] if side == rec["attacker"] else rec["defending"]
    alive = [u for u in group if state.units[u].steps > 0]
    lost = len(group) - len(alive)
    nearly = lost * 2 >= len(group) or all(
        state.units[u].steps <= int(state.units[u].data.get("half_endurance", 0)) for u in alive
    )
    h = state.map.hex(rec["hex"])
    table = state.table("scoring")
    captured = list(alive)
    for u in list(alive):
        captured += [
            c.id
            for c in state.units.values()
            if c.box == "carried" and c.data.get("carried_by") == u
        ]
    for uid in captured:
        u = t.state.units[uid]
        changes: dict[str, Any] = {
            "side": captor,
            "data": {"captured": True, "used": False},
            "markers": u.markers - {"attacked", "sortie"},
        }
        if u.hex is not None and u.hex != h:
            changes["hex"] = h
        t.add(unit_set(uid, rule="SC.3" if conditional else "SC.2", **changes))
        pts = capture_points(
            int(u.data.get("cost", 0)), stars(u.data.get("experience", ())), conditional, table
        )
        t.score(
            captor,
            pts,
            f"captured {uid} ({'conditional' if conditional else 'unconditional'} surrender)",
            "SC.3" if conditional else "SC.2",
        )
        report.lines.append(f"{uid} captured by {captor}")
    if (
        conditional
        and nearly
        and state.options.get("surrender_bonus_to", "surrendering") == "surrendering"
    ):
        t.score(
            side,
            int(table["negotiate_conditional_surrender"]["points"]),
            "negotiated a conditional surrender when nearly defeated",
            "SC.6",
        )
