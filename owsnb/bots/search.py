"""``search``: information-set Monte Carlo tree search over determinised worlds, time-budgeted.

After Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search" (the single
observer variant), as OpenSpiel's ``ISMCTSBot`` (nodes shared across sampled worlds, one child
expanded per visit, UCB among the children a world allows, a pool of sampled worlds) and
boardgame.io's ``MCTSBot`` (select, expand, play out, back up; the most promising child wins):

1. **Root actions**: the side's own candidate orders on its real view, ranked by the ``greedy``
   bot's scores (the rule set's exact previews), the best ``width`` distinct legal ones plus
   *pass*. Each greedy score is also the child's **prior** (worth ``prior`` visits): with little
   time the search plays what greedy plays, with more the simulations take over.
2. **Worlds**: each iteration takes a playable state drawn from the view alone
   (:func:`owsnb.bots.determinise.determinise`: hidden units, face-down values, other sides'
   private facts and secrets sampled by the rule set's ``sample_hidden``); up to ``worlds`` are
   drawn and reused in turn, and **the dice to come are drawn afresh every iteration**. A fresh
   in-memory ``Game`` over the world is the iteration's fork.
3. **Selection / expansion**: untried actions first (in greedy order), then UCB1 for the side
   acting at the node; an action the world refuses is skipped there. Below the root, a new
   node's actions are the acting side's best ``width`` orders by greedy scores on *its* view of
   the world, plus pass; with ``replies`` the other sides' answers are searched too (else the
   tree stops where the searching side's turn to act ends).
4. **Evaluation at one point of play** (``judge``): a line the tree leaves (after ``depth``
   orders, or a new node) is played on — every side passing — to the point every line is
   judged at: past the root's step, with the searching side to act again (or the game over);
   the tree itself stops there.
   A pass ends the step and lets in what its end sets off (the others' steps, combat,
   automatic steps acting on sampled hidden units); judged after ``depth`` orders instead, an
   order that merely keeps the step open would hide all that beyond the horizon and look
   better or worse than the pass for it (the horizon effect: ``tests/bots/test_search.py``).
   Then optionally ``horizon`` random submissions (probability ``act`` of an order), then each
   side's :func:`owsnb.bots.evaluate.value` — its victory standing plus how its units
   stand toward its goals (the goals it had when the iteration began). For the searching
   side's own orders the sampled immediate effect is replaced by its exact expectation (the
   greedy score from the previews; nothing for a pass: a control variate), so only what follows
   is sampled.
5. **Backpropagation**: each side's reward ``tanh((value - value at the root) / SCALE)`` is added
   to the nodes where that side chose.

The order played is the root child with the best mean (prior included). Everything happens on
worlds built from the view: the search is given the view, never the truth (``Policy.decide``
checks it), and two games whose truths differ only in what the side cannot know give it the
same worlds (``tests/bots/test_noninterference.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from owsnb.bots.candidates import candidate_orders
from owsnb.bots.determinise import determinise
from owsnb.bots.evaluate import evaluation_for, value
from owsnb.bots.greedy import score_orders
from owsnb.bots.policy import Budget, Pace, Policy
from owsnb.bots.random import random_order
from owsnb.bots.runner import safe_pass
from owsnb.kernel.dice import rng_state_for_seed
from owsnb.kernel.errors import IllegalOrderError, OwsnbError
from owsnb.kernel.game import Game
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import UMPIRE, GameState
from owsnb.kernel.view import SideView, side_view

__all__ = ["SearchPolicy", "Node", "greedy_choice", "root_orders"]

PASS = "pass"


@dataclass
class Node:
    """A node of the search tree: the side acting there and its children by action text."""

    actor: str
    actions: list[Any] = field(default_factory=list)  # Order or PASS, in expansion order
    children: dict[str, Node] = field(default_factory=dict)
    visits: int = 0
    value: float = 0.0  # sum of rewards of the side acting in the *parent*
    prior: float = 0.0  # the greedy bot's opinion (root children), worth ``weight`` visits
    weight: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)  # greedy score of each action

    def mean(self) -> float:
        n = self.visits + self.weight
        return (self.value + self.weight * self.prior) / n if n else 0.0


def _key(action: Any) -> str:
    return PASS if action == PASS else str(action)


class SearchPolicy(Policy):
    """Information-set MCTS over determinised worlds (see the module docstring).

    Options: ``budget`` (seconds per order, default 1; ``None``: no clock) on ``clock``
    (``"wall"``, what a player waits; ``"cpu"``, this thread's thinking time, the same on a busy
    machine as on an idle one — benchmarks use it), ``iterations``
    (a fixed number instead — reproducible whatever the machine; 0: as many as the budget
    allows), ``width`` (actions per node), ``worlds`` (sampled worlds kept), ``horizon`` and
    ``act`` (random play-out after the tree, default none), ``c`` (UCB1 exploration), ``prior``
    (visits the greedy score is worth), ``replies`` (search the other sides' answers) and
    ``depth`` (orders deep at most, both sides counted) and ``judge`` (play every line on to
    one point of the sequence of play before judging it; ``False``: judge it where the tree
    leaves it).
    """

    name = "search"
    defaults = {
        "budget": 1.0,
        "iterations": 0,
        "width": 6,
        "worlds": 8,
        "horizon": 0,
        "act": 0.5,
        "c": 0.7,
        "prior": 8.0,
        "clock": "wall",
        "replies": True,
        "depth": 4,
        "judge": True,
    }

    def __init__(self, **options: Any):
        super().__init__(**options)
        self._greedy: Any = None
        self.last: dict[str, Any] = {}

    def choose(
        self, view: SideView, legal: LegalOrders, rng: np.random.Generator, budget: Budget
    ) -> Order | None:
        from owsnb.bots.greedy import GreedyPolicy

        s = self.settings
        own = Budget(s["budget"], clock=s["clock"])
        if self._greedy is None:
            self._greedy = GreedyPolicy(budget=None)
        ranked = root_orders(self._greedy, view, legal, rng, own, budget, s["width"])
        threshold = float(self._greedy.settings["threshold"])
        roots: list[tuple[Any, float]] = [(order, score) for score, order in ranked]
        roots.append((PASS, threshold))
        self.last = {"roots": len(roots), "iterations": 0, "worlds": 0, "failed": 0}
        if len(roots) == 1:
            return None
        chosen = self._search(view, roots, greedy_choice(ranked, threshold), rng, own, budget)
        if chosen != PASS:
            self._greedy._given.add(str(chosen))
        return None if chosen == PASS else chosen

    # -- the search ----------------------------------------------------------------------------
    def _search(
        self,
        view: SideView,
        roots: list[tuple[Any, float]],
        default: int,
        rng: np.random.Generator,
        own: Budget,
        outer: Budget,
    ) -> Any:
        s = self.settings
        ruleset = get_ruleset(view.ruleset)
        ev = evaluation_for(ruleset)
        root = Node(view.side, [a for a, _ in roots])
        for a, score in roots:  # the greedy scores are the root's priors (progressive bias)
            root.children[_key(a)] = Node(
                "", prior=math.tanh(score / ev.scale), weight=float(s["prior"])
            )
            # passing is worth nothing by itself (what the step's end sets off in a sampled
            # world — automatic steps acting on guessed units — is not to the pass's credit)
            root.scores[_key(a)] = score if a != PASS else 0.0
        worlds: list[tuple[GameState, dict[str, Any]]] = []
        n_iter = int(s["iterations"] or 0)
        if not n_iter and own.seconds is None and outer.seconds is None:
            n_iter = 64  # neither a time nor a number of iterations: a modest fixed search
        i = 0
        pace = Pace(own, outer)
        while (not n_iter or i < n_iter) and pace.another(i):
            if len(worlds) < int(s["worlds"]):
                try:
                    w = determinise(view, rng)
                except Exception:  # noqa: BLE001 - a sample the rules cannot play is dropped
                    self.last["failed"] += 1
                    i += 1
                    continue
                worlds.append((w, {}))
            state, base = worlds[i % len(worlds)]
            # the dice to come are drawn afresh every iteration: chance is sampled, not fixed
            state = replace(state, rng=rng_state_for_seed(int(rng.integers(2**62))))
            try:
                self._iterate(ruleset, ev, root, state, base, rng)
            except Exception:  # noqa: BLE001 - a world the rules cannot play is skipped
                self.last["failed"] += 1
            i += 1
        self.last.update(iterations=i, worlds=len(worlds), visits=root.visits, root=root)
        self.stats["iterations"] = self.stats.get("iterations", 0) + i
        self.stats["failed"] = self.stats.get("failed", 0) + self.last["failed"]
        kids = [root.children[_key(a)] for a, _ in roots]
        best = max(range(len(roots)), key=lambda k: (kids[k].mean(), kids[k].visits, -k))
        # how often the search plays other than greedy would (*default*: greedy's choice; an
        # order greedy scores the same is no change)
        deviated = best != default and roots[best][1] != roots[default][1]
        self.stats["deviated"] = self.stats.get("deviated", 0) + deviated
        return roots[best][0]

    def _iterate(
        self,
        ruleset: Any,
        ev: Any,
        root: Node,
        state: GameState,
        base: dict[str, Any],
        rng: np.random.Generator,
    ) -> None:
        game = Game(ruleset, state)
        own = root.actor

        def aims(side: str) -> Any:
            """*side*'s goals as the iteration began (held fixed: see ``evaluate.value``)."""
            key = f"goals:{side}"
            if key not in base:
                base[key] = ev.goals(side_view(state, side, ruleset))
            return base[key]

        replies = bool(self.settings["replies"])
        depth = int(self.settings["depth"] or 10**6)
        path: list[tuple[Node, Node]] = []  # (parent, child)
        node = root
        expanded = False
        # control variate: the sampled immediate effect of each of the searching side's own
        # orders is replaced by its exact expectation (its greedy score, from the previews)
        exact = 0.0
        judge = bool(self.settings["judge"])
        start = _at(game.state.clock)
        while not expanded and len(path) < depth:
            actor = _actor(game)
            if actor is None or actor != node.actor or (actor != own and not replies):
                break
            if judge and path and _judged(game, start, own):
                break
            if not node.actions and node is not root:
                node.actions, node.scores = self._candidates(game, actor, rng)
            mine = actor == own and bool(node.scores)
            before = value(ruleset, game.state, own, aims(own)) if mine else None
            action, child = self._select(node, game, rng)
            if action is None:
                break
            if before is not None and _key(action) in node.scores:
                after = value(ruleset, game.state, own, aims(own))
                exact += node.scores[_key(action)] - (after - before)
            if child is None:
                child = node.children[_key(action)] = Node("")
            expanded = child.visits == 0
            path.append((node, child))
            nxt = _actor(game)
            child.actor = child.actor or (nxt or "")
            node = child
        if judge and path:  # (nothing to judge when the root's side was not to act first)
            _pass_to_judge(game, start, own)
        self._rollout(game, rng)
        rewards: dict[str, float] = {}
        for parent, child in path:
            side = parent.actor
            if side not in rewards:
                if side not in base:
                    base[side] = value(ruleset, state, side, aims(side))
                now = value(ruleset, game.state, side, aims(side))
                now += exact if side == own else 0.0
                rewards[side] = math.tanh((now - base[side]) / ev.scale)
            parent.visits += 1
            child.visits += 1
            child.value += rewards[side]

    def _select(self, node: Node, game: Game, rng: np.random.Generator) -> tuple[Any, Node | None]:
        """Apply the action chosen at *node* in *game*; return it and its child (``None``: new).
        Untried actions first (in the node's order: best greedy score first), then the tried
        ones by UCB1; an action this world refuses is skipped."""
        untried = [a for a in node.actions if _visits(node, a) == 0]
        tried = sorted(
            (a for a in node.actions if _visits(node, a) > 0),
            key=lambda a: -self._ucb(node, node.children[_key(a)]),
        )
        for action in untried + tried:
            if _apply(game, node.actor, action):
                return action, node.children.get(_key(action))
        return None, None

    def _ucb(self, node: Node, child: Node) -> float:
        if child.visits == 0:
            return float("inf")
        return child.mean() + self.settings["c"] * math.sqrt(
            math.log(max(node.visits, 1)) / child.visits
        )

    def _candidates(
        self, game: Game, actor: str, rng: np.random.Generator
    ) -> tuple[list[Any], dict[str, float]]:
        """The actions of a new node — *actor*'s best ``width`` candidate orders by the greedy
        scores on its view of this world (unchecked: a world may refuse one), and pass — and
        their scores."""
        ruleset = game.ruleset
        view = side_view(game.state, actor, ruleset)
        orders = candidate_orders(game.legal_orders(actor), rng, per_spec=16, view=view)
        ranked = score_orders(ruleset, view, orders)[: int(self.settings["width"])]
        return [*(o for _, o in ranked), PASS], {PASS: 0.0, **{str(o): sc for sc, o in ranked}}

    def _rollout(self, game: Game, rng: np.random.Generator) -> None:
        """``horizon`` more submissions: random legal orders (probability ``act``) or passes."""
        act = float(self.settings["act"])
        for _ in range(int(self.settings["horizon"])):
            actor = _actor(game)  # steps with nobody to act advance
            if actor is None:  # the game is over
                return
            order = random_order(game.legal_orders(actor), rng, act, tries=4)
            if order is not None:
                try:
                    game.submit(order)
                    continue
                except IllegalOrderError:
                    pass
            safe_pass(game, actor)


def root_orders(
    greedy: Any,
    view: SideView,
    legal: LegalOrders,
    rng: np.random.Generator,
    own: Budget,
    outer: Budget,
    width: int,
) -> list[tuple[float, Order]]:
    """A searching bot's root candidates: *greedy*'s ranking of the side's orders (at most a
    third of the time ranks them), the best *width* distinct legal ones — one variant of an
    order, optional params aside — best first, with their greedy scores."""
    if own.seconds is not None and outer.seconds is not None:
        think = Budget(min(own.seconds, outer.left) / 3)
    elif own.seconds is not None or outer.seconds is not None:
        think = Budget((own.seconds if own.seconds is not None else outer.left) / 3)
    else:
        think = Budget(None)
    roots: list[tuple[float, Order]] = []
    seen: set[tuple[str, ...]] = set()
    for score, order in greedy.rank(view, legal, rng, think):
        if len(roots) >= int(width):
            break
        what = (order.verb, *order.args)
        if what not in seen and order in legal:
            seen.add(what)
            roots.append((score, order))
    return roots


def greedy_choice(ranked: list[tuple[float, Order]], threshold: float) -> int:
    """Greedy's choice among a searching bot's root actions — the *ranked* orders
    (:func:`root_orders`), then the pass at index ``len(ranked)``: its best order when that
    scores above *threshold*, else the pass."""
    return 0 if ranked and ranked[0][0] > threshold else len(ranked)


def _at(clock: Any) -> tuple[Any, ...]:
    """Where the sequence of play stands: a step, as the players see it (an activation too)."""
    return (clock.turn, clock.phase, clock.step, clock.active)


def _judged(game: Game, start: tuple[Any, ...], side: str) -> bool:
    """Has play reached the point every line is judged at: past the step *start*, with *side*
    to act again (or the game over)?"""
    if game.is_over():
        return True
    return _at(game.state.clock) != start and side in game.state.clock.acting


def _pass_to_judge(game: Game, start: tuple[Any, ...], side: str, cap: int = 400) -> None:
    """Every side passes until the judging point (:func:`_judged`): a line the tree left early
    is judged where the others are — after the step's end and what it sets off (combat,
    automatic steps) — not before it (the horizon effect: an order that keeps the step open
    would otherwise hide the step's end, good or bad, that a pass lets in)."""
    for _ in range(cap):
        actor = _actor(game)
        if actor is None or _judged(game, start, side):
            return
        safe_pass(game, actor)


def _visits(node: Node, action: Any) -> int:
    child = node.children.get(_key(action))
    return child.visits if child is not None else 0


def _actor(game: Game) -> str | None:
    """The side to act first now (``None``: nobody — the umpire advances — or the game is over)."""
    if game.is_over():
        return None
    acting = game.state.clock.acting
    if not acting:
        try:
            game.submit(Order(UMPIRE, "advance"))
        except OwsnbError:
            return None
        return _actor(game)
    return acting[0]


def _apply(game: Game, actor: str, action: Any) -> bool:
    """Submit *action* (an order, or pass) in *game*; ``False`` if this world refuses it."""
    try:
        if action == PASS:
            safe_pass(game, actor)
        else:
            game.submit(action)
        return True
    except IllegalOrderError:
        return False
