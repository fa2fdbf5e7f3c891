"""Strike warfare (9.2–9.9): the strike action — previews, resolution, damage and sequencing.

Paragraphs: 9.2.1 the shot calculus as two orders (the defender allocates grey shields after the
attacker assigns salvos, before any roll); 9.5 salvos spent; 9.6/9.6.1 damage; 9.8/9.9/9.9.1
many-to-one, one-to-many, long-range vs local and return fire; 9.9.2 C2 value = long-range strike
actions; 9.9.3 I-GO-U-GO or chit draw; 9.9.4.1 CAP intercept; 9.9.4.2 TACSIT 1 on launch; 9.9.4.3
submarine launch exposure; 9.9.7 infrastructure and ASPs (2.2.2.6); 7.2.1.4 countermeasures absorb
a step. The pure shot mechanics (9.2–9.2.1.2, 2.2.2.7, 2.1.1.3) are in
:mod:`~owsnb.rules.ows.salvos`, reading a strike from the state (targets, salvos, modifiers,
shields, CEC, CAP) in :mod:`~owsnb.rules.ows.targeting`, torpedo attacks (9.9.5) in
:mod:`~owsnb.rules.ows.torpedo`.

A strike is two orders: the attacker's ``strike`` (salvos assigned), then — if the defender has
anything to answer with — the defender's ``shields`` (grey shields, CAP interceptors, and return
fire for local strikes), which resolves it. :func:`resolve` does both in one call; :func:`preview`
gives the exact outcome first.

>>> p = preview(None, "T", ["d10"] * 3, grey_shields=[6] * 5, red_shield=5, excess="layered")
>>> [(s.die, s.layers) for s in p.plans]
[('d10', (6, 6)), ('d10', (6, 6)), ('d10', (6,))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import IllegalOrderError, refuse
from owsnb.kernel.events import Event, clock_set, hex_set, note, side_set, state_set, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param, own_unit
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import UMPIRE, GameState, StateLike
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    detects,
    option,
    space,
    watchers,
)
from owsnb.rules.ows.dice import parse_die, shift
from owsnb.rules.ows.salvos import SalvoPlan, _roll_salvo, _sum, allocate, engages
from owsnb.rules.ows.targeting import (
    INFRA,
    _air_reach,
    _available_shields,
    _cap_candidates,
    _cap_defense,
    _check_shape,
    _incoming_detail,
    _long_range,
    _modifiers,
    _parse_salvo,
    _pending,
    _plans,
    _read_salvos,
    _return_fire_options,
    _Salvo,
    _strike_waiting,
    _Target,
    _target,
    _unit_target,
)
from owsnb.rules.ows.units import counter, target_type

__all__ = ["StrikePreview", "preview", "resolve", "Strike", "Shields", "HANDLERS", "STEP_EFFECTS"]


# -- previews --------------------------------------------------------------------------------------
@dataclass
class StrikePreview:
    """The exact outcome of a strike before it is rolled: hits per target, steps lost, kill odds."""

    plans: list[SalvoPlan]
    targets: dict[str, Distribution]
    steps: dict[str, Distribution]
    rules: list[str] = field(default_factory=list)

    @property
    def hits(self) -> Distribution:
        """Hits on the (first) target."""
        return next(iter(self.targets.values()))

    distribution = hits

    def kill_probability(self, target: str | None = None) -> Fraction:
        """P(the target loses its last step)."""
        key = target or next(iter(self.steps))
        d = self.steps[key]
        top = max(d)
        return d[top] if top > 0 else Fraction(0)

    def __repr__(self) -> str:
        parts = "; ".join(
            f"{k}: " + ", ".join(f"{h}:{float(p):.1%}" for h, p in d.items())
            for k, d in self.targets.items()
        )
        return (
            f"<StrikePreview {len(self.plans)} salvos; hits {parts}; rules {', '.join(self.rules)}>"
        )

    def record(self) -> Any:
        """The preview as a result: each salvo (its die after modifiers, the grey shield layers
        and red shield it meets), and the exact hits on each target."""
        from owsnb.kernel.result import Result

        return Result(
            "Strike preview",
            {},
            list(self.rules),
            columns=["source", "die", "grey layers", "red shield", "target", "modifiers"],
            table=[
                {
                    "source": p.source or "",
                    "die": f"{p.base_die} → {p.die}" if p.base_die != p.die else p.die,
                    "grey layers": ", ".join(map(str, p.layers)) or "none",
                    "red shield": p.red,
                    "target": p.target,
                    "modifiers": "; ".join(p.notes),
                }
                for p in self.plans
            ],
            charts={f"hits on {k}": dict(d.items()) for k, d in self.targets.items()},
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def _steps_lost(countermeasures: int, steps: int) -> Callable[[int], int]:
    """Hits to steps lost: less the countermeasures, at most the target's steps (9.2, 2.1.1.3)."""
    return lambda hits: min(max(hits - countermeasures, 0), steps)


