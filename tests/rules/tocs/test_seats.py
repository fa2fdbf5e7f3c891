"""TOCS through the seminar server: two side seats, no umpire needed, and no enemy unit id or
position in anything a seat receives unless it was announced or destroyed (identifiers are
scanned in the raw JSON of every view, event and legal-order answer after each order)."""

from __future__ import annotations

import httpx
import pytest

from owsnb.testing import find_leaks, hidden_tokens


@pytest.fixture
def served(tmp_path):
    from owsnb.server.authority import Authority
    from owsnb.server.runner import ServerThread
    from owsnb.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'tocs.owsnb'}")
    auth = Authority(store)
    created = auth.create_game("tocs-nijmegen", seed=21)
    srv = ServerThread(auth).start()
    try:
        yield auth, srv, created
    finally:
        srv.stop()
        store.close()


def test_two_side_seats_play_double_blind_and_nothing_hidden_reaches_a_seat(served):
    from owsnb.server.client import connect

    auth, srv, created = served
    gid = created.game_id
    base = f"{srv.url}/games/{gid}"
    seats = {s: connect(base, created.tokens[s], listen=False) for s in ("allied", "german")}
    game = auth.served(gid).game
    script = [
        "allied: begin",
        "allied: activate A-508-B",
        "allied: move A-508-B 1105",
        "allied: recon A-508-B 1104",
        "allied: done",
        "german: begin",
        "german: activate G-5",
        "german: move G-5 1305",
        "german: done",
    ]
    try:
        for text in script:
            side = text.split(":")[0]
            assert game.state.clock.acting == (side,), (
                "the side to act needs no umpire to get the turn"
            )
            seats[side].submit(text)
            for s in ("allied", "german"):
                tokens = hidden_tokens(game.state, s, game.ruleset)
                h = {"Authorization": f"Bearer {created.tokens[s]}"}
                raw = "".join(
                    httpx.get(f"{base}/{p}", headers=h, timeout=10).text
                    for p in ("view", "events", "legal")
                )
                assert not find_leaks(raw, tokens), s
        assert game.state.public["impulse"] == 2 and game.state.public["phasing"] == "allied"
        assert "G-5" not in str(seats["allied"].view("allied").units)
    finally:
        for s in seats.values():
            s.close()


def test_a_side_seat_cannot_order_for_the_other_side(served):
    auth, srv, created = served
    base = f"{srv.url}/games/{created.game_id}"
    r = httpx.post(
        f"{base}/orders",
        json={"order": "allied: begin"},
        headers={"Authorization": f"Bearer {created.tokens['german']}"},
        timeout=10,
    )
    assert r.status_code >= 400
    assert auth.served(created.game_id).game.seq == 0
