"""OP earning and spending (B3.3-3.5, L24, L61-L65) and the turn-end roll (B3.11, L81-L83)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs import economy

from .conftest import begin, board, set_private, set_public, submit


def test_b3_3_l62_op_earned_minimum_10_plus_d10_5_plus_2_deficit_is_17():
    g = board()
    set_public(g, deficit_credit={"allied": 2})
    begin(g, "allied", op_roll=5)
    priv = g.state.sides["allied"].private
    assert priv["op_pool"] == 17 and priv["earned_left"] == 17
    assert g.state.public["deficit_credit"]["allied"] == 0  # consumed
    assert g.clock.step == "3.5"


def test_l64_deficit_op_are_extra_opponent_credited_bank_untouched():
    # earnings 12, spend 15: 12 earned + 3 deficit; the bank is untouched; the opponent gets 3
    plan = economy.spend_plan(cost=15, pool=12 + 7, earned_left=12, deficit_used=0)
    assert plan == {"from_earned": 12, "deficit": 3, "from_bank": 0, "pool_after": 7}
    # bank 5, spend 18: the last 3 come from the bank only after the 3 deficit OP
    plan = economy.spend_plan(cost=18, pool=12 + 5, earned_left=12, deficit_used=0)
    assert plan == {"from_earned": 12, "deficit": 3, "from_bank": 3, "pool_after": 2}
    with pytest.raises(economy.SpendError):
        economy.spend_plan(cost=21, pool=12 + 5, earned_left=12, deficit_used=0)


def test_l64_pool_mode_deficit_come_from_the_pool():
    plan = economy.spend_plan(cost=15, pool=19, earned_left=12, deficit_used=0, mode="pool")
    assert plan == {"from_earned": 12, "deficit": 3, "from_bank": 3, "pool_after": 4}


def test_l64_deficit_activation_credits_the_opponent_in_play():
    g = board()
    begin(g, "allied", op_roll=1)  # 10 + 1 = 11 OP
    set_private(g, "allied", earned_left=1, op_pool=1)  # one OP of earnings left, nothing banked
    submit(g, "allied: activate A-1")
    submit(g, "allied: activate A-2")  # beyond the earnings: a granted deficit OP
    assert g.state.public["deficit_credit"]["german"] == 1
    assert g.state.public["op_spent"]["allied"] == 2  # OP spent is disclosed (L786)
    assert g.state.sides["allied"].private["op_pool"] == 0


def test_l64_no_op_left_refuses_activation_and_changes_nothing():
    g = board()
    begin(g, "allied", op_roll=1)
    set_private(g, "allied", earned_left=0, op_pool=0, deficit_used=3)
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: activate A-1")
    assert e.value.code == "no-op" and e.value.rule == "L65"
    assert g.state is before


def test_l851_omg_n_german_bank_locked_in_turns_1_and_2():
    g = board(options={"module": "omg-n"}, rules={"op_pool": {"allied": 0, "german": 30}})
    assert economy.bank_locked(g.state, "german") and not economy.bank_locked(g.state, "allied")
    set_private(g, "german", earned_left=0, deficit_used=3)
    set_public(g, phasing="german")
    with pytest.raises(economy.SpendError):
        economy.spend_plan(cost=1, pool=30, earned_left=0, deficit_used=3, bank_locked=True)


@pytest.mark.parametrize(
    "roll,box,passed,ends",
    [
        (5, 5, False, True),
        (6, 5, False, False),
        (6, 5, True, True),
        (7, 5, True, False),
        (2, 2, False, True),
    ],
)
def test_b3_11_l81_turn_ends_when_2d6_at_most_box(roll, box, passed, ends):
    assert economy.turn_ends(roll, box, passed) is ends


def test_b3_4_pass_literal_option_makes_ending_less_likely():
    assert economy.turn_end_chance(5, True, "literal") < economy.turn_end_chance(5, False)
    assert economy.turn_end_chance(5, True) > economy.turn_end_chance(5, False)
    assert economy.turn_end_chance(5, False) == Fraction(10, 36)


def test_b3_11_marker_moves_one_box_then_two_after_a_pass_and_resets():
    g = board()
    begin(g, "allied")
    submit(g, "allied: done", [6, 6])  # turn-end roll 12 against box 2: goes on
    assert g.state.public["turn_end_index"] == 1 and g.state.public["phasing"] == "german"
    begin(g, "german")
    submit(g, "german: pass", [6, 6])  # passed: 12 - 1 > box 3, marker moves two boxes
    assert g.state.public["turn_end_index"] == 3 and g.state.public["last_passed"] == "german"
    begin(g, "allied")
    # two consecutive passes end the turn without a roll (L83); the next turn begins with
    # weather (d10), initiative (d10 each) and the marker back in the first box (assumption C1)
    submit(g, "allied: pass", [1, 9, 2])
    assert g.clock.turn == 2 and g.state.public["turn_end_index"] == 0
    assert g.state.public["initiative"] == "allied" and g.clock.step == "3.3"
