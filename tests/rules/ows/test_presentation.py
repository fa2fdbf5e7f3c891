"""Presentation hooks: OWS counters, terrain styles, summaries, range rings, dashboard; nothing hidden leaks."""

from owsnb.display.symbols import unit_svg
from owsnb.rules.ows import presentation
from owsnb.testing import find_leaks, hidden_tokens

from .conftest import load


def test_counter_shows_dice_in_ladder_colours_shields_steps_and_escapes_text():
    """2.1: "black D4, red D6, yellow D8, green D10, blue D12..."; 2.2.2.8 red and grey shields."""
    g = load()
    v = g.view("blue")
    u = v.units["DDG-1"].evolve(id="DDG-<b>", name="<script>alert(1)</script>")
    c = g.ruleset.presentation.counter(u, v)
    assert c.symbol == "surface-combatant" and c.dice and c.shields[0].fill == "#c62828"
    assert "#1565c0" in {d.fill for d in c.dice}  # the blue D12 (2.1 colours)
    svg = str(unit_svg(g.ruleset, u, v, 96))
    assert svg.startswith("<svg") and "<b>" not in svg and "&lt;b&gt;" in svg
    assert "<script>" not in svg


def test_counter_of_a_face_down_unit_shows_nothing_but_its_side():
    g = load(options={"face_down": True})
    u = next(u for u in g.view("red").units.values() if u.kind == "unknown")
    c = g.ruleset.presentation.counter(u, g.view("red"))
    assert c.face_down and c.designation == "" and c.side == u.side
    assert ">?</text>" in str(unit_svg(g.ruleset, u, g.view("red")))


def test_terrain_styles_for_deep_sea_littoral_land_urban():
    assert (
        presentation.terrain_style("deep-sea")["fillColor"]
        != presentation.terrain_style("littoral")["fillColor"]
    )
    assert presentation.terrain_style("urban")["fillColor"] == "#9e9e9e"
    assert "fillColor" in presentation.terrain_style("no-such-terrain")


def test_ranges_weapons_umbrella_sensor_and_combat_radius_1x_2x_3x():
    g = load()
    rings = g.ruleset.presentation.ranges(g.view("blue"), "F35-CAP")
    radius = [r["hexes"] for r in rings if r["kind"] == "radius"]
    assert radius == [2, 4, 6]
    ddg = {r["kind"] for r in g.ruleset.presentation.ranges(g.view("blue"), "DDG-1")}
    assert {"weapon", "umbrella", "sensor"} <= ddg
    assert g.ruleset.presentation.ranges(g.view("blue"), "Type055-1") == []  # not visible to Blue


def test_2_1_3_dashboard_space_tracks_munitions_forces_and_no_leak():
    """2.1.3: "The Space Capability Dashboard depicts each side's capabilities with respect to
    Command and Control (C2) Networks; Position, Navigation, and Timing (PNT); and Theater
    Intelligence, Surveillance, and Reconnaissance (ISR)" — drawn as its tracks, a marker on
    each row's value; munitions in words; another side's numbers only as seen."""
    g = load()
    d = g.ruleset.presentation.dashboard(g.view("red"))
    rows = {r["label"]: r for r in d["blue"]["space"]["rows"]}
    assert d["blue"]["space"]["kind"] == "tracks" and list(rows) == [
        "C2",
        "PNT",
        "ISR die",
        "ISR pawns",
    ]
    assert rows["C2"]["value"] == 3 and rows["C2"]["value"] in rows["C2"]["steps"]
    red_rows = {r["label"]: r for r in d["red"]["space"]["rows"]}
    assert red_rows["ISR die"]["value"] == "d8" and "d8" in red_rows["ISR die"]["steps"]
    assert rows["PNT"]["steps"] == ["normal", "disrupted"]
    own = d["red"]["salvos left of a full load"]
    assert own["kind"] == "track" and 0 < own["value"] <= own["max"]
    assert "salvos left (of the units seen)" in d["blue"]  # red's estimate of blue
    assert find_leaks(d, hidden_tokens(g.state, "red", g.ruleset)) == []


def test_unit_summary_rows():
    g = load()
    rows = dict(g.ruleset.presentation.unit_summary(g.unit("DDG-1"), g.view("blue")))
    assert rows["red shield"] == "5" and "D12" in rows["attack sm6"] and "BMD" in rows["grey sm6"]


def test_the_packaged_example_loads():
    from owsnb.rules.ows import example

    g = example(seed=2)
    assert g.state.scenario["id"] == "ows-strait" and len(g.units) == 22
