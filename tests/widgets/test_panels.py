"""Dashboard, time and distance, dice log, notes, history and the App."""

from __future__ import annotations

import pytest

from owsnb.kernel.geo import NM_KM
from owsnb.widgets import App, Dashboard, DiceLog, History, Table, TimeDistancePanel
from owsnb.widgets.annotations import AnnotationPanel
from owsnb.widgets.dashboard import forces_over_turns
from owsnb.widgets.seat import Seat
from tests.widgets.helpers import to_fire_with_contact


def test_forces_and_losses_over_turns_are_what_the_seat_saw(pgame):
    target = to_fire_with_contact(pgame)
    pgame.submit(f"blue: fire B-REC-1 {target}")  # the game's own seeded dice decide
    hit = pgame.unit(target).steps < pgame.unit(target).max_steps
    data = forces_over_turns(Seat.local(pgame, "blue"))
    blue = dict(data["strength"]["blue"])
    assert blue == {0: 6, 1: 6, 2: 6}  # 2 + 3 + 1 steps, no blue losses
    red = dict(data["strength"]["red"])
    assert red[0] is None  # blue had seen no red unit at the start: unknown, not 0
    assert red[2] == sum(u.steps for u in pgame.view("blue").units.values() if u.side == "red")
    assert dict(data["losses"]["red"])[2] == (1 if hit else 0)
    umpire = forces_over_turns(Seat.local(pgame, "umpire"))
    assert dict(umpire["strength"]["red"])[0] == 2 + 3 + 1


def test_dashboard_draws_the_hook_and_the_lines(pgame):
    d = Dashboard(pgame, seat="blue")
    assert "turn" in d.stats.value and ">1<" in d.stats.value
    (fig,) = d.hook_box.children
    assert fig.title == "steps seen"
    mark = fig.marks[0]
    assert list(mark.x) == ["blue"] and list(mark.y) == [6.0]
    assert list(d.lines["strength"]["blue"].labels) == ["blue"]
    assert list(d.lines["strength"]["red"].labels) == []  # nothing of red seen: no line...
    assert "unknown: nothing seen" in d.legends["strength"].value  # ...but named in the legend
    assert d.preview_fig.layout.display == "none" and d.preview_fig not in d.children


def test_time_distance_reach_ranges_and_transit(pgame):
    td = TimeDistancePanel(pgame, seat="blue")
    td.table.pick(unit="B-ARM-1")
    td.table.pick(hex="0504")
    r = td.rows()
    view = pgame.view("blue")
    reach = pgame.ruleset.presentation.reach(view, "B-ARM-1")
    assert r["reach"]["hexes"] == len(reach) and r["reach"]["farthest"] == 3
    assert r["reach"]["km"] == 30.0 and r["reach"]["nm"] == round(30 / NM_KM, 1)
    assert r["ranges"][1] == {
        "#": "②",  # the ring's badge on the map
        "range": "move (S2)",
        "kind": "move",
        "what": "movement, per turn",
        "hexes": 3,
        "km": 30.0,
        "nm": 16.2,
    }
    a, b = pgame.hex("0204"), pgame.hex("0504")
    assert r["distance"]["hexes"] == a.distance(b) == 3
    assert r["distance"]["km"] == pytest.approx(pgame.map.layout.distance_km(a, b), abs=0.05)
    assert r["in_reach"] is True and r["cost"] == reach[b]
    assert r["transit"] == [{"mode": "ground", "hexes": 3, "turns": 1}]
    assert "in reach this turn" in td.out.value and "transit" in td.out.value
    td.table.pick(hex="1007")
    assert td.rows()["in_reach"] is False and "out of reach" in td.out.value
    td.unit.value = "B-INF-1"
    assert td.table.unit == "B-INF-1"


def test_dice_log_lists_only_visible_rolls(pgame):
    target = to_fire_with_contact(pgame)
    pgame.submit(f"blue: fire B-REC-1 {target}")
    log = DiceLog(pgame, seat="blue")
    (row,) = log.rows()
    assert (
        row["die"] == "d4" and row["rule"] == "S3" and row["turn"] == 2 and target in row["purpose"]
    )
    assert "d4" in log.out.value
    log.filter.value = "no such roll"
    assert log.rows() == []


def test_notes_are_written_listed_and_jumped_to(pgame):
    t = Table.of(pgame, "blue")
    p = AnnotationPanel(t)
    pgame.submit("blue: move B-ARM-1 0504")
    t.go_to(0)
    t.pick(unit="B-ARM-1")
    p.text.value = "started here"
    ann = p.add()
    assert (ann.seq, ann.unit, ann.side, ann.hex) == (0, "B-ARM-1", "blue", pgame.hex("0204"))
    t.go_to(None)
    t.pick(hex="0908")
    p.jump(ann.id)
    assert t.at == 0 and t.unit == "B-ARM-1" and t.hex == "0204"
    assert len(p.notes.options) == 1 and "started here" in p.notes.options[0][0]
    p.text.value = "   "
    assert p.add() is None and "write something" in p.message.value


