"""Issue 7.3: ``owsnb.connect`` gives a drop-in ``Game`` — every public name of the local
``Game`` exists on ``RemoteGame`` (or is listed below as local-only, with the reason), and each
answers from the seat's view: units, map, state, the past (``state_at``, ``step_to``), the end of
the game (``is_over``/``outcome``, decided by the authority) and the research history."""

from __future__ import annotations

import inspect

import pytest
import xarray as xr

import owsnb.analysis
from owsnb.analysis.history import history as truth_history
from owsnb.kernel.errors import AuthError, HistoryError
from owsnb.kernel.game import Game
from owsnb.kernel.view import seen_positions
from owsnb.server.client import RemoteGame
from owsnb.testing import find_leaks, hidden_tokens
from owsnb.widgets.seat import LocalSeat
from tests.server.conftest import Served

#: ``Game`` names a seat does not have, and why (each also explained in its docstring/error).
LOCAL_ONLY = {
    # a fork replays the truth from the start; a seat holds only its view (RemoteGame.fork
    # raises HistoryError saying so; can_fork is False so the History panel hides the button)
    "fork",
    # where a local game writes its commits: the authority owns the store, a seat writes nothing
    "sink",
    # replays the truth from the initial state (a consistency check of snapshots): no truth here
    "state_at_replay",
}

#: the blue reconnaissance unit moves next to red's, so that blue detects R-REC-1 (rule S3)
PLAY = [
    ("blue", "blue: move B-REC-1 0604"),
    ("blue", "blue: done"),
    ("red", "red: move R-REC-1 0705"),
    ("red", "red: done"),
    ("blue", "blue: done"),
    ("red", "red: done"),
]


def _public(obj: object) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")}


def _play(served: Served) -> dict[str, RemoteGame]:
    seats = {s: served.connect(s) for s in ("blue", "red", "umpire")}
    for side, order in PLAY:
        seats[side].submit(order)
    game = served.game
    for side, s in seats.items():
        assert s.wait(game.revision(side), 10)
    return seats


def test_remote_game_has_every_public_name_of_game(served: Served) -> None:
    game = served.game
    names = _public(game)
    assert {"state", "unit", "units", "map", "state_at", "is_over", "outcome", "cursor"} <= names
    assert LOCAL_ONLY <= names, "a local-only name that Game no longer has: drop it from the list"
    remote = served.connect("blue")
    missing = sorted(n for n in names - LOCAL_ONLY if not hasattr(remote, n))
    assert not missing, f"RemoteGame lacks Game's {missing}"
    # methods stay methods, properties stay values
    for n in sorted(names - LOCAL_ONLY):
        assert callable(getattr(game, n)) == callable(getattr(remote, n)) or n == "annotations", n
    assert remote.can_fork is False and remote.holds_truth is False
    with pytest.raises(HistoryError, match="cannot fork"):
        remote.fork()
    assert "truth" in inspect.getdoc(RemoteGame.fork)


def test_reads_answer_from_the_seats_view(served: Served) -> None:
    seats = _play(served)
    blue, red = seats["blue"], seats["red"]
    game = served.game
    local = LocalSeat(game, "blue")
    assert blue.state == local.view() == game.view("blue")  # blue's numbers, exactly
    assert blue.units == game.view("blue").units and blue.map == game.state.map
    assert blue.unit("B-REC-1").hex == blue.hex("0604")
    assert blue.unit("R-REC-1").hex == blue.hex("0705")  # detected by B-REC-1 next to it
    assert "B-REC-1" in red.units and "B-INF-1" not in red.units  # B-INF-1 is still unseen
    with pytest.raises(KeyError):
        red.unit("B-INF-1")
    assert blue.initial == local.view_at(0) and blue.state_at(3) == local.view_at(3)
    seen = game.view("blue").seq
    assert seen < game.seq  # blue counts the events it saw
    with pytest.raises(HistoryError):
        blue.state_at(seen + 1)
    assert blue.cursor == seen and blue.at_head
    assert blue.sides == game.sides and blue.clock == game.clock
    assert [a.text for a in blue.annotations] == []
    seats["umpire"].annotate("blue found the enemy", side="blue")
    assert [a.text for a in blue.annotations] == [a.text for a in blue.annotations()]
    assert [a.text for a in red.annotations] == []
    assert "seed" not in blue.meta and blue.meta["game"] == served.created.game_id


def test_step_to_moves_only_this_handle(served: Served) -> None:
    seats = _play(served)
    blue, red = seats["blue"], seats["red"]
    end, game_end = blue.seq, served.game.seq
    past = blue.step_to(2)
    assert not blue.at_head and blue.cursor == 2
    assert blue.state == past == blue.state_at(2) and blue.unit("B-REC-1").hex == blue.hex("0604")
    assert "R-REC-1" not in blue.units  # not yet detected then
    assert [e.seq for e in blue.log()] == [1, 2]
    with pytest.raises(HistoryError, match="rewound"):
        blue.submit("blue: done")
    assert red.at_head and served.game.seq == game_end  # the shared game did not move
    blue.step_to(end)
    assert blue.at_head and "R-REC-1" in blue.units


def test_is_over_and_outcome_come_from_the_authority(served: Served) -> None:
    blue, red, ump = (served.connect(s) for s in ("blue", "red", "umpire"))
    assert blue.is_over() is False
    assert blue.outcome() is None  # a side learns the outcome when the game ends
    assert ump.outcome() == served.game.outcome()
    turns = int(served.game.state.scenario["turns"])
    while not served.game.is_over():
        acting = served.game.clock.acting
        seat = {"blue": blue, "red": red}.get(acting, ump)
        seat.submit(f"{acting}: done" if acting in ("blue", "red") else "umpire: advance")
        assert served.game.clock.turn <= turns + 1
    assert red.wait(served.game.revision("red"), 10)
    assert blue.is_over() is True and red.is_over() is True
    assert blue.outcome() == red.outcome() == served.game.outcome()


