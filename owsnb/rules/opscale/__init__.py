"""The Operational Scale engagement system, from its player aids (``opscale``).

A campaign turn (TS) collects income and draws cards, buys units on turns 1, 6, 11..., pays
supply at 10% of the Force Total (GS), moves, fights engagements with the Operational Engagement
Sequence (OES: D10 initiative with the attacker's +2, D20 attacks against Attack Ratings, D10
Intensity + Damage Index - Defense against Endurance, armour piercing AP), and deploys on turns
5, 10, 15... Experience (EXP), scoring (SC), the Command Network (CN), combat engineers (ENG),
terrain (TI) and transit survival (TR) follow the aids. Paragraph keys and every ruling on the
aid's gaps are listed in this package's README.

The rule functions are importable alone:

>>> from owsnb.rules import opscale
>>> opscale.combat.hit_kind(19, 0, 20)
'double'
>>> opscale.forecast.initiative_odds(2, 0)["attacker"]
Fraction(16, 23)
>>> opscale.RULESET.name
'opscale'
"""

from owsnb.rules.opscale import (
    board,
    combat,
    decks,
    economy,
    engagement,
    engineers,
    experience,
    forecast,
    scoring,
    transit,
    units,
)
from owsnb.rules.opscale.ruleset import OPTIONS, OpScale

RULESET = OpScale()

__all__ = [
    "RULESET",
    "OpScale",
    "OPTIONS",
    "board",
    "combat",
    "decks",
    "economy",
    "engagement",
    "engineers",
    "experience",
    "forecast",
    "scoring",
    "transit",
    "units",
]
