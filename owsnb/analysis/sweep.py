"""Monte Carlo sweeps: play a scenario many times over seeds x options x plans, locally on all
cores or on a Dask cluster, into one ``xarray.Dataset``.

A **plan** says what the sides order: ``"random"`` (random legal orders, seeded), ``"pass"``
(every side passes every step — the scenario's automatic effects only), a path to a YAML plan of
scripted orders, or a picklable callable ``plan(game, side, rng) -> order text | None``.

A YAML plan::

    orders:                       # tried in order whenever the clock matches; else the fallback
      - {turn: 1, step: "3.A", side: blue, order: "blue: move CVN-76 0907"}
    fallback: pass                # or random
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

__all__ = ["sweep", "run_one", "RunSpec"]


@dataclass(frozen=True)
class RunSpec:
    """One game of a sweep."""

    scenario: Any
    seed: int
    options: tuple[tuple[str, Any], ...]
    plan: Any
    turns: int | None
    max_orders: int

    @property
    def variant(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.options) or "default"


def _load_plan(plan: Any) -> tuple[list[dict[str, Any]], str]:
    if isinstance(plan, (str, os.PathLike)) and str(plan) not in ("random", "pass"):
        import yaml

        data = yaml.safe_load(Path(plan).read_text(encoding="utf-8")) or {}
        orders = list(data.get("orders", []))
        fallback = data.get("fallback", "pass")
        if fallback not in ("random", "pass"):
            raise ValueError(f"{plan}: fallback must be 'random' or 'pass', not {fallback!r}")
        return orders, fallback
    return [], str(plan) if isinstance(plan, str) else "callable"


def run_one(spec: RunSpec) -> dict[str, Any]:
    """Play one game to its end (or *turns* turns, or *max_orders* orders); return a summary."""
    import owsnb
    from owsnb.kernel.errors import IllegalOrderError

    game = owsnb.load(spec.scenario, seed=spec.seed, save=False, options=dict(spec.options))
    rng = np.random.default_rng(spec.seed)
    scripted, fallback = _load_plan(spec.plan)
    used = [False] * len(scripted)
    start = {
        sd: sum(u.steps for u in game.state.units.values() if u.side == sd)
        for sd in game.state.sides
    }
    n = 0
    refused = 0
    while n < spec.max_orders and not game.is_over():
        if spec.turns is not None and game.clock.turn > spec.turns:
            break
        acting = game.clock.acting
        if not acting:
            game.submit("umpire: advance")
            continue
        side = acting[0]
        order: Any = None
        for i, item in enumerate(scripted):
            if (
                used[i]
                or item.get("side") != side
                or int(item.get("turn", game.clock.turn)) != game.clock.turn
            ):
                continue
            if str(item.get("step", game.clock.step)) != game.clock.step:
                continue
            used[i] = True
            order = item["order"]
            break
        if order is None and callable(spec.plan):
            order = spec.plan(game, side, rng)
        if order is None and fallback == "random":
            legal = game.legal_orders(side)
            others = [s for s in legal.specs if s.verb != "done"]
            if others and rng.random() < 0.85:
                from owsnb.kernel.orders import LegalOrders

                order = LegalOrders(side, tuple(others), legal._check).sample(rng)
        try:
            if order:
                game.submit(order)
            else:
                _pass(game, side)
        except IllegalOrderError:
            refused += 1
            _pass(game, side)
        n += 1
    s = game.state
    out: dict[str, Any] = {
        "seed": spec.seed,
        "variant": spec.variant,
        "plan": _plan_name(spec.plan),
        "orders": n,
        "refused": refused,
        "events": game.seq,
        "turn": s.clock.turn,
        "over": game.is_over(),
        "outcome": str(game.outcome()) if game.is_over() else "",
    }
    for sd in s.sides:
        now = sum(u.steps for u in s.units.values() if u.side == sd)
        out[f"steps_final/{sd}"] = now
        out[f"steps_lost/{sd}"] = start[sd] - now
        out[f"units_alive/{sd}"] = sum(1 for u in s.units.values() if u.side == sd and u.steps > 0)
        for k, v in s.sides[sd].public.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[f"side_{k}/{sd}"] = v
    return out


def _pass(game: Any, side: str) -> None:
    """Submit the least *side* can do now: ``done``, or — when a rule demands an answer first and
    refuses ``done`` (e.g. the OWS defender's shot calculus, 9.2.1) — the first legal example order
    (for OWS: ``shields`` committing nothing)."""
    from owsnb.kernel.errors import IllegalOrderError

    try:
        game.submit(f"{side}: done")
        return
    except IllegalOrderError:
        legal = game.legal_orders(side)
        answer = next((spec.examples[0] for spec in legal.specs if spec.examples), None)
        if answer is None:
            raise
    game.submit(answer)


def _plan_name(plan: Any) -> str:
    if callable(plan):
        return getattr(plan, "__name__", "callable")
    return Path(str(plan)).stem if str(plan) not in ("random", "pass") else str(plan)


def _grid(
    options: Mapping[str, Sequence[Any]] | Sequence[Mapping[str, Any]] | None,
) -> list[tuple[tuple[str, Any], ...]]:
    if not options:
        return [()]
    if isinstance(options, Mapping):
        keys = list(options)
        return [
            tuple(zip(keys, vals, strict=True))
            for vals in itertools.product(*(options[k] for k in keys))
        ]
    return [tuple(sorted(o.items())) for o in options]


def sweep(
    scenario: Any,
    seeds: Iterable[int] = range(10),
    *,
    options: Any = None,
    plans: Sequence[Any] = ("random",),
    turns: int | None = None,
    max_orders: int = 2_000,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
) -> xr.Dataset:
    """Play *scenario* over seeds x option variants x plans; one Dataset of per-game results.

    Args:
        scenario: bundled name, path or scenario dict (must be picklable to reach the workers).
        seeds: dice seeds (also seed the random plans).
        options: ``{"option": [values...]}`` (full factorial) or a list of option dicts.
        plans: plans to compare (see the module docstring).
        turns: stop each game after this many turns (default: the scenario's end).
        max_orders: safety bound on orders per game.
        workers: local processes (default: all cores); ``1`` runs in this process.
        client: a ``dask.distributed.Client`` or a scheduler address to run on a cluster instead.
        progress: show a ``tqdm`` progress bar.

    Returns:
        a Dataset with dims ``(plan, variant, seed)`` (+ ``side``) holding final steps, steps
        lost, units alive, numeric side facts, turns and events per game.
    """
    from tqdm.auto import tqdm

    seeds = list(seeds)
    specs = [
        RunSpec(scenario, int(s), v, p, turns, max_orders)
        for p in plans
        for v in _grid(options)
        for s in seeds
    ]
    results: list[dict[str, Any]] = []
    bar = tqdm(total=len(specs), desc="owsnb sweep", unit="game", disable=not progress)
    try:
        if client is not None:
            results = _run_dask(client, specs, bar)
        elif (workers or os.cpu_count() or 1) <= 1 or len(specs) == 1:
            for sp in specs:
                results.append(run_one(sp))
                bar.update()
        else:
            with _pool(workers or os.cpu_count() or 1) as ex:
                futs = [ex.submit(run_one, sp) for sp in specs]
                for f in as_completed(futs):
                    results.append(f.result())
                    bar.update()
    finally:
        bar.close()
    return _to_dataset(results, specs, scenario)


def _worker_env(env: Mapping[str, str]) -> None:
    """Give a worker the caller's environment as it is now (e.g. ``OWSNB_RULESETS``): forkserver
    workers otherwise start from the server's, taken when it was first started."""
    os.environ.clear()
    os.environ.update(env)


def _pool(workers: int) -> ProcessPoolExecutor:
    """Local worker processes: forked from a forkserver that has imported owsnb once (later sweeps
    start their workers in milliseconds), or spawned where there is no forkserver (Windows)."""
    import multiprocessing as mp
    from multiprocessing.context import BaseContext

    ctx: BaseContext
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["owsnb.analysis.sweep", "owsnb.rules"])
    else:
        ctx = mp.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_worker_env, initargs=(dict(os.environ),)
    )


