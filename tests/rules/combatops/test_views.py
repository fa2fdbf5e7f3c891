"""Face-down counters (2.1): the enemy sees type and movement only, in views, presentation hooks,
encoded views and the live widgets' synced state."""

from __future__ import annotations

import json

import numpy as np
import pytest

from owsnb.display.symbols import unit_svg
from owsnb.kernel.codec import dumps
from owsnb.rules.combatops import RULESET
from owsnb.testing import find_leaks, hidden_tokens, random_playout

from .conftest import BLUE_ATTACK, RED_ATTACK, game, load, to_step


def test_2_1_enemy_counters_show_only_type_and_movement(blue_attack):
    red = blue_attack.view("red")
    blue_in_red = [u for u in red.units.values() if u.side == "blue"]
    assert len(blue_in_red) == sum(
        1 for u in blue_attack.state.units.values() if u.side == "blue" and u.hex
    )
    for u in blue_in_red:
        true = next(
            t
            for t in blue_attack.state.units.values()
            if t.side == "blue" and t.hex == u.hex and t.data["utype"] == u.kind
        )
        assert u.id.startswith("unknown-") and u.name == "" and (u.steps, u.max_steps) == (1, 1)
        assert dict(u.data) == {"utype": true.data["utype"], "ma": true.data["ma"]}
        assert not u.markers and not u.seen_by


def test_2_1_a_dummy_looks_exactly_like_a_real_regiment(blue_attack):
    red = blue_attack.view("red")
    dummy = blue_attack.state.units["B-D1"]  # dummy armor regiment, MA 4
    real = blue_attack.state.units["B-1A/2"]
    vd = next(u for u in red.units.values() if u.hex == dummy.hex)
    vr = next(u for u in red.units.values() if u.hex == real.hex)
    assert (vd.kind, dict(vd.data), vd.steps) == (vr.kind, dict(vr.data), vr.steps)


def test_show_echelon_option_adds_only_the_echelon():
    g = load(BLUE_ATTACK, seed=1, show_echelon=True)
    shown = {dict(u.data).get("echelon") for u in g.view("red").units.values() if u.side == "blue"}
    assert shown == {"regiment", "battalion"}


def test_enemy_reinforcements_off_the_map_are_invisible(red_attack):
    blue = red_attack.view("blue")
    assert not [
        u for u in blue.units.values() if u.side == "red"
    ]  # all of Red waits off the map (17.1)
    red = red_attack.view("red")
    assert not [u for u in red.units.values() if u.side == "blue" and u.hex is None]


def test_11_0_units_revealed_in_combat_stay_revealed():
    g = to_step(
        game(
            [
                {"id": "B-I", "type": "b-inf-bn-36", "side": "blue", "hex": "D3"},
                {"id": "R-I", "type": "r-inf-bn-49", "side": "red", "hex": "E3"},
            ]
        ),
        "A4",
    )
    g.submit("blue: attack E3 with=B-I")
    assert (
        g.view("blue").unit("R-I").data["dfn"] == 3 and g.view("red").unit("B-I").data["atk"] == 3
    )
    g.submit("blue: done")
    to_step(g, "A2")
    assert g.clock.turn == 2
    assert (
        g.view("red").unit("B-I").data["atk"] == 3
    )  # still face up a turn later (owsnb ruling #33)


def _payload(g, side):
    """Everything a seat's display could be sent: view, hooks, legal orders, previews."""
    view = g.view(side)
    wire = {
        "units": view.units,
        "events": view.events[-30:],
        "public": view.public,
        "sides": view.sides,
    }
    out = {
        "view": json.loads(dumps(wire)),
        "obs": RULESET.observation_string(view),
        "dashboard": RULESET.presentation.dashboard(view),
        "units": [],
    }
    own = 0
    for u in view.units.values():
        out["units"].append(
            [
                str(unit_svg(RULESET, u, view, 48)),
                RULESET.presentation.unit_summary(u, view),
                RULESET.presentation.ranges(view, u.id),
            ]
        )
        if u.side == side and u.hex is not None and own < 3:  # reach is only drawn for own units
            own += 1
            out["units"].append(
                {str(k): v for k, v in (RULESET.presentation.reach(view, u.id) or {}).items()}
            )
    if side in g.clock.acting:
        legal = g.legal_orders(side)
        out["legal"] = [
            [s.verb, dict(s.candidates), [str(o) for o in s.examples], s.note] for s in legal
        ]
        for s in legal:
            for o in s.examples[:2]:
                try:
                    out.setdefault("previews", []).append(repr(g.preview(o)))
                except Exception:  # noqa: BLE001 - a preview may refuse an order; nothing to scan then
                    pass
    return out


@pytest.mark.parametrize("path", [RED_ATTACK, BLUE_ATTACK], ids=["17.1", "17.2"])
def test_no_seat_payload_names_a_face_down_unit(path):
    g = load(path, seed=4)
    checked = []

    def scan(game):
        for side in game.state.sides:
            tokens = hidden_tokens(game.state, side, game.ruleset)
            leaks = find_leaks(_payload(game, side), tokens)
            assert leaks == [], f"{side} after event {game.seq}: {leaks[:3]}"
            checked.append(bool(tokens))

    report = random_playout(g, max_orders=40, seed=8, extra_checks=[scan])
    assert len(report.orders) == 40 and sum(checked) >= 40  # the scans had hidden units to look for


def test_widgets_of_the_enemy_seat_hold_no_face_down_values():
    from owsnb.widgets import App
    from owsnb.widgets.wire import MessageLog, synced_state

    g = load(BLUE_ATTACK, seed=6)
    with MessageLog() as log:
        app = App(g, seat="red", curtain=False)
    assert find_leaks([m.data for m in log.messages], hidden_tokens(g.state, "red", RULESET)) == []
    rng = np.random.default_rng(2)
    scanned = []

    def scan(game):
        t = app.table
        units = [u for u in t.view.units.values() if u.hex is not None]
        with MessageLog() as step:
            t.pick(unit=units[int(rng.integers(len(units)))].id)
            t.show_ranges = bool(rng.random() < 0.5)
        tokens = hidden_tokens(game.state, "red", RULESET)
        assert find_leaks(synced_state(app), tokens) == [], f"after event {game.seq}"
        assert find_leaks([m.data for m in step.messages], tokens) == []
        scanned.append(len(tokens))

    random_playout(g, max_orders=25, seed=1, extra_checks=[scan])
    assert scanned and min(scanned) > 5
    app.close()
