"""Strike warfare (9.2-9.9): each test names the paragraph it checks."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import strike
from owsnb.rules.ows.dice import hits
from owsnb.rules.ows.salvos import SalvoPlan, allocate, salvo_distribution
from owsnb.rules.ows.units import counter

from .conftest import FastRoller, at, load, run, within_3_sigma

SEEN = {"Type055-1": {"seen_by": ["blue"]}, "Type054-1": {"seen_by": ["blue"]}}


def test_9_2_1_1_five_grey_shields_vs_three_d10_salvos_basic():
    plan = allocate(["d10"] * 3, [6] * 5, excess="demote")
    assert all(len(p.layers) == 1 for p in plan)  # each salvo faces one grey shield
    assert sorted(p.die for p in plan) == ["d10", "d8", "d8"]  # two salvos demoted to D8


def test_9_2_1_2_layered_two_salvos_beat_two_shields_one_salvo_one_all_d10():
    plan = allocate(["d10"] * 3, [6] * 5, excess="layered")
    assert sorted(len(p.layers) for p in plan) == [1, 2, 2]
    assert {p.die for p in plan} == {"d10"}  # no demotion in the layered rule


def test_R4_excess_shields_round_robin_each_once_before_any_twice():
    plan = allocate(["d12"] * 3, [6] * 7, excess="demote")
    assert [p.die for p in plan] == ["d8", "d10", "d10"]
    assert [len(p.layers) for p in allocate(["d10"], [6] * 4, excess="layered")] == [
        2
    ]  # at most two layers


def test_9_2_salvo_must_beat_grey_then_red_in_two_rolls():
    p = SalvoPlan("d10", layers=(7,), red=5)
    rolls = iter([7, 5])
    assert strike._roll_salvo(lambda *a: next(rolls), p, None, "s") == 1
    rolls = iter([6])
    assert (
        strike._roll_salvo(lambda *a: next(rolls), p, None, "s") == 0
    )  # stopped by the grey shield
    d = salvo_distribution(p)
    assert d[0] == 1 - Fraction(4, 10) * Fraction(6, 10)


def test_2_2_2_7_ballistic_only_bmd_shields_hgv_bypasses_h_needs_bmd():
    bal = SalvoPlan("d12", red=5, flags=frozenset({"MRBM"}), base_die="d12")
    out = allocate([bal], [{"value": 6, "bmd": False}])
    assert (
        out[0].layers == () and out[0].die == "d12"
    )  # non-BMD shield cannot engage; no demotion either
    out = allocate([bal], [{"value": 7, "bmd": True}])
    assert out[0].layers == (7,)
    hgv = SalvoPlan("d12", red=5, flags=frozenset({"HGV"}))
    assert allocate([hgv], [{"value": 7, "bmd": True}])[0].layers == ()
    assert allocate([hgv], [{"value": 7, "bmd": True}], hgv_defendable=True)[0].layers == (7,)
    h = SalvoPlan("d12", red=5, flags=frozenset({"H"}))
    assert allocate([h], [{"value": 6}])[0].layers == () and allocate(
        [h], [{"value": 7, "bmd": True}]
    )[0].layers == (7,)


def test_2_2_2_7_a_non_bmd_grey_shield_committed_against_a_ballistic_salvo_is_not_spent():
    """2.2.2.7: "Ballistic missiles can only be defended by grey shields with an associated 'BMD'
    notation on the counter. If no BMD capable air defenses are present, then ballistic missiles
    bypass other grey shields and target a unit's red shield." The SM-2s play no part, so they
    are not spent."""
    g = at(load(units={"DDG-1": {"seen_by": ["red"], "hex": "0504"}}, remove=("SSK-1",)), "6.B.1")
    g.submit("blue: done")
    g.submit("red: strike DDG-1 salvos=DF21-1:df21")  # one MRBM salvo
    sub = g.submit("blue: shields DDG-1:5")  # both SM-6 (BMD) and all three SM-2 (not BMD)
    spent = counter(g.unit("DDG-1")).spent
    assert spent.get("sm6") == 2 and "sm2" not in spent
    assert any("2.2.2.7" in line and "sm2" in line for line in sub.result.lines)


def test_2_2_2_7_bmd_red_arrow_also_demotes_ballistic_salvos():
    bal = SalvoPlan("d12", red=5, flags=frozenset({"SRBM"}))
    out = allocate([bal], [{"value": 7, "bmd": True, "red_arrow": True}])
    assert out[0].die == "d10" and out[0].layers == (7,)


def test_9_9_4_no_strike_on_undetected_target_and_nothing_changes():
    g = at(load(), "6.B.2")
    before, sid = g.seq, g.state_id
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: strike Type055-1 salvos=DDG-1:tlam")
    assert e.value.rule == "9.9.4" and e.value.code == "target-not-detected"
    with pytest.raises(IllegalOrderError) as e2:
        g.submit("blue: strike NO-SUCH-UNIT salvos=DDG-1:tlam")
    assert str(e2.value).replace("NO-SUCH-UNIT", "X") == str(e.value).replace(
        "Type055-1", "X"
    )  # same refusal
    assert (g.seq, g.state_id) == (before, sid)


def test_9_9_4_1_cap_intercept_defence_subsonic_5_supersonic_7_never_hypersonic_or_ballistic():
    g = load()
    c = counter(g.unit("DDG-1"))
    assert strike._cap_defense(g.state, c.attack("tlam")) == 5
    assert strike._cap_defense(g.state, counter(g.unit("Type055-1")).attack("yj18")) == 7
    assert strike._cap_defense(g.state, c.attack("sm6")) is None  # "H"
    assert strike._cap_defense(g.state, counter(g.unit("DF21-1")).attack("df21")) is None  # MRBM


def test_9_9_1_naval_fire_into_adjacent_hex_is_local():
    g = at(load(units=SEEN), "6.B.1")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: strike Type055-1 salvos=DDG-1:tlam")
    assert e.value.rule == "9.9.1" and e.value.code == "local-strike-later"
    at(g, "6.B.2")
    g.check("blue: strike Type055-1 salvos=DDG-1:tlam")


def test_9_9_4_2_a_ship_that_fires_goes_to_tacsit1_and_the_defender_sees_it():
    g = at(load(units=SEEN, remove=("SSK-1",)), "6.B.2")
    assert "red" not in g.unit("DDG-1").seen_by
    r = strike.resolve(g, target="Type055-1", salvos=["DDG-1:tlam", "DDG-1:tlam"], grey_shields=0)
    ddg = g.unit("DDG-1")
    assert "tacsit1" in ddg.markers and "red" in ddg.seen_by
    assert counter(ddg).attack("tlam").left == 0  # 9.5: salvos crossed out
    assert "9.9.4.2" in r.rules and len(r.dice) >= 2
    assert g.view("red").units["DDG-1"].id == "DDG-1"


def test_9_2_1_defender_shields_are_consumed_and_resolve_is_undoable():
    g = at(load(units=SEEN), "6.B.2")
    seq0 = g.seq
    g.submit("blue: strike Type055-1 salvos=DDG-1:tlam,DDG-1:tlam")
    assert g.clock.acting == ("red",)  # the defender's shot calculus (9.2.1)
    assert g.legal_orders("red").verbs == ["shields"]
    with pytest.raises(IllegalOrderError) as e:
        g.submit("red: done")
    assert e.value.rule == "9.2.1" and e.value.code == "shields-first"
    g.submit("red: shields Type055-1:3")
    assert g.clock.acting == ("blue",)
    assert counter(g.unit("Type055-1")).grey_left + counter(g.unit("Type054-1")).grey_left == 6 - 3
    g.undo()
    g.undo()
    assert g.seq == seq0 and counter(g.unit("Type055-1")).grey_left == 4


def test_9_2_1_only_shields_in_range_may_cover_a_target():
    g = at(load(units=SEEN), "6.B.2")
    g.submit("blue: strike Type054-1 salvos=DDG-1:tlam")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("red: shields Type054-1:7")
    assert e.value.code == "not-enough-shields" and e.value.rule == "9.2"


def test_9_9_2_c2_value_on_the_6_box_gives_6_long_range_strike_actions():
    g = at(load(rules={"space": {"blue": {"c2": 6}, "red": {"c2": 2}}}), "6.B.1")
    assert dict(g.state.public["strikes_left"]) == {"blue": 6, "red": 2}


def test_9_9_3_igougo_sides_alternate_long_range_actions():
    g = at(load(units={"HQ-R": {"seen_by": ["blue"]}}, remove=("HQ9-1",)), "6.B.1")
    assert g.clock.acting == ("blue",)
    r = strike.resolve(g, target="HQ-R", salvos=["DDG-1:tlam"])
    assert r.outcome.get("pending") is not True
    assert g.state.public["strikes_left"]["blue"] == 2
    assert g.clock.acting == ("red",)  # U-GO


def test_9_9_3_chit_draw_cup_holds_each_sides_c2_value():
    g = at(load(options={"strike_order": "chits"}), "6.B.1")
    draws = [e for e in g.events if e.kind == "die" and e.data["purpose"] == "strike chit draw"]
    assert len(draws) == 1 and draws[0].visible_to is None
    cup = dict(g.state.public["strike_cup"])
    assert sum(cup.values()) == 3 + 2 - 1
    assert g.clock.acting[0] == draws[0].data["item"]


def test_9_9_one_to_many_ohio_fires_at_several_hexes_as_one_action():
    ssgn = {
        "id": "SSGN-1",
        "type": "ssn",
        "side": "blue",
        "hex": "0404",
        "data": {
            "attacks": [
                {
                    "id": "tlam",
                    "die": "d10",
                    "count": 18,
                    "targets": ["ground", "naval"],
                    "range": 6,
                }
            ]
        },
    }
    seen = {
        "HQ-R": {"seen_by": ["blue"]},
        "BDE-R": {"seen_by": ["blue"]},
        "DF21-1": {"seen_by": ["blue"]},
    }
    g = at(load(units=seen, add=[ssgn], options={"one_to_many": True}, remove=("HQ9-1",)), "6.B.1")
    salvos = ["SSGN-1:tlam:HQ-R"] * 6 + ["SSGN-1:tlam:BDE-R"] * 6 + ["SSGN-1:tlam:DF21-1"] * 6
    r = strike.resolve(g, target="HQ-R", salvos=salvos)
    assert r.outcome["salvos"] == 18 and set(r.outcome["hits"]) == {"HQ-R", "BDE-R", "DF21-1"}
    assert g.state.public["strikes_left"]["blue"] == 2  # one long-range strike action
    g2 = at(load(units=seen, add=[ssgn], remove=("HQ9-1",)), "6.B.1")
    with pytest.raises(IllegalOrderError) as e:
        g2.submit(strike.Strike.type.make("blue", target="HQ-R", salvos=salvos))
    assert e.value.rule == "9.8"


def test_9_9_5_4_torpedo_vs_red_shield_4_rolls_3_4_8_12_give_0_1_2_3_hits():
    assert [hits(r, 4) for r in (3, 4, 8, 12)] == [0, 1, 2, 3]
    g = at(load(units={"SSN-1": {"hex": "0504"}, **SEEN}), "6.B.2")
    s, res, _ = run(g, "blue: torpedo SSN-1 Type054-1", [8])
    assert res.outcome["hits"] == {"Type054-1": 2} and s.units["Type054-1"].box == "attrition"
    s, res, _ = run(g, "blue: torpedo SSN-1 Type054-1", [3])
    assert res.outcome["hits"] == {"Type054-1": 0}


def test_9_9_5_5_reattack_after_a_hit_until_the_first_miss():
    g = at(load(units={"SSN-1": {"hex": "0504"}, **SEEN}), "6.B.2")
    s, res, _ = run(g, "blue: torpedo SSN-1 Type055-1 reattack=Type054-1", [5, 1, 9])
    # first attack 5 vs 5: 1 hit; re-attack: ASW (all capable platforms active) rolls first: 1 misses; torpedo 9 vs 4:
    # 2 hits
    assert res.outcome["hits"] == {"Type055-1": 1, "Type054-1": 2}
    s2, res2, _ = run(g, "blue: torpedo SSN-1 Type055-1 reattack=Type054-1", [4])
    assert res2.outcome["hits"] == {"Type055-1": 0}  # first miss ends the attack


def test_9_9_5_2_asw_screen_detects_first_and_a_surviving_sub_aborts():
    screen = {
        "Type055-1": {"markers": ["asw"], "seen_by": ["blue"]},
        "Type054-1": {"markers": ["asw"], "seen_by": ["blue"]},
        "SSN-1": {"hex": "0504"},
    }
    g = at(load(units=screen), "6.B.2")
    s, res, _ = run(
        g, "blue: torpedo SSN-1 Type055-1", [9, 2]
    )  # detection 9 >= 8; ASW attack 2 < 4
    assert res.outcome["sub_detected"] and res.outcome["hits"] == {} and not res.outcome["sub_lost"]
    assert "red" in s.units["SSN-1"].seen_by and "silent-running" not in s.units["SSN-1"].markers


def test_9_9_5_6_ssk_attacks_only_from_silent_running():
    g = at(
        load(units={"SSK-1": {"markers": [], "hex": "0404"}, "DDG-1": {"seen_by": ["red"]}}),
        "6.B.2",
    )
    g.submit("blue: done")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("red: torpedo SSK-1 DDG-1")
    assert e.value.rule == "9.9.5.6"


def test_2_2_2_6_asp_takes_2_hits_each_destroys_1d6_salvos():
    shooter = {
        "id": "R-GLCM",
        "type": "df21",
        "side": "red",
        "hex": "0303",
        "data": {
            "attacks": [{"id": "c", "die": "d20", "count": 1, "targets": ["ground"], "range": 2}]
        },
    }
    g = at(load(add=[shooter], remove=("PATRIOT-1",)), "6.B.1")
    g.submit("blue: done")
    s, res, _ = run(
        g, "red: strike ASP-B salvos=R-GLCM:c", [6, 2, 3]
    )  # 6 vs 3: 2 hits; 1D6 = 2 and 3
    assert int(s.units["ASP-B"].data["salvos"]) == 6 - 5
    assert res.outcome["hits"] == {"ASP-B": 2}


def test_9_9_7_infrastructure_defence_3_each_step_loss_one_damage():
    shooter = {
        "id": "R-GLCM",
        "type": "df21",
        "side": "red",
        "hex": "0303",
        "data": {
            "attacks": [{"id": "c", "die": "d12", "count": 1, "targets": ["ground"], "range": 2}]
        },
    }
    g = at(load(add=[shooter], remove=("PATRIOT-1",)), "6.B.1")
    g.submit("blue: done")
    s, res, _ = run(g, "red: strike port:0203 salvos=R-GLCM:c", [6])
    assert dict(s.map.info(s.map.hex("0203")).facts["damage"]) == {"port": 2}


def test_6_5_9_3_cec_demotes_cruise_missiles_twice():
    g = load(
        units={
            "E2D-1": {"hex": "0404", "box": None, "seen_by": ["red"]},
            "DDG-1": {"seen_by": ["red"]},
        }
    )
    p = strike.preview(g, "DDG-1", ["Type055-1:yj18"], grey_shields=1, side="red")
    assert p.plans[0].die == "d6" and any("6.5.9.3" in n for n in p.plans[0].notes)
    g2 = load(units={"DDG-1": {"seen_by": ["red"]}})
    assert (
        strike.preview(g2, "DDG-1", ["Type055-1:yj18"], grey_shields=1, side="red").plans[0].die
        == "d10"
    )


def test_9_6_1_damaged_ship_is_suppressed_and_generates_no_strikes():
    from owsnb.kernel.reduce import apply_all
    from owsnb.rules.ows.common import apply_hits

    g = at(load(units=SEEN), "6.B.2")
    ev, lost, _ = apply_hits(g.state, g.unit("DDG-1"), 1, rule="9.6")
    st = apply_all(g.state, ev)
    assert "suppressed" in st.units["DDG-1"].markers and st.units["DDG-1"].steps == 1
    with pytest.raises(IllegalOrderError) as e:
        g.ruleset.check(
            st, __import__("owsnb").Order.parse("blue: strike Type055-1 salvos=DDG-1:tlam")
        )
    assert e.value.rule == "9.6.1"


def test_7_2_1_4_countermeasures_absorb_the_first_step_loss():
    from owsnb.rules.ows.common import apply_hits

    g = load(units={"DDG-1": {"markers": ["countermeasures"]}})
    ev, lost, absorbed = apply_hits(g.state, g.unit("DDG-1"), 1, rule="9.6")
    assert absorbed and lost == 0


def test_strike_preview_matches_100k_seeded_rolls():
    plans = allocate(["d10", "d12", "d8"], [6, 7, 6, 5], excess="demote", red=4)
    plans[0] = SalvoPlan(plans[0].die, plans[0].layers, 4, True, ("d10", 5))
    exact = strike._sum(p.distribution() for p in plans)
    roll = FastRoller(9)
    n = 100_000
    counts: dict[int, int] = {}
    for _ in range(n):
        h = sum(strike._roll_salvo(roll, p, None, "") for p in plans)
        counts[h] = counts.get(h, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []


def test_strike_preview_of_the_notebook_example():
    g = load(units=SEEN)
    p = strike.preview(g, target="Type055-1", salvos=["d10"] * 3, grey_shields=5)
    assert sorted(x.die for x in p.plans) == ["d10", "d8", "d8"]
    assert sum(p.hits.values()) == 1 and "9.2.1.1" in p.rules
    assert "<table" in p._repr_html_()
