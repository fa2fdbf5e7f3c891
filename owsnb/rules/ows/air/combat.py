"""Air combat (9.7): pairing, the shots of each air-combat step, exact previews and resolution.

Paragraphs: 9.7 the facilitator orders the hexes (unresolved hexes are resolved in label order when
a step ends); 9.7.1 pairing and advantage; 9.7.2 best die first (optional); 9.7.3 the seven steps
(6.A.1 stand-off air-to-air, 6.5.10.1; 6.A.2/6.A.6 SEAD, a stand-off SEAD on a non-emitting
target using a long-range strike allocation; 6.A.3/6.A.7 air defence); 9.7.4 hit missions to the
Regeneration Box; 2.2.7.4 air defence defends or attacks, marking shield and die; the modifiers
6.5.1.2 (attack missions defend demoted), 6.5.8 (EW demotes SAMs), 6.5.9.1 (AEW promotes
air-to-air, advanced), 7.2.1.1 (Disrupted C2), 10.15.7 (suppressed air defence).

:func:`engagements` lists a step's shots in a hex, :func:`air_preview` / :func:`preview` give the
exact outcome and the ``air-combat`` order (:func:`resolve`) rolls it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, state_set, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.air.missions import AIR_STEPS, ATTACK_MISSIONS, CAP_MISSIONS, HVAA
from owsnb.rules.ows.common import Result, Roller, apply_hits, detected, option, shot_down, watchers
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import rung, shift, success_probability
from owsnb.rules.ows.units import counter

__all__ = [
    "Engagement",
    "AirPreview",
    "engagements",
    "air_preview",
    "preview",
    "resolve",
    "AirCombat",
]


@dataclass(frozen=True)
class Engagement:
    """One shot of air combat: *shooter* rolls *die* against *target*'s *defence* (9.7.3)."""

    shooter: str
    target: str
    die: str
    defence: int
    kind: str = "air-to-air"  # air-to-air, air-defence, sead
    key: str = ""  # munitions spent (air defence pools, 2.2.7.4)
    notes: tuple[str, ...] = ()

    @property
    def p(self) -> Fraction:
        return success_probability(self.die, self.defence)


def _air(state: StateLike, h: Any, side: str | None = None) -> list[Any]:
    return [
        u
        for u in state.units.values()
        if u.hex == h and u.alive and counter(u).is_air and (side is None or u.side == side)
    ]


def _aa_die(u: Any) -> str | None:
    aa = [a for a in counter(u).attacks if a.air_to_air]
    return aa[0].die if aa else None


def _aa_range(u: Any) -> int:
    aa = [a for a in counter(u).attacks if a.air_to_air]
    return aa[0].range if aa else 0


def _mods_air(
    state: StateLike, shooter: Any, target: Any, die: str, kind: str
) -> tuple[str, list[str]]:
    k = 0
    notes: list[str] = []
    c = counter(shooter)
    if kind == "air-to-air":
        if c.mission in ATTACK_MISSIONS:
            k -= 1
            notes.append("attack mission defends demoted (6.5.1.2)")
        if option(state, "aew_air_to_air"):
            for e in state.units.values():
                s = counter(e).sensor("aew")
                if (
                    e.side == shooter.side
                    and e.hex is not None
                    and s
                    and e.hex.distance(shooter.hex) <= int(s["range"])
                ):
                    k += 1
                    notes.append(f"AEW {e.id} support (6.5.9.1)")
                    break
    if kind == "air-defence":
        if any(
            e.side == target.side and e.hex == target.hex and counter(e).ew == "demote-sam"
            for e in state.units.values()
        ):
            k -= 1
            notes.append("EW aircraft demotes SAM shots (6.5.8)")
        if counter(target).red_arrow and counter(target).mission == "sead":
            k -= 1
            notes.append("SEAD red arrow demotes the air defence (9.7.3 step 6)")
        if "suppressed" in shooter.markers:
            k -= 1
            notes.append("suppressed air defence engages demoted (10.15.7)")
    if c.is_air and "disrupted-c2" in shooter.markers:
        k -= 1
        notes.append("Disrupted C2: aircraft demoted (7.2.1.1)")
    if "rsoi" in shooter.markers:
        k -= 1
        notes.append("in RSO&I: demoted in combat (2.3.1)")
    return shift(die, k), notes


