"""Time and distance drawn on the map (owsnb.widgets.measure): labelled rings with a legend, the
measured route with its legs, one statement of movement a turn."""

from __future__ import annotations

import re

import pytest

import owsnb
from owsnb.widgets import MapView, TimeDistancePanel
from owsnb.widgets import geometry as G
from owsnb.widgets.table import Table


@pytest.fixture
def tutorial():
    return owsnb.load("tutorial", seed=1, save=False)


def _table(game, seat="blue"):
    t = Table.of(game, seat)
    return t, MapView(t), TimeDistancePanel(t)


def test_rings_are_labelled_and_explained_in_a_legend_6_4_2_2_2_1(tutorial):
    """The destroyer's ranges: one ring per radius (the SM-2, the umbrella and the radar share
    8 hexes), a numbered badge on each, and a legend saying what each is, how far in hexes, km
    and nm, per shot or to detect, with its rule."""
    t, mv, td = _table(tutorial)
    t.show_ranges = True
    t.pick(unit="B-DDG-1801")
    ranges = tutorial.ruleset.presentation.ranges(t.view, "B-DDG-1801")
    radii = sorted({r["hexes"] for r in ranges if r["hexes"] > 0})
    drawn = [
        f["properties"]["hexes"]
        for f in mv.overlays["ranges"].data["features"]
        if f["properties"]["style"]["className"] == "owsnb-range"
    ]
    assert drawn == radii == [6, 8]
    badges = [m.icon.html for m in mv.measure.labels.layers]
    assert len(badges) == 2 and "8 hex · 160 km" in badges[1] and "6 hex · 120 km" in badges[0]
    legend = mv.measure.legend.value
    assert mv.measure.legend_control in mv.map.controls
    # one line a ring: its badges, how far in hexes, km and nm, what it measures
    assert "①④⑤</span> <b>8 hexes (160 km, 86 nm)</b>: D8 vs air (sm2, 1/1); air-def" in legend
    assert (
        "weapon range, per shot; air-defence umbrella, covers units within; sensor range" in legend
    )
    assert "③⑥</span> <b>own hex only</b>" in legend  # the sonar and ASW: 0 hexes, not drawn
    # the badges number the ranges as the panel's table lists them, with their full labels
    assert [(x["#"], x["range"]) for x in td.rows()["ranges"]][:2] == [
        ("①", ranges[0]["label"]),
        ("②", ranges[1]["label"]),
    ]
    # badges stand on a hex's edge, never on a centre (where a counter would stand)
    centres = {tuple(G.point(mv.geo, h)) for h in tutorial.map.hexes}
    assert not any(tuple(m.location) in centres for m in mv.measure.labels.layers)
    t.show_ranges = False
    assert mv.overlays["ranges"].data["features"] == [] and not mv.measure.labels.layers
    assert mv.measure.legend_control not in mv.map.controls


def test_a_measured_route_beyond_this_turn_is_cut_into_legs_of_one_turn_10_10(tutorial):
    """The Hsiung Feng battery (wheeled, 15 MP a turn, 10.10) from Taichung to 1615, beyond this
    turn's reach: the straight line, cut into legs by the rule set's transit (two turns by road),
    each leg's end labelled with its turn and day."""
    t, mv, td = _table(tutorial)
    assert t.measuring  # the panel is in sight
    t.pick(unit="B-HF3-1")
    t.pick(hex="1615")
    feats = mv.overlays["route"].data["features"]
    kinds = [f["properties"]["kind"] for f in feats]
    assert kinds[0] == "route" and "leg" in kinds
    way = next(
        r
        for r in tutorial.ruleset.presentation.transit(t.view, "B-HF3-1", tutorial.hex("1615"))
        if r["feasible"] and r["turns"]
    )
    assert way["turns"] == 2 and way["mode"].startswith("ground")
    legs = [f["properties"]["label"] for f in feats if f["properties"]["kind"] == "leg"]
    assert legs == ["end of turn 1 · day 1", "end of turn 2 · day 2"]
    text = mv.measure.route_text
    assert text.startswith("1707 → 1615") and "by ground: wheeled movement: 2 turns" in text
    assert any("end of turn 1" in m.icon.html for m in mv.measure.labels.layers)
    assert "⟶" in mv.measure.legend.value


def test_a_route_inside_this_turns_reach_follows_the_reach_6_4(tutorial):
    """A ship's way to a hex it can reach this turn: the cheapest way through its reach (sea
    hexes only), one leg, "this turn"."""
    t, mv, td = _table(tutorial)
    t.pick(unit="B-DDG-1801")
    t.pick(hex="0407")
    (route, leg) = mv.overlays["route"].data["features"]
    coords = route["geometry"]["coordinates"]
    reach = tutorial.ruleset.presentation.reach(t.view, "B-DDG-1801")
    path = [tutorial.map.layout.hex_at(lon, lat) for lon, lat in coords]
    assert path[0] == tutorial.hex("1210") and path[-1] == tutorial.hex("0407")
    assert all(h in reach for h in path)  # never across land
    assert [reach[h] for h in path] == sorted(reach[h] for h in path)
    assert leg["properties"]["label"] == "this turn"
    assert "in reach this turn" in mv.measure.route_text


def test_no_route_while_the_time_and_distance_panel_is_out_of_sight(tutorial):
    t, mv, td = _table(tutorial)
    td.show(False)
    assert not t.measuring
    t.pick(unit="B-DDG-1801")
    t.pick(hex="0407")
    assert mv.overlays["route"].data["features"] == []
    td.show(True)
    assert mv.overlays["route"].data["features"]


def test_one_statement_of_a_ships_movement_a_turn_6_4(tutorial):
    """6.4: the destroyer's rate converted to 20 km hexes is its allowance everywhere: the
    reach, the panel and the transit table say the same number; the map's edge is why it reaches
    fewer hexes here."""
    t, mv, td = _table(tutorial)
    t.pick(unit="B-DDG-1801")
    reach = tutorial.ruleset.presentation.reach(t.view, "B-DDG-1801")
    rows = tutorial.ruleset.presentation.transit(t.view, "B-DDG-1801", tutorial.hex("0407"))
    rate = int(re.search(r"(\d+) hexes a turn", rows[0]["notes"]).group(1))
    assert reach.budget == rate == 55 and reach.summary()["allowance"] == "55 hexes"
    html = td.out.value
    assert "moves up to <b>55 hexes a turn</b>" in html and "1,100 km" in html
    assert "the farthest hex it can reach here is 14 hexes away" in html
    assert "the map&#x27;s edge" in html or "the map's edge" in html
