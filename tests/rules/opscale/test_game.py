"""The rule set in a game: phases, orders, engagements end to end (with scripted dice where the
outcome is checked exactly), hidden information, and refusals that change nothing."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

import owsnb
from owsnb.display.symbols import unit_svg
from owsnb.kernel import IllegalOrderError, NotYourTurnError
from owsnb.kernel.reduce import apply_all
from owsnb.rules.opscale import RULESET
from owsnb.rules.opscale.engagement import initiative_mods, record
from owsnb.rules.opscale.forecast import Forecast
from owsnb.testing import fixed_dice

from .conftest import load, play, to_step

BASE = [
    {"id": "B-CP", "type": "command-post", "side": "blue", "hex": "0204"},
    {"id": "B-TANK", "type": "armour-bn", "side": "blue", "hex": "0404"},
    {"id": "B-INF", "type": "infantry-bn", "side": "blue", "hex": "0403"},
    {"id": "B-ENG", "type": "engineer-coy", "side": "blue", "hex": "0305"},
    {"id": "R-INF", "type": "infantry-bn", "side": "red", "hex": "0504"},
    {"id": "R-TANK", "type": "armour-bn", "side": "red", "hex": "0604"},
    {"id": "R-CP", "type": "command-post", "side": "red", "hex": "0804"},
]


def combat(units=BASE, **kw):
    return to_step(load(units, **kw), "5")


def with_hand(state, side, *cards):
    s = state.sides[side]
    sides = dict(state.sides)
    sides[side] = replace(s, private=s.private.set(hand=list(cards)))
    return state.evolve(sides=sides)


# -- TS.1 income / event (digest test 2)
# ------------------------------------------------------------
def test_ts_1_event_card_on_3_or_less_none_on_4():
    g = load(BASE, turn=2)
    s = g.state.evolve(
        secret=g.state.secret.set(
            decks={
                "command": ["cease-fire#1", "requisition#1"],
                "events": ["windfall#1", "shortages#1"],
            }
        )
    )
    phase, step = RULESET.sequence.find("1", "1")
    dice = fixed_dice([3, 4])
    events = RULESET.on_enter(s, phase, step, dice)
    after = apply_all(s, [*dice.take_events(), *events])
    texts = [e.data.get("text", "") for e in events if e.kind == "note"]
    assert "Event for blue: Windfall (placeholder)" in texts and not any(
        "Event for red" in t for t in texts
    )
    # income (placeholder base 20; no city) + windfall 15
    assert after.sides["blue"].private["currency"] == s.sides["blue"].private["currency"] + 20 + 15
    assert after.sides["red"].private["currency"] == s.sides["red"].private["currency"] + 20
    assert after.sides["blue"].private["hand"] == ("cease-fire#1",) and after.sides["red"].private[
        "hand"
    ] == ("requisition#1",)
    assert after.sides["blue"].public["hand_size"] == 1


def test_ts_1_no_income_on_turn_1_and_a_hand_is_private():
    g = load(BASE)
    assert g.state.clock.turn == 1 and g.state.sides["blue"].private["currency"] == 100
    to_step(g, "4", turn=2)
    blue = g.state.sides["blue"].private
    assert blue["currency"] > 100 - 9 and len(blue["hand"]) == 1
    red_view = g.view("red")
    assert (
        "hand" not in red_view.sides["blue"].private
        and red_view.sides["blue"].public["hand_size"] == 1
    )
    card = blue["hand"][0]
    assert not any(card in str(dict(e.data)) for e in red_view.events)


# -- TS.2 production ------------------------------------------------------------------------------
def test_ts_2_buy_stages_a_hidden_unit_and_exp_2_prices_experience():
    g = load(BASE)
    sub = g.submit("blue: buy armour-bn xp=3")
    uid = next(u.id for u in g.state.units.values() if u.box == "staged")
    u = g.unit(uid)
    assert g.state.sides["blue"].private["currency"] == 100 - 40 - 15
    assert u.data["cost"] == 40 and u.data["purchased_turn"] == 1  # ruling R26: Cost unchanged
    assert len([e for e in sub.events if e.kind == "die"]) == 3
    assert uid not in g.view("red").units and uid in g.view("blue").units
    assert not any(uid in str(dict(e.data)) for e in g.view("red").events)
    before = g.state_id
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: buy infantry-bn xp=4")
    assert exc.value.rule == "EXP.2" and g.state_id == before
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: buy armour-bn xp=2")  # 40 + 10 > 45
    assert exc.value.code == "cannot-afford" and exc.value.rule == "TS.2"
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: buy forward-hq xp=1")
    assert exc.value.code == "not-eligible"
    assert g.preview("blue: buy infantry-bn xp=2")[2] == Fraction(9, 25)


def test_ts_3_supply_is_paid_each_turn_and_staged_units_pay_none():
    g = load(BASE)
    g.submit("blue: buy infantry-bn")
    to_step(g, "4")
    # Force Total: tank 40 + infantry 20 + engineers 15 = 75 -> 7.5 -> 8 (half up); the staged unit
    # pays nothing
    assert g.state.sides["blue"].public["force_total"] == 75
    assert g.state.sides["blue"].private["currency"] == 100 - 20 - 8


def test_ts_6_deployment_turn_5_near_a_command_post():
    staged = {
        "id": "B-NEW",
        "type": "infantry-bn",
        "side": "blue",
        "box": "staged",
        "data": {"purchased_turn": 1},
    }
    g = to_step(load([*BASE, staged], turn=5), "6")
    # red has nothing staged, but acts too: who acts is public, what is staged private (R41)
    assert g.state.clock.active == ("blue", "red")
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: deploy B-NEW 0908")
    assert exc.value.rule == "TS.6" and exc.value.code == "bad-location"
    assert "B-NEW" not in g.view("red").units
    g.submit("blue: deploy B-NEW 0205")
    assert g.unit("B-NEW").box is None and "B-NEW" in g.view("red").units


# -- TS.4 movement ---------------------------------------------------------------------------------------
def test_ts_4_ford_check_fails_and_stops_the_mover_short():
    g = to_step(load(BASE, terrain={"0405": "river"}), "4")
    p = g.preview("blue: move B-TANK 0405")
    assert dict(p) == {"0404": Fraction(3, 10), "0405": Fraction(7, 10)}
    s, _ = play(g.state, "blue: move B-TANK 0405", [3])
    assert s.units["B-TANK"].hex == g.hex("0404") and "moved" in s.units["B-TANK"].markers
    s, _ = play(g.state, "blue: move B-TANK 0405", [4])
    assert s.units["B-TANK"].hex == g.hex("0405")


def test_ts_4_enemy_hexes_impassable_and_one_move_per_turn():
    g = to_step(load(BASE), "4")
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: move B-TANK 0504")
    assert exc.value.code == "out-of-reach"
    g.submit("blue: move B-TANK 0405")
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: move B-TANK 0404")
    assert exc.value.code == "moved" and exc.value.rule == "TS.4"


def test_sc_7_capturing_a_key_city_scores_25():
    g = to_step(
        load(
            BASE,
            terrain={"0303": "small-city"},
            features=[
                {"hex": "0303", "type": "city", "name": "Keyton", "key": True, "control": "red"}
            ],
        ),
        "4",
    )
    g.submit("blue: move B-INF 0303")
    assert g.state.sides["blue"].public["score"] == 25
    assert g.state.map.hexes[g.hex("0303")].facts["control"] == "blue"


def test_ts_4_artillery_sets_up_or_packs_and_aircraft_fly_sorties_then_return():
    units = [
        *BASE,
        {"id": "B-ART", "type": "artillery-bn", "side": "blue", "hex": "0304"},
        {"id": "B-HELO", "type": "attack-helo", "side": "blue", "hex": "0204"},
    ]
    g = to_step(load(units, rules={"production": {}}), "4")
    g.submit("blue: setup B-ART")
    with pytest.raises(IllegalOrderError):
        g.submit("blue: move B-ART 0303")
    g.submit("blue: sortie B-HELO 0505")
    assert g.unit("B-HELO").hex == g.hex("0505") and "sortie" in g.unit("B-HELO").markers
    to_step(g, "4", turn=2)
    assert g.unit("B-HELO").hex == g.hex("0204") and "sortie" not in g.unit("B-HELO").markers
    assert "set-up" in g.unit("B-ART").markers


# -- OES end to end (digest test 7 in a game)
# ---------------------------------------------------------
def test_oes_engagement_declare_retaliate_initiative_rounds_destroy_score_experience():
    g = combat()
    s, _ = play(g.state, "blue: engage B-TANK:R-INF:p")
    assert s.clock.acting == ("red",) and record(s)["stage"] == "retaliate"
    with pytest.raises(NotYourTurnError):
        RULESET.check(s, __import__("owsnb").Order.parse("blue: round"))
    # OES.3: 5 + 2 = 7 ties red's 7: re-roll; 6 + 2 beats 3
    s, rep = play(s, "red: retaliate R-INF:B-TANK:p", [5, 7, 6, 3])
    assert (
        rep.initiative == "blue" and s.clock.acting == ("blue",) and record(s)["stage"] == "rounds"
    )
    with pytest.raises(IllegalOrderError) as exc:
        RULESET.check(s, __import__("owsnb").Order.parse("blue: done"))
    assert exc.value.rule == "OES.10"
    # round 1: tank D20 13 hits, Intensity 6, AP weapon check 7 fails: 6 + 6 - 2 = 10 -> Endurance
    # 2, damaged
    # R-INF (damaged side: rifles AR12) rolls 5: miss
    s, rep = play(s, "blue: round", [13, 6, 7, 5])
    assert (
        s.units["R-INF"].steps == 2
        and "damaged" in s.units["R-INF"].markers
        and record(s)["rounds"] == 1
    )
    # round 2: a natural 20 destroys it (OES.5); blue scores its Cost 20 (SC.1); the tank rolls 9
    # for experience
    s, rep = play(s, "blue: round", [20, 9])
    assert (
        rep.winner == "blue" and s.units["R-INF"].box == "destroyed" and s.units["R-INF"].steps == 0
    )
    assert s.sides["blue"].public["score"] == 20
    assert s.units["B-TANK"].data["experience"] == ("exploit-weakness",)
    assert record(s) is None and s.clock.acting == ("blue",) and s.clock.step == "5"
    with pytest.raises(IllegalOrderError) as exc:
        RULESET.check(s, __import__("owsnb").Order.parse("blue: engage B-TANK:R-TANK"))
    assert exc.value.code == "attacked"


def test_oes_game_engagement_with_seeded_dice_and_undo():
    g = combat()
    g.submit("blue: engage B-TANK:R-INF B-INF:R-INF")
    assert g.state.clock.acting == ("red",)
    fc = g.preview("red: retaliate R-INF:B-INF")
    assert isinstance(fc, Forecast) and sum(fc.values()) == 1
    g.submit("red: retaliate R-INF:B-INF")
    before = g.state_id
    g.submit("blue: fight")
    assert record(g.state) is None
    g.undo()
    assert record(g.state)["stage"] == "rounds" and g.state_id == before + 2


def test_oes_2_defender_done_means_no_retaliation():
    g = combat()
    g.submit("blue: engage B-TANK:R-INF")
    g.submit("red: done")
    rec = record(g.state)
    assert (
        rec["stage"] == "rounds" and rec["retaliations"] == [] and g.state.clock.acting == ("blue",)
    )


def test_oes_neutral_defenders_retaliate_at_once():
    units = [*BASE, {"id": "G-MIL", "type": "militia-coy", "side": "green", "hex": "0405"}]
    g = combat(units)
    sub = g.submit("blue: engage B-TANK:G-MIL")
    rec = record(g.state)
    assert rec["stage"] == "rounds" and rec["retaliations"] == [
        ["G-MIL", "B-TANK", ["primary", "secondary"]]
    ]
    assert [e.data["rule"] if "rule" in e.data else e.rule for e in sub.dice][:2] == [
        "OES.3",
        "OES.3",
    ]
    assert g.state.clock.acting == ("blue",)


def test_r11_targets_must_be_in_range_and_one_hex():
    g = combat()
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: engage B-TANK:R-TANK")
    assert exc.value.code == "out-of-range"
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: engage B-TANK:R-INF B-INF:R-CP")
    assert exc.value.code in ("targets-split", "out-of-range")
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: engage B-TANK")
    assert exc.value.code == "bad-declaration"


# -- CN: the Command Network (digest test 4 in a game)
# ---------------------------------------------------
def test_cn_1_cn_2_initiative_modifiers_beyond_the_network():
    inside = combat()
    s, _ = play(inside.state, "blue: engage B-TANK:R-INF")
    assert initiative_mods(s, record(s))[:2] == (2, 0)
    no_cps = [u for u in BASE if u["type"] != "command-post"]
    outside = combat(no_cps)
    s, _ = play(outside.state, "blue: engage B-TANK:R-INF")
    a, d, why = initiative_mods(s, record(s))
    assert (a, d) == (0, -1) and any("CN.2" in w for w in why) and any("CN.1" in w for w in why)


def test_cn_3_command_decisions_refused_beyond_the_network_played_inside():
    no_cps = [u for u in BASE if u["type"] != "command-post"]
    s, _ = play(combat(no_cps).state, "blue: engage B-TANK:R-INF")
    s = with_hand(s, "blue", "cease-fire#1", "requisition#1")
    with pytest.raises(IllegalOrderError) as exc:
        RULESET.check(s, __import__("owsnb").Order.parse("blue: play cease-fire"))
    assert exc.value.rule == "CN.3"
    s2, _ = play(s, "blue: play requisition")  # not a Command Decision
    assert s2.sides["blue"].private["currency"] == s.sides["blue"].private["currency"] + 10
    s, _ = play(combat().state, "blue: engage B-TANK:R-INF")
    s = with_hand(s, "red", "cease-fire#2")
    s, rep = play(s, "red: play cease-fire", [])  # OES.10; no round fought: no experience roll
    assert record(s) is None and s.sides["red"].private["hand"] == () and rep.ended


def test_oes_3_initiative_card_before_the_roll():
    s, _ = play(combat().state, "blue: engage B-TANK:R-INF")
    s = with_hand(s, "red", "seize-initiative#1")
    s, _ = play(s, "red: play seize-initiative")
    assert initiative_mods(s, record(s))[:2] == (2, 2)
    s, _ = play(s, "red: done", [6, 6, 2, 7])  # 8 vs 8: re-roll; 4 vs 9: red fires first
    assert record(s)["first"] == "red"
    with pytest.raises(IllegalOrderError) as exc:  # too late once the initiative is rolled
        RULESET.check(
            with_hand(s, "red", "seize-initiative#2"),
            __import__("owsnb").Order.parse("red: play seize-initiative"),
        )
    assert exc.value.code == "too-late"


# -- TR: transit survival
# -------------------------------------------------------------------------------
def test_tr_destroyed_transport_carried_unit_rolls_and_survives_damaged():
    units = [
        *BASE,
        {"id": "R-TRUCK", "type": "transport-coy", "side": "red", "hex": "0505"},
        {
            "id": "R-RIDER",
            "type": "infantry-bn",
            "side": "red",
            "box": "carried",
            "data": {"carried_by": "R-TRUCK"},
        },
    ]
    s, _ = play(combat(units).state, "blue: engage B-TANK:R-TRUCK:p")
    s, _ = play(s, "red: done", [9, 1])
    # critical hit on the truck; the rider rolls 7 (survives, damaged); the tank's experience roll
    # 2 (none)
    s, rep = play(s, "blue: round", [20, 7, 2])
    assert s.units["R-TRUCK"].box == "destroyed"
    rider = s.units["R-RIDER"]
    assert (
        rider.hex == s.map.hex("0505")
        and rider.box is None
        and rider.steps == 6
        and "damaged" in rider.markers
    )
    assert s.sides["blue"].public["score"] == 10 and any("TR" in line for line in rep.lines)
    s2, _ = play(play(combat(units).state, "blue: engage B-TANK:R-TRUCK:p")[0], "red: done", [9, 1])
    s2, _ = play(s2, "blue: round", [20, 3, 2])  # the rider rolls 3: destroyed, scored too
    assert s2.units["R-RIDER"].box == "destroyed" and s2.sides["blue"].public["score"] == 10 + 20


# -- R16 withdrawal, R35 surrender
# --------------------------------------------------------------------------
def test_r16_defender_withdraws_and_the_attacker_earns_the_forced_withdrawal_roll():
    """EXP.2 "Forcing A Withdrawal." The defender withdraws before any round: the attacker forced
    it (one roll) but fought no "Combat Action" (no second roll)."""
    s, _ = play(combat().state, "blue: engage B-TANK:R-INF")
    with pytest.raises(IllegalOrderError):
        RULESET.check(s, __import__("owsnb").Order.parse("red: withdraw 0404"))
    s, rep = play(s, "red: withdraw 0603", [10])
    assert sum("experience roll" in line for line in rep.lines) == 1
    assert s.units["R-INF"].hex == s.map.hex("0603") and record(s) is None
    assert s.units["B-TANK"].data["experience"] == ("combat-veteran",)


def test_r35_unconditional_surrender_is_captured_and_scores_double():
    s, _ = play(combat().state, "blue: engage B-TANK:R-INF")
    s, _ = play(s, "red: done", [9, 1])
    s, _ = play(s, "red: surrender unconditional", [])  # no round fought: no experience roll
    inf = s.units["R-INF"]
    assert inf.side == "blue" and inf.data["captured"] and not inf.data["used"]
    assert s.sides["blue"].public["score"] == 40 and s.sides["red"].public["score"] == 0
    from owsnb.rules.opscale.economy import force_total

    assert "R-INF" not in [
        r["unit"] for r in force_total(s.units.values(), "blue")[1] if r["counts"]
    ]


def test_sc_6_conditional_surrender_when_nearly_defeated_scores_50_for_the_loser():
    s, _ = play(combat().state, "blue: engage B-TANK:R-INF:p")
    s, _ = play(s, "red: done", [9, 1])
    s, _ = play(s, "blue: round", [13, 6, 7])  # R-INF down to 2: damaged
    s, _ = play(s, "red: surrender conditional", [1])
    assert s.sides["blue"].public["score"] == 20 and s.sides["red"].public["score"] == 50


# -- ENG: engineers -----------------------------------------------------------------------------------
def test_eng_engineers_clear_an_existing_bridge_with_recon_bonus():
    units = [u for u in BASE if u["id"] != "B-ENG"] + [
        {"id": "B-ENG", "type": "engineer-coy", "side": "blue", "hex": "0404"}
    ]
    g = load(
        units,
        terrain={"0405": "river"},
        features=[{"hex": "0405", "type": "bridge", "name": "Old bridge"}],
    )
    to_step(g, "4")
    g.submit("blue: recon B-ENG 0405")
    to_step(g, "5")
    assert g.preview("blue: clear B-ENG 0405 item=existing-bridge")[True] == Fraction(8, 10)
    s, rep = play(
        g.state, "blue: clear B-ENG 0405 item=existing-bridge", [2]
    )  # 2 + 2 < 5: fails, 1st attempt
    assert s.map.hexes[g.hex("0405")].facts["bridge_attempts"] == 1
    s, rep = play(
        s.evolve(units=s.units.set(**{"B-ENG": s.units["B-ENG"].evolve(markers=frozenset())})),
        "blue: clear B-ENG 0405 item=existing-bridge",
        [1],
    )  # 2nd attempt needs 3: 1 + 2 = 3
    assert s.map.hexes[g.hex("0405")].facts["bridge_destroyed"] is True
    with pytest.raises(IllegalOrderError) as exc:
        RULESET.check(s, __import__("owsnb").Order.parse("blue: clear B-ENG 0405"))
    assert exc.value.code in ("nothing-to-clear", "attacked")


# -- objectives, end, views
# --------------------------------------------------------------------------
def test_sc_10_primary_objective_held_at_the_end():
    g = load(
        BASE,
        turns=1,
        rules={
            "objectives": [{"name": "Hold 0404", "side": "blue", "kind": "primary", "hex": "0404"}]
        },
    )
    for _ in range(20):
        if g.is_over():
            break
        g.submit(f"{g.state.clock.acting[0]}: done")
    assert (
        g.is_over() and g.state.sides["blue"].public["score"] == 100 and "blue wins" in g.outcome()
    )


def test_illegal_orders_are_refused_with_their_rule_and_change_nothing():
    g = combat()
    before = (g.state_id, g.state)
    bad = {
        "blue: engage B-TANK:R-TANK": "OES.1",
        "blue: round": "OES.4",
        "red: retaliate R-INF:B-TANK": None,
        "blue: deploy B-TANK 0404": "TS.5",
        "blue: clear B-TANK 0404": "ENG.1",
        "blue: play cease-fire": "TS.1",
        "umpire: award blue capture_key_city_twice": "SC",
        "blue: surrender conditional": "R35",
    }
    for text, rule in bad.items():
        with pytest.raises(IllegalOrderError) as exc:
            g.submit(text)
        if rule:
            assert exc.value.rule == rule, (text, exc.value)
    assert (g.state_id, g.state) == before
    g.submit("umpire: award blue capture_key_city")
    assert g.state.sides["blue"].public["score"] == 25


def test_views_hide_staged_units_hands_and_deck_order():
    g = load(BASE)
    g.submit("blue: buy infantry-bn")
    to_step(g, "5", turn=2)
    red = g.view("red")
    staged = [u.id for u in g.state.units.values() if u.box == "staged"]
    assert staged and not set(staged) & set(red.units)
    assert red.secret == {} and "decks" in g.state.secret
    from owsnb.testing import find_leaks, hidden_tokens

    tokens = hidden_tokens(g.state, "red", RULESET)
    payload = {
        "dashboard": RULESET.presentation.dashboard(red),
        "counters": [str(unit_svg(RULESET, u, red)) for u in red.units.values()],
        "summaries": [RULESET.presentation.unit_summary(u, red) for u in red.units.values()],
        "events": [dict(e.data) for e in red.events],
    }
    assert tokens and find_leaks(payload, tokens) == []


def test_closed_unit_cards_option_hides_enemy_endurance_and_experience():
    g = load(BASE, options={"open_unit_cards": False})
    seen = g.view("red").units["B-TANK"]
    assert (
        set(seen.data) <= {"category", "cost", "domain", "half_endurance"}
        and "weapons" not in seen.data
    )
    assert g.view("blue").units["B-TANK"].data["weapons"]


def test_unknown_rules_keys_and_types_are_scenario_problems():
    import owsnb
    from owsnb.kernel import ScenarioError

    from .conftest import scenario

    bad = scenario(BASE, rules={"productoin": {}, "production": {"blue": ["no-such-unit"]}})
    with pytest.raises(ScenarioError) as exc:
        owsnb.load(bad, seed=1, save=False)
    text = str(exc.value)
    assert "rules.productoin" in text and "no-such-unit" in text


def test_r44_an_engagement_open_when_the_combat_phase_ends_is_broken_off():
    g = combat()
    g.submit("blue: engage B-TANK:R-INF")
    g.submit("red: done")
    g.submit("umpire: advance")
    assert record(g.state) is None and g.state.clock.step != "5"
    assert any("broken off" in e.data.get("text", "") for e in g.events if e.kind == "note")


def test_r29_enemy_obstacles_stop_movers_of_their_class():
    walls = {lab: "impassable-mountain" for lab in ("0305", "0503", "0505", "0306", "0506")}
    units = [
        *BASE,
        {"id": "R-MINES", "type": "minefield", "side": "red", "hex": "0405"},
        {"id": "B-INF2", "type": "infantry-bn", "side": "blue", "hex": "0404"},
    ]
    g = to_step(load(units, terrain=walls), "4")
    from owsnb.rules.opscale.board import move_reach

    tank = move_reach(g.state, g.unit("B-TANK"))
    assert (
        g.hex("0405") in tank and g.hex("0406") not in tank
    )  # vehicle obstacle: must stop in 0405
    assert g.hex("0406") in move_reach(g.state, g.unit("B-INF2"))  # infantry pass a minefield
    s, _ = play(g.state, "blue: move B-TANK 0405")
    assert s.units["B-TANK"].hex == g.hex("0405")


def test_ts_4_transport_embark_move_disembark():
    units = [*BASE, {"id": "B-TRUCK", "type": "transport-coy", "side": "blue", "hex": "0403"}]
    g = to_step(load(units), "4")
    with pytest.raises(IllegalOrderError) as exc:
        g.submit("blue: embark B-TANK B-TRUCK")
    assert exc.value.code in ("not-together", "cannot-carry")
    g.submit("blue: embark B-INF B-TRUCK")
    assert g.unit("B-INF").box == "carried" and g.unit("B-INF").hex is None
    g.submit("blue: move B-TRUCK 0303")
    from owsnb.rules.opscale.board import position

    assert position(g.state, g.unit("B-INF")) == g.hex("0303")
    to_step(g, "4", turn=2)
    g.submit("blue: disembark B-INF")
    assert g.unit("B-INF").hex == g.hex("0303") and g.unit("B-INF").box is None


def test_r3_supply_deficit_recorded_and_optional_initiative_penalty():
    g = load(
        BASE, options={"supply_deficit": "initiative"}, rules={"currency": {"blue": 3, "red": 100}}
    )
    to_step(g, "5")
    assert (
        g.state.sides["blue"].public["deficit"] == 8 - 3
        and g.state.sides["blue"].private["currency"] == 0
    )
    s, _ = play(g.state, "blue: engage B-TANK:R-INF")
    a, d, why = initiative_mods(s, record(s))
    assert (a, d) == (1, 0) and any("deficit" in w for w in why)


def test_r41_the_deployment_phase_does_not_tell_who_holds_staged_units():
    """R41: "staged units ... are private"; TS.6: every player takes the Deployment phase of a
    deployment turn, so its clock is the same whether or not the opponent holds staged units."""
    staged = {
        "id": "R-NEW",
        "type": "infantry-bn",
        "side": "red",
        "box": "staged",
        "data": {"purchased_turn": 1},
    }
    plain = to_step(load(BASE, turn=5), "6")
    holding = to_step(load([*BASE, staged], turn=5), "6")
    assert plain.view("blue").clock == holding.view("blue").clock
    assert plain.legal_orders("blue").verbs == holding.legal_orders("blue").verbs


def test_r41_closed_cards_show_an_enemy_only_the_cards_face_in_events():
    """R41: with ``open_unit_cards: false`` an enemy sees "only the card's face: category, Cost,
    damaged side" — not Endurance, crew, experience or weapon ratings, in its view or its events."""
    from owsnb.testing import random_playout

    g = owsnb.load("opscale-river-valley", seed=3, save=False, options={"open_unit_cards": False})
    random_playout(g, max_orders=400, seed=3, check_views=False)
    told = 0
    for side in g.sides:
        for e in g.view(side).events:
            d = e.data
            u = g.state.units.get(d.get("id")) if isinstance(d.get("id"), str) else None
            if e.visible_to is not None:
                continue  # its own units' cards (a captured unit was the other side's then)
            if e.kind == "unit.set" and u is not None and u.side != side:
                ch = d["changes"]
                assert not {"steps"} & set(ch), (side, e)
                assert set(ch.get("data") or {}) <= {"category", "cost", "domain", "half_endurance"}
                told += 1
            assert not (e.kind == "die" and e.rule in ("OES.4", "EXP.1", "EXP.2")), (side, e)
    assert told > 10  # the enemy still sees its cards' faces change (moves, damage, markers)
