"""Concrete cases for the hex grid, offset labels, paths, reach and field of view."""

from __future__ import annotations

import math
import pickle
import time

import numpy as np
import pytest

from owsnb.kernel.errors import InvalidHexError, OwsnbError
from owsnb.kernel.hexgrid import (
    DIRECTIONS,
    Hex,
    Path,
    field_of_view,
    find_path,
    hex_round,
    reachable,
)
from owsnb.kernel.offset import OffsetSystem

# --- Hex -------------------------------------------------------------------------------------


def test_vector_addition_not_concatenation() -> None:
    assert Hex(1, 2) + Hex(1, 1) == Hex(2, 3)
    assert Hex(1, 2) - Hex(1, 1) == Hex(0, 1)
    assert -Hex(1, -2) == Hex(-1, 2)
    assert Hex(1, -2) * 3 == 3 * Hex(1, -2) == Hex(3, -6)
    assert isinstance(Hex(1, 2) + Hex(1, 1), Hex)


def test_arithmetic_with_non_hexes_is_refused() -> None:
    with pytest.raises(TypeError):
        Hex(1, 2) + (1, 1)  # type: ignore[operator]
    with pytest.raises(TypeError):
        Hex(1, 2) * 1.5  # type: ignore[operator]


def test_hex_basics() -> None:
    h = Hex(3, -1)
    assert repr(h) == "Hex(3, -1)" == str(h)
    assert eval(repr(h)) == h
    assert (h.q, h.r, h.s) == (3, -1, -2)
    assert h == (3, -1) and hash(h) == hash((3, -1))
    assert Hex(q=1, r=2) == Hex(1, 2)
    assert pickle.loads(pickle.dumps(h)) == h
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]


@pytest.mark.parametrize(
    ("q", "r", "message"),
    [
        (1.0, 2, "hex coordinate q must be an int, not float (1.0)"),
        (1, "2", "hex coordinate r must be an int, not str ('2')"),
        (True, 2, "hex coordinate q must be an int, not a bool (True)"),
        (1, None, "hex coordinate r must be an int, not NoneType (None)"),
    ],
)
def test_hex_rejects_non_ints(q: object, r: object, message: str) -> None:
    with pytest.raises(InvalidHexError) as info:
        Hex(q, r)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert isinstance(info.value, ValueError) and isinstance(info.value, OwsnbError)


def test_hex_accepts_numpy_ints_as_plain_ints() -> None:
    h = Hex(np.int64(2), np.int32(-3))  # type: ignore[arg-type]
    assert h == Hex(2, -3) and type(h.q) is int and type(h.r) is int


def test_replace_is_validated() -> None:
    assert Hex(1, 2)._replace(r=5) == Hex(1, 5)
    with pytest.raises(InvalidHexError):
        Hex(1, 2)._replace(q=0.5)


def test_distance_and_directions() -> None:
    assert Hex(0, 0).distance(Hex(3, -3)) == 3
    assert Hex(-2, 4).distance(Hex(2, 0)) == 4
    assert DIRECTIONS[0] == Hex(1, 0) and DIRECTIONS[5] == Hex(0, 1)
    assert Hex(2, 2).neighbour(2) == Hex(2, 1)
    with pytest.raises(InvalidHexError, match="direction must be an int 0..5, got 6"):
        Hex(0, 0).neighbour(6)


def test_ring_and_disc() -> None:
    assert Hex(4, 4).ring(0) == [Hex(4, 4)]
    assert set(Hex(0, 0).ring(1)) == set(Hex(0, 0).neighbours())
    assert len(Hex(0, 0).ring(2)) == 12
    assert Hex(0, 0).disc(0) == [Hex(0, 0)]
    assert len(Hex(0, 0).within(3)) == 37
    with pytest.raises(ValueError, match="radius must be a non-negative int, got -1"):
        Hex(0, 0).ring(-1)
    with pytest.raises(ValueError, match="radius must be a non-negative int, got 1.5"):
        Hex(0, 0).disc(1.5)  # type: ignore[arg-type]


