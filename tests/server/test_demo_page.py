"""The seat dashboard opened without a seat link (README's Binder badge): a solo demo on a bundled
scenario, autosaved and resumable; a link that names a seat still takes the seminar path."""

from __future__ import annotations

from pathlib import Path

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
        assert [key for _, key in page.seat.options] == ["umpire", "hot-seat"]
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
