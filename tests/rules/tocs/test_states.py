"""States, AP, activation and recovery (L153-L168, L187, L239-L241, L85) and rally (10.19, L322-L328)."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError

from .conftest import begin, board, set_data, submit


def test_l158_good_order_by_day_has_3_ap_and_ends_fatigued_after_acting():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    assert g.unit("A-1").get("ap") == 3
    submit(g, "allied: move A-1 0402")
    submit(g, "allied: activate A-2")  # activating the next unit closes A-1 (L239)
    assert g.unit("A-1").get("state") == 1  # Fatigued (L155, L241)
    assert g.unit("A-1").get("act") == "closed"


def test_l162_disordered_at_night_has_no_ap_and_cannot_activate():
    g = board(rules={"start": {"date": "1944-09-17", "hour": 21}})
    _begin_night(g)  # night: cloud, fog and OP rolls
    set_data(g, "A-1", state=2)
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: activate A-1")
    assert e.value.rule == "L156" and e.value.code == "no-ap"


def _begin_night(g):
    from .conftest import submit as s

    s(g, "allied: begin", [1, 1, 5])


def test_l160_l187_fatigued_out_of_loc_by_day_has_1_ap():
    g = board(
        units=[
            {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0110"},
            {
                "id": "A-1",
                "type": "para-company",
                "side": "allied",
                "hex": "0501",
                "data": {"parent": "A-HQ"},
            },
        ]
    )
    begin(g)
    set_data(g, "A-1", state=1)
    submit(g, "allied: activate A-1")
    assert g.unit("A-1").get("in_loc") is False
    assert g.unit("A-1").get("ap") == 1


def test_l85_recovery_two_states_at_end_of_turn():
    g = board(
        extra_units=[
            {"id": "A-3", "type": "para-company", "side": "allied", "hex": "0301"},
            {"id": "A-4", "type": "para-company", "side": "allied", "hex": "0302"},
        ]
    )
    begin(g)
    set_data(g, "A-1", state=1)
    set_data(g, "A-2", state=2)
    set_data(g, "A-3", state=5)
    set_data(g, "A-4", state=4)
    submit(g, "allied: pass", [6, 6])
    begin(g, "german")
    submit(g, "german: pass", [1, 9, 2])  # two passes: end of turn, weather, initiative
    states = {u: g.unit(u).get("state") for u in ("A-1", "A-2", "A-3", "A-4")}
    assert states == {"A-1": 0, "A-2": 0, "A-3": 3, "A-4": 2}  # Dispersed -> Disrupted


def _rally_board(option="capped"):
    g = board(
        extra_units=[
            {
                "id": "A-3",
                "type": "para-company",
                "side": "allied",
                "hex": "0303",
                "data": {"parent": "A-HQ"},
            }
        ],
        options={"rally_step": option},
    )
    return g


def test_10_19_l328_demoralized_rallied_once_is_good_order_after_recovery():
    g = _rally_board()
    begin(g)
    set_data(g, "A-3", state=4)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: rally 0303", [3, 3])  # MC 6 <= ML 9
    assert g.unit("A-3").get("state") == 2  # Disordered
    assert (
        g.unit("A-HQ").get("ap") == 2 and g.unit("A-HQ").get("state") == 0
    )  # an HQ ordering does not degrade
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    submit(g, "german: pass", [6, 6])  # turn-end roll 12 - 1 > box 3: the turn goes on
    assert g.clock.turn == 1
    begin(g, "allied")
    submit(g, "allied: pass", [1, 9, 2])  # second consecutive pass: the turn ends, recovery +2
    assert g.clock.turn == 2 and g.unit("A-3").get("state") == 0


def test_l325_second_rally_in_the_same_impulse_is_refused():
    g = _rally_board()
    begin(g)
    set_data(g, "A-3", state=5)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: rally 0303", [2, 2])
    assert g.unit("A-3").get("state") == 3
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: rally 0303")
    assert e.value.code == "nothing-to-rally" and e.value.rule == "L322"


@pytest.mark.parametrize("option,expected", [("capped", 2), ("plus2", 1)])
def test_10_19_rally_rulings_differ_for_a_disrupted_unit(option, expected):
    g = _rally_board(option)
    begin(g)
    set_data(g, "A-3", state=3)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: rally 0303", [1, 1])
    assert g.unit("A-3").get("state") == expected


def test_l326_failed_rally_changes_nothing_and_may_be_retried():
    g = _rally_board()
    begin(g)
    set_data(g, "A-3", state=4)
    submit(g, "allied: activate A-HQ")
    submit(g, "allied: rally 0303", [6, 5])  # 11 > ML 9
    assert g.unit("A-3").get("state") == 4
    submit(g, "allied: rally 0303", [1, 2])
    assert g.unit("A-3").get("state") == 2


def test_l336_a_reserve_activates_free_once_then_its_reserve_is_spent():
    g = board(
        extra_units=[{"id": "G-2", "type": "ger-infantry-company", "side": "german", "hex": "0906"}]
    )
    set_data(g, "G-2", reserve=True)
    begin(g)
    submit(g, "allied: done")  # the German player with a reserve gets the Reserve Commitment step
    assert g.clock.step == "3.8"
    submit(g, "german: done", [6, 6])  # not committed; then the turn-end roll
    begin(g, "german")
    pool = g.state.sides["german"].private["op_pool"]
    submit(
        g, "german: activate G-2"
    )  # in its own impulse: it forfeits the prepaid OP and pays 1 OP (L336)
    assert g.state.sides["german"].private["op_pool"] == pool - 1 and not g.unit("G-2").get(
        "reserve"
    )


def test_l68_reserve_commitment_activation_is_free_and_spends_the_reserve():
    g = board(
        extra_units=[{"id": "G-2", "type": "ger-infantry-company", "side": "german", "hex": "0906"}]
    )
    set_data(g, "G-2", reserve=True)
    from .conftest import set_owner, set_unit

    for h in ("0706", "0606", "0605"):
        set_owner(g, h, "allied")
    set_unit(g, "A-HQ", hex=g.hex("0505"))
    set_unit(g, "A-1", hex=g.hex("0706"))
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=hasty")
    submit(g, "allied: done")
    assert g.clock.step == "3.8" and g.state.clock.acting == ("german",)
    pool = g.state.sides["german"].private["op_pool"]
    submit(g, "german: activate G-2")
    assert g.state.sides["german"].private["op_pool"] == pool
    assert g.unit("G-2").get("act") == "open" and not g.unit("G-2").get("reserve")
    submit(g, "german: move G-2 0806")  # joins the defence of the battle hex (own hex: secret)
    assert g.unit("G-2").hex == g.hex("0806")


def test_l44_v_l54_cloud_roll_option_turn_rolls_the_sky_once_per_turn():
    from .conftest import board, submit

    g = board(options={"cloud_roll": "turn"})
    submit(g, "allied: begin", [5])  # only the OP d10: the sky is not rolled in the impulse (L44)
    assert g.state.public["weather"]["cloud"] == "clear"
    submit(g, "allied: pass", [6, 6])  # the turn goes on
    submit(g, "german: begin", [3])
    sub = g.submit(
        "german: pass"
    )  # two passes in a row end the turn; turn 2's weather rolls the sky (L44)
    rolls = [(e.rule, e.data["purpose"]) for e in sub.events if e.kind == "die"]
    assert ("L44", "cloud cover (DRM -1)") in rolls and not any(r == "L54" for r, _ in rolls)
    assert g.state.clock.turn == 2
    g2 = board()
    submit(
        g2, "allied: begin", [9, 5]
    )  # default 'impulse': cloud d10 (9 - 1 hysteresis = 8: scattered), then OP
    assert g2.state.public["weather"]["cloud"] == "scattered"
