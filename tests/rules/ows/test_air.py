"""Air tasking (6.5) and air combat (9.7): each test names its paragraph."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import air
from owsnb.rules.ows.air import Engagement, air_preview, combat

from .conftest import FastRoller, at, load, run, within_3_sigma


def test_6_5_3_strike_up_to_3x_cap_cas_interdiction_2x_beyond_1x_only_with_tanker():
    assert air.max_radius(3, "strike") == 9 and air.max_radius(3, "cap") == 6
    assert air.max_radius(3, "cas") == 6 and air.max_radius(3, "interdiction") == 6
    assert air.max_radius(3, "strike", tanker=False) == 3


def test_6_5_2_fuel_source_rule_refuses_beyond_the_radius_without_tanker():
    g = at(load(), "3.B.1")
    g.check("blue: fly F35-CAP 0303")  # 2 hexes from Blue Field
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: fly F35-CAP 0605")
    assert e.value.rule == "6.5.2"


def test_6_5_10_a_fighter_is_designated_one_of_its_missions_when_it_flies_other_aircraft_keep_theirs():
    g = at(load(), "3.B.1")
    assert set(air.FIGHTER_MISSIONS) >= {
        "cap",
        "sucap",
        "strike",
        "cas",
        "interdiction",
    }  # the five of 6.5.10
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: fly E2D-1 0303 task=cap")  # an AEW aircraft is not a fighter
    assert (e.value.code, e.value.rule) == ("not-fighter", "6.5.10")
    with pytest.raises(IllegalOrderError):
        g.check("blue: fly F35-CAP 0303 task=tanker")  # not a fighter mission
    g.submit("blue: fly F35-CAP 0303 task=sucap")
    assert g.unit("F35-CAP").data["mission"] == "sucap" and g.unit("F35-CAP").hex == g.hex("0303")


def test_6_5_4_tanker_capacity_kc135_2_mq25_1_kc46_unlimited_radius():
    kc135 = {
        "id": "KC135",
        "type": "e2d",
        "side": "blue",
        "box": "base",
        "data": {
            "base": "F35-BASE",
            "mission": "tanker",
            "tanker": {"capacity": 2, "radius": None},
            "sensors": [],
        },
    }
    mq25 = {
        "id": "MQ25",
        "type": "e2d",
        "side": "blue",
        "box": "base",
        "data": {
            "base": "F35-BASE",
            "mission": "tanker",
            "tanker": {"capacity": 1, "radius": 2},
            "sensors": [],
        },
    }
    cap2 = {
        "id": "F35-CAP2",
        "type": "f35-cap",
        "side": "blue",
        "box": "base",
        "data": {"base": "F35-BASE"},
    }
    g = at(load(add=[kc135, mq25, cap2]), "3.B.1")
    g.submit("blue: fly KC135 0404")
    g.submit("blue: fly F35-CAP 0504 tanker=KC135")  # 4 hexes out: 2x radius 2 with the tanker
    g.submit("blue: fly F35-STRIKE 0505 tanker=KC135")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: fly F35-CAP2 0504 tanker=KC135")
    assert e.value.rule == "6.5.4" and e.value.code == "tanker-full"
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: fly MQ25 0604")  # MQ-25 radius 2
    assert e.value.rule == "6.5.4"
    g.submit("blue: fly MQ25 0302")


def test_6_5_3_beyond_the_maximum_radius_is_refused_even_with_a_tanker():
    kc = {
        "id": "KC",
        "type": "e2d",
        "side": "blue",
        "hex": "0505",
        "data": {
            "base": "F35-BASE",
            "mission": "tanker",
            "tanker": {"capacity": 2, "radius": None},
            "sensors": [],
        },
    }
    g = at(load(add=[kc]), "3.B.1")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: fly F35-CAP 0705 tanker=KC")  # 6 hexes > 2x2
    assert e.value.rule == "6.5.3"


def test_6_5_1_1_fighter_2_bomber_6_salvos_and_fighter_gives_up_its_organic_attack():
    g = at(load(), "3.B.2")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: package F35-STRIKE munitions=3 asp=ASP-B")
    assert e.value.rule == "6.5.1.1"
    asp_at_base = {"ASP-B": {"hex": "0102"}}
    g = at(load(units=asp_at_base), "3.B.2")
    s, res, _ = run(g, "blue: package F35-STRIKE munitions=2 asp=ASP-B", [])
    from owsnb.rules.ows.units import counter

    c = counter(s.units["F35-STRIKE"])
    assert c.attack("munitions").left == 2 and c.attack("jassm").left == 0
    assert int(s.units["ASP-B"].data["salvos"]) == 4
    bomber = at(load(units={"ASP-B": {"hex": "0802", "side": "red"}}), "3.B.2")
    bomber.submit("blue: done")
    bomber.check("red: package H6-1 munitions=6 asp=ASP-B")


def test_6_5_6_carrier_generates_one_mission_per_aircraft_box():
    cvn = {
        "id": "CVN-1",
        "type": "ddg-flight-iia",
        "side": "blue",
        "hex": "0304",
        "data": {"boxes": [{"aircraft": 1}, {"aircraft": 1}]},
    }
    m = [
        {
            "id": f"VF-{i}",
            "type": "f35-cap",
            "side": "blue",
            "box": "base",
            "data": {"base": "CVN-1", "carrier_capable": True},
        }
        for i in range(3)
    ]
    g = at(load(add=[cvn, *m]), "3.B.1")
    g.submit("blue: fly VF-0 0304")
    g.submit("blue: fly VF-1 0404")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: fly VF-2 0404")
    assert e.value.rule == "6.5.6"


def test_6_5_6_tanker_and_aew_missions_come_one_to_one_with_the_sortie_number():
    """6.5.6: "Support missions such as Tanker and AEW are NOT counted against this number, they
    are automatically provided on a one-to-one basis to this air sortie generation number." A
    carrier with two aircraft boxes flies two combat sorties and up to two support missions."""
    cvn = {
        "id": "CVN-1",
        "type": "ddg-flight-iia",
        "side": "blue",
        "hex": "0304",
        "data": {"boxes": [{"aircraft": 1}, {"aircraft": 1}]},
    }
    ship = {"base": "CVN-1", "carrier_capable": True}
    m = [
        {"id": f"VF-{i}", "type": "f35-cap", "side": "blue", "box": "base", "data": ship}
        for i in range(2)
    ] + [
        {"id": f"VAW-{i}", "type": "e2d", "side": "blue", "box": "base", "data": ship}
        for i in range(3)
    ]
    g = at(load(add=[cvn, *m]), "3.B.1")
    g.submit("blue: fly VF-0 0304")
    g.submit("blue: fly VF-1 0404")  # both sorties used: support missions are not counted
    g.submit("blue: fly VAW-0 0304")
    g.submit("blue: fly VAW-1 0304")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: fly VAW-2 0304")
    assert (e.value.code, e.value.rule) == ("no-support-sorties", "6.5.6")


def test_9_7_2_best_die_d12_fires_and_applies_before_d10_and_d8():
    engs = [
        Engagement("A12", "B10", "d12", 5),
        Engagement("B10", "A12", "d10", 5),
        Engagement("C8", "A12", "d8", 5),
    ]
    simult = air_preview(engs, best_die=False)
    best = air_preview(engs, best_die=True)
    p_b10 = Fraction(8, 12)
    assert simult.prob(lambda k: "B10" in k) == best.prob(lambda k: "B10" in k) == p_b10
    # with best die, B10 fires only if it survived the d12
    p_a12_simult = 1 - (1 - Fraction(6, 10)) * (1 - Fraction(4, 8))
    p_a12_best = 1 - (1 - (1 - p_b10) * Fraction(6, 10)) * (1 - Fraction(4, 8))
    assert simult.prob(lambda k: "A12" in k) == p_a12_simult
    assert best.prob(lambda k: "A12" in k) == p_a12_best


def _air_hex(**kw):
    units = {
        "F35-CAP": {"hex": "0504", "box": None},
        "J20-CAP": {"hex": "0504", "box": None, "seen_by": ["blue"]},
        "H6-1": {"hex": "0504", "box": None, "seen_by": ["blue"]},
        **kw,
    }
    return at(load(units=units), "6.A.4")


def test_9_7_1_side_with_more_cap_pairs_and_excess_engages_hvaa():
    extra = {"F35-STRIKE": {"hex": "0504", "box": None, "data": {"mission": "cap"}}}
    g = _air_hex(**extra)
    pairs = [(s.id, t.id) for s, t in combat._pairs_in_hex(g.state, g.hex("0504"))]
    assert ("F35-CAP", "J20-CAP") in pairs and ("F35-STRIKE", "H6-1") in pairs


def test_9_7_4_hit_missions_go_to_the_regeneration_box_and_the_umpire_orders_hexes():
    g = _air_hex(**{"F35-CAP": {"hex": "0504", "box": None, "seen_by": ["red"]}})
    assert g.clock.acting == ("umpire",)
    s, res, _ = run(g, "umpire: air-combat 0504 pairs=F35-CAP:J20-CAP,J20-CAP:F35-CAP", [12, 2])
    assert s.units["J20-CAP"].box == "regeneration" and s.units["F35-CAP"].hex is not None
    assert "engaged" in s.units["F35-CAP"].markers and "9.7.4" in res.rules


def test_6_5_1_2_attack_mission_cannot_initiate_air_to_air():
    g = _air_hex(**{"F35-STRIKE": {"hex": "0504", "box": None}})
    with pytest.raises(IllegalOrderError) as e:
        g.check("umpire: air-combat 0504 pairs=F35-STRIKE:J20-CAP")
    assert e.value.rule == "6.5.1.2"
    eng = combat._engagement(g.state, "6.A.4", g.unit("F35-STRIKE"), g.unit("J20-CAP"))
    assert eng.die == "d10"  # defends with a demoted organic d12


def test_9_7_3_steps_resolve_unresolved_hexes_when_the_umpire_moves_on():
    g = _air_hex()
    g.submit("umpire: done")
    assert g.clock.step == "6.A.6"
    assert any(e.rule == "9.7.3" and e.kind == "die" for e in g.events)
    assert "0504" in g.state.public["air_resolved"]["6.A.4"]


def test_9_7_air_preview_matches_100k_seeded_rolls():
    g = _air_hex()
    p = air.preview(g, "0504", "6.A.4")
    assert p.engagements
    roll = FastRoller(21)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        hit = tuple(sorted({e.target for e in p.engagements if roll(e.die) >= e.defence}))
        counts[hit] = counts.get(hit, 0) + 1
    assert within_3_sigma(dict(p.outcome), counts, n) == []


def test_6_5_9_1_aew_promotes_air_to_air_of_fighters_in_its_sensing_range_advanced_option():
    units = {
        "F35-CAP": {"hex": "0504", "box": None},
        "J20-CAP": {"hex": "0504", "box": None, "seen_by": ["blue"]},
        "E2D-1": {"hex": "0404", "box": None},
    }
    g = load(units=units)
    assert combat._engagement(g.state, "6.A.4", g.unit("F35-CAP"), g.unit("J20-CAP")).die == "d12"
    g2 = load(units=units, options={"aew_air_to_air": True})
    e = combat._engagement(g2.state, "6.A.4", g2.unit("F35-CAP"), g2.unit("J20-CAP"))
    assert e.die == "d16" and any("6.5.9.1" in n for n in e.notes)


def test_9_7_3_step_2_stand_off_sead_on_a_non_emitting_target_uses_a_long_range_strike_allocation():
    sead = {
        "id": "EA18",
        "type": "f35-strike",
        "side": "blue",
        "hex": "0603",
        "data": {
            "mission": "sead",
            "attacks": [
                {"id": "harm", "die": "d10", "count": 1, "targets": ["ground"], "range": 2}
            ],
        },
    }
    g = at(load(add=[sead], units={"HQ9-1": {"seen_by": ["blue"]}}), "6.A.2")
    engs = air.engagements(g.state, "6.A.2", g.hex("0703"))
    assert [(e.shooter, e.target, e.kind) for e in engs] == [
        ("EA18", "HQ9-1", "sead")
    ]  # range 2 > the HQ-9's 1
    g.submit("umpire: air-combat 0703")
    assert dict(g.state.public["sead_allocations"]) == {"blue": ("0703",)}
    g.submit("umpire: advance 6.B.1")
    assert g.state.public["strikes_left"]["blue"] == 3 - 1


# -- 6.5.5 basing and 10.13.2.1 air fuel ------------------------------------------------------------------
def test_6_5_5_a_damaged_airfield_grounds_the_squadrons_beyond_its_capacity_A1():
    from owsnb.kernel.events import hex_set

    from .conftest import with_events

    two = load(
        add=[
            {"id": "F35-BASE2", "type": "f35-base", "side": "blue", "hex": "0102"},
            {
                "id": "F35-CAP2",
                "type": "f35-cap",
                "side": "blue",
                "box": "base",
                "data": {"base": "F35-BASE2"},
            },
        ]
    )
    g = at(two, "3.B.1")
    g.check("blue: fly F35-CAP2 0202")
    hit = at(
        with_events(two, [hex_set(two.state.map.hex("0102"), {"damage": {"airfield": 1}})]), "3.B.1"
    )
    assert air.grounded_squadrons(hit.state, hit.state.map.hex("0102")) == ["F35-BASE2"]
    with pytest.raises(IllegalOrderError) as e:
        hit.check("blue: fly F35-CAP2 0202")
    assert (e.value.code, e.value.rule) == ("airbase-capacity", "6.5.5")
    hit.check("blue: fly F35-CAP 0202")  # the first squadron still flies
    assert not any("F35-CAP2" in str(o) for s in hit.legal_orders("blue") for o in s.examples)


def test_10_13_2_1_a_fighter_squadron_pays_two_fuel_points_when_its_first_mission_flies_CS2():
    css = {
        "id": "CSS-B",
        "type": "asp",
        "side": "blue",
        "hex": "0202",
        "data": {
            "category": "css",
            "salvos": 0,
            "permanent": False,
            "fuel_points": 3,
            "css_radius": 1,
        },
    }
    g = at(load(add=[css], options={"css": True}), "3.B.1")
    g.submit("blue: fly F35-CAP 0202")
    assert g.unit("CSS-B").data["fuel_points"] == 1 and g.unit("F35-BASE").data["fuel_paid"] == 1
    g.submit("blue: fly F35-STRIKE 0202")  # paid once a turn, however many missions fly
    assert g.unit("CSS-B").data["fuel_points"] == 1
    dry = at(
        load(add=[{**css, "data": {**css["data"], "fuel_points": 1}}], options={"css": True}),
        "3.B.1",
    )
    with pytest.raises(IllegalOrderError) as e:
        dry.check("blue: fly F35-CAP 0202")
    assert (e.value.code, e.value.rule) == ("no-fuel", "10.13.2.1")
    free = at(load(add=[{**css, "data": {**css["data"], "fuel_points": 1}}]), "3.B.1")
    free.check("blue: fly F35-CAP 0202")  # without the advanced CSS rule there is no fuel to pay


# -- 9.9.6.1 / 9.9.6.2 air strikes: route and en-route intercepts ------------------------------------------
J2 = {
    "id": "J20-CAP2",
    "type": "j20-cap",
    "side": "red",
    "hex": "0303",
    "data": {"base": "J20-BASE"},
}


def _package(**units):
    """Blue's F-35 strike on 0504 escorted by one F-35 CAP; its straight route from Blue Field
    (0102) crosses 0202, 0303 and 0403; two J-20 CAPs wait in 0303. Red has detected the
    (stealth) striker already, so no search roll is needed (6.5.7)."""
    base = {
        "F35-STRIKE": {
            "hex": "0504",
            "box": None,
            "seen_by": ["red"],
            "data": {"base": "F35-BASE", "escorts": ["F35-CAP"]},
        },
        "F35-CAP": {"hex": "0504", "box": None},
        "J20-CAP": {"hex": "0303", "box": None},
    }
    return load(add=[J2], units={**base, **units})


def test_9_9_6_2_escorts_pair_1_to_1_the_excess_engage_the_striker_and_the_winners_follow():
    g = _package()
    assert [g.state.map.label(h) for h in air.route_of(g.state, g.unit("F35-STRIKE"))] == [
        "0202",
        "0303",
        "0403",
    ]
    plan = air.route_plan(g.state, "F35-STRIKE")
    assert [(r.hex, r.interceptors) for r in plan.rounds] == [("0303", ("J20-CAP", "J20-CAP2"))]
    # J20-CAP vs the escort (1/2), the escort back (d12 vs 5: 2/3), J20-CAP2 at the striker (1/2); a J-20
    # that downs the escort and survives goes on at the striker (1/2): P(arrives) = 1/2 * (1 - 1/6 * 1/2)
    assert plan.distribution()["arrives"] == Fraction(11, 24)
    g = at(g, "6.A.7")
    s, _, ev = run(
        g, "umpire: advance 6.B.1", [6, 3, 2, 7, 1]
    )  # J1 downs the escort, J2 misses, J1 downs the striker, whose shot back at J2 misses
    assert (
        s.units["F35-STRIKE"].box == "regeneration" and s.units["F35-CAP"].box == "regeneration"
    )  # 9.7.4
    assert s.units["J20-CAP"].data["intercepted"] == 1 and "blue" in s.units["J20-CAP2"].seen_by
    s2, _, _ = run(g, "umpire: advance 6.B.1", [1, 1, 1, 1])  # all miss: the package flies on
    assert s2.units["F35-STRIKE"].hex == g.hex("0504") and "engaged" in s2.units["F35-CAP"].markers


def test_6_5_1_2_a_strike_package_intercepted_en_route_defends_itself_with_a_demoted_die():
    """6.5.1.2: "When a fighter in an 'attack' mission (Strike, SEAD, CAS, Interdiction, SUCAP) is
    engaged in air-to-air combat, it uses a demoted die roll from its organic attack capability. It
    cannot initiate an air-to-air action but can defend itself if attacked." """
    lone = {  # no escort: the J-20 waiting in 0303 engages the (detected) striker (9.9.6.2)
        "F35-STRIKE": {
            "hex": "0504",
            "box": None,
            "seen_by": ["red"],
            "data": {"base": "F35-BASE"},
        },
        "J20-CAP": {"hex": "0303", "box": None},
    }
    g = at(load(units=lone), "6.A.7")
    sub = g.submit("umpire: advance 6.B.1")
    back = [e for e in sub.events if e.kind == "die" and "F35-STRIKE engages J20-CAP" in str(e)]
    assert len(back) == 1 and back[0].data["sides"] == 10  # its d12 air-to-air die, demoted
    assert (g.unit("J20-CAP").box == "regeneration") is (back[0].data["result"] >= 5)  # red 5
    s, _, _ = run(at(load(units=lone), "6.A.7"), "umpire: advance 6.B.1", [1, 5])
    assert s.units["J20-CAP"].box == "regeneration"  # the J-20 misses, the striker's 5 hits it
    assert s.units["F35-STRIKE"].hex == g.hex("0504")


