"""What the table sends: panels out of sight send nothing until shown, unchanged panels send
nothing, a changed widget sends one message."""

from __future__ import annotations

from collections import Counter

from owsnb.widgets import App
from owsnb.widgets.wire import MessageLog, widget_tree


def _senders(app, log):
    """Which part of the App each message came from (by model id)."""
    owner = {}
    for name, part in app.parts.items():
        extra = part.extra_widgets() if hasattr(part, "extra_widgets") else []
        for w in widget_tree(part, *extra):
            owner.setdefault(w.model_id, name)
    return Counter(owner.get(m.comm_id, "?") for m in log.messages)


def test_hidden_panels_send_nothing_and_catch_up_when_shown(pgame):
    app = App(pgame, seat="blue", curtain=False)
    td, dash = app.parts["distance"], app.parts["dashboard"]
    assert app.tabs.selected_index == 0 and not td.shown and not dash.shown
    with MessageLog() as log:
        app.table.pick(unit="B-INF-1")
        app.orders.submit()  # incomplete: explained, not sent
        app.orders.reset()
        app.table.pick(unit="B-ARM-1")
        app.table.pick(hex="0504")
        app.orders.submit()
    assert pgame.unit("B-ARM-1").hex == pgame.hex("0504")
    sent = _senders(app, log)
    assert not {"distance", "dashboard", "dice", "notes"} & set(sent), sent
    app.table.pick(unit="B-REC-1")
    assert td.stale and "reach this turn" not in td.out.value
    with MessageLog() as log:
        app.show_tab("distance")
    assert td.shown and not td.stale and app.orders.shown is False
    assert "reach this turn" in td.out.value and td.unit.value == "B-REC-1"  # drawn now
    sent = _senders(app, log)
    assert set(sent) == {"distance", "?"} and sent["?"] == 1  # and the tab bar itself
    assert len(log.comm_ids()) == len(log)  # one message per widget that changed


def test_the_order_panel_keeps_preparing_orders_while_hidden(pgame):
    app = App(pgame, seat="blue", curtain=False)
    app.show_tab("dashboard")
    op = app.orders
    with MessageLog() as log:
        app.table.pick(unit="B-ARM-1")
        app.table.pick(hex="0504")
    assert op.values == {"unit": "B-ARM-1", "to": "0504"}  # the clicks still fill the order
    assert str(app.table.order) == "blue: move B-ARM-1 0504"
    assert app.map.overlays["arrow"].data["features"]  # the map draws it
    orders = {w.model_id for w in widget_tree(op, *op.extra_widgets())}
    # a new editor opens (a widget cannot be made later than that), and nothing else is sent
    assert {m.msg_type for m in log.messages if m.comm_id in orders} <= {"comm_open"}
    assert "map" in _senders(app, log)
    with MessageLog() as log:
        app.show_tab("orders")
    sent = _senders(app, log)
    # its held changes, now (and the tab bar); the dashboard leaving sight takes its charts out
    # of the page (bqplot cannot lay out a figure in a hidden tab): its box and its hook box
    assert set(sent) == {"orders", "?", "dashboard"} and sent["dashboard"] == 2
    assert len(log.comm_ids()) == len(log)
    assert "blue: move B-ARM-1 0504" in op.info.value
    app.orders.submit()
    assert pgame.unit("B-ARM-1").hex == pgame.hex("0504")


def test_nothing_changed_nothing_sent(pgame):
    app = App(pgame, seat="blue", curtain=False)
    app.table.pick(unit="B-ARM-1")
    for name in ("distance", "dashboard", "dice", "notes", "orders"):
        app.show_tab(name)
    with MessageLog() as log:
        app.table.refresh()  # a new view, the same game
        app.table.pick(unit="B-ARM-1")  # the same selection again
        for name in ("distance", "dashboard", "dice", "notes", "orders"):
            app.show_tab(name)  # nothing went stale
    dash = app.parts["dashboard"]
    tabs = [m for m in log.messages if m.comm_id == app.tabs.model_id]
    others = [m for m in log.messages if m.comm_id != app.tabs.model_id]
    assert len(tabs) == 5
    # the dashboard's charts come into the page with its tab and leave with it (bqplot cannot lay
    # out a figure in a hidden tab): its box and its hook box, twice; nothing else is sent
    assert sorted(m.comm_id for m in others) == sorted([dash.model_id, dash.hook_box.model_id] * 2)


def test_a_submitted_move_sends_one_message_per_changed_widget(pgame):
    app = App(pgame, seat="blue", curtain=False)
    app.table.pick(unit="B-ARM-1")
    app.table.pick(hex="0504")
    with MessageLog() as log:
        app.orders.submit()
    assert len(log.comm_ids()) == len(log)
    assert set(_senders(app, log)) <= {"map", "orders", "history", "?"}
    assert app.table.unit is None and app.map.overlays["reach"].data["features"] == []


