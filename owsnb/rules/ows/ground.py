"""Ground movement and combat (10.2-10.15): initiative, organize, fires, the GCAT, exploitation.

Paragraphs: 10.2 initiative methods (10.2.1 by side, 10.2.2 I-GO-U-GO by formation, 10.2.3 random
chit draw, 10.2.4 planned activation with a random draw between sides, disrupted or destroyed HQs
last; 10.2.5 a decision card seizes the initiative, an opposed roll if both play one); 10.3 the
ground sequence (organize, then initiative, C9; per actioning unit: prep fires, fuel, move and
declare, supporting fires, defensive fires, resolve, exploitation move and combat); 10.4 reserves
(half MP, never attack in normal combat, lose the marker when attacked); 10.4.1.1 activation in
exploitation; 10.4.1.1.1 reaction move (d6 - HQ proficiency counters, -2 if the HQ is disrupted or
suppressed); 10.5 main effort (one per Div/Corps HQ, a supporting arm, the lead unit); 10.6
Defend (+1 shield, lost on moving); 10.7 Fortified (+2, needs Defend at the start of the phase and
an engineer; the marker stays in the hex); 10.8 Delay (no attack, the attacker's die demoted,
ignores a 1-step loss and retreats 1; 2+ losses: one step, the rest cancelled by the retreat);
10.8.1 recon may switch to Delay when attacked; 10.12 obstacles and engineers; 10.15.1 at most 3
steps attack across one hexside; 10.15.2 fires declared by hex; 10.15.3 span of control (2
battalions or 1 BAG; 10.15.3.1 bombardment up to 4, option); 10.15.4 the Fires Effects Table;
10.15.4.1 PGM promotions (air munitions counters, attack helicopters); 10.15.5 each artillery die is
one fire mission, a counter fires all at once and is marked Expended (option: split); 10.15.6 IDF
SPT and CAS are supporting arms (C3); 10.15.7 suppression; 10.15.8 landings (unopposed: up to 12
steps regardless of ZOC, C7; mechanised units may advance one hex then attack; opposed: waves of
6 + 6 and an immediate second round); 10.15.9 the GCAT: odds of manoeuvre steps (C11, R7), lead
units (Main Effort forced; the defender's highest red shield with Defend/Fortified, R8), supporting
arms 2+/4+/6+ per side then netted (R5), quality 3+ (R6; 10.15.9.1.4 alternative), net shifts and
die changes, one roll of the attacker lead unit's die against the shield picks the row;
10.15.9.1.6 results A#, D#, R# (R9), EXP, cancelling a retreat with a step, turning extra losses
into retreat, the first loss always applies except in Delay, Fortified ignores R1; 11.1 supply
shifts (one column low, two out).

Rulings of this module (documented in COVERAGE.md):

* **G1** each attack is declared, answered by the defender (defensive fires, supporting fires,
  reaction, recon Delay) and resolved in turn; the order of declarations is the attacker's order of
  resolution, and no unit moves in normal movement after the first attack is resolved.
* **G2** losses are taken by the lead unit first, then the other manoeuvre units (most steps
  first), then the rest; retreats go away from the enemy into hexes free of enemy units, preferring
  hexes out of enemy ZOC, within stacking; a unit that cannot retreat loses a step instead.
* **G3** a side's retreat-cancel (``hold=yes``) and loss-to-retreat (``trade=yes``) choices are
  given with its order (attacker: ``attack``; defender: ``defensive-fire``).
* **G4** with two Ground phases a turn (option ``ground_phases: 2``, the 10.3 design note) the second
  (steps ``6.C.1b``-``6.C.4b``) starts afresh: units move and attack again, Main Efforts are designated
  again, a Defend of the first phase counts as held at the start of the second (10.7), landing
  restrictions and the day's fuel start over; Reserve, Defend, Fortified, Suppressed and Expended
  markers stay until Regeneration, so artillery fired in the first phase stays Expended.

>>> odds(7, 3), odds(2, 5), odds(4, 0)
('2:1', '1:3', '99:1')
>>> quality_points(["d12", "d12", "d12"], ["d10", "d10", "d8"])
(3, 0)
>>> quality_points(["d10", "d10", "d8"], ["d8"])
(3, 0)
>>> [reaction_units(r, 2) for r in (4, 2, 1)], reaction_units(4, 2, disrupted=True)
([2, 0, 0], 0)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import (
    Event,
    clock_set,
    hex_set,
    note,
    side_set,
    state_set,
    unit_move,
    unit_set,
)
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    enemy_unit,
    hand,
    legal_examples,
    option,
    own_unit,
    refuse,
    watchers,
)
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import parse_die, rung, shift, sides
from owsnb.rules.ows.movement import (
    GROUND_CATEGORIES,
    ground_reach,
    is_mech,
    is_water,
    known_enemies,
    mobility,
    ptable,
    stack_ok,
    zoc_hexes,
)
from owsnb.rules.ows.planning import check_card, play_card
from owsnb.rules.ows.sequence import base_step, ground_block, ground_round
from owsnb.rules.ows.units import counter

__all__ = [
    "odds",
    "quality_points",
    "reaction_units",
    "column_index",
    "row_index",
    "parse_result",
    "gcat_cell",
    "Combat",
    "combat",
    "gcat_distribution",
    "preview",
    "resolve",
    "fire_preview",
    "fire_on",
    "unit_dice",
    "defence",
    "formation_of",
    "formations",
    "STAGES",
    "HANDLERS",
    "STEP_EFFECTS",
    "LEAVE_EFFECTS",
    "check_may_act",
    "after_move",
    "Initiative",
    "Reserve",
    "MainEffort",
    "Defend",
    "Fortify",
    "Delay",
    "TaskOrganize",
    "PrepFire",
    "Attack",
    "DefensiveFire",
    "React",
    "Exploit",
    "reaction_preview",
    "apply_result",
]

STAGES = ("prep", "move", "combat", "exploit")
"""The actioning side's impulses in order (10.3 3.A-3.H, G1)."""

DEFENDERS = GROUND_CATEGORIES + ("sof",)


# =====================================================================================================
# pure GCAT helpers
# =====================================================================================================
def odds(att_steps: int, def_steps: int) -> str:
    """10.15.9.1.1, R7, C11: attacker:defender manoeuvre steps, fractions down; at or above 1:1
    ``floor(A/D):1``, below ``1:ceil(D/A)``; no defending manoeuvre steps reads as ``99:1`` (the
    table clamps to its last column)."""
    a, d = int(att_steps), int(def_steps)
    if d <= 0:
        return "99:1"
    if a <= 0:
        return "1:99"
    if a >= d:
        return f"{a // d}:1"
    return f"1:{-(-d // a)}"


def _ratio(label: str) -> float:
    a, b = label.split(":")
    return int(a) / int(b)


def column_index(odds_label: str, columns: Sequence[str], shift_by: int = 0) -> int:
    """The GCAT column for an odds ratio (the best column not better than it, clamped, R7), then
    shifted by *shift_by* columns and clamped again."""
    r = _ratio(odds_label)
    vals = [_ratio(c) for c in columns]
    i = 0
    for k, v in enumerate(vals):
        if v <= r + 1e-9:
            i = k
    return min(max(i + int(shift_by), 0), len(columns) - 1)


def row_index(roll: int, shield: int, rows: Sequence[Mapping[str, Any]]) -> int:
    """The GCAT row of a roll against the defender's shield (bands of ``roll - shield``)."""
    diff = int(roll) - int(shield)
    for i, r in enumerate(rows):
        if r.get("max") is None or diff <= int(r["max"]):
            return i
    return len(rows) - 1


_TOKEN = re.compile(r"^([AD])(\d+)(?:R(\d+))?$")


def parse_result(cell: str) -> dict[str, Any]:
    """A GCAT cell as data: ``{"a": steps, "d": steps, "ar": hexes, "dr": hexes, "exp": bool}``.

    >>> parse_result("D2R1 EXP")
    {'a': 0, 'd': 2, 'ar': 0, 'dr': 1, 'exp': True}
    """
    out = {"a": 0, "d": 0, "ar": 0, "dr": 0, "exp": False}
    for tok in str(cell).split():
        if tok == "-":
            continue
        if tok.upper() == "EXP":
            out["exp"] = True
            continue
        m = _TOKEN.match(tok.upper())
        if not m:
            raise ValueError(f"GCAT cell {cell!r}: unknown result {tok!r} (A#, D#, A#R#, D#R#, EXP)")
        side = m.group(1).lower()
        out[side] += int(m.group(2))
        if m.group(3):
            out[side + "r"] += int(m.group(3))
    return out


def gcat_cell(gcat: Mapping[str, Any], col: int, roll: int, shield: int) -> str:
    return gcat["cells"][row_index(roll, shield, gcat["rows"])][col]


def quality_points(att_dice: Sequence[str], def_dice: Sequence[str]) -> tuple[int, int]:
    """10.15.9.1.3: compare the lead units' three best steps, best against best; one point per pair
    to the side with the larger die; a step a side cannot field scores for the other side."""
    a = sorted((parse_die(x) for x in att_dice), key=rung, reverse=True)[:3]
    d = sorted((parse_die(x) for x in def_dice), key=rung, reverse=True)[:3]
    pa = pd = 0
    for i in range(3):
        x = a[i] if i < len(a) else None
        y = d[i] if i < len(d) else None
        if x is None and y is None:
            continue
        if y is None:
            pa += 1
        elif x is None:
            pd += 1
        elif rung(x) > rung(y):
            pa += 1
        elif rung(y) > rung(x):
            pd += 1
    return pa, pd


def reaction_units(roll: int, proficiency: int, disrupted: bool = False) -> int:
    """10.4.1.1.1: reserve counters that may react = d6 - HQ proficiency (-2 on the roll if the HQ is
    disrupted or suppressed), never below 0."""
    return max(int(roll) - (2 if disrupted else 0) - int(proficiency), 0)


def reaction_preview(proficiency: int, disrupted: bool = False) -> Distribution:
    """Exact distribution of the number of reserve counters that may react (10.4.1.1.1)."""
    return Distribution.die(6).map(
        lambda r: reaction_units(r, proficiency, disrupted), label="reserve counters reacting"
    )


# =====================================================================================================
# units: dice, defence, formations
# =====================================================================================================
def unit_dice(unit: Any) -> list[str]:
    """The dice of a unit's remaining steps (10.15.9.1.3): ``step_dice`` minus crossed boxes in
    damage order, else its ground attack die once per step."""
    sd = [parse_die(x) for x in (unit.data.get("step_dice") or ())]
    if sd:
        from owsnb.rules.ows.units import damage_order

        lost = max(unit.max_steps - unit.steps, 0)
        crossed = set(damage_order(len(sd))[:lost])
        return [d for i, d in enumerate(sd) if i not in crossed][: max(unit.steps, 0)]
    die = None
    for a in counter(unit).attacks:
        if a.can_hit("ground") and not a.air_to_air:
            if die is None or rung(a.die) > rung(die):
                die = a.die
    return [die or "d6"] * max(unit.steps, 0)


def lead_die(unit: Any) -> str:
    ds = unit_dice(unit)
    return max(ds, key=rung) if ds else "d4"


def _fortified(state: Any, unit: Any) -> bool:
    if "fortified" in unit.markers:
        return True
    fp = state.map.hexes[unit.hex].facts.get("fortified") if unit.hex is not None else None
    from owsnb.rules.ows.movement import moved_this_turn

    return bool(fp) and fp.get("side") == unit.side and not moved_this_turn(state, unit)


