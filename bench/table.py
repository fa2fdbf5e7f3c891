"""Benchmark: the table a class plays with the mouse (issue 20), next to the issue's figures.

* **Clicks per turn** and **click-to-visible latency** (p50/p95) of map clicks, Submit and Done in
  headless Chromium: the tutorial's whole first turn played by clicks alone on the three seminar
  seats (``owsnb serve`` on loopback; ``tests/browser/test_tutorial_clicks.py``'s player). A map
  click is timed to the order panel showing what it gave, Submit to the result and every die
  shown, Done to the page showing the next step.
* **Bytes per move**: the whole App's Submit of a move at 2,000 hexes, comm messages as
  ``jupyter_client`` serialises them (``owsnb.widgets.wire.MessageLog``), as ``bench/map.py``
  measures them.
* **Time to interactive** of a seat page against a hello-world Voila page on the same Voila (the
  same pre-heated kernels, the same server): from the request to the first counter drawn, and to
  "hello world" drawn (medians).

    python bench/table.py [--skip-browser] [--loads 5]

Issue 20's figures: about 160 actions for the turn, ids and hexes typed; the App's Submit of a
move 6.3 KB; a seat page about 1.7x a hello-world page (4.3-5.6 s to a usable page). Targets:
<= 5 KB per move; <= 1.5x hello world.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def bytes_per_move(repeat: int = 9) -> tuple[float, int]:
    """(median bytes, median messages) of the whole App's Submit of a move, 2,000 hexes."""
    from bench.map import run

    r = run(50, 40, repeat, whole_app=True)
    _, nbytes, worst = r["move"]
    return nbytes, worst


def clicks_and_latency() -> dict:
    """The tutorial's first turn by clicks on the three seminar seats (Chromium)."""
    from tests.browser.test_tutorial_clicks import seminar_turn

    with tempfile.TemporaryDirectory() as tmp:
        return seminar_turn(Path(tmp))


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def time_to_interactive(loads: int = 5) -> tuple[float, float]:
    """Median seconds to a usable seat page and to a hello-world page on the same Voila."""
    import httpx
    import nbformat
    from playwright.sync_api import sync_playwright

    from owsnb.server.cli import VoilaProcess
    from tests.server.test_browser import ARGS, CHROMIUM

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        links_file = tmp_path / "links.json"
        port = _free_port()
        env = dict(os.environ, OWSNB_HOME=str(tmp_path / "home"))
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        authority = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "owsnb",
                "serve",
                "tutorial",
                "--store",
                f"sqlite:///{tmp_path / 's.owsnb'}",
                "--port",
                str(port),
                "--no-voila",
                "--observer",
                "none",
                "--seed",
                "1",
                "--links-file",
                str(links_file),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        pages = tmp_path / "pages"
        pages.mkdir()
        (pages / "seat.ipynb").write_text((ROOT / "notebooks/seminar/seat.ipynb").read_text())
        hello = nbformat.v4.new_notebook()
        hello.cells = [
            nbformat.v4.new_code_cell("import ipywidgets as W\nW.HTML('<b>hello world</b>')")
        ]
        hello.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(hello, pages / "hello.ipynb")
        vport = _free_port()
        voila = None
        try:
            deadline = time.monotonic() + 120
            while not links_file.exists() and time.monotonic() < deadline:
                time.sleep(0.3)
            links = json.loads(links_file.read_text())
            voila = VoilaProcess(pages, "127.0.0.1", vport, f"http://127.0.0.1:{port}", preheat=2)
            assert voila.wait(120), "Voila did not start"
            token = links["seats"]["red"]["token"]
            seat_url = f"{voila.url}/voila/render/seat.ipynb?game=tutorial&token={token}"
            hello_url = f"{voila.url}/voila/render/hello.ipynb"
            for url in (seat_url, hello_url):  # the first load of each warms Voila's caches
                httpx.get(url, timeout=120)
            seat, hi = [], []
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for _ in range(loads):
                    for url, sel, out in (
                        (hello_url, "text=hello world", hi),
                        (seat_url, ".owsnb-app .leaflet-marker-icon .owsnb-stack", seat),
                    ):
                        time.sleep(4)  # the pool pre-heats a fresh kernel
                        page = browser.new_page(viewport={"width": 1366, "height": 768})
                        t0 = time.monotonic()
                        page.goto(url, wait_until="commit", timeout=120_000)
                        page.locator(sel).first.wait_for(timeout=120_000)
                        out.append(time.monotonic() - t0)
                        page.close()
                browser.close()
            return statistics.median(seat), statistics.median(hi)
        finally:
            if voila is not None:
                voila.stop()
            authority.terminate()
            authority.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-browser", action="store_true", help="only the bytes per move")
    ap.add_argument("--loads", type=int, default=5, help="page loads timed for each page")
    args = ap.parse_args()
    nbytes, worst = bytes_per_move()
    print("== issue 20: the table a class plays with the mouse ==")
    print(f"{'':46}{'now':>14}{'issue 20':>16}")
    print(
        f"{'whole App: Submit of a move, 2,000 hexes':46}{nbytes / 1024:11.1f} KB"
        f"{'6.3 KB (<= 5)':>16}   (worst {worst / 1024:.1f} KB)"
    )
    if args.skip_browser:
        return
    f = clicks_and_latency()
    lat = f["latency"]
    print(
        f"{'clicks for the tutorial first turn (3 seats)':46}{f['clicks']:14d}{'~160 actions':>16}"
    )
    print(f"{'  of which orders (by clicks alone)':46}{f['orders']:14d}")
    for key, name in (("map", "map click"), ("submit", "Submit"), ("done", "Done")):
        v = lat[key]
        print(
            f"{'click-to-visible ' + name + ' p50 / p95':46}"
            f"{v['p50'] * 1000:6.0f} / {v['p95'] * 1000:5.0f} ms   (n={v['n']})"
        )
    seat, hello = time_to_interactive(args.loads)
    print(
        f"{'seat page to interactive (median)':46}{seat:12.2f} s"
        f"{'4.3-5.6 s':>16}\n"
        f"{'hello-world Voila page (median)':46}{hello:12.2f} s\n"
        f"{'ratio':46}{seat / hello:13.2f}x{'~1.7x (<= 1.5)':>16}"
    )


if __name__ == "__main__":
    main()
