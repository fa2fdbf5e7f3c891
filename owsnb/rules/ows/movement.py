"""Tactical movement: naval (6.2-6.4), amphibious/airborne/air assault placement (6.4.6, 6.5.11,
6.5.12) and ground movement (10.9-10.11, 10.15.1).

Paragraphs: 6.2 moving through detected enemy naval units lets the non-mover halt the move (an
*intercept* posture, on by default); 6.4 naval rates (CVN 4, surface 3, auxiliary 2, patrol craft
2, SSN/SSGN/SSBN 3, SSK 2 operational hexes); 6.4.1.1 patrol craft stay within 2 hexes of a
friendly port or mother ship (6.4.1.2: diesel subs are not limited); 6.4.2 subs move 2/1 without
cavitating; 6.4.2.1 Silent Running (a sub that stays; removed when it moves); 6.4.2.2 Cavitation
(moving 3/2); 6.4.3 Active EMCON (emitting = face up, detected); 6.4.4 ASW mode (lost when moving
more than 1 hex); 6.4.5 mines [optional]: secret laying, detection, mine strikes (D6/D8 vs the red
shield, criticals), sweeping; 6.4.6 amphibious assault placement; 6.5.11 airborne and 6.5.12 air
assault placement (one transport per step, two for mechanised airborne steps); 10.15.8 delivery
of the landing force when the Ground phase begins (R11: a unit aboard a transport shot down is
lost with it); 10.10 ground modes wheeled 15, tracked 10, foot 2, ski 4 MP, the least mobile mode
of a mixed unit; 10.10.1 Movement Chart costs by terrain and weather, a unit may always move one
hex unless NP, it stops when the next hex costs more than it has left; 10.10.2 disorganized
movement; 10.10.3 zones of control; 10.10.3.1 entering a ZOC stops; 10.10.3.2 bypass through a
ZOC hex held by a friendly unit (+2 MP); 10.10.3.3 leaving a ZOC (one hex into another ZOC, or +2
MP to disengage); 10.4.1 reserves move half; 10.15.7 suppressed units move one hex; 11.1.3 out of
supply halves MP; 10.11 bridges across major rivers (+2 MP to place and to cross, 10 steps a
turn); 10.9 stacking; 10.15.1 hexside limit (used by ground.py); 6.5.10.4 Interdiction attacks a
ground mover on the Fires Effects Table, SUCAP a ship moving through its zone by the naval combat
rules (its salvos against the ship's own grey shields, then the red shield); either halts a unit it
damages or suppresses and is then expended for the turn.

Rulings of this module (options and table entries, defaults in brackets):

* **M1** the Movement Chart is for tactical hexes (10-20 km); on maps with larger hexes every cost
  is multiplied by ``hex_km / reference_hex_km`` [20] and the always-one-hex rule still applies.
* **M2** naval rates are in 200 nm operational hexes (6.4); on other maps they convert to
  ``rate * 200 nm / hex size`` hexes (at least the operational number on larger hexes).
* **M3** moves are planned on what the side knows; an undetected enemy unit or ZOC met on the way
  halts the move where it is met (the enemy unit in the way becomes detected).
* **M4** a road along a hexside replaces the terrain cost of the hex entered; a road across a
  major river is a permanent bridge.

>>> least_mobile("tracked+foot")
'foot'
>>> naval_rate("ssk", hex_nm=200), naval_rate("cvn", hex_nm=100)
(2, 8)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, hex_set, note, state_set, unit_move, unit_set
from owsnb.kernel.geo import NM_KM, GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import UMPIRE
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    legal_examples,
    option,
    own_unit,
    refuse,
    table,
    watchers,
)
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import parse_die, sides
from owsnb.rules.ows.sequence import base_step
from owsnb.rules.ows.units import counter

__all__ = [
    "GROUND_CATEGORIES",
    "NAVAL_CATEGORIES",
    "least_mobile",
    "mobility",
    "movement_points",
    "naval_rate",
    "scale_factor",
    "zone_of",
    "zone_distance",
    "zoc_hexes",
    "exerts_zoc",
    "stacking_limit",
    "stack_steps",
    "stack_ok",
    "ground_reach",
    "naval_reach",
    "GroundReach",
    "known_enemies",
    "Move",
    "Bypass",
    "Disengage",
    "SilentRunning",
    "Emcon",
    "AswMode",
    "Intercept",
    "LayMines",
    "SweepMines",
    "AmphibiousAssault",
    "AirborneAssault",
    "AirAssault",
    "mine_preview",
    "deliver_landings",
    "HANDLERS",
    "STEP_EFFECTS",
    "UNIT_FIELDS",
    "OPTIONS",
    "moved_this_turn",
    "is_water",
    "friendly_port",
    "terrain_cost",
    "path_cost",
]

GROUND_CATEGORIES = ("ground", "hq", "artillery", "air-defence", "engineer", "css", "transport")
"""Counter kinds that move on the ground (10.10)."""
NAVAL_CATEGORIES = ("naval", "submarine")
SUBS = ("ssn", "ssgn", "ssbn", "ssk")
MECH_MODES = ("tracked", "wheeled")

UNIT_FIELDS: dict[str, tuple[Any, Any]] = {
    "mobility": (str, ""),  # 10.10: wheeled / tracked / foot / ski; "tracked+foot" = mixed
    "hq": (str, ""),  # parent HQ (task organisation, 10.3 2.A)
    "formation": (bool, False),  # a Div/Corps/Group Army/Front HQ that activates (10.2)
    "proficiency": (int, 0),  # 10.4.1.1.1 HQ proficiency 1 (best) - 6 (worst); 0 = table
    "step_dice": (list[str], []),  # 10.15.9.1.3 the die of each step, in damage order
    "bridging": (bool, False),  # 10.11 engineer with the bridge symbol
    "amphibious": (bool, False),  # 6.4.6 may swim ashore
    "airborne": (bool, False),  # 6.5.11
    "air_assault": (bool, False),  # 6.5.12 (units; and transports able to carry them)
    "landing_craft": (bool, False),  # 6.4.6 LST/LSM/LCAC/causeway
    "heavy_lift": (bool, False),  # 5.1.1.3 tank symbol
    "mother_ship": (bool, False),  # 6.4.1.1
    "mine_capable": (bool, False),  # 6.4.5.1
    "minesweeper": (bool, False),  # 6.4.5.3
    "mine_die": (str, ""),  # 6.4.5.2 D6 or D8 of the mines a ship lays
    "intercept": (bool, True),  # 6.2 posture: halt detected enemy movers in its hex
    "bag": (bool, False),  # 10.15.3 Brigade Artillery Group
    "me_by": (str, ""),  # 10.5 the HQ whose Main Effort the unit is
    "bridges": (list[str], []),  # 10.11 crossing sites where this engineer has placed its bridges
    "cars": (int, 1),  # 5.1.1.4 rail cars a rail-car counter holds (one step each)
    "hold": (str, ""),  # 5.1.1.2 a ship's cargo tag (units aboard carry it in ``aboard``)
    "aboard": (str, ""),  # the cargo tag of the ship a unit is aboard (no unit ids, so no leaks)
    "moved": (dict, {}),  # bookkeeping: {"turn": t, "step": key, "hexes": n}
    "assault": (dict, {}),  # bookkeeping of 6.4.6/6.5.11/6.5.12 placements
    "landed": (int, 0),  # turn a landing force came ashore (10.15.8)
    "fuel": (int, -1),  # 10.13.2.1 FP per day (-1 = from the table)
    "fuel_points": (int, 0),  # CSS stocks (10.13.2)
    "fuel_capacity": (int, 0),
    "munitions": (list[str], []),  # 10.13.2.2 munitions counters: "full" / "low"
    "munitions_capacity": (int, 0),
    "css_radius": (int, -1),  # 10.13.2.4 distribution radius in hexes (-1 = table)
    "echelon": (str, ""),  # 10.13.1 tactical / depot
    "supply_source": (str, ""),  # 11.1 the CSS unit (or hex label) this unit draws supply from
}
"""Payload fields this part of the rule set adds to every OWS counter."""

PRIVATE_KEYS = (
    "moved",
    "assault",
    "attacked",
    "exp",
    "aboard",
    "hold",
    "rail",
    "airlifted",
    "lift_tag",
    "assault_tag",
    "assault_from",
    "fuel_paid",
    "me_by",
    "me_turn",
    "defend_turn",
    "cargo_boxes_seen",
    "supply",
    "partisan_zone",
    "mines_laid_turn",
    "landed",
    "intercept",
    "hq",
    "fuel_points",
    "munitions",
    "supply_source",
    "suppressed_until",
)
"""Bookkeeping of parts 2 an enemy never sees of a detected counter (it may name hidden units)."""

from owsnb.kernel.ruleset import Option  # noqa: E402

OPTIONS = (
    Option(
        "reaction_move",
        False,
        "10.4.1.1.1 [Optional]: defender reserves may react in the Defensive Fires impulse",
        (),
        "10.4.1.1.1",
    ),
    Option(
        "bombardment",
        False,
        "10.15.3.1 [Optional]: a Div/Corps Main Effort may mass up to 4 artillery units in one Prep Fire",
        (),
        "10.15.3.1",
    ),
    Option(
        "fire_splitting",
        False,
        "10.15.5: a counter may split its fire missions over several steps (never one twice)",
        (),
        "10.15.5",
    ),
    Option(
        "movement_scaling",
        True,
        "M1: scale Movement Chart costs by hex size on maps with hexes larger than 20 km",
        (),
        "M1",
    ),
)


# -- small helpers ---------------------------------------------------------------------------------
def least_mobile(modes: str | Sequence[str]) -> str:
    """10.10: a unit with mixed capabilities uses the least mobile one.

    >>> least_mobile("wheeled"), least_mobile(["wheeled", "tracked"])
    ('wheeled', 'tracked')
    """
    order = ("foot", "ski", "tracked", "wheeled")
    items = [m.strip() for m in (modes.replace("/", "+").split("+") if isinstance(modes, str) else modes) if m.strip()]
    bad = [m for m in items if m not in order]
    if bad:
        raise ValueError(f"unknown movement mode(s) {bad}; modes are {', '.join(order)} (10.10)")
    return min(items, key=order.index) if items else ""


def mobility(unit: Any) -> str:
    """The movement mode of a ground unit (10.10): its ``mobility`` field, else by kind.

    Without a ``mobility`` field: armour/mech/tank subtypes are tracked, motorised/wheeled ones and
    HQ, artillery, air defence, engineers, CSS and transports are wheeled, other manoeuvre units foot.
    """
    c = counter(unit)
    m = str(unit.data.get("mobility") or "")
    if m:
        return least_mobile(m)
    sub = str(c.subtype or "")
    if sub in ("armour", "armor", "mech", "tank", "heavy-armour"):
        return "tracked"
    if sub in ("motorised", "motorized", "wheeled", "stryker", "recon"):
        return "wheeled"
    if c.category in ("hq", "artillery", "air-defence", "engineer", "css", "transport"):
        return "wheeled"
    if c.category == "ground":
        return "foot"
    return ""


def is_mech(unit: Any) -> bool:
    """Motorised or mechanised (10.10.3, 6.5.11, 10.15.8.1)."""
    try:
        return mobility(unit) in MECH_MODES
    except ValueError:
        return False


def is_light(unit: Any) -> bool:
    """Light infantry (10.9, 10.10.2, 10.10.3): a foot manoeuvre unit or subtype ``light``."""
    c = counter(unit)
    return c.category == "ground" and (str(c.subtype) == "light" or mobility(unit) in ("foot", "ski"))


def is_water(state: Any, h: Hex) -> bool:
    info = state.map.hexes.get(h)
    return info is not None and info.terrain in _movement_table(state).get(
        "water", ("sea", "deep-sea", "littoral", "lake")
    )


def friendly_port(state: Any, h: Hex, side: str) -> bool:
    """A port hex owned or controlled by *side* (2.1.7.1)."""
    info = state.map.hexes.get(h)
    if info is None or "port" not in info.features:
        return False
    owner = info.facts.get("control") or info.features["port"].get("owner") or info.features["port"].get("side")
    return owner == side


def lift_tag(state: Any, kind: str = "lift") -> str:
    """A neutral token linking a transport and its cargo without naming either (hidden units stay
    hidden: neither carries the other's id)."""
    return f"{kind}-{state.seq}"


def cargo_of(state: Any, ship: Any) -> list[Any]:
    """Units aboard *ship* (5.1.1.2)."""
    tag = ship.data.get("hold")
    return sorted((u for u in state.units.values() if tag and u.data.get("aboard") == tag), key=lambda u: u.id)


def carrier_of(state: Any, unit: Any) -> Any | None:
    """The ship *unit* is aboard (5.1.1.2), if any."""
    tag = unit.data.get("aboard")
    if not tag:
        return None
    return next((s for s in state.units.values() if s.data.get("hold") == tag), None)


def _naval_hexes_moved(state: Any, unit: Any) -> int:
    """Hexes *unit* moved in this turn's naval movement (6.4.2.1, 6.4.4)."""
    return int((unit.data.get("moved") or {}).get("hexes", 0)) if moved_this_turn(state, unit, "3.A.1") else 0


def moved_this_turn(state: Any, unit: Any, step: str | None = None) -> bool:
    m = unit.data.get("moved") or {}
    if int(m.get("turn", 0) or 0) != state.clock.turn:
        return False
    return step is None or m.get("step") == step


_TABLES: dict[tuple[str, int], tuple[Any, Any]] = {}


def ptable(state: Any, name: str) -> Any:
    """A data table in force, thawed once per table object (read-only: do not mutate the result)."""
    try:
        frozen = state.tables[name]
    except (KeyError, TypeError, AttributeError):
        return table(state, name)
    key = (name, id(frozen))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is frozen:
        return hit[1]
    out = table(state, name)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[key] = (frozen, out)
    return out


def _movement_table(state: Any) -> dict[str, Any]:
    return ptable(state, "movement")


def hex_km(state: Any) -> float:
    return float(state.map.km_per_hex() or 20.0)


def scale_factor(state: Any) -> float:
    """M1: Movement Chart costs are for tactical hexes; larger hexes multiply them."""
    t = _movement_table(state)
    ref = float(t.get("reference_hex_km") or 20)
    km = hex_km(state)
    if not option(state, "movement_scaling") or km <= ref * 1.0001:
        return 1.0
    return km / ref


def naval_rate(subtype: str, *, hex_nm: float = 200.0, normal: bool = False, table_: Mapping | None = None) -> int:
    """6.4 rates in operational hexes, converted to the map's hexes (M2); ``normal`` = without
    cavitating (6.4.2)."""
    if table_ is None:
        from owsnb.rules.ows.ruleset import load_tables

        table_ = load_tables()["movement"]["naval"]
    sub = subtype if subtype in table_["rates"] else table_.get("default", "surface")
    rate = (
        int(table_["submarine_normal"][sub])
        if normal and sub in table_.get("submarine_normal", {})
        else int(table_["rates"][sub])
    )
    op = float(table_.get("operational_hex_nm", 200))
    if hex_nm >= op:
        return rate
    return int(math.floor(rate * op / hex_nm + 1e-9))


def _hex_nm(state: Any) -> float:
    return hex_km(state) / NM_KM


# -- zones (2.1.2.3 yellow 100 km zones) --------------------------------------------------------------
_ZONE_CACHE: dict[tuple, GeoLayout] = {}


def _zone_layout(state: Any) -> GeoLayout | None:
    zkm = state.map.meta.get("zone_km")
    lay = state.map.layout
    if not zkm:
        return None
    if lay is None:
        lay = GeoLayout("flat", hex_km(state), projection="simple")
    key = (lay.orientation, float(zkm), lay.anchor)
    z = _ZONE_CACHE.get(key)
    if z is None:
        z = GeoLayout(lay.orientation, float(zkm), projection="simple", anchor=lay.anchor)
        _ZONE_CACHE[key] = z
    return z


def zone_of(state: Any, h: Hex) -> Hex | None:
    """The 100 km zone (yellow hex, 2.1.2.3) holding hex *h* on a map with ``meta.zone_km``; zones
    are a coarser hex grid with the same orientation and anchor. ``None`` on maps without zones."""
    z = _zone_layout(state)
    if z is None:
        return None
    lay = state.map.layout or GeoLayout("flat", hex_km(state), projection="simple")
    x, y = lay.hex_to_xy(h)
    return z.xy_to_hex(x, y)


def zone_distance(state: Any, a: Hex, b: Hex) -> int | None:
    """Distance in zones between the zones of *a* and *b* (``None`` without zones)."""
    za, zb = zone_of(state, a), zone_of(state, b)
    if za is None or zb is None:
        return None
    return za.distance(zb)


def rear_zone(state: Any, h: Hex) -> Hex:
    """The zone of *h* for the rear-area rules (10.15.10): its 100 km zone, or the hex itself on
    maps without zones."""
    z = zone_of(state, h)
    return h if z is None else z


def zone_hexes(state: Any, zone: Hex) -> list[Hex]:
    """The map hexes of a zone."""
    return [h for h in state.map.hexes if zone_of(state, h) == zone]


# -- knowledge ---------------------------------------------------------------------------------------
def _is_view(state: Any) -> bool:
    return hasattr(state, "is_umpire")


def known_enemies(state: Any, side: str) -> list[Any]:
    """Enemy units on the map that *side* knows about (M3): the units of a view, or the detected
    units of the truth. Last-known ghosts are not counted."""
    out = []
    for u in state.units.values():
        if u.side == side or u.hex is None or not u.alive or "last-known" in u.markers:
            continue
        if _is_view(state) or side == UMPIRE or detected(state, u, side):
            out.append(u)
    return out


# -- zones of control (10.10.3) -----------------------------------------------------------------------
def exerts_zoc(state: Any, unit: Any, stack: Iterable[Any] = ()) -> bool:
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
        light = sum(u.steps for u in stack if is_light(u) and "suppressed" not in u.markers and u.side == unit.side)
        return light >= int(zt.get("light_battalions_10km", 2))
    return False


def zoc_hexes(state: Any, enemies: Iterable[Any]) -> set[Hex]:
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
def stacking_limit(state: Any) -> int | None:
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


def stack_steps(state: Any, units: Iterable[Any], h: Hex | None = None) -> int:
    """Steps counted against stacking (10.9): HQ and SOF free, light infantry in urban terrain free,
    an engineer counts as one step (10.11); only ground counters count."""
    urban = h is not None and state.map.hexes.get(h) is not None and state.map.hexes[h].terrain == "urban"
    n = 0
    for u in units:
        c = counter(u)
        if not u.alive or c.category not in GROUND_CATEGORIES or c.category == "hq" or c.category == "transport":
            continue
        if c.subtype in ("partisan", "security-zone"):
            continue
        if urban and is_light(u):
            continue
        n += 1 if c.category == "engineer" else u.steps
    return n


def stack_ok(state: Any, unit: Any, h: Hex, others: Iterable[Any] | None = None) -> bool:
    """May *unit* end its move in *h* without exceeding the stacking limit (10.9)?"""
    lim = stacking_limit(state)
    if lim is None:
        return True
    if others is None:
        others = [u for u in state.units.values() if u.hex == h and u.side == unit.side and u.id != unit.id]
    return stack_steps(state, [*others, unit], h) <= lim


# -- terrain costs (10.10.1) --------------------------------------------------------------------------
_NP = None


def _cost_value(v: Any) -> float | None:
    if v is None or (isinstance(v, str) and v.strip().upper() == "NP"):
        return None
    return float(v)


def terrain_cost(state: Any, terrain: str, mode: str, weather: str | None = None) -> float | None:
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


def _weather(state: Any) -> str:
    return str(state.public.get("weather") or "clear")


@dataclass
class _CostModel:
    """Per map/weather/mode precomputed costs (a small cache keeps a reference to the map)."""

    map: Any
    hex_cost: dict[Hex, float | None]
    edge_cost: dict[tuple[Hex, Hex], Any]  # (a, b) ordered -> cost of a->b replacing the hex cost, or None (NP)


_COST_CACHE: list[tuple[tuple, Any, _CostModel]] = []


def _cost_model(state: Any, mode: str) -> _CostModel:
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
    river_add = _cost_value((hs.get("river") or {}).get(mode)) if isinstance(hs.get("river"), Mapping) else None
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
                    for f in (state.map.hexes[x].facts.get("bridge"), state.map.hexes[y].facts.get("bridge"))
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


def path_cost(state: Any, unit: Any, path: Sequence[Hex]) -> float | None:
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


def _bridge_step(model: _CostModel, a: Hex, b: Hex) -> bool:
    return isinstance(model.edge_cost.get((a, b)), tuple)


# -- movement points (10.10, 10.4.1, 10.15.7, 11.1.3, 10.10.2) ---------------------------------------
@dataclass(frozen=True)
class Allowance:
    """What a unit may spend: its mode, MP and why (each halving or limit named)."""

    mode: str
    mp: float
    max_hexes: int | None = None
    reasons: tuple[str, ...] = ()


def movement_points(
    state: Any, unit: Any, *, exploit: bool = False, disorganized: bool = False, react: bool = False
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
            + ("exploitation (3.G)" if exploit else "reaction (10.4.1.1.1)" if react else "reserve (10.4.1)")
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


def _full_bridges(state: Any, unit: Any) -> set[Hex]:
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


def _partisan_zones(state: Any, side: str) -> set[Hex]:
    """Disrupted partisan zones hostile to *side* (10.15.10.4): +2 MP per hex entered."""
    rear = state.public.get("rear") or {}
    out = set()
    for z in (rear.get("disrupted") or {}).values():
        if z.get("side") != side and z.get("zone") is not None:
            out.add(Hex(*z["zone"]))
    return out


def ground_reach(
    state: Any,
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
        allow = Allowance(allow.mode, float(mp), allow.max_hexes, (*allow.reasons, f"{mp} MP given"))
    start = unit.hex
    out = GroundReach(unit.id, start, allow)
    if start is None or not allow.mode:
        return out
    model = _cost_model(state, allow.mode)
    enemies = known_enemies(state, side)
    enemy_hexes = {u.hex for u in enemies if counter(u).category not in ("air-mission", "naval", "submarine")}
    zoc = zoc_hexes(state, enemies)
    friends: dict[Hex, list[Any]] = {}
    for u in state.units.values():
        if u.side == unit.side and u.hex is not None and u.id != unit.id and u.alive:
            friends.setdefault(u.hex, []).append(u)
    occupied = {h for h, us in friends.items() if any(counter(x).category in GROUND_CATEGORIES for x in us)}
    pz = _partisan_zones(state, unit.side)
    pz_mp = float(_movement_table(state).get("partisan_zone_mp", 2)) if pz else 0.0
    zt = _movement_table(state).get("zoc", {})
    by_mp, dis_mp = float(zt.get("bypass_mp", 2)), float(zt.get("disengage_mp", 2))
    budget = allow.mp
    eps = 1e-9
    full = _full_bridges(state, unit)
    out.zoc = zoc
    cost = out.cost
    parent = out.parent
    cost[start] = 0.0
    heap: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
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

    while heap:
        d, n_hex, h = heappop(heap)
        if d > cost.get(h, math.inf) + eps:
            continue
        if h != start and (h in out.stops or d >= budget - eps):
            continue
        if allow.max_hexes is not None and n_hex >= allow.max_hexes:
            continue
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
                continue
            old = cost.get(n)
            if old is not None and old <= nd + eps:
                continue
            cost[n] = nd
            parent[n] = h
            if n in zoc:
                if n in occupied:
                    out.bypass.add(n)
                    out.stops.discard(n)
                else:
                    out.stops.add(n)
            heappush(heap, (nd, n_hex + 1, n))
    lim = stacking_limit(state)
    for h in cost:
        if h == start or lim is None:
            out.ends.add(h)
        elif stack_steps(state, [*friends.get(h, ()), unit], h) <= lim:
            out.ends.add(h)
        else:
            out.blocked.setdefault(h, f"stacking limit {lim} steps (10.9)")
    return out


def naval_reach(state: Any, unit: Any, *, side: str | None = None, flank: bool | None = None) -> dict[Hex, int]:
    """Hexes a ship or submarine can reach this turn (6.4): sea and port hexes within its rate;
    patrol craft within 2 hexes of a friendly port or mother ship (6.4.1.1). ``flank`` for subs:
    ``False`` = without cavitating (6.4.2), ``None``/``True`` = up to the flank rate."""
    if unit.hex is None:
        return {}
    c = counter(unit)
    nt = _movement_table(state)["naval"]
    normal = flank is False and c.subtype in SUBS
    rate = naval_rate(c.subtype or nt.get("default", "surface"), hex_nm=_hex_nm(state), normal=normal, table_=nt)
    dist = {unit.hex: 0}
    frontier = [unit.hex]
    for d in range(1, rate + 1):
        nxt = []
        for h in frontier:
            for n in h.neighbours():
                if n in dist or n not in state.map.hexes:
                    continue
                if not (is_water(state, n) or "port" in state.map.hexes[n].features):
                    continue
                dist[n] = d
                nxt.append(n)
        frontier = nxt
    if c.subtype == "patrol":
        leash = int(nt.get("patrol_leash", 2))
        anchors = _patrol_anchors(state, unit)
        dist = {h: d for h, d in dist.items() if any(h.distance(a) <= leash for a in anchors)}
    return dist


def _patrol_anchors(state: Any, unit: Any) -> list[Hex]:
    out = [h for h in state.map.hexes if friendly_port(state, h, unit.side)]
    out += [
        u.hex
        for u in state.units.values()
        if u.side == unit.side and u.hex is not None and u.id != unit.id and u.data.get("mother_ship")
    ]
    return out


def _sea_path(state: Any, unit: Any, to: Hex, reach: Mapping[Hex, int]) -> list[Hex]:
    """A shortest path inside *reach* (breadth first, deterministic)."""
    prev: dict[Hex, Hex] = {}
    seen = {unit.hex}
    frontier = [unit.hex]
    while frontier and to not in seen:
        nxt = []
        for h in frontier:
            for n in h.neighbours():
                if n in reach and n not in seen and reach[n] == reach[h] + 1:
                    seen.add(n)
                    prev[n] = h
                    nxt.append(n)
        frontier = nxt
    path = [to]
    while path[-1] != unit.hex:
        path.append(prev[path[-1]])
    return list(reversed(path))


# -- mines (6.4.5) ----------------------------------------------------------------------------------------
def mine_preview(die: str, red_shield: int) -> Distribution:
    """6.4.5.2: hits a mine attack scores against a red shield, criticals apply (R2).

    >>> dict(mine_preview("d6", 3))
    {0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}
    """
    n = sides(die)
    return Distribution.die(n).map(
        lambda r: _hits(r, red_shield), label=f"mine hits ({parse_die(die)} vs {red_shield})"
    )


def _minefields(state: Any) -> dict[str, dict]:
    return dict(thaw(state.secret.get("minefields") or {})) if hasattr(state, "secret") else {}


def _visible_minefields(state: Any) -> dict[str, dict]:
    return dict(thaw(state.public.get("minefields") or {}))


# -- the move order ------------------------------------------------------------------------------------
def _ground_movers(state: Any, side: str) -> list[Any]:
    out = []
    for u in state.units_of(side):
        c = counter(u)
        if u.hex is None or not u.alive or c.category not in GROUND_CATEGORIES:
            continue
        if not mobility(u):
            continue
        out.append(u)
    return out


def _ground_checks(state: Any, order: Order | None, unit: Any, *, exploit: bool = False, react: bool = False) -> None:
    """Refusals shared by every ground move (10.3 3.C, 10.4, 5.1.1)."""
    c = counter(unit)
    if c.category not in GROUND_CATEGORIES or not mobility(unit):
        raise refuse(f"{unit.id} does not move on the ground", "not-ground", "10.10", order)
    if unit.data.get("aboard"):
        raise refuse(f"{unit.id} is aboard a ship", "aboard", "5.1.1", order)
    if "rsoi" in unit.markers:
        raise refuse(
            f"{unit.id} is in RSO&I and cannot move until the marker comes off (5.1.1.2, 2.3.1)",
            "rsoi",
            "5.1.1.2",
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
        raise refuse(f"{unit.id} has already moved this Ground phase", "already-moved", "10.3", order)
    if exploit and int(m.get("turn", 0) or 0) == state.clock.turn and m.get("exploit"):
        raise refuse(f"{unit.id} has already made its exploitation move", "already-moved", "10.3", order)
    from owsnb.rules.ows import ground as _g

    _g.check_may_act(state, order, unit, "move" if not exploit else "exploit", react=react)


class Move(OrderHandler):
    """6.3/6.4 naval movement in step 3.A.1; 10.10 ground movement in step 6.C.3."""

    verb = "move"
    type = OrderType(
        "move",
        (
            Param("unit", "unit", "unit to move"),
            Param("to", "hex", "destination hex"),
            Param(
                "flank",
                "choice",
                "submarines: move at flank speed (cavitates, 6.4.2.2)",
                positional=False,
                optional=True,
                choices=("yes", "no"),
            ),
            Param(
                "disorganized",
                "choice",
                "light infantry: disorganized movement at the wheeled rate (10.10.2)",
                positional=False,
                optional=True,
                choices=("yes",),
            ),
            Param(
                "engineer",
                "choice",
                "engineers: place a bridge at the destination (+2 MP, 10.11.1) or an obstacle "
                "in the hex it stays in (10.12)",
                positional=False,
                optional=True,
                choices=("bridge", "obstacle"),
            ),
        ),
        rule="10.10",
        doc="move a ship (3.A.1) or a ground unit (6.C.3)",
    )

    # -- candidates ----------------------------------------------------------------------------
    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        step = base_step(state.clock.step)
        ex: list[Order] = []
        if step == "3.A.1":
            units = [
                u
                for u in state.units_of(side)
                if counter(u).category in NAVAL_CATEGORIES
                and u.hex is not None
                and u.alive
                and not moved_this_turn(state, u, "3.A.1")
                and "rsoi" not in u.markers
            ]
            for u in units[:8]:
                r = naval_reach(state, u)
                for h in sorted(r, key=lambda x: (-r[x], x))[:3]:
                    if h != u.hex:
                        ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        elif step == "6.C.3":
            units = []
            for u in _ground_movers(state, side):
                try:
                    _ground_checks(state, None, u)
                    self._verb_checks(state, None, u)
                except IllegalOrderError:
                    continue
                units.append(u)
            for u in units[:6]:
                r = ground_reach(state, u)
                far = sorted((h for h in r.ends if h != u.hex), key=lambda h: (-r.cost[h], h))
                for h in far[:2] + far[-1:]:
                    ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        else:
            return None
        if not ex:
            return None
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(dict.fromkeys(o.args[0] for o in ex))), tuple(ex))

    def _verb_checks(
        self, state: Any, order: Order | None, unit: Any, r: GroundReach | None = None, to: Hex | None = None
    ) -> None:
        """Extra conditions of the bypass/disengage variants."""

    # -- validation ----------------------------------------------------------------------------
    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._plan(state, order, args)

    def _plan(self, state: Any, order: Order, args: Mapping[str, Any]) -> dict[str, Any]:
        u = own_unit(state, order, args["unit"], self.type.rule)
        try:
            to = state.map.hex(args["to"])
        except Exception:
            raise refuse(f"no hex {args['to']!r} on this map", "bad-hex", self.type.rule, order) from None
        if state.clock.step == "3.A.1":
            return self._naval_plan(state, order, args, u, to)
        if base_step(state.clock.step) != "6.C.3":
            raise refuse("units move in Naval Movement (3.A.1) or the Ground phase (6.C.3)", "wrong-step", "3", order)
        return self._ground_plan(state, order, args, u, to)

    def _naval_plan(self, state: Any, order: Order, args: Mapping[str, Any], u: Any, to: Hex) -> dict[str, Any]:
        c = counter(u)
        if c.category not in NAVAL_CATEGORIES:
            raise refuse(
                f"{u.id} is not a ship or submarine: ground units move in the Ground phase (6.C.3)",
                "not-naval",
                "6.3",
                order,
            )
        if moved_this_turn(state, u, "3.A.1") and int((u.data.get("moved") or {}).get("hexes", 0) or 0) > 0:
            raise refuse(f"{u.id} has already moved this turn", "already-moved", "6.3", order)
        if "rsoi" in u.markers:
            raise refuse(f"{u.id} is offloading in RSO&I and cannot move (5.1.1.2)", "rsoi", "5.1.1.2", order)
        if "suppressed" in u.markers and c.category == "naval" and False:
            pass
        flank = args.get("flank")
        sub = c.subtype in SUBS
        r = naval_reach(state, u, flank=(None if not sub else (flank != "no")))
        if to not in r:
            nt = _movement_table(state)["naval"]
            rate = naval_rate(c.subtype or "surface", hex_nm=_hex_nm(state), table_=nt)
            why = (
                f"{state.map.label(to)} is not a sea or port hex within {rate} hexes of {u.id} (6.4)"
                if c.subtype != "patrol"
                else f"patrol craft stay within {nt.get('patrol_leash', 2)} hexes of a friendly port or mother ship (6.4.1.1)"
            )
            raise refuse(why, "out-of-reach", "6.4.1.1" if c.subtype == "patrol" else "6.4", order)
        path = _sea_path(state, u, to, r)
        return {"unit": u, "to": to, "path": path, "naval": True}

    def _ground_plan(self, state: Any, order: Order, args: Mapping[str, Any], u: Any, to: Hex) -> dict[str, Any]:
        dis = args.get("disorganized") == "yes"
        eng = args.get("engineer")
        _ground_checks(state, order, u)
        if eng and counter(u).category != "engineer":
            raise refuse(f"{u.id} is not an engineer", "not-engineer", "10.11" if eng == "bridge" else "10.12", order)
        if eng == "obstacle":
            if to != u.hex:
                raise refuse(
                    "an engineer places an obstacle in the hex it stays in for the whole movement impulse (10.12)",
                    "must-stay",
                    "10.12",
                    order,
                )
            return {
                "unit": u,
                "to": to,
                "path": [to],
                "reach": ground_reach(state, u),
                "obstacle": True,
                "naval": False,
            }
        if dis and not is_light(u):
            raise refuse("only light infantry may use disorganized movement (10.10.2)", "not-light", "10.10.2", order)
        m = u.data.get("moved") or {}
        follow_on = m.get("bridge_continue") and int(m.get("turn", 0) or 0) == state.clock.turn
        if follow_on:  # 10.11.3: the engineer continues with the MP it has left
            left = movement_points(state, u).mp - float(m.get("mp", 0) or 0)
            r = ground_reach(state, u, mp=max(left, 0.0))
            if to in r.cost and r.cost[to] > left + 1e-9:
                raise refuse(
                    f"{u.id} has {left:g} MP left after placing its bridge (10.11.3)", "out-of-reach", "10.11.3", order
                )
        else:
            r = ground_reach(state, u, disorganized=dis)
        self._verb_checks(state, order, u, r, to)
        if to == u.hex and eng != "bridge":
            raise refuse(f"{u.id} is already in {state.map.label(to)}", "no-move", "10.10", order)
        if to not in r.cost:
            why = r.blocked.get(to)
            if why:
                raise refuse(
                    f"{u.id} cannot enter {state.map.label(to)}: {why}",
                    "blocked",
                    "10.10.1" if why.startswith("NP") else "10.10",
                    order,
                )
            raise refuse(
                f"{state.map.label(to)} is beyond {u.id}'s {r.allowance.mp:g} MP this turn "
                f"({'; '.join(r.allowance.reasons)})",
                "out-of-reach",
                "10.10.1",
                order,
            )
        if to not in r.ends:
            raise refuse(
                f"{u.id} may not end its move in {state.map.label(to)}: {r.blocked.get(to, 'stacking (10.9)')}",
                "overstacked",
                "10.9",
                order,
            )
        if eng == "bridge":
            self._bridge_checks(state, order, u, r, to)
        from owsnb.rules.ows import css as _css

        _css.check_fuel(state, order, u)
        return {
            "unit": u,
            "to": to,
            "path": list(r.path_to(to)),
            "reach": r,
            "disorganized": dis,
            "naval": False,
            "bridge": eng == "bridge",
        }

    def _bridge_checks(self, state: Any, order: Order, u: Any, r: GroundReach, to: Hex) -> None:
        """10.11/10.11.1: a bridging engineer with a bridge left enters a crossing site free of enemy
        ZOC, paying +2 MP to place the bridge; in an enemy ZOC a river assault is needed (10.11.2)."""
        if not u.data.get("bridging"):
            raise refuse(f"{u.id} has no bridge symbol (10.11)", "no-bridging", "10.11", order)
        placed = list(u.data.get("bridges") or ())
        if len(placed) >= u.steps:
            raise refuse(f"{u.id} has placed all its bridges (one per step, 10.11)", "no-bridge-left", "10.11", order)
        if not any("major-river" in state.map.edge(to, n) for n in to.neighbours() if n in state.map.hexes):
            raise refuse(f"{state.map.label(to)} is not on a major river", "not-a-crossing", "10.11", order)
        if to in r.zoc:
            raise refuse(
                f"{state.map.label(to)} is in an enemy ZOC: a river assault is needed (10.11.2)",
                "opposed",
                "10.11.2",
                order,
            )
        place = float(_movement_table(state).get("bridge", {}).get("place_mp", 2)) * scale_factor(state)
        if r.cost[to] + place > r.allowance.mp + 1e-9 and len(r.path_to(to)) > 2:
            raise refuse(
                f"placing the bridge costs +{place:g} MP: {r.cost[to]:g} + {place:g} > {r.allowance.mp:g} (10.11.1)",
                "out-of-reach",
                "10.11.1",
                order,
            )

    # -- preview ---------------------------------------------------------------------------------
    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Any:
        try:
            plan = self._plan(state, order, args)
        except IllegalOrderError:
            return None
        if plan["naval"]:
            u = plan["unit"]
            seen = known_enemies(state, u.side)
            for h in plan["path"][1:]:
                m = _watching(state, u, h, "sucap", seen)
                if m is not None:
                    return sucap_preview(state, m, u)
            known = _visible_minefields(state)
            dists = [
                mine_preview(known[state.map.label(h)].get("die", "d6"), counter(u).red_shield)
                for h in plan["path"][1:]
                if state.map.label(h) in known and known[state.map.label(h)].get("side") != u.side
            ]
            if not dists:
                return None
            return Distribution.sum(dists, label=f"mine hits on {u.id} along its route (6.4.5.2)")
        return _interdiction_preview(state, plan)

    # -- adjudication --------------------------------------------------------------------------
    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        plan = self._plan(state, order, args)
        if plan["naval"]:
            return _naval_move(state, plan, dice, args)
        return _ground_move(state, plan, dice, self.type.verb)


class _MoveVariant(Move):
    """A ``move`` whose path must have a shape (:meth:`_path_ok`); +2 MP are in the reach already."""

    code = ""
    wrong_path = ""

    @staticmethod
    def _type(verb: str, rule: str, doc: str) -> OrderType:
        return OrderType(verb, (Param("unit", "unit", "unit to move"), Param("to", "hex", "destination hex")),
                         rule=rule, doc=doc)

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        return _variant_candidates(self, state, side)

    def _unit_ok(self, state: Any, order: Order | None, unit: Any) -> None:
        """Refuse a unit that cannot make this kind of move at all."""

    def _path_ok(self, r: GroundReach, path: Sequence[Hex]) -> bool:
        return True

    def _verb_checks(
        self, state: Any, order: Order | None, unit: Any, r: GroundReach | None = None, to: Hex | None = None
    ) -> None:
        self._unit_ok(state, order, unit)
        if r is None or to is None or to not in r.cost:
            return
        if not self._path_ok(r, r.path_to(to)):
            raise refuse(self.wrong_path, self.code, self.type.rule, order)


class Bypass(_MoveVariant):
    """10.10.3.2: a move whose path goes through a ZOC hex held by a friendly unit (+2 MP)."""

    type = _MoveVariant._type("bypass", "10.10.3.2", "move through a friendly-held hex in an enemy ZOC (+2 MP)")
    code = "not-a-bypass"
    wrong_path = "this path does not pass through a friendly-held hex in an enemy ZOC: use 'move'"

    def _path_ok(self, r: GroundReach, path: Sequence[Hex]) -> bool:
        return any(h in r.bypass for h in path[1:-1])


class Disengage(_MoveVariant):
    """10.10.3.3: leave a ZOC hex into a hex free of enemy ZOC (+2 MP)."""

    type = _MoveVariant._type("disengage", "10.10.3.3", "leave an enemy ZOC (+2 MP)")
    code = "not-a-disengage"
    wrong_path = "disengaging means moving into a hex free of enemy ZOC first (10.10.3.3)"

    def _unit_ok(self, state: Any, order: Order | None, unit: Any) -> None:
        if unit.hex not in zoc_hexes(state, known_enemies(state, unit.side)):
            raise refuse(f"{unit.id} is not in an enemy ZOC: use 'move'", "not-in-zoc", "10.10.3.3", order)

    def _path_ok(self, r: GroundReach, path: Sequence[Hex]) -> bool:
        return not (len(path) > 1 and path[1] in r.zoc)


def _variant_candidates(h: Move, state: Any, side: str) -> OrderSpec | None:
    if base_step(state.clock.step) != "6.C.3":
        return None
    ex = []
    for u in _ground_movers(state, side)[:12]:
        try:
            _ground_checks(state, None, u)
            h._verb_checks(state, None, u)
        except IllegalOrderError:
            continue
        r = ground_reach(state, u)
        for t in sorted(r.ends, key=lambda x: (-r.cost[x], x)):
            if t == u.hex:
                continue
            try:
                h._verb_checks(state, None, u, r, t)
            except IllegalOrderError:
                continue
            ex.append(h.type.make(side, unit=u.id, to=state.map.label(t)))
            if len(ex) >= 6:
                break
    return OrderSpec(side, h.type, FrozenDict(), tuple(ex)) if ex else None


def _moved(state: Any, u: Any, hexes: int, step: str, **extra: Any) -> dict[str, Any]:
    m = dict(thaw(u.data.get("moved") or {}))
    if int(m.get("turn", 0) or 0) != state.clock.turn:
        m = {}
    m.update(
        {
            "turn": state.clock.turn,
            "step": step,
            "hexes": int(m.get("hexes", 0) if m.get("step") == step else 0) + hexes,
        }
    )
    m.update(extra)
    return m


def _naval_move(state: Any, plan: Mapping[str, Any], dice: Any, args: Mapping[str, Any]) -> Adjudication:
    u = plan["unit"]
    c = counter(u)
    path: list[Hex] = plan["path"]
    roll = Roller(dice)
    own = frozenset({u.side})
    events: list[Event] = []
    lines: list[str] = []
    rules = ["6.3", "6.4"]
    walked = [path[0]]
    mines = _minefields(state)
    visible = _visible_minefields(state)
    halted = None
    hits_taken = 0
    for h in path[1:]:
        walked.append(h)
        lab = state.map.label(h)
        # 6.2: detected by enemy naval units with the intercept posture in the hex
        interceptors = [
            e
            for e in state.units.values()
            if e.side != u.side
            and e.hex == h
            and e.alive
            and counter(e).category in NAVAL_CATEGORIES
            and e.data.get("intercept", True)
        ]
        if interceptors and (c.category == "naval" or any(x.side in u.seen_by for x in interceptors)):
            halted = f"intercepted in {lab} by {interceptors[0].side} (6.2)"
            foes = {x.side for x in interceptors}
            events.append(unit_set(u.id, seen_by=u.seen_by | foes, rule="6.2", visible_to=None))
            for x in interceptors:
                if counter(x).category == "naval":
                    events.append(unit_set(x.id, seen_by=x.seen_by | {u.side}, rule="8.3.2", visible_to=None))
            rules.append("6.2")
            break
        sev, n, sucap = _sucap(state, u, h, roll)  # 6.5.10.4: SUCAP attacks a ship moving through its zone
        if sucap is not None:
            events += sev
            rules.append("6.5.10.4")
            hits_taken += n
            if n:
                halted = f"attacked by SUCAP {sucap.id} in {lab}: {n} hit(s)"
                break
            lines.append(f"SUCAP {sucap.id} attacks in {lab}: no hit")
        mf = mines.get(lab)
        if mf and mf.get("side") != u.side and option(state, "mines"):
            die = parse_die(mf.get("die") or table(state, "movement")["mines"]["die"])
            r = roll(die, f"mine strike on {u.id} entering {lab} vs red shield {c.red_shield}", "6.4.5.2", None)
            n = _hits(r, c.red_shield)
            rules.append("6.4.5.2")
            if lab not in visible:
                visible[lab] = {"side": mf.get("side"), "die": die}
                events.append(state_set("public", {"minefields": visible}, rule="6.4.5.2"))
            events.append(unit_set(u.id, seen_by=u.seen_by | {mf.get("side")}, rule="6.4.5.2", visible_to=None))
            if n:
                hev, lost, _ = apply_hits(state, u, n, rule="6.4.5.2", cause="mine", visible_to=None)
                events += hev
                hits_taken += n
                halted = f"mine strike in {lab}: {n} hit(s)"
                break
            lines.append(f"mine attack in {lab}: d{sides(die)} = {r}, no hit")
    final = walked[-1]
    moved_hexes = len(walked) - 1
    markers = set(u.markers)
    gone = []
    if moved_hexes and "silent-running" in markers:
        markers.discard("silent-running")
        gone.append("Silent Running removed (6.4.2.1)")
    nt = _movement_table(state)["naval"]
    if c.subtype in SUBS:
        normal = naval_rate(c.subtype, hex_nm=_hex_nm(state), normal=True, table_=nt)
        if moved_hexes > normal:
            markers.add("cavitation")
            gone.append("flank speed: Cavitation (6.4.2.2)")
            rules.append("6.4.2.2")
    total = int((u.data.get("moved") or {}).get("hexes", 0) if moved_this_turn(state, u, "3.A.1") else 0) + moved_hexes
    if "asw" in markers and total > int(nt.get("asw_max_hexes", 1)):
        markers.discard("asw")
        gone.append("moved more than 1 hex: ASW mode lost (6.4.4)")
        rules.append("6.4.4")
    revealed = any(e.kind == "unit.set" and e.data.get("id") == u.id and "seen_by" in e.data["changes"] for e in events)
    vis = None if revealed else watchers(state, u)
    mv = [
        unit_move(u.id, final, path=tuple(walked), rule="6.4", visible_to=vis),
        unit_set(
            u.id,
            markers=frozenset(markers),
            data={"moved": _moved(state, u, moved_hexes, "3.A.1")},
            rule="6.4",
            visible_to=vis,
        ),
    ]
    # cargo moves with its ship (5.1.1.2)
    cargo = cargo_of(state, u)
    for x in cargo:
        mv.append(
            unit_set(x.id, data={"moved": _moved(state, x, moved_hexes, "3.A.1")}, rule="5.1.1.2", visible_to=own)
        )
    events = mv + events
    lines = [f"{u.id} moves {moved_hexes} hex(es) to {state.map.label(final)}", *gone, *lines]
    if halted:
        lines.append(f"halted: {halted}")
    # offload at a friendly port (5.1.1.2)
    from owsnb.rules.ows import strategic as _s

    if cargo and friendly_port(state, final, u.side) and not halted:
        from owsnb.kernel.reduce import apply_all

        s2 = apply_all(state, events)
        off, more = _s.offload(s2, s2.units[u.id], dice, rule="5.1.1.2")
        events += off
        lines += more
        rules.append("5.1.1.2")
    res = Result(
        f"{u.id} moves to {state.map.label(final)}",
        {"to": state.map.label(final), "hexes": moved_hexes, "halted": halted, "mine_hits": hits_taken},
        list(dict.fromkeys(rules)),
        roll.rolls,
        lines,
    )
    return Adjudication(events, res)


def _ground_move(state: Any, plan: Mapping[str, Any], dice: Any, verb: str) -> Adjudication:
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
            unit_set(u.id, data={"moved": _moved(state, u, 0, "6.C.3")}, rule="10.12", visible_to=vis),
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
    truth_enemies = [e for e in state.units.values() if e.side != u.side and e.hex is not None and e.alive]
    true_zoc = zoc_hexes(state, truth_enemies)
    blockers = {e.hex: e for e in truth_enemies if counter(e).category in GROUND_CATEGORIES + ("sof",)}
    occupied = {
        x.hex
        for x in state.units.values()
        if x.side == u.side and x.id != u.id and x.hex is not None and counter(x).category in GROUND_CATEGORIES
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
            events.append(unit_set(e.id, seen_by=e.seen_by | {u.side}, rule="8.3.2.1", visible_to=None))
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
    own_units = [x for x in state.units.values() if x.side == u.side and x.id != u.id and x.hex is not None]
    while len(walked) > 1 and not stack_ok(state, u, walked[-1], [x for x in own_units if x.hex == walked[-1]]):
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
            events.append(hex_set(path[0], {"fortified": {"side": u.side, "turn": state.clock.turn}}, rule="10.7"))
        if plan.get("disorganized"):
            markers.add("suppressed")
            extra_lines.append("disorganized movement: ends Suppressed, may not attack (10.10.2)")
            rules.append("10.10.2")
    if plan.get("bridge") and final == path[-1]:
        lab = state.map.label(final)
        events.append(hex_set(final, {"bridge": {"side": u.side, "turn": state.clock.turn}}, rule="10.11.1"))
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
        spent += float(_movement_table(state).get("bridge", {}).get("place_mp", 2)) * scale_factor(state)
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
        unit_set(u.id, markers=frozenset(markers), data={"moved": moved}, rule="10.10", visible_to=vis),
    ]
    from owsnb.rules.ows import css as _css
    from owsnb.rules.ows import ground as _g

    events = ev0 + _css.pay_fuel(state, u) + events + _g.after_move(state, u, verb)
    spent = r.cost.get(final, 0.0)
    lines = [f"{u.id} moves to {state.map.label(final)} ({spent:g} of {r.allowance.mp:g} MP)", *extra_lines, *lines]
    if halted:
        lines.append(f"halted: {halted}")
    res = Result(
        f"{u.id} moves to {state.map.label(final)}",
        {"to": state.map.label(final), "mp": spent, "halted": halted, "path": [state.map.label(h) for h in walked]},
        list(dict.fromkeys(rules)),
        roll.rolls,
        lines,
    )
    return Adjudication(events, res)


def _watching(state: Any, mover: Any, h: Hex, mission: str, missions: Any = None, skip: Any = ()) -> Any | None:
    """The first enemy *mission* (Interdiction or SUCAP) not yet expended whose zone (or hex, on maps
    without zones) holds *h* (6.5.10.4); among *missions* if given (what the mover's side knows)."""
    zone = zone_of(state, h)
    for m in missions if missions is not None else state.units.values():
        c = counter(m)
        if m.side == mover.side or m.hex is None or not c.is_air or c.mission != mission or "expended" in m.markers:
            continue
        if m.id in skip:
            continue
        if (zone is not None and zone_of(state, m.hex) == zone) or (zone is None and m.hex == h):
            return m
    return None


def sucap_plans(state: Any, sucap: Any, ship: Any) -> list[Any]:
    """6.5.10.4 / 6.5.10.2: a SUCAP mission's attack on a ship moving through its zone, resolved by
    the naval combat rules: its anti-ship salvos against the ship's own grey shields (9.2.1, every
    shield committed) and then its red shield (criticals, 2.1.1.3)."""
    from owsnb.rules.ows import strike as st

    dice_ = [a.die for a in counter(sucap).attacks if not a.air_to_air and a.can_hit("naval") for _ in range(a.left)]
    shields = [{"value": g.value, "bmd": g.bmd} for g in counter(ship).shields for _ in range(g.left)]
    return st.allocate(dice_, shields, excess=option(state, "excess_shields"), red=counter(ship).red_shield,
                       critical=option(state, "critical_hits") == "red-shield",
                       hgv_defendable=option(state, "hgv_defendable"))


def sucap_preview(state: Any, sucap: Any, ship: Any) -> Distribution:
    """Exact hits a SUCAP mission scores on a ship moving through its zone (6.5.10.4)."""
    from owsnb.rules.ows import strike as st

    return st._sum(p.distribution() for p in sucap_plans(state, sucap, ship)).map(
        lambda x: x, label=f"hits on {ship.id} by {sucap.id} (6.5.10.4)")


def _sucap(state: Any, u: Any, h: Hex, roll: Roller) -> tuple[list[Event], int, Any]:
    """6.5.10.4: a ship entering an enemy SUCAP mission's zone is attacked once by it; the mission
    is then expended; the ship's grey shields are spent. Returns events, hits and the mission."""
    from owsnb.rules.ows import strike as st

    m = _watching(state, u, h, "sucap")
    if m is None:
        return [], 0, None
    hits = sum(st._roll_salvo(roll, p, None, f"{m.id} salvo at {u.id}") for p in sucap_plans(state, m, u))
    cu, cm = counter(u), counter(m)
    ev = [unit_set(u.id, seen_by=u.seen_by | {m.side}, data={"spent": {**cu.spent, **{g.key: g.count for g in cu.shields}}},
                   rule="6.5.10.4", visible_to=None),
          unit_set(m.id, seen_by=m.seen_by | {u.side}, markers=m.markers | {"expended"},
                   data={"spent": {**cm.spent, **{a.key: a.count for a in cm.attacks if not a.air_to_air}}},
                   rule="6.5.10.4", visible_to=None)]
    if hits:
        from owsnb.kernel.reduce import apply_all

        after = apply_all(state, ev)
        ev += apply_hits(after, after.units[u.id], hits, rule="6.5.10.4", cause="air", visible_to=None)[0]
    return ev, hits, m


def _interdiction_preview(state: Any, plan: Mapping[str, Any]) -> Distribution | None:
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
    state: Any, u: Any, h: Hex, roll: Roller, used: set[str] | None = None
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
    ev.append(unit_set(m.id, markers=m.markers | {"expended"}, rule="6.5.10.4", visible_to=watchers(state, m)))
    stop = res.get("suppressed") or res.get("steps")
    return ev, (
        f"interdicted by {m.id}: {res.get('steps', 0)} step(s) lost{', suppressed' if res.get('suppressed') else ''}"
        if stop
        else None
    )


# -- naval postures (6.4.2.1, 6.4.3, 6.4.4, 6.2) ------------------------------------------------------
class _UnitPosture(OrderHandler):
    """A posture order on one unit, offered in :attr:`steps`; by default it places :attr:`marker`."""

    steps: tuple[str, ...] = ("3.A.1",)
    marker = ""
    title = ""
    effect = ""

    def _units(self, state: Any, side: str) -> list[Any]:
        return []

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u = state.units[args["unit"]]
        rule = self.type.rule
        ev = [unit_set(u.id, markers=u.markers | {self.marker}, rule=rule, visible_to=watchers(state, u))]
        return Adjudication(ev, Result(f"{u.id} {self.title}", {"unit": u.id}, [rule], [], [self.effect]))

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if state.clock.step not in self.steps:
            return None
        ex = legal_examples(self, state, side, ({"unit": u.id} for u in self._units(state, side)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(o.args[0] for o in ex)), tuple(ex[:10])) if ex else None


class SilentRunning(_UnitPosture):
    """6.4.2.1: a submarine that stays in its hex may go to Silent Running."""

    type = OrderType(
        "silent-running",
        (Param("unit", "unit", "submarine that stays in its hex"),),
        rule="6.4.2.1",
        doc="place a submarine in Silent Running",
    )
    marker, title = "silent-running", "in Silent Running"
    effect = "detection against it demoted; its own sensing promoted (6.4.2.1)"

    def _units(self, state: Any, side: str) -> list[Any]:
        return [u for u in state.units_of(side) if counter(u).category == "submarine" and u.hex is not None]

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "6.4.2.1")
        if counter(u).category != "submarine":
            raise refuse(f"{u.id} is not a submarine", "not-sub", "6.4.2.1", order)
        if _naval_hexes_moved(state, u) > 0:
            raise refuse(
                f"{u.id} has moved this turn: Silent Running is for a submarine that stays in its hex",
                "moved",
                "6.4.2.1",
                order,
            )
        if "silent-running" in u.markers:
            raise refuse(f"{u.id} is already in Silent Running", "already", "6.4.2.1", order)


class Emcon(_UnitPosture):
    """6.4.3: decide per counter whether it emits (face up, detected, TACSIT 1) or stays silent."""

    type = OrderType(
        "emcon",
        (
            Param("unit", "unit", "ship, ground unit or aircraft"),
            Param("state", "choice", "emit (active) or silent", optional=True, choices=("emit", "silent")),
        ),
        rule="6.4.3",
        doc="active EMCON: emit (face up, detected) or go silent",
    )
    steps = ("3.A.1", "3.B.1")

    def _units(self, state: Any, side: str) -> list[Any]:
        return [u for u in state.units_of(side) if u.hex is not None and (counter(u).sensors or counter(u).shields)][
            :10
        ]

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "6.4.3")
        if counter(u).category in ("sof", "air-base", "asp", "infrastructure"):
            raise refuse(f"{u.id} has no emitter to switch", "no-emitter", "6.4.3", order)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u = state.units[args["unit"]]
        emit = (args.get("state") or ("silent" if "emitting" in u.markers else "emit")) == "emit"
        if emit:
            ev = [unit_set(u.id, markers=u.markers | {"emitting", "tacsit1"}, rule="6.4.3", visible_to=None)]
            line = f"{u.id} emits: face up, detected and targetable (TACSIT 1)"
        else:
            after = u.evolve(markers=u.markers - {"emitting"})
            from owsnb.kernel.reduce import apply as _apply

            s2 = _apply(state, unit_set(u.id, markers=after.markers))
            ev = [unit_set(u.id, markers=after.markers, rule="6.4.3", visible_to=watchers(s2, s2.units[u.id]))]
            line = f"{u.id} goes silent (EMCON)"
        return Adjudication(ev, Result(line, {"unit": u.id, "emitting": emit}, ["6.4.3"], [], [line]))


