"""Ground movement (10.9-10.12, 10.15.7, 11.1.3, 6.5.10.4): where a ground unit may go and how its move
is walked.

Paragraphs: 10.10 ground modes wheeled 15, tracked 10, foot 2, ski 4 MP; 10.10.1 Movement Chart
costs by terrain and weather (M1 scaled by hex size, M4 roads and permanent bridges), a unit may
always move one hex unless NP, it stops when the next hex costs more than it has left; 10.10.2
disorganized movement; 10.10.3 zones of control; 10.10.3.1 entering a ZOC stops; 10.10.3.2 bypass
through a ZOC hex held by a friendly unit (+2 MP); 10.10.3.3 leaving a ZOC (one hex into another
ZOC, or +2 MP to disengage); 10.4.1 reserves move half; 10.15.7 suppressed units move one hex;
10.15.8.1 a landed force advances one hex; 11.1.3 out of supply halves MP; 10.9 stacking; 10.11
bridges across major rivers (+2 MP to place and to cross, 10 steps a turn); 10.12 obstacles;
10.15.10.4 disrupted partisan zones (+2 MP); M3 the move is planned on what the side knows and
walked against the truth; 6.5.10.4 Interdiction attacks a ground mover on the Fires Effects Table
and halts it if it damages or suppresses it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, hex_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.orders import Order
from owsnb.kernel.ruleset import Adjudication
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import Result, Roller, watchers
from owsnb.rules.ows.movement.basics import (
    GROUND_CATEGORIES,
    _moved,
    _movement_table,
    _watching,
    hex_km,
    is_light,
    is_mech,
    known_enemies,
    mobility,
    ptable,
    rear_zone,
    rsoi_rule,
    scale_factor,
)
from owsnb.rules.ows.units import counter


# -- zones of control (10.10.3) -----------------------------------------------------------------------
def exerts_zoc(state: StateLike, unit: Any, stack: Iterable[Any] = ()) -> bool:
    """10.10.3: on 20 km maps motorised/mechanised formations of 2+ steps; on 10 km maps any
    motorised/mechanised battalion, and light infantry with 2+ battalions stacked; suppressed
    units exert none and do not count (10.15.7)."""
    c = counter(unit)
    if c.category != "ground" or not unit.alive or unit.hex is None or "suppressed" in unit.markers:
        return False
    if c.subtype in ("partisan", "security-zone"):
        return False
    zt = _movement_table(state).get("zoc", {})
    small = hex_km(state) < 15
    if is_mech(unit):
        return unit.steps >= (1 if small else int(zt.get("min_steps_20km", 2)))
    if small and is_light(unit):
        light = sum(
            u.steps
            for u in stack
            if is_light(u) and "suppressed" not in u.markers and u.side == unit.side
        )
        return light >= int(zt.get("light_battalions_10km", 2))
    return False


def zoc_hexes(state: StateLike, enemies: Iterable[Any]) -> set[Hex]:
    """Hexes in the ZOC of these (enemy) units: their hexes and the hexes next to them."""
    by_hex: dict[Hex, list[Any]] = {}
    for u in enemies:
        if u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u)
    out: set[Hex] = set()
    for h, us in by_hex.items():
        if any(exerts_zoc(state, u, us) for u in us):
            out.add(h)
            out.update(n for n in h.neighbours() if n in state.map.hexes)
    return out


# -- stacking (10.9, 10.11) ---------------------------------------------------------------------------
def stacking_limit(state: StateLike) -> int | None:
    """Steps per hex on this map (10.9): 9 on 20 km maps, 5 on 10 km maps; none on larger hexes
    unless the scenario's table says so."""
    t = _movement_table(state)
    km = hex_km(state)
    lim = {float(k): int(v) for k, v in (t.get("stacking") or {}).items()}
    if lim and km <= max(lim) * 1.25:
        best = min(lim, key=lambda k: abs(k - km))
        return lim[best]
    other = t.get("stacking_other")
    return int(other) if other is not None else None


