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
        app.orders.submit()
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
    # its new editors open (a widget cannot be made later than that), and nothing else is sent
    assert {m.msg_type for m in log.messages if m.comm_id in orders} == {"comm_open"}
    assert "map" in _senders(app, log)
    with MessageLog() as log:
        app.show_tab("orders")
    assert set(_senders(app, log)) == {"orders", "?"}  # its held changes, now (and the tab bar)
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
    assert [m.comm_id for m in log.messages] == [app.tabs.model_id] * 5


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
