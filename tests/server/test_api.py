"""The authority's HTTP JSON API: seats and tokens, orders, staleness and bad input.

Every refusal must be a clear JSON error with a fitting status and must leave the game exactly
as it was. Runs on SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import httpx

from owsnb.kernel import codec
from owsnb.server import wire
from owsnb.server.authority import Authority
from tests.server.conftest import SKIRMISH, Served

HTTP = httpx.Client()  # one client: each new httpx client builds an SSL context (slow)


def call(
    s: Served,
    method: str,
    path: str,
    seat: str | None = "blue",
    *,
    token: str | None = None,
    **kw: Any,
) -> httpx.Response:
    headers = kw.pop("headers", {})
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    elif seat is not None:
        headers.update(s.headers(seat))
    return HTTP.request(method, f"{s.game_url}{path}", headers=headers, timeout=10, **kw)


def snapshot(s: Served) -> tuple[int, tuple, int]:
    g = s.game
    return g.state_id, g.events, len(g.annotations)


def refused(r: httpx.Response, status: int, error: str, *needles: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["error"] == error, body
    for n in needles:
        assert n in body["message"], body
    return body


def test_each_seat_gets_its_own_view(served: Served) -> None:
    for label, side in (("umpire", "umpire"), ("blue", "blue"), ("red", "red")):
        info = call(served, "GET", "", label).json()
        assert info["seat"]["role"] == ("umpire" if label == "umpire" else "side")
        assert info["seat"]["side"] == side and info["ruleset"] == "skirmish"
        assert "token" not in info["seat"] and "token_sha256" not in info["seat"]
        data = call(served, "GET", "/view", label).json()
        view = wire.decode_view(data, wire.MapCache())
        assert view == served.game.view(side)
    blue = wire.decode_view(call(served, "GET", "/view", "blue").json(), wire.MapCache())
    assert sorted(blue.units) == ["B-ARM-1", "B-INF-1", "B-REC-1"]


def test_map_is_sent_once_per_version(served: Served) -> None:
    first = call(served, "GET", "/view").json()
    assert "map" in first
    again = call(served, "GET", "/view", params={"map": first["map_id"]}).json()
    assert "map" not in again and again["map_id"] == first["map_id"]
    cache = wire.MapCache()
    wire.decode_view(first, cache)
    assert wire.decode_view(again, cache) == served.game.view("blue")


def test_missing_wrong_foreign_and_revoked_tokens_are_refused(served: Served) -> None:
    before = snapshot(served)
    order = {"order": "blue: move B-INF-1 0303"}
    r = call(served, "POST", "/orders", None, json=order)
    refused(r, 401, "AuthError", "no seat token")
    assert r.headers["www-authenticate"] == "Bearer"
    refused(
        call(served, "POST", "/orders", token="not-a-token", json=order),
        401,
        "AuthError",
        "unknown seat token",
    )
    refused(
        call(served, "GET", "/view", None, headers={"Authorization": "Basic abc"}), 401, "AuthError"
    )
    # a token of another game opens nothing here
    other = served.authority.create_game(SKIRMISH, seed=3)
    refused(
        call(served, "POST", "/orders", token=other.tokens["blue"], json=order), 401, "AuthError"
    )
    # revoke blue, then blue's token is refused
    r = call(served, "DELETE", f"/seats/{served.created.seats['blue'].seat_id}", "umpire")
    assert r.status_code == 200 and r.json()["revoked"]
    refused(call(served, "POST", "/orders", "blue", json=order), 401, "AuthError", "revoked")
    refused(call(served, "GET", "/view", "blue"), 401, "AuthError", "revoked")
    assert snapshot(served) == before


def test_a_seat_acts_only_for_its_side(served: Served) -> None:
    before = snapshot(served)
    refused(
        call(served, "POST", "/orders", "red", json={"order": "blue: move B-INF-1 0303"}),
        403,
        "AuthError",
        "red seat cannot give blue's orders",
    )
    refused(
        call(served, "POST", "/orders", "blue", json={"order": "umpire: advance"}), 403, "AuthError"
    )
    refused(
        call(served, "POST", "/orders", "observer", json={"order": "blue: done"}),
        403,
        "AuthError",
        "observer",
    )
    refused(call(served, "POST", "/undo", "blue", json={}), 403, "AuthError", "only the umpire")
    refused(call(served, "GET", "/seats", "red"), 403, "AuthError", "only the umpire")
    refused(
        call(served, "POST", "/seats", "blue", json={"role": "observer", "side": "red"}),
        403,
        "AuthError",
    )
    refused(call(served, "GET", "/legal", "blue", params={"side": "red"}), 403, "AuthError")
    refused(call(served, "POST", "/preview", "red", json={"order": "blue: done"}), 403, "AuthError")
    refused(
        call(served, "POST", "/annotations", "blue", json={"text": "x", "side": "red"}),
        403,
        "AuthError",
    )
    refused(call(served, "POST", "/annotations", "observer", json={"text": "x"}), 403, "AuthError")
    assert snapshot(served) == before


def test_bad_input_gets_clear_errors_and_changes_nothing(served: Served) -> None:
    before = snapshot(served)

    def post(body: bytes, **kw: Any) -> httpx.Response:
        headers = {"Content-Type": "application/json"}
        return call(served, "POST", "/orders", "blue", content=body, headers=headers, **kw)

    refused(post(b'{"order": "blue: done"'), 400, "BadRequest", "not JSON")
    refused(post(b"\xff\xfe"), 400, "BadRequest", "not JSON")
    refused(post(b'["blue: done"]'), 400, "BadRequest", "JSON object")
    refused(
        post(b'{"order": "blue: done", "sneaky": 1}'), 400, "BadRequest", "unknown field", "sneaky"
    )
    refused(post(b'{"state_id": 0}'), 400, "BadRequest", "missing", "order")
    refused(post(b'{"order": 42}'), 422, "BadRequest", "order is text")
    refused(post(b'{"order": "blue: done", "state_id": "zero"}'), 422, "BadRequest", "state_id")
    refused(post(b'{"order": ""}'), 422, "OrderSyntaxError")
    refused(post(b'{"order": "blue: move \'unclosed"}'), 422, "OrderSyntaxError")
    body = refused(
        post(b'{"order": "blue: teleport B-INF-1 0909"}'), 422, "IllegalOrderError", "unknown order"
    )
    assert body["code"] == "unknown-verb"
    body = refused(
        post(b'{"order": "blue: move B-INF-1 0807"}'),
        422,
        "IllegalOrderError",
        "out of B-INF-1's reach",
    )
    assert (
        body["code"] == "out-of-reach"
        and body["rule"] == "S2"
        and body["order"] == "blue: move B-INF-1 0807"
    )
    body = refused(post(b'{"order": "blue: move R-INF-1 0702"}'), 422, "IllegalOrderError")
    assert body["code"] == "not-your-unit"
    # oversized: declared, and streamed without a declared length
    big = b'{"order": "' + b"x" * (70 * 1024) + b'"}'
    refused(post(big), 413, "PayloadTooLarge")

    def chunks():
        for _ in range(80):
            yield b"x" * 1024

    refused(call(served, "POST", "/orders", "blue", content=chunks()), 413, "PayloadTooLarge")
    refused(
        call(served, "GET", "/view", "blue", params={"at": "abc"}), 400, "BadRequest", "at must be"
    )
    refused(
        call(served, "GET", "/view", "blue", params={"at": "999"}), 409, "HistoryError", "outside"
    )
    # an unknown game answers exactly as a bad token does (issue 19: no listing of game ids)
    r = HTTP.get(f"{served.url}/games/no-such-game/view", headers=served.headers("blue"))
    bad_token = call(served, "GET", "/view", token="not-a-token")
    assert (r.status_code, r.json()) == (bad_token.status_code, bad_token.json())
    refused(r, 401, "AuthError", "unknown seat token")
    assert snapshot(served) == before


def test_stale_state_id_is_refused_never_merged(served: Served) -> None:
    sid = call(served, "GET", "", "blue").json()["state_id"]
    ok = call(
        served, "POST", "/orders", "blue", json={"order": "move B-INF-1 0303", "state_id": sid}
    )
    assert ok.status_code == 200 and ok.json()["state_id"] == sid + 1
    before = snapshot(served)
    body = refused(
        call(
            served, "POST", "/orders", "blue", json={"order": "move B-ARM-1 0304", "state_id": sid}
        ),
        409,
        "StaleStateError",
        f"prepared against state {sid}",
    )
    assert body["expected"] == sid and body["actual"] == sid + 1
    refused(call(served, "POST", "/undo", "umpire", json={"state_id": sid}), 409, "StaleStateError")
    assert snapshot(served) == before


def test_submit_answers_with_the_seats_events_and_result(served: Served) -> None:
    r = call(served, "POST", "/orders", "blue", json={"order": "blue: move B-REC-1 0403"})
    assert r.status_code == 200
    data = r.json()
    events = wire.decode_events(data["events"])
    assert [e.kind for e in events] == ["unit.move", "unit.set"]
    assert all(e.visible("blue") for e in events)
    truth = served.game.events[-2:]
    assert events == truth
    # red hears about the move only as far as it may see it (nothing: B-REC-1 is undetected)
    red = call(served, "GET", "/events", "red").json()
    assert [e for e in wire.decode_events(red["events"]) if e.kind.startswith("unit")] == []


def test_legal_orders_check_and_preview_match_the_kernel(served: Served) -> None:
    g = served.game
    legal = wire.decode_legal(call(served, "GET", "/legal", "blue").json())
    local = g.legal_orders("blue")
    assert legal.verbs == local.verbs
    assert [(s.type, s.candidates, s.examples) for s in legal] == [
        (s.type, s.candidates, s.examples) for s in local
    ]
    ump = wire.decode_legal(call(served, "GET", "/legal", "umpire", params={"side": "red"}).json())
    assert ump.verbs == g.legal_orders("red").verbs
    obs = call(served, "GET", "/legal", "observer").json()
    assert obs["specs"] == []
    r = call(served, "POST", "/check", "blue", json={"order": "move B-INF-1 0303"})
    args = dict(codec.decode(r.json()["args"]))  # bound on blue's knowledge (issue 17.1)
    assert r.json()["ok"] is True and args == g.check("blue: move B-INF-1 0303")
    assert args["unit"].id == "B-INF-1" and g.state.map.label(args["to"]) == "0303"
    refused(
        call(served, "POST", "/check", "blue", json={"order": "move B-INF-1 0807"}),
        422,
        "IllegalOrderError",
    )
    # walk to turn 2's fire step with blue's recon next to a red unit, then compare the preview
    target = g.unit("R-INF-1").hex
    from tests.rulesets.skirmish import reach

    reachable = reach(g.state, g.unit("B-REC-1"))
    spot = next(
        h for h in sorted(target.neighbours()) if h in reachable and not g.state.units_at(h)
    )
    assert (
        call(
            served, "POST", "/orders", "blue", json={"order": f"move B-REC-1 {g.map.label(spot)}"}
        ).status_code
        == 200
    )
    walk_to(served, turn=2, step="2")
    fire = [s for s in g.legal_orders("blue") if s.verb == "fire"]
    assert fire, "blue's recon should see R-INF-1 by now"
    order = fire[0].examples[0]
    r = call(served, "POST", "/preview", "blue", json={"order": str(order)})
    assert r.status_code == 200, r.text
    assert wire.decode_value(r.json()["preview"]) == g.preview(order)


def walk_to(served: Served, *, turn: int, step: str) -> None:
    """Everyone says 'done' (through the umpire's seat) until the clock reaches turn/step."""
    g = served.game
    for _ in range(50):
        c = g.state.clock
        if (c.turn, c.step) == (turn, step):
            return
        side = c.acting[0] if c.acting else "umpire"
        verb = "done" if side != "umpire" else "advance"
        r = call(served, "POST", "/orders", "umpire", json={"order": f"{side}: {verb}"})
        assert r.status_code == 200, r.text
    raise AssertionError(f"never reached turn {turn} step {step}")


def test_undo_by_the_umpire(served: Served) -> None:
    call(served, "POST", "/orders", "blue", json={"order": "move B-INF-1 0303"})
    n = served.game.seq
    r = call(served, "POST", "/undo", "umpire", json={"state_id": served.game.state_id})
    assert r.status_code == 200
    assert len(wire.decode_events(r.json()["events"])) == n and served.game.seq == 0
    refused(
        call(served, "POST", "/undo", "umpire", json={}), 409, "HistoryError", "nothing to undo"
    )


def test_annotations_are_read_by_those_they_are_for(served: Served) -> None:
    def post(seat: str, **body: Any) -> httpx.Response:
        return call(served, "POST", "/annotations", seat, json=body)

    assert (
        post(
            "umpire", text="Blue commits the reserve early", side="blue", hex="0303", tags=["aar"]
        ).status_code
        == 200
    )
    assert post("umpire", text="for everyone", side=None).status_code == 200
    assert post("umpire", text="umpire's secret", side="umpire").status_code == 200
    assert post("red", text="red's own note", unit="R-INF-1").status_code == 200
    r = post("blue", text="about a hidden red unit", unit="R-INF-1")
    body = refused(r, 422, "BadRequest", "no unit 'R-INF-1' visible to blue")
    nonexistent = refused(post("blue", text="x", unit="R-NOPE-9"), 422, "BadRequest")
    assert body["message"].replace("R-INF-1", "?") == nonexistent["message"].replace(
        "R-NOPE-9", "?"
    )
    refused(post("umpire", text="  "), 422, "BadRequest", "needs some text")
    refused(post("umpire", text="x", colour="red"), 400, "BadRequest", "unknown field")
    texts = lambda seat: sorted(a["text"] for a in call(served, "GET", "/annotations", seat).json())  # noqa: E731
    assert texts("blue") == ["Blue commits the reserve early", "for everyone"]
    assert texts("red") == ["for everyone", "red's own note"]
    assert len(texts("umpire")) == 4
    a = call(served, "GET", "/annotations", "blue").json()[0]
    assert a["hex"] == list(served.game.map.hex("0303")) or a["hex"] == [
        served.game.map.hex("0303").q,
        served.game.map.hex("0303").r,
    ]
    assert a["author"] == "umpire"


def test_observer_is_delayed_and_the_umpire_changes_its_view(served: Served) -> None:
    """An observer watches a view some events behind, in that view's numbers: the umpire's 20
    events behind; then red's, 2 of red's events behind (issue 18: what it sees of red's view
    moves only with what red sees)."""
    from owsnb.widgets.seat import LocalSeat

    obs = served.created.seats["observer"]
    assert (obs.role, obs.side, obs.delay) == ("observer", "umpire", 20)
    for order, seat in (
        ("blue: move B-INF-1 0303", "blue"),
        ("blue: move B-ARM-1 0304", "blue"),
        ("blue: done", "blue"),
        ("red: done", "red"),
        ("blue: done", "blue"),
    ):
        assert call(served, "POST", "/orders", seat, json={"order": order}).status_code == 200
    game = served.game
    seq = game.seq
    assert seq < 20
    view = call(served, "GET", "/view", "observer").json()
    assert view["seq"] == 0 and view["state_id"] == game.state_id
    assert wire.decode_view(view, wire.MapCache()) == LocalSeat(game, "umpire").view_at(0)
    sid = obs.seat_id
    r = call(served, "PATCH", f"/seats/{sid}", "umpire", json={"delay": 2, "side": "red"})
    assert r.status_code == 200 and r.json()["delay"] == 2 and r.json()["side"] == "red"
    data = call(served, "GET", "/view", "observer").json()
    seen = game.view("red").seq
    assert seen == 3 < seq  # blue's two moves are out of red's sight
    assert (data["seq"], data["state_id"]) == (seen - 2, game.revision("red"))
    v = wire.decode_view(data, wire.MapCache())
    assert v.side == "red" and v == LocalSeat(game, "red").view_at(seen - 2)
    refused(
        call(served, "PATCH", f"/seats/{sid}", "umpire", json={"delay": -1}),
        422,
        "BadRequest",
        "delay",
    )
    refused(
        call(
            served,
            "PATCH",
            f"/seats/{served.created.seats['blue'].seat_id}",
            "umpire",
            json={"delay": 3},
        ),
        422,
        "BadRequest",
        "only an observer",
    )


def test_umpire_manages_seats(served: Served) -> None:
    r = call(
        served,
        "POST",
        "/seats",
        "umpire",
        json={"role": "observer", "side": "blue", "delay": 0, "label": "press"},
    )
    assert r.status_code == 200
    new = r.json()
    assert new["token"] and new["label"] == "press"
    listed = call(served, "GET", "/seats", "umpire").json()
    assert {x["label"] for x in listed} == {"umpire", "blue", "red", "observer", "press"}
    assert all("token" not in x and "token_sha256" not in x for x in listed)
    info = call(served, "GET", "", token=new["token"]).json()
    assert info["seat"]["role"] == "observer" and info["seat"]["side"] == "blue"
    refused(
        call(served, "POST", "/seats", "umpire", json={"role": "side", "side": "green"}),
        422,
        "BadRequest",
        "no side",
    )
    refused(
        call(served, "POST", "/seats", "umpire", json={"role": "king"}), 422, "BadRequest", "role"
    )
    # tokens are stored hashed only
    meta = served.authority.store.load(served.created.game_id).meta
    stored = str(meta)
    assert new["token"] not in stored and served.token("umpire") not in stored
    # a second authority on the same store (a restart) honours the same tokens
    again = Authority(served.authority.store)
    _, seat = again.seat(served.created.game_id, new["token"])
    assert seat.label == "press"


def test_answers_are_not_held_back(served: Served) -> None:
    """Keep-alive answers leave at once (TCP_NODELAY): a Nagle/delayed-ACK stall costs ~40 ms."""
    import http.client
    import statistics
    import time

    conn = http.client.HTTPConnection("127.0.0.1", served.server.port, timeout=10)
    times = []
    for _ in range(15):
        t = time.perf_counter()
        conn.request("GET", f"/games/{served.created.game_id}/view", headers=served.headers("blue"))
        assert conn.getresponse().read()
        times.append(time.perf_counter() - t)
    conn.close()
    assert statistics.median(times) < 0.025, f"median {statistics.median(times) * 1000:.0f} ms"
