"""How engagements and games end: sudden death (R42), experience only for combat (EXP.2, R17),
an engagement nobody can fire in (OES.10, R45)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError, NotYourTurnError, Order
from owsnb.rules.opscale import RULESET
from owsnb.rules.opscale.engagement import record

from .conftest import load, play, to_step

TANK_AND_INF = [
    {"id": "B-TANK", "type": "armour-bn", "side": "blue", "hex": "0404"},
    {"id": "R-INF", "type": "infantry-bn", "side": "red", "hex": "0504"},
]


def test_r42_a_player_with_no_unit_left_loses_whatever_the_score():
    """Ruling R42 (victory is lost from the aid): "with sudden_death, a player with no unit left
    (on the map, in transit or staged) loses at once." Red leads 75 to 0 when its last unit is
    destroyed: Blue wins, not Red by score."""
    s = to_step(load(TANK_AND_INF), "5").state
    s, _ = play(s, "umpire: award red secondary_objective")
    s, _ = play(s, "blue: engage B-TANK:R-INF:p")
    s, _ = play(s, "red: done", [9, 1])  # initiative: blue 9 + 2 against 1
    s, _ = play(s, "blue: round", [20, 2])  # a critical hit destroys R-INF; the tank's roll 2
    assert s.units["R-INF"].box == "destroyed"
    assert s.sides["red"].public["score"] == 75 and s.sides["blue"].public["score"] == 20
    assert RULESET.is_over(s)
    text = RULESET.outcome(s)
    assert text.startswith("blue wins") and "red has no unit left" in text, text
    assert "red wins" not in text


def test_r42_scores_decide_when_both_players_still_have_units():
    """R42: "highest score when the scenario's last turn ends"."""
    s = to_step(load(TANK_AND_INF, turns=1), "5").state
    s, _ = play(s, "umpire: award red secondary_objective")
    assert not RULESET.is_over(s) and RULESET.outcome(s).startswith("red leads")


def test_exp_2_declaring_an_attack_and_withdrawing_at_once_is_no_combat_action():
    """EXP.2 "Methods for Crews / Infantry to Earn Experience: Combat Action. Forcing A
    Withdrawal." An attacker that declares and breaks off before any round is fought has seen no
    combat: it earns no roll (and nobody forced it out)."""
    s = to_step(load(TANK_AND_INF), "5").state
    s, _ = play(s, "blue: engage B-TANK:R-INF:p")
    s, _ = play(s, "red: done", [9, 1])
    s, rep = play(s, "blue: withdraw", [])  # no experience die is rolled
    assert record(s) is None
    assert not s.units["B-TANK"].data.get("experience")
    assert not any("experience roll" in line for line in rep.lines)


def test_exp_2_a_fought_round_then_a_forced_withdrawal_earns_two_rolls():
    """EXP.2: a Combat Action and Forcing A Withdrawal each earn a roll (R17)."""
    s = to_step(load(TANK_AND_INF), "5").state
    s, _ = play(s, "blue: engage B-TANK:R-INF:p")
    s, _ = play(s, "red: done", [9, 1])
    s, _ = play(s, "blue: round", [2])  # the tank misses (red declared no retaliation)
    s, rep = play(s, "red: withdraw 0603", [3, 10])
    assert s.units["B-TANK"].data["experience"] == ("combat-veteran",)
    assert sum("experience roll" in line for line in rep.lines) == 2


def test_oes_10_r45_an_engagement_nobody_can_fire_in_ends():
    """OES.10: "Alternate Combat Rounds until either the Attacking Unit(s) or Defending Unit(s)
    are destroyed or one player plays a Command Card that ends the Combat Engagement." With
    retargeting, withdrawal and surrender off, the tank's only target is destroyed while another
    defender remains and Red declared no retaliation: nobody can fire again, so the engagement
    ends (ruling R45) instead of running empty rounds for ever."""
    units = [*TANK_AND_INF, {"id": "R-INF2", "type": "infantry-bn", "side": "red", "hex": "0504"}]
    g = load(units, options={"retarget": False, "withdrawal": False, "surrender": False})
    s = to_step(g, "5").state
    s, _ = play(s, "blue: engage B-TANK:R-INF:p")
    s, _ = play(s, "red: done", [9, 1])
    s, rep = play(s, "blue: round", [20, 2])  # R-INF destroyed; the tank's experience roll 2
    assert s.units["R-INF"].box == "destroyed" and s.units["R-INF2"].steps == 12
    assert record(s) is None, "the engagement should have ended"
    assert rep.ended and any("can fire" in line for line in rep.lines)
    assert s.clock.acting == ("blue",) and s.clock.step == "5"


def test_ts_5_r46_an_engagement_resolved_with_miniatures_is_recorded_by_the_umpire():
    """TS.5: "Resolve Combat Engagements using the Operational Engagement Sequence, or Resolve by
    Miniatures at the Tactical Scale." The umpire records what the tactical battle left (R46):
    R-INF destroyed (scored for Blue, SC.1), the tank down to 7 (damaged at Half Endurance 8);
    the engagement ends and the tank rolls for its Combat Action (EXP.2)."""
    s = to_step(load(TANK_AND_INF), "5").state
    s, _ = play(s, "blue: engage B-TANK:R-INF:p")
    s, _ = play(s, "red: done", [9, 1])
    with pytest.raises(IllegalOrderError) as exc:
        RULESET.check(s, Order.parse("umpire: tactical B-TANK:17"))
    assert exc.value.code == "bad-endurance" and exc.value.rule == "R10"
    with pytest.raises(NotYourTurnError):
        RULESET.check(s, Order.parse("blue: tactical R-INF:0"))
    s, rep = play(s, "umpire: tactical R-INF:0 B-TANK:7", [10])
    assert s.units["R-INF"].box == "destroyed" and s.sides["blue"].public["score"] == 20
    tank = s.units["B-TANK"]
    assert tank.steps == 7 and "damaged" in tank.markers
    assert tank.data["experience"] == ("combat-veteran",)
    assert record(s) is None and rep.ended
