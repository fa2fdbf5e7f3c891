"""Non-interference (issue 18): twin games that differ only in what a side cannot know look the
same to it — its view with its numbers, its legal orders, and every check, preview and submit
answer — over seeded random play-outs of every bundled scenario of the five rule sets and the
kernel's skirmish. And the harness itself finds a side channel where there is one."""

from __future__ import annotations

from dataclasses import replace

import pytest

import owsnb
from owsnb.kernel import codec
from owsnb.kernel.data import EMPTY
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.registry import register_ruleset
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import renumber, side_view
from owsnb.scenario.loader import list_scenarios, load_scenario
from owsnb.testing.twins import (
    InterferenceError,
    LocalObserver,
    _answer,
    _text,
    encode_legal,
    noninterference,
)

register_ruleset("skirmish", "tests.rulesets.skirmish:RULESET")

SKIRMISH = "tests/data/skirmish.yaml"

# (orders played, a twin pair every so many orders) per scenario: the whole suite stays a few
# tens of seconds; the bigger maps get fewer orders
BUDGET = {
    "skirmish": (40, 4),
    "tutorial": (40, 5),
    "sandbox": (30, 5),
    "baltic-ground": (40, 5),
    "western-pacific": (30, 6),
    "tocs-nijmegen": (60, 6),
    "opart-kalinovka": (50, 6),
    "combatops-blue-attack": (50, 6),
    "combatops-red-attack": (50, 6),
    "opscale-river-valley": (40, 5),
}
TOTAL: dict[str, int] = {"pairs": 0, "observations": 0}


def test_every_bundled_scenario_is_covered():
    assert set(list_scenarios()) <= set(BUDGET), "give each bundled scenario a budget here"
    rulesets = {load_scenario(n).spec.ruleset for n in list_scenarios()}
    assert {"ows", "tocs", "opscale", "opart", "combatops"} <= rulesets


@pytest.mark.parametrize("name", sorted(BUDGET))
def test_non_interference_over_a_random_playout(name):
    orders, every = BUDGET[name]
    game = owsnb.load(SKIRMISH if name == "skirmish" else name, seed=5, save=False)
    report = noninterference(game, orders=orders, every=every, follow=2, probes=12, seed=5)
    assert report.pairs >= len(game.sides) * 3, report
    assert report.observations >= 10 * report.pairs, report
    TOTAL["pairs"] += report.pairs
    TOTAL["observations"] += report.observations


class _TruthAnswers(LocalObserver):
    """A side channel: legal orders and checks computed on the truth (the code before issue 18)."""

    def legal(self) -> str:
        g = self.game
        specs = g.ruleset.legal_orders(g.state, self.side)
        return _text(encode_legal(LegalOrders(self.side, tuple(specs))))

    def check(self, order: str) -> str:
        g = self.game
        return _answer(lambda: g.ruleset.check(g.state, Order.parse(order, side=self.side)))


class _GameNumbers(LocalObserver):
    """A side channel: the view with the game's numbers and revision (the code before issue 18)."""

    def view(self) -> str:
        g = self.game
        v = side_view(g.state, self.side, g.ruleset, g.events)
        told = tuple(e for e in renumber(g.events, UMPIRE) if e.visible(self.side))
        v = replace(v, seq=g.seq, events=told)  # the game's numbers
        return _text(
            {"revision": g.state_id, "view": codec.encode(replace(v, map=None, tables=EMPTY))}
        )


@pytest.mark.parametrize("leaky", [_TruthAnswers, _GameNumbers])
def test_the_harness_finds_a_side_channel(leaky):
    """Skirmish moves may not enter or cross a hex held by an enemy (S2), hidden or not: answers
    computed on the truth tell where hidden enemies stand; the game's numbers count the other
    side's hidden moves. Either is caught on the first play-out."""
    game = owsnb.load(SKIRMISH, seed=5, save=False)
    with pytest.raises(InterferenceError, match="can tell the twins apart by"):
        noninterference(game, orders=40, every=2, follow=2, probes=24, seed=5, observer=leaky)