def stack_steps(state: StateLike, units: Iterable[Any], h: Hex | None = None) -> int:
    """Steps counted against stacking (10.9): HQ and SOF free, light infantry in urban terrain free,
    an engineer counts as one step (10.11); only ground counters count."""
    urban = (
        h is not None
        and state.map.hexes.get(h) is not None
        and state.map.hexes[h].terrain == "urban"
    )
    n = 0
    for u in units:
        c = counter(u)
        if (
            not u.alive
            or c.category not in GROUND_CATEGORIES
            or c.category == "hq"
            or c.category == "transport"
        ):
            continue
        if c.subtype in ("partisan", "security-zone"):
            continue
        if urban and is_light(u):
            continue
        n += 1 if c.category == "engineer" else u.steps
    return n


def stack_ok(state: StateLike, unit: Any, h: Hex, others: Iterable[Any] | None = None) -> bool:
    """May *unit* end its move in *h* without exceeding the stacking limit (10.9)?"""
    lim = stacking_limit(state)
    if lim is None:
        return True
    if others is None:
        others = [
            u
            for u in state.units.values()
            if u.hex == h and u.side == unit.side and u.id != unit.id
        ]
    return stack_steps(state, [*others, unit], h) <= lim


# -- terrain costs (10.10.1) --------------------------------------------------------------------------
_NP = None


def _cost_value(v: Any) -> float | None:
    if v is None or (isinstance(v, str) and v.strip().upper() == "NP"):
        return None
    return float(v)


def terrain_cost(
    state: StateLike, terrain: str, mode: str, weather: str | None = None
) -> float | None:
    """MP to enter a hex of *terrain* by *mode* in *weather* (the Movement Chart, placeholders);
    ``None`` = NP. Water is NP for ground units."""
    t = _movement_table(state)
    if terrain in t.get("water", ()):
        return None
    al = t.get("aliases", {})
    terr = al.get(terrain, terrain)
    rows = t["terrain"].get(terr) or t["terrain"]["clear"]
    w = weather or "clear"
    w = al.get(w, w)
    row = rows.get(w) or rows["clear"]
    return _cost_value(row.get(mode))


def _weather(state: StateLike) -> str:
    return str(state.public.get("weather") or "clear")


@dataclass
class _CostModel:
    """Per map/weather/mode precomputed costs (a small cache keeps a reference to the map)."""

    map: Any
    hex_cost: dict[Hex, float | None]
    edge_cost: dict[
        tuple[Hex, Hex], Any
    ]  # (a, b) ordered -> cost of a->b replacing the hex cost, or None (NP)


_COST_CACHE: list[tuple[tuple, Any, _CostModel]] = []


