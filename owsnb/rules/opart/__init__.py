"""Operational Art (Eastern Front): division-level miniatures rules on 10 cm hexes.

Modules, each callable alone from a cell:

* :mod:`~owsnb.rules.opart.stands` — combat values (§8), divisional morale (§9), dice (§11);
* :mod:`~owsnb.rules.opart.movement` — movement, stacking, the gap rule, withdrawal (§6, §13);
* :mod:`~owsnb.rules.opart.combat` — combat power, result bands, exact previews (§14);
* :mod:`~owsnb.rules.opart.activation` — the activation-card pack and the turn (§10, §12);
* :mod:`~owsnb.rules.opart.terrain` — terrain, hills, roads, line of sight, facing;
* :mod:`~owsnb.rules.opart.victory` — the placeholder victory scheme (ruling R20);
* :mod:`~owsnb.rules.opart.present` — counters, summaries, dashboard, a static board picture.

Options and rulings for every gap in the text are listed in this package's ``README.md``.

>>> from owsnb.rules.opart import RULESET, stands
>>> RULESET.name, stands.combat_value({"arm": "infantry", "quality": "conscript"})
('opart', 2)
"""

from owsnb.rules.opart import activation, combat, movement, present, stands, terrain, victory
from owsnb.rules.opart.ruleset import OPTIONS, OperationalArt

__all__ = [
    "RULESET",
    "OperationalArt",
    "OPTIONS",
    "activation",
    "combat",
    "movement",
    "present",
    "stands",
    "terrain",
    "victory",
]

RULESET = OperationalArt()
