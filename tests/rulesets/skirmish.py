"""The kernel's test rule set, by the name the tests (and ``$OWSNB_RULESETS`` in server tests)
have always used: it lives in the package, :mod:`owsnb.rules.skirmish`, so that the documentation's
examples that play it run from an installed owsnb (issue 17)."""

from owsnb.rules.skirmish import RULESET, SCENARIO, Fire, Move, Skirmish, example, reach

__all__ = ["RULESET", "SCENARIO", "Fire", "Move", "Skirmish", "example", "reach"]
