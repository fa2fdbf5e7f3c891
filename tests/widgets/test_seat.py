"""Seats: a widget's only handle on a game, cut down to one side's view."""

from __future__ import annotations

import pytest

from owsnb.kernel import AuthError, HistoryError, Order
from owsnb.testing import find_leaks, hidden_tokens
from owsnb.widgets.seat import LocalSeat, Seat, as_seat


def test_local_seat_view_is_the_side_view(pgame):
    seat = Seat.local(pgame, "blue")
    assert sorted(seat.view().units) == ["B-ARM-1", "B-INF-1", "B-REC-1"]
    assert seat.state_id == pgame.state_id == 0
    assert Seat.local(pgame, "umpire").view().units.keys() == pgame.state.units.keys()


def test_unknown_side_is_refused(pgame):
    # the one answer for an unknown side (issue 17); still a KeyError for older callers
    with pytest.raises(KeyError, match="unknown side 'green'; the sides are blue, red"):
        Seat.local(pgame, "green")


def test_side_seat_cannot_give_preview_or_check_other_sides_orders(pgame):
    blue = Seat.local(pgame, "blue")
    for call in (blue.submit, blue.preview, blue.check):
        with pytest.raises(AuthError, match="blue seat cannot give red's orders"):
            call("red: done")
    with pytest.raises(AuthError):
        blue.legal_orders("red")
    assert pgame.seq == 0


def test_orders_without_side_prefix_are_the_seats(pgame):
    blue = Seat.local(pgame, "blue")
    sub = blue.submit("move B-ARM-1 0504")
    assert sub.order == Order.parse("blue: move B-ARM-1 0504")
    assert pgame.unit("B-ARM-1").hex == pgame.hex("0504")


def test_umpire_seat_acts_for_any_side(pgame):
    ump = Seat.local(pgame, "umpire")
    assert "move" in ump.legal_orders("blue").verbs
    ump.submit("blue: done")
    assert pgame.clock.acting == ("red",)
    ump.submit("red: done")
    assert (pgame.clock.turn, pgame.clock.phase) == (1, "2")
    ump.submit("umpire: advance")
    assert (pgame.clock.turn, pgame.clock.phase) == (2, "1")


def test_submission_and_changes_carry_only_visible_events(pgame):
    red = Seat.local(pgame, "red")
    changes = []
    red.subscribe(changes.append)
    blue = Seat.local(pgame, "blue")
    sub = blue.submit("blue: move B-ARM-1 0504")
    assert len(sub.events) == 2  # blue sees its own move and marker
    assert changes and changes[-1].events == ()  # red saw nothing of the undetected move
    assert changes[-1].state_id == pgame.state_id


def test_view_at_rounds_down_to_an_event_the_seat_saw(pgame):
    blue = Seat.local(pgame, "blue")
    red = Seat.local(pgame, "red")
    blue.submit("blue: move B-ARM-1 0504")  # events 1-2, visible to blue only
    blue.submit("blue: done")
    v = red.view_at(2)
    assert v.seq == 0  # the hidden events do not exist for red
    assert blue.view_at(2).seq == 2
    with pytest.raises(HistoryError):
        blue.view_at(999)


def test_views_at_every_point_carry_no_hidden_token(pgame):
    blue = Seat.local(pgame, "blue")
    blue.submit("blue: move B-ARM-1 0504")
    blue.submit("blue: done")
    tokens = hidden_tokens(pgame.state, "blue", pgame.ruleset)
    assert {"R-INF-1", "R-ARM-1", "R-REC-1", "Red scouts"} <= tokens
    for n in range(pgame.seq + 1):
        v = blue.view_at(n)
        assert (
            find_leaks([u.id for u in v.units.values()] + [str(e) for e in v.events], tokens) == []
        )


def test_annotations_are_private_to_their_side_unless_public(pgame):
    blue, red, ump = (Seat.local(pgame, s) for s in ("blue", "red", "umpire"))
    blue.annotate("blue plan", hex="0504")
    blue.annotate("everyone may read", side=None)
    ump.annotate("umpire note")
    assert [a.text for a in blue.annotations()] == ["blue plan", "everyone may read"]
    assert [a.text for a in red.annotations()] == ["everyone may read"]
    assert len(ump.annotations()) == 3
    with pytest.raises(AuthError):
        blue.annotate("forged", side="red")
    with pytest.raises(KeyError):
        blue.annotate("about a hidden unit", unit="R-ARM-1")


def test_fork_gives_a_seat_on_a_branch(pgame):
    blue = Seat.local(pgame, "blue")
    blue.submit("blue: move B-ARM-1 0504")
    branch = blue.fork(0)
    assert isinstance(branch, LocalSeat) and branch.side == "blue"
    assert branch.view().units["B-ARM-1"].hex == pgame.hex("0204")
    assert pgame.unit("B-ARM-1").hex == pgame.hex("0504")


def test_as_seat(pgame):
    s = as_seat(pgame, "red")
    assert isinstance(s, LocalSeat) and s.side == "red"
    assert as_seat(s) is s
    with pytest.raises(ValueError, match="which seat"):
        as_seat(pgame)
    with pytest.raises(ValueError, match="not 'blue'"):
        as_seat(s, "blue")
    with pytest.raises(TypeError, match="not a Game or a seat"):
        as_seat(object())
