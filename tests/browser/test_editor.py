"""The scenario editor in a real browser (issue 23): ``owsnb edit FILE`` (Voila on loopback) in
headless Debian Chromium, driven like an instructor drives it.

* A new OWS scenario built **with the mouse only** — zoom in, drag a box, choose 10 km hexes,
  make the map, paint a forest, put an airfield, two counters a side from the palette (one of them
  aboard a ship), a briefing (typed: the only keys pressed) — saved; ``owsnb validate`` accepts
  the file, ``owsnb.load`` loads it and its first step is played.
* The bundled tutorial edited: a ship moved with the move tool, a GCAT cell typed in from a
  printed edition; saved; *Play solo* opens the table on it and shows the ship on its new hex;
  the saved game's table has the new value.

Screenshots of the editor at 1366x768 and 1920x1080 go to ``test-artifacts/editor-*.png``. No
request may leave the machine.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

import owsnb
from owsnb.scenario import build_state, load_scenario
from owsnb.testing.needs import missing
from owsnb.widgets import geometry as G
from tests.widgets.lab import CHROMIUM, CHROMIUM_ARGS, free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
WAIT = 60_000  # ms: the longest one click may take to show (a new map: the land mask loads)
WORLD = (25.0, 125.0, 4)  # the editor's first view: lat, lon, zoom (Editor.world_view)
BOX = (127.6, 26.05, 128.4, 26.95)  # Okinawa's main island, dragged on the map

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class EditPage:
    """``owsnb edit FILE`` in a subprocess and one Chromium page on it."""

    def __init__(self, browser: Any, target: Path, tmp: Path, *extra: str):
        self.port = free_port()
        self.log = open(tmp / "edit.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "owsnb", "edit", str(target), "--no-browser",
             "--port", str(self.port), *extra],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "OWSNB_HOME": str(tmp / "home")},
        )  # fmt: skip
        self.base = f"http://127.0.0.1:{self.port}"
        self.page = browser.new_page(viewport={"width": 1366, "height": 768})
        self.outside: list[str] = []

        def route(r: Any) -> None:
            url = r.request.url
            if url.startswith((self.base, self.base.replace("http", "ws"), "data:")):
                r.continue_()
            else:
                self.outside.append(url)
                r.abort()

        self.page.route("**/*", route)
        self.tmp = tmp

    def open(self) -> Any:
        import httpx

        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (self.tmp / "edit.log").read_text()[-2000:]
            try:
                if httpx.get(self.base + "/voila/", timeout=2).status_code < 500:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        self.page.goto(f"{self.base}/voila/render/editor.ipynb", timeout=180_000)
        self.ed = self.page.locator(".owsnb-editor").first
        self.ed.locator(".leaflet-container").first.wait_for(timeout=180_000)
        return self.ed

    def message(self, pattern: str) -> str:
        """Wait until the editor's message line matches *pattern*; return it."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + WAIT / 1000
        text = ""
        while time.monotonic() < deadline:
            loc = self.ed.locator(".owsnb-editor-message")
            text = loc.inner_text() if loc.count() else ""
            if rx.search(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"the editor says {text!r}, not {pattern!r}")

    def button(self, name: str) -> Any:
        """The button named *name* (an icon before or after the words aside)."""
        rx = re.compile(rf"^[^\w→]*{re.escape(name)}[^\w]*$")
        return self.ed.get_by_role("button", name=rx).first

    def arm(self, key: str) -> None:
        """Click counter *key* in the palette; wait until the place-unit tool holds it (a palette
        redrawn by the click before it is made again: click the new one)."""
        for _ in range(3):
            self.ed.locator(f".owsnb-palette button[title*='({key})']").first.click()
            try:
                self.page.wait_for_function(
                    "([el, k]) => el.innerText.includes(': ' + k + ' for')",
                    arg=[self.ed.locator(".owsnb-editor-hint").element_handle(), key],
                    timeout=10_000,
                )
                return
            except Exception:  # noqa: BLE001 - the button clicked was the last palette's
                continue
        raise AssertionError(f"counter {key} could not be chosen")

    def tab(self, name: str) -> None:
        self.ed.get_by_role("tab", name=re.compile(f"^{name}")).first.click()

    def shot(self, name: str, width: int = 1366, height: int = 768) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.set_viewport_size({"width": width, "height": height})
        self.page.wait_for_timeout(400)  # the layout settles (Leaflet redraws on resize)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path))
        self.page.set_viewport_size({"width": 1366, "height": 768})
        self.page.wait_for_timeout(200)
        return path

    def stop(self) -> None:
        self.page.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


