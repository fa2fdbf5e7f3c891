"""Earned Experience Bonuses (EXP.1) and the ways crews and infantry earn them (EXP.2).

>>> t = {"bonuses": {i: b for i, b in enumerate(["none"] * 4 + ["marksman-primary", "marksman-secondary",
...      "vigilant", "stealthy", "exploit-weakness", "combat-veteran"], start=1)}}
>>> bonus_for(9, t), bonus_for(4, t)
('exploit-weakness', 'none')
>>> purchase_price(30, 3), stars(["vigilant", "vigilant"])
(45, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution

__all__ = ["bonus_for", "bonus_odds", "eligible", "purchase_price", "stars", "BONUSES"]

BONUSES = (
    "marksman-primary",
    "marksman-secondary",
    "vigilant",
    "stealthy",
    "exploit-weakness",
    "combat-veteran",
)


def bonus_for(roll: int, table: Mapping[str, Any]) -> str:
    """EXP.1: the bonus a D10 result earns (``"none"`` on 1-4)."""
    b = table["bonuses"]
    return b.get(roll, b.get(str(roll), "none"))


def bonus_odds(table: Mapping[str, Any]) -> Distribution:
    """The exact distribution of one experience roll."""
    return Distribution(
        ((bonus_for(r, table), Fraction(1, 10)) for r in range(1, 11)),
        label="experience roll (EXP.1)",
    )


def eligible(unit: Any, table: Mapping[str, Any]) -> bool:
    """EXP.2 (ruling R17/B2.1): only crews and infantry earn experience — a unit with a crew track,
    or of an eligible category (infantry, engineers)."""
    d = unit.data
    return (
        d.get("category") in table.get("eligible_categories", ("infantry",))
        or int(d.get("crew", 0) or 0) > 0
    )


def purchase_price(cost: int, rolls: int, table: Mapping[str, Any] | None = None) -> int:
    """EXP.2: a unit bought with *rolls* experience rolls costs its Cost plus 5 per roll (up to 3).

    Raises:
        ValueError: more rolls than allowed, or a negative number.
    """
    p = (table or {}).get("purchase", {})
    most, each = int(p.get("max_rolls", 3)), int(p.get("cost_per_roll", 5))
    if not 0 <= rolls <= most:
        raise ValueError(
            f"up to {most} experience rolls may be bought with a unit (EXP.2), not {rolls}"
        )
    return cost + each * rolls


def stars(experience: Iterable[str]) -> int:
    """Ruling R18: one star per bonus held."""
    return sum(1 for b in experience if b and b != "none")
