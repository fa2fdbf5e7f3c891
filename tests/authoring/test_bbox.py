"""One bounding-box check for the grid and the coastlines (issue 17: they allowed +-90/360 and
+-85/180); a grid keeps one limit of its own (one projection: half the world)."""

from __future__ import annotations

import pytest

from owsnb.authoring.coast import coastline_geojson
from owsnb.authoring.grid_fit import fit_grid


@pytest.mark.parametrize(
    "bbox",
    [(0, 86, 10, 88), (0, -89, 10, -86), (-200, 10, -190, 20), (-180, 0, 190, 10)],
    ids=["north-of-85", "south-of-85", "west-of-180", "wider-than-the-world"],
)
def test_a_box_the_grid_refuses_the_coastlines_refuse_too(bbox):
    with pytest.raises(ValueError, match="not a lon/lat box on the map") as grid:
        fit_grid(bbox, 10.0)
    with pytest.raises(ValueError, match="not a lon/lat box on the map") as coast:
        coastline_geojson(bbox)
    assert str(grid.value) == str(coast.value)


def test_a_grid_spans_at_most_half_the_world_the_coastlines_all_of_it():
    with pytest.raises(ValueError, match="a map grid spans at most 180 degrees"):
        fit_grid((-170, 10, 100, 20), 10.0)
    assert coastline_geojson((-180, -80, 180, 84), simplify_km=200, precision=1)["features"]


def test_a_box_across_the_antimeridian_is_good_for_both():
    assert fit_grid((176.0, -19.5, 182.0, -15.5), 50.0) is not None
    assert coastline_geojson((176.0, -19.5, 182.0, -15.5), simplify_km=1)["features"]
