"""Strategic movement (5.1): sealift, airlift, rail and HET with RSO&I (2.3.1, 5.1.1.1, C1); port and
airfield capacities (2.1.7). The worked examples of 5.1.1.2, 5.1.1.3 and 5.1.1.4 are here."""

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import strategic as st
from owsnb.rules.ows.common import apply_hits

from .conftest import at, with_events
from .ground_kit import blank, gload


def _coast(units, turn=1):
    sea = {f"01{r:02d}": "deep-sea" for r in range(1, 9)} | {
        f"02{r:02d}": "littoral" for r in range(1, 9)
    }
    feats = [
        {"hex": "0303", "type": "port", "name": "North", "capacity": 4, "owner": "blue"},
        {"hex": "0307", "type": "port", "name": "South", "capacity": 4, "owner": "blue"},
    ]
    return blank(units, terrain=sea, features=feats, clock={"turn": turn})


def test_5_1_1_2_lmsr_in_port_in_turn_2_immobile_through_turn_3_rsoi_off_in_turn_3_regeneration_free_in_turn_4():
    g = at(
        _coast(
            [
                {"id": "LMSR", "type": "lmsr", "side": "blue", "hex": "0303"},
                {"id": "BN", "type": "mech-bn", "side": "blue", "hex": "0303"},
            ],
            turn=2,
        ),
        "2.1",
    )
    g.submit("blue: sealift BN LMSR")  # both start the turn in the same port
    assert g.state.units["BN"].hex is None and "rsoi" in g.state.units["BN"].markers
    g.submit("umpire: advance 3.A.1")
    res = g.submit("blue: move LMSR 0307").result  # pulls into port in Turn 2's Naval Movement
    assert "5.1.1.2" in res.rules
    bn, ship = g.state.units["BN"], g.state.units["LMSR"]
    assert bn.hex == g.hex("0307") and "rsoi" in bn.markers and "rsoi" in ship.markers
    g.submit("umpire: advance 6.C.3")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: move BN 0407")  # the rest of Turn 2: cannot move
    assert e.value.rule == "5.1.1.2"
    g.submit("umpire: advance 3.A.1")  # Turn 3
    assert g.clock.turn == 3 and "rsoi" in g.state.units["LMSR"].markers
    with pytest.raises(IllegalOrderError):
        g.check("blue: move LMSR 0203")
    g.submit("umpire: advance 6.C.3")
    with pytest.raises(IllegalOrderError):
        g.check("blue: move BN 0407")
    g.submit("umpire: advance 7.I")  # Turn 3's Regeneration: RSO&I came off at 7.E
    assert (
        g.clock.turn == 3
        and "rsoi" not in g.state.units["BN"].markers
        and "rsoi" not in g.state.units["LMSR"].markers
    )
    g.submit("umpire: advance 3.A.1")  # Turn 4: both move freely
    g.check("blue: move LMSR 0203")
    g.submit("umpire: advance 6.C.3")
    g.check("blue: move BN 0407")


def test_2_1_7_1_port_with_4_boxes_embarks_4_steps_a_turn_and_damage_lowers_it():
    g = at(
        _coast(
            [
                {"id": "LMSR", "type": "lmsr", "side": "blue", "hex": "0303"},
                {"id": "L2", "type": "lmsr", "side": "blue", "hex": "0303"},
                {"id": "BDE", "type": "mech-bde", "side": "blue", "hex": "0303"},
                {"id": "B1", "type": "light-bn", "side": "blue", "hex": "0303"},
                {"id": "B2", "type": "light-bn", "side": "blue", "hex": "0303"},
            ]
        ),
        "2.1",
    )
    g.submit("blue: sealift BDE LMSR")
    g.submit("blue: sealift B1 L2")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: sealift B2 L2")
    assert e.value.rule == "2.1.7.1"
    assert st.port_capacity(g.state, g.hex("0303")) == 4
    from owsnb.kernel.events import hex_set

    d = with_events(g, [hex_set(g.hex("0303"), {"damage": {"port": 3}})])
    assert st.port_capacity(d.state, d.hex("0303")) == 1


