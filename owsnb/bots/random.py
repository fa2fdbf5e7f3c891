"""``random``: random legal orders (the sweeps' ``"random"`` plan is this bot).

With probability ``act`` (default 0.85) it gives a random legal order other than ``done`` — a
spec drawn at random, its parameters drawn from their candidates, kept if ``order in legal``
(up to 20 tries) — else it passes.
"""

from __future__ import annotations

import numpy as np

from owsnb.bots.policy import Budget, Policy
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.view import SideView

__all__ = ["RandomPolicy", "random_order"]


def random_order(
    legal: LegalOrders, rng: np.random.Generator, act: float = 0.85, tries: int = 20
) -> Order | None:
    """A random legal order of *legal* other than ``done`` with probability *act*, else ``None``."""
    others = [s for s in legal.specs if s.verb != "done"]
    if not others or rng.random() >= act:
        return None
    for _ in range(tries):
        spec = others[int(rng.integers(len(others)))]
        order = spec.sample(rng)
        if order is not None and order in legal:
            return order
    return None


class RandomPolicy(Policy):
    """Random legal orders; passes with probability ``1 - act``."""

    name = "random"
    defaults = {"act": 0.85}

    def choose(
        self, view: SideView, legal: LegalOrders, rng: np.random.Generator, budget: Budget
    ) -> Order | None:
        return random_order(legal, rng, float(self.settings["act"]))