def _cost_model(state: StateLike, mode: str) -> _CostModel:
    w = _weather(state)
    scale = scale_factor(state)
    tables_ref = state.tables.get("movement") if hasattr(state.tables, "get") else None
    key = (w, mode, scale, id(tables_ref))
    for k, m, model in _COST_CACHE:
        if k == key and m is state.map:
            return model
    t = _movement_table(state)
    per_terrain: dict[str, float | None] = {}
    hex_cost: dict[Hex, float | None] = {}
    for h, info in state.map.hexes.items():
        terr = info.terrain
        if terr not in per_terrain:
            c = terrain_cost(state, terr, mode, w)
            per_terrain[terr] = None if c is None else c * scale
        hex_cost[h] = per_terrain[terr]
    hs = t.get("hexsides", {})
    al = t.get("aliases", {})
    ww = al.get(w, w)
    road_row = hs.get("road", {})
    road_row = road_row.get(ww) or road_row.get("clear") or {}
    road = _cost_value(road_row.get(mode)) if road_row else None
    river_add = (
        _cost_value((hs.get("river") or {}).get(mode))
        if isinstance(hs.get("river"), Mapping)
        else None
    )
    cross = float(t.get("bridge", {}).get("cross_mp", 2))
    edge_cost: dict[tuple[Hex, Hex], Any] = {}
    for (a, b), feats in state.map.edges.items():
        for x, y in ((a, b), (b, a)):
            if y not in hex_cost:
                continue
            base = hex_cost[y]
            if "road" in feats and road is not None:
                edge_cost[(x, y)] = road * scale
                continue
            if base is None:
                continue
            if "major-river" in feats:
                owners = frozenset(
                    f["side"]
                    for f in (
                        state.map.hexes[x].facts.get("bridge"),
                        state.map.hexes[y].facts.get("bridge"),
                    )
                    if f
                )
                edge_cost[(x, y)] = ("bridge", base + cross * scale, owners) if owners else None
            elif "river" in feats:
                edge_cost[(x, y)] = base + (river_add if river_add is not None else 0.0) * scale
    model = _CostModel(state.map, hex_cost, edge_cost)
    _COST_CACHE.append((key, state.map, model))
    if len(_COST_CACHE) > 12:
        _COST_CACHE.pop(0)
    return model


def path_cost(state: StateLike, unit: Any, path: Sequence[Hex]) -> float | None:
    """Terrain and hexside cost of a path for *unit* (no ZOC extras); ``None`` if a step is NP."""
    model = _cost_model(state, mobility(unit))
    total = 0.0
    for a, b in zip(path, path[1:], strict=False):
        c = _step(model, a, b, unit.side)
        if c is None:
            return None
        total += c
    return total


_MISSING = object()


def _step(model: _CostModel, a: Hex, b: Hex, side: str | None = None) -> float | None:
    """MP to step from *a* into *b*; ``None`` = NP. Engineer bridges serve their own side (10.11)."""
    e = model.edge_cost.get((a, b), _MISSING)
    if e is _MISSING:
        return model.hex_cost.get(b)
    if isinstance(e, tuple):
        return e[1] if side is None or side in e[2] else None
    return e


def _cheaper(new: float, old: float) -> bool:
    """Does a new MP cost replace an old one in a search? Only if cheaper by more than float noise
    (1e-9 MP): the same costs summed in another order tie, and the way found first stays."""
    return new + 1e-9 < old


def _bridge_step(model: _CostModel, a: Hex, b: Hex) -> bool:
    return isinstance(model.edge_cost.get((a, b)), tuple)


def bridge_place_mp(state: StateLike) -> float:
    """MP an engineer spends to place a bridge (10.11.1: +2, scaled by hex size, M1)."""
    return float(_movement_table(state).get("bridge", {}).get("place_mp", 2)) * scale_factor(state)


# -- movement points (10.10, 10.4.1, 10.15.7, 11.1.3, 10.10.2) ---------------------------------------
@dataclass(frozen=True)
class Allowance:
    """What a unit may spend: its mode, MP and why (each halving or limit named)."""

    mode: str
    mp: float
    max_hexes: int | None = None
    reasons: tuple[str, ...] = ()


