"""Issue 22, "done when": a bot's choices are identical across two games whose truths differ
only in what its side cannot know — for every rule set and every bot.

The twins are built from one initial state by changing only hidden facts: the steps of every
enemy unit the side's view does not show (hidden, or face down), the other sides' private
numbers (funds, OP pools...), the order of secret lists (an activation pack) — and, in a second
pair, the dice to come. The side is played by the same bot with the same seed in both games,
the other sides pass, and the same orders are submitted to both. While the side's view and legal
orders are identical in both (until a hidden fact or a die it sees shows), its choices must be.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import owsnb
from owsnb.bots import Bot, Policy, safe_pass
from owsnb.bots.candidates import candidate_orders
from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.dice import rng_state_for_seed
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.game import Game
from tests.bots.test_rulesets import SCENARIOS

BOTS = {  # no wall-clock budgets here: the same inputs must give the same choices
    "random": "random",
    "greedy": {"bot": "greedy", "budget": None},
    "search": {"bot": "search", "iterations": 4, "budget": None, "width": 3, "depth": 3},
    "paired": {"bot": "paired", "iterations": 4, "budget": None, "width": 3},
}


def twin(game: Game, side: str, dice: int | None = None) -> tuple[Game, list[str]]:
    """*game*'s twin for *side*: the same truth but for what *side* cannot know (and, with
    *dice*, other dice to come). Returns it and the hidden units changed."""
    s, rs = game.state, game.ruleset
    units = dict(s.units)
    changed = []
    for u in s.units.values():
        shown = rs.view_unit(s, u, side) if u.side != side else u
        if (shown is None or shown.id != u.id) and u.max_steps > 1:
            units[u.id] = replace(
                u, steps=u.max_steps - 1 if u.steps == u.max_steps else u.max_steps
            )
            changed.append(u.id)
    sides = {
        name: st
        if name == side
        else replace(
            st,
            private=freeze(
                {
                    k: v + 3 if isinstance(v, int) and not isinstance(v, bool) else v
                    for k, v in st.private.items()
                }
            ),
        )
        for name, st in s.sides.items()
    }
    secret = {
        k: tuple(reversed(v))
        if isinstance(v, (list, tuple)) and v and all(isinstance(x, str) for x in v)
        else v
        for k, v in s.secret.items()
    }
    state = replace(
        s,
        units=FrozenDict(units),
        sides=FrozenDict(sides),
        secret=freeze(secret),
        rng=s.rng if dice is None else rng_state_for_seed(dice),
    )
    assert state != s
    return Game(rs, state), changed


def compare(scenario: str, bot: Any, dice: int | None, limit: int) -> dict[str, int]:
    """Play the twins side by side; returns how many decisions were compared (and orders given).
    *bot* is a bot spec, or ``bot(game)`` making the policy that plays in *game*."""
    a = owsnb.load(scenario, seed=1, save=False)
    side = a.clock.acting[0]
    b, _ = twin(a, side, dice)
    assert a.view(side) == b.view(side), "the twins must look the same to the side at the start"
    ba, bb = (Bot(bot(g) if callable(bot) else bot, side, seed=5, budget=None) for g in (a, b))
    n = {"compared": 0, "orders": 0}
    while n["compared"] < limit and not a.is_over():
        acting = a.clock.acting
        assert acting == b.clock.acting  # the clock is public
        if not acting:
            a.submit("umpire: advance")
            b.submit("umpire: advance")
            continue
        if acting[0] != side:
            safe_pass(a, acting[0])
            safe_pass(b, acting[0])
            continue
        same_view = a.view(side) == b.view(side)
        same_legal = repr(a.legal_orders(side).specs) == repr(b.legal_orders(side).specs)
        if not (same_view and same_legal):
            break  # a hidden fact or a die has shown: the side knows more than before
        oa, ob = ba.decide(a), bb.decide(b)
        assert oa == ob, f"{bot} chose {oa} and {ob} on identical views at {a.clock}"
        n["compared"] += 1
        n["orders"] += oa is not None
        for g in (a, b):
            try:
                g.submit(oa) if oa is not None else safe_pass(g, side)
            except IllegalOrderError:
                safe_pass(g, side)
    return n


@pytest.mark.parametrize("bot", list(BOTS))
@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_a_bots_choices_do_not_depend_on_hidden_units_private_facts_or_secrets(
    ruleset: str, bot: str
) -> None:
    # the search thinks longer per decision: fewer of them (OWS's first orders come later)
    limit = 6 if bot in ("search", "paired") and ruleset != "ows" else 12
    n = compare(SCENARIOS[ruleset], BOTS[bot], dice=None, limit=limit)
    assert n["compared"] >= 5, n
    if bot != "random":
        assert n["orders"] >= 1, n


@pytest.mark.parametrize("bot", ["greedy", "search", "paired"])
@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_a_bots_choices_do_not_depend_on_the_dice_to_come(ruleset: str, bot: str) -> None:
    n = compare(SCENARIOS[ruleset], BOTS[bot], dice=4242, limit=4)
    assert n["compared"] >= 1, n


def test_the_twins_really_differ_in_what_the_side_cannot_see() -> None:
    a = owsnb.load(SCENARIOS["combatops"], seed=1, save=False)
    b, changed = twin(a, "blue", dice=7)
    assert changed and all(a.state.units[u].steps != b.state.units[u].steps for u in changed)
    assert a.state.rng != b.state.rng and a.view("blue") == b.view("blue")
    assert a.view("red") != b.view("red")  # red sees its own units: the twins are not the same game


class Peek(Policy):
    """A cheat: it reads the truth of its game (the hidden enemy steps) to decide."""

    name = "peek"

    def __init__(self, game: Game):
        super().__init__()
        self.game = game

    def choose(self, view, legal, rng, budget):
        hidden = sum(u.steps for u in self.game.state.units.values() if u.side != view.side)
        orders = candidate_orders(legal, rng)
        return orders[hidden % len(orders)] if len(orders) > 1 else None


def test_the_harness_catches_a_bot_that_reads_the_truth() -> None:
    with pytest.raises(AssertionError, match="on identical views"):
        compare(SCENARIOS["combatops"], Peek, dice=None, limit=12)
