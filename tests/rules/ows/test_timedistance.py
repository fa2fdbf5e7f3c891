"""The time-distance API (owsnb.rules.ows.timedistance) and the presentation hooks built on it:
reach (10.10, 6.4, 6.5.2), transit by every mode (5.1.1.2-5.1.1.5, C1), range rings (2.2.2.1, 2.2.7.1,
2.2.7.4, 6.5.2, 6.5.3, 6.5.9.4) in hexes, km and nm."""

import math

from owsnb.rules.ows import strategic as st
from owsnb.rules.ows import timedistance as td
from owsnb.testing import find_leaks, hidden_tokens

from .conftest import at
from .ground_kit import blank, gload


def test_reach_is_plain_data_hex_to_cost_and_the_hook_returns_it_for_the_sides_view():
    g = gload()
    r = td.reach(g, "2SBCT")
    assert all(isinstance(v, float) for v in r.values()) and r[g.hex("0506")] == 0.0
    assert r[g.hex("0606")] == 1.0  # along the road
    hook = g.ruleset.presentation.reach(g.view("blue"), "2SBCT")
    assert dict(hook) == dict(r)
    s = r.summary()
    assert s["km"] == s["farthest"] * 20 and s["nm"] == round(s["farthest"] * 20 / 1.852, 1)
    assert g.ruleset.presentation.reach(g.view("red"), "2SBCT") is None  # not visible to red
    assert (
        g.ruleset.presentation.ranges(g.view("red"), "2SBCT") == []
        and g.ruleset.presentation.transit(g.view("red"), "2SBCT", "0606") == []
    )


def test_reach_uses_only_what_the_side_knows_M3():
    g = gload()
    hidden = td.reach(g.view("blue"), "2SBCT")
    from owsnb.kernel.events import unit_set

    from .conftest import with_events

    seen = with_events(g, [unit_set("12TR", seen_by=frozenset({"blue"}))])
    known = td.reach(seen.view("blue"), "2SBCT")
    assert (
        len(known) < len(hidden) and g.hex("0805") not in known
    )  # the detected brigade blocks and its ZOC stops
    payload = [str(h) for h in hidden] + [hidden._repr_html_()]
    assert not find_leaks(payload, hidden_tokens(g.state, "blue", g.ruleset))


def test_hidden_enemy_in_the_way_halts_the_move_where_it_is_met_and_is_detected_M3():
    g = at(gload(units={"R-LI": {"hex": "0706"}}), "6.C.3")
    res = g.submit("blue: move 2SBCT 0906").result
    assert res.outcome["halted"] and "contact" in res.outcome["halted"]
    assert "blue" in g.state.units["R-LI"].seen_by and g.state.units["2SBCT"].hex == g.hex("0606")


def test_rings_weapons_umbrella_sensor_command_radius_and_combat_radius_from_the_fuel_source():
    g = gload()
    art = td.rings(g, "ART-1")
    assert art == [
        {
            "label": "D10 vs ground (fires, 2/2)",
            "kind": "weapon",
            "hexes": 2,
            "km": 40.0,
            "nm": 21.6,
            "colour": "#2e7d32",
            "centre": "0405",
            "rule": "2.2.2.1",
        }
    ]
    ddg = td.rings(g, "DDG-1")
    assert sorted(r["hexes"] for r in ddg if r["kind"] == "weapon") == [0, 1, 4]
    assert [r["hexes"] for r in ddg if r["kind"] in ("umbrella", "sensor")] == [1, 1]
    hq = [r for r in td.rings(g, "HQ-1D") if r["kind"] == "command"][0]
    assert hq["hexes"] == 10 and hq["km"] == 200.0  # TAC 2 zones of 100 km on 20 km hexes
    c17 = [r for r in td.rings(g, "C17-1") if r["kind"] == "radius"]
    assert [r["hexes"] for r in c17] == [10] and c17[0][
        "centre"
    ] == "0404"  # transports: no 6.5.3 extension
    cas = gload(
        add=[
            {"id": "CAS", "type": "cas", "side": "blue", "box": "base", "data": {"base": "AIRLIFT"}}
        ]
    )
    rr = [r for r in td.rings(cas, "CAS") if r["kind"] == "radius"]
    assert [r["hexes"] for r in rr] == [6, 12, 18] and all(
        r["centre"] == "0404" for r in rr
    )  # 1x, 2x CAS, 3x Strike
    assert g.ruleset.presentation.ranges(g.view("blue"), "ART-1") == art


