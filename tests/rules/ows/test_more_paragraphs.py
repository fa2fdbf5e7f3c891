"""Further paragraphs: submarine launch exposure, CAP intercept in a strike, return fire, single
ASW, SEAD and air defence steps, EW, ground radar, ground detection on tactical maps, 9.4.1, 7.4.1."""

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import strike
from owsnb.rules.ows.air import combat as air
from owsnb.rules.ows.units import counter

from .conftest import at, load, run

SEEN = {"Type055-1": {"seen_by": ["blue"]}, "Type054-1": {"seen_by": ["blue"]}}


def test_9_9_4_3_submarine_launch_lets_airborne_asw_in_its_hex_roll_once():
    asw_air = {
        "id": "Y8Q",
        "type": "h6-bomber",
        "side": "red",
        "hex": "0503",
        "data": {
            "mission": "asw",
            "attacks": [{"id": "asw", "die": "d10", "count": 1, "targets": ["sub"], "range": 0}],
        },
    }
    g = at(load(units={"HQ-R": {"seen_by": ["blue"]}}, add=[asw_air], remove=("HQ9-1",)), "6.B.1")
    s, res, ev = run(
        g, "blue: strike HQ-R salvos=SSN-1:tlam", [9, 4]
    )  # ASW d10 = 9 >= 8: detected; salvo 4 vs red 4
    assert "red" in s.units["SSN-1"].seen_by and "tacsit1" in s.units["SSN-1"].markers
    assert res.outcome["hits"] == {"HQ-R": 1}  # the missiles are resolved anyway
    s, res, ev = run(g, "blue: strike HQ-R salvos=SSN-1:tlam", [3, 2])
    assert "red" not in s.units["SSN-1"].seen_by
    assert all(
        "SSN-1" not in str(e.data)
        for e in ev
        if e.visible_to is None or "red" in (e.visible_to or ())
    )


def test_9_9_4_1_cap_intercepts_one_salvo_in_the_defenders_shot_calculus():
    g = at(
        load(units={**SEEN, "J20-CAP": {"hex": "0504", "box": None}}, remove=("SSK-1",)), "6.B.2"
    )
    g.submit("blue: strike Type055-1 salvos=DDG-1:tlam,DDG-1:tlam")
    s, res, _ = run(
        g, "red: shields cap=J20-CAP", [5, 4]
    )  # CAP d10 = 5 >= 5 kills salvo 1; salvo 2: 4 < red 5
    assert res.outcome["hits"] == {"Type055-1": 0}
    assert "engaged" in s.units["J20-CAP"].markers
    with pytest.raises(IllegalOrderError) as e:
        g.submit("red: shields cap=J20-CAP,J20-CAP,J20-CAP")
    assert e.value.rule == "9.9.4.1"


def test_9_9_1_local_strike_defender_fires_back_simultaneously():
    g = at(load(units={**SEEN, "DDG-1": {"hex": "0504"}}, remove=("SSK-1",)), "6.B.2")
    g.submit("blue: strike Type055-1 salvos=DDG-1:tlam")
    s, res, _ = run(
        g, "red: shields fire=Type055-1:yj18:DDG-1", [10, 10]
    )  # both hit: simultaneous effects
    assert res.outcome["hits"]["Type055-1"] == 2 and res.outcome["return_fire_hits"] == {"DDG-1": 2}
    assert s.units["Type055-1"].box == "attrition" and s.units["DDG-1"].box == "attrition"


def test_9_9_5_3_single_asw_asset_rolls_simultaneously_with_the_torpedo():
    g = at(
        load(
            units={
                **SEEN,
                "SSN-1": {"hex": "0504"},
                "Type055-1": {"seen_by": ["blue"], "markers": ["asw"]},
            }
        ),
        "6.B.2",
    )
    s, res, _ = run(
        g, "blue: torpedo SSN-1 Type054-1", [8, 5, 8]
    )  # ASW d8 detects (8), kills (5 >= 4); torpedo still rolls
    assert res.outcome["sub_lost"] and res.outcome["hits"] == {"Type054-1": 2}


def test_9_4_1_option_missiles_cannot_take_a_manoeuvre_units_last_step():
    from owsnb.rules.ows.common import apply_hits

    g = load(options={"missiles_spare_last_step": True})
    bde = g.unit("BDE-R")
    ev, lost, _ = apply_hits(g.state, bde, 5, rule="9.6", cause="missile")
    assert lost == 2
    g2 = load()
    assert apply_hits(g2.state, g2.unit("BDE-R"), 5, rule="9.6", cause="missile")[1] == 3


def test_6_5_8_ew_aircraft_demote_sam_shots_in_their_hex_and_promote_strikes():
    g = load(
        units={
            "F35-CAP": {"hex": "0703", "box": None, "data": {"ew": "demote-sam"}},
            "F35-STRIKE": {"hex": "0703", "box": None, "seen_by": ["red"]},
        }
    )
    e = air._engagement(g.state, "6.A.7", g.unit("HQ9-1"), g.unit("F35-STRIKE"))
    assert e.die == "d8" and any("6.5.8" in n for n in e.notes)
    g2 = load(
        units={"F35-CAP": {"hex": "0504", "box": None, "data": {"ew": "promote-strike"}}, **SEEN}
    )
    p = strike.preview(g2, "Type055-1", ["DDG-1:tlam"], grey_shields=0)
    assert p.plans[0].die == "d12"


