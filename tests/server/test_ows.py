"""The OWS tutorial served: the umpire's ad hoc adjudication (2.1.1.4) with its exact odds, the
sides' steps, and no seat — not even the umpire's — ever receiving the dice state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import owsnb.rules  # noqa: F401  (registers the built-in rule sets)
from owsnb.kernel.registry import ruleset_names
from owsnb.server.authority import Authority
from owsnb.server.client import connect
from owsnb.server.runner import ServerThread
from owsnb.store import open_store

pytestmark = pytest.mark.skipif(
    "ows" not in ruleset_names(), reason="the OWS rule set is not installed"
)


@pytest.fixture
def tutorial(tmp_path: Path) -> Iterator[tuple[Authority, Any, Any]]:
    store = open_store(tmp_path / "seminar.owsnb")
    auth = Authority(store)
    created = auth.create_game("tutorial", seed=7)
    with ServerThread(auth) as srv:
        seats = {
            s: connect(f"{srv.url}/games/{created.game_id}", created.tokens[s])
            for s in ("umpire", "blue", "red")
        }
        try:
            yield auth, created, seats
        finally:
            for s in seats.values():
                s.close()
    store.close()


def test_2_1_1_4_ad_hoc_adjudication_from_the_umpires_seat(
    tutorial: tuple[Authority, Any, Any],
) -> None:
    auth, created, seats = tutorial
    ump, blue = seats["umpire"], seats["blue"]
    game = auth.served(created.game_id).game
    assert created.game_id == "tutorial" and ump.ruleset.name == "ows"
    assert "adjudicate" in ump.legal_orders().verbs
    order = "umpire: adjudicate 60 what='the bridge at Tainan holds'"
    assert ump.preview(order) == game.preview(order)  # exact: P(success) = 3/5
    assert ump.preview(order)[True] == pytest.approx(0.6)
    sub = ump.submit(order, state_id=ump.state_id)
    assert [e.kind for e in sub.events] == ["die", "note", "rng"]
    rng = sub.events[-1]
    assert dict(rng.data) == {} and dict(
        game.events[-1].data
    )  # the dice state stays on the authority
    assert blue.wait(sub.state_id, 10)
    seen = blue.log(kinds=["die", "note"])
    assert [e.rule for e in seen] == ["2.1.1.4", "2.1.1.4"] and seen[0].data["result"] == sub.dice[
        0
    ].data["result"]
    assert all(dict(e.data) == {} for e in blue.events if e.kind == "rng")
    with pytest.raises(Exception) as exc:
        blue.submit(order)
    assert "blue seat cannot give umpire's orders" in str(exc.value)


def test_the_sides_play_the_tutorials_first_step(tutorial: tuple[Authority, Any, Any]) -> None:
    auth, created, seats = tutorial
    game = auth.served(created.game_id).game
    before = game.state.clock
    for side in ("blue", "red"):
        assert seats[side].wait(game.state_id, 10)  # an order prepared on an old state is refused
        seats[side].submit("done", state_id=seats[side].state_id)
    assert game.state.clock != before
    for side in ("blue", "red", "umpire"):
        assert seats[side].wait(game.state_id, 10)
        assert seats[side].view() == game.view(side)
