"""Scoring Actions & Associated Values (SC.1-SC.10).

Digest test 13: destroying a Cost-30 unit with 2 stars scores 40; capturing it by unconditional
surrender 70 (the star bonus is not doubled); destroying a Forward HQ 50; a key city 25.

>>> from owsnb.rules.opscale.tables import load_tables
>>> t = load_tables()["scoring"]
>>> destroy_points(30, 2, "vehicle", t), capture_points(30, 2, False, t), destroy_points(20, 0, "forward-hq", t)
(40, 70, 50)
>>> action_points("capture_key_city", t), capture_points(30, 2, True, t)
(25, 40)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["destroy_points", "capture_points", "action_points", "HQ_CATEGORIES"]

HQ_CATEGORIES = ("command-post", "forward-hq")


def _per_star(table: Mapping[str, Any]) -> int:
    return int(table["experienced_unit"]["per_star"])


def destroy_points(cost: int, stars: int, category: str, table: Mapping[str, Any]) -> int:
    """SC.1 + SC.4: Cost of the unit plus 5 per star; SC.5: an enemy Command Post or Forward HQ
    scores 50 instead of its Cost (ruling: not both)."""
    if category in HQ_CATEGORIES:
        return int(table["destroy_command_post"]["points"])
    return cost + _per_star(table) * stars


def capture_points(cost: int, stars: int, conditional: bool, table: Mapping[str, Any]) -> int:
    """SC.2 / SC.3 + SC.4: Cost doubled (unconditional surrender) or Cost (conditional), plus 5 per
    star (not doubled)."""
    row = table["capture_conditional" if conditional else "capture_unconditional"]
    return cost * int(row.get("multiplier", 1)) + _per_star(table) * stars


def action_points(action: str, table: Mapping[str, Any]) -> int:
    """Fixed-value actions: SC.5-SC.10 (``capture_key_city``, ``primary_objective``...)."""
    row = table.get(action)
    if row is None or not isinstance(row.get("points"), int):
        known = ", ".join(k for k, v in table.items() if isinstance(v.get("points"), int))
        raise KeyError(f"no fixed-value scoring action {action!r}; known: {known}")
    return int(row["points"])
