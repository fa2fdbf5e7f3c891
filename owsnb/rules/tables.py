"""Reading a rule set's YAML data tables: the one loader the rule sets share (they each keep their
own cache and copy rules on top of it). Not a rule set: a helper of the rules layer.

>>> from owsnb.rules.ows.tables import TABLES_DIR
>>> tables = read_tables(TABLES_DIR)
>>> "gcat" in tables, read_tables(TABLES_DIR, ["gcat"]).keys() == {"gcat"}
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

__all__ = ["read_table", "read_tables"]


def read_table(path: Path) -> Any:
    """One YAML file as plain data (UTF-8)."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def read_tables(directory: Path, names: Iterable[str] | None = None) -> dict[str, Any]:
    """The tables *names* (default: every ``*.yaml`` of *directory*, in name order) by name."""
    if names is None:
        names = sorted(p.stem for p in directory.glob("*.yaml"))
    return {name: read_table(directory / f"{name}.yaml") for name in names}
