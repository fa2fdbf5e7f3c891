"""Benchmark: OWS ground movement and a full Ground phase (prints figures; no assertions).

Run: ``python bench/movement.py``. Builds a notional 50 x 40 tactical map (2,000 hexes of 20 km, with
forest, hills, marsh, a road grid, rivers and a major river) and

* times :func:`owsnb.rules.ows.timedistance.reach` for a wheeled and a tracked unit (target: well
  under 50 ms), cold (first call, building the cost model) and warm;
* plays a full Ground phase (step 6.C.3) of a 200-unit scenario (plus two units in the open): each side moves every
unit that can
  move, then attacks every adjacent detected enemy hex it can, the defender answering each attack;
* times every path search of the kernel and the rule sets (issue 17: they all run on
  :func:`owsnb.kernel.hexgrid.search`): the kernel's ``reachable`` and ``find_path`` on the 2,000-hex
  board, and each rule set's reach, supply and route searches for every unit of its bundled
  scenario as loaded (``--searches`` runs only this part).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import owsnb
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.offset import OffsetSystem
from owsnb.rules.ows import timedistance as td

CATALOG = Path(__file__).parents[1] / "tests" / "data" / "ows-ground" / "ows-ground-units.yaml"


def timeit(fn: Callable[[], object], n: int) -> tuple[float, float]:
    """Median and best time of *fn* in milliseconds over *n* runs."""
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts), min(ts)


def big_scenario(cols: int = 50, rows: int = 40, per_side: int = 100, seed: int = 1) -> dict:
    rng = random.Random(seed)
    off = OffsetSystem()
    labels = [off.to_label(h) for h in off.rectangle(cols, rows)]
    terrain = {}
    for lab in labels:
        x = rng.random()
        terrain[lab] = (
            "forest"
            if x < 0.15
            else "hills"
            if x < 0.25
            else "marsh"
            if x < 0.28
            else "urban"
            if x < 0.30
            else "clear"
        )
    edges = []
    for c in range(1, cols + 1, 6):  # north-south roads
        chain = [f"{c:02d}{r:02d}" for r in range(1, rows + 1)]
        edges.append({"type": "road", "hexes": chain})
    for r in range(2, rows + 1, 7):  # east-west roads along a zig-zag of neighbours
        chain, cur = [], off.from_label(f"01{r:02d}")
        for _ in range(cols - 1):
            chain.append(off.to_label(cur))
            nxt = (
                cur.neighbour(0)
                if off.to_label(cur.neighbour(0))[2:] == f"{r:02d}"
                else cur.neighbour(1)
            )
            if int(off.to_label(nxt)[2:]) < 1:
                nxt = cur.neighbour(0)
            cur = nxt
        edges.append(
            {"type": "road", "hexes": [x for x in chain if int(x[2:]) >= 1 and int(x[2:]) <= rows]}
        )
    mid = cols // 2
    for r in range(1, rows + 1):  # a major river between the two halves, bridged where roads cross
        a = off.from_label(f"{mid:02d}{r:02d}")
        for n in a.neighbours():
            lab = off.to_label(n)
            if lab[:2] == f"{mid + 1:02d}" and 1 <= int(lab[2:]) <= rows:
                edges.append({"type": "major-river", "hexes": [f"{mid:02d}{r:02d}", lab]})
    types = [
        "armour-bde",
        "mech-bde",
        "stryker-bde",
        "light-bn",
        "recon-bn",
        "artillery-bn",
        "engineer-bn",
        "mech-bn",
    ]
    units = []
    for side, c0 in (("blue", mid - 4), ("red", mid + 2)):
        for i in range(per_side):
            c = c0 + (i % 3)
            r = 1 + (i // 3) % rows
            t = types[i % len(types)]
            units.append(
                {
                    "id": f"{side[0].upper()}{i:03d}",
                    "type": t,
                    "side": side,
                    "hex": f"{c:02d}{r:02d}",
                    "seen_by": ["red" if side == "blue" else "blue"],
                }
            )
    units.append(
        {"id": "FREE-W", "type": "stryker-bde", "side": "blue", "hex": "0530"}
    )  # far from the enemy
    units.append({"id": "FREE-T", "type": "armour-bde", "side": "blue", "hex": "1210"})
    return {
        "owsnb": 1,
        "id": "bench-ground",
        "title": "bench",
        "ruleset": "ows",
        "initiative": "blue",
        "map": {
            "layout": {"orientation": "flat", "size": 20, "unit": "km"},
            "cols": cols,
            "rows": rows,
            "terrain": {"default": "clear", "hexes": terrain},
            "edges": edges,
            "meta": {"scale": "tactical", "zone_km": 100},
        },
        "sides": {"blue": {"title": "Blue"}, "red": {"title": "Red"}},
        "catalogs": [str(CATALOG)],
        "units": units,
    }


def ground_phase(g: owsnb.Game) -> dict[str, int]:
    """Play one Ground phase: every unit of the acting side moves to its farthest reachable hex, then
    attacks; the defender answers with no defensive fires."""
    counts = {"moves": 0, "attacks": 0, "refused": 0}
    while g.clock.step == "6.C.3":
        side = g.state.clock.acting[0]
        for u in list(g.state.units_of(side)):
            u = g.state.units[u.id]
            if u.hex is None or not u.alive:
                continue
            r = td.reach(g, u.id)
            far = sorted((h for h in r if h != u.hex), key=lambda h: (-r[h], h))
            if not far:
                continue
            try:
                g.submit(f"{side}: move {u.id} {g.state.map.label(far[len(far) // 2])}")
                counts["moves"] += 1
            except IllegalOrderError:
                counts["refused"] += 1
        for u in list(g.state.units_of(side)):
            u = g.state.units[u.id]
            if u.hex is None or not u.alive:
                continue
            for n in u.hex.neighbours():
                if any(e.side != side and e.alive for e in g.state.units_at(n)):
                    try:
                        g.submit(f"{side}: attack {g.state.map.label(n)} with={u.id}")
                        counts["attacks"] += 1
                        w = g.state.public.get("ground_window")
                        if w:
                            g.submit(f"{w['defender']}: defensive-fire")
                    except IllegalOrderError:
                        counts["refused"] += 1
                    break
        g.submit(f"{side}: done")
    return counts


def _on_map(state: object) -> list:
    return [u for u in state.units.values() if u.hex is not None and u.alive]  # type: ignore[attr-defined]


def searches() -> list[tuple[str, float, float]]:
    """(what, median ms, best ms) of every path search: the kernel's on a 50 x 40 board, each rule
    set's for all units of its bundled scenario as loaded (one row = one pass over them)."""
    from owsnb.kernel.hexgrid import Hex, find_path, reachable

    rows: list[tuple[str, float, float]] = []

    def row(what: str, fn: Callable[[], object], n: int = 10) -> None:
        fn()  # warm caches (terrain indexes, cost models)
        rows.append((what, *timeit(fn, n)))

    board = set(OffsetSystem().rectangle(50, 40))
    rough = {h for h in board if hash(h) % 5 == 0}
    h0, h1 = min(board), max(board)

    def cost(a: Hex, b: Hex) -> float:
        return 2.0 if b in rough else 1.0

    row(
        "kernel reachable, unit steps, 2,000 hexes",
        lambda: reachable(h0, 1000, passable=board.__contains__),
    )
    row(
        "kernel reachable, weighted, 2,000 hexes",
        lambda: reachable(h0, 1000, cost=cost, passable=board.__contains__),
    )
    row(
        "kernel find_path corner to corner, weighted",
        lambda: find_path(h0, h1, cost=cost, passable=board.__contains__, min_cost=1.0),
    )

    from owsnb.rules.opart import movement as opart

    g = owsnb.load("opart-kalinovka", seed=1, save=False)
    us = _on_map(g.state)
    row(f"opart reach, {len(us)} stands", lambda: [opart.reach(g.state, u) for u in us])
    row(f"opart withdrawal, {len(us)} stands", lambda: [opart.withdrawal(g.state, u) for u in us])

    from owsnb.rules.combatops import movement as co
    from owsnb.rules.combatops.supply import Supply

    g = owsnb.load("combatops-blue-attack", seed=1, save=False)
    us = _on_map(g.state)
    row(f"combatops reach, {len(us)} units", lambda: [co.reach(g.state, u) for u in us])
    row(
        "combatops supply, both sides",
        lambda: [Supply(g.state, s).hexes(None) for s in g.state.sides],
    )

    from owsnb.rules.opscale.board import move_reach

    g = owsnb.load("opscale-river-valley", seed=1, save=False)
    us = _on_map(g.state)
    row(f"opscale move_reach, {len(us)} units", lambda: [move_reach(g.state, u) for u in us])

    from owsnb.rules.tocs import present as tocs_present
    from owsnb.rules.tocs import supply as tocs_supply

    g = owsnb.load("tocs-nijmegen", seed=1, save=False)
    us = _on_map(g.state)
    views = {s: g.view(s) for s in g.state.sides}
    row(
        f"tocs reach (hook), {len(us)} units",
        lambda: [tocs_present.reach(views[u.side], u.id) for u in us],
    )
    row(
        f"tocs LOC and LOS, {len(us)} units",
        lambda: [(tocs_supply.in_loc(g.state, u), tocs_supply.in_los(g.state, u)) for u in us],
    )

    from owsnb.rules.ows import strategic
    from owsnb.rules.ows import supply as ows_supply
    from owsnb.rules.ows.movement import ground, naval

    g = owsnb.load("baltic-ground", seed=1, save=False)
    us = _on_map(g.state)
    row(
        f"ows ground_reach, {len(us)} units (baltic-ground)",
        lambda: [ground.ground_reach(g.state, u) for u in us],
    )
    row(f"ows supply trace, {len(us)} units", lambda: [ows_supply.trace(g.state, u) for u in us])
    far = max(g.state.map.hexes)
    row(
        f"ows turns_by_road to {g.state.map.label(far)}, {len(us)} units",
        lambda: [td.turns_by_road(g.state, u, far, max_turns=10) for u in us],
    )
    row(
        f"ows rail and road routes to {g.state.map.label(far)}, {len(us)} units",
        lambda: [
            (
                strategic.rail_route(g.state, u.hex, far, u.side),
                strategic.road_route(g.state, u.hex, far, u.side),
            )
            for u in us
        ],
    )
    g = owsnb.load("western-pacific", seed=1, save=False)
    ships = [u for u in _on_map(g.state) if naval.naval_reach(g.state, u)]
    row(
        f"ows naval_reach, {len(ships)} ships (western-pacific)",
        lambda: [naval.naval_reach(g.state, u) for u in ships],
    )
    a, b = ships[0].hex, ships[-1].hex
    row("ows sea_hexes between two ships", lambda: td.sea_hexes(g.state, a, b))

    from owsnb.authoring.grid_fit import fit_grid
    from owsnb.authoring.tracing import HexCorners, trace_hexsides

    grid = fit_grid((6.0, 51.0, 7.0, 51.6), 5)
    corners = HexCorners(grid)
    line = [[6.05, 51.05], [6.5, 51.3], [6.95, 51.25], [6.4, 51.55]]
    row(
        f"map authoring: a river along hexsides ({len(grid.hexes)} hexes)",
        lambda: trace_hexsides(grid, corners, line),
    )
    return rows


