"""Counters, states and the small facts every TOCS module asks about.

Unit payload (catalog ``data`` merged with the scenario's per-unit ``data``):

* ``cls``: ``company``, ``hqcompany``, ``vehicle`` (vehicle platoon), ``battery``, ``asset``,
  ``hq``, ``aircraft`` or ``naval`` (source L105-142);
* ``mobility``: ``foot``, ``motorized``, ``mech``, ``armored`` (L363-364);
* printed ``attack``, ``defense``, ``mp`` (per AP), ``ml`` (morale level), ``elr``;
* HQs: ``echelon`` (battalion < regiment/brigade < division < corps < army) and ``radius``;
* ``parent``: the HQ the unit reports to; flags ``recon``, ``engineer``, ``independent``, ``para``;
* dynamic: ``state`` (0 Good Order .. 5 Dispersed), ``ap``, ``mp_left``, ``activated``,
  ``acted``, ``reserve``, ``ext_dir``, ``in_loc``, ``in_los``, ``attack_hex``, ``attack_type``.

>>> ap_for(0, "day"), ap_for(1, "night"), ap_for(2, "night"), ap_for(3, "day")
(3, 1, 0, 0)
>>> degrade(4, 3), improve(5, 2)
(5, 3)
>>> strength(6, 4, 4), strength(6, 3, 4), strength(5, 1, 4)
(6, 5, 2)
"""

from __future__ import annotations

import math
from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike

__all__ = [
    "STATES",
    "GOOD_ORDER",
    "FATIGUED",
    "DISORDERED",
    "DISRUPTED",
    "DEMORALIZED",
    "DISPERSED",
    "ECHELONS",
    "ap_for",
    "degrade",
    "improve",
    "strength",
    "is_company",
    "exerts_zoc_class",
    "is_tw",
    "is_mech",
    "mobility_column",
    "ground_units",
    "enemy_of",
    "other_side",
    "owner",
    "alive_on_map",
    "units_in",
    "opposing_in",
    "state_of",
    "ap_left",
    "unit_types",
    "hq_chain",
    "los_hqs",
    "daypart",
    "clock_hour",
    "DEAD",
]

STATES = ("good-order", "fatigued", "disordered", "disrupted", "demoralized", "dispersed")
GOOD_ORDER, FATIGUED, DISORDERED, DISRUPTED, DEMORALIZED, DISPERSED = range(6)
ECHELONS = ("battalion", "regiment", "brigade", "division", "corps", "army")
DEAD = "dead"
_AP = {"day": (3, 2, 1, 0, 0, 0), "night": (2, 1, 0, 0, 0, 0)}


def ap_for(state: int, column: str, table: Any = None) -> int:
    """AP of a unit in *state* by day or night (L158-168)."""
    if table is not None:
        row = table["ap_day"] if column == "day" else table["ap_night"]
        return int(row[state])
    return _AP[column][state]


def degrade(state: int, n: int = 1) -> int:
    """*n* states worse, never past Dispersed (L168)."""
    return min(DISPERSED, state + n)


def improve(state: int, n: int = 1, best: int = GOOD_ORDER) -> int:
    """*n* states better, never better than *best*."""
    return max(best, state - n)


def strength(printed: int, steps: int, max_steps: int) -> int:
    """Printed strength scaled by steps left, fractions rounded up (a ruling: counters show SL
    markers whose exact values are lost)."""
    if printed <= 0 or steps <= 0:
        return 0
    return math.ceil(printed * steps / max_steps)


def is_company(u: Any) -> bool:
    return u.get("cls") in ("company", "hqcompany")


def exerts_zoc_class(u: Any) -> bool:
    """Companies and HQ-Companies exert ZOC, whatever their type (L123, L171)."""
    return is_company(u)


def is_tw(u: Any) -> bool:
    """Tracked/wheeled: motorized, mech and armored (L364)."""
    return u.get("mobility") in ("motorized", "mech", "armored")


