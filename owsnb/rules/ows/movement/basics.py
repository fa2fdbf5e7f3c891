"""What every part of tactical movement shares: movement modes (10.10), the Movement Chart in force
and its scaling by hex size (M1, M2), the 100 km zones (2.1.2.3), what a side knows of the enemy
(M3), the links between ships and their cargo (5.1.1.2) and the bookkeeping of who moved when.

Paragraphs: 10.10 modes wheeled / tracked / foot / ski, the least mobile mode of a mixed unit;
6.4 naval rates in operational hexes (M2: converted to the map's hexes); 2.1.2.3 yellow 100 km
zones; 2.1.7.1 friendly ports; 5.1.1.2 cargo aboard a ship; 6.5.10.4 the air missions (Interdiction,
SUCAP) watching a mover's route.

>>> least_mobile("wheeled+ski")
'ski'
>>> naval_rate("cvn"), naval_rate("ssn", normal=True), naval_rate("ssn", hex_nm=100)
(4, 2, 6)"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.geo import NM_KM, GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import UMPIRE, StateLike
from owsnb.rules.ows.common import detected, option, table
from owsnb.rules.ows.tables import load_tables
from owsnb.rules.ows.units import counter

GROUND_CATEGORIES = ("ground", "hq", "artillery", "air-defence", "engineer", "css", "transport")
"""Counter kinds that move on the ground (10.10)."""
NAVAL_CATEGORIES = ("naval", "submarine")
SUBS = ("ssn", "ssgn", "ssbn", "ssk")
MECH_MODES = ("tracked", "wheeled")


# -- small helpers ---------------------------------------------------------------------------------
def least_mobile(modes: str | Sequence[str]) -> str:
    """10.10: a unit with mixed capabilities uses the least mobile one.

    >>> least_mobile("wheeled"), least_mobile(["wheeled", "tracked"])
    ('wheeled', 'tracked')
    """
    order = ("foot", "ski", "tracked", "wheeled")
    items = [
        m.strip()
        for m in (modes.replace("/", "+").split("+") if isinstance(modes, str) else modes)
        if m.strip()
    ]
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
    return c.category == "ground" and (
        str(c.subtype) == "light" or mobility(unit) in ("foot", "ski")
    )


def is_water(state: StateLike, h: Hex) -> bool:
    info = state.map.hexes.get(h)
    return info is not None and info.terrain in _movement_table(state).get(
        "water", ("sea", "deep-sea", "littoral", "lake")
    )


def friendly_port(state: StateLike, h: Hex, side: str) -> bool:
    """A port hex owned or controlled by *side* (2.1.7.1)."""
    info = state.map.hexes.get(h)
    if info is None or "port" not in info.features:
        return False
    owner = (
        info.facts.get("control")
        or info.features["port"].get("owner")
        or info.features["port"].get("side")
    )
    return owner == side


def lift_tag(state: StateLike, kind: str = "lift") -> str:
    """A neutral token linking a transport and its cargo without naming either (hidden units stay
    hidden: neither carries the other's id)."""
    return f"{kind}-{state.seq}"


def cargo_of(state: StateLike, ship: Any) -> list[Any]:
    """Units aboard *ship* (5.1.1.2)."""
    tag = ship.data.get("hold")
    return sorted(
        (u for u in state.units.values() if tag and u.data.get("aboard") == tag), key=lambda u: u.id
    )


def carrier_of(state: StateLike, unit: Any) -> Any | None:
    """The ship *unit* is aboard (5.1.1.2), if any."""
    tag = unit.data.get("aboard")
    if not tag:
        return None
    return next((s for s in state.units.values() if s.data.get("hold") == tag), None)


def _naval_hexes_moved(state: StateLike, unit: Any) -> int:
    """Hexes *unit* moved in this turn's naval movement (6.4.2.1, 6.4.4)."""
    return (
        int((unit.data.get("moved") or {}).get("hexes", 0) or 0)
        if moved_this_turn(state, unit, "3.A.1")
        else 0
    )


def rsoi_rule(unit: Any) -> str:
    """The paragraph that holds *unit* in RSO&I: the strategic move that put it there (5.1.1.2
    sealift, 5.1.1.3 airlift, 5.1.1.4 rail, 5.1.1.5 HET), else 5.1.1.1 (e.g. set by a scenario)."""
    return str(unit.data.get("rsoi_rule") or "5.1.1.1")


def moved_this_turn(state: StateLike, unit: Any, step: str | None = None) -> bool:
    m = unit.data.get("moved") or {}
    if int(m.get("turn", 0) or 0) != state.clock.turn:
        return False
    return step is None or m.get("step") == step


_TABLES: dict[tuple[str, int], tuple[Any, Any]] = {}


def ptable(state: StateLike, name: str) -> Any:
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


def _movement_table(state: StateLike) -> dict[str, Any]:
    return ptable(state, "movement")


def hex_km(state: StateLike) -> float:
    return float(state.map.km_per_hex() or 20.0)


def scale_factor(state: StateLike) -> float:
    """M1: Movement Chart costs are for tactical hexes; larger hexes multiply them."""
    t = _movement_table(state)
    ref = float(t.get("reference_hex_km") or 20)
    km = hex_km(state)
    if not option(state, "movement_scaling") or km <= ref * 1.0001:
        return 1.0
    return km / ref


def naval_rate(
    subtype: str, *, hex_nm: float = 200.0, normal: bool = False, table_: Mapping | None = None
) -> int:
    """6.4 rates in operational hexes, converted to the map's hexes (M2); ``normal`` = without
    cavitating (6.4.2)."""
    if table_ is None:
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


def _hex_nm(state: StateLike) -> float:
    return hex_km(state) / NM_KM


# -- zones (2.1.2.3 yellow 100 km zones) --------------------------------------------------------------
_ZONE_CACHE: dict[tuple, GeoLayout] = {}


def _zone_layout(state: StateLike) -> GeoLayout | None:
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


def zone_of(state: StateLike, h: Hex) -> Hex | None:
    """The 100 km zone (yellow hex, 2.1.2.3) holding hex *h* on a map with ``meta.zone_km``; zones
    are a coarser hex grid with the same orientation and anchor. ``None`` on maps without zones."""
    z = _zone_layout(state)
    if z is None:
        return None
    lay = state.map.layout or GeoLayout("flat", hex_km(state), projection="simple")
    x, y = lay.hex_to_xy(h)
    return z.xy_to_hex(x, y)


def zone_distance(state: StateLike, a: Hex, b: Hex) -> int | None:
    """Distance in zones between the zones of *a* and *b* (``None`` without zones)."""
    za, zb = zone_of(state, a), zone_of(state, b)
    if za is None or zb is None:
        return None
    return za.distance(zb)


def rear_zone(state: StateLike, h: Hex) -> Hex:
    """The zone of *h* for the rear-area rules (10.15.10): its 100 km zone, or the hex itself on
    maps without zones."""
    z = zone_of(state, h)
    return h if z is None else z


def zone_hexes(state: StateLike, zone: Hex) -> list[Hex]:
    """The map hexes of a zone."""
    return [h for h in state.map.hexes if zone_of(state, h) == zone]


# -- knowledge ---------------------------------------------------------------------------------------
def _is_view(state: StateLike) -> bool:
    return hasattr(state, "is_umpire")


def known_enemies(state: StateLike, side: str) -> list[Any]:
    """Enemy units on the map that *side* knows about (M3): the units of a view, or the detected
    units of the truth. Last-known ghosts are not counted."""
    out = []
    for u in state.units.values():
        if u.side == side or u.hex is None or not u.alive or "last-known" in u.markers:
            continue
        if _is_view(state) or side == UMPIRE or detected(state, u, side):
            out.append(u)
    return out


# -- bookkeeping of a move ------------------------------------------------------------------------
def _moved(state: StateLike, u: Any, hexes: int, step: str, **extra: Any) -> dict[str, Any]:
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


# -- air missions watching a route (6.5.10.4) ------------------------------------------------------
def _watching(
    state: StateLike, mover: Any, h: Hex, mission: str, missions: Any = None, skip: Any = ()
) -> Any | None:
    """The first enemy *mission* (Interdiction or SUCAP) not yet expended whose zone (or hex, on maps
    without zones) holds *h* (6.5.10.4); among *missions* if given (what the mover's side knows)."""
    zone = zone_of(state, h)
    for m in missions if missions is not None else state.units.values():
        c = counter(m)
        if (
            m.side == mover.side
            or m.hex is None
            or not c.is_air
            or c.mission != mission
            or "expended" in m.markers
        ):
            continue
        if m.id in skip:
            continue
        if (zone is not None and zone_of(state, m.hex) == zone) or (zone is None and m.hex == h):
            return m
    return None
