"""The policy interface: what a bot is given and what it returns.

A **policy** plays one side. For each order it is asked for, it gets

* that side's :class:`~owsnb.kernel.view.SideView` — never the truth (a ``GameState``) and never
  the umpire's view: :meth:`Policy.decide` refuses both with ``TypeError``;
* the side's :class:`~owsnb.kernel.orders.LegalOrders` (``order in legal`` asks the game — the
  authority, remotely — exactly as a player's order panel does);
* a seeded ``numpy.random.Generator`` (its only source of chance);
* a :class:`Budget`: the wall-clock time it may think.

and returns an :class:`~owsnb.kernel.orders.Order`, or ``None`` to pass (the runner then says
``done``, or the least answer a rule demands). Policies are named and registered
(:mod:`owsnb.bots.registry`); their options are plain data (``get("search", budget=0.5)``).

Example (a policy of one's own):

>>> import numpy as np
>>> class FirstExample(Policy):
...     name = "first-example"
...     def choose(self, view, legal, rng, budget):
...         return next((s.examples[0] for s in legal if s.examples and s.verb != "done"), None)
>>> FirstExample().options
{}
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.view import SideView

__all__ = ["Policy", "Budget", "Pace", "check_view"]


_CLOCKS = {"wall": time.monotonic, "cpu": time.thread_time}


@dataclass
class Budget:
    """The time a policy may take for one order: ``seconds`` from ``start`` (``None``: no limit),
    on the ``"wall"`` clock (what a player waits) or the ``"cpu"`` clock (the thinking the
    calling thread does: a measure of effort that does not shrink on a busy machine; a cpu
    budget is only meaningful in the thread that made it).

    Policies check :meth:`expired` (or :attr:`left`) between units of work; the runner enforces
    its wall-clock budget anyway (after ``seconds`` plus a grace it passes safely, see
    :mod:`owsnb.bots.runner`).

    >>> b = Budget(0.0)
    >>> b.expired()
    True
    >>> Budget(None).left, Budget(1.0, clock="cpu").expired()
    (inf, False)
    """

    seconds: float | None = None
    clock: str = "wall"
    start: float = -1.0

    def __post_init__(self) -> None:
        if self.clock not in _CLOCKS:
            raise ValueError(f"a budget's clock is 'wall' or 'cpu', not {self.clock!r}")
        if self.start < 0:
            self.start = self.now()

    def now(self) -> float:
        return _CLOCKS[self.clock]()

    @property
    def elapsed(self) -> float:
        return self.now() - self.start

    @property
    def deadline(self) -> float:
        return float("inf") if self.seconds is None else self.start + self.seconds

    @property
    def left(self) -> float:
        return self.deadline - self.now()

    def expired(self) -> bool:
        return self.now() >= self.deadline

    def fraction(self, part: float) -> Budget:
        """A budget for *part* (0..1) of what is left (e.g. a pre-pass before the main search)."""
        left = self.left
        return Budget(None if left == float("inf") else max(0.0, left * part), self.clock)


class Pace:
    """Rounds of work (a search's iterations) under several budgets at once: is there room for
    another? Not when one has expired, nor when the next round — as long as the mean round so
    far — would likely end past one of them (a decision is not late for its last round).

    >>> pace = Pace(Budget(None), Budget(60.0))
    >>> pace.another(0), pace.another(10)
    (True, True)
    >>> Pace(Budget(0.0)).another(0)
    False
    >>> b = Budget(1.0)
    >>> pace = Pace(b)
    >>> b.start -= 0.6  # one round took 0.6 s: the 0.4 s left are too little for another
    >>> pace.another(1), pace.another(2)
    (False, True)
    """

    def __init__(self, *budgets: Budget):
        self.budgets = budgets
        self._marks = [b.elapsed for b in budgets]

    def another(self, done: int) -> bool:
        """Room for one more round after *done* rounds since this pace was made?"""
        if any(b.expired() for b in self.budgets):
            return False
        return not done or all(
            b.left >= (b.elapsed - mark) / done
            for b, mark in zip(self.budgets, self._marks, strict=True)
        )


def check_view(view: Any) -> SideView:
    """*view* if it is a side's view; ``TypeError`` for the truth or the umpire's view.

    >>> check_view("the truth")
    Traceback (most recent call last):
    ...
    TypeError: a bot is given its side's SideView, not str
    """
    if not isinstance(view, SideView):
        raise TypeError(f"a bot is given its side's SideView, not {type(view).__name__}")
    if view.is_umpire:
        raise TypeError("a bot is never given the umpire's view (the whole truth)")
    return view


class Policy:
    """Base class of bots. Subclasses set :attr:`name` and implement :meth:`choose`.

    Options are keyword arguments given to the constructor (plain data: numbers, text,
    booleans), kept in :attr:`options` so a bot can be described and rebuilt
    (``get(bot.name, **bot.options)``). A policy object plays one side of one game and may keep
    memory between its decisions (orders it gave this step...).
    """

    name: ClassVar[str] = ""
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, **options: Any):
        unknown = sorted(set(options) - set(self.defaults))
        if unknown:
            known = ", ".join(sorted(self.defaults)) or "none"
            raise TypeError(f"bot {self.name!r} has no option {unknown[0]!r}; options: {known}")
        self.options: dict[str, Any] = {k: options[k] for k in self.defaults if k in options}
        self.settings: dict[str, Any] = {**self.defaults, **options}
        self.stats: dict[str, Any] = {"decisions": 0, "errors": 0}

    def __repr__(self) -> str:
        return f"<bot {self.label}>"

    @property
    def label(self) -> str:
        """``name`` or ``name(option=value,...)``: how sweeps and benchmarks name this bot."""
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name}({opts})" if opts else self.name

    def decide(
        self,
        view: SideView,
        legal: LegalOrders,
        rng: np.random.Generator,
        budget: Budget | None = None,
    ) -> Order | None:
        """Check the inputs (a side's view only; ``legal`` is that side's), then :meth:`choose`."""
        view = check_view(view)
        if not isinstance(legal, LegalOrders):
            raise TypeError(f"legal orders are a LegalOrders, not {type(legal).__name__}")
        if legal.side != view.side:
            raise ValueError(f"legal orders of {legal.side} given with {view.side}'s view")
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"a bot's chance is a numpy Generator, not {type(rng).__name__}")
        self.stats["decisions"] += 1
        order = self.choose(view, legal, rng, budget or Budget())
        if order is not None and not isinstance(order, Order):
            order = Order.parse(str(order), side=view.side)
        return order

    def choose(
        self, view: SideView, legal: LegalOrders, rng: np.random.Generator, budget: Budget
    ) -> Order | None:
        """The order to give now, or ``None`` to pass."""
        raise NotImplementedError
