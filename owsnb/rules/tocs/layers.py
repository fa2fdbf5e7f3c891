"""The three TOCS rule layers and their precedence: module > period > basic (source L6, L97).

Each layer is a YAML file in ``tables/`` with ``rulings`` (how a layer settles a point the
layers disagree on) and ``tables`` (data; lost tables carry ``placeholder: true``). The active
stack is ``basic``, the period (option ``period``, only ``wwii`` exists) and the module (option
``module``, e.g. ``omg-n``); a later layer overrides an earlier one key by key.

>>> stack = layer_stack("wwii", "omg-n")
>>> [layer["layer"] for layer in stack]
['basic', 'wwii', 'omg-n']
>>> merged_rulings(stack)["pursuit_into_occupied"], merged_rulings(stack)["supply_bases_public"]
('engagement', False)
>>> merged_rulings(layer_stack("wwii", "none"))["supply_bases_public"]
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from owsnb.kernel.data import deep_merge
from owsnb.rules.tables import read_table

__all__ = [
    "LAYER_DIR",
    "PERIODS",
    "MODULES",
    "load_layer",
    "layer_stack",
    "merged_rulings",
    "merged_tables",
]

LAYER_DIR = Path(__file__).parent / "tables"
PERIODS = ("wwii",)
MODULES = ("none", "omg-n")


@cache
def _read(name: str) -> dict[str, Any]:
    return read_table(LAYER_DIR / f"{name}.yaml")


def load_layer(name: str) -> dict[str, Any]:
    """One layer file as plain data (a fresh copy)."""
    return deep_merge({}, _read(name))


def layer_stack(period: str = "wwii", module: str = "none") -> list[dict[str, Any]]:
    """The layers in force, lowest precedence first."""
    names = ["basic", period] + ([] if module in (None, "", "none") else [module])
    return [load_layer(n) for n in names]


def merged_rulings(stack: list[dict[str, Any]]) -> dict[str, Any]:
    """Rulings with each layer overriding the ones below it."""
    out: dict[str, Any] = {}
    for layer in stack:
        out.update(layer.get("rulings") or {})
    return out


def merged_tables(stack: list[dict[str, Any]]) -> dict[str, Any]:
    """Tables deep-merged in precedence order."""
    out: dict[str, Any] = {}
    for layer in stack:
        out = deep_merge(out, layer.get("tables") or {})
    return out
