"""Results and previews are tabled without the word ``None``: a missing value is an em dash."""

from __future__ import annotations

import re

import owsnb
from owsnb.display.html import NONE, esc, table_html
from owsnb.widgets.render import submission_html


def _visible(html: str) -> str:
    """The HTML a reader sees: without the hidden text fallback and the stylesheet."""
    html = re.sub(r"<pre class='owsnb-fallback'>.*?</pre>", "", html, flags=re.S)
    return re.sub(r"<style>.*?</style>", "", html, flags=re.S)


def _first_move(game):
    """Play ``done`` until a side may move a unit; that side and its move spec."""
    for _ in range(60):
        for side in game.clock.acting:
            for spec in game.legal_orders(side):
                if spec.verb == "move" and spec.candidates.get("unit"):
                    return side, spec
        side = next(s for s in game.clock.acting if s not in game.clock.done)
        game.submit(f"{side}: done")
    raise AssertionError("no move offered")


def test_an_ows_move_result_shows_a_dash_not_none_for_halted_6_4():
    game = owsnb.load("tutorial", seed=7, save=False)
    side, spec = _first_move(game)
    unit = list(spec.candidates["unit"])[0]
    here = game.state.units[unit].hex
    reach = game.ruleset.presentation.reach(game.view(side), unit)
    dest = next(h for h in sorted(reach, key=lambda h: (h.distance(here) != 2, h)) if h != here)
    sub = game.submit(f"{side}: move {unit} {game.map.label(dest)}")
    assert sub.result.outcome["halted"] is None  # nothing stopped it ...
    shown = _visible(submission_html(sub))
    assert f"<th>halted</th><td>{NONE}</td>" in shown  # ... and the table says so with a dash
    assert not re.search(r">\s*None\s*<", shown)


def test_table_cells_and_escapes_read_none_as_a_dash():
    assert esc(None) == NONE and esc("None") == "None"  # only a missing value, not the text
    html = _visible(table_html([{"mode": "rail", "turns": None}], columns=["mode", "turns"]))
    assert f"<td>{NONE}</td>" in html and ">None<" not in html


def test_ows_transit_rows_without_a_route_show_dashes_5_1_1_4():
    from owsnb.rules.ows.timedistance import transit

    game = owsnb.load("tutorial", seed=7, save=False)
    ground = next(u for u in game.state.units.values() if u.kind.endswith("-bde") and u.hex)
    far = max(game.state.map.hexes, key=lambda h: h.distance(ground.hex))
    rows = transit(game, ground.id, far)
    assert any(r["turns"] is None for r in rows)  # some mode cannot get there
    shown = _visible(rows._repr_html_())
    assert NONE in shown and ">None<" not in shown


def test_a_result_in_a_panel_sends_no_stylesheet_and_no_text_fallback():
    """A rich result drawn in the order panel is sent without the notebook renderer's stylesheet
    (the panels' style widget carries it once) and without its hidden text fallback."""
    from owsnb.display.html import CSS as DISPLAY_CSS
    from owsnb.widgets.render import style_widget

    game = owsnb.load("tutorial", seed=7, save=False)
    side, spec = _first_move(game)
    unit = list(spec.candidates["unit"])[0]
    here = game.state.units[unit].hex
    reach = game.ruleset.presentation.reach(game.view(side), unit)
    dest = next(h for h in sorted(reach, key=lambda h: (h.distance(here) != 2, h)) if h != here)
    sub = game.submit(f"{side}: move {unit} {game.map.label(dest)}")
    full = sub.result._repr_html_()
    shown = submission_html(sub)
    assert "<style>" in full and "owsnb-fallback" in full  # the notebook's own rendering
    assert "<style>" not in shown and "owsnb-fallback" not in shown
    assert "<th>halted</th>" in shown and len(shown) < len(full)
    assert DISPLAY_CSS in style_widget().value  # its rules still reach the page, once
