"""Helpers for the TOCS tests: a small board, scripted dice, quick state surgery."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

import owsnb
import owsnb.kernel.game as kgame
from owsnb.kernel.events import hex_set, side_set, state_set, unit_set
from owsnb.scenario.loader import load_scenario
from owsnb.testing import fixed_dice

DATA = Path(__file__).parent / "data"


def board(
    units: Iterable[dict] | None = None,
    *,
    extra_units: Iterable[dict] = (),
    rules: dict | None = None,
    options: dict | None = None,
    seed: int = 7,
    **top: Any,
) -> Any:
    """A game on the 12x10 test board (allied owns columns 01-05)."""
    spec = yaml.safe_load((DATA / "tocs-test.yaml").read_text())
    if units is not None:
        spec["units"] = list(units)
    spec["units"] += list(extra_units)
    ids = {u["id"] for u in spec["units"]}
    for u in spec["units"]:  # test units report to their side's test HQ unless told otherwise
        hq = {"allied": "A-HQ", "german": "G-HQ"}[u["side"]]
        if (
            "hq" not in u["type"]
            and "flight" not in u["type"]
            and "parent" not in u.get("data", {})
        ):
            u.setdefault("data", {})
            u["data"]["parent" if hq in ids else "independent"] = hq if hq in ids else True
    if rules:
        for k, v in rules.items():
            spec["rules"][k] = v
    if options:
        spec["options"] = options
    spec.update(top)
    return owsnb.load(load_scenario(spec, base=DATA), seed=seed, save=False)


@contextmanager
def scripted(results: list[int]):
    """Every submission inside uses these die results, in order (all must be used)."""
    made = []

    def factory(state: Any = None, **kw: Any) -> Any:
        d = fixed_dice(made_results, **kw)
        made.append(d)
        return d

    made_results = list(results)
    old = kgame.Dice
    kgame.Dice = factory
    try:
        yield made
    finally:
        kgame.Dice = old
    left = made[-1].remaining if made else results
    assert not left, f"scripted dice not all used: {left}"


def submit(game: Any, text: str, dice: list[int] | None = None) -> Any:
    if dice is None:
        return game.submit(text)
    with scripted(dice):
        return game.submit(text)


def poke(game: Any, *events: Any) -> None:
    """Set up a position directly (test surgery through ordinary kernel events)."""
    from owsnb.kernel.orders import Order

    game._commit(Order("umpire", "advance"), list(events), None)


def set_unit(game: Any, uid: str, **changes: Any) -> None:
    """Change a unit; like any change to a unit, only its own side sees it (the view policy)."""
    poke(game, unit_set(uid, visible_to=game.state.units[uid].side, **changes))


def set_data(game: Any, uid: str, **data: Any) -> None:
    poke(game, unit_set(uid, visible_to=game.state.units[uid].side, data=data))


def set_owner(game: Any, label: str, side: str) -> None:
    poke(game, hex_set(game.hex(label), {"owner": side}))


def set_public(game: Any, **changes: Any) -> None:
    poke(game, state_set("public", changes))


def set_private(game: Any, side: str, **changes: Any) -> None:
    poke(game, side_set(side, "private", changes))


def lab(game: Any, uid: str) -> str:
    return game.state.map.label(game.unit(uid).hex)


def begin(game: Any, side: str = "allied", op_roll: int = 5, cloud: int = 1) -> None:
    """The phasing side begins its impulse by day: cloud d10 (1 = clear), then the OP d10."""
    submit(game, f"{side}: begin", [cloud, op_roll])


@pytest.fixture
def game() -> Any:
    return board()
