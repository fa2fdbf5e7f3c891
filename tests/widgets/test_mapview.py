"""MapView: the grid drawn once, overlays that change alone, clicks that pick hexes and counters."""

from __future__ import annotations

import base64
import math
import re

import numpy as np
import pytest

from owsnb.display.palette import terrain_style
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.widgets import geometry as G
from owsnb.widgets.mapview import MapView
from owsnb.widgets.table import Table
from owsnb.widgets.wire import MessageLog


def _shoelace(ring):
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:], strict=False))


def _area(mp):
    """Area of a MultiPolygon (outer rings minus holes) in the map plane."""
    return sum(
        abs(_shoelace(p[0])) - sum(abs(_shoelace(h)) for h in p[1:]) for p in mp["coordinates"]
    )


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_dissolve_keeps_the_area_and_cancels_inner_edges(orientation):
    lay = GeoLayout(orientation, 10.0, projection="simple")
    hexes = Hex(0, 0).disc(3) + [Hex(9, 0), Hex(10, 0)]  # a disc and a separate pair
    g = G.dissolve(lay, hexes)
    one = abs(_shoelace([*G.hex_outline(lay, Hex(0, 0))["coordinates"][0]]))
    assert len(g["coordinates"]) == 2
    assert math.isclose(_area(g), one * len(hexes), rel_tol=1e-3)  # coordinates are rounded
    # the boundary of a radius-3 disc has 6 * (2*3 + 1) = 42 edges
    assert sorted(len(p[0]) - 1 for p in g["coordinates"]) == [10, 42]


def test_dissolve_of_a_ring_has_a_hole_of_the_right_size():
    lay = GeoLayout("flat", 10.0, projection="simple")
    g = G.dissolve(lay, Hex(0, 0).ring(2))
    (poly,) = g["coordinates"]
    assert len(poly) == 2  # outer ring and one hole
    one = abs(_shoelace(G.hex_outline(lay, Hex(0, 0))["coordinates"][0]))
    assert math.isclose(abs(_shoelace(poly[1])), 7 * one, rel_tol=1e-3)  # the hole is disc(1)


def test_grid_lines_draw_every_edge_once():
    lay = GeoLayout("flat", 10.0, projection="simple")
    hexes = Hex(0, 0).disc(2)
    lines = G.grid_lines(lay, hexes)["coordinates"]
    segs = [
        frozenset((tuple(a), tuple(b)))
        for line in lines
        for a, b in zip(line, line[1:], strict=False)
    ]
    assert len(segs) == len(set(segs))
    # unique edges of 19 hexes: (6 * 19 + boundary edges) / 2, boundary = 6 * (2*2 + 1) = 30
    assert len(segs) == (6 * 19 + 30) // 2
    assert len(lines) < len(segs) / 3  # chained into long lines, not sent edge by edge


def test_grid_is_one_layer_with_one_feature_per_terrain(pgame):
    mv = MapView(pgame, seat="blue")
    feats = mv.grid.data["features"]
    terrains = [f["properties"]["terrain"] for f in feats if "terrain" in f["properties"]]
    assert sorted(terrains) == ["clear", "forest", "urban"]
    clear = next(f for f in feats if f["properties"].get("terrain") == "clear")
    assert (
        clear["properties"]["style"]["fillColor"]
        == terrain_style(pgame.ruleset.presentation, "clear")["fillColor"]
    )
    assert any(f["properties"].get("kind") == "river" for f in feats)
    assert mv.grid.interactive is False and "interactive" in mv.grid.options


def test_labels_image_holds_every_hex_label_and_place_name(pgame):
    mv = MapView(pgame, seat="blue")
    svg = base64.b64decode(mv.labels.url.split(",", 1)[1]).decode()
    assert svg.count("<text") == len(pgame.map) + 1  # 80 labels and "Wesel"
    assert ">0505<" in svg and ">Wesel<" in svg
    (s, w), (n, e) = mv.labels.bounds
    lons, lats = zip(*(c for h in pgame.map for c in pgame.map.layout.corners(h)), strict=True)
    assert w == pytest.approx(min(lons)) and e == pytest.approx(max(lons))
    assert s == pytest.approx(min(lats), abs=1e-9) and n == pytest.approx(max(lats), abs=1e-9)


