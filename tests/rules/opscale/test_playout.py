"""Conformance: random play-outs of the River Valley scenario (invariants, views never leak,
replay gives the same state), the widgets on this rule set, and rule-set isolation."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import owsnb
from owsnb.testing import find_leaks, hidden_tokens, random_playout

from .conftest import ROOT


def _no_open_engagement_left_behind(game):
    from owsnb.rules.opscale.engagement import record

    rec = record(game.state)
    if rec is not None:
        assert game.state.clock.step == "5", "an engagement is open outside the Combat Phase"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_river_valley(seed):
    game = owsnb.load("opscale-river-valley", seed=seed, save=False)
    report = random_playout(
        game, max_orders=140, seed=seed, extra_checks=[_no_open_engagement_left_behind]
    )
    assert len(report.orders) >= 100
    assert all(
        "OES.10" in r and ": done" in r for r in report.refused
    )  # 'done' while an engagement is open
    verbs = {o.split(":")[1].split()[0] for o in report.orders}
    assert {"buy", "move", "engage", "done"} <= verbs
    assert game.state.clock.turn >= 3


def test_scenario_campaign_reaches_deployment_and_the_end():
    game = owsnb.load("opscale-river-valley", seed=3, save=False)
    report = random_playout(game, max_orders=500, seed=4, check_views=False)
    assert (
        report.over
        and game.state.clock.turn == 11
        and ("wins" in game.outcome() or "drawn" in game.outcome())
    )
    bought = [e for e in game.events if e.rule == "TS.2" and e.kind == "unit.add"]
    deployed = [e for e in game.events if e.rule == "TS.6" and e.kind == "unit.set"]
    assert bought and deployed
    supply = [
        e
        for e in game.events
        if e.kind == "note" and e.rule in ("GS.1", "TS.3") and "supply" in e.data["text"]
    ]
    assert len(supply) == 2 * 10  # both players paid supply (or were relieved of it) every turn


def test_widgets_on_this_rule_set_never_show_blue_what_it_has_not_seen():
    from owsnb.widgets import App
    from owsnb.widgets.wire import MessageLog, synced_state

    game = owsnb.load("opscale-river-valley", seed=8, save=False)
    game.submit("blue: buy armour-bn xp=1")
    with MessageLog() as log:
        app = App(game, seat="red", curtain=False)
    rng = np.random.default_rng(2)
    scanned = []

    def scan(g):
        t = app.table
        units = [u for u in t.view.units.values() if u.hex is not None]
        if units:
            t.pick(unit=units[int(rng.integers(len(units)))].id)
        tokens = hidden_tokens(g.state, "red", g.ruleset)
        assert find_leaks(synced_state(app), tokens) == []
        scanned.append(bool(tokens))

    random_playout(game, max_orders=40, seed=6, extra_checks=[scan])
    assert (
        find_leaks([m.data for m in log.messages], hidden_tokens(game.state, "red", game.ruleset))
        == []
    )
    assert any(scanned)
    app.close()


def test_importing_opscale_imports_no_other_rule_set():
    code = (
        "import sys, owsnb.rules.opscale, owsnb\n"
        "g = owsnb.load('opscale-river-valley', seed=1, save=False)\n"
        "g.submit('blue: done'); g.preview('blue: buy infantry-bn xp=1')\n"
        "other = sorted(m for m in sys.modules if m.startswith('owsnb.rules.') and not "
        "m.startswith('owsnb.rules.opscale') and m != 'owsnb.rules.tables')\n"
        "print(','.join(other))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == ""


def test_the_app_on_this_scenario_imports_no_other_rule_set():
    code = (
        "import sys, owsnb\nfrom owsnb.widgets import App\n"
        "g = owsnb.load('opscale-river-valley', seed=1, save=False)\n"
        "app = App(g, seat='blue'); app.table.pick(unit='B-TANK-1')\n"
        "other = sorted(m for m in sys.modules if m.startswith('owsnb.rules.') and not "
        "m.startswith('owsnb.rules.opscale') and m != 'owsnb.rules.tables')\n"
        "print(','.join(other))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == ""


def test_a_saved_campaign_resumes_exactly(tmp_path):
    path = tmp_path / "campaign.owsnb"
    game = owsnb.load("opscale-river-valley", seed=4, save=path)
    random_playout(game, max_orders=80, seed=2, check_views=False)
    again = owsnb.resume(path)
    assert again.seq == game.seq and again.state == game.state
    side = again.state.clock.acting[0]
    assert again.legal_orders(side).verbs == game.legal_orders(side).verbs
