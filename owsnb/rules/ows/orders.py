"""Action points and Orders [Advanced] (10.14), with the option ``action_points``.

Paragraphs: 10.14 only units tagged with Orders or Reserve move and fight in the Ground phase;
10.14.1 each side's action points come from the scenario (``tables: {ground: {action_points:
{blue: 6}}}``, else ``default``); 10.14.2 Orders markers go on HQs or units, one per action point,
secretly in double-blind play, plus the free feints of head-to-head tabletop play (``feints``).

Ruling **AP1**: owsnb places Orders markers in the Ground Organize step (6.C.2, with
``task-organize orders=...``) rather than in the Planning phase, whose steps have no verb for them;
they are kept in the side's private state (double blind) and hold for the turn they are placed in
(both Ground phases with ``ground_phases: 2``, unless placed anew in the second). An Orders marker on
an HQ activates every unit under it. With two Ground phases and ``first_ground_phase_free``, every
unit acts in the first without Orders (10.14).

>>> from types import SimpleNamespace as NS
>>> budget(NS(tables={"ground": {"action_points": {"blue": 4, "default": 6}, "feints": 2}}), "blue")
6
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import option, table
from owsnb.rules.ows.sequence import ground_block

__all__ = ["budget", "validate_orders", "has_orders", "check_orders"]


def budget(state: StateLike, side: str) -> int:
    """10.14.1-10.14.2: Orders a side may place this turn (action points + free feints)."""
    try:
        g = thaw(state.tables["ground"])
    except (KeyError, TypeError):
        g = table(state, "ground")
    ap = g.get("action_points") or {}
    return int(ap.get(side, ap.get("default", 0))) + int(g.get("feints", 0) or 0)


def validate_orders(state: StateLike, order: Any, ids: Sequence[str]) -> None:
    """10.14-10.14.2: Orders markers on *ids* (the side's units, bound by the order), within the
    side's action points."""
    if not option(state, "action_points"):
        raise refuse(
            "Orders markers belong to the advanced action-point rule this scenario does not use (10.14)",
            "option-off",
            "10.14",
            order,
        )
    n = budget(state, order.side)
    if len(set(ids)) > n:
        raise refuse(
            f"{order.side} has {n} action point(s): at most {n} Orders markers (10.14.2)",
            "too-many-orders",
            "10.14.2",
            order,
        )


def has_orders(state: StateLike, unit: Any) -> bool:
    """Does *unit* carry Orders (itself or an HQ above it) or a Reserve marker (10.14)?"""
    if "reserve" in unit.markers:
        return True
    if (
        option(state, "first_ground_phase_free")
        and option(state, "ground_phases") == 2
        and ground_block(state.clock.step) == 1
    ):
        return True  # 10.14: "all units may move in the first Ground Phase"
    o = thaw(state.sides[unit.side].private.get("orders") or {}) if unit.side in state.sides else {}
    if int(o.get("turn", 0) or 0) != state.clock.turn:
        return False
    tagged = set(o.get("units") or ())
    cur, seen = unit, set()
    while cur is not None and cur.id not in seen:
        if cur.id in tagged:
            return True
        seen.add(cur.id)
        nxt = cur.data.get("hq")
        cur = state.units.get(nxt) if nxt else None
    return False


def check_orders(state: StateLike, order: Any, unit: Any) -> None:
    """Refuse a ground action by a unit without Orders or Reserve (10.14; option ``action_points``)."""
    if option(state, "action_points") and not has_orders(state, unit):
        raise refuse(
            f"{unit.id} has no Orders marker (nor its HQ) and is not in reserve (10.14)",
            "no-orders",
            "10.14",
            order,
        )
