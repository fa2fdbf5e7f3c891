"""Seminar benchmark: how long an order takes to reach the other seats, and how long a Voila seat
dashboard takes to become usable compared with a hello-world Voila notebook on the same server.

    python bench/seminar.py                 # SQLite store, 60 orders, 5 page loads each
    python bench/seminar.py --store postgresql://user@127.0.0.1/db --orders 200
    python bench/seminar.py --no-browser    # latency only

The authority runs as its own process (``owsnb serve``), as in a seminar; the three seats
(umpire, blue, red) are ``owsnb.connect`` handles in this process. Latency is measured from the
moment a seat calls ``submit`` to the moment each *other* seat's subscriber is called with the
change (WebSocket push; then again with long-polling). Time to interactive (TTI) is measured in
headless Debian Chromium from navigation to the seat's map showing its counters, against a
notebook that prints "hello" (the first output visible), both through the same Voila process with
the same kernel pre-heating. Ratios are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("OWSNB_RULESETS", "skirmish=tests.rulesets.skirmish:RULESET")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    from owsnb.server.runner import bind

    s = bind("127.0.0.1", 0)
    port = s.getsockname()[1]
    s.close()
    return port


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def start_server(store: str, tmp: Path, voila: bool) -> tuple[subprocess.Popen, dict, int, int]:
    scenario = tmp / "skirmish-long.yaml"  # long enough never to end during the benchmark
    src = REPO / "tests" / "data"
    scenario.write_text((src / "skirmish.yaml").read_text().replace("turns: 6", "turns: 100000"))
    shutil.copy(src / "skirmish-units.yaml", tmp / "skirmish-units.yaml")
    port, vport = free_port(), free_port()
    cmd = [
        sys.executable,
        "-m",
        "owsnb",
        "serve",
        str(scenario),
        "--store",
        store,
        "--port",
        str(port),
        "--links-file",
        str(tmp / "links.json"),
        "--observer",
        "none",
        "--seed",
        "3",
    ]
    cmd += ["--voila-port", str(vport), "--voila-pool", "1"] if voila else ["--no-voila"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "OWSNB_HOME": str(tmp / "home")}
    proc = subprocess.Popen(
        cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    import httpx

    for _ in range(600):
        try:
            if (tmp / "links.json").exists() and httpx.get(
                f"http://127.0.0.1:{port}/health", timeout=1
            ).status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    return proc, json.loads((tmp / "links.json").read_text()), port, vport


def latency(links: dict, orders: int, transport: str) -> dict[str, float]:
    """Milliseconds from submit() to the other seats' subscribers, for *orders* orders."""
    from owsnb.server.client import connect

    seats = {
        s: connect(links["seats"][s]["api"], links["seats"][s]["token"], transport=transport)
        for s in ("umpire", "blue", "red")
    }
    for s in seats.values():
        for _ in range(200):
            if s.connected:
                break
            time.sleep(0.01)
    heard: dict[str, dict[int, float]] = {s: {} for s in seats}
    cond = threading.Condition()

    def listener(name: str):  # noqa: ANN202
        def cb(change) -> None:  # noqa: ANN001
            with cond:
                heard[name].setdefault(change.state_id, time.perf_counter())
                cond.notify_all()

        return cb

    for name, s in seats.items():
        s.subscribe(listener(name))
    out: list[float] = []
    submit_ms: list[float] = []
    for _ in range(orders):
        view = seats["umpire"].view()
        acting = view.clock.acting
        side = acting[0] if acting else "umpire"
        seat = seats[side] if side in seats else seats["umpire"]
        others = [n for n in seats if n != (side if side in seats else "umpire")]
        order = f"{side}: done" if acting else "umpire: advance"
        t0 = time.perf_counter()
        sub = seat.submit(order, state_id=seat.state_id)
        submit_ms.append((time.perf_counter() - t0) * 1000)
        with cond:
            rev, who = sub.state_id, others
            cond.wait_for(lambda: all(rev in heard[n] for n in who), timeout=10)  # noqa: B023
        out += [(heard[n][sub.state_id] - t0) * 1000 for n in others if sub.state_id in heard[n]]
        # everyone must be current before the next order (else it would be refused as stale)
        for s in seats.values():
            s.wait(sub.state_id, 10)
    for s in seats.values():
        s.close()
    return {
        "median": statistics.median(out),
        "p95": pct(out, 0.95),
        "submit": statistics.median(submit_ms),
        "n": len(out),
    }


