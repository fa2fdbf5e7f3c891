"""Benchmark: the bots of issue 22 on every bundled scenario (prints tables; no assertions).

Run: ``python bench/bots.py`` (``--quick`` for a smoke run; ``--help`` for sizes). Seeded: the
same seeds give the same games (up to the search bot's wall-clock budget: it thinks for a time,
not a number of iterations, so a loaded machine makes it weaker).

**How games are judged.** Bundled scenarios run for many turns; each game stops at a turn limit
(``--turns``, default 2) and is judged by the rule set's *victory standing* at the cutoff — its
``evaluation.standing(truth, side)``: victory points or the scenario's objectives (OWS: cities)
plus material, computed on the truth. Scenarios are asymmetric, so bots are compared in
**duplicate matches**: for each seed, A plays side X against B, then B plays X against A (same
scenario, same dice seed); A wins the match when X's standing is higher with A on X than with B
on X (a tie counts half). "A as X" and "A as Y" give the share of single games in which A's side
stood ahead of the other at the cutoff. Each rate comes with its matches won-tied-lost and a
95% Wilson interval: with n matches a rate is known to about +-1/sqrt(n) (n = 20: 60% reads
as 39-78%), so telling 60% from 50% takes on the order of a hundred matches. "gain" is the
mean of the matches' standing differences (X with A minus X with B: what A's play is worth in
the scenario's points) and its 95% half-width — more telling than the rate where most matches
tie (the bots played alike) or where one bot's choice changes the dice every later roll sees
(after the first different order, a duplicate match is two games on other luck). Runs over disjoint
seeds (``--seed-start``, e.g. one per core) pool: ``--report a.json b.json`` merges the matches
of one pairing on one scenario into one row (the JSON keeps every match: seed, standing
difference, decision times).

Tables:

1. greedy vs random and search vs greedy per scenario: match win rate of the first bot, its
   share of games ahead on each side, mean standing lead (first bot's side), and both bots'
   decision time per order (p50 / p95), and (search bots) "A≠B": the share of A's decisions
   that differ from the order greedy would have given in its place (a tie in greedy's scores
   is no difference) — where it is small, the two bots play alike and the match is luck;
2. search's strength as its budget grows (match win rate against greedy per budget);
   ``--search-bot paired`` measures the paired-rounds search (``owsnb/bots/paired.py``) in
   tables 1 and 2 instead of the ISMCTS ``search``;
3. raw speed search needs on a determinised state: worlds built, forks (fresh in-memory games
   over a world), previews and submits per second.

Decision times are the deciding thread's **CPU** seconds (``time.thread_time``), p50 / p95 per
order, and the search's budget is CPU time too (``--clock cpu``, the default): this machine is
shared (2 cores, several engineers' jobs), where wall-clock times measure the neighbours' load.
Greedy scores every candidate here (its own 0.2 s wall budget is off), so its time is its work.

Targets (issue 22): greedy beats random in >= 80% of games on every bundled scenario; search at
1 s per order beats greedy in >= 60%; greedy decides in <= 0.2 s p95 per order. A scenario
without units (the sandbox: a map to build on) has no game to win and is reported as such.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SCENARIOS = [
    ("ows", "tutorial"),
    ("ows", "baltic-ground"),
    ("ows", "western-pacific"),
    ("ows", "sandbox"),
    ("opart", "opart-kalinovka"),
    ("combatops", "combatops-blue-attack"),
    ("combatops", "combatops-red-attack"),
    ("tocs", "tocs-nijmegen"),
    ("opscale", "opscale-river-valley"),
]


def play_game(scenario: str, seed: int, bots: dict[str, Any], turns: int) -> dict[str, Any]:
    """One game: *bots* (side -> spec) to the turn limit; standings and decision times."""
    import owsnb
    from owsnb.bots import play
    from owsnb.bots.evaluate import evaluation_for

    game = owsnb.load(scenario, seed=seed, save=False)
    t0 = time.perf_counter()
    report = play(game, bots, turns=turns, seed=seed, budget=None)
    ev = evaluation_for(game.ruleset)
    return {
        "standing": {s: float(ev.standing(game.state, s)) for s in game.state.sides},
        "times": {s: list(b.cpu_times) for s, b in report.bots.items()},
        "wall": {s: list(b.times) for s, b in report.bots.items()},
        "late": {s: b.timeouts for s, b in report.bots.items()},
        "refused": {s: len(b.refusals) for s, b in report.bots.items()},
        "stats": {s: dict(b.policy.stats) for s, b in report.bots.items()},
        "turn": game.clock.turn,
        "seconds": time.perf_counter() - t0,
    }


def match(
    scenario: str,
    a: Any,
    b: Any,
    seeds: list[int],
    turns: int,
    progress: Any = None,
) -> dict[str, Any]:
    """Duplicate matches of bot *a* against bot *b* on *scenario* (see the module docstring);
    ``progress(row)`` is called with the row so far after each match (a long run's JSON then
    keeps what it played if it is stopped)."""
    import owsnb

    first = owsnb.load(scenario, seed=0, save=False)
    sides = list(first.state.sides)[:2]
    x, y = sides
    if not first.state.units:  # the sandbox: a map and no order of battle — nothing to win
        return {"scenario": scenario, "sides": sides, "matches": 0, "empty": True}
    played = []
    for seed in seeds:
        g1 = play_game(scenario, seed, {x: a, y: b}, turns)  # a plays x
        g2 = play_game(scenario, seed, {x: b, y: a}, turns)  # a plays y
        d = g1["standing"][x] - g2["standing"][x]
        played.append(
            {
                "seed": seed,
                "diff": d,  # X's standing with A on X minus with B on X
                "ahead": [
                    g1["standing"][x] > g1["standing"][y],
                    g2["standing"][y] > g2["standing"][x],
                ],
                "lead": [
                    g1["standing"][x] - g1["standing"][y],
                    g2["standing"][y] - g2["standing"][x],
                ],
                "a": g1["times"][x] + g2["times"][y],
                "b": g1["times"][y] + g2["times"][x],
                "a_wall": g1["wall"][x] + g2["wall"][y],
                "b_wall": g1["wall"][y] + g2["wall"][x],
                "late": sum(g1["late"].values()) + sum(g2["late"].values()),
                "refused": sum(g1["refused"].values()) + sum(g2["refused"].values()),
                "a_stats": [g1["stats"][x], g2["stats"][y]],  # e.g. search's iterations
            }
        )
        if progress is not None:
            progress(summarise(scenario, sides, played))
    return summarise(scenario, sides, played)


def summarise(scenario: str, sides: list[str], played: list[dict[str, Any]]) -> dict[str, Any]:
    """A match table row from the matches *played* (one record per seed, as :func:`match` makes
    them and the JSON keeps them, so that runs over disjoint seeds pool: ``--report``)."""
    x, y = sides
    n = len(played)
    outcomes = [1.0 if m["diff"] > 0 else 0.5 if m["diff"] == 0 else 0.0 for m in played]
    wins = sum(outcomes)

    def every(key: str) -> list[float]:
        return [t for m in played for t in m[key]]

    def pct(t: list[float], q: float) -> float:
        return float(np.percentile(t, q)) if t else float("nan")

    return {
        "scenario": scenario,
        "sides": sides,
        "matches": n,
        "win_rate": wins / n if n else float("nan"),
        "won": outcomes.count(1.0),
        "tied": outcomes.count(0.5),
        "lost": outcomes.count(0.0),
        "interval": wilson(wins, n),
        "mean_diff": statistics.fmean(m["diff"] for m in played) if n else float("nan"),
        # its 95% half-width (normal approximation): a gain whose interval excludes 0 is one
        "diff_half": 1.96 * statistics.stdev(m["diff"] for m in played) / math.sqrt(n)
        if n > 1
        else float("nan"),
        "ahead": {
            x: sum(m["ahead"][0] for m in played) / n,
            y: sum(m["ahead"][1] for m in played) / n,
        }
        if n
        else {x: float("nan"), y: float("nan")},
        "mean_lead": statistics.fmean(every("lead")) if n else float("nan"),
        "a_p50": pct(every("a"), 50),
        "a_p95": pct(every("a"), 95),
        "b_p50": pct(every("b"), 50),
        "b_p95": pct(every("b"), 95),
        "a_wall_p95": pct(every("a_wall"), 95),
        "b_wall_p95": pct(every("b_wall"), 95),
        "decisions": (len(every("a")), len(every("b"))),
        "late": sum(m["late"] for m in played),
        "refused": sum(m["refused"] for m in played),
        # the share of A's decisions that differ from what greedy would have given (search bots)
        "differs": _share(played, "deviated"),
        "played": played,
    }


def _share(played: list[dict[str, Any]], key: str) -> float:
    """``stats[key]`` over ``stats["decisions"]``, summed over the matches' A games (``nan``
    when the bot keeps no such count, or the runs predate it)."""
    got = [st for m in played for st in m.get("a_stats", ()) if key in st]
    decisions = sum(st["decisions"] for st in got)
    return sum(st[key] for st in got) / decisions if decisions else float("nan")


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a win rate *score* / *n* (a tie counts
    half a win, as in the rate): the range of true rates these *n* matches are consistent with.

    >>> [round(x, 2) for x in wilson(6, 10)]
    [0.31, 0.83]
    """
    if n <= 0:
        return (float("nan"), float("nan"))
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def raw_speed(scenario: str, seconds: float = 1.5, seed: int = 0) -> dict[str, float]:
    """Worlds built, forks, previews and submits per second on a determinised state of
    *scenario* at its first decision (one side's view)."""
    import owsnb
    from owsnb.bots.candidates import candidate_orders
    from owsnb.bots.determinise import determinise
    from owsnb.bots.random import random_order
    from owsnb.bots.runner import safe_pass
    from owsnb.kernel.errors import IllegalOrderError
    from owsnb.kernel.game import Game

    game = owsnb.load(scenario, seed=seed, save=False)
    rs = game.ruleset
    side = game.clock.acting[0] if game.clock.acting else game.sides[0]
    view = game.view(side)
    rng = np.random.default_rng(seed)

    def rate(fn: Any) -> float:
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            fn()
            n += 1
        return n / (time.perf_counter() - t0)

    world = determinise(view, rng)
    orders = candidate_orders(game.legal_orders(side), rng) or [None]
    k = iter(range(10**9))

    def preview() -> None:
        o = orders[next(k) % len(orders)]
        if o is not None:
            try:
                rs.preview(view, o)
            except IllegalOrderError:
                pass

    def submit() -> None:
        g = Game(rs, world)
        a = g.clock.acting
        if not a:
            g.submit("umpire: advance")
            return
        o = random_order(g.legal_orders(a[0]), rng, 1.0, tries=4)
        try:
            g.submit(o) if o is not None else safe_pass(g, a[0])
        except IllegalOrderError:
            safe_pass(g, a[0])

    return {
        "worlds": rate(lambda: determinise(view, rng)),
        "forks": rate(lambda: Game(rs, world)),
        "previews": rate(preview),
        "submits": rate(submit),
    }


