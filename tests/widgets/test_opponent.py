"""Issue 22.3, in the seat: what the computer's orders look like to the student — lines in words
with their rule paragraphs and marks on the map, from what the student's side may see only
(:mod:`owsnb.widgets.opponent`)."""

from __future__ import annotations

from typing import Any

import pytest

import owsnb
from owsnb.testing.clicks import TUTORIAL_TURN, next_order
from owsnb.widgets import App
from owsnb.widgets.opponent import ComputerPanel, seen_act


def _to(game: Any, wanted: str) -> None:
    """Play the tutorial's first turn (its briefing's orders, else Done) up to *wanted*."""
    todo = list(TUTORIAL_TURN)
    for _ in range(400):
        order = next_order(game, todo)
        if order == wanted:
            return
        acting = list(game.clock.acting) or ["umpire"]
        if order is None:
            game.submit(f"{acting[0]}: {'done' if acting[0] != 'umpire' else 'advance'}")
        else:
            game.submit(order)
            todo.remove(order)
    raise AssertionError(f"never reached {wanted}")


def _act(game: Any, order: str) -> Any:
    before = game.view("blue")
    sub = game.submit(order)
    return seen_act("blue", "red", sub.events, before, game.view("blue"))


@pytest.fixture(scope="module")
def tutorial() -> Any:
    return owsnb.load("tutorial", seed=1, save=False)


def test_an_order_the_student_sees_nothing_of_leaves_no_trace(tutorial: Any) -> None:
    """Hidden information is a property: red's landing force embarking out of blue's sight
    (3.A.2) gives blue no line, no mark and not even the knowledge that an order was given."""
    game = tutorial.fork()
    _to(game, "red: amphibious-assault R-CAB-1 0506")
    act = _act(game, "red: amphibious-assault R-CAB-1 0506")
    assert not act and act.lines == () and act.marks == ()
    app = App(game, seat="blue", seats=("blue",), curtain=False)
    panel = ComputerPanel(app.table, {"red": "greedy"}, budget=2.0)
    try:
        shown = panel.record_html.value
        panel.record(act)
        assert panel.record_html.value == shown and panel.acts == [] and app.table.marks == []
        assert app.map.overlays["others"].data["features"] == []
    finally:
        panel.close()
        app.close()


def test_a_strike_on_the_students_units_is_told_and_ringed_on_the_map(tutorial: Any) -> None:
    """OWS 9.2.1: red's strike on blue's squadron base is declared to blue (the defender is
    told what is coming): the panel says it with its rule, and the map rings the target."""
    game = tutorial.fork()
    order = "red: strike B-SQ-CCK salvos=R-PHL-1:phl16,R-PHL-1:phl16"
    _to(game, order)
    act = _act(game, order)
    assert any("strike on B-SQ-CCK" in t and r == "9.2.1" for t, r in act.lines), act.lines
    assert act.finished == ""  # red's step is not over: blue answers first
    target = game.view("blue").map.label(game.view("blue").units["B-SQ-CCK"].hex)
    assert any(m["to"] == target for m in act.marks), act.marks
    app = App(game, seat="blue", seats=("blue",), curtain=False)
    panel = ComputerPanel(app.table, {"red": "greedy"}, budget=2.0)
    app.add_aside(panel)
    try:
        assert app.side.children[0] is panel
        panel.record(act)
        assert (
            "strike on B-SQ-CCK" in panel.record_html.value and "9.2.1" in panel.record_html.value
        )
        assert "turn 1 · step 6.B.1" in panel.record_html.value
        assert app.table.marks and app.map.overlays["others"].data["features"]
        # the student's own order clears the computer's marks (they showed its last moves)
        app.table.submit("blue: shields B-SQ-CCK:2")
        assert app.table.marks == [] and app.map.overlays["others"].data["features"] == []
    finally:
        app.close()


