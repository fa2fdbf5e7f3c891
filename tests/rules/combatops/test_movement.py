"""Movement (8.0, 9.1-9.8), zones of control (5.0, 5.1), stacking (6.0), exploitation (10.0),
engineers (9.7), reinforcements and replacements (14.0-14.2), regiment breakdown (17.0)."""

from __future__ import annotations

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.game import Game
from owsnb.rules.combatops import RULESET
from owsnb.rules.combatops.movement import ALL, reach, step_cost
from owsnb.rules.combatops.supply import Supply
from owsnb.rules.combatops.terrain import hexid, parse_hex, zoc
from owsnb.rules.combatops.units import hits

from .conftest import at, edit, game, to_step


def U(uid, kind, side, hx=None, **data):
    d = {"id": uid, "type": kind, "side": side}
    if hx is not None:
        d["hex"] = hx
    if data:
        d["data"] = data
    return d


def H(g, ref):
    return parse_hex(g.state.map, ref)


def cost(g, a, b, cls="foot", ma=3):
    return step_cost(g.state, H(g, a), H(g, b), cls, ma)


def refused(g, order, code):
    before = (g.state_id, g.seq)
    with pytest.raises(IllegalOrderError) as exc:
        g.submit(order)
    assert exc.value.code == code, exc.value
    assert (g.state_id, g.seq) == before
    return exc.value


def with_public(g: Game, **changes) -> Game:
    return Game(RULESET, g.state.evolve(public=g.state.public.set(**changes)))


def test_9_x_digest_test_15_movement_costs():
    g = game(
        [],
        terrain={"D3": "woods", "E3": "swamp", "F3": "town"},
        elevation={"D3": 1},
        edges=[
            {"type": "river", "hexes": ["C3", "C4"]},
            {"type": "bridge", "hexes": ["C3", "C4"]},
            {"type": "river", "hexes": ["B3", "B4"]},
        ],
    )
    assert cost(g, "C3", "D3", "mech", 4) == 4  # woods 3 + uphill 1 (9.2, 9.5)
    assert cost(g, "C3", "D3", "foot") == 3  # woods 2 + uphill 1
    assert cost(g, "C3", "C4", "foot") == 3  # clear 1 + bridge 2 (9.7)
    assert cost(g, "B3", "B4", "foot") is None  # river without a bridge (9.6)
    assert cost(g, "D4", "E3", "mech", 4) is None  # swamp prohibited to mechanized units (9.3)
    assert cost(g, "D4", "E3", "artillery") is None  # ... and to artillery (9.3)
    assert cost(g, "D4", "E3", "foot") == ALL  # all of a foot unit's MP
    assert cost(g, "E4", "F3", "mech", 4) == 3 and cost(g, "E4", "F3", "foot") == 2  # town (9.4)
    g2 = with_public(g, bridges={"C3|C4": {"kind": "infantry", "side": "blue"}})
    assert (
        cost(g2, "C3", "C4", "mech", 4) is None
    )  # infantry bridges carry only non-motorized units
    assert cost(g2, "C3", "C4", "foot") == 3


def test_9_8_roads_halve_the_base_cost_at_most_two():
    g = game(
        [],
        terrain={"D3": "woods", "E3": "swamp"},
        elevation={"E3": 1},
        edges=[{"type": "road", "hexes": ["C3", "D3", "E3"]}],
    )
    assert cost(g, "C3", "D3", "mech", 4) == 1  # floor(3/2), minimum 1
    assert cost(g, "C3", "D3", "foot") == 1  # floor(2/2)
    assert cost(g, "D3", "E3", "mech", 4) == 3  # swamp along a road: min(2, floor(MA/2)) + uphill 1
    assert cost(g, "D4", "E3", "mech", 4) is None  # off the road the swamp stays prohibited


def test_5_1_units_stop_on_entering_an_enemy_zoc_and_may_leave_one():
    g = game([U("B-A", "b-arm-bn-2", "blue", "B3"), U("R-I", "r-inf-bn-49", "red", "E3")])
    c, _ = reach(g.state, g.state.units["B-A"])
    assert H(g, "D3") in c and H(g, "D4") in c  # D3 lies in R-I's ZOC: reachable ...
    assert H(g, "F3") not in c  # ... but not through; F3 is reachable only past the ZOC
    g2 = edit(g, "B-A", hex="D3")
    c2, _ = reach(g2.state, g2.state.units["B-A"])
    assert H(g2, "B3") in c2  # leaving a ZOC is free (owsnb ruling #7)


