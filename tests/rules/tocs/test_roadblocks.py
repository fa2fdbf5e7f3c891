"""Roadblocks (WWII 10.10, L292-L295)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError

from .conftest import begin, board, lab, set_data, set_private, set_unit, submit


def test_l295_an_enemy_roadblock_denies_road_rate_into_its_hex():
    g = board()
    set_private(g, "german", roadblocks=["0805"])
    set_unit(g, "A-1", hex=g.hex("0705"))
    begin(g)
    submit(g, "allied: activate A-1")  # 3 AP x 2 MP
    sub = submit(g, "allied: move A-1 0805")  # by road 1 MP; off road into the polder 1 + 1 = 2 MP
    assert lab(g, "A-1") == "0805" and g.unit("A-1").get("mp_left") == 0  # paid 2 MP, not 1
    assert "0805" in g.state.sides["allied"].private["roadblocks_known"]
    from owsnb.testing import find_leaks

    assert not find_leaks(
        [dict(e.data) for e in sub.events if e.visible("german")], {"A-1", "A-2", "A-HQ"}
    )


def test_l295_a_mover_that_cannot_pay_the_off_road_cost_is_sent_back():
    g = board()
    set_private(g, "german", roadblocks=["0805"])
    set_unit(g, "A-1", hex=g.hex("0705"))
    begin(g)
    submit(g, "allied: activate A-1")
    set_data(g, "A-1", ap=0, mp_left=1)  # one MP: enough by road, not off road
    submit(g, "allied: move A-1 0805")
    assert lab(g, "A-1") == "0705" and g.unit("A-1").get("mp_left") == 0


def test_l295_own_roadblocks_do_not_hinder_their_side_and_exits_are_free():
    g = board()
    set_private(g, "allied", roadblocks=["0403"])
    begin(g)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: move A-HQ 0403")  # by road into its own roadblock: road rate
    assert g.unit("A-HQ").get("mp_left") == 1


def test_l292_roadblock_is_secret_and_refusals_change_nothing():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    sub = submit(g, "allied: roadblock A-1 0503")
    assert [e for e in sub.events if e.visible("german")] == []
    assert (
        list(g.state.sides["allied"].private["roadblocks"]) == ["0503"]
        and g.unit("A-1").get("ap") == 2
    )
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: roadblock A-1 0703")  # two hexes away
    assert (e.value.code, e.value.rule) == ("not-friendly", "L292") and g.state is before
