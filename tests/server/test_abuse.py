"""The seminar server under abuse (issue 19): each failure an outside attack found, reproduced.

* input that cannot be stored is refused at the door, and a store that already holds such a note
  is still served (the umpire's notes and live seat work);
* deep JSON is a 400, a store failure a 503 that names no path or database and changes nothing;
  a revoked long-poll answers 401; an unknown game answers exactly as a bad token;
* a seat holds at most ``MAX_CONNECTIONS`` connections (a newer one closes the oldest), a client
  that does not read is dropped within seconds, and each change is encoded once per seat-view;
* pushes are deltas: a frame carries what changed, not the history, and a reconnecting seat
  catches up from its cursor (or gets the whole view when too far behind).

Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from base64 import b64encode
from typing import Any

import httpx
import numpy as np
import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.game import Annotation
from owsnb.server import wire
from owsnb.server.app import MAX_CONNECTIONS
from owsnb.server.authority import SEAT_VIEWS, Authority
from owsnb.server.client import connect
from owsnb.server.runner import PING_INTERVAL, PING_TIMEOUT, ServerThread
from owsnb.store import open_store
from tests.server.conftest import SKIRMISH, Served
from tests.server.test_api import call, refused, snapshot
from tests.server.test_durability import long_skirmish


def until(pred: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return bool(pred())


def post_raw(s: Served, path: str, seat: str, body: bytes) -> httpx.Response:
    return call(s, "POST", path, seat, content=body, headers={"Content-Type": "application/json"})


# -- 1. input that cannot be stored ----------------------------------------------------------------
def test_text_that_cannot_be_stored_is_refused_at_the_door(served: Served) -> None:
    """A side's note with a lone surrogate (valid JSON) was stored while the poster was told 422,
    and froze the umpire; a NUL in a seat label gave PostgreSQL's 500."""
    before = snapshot(served)
    refused(
        post_raw(served, "/annotations", "blue", b'{"text": "x \\ud83d"}'),
        400,
        "BadRequest",
        "U+D83D",
    )
    refused(
        post_raw(served, "/seats", "umpire", b'{"role": "observer", "label": "a\\u0000b"}'),
        400,
        "BadRequest",
        "U+0000",
    )
    refused(
        post_raw(served, "/orders", "blue", b'{"order": "blue: done\\u0007"}'), 400, "BadRequest"
    )
    long_note = json.dumps({"text": "x" * 10_001}).encode()
    refused(post_raw(served, "/annotations", "blue", long_note), 400, "BadRequest", "10000")
    assert snapshot(served) == before
    assert len(call(served, "GET", "/seats", "umpire").json()) == 4
    # text is normalised at the door: a decomposed é is stored composed
    r = post_raw(served, "/annotations", "blue", '{"text": "cafe\u0301"}'.encode())
    assert r.status_code == 200 and r.json()["text"] == "caf\u00e9"


def test_deep_or_odd_json_is_a_400(served: Served) -> None:
    before = snapshot(served)
    deep = b'{"order": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    assert len(deep) < 64 * 1024
    refused(post_raw(served, "/orders", "blue", deep), 400, "BadRequest", "nested deeper")
    refused(post_raw(served, "/orders", "blue", b'{"order": NaN}'), 400, "BadRequest")
    refused(
        post_raw(served, "/annotations", "blue", b'{"text": "x", "tags": [[[[[[[[[["a"]]]]]]]]]]}'),
        400,
        "BadRequest",
    )
    assert snapshot(served) == before


def _plant_bad_note(auth: Authority, game_id: str) -> None:
    """Write a note with a lone surrogate into the store behind the authority's back, as the old
    server did (json.dumps escapes it, so both databases took it)."""
    ann = Annotation(1, "x \ud83d", 0, turn=1, side="blue", author="blue")
    data = json.dumps(ann.to_dict())
    store = auth.store
    if store.url.startswith("sqlite"):
        db = sqlite3.connect(store.path)
        db.execute("INSERT INTO owsnb_annotations VALUES (?, 1, ?)", (game_id, data))
        db.commit()
        db.close()
    else:
        with store._tx() as cur:
            cur.execute("INSERT INTO owsnb_annotations VALUES (%s, 1, %s)", (game_id, data))


