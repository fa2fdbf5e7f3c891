"""ISR and detection (8): theater ISR, local detection, fixed installations, high/low signature,
cooperative sensing, AEW, ship and ground radar, submarine sensing.

Paragraphs: 2.2.1 signature (meet or beat); 8.2 theater ISR pawns; 8.3.1 fixed installations;
8.3.2 high signature (naval/air auto-detected by enemy naval/air in the same hex); 8.3.2.1 ground
units (adjacent on tactical maps; in the open an ISR asset in range — a theater pawn on the hex, a
sensor in range — detects without a roll; covered terrain rolls; light infantry demotes); 8.3.3 low
signature (matching capability only); 8.4 theater detection (ISR die vs the number); 8.4.1
TACSIT 1 / face down; 8.5 local detection; 8.5.2 ASW; 8.5.3 cooperative sensing (R3; the D12
cap for ASW and stealth aircraft only);
6.4.2 submarine sensing; 6.4.2.1 Silent Running; 6.4.2.2 Cavitation; 2.1.9 littoral ASW;
6.5.7 stealth cap D12; 6.5.9 AEW demoted per hex; 6.5.9.2 AEW vs ships out to 1 hex;
6.5.9.4 ship radar range; 6.5.9.5 ground radar; 6.5.9.6 long-range fighter radar (only emitting); 7.2.1.3/7.2.1.4
SIGINT/countermeasures;
8.5.1 SR promotion (the SOF module designates); 8.5.4 contested air ISR (an airborne ISR mission
used as a sensor is first searched for by the defender; if detected, the defending CAP and air
defences engage it at once; shot down, only the engaging assets count as detected; otherwise it
senses normally); 8.6 contested air ISR goes first.

Who sees a detection roll (8.4, 8.5, 8.5.4: the side attempting the detection rolls): the umpire
and the target's owner always; the rolling side only when the roll succeeds, since it then names
nothing the side has not just detected. A failed roll stays hidden from the roller: one roll is made
per undetected unit in the hex, so even a roll naming only the hex would tell the searcher how many
hidden units are there and bound their signatures (8.3). The searcher learns "nothing detected".

>>> detection_probability("d10", 7)
Fraction(2, 5)
>>> aew_die("d12", 0), aew_die("d12", 1), aew_die("d12", 2), aew_die("d12", 3)
('d12', 'd10', 'd8', 'd6')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, side_set, state_set, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import (
    Result,
    Roller,
    detected,
    detects,
    near_own,
    option,
    shot_down,
    space,
    watchers,
)
from owsnb.rules.ows.dice import demote, net_die, parse_die, rung, success_probability
from owsnb.rules.ows.units import counter

__all__ = [
    "detection_probability",
    "aew_die",
    "cooperative_die",
    "sensor_die",
    "local_die",
    "theater_preview",
    "local_preview",
    "resolve_theater",
    "resolve_local",
    "auto_detections",
    "TheaterISR",
    "Detect",
    "HANDLERS",
    "STEP_EFFECTS",
    "COVERED",
    "FIGHTER_RADAR_DIE",
    "ISR_MISSIONS",
    "is_air_isr",
    "Contest",
    "contest",
]

COVERED = ("forest", "hills", "mountain", "urban", "woods", "jungle")
"""Covered terrain of 8.3.2.1."""
ISR_MISSIONS = ("isr",)
"""Air missions that are ISR platforms (8.5.4: "in most cases ... a stealthy drone")."""


def detection_probability(die: str, signature: int) -> Fraction:
    """P(detect): *die* meets or beats the *signature* (2.2.1, 8.4)."""
    return success_probability(die, signature)


def aew_die(die: str, distance: int) -> str:
    """6.5.9: an AEW die is demoted one step per hex of distance (E-3: D12, D10, D8, D6)."""
    return demote(die, int(distance))


def cooperative_die(dice: Sequence[str], *, rule: str = "n-1", limit: str | None = None) -> str:
    """8.5.3 / R3: one roll with the best die, promoted once per additional contributing sensor
    (``rule="per-asset"``: once per sensor, the literal 6.4.4), then the cap.

    >>> cooperative_die(["d8", "d10", "d8"]), cooperative_die(["d10"] * 4, limit="d12")
    ('d16', 'd12')
    """
    best = max(dice, key=rung)
    n = len(dice) - 1 if rule == "n-1" else len(dice)
    return net_die(best, n, 0, limit=limit)


# -- what can sense what ---------------------------------------------------------------------------
def _kind(u: Any) -> str:
    c = counter(u)
    if c.category == "submarine":
        return "sub"
    if c.category == "naval":
        return "surface"
    if c.category == "air-mission":
        return "air"
    if c.category == "sof":
        return "sof"
    return "ground"


FIGHTER_RADAR_DIE = "d10"
"""6.5.9.6 gives no die for a fighter's long-range radar: D10, the table's placeholder (see COVERAGE.md)."""


def _fighter_radar(sensor: Any, distance: int) -> bool:
    """6.5.9.6: a fighter with long-range radar (F-35) that activates it (``emcon ... emit``, 6.4.3:
    it is then visible to the other side, stealth lost) searches for aircraft and ships out to the
    adjacent hexes; in EMCON it senses only as any air mission does."""
    return counter(sensor).long_range_radar and "emitting" in sensor.markers and distance <= 1


def sensor_die(state: StateLike, sensor: Any, target: Any) -> str | None:
    """The die *sensor* may roll against *target* now, or ``None`` if it cannot sense it
    (8.3.3 matching capability, 8.5.2, 6.4.2, 6.5.9, 6.5.9.2, 6.5.9.4-6). Distance demotions of
    AEW included; cooperative promotions and target modifiers are not."""
    c = counter(sensor)
    tk = _kind(target)
    if sensor.hex is None or target.hex is None or not sensor.alive:
        return None
    d = sensor.hex.distance(target.hex)
    if tk == "sub":  # 8.5.2, C4, 6.4.2
        if d != 0:
            return None
        asw = c.asw
        if c.category == "submarine":
            ok = (
                "silent-running" in sensor.markers
                and option(state, "sub_detectors") == "asw-and-silent"
                or "cavitation" in target.markers
            )
            return asw.die if ok and asw is not None else None
        if asw is not None and "asw" in sensor.markers:
            return asw.die
        return None
    if tk == "sof":  # 8.3.3: SOF by SOF
        if c.category == "sof" and d == 0:
            return max((a.die for a in c.attacks), key=rung, default="d8")
        return None
    aew = c.sensor("aew")
    radar = c.sensor("radar")
    if tk == "air":
        if aew is not None and d <= int(aew["range"]):
            return aew_die(aew["die"], d)
        if radar is not None and d <= int(radar["range"]):
            return radar["die"]
        aa = (
            [a for a in c.attacks if a.air_to_air] if c.category == "air-mission" and d == 0 else []
        )
        if aa:
            return aa[0].die
        if _fighter_radar(sensor, d):  # 6.5.9.6
            return FIGHTER_RADAR_DIE
        return None
    if tk == "surface":
        if c.category == "submarine" and d == 0:  # 6.4.2: torpedo die, promoted in silent running
            torp = [a for a in c.attacks if "torpedo" in a.flags]
            if not torp:
                return None
            return (
                torp[0].die if "silent-running" not in sensor.markers else demote(torp[0].die, -1)
            )
        if aew is not None and d <= 1:  # 6.5.9.2
            return aew_die(aew["die"], d)
        if radar is not None and d <= int(radar["range"]):
            return radar["die"]
        if _fighter_radar(sensor, d):  # 6.5.9.6: threat aircraft and ships in adjacent hexes
            return FIGHTER_RADAR_DIE
        if c.category in ("naval", "air-mission") and d == 0:
            return "d8"
        return None
    # ground targets: sensors in range, or adjacent ground units (placeholder die d8)
    for s in c.d.get("sensors", ()):
        if s["kind"] in ("eo", "radar", "aew") and d <= int(s["range"]):
            return aew_die(s["die"], d) if s["kind"] == "aew" else s["die"]
    if c.category in ("ground", "sof", "hq") and d <= 1:
        return "d8"
    return None


def _target_mods(state: StateLike, side: str, target: Any, asw: bool) -> tuple[int, int, list[str]]:
    prom = dem = 0
    notes: list[str] = []
    m = target.markers
    if "silent-running" in m:
        dem += 1
        notes.append("Silent Running demotes (6.4.2.1)")
    if "cavitation" in m:
        prom += 1
        notes.append("Cavitation promotes (6.4.2.2)")
    if asw and state.map.info(target.hex).terrain == "littoral":
        dem += 1
        notes.append("littoral ASW demoted (2.1.9)")
    if "sigint" in m and "countermeasures" in m:
        notes.append("SIGINT and countermeasures cancel (7.2.1.3)")
    elif "sigint" in m:
        prom += 1
        notes.append("SIGINT/EMSO promotes (7.2.1.3)")
    elif "countermeasures" in m:
        dem += 1
        notes.append("countermeasures demote (7.2.1.4)")
    terr = state.map.info(target.hex).terrain
    if (
        counter(target).category == "ground"
        and terr in ("urban", "forest")
        and counter(target).subtype == "light"
    ):
        dem += 1
        notes.append("light infantry in urban/forest (8.3.2.1)")
    sr = state.sides[side].private.get("sr_hexes") or ()
    if state.map.label(target.hex) in sr:
        prom += 1
        notes.append("SOF special reconnaissance (8.5.1)")
    return prom, dem, notes


def local_die(
    state: StateLike, side: str, sensors: Sequence[Any], target: Any
) -> tuple[str | None, list[str]]:
    """The single cooperative roll *sensors* make against *target* (8.5.3, R3), with the target's
    modifiers and the caps — D12 only for ASW and stealth aircraft (8.5.3, 6.4.4, 6.5.7; D16 by the
    exception clause); other cooperative rolls climb the ladder to D20 (R1). ``(None, ...)`` if
    none of them can sense it."""
    dice = [d for d in (sensor_die(state, s, target) for s in sensors) if d is not None]
    if not dice:
        return None, []
    tk = _kind(target)
    asw = tk == "sub"
    best = max(dice, key=rung)
    n_extra = (
        (len(dice) - 1)
        if option(state, "cooperative_sensing") == "n-1"
        else len(dice) - (0 if len(dice) > 1 else 1)
    )
    prom, dem, notes = _target_mods(state, side, target, asw)
    if len(dice) > 1:
        notes.append(
            f"cooperative sensing: {len(dice)} sensors, best {best} promoted {n_extra} (8.5.3)"
        )
    limit = None
    if asw:
        limit = "d16" if option(state, "asw_d16_exception") else "d12"
        notes.append(f"ASW cap {limit} (6.4.4)")
    elif tk == "air" and counter(target).stealth:
        limit = "d12"
        notes.append("stealth aircraft: at most D12 (6.5.7)")
    # 8.5.3: "For ASW operations and when sensing stealth aircraft, do not promote the detection
    # roll higher than a D12" — other cooperative rolls are not capped
    return net_die(best, prom + n_extra, dem, limit=limit), notes


def in_the_open(state: StateLike, u: Any) -> bool:
    """8.3.2.1: a ground unit with a theater signature outside covered terrain, which an ISR asset
    in range detects without a roll ("If in the open, and an ISR asset is placed within range to
    detect, then they are automatically detected. If they are in covered terrain (forest, hills,
    mountain, urban) then a die roll is made")."""
    if u.hex is None or _kind(u) != "ground" or counter(u).low_signature:
        return False
    return state.map.info(u.hex).terrain not in COVERED


def _isr_asset(sensor: Any, target: Any) -> bool:
    """Is *sensor* an ISR asset (a sensor of its own: EO, radar, AEW) with *target* in range?"""
    if sensor.hex is None or target.hex is None:
        return False
    d = sensor.hex.distance(target.hex)
    return any(
        s["kind"] in ("eo", "radar", "aew") and d <= int(s["range"])
        for s in counter(sensor).d.get("sensors", ())
    )


def _signature(u: Any) -> int:
    sig = counter(u).signature
    return int(sig) if sig is not None else 7


def theater_targets(state: StateLike, side: str, h: Any) -> list[Any]:
    """The units a theater ISR search by *side* of hex *h* rolls against (8.4): the enemy's
    living units there that *side* has not seen, low-signature units excepted (8.3.3)."""
    return [
        u
        for u in state.units.values()
        if u.side != side
        and u.hex == h
        and u.alive
        and not counter(u).low_signature
        and side not in u.seen_by
    ]


# -- automatic detections (8.3.1, 8.3.2, 6.4.3, 6.5.9.5) ---------------------------------------------
def auto_detections(state: StateLike, dice: Any = None) -> list[Event]:
    """Detections that need no roll, made when local detection begins (step 5.2)."""
    events: list[Event] = []
    tactical = (state.map.km_per_hex() or 370) <= 40
    for u in state.units.values():
        if not u.alive or u.hex is None:
            continue
        c = counter(u)
        new = set(u.seen_by)
        for side in state.sides:
            if side == u.side or side in new:
                continue
            if "emitting" in u.markers:  # 6.4.3
                new.add(side)
                continue
            if c.low_signature:
                continue
            enemies = [
                e for e in state.units.values() if e.side == side and e.alive and e.hex is not None
            ]
            k = _kind(u)
            if k in ("surface", "air") and any(
                e.hex == u.hex and _kind(e) in ("surface", "air") for e in enemies
            ):
                new.add(side)  # 8.3.2 (a submarine is no automatic detector: it rolls, 6.4.2)
            elif k == "air" and any(
                (radar := counter(e).sensor("radar"))
                and "emitting" in e.markers
                and e.hex.distance(u.hex) <= int(radar["range"])
                for e in enemies
            ):
                new.add(side)  # 6.5.9.5
            elif k == "ground" and tactical and any(e.hex.distance(u.hex) <= 1 for e in enemies):
                new.add(side)  # 8.3.2.1
        if new != set(u.seen_by):
            events.append(
                unit_set(
                    u.id,
                    seen_by=frozenset(new),
                    markers=u.markers | {"tacsit1"},
                    rule="8.3.2",
                    visible_to=frozenset(new | {u.side}),
                )
            )
    return events


# -- theater ISR (8.4) --------------------------------------------------------------------------------
def theater_preview(game: Any, side: str, signature: int = 7) -> Distribution:
    """P(a theater ISR pawn of *side* detects a unit with *signature*) with its dashboard die (8.4)."""
    state = game.state if hasattr(game, "state") else game
    die = space(state, side)["isr_die"]
    return Distribution.bernoulli(
        detection_probability(die, signature), label=f"detected ({die} vs {signature})"
    )


class TheaterISR(OrderHandler):
    """8.2/8.4: place a theater ISR pawn on a hex and roll the dashboard ISR die against every
    enemy unit there with a theater (high) signature."""

    type = OrderType(
        "isr", (Param("hex", "hex", "hex to search"),), rule="8.4", doc="place a theater ISR pawn"
    )

    def _left(self, state: StateLike, side: str) -> int:
        used = int((state.public.get("isr_used") or {}).get(side, 0))
        return int(space(state, side)["isr_pawns"]) - used

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if self._left(state, side) <= 0:
            return None
        # never derived from hidden enemy positions: every hex is a candidate; examples near own units
        hexes = [state.map.label(h) for h in state.map.hexes]
        near = near_own(state, side)
        ex = tuple(self.type.make(side, hex=h) for h in near[:12])
        return OrderSpec(side, self.type, FrozenDict(hex=tuple(hexes)), ex)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if self._left(state, order.side) <= 0:
            raise refuse(
                f"{order.side} has no theater ISR pawns left this turn (space dashboard)",
                "no-isr-pawns",
                "8.2",
                order,
            )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        d = theater_preview(state, order.side)
        if state.map.info(args["hex"]).terrain not in COVERED:
            d.label += "; a ground unit in the open is detected without a roll (8.3.2.1)"
        return d

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        h = args["hex"]
        die = parse_die(space(state, side)["isr_die"])
        roll = Roller(dice)
        events: list[Event] = []
        found = []
        shown: list[tuple[str, int, str, str]] = []
        for u in theater_targets(state, side, h):
            sig = _signature(u)
            rule = "8.3.2.1" if in_the_open(state, u) else "8.4.1"
            if rule == "8.4.1":  # 8.3.2.1: in the open the pawn placed on it detects it, no roll
                r = roll(
                    die, f"theater ISR vs {u.id} (signature {sig})", "8.4", frozenset({u.side})
                )
                if r < sig:
                    continue
                roll.reveal(
                    {side}
                )  # 8.4: the searcher's roll, shown once it names only what it found
                shown.append(roll.rolls[-1])
            found.append(u.id)
            events.append(detects(side, u, rule, frozenset({side, u.side})))
        used = dict(thaw(state.public.get("isr_used") or {}))
        used[side] = int(used.get(side, 0)) + 1
        events.append(state_set("public", {"isr_used": used}, rule="8.2"))
        lab = state.map.label(h)
        events.append(
            note(
                f"{side} theater ISR on {lab}: "
                + (f"detected {', '.join(found)}" if found else "nothing detected"),
                rule="8.4",
                visible_to=side,
            )
        )
        res = Result(
            f"Theater ISR on {lab}",
            {"detected": found, "die": die},
            ["8.4", "8.4.1", "2.2.1"],
            shown,
            [f"{x} detected (TACSIT 1)" for x in found] or ["nothing detected"],
        )
        return Adjudication(events, res)


# -- contested air ISR (8.5.4) -------------------------------------------------------------------------
def is_air_isr(unit: Any) -> bool:
    """Is *unit* an airborne ISR platform (8.5.4)?"""
    c = counter(unit)
    return c.is_air and unit.hex is not None and unit.alive and c.mission in ISR_MISSIONS


@dataclass(frozen=True)
class Contest:
    """8.5.4: what an airborne ISR platform meets: the defender's one cooperative detection roll
    (``detect_die`` vs the platform's ``signature``; ``already``: detected before, no roll) and, if
    detected, the shots of every defending CAP and air defence that can engage it, simultaneous."""

    platform: str
    defender: str
    detect_die: str | None
    signature: int
    already: bool
    shots: tuple[Any, ...]

    @property
    def p_detected(self) -> Fraction:
        if self.already:
            return Fraction(1)
        return (
            detection_probability(self.detect_die, self.signature)
            if self.detect_die
            else Fraction(0)
        )

    @property
    def p_shot_down(self) -> Fraction:
        """P(shot down | detected): at least one shot hits (9.7.4: one hit sends an air mission home)."""
        miss = Fraction(1)
        for e in self.shots:
            miss *= 1 - e.p
        return 1 - miss

    def distribution(self) -> Distribution:
        """Exact outcome: ``"not detected"``, ``"survives"`` (detected, not shot down), ``"shot down"``."""
        pd, pk = self.p_detected, self.p_shot_down
        return Distribution(
            {"not detected": 1 - pd, "survives": pd * (1 - pk), "shot down": pd * pk},
            label=f"{self.platform} (8.5.4)",
        )

    def resolve(self, roll: Any, visible: Any = None) -> tuple[str, list[Any]]:
        """Roll it (``roll(die, purpose, rule, visible_to)``; ``visible(shooter id or None for the
        search roll)`` gives each roll's ``visible_to``): the outcome and the shots that hit."""
        vis = visible or (lambda who: None)
        if not self.already:
            if self.detect_die is None:
                return "not detected", []
            r = roll(
                self.detect_die,
                f"{self.defender} searches for {self.platform} (signature {self.signature})",
                "8.5.4",
                vis(None),
            )
            if r < self.signature:
                return "not detected", []
        hits = [
            e
            for e in self.shots
            if roll(
                e.die,
                f"{e.shooter} engages {e.target} (defence {e.defence})",
                "8.5.4",
                vis(e.shooter),
            )
            >= e.defence
        ]
        return ("shot down" if hits else "survives"), hits


def contest(state: StateLike, platform: Any) -> Contest:
    """The 8.5.4 contest of *platform* (a unit or id) as *state* knows it: a side's view gives the
    contest as that side can foresee it (defenders it has not detected are not in it)."""
    from owsnb.rules.ows.air import combat as air

    p = state.units[platform] if isinstance(platform, str) else platform
    defender = next((s for s in state.sides if s != p.side), p.side)
    enemies = [
        u for u in state.units.values() if u.side != p.side and u.alive and u.hex is not None
    ]
    already = detected(state, p, defender)
    die = None if already else local_die(state, defender, enemies, p)[0]
    shots = []
    for s in sorted(enemies, key=lambda u: u.id):
        c = counter(s)
        d = s.hex.distance(p.hex)
        if c.is_air:
            if (
                c.mission in air.CAP_MISSIONS
                and air._aa_die(s)
                and (d == 0 or (d == 1 and air._aa_range(s) >= 1))
            ):
                shots.append(air._engagement(state, "6.A.4" if d == 0 else "6.A.1", s, p))
        elif "disrupted-c2" not in s.markers:
            aa = [a for a in c.anti_air if not a.air_to_air and a.left > 0]
            if aa and d <= aa[0].range:
                shots.append(air._engagement(state, "6.A.7" if d == 0 else "6.A.3", s, p))
    return Contest(
        p.id, defender, die, _signature(p), already, tuple(e for e in shots if e is not None)
    )


def _contest_events(
    state: GameState, side: str, cont: Contest, roll: Roller
) -> tuple[list[Event], str, list[str], list]:
    """Resolve *cont* (8.5.4): events, outcome, lines and the rolls *side* may see."""
    from owsnb.kernel.reduce import apply

    p = state.units[cont.platform]
    found = detects(cont.defender, p, "8.5.4", None)
    s_det = apply(state, found)  # the shots are rolled once the defender has found the platform

    def vis(who: str | None) -> Any:
        return (
            frozenset({p.side})
            if who is None
            else watchers(s_det, s_det.units[who], s_det.units[p.id])
        )

    first = len(roll.rolls)
    outcome, _ = cont.resolve(roll, vis)
    if not cont.already and outcome != "not detected":
        roll.reveal(
            {cont.defender}, first
        )  # 8.5.4: the defender's search roll, once it has found the platform
    shown = [
        r
        for r, who in zip(
            roll.rolls[first:],
            [None, *[e.shooter for e in cont.shots]][(1 if cont.already else 0) :],
            strict=False,
        )
        if side in (vis(who) or {side})
    ]
    if outcome == "not detected":
        return [], outcome, [f"{p.id} is not detected by the defence (8.5.4)"], shown
    events: list[Event] = [] if cont.already else [found]
    cur = s_det
    for e in cont.shots:  # air defence pools spent (2.2.7.4), aircraft engaged (9.7)
        u = cur.units[e.shooter]
        if e.key:
            sp = dict(counter(u).spent)
            sp[e.key] = int(sp.get(e.key, 0)) + 1
            ev = unit_set(u.id, data={"spent": sp}, rule="2.2.7.4", visible_to=watchers(cur, u))
        else:
            ev = unit_set(
                u.id, markers=u.markers | {"engaged"}, rule="9.7", visible_to=watchers(cur, u)
            )
        cur = apply(cur, ev)
        events.append(ev)
    if outcome == "survives":
        return (
            events,
            outcome,
            [f"{p.id} is found and engaged but survives: it senses as usual (8.5.4)"],
            shown,
        )
    events.append(shot_down(p.id))
    for e in cont.shots:
        u = cur.units[e.shooter]
        if side not in u.seen_by:
            events.append(detects(side, u, "8.5.4", frozenset({side, u.side})))
    return (
        events,
        outcome,
        [
            f"{p.id} is shot down (9.7.4); the assets that engaged it are detected: "
            + ", ".join(e.shooter for e in cont.shots)
            + " (8.5.4)"
        ],
        shown,
    )


# -- local detection (8.5) ----------------------------------------------------------------------------
def local_preview(game: Any, side: str, sensors: Sequence[str], target: str) -> Distribution:
    """Exact P(detect *target*) by one cooperative roll of *sensors* (8.5, 8.5.3), as the umpire
    knows it (the detecting side cannot name an undetected target)."""
    state = game.state if hasattr(game, "state") else game
    die, _ = local_die(state, side, [state.units[s] for s in sensors], state.units[target])
    if die is None:
        return Distribution.point(False, label="cannot sense")
    return Distribution.bernoulli(
        detection_probability(die, _signature(state.units[target])), label=f"detected ({die})"
    )


def local_targets(state: StateLike, side: str, h: Any) -> list[Any]:
    """The units a local search by *side* of hex *h* may roll against (8.5): the enemy's living
    units there that *side* has not detected (those its sensors cannot sense are left to
    :func:`local_die`)."""
    return [
        u
        for u in state.units.values()
        if u.side != side
        and u.hex == h
        and u.alive
        and side not in u.seen_by
        and not detected(state, u, side)
    ]


def _search(
    state: StateLike, side: str, h: Any, sensors: Sequence[Any], roll: Roller
) -> tuple[list[Event], list[str], list, set]:
    """8.5: one cooperative roll by *sensors* per undetected enemy unit in *h* they can sense."""
    events: list[Event] = []
    found: list[str] = []
    shown = []
    rules = {"8.5"}
    for u in local_targets(state, side, h):
        die, notes = local_die(state, side, sensors, u)
        if die is None:
            continue
        if in_the_open(state, u) and any(_isr_asset(s, u) for s in sensors):
            found.append(u.id)  # 8.3.2.1: in the open, an ISR asset in range detects it, no roll
            rules.add("8.3.2.1")
            events.append(detects(side, u, "8.3.2.1", frozenset({side, u.side})))
            continue
        sig = _signature(u)
        # 6.4.2: "Submarines attempting to detect surface platforms remain undetected": a roll
        # made by submarines alone is not shown to the target's owner (it would betray the boat)
        subs_only = all(
            counter(s).category == "submarine"
            for s in sensors
            if sensor_die(state, s, u) is not None
        )
        r = roll(
            die,
            f"local detection of {u.id} (signature {sig}): {'; '.join(notes)}",
            "6.4.2" if subs_only else "8.5",
            frozenset() if subs_only else frozenset({u.side}),
        )
        if r >= sig:
            roll.reveal({side})  # 8.5: as 8.4, the searcher sees the roll that found the unit
            found.append(u.id)
            shown.append(roll.rolls[-1])
            rules.update(n.rsplit("(", 1)[-1].rstrip(")") for n in notes if "(" in n)
            events.append(detects(side, u, "8.5", frozenset({side, u.side})))
    return events, found, shown, rules


class Detect(OrderHandler):
    """8.5: local detection by units on the map: one cooperative roll (8.5.3) per enemy unit in
    the hex that the sensors can sense and have not detected; each sensor once per turn. An
    airborne ISR mission among the sensors is contested first (8.5.4, 8.6: before the side's other
    local detections)."""

    type = OrderType(
        "detect",
        (
            Param("hex", "hex", "hex searched"),
            Param(
                "sensors",
                "unit",
                "own units sensing together (8.5.3)",
                positional=False,
                repeat=True,
            ),
        ),
        rule="8.5",
        doc="local detection by your units",
    )

    def _sensed(self, state: StateLike, side: str) -> set[str]:
        return set(state.sides[side].private.get("sensed") or ())

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        done = self._sensed(state, side)
        ex = []
        for u in state.units_of(side):
            if not u.alive or u.hex is None or u.id in done or (done and is_air_isr(u)):
                continue
            c = counter(u)
            rng = max([int(s["range"]) for s in c.d.get("sensors", ())] + [0])
            for h in [u.hex, *u.hex.neighbours()][: 1 + (6 if rng else 0)]:
                if h in state.map.hexes:
                    ex.append(self.type.make(side, hex=state.map.label(h), sensors=[u.id]))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:20])) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        done = self._sensed(state, order.side)
        for u in args.get("sensors", ()):  # bound: the side's units alive on the map
            sid = u.id
            if sid in done:
                raise refuse(
                    f"{sid} has already made its detection attempt this turn",
                    "sensed",
                    "8.5",
                    order,
                )
            if done and is_air_isr(u):
                raise refuse(
                    f"{sid} is an air ISR platform: contested air ISR is resolved before the side's other "
                    "local detections (8.6)",
                    "contested-first",
                    "8.6",
                    order,
                )
        if len({u.id for u in args.get("sensors", ())}) != len(args.get("sensors", ())):
            raise refuse("a sensor is listed twice", "bad-arguments", "8.5.3", order)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        """P(detect) of a signature-7 target by these sensors' best die (for the planner); with air
        ISR platforms, the exact 8.5.4 contest of each as the side knows its defences."""
        sensors = list(args.get("sensors", ()))
        platforms = [s for s in sensors if is_air_isr(s)]
        if platforms:
            d = Distribution.point(())
            for p in platforms:
                d = d.combine(contest(state, p).distribution(), lambda acc, o: (*acc, o))
            if len(platforms) == 1:
                d = d.map(lambda t: t[0])
            d.label = "contested air ISR (8.5.4): " + ", ".join(p.id for p in platforms)
            return d
        dice = [d["die"] for s in sensors for d in counter(s).d.get("sensors", ())] or ["d8"]
        die = cooperative_die(dice, rule=option(state, "cooperative_sensing"))  # no cap (8.5.3)
        return Distribution.bernoulli(
            detection_probability(die, 7), label=f"detect signature 7 with {die}"
        )

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        from owsnb.kernel.reduce import apply_all

        side = order.side
        h = args["hex"]
        roll = Roller(dice)
        events: list[Event] = []
        lines: list[str] = []
        rules = set()
        cur = state
        sensors = []
        contest_rolls: list = []
        for sid in (s.id for s in args["sensors"]):
            u = cur.units[sid]
            if is_air_isr(u):  # 8.5.4 first
                ev, outcome, ls, seen = _contest_events(cur, side, contest(cur, u), roll)
                events += ev
                cur = apply_all(cur, ev)
                lines += ls
                contest_rolls += seen
                rules.add("8.5.4")
                if outcome == "shot down":
                    continue
            sensors.append(cur.units[sid])
        ev, found, shown, more = (
            _search(cur, side, h, sensors, roll) if sensors else ([], [], [], set())
        )
        events += ev
        rules |= more | {"8.5"}
        sensed = sorted(self._sensed(state, side) | {s.id for s in args["sensors"]})
        events.append(side_set(side, "private", {"sensed": sensed}, rule="8.5"))
        lab = state.map.label(h)
        events.append(
            note(
                f"{side} local detection in {lab}: "
                + (", ".join(found) if found else "nothing detected"),
                rule="8.5",
                visible_to=side,
            )
        )
        shown = contest_rolls + shown
        res = Result(
            f"Local detection in {lab}",
            {"detected": found},
            sorted(rules),
            shown,
            lines + ([f"{x} detected (TACSIT 1)" for x in found] or ["nothing detected"]),
        )
        return Adjudication(events, res)


def resolve_theater(game: Any, side: str, hex: str) -> Result:
    """Place a theater ISR pawn (8.4) by submitting ``isr``."""
    from owsnb.rules.ows.common import submit

    return submit(game, TheaterISR.type.make(side, hex=hex))


def resolve_local(game: Any, side: str, hex: str, sensors: Sequence[str]) -> Result:
    """A local detection attempt (8.5) by submitting ``detect``."""
    from owsnb.rules.ows.common import submit

    return submit(game, Detect.type.make(side, hex=hex, sensors=list(sensors)))


preview = local_preview
resolve = resolve_local


def _enter_theater(state: StateLike, dice: Any) -> list[Event]:
    return [
        state_set("public", {"isr_used": {s: 0 for s in state.sides}}, rule="8.2"),
        *[side_set(s, "private", {"sensed": None}, rule="8.5") for s in state.sides],
    ]


def contest_preview(game: Any, platform: str) -> Distribution:
    """Exact 8.5.4 outcome of *platform*'s contest as the umpire knows it."""
    state = game.state if hasattr(game, "state") else game
    return contest(state, platform).distribution()


HANDLERS = [TheaterISR(), Detect()]
STEP_EFFECTS = {"5.1": _enter_theater, "5.2": auto_detections}
