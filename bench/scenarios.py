"""Benchmark: the bundled OWS scenarios — hex counts, orders of battle, load time and one random
turn (prints a table; no assertions).

Run: ``python bench/scenarios.py [--repeat 5]``. Load = ``owsnb.load(name, save=False)`` (read the
YAML, validate, build the initial state), median of the repeats after a first warm-up load. A turn =
random legal orders (seeded) until the clock reaches turn 2, without the view scan of the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import yaml

import owsnb
from owsnb.scenario import find_scenario, load_scenario
from owsnb.testing import random_playout

BUNDLED = ("tutorial", "western-pacific", "baltic-ground", "sandbox")
SEA = ("deep-sea", "littoral")


def load_times(name: str, repeat: int) -> list[float]:
    owsnb.load(name, save=False)  # warm-up: imports, table files
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        owsnb.load(name, save=False)
        out.append(time.perf_counter() - t)
    return out


def one_turn(name: str, seed: int = 11) -> tuple[int, float]:
    path = find_scenario(name)
    spec = {**yaml.safe_load(path.read_text(encoding="utf-8")), "turns": 1}
    game = owsnb.load(load_scenario(spec, base=path.parent), seed=seed, save=False)
    t = time.perf_counter()
    report = random_playout(game, max_orders=5000, seed=seed, check_views=False)
    return len(report.orders), time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(
        "| scenario | hexes | land / littoral / deep sea | units (blue / red) | load (median) "
        "| one random turn |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name in BUNDLED:
        game = owsnb.load(name, save=False)
        s = game.state
        terr = Counter(i.terrain for i in s.map.hexes.values())
        land = sum(n for t, n in terr.items() if t not in SEA)
        sides = Counter(u.side for u in s.units.values())
        lt = statistics.median(load_times(name, args.repeat))
        turn = "(no units)"
        if s.units:
            n, secs = one_turn(name)
            turn = f"{n} orders, {secs:.1f} s"
        print(
            f"| `{name}` | {len(s.map.hexes)} | {land} / {terr['littoral']} / {terr['deep-sea']} | "
            f"{len(s.units)} ({sides['blue']} / {sides['red']}) | {lt:.2f} s | {turn} |"
        )


if __name__ == "__main__":
    main()
