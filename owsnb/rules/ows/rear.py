"""Rear area and partisan strategies [Advanced] (10.15.10), with the option ``rear_area``.

Paragraphs: 10.15.10.1 a Security Zone takes 3 steps of ground combat units off the map onto its
card and puts a visible marker in one 100 km zone (Strategic Movement, step 2.2); 10.15.10.2
Partisans/Diversants are activated the same way but placed secretly; 10.15.10.3 in the Security
Force Battles step (6.C.4) every partisan is revealed; partisans in a zone without a Security Zone
are DISRUPTED at once; where both are present each side rolls a D10, +1 per supporting SOF or ATGM
unit (R10), the Security Zone +1 more with attack helicopters or light/motorised/mech infantry on
its marker, a further Partisan/Security marker in the zone promotes the roll; security 14+ AND at
least double the partisans' roll destroys the partisans, their 3 steps and their SOF/ATGMs;
partisans equal or higher = DISRUPTED; otherwise nothing this turn (R10); 10.15.10.4 a disrupted
zone stays face up until the next Security Force Battle: enemy movement +2 MP per hex, no supply
trace through it, one partisan attack on a unit of choice (defence 3, 4 if stacked with another
combat unit; 3D4, each die >= defence a hit; 3 hits = one step, else Suppressed through the next
turn, C8); 10.15.10.5 an ATGM unit with the partisans may attack a combat unit in the zone with an
unmodified D12 (normal hits), the target returning fire demoted, simultaneously.

Ruling **RA1**: zones are the 100 km zones of the map (the hex itself on maps without zones);
security and partisan forces stay committed until destroyed; the partisans' attack and ATGM need a
target their side has detected (no attack on what one cannot see, 9.9.4).

>>> [battle_outcome(s, p) for s, p in ((14, 7), (14, 8), (12, 6), (9, 9))]
['destroyed', 'none', 'none', 'disrupted']
>>> dict(partisan_attack_preview(3))[True], dict(partisan_attack_preview(4))[True]
(Fraction(1, 8), Fraction(1, 64))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, state_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import Result, Roller, apply_hits, legal_examples, option, watchers
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import parse_die, shift, sides
from owsnb.rules.ows.movement import ptable, rear_zone
from owsnb.rules.ows.units import counter

__all__ = [
    "battle_outcome",
    "battle_preview",
    "partisan_attack_preview",
    "SecurityZone",
    "Partisans",
    "SecurityBattle",
    "PartisanAttack",
    "Atgm",
    "HANDLERS",
    "STEP_EFFECTS",
    "LEAVE_EFFECTS",
    "zone_key",
]

SUPPORT_TYPES = ("sof", "atgm")
SZ_BONUS_TYPES = ("attack-helicopter", "light", "motorised", "motorized", "mech", "infantry")


def battle_outcome(security: int, partisans: int, destroy_at: int = 14, ratio: int = 2) -> str:
    """10.15.10.3 (R10): ``destroyed`` if security >= 14 and >= 2x partisans; ``disrupted`` if the
    partisans roll equal or higher; else ``none``."""
    if partisans >= security:
        return "disrupted"
    if security >= destroy_at and security >= ratio * partisans:
        return "destroyed"
    return "none"


def battle_preview(
    sec_die: str = "d10",
    sec_mod: int = 0,
    par_die: str = "d10",
    par_mod: int = 0,
    destroy_at: int = 14,
    ratio: int = 2,
) -> Distribution:
    """Exact distribution of the battle for control (10.15.10.3)."""
    s = Distribution.die(sides(sec_die)).map(lambda r: r + sec_mod)
    p = Distribution.die(sides(par_die)).map(lambda r: r + par_mod)
    return s.combine(
        p, lambda a, b: battle_outcome(a, b, destroy_at, ratio), label="battle for control"
    )


def partisan_attack_preview(
    defence: int = 3, dice: int = 3, die: str = "d4", hits_for_step: int = 3
) -> Distribution:
    """10.15.10.4: ``True`` = a step is lost (all 3D4 meet the defence), ``False`` = Suppressed."""
    one = Distribution.die(sides(die)).map(lambda r: 1 if r >= defence else 0)
    total = Distribution.sum([one] * dice)
    return total.map(lambda h: h >= hits_for_step, label="step lost (else Suppressed)")


def atgm_preview(
    atgm_die: str, target_shield: int, return_die: str, atgm_shield: int
) -> Distribution:
    """10.15.10.5: exact ``(hits on the target, hits on the ATGM)`` of the simultaneous exchange:
    the unmodified ATGM die against the target's shield, the target's die demoted against the ATGM's."""
    a = Distribution.die(sides(atgm_die)).map(lambda r: _hits(r, target_shield))
    b = Distribution.die(sides(return_die)).map(lambda r: _hits(r, atgm_shield))
    return a.combine(b, lambda x, y: (x, y), label="(hits on the target, hits on the ATGM)")


