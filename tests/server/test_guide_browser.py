"""Guidance and pictures in real browsers (issue 21): ``owsnb serve tutorial`` on loopback, headless
Debian Chromium on the seat dashboards (Voila) and on the solo demo.

A first-time student's seat shows the step coach above the orders and the briefing in its tab; the
dashboard draws its charts without a console error, whichever tab was shown before; the time &
distance tab puts labelled rings and their legend on the map and measures a route leg by leg. The
umpire's page shows the same and its console's standing and debrief. Screenshots at 1366x768 and
1920x1080 go to ``test-artifacts/guide-*.png``. Nothing leaves the machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import owsnb
from owsnb.testing.needs import missing
from tests.server.test_browser import ARGS, ARTIFACTS, CHROMIUM, Page, Seminar

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# errors the page logs whatever owsnb draws: the Font Awesome CDN link of Voila's template, blocked
# here (offline first), and a JupyterLab extension of the environment that Voila cannot host
_NOT_OURS = ("Failed to load resource: net::ERR_FAILED", "@jupyterlab/filebrowser")
TABS = ("briefing", "distance", "dashboard", "dice", "notes", "orders")


@pytest.fixture(scope="module")
def seminar(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Seminar, dict]]:
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    tmp = tmp_path_factory.mktemp("guide")
    s = Seminar(f"sqlite:///{tmp / 'seminar.owsnb'}", tmp, scenario="tutorial", seed=1)
    try:
        yield s, s.wait()
    finally:
        s.stop()


@pytest.fixture(scope="module")
def browser(seminar: tuple[Seminar, dict]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


class Seat:
    """One page, its console errors, and its screenshots."""

    def __init__(self, browser: Any, seminar: Seminar, link: str, label: str, size: tuple):
        base = f"127.0.0.1:{seminar.vport}"
        self.page_ = Page(browser, label, link, (f"http://{base}", f"ws://{base}"))
        self.p = self.page_.page
        self.errors: list[str] = []
        self.p.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.p.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.p.set_viewport_size({"width": size[0], "height": size[1]})
        self.size = f"{size[0]}x{size[1]}"
        self.label = label

    def ours(self) -> list[str]:
        return [e for e in self.errors if not any(n in e for n in _NOT_OURS)]

    def app(self) -> Any:
        return self.p.locator(".owsnb-app").first

    def tab(self, name: str) -> None:
        self.app().locator(f".lm-TabBar-tab:has-text('{name}')").first.click()

    def shot(self, what: str, element: Any = None) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"guide-{self.label}-{what}-{self.size}.png"
        (element or self.p).screenshot(path=str(path))
        return path

    def show(self, locator: Any) -> None:
        locator.first.evaluate("el => el.scrollIntoView({block: 'start'})")
        time.sleep(0.4)


def _rings_and_route(s: Seat, unit: str, to: str, seat: str) -> str:
    """Pick *unit* in the distance tab, tick "ranges on map", click hex *to* on the map: the
    labelled rings, the legend and the measured route appear. Returns the legend's text."""
    from tests.browser.driver import Table

    s.tab("distance")
    td = s.p.locator(".owsnb-timedistance").first
    select = td.locator("select").first
    # the tab is made when first chosen (issue 20.6): its list fills once the panel is drawn
    select.locator(f"option:has-text('{unit}')").first.wait_for(state="attached", timeout=30_000)
    label = next(o for o in select.locator("option").all_inner_texts() if o.startswith(unit))
    select.select_option(label=label)
    td.get_by_text("reach this turn").first.wait_for(timeout=30_000)
    td.get_by_text("ranges on map").first.click()
    s.p.locator(".owsnb-legend-box").first.wait_for(timeout=30_000)
    mirror = owsnb.load("tutorial", seed=1, save=False)
    Table(s.p, 0, mirror, seat=seat).click_hex(mirror.hex(to), unit)
    s.p.locator("path.owsnb-route").first.wait_for(timeout=30_000)
    s.p.locator(".owsnb-legend-box:has-text('⟶')").first.wait_for(timeout=30_000)
    return s.p.locator(".owsnb-legend-box").first.inner_text()


