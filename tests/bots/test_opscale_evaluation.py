"""The Operational Scale evaluation the bots play by (``owsnb/rules/opscale/evaluation.py``)."""

from __future__ import annotations

import numpy as np

import owsnb
from owsnb.bots import Bot
from owsnb.bots.evaluate import evaluation_for
from owsnb.bots.greedy import GreedyPolicy
from owsnb.kernel.orders import Order
from owsnb.rules.opscale import evaluation as E
from owsnb.rules.opscale.engagement import record


def _defender_caught(seeds=range(6)):
    """A game where a side is engaged and cannot fire back (nothing in range, R11: the only
    retaliation is none, and it is a loss): greedy and random play the river valley until that
    happens."""
    for seed in seeds:
        game = owsnb.load("opscale-river-valley", seed=seed, save=False)
        bots = {
            "blue": Bot({"bot": "greedy", "budget": None}, "blue", seed=seed, budget=None),
            "red": Bot("random", "red", seed=seed, budget=None),
        }
        for _ in range(600):
            if game.clock.turn > 2 or game.is_over():
                break
            acting = game.clock.acting
            if not acting:
                game.submit(Order("umpire", "advance"))
                continue
            side = acting[0]
            view = game.view(side)
            rec = record(view)
            if rec and rec["stage"] == "retaliate" and rec["defender"] == side:
                legal = game.legal_orders(side)
                verbs = {s.verb: s for s in legal.specs}
                ret = verbs.get("retaliate")
                if "withdraw" in verbs and ret is not None and not ret.candidates.get("fire"):
                    stay = Order(side, "retaliate")
                    value = E.order_value(view, stay, game.ruleset.preview(view, stay))
                    if value < -1.0:
                        return game, side, value
            bots[side].act(game) if side in bots else game.submit(Order(side, "done"))
    raise AssertionError("no defender caught without return fire in the seeds tried")


def test_r16_a_defender_that_cannot_answer_withdraws_instead_of_taking_the_exchange() -> None:
    """R16 / OES.2: a defender may withdraw from the open engagement (the enemy earns
    experience). Valued at nothing, a withdrawal never beat greedy's pass — and that pass is no
    pass: the defender stays and takes the exchange its exact forecast says it loses. Now it is
    worth the loss it avoids (less ``WITHDRAW``) and greedy withdraws."""
    game, side, stay = _defender_caught()
    view, legal = game.view(side), game.legal_orders(side)
    order = GreedyPolicy(budget=None).decide(view, legal, np.random.default_rng(0))
    assert order is not None and order.verb == "withdraw" and order in legal
    ev = evaluation_for(game.ruleset)
    assert ev.order_value(view, order, None) == -stay - E.WITHDRAW
