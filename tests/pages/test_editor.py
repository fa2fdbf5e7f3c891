"""The scenario editor page (owsnb.pages.editor) without a browser: each tool does what a click
on the map does, the panels edit the document, problems are outlined on the map, bad input
changes nothing, undo/redo, save, play. (The real-Chromium tests are tests/browser/test_editor.py.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

import owsnb
from owsnb.pages.editor import Editor, editor_page
from owsnb.widgets import App
from owsnb.widgets import geometry as G


@pytest.fixture
def ed(tmp_path: Path):
    e = Editor("tutorial", path=tmp_path / "tutorial.yaml")
    yield e
    e.close()


def buttons(box) -> dict[str, object]:
    from owsnb.widgets.wire import widget_tree

    return {w.description: w for w in widget_tree(box) if type(w).__name__ == "Button"}


def test_painting_features_and_hexsides_by_clicks(ed: Editor) -> None:
    ed.terrain.value = "forest"  # choosing a terrain picks the terrain tool
    assert ed.tool.value == "terrain"
    ed.click_hex("0105")
    assert ed.doc.data["map"]["terrain"]["hexes"] == {"0105": "forest"}
    view = ed.table.view
    assert view.map.hexes[view.map.hex("0105")].terrain == "forest"
    grid = {f["properties"].get("terrain") for f in ed.mapview.grid.data["features"]}
    assert "forest" in grid  # the grid was sent again with the new terrain

    ed.feature.value = "airfield"
    ed.feature_name.value = "Zhangzhou"
    ed.feature_owner.value = "red"
    ed.click_hex("0105")
    (f,) = ed.doc.features_at("0105")
    assert (f["name"], f["owner"], f["capacity"], f["shield"]) == ("Zhangzhou", "red", 2, 3)
    ed.click_hex("0105")  # a second click takes it away
    assert ed.doc.features_at("0105") == []

    ed.edge.value = "border"
    assert ed.tool.value == "edge"
    geo = ed.mapview.geo
    a, b = view.map.hex("0105"), view.map.hex("0106")
    (ax, ay), (bx, by) = geo.centre(a), geo.centre(b)
    lon, lat = ax + 0.45 * (bx - ax), ay + 0.45 * (by - ay)  # inside 0105, near its side to 0106
    ed._on_map_interaction(type="click", coordinates=[lat, lon])
    assert "border" in ed.doc.edges_at("0105", "0106")
    kinds = {f["properties"].get("kind") for f in ed.mapview.grid.data["features"]}
    assert "border" in kinds


def test_placing_units_on_hexes_and_aboard_a_ship(ed: Editor) -> None:
    ed.side.value = "red"
    assert ed.faction.value == "prc"  # the forces red's units come from
    assert ed.scale.value == "tactical"  # the map's scale
    assert "prc-lst-072" in ed.palette_items and "tw-sof" not in ed.palette_items
    ed.pick_counter("prc-lst-072")
    ed.click_hex("0407")
    ship = ed.doc.units_at("0407")[-1]
    assert ship == "R-LST-2" and ship in ed.table.view.units
    ed.pick_counter("prc-marine-bn")
    buttons(ed.boxes)["→ aboard"].click()
    hosts = buttons(ed.hosts_box)
    assert {"R-LST-1", "R-LST-2", "R-052D-1"} <= set(hosts) and "R-PHL-1" not in hosts
    hosts[ship].click()
    cargo = ed.doc.unit_ids()[-1]
    assert ed.doc.unit(cargo)["box"] == "aboard"
    assert ed.doc.unit(cargo)["data"]["aboard"] == ed.doc.unit(ship)["data"]["hold"]
    assert ed.doc.valid


def test_moving_a_unit_with_the_move_tool_and_editing_it_in_the_form(ed: Editor) -> None:
    ed.tool.value = "move"
    ed.click_hex("0407")  # R-052D-1's hex: picks it
    ed.click_hex("0408")
    assert ed.doc.unit("R-052D-1")["hex"] == "0408"
    ed.tool.value = "select"
    ed.click_hex("0408")
    assert ed.table_unit() == "R-052D-1" and ed.tabs.selected_index == 1
    from owsnb.widgets.wire import widget_tree

    def fields():  # the form is made again after each change
        return {w.description: w for w in widget_tree(ed.unit_form) if hasattr(w, "description")}

    fields()["name"].value = "Nanning"
    assert ed.doc.unit("R-052D-1")["name"] == "Nanning"
    fields()["red_shield"].value = "6"  # a payload field of the catalog type
    assert ed.doc.unit("R-052D-1")["data"] == {"red_shield": 6}
    fields()["red_shield *"].value = "not: [valid"  # bad YAML: the text stays, nothing changes
    assert ed.doc.unit("R-052D-1")["data"] == {"red_shield": 6}
    assert "nothing changed" in ed.message.value


def test_a_problem_is_listed_and_its_unit_outlined_and_undo_takes_it_back(ed: Editor) -> None:
    ed.side.value = "blue"
    ed.pick_counter("tw-squadron")
    ed.click_hex("1210")  # Magong's airfield holds one squadron base (6.5.5)
    assert ed.doc.valid
    ed.click_hex("1210")  # a second is one too many
    assert not ed.doc.valid
    assert "1 problem" in ed.status.value and "6.5.5" in ed.problems_html.value
    (outline,) = ed.problem_layer.data["features"]
    assert outline["geometry"] == G.hex_outline(ed.mapview.geo, ed.table.view.map.hex("1210"))
    assert {"B-SQUADRON-1", "B-SQUADRON-2"} <= set(ed.table.view.units)  # drawn, outlined
    assert "[data-units~='B-SQUADRON-2']{outline:3px dashed" in ed.problem_css.value
    ed.undo_button.click()
    assert ed.doc.valid and ed.problem_layer.data["features"] == [] and ed.problem_css.value == ""
    ed.redo_button.click()
    assert not ed.doc.valid


def test_a_bad_edit_says_why_and_changes_nothing(ed: Editor) -> None:
    text = ed.doc.text
    ed.tool.value = "unit"  # no counter chosen
    ed.click_hex("0101")
    assert "choose a counter" in ed.message.value and ed.doc.text == text
    ed.feature.value = "port"
    ed.feature_facts.value = "capacity 2 shield"  # not key: value
    ed.click_hex("0101")
    assert "key: value" in ed.message.value and ed.doc.text == text
    ed._fields["clock.turn"].value = "-1"  # the schema says positive: kept, listed, undoable
    assert not ed.doc.valid and "clock.turn" in ed.problems_html.value
    ed.undo()
    assert ed.doc.text == text


def test_scenario_fields_options_and_tables(ed: Editor) -> None:
    ed._fields["briefing"].value = "New briefing."
    assert ed.doc.data["briefing"] == "New briefing."
    ed.undo()
    assert ed._fields["briefing"].value.startswith("## Tutorial")  # the form follows undo
    ed.options_button.click()
    from owsnb.widgets.wire import widget_tree

    opts = {w.description: w for w in widget_tree(ed.options_box) if hasattr(w, "description")}
    opts["strike_order"].value = (
        "simultaneous"
        if "simultaneous" in [v for _, v in opts["strike_order"].options]
        else opts["strike_order"].options[-1][1]
    )
    assert "strike_order" in ed.doc.data["options"]
    ed.tabs.selected_index = 3
    ed.table_pick.value = "gcat"
    cells = [w for w in widget_tree(ed.table_box) if "owsnb-cell" in getattr(w, "_dom_classes", ())]
    first = next(w for w in cells if w.description == "" and w.value == "A2")
    first.value = "A3"
    assert ed.doc.data["tables"]["gcat"]["cells"][0][0] == "A3"
    assert ed.doc.check()[0].tables["gcat"]["cells"][0][0] == "A3"


def test_save_then_play_solo_shows_the_table_on_the_saved_file(ed: Editor, tmp_path: Path) -> None:
    ed.tool.value = "move"
    ed.click_hex("0407")
    ed.click_hex("0408")
    ed.play_button.click()
    saved = yaml.safe_load((tmp_path / "tutorial.yaml").read_text())
    assert next(u for u in saved["units"] if u["id"] == "R-052D-1")["hex"] == "0408"
    assert isinstance(ed.app, App) and ed.body.layout.display == "none"
    game = ed._game
    assert game.map.label(game.unit("R-052D-1").hex) == "0408"
    assert buttons(ed.play_box)["Back to the editor"]
    buttons(ed.play_box)["Back to the editor"].click()
    assert ed.app is None and ed.body.layout.display == "flex"


def test_a_new_scenario_from_a_drawn_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ed = Editor(None, path=tmp_path / "new.yaml")
    try:
        assert ed.mapview is None and ed.globe is not None and ed.make_button.disabled
        ring = [[127.6, 26.1], [128.0, 26.1], [128.0, 26.4], [127.6, 26.4], [127.6, 26.1]]
        ed._on_draw(None, "created", {"type": "Feature", "geometry": {"coordinates": [ring]}})
        assert ed.bbox == (127.6, 26.1, 128.0, 26.4) and not ed.make_button.disabled
        from owsnb.authoring import document

        real = document.ScenarioDocument.new_map

        def fake_mask(self, bbox, hex_size, **kw):  # the offline mask stands in a land test
            return real(self, bbox, hex_size, is_land=lambda lon, lat: np.asarray(lon) > 127.8)

        monkeypatch.setattr(document.ScenarioDocument, "new_map", fake_mask)
        ed.hex_size.value = "10km"
        ed.make_button.click()
        assert ed.mapview is not None and ed.globe is None and ed.doc.valid
        assert len(ed.table.view.map.hexes) == len(ed.doc.labels()) > 10
        assert ed.undo_button.disabled is False
    finally:
        ed.close()


def test_the_page_edits_the_file_of_owsnb_edit(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "mine.yaml"
    monkeypatch.setenv("OWSNB_EDIT_FILE", str(target))
    monkeypatch.setenv("OWSNB_EDIT_FROM", "tutorial")
    page = editor_page("")
    try:
        assert isinstance(page, Editor) and page.doc.path == target
        assert len(page.doc.data["units"]) == 20 and not target.exists()
        page.save_button.click()
        assert owsnb.load(target, save=False).state.scenario["id"] == "tutorial"
    finally:
        page.close()
    monkeypatch.delenv("OWSNB_EDIT_FROM")
    page = editor_page("")  # the file exists now: it is what opens
    try:
        assert page.doc.origin == target and not page.doc.dirty
    finally:
        page.close()


def test_under_owsnb_serve_the_page_wants_the_umpire_link(monkeypatch) -> None:
    monkeypatch.delenv("OWSNB_EDIT_FILE", raising=False)
    monkeypatch.setenv("OWSNB_SERVER", "http://127.0.0.1:9")
    page = editor_page("")
    assert not isinstance(page, Editor) and "No seat in this link" in page.value


def test_owsnb_edit_refuses_what_it_cannot_edit(tmp_path: Path, capsys) -> None:
    from owsnb.cli import main

    assert main(["edit", str(tmp_path / "notes.txt"), "--no-browser"]) == 2
    assert "ends in .yaml" in capsys.readouterr().err
    (tmp_path / "dir.yaml").mkdir()
    assert main(["edit", str(tmp_path / "dir.yaml"), "--no-browser"]) == 2
    assert "is not a file" in capsys.readouterr().err
    (tmp_path / "there.yaml").write_text("id: x\n")
    assert main(["edit", str(tmp_path / "there.yaml"), "--from", "tutorial"]) == 2
    assert "--from starts a new file" in capsys.readouterr().err


def test_every_click_that_edits_says_what_it_did(ed: Editor) -> None:
    ed.terrain.value = "forest"
    ed.click_hex("0604")
    assert "0604: forest" in ed.message.value
    ed.feature.value = "city"
    ed.feature_name.value = "Jinjiang"
    ed.click_hex("0604")
    assert "city Jinjiang in 0604" in ed.message.value
    ed.click_hex("0604")
    assert "city taken out of 0604" in ed.message.value


def test_features_show_on_the_map_and_boxed_units_under_units(ed: Editor) -> None:
    badges = {
        (f["properties"]["hex"], f["properties"]["kind"]) for f in ed.feature_layer.data["features"]
    }
    assert ("1210", "port") in badges and ("1210", "airfield") in badges and len(badges) == 11
    aboard = buttons(ed.off_map)
    assert {"R-CAB-1 (hold-r1)", "R-MAR-1 (hold-r1)", "B-F16-CAP (B-SQ-CCK)", "B-SOF-1"} <= set(
        aboard
    )
    aboard["R-CAB-1 (hold-r1)"].click()
    assert ed.table_unit() == "R-CAB-1" and "in box aboard" in ed.unit_form.children[0].value
    buttons(ed.boxes)["→ regeneration"].click()  # a selected unit goes into a box too
    assert ed.doc.unit("R-CAB-1") == {"id": "R-CAB-1", "type": "prc-amphib-cab", "side": "red",
                                      "box": "regeneration",
                                      "name": "14th Amphibious Combined-Arms Brigade"}  # fmt: skip


@pytest.mark.parametrize(
    "name",
    [
        "tutorial",
        "opart-kalinovka",
        "combatops-red-attack",
        "tocs-nijmegen",
        "opscale-river-valley",
    ],
)
def test_the_editor_works_for_every_rule_set(name: str, tmp_path: Path) -> None:
    """Each rule set's declaration drives the same page: a palette of its counters, a unit
    placed from it with its payload form, its options, its tables as cells, a blank board."""
    from owsnb.widgets.wire import widget_tree

    ed = Editor(name, path=tmp_path / f"{name}.yaml")
    try:
        assert ed.doc.valid and ed.palette_items, name
        key = next(iter(ed.palette_items))
        free = next(x for x in ed.doc.labels() if not ed.doc.units_at(x))
        ed.pick_counter(key)
        ed.click_hex(free)
        uid = ed.doc.units_at(free)[0]
        assert all(p.unit == uid for p in ed.doc.problems), ed.doc.problems  # e.g. a formation
        ed.tool.value = "select"
        ed.click_hex(free)
        form = {w.description for w in widget_tree(ed.unit_form) if hasattr(w, "description")}
        assert {"id", "name", "side"} <= form and len(form) > 5, form
        rs = ed.doc.ruleset
        opt = next(o for o in rs.option_list if o.choices and len(o.choices) > 1)
        ed.doc.set_option(opt.name, next(c for c in opt.choices if c != opt.default))
        assert opt.name in ed.doc.data["options"]
        ed.tabs.selected_index = 3
        for table in ed.doc.editor.tables:
            ed.table_pick.value = table
            cells = [
                w
                for w in widget_tree(ed.table_box)
                if "owsnb-cell" in getattr(w, "_dom_classes", ())
            ]
            assert cells or ed.table_box.children, table
        ed.make_board(6, 4)
        assert len(ed.table.view.map.hexes) == 24 and ed.mapview.geo.projection == "simple"
        ed.undo()
        assert len(ed.table.view.map.hexes) == len(ed.doc.labels()) > 24
    finally:
        ed.close()


@pytest.mark.slow
def test_serve_as_seminar_runs_owsnb_serve_on_the_saved_file(ed: Editor, tmp_path: Path) -> None:
    import httpx

    ed.doc.set("title", "Served from the editor")
    links = ed.serve()
    try:
        assert links is not None, ed.message.value
        seats = links["seats"]
        assert {"umpire", "blue", "red"} <= set(seats) and seats["umpire"]["editor"]
        assert "Served from the editor" in ed.play_box.children[0].value
        import html

        shown = html.unescape(ed.play_box.children[0].value)
        assert all(s["link"] in shown for s in seats.values())
        api = seats["umpire"]["api"]
        for _ in range(100):  # the authority answers with the saved scenario's game
            try:
                r = httpx.get(api, headers={"Authorization": f"Bearer {seats['umpire']['token']}"})
                if r.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            import time

            time.sleep(0.3)
        assert r.status_code == 200 and "Served from the editor" in r.text
        proc = ed.seminar.proc
    finally:
        ed.stop_serving()
    assert proc.poll() is not None and ed.seminar is None and ed.play_box.children == ()


def test_the_served_page_opens_a_bundled_scenario_but_never_loses_changes(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.delenv("OWSNB_EDIT_FILE", raising=False)
    monkeypatch.delenv("OWSNB_SERVER", raising=False)
    monkeypatch.setenv("OWSNB_HOME", str(tmp_path / "home"))
    page = editor_page("")  # Binder, a notebook: a new scenario, with the chooser
    try:
        assert page.globe is not None and page.start_from.value == "new"
        page.start_from.value = "tutorial"
        page.open_button.click()
        assert page.doc.data["id"] == "tutorial" and page.mapview is not None
        assert page.doc.path == tmp_path / "home" / "scenarios" / "tutorial.yaml"
        page.doc.set("title", "Changed")
        page._after_edit()
        assert page.open_scenario("sandbox") is False and page.doc.data["title"] == "Changed"
        assert "save (or undo)" in page.message.value
        page.save_button.click()
        assert page.open_scenario("new") and page.mapview is None and page.globe is not None
    finally:
        page.close()


def test_under_owsnb_serve_only_the_umpire_gets_the_editor(monkeypatch) -> None:
    from owsnb.pages import seat

    class Remote:
        def __init__(self, role):
            self.role = role

        def close(self):
            pass

    monkeypatch.delenv("OWSNB_EDIT_FILE", raising=False)
    monkeypatch.setenv("OWSNB_SERVER", "http://127.0.0.1:9")
    monkeypatch.setattr(seat, "connect_from_query", lambda q: (Remote("side"), None))
    page = editor_page("game=g&token=t")
    assert not isinstance(page, Editor) and "umpire's" in page.value
    monkeypatch.setattr(seat, "connect_from_query", lambda q: (Remote("umpire"), None))
    page = editor_page("game=g&token=t")
    try:
        assert isinstance(page, Editor)
    finally:
        page.close()
