"""The Operational Wargame System (OWS) v2.3 rule set.

One module per rule-book chapter, each citing the paragraphs it implements (see README.md and
COVERAGE.md). Importing the package builds :data:`RULESET` and exposes the chapter modules as
attributes, so a notebook can write ``from owsnb.rules import ows; ows.dice.promote("d8")``.

>>> from owsnb.rules import ows
>>> ows.RULESET.name, ows.dice.promote("d8", 2)
('ows', 'd12')
"""

from owsnb.rules.ows import dice, options, sequence, units  # noqa: F401
from owsnb.rules.ows.ruleset import MODULES, OWS, load_tables

RULESET = OWS()

from owsnb.rules.ows.examples import example  # noqa: E402

"""The registered OWS rule set (``owsnb.load_ruleset("ows")``)."""

__all__ = [
    "RULESET",
    "OWS",
    "MODULES",
    "load_tables",
    "example",
    "dice",
    "units",
    "sequence",
    "options",
]
