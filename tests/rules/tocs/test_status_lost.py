"""Statuses that end when the position changes: reserve (L337), refit (L338), out of LOS (L216)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError

from .conftest import begin, board, set_public, set_unit, submit


def _reserve_board():
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0404"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0505"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0706"},
    ]
    g = board(units=units)
    begin(g)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: reserve A-1 hq=A-HQ")
    assert g.unit("A-1").get("reserve") is True
    submit(g, "allied: done")  # into Exploitation (the Allies hold a reserve)
    submit(g, "allied: done", [6, 6])  # turn-end roll: the turn goes on
    begin(g, "german")
    return g


def test_l337_a_reserve_in_ezoc_loses_its_status_and_does_not_activate_free():
    """L337: "If the reserve unit is EZOCed or Probed (10.5) or attacked on the CRT by ground
    forces, it immediately loses its reserve status." L336: activation as a reserve "does not cost
    any additional OPs"."""
    g = _reserve_board()
    submit(g, "german: activate G-1")
    submit(g, "german: move G-1 0605")  # next to A-1: its ZOC falls on 0505
    a1 = g.unit("A-1")
    assert not a1.get("reserve")
    assert "0505" in g.state.sides["allied"].private["ezoc_known"]
    mine = [e.data["text"] for e in g.view("allied").events if e.kind == "note"]
    assert "A-1 loses its reserve status: its hex is in EZOC" in mine
    theirs = [e.data["text"] for e in g.view("german").events if e.kind == "note"]
    assert not any("A-1" in t for t in theirs)
    submit(g, "german: done", [6, 6])  # no Reserve Commitment for the Allies: straight on
    assert g.state.clock.step == "3.3" and g.state.public["phasing"] == "allied"


def test_l337_a_reserve_out_of_ezoc_keeps_its_status():
    """L336: "Once a unit enters into reserve it remains indefinitely stationary until activated." """
    g = _reserve_board()
    submit(g, "german: activate G-1")
    submit(g, "german: move G-1 0707")  # not next to A-1
    assert g.unit("A-1").get("reserve") is True
    submit(g, "german: done")
    assert g.state.clock.step == "3.8"
    submit(g, "allied: activate A-1")  # free
    with pytest.raises(IllegalOrderError):
        g.submit("allied: activate A-HQ")  # only reserves activate in Reserve Commitment


def test_l216_a_unit_that_regains_los_mid_turn_attacks_at_full_strength():
    """L216: "Supply is checked at the start of the players Operational Impulse. Units that are
    out of LOS are marked with a “Out of LOS” counter. Any time during the Game Turn if the unit
    regains LOS, it no longer suffers any adverse effect of being out of LOS and the marker is
    removed." A-1 starts five hexes from its (airborne, supplied) HQ of radius 4, moves to four
    and attacks: 4 against 3 is 1:1, not 2 against 3 (1:2, the out-of-LOS half strength)."""
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0101"},
        {
            "id": "A-1",
            "type": "para-company",
            "side": "allied",
            "hex": "0504",
            "data": {"para": False},
        },
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0602"},
    ]
    g = board(units=units)
    begin(g)
    assert g.unit("A-1").get("in_los") is False  # marked at the start of the impulse
    submit(g, "allied: activate A-1")
    submit(g, "allied: move A-1 0503")  # within the HQ's radius: LOS again
    assert g.unit("A-1").get("in_los") is True  # the marker is removed
    assert "A-1 is back in LOS" in [
        e.data["text"] for e in g.view("allied").events if e.kind == "note"
    ]
    submit(g, "allied: attack A-1 0602 kind=hasty")
    sub = g.submit("allied: done")
    notes = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert any(t.startswith("Battle at 0602: hasty, column 1:1,") for t in notes), notes


def test_l338_a_refit_ends_when_an_enemy_zone_of_control_falls_on_the_unit():
    """L338: "The unit successfully refits at the end of the game turn as long as it remains out
    of EZOC and is neither attacked on the CRT by ground forces or is probed." A German company
    steps next to the refitting A-1 and away again before the turn ends: no step."""
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0403"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0503"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0704"},
    ]
    g = board(units=units)
    set_unit(g, "A-1", steps=2)
    begin(g)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: refit A-1")
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    submit(g, "german: activate G-1")
    submit(g, "german: move G-1 0603")  # next to A-1: EZOC on 0503
    assert not g.unit("A-1").get("refit")
    submit(g, "german: move G-1 0704")  # and away again
    set_public(g, turn_end_index=99)  # the turn ends on any roll
    g.submit("german: done")
    assert g.state.clock.turn == 2
    assert g.unit("A-1").steps == 2
