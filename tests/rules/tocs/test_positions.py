"""Improved positions (WWII 10.9, L287-L291) and the digest's case 7 (fortifications)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError, ScenarioError
from owsnb.rules.tocs.combat import Battle, column_for
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.perimeter import take_hex

from .conftest import begin, board, lab, set_data, set_private, set_public, set_unit, submit


def _defended(**kw):
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0505"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0404"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0806"},
        {"id": "G-2", "type": "ger-infantry-company", "side": "german", "hex": "0808"},
    ]
    return board(units=units, **kw)


def test_digest_case_7_l289_strongpoint_and_fortified_companies_add_10_to_defence():
    g = _defended()
    set_private(
        g, "german", positions={"0806": 2, "0808": 3}
    )  # G-1 under a Strongpoint, G-2 under a Fortified Area
    s = g.state
    dfn = {
        h: column_for(s, Battle(g.hex(h), "allied", ["A-1"], "hasty"), [g.unit(u)])[2]
        for h, u in (("0806", "G-1"), ("0808", "G-2"))
    }
    printed = 3
    assert dfn == {"0806": printed + 4, "0808": printed + 6}
    assert (dfn["0806"] - printed) + (dfn["0808"] - printed) == 10  # the Key Concept's (4 + 6)
    notes = column_for(s, Battle(g.hex("0806"), "allied", ["A-1"], "hasty"), [g.unit("G-1")])[3]
    assert "improved position +4" in notes


def test_l289_the_bonus_ignores_step_losses_and_counts_each_company():
    g = _defended()
    set_unit(g, "G-1", steps=1)
    set_unit(g, "G-2", hex=g.hex("0806"))
    set_private(g, "german", positions={"0806": 1})
    s = g.state
    dfn = column_for(
        s, Battle(g.hex("0806"), "allied", ["A-1"], "hasty"), [g.unit("G-1"), g.unit("G-2")]
    )[2]
    assert dfn == 1 + 3 + 2 * 2  # 1-step G-1 (3 x 1/4 FRU) + G-2 + Entrenched +2 for each Company


def test_10_9_l287_improve_position_spends_all_ap_raises_one_level_degrades_and_stays_secret():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    assert "improve" in g.legal_orders("allied").verbs
    sub = submit(g, "allied: improve A-1")
    assert g.state.sides["allied"].private["positions"] == {"0403": 1}
    u = g.unit("A-1")
    assert (
        u.get("ap") == 0 and u.get("state") == 1
    )  # all AP spent; the Company degrades afterwards (L287)
    assert [e for e in sub.events if e.visible("german")] == []  # inside the perimeter: secret
    assert g.view("german").sides["allied"].private == {}


def test_l288_one_level_per_unit_per_turn_refused_unchanged():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: improve A-1")
    set_data(g, "A-1", state=0, act="open", ap=3)
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: improve A-1")
    assert e.value.code == "once-per-turn" and e.value.rule == "L288" and g.state is before


@pytest.mark.parametrize(
    "setup, code, rule",
    [
        (lambda g: None, "not-company", "L287"),  # the HQ
        (lambda g: set_data(g, "A-1", state=2), "not-good-order", "L287"),
        (
            lambda g: set_public(
                g, weather={**dict(g.state.public["weather"]), "ground": "frozen"}
            ),
            "frozen",
            "10.9",
        ),
        (lambda g: set_private(g, "allied", positions={"0403": 3}), "max-level", "L288"),
    ],
)
def test_10_9_improve_refusals_name_their_rule_and_change_nothing(setup, code, rule):
    g = board()
    begin(g)
    uid = "A-HQ" if code == "not-company" else "A-1"
    submit(g, f"allied: activate {uid}")
    setup(g)
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(f"allied: improve {uid}")
    assert (e.value.code, e.value.rule) == (code, rule) and g.state is before


def test_digest_3_5_a_fatigued_engineer_company_may_dig():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    set_data(g, "A-1", state=1, engineer=True)
    submit(g, "allied: improve A-1")
    assert g.state.sides["allied"].private["positions"] == {"0403": 1}


def test_l290_position_lost_for_good_when_the_enemy_takes_the_hex():
    g = _defended()
    set_unit(g, "G-1", hex=g.hex("1008"))
    set_private(g, "german", positions={"0806": 2, "0808": 1})
    em = Emitter(g.state)
    take_hex(em, "allied", g.hex("0806"), rule="L282", why="test")
    assert dict(em.state.sides["german"].private["positions"]) == {"0808": 1}
    assert any(
        e.kind == "note"
        and e.visible("german")
        and not e.visible("allied")
        and "lost" in e.data["text"]
        for e in em.events
    )


def test_l290_an_attack_into_an_empty_improved_hex_removes_the_marker():
    g = _defended()
    set_unit(g, "G-1", hex=g.hex("1008"))
    set_private(g, "german", positions={"0806": 2})
    for h in ("0706", "0606", "0605"):
        from .conftest import set_owner

        set_owner(g, h, "allied")
    set_unit(g, "A-1", hex=g.hex("0706"))
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=hasty")
    submit(g, "allied: done", [6, 6])
    assert lab(g, "A-1") == "0806" and dict(g.state.sides["german"].private["positions"]) == {}


def test_l269_reconnaissance_finds_an_improved_position():
    g = board()
    set_private(g, "german", positions={"0605": 3})
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g)
    submit(g, "allied: activate A-2")
    sub = submit(g, "allied: recon A-2 0605")
    texts = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert "An improved position (fortified) is found in 0605" in texts


def test_l291_a_module_places_positions_at_setup_and_bad_levels_are_located():
    g = board(rules={"positions": {"german": {"0806": "strongpoint"}}})
    assert dict(g.state.sides["german"].private["positions"]) == {"0806": 2}
    assert g.view("allied").sides["german"].private == {}
    with pytest.raises(ScenarioError) as e:
        board(rules={"positions": {"german": {"0806": "bunker"}}})
    assert "rules.positions.german.0806" in str(e.value)