def movement_points(
    state: StateLike,
    unit: Any,
    *,
    exploit: bool = False,
    disorganized: bool = False,
    react: bool = False,
) -> Allowance:
    """10.10 MP of *unit* now, with the halvings of 10.4.1 (reserve, exploitation, reaction),
    11.1.3 (out of supply) and the one-hex limit of 10.15.7 (suppressed) and 10.15.8 (landing)."""
    t = _movement_table(state)
    mode = mobility(unit)
    if not mode:
        return Allowance("", 0.0, 0, ("no movement mode",))
    reasons = [f"{mode} {t['modes'][mode]} MP (10.10)"]
    mp = float(t["modes"][mode])
    if disorganized:
        mode = "wheeled"
        mp = float(t["modes"]["wheeled"])
        reasons = [f"disorganized movement at the wheeled rate {int(mp)} MP (10.10.2)"]
    if exploit or react or "reserve" in unit.markers:
        mp = math.floor(mp / 2)
        reasons.append(
            "half MP, rounded down: "
            + (
                "exploitation (3.G)"
                if exploit
                else "reaction (10.4.1.1.1)"
                if react
                else "reserve (10.4.1)"
            )
        )
    if "out-of-supply" in unit.markers:
        mp = math.floor(mp / 2)
        reasons.append("half MP: out of supply (11.1.3)")
    max_hexes = None
    if "suppressed" in unit.markers and not disorganized:
        max_hexes = 1
        reasons.append("suppressed: one hex (10.15.7)")
    if int(unit.data.get("landed", 0) or 0) == state.clock.turn:
        max_hexes = 1
        reasons.append("landed this turn: may advance one hex (10.15.8.1)")
    return Allowance(mode, float(mp), max_hexes, tuple(reasons))


# -- ground reach (10.10.1, 10.10.3) ------------------------------------------------------------------
@dataclass
class GroundReach:
    """Where a ground unit may go this turn, as its side knows (plain data for the widgets).

    ``cost[h]`` is the MP spent to end in *h*; ``ends`` are the hexes it may end in (stacking);
    ``path_to(h)`` the cheapest way there; ``stops`` are hexes where it would have to stop (ZOC).
    """

    unit: str
    start: Hex
    allowance: Allowance
    cost: dict[Hex, float] = field(default_factory=dict)
    parent: dict[Hex, Hex] = field(default_factory=dict)
    ends: set[Hex] = field(default_factory=set)
    zoc: set[Hex] = field(default_factory=set)
    stops: set[Hex] = field(default_factory=set)
    bypass: set[Hex] = field(default_factory=set)
    blocked: dict[Hex, str] = field(default_factory=dict)

    def path_to(self, h: Hex) -> tuple[Hex, ...]:
        if h not in self.cost:
            raise KeyError(f"{h} is not in reach")
        out = [h]
        while out[-1] in self.parent:
            out.append(self.parent[out[-1]])
        return tuple(reversed(out))

    def costs(self) -> dict[Hex, float]:
        """hex -> cost of the hexes the unit may end its move in (the widgets' ``reach``)."""
        return {h: c for h, c in self.cost.items() if h in self.ends}

    def __contains__(self, h: object) -> bool:
        return h in self.ends

    def __len__(self) -> int:
        return len(self.ends)


def _full_bridges(state: StateLike, unit: Any) -> set[Hex]:
    """Bridge sites of *unit*'s side that cannot take its steps this turn (10.11: 10 steps a turn)."""
    if unit.side not in state.sides:
        return set()
    use = thaw(state.sides[unit.side].private.get("bridge_use") or {})
    if int(use.get("turn", 0) or 0) != state.clock.turn:
        return set()
    cap = int(_movement_table(state).get("bridge", {}).get("steps_per_turn", 10))
    n = 1 if counter(unit).category == "engineer" else unit.steps
    out = set()
    for lab, k in (use.get("steps") or {}).items():
        if int(k) + n > cap:
            try:
                out.add(state.map.hex(lab))
            except Exception:
                continue
    return out


def _partisan_zones(state: StateLike, side: str) -> set[Hex]:
    """Disrupted partisan zones hostile to *side* (10.15.10.4): +2 MP per hex entered."""
    rear = state.public.get("rear") or {}
    out = set()
    for z in (rear.get("disrupted") or {}).values():
        if z.get("side") != side and z.get("zone") is not None:
            out.add(Hex(*z["zone"]))
    return out


