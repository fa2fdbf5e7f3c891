"""Reprs that stay short and answers that are the same wherever the question is asked (issue 17):
capped reprs for maps, clocks and events; one error for an unknown side; a clear error for a bad
seed; a bug inside validation is not dressed up as a refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

import owsnb
from owsnb.kernel import (
    Event,
    IllegalOrderError,
    InvalidSeedError,
    OrderHandler,
    OrderType,
    Param,
    UnknownSideError,
    freeze,
)
from owsnb.kernel.orders import Order
from owsnb.kernel.ruleset import _references

ROOT = Path(__file__).resolve().parents[2]


# -- reprs ---------------------------------------------------------------------------------------
def test_the_largest_map_prints_in_one_short_line():
    """``repr(game.state.map)`` was the whole dataclass: 37,486 characters for the Western
    Pacific."""
    sizes = {}
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        game = owsnb.load(path, seed=1, save=False)
        r = repr(game.state.map)
        sizes[path.stem] = len(r)
        assert r.startswith(f"<MapState {len(game.state.map)} hexes ") and "\n" not in r
    assert max(sizes.values()) <= 250, sizes


def test_clock_and_event_reprs_are_readable_and_short(game):
    assert repr(game.clock) == f"<Clock {game.clock}>"
    assert "phase_title=" not in repr(game.clock)
    game.submit("blue: done")
    e = game.events[-1]
    assert repr(e).startswith(f"<Event #{e.seq} {e.kind} ") and len(repr(e)) <= 250
    big = Event("note", freeze({"text": "x" * 10_000}), rule="8.2")
    assert len(repr(big)) < 200 and "…" in repr(big)


SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_unit_prints_its_hex_as_the_map_prints_it(path):
    """``Unit`` printed ``Hex(11, 4)`` where orders say ``1210``: every unit of every bundled
    scenario — in the truth, in each side's view, after play and after a round trip through the
    store's codec — prints the printed label of its hex (the map's numbering, or a hex's own
    label), the label an order would use."""
    from owsnb.kernel import codec
    from owsnb.testing.playout import random_playout

    game = owsnb.load(path, seed=1, save=False)
    random_playout(game, max_orders=40, seed=1, check_views=False)
    states = [game.state, codec.loads(codec.dumps(game.state))]
    states += [game.view(side) for side in game.state.sides]
    placed = 0
    for state in states:
        for unit in state.units.values():
            if unit.hex is None:
                assert f" at {unit.box or 'off-map'} " in repr(unit)
                continue
            label = state.map.label(unit.hex)
            assert f" at {label} " in repr(unit), (repr(unit), label)
            assert "Hex(" not in repr(unit) and label in unit._repr_html_()
            placed += 1
    assert placed or not game.state.units


def test_a_units_map_is_not_part_of_its_data(game):
    """The map a unit stands on (``Unit.board``) serves its labels only: units compare and hash
    as before, and neither the store nor the wire carries the map once per unit."""
    from owsnb.kernel import codec

    unit = next(iter(game.state.units.values()))
    bare = codec.loads(codec.dumps(unit))
    assert unit.board is game.state.map and bare.board is None
    assert bare == unit and hash(bare) == hash(unit)
    assert "board" not in codec.dumps(unit)
    assert repr(bare) != repr(unit) and f"at {bare.hex!r}" in repr(bare)


# -- one answer for an unknown side --------------------------------------------------------------
@pytest.mark.parametrize(
    "ask",
    [
        lambda g: g.view("purple"),
        lambda g: g.legal_orders("purple"),
        lambda g: g.check("purple: done"),
        lambda g: g.preview("purple: done"),
        lambda g: g.submit("purple: done"),
        lambda g: g.annotate("note", side="purple"),
    ],
    ids=["view", "legal_orders", "check", "preview", "submit", "annotate"],
)
def test_an_unknown_side_gets_the_same_error_everywhere(game, ask):
    before = game.state_id
    with pytest.raises(UnknownSideError) as err:
        ask(game)
    assert str(err.value) == "unknown side 'purple'; the sides are blue, red (and umpire)"
    assert err.value.code == "unknown-side"
    # still what callers caught before: a refusal, and a failed lookup
    assert isinstance(err.value, IllegalOrderError) and isinstance(err.value, KeyError)
    assert game.state_id == before


def test_a_local_seat_on_an_unknown_side_is_refused_the_same_way(game):
    from owsnb.widgets.seat import LocalSeat

    with pytest.raises(UnknownSideError, match="unknown side 'purple'"):
        LocalSeat(game, "purple")


# -- a bad seed ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", ["abc", -1, 1.5, [1, 2], True])
def test_a_bad_seed_is_an_owsnb_error_not_numpys(skirmish_file, seed):
    with pytest.raises(InvalidSeedError, match="whole number from 0 up"):
        owsnb.load(skirmish_file, seed=seed, save=False)


def test_a_good_seed_still_plays_the_same_dice(skirmish_file):
    a = owsnb.load(skirmish_file, seed=5, save=False)
    b = owsnb.load(skirmish_file, seed=5, save=False)
    assert a.state.rng == b.state.rng


# -- a bug inside validation is not a refusal ------------------------------------------------------
class _Buggy(OrderHandler):
    type = OrderType("probe", (Param("unit", "unit"),), rule="X.1")

    def validate(self, state, order, args):
        state.units[args["unit"]]  # the order's own reference: a refusal if it is not there
        {}["a table key"]  # a bug: no such key in some table


def test_a_missing_reference_the_order_makes_is_refused():
    order = Order("blue", "probe", ("B-9",))
    with pytest.raises(IllegalOrderError) as err:
        with _references(order, "X.1"):
            {}["B-9"]
    assert err.value.code == "unknown-reference" and err.value.rule == "X.1"
    # a part of a token ("DDG-1:tlam", "a,b") counts as the order's reference too
    with pytest.raises(IllegalOrderError):
        with _references(Order("blue", "strike", ("T-1", "DDG-1:tlam")), "9.2"):
            {}["DDG-1"]


def test_a_key_error_from_a_bug_inside_validation_is_not_a_polite_refusal(game):
    """It used to come back as ``IllegalOrderError(code="unknown-reference")``."""
    order = Order("blue", "probe", ("B-INF-1",))
    with pytest.raises(KeyError) as err:
        with _references(order, "X.1"):
            _Buggy().validate(game.state, order, {"unit": "B-INF-1"})
    assert not isinstance(err.value, IllegalOrderError)
    assert err.value.args == ("a table key",)


def test_a_patrol_craft_whose_leash_cuts_every_way_is_refused_with_its_rule():
    """6.4.1.1: the Western Pacific play-out met a destination inside a patrol craft's leash with
    no way there inside it; the bug (a KeyError rebuilding the path) used to pass for an
    unknown reference."""
    from owsnb.kernel.hexgrid import Hex
    from owsnb.rules.ows.movement.naval import _sea_path

    class _U:
        hex = Hex(0, 0)

    reach = {Hex(0, 0): 0, Hex(2, 0): 2}  # the hex between was cut by the leash
    assert _sea_path(None, _U(), Hex(2, 0), reach) is None  # type: ignore[arg-type]
    reach[Hex(1, 0)] = 1
    assert _sea_path(None, _U(), Hex(2, 0), reach) == [Hex(0, 0), Hex(1, 0), Hex(2, 0)]  # type: ignore[arg-type]
