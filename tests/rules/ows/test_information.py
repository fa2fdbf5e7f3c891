"""IO, cyber and space (7): each test names its paragraph."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import information, strike
from owsnb.rules.ows.common import space

from .conftest import at, load, run


def _io_step(**kw):
    return at(load(**kw), "4.1")


def test_7_2_placement_is_secret_until_revealed():
    g = _io_step(units={"Type055-1": {"seen_by": ["blue"]}})
    g.submit("blue: io disrupt-c2 Type055-1")
    assert g.state.sides["blue"].private["io_placed"][0]["unit"] == "Type055-1"
    red = g.view("red")
    assert not red.sides["blue"].private  # the enemy sees nothing of it
    assert all("disrupt" not in str(e.data) for e in red.events if e.kind != "clock.set")
    assert g.clock.mode == "simultaneous" and "red" in g.clock.acting


def test_7_2_1_1_disrupt_c2_beats_assure_then_red_and_a_disrupted_ship_cannot_fire():
    g = _io_step(units={"Type055-1": {"seen_by": ["blue"]}, "DDG-1": {"seen_by": ["red"]}})
    g.submit("blue: io disrupt-c2 Type055-1")
    g.submit("red: io assure-c2 Type055-1")
    g.submit("blue: done")
    # entering 4.2 adjudicates: script the rolls through run() of red's done
    s, res, ev = run(
        g, "red: done", [6, 5]
    )  # 6 beats Assure C2 (6), then 5 meets the red shield (5)
    t = s.units["Type055-1"]
    assert "disrupted-c2" in t.markers and "assured-c2" in t.markers


def test_7_2_1_1_disrupt_c2_stopped_by_assure_c2():
    g = _io_step(units={"Type055-1": {"seen_by": ["blue"]}})
    g.submit("blue: io disrupt-c2 Type055-1")
    g.submit("red: io assure-c2 Type055-1")
    g.submit("blue: done")
    s, res, ev = run(g, "red: done", [5])
    assert "disrupted-c2" not in s.units["Type055-1"].markers


def test_7_2_1_1_disrupted_c2_ship_cannot_fire():
    g = at(
        load(units={"DDG-1": {"markers": ["disrupted-c2"]}, "Type055-1": {"seen_by": ["blue"]}}),
        "6.B.2",
    )
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: strike Type055-1 salvos=DDG-1:tlam")
    assert e.value.rule == "7.2.1.1"


def test_7_2_1_1_and_7_2_1_2_exact_preview():
    assert information.disrupt_preview("d10", 5)[True] == Fraction(3, 5)
    assert information.disrupt_preview("d10", 5, assure=6)[True] == Fraction(3, 10)


def test_7_2_1_3_sigint_promotes_and_7_2_1_4_countermeasures_demote_and_they_cancel():
    for markers, die in (
        ([], "d10"),
        (["sigint"], "d12"),
        (["countermeasures"], "d8"),
        (["sigint", "countermeasures"], "d10"),
    ):
        g = load(units={"Type055-1": {"seen_by": ["blue"], "markers": markers}})
        p = strike.preview(g, "Type055-1", ["DDG-1:tlam"], grey_shields=0)
        assert p.plans[0].die == die, markers


def test_7_5_2_pnt_disrupted_demotes_strikes_beyond_one_hex():
    g = load(units={"HQ-R": {"seen_by": ["blue"]}}, rules={"space": {"blue": {"pnt": "disrupted"}}})
    p = strike.preview(g, "HQ-R", ["DDG-1:tlam"], grey_shields=0)
    assert p.plans[0].die == "d8" and any("7.5.2" in n for n in p.plans[0].notes)


def test_7_6_one_disrupt_token_hits_one_dashboard_row():
    g = _io_step()
    g.submit("blue: io disrupt-c2 space:red:isr_die")
    g.submit("blue: done")
    s, res, ev = run(g, "red: done", [6])
    d = space(s, "red")
    assert d["isr_die"] == "d6" and d["isr_pawns"] == 2  # the die row only
    with pytest.raises(IllegalOrderError):
        _io_step().submit("blue: io sigint space:red:c2")


def test_7_5_1_c2_row_demoted_means_fewer_long_range_strikes():
    g = _io_step()
    g.submit("blue: io disrupt-c2 space:red:c2")
    g.submit("blue: done")
    g.ruleset  # noqa: B018
    s, _, _ = run(g, "red: done", [6])
    assert space(s, "red")["c2"] == 1


def test_7_3_cyber_card_is_one_shot():
    g = _io_step()
    g.submit("blue: cyber gps-spoofing target=space:red:pnt")
    assert "gps-spoofing" not in g.state.sides["blue"].private["hand"]["cyber"]
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: cyber gps-spoofing target=space:red:pnt")
    assert e.value.rule == "7.3"


def test_7_4_nuke_only_if_authorised():
    g = at(
        load(units={"BDE-R": {"seen_by": ["blue"]}}, rules={"hands": {"blue": {"nuke": 1}}}),
        "6.B.1",
    )
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: nuke BDE-R")
    assert e.value.rule in ("7.4", "3.8") or e.value.code in ("not-authorised", "wrong-step")
    g2 = at(
        load(
            units={"BDE-R": {"seen_by": ["blue"]}},
            options={"nukes": True},
            rules={"hands": {"blue": {"nuke": 1}}},
        ),
        "6.B.1",
    )
    g2.submit("blue: nuke BDE-R")
    assert (
        g2.unit("BDE-R").box == "attrition"
        and g2.state.map.info(g2.hex("0704")).facts["radiation"] is True
    )