def fmt(x: float, spec: str = ".2f") -> str:
    return "n/a" if x != x else format(x, spec)


HEAD = (
    f"{'rule set':10} {'scenario':22} {'win':>5} {'W-T-L':>8} {'95% interval':>12} "
    f"{'gain (95%)':>11} {'as X':>5} {'as Y':>5} {'lead':>7} "
    f"{'A p50':>6} {'A p95':>6} {'B p50':>6} {'B p95':>6} {'late':>4} {'ref':>4} {'A≠B':>4}"
)


def row(rs: str, r: dict[str, Any]) -> str:
    """One line of a match table."""
    if r.get("empty"):
        return f"{rs:10} {r['scenario']:22}   no units: no game to win (add an order of battle)"
    x, y = r["sides"]
    lo, hi = r.get("interval", (float("nan"), float("nan")))
    wtl = f"{r.get('won', '?')}-{r.get('tied', '?')}-{r.get('lost', '?')}"
    d = r.get("differs", float("nan"))
    differs = "-" if d != d else f"{100 * d:.0f}%"
    gain = f"{fmt(r.get('mean_diff', float('nan')), '+.1f')}±{fmt(r.get('diff_half', float('nan')), '.1f')}"
    return (
        f"{rs:10} {r['scenario']:22} {fmt(100 * r['win_rate'], '.0f'):>4}% {wtl:>8} "
        f"{fmt(100 * lo, '.0f'):>5}-{fmt(100 * hi, '.0f'):>3}%  "
        f"{gain:>11} "
        f"{fmt(100 * r['ahead'][x], '.0f'):>4}% {fmt(100 * r['ahead'][y], '.0f'):>4}% "
        f"{fmt(r['mean_lead'], '+.1f'):>7} {fmt(r['a_p50'], '.3f'):>6} {fmt(r['a_p95'], '.3f'):>6} "
        f"{fmt(r['b_p50'], '.3f'):>6} {fmt(r['b_p95'], '.3f'):>6} {r['late']:>4} {r['refused']:>4}"
        f" {differs:>4}"
    )