def _preview_of(
    state: StateLike | None, plans: list[SalvoPlan], targets: Mapping[str, _Target]
) -> StrikePreview:
    tdist: dict[str, Distribution] = {}
    sdist: dict[str, Distribution] = {}
    for key in dict.fromkeys(p.target for p in plans):
        if key is None:
            raise ValueError("a salvo plan without a target cannot be previewed")
        t = targets[key]
        d = _sum(p.distribution() for p in plans if p.target == key)
        d.label = f"hits on {key}"
        tdist[key] = d
        cm = 1 if t.countermeasures else 0
        sdist[key] = d.map(_steps_lost(cm, t.steps), label=f"steps lost by {key}")
    rules = ["9.2", "9.2.1", "2.1.1.3"] + _note_rules(plans)
    return StrikePreview(plans, tdist, sdist, list(dict.fromkeys(rules)))


def _note_rules(plans: Iterable[SalvoPlan]) -> list[str]:
    import re

    out = set()
    for p in plans:
        for n in p.notes:
            out.update(re.findall(r"\b(\d+(?:\.\d+)+)\b", n))
    return sorted(out)


def _state_of(game_or_state: Any, side: str | None) -> Any:
    if hasattr(game_or_state, "submit"):
        return game_or_state.view(side or UMPIRE)
    return game_or_state


def preview(
    game: Any,
    target: str,
    salvos: Sequence[str],
    grey_shields: int | Sequence[int] | None = None,
    *,
    cap: int | Sequence[str] = 0,
    side: str | None = None,
    excess: str | None = None,
    red_shield: int | None = None,
) -> StrikePreview:
    """Exact outcome of a strike on *target* (9.2–9.2.1.2, 2.1.1.3), nothing rolled.

    Args:
        game: a Game (its view of *side*, or the umpire's) or a state/view.
        target: the target's id.
        salvos: dice (``["d10"] * 3``, what-if) or salvo tokens ``"DDG-1:tlam"`` (sources' dice and
            modifiers are then read from the game).
        grey_shields: grey shields the defender commits: a number (the best ones that can cover the
            target; padded with the target's best value if it has fewer) or a list of values;
            ``None`` = every shield that can cover it.
        cap: number of CAP interceptors (what-if) or CAP mission ids.
        side: whose view to compute on (default: the owner of the first salvo source, else umpire).
        excess: override the ``excess_shields`` option (``"demote"`` or ``"layered"``).

    >>> p = preview(None, "T", ["d10"] * 3, grey_shields=[6] * 5, red_shield=5)
    >>> [p.die for p in p.plans], round(float(p.hits[0]), 3)
    (['d8', 'd8', 'd10'], 0.462)
    """
    if game is None:  # pure what-if
        crit = True
        red = int(red_shield or 4)
        vals = [6] * grey_shields if isinstance(grey_shields, int) else list(grey_shields or ())
        plans = allocate(salvos, vals, excess=excess or "demote", red=red, critical=crit)
        plans = [replace(p, target=target) for p in plans]
        t = _Target(target, "", None, red, 99, "naval")
        return _preview_of(None, plans, {target: t})
    if side is None:
        side = next(
            (
                game.state.units[s.split(":")[0]].side if hasattr(game, "state") else None
                for s in salvos
                if ":" in s and s.split(":")[0] in getattr(game, "state", game).units
            ),
            None,
        )
    state = _state_of(game, side)
    truth = game.state if hasattr(game, "state") else state
    tunit = state.units.get(target)
    if tunit is None and ":" not in target:
        raise refuse(
            f"{target!r} is not a detected enemy unit: no attack on targets that have not been detected",
            "target-not-detected",
            "9.9.4",
        )
    if side is None:
        side = next((s for s in truth.sides if tunit is None or s != tunit.side), None)
    if side is None:
        raise refuse(f"no side can attack {target!r}", "no-attacker", "9.9.4")
    if all(":" in s for s in salvos):
        sv, tmap = _read_salvos(state, side, target, salvos)
        alloc = {}
        for k, t in tmap.items():
            avail = _available_shields(state, t)
            alloc[k] = _pick_shields(avail, grey_shields, t)
        caps: list[Any] = []
        if isinstance(cap, (list, tuple)):
            caps = [state.units[c] for c in cap]
        plans = _plans(state, side, sv, alloc, caps)
        if isinstance(cap, int) and cap:
            plans = _what_if_caps(state, sv, plans, cap)
        if excess is not None:
            plans = _plans(_with_option(state, "excess_shields", excess), side, sv, alloc, caps)
        return _preview_of(state, plans, tmap)
    # what-if dice against a real target
    t = _target(state, side, target)
    avail = _available_shields(state, t)
    chosen = _pick_shields(avail, grey_shields, t)
    crit = option(state, "critical_hits") != "off"
    base = [
        SalvoPlan(parse_die(d), (), t.red, crit, None, None, None, t.key, parse_die(d))
        for d in salvos
    ]
    plans = allocate(
        base,
        chosen,
        excess=excess or option(state, "excess_shields"),
        hgv_defendable=option(state, "hgv_defendable"),
    )
    n = int(cap) if isinstance(cap, int) else len(cap)
    plans = [
        replace(p, cap=("d10", 5), notes=(*p.notes, "CAP intercept (9.9.4.1)")) if i < n else p
        for i, p in enumerate(plans)
    ]
    return _preview_of(state, plans, {t.key: t})


