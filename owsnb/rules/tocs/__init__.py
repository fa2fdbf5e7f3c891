"""TOCS (Tactical Operations Command System): double-blind perimeter play with the engine as the
neutral referee, in three layers (Basic rules > WWII period > game module, overridden in the
text's precedence module > period > basic).

>>> from owsnb.rules.tocs import RULESET
>>> RULESET.name, sorted(RULESET.options)[:3]
('tocs', ['deficit_op', 'degrade_model', 'ext_ezoc_to_ezoc'])
"""

from owsnb.rules.tocs.ruleset import Tocs

RULESET = Tocs()

__all__ = ["RULESET", "Tocs"]
