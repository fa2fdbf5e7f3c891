"""Torpedo attacks (9.9.5): a submarine against surface ships in its hex, with the ASW screen.

Paragraphs: 9.9.5.1 the submarine leaves Silent Running; 9.9.5.2 two or more ASW assets screen and
roll first (a detected submarine aborts, and may be killed, 8.5.2); 9.9.5.3 a single ASW asset rolls
simultaneously with the torpedo; 9.9.5.4 the torpedo against the red shield (criticals 2.1.1.3);
9.9.5.5 re-attacks after each hit, every ASW-capable platform then active, until the first miss;
9.9.5.6 an SSK attacks only from Silent Running; 9.9.1 torpedoes are local strikes (step 6.B.2);
cooperative ASW detection (8.5.3, R3, 6.4.4; littoral 2.1.9, cavitation 6.4.2.2, the D12 cap).

The ``torpedo`` order (``HANDLERS``, listed in ``ruleset.MODULES`` after ``strike``);
:func:`torpedo_preview` is its exact outcome and :func:`torpedo` submits it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    legal_examples,
    option,
    watchers,
)
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import success_probability
from owsnb.rules.ows.targeting import _strike_waiting
from owsnb.rules.ows.units import counter

__all__ = ["torpedo_preview", "torpedo", "Torpedo", "HANDLERS"]


def _asw_assets(state: StateLike, sub: Any, all_capable: bool = False) -> list[Any]:
    """ASW assets of the other side in the sub's hex: in ASW mode (or any ASW-capable one after a
    hit, 9.9.5.5); subs in Silent Running count (C4)."""
    out = []
    for u in state.units.values():
        if u.side == sub.side or not u.alive or u.hex != sub.hex:
            continue
        c = counter(u)
        if c.asw is None:
            continue
        if c.category == "submarine":
            if "silent-running" in u.markers and option(state, "sub_detectors") == "asw-and-silent":
                out.append(u)
            continue
        if all_capable or "asw" in u.markers:
            out.append(u)
    return out


def _asw_die(state: StateLike, sub: Any, assets: Sequence[Any], bonus: int = 0) -> str:
    """Cooperative ASW detection die (8.5.3, R3, 6.4.4): best die promoted per extra asset, then
    littoral demotion (2.1.9), cavitation (6.4.2.2), the D12 cap (D16 by the exception clause)."""
    from owsnb.rules.ows.dice import net_die, rung

    best = max((counter(a).asw_die for a in assets), key=rung)
    n = len(assets)
    prom = (n - 1) if option(state, "cooperative_sensing") == "n-1" else n
    prom += bonus
    dem = 0
    if state.map.info(sub.hex).terrain == "littoral":
        dem += 1
    if "silent-running" in sub.markers:
        dem += 1
    if "cavitation" in sub.markers:
        prom += 1
    cap = "d16" if option(state, "asw_d16_exception") else "d12"
    return net_die(best, prom, dem, limit=cap)


def torpedo_preview(game: Any, sub: str, target: str, reattack: Sequence[str] = ()) -> Distribution:
    """Exact distribution of ``(hits per target..., sub lost)`` for a torpedo attack sequence
    (9.9.5.1–9.9.5.5), as the umpire knows it.

    Outcomes are tuples ``(total hits on targets, sub lost)``.
    """
    state = game.state if hasattr(game, "state") else game
    s = state.units[sub]
    s = s.evolve(markers=s.markers - {"silent-running"})
    seq = [target, *reattack]
    tgt_units = [state.units[t] for t in seq]
    sig = int(counter(s).signature or 8)
    sub_red = counter(s).red_shield
    torp = next(a for a in counter(s).attacks if "torpedo" in a.flags or a.can_hit("naval"))
    crit = option(state, "critical_hits") != "off"

    def asw_round(assets: Sequence[Any], bonus: int) -> Distribution:
        """P over 'free' (undetected), 'abort' (detected, survived), 'dead'."""
        if not assets:
            return Distribution.point("free")
        die = _asw_die(state, s, assets, bonus)
        pdet = success_probability(die, sig)
        best = max(assets, key=lambda a: int(counter(a).asw_die[1:]))
        pk = success_probability(counter(best).asw_die, sub_red)
        return Distribution({"free": 1 - pdet, "abort": pdet * (1 - pk), "dead": pdet * pk})

    def step(k: int, hits: int) -> Distribution:
        t = tgt_units[k]
        th = counter(t).red_shield
        hit_d = Distribution.die(int(torp.die[1:])).map(lambda r: _hits(r, th, critical=crit))
        if k == 0:
            assets = _asw_assets(state, s)
            screen = len(assets) >= 2
            if screen:
                first = asw_round(assets, 0)
                return first.bind(
                    lambda o: (
                        Distribution.point((hits, o == "dead"))
                        if o != "free"
                        else hit_d.bind(lambda h: cont(k, hits + h, h))
                    )
                )
            single = asw_round(assets[:1], 0) if assets else Distribution.point("free")
            return single.bind(
                lambda o: hit_d.bind(
                    lambda h: (
                        Distribution.point((hits + h, o == "dead"))
                        if o != "free"
                        else cont(k, hits + h, h)
                    )
                )
            )
        assets = _asw_assets(state, s, all_capable=True)
        first = asw_round(assets, k)
        return first.bind(
            lambda o: (
                Distribution.point((hits, o == "dead"))
                if o != "free"
                else hit_d.bind(lambda h: cont(k, hits + h, h))
            )
        )

    def cont(k: int, hits: int, last: int) -> Distribution:
        if last == 0 or k + 1 >= len(seq):
            return Distribution.point((hits, False))
        return step(k + 1, hits)

    d = step(0, 0)
    d.label = "(torpedo hits, sub lost)"
    return d


class Torpedo(OrderHandler):
    """9.9.5: a submarine's torpedo attack on a detected surface ship, with ASW screen and re-attacks."""

    type = OrderType(
        "torpedo",
        (
            Param("sub", "unit", "the attacking submarine"),
            Param("target", "enemy", "a detected surface ship in its hex"),
            Param(
                "reattack",
                "enemy",
                "targets of further attacks after each hit (9.9.5.5)",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="9.9.5",
        doc="submarine torpedo attack",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        subs = [
            u
            for u in state.units_of(side)
            if counter(u).category == "submarine" and u.alive and u.hex is not None
        ]
        ex = legal_examples(
            self,
            state,
            side,
            (
                {"sub": u.id, "target": t.id}
                for u in subs
                for t in state.units_at(u.map_hex)
                if t.side != side
                and t.alive
                and counter(t).category == "naval"
                and detected(state, t, side)
            ),
        )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if _strike_waiting(state):
            raise refuse(
                "a strike is waiting for the defender's shot calculus",
                "strike-pending",
                "9.2.1",
                order,
            )
        s = args["sub"]  # bound: the side's unit alive on the map; the targets: detected enemies
        c = counter(s)
        if c.category != "submarine":
            raise refuse(f"{s.id} is not a submarine", "not-a-sub", "9.9.5", order)
        torp = [a for a in c.attacks if "torpedo" in a.flags and a.left > 0]
        if not torp:
            raise refuse(f"{s.id} has no torpedo salvo left", "magazine-empty", "9.9.5", order)
        if c.subtype == "ssk" and "silent-running" not in s.markers:
            raise refuse(
                "an SSK may only attack if it began the Combat phase in Silent Running",
                "ssk-not-silent",
                "9.9.5.6",
                order,
            )
        if state.clock.step == "6.B.1":
            raise refuse(
                "torpedo attacks are local strikes: step 6.B.2 (9.9.1)",
                "local-strike-later",
                "9.9.1",
                order,
            )
        for t in (args["target"], *args.get("reattack", ())):
            tid = t.id
            if counter(t).category != "naval" or t.hex != s.hex:
                raise refuse(
                    f"{tid} is not a surface ship in {s.id}'s hex",
                    "bad-torpedo-target",
                    "9.9.5",
                    order,
                )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        return torpedo_preview(
            state, args["sub"].id, args["target"].id, [t.id for t in args.get("reattack", ())]
        )

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        s = args["sub"]
        c = counter(s)
        torp = next(a for a in c.attacks if "torpedo" in a.flags and a.left > 0)
        roll = Roller(dice)
        seq = [t.id for t in (args["target"], *args.get("reattack", ()))]
        events: list[Event] = [
            unit_set(
                s.id,
                markers=s.markers - {"silent-running"},
                rule="9.9.5.1",
                visible_to=watchers(state, s),
            )
        ]
        s = s.evolve(markers=s.markers - {"silent-running"})
        sig = int(c.signature or 8)
        crit = option(state, "critical_hits") != "off"
        defender = state.units[seq[0]].side
        hidden = frozenset({side})
        total: dict[str, int] = {}
        lines: list[str] = []
        sub_lost = False
        detected_sub = False
        used = 0

        def asw(assets: Sequence[Any], bonus: int) -> str:
            nonlocal sub_lost, detected_sub
            if not assets:
                return "free"
            die = _asw_die(state, s, assets, bonus)
            r = roll(
                die,
                f"ASW detection of a submarine ({len(assets)} asset(s), target {sig})",
                "9.9.5.2",
                None,
            )
            if r < sig:
                return "free"
            detected_sub = True
            best = max(assets, key=lambda a: int(counter(a).asw_die[1:]))
            r2 = roll(
                counter(best).asw_die,
                f"ASW attack by {best.id} on {s.id} (red {c.red_shield})",
                "8.5.2",
                None,
            )
            if _hits(r2, c.red_shield, critical=crit) > 0:
                sub_lost = True
                return "dead"
            return "abort"

        for k, tid in enumerate(seq):
            t = state.units[tid]
            if k == 0:
                assets = _asw_assets(state, s)
                if len(assets) >= 2:
                    o = asw(assets, 0)
                    lines.append(f"ASW screen ({len(assets)} assets): {o} (6.4.4.1, 9.9.5.2)")
                    if o != "free":
                        break
                    o_single = "free"
                else:
                    o_single = asw(assets, 0) if assets else "free"
            else:
                o = asw(_asw_assets(state, s, all_capable=True), k)
                lines.append(f"re-attack {k}: ASW {o} (9.9.5.5)")
                if o != "free":
                    break
                o_single = "free"
            vis = None if detected_sub else hidden
            r = roll(
                torp.die,
                f"torpedo {torp.die} at {tid} (red {counter(t).red_shield})"
                if vis is None
                else f"torpedo at {tid}",
                "9.9.5.4",
                vis,
            )
            h = _hits(r, counter(t).red_shield, critical=crit)
            used += 1
            total[tid] = total.get(tid, 0) + h
            lines.append(f"torpedo at {tid}: roll {r}, {h} hit(s) (9.9.5.4)")
            if k == 0 and o_single != "free":
                lines.append(f"single ASW asset: sub {o_single} (simultaneous, 9.9.5.3)")
                break
            if h == 0:
                break
        sp = dict(c.spent)
        sp[torp.key] = (
            int(sp.get(torp.key, 0)) + min(used, torp.left) if used else int(sp.get(torp.key, 0))
        )
        vis_sub = None if detected_sub else watchers(state, s)
        events.append(unit_set(s.id, data={"spent": sp}, rule="9.5", visible_to=vis_sub))
        if detected_sub:
            events.append(
                unit_set(
                    s.id,
                    seen_by=s.seen_by | {defender},
                    markers=s.markers - {"silent-running"} | {"tacsit1"},
                    rule="9.9.5.2",
                )
            )
        s2 = apply_all(state, events)
        steps_lost = {}
        for tid, n in total.items():
            evs, lost, _ = apply_hits(s2, s2.units[tid], n, rule="9.9.5.4", cause="torpedo")
            steps_lost[tid] = lost
            s2 = apply_all(s2, evs)
            events += evs
        if sub_lost:
            evs, _, _ = apply_hits(s2, s2.units[s.id], 1, rule="8.5.2", cause="asw")
            events += evs
        events.append(
            note(
                "Torpedo attack: " + ", ".join(f"{k} {v} hit(s)" for k, v in total.items())
                if total
                else "Torpedo attack aborted",
                rule="9.9.5",
                visible_to=None,
            )
        )
        res = Result(
            f"Torpedo attack by {s.id}",
            {
                "hits": total,
                "steps_lost": steps_lost,
                "sub_lost": sub_lost,
                "sub_detected": detected_sub,
            },
            ["9.9.5", "2.1.1.3"],
            roll.rolls,
            lines,
        )
        return Adjudication(events, res)


def torpedo(game: Any, sub: str, target: str, reattack: Sequence[str] = ()) -> Result:
    """Resolve a torpedo attack (9.9.5) by submitting ``torpedo``; returns the rich result."""
    from owsnb.rules.ows.common import submit

    side = game.state.units[sub].side
    o = Torpedo.type.make(side, sub=sub, target=target, reattack=list(reattack) or None)
    return submit(game, o)


HANDLERS = [Torpedo()]
