"""The seat dashboards' Python side (what the Voila notebooks call), against a live server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from owsnb.pages.demo import DemoPage
from owsnb.pages.seat import seat_page, seat_query, umpire_page
from tests.server.conftest import Served


def q(served: Served, label: str, token: str | None = None) -> str:
    return urlencode({"url": served.game_url, "token": token or served.token(label)})


def test_a_page_without_a_seat_explains_itself(
    served: Served, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("OWSNB_SERVER", raising=False)
    monkeypatch.setenv("OWSNB_HOME", str(tmp_path))
    demo = seat_page()  # no seat at all: the solo demo (tests/server/test_demo_page.py)
    assert isinstance(demo, DemoPage)
    demo.close()
    assert "No seat in this link" in umpire_page().value
    # a link that names a seat never falls back to the demo: its problem is shown
    assert "not valid" in seat_page(q(served, "blue", "forged")).value
    assert "incomplete" in seat_page("token=forged").value
    assert "incomplete" in seat_page(f"game={served.created.game_id}&token=t").value  # no server
    assert "not the umpire" in umpire_page(q(served, "blue")).value
    monkeypatch.setenv("OWSNB_SERVER", served.url)
    assert seat_query(f"game={served.created.game_id}&token=t") == (served.game_url, "t")
    dead = urlencode({"url": "http://127.0.0.1:9/games/x", "token": "t"})
    assert "does not answer" in seat_page(dead).value


def test_seat_page_is_the_seats_table(served: Served) -> None:
    page = seat_page(q(served, "red"))
    try:
        assert page.remote.side == "red"
        assert sorted(page.table.view.units) == sorted(served.game.view("red").units)
    finally:
        page.close()
        page.remote.close()


def test_umpire_console_drives_the_game(served: Served) -> None:
    page = umpire_page(q(served, "umpire"))
    c = page.console
    try:
        assert "Turn 1" in c.clock.value
        before = served.game.state.clock
        assert not hasattr(c, "advance_button")  # one advance control: the table's
        page.app.orders.advance_button.click()
        assert served.game.state.clock != before and c.status.value == ""
        # the console hears of it as every seat does (a push)
        deadline = time.monotonic() + 10
        while f"state {served.game.state_id}" not in c.clock.value and time.monotonic() < deadline:
            time.sleep(0.05)
        assert f"state {served.game.state_id}" in c.clock.value
        c.undo_button.click()
        assert served.game.state.clock == before
        c.note.value = "Blue hesitates"
        c.audience.value = "blue"
        c.note_button.click()
        assert [(a.text, a.side) for a in served.game.annotations] == [("Blue hesitates", "blue")]
        c.assess_note.value = "Red kept its reserve"
        c.audience.value = None
        c.assess_button.click()
        assert served.game.annotations[-1].tags == ("assessment",)
        assert "Red kept its reserve" in c.assessment.value and "steps" in c.assessment.value
        c.obs_view.value, c.obs_delay.value = "red", 3
        c.obs_new.click()
        assert "token (shown once)" in c.new_link.value
        labels = [s.label for s in served.authority.served(served.created.game_id).seats]
        assert len(labels) == 5
        blue_id = served.created.seats["blue"].seat_id
        c.seat_pick.value = blue_id
        c.revoke_button.click()
        assert served.authority.served(served.created.game_id).seats.get(blue_id).revoked
        # a refused action is shown in the console, not raised
        assert served.game.seq == 0
        c.undo_button.click()
        assert "nothing to undo" in c.status.value
    finally:
        page.console.close()
        page.app.close()
        page.remote.close()


def test_an_observers_page_is_read_only_and_says_so(served: Served) -> None:
    """Issue 20: the observer page offered an enabled Submit and called itself "umpire (solo
    study)". An observer's table says it watches, offers no order and no step control; the
    seminar umpire's says "umpire", not "solo study"."""
    umpire = served.connect("umpire")
    made = umpire.add_seat("observer", "blue", label="visitor")
    page = seat_page(q(served, "", made["token"]))
    try:
        op = page.orders
        assert op.read_only and op.giving.layout.display == "none"
        assert op.watching.layout.display == "" and "observer" in op.watching.value
        assert "observer of blue (read-only)" in page.title.value
        assert "solo study" not in page.title.value + op.clock.value
    finally:
        page.close()
        page.remote.close()
    ump = umpire_page(q(served, "umpire"))
    try:
        assert "umpire" in ump.app.title.value and "solo study" not in ump.app.title.value
        assert "solo study" not in ump.app.orders.clock.value
    finally:
        ump.app.close()
        ump.console.close()
        ump.remote.close()


