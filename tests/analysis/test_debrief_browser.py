"""The debrief of a whole tutorial game opens in Debian Chromium from a file: no server, no
network, no console error; what the page shows is the game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from owsnb.analysis.debrief import debrief
from owsnb.testing.needs import missing
from tests.analysis.test_debrief import _whole_tutorial
from tests.widgets.lab import CHROMIUM, chromium

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_debrief_opens_offline_from_a_file_without_a_console_error(tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    game = _whole_tutorial()
    path = debrief(game, tmp_path / "tutorial-debrief.html")
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1366, 768), (1920, 1080)):
        _look(game, path, width, height)


def _look(game, path: Path, width: int, height: int) -> None:
    with chromium(width, height) as page:
        errors: list[str] = []
        outside: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

        def only_the_file(route):
            url = route.request.url
            if url.startswith(("file:", "data:")):
                route.continue_()
            else:
                outside.append(url)
                route.abort()

        page.route("**/*", only_the_file)
        page.goto(path.as_uri())
        page.get_by_text("Final standing").wait_for(timeout=30_000)
        assert errors == [] and outside == []
        # one map a turn played, with every unit of the game on it
        maps = page.locator("svg.map")
        assert maps.count() == 2
        units = [u for u in game.state.units.values() if u.hex is not None]
        titles = maps.nth(1).locator("g > title").all_text_contents()
        assert all(any(t.startswith(f"{u.id} — ") for t in titles) for u in units)
        assert page.locator("svg.chart").count() == 2
        assert "Red wins" in page.locator(".standing").inner_text()
        page.locator("summary:has-text('What Blue (Taiwan) saw')").first.click()
        page.screenshot(path=str(ARTIFACTS / f"guide-debrief-{width}x{height}.png"))
        page.screenshot(
            path=str(ARTIFACTS / f"guide-debrief-full-{width}x{height}.png"), full_page=True
        )
