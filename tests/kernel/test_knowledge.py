"""Issue 18 in the kernel: what a side is told is computed on what it knows; each side numbers only
what it sees. (The skirmish rule set: a move may neither enter nor cross a hex an enemy holds, S2.)
"""

from __future__ import annotations

from typing import Any

import pytest

import owsnb
from owsnb.kernel import IllegalOrderError, OrderHandler
from owsnb.kernel.errors import StaleStateError
from owsnb.kernel.events import unit_move
from owsnb.kernel.orders import Order
from owsnb.kernel.registry import register_ruleset

register_ruleset("skirmish", "tests.rulesets.skirmish:RULESET")


@pytest.fixture
def game() -> Any:
    return owsnb.load("tests/data/skirmish.yaml", seed=11, save=False)


def _hide(game: Any, uid: str, label: str) -> None:
    """Test surgery: the red unit *uid* moves to *label*, unseen by Blue (one hidden commit)."""
    game._commit(Order("red", "twin"), [unit_move(uid, game.hex(label), visible_to="red")], None)


def _told(game: Any, side: str, order: str) -> tuple[Any, ...]:
    legal = game.legal_orders(side)
    spec = [(s.verb, dict(s.candidates), [str(o) for o in s.examples]) for s in legal]
    try:
        answer: Any = ("ok", game.check(order))
    except IllegalOrderError as e:
        answer = (e.code, e.rule, str(e))
    return repr(spec), answer, repr(game.preview(order))


def test_s2_blue_is_told_the_same_whether_a_hidden_red_unit_blocks_its_way(game):
    """S2: "never into or through enemy-occupied hexes" — an enemy Blue has not detected is not
    in its knowledge: its legal orders, checks and previews are the same with or without it."""
    other = owsnb.load("tests/data/skirmish.yaml", seed=11, save=False)
    _hide(game, "R-REC-1", "0303")  # in B-INF-1's way
    _hide(other, "R-REC-1", "0907")  # far away
    order = "blue: move B-INF-1 0303"
    assert _told(game, "blue", order) == _told(other, "blue", order)
    assert game.view("blue") == other.view("blue")  # numbers included: neither commit is Blue's
    assert game.revision("blue") == other.revision("blue") == 0 < game.state_id


def test_s2_an_order_refused_only_by_a_hidden_fact_is_resolved_and_tells_only_code_and_rule(game):
    _hide(game, "R-REC-1", "0303")
    sub = game.submit("blue: move B-INF-1 0303")  # accepted on Blue's knowledge
    (note,) = [e for e in sub.events if e.kind == "note"]
    assert note.visible_to == frozenset({"blue"}) and note.data["hidden_fact"]
    assert note.data["code"] and "R-REC-1" not in str(note.data)  # never the refusal's text
    assert game.unit("B-INF-1").hex == game.hex("0203")  # nothing carried out


def test_a_refusal_raised_while_carrying_out_an_order_never_reaches_the_side(game):
    class Leaky(OrderHandler):
        type = game.ruleset.handler("move").type

        def validate(self, state: Any, order: Any, args: Any) -> None:
            pass

        def adjudicate(self, state: Any, order: Any, args: Any, dice: Any) -> list:
            dice.roll(6, purpose="a roll made on the way")
            raise IllegalOrderError("R-REC-1 stands in 0303", code="blocked", rule="S2")

    rs = game.ruleset
    old = rs._handlers["move"]
    rs._handlers["move"] = Leaky()
    try:
        sub = game.submit("blue: move B-INF-1 0303")
    finally:
        rs._handlers["move"] = old
    assert [e.kind for e in sub.events] == ["note"]  # no roll, no text of the refusal
    assert sub.events[0].data["code"] == "blocked" and "R-REC-1" not in str(sub.events[0])


def test_each_side_numbers_only_what_it_sees_and_is_stale_only_when_it_saw_a_change(game):
    game.submit("blue: move B-INF-1 0303")  # 2 events, Blue's only
    blue, red = game.view("blue"), game.view("red")
    assert (blue.seq, red.seq, game.seq) == (2, 0, 2)
    assert [(e.seq, e.batch) for e in blue.events] == [(1, 1), (2, 1)]
    assert game.revision("blue") == 1 and game.revision("red") == 0 and game.state_id == 1
    with pytest.raises(StaleStateError):
        game.submit("blue: move B-ARM-1 0305", state_id=0)  # Blue saw the move: stale
    game.submit("blue: done", state_id=1)
    assert game.revision("red") == 1 and red.seq == 0 and game.view("red").seq == 1
    assert [e.seq for e in game.log("red")] == [1] and game.view("red").events[0].batch == 1
    game.undo()  # the done (public): both see it go
    assert game.revision("blue") == 3 and game.revision("red") == 2
    game.undo()  # Blue's hidden move: Red sees nothing go
    assert game.revision("blue") == 4 and game.revision("red") == 2


def test_side_revisions_survive_a_restart_from_the_store(tmp_path):
    path = tmp_path / "g.owsnb"
    game = owsnb.load("tests/data/skirmish.yaml", seed=11, save=path)
    game.submit("blue: move B-INF-1 0303")
    game.undo()
    game.submit("blue: move B-INF-1 0303")
    game.submit("blue: done")
    again = owsnb.resume(path)
    assert {s: again.revision(s) for s in again.sides} == {s: game.revision(s) for s in game.sides}
    assert (again.revision("blue"), again.revision("red"), again.state_id) == (4, 1, 4)
