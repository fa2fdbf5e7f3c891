"""§6 stacking and §13 movement (allowances, roads, contours, terrain, the gap rule), §9 morale 0."""

from __future__ import annotations

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.opart import movement

from .conftest import battlefield, with_state

HQS = [
    ("S-HQ", "sov-general-average", "soviet", "1109", "sov"),
    ("G-HQ", "ger-general-average", "axis", "1101", "ger"),
]


def reach_labels(game, uid):
    s = game.state
    return {s.map.label(h): c for h, c in movement.reach(s, s.unit(uid)).cost.items()}


def refusal(game, order):
    before = (game.state_id, game.seq, game.state)
    with pytest.raises(IllegalOrderError) as exc:
        game.submit(order)
    assert (game.state_id, game.seq, game.state) == before  # refused orders change nothing
    return exc.value


@pytest.mark.parametrize(
    "typ, data, hexes",
    [
        ("sov-rifle-conscript", {}, 2),
        ("ger-panzergrenadier", {}, 4),  # infantry in vehicles
        ("ger-panzer-medium", {}, 4),  # AFV
        ("ger-sp-artillery", {}, 4),  # self-propelled artillery
        ("ger-field-artillery", {}, 2),  # non-self-propelled artillery
        ("sov-cavalry", {}, 4),  # mounted cavalry
        ("sov-cavalry", {"mode": "dismounted"}, 2),
        ("sov-transport", {}, 4),  # motorised transport
        ("sov-transport", {"mode": "horse_drawn"}, 2),
        ("ger-general-good", {}, 4),  # General in vehicles
        ("sov-general-average", {}, 2),  # General on foot
    ],
)
def test_13_movement_allowances(typ, data, hexes):
    units = [
        ("X", typ, "soviet", "0505", "x", data),
        ("G-HQ", "ger-general-average", "axis", "1101", "ger"),
    ]
    if "general" not in typ:  # the stand needs a command stand of its own formation (§7)
        units.append(("X-HQ", "sov-corps-hq", "soviet", "0109", "x"))
    g = battlefield(units)
    assert movement.allowance(g.state, g.state.unit("X")) == hexes
    assert max(reach_labels(g, "X").values()) == hexes


