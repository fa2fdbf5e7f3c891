"""Time and distance for a platform type (issue 6 item 4): a fresh unit of a catalog type, of the
seat's side, on a clicked hex — reach, rings and transit as the rule set computes them, drawn on
the map and tabled; never in the game, never leaked."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.kernel.data import freeze
from owsnb.testing import hidden_tokens
from owsnb.testing import scan_widget_leaks as scan_leaks
from owsnb.widgets import App, MapView, Table, TimeDistancePanel
from owsnb.widgets.whatif import WHAT_IF, catalog_types, what_if_unit


@pytest.fixture(scope="module")
def tutorial():
    return owsnb.load("tutorial", seed=3, save=False)


def _fingerprint(game):
    return game.state_id, game.seq, tuple(sorted(game.state.units))


def test_an_f35_strike_type_on_a_clicked_hex_shows_its_combat_radius_rings_6_5_2(tutorial):
    before = _fingerprint(tutorial)
    table = Table.of(tutorial, "blue")
    mv, td = MapView(table), TimeDistancePanel(table)
    table.show_ranges = True
    assert td.study_box.layout.display is None  # the tutorial has catalogs: the list is shown
    td.kind.value = "us-f35a-strike"  # chosen before any click: the next hex clicked places it
    assert table.what_if is None and "click the hex" in td.out.value
    table.pick(hex="0305")
    probe = table.what_if
    assert probe.kind == "us-f35a-strike" and probe.side == "blue" and probe.id.startswith(WHAT_IF)
    rows = td.rows()
    assert rows["what_if"] == {"type": "us-f35a-strike", "side": "blue", "at": "0305"}
    radius = [r for r in rows["ranges"] if r["kind"] == "radius"]
    # 6.5.2 / 6.5.3: the catalog's combat radius, and 3x with a tanker for a Strike mission
    data = catalog_types(table.view)["us-f35a-strike"].data
    assert [r["hexes"] for r in radius] == [data["combat_radius"], 3 * data["combat_radius"]]
    assert "what if" in td.out.value and "0305" in td.out.value
    # the map draws the same rings around the hypothetical unit — those that fit on it: on the
    # 20 km tutorial map (21 x 15 hexes) a 55-hex radius reaches past every edge, so the legend
    # says so instead of a ring far off the map
    h = table.view.map.hex("0305")
    far = max(h.distance(x) for x in table.view.map.hexes)
    drawn = [f["properties"] for f in mv.overlays["ranges"].data["features"]]
    assert [p["hexes"] for p in drawn if p["kind"] == "radius"] == [
        r["hexes"] for r in radius if r["hexes"] <= far
    ]
    assert all(r["hexes"] > far for r in radius)  # (why none is drawn here)
    legend = mv.measure.legend.value
    assert legend.count("past every edge of this map") == 2 and "per mission" in legend
    assert [(x["hexes"], x["#"]) for x in rows["ranges"] if x["kind"] == "radius"]
    assert mv.overlays["reach"].data["features"][0]["properties"]["unit"] == probe.id
    # measuring the way from it: a later click is the destination
    table.pick(hex="0309")
    assert td.rows()["distance"]["hexes"] == table.view.map.hex("0305").distance(
        table.view.map.hex("0309")
    )
    assert table.what_if == probe and not td.here.disabled
    td.here.click()  # "stand here": the what-if moves to the last hex clicked
    assert td.rows()["what_if"]["at"] == "0309"
    # nothing of it is in the game, in any side's view, or in the other side's browser
    assert _fingerprint(tutorial) == before
    assert all(probe.id not in tutorial.view(s).units for s in ("blue", "red", "umpire"))
    td.kind.value = ""  # "—" ends the study
    assert table.what_if is None and "what_if" not in td.rows()
    assert all(f["properties"]["unit"] != probe.id for f in mv.overlays["reach"].data["features"])


def test_a_what_if_unit_has_the_reach_and_rings_of_a_fresh_unit_of_its_type_6_4(tutorial):
    """The hooks run unchanged: at a real, unmodified unit's hex, a what-if of its type has the
    same reach and range rings as the real unit."""
    view = tutorial.view("blue")
    rs, types = tutorial.ruleset, catalog_types(view)
    same = [
        u
        for u in view.own_units
        if u.hex is not None
        and freeze(rs.validate_unit(u.kind, dict(types[u.kind].data))[0]) == u.data
        and u.steps == types[u.kind].steps
        and not u.markers
    ]
    assert same, "the tutorial has fresh units straight from the catalog"
    for real in same:
        probe = what_if_unit(view, rs, real.kind, view.map.label(real.hex), types=types)
        study = view.with_unit(probe)
        assert dict(rs.presentation.reach(study, probe.id)) == dict(
            rs.presentation.reach(view, real.id)
        ), real.id
        assert [(r["label"], r["hexes"]) for r in rs.presentation.ranges(study, probe.id)] == [
            (r["label"], r["hexes"]) for r in rs.presentation.ranges(view, real.id)
        ], real.id


def test_a_mech_brigade_type_gets_reach_and_transit_by_mode_5_1_and_10_10(tutorial):
    before = _fingerprint(tutorial)
    td = TimeDistancePanel(tutorial, seat="blue")
    blue = next(u for u in tutorial.view("blue").own_units if u.kind == "tw-kinmen-bde")
    land = td.table.view.map.label(blue.hex)
    td.study("tw-mech-bde", at=land)
    r = td.rows()
    assert r["reach"]["hexes"] > 1 and r["reach"]["farthest"] >= 1
    td.table.pick(
        hex=td.table.view.map.label(
            next(h for h in tutorial.view("blue").map.hexes if h.distance(blue.hex) == 3)
        )
    )
    modes = [row["mode"] for row in td.rows()["transit"]]
    assert modes[0].startswith("ground:") and {"rail", "HET"} <= set(modes)
    assert "<b>transit</b>" in td.out.value
    assert _fingerprint(tutorial) == before


def test_western_pacific_a_df21_battery_for_blue_and_the_umpire_studies_the_side_acting():
    game = owsnb.load("western-pacific", seed=1, save=False)
    before = _fingerprint(game)
    app = App(game, seat="blue", curtain=False)
    app.show_tab("distance")
    td = app.tabs.children[list(app.tabs.titles).index("distance")]
    kind = next(k for k in catalog_types(app.table.view) if "df21" in k)
    own = next(u for u in app.table.view.own_units if u.hex is not None)
    td.study(kind, at=app.table.view.map.label(own.hex))
    rows = td.rows()
    assert rows["what_if"]["side"] == "blue"
    assert any(r["kind"] == "weapon" and r["hexes"] > 0 for r in rows["ranges"])
    # blue's browser holds nothing blue has not detected, the what-if included
    assert scan_leaks(app, hidden_tokens(game.state, "blue", game.ruleset)) == []
    assert _fingerprint(game) == before
    # a change of seat ends the study (the what-if was blue's)
    app.table.switch("umpire")
    assert app.table.what_if is None
    td.study(kind, at=app.table.view.map.label(own.hex))
    acting = app.table.actor
    assert td.rows()["what_if"]["side"] == (
        acting if acting in game.state.sides else next(iter(game.state.sides))
    )
    assert _fingerprint(game) == before


def test_choosing_a_unit_ends_the_study_and_unknown_types_are_refused(tutorial):
    td = TimeDistancePanel(tutorial, seat="red")
    red = next(u for u in td.table.view.own_units if u.hex is not None)
    td.study("prc-hq9", at=td.table.view.map.label(red.hex))
    assert td.rows()["unit"].startswith(WHAT_IF)
    td.unit.value = red.id
    assert td.table.what_if is None and td.rows()["unit"] == red.id
    with pytest.raises(KeyError, match="no unit type"):
        td.study("no-such-type", at="0101")
    td.kind.value = "prc-hq9"
    td.table.clear()
    assert td.table.what_if is None and td.kind.value == ""
    td.kind.value = "prc-hq9"  # no hex picked: waiting for one ...
    assert "click the hex" in td.out.value
    td.kind.value = ""  # ... until the study ends
    assert "click the hex" not in td.out.value and td._pending is None


@pytest.mark.parametrize(
    "scenario",
    [
        "opart-kalinovka",
        "combatops-blue-attack",
        "tocs-nijmegen",
        "opscale-river-valley",
        "baltic-ground",
    ],
)
def test_every_rule_sets_panel_studies_each_catalog_type_without_leaks(scenario):
    game = owsnb.load(scenario, seed=2, save=False)
    side = next(iter(game.state.sides))
    before = _fingerprint(game)
    table = Table.of(game, side)
    td = TimeDistancePanel(table)
    types = catalog_types(table.view)
    assert types and td.study_box.layout.display is None
    at = next(u.hex for u in table.view.own_units if u.hex is not None)
    far = max(table.view.map.hexes, key=lambda h: h.distance(at))
    tokens = hidden_tokens(game.state, side, game.ruleset)
    own_kinds = {u.kind for u in table.view.own_units}
    studied = 0
    for kind in list(types)[:12]:
        try:
            td.study(kind, at=table.view.map.label(at))
        except ValueError as exc:  # a type needing per-unit facts its side has no unit to lend
            assert kind not in own_kinds and "needs facts" in str(exc), kind
            continue
        studied += 1
        table.pick(hex=table.view.map.label(far))
        rows = td.rows()
        assert rows["what_if"]["type"] == kind and "transit_error" not in rows, kind
        assert rows["distance"]["hexes"] == at.distance(far)
        assert scan_leaks(td, tokens) == [], kind
    assert studied >= min(6, len(types))
    assert _fingerprint(game) == before