def test_9_9_6_2_a_cap_intercepts_only_with_a_detection_opportunity_and_once_a_turn():
    away = _package(
        **{"J20-CAP": {"hex": "0402", "box": None}},
    )
    assert [r.interceptors for r in air.route_plan(away.state, "F35-STRIKE").rounds] == [
        ("J20-CAP2",)
    ]
    radar = _package(
        **{"J20-CAP": {"hex": "0402", "box": None}, "Type055-1": {"markers": ["emitting"]}}
    )
    rounds = air.route_plan(
        radar.state, "F35-STRIKE"
    ).rounds  # Type 055's active radar covers 0403 (6.5.9.4)
    assert [(r.hex, r.interceptors) for r in rounds] == [
        ("0303", ("J20-CAP2",)),
        ("0403", ("J20-CAP",)),
    ]
    used = _package(
        **{"J20-CAP": {"hex": "0303", "box": None, "data": {"base": "J20-BASE", "intercepted": 1}}}
    )
    assert [r.interceptors for r in air.route_plan(used.state, "F35-STRIKE").rounds] == [
        ("J20-CAP2",)
    ]


def test_9_9_6_2_a_traced_route_is_checked_kept_secret_and_previewed_on_what_the_side_knows():
    far = {"data": {"base": "F35-BASE", "combat_radius": 4}}
    g = at(
        load(add=[J2], units={"J20-CAP": {"hex": "0303", "box": None}, "F35-STRIKE": far}), "3.B.1"
    )
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: fly F35-STRIKE 0504 route=0202,0404,0504")
    assert (e.value.code, e.value.rule) == ("bad-route", "9.9.6.2")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: fly F35-CAP 0303 route=0202,0303")
    assert (e.value.code, e.value.rule) == ("no-route", "9.9.6.2")
    with pytest.raises(IllegalOrderError) as e:  # 13 hexes flown: beyond 3x the combat radius of 4
        g.check(
            "blue: fly F35-STRIKE 0504 route="
            + ",".join(["0202", "0102"] * 6 + ["0202", "0303", "0403", "0504"])
        )
    assert (e.value.code, e.value.rule) == ("route-too-long", "6.5.3")
    assert dict(g.preview("blue: fly F35-STRIKE 0504 route=0103,0203,0304,0404,0504")) == {
        "arrives": 1
    }  # none known
    known = at(
        load(
            add=[{**J2, "seen_by": ["blue"]}],
            units={"J20-CAP": {"hex": "0303", "box": None}, "F35-STRIKE": far},
        ),
        "3.B.1",
    )
    assert known.preview("blue: fly F35-STRIKE 0504")["arrives"] == 1 - Fraction(3, 10) * Fraction(
        1, 2
    )  # J20-CAP2 on the line must find the stealth striker (d10 vs 8, 6.5.7), then hits on 1/2
    known.submit("blue: fly F35-STRIKE 0504 route=0103,0203,0304,0404,0504")  # around the CAP
    assert [
        known.state.map.label(h) for h in air.route_of(known.state, known.unit("F35-STRIKE"))
    ] == ["0103", "0203", "0304", "0404"]
    seen = known.unit("F35-STRIKE").evolve(seen_by=frozenset({"red"}))
    assert (
        "route" not in known.ruleset.view_unit(known.state, seen, "red").data
    )  # the enemy never sees it


