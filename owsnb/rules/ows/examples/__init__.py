"""A small OWS teaching scenario shipped with the rule set (notional counters).

>>> from owsnb.rules.ows.examples import example
>>> g = example(seed=1)
>>> g.ruleset.name, len(g.units)
('ows', 22)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
STRAIT = HERE / "strait.yaml"
"""The strait: a 8x6 map of 200 nm hexes, Blue and Red each with ships, a submarine, air, SOF, HQ."""


def example(seed: int = 7, **kwargs: Any) -> Any:
    """Load the strait teaching scenario in memory (``owsnb.load(STRAIT, seed=seed, save=False)``)."""
    import owsnb

    kwargs.setdefault("save", False)
    return owsnb.load(STRAIT, seed=seed, **kwargs)