def test_13_road_bonus_infantry_on_foot_moves_3_along_a_road():
    g = battlefield(
        [("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS],
        roads=[["0501", "0502", "0503", "0504", "0505", "0506", "0507"]],
    )
    r = movement.reach(g.state, g.state.unit("S-1"))
    h = g.hex("0502")
    assert h in r and r.road[h] and r.cost[h] == 3
    assert g.hex("0501") not in r
    off_road_3 = [
        x
        for x in g.state.map.hexes
        if x.distance(g.hex("0505")) == 3 and g.state.map.label(x)[:2] != "05"
    ]
    assert off_road_3 and not any(x in r for x in off_road_3)  # the whole move must be on the road


def test_13_medium_afv_crossing_one_contour_moves_3():
    hills = {f"{c:02d}{r:02d}": "hill" for c in range(1, 13) for r in range(1, 5)}
    g = battlefield([("P-1", "ger-panzer-medium", "axis", "0505", "ger"), *HQS], terrain=hills)
    labels = reach_labels(g, "P-1")
    assert labels["0504"] == 2 and labels["0502"] == 4  # 3 hexes uphill: 4 - 1
    assert "0501" not in labels and labels["0509"] == 4  # 4 hexes on the flat


def test_13_troops_within_a_built_up_area_move_2_plus_road_3():
    g = battlefield(
        [("P-G", "ger-panzergrenadier", "axis", "0505", "ger"), *HQS],
        terrain={"0505": "built_up"},
        roads=[["0501", "0502", "0503", "0504", "0505", "0506"]],
    )
    assert movement.allowance(g.state, g.state.unit("P-G")) == 2
    labels = reach_labels(g, "P-G")
    assert labels["0502"] == 3 and "0501" not in labels
    assert max(c for lab, c in labels.items() if lab[:2] != "05") == 2


def test_13_afv_may_not_enter_a_wood_off_road_but_may_by_road():
    g = battlefield(
        [
            ("P-1", "ger-panzer-medium", "axis", "0505", "ger"),
            ("I-1", "ger-infantry-regular", "axis", "0506", "ger"),
            *HQS,
        ],
        terrain={"0504": "wood", "0604": "wood"},
        roads=[["0505", "0504", "0503"]],
        card="ger",
    )
    e = refusal(g, "axis: move P-1 0604")
    assert e.code == "terrain-foot-only" and e.rule == "13"
    assert "0504" in reach_labels(g, "P-1")  # along the road
    assert "0604" in reach_labels(g, "I-1")  # infantry on foot may


def test_13_afvs_enter_built_up_areas_only_by_road_infantry_may_off_road():
    g = battlefield(
        [
            ("P-1", "ger-panzer-medium", "axis", "0505", "ger"),
            ("P-G", "ger-panzergrenadier", "axis", "0506", "ger"),
            *HQS,
        ],
        terrain={"0504": "built_up"},
        card="ger",
    )
    e = refusal(g, "axis: move P-1 0504")
    assert e.code == "terrain-built-up-road" and e.rule == "13"
    assert "0504" in reach_labels(g, "P-G")  # infantry (even in vehicles) is not named by §13


def test_13_dismounted_cavalry_enters_a_village_off_road_mounted_cavalry_may_not():
    g = battlefield(
        [
            ("C-1", "sov-cavalry", "soviet", "0505", "sov", {"mode": "dismounted"}),
            ("C-2", "sov-cavalry", "soviet", "0705", "sov"),
            *HQS,
        ],
        terrain={"0504": "village", "0704": "village"},
        card="sov",
    )
    assert "0504" in reach_labels(g, "C-1")
    e = refusal(g, "soviet: move C-2 0704")
    assert e.code == "terrain-foot-only"
    g.submit("soviet: mode C-2 dismounted")  # dismounting uses the move (ruling R17)
    assert g.unit("C-2").get("mode") == "dismounted" and g.unit("C-2").has("moved")


def test_13_artillery_may_not_move_adjacent_to_an_enemy_stand():
    g = battlefield(
        [
            ("A-1", "sov-field-artillery", "soviet", "0507", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            *HQS,
        ],
        card="sov",
    )
    e = refusal(g, "soviet: move A-1 0505")
    assert e.code == "artillery-adjacent" and e.rule == "13"
    g.submit("soviet: move A-1 0506")


def test_13_through_friendly_stands_but_not_through_enemy_stands():
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
            ("F-1", "sov-rifle-conscript", "soviet", "0504", "oth"),
            ("F-HQ", "sov-general-average", "soviet", "0109", "oth"),
            *HQS,
        ],
        card="sov",
    )
    assert "0503" in reach_labels(g, "S-1")  # through the other division's hex
    e = refusal(g, "soviet: move S-1 0504")  # but may not stop there
    assert e.code == "stacking-formation" and e.rule == "6"
    g2 = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            *HQS,
        ],
        card="sov",
    )
    assert "0503" not in reach_labels(g2, "S-1")  # two hexes straight through the enemy: no
    assert refusal(g2, "soviet: move S-1 0504").code == "enemy-hex"


def test_6_a_fourth_standard_stand_does_not_fit_in_a_hex():
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-2", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-3", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-4", "sov-rifle-conscript", "soviet", "0505", "sov"),
            *HQS,
        ],
        card="sov",
    )
    e = refusal(g, "soviet: move S-4 0504")
    assert e.code == "stacking-capacity" and e.rule == "6"
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-2", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-3", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-4", "sov-rifle-conscript", "soviet", "0505", "sov"),
            *HQS,
        ],
        card="sov",
        options={"stack_capacity": 4},
    )
    g.submit("soviet: move S-4 0504")


def test_13_gap_rule_no_slipping_between_two_enemy_stands():
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-2", "sov-rifle-conscript", "soviet", "0604", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0603", "ger"),
            ("G-2", "ger-infantry-regular", "axis", "0605", "ger"),
            *HQS,
        ],
        card="sov",
    )
    assert "0604" in reach_labels(g, "S-1")  # may stop in the gap (with its own division)
    e = refusal(g, "soviet: move S-1 0705")  # through 0604, between G-1 and G-2
    assert e.code == "out-of-reach" and "R15" in str(e)
    g.submit("soviet: move S-2 0705")  # a stand that starts in the gap may leave it
    assert g.unit("S-2").hex == g.hex("0705")