def test_9_9_6_2_a_stealth_package_must_be_found_before_the_cap_can_intercept_it():
    """9.9.6.2: "If a defensive CAP is in range of the air strike as it moves, it may attempt an
    intercept provided it has a detection opportunity"; 6.5.7: "The highest detection die roll that
    can be made against a stealth aircraft is a d12"; 6.5.9.5: radars detect aircraft "unless the
    targeted unit is a stealth aircraft, in which case a die roll must be made for a local
    detection". The two J-20s in 0303 search together (d10 + d10 = d12, 8.5.3) for the F-35s
    (signature 8) before they can engage."""
    hidden = {"hex": "0504", "box": None, "data": {"base": "F35-BASE", "escorts": ["F35-CAP"]}}
    g = at(_package(**{"F35-STRIKE": hidden}), "6.A.7")
    plan = air.route_plan(g.state, "F35-STRIKE")
    assert [r.detect for r in plan.rounds] == [("d12", 8)]
    assert plan.distribution()["arrives"] == 1 - Fraction(5, 12) * Fraction(13, 24)
    s, _, ev = run(g, "umpire: advance 6.B.1", [7])  # 7 < 8: not found, it flies on unseen
    assert s.units["F35-STRIKE"].hex == g.hex("0504") and "red" not in s.units["F35-STRIKE"].seen_by
    assert "engaged" not in s.units["F35-CAP"].markers and "J20-CAP" not in str(
        [e for e in ev if e.kind == "unit.set"]
    )
    search = [e for e in ev if e.kind == "die"]
    assert len(search) == 1 and search[0].visible_to == frozenset({"blue"})  # not shown to Red
    s, _, ev = run(g, "umpire: advance 6.B.1", [8, 6, 3, 2, 7, 1])  # found; then as before
    assert s.units["F35-STRIKE"].box == "regeneration" and s.units["F35-CAP"].box == "regeneration"
    assert [e for e in ev if e.kind == "die"][0].visible_to == frozenset({"blue", "red"})
    roll, n = FastRoller(6213), 40_000
    counts = {"arrives": 0, "shot down": 0}
    for _ in range(n):
        counts["arrives" if plan.resolve(roll)[0] else "shot down"] += 1
    assert within_3_sigma(dict(plan.distribution()), counts, n) == []


def test_9_9_6_2_route_preview_matches_100k_seeded_rolls():
    g = _package(
        **{"J20-CAP": {"hex": "0402", "box": None}, "Type055-1": {"markers": ["emitting"]}}
    )
    plan = air.route_plan(
        g.state, "F35-STRIKE"
    )  # two rounds: the escort's fate in 0303 matters in 0403
    assert len(plan.rounds) == 2
    exact = dict(plan.distribution())
    roll = FastRoller(9962)
    n = 100_000
    counts = {"arrives": 0, "shot down": 0}
    for _ in range(n):
        counts["arrives" if plan.resolve(roll)[0] else "shot down"] += 1
    assert within_3_sigma(exact, counts, n) == []
