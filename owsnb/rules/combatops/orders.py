"""Orders of Combat Operations: one handler per verb (validate, adjudicate, candidates, preview).

The handlers live by concern: :mod:`.setup_orders` (place, breakdown),
:mod:`.reinforcement_orders` (assign, draw, enter, replace), :mod:`.movement_orders` (move),
:mod:`.engineer_orders` (build, demolish) and :mod:`.combat_orders` (attack, occupy, artillery),
over the shared checks of :mod:`.order_checks`. This module lists them in :data:`HANDLERS` and
keeps their public names importable from here.

Every refusal is an :class:`~owsnb.kernel.errors.IllegalOrderError` with a stable code and the
rule paragraph that forbids the order; handlers never change the state they are given.

>>> [h.type.verb for h in HANDLERS][:3]
['move', 'attack', 'occupy']
"""

from __future__ import annotations

from owsnb.rules.combatops.combat_orders import (
    ArtilleryPolicy,
    Attack,
    Occupy,
    attack_eligible,
    soak_off_owed,
)
from owsnb.rules.combatops.engineer_orders import Build, Demolish
from owsnb.rules.combatops.movement_orders import Move, exploit_filter, movement_note
from owsnb.rules.combatops.order_checks import stack_limit, step_no
from owsnb.rules.combatops.reinforcement_orders import Assign, Draw, Enter, Replace, entry_hexes
from owsnb.rules.combatops.setup_orders import Breakdown, Place, in_setup_area, north_of_river

__all__ = [
    "HANDLERS",
    "step_no",
    "stack_limit",
    "entry_hexes",
    "in_setup_area",
    "soak_off_owed",
    "attack_eligible",
    "north_of_river",
    "exploit_filter",
    "movement_note",
    "Assign",
    "Place",
    "Breakdown",
    "Draw",
    "Move",
    "Enter",
    "Replace",
    "Build",
    "Demolish",
    "Attack",
    "Occupy",
    "ArtilleryPolicy",
]

# order matters: a click on a counter in the order panel picks the first verb that takes it
HANDLERS = (
    Move(),
    Attack(),
    Occupy(),
    Enter(),
    Draw(),
    Place(),
    Assign(),
    Replace(),
    Build(),
    Demolish(),
    Breakdown(),
    ArtilleryPolicy(),
)
