"""The combat results table (11.0-11.7), loss spreading (12.0, 13.3) and steps (errata 8.0)."""

from __future__ import annotations

import pytest

from owsnb.kernel.data import freeze
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.state import Unit
from owsnb.rules.combatops.combat import (
    COLUMNS,
    allocate_losses,
    crt_row,
    load_crt,
    loss_events,
    odds_column,
    shift_column,
)
from owsnb.rules.combatops.units import hits

from .conftest import game

CRT = load_crt()


@pytest.mark.parametrize(
    "attack, defense, column",
    [
        (7, 3, "2-1"),
        (5, 12, "1-3"),
        (3, 2, "1-1"),
        (2, 10, "1-4"),
        (25, 5, "4-1"),
        (4, 1, "4-1"),
        (1, 2, "1-2"),
        (1, 3, "1-3"),
        (10, 5, "2-1"),
        (9, 3, "3-1"),
        (4, 5, "1-2"),
    ],
)
def test_11_0_odds_round_down_and_clamp(attack, defense, column):
    assert odds_column(attack, defense) == column


def test_11_0_shift_then_clamp():
    assert shift_column("2-1", 1) == "3-1"
    assert shift_column("4-1", 1) == "4-1"  # raw 6-1 is 4-1 first (digest #23), then +1 stays 4-1
    assert shift_column("4-1", -1) == "3-1"  # raw 6-1 with a -1 shift: clamp first gives 3-1
    assert shift_column("1-4", -1) == "1-4"


def test_11_1_example_1_4_against_two_battalions():
    # "the defender has 2 battalions so the attacker must lose 4 steps ... must now retreat 1 hex"
    assert crt_row(CRT, "1-4", 4) == (4, 0, 1, 0)


def test_11_2_example_1_3_against_three_battalions():
    # attacker loses 3 (3 x 2 / 2) and retreats; defender loses 0 (3 x 2 / 8 = .75)
    assert crt_row(CRT, "1-3", 6) == (3, 0, 1, 0)


def test_11_5_example_2_1_against_two_battalions_uses_the_formula():
    # the prose says "loses 2 steps" but its own arithmetic (2 x 2 / 3 = 1.33) gives 1 (digest #21)
    assert crt_row(CRT, "2-1", 4) == (0, 1, 0, 1)


def test_11_7_four_to_one_eliminates_and_costs_one_step():
    for s in (1, 2, 6, 12):
        assert crt_row(CRT, "4-1", s) == (1, "eliminated", 0, 0)


QUICK = {  # digest §3.7 quick-reference grid, recomputed in the review: attacker/defender losses
    1: ["1/0", "0/0", "0/0", "0/0", "0/0", "0/0", "1/e"],
    2: ["2/0", "1/0", "0/0", "0/0", "0/0", "0/1", "1/e"],
    4: ["4/0", "2/0", "1/0", "1/1", "0/1", "0/2", "1/e"],
    6: ["6/0", "3/0", "2/1", "1/1", "1/2", "0/3", "1/e"],
    8: ["8/0", "4/1", "2/1", "2/2", "1/2", "1/4", "1/e"],
    12: ["12/0", "6/1", "4/2", "3/3", "2/4", "1/6", "1/e"],
}


@pytest.mark.parametrize("steps", sorted(QUICK))
def test_11_crt_quick_reference_grid(steps):
    got = []
    for col in COLUMNS:
        a, d, _, _ = crt_row(CRT, col, steps)
        got.append(f"{a}/{'e' if d == 'eliminated' else d}")
    assert got == QUICK[steps]


def test_11_retreats_by_column():
    retreats = {c: crt_row(CRT, c, 4)[2:] for c in COLUMNS}
    assert retreats == {
        "1-4": (1, 0),
        "1-3": (1, 0),
        "1-2": (1, 0),
        "1-1": (0, 0),
        "2-1": (0, 1),
        "3-1": (0, 1),
        "4-1": (0, 0),
    }


def _bn(uid: str, steps: int = 2, **data) -> Unit:
    return Unit(
        uid, "blue", steps=steps, max_steps=2, data=freeze({"utype": "infantry", "bns": 1, **data})
    )


def _reg(uid: str, n: int, steps: int | None = None) -> Unit:
    return Unit(
        uid,
        "red",
        "r-inf-reg-49",
        steps=2 * n if steps is None else steps,
        max_steps=2 * n,
        data=freeze(
            {
                "utype": "infantry",
                "atk": 6,
                "dfn": 8,
                "ma": 2,
                "echelon": "regiment",
                "bns": n,
                "bn": {"atk": 2, "dfn": 3},
            }
        ),
    )


def test_12_0_example_four_battalions_five_losses():
    slots = allocate_losses([[], [_bn("B1"), _bn("B2"), _bn("B3"), _bn("B4")]], 5)
    assert sorted(s[0] for s in slots.values()) == [1, 1, 1, 2]  # 3 with hit markers, 1 eliminated


