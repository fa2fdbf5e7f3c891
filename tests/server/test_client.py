"""``owsnb.connect``: a remote seat behaves like a local seat on the same game, and hears changes.

The same orders are played on a served game through remote seats and on an in-memory copy of the
game through the widgets' LocalSeat; views, submissions, legal orders and every number (each seat
numbers only what it sees: issue 18) must be identical.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from owsnb.kernel.errors import AuthError, HistoryError, IllegalOrderError, StaleStateError
from owsnb.kernel.game import Game
from owsnb.server.client import RemoteGame, connect
from owsnb.server.runner import ServerThread
from owsnb.widgets.seat import LocalSeat, as_seat
from tests.server.conftest import Served

ORDERS = [
    ("blue", "blue: move B-REC-1 0604"),
    ("blue", "blue: move B-ARM-1 0504"),
    ("blue", "blue: done"),
    ("red", "red: move R-REC-1 0705"),
    ("red", "red: done"),
    ("blue", "blue: done"),
    ("red", "red: done"),
    ("blue", "blue: move B-INF-1 0303"),
    ("blue", "blue: done"),
    ("red", "red: done"),
]


class Recorder:
    def __init__(self) -> None:
        self.changes: list[Any] = []
        self.cond = threading.Condition()

    def __call__(self, change: Any) -> None:
        with self.cond:
            self.changes.append(change)
            self.cond.notify_all()

    def wait_for(self, pred: Any, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not pred(self.changes):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
        return True


def test_remote_seats_play_exactly_like_local_seats(served: Served) -> None:
    local = Game(served.game.ruleset, served.game.initial)  # the same initial state, in memory
    remote = {s: served.connect(s) for s in ("blue", "red", "umpire")}
    seats = {s: LocalSeat(local, s) for s in ("blue", "red", "umpire")}
    for side, order in ORDERS:
        r = remote[side]
        assert r.legal_orders().verbs == seats[side].legal_orders().verbs
        assert r.state_id == seats[side].state_id
        sub_r = r.submit(order, state_id=r.state_id)
        sub_l = seats[side].submit(order, state_id=seats[side].state_id)
        # the same submission: the side's events numbered as it numbers them, its revision
        assert sub_r == sub_l, order
        for s in remote:
            assert remote[s].wait(local.revision(s), 10)
            assert remote[s].state_id == seats[s].state_id == local.revision(s), (order, s)
            assert remote[s].seq == local.view(s).seq, (order, s)
            assert remote[s].view() == seats[s].view() == local.view(s), (order, s)
    assert remote["red"].seq < local.seq  # red numbers only what it saw
    for n in range(remote["red"].seq + 1):
        assert remote["red"].view_at(n) == seats["red"].view_at(n)
    assert remote["blue"].events == tuple(local.log("blue"))
    assert remote["blue"].log(kinds=["unit.move"]) == local.log("blue", ["unit.move"])
    assert remote["umpire"].view("red") == local.view("red")
    assert remote["umpire"].revision("red") == local.revision("red")
    assert remote["umpire"].state_id == local.state_id
    with pytest.raises(AuthError):
        remote["blue"].view("red")
    with pytest.raises(AuthError):
        remote["blue"].revision("red")


def test_every_other_seat_hears_each_order(served: Served) -> None:
    """A seat hears each change it may see once, in its own numbers; a commit it cannot see
    sends it nothing at all (issue 18)."""
    blue, red, ump = (served.connect(s) for s in ("blue", "red", "umpire"))
    heard = {name: Recorder() for name in ("blue", "red", "umpire")}
    for name, seat in (("blue", blue), ("red", red), ("umpire", ump)):
        seat.subscribe(heard[name])
    game = served.game
    sub = blue.submit("move B-INF-1 0303", state_id=blue.state_id)  # out of red's sight
    assert heard["blue"].wait_for(lambda cs: any(c.state_id == sub.state_id for c in cs))
    assert heard["umpire"].wait_for(lambda cs: any(c.state_id == game.state_id for c in cs))
    time.sleep(0.2)
    # exactly one notification per seat for this commit (the submitter's own is not repeated)
    for name in ("blue", "umpire"):
        assert [c.kind for c in heard[name].changes] == ["commit"], name
    assert [e.kind for e in heard["umpire"].changes[-1].events] == ["unit.move", "unit.set"]
    assert red.state_id == 0 and red.seq == 0 and ump.state_id == game.state_id == 1
    assert red.view().units["R-INF-1"] and "B-INF-1" not in red.view().units
    ann = ump.annotate("Blue opens on the left", side=None, turn=1)
    assert heard["red"].wait_for(lambda cs: any(c.kind == "annotate" for c in cs))
    # pushes come in order: red heard the note, and nothing before it
    assert [c.kind for c in heard["red"].changes] == ["annotate"]
    # anchored in red's numbers: it has seen no event yet
    assert heard["red"].changes[-1].annotation == replace(ann, seq=0) and ann.seq == 2
    assert [a.text for a in red.annotations()] == ["Blue opens on the left"]
    ump.annotate("for blue only", side="blue")
    assert heard["blue"].wait_for(lambda cs: sum(c.kind == "annotate" for c in cs) == 2)
    blue.submit("done", state_id=blue.state_id)  # red sees this one
    assert heard["red"].wait_for(lambda cs: any(c.kind == "commit" for c in cs))
    time.sleep(0.2)
    assert [c.kind for c in heard["red"].changes] == ["annotate", "commit"]
    told = heard["red"].changes[-1]
    assert told.state_id == red.state_id == game.revision("red") == 1
    assert told.events == tuple(game.log("red")) and told.events[0].seq == 1


def test_long_poll_transport_hears_changes_too(private_server: Served) -> None:
    served = private_server
    red = served.connect("red", transport="poll")
    blue = served.connect("blue")
    heard = Recorder()
    red.subscribe(heard)
    blue.submit("move B-INF-1 0303")  # out of red's sight: red hears nothing of it
    blue.submit("done")
    assert heard.wait_for(lambda cs: len(cs) >= 1)
    time.sleep(0.2)
    assert [c.kind for c in heard.changes] == ["commit"]
    assert (
        (red.state_id, blue.state_id)
        == (1, 2)
        == (
            served.game.revision("red"),
            served.game.revision("blue"),
        )
    )
    assert red.view().clock == blue.view().clock


def test_refusals_come_back_as_the_kernels_errors(served: Served) -> None:
    blue = served.connect("blue")
    with pytest.raises(IllegalOrderError) as exc:
        blue.submit("move B-INF-1 0807")
    assert exc.value.code == "out-of-reach" and exc.value.rule == "S2"
    blue.submit("move B-INF-1 0303", state_id=0)
    with pytest.raises(StaleStateError) as stale:
        blue.submit("move B-ARM-1 0304", state_id=0)
    assert (stale.value.expected, stale.value.actual) == (0, 1)
    with pytest.raises(AuthError):
        blue.submit("red: done")
    with pytest.raises(AuthError):
        blue.undo()
    with pytest.raises(HistoryError):
        blue.fork()
    assert "move B-INF-1 0303" not in blue.legal_orders()  # B-INF-1 has moved
    assert "blue: move B-ARM-1 0304" in blue.legal_orders()
    with pytest.raises(AuthError):
        connect(served.game_url, "wrong-token")
    obs = served.connect("observer")
    assert obs.role == "observer" and obs.legal_orders().verbs == []
    with pytest.raises(AuthError):
        obs.submit("blue: done")


def test_connect_accepts_a_seat_link_and_the_widgets_take_it(served: Served) -> None:
    link = f"http://voila.example/voila/render/seat.ipynb?url={served.game_url}&token={served.token('red')}"
    red = connect(link)
    served.seats.append(red)
    assert red.side == "red" and red.ruleset.name == "skirmish"
    assert as_seat(red) is red
    assert as_seat(red, "red") is red
    with pytest.raises(ValueError):
        as_seat(red, "blue")
    assert "red" in repr(red) and "skirmish-test" in red._repr_html_()


def test_seats_reconnect_after_a_restart_and_catch_up(private_server: Served) -> None:
    served = private_server
    blue, red = served.connect("blue"), served.connect("red")
    heard = Recorder()
    red.subscribe(heard)
    blue.submit("move B-INF-1 0303")  # out of red's sight
    blue.submit("move B-ARM-1 0304")
    port = served.server.port
    served.server.stop()
    # while the server is down, nothing is lost on the seats' side
    from owsnb.server.client import ConnectionLost

    with pytest.raises(ConnectionLost):
        blue.submit("done")
    # a new authority process on the same store and port (the store holds the truth and the seats)
    from owsnb.server.authority import Authority

    auth2 = Authority(served.authority.store)
    srv2 = ServerThread(auth2, port=port).start()
    served.server = srv2
    try:
        deadline = time.monotonic() + 10
        while not (blue.connected and red.connected) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert blue.connected and red.connected
        sub = blue.submit("done", state_id=blue.state_id)
        assert sub.state_id == 3
        game = auth2.served(served.created.game_id).game
        # red catches up in its own numbers: the two moves it could not see are not counted
        assert heard.wait_for(lambda cs: any(c.state_id == 1 for c in cs))
        assert red.state_id == game.revision("red") == 1 and red.view() == game.view("red")
    finally:
        pass


def test_a_revoked_seat_stops_hearing(served: Served) -> None:
    red = served.connect("red")
    ump = served.connect("umpire")
    assert _until(lambda: red.connected)
    ump.revoke(served.created.seats["red"].seat_id)
    assert _until(lambda: isinstance(red.error, AuthError) and not red.connected)
    with pytest.raises(AuthError):
        red.view()


def test_umpire_adds_an_observer_and_the_observer_follows_with_delay(served: Served) -> None:
    ump = served.connect("umpire")
    new = ump.add_seat("observer", "blue", delay=1, label="visitor")
    obs = connect(served.game_url, new["token"])
    served.seats.append(obs)
    heard = Recorder()
    obs.subscribe(heard)
    ump.submit("blue: move B-INF-1 0303")
    ump.submit("blue: move B-ARM-1 0304")
    ump.submit("blue: done")
    game = served.game
    seen = game.view("blue").seq  # the observer counts blue's events, one behind
    assert heard.wait_for(lambda cs: len(cs) >= 1 and obs.seq == seen - 1)
    assert obs.view() == LocalSeat(game, "blue").view_at(seen - 1) and obs.side == "blue"
    assert obs.state_id == game.revision("blue")
    ump.set_observer(new["seat"], delay=0)
    assert _until(lambda: obs.seq == seen)
    assert obs.view() == game.view("blue")


def _until(pred: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return pred()


def test_remote_game_is_a_remote_game(served: Served) -> None:
    r = served.connect("blue")
    assert isinstance(r, RemoteGame) and r.title == "Skirmish on the Rhine (kernel test)"
    assert r.sides == ["blue", "red"] and r.clock.turn == 1
