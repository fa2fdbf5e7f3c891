"""Supply (11.1): checked at 7.A, effects through the next turn; each test names its paragraph."""

import pytest

from owsnb.rules.ows import supply as sp
from owsnb.rules.ows.movement import movement_points, zone_distance

from .conftest import at
from .ground_kit import blank, line, nbrs


def U(i, t, side, hexlab, **data):
    d = {"id": i, "type": t, "side": side, "hex": hexlab}
    if data:
        d["data"] = data
    return d


def test_11_1_normal_within_2_zones_11_1_2_low_beyond_when_connected():
    row = line("0101", 0, 8)
    g = blank(
        [
            U("CSS", "css-bn", "blue", row[0]),
            *[U(f"T{i}", "light-bn", "blue", x) for i, x in enumerate(row[1:])],
        ],
        cols=16,
        rows=16,
    )
    s = g.state
    for i, x in enumerate(row[1:]):
        t = sp.trace(s, s.units[f"T{i}"])
        z = zone_distance(s, s.map.hex(row[0]), s.map.hex(x))
        assert t.zones == z and t.status == ("normal" if z <= 2 else "low"), (x, z, t)
    far = blank(
        [U("CSS", "css-bn", "blue", "0101"), U("T", "light-bn", "blue", "1616")], cols=16, rows=16
    )
    t = sp.trace(far.state, far.state.units["T"])
    assert t.status == "low" and t.zones > 2 and "11.1.2" in t.why


def test_11_1_1_an_enemy_zoc_cuts_the_line_11_1_3_out_of_supply():
    wall = [
        U(f"R{i}", "mech-bde", "red", f"05{r:02d}") for i, r in enumerate((1, 3, 5, 7))
    ]  # ZOC covers column 05
    g = blank([U("CSS", "css-bn", "blue", "0101"), U("T", "light-bn", "blue", "0808"), *wall])
    t = sp.trace(g.state, g.state.units["T"])
    assert t.status == "out" and "11.1.3" in t.why
    gap = blank([U("CSS", "css-bn", "blue", "0101"), U("T", "light-bn", "blue", "0808"), *wall[:3]])
    t2 = sp.trace(gap.state, gap.state.units["T"])
    assert t2.status != "out" and any(
        x.startswith("0508") or x.startswith("0507") for x in t2.path
    )  # around the end
    enc = blank(
        [
            U("CSS", "css-bn", "blue", "0101"),
            U("T", "light-bn", "blue", "0404"),
            *[U(f"R{i}", "light-bn", "red", x) for i, x in enumerate(nbrs("0404"))],
        ]
    )
    assert sp.trace(enc.state, enc.state.units["T"]).status == "out"  # surrounded by enemy units


def test_S2_the_units_own_hex_may_be_in_an_enemy_zoc_and_a_friendly_held_hex_carries_the_line():
    g = blank(
        [
            U("CSS", "css-bn", "blue", "0101"),
            U("T", "light-bn", "blue", "0303"),
            U("R", "mech-bde", "red", "0404"),
        ]
    )
    assert sp.trace(g.state, g.state.units["T"]).status == "normal"


def test_11_1_15_wheeled_mp_trace_without_zones():
    row = line("0101", 0, 8)
    g = blank(
        [
            U("CSS", "css-bn", "blue", row[0]),
            U("A", "light-bn", "blue", row[5]),
            U("B", "light-bn", "blue", row[6]),
        ],
        meta={},
    )
    s = g.state
    a, b = sp.trace(s, s.units["A"]), sp.trace(s, s.units["B"])
    assert a.zones is None and a.mp == 15 and a.status == "normal"  # 5 clear hexes x 3 wheeled MP
    assert b.mp == 18 and b.status == "low"


def test_S1_a_side_without_any_supply_source_is_not_checked():
    g = blank([U("T", "light-bn", "blue", "0404")])
    assert sp.trace(g.state, g.state.units["T"]).status == "normal"
    g2 = blank(
        [U("T", "light-bn", "blue", "0404")],
        tables={"ground": {"supply_sources": {"blue": ["0808"]}}},
        meta={},
    )
    assert sp.trace(g2.state, g2.state.units["T"]).source == "0808"


def test_11_1_3_supply_is_checked_at_7_A_out_of_supply_halves_mp_and_lasts_through_the_next_turn():
    ring = nbrs("0404")
    g = blank(
        [
            U("CSS", "css-bn", "blue", "0101"),
            U("T", "recon-bn", "blue", "0404"),
            *[U(f"R{i}", "light-bn", "red", x) for i, x in enumerate(ring)],
        ],
        turns=5,
    )
    g.submit("umpire: advance 7.I")
    t = g.state.units["T"]
    assert "out-of-supply" in t.markers
    assert movement_points(g.state, t).mp == 7
    g.submit("umpire: advance 6.C.3")  # next turn: still out of supply
    assert g.clock.turn == 2 and "out-of-supply" in g.state.units["T"].markers
    assert all(e.visible_to != frozenset({"red"}) for e in g.events if e.rule == "11.1.3")


@pytest.mark.parametrize("status, cols", [("low", 1), ("out", 2)])
def test_11_1_supply_effects_on_the_gcat_columns(status, cols):
    from owsnb.rules.ows import ground as gr

    g = at(
        blank([U("A", "armour-bde", "blue", "0404"), U("D", "mech-bde", "red", "0505")]), "6.C.3"
    )
    s = g.state
    base = gr.combat(s, "blue", s.map.hex("0505"), [s.units["A"]])
    m = sp.MARKERS[status]
    s2 = s.evolve(units={**s.units, "A": s.units["A"].evolve(markers={m})})
    assert gr.combat(s2, "blue", s.map.hex("0505"), [s2.units["A"]]).column == max(
        base.column - cols, 0
    )