def test_12_0_units_already_hit_take_second_losses_last():
    slots = allocate_losses([[], [_bn("B1", steps=1), _bn("B2")]], 1)
    assert slots == {"B1": [1], "B2": [1]}


def test_12_0_excess_losses_are_ignored():
    slots = allocate_losses([[], [_bn("B1")]], 5)
    assert slots == {"B1": [2]}


def test_13_3_priority_units_absorb_losses_until_eliminated():
    # "the defender suffered the loss of three battalions. These losses must first be inflicted on
    # any defending ... antitank ... battalions" (13.3; digest review E2)
    at, i1, i2 = _bn("AT"), _bn("I1"), _bn("I2")
    slots = allocate_losses([[at], [i1, i2]], 3, "exhaust-priority")
    assert slots == {"AT": [2], "I1": [1], "I2": [0]}


def test_13_3_first_hit_alternative_spreads_first_hits():
    at, i1, i2 = _bn("AT"), _bn("I1"), _bn("I2")
    slots = allocate_losses([[at], [i1, i2]], 3, "first-hit")
    assert slots == {"AT": [1], "I1": [1], "I2": [1]}


def test_errata_8_0_regiment_counts_as_its_battalions_for_spreading():
    # digest omission 1: a Blue regiment counter plus one battalion take 3 losses: 2 + 1
    reg = _reg("R", 3)
    slots = allocate_losses([[], [reg, _bn("B1")]], 3)
    assert sorted(slots["R"]) == [0, 1, 1] and slots["B1"] == [1]


def _apply_losses(g, uid, losses):
    s = g.state
    u = s.units[uid]
    slots = allocate_losses([[], [u]], losses)[uid]
    return apply_all(s, loss_events(s, u, slots, rule="12.0"))


def test_errata_8_0_red_regiment_breaks_down_on_its_third_loss():
    g = game([{"id": "R-1I/49", "type": "r-inf-reg-49", "side": "red", "hex": "E3"}])
    s2 = _apply_losses(g, "R-1I/49", 2)
    assert (
        s2.units["R-1I/49"].steps == 2 and hits(s2.units["R-1I/49"]) == 2
    )  # two hit markers, still a regiment
    s3 = _apply_losses(g, "R-1I/49", 3)
    assert "R-1I/49" not in s3.units  # replaced by its remaining battalion
    bns = [u for u in s3.units.values() if u.data.get("regiment") == "R-1I/49"]
    assert [(u.id, u.steps, hits(u), u.data["atk"], u.data["dfn"]) for u in bns] == [
        ("R-1:1I/49", 1, 1, 2, 3)
    ]
    s4 = _apply_losses(g, "R-1I/49", 4)
    assert not [u for u in s4.units.values() if u.data.get("regiment") == "R-1I/49" and u.alive]


def test_errata_8_0_blue_regiment_fourth_loss_leaves_two_hit_battalions():
    g = game([{"id": "B-1I/36", "type": "b-inf-reg-36", "side": "blue", "hex": "C3"}])
    s = _apply_losses(g, "B-1I/36", 4)
    bns = sorted((u.id, u.steps) for u in s.units.values() if u.data.get("regiment") == "B-1I/36")
    assert bns == [
        ("B-1:1I/36", 1),
        ("B-2:1I/36", 1),
    ]  # 6 steps - 4 = 2: two battalions with a hit each


BOOK_UNIT_TABLE = {  # the rule book's unit table, "Mechanized" column
    "infantry": False,
    "armored-infantry": True,
    "motorized-infantry": True,
    "armor": True,
    "armored-cavalry": True,
    "artillery": False,
    "motorized-artillery": True,
    "mechanized-artillery": True,
    "engineer": False,
    "motorized-engineer": True,
    "hq": False,
    "motorized-hq": True,
    "anti-tank": True,
    "anti-aircraft": True,
}


def test_unit_type_table_matches_the_book():
    from owsnb.rules.combatops.units import TYPES

    assert {k: v["mechanized"] for k, v in TYPES["types"].items()} == BOOK_UNIT_TABLE
    assert TYPES["artillery_range"] == {"L": 2, "M": 3, "H": 4} and TYPES["stacking_limit"] == 4


def test_terrain_effects_chart_as_shipped():
    from owsnb.rules.combatops.units import load_table

    tec = load_table("terrain")
    moves = {t: (r["move"]["foot"], r["move"]["mech"]) for t, r in tec["terrain"].items()}
    assert moves == {"clear": (1, 1), "woods": (2, 3), "swamp": ("all", None), "town": (2, 3)}
    assert {t: r["defense"] for t, r in tec["terrain"].items()} == {
        "clear": 0,
        "woods": 1,
        "swamp": 1,
        "town": 2,
    }
    assert (tec["bridge"]["move"], tec["road"]["max"], tec["elevation"]["uphill_move"]) == (2, 2, 1)
