"""A rule set's evaluation, as bots use it: the rule set's own functions
(:meth:`owsnb.kernel.RuleSet.evaluation`, e.g. ``owsnb/rules/opart/evaluation.py``) with generic
defaults for what it does not say, plus the bots' generic time-distance term.

* ``standing(state, side)`` — default :func:`material`: own steps minus enemy steps in sight;
* ``order_value(view, order, preview)`` — default 0 (no opinion);
* ``goals(view)`` — default :func:`enemy_goals`: every enemy unit in sight, weight 1;
* ``sample_hidden(view, rng)`` — default ``{}`` (nothing hidden is sampled);
* ``candidates(view, legal, rng)`` — default ``[]``: more orders worth scoring than the legal-order
  specs list (a spec's examples are a few for a player's panel, e.g. OWS gives three
  destinations per ship; the rule set's evaluation may add the ones toward its goals);
* ``unit_weight(unit)`` — how much of the side's force a unit is, for the time-distance terms
  (default 1 per unit: a rule set whose units split — CombatOps' regiments into battalions,
  17.0 — weighs them by strength, so a split neither gains nor loses standing toward the goals);
* ``SCALE`` (default 4) and ``APPROACH`` (the weight of :func:`approach`, default 0.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order

__all__ = [
    "Evaluation",
    "evaluation_for",
    "material",
    "enemy_goals",
    "approach",
    "moved",
    "potential",
    "value",
]


def material(state: Any, side: str) -> float:
    """Own steps minus the steps of every enemy unit *state* shows (face-down counters: 1)."""
    own = sum(u.steps for u in state.units.values() if u.side == side and u.hex is not None)
    foe = sum(u.steps for u in state.units.values() if u.side != side and u.hex is not None)
    return float(own - foe)


def enemy_goals(view: Any) -> dict[Hex, float]:
    """Every enemy unit on the map the view shows, weight 1."""
    return {u.hex: 1.0 for u in view.units.values() if u.side != view.side and u.hex is not None}


def _no_value(view: Any, order: Order, preview: Any) -> float:
    return 0.0


def _nothing_hidden(view: Any, rng: Any) -> dict[str, Any]:
    return {}


def _no_candidates(view: Any, legal: Any, rng: Any) -> list[Order]:
    return []


def _one(unit: Any) -> float:
    return 1.0


class Evaluation:
    """The evaluation functions of one rule set, defaults filled in (see the module docstring)."""

    def __init__(self, ruleset: Any):
        src = ruleset.evaluation() if hasattr(ruleset, "evaluation") else None
        self.ruleset = ruleset
        self.source = src
        self.standing = getattr(src, "standing", material)
        self.order_value = getattr(src, "order_value", _no_value)
        self.goals = getattr(src, "goals", enemy_goals)
        self.sample_hidden = getattr(src, "sample_hidden", _nothing_hidden)
        self.candidates = getattr(src, "candidates", _no_candidates)
        self.unit_weight = getattr(src, "unit_weight", _one)
        self.scale = float(getattr(src, "SCALE", 4.0))
        self.approach_weight = float(getattr(src, "APPROACH", 0.5))

    def __repr__(self) -> str:
        where = getattr(self.source, "__name__", type(self.source).__name__)
        return f"<Evaluation {self.ruleset.name}: {where if self.source else 'generic'}>"


_CACHE: dict[int, Evaluation] = {}


def evaluation_for(ruleset: Any) -> Evaluation:
    """The (cached) :class:`Evaluation` of *ruleset*."""
    ev = _CACHE.get(id(ruleset))
    if ev is None or ev.ruleset is not ruleset:
        ev = _CACHE[id(ruleset)] = Evaluation(ruleset)
    return ev


def moved(ruleset: Any, view: Any, order: Order) -> tuple[Any, Hex] | None:
    """``(unit, destination hex)`` if *order* sends one of the view's units to a hex — its first
    ``unit`` parameter and its hex parameter named ``to``, the name every rule set gives a
    destination (``move``, ``enter``, ``deploy``, ``withdraw``...) — else ``None``. A hex named
    otherwise is a target, not a destination (``attack U HEX``, ``roadblock U HEX``,
    ``recon U HEX``: the unit stays where it is)."""
    ot = ruleset.order_types.get(order.verb)
    if ot is None:
        return None
    try:
        args = ot.bind(order)
    except OwsnbError:
        return None
    unit = dest = None
    for p in ot.params:
        v = args.get(p.name)
        if v is None or isinstance(v, tuple):
            continue
        if p.kind == "unit" and unit is None:
            unit = view.units.get(v)
        elif p.kind == "hex" and dest is None and p.name == "to":
            try:
                dest = view.map.hex(v)
            except (OwsnbError, KeyError, ValueError):
                return None
    if unit is None or dest is None or unit.side != view.side:
        return None
    return unit, dest


def _pull(h: Hex, goals: Mapping[Hex, float]) -> float:
    return sum(w / (1 + h.distance(g)) for g, w in goals.items())


def approach(ruleset: Any, view: Any, order: Order, goals: Mapping[Hex, float]) -> float:
    """How much closer *order* brings a unit to the view's goals (time-distance): the change of
    ``sum(weight / (1 + hexes to goal))`` from where the unit stands (nothing, if it is off the
    map) to where it is sent (negative weights repel: threats to keep away from). 0 if the order
    moves no unit."""
    m = moved(ruleset, view, order)
    if m is None or not goals:
        return 0.0
    unit, dest = m
    gain = _pull(dest, goals) - (_pull(unit.hex, goals) if unit.hex is not None else 0.0)
    return evaluation_for(ruleset).unit_weight(unit) * gain


def potential(view: Any, goals: Mapping[Hex, float], weight: Any = _one) -> float:
    """``sum(weight / (1 + hexes to goal))`` over the view's own units on the map, each counted
    by its *weight* (the rule set's ``unit_weight``): how well they stand toward its goals (a
    move changes it by exactly its :func:`approach`)."""
    return sum(
        weight(u) * _pull(u.hex, goals) for u in view.own_units if u.hex is not None and u.steps > 0
    )


def value(ruleset: Any, state: Any, side: str, goals: Mapping[Hex, float] | None = None) -> float:
    """What *state* is worth to *side*: its standing plus ``APPROACH`` times the
    :func:`potential` of its units toward its goals — the quantity whose expected change the
    greedy bot's score estimates and the search bot's rewards measure. *state* is a side's view
    or a (determinised) truth, cut to *side*'s view. Give *goals* to hold them fixed (a search
    compares states against the goals it started from: an enemy that walks up to one's units
    must not count as one's progress toward it)."""
    from owsnb.kernel.view import SideView, side_view

    ev = evaluation_for(ruleset)
    view = state if isinstance(state, SideView) and state.side == side else None
    if view is None:
        view = side_view(state, side, ruleset)
    if goals is None:
        goals = ev.goals(view)
    return float(ev.standing(state, side)) + ev.approach_weight * potential(
        view, goals, ev.unit_weight
    )
