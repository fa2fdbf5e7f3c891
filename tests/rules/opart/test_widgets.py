"""The same widgets (App: MapView, OrderPanel, DiceLog, Dashboard) play Operational Art with the mouse."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.widgets import App


def _click_hex(app, game, label):
    lon, lat = game.map.layout.centre(game.hex(label))
    return app.map.click(lon, lat)


def _click_counter(app, uid):
    app.table.pick(unit=uid)  # what a click on a counter of a stack does


def test_one_activation_with_the_mouse():
    g = owsnb.load("opart-kalinovka", seed=1943, save=False)
    app = App(g, seat="umpire")
    op, t = app.orders, app.table
    assert g.state.public["card"] == "168id" and g.clock.acting == ("axis",)
    assert set(op.verbs.options) >= {"move", "attack"}
    # attack: click the artillery, choose attack, click the enemy regiment 6 hexes away
    _click_counter(app, "168-AR")
    op.choose("attack")
    _click_counter(app, "168-AR")
    _click_counter(app, "15-47")
    assert op.values == {"unit": "168-AR", "target": "15-47"}
    assert t.problem is None
    assert t.preview == g.preview(
        "axis: attack 168-AR 15-47"
    )  # the exact distribution, before submitting
    assert sum(t.preview.values()) == 1 and "no effect" in t.preview
    op.submit_button.click()
    assert g.unit("168-AR").has("fired")
    rolls = app.parts["dice"].rows()
    assert {r["die"] for r in rolls} >= {"d12", "d10"} and all(r["rule"] == "14" for r in rolls)
    # move: click a regiment, then a hex on the map
    _click_counter(app, "168-429")
    op.choose("move")
    _click_counter(app, "168-429")
    assert _click_hex(app, g, "0607") == "0607"
    op.submit_button.click()
    assert g.state.map.label(g.unit("168-429").hex) == "0607"
    # an illegal move is flagged with its rule before submitting
    _click_counter(app, "168-417")
    op.choose("move")
    _click_counter(app, "168-417")
    _click_hex(app, g, "0410")
    assert t.problem is not None and t.problem.rule == "13"
    # Done ends the activation and turns the next card
    op.reset()
    op.done_button.click()
    assert g.state.public["card"] != "168id" and len(g.state.public["turned"]) == 2
    dash = app.parts["dashboard"].stats.value
    assert "74th Rifle Division" in dash and "dashboard hook failed" not in dash


def test_a_side_seat_sees_no_orders_while_the_enemy_acts():
    g = owsnb.load("opart-kalinovka", seed=1943, save=False)
    app = App(g, seat="soviet", curtain=False)
    assert g.clock.acting == ("axis",)
    assert app.orders.verbs.options == ()
    assert app.orders.done_button.disabled


@pytest.mark.slow
def test_a_whole_day_with_the_mouse():
    g = owsnb.load("opart-kalinovka", seed=5, save=False)
    app = App(g, seat="umpire")
    op = app.orders
    moves = attacks = 0
    while not g.is_over():
        side = g.clock.acting[0]
        legal = g.legal_orders(side)  # the "player" looks at the board; every action is a click
        if "attack" in legal.verbs:
            spec = legal["attack"]
            ex = spec.examples[0]
            op.choose("attack")
            _click_counter(app, ex.args[0])
            _click_counter(app, ex.args[1])
            op.submit_button.click()
            attacks += 1
        legal = g.legal_orders(side)
        if "move" in legal.verbs:
            uid = legal["move"].candidates["unit"][0]
            reach = g.ruleset.presentation.reach(g.view(side), uid)
            dest = max(reach, key=lambda h: (reach[h], h))
            op.choose("move")
            _click_counter(app, uid)
            _click_hex(app, g, g.map.label(dest))
            op.submit_button.click()
            moves += 1
        op.reset()
        op.done_button.click()
    assert (
        g.state.clock.turn == 13
        or len({u.side for u in g.state.units.values() if u.hex is not None}) < 2
    )
    assert moves > 20 and attacks > 10
    assert "victory" in g.outcome() or "draw" in g.outcome()


def test_nothing_synced_to_a_side_seat_reveals_the_face_down_cards():
    from owsnb.testing import scan_widget_leaks as scan_leaks

    g = owsnb.load("opart-kalinovka", seed=1943, save=False)
    app = App(g, seat="soviet", curtain=False)
    for _ in range(3):
        g.submit(f"{g.clock.acting[0]}: done")
    deck = list(g.state.secret["deck"])
    assert len(deck) >= 2
    tokens = [
        "activation cards, turn",
        ", ".join(f"'{f}'" for f in deck),
        ", ".join(f'"{f}"' for f in deck),
    ]
    assert scan_leaks(app, tokens) == []
    while g.clock.turn == 1:  # the next turn's shuffle is a logged roll...
        g.submit(f"{g.clock.acting[0]}: done")
    assert scan_leaks(app, tokens[:1]) == []  # ...that the side's table never receives
    umpire = App(g, seat="umpire", curtain=False)  # while the umpire's dice log lists it
    assert any(r["purpose"] == "activation cards, turn 2" for r in umpire.parts["dice"].rows())
    assert scan_leaks(umpire, tokens[:1])
