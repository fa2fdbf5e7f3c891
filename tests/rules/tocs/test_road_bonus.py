"""The road bonus (WWII 10.1, L245): +1 hex for each AP spent entirely at road rate (digest 6 #15)."""

from __future__ import annotations

import pytest

from .conftest import begin, board, lab, set_data, set_public, set_unit, submit


def _on_the_road(**kw):
    g = board(**kw)  # road 0303-0403-0503-0603; A-1 on foot: 2 MP per AP, road rate 1
    set_unit(g, "A-HQ", hex=g.hex("0202"))
    set_unit(g, "A-1", hex=g.hex("0303"))
    begin(g)
    submit(g, "allied: activate A-1")
    return g


def test_l245_an_ap_spent_entirely_at_road_rate_earns_one_more_road_hex():
    g = _on_the_road()
    submit(g, "allied: move A-1 0403")
    submit(g, "allied: move A-1 0503")  # the first AP is used up, all on the road: +1 hex
    assert g.unit("A-1").get("road_bonus") == 1 and g.unit("A-1").get("ap") == 2
    submit(g, "allied: move A-1 0603")  # free: no new AP bought
    assert (
        lab(g, "A-1") == "0603"
        and g.unit("A-1").get("ap") == 2
        and g.unit("A-1").get("road_bonus") == 0
    )


def test_l245_an_ap_partly_off_road_earns_nothing():
    g = _on_the_road()
    submit(g, "allied: move A-1 0302")  # off road
    submit(g, "allied: move A-1 0303")
    assert g.unit("A-1").get("mp_left") == 0 and not g.unit("A-1").get("road_bonus")


@pytest.mark.parametrize("option, ap_left", [("no", 1), ("yes", 2)])
def test_digest_6_15_road_bonus_for_motorized_units_is_an_option(option, ap_left):
    g = _on_the_road(options={"road_bonus_motorized": option})
    set_data(g, "A-1", mobility="motorized", mp=1)  # road rate 0.5: two road hexes per AP
    submit(g, "allied: move A-1 0403")
    submit(g, "allied: move A-1 0503")
    submit(g, "allied: move A-1 0603")
    assert g.unit("A-1").get("ap") == ap_left


def test_l528_fog_negates_the_road_bonus():
    """L528: "Fog negates the road bonus for all unit types." The same road move as above earns
    no free hex in fog: the third road hex costs a new AP."""
    g = _on_the_road()
    set_public(g, weather={**dict(g.state.public["weather"]), "fog": "fog"})
    submit(g, "allied: move A-1 0403")
    submit(g, "allied: move A-1 0503")
    assert not g.unit("A-1").get("road_bonus") and g.unit("A-1").get("ap") == 2
    submit(g, "allied: move A-1 0603")
    assert lab(g, "A-1") == "0603" and g.unit("A-1").get("ap") == 1