def test_labels_show_only_when_hexes_are_big_enough(pgame):
    mv = MapView(pgame, seat="blue", label_px=40)
    mv.map.zoom = 6
    assert mv.hex_px() < 40 and mv.labels.visible is False
    mv.map.zoom = 10
    assert mv.hex_px() > 40 and mv.labels.visible is True


def test_no_basemap_and_no_tile_layer_by_default(pgame):
    import ipyleaflet as L

    mv = MapView(pgame, seat="blue")
    assert not any(isinstance(layer, L.TileLayer) for layer in mv.map.layers)
    assert mv.map.crs["name"] == "EPSG3857"


def test_counters_come_from_the_rule_sets_presentation(pgame):
    mv = MapView(pgame, seat="blue")
    bodies = [m.icon.html for m in mv.units.layers]
    # the test presentation marks its designations with a star
    assert len(bodies) == 3 and all(re.search(r">[A-Z]+-1\*</text>", b) for b in bodies)
    assert all("R-" not in b for b in bodies)


def test_click_on_a_hex_selects_it(pgame):
    mv = MapView(pgame, seat="blue")
    lon, lat = pgame.map.layout.centre(pgame.hex("0707"))
    assert mv.click(lon + 0.01, lat) == "0707"
    assert mv.table.hex == "0707" and mv.table.unit is None
    (sel,) = mv.overlays["selection"].data["features"]
    ring = sel["geometry"]["coordinates"][0]
    assert len(ring) == 7 and sel["properties"]["label"] == "0707"
    assert mv.click(lon + 50, lat) is None  # off the map: nothing happens
    assert mv.table.hex == "0707"


def test_click_on_a_counter_selects_the_unit_and_draws_its_reach(pgame):
    mv = MapView(pgame, seat="blue")
    marker = next(m for m in mv.units.layers if "B-ARM-1" in m.icon.html)
    marker._click_callbacks(type="click")
    assert mv.table.unit == "B-ARM-1"
    (reach,) = mv.overlays["reach"].data["features"]
    expected = pgame.ruleset.presentation.reach(pgame.view("blue"), "B-ARM-1")
    assert reach["properties"]["hexes"] == len(expected) > 7
    lay = pgame.map.layout
    one = abs(_shoelace(np.asarray(G.hex_outline(lay, Hex(0, 0))["coordinates"][0]).tolist()))
    assert _area(reach["geometry"]) == pytest.approx(one * len(expected), rel=0.01)


def test_ranges_are_drawn_as_rings_when_asked(pgame):
    mv = MapView(pgame, seat="blue")
    mv.table.show_ranges = True
    mv.table.pick(unit="B-ARM-1")
    feats = mv.overlays["ranges"].data["features"]
    rings = [f for f in feats if f["properties"]["style"]["className"] == "owsnb-range"]
    casings = [f for f in feats if f["properties"]["style"]["className"] == "owsnb-range-casing"]
    assert [f["geometry"] for f in casings] == [f["geometry"] for f in rings]  # a dark edge each
    assert [(f["properties"]["label"], f["properties"]["hexes"]) for f in rings] == [
        ("fire (S3)", 1),
        ("move (S2)", 3),
    ]
    assert all(len(f["geometry"]["coordinates"][0]) == 1 for f in rings)  # outer edge only
    assert (
        len(rings[1]["geometry"]["coordinates"][0][0]) == 6 * 7 + 1
    )  # boundary of a radius-3 disc