def test_a_seat_shows_the_coach_the_briefing_clean_charts_rings_and_a_route(
    seminar: tuple[Seminar, dict], browser: Any
) -> None:
    """Blue's seat at 1366x768, as a first-time student opens it."""
    sem, links = seminar
    s = Seat(browser, sem, links["seats"]["blue"]["link"], "blue", (1366, 768))
    try:
        s.app().locator(".leaflet-marker-icon").first.wait_for(timeout=180_000)
        assert s.p.locator("text=Error displaying widget").count() == 0
        loaded = s.ours()
        assert loaded == [], f"console errors on load: {loaded[:3]}"
        # the coach, at the top of the orders tab: what to do now, with the rule
        coach = s.app().locator(".owsnb-coach").first
        coach.get_by_text("step 1.1").first.wait_for(timeout=30_000)
        text = coach.inner_text()
        assert "Your turn" in text and "rule 4.1" in text and "click Done" in text
        assert "read the briefing tab" in text  # the tutorial's own hint
        s.show(s.app())
        s.shot("coach")
        # the briefing: the live standing, the mission only Blue reads, the victory conditions
        s.tab("briefing")
        brief = s.app().locator(".owsnb-briefing").first
        brief.get_by_text("How it stands now").first.wait_for(timeout=30_000)
        body = brief.inner_text()
        assert "Hold Kinmen (0506)" in body and "Take Kinmen" not in body
        assert (
            "Victory conditions" in body and "Special rules" in body and "Order of battle" in body
        )
        s.shot("briefing")
        # the dashboard: legends under the charts, the space tracks, no error
        s.tab("dashboard")
        dash = s.app().locator(".owsnb-dashboard").first
        dash.locator(".bqplot").first.wait_for(timeout=30_000)
        dash.locator(".owsnb-legend").first.wait_for(timeout=30_000)
        assert "Space dashboard of Blue (Taiwan)" in dash.inner_text()
        time.sleep(1.0)
        s.shot("dashboard")
        # time and distance: numbered rings with their legend; Blue's destroyer to 0407
        legend = _rings_and_route(s, "B-DDG-1801", "0407", "blue")
        assert "8 hexes (160 km, 86 nm)" in legend and "per shot" in legend
        badges = s.p.locator(".owsnb-measure-label").all_inner_texts()
        assert "①④⑤ 8 hex · 160 km" in badges and "② 6 hex · 120 km" in badges
        assert "1210 → 0407" in legend and "in reach this turn" in legend
        s.show(s.app())
        s.shot("rings-route")
        # every tab, shown and hidden again: still no console error
        for name in (*TABS, "dashboard", "orders"):
            s.tab(name)
            time.sleep(0.4)
        assert s.ours() == [], f"console errors: {s.ours()[:3]}"
        assert [u for u in s.page_.outside if "/@fortawesome/" not in u] == []
    except Exception:
        s.shot("FAILED")
        raise


def test_the_umpires_page_at_1920_shows_guidance_standing_and_debrief(
    seminar: tuple[Seminar, dict], browser: Any
) -> None:
    """The umpire's page on a projector (1920x1080): every side's briefing, the coach, the
    dashboard, a measured route with its legs (Hsiung Feng battery to 1615, two turns by road),
    and the console's Assessment: the standing and the debrief."""
    sem, links = seminar
    s = Seat(browser, sem, links["seats"]["umpire"]["link"], "umpire", (1920, 1080))
    try:
        s.app().locator(".leaflet-marker-icon").first.wait_for(timeout=180_000)
        assert s.ours() == [], f"console errors on load: {s.ours()[:3]}"
        coach = s.app().locator(".owsnb-coach").first
        coach.get_by_text("you give its orders").first.wait_for(timeout=30_000)
        s.show(s.app())
        s.shot("coach")
        s.tab("briefing")
        brief = s.app().locator(".owsnb-briefing").first
        brief.get_by_text("How it stands now").first.wait_for(timeout=30_000)
        body = brief.inner_text()
        assert "Hold Kinmen (0506)" in body and "Take Kinmen (0506)" in body  # both sides'
        s.shot("briefing")
        s.tab("dashboard")
        s.app().locator(".owsnb-dashboard .bqplot").first.wait_for(timeout=30_000)
        time.sleep(1.0)
        s.shot("dashboard")
        legend = _rings_and_route(s, "B-HF3-1", "1615", "umpire")
        assert "2 turns" in legend and "past every edge of this map" in legend  # HF-3: 400 km
        labels = s.p.locator(".owsnb-measure-label").all_inner_texts()
        assert "end of turn 1 · day 1" in labels and "end of turn 2 · day 2" in labels
        s.show(s.app())
        s.shot("rings-route")
        console = s.p.locator(".owsnb-umpire-console").first
        console.locator(".lm-TabBar-tab:has-text('Assessment')").first.click()
        console.get_by_text("How it stands now").first.wait_for(timeout=30_000)
        console.get_by_role("button", name="Debrief").click()
        console.locator("a[download$='-debrief.html']").first.wait_for(timeout=60_000)
        s.show(console)
        s.shot("console-assessment")
        for name in (*TABS, "dashboard"):
            s.tab(name)
            time.sleep(0.4)
        assert s.ours() == [], f"console errors: {s.ours()[:3]}"
    except Exception:
        s.shot("FAILED")
        raise


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=["1366", "1920"])
def test_the_solo_demo_shows_the_coach_and_the_briefing(
    seminar: tuple[Seminar, dict], browser: Any, size: tuple
) -> None:
    """README's Binder badge: the seat dashboard without a link, Start, and a first-time student
    sees the coach and can open the briefing."""
    sem, _ = seminar
    s = Seat(browser, sem, f"http://127.0.0.1:{sem.vport}/voila/render/seat.ipynb", "demo", size)
    try:
        start = s.p.locator(".owsnb-demo").get_by_role("button", name="Start")
        start.wait_for(timeout=180_000)
        start.click()
        s.app().locator(".leaflet-marker-icon").first.wait_for(timeout=180_000)
        coach = s.app().locator(".owsnb-coach").first
        coach.get_by_text("step 1.1").first.wait_for(timeout=30_000)
        s.show(s.app())
        s.shot("coach")
        s.tab("briefing")
        s.app().locator(".owsnb-briefing").get_by_text("How it stands now").first.wait_for(
            timeout=30_000
        )
        s.shot("briefing")
        s.tab("dashboard")
        s.app().locator(".owsnb-dashboard .bqplot").first.wait_for(timeout=30_000)
        assert s.ours() == [], f"console errors: {s.ours()[:3]}"
    except Exception:
        s.shot("FAILED")
        raise
