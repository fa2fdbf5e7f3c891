"""The bundled scenario maps: they load, they are what their recipes generate, and real places
sit where they should (ports, airfields, islands, open sea, rivers)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

import owsnb
from owsnb.authoring.generate import SEA, scenario_from_recipe
from owsnb.authoring.preview import map_picture
from owsnb.kernel.registry import ruleset_names
from owsnb.scenario import build_state, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
BUNDLED = ["tutorial", "western-pacific", "baltic-ground", "sandbox"]


def read(name: str) -> dict:
    return yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))


def skirmish_map(name: str):
    """The scenario's map built by the loader under the test rule set (units stripped)."""
    data = {
        **read(name),
        "ruleset": "skirmish",
        "units": [],
        "catalogs": [],
        "options": {},
        "rules": {},
        "tables": {},
    }
    return build_state(load_scenario(data, base=SCENARIOS), seed=1)[0].map


@pytest.fixture(scope="module")
def maps() -> dict:
    return {name: skirmish_map(name) for name in BUNDLED}


def at(m, lon: float, lat: float):
    h = m.layout.hex_at(lon, lat)
    assert h in m.hexes, f"({lon}, {lat}) is not on the map"
    return h


@pytest.mark.parametrize("name", BUNDLED)
def test_committed_map_is_what_its_recipe_generates(name: str) -> None:
    generated = scenario_from_recipe(SCENARIOS / "maps" / f"{name}.recipe.yaml")["map"]
    committed = read(name)["map"]
    committed["meta"] = {k: v for k, v in committed["meta"].items() if k != "coast"}
    assert json.loads(json.dumps(generated)) == committed


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_map_loads_with_its_background_layer(name: str, maps: dict) -> None:
    data = read(name)
    m = maps[name]
    assert len(m.hexes) == data["map"]["cols"] * data["map"]["rows"]
    assert data["briefing"].strip()
    assert set(data["sides"]) == {"blue", "red"}
    kinds = {i.terrain for i in m.hexes.values()}
    assert {"littoral", "clear"} <= kinds
    coast = SCENARIOS / data["map"]["meta"]["coast"]
    assert coast.is_file() and coast.stat().st_size < 200_000
    fc = json.loads(coast.read_text())
    assert fc["bbox"] == data["map"]["meta"]["extent"]
    assert fc["features"][0]["geometry"]["coordinates"]  # every bundled map has a coast
    pic = map_picture(load_scenario(name))
    assert sum(pic.counts.values()) == len(m.hexes) and "<path" in pic.svg  # the coast is drawn


@pytest.mark.skipif("ows" not in ruleset_names(), reason="the OWS rule set is not installed")
@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_loads_under_ows(name: str) -> None:
    t0 = time.perf_counter()
    game = owsnb.load(name, seed=3, save=False)
    assert time.perf_counter() - t0 < 10
    assert game.state.ruleset == "ows" and len(game.state.map.hexes) == len(
        skirmish_map(name).hexes
    )


def test_tutorial_is_a_small_littoral_map_with_a_port_and_airfield_a_side(maps: dict) -> None:
    m = maps["tutorial"]
    assert 200 <= len(m.hexes) <= 400 and m.km_per_hex() == pytest.approx(20.0)
    feats = [(t, f.get("owner")) for i in m.hexes.values() for t, f in i.features.items()]
    for side in ("blue", "red"):
        assert ("port", side) in feats and ("airfield", side) in feats
    assert m.terrain(at(m, 119.2, 24.0)) == "deep-sea"  # the middle of the strait
    magong = at(m, 119.57, 23.565)
    assert m.terrain(magong) not in SEA and "port" in m.info(magong).features  # Penghu
    assert any(m.terrain(n) == "littoral" for n in magong.neighbours())  # an island: sea around it
    assert m.terrain(at(m, 121.0, 23.5)) == "mountain"  # Central Mountain Range
    assert m.terrain(at(m, 120.67, 24.15)) == "urban"  # Taichung
    rivers = {f["name"] for f in m.edges.values() for t, f in f.items() if t == "river"}
    assert {"Zhuoshui", "Dadu", "Jiulong", "Jin"} <= rivers


def test_western_pacific_spans_japan_to_the_philippines_and_guam(maps: dict) -> None:
    m = maps["western-pacific"]
    assert m.km_per_hex() == pytest.approx(370.4)
    for place, lon, lat in [
        ("Yokota", 139.35, 35.75),
        ("Kadena", 127.77, 26.36),
        ("Clark", 120.56, 15.19),
        ("Andersen", 144.93, 13.58),
    ]:
        h = at(m, lon, lat)
        assert m.terrain(h) not in SEA and m.info(h).features["airfield"]["name"] == place
    assert m.terrain(at(m, 132.0, 20.0)) == "deep-sea"  # Philippine Sea
    assert m.terrain(at(m, 121.2, 16.5)) == "clear"  # northern Luzon (land threshold 0.3)
    woody = at(m, 112.34, 16.83)  # a reef airstrip leaves its sea hex at sea
    assert m.terrain(woody) in SEA and "airstrip" in m.info(woody).features


def test_baltic_ground_has_rivers_roads_rail_cities_forests_and_zones(maps: dict) -> None:
    m = maps["baltic-ground"]
    assert m.km_per_hex() == pytest.approx(20.0) and m.meta["zone_km"] == 100
    for lon, lat in [(25.28, 54.69), (23.90, 54.90), (20.51, 54.71), (23.83, 53.68)]:
        assert m.terrain(at(m, lon, lat)) == "urban"  # Vilnius, Kaunas, Kaliningrad, Grodno
    assert m.terrain(at(m, 23.3, 53.9)) == "forest"  # Augustow Forest
    assert m.terrain(at(m, 22.7, 54.2)) == "hills"  # Suwalki hills
    assert m.terrain(at(m, 21.2, 55.3)) == "littoral"  # Curonian Lagoon
    assert m.terrain(at(m, 19.8, 55.8)) == "deep-sea"  # Baltic Sea
    types: dict[str, set] = {}
    for facts in m.edges.values():
        for t, f in facts.items():
            types.setdefault(t, set()).add(f.get("name"))
    assert (
        "Neman (Nemunas)" in types["major-river"]
        and {"Neris", "Narew", "Biebrza", "Pregolya"} <= types["river"]
    )
    assert "Via Baltica (E67)" in types["road"] and len(types["rail"]) >= 5
    # the Neman runs along hexsides for about 500 km: some 30 hexsides of 20 km at least
    neman = [(a, b) for (a, b), f in m.edges.items() if "major-river" in f]
    assert len(neman) >= 25 and all(a.distance(b) == 1 for a, b in neman)


def test_sandbox_is_an_empty_template() -> None:
    data = read("sandbox")
    assert data["units"] == []
    assert data["map"]["layout"]["size"] == 100 and data["map"]["layout"]["unit"] == "nm"
