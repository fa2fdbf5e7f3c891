"""Air tasking (6.5) and air combat (9.7).

Paragraphs: 6.5 air tasking order; 6.5.1 strike packages; 6.5.1.1 munitions counters (fighter 2,
bomber 6; organic or munitions, not both); 6.5.1.2 attack missions defend with a demoted die and
cannot initiate; 6.5.2 fuel source rule; 6.5.3 maximum radius 3x (Strike) / 2x (CAP, CAS,
Interdiction) with a tanker or FARP; 6.5.4 tanker capacity and radius ("*" unlimited); 6.5.5
basing; 6.5.6 carrier sorties (one per aircraft box; tanker/AEW not counted; a carrier is a fuel
source only for its own missions); 6.5.7 stealth; 6.5.8 SEAD/EW; 6.5.9 AEW; 6.5.9.1 AEW promotes
air-to-air (advanced); 6.5.10 fighter missions; 9.7 the facilitator orders the hexes; 9.7.1
pairing and advantage; 9.7.2 best die first (optional); 9.7.3 the seven steps; 9.7.4 hit missions
to the Regeneration Box; 2.2.7.4 air defence defends or attacks, marking shield and die; 10.13.2.1
a squadron's day of fuel is paid from a CSS unit in radius when its first mission flies (option
``css``); 9.9.6.1/9.9.6.2 a strike package flies a route (traced with ``fly ... route=``, else the
straight line from its fuel source) to its release hex when the Strike Warfare steps begin, after
air combat: in each hex entered where defensive CAP in range has a detection opportunity (same hex,
or an active radar of its side covering the hex), the CAP intercepts — 1:1 against the unengaged
escorts, the excess at the striker, and interceptors that down their escort go on at the striker;
a CAP intercepts once a turn.

Ruling **A1** (6.5.5, 9.9.7): an airfield's capacity counts squadron base counters; damage lowers it,
and the squadrons beyond it (the last by id) generate no missions until it is repaired. A scenario
that bases more squadrons than an airfield holds is refused when it loads.
Ruling **A2** (9.9.6.2): the defender's CAP always intercepts when it may (as the umpire's automatic
pairing of 9.7.1 does); the striker, on an attack mission, does not fire back en route; the route is
secret (an enemy never sees it); a striker shot down en route goes to the Regeneration Box and makes
no strike.

>>> tanker_support("KC-135", capacity=2, radius=None).capacity, max_radius(3, "strike"), max_radius(3, "cap")
(2, 9, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution, bar_chart_html
from owsnb.kernel.events import Event, note, state_set, unit_move, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    legal_examples,
    option,
    own_unit,
    refuse,
    watchers,
)
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import rung, shift, success_probability
from owsnb.rules.ows.units import counter

__all__ = [
    "ATTACK_MISSIONS", "HVAA", "FIGHTER_MISSIONS", "max_radius", "tanker_support", "Engagement", "AirPreview",
    "engagements", "air_preview", "Fly", "Package", "AirCombat", "HANDLERS", "LEAVE_EFFECTS", "preview",
    "resolve", "airbase_capacity", "grounded_squadrons", "ROUTED", "route_of", "route_plan", "route_preview",
    "RoutePlan", "InterceptRound", "fly_strike_routes",
]

ATTACK_MISSIONS = ("strike", "sead", "cas", "interdiction", "sucap", "bomber")
"""Missions that only defend in air-to-air, demoted (6.5.1.2)."""
HVAA = ("aew", "tanker", "bomber", "transport", "isr", "asw", "ew")
"""High-value airborne assets CAP may engage once fighters are matched (9.7.1)."""
FIGHTER_MISSIONS = ("cap", "dca", "oca", "strike", "sead", "cas", "interdiction", "sucap")
ROUTED = ("strike", "sead", "bomber")
"""Strike packages, which fly a route to their release hex past defensive CAP (9.9.6.1, 9.9.6.2)."""
CAP_MISSIONS = ("cap", "dca", "oca")
AIR_STEPS = ("6.A.1", "6.A.2", "6.A.3", "6.A.4", "6.A.6", "6.A.7")


def max_radius(combat_radius: int, mission: str, tanker: bool = True) -> int:
    """6.5.3: with tanker or FARP support a Strike may go to 3x its combat radius, CAP/CAS/
    Interdiction to 2x; without support, 1x (6.5.2)."""
    if not tanker:
        return combat_radius
    return combat_radius * (3 if mission in ("strike", "sead", "bomber") else 2)


@dataclass(frozen=True)
class TankerSupport:
    name: str
    capacity: int
    radius: int | None

    @property
    def unlimited(self) -> bool:
        return self.radius is None


def tanker_support(name: str, capacity: int, radius: int | None) -> TankerSupport:
    """6.5.4: a tanker supports *capacity* missions (black silhouettes); radius ``None`` = "*"."""
    return TankerSupport(name, capacity, radius)


# -- air tasking (6.5) --------------------------------------------------------------------------------
def airbase_capacity(state: Any, h: Any) -> int | None:
    """6.5.5: squadrons the airfield in *h* can base, less damage (9.9.7); ``None`` off an airfield
    (a carrier is its own base, 6.5.6)."""
    info = state.map.hexes.get(h)
    f = info.features.get("airfield") if info is not None else None
    if not f:
        return None
    dmg = int((info.facts.get("damage") or {}).get("airfield", 0) or 0)
    return max(int(f.get("capacity", 0) or 0) - dmg, 0)


def grounded_squadrons(state: Any, h: Any) -> list[str]:
    """Squadron bases in *h* beyond its airfield's capacity (ruling A1: the last by id), which
    generate no missions until repaired (6.5.5, 9.9.7)."""
    cap = airbase_capacity(state, h)
    if cap is None:
        return []
    based = sorted(u.id for u in state.units.values() if u.hex == h and u.alive and counter(u).category == "air-base")
    return based[cap:]


def _base_unit(state: Any, m: Any) -> Any | None:
    b = counter(m).base
    return state.units.get(b) if b else None


def _sorties_used(state: Any, carrier: Any) -> int:
    return sum(1 for u in state.units.values() if counter(u).base == carrier.id and u.hex is not None
               and counter(u).mission not in ("tanker", "aew"))


def _tanker_load(state: Any, tanker: Any) -> int:
    return sum(1 for u in state.units.values() if u.hex is not None and u.data.get("tanker_id") == tanker.id)


class Fly(OrderHandler):
    """6.5: place an air mission within the combat radius of a fuel source (6.5.2), up to 2x/3x
    with a tanker (6.5.3, 6.5.4); carriers limit sorties (6.5.6)."""

    type = OrderType("fly", (
        Param("mission", "unit", "air mission counter at its base"),
        Param("hex", "hex", "where it flies"),
        Param("tanker", "unit", "supporting tanker mission (6.5.4)", positional=False, optional=True),
        Param("task", "choice", "fighter mission designation (6.5.10)", positional=False, optional=True,
              choices=FIGHTER_MISSIONS),
        Param("route", "hex", "strike route: the hexes flown to the release hex (9.9.6.2; default: straight)",
              positional=False, repeat=True, optional=True),
    ), rule="6.5", doc="place an air mission (air tasking order)")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ready = [u for u in state.units_of(side) if counter(u).is_air and u.box == "base"]
        bases = {m.id: _base_unit(state, m) for m in ready}
        ex = legal_examples(self, state, side, (
            {"mission": m.id, "hex": state.map.label(h)} for m in ready if (b := bases[m.id]) is not None
            and b.hex is not None for h in [b.hex, *b.hex.neighbours()]
            if h in state.map.hexes and h.distance(b.hex) <= int(counter(m).combat_radius or 1)))
        return OrderSpec(side, self.type, FrozenDict(mission=tuple(m.id for m in ready)), tuple(ex[:30])) if ex else None

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        m = own_unit(state, order, args["mission"], "6.5", on_map=False)
        c = counter(m)
        if not c.is_air:
            raise refuse(f"{m.id} is not an air mission", "not-air", "6.5", order)
        if m.box != "base":
            raise refuse(f"{m.id} is not ready at its base (it is {'in ' + m.box if m.box else 'airborne'})", "not-ready",
                         "6.5", order)
        b = _base_unit(state, m)
        if b is None or b.hex is None or not b.alive:
            raise refuse(f"{m.id}'s base is gone: missions of a destroyed base are lost (2.2.4)", "no-base", "6.5.5", order)
        grounded = grounded_squadrons(state, b.hex)
        if b.id in grounded:
            raise refuse(f"{b.id} is beyond the capacity of its damaged airfield ({airbase_capacity(state, b.hex)} "
                         "squadron(s)): no missions until it is repaired (6.5.5, 9.9.7)", "airbase-capacity", "6.5.5",
                         order)
        from owsnb.rules.ows import css as _css

        _css.check_fuel(state, order, b)  # 10.13.2.1: a squadron's day of fuel (option css)
        try:
            h = state.map.hex(args["hex"])
        except Exception:
            raise refuse(f"no hex {args['hex']!r}", "bad-hex", "6.5", order) from None
        mission = args.get("task") or c.mission
        if args.get("route"):
            self._route(state, order, args, b.hex, h, mission)
        if args.get("task") and c.aircraft != "fighter":
            raise refuse("only fighters change mission (6.5.10)", "not-fighter", "6.5.10", order)
        r = int(c.combat_radius or 0)
        d = b.hex.distance(h)
        if counter(b).category == "naval":
            if "suppressed" in b.markers:
                raise refuse(f"{b.id} is damaged and suppressed: no air operations this turn", "suppressed", "9.6.1", order)
            if mission not in ("tanker", "aew") and _sorties_used(state, b) >= counter(b).box_total("aircraft"):
                raise refuse(f"{b.id} generates no more sorties this turn (aircraft boxes left: "
                             f"{counter(b).box_total('aircraft')})", "no-sorties", "6.5.6", order)
        if c.tanker is not None:
            tr = c.tanker.get("radius")
            if tr is not None and d > int(tr):
                raise refuse(f"{h} is beyond the tanker's radius {tr}", "out-of-radius", "6.5.4", order)
            return
        if d <= r:
            if args.get("tanker"):
                self._tanker(state, order, args, h, r)
            return
        if not args.get("tanker"):
            raise refuse(f"{args['hex']} is {d} hexes from {b.id}; {m.id}'s combat radius is {r}: beyond it needs a "
                         "tanker or FARP (6.5.2, 6.5.3)", "out-of-radius", "6.5.2", order)
        if d > max_radius(r, mission):
            raise refuse(f"{args['hex']} is {d} hexes away; a {mission} mission may go at most {max_radius(r, mission)} "
                         f"({'3' if mission in ('strike', 'sead', 'bomber') else '2'}x radius {r})", "beyond-max-radius",
                         "6.5.3", order)
        self._tanker(state, order, args, h, r)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Distribution | None:
        """A strike package's exact odds of reaching its release hex past the defensive CAP the side
        knows of (9.9.6.2); ``None`` for other missions."""
        m = state.units[args["mission"]]
        if (args.get("task") or counter(m).mission) not in ROUTED:
            return None
        data = {"route": list(args["route"])} if args.get("route") else {}
        flown = m.evolve(hex=state.map.hex(args["hex"]), box=None, data=data)
        from dataclasses import replace as _replace

        return route_plan(_replace(state, units=state.units.set({m.id: flown})), m.id).distribution()

    def _route(self, state: Any, order: Order, args: Mapping[str, Any], start: Any, h: Any, mission: str) -> None:
        if mission not in ROUTED:
            raise refuse("only strike packages trace a route (9.9.6.2)", "no-route", "9.9.6.2", order)
        hexes = []
        for lab in args["route"]:
            try:
                hexes.append(state.map.hex(lab))
            except Exception:
                raise refuse(f"no hex {lab!r} on this map", "bad-hex", "9.9.6.2", order) from None
        if hexes[-1] != h or any(a.distance(b) != 1 for a, b in zip([start, *hexes], hexes, strict=False)):
            raise refuse(f"a route is a chain of adjacent hexes from {state.map.label(start)} ending in "
                         f"{state.map.label(h)} (9.9.6.2)", "bad-route", "9.9.6.2", order)
        most = max_radius(int(counter(state.units[args["mission"]]).combat_radius or 0), mission)
        if len(hexes) > most:
            raise refuse(f"the route flies {len(hexes)} hexes: a {mission} mission flies at most {most} (6.5.3)",
                         "route-too-long", "6.5.3", order)

    def _tanker(self, state: Any, order: Order, args: Mapping[str, Any], h: Any, r: int) -> None:
        t = own_unit(state, order, args["tanker"], "6.5.4")
        tc = counter(t)
        if tc.tanker is None:
            raise refuse(f"{t.id} is not a tanker", "not-tanker", "6.5.4", order)
        if _tanker_load(state, t) >= int(tc.tanker.get("capacity", 1)):
            raise refuse(f"{t.id} already supports {tc.tanker.get('capacity')} mission(s) (6.5.4)", "tanker-full", "6.5.4",
                         order)
        if t.hex.distance(h) > r:
            raise refuse(f"the mission must stay within its combat radius ({r}) of its fuel source {t.id}", "out-of-radius",
                         "6.5.2", order)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        m = state.units[args["mission"]]
        h = state.map.hex(args["hex"])
        data: dict[str, Any] = {}
        if args.get("tanker"):
            data["tanker_id"] = args["tanker"]
        if args.get("task"):
            data["mission"] = args["task"]
        if args.get("route"):
            data["route"] = list(args["route"])
        ev: list[Event] = [unit_move(m.id, h, rule="6.5", visible_to=watchers(state, m))]
        b = _base_unit(state, m)
        if b is not None:
            from owsnb.rules.ows import css as _css

            ev += _css.pay_fuel(state, b)  # 10.13.2.1, paid when the squadron's first mission flies
        if data:
            ev.append(unit_set(m.id, data=data, rule="6.5.4" if "tanker_id" in data else "6.5.10",
                               visible_to=m.side if "route" in data else watchers(state, m)))
        return Adjudication(ev, Result(f"{m.id} flies to {state.map.label(h)}", {"hex": state.map.label(h), **data},
                                       ["6.5", "6.5.2"] + (["6.5.3", "6.5.4"] if data.get("tanker_id") else [])))


class Package(OrderHandler):
    """6.5.1/6.5.1.1: build a strike package: load munitions from a co-located ASP (fighters up to 2
    salvos, bombers up to 6; a fighter then gives up its organic attack), name escorts."""

    type = OrderType("package", (
        Param("lead", "unit", "strike mission at its base or airborne"),
        Param("munitions", "int", "salvos loaded from an ASP (6.5.1.1)", positional=False, optional=True),
        Param("asp", "unit", "ASP supplying the munitions", positional=False, optional=True),
        Param("escorts", "unit", "escorting fighters", positional=False, repeat=True, optional=True),
    ), rule="6.5.1", doc="prepare a strike package")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        m = own_unit(state, order, args["lead"], "6.5.1", on_map=False)
        c = counter(m)
        if not c.is_air or c.mission not in ("strike", "sead", "bomber", "cas"):
            raise refuse(f"{m.id} is not a strike mission", "not-strike", "6.5.1", order)
        n = args.get("munitions")
        if n is not None:
            if not str(n).isdigit() or int(n) < 1:
                raise refuse("munitions must be a positive number of salvos", "bad-arguments", "6.5.1.1", order)
            cap_ = int(c.munitions_max or (6 if c.aircraft == "bomber" else 2))
            if int(n) > cap_:
                raise refuse(f"a {c.aircraft or 'fighter'} carries at most {cap_} strike salvos (6.5.1.1)",
                             "too-many-munitions", "6.5.1.1", order)
            if not args.get("asp"):
                raise refuse("name the ASP that supplies the munitions (asp=...)", "bad-arguments", "6.5.1.1", order)
            a = own_unit(state, order, args["asp"], "2.2.2.6")
            if counter(a).category != "asp" or int(counter(a).salvos) < int(n):
                raise refuse(f"{a.id} holds {counter(a).salvos} salvo(s)", "asp-empty", "2.2.2.6", order)
            b = _base_unit(state, m)
            where = m.hex if m.hex is not None else (b.hex if b is not None else None)
            if where is None or where.distance(a.hex) > 0:
                raise refuse(f"{a.id} is not at {m.id}'s airfield", "asp-not-here", "6.5.1.1", order)
        for e in args.get("escorts", ()):
            eu = own_unit(state, order, e, "6.5.1", on_map=False)
            if counter(eu).mission not in CAP_MISSIONS:
                raise refuse(f"{e} is not a fighter in CAP", "not-escort", "6.5.1", order)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        m = state.units[args["lead"]]
        c = counter(m)
        ev: list[Event] = []
        data: dict[str, Any] = {"escorts": list(args.get("escorts", ()))}
        if args.get("munitions"):
            n = int(args["munitions"])
            a = state.units[args["asp"]]
            die = str(a.data.get("munition_die", "d10"))
            attacks = [dict(x) for x in thaw(m.data.get("attacks", ())) if x["id"] != "munitions"]
            attacks.append({"id": "munitions", "die": die, "count": n, "targets": ["ground", "naval"], "range": 1,
                            "flags": ["subsonic"], "auto_resupply": False, "pool": "", "air_to_air": False,
                            "cap_defence": None})
            data["attacks"] = attacks
            if c.aircraft != "bomber":  # 6.5.1.1: organic or munitions, not both
                sp = dict(c.spent)
                for g in c.attacks:
                    if not g.air_to_air:
                        sp[g.key] = g.count
                data["spent"] = sp
            ev.append(unit_set(a.id, data={"salvos": int(counter(a).salvos) - n}, rule="6.5.1.1", visible_to=a.side))
        ev.insert(0, unit_set(m.id, data=data, rule="6.5.1", visible_to=watchers(state, m)))
        return Adjudication(ev, Result(f"Strike package {m.id}", {"munitions": args.get("munitions"),
                                                                  "escorts": data["escorts"]}, ["6.5.1", "6.5.1.1"]))


# -- air combat (9.7) -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Engagement:
    """One shot of air combat: *shooter* rolls *die* against *target*'s *defence* (9.7.3)."""

    shooter: str
    target: str
    die: str
    defence: int
    kind: str = "air-to-air"           # air-to-air, air-defence, sead
    key: str = ""                      # munitions spent (air defence pools, 2.2.7.4)
    notes: tuple[str, ...] = ()

    @property
    def p(self) -> Fraction:
        return success_probability(self.die, self.defence)


