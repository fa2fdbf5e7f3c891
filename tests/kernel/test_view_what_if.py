"""SideView.with_unit: a what-if view with one more own unit, never part of the game."""

from __future__ import annotations

import pytest

from owsnb.kernel.data import freeze
from owsnb.kernel.state import Unit
from tests.rulesets.skirmish import reach


def _probe(view, kind: str, move: int, at) -> Unit:
    return Unit(view.unused_id("what-if"), view.side, kind, hex=at, data=freeze({"move": move}))


def test_a_what_if_unit_is_read_by_the_rules_and_leaves_the_game_unchanged(game):
    before = (game.state_id, game.seq, dict(game.state.units))
    view = game.view("blue")
    at = next(u.hex for u in view.own_units if u.hex is not None)
    slow = view.with_unit(_probe(view, "infantry", 1, at))
    fast = view.with_unit(_probe(view, "armour", 3, at))
    assert "what-if" in slow.units and "what-if" not in view.units  # a new view, the old kept
    # the rule set's own reach (S2) reads the hypothetical unit like any other
    assert len(reach(fast, fast.units["what-if"])) > len(reach(slow, slow.units["what-if"])) > 1
    assert (game.state_id, game.seq, dict(game.state.units)) == before
    assert "what-if" not in game.view("blue").units and "what-if" not in game.view("red").units


def test_a_what_if_unit_must_be_the_viewers_and_its_id_free(game):
    view = game.view("blue")
    own = view.own_units[0]
    with pytest.raises(ValueError, match="taken in this view"):
        view.with_unit(Unit(own.id, "blue"))
    with pytest.raises(ValueError, match="must be blue's"):
        view.with_unit(Unit("what-if", "red"))
    with pytest.raises(KeyError, match="no side"):
        view.with_unit(Unit("what-if", "green"))
    assert view.unused_id(own.id) == f"{own.id}-2"
    umpire = game.view("umpire")  # the umpire may study any side's unit
    assert umpire.with_unit(Unit(umpire.unused_id("what-if"), "red")).units["what-if"].side == "red"
