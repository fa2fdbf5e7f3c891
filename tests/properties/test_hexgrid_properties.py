"""Properties of the hex grid, offset labels, paths and reach (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from owsnb.kernel.hexgrid import DIRECTIONS, Hex, find_path, reachable
from owsnb.kernel.offset import OffsetSystem
from owsnb.testing.strategies import hexes, offset_systems

radii = st.integers(min_value=0, max_value=12)


@given(hexes(), hexes())
def test_distance_is_symmetric_and_zero_iff_equal(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) >= 0


@given(hexes(), hexes(), hexes())
def test_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes(), hexes())
def test_arithmetic_is_vector_arithmetic(a: Hex, b: Hex) -> None:
    assert (a + b) - b == a
    assert a + (-a) == Hex(0, 0)
    assert a * 2 == a + a == 2 * a
    assert (a - b).length() == a.distance(b)
    assert (a + b).s == a.s + b.s


@given(hexes())
def test_neighbours_are_six_distinct_at_distance_one(h: Hex) -> None:
    ns = h.neighbours()
    assert len(ns) == 6 and len(set(ns)) == 6
    assert all(h.distance(n) == 1 for n in ns)
    assert ns == tuple(h + d for d in DIRECTIONS)
    assert all(h.neighbour(i) == n for i, n in enumerate(ns))


@given(hexes())
def test_rotation_has_order_six(h: Hex) -> None:
    assert h.rotate_left().rotate_right() == h
    x = h
    for _ in range(6):
        x = x.rotate_left()
        assert x.length() == h.length()
    assert x == h


@given(hexes(), radii)
def test_ring_has_6r_hexes_at_distance_r(h: Hex, r: int) -> None:
    ring = h.ring(r)
    assert len(ring) == max(1, 6 * r)
    assert len(set(ring)) == len(ring)
    assert all(h.distance(x) == r for x in ring)
    # consecutive ring hexes are adjacent (the ring is a closed walk)
    if r > 0:
        assert all(ring[i - 1].distance(ring[i]) == 1 for i in range(len(ring)))


@given(hexes(), radii)
def test_disc_size_and_members(h: Hex, r: int) -> None:
    disc = h.disc(r)
    assert len(disc) == 3 * r * (r + 1) + 1
    assert len(set(disc)) == len(disc)
    assert all(h.distance(x) <= r for x in disc)
    assert set(disc) == {x for k in range(r + 1) for x in h.ring(k)}
    assert h.within(r) == disc


@given(hexes(), hexes())
def test_line_is_a_connected_chain_of_right_length(a: Hex, b: Hex) -> None:
    line = a.line(b)
    assert len(line) == a.distance(b) + 1
    assert line[0] == a and line[-1] == b
    assert all(line[i].distance(line[i + 1]) == 1 for i in range(len(line) - 1))
    assert all(a.distance(x) == i for i, x in enumerate(line))


@given(offset_systems(), st.data())
def test_label_round_trip(system: OffsetSystem, data: st.DataObject) -> None:
    top = 10**system.digits - 1
    col = data.draw(st.integers(min_value=system.first_col, max_value=top))
    row = data.draw(st.integers(min_value=system.first_row, max_value=top))
    h = system.from_offset(col, row)
    assert system.to_offset(h) == (col, row)
    label = system.to_label(h)
    assert len(label) == 2 * system.digits
    assert label == f"{col:0{system.digits}d}{row:0{system.digits}d}"
    assert system.from_label(label) == h


@given(offset_systems(), hexes())
def test_offset_round_trip_from_hexes(system: OffsetSystem, h: Hex) -> None:
    col, row = system.to_offset(h)
    assert system.from_offset(col, row) == h


@given(offset_systems(), st.integers(1, 6), st.integers(1, 6))
def test_rectangle_neighbours_in_a_column_are_adjacent(
    system: OffsetSystem, cols: int, rows: int
) -> None:
    rect = system.rectangle(cols, rows)
    assert len(set(rect)) == cols * rows
    labels = [system.to_label(h) for h in rect]
    assert labels == sorted(labels)
    if system.orientation == "flat":  # a printed column is a straight line of hexes
        for c in range(cols):
            column = rect[c * rows : (c + 1) * rows]
            assert all(column[i].distance(column[i + 1]) == 1 for i in range(rows - 1))


@given(hexes(20), hexes(20))
def test_unit_cost_path_costs_the_distance(a: Hex, b: Hex) -> None:
    path = find_path(a, b)
    assert path is not None
    assert path.cost == a.distance(b) == len(path)
    assert path.hexes[0] == a and path.hexes[-1] == b
    assert all(path.hexes[i].distance(path.hexes[i + 1]) == 1 for i in range(len(path)))


walls = st.frozensets(hexes(4), max_size=30)


@settings(max_examples=60)
@given(walls, hexes(4), hexes(4))
def test_path_never_enters_an_impassable_hex(wall: frozenset[Hex], a: Hex, b: Hex) -> None:
    board = set(Hex(0, 0).disc(6))

    def passable(h: Hex) -> bool:
        return h in board and h not in wall

    path = find_path(a, b, passable=passable)
    reach = reachable(a, 100, passable=passable)
    if b in wall and a != b:
        assert path is None
    if path is None:
        assert b not in reach or b in wall
        return
    assert all(passable(h) for h in path.hexes[1:])
    # A* and Dijkstra agree on the cheapest cost
    assert path.cost == reach.cost[b]
    assert len(reach.path_to(b)) == len(path.hexes)


@settings(max_examples=60)
@given(walls, hexes(3), st.integers(0, 6), st.integers(0, 3))
def test_reachable_is_monotone_in_budget(
    wall: frozenset[Hex], start: Hex, budget: int, extra: int
) -> None:
    def passable(h: Hex) -> bool:
        return h not in wall

    def cost(a: Hex, b: Hex) -> float:
        return 1.0 + (b.q % 2) * 0.5

    small = reachable(start, budget, cost=cost, passable=passable)
    big = reachable(start, budget + extra, cost=cost, passable=passable)
    assert set(small) <= set(big)
    for h in small:
        assert big.cost[h] == small.cost[h] <= budget
        path = small.path_to(h)
        assert path[0] == start and path[-1] == h
        assert all(passable(x) for x in path[1:])


@settings(max_examples=60)
@given(walls, hexes(3), st.integers(0, 5))
def test_unit_reach_matches_weighted_reach(wall: frozenset[Hex], start: Hex, budget: int) -> None:
    def passable(h: Hex) -> bool:
        return h not in wall

    def stops(h: Hex) -> bool:
        return (h.q + 2 * h.r) % 5 == 0

    bfs = reachable(start, budget, passable=passable, stops=stops)
    dij = reachable(start, budget, passable=passable, stops=stops, cost=lambda a, b: 1.0)
    assert bfs.cost == dij.cost