def test_a_new_seat_finds_nothing_of_the_last_in_hidden_tabs(pgame):
    app = App(pgame, seat="red", curtain=False)
    app.show_tab("dashboard")  # red's orders panel out of sight: its messages are held
    app.table.pick(unit="R-REC-1")
    with MessageLog() as log:
        app.switch("blue")
    sent = log.comm_ids()
    assert app.orders.clock.model_id in sent  # blue's clock line now, not when the tab is chosen
    assert "blue acts" in app.orders.clock.value
    for name in ("distance", "dice", "notes"):
        assert not app.parts[name].stale  # redrawn for blue although out of sight


def _opened(log, model: str) -> int:
    return sum(
        1
        for m in log.messages
        if m.msg_type == "comm_open" and (m.data or {}).get("state", {}).get("_model_name") == model
    )


def test_a_move_into_the_hex_picked_leaves_the_status_line_alone(pgame):
    """The status line says what the map does not show (hex, terrain, features, overlay label):
    the counters are the units, so the move that fills the hex picked sends it nothing."""
    app = App(pgame, seat="blue", curtain=False)
    app.table.pick(unit="B-ARM-1")
    app.table.pick(hex="0504")
    before = app.map.status.value
    with MessageLog() as log:
        app.orders.submit()
    assert pgame.unit("B-ARM-1").hex == pgame.hex("0504")
    assert app.map.status.model_id not in log.comm_ids() and app.map.status.value == before
    assert before.startswith("<b>0504</b> · ")


def test_stacks_that_form_and_split_reuse_markers(pgame):
    """A stack that forms or splits moves a marker whose stack is gone instead of closing it and
    opening another: a merge closes one marker and opens none, a split opens only the one more."""
    app = App(pgame, seat="blue", curtain=False)
    mv = app.map
    markers = set(mv.units.layers)
    with MessageLog() as log:
        pgame.submit("blue: move B-INF-1 0204")  # onto B-ARM-1: one stack of two
    assert _opened(log, "LeafletMarkerModel") == 0 and len(mv.units.layers) == len(markers) - 1
    with MessageLog() as log:
        pgame.submit("blue: move B-ARM-1 0504")  # and apart again
    assert _opened(log, "LeafletMarkerModel") == 1  # two stacks from one: one more marker
    assert not [m for m in log.messages if m.msg_type == "comm_close"]  # none closed
    assert len(mv.units.layers) == len(markers)
    assert {"0204", "0504"} <= {m._owsnb_hex for m in mv.units.layers}  # each where it stands


def test_a_new_row_of_verbs_opens_no_layout(pgame):
    app = App(pgame, seat="blue", curtain=False)
    old = app.orders.verbs
    with MessageLog() as log:
        pgame.submit("blue: done")  # blue may give no order now: the row is replaced
    assert app.orders.verbs is not old and app.orders.verbs.options == ()
    assert _opened(log, "LayoutModel") == 0
    assert app.orders.verbs.layout.display == "none"


def test_verbs_that_change_other_than_to_a_prefix_are_redrawn_in_place():
    """OWS 3.A.1: after a ship's move Red's verbs go from defer, move, emcon, asw-mode,
    intercept to move, emcon, intercept — not a prefix, so the browser redraws the same row
    (one message); only a list cut to a prefix (or to nothing) needs a new row."""
    import owsnb

    game = owsnb.load("tutorial", seed=7, save=False)
    for _ in range(60):
        if "red" in game.clock.acting and any(s.verb == "move" for s in game.legal_orders("red")):
            break
        game.submit(f"{next(s for s in game.clock.acting if s not in game.clock.done)}: done")
    app = App(game, seat="red", curtain=False)
    op, t = app.orders, app.table
    row = op.verbs
    before = tuple(row.options)
    uid = "R-052D-1"
    t.pick(unit=uid)
    here = game.state.units[uid].hex
    dest = next(h for h in game.ruleset.presentation.reach(t.view, uid) if h.distance(here) == 2)
    t.pick(hex=game.map.label(dest))
    with MessageLog() as log:
        assert op.submit() is not None
    after = tuple(op.verbs.options)
    assert len(after) < len(before) and after != before[: len(after)]
    assert op.verbs is row and row.comm is not None  # the same row, redrawn in place
    assert _opened(log, "ToggleButtonsModel") == 0
    assert [m for m in log.messages if m.comm_id == row.model_id]  # its options were sent
