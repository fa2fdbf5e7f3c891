"""Issue 22, deliver 1 and 3: the runner plays a side through the ``Game`` API only — locally
and through ``owsnb.connect`` (the authority then enforces what the bot sees and may do) — with a
time budget per order, then a safe pass, so a bot never stalls a game."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import owsnb
import owsnb.bots as bots
from owsnb.bots import Bot, Policy, play, run_seat, safe_pass
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.orders import Order
from tests.server.conftest import Served


class Sleeper(Policy):
    """Thinks far longer than its budget (a bot that would stall the game)."""

    name = "sleeper"
    defaults = {"seconds": 2.0}

    def choose(self, view, legal, rng, budget):
        time.sleep(self.settings["seconds"])
        return Order(view.side, "move", ("B-INF-1", "0303"))


class Broken(Policy):
    name = "broken"

    def choose(self, view, legal, rng, budget):
        raise RuntimeError("a bug in a bot")


class Cheat(Policy):
    """Orders a move its side may not make (out of reach, rule S2)."""

    name = "cheat"

    def choose(self, view, legal, rng, budget):
        return Order(view.side, "move", ("B-INF-1", "0808"))


def test_a_late_policy_is_cut_off_at_its_budget_and_the_bot_passes_safely(game) -> None:
    bot = Bot(Sleeper(), "blue", budget=0.05, grace=0.05)
    t0 = time.perf_counter()
    sub = bot.act(game)
    took = time.perf_counter() - t0
    assert took < 1.0, f"the runner waited {took:.2f}s for a bot with a 0.05s budget"
    assert sub.order == Order("blue", "done") and bot.timeouts == 1 and bot.passes == 1
    assert (
        game.unit("B-INF-1").hex == game.initial.units["B-INF-1"].hex
    )  # the late move never landed
    assert str(game.clock) == "Turn 1 · Phase 1 Movement · Red acts"


def test_a_failing_policy_passes_and_its_failure_is_recorded(game) -> None:
    bot = Bot(Broken(), "blue")
    assert bot.act(game).order == Order("blue", "done")
    assert bot.failures == ["RuntimeError: a bug in a bot"] and bot.passes == 1


def test_a_refused_order_changes_nothing_is_recorded_with_its_rule_and_the_bot_passes(game) -> None:
    bot = Bot(Cheat(), "blue", budget=None)
    sub = bot.act(game)
    assert sub.order == Order("blue", "done")
    assert (
        len(bot.refusals) == 1
        and "[S2]" in bot.refusals[0]
        and "out of B-INF-1's reach" in bot.refusals[0]
    )
    assert game.unit("B-INF-1").hex == game.initial.units["B-INF-1"].hex


def test_9_2_1_safe_pass_answers_a_strike_with_no_shields_where_done_is_refused() -> None:
    """9.2.1: "a strike on your units waits for your shot calculus" — ``done`` is refused, so
    the safe pass is the least answer the rule accepts: ``shields`` committing nothing."""
    from tests.analysis.test_ows_research import SEEN, strait

    g = owsnb.load(strait(SEEN), seed=5, save=False)
    g.submit("umpire: advance 6.B.2")
    g.submit(g.legal_orders("blue")["strike"].examples[0])
    with pytest.raises(IllegalOrderError, match=r"\[9.2.1\]"):
        g.submit("red: done")
    assert safe_pass(g, "red").order == Order("red", "shields")


def test_play_runs_a_local_game_to_a_turn_limit_with_bots_on_both_sides(game) -> None:
    report = play(game, {"blue": "greedy", "red": "random"}, turns=2, seed=5)
    assert report.stopped == "turn limit 2" and game.clock.turn == 3
    assert {s: b.label for s, b in report.bots.items()} == {"blue": "greedy", "red": "random"}
    for b in report.bots.values():
        assert not b.refusals and not b.failures and not b.timeouts and b.times


def test_play_is_reproducible_from_its_seed(skirmish_file) -> None:
    def run(seed: int) -> list[str]:
        g = owsnb.load(skirmish_file, seed=11, save=False)
        play(
            g,
            {"blue": "random", "red": {"bot": "search", "iterations": 8, "budget": None}},
            turns=2,
            seed=seed,
            budget=None,
        )
        return [str(e.data) for e in g.events]

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_run_seat_plays_a_remote_seat_through_connect_while_a_person_plays_the_other(
    served: Served,
) -> None:
    """The bot's seat is a ``RemoteGame``: it sees red's view only and the authority validates
    its orders; the test plays blue by hand (moves, then done) for two turns."""
    red = served.connect("red")
    blue = served.connect("blue")
    stop = threading.Event()
    box: dict[str, Bot] = {}
    t = threading.Thread(
        target=lambda: box.setdefault(
            "bot",
            run_seat(red, {"bot": "random", "act": 1.0}, turns=2, stop=stop, wait=0.2, seed=1),
        ),
        daemon=True,
    )
    t.start()
    try:
        for turn in (1, 2):
            deadline = time.monotonic() + 20
            while "blue" not in blue.view().clock.acting or blue.view().clock.turn != turn:
                assert time.monotonic() < deadline, (
                    f"the bot stalled the game at {blue.view().clock}"
                )
                blue.wait(timeout=0.2)
            blue.submit("blue: done")  # movement
            deadline = time.monotonic() + 20
            while "blue" not in blue.view().clock.acting:
                assert time.monotonic() < deadline, (
                    f"the bot stalled the game at {blue.view().clock}"
                )
                blue.wait(timeout=0.2)
            blue.submit("blue: done")  # fire
        t.join(30)
    finally:
        stop.set()
    bot = box["bot"]
    assert bot.side == "red" and bot.times and not bot.refusals and not bot.failures
    truth = served.game
    assert truth.clock.turn == 3
    red_orders = [
        e for e in truth.events if e.kind == "unit.move" and e.data["id"].startswith("R-")
    ]
    assert red_orders, "the bot moved red's units through the authority"
    assert bot.orders >= len(red_orders) >= 1


def test_run_seat_refuses_the_umpire_seat(served: Served) -> None:
    with pytest.raises(ValueError, match="plays a side"):
        run_seat(served.connect("umpire"), "greedy")


def test_bot_decision_times_are_recorded(game) -> None:
    bot = Bot("random", "blue", budget=None)
    bot.decide(game)
    t = bot.decision_times()
    assert 0 <= t["p50"] <= t["p95"] <= t["max"] < 5
    assert bots.get("random").label == "random" and np.isfinite(t["p95"])


def _wait_for(cond, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_an_autopilot_answers_a_local_player_whenever_its_side_is_to_act(game) -> None:
    """Play against the computer: the student gives blue's orders; red plays itself."""
    from owsnb.bots import Autopilot

    pilot = Autopilot(game, {"bot": "random", "act": 1.0}, "red", seed=2)
    try:
        for _ in range(2):  # two turns: blue moves and fires by hand, red answers each time
            _wait_for(lambda: "blue" in game.clock.acting, "blue's turn")
            game.submit("blue: done")
        _wait_for(lambda: game.clock.turn == 2 and "blue" in game.clock.acting, "turn 2")
    finally:
        pilot.stop()
    assert not pilot.running and not pilot.errors
    assert pilot.bot.orders >= 1 and any(
        e.kind == "unit.move" and e.data["id"].startswith("R-") for e in game.events
    )