def _with_option(state: GameState, name: str, value: Any) -> Any:
    return replace(state, options=state.options.set({name: value}))


def _what_if_caps(
    state: StateLike, sv: Sequence[_Salvo], plans: list[SalvoPlan], n: int
) -> list[SalvoPlan]:
    out = list(plans)
    for i, s in enumerate(sv):
        if n <= 0:
            break
        d = _cap_defense(state, s.grp)
        if d is not None:
            out[i] = replace(out[i], cap=("d10", d))
            n -= 1
    return out


def _pick_shields(avail: list[dict], grey: Any, t: _Target) -> list[dict]:
    if grey is None:
        return avail
    if isinstance(grey, (list, tuple)):
        return [{"value": int(v)} for v in grey]
    n = int(grey)
    chosen = avail[:n]
    if len(chosen) < n:
        best = max((s["value"] for s in avail), default=6)
        chosen += [{"value": best}] * (n - len(chosen))
    return chosen


# -- resolution ------------------------------------------------------------------------------------
def _exposure_events(
    state: StateLike, side: str, salvos: Sequence[_Salvo], roll: Roller, defender: str
) -> tuple[list[Event], set[str]]:
    """9.9.4.2: ships and ground units that fire go to TACSIT 1; 9.9.4.3: a submarine that fires
    lets airborne ASW in its hex roll once, and leaves Silent Running (6.4.2.1: "removed when the
    submarine initiates an attack"). Returns events and the ids now seen by *defender*."""
    events: list[Event] = []
    seen: set[str] = set()
    for src in {s.src.id: s.src for s in salvos}.values():
        c = counter(src)
        if c.category == "submarine":
            # 6.4.2.1: Silent Running is removed when the boat initiates an attack
            if "silent-running" in src.markers:
                src = src.evolve(markers=src.markers - {"silent-running"})
                events.append(
                    unit_set(
                        src.id,
                        markers=src.markers,
                        rule="6.4.2.1",
                        visible_to=watchers(state, src),
                    )
                )
            asw = [
                u
                for u in state.units.values()
                if u.side == defender
                and u.alive
                and u.hex == src.hex
                and counter(u).is_air
                and counter(u).asw is not None
            ]
            if asw and defender not in src.seen_by:
                a = max(asw, key=lambda u: counter(u).asw_die[1:].zfill(2))
                die = counter(a).asw_die
                sig = int(c.signature or 8)
                r = roll(
                    die,
                    f"airborne ASW {a.id} detection of a launching submarine (target {sig})",
                    "9.9.4.3",
                    None,
                )
                if r >= sig:
                    seen.add(src.id)
                    events.append(detects(defender, src, "9.9.4.3"))
            continue
        if c.is_air:
            continue
        if defender not in src.seen_by or "tacsit1" not in src.markers:
            seen.add(src.id)
            events.append(detects(defender, src, "9.9.4.2"))
    return events, seen


