"""Every bundled scenario opens on every seat's table (each side and the umpire): its counters,
the off-map tray, the orders and one step control."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.scenario import list_scenarios
from owsnb.widgets import App


@pytest.mark.parametrize("scenario", list_scenarios())
def test_every_seat_of_every_scenario_opens_its_table(scenario):
    game = owsnb.load(scenario, seed=3, save=False)
    for seat in (*game.state.sides, "umpire"):
        app = App(game, seat=seat, curtain=False)
        try:
            view = game.view(seat)
            on_map = {u.hex for u in view.units.values() if u.hex is not None}
            assert len(app.map.units.layers) == len(on_map)  # one marker per stack
            off = [u.id for u in view.units.values() if u.hex is None and u.alive]
            listed = [b.description for b in app.map._box_items.values()]
            assert sorted(listed) == sorted(off)
            op = app.orders
            controls = [
                b for b in (op.done_button, op.advance_button) if b.layout.display != "none"
            ]
            assert controls, "no step control"
        finally:
            app.close()