def _pairs_in_hex(state: StateLike, h: Any) -> list[tuple[Any, Any]]:
    """9.7.1 pairing: the side with more CAP matches fighters 1:1, its excess engages detected HVAA,
    then attack missions, then doubles up; the other side's CAP engage the fighters that engage
    them; attack missions that are engaged fire back (6.5.1.2)."""
    sides = list(state.sides)
    caps = {
        s: [u for u in _air(state, h, s) if counter(u).mission in CAP_MISSIONS and _aa_die(u)]
        for s in sides
    }
    pairs: list[tuple[Any, Any]] = []
    if len(sides) != 2:
        return pairs
    a, b = sorted(sides, key=lambda s: -len(caps[s]))
    if not caps[a]:
        return pairs

    def seen(t: Any, by: str) -> bool:
        return detected(state, t, by)

    enemy_caps = [t for t in caps[b] if seen(t, a)]
    others = [t for t in _air(state, h, b) if t not in caps[b] and seen(t, a)]
    hvaa = [t for t in others if counter(t).mission in HVAA]
    attack = [t for t in others if t not in hvaa]
    targets = enemy_caps + hvaa + attack
    if not targets:
        return pairs
    queue = list(targets)
    for i, f in enumerate(caps[a]):
        t = (
            queue[i]
            if i < len(queue)
            else enemy_caps[i % len(enemy_caps)]
            if enemy_caps
            else queue[i % len(queue)]
        )
        pairs.append((f, t))
    engaged_by: dict[str, Any] = {}
    for f, t in pairs:
        engaged_by.setdefault(t.id, f)
    for f in caps[b]:
        if not seen(f, b) and False:
            continue
        tgt = engaged_by.get(f.id) or next((x for x in caps[a] if seen(x, b)), None)
        if tgt is not None and seen(tgt, b):
            pairs.append((f, tgt))
    for t in attack + hvaa:
        if t.id in engaged_by and _aa_die(t) and seen(engaged_by[t.id], b):
            pairs.append((t, engaged_by[t.id]))
    return pairs


def engagements(
    state: StateLike, step: str, h: Any, pairs: Sequence[tuple[str, str]] | None = None
) -> list[Engagement]:
    """The shots of air-combat *step* in hex *h* (explicit *pairs* ``(shooter, target)`` or the
    automatic pairing of 9.7.1 and the steps of 9.7.3)."""
    out: list[Engagement | None] = []  # pairs that cannot engage drop out at the end
    if pairs is not None:
        for sid, tid in pairs:
            s, t = state.units[sid], state.units[tid]
            out.append(_engagement(state, step, s, t))
        return [e for e in out if e is not None]
    if step == "6.A.4":
        for s, t in _pairs_in_hex(state, h):
            e = _engagement(state, step, s, t)
            if e:
                out.append(e)
    elif (
        step == "6.A.1"
    ):  # stand-off air-to-air from adjacent hexes, with a radar that detects (6.5.10.1)
        for s in state.units.values():
            if not s.alive or s.hex is None or not counter(s).is_air or s.hex.distance(h) != 1:
                continue
            if counter(s).mission not in CAP_MISSIONS or _aa_range(s) < 1:
                continue
            tg = [t for t in _air(state, h) if t.side != s.side and detected(state, t, s.side)]
            if tg:
                out.append(_engagement(state, step, s, _best_target(tg)))
    elif step in ("6.A.3", "6.A.7"):  # air defence (2.2.7.4, 9.7.3 steps 3 and 7)
        for s in state.units.values():
            if not s.alive or s.hex is None or counter(s).is_air or "disrupted-c2" in s.markers:
                continue
            aa = [a for a in counter(s).anti_air if not a.air_to_air]
            if not aa:
                continue
            d = s.hex.distance(h)
            grp = aa[0]
            if (step == "6.A.3" and not 1 <= d <= grp.range) or (step == "6.A.7" and d != 0):
                continue
            tg = [t for t in _air(state, h) if t.side != s.side and detected(state, t, s.side)]
            if tg:
                out.append(_engagement(state, step, s, _best_target(tg)))
    elif step in ("6.A.2", "6.A.6"):  # SEAD vs air defence
        for s in state.units.values():
            if not s.alive or s.hex is None or counter(s).mission != "sead":
                continue
            d = s.hex.distance(h)
            wpn = [a for a in counter(s).attacks if not a.air_to_air and a.left > 0]
            if not wpn:
                continue
            ads = [
                t
                for t in state.units.values()
                if t.side != s.side
                and t.hex == h
                and t.alive
                and counter(t).category in ("air-defence", "naval")
                and counter(t).anti_air
                and detected(state, t, s.side)
            ]
            for t in ads:
                if (
                    step == "6.A.2"
                    and d >= 1
                    and wpn[0].range >= d
                    and wpn[0].range > max(a.range for a in counter(t).anti_air)
                ):
                    out.append(_engagement(state, step, s, t))
                    break
                if step == "6.A.6" and d == 0:
                    out.append(_engagement(state, step, s, t))
                    standoff = wpn[0].range > max(a.range for a in counter(t).anti_air)
                    if not standoff and detected(state, s, t.side):
                        back = _engagement(state, "6.A.7", t, s)
                        if back:
                            out.append(back)
                    break
    return [e for e in out if e is not None]