def test_line_is_stable_on_ties() -> None:
    # (0,0)->(2,-1) passes exactly between (1,0) and (1,-1): the nudge picks one, always the same
    assert Hex(0, 0).line(Hex(2, -1)) == Hex(0, 0).line(Hex(2, -1))
    assert len(Hex(0, 0).line(Hex(2, -1))) == 3
    assert Hex(0, 0).line(Hex(0, 3)) == [Hex(0, 0), Hex(0, 1), Hex(0, 2), Hex(0, 3)]
    with pytest.raises(InvalidHexError):
        Hex(0, 0).line((1, 1))  # type: ignore[arg-type]


def test_hex_round() -> None:
    assert hex_round(0.0, 0.0) == Hex(0, 0)
    assert hex_round(2.2, -0.9) == Hex(2, -1)
    assert hex_round(np.float64(1.1), np.float64(0.1)) == Hex(1, 0)
    with pytest.raises(InvalidHexError, match="not finite"):
        hex_round(math.nan, 0.0)
    with pytest.raises(InvalidHexError, match="not numbers"):
        hex_round("a", 0.0)  # type: ignore[arg-type]


def test_rotation() -> None:
    ring = [Hex(0, 0).neighbour(i) for i in range(6)]
    assert [h.rotate_left() for h in ring] == ring[1:] + ring[:1]
    assert [h.rotate_right() for h in ring] == ring[-1:] + ring[:-1]


# --- offset labels -----------------------------------------------------------------------------


def test_default_labels() -> None:
    ows = OffsetSystem()
    assert ows.to_label(Hex(0, 0)) == "0101"
    assert ows.from_label("0304") == Hex(2, 2)
    assert ows.to_label(Hex(2, 2)) == "0304"
    # flat odd-q: the odd 0-based columns (printed 02, 04, ...) are shifted down half a hex
    assert ows.from_label("0201") == Hex(1, 0)
    assert ows.from_label("0101").distance(ows.from_label("0201")) == 1
    assert ows.from_label("0102").distance(ows.from_label("0201")) == 1


@pytest.mark.parametrize(
    ("orientation", "parity", "label", "hex_"),
    [
        ("flat", "odd", "0202", Hex(1, 1)),
        ("flat", "even", "0202", Hex(1, 0)),
        ("pointy", "odd", "0202", Hex(1, 1)),
        ("pointy", "even", "0202", Hex(0, 1)),
    ],
)
def test_four_offset_systems(orientation: str, parity: str, label: str, hex_: Hex) -> None:
    ows = OffsetSystem(orientation, parity)  # type: ignore[arg-type]
    assert ows.from_label(label) == hex_
    assert ows.to_label(hex_) == label


def test_first_col_and_row() -> None:
    ows = OffsetSystem(first_col=0, first_row=0)
    assert ows.to_label(Hex(0, 0)) == "0000"
    assert ows.rectangle(1, 2) == [Hex(0, 0), Hex(0, 1)]


@pytest.mark.parametrize("bad", ["03x4", "304", "03045", "", "    ", "-304", "０３０４", "03 4"])
def test_bad_labels(bad: str) -> None:
    with pytest.raises(InvalidHexError) as info:
        OffsetSystem().from_label(bad)
    assert str(info.value) == (f"{bad!r} is not a hex label: expected 4 digits CCRR (column, row)")


def test_label_not_a_string() -> None:
    with pytest.raises(InvalidHexError, match=r"304 is not a hex label: .* as a string"):
        OffsetSystem().from_label(304)  # type: ignore[arg-type]


