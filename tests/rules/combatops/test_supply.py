"""Supply (7.0-7.3, 5.1, 9.3, 9.6, errata 3.1/5.0)."""

from __future__ import annotations

from owsnb.rules.combatops.movement import reach
from owsnb.rules.combatops.supply import Supply
from owsnb.rules.combatops.terrain import parse_hex

from .conftest import game, to_step

HEADS = {"supply_heads": {"blue": ["A3"], "red": ["H6"]}}


def U(uid, kind, side, hx, **data):
    d = {"id": uid, "type": kind, "side": side, "hex": hx}
    if data:
        d["data"] = data
    return d


def ok(g, uid, **kw):
    return Supply(g.state, g.state.units[uid].side).in_supply(g.state.units[uid], **kw)


def test_7_1_a_clear_line_to_the_supply_head():
    g = game([U("B-1", "b-inf-bn-36", "blue", "E3")], rules=HEADS)
    assert ok(g, "B-1")


def test_5_1_enemy_zoc_blocks_supply_unless_a_friendly_unit_is_there():
    units = [U("B-1", "b-inf-bn-36", "blue", "D3"), U("R-1", "r-inf-bn-49", "red", "A2")]
    g = game(units, rules=HEADS)
    assert not ok(g, "B-1")  # the head A3 lies in R-1's ZOC with no Blue unit in it
    g2 = game([*units, U("B-2", "b-inf-bn-36", "blue", "A3")], rules=HEADS)
    assert ok(g2, "B-1")  # a friendly unit in the ZOC hex reopens the line (errata 3.1)


def test_7_1_enemy_units_on_the_supply_head_cut_it_off():
    g = game(
        [U("B-1", "b-inf-bn-36", "blue", "D3"), U("R-1", "r-inf-bn-49", "red", "A3")],
        rules={"supply_heads": {"blue": ["A3"], "red": ["H6"]}},
    )
    assert not ok(g, "B-1")


def test_9_3_supply_is_not_traced_through_swamp_except_along_a_road():
    swamp = {f"B{r}": "swamp" for r in range(1, 7)}
    g = game([U("B-1", "b-inf-bn-36", "blue", "D3")], terrain=swamp, rules=HEADS)
    assert not ok(g, "B-1")
    road = [{"type": "road", "hexes": ["A3", "B3", "C3"]}]
    g2 = game([U("B-1", "b-inf-bn-36", "blue", "D3")], terrain=swamp, edges=road, rules=HEADS)
    assert ok(g2, "B-1")


def _river_b_c():
    g0 = game([])
    m = g0.state.map
    pairs = []
    for r in range(1, 7):
        b = parse_hex(m, f"B{r}")
        for n in b.neighbours():
            if n in m.hexes and m.offset.to_offset(n)[0] == 3:
                pairs.append({"type": "river", "hexes": [f"B{r}", f"C{m.offset.to_offset(n)[1]}"]})
    return pairs


def test_9_6_supply_crosses_a_river_only_at_a_bridge():
    river = _river_b_c()
    g = game([U("B-1", "b-inf-bn-36", "blue", "D3")], edges=river, rules=HEADS)
    assert not ok(g, "B-1")
    g2 = game(
        [U("B-1", "b-inf-bn-36", "blue", "D3")],
        edges=[*river, {"type": "bridge", "hexes": ["B3", "C3"]}],
        rules=HEADS,
    )
    assert ok(g2, "B-1")


def test_7_1_headquarters_relay_supply_to_their_own_division():
    # R-1's ZOC cuts E2 off from the head A3, but the 36th's HQ at D5 (itself in supply) reaches it
    units = [
        U("B-H", "b-hq-36", "blue", "D5"),
        U("B-1", "b-inf-bn-36", "blue", "E2"),
        U("B-A", "b-arm-bn-2", "blue", "E2"),
        U("R-1", "r-inf-bn-49", "red", "D2"),
    ]
    g = game(units, rules=HEADS)
    assert ok(g, "B-H") and ok(g, "B-1")
    assert not ok(g, "B-A")  # 2nd Arm. Div.: not its HQ (5.1 "their headquarter unit"; digest E4)
    g_any = game(units, rules=HEADS, options={"supply_hq": "any"})
    assert ok(g_any, "B-A")
    g_no_hq = game([u for u in units if u["id"] != "B-H"], rules=HEADS)
    assert not ok(g_no_hq, "B-1")


def test_errata_attached_units_trace_to_the_division_they_are_attached_to():
    units = [
        U("B-H", "b-hq-36", "blue", "D5"),
        U("B-A", "b-arm-bn-2", "blue", "E2", supply_division="36"),
        U("R-1", "r-inf-bn-49", "red", "D2"),
    ]
    assert ok(game(units, rules=HEADS), "B-A")  # 17.1: "(attached to 36th Inf. Div.)"


def test_7_1_the_line_must_run_towards_the_source():
    units = [U("B-1", "b-inf-bn-36", "blue", "D3"), U("R-1", "r-inf-bn-49", "red", "C3")]
    got = {
        mode: ok(game(units, rules=HEADS, options={"supply_path": mode}), "B-1")
        for mode in ("toward", "strictly-toward", "any")
    }
    assert got == {"toward": True, "strictly-toward": False, "any": True}


def test_7_0_supply_is_determined_in_step_1_and_7_3_cut_off_units_keep_their_zoc():
    units = [
        U("B-1", "b-inf-bn-36", "blue", "D3"),
        U("R-1", "r-inf-bn-49", "red", "A2"),
        U("R-2", "r-inf-bn-49", "red", "F3"),
    ]
    g = to_step(game(units, rules={"supply_heads": {"blue": ["A3"], "red": ["G3"]}}), "A3")
    assert g.unit("B-1").data["oos"] is True and not g.unit("R-2").data.get("oos")
    assert "OUT OF supply" in " ".join(str(e) for e in g.log("blue", ["note"]))
    # an out-of-supply Blue unit still stops Red movement (7.3)
    c, _ = reach(g.state, g.state.units["R-2"])
    assert parse_hex(g.state.map, "E3") in c and parse_hex(g.state.map, "D2") not in c
    alone = game([units[2]], rules={"supply_heads": {"blue": ["A3"], "red": ["G3"]}})
    c2, _ = reach(alone.state, alone.state.units["R-2"])
    assert parse_hex(alone.state.map, "D2") in c2  # 2 MP away: only B-1's ZOC stops R-2 in E3
