"""The rule set's data tables: YAML files shipped beside this module.

Tables printed in the rule book are transcribed; tables lost from the text ship with clearly
labelled placeholder values (``flank_arcs``, ``victory``, parts of ``ranges``). A scenario
overrides any of them under ``tables:``.

>>> t = default_tables()
>>> t["combat_values"]["basic"], t["ranges"]["weapons"]["field"], t["dice"]["german"]
(1, 6, 12)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from owsnb.kernel.data import freeze, thaw
from owsnb.kernel.state import StateLike
from owsnb.rules.tables import read_tables

__all__ = ["TABLE_NAMES", "default_tables", "table"]

HERE = Path(__file__).parent / "tables"
TABLE_NAMES = ("combat_values", "movement", "ranges", "dice", "terrain", "flank_arcs", "victory")


@cache
def _frozen() -> Any:
    return freeze(read_tables(HERE, TABLE_NAMES))


def default_tables() -> dict[str, Any]:
    """A fresh, editable copy of every table (plain dicts and lists)."""
    return thaw(_frozen())


def table(state: StateLike | None, name: str) -> Any:
    """The table *name* in force in *state* (a game state or view; ``None``: none), else the
    shipped default."""
    tables = getattr(state, "tables", None) or {}
    return tables[name] if name in tables else _frozen()[name]
