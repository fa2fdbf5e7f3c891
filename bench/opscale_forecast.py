"""Benchmark: Operational Scale's exact engagement previews (prints figures; no assertions).

Run: ``python bench/opscale_forecast.py`` (``--seeds N``, ``--turns N``). Seeded random-vs-random
games of ``opscale-river-valley`` (random play reads no preview, so every version of the code
sees the same positions); at each decision, every candidate ``engage`` / ``retaliate`` /
``round`` / ``fight`` order the greedy bot would score (:func:`owsnb.bots.candidates.
candidate_orders`) is previewed on the deciding side's view, as ``game.preview`` does for a
player, and timed in CPU seconds (``time.thread_time``: the machine is shared).

Prints per verb: previews made; how many are the joint exact forecast over every round the
preview covers (``fight``: up to 6), how many fell back to fewer rounds, and how many to the
attack-by-attack forecast (an engagement too large for a joint one, ``ForecastTooLarge``); the
median / p95 / max milliseconds and the total seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

VERBS = ("engage", "retaliate", "round", "fight")


def kind(preview: Any) -> str:
    """``"joint"``, ``"fewer"`` (joint, fewer rounds than the preview covers) or ``"pairs"``."""
    if "attack by attack" in (preview.label or ""):
        return "pairs"
    for note in preview.notes:  # fight: "forecast over N rounds (...)"
        if note.startswith("forecast over ") and not preview.label.startswith(
            f"after {note.split()[2]} round"
        ):
            return "fewer"
    return "joint"


def collect(seeds: list[int], turns: int) -> dict[str, list[tuple[float, str]]]:
    """``verb -> [(CPU seconds, kind)]`` over the previews of seeded random games."""
    import owsnb
    from owsnb.bots import play
    from owsnb.bots.candidates import candidate_orders
    from owsnb.bots.random import RandomPolicy
    from owsnb.kernel.errors import OwsnbError
    from owsnb.kernel.registry import get_ruleset

    out: dict[str, list[tuple[float, str]]] = {v: [] for v in VERBS}

    class Probe(RandomPolicy):
        """Plays random orders; first times the previews of the engagement candidates."""

        name = "probe"

        def choose(self, view: Any, legal: Any, rng: Any, budget: Any) -> Any:
            ruleset = get_ruleset(view.ruleset)
            own = np.random.default_rng(len(out["engage"]))  # not the game's generator
            for order in candidate_orders(legal, own, per_spec=48, view=view):
                if order.verb not in VERBS:
                    continue
                t = time.thread_time()
                try:
                    p = ruleset.preview(view, order)
                except OwsnbError:
                    continue
                dt = time.thread_time() - t
                out[order.verb].append((dt, kind(p)))
            return super().choose(view, legal, rng, budget)

    for seed in seeds:
        game = owsnb.load("opscale-river-valley", seed=seed, save=False)
        sides = list(game.state.sides)
        play(game, {s: Probe() for s in sides}, turns=turns, seed=seed, budget=None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--turns", type=int, default=2)
    a = ap.parse_args()
    t0 = time.perf_counter()
    res = collect(list(range(a.seeds)), a.turns)
    print(f"\n## opscale engagement previews: {a.seeds} seeded random games, {a.turns} turn(s)")
    print(
        f"{'verb':10} {'n':>5} {'joint':>6} {'fewer':>6} {'pairs':>6} {'p50 ms':>8} "
        f"{'p95 ms':>8} {'max ms':>8} {'total s':>8}"
    )
    for verb, rows in [*res.items(), ("all", [r for v in res.values() for r in v])]:
        if not rows:
            print(f"{verb:10} {0:>5}")
            continue
        ts = np.array([r[0] for r in rows]) * 1000
        n = {k: sum(r[1] == k for r in rows) for k in ("joint", "fewer", "pairs")}
        print(
            f"{verb:10} {len(rows):>5} {n['joint']:>6} {n['fewer']:>6} {n['pairs']:>6} "
            f"{np.percentile(ts, 50):>8.1f} {np.percentile(ts, 95):>8.1f} {ts.max():>8.1f} "
            f"{ts.sum() / 1000:>8.2f}"
        )
    print(f"(wall {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