def _air(state: Any, h: Any, side: str | None = None) -> list[Any]:
    return [u for u in state.units.values() if u.hex == h and u.alive and counter(u).is_air
            and (side is None or u.side == side)]


def _aa_die(u: Any) -> str | None:
    aa = [a for a in counter(u).attacks if a.air_to_air]
    return aa[0].die if aa else None


def _aa_range(u: Any) -> int:
    aa = [a for a in counter(u).attacks if a.air_to_air]
    return aa[0].range if aa else 0


def _mods_air(state: Any, shooter: Any, target: Any, die: str, kind: str) -> tuple[str, list[str]]:
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
                if e.side == shooter.side and e.hex is not None and s and e.hex.distance(shooter.hex) <= int(s["range"]):
                    k += 1
                    notes.append(f"AEW {e.id} support (6.5.9.1)")
                    break
    if kind == "air-defence":
        if any(e.side == target.side and e.hex == target.hex and counter(e).ew == "demote-sam" for e in state.units.values()):
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
    return shift(die, k), notes


def _pairs_in_hex(state: Any, h: Any) -> list[tuple[Any, Any]]:
    """9.7.1 pairing: the side with more CAP matches fighters 1:1, its excess engages detected HVAA,
    then attack missions, then doubles up; the other side's CAP engage the fighters that engage
    them; attack missions that are engaged fire back (6.5.1.2)."""
    sides = list(state.sides)
    caps = {s: [u for u in _air(state, h, s) if counter(u).mission in CAP_MISSIONS and _aa_die(u)] for s in sides}
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
        t = queue[i] if i < len(queue) else enemy_caps[i % len(enemy_caps)] if enemy_caps else queue[i % len(queue)]
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


