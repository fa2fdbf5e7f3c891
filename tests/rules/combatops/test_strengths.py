"""Combat strengths: terrain (9.1-9.7), supply (7.2), regimental integrity (13.1), artillery (13.4),
and the column shifts (13.2, 13.3, 13.5)."""

from __future__ import annotations

from owsnb.rules.combatops.combat import attack_value, column_shifts, defense_value, support_value
from owsnb.rules.combatops.movement import movement_allowance
from owsnb.rules.combatops.terrain import parse_hex

from .conftest import edit, game


def U(uid, kind, side, hx, **data):
    d = {"id": uid, "type": kind, "side": side, "hex": hx}
    if data:
        d["data"] = data
    return d


def _vals(g, attackers, target, defenders=()):
    s = g.state
    t = parse_hex(s.map, target)
    atk = [s.units[a] for a in attackers]
    return [attack_value(s, a, t, atk).value for a in atk], [
        defense_value(s, s.units[d], [s.units[x] for x in defenders]).value for d in defenders
    ]


def test_7_2_out_of_supply_quarters_attack_halves_defense_and_movement():
    g = game(
        [
            U("R-AI", "r-ai-bn-21", "red", "E3", oos=True),
            U("R-I", "r-inf-bn-49", "red", "E4", oos=True),
            U("B-I", "b-inf-bn-36", "blue", "D3"),
        ]
    )
    s = g.state
    ai, inf, tgt = s.units["R-AI"], s.units["R-I"], parse_hex(s.map, "D3")
    # digest test 7: a 4-2-4 battalion becomes 1-1-2; a 2-3-2 battalion 1-1-1 (rounded down, minimum 1)
    assert (
        attack_value(s, ai, tgt).value,
        defense_value(s, ai).value,
        movement_allowance(s, ai),
    ) == (1, 1, 2)
    assert (
        attack_value(s, inf, tgt).value,
        defense_value(s, inf).value,
        movement_allowance(s, inf),
    ) == (1, 1, 1)


def test_13_1_regimental_integrity_matches_the_regiment_counters():
    bn = lambda i, hx: U(f"B-{i}:1I/36", "b-inf-bn-36", "blue", hx, regiment="B-1I/36")  # noqa: E731
    red = lambda i: U(f"R-{i}:1I/49", "r-inf-bn-49", "red", "E3", regiment="R-1I/49")  # noqa: E731
    g = game([bn(1, "D2"), bn(2, "D3"), bn(3, "D4"), red(1), red(2)])
    a, d = _vals(g, ["B-1:1I/36", "B-2:1I/36", "B-3:1I/36"], "E3", ["R-1:1I/49", "R-2:1I/49"])
    assert sum(a) == 12  # 3 x (3 + 1): the 12-9 regiment counter (13.1)
    assert sum(d) == 8  # 2 x (3 + 1): the 6/8 regiment counter (errata 4.1)
    a2, _ = _vals(g, ["B-1:1I/36", "B-2:1I/36"], "E3")
    assert sum(a2) == 6  # only 2 of 3 battalions: no bonus


def test_9_1_clear_terrain_bonus_for_armor_at_and_aa_in_their_own_hex():
    g = game(
        [
            U("B-A", "b-arm-bn-2", "blue", "D3"),
            U("R-AT", "r-at-21", "red", "E3"),
            U("R-I", "r-inf-bn-49", "red", "E4"),
        ],
        terrain={"E4": "woods"},
    )
    a, d = _vals(g, ["B-A"], "E3", ["R-AT"])
    assert a == [4] and d == [4]  # 3+1 and 3+1 (9.1)
    a, _ = _vals(g, ["B-A"], "E4")
    assert a == [3]  # attacking from clear into woods: +1 clear, -1 mechanized into woods (9.2)
    g2 = game(
        [U("B-A", "b-arm-bn-2", "blue", "D3"), U("R-I", "r-inf-bn-49", "red", "E4")],
        terrain={"E4": "woods"},
        options={"clear_bonus_hex": "target"},
    )
    a, _ = _vals(g2, ["B-A"], "E4")
    assert a == [2]  # the target-hex reading: no clear bonus attacking into woods


def test_9_2_to_9_5_terrain_modifiers():
    g = game(
        [
            U("B-I", "b-inf-bn-36", "blue", "D3"),
            U("B-AI", "b-ai-bn-2", "blue", "D4"),
            U("B-E", "b-eng-36", "blue", "D2"),
            U("R-W", "r-inf-bn-49", "red", "E3"),
            U("R-T", "r-inf-bn-49", "red", "E4"),
        ],
        terrain={"E3": "woods", "E4": "town"},
        elevation={"E3": 1},
    )
    s = g.state
    # woods defender +1 (9.2); town defender +2 (9.4)
    assert (
        defense_value(s, s.units["R-W"]).value == 4 and defense_value(s, s.units["R-T"]).value == 5
    )
    e3, e4 = parse_hex(s.map, "E3"), parse_hex(s.map, "E4")
    # infantry into higher woods: only -1 uphill (9.5); armored infantry is exempt from the woods -1 (9.2)
    assert attack_value(s, s.units["B-I"], e3).value == 2
    assert attack_value(s, s.units["B-AI"], e3).value == 2
    # non-infantry (an engineer) attacking into a town: -1 (9.4)
    assert attack_value(s, s.units["B-E"], e4).value == 1


