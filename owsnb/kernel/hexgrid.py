"""Hexagonal grid in axial coordinates: hexes, distances, rings, lines, paths and reach.

A hex is an axial pair ``(q, r)`` with the implied third cube coordinate ``s = -q - r``
(the conceptual reference is Red Blob Games' guide to hexagonal grids). The grid itself is
orientation-free; :mod:`owsnb.kernel.offset` (printed labels) and :mod:`owsnb.kernel.geo`
(placement on the Earth) agree on this convention:

* ``r`` grows "down the page" (south on a north-up map) and ``q`` grows east;
* :data:`DIRECTIONS` run counter-clockwise on a north-up map. For flat-topped hexes they are
  SE, NE, N, NW, SW, S; for pointy-topped hexes E, NE, NW, W, SW, SE.

Paths: :func:`search` is the one path engine of owsnb (best-first search over hexes or hexes
with more state, with any comparable labels: MP, (turns, MP), (hours, fuel)); every rule set's
reach, route and supply search runs on it. :func:`reachable` (movement within a budget: stop
hexes, all-MP terrain, the one-hex move) and :func:`find_path` (A*) are its front ends.

Everything here is pure Python (no numpy needed) and raises
:class:`~owsnb.kernel.errors.InvalidHexError` for malformed hexes.

Example:
    >>> a, b = Hex(0, 0), Hex(3, -1)
    >>> a.distance(b)
    3
    >>> Hex(1, 2) + Hex(1, 1)
    Hex(2, 3)
    >>> [h for h in a.line(b)]
    [Hex(0, 0), Hex(1, 0), Hex(2, -1), Hex(3, -1)]
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any, Generic, NamedTuple, TypeVar

from owsnb.kernel.errors import InvalidHexError

__all__ = [
    "Hex",
    "DIRECTIONS",
    "hex_round",
    "ALL",
    "Search",
    "search",
    "Path",
    "Reach",
    "find_path",
    "reachable",
    "field_of_view",
]

_new = tuple.__new__  # builds a Hex without validation; only for already-checked ints
_inf = math.inf

#: Axial unit steps as plain int pairs, in direction order (see :data:`DIRECTIONS`).
_DIRS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: Nudge added to both ends of a line so that points exactly between two hexes round stably.
_NUDGE_Q = 1e-6
_NUDGE_R = 2e-6

#: Slack when comparing accumulated float costs with a budget (0.1 + 0.2 fits in 0.3).
_COST_EPS = 1e-9


def _coord(value: object, name: str) -> int:
    """Validate one coordinate (slow path of :class:`Hex`): any integer except bool."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        raise InvalidHexError(f"hex coordinate {name} must be an int, not a bool ({value!r})")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidHexError(
            f"hex coordinate {name} must be an int, not {type(value).__name__} ({value!r})"
        ) from None


class _HexFields(NamedTuple):
    q: int
    r: int


