"""Two Ground phases a turn (10.3 design note: "two back-to-back 3.5 day Ground Phases"; 10.14 "all
units may move in the first Ground Phase"): option ``ground_phases``, ruling G4."""

import pytest

import owsnb
from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows.sequence import SEQUENCE

from .conftest import at
from .ground_kit import blank, gload, scenario
from .test_ground import A, U


def _keys(game):
    return [s.key for _, s in SEQUENCE.walk(game.state.options)]


def test_10_3_ground_phases_2_gives_the_turn_two_ground_blocks_with_unique_keys():
    one = blank([U("T", "mech-bde", "blue", A)])
    two = blank([U("T", "mech-bde", "blue", A)], options={"ground_phases": 2})
    assert [k for k in _keys(one) if k.startswith("6.C")] == ["6.C.1", "6.C.2", "6.C.3"]
    assert [k for k in _keys(two) if k.startswith("6.C")] == [
        "6.C.1",
        "6.C.2",
        "6.C.3",
        "6.C.1b",
        "6.C.2b",
        "6.C.3b",
    ]
    rear = blank([U("T", "mech-bde", "blue", A)], options={"ground_phases": 2, "rear_area": True})
    assert [k for k in _keys(rear) if k.startswith("6.C.4")] == ["6.C.4", "6.C.4b"]
    keys = [s.key for _, s in SEQUENCE.walk(None)]
    assert len(keys) == len(set(keys))
    with pytest.raises(ValueError, match="ground_phases"):  # the switches follow ground_phases
        owsnb.load(scenario(options={"second_ground_phase": True}), save=False)
    with pytest.raises(ValueError, match="ground_phases"):
        owsnb.load(scenario(options={"ground_phases": 3}), save=False)


def test_10_3_a_unit_moves_and_attacks_in_each_ground_phase_and_organizes_afresh_G4():
    units = [
        U("T", "mech-bde", "blue", A),
        U("E", "engineer-bn", "blue", A),
        U("HQ", "hq-div", "blue", "0303"),
        U("M", "mech-bde", "blue", "0304", hq="HQ"),
    ]
    g = at(blank(units, options={"ground_phases": 2}), "6.C.2")
    g.submit("blue: defend T")
    g.submit("blue: main-effort M")
    g.submit("umpire: advance 6.C.3")
    g.submit("blue: move M 0305")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: move M 0306")
    assert (e.value.code, e.value.rule) == ("already-moved", "10.3")
    g.submit("umpire: advance 6.C.2b")
    assert g.clock.turn == 1 and g.clock.step == "6.C.2b"
    assert "main-effort" not in g.unit("M").markers  # designated afresh (10.5 per Ground phase)
    g.submit("blue: main-effort M")
    g.submit("blue: fortify T")  # T held Defend at the start of this phase (10.7)
    assert "fortified" in g.unit("T").markers
    g.submit("umpire: advance 6.C.3b")
    g.submit("blue: move M 0306")  # moves again in the second phase
    assert g.state.map.label(g.unit("M").hex) == "0306"
    g.submit("umpire: advance 7.I")
    assert g.clock.turn == 1


def test_10_14_first_ground_phase_free_all_units_act_without_orders_in_the_first_only():
    base = {"action_points": True, "ground_phases": 2, "first_ground_phase_free": True}
    g = at(gload(options=base, tables={"ground": {"action_points": {"blue": 1}}}), "6.C.3")
    g.check("blue: move HET-1 0506")  # no Orders marker needed in the first Ground phase
    g.submit("umpire: advance 6.C.3b")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: move HET-1 0506")
    assert e.value.rule == "10.14"
    off = at(
        gload(
            options={**base, "first_ground_phase_free": False},
            tables={"ground": {"action_points": {"blue": 1}}},
        ),
        "6.C.3",
    )
    with pytest.raises(IllegalOrderError) as e:
        off.check("blue: move HET-1 0506")
    assert e.value.rule == "10.14"


def test_10_2_5_a_card_seizes_the_initiative_of_one_ground_phase():
    hands = {"hands": {"blue": {"decision": ["planned-offensive", "planned-offensive"]}}}
    g = at(
        blank([U("T", "mech-bde", "blue", A)], options={"ground_phases": 2}, rules=hands), "6.C.1"
    )
    g.submit("blue: card planned-offensive")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: card planned-offensive")
    assert e.value.rule == "10.2.5"
    g.submit("umpire: advance 6.C.1b")
    g.submit("blue: card planned-offensive")  # the second phase is a new ground initiative
    from owsnb.rules.ows.planning import seized

    assert seized(g.state) == ["blue"]


def test_ground_phases_2_random_playout_keeps_the_invariants():
    from owsnb.testing import random_playout

    g = at(gload(seed=5, options={"ground_phases": 2}), "6.C.1")
    rep = random_playout(g, max_orders=120, seed=2)
    steps = {e.data["clock"].step for e in g.events if e.kind == "clock.set"}
    assert {"6.C.3", "6.C.3b"} <= steps and rep.orders
