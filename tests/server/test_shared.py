"""Several authority processes on one PostgreSQL store share games.

Two authorities, each with its own connection to the same database (as two ``owsnb serve``
processes would be), serve one game: a seat on either sees the other's commits at once (LISTEN/
NOTIFY), a stale order is refused across processes, and a revocation made on one is honoured
by the other.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from owsnb.kernel.errors import AuthError, StaleStateError
from owsnb.server.authority import Authority
from owsnb.server.client import connect
from owsnb.server.runner import ServerThread
from owsnb.store import open_store
from owsnb.testing.needs import missing
from tests.server import pgserver
from tests.server.conftest import SKIRMISH

pytestmark = pytest.mark.postgres


@pytest.fixture
def two() -> Iterator[tuple[Any, Any, Any]]:
    reason = pgserver.available()
    if reason:
        missing(reason)
    url = pgserver.fresh_url()
    stores = [open_store(url), open_store(url)]
    auths = [Authority(s) for s in stores]
    assert all(a.shared for a in auths)
    created = auths[0].create_game(SKIRMISH, seed=11)
    servers = [ServerThread(a).start() for a in auths]
    try:
        yield servers, auths, created
    finally:
        for s in servers:
            s.stop()
        for st in stores:
            st.close()


def _until(pred: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return pred()


def test_two_processes_one_game(two: Any) -> None:
    (a, b), (auth_a, auth_b), created = two
    gid = created.game_id
    blue = connect(f"{a.url}/games/{gid}", created.tokens["blue"])  # on process A
    red = connect(f"{b.url}/games/{gid}", created.tokens["red"])  # on process B
    ump = connect(f"{b.url}/games/{gid}", created.tokens["umpire"])
    heard: list[Any] = []
    ump.subscribe(heard.append)
    try:
        sub = blue.submit("move B-INF-1 0303", state_id=blue.state_id)
        # B learns of A's commit without anyone asking B (NOTIFY), and pushes it to its seats
        assert _until(lambda: any(c.state_id == sub.state_id for c in heard))
        assert [e.kind for e in heard[-1].events] == ["unit.move", "unit.set"]
        # red on B is told nothing of a move out of its sight (issue 18): its numbers stay
        assert red.wait(0, 10) and (red.state_id, red.seq) == (0, 0)
        assert red.view() == auth_a.served(gid).game.view("red")
        assert ump.view() == auth_a.served(gid).game.view("umpire")
        # an order prepared against the old state is refused by B, never merged
        with pytest.raises(StaleStateError):
            ump.submit("blue: move B-ARM-1 0304", state_id=0)
        # both race for the next revision through different processes: one wins, one is stale
        s2 = blue.submit("move B-ARM-1 0304", state_id=sub.state_id)
        with pytest.raises(StaleStateError):
            ump.submit("blue: move B-REC-1 0403", state_id=sub.state_id)
        assert ump.wait(s2.state_id, 10)
        ump.submit("blue: move B-REC-1 0403", state_id=s2.state_id)
        assert blue.wait(s2.state_id + 1, 10)
        assert auth_a.served(gid).game.events == auth_b.served(gid).game.events
        # annotations and revocations made through B reach A
        ump.annotate("seen from both processes", side="blue")
        assert _until(lambda: [x.text for x in blue.annotations()] == ["seen from both processes"])
        ump.revoke(created.seats["blue"].seat_id)
        with pytest.raises(AuthError):
            connect(f"{a.url}/games/{gid}", created.tokens["blue"])
        assert _until(lambda: isinstance(blue.error, AuthError))
    finally:
        for s in (blue, red, ump):
            s.close()


def test_a_side_handed_to_the_computer_on_one_process_is_held_on_the_other(two: Any) -> None:
    """Issue 22.3: the umpire hands blue to the computer through process B; blue's seat on
    process A is told (and red's is not), and A refuses blue's own orders until the umpire
    takes blue back (the hand-over is in the store, like the seats)."""
    (a, b), _, created = two
    gid = created.game_id
    blue = connect(f"{a.url}/games/{gid}", created.tokens["blue"])  # on process A
    red = connect(f"{a.url}/games/{gid}", created.tokens["red"])
    ump = connect(f"{b.url}/games/{gid}", created.tokens["umpire"])
    try:
        ump.set_computer("blue", "greedy")
        assert _until(lambda: blue.computer == {"blue": "greedy"})
        with pytest.raises(AuthError, match="handed blue to the computer"):
            blue.submit("move B-INF-1 0303")
        assert red.computer == {} and red.seq == 0
        ump.set_computer("blue", None)
        assert _until(lambda: blue.computer == {})
        blue.submit("move B-INF-1 0303")  # its own orders again
    finally:
        for s in (blue, red, ump):
            s.close()


def test_a_write_that_loses_the_race_in_the_store_is_refused() -> None:
    """Without the pre-check, the store's unique revision refuses the loser, which catches up."""
    reason = pgserver.available()
    if reason:
        missing(reason)
    url = pgserver.fresh_url()
    auth_a, auth_b = (
        Authority(open_store(url)),
        Authority(open_store(url)),
    )  # no listeners: no NOTIFY
    created = auth_a.create_game(SKIRMISH, seed=11)
    gid = created.game_id
    sa = auth_a.seat(gid, created.tokens["umpire"])
    sb = auth_b.seat(gid, created.tokens["umpire"])
    auth_b.shared = False  # B no longer compares revisions before acting: only the store guards
    auth_a.submit(sa, "blue: move B-INF-1 0303")
    assert auth_b.served(gid).game.state_id == 0  # B has not heard
    with pytest.raises(StaleStateError) as exc:
        auth_b.submit(sb, "blue: move B-ARM-1 0304", state_id=0)
    assert (exc.value.expected, exc.value.actual) == (0, 1)  # B caught up while refusing
    # without a state_id the loser reloads and applies the order to the current state
    assert auth_a.submit(sa, "blue: move B-REC-1 0403")["state_id"] == 2
    out = auth_b.submit(sb, "blue: move B-ARM-1 0304")
    assert out["state_id"] == 3
    assert auth_b.served(gid).game.events == tuple(auth_a.store.load(gid).events)
    auth_a.store.close()
    auth_b.store.close()
