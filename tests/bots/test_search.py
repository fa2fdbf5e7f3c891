"""The ``search`` bot judges every line at one point of the sequence of play (no horizon effect).

A tree cut after a few orders compares a *pass* — which ends the step and lets in what the step's
end sets off (the enemy's reply, combat, automatic steps on sampled hidden units) — with orders
that keep the step open and so hide all of that beyond the horizon. ``judge`` plays every line
on (each side passing) to the same point: past the root's step, the searching side to act again.
"""

from __future__ import annotations

import numpy as np
import pytest

from owsnb import bots


def _red_assigns():
    """CombatOps blue-attack, step 0.1 after Blue's pass: Red's secret reinforcement
    assignments (chits.py, 14.0 ¶2) — none of them changes anything before the next step."""
    import owsnb
    from owsnb.bots.runner import safe_pass

    game = owsnb.load("combatops-blue-attack", seed=6, save=False)
    safe_pass(game, "blue")
    assert game.clock.acting == ("red",) and game.clock.step == "0.1"
    return game


def test_pass_to_judge_stops_past_the_step_with_the_side_to_act_again() -> None:
    from owsnb.bots.search import _at, _judged, _pass_to_judge

    game = _red_assigns()
    start = _at(game.clock)
    assert not _judged(game, start, "red")
    _pass_to_judge(game, start, "red")
    assert _at(game.clock) != start
    assert game.is_over() or "red" in game.clock.acting
    assert _judged(game, start, "red")


@pytest.mark.parametrize("judge, passes", [(True, True), (False, False)])
def test_an_order_that_only_keeps_the_step_open_does_not_beat_a_pass(judge, passes) -> None:
    """Greedy scores every assignment 0 and passes. Judged at one point, search agrees; judged
    after ``depth`` orders (``judge=False``), an assignment — which keeps Red's step open, so
    the step's end falls beyond the horizon — looked better than the pass that lets it in."""
    game = _red_assigns()
    legal = game.legal_orders("red")
    view = game.view("red")
    assert bots.get("greedy", budget=None).decide(view, legal, np.random.default_rng(0)) is None
    bot = bots.get("search", iterations=40, budget=None, judge=judge)
    order = bot.decide(view, legal, np.random.default_rng(0))
    assert bot.last["iterations"] == 40 and bot.last["failed"] == 0
    assert (order is None) is passes, order
