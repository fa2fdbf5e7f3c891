"""Monte Carlo sweeps: play a scenario many times over seeds x options x plans, locally on all
cores or on a Dask cluster, into one ``xarray.Dataset``.

A **plan** says what the sides order: ``"random"`` (random legal orders, seeded), ``"pass"``
(every side passes every step — the scenario's automatic effects only), a bot of
:mod:`owsnb.bots` (``"greedy"``, ``"search"``, or ``{"bot": "search", "budget": 0.5}``: it plays
from each side's view only), a path to a YAML plan of scripted orders, or a picklable callable
``plan(game, side, rng) -> order text | None``. A mapping gives each side its own plan —
``{"blue": "plan.yaml", "red": "greedy"}`` — and sides it leaves out pass. The results carry
which plan or bot played each side (``bot``) and each side's victory standing at the end as the
rule set's evaluation judges it on the truth (``standing``).

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
    budget: float | str | None = "auto"

    @property
    def variant(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.options) or "default"


def _load_plan(plan: Any) -> tuple[list[dict[str, Any]], str]:
    if isinstance(plan, (str, os.PathLike)) and not _is_keyword(plan):
        import yaml

        data = yaml.safe_load(Path(plan).read_text(encoding="utf-8")) or {}
        orders = list(data.get("orders", []))
        fallback = data.get("fallback", "pass")
        if fallback not in ("random", "pass"):
            raise ValueError(f"{plan}: fallback must be 'random' or 'pass', not {fallback!r}")
        return orders, fallback
    return [], str(plan) if isinstance(plan, str) else "callable"


def _is_keyword(plan: Any) -> bool:
    """``"random"``, ``"pass"`` or a registered bot's name (not a file)."""
    from owsnb.bots import names

    return isinstance(plan, str) and (plan in ("random", "pass") or plan in names())


def _is_bot(plan: Any) -> bool:
    return (isinstance(plan, str) and plan != "pass" and _is_keyword(plan)) or (
        isinstance(plan, Mapping) and "bot" in plan
    )


class _Scripted:
    """A YAML plan (or a callable) playing the sides it names, in order, as the clock matches."""

    def __init__(self, plan: Any, rng: np.random.Generator):
        self.plan, self.rng = plan, rng
        self.scripted, self.fallback = _load_plan(plan)
        self.used = [False] * len(self.scripted)

    def order(self, game: Any, side: str) -> Any:
        for i, item in enumerate(self.scripted):
            if (
                self.used[i]
                or item.get("side") != side
                or int(item.get("turn", game.clock.turn)) != game.clock.turn
            ):
                continue
            if str(item.get("step", game.clock.step)) != game.clock.step:
                continue
            self.used[i] = True
            return item["order"]
        if callable(self.plan):
            order = self.plan(game, side, self.rng)
            if order is not None:
                return order
        if self.fallback == "random":
            from owsnb.bots.random import random_order

            return random_order(game.legal_orders(side), self.rng)
        return None