def test_errata_14_0_dummies_and_hqs_exert_zoc_but_not_across_rivers():
    g = game(
        [U("R-D", "r-dummy-inf-reg", "red", "E3"), U("R-H", "r-hq-49", "red", "G3")],
        edges=[{"type": "river", "hexes": ["D3", "E3"]}],
    )
    z = {hexid(g.state.map, h) for h in zoc(g.state, "red")}
    assert {"E3", "E2", "E4", "D2", "F2", "F3"} <= z  # a dummy's ZOC (errata 14.0)
    assert "D3" not in z  # no ZOC across a river hexside (9.6)
    assert {"G2", "H3"} <= z  # an HQ's ZOC (errata 3.0)
    g2 = game([U("R-H", "r-hq-49", "red", "G3")], options={"hq_zoc": False})
    assert zoc(g2.state, "red") == set()  # rule 5.0 as printed


def test_8_0_a_unit_may_always_enter_one_adjacent_hex():
    g = game([U("R-I", "r-inf-bn-49", "red", "E3")], terrain={"E2": "woods"}, elevation={"E2": 1})
    c, _ = reach(g.state, g.state.units["R-I"])
    assert (
        c[H(g, "E2")] == 2
    )  # woods 2 + uphill 1 = 3 > MA 2, yet enterable for the whole allowance


def test_9_3_swamp_takes_the_whole_allowance():
    g = game([U("B-I", "b-inf-bn-36", "blue", "C3")], terrain={"E3": "swamp", "D3": "swamp"})
    c, _ = reach(g.state, g.state.units["B-I"])
    assert c[H(g, "D3")] == 3 and H(g, "E3") not in c  # only as the first hex of a move
    g2 = game(
        [U("B-I", "b-inf-bn-36", "blue", "C3")],
        terrain={"E3": "swamp"},
        options={"swamp_entry": "all-remaining"},
    )
    c2, _ = reach(g2.state, g2.state.units["B-I"])
    assert c2[H(g2, "E3")] == 3  # the alternative: after D3 (1 MP) the swamp takes the rest


def test_8_0_move_orders_and_their_refusals():
    g = to_step(
        game(
            [
                U("B-I", "b-inf-bn-36", "blue", "B3"),
                U("B-R", "b-inf-reg-36", "blue", "C4"),
                U("B-J", "b-inf-bn-36", "blue", "A4"),
                U("R-I", "r-inf-bn-49", "red", "G3"),
            ]
        ),
        "A3",
    )
    refused(g, "blue: move B-I H6", "out-of-reach")
    refused(g, "blue: move B-I G3", "out-of-reach")  # enemy-occupied (8.0)
    g.submit("blue: move B-I C4")  # regiment (3) + battalion (1) = 4: legal (6.0)
    assert at(g, "B-I") == "C4" and g.unit("B-I").has("moved")
    e = refused(g, "blue: move B-J C4", "overstacked")  # a fifth battalion's worth
    assert e.rule == "6.0"
    refused(g, "blue: move B-I C5", "moved")


def test_7_2_out_of_supply_units_move_at_half_rate():
    g = game([U("B-A", "b-arm-bn-2", "blue", "B3")])
    full, _ = reach(g.state, g.state.units["B-A"])
    g2 = edit(g, "B-A", data={"oos": True})
    half, _ = reach(g2.state, g2.state.units["B-A"])
    assert max(full.values()) == 4 and max(half.values()) == 2


def test_10_0_exploitation_movement_and_combat():
    units = [
        U("B-A", "b-arm-bn-2", "blue", "B3"),
        U("B-B", "b-arm-bn-2", "blue", "B5"),
        U("B-I", "b-inf-bn-36", "blue", "A2"),
        U("R-I", "r-inf-bn-49", "red", "G4"),
    ]
    g = to_step(game(units), "A3")
    g.submit("blue: move B-B C5")
    to_step(g, "A5")
    assert (
        g.unit("B-A").has("exploit")
        and not g.unit("B-B").has("exploit")
        and not g.unit("B-I").has("exploit")
    )
    refused(g, "blue: move B-B D5", "moved")  # moved in step 3
    refused(g, "blue: move B-I B2", "not-exploiting")  # not motorized
    g.submit("blue: move B-A F4")
    to_step(g, "A6")
    res = g.submit("blue: attack G4 with=B-A").result  # eligible units fight in step 6
    assert res.attack == [res.attack[0]] and res.attack[0].unit == "B-A"