def cell(r: dict[str, Any]) -> str:
    """A budget table cell: win rate, matches and the 95% interval (``55% n20 [34-74]``)."""
    lo, hi = r.get("interval", (float("nan"), float("nan")))
    return (
        f"{fmt(100 * r['win_rate'], '.0f')}% n{r['matches']} "
        f"[{fmt(100 * lo, '.0f')}-{fmt(100 * hi, '.0f')}]"
    )


def pooled(runs: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    """The rows of tables *keys* over several runs, the matches of one bot pairing on one
    scenario pooled into one row (a seed played twice counts once: the first run's)."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    key = keys[0]
    for run in runs:
        a = run.get("args", {})
        for r in (r for k in keys for r in run.get(k, [])):
            if key == "gr":
                what: tuple[Any, ...] = ("greedy", "random", a.get("turns"))
            else:
                budget = r.get("budget", a.get("budget"))
                turns = a.get("search_turns") or a.get("turns")
                what = (a.get("search_bot", "search"), budget, a.get("clock"), turns)
            groups.setdefault((r["ruleset"], r["scenario"], *what), []).append(r)
    out = []
    for (rs, sc, *what), rows in groups.items():
        if not all("played" in r for r in rows):  # older runs: their rows as they were
            out += [{**r, "pairing": tuple(what)} for r in rows]
            continue
        seen: dict[int, dict[str, Any]] = {}
        for r in rows:
            for m in r["played"]:
                seen.setdefault(m["seed"], m)
        merged = summarise(sc, rows[0]["sides"], list(seen.values()))
        out.append({"ruleset": rs, **merged, "pairing": tuple(what)})
    return out


def overall(rows: list[dict[str, Any]], what: tuple[Any, ...]) -> str:
    """One line: the matches of *rows* (one pairing, several scenarios) taken together."""
    rows = [r for r in rows if r.get("matches")]
    n = sum(r["matches"] for r in rows)
    if not n:
        return ""
    score = sum(r["win_rate"] * r["matches"] for r in rows)
    lo, hi = wilson(score, n)
    won, tied, lost = (sum(r[k] for r in rows) for k in ("won", "tied", "lost"))
    return (
        f"{'all':10} {f'{len(rows)} scenario(s)':22} {100 * score / n:>4.0f}% "
        f"{f'{won}-{tied}-{lost}':>8} {100 * lo:>5.0f}-{100 * hi:>3.0f}%  "
        f"(every match of {' '.join(str(w) for w in what[:2] if w is not None)} together)"
    )


def report(paths: list[str]) -> None:
    """Print the tables of earlier runs (several files: e.g. scenarios or seeds run in
    parallel; the matches of one pairing on one scenario are pooled into one row)."""
    runs = [json.loads(Path(p).read_text()) for p in paths]
    for key, title in (("gr", "greedy (A) vs random (B)"), ("sg", "search (A) vs greedy (B)")):
        rows = pooled(runs, key)
        if rows:
            print(f"\n## {title}")
            print(HEAD)
            for r in rows:
                label = "" if key == "gr" else f"  ({r['pairing'][0]} {r['pairing'][1]}s)"
                print(row(r["ruleset"], r) + label)
            for what in dict.fromkeys(r["pairing"] for r in rows):
                print(overall([r for r in rows if r["pairing"] == what], what))
    rows = [r for r in pooled(runs, "budget", "sg") if r["matches"]]
    if any(r["pairing"][1] != rows[0]["pairing"][1] for r in rows):  # more than one budget
        for r in rows:
            r["budget"] = r["pairing"][1]
        budgets = sorted({r["budget"] for r in rows})
        print("\n## search strength by budget: match win rate vs greedy")
        print(f"{'rule set':10} {'scenario':22} " + " ".join(f"{b:>19}s" for b in budgets))
        for sc in dict.fromkeys(r["scenario"] for r in rows):
            by = {r["budget"]: r for r in rows if r["scenario"] == sc}
            rs = next(iter(by.values()))["ruleset"]
            cells = [cell(by[b]) if b in by else "-" for b in budgets]
            print(f"{rs:10} {sc:22} " + " ".join(f"{c:>20}" for c in cells))
    rows = [r for run in runs for r in run.get("speed", [])]
    if rows:
        print("\n## raw speed on a determinised state (per second)")
        print(
            f"{'rule set':10} {'scenario':22} {'worlds':>8} {'forks':>8} {'previews':>9} {'submits':>8}"
        )
        for sp in rows:
            print(
                f"{sp['ruleset']:10} {sp['scenario']:22} {sp['worlds']:8.0f} {sp['forks']:8.0f} "
                f"{sp['previews']:9.0f} {sp['submits']:8.0f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smoke sizes (1 seed, tiny budgets)")
    ap.add_argument("--turns", type=int, default=2, help="turn limit of every game (default 2)")
    ap.add_argument("--seeds", type=int, default=5, help="greedy-vs-random matches per scenario")
    ap.add_argument("--search-seeds", type=int, default=2, help="search-vs-greedy matches")
    ap.add_argument("--budget", type=float, default=1.0, help="search seconds per order")
    ap.add_argument(
        "--search-bot",
        default="search",
        help="the searching bot to measure against greedy: search (ISMCTS) or paired",
    )
    ap.add_argument(
        "--clock",
        default="cpu",
        choices=("cpu", "wall"),
        help="the search budget's clock (default cpu: thinking time, fair on a shared machine)",
    )
    ap.add_argument(
        "--budgets", default="0.1,0.3,1.0", help="search budgets for the strength-by-budget table"
    )
    ap.add_argument("--budget-seeds", type=int, default=2)
    ap.add_argument(
        "--seed-start",
        type=int,
        default=0,
        help="first seed of every table (runs with disjoint seeds pool with --report)",
    )
    ap.add_argument("--scenarios", default="", help="comma list (default: every bundled one)")
    ap.add_argument("--skip", default="", help="tables to skip: gr,sg,budget,speed")
    ap.add_argument(
        "--search-turns", type=int, help="turn limit of the search games (default: --turns)"
    )
    ap.add_argument("--json", help="write the raw figures to this file")
    ap.add_argument(
        "--report",
        nargs="+",
        metavar="JSON",
        help="print the tables of earlier runs (their --json)",
    )
    args = ap.parse_args()
    if args.report:
        return report(args.report)
    if args.quick:
        args.seeds, args.search_seeds, args.budget_seeds = 1, 1, 1
        args.budget, args.budgets, args.turns = 0.1, "0.05,0.2", 1
    only = {s for s in args.scenarios.split(",") if s}
    skip = {s for s in args.skip.split(",") if s}
    scen = [(r, s) for r, s in SCENARIOS if not only or s in only]
    out: dict[str, Any] = {"args": vars(args), "gr": [], "sg": [], "budget": [], "speed": []}

    def dump() -> None:
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=1, default=str))

    def seeds(n: int) -> list[int]:
        return list(range(args.seed_start, args.seed_start + n))

    def recorded(table: str, **fixed: Any) -> Any:
        """A new row of *table* and its progress callback: the row so far (with the *fixed*
        fields) replaces it and the JSON is written (a stopped run keeps what it played)."""
        out[table].append({**fixed, "matches": 0})

        def so_far(r: dict[str, Any]) -> None:
            out[table][-1] = {**fixed, **r}
            dump()

        return so_far

    search = {"bot": args.search_bot, "budget": args.budget, "clock": args.clock}
    greedy = {"bot": "greedy", "budget": None}
    st = args.search_turns or args.turns
    for key, title, a, b, n, turns in (
        ("gr", "greedy (A) vs random (B)", greedy, "random", args.seeds, args.turns),
        (
            "sg",
            f"{args.search_bot} {args.budget}s (A) vs greedy (B)",
            search,
            greedy,
            args.search_seeds,
            st,
        ),
    ):
        if key in skip:
            continue
        print(f"\n## {title}: {n} duplicate match(es) per scenario, {turns} turn(s) each")
        print(HEAD, flush=True)
        for rs, sc in scen:
            so_far = recorded(key, ruleset=rs)
            r = match(sc, a, b, seeds(n), turns, progress=so_far)
            so_far(r)
            print(row(rs, r), flush=True)

    if "budget" not in skip:
        budgets = [float(x) for x in args.budgets.split(",") if x]
        firsts = {}
        for rs, sc in scen:
            firsts.setdefault(rs, sc)
        print(
            f"\n## search strength by budget: match win rate vs greedy ({args.budget_seeds} seeds)"
        )
        print(
            f"{'rule set':10} {'scenario':22} " + " ".join(f"{b:>19}s" for b in budgets),
            flush=True,
        )
        for rs, sc in firsts.items():
            rates = []
            for bgt in budgets:
                done = next((x for x in out["sg"] if x["scenario"] == sc), None)
                so_far = recorded("budget", ruleset=rs, budget=bgt)
                if bgt == args.budget and done and args.budget_seeds == args.search_seeds:
                    r = dict(done)  # the same matches as the search-vs-greedy table
                else:
                    r = match(
                        sc,
                        {"bot": args.search_bot, "budget": bgt, "clock": args.clock},
                        greedy,
                        seeds(args.budget_seeds),
                        st,
                        progress=so_far,
                    )
                so_far(r)
                rates.append(cell(r))
            print(
                f"{rs:10} {sc:22} " + " ".join(f"{c:>20}" for c in rates),
                flush=True,
            )

    if "speed" not in skip:
        print("\n## raw speed on a determinised state (per second, one side's first decision)")
        print(
            f"{'rule set':10} {'scenario':22} {'worlds':>8} {'forks':>8} {'previews':>9} {'submits':>8}"
        )
        for rs, sc in scen:
            sp = raw_speed(sc, seconds=0.5 if args.quick else 1.5)
            out["speed"].append({"ruleset": rs, "scenario": sc, **sp})
            print(
                f"{rs:10} {sc:22} {sp['worlds']:8.0f} {sp['forks']:8.0f} {sp['previews']:9.0f} "
                f"{sp['submits']:8.0f}",
                flush=True,
            )
            dump()


if __name__ == "__main__":
    main()
