"""Planning & readiness (4): orders documentation (4.3) and decision cards (4.2, 10.2.5)."""

import pytest

from owsnb.analysis.history import events_table
from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import planning
from owsnb.testing import find_leaks

from .conftest import at, load

CARDS = {
    "decision_cards": {
        "cards": {
            "joint-fire-strike": {
                "title": "Joint Fire Strike",
                "turns": [1],
                "effects": [{"space": {"c2": 1}}],
            },
            "information-blockade": {"effects": [{"space": {"target": "enemy", "isr_pawns": -1}}]},
            "mobilize": {
                "steps": ["1.2"],
                "public": False,
                "effects": [{"readiness": {"units": ["BDE-B", "DDG-1"], "remove": ["rsoi"]}}],
            },
            "night-raid": {
                "steps": ["3.A.1", "3.C.1"],
                "effects": [{"facilitator": "a raid the umpire adjudicates"}],
            },
        }
    }
}


def _cards(**kw):
    return load(
        rules={
            "hands": {
                "blue": {
                    "cards": ["joint-fire-strike", "mobilize", "night-raid"],
                    "decision": ["planned-offensive"],
                },
                "red": {"cards": ["information-blockade"], "decision": ["planned-offensive"]},
            }
        },
        tables=CARDS,
        units={"BDE-B": {"markers": ["rsoi"]}},
        **kw,
    )


def test_4_3_orders_are_the_sides_private_fact_seen_by_the_umpire_and_its_own_history():
    g = at(load(), "1.1")
    g.submit(
        "blue: intent intent 'Purpose: keep the strait open. End state: Red fleet fixed in port.'"
    )
    g.submit("blue: intent pir 'Where is the Type 055 group?'")
    g.submit("blue: intent pir 'Will Red close the port?'")
    sub = g.submit("blue: intent pir 'Which port will Red use?' slot=2")  # rewrite entry 2
    assert sub.result.outcome["pir"] == ["Where is the Type 055 group?", "Which port will Red use?"]
    g.submit("blue: intent target Type055-1")
    g.submit("blue: intent target slot=1")  # delete it
    doc = planning.orders_doc(g.state, "blue")
    assert doc == {
        "intent": ["Purpose: keep the strait open. End state: Red fleet fixed in port."],
        "pir": ["Where is the Type 055 group?", "Which port will Red use?"],
    }
    # the umpire and Blue see it (view, dashboard, event history); Red sees nothing of it
    assert (
        planning.orders_doc(g.view("umpire"), "blue")
        == doc
        == planning.orders_doc(g.view("blue"), "blue")
    )
    assert planning.orders_doc(g.view("red"), "blue") == {}
    dash = g.ruleset.presentation.dashboard(g.view("blue"))
    assert dash["blue"]["orders"]["PIR"] == doc["pir"]
    assert "orders" not in g.ruleset.presentation.dashboard(g.view("red"))["blue"]
    secret = ["Which port will Red use?", "keep the strait open"]
    red_rows = events_table(g, "red")
    assert find_leaks(red_rows.to_dict("records"), secret) == []
    assert find_leaks(g.ruleset.presentation.dashboard(g.view("red")), secret) == []
    assert any("Which port will Red use?" in t for t in events_table(g, "blue")["text"])


def test_4_3_refusals_cite_the_paragraph_and_change_nothing():
    g = at(load(), "1.1")
    g.submit("blue: intent task 'Screen the strait'")
    before = g.state
    for order, code in (
        ("blue: intent task slot=3", "bad-slot"),
        ("blue: intent task", "nothing"),
        ("blue: intent task " + "x" * 1001, "too-long"),
    ):
        with pytest.raises(IllegalOrderError) as e:
            g.submit(order)
        assert (e.value.code, e.value.rule) == (code, "4.3")
    assert g.state == before
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: intent mood 'grim'")
    assert e.value.code == "bad-arguments"
    g2 = at(load(), "2.1")
    with pytest.raises(IllegalOrderError) as e:
        g2.submit("blue: intent task 'late'")
    assert e.value.code == "wrong-step"


def test_4_3_orders_form_html_escapes_what_players_write():
    g = at(load(), "1.1")
    g.submit("blue: intent objective '<script>alert(1)</script>'")
    h = planning.orders(g, "blue")._repr_html_()
    assert "<script>" not in h and "&lt;script&gt;" in h and "Objectives" in h


