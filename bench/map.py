"""Benchmark: what a click and a move cost the map, against redrawing the whole grid layer.

On a 2,000-hex map (50 x 40 hexes of 10 km near Wesel, five terrains, 24 units) measures the comm
messages the widgets send — bytes on the wire as ``jupyter_client`` serialises them, counted by
:class:`owsnb.widgets.wire.MessageLog` — and the time in the kernel for

* **click-to-highlight**: a click on an empty hex (selection outline and status line);
* **unit click**: a click on a counter (selection, reach overlay, order panel);
* **unit move**: a submitted move (the counter's marker moves, overlays follow; for the whole
  App the player's Submit after clicking the counter and its destination, and a move made
  elsewhere — another seat's, as every seat of a seminar sees them);

each against **redrawing the grid layer** (rebuilding its GeoJSON and sending it again) and
against a naive per-hex grid layer (one styled feature per hex). Prints the ratios.
Targets (issue 6): <= 100 ms, <= 5 KB and >= 20x fewer bytes than a redraw, for the map; the
whole App is measured too (every panel in sight that changes sends its own message; panels in
hidden tabs send nothing until shown), and so is the whole App on the OWS tutorial (Red's Submit
of each ship move of step 3.A.1: big counters, stacks, a verb list that changes).

With ``--browser`` it also starts JupyterLab and headless Chromium (Debian's) and times the
first paint: from "run all cells" to the grid and the counters drawn.

    python bench/map.py [--cols 50 --rows 40] [--repeat 15] [--browser]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import owsnb  # noqa: E402
from owsnb.kernel import Game  # noqa: E402
from owsnb.kernel.registry import register_ruleset  # noqa: E402
from owsnb.scenario import load_scenario  # noqa: E402
from owsnb.widgets import App, MapView, Table  # noqa: E402
from owsnb.widgets import geometry as G  # noqa: E402
from owsnb.widgets.mapview import StaticGeoJSON  # noqa: E402
from owsnb.widgets.wire import MessageLog  # noqa: E402

register_ruleset("skirmish", "tests.rulesets.skirmish:RULESET")


def scenario(cols: int = 50, rows: int = 40, seed: int = 3) -> dict:
    """A cols x rows skirmish scenario with patches of forest, hills, marsh and towns."""
    rng = np.random.default_rng(seed)

    def label(c: int, r: int) -> str:
        return f"{c:02d}{r:02d}"

    regions = []
    for terrain, n, radius in (
        ("forest", 14, 3),
        ("hills", 8, 2),
        ("marsh", 5, 2),
        ("urban", 10, 0),
    ):
        for _ in range(n):
            c, r = int(rng.integers(2, cols)), int(rng.integers(2, rows))
            regions.append({"terrain": terrain, "around": [label(c, r), radius]})
    units = []
    for side, cols_range in (("blue", (2, 12)), ("red", (cols - 11, cols - 1))):
        for i in range(12):
            kind = ("infantry", "armour", "recon")[i % 3]
            c, r = int(rng.integers(*cols_range)), int(rng.integers(1, rows + 1))
            units.append(
                {
                    "id": f"{side[0].upper()}-{kind[:3].upper()}-{i}",
                    "type": kind,
                    "side": side,
                    "hex": label(c, r),
                }
            )
    seen = set()
    units = [u for u in units if not (u["hex"] in seen or seen.add(u["hex"]))]
    return {
        "owsnb": 1,
        "id": "bench-map",
        "title": f"Benchmark map ({cols * rows} hexes)",
        "ruleset": "skirmish",
        "turns": 50,
        "seed": seed,
        "initiative": "blue",
        "map": {
            "layout": {"orientation": "flat", "size": 10, "unit": "km", "origin": [6.0, 51.9]},
            "cols": cols,
            "rows": rows,
            "terrain": {"default": "clear", "regions": regions},
            "edges": [{"type": "river", "hexes": [label(c, 10 + (c % 2)) for c in range(5, 30)]}],
        },
        "sides": {
            "blue": {"title": "Blue", "color": "#1f5fbf"},
            "red": {"title": "Red", "color": "#c0392b"},
        },
        "catalogs": ["skirmish-units.yaml"],
        "units": units,
    }


def bench_game(cols: int = 50, rows: int = 40) -> Game:
    """The benchmark game, played with the widget tests' skirmish (it has a ``reach`` hook)."""
    from tests.widgets.plus import PLUS

    g = owsnb.load(
        load_scenario(scenario(cols, rows), base=ROOT / "tests/data"), seed=3, save=False
    )
    return Game(PLUS, g.initial, meta=g.meta)


def measure(fn) -> tuple[float, int, int, set]:
    """(seconds, wire bytes, messages, comm ids) of one call."""
    with MessageLog() as log:
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
    return dt, log.nbytes, len(log), log.comm_ids()