def test_a_store_holding_a_bad_note_is_still_served(store_url: str) -> None:
    """The stored lone surrogate made the umpire's ``GET /annotations`` fail across restarts and
    its live seat reconnect in a loop; now the note is served (with U+FFFD) and the seat lives."""
    store = open_store(store_url)
    created = Authority(store).create_game(SKIRMISH, seed=11)
    _plant_bad_note(Authority(store), created.game_id)
    auth = Authority(store)  # a restart: the game is loaded with the bad note
    with ServerThread(auth) as srv:
        url = f"{srv.url}/games/{created.game_id}"
        for seat in ("umpire", "blue"):
            r = httpx.get(
                url + "/annotations", headers={"Authorization": f"Bearer {created.tokens[seat]}"}
            )
            assert r.status_code == 200, r.text
            assert [a["text"] for a in r.json()] == ["x \ufffd"]
        ump = connect(url, created.tokens["umpire"])
        blue = connect(url, created.tokens["blue"])
        try:
            assert until(lambda: ump.connected)
            heard: list[Any] = []
            ump.subscribe(heard.append)
            ump.annotate("a fresh note")  # a change the umpire's seat hears pushed
            sub = blue.submit("blue: move B-INF-1 0303", state_id=blue.state_id)
            assert ump.wait(sub.state_id, 10)
            assert ump.view() == auth.served(created.game_id).game.view("umpire")
            assert [a.text for a in ump.annotations] == ["x \ufffd", "a fresh note"]
            assert ump.error is None and ump.connected
            assert srv.app.state.owsnb.held(created.game_id, created.seats["umpire"].seat_id) == 1
        finally:
            ump.close()
            blue.close()
    store.close()


# -- store failures, revocation, unknown games -------------------------------------------------------
def _break_store(store: Any, how: str) -> None:
    if store.url.startswith("sqlite"):
        if how == "full":
            pages = store._db.execute("PRAGMA page_count").fetchone()[0]
            store._db.execute(f"PRAGMA max_page_count = {pages}")
        else:
            store._db.execute("PRAGMA query_only = ON")
    else:
        store._db.execute("SET default_transaction_read_only = on")


def _mend_store(store: Any) -> None:
    if store.url.startswith("sqlite"):
        store._db.execute("PRAGMA query_only = OFF")
        store._db.execute("PRAGMA max_page_count = 1073741823")
    else:
        store._db.execute("SET default_transaction_read_only = off")


@pytest.mark.parametrize("how", ["read-only", "full"])
def test_a_failing_store_answers_503_and_changes_nothing(private_server: Served, how: str) -> None:
    """Disk full and a read-only store gave 500 "internal error" (sqlite3.OperationalError)."""
    s = private_server
    before = snapshot(s)
    _break_store(s.authority.store, how)
    where = s.authority.store.url.split("://", 1)[1].split("?")[0]
    if how == "read-only":  # (a full disk may still fit a small order in a page it has)
        r = call(s, "POST", "/orders", "blue", json={"order": "blue: move B-INF-1 0303"})
        refused(r, 503, "StoreError", "nothing was changed")
    for r in (
        call(s, "POST", "/annotations", "blue", json={"text": "y" * 9000}),
        call(s, "POST", "/seats", "umpire", json={"role": "observer", "side": "red"}),
        call(s, "DELETE", f"/seats/{s.created.seats['red'].seat_id}", "umpire"),
    ):
        refused(r, 503, "StoreError", "nothing was changed")
        assert where not in r.text and "sqlite" not in r.text.lower() and "@" not in r.text
    assert snapshot(s) == before
    assert len(s.authority.served(s.created.game_id).seats) == 4
    _mend_store(s.authority.store)
    ok = call(s, "POST", "/orders", "blue", json={"order": "blue: move B-INF-1 0303"})
    assert ok.status_code == 200 and ok.json()["state_id"] == before[0] + 1


def test_an_unknown_game_answers_as_a_bad_token(served: Served) -> None:
    """A request for an unknown game answered 404 with the store's path or the DSN, and
    404-versus-401 let anyone list the game ids."""
    known = f"{served.url}/games/{served.created.game_id}"
    unknown = f"{served.url}/games/zz-{served.created.game_id}"
    for path, method in (
        ("", "GET"),
        ("/view", "GET"),
        ("/changes?timeout=0", "GET"),
        ("/annotations", "GET"),
        ("/orders", "POST"),
        ("/seats", "GET"),
    ):
        kw: dict[str, Any] = {"json": {"order": "blue: done"}} if method == "POST" else {}
        for token, like in (("not-a-token", "not-a-token"), (served.token("blue"), "x"), ("", "")):
            h = {"Authorization": f"Bearer {token}"} if token else {}
            h_like = {"Authorization": f"Bearer {like}"} if like else {}
            a = httpx.request(method, unknown + path, headers=h, **kw)
            b = httpx.request(method, known + path, headers=h_like, **kw)
            assert a.status_code == b.status_code == 401, (path, a.text)
            assert a.json() == b.json() and a.headers["www-authenticate"] == "Bearer"
            assert "/" not in a.json()["message"] and "sqlite" not in a.text
    for odd in ("%00", "a%00b", "x" * 300, "%ED%A0%BD"):  # odd ids never reach the store
        r = httpx.get(f"{served.url}/games/{odd}/view", headers=served.headers("blue"))
        assert r.status_code == 401 and r.json()["error"] == "AuthError", r.text