class Hex(_HexFields):
    """One hex in axial coordinates; an immutable, hashable named tuple ``(q, r)``.

    Arithmetic is vector arithmetic (``+``, ``-``, unary ``-``, ``* int``), not tuple
    concatenation. Coordinates must be integers: bools, floats and strings raise
    :class:`InvalidHexError` (numpy integers are accepted and converted to ``int``).

    Attributes:
        q: column-like axial coordinate (grows east).
        r: row-like axial coordinate (grows south).

    Example:
        >>> h = Hex(3, -1)
        >>> h, h.s, h.q
        (Hex(3, -1), -2, 3)
        >>> Hex(1, 2) - Hex(1, 1), -Hex(1, 2), Hex(1, 2) * 3
        (Hex(0, 1), Hex(-1, -2), Hex(3, 6))
        >>> Hex(0.5, 1)
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.InvalidHexError: hex coordinate q must be an int, not float (0.5)
    """

    __slots__ = ()
    __array_ufunc__ = None  # numpy must not treat a Hex as an array: Hex * np.int64(2) is a Hex

    def __new__(cls, q: int, r: int) -> Hex:
        if type(q) is int and type(r) is int:  # fast path: the hot loops land here
            return _new(cls, (q, r))
        return _new(cls, (_coord(q, "q"), _coord(r, "r")))

    # keeps _replace validated too; mypy cannot match a classmethod to NamedTuple's generic _make
    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Hex:  # type: ignore[override]
        try:
            q, r = iterable
        except (TypeError, ValueError):
            raise InvalidHexError(
                f"a hex needs exactly two coordinates, got {iterable!r}"
            ) from None
        return cls(q, r)

    def __repr__(self) -> str:
        return f"Hex({self[0]}, {self[1]})"

    __str__ = __repr__

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``.

        Example:
            >>> Hex(2, 5).s
            -7
        """
        return -self[0] - self[1]

    # --- vector arithmetic -------------------------------------------------------------------
    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        if isinstance(other, Hex):
            return _new(Hex, (self[0] + other[0], self[1] + other[1]))
        return NotImplemented

    def __sub__(self, other: object) -> Hex:
        if isinstance(other, Hex):
            return _new(Hex, (self[0] - other[0], self[1] - other[1]))
        return NotImplemented

    def __neg__(self) -> Hex:
        return _new(Hex, (-self[0], -self[1]))

    def __mul__(self, k: object) -> Hex:  # type: ignore[override]
        if type(k) is not int:
            if isinstance(k, bool):
                return NotImplemented
            try:
                k = operator.index(k)  # type: ignore[arg-type]
            except TypeError:
                return NotImplemented
        return _new(Hex, (self[0] * k, self[1] * k))

    __rmul__ = __mul__

    # --- metric ------------------------------------------------------------------------------
    def distance(self, other: Hex) -> int:
        """Number of steps between two hexes.

        Example:
            >>> Hex(0, 0).distance(Hex(2, -3))
            3
        """
        dq = self[0] - other[0]
        dr = self[1] - other[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def length(self) -> int:
        """Distance from the origin ``Hex(0, 0)``.

        Example:
            >>> Hex(-2, 3).length()
            3
        """
        q, r = self
        return (abs(q) + abs(r) + abs(q + r)) // 2

    # --- neighbourhood -----------------------------------------------------------------------
    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0-5, see :data:`DIRECTIONS`).

        Raises:
            InvalidHexError: if ``direction`` is not an int in 0..5.

        Example:
            >>> Hex(0, 0).neighbour(0), Hex(0, 0).neighbour(5)
            (Hex(1, 0), Hex(0, 1))
        """
        if type(direction) is not int or not 0 <= direction < 6:
            raise InvalidHexError(f"direction must be an int 0..5, got {direction!r}")
        dq, dr = _DIRS[direction]
        return _new(Hex, (self[0] + dq, self[1] + dr))

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in :data:`DIRECTIONS` order.

        Example:
            >>> Hex(0, 0).neighbours()
            (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
        """
        q, r = self
        return tuple([_new(Hex, (q + dq, r + dr)) for dq, dr in _DIRS])

    def ring(self, radius: int) -> list[Hex]:
        """All hexes at exactly ``radius`` steps, walking counter-clockwise (``6 * radius`` hexes).

        Radius 0 gives ``[self]``.

        Raises:
            ValueError: if ``radius`` is negative or not an int.

        Example:
            >>> Hex(0, 0).ring(1)
            [Hex(-1, 1), Hex(0, 1), Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0)]
            >>> len(Hex(5, 5).ring(3))
            18
        """
        radius = _check_radius(radius)
        if radius == 0:
            return [self]
        q = self[0] - radius  # start at self + DIRECTIONS[4] * radius
        r = self[1] + radius
        out: list[Hex] = []
        for dq, dr in _DIRS:
            for _ in range(radius):
                out.append(_new(Hex, (q, r)))
                q += dq
                r += dr
        return out

    def disc(self, radius: int) -> list[Hex]:
        """All hexes within ``radius`` steps (``3 r (r + 1) + 1`` hexes), sorted by ``(q, r)``.

        Raises:
            ValueError: if ``radius`` is negative or not an int.

        Example:
            >>> Hex(0, 0).disc(1)
            [Hex(-1, 0), Hex(-1, 1), Hex(0, -1), Hex(0, 0), Hex(0, 1), Hex(1, -1), Hex(1, 0)]
            >>> len(Hex(7, -2).disc(10))
            331
        """
        n = _check_radius(radius)
        cq, cr = self
        return [
            _new(Hex, (cq + dq, cr + dr))
            for dq in range(-n, n + 1)
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1)
        ]

    within = disc

    def line(self, other: Hex) -> list[Hex]:
        """The straight line of hexes from ``self`` to ``other``, both included.

        Has ``distance + 1`` hexes, each adjacent to the next. Points falling exactly on an
        edge are nudged by a tiny constant offset, so ties always resolve the same way.

        Example:
            >>> Hex(0, 0).line(Hex(2, 0))
            [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
            >>> Hex(0, 0).line(Hex(0, 0))
            [Hex(0, 0)]
        """
        if not isinstance(other, Hex):
            raise InvalidHexError(f"line() needs a Hex, got {other!r}")
        return _line(self, other, 1.0)

    def rotate_left(self) -> Hex:
        """This hex rotated 60 degrees counter-clockwise (north-up map) about ``Hex(0, 0)``.

        Example:
            >>> Hex(1, 0).rotate_left()
            Hex(1, -1)
        """
        q, r = self
        return _new(Hex, (q + r, -q))

    def rotate_right(self) -> Hex:
        """This hex rotated 60 degrees clockwise (north-up map) about ``Hex(0, 0)``.

        Example:
            >>> Hex(1, 0).rotate_right()
            Hex(0, 1)
        """
        q, r = self
        return _new(Hex, (-r, q + r))


#: The six unit steps, counter-clockwise on a north-up map, as :class:`Hex` vectors.
DIRECTIONS: tuple[Hex, ...] = tuple(Hex(dq, dr) for dq, dr in _DIRS)


def _check_radius(radius: object) -> int:
    if type(radius) is not int or radius < 0:
        raise ValueError(f"radius must be a non-negative int, got {radius!r}")
    return radius


def hex_round(fq: float, fr: float) -> Hex:
    """The hex containing fractional axial coordinates ``(fq, fr)`` (cube rounding).

    Raises:
        InvalidHexError: if a coordinate is not a finite number.

    Example:
        >>> hex_round(0.9, -0.2), hex_round(-1.4, 2.6)
        (Hex(1, 0), Hex(-1, 2))
    """
    try:
        fq = float(fq)
        fr = float(fr)
    except (TypeError, ValueError):
        raise InvalidHexError(f"cannot round ({fq!r}, {fr!r}) to a hex: not numbers") from None
    if not (math.isfinite(fq) and math.isfinite(fr)):
        raise InvalidHexError(f"cannot round ({fq!r}, {fr!r}) to a hex: not finite")
    fs = -fq - fr
    q = round(fq)
    r = round(fr)
    s = round(fs)
    dq = abs(q - fq)
    dr = abs(r - fr)
    ds = abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return _new(Hex, (int(q), int(r)))


def _line(a: Hex, b: Hex, sign: float) -> list[Hex]:
    """Line from a to b with both ends nudged by ``sign`` times the standard nudge."""
    n = a.distance(b)
    if n == 0:
        return [a]
    aq = a[0] + sign * _NUDGE_Q
    ar = a[1] + sign * _NUDGE_R
    dq = (b[0] - a[0]) / n
    dr = (b[1] - a[1]) / n
    out = [a]
    for i in range(1, n):
        out.append(hex_round(aq + dq * i, ar + dr * i))
    out.append(b)
    return out


# --- paths: the one search engine -------------------------------------------------------------

CostFn = Callable[[Hex, Hex], "float | None"]
MoveCostFn = Callable[[Hex, Hex], "float | str | None"]  # reachable's: ALL is a cost too
HexPredicate = Callable[[Hex], bool]

N = TypeVar("N", bound=Hashable)  # a node: a hex, or a hex with more state (a gap crossing, say)
L = TypeVar("L")  # a label: what reaching a node costs; a number or a tuple such as (turns, MP)

_less: Callable[[Any, Any], bool] = operator.lt  # search's default: a lower label is better

#: A step cost meaning "whatever is left of the budget": terrain that takes a mover's whole
#: allowance (a swamp, say). ``"all"`` is also how the rule sets' tables spell it.
ALL = "all"


class Search(Generic[N, L]):
    """What :func:`search` found: the best label of every node it reached, and how.

    Iterating yields the reached nodes in the order they were first reached (the start first);
    ``node in found`` tests membership.

    Attributes:
        start: where the search began.
        labels: the best label of every reached node, in the order they were first reached.
        parent: the node each reached node (but the start) is best reached from.
        found: the node that ended the search (``goal`` was true), else ``None``.

    Example:
        >>> found = search(Hex(0, 0), lambda h, d: [(n, d + 1) for n in h.neighbours() if d < 1], zero=0)
        >>> len(found), found.labels[Hex(1, 0)], found.path_to(Hex(1, 0))
        (7, 1, (Hex(0, 0), Hex(1, 0)))
    """

    __slots__ = ("start", "labels", "parent", "found")

    def __init__(self, start: N, labels: dict[N, L], parent: dict[N, N], found: N | None) -> None:
        self.start = start
        self.labels = labels
        self.parent = parent
        self.found = found

    def path_to(self, node: N) -> tuple[N, ...]:
        """The nodes of the best way from the start to ``node``, both included.

        Raises:
            KeyError: if ``node`` was not reached.
        """
        if node not in self.labels:
            raise KeyError(node)
        parent = self.parent
        out = [node]
        while node in parent:
            node = parent[node]
            out.append(node)
        out.reverse()
        return tuple(out)

    def __contains__(self, node: object) -> bool:
        return node in self.labels

    def __iter__(self) -> Iterator[N]:
        return iter(self.labels)

    def __len__(self) -> int:
        return len(self.labels)

    def __repr__(self) -> str:
        return f"<Search from {self.start!r}: {len(self.labels)} reached, found {self.found!r}>"


def search(
    start: N,
    moves: Callable[[N, L], Iterable[tuple[N, L]]],
    *,
    zero: L = 0.0,  # type: ignore[assignment]
    goal: Callable[[N, L], bool] | None = None,
    better: Callable[[L, L], bool] = _less,
    priority: Callable[[N, L], Any] | None = None,
    fifo: bool = False,
    labels: dict[N, L] | None = None,
) -> Search[N, L]:
    """The one path engine: best-first search from ``start`` (Dijkstra; A* with a ``priority``).

    Every path search of the kernel and the rule sets runs here; :func:`reachable` and
    :func:`find_path` are its hex-movement front ends. A node is taken off the queue in label
    order; ``moves(node, label)`` yields where the mover can go next and the label it would
    have there; a yielded label that is ``better`` than the node's current one replaces it
    (first come keeps a tie). What the mover may not do is simply not yielded: impassable hexes,
    steps over the budget, leaving a hex that stops it (``moves`` yields nothing for it).

    Args:
        start: where the search begins, with label ``zero``.
        moves: the steps from a node with a label: ``(next node, its label)`` pairs. Labels
            may be numbers (cost, MP), tuples compared in order (turns, then MP spent) or
            anything ``better`` and the queue can compare; they must not go down along a step.
        zero: the label of the start.
        goal: ``goal(node, label)`` true ends the search when that node is taken off the
            queue (``found``); checked before its moves.
        better: ``better(new, old)``: does a new label replace the old one? Default ``<``; pass
            a tolerance (``lambda a, b: a < b - 1e-9``) where float sums should tie.
        priority: the queue key of a node with a label (default the label itself): A* passes
            label plus a lower bound of the rest.
        fifo: nodes whose keys tie leave the queue in the order they were reached
            (breadth-first for unit steps); by default the smaller node leaves first.
        labels: the dict to keep labels in (default a new one); pass your own when ``moves``
            wants to look at them, to skip nodes already reached as cheaply, say.

    Returns:
        A :class:`Search`.

    Example:
        Time and fuel as one label: a step costs an hour and a ton, a desert hex three tons;
        with a 6-ton tank the cheapest (hours, tons) label of every hex within the fuel:

        >>> desert = {Hex(1, 0), Hex(1, -1)}
        >>> def moves(h, label):
        ...     hours, tons = label
        ...     for n in h.neighbours():
        ...         t = tons + (3 if n in desert else 1)
        ...         if t <= 6:
        ...             yield n, (hours + 1, t)
        >>> found = search(Hex(0, 0), moves, zero=(0, 0))
        >>> found.labels[Hex(2, 0)], found.path_to(Hex(2, 0))
        ((2, 4), (Hex(0, 0), Hex(1, 0), Hex(2, 0)))
        >>> found = search(Hex(0, 0), moves, zero=(0, 0), goal=lambda h, lab: h == Hex(3, 0))
        >>> found.found, found.labels[found.found]
        (Hex(3, 0), (3, 5))
    """
    best: dict[N, L] = {} if labels is None else labels
    best[start] = zero
    parent: dict[N, N] = {}
    tie = 0
    # queue entries: (key, tie, node, label); tie is 0 (then the node decides) or the push count
    heap: list[tuple[Any, int, N, L]] = [
        (zero if priority is None else priority(start, zero), 0, start, zero)
    ]
    while heap:
        _, _, node, label = heappop(heap)
        if best[node] != label:
            continue  # a better label was found since this entry was queued
        if goal is not None and goal(node, label):
            return Search(start, best, parent, node)
        for nxt, new in moves(node, label):
            old = best.get(nxt)
            if old is not None and not better(new, old):
                continue
            best[nxt] = new
            parent[nxt] = node
            if fifo:
                tie += 1
            heappush(heap, (new if priority is None else priority(nxt, new), tie, nxt, new))
    return Search(start, best, parent, None)


# --- shortest paths -------------------------------------------------------------------------


@dataclass(frozen=True)
class Path:
    """A path found by :func:`find_path`.

    ``len(path)`` is the number of steps (``len(hexes) - 1``); a path is always truthy, even
    the zero-step path from a hex to itself.

    Attributes:
        hexes: every hex from start to goal, both included.
        cost: total cost of the steps.

    Example:
        >>> p = Path((Hex(0, 0), Hex(1, 0)), 1.0)
        >>> len(p), p.start, p.goal, bool(Path((Hex(0, 0),), 0.0))
        (1, Hex(0, 0), Hex(1, 0), True)
    """

    hexes: tuple[Hex, ...]
    cost: float

    def __len__(self) -> int:
        return len(self.hexes) - 1

    def __bool__(self) -> bool:
        return True

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    @property
    def start(self) -> Hex:
        """First hex."""
        return self.hexes[0]

    @property
    def goal(self) -> Hex:
        """Last hex."""
        return self.hexes[-1]


def _require_hex(h: object, what: str) -> Hex:
    if not isinstance(h, Hex):
        raise InvalidHexError(f"{what} must be a Hex, got {h!r}")
    return h


def _once_a_hex(pred: HexPredicate) -> HexPredicate:
    """*pred* asked once a hex (a search looks at a hex from up to six sides)."""
    known: dict[Hex, bool] = {}

    def ask(h: Hex) -> bool:
        v = known.get(h)
        if v is None:
            v = known[h] = bool(pred(h))
        return v

    return ask


def _negative(a: Hex, b: Hex, c: object) -> ValueError:
    return ValueError(f"step cost from {a} to {b} is negative ({c!r}); costs must be >= 0")


def find_path(
    start: Hex,
    goal: Hex,
    *,
    cost: CostFn | None = None,
    passable: HexPredicate | None = None,
    max_cost: float | None = None,
    min_cost: float = 1.0,
    max_nodes: int = 1_000_000,
) -> Path | None:
    """Cheapest path from ``start`` to ``goal`` (A* with the hex-distance heuristic, on
    :func:`search`).

    Args:
        start: where the mover is (its own passability is not checked).
        goal: where it wants to go.
        cost: ``cost(a, b)`` for stepping from ``a`` to its neighbour ``b``; ``None`` or
            ``math.inf`` means the step is impossible. Default: every step costs 1.
        passable: ``passable(h)`` false means ``h`` can never be entered.
        max_cost: give up on paths dearer than this.
        min_cost: a lower bound of every step's cost; the heuristic is ``distance * min_cost``.
            Use ``0`` for plain Dijkstra.
        max_nodes: safety bound on expanded hexes, for unbounded grids where the goal is
            walled off by ``cost`` alone.

    Returns:
        The cheapest :class:`Path`, or ``None`` if there is none (within the limits).

    Raises:
        ValueError: if a step costs less than ``min_cost`` (the answer could be wrong) or less
            than zero.

    Example:
        >>> p = find_path(Hex(0, 0), Hex(3, 0), passable=lambda h: h != Hex(1, 0))
        >>> p.cost, len(p), Hex(1, 0) in p.hexes
        (4.0, 4, False)
        >>> find_path(Hex(0, 0), Hex(3, 0), max_cost=2) is None
        True
    """
    _require_hex(start, "start")
    _require_hex(goal, "goal")
    if min_cost < 0:
        raise ValueError(f"min_cost must be >= 0, got {min_cost!r}")
    if start == goal:
        return Path((start,), 0.0)
    if passable is not None and not passable(goal):
        return None
    limit = _inf if max_cost is None else max_cost + _COST_EPS
    enterable = None if passable is None else _once_a_hex(passable)
    gq, gr = goal

    def moves(h: Hex, g: float) -> Iterator[tuple[Hex, float]]:
        for n in h.neighbours():
            if enterable is not None and not enterable(n):
                continue
            c = 1.0
            if cost is not None:
                step = cost(h, n)
                if step is None or step == _inf:
                    continue
                if not step >= 0:  # negative or NaN
                    raise _negative(h, n, step)
                if step < min_cost:
                    raise ValueError(
                        f"step cost from {h} to {n} is {step!r}, below min_cost={min_cost!r}; "
                        "pass a smaller min_cost to find_path"
                    )
                c = step
            if g + c <= limit:
                yield n, g + c

    def priority(h: Hex, g: float) -> tuple[float, float]:
        dq, dr = h[0] - gq, h[1] - gr
        # ties on the estimate prefer the deeper node (then the smaller hex)
        return g + (abs(dq) + abs(dr) + abs(dq + dr)) // 2 * min_cost, -g

    expanded = 0

    def done(h: Hex, g: float) -> bool:
        nonlocal expanded
        if h == goal:
            return True
        expanded += 1
        return expanded > max_nodes  # give up

    found = search(start, moves, priority=priority, goal=done)
    if found.found != goal:
        return None
    return Path(found.path_to(goal), found.labels[goal])


# --- reach ----------------------------------------------------------------------------------


class Reach(Search[Hex, float]):
    """Everything reachable from a start hex within a budget (made by :func:`reachable`).

    Iterating yields the reachable hexes (start first, then in the order they were reached);
    ``h in reach`` tests membership; ``path_to`` gives the cheapest way there.

    Attributes:
        budget: the movement budget that was spent.
        cost: cheapest cost of every reachable hex (start at 0; the same dict as ``labels``).

    Example:
        >>> reach = reachable(Hex(0, 0), 1)
        >>> len(reach), Hex(1, 0) in reach, reach.cost[Hex(1, 0)]
        (7, True, 1.0)
    """

    __slots__ = ("budget",)

    def __init__(self, found: Search[Hex, float], budget: float) -> None:
        super().__init__(found.start, found.labels, found.parent, found.found)
        self.budget = budget

    @property
    def cost(self) -> dict[Hex, float]:
        return self.labels

    def path_to(self, h: Hex) -> tuple[Hex, ...]:
        """The cheapest path from the start to ``h``, both included.

        Raises:
            InvalidHexError: if ``h`` is not reachable.

        Example:
            >>> reachable(Hex(0, 0), 2).path_to(Hex(2, 0))
            (Hex(0, 0), Hex(1, 0), Hex(2, 0))
        """
        if h not in self.labels:
            raise InvalidHexError(
                f"{h!r} is not reachable from {self.start!r} within budget {self.budget!r}"
            )
        return super().path_to(h)

    def __repr__(self) -> str:
        return f"<Reach from {self.start!r} budget {self.budget!r}: {len(self.labels)} hexes>"


def reachable(
    start: Hex,
    budget: float,
    *,
    cost: MoveCostFn | None = None,
    passable: HexPredicate | None = None,
    stops: HexPredicate | None = None,
    one_hex: bool = False,
    neighbours: Callable[[Hex], Iterable[Hex]] | None = None,
) -> Reach:
    """Every hex reachable from ``start`` for at most ``budget`` (bounded Dijkstra on
    :func:`search`; breadth-first for unit steps).

    Args:
        start: where the mover is; always reachable at cost 0 and always left freely
            (``passable`` and ``stops`` are not applied to it).
        budget: the movement allowance (costs within 1e-9 of it still fit).
        cost: ``cost(a, b)`` of stepping from ``a`` to its neighbour ``b``; ``None`` or
            ``math.inf`` means impossible; :data:`ALL` means everything that is left of the
            budget (possible while something is left). Default: every step costs 1.
        passable: ``passable(h)`` false means ``h`` can never be entered.
        stops: ``stops(h)`` true means a mover entering ``h`` must stop there (a zone of
            control, say): ``h`` is reachable but nothing beyond it is reached through it.
        one_hex: a mover may always enter one adjacent hex it may enter, spending its whole
            budget, even where the step costs more.
        neighbours: the hexes adjacent to a hex, in the order to look at them (default the
            six of :meth:`Hex.neighbours`; a map may give only its own).

    Returns:
        A :class:`Reach`.

    Raises:
        ValueError: if ``budget`` is negative or NaN, or a step cost is negative.

    Example:
        >>> zoc = {Hex(1, 0)}
        >>> r = reachable(Hex(0, 0), 2, stops=zoc.__contains__)
        >>> Hex(1, 0) in r, Hex(2, 0) in r, len(r)
        (True, False, 18)

        A swamp takes the whole allowance; a 3-point step is still one hex with ``one_hex``:

        >>> swamp, hill = Hex(1, 0), Hex(0, 1)
        >>> def cost(a, b):
        ...     return ALL if b == swamp else 3 if b == hill else 1
        >>> r = reachable(Hex(0, 0), 2, cost=cost, one_hex=True)
        >>> r.cost[swamp], r.cost[hill], r.cost[Hex(2, -1)], Hex(2, 0) in r
        (2.0, 2.0, 2.0, False)
    """
    _require_hex(start, "start")
    if not budget >= 0:
        raise ValueError(f"budget must be a number >= 0, got {budget!r}")
    limit = budget + _COST_EPS
    enterable = None if passable is None else _once_a_hex(passable)
    # Every step adds at least `floor`: a neighbour already labelled within `floor` of this
    # hex can gain nothing, so it is passed over before passable() and cost() are asked.
    floor = 1.0 if cost is None else 0.0
    best: dict[Hex, float] = {}

    def moves(h: Hex, d: float) -> Iterator[tuple[Hex, float]]:
        if stops is not None and h is not start and stops(h):
            return
        for n in h.neighbours() if neighbours is None else neighbours(h):
            old = best.get(n)
            if old is not None and old <= d + floor:
                continue
            if cost is None:
                nd = d + 1.0
                if nd > limit and not (one_hex and h is start):
                    continue  # unit steps: nothing beyond the budget is asked about
            if enterable is not None and not enterable(n):
                continue
            if cost is not None:
                c = cost(h, n)
                if c is None:
                    continue
                if isinstance(c, str):
                    if c != ALL:
                        raise ValueError(f"step cost from {h} to {n} is {c!r}, not a number or ALL")
                    if d < budget:
                        yield n, float(budget)
                    continue
                if not c >= 0:  # negative or NaN
                    raise _negative(h, n, c)
                if c == _inf:
                    continue
                nd = d + c
            if nd <= limit:
                yield n, nd
            elif one_hex and h is start:
                yield n, float(budget)

    return Reach(search(start, moves, fifo=cost is None, labels=best), budget)


# --- line of sight --------------------------------------------------------------------------


def field_of_view(origin: Hex, transparent: HexPredicate, max_distance: int) -> set[Hex]:
    """Hexes visible from ``origin`` within ``max_distance`` steps.

    A hex is visible if a line to it (nudged to either side, so lines along hex edges get
    the benefit of the doubt) passes only transparent hexes *between* the two ends: opaque
    hexes themselves can be seen, but not through. ``origin`` is always visible.

    Example:
        >>> wall = {Hex(1, 0)}
        >>> fov = field_of_view(Hex(0, 0), lambda h: h not in wall, 3)
        >>> Hex(1, 0) in fov, Hex(2, 0) in fov, Hex(3, 0) in fov, len(fov)
        (True, False, False, 33)
    """
    _require_hex(origin, "origin")
    clear = _once_a_hex(transparent)
    seen = {origin}
    for h in origin.disc(max_distance):
        if h == origin:
            continue
        for sign in (1.0, -1.0):
            path = _line(origin, h, sign)
            if all(clear(x) for x in path[1:-1]):
                seen.add(h)
                break
    return seen
