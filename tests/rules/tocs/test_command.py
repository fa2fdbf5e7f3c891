"""Reassignment (10.17, L315-L318; the digest's case 17) and refit (10.22, L337-L340)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs.command_orders import refit_at_end_of_turn
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.supply import in_los

from .conftest import begin, board, set_data, set_unit, submit


def _case_17():
    """80th ID (A-80) near the supply edge 0101 with its battalion A-BN and company A-C; 4th AD (A-4AD)
    and its CCA far from any supply."""
    hq = "para-hq-regiment"
    units = [
        {"id": "A-80", "type": "para-hq-division", "side": "allied", "hex": "0105"},
        {
            "id": "A-BN",
            "type": hq,
            "side": "allied",
            "hex": "0109",
            "data": {"parent": "A-80", "echelon": "battalion"},
        },
        {
            "id": "A-C",
            "type": "para-company",
            "side": "allied",
            "hex": "0110",
            "data": {"parent": "A-BN"},
        },
        {"id": "A-4AD", "type": "para-hq-division", "side": "allied", "hex": "0510"},
        {
            "id": "A-CCA",
            "type": hq,
            "side": "allied",
            "hex": "0509",
            "data": {"parent": "A-4AD", "echelon": "brigade"},
        },
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
    ]
    for u in units:  # not airborne: no automatic supply (L222)
        u.setdefault("data", {})["para"] = False
    return board(
        units=units,
        rules={"supply_edges": {"allied": ["0101"]}, "op_minimum": {"allied": 10, "german": 6}},
    )


def test_digest_case_17_l318_a_lent_battalion_obeys_only_its_new_chain_and_still_draws_los_via_the_old():
    g = _case_17()
    begin(g)
    submit(g, "allied: activate A-80")
    submit(g, "allied: reassign A-BN A-CCA")
    assert (
        g.unit("A-BN").get("parent") == "A-CCA" and g.unit("A-BN").get("original_parent") == "A-80"
    )
    assert g.unit("A-BN").get("state") == 0  # no degradation (L315)
    assert g.unit("A-80").get("ap") == 2  # 1 HQ AP
    # orders now come only from CCA or 4th AD (L318)
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: reserve A-C hq=A-80")
    assert (e.value.code, e.value.rule) == ("not-parent-hq", "L240") and g.state is before
    submit(g, "allied: activate A-CCA")
    submit(g, "allied: reserve A-C hq=A-CCA")
    assert g.unit("A-C").get("reserve") is True
    # LOS: the new chain has no supply, the original parent's does (L315)
    assert not in_los(g.state, g.unit("A-CCA")) and not in_los(g.state, g.unit("A-4AD"))
    assert in_los(g.state, g.unit("A-C")) and in_los(g.state, g.unit("A-BN"))
    lent = g.state.units["A-BN"].evolve(data={"original_parent": None})
    from dataclasses import replace

    from owsnb.kernel.data import FrozenDict

    cut = replace(g.state, units=FrozenDict({**dict(g.state.units), "A-BN": lent}))
    assert not in_los(cut, cut.units["A-C"])  # without the old parent it would be out of supply


def test_l315_reassigning_back_clears_the_original_parent():
    g = _case_17()
    begin(g)
    submit(g, "allied: activate A-80")
    submit(g, "allied: reassign A-BN A-CCA")
    submit(g, "allied: activate A-CCA")
    submit(g, "allied: reassign A-BN A-80 hq=A-CCA")
    assert g.unit("A-BN").get("parent") == "A-80" and g.unit("A-BN").get("original_parent") is None


@pytest.mark.parametrize(
    "order, code, rule",
    [
        ("allied: reassign A-BN A-BN", "cycle", "L316"),
        ("allied: reassign A-80 A-BN", "cycle", "L316"),  # a division under its own battalion
        ("allied: reassign A-BN A-80", "same-hq", "L316"),
        ("allied: reassign A-BN A-C", "not-an-hq", "L315"),  # a company
        ("allied: reassign A-BN G-HQ", "not-your-unit", "10.17"),  # the order names its units
        ("allied: reassign A-CCA A-80", "no-hq", "L315"),  # A-4AD is not activated
    ],
)
def test_l315_l316_reassignment_refusals_change_nothing(order, code, rule):
    g = _case_17()
    begin(g)
    submit(g, "allied: activate A-80")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(order)
    assert e.value.code == code and e.value.rule == rule and g.state is before


def test_l315_a_battalion_hq_cannot_order_a_reassignment():
    g = _case_17()
    begin(g)
    submit(g, "allied: activate A-BN")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: reassign A-C A-CCA")
    assert e.value.code == "no-hq"


def _refitting(**rules):
    g = board(rules=rules or None)
    set_unit(g, "A-1", steps=2)
    begin(g)
    submit(g, "allied: activate A-HQ")
    sub = submit(g, "allied: refit A-1")
    assert not [e for e in sub.events if e.visible("german")]  # secret
    return g


def test_l338_refit_gains_one_step_at_the_end_of_turn():
    g = _refitting()
    assert g.unit("A-1").get("refit") is True
    em = Emitter(g.state)
    refit_at_end_of_turn(em)
    assert em.state.units["A-1"].steps == 3 and not em.state.units["A-1"].get("refit")


def test_l338_l339_refit_draws_on_the_replacement_pool_and_stops_when_empty():
    g = _refitting(pools={"allied": {"replacement": 1}})
    em = Emitter(g.state)
    refit_at_end_of_turn(em)
    assert (
        em.state.units["A-1"].steps == 3
        and em.state.sides["allied"].private["pools"]["replacement"] == 0
    )
    g = _refitting(pools={"allied": {"replacement": 0}})
    em = Emitter(g.state)
    refit_at_end_of_turn(em)
    assert em.state.units["A-1"].steps == 2


def test_l337_l338_a_unit_in_ezoc_or_probed_does_not_refit():
    g = _refitting()
    set_unit(
        g, "G-1", hex=g.hex("0603")
    )  # a German company now projects ZOC into 0503? put A-1 next to it
    set_unit(g, "A-1", hex=g.hex("0503"))
    em = Emitter(g.state)
    refit_at_end_of_turn(em)
    assert em.state.units["A-1"].steps == 2
    g = _refitting()
    set_data(g, "A-1", refit=False)  # what a probe or a ground attack does (L337)
    em = Emitter(g.state)
    refit_at_end_of_turn(em)
    assert em.state.units["A-1"].steps == 2


def test_l338_a_full_strength_unit_is_refused():
    g = board()
    begin(g)
    submit(g, "allied: activate A-HQ")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: refit A-1")
    assert (e.value.code, e.value.rule) == ("full-strength", "L338") and g.state is before
