"""Random play-outs: the conformance test every rule set runs (after OpenSpiel's random_sim_test).

Random legal orders are played for a number of orders or until the game ends; after each commit
the invariants are checked (no negative steps, steps within bounds, units on the map or in a box,
the clock's actors are sides), every side's view is scanned for units it has never detected, and
at the end the history is replayed from the initial state to the same final state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.game import Game
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.reduce import apply
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.surface import GameSurface
from owsnb.testing.leaks import find_leaks, hidden_tokens, numbering

__all__ = ["random_playout", "random_order", "PlayoutReport"]


@dataclass
class PlayoutReport:
    """What a play-out did."""

    orders: list[str] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)  # the game's event count after each order
    refused: list[str] = field(default_factory=list)
    turns: int = 0
    over: bool = False

    def __repr__(self) -> str:
        return (
            f"<PlayoutReport {len(self.orders)} orders, {len(self.refused)} refused, turns {self.turns}, "
            f"over={self.over}>"
        )


def _check_invariants(game: Game) -> None:
    s = game.state
    for u in s.units.values():
        if u.steps < 0:
            raise AssertionError(f"{u.id} has negative steps ({u.steps}) after event {s.seq}")
        if u.steps > u.max_steps:
            raise AssertionError(f"{u.id} has {u.steps} steps, more than its {u.max_steps}")
        if u.hex is not None and u.hex not in s.map.hexes:
            raise AssertionError(f"{u.id} is off the map at {u.hex}")
        if u.side not in s.sides:
            raise AssertionError(f"{u.id} belongs to unknown side {u.side!r}")
    for a in s.clock.active:
        if a not in s.sides and a != UMPIRE:
            raise AssertionError(f"clock names unknown actor {a!r}")


def _check_views(game: Game, known: dict[str, set[str]] | None = None) -> None:
    """Scan every side's view for units it has not detected. A unit a side has seen before
    (tracked in *known*, side -> ids) is no secret any more: its id in old events is no leak."""
    for side in game.state.sides:
        view = game.view(side)
        seen = known.setdefault(side, set()) if known is not None else set()
        seen.update(view.units)
        tokens: set[Any] = set(hidden_tokens(game.state, side, game.ruleset) - seen)
        tokens -= {game.state.units[u].name for u in seen if u in game.state.units}
        tokens.add(numbering(game, side))  # counts of what it may not see are leaks too
        payload = {
            "units": [[u.id, u.name, u.kind, dict(u.data)] for u in view.units.values()],
            "events": [
                [e.kind, dict(e.data), {"seq": e.seq, "batch": e.batch}] for e in view.events
            ],
            "sides": {n: [dict(x.public), dict(x.private)] for n, x in view.sides.items()},
            "public": dict(view.public),
            "seq": view.seq,
            "state_id": game.revision(side),
        }
        leaks = find_leaks(payload, tokens)
        if leaks:
            raise AssertionError(f"{side}'s view leaks hidden units: {leaks[:5]}")
        if view.secret:
            raise AssertionError(f"{side}'s view carries the umpire's secrets")


def random_order(
    game: GameSurface, rng: np.random.Generator, pass_weight: float = 0.15
) -> Order | str:
    """The random policy of play-outs: one of the sides that act now (drawn with *rng*) gives a
    random legal order other than ``done`` (``LegalOrders.sample``), or — with probability
    *pass_weight*, or when it has nothing else — says ``done``; when nobody acts the umpire
    advances.

    Example:
        >>> from owsnb.rules.skirmish import example
        >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
        >>> str(random_order(game, np.random.default_rng(2)))
        'blue: move B-ARM-1 0304'
    """
    acting = list(game.state.clock.acting)
    if not acting:
        return "umpire: advance"
    side = acting[int(rng.integers(len(acting)))]
    legal = game.legal_orders(side)
    others = [s for s in legal.specs if s.verb != "done"]
    order = None
    if others and rng.random() > pass_weight:
        order = LegalOrders(side, tuple(others), legal._check).sample(rng)
    return f"{side}: done" if order is None else order


def random_playout(
    game: Game,
    *,
    max_orders: int = 300,
    seed: int = 0,
    check_views: bool = True,
    pass_weight: float = 0.15,
    extra_checks: Iterable[Callable[[Any], None]] = (),
) -> PlayoutReport:
    """Play random legal orders on *game* (mutating it) and check it stays sound.

    Args:
        game: a :class:`~owsnb.kernel.game.Game` (in memory is fine).
        max_orders: stop after this many committed orders.
        seed: seeds the choice of orders (the game's own dice are the game's).
        check_views: scan every side's view for hidden units after each order.
        pass_weight: probability of choosing ``done`` when other orders are available.
        extra_checks: callables ``check(game)`` that raise ``AssertionError``.

    Raises:
        AssertionError: an invariant failed, a view leaked, a legal order was refused with an
            unexpected error, or replay diverged.
    """
    rng = np.random.default_rng(seed)
    report = PlayoutReport()
    checks = list(extra_checks)
    known: dict[str, set[str]] = {}
    stuck = 0
    while len(report.orders) < max_orders and not game.is_over():
        order = random_order(game, rng, pass_weight)
        try:
            game.submit(order)
        except IllegalOrderError as exc:
            report.refused.append(f"{order}: {exc}")
            stuck += 1
            if stuck > 50:
                raise AssertionError(f"50 refusals in a row; last: {order}: {exc}") from exc
            continue
        stuck = 0
        report.orders.append(str(order))
        report.marks.append(game.seq)
        _check_invariants(game)
        if check_views:
            _check_views(game, known)
        for c in checks:
            c(game)
    report.turns = game.state.clock.turn
    report.over = game.is_over()
    # replay from scratch must give the same state
    s = game.initial
    for e in game.events:
        s = apply(s, e, game.ruleset.reducers)
    if s != game.state:
        raise AssertionError("replaying the history from the initial state gives a different state")
    return report