def _run_dask(client: Any, specs: list[RunSpec], bar: Any) -> list[dict[str, Any]]:
    from dask.distributed import Client
    from dask.distributed import as_completed as dask_completed

    own = None
    if isinstance(client, str):
        own = client = Client(client)
    try:
        futs = client.map(run_one, specs, pure=False)
        out = []
        for f in dask_completed(futs):
            out.append(f.result())
            bar.update()
        return out
    finally:
        if own is not None:
            own.close()


def _to_dataset(results: list[dict[str, Any]], specs: list[RunSpec], scenario: Any) -> xr.Dataset:
    plans = list(dict.fromkeys(_plan_name(s.plan) for s in specs))
    variants = list(dict.fromkeys(s.variant for s in specs))
    seeds = sorted({s.seed for s in specs})
    sides = sorted({k.split("/", 1)[1] for r in results for k in r if "/" in k})
    per_side = sorted({k.split("/", 1)[0] for r in results for k in r if "/" in k})
    shape = (len(plans), len(variants), len(seeds))
    idx = {(r["plan"], r["variant"], r["seed"]): r for r in results}
    data: dict[str, Any] = {}
    for key, dtype, fill in (
        ("orders", float, np.nan),
        ("refused", float, np.nan),
        ("events", float, np.nan),
        ("turn", float, np.nan),
        ("over", bool, False),
        ("outcome", object, ""),
    ):
        arr = np.full(shape, fill, dtype=dtype)
        for (i, p), (j, v), (k, s) in itertools.product(
            enumerate(plans), enumerate(variants), enumerate(seeds)
        ):
            r = idx.get((p, v, s))
            if r is not None:
                arr[i, j, k] = r[key]
        data[key] = (("plan", "variant", "seed"), arr.astype(str) if dtype is object else arr)
    for name in per_side:
        arr = np.full((*shape, len(sides)), np.nan)
        for (i, p), (j, v), (k, s) in itertools.product(
            enumerate(plans), enumerate(variants), enumerate(seeds)
        ):
            r = idx.get((p, v, s))
            if r is None:
                continue
            for m, sd in enumerate(sides):
                arr[i, j, k, m] = r.get(f"{name}/{sd}", np.nan)
        data[name] = (("plan", "variant", "seed", "side"), arr)
    ds = xr.Dataset(data, coords={"plan": plans, "variant": variants, "seed": seeds, "side": sides})
    ds.attrs.update(
        {
            "title": "owsnb sweep",
            "scenario": scenario
            if isinstance(scenario, str)
            else (scenario.get("id", "") if isinstance(scenario, Mapping) else str(scenario)),
            "games": len(results),
            "specs": json.dumps([s.variant for s in specs[:1]]),
        }
    )
    return ds
