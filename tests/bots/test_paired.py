"""Issue 22, deliver 2: the ``paired`` search bot — paired rounds on common random numbers, greedy
play-outs, and greedy's order unless the samples show a better one (``owsnb/bots/paired.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import owsnb
from owsnb.bots import safe_pass
from owsnb.bots.evaluate import evaluation_for
from owsnb.bots.greedy import GreedyPolicy
from owsnb.bots.paired import PASS, PairedSearchPolicy, Round, evidence, paired_round


def _first_orders(game, side: str, k: int = 2):
    """*side*'s best *k* legal orders by greedy's scores now."""
    legal = game.legal_orders(side)
    ranked = GreedyPolicy(budget=None).rank(
        game.view(side), legal, np.random.default_rng(0), _nobudget()
    )
    return [o for _, o in ranked if o in legal][:k]


def _nobudget():
    from owsnb.bots.policy import Budget

    return Budget(None)


@pytest.mark.parametrize("scenario", ["combatops-blue-attack", "tutorial"])
def test_a_round_gives_every_root_action_the_same_world_dice_and_play_out(scenario) -> None:
    """Common random numbers: the same action played twice in one round ends in the same state
    (same world, same dice, same play-out choices), so two actions differ only by what they do."""
    game = owsnb.load(scenario, seed=1, save=False)
    while True:  # to the first decision with two orders worth giving
        if not game.clock.acting:
            game.submit("umpire: advance")
            continue
        side = game.clock.acting[0]
        if len(_first_orders(game, side)) == 2:
            break
        safe_pass(game, side)
    view = game.view(side)
    rnd = Round(view, np.random.default_rng(3))
    assert rnd.game(game.ruleset).state == rnd.game(game.ruleset).state
    assert rnd.rng().integers(2**62) == rnd.rng().integers(2**62)
    search = PairedSearchPolicy(iterations=1, budget=None, horizon=3)
    goals = evaluation_for(game.ruleset).goals(view)
    a, b = _first_orders(game, side)
    values = paired_round(search, game.ruleset, rnd, side, [a, a, b, PASS, b, PASS], goals)
    assert None not in values
    assert values[0] == values[1] and values[2] == values[4] and values[3] == values[5]
    # and the play-outs really play: the game moved on past the decision's step
    played = rnd.game(game.ruleset)
    played.submit(a)
    search.playout(
        played, rnd.rng(), (game.clock.turn, game.clock.phase, game.clock.step, game.clock.active)
    )
    assert played.seq > game.seq + 1


def test_the_evidence_rule_keeps_greedys_choice_unless_the_samples_beat_it() -> None:
    tied = [[], [0.0] * 8, [0.0] * 8]
    assert evidence(tied, 0, z=1.0) == 0  # tied samples: greedy's choice
    assert evidence(tied, 2, z=0.0) == 2  # whichever it is (here: a pass)
    better = [[], [0.5, 0.6, 0.4, 0.5], [1.0, 1.1, 0.9, 1.0]]
    assert evidence(better, 0, z=2.0) == 2  # the best mean among those that clear the bound
    assert evidence(better, 0, z=2.0, margin=1.5) == 0  # not by the margin asked
    assert evidence([[], [1.0, 1.0]], 0, z=1.0, least=3) == 0  # too few rounds
    noisy = [[], [4.0, -3.0, 5.0, -4.0, 3.0, -2.0]]
    assert evidence(noisy, 0, z=1.0) == 0 and evidence(noisy, 0, z=0.0) == 1


def test_without_evidence_the_search_plays_exactly_what_greedy_plays() -> None:
    """With a margin no action can beat greedy's choice by, every decision is greedy's own
    (same seeds): the samples are taken (rounds played) and change nothing."""
    game = owsnb.load("tutorial", seed=2, save=False)
    search = PairedSearchPolicy(iterations=4, budget=None, margin=1e9)
    greedy = GreedyPolicy(budget=None)
    compared = given = 0
    while compared < 12 and game.clock.turn == 1:
        acting = game.clock.acting
        if not acting:
            game.submit("umpire: advance")
            continue
        side = acting[0]
        if side != "blue":
            safe_pass(game, side)
            continue
        view, legal = game.view(side), game.legal_orders(side)
        ours = search.decide(view, legal, np.random.default_rng(compared))
        theirs = greedy.decide(view, legal, np.random.default_rng(compared))
        assert ours == theirs, f"search {ours} and greedy {theirs} at {game.clock}"
        compared += 1
        given += ours is not None
        game.submit(ours) if ours is not None else safe_pass(game, side)
    assert compared == 12 and given >= 3
    assert search.stats["iterations"] > 0 and search.stats.get("deviated", 0) == 0


def test_the_search_deviates_from_greedy_where_its_samples_say_so() -> None:
    """Where the paired rounds show an order beating greedy's choice, the search plays it: in
    the tutorial's first long-range strike step (9.2), signals intelligence on the target
    (``io sigint``, 7.1) before greedy's strike on it gains more steps by the end of the next
    step than the strike at once."""
    from owsnb.bots import play

    class Watched(PairedSearchPolicy):
        seen: list[tuple[str, str]] = []

        def _search(self, view, roots, default, rng, own, outer):
            chosen = super()._search(view, roots, default, rng, own, outer)
            self.seen.append((str(roots[default]), str(chosen)))
            return chosen

    game = owsnb.load("tutorial", seed=1, save=False)
    search = Watched(iterations=8, budget=None)
    red = {"bot": "greedy", "budget": None}
    play(game, {"blue": search, "red": red}, turns=1, seed=1, budget=None)
    deviations = [(g, c) for g, c in search.seen if g != c]
    assert len(search.seen) > 20 and search.stats["deviated"] == len(deviations) >= 1
    assert ("blue: strike R-052D-1" in deviations[0][0]) and (
        deviations[0][1] == "blue: io sigint R-052D-1"
    ), deviations


def test_a_round_the_budget_ends_in_is_dropped_and_greedys_choice_stands() -> None:
    """The budget is checked inside the play-outs: when it runs out mid-round, the unfinished
    round is not used (no half-compared actions) and the decision is greedy's, on time."""
    from owsnb.bots.policy import Budget

    class OutOfTimeAtOnce(PairedSearchPolicy):
        def playout(self, game, rng, start):
            self._budgets = (Budget(0.0),)  # the clock runs out during the first play-out
            return super().playout(game, rng, start)

    game = owsnb.load("tutorial", seed=1, save=False)
    while len(_first_orders(game, "blue")) < 2 or game.clock.acting != ("blue",):
        acting = game.clock.acting
        game.submit("umpire: advance") if not acting else safe_pass(game, acting[0])
    view, legal = game.view("blue"), game.legal_orders("blue")
    search = OutOfTimeAtOnce(budget=30.0, min_rounds=1, z=0.0)
    order = search.decide(view, legal, np.random.default_rng(0))
    greedy = GreedyPolicy(budget=None).decide(view, legal, np.random.default_rng(0))
    assert order == greedy and search.last["iterations"] == 0
    assert all(d == [] for d in search.last["diffs"].values())


def test_more_time_buys_a_longer_look_and_a_fixed_number_of_rounds_one_stage() -> None:
    """Deepening: once a stage's race is settled and time is left, the next stage plays its
    rounds to twice the horizon; with ``iterations`` there is a single stage."""
    game = owsnb.load("tutorial", seed=1, save=False)
    while len(_first_orders(game, "blue")) < 2 or game.clock.acting != ("blue",):
        acting = game.clock.acting
        game.submit("umpire: advance") if not acting else safe_pass(game, acting[0])
    view, legal = game.view("blue"), game.legal_orders("blue")
    timed = PairedSearchPolicy(budget=20.0, clock="cpu", horizon=1, deepen=4)
    timed.decide(view, legal, np.random.default_rng(0))
    assert [h for h, _ in timed.last["stages"]][:2] == [1, 2], timed.last["stages"]
    counted = PairedSearchPolicy(iterations=3, budget=None, horizon=1, deepen=4)
    counted.decide(view, legal, np.random.default_rng(0))
    assert [h for h, _ in counted.last["stages"]] == [1]