def ground_reach(
    state: StateLike,
    unit: Any,
    *,
    mp: float | None = None,
    exploit: bool = False,
    disorganized: bool = False,
    react: bool = False,
    side: str | None = None,
) -> GroundReach:
    """Every hex *unit* can reach this turn (10.10-10.10.3), as *side* (default its own) knows.

    Costs come from the Movement Chart for the weather in force; a unit may always move one hex
    unless NP (10.10.1); entering an enemy ZOC stops it unless a friendly unit holds the hex
    (bypass, 10.10.3.2); leaving a ZOC hex costs +2 MP except the one-hex step from a starting ZOC
    hex into another ZOC hex (10.10.3.3); enemy-held hexes cannot be entered; the hexes it may end
    in respect stacking (10.9). ``mp`` overrides the allowance (used by property tests).
    """
    side = side or unit.side
    allow = movement_points(state, unit, exploit=exploit, disorganized=disorganized, react=react)
    if mp is not None:
        allow = Allowance(
            allow.mode, float(mp), allow.max_hexes, (*allow.reasons, f"{mp} MP given")
        )
    start = unit.hex
    out = GroundReach(unit.id, start, allow)
    if start is None or not allow.mode:
        return out
    model = _cost_model(state, allow.mode)
    enemies = known_enemies(state, side)
    enemy_hexes = {
        u.hex for u in enemies if counter(u).category not in ("air-mission", "naval", "submarine")
    }
    zoc = zoc_hexes(state, enemies)
    friends: dict[Hex, list[Any]] = {}
    for u in state.units.values():
        if u.side == unit.side and u.hex is not None and u.id != unit.id and u.alive:
            friends.setdefault(u.hex, []).append(u)
    occupied = {
        h for h, us in friends.items() if any(counter(x).category in GROUND_CATEGORIES for x in us)
    }
    pz = _partisan_zones(state, unit.side)
    pz_mp = float(_movement_table(state).get("partisan_zone_mp", 2)) if pz else 0.0
    zt = _movement_table(state).get("zoc", {})
    by_mp, dis_mp = float(zt.get("bypass_mp", 2)), float(zt.get("disengage_mp", 2))
    budget = allow.mp
    eps = 1e-9
    full = _full_bridges(state, unit)
    out.zoc = zoc
    hexes = state.map.hexes
    zone_cache: dict[Hex, bool] = {}

    def in_pz(h: Hex) -> bool:
        if not pz:
            return False
        v = zone_cache.get(h)
        if v is None:
            v = rear_zone(state, h) in pz
            zone_cache[h] = v
        return v

    # a label is (MP spent, hexes entered); a hex is reached anew only for fewer MP
    def moves(h: Hex, label: tuple[float, int]) -> Iterator[tuple[Hex, tuple[float, int]]]:
        d, n_hex = label
        if h != start and ((h in zoc and h not in occupied) or d >= budget - eps):
            return  # stopped by a ZOC (10.10.3.1) or out of MP
        if allow.max_hexes is not None and n_hex >= allow.max_hexes:
            return
        in_zoc = h in zoc
        for n in h.neighbours():
            if n not in hexes:
                continue
            if n in enemy_hexes:
                out.blocked.setdefault(n, "enemy unit (10.10)")
                continue
            c = _step(model, h, n, unit.side)
            if c is None:
                out.blocked.setdefault(n, "NP (10.10.1)")
                continue
            if full and (h in full or n in full) and _bridge_step(model, h, n):
                out.blocked.setdefault(n, "the bridge has carried 10 steps this turn (10.11)")
                continue
            if in_zoc and (h != start or n not in zoc):
                c += by_mp if h != start else dis_mp
            if pz_mp and in_pz(n):
                c += pz_mp
            nd = d + c
            if nd > budget + eps and h != start:
                continue  # 10.10.1: the first hex is always allowed
            yield n, (nd, n_hex + 1)

    def cheaper(new: tuple[float, int], old: tuple[float, int]) -> bool:
        return new[0] + 1e-9 < old[0]  # as _cheaper, on the MP

    found = search(start, moves, zero=(0.0, 0), better=cheaper)
    out.cost = {h: d for h, (d, _) in found.labels.items()}
    out.parent = found.parent
    for h in out.cost:  # the ZOC hexes reached: a stop, or a bypass through a friend (10.10.3.2)
        if h != start and h in zoc:
            (out.bypass if h in occupied else out.stops).add(h)
    cost = out.cost
    lim = stacking_limit(state)
    for h in cost:
        if h == start or lim is None:
            out.ends.add(h)
        elif stack_steps(state, [*friends.get(h, ()), unit], h) <= lim:
            out.ends.add(h)
        else:
            out.blocked.setdefault(h, f"stacking limit {lim} steps (10.9)")
    return out


