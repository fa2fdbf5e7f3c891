"""Skirmish with a presentation the kernel test rule set leaves out (widget tests only).

Its presentation adds ``reach`` (the hexes a unit can move to, as its side knows), ``ranges``
(fire and sight 1 hex, move), ``counter`` (a counter marked so tests can see it was used: its
designation ends in ``*``), ``dashboard`` and ``transit`` (turns to a hex at the unit's move
rate).
"""

from __future__ import annotations

from typing import Any

import owsnb
from owsnb.kernel import Game
from owsnb.kernel.presentation import Counter, Presentation
from tests.conftest import DATA
from tests.rulesets.skirmish import Skirmish, reach


class PlusPresentation(Presentation):
    def reach(self, view: Any, unit_id: str) -> dict | None:
        u = view.unit(unit_id)
        if u.hex is None or u.side not in view.sides:
            return None
        return dict(reach(view, u).cost)

    def ranges(self, view: Any, unit_id: str) -> list[dict[str, Any]]:
        u = view.unit(unit_id)
        return [
            {"label": "fire (S3)", "kind": "weapon", "hexes": 1},
            {"label": "move (S2)", "kind": "move", "hexes": int(u.get("move", 1))},
        ]

    def counter(self, unit: Any, view: Any) -> Counter:
        from dataclasses import replace

        c = super().counter(unit, view)
        return replace(c, designation=c.designation + "*")

    def dashboard(self, view: Any) -> dict[str, Any]:
        steps: dict[str, int] = {}
        for u in view.units.values():
            steps[u.side] = steps.get(u.side, 0) + u.steps
        return {"steps seen": steps, "turn": view.clock.turn}

    def transit(self, view: Any, unit_id: str, to_hex: Any) -> list[dict[str, Any]]:
        u = view.unit(unit_id)
        d = u.hex.distance(to_hex)
        rate = int(u.get("move", 1))
        return [{"mode": "ground", "hexes": d, "turns": -(-d // rate)}]


class SkirmishPlus(Skirmish):
    presentation = PlusPresentation()


PLUS = SkirmishPlus()


def plus_game(seed: int = 11) -> Game:
    """The skirmish scenario (on the map near Wesel) played with :class:`SkirmishPlus`."""
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    return Game(PLUS, g.initial, meta=g.meta)


class Unlisted(SkirmishPlus):
    """Skirmish whose order specs list no candidates: the order panel falls back on what each
    parameter's kind admits."""

    def legal_orders(self, state: Any, side: str) -> list:
        from dataclasses import replace

        from owsnb.kernel.data import FrozenDict

        return [replace(s, candidates=FrozenDict()) for s in super().legal_orders(state, side)]


def unlisted_game(seed: int = 11) -> Game:
    """The skirmish scenario played with :class:`Unlisted`."""
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    return Game(Unlisted(), g.initial, meta=g.meta)


class ZonedPresentation(PlusPresentation):
    """A ``hex_overlay``: the hexes next to each side's units, in its colour."""

    def hex_overlay(self, view: Any) -> dict:
        out = {}
        for u in view.units.values():
            if u.hex is None:
                continue
            colour = view.sides[u.side].color
            for h in u.hex.neighbours():
                if h in view.map.hexes:
                    out[h] = {"fillColor": colour, "fillOpacity": 0.3, "label": f"{u.side} zone"}
        return out


class Zoned(SkirmishPlus):
    """Skirmish with a ``hex_overlay``: the hexes next to each side's units, in its colour."""

    presentation = ZonedPresentation()


def zoned_game(seed: int = 11) -> Game:
    """The skirmish scenario played with :class:`Zoned`."""
    g = owsnb.load(DATA / "skirmish.yaml", seed=seed, save=False)
    return Game(Zoned(), g.initial, meta=g.meta)