def _best_target(ts: Sequence[Any]) -> Any:
    order = {
        m: i
        for i, m in enumerate(
            ("bomber", "strike", "sead", "aew", "tanker", "cas", "interdiction", "cap")
        )
    }
    return sorted(ts, key=lambda t: (order.get(counter(t).mission, 9), t.id))[0]


def _engagement(state: StateLike, step: str, s: Any, t: Any) -> Engagement | None:
    c = counter(s)
    if c.is_air and not counter(t).is_air:  # SEAD
        wpn = [a for a in c.attacks if not a.air_to_air and a.left > 0]
        if not wpn:
            return None
        die, notes = _mods_air(state, s, t, wpn[0].die, "sead")
        return Engagement(s.id, t.id, die, counter(t).red_shield, "sead", wpn[0].key, tuple(notes))
    if c.is_air:
        d0 = _aa_die(s)
        if d0 is None:
            return None
        die, notes = _mods_air(state, s, t, d0, "air-to-air")
        return Engagement(s.id, t.id, die, counter(t).red_shield, "air-to-air", "", tuple(notes))
    aa = [a for a in c.anti_air if not a.air_to_air]
    if not aa:
        return None
    die, notes = _mods_air(state, s, t, aa[0].die, "air-defence")
    return Engagement(
        s.id, t.id, die, counter(t).red_shield, "air-defence", aa[0].key, tuple(notes)
    )


def _tiers(engs: Sequence[Engagement], best_die: bool) -> list[list[Engagement]]:
    if not best_die:
        return [list(engs)]
    by: dict[int, list[Engagement]] = {}
    for e in engs:
        by.setdefault(rung(e.die), []).append(e)
    return [by[k] for k in sorted(by, reverse=True)]


def _hit_adds(target: str) -> Callable[[frozenset[str], bool], frozenset[str]]:
    """The set of units hit, plus *target* if this shot hits."""
    return lambda acc, hit: acc | {target} if hit else acc


def air_preview(engs: Sequence[Engagement], best_die: bool = False) -> Distribution:
    """Exact distribution of the set of units hit (a sorted tuple of ids), with simultaneous effects
    within a step (9.7.3) or best die first (9.7.2)."""
    d = Distribution.point(())
    for tier in _tiers(engs, best_die):

        def after(killed: tuple[str, ...], tier: list[Engagement] = tier) -> Distribution:
            out = Distribution.point(frozenset())
            for e in tier:
                if e.shooter in killed:
                    continue
                out = out.combine(Distribution.bernoulli(e.p), _hit_adds(e.target))
            return out.map(lambda new: tuple(sorted(set(killed) | set(new))))

        d = d.bind(after)
    d.label = "units hit"
    return d


