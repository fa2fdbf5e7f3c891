"""Sequence of play (3): the 8 phases as data, initiative and deferral (3.5), secret simultaneous
placement (3.6), the umpire's air-combat steps (9.7), legal orders follow the step."""

import pytest

from owsnb.kernel.errors import IllegalOrderError, NotYourTurnError
from owsnb.rules.ows import RULESET
from owsnb.rules.ows.sequence import SEQUENCE, step

from .conftest import at, load


def test_3_turn_sequence_has_the_8_phases_and_every_chart_step():
    assert [p.title for p in SEQUENCE.phases][:3] == [
        "Planning & Readiness Decisions",
        "Strategic Movement",
        "Tactical Movement",
    ]
    keys = [s.key for _, s in SEQUENCE.walk()]
    for k in (
        "3.A.1",
        "3.B.3",
        "3.C.2",
        "4.1",
        "4.3",
        "5.3",
        "6.A.1",
        "6.A.7",
        "6.B.1",
        "6.B.2",
        "6.C.4",
        "7.A",
        "7.J",
        "8",
    ):
        assert k in keys
    assert step("4.1").mode == "simultaneous" and step("6.A.4").actors == "umpire"
    assert step("6.A.5").optional == "tactical_map" and step("8").optional == "assessment_phase"


def test_3_legal_orders_only_offer_what_the_step_allows():
    g = at(load(units={"Type055-1": {"seen_by": ["blue"]}}), "5.1")
    assert set(g.legal_orders("blue").verbs) <= {"done", "isr"}
    assert "strike" not in g.legal_orders("blue").verbs
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: strike Type055-1 salvos=DDG-1:tlam")
    assert e.value.code == "wrong-step"
    with pytest.raises(NotYourTurnError):
        g.submit("red: isr 0404")


def test_3_umpire_advance_to_the_automatic_step_7_A_checks_supply_and_stops_at_7_I():
    """3.10 / chart phase 7: "A. Check supply" (11.1) is automatic: ``umpire: advance 7.A`` runs
    it (and 7.B-7.H) and stops at 7.I, the first Regeneration step where the sides act — as
    ``advance 7.I`` does — instead of playing the game on to its end."""
    g = load()
    sub = g.submit("umpire: advance 7.A")
    assert (g.clock.turn, g.clock.step) == (1, "7.I")
    entered = [e.data["clock"].step for e in sub.events if e.kind == "clock.set"]
    assert entered[entered.index("7.A") :] == [
        "7.A",
        "7.B",
        "7.C",
        "7.D",
        "7.E",
        "7.F",
        "7.G",
        "7.H",
        "7.I",
    ]
    g2 = load()
    g2.submit("umpire: advance 7.I")
    assert g2.state.units == g.state.units and g2.clock == g.clock


def test_3_5_initiative_side_may_defer_first_move_in_naval_air_and_sof_steps():
    g = at(load(), "3.A.1")
    assert g.clock.acting == ("blue",)
    g.submit("blue: defer")
    assert g.clock.acting == ("red",)
    with pytest.raises(IllegalOrderError):
        g.submit("red: defer")
    g.submit("red: done")
    assert g.clock.acting == ("blue",)
    g.submit("blue: done")
    assert g.clock.step == "3.A.2" and g.clock.acting == ("blue",)


def test_3_5_no_deferral_after_acting():
    g = at(load(), "3.B.1")
    g.submit("blue: fly F35-CAP 0202")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: defer")
    assert e.value.rule == "3.5"


def test_3_6_io_placement_is_simultaneous_and_adjudicated_after_both_are_done():
    g = at(load(), "4.1")
    assert set(g.clock.acting) == {"blue", "red"}
    g.submit("red: done")
    g.submit("blue: done")
    assert g.clock.phase == "5"


def test_2_1_1_4_umpire_ad_hoc_adjudication_on_a_d10():
    g = load()
    p = g.preview("umpire: adjudicate 30 what=bridge")
    assert p[True] == __import__("fractions").Fraction(3, 10)
    sub = g.submit("umpire: adjudicate 30 what=bridge")
    assert sub.result.outcome["success"] == (sub.result.outcome["roll"] >= 8)
    with pytest.raises(IllegalOrderError):
        g.submit("umpire: adjudicate 35")


def test_3_options_include_every_ruling_with_a_default():
    names = RULESET.options
    for n in (
        "excess_shields",
        "cooperative_sensing",
        "critical_hits",
        "strike_order",
        "best_die",
        "one_to_many",
        "face_down",
        "sof_regeneration",
        "idf_support",
        "sub_detectors",
        "assault_markers",
        "odds_steps",
    ):
        assert n in names
    assert {o.rule for o in RULESET.option_list} >= {
        "R1",
        "R2",
        "R3",
        "C1",
        "C3",
        "C4",
        "C5",
        "C6",
        "C11",
    }


@pytest.mark.parametrize(
    "text",
    [
        "blue: strike Type055-1 salvos=DDG-1:tlam,DDG-1:tlam:Type054-1",
        "red: shields Type055-1:3,Type054-1:1 cap=J20-CAP fire=Type055-1:yj18:DDG-1",
        "blue: torpedo SSN-1 Type055-1 reattack=Type054-1",
        "umpire: air-combat 0504 pairs=F35-CAP:J20-CAP,J20-CAP:F35-CAP",
        "blue: io disrupt-c2 space:red:c2",
        "blue: fly F35-STRIKE 0504 tanker=KC-1 task=sead",
        "blue: package F35-STRIKE munitions=2 asp=ASP-B escorts=F35-CAP",
        "blue: insert SOF-B 0703",
        "blue: detect 0504 sensors=DDG-1,E2D-1",
    ],
)
def test_order_notation_round_trips(text):
    from owsnb import Order

    o = Order.parse(text)
    assert Order.parse(str(o)) == o and str(o) == text
    spec = RULESET.order_types[o.verb]
    spec.bind(o)  # every parameter is one the verb declares