RIVER_3_4 = [
    ("A3", "A4"),
    ("B3", "C4"),
    ("B3", "A4"),
    ("B3", "B4"),
    ("C3", "C4"),
    ("D3", "E4"),
    ("D3", "C4"),
    ("D3", "D4"),
    ("E3", "E4"),
    ("F3", "G4"),
    ("F3", "E4"),
    ("F3", "F4"),
    ("G3", "G4"),
    ("H3", "G4"),
    ("H3", "H4"),
]  # every hexside between rows 1-3 and rows 4-6


def _bridgehead(**options):
    edges = [{"type": "river", "hexes": list(p)} for p in RIVER_3_4] + [
        {"type": "bridge", "hexes": ["D3", "C4"]}
    ]
    g = game(
        [U("B-A", "b-arm-bn-2", "blue", "D3"), U("R-I", "r-inf-bn-49", "red", "H6")],
        edges=edges,
        rules={"supply_heads": {"blue": ["A3"], "red": ["H6"]}},
        options=options,
    )
    return to_step(g, "A5")


def test_10_0_no_exploiting_unit_may_move_out_of_supply():
    # across the bridge, C4's only supply line runs back through D3, away from the head A3 (7.1)
    g = _bridgehead()
    assert H(g, "C4") not in Supply(g.state, "blue").hexes("2")
    refused(g, "blue: move B-A C4", "out-of-reach")
    g.submit("blue: move B-A B3")
    g = _bridgehead(exploit_supply="end-hex")
    refused(g, "blue: move B-A C4", "out-of-supply")
    g = _bridgehead(supply_path="any")  # without the direction rule C4 is in supply
    g.submit("blue: move B-A C4")
    assert at(g, "B-A") == "C4"


def test_9_7_engineers_build_bridges_in_engineer_turns():
    river = [{"type": "river", "hexes": ["C3", "C4"]}]
    # one engineer: an infantry bridge after two consecutive turns
    g = to_step(game([U("B-E", "b-eng-36", "blue", "C3")], edges=river), "A3")
    g.submit("blue: build B-E C4 kind=infantry")
    to_step(g, "D2")
    assert "C3|C4" not in g.state.public["bridges"]
    to_step(g, "A3")
    to_step(g, "D2")
    assert g.state.public["bridges"]["C3|C4"]["kind"] == "infantry"
    # two engineers: one turn; an armor bridge takes two
    g = to_step(
        game([U("B-E", "b-eng-36", "blue", "C3"), U("B-F", "b-eng-36", "blue", "C3")], edges=river),
        "A3",
    )
    g.submit("blue: build B-E C4 kind=armor")
    g.submit("blue: build B-F C4 kind=armor")
    to_step(g, "D2")
    assert "C3|C4" not in g.state.public["bridges"]
    to_step(g, "A3")
    to_step(g, "D2")
    assert g.state.public["bridges"]["C3|C4"]["kind"] == "armor"
    # one engineer: an armor bridge takes four turns
    g = to_step(game([U("B-E", "b-eng-36", "blue", "C3")], edges=river), "A3")
    g.submit("blue: build B-E C4 kind=armor")
    done_after = None
    for turn in range(1, 6):
        to_step(g, "D2")
        if "C3|C4" in g.state.public["bridges"] and done_after is None:
            done_after = turn
        to_step(g, "A3")
    assert done_after == 4
    # moving interrupts the work
    g = to_step(game([U("B-E", "b-eng-36", "blue", "C3")], edges=river), "A3")
    g.submit("blue: build B-E C4 kind=infantry")
    to_step(g, "D2")
    to_step(g, "A3")
    g.submit("blue: move B-E B3")
    to_step(g, "D2")
    assert "C3|C4" not in g.state.public["bridges"] and g.unit("B-E").data.get("task") is None


def test_9_7_engineers_destroy_bridges():
    g = to_step(
        game(
            [U("B-E", "b-eng-36", "blue", "C3"), U("B-I", "b-inf-bn-36", "blue", "B3")],
            edges=[
                {"type": "river", "hexes": ["C3", "C4"]},
                {"type": "bridge", "hexes": ["C3", "C4"]},
            ],
        ),
        "A3",
    )
    assert step_cost(g.state, H(g, "C3"), H(g, "C4"), "foot", 3) == 3
    g.submit("blue: demolish B-E C4")
    to_step(g, "D2")
    assert (
        g.state.public["bridges"]["C3|C4"]["kind"] == "destroyed"
    )  # errata 7.1: printed bridges too
    assert step_cost(g.state, H(g, "C3"), H(g, "C4"), "foot", 3) is None


