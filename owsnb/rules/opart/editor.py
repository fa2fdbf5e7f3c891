"""What the scenario editor needs to know about Operational Art
(:class:`~owsnb.kernel.editing.EditorSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.editing import EditorSpec, Feature

__all__ = ["EDITOR"]


def _schema() -> Mapping[str, Any]:
    from owsnb.rules.opart.stands import StandData

    return StandData.model_json_schema()


EDITOR = EditorSpec(
    catalogs={"opart-*.yaml": ""},
    faction=lambda key, counter: str((counter.get("data") or {}).get("nation", "")),
    payload_schema=_schema,
    terrains=lambda tables: tuple(tables["terrain"]),
    features=(
        Feature("town", {}, "a named town (objectives)"),
        Feature("landmark", {}, "a named landmark"),
        Feature("works", {}, "field works (R19 cover)"),
    ),
    edges=("road",),
    tables={
        "flank_arcs": "flank arcs (footnote xii diagrams, lost) — placeholder (R7)",
        "victory": "victory (none in the text) — placeholder",
        "ranges": "ranges (§14; cavalry, rockets, transport, command rows are placeholders, R11)",
    },
    notes="Stands start on the map; facings and formations are set under rules: (R7, §7).",
)
