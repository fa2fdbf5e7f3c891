"""The digest's worked examples not covered elsewhere (digest section 5, cases 12-15; appendix 4).

Each test names its case. Where the action a case needs is not implemented yet, the test is an
``xfail(strict=True)`` naming the missing action: it flips (and fails as XPASS) once the action
exists, so it must then lose its mark.
"""

from __future__ import annotations

import pytest

from owsnb.rules.tocs.terrain import step_cost

from .conftest import begin, board, lab, set_data, set_unit, submit


def _cost(g, uid, a, b, **kw):
    return step_cost(g.state, g.unit(uid), g.hex(a), g.hex(b), **kw)


def test_digest_case_12_l403_stream_hexside_plus_1_wheeled_plus_2_cancelled_by_a_road():
    g = board()
    assert (
        _cost(g, "A-1", "0404", "0504") == 1 + 1
    )  # clear (foot 1) + stream +1 (L403); the mover is not wheeled
    set_data(g, "A-2", mobility="motorized")
    assert _cost(g, "A-2", "0404", "0504") == 2 + 2  # wheeled: clear 2 (placeholder) + stream +2
    g2 = board(
        map={
            **_test_map(),
            "edges": [
                {"type": "stream", "hexes": ["0404", "0504"]},
                {"type": "road", "hexes": ["0404", "0504"]},
            ],
        }
    )
    assert _cost(g2, "A-1", "0404", "0504") == 1  # road rate; the road cancels the stream (L403)


def test_digest_case_12_l406_polder_plus_1_to_enter_and_plus_1_to_leave_unless_by_road():
    g = board()
    assert (
        _cost(g, "A-1", "0804", "0805") == 1 + 1
    )  # 20.06: polder (foot 1, placeholder) + 1 to enter off road
    assert _cost(g, "A-1", "0805", "0806") == 1 + 1  # leaving off road: clear 1 + 1 to leave
    assert (
        _cost(g, "A-1", "0705", "0805") == 1 and _cost(g, "A-1", "0805", "0905") == 1
    )  # by road: road rate only


def test_digest_case_12_l504_night_doubles_cot_except_on_roads():
    g = board()
    assert _cost(g, "A-1", "0804", "0805", night=True) == 2 * (1 + 1)
    assert _cost(g, "A-1", "0705", "0805", night=True) == 1


@pytest.mark.xfail(
    strict=True, reason="case 12, 35.11 (L423): contour lines are not modelled (no elevation data)"
)
def test_digest_case_12_l423_first_contour_plus_1_second_free():
    g = board(
        map={**_test_map(), "edges": [{"type": "contour", "hexes": ["0404", "0504"], "count": 2}]}
    )
    assert _cost(g, "A-1", "0404", "0504") == 1 + 1


@pytest.mark.xfail(
    strict=True,
    reason="case 12, 22.17/31.30 (L371): road classes and a T/W unit closing a 3-6 m road "
    "are not modelled",
)
def test_digest_case_12_l371_a_tw_unit_in_the_hex_closes_the_narrow_road():
    g = board(
        map={
            **_test_map(),
            "edges": [{"type": "road", "hexes": ["0303", "0403"], "class": "dirt-narrow"}],
        }
    )
    set_unit(g, "A-2", hex=g.hex("0403"))
    set_data(g, "A-2", mobility="motorized")
    set_data(g, "A-1", mobility="motorized")
    # the road is closed: the wheeled mover pays the clear COT (2), not the road rate (0.5)
    assert _cost(g, "A-1", "0303", "0403") == _cost(g, "A-1", "0303", "0403", road=False) == 2


def test_digest_case_13_l237_l272_recon_empty_undeclared_hexes_become_allied_declared_ezoc_stays_german():
    g = board()
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: recon A-2 0605")
    assert g.state.map.hexes[g.hex("0605")].facts["owner"] == "allied"  # empty, undeclared
    submit(g, "allied: recon A-2 0706")  # G-1 (0806) projects ZOC here: EZOC, stays German
    assert g.state.map.hexes[g.hex("0706")].facts["owner"] == "german"
    assert (
        "0706" in g.state.sides["allied"].private["ezoc_known"]
    )  # the Allies now know the EZOC (L172)
    assert lab(g, "A-2") == "0505"


def test_digest_case_13_l293_recon_reveals_a_roadblock_in_an_empty_hex():
    g = board(initiative="german")
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g, "german")
    submit(g, "german: activate G-1")
    sub = submit(g, "german: roadblock G-1 0706")  # 10.10: in an adjacent friendly hex, secret
    assert [e for e in sub.events if e.visible("allied")] == []
    submit(g, "german: done", [6, 6])  # the turn goes on: the Allied impulse
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: recon A-2 0605")
    sub = submit(g, "allied: recon A-2 0706")
    assert "A roadblock is found in 0706" in [
        e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None
    ]
    assert "0706" in g.state.sides["allied"].private["roadblocks_known"]


def test_digest_case_13_l298_recon_reveals_mines():
    g = board(
        initiative="german", rules={"supply_edges": {"german": ["1206"]}}
    )  # the engineer must be in LOS
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g, "german")
    set_data(g, "G-1", engineer=True)
    submit(g, "german: activate G-1")
    submit(g, "german: minefield G-1 0706")  # 10.11: own or adjacent friendly hex, secret
    submit(g, "german: done", [6, 6])
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: recon A-2 0605")
    sub = submit(g, "allied: recon A-2 0706")
    assert "A minefield is found in 0706" in [
        e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None
    ]
    assert "0706" in g.state.sides["allied"].private["minefields_known"]


@pytest.mark.xfail(
    strict=True,
    reason="case 14 (L578-L582): air supply (missions, escort, pathfinder, drift, Mobile "
    "Supply Depots) is not implemented",
)
def test_digest_case_14_l578_air_supply_drops_drift_and_become_depots_of_the_hex_owner():
    g = board(
        extra_units=[
            {"id": "A-T1", "type": "fighter-bomber-flight", "side": "allied", "box": "air:ready"}
        ]
    )
    begin(g)
    submit(g, "allied: fly A-T1 supply 0404")
    assert any(f.get("type") == "depot" for f in g.state.secret.get("facilities", ()))


@pytest.mark.xfail(
    strict=True,
    reason="case 15 (L614-L615): carpet bombing (flight plans, Bombing Table, accuracy "
    "d6 + pathfinders >= 4, each hex twice) is not implemented",
)
def test_digest_case_15_l615_carpet_bombing_resolves_each_hex_twice():
    g = board(
        extra_units=[
            {"id": "A-B1", "type": "fighter-bomber-flight", "side": "allied", "box": "air:ready"}
        ]
    )
    begin(g)
    sub = submit(g, "allied: fly A-B1 carpet-bombing 0806")
    assert sum("Bombing" in str(e.data) for e in sub.events) == 2


def _test_map():
    import yaml

    from .conftest import DATA

    return yaml.safe_load((DATA / "tocs-test.yaml").read_text())["map"]