def test_9_3_swamp_quarters_non_infantry_attacks_and_adds_defense():
    g = game(
        [
            U("B-A", "b-arm-bn-2", "blue", "D3"),
            U("B-I", "b-inf-bn-36", "blue", "D4"),
            U("R-S", "r-inf-bn-49", "red", "E3"),
        ],
        terrain={"E3": "swamp"},
    )
    a, d = _vals(g, ["B-A", "B-I"], "E3", ["R-S"])
    assert a == [
        1,
        3,
    ]  # armor (3+1 clear) quartered -> 1; infantry not (rule text over the TEC, digest #12)
    assert d == [4]
    g2 = game(
        [U("B-I", "b-inf-bn-36", "blue", "D4"), U("R-S", "r-inf-bn-49", "red", "E3")],
        terrain={"E3": "swamp"},
        options={"swamp_attack": "all"},
    )
    assert _vals(g2, ["B-I"], "E3")[0] == [1]


def test_9_6_attacks_across_a_river_are_halved_even_without_a_bridge():
    # digest review E1: rivers stop movement, not attacks; halved once across a bridge too
    g = game(
        [
            U("B-I", "b-inf-bn-36", "blue", "D3"),
            U("B-J", "b-inf-bn-36", "blue", "D2"),
            U("R-I", "r-inf-bn-49", "red", "E3"),
        ],
        edges=[
            {"type": "river", "hexes": ["D3", "E3"]},
            {"type": "river", "hexes": ["D2", "E3"]},
            {"type": "bridge", "hexes": ["D2", "E3"]},
        ],
    )
    a, _ = _vals(g, ["B-I", "B-J"], "E3")
    assert a == [1, 1]  # 3 // 2 each, whether or not the hexside is bridged


def test_13_4_artillery_defends_with_its_printed_one_and_supports_with_attack_strength():
    g = game(
        [
            U("R-A", "r-art-l-49", "red", "E3"),
            U("R-I", "r-inf-bn-49", "red", "E3"),
            U("R-M", "r-art-m-49", "red", "F3"),
        ],
        terrain={"E3": "town"},
    )
    s = g.state
    assert (
        defense_value(s, s.units["R-A"]).value == 1
    )  # errata 7.0/9.1: no terrain on artillery points
    assert (
        support_value(s, s.units["R-M"], "defensive support").value == 4
    )  # its attack strength (13.4)
    g2 = game(
        [U("R-A", "r-art-l-49", "red", "E3")],
        terrain={"E3": "town"},
        options={"artillery_terrain_defense": True},
    )
    assert (
        defense_value(g2.state, g2.state.units["R-A"]).value == 3
    )  # the alternative reading: 1 + 2
    g3 = edit(g, "R-M", data={"oos": True})
    assert (
        support_value(g3.state, g3.state.units["R-M"], "support").value == 1
    )  # quartered out of supply


def test_per_battalion_modifiers_on_regiment_counters():
    # digest #44: a full Blue regiment in a town gets +2 x 3 = +6 defense
    g = game([U("B-R", "b-inf-reg-36", "blue", "C3")], terrain={"C3": "town"})
    assert defense_value(g.state, g.state.units["B-R"]).value == 15
    g2 = game(
        [U("B-R", "b-inf-reg-36", "blue", "C3")],
        terrain={"C3": "town"},
        options={"regiment_modifiers": "per-counter"},
    )
    assert defense_value(g2.state, g2.state.units["B-R"]).value == 11


def _shift(g, attackers, target, defenders):
    s = g.state
    return sum(
        x
        for x, _ in column_shifts(
            s,
            [s.units[a] for a in attackers],
            [s.units[d] for d in defenders],
            parse_hex(s.map, target),
        )
    )


def test_13_2_armor_bonus_and_its_exceptions():
    g = game(
        [
            U("B-A", "b-arm-bn-2", "blue", "D3"),
            U("B-I", "b-inf-bn-36", "blue", "D4"),
            U("R-I", "r-inf-bn-49", "red", "E3"),
            U("R-E", "r-eng-49", "red", "E3"),
        ]
    )
    assert _shift(g, ["B-A", "B-I"], "E3", ["R-I"]) == 1  # 2-1 becomes 3-1
    assert (
        _shift(g, ["B-A", "B-I"], "E3", ["R-I", "R-E"]) == 0
    )  # an engineer in the stack: no bonus


def test_13_3_armor_vulnerability_replaces_the_bonus():
    g = game(
        [
            U("B-A", "b-arm-bn-2", "blue", "D3"),
            U("B-B", "b-arm-bn-2", "blue", "D4"),
            U("R-I", "r-inf-bn-49", "red", "E3"),
        ]
    )
    assert _shift(g, ["B-A", "B-B"], "E3", ["R-I"]) == -1  # 3-1 becomes 2-1 (the 13.3 example)
    g2 = game(
        [U("B-A", "b-arm-bn-2", "blue", "D3"), U("R-I", "r-inf-bn-49", "red", "E3")],
        options={"armor_shifts": "both"},
    )
    assert _shift(g2, ["B-A"], "E3", ["R-I"]) == 0


def test_13_5_engineer_attacking_a_town_with_another_unit():
    g = game(
        [
            U("B-E", "b-eng-36", "blue", "D3"),
            U("B-I", "b-inf-bn-36", "blue", "D4"),
            U("R-I", "r-inf-bn-49", "red", "E3"),
        ],
        terrain={"E3": "town"},
    )
    assert _shift(g, ["B-E", "B-I"], "E3", ["R-I"]) == 1
    assert _shift(g, ["B-E"], "E3", ["R-I"]) == 0  # needs at least one other non-artillery unit
