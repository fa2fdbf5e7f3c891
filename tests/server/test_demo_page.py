"""The seat dashboard opened without a seat link (README's Binder badge): a solo demo on a bundled
scenario, autosaved and resumable; a link that names a seat still takes the seminar path."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from owsnb.kernel.errors import ScenarioError
from owsnb.pages.demo import DemoPage, demo_dir
from owsnb.pages.seat import seat_page, umpire_page
from owsnb.widgets import App


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``$OWSNB_HOME`` and no query string (as on Binder's badge, or under nbclient)."""
    monkeypatch.setenv("OWSNB_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    return tmp_path / "home"


def close(page: DemoPage) -> None:
    page.stop_computer()  # the computer's sides first: nothing plays on a closed table
    if page.app is not None:
        page.app.close()
    page.close()


def test_without_a_seat_the_page_offers_the_demo(home: Path) -> None:
    page = seat_page()
    try:
        assert isinstance(page, DemoPage)
        assert "solo demo" in page.intro.value and "owsnb serve" in page.intro.value
        assert page.scenario.value == "tutorial"
        assert {"tutorial", "sandbox"} <= set(page.scenario.options)  # the bundled scenarios
        assert page.seat.value == "umpire"
        assert [key for _, key in page.seat.options] == ["umpire", "hot-seat", "computer"]
        assert page.start_button.description == "Start" and page.app is None
        assert page.resume_row.layout.display == "none"  # nothing saved yet
        assert page.folder == demo_dir() == home / "games" / "demo"
    finally:
        close(page)
    # the same with an explicit empty query; the umpire's dashboard has no demo
    assert isinstance(seat_page(""), DemoPage)
    assert "No seat in this link" in umpire_page("").value
    assert "No seat in this link" in seat_page("", demo=False).value


def test_starting_gives_the_umpire_an_app_on_the_tutorial(home: Path) -> None:
    page = DemoPage(seed=5)
    try:
        page.start_button.click()
        app = page.app
        assert isinstance(app, App) and page.app is app
        assert page.slot.children == (app,)
        assert page.chooser.layout.display == "none" and page.status.value == ""
        assert app.seat.side == "umpire" and app.curtain is False
        assert app.seats == ("blue", "red", "umpire")  # the seat switch: look through each side
        assert app.table.view.scenario["id"] == "tutorial"
        assert page.game.meta["seed"] == 5 and page.game.meta["scenario"] == "tutorial"
        # the same game as owsnb.load("tutorial", seed=5)
        import owsnb

        assert page.game.state.units == owsnb.load("tutorial", seed=5, save=False).state.units
        assert "seed 5" in page.intro.value and str(page.game.meta["store"]) in page.intro.value
        app.switch("red")
        assert app.seat.side == "red" and sorted(app.table.view.units) == sorted(
            page.game.view("red").units
        )
    finally:
        close(page)


def test_hot_seat_starts_with_the_acting_side_and_curtains_the_switch(home: Path) -> None:
    page = DemoPage(seed=5)
    try:
        page.seat.value = "hot-seat"
        page.start_button.click()
        app = page.app
        assert app.seat.side == page.game.clock.acting[0] == "blue"
        assert app.seats == ("blue", "red")  # no umpire seat at a hot-seat table
        assert sorted(app.table.view.units) == sorted(page.game.view("blue").units)
        app.switch("red")
        assert app.seat.side == "red" and app.body.layout.display == "none"  # the curtain
        assert "red" in app.curtain_box.children[0].value
    finally:
        close(page)


def test_the_demo_autosaves_and_a_restart_resumes_it(home: Path) -> None:
    first = DemoPage(seed=9)
    first.start_button.click()
    game = first.game
    saved = Path(game.meta["store"])
    assert saved.parent == home / "games" / "demo" and saved.is_file()
    game.submit("blue: done")
    game.annotate("Blue waits for the weather")
    state, state_id = game.state, game.state_id
    close(first)
    # a reload (or a kernel restart) builds the page again: it offers the saved game
    again = DemoPage()
    try:
        assert again.resume_row.layout.display == ""
        assert again.saved.value == saved and saved.stem in again.saved.label
        again.seat.value = "hot-seat"
        again.resume_button.click()
        assert again.game.state == state and again.game.state_id == state_id
        assert [a.text for a in again.game.annotations] == ["Blue waits for the weather"]
        assert again.game.meta["seed"] == 9
        assert again.app.seat.side == "red"  # blue is done: red is the side still acting
        # orders go on being saved to the same file
        again.game.submit("red: done")
        import owsnb

        assert owsnb.resume(saved).state_id == state_id + 1
    finally:
        close(again)
    # starting again makes a new file and keeps the old one
    other = DemoPage(seed=9)
    try:
        other.start_button.click()
        assert Path(other.game.meta["store"]) != saved and saved.is_file()
        assert len(other.saved_games()) == 2
    finally:
        close(other)


def test_a_hot_seat_game_resumes_behind_the_curtain_never_in_the_umpires_view(home: Path) -> None:
    """Issue 20: reloading the demo and pressing Resume reopened a hot-seat game in the umpire's
    all-seeing view. It resumes as hot-seat — the sides only — with the table hidden until the
    player whose turn it is clicks, whatever seat the chooser shows."""
    first = DemoPage(seed=3)
    first.seat.value = "hot-seat"
    first.start_button.click()
    saved = Path(first.game.meta["store"])
    assert saved.stem.endswith("-hotseat")
    first.game.submit("blue: done")
    close(first)
    again = DemoPage()
    try:
        assert again.seat.value == "umpire"  # the chooser's default
        again.resume_button.click()
        app = again.app
        assert app.seat.side == "red" and app.seats == ("blue", "red")
        assert app.body.layout.display == "none" and app.curtain_box.layout.display == "flex"
        assert "red" in app.curtain_box.children[0].value
        app.reveal.click()
        assert app.body.layout.display == ""
        assert set(app.table.view.units) == set(again.game.view("red").units)  # red's eyes only
    finally:
        close(again)


def test_a_broken_scenario_or_file_is_shown_and_the_page_stays(home: Path, tmp_path: Path) -> None:
    page = DemoPage(["tutorial", "no-such-scenario"], seed=1)
    try:
        page.scenario.value = "no-such-scenario"
        assert page.start() is None
        assert "Could not open the game" in page.status.value
        assert (
            "no-such-scenario" in page.status.value and ScenarioError.__name__ in page.status.value
        )
        assert page.app is None and page.chooser.layout.display != "none"
        assert not page.start_button.disabled
        bad = tmp_path / "damaged.owsnb"
        bad.write_text("not a game file")
        assert page.resume(bad) is None and "StoreError" in page.status.value
        assert page.app is None and page.slot.children == ()
        page.scenario.value = "tutorial"  # then a good choice works
        assert isinstance(page.start(), App)
    finally:
        close(page)


def _play_blue_until(page: DemoPage, done: Any, timeout: float = 120.0) -> None:
    """The student at blue's seat: Done whenever blue acts (shields when a strike waits for
    them, 9.2.1), until *done()*; red is the computer's, the umpire's steps the referee's."""
    import time

    t0 = time.monotonic()
    game, table = page.game, page.app.table
    while not done():
        assert time.monotonic() - t0 < timeout, f"the game stalled at {game.clock}"
        if "blue" in game.clock.acting:
            if table.submit("blue: done") is None and "9.2.1" in str(table.refusal):
                table.submit("blue: shields")
        time.sleep(0.05)


def test_against_the_computer_the_student_sees_one_side_and_the_turn_goes_on(home: Path) -> None:
    """Issue 22.3: "play against the computer" — the student's side only (no seat switch, no
    curtain, never the umpire's view); red is played by a greedy Autopilot through red's eyes and
    the umpire's steps end by themselves; a whole turn goes by with the student's Done alone;
    the panel says who plays red and what the student saw of its orders."""
    page = DemoPage(seed=1)
    try:
        page.seat.value = "computer"
        assert page.versus_row.layout.display == ""
        assert page.you.options == ("blue", "red") and "greedy" in page.bot.options
        page.you.value, page.bot.value, page.budget.value = "blue", "greedy", 1.0
        page.start_button.click()
        app, game = page.app, page.game
        assert Path(game.meta["store"]).stem.endswith("-vs-greedy-as-blue")
        assert app.seat.side == "blue" and app.seats == ("blue",) and app.curtain is False
        assert app.seat_buttons.layout.display == "none"
        assert sorted(app.table.view.units) == sorted(game.view("blue").units)
        assert app.side.children[0] is page.computer
        assert "red" in page.computer.who.value and "greedy" in page.computer.who.value
        assert [p.side for p in page.pilots] == ["red"] and page.referee is not None
        _play_blue_until(page, lambda: game.clock.turn == 2)
        pilot = page.pilots[0]
        assert pilot.bot.orders >= 1 and not pilot.errors and not page.referee.errors
        assert any(e.kind == "unit.move" and e.data["id"].startswith("R-") for e in game.events)
        # what blue saw of red's orders, in words with the rule (a strike declared on blue)
        assert page.computer.acts and "What the computer did" in page.computer.record_html.value
        assert all(
            line in [ln for g in _blue_lines(game) for ln in g]
            for a in page.computer.acts
            for line in a.lines
            if not line[0].startswith("R-")
        )
    finally:
        close(page)
    assert page.pilots == [] and page.referee is None  # the computer stops with the page


def _blue_lines(game: Any) -> list[list[tuple[str, str]]]:
    from owsnb.display.results import feed

    return feed(game.view("blue"), limit=1000)


def test_a_game_against_the_computer_resumes_as_the_students_side(home: Path) -> None:
    """Resumed (a reload, a restart), the game is the student's side against the same bot —
    never the umpire's view, whatever seat is chosen on the page."""
    first = DemoPage(seed=3)
    first.seat.value = "computer"
    first.you.value, first.bot.value = "red", "random"
    first.start_button.click()
    saved = Path(first.game.meta["store"])
    close(first)
    again = DemoPage(seed=4)
    try:
        assert again.saved.value == saved
        again.resume_button.click()  # the page's seat is "umpire": the file decides
        assert again.app.seat.side == "red" and again.app.seats == ("red",)
        assert [p.side for p in again.pilots] == ["blue"]
        assert again.pilots[0].bot.label == "random"
    finally:
        close(again)


def test_the_referee_ends_the_umpires_steps_and_never_the_sides() -> None:
    """Against the computer nobody sits in the umpire's chair: the referee ends a step the
    umpire acts in, and never a side's."""
    import owsnb
    from owsnb.kernel.state import UMPIRE
    from owsnb.pages.demo import Referee

    game = owsnb.load("tutorial", seed=1, save=False)
    ref = Referee(game)  # the sides' step (1.1): the referee waits
    try:
        time.sleep(0.3)
        assert game.seq == 0 and ref.step() is False and ref.errors == []
    finally:
        ref.stop()
    assert not ref._thread.is_alive()
    while game.clock.acting and UMPIRE not in game.clock.acting:  # the sides, by hand
        game.submit(f"{game.clock.acting[0]}: done")
    step = (game.clock.turn, game.clock.step)
    ref = Referee(game)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (
            (game.clock.turn, game.clock.step) == step or UMPIRE in game.clock.acting
        ):
            time.sleep(0.05)
        assert (game.clock.turn, game.clock.step) != step and ref.errors == []
        assert game.clock.acting and UMPIRE not in game.clock.acting  # a side's step again
    finally:
        ref.stop()
