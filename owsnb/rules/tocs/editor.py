"""What the scenario editor needs to know about TOCS (:class:`~owsnb.kernel.editing.EditorSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.editing import Box, EditorSpec, Feature

__all__ = ["EDITOR"]


def _schema() -> Mapping[str, Any]:
    from owsnb.rules.tocs.schema import UnitPayload

    return UnitPayload.model_json_schema()


EDITOR = EditorSpec(
    catalogs={"tocs-*.yaml": ""},
    faction=lambda key, counter: "german" if key.startswith("ger-") else "allied",
    payload_schema=_schema,
    boxes=(
        Box("air:ready", "aircraft ready to launch (L57)", "L57"),
        Box("air:landed", "aircraft landed, two impulses from ready (L57)", "L57"),
    ),
    terrains=lambda tables: tuple(tables["cot"]["terrain"]),
    features=(
        Feature("bridge", {}, "a bridge in the hex (10.13-10.14)"),
        Feature("city", {}, "city"),
        Feature("town", {}, "town"),
        Feature("village", {}, "village"),
        Feature("supply-base", {}, "supply base (L191)"),
    ),
    edges=("road", "canal", "stream", "bridge"),
    tables={
        "crt": "Combat Results Table — placeholder",
        "crt_terrain": "CRT terrain shifts — placeholder",
        "cot": "terrain costs — placeholder",
        "weather": "weather — placeholder",
        "turn_end_track": "turn end track — placeholder",
        "interrogation": "interrogation — placeholder",
        "artillery": "battery range and strength — placeholder",
        "artillery_strike": "Artillery Strike Table — placeholder",
        "bombardment": "Bombardment Table — placeholder",
        "infiltration": "Infiltration Table — placeholder",
        "straying": "straying — placeholder",
        "fording": "fording — placeholder",
        "aa_combat": "anti-aircraft combat — placeholder",
        "air_interception": "air interception — placeholder",
        "air_combat": "air combat — placeholder",
        "ground_strike": "ground strike — placeholder",
        "bombing": "bombing — placeholder",
        "descending_drift": "descending drift — placeholder",
        "naval": "naval move and combat — placeholder",
        "supply": "supply ranges — placeholder",
    },
)
