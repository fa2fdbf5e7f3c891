"""The shared widgets play Combat Operations: clicks choose verbs and fill parameters from the
rule set's order specs (no rule logic in the widgets)."""

from __future__ import annotations

from owsnb.rules.combatops.terrain import parse_hex

from .conftest import BLUE_ATTACK, at, load


def test_moving_and_attacking_by_clicking_the_map():
    from owsnb.widgets import App

    g = load(BLUE_ATTACK, seed=23)
    for o in ("blue: done", "red: done", "red: done", "blue: done"):
        g.submit(o)
    app = App(g, seat="blue", curtain=False)
    t, panel = app.table, app.orders
    assert g.clock.step == "A2"
    panel.done()  # the Done button in step 2 draws the chit (4.0)
    assert g.clock.step == "A3" and len(g.state.public["cup"]) == 9
    t.pick(unit="B-1A/2")
    assert panel.verbs.value == "move"
    t.pick(hex=g.map.label(parse_hex(g.map, "O9")))
    panel.submit()
    assert at(g, "B-1A/2") == "O9"
    panel.done()
    n8 = parse_hex(g.map, "N8")
    enemy = next(u.id for u in t.view.units.values() if u.hex == n8)  # a face-down alias
    assert enemy.startswith("unknown-")
    t.pick(unit="B-1A/2")
    assert panel.verbs.value == "attack"
    t.pick(hex=g.map.label(n8), unit=enemy)  # clicking the enemy counter names the hex attacked
    assert panel.values == {"with": ("B-1A/2",), "hex": g.map.label(n8)}
    sub = panel.submit()
    assert sub is not None and sub.result.dummies == ["R-D1"]
    app.close()