def defence(state: Any, unit: Any) -> tuple[int, list[str]]:
    """The red shield with Defend +1 / Fortified +2 (not +3, 10.7) / ACE +1 (R8)."""
    mods = ptable(state, "gcat")["modifiers"]
    v = counter(unit).red_shield
    why = [f"red shield {v}"]
    if _fortified(state, unit):
        v += int(mods["fortified_shield"])
        why.append(f"Fortified +{mods['fortified_shield']} (10.7)")
    elif "defend" in unit.markers:
        v += int(mods["defend_shield"])
        why.append(f"Defend +{mods['defend_shield']} (10.6)")
    if "ace" in unit.markers:
        v += int(mods["ace_shield"])
        why.append(f"ACE Defense +{mods['ace_shield']} (6.5.13)")
    return v, why


def _hq_of(state: Any, unit: Any) -> Any | None:
    h = unit.data.get("hq")
    return state.units.get(h) if h else None


def formation_of(state: Any, unit: Any) -> str | None:
    """The Div/Corps formation HQ *unit* belongs to (10.2): up its ``hq`` chain to an HQ marked
    ``formation``, else the top of the chain; an HQ is its own formation's member."""
    seen = set()
    cur = unit
    top = None
    while cur is not None and cur.id not in seen:
        seen.add(cur.id)
        if counter(cur).category == "hq":
            top = cur.id
            if cur.data.get("formation"):
                return cur.id
        nxt = cur.data.get("hq")
        cur = state.units.get(nxt) if nxt else None
    return top


def formations(state: Any, side: str) -> list[str]:
    """The formation HQs of *side* that activate in the Ground phase (10.2.2-10.2.4)."""
    hqs = [u for u in state.units.values() if u.side == side and counter(u).category == "hq" and u.alive]
    flagged = [u.id for u in hqs if u.data.get("formation")]
    if flagged:
        return sorted(flagged)
    subs = {formation_of(state, u) for u in state.units.values() if u.side == side and u.id not in {h.id for h in hqs}}
    return sorted(h.id for h in hqs if not h.data.get("hq") and h.id in subs)


def _proficiency(state: Any, hq: Any | None) -> tuple[int, bool]:
    t = ptable(state, "ground")["proficiency"]
    if hq is None:
        return int(t.get("default", 4)), False
    p = int(hq.data.get("proficiency") or 0) or int(t.get(counter(hq).nation, t.get("default", 4)))
    disrupted = bool(hq.markers & {"disrupted-c2", "suppressed"}) or not hq.alive
    return p, disrupted


# =====================================================================================================
# the ground phase: activations (10.2), stages (10.3) and the defender's window (3.E)
# =====================================================================================================
def _g(state: Any) -> dict[str, Any]:
    return dict(thaw(state.public.get("ground") or {}))


def _pending(state: Any) -> dict[str, Any] | None:
    p = state.secret.get("ground_pending") if hasattr(state, "secret") else None
    return dict(thaw(p)) if p else None


def _window(state: Any) -> dict[str, Any] | None:
    w = state.public.get("ground_window")
    return dict(thaw(w)) if w else None


def _activation(state: Any, side: str) -> str | None:
    """The formation *side* activates in this pass (``"*"`` = all), if any."""
    g = _g(state)
    if g.get("turn") != ground_round(state):
        return "*"
    return thaw(state.sides[side].private.get("activation")) if side in state.sides else None


def _stage(state: Any, side: str) -> str:
    g = _g(state)
    if g.get("turn") != ground_round(state):
        return "prep"
    return (g.get("stage") or {}).get(side, "prep")


def _set_stage(state: Any, side: str, stage: str) -> list[Event]:
    cur = _stage(state, side)
    if STAGES.index(stage) <= STAGES.index(cur):
        return []
    g = _g(state)
    if g.get("turn") != ground_round(state):
        g = {"turn": ground_round(state)}
    st = dict(g.get("stage") or {})
    st[side] = stage
    return [state_set("public", {"ground": {**g, "stage": st}}, rule="10.3")]


def check_may_act(state: Any, order: Order | None, unit: Any, what: str, react: bool = False) -> None:
    """Refusals shared by the actioning unit's orders: the defender's window, the activated
    formation (10.2), Orders markers (10.14, ADV) and the impulse order (10.3, G1)."""
    side = unit.side
    w = _window(state)
    if react:
        if not w or w.get("defender") != side:
            raise refuse(
                "a reaction move is made when your unit is attacked (Defensive Fires, 10.4.1.1.1)",
                "no-attack-pending",
                "10.4.1.1.1",
                order,
            )
        return
    if w:
        raise refuse(
            f"an attack on {w.get('hex')} waits for {w.get('defender')}'s defensive fires (3.E)",
            "defender-answers",
            "10.3",
            order,
        )
    act = _activation(state, side)
    if act is None:
        raise refuse(f"{side} has no formation activated in this pass (10.2)", "not-activated", "10.2", order)
    if act != "*":
        f = formation_of(state, unit)
        if f is not None and f != act:
            raise refuse(
                f"{unit.id} belongs to {f}; the activated formation is {act} (10.2)", "not-activated", "10.2", order
            )
    from owsnb.rules.ows import orders as _orders

    _orders.check_orders(state, order, unit)
    stage = _stage(state, side)
    if what == "prep-fire" and stage != "prep":
        raise refuse("Prep Fires come first, before any move or attack (10.3 3.A)", "wrong-impulse", "10.3", order)
    if what == "move" and STAGES.index(stage) > STAGES.index("move"):
        raise refuse(
            "movement is over once combat has been resolved (10.3 3.C, G1); use exploitation (3.G)",
            "wrong-impulse",
            "10.3",
            order,
        )
    if what == "attack" and stage == "exploit":
        raise refuse("only the exploitation force attacks now (3.H)", "wrong-impulse", "10.3", order)


def after_move(state: Any, unit: Any, verb: str) -> list[Event]:
    return _set_stage(state, unit.side, "exploit" if verb == "exploit" else "move")


def _queue(state: Any) -> list[list[str]]:
    q = state.secret.get("ground_queue") if hasattr(state, "secret") else None
    return [list(x) for x in thaw(q)] if q else []


def _build_queue(state: Any, dice: Any) -> tuple[list[list[str]], list[str]]:
    """10.2: the order of activations for this Ground phase."""
    method = option(state, "ground_initiative")
    sides_ = list(state.sides)
    init = state.public.get("initiative") or sides_[0]
    g = _g(state)
    seize = list((g.get("seize") or {}).get(ground_round(state), []))
    lines: list[str] = []
    first = init
    if len(seize) == 1:
        first = seize[0]
        lines.append(f"{first} seizes the ground initiative with a decision card (10.2.5)")
    elif len(seize) > 1:
        rolls = {
            s: dice.roll(6, purpose=f"{s}: opposed roll for the seized initiative", rule="10.2.5", visible_to=None)
            for s in sorted(seize)
        }
        best = max(rolls.values())
        tops = [s for s, v in rolls.items() if v == best]
        first = init if init in tops else tops[0]
        lines.append(f"both sides seize the initiative: opposed roll {rolls} -> {first} (10.2.5)")
    order_sides = [first] + [s for s in sides_ if s != first]
    if method == "side":
        return [[s, "*"] for s in order_sides], lines
    plans = {}
    for s in order_sides:
        mine = formations(state, s)
        planned = [x for x in (thaw(state.sides[s].private.get("ground_plan")) or []) if x in mine]
        plans[s] = planned + [x for x in mine if x not in planned]
    if method == "formation":
        q = []
        idx = {s: 0 for s in order_sides}
        while any(idx[s] < len(plans[s]) for s in order_sides):
            for s in order_sides:
                if idx[s] < len(plans[s]):
                    q.append([s, plans[s][idx[s]]])
                    idx[s] += 1
        return q or [[s, "*"] for s in order_sides], lines
    if method == "chits":
        cup = [[s, f] for s in order_sides for f in plans[s]]
        q = []
        while cup:
            pick = dice.choice(
                list(range(len(cup))), purpose="ground activation chit draw", rule="10.2.3", visible_to=None
            )
            q.append(cup.pop(pick))
        return q or [[s, "*"] for s in order_sides], lines

    # planned (10.2.4): each side's plan, sides drawn at random; disrupted/destroyed HQs last, at random
    def bad(f: str) -> bool:
        u = state.units.get(f)
        return u is None or not u.alive or bool(u.markers & {"disrupted-c2", "suppressed"})

    good = {s: [f for f in plans[s] if not bad(f)] for s in order_sides}
    worse = [[s, f] for s in order_sides for f in plans[s] if bad(f)]
    tokens = [s for s in order_sides for _ in good[s]]
    q = []
    while tokens:
        s = tokens.pop(
            dice.choice(
                list(range(len(tokens))), purpose="side chit draw (planned activation)", rule="10.2.4", visible_to=None
            )
        )
        q.append([s, good[s].pop(0)])
    while worse:
        q.append(
            worse.pop(
                dice.choice(
                    list(range(len(worse))),
                    purpose="disrupted/destroyed HQs go last, at random",
                    rule="10.2.4",
                    visible_to=None,
                )
            )
        )
    return q or [[s, "*"] for s in order_sides], lines


def enter_ground(state: Any, dice: Any) -> list[Event]:
    """6.C.3 begins (or a pass resumes): build the activation queue once per turn (10.2), then give
    the next activation(s) the clock."""
    events: list[Event] = []
    g = _g(state)
    turn = ground_round(state)
    if g.get("resume"):
        saved = g.pop("resume")
        g.pop("resume_turn", None)
        events.append(state_set("public", {"ground": g}, rule="10.3"))
        events.append(
            clock_set(replace(state.clock, active=tuple(saved["active"]), done=frozenset(saved["done"])), rule="10.3")
        )
        return events
    if g.get("turn") != turn:
        q, lines = _build_queue(state, dice)
        g = {"turn": turn, "method": option(state, "ground_initiative"), "pass": 0, "seize": g.get("seize") or {}}
        events.append(state_set("secret", {"ground_queue": q, "ground_pending": None}, rule="10.2"))
        events += [note(x, rule="10.2.5") for x in lines]
    else:
        q = _queue(state)
    if not q:
        return events
    first = q.pop(0)
    acts = [first]
    if q and q[0][0] != first[0]:
        acts.append(q.pop(0))
    g["pass"] = int(g.get("pass", 0)) + 1
    g["stage"] = {}
    g["acting"] = [a[0] for a in acts]
    events.append(state_set("secret", {"ground_queue": q}, rule="10.2"))
    events.append(state_set("public", {"ground": g, "ground_window": None}, rule="10.2"))
    for s in state.sides:
        mine = next((a[1] for a in acts if a[0] == s), None)
        events.append(side_set(s, "private", {"activation": mine}, rule="10.2"))
    others = [s for s in state.sides if s not in g["acting"]]
    active = tuple(g["acting"] + others)
    events.append(clock_set(replace(state.clock, active=active, done=frozenset(others)), rule="10.2"))
    if g["method"] != "side":
        desc = "; ".join(f"{a[0]}: {'all formations' if a[1] == '*' else 'a formation'}" for a in acts)
        events.append(note(f"Ground activation {g['pass']}: {desc} (10.2)", rule="10.2"))
    return events


