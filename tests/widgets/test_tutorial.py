"""The OWS tutorial's first turn, played through the widgets alone (what a mouse can do): clicks
on counters and hexes, verb buttons, the rule set's suggestions, Submit and Done."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.widgets import App


def _click_hex(app, game, label):
    lon, lat = game.map.layout.centre(game.hex(label))
    return app.map.click(lon, lat)


@pytest.mark.slow
def test_the_tutorials_first_turn_with_the_mouse_only():
    game = owsnb.load("tutorial", seed=7, save=False)
    app = App(game, seat="umpire", curtain=False)
    op, table = app.orders, app.table
    done_by_clicks = []
    tried: set[tuple] = set()
    for _ in range(400):
        if game.clock.turn > 1:
            break
        key = (game.clock.phase, game.clock.step, table.actor)
        untried = [v for v in op.verbs.options if (*key, v) not in tried and v != "defer"]
        if not untried:
            assert not op.done_button.disabled, f"stuck at {game.clock} with nothing to click"
            op.done_button.click()
            continue
        verb = untried[0]
        tried.add((*key, verb))
        op.choose(verb)
        spec = op.spec
        movers = spec.candidates.get("unit", ()) if verb == "move" else ()
        if movers:  # a move is two clicks: the counter, then a hex in its reach
            unit = movers[0]
            table.pick(unit=unit)
            reach = game.ruleset.presentation.reach(table.view, unit) or {}
            here = table.view.units[unit].hex
            dest = next(
                (
                    h
                    for h in sorted(reach, key=lambda h: (h.distance(here) != 2, h))
                    if h != here and not table.view.units_at(h)
                ),
                None,
            )
            if dest is not None:
                _click_hex(app, game, game.map.label(dest))
                assert op.values.get("unit") == unit and op.values.get("to") == game.map.label(dest)
        else:  # parameters a click cannot give: the rule set's ready-made orders for this verb
            op.suggest.value = True  # (offered unasked only when no click and no list gives one)
            offered = [v for _, v in op.quick.options[1:]]
            if not offered:
                op.reset()
                continue
            op.quick.value = offered[0]
            op.quick_button.click()
        sub = op.submit()
        if sub is not None:
            done_by_clicks.append(str(sub.order))
        op.reset()
    assert game.clock.turn == 2, f"the first turn did not end: {game.clock}"
    verbs = {o.split(": ")[1].split()[0] for o in done_by_clicks}
    assert {"move", "fly", "isr", "detect", "strike"} <= verbs
    assert not any(o.startswith("umpire:") for o in done_by_clicks)  # no umpire fiat needed


@pytest.mark.slow
@pytest.mark.parametrize("seats", ["three seats", "umpire alone"])
def test_the_tutorials_first_turn_by_clicks_each_decided_from_the_page(seats):
    """Issue 20: the briefing's first turn, every order given by clicks alone — each decided
    from what the acting seat's table shows (its counters, stacks and off-map tray) — and every
    step closed with Done (the umpire's steps with Advance step); the same game as the orders
    typed."""
    from owsnb.testing.clicks import TUTORIAL_TURN, clicks_for, next_order, play_in_app

    game = owsnb.load("tutorial", seed=1, save=False)
    typed = game.fork(0)  # the same game, given the same orders as text
    names = ("blue", "red", "umpire") if seats == "three seats" else ("umpire",)
    apps = {s: App(game, seat=s, curtain=False) for s in names}
    todo = list(TUTORIAL_TURN)
    clicks = 0
    while game.clock.turn == 1:
        order = next_order(game, todo)
        acting = list(game.clock.acting) or ["umpire"]
        side = order.partition(":")[0] if order else acting[0]
        seat = side if side in apps else "umpire"
        app = apps[seat]
        if order is not None:
            plan = clicks_for(game, seat, order)
            sub = play_in_app(app, plan)
            assert str(sub.order) == order, (plan, sub.order)
            typed.submit(order)
            todo.remove(order)
            clicks += len(plan)
        else:
            if seat == "umpire" and side != "umpire":
                assert app.table.actor == side  # "act as: whoever acts"
            button = app.orders.advance_button if side == "umpire" else app.orders.done_button
            assert not button.disabled and button.layout.display != "none", (side, game.clock)
            button.click()
            typed.submit(f"{side}: done")
            clicks += 1
    assert todo == [] and game.state == typed.state
    assert clicks < 160  # the count with typed ids and hexes, for the same turn
    for app in apps.values():
        app.close()