def zone_key(state: StateLike, h: Hex) -> str:
    z = rear_zone(state, h)
    return f"{z.q},{z.r}"


def _rear(state: StateLike) -> dict[str, Any]:
    return dict(thaw(state.public.get("rear") or {}))


def _secret(state: StateLike) -> dict[str, Any]:
    return dict(thaw(state.secret.get("partisans") or {})) if hasattr(state, "secret") else {}


def _rt(state: StateLike) -> dict[str, Any]:
    return ptable(state, "ground")["rear"]


def _need_option(state: StateLike, order: Any) -> None:
    if not option(state, "rear_area"):
        raise refuse(
            "the rear-area rules are an advanced option this scenario does not use (10.15.10)",
            "option-off",
            "10.15.10",
            order,
        )


def _commit(
    state: StateLike, order: Order, args: Mapping[str, Any], rule: str
) -> tuple[Hex, list[Any], list[Any]]:
    _need_option(state, order)
    h = args["zone"]  # bound: a map hex; the units: the side's, alive on the map
    units = list({u.id: u for u in args["units"]}.values())
    steps = sum(u.steps for u in units)
    need = int(_rt(state)["security_steps"])
    for u in units:
        if counter(u).category != "ground":
            raise refuse(f"{u.id} is not a ground combat unit", "not-ground", rule, order)
    if steps != need:
        raise refuse(
            f"a card takes exactly {need} steps of ground combat units; these have {steps}",
            "steps",
            rule,
            order,
        )
    support = list({u.id: u for u in args.get("support", ())}.values())
    return h, units, support


