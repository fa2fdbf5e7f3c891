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

from owsnb.rules.tables import read_tables

__all__ = ["TABLES_DIR", "load_tables"]

TABLES_DIR = Path(__file__).parent / "tables"


@cache
def load_tables() -> dict[str, Any]:
    """Every ``tables/*.yaml`` of the package, by file stem (cached: callers copy before changing)."""
    return read_tables(TABLES_DIR)