# -- refusals shared by the ground orders (10.3, 10.4, 5.1.1) ------------------------------------
def _ground_movers(state: StateLike, side: str) -> list[Any]:
    out = []
    for u in state.units_of(side):
        c = counter(u)
        if u.hex is None or not u.alive or c.category not in GROUND_CATEGORIES:
            continue
        if not mobility(u):
            continue
        out.append(u)
    return out


def _ground_checks(
    state: StateLike, order: Order | None, unit: Any, *, exploit: bool = False, react: bool = False
) -> None:
    """Refusals shared by every ground move (10.3 3.C, 10.4, 5.1.1)."""
    c = counter(unit)
    if c.category not in GROUND_CATEGORIES or not mobility(unit):
        raise refuse(f"{unit.id} does not move on the ground", "not-ground", "10.10", order)
    if unit.data.get("aboard"):
        raise refuse(f"{unit.id} is aboard a ship", "aboard", "5.1.1", order)
    if "rsoi" in unit.markers:
        rule = rsoi_rule(unit)
        raise refuse(
            f"{unit.id} is in RSO&I and cannot move until the marker comes off ({rule}, 2.3.1)",
            "rsoi",
            rule,
            order,
        )
    m = unit.data.get("moved") or {}
    if (
        int(m.get("turn", 0) or 0) == state.clock.turn
        and m.get("step") == "6.C.3"
        and not exploit
        and not react
        and not m.get("bridge_continue")
    ):
        raise refuse(
            f"{unit.id} has already moved this Ground phase", "already-moved", "10.3", order
        )
    if exploit and int(m.get("turn", 0) or 0) == state.clock.turn and m.get("exploit"):
        raise refuse(
            f"{unit.id} has already made its exploitation move", "already-moved", "10.3", order
        )
    from owsnb.rules.ows import ground as _g

    _g.check_may_act(state, order, unit, "move" if not exploit else "exploit", react=react)