def med(rows: list[tuple[float, int, int, set]]) -> tuple[float, float, int]:
    return (
        statistics.median(r[0] for r in rows),
        statistics.median(r[1] for r in rows),
        max(r[1] for r in rows),
    )


def naive_grid(mv: MapView) -> dict:
    """One styled feature per hex: what a straightforward map would send."""
    view = mv.table.view
    rs = mv.table.seat.ruleset
    feats = []
    for h, info in view.map.hexes.items():
        style = {**rs.presentation.terrain_style(info.terrain), "color": "#6b7280", "weight": 0.7}
        feats.append(
            {
                "type": "Feature",
                "properties": {"label": view.map.label(h), "terrain": info.terrain, "style": style},
                "geometry": G.hex_outline(mv.geo, h),
            }
        )
    return {"type": "FeatureCollection", "features": feats}


def run(cols: int, rows: int, repeat: int, whole_app: bool, by_panel: bool = True) -> dict:
    game = bench_game(cols, rows)
    t0 = time.perf_counter()
    with MessageLog() as first:
        table = Table.of(game, "blue")
        widget = App(table, curtain=False) if whole_app else MapView(table)
    build = time.perf_counter() - t0
    mv = widget.map if whole_app else widget
    rng = np.random.default_rng(1)
    view = table.view
    empty = [h for h in view.map.hexes if not any(u.hex == h for u in view.units.values())]

    # redraw the whole grid layer: rebuild its GeoJSON and send it again
    def redraw() -> None:
        mv.grid.data = {}  # force a change
        mv.grid.data = mv._grid_data()

    redraws = [measure(redraw) for _ in range(3)]
    naive = StaticGeoJSON(data={})
    naive_rows = []
    for _ in range(3):
        naive.data = {}
        naive_rows.append(measure(lambda: setattr(naive, "data", naive_grid(mv))))

    clicks = []
    for _ in range(repeat):
        table.clear()
        h = empty[int(rng.integers(len(empty)))]
        clicks.append(measure(lambda h=h: table.pick(hex=view.map.label(h))))
    unit_clicks = []
    moves = []
    for u in [u for u in view.units.values() if u.side == "blue"][:repeat]:
        table.clear()
        unit_clicks.append(measure(lambda u=u: table.pick(unit=u.id)))
        reach = game.ruleset.presentation.reach(game.view("blue"), u.id) or {}
        dest = [
            h
            for h in reach
            if h != u.hex and not any(v.hex == h for v in game.state.units.values())
        ]
        if not dest:
            continue
        to = game.map.label(dest[int(rng.integers(len(dest)))])
        if whole_app and by_panel:  # the player's way: click the destination, then Submit
            table.pick(hex=to)
            moves.append(measure(widget.orders.submit))
        else:
            moves.append(measure(lambda u=u, to=to: game.submit(f"blue: move {u.id} {to}")))
    assert all(mv.grid.model_id not in r[3] for r in clicks + unit_clicks + moves), (
        "the grid was re-sent"
    )
    return {
        "game": game,
        "hexes": len(game.map),
        "units": len(game.state.units),
        "build": build,
        "first_bytes": first.nbytes,
        "first_messages": len(first),
        "grid_bytes": len(json.dumps(mv.grid.data)),
        "redraw": med(redraws),
        "naive": med(naive_rows),
        "click": med(clicks),
        "unit": med(unit_clicks),
        "move": med(moves),
        "n": (len(clicks), len(unit_clicks), len(moves)),
    }


def report(title: str, r: dict) -> bool:
    red_t, red_b, _ = r["redraw"]
    nai_t, nai_b, _ = r["naive"]
    print(f"\n== {title}: {r['hexes']} hexes, {r['units']} units ==")
    print(
        f"first build {r['build'] * 1000:.0f} ms, {r['first_messages']} messages, "
        f"{r['first_bytes'] / 1024:.0f} KB "
        f"(grid GeoJSON {r['grid_bytes'] / 1024:.0f} KB)"
    )
    print(
        f"{'':22}{'time ms':>9}{'bytes':>9}{'max B':>8}"
        f"{'x fewer B than redraw':>23}{'x faster':>10}"
        f"{'x fewer B than naive':>22}"
    )
    print(f"{'redraw grid layer':22}{red_t * 1000:9.1f}{red_b:9.0f}")
    print(f"{'naive per-hex layer':22}{nai_t * 1000:9.1f}{nai_b:9.0f}")
    ok = True
    for key, name in (
        ("click", "click-to-highlight"),
        ("unit", "click on a counter"),
        ("move", "unit move"),
    ):
        t, b, worst = r[key]
        print(
            f"{name:22}{t * 1000:9.1f}{b:9.0f}{worst:8d}"
            f"{red_b / b:23.0f}{red_t / t:10.0f}{nai_b / b:22.0f}"
        )
        if key in ("click", "move"):
            ok &= t <= 0.100 and worst <= 5 * 1024 and red_b / b >= 20
    print(
        "targets (<= 100 ms, <= 5 KB, >= 20x fewer bytes) for click and move: "
        f"{'met' if ok else 'NOT met'}"
    )
    print(
        f"(a message costs ~600 B of envelope: header, parent header, signature; "
        f"{r['n'][2]} moves, {r['n'][0]} clicks measured)"
    )
    return ok