def test_a_stack_shows_one_counter_with_a_count_and_opens_a_tray(pgame):
    blue = pgame
    blue.submit("blue: move B-ARM-1 0203")  # onto B-INF-1
    mv = MapView(pgame, seat="blue")
    (stack,) = [m for m in mv.units.layers if "B-ARM-1" in m.icon.html]
    assert "B-INF-1" in stack.icon.html and "owsnb-badge'>2</b>" in stack.icon.html
    assert len(mv.units.layers) == 2
    stack._click_callbacks(type="click")
    assert mv.table.stack == ["B-ARM-1", "B-INF-1"]
    assert mv.tray_control in mv.map.controls
    # each unit a button showing its counter (a picture from the tray's stylesheet)
    style, *buttons = mv.tray.children
    assert [b.description for b in buttons] == ["B-ARM-1", "B-INF-1"]
    for b in buttons:
        cls = next(c for c in b._dom_classes if c.startswith("owsnb-c-"))
        assert f".{cls}{{background-image:url(" in style.value
    buttons[1].click()
    assert mv.table.unit == "B-INF-1"
    mv.table.pick(hex="0707")
    assert mv.tray_control not in mv.map.controls


def test_a_move_changes_only_the_markers_location_never_the_grid(pgame):
    mv = MapView(pgame, seat="blue")
    marker = next(m for m in mv.units.layers if "B-ARM-1" in m.icon.html)
    with MessageLog() as log:
        pgame.submit("blue: move B-ARM-1 0504")
    assert marker in mv.units.layers  # the stack kept its marker
    assert marker.location == G.point(pgame.map.layout, pgame.hex("0504"))
    sent = {m.comm_id for m in log.messages}
    assert mv.grid.model_id not in sent and mv.labels.model_id not in sent
    marker_msgs = [m for m in log.messages if m.comm_id == marker.model_id]
    assert marker_msgs and all(set(m.data["state"]) <= {"location", "icon"} for m in marker_msgs)
    # the counter's tooltip now lists the marker the move added: the icon was replaced, not edited
    assert "moved" in marker.icon.html
    assert sum(m.msg_type == "comm_open" for m in log.messages) == 1


def test_a_counter_icon_is_never_edited_while_shown(pgame):
    """Leaflet does not redraw a DivIcon whose html changes: a stale counter could keep showing a
    unit the seat no longer sees. A changed counter gets another icon: a spare given up by an
    earlier change, re-filled while no marker shows it, its html sent before the marker that takes
    it (so the browser draws the new counter)."""
    mv = MapView(pgame, seat="blue")
    edits = []

    def edited(change):
        shown = any(m.icon is change["owner"] for m in mv.units.layers)
        edits.append((change["owner"].model_id, shown))

    def watch_all():
        for icon in [m.icon for m in mv.units.layers] + mv._spares:
            if not getattr(icon, "_test_watched", False):
                icon.observe(edited, names="html")
                icon._test_watched = True

    watch_all()
    pgame.submit("blue: move B-ARM-1 0504")  # the counter's tooltip gains "moved": a new icon
    watch_all()
    assert len(mv._spares) == 1 and not edits
    rec = next(m for m in mv.units.layers if "B-REC-1" in m.icon.html)
    with MessageLog() as log:
        pgame.submit("blue: move B-REC-1 0401")
    assert edits and not any(shown for _, shown in edits)  # the spare was re-filled, unseen
    (refill,) = [i for i, m in enumerate(log.messages) if m.comm_id == edits[0][0]]
    took = [i for i, m in enumerate(log.messages) if m.comm_id == rec.model_id]
    assert rec.icon.model_id == edits[0][0] and took and refill < took[0]
    assert not any(m.msg_type in ("comm_open", "comm_close") for m in log.messages)


def test_spare_icons_go_with_the_seat(pgame):
    from owsnb.widgets import Table

    t = Table.of(pgame, "blue")
    mv = MapView(t)
    pgame.submit("blue: move B-ARM-1 0504")
    (spare,) = mv._spares
    t.switch("red")
    assert mv._spares == [] and spare.comm is None  # closed: red's browser gets none of blue's


def test_selecting_sends_only_small_overlay_updates(pgame):
    mv = MapView(pgame, seat="blue")
    with MessageLog() as log:
        mv.table.pick(hex="0707")
    assert log.comm_ids() <= {mv.overlays["selection"].model_id, mv.status.model_id}
    assert log.nbytes < 5000