# -- where things are on the screen ----------------------------------------------------------
def _merc(lat: float) -> float:
    return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def globe_point(box: dict, lat0: float, lon0: float, zoom: float, lon: float, lat: float):
    """Where (lon, lat) is on a Web Mercator map centred on (lat0, lon0) at *zoom*."""
    s = 256 * 2**zoom
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return cx + (lon - lon0) / 360 * s, cy - (_merc(lat) - _merc(lat0)) / (2 * math.pi) * s


class Screen:
    """Hex centres on the screen, from two hexes the page itself outlined (a click in *select*
    shows the hex picked: its label in the status line, its outline on the map)."""

    def __init__(self, ep: EditPage, state: Any):
        self.ep, self.map = ep, state.map
        box = ep.ed.locator(".owsnb-map .leaflet-container").bounding_box()
        pts = []
        for fx, fy in ((0.42, 0.3), (0.58, 0.72)):
            pts.append(self.picked(box["x"] + fx * box["width"], box["y"] + fy * box["height"]))
        (la, sa), (lb, sb) = pts
        pa, pb = self.proj(self.map.hex(la)), self.proj(self.map.hex(lb))
        self.s = float(np.linalg.norm(sa - sb) / np.linalg.norm(pa - pb))
        self.ref = (pa, sa)

    def proj(self, h: Any) -> np.ndarray:
        lay = self.map.layout
        return np.asarray(G.lonlat_to_pixels(lay, *lay.centre(h)), dtype=float)

    def picked(self, x: float, y: float) -> tuple[str, np.ndarray]:
        page = self.ep.page
        status = self.ep.ed.locator(".owsnb-map .widget-html").last
        path = self.ep.ed.locator("path.owsnb-selection")
        before = (status.inner_text(), path.bounding_box() if path.count() else None)
        page.mouse.click(x, y)
        page.wait_for_function(
            "([el, old]) => /^[0-9]{4} /.test(el.innerText) && el.innerText !== old",
            arg=[status.element_handle(), before[0]],
        )
        label = status.inner_text().split()[0]
        path.wait_for()
        deadline = time.monotonic() + WAIT / 1000
        while (b := path.bounding_box()) == before[1] and time.monotonic() < deadline:
            time.sleep(0.05)  # the outline follows the status line
        return label, np.array([b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])

    def of(self, label: str) -> tuple[float, float]:
        pa, sa = self.ref
        d = self.proj(self.map.hex(label)) - pa
        return float(sa[0] + self.s * d[0]), float(sa[1] - self.s * d[1])

    def click(self, label: str) -> None:
        x, y = self.of(label)
        ok = self.ep.page.evaluate(
            """([x, y]) => { const el = document.elementFromPoint(x, y);
                 return !!el && !!el.closest('.owsnb-map .leaflet-container')
                   && !el.closest('.leaflet-marker-icon') && !el.closest('.leaflet-control'); }""",
            [x, y],
        )
        assert ok, f"hex {label} is covered or off the screen"
        self.ep.page.mouse.click(x, y)


