"""Combat Operations (BoneGames, Public Beta 1, 1997): hidden-value counters, zones of control,
supply, a deterministic combat results table, chit-drawn reinforcements and variable game length.

Rule numbers cited are the rule book's (``11.5``) and its Public Beta 1 errata's (``errata 8.0``);
rulings where the text is silent or contradicts itself are options (``RULESET.options``), listed
with their defaults in this package's README.md.

>>> from owsnb.rules import combatops
>>> combatops.RULESET.name, combatops.combat.odds_column(7, 3)
('combatops', '2-1')
"""

from owsnb.rules.combatops import chits, combat, movement, supply, terrain, units, victory
from owsnb.rules.combatops.ruleset import OPTIONS, SEQUENCE, CombatOps

RULESET = CombatOps()

__all__ = [
    "RULESET",
    "CombatOps",
    "OPTIONS",
    "SEQUENCE",
    "chits",
    "combat",
    "movement",
    "supply",
    "terrain",
    "units",
    "victory",
]
