"""What the scenario editor needs to know about OWS (:class:`~owsnb.kernel.editing.EditorSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from owsnb.kernel.editing import Box, EditorSpec, Feature

__all__ = ["EDITOR"]


def _faction(key: str, counter: Mapping[str, Any]) -> str:
    """One catalog per side and scale (``ows-prc-20km``): the faction is the middle part."""
    stem = Path(str(counter.get("catalog", ""))).stem.removeprefix("ows-")
    return stem.rsplit("-", 1)[0] if stem.endswith(("km", "nm")) else stem


def _schema() -> Mapping[str, Any]:
    from owsnb.rules.ows import units

    return units._model().model_json_schema()


_PLACE = {"owner": "", "capacity": 2, "shield": 3}

EDITOR = EditorSpec(
    catalogs={"ows-*-20km.yaml": "tactical", "ows-*-200nm.yaml": "operational"},
    faction=_faction,
    payload_schema=_schema,
    boxes=(
        Box(
            "base",
            "air missions and SOF teams off the map at their base (an air mission names its "
            "squadron base or carrier)",
            "6.5.5",
            link="base",
            hosts=("category=air-base", "subtype=cvn", "subtype=lhd"),
        ),
        Box(
            "aboard",
            "ground units embarked in a ship's hold (the ship sails them, 5.1.1.2)",
            "5.1.1.2",
            link="aboard",
            host="hold",
            hosts=("category=naval",),
        ),
        Box("regeneration", "out of play until a Regeneration phase brings it back", "11"),
    ),
    terrains=lambda tables: ("deep-sea", "littoral", *tables["movement"]["terrain"]),
    features=(
        Feature("port", _PLACE, "embarks and offloads steps (2.1.7.1)"),
        Feature("airfield", _PLACE, "bases squadrons up to its capacity (6.5.5)"),
        Feature("airstrip", _PLACE, "a small airfield (6.5.5)"),
        Feature("city", {"owner": ""}, "urban objective"),
        Feature("railhead", {"owner": "", "shield": 3}, "rail movement ends here (5.1.1.4)"),
    ),
    edges=("river", "major-river", "road", "rail", "border"),
    tables={
        "gcat": "Ground Combat Adjudication Table (10.15.9) — placeholder",
        "fet": "Fires Effects Table (9.4, 10.15.4) — placeholder",
        "movement": "Movement Chart (10.10.1) — placeholder costs",
        "missile_modifiers": "missile modifiers chart (9.2) — placeholder",
        "sof_missions": "SOF missions chart (6.6) — placeholder",
        "space": "space dashboard rows (2.1.3) — placeholder shields and dice",
        "weather": "weather (3.1) — placeholder",
        "cyber_cards": "cyber cards (7.2) — placeholder",
        "ground": "chapter 10 numbers and scenario settings (action points, supply sources)",
    },
)