def test_history_holds_only_what_the_seat_saw(served: Served) -> None:
    seats = _play(served)
    game = served.game
    blue = seats["blue"]
    ds = blue.history(every="event")
    # at each event blue saw, its view is the truth cut to blue: the local history, numbers too
    ref = truth_history(game, side="blue", every="event")
    seen = seen_positions(game.events, "blue")
    assert len(seen) < game.seq  # blue counts the events it saw
    assert list(ds["seq"].values) == list(range(len(seen) + 1))
    xr.testing.assert_equal(ds, ref)
    assert ds.attrs["side_view"] == "blue" and ds.attrs["seed"] == -1
    assert ds["present"].sel(unit="R-REC-1").values.tolist()[-1]  # detected at the end
    # nothing of the red units blue never detected (R-INF-1, R-ARM-1), at any point
    hidden = hidden_tokens(game.state, "blue", game.ruleset)
    assert {"R-INF-1", "R-ARM-1"} <= hidden
    assert hidden and not find_leaks(ds.to_dict(), hidden)
    # the default snapshots (every step) and the umpire's seat, which may ask for a side
    step = blue.history()
    assert step.attrs["every"] == "step" and step.sizes["time"] < ds.sizes["time"]
    ump = seats["umpire"]
    xr.testing.assert_equal(ump.history(every="event"), truth_history(game, every="event"))
    xr.testing.assert_equal(ump.history(side="blue", every="event"), ds)
    with pytest.raises(AuthError):
        blue.history(side="red")
    # the companion tables read the seat's log and notes
    from owsnb.analysis import annotations_table, events_table

    assert events_table(blue, side="blue").equals(events_table(game, side="blue"))
    ump.annotate("seen at 0705", side="blue", hex="0705")
    ump.annotate("umpire only", side="red")
    assert list(annotations_table(blue)["text"]) == ["seen at 0705"]
    assert list(annotations_table(blue)["hex"]) == ["0705"]


def test_analysis_history_of_a_remote_seat(served: Served) -> None:
    seats = _play(served)
    blue = seats["blue"]
    xr.testing.assert_equal(owsnb.analysis.history(blue), blue.history())


def test_game_class_still_matches() -> None:
    """The list above is about ``Game``'s real surface (class-level names included)."""
    assert LOCAL_ONLY - _public(Game) <= {"sink"}


def test_history_panel_hides_fork_for_a_seat_that_cannot_fork(served: Served) -> None:
    from owsnb.widgets._doc import tiny_game
    from owsnb.widgets.history import History

    remote = History(served.connect("blue"))
    assert remote.fork_button.layout.display == "none" and remote.fork_button.disabled
    local = History(tiny_game(), seat="blue")
    assert local.fork_button.layout.display is None and not local.fork_button.disabled
    # the panel still steps through the remote seat's past
    remote.table.seat.submit("blue: done")
    remote.table.refresh()
    remote.back()
    assert remote.table.at == 0 and remote.fork_button.layout.display == "none"


def test_the_umpires_seat_looks_through_a_sides_eyes(served: Served) -> None:
    from owsnb.widgets import App

    seats = _play(served)
    ump, blue = seats["umpire"], seats["blue"]
    as_blue = ump.as_side("blue")
    assert ump.as_side("umpire") is ump and blue.as_side("blue") is blue
    with pytest.raises(AuthError):
        blue.as_side("red")
    with pytest.raises(KeyError):
        ump.as_side("green")
    assert as_blue.view() == blue.view() and as_blue.view_at(3) == blue.view_at(3)
    assert as_blue.legal_orders().verbs == blue.legal_orders().verbs
    assert [a.text for a in as_blue.annotations()] == []
    with pytest.raises(AuthError):
        as_blue.submit("red: done")
    with pytest.raises(AuthError):
        as_blue.legal_orders("red")
    heard: list = []
    as_blue.subscribe(heard.append)
    game = served.game
    assert as_blue.state_id == blue.state_id == game.revision("blue")
    sub = as_blue.submit("move B-ARM-1 0304", state_id=as_blue.state_id)  # no prefix: blue's
    assert sub.order.side == "blue" and blue.wait(sub.state_id, 10)
    # told as to blue: its events in its numbers, its revision
    assert sub.events and sub.events == tuple(game.log("blue")[-len(sub.events) :])
    assert sub.state_id == game.revision("blue")
    assert blue.unit("B-ARM-1").hex == blue.hex("0304")
    # red's turn: what red does is cut from what blue's eyes hear
    as_red = ump.as_side("red")
    as_blue.submit("done", state_id=as_blue.state_id)
    before = as_blue.state_id
    red_sub = as_red.submit("red: move R-INF-1 0804", state_id=as_red.state_id)
    assert red_sub.state_id == game.revision("red")
    hidden = [e for e in game.events[-2:] if not e.visible("blue")]
    assert hidden, "the test needs a red move blue does not see"
    assert ump.wait(game.state_id, 10)
    assert as_blue.state_id == before == game.revision("blue")  # blue's numbers did not move
    assert heard and all(c.events and all(e.visible("blue") for e in c.events) for c in heard)
    assert heard[-1].state_id == before
    app = App(as_blue)
    assert app.table.seat is as_blue and app.table.view == blue.view()
    assert app.table.view.side == "blue"