def test_umpire_console_writes_the_debrief_from_the_umpires_seat(served: Served) -> None:
    """The Assessment tab's Debrief button: the debrief of the game so far, built through the
    umpire's remote seat (as any notebook could), offered as one HTML file to download."""
    import base64
    import re

    page = umpire_page(q(served, "umpire"))
    c = page.console
    try:
        page.app.orders.advance_button.click()
        c.note.value = "the river crossing was the key"
        c.note_button.click()
        c.debrief_button.click()
        link = c.debrief_link.value
        m = re.search(r"download='([^']+)' href='data:text/html;base64,([^']+)'", link)
        assert m and m.group(1) == f"{served.created.game_id}-debrief.html", link
        text = base64.b64decode(m.group(2)).decode("utf-8")
        assert text.startswith("<!DOCTYPE html>") and "the river crossing was the key" in text
        assert "<h3 id='turn-1'>" in text and c.status.value == ""
        # the same as built from the truth: the turn's map holds every unit where it stands
        for u in served.game.state.units.values():
            if u.hex is not None:
                assert f"<title>{u.id} — " in text
    finally:
        page.console.close()
        page.app.close()
        page.remote.close()


def _until(what: str, ok: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_umpire_console_hands_a_side_to_the_computer_and_takes_it_back(served: Served) -> None:
    """Issue 22.3: the umpire hands red to a bot; it plays through red's eyes whenever red is to
    act (blue's person plays on), the console says red is the computer's and lists what it did,
    red's seat is told by a note; taken back, red waits for a person again."""
    page = umpire_page(q(served, "umpire"))
    c = page.console
    blue = served.connect("blue")
    try:
        assert "Computer" in c.tabs.titles and "a person" in c.bot_table.value
        c.bot_side.value, c.bot_name.value, c.bot_budget.value = "red", "greedy", 1.0
        c.hand_button.click()
        assert c.status.value == "" and "red" in c.pilots
        assert "the computer: <b>greedy</b>" in c.bot_table.value
        assert any(
            a.side == "red" and "handed red to the computer (greedy)" in a.text
            for a in served.game.annotations
        )
        for _ in range(2):  # blue's person gives Done; red's bot answers each time
            _until("blue's turn", lambda: "blue" in blue.view().clock.acting)
            blue.submit("blue: done")
        _until("turn 2", lambda: served.game.clock.turn == 2)
        pilot = c.pilots["red"]
        assert pilot.bot.times and not pilot.errors
        red_orders = [
            e for e in served.game.events if e.kind == "unit.move" and e.data["id"].startswith("R-")
        ]
        _until("the console's list", lambda: "<code>red: " in c.bot_feed.value)
        if pilot.bot.orders:
            assert red_orders and "<code>red: move" in c.bot_feed.value
        c.take_button.click()
        assert "red" not in c.pilots and not pilot.running
        assert "a person" in c.bot_table.value and "taken back" in c.bot_feed.value
        _until("blue's turn", lambda: "blue" in blue.view().clock.acting)
        blue.submit("blue: done")
        time.sleep(1.0)  # nobody plays red now: the game waits for red's person
        assert "red" in served.game.clock.acting
        assert "red (computer)" not in c.clock.value and "red" in c.clock.value
    finally:
        c.close()
        page.app.close()
        page.remote.close()
        blue.close()
    assert c.pilots == {}


def test_a_bot_that_is_late_never_stalls_the_seminar_and_the_console_says_so(
    served: Served,
) -> None:
    """A bot never stalls a game: over its seconds per order the runner passes safely for it,
    and the console shows the late answer and the pass."""
    import owsnb.bots
    from owsnb.bots import Policy

    class Sleepy(Policy):
        name = "sleepy"

        def choose(self, view, legal, rng, budget):  # noqa: ANN001, ANN201
            time.sleep(1.5)
            return None

    owsnb.bots.register("sleepy", Sleepy)
    page = umpire_page(q(served, "umpire"))
    c = page.console
    blue = served.connect("blue")
    try:
        c.hand_to_bot("red", "sleepy", 0.3)
        _until("blue's turn", lambda: "blue" in blue.view().clock.acting)
        blue.submit("blue: done")
        _until("red's late pass", lambda: "late (over 0.3 s): passed safely" in c.bot_feed.value)
        assert c.pilots["red"].bot.timeouts >= 1
    finally:
        c.close()
        page.app.close()
        page.remote.close()
        blue.close()
        from owsnb.bots import registry

        registry._FACTORIES.pop("sleepy", None)


def test_a_side_handed_to_the_computer_watches_and_the_other_side_learns_nothing(
    served: Served,
) -> None:
    """Issue 22.3 (the seat): while the umpire has handed red to the computer, the authority
    refuses red's orders from red's own seat (the bot gives them through the umpire's seat), and
    red's page says so in a banner and hides its order controls instead of inviting orders it
    would refuse; taken back, both are gone. Hidden information: blue's seat is told nothing of
    it — no change, no push, the same numbers and page."""
    from owsnb.kernel.errors import AuthError, IllegalOrderError

    umpire = served.connect("umpire")
    red_page, blue_page = seat_page(q(served, "red")), seat_page(q(served, "blue"))
    red, blue = red_page.remote, blue_page.remote
    heard: list[Any] = []
    blue.subscribe(heard.append)
    try:
        blue_info, blue_cursor = blue._get(""), blue.cursor
        blue_banner, blue_orders = blue_page.banner.value, blue_page.orders.giving.layout.display
        assert "owsnb-handed" not in red_page.banner.value
        assert red_page.orders.giving.layout.display == ""
        umpire.set_computer("red", "greedy")
        assert umpire.computer == {"red": "greedy"}
        _until("red's page told", lambda: "owsnb-handed" in red_page.banner.value)
        assert red.computer == {"red": "greedy"}
        assert "The umpire has handed red to the computer (greedy)" in red_page.banner.value
        assert red_page.orders.giving.layout.display == "none"
        said = red_page.orders.watching
        assert said.layout.display == "" and "the server refuses yours" in said.value
        with pytest.raises(AuthError, match="handed red to the computer"):
            red.submit("red: done")  # refused before the rules are asked: nothing changes
        assert served.game.seq == 0
        with pytest.raises(IllegalOrderError):  # the umpire's seat (the bot's) is not held:
            umpire.as_side("red").submit("red: done")  # the rules answer it (blue acts first)
        time.sleep(1.0)  # time for any push to blue
        assert heard == [] and blue.cursor == blue_cursor and blue.computer == {}
        assert blue._get("") == blue_info
        assert blue_page.banner.value == blue_banner
        assert blue_page.orders.giving.layout.display == blue_orders
        umpire.set_computer("red", None)
        _until("red's page told", lambda: "owsnb-handed" not in red_page.banner.value)
        assert red.computer == {} and red_page.orders.giving.layout.display == ""
        with pytest.raises(IllegalOrderError):  # red's seat is asked of the rules again
            red.submit("red: done")  # (blue acts first in the skirmish)
        assert heard == [] and blue._get("") == blue_info
    finally:
        for page in (red_page, blue_page):
            page.close()
            page.remote.close()
        umpire.close()
