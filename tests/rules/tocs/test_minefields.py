"""Minefields (WWII 10.11, L296-L298)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs.combat import Battle, column_for

from .conftest import begin, board, lab, set_data, set_private, set_unit, submit


def test_l296_an_engineer_lays_a_secret_minefield_with_all_its_ap():
    g = board()
    set_data(g, "A-1", engineer=True)
    begin(g)
    submit(g, "allied: activate A-1")
    sub = submit(g, "allied: minefield A-1 0503")
    assert list(g.state.sides["allied"].private["minefields"]) == ["0503"]
    assert [e for e in sub.events if e.visible("german")] == []
    assert g.unit("A-1").get("ap") == 0 and g.unit("A-1").get("state") == 1


def test_l296_only_engineers_lay_mines_refused_unchanged():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: minefield A-1 0503")
    assert (e.value.code, e.value.rule) == ("not-engineer", "L296") and g.state is before


def test_l296_a_minefield_adds_two_to_the_defender():
    g = board()
    b = Battle(g.hex("0806"), "allied", ["A-1"], "hasty")
    assert column_for(g.state, b, [g.unit("G-1")])[2] == 3
    set_private(g, "german", minefields=["0806"])
    col, att, dfn, notes = column_for(g.state, b, [g.unit("G-1")])
    assert dfn == 5 and "minefield +2" in notes


def _into_mines():
    g = board()
    set_private(g, "german", minefields=["0605"])
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g)
    submit(g, "allied: activate A-2")
    return g


@pytest.mark.parametrize("roll, state, keeps_ap", [([6, 6], 1, False), ([3, 3], 0, True)])
def test_l297_an_enemy_mover_stops_and_tests_its_morale(roll, state, keeps_ap):
    g = _into_mines()
    sub = submit(g, "allied: move A-2 0605", roll)  # ML 9: 12 fails, 6 passes
    u = g.unit("A-2")
    assert lab(g, "A-2") == "0605" and u.get("mp_left") == 0 and u.get("state") == state
    assert (u.get("ap") > 0) is keeps_ap
    assert "A minefield is struck in 0605" in [
        e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None
    ]
    assert "0605" in g.state.sides["allied"].private["minefields_known"]


@pytest.mark.parametrize("roll, leaves", [([3, 3], True), ([6, 6], False)])
def test_l297_leaving_costs_an_ap_and_a_morale_check(roll, leaves):
    g = _into_mines()
    submit(g, "allied: move A-2 0605", [3, 3])
    ap = g.unit("A-2").get("ap")
    submit(g, "allied: move A-2 0505", roll)
    u = g.unit("A-2")
    if leaves:
        assert (
            lab(g, "A-2") == "0505" and u.get("ap") <= ap - 1 - 1
        )  # 1 extra AP, then 1 AP bought for the move
    else:
        assert lab(g, "A-2") == "0605" and u.get("ap") == 0 and u.get("state") == 1


def test_l297_own_mines_only_deny_road_rate():
    g = board()
    set_private(g, "allied", minefields=["0403"])
    set_data(g, "A-HQ", mobility="motorized", mp=3)
    begin(g)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: move A-HQ 0403")  # road rate (0.5) denied: clear, wheeled 2 MP
    assert g.unit("A-HQ").get("mp_left") == 1 and g.unit("A-HQ").get("state") == 0


def test_l299_clear_a_known_enemy_roadblock_in_your_perimeter_for_one_ap():
    g = board()
    set_private(
        g, "german", roadblocks=["0503"]
    )  # an old German roadblock now inside the Allied perimeter
    begin(g)
    submit(g, "allied: activate A-1")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:  # not known yet: refused like no roadblock at all
        g.submit("allied: clear A-1 0503 roadblock")
    assert (e.value.code, e.value.rule) == ("unknown", "L299") and g.state is before
    set_private(g, "allied", roadblocks_known=["0503"])
    submit(g, "allied: clear A-1 0503 roadblock")
    assert (
        list(g.state.sides["german"].private["roadblocks"]) == [] and g.unit("A-1").get("ap") == 2
    )


def test_l299_an_engineer_clears_a_known_minefield_in_an_adjacent_empty_enemy_hex_with_all_its_ap():
    g = board()
    set_private(g, "german", minefields=["0604"])
    set_private(g, "allied", minefields_known=["0604"])
    set_unit(g, "A-1", hex=g.hex("0504"))
    set_data(g, "A-1", engineer=True)
    begin(g)
    submit(g, "allied: activate A-1")
    sub = submit(g, "allied: clear A-1 0604 mines")
    assert (
        list(g.state.sides["german"].private["minefields"]) == [] and g.unit("A-1").get("ap") == 0
    )
    assert [e for e in sub.events if e.visible("german") and e.kind == "note"] == []


def test_l299_clearing_a_known_minefield_is_answered_alike_whether_its_hex_is_occupied():
    """L299: an engineer clears "a known minefield ... in an adjacent empty enemy hex": whether the
    enemy hex is empty is the German's secret, so the Allied check answers alike either way; when
    the engineer sets to work in an occupied hex it spends its AP and is told, the field stays."""
    games = []
    for occupied in (False, True):
        g = board()
        set_private(g, "german", minefields=["0604"])
        set_private(g, "allied", minefields_known=["0604"])
        set_unit(g, "A-1", hex=g.hex("0504"))
        set_data(g, "A-1", engineer=True)
        if occupied:
            set_unit(g, "G-1", hex=g.hex("0604"))
        begin(g)
        submit(g, "allied: activate A-1")
        games.append(g)
    order = "clear A-1 0604 mines"
    told = [
        repr([(s.verb, dict(s.candidates), s.examples) for s in g.legal_orders("allied")])
        for g in games
    ]
    assert games[0].check("allied: " + order) == games[1].check("allied: " + order)
    assert told[0] == told[1]
    g = games[1]
    sub = submit(g, "allied: " + order)
    assert list(g.state.sides["german"].private["minefields"]) == ["0604"]
    assert g.unit("A-1").get("ap") == 0
    assert any("occupied" in e.data["text"] for e in sub.events if e.kind == "note")
    assert [e for e in sub.events if e.visible("german") and e.kind == "note"] == []
