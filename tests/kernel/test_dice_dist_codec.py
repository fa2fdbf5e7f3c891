"""Seeded dice, exact distributions and the JSON codec."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import owsnb
from owsnb.kernel import Dice, Distribution, codec
from owsnb.kernel.dice import rng_state_for_seed
from owsnb.testing import fixed_dice
from tests.conftest import DATA


def test_same_seed_same_rolls_and_state_round_trips():
    a, b = Dice.from_seed(42), Dice.from_seed(42)
    ra = [a.roll(10, purpose="x") for _ in range(50)]
    assert ra == [b.roll(10, purpose="x") for _ in range(50)]
    c = Dice(a.state)  # continue from a stored state
    assert [c.roll(6, purpose="y") for _ in range(20)] == [
        a.roll(6, purpose="y") for _ in range(20)
    ]


def test_rolls_are_recorded_with_purpose_rule_and_visibility():
    d = Dice.from_seed(1, actor="blue", visible_to="blue")
    d.roll("d12", purpose="detect", rule="8.4")
    d.roll_many(3, 4, purpose="partisan attack", rule="10.15.10.4", visible_to=None)
    e1, e2 = d.take_events()
    assert (e1.data["die"], e1.data["purpose"], e1.rule, e1.visible_to) == (
        "d12",
        "detect",
        "8.4",
        frozenset({"blue"}),
    )
    assert e2.data["die"] == "3d4" and len(e2.data["result"]) == 3 and e2.visible_to is None
    assert d.events == []


def test_die_faces_are_uniform_within_3_sigma():
    d = Dice.from_seed(2026)
    n = 60_000
    counts = np.bincount([d.roll(6, purpose="uniformity") for _ in range(n)], minlength=7)[1:]
    sigma = (n * (1 / 6) * (5 / 6)) ** 0.5
    assert np.all(np.abs(counts - n / 6) < 3 * sigma)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "x10", "d", True])
def test_bad_dice_are_refused(bad):
    with pytest.raises(ValueError):
        Dice.from_seed(1).roll(bad, purpose="bad")


def test_fixed_dice_script():
    d = fixed_dice([4, 2])
    assert (d.roll(6, purpose="a"), d.roll(6, purpose="b")) == (4, 2)
    with pytest.raises(AssertionError, match="impossible on a d4"):
        fixed_dice([5]).roll(4, purpose="c")


def test_distribution_algebra():
    two_d6 = Distribution.die(6) + Distribution.die(6)
    assert two_d6[2] == Fraction(1, 36) and two_d6[7] == Fraction(6, 36) and len(two_d6) == 11
    assert sum(two_d6.values()) == 1
    assert Distribution.sum([Distribution.die(4)] * 3).mean() == Fraction(15, 2)
    best = Distribution.die(8).combine(Distribution.die(8), max)
    assert best[8] == Fraction(15, 64)
    chain = Distribution.bernoulli(Fraction(1, 2)).bind(
        lambda hit: Distribution.die(6) if hit else Distribution.point(0)
    )
    assert chain[0] == Fraction(1, 2) and chain[3] == Fraction(1, 12)
    with pytest.raises(ValueError, match="sum to"):
        Distribution({1: Fraction(1, 3)})


def test_distribution_matches_sampling_within_3_sigma():
    dist = (Distribution.die(10) + Distribution.die(8)).map(lambda s: s >= 12)
    rng = np.random.default_rng(9)
    n = 100_000
    sample = (rng.integers(1, 11, n) + rng.integers(1, 9, n)) >= 12
    p = float(dist[True])
    assert abs(sample.mean() - p) < 3 * (p * (1 - p) / n) ** 0.5


@given(st.integers(0, 2**32 - 1))
def test_rng_state_encodes_exactly(seed):
    s = rng_state_for_seed(seed)
    assert codec.loads(codec.dumps(s)) == s


def test_state_and_history_round_trip_through_json():
    g = owsnb.load(DATA / "skirmish.yaml", seed=8, save=False)
    from tests.properties.test_replay_properties import play

    play(g, 8, 30)
    assert codec.loads(codec.dumps(g.initial)) == g.initial
    assert codec.loads(codec.dumps(list(g.events))) == g.events
    assert codec.loads(codec.dumps(g.view("blue"))) == g.view("blue")


def test_codec_refuses_unknown_objects():
    with pytest.raises(TypeError, match="cannot encode"):
        codec.dumps(object())