def test_5_1_1_2_a_ship_carries_one_step_per_infantry_box_and_a_hit_on_such_a_box_costs_the_cargo_a_step():
    g = at(
        _coast(
            [
                {"id": "LMSR", "type": "lmsr", "side": "blue", "hex": "0303"},
                {"id": "BDE", "type": "mech-bde", "side": "blue", "hex": "0303"},
                {"id": "B1", "type": "light-bn", "side": "blue", "hex": "0303"},
            ]
        ),
        "2.1",
    )
    g.submit("blue: sealift BDE LMSR")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: sealift B1 LMSR")
    assert e.value.code == "ship-full"
    ev, _, _ = apply_hits(g.state, g.state.units["LMSR"], 1, rule="9.6", cause="missile")
    hit = with_events(g, ev)
    hit.submit("umpire: advance 6.C.1")
    assert hit.state.units["BDE"].steps == 2 and hit.state.units["LMSR"].steps == 2
    ev, _, _ = apply_hits(g.state, g.state.units["LMSR"], 3, rule="9.6", cause="missile")
    sunk = with_events(g, ev)
    sunk.submit("umpire: advance 6.C.1")
    assert not sunk.state.units["BDE"].alive  # SM3: lost with its ship


def _airlift():
    return gload(
        add=[
            {"id": "MB", "type": "mech-bn", "side": "blue", "hex": "0404"},
            {"id": "LI2", "type": "light-bn", "side": "blue", "hex": "0404"},
            {
                "id": "C130",
                "type": "c17",
                "side": "blue",
                "box": "base",
                "data": {"base": "AIRLIFT", "heavy_lift": False},
            },
        ]
    )


def test_5_1_1_3_a_1_step_mech_battalion_flies_on_2_heavy_lift_transports():
    g = at(_airlift(), "2.1")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: airlift MB 0309 transports=C17-1")
    assert e.value.code == "too-few-transports"
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: airlift MB 0309 transports=C17-1,C130")
    assert e.value.code == "not-heavy-lift"
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: airlift 1ABCT 0309 transports=C17-1,C17-2")
    assert e.value.rule == "5.1.1.3"  # 3 steps: "one step at a time" / not at an airfield
    g.submit("blue: airlift MB 0309 transports=C17-1,C17-2")
    mb = g.state.units["MB"]
    assert (
        mb.hex == g.hex("0309")
        and "rsoi" in mb.markers
        and "rsoi" in g.state.units["C17-1"].markers
    )
    at(_airlift(), "2.1").check(
        "blue: airlift LI2 0309 transports=C130"
    )  # light infantry: one transport per step
    ok = g.fork()
    ok.submit("umpire: advance 7.I")  # RSO&I off in this turn's Regeneration (C1)
    assert "rsoi" not in ok.state.units["MB"].markers


def test_5_1_1_3_transport_destroyed_means_the_unit_is_destroyed_and_the_transport_goes_to_regeneration():
    g = at(_airlift(), "2.1")
    g.submit("blue: airlift MB 0309 transports=C17-1,C17-2")
    ev, _, _ = apply_hits(g.state, g.state.units["C17-1"], 1, rule="9.7.4", cause="missile")
    g = with_events(g, ev)
    assert g.state.units["C17-1"].box == "regeneration"
    g.submit("umpire: advance 6.C.1")
    assert not g.state.units["MB"].alive


def test_SM1_an_airfield_handles_its_capacity_in_transport_missions_a_turn():
    add = [
        {"id": f"C{i}", "type": "c17", "side": "blue", "box": "base", "data": {"base": "AIRLIFT"}}
        for i in range(3)
    ]
    add += [{"id": f"L{i}", "type": "light-bn", "side": "blue", "hex": "0404"} for i in range(4)]
    g = at(gload(add=add), "2.1")
    g.submit("blue: airlift L0 0309 transports=C17-1")
    g.submit("blue: airlift L1 0309 transports=C17-2")  # South Field: capacity 2
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: airlift L2 0309 transports=C0")
    assert e.value.code == "airfield-capacity"


def test_5_1_1_4_rail_from_turn_t_embark_t_transit_t_plus_1_offload_t_plus_2_free_t_plus_3():
    assert st.rail_turns(100, 600) == 3
    g = at(gload(units={"1ABCT": {"hex": "0406"}}, turns=8), "2.1")
    res = g.submit("blue: rail 1ABCT 0506").result
    assert (
        res.outcome["embark"] == 1 and res.outcome["transit"] == [2] and res.outcome["offload"] == 3
    )
    assert res.outcome["free"] == 4
    assert g.state.units["1ABCT"].hex == g.hex("0406") and "rsoi" in g.state.units["1ABCT"].markers
    g.submit("umpire: advance 2.1")  # turn 2: in transit
    assert (
        g.clock.turn == 2
        and g.state.units["1ABCT"].hex is None
        and g.state.units["1ABCT"].box == "rail"
    )
    g.submit("umpire: advance 2.1")  # turn 3: offloading at the railhead
    assert g.state.units["1ABCT"].hex == g.hex("0506") and "rsoi" in g.state.units["1ABCT"].markers
    g.submit("umpire: advance 6.C.3")
    with pytest.raises(IllegalOrderError):
        g.check("blue: move 1ABCT 0606")
    g.submit("umpire: advance 6.C.3")  # turn 4: free
    assert g.clock.turn == 4 and "rsoi" not in g.state.units["1ABCT"].markers
    g.check("blue: move 1ABCT 0606")
    with pytest.raises(IllegalOrderError) as e:
        at(gload(remove=("CARS-1",), units={"1ABCT": {"hex": "0406"}}), "2.1").check(
            "blue: rail 1ABCT 0506"
        )
    assert e.value.code == "too-few-cars"


