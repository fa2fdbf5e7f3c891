"""2.1 dice: ladder, colours, promotion/demotion (2.1.1.1), meet or beat (2.1.1.2), criticals (2.1.1.3), R1."""

from fractions import Fraction

import pytest

from owsnb.rules.ows import dice


def test_2_1_ladder_and_colours():
    assert dice.LADDER == ("d4", "d6", "d8", "d10", "d12", "d16", "d20")
    assert dice.COLOURS["d4"] == "#111111" and dice.COLOURS["d12"] == "#1565c0"
    assert [dice.sides(d) for d in dice.LADDER] == [4, 6, 8, 10, 12, 16, 20]


def test_2_1_1_1_d8_strike_with_one_promotion_rolls_d10():
    assert dice.promote("d8") == "d10"
    assert dice.net_die("d8", promotions=2, demotions=1) == "d10"  # net applied once
    assert dice.demote("d10", 2) == "d6"


def test_R1_clamped_at_the_ends_and_caps_after_netting():
    assert dice.demote("d4") == "d4" and dice.promote("d20", 3) == "d20"
    assert dice.net_die("d10", promotions=3, limit="d12") == "d12"
    assert dice.net_die("d16", demotions=1, limit="d12") == "d12"


def test_2_1_1_2_meet_or_beat():
    assert dice.success_probability("d10", 7) == Fraction(2, 5)
    assert dice.success_probability("d8", 8) == Fraction(1, 8)
    assert dice.success_probability("d6", 7) == 0
    assert dice.success_probability("d4", 0) == 1


def test_2_1_1_3_criticals_double_triple_quadruple_capped_at_four():
    assert [dice.hits(r, 4) for r in (3, 4, 7, 8, 11, 12, 16, 20)] == [0, 1, 1, 2, 2, 3, 4, 4]
    assert dice.hits(20, 3) == 4  # C10: at most 4
    assert dice.hits(8, 4, critical=False) == 1  # R2: no criticals against grey shields
    d = dice.hits_distribution("d12", 4)
    assert d[3] == Fraction(1, 12) and sum(d.values()) == 1


def test_bad_die_names_are_refused_clearly():
    with pytest.raises(ValueError, match="ladder"):
        dice.promote("d7")
    assert dice.parse_die("D12") == "d12"
