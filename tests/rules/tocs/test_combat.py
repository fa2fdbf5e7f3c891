"""The CRT procedure (L67-L77, L716-L741), ambush (10.1.2, L251-L252) and interrogation."""

from __future__ import annotations

from owsnb.rules.tocs.combat import Battle, _retreat, _retreat_path, column_for, parse_result
from owsnb.rules.tocs.emit import Emitter

from .conftest import begin, board, lab, set_owner, set_unit, submit


def _battle_board(defenders=("0806",), extra=(), **kw):
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0505"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0303"},
        {"id": "A-2", "type": "para-company", "side": "allied", "hex": "0303"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
    ]
    units += [
        {"id": f"G-{i + 1}", "type": "ger-infantry-company", "side": "german", "hex": h}
        for i, h in enumerate(defenders)
    ]
    g = board(units=[*units, *extra], **kw)
    for h in ("0706", "0606", "0605"):
        set_owner(g, h, "allied")
    set_unit(g, "A-1", hex=g.hex("0706"))
    set_unit(g, "A-2", hex=g.hex("0706"))
    return g


def test_l67_l716_deliberate_attack_at_1_1_result_applied_defender_first():
    g = _battle_board()
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=deliberate")
    assert g.state.map.hexes[g.hex("0806")].facts["battle"] is True  # public Battle Marker (L67)
    assert lab(g, "A-1") == "0706"  # attackers stay out until resolution (L67)
    # CRT 4+5 = 9 on deliberate 1:1 (4 v 3) -> '-/1R1'; prisoner roll 3 ('adjacent'); turn end 6+6
    submit(g, "allied: done", [4, 5, 3, 6, 6])
    g1 = g.unit("G-1")
    assert (
        g1.steps == 3 and g1.hex.distance(g.hex("0806")) == 1 and g1.get("state") == 2
    )  # battle + retreat
    assert lab(g, "A-1") == "0806" and g.state.map.hexes[g.hex("0806")].facts["owner"] == "allied"
    assert g.unit("A-1").get("state") == 1  # degraded once, for activating (appendix E.1)
    notes = [e.data["text"] for e in g.view("german").events if e.kind == "note"]
    assert "Battle at 0806: deliberate, column 1:1, 2d6=9: -/1R1" in notes
    assert not any("A-1" in t for t in notes)
    intel = g.state.sides["allied"].private["interrogations"]
    assert intel[0]["table"] == "prisoner" and "adjacent" in intel[0]["answer"]


def test_l251_l252_ambush_defender_two_columns_mover_loses_its_ap_no_air():
    g = _battle_board(defenders=("0806",), options={"air_support_in_ambush": "l252"})
    from owsnb.kernel.events import hex_set

    from .conftest import poke

    poke(g, hex_set(g.hex("0806"), {"air_support": "allied"}))
    begin(g)
    submit(g, "allied: activate A-1")
    # 4 v 3 = 1:1, ambush -2 -> 1:3 (air support is ignored, L252); 2d6 = 7
    sub = submit(g, "allied: move A-1 0806", [3, 4, 1])
    txt = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert any(t.startswith("Battle at 0806: ambush, column 1:3, 2d6=7") for t in txt)
    assert g.unit("A-1").get("ap") == 0


def test_l252_road_column_fights_at_half_strength_fru():
    g = _battle_board()
    s = g.state
    b = Battle(g.hex("0806"), "allied", ["A-1"], "ambush", shifts=["ambush"], road_column=True)
    col, att, dfn, notes = column_for(s, b, [g.unit("G-1")])
    assert (att, dfn) == (2, 3) and s.tables["crt"]["columns"][col] == "1:3"
    b2 = Battle(g.hex("0806"), "allied", ["A-1"], "ambush", shifts=[], road_column=False)
    assert column_for(s, b2, [g.unit("G-1")])[1] == 4


def test_e1_l146_retreat_into_friendly_occupied_hex_is_legal_and_overstacks():
    g = _battle_board(defenders=("0806", "0807"))
    battle = g.hex("0806")
    for i, n in enumerate(h for h in battle.neighbours() if g.state.map.label(h) != "0807"):
        g2 = f"X-{i}"
        from owsnb.kernel.events import unit_add

        from .conftest import poke

        poke(g, unit_add(g.unit("A-1").evolve(id=g2, hex=n)))
    em = Emitter(g.state)
    _retreat(em, ["G-1"], battle, 1, rule="L735")
    assert em.state.units["G-1"].hex == g.hex("0807") and em.state.units["G-1"].alive


def test_l729_retreat_into_enemy_occupied_hex_destroys_the_unit():
    g = _battle_board()
    battle = g.hex("0806")
    from owsnb.kernel.events import unit_add

    from .conftest import poke

    for i, n in enumerate(battle.neighbours()):
        poke(g, unit_add(g.unit("A-1").evolve(id=f"X-{i}", hex=n)))
    em = Emitter(g.state)
    _retreat(em, ["G-1"], battle, 1, rule="L735")
    assert em.state.units["G-1"].box == "dead" and em.state.units["G-1"].seen_by == frozenset(
        {"allied", "german"}
    )


def _attacker_retreat(model):
    g = _battle_board(defenders=("0806", "0806", "0806"), options={"degrade_model": model})
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=deliberate")
    # 4 v 9 -> 1:3; 2d6 = 2 -> '2R1/-': two SL and a retreat for the attacker; 2 German prisoner rolls
    submit(g, "allied: done", [1, 1, 1, 1, 6, 6])
    return g


def test_appendix_e1_attacker_that_activates_fights_and_retreats_loses_two_states():
    g = _attacker_retreat("appendix")
    assert g.unit("A-1").get("state") == 2 and g.unit("A-1").steps == 2 and lab(g, "A-1") == "0706"


