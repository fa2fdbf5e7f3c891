"""§10, §12: the activation-card pack, the turn and the day."""

from __future__ import annotations

from fractions import Fraction

import pytest

import owsnb
from owsnb.kernel.errors import IllegalOrderError, NotYourTurnError
from owsnb.rules.opart import RULESET
from owsnb.rules.opart.activation import deployed

from .conftest import battlefield


def _finish_activation(game):
    side = game.state.clock.acting[0]
    game.submit(f"{side}: done")


def test_12_every_formation_is_activated_exactly_once_per_turn(kalinovka):
    all_formations = set(kalinovka.state.public["formations"])
    for turn in (1, 2, 3):
        assert kalinovka.state.clock.turn == turn
        seen = []
        while kalinovka.state.clock.turn == turn:
            card = kalinovka.state.public["card"]
            seen.append(card)
            side = kalinovka.state.public["formations"][card]["side"]
            assert kalinovka.state.clock.acting == (side,)
            _finish_activation(kalinovka)
        assert sorted(seen) == sorted(all_formations), seen
        assert len(seen) == 6


def test_12_the_pack_is_reshuffled_each_turn_from_the_seed(kalinovka):
    orders = []
    for _ in range(4):
        turn = kalinovka.state.clock.turn
        order = []
        while kalinovka.state.clock.turn == turn:
            order.append(kalinovka.state.public["card"])
            _finish_activation(kalinovka)
        orders.append(tuple(order))
    assert len(set(orders)) > 1  # 6! orders; four identical shuffles would mean no shuffle
    again = owsnb.load("opart-kalinovka", seed=1943, save=False)
    first = []
    while again.state.clock.turn == 1:
        first.append(again.state.public["card"])
        _finish_activation(again)
    assert tuple(first) == orders[0]


def test_12_a_day_is_12_turns_then_the_battle_ends(kalinovka):
    while not kalinovka.is_over():
        kalinovka.submit("umpire: advance")
    assert kalinovka.state.clock.turn == 13
    assert "German" in kalinovka.outcome()  # the Germans hold every objective (7 points to 0)
    with pytest.raises(IllegalOrderError, match="over"):
        kalinovka.submit("axis: done")


def test_12_clock_names_day_turn_and_card(kalinovka):
    c = kalinovka.state.clock
    title = kalinovka.state.public["formations"][kalinovka.state.public["card"]]["title"]
    assert c.date == "Day 1, turn 1 of 12"
    assert c.step_title == f"card 1 of 6: {title}"


def test_12_2_only_the_activated_formation_may_act(kalinovka):
    card = kalinovka.state.public["card"]
    side = kalinovka.state.public["formations"][card]["side"]
    other = next(
        u for u in kalinovka.state.units.values() if u.side == side and u.get("formation") != card
    )
    before = (kalinovka.state_id, kalinovka.seq)
    with pytest.raises(IllegalOrderError) as exc:
        kalinovka.submit(f"{side}: face {other.id} NW")
    assert exc.value.code == "not-activated" and exc.value.rule == "12.2"
    assert (kalinovka.state_id, kalinovka.seq) == before
    enemy = "soviet" if side == "axis" else "axis"
    with pytest.raises(NotYourTurnError):
        kalinovka.submit(f"{enemy}: done")


def test_12_deck_order_is_hidden_from_both_sides(kalinovka):
    for _ in range(8):
        _finish_activation(kalinovka)
    truth = kalinovka.state.secret["deck"]
    assert truth  # cards still face down
    for side in ("axis", "soviet"):
        v = kalinovka.view(side)
        assert "deck" not in v.public and not v.secret
        shuffles = [
            e
            for e in v.events
            if e.kind == "die" and str(e.data.get("die", "")).startswith("shuffle")
        ]
        assert shuffles == []
    umpire = kalinovka.view("umpire")
    assert umpire.secret["deck"] == truth
    assert any(
        str(e.data.get("die", "")).startswith("shuffle") for e in umpire.events if e.kind == "die"
    )


def test_10_a_formation_with_no_stands_left_loses_its_card():
    g = battlefield(
        [
            ("G-HQ", "ger-general-average", "axis", "0103", "ger"),
            ("S-HQ", "sov-general-average", "soviet", "1108", "sov"),
            ("A-HQ", "sov-corps-hq", "soviet", "1208", "asset", {"mode": "vehicles"}),
        ]
    )
    assert deployed(g.state) == ["asset", "ger", "sov"]
    g = battlefield(
        [
            ("G-HQ", "ger-general-average", "axis", "0103", "ger"),
            ("S-HQ", "sov-general-average", "soviet", "1108", "sov"),
            ("A-HQ", "sov-corps-hq", "soviet", "1209", "asset"),
        ],
        card="asset",
    )
    g.submit("soviet: exit A-HQ")  # the corps HQ leaves from the south edge
    g.submit("soviet: done")
    while g.state.clock.turn == 1:
        assert g.state.public["card"] != "asset"
        _finish_activation(g)
    assert g.state.public["pack"] == 2


def test_12_umpire_advance_turns_the_next_card(kalinovka):
    first = kalinovka.state.public["card"]
    kalinovka.submit("umpire: advance")
    assert kalinovka.state.public["card"] != first
    assert kalinovka.state.public["turned"][0] == first
    assert RULESET.current(kalinovka.state)[1].key == "12.2"


def test_12_next_card_preview_is_exact_from_public_facts(kalinovka):
    p = kalinovka.preview("axis: done")
    turned = kalinovka.state.public["turned"]
    assert set(p) == set(kalinovka.state.public["formations"]) - set(turned)
    assert all(v == Fraction(1, 5) for v in p.values())
    while len(kalinovka.state.public["turned"]) < 6:
        _finish_activation(kalinovka)
    p = kalinovka.preview("soviet: done")  # the last card: next comes a fresh shuffle of all six
    assert len(p) == 6 and all(v == Fraction(1, 6) for v in p.values())
    assert p == kalinovka.preview("umpire: advance")


def test_12_next_card_preview_matches_100k_seeded_shuffles():
    from owsnb.kernel import Dice
    from owsnb.kernel.dist import Distribution

    pack = ["15gd", "168id", "19pz", "29rc", "74rd", "81rd"]
    dice = Dice.from_seed(1234)
    n = 100_000
    first: dict[str, int] = {}
    second: dict[str, int] = {}
    for i in range(n):
        order = dice.shuffle(pack, purpose="activation cards", rule="12.1")
        first[order[0]] = first.get(order[0], 0) + 1
        if order[0] == "168id":
            second[order[1]] = second.get(order[1], 0) + 1
        if i % 1000 == 0:
            dice.take_events()
    from types import SimpleNamespace as NS

    from owsnb.rules.opart.activation import next_card

    def table_with(turned):
        units = {f: NS(hex=(0, 0), get=lambda key, f=f: f) for f in pack}
        return NS(public={"formations": {f: {} for f in pack}, "turned": turned}, units=units)

    for dist, counts in (
        (next_card(table_with(pack)), first),
        (next_card(table_with(["168id"])), second),
    ):
        assert isinstance(dist, Distribution)
        m = sum(counts.values())
        assert set(counts) == set(dist)
        for fid, prob in dist.items():
            sigma = (float(prob) * (1 - float(prob)) / m) ** 0.5
            assert abs(counts[fid] / m - float(prob)) <= 3 * sigma, (fid, counts, prob)
