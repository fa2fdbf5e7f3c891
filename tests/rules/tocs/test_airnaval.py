"""Air readiness boxes (L56-L60, L575, L605) and naval sea-zone boxes (L635-L696)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import owsnb
from owsnb.kernel import IllegalOrderError

from .conftest import begin, board, set_data, set_public, submit

NAVAL = {"cls": "naval", "mobility": "sea", "attack": 2, "defense": 2}


def _sea_board():
    cat_units = [
        {
            "id": "A-DD",
            "type": "para-company",
            "side": "allied",
            "box": "sea:North:3",
            "data": dict(NAVAL, independent=True),
        },
        {
            "id": "G-SB",
            "type": "ger-infantry-company",
            "side": "german",
            "box": "sea:South:3",
            "data": dict(NAVAL, independent=True),
        },
    ]
    return board(extra_units=cat_units, rules={"sea_zones": ["North", "South"]})


def test_e2_l635_sea_zone_entry_is_announced_even_when_the_zone_is_empty():
    g = _sea_board()
    set_data(g, "G-SB", independent=True)
    from .conftest import set_unit

    set_unit(g, "G-SB", box="sea:South:0")  # in box [0]: cannot intercept
    begin(g)
    sub = submit(g, "allied: sail A-DD South", [2])  # d6 2 <= 5 needed from box [3]
    pub = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert pub == ["A naval unit enters sea zone South"]
    assert g.unit("A-DD").box == "sea:South:2"  # the action moved it down one box (L638)
    assert "A-DD" not in str(pub)


def test_ruling_13_interception_roll_of_3_lets_box_3_units_act():
    g = _sea_board()
    begin(g)
    # zone move d6=1; German interception d6=3 <= box [3]: it acts; naval combat d6=6 -> 2 hits
    sub = submit(g, "allied: sail A-DD South", [1, 3, 6])
    pub = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert any(t.startswith("Interception and naval battle in South: 2 hit") for t in pub)
    assert g.unit("A-DD").steps == 2


def test_l640_the_zone_move_preview_is_the_d6_against_the_box():
    """L640: the zone move succeeds on a d6 at or under the box's number (5 from box [3]); the
    preview reads the unit the order's bound argument names."""
    g = _sea_board()
    begin(g)
    p = g.preview("allied: sail A-DD South")
    assert p[True] == 1 - owsnb.Distribution.die(6).at_least(6) == Fraction(5, 6)


def test_l639_a_unit_changes_zone_once_per_turn():
    g = _sea_board()
    begin(g)
    submit(g, "allied: sail A-DD South", [1, 6])  # interception fails: 6 > 3
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: sail A-DD North")
    assert e.value.code == "sailed"


def test_l57_aircraft_move_one_box_toward_ready_each_friendly_impulse():
    g = board(
        extra_units=[
            {"id": "A-AIR", "type": "fighter-bomber-flight", "side": "allied", "box": "air:landed"}
        ]
    )
    begin(g)
    assert g.unit("A-AIR").box == "air:refuel"
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    assert g.unit("A-AIR").box == "air:refuel"  # only friendly impulses count
    submit(g, "german: done", [6, 6])
    begin(g, "allied")
    assert g.unit("A-AIR").box == "air:ready"


def test_l605_support_mission_from_off_board_arrives_next_friendly_impulse_and_shifts_one_column():
    g = board(
        extra_units=[
            {"id": "A-AIR", "type": "fighter-bomber-flight", "side": "allied", "box": "air:ready"}
        ]
    )
    begin(g)
    pool = g.state.sides["allied"].private["op_pool"]
    submit(g, "allied: fly A-AIR support 0806")
    assert (
        g.unit("A-AIR").box == "air:in-flight"
        and g.state.sides["allied"].private["op_pool"] == pool - 1
    )
    assert not g.state.map.hexes[g.hex("0806")].facts.get("air_support")
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    submit(g, "german: done", [6, 6])
    begin(g, "allied")
    assert g.unit("A-AIR").box == "air:on-station"
    assert g.state.map.hexes[g.hex("0806")].facts["air_support"] == "allied"


def test_l567_no_launch_in_rain():
    g = board(
        extra_units=[
            {"id": "A-AIR", "type": "fighter-bomber-flight", "side": "allied", "box": "air:ready"}
        ]
    )
    begin(g)
    set_public(
        g,
        weather={
            "ground": "wet",
            "cloud": "overcast",
            "precipitation": "rain",
            "fog": "none",
            "wind": "calm",
        },
    )
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: fly A-AIR recon 0806")
    assert e.value.code == "weather" and e.value.rule == "L567"


def test_l605_support_station_ends_when_the_aircraft_lands():
    g = board(
        extra_units=[
            {
                "id": "A-AIR",
                "type": "fighter-bomber-flight",
                "side": "allied",
                "box": "air:ready",
                "data": {"offboard": False},
            }
        ]
    )
    begin(g)
    submit(g, "allied: fly A-AIR support 0806")
    assert g.state.map.hexes[g.hex("0806")].facts["air_support"] == "allied"
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    submit(g, "german: done", [6, 6])
    begin(g, "allied")
    assert g.unit("A-AIR").box == "air:landed" and not g.state.map.hexes[g.hex("0806")].facts.get(
        "air_support"
    )