class AswMode(_UnitPosture):
    """6.4.4: place a unit with an ASW die in ASW mode (lost if it moves more than 1 hex)."""

    type = OrderType(
        "asw-mode",
        (Param("unit", "unit", "unit with an ASW (submarine) die"),),
        rule="6.4.4",
        doc="place a unit in ASW mode",
    )
    marker, title = "asw", "in ASW mode"
    effect = "may roll to detect submarines in its hex in the ISR phase (6.4.4)"

    def _units(self, state: Any, side: str) -> list[Any]:
        return [
            u
            for u in state.units_of(side)
            if u.hex is not None and counter(u).asw is not None and "asw" not in u.markers
        ]

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "6.4.4")
        if counter(u).asw is None:
            raise refuse(f"{u.id} has no ASW capability (red submarine silhouette, 8.5.2)", "no-asw", "6.4.4", order)
        if "asw" in u.markers:
            raise refuse(f"{u.id} is already in ASW mode", "already", "6.4.4", order)
        nt = _movement_table(state)["naval"]
        if _naval_hexes_moved(state, u) > int(nt.get("asw_max_hexes", 1)):
            raise refuse(
                f"{u.id} moved more than {nt.get('asw_max_hexes', 1)} hex this turn: no ASW mode (6.4.4)",
                "moved",
                "6.4.4",
                order,
            )


