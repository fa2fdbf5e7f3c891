"""Regeneration & logistics (11.2-11.10): each test names its paragraph."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import regeneration as regen
from owsnb.rules.ows.common import space
from owsnb.rules.ows.units import counter

from .conftest import FastRoller, at, load, run, with_events, within_3_sigma


def _through_regeneration(g, rolls):
    """From 6.C.3 through 7.A-7.H into 7.I with scripted rolls."""
    at(g, "6.C.3")
    return run(g, "umpire: advance 7.I", rolls)


def test_11_6_1_repair_without_and_with_an_engineer():
    assert regen.repair_preview(engineer=False)[True] == Fraction(1, 6)
    assert regen.repair_preview(engineer=True)[True] == Fraction(1, 2)
    g = load()
    from owsnb.kernel.events import hex_set

    g2 = with_events(g, [hex_set(g.hex("0203"), {"damage": {"port": 2}})])
    s, _, _ = _through_regeneration(g2, [1, 2])  # first damaged step repaired on 1, second not on 2
    assert dict(s.map.info(s.map.hex("0203")).facts["damage"]) == {"port": 1}


def test_11_7_us_air_mission_regenerates_on_6_plus_prc_on_7_plus():
    assert regen.air_regeneration_preview("d10", 6)[True] == Fraction(1, 2)
    assert regen.air_regeneration_preview("d10", 7)[True] == Fraction(2, 5)
    g = load(units={"F35-CAP": {"box": "regeneration"}, "J20-CAP": {"box": "regeneration"}})
    assert regen.regen_rule(g.state, g.unit("F35-CAP")) == ("d10", 6)
    assert regen.regen_rule(g.state, g.unit("J20-CAP")) == ("d10", 7)
    s, _, _ = _through_regeneration(g, [6, 6])  # blue 6 >= 6 back; red 6 < 7 stays
    assert s.units["F35-CAP"].box == "base" and s.units["J20-CAP"].box == "regeneration"


def test_11_8_auto_resupply_dice_and_regenerating_shields_reset_others_stay_expended():
    g = load(
        units={
            "HQ9-1": {"data": {"spent": {"hq9": 2}}},
            "PATRIOT-1": {"data": {"spent": {"pac3": 1}}},
        }
    )
    s, _, _ = _through_regeneration(g, [])
    assert counter(s.units["HQ9-1"]).attack("hq9").left == 2  # curved arrow
    assert counter(s.units["PATRIOT-1"]).attack("pac3").left == 1  # no arrow: stays expended


def test_9_3_a_rail_gun_or_hel_is_data_a_regenerating_grey_shield_or_a_higher_red_shield():
    ddgx = {
        "red_shield": 6,
        "grey_shields": [
            {"id": "sm2", "value": 6, "count": 3, "range": 1},
            {"id": "hel", "value": 5, "count": 2, "regenerates": True},
        ],
        "spent": {"sm2": 1, "hel": 2},
    }
    g = load(units={"DDG-1": {"data": ddgx}})
    c = counter(g.unit("DDG-1"))
    assert c.red_shield == 6 and [(x.id, x.left, x.regenerates) for x in c.shields] == [
        ("sm2", 2, False),
        ("hel", 0, True),
    ]
    s, _, _ = _through_regeneration(g, [])
    assert [(x.id, x.left) for x in counter(s.units["DDG-1"]).shields] == [
        ("sm2", 2),
        ("hel", 2),
    ]  # the HEL regenerates


def test_11_9_resupply_from_a_co_located_asp_only_if_the_scenario_allows():
    g = load(units={"BDE-B": {"hex": "0203", "data": {"spent": {"organic": 1}}}})
    s, _, _ = _through_regeneration(g, [])
    g2 = load(
        units={"BDE-B": {"hex": "0203", "data": {"spent": {"organic": 1}}}},
        options={"missile_resupply": True},
    )
    at(g2, "6.C.3")
    g2.submit("umpire: advance 7.I")
    g3 = at(load(units={"BDE-B": {"hex": "0203", "data": {"spent": {"organic": 1}}}}), "6.C.3")
    g3.submit("umpire: advance 7.I")
    with pytest.raises(IllegalOrderError) as e:
        g3.submit("blue: resupply BDE-B ASP-B")
    assert e.value.rule == "2.2.2.5"
    g2.submit("blue: resupply BDE-B ASP-B")
    assert (
        counter(g2.unit("BDE-B")).attack("organic").left == 1
        and int(g2.unit("ASP-B").data["salvos"]) == 5
    )


def test_11_9_a_ship_is_resupplied_in_port_using_one_of_the_ports_actions():
    """11.9: "A ship can be resupplied when in a port using one of that port's actions towards
    resupply." (2.1.7.1: the port's boxes are its capacity a turn.) Blue Port (0203) takes 4
    actions a turn: the fifth ship waits."""
    ships = [
        {"id": f"DDG-{i}", "type": "ddg-flight-iia", "side": "blue", "hex": "0203"}
        for i in (2, 3, 4, 5)
    ]
    spent = {"data": {"spent": {"tlam": 1}}}
    g = load(
        units={"DDG-1": {"hex": "0203", **spent}},
        add=[{**s, **spent} for s in ships],
        options={"missile_resupply": True},
    )
    at(g, "6.C.3")
    g.submit("umpire: advance 7.I")
    for i in (1, 2, 3, 4):
        g.submit(f"blue: resupply DDG-{i} ASP-B")
    assert "resupply" not in g.legal_orders("blue").verbs
    before = g.state_id
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: resupply DDG-5 ASP-B")
    assert (e.value.code, e.value.rule) == ("port-busy", "11.9") and g.state_id == before
    assert counter(g.unit("DDG-5")).spent == {"tlam": 1}


def test_11_4_missions_return_to_base_cap_may_stay():
    g = load(
        units={"F35-CAP": {"hex": "0303", "box": None}, "F35-STRIKE": {"hex": "0303", "box": None}}
    )
    s, _, _ = _through_regeneration(g, [])
    assert s.units["F35-STRIKE"].box == "base" and s.units["F35-CAP"].hex is not None
    g2 = load(
        units={"F35-CAP": {"hex": "0303", "box": None}}, options={"leave_missions_in_place": False}
    )
    s2, _, _ = _through_regeneration(g2, [])
    assert s2.units["F35-CAP"].box == "base"


def test_11_6_tacsit1_removed_detection_lapses_to_a_last_known_position():
    g = load(
        units={
            "Type055-1": {"seen_by": ["blue"], "markers": ["tacsit1", "suppressed", "cavitation"]}
        }
    )
    s, _, _ = _through_regeneration(g, [])
    t = s.units["Type055-1"]
    assert not t.markers & {"tacsit1", "suppressed", "cavitation"} and "blue" not in t.seen_by
    v = g.ruleset.view_unit(s, t, "blue")
    assert v is not None and "last-known" in v.markers and v.hex == t.hex


def test_11_5_timers_count_down_and_their_marker_goes_at_zero():
    g = load(units={"BDE-B": {"markers": ["rsoi"], "data": {"timers": {"rsoi": 2}}}})
    s, _, _ = _through_regeneration(g, [])
    assert "rsoi" in s.units["BDE-B"].markers and dict(s.units["BDE-B"].data["timers"]) == {
        "rsoi": 1
    }


def test_11_3_space_dashboard_resets_and_11_2_offensive_io_comes_off():
    g = load(
        units={"Type055-1": {"markers": ["disrupted-c2", "assured-c2", "sigint"]}},
        rules={"space": {"red": {"c2": 2}}},
    )
    from owsnb.rules.ows.information import demote_row

    g2 = with_events(g, [demote_row(g.state, "red", "c2", "7.2.1.1")])
    assert space(g2.state, "red")["c2"] == 1
    s, _, _ = _through_regeneration(g2, [])
    assert space(s, "red")["c2"] == 2
    assert s.units["Type055-1"].markers == frozenset({"assured-c2"})  # defensive token may stay


def test_11_10_turn_advances_and_weather_is_rolled():
    g = at(load(), "7.I")
    s, _, ev = run(g, "umpire: advance 1.1", [5])
    assert s.clock.turn == 2 and s.public["weather"] == "overcast"


def _spoofed():
    g = at(load(), "4.1")
    g.submit("blue: cyber gps-spoofing target=space:red:pnt")
    g.submit("blue: done")
    g.submit("red: done")
    return g


def test_11_2_an_enduring_cyber_effect_stays_until_its_recovery_roll_and_11_3_keeps_its_row_down():
    g = _spoofed()
    assert g.state.sides["red"].public["space"]["pnt"] == "disrupted"
    assert [e["card"] for e in g.state.public["cyber_effects"]] == ["gps-spoofing"]
    g = at(g, "6.C.3")
    s, _, ev = run(g, "umpire: advance 7.I", [3])  # recovery d6 3 < 4: still in play
    assert (
        s.sides["red"].public["space"]["pnt"] == "disrupted" and len(s.public["cyber_effects"]) == 1
    )
    rolls = [e for e in ev if e.kind == "die"]
    assert [(e.rule, e.visible_to) for e in rolls] == [("11.2", None)]
    s2, _, _ = run(g, "umpire: advance 7.I", [4])  # 4+: recovered, the dashboard resets (11.3)
    assert s2.sides["red"].public["space"]["pnt"] == "normal" and not s2.public.get("cyber_effects")


def test_11_2_one_shot_cards_have_no_recovery_roll():
    from owsnb.rules.ows.information import recovery_preview

    with pytest.raises(ValueError, match="one-shot"):
        recovery_preview("grid-attack")
    assert recovery_preview("c2-intrusion")[True] == Fraction(1, 2)


def test_11_2_recovery_preview_matches_100k_seeded_rolls():
    from owsnb.rules.ows.information import recovery_preview
    from owsnb.rules.ows.regeneration import cyber_recovery

    g = at(_spoofed(), "6.C.3")
    roll = FastRoller(112)
    n = 100_000
    kept = sum(1 for _ in range(n) if cyber_recovery(g.state, roll)[0])
    exact = recovery_preview("gps-spoofing")
    assert within_3_sigma(dict(exact), {True: n - kept, False: kept}, n) == []
