"""OrderPanel: orders given with the mouse — verbs and parameters from the rule set, exact
previews, refusals with their rule paragraph, the step control."""

from __future__ import annotations

from fractions import Fraction

from owsnb.kernel import Order
from owsnb.widgets.dashboard import Dashboard
from owsnb.widgets.mapview import MapView
from owsnb.widgets.orderpanel import FOLLOW, OrderPanel
from owsnb.widgets.table import Table
from tests.widgets.helpers import counter, to_fire_with_contact


def _table(game, seat="blue"):
    t = Table.of(game, seat)
    return t, MapView(t), OrderPanel(t)


def _click_hex(mv, game, label):
    lon, lat = game.map.layout.centre(game.hex(label))
    return mv.click(lon, lat)


def _click_counter(mv, unit_id):
    counter(mv, unit_id)._click_callbacks(type="click")


def test_verbs_come_from_the_legal_orders(pgame):
    t, mv, op = _table(pgame)
    assert op.verbs.options == ("move",)
    assert "S2" in op.verbs.tooltips[0]
    assert op.done_button.disabled is False
    assert op.advance_button.layout.display == "none"


def test_clicking_a_counter_then_a_hex_prepares_a_move_and_submits_it_s2(pgame):
    t, mv, op = _table(pgame)
    _click_counter(mv, "B-ARM-1")
    assert op.verbs.value == "move" and op.values == {"unit": "B-ARM-1"}
    # the order line shows what the click gave and what to click next (no editor to fill)
    assert "unit <b>B-ARM-1</b>" in op.info.value and "to: <span class='need'>click a hex" in (
        op.info.value
    )
    assert op._editors == {}
    assert t.order is None and "still needed: to" in op.sections["order"]
    _click_hex(mv, pgame, "0504")
    assert t.order == Order.parse("blue: move B-ARM-1 0504")
    assert (
        t.problem is None
        and "✓ legal" in op.sections["preview"]
        and "no dice" in op.sections["preview"]
    )
    assert op.sections["preview"] in op.info.value or "✓ legal" in op.info.value
    op.submit_button.click()
    assert pgame.unit("B-ARM-1").hex == pgame.hex("0504")
    assert op.values == {} and op.verbs.value == "move"  # ready for the next unit
    assert "blue: move B-ARM-1 0504" in op.sections["result"]


def test_a_friendly_stack_is_a_destination_then_a_new_unit(pgame):
    """A hex under a friendly counter can be clicked: with the unit chosen and no destination
    yet, a click on another own counter gives its hex (a move onto the stack); with the order
    complete, it starts the order again with that unit."""
    t, mv, op = _table(pgame)
    _click_counter(mv, "B-ARM-1")
    _click_counter(mv, "B-INF-1")
    here = pgame.map.label(pgame.unit("B-INF-1").hex)
    assert op.values == {"unit": "B-ARM-1", "to": here}
    _click_counter(mv, "B-INF-1")
    assert op.values == {"unit": "B-INF-1"}


def test_an_illegal_order_is_flagged_before_and_refused_with_its_rule_s2(pgame):
    t, mv, op = _table(pgame)
    _click_counter(mv, "B-INF-1")
    _click_hex(mv, pgame, "0707")  # infantry moves 1 hex
    assert t.order == Order.parse("blue: move B-INF-1 0707")
    assert t.problem.rule == "S2" and t.problem.code == "out-of-reach"
    assert "would be refused" in op.sections["preview"] and "rule S2" in op.sections["preview"]
    state = pgame.state_id
    op.submit()
    assert pgame.state_id == state and pgame.unit("B-INF-1").hex == pgame.hex("0203")
    assert (
        "refused" in op.sections["refusal"]
        and "rule S2" in op.sections["refusal"]
        and "out-of-reach" in op.sections["refusal"]
    )


def test_incomplete_orders_are_not_submitted(pgame):
    t, mv, op = _table(pgame)
    op.choose("move")
    op.submit()
    assert "still needed: unit, to" in op.sections["refusal"]
    assert pgame.seq == 0


def test_fire_preview_is_exact_and_charted_s3(pgame):
    target = to_fire_with_contact(pgame)
    t, mv, op = _table(pgame)
    dash = Dashboard(t)
    assert op.verbs.options == ("fire",)
    _click_counter(mv, "B-REC-1")
    assert op.verbs.value == "fire" and op.values == {"unit": "B-REC-1"}
    _click_counter(mv, target)
    assert op.values == {"unit": "B-REC-1", "target": target}
    defence = pgame.unit(target).get("defence")
    p_hit = Fraction(max(0, 4 - defence + 1), 4)  # recon attacks with a d4 (S3)
    assert t.preview[1] == p_hit and t.preview[0] == 1 - p_hit
    assert str(p_hit) in op.sections["preview"]
    assert list(dash.preview_bars.x) == ["0", "1"]
    assert list(dash.preview_bars.y) == [float(1 - p_hit), float(p_hit)]
    assert dash.preview_fig.layout.display == ""
    (shaft, head) = mv.overlays["arrow"].data["features"]
    assert shaft["properties"]["style"]["color"] == "#b91c1c"  # at an enemy unit
    sub = op.submit()
    assert sub is not None and len(sub.dice) == 1 and "rolls" not in op.sections["refusal"]


