"""Benchmark: vectorised OWS engagements vs the per-event Python path, and sweep scaling over
local worker processes (prints figures side by side; no assertions).

Run: ``python bench/sweep.py`` (``--quick`` for small sizes, ``--dask`` to add a local Dask
cluster to the scaling table). Uses the rule set's strait example (notional counters).

Targets from issue 8: the vectorised salvo-vs-shields strike >= 50x the per-event path and
>= 10^6 engagements per second.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np


def best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best wall time of *fn* in seconds over *repeat* runs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def strait_at(step: str, seed: int = 7) -> Any:
    """The strait example with the Red ships detected by Blue, at *step*."""
    from owsnb.kernel.events import unit_set
    from owsnb.kernel.game import Game
    from owsnb.kernel.reduce import apply_all
    from owsnb.rules import ows

    g = ows.example(seed=seed)
    seen = [unit_set(u, seen_by=frozenset({"blue"})) for u in ("Type055-1", "Type054-1")]
    g = Game(g.ruleset, apply_all(g.state, seen))
    g.submit(f"umpire: advance {step}")
    return g


def reseeded(g: Any, seed: int) -> Any:
    """A copy of game *g* now, with its own dice (a what-if branch that rolls differently)."""
    from owsnb.kernel.dice import rng_state_for_seed
    from owsnb.kernel.game import Game

    return Game(g.ruleset, replace(g.state, rng=rng_state_for_seed(seed)))


def engagements(quick: bool) -> list[tuple[str, str, float, str]]:
    """Rows (engagement, path, engagements per second, note): a salvo-vs-shields strike, a local
    detection and (when the rule set has it) a GCAT read, each per event and vectorised."""
    from owsnb.kernel.dice import Dice
    from owsnb.kernel.orders import Order
    from owsnb.rules.ows import isr, strike
    from owsnb.rules.ows import montecarlo as mc
    from owsnb.rules.ows.common import Roller

    rows: list[tuple[str, str, float, str]] = []
    g = strait_at("6.B.2")
    tokens, target, grey = ["DDG-1:tlam", "DDG-1:tlam"], "Type055-1", 3
    e = mc.strike_engagement(g, target, tokens, grey_shields=grey)
    what = f"strike {'+'.join(tokens)} -> {target}, {grey} grey shields: " + ", ".join(
        f"{p.die} vs {'/'.join(map(str, p.layers)) or '-'} then red {p.red}" for p in e.plans
    )
    print(what)

    n_full = 100 if quick else 400
    t = time.perf_counter()
    for i in range(n_full):
        strike.resolve(reseeded(g, i), target, tokens, grey_shields=grey)
    rows.append(
        (
            "strike",
            "per event: strike.resolve (strike + shields orders, events, commit)",
            n_full / (time.perf_counter() - t),
            f"n={n_full}",
        )
    )

    n_roll = 5_000 if quick else 50_000
    roller = Roller(Dice.from_seed(1))
    plans = e.plans

    def per_roll() -> None:
        for _ in range(n_roll):
            sum(strike._roll_salvo(roller, p, None, "salvo") for p in plans)
            roller.rolls.clear()
            roller.dice.events.clear()

    rows.append(
        (
            "strike",
            "per event: strike._roll_salvo through a seeded kernel Dice",
            n_roll / best_of(per_roll, 1),
            f"n={n_roll}",
        )
    )
    n_vec = 200_000 if quick else 2_000_000
    rows.append(
        (
            "strike",
            "vectorised: StrikeEngagement.sample (numpy)",
            n_vec / best_of(lambda: e.sample(n_vec, 1)),
            f"n={n_vec}",
        )
    )
    from owsnb.analysis import engagement_sweep

    rows.append(
        (
            "strike",
            "vectorised: engagement_sweep (sample + counts + exact -> Dataset)",
            n_vec / best_of(lambda: engagement_sweep(e, n=n_vec, seed=1, progress=False), 2),
            f"n={n_vec}",
        )
    )

    # detection: local cooperative detection of the two Red ships (8.5, 8.5.3)
    d = strait_at("5.2")
    d = reseeded(d, 0)
    from owsnb.kernel.events import unit_set
    from owsnb.kernel.game import Game
    from owsnb.kernel.reduce import apply_all

    d = Game(
        d.ruleset,
        apply_all(
            d.state,
            [
                unit_set("E2D-1", hex=d.hex("0404"), box=None),
                unit_set("Type055-1", seen_by=frozenset()),
                unit_set("Type054-1", seen_by=frozenset()),
            ],
        ),
    )
    de = mc.detection_engagement(d, "blue", "0504", ["DDG-1", "E2D-1"])
    o = Order.parse("blue: detect 0504 sensors=DDG-1,E2D-1")
    args = d.ruleset.check(d.state, o)
    n_det = 2_000 if quick else 10_000
    t = time.perf_counter()
    for i in range(n_det):
        isr.Detect().adjudicate(d.state, o, args, Dice.from_seed(i))
    rows.append(
        (
            "detection",
            "per event: Detect.adjudicate, 2 targets (8.5.3)",
            n_det / (time.perf_counter() - t),
            f"n={n_det}",
        )
    )
    rows.append(
        (
            "detection",
            "vectorised: DetectionEngagement.sample, 2 targets",
            n_vec / best_of(lambda: de.sample(n_vec, 2)),
            f"n={n_vec}",
        )
    )
    # ground combat: one GCAT read (10.15.9), when the rule set has the ground module
    try:
        from owsnb.rules.ows import ground
    except ImportError:
        return rows
    gg = Game(
        g.ruleset,
        apply_all(
            strait_at("1.1").state,
            [
                unit_set("BDE-R", hex=g.hex("0205"), seen_by=frozenset({"blue"})),
                unit_set("BDE-B", seen_by=frozenset({"red"})),
            ],
        ),
    )
    gg.submit("umpire: advance 6.C.3")
    ge = mc.gcat_engagement(gg, "0205", ["BDE-B"])
    n_g = 100 if quick else 400
    t = time.perf_counter()
    for i in range(n_g):
        ground.resolve(reseeded(gg, i), "0205", ["BDE-B"])
    rows.append(
        (
            "gcat",
            "per event: ground.resolve (attack + defensive-fire, GCAT)",
            n_g / (time.perf_counter() - t),
            f"n={n_g}",
        )
    )
    rows.append(
        (
            "gcat",
            "vectorised: GcatEngagement.sample",
            n_vec / best_of(lambda: ge.sample(n_vec, 3)),
            f"n={n_vec}",
        )
    )
    return rows


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallel_ceiling(workers: int, n: int = 4_000_000) -> float:
    """Speed-up of a pure-Python CPU burn on *workers* processes over serial: the most any sweep can
    gain on this machine right now (other processes share the cores)."""
    from concurrent.futures import ProcessPoolExecutor

    t = time.perf_counter()
    for _ in range(2 * workers):
        _burn(n)
    serial = time.perf_counter() - t
    with ProcessPoolExecutor(workers) as ex:
        list(ex.map(_burn, [1] * workers))
        t = time.perf_counter()
        list(ex.map(_burn, [n] * (2 * workers)))
        par = time.perf_counter() - t
    return serial / par


def scaling(quick: bool, use_dask: bool) -> list[tuple[str, int, float, float]]:
    """Rows (backend, workers, seconds, games per second) for one sweep of the strait."""
    from owsnb.analysis import sweep
    from owsnb.rules.ows.examples import STRAIT

    games = 8 if quick else 48
    kw: dict[str, Any] = dict(seeds=range(games), plans=["random"], progress=False)
    rows = []
    cores = os.cpu_count() or 1
    if cores > 1:  # the first local sweep of a session starts the forkserver (imports owsnb once)
        t = time.perf_counter()
        sweep(STRAIT, seeds=range(cores), plans=["pass"], turns=1, progress=False, workers=cores)
        print(
            f"first local sweep of the session (forkserver start + {cores} pass games): "
            f"{time.perf_counter() - t:.2f} s"
        )
    for w in sorted({1, *range(2, cores + 1)}):
        t = time.perf_counter()
        sweep(STRAIT, workers=w, **kw)
        dt = time.perf_counter() - t
        rows.append(("local processes" if w > 1 else "in process", w, dt, games / dt))
    if use_dask:
        from dask.distributed import Client, LocalCluster

        with (
            LocalCluster(n_workers=cores, threads_per_worker=1, dashboard_address=None) as cl,
            Client(cl) as c,
        ):
            c.run(lambda: __import__("owsnb.rules.ows"))  # warm the workers' imports
            t = time.perf_counter()
            sweep(STRAIT, client=c, **kw)
            dt = time.perf_counter() - t
        rows.append(("dask LocalCluster", cores, dt, games / dt))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--dask", action="store_true", help="also time a local Dask cluster")
    ap.add_argument("--skip-scaling", action="store_true")
    a = ap.parse_args()
    np.seterr(all="ignore")
    print(f"owsnb sweep benchmark ({os.cpu_count()} cores)\n")
    rows = engagements(a.quick)
    w = max(len(r[1]) for r in rows)
    print(
        f"{'path':<{w}}  {'engagements/s':>14}  {'x full path':>11}  {'x fastest per-event':>19}  note"
    )
    for kind in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == kind]
        full = mine[0][2]
        fastest = max(r[2] for r in mine if r[1].startswith("per event"))
        print(f"-- {kind}")
        for _, name, rate, note in mine:
            print(
                f"{name:<{w}}  {rate:>14,.0f}  {rate / full:>11,.0f}  {rate / fastest:>19,.1f}  {note}"
            )
    strike = [r for r in rows if r[0] == "strike"]
    vec = strike[2][2]
    per_event = max(r[2] for r in strike if r[1].startswith("per event"))
    print(
        f"\nstrike target: >= 50x per-event and >= 1e6 engagements/s -> vectorised {vec:,.0f}/s, "
        f"{vec / strike[0][2]:,.0f}x strike.resolve, {vec / per_event:,.0f}x the fastest per-event path: "
        f"{'met' if vec >= 1e6 and vec / per_event >= 50 else 'NOT met'}"
    )
    if a.skip_scaling:
        return
    cores = os.cpu_count() or 1
    print(
        f"\nmachine check: a pure-Python CPU burn on {cores} processes runs {parallel_ceiling(cores):.2f}x "
        "faster than serial (the ceiling for any sweep now; other processes share the cores)"
    )
    print("sweep scaling: the strait, random plans, whole games")
    srows = scaling(a.quick, a.dask)
    t1 = srows[0][2]
    print(f"{'backend':<18} {'workers':>7} {'seconds':>8} {'games/s':>8} {'speed-up':>8}")
    for name, wk, dt, gps in srows:
        print(f"{name:<18} {wk:>7} {dt:>8.2f} {gps:>8.2f} {t1 / dt:>8.2f}")


if __name__ == "__main__":
    main()
