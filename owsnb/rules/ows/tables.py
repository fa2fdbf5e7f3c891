"""The OWS data tables: every ``tables/*.yaml`` of the package, by file stem.

A leaf module (it imports nothing of the rule set), so chapter modules that need a default table
import it directly; a scenario's ``tables:`` block overrides these in ``state.tables``.

>>> sorted(load_tables())[:3]
['cyber_cards', 'decision_cards', 'fet']
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

__all__ = ["TABLES_DIR", "load_tables"]

TABLES_DIR = Path(__file__).parent / "tables"


@cache
def load_tables() -> dict[str, Any]:
    """Every ``tables/*.yaml`` of the package, by file stem (cached: callers copy before changing)."""
    out = {}
    for p in sorted(TABLES_DIR.glob("*.yaml")):
        out[p.stem] = yaml.safe_load(p.read_text(encoding="utf-8"))
    return out