def test_done_and_pending_s2(pgame):
    t, mv, op = _table(pgame)
    assert "pending: blue, red" in op.clock.value
    op.done_button.click()
    assert pgame.clock.acting == ("red",)
    assert "waiting for red" in op.clock.value
    assert op.done_button.disabled and op.verbs.options == ()


def test_umpire_gives_every_sides_orders_and_advances(pgame):
    t, mv, op = _table(pgame, "umpire")
    # "act as: whoever acts" is the umpire's standing choice: the panel gives blue's orders now
    assert op.actor.layout.display == "" and op.actor.value == FOLLOW and t.actor == "blue"
    assert [v for _, v in op.actor.options] == [FOLLOW, "blue", "red", "umpire"]
    op.done_button.click()
    assert t.actor == "red" and op.actor.value == FOLLOW  # ... and red's once red acts
    op.advance_button.click()
    assert pgame.clock.phase == "2"


def test_quick_orders_fill_the_panel(pgame):
    t, mv, op = _table(pgame)
    assert op.quick.options == (("—", ""),)  # nothing chosen: nothing offered, nothing sent
    assert op.quick_row.layout.display == "none"
    _click_counter(mv, "B-ARM-1")  # a move's unit and hex come from clicks: nothing offered unasked
    assert op.quick.options == (("—", ""),) and op.quick_row.layout.display == "none"
    op.suggest.value = True  # on demand: the move examples for this unit only
    offered = [v for _, v in op.quick.options[1:]]
    assert offered and all(o.startswith("blue: move B-ARM-1 ") for o in offered)
    assert op.quick_row.layout.display == ""
    op.reset()  # every ready-made order, when no verb is chosen
    assert len(op.quick.options) > len(offered) + 1
    first = op.quick.options[1][1]
    op.quick.value = first
    op.quick_button.click()
    assert t.order == Order.parse(first)


def test_suggestions_come_unasked_when_no_click_or_list_gives_a_value(pgame):
    from owsnb.kernel.data import FrozenDict
    from owsnb.kernel.orders import OrderSpec, OrderType, Param

    t, mv, op = _table(pgame)

    def spec(*params, **candidates):
        return OrderSpec("blue", OrderType("x", params), FrozenDict(candidates))

    unit, to = Param("unit", "unit"), Param("to", "hex")
    assert not op.needs_suggestions(spec(unit, to))  # two clicks
    assert not op.needs_suggestions(spec(unit, Param("mode", "choice", choices=("a", "b"))))
    assert not op.needs_suggestions(spec(unit, Param("card", "card"), card=("c1", "c2")))
    assert not op.needs_suggestions(spec(unit, Param("note", "text", optional=True)))
    assert op.needs_suggestions(spec(unit, Param("salvos", "salvo")))  # typed, or suggested


def test_no_orders_while_showing_the_past(pgame):
    pgame.submit("blue: move B-ARM-1 0504")
    t, mv, op = _table(pgame)
    t.go_to(0)
    assert op.verbs.options == () and op.undo_button.disabled
    t.submit("blue: move B-INF-1 0303")
    assert t.refusal.code == "history" and pgame.seq == 2


def test_a_stale_table_is_refused_and_refreshed(pgame):
    t, mv, op = _table(pgame)
    t.state_id -= 1  # as if someone acted before this table heard of it
    t.submit("blue: done")
    assert t.refusal.code == "stale" and pgame.seq == 0
    assert t.state_id == pgame.state_id


def test_act_as_never_changes_unless_the_umpire_changes_it(pgame):
    """Issue 20: "act as" switched itself to blue after the umpire's Done. A side the umpire
    picks stays picked whatever the clock does; "whoever acts" follows the clock."""
    t, mv, op = _table(pgame, "umpire")
    op.actor.value = "red"  # chosen by hand
    assert t.actor == "red" and op.done_button.description == "Done (red)"
    op.advance_button.click()  # movement ends: the fire step, both sides act
    assert pgame.clock.phase == "2" and t.actor == "red" and op.actor.value == "red"
    t.submit("blue: done")
    assert t.actor == "red" and op.actor.value == "red"
    op.act_as(None)  # back to whoever acts
    assert op.actor.value == FOLLOW and t.actor == pgame.clock.acting[0]


def test_the_umpire_has_one_step_control(pgame):
    """One advance control: the umpire acting as the umpire has no Done, only "Advance step"."""
    t, mv, op = _table(pgame, "umpire")
    op.act_as("umpire")
    assert op.done_button.layout.display == "none" and op.advance_button.layout.display == ""
    op.advance_button.click()
    assert pgame.clock.phase == "2"