def _with_reinforcement(units, letter_spec, chit=1, **kw):
    rules = {"reinforcements": {"blue": {"A": letter_spec}}, **kw.pop("rules", {})}
    g = game(units, rules=rules, **kw)
    return with_public(g, cup=(chit,))


def test_14_0_drawn_reinforcement_enters_at_the_supply_head():
    g = _with_reinforcement(
        [U("B-X", "b-inf-bn-36", "blue") | {"box": "pool"}, U("R-I", "r-inf-bn-49", "red", "G3")],
        {"pass": 1, "units": ["B-X"]},
    )
    to_step(g, "A3")
    assert at(g, "B-X") == "arrived" and "A" in g.state.sides["blue"].private["received"]
    refused(g, "blue: enter B-X B3", "bad-entry-hex")
    g.submit("blue: enter B-X A3")
    assert at(g, "B-X") == "A3"
    g.submit("blue: move B-X C3")  # it still moves its full allowance (owsnb ruling #9)


def test_14_2_enemy_on_the_supply_head_sends_reinforcements_to_the_nearest_empty_edge_hex():
    g = _with_reinforcement(
        [U("B-X", "b-inf-bn-36", "blue") | {"box": "pool"}, U("R-I", "r-inf-bn-49", "red", "A3")],
        {"pass": 1, "units": ["B-X"]},
    )
    to_step(g, "A3")
    refused(g, "blue: enter B-X A3", "bad-entry-hex")
    spec = g.legal_orders("blue")["enter"]
    hexes = {hexid(g.state.map, parse_hex(g.state.map, o.args[1])) for o in spec.examples}
    assert hexes and hexes <= {"A2", "A4"}  # empty edge hexes nearest to A3
    g.submit(f"blue: enter B-X {sorted(hexes)[0]}")


def test_14_1_step_replacements():
    units = [
        U("B-I", "b-inf-bn-36", "blue", "B3"),
        U("B-A", "b-arm-bn-2", "blue", "B4"),
        U("R-I", "r-inf-bn-49", "red", "G3"),
    ]
    g = _with_reinforcement(units, {"pass": 1, "replacement": "infantry"})
    g = edit(g, "B-I", steps=1)
    g = edit(g, "B-A", steps=1)
    to_step(g, "A3")
    assert g.state.sides["blue"].private["replacements"] == ("A",)
    refused(g, "blue: replace A B-A", "wrong-type")
    g.submit("blue: replace A B-I")
    assert hits(g.unit("B-I")) == 0 and g.state.sides["blue"].private["replacements"] == ()
    refused(g, "blue: replace A B-I", "no-replacement")


def test_14_1_replacement_needs_supply():
    # R-I's ZOC covers the supply head A3, so B-I is out of supply from step 1 on (5.1, 7.1)
    g = _with_reinforcement(
        [U("B-I", "b-inf-bn-36", "blue", "B3"), U("R-I", "r-inf-bn-49", "red", "A2")],
        {"pass": 1, "replacement": "infantry"},
    )
    g = edit(g, "B-I", steps=1)
    to_step(g, "A3")
    assert g.unit("B-I").data.get("oos") is True
    refused(g, "blue: replace A B-I", "out-of-supply")


def test_17_0_breaking_a_regiment_down():
    g = to_step(
        game([U("B-R", "b-inf-reg-36", "blue", "C3"), U("R-I", "r-inf-bn-49", "red", "G3")]), "A3"
    )
    g = edit(g, "B-R", steps=5)  # one hit marker
    g.submit("blue: breakdown B-R")
    bns = sorted(
        (u.id, u.steps, u.data["atk"], u.data["dfn"])
        for u in g.state.units.values()
        if u.data.get("regiment") == "B-R"
    )
    assert bns == [("B-1:R", 1, 3, 2), ("B-2:R", 2, 3, 2), ("B-3:R", 2, 3, 2)]
    assert "B-R" not in g.state.units
    red = g.view("red")
    assert sum(1 for u in red.units.values() if u.side == "blue") == 3  # three face-down counters
    assert all(u.id.startswith("unknown-") for u in red.units.values() if u.side == "blue")
