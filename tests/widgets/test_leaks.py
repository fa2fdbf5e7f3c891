"""Hidden information: nothing a seat has not detected reaches its widgets' synced state, nor any
comm message sent to its browser, through a whole random game with clicks, time travel, hot-seat
switches and the other side's private notes."""

from __future__ import annotations

import numpy as np
import pytest

from owsnb.kernel.hexgrid import Hex
from owsnb.testing import Position, find_leaks, hidden_tokens, random_playout
from owsnb.widgets import App
from owsnb.widgets.wire import MessageLog, synced_state, widget_tree

SECRET = "Operation Zebra crossing"  # a red-only note: must never reach blue's browser


def _tokens(game, side):
    return hidden_tokens(game.state, side, game.ruleset) | {SECRET}


def _poke(app, rng):
    """Click around like a player: counters, hexes, reach, ranges, the history slider, and a tab
    (a panel out of sight draws nothing, so every one must come in sight to be scanned)."""
    app.show_tab(app.tabs.titles[int(rng.integers(len(app.tabs.titles)))])
    t = app.table
    view = t.view
    units = [u for u in view.units.values() if u.hex is not None]
    if units:
        u = units[int(rng.integers(len(units)))]
        t.pick(unit=u.id)
    labels = list(view.map.hexes)
    t.pick(hex=view.map.label(labels[int(rng.integers(len(labels)))]))
    t.show_ranges = bool(rng.random() < 0.5)
    h = app.parts["history"]
    if rng.random() < 0.3 and h.slider.max > 0:
        h.slider.value = int(rng.integers(h.slider.max + 1))
        h.present()


def test_blue_widgets_never_hold_what_blue_has_not_seen(pgame):
    pgame.annotate(SECRET, side="red", hex="0803")
    with MessageLog() as log:
        app = App(pgame, seat="blue", curtain=False)
    assert find_leaks([m.data for m in log.messages], _tokens(pgame, "blue")) == []
    rng = np.random.default_rng(5)
    checked = []

    def scan(game):
        with MessageLog() as step:
            _poke(app, rng)
        tokens = _tokens(game, "blue")
        leaks = find_leaks(synced_state(app), tokens)
        assert leaks == [], f"after event {game.seq}: {leaks[:3]}"
        assert find_leaks([m.data for m in step.messages], tokens) == []
        seen_red = [u.id for u in game.view("blue").units.values() if u.side == "red"]
        placed = any(isinstance(t, Position) for t in tokens)
        checked.append((game.seq, bool(seen_red) and bool(tokens - {SECRET}), placed))

    report = random_playout(pgame, max_orders=45, seed=3, extra_checks=[scan])
    assert len(checked) == len(report.orders) == 45
    # at some points blue saw some red units while others stayed hidden: the scan told them apart
    assert sum(mixed for _, mixed, _ in checked) >= 2
    assert sum(placed for _, _, placed in checked) >= 20  # hidden units' places were looked for too


def test_hot_seat_switch_back_leaves_nothing_of_the_other_side(pgame):
    pgame.annotate(SECRET, side="red")
    app = App(pgame, seat="blue", curtain=True)
    app.switch("red")
    red_view = app.table.view
    assert all(u.side == "red" for u in red_view.units.values())
    app.table.pick(unit="R-REC-1")  # red looks at its own units, opens overlays and notes
    for tab in ("notes", "distance", "dashboard", "dice"):
        app.show_tab(tab)
    assert any(SECRET in str(s) for s in synced_state(app).values())
    app.show_tab("orders")  # red's notes go out of sight, but their widgets still hold them
    app.switch("blue")
    app._show()
    assert find_leaks(synced_state(app), _tokens(pgame, "blue")) == []
    # the counters of the red seat were closed, not just hidden: no stale model keeps them
    open_ids = {w.model_id for w in widget_tree(app)}
    assert all(m.model_id in open_ids for m in app.map.units.layers)


