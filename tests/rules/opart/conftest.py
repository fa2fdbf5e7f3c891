"""Helpers for Operational Art tests: the bundled scenario and small hand-built battlefields."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import owsnb
from owsnb.kernel import Game
from owsnb.kernel.reduce import apply_all
from owsnb.rules.opart import RULESET
from owsnb.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
CATALOG = "catalogs/opart-eastern-front.yaml"


def battlefield(
    units: Iterable[tuple],
    *,
    terrain: Mapping[str, str] | None = None,
    roads: Iterable[Iterable[str]] = (),
    features: Iterable[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any] | None = None,
    cols: int = 12,
    rows: int = 9,
    seed: int = 5,
    card: str | None = None,
) -> Game:
    """A game on an open 12 x 9 board (flat hexes, labels CCRR).

    Args:
        units: ``(id, catalog type, side, hex, formation[, data])`` tuples.
        card: formation to activate (default: whatever the shuffle turned up).
    """
    spec_units = []
    for u in units:
        uid, typ, side, hx, fid, *rest = u
        data = {"formation": fid, **(rest[0] if rest else {})}
        spec_units.append({"id": uid, "type": typ, "side": side, "hex": hx, "data": data})
    spec = {
        "owsnb": 1,
        "id": "opart-test",
        "title": "test battlefield",
        "ruleset": "opart",
        "turns": 12,
        "map": {
            "layout": {"orientation": "flat", "size": 2, "unit": "km"},
            "cols": cols,
            "rows": rows,
            "terrain": {"default": "open", "hexes": dict(terrain or {})},
            "features": list(features),
            "edges": [{"type": "road", "hexes": list(r)} for r in roads],
        },
        "sides": {
            "axis": {"title": "German", "color": "#55624f"},
            "soviet": {"title": "Soviet", "color": "#9c3b2b"},
        },
        "catalogs": [CATALOG],
        "units": spec_units,
        "options": dict(options or {}),
        "rules": {
            "home_edges": {"axis": "north", "soviet": "south"},
            "facing": {"axis": "S", "soviet": "N"},
            **dict(rules or {}),
        },
    }
    game = owsnb.load(load_scenario(spec, base=SCENARIOS), seed=seed, save=False)
    return activate(game, card) if card else game


def activate(game: Game, fid: str) -> Game:
    """A new game whose face-up card is *fid* (the rest of the pack as it was)."""
    s = game.state
    deck = [f for f in s.secret.get("deck", ()) if f != fid]
    s = s.evolve(
        public={**s.public, "card": fid, "turned": [fid]}, secret={**s.secret, "deck": deck}
    )
    ph, st = RULESET.current(s)
    s = replace(s, clock=RULESET.clock_for(s, ph, st, s.clock.turn))
    return Game(RULESET, s)


def with_state(game: Game, **public: Any) -> Game:
    """A new game whose public facts are changed (morale, engagements...)."""
    s = game.state
    return Game(RULESET, s.evolve(public={**s.public, **public}))


def place(game: Game, **where: str) -> Game:
    """A new game with stands moved (``place(g, **{"S-1": "0505"})``)."""
    from owsnb.kernel.events import unit_move

    s = apply_all(
        game.state, [unit_move(uid, game.state.map.hex(lab)) for uid, lab in where.items()]
    )
    return Game(RULESET, replace(s, seq=0))


def facing(game: Game, **faces: str) -> Game:
    """A new game with stands facing the given compass points."""
    from owsnb.kernel.events import unit_set
    from owsnb.rules.opart.terrain import parse_direction

    s = apply_all(
        game.state,
        [unit_set(uid, data={"facing": parse_direction(f, "flat")}) for uid, f in faces.items()],
    )
    return Game(RULESET, replace(s, seq=0))


def adjudicate(game: Game, order: str, dice: Any) -> tuple[Any, Any]:
    """Validate and adjudicate *order* with scripted *dice*; returns (new state, result)."""
    from owsnb.kernel import Order

    o = Order.parse(order)
    args = RULESET.check(game.state, o)
    adj = RULESET.adjudicate(game.state, o, args, dice)
    return apply_all(game.state, [*dice.take_events(), *adj.events]), adj.result


@pytest.fixture
def kalinovka() -> Game:
    return owsnb.load("opart-kalinovka", seed=1943, save=False)