def test_l155_literal_degradation_counts_the_combat_too():
    assert _attacker_retreat("literal").unit("A-1").get("state") == 3


def _pursuit(tables=None):
    g = _battle_board(tables=tables or {})
    first = _retreat_path(g.state, g.unit("G-1"), g.hex("0806"), 2)[0][0]
    from owsnb.kernel.events import unit_add

    from .conftest import poke

    poke(g, unit_add(g.unit("G-1").evolve(id="G-9", hex=first)))
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=intensive pursue=yes")
    submit(g, "allied: activate A-2")
    submit(g, "allied: attack A-2 0806 kind=intensive pursue=yes")
    # 8 v 3 -> 2:1; 2d6 = 10 -> '-/2R2'; two prisoner rolls; turn end
    submit(g, "allied: done", [5, 5, 1, 1, 6, 6])
    return g, g.state.map.label(first)


def test_l738_wwii_pursuit_into_an_occupied_hex_becomes_an_engagement():
    g, first = _pursuit()
    assert lab(g, "A-1") == first and g.state.map.hexes[g.hex(first)].facts.get("engaged") is True
    assert g.state.map.hexes[g.hex("0806")].facts["owner"] == "allied"


def test_l74_basic_ruling_pursuit_only_into_unoccupied_hexes():
    g, first = _pursuit({"rulings": {"pursuit_into_occupied": "forbidden"}})
    assert lab(g, "A-1") == "0806" and not g.state.map.hexes[g.hex(first)].facts.get("engaged")


def test_l282_attack_into_an_empty_hex_moves_in():
    g = _battle_board(defenders=("1108",))
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=hasty")
    submit(g, "allied: done", [6, 6])
    assert lab(g, "A-1") == "0806" and g.state.map.hexes[g.hex("0806")].facts["owner"] == "allied"


def test_l726_result_notation():
    assert parse_result("2R1/1R2") == ((2, 1), (1, 2))


def test_l246_an_engagement_hex_is_joined_not_attacked():
    import pytest

    from owsnb.kernel import IllegalOrderError
    from owsnb.kernel.events import hex_set

    from .conftest import poke

    g = _battle_board()
    poke(g, hex_set(g.hex("0806"), {"engaged": True}))
    begin(g)
    submit(g, "allied: activate A-1")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: attack A-1 0806 kind=hasty")
    assert e.value.code == "engaged-hex" and e.value.rule == "L246"


def test_appendix_e2_l605_default_tactical_support_shifts_an_ambush_one_column():
    g = _battle_board(defenders=("0806",))
    from owsnb.kernel.events import hex_set

    from .conftest import poke

    poke(g, hex_set(g.hex("0806"), {"air_support": "allied"}))
    begin(g)
    submit(g, "allied: activate A-1")
    # 4 v 3 = 1:1, ambush -2, air support +1 -> 1:2 (L605 wins over L252 by default); 2d6 = 7
    sub = submit(g, "allied: move A-1 0806", [3, 4, 1])
    txt = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert any(t.startswith("Battle at 0806: ambush, column 1:2, 2d6=7") for t in txt), txt


def test_l155_l735_a_reconnaissance_unit_does_not_degrade_for_retreating():
    """L155: units "that retreat from combat [Exc: reconnaissance units] ... will degrade to a
    lower state." The defender retreats one hex (deliberate 1:1, 2d6 = 9: -/1R1): an infantry
    company loses two states (battle and retreat), a reconnaissance company one (battle)."""
    for recon, state in ((False, 2), (True, 1)):
        g = _battle_board()
        if recon:
            set_unit(g, "G-1", data={**dict(g.unit("G-1").data), "recon": True})
        begin(g)
        submit(g, "allied: activate A-1")
        submit(g, "allied: attack A-1 0806 kind=deliberate")
        submit(g, "allied: done", [4, 5, 3, 6, 6])
        g1 = g.unit("G-1")
        assert g1.hex.distance(g.hex("0806")) == 1 and g1.get("state") == state, recon


def test_l734_a_reconnaissance_attacker_does_not_degrade_for_retreating():
    """L734: "If the attacker retreats they will return back to the adjacent hex that they had
    attacked from ... The attacker's units will degrade [EXC: reconnaissance units]." 2d6 = 2 at
    1:3 is 2R1/-: the recon attacker keeps its state (appendix E.1: one state for activating)."""
    g = _battle_board(defenders=("0806", "0806", "0806"))
    set_unit(g, "A-1", data={**dict(g.unit("A-1").data), "recon": True})
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=deliberate")
    submit(g, "allied: done", [1, 1, 1, 1, 6, 6])
    a1 = g.unit("A-1")
    assert lab(g, "A-1") == "0706" and a1.get("state") == 1  # activation only


def test_l274_l275_a_unit_that_reconnoitred_the_hex_sets_the_length_of_the_battle():
    """L274: "In effect all higher level Intensive/Deliberate Attacks will be reduce to the same
    attack level of the lowest unit that had performed the reconnaissance or probe action." L275:
    "Any unit performing reconnaissance that becomes part of the battle will dictate the length of
    the battle based on the AP remaining of that unit." A-2 reconnoitres 0806 (1 AP) and joins
    with a deliberate attack (its last 2 AP); A-1's intensive attack is cut to deliberate."""
    g = _battle_board()
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: recon A-2 0806")
    submit(g, "allied: attack A-2 0806 kind=deliberate")
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=intensive")
    sub = g.submit("allied: done")
    notes = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert any(t.startswith("Battle at 0806: deliberate,") for t in notes), notes