def test_without_candidates_a_click_fills_only_what_the_kind_admits_s3():
    """A ``unit`` parameter takes own units, a ``target`` another side's seen units (the rule set
    lists no candidates here)."""
    from tests.widgets.plus import unlisted_game

    game = unlisted_game()
    target = to_fire_with_contact(game)
    t, mv, op = _table(game)
    assert all(s.candidates == {} for s in t.legal)
    _click_counter(mv, target)  # an enemy: only the target takes it
    assert op.verbs.value == "fire" and op.values == {"target": target}
    _click_counter(mv, "B-REC-1")
    assert op.values == {"target": target, "unit": "B-REC-1"}
    _click_counter(mv, "B-INF-1")  # own, so not a target: it becomes the acting unit instead
    assert op.values == {"unit": "B-INF-1"}
    _click_counter(mv, "B-REC-1")
    _click_counter(mv, target)
    assert op.values == {"unit": "B-REC-1", "target": target}
    assert t.order == Order.parse(f"blue: fire B-REC-1 {target}") and t.problem is None


def test_a_preview_with_its_own_html_is_shown_as_the_rule_set_draws_it():
    """A ``Distribution`` subclass with its own ``_repr_html_`` (opscale's engagement forecast,
    per-unit rows) is drawn by its rule set; a plain distribution as the exact table."""

    from owsnb.kernel.dist import Distribution
    from owsnb.rules.opscale import forecast
    from owsnb.widgets import render

    half = Fraction(1, 2)
    row = {"unit": "A-1", "side": "blue", "P(destroyed)": Fraction(1, 4)}
    f = forecast.Forecast({"held": half, "lost": half}, label="engagement", details=[row])
    order = Order.parse("blue: attack A-1 0101")
    shown = render.preview_html(f, order=order)
    assert "<td>A-1</td>" in shown and "P(destroyed)" in shown and "P (exact)" not in shown
    plain = render.preview_html(Distribution({"held": half, "lost": half}), order=order)
    assert "P (exact)" in plain and "1/2" in plain


def _rows_of_verbs(op, children):
    """The verb buttons the panel shows (the browser draws its children); the panel's own
    *children* are still those it had (a browser redraws every child after a changed one)."""
    import ipywidgets as W

    assert op.children == children
    return [
        c
        for w in op.giving.children
        for c in getattr(w, "children", ())
        if isinstance(c, W.ToggleButtons)
    ]


def test_no_verb_buttons_stay_when_the_side_may_give_no_order(pgame):
    """Done: blue may give no order; the old row of buttons is closed (a browser would keep
    drawing it) and an empty, hidden one takes its place."""
    t, mv, op = _table(pgame)
    before, children = op.verbs, op.children
    assert before.options == ("move",) and before.layout.display == ""
    op.done_button.click()
    assert op.verbs.options == () and op.verbs.layout.display == "none"
    assert before.comm is None and op.verbs is not before
    assert _rows_of_verbs(op, children) == [op.verbs]
    op.done_button.click()  # not blue's step: still nothing (no new row when nothing changes)
    assert _rows_of_verbs(op, children) == [op.verbs] and op.verbs.comm is not None


def test_verb_buttons_shrinking_to_a_prefix_are_redrawn():
    """The verbs offered shrink to a prefix of the old list (``move, hurry`` -> ``move``): a new
    row of buttons shows exactly ``move`` and still answers clicks; a longer list reuses it."""
    from dataclasses import replace

    import owsnb
    from owsnb.kernel import Game
    from owsnb.kernel.orders import OrderType
    from tests.conftest import DATA
    from tests.widgets.plus import SkirmishPlus

    class Hurry(SkirmishPlus):
        hurry = True

        def legal_orders(self, state, side):
            specs = super().legal_orders(state, side)
            extra = [
                replace(s, type=OrderType("hurry", s.type.params, "S2", "move at the double"))
                for s in specs
                if s.verb == "move" and self.hurry
            ]
            return [*specs, *extra]

    rules = Hurry()
    g = owsnb.load(DATA / "skirmish.yaml", seed=11, save=False)
    t, mv, op = _table(Game(rules, g.initial, meta=g.meta))
    first, children = op.verbs, op.children
    assert first.options == ("move", "hurry")
    rules.hurry = False
    t.refresh()
    assert op.verbs.options == ("move",) and first.comm is None
    assert _rows_of_verbs(op, children) == [op.verbs] and op.verbs.layout.display == ""
    op.verbs.value = "move"  # the new row is observed
    assert op.spec is not None and op.spec.verb == "move" and "unit: " in op.info.value
    second = op.verbs
    rules.hurry = True
    t.refresh()
    assert op.verbs is second and op.verbs.options == ("move", "hurry")
    assert op.verbs.value == "move"