def _execute(
    state: GameState,
    side: str,
    salvos: Sequence[_Salvo],
    targets: Mapping[str, _Target],
    alloc: Mapping[str, list[dict]],
    caps: Sequence[Any],
    dice: Any,
    return_fire: Sequence[_Salvo] = (),
) -> tuple[list[Event], Result]:
    defender = next(iter(targets.values())).side or next(s for s in state.sides if s != side)
    roll = Roller(dice)
    events, exposed = _exposure_events(state, side, salvos, roll, defender)

    s_exp = apply_all(state, events)

    def vis_of(src: Any) -> Any:
        return None if detected(s_exp, s_exp.units[src.id], defender) else frozenset({side})

    plans = _plans(state, side, salvos, alloc, caps)
    # expenditure: salvos (9.5), shields allocated (9.2.1, 2.2.2.8), CAPs engaged
    uses = [(s.src.id, s.grp.key) for s in (*salvos, *return_fire)]
    hgv_ok = option(state, "hgv_defendable")
    idle: list[str] = []
    for tkey, shields in alloc.items():
        at_t = [s.grp for s in salvos if s.tgt.key == tkey]
        for sh in shields:
            if "provider" not in sh:
                continue
            if engages(sh, at_t, hgv_ok):
                uses.append((sh["provider"], sh["key"]))
            else:  # 2.2.2.7: a non-BMD shield against ballistic salvos plays no part, not spent
                idle.append(f"{sh['provider']}:{sh['key']}")
    spent: dict[str, dict[str, int]] = {}
    for uid, key in uses:
        spent.setdefault(uid, {})
        spent[uid][key] = spent[uid].get(key, 0) + 1
    hits_on: dict[str, int] = {}
    lines: list[str] = [
        f"{k} (x{idle.count(k)}): cannot engage these salvos (not BMD), not spent (2.2.2.7)"
        for k in dict.fromkeys(idle)
    ]
    for p, s in zip(plans, salvos, strict=True):
        label = f"salvo {s.src.id}:{s.grp.id} ({p.die}) at {s.tgt.key}"
        v = vis_of(s.src)
        h = _roll_salvo(roll, p, v, label if v is None else f"salvo ({p.die}) at {s.tgt.key}")
        hits_on[s.tgt.key] = hits_on.get(s.tgt.key, 0) + h
        if v is None:
            lines.append(f"{label}: {h} hit(s)")
    rf_hits: dict[str, int] = {}
    for rf in return_fire:
        crit = option(state, "critical_hits") != "off"
        k, notes = _modifiers(state, defender, rf.src, rf.grp, rf.tgt)
        p = SalvoPlan(
            shift(rf.grp.die, k),
            (),
            rf.tgt.red,
            crit,
            None,
            rf.src.id,
            rf.grp.id,
            rf.tgt.key,
            rf.grp.die,
        )
        h = _roll_salvo(
            roll, p, None, f"return fire {rf.src.id}:{rf.grp.id} ({p.die}) at {rf.tgt.key}"
        )
        rf_hits[rf.tgt.key] = rf_hits.get(rf.tgt.key, 0) + h
        lines.append(f"return fire {rf.src.id}:{rf.grp.id} at {rf.tgt.key}: {h} hit(s) (9.9.1)")
    # apply, simultaneously (9.9.1): spend first, then damage
    for uid, keys in spent.items():
        u = state.units[uid]
        sp = dict(counter(u).spent)
        for pool, n in keys.items():
            sp[pool] = int(sp.get(pool, 0)) + n
        events.append(
            unit_set(
                uid, data={"spent": sp}, rule="9.5", visible_to=watchers(s_exp, s_exp.units[uid])
            )
        )
    for c in caps:
        events.append(
            unit_set(
                c.id, markers=c.markers | {"engaged"}, rule="9.9.4.1", visible_to=watchers(s_exp, c)
            )
        )
    s2 = apply_all(state, events)
    outcome: dict[str, Any] = {"hits": dict(hits_on), "steps_lost": {}}
    for key in dict.fromkeys([*hits_on, *rf_hits]):
        total = hits_on.get(key, 0) + rf_hits.get(key, 0)
        t = targets.get(key) or _unit_target(s2.units[key])
        if t.infra:
            evs, lost = _infra_damage(s2, t, total)
        elif t.unit is not None and counter(s2.units[t.unit.id]).category == "asp":
            evs, lost = _asp_damage(s2, s2.units[t.unit.id], total, roll)
        else:
            u = s2.units[t.unit.id]
            evs, lost, absorbed = apply_hits(s2, u, total, rule="9.6", cause="missile")
            if absorbed:
                lines.append(f"countermeasures on {u.id} absorb the first hit (7.2.1.4)")
        outcome["steps_lost"][key] = lost
        lines.append(f"{key}: {total} hit(s), {lost} step(s) lost")
        s2 = apply_all(s2, evs)
        events += evs
    if rf_hits:
        outcome["return_fire_hits"] = dict(rf_hits)
    outcome["salvos"] = len(salvos)
    rules = ["9.2.1", "9.5", "9.6", "2.1.1.3"]
    rules += _note_rules(plans)
    if exposed:
        rules.append("9.9.4.2")
    res = Result(
        f"Strike on {', '.join(targets)}", outcome, list(dict.fromkeys(rules)), roll.rolls, lines
    )
    events.append(
        note(
            f"Strike on {', '.join(targets)}: "
            + ", ".join(f"{k} {v} hit(s)" for k, v in hits_on.items()),
            rule="9.8",
        )
    )
    return events, res


def _infra_damage(state: StateLike, t: _Target, n: int) -> tuple[list[Event], int]:
    """9.9.7: each step loss adds one damage; capacity 0 = out of action."""
    if n <= 0:
        return [], 0
    facts = thaw(state.map.info(t.hex).facts)
    dmg = dict(facts.get("damage", {}))
    lost = min(n, t.steps)
    dmg[t.infra] = int(dmg.get(t.infra, 0)) + lost
    return [hex_set(t.hex, {"damage": dmg}, rule="9.9.7")], lost


def _asp_damage(state: StateLike, u: Any, n: int, roll: Roller) -> tuple[list[Event], int]:
    """2.2.2.6 / 9.9.7: each hit on an ASP destroys 1D6 salvos."""
    if n <= 0:
        return [], 0
    salvos = int(counter(u).salvos)
    lost = 0
    for k in range(n):
        lost += roll("d6", f"salvos destroyed at {u.id} (hit {k + 1})", "2.2.2.6", None)
    left = max(salvos - lost, 0)
    ev = [unit_set(u.id, data={"salvos": left}, rule="9.9.7")]
    if left == 0:
        ev.append(unit_set(u.id, steps=0, hex=None, box="attrition", rule="9.9.7"))
    return ev, min(lost, salvos)


