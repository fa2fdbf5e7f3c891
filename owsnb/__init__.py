"""owsnb — a Jupyter-native table for playing, teaching and studying operational wargames.

>>> import owsnb
>>> owsnb.Order.parse("blue: done")
Order.parse('blue: done')

The entry points (``load``, ``resume``, ``connect``, ``load_ruleset``...) are imported on first
use, so ``import owsnb.kernel`` stays light (standard library + numpy).
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel import (
    AuthError,
    Distribution,
    Game,
    GameState,
    Hex,
    HistoryError,
    IllegalOrderError,
    InvalidHexError,
    NotYourTurnError,
    Order,
    OwsnbError,
    ScenarioError,
    SideView,
    StaleStateError,
    StoreError,
    UnknownRulesetError,
)

__version__ = "0.1.0"

_LAZY = {
    "load": "owsnb.api",
    "resume": "owsnb.api",
    "load_ruleset": "owsnb.api",
    "games_dir": "owsnb.api",
    "new_game": "owsnb.api",
    "set_options": "owsnb.display.options",
    "connect": "owsnb.server.client",
    "widgets": "owsnb.widgets",
    "analysis": "owsnb.analysis",
    "bots": "owsnb.bots",
    "rules": "owsnb.rules",
    "App": "owsnb.widgets",
    "Editor": "owsnb.pages.editor",
}

__all__ = [
    "AuthError",
    "Distribution",
    "Game",
    "GameState",
    "Hex",
    "HistoryError",
    "IllegalOrderError",
    "InvalidHexError",
    "NotYourTurnError",
    "Order",
    "OwsnbError",
    "ScenarioError",
    "SideView",
    "StaleStateError",
    "StoreError",
    "UnknownRulesetError",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'owsnb' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(mod)
    value = module if name in ("widgets", "analysis", "bots", "rules") else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
