"""Reinforcements (Basic L42; OMG-N L782): hidden off board until their turn, then ``enter``."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError

from .conftest import begin, board, lab, set_public, submit


def _board():
    extra = [{"id": "A-9", "type": "para-company", "side": "allied", "hex": "0105"}]
    return board(extra_units=extra, rules={"reinforcements": {"A-9": {"turn": 2}}})


def test_l42_reinforcements_wait_hidden_off_board_and_enter_on_their_turn_for_op():
    """L42: "Each player refers to their Game Module Mission Brief to determine whether
    reinforcements will arrive this turn and where they will appear. These units will remain
    'hidden' off board." L782: "All reinforcing units require OPs to be spent in order to enter
    onboard"."""
    g = _board()
    a9 = g.unit("A-9")
    assert a9.hex is None and a9.box == "reinforcement"
    assert "A-9" not in g.view("german").units
    begin(g)
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: enter A-9")
    assert e.value.code == "not-yet" and e.value.rule == "L42"
    set_public(g, turn_end_index=99)  # the turn ends on any roll
    g.submit("allied: done")
    assert g.state.clock.turn == 2
    while not (g.state.clock.step == "3.5" and g.state.public["phasing"] == "allied"):
        side = g.state.clock.acting[0]
        g.submit(f"{side}: begin" if g.state.clock.step == "3.3" else f"{side}: done")
    pool = int(g.state.sides["allied"].private["op_pool"])
    sub = submit(g, "allied: enter A-9")
    assert lab(g, "A-9") == "0105" and g.unit("A-9").box is None
    assert int(g.state.sides["allied"].private["op_pool"]) == pool - 1
    assert not [e for e in sub.events if e.visible("german") and "A-9" in str(e.data)]
    assert "A-9" not in g.view("german").units
    submit(g, "allied: activate A-9")  # it acts like any unit (another OP)
    assert g.unit("A-9").get("act") == "open"
