"""What a click on the map may give to an order parameter (presentation only: no rule logic).

A parameter's candidates, when the rule set lists them (``OrderSpec.candidates``), are the only
units a click may give it. Without a list, the parameter's kind says whose units it takes:

* a ``unit`` parameter takes the acting side's own units (any unit when the umpire acts);
* a target — kind ``"target"`` or ``"enemy"``, or a ``unit`` parameter named ``target`` or
  ``targets``, as every built-in rule set names the unit an order acts on — takes the units of
  other sides that the seat sees;
* a ``hex`` parameter takes the hex clicked; other kinds take no click (a list or the rule set's
  ready-made orders give them).

The rule set still decides: a click only fills the parameter, ``check`` and ``preview`` judge it.

Example:
    >>> from owsnb.kernel.orders import Param
    >>> from owsnb.widgets._doc import tiny_game
    >>> view = tiny_game().view("umpire")
    >>> unit = Param("unit", "unit")
    >>> admits(view, "blue", unit, "B-1"), admits(view, "blue", unit, "R-1")
    (True, False)
    >>> admits(view, "blue", Param("target", "unit"), "R-1")
    True
    >>> admits(view, "blue", unit, "R-1", candidates=("R-1",))
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from owsnb.kernel.orders import Param
from owsnb.kernel.state import UMPIRE

__all__ = ["TARGET_KINDS", "TARGET_NAMES", "is_unit", "is_target", "clickable", "admits"]

TARGET_KINDS = ("target", "enemy")
"""Parameter kinds that name another side's unit."""

TARGET_NAMES = ("target", "targets")
"""Names of ``unit`` parameters that name another side's unit (the rule sets' convention)."""


def is_target(p: Param) -> bool:
    """Does *p* name a unit of another side?"""
    return p.kind in TARGET_KINDS or (p.kind == "unit" and p.name in TARGET_NAMES)


def is_unit(p: Param) -> bool:
    """Does *p* name a unit (own or another side's)?"""
    return p.kind == "unit" or p.kind in TARGET_KINDS


def clickable(p: Param) -> bool:
    """May a click on the map give *p* a value (a unit or a hex)?"""
    return is_unit(p) or p.kind == "hex"


def admits(
    view: Any, actor: str, p: Param, unit: str, candidates: Sequence[str] | None = None
) -> bool:
    """May a click on *unit* fill *p* for *actor* (see the module docstring)?"""
    if not is_unit(p):
        return False
    if candidates:
        return unit in candidates
    u = view.units.get(unit)
    if u is None:
        return False
    if is_target(p):
        return u.side != actor
    return actor == UMPIRE or u.side == actor
