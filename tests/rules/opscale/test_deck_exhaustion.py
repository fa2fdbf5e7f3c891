"""TS.1: when every Command Card is in a hand, the reshuffled pile is empty and nothing is drawn
(a game whose players only pass used to crash in turn 8)."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.rules.opscale import decks


def _pass_to_the_end(game):
    while not game.is_over():
        acting = game.clock.acting
        game.submit(f"{acting[0]}: done" if acting else "umpire: advance")


@pytest.mark.parametrize("seed", [1, 3])
def test_a_done_only_game_reaches_its_end_when_the_command_deck_runs_out_ts_1(seed):
    game = owsnb.load("scenarios/opscale-river-valley.yaml", seed=seed, save=False)
    _pass_to_the_end(game)
    assert game.is_over() and game.clock.turn == 11
    exhausted = [
        e
        for e in game.events
        if e.kind == "note" and e.data["text"] == "the command deck is exhausted: no card is drawn"
    ]
    assert exhausted and all(e.rule == "TS.1" for e in exhausted)
    command = decks.build_deck(game.state.table("cards")["command"])
    hands = [c for s in game.state.sides.values() for c in s.private.get("hand", ())]
    assert sorted(hands) == sorted(command)  # every card held, none drawn twice
    for side in ("blue", "red"):  # the players (green holds no cards)
        s = game.state.sides[side]
        assert s.public["hand_size"] == len(s.private["hand"])