def test_transit_by_road_rail_het_airlift_with_their_overheads():
    g = gload(units={"2SBCT": {"hex": "0405"}})
    rows = {r["mode"].split(":")[0]: r for r in td.transit(g, "2SBCT", "0906")}
    road = rows["ground"]
    assert road["feasible"] and road["turns"] == 1 and road["days"] == 1.0
    het = rows["HET"]
    assert het["turns"] == 2 and "RSO&I" in het["overheads"]  # move, then a full turn in RSO&I
    rail = rows["rail"]
    legs = rail["turns"] - st.rail_turns(float(rail["notes"].split(", ")[1].split(" km")[0]), 600)
    assert rail["feasible"] and legs >= 0
    assert (
        "3 transport mission(s)" in rows["airlift"]["notes"]
        and "RSO&I" in rows["airlift"]["overheads"]
    )
    assert g.ruleset.presentation.transit(g.view("blue"), "2SBCT", g.hex("0906"))[0][
        "mode"
    ].startswith("ground")


def test_transit_at_sea_normal_and_flank_speed_and_sealift_overheads():
    sea = {f"{c:02d}{r:02d}": "deep-sea" for c in range(1, 9) for r in range(1, 9)}
    g = blank(
        [
            {
                "id": "SSN",
                "type": "ddg",
                "side": "blue",
                "hex": "0101",
                "data": {"category": "submarine", "subtype": "ssn"},
            },
            {"id": "CVN", "type": "ddg", "side": "blue", "hex": "0101", "data": {"subtype": "cvn"}},
        ],
        terrain=sea,
        size=370.4,
        meta={},
    )
    rows = td.transit(g, "SSN", "0801")
    n = rows[0]["hexes"]
    assert [r["turns"] for r in rows] == [
        math.ceil(n / 2),
        math.ceil(n / 3),
    ]  # 2 a turn quietly, 3 cavitating
    assert td.transit(g, "CVN", "0801")[0]["turns"] == math.ceil(n / 4)
    assert round(rows[0]["nm"]) == n * 200
    coast = blank(
        [
            {"id": "LMSR", "type": "lmsr", "side": "blue", "hex": "0303"},
            {"id": "BN", "type": "mech-bn", "side": "blue", "hex": "0303"},
        ],
        terrain={f"01{r:02d}": "deep-sea" for r in range(1, 9)}
        | {f"02{r:02d}": "littoral" for r in range(1, 9)},
        features=[
            {"hex": "0303", "type": "port", "capacity": 4, "owner": "blue"},
            {"hex": "0307", "type": "port", "capacity": 4, "owner": "blue"},
        ],
    )
    sl = [r for r in td.transit(coast, "BN", "0307") if r["mode"] == "sealift"][0]
    assert (
        sl["turns"] == 1 + 1 and "RSO&I" in sl["overheads"]
    )  # sail (1 turn) + one full turn in RSO&I


def test_transit_for_air_missions_with_and_without_tanker_6_5_2_6_5_3():
    g = gload()
    rows = td.transit(g, "C17-1", "1106")
    assert rows[0]["feasible"] and rows[0]["turns"] == 1
    far = blank(
        [
            {"id": "BASE", "type": "airlift-base", "side": "blue", "hex": "0101"},
            {"id": "F", "type": "cas", "side": "blue", "box": "base", "data": {"base": "BASE"}},
        ],
        cols=20,
        rows=4,
    )
    r = {x["mode"]: x for x in td.transit(far, "F", "1001")}
    assert not r["air: combat radius"]["feasible"] and r["air: with tanker/FARP (2x)"]["feasible"]


def test_reach_and_transit_html_escape_every_string():
    g = gload(units={"2SBCT": {"name": "<b>2 SBCT</b>"}})
    html = td.reach(g, "2SBCT")._repr_html_() + td.transit(g, "2SBCT", "0606")._repr_html_()
    assert "<b>2 SBCT" not in html and "<table>" in html
