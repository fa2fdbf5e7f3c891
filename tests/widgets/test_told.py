"""Issue 20: both sides told what happens, in words — the side that must answer sees what is
coming (as far as it may know it), both sides see each exchange they are party to in the
results feed (each line with its rule), and results read as words, not Python."""

from __future__ import annotations

import re

import pytest

import owsnb
from owsnb.testing.clicks import TUTORIAL_TURN, next_order
from owsnb.widgets import App
from owsnb.widgets.orderpanel import ListEditor

STRIKE = "blue: strike R-052D-1 salvos=B-HF3-1:hf3,B-PGG-619:hf3"


def _to(game, order):
    """Play the tutorial's turn (orders and Done) up to the moment *order* may be given."""
    todo = list(TUTORIAL_TURN)
    while True:
        nxt = next_order(game, todo)
        if nxt == order:
            return
        if nxt is not None:
            game.submit(nxt)
            todo.remove(nxt)
        else:
            game.submit(f"{(list(game.clock.acting) or ['umpire'])[0]}: done")


@pytest.fixture
def struck():
    game = owsnb.load("tutorial", seed=1, save=False)
    _to(game, STRIKE)
    return game


def test_9_2_1_the_defender_sees_the_strike_coming_before_allocating_shields(struck):
    """9.2.1: "the defender allocates grey shields": red's panel says what is coming at what —
    the target, the number of salvos and their dice — with the rule; blue's does not."""
    red = App(struck, seat="red", curtain=False)
    blue = App(struck, seat="blue", curtain=False)
    assert red.orders.prompt.value == "" and blue.orders.prompt.value == ""
    blue.table.submit(STRIKE)
    assert "Blue strikes R-052D-1 (2 salvos) with D10, D10" in red.orders.prompt.value
    assert "9.2.1" in red.orders.prompt.value
    assert "B-HF3-1" not in red.orders.prompt.value  # the firing units are not named
    assert blue.orders.prompt.value == ""
    red.table.submit("red: shields R-052D-1:3")
    assert red.orders.prompt.value == ""  # answered: nothing is coming any more


def test_9_8_both_sides_see_the_strikes_result_in_the_feed(struck):
    """9.8: the strike's result reaches both sides' results feed, each line with its rule; the
    attacker's "waiting for red's shields" goes once the dice rolled."""
    red = App(struck, seat="red", curtain=False)
    blue = App(struck, seat="blue", curtain=False)
    blue.orders.verbs.value = "strike"
    blue.table.submit(STRIKE)
    assert "waiting for red" in blue.orders.info.value
    red.table.submit("red: shields R-052D-1:3")
    for app in (red, blue):
        feed = app.orders.feed.value
        assert re.search(r"Strike on R-052D-1: R-052D-1 \d hits?", feed), feed
        assert "<span class='rule'>9.8</span>" in feed
    assert "waiting for red" not in blue.orders.info.value


def test_results_read_in_words_not_python(struck):
    """Issue 20.4: no ``{'R-052D-1': 0}``, no ``False``, no ``snake_case``, no "(s)"."""
    struck.submit(STRIKE)
    sub = struck.submit("red: shields R-052D-1:3")
    html = re.sub(r"<style>.*?</style>", "", sub.result._repr_html_(), flags=re.S)
    shown = re.sub(r"<[^>]+>", " ", html.split("<pre")[0])
    assert "{" not in shown and "False" not in shown and "True" not in shown
    assert "steps lost" in shown and "steps_lost" not in shown
    assert "(s)" not in shown and "hit(s)" not in shown


def test_shield_allocations_are_edited_row_by_row_and_typed_as_one_item(struck):
    """Issue 20: ``B-SQ-CCK:2`` typed for a list was split into characters. A click on the ship
    adds a row (the unit, a spinner for the shields); the text form reads one item per comma."""
    struck.submit(STRIKE)
    app = App(struck, seat="red", curtain=False)
    op = app.orders
    op.choose("shields")
    ed = op._editors["alloc"]
    assert isinstance(ed, ListEditor) and ed.counted
    app.table.pick(unit="R-052D-1")
    assert op.values == {"alloc": ("R-052D-1:3",)}
    assert ed.rows[0].children[0].value == "R-052D-1" and ed.rows[0].children[1].value == 3
    ed.rows[0].children[1].value = 2  # the spinner
    assert str(app.table.order) == "red: shields R-052D-1:2"
    op.reset()
    op.typed.value = "shields R-052D-1:1"
    assert (
        op.values == {"alloc": ("R-052D-1:1",)}
        and str(app.table.order) == "red: shields R-052D-1:1"
    )
