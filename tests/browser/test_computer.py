"""Issue 22, done when: "a real-Chromium test plays a tutorial turn against the computer in the
solo demo" — the seat dashboard without a link, *against the computer*, blue for the student and
``greedy`` for red: the student's orders by clicks only (:mod:`owsnb.testing.clicks`, decided
from what blue's page shows), each step closed with blue's Done; red answers by itself, the
umpire's steps end by themselves, and the turn advances. The page never shows red's hidden
units; what blue saw of red's orders is on the panel above the tabs and on the map.

Screenshots at 1366x768 and 1920x1080 go to ``test-artifacts/computer-*.png``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.testing.clicks import answer_owed, clicks_for
from owsnb.testing.needs import missing
from tests.browser.clicker import Clicker
from tests.browser.driver import ARTIFACTS, WAIT
from tests.browser.test_tutorial_clicks import LARGE, SMALL, demo_page, read_saved
from tests.server.test_browser import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BLUE_ORDERS = ["blue: move B-DDG-1801 0407", "blue: isr 0506"]
"""The student's own orders (from the briefing's first turn), given by clicks when legal (no
CAP over the strait: red's computer then strikes and lands, and blue must answer it)."""


def shoot(c: Clicker, name: str) -> None:
    """The page at 1366x768 and at 1920x1080, back to 1366."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, tag in ((SMALL, "1366"), (LARGE, "1920")):
        c.page.set_viewport_size(size)
        c._scale = None
        time.sleep(1.0)
        c.page.screenshot(path=str(ARTIFACTS / f"computer-{name}-{tag}.png"))
    c.page.set_viewport_size(SMALL)
    time.sleep(1.0)
    c._scale = None


UNDER_THE_POINTER = """el => {
    el.scrollIntoView({block: 'start', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit !== null && el.contains(hit)) return '';
    return hit === null ? 'nothing' : (hit.closest('.owsnb-computer') ? 'the computer panel'
        : hit.tagName + '.' + hit.className);
}"""
"""Scroll *el* to the top of what scrolls it — as a student scrolling the side column down
puts the tab bar there — and say what is under the pointer at its centre ('' if *el* is)."""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


OVERFLOWS = """el => {
    for (let p = el.parentElement; p !== null; p = p.parentElement) {
        const y = getComputedStyle(p).overflowY;
        if ((y === 'auto' || y === 'scroll') && p.scrollHeight > p.clientHeight + 1) return true;
    }
    return false;
}"""
"""Is *el* in a box that scrolls (the side column, longer than the window)?"""


def clear_of_the_panel(c: Clicker, head: Any, name: str) -> bool:
    """The computer's panel never covers the tabs or the order controls (issue 22, the page
    polish): at 1366x768 and 1920x1080, each of the tab bar's titles and blue's Done, scrolled to
    the top of the side column, is what the mouse finds at its centre, and its box does not
    overlap the panel's — while the panel stays in the window. Returns whether the side column
    scrolled at 1366x768 (then the page is shot so to ``computer-{name}-scrolled-*.png``)."""
    controls = {
        "the 'orders' tab": c.root.get_by_role("tab", name="orders"),
        "the 'notes' tab": c.root.get_by_role("tab", name="notes"),
        "Done (blue)": c.orders.get_by_role("button", name="Done (blue)"),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    scrolled = False
    for size, tag in ((SMALL, "1366"), (LARGE, "1920")):
        c.page.set_viewport_size(size)
        time.sleep(1.0)
        scrolls = bool(controls["the 'orders' tab"].evaluate(OVERFLOWS))
        scrolled = scrolled or (scrolls and size is SMALL)
        for what, el in controls.items():
            under = el.evaluate(UNDER_THE_POINTER)
            assert under == "", f"at {tag}, {name}: {what} is under {under} (side column scrolled)"
            box, panel = el.bounding_box(), head.bounding_box()
            assert box is not None and panel is not None
            assert not _overlap(box, panel), f"at {tag}, {name}: the panel {panel} covers {what}"
            assert panel["y"] >= 0 and panel["y"] + panel["height"] <= size["height"], panel
        if scrolls:  # and the mouse wheel, over the side column, reaches every control
            tabs = c.root.locator(".widget-tab-bar").first.bounding_box()
            assert tabs is not None
            c.page.mouse.move(tabs["x"] + tabs["width"] / 2, size["height"] - 40)
            for dy, what in ((4000, "Done (blue)"), (-4000, "the 'orders' tab")):
                c.page.mouse.wheel(0, dy)
                time.sleep(0.5)
                box = controls[what].bounding_box()
                assert box is not None
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                hit = c.page.evaluate(
                    "([el, x, y]) => el.contains(document.elementFromPoint(x, y))",
                    [controls[what].element_handle(), x, y],
                )
                assert hit, f"at {tag}, {name}: the wheel does not bring {what} under the mouse"
            controls["the 'orders' tab"].evaluate(UNDER_THE_POINTER)
            c.page.screenshot(path=str(ARTIFACTS / f"computer-{name}-scrolled-{tag}.png"))
    c.page.set_viewport_size(SMALL)
    time.sleep(1.0)
    c._scale = None
    return scrolled


def until(what: str, ok: Any, timeout: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = ok()
        if got:
            return got
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def blue_to_act(c: Clicker, saved: Path) -> Any:
    """Wait until blue acts (or turn 2) in the page's game and the page shows that moment;
    the clicker's mirror is then that game."""

    def ready() -> Any:
        g = read_saved(saved)
        if g.clock.turn == 1 and "blue" not in g.clock.acting:
            return None
        shown = c.root.inner_text()
        return g if str(g.clock) in shown and f"Turn {g.clock.turn}" in shown else None

    g = until("blue's turn", ready)
    c.mirror = g
    return g


def give(c: Clicker, saved: Path, order: str) -> None:
    """*order* by clicks (no typing), then Submit; wait until the page's game has it."""
    plan = clicks_for(c.mirror, "blue", order)
    assert plan[-1].kind == "submit" and not any(k.kind == "typed" for k in plan), plan
    c.play(plan[:-1], order)
    c.wait_order(order)
    n = read_saved(saved).seq
    c.orders.get_by_role("button", name="Submit").click()
    c.clicks += 1
    until(f"{order} in the game", lambda: read_saved(saved).seq > n)


def done(c: Clicker, saved: Path) -> None:
    button = c.orders.get_by_role("button", name="Done (blue)")
    c.page.wait_for_function("b => !b.disabled", arg=button.element_handle(), timeout=WAIT)
    n = read_saved(saved).seq
    button.click()
    c.clicks += 1
    until("blue's Done in the game", lambda: read_saved(saved).seq > n)


def test_a_tutorial_turn_against_the_computer_in_the_solo_demo(tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    with demo_page(tmp_path, "computer-FAILED.png") as page:
        p = page.page
        demo = p.locator(".owsnb-demo")
        demo.get_by_role("button", name="Start").wait_for(timeout=180_000)
        seed = demo.locator(".widget-inline-hbox", has_text="dice seed").locator("input")
        seed.fill("1")  # the dice of the game the Python tests play (a strike on blue)
        seed.press("Tab")
        demo.get_by_role("button", name="against the computer").click()
        demo.get_by_text("you play", exact=True).wait_for(timeout=WAIT)
        demo.get_by_role("button", name="Start").click()
        p.locator(".owsnb-app .leaflet-marker-icon").first.wait_for(timeout=180_000)
        saved = until(
            "the saved game",
            lambda: list((tmp_path / "home" / "games" / "demo").glob("*-vs-*.owsnb")),
        )[0]
        assert saved.stem.endswith("-vs-greedy-as-blue")
        c = Clicker(p, 0, read_saved(saved), seat="blue")
        head = c.root.locator(".owsnb-computer")
        head.get_by_text("The computer plays").wait_for(timeout=WAIT)
        assert "red" in head.inner_text() and "greedy" in head.inner_text()
        todo, shots = list(BLUE_ORDERS), set()
        scrolled = False  # the side column scrolled at 1366x768 when the panel was checked
        while True:
            g = blue_to_act(c, saved)
            # never red's hidden units: the page draws blue's view only
            drawn = set(
                " ".join(
                    c.root.locator(".owsnb-stack").evaluate_all(
                        "els => els.map(e => e.dataset.units)"
                    )
                ).split()
            )
            on_map = {u.id for u in g.view("blue").units.values() if u.hex is not None}
            assert drawn <= on_map, drawn - on_map
            if g.clock.turn > 1:
                break
            said = head.locator("li", has_text="red attacks")
            if "attack" not in shots and said.count():
                shoot(c, "attack")  # a ground attack on blue's hex (10.3)
                shots.add("attack")
                scrolled |= clear_of_the_panel(c, head, "attack")
            need = answer_owed(g, "blue")
            if need is not None:
                if "strike" not in shots and need.startswith("blue: shields"):
                    head.get_by_text("declares a strike").wait_for(timeout=WAIT)
                    assert c.root.locator("path.owsnb-other").count() > 0  # the ring
                    shoot(c, "strike")
                    shots.add("strike")
                    scrolled |= clear_of_the_panel(c, head, "strike")
                give(c, saved, need)
                continue
            order = next((o for o in todo if _legal(g, o)), None)
            if order is not None:
                give(c, saved, order)
                todo.remove(order)
                if "move" not in shots:
                    shoot(c, "move")
                    shots.add("move")
                    scrolled |= clear_of_the_panel(c, head, "move")
                continue
            done(c, saved)
        g = read_saved(saved)
        assert g.clock.turn == 2, g.clock
        assert todo == [], todo
        assert any(  # red played: its orders are in the game, by the computer
            e.kind == "unit.move" and str(e.data["id"]).startswith("R-") for e in g.events
        )
        if shots & {"strike", "attack"}:  # the panel listed what blue had to answer
            assert head.locator("li").count() >= 1
        shoot(c, "turn2")
        scrolled |= clear_of_the_panel(c, head, "turn2")
        # the panel's place was checked at least once with a side column that scrolls
        assert scrolled, "the side column never scrolled at 1366x768: nothing was checked"
    assert c.clicks < 80, c.clicks


def _legal(g: Any, order: str) -> bool:
    try:
        g.check(order)
        return True
    except IllegalOrderError:
        return False