def test_4_2_a_card_is_played_in_its_step_and_its_effects_come_from_the_table():
    g = at(_cards(), "1.2")
    legal = g.legal_orders("blue")
    spec = next(s for s in legal if s.verb == "card")
    assert {str(o) for o in spec.examples} == {
        "blue: card joint-fire-strike",
        "blue: card mobilize",
    }
    sub = g.submit("blue: card joint-fire-strike")  # C2 +1 until the 11.3 reset
    assert g.state.sides["blue"].public["space"]["c2"] == 4 and "4.2" in sub.result.rules
    assert "joint-fire-strike" not in g.state.sides["blue"].private["hand"]["cards"]
    assert any("Joint Fire Strike" in t for t in events_table(g, "red")["text"])  # public play
    g.submit(
        "blue: card mobilize"
    )  # a secret readiness card: RSO&I comes off BDE-B only (own units)
    assert "rsoi" not in g.unit("BDE-B").markers
    assert not any("mobilize" in str(x) for x in events_table(g, "red")["data"])
    assert any("mobilize" in str(x) for x in events_table(g, "blue")["data"])
    g.submit("blue: done")
    g.submit("red: card information-blockade")  # the enemy loses a theater ISR pawn this turn
    assert g.state.sides["blue"].public["space"]["isr_pawns"] == 1
    g = at(g, "7.I")  # 11.3: dashboards reset
    assert (
        g.state.sides["blue"].public["space"]["c2"] == 3
        and g.state.sides["blue"].public["space"]["isr_pawns"] == 2
    )


def test_4_2_some_cards_are_played_in_other_phases_and_playing_one_is_not_acting_for_deferral():
    g = at(_cards(), "1.2")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: card night-raid")
    assert (e.value.code, e.value.rule) == ("wrong-step", "4.2")
    g = at(g, "3.A.1")
    assert "card" in g.legal_orders("blue").verbs
    sub = g.submit("blue: card night-raid")
    assert any("umpire adjudicates" in x for x in sub.result.lines)
    g.submit("blue: defer")  # 3.5: playing a card is not a first move
    assert g.clock.acting == ("red",)


def test_4_2_a_card_limited_to_turn_1_is_refused_later_and_a_card_not_held_is_refused():
    g = at(_cards(), "1.2")
    g.submit("umpire: advance 1.2")
    while g.clock.turn == 1:
        g.submit("umpire: advance")
    g = at(g, "1.2")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: card joint-fire-strike")
    assert e.value.rule == "4.2" and "turn 1" in str(e.value)
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: card information-blockade")
    assert (e.value.code, e.value.rule) == ("no-card", "4.2")


def test_10_2_5_card_and_initiative_seize_are_one_play_once_per_ground_phase():
    g = at(_cards(), "6.C.1")
    sub = g.submit("blue: card planned-offensive")
    assert planning.seized(g.state) == ["blue"] and "10.2.5" in sub.result.rules
    assert "planned-offensive" not in g.state.sides["blue"].private["hand"]["decision"]
    g.submit("blue: done")
    with pytest.raises(
        IllegalOrderError
    ) as e:  # a scenario card that does not seize the initiative
        g.submit("red: initiative seize=information-blockade")
    assert (e.value.code, e.value.rule) == ("not-initiative-card", "10.2.5")
    g.submit("red: initiative seize=planned-offensive")
    assert planning.seized(g.state) == ["blue", "red"]


def test_4_1_planning_is_optional_both_sides_may_pass_the_planning_steps_with_nothing_written():
    g = load()
    assert g.clock.step == "1.1" and {"intent", "done"} <= set(
        g.ruleset.allowed_verbs(g.state, "blue")
    )
    before = {s: dict(g.state.sides[s].private) for s in g.state.sides}
    for step in ("1.1", "1.2", "1.3"):
        assert g.clock.step == step
        g.submit("blue: done")
        g.submit("red: done")
    assert g.clock.step == "2.1"  # on to Strategic Movement: nothing was required
    assert not any(e.kind == "die" for e in g.events)  # nothing to adjudicate
    assert {
        s: dict(g.state.sides[s].private) for s in g.state.sides
    } == before  # no orders documented (4.3)
    assert all(g.state.sides[s].private.get("orders_doc") is None for s in g.state.sides)
