"""Non-interference through ``owsnb serve`` (issue 18): a seat observes only what its side knows.

Two authorities serve twin copies of one game (the same store copied: same seed, salt, seats and
tokens, and the same boot nonce, as if one process served both). They are played alike until an
enemy of side X gives an order X may not see (found on a local copy: it moves none of X's
numbers nor its view) — in game A only; game B has no such order (the enemy passed it over).
Then everything X's seat and an observer of X's view receive is recorded as bytes and compared:
the WebSocket frames (none must come of the hidden order), every read (who am I, the view now
and at each of its events, its events, legal orders, notes, outcome), ``check`` and ``preview``
answers over a sweep of orders (:func:`owsnb.testing.twins.probe_orders`: X's examples, the
hidden unit's true id and a made-up one...), a long poll from where X stood (it waits out its
timeout in both), then an order of X's own and a public note, with the frames each brings. The
umpire, who sees everything, is told the games apart.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from websockets.sync.client import connect as ws_connect

from owsnb.kernel import codec
from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.orders import Order
from owsnb.server.authority import Authority
from owsnb.server.runner import ServerThread
from owsnb.store import open_store
from owsnb.testing.twins import probe_orders

HTTP = httpx.Client(timeout=20)


class Twin:
    """One of the two served games, and what a seat of X received from it."""

    def __init__(self, store: Path, game_id: str, tokens: dict[str, str], boot: str | None):
        self.auth = Authority(open_store(store))
        if boot is not None:
            self.auth.boot = boot  # one process serving both (cursors name the boot)
        self.server = ServerThread(self.auth).start()
        self.base = f"{self.server.url}/games/{game_id}"
        self.game_id, self.tokens = game_id, tokens
        self.sockets: dict[str, Any] = {}

    @property
    def game(self) -> Any:
        return self.auth.served(self.game_id).game

    def call(self, label: str, method: str, path: str, **kw: Any) -> bytes:
        """A seat's HTTP answer, as bytes (with its status)."""
        h = {"Authorization": f"Bearer {self.tokens[label]}"}
        r = HTTP.request(method, self.base + path, headers=h, **kw)
        return f"{r.status_code} ".encode() + r.content

    def listen(self, label: str) -> None:
        ws_url = self.base.replace("http://", "ws://") + "/ws"
        h = {"Authorization": f"Bearer {self.tokens[label]}"}
        self.sockets[label] = ws_connect(ws_url, additional_headers=h, legacy=True)

    def frames(self, label: str, wait: float = 0.6) -> list[str]:
        """Every WebSocket message the seat got since last asked (none arriving for *wait* s)."""
        out = []
        while True:
            try:
                out.append(self.sockets[label].recv(wait))
            except TimeoutError:
                return out

    def close(self) -> None:
        for ws in self.sockets.values():
            ws.close()
        self.server.stop()
        self.auth.store.close()


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[Any]:
    made: list[Twin] = []

    def make(scenario: str, x: str, seed: int) -> tuple[Twin, Twin]:
        first = tmp_path / f"{scenario}.owsnb"
        auth = Authority(open_store(first))
        created = auth.create_game(scenario, seed=seed, observers=[(x, 2)])
        auth.store.close()
        tokens = dict(created.tokens)
        paths = [tmp_path / f"{scenario}-{c}.owsnb" for c in "ab"]
        for p in paths:
            shutil.copy(first, p)
        a = Twin(paths[0], created.game_id, tokens, None)
        b = Twin(paths[1], created.game_id, tokens, a.auth.boot)
        made.extend((a, b))
        return a, b

    yield make
    for t in made:
        t.close()


def _x_sees(game: Any, x: str) -> tuple[int, str]:
    return game.revision(x), json.dumps(codec.encode(game.view(x)), sort_keys=True)


def _places(game: Any) -> dict[str, Any]:
    return {u.id: u.hex for u in game.state.units.values()}


def _hidden_order(game: Any, x: str, rng: Any, moving: bool) -> str | None:
    """An order of an enemy of *x* that moves none of *x*'s numbers nor its view (tried on a
    local copy): one that moves a unit (*moving*), or one given while *x* has orders to ask
    about (check, preview); or None."""
    if not moving and not [s.verb for s in game.legal_orders(x).specs if s.verb != "done"]:
        return None
    before, places = _x_sees(game, x), _places(game)
    for side in game.clock.acting:
        if side == x:
            continue
        legal = game.legal_orders(side)
        tried = {str(o) for spec in legal for o in spec.examples}
        for _ in range(12):
            o = legal.sample(rng, tries=3)
            if o is not None:
                tried.add(str(o))
        for text in sorted(tried):
            copy = game.fork(game.seq)
            try:
                copy.submit(Order.parse(text))
            except OwsnbError:
                continue
            if _x_sees(copy, x) == before and (not moving or _places(copy) != places):
                return text
    return None


def _step(game: Any, rng: Any) -> str:
    """A random legal order of whoever acts (or the umpire's advance)."""
    acting = game.clock.acting
    if not acting:
        return "umpire: advance"
    side = acting[int(rng.integers(len(acting)))]
    o = game.legal_orders(side).sample(rng, tries=3) if rng.random() > 0.3 else None
    return str(o) if o is not None else f"{side}: done"


