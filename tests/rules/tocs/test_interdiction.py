"""Artillery interdiction (WWII 10.26, L351-L359) and the digest's case 11."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.kernel.events import hex_set
from owsnb.rules.tocs.combat import _retreat, _retreat_path
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.terrain import step_cost
from owsnb.testing import find_leaks

from .conftest import begin, board, poke, set_data, set_owner, set_unit, submit


def _board():
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0505"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0303"},
        {"id": "A-2", "type": "para-company", "side": "allied", "hex": "0303"},
        {"id": "A-B", "type": "pack-howitzer-battery", "side": "allied", "hex": "0504"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0806"},
        {"id": "G-B", "type": "pack-howitzer-battery", "side": "german", "hex": "1006"},
    ]
    g = board(units=units)
    for h in ("0706", "0606", "0605"):
        set_owner(g, h, "allied")
    set_unit(g, "A-1", hex=g.hex("0706"))
    set_unit(g, "A-2", hex=g.hex("0706"))
    return g


def _interdicted(g, label):
    return g.state.map.hexes[g.hex(label)].facts.get("interdicted")


def test_digest_case_11_l358_reserve_battery_interdicts_a_battle_hex_every_attack_drops_a_level():
    g = _board()
    set_data(g, "G-B", reserve=True)
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=deliberate")
    submit(g, "allied: activate A-2")
    submit(g, "allied: attack A-2 0806 kind=hasty")
    submit(g, "allied: done")
    assert (
        g.state.clock.step == "3.8"
    )  # Reserve Commitment: the German reserve battery may fire (L358)
    submit(g, "german: activate G-B")
    assert "interdict" in g.legal_orders("german").verbs
    sub = submit(g, "german: interdict G-B 0806")
    assert _interdicted(g, "0806") == "german"
    assert g.unit("A-1").get("attack_type") == "hasty"  # deliberate -> hasty (-1 AP, L357)
    assert g.unit("A-2").get("attack_hex") is None  # the hasty attack is called off (L359)
    b = g.unit("G-B")
    assert b.get("state") == 1 and b.get("act") == "closed"  # all AP spent, degraded (L351)
    public = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert public == ["Interdiction marker on 0806 (until the firer's next impulse)"]
    assert not find_leaks(
        [dict(e.data) for e in sub.events if e.visible("german")], {"A-1", "A-2", "A-HQ"}
    )


def test_l353_l355_plus_one_mp_in_or_out_and_no_road_rate_for_either_side():
    g = _board()
    s = g.state
    a1, g1 = g.unit("A-1"), g.unit("G-1")
    road = step_cost(s, a1, g.hex("0705"), g.hex("0805"))  # by road into the polder: road rate
    into = step_cost(s, a1, g.hex("0706"), g.hex("0806"))
    out = step_cost(s, g1, g.hex("0806"), g.hex("0907"))
    poke(
        g,
        hex_set(g.hex("0806"), {"interdicted": "allied"}),
        hex_set(g.hex("0805"), {"interdicted": "german"}),
    )
    s = g.state
    assert step_cost(s, a1, g.hex("0706"), g.hex("0806")) == into + 1  # moving in (L353)
    assert step_cost(s, g1, g.hex("0806"), g.hex("0907")) == out + 1  # friendly units too (L355)
    off_road = 1 + 1  # polder COT (placeholder) + the text's +1 to enter a polder off road (L406)
    assert (
        road == 1 and step_cost(s, a1, g.hex("0705"), g.hex("0805")) == off_road + 1
    )  # no road rate


def test_l351_the_marker_lasts_until_the_start_of_the_firers_next_impulse():
    g = _board()
    poke(g, hex_set(g.hex("0606"), {"interdicted": "german"}))
    begin(g)
    assert _interdicted(g, "0606") == "german"  # the Allied impulse does not lift a German marker
    submit(g, "allied: pass", [6, 6])
    assert g.state.clock.step == "3.3" and g.state.public["phasing"] == "german"
    begin(g, "german")
    assert not _interdicted(g, "0606")


def test_l351_an_hq_order_in_the_impulse_costs_the_hq_an_ap():
    g = _board()
    begin(g)
    submit(g, "allied: activate A-HQ")
    ap = g.unit("A-HQ").get("ap")
    submit(g, "allied: interdict A-B 0906")
    assert g.unit("A-HQ").get("ap") == ap - 1 and _interdicted(g, "0906") == "allied"
    assert g.unit("A-B").get("state") == 1


@pytest.mark.parametrize(
    "order, code, rule",
    [
        ("allied: interdict A-1 0906", "not-battery", "L351"),
        ("allied: interdict A-B 1209", "out-of-range", "L351"),
    ],
)
def test_l351_interdiction_refusals_change_nothing(order, code, rule):
    g = _board()
    begin(g)
    submit(g, "allied: activate A-HQ")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(order)
    assert (e.value.code, e.value.rule) == (code, rule) and g.state is before


def test_l357_attacking_out_of_an_interdicted_hex_drops_a_level_and_a_hasty_attack_is_refused():
    g = _board()
    poke(g, hex_set(g.hex("0706"), {"interdicted": "german"}))
    begin(g)
    submit(g, "allied: activate A-1")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: attack A-1 0806 kind=hasty")
    assert (e.value.code, e.value.rule) == ("interdicted", "L357") and g.state is before
    submit(g, "allied: attack A-1 0806 kind=intensive")
    assert g.unit("A-1").get("attack_type") == "deliberate"


@pytest.mark.parametrize("interdicted, expected", [(False, 0), (True, 1)])
def test_l353_retreating_into_an_interdicted_hex_degrades_one_more_state(interdicted, expected):
    g = _board()
    first = _retreat_path(g.state, g.unit("G-1"), g.hex("0806"), 1)[0][0]
    if interdicted:
        poke(g, hex_set(first, {"interdicted": "allied"}))
    em = Emitter(g.state)
    _retreat(em, ["G-1"], g.hex("0806"), 1, rule="L735")
    assert em.state.units["G-1"].hex == first and em.state.units["G-1"].get("state") == expected