def test_the_order_being_prepared_draws_an_arrow(pgame):
    mv = MapView(pgame, seat="blue")
    mv.table.order = pgame.legal_orders("blue")["move"].type.make("blue", unit="B-ARM-1", to="0504")
    shaft, head = mv.overlays["arrow"].data["features"]
    lay = pgame.map.layout
    start, end = lay.centre(pgame.hex("0204")), lay.centre(pgame.hex("0504"))
    assert shaft["geometry"]["coordinates"][0] == pytest.approx(list(start), abs=1e-5)
    assert head["geometry"]["coordinates"][0][0] == pytest.approx(list(end), abs=1e-5)
    mv.table.order = None
    assert mv.overlays["arrow"].data["features"] == []


def test_detections_outline_the_contacts_only(pgame):
    mv = MapView(pgame, seat="blue")
    assert mv.overlays["detections"].data["features"] == []
    # bring a blue unit next to red infantry and end the turn: skirmish's S4 detects neighbours
    reach = pgame.ruleset.presentation.reach(pgame.view("blue"), "B-REC-1")
    red = [u.hex for u in pgame.state.units.values() if u.side == "red"]
    spot = next(h for h in reach if any(h.distance(r) == 1 for r in red))
    for order in (
        f"blue: move B-REC-1 {pgame.map.label(spot)}",
        "blue: done",
        "red: done",
        "blue: done",
        "red: done",
    ):
        pgame.submit(order)
    seen = [u for u in pgame.view("blue").units.values() if u.side == "red"]
    assert seen, "the recon should have spotted something"
    (det,) = mv.overlays["detections"].data["features"]
    lay = pgame.map.layout
    one = abs(_shoelace(G.hex_outline(lay, Hex(0, 0))["coordinates"][0]))
    assert _area(det["geometry"]) == pytest.approx(one * len({u.hex for u in seen}), rel=0.01)


def test_annotation_pins(pgame):
    mv = MapView(pgame, seat="blue")
    pgame.annotate("watch the bridge", hex="0602", side="blue")
    pgame.annotate("red secret", hex="0803", side="red")
    (pin,) = mv.notes.layers
    assert "watch the bridge" in pin.title
    assert pin.location == G.point(pgame.map.layout, pgame.hex("0602"))


def test_abstract_boards_use_the_simple_crs(pgame):
    from dataclasses import replace

    from owsnb.kernel import Game

    s = pgame.initial
    flat = replace(s, map=replace(s.map, layout=GeoLayout("flat", 10.0, projection="simple")))
    mv = MapView(Game(pgame.ruleset, flat), seat="blue")
    assert mv.map.crs["name"] == "Simple"
    lon, lat = flat.map.layout.centre(flat.map.hex("0305"))
    assert mv.click(lon, lat) == "0305"
    assert mv.hex_px(0) == pytest.approx(10.0)


def test_seat_switch_and_time_travel_redraw_the_units(pgame):
    t = Table.of(pgame, "blue")
    mv = MapView(t)
    pgame.submit("blue: move B-ARM-1 0504")
    t.go_to(0)
    marker = next(m for m in mv.units.layers if "B-ARM-1" in m.icon.html)
    assert marker.location == G.point(pgame.map.layout, pgame.hex("0204"))
    t.go_to(None)
    assert marker.location == G.point(pgame.map.layout, pgame.hex("0504"))
    t.switch("red")
    assert all("B-" not in m.icon.html for m in mv.units.layers) and len(mv.units.layers) == 3


def test_the_tutorial_map_draws_its_offline_coastline_and_ows_terrain():
    import owsnb

    game = owsnb.load("tutorial", seed=1, save=False)
    mv = MapView(game, seat="blue")
    assert mv.coast is not None and mv.coast in mv.map.layers
    kinds = {f["properties"]["kind"] for f in mv.coast.data["features"]}
    assert "coast" in kinds
    deep = next(f for f in mv.grid.data["features"] if f["properties"].get("terrain") == "deep-sea")
    assert (
        deep["properties"]["style"]["fillColor"]
        == terrain_style(game.ruleset.presentation, "deep-sea")["fillColor"]
    )
    # the coastline lies over the map: its points fall inside the map's bounds
    w, s, e, n = game.map.layout.bounds(list(game.map.hexes))
    pts = [
        p for f in mv.coast.data["features"] for line in f["geometry"]["coordinates"] for p in line
    ]
    assert pts and all(w - 0.5 <= x <= e + 0.5 and s - 0.5 <= y <= n + 0.5 for x, y in pts)


