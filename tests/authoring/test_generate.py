"""Terrain generation from real geography (owsnb.authoring.generate), coast layer, CLI, preview.

Classification is checked against known places on a 200 nm and a 10 km grid, through the real
scenario loader (the map as a game would see it), with the real land mask.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from owsnb.authoring.coast import (
    background_geojson,
    borders_geojson,
    coastline_geojson,
    geojson_size,
)
from owsnb.authoring.generate import (
    SEA,
    dump_yaml,
    fit_grid,
    land_fractions,
    new_scenario,
    parse_hex_size,
    scenario_from_recipe,
    write_scenario,
)
from owsnb.kernel.errors import ScenarioError
from owsnb.kernel.geo import great_circle_km
from owsnb.scenario import build_state, load_scenario

ROOT = Path(__file__).resolve().parents[2]
WP_BOX = (108.0, 8.0, 148.0, 38.0)
OKINAWA_BOX = (127.5, 26.0, 128.4, 26.95)
KADENA = {"type": "airfield", "name": "Kadena", "at": [127.77, 26.36], "capacity": 5}


def game_map(scn: dict):
    """The map of a generated scenario as the loader builds it (test rule set)."""
    state, _ = build_state(load_scenario({**scn, "ruleset": "skirmish"}), seed=1)
    return state.map


def terrain_at(m, lon: float, lat: float) -> str:
    h = m.layout.hex_at(lon, lat)
    assert h in m.hexes, f"({lon}, {lat}) is not on the map"
    return m.terrain(h)


@pytest.fixture(scope="module")
def wp200() -> dict:
    return new_scenario("wp", "WP", ruleset="skirmish", bbox=WP_BOX, hex_size="200nm")


@pytest.fixture(scope="module")
def okinawa10() -> dict:
    return new_scenario("oki", "Okinawa", ruleset="skirmish", bbox=OKINAWA_BOX, hex_size="10km")


# -- classification against known places ---------------------------------------------------------
def test_200nm_open_ocean_is_deep_sea_and_mainland_is_land(wp200: dict) -> None:
    m = game_map(wp200)
    assert terrain_at(m, 132.0, 20.0) == "deep-sea"  # Philippine Sea
    assert terrain_at(m, 140.0, 15.0) == "deep-sea"  # west of the Marianas
    assert terrain_at(m, 112.0, 30.0) == "clear"  # Hubei, central China


def test_200nm_okinawa_is_littoral_unless_its_airfield_makes_it_land(wp200: dict) -> None:
    # Okinawa is far less than half of a 370 km hex: by the mask alone its hex is sea next to land
    assert terrain_at(game_map(wp200), 127.8, 26.33) == "littoral"
    with_kadena = new_scenario(
        "wp", "WP", ruleset="skirmish", bbox=WP_BOX, hex_size="200nm", features=[KADENA]
    )
    m = game_map(with_kadena)
    h = m.layout.hex_at(127.8, 26.33)
    assert m.terrain(h) == "clear"
    assert m.info(h).features["airfield"]["name"] == "Kadena"
    # and the hexes around it are littoral, never deep sea
    assert all(m.terrain(n) != "deep-sea" for n in h.neighbours() if n in m.hexes)


def test_10km_okinawa_land_littoral_and_deep_sea(okinawa10: dict) -> None:
    m = game_map(okinawa10)
    assert terrain_at(m, 127.80, 26.33) == "clear"  # Okinawa City
    assert terrain_at(m, 128.35, 26.10) == "deep-sea"  # Pacific, 40 km off the east coast
    coast = [h for h in m.hexes if m.terrain(h) == "littoral"]
    assert coast
    # a sea hex next to land is littoral
    for h in m.hexes:
        if m.terrain(h) in SEA and any(
            m.terrain(n) not in SEA for n in h.neighbours() if n in m.hexes
        ):
            assert m.terrain(h) == "littoral"


@pytest.mark.parametrize("which", ["wp200", "okinawa10"])
def test_classification_follows_the_documented_rule(
    which: str, request: pytest.FixtureRequest
) -> None:
    scn = request.getfixturevalue(which)
    m = game_map(scn)
    meta = scn["map"]["meta"]["terrain_source"]
    grid = fit_grid(
        scn["map"]["meta"]["bbox"], f"{scn['map']['layout']['size']}{scn['map']['layout']['unit']}"
    )
    assert set(grid.hexes) == set(m.hexes)
    frac = dict(zip(grid.hexes, land_fractions(grid), strict=True))
    land = {h for h in m.hexes if m.terrain(h) not in SEA}
    for h in m.hexes:
        t = m.terrain(h)
        if h in land:
            assert frac[h] >= meta["land_threshold"] or m.info(h).features, (grid.label(h), frac[h])
        else:
            assert frac[h] < meta["land_threshold"]
            near = frac[h] > 0 or any(n in land for n in h.neighbours())
            assert t == ("littoral" if near else "deep-sea"), (grid.label(h), frac[h], t)
    assert meta["samples_per_hex"] == 61


def test_lower_threshold_makes_more_land(wp200: dict) -> None:
    lower = new_scenario(
        "wp", "WP", ruleset="skirmish", bbox=WP_BOX, hex_size="200nm", land_threshold=0.3
    )
    land = lambda scn: {h for h, i in game_map(scn).hexes.items() if i.terrain not in SEA}  # noqa: E731
    a, b = land(wp200), land(lower)
    assert a < b  # a strict superset: Luzon, Kyushu...
    assert terrain_at(game_map(lower), 121.2, 16.5) == "clear"  # northern Luzon


def test_generation_is_deterministic() -> None:
    kw = dict(
        ruleset="skirmish",
        bbox=OKINAWA_BOX,
        hex_size=10,
        features=[KADENA],
        terrain=[{"terrain": "urban", "name": "Naha", "at": [127.68, 26.21]}],
    )
    a, b = new_scenario("o", "O", **kw), new_scenario("o", "O", **kw)
    assert a == b
    assert dump_yaml(a) == dump_yaml(b)


# -- the grid ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("box", "size", "unit_km"),
    [
        (WP_BOX, "200nm", 370.4),
        (OKINAWA_BOX, "10km", 10.0),
        ((20.0, 53.0, 26.0, 56.0), "20km", 20.0),
    ],
)
def test_grid_covers_the_box_labels_from_0101_and_keeps_hex_size(box, size, unit_km) -> None:
    g = fit_grid(box, size)
    x0, y0, x1, y1 = box
    t = np.linspace(0, 1, 50)
    edge = [(x0 + (x1 - x0) * s, y) for s in t for y in (y0, y1)] + [
        (x, y0 + (y1 - y0) * s) for s in t for x in (x0, x1)
    ]
    assert all(g.hex_at(lon, lat) is not None for lon, lat in edge)
    assert len(g.hexes) == g.cols * g.rows and g.label(g.hexes[0]) == "0101"
    # the smallest such rectangle: the first and last column and row each hold a hex touching the box
    inside = [
        h
        for h in g.hexes
        if x0 <= g.layout.centre(h)[0] <= x1 and y0 <= g.layout.centre(h)[1] <= y1
    ]
    edge_hexes = {g.hex_at(lon, lat) for lon, lat in edge} | set(inside)
    offsets = [g.offset.to_offset(h) for h in edge_hexes]
    assert {c for c, _ in offsets} >= {1, g.cols} and {r for _, r in offsets} >= {1, g.rows}
    # projected about the box's middle, which is the anchor hex's centre
    assert g.layout.origin == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))
    assert g.label(g.layout.hex_at(*g.layout.origin)) == g.anchor
    # neighbour centres are one hex apart, even in the far corner (within 3 %)
    corner = g.layout.hex_at(x1, y0)
    for n in corner.neighbours():
        (a, b), (c, d) = g.layout.centre(corner), g.layout.centre(n)
        assert great_circle_km(a, b, c, d) == pytest.approx(unit_km, rel=0.03)


def test_parse_hex_size_and_bad_boxes() -> None:
    assert parse_hex_size("100 NM") == (100.0, "nm")
    assert parse_hex_size("20km") == (20.0, "km")
    assert parse_hex_size(10, "nm") == (10.0, "nm")
    with pytest.raises(ValueError, match="says km but unit='nm'"):
        parse_hex_size("20km", "nm")
    with pytest.raises(ValueError, match="positive"):
        parse_hex_size("0km")
    with pytest.raises(ValueError, match="min_lon < max_lon"):
        fit_grid((10, 5, 0, 6), 10)
    with pytest.raises(ValueError, match="orientation"):
        fit_grid((0, 0, 1, 1), 10, orientation="round")


# -- overrides -----------------------------------------------------------------------------------
def all_land(lon, lat):
    return np.ones(np.shape(lon), dtype=bool)


def test_overrides_by_region_label_and_lonlat() -> None:
    scn = new_scenario(
        "t",
        "T",
        ruleset="skirmish",
        bbox=(6.0, 51.0, 7.0, 51.6),
        hex_size=10,
        is_land=all_land,
        terrain=[
            {
                "terrain": "forest",
                "name": "Reichswald",
                "polygon": [[6.0, 51.6], [6.4, 51.6], [6.4, 51.3], [6.0, 51.3]],
            },
            {"terrain": "hills", "around": [[6.8, 51.2], 1]},
            {"terrain": "urban", "name": "Wesel", "at": [6.62, 51.66 - 0.1]},
            {"terrain": "marsh", "hexes": ["0505"]},
        ],
        features=[{"type": "city", "name": "Wesel", "at": [6.62, 51.56]}],
    )
    m = game_map(scn)
    assert terrain_at(m, 6.2, 51.45) == "forest"
    assert (
        terrain_at(m, 6.8, 51.2) == "hills"
        and len([h for h in m.hexes if m.terrain(h) == "hills"]) == 7
    )
    assert terrain_at(m, 6.62, 51.56) == "urban"
    assert m.terrain(m.hex("0505")) == "marsh"
    assert {r.get("name") for r in scn["map"]["terrain"]["regions"]} >= {"Reichswald", "Wesel"}


def test_only_land_keeps_sea_hexes_out_of_a_land_region(okinawa10: dict) -> None:
    scn = new_scenario(
        "oki",
        "O",
        ruleset="skirmish",
        bbox=OKINAWA_BOX,
        hex_size=10,
        terrain=[{"terrain": "forest", "only": "land", "bbox": list(OKINAWA_BOX)}],
    )
    m = game_map(scn)
    assert {m.terrain(h) for h in m.hexes} == {"forest", "littoral", "deep-sea"}
    assert len([h for h in m.hexes if m.terrain(h) == "forest"]) == len(
        [h for h in game_map(okinawa10).hexes.values() if h.terrain == "clear"]
    )


def test_recipe_problems_are_all_reported_and_located() -> None:
    with pytest.raises(ScenarioError) as info:
        new_scenario(
            "t",
            "T",
            ruleset="skirmish",
            bbox=(6.0, 51.0, 7.0, 51.6),
            hex_size=10,
            is_land=all_land,
            source="my-recipe.yaml",
            terrain=[
                {"terrain": "forest", "only": "sea", "bbox": [6.0, 51.0, 7.0, 51.6]},
                {"terrain": "hills", "hexes": ["99x9"]},
            ],
            features=[
                {"type": "port", "at": [3.0, 51.0]},
                {"type": "city", "name": "A", "at": [6.5, 51.3]},
                {"type": "city", "name": "B", "at": [6.5, 51.3]},
            ],
            edges=[{"type": "road", "hexes": ["0505", "0507"]}],
        )
    got = {(p.file, p.path) for p in info.value.problems}
    assert got == {
        ("my-recipe.yaml", "map.terrain[0]"),
        ("my-recipe.yaml", "map.terrain[1].hexes[0]"),
        ("my-recipe.yaml", "map.features[0].at"),
        ("my-recipe.yaml", "map.features[2].at"),
        ("my-recipe.yaml", "map.edges[0].hexes[1]"),
    }
    text = str(info.value)
    assert "matches no hex that is sea" in text and "'99x9' is not a hex label" in text
    assert "[3.0, 51.0] is off the map" in text and "already has a city ('A', features[1])" in text
    assert "0505 and 0507 are not adjacent" in text


def test_recipe_schema_errors_name_the_key(tmp_path: Path) -> None:
    recipe = {
        "id": "x",
        "title": "X",
        "map": {
            "bbox": [0, 0, 1, 1],
            "hex": "10km",
            "colour": "green",
            "terrain": [{"terrain": "forest"}],
            "edges": [{"type": "road"}],
        },
    }
    with pytest.raises(ScenarioError) as info:
        scenario_from_recipe(recipe, is_land=all_land)
    paths = {p.path for p in info.value.problems}
    assert paths == {"map.colour", "map.terrain[0]", "map.edges[0]"}
    assert "unknown key" in str(
        info.value
    ) and "needs hexes, rect, bbox, around, at or polygon" in str(info.value)
    # YAML 1.1 reads a bare "on:" key as true: the recipe key is "only", and a stray "on" is caught
    path = tmp_path / "r.yaml"
    path.write_text(
        "id: x\ntitle: X\nmap:\n  bbox: [0, 0, 1, 1]\n  hex: 10km\n  terrain:\n    - "
        "{terrain: forest, on: land, at: [0.5, 0.5]}\n"
    )
    with pytest.raises(ScenarioError, match=r"r.yaml: map.terrain\[0\]"):
        scenario_from_recipe(path, is_land=all_land)


def _shared_corner(m, a, b, c, d) -> bool:
    """Do hexside a|b and hexside c|d share a corner?"""

    def corners(h):
        return {tuple(p) for p in m.layout.polygons([h])[0].round(9).tolist()}

    return bool((corners(a) & corners(b)) & (corners(c) & corners(d)))


def test_rivers_run_along_hexsides_and_roads_through_hexes() -> None:
    line = [[6.05, 51.05], [6.5, 51.3], [6.95, 51.25]]
    scn = new_scenario(
        "t",
        "T",
        ruleset="skirmish",
        bbox=(6.0, 51.0, 7.0, 51.6),
        hex_size=10,
        is_land=all_land,
        edges=[
            {"type": "river", "name": "Lippe", "line": line},
            {"type": "road", "name": "B58", "line": line},
            {"type": "rail", "trace": "hexsides", "line": line},
        ],
    )
    m = game_map(scn)
    river, road, rail = scn["map"]["edges"]
    assert river["type"] == "river" and river["name"] == "Lippe" and rail["type"] == "rail"
    chain = [m.hex(x) for x in river["hexes"]]
    assert all(a.distance(b) == 1 for a, b in zip(chain, chain[1:], strict=False))
    sides = [(a, b) for a, b in zip(chain, chain[1:], strict=False) if a != b]
    for (a, b), (c, d) in zip(sides, sides[1:], strict=False):
        assert (a, b) == (d, c) or _shared_corner(m, a, b, c, d)  # one continuous line of hexsides
    # every river hexside lies within a hex of the line, and both ends are near its ends
    for a, b in sides:
        mid = np.mean([m.layout.centre(a), m.layout.centre(b)], axis=0)
        d = min(
            great_circle_km(mid[0], mid[1], x, y)
            for x, y in np.linspace(line[0], line[1], 40).tolist()
            + np.linspace(line[1], line[2], 40).tolist()
        )
        assert d < 10.0
    assert m.edge(chain[0], chain[1])["river"]["name"] == "Lippe"
    # the road passes through the hexes of its waypoints, one neighbour at a time
    road_hexes = [m.hex(x) for x in road["hexes"]]
    assert all(a.distance(b) == 1 for a, b in zip(road_hexes, road_hexes[1:], strict=False))
    for lon, lat in line:
        assert m.layout.hex_at(lon, lat) in road_hexes
    assert rail["hexes"] == river["hexes"]  # trace: hexsides follows the same corners


def test_an_edge_leaving_the_map_is_split_and_one_outside_is_refused() -> None:
    scn = new_scenario(
        "t",
        "T",
        ruleset="skirmish",
        bbox=(6.0, 51.0, 7.0, 51.6),
        hex_size=10,
        is_land=all_land,
        edges=[{"type": "road", "line": [[6.1, 51.3], [8.0, 51.3], [8.0, 51.5], [6.1, 51.5]]}],
    )
    roads = scn["map"]["edges"]
    assert len(roads) == 2 and all(len(r["hexes"]) >= 2 for r in roads)
    game_map(scn)  # both pieces load
    with pytest.raises(
        ScenarioError, match=r"map.edges\[0\].line: road 'nowhere' does not cross the map"
    ):
        new_scenario(
            "t",
            "T",
            ruleset="skirmish",
            bbox=(6.0, 51.0, 7.0, 51.6),
            hex_size=10,
            is_land=all_land,
            edges=[{"type": "road", "name": "nowhere", "line": [[9.0, 51.3], [9.5, 51.3]]}],
        )


# -- writing, loading, CLI -----------------------------------------------------------------------
def test_write_then_load_gives_the_same_map(tmp_path: Path, okinawa10: dict) -> None:
    scn = {
        **okinawa10,
        "map": {**okinawa10["map"], "features": [{"hex": "0505", "type": "city", "name": "X"}]},
    }
    path = write_scenario(scn, tmp_path / "oki.yaml")
    text = path.read_text()
    assert 'hex: "0505"' in text and f'anchor: "{scn["map"]["layout"]["anchor"]}"' in text
    assert not re.search(
        r"'\d{4}'", text
    )  # labels always double-quoted, never bare or single-quoted
    data = yaml.safe_load(text)
    assert data["map"]["meta"]["coast"] == "maps/oki-coast.geojson"
    assert (data["map"]["cols"], data["map"]["rows"]) == (
        okinawa10["map"]["cols"],
        okinawa10["map"]["rows"],
    )
    fc = json.loads((tmp_path / "maps" / "oki-coast.geojson").read_text())
    assert [f["properties"]["kind"] for f in fc["features"]] == ["coast", "border"]
    assert fc["features"][0]["geometry"]["coordinates"]  # Okinawa has a coast
    loaded = build_state(load_scenario({**data, "ruleset": "skirmish"}), seed=1)[0].map
    direct = game_map(scn)
    assert {h: i.terrain for h, i in loaded.hexes.items()} == {
        h: i.terrain for h, i in direct.hexes.items()
    }


def test_update_keeps_everything_but_the_map(tmp_path: Path, okinawa10: dict) -> None:
    path = write_scenario(okinawa10, tmp_path / "oki.yaml", background=False)
    data = yaml.safe_load(path.read_text())
    data["units"] = [{"id": "B-1", "type": "infantry", "side": "blue", "hex": "0505"}]
    data["briefing"] = "Hold the island."
    path.write_text(yaml.safe_dump(data))
    bigger = new_scenario(
        "oki", "Okinawa", ruleset="skirmish", bbox=(127.4, 26.0, 128.4, 27.0), hex_size="10km"
    )
    write_scenario(bigger, path, background=False, keep_existing=True)
    after = yaml.safe_load(path.read_text())
    assert after["units"] == data["units"] and after["briefing"] == "Hold the island."
    assert (
        after["map"] == {**bigger["map"], "meta": after["map"]["meta"]}
        and after["map"] != okinawa10["map"]
    )
    assert after["map"]["cols"] > okinawa10["map"]["cols"]
    assert "coast" not in after["map"]["meta"]


def test_cli_new_update_force_and_preview(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from owsnb.authoring.cli import main

    out = tmp_path / "oki.yaml"
    argv = [
        "scenario",
        "new",
        "oki",
        "--bbox",
        "127.5,26.0,128.4,26.95",
        "--hex",
        "10km",
        "--ruleset",
        "skirmish",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert (
        f"wrote {out}: {len(okinawa_hexes(out))} hexes" in said
        and "KB of coastline and borders" in said
    )
    assert main(argv) == 2 and "exists; use --update" in capsys.readouterr().err
    assert main([*argv, "--force", "--hex", "20km"]) == 0
    assert len(okinawa_hexes(out)) < 60
    assert main(["scenario", "new", "x", "--hex", "10km", "--out", str(tmp_path / "x.yaml")]) == 2
    assert "give --bbox" in capsys.readouterr().err
    assert main(["scenario", "preview", str(out), "--out", str(tmp_path / "oki.svg")]) == 0
    assert (tmp_path / "oki.svg").read_text().startswith("<svg")


def okinawa_hexes(path: Path) -> list[str]:
    m = yaml.safe_load(path.read_text())["map"]
    return [f"{c:02d}{r:02d}" for c in range(1, m["cols"] + 1) for r in range(1, m["rows"] + 1)]


def test_loading_scenarios_never_imports_the_land_mask() -> None:
    code = (
        "import sys, owsnb.authoring.generate, owsnb.authoring.coast, owsnb.authoring.preview\n"
        "from owsnb.scenario import load_scenario\n"
        "from owsnb.authoring.preview import map_picture\n"
        "for name in ('tutorial', 'western-pacific', 'baltic-ground', 'sandbox'):\n"
        "    load_scenario(name); map_picture(name)\n"
        "print('global_land_mask' in sys.modules)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"


# -- coast and borders ---------------------------------------------------------------------------
def test_coastline_is_clipped_to_the_box_and_small_enough_for_a_browser() -> None:
    fc = coastline_geojson(WP_BOX, simplify_km=2)
    lines = fc["features"][0]["geometry"]["coordinates"]
    pts = np.array([p for line in lines for p in line])
    assert len(lines) > 50
    assert pts[:, 0].min() >= WP_BOX[0] and pts[:, 0].max() <= WP_BOX[2]
    assert pts[:, 1].min() >= WP_BOX[1] and pts[:, 1].max() <= WP_BOX[3]
    assert geojson_size(background_geojson(WP_BOX, simplify_km=2, precision=3)) < 200_000
    # thinning keeps fewer points, and none of them strays from the full-detail line by much
    full = coastline_geojson(WP_BOX)
    n_full = sum(len(x) for x in full["features"][0]["geometry"]["coordinates"])
    assert len(pts) < n_full / 3


def test_okinawa_coast_surrounds_land_and_borders_lie_between_countries() -> None:
    lines = coastline_geojson(OKINAWA_BOX)["features"][0]["geometry"]["coordinates"]
    pts = np.array([p for line in lines for p in line])
    assert (
        127.6 < pts[:, 0].min() < 127.7 and 128.2 < pts[:, 0].max() < 128.4
    )  # Okinawa's west and east tips
    assert (
        coastline_geojson((160.0, 30.0, 165.0, 35.0))["features"][0]["geometry"]["coordinates"]
        == []
    )  # open ocean
    marcus = coastline_geojson((153.9, 24.2, 154.1, 24.4))["features"][0]["geometry"]["coordinates"]
    assert marcus and all(
        ring[0] == ring[-1] for ring in marcus
    )  # Minami-Torishima: small closed rings
    assert (
        borders_geojson(OKINAWA_BOX)["features"][0]["geometry"]["coordinates"] == []
    )  # no land border
    suwalki = borders_geojson((22.0, 53.8, 24.0, 54.6))["features"][0]["geometry"]["coordinates"]
    assert len(suwalki) >= 2  # Poland-Lithuania, Lithuania-Russia, Poland-Russia...


def test_boxes_across_the_antimeridian_keep_their_longitudes() -> None:
    fc = coastline_geojson((176.0, -19.5, 182.0, -15.5), simplify_km=1)  # Fiji
    pts = np.array([p for line in fc["features"][0]["geometry"]["coordinates"] for p in line])
    assert pts[:, 0].max() > 180.0 and pts[:, 0].min() >= 176.0
    with pytest.raises(ValueError, match="not a lon/lat box"):
        coastline_geojson((0, -100, 10, 0))