def leave_ground(state: Any, dice: Any) -> list[Event]:
    """6.C.3 ends: a pending attack the defender did not answer is resolved without defensive
    fires and the pass resumes; remaining activations re-enter the step; at the end the per-phase
    markers (Combat, Delay) come off."""
    events: list[Event] = []
    organize = "6.C.2" if ground_block(state.clock.step) == 1 else "6.C.2b"  # re-entered for the next pass
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


def cleanup(state: Any, dice: Any = None) -> list[Event]:
    """The end of the Ground phase (also at 7.A, if the umpire jumped past it): Combat and Delay
    markers come off, activations end, a forgotten defender's window closes."""
    events: list[Event] = []
    for u in state.units.values():
        drop = u.markers & {"combat", "delay"}
        if drop:
            events.append(unit_set(u.id, markers=u.markers - drop, rule="10.3", visible_to=watchers(state, u)))
    for s in state.sides:
        if state.sides[s].private.get("activation") is not None:
            events.append(side_set(s, "private", {"activation": None}, rule="10.2"))
    if state.public.get("ground_window"):
        events.append(state_set("public", {"ground_window": None}, rule="10.3"))
    if hasattr(state, "secret") and state.secret.get("ground_pending"):
        events.append(state_set("secret", {"ground_pending": None}, rule="10.3"))
    return events


PHASE_DATA = ("moved", "attacked", "exp", "me_turn", "me_by", "defend_turn", "landed", "fuel_paid")
"""Unit bookkeeping of one Ground phase, cleared when the second one begins (G4)."""


def second_phase(state: Any, dice: Any = None) -> list[Event]:
    """6.C.1b, the second Ground phase begins (option ``ground_phases: 2``, ruling G4): units may
    move and attack again, Main Efforts are designated afresh, a Defend taken in the first phase
    counts as held "at the start of the phase" (10.7), landing restrictions (10.15.8.1) and the
    day's fuel (10.13.2.1) start over. Reserve, Defend, Fortified, Suppressed and Expended
    markers stay until Regeneration."""
    events: list[Event] = []
    for u in state.units.values():
        data = {k: None for k in PHASE_DATA if u.data.get(k) is not None}
        if data or "main-effort" in u.markers:
            events.append(unit_set(u.id, data=data, markers=u.markers - {"main-effort"}, rule="10.3",
                                   visible_to=watchers(state, u)))
    return events + [note("the second Ground phase of the turn begins (10.3 design note)", rule="10.3")]


# =====================================================================================================
# fires (10.15.2-10.15.5, FET)
# =====================================================================================================
def _target_type(unit: Any) -> str:
    c = counter(unit)
    if c.category == "ground":
        m = mobility(unit)
        return "armour" if m == "tracked" else "soft" if m == "wheeled" else "infantry"
    return "soft"


def _fet_row(state: Any, target: Any) -> dict[str, int]:
    fet = ptable(state, "fet")
    terr = state.map.hexes[target.hex].terrain
    terr = fet.get("aliases", {}).get(terr, terr)
    row = fet["hits"].get(terr) or fet["hits"]["clear"]
    return {k: int(v) for k, v in row[_target_type(target)].items()}


def _ground_attacks(u: Any) -> list[Any]:
    return [a for a in counter(u).attacks if a.can_hit("ground") and not a.air_to_air and a.left > 0]


def _is_pgm(u: Any, a: Any) -> bool:
    c = counter(u)
    return (c.is_air and a.id == "munitions") or c.aircraft == "rotary"


def _missions(state: Any, firer: Any, target: Any, limit: int | None = None) -> list[tuple[str, str, list[str]]]:
    """(group key, die, modifier notes) for each fire mission *firer* puts on *target* (FET)."""
    fet = ptable(state, "fet")
    out = []
    for a in _ground_attacks(firer):
        for _ in range(a.left):
            prom = dem = 0
            notes = []
            if "suppressed" in firer.markers and counter(firer).category == "artillery":
                dem += int(fet.get("suppressed_firer_demotions", 1))
                notes.append("suppressed artillery fires demoted (10.15.7)")
            if "rsoi" in target.markers:
                prom += int(fet.get("rsoi_target_promotions", 1))
                notes.append("target in RSO&I (2.3.1)")
            if "sigint" in target.markers and "countermeasures" not in target.markers:
                prom += 1
                notes.append("SIGINT/EMSO on the target (7.2.1.3)")
            elif "countermeasures" in target.markers and "sigint" not in target.markers:
                dem += 1
                notes.append("countermeasures (7.2.1.4)")
            if _is_pgm(firer, a):
                terr = state.map.hexes[target.hex].terrain
                terr = fet.get("aliases", {}).get(terr, terr)
                p = int((fet.get("pgm", {}).get(terr) or {}).get(_target_type(target), 0))
                if p:
                    prom += p
                    notes.append(f"PGM +{p} (10.15.4.1)")
            out.append((a.key, shift(a.die, prom - dem), notes))
            if limit is not None and len(out) >= limit:
                return out
    return out


