"""Combat service support [Advanced] (10.13): fuel points and ground munitions counters.

Paragraphs: 10.13.1 tactical and depot CSS units; 10.13.2 fuel and munitions capacities are not
interchangeable; 10.13.2.1 fuel points (1 FP ~ 30,000 gallons; for one-day turns a Russian/Chinese
mech/tank brigade or a NATO mech/motorised brigade 1 FP, a NATO heavy armour brigade 2, a helicopter
squadron 1, a fighter squadron 2), consumed when the formation moves at all (10.3 3.B); 10.13.2.2 a
ground munitions counter is two fire missions: the first use flips it to Low Ammo, the second
removes it; 10.13.2.3 commodities sit with CSS units (or as dumps); 10.13.2.4 a CSS unit supplies
units within its distribution radius; tactical CSS units are refilled from depots in Regeneration.
All of this applies only with the option ``css``.

Rulings: **CS1** fuel is paid by each ground counter that needs it (a brigade counter is a brigade)
once per turn, the first time it moves, from the nearest own CSS unit in radius holding enough;
without it the counter cannot move. **CS2** an air squadron (its squadron base counter) pays its day
of fuel (10.13.2.1: helicopter 1, fighter 2) when its first mission of the turn flies (``fly``, step
3.B.1), from a CSS unit whose radius covers the base; without it the mission cannot fly. Carrier
squadrons are fuelled by their ship.
**CS3** tactical CSS units are refilled from a depot in radius at step 7.I, up to their capacity.

>>> use_munition(["full", "full"])
['full', 'low']
>>> use_munition(["full", "low"])
['full']
>>> fuel_needed_for("RU", "mech"), fuel_needed_for("US", "stryker"), fuel_needed_for("US", "heavy-armour")
(1, 1, 2)
>>> fuel_needed_for("US", "helo"), fuel_needed_for("PRC", "fighter"), fuel_needed_for("US", "light")
(1, 2, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, unit_set
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import option, watchers
from owsnb.rules.ows.movement import ptable
from owsnb.rules.ows.tables import load_tables
from owsnb.rules.ows.units import counter

__all__ = [
    "use_munition",
    "fuel_needed_for",
    "fuel_needed",
    "css_radius",
    "suppliers",
    "check_fuel",
    "pay_fuel",
    "check_munitions",
    "pay_munitions",
    "replenish",
    "STEP_EFFECTS",
    "munitions_left",
]


def use_munition(counters: Sequence[str]) -> list[str]:
    """10.13.2.2: one fire mission from a stack of munitions counters: a Low Ammo counter is used
    up first (removed); otherwise a full counter flips to Low Ammo.

    Raises:
        ValueError: no munitions left.
    """
    c = list(counters)
    if "low" in c:
        c.remove("low")
        return c
    if "full" in c:
        i = len(c) - 1 - c[::-1].index("full")
        c[i] = "low"
        return c
    raise ValueError("no munitions counter left (10.13.2.2)")


def munitions_left(counters: Sequence[str]) -> int:
    """Fire missions a stack of counters still enables (2 per full counter, 1 per Low Ammo)."""
    return sum(2 if c == "full" else 1 if c == "low" else 0 for c in counters)


def _fuel_rows(tbl: Mapping[str, Any] | None = None) -> list[Mapping[str, Any]]:
    if tbl is None:
        tbl = load_tables()["ground"]
    return list(tbl["fuel_per_day"])


def fuel_needed_for(nation: str, kind: str, tbl: Mapping[str, Any] | None = None) -> int:
    """10.13.2.1: fuel points a day for a counter of *kind* (mech, armour, tank, motorised, stryker,
    heavy-armour, helo, fighter...) of *nation*; 0 if it needs none."""
    for row in _fuel_rows(tbl):
        nations = row.get("nations") or ["any"]
        if kind in row.get("types", ()) and ("any" in nations or nation in nations):
            return int(row["fp"])
    return 0


def fuel_needed(state: StateLike, unit: Any) -> int:
    """FP a day for *unit*: its ``fuel`` field, else the table by nation and subtype (10.13.2.1)."""
    f = int(unit.data.get("fuel", -1) if unit.data.get("fuel") is not None else -1)
    if f >= 0:
        return f
    c = counter(unit)
    kind = str(c.subtype or "")
    if c.category == "air-base":
        kind = "helo" if c.aircraft == "rotary" else "fighter"
    return fuel_needed_for(c.nation or "", kind, ptable(state, "ground"))


def css_radius(state: StateLike, css: Any) -> int:
    r = int(css.data.get("css_radius", -1) if css.data.get("css_radius") is not None else -1)
    return r if r >= 0 else int(ptable(state, "ground").get("css_radius", 3))


def suppliers(state: StateLike, unit: Any) -> list[Any]:
    """Own CSS units whose distribution radius covers *unit* (10.13.2.4), nearest first."""
    if unit.hex is None:
        return []
    out = [
        c
        for c in state.units.values()
        if c.side == unit.side
        and c.alive
        and c.hex is not None
        and counter(c).category == "css"
        and c.hex.distance(unit.hex) <= css_radius(state, c)
    ]
    return sorted(out, key=lambda c: (c.hex.distance(unit.hex), c.id))


def _paid(state: StateLike, unit: Any) -> bool:
    return int(unit.data.get("fuel_paid", 0) or 0) == state.clock.turn


def check_fuel(state: StateLike, order: Any, unit: Any) -> None:
    """Refuse a move the formation cannot fuel (10.13.2.1, 10.13.2.4; option ``css``)."""
    if not option(state, "css") or _paid(state, unit):
        return
    need = fuel_needed(state, unit)
    if need <= 0:
        return
    if not any(int(c.data.get("fuel_points", 0) or 0) >= need for c in suppliers(state, unit)):
        raise refuse(
            f"{unit.id} needs {need} fuel point(s) to move today and no CSS unit in radius holds them "
            "(10.13.2.1, 10.13.2.4)",
            "no-fuel",
            "10.13.2.1",
            order,
        )


def pay_fuel(state: StateLike, unit: Any) -> list[Event]:
    """Events paying *unit*'s daily fuel from the nearest CSS unit in radius (CS1)."""
    if not option(state, "css") or _paid(state, unit):
        return []
    need = fuel_needed(state, unit)
    if need <= 0:
        return []
    for c in suppliers(state, unit):
        fp = int(c.data.get("fuel_points", 0) or 0)
        if fp >= need:
            return [
                unit_set(
                    c.id,
                    data={"fuel_points": fp - need},
                    rule="10.13.2.1",
                    visible_to=watchers(state, c),
                ),
                unit_set(
                    unit.id,
                    data={"fuel_paid": state.clock.turn},
                    rule="10.13.2.1",
                    visible_to=frozenset({unit.side}),
                ),
            ]
    return []