def test_2_2_7_4_air_defence_engaging_aircraft_spends_its_shield_pool_too():
    g = at(load(units={"F35-STRIKE": {"hex": "0703", "box": None, "seen_by": ["red"]}}), "6.A.7")
    s, res, _ = run(g, "umpire: air-combat 0703", [2])
    c = counter(s.units["HQ9-1"])
    assert c.attack("hq9").left == 1 and {x.id: x.left for x in c.shields}["hq9"] == 1


def test_9_7_3_step_3_long_range_air_defence_reaches_adjacent_hexes():
    g = at(load(units={"H6-1": {"hex": "0303", "box": None, "seen_by": ["blue"]}}), "6.A.3")
    engs = air.engagements(g.state, "6.A.3", g.hex("0303"))
    assert [(e.shooter, e.target) for e in engs] == [
        ("PATRIOT-1", "H6-1")
    ]  # range 1; the DDG is 2 hexes away


def test_9_7_3_step_6_in_hex_sead_without_standoff_trades_shots():
    sead = {
        "id": "EA18",
        "type": "f35-strike",
        "side": "blue",
        "hex": "0703",
        "data": {
            "mission": "sead",
            "red_arrow": True,
            "attacks": [
                {"id": "harm", "die": "d10", "count": 1, "targets": ["ground"], "range": 1}
            ],
        },
    }
    g = at(
        load(add=[{**sead, "seen_by": ["red"]}], units={"HQ9-1": {"seen_by": ["blue"]}}), "6.A.6"
    )
    engs = air.engagements(g.state, "6.A.6", g.hex("0703"))
    assert [(e.shooter, e.target, e.kind) for e in engs] == [
        ("EA18", "HQ9-1", "sead"),
        ("HQ9-1", "EA18", "air-defence"),
    ]
    assert engs[1].die == "d8" and any(
        "9.7.3 step 6" in n for n in engs[1].notes
    )  # red arrow demotes the AD
    g2 = at(load(add=[sead], units={"HQ9-1": {"seen_by": ["blue"]}}), "6.A.6")
    assert [e.shooter for e in air.engagements(g2.state, "6.A.6", g2.hex("0703"))] == [
        "EA18"
    ]  # undetected SEAD


def test_6_5_10_1_stand_off_cap_engages_an_adjacent_hex():
    g = at(
        load(
            units={
                "F35-CAP": {"hex": "0404", "box": None},
                "H6-1": {"hex": "0504", "box": None, "seen_by": ["blue"]},
            }
        ),
        "6.A.1",
    )
    engs = air.engagements(g.state, "6.A.1", g.hex("0504"))
    assert [(e.shooter, e.target) for e in engs] == [("F35-CAP", "H6-1")]


def test_6_5_9_5_active_ground_radar_auto_detects_non_stealth_aircraft():
    g = at(
        load(
            units={
                "HQ9-1": {
                    "markers": ["emitting"],
                    "data": {"sensors": [{"kind": "radar", "die": "d10", "range": 1}]},
                },
                "E2D-1": {"hex": "0603", "box": None},
            }
        ),
        "5.2",
    )
    assert "red" in g.unit("E2D-1").seen_by
    assert "HQ9-1" in g.view("blue").units  # emitting = face up, detected (6.4.3)


def test_8_3_2_1_ground_units_adjacent_to_the_enemy_on_tactical_maps():
    tac = {
        "layout": {"orientation": "flat", "size": 20, "unit": "km"},
        "cols": 8,
        "rows": 6,
        "terrain": {"default": "clear"},
    }
    g = at(load(map=tac, units={"BDE-B": {"hex": "0604"}}), "5.2")
    assert "red" in g.unit("BDE-B").seen_by and "blue" in g.unit("BDE-R").seen_by


def test_7_4_1_nuclear_plume_goes_downwind_on_tactical_maps():
    tac = {
        "layout": {"orientation": "flat", "size": 20, "unit": "km"},
        "cols": 8,
        "rows": 6,
        "terrain": {"default": "clear"},
    }
    g = at(
        load(
            map=tac,
            units={"BDE-R": {"seen_by": ["blue"]}},
            options={"nukes": True},
            rules={"hands": {"blue": {"nuke": 1}}},
        ),
        "6.B.1",
    )
    s, res, _ = run(g, "blue: nuke BDE-R", [1])
    plumes = [h for h, i in s.map.hexes.items() if i.facts.get("plume")]
    assert len(plumes) == 1 and plumes[0].distance(g.hex("0704")) == 1