def engagements(state: Any, step: str, h: Any, pairs: Sequence[tuple[str, str]] | None = None) -> list[Engagement]:
    """The shots of air-combat *step* in hex *h* (explicit *pairs* ``(shooter, target)`` or the
    automatic pairing of 9.7.1 and the steps of 9.7.3)."""
    out: list[Engagement] = []
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
    elif step == "6.A.1":  # stand-off air-to-air from adjacent hexes, with a radar that detects (6.5.10.1)
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
            ads = [t for t in state.units.values() if t.side != s.side and t.hex == h and t.alive
                   and counter(t).category in ("air-defence", "naval") and counter(t).anti_air and detected(state, t, s.side)]
            for t in ads:
                if step == "6.A.2" and d >= 1 and wpn[0].range >= d and wpn[0].range > max(a.range for a in counter(t).anti_air):
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
    order = {m: i for i, m in enumerate(("bomber", "strike", "sead", "aew", "tanker", "cas", "interdiction", "cap"))}
    return sorted(ts, key=lambda t: (order.get(counter(t).mission, 9), t.id))[0]


def _engagement(state: Any, step: str, s: Any, t: Any) -> Engagement | None:
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
    return Engagement(s.id, t.id, die, counter(t).red_shield, "air-defence", aa[0].key, tuple(notes))


