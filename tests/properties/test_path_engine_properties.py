"""The one path engine (issue 17): :func:`~owsnb.kernel.hexgrid.search` and its front ends
:func:`~owsnb.kernel.hexgrid.reachable` and :func:`~owsnb.kernel.hexgrid.find_path` against a
brute-force search (Hypothesis).

The brute force walks every simple path from the start on a small random board (19 hexes: some
impassable, some stop hexes, random step costs including impossible steps and all-MP terrain)
and applies the documented rules step by step; the engine must find, for every hex, the best
label any path gives, and a path that really has that label. Labels never go down along a step
and a better label can always do what a worse one can, so simple paths are enough.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from owsnb.kernel.hexgrid import ALL, Hex, find_path, reachable, search

BOARD = tuple(Hex(0, 0).disc(2))  # 19 hexes
EDGES = tuple((a, b) for a in BOARD for b in a.neighbours())  # every step, off-board ones too
STEP = (1, 1, 1, 2, 3, 1.5, 0.5, None, math.inf, ALL)  # a step's cost; None and inf: impossible


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    """A random board: what may be entered, where movers stop, what each step costs."""
    passable = {h for h in BOARD if draw(st.integers(0, 4))}  # about one hex in five walled
    stops = {h for h in BOARD if not draw(st.integers(0, 5))}
    costs = draw(st.lists(st.sampled_from(STEP), min_size=len(EDGES), max_size=len(EDGES)))
    return {
        "start": draw(st.sampled_from(BOARD)),
        "passable": passable,
        "stops": stops,
        "cost": dict(zip(EDGES, costs, strict=True)),
    }


def simple_paths(start: Hex, step: Callable[[Hex, Hex, Any], Any], zero: Any) -> Iterator[Any]:
    """Every simple path from *start* allowed by *step* (``step(a, b, label)`` -> label or None)
    as ``(hexes, label)``: brute force, no queue and no pruning by cost."""
    todo: list[tuple[tuple[Hex, ...], Any]] = [((start,), zero)]
    while todo:
        path, label = todo.pop()
        yield path, label
        for n in path[-1].neighbours():
            if n not in path:
                new = step(path[-1], n, label)
                if new is not None:
                    todo.append(((*path, n), new))


def cheapest(start: Hex, step: Callable[[Hex, Hex, Any], Any], zero: Any) -> dict[Hex, Any]:
    best: dict[Hex, Any] = {}
    for path, label in simple_paths(start, step, zero):
        if path[-1] not in best or label < best[path[-1]]:
            best[path[-1]] = label
    return best


def walk(path: tuple[Hex, ...], step: Callable[[Hex, Hex, Any], Any], zero: Any) -> Any:
    """The label at the end of *path* by the rules, or None if a step is not allowed."""
    label = zero
    for a, b in zip(path, path[1:], strict=False):
        label = step(a, b, label)
        if label is None:
            return None
    return label


def movement_rules(b: dict[str, Any], budget: float, *, unit: bool, one_hex: bool) -> Callable:
    """One step of :func:`reachable`'s documented rules, written out plainly."""
    start = b["start"]

    def step(x: Hex, y: Hex, d: float) -> float | None:
        if y not in b["passable"] and y != start:
            return None  # never entered (the start itself is always reachable)
        if x != start and x in b["stops"]:
            return None  # a stop hex is entered but not left
        c = 1 if unit else b["cost"][(x, y)]
        if c is None or c == math.inf:
            return None
        if c == ALL:  # the rest of the budget, while something is left
            return float(budget) if d < budget else None
        if d + c <= budget + 1e-9:
            return d + c
        if one_hex and x == start:
            return float(budget)  # always one hex, for the whole budget
        return None

    return step


@settings(max_examples=150, deadline=None)
@given(boards(), st.sampled_from([0, 1, 2, 2.5, 3, 4]), st.booleans(), st.booleans())
def test_reachable_finds_the_cheapest_label_of_every_path(
    b: dict[str, Any], budget: float, unit: bool, one_hex: bool
) -> None:
    step = movement_rules(b, budget, unit=unit, one_hex=one_hex)
    reach = reachable(
        b["start"],
        budget,
        cost=None if unit else lambda x, y: b["cost"][(x, y)],
        passable=lambda h: h in b["passable"],
        stops=b["stops"].__contains__,
        one_hex=one_hex,
        neighbours=lambda h: [n for n in h.neighbours() if n in BOARD],
    )
    brute = cheapest(b["start"], step, 0.0)
    assert dict(reach.cost) == brute  # the same hexes, each at its cheapest
    for h, label in reach.cost.items():
        path = reach.path_to(h)
        assert path[0] == b["start"] and path[-1] == h
        assert walk(path, step, 0.0) == label  # a real path with that cost


@settings(max_examples=100, deadline=None)
@given(boards(), st.sampled_from([0.5, 1, 3]))
def test_the_one_hex_move_reaches_every_enterable_neighbour(
    b: dict[str, Any], budget: float
) -> None:
    """With anything at all to spend, a mover may always enter one adjacent hex it may enter
    (whatever the step costs, all-MP terrain too), and it costs no more than the budget."""
    reach = reachable(
        b["start"],
        budget,
        cost=lambda x, y: b["cost"][(x, y)],
        passable=lambda h: h in b["passable"],
        one_hex=True,
    )
    for n in b["start"].neighbours():
        c = b["cost"][(b["start"], n)]
        if n in b["passable"] and c is not None and c != math.inf:  # it may be entered
            assert n in reach and reach.cost[n] <= budget


