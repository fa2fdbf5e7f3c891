"""What the scenario editor needs to know about Operational Scale
(:class:`~owsnb.kernel.editing.EditorSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.editing import Box, EditorSpec, Feature

__all__ = ["EDITOR"]


def _schema() -> Mapping[str, Any]:
    from owsnb.rules.opscale.units import UnitDataSpec

    return UnitDataSpec.model_json_schema()


EDITOR = EditorSpec(
    catalogs={"opscale-*.yaml": ""},
    faction=lambda key, counter: "notional",
    payload_schema=_schema,
    boxes=(
        Box("staged", "bought, waiting to deploy (TS.2, R30)", "TS.2"),
        Box(
            "carried",
            "riding a transport (TS.4)",
            "TS.4",
            link="carried_by",
            hosts=("category=transport",),
        ),
    ),
    terrains=lambda tables: tuple(tables["terrain"]["types"]),
    features=(
        Feature("city", {"control": "", "key": False}, "income and objectives (R31)"),
        Feature("port", {}, "port"),
        Feature("airfield", {}, "airfield"),
        Feature("bridge", {}, "bridge (ENG)"),
        Feature("road", {}, "road through the hex"),
    ),
    tables={
        "economy": "income (R31) — placeholder",
        "cards": "Command and Event decks (R32) — placeholder",
        "command": "Command Network radii (R20) — placeholder",
        "terrain": "terrain checks (R22) — placeholder",
        "transit": "transit survival (TR)",
        "engineers": "engineer table (R21)",
    },
)