# -- adjudication (M3, 10.9-10.12) ------------------------------------------------------------------
def _ground_move(state: GameState, plan: Mapping[str, Any], dice: Any, verb: str) -> Adjudication:
    """Walk the planned path against the truth (M3): a hidden enemy unit in the way halts the move
    before it (and is detected); a hidden ZOC halts it on entering; interdiction (6.5.10.4) may
    halt it."""
    u = plan["unit"]
    r: GroundReach = plan["reach"]
    path: list[Hex] = plan["path"]
    roll = Roller(dice)
    events: list[Event] = []
    lines: list[str] = []
    rules = ["10.10", "10.10.1"]
    if plan.get("obstacle"):
        vis = watchers(state, u)
        ev = [
            hex_set(u.hex, {"obstacle": {"side": u.side, "turn": state.clock.turn}}, rule="10.12"),
            unit_set(
                u.id, data={"moved": _moved(state, u, 0, "6.C.3")}, rule="10.12", visible_to=vis
            ),
        ]
        return Adjudication(
            ev,
            Result(
                f"{u.id} places an obstacle in {state.map.label(u.hex)}",
                {"obstacle": state.map.label(u.hex)},
                ["10.12"],
                [],
                ["an obstacle demotes the attacker's die on the GCAT (10.12)"],
            ),
        )
    truth_enemies = [
        e for e in state.units.values() if e.side != u.side and e.hex is not None and e.alive
    ]
    true_zoc = zoc_hexes(state, truth_enemies)
    blockers = {
        e.hex: e for e in truth_enemies if counter(e).category in GROUND_CATEGORIES + ("sof",)
    }
    occupied = {
        x.hex
        for x in state.units.values()
        if x.side == u.side
        and x.id != u.id
        and x.hex is not None
        and counter(x).category in GROUND_CATEGORIES
    }
    walked = [path[0]]
    used_missions: set[str] = set()
    halted = None
    model = _cost_model(state, r.allowance.mode)
    bridge_steps = 0
    for i, h in enumerate(path[1:], start=1):
        lab = state.map.label(h)
        if h in blockers:
            e = blockers[h]
            halted = f"contact: an enemy unit holds {lab} (M3)"
            events.append(
                unit_set(e.id, seen_by=e.seen_by | {u.side}, rule="8.3.2.1", visible_to=None)
            )
            break
        if _bridge_step(model, walked[-1], h):
            bridge_steps = max(bridge_steps, 1)
        walked.append(h)
        if h in true_zoc and h not in r.zoc and h not in occupied and i < len(path) - 1:
            halted = f"entered an enemy ZOC in {lab} (10.10.3.1)"
            rules.append("10.10.3.1")
            break
        ev, stop = _interdiction(state, u, h, roll, used_missions)
        events += ev
        if stop:
            halted = stop
            rules.append("6.5.10.4")
            break
    own_units = [
        x for x in state.units.values() if x.side == u.side and x.id != u.id and x.hex is not None
    ]
    while len(walked) > 1 and not stack_ok(
        state, u, walked[-1], [x for x in own_units if x.hex == walked[-1]]
    ):
        walked.pop()  # halted in a full hex: back to the last hex it may stop in (10.9)
    final = walked[-1]
    markers = set(u.markers)
    extra_lines = []
    if final != path[0]:
        for m in ("defend", "fortified"):
            if m in markers:
                markers.discard(m)
                extra_lines.append(f"{m} marker removed on moving (10.6, 10.7)")
        if "fortified" in u.markers:
            events.append(
                hex_set(
                    path[0], {"fortified": {"side": u.side, "turn": state.clock.turn}}, rule="10.7"
                )
            )
        if plan.get("disorganized"):
            markers.add("suppressed")
            extra_lines.append("disorganized movement: ends Suppressed, may not attack (10.10.2)")
            rules.append("10.10.2")
    if plan.get("bridge") and final == path[-1]:
        lab = state.map.label(final)
        events.append(
            hex_set(final, {"bridge": {"side": u.side, "turn": state.clock.turn}}, rule="10.11.1")
        )
        events.append(
            unit_set(
                u.id,
                data={"bridges": [*(u.data.get("bridges") or ()), lab]},
                rule="10.11.1",
                visible_to=frozenset({u.side}),
            )
        )
        extra_lines.append(f"bridge placed at {lab} (+2 MP, 10.11.1)")
        rules.append("10.11.1")
    if bridge_steps:
        rules.append("10.11")
        use = dict(thaw(state.sides[u.side].private.get("bridge_use") or {}))
        if int(use.get("turn", 0) or 0) != state.clock.turn:
            use = {"turn": state.clock.turn, "steps": {}}
        for a, b in zip(walked, walked[1:], strict=False):
            if _bridge_step(model, a, b):
                site = state.map.label(a if state.map.hexes[a].facts.get("bridge") else b)
                use["steps"][site] = int(use["steps"].get(site, 0)) + (
                    1 if counter(u).category == "engineer" else u.steps
                )
        from owsnb.kernel.events import side_set

        events.append(side_set(u.side, "private", {"bridge_use": use}, rule="10.11"))
    vis = watchers(state, u)
    prev = u.data.get("moved") or {}
    before = (
        float(prev.get("mp", 0) or 0)
        if prev.get("bridge_continue") and int(prev.get("turn", 0) or 0) == state.clock.turn
        else 0.0
    )
    spent = before + float(r.cost.get(final, 0.0))
    placed = plan.get("bridge") and final == path[-1]
    if placed:
        spent += bridge_place_mp(state)
    moved = _moved(
        state,
        u,
        len(walked) - 1,
        "6.C.3",
        mp=spent,
        bridge_continue=bool(placed and spent < movement_points(state, u).mp - 1e-9),
        **({"exploit": True} if verb == "exploit" else {}),
        **({"disorganized": True} if plan.get("disorganized") else {}),
    )
    ev0 = [
        unit_move(u.id, final, path=tuple(walked), rule="10.10", visible_to=vis),
        unit_set(
            u.id, markers=frozenset(markers), data={"moved": moved}, rule="10.10", visible_to=vis
        ),
    ]
    from owsnb.rules.ows import css as _css
    from owsnb.rules.ows import ground as _g

    events = ev0 + _css.pay_fuel(state, u) + events + _g.after_move(state, u, verb)
    spent = r.cost.get(final, 0.0)
    lines = [
        f"{u.id} moves to {state.map.label(final)} ({spent:g} of {r.allowance.mp:g} MP)",
        *extra_lines,
        *lines,
    ]
    if halted:
        lines.append(f"halted: {halted}")
    res = Result(
        f"{u.id} moves to {state.map.label(final)}",
        {
            "to": state.map.label(final),
            "mp": spent,
            "halted": halted,
            "path": [state.map.label(h) for h in walked],
        },
        list(dict.fromkeys(rules)),
        roll.rolls,
        lines,
    )
    return Adjudication(events, res)