def spread(labels: list[str], state: Any, n: int) -> list[str]:
    """*n* of *labels* far from each other (so no counter covers the next one's hex)."""
    hexes = [state.map.hex(x) for x in labels]
    centre = hexes[len(hexes) // 2]
    chosen = [min(hexes, key=lambda h: h.distance(centre))]
    while len(chosen) < n:
        chosen.append(
            max(hexes, key=lambda h: min(h.distance(c) for c in chosen) * 100 - h.distance(centre))
        )
    return [state.map.label(h) for h in chosen]


# -- 1. a new scenario, with the mouse ---------------------------------------------------------
def test_a_new_ows_scenario_built_with_the_mouse_saves_loads_and_plays(browser, tmp_path):
    target = tmp_path / "okinawa.yaml"
    ep = EditPage(browser, target, tmp_path)
    try:
        ed = ep.open()
        ed.locator(".owsnb-editor-status").get_by_text("no map yet").wait_for(timeout=WAIT)
        ep.shot("editor-new-1366x768.png")
        # zoom in three steps on the first view, then drag the box over Okinawa
        lat0, lon0, zoom = WORLD
        for _ in range(3):
            ed.locator("a.leaflet-control-zoom-in").click()
            ep.page.wait_for_function("() => !document.querySelector('.leaflet-zoom-anim')")
            ep.page.wait_for_timeout(300)
        zoom += 3
        ed.locator("a.leaflet-draw-draw-rectangle").click()
        box = ed.locator(".leaflet-container").first.bounding_box()
        x0, y0 = globe_point(box, lat0, lon0, zoom, BOX[0], BOX[3])
        x1, y1 = globe_point(box, lat0, lon0, zoom, BOX[2], BOX[1])
        mouse = ep.page.mouse
        mouse.move(x0, y0)
        mouse.down()
        mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=6)
        mouse.move(x1, y1, steps=6)
        mouse.up()
        drawn = ed.locator(".owsnb-bbox")
        drawn.wait_for(timeout=WAIT)
        bbox = tuple(float(v) for v in drawn.inner_text().split(","))
        assert np.allclose(bbox, BOX, atol=0.02), bbox  # where the mouse went
        ep.button("10km").click()
        ep.button("Make the map").click()
        ed.locator(".owsnb-map path.owsnb-grid").wait_for(timeout=120_000)
        ep.message("new map: ")

        # the same map, made here: where its hexes are and which are land or sea
        from owsnb.authoring.generate import new_scenario

        scn = new_scenario("okinawa", "x", bbox=bbox, hex_size="10km")
        state, _ = build_state(load_scenario(scn), 0)
        terrain = {state.map.label(h): i.terrain for h, i in state.map.hexes.items()}
        land = [x for x, t in terrain.items() if t == "clear"]
        sea = [x for x, t in terrain.items() if t == "littoral"]
        screen = Screen(ep, state)
        forest, field = spread(land, state, 2)
        ship_b, ship_r = spread(sea, state, 2)

        # terrain and an airfield
        ep.button("forest").click()
        screen.click(forest)
        ep.message(f"{forest}: forest")
        ep.button("airfield").click()
        screen.click(field)
        ep.message(f"airfield in {field}")
        ep.shot("editor-new-map-1366x768.png")

        # two counters a side: blue's squadron base on the airfield and a destroyer at sea
        ep.tab("Units")
        ep.button("blue").click()
        ep.button("us-allied").click()
        for key, where in (("us-squadron", field), ("us-ddg-iia", ship_b)):
            ep.arm(key)
            screen.click(where)
            ep.message(f"placed B-[A-Z0-9]+-1 on {where}")
        # red's landing ship at sea and a brigade aboard it
        ep.button("red").click()
        ep.button("prc").click()
        ep.arm("prc-lst-072")
        screen.click(ship_r)
        ep.message(f"placed R-LST-1 on {ship_r}")
        ep.arm("prc-amphib-cab")
        ep.button("→ aboard").click()
        ep.button("R-LST-1").click()
        ep.message("placed R-AMPHIB-1 in aboard \\(R-LST-1\\)")

        # the briefing (the only keys pressed), then Save
        ep.tab("Scenario")
        area = ed.locator(".owsnb-field-briefing textarea")
        area.click()
        ep.page.keyboard.type("Red lands at Kadena before dawn; Blue must hold the airfield.")
        ed.locator(".owsnb-editor-status").click()  # the text is taken when the box is left
        ed.locator(".owsnb-editor-status").get_by_text("the game loads it").wait_for(timeout=WAIT)
        ep.button("Save").click()
        ep.message("saved ")
        ep.tab("Units")
        ep.shot("editor-new-units-1366x768.png")
        ep.shot("editor-new-units-1920x1080.png", 1920, 1080)
        outside = list(ep.outside)
    except Exception:
        ep.shot("editor-new-FAILED.png")
        raise
    finally:
        ep.stop()
    # Voila's template links Font Awesome from a CDN although its bundle carries the icons
    assert [u for u in outside if "/@fortawesome/" not in u] == []

    # what was saved is what the mouse made; the loader reads it; the game plays it
    out = subprocess.run(
        [sys.executable, "-m", "owsnb", "validate", str(target)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    data = yaml.safe_load(target.read_text())
    assert data["map"]["terrain"]["hexes"] == {forest: "forest"}
    (feature,) = data["map"]["features"]
    assert (feature["hex"], feature["type"]) == (field, "airfield")
    units = {u["id"]: u for u in data["units"]}
    assert {u["side"] for u in units.values()} == {"blue", "red"} and len(units) == 4
    assert units["R-AMPHIB-1"]["box"] == "aboard"
    game = owsnb.load(target, seed=1, save=False)
    assert game.unit("R-AMPHIB-1").data["aboard"] == game.unit("R-LST-1").data["hold"]
    assert {game.map.label(game.unit(u).hex) for u in ("B-SQUADRON-1", "B-DDG-1", "R-LST-1")} == {
        field,
        ship_b,
        ship_r,
    }
    assert game.state.scenario["briefing"].startswith("Red lands at Kadena")
    first = str(game.clock)
    game.submit(f"{game.clock.acting[0]}: done")
    assert str(game.clock) != first and game.seq > 0


# -- 2. the tutorial, edited ---------------------------------------------------------------------
def test_the_tutorial_edited_in_the_browser_plays_with_the_change(browser, tmp_path):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(ROOT / "scenarios" / "tutorial.yaml", folder)
    shutil.copytree(ROOT / "scenarios" / "catalogs", folder / "catalogs")
    shutil.copytree(ROOT / "scenarios" / "maps", folder / "maps")
    target = folder / "tutorial.yaml"
    mirror = owsnb.load(target, seed=1, save=False)
    view = mirror.view("umpire")
    ship = "R-052D-1"
    here = view.units[ship].hex
    occupied = {u.hex for u in view.units.values() if u.hex is not None}
    dest = next(
        h for h in sorted(here.ring(2)) if h in view.map.hexes and h not in occupied
        and view.map.hexes[h].terrain in ("littoral", "deep-sea")
    )  # fmt: skip
    label = mirror.map.label(dest)
    ep = EditPage(browser, target, tmp_path)
    try:
        ed = ep.open()
        ed.locator(f".leaflet-marker-icon .owsnb-stack[data-units~='{ship}']").wait_for(
            timeout=WAIT
        )
        ep.shot("editor-tutorial-1366x768.png")
        ep.shot("editor-tutorial-1920x1080.png", 1920, 1080)

        # move the ship: the move tool, its counter, then the hex it goes to
        ep.button("move").click()
        marker = ed.locator(f".leaflet-marker-icon:has(.owsnb-stack[data-units~='{ship}'])")
        marker.click()
        ep.message(f"{ship}: now click the hex it goes to")
        # where the destination is: measured from two counters the map shows
        lay = mirror.map.layout

        def proj(h: Any) -> np.ndarray:
            return np.asarray(G.lonlat_to_pixels(lay, *lay.centre(h)), dtype=float)

        def centre(uid: str) -> np.ndarray:
            b = ed.locator(
                f".leaflet-marker-icon:has(.owsnb-stack[data-units~='{uid}'])"
            ).bounding_box()
            return np.array([b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])

        a, b = "R-PHL-1", "B-DDG-1801"
        sa, sb = centre(a), centre(b)
        pa, pb = proj(view.units[a].hex), proj(view.units[b].hex)
        s = float(np.linalg.norm(sa - sb) / np.linalg.norm(pa - pb))
        d = proj(dest) - pa
        ep.page.mouse.click(float(sa[0] + s * d[0]), float(sa[1] - s * d[1]))
        ep.message(f"moved {ship} to {label}")

        # a value of the Ground Combat Adjudication Table from the instructor's printed edition
        ep.tab("Tables")
        pick = ed.locator("select").filter(has_text="gcat").first
        texts = pick.locator("option").all_inner_texts()
        pick.select_option(index=next(i for i, t in enumerate(texts) if t.startswith("gcat")))
        cell = ed.locator(".owsnb-table-grid input").first
        cell.wait_for(timeout=WAIT)
        assert cell.input_value() == "A2"
        cell.fill("A3")
        cell.press("Enter")
        ep.message("table gcat: cells\\[0\\]\\[0\\] = 'A3'")
        ed.locator(".owsnb-changed input").first.wait_for(timeout=WAIT)
        ep.shot("editor-tutorial-tables-1366x768.png")

        # a squadron too many on Magong's airfield (capacity 1, 6.5.5): listed, outlined, undone
        ep.tab("Units")
        ep.button("blue").click()
        ep.button("us-allied").click()
        ep.arm("tw-squadron")
        magong = ed.locator(".leaflet-marker-icon:has(.owsnb-stack[data-units~='B-DDG-1801'])")
        magong.click()
        ep.message("placed B-SQUADRON-1 on 1210")
        magong.click()
        ep.message("placed B-SQUADRON-2 on 1210")
        ed.locator(".owsnb-editor-status").get_by_text("1 problem").wait_for(timeout=WAIT)
        ed.locator("path.owsnb-problem").wait_for(timeout=WAIT)
        ep.page.wait_for_function(  # the stack holding the unit at fault is outlined in red
            """() => [...document.querySelectorAll(".owsnb-stack[data-units~='B-SQUADRON-2']")]
                 .some(el => getComputedStyle(el).outlineStyle === 'dashed')"""
        )
        ep.tab("Problems")
        problems = ed.locator(".owsnb-problems").inner_text()
        assert "units[21].hex" in problems and "capacity 1 (6.5.5)" in problems, problems
        ep.shot("editor-tutorial-problem-1366x768.png")
        ep.button("Undo").click()
        ep.message("undone")
        ep.button("Undo").click()
        ed.locator(".owsnb-editor-status").get_by_text("the game loads it").wait_for(timeout=WAIT)
        ep.page.wait_for_function("() => !document.querySelector('path.owsnb-problem')")

        # the ship's own form (payload from the rule set's schema), then the scenario's options
        ep.button("select").click()
        marker.click()
        ed.locator(".owsnb-editor-side").get_by_text(
            "Payload (catalog values unless changed)"
        ).wait_for(timeout=WAIT)
        ep.shot("editor-tutorial-unit-1366x768.png")
        ep.tab("Scenario")
        ep.button("show the options").click()
        ed.locator(".owsnb-editor-side").get_by_text("strike_order").first.wait_for(timeout=WAIT)
        ep.shot("editor-tutorial-scenario-1366x768.png")

        # play it now: the table opens on the saved file, the ship on its new hex
        ep.button("Play solo").click()
        app = ep.page.locator(".owsnb-app")
        app.locator(f".leaflet-marker-icon .owsnb-stack[data-units~='{ship}']").wait_for(
            timeout=WAIT
        )
        app.locator(f".leaflet-marker-icon:has(.owsnb-stack[data-units~='{ship}'])").click()
        status = app.locator(".owsnb-map .widget-html").last
        ep.page.wait_for_function(
            "([el, l]) => el.innerText.startsWith(l + ' ')", arg=[status.element_handle(), label]
        )
        ep.shot("editor-tutorial-play-1366x768.png")
        outside = list(ep.outside)
    except Exception:
        ep.shot("editor-tutorial-FAILED.png")
        raise
    finally:
        ep.stop()
    assert [u for u in outside if "/@fortawesome/" not in u] == []
    game = owsnb.load(target, seed=1, save=False)
    assert game.map.label(game.unit(ship).hex) == label
    assert game.state.tables["gcat"]["cells"][0][0] == "A3"
    assert mirror.state.tables["gcat"]["cells"][0][0] == "A2"  # it was the rule set's before
    saved = target.read_text().splitlines()
    assert sum(line.startswith(f"- {{id: {ship},") for line in saved) == 1  # one unit, one line


# -- 3. the same widget in JupyterLab ----------------------------------------------------------
def test_the_editor_widget_in_jupyterlab_paints_a_hex(lab, page):
    """``owsnb.Editor("tutorial")`` in a JupyterLab notebook (the lab of tests/browser): the map
    draws, the terrain tool paints the hex clicked, the kernel's document has it."""
    from tests.browser.driver import KERNEL_IDLE, kernel_run

    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{lab.url}/lab/workspaces/editor-lab/tree/editor-lab.ipynb?token={lab.token}")
    page.wait_for_function(KERNEL_IDLE, timeout=180_000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    ed = page.locator(".owsnb-editor").first
    ed.locator(".owsnb-map path.owsnb-grid").wait_for(timeout=180_000)
    mirror = owsnb.load("tutorial", save=False)
    view = mirror.view("umpire")
    lay = mirror.map.layout

    def proj(h: Any) -> np.ndarray:
        return np.asarray(G.lonlat_to_pixels(lay, *lay.centre(h)), dtype=float)

    def centre(uid: str) -> np.ndarray:
        m = ed.locator(f".leaflet-marker-icon:has(.owsnb-stack[data-units~='{uid}'])")
        m.first.scroll_into_view_if_needed()
        b = m.first.bounding_box()
        return np.array([b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])

    ed.locator(".leaflet-container").first.scroll_into_view_if_needed()
    sa, sb = centre("R-PHL-1"), centre("B-DDG-1801")
    pa, pb = proj(view.units["R-PHL-1"].hex), proj(view.units["B-DDG-1801"].hex)
    s = float(np.linalg.norm(sa - sb) / np.linalg.norm(pa - pb))
    target = mirror.map.hex("1005")  # open sea in the middle of the strait
    d = proj(target) - pa
    ed.get_by_role("button", name=re.compile(r"^\W*mountain\W*$")).click()
    page.mouse.click(float(sa[0] + s * d[0]), float(sa[1] - s * d[1]))
    ed.locator(".owsnb-editor-message").get_by_text("1005: mountain").wait_for(timeout=WAIT)
    assert "1005" in kernel_run(page, "print(editor.doc.data['map']['terrain']['hexes'])")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "editor-jupyterlab-1366x768.png"))
    assert page.outside == []  # type: ignore[attr-defined]
