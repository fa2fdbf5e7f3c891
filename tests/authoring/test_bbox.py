"""One bounding-box check for the grid and the coastlines (issue 17: they allowed +-90/360 and
+-85/180)."""

from __future__ import annotations

import pytest

from owsnb.authoring.coast import coastline_geojson
from owsnb.authoring.grid_fit import fit_grid


@pytest.mark.parametrize(
    "bbox",
    [(0, 86, 10, 88), (0, -89, 10, -86), (-170, 10, 100, 20), (-200, 10, -190, 20)],
    ids=["north-of-85", "south-of-85", "wider-than-180", "west-of-180"],
)
def test_a_box_the_grid_refuses_the_coastlines_refuse_too(bbox):
    with pytest.raises(ValueError, match="not a lon/lat box on the map") as grid:
        fit_grid(bbox, 10.0)
    with pytest.raises(ValueError, match="not a lon/lat box on the map") as coast:
        coastline_geojson(bbox)
    assert str(grid.value) == str(coast.value)


def test_a_box_across_the_antimeridian_is_good_for_both():
    grid = fit_grid((176.0, -19.5, 182.0, -15.5), 50.0)
    assert grid is not None
    assert coastline_geojson((176.0, -19.5, 182.0, -15.5), simplify_km=1)["features"]