def test_the_umpire_sees_everything(pgame):
    pgame.annotate(SECRET, side="red")
    app = App(pgame, seat="umpire")
    for name in app.tabs.titles:  # every tab made (a tab is made when first chosen)
        app.show_tab(name)
    state = str(synced_state(app))
    for uid in pgame.state.units:
        assert uid in state
    assert SECRET in state
    # the scanner does catch what a blue browser must not hold
    assert find_leaks(synced_state(app), _tokens(pgame, "blue"))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scenario", "face_down"),
    [("strait", False), ("strait", True), ("tutorial", False)],
    ids=["strait-hidden", "strait-face-down", "tutorial"],
)
def test_ows_blue_table_holds_nothing_blue_has_not_seen(scenario, face_down):
    """OWS: its counters, face-down "Unknown" counters (8.4.1), TACSIT 1; the teaching strait
    and the bundled tutorial."""
    import owsnb
    from owsnb.rules.ows import examples as ows

    where = ows.STRAIT if scenario == "strait" else scenario
    game = owsnb.load(where, seed=1, save=False, options={"face_down": face_down})
    app = App(game, seat="blue", curtain=False)
    rng = np.random.default_rng(2)
    known: set[str] = set()  # a unit blue has seen once is no secret in its old events
    unknown_counters = []

    def scan(g):
        view = app.table.view
        known.update(view.units)
        with MessageLog() as step:
            _poke(app, rng)
        tokens = hidden_tokens(g.state, "blue", g.ruleset) - known
        tokens -= {g.state.units[u].name for u in known if u in g.state.units}
        assert find_leaks(synced_state(app), tokens) == [], f"after event {g.seq}"
        assert find_leaks([m.data for m in step.messages], tokens) == []
        unknown_counters.append(sum("owsnb-face-down" in m.icon.html for m in app.map.units.layers))

    random_playout(game, max_orders=50, seed=4, extra_checks=[scan])
    assert len(unknown_counters) == 50
    assert (
        max(unknown_counters) > 0
    ) == face_down  # face down: blue sees counters, not who they are


def test_the_order_panel_keeps_nothing_of_the_last_seat(pgame):
    """What a seat picked (the order line, kept editors) goes with a change of seat: the next
    seat's panel — its widgets in sight and those kept out of sight — names none of the last
    seat's units."""
    app = App(pgame, seat="blue", curtain=False)
    pgame.submit("blue: done")  # red moves now
    app.switch("red")
    app.table.pick(unit="R-REC-1")
    assert "R-REC-1" in app.orders.info.value  # red's move, the unit clicked
    made = app.orders.extra_widgets()
    app.switch("blue")
    # kept editors are closed, browser models too (the shared layouts and styles hold no text)
    assert all(e.comm is None for e in made)
    kept = [synced_state(w) for w in widget_tree(app.orders, *app.orders.extra_widgets())]
    assert find_leaks(kept, _tokens(pgame, "blue")) == []
    app.switch("red")
    app.table.pick(unit="R-REC-1")
    assert all(w.comm is not None for w in widget_tree(app.orders, *app.orders.extra_widgets()))


# -- the scanner itself: whole-token ids, positions where a payload places a unit ------------------
def test_a_hidden_units_position_is_the_point_its_marker_would_stand_on(pgame):
    """A unit blue does not see gives away its hex through a counter at its place: the umpire's
    markers are caught, by [lat, lon] exactly as the map rounds them; blue's own map holds none."""
    from owsnb.widgets import geometry as G

    tokens = hidden_tokens(pgame.state, "blue", pgame.ruleset)
    positions = {t for t in tokens if isinstance(t, Position)}
    red = [u for u in pgame.state.units.values() if u.side == "red"]
    # none of them seen, none stacked with blue
    assert positions == {pgame.state.map.label(u.hex) for u in red}
    umpire = App(pgame, seat="umpire", curtain=False)
    for p in positions:
        assert p.point == tuple(G.point(umpire.map.geo, Hex(*p.hex)))
    caught = find_leaks(synced_state(umpire), positions)
    assert sorted(x.split("'")[1] for x in caught) == sorted(positions)
    assert all(" in location " in x for x in caught)
    assert find_leaks(synced_state(App(pgame, seat="blue", curtain=False)), positions) == []