def test_an_autopilot_plays_a_seminar_side_handed_to_it_by_the_umpire(served: Served) -> None:
    """The umpire's console hands red to a bot: the bot plays through the umpire's seat looking
    through red's eyes (``as_side``), so it sees red's view only; blue is a person's seat."""
    from owsnb.bots import Autopilot

    umpire, blue = served.connect("umpire"), served.connect("blue")
    pilot = Autopilot(umpire.as_side("red"), "greedy", seed=1)
    try:
        for _ in range(2):
            _wait_for(lambda: "blue" in blue.view().clock.acting, "blue's turn")
            blue.submit("blue: done")
            blue.wait(timeout=0.5)
        _wait_for(lambda: served.game.clock.turn == 2, "turn 2")
    finally:
        pilot.stop()
    assert not pilot.errors and pilot.bot.times and not pilot.bot.refusals
    assert served.game.clock.turn == 2


def test_an_order_chosen_on_a_state_that_moved_on_is_not_submitted(game) -> None:
    """Someone acts while the bot thinks: its order (chosen on the old state) is dropped, not
    landed on the new one, and the bot is asked again."""

    class Slow(Policy):
        name = "slow"

        def choose(self, view, legal, rng, budget):
            game.submit("blue: move B-INF-1 0303")  # the other seat acts meanwhile
            return Order(view.side, "move", ("B-ARM-1", "0305"))

    bot = Bot(Slow(), "blue", budget=None)
    assert bot.act(game) is None
    assert game.unit("B-ARM-1").hex == game.initial.units["B-ARM-1"].hex
    assert bot.orders == bot.passes == 0 and not bot.refusals


def test_an_event_the_side_cannot_see_does_not_make_its_order_stale(game) -> None:
    """A bot's order is checked against its *side's* revision (``Game.revision``), which an
    event hidden from it does not move — not the game's ``state_id``, which does. Blue's move out
    of Red's sight must not make every order Red's bot chooses stale (the bot then burnt through
    its candidates and passed: greedy gave ~1 order a game on the OWS tutorial)."""
    game.submit("blue: move B-INF-1 0303")  # out of Red's sight: state_id moves, red's does not
    game.submit("blue: done")
    assert game.state_id != game.revision("red")  # the situation the bug needs

    class First(Policy):
        name = "first"

        def choose(self, view, legal, rng, budget):
            return next(ex for spec in legal.specs for ex in spec.examples if spec.verb == "move")

    bot = Bot(First(), "red", budget=None)
    sub = bot.act(game)
    assert sub is not None and sub.order.verb == "move"
    assert bot.orders == 1 and bot.passes == 0 and not bot.refusals
    assert game.unit("R-INF-1").hex != game.initial.units["R-INF-1"].hex