# -- interdiction (6.5.10.4) -------------------------------------------------------------------------
def _interdiction_preview(state: StateLike, plan: Mapping[str, Any]) -> Distribution | None:
    """The exact outcome of the first known (detected) Interdiction mission on the route (6.5.10.4):
    ``(steps lost, suppressed)`` on the Fires Effects Table; ``None`` if no known mission watches it."""
    from owsnb.rules.ows.ground import fires as _g

    u = plan["unit"]
    seen = known_enemies(state, u.side)
    for h in plan["path"][1:]:
        m = _watching(state, u, h, "interdiction", seen)
        if m is None:
            continue
        target = u.evolve(hex=h)
        shield, _ = _g.defence(state, target)
        row = _g._fet_row(state, target)
        dice_ = [d for _, d, _ in _g._missions(state, m, target)]
        crit = bool(ptable(state, "fet").get("criticals"))
        return _g.fire_preview(dice_, shield, row["suppress"], row["step"], crit, u.steps)
    return None


def _interdiction(
    state: GameState, u: Any, h: Hex, roll: Roller, used: set[str] | None = None
) -> tuple[list[Event], str | None]:
    """6.5.10.4: a ground unit moving through an enemy Interdiction mission's zone is attacked
    once per mission and turn (Fires Effects Table); suppressed or damaged = halted."""
    m = _watching(state, u, h, "interdiction", skip=used or ())
    if m is None:
        return [], None
    from owsnb.rules.ows import ground as _g

    if used is not None:
        used.add(m.id)
    ev, res = _g.fire_on(state, [m], u, roll, rule="6.5.10.4", reveal=True)
    ev.insert(0, unit_set(u.id, seen_by=u.seen_by | {m.side}, rule="6.5.10.4", visible_to=None))
    ev.append(
        unit_set(
            m.id, markers=m.markers | {"expended"}, rule="6.5.10.4", visible_to=watchers(state, m)
        )
    )
    stop = res.get("suppressed") or res.get("steps")
    return ev, (
        f"interdicted by {m.id}: {res.get('steps', 0)} step(s) lost{', suppressed' if res.get('suppressed') else ''}"
        if stop
        else None
    )
