"""Helpers for the OWS rule tests: the small test strait, scenario variants, scripted dice."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

import owsnb
from owsnb.kernel.orders import Order
from owsnb.kernel.reduce import apply_all
from owsnb.testing import fixed_dice

DATA = Path(__file__).parents[2] / "data" / "ows"
BASE = yaml.safe_load((DATA / "ows-test.yaml").read_text())


def scenario(
    units: dict[str, dict[str, Any]] | None = None,
    add: list[dict] | None = None,
    remove: tuple[str, ...] = (),
    options: dict | None = None,
    rules: dict | None = None,
    **top: Any,
) -> dict:
    """The test scenario as a dict with per-unit overrides (``{"DDG-1": {"hex": "0504"}}``)."""
    d = copy.deepcopy(BASE)
    d["catalogs"] = [str(DATA / "ows-test-units.yaml")]
    out = []
    for u in d["units"]:
        if u["id"] in remove:
            continue
        u.update((units or {}).get(u["id"], {}))
        out.append(u)
    d["units"] = out + list(add or [])
    if options:
        d["options"] = {**d.get("options", {}), **options}
    if rules:
        d["rules"] = {**d["rules"], **rules}
    d.update(top)
    return d


def load(seed: int = 3, **kw: Any) -> owsnb.Game:
    return owsnb.load(scenario(**kw), seed=seed, save=False)


def at(game: owsnb.Game, step: str) -> owsnb.Game:
    """Jump the game to *step* (umpire advance)."""
    if game.clock.step != step:
        game.submit(f"umpire: advance {step}")
    return game


def run(game: owsnb.Game, order: str | Order, rolls: list[int]) -> tuple[Any, Any, list]:
    """Adjudicate *order* with scripted dice; returns (state after, result, events). The game is not changed."""
    o = Order.parse(order) if isinstance(order, str) else order
    rs = game.ruleset
    args = rs.check(game.state, o)
    dice = fixed_dice(rolls, actor=o.side)
    adj = rs.adjudicate(game.state, o, args, dice)
    events = [*dice.take_events(), *adj.events]
    assert not dice.remaining, f"unused scripted rolls {dice.remaining}"
    return apply_all(game.state, events, rs.reducers), adj.result, events


@pytest.fixture
def game() -> owsnb.Game:
    return load()


def within_3_sigma(exact: dict, counts: dict, n: int) -> list[str]:
    """Outcomes whose observed frequency is more than 3 sigma from the exact probability."""
    bad = []
    for k in set(exact) | set(counts):
        p = float(exact.get(k, 0))
        f = counts.get(k, 0) / n
        sigma = (p * (1 - p) / n) ** 0.5
        if abs(f - p) > 3 * sigma + 1e-9:
            bad.append(f"{k}: exact {p:.4f} observed {f:.4f} (3 sigma {3 * sigma:.4f})")
    return bad


class FastRoller:
    """Seeded rolls in bulk (numpy PCG64), called like the rules' Roller: roll(die, purpose, rule, vis)."""

    def __init__(self, seed: int, size: int = 2_000_000):
        import numpy as np

        self.u = np.random.Generator(np.random.PCG64(seed)).random(size).tolist()
        self.i = 0

    def __call__(self, die: str, *args: Any) -> int:
        n = int(str(die)[1:])
        v = int(self.u[self.i] * n) + 1
        self.i += 1
        return v


def with_events(game: owsnb.Game, events: list) -> owsnb.Game:
    """A new in-memory game whose initial state is *game*'s state with *events* applied."""
    from owsnb.kernel.game import Game

    return Game(game.ruleset, apply_all(game.state, events, game.ruleset.reducers))