def _tiers(engs: Sequence[Engagement], best_die: bool) -> list[list[Engagement]]:
    if not best_die:
        return [list(engs)]
    by: dict[int, list[Engagement]] = {}
    for e in engs:
        by.setdefault(rung(e.die), []).append(e)
    return [by[k] for k in sorted(by, reverse=True)]


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
                out = out.combine(Distribution.bernoulli(e.p), lambda acc, hit, e=e: acc | {e.target} if hit else acc)
            return out.map(lambda new, killed=killed: tuple(sorted(set(killed) | set(new))))
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
        return f"<AirPreview {len(self.engagements)} shots; " + ", ".join(f"{i}: {float(self.p_hit(i)):.1%}" for i in ids) + ">"

    def _repr_html_(self) -> str:
        from owsnb.display.html import esc, wrap

        rows = "".join(f"<tr><td>{esc(e.shooter)}</td><td>{esc(e.die)}</td><td>{esc(e.target)}</td><td>{esc(e.defence)}</td>"
                       f"<td>{float(e.p):.1%}</td><td class='rule'>{esc('; '.join(e.notes))}</td></tr>" for e in self.engagements)
        ids = sorted({e.target for e in self.engagements})
        chart = bar_chart_html([(i, self.p_hit(i)) for i in ids], caption="P(hit)")
        return wrap(f"<b>Air combat preview</b><table><tr><th>shooter</th><th>die</th><th>target</th><th>defence</th>"
                    f"<th>P</th><th>modifiers</th></tr>{rows}</table>{chart}", repr(self))