def test_label_whitespace_and_wider_labels() -> None:
    assert OffsetSystem().from_label("  0304\n") == Hex(2, 2)
    wide = OffsetSystem(digits=3)
    assert wide.to_label(Hex(2, 2)) == "003004"
    assert wide.from_label("003004") == Hex(2, 2)
    with pytest.raises(InvalidHexError, match="expected 6 digits CCCRRR"):
        wide.from_label("0304")


def test_label_overflow_and_negative() -> None:
    ows = OffsetSystem()
    far = ows.from_offset(120, 5)
    with pytest.raises(InvalidHexError, match=r"printed column 120 needs more than 2 digits"):
        ows.to_label(far)
    assert OffsetSystem(digits=3).to_label(far) == "120005"
    with pytest.raises(InvalidHexError, match=r"printed row -1 is negative"):
        ows.to_label(Hex(0, -2))


def test_offset_system_validation() -> None:
    with pytest.raises(ValueError, match="orientation must be 'flat' or 'pointy'"):
        OffsetSystem("square")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="parity must be 'odd' or 'even'"):
        OffsetSystem(parity="both")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="digits must be >= 1"):
        OffsetSystem(digits=0)
    with pytest.raises(InvalidHexError, match="column must be an int"):
        OffsetSystem().from_offset(1.0, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cols must be a non-negative int"):
        OffsetSystem().rectangle(-1, 3)


def test_rectangle() -> None:
    ows = OffsetSystem()
    rect = ows.rectangle(3, 2)
    assert [ows.to_label(h) for h in rect] == ["0101", "0102", "0201", "0202", "0301", "0302"]
    assert ows.rectangle(0, 5) == []


# --- paths -----------------------------------------------------------------------------------


def test_find_path_trivial_and_blocked() -> None:
    p = find_path(Hex(2, 2), Hex(2, 2))
    assert p is not None and p.hexes == (Hex(2, 2),) and p.cost == 0 and len(p) == 0 and p
    assert find_path(Hex(0, 0), Hex(1, 0), passable=lambda h: h != Hex(1, 0)) is None
    board = set(Hex(0, 0).disc(3))
    ring = set(Hex(3, 0).ring(1))  # goal (3, 0) walled in
    assert find_path(Hex(0, 0), Hex(3, 0), passable=lambda h: h in board and h not in ring) is None


def test_find_path_with_costs() -> None:
    # a road along r == 0 costs 0.5, everything else 2
    def cost(a: Hex, b: Hex) -> float:
        return 0.5 if a.r == 0 and b.r == 0 else 2.0

    p = find_path(Hex(0, 0), Hex(6, 0), cost=cost, min_cost=0.5)
    assert p is not None and p.cost == 3.0 and len(p) == 6
    with pytest.raises(ValueError, match=r"below min_cost=1.0; pass a smaller min_cost"):
        find_path(Hex(0, 0), Hex(6, 0), cost=cost)
    with pytest.raises(ValueError, match="costs must be >= 0"):
        find_path(Hex(0, 0), Hex(2, 0), cost=lambda a, b: -1.0, min_cost=0)


def test_find_path_cost_none_or_inf_blocks_steps() -> None:
    def cost(a: Hex, b: Hex) -> float | None:
        if b == Hex(1, 0):
            return None
        if b == Hex(1, -1):
            return math.inf
        return 1.0

    p = find_path(Hex(0, 0), Hex(2, -1), cost=cost)
    assert p is not None and Hex(1, 0) not in p.hexes and Hex(1, -1) not in p.hexes
    assert p.cost == 4.0  # both hexes of the two-step routes are barred
    assert find_path(Hex(0, 0), Hex(2, -1), cost=cost, max_cost=3.5) is None


def test_find_path_max_nodes_bound() -> None:
    # goal walled off by cost alone on an unbounded grid: the search must still stop
    walled = set(Hex(5, 0).ring(1))
    res = find_path(
        Hex(0, 0), Hex(5, 0), cost=lambda a, b: None if b in walled else 1.0, max_nodes=2000
    )
    assert res is None


def test_path_type() -> None:
    p = Path((Hex(0, 0), Hex(1, 0), Hex(2, 0)), 2.0)
    assert len(p) == 2 and list(p) == list(p.hexes) and p.start == Hex(0, 0) and p.goal == Hex(2, 0)
    with pytest.raises(AttributeError):
        p.cost = 3.0  # type: ignore[misc]


# --- reach -----------------------------------------------------------------------------------


def test_reachable_basic() -> None:
    r = reachable(Hex(0, 0), 2)
    assert len(r) == 19
    assert r.cost[Hex(0, 0)] == 0
    assert r.cost[Hex(2, -1)] == 2
    assert Hex(3, 0) not in r
    assert list(r)[0] == Hex(0, 0)
    assert r.path_to(Hex(0, 0)) == (Hex(0, 0),)
    assert len(reachable(Hex(0, 0), 0)) == 1
    with pytest.raises(InvalidHexError, match=r"Hex\(3, 0\) is not reachable from Hex\(0, 0\)"):
        r.path_to(Hex(3, 0))
    with pytest.raises(ValueError, match="budget must be a number >= 0"):
        reachable(Hex(0, 0), -1)


def test_reachable_with_stops() -> None:
    # a zone of control on the hex east of the start: it can be entered, not crossed
    zoc = {Hex(1, 0), Hex(1, -1)}
    r = reachable(Hex(0, 0), 3, stops=zoc.__contains__)
    assert Hex(1, 0) in r and r.cost[Hex(1, 0)] == 1
    assert Hex(2, 0) in r and r.cost[Hex(2, 0)] == 3  # around through (1, 1)
    assert Hex(1, 1) in r.path_to(Hex(2, 0))
    assert all(h not in zoc for h in r.path_to(Hex(2, 0))[:-1])
    assert Hex(2, -2) in r and Hex(1, -1) not in r.path_to(Hex(2, -2))[:-1]
    # the start itself is never stopped
    r2 = reachable(Hex(1, 0), 1, stops=zoc.__contains__)
    assert len(r2) == 7


def test_reachable_weighted_and_inf() -> None:
    def cost(a: Hex, b: Hex) -> float | None:
        if b.q == 1:
            return math.inf
        return 0.1 if b.q < 0 else 1.0

    r = reachable(Hex(0, 0), 0.3, cost=cost)
    # 0.1 + 0.1 + 0.1 fits a budget of 0.3 despite float rounding
    assert Hex(-3, 0) in r
    assert all(h.q != 1 for h in r)


def test_reachable_is_fast_on_a_2000_hex_map() -> None:
    board = set(Hex(0, 0).disc(25))  # 1,951 hexes
    assert len(reachable(Hex(0, 0), 1000, passable=board.__contains__)) == len(board)
    for kwargs in ({}, {"cost": lambda a, b: 1.0}):
        best = math.inf
        for _ in range(5):
            t0 = time.perf_counter()
            reachable(Hex(0, 0), 1000, passable=board.__contains__, **kwargs)  # type: ignore
            best = min(best, time.perf_counter() - t0)
        assert best < 0.05, f"reachable took {best * 1000:.1f} ms"  # ~3-6 ms here; slack for CI


# --- field of view ---------------------------------------------------------------------------


def test_field_of_view() -> None:
    open_ = field_of_view(Hex(0, 0), lambda h: True, 3)
    assert open_ == set(Hex(0, 0).disc(3))
    wall = {Hex(1, 0)}
    fov = field_of_view(Hex(0, 0), lambda h: h not in wall, 4)
    assert Hex(1, 0) in fov  # the wall itself is seen
    assert Hex(2, 0) not in fov and Hex(4, 0) not in fov
    assert Hex(0, 4) in fov and Hex(0, 0) in fov
    everything_blocked = field_of_view(Hex(0, 0), lambda h: False, 2)
    assert everything_blocked == set(Hex(0, 0).disc(1))
