"""Benchmark: the price of hidden information done right (issue 18).

Since issue 18 a side's orders are checked on its view (``Game.knowledge``) before the truth
checks them, so a submission builds that side's view when it is not cached; and the
non-interference harness (``owsnb.testing.twins``) compares twin games. This measures, per bundled
scenario, over a seeded random course:

* ``submit``: milliseconds per submission (the course replayed into a fresh game, views built as
  the kernel builds them);
* ``view``: milliseconds to build one side's view at the end (what a submission pays at most for
  knowing its side's view);
* ``twins``: seconds for the harness over the same course (pairs and observations compared).

    python bench/hidden.py [--orders 60] [--only tocs-nijmegen]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import owsnb  # noqa: E402
from owsnb.kernel.view import side_view  # noqa: E402
from owsnb.scenario.loader import list_scenarios  # noqa: E402
from owsnb.testing import random_playout  # noqa: E402
from owsnb.testing.twins import noninterference  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--orders", type=int, default=60)
    ap.add_argument("--only", action="append")
    args = ap.parse_args()
    names = args.only or list_scenarios()
    print(
        f"{'scenario':24} {'orders':>6} {'submit ms':>10} {'view ms':>8} {'twins s':>8}  pairs/obs"
    )
    for name in names:
        g = owsnb.load(name, seed=5, save=False)
        course = random_playout(g, max_orders=args.orders, seed=5, check_views=False)
        fresh = owsnb.load(name, seed=5, save=False)
        t = time.perf_counter()
        for o in course.orders:
            fresh.submit(o)
        per_submit = (time.perf_counter() - t) / max(1, len(course.orders)) * 1000
        side = next(iter(g.state.sides))
        t = time.perf_counter()
        for _ in range(5):
            side_view(g.state, side, g.ruleset, g.events)
        per_view = (time.perf_counter() - t) / 5 * 1000
        twin = owsnb.load(name, seed=5, save=False)
        t = time.perf_counter()
        rep = noninterference(twin, orders=args.orders, every=5, follow=2, probes=12, seed=5)
        secs = time.perf_counter() - t
        print(
            f"{name:24} {len(course.orders):6d} {per_submit:10.2f} {per_view:8.2f} {secs:8.1f}"
            f"  {rep.pairs}/{rep.observations}"
        )


if __name__ == "__main__":
    main()