def preview(game: Any, hex: str, step: str | None = None, pairs: Sequence[str] | None = None) -> AirPreview:
    """Exact air-combat outcome in *hex* for an air-combat step (default: the current one, else 6.A.4)."""
    state = game.state if hasattr(game, "state") else game
    step = step or (state.clock.step if state.clock.step in AIR_STEPS else "6.A.4")
    h = state.map.hex(hex)
    pp = [tuple(p.split(":")) for p in pairs] if pairs else None
    engs = engagements(state, step, h, pp)
    return AirPreview(engs, air_preview(engs, option(state, "best_die")),
                      ["9.7.3", "9.7.1"] + (["9.7.2"] if option(state, "best_die") else []))


def _resolve_hex(state: Any, step: str, h: Any, engs: Sequence[Engagement], dice: Any) -> tuple[list[Event], Result]:
    from owsnb.kernel.reduce import apply

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
            r = roll(e.die, f"{e.kind}: {e.shooter} ({e.die}) at {e.target} (defence {e.defence})", "9.7.3", vis)
            n = _hits(r, e.defence, critical=e.kind == "sead") if r >= e.defence else 0
            if n:
                new[e.target] = new.get(e.target, 0) + n
            if e.key:
                spent.setdefault(e.shooter, {})
                spent[e.shooter][e.key] = spent[e.shooter].get(e.key, 0) + 1
            if vis is None:
                lines.append(f"{e.shooter} at {e.target}: {'hit' if n else 'miss'} ({r} vs {e.defence})")
        for k, n in new.items():
            hit[k] = hit.get(k, 0) + n
            killed.add(k)
    events: list[Event] = []
    s2 = state
    for uid, keys in spent.items():
        u = state.units[uid]
        sp = dict(counter(u).spent)
        for k, n in keys.items():
            sp[k] = int(sp.get(k, 0)) + n
        events.append(unit_set(uid, data={"spent": sp}, rule="2.2.7.4", visible_to=watchers(state, u)))
    for uid in {e.shooter for e in engs} | {e.target for e in engs}:
        u = state.units[uid]
        if counter(u).is_air and "engaged" not in u.markers:
            events.append(unit_set(uid, markers=u.markers | {"engaged"}, rule="9.7", visible_to=watchers(state, u)))
    for e in events:
        s2 = apply(s2, e)
    for uid, n in hit.items():
        u = s2.units[uid]
        if counter(u).is_air:
            ev = [unit_set(uid, steps=0, hex=None, box="regeneration", markers=frozenset(), rule="9.7.4",
                           visible_to=watchers(s2, u))]
        else:
            ev, _, _ = apply_hits(s2, u, n, rule="9.7.3", cause="air")
        for e in ev:
            s2 = apply(s2, e)
        events += ev
    lab = state.map.label(h)
    if step == "6.A.2":  # stand-off SEAD on a non-emitting target uses a long-range strike allocation per hex
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
    events.append(note(f"Air combat {step} in {lab}: " + (", ".join(f"{k} hit" for k in hit if watchers(state, state.units[k]) is None)
                                                          or "no losses seen"), rule="9.7.3"))
    res = Result(f"Air combat {step} in {lab}", {"hit": sorted(hit), "shots": len(engs)},
                 ["9.7", "9.7.3", "9.7.4"] + (["9.7.2"] if option(state, "best_die") else []), roll.rolls, lines)
    return events, res


