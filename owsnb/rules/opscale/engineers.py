"""Detonation / Clearing Check Rolls for Combat Engineers (ENG.1-ENG.2).

Reading (ruling R21, option ``engineer_reading``): ``"at-or-above"`` (default) rolls a D10, adds 2
if the item was reconnoitred, and succeeds at or above the number; "No Roll" succeeds without a
roll. ``"roll-under"`` succeeds at or under the number (recon subtracts 2) and "No Roll" means
no further attempt is possible.

Digest test 14: an emplacement needs 6+ on the 1st check (a 5 fails), 5+ on the 2nd (a 5
succeeds); after recon an existing bridge's 1st check (5) succeeds on a natural 3.

>>> from owsnb.rules.opscale.tables import load_tables
>>> t = load_tables()["engineers"]
>>> check("emplacement", 1, 5, t), check("emplacement", 2, 5, t), check("existing-bridge", 1, 3, t, recon=True)
(False, True, True)
>>> check_number("engineered-bridge", 3, t), clearing_odds("obstacle-vehicle", 1, t)[True]
('no-roll', Fraction(3, 5))
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution

__all__ = ["ITEMS", "check_number", "needs_roll", "check", "clearing_odds", "attempt_possible"]

ITEMS = (
    "existing-bridge",
    "engineered-bridge",
    "obstacle-infantry",
    "obstacle-vehicle",
    "emplacement",
    "airfield",
    "shipping-facility",
)


def check_number(item: str, attempt: int, table: Mapping[str, Any]) -> int | str:
    """ENG.1: the number for the *attempt*-th check on *item* (``"no-roll"`` / ``"n/a"`` as printed).

    Attempts beyond the printed columns read like the last column.
    """
    row = table["items"].get(item)
    if row is None:
        raise KeyError(f"no clearing row for {item!r}; items: {', '.join(table['items'])}")
    if attempt < 1:
        raise ValueError("attempts count from 1")
    return row[min(attempt, len(row)) - 1]


def attempt_possible(
    item: str, attempt: int, table: Mapping[str, Any], reading: str = "at-or-above"
) -> bool:
    """May an *attempt*-th check be made at all? (roll-under: not once "No Roll"/"N/A" is reached)."""
    n = check_number(item, attempt, table)
    if reading == "roll-under":
        return isinstance(n, int)
    return n != "n/a" or attempt == 1


def needs_roll(
    item: str, attempt: int, table: Mapping[str, Any], reading: str = "at-or-above"
) -> bool:
    """Is a die rolled for this attempt?"""
    return isinstance(check_number(item, attempt, table), int)


def check(
    item: str,
    attempt: int,
    roll: int | None,
    table: Mapping[str, Any],
    *,
    recon: bool = False,
    reading: str = "at-or-above",
) -> bool:
    """ENG.1-ENG.2: does the check succeed with this D10 *roll* (``None`` when no roll is made)?"""
    n = check_number(item, attempt, table)
    bonus = int(table.get("recon_bonus", 2)) if recon else 0
    if not isinstance(n, int):
        return reading != "roll-under"
    if roll is None:
        raise ValueError(f"attempt {attempt} on {item} needs a roll")
    if reading == "roll-under":
        return roll - bonus <= n
    return roll + bonus >= n


def clearing_odds(
    item: str,
    attempt: int,
    table: Mapping[str, Any],
    *,
    recon: bool = False,
    reading: str = "at-or-above",
) -> Distribution:
    """The exact chance that this attempt clears the item."""
    if not needs_roll(item, attempt, table, reading):
        return Distribution.point(
            check(item, attempt, None, table, recon=recon, reading=reading), label=f"clear {item}"
        )
    die = int(table.get("die", 10))
    return Distribution(
        (
            (check(item, attempt, r, table, recon=recon, reading=reading), Fraction(1, die))
            for r in range(1, die + 1)
        ),
        label=f"clear {item}, attempt {attempt} (ENG.1)",
    )
