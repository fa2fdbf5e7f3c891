"""Benchmark: per-engagement cost of OWS previews and resolutions (prints figures; no assertions).

Run: ``python bench/adjudication.py``. Uses the rule set's strait example (notional counters).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from owsnb.rules import ows
from owsnb.rules.ows import air, isr, sof, strike, torpedo


def timeit(fn: Callable[[], object], n: int) -> tuple[float, float]:
    """Median and best time of *fn* in milliseconds over *n* runs."""
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts), min(ts)


def game_at(step: str, seed: int = 7, **units: dict) -> object:
    g = ows.example(seed=seed)
    if units:
        from owsnb.kernel.events import unit_set
        from owsnb.kernel.game import Game
        from owsnb.kernel.reduce import apply_all

        g = Game(g.ruleset, apply_all(g.state, [unit_set(k, **v) for k, v in units.items()]))
    g.submit(f"umpire: advance {step}")
    return g


def main() -> None:
    rows: list[tuple[str, float, float]] = []
    seen = {"Type055-1": {"seen_by": {"blue"}}, "Type054-1": {"seen_by": {"blue"}}}
    g = game_at("6.B.2", **seen)
    rows.append(
        (
            "strike preview, 3 what-if d10 vs 5 grey",
            *timeit(
                lambda: strike.preview(g, target="Type055-1", salvos=["d10"] * 3, grey_shields=5),
                200,
            ),
        )
    )
    rows.append(
        (
            "strike preview, 2 real salvos (sources, modifiers)",
            *timeit(lambda: strike.preview(g, target="Type055-1", salvos=["DDG-1:tlam"] * 2), 200),
        )
    )
    big = strike.allocate(["d12"] * 12, [6] * 16, red=5)
    rows.append(
        (
            "strike exact distribution, 12 salvos vs 16 shields",
            *timeit(lambda: strike._sum(p.distribution() for p in big), 50),
        )
    )

    def resolve_and_undo() -> None:
        strike.resolve(g, target="Type055-1", salvos=["DDG-1:tlam"] * 2, grey_shields=2)
        g.undo()
        g.undo()

    rows.append(
        ("strike resolve (declare + shields, roll, commit) + 2 undo", *timeit(resolve_and_undo, 50))
    )
    t = game_at("6.B.2", **seen, **{"SSN-1": {"hex": g.hex("0504")}})
    rows.append(
        (
            "torpedo exact preview with re-attack",
            *timeit(lambda: torpedo.torpedo_preview(t, "SSN-1", "Type055-1", ["Type054-1"]), 50),
        )
    )
    a = ows.example(seed=7)
    from owsnb.kernel.events import unit_set
    from owsnb.kernel.game import Game
    from owsnb.kernel.reduce import apply_all

    h = a.hex("0504")
    a = Game(
        a.ruleset,
        apply_all(
            a.state,
            [
                unit_set("F35-CAP", hex=h, box=None),
                unit_set("J20-CAP", hex=h, box=None, seen_by={"blue"}),
                unit_set("H6-1", hex=h, box=None, seen_by={"blue"}),
                unit_set("F35-STRIKE", hex=h, box=None),
            ],
        ),
    )
    a.submit("umpire: advance 6.A.4")
    rows.append(
        (
            "air-combat preview of a hex (9.7.1 pairing, exact)",
            *timeit(lambda: air.preview(a, "0504"), 100),
        )
    )

    def air_resolve() -> None:
        air.resolve(a, "0504")
        a.undo()

    rows.append(("air-combat resolve of a hex + undo", *timeit(air_resolve, 50)))
    d = game_at("5.2")
    rows.append(
        (
            "local detection die (cooperative, modifiers)",
            *timeit(
                lambda: isr.local_die(d.state, "blue", [d.unit("DDG-1")], d.unit("Type055-1")), 500
            ),
        )
    )

    def detect() -> None:
        isr.resolve_local(d, "blue", "0504", ["DDG-1"])
        d.undo()

    rows.append(("local detection resolve + undo", *timeit(detect, 50)))
    rows.append(
        (
            "SOF direct-action exact preview",
            *timeit(lambda: sof.direct_action_preview("d10", 4, 8), 500),
        )
    )
    w = max(len(r[0]) for r in rows)
    print(f"{'engagement'.ljust(w)}  median ms   best ms")
    for name, med, best in rows:
        print(f"{name.ljust(w)}  {med:9.3f}  {best:8.3f}")


if __name__ == "__main__":
    main()
