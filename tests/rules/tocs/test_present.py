"""Presentation hooks and the browser payloads: nothing hidden reaches a side's widgets."""

from __future__ import annotations

import owsnb
from owsnb.display.symbols import unit_svg
from owsnb.rules.tocs.present import perimeter_geojson
from owsnb.testing import find_leaks, hidden_tokens, random_playout


def _played():
    g = owsnb.load("tocs-nijmegen", seed=11, save=False)
    random_playout(g, max_orders=80, seed=11, pass_weight=0.1)
    return g


def test_hooks_return_plain_data_for_own_units():
    g = owsnb.load("tocs-nijmegen", seed=2, save=False)
    v = g.view("allied")
    rs = g.ruleset
    u = v.units["A-505-D"]
    svg = str(unit_svg(rs, u, v))
    assert svg.startswith("<svg") and ">505-D<" in svg  # the designation, without the side
    assert dict(rs.presentation.unit_summary(u, v))["state"] == "good-order"
    reach = rs.presentation.reach(v, "A-505-D")
    assert reach and all(c >= 0 for c in reach.values())
    assert any(r["kind"] == "command" for r in rs.presentation.ranges(v, "A-505"))
    assert rs.presentation.dashboard(v)["sides"].keys() == {"allied"}
    assert rs.presentation.terrain_style("city")["fillColor"].startswith("#")


def test_counter_svg_escapes_strings():
    g = owsnb.load("tocs-nijmegen", seed=2, save=False)
    v = g.view("allied")
    u = v.units["A-505-D"].evolve(id="<b>&x")
    assert "<b>&x" not in str(unit_svg(g.ruleset, u, v))


def test_dashboard_and_perimeter_overlay_carry_no_hidden_ids():
    g = _played()
    for side in g.state.sides:
        v = g.view(side)
        tokens = hidden_tokens(g.state, side, g.ruleset)
        assert not find_leaks(g.ruleset.presentation.dashboard(v), tokens)
        assert not find_leaks(perimeter_geojson(v), tokens)


def test_app_widget_state_for_a_seat_carries_no_hidden_ids():
    from owsnb.testing import scan_widget_leaks as scan_leaks
    from owsnb.widgets import App

    g = _played()
    for side in g.state.sides:
        app = App(g, seat=side, seats=(side,))
        assert not scan_leaks(app, hidden_tokens(g.state, side, g.ruleset)), side


def test_hex_overlay_is_the_perimeter_and_the_map_draws_it():
    """L229: every hex has one owner, known to both sides; the map's hex overlay shows it."""
    from owsnb.widgets import MapView

    g = owsnb.load("tocs-nijmegen", seed=2, save=False)
    allied, german = g.view("allied"), g.view("german")
    overlay = g.ruleset.presentation.hex_overlay(allied)
    assert overlay == g.ruleset.presentation.hex_overlay(german)  # public: the same for both sides
    assert set(overlay) == set(g.map.hexes)
    for h, style in overlay.items():
        owner = g.state.map.hexes[h].facts.get("owner", "none")
        assert style["label"].split(" · ")[0] == owner
        if owner in g.state.sides:
            assert style["fillColor"] == g.state.sides[owner].color
    mv = MapView(g, seat="german")
    owners = {f["properties"]["label"].split(" · ")[0] for f in mv.hex_overlay.data["features"]}
    assert {"allied", "german"} <= owners
    drawn = sum(f["properties"]["hexes"] for f in mv.hex_overlay.data["features"])
    assert drawn == len(g.map.hexes)


def test_10_26_the_overlay_shows_an_interdiction_marker_to_both_sides():
    from owsnb.kernel.events import hex_set
    from owsnb.rules.tocs.present import hex_overlay

    from .conftest import board, poke

    g = board()
    poke(g, hex_set(g.hex("0806"), {"interdicted": "allied"}))
    for side in ("allied", "german"):
        style = hex_overlay(g.view(side))[g.hex("0806")]
        assert style["label"] == "german · interdicted" and style["dashArray"] == "4 3"
    assert "dashArray" not in hex_overlay(g.view("allied"))[g.hex("0807")]