# -- sequencing (9.9.2, 9.9.3) ---------------------------------------------------------------------
def _enter_long_range(state: StateLike, dice: Any) -> list[Event]:
    """6.B.1: each side gets its C2 value of long-range strike actions (9.9.2); chit cup (9.9.3)."""
    sead = thaw(
        state.public.get("sead_allocations") or {}
    )  # 9.7.3 step 2: stand-off SEAD used some
    left = {s: max(int(space(state, s)["c2"]) - len(sead.get(s, ())), 0) for s in state.sides}
    events: list[Event] = [
        state_set("public", {"strikes_left": left, "strike_cup": dict(left)}, rule="9.9.2")
    ]
    if option(state, "strike_order") == "chits":
        events += _draw_next(state, left, dice)
    return events


def _draw_next(
    state: StateLike, cup: Mapping[str, int], dice: Any, exclude: Iterable[str] = ()
) -> list[Event]:
    ex = set(exclude) | set(state.clock.done)
    chits = [s for s, n in cup.items() for _ in range(int(n)) if s not in ex]
    if not chits:
        return []
    who = dice.choice(chits, purpose="strike chit draw", rule="9.9.3", visible_to=None)
    cup2 = dict(cup)
    cup2[who] = int(cup2[who]) - 1
    clock = state.clock
    active = (who, *[a for a in clock.active if a != who])
    return [
        state_set("public", {"strike_cup": cup2}, rule="9.9.3"),
        clock_set(replace(clock, active=active), rule="9.9.3"),
    ]


def _after_action(state: StateLike, side: str, long_range: bool, dice: Any) -> list[Event]:
    """Whose strike action is next (I-GO-U-GO alternates; chits draw), 9.9.3."""
    if state.clock.step != "6.B.1":
        return []
    events: list[Event] = []
    left = dict(thaw(state.public.get("strikes_left") or {}))
    if long_range:
        left[side] = max(int(left.get(side, 0)) - 1, 0)
        events.append(state_set("public", {"strikes_left": left}, rule="9.9.2"))
    clock = state.clock
    if option(state, "strike_order") == "chits":
        cup = dict(thaw(state.public.get("strike_cup") or {}))
        evs = _draw_next(state, cup, dice)
        return events + evs
    others = [
        a for a in clock.active if a != side and a not in clock.done and int(left.get(a, 0)) > 0
    ]
    if others:
        active = (*others, side, *[a for a in clock.active if a != side and a not in others])
        events.append(clock_set(replace(clock, active=active), rule="9.9.3"))
    return events


