"""The scenario being edited (owsnb.authoring.document): edits, undo/redo, checks by the game's own
loader, problems located on the map, YAML that the loader reads unchanged and that diffs cleanly,
and the editor declaration of every rule set."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

import owsnb
from owsnb.authoring.document import EditError, ScenarioDocument, catalog_files, new_document
from owsnb.authoring.yaml_writer import dump_scenario
from owsnb.kernel.registry import get_ruleset
from owsnb.scenario import build_state, load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
RULESETS = ["ows", "opart", "combatops", "tocs", "opscale"]
BUNDLED = sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


def tutorial(tmp_path: Path) -> ScenarioDocument:
    return ScenarioDocument("tutorial", path=tmp_path / "tutorial.yaml")


# -- the declaration ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", RULESETS)
def test_every_rule_set_declares_what_its_editor_needs(name: str) -> None:
    rs = get_ruleset(name)
    spec = rs.editor
    assert spec is not None, f"{name} declares no editor"
    tables = rs.default_tables()
    cats = catalog_files(name)
    assert cats, f"no {name} catalog in scenarios/catalogs matches {dict(spec.catalogs)}"
    schema = spec.payload_schema()
    assert schema["properties"]
    for cat in cats:
        for key, t in cat.types.items():
            assert spec.faction(key, t), f"{key} has no faction"
            # the form has a field for every value a catalog gives (a scenario adds the rest,
            # e.g. an opart stand's formation: the form shows it as required)
            closed = schema.get("additionalProperties", True) is False
            assert not closed or set(t.get("data") or {}) <= set(schema["properties"]), key
    terrains = list(spec.terrains(tables))
    assert terrains and len(set(terrains)) == len(terrains)
    assert set(spec.tables) <= set(tables), set(spec.tables) - set(tables)
    assert len({f.type for f in spec.features}) == len(spec.features)
    for box in spec.boxes:
        assert box.doc and box.rule, box
        if box.link:
            assert box.host == "id" or box.host, box
    # every terrain, feature and edge the bundled scenarios of this rule set use is declared
    for path in SCENARIOS.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        if data["ruleset"] != name:
            continue
        state, _ = build_state(load_scenario(path), 1)
        used = {info.terrain for info in state.map.hexes.values()}
        assert used <= set(terrains), (path.name, used - set(terrains))
        types = {k for info in state.map.hexes.values() for k in info.features}
        assert types <= {f.type for f in spec.features}, (path.name, types)
        edges = {k for facts in state.map.edges.values() for k in facts}
        assert edges <= set(spec.edges), (path.name, edges - set(spec.edges))
        boxes = {u.box for u in state.units.values() if u.box}
        assert boxes <= {b.name for b in spec.boxes}, (path.name, boxes)


# -- YAML out ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", BUNDLED)
def test_saved_yaml_is_the_same_scenario_in_a_stable_order_one_unit_a_line(name: str) -> None:
    data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text())
    text = dump_scenario(data)
    assert yaml.safe_load(text) == data
    assert dump_scenario(yaml.safe_load(text)) == text  # stable: saving again changes nothing
    tail = text.split("\nunits:")[1]
    unit_lines = tail.strip().splitlines() if data["units"] else []
    assert tail == " []\n" or len(unit_lines) == len(data["units"])
    assert all(x.startswith("- {id: ") for x in unit_lines)
    keys = [line.split(":")[0] for line in text.splitlines() if line and line[0].isalpha()]
    from owsnb.authoring.yaml_writer import SCENARIO_KEYS

    assert keys == sorted(keys, key=SCENARIO_KEYS.index)


def test_a_moved_unit_changes_one_line_of_the_saved_file(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    before = doc.save().read_text().splitlines()
    doc.move_unit("R-052D-1", hex="0408")
    after = doc.save().read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [
        (
            '- {id: R-052D-1, type: prc-ddg-052d, side: red, hex: "0407", name: Type 052D Nanning}',
            '- {id: R-052D-1, type: prc-ddg-052d, side: red, hex: "0408", name: Type 052D Nanning}',
        )
    ]


# -- edits, checks, undo -----------------------------------------------------------------------
@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_scenario_opens_without_problems(name: str, tmp_path: Path) -> None:
    doc = ScenarioDocument(name)
    assert doc.valid and doc.problems == () and not doc.dirty
    assert doc.shown is not None and len(doc.shown.units) == len(doc.data["units"])


def test_a_bad_edit_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    text, n = doc.text, len(doc.history())
    for bad in (
        lambda: doc.move_unit("B-DDG-1801", hex="9999"),
        lambda: doc.move_unit("NOBODY", hex="0101"),
        lambda: doc.add_unit("no-such-type", "blue", hex="0101"),
        lambda: doc.add_unit("tw-sof", "green", hex="0101"),
        lambda: doc.toggle_edge("0101", "0505", "river"),
        lambda: doc.set_option("no_such_option", 1),
        lambda: doc.set_table("gcat", "cells[99][0]", "A1"),
        lambda: doc.remove_side("blue"),
    ):
        with pytest.raises(EditError):
            bad()
        assert doc.text == text and len(doc.history()) == n


def test_a_problem_is_listed_with_its_key_path_and_the_unit_outlined_on_the_map(
    tmp_path: Path,
) -> None:
    """6.5.5: an airfield bases at most its capacity of squadrons. Magong (1210) holds one: a
    second squadron there is the loader's problem at that unit's ``hex``; the edit is kept (it can
    be undone), the map still draws the unit, and the problem names it and its hex."""
    doc = tutorial(tmp_path)
    uid = doc.add_unit("tw-squadron", "blue", hex="1210")
    uid2 = doc.add_unit("tw-squadron", "blue", hex="1210")
    assert not doc.valid
    (p,) = doc.problems
    index = [u["id"] for u in doc.data["units"]].index(uid2)
    assert p.where.startswith(f"units[{index}].hex (line ") and "capacity 1 (6.5.5)" in p.message
    assert (p.unit, p.hex) == (uid2, "1210") or (p.unit, p.hex) == (uid, "1210")
    assert {uid, uid2} <= set(doc.shown.units)  # still drawn
    doc.undo()
    assert doc.valid and uid2 not in doc.shown.units
    doc.redo()
    assert not doc.valid


def test_undo_and_redo_walk_the_history(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    first = doc.text
    doc.paint("0101", "forest")
    doc.set("briefing", "Short.")
    doc.set_option("assessment_phase", False)  # the default: taken out of the file
    assert "options" not in doc.data
    doc.undo()
    doc.undo()
    assert doc.data["briefing"] != "Short." and doc.data["map"]["terrain"]["hexes"] == {
        "0101": "forest"
    }
    doc.undo()
    assert doc.text == first and not doc.can_undo
    doc.redo()
    doc.redo()
    assert doc.data["briefing"] == "Short."
    doc.paint("0102", "forest")  # a new edit drops what could be redone
    assert not doc.can_redo


def test_table_overrides_keep_only_what_differs_from_the_rule_set(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    cells = doc.table("gcat")["cells"]
    doc.set_table("gcat", "cells[0][0]", "A3")
    assert doc.data["tables"] == {"gcat": {"cells": [["A3", *cells[0][1:]], *cells[1:]]}}
    doc.set_table("gcat", "modifiers.quality_points", 4)
    assert doc.data["tables"]["gcat"]["modifiers"] == {"quality_points": 4}
    state, _ = doc.check()
    assert state.tables["gcat"]["cells"][0][0] == "A3"
    assert state.tables["gcat"]["modifiers"]["quality_points"] == 4
    assert state.tables["gcat"]["modifiers"]["defend_shield"] == 1  # the rest merged in
    doc.set_table("gcat", "cells[0][0]", cells[0][0])
    doc.set_table("gcat", "modifiers.quality_points", 3)
    assert "tables" not in doc.data


def test_a_unit_aboard_a_ship_names_the_ship_hold(tmp_path: Path) -> None:
    """5.1.1.2: a unit in box ``aboard`` sails in the ship whose ``hold`` tag it names."""
    doc = tutorial(tmp_path)
    ship = doc.add_unit("prc-lst-072", "red", hex="0407")
    assert ship in doc.hosts("red", "aboard") and "R-052D-1" in doc.hosts("red", "aboard")
    assert "R-PHL-1" not in doc.hosts("red", "aboard")  # rockets carry nobody
    cargo = doc.add_unit("prc-marine-bn", "red", box="aboard", host=ship)
    tag = doc.unit(ship)["data"]["hold"]
    assert doc.unit(cargo)["data"] == {"aboard": tag} and doc.valid
    doc.move_unit(cargo, hex="0306")  # ashore: the link goes
    assert "data" not in doc.unit(cargo)


def test_edges_extend_a_chain_and_come_off_again(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    assert doc.toggle_edge("0101", "0102", "border") is True
    assert doc.toggle_edge("0102", "0202", "border") is True
    (border,) = [e for e in doc.data["map"]["edges"] if e["type"] == "border"]
    assert border["hexes"] == ["0101", "0102", "0202"]
    assert doc.edges_at("0102", "0202") == ["border"]
    assert doc.toggle_edge("0101", "0102", "border") is False
    (border,) = [e for e in doc.data["map"]["edges"] if e["type"] == "border"]
    assert border["hexes"] == ["0102", "0202"] and doc.valid


def test_features_replace_one_of_a_type_per_hex(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    doc.add_feature("0105", "airfield", "Zhangzhou", owner="red")
    (f,) = doc.features_at("0105")
    assert f == {"hex": "0105", "type": "airfield", "name": "Zhangzhou", "owner": "red",
                 "capacity": 2, "shield": 3}  # fmt: skip
    doc.add_feature("0105", "airfield", "Zhangzhou", owner="red", capacity=4)
    assert [x["capacity"] for x in doc.features_at("0105")] == [4]
    state, _ = doc.check()
    assert state.map.hexes[state.map.hex("0105")].features["airfield"]["capacity"] == 4
    doc.remove_feature("0105", "airfield")
    assert doc.features_at("0105") == []


def test_payload_edits_keep_only_what_differs_from_the_catalog(tmp_path: Path) -> None:
    doc = tutorial(tmp_path)
    assert doc.payload("B-DDG-1801")["red_shield"] == 5
    doc.set_payload("B-DDG-1801", "red_shield", 6)
    assert doc.unit("B-DDG-1801")["data"] == {"red_shield": 6}
    assert doc.check()[0].units["B-DDG-1801"].data["red_shield"] == 6
    doc.set_payload("B-DDG-1801", "red_shield", 5)
    assert "data" not in doc.unit("B-DDG-1801")
    doc.set_payload("B-DDG-1801", "red_shield", -1)  # the payload schema says ge=0
    (p,) = doc.problems
    assert p.where.startswith("units[0].data.red_shield") and p.unit == "B-DDG-1801"


def test_a_new_scenario_from_a_box_saves_validates_loads_and_plays(tmp_path: Path) -> None:
    """The code path behind the editor's mouse: a map from a box (a land test stands in for the
    offline mask here), terrain, an airfield, two units a side (one aboard a ship), a briefing;
    saved, accepted by ``owsnb validate``, loaded by ``owsnb.load`` and played a step."""
    doc = new_document("test-box", "Test box", path=tmp_path / "test-box.yaml")
    assert not doc.valid and doc.shown is None
    doc.new_map(
        (127.6, 26.1, 128.0, 26.4), "10km", is_land=lambda lon, lat: np.asarray(lon) > 127.8
    )
    assert doc.valid and doc.data["map"]["meta"]["scale"] == "tactical"
    land = [x for x in doc.labels() if doc._terrain_of(x) == "clear"]
    sea = [x for x in doc.labels() if doc._terrain_of(x) in ("littoral", "deep-sea")]
    doc.paint(land[0], "forest")
    doc.add_feature(land[1], "airfield", "Field", owner="blue")
    doc.add_unit("us-squadron", "blue", hex=land[1])
    doc.add_unit("us-ddg-iia", "blue", hex=sea[0])
    ship = doc.add_unit("prc-lst-072", "red", hex=sea[-1])
    doc.add_unit("prc-amphib-cab", "red", box="aboard", host=ship)
    doc.set("briefing", "Hold the field.")
    assert doc.valid, doc.problems
    path = doc.save()
    assert (tmp_path / "maps" / "test-box-coast.geojson").is_file()
    out = subprocess.run(
        [sys.executable, "-m", "owsnb", "validate", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    game = owsnb.load(path, seed=1, save=False)
    assert game.state.scenario["briefing"] == "Hold the field."
    assert game.unit(ship).data["hold"] == game.unit("R-AMPHIB-1").data["aboard"]
    before = game.clock
    game.submit(f"{game.clock.acting[0]}: done")
    assert game.clock != before


def test_saving_elsewhere_rewrites_relative_file_names(tmp_path: Path) -> None:
    bundled = (SCENARIOS / "tutorial.yaml").read_text()
    doc = ScenarioDocument("tutorial")
    assert doc.path == SCENARIOS / "tutorial.yaml"
    path = doc.save(tmp_path / "copy" / "tut.yaml")
    assert doc.path == path and not doc.dirty
    copy = owsnb.load(path, save=False)  # its catalogs and coastline found from the new folder
    assert len(copy.state.units) == 20 and Path(copy.state.map.meta["coast"]).is_file()
    assert (SCENARIOS / "tutorial.yaml").read_text() == bundled