def is_mech(u: Any) -> bool:
    """Mechanized or armored (L174, L310)."""
    return u.get("mobility") in ("mech", "armored")


def mobility_column(u: Any) -> str:
    """COT column: foot, wheeled or tracked."""
    m = u.get("mobility", "foot")
    return {"motorized": "wheeled", "mech": "tracked", "armored": "tracked"}.get(m, "foot")


def alive_on_map(u: Any) -> bool:
    return u.alive and u.hex is not None


def ground_units(state: StateLike, side: str | None = None) -> list[Any]:
    return [
        u
        for u in state.units.values()
        if alive_on_map(u)
        and u.get("cls") not in ("aircraft", "naval")
        and (side is None or u.side == side)
    ]


def other_side(state: StateLike, side: str) -> str:
    return next(s for s in state.sides if s != side)


enemy_of = other_side


def owner(state: StateLike, h: Hex) -> str:
    """Who owns hex *h* (a side name, or ``"none"`` for no man's land)."""
    return state.map.hexes[h].facts.get("owner", "none")


def units_in(state: StateLike, h: Hex, side: str | None = None) -> list[Any]:
    return [u for u in ground_units(state, side) if u.hex == h]


def opposing_in(state: StateLike, h: Hex, side: str) -> list[Any]:
    """Units of the other side in *h* (truth: only the referee may call this for a side)."""
    return [u for u in ground_units(state) if u.hex == h and u.side != side]


def state_of(u: Any) -> int:
    return int(u.get("state", 0))


def ap_left(u: Any) -> int:
    return int(u.get("ap", 0)) if u.get("activated") else 0


def unit_types(units: list[Any]) -> list[str]:
    """Probe/recon type words: Infantry, Vehicles, Guns (L279, L587)."""
    out = set()
    for u in units:
        c = u.get("cls")
        if c in ("company", "hqcompany", "hq"):
            out.add("Infantry")
            if u.get("mobility") in ("mech", "motorized"):
                out.add("Vehicles")
        elif c == "vehicle" or (c == "asset" and u.get("mobility") == "armored"):
            out.add("Vehicles")
        elif c in ("battery",) or (c == "asset" and u.get("mobility") != "armored"):
            out.add("Guns")
    return sorted(out)


def hq_chain(state: StateLike, u: Any) -> list[Any]:
    """The unit's parent HQ, its parent, and so on (L184-186)."""
    out, seen = [], {u.id}
    pid = u.get("parent")
    while pid and pid in state.units and pid not in seen:
        hq = state.units[pid]
        out.append(hq)
        seen.add(pid)
        pid = hq.get("parent")
    return out


def los_hqs(state: StateLike, u: Any) -> list[Any]:
    """HQs *u* may draw supply (LOS) through: its chain of command and, for every unit of that chain
    that was reassigned, the chain of its original parent too (10.17, L315)."""
    out, seen = [], {u.id}
    todo = [u]
    while todo:
        x = todo.pop(0)
        for pid in (x.get("parent"), x.get("original_parent")):
            if pid and pid in state.units and pid not in seen:
                seen.add(pid)
                hq = state.units[pid]
                out.append(hq)
                todo.append(hq)
    return out


def clock_hour(state: StateLike, turn: int | None = None) -> tuple[int, int]:
    """(day index from the start, hour) of *turn*: 3 hours per turn (L106)."""
    rules = state.public.get("calendar", {})
    start = int(rules.get("start_hour", 12))
    t = state.clock.turn if turn is None else turn
    hours = start + 3 * (t - 1)
    return hours // 24, hours % 24


def daypart(state: StateLike, turn: int | None = None) -> str:
    """day, dawn, dusk or night for a turn (table ``daypart``)."""
    _, hour = clock_hour(state, turn)
    hours = state.tables["daypart"]["hours"]
    return str(hours.get(hour, hours.get(str(hour), "day")))