def fire_preview(
    dice_: Sequence[str], shield: int, suppress: int, step: int, criticals: bool = False, max_steps: int = 99
) -> Distribution:
    """Exact outcome of fire missions on the FET: ``(steps lost, suppressed)`` for dice rolled
    against *shield* needing *suppress* hits to suppress and *step* hits per step (10.15.4)."""
    total = Distribution.point(0)
    for d in dice_:
        total = total + Distribution.die(sides(d)).map(lambda r: _hits(r, shield, critical=criticals))
    return total.map(
        lambda h: (min(h // max(step, 1), max_steps), h >= suppress),
        label=f"(steps lost, suppressed) vs defence {shield}",
    )


def fire_on(
    state: Any,
    firers: Sequence[Any],
    target: Any,
    roll: Roller,
    rule: str = "10.15.4",
    reveal: bool = False,
    limit: int | None = None,
) -> tuple[list[Event], dict[str, Any]]:
    """Resolve *firers*' missions on *target* with the FET (10.15.4): each mission rolls against
    the target's defence, hits are counted, then suppression and step losses; the firers' missions
    are spent and artillery is marked Expended (10.15.5)."""
    fet = ptable(state, "fet")
    shield, _ = defence(state, target)
    row = _fet_row(state, target)
    crit = bool(fet.get("criticals"))
    hits = 0
    events: list[Event] = []
    lines = []
    vis_t = watchers(state, target)
    for f in firers:
        ms = _missions(state, f, target, limit)
        spent = dict(counter(f).spent)
        for key, die, notes in ms:
            r = roll(
                die,
                f"fire mission on {target.id} vs defence {shield}" + (f" ({'; '.join(notes)})" if notes else ""),
                rule,
                None if reveal else frozenset({f.side}) | (vis_t or frozenset(state.sides)),
            )
            h = _hits(r, shield, critical=crit)
            hits += h
            spent[key] = int(spent.get(key, 0)) + 1
        vis_f = watchers(state, f)
        left = sum(
            max(a.count - int(spent.get(a.key, 0)), 0)
            for a in counter(f).attacks
            if a.can_hit("ground") and not a.air_to_air
        )
        done_firing = not option(state, "fire_splitting") or left <= 0
        kinds = counter(f).category in ("artillery",) or counter(f).is_air
        mk = f.markers | ({"expended"} if kinds and done_firing else set())
        events.append(unit_set(f.id, data={"spent": spent}, markers=mk, rule="10.15.5", visible_to=vis_f))
        lines.append(f"{f.id}: {len(ms)} fire mission(s)")
    steps = min(hits // max(row["step"], 1), target.steps)
    supp = hits >= row["suppress"]
    res = {"hits": hits, "steps": steps, "suppressed": supp, "defence": shield, "needed": row}
    after = state
    if steps:
        cause = "air" if any(counter(f).is_air for f in firers) else "artillery"
        ev, lost, absorbed = apply_hits(state, target, steps, rule="10.15.4", cause=cause, visible_to=vis_t)
        events += ev
        res["steps"] = lost
        res["absorbed"] = absorbed
        after = apply_all(state, ev)
    t2 = after.units[target.id]
    if supp and t2.alive and t2.hex is not None:
        mk = set(t2.markers) | {"suppressed"}
        extra = []
        if counter(t2).category == "hq":  # 10.15.7: HQ effects come off at once
            for x in after.units.values():
                if x.data.get("me_by") == t2.id and "main-effort" in x.markers:
                    extra.append(
                        unit_set(
                            x.id, markers=x.markers - {"main-effort"}, rule="10.15.7", visible_to=watchers(after, x)
                        )
                    )
        events.append(unit_set(t2.id, markers=frozenset(mk), rule="10.15.7", visible_to=vis_t))
        events += extra
    res["lines"] = lines + [
        f"{hits} hit(s) on {target.id} (needs {row['suppress']} to suppress, {row['step']} per step): "
        f"{res['steps']} step(s) lost" + (", suppressed" if supp else "")
    ]
    return events, res


def _in_range(state: Any, u: Any, h: Hex) -> bool:
    if u.hex is None:
        return False
    d = u.hex.distance(h)
    return any(d <= a.range for a in _ground_attacks(u))


def _span_of_control(state: Any, order: Order | None, arts: Sequence[Any], bombardment: bool = False) -> None:
    """10.15.3: one fires action employs at most 2 artillery/rocket battalions or 1 BAG (up to 4
    in a Division/Corps Bombardment, 10.15.3.1)."""
    soc = ptable(state, "ground")["span_of_control"]
    arts = [a for a in arts if counter(a).category == "artillery"]
    if not arts:
        return
    if any(a.data.get("bag") for a in arts) and len(arts) > int(soc["bag"]):
        raise refuse("a Brigade Artillery Group fires alone (10.15.3)", "span-of-control", "10.15.3", order)
    cap = int(soc["bombardment"]) if bombardment else int(soc["battalions"])
    if len(arts) > cap:
        raise refuse(
            f"one fires action employs at most {cap} artillery/rocket units (10.15.3" + (".1)" if bombardment else ")"),
            "span-of-control",
            "10.15.3",
            order,
        )


def _can_fire(state: Any, order: Order | None, f: Any, h: Hex, rule: str, idf: bool = False) -> None:
    c = counter(f)
    if c.category not in ("artillery", "air-mission", "naval", "ground", "air-defence") or f.hex is None or not f.alive:
        raise refuse(f"{f.id} cannot deliver fires", "not-a-firer", rule, order)
    if (
        c.is_air
        and c.mission not in ("strike", "cas", "interdiction", "sucap", "sead", "bomber")
        and c.aircraft != "rotary"
    ):
        raise refuse(f"{f.id} is not on an attack mission (6.5.10)", "not-a-firer", rule, order)
    if "expended" in f.markers or "idf-spt" in f.markers and not option(state, "fire_splitting"):
        raise refuse(f"{f.id} has already fired this turn (10.15.5)", "expended", "10.15.5", order)
    if "disrupted-c2" in f.markers and c.category in ("artillery", "naval", "air-defence"):
        raise refuse(f"{f.id} is under Disrupt C2 and cannot fire (7.2.1.1)", "disrupted", "7.2.1.1", order)
    if idf and "suppressed" in f.markers and c.category == "artillery":
        raise refuse(f"{f.id} is suppressed: no IDF support (10.15.7)", "suppressed", "10.15.7", order)
    if int(f.data.get("landed", 0) or 0) == state.clock.turn and c.category == "artillery":
        raise refuse(f"{f.id} landed this turn and cannot contribute (10.15.8.4)", "landed", "10.15.8.4", order)
    if not _ground_attacks(f):
        raise refuse(f"{f.id} has no fire missions left", "expended", "10.15.5", order)
    if not _in_range(state, f, h):
        raise refuse(f"{state.map.label(h)} is out of {f.id}'s range", "out-of-range", "2.2.7.3", order)


# =====================================================================================================
# the GCAT (10.15.9)
# =====================================================================================================
@dataclass
class Combat:
    """One ground combat set up for the GCAT, with every modifier named (10.15.9)."""

    attacker: str
    defender: str
    hex: Hex
    label: str
    attackers: list[Any]
    defenders: list[Any]
    lead_att: Any
    lead_def: Any | None
    att_steps: int
    def_steps: int
    odds: str
    base_column: int
    column: int
    columns: list[str]
    base_die: str
    die: str
    shield: int
    shield_why: list[str]
    att_factors: list[str] = field(default_factory=list)
    def_factors: list[str] = field(default_factory=list)
    shifts: list[tuple[int, str]] = field(default_factory=list)
    die_mods: list[tuple[int, str]] = field(default_factory=list)
    quality: tuple[int, int] = (0, 0)
    gcat: Mapping[str, Any] = field(default_factory=dict)

    def distribution(self) -> Distribution:
        """Exact distribution of the GCAT cell read (computed with Fractions)."""
        return gcat_distribution(self.gcat, self.column, self.die, self.shield)

    def rows(self, public: bool = False) -> list[tuple[str, str]]:
        """(label, value) lines; ``public`` names supporting arms by kind only (no unit ids the other
        side may not have seen)."""

        def arms(fs: list[str]) -> str:
            if not public:
                return ", ".join(fs) or "none"
            from collections import Counter

            kinds = Counter(_factor_kind(f) for f in fs)
            return ", ".join(f"{n} {k}" for k, n in kinds.items()) or "none"

        out = [
            (
                "odds",
                f"{self.att_steps}:{self.def_steps} manoeuvre steps -> {self.odds} (column "
                f"{self.columns[self.base_column]})",
            ),
            (
                "lead units",
                f"{self.lead_att.id} ({self.base_die}) vs {self.lead_def.id if self.lead_def else '-'} "
                f"(shield {self.shield}: {', '.join(self.shield_why)})",
            ),
            ("attacker supporting arms", f"{len(self.att_factors)}: {arms(self.att_factors)}"),
            ("defender supporting arms", f"{len(self.def_factors)}: {arms(self.def_factors)}"),
            ("quality points", f"attacker {self.quality[0]}, defender {self.quality[1]}"),
        ]
        out += [("column shift", f"{n:+d}: {why}") for n, why in self.shifts]
        out += [("die change", f"{n:+d}: {why}") for n, why in self.die_mods]
        out.append(("roll", f"{self.die.upper()} on column {self.columns[self.column]} vs shield {self.shield}"))
        return out

    def __repr__(self) -> str:
        return (
            f"<Combat {self.attacker} on {self.label}: {self.odds} -> {self.columns[self.column]}, "
            f"{self.die} vs {self.shield}>"
        )

    def _repr_html_(self) -> str:
        from owsnb.display.html import esc, wrap

        rows = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in self.rows())
        dist = self.distribution()
        res = "".join(f"<tr><td>{esc(k)}</td><td>{float(p):.1%}</td></tr>" for k, p in dist.items())
        return wrap(
            f"<b>Ground combat on {esc(self.label)}</b> <span class='rule'>10.15.9</span>"
            f"<table>{rows}</table><b>results</b><table>{res}</table>",
            repr(self),
        )


def _factor_kind(f: str) -> str:
    for kind in ("IDF SPT die", "CAS", "NGFS", "SOF", "engineer"):
        if f.endswith(" " + kind):
            return kind
    for kind in ("SIGINT/EMSO", "Disrupt C2"):
        if f.startswith(kind):
            return kind
    return f


def gcat_distribution(gcat: Mapping[str, Any], column: int, die: str, shield: int) -> Distribution:
    """The exact distribution of GCAT cells for one roll of *die* on *column* against *shield*."""
    return Distribution.die(sides(die)).map(
        lambda r: gcat_cell(gcat, column, r, shield),
        label=f"GCAT {gcat['columns'][column]}, {parse_die(die)} vs {shield}",
    )


def _manoeuvre(u: Any) -> bool:
    return counter(u).category == "ground" and counter(u).subtype not in ("partisan", "security-zone")


def _supply_cols(units: Iterable[Any], mods: Mapping[str, Any]) -> tuple[int, str]:
    worst = 0
    for u in units:
        if "out-of-supply" in u.markers:
            worst = max(worst, int(mods["out_of_supply_columns"]))
        elif "low-supply" in u.markers:
            worst = max(worst, int(mods["low_supply_columns"]))
    return worst, (
        "out of supply (11.1.3)"
        if worst == int(mods["out_of_supply_columns"]) and worst
        else "low supply (11.1.2)"
        if worst
        else ""
    )


def _factors(
    state: Any,
    side: str,
    h: Hex,
    units: Sequence[Any],
    support: Sequence[Any],
    enemy_units: Sequence[Any],
    attacking: bool,
) -> tuple[list[str], int]:
    """Supporting-arms factors of one side (10.15.9.1.2): artillery per die (C3), CAS per mission,
    NGFS per ship, engineer or SOF each, SIGINT/EMSO/Disrupt C2 each, Main Effort; plus direct die
    changes when IDF support promotes directly (option ``idf_support``)."""
    out: list[str] = []
    direct = 0
    promote = option(state, "idf_support") == "promote"
    for s in support:
        c = counter(s)
        if c.category == "artillery":
            n = sum(a.left for a in _ground_attacks(s))
            if promote:
                direct += n
            else:
                out += [f"{s.id} IDF SPT die"] * n
        elif c.is_air:
            out.append(f"{s.id} CAS")
        elif c.category == "naval":
            out.append(f"{s.id} NGFS")
        elif c.category in ("sof",):
            out.append(f"{s.id} SOF")
        elif c.category == "engineer":
            out.append(f"{s.id} engineer")
    for u in units:
        if counter(u).category in ("engineer", "sof") and f"{u.id} engineer" not in out and f"{u.id} SOF" not in out:
            out.append(f"{u.id} {'engineer' if counter(u).category == 'engineer' else 'SOF'}")
    if not attacking:
        for u in state.units.values():
            if (
                u.side == side
                and u.hex == h
                and u.alive
                and counter(u).category in ("engineer", "sof")
                and not any(x.startswith(u.id + " ") for x in out)
            ):
                out.append(f"{u.id} {'engineer' if counter(u).category == 'engineer' else 'SOF'}")
    for e in enemy_units:
        if "sigint" in e.markers:
            out.append(f"SIGINT/EMSO on {e.id}")
        if "disrupted-c2" in e.markers:
            out.append(f"Disrupt C2 on {e.id}")
    if any("main-effort" in u.markers for u in units):
        out.append("Main Effort")
    return out, direct


def _thresholds(n: int, mods: Mapping[str, Any]) -> tuple[int, int]:
    sa = mods["supporting_arms"]
    cols = sum(1 for t in sa["column_shift_at"] if n >= int(t))
    die = 1 if n >= int(sa["die_change_at"]) else 0
    return cols, die


def combat(
    state: Any,
    attacker: str,
    target_hex: Hex,
    attackers: Sequence[Any],
    *,
    lead: Any | None = None,
    support: Sequence[Any] = (),
    def_support: Sequence[Any] = (),
    defender_side: str | None = None,
    side_knows: bool = False,
) -> Combat:
    """Set up a ground combat (10.15.9): odds, lead units, supporting arms, quality, supply and every
    die and column modifier. With ``side_knows`` only what the attacker has detected is counted."""
    gcat = ptable(state, "gcat")
    mods = gcat["modifiers"]
    defs = [
        u
        for u in state.units.values()
        if u.hex == target_hex and u.side != attacker and u.alive and counter(u).category in DEFENDERS
    ]
    if side_knows:
        defs = [u for u in defs if detected(state, u, attacker)]
    dside = defender_side or (defs[0].side if defs else next(s for s in state.sides if s != attacker))
    att = [u for u in attackers if u.alive]
    att_m = [u for u in att if _manoeuvre(u)]
    def_m = [u for u in defs if _manoeuvre(u)]
    a_steps = sum(u.steps for u in att_m)
    d_steps = sum(u.steps for u in def_m)
    o = odds(a_steps, d_steps)
    cols = list(gcat["columns"])
    base_col = column_index(o, cols)
    # lead units (10.15.9.1, R8)
    me = [u for u in att_m if "main-effort" in u.markers]
    la = (
        me[0]
        if me
        else (
            lead
            if lead is not None and lead in att_m
            else max(att_m or att, key=lambda u: (rung(lead_die(u)), u.steps, u.id))
        )
    )
    ld = max(defs, key=lambda u: (defence(state, u)[0], _manoeuvre(u), u.steps, u.id)) if defs else None
    shield, shield_why = defence(state, ld) if ld is not None else (0, ["no defender"])
    base_die = lead_die(la)
    shifts: list[tuple[int, str]] = []
    die_mods: list[tuple[int, str]] = []
    # supporting arms (R5)
    af, a_direct = _factors(state, attacker, target_hex, att, support, defs, True)
    df, d_direct = _factors(state, dside, target_hex, defs, def_support, att, False)
    ac, ad = _thresholds(len(af), mods)
    dc, dd = _thresholds(len(df), mods)
    if ac:
        shifts.append((ac, f"attacker supporting arms {len(af)} (10.15.9.1.2)"))
    if dc:
        shifts.append((-dc, f"defender supporting arms {len(df)} (10.15.9.1.2)"))
    if ad:
        die_mods.append((1, f"attacker supporting arms {len(af)} >= {mods['supporting_arms']['die_change_at']}"))
    if dd:
        die_mods.append((-1, f"defender supporting arms {len(df)} >= {mods['supporting_arms']['die_change_at']}"))
    if a_direct:
        die_mods.append((a_direct, "attacker IDF support promotes directly (C3 option)"))
    if d_direct:
        die_mods.append((-d_direct, "defender IDF support demotes directly (C3 option)"))
    # quality (10.15.9.1.3, R6; 10.15.9.1.4)
    q = quality_points(unit_dice(la), unit_dice(ld) if ld is not None and _manoeuvre(ld) else [])
    qn = int(mods["quality_points"])
    if option(state, "quality_alternative"):
        qs = mods.get("quality_side")
        if qs == attacker:
            die_mods.append((1, f"{attacker} always has quality (10.15.9.1.4)"))
        elif qs == dside:
            die_mods.append((-1, f"{dside} always has quality (10.15.9.1.4)"))
    elif q[0] >= qn:
        die_mods.append((1, f"attacker quality advantage {q[0]} points (10.15.9.1.3)"))
    elif q[1] >= qn:
        die_mods.append((-1, f"defender quality advantage {q[1]} points (10.15.9.1.3)"))
    # supply (11.1.2, 11.1.3)
    n, why = _supply_cols(att_m, mods)
    if n:
        shifts.append((-n, f"attacker {why}"))
    n, why = _supply_cols(def_m, mods)
    if n:
        shifts.append((n, f"defender {why}"))
    # suppressed manoeuvre units (10.15.7)
    if any("suppressed" in u.markers for u in att_m):
        shifts.append((-int(mods["suppressed_columns"]), "suppressed attacking manoeuvre unit (10.15.7)"))
    if any("suppressed" in u.markers for u in def_m):
        shifts.append((int(mods["suppressed_columns"]), "suppressed defending manoeuvre unit (10.15.7)"))
    # die changes
    if any("delay" in u.markers for u in defs):
        die_mods.append((-int(mods["delay_demotions"]), "defender in Delay (10.8)"))
    ob = state.map.hexes[target_hex].facts.get("obstacle")
    if ob and ob.get("side") == dside:
        die_mods.append((-int(mods["obstacle_demotions"]), "obstacle (10.12)"))
    if "rsoi" in la.markers:
        die_mods.append((-int(mods["rsoi_demotions"]), f"{la.id} in RSO&I (2.3.1)"))
    if ld is not None and "rsoi" in ld.markers:
        die_mods.append((int(mods["rsoi_demotions"]), f"{ld.id} in RSO&I: attacks on it promoted (2.3.1)"))
    rad_hexes = {target_hex} | {u.hex for u in att if u.hex is not None}
    if any(state.map.hexes[h].facts.get("radiation") or state.map.hexes[h].facts.get("plume") for h in rad_hexes):
        die_mods.append((-int(mods["radiation_demotions"]), "combat into or out of a radiation/plume hex (7.4)"))
    net_shift = sum(n for n, _ in shifts)
    col = min(max(base_col + net_shift, 0), len(cols) - 1)
    net = sum(n for n, _ in die_mods)
    die = shift(base_die, net)
    return Combat(
        attacker,
        dside,
        target_hex,
        state.map.label(target_hex),
        att,
        defs,
        la,
        ld,
        a_steps,
        d_steps,
        o,
        base_col,
        col,
        cols,
        base_die,
        die,
        shield,
        shield_why,
        af,
        df,
        shifts,
        die_mods,
        q,
        gcat,
    )


# =====================================================================================================
# applying results (10.15.9.1.6, 10.8, R9)
# =====================================================================================================
def _loss_order(units: Sequence[Any], lead: Any | None) -> list[Any]:
    man = [u for u in units if _manoeuvre(u)]
    rest = [u for u in units if not _manoeuvre(u)]
    man.sort(key=lambda u: (u is not lead, -u.steps, u.id))
    rest.sort(key=lambda u: (-u.steps, u.id))
    return man + rest


def _retreat_path(state: Any, u: Any, n: int, away: Hex) -> list[Hex] | None:
    """R9/G2: *n* hexes away from *away*, never into enemy units, preferring hexes out of enemy ZOC,
    ending within stacking; ``None`` if it cannot."""
    enemies = [
        e
        for e in state.units.values()
        if e.side != u.side and e.hex is not None and e.alive and counter(e).category in DEFENDERS
    ]
    e_hexes = {e.hex for e in enemies}
    zoc = zoc_hexes(state, enemies)
    path = [u.hex]
    from owsnb.rules.ows.movement import terrain_cost

    mode = mobility(u) or "foot"
    for _ in range(n):
        cur = path[-1]
        opts = []
        for nb in cur.neighbours():
            if nb not in state.map.hexes or nb in e_hexes or nb in path or is_water(state, nb):
                continue
            if (
                terrain_cost(state, state.map.hexes[nb].terrain, mode, str(state.public.get("weather") or "clear"))
                is None
            ):
                continue
            e = state.map.edge(cur, nb)
            if (
                "major-river" in e
                and "road" not in e
                and not (state.map.hexes[cur].facts.get("bridge") or state.map.hexes[nb].facts.get("bridge"))
            ):
                continue
            if nb.distance(away) <= cur.distance(away):
                continue
            opts.append(nb)
        if not opts:
            return None
        opts.sort(key=lambda h: (h in zoc, -h.distance(away), state.map.label(h)))
        path.append(opts[0])
    final = path[-1]
    if not stack_ok(state, u, final):
        return None
    return path


def apply_result(
    state: Any,
    cell: str,
    cb: Combat,
    *,
    att_choice: Mapping[str, Any] | None = None,
    def_choice: Mapping[str, Any] | None = None,
    rule: str = "10.15.9.1.6",
) -> tuple[list[Event], list[str]]:
    """Apply a GCAT cell (10.15.9.1.6): step losses, retreats with their cancellations, Delay
    (10.8), Fortified R1 (10.7), EXP. Returns events and narration."""
    r = parse_result(cell)
    events: list[Event] = []
    lines: list[str] = []
    cur = state
    att_choice = dict(att_choice or {})
    def_choice = dict(def_choice or {})
    for who, loss, ret, units, lead, away, choice in (
        ("defender", r["d"], r["dr"], cb.defenders, cb.lead_def, cb.lead_att.hex, def_choice),
        ("attacker", r["a"], r["ar"], cb.attackers, cb.lead_att, cb.hex, att_choice),
    ):
        units = [cur.units[u.id] for u in units if cur.units[u.id].alive and cur.units[u.id].hex is not None]
        if not units:
            continue
        man = [u for u in units if _manoeuvre(u)] or units
        delay = who == "defender" and all("delay" in u.markers for u in man)  # the whole defence delays (10.8)
        delayers = {u.id for u in units if who == "defender" and "delay" in u.markers}
        fort = who == "defender" and any(_fortified(cur, u) for u in units)
        retreat = ret
        if delay and loss >= 1:
            # 10.8: ignore a 1-step loss; with 2+ losses one step is taken, the rest cancelled by the retreat
            lines.append(
                f"{who} in Delay: {'the 1-step loss is ignored' if loss == 1 else f'{loss} losses -> 1 step'}, "
                "retreat 1 (10.8)"
            )
            loss = 0 if loss == 1 else 1
            retreat = max(retreat, 1)
        elif loss > 1 and choice.get("trade") == "yes":
            retreat += loss - 1
            lines.append(f"{who} turns {loss - 1} extra step loss(es) into retreat (10.15.9.1.6)")
            loss = 1
        if retreat == 1 and fort:
            lines.append(f"{who} Fortified: ignores R1 (10.7)")
            retreat = 0
        if retreat and choice.get("hold") == "yes":
            loss += 1
            lines.append(f"{who} cancels the retreat with an additional step loss (10.15.9.1.6)")
            retreat = 0
        left = loss
        for u in _loss_order(units, lead):
            if left <= 0:
                break
            u = cur.units[u.id]
            n = min(left, u.steps)
            ev, lost, _ = apply_hits(cur, u, n, rule=rule, cause="ground", visible_to=watchers(cur, u))
            events += ev
            cur = apply_all(cur, ev)
            left -= lost
            lines.append(f"{u.id} loses {lost} step(s)")
        for u in units:
            u = cur.units[u.id]
            n_ret = max(retreat, 1) if u.id in delayers else retreat  # 10.8: a delaying unit always retreats 1
            if n_ret and u.alive and u.hex is not None:
                path = _retreat_path(cur, u, n_ret, away)
                if path is None:
                    ev, lost, _ = apply_hits(cur, u, 1, rule="R9", cause="ground", visible_to=watchers(cur, u))
                    events += ev
                    cur = apply_all(cur, ev)
                    lines.append(f"{u.id} cannot retreat {n_ret}: loses a step instead (G2)")
                    continue
                vis = watchers(cur, u)
                ev = [
                    unit_move(u.id, path[-1], path=tuple(path), rule="R9", visible_to=vis),
                    unit_set(u.id, markers=u.markers - {"defend", "fortified", "reserve"}, rule="R9", visible_to=vis),
                ]
                if "fortified" in u.markers:
                    ev.append(hex_set(u.hex, {"fortified": {"side": u.side, "turn": cur.clock.turn}}, rule="10.7"))
                events += ev
                cur = apply_all(cur, ev)
                lines.append(f"{u.id} retreats {n_ret} to {cur.map.label(path[-1])}")
    if r["exp"]:
        for u in cb.attackers:
            x = cur.units[u.id]
            if x.alive and x.hex is not None:
                ev = [unit_set(x.id, data={"exp": cur.clock.turn}, rule="10.15.9.1.6", visible_to=watchers(cur, x))]
                events += ev
                cur = apply_all(cur, ev)
        lines.append("EXP: the attackers may exploit (3.G, 3.H)")
    return events, lines


# =====================================================================================================
# public helpers for notebooks
# =====================================================================================================
def _units(state: Any, ids: Iterable[str]) -> list[Any]:
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
    game: Any, hex: str, with_: Sequence[str] = (), *, lead: str | None = None, support: Sequence[str] = (), **kw: Any
) -> Result:
    """Submit ``attack`` (and the defender's empty answer if it is waiting) and return the Result."""
    from owsnb.rules.ows.common import submit

    units = list(with_ or kw.get("with", ()))
    side = game.state.units[units[0]].side
    o = Order(
        side,
        "attack",
        (hex,),
        {"with": tuple(units), **({"lead": lead} if lead else {}), **({"support": tuple(support)} if support else {})},
    )
    r = submit(game, o)
    w = _window(game.state)
    if w and r.outcome.get("pending"):
        return submit(game, Order(w["defender"], "defensive-fire"))
    return r


# =====================================================================================================
# orders
# =====================================================================================================
def _examples(h: OrderHandler, state: Any, side: str, values: Iterable[dict[str, Any]], limit: int = 10) -> list[Order]:
    return legal_examples(h, state, side, values, limit)


RESULT_CHOICES = (
    Param("hold", "choice", "cancel a retreat by losing a step (10.15.9.1.6)", positional=False, optional=True,
          choices=("yes", "no")),
    Param("trade", "choice", "turn extra step losses into retreat (10.15.9.1.6)", positional=False, optional=True,
          choices=("yes", "no")),
)
"""A side's choices on its GCAT result, given with its order (ruling G3)."""


class Initiative(OrderHandler):
    """10.2: declare the planned order of your formations (10.2.2, 10.2.4) and/or play a decision
    card that seizes the ground initiative (10.2.5)."""

    type = OrderType(
        "initiative",
        (
            Param(
                "order",
                "unit",
                "your formation HQs in the order they activate",
                positional=False,
                repeat=True,
                optional=True,
            ),
            Param(
                "seize", "card", "decision card that seizes the initiative (10.2.5)", positional=False, optional=True
            ),
        ),
        rule="10.2",
        doc="ground initiative: planned activation order, or seize the initiative with a card",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        vals: list[dict[str, Any]] = []
        f = formations(state, side)
        if f and option(state, "ground_initiative") in ("formation", "planned", "chits"):
            vals.append({"order": f})
            vals.append({"order": list(reversed(f))})
        for k in ("decision", "cards"):
            vals += [{"seize": c} for c in hand(state, side).get(k) or []]
        ex = _examples(self, state, side, vals)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if not args.get("order") and not args.get("seize"):
            raise refuse("give order=HQ,... and/or seize=CARD", "nothing", "10.2", order)
        mine = formations(state, order.side)
        for f in args.get("order", ()):
            if f not in mine:
                raise refuse(
                    f"{f!r} is not one of your formation HQs ({', '.join(mine) or 'none'})",
                    "not-formation",
                    "10.2.4",
                    order,
                )
        if args.get("seize"):
            check_card(state, order, args["seize"], seize=True)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        ev: list[Event] = []
        lines = []
        if args.get("order"):
            ev.append(side_set(order.side, "private", {"ground_plan": list(args["order"])}, rule="10.2.4"))
            lines.append(f"activation order noted: {', '.join(args['order'])}")
        if args.get("seize"):
            played, more = play_card(state, order.side, args["seize"], rule="10.2.5")
            ev += played
            lines += more
        return Adjudication(ev, Result("Ground initiative", dict(args), ["10.2"], [], lines))


def _organize_unit(state: Any, order: Order, uid: str, rule: str) -> Any:
    if base_step(state.clock.step) != "6.C.2":
        raise refuse("this is done in the Organize step (6.C.2)", "wrong-step", rule, order)
    return own_unit(state, order, uid, rule)


def _hq_in_radius(state: Any, u: Any) -> Any | None:
    hq = _hq_of(state, u)
    if hq is None or hq.hex is None or not hq.alive:
        return None
    r = int(counter(hq).command_radius or 0)
    if r:
        from owsnb.rules.ows.timedistance import command_radius_hexes

        if u.hex.distance(hq.hex) > command_radius_hexes(state, hq):
            return None
    return hq


def _unit_order(verb: str, what: str, rule: str, doc: str) -> OrderType:
    """An order on one unit: ``VERB UNIT``."""
    return OrderType(verb, (Param("unit", "unit", what),), rule=rule, doc=doc)


class _Organize(OrderHandler):
    """An Organize-step order (10.3 2.A-2.C) on one unit; by default it places :attr:`marker`."""

    marker = ""
    rule = ""

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.2":
            return None
        us = [u for u in state.units_of(side) if u.hex is not None and counter(u).category in GROUND_CATEGORIES]
        ex = _examples(self, state, side, ({"unit": u.id} for u in us), 8)
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(o.args[0] for o in ex)), tuple(ex)) if ex else None

    def _events(self, state: Any, u: Any) -> list[Event]:
        return [unit_set(u.id, markers=u.markers | {self.marker}, rule=self.rule, visible_to=watchers(state, u))]

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u = state.units[args["unit"]]
        return Adjudication(self._events(state, u), Result(f"{u.id}: {self.marker}", {"unit": u.id}, [self.rule]))