# -- handlers --------------------------------------------------------------------------------------
class Strike(OrderHandler):
    """9.8/9.9: a strike action — one target hex, salvos from any sources in range."""

    type = OrderType(
        "strike",
        (
            Param("target", "target", "target unit id (or port:HEX / airfield:HEX)"),
            Param(
                "salvos",
                "salvo",
                "SOURCE:GROUP[:TARGET] per salvo, e.g. DDG-1:tlam,DDG-1:tlam",
                positional=False,
                repeat=True,
            ),
        ),
        rule="9.8",
        doc="strike a target hex with missile salvos",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if _strike_waiting(state):
            return None
        step = state.clock.step
        ex: list[Order] = []
        targets: list[str] = []
        for t in state.units.values():
            if t.side == side or not t.alive or t.hex is None or not detected(state, t, side):
                continue
            tt = target_type(t)
            if tt in ("air", "sub"):
                continue
            for u in state.units_of(side):
                if not u.alive or u.hex is None:
                    continue
                for a in counter(u).attacks:
                    if a.left <= 0 or a.air_to_air or not a.can_hit(tt):
                        continue
                    reach = a.range + (_air_reach(state, u) if counter(u).is_air else 0)
                    if u.hex.distance(t.hex) > reach:
                        continue
                    o = self.type.make(side, target=t.id, salvos=[f"{u.id}:{a.id}"])
                    try:
                        self.validate(state, o, self.type.bind(o, state, detected=detected))
                    except IllegalOrderError:
                        continue
                    ex.append(o)
                    targets.append(t.id)
                    if len(ex) >= 30:
                        break
        if not ex:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(target=tuple(dict.fromkeys(targets))),
            tuple(ex[:30]),
            note=f"step {step}",
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if _strike_waiting(state):
            raise refuse(
                "a strike is waiting for the defender's shot calculus (9.2.1)",
                "strike-pending",
                "9.2.1",
                order,
            )
        salvos, _ = _read_salvos(state, order.side, args["target"], args.get("salvos", ()), order)
        _check_shape(state, salvos, order)
        lr = _long_range(salvos)
        if state.clock.step == "6.B.2" and lr:
            raise refuse(
                "long-range strikes are resolved in step 6.B.1; only local strikes now (9.9.1)",
                "not-local",
                "9.9.1",
                order,
            )
        if state.clock.step == "6.B.1":
            if not lr:
                raise refuse(
                    "step 6.B.1 is for long-range strike actions; local strikes come in 6.B.2 (9.9.1)",
                    "local-strike-later",
                    "9.9.1",
                    order,
                )
            left = int((state.public.get("strikes_left") or {}).get(order.side, 0))
            if left <= 0:
                raise refuse(
                    f"{order.side} has no long-range strike actions left (C2 value, 9.9.2)",
                    "no-strikes-left",
                    "9.9.2",
                    order,
                )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> StrikePreview:
        return preview(state, args["target"], list(args.get("salvos", ())), None, side=order.side)

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        salvos, targets = _read_salvos(state, side, args["target"], args.get("salvos", ()), order)
        defender = next(iter(targets.values())).side
        lr = _long_range(salvos)
        local = not lr
        caps_possible = option(state, "cap_intercept") and any(
            _cap_candidates(state, t) for t in targets.values() if t.unit is not None
        )
        can_answer = (
            any(_available_shields(state, t) for t in targets.values())
            or caps_possible
            or (local and bool(_return_fire_options(state, salvos)))
        )
        if can_answer and defender in state.sides:
            pend = {
                "attacker": side,
                "target": args["target"],
                "salvos": list(args.get("salvos", ())),
                "long_range": lr,
                "active": list(state.clock.active),
                "done": sorted(state.clock.done),
            }
            summary = {
                "attacker": side,
                "defender": defender,
                "targets": {k: sum(1 for s in salvos if s.tgt.key == k) for k in targets},
                "dice": [s.grp.die for s in salvos],
            }
            clock = state.clock
            ev = [
                state_set("secret", {"pending_strike": pend}, rule="9.2.1"),
                state_set("public", {"incoming": summary}, rule="9.2.1"),
                side_set(
                    defender,
                    "private",
                    {"incoming": _incoming_detail(state, salvos, defender)},
                    rule="9.2.1",
                ),
                clock_set(
                    replace(
                        clock,
                        active=(defender, *[a for a in clock.active if a != defender]),
                        done=frozenset(clock.done - {defender}),
                    ),
                    rule="9.2.1",
                ),
                note(
                    f"{side} declares a strike on {', '.join(targets)} ({len(salvos)} salvo(s)); "
                    f"{defender} allocates grey shields (9.2.1)",
                    rule="9.2.1",
                ),
            ]
            res = Result(
                f"Strike declared on {', '.join(targets)}",
                {"pending": True, "salvos": len(salvos)},
                ["9.2.1"],
                [],
                [f"waiting for {defender}'s shields"],
            )
            return Adjudication(ev, res)
        events, res = _execute(state, side, salvos, targets, {}, [], dice)
        events += _after_action(apply_all(state, events), side, lr, dice)
        return Adjudication(events, res)


class Shields(OrderHandler):
    """9.2.1 shot calculus: the defender commits grey shields (``TARGET:N``), CAP interceptors
    (9.9.4.1) and, against a local strike, return fire (9.9.1); the strike is then rolled."""

    type = OrderType(
        "shields",
        (
            Param(
                "alloc",
                "text",
                "TARGET:N grey shields per target (none = no shields)",
                repeat=True,
                optional=True,
            ),
            Param(
                "cap",
                "unit",
                "CAP missions intercepting salvos (9.9.4.1)",
                positional=False,
                repeat=True,
                optional=True,
            ),
            Param(
                "fire",
                "salvo",
                "return fire SOURCE:GROUP:TARGET (local strikes, 9.9.1)",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="9.2.1",
        doc="defender: allocate grey shields and interceptors; the strike is rolled",
    )

    def _pend(self, state: StateLike, side: str, order: Any = None) -> dict[str, Any]:
        """The declared strike as the defender knows it: the public summary (targets, dice) and
        what it is shown of the salvos (its private ``incoming``, :func:`_incoming_detail`)."""
        summary = thaw(state.public.get("incoming") or {})
        if not summary:
            raise refuse("no strike is waiting for shields", "no-pending-strike", "9.2.1", order)
        if summary.get("defender") != side:
            raise refuse(
                "only the defender allocates shields against this strike",
                "not-defender",
                "9.2.1",
                order,
            )
        detail = thaw(state.side_state(side).private.get("incoming") or {})
        return {**summary, **detail}

    def _known(self, state: StateLike, side: str, order: Any = None) -> tuple[Any, ...]:
        """(targets, salvos that a CAP could intercept, long range?, return fire allowed) as the
        defender knows the strike (9.2.1, 9.9.4.1, 9.9.1)."""
        p = self._pend(state, side, order)
        targets: dict[str, Any] = {}
        for key in p.get("targets", {}):
            if key.partition(":")[0] in INFRA and ":" in key:
                targets[key] = _target(state, side, key, order)
            elif key in state.units:
                targets[key] = _unit_target(state.units[key])
        salvos = list(p.get("salvos", ()))
        interceptable = sum(1 for s in salvos if s.get("interceptable"))
        allowed = []
        srcs = [state.units[s["source"]] for s in salvos if s.get("source") in state.units]
        for u in state.units_of(side):
            if not u.alive or u.hex is None or "disrupted-c2" in u.markers:
                continue
            for a in counter(u).attacks:
                if a.left <= 0 or a.air_to_air:
                    continue
                for src in srcs:
                    if a.can_hit(target_type(src)) and u.hex.distance(src.hex) <= a.range:
                        allowed.append(f"{u.id}:{a.id}:{src.id}")
        return targets, interceptable, bool(p.get("long_range")), allowed

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        try:
            targets, *_ = self._known(state, side)
        except IllegalOrderError:
            return None
        ex = [self.type.make(side)]
        full = [
            f"{k}:{len(_available_shields(state, t))}"
            for k, t in targets.items()
            if _available_shields(state, t)
        ]
        if full:
            ex.append(self.type.make(side, alloc=full))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex))

    def _read(
        self, state: StateLike, order: Order, args: Mapping[str, Any], truth: bool = False
    ) -> tuple[Any, ...]:
        """Check the shot calculus on what the defender knows (``truth``: on the umpire's
        pending strike, to carry it out) and read it."""
        if truth:
            p = _pending(state)
            if not p:
                raise refuse(
                    "no strike is waiting for shields", "no-pending-strike", "9.2.1", order
                )
            salvos, targets = _read_salvos(state, p["attacker"], p["target"], p["salvos"])
            interceptable = sum(1 for s in salvos if _cap_defense(state, s.grp) is not None)
            long_range = _long_range(salvos)
            allowed = set(_return_fire_options(state, salvos))
        else:
            p, salvos = None, []
            targets, interceptable, long_range, allowed_list = self._known(state, order.side, order)
            allowed = set(allowed_list)
        alloc: dict[str, list[dict]] = {}
        for tok in args.get("alloc", ()):
            if tok in ("none", "0"):
                continue
            key, _, n = tok.rpartition(":")
            if key not in targets or not n.isdigit():
                raise refuse(
                    f"{tok!r}: write TARGET:N for a target of this strike ({', '.join(targets)})",
                    "bad-alloc",
                    "9.2.1",
                    order,
                )
            avail = [
                s
                for s in _available_shields(state, targets[key])
                if not any(s is x for v in alloc.values() for x in v)
            ]
            used = {(s["provider"], s["key"]): 0 for v in alloc.values() for s in v}
            for v in alloc.values():
                for s in v:
                    used[(s["provider"], s["key"])] += 1
            free = []
            seen: dict[tuple[str, str], int] = {}
            for s in avail:
                k = (s["provider"], s["key"])
                seen[k] = seen.get(k, 0) + 1
                if seen[k] > used.get(k, 0):
                    free.append(s)
            if int(n) > len(free):
                raise refuse(
                    f"only {len(free)} grey shield(s) can cover {key} (9.2: within the air defence's range)",
                    "not-enough-shields",
                    "9.2",
                    order,
                )
            alloc[key] = free[: int(n)]
        caps = []
        for u in args.get("cap", ()):  # bound: the side's units alive on the map
            cid = u.id
            t_hexes = {t.hex for t in targets.values()}
            if (
                u
                not in [
                    c
                    for t in targets.values()
                    if t.unit is not None
                    for c in _cap_candidates(state, t)
                ]
                or u.hex not in t_hexes
            ):
                raise refuse(
                    f"{cid} is not an unengaged CAP in the target hex (9.9.4.1)",
                    "not-cap",
                    "9.9.4.1",
                    order,
                )
            caps.append(u)
        if not option(state, "cap_intercept") and caps:
            raise refuse(
                "CAP intercept of missiles is switched off", "option-off", "9.9.4.1", order
            )
        if len(caps) > interceptable:
            raise refuse(
                f"{len(caps)} CAP(s) but only {interceptable} salvo(s) can be intercepted: one CAP per "
                "salvo, never hypersonic or ballistic (9.9.4.1)",
                "too-many-caps",
                "9.9.4.1",
                order,
            )
        rf: list[_Salvo] = []
        if args.get("fire"):
            if long_range:
                raise refuse(
                    "return fire answers local strikes only (9.9.1)", "not-local", "9.9.1", order
                )
            use: dict[tuple[str, str], int] = {}
            for tok in args["fire"]:
                try:
                    sid, g, tid = _parse_salvo(tok)
                except ValueError:
                    raise refuse(
                        f"return fire {tok!r}: SOURCE:GROUP:TARGET", "bad-salvo", "9.9.1", order
                    ) from None
                src = own_unit(state, order, sid, "9.9.1")
                try:
                    grp = counter(src).attack(g)
                except KeyError:
                    raise refuse(
                        f"{sid} has no attack {g!r}", "no-such-attack", "2.2.2.1", order
                    ) from None
                if f"{sid}:{grp.id}:{tid}" not in allowed:
                    raise refuse(
                        f"{tok}: not a legal return fire (range, target type, salvos left)",
                        "bad-return-fire",
                        "9.9.1",
                        order,
                    )
                use[(sid, grp.key)] = use.get((sid, grp.key), 0) + 1
                if use[(sid, grp.key)] > grp.left:
                    raise refuse(
                        f"{sid} has only {grp.left} salvo(s) in {grp.id}",
                        "magazine-empty",
                        "2.2.2.1",
                        order,
                    )
                rf.append(_Salvo(src, grp, _unit_target(state.units[tid]), True))
        return p, salvos, targets, alloc, caps, rf

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._read(state, order, args)

    def preview(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> StrikePreview | None:
        return None  # the defender's view cannot name hidden sources; the attacker previews

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        p, salvos, targets, alloc, caps, rf = self._read(state, order, args, truth=True)
        events, res = _execute(state, p["attacker"], salvos, targets, alloc, caps, dice, rf)
        clock = state.clock
        restore = replace(clock, active=tuple(p["active"]), done=frozenset(p["done"]))
        events = [
            state_set("secret", {"pending_strike": None}, rule="9.2.1"),
            state_set("public", {"incoming": None}, rule="9.2.1"),
            side_set(order.side, "private", {"incoming": None}, rule="9.2.1"),
            clock_set(restore, rule="9.2.1"),
            *events,
        ]
        events += _after_action(apply_all(state, events), p["attacker"], p["long_range"], dice)
        res.rules = list(dict.fromkeys(["9.2.1", *res.rules]))
        return Adjudication(events, res)


def resolve(
    game: Any,
    target: str,
    salvos: Sequence[str],
    grey_shields: int | Mapping[str, int] | None = None,
    *,
    cap: Sequence[str] = (),
    fire: Sequence[str] = (),
    side: str | None = None,
) -> Result:
    """Strike *target*: submits ``strike`` (and the defender's ``shields``), rolls, commits.

    Args:
        salvos: salvo tokens ``"DDG-1:tlam"``; plain dice (``"d10"``) pick the attacker's first
            sources in range with an unexpended group of that die.
        grey_shields: the defender's commitment: a number for the main target, ``{target: n}``, or
            ``None`` for every shield that can cover the targets.
        cap: the defender's CAP interceptors; fire: the defender's return fire (local strikes).
    """
    from owsnb.rules.ows.common import submit

    state = game.state
    if side is None:
        side = next(
            (
                state.units[s.split(":")[0]].side
                for s in salvos
                if ":" in s and s.split(":")[0] in state.units
            ),
            None,
        ) or next(s for s in state.sides if s != state.units[target].side)
    toks: Sequence[str | None] = [s if ":" in s else None for s in salvos]
    if None in toks:
        toks = _pick_sources(state, side, target, salvos)
    r = submit(game, Strike.type.make(side, target=target, salvos=toks))
    if r.outcome.get("pending"):
        inc = thaw(game.state.public.get("incoming") or {})
        d = inc.get("defender")
        if isinstance(grey_shields, Mapping):
            alloc = [f"{k}:{v}" for k, v in grey_shields.items() if v]
        else:
            alloc = []
            pend = _pending(game.state)
            _, tmap = _read_salvos(game.state, side, pend["target"], pend["salvos"])
            for k, t in tmap.items():
                n = len(_available_shields(game.state, t))
                if grey_shields is not None and k == target:
                    n = min(int(grey_shields), n)
                elif grey_shields is not None:
                    n = 0
                if n:
                    alloc.append(f"{k}:{n}")
        r = submit(
            game,
            Shields.type.make(
                d, alloc=alloc or None, cap=list(cap) or None, fire=list(fire) or None
            ),
        )
    return r


def _pick_sources(state: StateLike, side: str, target: str, salvos: Sequence[str]) -> list[str]:
    t = state.units[target]
    tt = target_type(t)
    used: dict[tuple[str, str], int] = {}
    out = []
    for s in salvos:
        if ":" in s:
            out.append(s)
            continue
        die = parse_die(s)
        found = None
        for u in sorted(
            state.units_of(side), key=lambda u: (u.hex.distance(t.hex) if u.hex else 99, u.id)
        ):
            if not u.alive or u.hex is None:
                continue
            for a in counter(u).attacks:
                if a.die != die or a.air_to_air or not a.can_hit(tt):
                    continue
                if used.get((u.id, a.key), 0) >= a.left:
                    continue
                if u.hex.distance(t.hex) > a.range + (
                    _air_reach(state, u) if counter(u).is_air else 0
                ):
                    continue
                found = (u.id, a)
                break
            if found:
                break
        if found is None:
            raise refuse(
                f"no {side} source in range has a {die} salvo left for {target}", "no-source", "9.5"
            )
        used[(found[0], found[1].key)] = used.get((found[0], found[1].key), 0) + 1
        out.append(f"{found[0]}:{found[1].id}")
    return out


HANDLERS = [Strike(), Shields()]
STEP_EFFECTS = {"6.B.1": _enter_long_range}
