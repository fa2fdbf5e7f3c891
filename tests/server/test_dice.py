"""Dice no seat can predict (issue 18): a served game draws its seed from the operating system's
entropy unless the umpire gives one, no view carries it, and the umpire exports it with the whole
record once the game is over.

The review's attack: two default servers rolled identical dice, and the Allied seat, replaying the
announced orders in its own ``owsnb.load("tocs-nijmegen")``, computed the German's secret "OP
earned" d10 before it was rolled.
"""

from __future__ import annotations

from typing import Any

import pytest

import owsnb
from owsnb.cli import build_parser
from owsnb.kernel.dice import Dice
from owsnb.kernel.errors import AuthError, HistoryError, OwsnbError
from owsnb.kernel.events import clock_set
from owsnb.kernel.orders import Order
from owsnb.server.authority import Authority
from owsnb.store import open_store

TURNS = 6


def _course(auth: Authority, gid: str, token: str) -> list[str]:
    """A short course through the umpire's seat: each acting side begins its impulse, then
    passes (every begin rolls the cloud and the secret OP d10, every pass the turn-end 2d6)."""
    ump = auth.seat(gid, token)
    orders = []
    for _ in range(TURNS * 4):
        g = ump[0].game
        acting = g.state.clock.acting
        side = acting[0] if acting else "umpire"
        verbs = g.legal_orders(side).verbs if acting else ["advance"]
        verb = next((v for v in ("begin", "pass", "advance") if v in verbs), "done")
        order = f"{side}: {verb}"
        auth.submit(ump, order)
        orders.append(order)
    return orders


def _rolls(game: Any, side: str | None = None) -> list[tuple[str, Any]]:
    return [
        (e.data["purpose"], e.data["result"])
        for e in game.events
        if e.kind == "die" and (side is None or e.data.get("actor") == side)
    ]


def _to_come(rng_state: Any, n: int = 20) -> tuple[int, ...]:
    """The next *n* d10 a game whose dice state is *rng_state* would roll."""
    return Dice(rng_state).roll_many(n, 10, purpose="the dice to come")


def test_two_default_servers_roll_different_dice_and_a_seat_cannot_replay_the_enemys(tmp_path):
    served = []
    for n in (1, 2):
        auth = Authority(open_store(tmp_path / f"server-{n}.owsnb"))
        created = auth.create_game("tocs-nijmegen")  # no --seed: the operating system's entropy
        orders = _course(auth, created.game_id, created.tokens["umpire"])
        served.append((auth.served(created.game_id).game, orders))
    (g1, orders), (g2, _) = served
    secret = [r for r in _rolls(g1, "german") if "OP earned" in r[0]]
    assert len(_rolls(g1)) >= 12 and secret  # the German rolled its secret OP d10
    # the same scenario, served twice by default: other dice, from the first roll to come
    assert g1.meta["seed"] != g2.meta["seed"] and 1944 not in (g1.meta["seed"], g2.meta["seed"])
    assert _to_come(g1.initial.rng) != _to_come(g2.initial.rng)
    assert [r for _, r in _rolls(g1)][:12] != [r for _, r in _rolls(g2)][:12]
    # the Allied seat loads the scenario itself (its seed: 1944) to replay what it saw: its dice
    # are not the server's, so no roll of the German's is reproduced in advance
    mine = owsnb.load("tocs-nijmegen", save=False)
    assert _to_come(mine.initial.rng) != _to_come(g1.initial.rng)
    replayed = []
    for order in orders:
        try:
            mine.submit(order)
        except OwsnbError:
            break
        replayed.append(order)
    assert replayed[:2] == orders[:2]  # at least the Allied impulse's opening orders
    assert _rolls(mine)[:4] != _rolls(g1)[:4] or _to_come(mine.state.rng) != _to_come(g1.state.rng)


def test_the_serve_command_draws_the_seed_unless_given():
    args = build_parser().parse_args(["serve", "tocs-nijmegen"])
    assert args.seed is None  # Authority.create_game(seed=None): the operating system's entropy


def test_no_view_carries_the_seed_and_the_umpire_exports_it_once_the_game_is_over(tmp_path):
    auth = Authority(open_store(tmp_path / "seminar.owsnb"))
    created = auth.create_game("tests/data/skirmish.yaml", seed=123456789)
    gid, tokens = created.game_id, created.tokens
    for label in tokens:
        body = str(auth.view(auth.seat(gid, tokens[label])))
        assert "123456789" not in body and "salt" not in body, label
    ump, blue = auth.seat(gid, tokens["umpire"]), auth.seat(gid, tokens["blue"])
    with pytest.raises(HistoryError, match="once the game is over"):
        auth.export(ump)  # it would predict every die to come
    with pytest.raises(AuthError):
        auth.export(blue)
    game = auth.served(gid).game
    over = game.state.clock.__class__(turn=int(game.state.scenario["turns"]) + 1)
    game._commit(Order("umpire", "advance"), [clock_set(over)], None)  # test surgery: the end
    rec = auth.export(ump)
    assert rec["meta"]["seed"] == 123456789 and rec["ruleset"] == "skirmish"
    assert any(e["f"]["kind"] == "rng" and e["f"]["data"] for e in rec["events"]) or rec["initial"]
    assert str(tmp_path) not in str(rec)  # no path of the authority's
    with pytest.raises(AuthError):
        auth.export(blue)