def test_a_ground_attack_draws_an_arrow_from_the_attackers_the_student_sees(tutorial: Any) -> None:
    """OWS 10.3: red's attack on 0506 names its attackers; those blue sees get an arrow to the
    hex attacked, and the panel says what is coming."""
    game = tutorial.fork()
    order = "red: attack 0506 with=R-CAB-1,R-MAR-1"
    _to(game, order)
    act = _act(game, order)
    assert any("attacks 0506" in t and r == "10.3" for t, r in act.lines), act.lines
    seen = game.view("blue").units
    attackers = {
        game.view("blue").map.label(seen[u].hex) for u in ("R-CAB-1", "R-MAR-1") if u in seen
    }
    arrows = {m["from"] for m in act.marks if m["kind"] == "attack" and m["to"] == "0506"}
    assert arrows == (attackers - {"0506"} or set()), (arrows, attackers)
    assert any(m["to"] == "0506" for m in act.marks)


def test_the_panel_says_who_plays_the_computer_and_when_it_is_the_students_turn() -> None:
    game = owsnb.load("tutorial", seed=1, save=False)
    app = App(game, seat="blue", seats=("blue",), curtain=False)
    panel = ComputerPanel(app.table, {"red": "search(budget=0.8)"}, budget=1.0)
    try:
        assert "red" in panel.who.value and "search(budget=0.8)" in panel.who.value
        assert "1 s an order" in panel.who.value and "blue" in panel.who.value
        # step 1.1 is simultaneous: both act
        assert "red" in panel.status.value and "Your orders" in panel.status.value
        panel.set_thinking("red", True)
        assert "thinking" in panel.status.value
        act = _act(game, "red: done")
        panel.set_thinking("red", False)
        assert act.finished.startswith("1.1") and not act  # the clock says so; nothing listed
        panel.record(act)
        assert "Your turn, <b>blue</b>" in panel.status.value
        assert "red finished step 1.1" in panel.status.value and panel.acts == []
    finally:
        panel.close()
        app.close()


def test_a_unit_that_comes_into_sight_is_marked_where_it_is_seen_not_where_it_came_from() -> None:
    """OWS 6.2: a red ship that moves out of blue's sight and is detected where its move ends
    (next to blue's destroyer, which sails to 0407 and looks at 0506) — blue is told it moved
    there and the map marks that hex, never the hex it came from, which blue never saw. Red's
    turn 2 moves are tried one by one (each on a fork) until one brings a ship into sight."""
    from owsnb.bots import Bot
    from owsnb.testing.clicks import answer_owed

    game = owsnb.load("tutorial", seed=1, save=False)
    red = Bot("greedy", "red", seed=1, budget=None)  # no clock: the same choices everywhere
    todo = ["blue: move B-DDG-1801 0407", "blue: isr 0506"]
    while not (game.clock.turn == 2 and game.clock.step == "3.A.1"):
        acting = game.clock.acting
        if not acting or "umpire" in acting:
            game.submit("umpire: done" if acting else "umpire: advance")
        elif acting[0] == "red":
            red.act(game)
        else:
            mine = [o for o in todo if _ok(game, o)]
            order = answer_owed(game, "blue") or (mine[0] if mine else "blue: done")
            todo = [o for o in todo if o != order]
            game.submit(order)
    unseen = [
        u
        for u in game.view("umpire").units.values()
        if u.side == "red" and u.hex is not None and u.id not in game.view("blue").units
    ]
    tried = 0
    for u in unseen:
        if "move" not in game.legal_orders("red").verbs:
            break
        for h in sorted(game.ruleset.presentation.reach(game.view("red"), u.id) or {}):
            label = game.map.label(h)
            g = game.fork()
            try:
                act = _act(g, f"red: move {u.id} {label}")
            except owsnb.IllegalOrderError:
                continue
            tried += 1
            seen = [m for m in act.marks if m["kind"] == "move"]
            if not seen:
                assert act.lines == () or all(u.id not in line for line, _ in act.lines)
                continue
            where = g.map.label(g.unit(u.id).hex)
            assert (f"{u.id} moves to {where}", "6.4") in act.lines
            assert seen == [
                {"kind": "move", "from": None, "to": where, "title": f"{u.id} seen here"}
            ]
            assert u.id in g.view("blue").units
            return
    raise AssertionError(
        f"no red move of {len(unseen)} unseen units ({tried} tried) came into sight"
    )


def _ok(game: Any, order: str) -> bool:
    from owsnb.kernel.errors import IllegalOrderError

    try:
        game.check(order)
        return True
    except IllegalOrderError:
        return False