def test_13_gap_rule_enemy_and_obstacle_three_apart_only_the_far_hex_is_open():
    # E (0603) - H1 (0604) - H2 (0605) - wood (0606): H1 is next to E, H2 is not (digest A3 #15)
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("S-2", "sov-rifle-conscript", "soviet", "0505", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0603", "ger"),
            *HQS,
        ],
        terrain={"0606": "wood"},
        card="sov",
    )
    assert "0604" in reach_labels(g, "S-1")  # may stop in the gap
    assert "0705" not in reach_labels(g, "S-1")  # may not go through it
    assert "0706" in reach_labels(g, "S-2")  # crossing at H2 is allowed
    g2 = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0504", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0603", "ger"),
            *HQS,
        ],
        card="sov",
    )
    assert "0705" in reach_labels(g2, "S-1")  # no wood, no second enemy: no gap


def test_13_gap_span_option_widens_the_pairs_considered():
    units = [
        ("S-1", "sov-rifle-conscript", "soviet", "0504", "sov"),
        ("G-1", "ger-infantry-regular", "axis", "0603", "ger"),
        ("G-2", "ger-infantry-regular", "axis", "0607", "ger"),
        *HQS,
    ]
    assert "0705" in reach_labels(battlefield(units), "S-1")  # 4 apart: not a pair at span 3
    assert "0705" not in reach_labels(battlefield(units, options={"gap_span": 4}), "S-1")


def test_9_division_at_morale_0_may_only_withdraw_toward_its_home_edge():
    g = battlefield([("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS], card="sov")
    g = with_state(g, morale={**g.state.public["morale"], "sov": 0})
    e = refusal(g, "soviet: move S-1 0504")  # north: away from the Soviet (south) edge
    assert e.code == "morale-zero" and e.rule == "9"
    g.submit("soviet: move S-1 0507")  # south: withdrawing
    assert g.unit("S-1").hex == g.hex("0507")


def test_13_r16_minimum_move_of_one_hex_up_a_steep_hill():
    g = battlefield(
        [("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS], terrain={"0504": "crest"}
    )
    assert reach_labels(g, "S-1")["0504"] == 3  # two contours: 1 + 2 > 2, allowed as a single hex
    g = battlefield(
        [("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS],
        terrain={"0504": "crest"},
        options={"minimum_move": False},
    )
    assert "0504" not in reach_labels(g, "S-1")


@pytest.mark.parametrize(
    "option, bridge, ford",
    [("bridges", True, False), ("fordable", True, True), ("impassable", False, False)],
)
def test_13_r18_river_crossing_option(option, bridge, ford):
    g = battlefield(
        [("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS],
        terrain={"0504": "river", "0604": "river"},
        roads=[["0505", "0504", "0503"]],
        options={"river_crossing": option},
    )
    labels = reach_labels(g, "S-1")
    assert ("0504" in labels) is bridge
    assert ("0604" in labels) is ford
    if ford:
        assert labels["0604"] == 2  # fording costs an extra hex


def test_12_r14_a_stand_moves_once_per_activation():
    g = battlefield([("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS], card="sov")
    g.submit("soviet: move S-1 0506 face=S")
    assert g.unit("S-1").get("facing") == 5
    e = refusal(g, "soviet: move S-1 0507")
    assert e.code == "moved" and e.rule == "R14"


def test_13_move_faces_the_direction_of_travel_by_default():
    g = battlefield([("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS], card="sov")
    g.submit("soviet: move S-1 0503")
    assert g.unit("S-1").get("facing") == 2  # N


def test_13_a_move_takes_an_objective_when_no_enemy_holds_it():
    g = battlefield(
        [("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), *HQS],
        card="sov",
        rules={"objectives": [{"hex": "0504", "name": "Height", "points": 2, "control": "axis"}]},
    )
    g.submit("soviet: move S-1 0504")
    assert g.state.map.info(g.hex("0504")).facts["control"] == "soviet"