def _players(spec: RunSpec, game: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """side -> a player (a seated bot or a script) and side -> the name of what plays it."""
    from owsnb.bots import Bot

    rng = np.random.default_rng(spec.seed)
    plans: Mapping[str, Any] = (
        spec.plan if isinstance(spec.plan, Mapping) and "bot" not in spec.plan else {}
    )
    out: dict[str, Any] = {}
    labels: dict[str, str] = {}
    shared: _Scripted | None = None
    for side in game.state.sides:
        plan = plans.get(side, "pass") if plans else spec.plan
        if plan == "pass":
            labels[side] = "pass"
            continue
        if _is_bot(plan) and not (plan == "random" and not plans):
            bot = Bot(plan, side, seed=spec.seed, budget=spec.budget)
            out[side], labels[side] = bot, bot.label
        elif plans:
            out[side], labels[side] = (
                _Scripted(plan, np.random.default_rng(spec.seed)),
                _plan_name(plan),
            )
        else:  # one plan for every side: one script, one generator (as sweeps always did)
            shared = shared or _Scripted(plan, rng)
            out[side], labels[side] = shared, _plan_name(plan)
    return out, labels


def run_one(spec: RunSpec) -> dict[str, Any]:
    """Play one game to its end (or *turns* turns, or *max_orders* orders); return a summary."""
    import owsnb
    from owsnb.bots import Bot, safe_pass
    from owsnb.bots.evaluate import evaluation_for
    from owsnb.kernel.errors import IllegalOrderError

    game = owsnb.load(spec.scenario, seed=spec.seed, save=False, options=dict(spec.options))
    players, labels = _players(spec, game)
    start = {
        sd: sum(u.steps for u in game.state.units.values() if u.side == sd)
        for sd in game.state.sides
    }
    n = 0
    refused = 0
    try:
        while n < spec.max_orders and not game.is_over():
            if spec.turns is not None and game.clock.turn > spec.turns:
                break
            acting = game.clock.acting
            if not acting:
                game.submit("umpire: advance")
                continue
            side = acting[0]
            player = players.get(side)
            if isinstance(player, Bot):
                before = len(player.refusals)
                player.act(game)
                refused += len(player.refusals) - before
                n += 1
                continue
            order = player.order(game, side) if player is not None else None
            try:
                if order:
                    game.submit(order)
                else:
                    safe_pass(game, side)
            except IllegalOrderError:
                refused += 1
                safe_pass(game, side)
            n += 1
    finally:
        for p in players.values():
            if isinstance(p, Bot):
                p.close()
    s = game.state
    ev = evaluation_for(game.ruleset)
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
        out[f"standing/{sd}"] = float(ev.standing(s, sd))
        out[f"bot:{sd}"] = labels.get(sd, "pass")
        p = players.get(sd)
        if isinstance(p, Bot) and p.times:
            out[f"decision_p95/{sd}"] = p.decision_times()["p95"]
        for k, v in s.sides[sd].public.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[f"side_{k}/{sd}"] = v
    return out


def _pass(game: Any, side: str) -> None:
    """Submit the least *side* can do now (:func:`owsnb.bots.safe_pass`)."""
    from owsnb.bots import safe_pass

    safe_pass(game, side)


def _plan_name(plan: Any) -> str:
    """How the results name a plan: ``random``, ``greedy``, ``search(budget=0.5)``, a YAML plan's
    file stem, a callable's name, or ``blue=plan,red=greedy`` for a plan per side."""
    if isinstance(plan, Mapping):
        if "bot" in plan:
            from owsnb.bots import get

            return get(plan).label
        return ",".join(f"{side}={_plan_name(p)}" for side, p in plan.items())
    if callable(plan):
        return getattr(plan, "__name__", "callable")
    return str(plan) if _is_keyword(plan) else Path(str(plan)).stem


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
    plans: Sequence[Any] | Mapping[str, Any] = ("random",),
    turns: int | None = None,
    max_orders: int = 2_000,
    budget: float | str | None = "auto",
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
) -> xr.Dataset:
    """Play *scenario* over seeds x option variants x plans; one Dataset of per-game results.

    Args:
        scenario: bundled name, path or scenario dict (must be picklable to reach the workers).
        seeds: dice seeds (also seed the random plans).
        options: ``{"option": [values...]}`` (full factorial) or a list of option dicts.
        plans: plans to compare (see the module docstring); one mapping of side -> plan
            (``{"blue": "greedy", "red": "search"}``) is one plan.
        turns: stop each game after this many turns (default: the scenario's end).
        max_orders: safety bound on orders per game.
        budget: seconds a bot may think per order before it passes safely (``"auto"``: its
            own budget plus a second, else 2 s; see :class:`owsnb.bots.Bot`).
        workers: local processes (default: all cores); ``1`` runs in this process.
        client: a ``dask.distributed.Client`` or a scheduler address to run on a cluster instead.
        progress: show a ``tqdm`` progress bar.

    Returns:
        a Dataset with dims ``(plan, variant, seed)`` (+ ``side``) holding final steps, steps
        lost, units alive, numeric side facts, each side's victory standing (the rule set's
        evaluation on the truth) and bot decision times (p95), turns and events per game;
        ``bot`` (dims ``plan``, ``side``) names what played each side.
    """
    from tqdm.auto import tqdm

    seeds = list(seeds)
    if isinstance(plans, Mapping):
        plans = [plans]
    specs = [
        RunSpec(scenario, int(s), v, p, turns, max_orders, budget)
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
    bots = np.full((len(plans), len(sides)), "", dtype=object)
    for r in results:
        for m, sd in enumerate(sides):
            if f"bot:{sd}" in r:
                bots[plans.index(r["plan"]), m] = r[f"bot:{sd}"]
    data["bot"] = (("plan", "side"), bots.astype(str))
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
