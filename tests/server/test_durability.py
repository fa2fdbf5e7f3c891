"""Durability: concurrent orders are serialised, none lost, none duplicated; a ``kill -9`` of the
server loses nothing committed and the seats reconnect by themselves. SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from owsnb.kernel.errors import IllegalOrderError, StaleStateError
from owsnb.kernel.game import Game
from owsnb.kernel.reduce import apply
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import renumber
from owsnb.scenario.loader import load_scenario
from owsnb.server.authority import Authority
from owsnb.server.client import ConnectionLost, connect
from owsnb.server.runner import ServerThread, bind
from owsnb.store import open_store
from tests.server.conftest import PYTHON, REPO, SKIRMISH, subprocess_env


def long_skirmish() -> Any:
    """The skirmish scenario with 60 turns, so random play does not run out of game."""
    data = yaml.safe_load(SKIRMISH.read_text())
    data["turns"] = 60
    return load_scenario(data, base=SKIRMISH.parent)


class Player(threading.Thread):
    """Submits random orders for *sides* through one remote seat, on the state it last heard."""

    def __init__(self, seat: Any, sides: list[str], seed: int, budget: Any, pause: float = 0.0):
        super().__init__(daemon=True)
        self.seat, self.sides, self.rng, self.budget, self.pause = (
            seat,
            sides,
            np.random.default_rng(seed),
            budget,
            pause,
        )
        self.acks: list[tuple[int, str, tuple]] = []
        self.stale = self.illegal = self.lost = 0
        self.errors: list[BaseException] = []
        self.asking = False  # between the first request of an order and its answer

    def order(self) -> str:
        view = self.seat.view()
        side = self.sides[int(self.rng.integers(len(self.sides)))]
        if side == UMPIRE:
            return "umpire: advance"
        acting = [s for s in view.clock.acting if s in self.sides] or [side]
        side = acting[int(self.rng.integers(len(acting)))]
        try:
            legal = self.seat.legal_orders(side if side != self.seat.side else None)
        except ConnectionLost:
            raise
        if legal and self.rng.random() > 0.25:
            o = legal.sample(self.rng, tries=3)
            if o is not None:
                return str(o)
        return f"{side}: done"

    def run(self) -> None:
        while self.budget.take():
            try:
                self.asking = True
                order = self.order()
                sub = self.seat.submit(order, state_id=self.seat.state_id)
                self.acks.append((sub.state_id, order, sub.events))
            except StaleStateError:
                self.stale += 1
            except IllegalOrderError:
                self.illegal += 1
            except ConnectionLost:
                self.lost += 1
                time.sleep(0.05)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                self.errors.append(exc)
            finally:
                self.asking = False
            if self.pause:
                time.sleep(self.pause)


class Budget:
    def __init__(self, n: int):
        self.n, self.lock = n, threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.n <= 0:
                return False
            self.n -= 1
            return True


def check_committed(store_url: str, game_id: str, players: list[Player]) -> Any:
    """Every acknowledged submission is in the store exactly as answered, once; nothing else is.

    A seat is answered in its own numbers (issue 18): a side seat's revision counts the
    submissions it saw something of, and its events are numbered as it saw them; the umpire's
    are the game's. Each acknowledgement is translated to the game's revision to compare.
    """
    with open_store(store_url, create=False) as st:
        rec = st.load(game_id)
    batches: dict[int, list] = {}
    for e in rec.events:
        batches.setdefault(e.batch, []).append(e)
    # per side: its n-th seen submission is the game's revision seen[side][n - 1]
    seen: dict[str, list[int]] = {}
    for b, evs in sorted(batches.items()):
        for side in {p.seat.side for p in players} - {UMPIRE}:
            if any(e.visible(side) for e in evs):
                seen.setdefault(side, []).append(b)
    revs = []
    for p in players:
        side = p.seat.side
        for rev, order, events in p.acks:
            if side == UMPIRE:
                game_rev = rev
            else:
                assert 0 < rev <= len(seen.get(side, [])), f"{order!r}: no revision {rev} of {side}"
                game_rev = seen[side][rev - 1]
            assert game_rev in batches, f"acknowledged {order!r} ({game_rev}) is not in the store"
            told = renumber(rec.events[: batches[game_rev][-1].seq], side)
            assert told[len(told) - len(events) :] == events, order  # as the side numbers them
            assert tuple(e.kind for e in batches[game_rev] if e.visible(side)) == tuple(
                e.kind for e in events
            ), order
            revs.append(game_rev)
    assert len(revs) == len(set(revs)), "two acknowledgements for one revision (a duplicate)"
    return rec, set(revs), set(batches)


def test_100_concurrent_orders_none_lost_none_duplicated(store_url: str) -> None:
    store = open_store(store_url)
    auth = Authority(store)
    created = auth.create_game(long_skirmish(), seed=21)
    with ServerThread(auth) as srv:
        url = f"{srv.url}/games/{created.game_id}"
        seats = [connect(url, created.tokens[s]) for s in ("blue", "red", "umpire")]
        budget = Budget(100)
        players = [
            Player(seats[0], ["blue"], 1, budget),
            Player(seats[1], ["red"], 2, budget),
            Player(seats[2], ["blue", "red", UMPIRE], 3, budget),
        ]
        for p in players:
            p.start()
        for p in players:
            p.join(120)
        for s in seats:
            s.close()
    errors = [e for p in players for e in p.errors]
    assert not errors, errors[:3]
    assert sum(len(p.acks) + p.stale + p.illegal for p in players) == 100
    assert sum(p.stale for p in players) > 0, (
        "no submission ever raced another: not a concurrency test"
    )
    assert sum(len(p.acks) for p in players) > 10  # typically ~28 committed, ~60 refused as stale
    rec, acked, batches = check_committed(store_url, created.game_id, players)
    assert acked == batches == set(range(1, rec.rev + 1)), (
        "a revision nobody was told about, or a gap"
    )
    # the stored history replays to the authority's state
    game = auth.served(created.game_id).game
    s = rec.initial
    for e in rec.events:
        s = apply(s, e, game.ruleset.reducers)
    assert s == game.state
    store.close()


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [PYTHON, "-m", "owsnb", "serve", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stdout.read() if proc.stdout else ''}")
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("server did not come up")


@pytest.mark.slow
def test_kill_9_mid_game_loses_nothing_committed_and_seats_reconnect(
    store_url: str, tmp_path: Path
) -> None:
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sock.close()
    links = tmp_path / "links.json"
    env = subprocess_env(OWSNB_HOME=str(tmp_path / "home"))
    base = f"http://127.0.0.1:{port}"
    scenario = tmp_path / "long-skirmish.yaml"  # 60 turns, so the game does not end first
    scenario.write_text(SKIRMISH.read_text().replace("turns: 6", "turns: 60"))
    (tmp_path / "skirmish-units.yaml").write_text(
        (SKIRMISH.parent / "skirmish-units.yaml").read_text()
    )
    proc = _start(
        [
            str(scenario),
            "--store",
            store_url,
            "--port",
            str(port),
            "--no-voila",
            "--seed",
            "4",
            "--links-file",
            str(links),
        ],
        env,
    )
    try:
        _wait_healthy(base, proc)
        info = json.loads(links.read_text())
        url = info["seats"]["umpire"]["api"]
        seats = {s: connect(url, info["seats"][s]["token"]) for s in ("blue", "red", "umpire")}
        heard: list[Any] = []
        seats["red"].subscribe(heard.append)
        budget = Budget(10_000)
        players = [
            Player(seats["blue"], ["blue"], 5, budget, 0.01),
            Player(seats["red"], ["red"], 6, budget, 0.01),
            Player(seats["umpire"], ["blue", "red"], 7, budget, 0.01),
        ]
        for p in players:
            p.start()
        deadline = time.monotonic() + 60
        while sum(len(p.acks) for p in players) < 25 and time.monotonic() < deadline:
            time.sleep(0.02)
        # mid-game by construction: freeze the server, let every player's next request reach it
        # and wait unanswered, then kill it — each of those requests dies with the server
        os.kill(proc.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 30
        while not all(p.asking for p in players) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)  # long enough for a request to leave; the frozen server answers none
        waiting = [p.asking for p in players]
        acked_frozen = sum(len(p.acks) for p in players)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert all(waiting), "a player had no request waiting on the server when it was killed"
        acked_before = sum(len(p.acks) for p in players)
        assert acked_before == acked_frozen  # a frozen server answers nobody
        deadline = time.monotonic() + 30  # every player learns that the server is gone
        while not all(p.lost for p in players) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert all(p.lost for p in players), "a request waiting on the killed server got no error"
        assert (
            sum(len(p.acks) for p in players) == acked_before
        )  # nobody is answered by a dead server
        proc = _start(["--resume", "--store", store_url, "--port", str(port), "--no-voila"], env)
        _wait_healthy(base, proc)
        deadline = time.monotonic() + 20
        while not all(s.connected for s in seats.values()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(s.connected for s in seats.values()), "a seat did not reconnect"
        time.sleep(0.5)  # a little play after the restart
        budget.n = 0
        for p in players:
            p.join(30)
        errors = [e for p in players for e in p.errors]
        assert not errors, errors[:3]
        assert any(p.lost for p in players), (
            "no request hit the dead server: the kill was not mid-game"
        )
        rec, acked, batches = check_committed(store_url, info["game"], players)
        assert acked <= batches
        # seats caught up with the store, and they heard a "sync" or the missed commits
        # (each in its own numbers: a side's revision counts what it saw, issue 18)
        for s in seats.values():
            rev = rec.side_revs.get(s.side, rec.rev)
            assert s.wait(rev, 10) or s.state_id >= rev, s.side
        assert any(c.kind == "sync" for c in heard)
        ump = seats["umpire"]
        acting = ump.view().clock.acting
        after = ump.submit(
            f"{acting[0]}: done" if acting else "umpire: advance", state_id=ump.state_id
        )
        assert after.state_id == rec.rev + 1
        for s in seats.values():
            s.close()
        # a complete, consistent history: a fresh load replays to the same state
        with open_store(store_url, create=False) as st:
            rec2 = st.load(info["game"])
            rs = Authority(st).served(info["game"]).game.ruleset
        g = Game(rs, rec2.initial, rec2.events, rev=rec2.rev)
        assert g.state_at_replay(g.seq) == g.state
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