def test_a_revoked_long_poll_answers_401(served: Served) -> None:
    """The README says 401 for a revoked token; a waiting long-poll answered 403."""
    info = call(served, "GET", "", "red").json()
    out: dict[str, Any] = {}
    # the first poll answers at once with the whole view; the second waits
    first = call(served, "GET", f"/changes?cursor={info['cursor']}&timeout=20", "red").json()
    assert first["messages"]
    info["cursor"] = first["cursor"]
    t = threading.Thread(
        target=lambda: out.update(
            r=call(
                served,
                "GET",
                f"/changes?cursor={info['cursor']}&base=1&map={first['map']}&timeout=20",
                "red",
            )
        )
    )
    t.start()
    time.sleep(0.5)
    assert "r" not in out, "the long-poll did not wait"
    call(served, "DELETE", f"/seats/{served.created.seats['red'].seat_id}", "umpire")
    t.join(10)
    refused(out["r"], 401, "AuthError", "revoked")


# -- 2. bounded resources per seat -------------------------------------------------------------------
def _ws_url(s: Served) -> str:
    return s.game_url.replace("http://", "ws://") + "/ws"


def test_a_seat_holds_at_most_its_cap_of_connections(served: Served) -> None:
    """One token opened 246 WebSockets until the server ran out of descriptors."""
    from websockets.sync.client import connect as ws_connect

    srv = served.server.app.state.owsnb
    sid = served.created.seats["blue"].seat_id
    h = served.headers("blue")
    socks = []
    try:
        for _ in range(MAX_CONNECTIONS + 3):
            ws = ws_connect(_ws_url(served), additional_headers=h, legacy=True)
            assert json.loads(ws.recv(5))["type"] == "hello"
            socks.append(ws)
            assert until(lambda: srv.held(served.created.game_id, sid) <= MAX_CONNECTIONS)
        # the three oldest were told why and closed; the newest hold their places
        for ws in socks[:3]:
            msgs = []
            with pytest.raises(Exception):  # noqa: B017 - closed by the server
                while True:
                    msgs.append(json.loads(ws.recv(5)))
            assert msgs[-1]["type"] == "error" and msgs[-1]["status"] == 429
            assert ws.close_code == 4429
        assert srv.held(served.created.game_id, sid) == MAX_CONNECTIONS
        # a remote handle that is pushed out stops listening (it does not fight back)
        remote = served.connect("red")
        assert until(lambda: remote.connected)
        others = [served.connect("red") for _ in range(MAX_CONNECTIONS)]
        assert until(lambda: isinstance(remote.error, wire.TooManyConnections))
        assert all(until(lambda o=o: o.connected) for o in others)
        time.sleep(0.5)
        assert (
            srv.held(served.created.game_id, served.created.seats["red"].seat_id) == MAX_CONNECTIONS
        )
        # the other seats are untouched
        ump = served.connect("umpire")
        assert until(lambda: ump.connected)
    finally:
        for ws in socks:
            ws.close()


def _silent_websocket(s: Served, label: str) -> socket.socket:
    """A WebSocket handshake, then nothing read ever again."""
    host, port = s.server.host, s.server.port
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = b64encode(b"0123456789abcdef").decode()
    path = f"/games/{s.created.game_id}/ws"
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {s.token(label)}\r\n\r\n"
        ).encode()
    )
    return sock


def test_a_client_that_does_not_read_is_dropped_within_seconds(served: Served) -> None:
    """Clients that never read were not dropped within 45 s."""
    srv = served.server.app.state.owsnb
    sid = served.created.seats["observer"].seat_id
    socks = [_silent_websocket(served, "observer") for _ in range(3)]
    try:
        assert until(lambda: srv.held(served.created.game_id, sid) == 3, 5)
        t = time.monotonic()
        assert until(
            lambda: srv.held(served.created.game_id, sid) == 0, PING_INTERVAL + PING_TIMEOUT + 5
        )
        assert time.monotonic() - t < PING_INTERVAL + PING_TIMEOUT + 5
    finally:
        for sock in socks:
            sock.close()


def test_each_change_is_encoded_once_per_seat_view(served: Served) -> None:
    """Every change was encoded once per connection (200 connections: 200 encodings)."""
    auth = served.authority
    built: list[str] = []
    original = auth._build_frame

    def counting(sg: Any, seat: Any, *a: Any) -> Any:
        built.append(seat.label)
        return original(sg, seat, *a)

    auth._build_frame = counting  # type: ignore[method-assign]
    try:
        blues = [served.connect("blue") for _ in range(MAX_CONNECTIONS)]
        assert all(until(lambda b=b: b.connected and b._pushed is not None) for b in blues)
        built.clear()
        sub = blues[0].submit("blue: move B-INF-1 0303", state_id=blues[0].state_id)
        assert all(b.wait(sub.state_id, 10) for b in blues)
        assert until(lambda: all(b._pushed_cursor == blues[0]._pushed_cursor for b in blues))
        assert built.count("blue") == 1, built
    finally:
        del auth._build_frame