def test_a_map_without_a_coast_file_can_cut_one_from_the_world_file(pgame):
    mv = MapView(pgame, seat="blue", coast=True)  # Wesel: the Dutch border is 20 km away
    assert mv.coast is not None
    assert "border" in {f["properties"]["kind"] for f in mv.coast.data["features"]}
    assert (
        MapView(pgame, seat="blue").coast is None
    )  # off by default: the scenario has no coast file


@pytest.mark.parametrize("projection", ["aeqd", "simple"])
def test_each_label_sits_on_its_hex_where_leaflet_draws_it(projection):
    """The label image is stretched linearly over its bounds in the plane Leaflet draws in (Web
    Mercator, or the plane itself on an abstract board): a label's position in the image must be
    its hex centre's position in that plane."""
    import re

    lay = GeoLayout.from_size(200, "nm", origin=(127.7, 26.3), projection=projection)
    hexes = Hex(0, 0).disc(4)
    url, ((s, w), (n, e)) = G.labels_image(lay, {h: f"{h.q},{h.r}" for h in hexes})
    svg = base64.b64decode(url.split(",", 1)[1]).decode()
    vb = [float(v) for v in re.search(r"viewBox='([^']+)'", svg).group(1).split()]
    (x0, x1), (y0, y1) = G.lonlat_to_pixels(lay, [w, e], [s, n])
    found = list(
        re.finditer(r"<text x='([\d.]+)' y='([\d.]+)' font-size='([\d.]+)'>(-?\d+),(-?\d+)<", svg)
    )
    assert len(found) == len(hexes) == 61
    for m in found:
        h = Hex(int(m.group(4)), int(m.group(5)))
        fx, fy = float(m.group(1)) / vb[2], float(m.group(2)) / vb[3]  # fractions of the image
        cx, cy = G.lonlat_to_pixels(lay, *lay.centre(h))
        assert fx == pytest.approx(float((cx - x0) / (x1 - x0)), abs=1e-3)
        # the label is drawn 0.3 of a hex height above the centre
        top = float((y1 - cy) / (y1 - y0))
        assert 0 < top - fy < 0.6 / 9


def test_the_rule_sets_hex_overlay_is_one_layer_sent_only_when_it_changes():
    from tests.widgets.plus import zoned_game

    game = zoned_game()
    mv = MapView(game, seat="blue")
    layer = mv.hex_overlay
    assert mv.map.layers.index(layer) == mv.map.layers.index(mv.grid) + 1  # above the terrain
    expected = game.ruleset.presentation.hex_overlay(game.view("blue"))
    (zone,) = layer.data["features"]  # blue sees only its own units: one style, one shape
    assert zone["properties"]["label"] == "blue zone"
    assert zone["properties"]["hexes"] == len(expected)
    assert zone["properties"]["style"]["fillColor"] == game.state.sides["blue"].color
    with MessageLog() as log:
        mv.table.pick(hex="0707")
        game.submit("blue: done")  # the clock moves, the zones do not
    assert layer.model_id not in log.comm_ids()
    inside = game.map.label(next(iter(expected)))
    mv.table.pick(hex=inside)
    assert "blue zone" in mv.status.value
    game.undo()
    with MessageLog() as log:
        game.submit("blue: move B-ARM-1 0504")
    assert [m.comm_id for m in log.messages].count(layer.model_id) == 1
    (zone,) = layer.data["features"]
    assert zone["properties"]["hexes"] == len(
        game.ruleset.presentation.hex_overlay(game.view("blue"))
    )
