"""TOCS (Tactical Operations Command System): double-blind perimeter play with the engine as the
neutral referee, in three layers (Basic rules > WWII period > game module, overridden in the
text's precedence module > period > basic).

>>> from owsnb.rules.tocs import RULESET
>>> RULESET.name, {"deficit_op", "degrade_model", "rally_step"} <= set(RULESET.options)
('tocs', True)
"""

from owsnb.rules.tocs.ruleset import Tocs

RULESET = Tocs()

__all__ = ["RULESET", "Tocs"]
