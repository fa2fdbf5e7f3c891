"""What Combat Operations order handlers check beyond their bound arguments (the kernel resolves
units and hexes, :meth:`~owsnb.rules.combatops.ruleset.CombatOperations.parse_hex`): stacking,
the step.

Shared by the ``*_orders`` modules; each refusal is an :class:`~owsnb.kernel.errors.IllegalOrderError`
with a stable code and the rule paragraph that forbids the order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, note
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order
from owsnb.kernel.state import StateLike, Unit
from owsnb.kernel.view import alias_id
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.movement import enemy_of
from owsnb.rules.combatops.terrain import hexid, occupied

__all__ = [
    "step_no",
    "stack_limit",
    "unit_types",
    "stack_after",
    "check_stack",
    "alias_note",
    "rotate",
]


def step_no(state: StateLike) -> int:
    """The number (2-6) of the current half-turn step, 0 in set-up and supply."""
    s = str(state.clock.step)
    return int(s[1]) if s[:1] in ("A", "D") and s[1:].isdigit() else 0


def unit_types(state: StateLike) -> Mapping[str, Any]:
    """The unit-type table in play (the scenario's, else the rule book's)."""
    return state.tables.get("unit_types", U.TYPES)


def stack_limit(state: StateLike) -> int:
    """Battalions' worth of units a hex may hold (6.0)."""
    return int(unit_types(state).get("stacking_limit", 4))


def stack_after(state: StateLike, side: str, h: Hex, adding: Sequence[Unit]) -> int:
    """Battalions' worth of *side*'s units in *h* once *adding* stand there (6.0)."""
    ids = {u.id for u in adding}
    here = [u for u in occupied(state, side).get(h, ()) if u.id not in ids]
    return sum(U.stacking_value(u) for u in here) + sum(U.stacking_value(u) for u in adding)


def check_stack(state: StateLike, order: Order, h: Hex, adding: Sequence[Unit]) -> None:
    """Refuse the order (``overstacked``, 6.0) if *h* would hold too much."""
    n = stack_after(state, order.side, h, adding)
    if n > stack_limit(state):
        raise IllegalOrderError(
            f"{hexid(state.map, h)} would hold {n} battalions' worth of {order.side} units; the limit is "
            f"{stack_limit(state)} (6.0)",
            code="overstacked",
            rule="6.0",
            order=order,
        )


def alias_note(state: StateLike, u: Unit, text: str, rule: str) -> list[Event]:
    """A note telling the enemy what it saw a face-down counter do (its alias, never its id)."""
    foe = enemy_of(state, u.side)
    if foe in u.seen_by:
        return []
    return [note(text.format(unit=alias_id(state, u.id, foe)), visible_to=foe, rule=rule)]


def rotate(items: list, state: StateLike, k: int) -> list:
    """*k* of *items*, starting at a place that moves with the game (varied order examples)."""
    if not items:
        return items
    i = state.seq % len(items)
    return (items[i:] + items[:i])[:k]
