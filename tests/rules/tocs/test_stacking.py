"""Stacking (L107, L143-L147): the limits, the end-of-impulse check, retreats and combat."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.kernel.errors import ScenarioError

from .conftest import begin, board, lab, set_data, set_owner, set_unit, submit


def _companies(side, hexes, prefix):
    kind = "para-company" if side == "allied" else "ger-infantry-company"
    return [
        {"id": f"{prefix}-{i + 1}", "type": kind, "side": side, "hex": h}
        for i, h in enumerate(hexes)
    ]


HQS = [
    {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0303"},
    {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
]


def _five_moving_in():
    """Four Companies in 0403 and a fifth in 0303, next to it on the road."""
    return board(units=[*HQS, *_companies("allied", ["0403"] * 4 + ["0303"], "A")])


def _alive(g, side):
    return sorted(u.id for u in g.state.units.values() if u.side == side and u.alive)


def test_l145_five_companies_cannot_end_an_impulse_in_one_hex():
    """L144: "Any combination of up to four (4) Companies or Vehicle Platoons or Batteries, plus up
    to four (4) assets, plus any number of HQs can stack in a single hex." L145: "Units may
    temporarily over stack while moving ... as long as at the end of the current friendly
    Operational Impulse the hex is not over stacked." L147: "Each over stacked hex must be reduced
    to legal stacking limits by either eliminating units (owners choice), or by moving units"."""
    g = _five_moving_in()
    begin(g)
    submit(g, "allied: activate A-5")
    submit(g, "allied: move A-5 0403")
    assert sum(1 for u in g.state.units.values() if u.alive and lab(g, u.id) == "0403") == 5
    submit(g, "allied: done", [6, 6])  # the turn-end roll: the turn goes on
    in_hex = [u.id for u in g.state.units.values() if u.alive and lab(g, u.id) == "0403"]
    assert len(in_hex) == 4  # one Company eliminated when the impulse ended
    dead = [u for u in g.state.units.values() if u.side == "allied" and not u.alive]
    assert len(dead) == 1 and dead[0].box == "dead"
    assert dead[0].id in g.state.sides["german"].private["killed"]  # in the dead pile (L112)
    notes = [e.data["text"] for e in g.view("german").events if e.kind == "note"]
    assert "Allied loses a unit to over stacking" in notes
    assert not any("0403" in t for t in notes[-3:])  # the hex of the stack is not told


def test_l147_the_owner_chooses_which_unit_to_eliminate():
    """L147: "Each over stacked hex must be reduced to legal stacking limits by either eliminating
    units (owners choice)"."""
    g = _five_moving_in()
    begin(g)
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: eliminate A-1")  # 0403 is not over stacked yet
    assert e.value.code == "not-overstacked" and e.value.rule == "L147"
    submit(g, "allied: activate A-5")
    submit(g, "allied: move A-5 0403")
    assert "eliminate" in {s.type.verb for s in g.legal_orders("allied")}
    submit(g, "allied: eliminate A-3")
    submit(g, "allied: done", [6, 6])
    assert _alive(g, "allied") == ["A-1", "A-2", "A-4", "A-5", "A-HQ"]


def test_l144_hqs_stack_freely_and_assets_have_their_own_limit():
    """L144: "... plus up to four (4) assets, plus any number of HQs can stack in a single hex."
    Battalion HQ-Companies are counted as Companies for stacking purposes."""
    extra = [
        {"id": f"A-HQ{i}", "type": "para-hq-regiment", "side": "allied", "hex": "0403"}
        for i in range(3)
    ]
    g = board(units=[*HQS, *_companies("allied", ["0403"] * 4, "A"), *extra])  # 4 + 3 HQs: legal
    assert len(g.state.units) == 9
    with pytest.raises(ScenarioError, match="over stacked in 0403"):
        board(
            units=[*HQS, *_companies("allied", ["0403"] * 4, "A"), *extra[:1]],
            extra_units=[
                {
                    "id": "A-HC",
                    "type": "para-company",
                    "side": "allied",
                    "hex": "0403",
                    "data": {"cls": "hqcompany"},
                },
            ],
        )


def test_l146_a_retreat_may_over_stack_until_the_end_of_its_sides_next_impulse():
    """L146: "Units forced to retreat from combat may temporarily over stack as long as the hex is
    not over stacked at the end of the next friendly Operational Impulse, or the end of the game
    turn, whichever comes first." """
    units = [*HQS, *_companies("german", ["0807"] * 4 + ["0907"], "G")]
    g = board(units=units)
    set_unit(g, "G-5", hex=g.hex("0807"))  # as if it had retreated there in the Allied impulse
    set_data(g, "G-5", retreated=True)
    begin(g)
    submit(g, "allied: done", [6, 6])  # end of the Allied impulse: the German stack may wait
    assert len(_alive(g, "german")) == 6
    begin(g, "german")
    submit(g, "german: done", [6, 6])  # end of the German impulse: now it must be legal
    assert len(_alive(g, "german")) == 5


def test_l143_six_companies_defend_as_four():
    """L143: "While battles may have ranged over miles involving huge number of units, individual
    combats within hexes must adhere to stacking limits." Two para companies (4 + 4) against six
    German companies (3 each) fight at 8 against 12 (1:2), not 8 against 18 (1:3)."""
    units = [
        *HQS,
        *_companies("allied", ["0303", "0303"], "A"),
        *_companies("german", ["0806"] * 4 + ["0807", "0807"], "G"),
    ]
    g = board(units=units)
    set_owner(g, "0706", "allied")
    for uid in ("A-1", "A-2"):
        set_unit(g, uid, hex=g.hex("0706"))
    for uid in ("G-5", "G-6"):  # two more defenders pushed into the hex (over stacked)
        set_unit(g, uid, hex=g.hex("0806"))
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=deliberate")
    submit(g, "allied: activate A-2")
    submit(g, "allied: attack A-2 0806 kind=deliberate")
    sub = g.submit("allied: done")  # seeded dice: the column is set before the roll
    notes = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert any(t.startswith("Battle at 0806: deliberate, column 1:2,") for t in notes), notes


def test_l365_an_over_stacked_hex_congests_its_roads():
    """L365: "Any hex that exceeds the stacking limit will restrict the use of its roads, causing
    any unit entering a congested road network to pay the COT to enter as if the road did not
    exist." Five German Companies in the polder 0805 (over stacked while moving, L145): a sixth
    entering by the road 0705-0805 pays the polder's COT, not the road rate."""
    units = [*HQS, *_companies("german", ["0805"] * 4 + ["0705", "0705"], "G")]
    g = board(units=units)
    begin(g)
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    cot = g.state.tables["cot"]
    road = float(cot["road"]["foot"])
    polder = float(cot["terrain"]["polder"]["foot"]) + float(cot.get("polder_enter", 0))
    assert polder > road
    submit(g, "german: activate G-5")
    submit(g, "german: move G-5 0805")  # 4 there: not over stacked yet, road rate
    assert float(g.unit("G-5").get("mp_left")) == 2 - road
    submit(g, "german: activate G-6")
    submit(g, "german: move G-6 0805")  # 5 there: over stacked, its road is congested
    assert float(g.unit("G-6").get("mp_left")) == 2 - polder
