"""Presentation hooks: counters, summaries, reach, ranges, dashboard, terrain styles, board picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from owsnb.display.symbols import unit_svg
from owsnb.rules.opart import RULESET, movement, present
from owsnb.rules.opart.tables import default_tables

from .conftest import battlefield


def test_counters_are_well_formed_svg_for_every_stand(kalinovka):
    v = kalinovka.view("soviet")
    for u in v.units.values():
        svg = str(unit_svg(RULESET, u, v, 48))
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and root.get("width") == "48"
        assert f">{u.steps}<" in svg  # the combat value is printed on the counter (§8)


def test_counter_escapes_scenario_strings():
    g = battlefield(
        [
            (
                "S-1",
                "sov-rifle-conscript",
                "soviet",
                "0505",
                "sov",
                {"label": "<script>x</script>&"},
            ),
            ("S-HQ", "sov-general-average", "soviet", "1109", "sov"),
            ("G-HQ", "ger-general-average", "axis", "1101", "ger"),
        ]
    )
    v = g.view("axis")
    svg = str(unit_svg(RULESET, v.unit("S-1"), v, 48))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)


def test_divisional_command_counter_shows_division_morale(kalinovka):
    v = kalinovka.view("axis")
    assert RULESET.presentation.counter(v.unit("74-HQ"), v).left == "6"
    assert ">6</text>" in str(unit_svg(RULESET, v.unit("74-HQ"), v, 48))


def test_unit_summary_rows(kalinovka):
    v = kalinovka.view("axis")
    rows = dict(RULESET.presentation.unit_summary(v.unit("74-360"), v))
    assert rows["combat value"] == "2 of 2 (§8)"
    assert rows["division morale"] == "6 of 6 (§9)"
    assert rows["die"] == "D10 (§11)" and rows["range"] == "2 hexes (§14)"
    assert rows["move"].startswith("2 hexes") and rows["facing"] == "N"
    rows = dict(RULESET.presentation.unit_summary(v.unit("29-HQ"), v))
    assert "division morale" not in rows and rows["range"].startswith("does not initiate")


def test_reach_hook_is_the_movement_reach(kalinovka):
    v = kalinovka.view("soviet")
    got = RULESET.presentation.reach(v, "29-TB")
    assert got == movement.reach(v, v.unit("29-TB")).cost and max(got.values()) <= 5
    assert RULESET.presentation.reach(v, "no-such-stand") is None


def test_ranges_hook(kalinovka):
    v = kalinovka.view("axis")
    assert [(r["kind"], r["hexes"]) for r in RULESET.presentation.ranges(v, "168-AR")] == [
        ("weapon", 6)
    ]
    assert [(r["kind"], r["hexes"]) for r in RULESET.presentation.ranges(v, "29-GM")] == [
        ("weapon", 8)
    ]
    assert [(r["kind"], r["hexes"]) for r in RULESET.presentation.ranges(v, "168-HQ")] == [
        ("command", 1)
    ]


def test_dashboard_shows_morale_tracks_points_and_tables(kalinovka):
    d = RULESET.presentation.dashboard(kalinovka.view("soviet"))
    assert d["morale"]["74th Rifle Division"] == {
        "kind": "track",
        "value": 6,
        "max": 6,
        "rule": "9",
    }
    assert "29th Rifle Corps assets" not in d["morale"]
    assert d["victory points"] == {"axis": 7, "soviet": 0}
    assert d["battle"]["turn"] == "1 of 12" and d["battle"]["cards turned"] == "1 of 6"
    assert {r["formation"] for r in d["formations"]} >= {
        "74th Rifle Division",
        "19th Panzer Division",
    }
    assert [o["objective"] for o in d["objectives"]] == [
        "Kalinovka",
        "Hill 214",
        "Oboyan road junction",
    ]


def test_dashboard_does_not_depend_on_the_hidden_card_order(kalinovka):
    s = kalinovka.state
    other = s.evolve(secret={**s.secret, "deck": list(reversed(s.secret["deck"]))})
    from owsnb.kernel.view import side_view

    a = RULESET.presentation.dashboard(side_view(s, "soviet", RULESET))
    b = RULESET.presentation.dashboard(side_view(other, "soviet", RULESET))
    assert a == b


def test_terrain_styles_cover_the_vocabulary():
    for key in default_tables()["terrain"]:
        st = RULESET.presentation.terrain_style(key)
        assert st["fillColor"].startswith("#") and 0 < st["fillOpacity"] <= 1
    assert RULESET.presentation.terrain_style("no-such-terrain")["fillColor"] == "#dddddd"


def test_board_svg_is_well_formed(kalinovka):
    svg = present.board_svg(kalinovka.view("axis"), 600, reach_of="19-PZ")
    root = ET.fromstring(svg)
    assert root.get("width") == "600" and svg.count("<polygon") >= 140
