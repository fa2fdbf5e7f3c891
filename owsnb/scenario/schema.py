"""The scenario and unit-catalog file formats, as pydantic models.

A scenario names its rule set and options, lays out the map (grid on Earth or an abstract board,
terrain per hex or region, features such as ports and airfields, hexside features such as rivers
and roads), its sides, the catalogs its units come from, the units, the start clock, and its
briefing, victory conditions and special rules. Rule-set specific setup goes under ``rules:``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, model_validator

__all__ = [
    "ScenarioSpec",
    "CatalogSpec",
    "CatalogType",
    "MapSpec",
    "UnitSpec",
    "SideSpec",
    "LayoutSpec",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class LayoutSpec(_Strict):
    """Where the grid sits on Earth. Without ``origin`` the board is abstract (``simple``)."""

    orientation: Literal["flat", "pointy"] = "flat"
    size: PositiveFloat = Field(description="hex width across flats")
    unit: Literal["km", "nm"] = "km"
    origin: tuple[float, float] | None = Field(
        None, description="(lon, lat) of the centre of the anchor hex"
    )
    anchor: str | None = Field(
        None,
        description="label of the hex centred on origin: 'centre' for the "
        "middle of the map (keeps large maps least distorted); default the first hex",
    )
    projection: Literal["aeqd", "mercator", "simple"] = "aeqd"


class LabelSpec(_Strict):
    """How printed hex labels (``0304``) are numbered."""

    parity: Literal["odd", "even"] = "odd"
    first_col: int = 1
    first_row: int = 1
    digits: PositiveInt = 2


class RegionSpec(_Strict):
    """A set of hexes given one terrain: by labels, a label rectangle, a lon/lat box, or a disc."""

    terrain: str
    hexes: list[str] = []
    rect: tuple[str, str] | None = Field(
        None, description="two corner labels, e.g. ['0304', '0608']"
    )
    bbox: tuple[float, float, float, float] | None = Field(
        None, description="[min_lon, min_lat, max_lon, max_lat]"
    )
    around: tuple[str, int] | None = Field(None, description="[centre label, radius in hexes]")
    name: str = ""

    @model_validator(mode="after")
    def _one_way(self) -> RegionSpec:
        if not (self.hexes or self.rect or self.bbox or self.around):
            raise ValueError("a region needs hexes, rect, bbox or around")
        return self


class TerrainSpec(_Strict):
    default: str = "clear"
    hexes: dict[str, str] = {}
    regions: list[RegionSpec] = []


class FeatureSpec(_Open):
    """A fixed feature in a hex (port, airfield, city, railhead...); other keys are its facts."""

    hex: str
    type: str
    name: str = ""


class EdgeSpec(_Open):
    """A hexside feature along a chain of adjacent hexes (river, road, rail...)."""

    hexes: list[str] = Field(min_length=2)
    type: str
    name: str = ""


class MapSpec(_Strict):
    layout: LayoutSpec
    labels: LabelSpec = LabelSpec()
    cols: PositiveInt | None = None
    rows: PositiveInt | None = None
    hexes: list[str] | None = Field(
        None, description="explicit hex labels (instead of cols x rows)"
    )
    terrain: TerrainSpec = TerrainSpec()
    features: list[FeatureSpec] = []
    edges: list[EdgeSpec] = []
    meta: dict[str, Any] = Field({}, description="scale facts: scale name, zone size...")

    @model_validator(mode="after")
    def _extent(self) -> MapSpec:
        if self.hexes is None and (self.cols is None or self.rows is None):
            raise ValueError("give the map's cols and rows, or an explicit list of hexes")
        return self


class SideSpec(_Strict):
    title: str = ""
    color: str = "#888888"
    public: dict[str, Any] = {}
    private: dict[str, Any] = {}
    briefing: str = Field(
        "", description="this side's own briefing (its mission, what it knows): shown to it only"
    )
    victory: str = Field(
        "", description="this side's victory conditions when they are secret from the other side"
    )
    coach: dict[str, str] = Field(
        {}, description="step key -> a hint for this side in that step (tutorials)"
    )


class UnitSpec(_Strict):
    id: str = Field(min_length=1)
    type: str
    side: str
    name: str = ""
    hex: str | None = None
    box: str | None = None
    steps: PositiveInt | None = None
    markers: list[str] = []
    seen_by: list[str] = []
    data: dict[str, Any] = {}

    @model_validator(mode="after")
    def _place(self) -> UnitSpec:
        if self.hex is not None and self.box is not None:
            raise ValueError("a unit is either on a hex or in a box, not both")
        return self


class ClockSpec(_Strict):
    turn: PositiveInt = 1
    date: str = ""


class ScenarioSpec(_Strict):
    """A scenario file."""

    owsnb: Literal[1] = 1
    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    title: str
    ruleset: str
    description: str = ""
    briefing: str = ""
    briefing_file: str | None = None
    options: dict[str, Any] = {}
    seed: int | None = None
    turns: PositiveInt | None = None
    map: MapSpec
    sides: dict[str, SideSpec] = Field(min_length=1)
    catalogs: list[str] = []
    units: list[UnitSpec] = []
    clock: ClockSpec = ClockSpec()
    initiative: str | None = None
    victory: str | dict[str, Any] = ""
    special_rules: list[str] = []
    coach: dict[str, str] = Field(
        {}, description="step key -> a hint shown to every seat in that step (tutorials)"
    )
    tables: dict[str, Any] = {}
    rules: dict[str, Any] = {}


class CatalogType(_Strict):
    """One counter type of a catalog. ``data`` is the rule set's payload; values are notional."""

    name: str = ""
    category: str = ""
    steps: PositiveInt = 1
    data: dict[str, Any] = {}
    notes: str = ""


class CatalogSpec(_Strict):
    """A unit-catalog file (``owsnb-catalog: 1``)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    owsnb_catalog: Literal[1] = Field(1, alias="owsnb-catalog")
    ruleset: str
    title: str = ""
    notional: bool = True
    notes: str = ""
    types: dict[str, CatalogType]
