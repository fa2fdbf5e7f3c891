"""The rule set's data tables: YAML files in ``tables/`` (scenarios override them under ``tables:``).

Tables printed in the player aid are transcribed exactly; tables lost from the text are shipped
with clearly labelled PLACEHOLDER values (see each file's header and the README).

>>> t = load_tables()
>>> t["experience"]["bonuses"][9], t["scoring"]["capture_key_city"]["points"]
('exploit-weakness', 25)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.rules.tables import read_tables

__all__ = ["TABLE_DIR", "load_tables", "TABLE_NAMES"]

TABLE_DIR = Path(__file__).with_name("tables")
TABLE_NAMES = (
    "experience",
    "scoring",
    "engineers",
    "transit",
    "terrain",
    "economy",
    "command",
    "cards",
)


@lru_cache(maxsize=1)
def _load() -> dict[str, Any]:
    return read_tables(TABLE_DIR, TABLE_NAMES)


def load_tables() -> dict[str, Any]:
    """A fresh copy of every default table."""
    return thaw(_load())
