"""``greedy``: the best-looking order now, by the rule set's exact previews.

Every candidate order (:mod:`owsnb.bots.candidates`) is scored on the side's view:

    score = order_value(view, order, preview)      # the rule set's evaluation of its exact preview
          + APPROACH * approach(view, order, goals)  # time-distance toward objectives and threats

where ``preview`` is the rule set's own exact outcome distribution (``ruleset.preview(view,
order)``, what ``game.preview`` shows a player) and ``order_value`` turns it into points
(expected enemy losses, own risk, objectives, victory standing: the rule set's
``evaluation.py``). The best order scoring above ``threshold`` that is legal (``order in legal``,
asked best first) is given; otherwise the bot passes. An order is never repeated within a step,
and at most ``max_per_step`` orders are given in one step.

Options: ``threshold`` (the least score worth an order), ``per_spec`` (candidates per order
spec), ``max_per_step``, and ``budget`` — the seconds it spends scoring (default 0.2; the
candidates scored by then decide; ``None`` scores them all, whatever it takes: a rule set whose
exact previews are slow, such as Operational Scale's engagement forecasts, then takes longer).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from owsnb.bots.candidates import candidate_orders
from owsnb.bots.evaluate import approach, evaluation_for
from owsnb.bots.policy import Budget, Policy
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.view import SideView

__all__ = ["GreedyPolicy", "score_orders"]


def score_orders(
    ruleset: Any,
    view: SideView,
    orders: list[Order],
    *,
    budget: Budget | None = None,
    stats: dict[str, Any] | None = None,
) -> list[tuple[float, Order]]:
    """``(score, order)`` for each order (best first; ties keep the given order). A preview or
    evaluation that fails scores the order out (counted in ``stats["errors"]``)."""
    ev = evaluation_for(ruleset)
    goals = ev.goals(view)
    out: list[tuple[float, int, Order]] = []
    for i, order in enumerate(orders):
        if budget is not None and budget.expired() and out:
            break
        try:
            preview = ruleset.preview(view, order)
            score = float(ev.order_value(view, order, preview))
            score += ev.approach_weight * approach(ruleset, view, order, goals)
        except IllegalOrderError:  # not legal on this view: left out
            continue
        except Exception:  # noqa: BLE001 - a bot never crashes a game; the order is left out
            if stats is not None:
                stats["errors"] = stats.get("errors", 0) + 1
            continue
        if stats is not None:
            stats["previews"] = stats.get("previews", 0) + 1
        out.append((score, i, order))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(s, o) for s, _, o in out]


class GreedyPolicy(Policy):
    """Scores every candidate order with the rule set's previews; gives the best legal one."""

    name = "greedy"
    defaults = {"threshold": 0.01, "per_spec": 48, "max_per_step": 40, "budget": 0.2}

    def __init__(self, **options: Any):
        super().__init__(**options)
        self._step: tuple[Any, ...] = ()
        self._given: set[str] = set()

    def choose(
        self, view: SideView, legal: LegalOrders, rng: np.random.Generator, budget: Budget
    ) -> Order | None:
        ranked = self.rank(view, legal, rng, budget)
        for score, order in ranked:
            if score <= self.settings["threshold"]:
                break
            if order in legal:
                self._given.add(str(order))
                return order
        return None

    def rank(
        self, view: SideView, legal: LegalOrders, rng: np.random.Generator, budget: Budget
    ) -> list[tuple[float, Order]]:
        """The candidate orders not yet given this step, scored best first (unchecked)."""
        c = view.clock  # a step, as the players see it: an activation card is a step of its own
        step = (c.turn, c.phase, c.step, c.step_title, c.active)
        if step != self._step:
            self._step, self._given = step, set()
        if len(self._given) >= int(self.settings["max_per_step"]):
            return []
        ruleset = get_ruleset(view.ruleset)
        own = self.settings["budget"]
        if own is not None and (budget.seconds is None or own < budget.left):
            budget = Budget(float(own))
        orders = [
            o
            for o in candidate_orders(
                legal, rng, per_spec=int(self.settings["per_spec"]), view=view
            )
            if str(o) not in self._given
        ]
        return score_orders(ruleset, view, orders, budget=budget, stats=self.stats)
