"""Hexagonal grid in axial coordinates: hexes, distances, rings, lines, paths and reach.

A hex is an axial pair ``(q, r)`` with the implied third cube coordinate ``s = -q - r``
(the conceptual reference is Red Blob Games' guide to hexagonal grids). The grid itself is
orientation-free; :mod:`owsnb.kernel.offset` (printed labels) and :mod:`owsnb.kernel.geo`
(placement on the Earth) agree on this convention:

* ``r`` grows "down the page" (south on a north-up map) and ``q`` grows east;
* :data:`DIRECTIONS` run counter-clockwise on a north-up map. For flat-topped hexes they are
  SE, NE, N, NW, SW, S; for pointy-topped hexes E, NE, NW, W, SW, SE.

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any, NamedTuple

from owsnb.kernel.errors import InvalidHexError

__all__ = [
    "Hex",
    "DIRECTIONS",
    "hex_round",
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


# --- paths ----------------------------------------------------------------------------------

CostFn = Callable[[Hex, Hex], "float | None"]
HexPredicate = Callable[[Hex], bool]


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


def _step_cost(cost: CostFn, a: Hex, b: Hex) -> float:
    """Cost of one step, ``inf`` when the step is impossible; negative costs are refused."""
    c = cost(a, b)
    if c is None:
        return _inf
    if not c >= 0:  # negative or NaN
        raise ValueError(f"step cost from {a} to {b} is negative ({c!r}); costs must be >= 0")
    return c


def _require_hex(h: object, what: str) -> Hex:
    if not isinstance(h, Hex):
        raise InvalidHexError(f"{what} must be a Hex, got {h!r}")
    return h


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
    """Cheapest path from ``start`` to ``goal`` (A* with the hex-distance heuristic).

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
    gq, gr = goal
    best: dict[Hex, float] = {start: 0.0}
    parent: dict[Hex, Hex] = {}
    blocked: set[Hex] = set()
    # heap entries: (f, -g, hex); ties on f prefer the deeper node, then the smaller hex
    heap: list[tuple[float, float, Hex]] = [(start.distance(goal) * min_cost, -0.0, start)]
    expanded = 0
    while heap:
        _, ng, h = heappop(heap)
        g = -ng
        if h == goal:
            hexes = [h]
            while h in parent:
                h = parent[h]
                hexes.append(h)
            hexes.reverse()
            return Path(tuple(hexes), g)
        if g > best[h]:
            continue  # stale entry
        expanded += 1
        if expanded > max_nodes:
            return None
        q, r = h
        for dq, dr in _DIRS:
            nq = q + dq
            nr = r + dr
            n = _new(Hex, (nq, nr))
            if passable is not None:
                if n in blocked:
                    continue
                if not passable(n):
                    blocked.add(n)
                    continue
            if cost is None:
                c = 1.0
            else:
                c = _step_cost(cost, h, n)
                if c == _inf:
                    continue
                if c < min_cost:
                    raise ValueError(
                        f"step cost from {h} to {n} is {c!r}, below min_cost={min_cost!r}; "
                        "pass a smaller min_cost to find_path"
                    )
            ng2 = g + c
            if ng2 > limit:
                continue
            old = best.get(n)
            if old is not None and ng2 >= old:
                continue
            best[n] = ng2
            parent[n] = h
            dqg = nq - gq
            drg = nr - gr
            hd = (abs(dqg) + abs(drg) + abs(dqg + drg)) // 2
            heappush(heap, (ng2 + hd * min_cost, -ng2, n))
    return None


# --- reach ----------------------------------------------------------------------------------


