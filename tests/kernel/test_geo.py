"""The geo layout: great-circle distances, projections, hex centres, corners and round trips."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from owsnb.kernel.errors import InvalidHexError
from owsnb.kernel.geo import EARTH_RADIUS_KM, NM_KM, GeoLayout, great_circle_km
from owsnb.kernel.hexgrid import Hex

OKINAWA = (127.68, 26.21)
LONDON = (-0.1276, 51.5072)
PARIS = (2.3522, 48.8566)
TOKYO = (139.6917, 35.6895)
MANILA = (120.9842, 14.5995)

PROJECTIONS = ("aeqd", "mercator")
ORIENTATIONS = ("flat", "pointy")


# --- great circle ----------------------------------------------------------------------------


def test_known_great_circle_distances() -> None:
    assert great_circle_km(*LONDON, *PARIS) == pytest.approx(343.5, abs=1.0)
    assert great_circle_km(*TOKYO, *MANILA) == pytest.approx(2995, rel=0.01)
    assert great_circle_km(0, 0, 0, 0) == 0.0
    half = math.pi * EARTH_RADIUS_KM
    assert great_circle_km(0, 0, 180, 0) == pytest.approx(half)
    assert great_circle_km(0, 89, 180, 89) == pytest.approx(2 * math.pi / 180 * EARTH_RADIUS_KM)
    assert isinstance(great_circle_km(*LONDON, *PARIS), float)


def test_great_circle_is_vectorised() -> None:
    lons = np.array([LONDON[0], TOKYO[0]])
    lats = np.array([LONDON[1], TOKYO[1]])
    d = great_circle_km(lons, lats, PARIS[0], PARIS[1])
    assert d.shape == (2,)
    assert d[0] == pytest.approx(great_circle_km(*LONDON, *PARIS))
    assert d[1] == pytest.approx(great_circle_km(*TOKYO, *PARIS))


def test_nautical_mile() -> None:
    assert NM_KM == 1.852


# --- construction ----------------------------------------------------------------------------


def test_from_size_units() -> None:
    g = GeoLayout.from_size(200, "nm", origin=OKINAWA)
    assert g.size_km == pytest.approx(370.4)
    assert g.size_nm == pytest.approx(200.0)
    assert g.orientation == "flat" and g.projection == "aeqd" and g.origin == OKINAWA
    assert GeoLayout.from_size(10).size_km == 10.0
    pointy = GeoLayout.from_size(10, orientation="pointy", projection="simple")
    assert pointy.orientation == "pointy" and pointy.projection == "simple"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((10, "miles"), "unit must be 'km' or 'nm' (nautical miles), got 'miles'"),
        ((0,), "size must be positive, got 0"),
        ((-3, "nm"), "size must be positive, got -3"),
        (("10",), "size must be a number, got '10'"),
        ((math.inf,), "size must be finite, got inf"),
    ],
)
def test_from_size_errors(args: tuple, message: str) -> None:
    with pytest.raises(ValueError) as info:
        GeoLayout.from_size(*args)
    assert str(info.value) == message


def test_layout_validation() -> None:
    with pytest.raises(ValueError, match="orientation must be 'flat' or 'pointy'"):
        GeoLayout("square", 10.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="projection must be 'aeqd', 'mercator' or 'simple'"):
        GeoLayout("flat", 10.0, projection="utm")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size_km must be positive"):
        GeoLayout("flat", 0.0)
    with pytest.raises(ValueError, match="origin must be a"):
        GeoLayout("flat", 10.0, (1.0,))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="within \\+-90 degrees"):
        GeoLayout("flat", 10.0, (0.0, 91.0))
    with pytest.raises(ValueError, match="for 'mercator'"):
        GeoLayout("flat", 10.0, (0.0, 89.5), "mercator")


def test_dict_round_trip() -> None:
    g = GeoLayout.from_size(200, "nm", origin=OKINAWA, orientation="pointy", projection="mercator")
    d = g.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert GeoLayout.from_dict(json.loads(json.dumps(d))) == g
    assert GeoLayout.from_dict({"orientation": "flat", "size_km": 5}) == GeoLayout("flat", 5.0)
    with pytest.raises(ValueError, match=r"unknown geo layout keys \['size'\]"):
        GeoLayout.from_dict({"orientation": "flat", "size": 5})
    with pytest.raises(ValueError, match=r"missing \['size_km'\]"):
        GeoLayout.from_dict({"orientation": "flat"})


# --- planar frame ----------------------------------------------------------------------------


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_simple_projection_is_exact(orientation: str) -> None:
    g = GeoLayout(orientation, 10.0, projection="simple")  # type: ignore[arg-type]
    for h in Hex(0, 0).disc(4):
        x, y = g.hex_to_xy(h)
        assert g.centre(h) == (x, y)
        assert g.xy_to_hex(x, y) == h
        assert g.hex_at(x + 2.0, y - 2.0) == h
        for n in h.neighbours():
            assert g.distance_km(h, n) == pytest.approx(10.0, abs=1e-12)
    assert g.distance_km(Hex(0, 0), Hex(2, 0)) == pytest.approx(20.0)
    assert g.distance_nm(Hex(0, 0), Hex(1, 0)) == pytest.approx(10.0 / 1.852)


def test_simple_projection_with_offset_origin() -> None:
    g = GeoLayout("flat", 10.0, (100.0, 50.0), "simple")
    assert g.centre(Hex(0, 0)) == (100.0, 50.0)
    assert g.hex_at(100.0, 40.0) == Hex(0, 1)


def test_planar_orientation_conventions() -> None:
    flat = GeoLayout("flat", 10.0, projection="simple")
    assert flat.hex_to_xy(Hex(0, 1)) == (0.0, -10.0)  # r grows south
    x, y = flat.hex_to_xy(Hex(1, 0))  # direction 0 is south-east for flat tops
    assert x > 0 and y < 0
    pointy = GeoLayout("pointy", 10.0, projection="simple")
    assert pointy.hex_to_xy(Hex(1, 0)) == (10.0, 0.0)  # direction 0 is east for pointy tops


def test_corner_geometry_simple() -> None:
    g = GeoLayout("flat", 10.0, projection="simple")
    corners = g.corners(Hex(0, 0))
    assert len(corners) == 6
    radius = 10.0 / math.sqrt(3)
    assert all(math.hypot(x, y) == pytest.approx(radius) for x, y in corners)
    # counter-clockwise: positive shoelace area equal to the regular hexagon's
    area = 0.5 * sum(
        corners[i][0] * corners[(i + 1) % 6][1] - corners[(i + 1) % 6][0] * corners[i][1]
        for i in range(6)
    )
    assert area == pytest.approx(3 * math.sqrt(3) / 2 * radius**2)
    assert corners[0] == pytest.approx((radius, 0.0))  # flat top: a corner due east


# --- on the Earth ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("projection", "size_km"), [("aeqd", 370.4), ("aeqd", 10.0), ("mercator", 10.0)]
)
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_neighbour_centres_are_one_hex_apart(
    projection: str, orientation: str, size_km: float
) -> None:
    g = GeoLayout(orientation, size_km, OKINAWA, projection)  # type: ignore[arg-type]
    assert g.centre(Hex(0, 0)) == pytest.approx(OKINAWA, abs=1e-12)
    for h in Hex(0, 0).disc(2):
        for n in h.neighbours():
            assert g.distance_km(h, n) == pytest.approx(size_km, rel=0.01)


def test_mercator_is_true_at_the_origin_latitude_only() -> None:
    g = GeoLayout.from_size(200, "nm", origin=OKINAWA, orientation="pointy", projection="mercator")
    assert g.distance_nm(Hex(0, 0), Hex(1, 0)) == pytest.approx(200.0, rel=1e-3)  # east
    # four rows north the scale has grown with 1 / cos(latitude): hexes are smaller on the ground
    assert g.distance_nm(Hex(2, -4), Hex(3, -4)) < 190.0


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_far_from_origin_aeqd(orientation: str) -> None:
    g = GeoLayout.from_size(200, "nm", origin=OKINAWA, orientation=orientation)  # type: ignore
    # distances from the origin stay true however far: 15 hexes of 200 nm is 3000 nm
    for d in range(6):
        far = Hex(0, 0).neighbour(d) * 15
        assert g.distance_nm(Hex(0, 0), far) == pytest.approx(3000.0, rel=1e-9)
    # radial neighbour steps stay true at 15 hexes out
    for d in range(6):
        step = Hex(0, 0).neighbour(d)
        assert g.distance_nm(step * 14, step * 15) == pytest.approx(200.0, rel=1e-6)
    # sideways steps shrink with sin(c)/c (a sphere is not flat): within 2% out to 5 hexes,
    # about 9% short at 15 hexes (5,556 km)
    for radius, tolerance in ((5, 0.02), (15, 0.10)):
        for h in Hex(0, 0).ring(radius):
            for n in h.neighbours():
                assert g.distance_nm(h, n) == pytest.approx(200.0, rel=tolerance)


@pytest.mark.parametrize("projection", PROJECTIONS)
@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("size_km", [370.4, 10.0])
def test_hex_at_centre_round_trip(projection: str, orientation: str, size_km: float) -> None:
    g = GeoLayout(orientation, size_km, OKINAWA, projection)  # type: ignore[arg-type]
    hexes = Hex(0, 0).disc(6) + Hex(0, 0).ring(15)
    for h in hexes:
        assert g.hex_at(*g.centre(h)) == h
        # points just inside each corner still belong to the hex
        cx, cy = g.centre(h)
        for lon, lat in g.corners(h):
            assert g.hex_at(cx + 0.98 * (lon - cx), cy + 0.98 * (lat - cy)) == h


@pytest.mark.parametrize("projection", [*PROJECTIONS, "simple"])
@pytest.mark.parametrize(
    "origin", [OKINAWA, (0.0, 0.0), (179.5, -40.0), (-179.5, 60.0), (10.0, 80.0)]
)
def test_projection_round_trip_is_exact(projection: str, origin: tuple[float, float]) -> None:
    g = GeoLayout("flat", 370.4, origin, projection)  # type: ignore[arg-type]
    rng = np.random.default_rng(7)
    # Mercator wraps around the world after pi * R * cos(lat0) km east or west
    half_width = math.pi * EARTH_RADIUS_KM * math.cos(math.radians(origin[1]))
    span = min(4000.0, 0.99 * half_width)
    x = rng.uniform(-span, span, 500)
    y = rng.uniform(-4000, 4000, 500)
    lon, lat = g._to_lonlat(x, y)
    x2, y2 = g._to_xy(lon, lat)
    assert np.abs(x2 - x).max() < 1e-6 and np.abs(y2 - y).max() < 1e-6
    lon2, lat2 = g._to_lonlat(x2, y2)
    assert np.abs(lon2 - lon).max() < 1e-9 and np.abs(lat2 - lat).max() < 1e-9


def test_longitudes_stay_continuous_across_the_antimeridian() -> None:
    g = GeoLayout.from_size(200, "nm", origin=(179.0, 0.0))
    lon, _ = g.centre(Hex(3, 0))
    assert lon > 180.0
    assert g.hex_at(lon, g.centre(Hex(3, 0))[1]) == Hex(3, 0)
    assert g.hex_at(lon - 360.0, g.centre(Hex(3, 0))[1]) == Hex(3, 0)


@pytest.mark.parametrize("projection", [*PROJECTIONS, "simple"])
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_neighbour_polygons_share_an_edge_exactly(projection: str, orientation: str) -> None:
    g = GeoLayout.from_size(
        200,
        "nm",
        origin=OKINAWA,
        orientation=orientation,
        projection=projection,  # type: ignore
    )
    hexes = Hex(0, 0).disc(4)
    polys = g.polygons(hexes)
    assert polys.shape == (len(hexes), 6, 2)
    index = {h: i for i, h in enumerate(hexes)}
    for h in hexes:
        mine = {tuple(p) for p in polys[index[h]]}
        assert len(mine) == 6
        assert [tuple(p) for p in polys[index[h]]] == g.corners(h)
        for n in h.neighbours():
            if n in index:
                assert len(mine & {tuple(p) for p in polys[index[n]]}) == 2
            shared = set(g.corners(h)) & set(g.corners(n))
            assert len(shared) == 2


def test_centres_and_bounds_vectorised() -> None:
    g = GeoLayout.from_size(10, origin=OKINAWA)
    hexes = Hex(0, 0).disc(3)
    centres = g.centres(hexes)
    assert centres.shape == (len(hexes), 2)
    for h, c in zip(hexes, centres, strict=True):
        assert tuple(c) == g.centre(h)
    assert g.centres([]).shape == (0, 2)
    assert g.polygons([]).shape == (0, 6, 2)
    min_lon, min_lat, max_lon, max_lat = g.bounds(hexes)
    assert min_lon < centres[:, 0].min() and max_lon > centres[:, 0].max()
    assert min_lat < centres[:, 1].min() and max_lat > centres[:, 1].max()
    with pytest.raises(ValueError, match="needs at least one hex"):
        g.bounds([])


def test_bad_hexes_and_points() -> None:
    g = GeoLayout.from_size(10, origin=OKINAWA)
    with pytest.raises(InvalidHexError, match="expected a Hex, got"):
        g.centre((1, 2))  # type: ignore[arg-type]
    with pytest.raises(InvalidHexError, match="not finite"):
        g.hex_at(math.nan, 10.0)
