"""The table in a real browser: JupyterLab on loopback, headless Debian Chromium via Playwright.

Opens ``notebooks/01-play.ipynb`` (the OWS tutorial at the umpire's seat), runs it, plays the
first turn up to naval movement with the Done button, clicks a ship, sees its reach overlay,
clicks a destination hex, submits the move and sees the counter move. Screenshots are saved
under ``test-artifacts/``. No request may leave the machine (offline first: no tiles, no CDN).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest

import owsnb
from owsnb.testing.needs import missing
from owsnb.widgets import geometry as G
from tests.widgets.lab import CHROMIUM, chromium, copy_notebook, jupyter_lab

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "01-play.ipynb"
ARTIFACTS = ROOT / "test-artifacts"

KERNEL_IDLE = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""


APP_CELL = next(  # the notebook's cell that shows the App
    i
    for i, c in enumerate(json.loads(NOTEBOOK.read_text())["cells"])
    if "App(game" in "".join(c["source"])
)
MOVE_STEP = "3.A.1"  # OWS naval movement: the first step of the tutorial with a move to make


def _the_notebooks_game():
    """The game the notebook opens (same scenario and seed), played on to the step where the
    browser will move a ship, to know what to click."""
    text = NOTEBOOK.read_text()
    scenario = re.search(r'owsnb.load\(\\"([^\\"]+)\\"', text).group(1)
    seed = int(re.search(r"seed=(\d+)", text).group(1))
    game = owsnb.load(scenario, seed=seed, save=False)
    dones = 0
    while game.clock.step != MOVE_STEP:
        game.submit(f"{game.clock.acting[0]}: done")
        dones += 1
    return game, dones


def _plan(game):
    """A unit alone on its hex (a click selects it) and an empty hex it may move to."""
    side = game.clock.acting[0]
    view = game.view("umpire")
    spec = game.legal_orders(side)["move"]
    for unit in spec.candidates["unit"]:
        here = view.units[unit].hex
        if sum(u.hex == here for u in view.units.values()) > 1:
            continue
        reach = game.ruleset.presentation.reach(view, unit) or {}
        for h in sorted(reach, key=lambda h: (abs(h.distance(here) - 3), h)):
            if h == here or any(u.hex == h for u in view.units.values()):
                continue
            order = spec.type.make(side, unit=unit, to=game.map.label(h))
            try:
                game.check(order)
            except owsnb.IllegalOrderError:
                continue
            return unit, here, h, order
    raise AssertionError("no legal move to click in the notebook's game")


def _centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.browser
@pytest.mark.slow
def test_play_notebook_in_jupyterlab(tmp_path):
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    game, dones = _the_notebooks_game()
    unit, here, dest, order = _plan(game)
    lay = game.map.layout
    corners = np.asarray(lay.corners(here))
    px, py = G.lonlat_to_pixels(lay, corners[:, 0], corners[:, 1])
    (hx, hy), (dx, dy) = (np.asarray(G.lonlat_to_pixels(lay, *lay.centre(h))) for h in (here, dest))
    name = copy_notebook(NOTEBOOK, tmp_path)
    ARTIFACTS.mkdir(exist_ok=True)
    with jupyter_lab(tmp_path) as lab, chromium() as page:
        outside: list[str] = []

        def only_local(route):
            url = route.request.url
            if url.startswith(lab.url) or url.startswith("data:"):
                route.continue_()
            else:
                outside.append(url)
                route.abort()

        page.route("**/*", only_local)
        page.goto(lab.notebook_url(name))
        page.wait_for_function(KERNEL_IDLE, timeout=180_000)
        started = time.monotonic()
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        counter = page.locator(f".leaflet-marker-icon .owsnb-stack[data-units~='{unit}']").first
        counter.wait_for(timeout=180_000)  # a locator: the map redraws its counters as it fits
        page.wait_for_selector("path.owsnb-grid", timeout=30_000)
        first_paint = time.monotonic() - started
        # every widget extension loaded (ipywidgets, jupyter-leaflet, bqplot): none failed to show
        assert page.locator("text=Error displaying widget").count() == 0
        assert page.locator(".owsnb-orders .widget-toggle-buttons").count() == 1
        # the planning steps need no orders: Done, as the panel asks, until naval movement
        orders = page.locator(".owsnb-orders").first
        for _ in range(dones):
            before = orders.inner_text()
            page.click(".owsnb-orders button:has-text('Done')")
            page.wait_for_function(
                "([el, before]) => el.innerText !== before",
                arg=[orders.element_handle(), before],
                timeout=30_000,
            )
        page.wait_for_function(
            "([el, step]) => el.innerText.includes('step ' + step)",
            arg=[orders.element_handle(), MOVE_STEP],
            timeout=30_000,
        )
        # JupyterLab scrolls a cell into view when it becomes the active one — on the first
        # mousedown inside it, which then lands its click elsewhere on the map (a known
        # JupyterLab behaviour, noted in the widgets README): the App's cell is made the active
        # one first, as a student's first click into it does
        page.evaluate(
            "i => { const nb = window.jupyterapp.shell.currentWidget.content;"
            " nb.activeCellIndex = i; nb.scrollToItem(i, 'start'); }",
            APP_CELL,
        )
        page.wait_for_timeout(500)
        counter.click()
        try:
            page.wait_for_selector("path.owsnb-reach", timeout=30_000)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "01-play-FAILED.png"), full_page=True)
            raise
        sel = page.wait_for_selector("path.owsnb-selection", timeout=30_000)
        # the selected hex on screen gives the map's scale and offset; aim at the destination
        box = sel.bounding_box()
        scale = box["width"] / float(px.max() - px.min())
        cx, cy = _centre(box)
        target = (cx + scale * float(dx - hx), cy - scale * float(dy - hy))
        page.mouse.click(*target)
        label = game.map.label(dest)
        page.wait_for_selector(f".owsnb-orders code:has-text('{order}')", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "01-play-prepared.png"), full_page=True)
        page.click(".owsnb-orders button:has-text('Submit')")
        page.wait_for_function(
            """([sel, x, y, tol]) => {
                 const el = document.querySelector(sel);
                 if (!el) return false;
                 const r = el.closest('.leaflet-marker-icon').getBoundingClientRect();
                 const dx = r.x + r.width / 2 - x, dy = r.y + r.height / 2 - y;
                 return Math.abs(dx) < tol && Math.abs(dy) < tol;
               }""",
            arg=[f".owsnb-stack[data-units~='{unit}']", target[0], target[1], box["width"] / 2],
            timeout=30_000,
        )
        page.wait_for_selector(
            f".owsnb-orders .owsnb-result code:has-text('{order}')", timeout=30_000
        )  # submitted
        page.wait_for_function(KERNEL_IDLE, timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "01-play.png"), full_page=True)
        page.click(".owsnb-app .lm-TabBar-tab:has-text('dashboard')")
        page.wait_for_selector(
            ".owsnb-dashboard .bqplot text:has-text('strength') >> visible=true", timeout=30_000
        )
        page.screenshot(path=str(ARTIFACTS / "01-play-dashboard.png"), full_page=True)
        (ARTIFACTS / "01-play.txt").write_text(
            f"first paint (run all -> counters and grid drawn): {first_paint:.1f} s\n"
            f"order: {order} ({label})\n"
        )
    assert outside == [], f"requests left the machine: {outside[:5]}"