class Reach:
    """Everything reachable from a start hex within a budget (made by :func:`reachable`).

    Iterating yields the reachable hexes (start first); ``h in reach`` tests membership.

    Attributes:
        start: the start hex.
        budget: the movement budget that was spent.
        cost: cheapest cost of every reachable hex (start at 0).

    Example:
        >>> reach = reachable(Hex(0, 0), 1)
        >>> len(reach), Hex(1, 0) in reach, reach.cost[Hex(1, 0)]
        (7, True, 1.0)
    """

    __slots__ = ("start", "budget", "cost", "_parent")

    def __init__(
        self, start: Hex, budget: float, cost: dict[Hex, float], parent: dict[Hex, Hex]
    ) -> None:
        self.start = start
        self.budget = budget
        self.cost = cost
        self._parent = parent

    def path_to(self, h: Hex) -> tuple[Hex, ...]:
        """The cheapest path from the start to ``h``, both included.

        Raises:
            InvalidHexError: if ``h`` is not reachable.

        Example:
            >>> reachable(Hex(0, 0), 2).path_to(Hex(2, 0))
            (Hex(0, 0), Hex(1, 0), Hex(2, 0))
        """
        if h not in self.cost:
            raise InvalidHexError(
                f"{h!r} is not reachable from {self.start!r} within budget {self.budget!r}"
            )
        parent = self._parent
        out = [h]
        while h in parent:
            h = parent[h]
            out.append(h)
        out.reverse()
        return tuple(out)

    def __contains__(self, h: object) -> bool:
        return h in self.cost

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.cost)

    def __len__(self) -> int:
        return len(self.cost)

    def __repr__(self) -> str:
        return f"<Reach from {self.start!r} budget {self.budget!r}: {len(self.cost)} hexes>"


def reachable(
    start: Hex,
    budget: float,
    *,
    cost: CostFn | None = None,
    passable: HexPredicate | None = None,
    stops: HexPredicate | None = None,
) -> Reach:
    """Every hex reachable from ``start`` for at most ``budget`` (bounded Dijkstra).

    Args:
        start: where the mover is; always reachable at cost 0 and always left freely
            (``passable`` and ``stops`` are not applied to it).
        budget: the movement allowance (costs within 1e-9 of it still fit).
        cost: ``cost(a, b)`` of stepping from ``a`` to its neighbour ``b``; ``None`` or
            ``math.inf`` means impossible. Default: every step costs 1.
        passable: ``passable(h)`` false means ``h`` can never be entered.
        stops: ``stops(h)`` true means a mover entering ``h`` must stop there (a zone of
            control, say): ``h`` is reachable but nothing beyond it is reached through it.

    Returns:
        A :class:`Reach`.

    Raises:
        ValueError: if ``budget`` is negative or NaN, or a step cost is negative.

    Example:
        >>> zoc = {Hex(1, 0)}
        >>> r = reachable(Hex(0, 0), 2, stops=zoc.__contains__)
        >>> Hex(1, 0) in r, Hex(2, 0) in r, len(r)
        (True, False, 18)
    """
    _require_hex(start, "start")
    if not budget >= 0:
        raise ValueError(f"budget must be a number >= 0, got {budget!r}")
    limit = budget + _COST_EPS
    best: dict[Hex, float] = {start: 0.0}
    parent: dict[Hex, Hex] = {}
    blocked: set[Hex] = set()
    if cost is None:
        # Unit steps: breadth-first search, layer by layer.
        frontier: list[Hex] = [start]
        d = 0.0
        while frontier and d + 1.0 <= limit:
            d += 1.0
            nxt: list[Hex] = []
            for h in frontier:
                q, r = h
                for dq, dr in _DIRS:
                    n = _new(Hex, (q + dq, r + dr))
                    if n in best:
                        continue
                    if passable is not None:
                        if n in blocked:
                            continue
                        if not passable(n):
                            blocked.add(n)
                            continue
                    best[n] = d
                    parent[n] = h
                    if stops is None or not stops(n):
                        nxt.append(n)
            frontier = nxt
        return Reach(start, budget, best, parent)

    heap: list[tuple[float, Hex]] = [(0.0, start)]
    while heap:
        d, h = heappop(heap)
        if d > best[h]:
            continue  # stale entry
        if stops is not None and h is not start and stops(h):
            continue
        q, r = h
        for dq, dr in _DIRS:
            n = _new(Hex, (q + dq, r + dr))
            old = best.get(n)
            if old is not None and old <= d:
                continue  # costs are >= 0, so no improvement possible
            if passable is not None:
                if n in blocked:
                    continue
                if not passable(n):
                    blocked.add(n)
                    continue
            c = cost(h, n)
            if c is None:
                continue
            if not c >= 0:  # negative or NaN
                raise ValueError(
                    f"step cost from {h} to {n} is negative ({c!r}); costs must be >= 0"
                )
            if c == _inf:
                continue
            nd = d + c
            if nd > limit:
                continue
            if old is None or nd < old:
                best[n] = nd
                parent[n] = h
                heappush(heap, (nd, n))
    return Reach(start, budget, best, parent)


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
    cache: dict[Hex, bool] = {}

    def clear(h: Hex) -> bool:
        v = cache.get(h)
        if v is None:
            v = cache[h] = bool(transparent(h))
        return v

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