def test_5_1_1_4_a_unit_offloading_at_the_railhead_is_refused_citing_5_1_1_4_not_sealift():
    """5.1.1.4: "The unit spends one turn embarking, one turn in rail transit, and then one turn
    offloading (24 hour turns)." —
    a unit held in RSO&I by a rail move is refused under 5.1.1.4 (not 5.1.1.2, sealift)."""
    g = at(gload(units={"1ABCT": {"hex": "0406"}}, turns=8), "2.1")
    g.submit("blue: rail 1ABCT 0506")
    g.submit("umpire: advance 2.1")  # turn 2: in transit
    g.submit("umpire: advance 2.1")  # turn 3: offloading at the railhead
    g.submit("umpire: advance 6.C.3")
    assert g.clock.turn == 3 and "rsoi" in g.unit("1ABCT").markers
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: move 1ABCT 0606")
    assert (e.value.code, e.value.rule) == ("rsoi", "5.1.1.4") and "5.1.1.2" not in str(e.value)


def test_5_1_1_5_het_moves_and_then_a_full_turn_disembarking_in_rsoi():
    g = at(
        gload(
            units={
                "2SBCT": {"hex": "0405"},
                "HET-1": {"hex": "0405"},
                "HET-2": {"hex": "0405"},
                "HET-3": {"hex": "0405"},
            },
            turns=8,
        ),
        "2.1",
    )
    g.submit("blue: het 2SBCT 0706")
    u = g.state.units["2SBCT"]
    assert (
        u.hex == g.hex("0706")
        and "rsoi" in u.markers
        and g.state.units["HET-1"].hex == g.hex("0706")
    )
    g.submit("umpire: advance 6.C.3")  # turn 1: disembarking
    assert "rsoi" in g.state.units["2SBCT"].markers
    g.submit("umpire: advance 6.C.3")  # turn 2: still in RSO&I
    assert g.clock.turn == 2 and "rsoi" in g.state.units["2SBCT"].markers
    g.submit("umpire: advance 6.C.3")  # turn 3: free
    assert "rsoi" not in g.state.units["2SBCT"].markers
    with pytest.raises(IllegalOrderError) as e:
        at(gload(units={"2SBCT": {"hex": "0405"}}), "2.1").check("blue: het 2SBCT 0706")
    assert e.value.code == "too-few-hets"


def test_5_1_strategic_moves_are_refused_in_other_steps_and_for_units_already_in_transit():
    g = at(gload(units={"1ABCT": {"hex": "0406"}}), "2.1")
    g.submit("blue: rail 1ABCT 0506")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: rail 1ABCT 0506")
    assert e.value.code == "in-transit"
    g.submit("umpire: advance 3.A.1")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: sealift 1-LI LMSR-1")
    assert e.value.code == "wrong-step"


def test_6_5_5_an_airbase_capacity_can_never_be_exceeded():
    g = gload()
    assert st.basing_problems(g.state) == []
    with pytest.raises(
        ValueError, match=r"0309: 3 squadrons based, capacity 2 \(6\.5\.5\)"
    ):  # refused at load
        gload(
            add=[
                {"id": f"SQ{i}", "type": "airlift-base", "side": "blue", "hex": "0309"}
                for i in range(3)
            ]
        )
    two = gload(
        add=[
            {"id": f"SQ{i}", "type": "airlift-base", "side": "blue", "hex": "0309"}
            for i in range(2)
        ]
    )
    from owsnb.kernel.events import hex_set

    hit = with_events(two, [hex_set(two.state.map.hex("0309"), {"damage": {"airfield": 1}})])
    assert st.basing_problems(hit.state) == ["0309: 2 squadrons based, capacity 1 (6.5.5)"]