class Reserve(_Organize):
    """10.4 (2.A): an HQ designates a unit in its command radius as Reserve (C2)."""

    marker, rule = "reserve", "10.4"
    type = _unit_order("reserve", "unit to hold in reserve", "10.4", "designate a reserve (half MP; attacks only in exploitation)")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.4")
        if counter(u).category not in ("ground", "artillery", "engineer"):
            raise refuse(f"{u.id} cannot be a reserve", "not-ground", "10.4", order)
        if "reserve" in u.markers:
            raise refuse(f"{u.id} is already in reserve", "already", "10.4", order)
        if _hq_in_radius(state, u) is None:
            raise refuse(f"{u.id} has no HQ within command radius to designate it (2.2.7.1)", "no-hq", "2.2.7.1", order)


class MainEffort(_Organize):
    """10.5 (2.B): one Main Effort per Div/Corps HQ per turn; not from a disrupted or suppressed HQ."""

    marker, rule = "main-effort", "10.5"
    type = _unit_order("main-effort", "unit (manoeuvre or fires) of the HQ", "10.5", "designate the Main Effort")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.5")
        hq = _hq_in_radius(state, u)
        if hq is None:
            raise refuse(f"{u.id} has no HQ within command radius (2.2.7.1)", "no-hq", "2.2.7.1", order)
        top = state.units.get(formation_of(state, u) or "") or hq
        if hq.markers & {"disrupted-c2", "suppressed"} or top.markers & {"disrupted-c2", "suppressed"}:
            raise refuse(
                f"{hq.id} is disrupted or suppressed: no Main Effort (7.2.1.1, 10.15.7)",
                "hq-disrupted",
                "7.2.1.1",
                order,
            )
        if int(top.data.get("me_turn", 0) or 0) == state.clock.turn:
            raise refuse(f"{top.id} has already designated its Main Effort this turn", "one-main-effort", "10.5", order)

    def _events(self, state: Any, u: Any) -> list[Event]:
        hq = _hq_of(state, u)
        top = state.units.get(formation_of(state, u) or "") or hq
        return [
            unit_set(u.id, markers=u.markers | {"main-effort"}, rule="10.5", visible_to=watchers(state, u)),
            unit_set(u.id, data={"me_by": hq.id}, rule="10.5", visible_to=frozenset({u.side})),
            unit_set(top.id, data={"me_turn": state.clock.turn}, rule="10.5", visible_to=frozenset({u.side})),
        ]