class AirCombat(OrderHandler):
    """9.7: the facilitator resolves air combat hex by hex in each of the steps of 9.7.3."""

    type = OrderType("air-combat", (
        Param("hex", "hex", "hex to resolve"),
        Param("pairs", "text", "SHOOTER:TARGET engagements (default: the 9.7.1 pairing)", positional=False,
              repeat=True, optional=True),
    ), rule="9.7", doc="umpire: resolve air combat in a hex for this step", actors="side")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        hexes = _contested(state, state.clock.step)
        if not hexes:
            return None
        return OrderSpec(side, self.type, FrozenDict(hex=tuple(hexes)),
                         tuple(self.type.make(side, hex=h) for h in hexes))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if state.clock.step not in AIR_STEPS:
            raise refuse("air combat is resolved in the air-combat steps 6.A.1-6.A.7", "wrong-step", "9.7.3", order)
        try:
            h = state.map.hex(args["hex"])
        except Exception:
            raise refuse(f"no hex {args['hex']!r}", "bad-hex", "9.7", order) from None
        lab = state.map.label(h)
        if lab in (thaw(state.public.get("air_resolved") or {}).get(state.clock.step) or ()):
            raise refuse(f"air combat in {lab} is already resolved for this step", "resolved", "9.7", order)
        for p in args.get("pairs", ()):
            a, _, b = p.partition(":")
            if a not in state.units or b not in state.units:
                raise refuse(f"pair {p!r}: write SHOOTER:TARGET with unit ids", "bad-pair", "9.7.1", order)
            s, t = state.units[a], state.units[b]
            if s.side == t.side or not detected(state, t, s.side):
                raise refuse(f"{a} cannot engage {b}: not a detected enemy", "target-not-detected", "9.9.4", order)
            if t.hex != h:
                raise refuse(f"{b} is not in {lab}", "bad-pair", "9.7", order)
            if counter(s).is_air and counter(s).mission in ATTACK_MISSIONS and state.clock.step == "6.A.4":
                raise refuse(f"{a} is on an attack mission: it cannot initiate air-to-air (6.5.1.2)", "cannot-initiate",
                             "6.5.1.2", order)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> AirPreview:
        return preview(state, args["hex"], state.clock.step, args.get("pairs"))

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        h = state.map.hex(args["hex"])
        pp = [tuple(p.split(":")) for p in args["pairs"]] if args.get("pairs") else None
        engs = engagements(state, state.clock.step, h, pp)
        events, res = _resolve_hex(state, state.clock.step, h, engs, dice)
        return Adjudication(events, res)


