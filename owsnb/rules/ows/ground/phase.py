"""The Ground phase's course: activations (10.2), impulses (10.3) and its start and end.

Paragraphs: 10.2 initiative methods (10.2.1 by side, 10.2.2 I-GO-U-GO by formation, 10.2.3 random
chit draw, 10.2.4 planned activation with a random draw between sides, disrupted or destroyed HQs
last; 10.2.5 a decision card seizes the initiative, an opposed roll if both play one); the
Div/Corps formations that activate (10.2); 10.3 the ground sequence (organize, then initiative,
C9; per actioning unit the impulses prep fires, move and declare, combat, exploitation, ruling
G1); the end of the phase (Combat and Delay markers off) and the second Ground phase of option
``ground_phases: 2`` (10.3 design note, ruling G4). The end of the 6.C.3 step, which first
resolves an attack the defender left unanswered, is :func:`owsnb.rules.ows.ground.attack.leave_ground`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import (
    Event,
    clock_set,
    note,
    side_set,
    state_set,
    unit_set,
)
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import Result, hand, legal_examples, option, watchers
from owsnb.rules.ows.planning import check_card, play_card
from owsnb.rules.ows.sequence import ground_round
from owsnb.rules.ows.units import counter

STAGES = ("prep", "move", "combat", "exploit")
"""The actioning side's impulses in order (10.3 3.A-3.H, G1)."""


def _g(state: StateLike) -> dict[str, Any]:
    return dict(thaw(state.public.get("ground") or {}))


def _pending(state: StateLike) -> dict[str, Any] | None:
    p = state.secret.get("ground_pending") if hasattr(state, "secret") else None
    return dict(thaw(p)) if p else None


def _window(state: StateLike) -> dict[str, Any] | None:
    w = state.public.get("ground_window")
    return dict(thaw(w)) if w else None


def _activation(state: StateLike, side: str) -> str | None:
    """The formation *side* activates in this pass (``"*"`` = all), if any."""
    g = _g(state)
    if g.get("turn") != ground_round(state):
        return "*"
    return thaw(state.sides[side].private.get("activation")) if side in state.sides else None


def _stage(state: StateLike, side: str) -> str:
    g = _g(state)
    if g.get("turn") != ground_round(state):
        return "prep"
    return (g.get("stage") or {}).get(side, "prep")


def _set_stage(state: StateLike, side: str, stage: str) -> list[Event]:
    cur = _stage(state, side)
    if STAGES.index(stage) <= STAGES.index(cur):
        return []
    g = _g(state)
    if g.get("turn") != ground_round(state):
        g = {"turn": ground_round(state)}
    st = dict(g.get("stage") or {})
    st[side] = stage
    return [state_set("public", {"ground": {**g, "stage": st}}, rule="10.3")]


def _hq_of(state: StateLike, unit: Any) -> Any | None:
    h = unit.data.get("hq")
    return state.units.get(h) if h else None


def formation_of(state: StateLike, unit: Any) -> str | None:
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


def formations(state: StateLike, side: str) -> list[str]:
    """The formation HQs of *side* that activate in the Ground phase (10.2.2-10.2.4)."""
    hqs = [
        u
        for u in state.units.values()
        if u.side == side and counter(u).category == "hq" and u.alive
    ]
    flagged = [u.id for u in hqs if u.data.get("formation")]
    if flagged:
        return sorted(flagged)
    subs = {
        formation_of(state, u)
        for u in state.units.values()
        if u.side == side and u.id not in {h.id for h in hqs}
    }
    return sorted(h.id for h in hqs if not h.data.get("hq") and h.id in subs)


def reaction_window(state: StateLike, side: str, order: Order | None) -> dict[str, Any]:
    """The defender's window (3.E) in which *side* may make a reaction move, else the refusal
    (10.4.1.1.1)."""
    w = _window(state)
    if not w or w.get("defender") != side:
        raise refuse(
            "a reaction move is made when your unit is attacked (Defensive Fires, 10.4.1.1.1)",
            "no-attack-pending",
            "10.4.1.1.1",
            order,
        )
    return w


def check_may_act(
    state: StateLike, order: Order | None, unit: Any, what: str, react: bool = False
) -> None:
    """Refusals shared by the actioning unit's orders: the defender's window, the activated
    formation (10.2), Orders markers (10.14, ADV) and the impulse order (10.3, G1)."""
    side = unit.side
    if react:
        reaction_window(state, side, order)
        return
    w = _window(state)
    if w:
        raise refuse(
            f"an attack on {w.get('hex')} waits for {w.get('defender')}'s defensive fires (3.E)",
            "defender-answers",
            "10.3",
            order,
        )
    act = _activation(state, side)
    if act is None:
        raise refuse(
            f"{side} has no formation activated in this pass (10.2)", "not-activated", "10.2", order
        )
    if act != "*":
        f = formation_of(state, unit)
        if f is not None and f != act:
            raise refuse(
                f"{unit.id} belongs to {f}; the activated formation is {act} (10.2)",
                "not-activated",
                "10.2",
                order,
            )
    from owsnb.rules.ows import orders as _orders

    _orders.check_orders(state, order, unit)
    stage = _stage(state, side)
    if what == "prep-fire" and stage != "prep":
        raise refuse(
            "Prep Fires come first, before any move or attack (10.3 3.A)",
            "wrong-impulse",
            "10.3",
            order,
        )
    if what == "move" and STAGES.index(stage) > STAGES.index("move"):
        raise refuse(
            "movement is over once combat has been resolved (10.3 3.C, G1); use exploitation (3.G)",
            "wrong-impulse",
            "10.3",
            order,
        )
    if what == "attack" and stage == "exploit":
        raise refuse(
            "only the exploitation force attacks now (3.H)", "wrong-impulse", "10.3", order
        )


