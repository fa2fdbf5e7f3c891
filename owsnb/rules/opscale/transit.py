"""Crew/Unit in Transit Survival (TR): a D10 for each unit carried by a destroyed transport.

Digest test 15: 5 destroyed, 6 survives damaged, 10 survives intact.

>>> from owsnb.rules.opscale.tables import load_tables
>>> t = load_tables()["transit"]
>>> survival(5, t), survival(6, t), survival(10, t)
('destroyed', 'damaged', 'intact')
>>> survival_odds(t)["destroyed"]
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution

__all__ = ["survival", "survival_odds"]


def survival(roll: int, table: Mapping[str, Any]) -> str:
    """TR: ``"destroyed"`` (1-5), ``"damaged"`` (6-8) or ``"intact"`` (9-10)."""
    r = table["results"]
    return r.get(roll, r.get(str(roll)))


def survival_odds(table: Mapping[str, Any]) -> Distribution:
    """The exact distribution of the transit survival roll."""
    return Distribution(
        ((survival(r, table), Fraction(1, 10)) for r in range(1, 11)), label="transit survival (TR)"
    )