def run_ows(seed: int = 7) -> list[tuple[str, int, int]]:
    """The whole App on the OWS tutorial (a real rule set: big counters, stacks, a verb list that
    changes): Red's Submit of each ship move of the first naval movement step (3.A.1), after
    clicking the ship and a hex two away. Returns (order, bytes, messages) per move."""
    game = owsnb.load("tutorial", seed=seed, save=False)
    for _ in range(60):  # to the first step where Red may move a ship
        if "red" in game.clock.acting and any(
            s.verb == "move" and s.candidates.get("unit") for s in game.legal_orders("red")
        ):
            break
        game.submit(f"{next(s for s in game.clock.acting if s not in game.clock.done)}: done")
    app = App(game, seat="red", curtain=False)
    t = app.table
    out = []
    for uid in next(s for s in game.legal_orders("red") if s.verb == "move").candidates["unit"]:
        t.pick(unit=uid)
        here = game.state.units[uid].hex
        reach = game.ruleset.presentation.reach(t.view, uid) or {}
        dest = next(
            (
                h
                for h in sorted(reach, key=lambda h: (h.distance(here) != 2, h))
                if h != here and not t.view.units_at(h)
            ),
            None,
        )
        if dest is None:
            continue
        t.pick(hex=game.map.label(dest))
        with MessageLog() as log:
            sub = app.orders.submit()
        out.append((str(sub.order) if sub else "refused", log.nbytes, len(log)))
    return out


NOTEBOOK_CELL = """import runpy, time
t0 = time.perf_counter()
bench = runpy.run_path({path!r})
from owsnb.widgets import App
game = bench["bench_game"]({cols}, {rows})
app = App(game, seat="blue", curtain=False)
app"""


def browser_first_paint(cols: int, rows: int) -> float:
    import nbformat

    from tests.widgets.lab import chromium, jupyter_lab

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        nb = nbformat.v4.new_notebook()
        nb.cells = [
            nbformat.v4.new_code_cell(
                NOTEBOOK_CELL.format(path=str(Path(__file__).resolve()), cols=cols, rows=rows)
            )
        ]
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        nbformat.write(nb, root / "bench.ipynb")
        with jupyter_lab(root) as lab, chromium() as page:
            page.goto(lab.notebook_url("bench.ipynb"))
            page.wait_for_function(
                """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                const s = w && w.sessionContext && w.sessionContext.session;
                const k = s && s.kernel;
                return !!k && k.status === 'idle'; }""",
                timeout=180_000,
            )
            # warm the kernel's imports first: the figure is the table's paint, not start-up
            page.evaluate(
                "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                ".requestExecute({code: 'import owsnb.widgets, ipyleaflet, bqplot'}).done"
            )
            t0 = time.monotonic()
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_selector("path.owsnb-grid", timeout=180_000)
            page.wait_for_selector(".leaflet-marker-icon .owsnb-stack", timeout=180_000)
            return time.monotonic() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cols", type=int, default=50)
    ap.add_argument("--rows", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument(
        "--browser", action="store_true", help="also time the first paint in JupyterLab + Chromium"
    )
    args = ap.parse_args()
    ok = report("MapView alone", run(args.cols, args.rows, args.repeat, whole_app=False))
    report(
        "whole App, orders tab in sight, moves by its Submit "
        "(one message per widget in sight that changes)",
        run(args.cols, args.rows, args.repeat, whole_app=True),
    )
    report(
        "whole App, moves made elsewhere (another seat's orders, as in a seminar)",
        run(args.cols, args.rows, args.repeat, whole_app=True, by_panel=False),
    )
    print("\n== whole App on the OWS tutorial: Red's Submit of each ship move (3.A.1) ==")
    for order, nbytes, n in run_ows():
        print(f"{order:32}{nbytes:9d} B in {n} messages")
    if args.browser:
        fp = browser_first_paint(args.cols, args.rows)
        print(
            "\nfirst paint in JupyterLab + headless Chromium "
            f"(run all -> grid and counters drawn): {fp:.2f} s"
        )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
