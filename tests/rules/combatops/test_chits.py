"""Reinforcement chits (14.0, errata 10.0) and variable game length (15.0)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from owsnb.kernel.dice import Dice
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.game import Game
from owsnb.rules.combatops import RULESET, chits
from owsnb.rules.combatops.victory import Verdict

from .conftest import RED_ATTACK, at, load, to_step


def with_public(g: Game, **changes) -> Game:
    return Game(RULESET, g.state.evolve(public=g.state.public.set(**changes)))


@pytest.fixture
def red_attack_assigned() -> Game:
    """17.1 with Red's A(+) secretly on chit 6 (its C(-) and D(-) on 6 and 7 by default)."""
    g = load(RED_ATTACK, seed=3)
    g.submit("red: assign A 6")
    return g


def test_14_0_assignments_are_secret_and_per_pass(red_attack_assigned):
    g = red_attack_assigned
    red = g.state.sides["red"].private["assign"]
    assert red["2"]["6"] == "A" and red["1"] == {"6": "C", "7": "D"}
    assert g.view("blue").sides["red"].private == {}
    assert all(
        e.visible_to == frozenset({"red"}) for e in g.events if e.kind in ("side.set", "note")
    )


def test_14_0_assign_swaps_rather_than_leaving_a_reinforcement_off_the_cup(red_attack_assigned):
    g = red_attack_assigned
    g.submit("red: assign B 6")  # B(+) takes chit 6; A moves to B's old chit
    table = g.state.sides["red"].private["assign"]["2"]
    assert table["6"] == "B" and sorted(table.values()) == ["A", "B"]
    with pytest.raises(IllegalOrderError) as e:
        g.submit("red: assign A 3")
    assert e.value.code == "not-your-chit" and e.value.rule == "14.0"  # Blue owns 1-5 (errata 10.0)


def test_14_0_opponent_drawing_a_chit_cancels_only_this_passs_assignment(red_attack_assigned):
    g = to_step(red_attack_assigned, "D2")
    first = with_public(g, cup=(6,), **{"pass": 1})
    first.submit("blue: draw")
    lost = first.state.sides["red"].private["lost"]
    assert lost == ("C",)  # the first-pass assignment on chit 6, not A(+)
    second = with_public(g, cup=(6,), **{"pass": 2})
    second.submit("blue: draw")
    assert second.state.sides["red"].private["lost"] == ("A",)  # the 14.0 example: A never arrives
    assert "A" not in second.state.sides["blue"].private.get("lost", ())
    assert not [
        e for e in second.log("blue") if "reinforcement A" in str(e)
    ]  # Blue is not told what it was


def test_14_0_own_chit_brings_the_reinforcement_in_this_half_turn(red_attack_assigned):
    g = to_step(red_attack_assigned, "A2")
    g = with_public(g, cup=(6,), **{"pass": 2})
    g.submit("red: draw")
    assert at(g, "R-2MI/21") == "arrived" and g.clock.step == "A2"
    g.submit("red: done")
    assert g.clock.step == "A3"
    assert "R-2MI/21" in g.legal_orders("red")["enter"].candidates["unit"]


def test_4_0_done_draws_the_chit_if_the_player_did_not():
    g = to_step(load(RED_ATTACK, seed=3), "A2")
    assert len(g.state.public["cup"]) == 10
    g.submit("red: done")
    assert len(g.state.public["cup"]) == 9 and g.clock.step == "A3"
    assert g.state.public["drawn"][0]["side"] == "red"


def test_15_0_cup_is_refilled_for_the_second_pass():
    g = to_step(load(RED_ATTACK, seed=3), "A2")
    g = with_public(g, cup=(), **{"pass": 1})
    g.submit("red: draw")
    assert g.state.public["pass"] == 2 and len(g.state.public["cup"]) == 9


def _at_draw(turn: int, pas: int, **options) -> Game:
    g = to_step(load(RED_ATTACK, seed=3, **options), "A2")
    s = g.state
    return Game(
        RULESET,
        s.evolve(
            public=s.public.set(cup=(10,), **{"pass": pas}), clock=replace(s.clock, turn=turn)
        ),
    )


def test_15_0_example_chit_10_in_turn_7_makes_it_the_last_turn():
    g = _at_draw(7, 2)
    g.submit("red: draw")
    assert g.state.public["end"]["turn"] == 7
    for _ in range(30):
        if g.is_over():
            break
        g.submit(f"{g.clock.acting[0]}: done")
    assert (
        g.is_over() and g.clock.turn == 7 and g.clock.step == "A7"
    )  # after Red's half-turn (digest review #31)
    assert isinstance(g.outcome(), Verdict) and "Game over" in str(g.events[-1])


def test_15_0_game_turn_option_lets_the_defender_finish_the_turn():
    g = _at_draw(7, 2, end_chit="game-turn")
    g.submit("red: draw")
    for _ in range(30):
        if g.is_over():
            break
        g.submit(f"{g.clock.acting[0]}: done")
    assert g.is_over() and g.clock.turn == 7 and g.clock.step == "D7"


def test_15_0_chit_10_in_the_first_pass_does_not_end_the_game():
    g = _at_draw(3, 1)
    g.submit("red: draw")
    assert "end" not in g.state.public
    g.submit("red: done")
    to_step(g, "A2")
    assert not g.is_over() and g.clock.turn == 4


def test_15_0_without_the_end_chit_the_game_stops_after_turn_10():
    g = to_step(load(RED_ATTACK, seed=3), "D2")
    g = Game(
        RULESET,
        g.state.evolve(
            clock=replace(g.state.clock, turn=10),
            public=g.state.public.set(cup=(1,), **{"pass": 2}),
        ),
    )
    for _ in range(10):
        if g.is_over():
            break
        g.submit(f"{g.clock.acting[0]}: done")
    assert g.is_over() and g.state.public["over_reason"] == "turn 10 was the last turn"


def test_14_0_draw_preview_is_exact_and_matches_100k_seeded_draws(red_attack_assigned):
    g = to_step(red_attack_assigned, "A2")
    g = with_public(g, cup=(2, 3, 6, 9, 10), **{"pass": 2})
    dist = g.preview("red: draw")
    assert {k[0] for k in dist} == {2, 3, 6, 9, 10} and all(
        p == Fraction(1, 5) for p in dist.values()
    )
    meanings = dict(dist)
    assert "your reinforcement A arrives" in [m for (c, m) in meanings if c == 6][0]
    assert "END OF GAME" in [m for (c, m) in meanings if c == 10][0]
    assert "blue's chit" in [m for (c, m) in meanings if c == 2][0]
    dice = Dice.from_seed(2024)
    n = 100_000
    counts: Counter = Counter()
    for _ in range(n):
        counts[chits.draw_chit((2, 3, 6, 9, 10), dice, side="red", pas=2)] += 1
        dice.events.clear()
    for (chit, _), p in dist.items():
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(counts[chit] - n * float(p)) <= 3 * sigma, (chit, counts[chit])


def test_14_0_draws_are_public_events_with_their_rule():
    g = to_step(load(RED_ATTACK, seed=3), "A3")
    dies = [e for e in g.events if e.kind == "die"]
    assert len(dies) == 1 and dies[0].visible_to is None and dies[0].rule == "14.0"
    assert dies[0] in g.view("blue").events
