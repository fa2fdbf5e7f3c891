"""The state kernel: pure data and functions, standard library + numpy only.

It knows nothing about OWS, Jupyter or I/O: hex grids and their place on Earth, immutable game
state, orders with a round-tripping notation, events tagged with who may see them, seeded dice,
the rule-set protocol, side views, and the :class:`Game` handle.
"""

from owsnb.kernel.data import FrozenDict, freeze, thaw
from owsnb.kernel.dice import Dice
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import (
    AuthError,
    HistoryError,
    IllegalOrderError,
    InvalidHexError,
    InvalidSeedError,
    NotYourTurnError,
    OrderSyntaxError,
    OwsnbError,
    ScenarioError,
    StaleStateError,
    StoreError,
    UnknownRulesetError,
    UnknownSideError,
    refuse,
)
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation, Change, Game, Submission
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem
from owsnb.kernel.orders import LegalOrders, Order, OrderSpec, OrderType, Param
from owsnb.kernel.registry import get_ruleset, register_ruleset, ruleset_names
from owsnb.kernel.ruleset import Adjudication, Option, OrderHandler, RuleSet
from owsnb.kernel.sequence import Phase, SequenceOfPlay, Step
from owsnb.kernel.state import (
    UMPIRE,
    Clock,
    GameState,
    HexInfo,
    MapState,
    SideState,
    StateLike,
    Unit,
)
from owsnb.kernel.surface import GameSurface
from owsnb.kernel.view import SideView, side_view

__all__ = [
    "Adjudication",
    "Annotation",
    "AuthError",
    "Change",
    "Clock",
    "Dice",
    "Distribution",
    "Event",
    "FrozenDict",
    "Game",
    "GameSurface",
    "GameState",
    "GeoLayout",
    "Hex",
    "HexInfo",
    "HistoryError",
    "IllegalOrderError",
    "InvalidHexError",
    "InvalidSeedError",
    "LegalOrders",
    "MapState",
    "NotYourTurnError",
    "OffsetSystem",
    "Option",
    "Order",
    "OrderHandler",
    "OrderSpec",
    "OrderSyntaxError",
    "OrderType",
    "OwsnbError",
    "Param",
    "Phase",
    "RuleSet",
    "ScenarioError",
    "SequenceOfPlay",
    "SideState",
    "SideView",
    "StaleStateError",
    "StateLike",
    "Step",
    "StoreError",
    "Submission",
    "UMPIRE",
    "Unit",
    "UnknownRulesetError",
    "UnknownSideError",
    "freeze",
    "get_ruleset",
    "refuse",
    "register_ruleset",
    "ruleset_names",
    "side_view",
    "thaw",
]
