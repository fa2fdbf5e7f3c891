"""The recipe of a generated map: the ``map:`` block (:class:`MapRecipe`) with its terrain regions,
features and edges as pydantic models, and their validation errors as located problems.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from owsnb.kernel.errors import ScenarioError, ScenarioProblem, key_path, validation_problems

__all__ = [
    "MapRecipe",
    "RegionRecipe",
    "FeatureRecipe",
    "EdgeRecipe",
    "LonLat",
    "Problems",
    "add_validation_problems",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


LonLat = tuple[float, float]


class RegionRecipe(_Strict):
    """Terrain for a set of hexes, named by labels or by geography."""

    terrain: str = Field(min_length=1)
    name: str = ""
    only: Literal["land", "sea", "any"] = "any"
    hexes: list[str] = []
    rect: tuple[str, str] | None = None
    bbox: tuple[float, float, float, float] | None = None
    around: tuple[str | LonLat, int] | None = None
    at: LonLat | None = None
    polygon: list[LonLat] | None = Field(None, min_length=3)

    @model_validator(mode="after")
    def _some(self) -> RegionRecipe:
        if not (self.hexes or self.rect or self.bbox or self.around or self.at or self.polygon):
            raise ValueError("a terrain region needs hexes, rect, bbox, around, at or polygon")
        return self


class FeatureRecipe(_Open):
    """A feature (port, airfield, city...) at a label or a lon/lat; other keys are its facts."""

    type: str = Field(min_length=1)
    name: str = ""
    hex: str | None = None
    at: LonLat | None = None

    @model_validator(mode="after")
    def _one(self) -> FeatureRecipe:
        if (self.hex is None) == (self.at is None):
            raise ValueError("a feature needs exactly one of hex (a label) or at ([lon, lat])")
        return self


class EdgeRecipe(_Open):
    """A river, road, rail... along labels or a lon/lat line; other keys are its facts."""

    type: str = Field(min_length=1)
    name: str = ""
    hexes: list[str] | None = Field(None, min_length=2)
    line: list[LonLat] | None = Field(None, min_length=2)
    trace: Literal["hexes", "hexsides"] | None = None

    @model_validator(mode="after")
    def _one(self) -> EdgeRecipe:
        if (self.hexes is None) == (self.line is None):
            raise ValueError(
                "an edge needs exactly one of hexes (labels) or line ([[lon, lat], ...])"
            )
        return self


class MapRecipe(_Strict):
    """The ``map:`` block of a recipe file (what :func:`new_scenario` takes as keywords)."""

    bbox: tuple[float, float, float, float]
    hex: str | float = Field(description="hex size: '200nm', '20km', 10 ...")
    unit: Literal["km", "nm"] | None = None
    orientation: Literal["flat", "pointy"] = "flat"
    land: str = "clear"
    land_threshold: float = Field(0.5, gt=0, le=1)
    samples: int = Field(5, ge=1, le=20)
    land_features: list[str] | None = None
    meta: dict[str, Any] = {}
    terrain: list[RegionRecipe] = []
    features: list[FeatureRecipe] = []
    edges: list[EdgeRecipe] = []


class Problems:
    def __init__(self, file: str):
        self.file = file
        self.items: list[ScenarioProblem] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(ScenarioProblem(self.file, path, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.items)


def add_validation_problems(exc: ValidationError, problems: Problems, prefix: str) -> None:
    for loc, msg in validation_problems(exc, [prefix] if prefix else []):
        problems.add(key_path(loc), msg)
