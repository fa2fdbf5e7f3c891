"""Game positions the widget tests start from."""

from __future__ import annotations

from typing import Any


def spot_next_to_red(game: Any, unit: str = "B-REC-1") -> str:
    """A hex in *unit*'s reach next to a red unit (the umpire's knowledge, for set-ups)."""
    reach = game.ruleset.presentation.reach(game.view("blue"), unit)
    red = [u.hex for u in game.state.units.values() if u.side == "red"]
    return game.map.label(next(h for h in reach if any(h.distance(r) == 1 for r in red)))


def to_fire_with_contact(game: Any) -> str:
    """Play to turn 2's Fire step with blue's recon next to a red unit it has detected (S4).
    Returns the id of the detected red unit."""
    game.submit(f"blue: move B-REC-1 {spot_next_to_red(game)}")
    for order in ("blue: done", "red: done", "blue: done", "red: done", "blue: done", "red: done"):
        game.submit(order)
    assert (game.clock.turn, game.clock.phase) == (2, "2")
    rec = game.unit("B-REC-1")
    return next(
        u.id
        for u in game.view("blue").units.values()
        if u.side == "red" and u.hex.distance(rec.hex) == 1
    )


def counter(mapview: Any, unit_id: str) -> Any:
    """The marker whose stack holds *unit_id*."""
    import re

    for m in mapview.units.layers:
        found = re.search(r"data-units='([^']*)'", m.icon.html)
        if found and unit_id in found.group(1).split():
            return m
    raise KeyError(f"no counter for {unit_id} on the map")
