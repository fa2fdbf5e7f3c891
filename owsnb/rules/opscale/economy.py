"""Turn schedule (TS), income (TS.1) and General Supply Rules (GS).

>>> [t for t in range(1, 17) if is_production_turn(t)], [t for t in range(1, 17) if is_deployment_turn(t)]
([1, 6, 11, 16], [5, 10, 15])
>>> supply_cost(105), supply_cost(105, rounding="half-even"), supply_cost(104)
(11, 10, 10)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import floor
from typing import Any

from owsnb.kernel.state import StateLike
from owsnb.rules.opscale.units import OBSTACLES, STRUCTURES

__all__ = [
    "is_production_turn",
    "event_odds",
    "event_drawn",
    "is_deployment_turn",
    "has_income",
    "on_battlefield",
    "supply_exclusion",
    "force_total",
    "supply_cost",
    "income",
    "city_of",
    "control_of",
]


def is_production_turn(turn: int, every: int = 5) -> bool:
    """TS.2: Production Phases are on turns 1, 6, 11, 16, ..."""
    return turn % every == 1 % every


def is_deployment_turn(turn: int, every: int = 5) -> bool:
    """TS.6: Deployment Phases are on turns 5, 10, 15, ..."""
    return turn % every == 0


def has_income(turn: int) -> bool:
    """TS.1: the Income / Event Phase is played each turn except Turn 1."""
    return turn > 1


def event_drawn(roll: int, threshold: int = 3) -> bool:
    """TS.1: "Roll D10: If 3 or less, Draw and execute 1 Event Card."

    >>> event_drawn(3), event_drawn(4)
    (True, False)
    """
    return roll <= threshold


def event_odds(threshold: int = 3, die: int = 10) -> Any:
    """TS.1: the exact chance of drawing an Event Card (a D10 of *threshold* or less).

    >>> event_odds()[True]
    Fraction(3, 10)
    """
    from owsnb.kernel.dist import Distribution

    return Distribution.die(die, label="event check (TS.1)").map(
        lambda r: event_drawn(r, threshold)
    )


def on_battlefield(unit: Any) -> bool:
    """Deployed and not destroyed: on a hex, or carried by a transport (TS.4)."""
    return unit.steps > 0 and (unit.hex is not None or unit.box == "carried")


def supply_exclusion(unit: Any) -> str | None:
    """GS.2: why a unit pays no supply (``None`` if it counts towards the Force Total).

    >>> from owsnb.kernel import Unit
    >>> from owsnb.kernel.data import freeze
    >>> bunker = Unit("b", "blue", hex=None, box="staged", data=freeze({"category": "bunker", "cost": 10}))
    >>> supply_exclusion(bunker)
    'staged unit'
    """
    d = unit.data
    cat = d.get("category", "")
    if unit.box == "staged":
        return "staged unit"
    if not on_battlefield(unit):
        return "not on the battlefield"
    if int(d.get("cost", 0)) == 0:
        return "cost 0"
    if d.get("captured") and not d.get("used"):
        return "captured, not yet used"
    if cat in OBSTACLES:
        return "fixed obstacle"
    if cat in ("bunker", "pillbox") and not d.get("weapons"):
        return f"{cat} without weapons"
    if cat in STRUCTURES:
        return "building / structure"
    return None


def force_total(units: Iterable[Any], side: str) -> tuple[int, list[dict[str, Any]]]:
    """GS.1-GS.3: the summed Cost of *side*'s units that count, and one row per unit saying why.

    A unit's Cost is its card value; experience bought with it does not raise it (ruling R26).
    """
    total = 0
    rows = []
    for u in units:
        if u.side != side or (u.steps <= 0 and u.box != "staged"):
            continue
        why = supply_exclusion(u)
        cost = int(u.data.get("cost", 0))
        if why is None:
            total += cost
        rows.append({"unit": u.id, "cost": cost, "counts": why is None, "why not": why or ""})
    return total, rows


def supply_cost(total: int, percent: int = 10, rounding: str = "half-up") -> int:
    """GS.1: *percent* % of the Force Total, rounded to the nearest 1 currency (R2: halves round
    up by default; ``"half-even"`` and ``"down"`` are the alternatives)."""
    exact = Fraction(total * percent, 100)
    if rounding == "half-even":
        return round(exact)
    if rounding == "down":
        return floor(exact)
    return floor(exact + Fraction(1, 2))


def city_of(info: Any) -> Mapping[str, Any] | None:
    """The city feature of a hex, if any (``{"name", "key", "ruined", "control"}``)."""
    return info.features.get("city")


def control_of(info: Any) -> str | None:
    """Who controls a hex: the changing fact if set, else the scenario's initial control."""
    c = info.facts.get("control")
    if c is not None:
        return c
    city = city_of(info)
    return city.get("control") if city else None


def income(state: StateLike, side: str) -> tuple[int, list[tuple[str, int]]]:
    """TS.1 Collect Income (PLACEHOLDER amounts, ruling R31): a base amount plus each city the side
    controls; returns the amount and its (source, amount) lines."""
    table = state.table("economy")["income"]
    lines = [("base income", int(table.get("base", 0)))]
    per = table.get("per_city", {})
    for h, info in state.map.hexes.items():
        city = city_of(info)
        if city is None or control_of(info) != side:
            continue
        name = city.get("name") or state.map.label(h)
        if city.get("ruined"):
            amount = int(per.get("ruined-city", 0))
        else:
            amount = int(per.get(info.terrain, per.get("small-city", 0)))
            if city.get("key"):
                amount += int(per.get("key-city-bonus", 0))
        lines.append((name, amount))
    return sum(a for _, a in lines), lines
