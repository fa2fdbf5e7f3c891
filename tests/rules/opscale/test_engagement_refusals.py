"""Refusals shared by the engagement verbs: a unit declared twice to fire (OES.1, OES.2), and
withdrawal (R16) and surrender (R35) for a side outside the engagement or switched off by option.

Each refusal names its rule and code; the candidates offered to a side agree with the refusals.
"""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError, Order
from owsnb.rules.opscale import RULESET

from .conftest import load, play, to_step

UNITS = [
    {"id": "B-CP", "type": "command-post", "side": "blue", "hex": "0204"},
    {"id": "B-TANK", "type": "armour-bn", "side": "blue", "hex": "0404"},
    {"id": "B-INF", "type": "infantry-bn", "side": "blue", "hex": "0403"},
    {"id": "R-INF", "type": "infantry-bn", "side": "red", "hex": "0504"},
    {"id": "R-TANK", "type": "armour-bn", "side": "red", "hex": "0604"},
]


def engaged(**options: bool):
    """Blue's tank has engaged the red infantry; red is declaring retaliation (OES.2)."""
    g = to_step(load(UNITS, options=options), "5")
    s, _ = play(g.state, "blue: engage B-TANK:R-INF")
    return s


def refusal(state, text: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as exc:
        RULESET.check(state, Order.parse(text))
    return exc.value


def verbs(state, side: str) -> set[str]:
    return {spec.type.verb for spec in RULESET.legal_orders(state, side)}


def test_oes_1_a_unit_declared_twice_is_refused() -> None:
    g = to_step(load(UNITS), "5")
    err = refusal(g.state, "blue: engage B-TANK:R-INF B-TANK:R-INF")
    assert (err.code, err.rule) == ("declared-twice", "OES.1")


def test_oes_2_a_retaliating_unit_declared_twice_is_refused() -> None:
    s = engaged()
    err = refusal(s, "red: retaliate R-INF:B-TANK R-INF:B-TANK")
    assert (err.code, err.rule) == ("declared-twice", "OES.2")


@pytest.mark.parametrize(
    ("verb", "rule", "option"),
    [("withdraw 0603", "R16", "withdrawal"), ("surrender conditional", "R35", "surrender")],
)
def test_r16_r35_switched_off_by_option(verb: str, rule: str, option: str) -> None:
    s = engaged(**{option: False})
    if rule == "R35":
        s, _ = play(s, "red: done", [9, 1])  # surrender waits for the rounds
    err = refusal(s, f"red: {verb}")
    assert (err.code, err.rule) == (f"no-{option}", rule)
    assert f"option {option}" in str(err)
    assert verb.split()[0] not in verbs(s, "red")


@pytest.mark.parametrize(
    ("verb", "rule"), [("withdraw 0603", "R16"), ("surrender conditional", "R35")]
)
def test_r16_r35_only_sides_in_the_engagement(verb: str, rule: str) -> None:
    s = engaged()
    if rule == "R35":
        s, _ = play(s, "red: done", [9, 1])
    assert verb.split()[0] in verbs(s, "red")
    err = refusal(s, f"green: {verb}")
    assert (err.code, err.rule) == ("not-engaged", rule)
    assert verb.split()[0] not in verbs(s, "green")