def _reads(t: Twin, label: str, probes: list[str]) -> list[bytes]:
    """Everything the seat reads, as bytes."""
    out = [t.call(label, "GET", ""), t.call(label, "GET", "/view")]
    seq = json.loads(out[0].split(b" ", 1)[1])["seq"]
    out += [t.call(label, "GET", "/view", params={"at": n}) for n in range(seq + 1)]
    out += [t.call(label, "GET", "/events", params={"since": n}) for n in (0, max(0, seq - 3))]
    out += [
        t.call(label, "GET", "/legal"),
        t.call(label, "GET", "/annotations"),
        t.call(label, "GET", "/outcome"),
    ]
    for o in probes:
        out.append(t.call(label, "POST", "/check", json={"order": o}))
        out.append(t.call(label, "POST", "/preview", json={"order": o}))
    return out


@pytest.mark.parametrize(
    ("scenario", "x", "seed", "moving"),
    [
        ("tutorial", "red", 2, True),  # Blue's destroyer sails out of Red's sight
        ("tutorial", "blue", 6, False),  # Red plays a cyber card while Blue has orders to ask
        ("tocs-nijmegen", "allied", 7, True),  # a German unit moves in secret
    ],
)
def test_a_hidden_enemy_order_changes_nothing_a_seat_receives(
    twins: Any, scenario: str, x: str, seed: int, moving: bool
) -> None:
    """Issue 18, "each seat numbers only what it sees": "State ids, event sequence numbers,
    counts and push timing a seat can observe change only when its own view changes; a hidden
    enemy commit sends that seat nothing" — proven byte for byte through the server."""
    a, b = twins(scenario, x, seed)
    rng = np.random.default_rng(seed)
    # the same course in both, until an enemy of x may act out of its sight
    hidden = None
    for _ in range(80):
        hidden = _hidden_order(a.game, x, rng, moving)
        if hidden is not None:
            break
        order = _step(a.game, rng)
        answers = [t.call("umpire", "POST", "/orders", json={"order": order}) for t in (a, b)]
        assert answers[0] == answers[1], order
    assert hidden is not None, f"no order of {x}'s enemy out of its sight in {scenario}"
    watchers = [x, "observer"]
    for t in (a, b):
        for w in watchers:
            t.listen(w)
    for w in watchers:
        first = [a.frames(w), b.frames(w)]
        assert first[0] == first[1] and first[0], w  # hello, map, the view: the same
    # the enemy's order, in game A only
    enemy = Order.parse(hidden).side
    ok = a.call(enemy, "POST", "/orders", json={"order": hidden})
    assert ok.startswith(b"200 "), ok
    assert a.game.state_id == b.game.state_id + 1  # the truths differ
    assert _places(a.game) != _places(b.game) if moving else True  # a unit stands elsewhere
    assert a.call("umpire", "GET", "") != b.call("umpire", "GET", "")  # the umpire sees it
    # x's seat and the observer of x's view: no frame, no number moved, the same answers
    for w in watchers:
        assert a.frames(w) == b.frames(w) == [], w
    # a long poll from where x stood is not woken either: both wait out their timeout
    cursor = json.loads(b.call(x, "GET", "").split(b" ", 1)[1])["cursor"]
    polls = []
    for t in (a, b):
        t0 = time.monotonic()
        q = {"cursor": cursor, "base": 1, "timeout": 1}
        polls.append((t.call(x, "GET", "/changes", params=q), time.monotonic() - t0 >= 0.9))
    assert polls[0] == polls[1] and polls[0][1] and b'"messages":[]' in polls[0][0], polls
    probes = probe_orders(a.game, b.game, x, rng, 16) + [f"{x}: done"]
    assert moving or len(probes) > 4
    for w in watchers:
        asked = probes if w == x else []
        ra, rb = _reads(a, w, asked), _reads(b, w, asked)
        assert len(ra) == len(rb) > 5
        for i, (p, q) in enumerate(zip(ra, rb, strict=True)):
            assert p == q, (w, i, p[:300], q[:300])
    # x acts (an order that tells it nothing of the difference), and a public note: the same
    # answers and the same frames, in the same numbers
    mine = [str(o) for spec in a.game.legal_orders(x) for o in spec.examples][:6]
    mine.append(f"{x}: done")
    for order in mine:
        if a.game.clock.acting and x not in a.game.clock.acting:
            break
        sa, sb = (t.call(x, "POST", "/orders", json={"order": order}) for t in (a, b))
        assert sa == sb, order
        if sa.startswith(b"200 "):
            break
    a_note, b_note = (
        t.call("umpire", "POST", "/annotations", json={"text": "to all", "side": None})
        for t in (a, b)
    )
    assert a_note.startswith(b"200 ")
    time.sleep(0.2)
    for w in watchers:
        fa, fb = a.frames(w), b.frames(w)
        assert fa == fb, w
        assert fa or w == "observer", w  # (the observer reads the note 2 events later)
    assert a.call(x, "GET", "/view") == b.call(x, "GET", "/view")
