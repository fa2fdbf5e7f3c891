"""Benchmark: jumping through a 10,000-event history.

Compares ``Game.step_to(n)`` (nearest snapshot + at most 255 events) with replaying the history
from the initial state, side by side in one run, and prints the ratio.
Target (issue 2): step_to any event <= 100 ms and >= 10x faster than replay from the start.

    python bench/kernel.py [--events 10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import owsnb  # noqa: E402
from owsnb.kernel.registry import register_ruleset  # noqa: E402

register_ruleset("skirmish", "tests.rulesets.skirmish:RULESET")


def build(n_events: int, seed: int = 1) -> owsnb.Game:
    import yaml

    data = yaml.safe_load((ROOT / "tests/data/skirmish.yaml").read_text())
    data["turns"] = 100_000
    from owsnb.scenario import load_scenario

    game = owsnb.load(load_scenario(data, base=ROOT / "tests/data"), seed=seed, save=False)
    rng = np.random.default_rng(seed)
    while game.seq < n_events:
        side = game.clock.acting[0]
        order = game.legal_orders(side).sample(rng) if rng.random() < 0.8 else None
        game.submit(order or f"{side}: done")
    return game


def timed(fn, repeat: int = 5) -> float:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    game = build(args.events)
    print(
        f"built a {game.seq}-event game in {time.perf_counter() - t0:.1f} s "
        f"({game.state_id} submissions, turn {game.clock.turn})"
    )
    n = game.seq
    targets = {
        "near the end": n - 7,
        "middle": n // 2 + 13,
        "random": int(np.random.default_rng(0).integers(1, n)),
    }
    print(f"{'target':14s} {'replay from start':>18s} {'step_to':>10s} {'ratio':>8s}")
    worst = 0.0
    for name, k in targets.items():
        replay = timed(lambda k=k: game.state_at_replay(k), repeat=3)
        step = timed(lambda k=k: game.step_to(k))
        game.step_to(n)
        assert game.state_at(k) == game.state_at_replay(k)
        worst = max(worst, step)
        print(f"{name:14s} {replay * 1000:15.1f} ms {step * 1000:7.2f} ms {replay / step:7.0f}x")
    everywhere = max(
        timed(lambda k=k: game.step_to(k), repeat=1) for k in range(1, n, max(1, n // 200))
    )
    game.step_to(n)
    print(f"worst step_to over 200 points: {everywhere * 1000:.2f} ms (target <= 100 ms)")


if __name__ == "__main__":
    main()
