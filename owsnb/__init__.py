"""owsnb — a Jupyter-native table for playing, teaching and studying operational wargames.

>>> import owsnb
>>> owsnb.Order.parse("blue: done")
Order.parse('blue: done')
"""

from owsnb.api import games_dir, load, load_ruleset, new_game, resume
from owsnb.display.options import set_options
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

__all__ = [
    "AuthError", "Distribution", "Game", "GameState", "Hex", "HistoryError", "IllegalOrderError",
    "InvalidHexError", "NotYourTurnError", "Order", "OwsnbError", "ScenarioError", "SideView",
    "StaleStateError", "StoreError", "UnknownRulesetError", "games_dir", "load", "load_ruleset",
    "new_game", "resume", "set_options", "connect",
]


def connect(url: str, token: str):  # noqa: ANN201
    """A handle on a game held by an ``owsnb serve`` authority (same methods as a local Game)."""
    from owsnb.server.client import connect as _connect

    return _connect(url, token)