class Defend(_Organize):
    """10.6 (2.C): a unit that will not move takes a Defend mission (+1 shield, lost on moving)."""

    marker, rule = "defend", "10.6"
    type = _unit_order("defend", "unit that will not move", "10.6", "Defend mission")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.6")
        if counter(u).category not in GROUND_CATEGORIES:
            raise refuse(f"{u.id} is not a ground unit", "not-ground", "10.6", order)
        if u.markers & {"defend", "fortified"}:
            raise refuse(f"{u.id} is already in Defend/Fortified", "already", "10.6", order)

    def _events(self, state: Any, u: Any) -> list[Event]:
        return [
            unit_set(
                u.id,
                markers=(u.markers - {"delay"}) | {"defend"},
                data={"defend_turn": state.clock.turn},
                rule="10.6",
                visible_to=watchers(state, u),
            )
        ]


class Fortify(_Organize):
    """10.7: a unit that started the Ground phase in Defend, with an engineer, becomes Fortified."""

    marker, rule = "fortified", "10.7"
    type = _unit_order("fortify", "unit in Defend with an engineer", "10.7", "upgrade Defend to Fortified (+2)")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.7")
        if "defend" not in u.markers or int(u.data.get("defend_turn", 0) or 0) >= state.clock.turn:
            raise refuse(f"{u.id} must start the Ground phase already in Defend (10.7)", "not-in-defend", "10.7", order)
        if not any(
            x.side == u.side and x.hex == u.hex and x.alive and counter(x).category == "engineer"
            for x in state.units.values()
        ):
            raise refuse(f"{u.id} needs an engineer in its hex (10.7)", "no-engineer", "10.7", order)

    def _events(self, state: Any, u: Any) -> list[Event]:
        return [
            unit_set(u.id, markers=(u.markers - {"defend"}) | {"fortified"}, rule="10.7", visible_to=watchers(state, u))
        ]


class Delay(_Organize):
    """10.8 (2.C): a Delay mission (cannot attack; the attacker is demoted; ignores a 1-step loss)."""

    marker, rule = "delay", "10.8"
    type = _unit_order("delay", "unit to delay", "10.8", "Delay mission")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _organize_unit(state, order, args["unit"], "10.8")
        if not _manoeuvre(u):
            raise refuse(f"{u.id} is not a manoeuvre unit", "not-manoeuvre", "10.8", order)
        if "delay" in u.markers:
            raise refuse(f"{u.id} is already in Delay", "already", "10.8", order)

    def _events(self, state: Any, u: Any) -> list[Event]:
        return [
            unit_set(
                u.id,
                markers=(u.markers - {"defend", "fortified"}) | {"delay"},
                rule="10.8",
                visible_to=watchers(state, u),
            )
        ]


