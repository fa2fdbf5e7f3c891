"""Random play-outs of the Kalinovka scenario: a whole day of legal orders, invariants, views, replay."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.kernel.reduce import apply
from owsnb.testing import random_playout


def deck_stays_hidden(game) -> None:
    """The order of the face-down cards is in no side's view (§12: the pack is face down)."""
    deck = game.state.secret.get("deck", ())
    for side in game.state.sides:
        v = game.view(side)
        if "deck" in v.public or v.secret:
            raise AssertionError(f"{side} sees the activation pack")
        for e in v.events:
            if e.kind == "die" and str(e.data.get("die", "")).startswith("shuffle"):
                raise AssertionError(f"{side} sees a shuffle: {e}")
            if e.kind == "state.set" and e.data.get("scope") == "secret":
                raise AssertionError(f"{side} sees a secret change: {e}")
    assert isinstance(deck, (list, tuple))


def morale_never_negative(game) -> None:
    for fid, m in game.state.public["morale"].items():
        if m < 0:
            raise AssertionError(f"{fid} has morale {m}")


def test_random_playout_of_a_whole_day():
    game = owsnb.load("opart-kalinovka", seed=7, save=False)
    report = random_playout(
        game, max_orders=600, seed=3, extra_checks=[deck_stays_hidden, morale_never_negative]
    )
    assert report.over and game.is_over()
    assert report.turns == 13 or {
        u.side for u in game.state.units.values() if u.hex is not None
    } != {"axis", "soviet"}
    verbs = {o.split(":")[1].split()[0] for o in report.orders}
    assert {"move", "attack", "done"} <= verbs
    assert "German" in game.outcome() or "Soviet" in game.outcome() or "draw" in game.outcome()


@pytest.mark.parametrize(
    "options",
    [
        {"band_boundaries": "attacker", "round_thresholds": True, "rolloff_ties": "stand"},
        {"engagement_limit": "one_per_hex", "flank_attacks": False, "river_crossing": "fordable"},
        {"mode_change": "fixed", "fire_then_move": False, "withdraw_distance": 1, "gap_span": 4},
        {
            "cv_additions": "sum",
            "command_bonus_same_hex": True,
            "village_cover": False,
            "minimum_move": False,
            "generals_in_woods": True,
            "anti_tank_needs_sight": True,
            "stack_capacity": 2,
        },
    ],
)
def test_random_playout_under_options(options):
    game = owsnb.load("opart-kalinovka", seed=11, save=False, options=options)
    report = random_playout(
        game, max_orders=150, seed=5, extra_checks=[deck_stays_hidden, morale_never_negative]
    )
    assert len(report.orders) == 150 or report.over


def test_undo_and_replay_after_play():
    game = owsnb.load("opart-kalinovka", seed=2, save=False)
    random_playout(game, max_orders=80, seed=9, check_views=False)
    s_before, seq = game.state, game.seq
    removed = game.undo()
    assert removed and game.seq == seq - len(removed)
    s = game.initial
    for e in game.events:
        s = apply(s, e, game.ruleset.reducers)
    assert s == game.state != s_before