def test_history_slider_steps_through_the_seats_events_and_forks(pgame):
    t = Table.of(pgame, "red")
    h = History(t)
    pgame.submit("blue: move B-ARM-1 0504")  # invisible to red
    pgame.submit("blue: done")
    assert h.points == [0, 1]  # red saw only the clock event, and counts only it
    assert h.slider.description == "present · turn 1 · event 1/1" and h.readout.value == ""
    h.back()
    assert t.at == 0
    assert h.slider.description.startswith("the past") and "start of the game" in h.readout.value
    h.forward()
    assert t.at is None and h.readout.value == ""
    t2 = Table.of(pgame, "blue")
    h2 = History(t2)
    h2.slider.value = 2
    assert t2.view.units["B-ARM-1"].hex == pgame.hex("0504") and t2.at == 2
    seat = h2.fork()
    assert seat is t2.seat and t2.at is None
    assert (
        t2.view.seq == 2 and t2.view.clock.done == frozenset()
    )  # the branch starts after the move
    assert pgame.seq == 3 and pgame.clock.acting == ("red",)  # the game itself goes on unchanged
    h2.slider.value = 1  # inside the move's submission: a fork starts before it
    h2.fork()
    assert t2.view.seq == 0


def test_app_composes_the_table_and_switches_seats(pgame):
    app = App(pgame, seat="blue")
    assert app.seat_buttons.options == ("blue", "red", "umpire")
    assert app.tabs.titles == ("orders", "briefing", "distance", "dashboard", "dice", "notes")
    app.seat_buttons.value = "red"
    assert app.seat.side == "red" and app.body.layout.display == "none"
    app.reveal.click()
    assert app.body.layout.display == ""
    assert sorted(app.table.view.units) == ["R-ARM-1", "R-INF-1", "R-REC-1"]
    with pytest.raises(KeyError):
        app.switch("green")


def test_app_accepts_a_seat_like_object_and_offers_no_switch(pgame):
    app = App(Seat.local(pgame, "blue"))
    assert app.seats == ("blue", "red", "umpire")  # a local seat can still be switched
    remote_like = _Remote(Seat.local(pgame, "red"))
    app2 = App(remote_like)
    assert app2.seats == ("red",) and app2.seat_buttons.layout.display == "none"
    app2.map.table.pick(unit="R-ARM-1")
    assert app2.orders.verbs.options == ()  # red waits while blue moves


class _Remote:
    """A seat-like object that is not a LocalSeat (as the seminar client would be)."""

    def __init__(self, seat):
        self._s = seat
        self.side = seat.side
        self.ruleset = seat.ruleset

    @property
    def state_id(self):
        return self._s.state_id

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._s, name)


def test_time_distance_copes_with_a_selected_unit_leaving_the_map(pgame):
    from dataclasses import replace

    from owsnb.kernel.events import unit_set

    td = TimeDistancePanel(pgame, seat="blue")
    td.table.pick(unit="B-REC-1")
    # the umpire takes the recon off the map (as a destroyed unit goes to a box)
    pgame._commit(
        pgame._parse("umpire: advance"),
        [replace(unit_set("B-REC-1", hex=None, box="destroyed"))],
        None,
    )
    assert td.unit.value == "" and "B-REC-1" not in [v for _, v in td.unit.options]
    assert "unit" not in td.rows()


def test_forces_over_turns_asks_for_each_past_turn_once_and_survives_undo(pgame):
    seat = Seat.local(pgame, "blue")
    calls = []
    real = seat.view_at
    seat.view_at = lambda n: calls.append(n) or real(n)
    cache = {}
    to_fire_with_contact(pgame)
    first = forces_over_turns(seat, cache=cache)
    assert len(calls) == 2  # the start and the end of turn 1
    pgame.submit("blue: done")
    again = forces_over_turns(seat, cache=cache)
    assert len(calls) == 2 and again == first  # nothing new to ask: still turn 2
    while pgame.clock.turn == 2:  # back into turn 1: its end is no longer part of this history
        pgame.undo()
    back = forces_over_turns(seat, cache=cache)
    assert [t for t, _ in back["strength"]["blue"]] == [0, 1]
    while pgame.clock.turn == 1:
        pgame.submit(f"{pgame.clock.acting[0]}: done")
    fresh = forces_over_turns(seat)
    assert forces_over_turns(seat, cache=cache) == fresh


def test_closing_the_app_closes_every_widget_and_stops_listening(pgame):
    from owsnb.widgets.wire import widget_tree

    app = App(pgame, seat="blue")
    app.table.pick(unit="B-ARM-1")  # editors and overlays exist
    made = widget_tree(app, *app.orders.extra_widgets())
    assert len(made) > 100
    app.close()
    assert all(w.comm is None for w in made)
    assert pgame._subs == []  # nothing listens any more
    pgame.submit("blue: move B-ARM-1 0504")  # and nothing breaks when the game goes on
