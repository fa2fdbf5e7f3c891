"""Author a scenario map from real geography, offline: grid, land/sea, overrides, YAML out.

:func:`new_scenario` lays a hex grid of a chosen size (``200 nm``, ``100 nm``, ``20 km``,
``10 km`` or any) over a lon/lat box, classifies every hex, applies the author's overrides and
returns a scenario dict (map, sides, empty order of battle) that :func:`write_scenario` saves as
YAML, together with an offline coastline/borders layer beside it. Loading the scenario later
never touches the land mask: the classification is stored in the file.

The steps live in their own modules: :mod:`~owsnb.authoring.grid_fit` (sizes, the grid),
:mod:`~owsnb.authoring.land` (land fractions, the land/littoral/deep-sea rule),
:mod:`~owsnb.authoring.recipe` (the recipe's models), :mod:`~owsnb.authoring.overrides` (places,
features, terrain regions, edges), :mod:`~owsnb.authoring.tracing` (lines along hexes and
hexsides) and :mod:`~owsnb.authoring.yaml_writer` (YAML out); this module assembles the scenario
and keeps their public names importable from here.

**The grid.** Hex ``0101`` sits at the north-west corner, columns run east and rows south, and
the map is the smallest ``cols x rows`` rectangle of hexes that covers every point of the box.
The projection is azimuthal equidistant about the middle of the box (the layout's ``anchor``
hex, see :class:`~owsnb.kernel.geo.GeoLayout`), so hexes stay within a few per cent of their
true size even on a 4,000 km map and rows follow the parallels closely.

**Land, littoral, deep sea** (the documented rule). Each hex is sampled at ``1 + 3k(k-1)``
points of a triangular lattice inside it (``k = samples``, default 5: 61 points) against the
``global-land-mask`` package (GLOBE 1 km land/sea mask; most lakes count as land):

1. a hex is **land** (terrain ``land``, default ``clear``) when at least ``land_threshold``
   (default 0.5: a majority) of its samples are on land;
2. a hex holding a port, airfield, airbase, city or railhead feature is land whatever its
   samples say (so Guam or Okinawa keep their airfields on a 200 nm map);
3. the author's terrain overrides are applied, in order (later wins);
4. every other hex is sea: **littoral** if any of its samples is on land or it is next to a land
   hex, otherwise **deep-sea**.

**Overrides** (a *recipe*, see :func:`scenario_from_recipe`) name places by printed label or by
lon/lat and are resolved to labels here, so the written file needs no geography to load:

* terrain regions: ``{terrain: forest, name: ..., only: land}`` plus any of ``hexes`` (labels),
  ``rect`` (two corner labels), ``bbox`` (hex centres in a lon/lat box), ``around`` (a label or
  ``[lon, lat]`` and a radius in hexes), ``at`` (the hex under one point) and ``polygon`` (hex
  centres inside a lon/lat ring); ``only: land`` / ``only: sea`` keeps only hexes the land
  mask (rules 1-2) calls so (not ``on:``, which YAML reads as ``true``);
* features: ``{type: port, at: [lon, lat], name: ..., capacity: 4, shield: 3}`` (or ``hex:``);
  a hex holds at most one feature of each type (merge two airfields into one entry);
* edges: ``{type: river, line: [[lon, lat], ...]}`` (or ``hexes:``). Rivers and canals run
  along hexsides: the line is traced on the hex corners and written as a chain of hexes whose
  consecutive pairs share the river's hexsides. Roads and rail run through hexes: the chain is
  the hexes the line passes through.

Example:
    >>> scn = new_scenario("demo", "Demo", ruleset="skirmish", bbox=(127.6, 26.1, 128.0, 26.4),
    ...                    hex_size=10, is_land=lambda lon, lat: lon > 127.8)
    >>> m = scn["map"]
    >>> m["cols"], m["rows"], m["layout"]["anchor"], m["terrain"]["default"]
    (5, 5, '0303', 'clear')
    >>> sorted({r["terrain"] for r in scn["map"]["terrain"]["regions"]})
    ['deep-sea', 'littoral']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import ValidationError

from owsnb.authoring.grid_fit import Grid, fit_grid, parse_hex_size
from owsnb.authoring.land import (
    LAND_FEATURES,
    LAND_SOURCE,
    SEA,
    LandFn,
    classify,
    land_fractions,
    sample_weights,
)
from owsnb.authoring.overrides import (
    PlaceResolver,
    edge_entries,
    feature_entries,
    terrain_overrides,
)
from owsnb.authoring.recipe import MapRecipe, Problems, RegionRecipe, add_validation_problems
from owsnb.authoring.tracing import HEXSIDE_EDGES
from owsnb.authoring.yaml_writer import dump_yaml, write_scenario
from owsnb.kernel.errors import ScenarioError, ScenarioProblem
from owsnb.kernel.hexgrid import Hex

__all__ = [
    "SEA",
    "HEXSIDE_EDGES",
    "LAND_FEATURES",
    "Grid",
    "fit_grid",
    "parse_hex_size",
    "land_fractions",
    "new_scenario",
    "scenario_from_recipe",
    "write_scenario",
    "dump_yaml",
    "MapRecipe",
]

#: Sides of a new scenario unless given.
DEFAULT_SIDES = {
    "blue": {"title": "Blue", "color": "#1f5fbf"},
    "red": {"title": "Red", "color": "#c0392b"},
}


def new_scenario(
    id: str,
    title: str,
    *,
    bbox: Sequence[float],
    hex_size: str | float = 20,
    unit: str | None = None,
    ruleset: str = "ows",
    orientation: Literal["flat", "pointy"] = "flat",
    land: str = "clear",
    land_threshold: float = 0.5,
    samples: int = 5,
    land_features: Sequence[str] | None = None,
    terrain: Sequence[Mapping[str, Any]] = (),
    features: Sequence[Mapping[str, Any]] = (),
    edges: Sequence[Mapping[str, Any]] = (),
    meta: Mapping[str, Any] | None = None,
    sides: Mapping[str, Any] | None = None,
    is_land: LandFn | None = None,
    source: str = "<new_scenario>",
    **scenario: Any,
) -> dict[str, Any]:
    """A new scenario on real geography: its map classified and overridden, no units yet.

    Args:
        id: scenario id (letters, digits, ``_.-``).
        title: its title.
        bbox: ``(min_lon, min_lat, max_lon, max_lat)`` the map must cover.
        hex_size: ``200`` / ``"200nm"`` / ``"20km"``: hex width across flats.
        unit: ``"km"`` or ``"nm"`` when *hex_size* is a bare number (default km).
        ruleset: the rule set the scenario plays.
        orientation: ``"flat"`` (columns, OWS maps) or ``"pointy"``.
        land: terrain of land hexes before overrides.
        land_threshold: share of land samples that makes a hex land (0.5 = majority).
        samples: lattice subdivisions per hex (``1 + 3k(k-1)`` points; 5 gives 61).
        land_features: feature types that force their hex to land (default :data:`LAND_FEATURES`).
        terrain: override regions (see the module docstring), applied in order.
        features: ports, airfields, cities... by ``at: [lon, lat]`` or ``hex:``.
        edges: rivers, roads, rail... by ``line: [[lon, lat], ...]`` or ``hexes:``.
        meta: map facts (``scale``, ``zone_km``...) stored under ``map.meta``.
        sides: the sides (default blue and red).
        is_land: a replacement land test ``f(lon_array, lat_array) -> bool array`` (tests,
            other data); default the ``global-land-mask`` package.
        source: name used in error messages (the recipe file).
        **scenario: any other scenario key (``briefing``, ``victory``, ``options``, ``units``...).

    Returns:
        the scenario as a plain dict, ready for :func:`write_scenario` or ``owsnb.load``.

    Raises:
        ScenarioError: every bad override, each located (``terrain[2].at: ... off the map``).
        ValueError: a malformed box or size.
    """
    problems = Problems(source)
    try:
        recipe = MapRecipe(
            bbox=tuple(bbox),
            hex=hex_size,
            unit=unit,
            orientation=orientation,
            land=land,
            land_threshold=land_threshold,
            samples=samples,
            land_features=None if land_features is None else list(land_features),
            meta=dict(meta or {}),
            terrain=list(terrain),
            features=list(features),
            edges=list(edges),
        )
    except ValidationError as exc:
        add_validation_problems(exc, problems, "map")
        problems.raise_if_any()
    grid = fit_grid(recipe.bbox, recipe.hex, recipe.unit, recipe.orientation)
    res = PlaceResolver(grid, problems)
    hexes = res.hexes
    frac = dict(zip(hexes, land_fractions(grid, recipe.samples, is_land), strict=True))
    is_land_hex = {h: frac[h] >= recipe.land_threshold for h in hexes}
    forcing = set(LAND_FEATURES if recipe.land_features is None else recipe.land_features)
    out_features, forced = feature_entries(res, recipe.features, forcing)
    for h in forced:
        is_land_hex[h] = True
    override, regions = terrain_overrides(res, recipe.terrain, is_land_hex)
    out_edges = edge_entries(res, recipe.edges)
    problems.raise_if_any()
    base = classify(hexes, frac, is_land_hex, recipe.land, override)
    default, out_regions = _terrain_regions(grid, hexes, base, override, regions)

    lay: dict[str, Any] = {
        "orientation": recipe.orientation,
        "size": grid.size,
        "unit": grid.unit,
        "origin": [round(v, 6) for v in grid.layout.origin],
        "anchor": grid.anchor,
        "projection": "aeqd",
    }
    map_meta = {
        **recipe.meta,
        "bbox": [float(v) for v in recipe.bbox],
        "extent": grid.extent(),
        "terrain_source": {
            "land": LAND_SOURCE if is_land is None else "custom land test",
            "samples_per_hex": int(sample_weights(recipe.samples).shape[0]),
            "land_threshold": recipe.land_threshold,
            "rule": "land if share of land samples >= threshold or the hex holds a "
            + "/".join(sorted(forcing))
            + "; sea hexes with land samples or next to land are littoral",
        },
    }
    mp: dict[str, Any] = {
        "layout": lay,
        "labels": {
            "parity": grid.offset.parity,
            "first_col": 1,
            "first_row": 1,
            "digits": grid.offset.digits,
        },
        "cols": grid.cols,
        "rows": grid.rows,
        "terrain": {"default": default, "regions": out_regions},
        "features": out_features,
        "edges": out_edges,
        "meta": map_meta,
    }
    scn: dict[str, Any] = {"owsnb": 1, "id": id, "title": title, "ruleset": ruleset}
    for key in ("description", "briefing", "briefing_file", "options", "seed", "turns"):
        if key in scenario:
            scn[key] = scenario.pop(key)
    scn["map"] = mp
    scn["sides"] = {k: dict(v) for k, v in (sides or DEFAULT_SIDES).items()}
    scn["catalogs"] = list(scenario.pop("catalogs", []))
    scn["units"] = list(scenario.pop("units", []))
    scn.update(scenario)
    return scn


def scenario_from_recipe(
    recipe: str | Path | Mapping[str, Any],
    *,
    is_land: LandFn | None = None,
    source: str | None = None,
) -> dict[str, Any]:
    """A scenario from a recipe: a scenario file whose ``map:`` is a :class:`MapRecipe`.

    A recipe (e.g. ``scenarios/maps/tutorial.recipe.yaml``) holds every scenario key
    (``id``, ``title``, ``ruleset``, ``sides``, ``briefing``...) plus a ``map:`` block with
    ``bbox``, ``hex``, and the overrides (``terrain``, ``features``, ``edges``, ``meta``).

    Args:
        recipe: a recipe file or the same as a dict.
        is_land: a replacement land test (see :func:`new_scenario`).
        source: the name to put in error messages (default the file, or ``<recipe>``).

    Raises:
        ScenarioError: the recipe is broken (each problem located).
    """
    source = source or "<recipe>"
    if not isinstance(recipe, Mapping):
        source = str(recipe)
        try:
            recipe = yaml.safe_load(Path(recipe).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ScenarioError(f"cannot read recipe: {exc}", file=source) from None
    if not isinstance(recipe, Mapping):
        raise ScenarioError(
            "a recipe must be a mapping with id, title, ruleset and map", file=source
        )
    data = dict(recipe)
    problems = Problems(source)
    for key in ("id", "title", "map"):
        if key not in data:
            problems.add(key, "required key is missing")
    problems.raise_if_any()
    m = data.pop("map")
    if not isinstance(m, Mapping):
        raise ScenarioError(
            [ScenarioProblem(source, "map", "must be a mapping (bbox, hex, terrain...)")]
        )
    try:
        mr = MapRecipe.model_validate(m)
    except ValidationError as exc:
        add_validation_problems(exc, problems, "map")
        problems.raise_if_any()
    kw: dict[str, Any] = {  # new_scenario's keywords, each of its own type
        "bbox": mr.bbox,
        "hex_size": mr.hex,
        "unit": mr.unit,
        "orientation": mr.orientation,
        "land": mr.land,
        "land_threshold": mr.land_threshold,
        "samples": mr.samples,
        "land_features": mr.land_features,
        "terrain": [r.model_dump(exclude_none=True) for r in mr.terrain],
        "features": [f.model_dump(exclude_none=True) for f in mr.features],
        "edges": [e.model_dump(exclude_none=True) for e in mr.edges],
        "meta": mr.meta,
    }
    return new_scenario(
        data.pop("id"),
        data.pop("title"),
        ruleset=data.pop("ruleset", "ows"),
        is_land=is_land,
        source=source,
        **kw,
        **data,
    )


def _terrain_regions(
    grid: Grid,
    hexes: Sequence[Hex],
    base: Mapping[Hex, str],
    override: Mapping[Hex, str],
    regions: Sequence[tuple[RegionRecipe, list[Hex]]],
) -> tuple[str, list[dict[str, Any]]]:
    """The map's default terrain (the commonest outside the overrides) and its regions: the other
    generated terrains, then each override region in order."""
    free = [h for h in hexes if h not in override]
    counts = Counter(base[h] for h in free) if free else Counter(base.values())
    default = counts.most_common(1)[0][0]
    out_regions: list[dict[str, Any]] = []
    for t in sorted(counts, key=lambda k: (-counts[k], k)):
        if t == default:
            continue
        out_regions.append(
            {
                "terrain": t,
                "name": "generated",
                "hexes": [grid.label(h) for h in free if base[h] == t],
            }
        )
    for reg, found in regions:
        entry: dict[str, Any] = {"terrain": reg.terrain}
        if reg.name:
            entry["name"] = reg.name
        entry["hexes"] = [grid.label(h) for h in found]
        out_regions.append(entry)
    return default, out_regions
