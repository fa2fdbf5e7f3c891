"""Helpers for the opscale tests: small scenarios built in code, and orders adjudicated with
scripted dice (``play``) so worked examples are exact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import owsnb
from owsnb.kernel import Dice, Order
from owsnb.kernel.reduce import apply_all
from owsnb.rules.opscale import RULESET
from owsnb.testing import fixed_dice

ROOT = Path(__file__).resolve().parents[3]
CATALOG = ROOT / "scenarios" / "catalogs" / "opscale-notional.yaml"


def scenario(
    units: list[dict[str, Any]],
    *,
    features: list[dict[str, Any]] | None = None,
    terrain: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
    turns: int = 10,
    turn: int = 1,
) -> dict[str, Any]:
    """A scenario dict on a 10 x 8 plains board (blue, red and a neutral green)."""
    return {
        "owsnb": 1,
        "id": "opscale-test",
        "title": "opscale test",
        "ruleset": "opscale",
        "turns": turns,
        "options": options or {},
        "clock": {"turn": turn},
        "map": {
            "layout": {"orientation": "flat", "size": 10, "unit": "km", "projection": "simple"},
            "cols": 10,
            "rows": 8,
            "terrain": {"default": "plains", "hexes": terrain or {}},
            "features": features or [],
        },
        "sides": {
            "blue": {"color": "#1f5fbf"},
            "red": {"color": "#c0392b"},
            "green": {"color": "#2e7d32"},
        },
        "catalogs": [str(CATALOG)],
        "units": units,
        "rules": {
            "neutral": ["green"],
            "currency": {"blue": 100, "red": 100},
            "catalog": str(CATALOG),
            "production": {
                "blue": ["infantry-bn", "armour-bn", "forward-hq", "artillery-bn"],
                "red": ["infantry-bn", "armour-bn"],
            },
            **(rules or {}),
        },
    }


def load(units: list[dict[str, Any]], seed: int = 1, **kw: Any) -> Any:
    return owsnb.load(scenario(units, **kw), seed=seed, save=False)


def to_step(game: Any, step: str, turn: int | None = None) -> Any:
    """Submit 'done' for whoever acts until the clock reaches *step* (of *turn*)."""
    for _ in range(200):
        c = game.state.clock
        if c.step == step and (turn is None or c.turn == turn):
            return game
        acting = c.acting
        game.submit(f"{acting[0]}: done" if acting else "umpire: advance")
    raise AssertionError(f"never reached step {step}")


def play(state: Any, text: str, dice: list[int] | None = None) -> tuple[Any, Any]:
    """Validate and adjudicate *text* on *state* with scripted dice (all must be used); returns
    the new state and the adjudication's result."""
    order = Order.parse(text)
    args = RULESET.check(state, order)
    d = fixed_dice(dice) if dice is not None else Dice.from_seed(0)
    adj = RULESET.adjudicate(state, order, args, d)
    if dice is not None:
        assert d.remaining == [], f"unused scripted dice: {d.remaining}"
    return apply_all(state, [*d.take_events(), *adj.events]), adj.result


@pytest.fixture
def ruleset():
    return RULESET