def _uses_munitions(unit: Any) -> bool:
    c = counter(unit)
    return c.category == "artillery" or (c.category == "ground" and str(c.subtype) == "atgm")


def check_munitions(state: StateLike, order: Any, firer: Any, missions: int) -> None:
    """Refuse fire missions no munitions counter in radius can pay for (10.13.2.2; option ``css``)."""
    if not option(state, "css") or not _uses_munitions(firer) or missions <= 0:
        return
    have = sum(munitions_left(thaw(c.data.get("munitions") or [])) for c in suppliers(state, firer))
    if have < missions:
        raise refuse(
            f"{firer.id} needs {missions} fire mission(s) of munitions; CSS in radius holds {have} (10.13.2.2)",
            "no-munitions",
            "10.13.2.2",
            order,
        )


def pay_munitions(state: StateLike, firer: Any, missions: int) -> list[Event]:
    """Events using *missions* munitions from the CSS units in radius, nearest first (10.13.2.2)."""
    if not option(state, "css") or not _uses_munitions(firer) or missions <= 0:
        return []
    events = []
    left = missions
    for c in suppliers(state, firer):
        stack = list(thaw(c.data.get("munitions") or []))
        used = 0
        while left and munitions_left(stack):
            stack = use_munition(stack)
            left -= 1
            used += 1
        if used:
            events.append(
                unit_set(
                    c.id, data={"munitions": stack}, rule="10.13.2.2", visible_to=watchers(state, c)
                )
            )
        if not left:
            break
    return events


def replenish(state: StateLike, dice: Any) -> list[Event]:
    """7.I / 10.13.2.4 (CS3): tactical CSS units refill from a depot in radius, up to capacity."""
    if not option(state, "css"):
        return []
    events: list[Event] = []
    stock: dict[str, dict[str, Any]] = {}
    for d in state.units.values():
        if (
            counter(d).category == "css"
            and d.data.get("echelon") == "depot"
            and d.alive
            and d.hex is not None
        ):
            stock[d.id] = {
                "fuel": int(d.data.get("fuel_points", 0) or 0),
                "munitions": list(thaw(d.data.get("munitions") or [])),
            }
    if not stock:
        return events
    for t in sorted(state.units.values(), key=lambda u: u.id):
        if (
            counter(t).category != "css"
            or t.data.get("echelon") != "tactical"
            or t.hex is None
            or not t.alive
        ):
            continue
        fuel = int(t.data.get("fuel_points", 0) or 0)
        mun = list(thaw(t.data.get("munitions") or []))
        fcap, mcap = (
            int(t.data.get("fuel_capacity", 0) or 0),
            int(t.data.get("munitions_capacity", 0) or 0),
        )
        for did, s in stock.items():
            d = state.units[did]
            if d.side != t.side or d.hex.distance(t.hex) > css_radius(state, d):
                continue
            take = max(min(fcap - fuel, s["fuel"]), 0)
            fuel += take
            s["fuel"] -= take
            while len(mun) < mcap and "full" in s["munitions"]:
                s["munitions"].remove("full")
                mun.append("full")
        if fuel != int(t.data.get("fuel_points", 0) or 0) or mun != list(
            thaw(t.data.get("munitions") or [])
        ):
            events.append(
                unit_set(
                    t.id,
                    data={"fuel_points": fuel, "munitions": mun},
                    rule="10.13.2.4",
                    visible_to=watchers(state, t),
                )
            )
    for did, s in stock.items():
        d = state.units[did]
        if s["fuel"] != int(d.data.get("fuel_points", 0) or 0) or s["munitions"] != list(
            thaw(d.data.get("munitions") or [])
        ):
            events.append(
                unit_set(
                    did,
                    data={"fuel_points": s["fuel"], "munitions": s["munitions"]},
                    rule="10.13.2.4",
                    visible_to=watchers(state, d),
                )
            )
    return events


STEP_EFFECTS = {"7.I": replenish}