# -- 3. delta pushes -------------------------------------------------------------------------------
class Tap:
    """Every message pushed to one handle, as it arrived (text size and content)."""

    def __init__(self, seat: Any):
        self.messages: list[dict[str, Any]] = []
        self.sizes: list[int] = []
        handle = seat._handle

        def tapped(msg: dict[str, Any]) -> None:
            self.messages.append(msg)
            self.sizes.append(len(json.dumps(msg, separators=(",", ":"))))
            handle(msg)

        seat._handle = tapped


def play(seat: Any, n: int, seed: int) -> None:
    """*n* orders through the umpire's seat: a random legal order of whoever acts, or 'done'."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        acting = seat.view().clock.acting
        if not acting:
            order = "umpire: advance"
        else:
            legal = seat.legal_orders(acting[0])
            o = legal.sample(rng, tries=3) if rng.random() > 0.3 else None
            order = str(o) if o is not None else f"{acting[0]}: done"
        try:
            seat.submit(order, state_id=seat.state_id)
        except IllegalOrderError:
            seat.submit(f"{acting[0]}: done" if acting else order, state_id=seat.state_id)


def test_pushes_carry_what_changed_not_the_history(served: Served) -> None:
    """An Allied frame of a TOCS game was 51 KB at state 20 and 260 KB at state 214: every push
    carried the seat's whole visible history."""
    long = Served(
        served.authority, served.server, served.authority.create_game(long_skirmish(), seed=3)
    )
    red = long.connect("red")
    tap = Tap(red)
    ump = long.connect("umpire")
    assert until(lambda: red.connected and red._pushed is not None)
    game = long.game
    for _ in range(4):  # forty orders: the history grows, the frames do not
        play(ump, 10, seed=len(tap.messages))
        assert red.wait(game.revision("red"), 10)
        assert red.view() == game.view("red")  # red's numbers, exactly
    pushes = [(m, n) for m, n in zip(tap.messages, tap.sizes, strict=True) if m["type"] == "push"]
    assert len([m for m in tap.messages if m["type"] == "map"]) == 1  # the map went once
    first, later = pushes[0], pushes[1:]
    assert "view" in first[0] and len(later) >= 30
    assert all("view" not in m for m, _ in later)
    for m, _ in later:  # each carries the events of its change, never the old ones
        added = m.get("delta", {}).get("ev", {}).get("add", [])
        assert len(added) <= sum(len(c["events"]) for c in m["changes"])
    sizes = [n for _, n in later]
    assert max(sizes[-10:]) <= max(sizes[:10]) * 2 + 500, sizes  # independent of game length
    assert len(red.view().events) > 20 and red.view().events == game.view("red").events
    long.close_seats()


def test_a_reconnecting_seat_catches_up_from_its_revision(served: Served) -> None:
    auth = served.authority
    s = auth.seat(served.created.game_id, served.token("red"))
    first = auth.push(s, auth.seat_info(s)["cursor"], base=False)
    assert "view" in first.body
    blue = auth.seat(served.created.game_id, served.token("blue"))
    auth.submit(blue, "blue: move B-REC-1 0604")
    auth.submit(blue, "blue: done")
    caught = auth.push(s, first.cursor, base=True)  # what red missed, as a delta
    assert "delta" in caught.body and caught.body["base"] == first.cursor
    # only the commit red may see: blue's move is out of its sight (issue 18), in red's numbers
    assert [c["kind"] for c in caught.body["changes"]] == ["commit"]
    told = wire.decode_events(caught.body["changes"][0]["events"])
    assert told and told == served.game.view("red").events and told[0].seq == 1
    assert caught.body["state_id"] == served.game.revision("red") == 1
    maps = wire.MapCache()
    maps.put(first.map_id, json.loads(first.map_data)["map"])
    v0 = wire.decode_view({"view": first.body["view"], "map_id": first.map_id}, maps)
    assert wire.apply_view_delta(v0, caught.body["delta"]) == served.game.view("red")
    # too far behind: the game no longer remembers red's view then, so the whole view
    for _ in range(SEAT_VIEWS + 1):
        auth.annotate(
            auth.seat(served.created.game_id, served.token("umpire")), "n", {"side": "red"}
        )
        auth.push(s, auth.cursor(*s), base=True)
    far = auth.push(s, caught.cursor, base=True)
    assert "view" in far.body and far.body["base"] is None
    # a cursor of another boot (a restart): a "sync" and the whole view
    other = auth.push(s, "feedbeef:3", base=True)
    assert [c["kind"] for c in other.body["changes"]] == ["sync"] and "view" in other.body