def test_a_hex_the_side_knows_otherwise_is_no_secret(pgame):
    """Blue pins a note on the hex a hidden red unit holds: the pin stands there because blue put
    it there. Named in ``known_hexes`` the hex is no secret; a blue unit standing there would do
    the same."""
    hidden = pgame.state.units["R-INF-1"]
    label = pgame.state.map.label(hidden.hex)
    pgame.annotate("suspected enemy", side="blue", hex=label)
    app = App(pgame, seat="blue", curtain=False)
    state = synced_state(app)
    assert find_leaks(state, hidden_tokens(pgame.state, "blue", pgame.ruleset))  # the pin
    notes = [a.hex for a in pgame.annotations if a.side == "blue" and a.hex is not None]
    told = hidden_tokens(pgame.state, "blue", pgame.ruleset, known_hexes=notes)
    assert find_leaks(state, told) == []
    assert label not in hidden_tokens(pgame.state, "blue", pgame.ruleset, known_hexes=[label])


def test_positions_are_looked_for_only_where_a_unit_is_placed(pgame):
    """Every hex reaches every side (grid, labels, selection, candidates of a move): a label in
    text, a selection or a hex list is no leak; a unit record at the hex is; old events are not."""
    toks = hidden_tokens(pgame.state, "blue", pgame.ruleset)
    label = pgame.state.map.label(pgame.state.units["R-INF-1"].hex)
    h = list(pgame.state.units["R-INF-1"].hex)
    text = {"status": f"{label}: clear", "candidates": [label], "label": label}
    assert find_leaks(text, toks) == []
    assert find_leaks({"events": [{"id": "B-INF-1", "hex": label}]}, toks) == []
    placed = find_leaks({"id": "Unknown-3", "hex": label}, toks)
    assert placed == [f"position {label!r} in hex {label!r}"]
    assert find_leaks({"f": {"id": "X", "hex": {"$h": h}}}, toks)
    assert find_leaks([{"id": "X", "hex": h}], toks)


def test_short_ids_are_whole_tokens():
    """TOCS's German units are G-1..G-6: scanned despite their three letters, found wherever they
    stand alone, never inside another id or word."""
    toks = {"G-1"}
    for text in ("G-1", "G-1 moved", "<div title='G-1'>", "[G-1]", "unit G-1, 3 steps", "G-1; G-2"):
        assert find_leaks({"t": text}, toks), text
    for text in ("G-10", "AG-1", "G-1-2", "XG-1/2", "G-12 and AG-11"):
        assert find_leaks({"t": text}, toks) == [], text
    # one pass: each hit is traced back to its own string
    hits = find_leaks(["a", "G-10", "b G-1"], {"G-1", "G-10"})
    assert hits == ["'G-10' in 'G-10'", "'G-1' in 'b G-1'"]


def test_tocs_german_units_are_scanned_and_stay_hidden():
    """The allied seat's whole table is scanned for the German ids G-1..G-6 and their places;
    the umpire's table shows all of them, so the scan has teeth."""
    import owsnb

    g = owsnb.load("tocs-nijmegen", seed=2, save=False)
    toks = hidden_tokens(g.state, "allied", g.ruleset)
    assert {"G-1", "G-2", "G-3", "G-4", "G-5", "G-6"} <= toks
    allied = App(g, seat="allied", seats=("allied",), curtain=False)
    assert find_leaks(synced_state(allied), toks) == []
    umpire = App(g, seat="umpire", curtain=False)
    caught = " ".join(find_leaks(synced_state(umpire), toks))
    assert all(f"'G-{i}'" in caught for i in range(1, 7)) and "position" in caught
