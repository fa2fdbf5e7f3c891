"""A tiny game for the widgets' docstring examples (no rule-set package needed, no rules at all)."""

from __future__ import annotations

from typing import ClassVar

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.game import Game
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.offset import OffsetSystem
from owsnb.kernel.ruleset import RuleSet
from owsnb.kernel.sequence import Phase, SequenceOfPlay, Step
from owsnb.kernel.state import GameState, HexInfo, MapState, SideState, Unit


class _Bare(RuleSet):
    """Only the generic ``done`` and ``advance``: one step a turn, both sides act."""

    name = "_bare"
    title = "bare board"
    sequence: ClassVar[SequenceOfPlay] = SequenceOfPlay(
        (Phase("1", "Play", (Step("1", "Play", actors="all", mode="simultaneous"),)),)
    )


def tiny_game() -> Game:
    """A 3x2 board near Wesel with one blue and one (undetected) red unit."""
    offset = OffsetSystem()
    hexes = offset.rectangle(3, 2)
    m = MapState(
        FrozenDict({h: HexInfo("clear", offset.to_label(h)) for h in hexes}),
        offset,
        GeoLayout.from_size(10, origin=(6.5, 51.5)),
    )
    units = {
        "B-1": Unit("B-1", "blue", "inf", "Blue infantry", hexes[0], steps=2, max_steps=2),
        "R-1": Unit("R-1", "red", "inf", "Red infantry", hexes[-1], steps=2, max_steps=2),
    }
    sides = {
        "blue": SideState("blue", "Blue", "#1f5fbf"),
        "red": SideState("red", "Red", "#c0392b"),
    }
    rs = _Bare()
    state = GameState(
        "_bare", m, FrozenDict(sides), FrozenDict(units), scenario=FrozenDict(id="tiny")
    )
    return Game(rs, rs.setup(state, {}))