# -- air strikes: route and en-route intercepts (9.9.6.1, 9.9.6.2) ----------------------------------------
def route_of(state: Any, m: Any) -> list[Any]:
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


def _radar_covers(state: Any, side: str, h: Any) -> bool:
    """An active radar of *side* in range of *h*: an emitting radar, or an airborne AEW (9.9.6.2)."""
    for u in state.units.values():
        if u.side != side or u.hex is None or not u.alive:
            continue
        c = counter(u)
        aew, radar = c.sensor("aew"), c.sensor("radar")
        if aew is not None and c.is_air and u.hex.distance(h) <= int(aew["range"]):
            return True
        if radar is not None and "emitting" in u.markers and u.hex.distance(h) <= int(radar["range"]):
            return True
    return False


@dataclass(frozen=True)
class InterceptRound:
    """One round of 9.9.6.2 in hex *hex*: the defensive CAP intercepting there, paired 1:1 with the
    package's unengaged escorts (in order); the excess engage the striker, and interceptors that
    shoot down their escort go on to engage it. ``shots`` holds every possible engagement."""

    hex: str
    interceptors: tuple[str, ...]
    shots: FrozenDict

    def p(self, a: str, b: str) -> Fraction:
        """P(*a* hits *b*): 0 if *a* has no air-to-air die."""
        e = self.shots.get((a, b))
        return e.p if e is not None else Fraction(0)

    def pairs(self, escorts: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
        n = min(len(self.interceptors), len(escorts))
        return list(zip(self.interceptors[:n], escorts[:n], strict=True)), list(self.interceptors[n:])

    def distribution(self, escorts: tuple[str, ...], striker: str) -> Distribution:
        """Exact ``(escorts alive, striker alive)`` after the round."""
        pairs, excess = self.pairs(escorts)
        d = Distribution.point((frozenset(), frozenset(), False))
        for i, e in pairs:
            d = d.combine(Distribution.bernoulli(self.p(i, e)), lambda a, h, e=e: (a[0] | {e} if h else a[0], *a[1:]))
            d = d.combine(Distribution.bernoulli(self.p(e, i)), lambda a, h, i=i: (a[0], a[1] | {i} if h else a[1], a[2]))
        for x in excess:
            d = d.combine(Distribution.bernoulli(self.p(x, striker)), lambda a, h: (a[0], a[1], a[2] or h))

        def second(a: tuple) -> Distribution:
            miss = Fraction(1)
            for i, e in pairs:
                if e in a[0] and i not in a[1]:
                    miss *= 1 - self.p(i, striker)
            return Distribution.bernoulli(1 - miss).map(
                lambda h: (tuple(x for x in escorts if x not in a[0]), not (a[2] or h)))

        return d.bind(second)

    def resolve(self, escorts: tuple[str, ...], striker: str, roll: Any, visible: Any = None
                ) -> tuple[tuple[str, ...], bool, list[str]]:
        """Roll the round: escorts alive, striker alive, units hit."""
        vis = visible or (lambda a, b: None)
        pairs, excess = self.pairs(escorts)

        def fire(a: str, b: str) -> bool:
            e = self.shots.get((a, b))
            if e is None:  # no air-to-air die: it does not shoot
                return False
            return roll(e.die, f"{a} engages {b} (defence {e.defence}) en route", "9.9.6.2", vis(a, b)) >= e.defence

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
        d = Distribution.point((self.escorts, True))
        for rnd in self.rounds:
            d = d.bind(lambda st, rnd=rnd: rnd.distribution(st[0], self.striker) if st[1] else Distribution.point(st))
        return d.map(lambda st: "arrives" if st[1] else "shot down", label=f"{self.striker} en route (9.9.6.2)")

    def resolve(self, roll: Any, visible: Any = None) -> tuple[bool, list[str], list[str]]:
        """Fly it: arrived, units hit, hexes where a round was fought."""
        escorts, alive, hit, fought = self.escorts, True, [], []
        for rnd in self.rounds:
            if not alive:
                break
            escorts, alive, h = rnd.resolve(escorts, self.striker, roll, visible)
            hit += h
            fought.append(rnd.hex)
        return alive, hit, fought


def route_plan(state: Any, mission: str) -> RoutePlan:
    """The 9.9.6.2 flight of strike package *mission* as *state* knows it (a side's view holds only
    the defensive CAP that side has detected): escorts unengaged so far fly with it 1:1."""
    m = state.units[mission]
    side = m.side
    escorts = tuple(e for e in (m.data.get("escorts") or ()) if e in state.units and state.units[e].alive
                    and state.units[e].hex is not None and "engaged" not in state.units[e].markers)
    turn = state.clock.turn
    used: set[str] = set()
    rounds = []
    for h in route_of(state, m):
        caps = []
        for c in sorted(state.units.values(), key=lambda u: u.id):
            cc = counter(c)
            if c.side == side or c.hex is None or not c.alive or cc.mission not in CAP_MISSIONS or not _aa_die(c):
                continue
            if c.id in used or int(c.data.get("intercepted", 0) or 0) == turn:
                continue
            d = c.hex.distance(h)
            if d > (1 if _aa_range(c) >= 1 else 0) or not (d == 0 or _radar_covers(state, c.side, h)):
                continue
            caps.append(c)
        if not caps:
            continue
        used |= {c.id for c in caps}
        ids = tuple(c.id for c in caps)
        shots = {}
        for c in caps:
            for t in (*escorts, m.id):
                for a, b in ((c.id, t), (t, c.id)):
                    e = _engagement(state, "6.A.4", state.units[a], state.units[b])
                    if e is not None:
                        shots[(a, b)] = e
        rounds.append(InterceptRound(state.map.label(h), ids, FrozenDict(shots)))
    return RoutePlan(m.id, escorts, tuple(rounds))


def route_preview(game: Any, mission: str) -> Distribution:
    """Exact odds that strike package *mission* reaches its release hex (9.9.6.2), as the umpire knows it."""
    state = game.state if hasattr(game, "state") else game
    return route_plan(state, mission).distribution()


def fly_strike_routes(state: Any, dice: Any) -> list[Event]:
    """6.B begins: every strike package flies its route to its release hex; defensive CAP with a
    detection opportunity intercepts it hex by hex (9.9.6.1, 9.9.6.2) after the air-combat steps."""
    from owsnb.kernel.reduce import apply

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

        # the aircraft that meet see each other (8.3.2): the rolls are public
        arrived, hit, fought = plan.resolve(roll, lambda a, b: None)
        ev: list[Event] = []
        engaged = {*plan.escorts, m.id, *(i for r in plan.rounds if r.hex in fought for i in r.interceptors)}
        for uid in sorted(engaged):
            u = cur.units[uid]
            changes: dict[str, Any] = {"markers": u.markers | {"engaged", "tacsit1"},
                                       "seen_by": u.seen_by | {enemy if u.side == m.side else m.side}}
            if u.side != m.side:
                changes["data"] = {"intercepted": cur.clock.turn}  # once a turn
            ev.append(unit_set(uid, rule="9.9.6.2", visible_to=None, **changes))
        for uid in hit:
            ev.append(unit_set(uid, steps=0, hex=None, box="regeneration", markers=frozenset(), rule="9.7.4",
                               visible_to=None))
        ev.append(note(f"{m.id} flies to {cur.map.label(m.hex)}: intercepted in {', '.join(fought)}; "
                       + ("it arrives" if arrived else "shot down en route")
                       + (f"; hit: {', '.join(hit)}" if hit else ""), rule="9.9.6.2"))
        for e in ev:
            cur = apply(cur, e)
        events += ev
    return events


def _contested(state: Any, step: str) -> list[str]:
    done = set((thaw(state.public.get("air_resolved") or {})).get(step) or ())
    hexes = []
    for h in sorted({u.hex for u in state.units.values() if u.alive and u.hex is not None and counter(u).is_air},
                    key=lambda x: state.map.label(x)):
        lab = state.map.label(h)
        if lab not in done and engagements(state, step, h):
            hexes.append(lab)
    return hexes


def _leave(step: str):  # noqa: ANN202
    def fn(state: Any, dice: Any) -> list[Event]:
        """Hexes the facilitator has not resolved are resolved in label order when the step ends."""
        from owsnb.kernel.reduce import apply

        events: list[Event] = []
        s = state
        for lab in _contested(state, step):
            engs = engagements(s, step, s.map.hex(lab))
            evs, _ = _resolve_hex(s, step, s.map.hex(lab), engs, dice)
            for e in evs:
                s = apply(s, e)
            events += evs
        return events

    return fn


def resolve(game: Any, hex: str, pairs: Sequence[str] | None = None) -> Result:
    """Resolve air combat in *hex* for the current air step by submitting ``umpire: air-combat``."""
    from owsnb.rules.ows.common import submit

    return submit(game, AirCombat.type.make("umpire", hex=hex, pairs=list(pairs) if pairs else None))


HANDLERS = [Fly(), Package(), AirCombat()]
LEAVE_EFFECTS = {s: _leave(s) for s in AIR_STEPS}
STEP_EFFECTS = {"6.B.1": fly_strike_routes}
PRIVATE_KEYS = ("route",)
UNIT_FIELDS: dict[str, tuple[Any, Any]] = {
    "route": (list[str], []),  # 9.9.6.2 a strike package's traced route (hex labels), secret
    "intercepted": (int, 0),  # 9.9.6.2 turn a defensive CAP last intercepted a package en route
}
