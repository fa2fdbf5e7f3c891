"""Forces and losses by side and domain over turns (issue 6) through the ``unit_domain`` hook:
OWS counts its counters (2.2) as air, maritime, land or SOF; a face-down counter only by side."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.kernel.events import unit_set
from owsnb.kernel.game import Game
from owsnb.kernel.reduce import apply
from owsnb.widgets import Dashboard


def _next_turn(g: owsnb.Game) -> None:
    turn = g.clock.turn
    for _ in range(200):
        if g.clock.turn != turn:
            return
        g.submit("umpire: advance")
    raise AssertionError("the turn did not end")


@pytest.fixture
def tutorial() -> owsnb.Game:
    return owsnb.load("tutorial", seed=1, save=False)


def test_ows_domains_follow_the_counter_category(tutorial):
    rs = tutorial.ruleset
    dom = {
        u.data["category"]: rs.presentation.unit_domain(None, u)
        for u in tutorial.state.units.values()
    }
    assert dom["naval"] == "maritime" and dom["air-mission"] == "air" and dom["air-base"] == "air"
    assert dom["ground"] == "land" and dom["artillery"] == "land" and dom["sof"] == "sof"
    assert rs.unit_facts(tutorial.unit(next(iter(tutorial.state.units))))["domain"] in {
        "air",
        "maritime",
        "land",
        "sof",
    }


def test_dashboard_groups_forces_by_side_and_domain_over_turns(tutorial):
    _next_turn(tutorial)
    d = Dashboard(tutorial, seat="umpire")
    data = d.series()
    view = tutorial.view("umpire")
    expected: dict[str, int] = {}
    for u in view.units.values():
        key = f"{u.side}/{tutorial.ruleset.presentation.unit_domain(view, u)}"
        expected[key] = expected.get(key, 0) + (u.steps if u.alive else 0)
    assert {
        "blue/air",
        "blue/maritime",
        "blue/land",
        "red/air",
        "red/maritime",
        "red/land",
        "red/sof",
    } <= set(expected)
    assert set(data["strength"]) == set(expected)  # every group is side/domain: no bare side
    assert {g: pts[-1] for g, pts in data["strength"].items()} == {
        g: (2, n) for g, n in expected.items()
    }
    assert all([t for t, _ in pts] == [0, 1, 2] for pts in data["strength"].values())
    # one Lines mark per side (its line style), one colour per domain, whole-number ticks
    from owsnb.widgets.dashboard import DOMAIN_COLOURS

    marks = d.lines["strength"]
    assert marks["blue"].line_style == "solid" and marks["red"].line_style == "dashed"
    for side, mark in marks.items():
        labels = list(mark.labels)
        assert labels == sorted(g for g in expected if g.startswith(f"{side}/"))
        assert len(mark.y) == len(labels) and list(mark.x) == [0, 1, 2]
        for g, c in zip(labels, mark.colors, strict=True):
            assert c == DOMAIN_COLOURS[g.split("/")[1]]
    assert (
        marks["blue"].colors[list(marks["blue"].labels).index("blue/air")]
        == (marks["red"].colors[list(marks["red"].labels).index("red/air")])
    )
    assert list(d.figs["strength"].axes[0].tick_values) == [0, 1, 2]
    yticks = list(d.figs["strength"].axes[1].tick_values)
    assert all(float(t).is_integer() for t in yticks) and yticks == sorted(set(yticks))
    assert yticks[-1] >= max(expected.values())
    legend = d.legends["strength"].value
    assert "Red (PLA) · maritime" in legend and "stroke-dasharray='7 4'" in legend


def test_losses_are_counted_in_the_domain_that_lost_them(tutorial):
    ship = next(
        u
        for u in tutorial.state.units.values()
        if u.side == "red" and u.data["category"] == "naval" and u.max_steps > 1
    )
    g = Game(
        tutorial.ruleset,
        apply(tutorial.state, unit_set(ship.id, steps=ship.max_steps - 1, seen_by={"blue"})),
    )
    _next_turn(g)
    data = Dashboard(g, seat="blue").series()
    assert data["losses"]["red/maritime"] == [
        (0, 1),
        (1, 1),
        (2, 1),
    ]  # Blue sees the damaged ship it detected
    assert all(  # no other losses: blue's own none (0), red's none seen (0) or unknown (None)
        n == 0 if grp.startswith("blue") else n in (0, None)
        for grp, pts in data["losses"].items()
        if grp != "red/maritime"
        for _, n in pts
    )
    assert not any(
        g.startswith("red/land") for g in data["strength"]
    )  # red ground units Blue has not detected


def test_a_seat_sees_enemy_domains_only_of_what_it_detected(tutorial):
    data = Dashboard(tutorial, seat="red").series()
    view = tutorial.view("red")
    blue = {
        f"blue/{tutorial.ruleset.presentation.unit_domain(view, u)}"
        for u in view.units.values()
        if u.side == "blue"
    }
    assert (
        {g for g in data["strength"] if g.startswith("blue")} == blue == {"blue/air"}
    )  # the fixed air base (8.3.1)


def test_a_face_down_counter_counts_under_its_side_only(tutorial):
    from owsnb.kernel.state import Unit

    assert (
        tutorial.ruleset.presentation.unit_domain(None, Unit("unknown-1", "red", "unknown")) is None
    )


def test_opscale_counts_its_cards_by_their_domain():
    """Operational Scale cards carry their domain (ground, air, naval) on their face."""
    g = owsnb.load("opscale-river-valley", seed=3, save=False)
    view = g.view("blue")
    groups = set(Dashboard(g, seat="blue").series()["strength"])
    expected = {
        f"{u.side}/{g.ruleset.presentation.unit_domain(view, u)}" for u in view.units.values()
    }
    assert groups == expected and "red/air" in groups and "blue/ground" in groups