def tti(vport: int, links: dict, tmp: Path, loads: int) -> tuple[list[float], list[float]]:
    """Seconds to interactive: the seat page (map counters shown) and a hello-world notebook."""
    import httpx
    from playwright.sync_api import sync_playwright

    seat_url = links["seats"]["blue"]["link"]
    hello_url = f"http://127.0.0.1:{vport}/voila/render/hello.ipynb"
    seat_t, hello_t = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(loads):
            for url, sel, acc in (
                (hello_url, "text=hello from Voila", hello_t),
                (seat_url, ".owsnb-app .leaflet-marker-icon", seat_t),
            ):
                time.sleep(4)  # let Voila refill its pool of pre-heated kernels
                page = browser.new_page(viewport={"width": 1300, "height": 900})
                page.route(
                    "**/*",
                    lambda r: (
                        r.abort()
                        if not r.request.url.startswith(
                            ("http://127.0.0.1", "ws://127.0.0.1", "data:")
                        )
                        else r.continue_()
                    ),
                )
                t0 = time.perf_counter()
                page.goto(url, wait_until="commit", timeout=180_000)
                page.wait_for_selector(sel, timeout=180_000)
                acc.append(time.perf_counter() - t0)
                page.close()
        browser.close()
    _ = httpx
    return seat_t, hello_t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", help="store URL (default: a SQLite file in a temporary folder)")
    ap.add_argument("--orders", type=int, default=60)
    ap.add_argument("--loads", type=int, default=5, help="page loads per notebook for TTI")
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="owsnb-bench-"))
    store = args.store or f"sqlite:///{tmp / 'bench.owsnb'}"
    voila = not args.no_browser and Path(CHROMIUM).exists()
    if voila:  # a hello-world notebook beside the dashboards, served by the same Voila
        import nbformat

        dash = tmp / "dashboards"
        shutil.copytree(REPO / "notebooks" / "seminar", dash)
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell("print('hello from Voila')")]
        nbformat.write(nb, dash / "hello.ipynb")
        os.environ["OWSNB_DASHBOARDS"] = str(dash)
    proc, links, port, vport = start_server(store, tmp, voila)
    try:
        print(
            f"owsnb seminar benchmark — store {store.split('@')[-1]}, authority in its own process"
        )
        ws = latency(links, args.orders, "ws")
        poll = latency(links, max(10, args.orders // 3), "poll")
        print(
            f"order -> other seats (WebSocket):  median {ws['median']:.1f} ms, "
            f"p95 {ws['p95']:.1f} ms "
            f"({ws['n']} deliveries; submit round trip median {ws['submit']:.1f} ms)"
        )
        print(
            f"order -> other seats (long-poll):  median {poll['median']:.1f} ms, "
            f"p95 {poll['p95']:.1f} ms "
            f"({poll['n']} deliveries)"
        )
        print(f"ratio long-poll / WebSocket (median): {poll['median'] / ws['median']:.2f}")
        if voila:
            seat_t, hello_t = tti(vport, links, tmp, args.loads)
            s, h = statistics.median(seat_t), statistics.median(hello_t)
            print(
                f"Voila time to interactive (pre-heated kernels, median of {args.loads}): "
                f"seat dashboard {s:.2f} s, hello-world {h:.2f} s; ratio seat / hello {s / h:.2f}"
            )
    finally:
        proc.terminate()
        proc.wait(30)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