@dataclass
class AirPreview:
    """Exact air-combat outcome: P(each unit hit) and the joint distribution."""

    engagements: list[Engagement]
    outcome: Distribution
    rules: list[str] = field(default_factory=lambda: ["9.7.3"])

    def p_hit(self, unit: str) -> Fraction:
        return self.outcome.prob(lambda ks: unit in ks)

    def __repr__(self) -> str:
        ids = sorted({e.target for e in self.engagements})
        return (
            f"<AirPreview {len(self.engagements)} shots; "
            + ", ".join(f"{i}: {float(self.p_hit(i)):.1%}" for i in ids)
            + ">"
        )

    def record(self) -> Any:
        """The preview as a result: each engagement with its exact chance, P(hit) per target."""
        from owsnb.kernel.result import Result

        ids = sorted({e.target for e in self.engagements})
        return Result(
            "Air combat preview",
            {},
            ["9.7"],
            columns=["shooter", "die", "target", "defence", "P", "modifiers"],
            table=[
                {
                    "shooter": e.shooter,
                    "die": e.die,
                    "target": e.target,
                    "defence": e.defence,
                    "P": f"{float(e.p):.1%}",
                    "modifiers": "; ".join(e.notes),
                }
                for e in self.engagements
            ],
            charts={"P(hit)": {i: self.p_hit(i) for i in ids}},
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def preview(
    game: Any, hex: Hex | str, step: str | None = None, pairs: Sequence[str] | None = None
) -> AirPreview:
    """Exact air-combat outcome in *hex* for an air-combat step (default: the current one, else 6.A.4)."""
    state = game.state if hasattr(game, "state") else game
    step = step or (state.clock.step if state.clock.step in AIR_STEPS else "6.A.4")
    h = state.map.hex(hex)
    pp = [(a, b) for a, b in (p.split(":") for p in pairs)] if pairs else None
    engs = engagements(state, step, h, pp)
    return AirPreview(
        engs,
        air_preview(engs, option(state, "best_die")),
        ["9.7.3", "9.7.1"] + (["9.7.2"] if option(state, "best_die") else []),
    )


def _resolve_hex(
    state: GameState, step: str, h: Any, engs: Sequence[Engagement], dice: Any
) -> tuple[list[Event], Result]:
    roll = Roller(dice)
    hit: dict[str, int] = {}
    killed: set[str] = set()
    lines: list[str] = []
    spent: dict[str, dict[str, int]] = {}
    for tier in _tiers(engs, option(state, "best_die")):
        new: dict[str, int] = {}
        for e in tier:
            if e.shooter in killed:
                continue
            s, t = state.units[e.shooter], state.units[e.target]
            vis = watchers(state, s, t)
            r = roll(
                e.die,
                f"{e.kind}: {e.shooter} ({e.die}) at {e.target} (defence {e.defence})",
                "9.7.3",
                vis,
            )
            n = _hits(r, e.defence, critical=e.kind == "sead") if r >= e.defence else 0
            if n:
                new[e.target] = new.get(e.target, 0) + n
            if e.key:
                spent.setdefault(e.shooter, {})
                spent[e.shooter][e.key] = spent[e.shooter].get(e.key, 0) + 1
            if vis is None:
                lines.append(
                    f"{e.shooter} at {e.target}: {'hit' if n else 'miss'} ({r} vs {e.defence})"
                )
        for k, n in new.items():
            hit[k] = hit.get(k, 0) + n
            killed.add(k)
    events: list[Event] = []
    for uid, keys in spent.items():
        u = state.units[uid]
        sp = dict(counter(u).spent)
        for k, n in keys.items():
            sp[k] = int(sp.get(k, 0)) + n
        events.append(
            unit_set(uid, data={"spent": sp}, rule="2.2.7.4", visible_to=watchers(state, u))
        )
    for uid in sorted({e.shooter for e in engs} | {e.target for e in engs}):
        u = state.units[uid]
        if counter(u).is_air and "engaged" not in u.markers:
            events.append(
                unit_set(
                    uid, markers=u.markers | {"engaged"}, rule="9.7", visible_to=watchers(state, u)
                )
            )
    s2 = apply_all(state, events)
    for uid, n in hit.items():
        u = s2.units[uid]
        if counter(u).is_air:
            ev = [shot_down(uid, watchers(s2, u))]
        else:
            ev, _, _ = apply_hits(s2, u, n, rule="9.7.3", cause="air")
        s2 = apply_all(s2, ev)
        events += ev
    lab = state.map.label(h)
    if (
        step == "6.A.2"
    ):  # stand-off SEAD on a non-emitting target uses a long-range strike allocation per hex
        alloc = {k: list(v) for k, v in thaw(state.public.get("sead_allocations") or {}).items()}
        for e in engs:
            if e.kind == "sead" and "emitting" not in state.units[e.target].markers:
                side = state.units[e.shooter].side
                if lab not in alloc.setdefault(side, []):
                    alloc[side].append(lab)
        if alloc:
            events.append(state_set("public", {"sead_allocations": alloc}, rule="9.7.3"))
    resolved = dict(thaw(state.public.get("air_resolved") or {}))
    resolved[step] = sorted({*resolved.get(step, ()), lab})
    events.append(state_set("public", {"air_resolved": resolved}, rule="9.7"))
    events.append(
        note(
            f"Air combat {step} in {lab}: "
            + (
                ", ".join(f"{k} hit" for k in hit if watchers(state, state.units[k]) is None)
                or "no losses seen"
            ),
            rule="9.7.3",
        )
    )
    res = Result(
        f"Air combat {step} in {lab}",
        {"hit": sorted(hit), "shots": len(engs)},
        ["9.7", "9.7.3", "9.7.4"] + (["9.7.2"] if option(state, "best_die") else []),
        roll.rolls,
        lines,
    )
    return events, res


class AirCombat(OrderHandler):
    """9.7: the facilitator resolves air combat hex by hex in each of the steps of 9.7.3."""

    type = OrderType(
        "air-combat",
        (
            Param("hex", "hex", "hex to resolve"),
            Param(
                "pairs",
                "text",
                "SHOOTER:TARGET engagements (default: the 9.7.1 pairing)",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="9.7",
        doc="umpire: resolve air combat in a hex for this step",
        actors="side",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        hexes = _contested(state, state.clock.step)
        if not hexes:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(hex=tuple(hexes)),
            tuple(self.type.make(side, hex=h) for h in hexes),
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if state.clock.step not in AIR_STEPS:
            raise refuse(
                "air combat is resolved in the air-combat steps 6.A.1-6.A.7",
                "wrong-step",
                "9.7.3",
                order,
            )
        h = args["hex"]  # bound: a map hex
        lab = state.map.label(h)
        if lab in (thaw(state.public.get("air_resolved") or {}).get(state.clock.step) or ()):
            raise refuse(
                f"air combat in {lab} is already resolved for this step", "resolved", "9.7", order
            )
        for p in args.get("pairs", ()):
            a, _, b = p.partition(":")
            if a not in state.units or b not in state.units:
                raise refuse(
                    f"pair {p!r}: write SHOOTER:TARGET with unit ids", "bad-pair", "9.7.1", order
                )
            s, t = state.units[a], state.units[b]
            if s.side == t.side or not detected(state, t, s.side):
                raise refuse(
                    f"{a} cannot engage {b}: not a detected enemy",
                    "target-not-detected",
                    "9.9.4",
                    order,
                )
            if t.hex != h:
                raise refuse(f"{b} is not in {lab}", "bad-pair", "9.7", order)
            if (
                counter(s).is_air
                and counter(s).mission in ATTACK_MISSIONS
                and state.clock.step == "6.A.4"
            ):
                raise refuse(
                    f"{a} is on an attack mission: it cannot initiate air-to-air (6.5.1.2)",
                    "cannot-initiate",
                    "6.5.1.2",
                    order,
                )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> AirPreview:
        return preview(state, args["hex"], state.clock.step, args.get("pairs"))

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        h = args["hex"]
        pp = [tuple(p.split(":")) for p in args["pairs"]] if args.get("pairs") else None
        engs = engagements(state, state.clock.step, h, pp)
        events, res = _resolve_hex(state, state.clock.step, h, engs, dice)
        return Adjudication(events, res)


def _contested(state: StateLike, step: str) -> list[str]:
    done = set((thaw(state.public.get("air_resolved") or {})).get(step) or ())
    hexes = []
    for h in sorted(
        {
            u.hex
            for u in state.units.values()
            if u.alive and u.hex is not None and counter(u).is_air
        },
        key=lambda x: state.map.label(x),
    ):
        lab = state.map.label(h)
        if lab not in done and engagements(state, step, h):
            hexes.append(lab)
    return hexes


def _leave(step: str):  # noqa: ANN202
    def fn(state: GameState, dice: Any) -> list[Event]:
        """Hexes the facilitator has not resolved are resolved in label order when the step ends."""
        events: list[Event] = []
        s = state
        for lab in _contested(state, step):
            engs = engagements(s, step, s.map.hex(lab))
            evs, _ = _resolve_hex(s, step, s.map.hex(lab), engs, dice)
            s = apply_all(s, evs)
            events += evs
        return events

    return fn


def resolve(game: Any, hex: str, pairs: Sequence[str] | None = None) -> Result:
    """Resolve air combat in *hex* for the current air step by submitting ``umpire: air-combat``."""
    from owsnb.rules.ows.common import submit

    return submit(
        game, AirCombat.type.make("umpire", hex=hex, pairs=list(pairs) if pairs else None)
    )
