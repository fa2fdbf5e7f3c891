"""How the battle ends and who holds the field (ruling R20), and formations that arrive (§10)."""

from __future__ import annotations

from .conftest import battlefield


def _leaving_board():
    return battlefield(
        [
            ("G-HQ", "ger-general-average", "axis", "0101", "ger"),
            ("S-HQ", "sov-general-average", "soviet", "1108", "sov"),
        ],
        rules={
            "objectives": [{"hex": "0505", "name": "Kalinovka", "points": 5, "control": "axis"}]
        },
        card="ger",
    )


def test_r20_a_side_that_leaves_the_battlefield_loses_it_and_its_objectives():
    """§2: "Nothing can be done contrary to what could or would be done in actual war." The rule
    book has no victory rules (R20): a side that has marched every stand off the table has given
    up the field. It may not keep its objectives and win: the side still on the battlefield wins."""
    g = _leaving_board()
    assert g.outcome().startswith("decisive victory for German")  # it holds Kalinovka
    g.submit("axis: exit G-HQ")  # the only German stand leaves from its home edge
    assert g.is_over()
    text = g.outcome()
    assert text.startswith("decisive victory for Soviet"), text
    assert "German has left the battlefield" in text
    from owsnb.rules.opart.victory import score

    assert score(g.state)["axis"]["objectives"] == 0


def _finish_turn(g):
    turn = g.state.clock.turn
    while g.state.clock.turn == turn and not g.is_over():
        side = g.state.clock.acting
        g.submit(f"{side[0]}: done" if side else "umpire: advance")


def test_10_a_formation_arrives_mid_battle_and_its_card_joins_the_pack():
    """§10: "When a division or group of assets is deployed onto the tabletop, its activation card
    is added to the pack of activation cards that will be used for this battle." The 19th Panzer
    is due on turn 2 (scenario ``rules.arrivals``): off the table and out of the pack in turn 1,
    on its entry hex with its card in the pack from turn 2."""
    g = battlefield(
        [
            ("G-HQ", "ger-general-average", "axis", "0103", "ger"),
            ("P-HQ", "ger-general-average", "axis", "0101", "pz"),
            ("S-HQ", "sov-general-average", "soviet", "1108", "sov"),
        ],
        rules={"arrivals": {"pz": 2}},
    )
    p = g.unit("P-HQ")
    assert p.hex is None and p.box == "arriving" and g.state.public["pack"] == 2
    assert "pz" not in g.state.public["turned"]
    _finish_turn(g)
    assert g.state.clock.turn == 2
    p = g.unit("P-HQ")
    assert p.box is None and g.state.map.label(p.hex) == "0101"
    assert g.state.public["pack"] == 3
    notes = [e.data["text"] for e in g.events if e.kind == "note"]
    assert any(t.startswith("P-HQ") and "arrives at 0101" in t for t in notes)


def test_10_r30_an_arrival_hex_held_by_the_enemy_deploys_next_to_it():
    """R30 (the text gives no entry rule): a stand whose entry hex holds an enemy stand arrives at
    the nearest hex free of enemy stands where it may stack."""
    g = battlefield(
        [
            ("G-HQ", "ger-general-average", "axis", "0103", "ger"),
            ("P-HQ", "ger-general-average", "axis", "0505", "pz"),
            ("S-HQ", "sov-general-average", "soviet", "0505", "sov"),
        ],
        rules={"arrivals": {"pz": 2}},
    )
    _finish_turn(g)
    h = g.unit("P-HQ").hex
    assert h is not None and h.distance(g.hex("0505")) == 1


def test_r20a_a_side_whose_formations_are_still_to_arrive_has_not_left():
    """R20a: only a side with no stand on the battlefield *and none still to arrive* has left."""
    g = battlefield(
        [
            ("P-HQ", "ger-general-average", "axis", "0101", "pz"),
            ("S-HQ", "sov-general-average", "soviet", "1108", "sov"),
        ],
        rules={"arrivals": {"pz": 2}},
    )
    assert not g.is_over() and g.state.public["pack"] == 1
    _finish_turn(g)
    assert g.state.clock.turn == 2 and g.unit("P-HQ").hex is not None
