"""The event-store contract, run on SQLite and on a real PostgreSQL (started by the tests).

Every test takes ``store_url`` and runs once per backend; PostgreSQL is skipped (with the reason)
only where Debian's server binaries or psycopg are missing.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import owsnb
from owsnb.kernel.errors import StaleStateError, StoreError
from owsnb.kernel.events import note
from owsnb.kernel.game import Annotation, Game
from owsnb.kernel.registry import get_ruleset
from owsnb.store import open_store
from owsnb.testing import random_playout
from owsnb.testing.needs import missing
from tests.server import pgserver

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.owsnb'}"
    reason = pgserver.available()
    if reason:
        missing(reason)
    return pgserver.fresh_url()


@pytest.fixture
def initial():
    return owsnb.load(DATA / "skirmish.yaml", seed=11, save=False).initial


def _events(n: int, start: int = 1, batch: int = 1):
    return [note(f"event {start + i}").at(start + i, batch) for i in range(n)]


def test_create_and_load_round_trip(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g1", initial, {"seed": 11, "title": "Skirmish ünïcode"})
        rec = st.load("g1")
    assert rec.game_id == "g1" and rec.ruleset == "skirmish"
    assert rec.initial == initial
    assert rec.events == [] and rec.rev == 0
    assert rec.meta == {"seed": 11, "title": "Skirmish ünïcode"}
    assert rec.created


def test_duplicate_game_is_refused(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g1", initial)
        with pytest.raises(StoreError, match="already exists"):
            st.create_game("g1", initial)


def test_append_in_order_and_stale_revision_is_refused(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g1", initial)
        st.append("g1", 1, _events(2, 1, 1))
        st.append("g1", 2, _events(1, 3, 2))
        with pytest.raises(StaleStateError):
            st.append("g1", 2, _events(1, 4, 3))  # revision 2 is taken
        with pytest.raises(StaleStateError):
            st.append("g1", 5, _events(1, 4, 3))  # revision 3 would be skipped
        rec = st.load("g1")
        assert st.revision("g1") == 2
    assert rec.rev == 2
    assert [e.seq for e in rec.events] == [1, 2, 3]
    assert [e.data["text"] for e in rec.events] == ["event 1", "event 2", "event 3"]


def test_truncate_records_an_undo(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g1", initial)
        st.append("g1", 1, _events(2, 1, 1))
        st.append("g1", 2, _events(2, 3, 2))
        st.truncate("g1", 3, 2)
        st.append("g1", 4, _events(1, 3, 2))
        rec = st.load("g1")
    assert rec.rev == 4
    assert [e.data["text"] for e in rec.events] == ["event 1", "event 2", "event 3"]
    assert len(rec.events) == 3


def test_annotations_are_stored_and_replaced(store_url: str, initial) -> None:
    a1 = Annotation(1, "Blue commits the reserve", seq=0, turn=1, side="blue", tags=("aar",))
    with open_store(store_url) as st:
        st.create_game("g1", initial)
        st.annotate("g1", a1)
        st.annotate("g1", Annotation(2, "second", seq=0))
        st.annotate(
            "g1", Annotation(1, "Blue commits the reserve too early", seq=0, turn=1, side="blue")
        )
        anns = st.load("g1").annotations
    assert [a.id for a in anns] == [1, 2]
    assert anns[0].text == "Blue commits the reserve too early" and anns[0].side == "blue"


def test_set_meta_merges_and_deletes(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g1", initial, {"seed": 1, "keep": "yes"})
        st.set_meta("g1", {"seat:a": {"role": "umpire"}, "seed": None})
        assert st.load("g1").meta == {"keep": "yes", "seat:a": {"role": "umpire"}}
        with pytest.raises(StoreError, match="no game"):
            st.set_meta("nope", {"x": 1})


def test_games_lists_every_game_with_its_revision(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("a", initial, {"n": 1})
        st.create_game("b", initial)
        st.append("b", 1, _events(1))
        rows = {r["id"]: r for r in st.games()}
        assert set(rows) == {"a", "b"}
        assert rows["a"]["rev"] == 0 and rows["b"]["rev"] == 1
        assert rows["a"]["meta"] == {"n": 1} and rows["a"]["ruleset"] == "skirmish"
        with pytest.raises(StoreError, match="holds 2 games"):
            st.load()
        with pytest.raises(StoreError, match="no game 'zz'"):
            st.load("zz")
        with pytest.raises(StoreError, match="no game 'zz'"):
            st.revision("zz")


def test_racing_writers_one_revision_one_winner(store_url: str, initial) -> None:
    """Two connections race for each revision: one wins it, the other gets StaleStateError."""
    with open_store(store_url) as setup:
        setup.create_game("g1", initial)
    stores = [open_store(store_url) for _ in range(2)]
    outcome: dict[int, list[str]] = {}
    barrier = threading.Barrier(2)

    def writer(k: int) -> None:
        for rev in range(1, 21):
            barrier.wait()
            try:
                stores[k].append("g1", rev, [note(f"writer {k} rev {rev}").at(rev, rev)])
                outcome.setdefault(rev, []).append(f"won {k}")
            except StaleStateError:
                outcome.setdefault(rev, []).append("stale")

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    rec = stores[0].load("g1")
    for st in stores:
        st.close()
    assert rec.rev == 20 and len(rec.events) == 20
    for rev in range(1, 21):
        assert len(outcome[rev]) == 2, outcome[rev]
        assert sum(o.startswith("won") for o in outcome[rev]) == 1, outcome[rev]
        winner = next(o for o in outcome[rev] if o.startswith("won")).split()[1]
        assert rec.events[rev - 1].data["text"] == f"writer {winner} rev {rev}"


def test_game_played_through_a_store_replays_identically(store_url: str, initial) -> None:
    rs = get_ruleset("skirmish")
    with open_store(store_url) as st:
        st.create_game("g1", initial, {"seed": 11})
        game = Game(rs, initial, sink=st.sink("g1"))
        random_playout(game, max_orders=40, seed=3)
        game.undo()
        game.annotate("after the undo", side="blue")
        rec = st.load("g1")
    again = Game(rs, rec.initial, rec.events, rev=rec.rev, annotations=rec.annotations)
    assert again.state == game.state
    assert again.state_id == game.state_id and again.events == game.events
    assert [a.text for a in again.annotations] == ["after the undo"]


@pytest.mark.postgres
def test_postgres_open_store_dispatch_listen_and_errors(initial) -> None:
    reason = pgserver.available()
    if reason:
        missing(reason)
    from owsnb.store.postgres import PostgresStore

    url = pgserver.fresh_url()
    st = open_store(url)
    assert isinstance(st, PostgresStore)
    st.create_game("g1", initial)
    heard: list[str] = []
    stop = threading.Event()
    got = threading.Event()

    def cb(gid: str) -> None:
        heard.append(gid)
        got.set()

    st.set_meta("g1", {"own": 1})  # its own writes are not reported back
    t = threading.Thread(target=st.listen, args=(cb, stop), kwargs={"poll": 0.1}, daemon=True)
    t.start()
    try:
        for _ in range(50):  # LISTEN must be in place before the write
            other = open_store(url)
            other.set_meta("g1", {"ping": 1})
            other.close()
            if got.wait(0.2):
                break
        got.clear()
        assert heard and set(heard) == {"g1"}
        time.sleep(0.5)  # let any late notification of the other writes arrive
        n = len(heard)
        st.set_meta("g1", {"own": 2})
        time.sleep(0.5)
        assert len(heard) == n, "the store's own write was reported back"
        assert st.head("g1") == (0, {"ping": 1, "own": 2})
    finally:
        stop.set()
        t.join(5)
        st.close()
    bad = url.replace("postgres@", "postgres:s3cret@").rsplit("/", 1)[0] + "/no_such_db"
    with pytest.raises(StoreError) as exc:
        open_store(bad)
    assert "s3cret" not in str(exc.value) and "no_such_db" in str(exc.value)


@pytest.mark.postgres
def test_postgres_refuses_a_foreign_owsnb_meta(initial) -> None:
    reason = pgserver.available()
    if reason:
        missing(reason)
    import psycopg

    url = pgserver.fresh_url()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE owsnb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO owsnb_meta VALUES ('format', 'something-else')")
    with pytest.raises(StoreError, match="another format"):
        open_store(url)