def after_move(state: StateLike, unit: Any, verb: str) -> list[Event]:
    return _set_stage(state, unit.side, "exploit" if verb == "exploit" else "move")


def _queue(state: StateLike) -> list[list[str]]:
    q = state.secret.get("ground_queue") if hasattr(state, "secret") else None
    return [list(x) for x in thaw(q)] if q else []


def _build_queue(state: StateLike, dice: Any) -> tuple[list[list[str]], list[str]]:
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
            s: dice.roll(
                6,
                purpose=f"{s}: opposed roll for the seized initiative",
                rule="10.2.5",
                visible_to=None,
            )
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
                list(range(len(cup))),
                purpose="ground activation chit draw",
                rule="10.2.3",
                visible_to=None,
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
                list(range(len(tokens))),
                purpose="side chit draw (planned activation)",
                rule="10.2.4",
                visible_to=None,
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


def enter_ground(state: StateLike, dice: Any) -> list[Event]:
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
            clock_set(
                replace(state.clock, active=tuple(saved["active"]), done=frozenset(saved["done"])),
                rule="10.3",
            )
        )
        return events
    if g.get("turn") != turn:
        q, lines = _build_queue(state, dice)
        g = {
            "turn": turn,
            "method": option(state, "ground_initiative"),
            "pass": 0,
            "seize": g.get("seize") or {},
        }
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
    events.append(
        clock_set(replace(state.clock, active=active, done=frozenset(others)), rule="10.2")
    )
    if g["method"] != "side":
        desc = "; ".join(
            f"{a[0]}: {'all formations' if a[1] == '*' else 'a formation'}" for a in acts
        )
        events.append(note(f"Ground activation {g['pass']}: {desc} (10.2)", rule="10.2"))
    return events


def cleanup(state: StateLike, dice: Any = None) -> list[Event]:
    """The end of the Ground phase (also at 7.A, if the umpire jumped past it): Combat and Delay
    markers come off, activations end, a forgotten defender's window closes."""
    events: list[Event] = []
    for u in state.units.values():
        drop = u.markers & {"combat", "delay"}
        if drop:
            events.append(
                unit_set(u.id, markers=u.markers - drop, rule="10.3", visible_to=watchers(state, u))
            )
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


def second_phase(state: StateLike, dice: Any = None) -> list[Event]:
    """6.C.1b, the second Ground phase begins (option ``ground_phases: 2``, ruling G4): units may
    move and attack again, Main Efforts are designated afresh, a Defend taken in the first phase
    counts as held "at the start of the phase" (10.7), landing restrictions (10.15.8.1) and the
    day's fuel (10.13.2.1) start over. Reserve, Defend, Fortified, Suppressed and Expended
    markers stay until Regeneration."""
    events: list[Event] = []
    for u in state.units.values():
        data = {k: None for k in PHASE_DATA if u.data.get(k) is not None}
        if data or "main-effort" in u.markers:
            events.append(
                unit_set(
                    u.id,
                    data=data,
                    markers=u.markers - {"main-effort"},
                    rule="10.3",
                    visible_to=watchers(state, u),
                )
            )
    return events + [
        note("the second Ground phase of the turn begins (10.3 design note)", rule="10.3")
    ]


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
                on_map=False,
            ),
            Param(
                "seize",
                "card",
                "decision card that seizes the initiative (10.2.5)",
                positional=False,
                optional=True,
            ),
        ),
        rule="10.2",
        doc="ground initiative: planned activation order, or seize the initiative with a card",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        vals: list[dict[str, Any]] = []
        f = formations(state, side)
        if f and option(state, "ground_initiative") in ("formation", "planned", "chits"):
            vals.append({"order": f})
            vals.append({"order": list(reversed(f))})
        for k in ("decision", "cards"):
            vals += [{"seize": c} for c in hand(state, side).get(k) or []]
        ex = legal_examples(self, state, side, vals, 10)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if not args.get("order") and not args.get("seize"):
            raise refuse("give order=HQ,... and/or seize=CARD", "nothing", "10.2", order)
        mine = formations(state, order.side)
        for f in (u.id for u in args.get("order", ())):  # bound: the side's units, alive
            if f not in mine:
                raise refuse(
                    f"{f!r} is not one of your formation HQs ({', '.join(mine) or 'none'})",
                    "not-formation",
                    "10.2.4",
                    order,
                )
        if args.get("seize"):
            check_card(state, order, args["seize"], seize=True)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        ev: list[Event] = []
        lines = []
        shown = dict(args)
        if args.get("order"):
            plan = [u.id for u in args["order"]]
            shown["order"] = tuple(plan)
            ev.append(side_set(order.side, "private", {"ground_plan": plan}, rule="10.2.4"))
            lines.append(f"activation order noted: {', '.join(plan)}")
        if args.get("seize"):
            played, more = play_card(state, order.side, args["seize"], rule="10.2.5")
            ev += played
            lines += more
        return Adjudication(ev, Result("Ground initiative", shown, ["10.2"], [], lines))
