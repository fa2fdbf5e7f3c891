"""TOCS (Tactical Operations Command System): double-blind perimeter play with the engine as the
neutral referee, in three layers (Basic rules > WWII period > game module, overridden in the
text's precedence module > period > basic).

>>> from owsnb.rules.tocs import RULESET
>>> RULESET.name, sorted(RULESET.options)[:3]
('tocs', ['air_support_in_ambush', 'deficit_op', 'degrade_model'])
"""

from owsnb.rules.tocs.ruleset import Tocs

RULESET = Tocs()

__all__ = ["RULESET", "Tocs"]
