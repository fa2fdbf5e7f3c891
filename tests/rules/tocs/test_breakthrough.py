"""Breakthrough advance (Basic L76) and the digest's case 9."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.testing import find_leaks

from .conftest import begin, board, lab, set_owner, set_unit, submit


def _wipe_out(g_steps=1):
    """A-1 and A-2 (4 each) attack G-1 in 0806 (1 step: strength 1) from 0706; G-2 waits next door."""
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0505"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0303"},
        {"id": "A-2", "type": "para-company", "side": "allied", "hex": "0303"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1105"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0806"},
    ]
    g = board(units=units)
    battle, start = g.hex("0806"), g.hex("0706")
    others = sorted(
        (n for n in battle.neighbours() if n != start and n.distance(start) > 1),
        key=g.state.map.label,
    )
    occupied, empty = g.state.map.label(others[0]), g.state.map.label(others[1])
    from owsnb.kernel.events import unit_add

    from .conftest import poke

    poke(
        g,
        unit_add(g.unit("G-1").evolve(id="G-2", hex=g.hex(occupied), steps=4), visible_to="german"),
    )
    for h in ("0706", "0606", "0605"):
        set_owner(g, h, "allied")
    set_unit(g, "A-1", hex=start)
    set_unit(g, "A-2", hex=start)
    set_unit(g, "G-1", steps=g_steps)
    begin(g)
    for u in ("A-1", "A-2"):
        submit(g, f"allied: activate {u}")
        submit(g, f"allied: attack {u} 0806 kind=hasty")
    return g, occupied, empty


def test_digest_case_9_l76_all_defenders_destroyed_the_attacker_may_advance_even_into_an_occupied_hex():
    g, occupied, empty = _wipe_out()
    # 8 v 1 -> 6:1 hasty, 2d6 = 7 -> '-/2R1': G-1 is destroyed; one prisoner roll (d6 1)
    submit(g, "allied: done", [3, 4, 1])
    assert g.unit("G-1").box == "dead" and lab(g, "A-1") == "0806"
    assert g.state.clock.step == "3.10" and "breakthrough" in g.legal_orders("allied").verbs
    sub = submit(g, f"allied: breakthrough A-1 {occupied}")
    assert lab(g, "A-1") == occupied and g.state.map.hexes[g.hex(occupied)].facts["engaged"] is True
    public = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert f"Breakthrough advance into {occupied}: Engagement Battle" in public
    assert not find_leaks(
        [dict(e.data) for e in sub.events if e.visible("german")], {"A-1", "A-2", "A-HQ"}
    )
    submit(g, f"allied: breakthrough A-2 {empty}")
    assert lab(g, "A-2") == empty and g.state.map.hexes[g.hex(empty)].facts["owner"] == "allied"
    before = g.state
    with pytest.raises(IllegalOrderError) as e:  # each unit advances once
        g.submit(f"allied: breakthrough A-1 {empty}")
    assert (e.value.code, e.value.rule) == ("no-breakthrough", "L76") and g.state is before


def test_l76_the_advance_is_one_hex_from_the_battle_hex():
    g, occupied, empty = _wipe_out()
    submit(g, "allied: done", [3, 4, 1])
    far = next(
        g.state.map.label(h)
        for h in g.hex("0806").disc(2)
        if h.distance(g.hex("0806")) == 2 and h in g.state.map.hexes
    )
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(f"allied: breakthrough A-1 {far}")
    assert (e.value.code, e.value.rule) == ("not-adjacent", "L76") and g.state is before


def test_l76_no_breakthrough_when_a_defender_survives():
    g, occupied, empty = _wipe_out(g_steps=4)
    # 8 v 3 -> 2:1 hasty, 2d6 = 7 -> '-/1R1': G-1 survives and retreats; a prisoner roll; turn-end 2d6
    submit(g, "allied: done", [3, 4, 1, 6, 6])
    assert g.unit("G-1").alive and g.state.clock.step == "3.3"
    assert not g.state.sides["allied"].private.get("breakthroughs")


def test_l76_an_unused_breakthrough_lapses_with_the_impulse():
    g, occupied, empty = _wipe_out()
    submit(g, "allied: done", [3, 4, 1])
    submit(g, "allied: done", [6, 6])
    assert g.state.clock.step == "3.3" and not g.state.sides["allied"].private.get("breakthroughs")
    assert lab(g, "A-1") == "0806"