def main() -> None:
    if "--searches" in sys.argv:
        print(f"{'path search':62s} {'median':>8s} {'best':>8s}")
        for name, med, best in searches():
            print(f"{name:62s} {med:8.2f} {best:8.2f}")
        return
    t = time.perf_counter()
    g = owsnb.load(big_scenario(), seed=3, save=False)
    load_ms = (time.perf_counter() - t) * 1000
    print(f"map: {len(g.state.map)} hexes, {len(g.state.units)} units (loaded in {load_ms:.0f} ms)")
    rows = []
    for uid, what in (
        ("FREE-W", "wheeled brigade in the open, 15 MP"),
        ("FREE-T", "tracked brigade in the open, 10 MP"),
        ("B002", "wheeled brigade in contact (ZOC), 15 MP"),
        ("B003", "light infantry, 2 MP"),
    ):
        from owsnb.rules.ows.movement import ground as mv

        mv._COST_CACHE.clear()
        t = time.perf_counter()
        r = td.reach(g, uid)
        cold = (time.perf_counter() - t) * 1000
        med, best = timeit(lambda uid=uid: td.reach(g, uid), 30)
        rows.append((f"reach of a {what}: {len(r)} hexes", cold, med, best))
    v = g.view("blue")
    med, best = timeit(lambda: g.ruleset.presentation.reach(v, "FREE-W"), 30)
    rows.append(("ruleset.reach hook on blue's view (widget path)", float("nan"), med, best))
    med, best = timeit(lambda: td.transit(g, "FREE-W", "4020"), 10)
    rows.append(("transit by every mode to a far hex", float("nan"), med, best))
    print(f"{'what':58s} {'cold ms':>8s} {'median':>8s} {'best':>8s}")
    for name, cold, med, best in rows:
        print(f"{name:58s} {cold:8.1f} {med:8.1f} {best:8.1f}")
    g.submit("umpire: advance 6.C.3")
    t = time.perf_counter()
    counts = ground_phase(g)
    dt = time.perf_counter() - t
    print(
        f"full Ground phase, 200 units: {dt:.2f} s ({counts['moves']} moves, {counts['attacks']} attacks, "
        f"{counts['refused']} refused; {len(g.events)} events in the history)"
    )
    print(f"{'path search':62s} {'median':>8s} {'best':>8s}")
    for name, med, best in searches():
        print(f"{name:62s} {med:8.2f} {best:8.2f}")


if __name__ == "__main__":
    main()
