"""§14 combat: who may fight, combat power, result bands, withdrawal; exact previews."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.opart import combat
from owsnb.rules.opart.combat import band
from owsnb.testing import fixed_dice

from .conftest import adjudicate, battlefield, facing

SOV_HQ_FAR = ("S-HQ", "sov-general-average", "soviet", "1109", "sov")
GER_HQ_FAR = ("G-HQ", "ger-general-average", "axis", "1101", "ger")


# -- result bands ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a, d, expected",
    [
        (9, 10, "no effect"),
        (10, 10, "roll-off"),
        (13, 7, "defender -1"),  # 6.5 < 7 < 13
        (14, 7, "defender -1"),  # exactly half: the milder band (ruling R1)
        (14, 6, "defender -2"),  # just below half
        (14, 4, "defender -2"),  # 3.5 < 4 < 7
        (16, 4, "defender -2"),  # exactly a quarter: -2 without withdrawal (R1)
        (14, 3, "defender -2, withdraws"),  # 3 < 3.5
        (17, 4, "defender -2, withdraws"),
        (1, 0, "defender -2, withdraws"),
    ],
)
def test_14_result_bands_and_their_boundaries(a, d, expected):
    assert band(a, d) == expected


@pytest.mark.parametrize(
    "a, d, expected",
    [
        (14, 7, "defender -2"),  # exactly half now falls in the harsher band
        (16, 4, "defender -2, withdraws"),  # exactly a quarter too
        (14, 8, "defender -1"),
    ],
)
def test_14_r1_attacker_boundaries_option(a, d, expected):
    assert band(a, d, boundaries="attacker") == expected


def test_14_fn_ix_rounding_changes_nothing_with_defender_boundaries():
    for a in range(1, 40):
        for d in range(0, a):
            assert band(a, d) == band(a, d, rounded=True)
    assert band(13, 7, boundaries="attacker") == "defender -1"
    assert band(13, 7, boundaries="attacker", rounded=True) == "defender -2"  # ceil(6.5) = 7


# -- worked examples (digest tests 10-13) --------------------------------------------------------------
def test_14_worked_example_minus_1_band_with_command_bonus():
    # Russian regular infantry (3) + its Average General adjacent (2) + D10 8 = 13;
    # German infantry (3) + D12 4 = 7; 6.5 < 7 < 13: the defender stays and loses 1, and 1 morale
    g = battlefield(
        [
            ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
            ("S-HQ", "sov-general-average", "soviet", "0506", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            GER_HQ_FAR,
        ],
        card="sov",
    )
    m0 = g.state.public["morale"]["ger"]
    dice = fixed_dice([8, 4])
    s, res = adjudicate(g, "soviet: attack S-1 G-1", dice)
    assert [t.value for t in res.attack_terms] == [3, 2] and res.attack == 13 and res.defence == 7
    assert res.band == "defender -1" and res.effect == "defender -1"
    assert s.unit("G-1").steps == 2 and s.unit("G-1").hex == g.hex("0504")
    assert s.public["morale"]["ger"] == m0 - 1
    assert dice.remaining == []  # exactly one D10 and one D12 were thrown


def test_14_worked_example_cover_and_flank():
    # German medium AFV (4) + D12 9 + flank 3 - wood 2 = 14 against a Russian stand in a wood
    units = [
        ("P-1", "ger-panzer-medium", "axis", "0605", "ger"),
        GER_HQ_FAR,
        ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
    ]
    g = facing(battlefield(units, terrain={"0505": "wood"}, card="ger"), **{"S-1": "N"})
    s, res = adjudicate(g, "axis: attack P-1 S-1", fixed_dice([9, 2]))  # D = 2 + 2 = 4
    assert sorted(t.value for t in res.attack_terms) == [-2, 3, 4]
    assert (res.attack, res.defence, res.band) == (14, 4, "defender -2")  # 3.5 < 4 < 7
    assert res.effect == "defender destroyed"  # a CV 2 stand losing 2 is gone (ruling R5)
    assert s.unit("S-1").box == "destroyed"
    units[2] = ("S-1", "sov-rifle-regular", "soviet", "0505", "sov")
    g = facing(battlefield(units, terrain={"0505": "wood"}, card="ger"), **{"S-1": "N"})
    s, res = adjudicate(g, "axis: attack P-1 S-1", fixed_dice([9, 1]))  # D = 3 + 1 = 4
    assert (res.attack, res.defence, res.effect) == (14, 4, "defender -2")
    assert s.unit("S-1").steps == 1 and s.unit("S-1").hex == g.hex("0505")  # -2 band: stays (R3)
    assert band(14, 3) == "defender -2, withdraws"  # with D = 3 instead: 3 < 3.5


def test_14_worked_example_ineffective_attack():
    units = [
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
        ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
    ]
    g = battlefield(units, card="ger")
    s, res = adjudicate(g, "axis: attack G-1 S-1", fixed_dice([6, 7]))  # 9 v 10
    assert (res.attack, res.defence, res.effect) == (9, 10, "no effect")
    assert s.unit("S-1").steps == 3 and s.unit("G-1").steps == 3 and s.unit("G-1").has("fired")


def test_14_worked_example_tie_roll_off_hurts_the_attacker():
    units = [
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
        ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
    ]
    g = battlefield(units, card="ger")
    m0 = g.state.public["morale"]["ger"]
    s, res = adjudicate(
        g, "axis: attack G-1 S-1", fixed_dice([7, 7, 3, 7])
    )  # 10 v 10; roll-off D12 3 v D10 7
    assert (res.attack, res.defence, res.band, res.rolloff) == (10, 10, "roll-off", [(3, 7)])
    assert res.effect == "attacker -1"
    assert s.unit("G-1").steps == 2 and s.unit("S-1").steps == 3
    assert s.public["morale"]["ger"] == m0 - 1


def test_14_r2_roll_off_ties_are_thrown_again():
    units = [
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
        ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
    ]
    g = battlefield(units, card="ger")
    s, res = adjudicate(g, "axis: attack G-1 S-1", fixed_dice([7, 7, 5, 5, 9, 2]))
    assert res.rolloff == [(5, 5), (9, 2)] and res.effect == "defender -1"
    g = battlefield(units, card="ger", options={"rolloff_ties": "stand"})
    s, res = adjudicate(g, "axis: attack G-1 S-1", fixed_dice([7, 7, 5, 5]))
    assert res.rolloff == [(5, 5)] and res.effect == "no effect"


def test_14_worked_example_artillery_firing_at_an_adjacent_stand_gets_plus_1():
    units = [
        ("A-1", "sov-field-artillery", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
    ]
    g = battlefield(units, card="sov")
    s, res = adjudicate(g, "soviet: attack A-1 G-1", fixed_dice([5, 2]))
    assert [t.value for t in res.attack_terms] == [3, 1] and res.attack == 9
    assert res.defence == 5 and res.effect == "defender -1"  # 4.5 < 5 < 9


def test_14_command_bonus_uses_current_cv_both_sides_and_not_from_the_same_hex():
    units = [
        ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
        ("S-HQ", "sov-general-good", "soviet", "0505", "sov"),
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        ("G-HQ", "ger-general-average", "axis", "0503", "ger"),
    ]
    g = battlefield(units, card="sov")
    s, u, t = g.state, g.state.unit("S-1"), g.state.unit("G-1")
    assert [x.value for x in combat.attack_terms(s, u, t)] == [3]  # same hex: no bonus (R6)
    assert [x.value for x in combat.defence_terms(s, u, t)] == [3, 2]  # defender's General adjacent
    g2 = battlefield(units, card="sov", options={"command_bonus_same_hex": True})
    assert [x.value for x in combat.attack_terms(g2.state, u, t)] == [3, 3]


# -- who may fight ---------------------------------------------------------------------------------------
def test_14_fn_xi_only_one_stand_in_a_hex_may_engage_an_enemy_stand():
    from owsnb.kernel import Game
    from owsnb.rules.opart import RULESET

    units = [
        ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
        ("S-2", "sov-rifle-conscript", "soviet", "0505", "sov"),
        ("S-3", "sov-rifle-conscript", "soviet", "0405", "sov"),
        SOV_HQ_FAR,
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
    ]
    s, res = adjudicate(
        battlefield(units, card="sov"), "soviet: attack S-1 G-1", fixed_dice([1, 12])
    )
    assert res.effect == "no effect"
    g = Game(RULESET, s)
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("soviet: attack S-2 G-1")  # the other regiment "can only give support"
    assert exc.value.code == "hex-engaged" and exc.value.rule == "14 fn xi" and g.seq == 0
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("soviet: attack S-1 G-1")  # initiates once a turn
    assert exc.value.code == "initiated" and exc.value.rule == "14"
    g.submit("soviet: attack S-3 G-1")  # from another hex: the German defends as often as attacked
    assert g.unit("S-3").has("fired")


@pytest.mark.parametrize(
    "limit, second_allowed", [("target_hex", False), ("target_stand", True), ("one_per_hex", False)]
)
def test_14_r24_engagement_limit_readings(limit, second_allowed):
    units = [
        ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
        ("S-2", "sov-rifle-conscript", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        ("G-2", "ger-infantry-regular", "axis", "0504", "ger"),
        ("G-3", "ger-infantry-regular", "axis", "0604", "ger"),
        GER_HQ_FAR,
    ]
    g = battlefield(units, card="sov", options={"engagement_limit": limit})
    s, _ = adjudicate(g, "soviet: attack S-1 G-1", fixed_dice([1, 12]))  # no effect
    why = combat.attack_refusal(s, s.unit("S-2"), s.unit("G-2"))
    assert (why is None) is second_allowed
    other_hex = combat.attack_refusal(s, s.unit("S-2"), s.unit("G-3"))
    assert (other_hex is None) is (limit != "one_per_hex")


def test_14_ranges_and_sight():
    units = [
        ("S-1", "sov-rifle-conscript", "soviet", "0507", "sov"),
        ("A-1", "sov-field-artillery", "soviet", "0509", "sov"),
        SOV_HQ_FAR,
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
    ]
    g = battlefield(units, terrain={"0505": "wood"}, card="sov")
    s = g.state
    why = combat.attack_refusal(s, s.unit("S-1"), s.unit("G-1"))
    assert why.code == "out-of-range" and why.rule == "14"  # infantry at 3 hexes
    assert s.unit("A-1").hex.distance(s.unit("G-1").hex) == 5
    assert (
        combat.attack_refusal(s, s.unit("A-1"), s.unit("G-1")) is None
    )  # artillery: no sight needed
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0506", "sov"),
            SOV_HQ_FAR,
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            GER_HQ_FAR,
        ],
        terrain={"0505": "wood"},
        card="sov",
    )
    why = combat.attack_refusal(g.state, g.state.unit("S-1"), g.state.unit("G-1"))
    assert why.code == "no-sight" and why.rule == "14"  # the wood between hides it
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0506", "sov"),
            SOV_HQ_FAR,
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            GER_HQ_FAR,
        ],
        terrain={"0505": "wood", "0506": "crest"},
        card="sov",
    )
    assert (
        combat.attack_refusal(g.state, g.state.unit("S-1"), g.state.unit("G-1")) is None
    )  # seen from the crest


def test_14_field_artillery_reaches_6_hexes_without_sight():
    g = battlefield(
        [
            ("A-1", "sov-field-artillery", "soviet", "0509", "sov"),
            SOV_HQ_FAR,
            ("G-1", "ger-infantry-regular", "axis", "0503", "ger"),
            ("G-2", "ger-infantry-regular", "axis", "0502", "ger"),
            GER_HQ_FAR,
        ],
        terrain={"0505": "wood", "0506": "crest"},
        card="sov",
    )
    s = g.state
    assert combat.attack_refusal(s, s.unit("A-1"), s.unit("G-1")) is None  # 6 hexes
    assert combat.attack_refusal(s, s.unit("A-1"), s.unit("G-2")).code == "out-of-range"  # 7


def test_14_r11_transport_and_command_stands_do_not_initiate_combat():
    g = battlefield(
        [
            ("T-1", "sov-transport", "soviet", "0505", "sov"),
            ("S-HQ", "sov-general-average", "soviet", "0506", "sov"),
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            GER_HQ_FAR,
        ],
        card="sov",
    )
    s = g.state
    assert combat.attack_refusal(s, s.unit("T-1"), s.unit("G-1")).code == "cannot-initiate"
    assert combat.attack_refusal(s, s.unit("S-HQ"), s.unit("G-1")).code == "cannot-initiate"


def test_14_fn_xii_flank_and_rear_arcs_placeholder():
    from owsnb.rules.opart.terrain import arc

    g = battlefield(
        [("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"), SOV_HQ_FAR, GER_HQ_FAR]
    )
    s, h = g.state, g.hex("0505")
    north = 2
    assert arc(s, h, north, g.hex("0504")) == "front"
    assert arc(s, h, north, g.hex("0604")) == "front"  # NE, beside the front hexside
    assert arc(s, h, north, g.hex("0605")) == "flank"  # SE
    assert arc(s, h, north, g.hex("0506")) == "rear"  # S
    assert arc(s, h, north, g.hex("0503")) == "front"
    # on a spine between NE (front) and SE (flank): counts as front (ruling R7a)
    spine = h + (h.neighbour(0) - h) + (h.neighbour(1) - h)
    assert arc(s, h, north, spine) == "front"
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
            SOV_HQ_FAR,
            ("G-1", "ger-infantry-regular", "axis", "0506", "ger"),
            GER_HQ_FAR,
        ],
        options={"flank_attacks": False},
    )
    assert [
        t.value for t in combat.attack_terms(g.state, g.state.unit("G-1"), g.state.unit("S-1"))
    ] == [3]


# -- withdrawal (§13, §14) ------------------------------------------------------------------------------
def _withdraw_case(wall: list[str], extra: dict | None = None, terrain: dict | None = None):
    units = [
        ("S-1", "sov-rifle-regular", "soviet", "0101", "sov"),
        SOV_HQ_FAR,
        GER_HQ_FAR,
        ("G-X", "ger-panzer-very-heavy", "axis", wall[0], "ger"),
    ]
    units += [
        (f"G-{i}", "ger-infantry-regular", "axis", lab, "ger") for i, lab in enumerate(wall[1:])
    ]
    g = battlefield(units, terrain=terrain, card="ger", options=extra or {})
    return adjudicate(g, "axis: attack G-X S-1", fixed_dice([12, 1]))  # 6 + 12 + flank 3 = 21 v 4


def test_14_withdrawal_of_2_hexes_survives():
    s, res = _withdraw_case(["0201"])
    assert res.effect == "defender -2, withdraws"
    assert [s.map.label(h) for h in res.withdrawal] == ["0101", "0102", "0103"]
    u = s.unit("S-1")
    assert u.steps == 1 and s.map.label(u.hex) == "0103"
    assert min(u.hex.distance(e.hex) for e in s.units.values() if e.side == "axis" and e.hex) >= 2


def test_14_withdrawal_of_4_hexes_survives_but_5_is_destroyed():
    s, res = _withdraw_case(["0201", "0202", "0203"])
    assert res.effect == "defender -2, withdraws" and len(res.withdrawal) - 1 == 4
    s, res = _withdraw_case(["0201", "0202", "0203", "0204"])
    assert res.effect == "defender -2, destroyed (no way to withdraw)"
    assert s.unit("S-1").box == "destroyed" and s.unit("S-1").hex is None


def test_14_withdrawal_blocked_by_a_river_is_destroyed():
    s, res = _withdraw_case(["0201"], terrain={"0102": "river"})
    assert res.effect == "defender -2, destroyed (no way to withdraw)"
    # regular rifle 3 + average General 2 = 5 -> morale 3; -2 in combat, then its last 1 CV (R5)
    assert s.public["morale"]["sov"] == 0


def test_14_r4_withdraw_distance_1_still_moves_one_hex():
    s, res = _withdraw_case(["0201"], extra={"withdraw_distance": 1})
    assert (
        res.effect == "defender -2, withdraws" and len(res.withdrawal) == 2
    )  # still moves one hex (R4)


# -- morale erosion (§9) ----------------------------------------------------------------------------------
def test_9_morale_erosion_one_stand_minus_2_another_minus_1_gives_6_to_3():
    from owsnb.kernel import Game
    from owsnb.rules.opart import RULESET

    units = [
        ("S-1", "sov-rifle-conscript", "soviet", "0705", "sov"),
        ("S-2", "sov-rifle-conscript", "soviet", "0909", "sov"),
        ("S-3", "sov-rifle-conscript", "soviet", "1009", "sov"),
        ("S-AR", "sov-field-artillery", "soviet", "0505", "sov"),
        ("S-HQ", "sov-general-average", "soviet", "1109", "sov"),
        ("G-1", "ger-panzer-medium", "axis", "0504", "ger"),
        ("G-2", "ger-infantry-regular", "axis", "0704", "ger"),
        GER_HQ_FAR,
    ]
    g = battlefield(units, card="ger")
    assert g.state.public["morale"]["sov"] == 6  # footnote x's rifle division
    s, r1 = adjudicate(
        g, "axis: attack G-1 S-AR", fixed_dice([8, 1])
    )  # 12 v 4: exactly a quarter: -2, stays
    assert r1.effect == "defender -2" and s.unit("S-AR").steps == 1
    s, r2 = adjudicate(Game(RULESET, s), "axis: attack G-2 S-1", fixed_dice([4, 2]))  # 7 v 4: -1
    assert r2.effect == "defender -1" and s.unit("S-1").steps == 1
    assert s.public["morale"]["sov"] == 3  # 6 - 2 - 1
    from owsnb.kernel.reduce import apply_all
    from owsnb.rules.opart.combat import loss_events

    ev, lost, dead = loss_events(s, s.unit("S-2"), 2)
    s = apply_all(s, ev)
    ev, lost, dead = loss_events(s, s.unit("S-3"), 2)
    s = apply_all(s, ev)
    assert s.public["morale"]["sov"] == 0  # never below 0 (R5)
    from owsnb.rules.opart import movement

    assert movement.morale_zero(s, s.unit("S-1"))


# -- exact previews ---------------------------------------------------------------------------------------
def test_14_preview_is_exact_and_sums_to_one():
    units = [
        ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
        GER_HQ_FAR,
        ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
    ]
    g = battlefield(units, card="ger")
    p = g.preview("axis: attack G-1 S-1")
    assert sum(p.values()) == 1 and all(isinstance(v, Fraction) for v in p.values())
    # cross-check "no effect" by counting: A = 3 + d12 < D = 3 + d10
    lower = sum(1 for a in range(1, 13) for d in range(1, 11) if a < d)
    assert p["no effect"] == Fraction(lower, 120)
    # roll-off: ties (10 of 120) split by who throws lower, ties re-thrown
    a_low = sum(1 for a in range(1, 13) for d in range(1, 11) if a < d)
    d_low = sum(1 for a in range(1, 13) for d in range(1, 11) if d < a)
    assert p["attacker -1"] == Fraction(10, 120) * Fraction(a_low, a_low + d_low)


def test_14_preview_matches_100k_seeded_rolls_within_3_sigma():
    units = [
        ("G-1", "ger-infantry-regular", "axis", "0604", "ger"),
        GER_HQ_FAR,
        ("S-1", "sov-rifle-regular", "soviet", "0505", "sov"),
        SOV_HQ_FAR,
    ]
    g = facing(battlefield(units, card="ger"), **{"S-1": "S"})  # attacked from the NE: flank, +3
    s = g.state
    a, t = s.unit("G-1"), s.unit("S-1")
    p = combat.preview(s, a, t)
    assert set(p) == {
        "no effect",
        "attacker -1",
        "defender -1",
        "defender -2",
        "defender -2, withdraws",
    }
    a0 = sum(x.value for x in combat.attack_terms(s, a, t))
    d0 = sum(x.value for x in combat.defence_terms(s, a, t))
    rng = np.random.default_rng(20240611)
    n = 100_000
    counts: dict[str, int] = {}
    roll = lambda sides, who, purpose: int(rng.integers(1, sides + 1))  # noqa: E731
    for _ in range(n):
        r = combat.fight(a0, d0, 12, 10, roll)["result"]
        e = combat.effect_of(r, a.steps, t.steps, True)
        counts[e] = counts.get(e, 0) + 1
    assert set(counts) <= set(p)
    for outcome, prob in p.items():
        sigma = (float(prob) * (1 - float(prob)) / n) ** 0.5
        assert abs(counts.get(outcome, 0) / n - float(prob)) <= 3 * sigma + 1e-12, (
            outcome,
            counts,
            prob,
        )


def test_14_preview_knows_when_a_withdrawal_is_impossible():
    units = [
        ("S-1", "sov-rifle-regular", "soviet", "0101", "sov"),
        SOV_HQ_FAR,
        GER_HQ_FAR,
        ("G-X", "ger-panzer-very-heavy", "axis", "0201", "ger"),
    ]
    g = battlefield(units, terrain={"0102": "river"}, card="ger")
    p = g.preview("axis: attack G-X S-1")
    assert "defender -2, destroyed (no way to withdraw)" in p and "defender -2, withdraws" not in p


def test_14_refused_attack_changes_nothing():
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0508", "sov"),
            SOV_HQ_FAR,
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            GER_HQ_FAR,
        ],
        card="sov",
    )
    before = (g.state_id, g.seq, g.state)
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("soviet: attack S-1 G-1")
    assert exc.value.code == "out-of-range"
    assert (g.state_id, g.seq, g.state) == before


def test_14_combat_through_the_game_records_public_dice_with_rules():
    g = battlefield(
        [
            ("S-1", "sov-rifle-conscript", "soviet", "0505", "sov"),
            SOV_HQ_FAR,
            ("G-1", "ger-infantry-regular", "axis", "0504", "ger"),
            GER_HQ_FAR,
        ],
        card="sov",
    )
    sub = g.submit("soviet: attack S-1 G-1")
    dice = sub.dice
    assert [e.data["die"] for e in dice[:2]] == ["d10", "d12"]
    assert all(e.rule == "14" and e.visible_to is None for e in dice)
    assert isinstance(sub.result, combat.CombatResult) and "<table" in sub.result._repr_html_()
    assert any(e.kind == "die" for e in g.view("axis").events)  # the enemy sees the dice too
