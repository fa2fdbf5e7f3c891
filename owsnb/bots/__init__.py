"""Opponents that play a side from that side's view only — for a student alone at a seat and as
the sides of a research sweep.

A bot is a :class:`Policy`: given its side's :class:`~owsnb.kernel.view.SideView` (never the
truth), its legal orders and a seeded generator, it returns an order or passes. Bots are named
and registered like rule sets, options as data:

* ``random`` — random legal orders (the sweeps' ``"random"`` plan);
* ``greedy`` — the best order now by the rule set's exact previews and its evaluation module
  (``owsnb/rules/<name>/evaluation.py``: expected losses, own risk, objectives, standing,
  time-distance toward goals);
* ``search`` — information-set Monte Carlo tree search: a time-budgeted lookahead over
  determinised samples of what the side cannot see, drawn from its view alone.

A :class:`Bot` seats a policy on a side with a seed and a time budget per order and plays it
through the ``Game`` API only — a local game or a remote seat (``owsnb.connect``) — passing
safely when the policy is late, fails or is refused (:mod:`owsnb.bots.runner`); an
:class:`Autopilot` plays a side in the background whenever it is to act (for pages).

>>> import owsnb.bots
>>> owsnb.bots.names()
['greedy', 'paired', 'random', 'search']
>>> owsnb.bots.get("search", budget=0.2)
<bot search(budget=0.2)>
"""

from owsnb.bots.policy import Budget, Pace, Policy, check_view
from owsnb.bots.registry import get, names, register, spec_of
from owsnb.bots.runner import Autopilot, Bot, PlayReport, play, run_seat, safe_pass

__all__ = [
    "Autopilot",
    "Bot",
    "Budget",
    "Pace",
    "PlayReport",
    "Policy",
    "check_view",
    "get",
    "names",
    "play",
    "register",
    "run_seat",
    "safe_pass",
    "spec_of",
]
