"""Undo / replay / fork determinism over random legal order sequences (skirmish rule set)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import owsnb
from owsnb.kernel.reduce import apply_all
from tests.conftest import DATA


def play(game, seed: int, n: int) -> list[str]:
    rng = np.random.default_rng(seed)
    orders = []
    while len(orders) < n and not game.is_over():
        side = game.clock.acting[0]
        legal = game.legal_orders(side)
        order = legal.sample(rng) if rng.random() < 0.7 else None
        order = order or f"{side}: done"
        game.submit(order)
        orders.append(str(order))
    return orders


SETTINGS = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40))
def test_replay_from_start_equals_live_state(seed, n):
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    play(g, seed, n)
    assert apply_all(g.initial, g.events) == g.state


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), data=st.data())
def test_state_at_matches_replay(seed, n, data):
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    play(g, seed, n)
    k = data.draw(st.integers(0, g.seq))
    assert g.state_at(k) == apply_all(g.initial, g.events[:k])


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(2, 40), data=st.data())
def test_fork_and_replay_same_orders_gives_same_events(seed, n, data):
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    orders = play(g, seed, n)
    cut = data.draw(st.integers(0, len(orders)))
    # the event count after `cut` submissions
    at = max((e.seq for e in g.events if e.batch <= cut), default=0)
    branch = g.fork(at=at)
    for o in orders[cut:]:
        branch.submit(o)
    assert branch.events == g.events
    assert branch.state == g.state


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(1, 30))
def test_undo_everything_returns_to_the_start(seed, n):
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    orders = play(g, seed, n)
    for _ in orders:
        g.undo()
    assert g.state == g.initial and g.seq == 0
    assert g.state_id == 2 * len(orders)