class TaskOrganize(OrderHandler):
    """10.3 2.A: attach a unit to an HQ; 10.14 [ADV]: place Orders markers (secret, within the
    side's action points)."""

    type = OrderType(
        "task-organize",
        (
            Param("unit", "unit", "unit to attach", optional=True),
            Param("hq", "unit", "HQ it now answers to", optional=True),
            Param(
                "orders",
                "unit",
                "units or HQs given Orders markers (10.14, ADV)",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="10.3",
        doc="task organisation; Orders markers (ADV)",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.2":
            return None
        vals: list[dict[str, Any]] = []
        hqs = [u.id for u in state.units_of(side) if counter(u).category == "hq" and u.alive]
        for u in state.units_of(side)[:6]:
            if counter(u).category in ("ground", "artillery", "engineer") and hqs:
                vals.append({"unit": u.id, "hq": hqs[0]})
        if option(state, "action_points"):
            from owsnb.rules.ows import orders as _orders

            n = _orders.budget(state, side)
            vals.append({"orders": hqs[:n] or [u.id for u in state.units_of(side)][:n]})
        ex = _examples(self, state, side, vals)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if base_step(state.clock.step) != "6.C.2":
            raise refuse("task organisation is done in the Organize step (6.C.2)", "wrong-step", "10.3", order)
        if bool(args.get("unit")) != bool(args.get("hq")):
            raise refuse("give both unit and hq to attach a unit", "bad-arguments", "10.3", order)
        if args.get("unit"):
            u = own_unit(state, order, args["unit"], "10.3", on_map=False)
            hq = own_unit(state, order, args["hq"], "10.3", on_map=False)
            if counter(hq).category != "hq" or hq.id == u.id:
                raise refuse(f"{hq.id} is not an HQ", "not-hq", "10.3", order)
        if args.get("orders"):
            from owsnb.rules.ows import orders as _orders

            _orders.validate_orders(state, order, list(args["orders"]))
        if not args.get("unit") and not args.get("orders"):
            raise refuse("nothing to organise: give unit= hq= or orders=", "nothing", "10.3", order)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        ev: list[Event] = []
        lines = []
        if args.get("unit"):
            u = state.units[args["unit"]]
            ev.append(unit_set(u.id, data={"hq": args["hq"]}, rule="10.3", visible_to=frozenset({u.side})))
            lines.append(f"{u.id} attached to {args['hq']}")
        if args.get("orders"):
            ev.append(
                side_set(
                    order.side,
                    "private",
                    {"orders": {"turn": state.clock.turn, "units": list(args["orders"])}},
                    rule="10.14.2",
                )
            )
            lines.append(f"Orders markers on {', '.join(args['orders'])} (10.14.2)")
        return Adjudication(ev, Result("Task organisation", dict(args), ["10.3"], [], lines))


class PrepFire(OrderHandler):
    """10.3 3.A / 10.15.4: the actioning side fires artillery and air at a detected ground unit on
    the FET; artillery that fires is Expended (10.15.5)."""

    type = OrderType(
        "prep-fire",
        (
            Param("target", "unit", "detected enemy ground unit"),
            Param(
                "with", "unit", "artillery, attack helicopters or air missions firing", positional=False, repeat=True
            ),
            Param("missions", "int", "fire missions to use (option fire_splitting)", positional=False, optional=True),
        ),
        rule="10.15.4",
        doc="Prep Fire on the Fires Effects Table",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.3" or _stage(state, side) != "prep":
            return None
        fs = [
            u
            for u in state.units_of(side)
            if u.hex is not None
            and counter(u).category in ("artillery",)
            and _ground_attacks(u)
            and "expended" not in u.markers
        ]
        ts = [e for e in known_enemies(state, side) if counter(e).category in GROUND_CATEGORIES]
        vals = [{"target": t.id, "with": [f.id]} for f in fs for t in ts if _in_range(state, f, t.hex)]
        ex = _examples(self, state, side, vals, 6)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _read(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[Any, list[Any], int | None]:
        if base_step(state.clock.step) != "6.C.3":
            raise refuse("Prep Fire is part of the Ground phase (6.C.3)", "wrong-step", "10.3", order)
        t = enemy_unit(state, order.side, args["target"], "10.15.2", order)
        if counter(t).category not in DEFENDERS:
            raise refuse(f"{t.id} is not a ground unit: use a strike (9.9)", "not-ground", "10.15.4", order)
        firers = [own_unit(state, order, f, "10.15.2") for f in dict.fromkeys(args["with"])]
        for f in firers:
            check_may_act(state, order, f, "prep-fire")
            _can_fire(state, order, f, t.hex, "10.15.2")
        bomb = option(state, "bombardment") and any("main-effort" in f.markers for f in firers)
        _span_of_control(state, order, firers, bomb)
        lim = None
        if args.get("missions"):
            if not option(state, "fire_splitting"):
                raise refuse(
                    "a counter fires all its missions at once (10.15.5); splitting is a scenario option",
                    "no-splitting",
                    "10.15.5",
                    order,
                )
            lim = int(args["missions"])
        from owsnb.rules.ows import css as _css

        for f in firers:
            _css.check_munitions(state, order, f, len(_missions(state, f, t, lim)))
        return t, firers, lim

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._read(state, order, args)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Distribution:
        t, firers, lim = self._read(state, order, args)
        shield, _ = defence(state, t)
        row = _fet_row(state, t)
        ds = [d for f in firers for _, d, _ in _missions(state, f, t, lim)]
        return fire_preview(
            ds, shield, row["suppress"], row["step"], bool(ptable(state, "fet").get("criticals")), t.steps
        )

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        t, firers, lim = self._read(state, order, args)
        roll = Roller(dice)
        from owsnb.rules.ows import css as _css

        ev: list[Event] = []
        for f in firers:
            ev += _css.pay_munitions(state, f, len(_missions(state, f, t, lim)))
        fe, res = fire_on(state, firers, t, roll, rule="10.15.4", limit=lim)
        ev += fe + _set_stage(state, order.side, "prep")
        r = Result(
            f"Prep Fire on {t.id}",
            {k: v for k, v in res.items() if k != "lines"},
            ["10.3", "10.15.4", "10.15.5"],
            roll.rolls,
            res["lines"],
        )
        return Adjudication(ev, r)


class Attack(OrderHandler):
    """10.3 3.C/3.D: declare a ground attack on an adjacent hex with supporting fires; the defender
    answers (3.E), then the GCAT is rolled (3.F, 10.15.9)."""

    type = OrderType(
        "attack",
        (
            Param("hex", "hex", "hex attacked"),
            Param(
                "with", "unit", "attacking units (at most 3 steps per hexside, 10.15.1)", positional=False, repeat=True
            ),
            Param("lead", "unit", "lead unit (a Main Effort leads if it takes part)", positional=False, optional=True),
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

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.3" or _window(state):
            return None
        foes = [e for e in known_enemies(state, side) if counter(e).category in DEFENDERS]
        vals = []
        for e in foes:
            adj = [
                u
                for u in state.units_of(side)
                if u.hex is not None and _manoeuvre(u) and (u.hex.distance(e.hex) == 1 or u.hex == e.hex)
            ]
            if adj:
                vals.append({"hex": state.map.label(e.hex), "with": [u.id for u in adj[:2]]})
                vals.append({"hex": state.map.label(e.hex), "with": [adj[0].id]})
        ex = _examples(self, state, side, vals, 6)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _read(self, state: Any, order: Order, args: Mapping[str, Any]) -> dict[str, Any]:
        if base_step(state.clock.step) != "6.C.3":
            raise refuse("ground combat is in the Ground phase (6.C.3)", "wrong-step", "10.3", order)
        h = state.map.hex(args["hex"])
        side = order.side
        units = [own_unit(state, order, x, "10.15") for x in dict.fromkeys(args["with"])]
        turn = state.clock.turn

        def exploiting(u: Any) -> bool:
            m = u.data.get("moved") or {}
            return int(m.get("turn", 0) or 0) == turn and bool(m.get("exploit"))

        exploit = any(exploiting(u) for u in units)
        for u in units:
            check_may_act(state, order, u, "exploit-attack" if exploit else "attack")
            c = counter(u)
            if c.category not in ("ground", "engineer"):
                raise refuse(f"{u.id} is not a manoeuvre unit (10.15.9.1.1)", "not-manoeuvre", "10.15", order)
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
                    f"{u.id} made a disorganized move and may not attack (10.10.2)", "disorganized", "10.10.2", order
                )
            att = u.data.get("attacked") or {}
            if int(att.get("turn", 0) or 0) == turn and (not exploit or att.get("exploit")):
                raise refuse(f"{u.id} has already attacked this Ground phase", "already-attacked", "10.3", order)
            if exploit and not exploiting(u):
                raise refuse(f"{u.id} is not part of the exploitation force (3.H)", "not-exploiting", "10.3", order)
            d = u.hex.distance(h)
            if d > 1:
                raise refuse(f"{u.id} is not next to {state.map.label(h)}", "not-adjacent", "10.15", order)
            if d == 0 and not (u.data.get("assault") or {}).get("delivered"):
                raise refuse(
                    f"{u.id} attacks from an adjacent hex (only a landing force assaults its own hex, 10.15.8.3)",
                    "not-adjacent",
                    "10.15.8.3",
                    order,
                )
            landed = int(u.data.get("landed", 0) or 0) == turn
            advanced = (
                int(m.get("turn", 0) or 0) == turn and int(m.get("hexes", 0) or 0) > 0 and m.get("step") == "6.C.3"
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
            raise refuse(f"{state.map.label(h)} holds no detected enemy ground unit", "no-target", "10.15", order)
        # hexside limit (10.15.1) and landing waves (10.15.8.3)
        lim = int(ptable(state, "movement").get("hexside_limit", 3))
        by_side: dict[Hex, int] = {}
        river = {}
        for u in units:
            e = state.map.edge(u.hex, h) if u.hex != h else {}
            river[u.id] = "major-river" in e or "river" in e
            if counter(u).category == "engineer" and river[u.id]:
                continue  # 10.11.2: the engineer of a river assault does not count
            by_side[u.hex] = by_side.get(u.hex, 0) + (1 if counter(u).category == "engineer" else u.steps)
        for src, n in by_side.items():
            if src == h:
                w = ptable(state, "ground")["landing"]
                sea = sum(u.steps for u in units if (u.data.get("assault") or {}).get("mode") == "sea")
                air = sum(u.steps for u in units if (u.data.get("assault") or {}).get("mode") == "air")
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
        for rid in dict.fromkeys(args.get("reserves", ())):
            r = own_unit(state, order, rid, "10.15.8.3")
            if h not in by_side:
                raise refuse("only the second wave of an opposed landing is topped up with reserves (10.15.8.3)",
                             "not-a-landing", "10.15.8.3", order)
            if r.hex != h or "reserve" not in r.markers or not (r.data.get("assault") or {}).get("delivered") \
                    or r.id in {u.id for u in units}:
                raise refuse(f"{r.id} is not a landing-force reserve in {state.map.label(h)} (10.15.8.3, 10.4)",
                             "not-a-reserve", "10.15.8.3", order)
            reserves.append(r)
        lead = None
        if args.get("lead"):
            lead = state.units.get(args["lead"])
            if lead is None or lead.id not in {u.id for u in units}:
                raise refuse("the lead unit must be one of the attackers", "bad-lead", "10.15.9.1", order)
        support = []
        for sid in dict.fromkeys(args.get("support", ())):
            s = own_unit(state, order, sid, "10.15.6")
            c = counter(s)
            if c.category in ("engineer", "sof"):
                if s.hex.distance(h) > 1:
                    raise refuse(
                        f"{s.id} must be next to {state.map.label(h)} to support", "out-of-range", "10.15.9.1.2", order
                    )
            else:
                _can_fire(state, order, s, h, "10.15.6", idf=True)
                if c.is_air and c.mission != "cas" and c.aircraft != "rotary":
                    raise refuse(f"{s.id} is not flying Close Air Support (6.5.10.3)", "not-cas", "6.5.10.3", order)
            support.append(s)
        _span_of_control(state, order, support)
        from owsnb.rules.ows import css as _css

        for s in support:
            if counter(s).category == "artillery":
                _css.check_munitions(state, order, s, sum(a.left for a in _ground_attacks(s)))
        return {"hex": h, "units": units, "lead": lead, "support": support, "exploit": exploit, "enemies": enemies,
                "reserves": reserves}

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._read(state, order, args)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Combat:
        r = self._read(state, order, args)
        return combat(state, order.side, r["hex"], r["units"], lead=r["lead"], support=r["support"], side_knows=True)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        r = self._read(state, order, args)
        side = order.side
        defender = r["enemies"][0].side
        h = r["hex"]
        ev: list[Event] = []
        # the attackers are revealed by declaring (Combat marker); reserves attacked lose the marker later
        for u in r["units"]:
            ev.append(
                unit_set(
                    u.id, markers=u.markers | {"combat"}, seen_by=u.seen_by | {defender}, rule="10.3", visible_to=None
                )
            )
        from owsnb.rules.ows import css as _css

        for s in r["support"]:
            if counter(s).category == "artillery":
                ev += _css.pay_munitions(state, s, sum(a.left for a in _ground_attacks(s)))
            ev.append(unit_set(s.id, markers=s.markers | {"idf-spt"}, rule="10.15.6", visible_to=watchers(state, s)))
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


def _top_up(state: Any, p: Mapping[str, Any], h: Hex) -> tuple[list[Event], list[str]]:
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
        events.append(unit_set(r.id, markers=(r.markers - {"reserve"}) | {"combat"}, seen_by=r.seen_by | {p["defender"]},
                               rule="10.15.8.3", visible_to=None))
    return events, joined


def _resolve_pending(
    state: Any,
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
    for rid in dargs.get("delay", ()):
        u = cur.units[rid]
        ev = [unit_set(u.id, markers=u.markers | {"delay"}, rule="10.8.1", visible_to=watchers(cur, u))]
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
        fe, res = fire_on(cur, [f], t, roll, rule="10.15.4")
        events += ev + fe
        cur = apply_all(cur, ev + fe)
        lines += [f"defensive fire: {x}" for x in res["lines"]]
        rules.append("10.15.4")
    dsup = [cur.units[x] for x in dargs.get("support", ()) if cur.units[x].alive]
    for s in dsup:
        ev = [unit_set(s.id, markers=s.markers | {"idf-spt"}, rule="10.15.6", visible_to=watchers(cur, s))]
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
        defs = [
            e
            for e in cur.units.values()
            if e.hex == h and e.side != p["attacker"] and e.alive and counter(e).category in DEFENDERS
        ]
        att = [cur.units[x] for x in p["with"] if cur.units[x].alive and cur.units[x].hex is not None]
        if not defs or not [u for u in att if _manoeuvre(u)]:
            if rnd == 0:
                lines.append(
                    "no combat: " + ("the defenders are gone" if not defs else "no attacking manoeuvre unit left")
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
            cb.die, f"GCAT {cb.columns[cb.column]}: {cb.lead_att.id} {cb.die} vs shield {cb.shield}", "10.15.9", None
        )
        cell = gcat_cell(cb.gcat, cb.column, r, cb.shield)
        lines += [f"{k}: {v}" for k, v in cb.rows(public=True)]
        lines.append(f"roll {r} -> row '{cb.gcat['rows'][row_index(r, cb.shield, cb.gcat['rows'])]['name']}': {cell}")
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
            still = [
                e
                for e in cur.units.values()
                if e.hex == h and e.side != p["attacker"] and e.alive and counter(e).category in DEFENDERS
            ]
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
            ev = [unit_set(e.id, markers=e.markers - {"reserve"}, rule="10.4.1", visible_to=watchers(cur, e))]
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
                    hex_set(e.hex, {"bridge": {"side": e.side, "turn": cur.clock.turn}}, rule="10.11.2"),
                    unit_set(
                        e.id,
                        data={"bridges": [*(e.data.get("bridges") or ()), site]},
                        rule="10.11.2",
                        visible_to=frozenset({e.side}),
                    ),
                ]
                lines.append(f"river assault succeeds: {e.id} bridges the river at {site} (10.11.2)")
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
            Param("fire", "text", "FIRER:TARGET defensive fire missions", positional=False, repeat=True, optional=True),
            Param(
                "support",
                "unit",
                "artillery (IDF SPT), CAS, NGFS for the defence",
                positional=False,
                repeat=True,
                optional=True,
            ),
            Param(
                "delay", "unit", "recon units switching to Delay (10.8.1)", positional=False, repeat=True, optional=True
            ),
            *RESULT_CHOICES,
        ),
        rule="10.3",
        doc="defender: defensive fires and supporting fires, then the GCAT is rolled",
    )

    def _p(self, state: Any, order: Order) -> dict[str, Any]:
        p = _pending(state)
        if not p or p["defender"] != order.side:
            raise refuse("no attack on your units waits for defensive fires", "no-attack-pending", "10.3", order)
        return p

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        try:
            p = self._p(state, Order(side, "defensive-fire"))
        except IllegalOrderError:
            return None
        h = Hex(*p["hex"])
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
            vals.append({"fire": [f"{arts[0].id}:{p['with'][0]}"]})
        ex = _examples(self, state, side, vals, 4)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        p = self._p(state, order)
        h = Hex(*p["hex"])
        used: set[str] = set()
        per_target: dict[str, list[Any]] = {}
        for spec in args.get("fire", ()):
            fid, sep, tid = spec.partition(":")
            if not sep:
                raise refuse(f"{spec!r}: write FIRER:TARGET", "bad-fire", "10.15.2", order)
            f = own_unit(state, order, fid, "10.15.2")
            t = enemy_unit(state, order.side, tid, "10.15.2", order)
            _can_fire(state, order, f, t.hex, "10.15.2")
            if f.id in used:
                raise refuse(f"{f.id} fires only once (10.15.5)", "expended", "10.15.5", order)
            used.add(f.id)
            per_target.setdefault(t.id, []).append(f)
        for fs in per_target.values():
            _span_of_control(state, order, fs)
        sup = []
        for sid in args.get("support", ()):
            s = own_unit(state, order, sid, "10.15.6")
            if s.id in used:
                raise refuse(f"{s.id} has fired this impulse (10.15.5)", "expended", "10.15.5", order)
            _can_fire(state, order, s, h, "10.15.6", idf=True)
            sup.append(s)
        _span_of_control(state, order, sup)
        for rid in args.get("delay", ()):
            u = own_unit(state, order, rid, "10.8.1")
            if u.hex != h or counter(u).subtype != "recon":
                raise refuse(f"{u.id} is not a recon unit under this attack (10.8.1)", "not-recon", "10.8.1", order)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        return None  # the defender cannot see the attacker's hidden supporting fires

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        p = self._p(state, order)
        ev, res = _resolve_pending(state, p, args, dice)
        clock = state.clock
        ev.insert(
            0,
            clock_set(
                replace(clock, active=tuple(p["clock"]["active"]), done=frozenset(p["clock"]["done"])), rule="10.3"
            ),
        )
        return Adjudication(ev, res)


class React(OrderHandler):
    """10.4.1.1.1 [optional]: in the Defensive Fires impulse, reserves of the attacked unit's
    formation react: d6 - HQ proficiency counters (-2 if the HQ is disrupted or suppressed) move
    up to half their MP and lose the Reserve marker."""

    type = OrderType(
        "react",
        (
            Param("unit", "unit", "reserve unit of the attacked formation"),
            Param("to", "hex", "where it moves (half MP)"),
        ),
        rule="10.4.1.1.1",
        doc="defender: reaction move by a reserve",
    )

    def _ctx(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any]:
        if not option(state, "reaction_move"):
            raise refuse(
                "the reaction move is an optional rule this scenario does not use (10.4.1.1.1)",
                "option-off",
                "10.4.1.1.1",
                order,
            )
        w = _window(state)
        if not w or w["defender"] != order.side:
            raise refuse(
                "a reaction move is made when your unit is attacked (Defensive Fires, 10.4.1.1.1)",
                "no-attack-pending",
                "10.4.1.1.1",
                order,
            )
        h = state.map.hex(w["hex"])
        p = {**w, **(_pending(state) or {})}
        u = own_unit(state, order, args["unit"], "10.4.1.1.1")
        if "reserve" not in u.markers:
            raise refuse(f"{u.id} is not in reserve", "not-reserve", "10.4.1.1.1", order)
        defs = [e for e in state.units.values() if e.hex == h and e.side == order.side and e.alive]
        forms = {formation_of(state, d) for d in defs}
        if formation_of(state, u) not in forms:
            raise refuse(
                f"{u.id} is not in the attacked unit's Division/Corps formation", "other-formation", "10.4.1.1.1", order
            )
        if p.get("react_left") == 0:
            raise refuse("no more reserve counters may react this time", "no-reaction-left", "10.4.1.1.1", order)
        hq = state.units.get(formation_of(state, u) or "")
        return p, u, hq

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        w = _window(state)
        if not option(state, "reaction_move") or not w or w.get("defender") != side:
            return None
        vals = []
        for u in state.units_of(side):
            if "reserve" in u.markers and u.hex is not None:
                r = ground_reach(state, u, react=True)
                for t in sorted(r.ends - {u.hex})[:2]:
                    vals.append({"unit": u.id, "to": state.map.label(t)})
        ex = _examples(self, state, side, vals, 4)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        p, u, hq = self._ctx(state, order, args)
        to = state.map.hex(args["to"])
        r = ground_reach(state, u, react=True)
        if to not in r.ends or to == u.hex:
            raise refuse(
                f"{state.map.label(to)} is not within half of {u.id}'s MP", "out-of-reach", "10.4.1.1.1", order
            )

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Distribution | None:
        p, u, hq = self._ctx(state, order, args)
        if p.get("react_left") is not None:
            return None
        prof, dis = _proficiency(state, hq)
        return reaction_preview(prof, dis)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        p, u, hq = self._ctx(state, order, args)
        roll = Roller(dice)
        lines = []
        left = p.get("react_left")
        ev: list[Event] = []
        if left is None:
            prof, dis = _proficiency(state, hq)
            r = roll(
                "d6", f"reaction roll (HQ proficiency {prof}{', -2 disrupted' if dis else ''})", "10.4.1.1.1", None
            )
            left = reaction_units(r, prof, dis)
            lines.append(f"d6 = {r} - proficiency {prof}{' - 2' if dis else ''} = {left} reserve counter(s) may react")
        w = _window(state)
        if left <= 0:
            ev.append(state_set("secret", {"ground_pending": {**_pending(state), "react_left": 0}}, rule="10.4.1.1.1"))
            ev.append(state_set("public", {"ground_window": {**w, "react_left": 0}}, rule="10.4.1.1.1"))
            return Adjudication(
                ev,
                Result(
                    "Reaction failed",
                    {"react_left": 0},
                    ["10.4.1.1.1"],
                    roll.rolls,
                    lines + ["the reaction attempt fails"],
                ),
            )
        to = state.map.hex(args["to"])
        r = ground_reach(state, u, react=True)
        vis = watchers(state, u)
        m = dict(thaw(u.data.get("moved") or {}))
        ev += [
            unit_move(u.id, to, path=r.path_to(to), rule="10.4.1.1.1", visible_to=vis),
            unit_set(
                u.id,
                markers=u.markers - {"reserve", "defend", "fortified"},
                data={"moved": {**m, "turn": state.clock.turn, "react": True}},
                rule="10.4.1.1.1",
                visible_to=vis,
            ),
            state_set("secret", {"ground_pending": {**_pending(state), "react_left": left - 1}}, rule="10.4.1.1.1"),
            state_set("public", {"ground_window": {**w, "react_left": left - 1}}, rule="10.4.1.1.1"),
        ]
        lines.append(f"{u.id} reacts to {state.map.label(to)}; Reserve removed")
        return Adjudication(
            ev,
            Result(
                f"{u.id} reacts", {"react_left": left - 1, "to": state.map.label(to)}, ["10.4.1.1.1"], roll.rolls, lines
            ),
        )


class Exploit(OrderHandler):
    """10.3 3.G / 10.4.1.1: an exploitation move (half MP) by a reserve (activated: the marker comes
    off) or by units that won an EXP result; they may then attack again (3.H)."""

    type = OrderType(
        "exploit",
        (
            Param("unit", "unit", "reserve or unit with an EXP result"),
            Param("to", "hex", "destination (half MP; may stay to attack)", optional=True),
        ),
        rule="10.4.1.1",
        doc="exploitation move (half MP)",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.3" or _window(state):
            return None
        vals = []
        for u in state.units_of(side):
            if u.hex is None or not ("reserve" in u.markers or int(u.data.get("exp", 0) or 0) == state.clock.turn):
                continue
            r = ground_reach(state, u.evolve(markers=u.markers - {"reserve"}), exploit=True)
            vals.append({"unit": u.id})
            for t in sorted(r.ends - {u.hex})[:2]:
                vals.append({"unit": u.id, "to": state.map.label(t)})
        ex = _examples(self, state, side, vals, 6)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _plan(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[Any, Hex, Any]:
        if base_step(state.clock.step) != "6.C.3":
            raise refuse("exploitation is part of the Ground phase (6.C.3)", "wrong-step", "10.3", order)
        u = own_unit(state, order, args["unit"], "10.4.1.1")
        if not ("reserve" in u.markers or int(u.data.get("exp", 0) or 0) == state.clock.turn):
            raise refuse(
                f"{u.id} is neither a reserve nor a unit with an EXP result", "not-exploitation", "10.4.1.1", order
            )
        from owsnb.rules.ows.movement import _ground_checks

        _ground_checks(state, order, u, exploit=True)
        free = u.evolve(markers=u.markers - {"reserve"})
        r = ground_reach(state, free, exploit=True)
        to = state.map.hex(args["to"]) if args.get("to") else u.hex
        if to not in r.ends:
            raise refuse(
                f"{state.map.label(to)} is beyond half of {u.id}'s MP ({r.allowance.mp:g})",
                "out-of-reach",
                "10.4.1.1",
                order,
            )
        return u, to, r

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._plan(state, order, args)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u, to, r = self._plan(state, order, args)
        from owsnb.rules.ows.movement import _moved

        vis = watchers(state, u)
        ev: list[Event] = []
        if to != u.hex:
            ev.append(unit_move(u.id, to, path=r.path_to(to), rule="10.4.1.1", visible_to=vis))
        ev.append(
            unit_set(
                u.id,
                markers=u.markers - {"reserve", "defend", "fortified"},
                data={"moved": _moved(state, u, len(r.path_to(to)) - 1, "6.C.3", exploit=True)},
                rule="10.4.1.1",
                visible_to=vis,
            )
        )
        ev += _set_stage(state, order.side, "exploit")
        return Adjudication(
            ev,
            Result(
                f"{u.id} exploits to {state.map.label(to)}",
                {"to": state.map.label(to)},
                ["10.3", "10.4.1.1"],
                [],
                ["may attack in exploitation combat (3.H)"],
            ),
        )


HANDLERS = [
    Initiative(),
    Reserve(),
    MainEffort(),
    Defend(),
    Fortify(),
    Delay(),
    TaskOrganize(),
    PrepFire(),
    Attack(),
    DefensiveFire(),
    React(),
    Exploit(),
]
STEP_EFFECTS = {"6.C.1b": second_phase, "6.C.3": enter_ground, "7.A": cleanup}
LEAVE_EFFECTS = {"6.C.3": leave_ground}