def test_7_4_1_the_plume_is_removed_in_the_next_turns_regeneration_the_radiation_stays():
    """7.4.1: "Place an additional radiation counter in the downwind hex. This represents the
    radiation plume from nuclear fallout and causes a double demotion to combat in that hex. This
    is removed in the next turn's Regeneration Phase." (7.4: the radiation marker "remains on the
    map".)"""
    tac = {
        "layout": {"orientation": "flat", "size": 20, "unit": "km"},
        "cols": 8,
        "rows": 6,
        "terrain": {"default": "clear"},
    }
    g = at(
        load(
            map=tac,
            units={"BDE-R": {"seen_by": ["blue"]}},
            options={"nukes": True},
            rules={"hands": {"blue": {"nuke": 1}}},
        ),
        "6.B.1",
    )
    g.submit("blue: nuke BDE-R")

    def plumes():
        return [h for h, i in g.state.map.hexes.items() if i.facts.get("plume")]

    assert len(plumes()) == 1
    g.submit("umpire: advance 7.I")  # turn 1's Regeneration: the plume stays
    assert len(plumes()) == 1
    g.submit("umpire: advance 6.C.1")  # turn 2: it still demotes combat
    assert g.clock.turn == 2 and len(plumes()) == 1
    g.submit("umpire: advance 7.I")  # turn 2's Regeneration (7.F): removed
    assert plumes() == []
    assert g.state.map.hexes[g.hex("0704")].facts.get("radiation")


def test_6_4_2_1_silent_running_is_removed_when_the_submarine_launches_missiles():
    """6.4.2.1: "Silent Running is removed when the submarine initiates an attack or when it moves
    to another hex." A missile launch is an attack, not only a torpedo run (9.9.5.1)."""
    g = at(
        load(
            units={"HQ-R": {"seen_by": ["blue"]}, "SSN-1": {"markers": ["silent-running"]}},
            remove=("HQ9-1",),
        ),
        "6.B.1",
    )
    sub = g.submit("blue: strike HQ-R salvos=SSN-1:tlam")
    assert "silent-running" not in g.unit("SSN-1").markers
    mark = [e for e in sub.events if e.kind == "unit.set" and e.rule == "6.4.2.1"]
    assert mark and mark[0].visible_to == frozenset({"blue"})  # the boat stays hidden from Red
    assert "SSN-1" not in g.view("red").units


def test_2_3_1_a_unit_in_rsoi_is_demoted_in_combat_and_attacks_against_it_are_promoted():
    """2.3.1: "Units in an RSO&I status are demoted in combat and attacks against those units are
    promoted." The DF-21's D12 MRBM salvo rolls D10 while the battalion is in RSO&I; in air combat a
    SAM battery in RSO&I is demoted too."""
    ddg = {"DDG-1": {"seen_by": ["red"], "hex": "0504"}}
    g = at(load(units={**ddg, "DF21-1": {"markers": ["rsoi"]}}, remove=("SSK-1",)), "6.B.1")
    g.submit("blue: done")
    g.submit("red: strike DDG-1 salvos=DF21-1:df21")
    sub = g.submit("blue: shields DDG-1:0")
    rolls = [e for e in sub.events if e.kind == "die"]
    assert rolls and all(e.data["sides"] == 10 for e in rolls)
    free = at(load(units=ddg, remove=("SSK-1",)), "6.B.1")
    free.submit("blue: done")
    free.submit("red: strike DDG-1 salvos=DF21-1:df21")
    sub = free.submit("blue: shields DDG-1:0")
    assert all(e.data["sides"] == 12 for e in sub.events if e.kind == "die")
    j20 = {"J20-CAP": {"hex": "0303", "box": None, "seen_by": ["blue"]}}
    a = load(units={**j20, "PATRIOT-1": {"hex": "0303", "markers": ["rsoi"]}})
    e = air._engagement(a.state, "6.A.7", a.unit("PATRIOT-1"), a.unit("J20-CAP"))
    assert e.die == "d8" and any("2.3.1" in n for n in e.notes)  # its d10 demoted


def test_9_9_5_a_torpedo_attack_names_a_detected_surface_ship_else_refused_citing_9_9_5():
    """9.9.5: "When a submarine attempts a torpedo attack against a detected surface ship, it
    follows the following sequence". The
    kernel binds the order's target as a detected enemy unit: an undetected ship and a ship that
    does not exist get the same refusal (nothing leaks), citing the torpedo order's 9.9.5, and the
    sub must be the side's own; nothing changes."""
    g = at(load(units={"SSN-1": {"hex": "0504"}}), "6.B.2")
    before = (g.seq, g.state_id)
    with pytest.raises(IllegalOrderError) as hidden:
        g.submit("blue: torpedo SSN-1 Type054-1")
    with pytest.raises(IllegalOrderError) as absent:
        g.submit("blue: torpedo SSN-1 NO-SUCH-SHIP")
    assert (hidden.value.code, hidden.value.rule) == ("target-not-detected", "9.9.5")
    assert str(absent.value).replace("NO-SUCH-SHIP", "X") == str(hidden.value).replace(
        "Type054-1", "X"
    )
    with pytest.raises(IllegalOrderError) as other:
        g.submit("blue: torpedo Type054-1 SSN-1")
    assert (other.value.code, other.value.rule) == ("not-your-unit", "9.9.5")
    assert (g.seq, g.state_id) == before