@settings(max_examples=100, deadline=None)
@given(boards(), st.integers(1, 3), st.integers(1, 4))
def test_search_with_turn_and_mp_labels_matches_brute_force(
    b: dict[str, Any], mp: int, turns: int
) -> None:
    """Tuple labels (turn, MP spent in it), compared in order, as OWS's turns by road: a step
    that does not fit in this turn's MP opens the next turn; at most *turns* turns."""

    def step(x: Hex, y: Hex, label: tuple[int, float]) -> tuple[int, float] | None:
        t, spent = label
        c = b["cost"][(x, y)]
        if y not in b["passable"] or c is None or c == math.inf:
            return None
        c = mp if c == ALL else c
        nxt = (t, spent + c) if spent + c <= mp else (t + 1, min(c, mp))
        return nxt if nxt[0] <= turns else None

    def moves(h: Hex, label: tuple[int, float]) -> Iterator[tuple[Hex, tuple[int, float]]]:
        for n in h.neighbours():
            if n in BOARD and (new := step(h, n, label)) is not None:
                yield n, new

    found = search(b["start"], moves, zero=(1, 0.0))
    brute = cheapest(b["start"], step, (1, 0.0))
    assert found.labels == brute
    for h, label in found.labels.items():
        assert walk(found.path_to(h), step, (1, 0.0)) == label


@settings(max_examples=100, deadline=None)
@given(boards(), st.integers(0, 8), st.sampled_from(BOARD), st.booleans())
def test_search_with_fuel_and_hours_stops_at_the_goal_with_its_best_label(
    b: dict[str, Any], tank: int, goal: Hex, fifo: bool
) -> None:
    """(fuel, hours) labels: least fuel, then fewest hours; never more than the tank. A goal ends
    the search as soon as it is taken off the queue, with its best label."""

    def step(x: Hex, y: Hex, label: tuple[float, int]) -> tuple[float, int] | None:
        fuel, hours = label
        c = b["cost"][(x, y)]
        if y not in b["passable"] or c is None or c == math.inf or c == ALL:
            return None
        return (fuel + c, hours + 1) if fuel + c <= tank else None

    def moves(h: Hex, label: tuple[float, int]) -> Iterator[tuple[Hex, tuple[float, int]]]:
        for n in h.neighbours():
            if n in BOARD and (new := step(h, n, label)) is not None:
                yield n, new

    found = search(b["start"], moves, zero=(0.0, 0), goal=lambda h, label: h == goal, fifo=fifo)
    brute = cheapest(b["start"], step, (0.0, 0))
    if goal in brute:
        assert found.found == goal
        assert found.labels[goal] == brute[goal]
        assert walk(found.path_to(goal), step, (0.0, 0)) == brute[goal]
    else:
        assert found.found is None
        assert found.labels == brute  # it looked everywhere it could go


@settings(max_examples=100, deadline=None)
@given(boards(), st.sampled_from(BOARD), st.sampled_from([None, 2, 4]), st.sampled_from([0, 0.5]))
def test_find_path_is_the_cheapest_simple_path(
    b: dict[str, Any], goal: Hex, max_cost: float | None, min_cost: float
) -> None:
    def cost(x: Hex, y: Hex) -> Any:
        c = b["cost"][(x, y)]
        return None if c == ALL else c

    def step(x: Hex, y: Hex, d: float) -> float | None:
        c = cost(x, y)
        if y not in b["passable"] or c is None or c == math.inf:
            return None
        return d + c if max_cost is None or d + c <= max_cost else None

    def passable(h: Hex) -> bool:
        return h in b["passable"] and h in BOARD

    path = find_path(
        b["start"], goal, cost=cost, passable=passable, max_cost=max_cost, min_cost=min_cost
    )
    brute = cheapest(b["start"], step, 0.0)
    if goal == b["start"]:
        assert path is not None and path.cost == 0.0
    elif goal not in brute:
        assert path is None
    else:
        assert path is not None and path.cost == brute[goal]
        assert path.hexes[0] == b["start"] and path.hexes[-1] == goal
        assert walk(path.hexes, step, 0.0) == path.cost


@settings(max_examples=60, deadline=None)
@given(boards(), st.sampled_from([1, 2, 3.5]), st.randoms(use_true_random=False))
def test_labels_do_not_depend_on_the_order_neighbours_are_looked_at(
    b: dict[str, Any], budget: float, rnd: random.Random
) -> None:
    def cost(x: Hex, y: Hex) -> Any:
        return b["cost"][(x, y)]

    def shuffled(h: Hex) -> list[Hex]:
        ns = [n for n in h.neighbours() if n in BOARD]
        rnd.shuffle(ns)
        return ns

    plain = reachable(b["start"], budget, cost=cost, passable=b["passable"].__contains__)
    mixed = reachable(
        b["start"], budget, cost=cost, passable=b["passable"].__contains__, neighbours=shuffled
    )
    assert mixed.cost == plain.cost
