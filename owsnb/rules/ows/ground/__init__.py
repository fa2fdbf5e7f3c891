"""Ground movement and combat (10.2-10.15): initiative, organize, fires, the GCAT, exploitation.

The chapter in one package, a module per concern:

* :mod:`~owsnb.rules.ows.ground.phase` -- 10.2 activations (by side, by formation, chits, planned;
  10.2.5 seizing the initiative) and 10.3 the impulses of the phase, its start and end, the second
  Ground phase (G4); the ``initiative`` order.
* :mod:`~owsnb.rules.ows.ground.organize` -- the Organize step: 10.4 reserves, 10.5 Main Effort,
  10.6 Defend, 10.7 Fortified, 10.8 Delay, task organisation and Orders markers (10.14).
* :mod:`~owsnb.rules.ows.ground.fires` -- 10.15.2-10.15.7 fires on the Fires Effects Table, span
  of control, PGM, fire missions and Expended, suppression; the ``prep-fire`` order.
* :mod:`~owsnb.rules.ows.ground.gcat` -- 10.15.9 the GCAT: odds, lead units, supporting arms,
  quality, supply and every shift and die change (:class:`Combat`), and applying its results
  (10.15.9.1.6, 10.8, R9).
* :mod:`~owsnb.rules.ows.ground.attack` -- 10.3 3.C-3.F an attack declared, answered and resolved
  (``attack``, ``defensive-fire``), 10.15.1 hexside limit, 10.15.8 landings, 10.11.2 river
  assault; the notebook helpers :func:`preview` and :func:`resolve`.
* :mod:`~owsnb.rules.ows.ground.reserves` -- 10.4.1.1 exploitation and 10.4.1.1.1 the reaction
  move (``exploit``, ``react``).

Rulings of this chapter (documented in COVERAGE.md):

* **G1** each attack is declared, answered by the defender (defensive fires, supporting fires,
  reaction, recon Delay) and resolved in turn; the order of declarations is the attacker's order of
  resolution, and no unit moves in normal movement after the first attack is resolved.
* **G2** losses are taken by the lead unit first, then the other manoeuvre units (most steps
  first), then the rest; retreats go away from the enemy into hexes free of enemy units, preferring
  hexes out of enemy ZOC, within stacking; a unit that cannot retreat loses a step instead.
* **G3** a side's retreat-cancel (``hold=yes``) and loss-to-retreat (``trade=yes``) choices are
  given with its order (attacker: ``attack``; defender: ``defensive-fire``).
* **G4** with two Ground phases a turn (option ``ground_phases: 2``, the 10.3 design note) the second
  (steps ``6.C.1b``-``6.C.4b``) starts afresh: units move and attack again, Main Efforts are designated
  again, a Defend of the first phase counts as held at the start of the second (10.7), landing
  restrictions and the day's fuel start over; Reserve, Defend, Fortified, Suppressed and Expended
  markers stay until Regeneration, so artillery fired in the first phase stays Expended.

>>> odds(7, 3), odds(2, 5), odds(4, 0)
('2:1', '1:3', '99:1')
>>> quality_points(["d10", "d10", "d8"], ["d8"])
(3, 0)
>>> [reaction_units(r, 2) for r in (4, 2, 1)], reaction_units(4, 2, disrupted=True)
([2, 0, 0], 0)
"""

from __future__ import annotations

from owsnb.rules.ows.ground.attack import Attack, DefensiveFire, leave_ground, preview, resolve
from owsnb.rules.ows.ground.fires import PrepFire, fire_on, fire_preview
from owsnb.rules.ows.ground.gcat import (
    Combat,
    apply_result,
    column_index,
    combat,
    defence,
    gcat_cell,
    gcat_distribution,
    lead_die,
    odds,
    parse_result,
    quality_points,
    row_index,
    unit_dice,
)
from owsnb.rules.ows.ground.organize import (
    Defend,
    Delay,
    Fortify,
    MainEffort,
    Reserve,
    TaskOrganize,
)
from owsnb.rules.ows.ground.phase import (
    STAGES,
    Initiative,
    after_move,
    check_may_act,
    cleanup,
    enter_ground,
    formation_of,
    formations,
    second_phase,
)
from owsnb.rules.ows.ground.reserves import Exploit, React, reaction_preview, reaction_units

__all__ = [
    "odds",
    "quality_points",
    "reaction_units",
    "column_index",
    "row_index",
    "parse_result",
    "gcat_cell",
    "Combat",
    "combat",
    "gcat_distribution",
    "preview",
    "resolve",
    "fire_preview",
    "fire_on",
    "unit_dice",
    "lead_die",
    "defence",
    "formation_of",
    "formations",
    "STAGES",
    "HANDLERS",
    "STEP_EFFECTS",
    "LEAVE_EFFECTS",
    "check_may_act",
    "after_move",
    "Initiative",
    "Reserve",
    "MainEffort",
    "Defend",
    "Fortify",
    "Delay",
    "TaskOrganize",
    "PrepFire",
    "Attack",
    "DefensiveFire",
    "React",
    "Exploit",
    "reaction_preview",
    "apply_result",
]

HANDLERS = [
    Initiative(),
    Reserve(),
    MainEffort(),
    Defend(),
    Fortify(),
    Delay(),
    TaskOrganize(),
    PrepFire(),
    Attack(),
    DefensiveFire(),
    React(),
    Exploit(),
]
STEP_EFFECTS = {"6.C.1b": second_phase, "6.C.3": enter_ground, "7.A": cleanup}
LEAVE_EFFECTS = {"6.C.3": leave_ground}
