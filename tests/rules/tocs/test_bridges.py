"""Bridges (WWII 10.13-10.14, L301-L308) and the digest's case 16."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs.bridge_orders import bridge_at
from owsnb.rules.tocs.terrain import can_cross

from .conftest import DATA, begin, board, set_data, submit
from .test_previews import _rolls, _within_3_sigma


def _board(material="wood", **kw):
    spec = yaml.safe_load((DATA / "tocs-test.yaml").read_text())
    spec["map"]["edges"] += [
        {"type": "river", "hexes": ["0403", "0402"], "class": "medium"},
        {"type": "bridge", "hexes": ["0403", "0402"], "material": material},
        {"type": "river", "hexes": ["0403", "0303"], "class": "medium"},
    ]
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0503"},
        {
            "id": "A-E",
            "type": "para-company",
            "side": "allied",
            "hex": "0403",
            "data": {"engineer": True},
        },
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0404"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
    ]
    return board(units=units, map=spec["map"], **kw)


def _status(g, a, b):
    return (bridge_at(g.state, g.hex(a), g.hex(b)) or {}).get("status")


def _destroyed_printed_bridge(**kw):
    g = _board(**kw)
    from owsnb.kernel.events import state_set

    from .conftest import poke

    poke(
        g,
        state_set(
            "public",
            {"bridges": {"0402-0403": {"status": "destroyed", "material": "wood", "built": False}}},
        ),
    )
    return g


def test_digest_case_16_l303_repair_destroyed_on_d6_1_damaged_on_d6_4():
    g = _destroyed_printed_bridge()
    assert not can_cross(g.state, g.hex("0403"), g.hex("0402"))
    begin(g)
    submit(g, "allied: activate A-E")
    assert g.preview("allied: bridge A-E 0402 repair")[True] == Fraction(1, 6)
    submit(g, "allied: bridge A-E 0402 repair", [2])  # d6 2 > 1: fails
    assert _status(g, "0403", "0402") == "destroyed" and g.unit("A-E").get("ap") == 0
    g = _destroyed_printed_bridge()
    begin(g)
    submit(g, "allied: activate A-E")
    sub = submit(g, "allied: bridge A-E 0402 repair", [1])
    assert _status(g, "0403", "0402") == "intact" and can_cross(
        g.state, g.hex("0403"), g.hex("0402")
    )
    assert "The bridge 0402-0403 is repaired" in [
        e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None
    ]


def test_digest_case_16_l303_a_bridging_company_rolls_twice_and_a_damaged_bridge_repairs_on_4():
    g = _destroyed_printed_bridge()
    set_data(g, "A-E", bridging=True)
    begin(g)
    submit(g, "allied: activate A-E")
    assert g.preview("allied: bridge A-E 0402 repair")[True] == 1 - Fraction(5, 6) ** 2
    submit(g, "allied: bridge A-E 0402 repair", [5, 1])  # the second roll succeeds
    assert _status(g, "0403", "0402") == "intact"
    g = _destroyed_printed_bridge()
    from owsnb.kernel.events import state_set

    from .conftest import poke

    poke(
        g,
        state_set(
            "public",
            {"bridges": {"0402-0403": {"status": "damaged", "material": "wood", "built": False}}},
        ),
    )
    begin(g)
    submit(g, "allied: activate A-E")
    assert g.preview("allied: bridge A-E 0402 repair")[True] == Fraction(4, 6)
    submit(g, "allied: bridge A-E 0402 repair", [4])
    assert _status(g, "0403", "0402") == "intact"


@pytest.mark.parametrize(
    "material, roll, destroyed",
    [
        ("wood", 5, True),
        ("wood", 6, False),
        ("stone", 4, True),
        ("stone", 5, False),
        ("metal", 4, True),
    ],
)
def test_digest_case_16_l308_destroy_wood_on_d6_5_stone_or_metal_on_d6_4(material, roll, destroyed):
    g = _board(material=material, tables={"rulings": {"printed_bridges_destroyable": True}})
    begin(g)
    submit(g, "allied: activate A-E")
    assert g.preview("allied: bridge A-E 0402 destroy")[True] == Fraction(
        5 if material == "wood" else 4, 6
    )
    submit(g, "allied: bridge A-E 0402 destroy", [roll])
    assert (_status(g, "0403", "0402") == "destroyed") is destroyed
    assert can_cross(g.state, g.hex("0403"), g.hex("0402")) is not destroyed


def test_l308_printed_bridges_are_destroyed_only_where_the_module_allows():
    g = _board()
    begin(g)
    submit(g, "allied: activate A-E")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: bridge A-E 0402 destroy")
    assert (e.value.code, e.value.rule) == ("printed-bridge", "L308") and g.state is before
    assert (
        board(options={"module": "omg-n"}).state.tables["rulings"]["printed_bridges_destroyable"]
        is True
    )


def test_digest_case_16_l302_a_footbridge_is_done_after_two_end_of_turn_checks_builder_disordered_or_better():
    g = _board()
    begin(g)
    submit(g, "allied: activate A-E")
    sub = submit(g, "allied: bridge A-E 0303 build kind=footbridge")
    assert not [e for e in sub.events if e.visible("german")]  # the job is secret
    assert not can_cross(g.state, g.hex("0403"), g.hex("0303"))
    jobs = g.state.secret["bridge_jobs"]
    assert [(j["key"], j["kind"], j["need"], j["done"]) for j in jobs] == [
        ("0303-0403", "footbridge", 2, 0)
    ]
    from owsnb.rules.tocs.bridge_orders import progress_bridges
    from owsnb.rules.tocs.emit import Emitter

    em = Emitter(g.state)
    set_state = em.state.units["A-E"]
    assert set_state.get("state") == 1  # Fatigued after acting: still qualifies
    progress_bridges(em)  # end of turn 1
    assert not can_cross(em.state, g.hex("0403"), g.hex("0303"))
    progress_bridges(em)  # end of turn 2
    assert (
        can_cross(em.state, g.hex("0403"), g.hex("0303")) and em.state.secret["bridge_jobs"] == ()
    )


def test_l301_a_disrupted_builder_makes_no_progress():
    g = _board()
    begin(g)
    submit(g, "allied: activate A-E")
    submit(g, "allied: bridge A-E 0303 build")
    set_data(g, "A-E", state=3)
    from owsnb.rules.tocs.bridge_orders import progress_bridges
    from owsnb.rules.tocs.emit import Emitter

    em = Emitter(g.state)
    progress_bridges(em)
    assert [j["done"] for j in em.state.secret["bridge_jobs"]] == [0]


@pytest.mark.parametrize(
    "order, code, rule",
    [
        ("allied: bridge A-1 0304 build", "not-engineer", "L301"),
        ("allied: bridge A-E 0402 build", "bridge-exists", "L301"),
        ("allied: bridge A-E 0503 build", "no-water", "L301"),
        ("allied: bridge A-E 0303 build kind=pontoon2", "not-bridging", "L301"),
        ("allied: bridge A-E 0402 repair", "nothing-to-repair", "L303"),
    ],
)
def test_10_13_bridge_refusals_change_nothing(order, code, rule):
    g = _board()
    begin(g)
    submit(g, f"allied: activate {order.split()[2]}")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(order)
    assert (e.value.code, e.value.rule) == (code, rule) and g.state is before


@pytest.mark.parametrize("sides_ok, n, seed", [(1, 1, 21), (4, 1, 22), (5, 1, 23), (1, 2, 24)])
def test_l303_l308_bridge_previews_match_100k_seeded_rolls(sides_ok, n, seed):
    from owsnb.kernel import Distribution
    from owsnb.rules.tocs.bridge_orders import success_chance

    t = {
        "repair": {"destroyed": sides_ok, "damaged": sides_ok},
        "destroy": {"wood": sides_ok},
        "bridging_repair_rolls": n,
    }
    p = success_chance(t, "repair", "destroyed", bridging=n > 1)
    pv = Distribution({True: p, False: 1 - p})
    rolls = _rolls(seed, 6, n) if n == 1 else None
    if n == 1:
        samples = [r <= sides_ok for r in rolls]
    else:
        from owsnb.kernel import Dice

        flat = Dice.from_seed(seed).roll_many(100_000 * n, 6, purpose="preview check")
        samples = [any(r <= sides_ok for r in flat[i * n : (i + 1) * n]) for i in range(100_000)]
    _within_3_sigma(pv, samples)
