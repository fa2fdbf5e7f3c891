"""The Operational Engagement Sequence (OES) and Armor Piercing (AP) as pure functions: the
digest's worked test cases 4-11 and the rulings on the gaps (R6-R15, B2.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from owsnb.rules.opscale.combat import (
    CombatRules,
    EngagementSpec,
    Fire,
    ap_mode,
    apply_hit,
    choose_target,
    hit_kind,
    initiative_bonus,
    is_pierced,
    net_damage,
    pierce_weight,
    raw_damage,
    resolve_round,
    resolve_shot,
    roll_initiative,
    scripted,
    weapons_fired,
)
from owsnb.rules.opscale.units import DESTROYED, Card, Weapon

GUN = Weapon("primary", "gun", attack_rating=12, di=4)
SHOOTER = Card("A", "blue", "vehicle", endurance=10, half=5, weapons=(GUN,))
TARGET = Card("T", "red", "vehicle", endurance=14, half=7, defense=3)


# -- OES.3 initiative (digest test 4)
# ---------------------------------------------------------------
def test_oes_3_attacker_plus_2_tie_is_rerolled():
    # attacker 5 + 2 = 7 vs defender 7: tie, re-roll; then 6 + 2 = 8 beats 3
    winner, pairs = roll_initiative("blue", "red", 2, 0, scripted([5, 7, 6, 3]))
    assert pairs == [(5, 7), (6, 3)] and winner == "blue"


def test_cn_2_attacker_beyond_network_loses_bonus_and_a_5_loses_to_a_7():
    winner, pairs = roll_initiative("blue", "red", 0, 0, scripted([5, 7]))
    assert winner == "red" and pairs == [(5, 7)]


def test_cn_1_defender_beyond_network_7_scores_6():
    # defender 7 - 1 = 6 ties the attacker's 4 + 2 = 6: re-roll; 1 + 2 = 3 loses to 9 - 1 = 8
    winner, pairs = roll_initiative("blue", "red", 2, -1, scripted([4, 7, 1, 9]))
    assert pairs == [(4, 7), (1, 9)] and winner == "red"


def test_r5_experience_initiative_bonus_scopes():
    a = Card("a", "b", "infantry", experience=("stealthy", "stealthy"))
    b = Card("b", "b", "infantry", experience=("combat-veteran", "vigilant"))
    assert initiative_bonus([a, b], "attack") == 2
    assert initiative_bonus([a, b], "attack", "sum") == 3
    assert initiative_bonus([b, a], "attack", "lead") == 1
    assert initiative_bonus([a, b], "defense") == 2


# -- OES.5 hits and natural results (digest tests 5, 6, 8, 9) ------------------------------------
def test_oes_5_natural_20_destroys_whatever_the_defense_and_rolls_no_intensity():
    fortress = Card("F", "red", "bunker", endurance=99, half=50, defense=15)
    shot = resolve_shot(SHOOTER, GUN, fortress, (99, 0), scripted([20]))
    assert shot.kind == "critical" and shot.after == DESTROYED and shot.intensity is None


def test_oes_5_natural_1_is_a_malfunction_and_a_miss():
    shot = resolve_shot(SHOOTER, GUN, TARGET, (14, 0), scripted([1]))
    assert shot.kind == "malfunction" and shot.after == (14, 0)


def test_oes_5_miss_below_attack_rating():
    shot = resolve_shot(SHOOTER, GUN, TARGET, (14, 0), scripted([11]))
    assert shot.kind == "miss" and shot.after == (14, 0) and shot.intensity is None


def test_oes_5_19_doubles_intensity_before_di_against_rating_15():
    w = Weapon("primary", attack_rating=15, di=4)
    shot = resolve_shot(SHOOTER, w, TARGET, (14, 0), scripted([19, 4]))
    assert shot.kind == "double" and shot.raw == 4 * 2 + 4 and shot.net == 12 - 3


def test_r7_natural_19_hits_even_attack_rating_20_unless_option_if_hit():
    assert hit_kind(19, 0, 20) == "double"
    assert hit_kind(19, 0, 20, CombatRules(natural_19="if-hit")) == "miss"
    assert hit_kind(19, 1, 20, CombatRules(natural_19="if-hit")) == "double"
    assert raw_damage(4, 4, double=True, rules=CombatRules(double_intensity="total")) == 16


def test_r13_marksman_adds_to_the_d20_but_naturals_use_the_bare_die():
    sharp = replace(SHOOTER, experience=("marksman-primary",))
    assert resolve_shot(sharp, GUN, TARGET, (14, 0), scripted([11, 5])).kind == "hit"
    assert resolve_shot(sharp, GUN, TARGET, (14, 0), scripted([1])).kind == "malfunction"
    secondary = Weapon("secondary", attack_rating=12, di=1)
    assert resolve_shot(sharp, secondary, TARGET, (14, 0), scripted([11])).kind == "miss"


# -- OES.6-OES.9 damage (digest test 7)
# ---------------------------------------------------------------
def test_oes_9_hit_to_half_endurance_flips_the_card_then_second_hit_destroys():
    first = resolve_shot(SHOOTER, GUN, TARGET, (14, 0), scripted([13, 6]))
    assert (first.net, first.after, first.damaged) == (7, (7, 0), True)
    # the damaged side applies at once (B2.4): with damaged-side Defense 3 the next 6 + 4 - 3 = 7
    second = resolve_shot(SHOOTER, GUN, TARGET, first.after, scripted([13, 6]))
    assert second.after == DESTROYED and second.destroyed


def test_b2_4_damaged_side_defense_applies_immediately():
    soft_when_hurt = replace(TARGET, damaged_defense=0)
    shot = resolve_shot(SHOOTER, GUN, soft_when_hurt, (7, 0), scripted([13, 2]))
    assert shot.net == 2 + 4 - 0


def test_oes_6_exploit_weakness_adds_one_intensity():
    keen = replace(SHOOTER, experience=("exploit-weakness",))
    assert resolve_shot(keen, GUN, TARGET, (14, 0), scripted([13, 6])).net == 8


def test_r9_negative_net_damage_is_zero():
    assert net_damage(3, 8, False) == 0
    armour = replace(TARGET, defense=12)
    assert resolve_shot(SHOOTER, GUN, armour, (14, 0), scripted([13, 2])).after == (14, 0)


# -- AP (digest tests 10, 11) -------------------------------------------------------------------
def test_ap_2_ap_exceeds_defense_weapon_check_only():
    ap6 = Weapon("primary", attack_rating=12, di=4, ap=6)
    crewed = replace(TARGET, defense=4, crew=10)
    shot = resolve_shot(SHOOTER, ap6, crewed, (14, 10), scripted([13, 5, 6]))
    assert (
        shot.pierced
        and shot.armor_check is None
        and shot.net == 5 + 4
        and shot.after == (14 - 9, 10 - 9)
    )
    shot = resolve_shot(SHOOTER, ap6, crewed, (14, 10), scripted([13, 5, 7]))
    assert not shot.pierced and shot.net == 5 + 4 - 4 and shot.after == (9, 10)


def test_ap_3_ap_not_above_defense_needs_both_checks():
    assert ap_mode(3, 5) == "both"
    assert is_pierced(3, 5, 2, 8) is True  # weapon check passes, armor check fails
    assert is_pierced(3, 5, 2, 5) is False  # armor check passes
    assert is_pierced(3, 5, 4, None) is False  # weapon check fails; no armor check
    ap3 = Weapon("primary", attack_rating=12, di=4, ap=3)
    armoured = replace(TARGET, defense=5, crew=6)
    shot = resolve_shot(SHOOTER, ap3, armoured, (14, 6), scripted([13, 6, 4]))
    assert shot.weapon_check == 4 and shot.armor_check is None and not shot.pierced
    shot = resolve_shot(SHOOTER, ap3, armoured, (14, 6), scripted([13, 6, 2, 8]))
    assert shot.pierced and shot.after == DESTROYED and shot.crew_lost  # crew 6 - 10 <= 0 (R15)


def test_r14_no_ap_rating_no_test_and_pierce_weights():
    assert ap_mode(0, 0) == "none" and pierce_weight(0, 3) == 0
    assert pierce_weight(6, 4) == 60 and pierce_weight(3, 5) == 15 and pierce_weight(10, 10) == 0


def test_r15_crew_damage_option_off():
    crewed = replace(TARGET, crew=2)
    assert apply_hit(crewed, (14, 2), 5, True) == DESTROYED
    assert apply_hit(crewed, (14, 2), 5, True, CombatRules(crew_damage="off")) == (9, 2)


# -- rounds (OES.4, OES.9, OES.10, R6, R11, R12)
# -------------------------------------------------------
def _duel(**rules):
    a = Card(
        "A",
        "blue",
        "vehicle",
        endurance=10,
        half=5,
        defense=0,
        weapons=(Weapon("primary", "gun", 12, 4), Weapon("secondary", "mg", 12, 1)),
    )
    b = Card(
        "B",
        "red",
        "vehicle",
        endurance=10,
        half=5,
        defense=0,
        weapons=(Weapon("primary", "gun", 12, 4),),
    )
    c = Card(
        "C",
        "red",
        "infantry",
        endurance=6,
        half=3,
        defense=0,
        weapons=(Weapon("primary", "rifles", 12, 2),),
    )
    return EngagementSpec(
        "blue",
        "red",
        {"A": a, "B": b, "C": c},
        attacks=(Fire("A", "B"),),
        retaliations=(Fire("B", "A"), Fire("C", "A")),
        attacking=("A",),
        defending=("B", "C"),
        distance={(x, y): 1 for x in "ABC" for y in "ABC"},
        rules=CombatRules(**rules),
    )


def test_oes_9_destroyed_unit_fires_no_more_that_round():
    spec = _duel()
    st = {"A": (10, 0), "B": (10, 0), "C": (6, 0)}
    # blue first: A's gun 20 (critical on B), A's mg at C (retarget): 13 + intensity 9 -> 10 net on
    # C: destroyed
    res = resolve_round(spec, st, (), "blue", scripted([20, 13, 9]))
    assert (
        res.winner == "blue" and res.statuses["B"] == DESTROYED and res.statuses["C"] == DESTROYED
    )
    assert [s.shooter for s in res.shots] == ["A", "A"]


def test_oes_5_malfunction_disables_that_weapon_next_round_but_not_the_secondary():
    spec = _duel()
    st = {"A": (10, 0), "B": (10, 0), "C": (6, 0)}
    r1 = resolve_round(
        spec, st, (), "blue", scripted([1, 2, 2, 2])
    )  # A gun malfunctions, mg misses, B and C miss
    assert r1.disabled_next == frozenset({"A/primary0"})
    r2 = resolve_round(spec, r1.statuses, r1.disabled_next, "blue", scripted([2, 2, 2]))
    assert [s.weapon for s in r2.shots] == ["mg", "gun", "rifles"]  # the gun sat out round 2
    r3 = resolve_round(spec, r2.statuses, r2.disabled_next, "blue", scripted([2, 2, 2, 2]))
    assert [s.weapon for s in r3.shots] == ["gun", "mg", "gun", "rifles"]


def test_r6_single_volley_rounds_alternate():
    spec = _duel(combat_round="single-volley")
    st = {"A": (10, 0), "B": (10, 0), "C": (6, 0)}
    assert [
        s.shooter for s in resolve_round(spec, st, (), "red", scripted([2, 2]), round_no=1).shots
    ] == ["B", "C"]
    assert [
        s.shooter for s in resolve_round(spec, st, (), "red", scripted([2, 2]), round_no=2).shots
    ] == ["A", "A"]


def test_r11_retargeting_can_be_switched_off():
    spec = _duel(retarget=False)
    alive = {"A": True, "B": False, "C": True}.get
    assert choose_target(spec, spec.attacks[0], spec.cards["A"].weapons[0], alive) is None
    assert choose_target(_duel(), spec.attacks[0], spec.cards["A"].weapons[0], alive) == "C"


def test_r12_one_primary_and_one_secondary_unless_option():
    card = Card(
        "X",
        "blue",
        "vehicle",
        weapons=(Weapon("primary", "p"), Weapon("secondary", "s1"), Weapon("secondary", "s2")),
    )
    assert [w.name for _, w in weapons_fired(card, Fire("X", "Y"), False)] == ["p", "s1"]
    assert [
        w.name
        for _, w in weapons_fired(
            card, Fire("X", "Y"), False, CombatRules(multiple_secondaries=True)
        )
    ] == ["p", "s1", "s2"]
    assert [w.name for _, w in weapons_fired(card, Fire("X", "Y", ("secondary",)), False)] == ["s1"]


def test_ts_4_packed_artillery_and_grounded_aircraft_do_not_fire():
    arty = Card(
        "G",
        "blue",
        "artillery",
        weapons=(Weapon("primary", range=3),),
        setup_required=True,
        set_up=False,
    )
    plane = Card("P", "blue", "aircraft", domain="air", weapons=(Weapon("primary"),))
    assert (
        weapons_fired(arty, Fire("G", "Y"), False) == []
        and weapons_fired(plane, Fire("P", "Y"), False) == []
    )
    assert weapons_fired(replace(arty, set_up=True), Fire("G", "Y"), False)


@pytest.mark.parametrize(
    "nat, expected",
    [
        (1, "malfunction"),
        (2, "miss"),
        (11, "miss"),
        (12, "hit"),
        (18, "hit"),
        (19, "double"),
        (20, "critical"),
    ],
)
def test_oes_5_every_d20_result(nat, expected):
    assert hit_kind(nat, 0, 12) == expected
