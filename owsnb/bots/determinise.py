"""Determinisation: a playable game state built from one side's view plus a sample of what it
cannot see — written once for every rule set.

The side's :class:`~owsnb.kernel.view.SideView` holds its own units and facts in full, enemy
units as far as detected (or face down), public facts as the rule set shows them, and no
secrets and no dice. :func:`determinise` fills the gaps from the side's generator only:

* the rule set's ``evaluation.sample_hidden(view, rng)`` says what to add (hidden units, the
  face-down counters' true values, other sides' private facts, the umpire's secrets — each a
  plausible guess drawn from the view alone; nothing by default);
* the **dice to come** are a fresh stream seeded from the generator;
* the umpire's salt is a fresh one (face-down counters keep the aliases the view shows).

The result is a :class:`~owsnb.kernel.state.GameState` for a :class:`~owsnb.kernel.game.Game`
that lives only in the bot's head: it never touches the real game, and — built from the view —
it holds nothing of the truth that the side does not know.

>>> import owsnb, numpy as np
>>> from owsnb.kernel.registry import register_ruleset
>>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
>>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
>>> game = owsnb.load(SCENARIO, seed=11, save=False)
>>> world = determinise(game.view("red"), np.random.default_rng(0))
>>> sorted(world.units) == sorted(game.view("red").units), world.secret["salt"] != game.state.secret["salt"]
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from owsnb.bots.evaluate import evaluation_for
from owsnb.bots.policy import check_view
from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.dice import rng_state_for_seed
from owsnb.kernel.game import Game
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import GameState, Unit
from owsnb.kernel.view import SideView

__all__ = ["determinise", "world", "neutral"]


def determinise(
    view: SideView, rng: np.random.Generator, hidden: Mapping[str, Any] | None = None
) -> GameState:
    """A playable state consistent with *view*, its unknowns drawn with *rng*.

    Args:
        view: a side's view (``TypeError`` for the truth or the umpire's view).
        rng: the bot's generator (the only source of the sample).
        hidden: what to add, as ``sample_hidden`` returns it (default: ask the rule set):
            ``units`` (units to add, or to replace the view's face-down counters of the same
            id), ``private`` (side -> private facts of other sides; default: :func:`neutral`
            of one's own), ``secret`` (the umpire's facts) and ``public`` (public facts to
            merge).
    """
    view = check_view(view)
    ruleset = get_ruleset(view.ruleset)
    if hidden is None:
        hidden = evaluation_for(ruleset).sample_hidden(view, rng) or {}
    units: dict[str, Unit] = dict(view.units)
    for u in hidden.get("units", ()):
        units[u.id] = u
    private = hidden.get("private", {})
    own = view.sides[view.side].private
    sides = {
        name: s
        if name == view.side
        else replace(s, private=freeze(dict(private.get(name, neutral(own)))))
        for name, s in view.sides.items()
    }
    secret = {
        "salt": f"determinised-{int(rng.integers(2**62))}",
        **dict(hidden.get("secret", {})),
    }
    public = dict(view.public)
    public.update(hidden.get("public", {}))
    return GameState(
        ruleset=view.ruleset,
        map=view.map,
        sides=FrozenDict(sides),
        units=FrozenDict(units),
        clock=view.clock,
        options=view.options,
        scenario=view.scenario,
        public=freeze(public),
        secret=freeze(secret),
        tables=view.tables,
        rng=rng_state_for_seed(int(rng.integers(2**62))),
        seq=view.seq,
    )


def neutral(value: Any) -> Any:
    """An empty value of the same shape: the other sides' private facts when the rule set does
    not sample them (same keys as one's own, nothing in them: no cards, no money, no plans).

    >>> neutral({"hand": ("c1", "c2"), "currency": 7, "plan": {"a": 1}, "name": "x"})
    {'hand': (), 'currency': 0, 'plan': {'a': 0}, 'name': ''}
    """
    if isinstance(value, Mapping):
        return {k: neutral(v) for k, v in value.items()}
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return type(value)(0)
    if isinstance(value, str):
        return ""
    if isinstance(value, (list, tuple, set, frozenset)):
        return type(value)()
    return None


def world(view: SideView, rng: np.random.Generator) -> Game:
    """An in-memory :class:`Game` over :func:`determinise` (no store, no history): fork it, play
    it, throw it away."""
    state = determinise(view, rng)
    return Game(get_ruleset(view.ruleset), state, meta={"determinised_for": view.side})