class Intercept(_UnitPosture):
    """6.2: set whether a unit halts detected enemy naval movers entering its hex (default: yes)."""

    type = OrderType(
        "intercept",
        (
            Param("unit", "unit", "own naval unit"),
            Param("posture", "choice", "on (halt movers) or off", optional=True, choices=("on", "off")),
        ),
        rule="6.2",
        doc="intercept posture: halt detected enemy movers in this unit's hex",
    )
    steps = ("3.A.1", "3.B.1")

    def _units(self, state: Any, side: str) -> list[Any]:
        return [u for u in state.units_of(side) if u.hex is not None and counter(u).category in NAVAL_CATEGORIES][:6]

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "6.2")
        if counter(u).category not in NAVAL_CATEGORIES:
            raise refuse(f"{u.id} is not a naval unit", "not-naval", "6.2", order)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u = state.units[args["unit"]]
        on = (args.get("posture") or ("off" if u.data.get("intercept", True) else "on")) == "on"
        ev = [unit_set(u.id, data={"intercept": on}, rule="6.2", visible_to=frozenset({u.side}))]
        return Adjudication(ev, Result(f"{u.id} intercept {'on' if on else 'off'}", {"intercept": on}, ["6.2"]))


# -- mines (6.4.5, optional) ------------------------------------------------------------------------
class LayMines(_UnitPosture):
    """6.4.5.1: a mine-capable ship lays mines in its hex (noted secretly); an adversary detection
    asset in the hex rolls to see it."""

    type = OrderType(
        "lay-mines",
        (Param("unit", "unit", "mine-capable ship"),),
        rule="6.4.5.1",
        doc="lay a minefield in the ship's hex (secret)",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        return super().candidates(state, side) if option(state, "mines") else None

    def _units(self, state: Any, side: str) -> list[Any]:
        return [u for u in state.units_of(side) if u.hex is not None and u.data.get("mine_capable")]

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if not option(state, "mines"):
            raise refuse(
                "mine warfare is an optional rule this scenario does not use (6.4.5)", "option-off", "6.4.5", order
            )
        u = own_unit(state, order, args["unit"], "6.4.5.1")
        if not u.data.get("mine_capable"):
            raise refuse(f"{u.id} cannot lay mines", "not-mine-capable", "6.4.5.1", order)
        if int(u.data.get("mines_laid_turn", 0) or 0) == state.clock.turn:
            raise refuse(f"{u.id} has already laid mines this turn", "already", "6.4.5.1", order)
        if not is_water(state, u.hex):
            raise refuse("mines are laid at sea", "not-sea", "6.4.5.1", order)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u = state.units[args["unit"]]
        lab = state.map.label(u.hex)
        mt = _movement_table(state)["mines"]
        die = parse_die(u.data.get("mine_die") or mt["die"])
        fields = _minefields(state)
        fields[lab] = {"side": u.side, "die": die}
        ev: list[Event] = [
            state_set("secret", {"minefields": fields}, rule="6.4.5.1"),
            unit_set(u.id, data={"mines_laid_turn": state.clock.turn}, rule="6.4.5.1", visible_to=watchers(state, u)),
        ]
        roll = Roller(dice)
        seen = False
        for foe in sorted(
            {
                e.side
                for e in state.units.values()
                if e.side != u.side
                and e.hex == u.hex
                and e.alive
                and (counter(e).sensors or counter(e).asw is not None)
            }
        ):
            r = roll(
                mt["detection_die"], f"{foe} detection of mine laying in {lab}", "6.4.5.1", frozenset({foe, u.side})
            )
            if r >= int(mt["detection_target"]):
                seen = True
        if seen:
            vis = _visible_minefields(state)
            vis[lab] = {"side": u.side, "die": die}
            ev.append(state_set("public", {"minefields": vis}, rule="6.4.5.1"))
        return Adjudication(
            ev,
            Result(
                f"mines laid in {lab}",
                {"hex": lab, "detected": seen},
                ["6.4.5.1"],
                roll.rolls,
                ["the minefield is visible" if seen else "laid in secret"],
            ),
        )


class SweepMines(OrderHandler):
    """6.4.5.3: a minesweeper in or next to a known minefield rolls to clear it."""

    type = OrderType(
        "sweep-mines",
        (Param("unit", "unit", "minesweeper"), Param("hex", "hex", "minefield hex")),
        rule="6.4.5.3",
        doc="sweep a known minefield",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if not option(state, "mines") or state.clock.step != "3.A.1":
            return None
        vis = _visible_minefields(state)
        ex = [
            self.type.make(side, unit=u.id, hex=lab)
            for u in state.units_of(side)
            if u.hex is not None and u.data.get("minesweeper")
            for lab, f in vis.items()
            if f.get("side") != side and state.map.hex(lab).distance(u.hex) <= 1
        ]
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _check(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[Any, Hex]:
        if not option(state, "mines"):
            raise refuse(
                "mine warfare is an optional rule this scenario does not use (6.4.5)", "option-off", "6.4.5", order
            )
        u = own_unit(state, order, args["unit"], "6.4.5.3")
        if not u.data.get("minesweeper"):
            raise refuse(f"{u.id} is not a minesweeper", "not-sweeper", "6.4.5.3", order)
        h = state.map.hex(args["hex"])
        lab = state.map.label(h)
        if lab not in _visible_minefields(state):
            raise refuse(f"no known minefield in {lab}", "no-minefield", "6.4.5.3", order)
        if h.distance(u.hex) > 1:
            raise refuse(f"{u.id} must be in or next to {lab}", "too-far", "6.4.5.3", order)
        return u, h

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Distribution:
        mt = _movement_table(state)["mines"]
        from owsnb.rules.ows.dice import success_probability

        return Distribution.bernoulli(
            success_probability(mt["sweep_die"], int(mt["sweep_target"])), label="minefield cleared"
        )

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u, h = self._check(state, order, args)
        lab = state.map.label(h)
        mt = _movement_table(state)["mines"]
        roll = Roller(dice)
        r = roll(mt["sweep_die"], f"mine clearance in {lab} ({mt['sweep_target']}+)", "6.4.5.3", None)
        ok = r >= int(mt["sweep_target"])
        ev: list[Event] = []
        if ok:
            f = _minefields(state)
            f.pop(lab, None)
            v = _visible_minefields(state)
            v.pop(lab, None)
            ev = [
                state_set("secret", {"minefields": f}, rule="6.4.5.3"),
                state_set("public", {"minefields": v}, rule="6.4.5.3"),
            ]
        return Adjudication(
            ev,
            Result(
                f"sweep {lab}", {"cleared": ok}, ["6.4.5.3"], roll.rolls, ["minefield cleared" if ok else "not cleared"]
            ),
        )


# -- assaults (6.4.6, 6.5.11, 6.5.12) ---------------------------------------------------------------
def _land(state: Any, h: Hex) -> bool:
    return h in state.map.hexes and not is_water(state, h)


class AmphibiousAssault(OrderHandler):
    """6.4.6: place an embarked landing force in a beach hex next to its ship, under an Amphibious
    Assault marker; only amphibious units swim ashore, others need a landing ship (LST/LSM/LCAC)."""

    type = OrderType(
        "amphibious-assault",
        (
            Param("unit", "unit", "ground unit aboard the ship"),
            Param("hex", "hex", "beach landing hex (land, next to the ship)"),
        ),
        rule="6.4.6",
        doc="place an amphibious assault",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units_of(side):
            ship = carrier_of(state, u)
            if ship is None or ship.hex is None:
                continue
            for n in ship.hex.neighbours():
                if _land(state, n):
                    ex.append(self.type.make(side, unit=u.id, hex=state.map.label(n)))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:10])) if ex else None

    def _check(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[Any, Any, Hex]:
        u = own_unit(state, order, args["unit"], "6.4.6", on_map=False)
        ship = carrier_of(state, u)
        if ship is None or ship.hex is None or not ship.alive:
            raise refuse(f"{u.id} is not aboard a ship at sea", "not-aboard", "6.4.6", order)
        if not (u.data.get("amphibious") or ship.data.get("landing_craft")):
            raise refuse(
                f"{u.id} is not amphibious and {ship.id} is not a landing ship (LST/LSM/LCAC/causeway)",
                "no-landing-means",
                "6.4.6",
                order,
            )
        h = state.map.hex(args["hex"])
        if not _land(state, h) or h.distance(ship.hex) > 1:
            raise refuse(f"the beach hex must be a land hex next to {ship.id}", "bad-beach", "6.4.6", order)
        return u, ship, h

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u, ship, h = self._check(state, order, args)
        own = frozenset({u.side})
        tag = ship.data.get("assault_tag") or lift_tag(state, "assault")
        ev = [
            unit_move(u.id, h, rule="6.4.6", visible_to=own),
            unit_set(
                u.id,
                markers=(u.markers - {"rsoi"}) | {"amphibious-assault"},
                data={"aboard": "", "assault": {"mode": "sea", "tag": tag, "turn": state.clock.turn, "per_step": 1}},
                rule="6.4.6",
                visible_to=own,
            ),
            unit_move(ship.id, h, rule="2.3.4", visible_to=watchers(state, ship)),
            unit_set(
                ship.id,
                markers=ship.markers | {"amphibious-assault"},
                data={"assault_tag": tag, "assault_from": ship.data.get("assault_from") or [ship.hex.q, ship.hex.r]},
                rule="2.3.4",
                visible_to=watchers(state, ship),
            ),
        ]
        return Adjudication(
            ev,
            Result(
                f"{u.id} assaults {state.map.label(h)} from {ship.id}",
                {"hex": state.map.label(h)},
                ["6.4.6", "2.3.4"],
                [],
                [
                    "ship and landing force are targets in the Combat phase; ashore in the Ground "
                    "phase if the ship survives (6.4.6, 10.15.8)"
                ],
            ),
        )


class AirborneAssault(OrderHandler):
    """6.5.11: an airborne unit that started the turn in an airfield hex is placed with its
    transports (one per step, two per mechanised step) in a land hex under an Airborne Assault marker."""

    verb = "airborne-assault"
    rule = "6.5.11"
    flag = "airborne"
    type = OrderType(
        "airborne-assault",
        (
            Param("unit", "unit", "airborne unit in an airfield hex"),
            Param("hex", "hex", "drop zone (land hex)"),
            Param("transports", "unit", "air transport missions", positional=False, repeat=True),
        ),
        rule="6.5.11",
        doc="place an airborne assault",
    )

    def _transports_ok(self, t: Any) -> bool:
        c = counter(t)
        return c.is_air and c.mission in ("transport", "air-assault")

    def _start_ok(self, state: Any, u: Any) -> bool:
        return u.hex is not None and "airfield" in state.map.hexes[u.hex].features

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ready = [t for t in state.units_of(side) if t.box == "base" and self._transports_ok(t)]
        ex = []
        for u in state.units_of(side):
            if not (u.data.get(self.flag) or counter(u).subtype == self.flag.replace("_", "-")) or not self._start_ok(
                state, u
            ):
                continue
            need = self._need(state, u)
            if len(ready) < need:
                continue
            for n in u.hex.neighbours():
                if _land(state, n):
                    ex.append(
                        self.type.make(side, unit=u.id, hex=state.map.label(n), transports=[t.id for t in ready[:need]])
                    )
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex[:8])) if ex else None

    def _need(self, state: Any, u: Any) -> int:
        per = (
            int(_movement_table(state)["strategic"].get("heavy_lift_per_mech_step", 2))
            if (is_mech(u) and self.flag == "airborne")
            else 1
        )
        return u.steps * per

    def _check(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[Any, Hex, list[Any]]:
        u = own_unit(state, order, args["unit"], self.rule)
        if not (u.data.get(self.flag) or counter(u).subtype == self.flag.replace("_", "-")):
            raise refuse(f"{u.id} is not {self.flag.replace('_', ' ')} capable", "not-capable", self.rule, order)
        if not self._start_ok(state, u) or moved_this_turn(state, u):
            raise refuse(
                f"{u.id} must start the turn in an airfield hex"
                + (" or with an LHD/LHA" if self.flag == "air_assault" else ""),
                "not-at-airfield",
                self.rule,
                order,
            )
        h = state.map.hex(args["hex"])
        if not _land(state, h):
            raise refuse("the landing zone must be a land hex", "not-land", self.rule, order)
        ts = []
        for tid in args.get("transports", ()):
            t = own_unit(state, order, tid, self.rule, on_map=False)
            if not self._transports_ok(t) or t.box != "base":
                raise refuse(f"{t.id} is not a ready transport mission", "not-transport", self.rule, order)
            ts.append(t)
        need = self._need(state, u)
        if len(set(t.id for t in ts)) < need:
            raise refuse(
                f"{u.id} has {u.steps} step(s): it needs {need} transport mission(s)"
                + (" (two per mechanised step)" if need > u.steps else ""),
                "too-few-transports",
                self.rule,
                order,
            )
        radius = max((int(counter(t).combat_radius or 0) for t in ts), default=0)
        if radius and u.hex.distance(h) > radius * 3:
            raise refuse(
                f"{state.map.label(h)} is beyond the transports' reach ({radius * 3} hexes)",
                "out-of-radius",
                "6.5.3",
                order,
            )
        return u, h, ts

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u, h, ts = self._check(state, order, args)
        own = frozenset({u.side})
        tag = lift_tag(state, "assault")
        ev = [
            unit_move(u.id, h, rule=self.rule, visible_to=own),
            unit_set(
                u.id,
                markers=u.markers | {"airborne-assault"},
                data={
                    "assault": {
                        "mode": "air",
                        "tag": tag,
                        "turn": state.clock.turn,
                        "per_step": self._need(state, u) // max(u.steps, 1),
                    }
                },
                rule=self.rule,
                visible_to=own,
            ),
        ]
        for t in ts:
            ev.append(unit_move(t.id, h, rule=self.rule, visible_to=frozenset({t.side})))
            ev.append(
                unit_set(
                    t.id,
                    markers=t.markers | {"airborne-assault"},
                    data={"assault_tag": tag},
                    rule="2.3.4",
                    visible_to=frozenset({t.side}),
                )
            )
        return Adjudication(
            ev,
            Result(
                f"{u.id} {self.flag.replace('_', ' ')} assault on {state.map.label(h)}",
                {"hex": state.map.label(h), "transports": [t.id for t in ts]},
                [self.rule, "2.3.4"],
                [],
                ["exposed to CAP and air defence in Air Combat; on the ground if the transports survive (10.15.8)"],
            ),
        )


class AirAssault(AirborneAssault):
    """6.5.12: an air-assault unit in an airfield or LHD/LHA hex goes in with one air-assault
    capable transport per step."""

    rule = "6.5.12"
    flag = "air_assault"
    type = OrderType(
        "air-assault",
        (
            Param("unit", "unit", "air assault unit"),
            Param("hex", "hex", "landing zone (land hex)"),
            Param(
                "transports", "unit", "air assault transports (helicopters, tilt-rotors)", positional=False, repeat=True
            ),
        ),
        rule="6.5.12",
        doc="place an air assault",
    )

    def _transports_ok(self, t: Any) -> bool:
        c = counter(t)
        return c.is_air and (c.mission == "air-assault" or bool(t.data.get("air_assault")))

    def _start_ok(self, state: Any, u: Any) -> bool:
        if u.hex is None:
            return False
        if "airfield" in state.map.hexes[u.hex].features:
            return True
        return any(
            x.side == u.side and x.hex == u.hex and counter(x).subtype in ("lhd", "lha") for x in state.units.values()
        )

    def _need(self, state: Any, u: Any) -> int:
        return u.steps


def deliver_landings(state: Any, dice: Any) -> list[Event]:
    """10.15.8 (entering the Ground phase): surviving transports deliver their landing forces —
    ships go back to sea, air transports to base; the force aboard a lost transport is lost with
    it (R11, option ``airborne_lost_with_transport``; for ships owsnb applies the same reading)."""
    events: list[Event] = []
    turn = state.clock.turn
    for u in state.units.values():
        a = u.data.get("assault") or {}
        if not a or int(a.get("turn", 0)) != turn or a.get("delivered") or u.hex is None:
            continue
        vis = watchers(state, u)
        lost_steps = 0
        carriers = [t for t in state.units.values() if t.data.get("assault_tag") == a.get("tag") and a.get("tag")]
        for t in carriers:
            if not t.alive or t.box in ("regeneration", "attrition"):
                lost_steps += 1
                continue
            if a.get("mode") == "sea":
                back = Hex(*t.data.get("assault_from")) if t.data.get("assault_from") else None
                if back is None:
                    back = next((n for n in u.hex.neighbours() if is_water(state, n)), None)
                events.append(unit_move(t.id, back, rule="10.15.8", visible_to=watchers(state, t)))
                events.append(
                    unit_set(
                        t.id,
                        markers=t.markers - {"amphibious-assault"},
                        data={"assault_from": None, "assault_tag": None},
                        rule="10.15.8",
                        visible_to=watchers(state, t),
                    )
                )
            else:
                events.append(
                    unit_set(
                        t.id,
                        hex=None,
                        box="base",
                        markers=t.markers - {"airborne-assault"},
                        data={"assault_tag": None},
                        rule="10.15.8",
                        visible_to=frozenset({t.side}),
                    )
                )
        rule = "R11" if a.get("mode") == "air" else "10.15.8"
        if lost_steps and (a.get("mode") == "sea" or option(state, "airborne_lost_with_transport")):
            per = int(a.get("per_step", 1) or 1)
            steps = u.steps if a.get("mode") == "sea" else min(u.steps, -(-lost_steps // per))
            ev, _, _ = apply_hits(state, u, steps, rule=rule, cause="ground", visible_to=vis)
            events += ev
            events.append(
                note(f"{u.id}: {steps} step(s) lost with their transport ({rule})", rule=rule, visible_to=vis)
            )
            if steps >= u.steps:
                continue
        foes = [e for e in state.units.values() if e.side != u.side and e.hex is not None and e.alive]
        in_zoc = u.hex in zoc_hexes(state, foes)
        events.append(
            unit_set(
                u.id,
                data={
                    "landed": turn,
                    "assault": {**thaw(a), "delivered": True, "at": [u.hex.q, u.hex.r], "zoc": in_zoc},
                },
                rule="10.15.8",
                visible_to=vis,
            )
        )
    return events


HANDLERS = [
    Move(),
    Bypass(),
    Disengage(),
    SilentRunning(),
    Emcon(),
    AswMode(),
    Intercept(),
    LayMines(),
    SweepMines(),
    AmphibiousAssault(),
    AirborneAssault(),
    AirAssault(),
]
STEP_EFFECTS = {"6.C.1": deliver_landings}