class SecurityZone(OrderHandler):
    """10.15.10.1: commit 3 steps to a Security Zone card and place its visible marker in a zone."""

    type = OrderType(
        "security-zone",
        (
            Param("zone", "hex", "a hex of the 100 km zone to secure"),
            Param("units", "unit", "3 steps of ground combat units", positional=False, repeat=True),
            Param(
                "support",
                "unit",
                "attack helicopters, infantry, SOF or ATGM on the marker",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="10.15.10.1",
        doc="establish a Security Zone",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not option(state, "rear_area"):
            return None
        us = [
            u for u in state.units_of(side) if u.hex is not None and counter(u).category == "ground"
        ]
        vals = []
        for u in us:
            if u.steps == int(_rt(state)["security_steps"]):
                vals.append({"zone": state.map.label(u.map_hex), "units": [u.id]})
        ex = legal_examples(self, state, side, vals[:3])
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        _commit(state, order, args, "10.15.10.1")

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        h, units, support = _commit(state, order, args, "10.15.10.1")
        key = zone_key(state, h)
        rear = _rear(state)
        zones = dict(rear.get("security") or {})
        z = rear_zone(state, h)
        bonus = sum(
            1 for s in support if counter(s).category == "sof" or counter(s).subtype == "atgm"
        )
        extra = (
            1
            if any(
                counter(s).subtype in SZ_BONUS_TYPES or counter(s).aircraft == "rotary"
                for s in support
            )
            else 0
        )
        prev = zones.get(key)
        zones[key] = {
            "side": order.side,
            "zone": [z.q, z.r],
            "label": state.map.label(h),
            "steps": 3,
            "support": bonus + (prev or {}).get("support", 0),
            "on_marker": max(extra, (prev or {}).get("on_marker", 0)),
            "markers": int((prev or {}).get("markers", 0)) + 1,
        }
        ev: list[Event] = [
            state_set("public", {"rear": {**rear, "security": zones}}, rule="10.15.10.1")
        ]
        for u in [*units, *support]:
            ev.append(
                unit_set(
                    u.id,
                    hex=None,
                    box="security-zone",
                    seen_by=frozenset(),
                    rule="10.15.10.1",
                    visible_to=watchers(state, u),
                )
            )
        ev.append(
            note(
                f"{order.side} establishes a Security Zone around {state.map.label(h)}",
                rule="10.15.10.1",
            )
        )
        return Adjudication(
            ev, Result(f"Security Zone at {state.map.label(h)}", {"zone": key}, ["10.15.10.1"])
        )


class Partisans(OrderHandler):
    """10.15.10.2: activate Partisans/Diversants with 3 steps, placed secretly in a zone; ATGM
    units join them on the map (10.15.10.5)."""

    type = OrderType(
        "partisans",
        (
            Param("zone", "hex", "a hex of the zone where they act (secret)"),
            Param(
                "units",
                "unit",
                "3 steps of ground combat units for the card",
                positional=False,
                repeat=True,
            ),
            Param(
                "support",
                "unit",
                "SOF or ATGM units with the partisans",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="10.15.10.2",
        doc="activate partisans (secret)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        return SecurityZone.candidates(self, state, side)  # type: ignore[arg-type]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        _commit(state, order, args, "10.15.10.2")

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        h, units, support = _commit(state, order, args, "10.15.10.2")
        key = zone_key(state, h)
        sec = _secret(state)
        mine = dict(sec.get(order.side) or {})
        prev = mine.get(key) or {}
        z = rear_zone(state, h)
        atgms = [s.id for s in support if counter(s).subtype == "atgm"]
        mine[key] = {
            "zone": [z.q, z.r],
            "label": state.map.label(h),
            "steps": 3,
            "markers": int(prev.get("markers", 0)) + 1,
            "card": [*prev.get("card", []), *[u.id for u in units]],
            "support": [*prev.get("support", []), *[s.id for s in support]],
        }
        sec[order.side] = mine
        own = frozenset({order.side})
        ev: list[Event] = [state_set("secret", {"partisans": sec}, rule="10.15.10.2")]
        for u in units:
            ev.append(
                unit_set(
                    u.id,
                    hex=None,
                    box="partisan-card",
                    seen_by=frozenset(),
                    rule="10.15.10.2",
                    visible_to=own,
                )
            )
        for s in support:
            if s.id in atgms:
                ev.append(unit_move(s.id, h, rule="10.15.10.5", visible_to=own))
                ev.append(
                    unit_set(
                        s.id,
                        data={"partisan_zone": key},
                        seen_by=frozenset(),
                        rule="10.15.10.5",
                        visible_to=own,
                    )
                )
            else:
                ev.append(
                    unit_set(
                        s.id,
                        hex=None,
                        box="partisan-card",
                        seen_by=frozenset(),
                        rule="10.15.10.2",
                        visible_to=own,
                    )
                )
        return Adjudication(
            ev,
            Result(
                f"Partisans activated near {state.map.label(h)} (secret)",
                {"zone": key},
                ["10.15.10.2"],
            ),
        )


def _mods(
    state: StateLike, side: str, key: str, entry: Mapping[str, Any], security: bool
) -> tuple[str, int, list[str]]:
    rt = _rt(state)
    die = parse_die(rt["battle_die"])
    mod = 0
    why = []
    n = int(entry.get("support", 0) or 0)
    if n:
        mod += n
        why.append(f"+{n} supporting SOF/ATGM (R10)")
    if security and entry.get("on_marker"):
        mod += 1
        why.append("+1 helicopters/infantry on the marker")
    if int(entry.get("markers", 1)) > 1:
        die = shift(die, int(entry["markers"]) - 1)
        why.append("further markers in the zone promote")
    return die, mod, why


def _battle(state: GameState, key: str, roll: Roller) -> tuple[list[Event], Result]:
    rear = _rear(state)
    sec = _secret(state)
    sz = (rear.get("security") or {})[key]
    pub = (rear.get("partisans") or {})[key]
    pside = pub["side"]
    pe = sec[pside][key]
    sd, sm, sw = _mods(state, sz["side"], key, sz, True)
    pd, pm, pw = _mods(state, pside, key, pub, False)
    rs = roll(sd, f"Security Zone {sz['label']}: {sd}{sm:+d}", "10.15.10.3", None) + sm
    rp = roll(pd, f"partisans in zone {pe['label']}: {pd}{pm:+d}", "10.15.10.3", None) + pm
    rt = _rt(state)
    out = battle_outcome(rs, rp, int(rt["destroy_at"]), int(rt["destroy_ratio"]))
    ev: list[Event] = []
    lines = [
        f"security {rs} ({', '.join(sw) or 'no modifier'}) vs partisans {rp} ({', '.join(pw) or 'no modifier'})"
    ]
    bt = dict(rear.get("battled") or {})
    bt[key] = state.clock.turn
    if out == "destroyed":
        cur = state
        for uid in [*pe.get("card", []), *pe.get("support", [])]:
            u = cur.units.get(uid)
            if u is not None and u.alive:
                e, _, _ = apply_hits(
                    cur, u, u.steps, rule="10.15.10.3", cause="ground", visible_to=watchers(cur, u)
                )
                ev += e
                cur = apply_all(cur, e)
        mine = dict(sec[pside])
        mine.pop(key)
        sec[pside] = mine
        ev.append(state_set("secret", {"partisans": sec}, rule="10.15.10.3"))
        parts = dict(rear.get("partisans") or {})
        parts.pop(key, None)
        ev.append(
            state_set(
                "public", {"rear": {**rear, "partisans": parts, "battled": bt}}, rule="10.15.10.3"
            )
        )
        lines.append(
            "14+ and double: the partisans, their card and their SOF/ATGM are destroyed (10.15.10.3)"
        )
    elif out == "disrupted":
        dis = dict(rear.get("disrupted") or {})
        dis[key] = {
            "side": pside,
            "zone": pe["zone"],
            "label": pe["label"],
            "turn": state.clock.turn,
            "attacked": False,
        }
        ev.append(
            state_set(
                "public", {"rear": {**rear, "disrupted": dis, "battled": bt}}, rule="10.15.10.4"
            )
        )
        lines.append("the partisans roll equal or higher: DISRUPTED (10.15.10.4)")
    else:
        ev.append(state_set("public", {"rear": {**rear, "battled": bt}}, rule="10.15.10.3"))
        lines.append("no effect this turn (R10)")
    return ev, Result(
        f"Battle for control of zone {sz['label']}",
        {"outcome": out, "security": rs, "partisans": rp},
        ["10.15.10.3", "R10"],
        roll.rolls,
        lines,
    )


def reveal(state: StateLike, dice: Any) -> list[Event]:
    """6.C.4 begins: all partisans are revealed; those with no Security Zone in their zone are
    DISRUPTED at once (10.15.10.3); last turn's disrupted zones end (10.15.10.4)."""
    if not option(state, "rear_area"):
        return []
    rear = _rear(state)
    sec = _secret(state)
    sz = rear.get("security") or {}
    parts, dis = {}, {}
    for side, zones in sec.items():
        for key, e in zones.items():
            parts[key] = {
                "side": side,
                "zone": e["zone"],
                "label": e["label"],
                "support": len(e.get("support", ())),
                "markers": int(e.get("markers", 1)),
            }
            if key not in sz or sz[key]["side"] == side:
                dis[key] = {
                    "side": side,
                    "zone": e["zone"],
                    "label": e["label"],
                    "turn": state.clock.turn,
                    "attacked": False,
                }
    ev: list[Event] = [
        state_set(
            "public",
            {"rear": {**rear, "partisans": parts, "disrupted": dis, "battled": {}}},
            rule="10.15.10.3",
        )
    ]
    if parts:
        ev.append(
            note(
                f"partisans revealed in {len(parts)} zone(s); {len(dis)} disrupted at once (10.15.10.3)",
                rule="10.15.10.3",
            )
        )
    return ev


def _contested(state: StateLike) -> list[str]:
    """Zones with revealed partisans and an enemy Security Zone whose battle is not fought yet."""
    rear = _rear(state)
    sz = rear.get("security") or {}
    done = rear.get("battled") or {}
    parts = rear.get("partisans") or {}
    return sorted(
        k for k, e in parts.items() if k in sz and sz[k]["side"] != e["side"] and k not in done
    )


def finish(state: GameState, dice: Any) -> list[Event]:
    """6.C.4 ends: the battles nobody called are fought (10.15.10.3)."""
    if not option(state, "rear_area"):
        return []
    roll = Roller(dice)
    ev: list[Event] = []
    cur = state
    for key in _contested(state):
        e, _ = _battle(cur, key, roll)
        ev += e
        cur = apply_all(cur, e)
    return ev


class SecurityBattle(OrderHandler):
    """10.15.10.3: fight the battle for control of a zone holding both partisans and a Security Zone."""

    type = OrderType(
        "security-battle",
        (Param("zone", "hex", "a hex of the contested zone"),),
        rule="10.15.10.3",
        doc="battle for control of a zone",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        keys = _contested(state) if option(state, "rear_area") else []
        labs = [(_rear(state).get("security") or {})[k]["label"] for k in keys]
        ex = [self.type.make(side, zone=lab) for lab in labs]
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _key(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> str:
        _need_option(state, order)
        key = zone_key(state, args["zone"])
        if key not in _contested(state):
            raise refuse(
                "no contested zone there (or its battle is fought)",
                "not-contested",
                "10.15.10.3",
                order,
            )
        return key

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._key(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        key = self._key(state, order, args)
        rear = _rear(state)
        sz, pub = rear["security"][key], rear["partisans"][key]
        sd, sm, _ = _mods(state, sz["side"], key, sz, True)
        pd, pm, _ = _mods(state, pub["side"], key, pub, False)
        rt = _rt(state)
        return battle_preview(sd, sm, pd, pm, int(rt["destroy_at"]), int(rt["destroy_ratio"]))

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        key = self._key(state, order, args)
        ev, res = _battle(state, key, Roller(dice))
        return Adjudication(ev, res)


def _defence(state: StateLike, target: Any) -> int:
    pa = _rt(state)["partisan_attack"]
    stacked = any(
        u.id != target.id
        and u.side == target.side
        and u.hex == target.hex
        and u.alive
        and counter(u).category in ("ground", "artillery", "engineer", "air-defence")
        for u in state.units.values()
    )
    return int(pa["stacked_defense"] if stacked else pa["defense"])


class PartisanAttack(OrderHandler):
    """10.15.10.4: the partisans of a disrupted zone attack one detected enemy unit in it: 3D4 vs
    defence 3 (4 if stacked); 3 hits = a step, else Suppressed through the next turn (C8)."""

    type = OrderType(
        "partisan-attack",
        (Param("target", "enemy", "detected enemy unit in the disrupted zone"),),
        rule="10.15.10.4",
        doc="partisan attack",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not option(state, "rear_area"):
            return None
        from owsnb.rules.ows.movement import known_enemies

        dis = _rear(state).get("disrupted") or {}
        ex = []
        for e in known_enemies(state, side):
            k = zone_key(state, e.hex)
            if (
                k in dis
                and dis[k]["side"] == side
                and not dis[k].get("attacked")
                and counter(e).category != "air-mission"
            ):
                ex.append(self.type.make(side, target=e.id))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:6])) if ex else None

    def _check(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Any, str]:
        _need_option(state, order)
        t = args["target"]  # bound: a detected enemy unit
        key = zone_key(state, t.hex)
        d = (_rear(state).get("disrupted") or {}).get(key)
        if not d or d["side"] != order.side:
            raise refuse(
                "your partisans have not disrupted that zone (10.15.10.4)",
                "not-disrupted",
                "10.15.10.4",
                order,
            )
        if d.get("attacked"):
            raise refuse(
                "the partisans of that zone have made their one attack this turn",
                "already",
                "10.15.10.4",
                order,
            )
        return t, key

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        t, _ = self._check(state, order, args)
        pa = _rt(state)["partisan_attack"]
        return partisan_attack_preview(
            _defence(state, t), int(pa["dice"]), pa["die"], int(pa["hits_for_step"])
        )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        t, key = self._check(state, order, args)
        pa = _rt(state)["partisan_attack"]
        dfn = _defence(state, t)
        rolls = dice.roll_many(
            int(pa["dice"]),
            pa["die"],
            purpose=f"partisan attack on {t.id} vs defence {dfn}",
            rule="10.15.10.4",
            visible_to=None,
        )
        n = sum(1 for r in rolls if r >= dfn)
        ev: list[Event] = []
        if n >= int(pa["hits_for_step"]):
            e, lost, _ = apply_hits(
                state, t, 1, rule="10.15.10.4", cause="ground", visible_to=watchers(state, t)
            )
            ev += e
            line = f"{n} hits: {t.id} loses a step"
        else:
            until = state.clock.turn + (1 if option(state, "partisan_suppression_next_turn") else 0)
            ev.append(
                unit_set(
                    t.id,
                    markers=t.markers | {"suppressed"},
                    data={"suppressed_until": until},
                    rule="10.15.10.4",
                    visible_to=watchers(state, t),
                )
            )
            line = f"{n} hit(s): {t.id} Suppressed through turn {until} (C8)"
        rear = _rear(state)
        dis = dict(rear["disrupted"])
        dis[key] = {**dis[key], "attacked": True}
        ev.append(state_set("public", {"rear": {**rear, "disrupted": dis}}, rule="10.15.10.4"))
        return Adjudication(
            ev,
            Result(
                f"Partisan attack on {t.id}",
                {"rolls": list(rolls), "hits": n, "defence": dfn},
                ["10.15.10.4", "C8"],
                [(f"{len(rolls)}{pa['die']}", r, "partisan attack", "10.15.10.4") for r in rolls],
                [line],
            ),
        )


class Atgm(OrderHandler):
    """10.15.10.5: an ATGM with the partisans attacks a detected combat unit in its zone with an
    unmodified D12; the target fires back demoted; simultaneous."""

    type = OrderType(
        "atgm",
        (
            Param("unit", "unit", "ATGM unit with the partisans"),
            Param("target", "enemy", "detected enemy combat unit in the zone"),
        ),
        rule="10.15.10.5",
        doc="ATGM attack with the partisans",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not option(state, "rear_area"):
            return None
        from owsnb.rules.ows.movement import known_enemies

        ex = []
        for a in state.units_of(side):
            if not a.data.get("partisan_zone") or a.hex is None or "expended" in a.markers:
                continue
            for e in known_enemies(state, side):
                if zone_key(state, e.hex) == a.data["partisan_zone"] and counter(e).category in (
                    "ground",
                    "artillery",
                    "hq",
                ):
                    ex.append(self.type.make(side, unit=a.id, target=e.id))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:6])) if ex else None

    def _check(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Any, Any]:
        _need_option(state, order)
        a = args["unit"]  # bound: the side's unit alive on the map; the target: a detected enemy
        if not a.data.get("partisan_zone"):
            raise refuse(
                f"{a.id} is not an ATGM with the partisans",
                "not-partisan-atgm",
                "10.15.10.5",
                order,
            )
        if "expended" in a.markers:
            raise refuse(f"{a.id} has attacked this turn", "expended", "10.15.10.5", order)
        t = args["target"]
        if zone_key(state, t.hex) != a.data["partisan_zone"]:
            raise refuse(
                f"{t.id} is not in the partisans' zone", "out-of-zone", "10.15.10.5", order
            )
        return a, t

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        a, t = self._check(state, order, args)
        from owsnb.rules.ows.ground import lead_die

        return atgm_preview(
            _rt(state)["atgm_die"],
            counter(t).red_shield,
            shift(lead_die(t), -1),
            counter(a).red_shield,
        )

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        a, t = self._check(state, order, args)
        roll = Roller(dice)
        die = parse_die(_rt(state)["atgm_die"])
        r1 = roll(
            die, f"ATGM attack on {t.id} vs shield {counter(t).red_shield}", "10.15.10.5", None
        )
        from owsnb.rules.ows.ground import lead_die

        rdie = shift(lead_die(t), -1)
        r2 = roll(
            rdie,
            f"{t.id} returns fire (demoted) vs shield {counter(a).red_shield}",
            "10.15.10.5",
            None,
        )
        h1, h2 = _hits(r1, counter(t).red_shield), _hits(r2, counter(a).red_shield)
        ev: list[Event] = [
            unit_set(
                a.id,
                markers=a.markers | {"expended"},
                seen_by=a.seen_by | {t.side},
                rule="10.15.10.5",
                visible_to=None,
            )
        ]
        cur = apply_all(state, ev)
        for u, n in ((t, h1), (cur.units[a.id], h2)):
            if n:
                e, _, _ = apply_hits(
                    cur,
                    cur.units[u.id],
                    n,
                    rule="10.15.10.5",
                    cause="missile",
                    visible_to=watchers(cur, cur.units[u.id]),
                )
                ev += e
                cur = apply_all(cur, e)
        return Adjudication(
            ev,
            Result(
                f"ATGM {a.id} vs {t.id}",
                {"hits": {t.id: h1, a.id: h2}},
                ["10.15.10.5"],
                roll.rolls,
                [f"{t.id}: {h1} hit(s); {a.id}: {h2} hit(s) (simultaneous)"],
            ),
        )


HANDLERS = [SecurityZone(), Partisans(), SecurityBattle(), PartisanAttack(), Atgm()]
STEP_EFFECTS = {"6.C.4": reveal}
LEAVE_EFFECTS = {"6.C.4": finish}
