"""Air strikes en route (9.9.6.1, 9.9.6.2): a strike package flies to its release hex past CAP.

Paragraphs: 9.9.6.1/9.9.6.2 a strike package flies a route (traced with ``fly ... route=``, else
the straight line from its fuel source) to its release hex when the Strike Warfare steps begin,
after air combat: in each hex entered where defensive CAP in range has a detection opportunity
(same hex, or an active radar of its side covering the hex) — and, against a stealth package the
defence has not detected, finds it by a roll of those CAP and radars (6.5.7, 6.5.9.5, 8.5.3, at most
D12; failed, the package flies on unseen) — the CAP intercepts — 1:1 against the
unengaged escorts, the excess at the striker, and interceptors that down their escort go on at the
striker; the striker defends itself, demoted, against the first interceptor that engages it
(6.5.1.2); a CAP intercepts once a turn (ruling A2); 9.7.4 hit missions to the Regeneration Box.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.events import Event, note, unit_set
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.air.combat import _aa_die, _aa_range, _engagement
from owsnb.rules.ows.air.missions import CAP_MISSIONS, ROUTED, _base_unit
from owsnb.rules.ows.common import Roller, shot_down
from owsnb.rules.ows.dice import success_probability
from owsnb.rules.ows.isr import local_die
from owsnb.rules.ows.units import counter

__all__ = [
    "route_of",
    "route_plan",
    "route_preview",
    "RoutePlan",
    "InterceptRound",
    "fly_strike_routes",
]


def route_of(state: StateLike, m: Any) -> list[Any]:
    """The hexes a strike package flies through before its release hex: its traced ``route``, else
    the straight line from its fuel source (9.9.6.2); neither end included."""
    b = _base_unit(state, m)
    start = b.hex if b is not None and b.hex is not None else m.hex
    if m.hex is None or start is None:
        return []
    if m.data.get("route"):
        path = [state.map.hex(x) for x in m.data["route"]]
    else:
        path = start.line(m.hex)[1:]
    return [h for h in path[:-1] if h != start and h in state.map.hexes]


def _radar_sees(state: StateLike, side: str, u: Any, h: Any) -> bool:
    """Is *u* an active radar of *side* covering *h*: an emitting radar, or an airborne AEW?"""
    if u.side != side or u.hex is None or not u.alive:
        return False
    c = counter(u)
    aew, radar = c.sensor("aew"), c.sensor("radar")
    if aew is not None and c.is_air and u.hex.distance(h) <= int(aew["range"]):
        return True
    return bool(
        radar is not None and "emitting" in u.markers and u.hex.distance(h) <= int(radar["range"])
    )


def _radar_covers(state: StateLike, side: str, h: Any) -> bool:
    """An active radar of *side* in range of *h*: an emitting radar, or an airborne AEW (9.9.6.2)."""
    return any(_radar_sees(state, side, u, h) for u in state.units.values())


@dataclass(frozen=True)
class InterceptRound:
    """One round of 9.9.6.2 in hex *hex*: the defensive CAP intercepting there, paired 1:1 with the
    package's unengaged escorts (in order); the excess engage the striker, and interceptors that
    shoot down their escort go on to engage it; the striker, if it has an air-to-air die, fires
    back demoted at the first of them (6.5.1.2). ``shots`` holds every possible engagement."""

    hex: str
    interceptors: tuple[str, ...]
    shots: FrozenDict
    detect: tuple[str, int] | None = None
    """``(die, signature)``: the roll the defence must make to find a stealth package it has not
    detected (6.5.7, 8.3.3, 6.5.9.5); ``None``: the package is seen (8.3.2, or detected already)."""

    def p_found(self) -> Fraction:
        """P(the interceptors find the package in this hex), before any earlier round found it."""
        return Fraction(1) if self.detect is None else success_probability(*self.detect)

    def p(self, a: str, b: str) -> Fraction:
        """P(*a* hits *b*): 0 if *a* has no air-to-air die."""
        e = self.shots.get((a, b))
        return e.p if e is not None else Fraction(0)

    def pairs(self, escorts: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
        n = min(len(self.interceptors), len(escorts))
        return list(zip(self.interceptors[:n], escorts[:n], strict=True)), list(
            self.interceptors[n:]
        )

    def distribution(self, escorts: tuple[str, ...], striker: str) -> Distribution:
        """Exact ``(escorts alive, striker alive)`` after the round."""
        pairs, excess = self.pairs(escorts)
        d = Distribution.point((frozenset(), frozenset(), False))
        for i, e in pairs:
            d = d.combine(
                Distribution.bernoulli(self.p(i, e)),
                lambda a, h, e=e: (a[0] | {e} if h else a[0], *a[1:]),
            )
            d = d.combine(
                Distribution.bernoulli(self.p(e, i)),
                lambda a, h, i=i: (a[0], a[1] | {i} if h else a[1], a[2]),
            )
        for x in excess:
            d = d.combine(
                Distribution.bernoulli(self.p(x, striker)), lambda a, h: (a[0], a[1], a[2] or h)
            )

        def second(a: tuple) -> Distribution:
            miss = Fraction(1)
            for i, e in pairs:
                if e in a[0] and i not in a[1]:
                    miss *= 1 - self.p(i, striker)
            return Distribution.bernoulli(1 - miss).map(
                lambda h: (tuple(x for x in escorts if x not in a[0]), not (a[2] or h))
            )

        return d.bind(second)

    def resolve(
        self, escorts: tuple[str, ...], striker: str, roll: Any, visible: Any = None
    ) -> tuple[tuple[str, ...], bool, list[str]]:
        """Roll the round: escorts alive, striker alive, units hit."""
        vis = visible or (lambda a, b: None)
        pairs, excess = self.pairs(escorts)

        def fire(a: str, b: str) -> bool:
            e = self.shots.get((a, b))
            if e is None:  # no air-to-air die: it does not shoot
                return False
            return (
                roll(e.die, f"{a} engages {b} (defence {e.defence}) en route", "9.9.6.2", vis(a, b))
                >= e.defence
            )

        hit: list[str] = []
        won = []
        for i, e in pairs:
            i_hits, e_hits = fire(i, e), fire(e, i)
            hit += [e] if i_hits else []
            hit += [i] if e_hits else []
            if i_hits and not e_hits:
                won.append(i)
        striker_hit = any([fire(x, striker) for x in excess])
        striker_hit = any([fire(i, striker) for i in won]) or striker_hit
        # 6.5.1.2: an attack mission "cannot initiate an air-to-air action but can defend itself
        # if attacked": the striker fires back (demoted), simultaneously, at the first interceptor
        # that engages it — the excess engage at once, else the first that downed its escort
        back = next(iter([*excess, *won]), None)
        if back is not None and fire(striker, back):
            hit.append(back)
        if striker_hit:
            hit.append(striker)
        return tuple(x for x in escorts if x not in hit), not striker_hit, hit


@dataclass(frozen=True)
class RoutePlan:
    """9.9.6.2: a strike package's flight to its release hex, one :class:`InterceptRound` per hex
    entered where defensive CAP in range has a detection opportunity (each CAP intercepts once)."""

    striker: str
    escorts: tuple[str, ...]
    rounds: tuple[InterceptRound, ...]

    def distribution(self) -> Distribution:
        """Exact outcome: ``"arrives"`` at the release hex or ``"shot down"`` en route."""
        d = Distribution.point((self.escorts, True, False))  # escorts, striker alive, found

        def step(st: tuple, rnd: InterceptRound) -> Distribution:
            if not st[1]:
                return Distribution.point(st)
            fight = rnd.distribution(st[0], self.striker).map(lambda r: (*r, True))
            if st[2] or rnd.detect is None:
                return fight
            return Distribution.bernoulli(rnd.p_found()).bind(
                lambda found: fight if found else Distribution.point(st)
            )

        for rnd in self.rounds:
            d = d.bind(lambda st, rnd=rnd: step(st, rnd))
        return d.map(
            lambda st: "arrives" if st[1] else "shot down",
            label=f"{self.striker} en route (9.9.6.2)",
        )

    def resolve(
        self, roll: Any, visible: Any = None, found: Any = None
    ) -> tuple[bool, list[str], list[str]]:
        """Fly it: arrived, units hit, hexes where a round was fought. *found(rnd)* rolls the
        search for a stealth package (default: *roll* against the round's ``detect``)."""
        escorts, alive, hit, fought, seen = self.escorts, True, [], [], False
        for rnd in self.rounds:
            if not alive:
                break
            if rnd.detect is not None and not seen:
                ok = (
                    found(rnd)
                    if found is not None
                    else roll(rnd.detect[0], f"search for {self.striker}", "9.9.6.2")
                    >= rnd.detect[1]
                )
                if not ok:
                    continue
            seen = True
            escorts, alive, h = rnd.resolve(escorts, self.striker, roll, visible)
            hit += h
            fought.append(rnd.hex)
        return alive, hit, fought


def route_plan(state: StateLike, mission: str) -> RoutePlan:
    """The 9.9.6.2 flight of strike package *mission* as *state* knows it (a side's view holds only
    the defensive CAP that side has detected): escorts unengaged so far fly with it 1:1."""
    m = state.units[mission]
    side = m.side
    escorts = tuple(
        e
        for e in (m.data.get("escorts") or ())
        if e in state.units
        and state.units[e].alive
        and state.units[e].hex is not None
        and "engaged" not in state.units[e].markers
    )
    turn = state.clock.turn
    used: set[str] = set()
    rounds = []
    for h in route_of(state, m):
        caps = []
        for c in sorted(state.units.values(), key=lambda u: u.id):
            cc = counter(c)
            if (
                c.side == side
                or c.hex is None
                or not c.alive
                or cc.mission not in CAP_MISSIONS
                or not _aa_die(c)
            ):
                continue
            if c.id in used or int(c.data.get("intercepted", 0) or 0) == turn:
                continue
            d = c.hex.distance(h)
            if d > (1 if _aa_range(c) >= 1 else 0) or not (
                d == 0 or _radar_covers(state, c.side, h)
            ):
                continue
            caps.append(c)
        if not caps:
            continue
        detect = None
        enemy = caps[0].side
        if counter(m).low_signature and enemy not in m.seen_by:
            # 6.5.7 / 8.3.3: a stealth package is found only by a roll of the CAP there and the
            # radars covering the hex (cooperative, 8.5.3, at most D12)
            radars = [u for u in state.units.values() if _radar_sees(state, enemy, u, h)]
            die, _ = local_die(state, enemy, [*caps, *radars], m.evolve(hex=h))
            if die is None:
                continue
            detect = (die, int(counter(m).signature or 8))
        used |= {c.id for c in caps}
        ids = tuple(c.id for c in caps)
        shots = {}
        for c in caps:
            for t in (*escorts, m.id):
                for a, b in ((c.id, t), (t, c.id)):
                    e = _engagement(state, "6.A.4", state.units[a], state.units[b])
                    if e is not None:
                        shots[(a, b)] = e
        rounds.append(InterceptRound(state.map.label(h), ids, FrozenDict(shots), detect))
    return RoutePlan(m.id, escorts, tuple(rounds))


def route_preview(game: Any, mission: str) -> Distribution:
    """Exact odds that strike package *mission* reaches its release hex (9.9.6.2), as the umpire knows it."""
    state = game.state if hasattr(game, "state") else game
    return route_plan(state, mission).distribution()


def fly_strike_routes(state: GameState, dice: Any) -> list[Event]:
    """6.B begins: every strike package flies its route to its release hex; defensive CAP with a
    detection opportunity intercepts it hex by hex (9.9.6.1, 9.9.6.2) after the air-combat steps."""
    roll = Roller(dice)
    events: list[Event] = []
    cur = state
    for m in sorted(state.units.values(), key=lambda u: u.id):
        if m.hex is None or not m.alive or counter(m).mission not in ROUTED:
            continue
        m = cur.units[m.id]
        if m.hex is None:
            continue
        plan = route_plan(cur, m.id)
        if not plan.rounds:
            continue
        enemy = next(s for s in cur.sides if s != m.side)

        def found(rnd: InterceptRound, m: Any = m, enemy: str = enemy) -> bool:
            """The defence's search for a stealth package: seen by the umpire and the package's
            owner; by the searcher only when it finds it (as 8.5)."""
            die, sig = rnd.detect
            r = roll(
                die,
                f"{', '.join(rnd.interceptors)} search for {m.id} en route in {rnd.hex} (signature {sig})",
                "9.9.6.2",
                frozenset({m.side}),
            )
            if r >= sig:
                roll.reveal({enemy})
            return r >= sig

        # the aircraft that meet see each other (8.3.2): the rolls of a fight are public
        arrived, hit, fought = plan.resolve(roll, lambda a, b: None, found)
        if not fought:  # a stealth package that was not found flies on unseen
            continue
        ev: list[Event] = []
        engaged = {
            *plan.escorts,
            m.id,
            *(i for r in plan.rounds if r.hex in fought for i in r.interceptors),
        }
        for uid in sorted(engaged):
            u = cur.units[uid]
            changes: dict[str, Any] = {
                "markers": u.markers | {"engaged", "tacsit1"},
                "seen_by": u.seen_by | {enemy if u.side == m.side else m.side},
            }
            if u.side != m.side:
                changes["data"] = {"intercepted": cur.clock.turn}  # once a turn
            ev.append(unit_set(uid, rule="9.9.6.2", visible_to=None, **changes))
        ev += [shot_down(uid) for uid in hit]
        ev.append(
            note(
                f"{m.id} flies to {cur.map.label(m.hex)}: intercepted in {', '.join(fought)}; "
                + ("it arrives" if arrived else "shot down en route")
                + (f"; hit: {', '.join(hit)}" if hit else ""),
                rule="9.9.6.2",
            )
        )
        cur = apply_all(cur, ev)
        events += ev
    return events
