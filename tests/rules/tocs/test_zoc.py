"""ZOC/EZOC and Extended Deployment (L169-L183, 10.15 L309-L312) and LOC through EZOC (L191)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs.supply import in_loc
from owsnb.rules.tocs.zoc import extended_hexes, zoc_of

from .conftest import begin, board, lab, set_data, set_owner, set_private, submit


def _to_german(g):
    begin(g, "allied")
    submit(g, "allied: done", [6, 6])
    begin(g, "german")


def test_10_15_l312_extended_deployment_example_and_no_degradation():
    g = board(
        units=[
            {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1206"},
            {
                "id": "G-6",
                "type": "ger-infantry-company",
                "side": "german",
                "hex": "1105",
                "data": {"parent": "G-HQ"},
            },
            {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0101"},
        ]
    )
    m = g.state.map
    before = {m.label(h) for h in zoc_of(g.state, g.unit("G-6"))}
    assert before == {
        "1104",
        "1204",
        "1205",
        "1106",
        "1005",
        "1004",
    }  # all six adjacent hexes (L312)
    _to_german(g)
    submit(g, "german: activate G-HQ")
    submit(g, "german: extend G-6 1004")
    after = {m.label(h) for h in zoc_of(g.state, g.unit("G-6"))}
    assert after == {"1004", "0904", "1104", "1003", "1005", "0905"}
    assert not after & {"1204", "1205", "1106"}
    assert g.unit("G-6").get("state") == 0 and g.unit("G-HQ").get("ap") == 2


def _extended_setup(**options):
    g = board(
        units=[
            {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1006"},
            {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0806"},
            {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0303"},
            {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0303"},
            {"id": "A-ARM", "type": "ger-panzer-platoon", "side": "allied", "hex": "0303"},
        ],
        options=options,
    )
    c = g.unit("G-1").hex
    d = 3  # facing north-west
    (f_l, o_l), (f_c, o_c), (f_r, o_r) = extended_hexes(c, d)
    start = o_c.neighbour(d)
    m = g.state.map
    set_data(g, "G-1", ext_dir=d)
    for u in ("A-1", "A-ARM"):
        from .conftest import set_unit

        set_unit(g, u, hex=start)
    set_owner(g, m.label(start), "allied")
    return g, m.label(start), m.label(o_c), m.label(f_c)


def test_e4_l178_company_entering_an_outer_extended_hex_stops():
    g, start, outer, front = _extended_setup()
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, f"allied: move A-1 {outer}")
    u = g.unit("A-1")
    assert (
        lab(g, "A-1") == outer and u.get("mp_left") == 0 and u.get("ap") == 2
    )  # MP lost, AP kept (L173)
    assert outer in g.state.sides["allied"].private["ezoc_known"]
    assert (
        g.state.map.hexes[g.hex(outer)].facts["owner"] == "allied"
    )  # A.1: the hex becomes friendly


def test_l176_text_ruling_unit_in_extended_ezoc_is_not_held_by_ezoc_to_ezoc():
    g, start, outer, front = _extended_setup()
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, f"allied: move A-1 {outer}")
    submit(g, f"allied: move A-1 {front}")
    assert lab(g, "A-1") == front


def test_l178_example_ruling_blocks_ezoc_to_ezoc_and_forfeits_the_ap():
    g, start, outer, front = _extended_setup(ext_ezoc_to_ezoc="example")
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, f"allied: move A-1 {outer}")
    submit(g, f"allied: move A-1 {front}")
    assert lab(g, "A-1") == outer and g.unit("A-1").get("ap") == 1


def test_l180_breach_armor_pays_2x_cot_and_the_outer_hex_is_cleared():
    g, start, outer, front = _extended_setup(ext_ezoc_to_ezoc="example")
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, f"allied: move A-1 {outer}")
    submit(g, "allied: activate A-ARM")  # 3 AP x 4 MP
    submit(g, f"allied: move A-ARM {outer}")  # armor is not stopped by extended EZOC (L310)
    assert g.unit("A-ARM").get("mp_left") == 3  # paid 1 (clear, tracked); not stopped
    submit(g, f"allied: move A-ARM {front}")  # EZOC to EZOC: 2 x COT (L174)
    assert lab(g, "A-ARM") == front and g.unit("A-ARM").get("mp_left") == 1
    zoc = {g.state.map.label(h) for h in zoc_of(g.state, g.unit("G-1"))}
    assert (
        outer not in zoc and front in zoc
    )  # the hex behind a friendly-occupied hex goes at once (L180)


def test_l173_a1_move_into_empty_enemy_hex_in_ezoc_stops_and_takes_the_hex():
    g = board()
    begin(g)
    submit(g, "allied: activate A-2")
    for h in ("0505", "0605", "0706"):
        submit(g, f"allied: move A-2 {h}")  # adjacent to G-1 in 0806: real EZOC
    u = g.unit("A-2")
    assert lab(g, "A-2") == "0706" and u.get("mp_left") == 0
    assert g.state.map.hexes[g.hex("0706")].facts["owner"] == "allied"
    assert "0706" in g.state.sides["allied"].private["ezoc_known"]
    pub = [e.data["text"] for e in g.events if e.kind == "note" and e.visible_to is None]
    assert any("0706 is in EZOC" in t for t in pub)


def test_l174_non_mech_may_not_move_ezoc_to_ezoc():
    g = board()
    begin(g)
    submit(g, "allied: activate A-2")
    for h in ("0505", "0605", "0706"):
        submit(g, f"allied: move A-2 {h}")
    submit(g, "allied: move A-2 0707")  # also in G-1's EZOC: blocked, the AP is forfeit
    assert lab(g, "A-2") == "0706"


def test_declared_policy_only_standing_declarations_stop_movers():
    g = board(options={"ezoc_declaration": "declared"})
    begin(g)
    submit(g, "allied: activate A-2")
    for h in ("0505", "0605", "0706"):
        submit(g, f"allied: move A-2 {h}")
    assert g.unit("A-2").get("mp_left") > 0  # not declared: no stop
    with pytest.raises(IllegalOrderError) as e:
        g.submit("german: zoc 0301")  # a false EZOC is a rules breach (L18, L173)
    assert e.value.code == "no-zoc"
    submit(g, "german: zoc 0707")
    assert "0707" in g.state.sides["allied"].private["ezoc_known"]
    submit(g, "allied: move A-2 0707")  # 0706 is undeclared, 0707 declared: the entry stops
    assert lab(g, "A-2") == "0707" and g.unit("A-2").get("mp_left") == 0


def test_e6_l191_loc_fails_through_friendly_owned_empty_ezoc_hex():
    g = board(
        units=[
            {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0303"},
            {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0305"},
            {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        ]
    )
    ring = sorted(
        g.state.map.label(h) for h in g.unit("A-1").hex.neighbours() if h in g.state.map.hexes
    )
    assert in_loc(g.state, g.unit("A-1"))
    set_private(g, "allied", ezoc_known=ring)  # the side has been told these hexes are in EZOC
    assert not in_loc(g.state, g.unit("A-1"))
    from .conftest import set_unit

    set_unit(g, "A-HQ", hex=g.hex("0304"))  # a friendly unit in the EZOC hex lets LOC through
    assert in_loc(g.state, g.unit("A-1"))
