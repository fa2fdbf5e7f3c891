"""What the scenario editor needs to know about Combat Operations
(:class:`~owsnb.kernel.editing.EditorSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.editing import Box, EditorSpec, Feature

__all__ = ["EDITOR"]


def _schema() -> Mapping[str, Any]:
    from owsnb.rules.combatops.units import CounterData

    return CounterData.model_json_schema()


EDITOR = EditorSpec(
    catalogs={"combatops-*.yaml": ""},
    faction=lambda key, counter: {"b": "blue", "r": "red"}.get(key.split("-", 1)[0], ""),
    payload_schema=_schema,
    boxes=(
        Box("pool", "reinforcements and dummies waiting off the map (rules.reinforcements)", "14"),
        Box("entry", "enters from a map edge (rules.entry)", "17.1"),
    ),
    terrains=lambda tables: tuple(tables["terrain"]["terrain"]),
    features=(Feature("elevation", {"level": 1}, "hill or ridge level (14.0)"),),
    edges=("river", "road", "bridge"),
    tables={
        "crt": "Combat Results Table (11.0)",
        "terrain": "terrain effects (9.0)",
        "unit_types": "unit types (2.1)",
    },
    notes="The counter sheet's lost values are placeholders in the catalog (placeholder: true).",
)
