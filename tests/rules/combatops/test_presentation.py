"""Presentation hooks (counters, tooltips, reach, ranges, dashboard) and rich reprs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from owsnb.display.symbols import unit_svg
from owsnb.rules.combatops import RULESET
from owsnb.rules.combatops.present import terrain_style

from .conftest import game, to_step


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_terrain_styles_cover_the_map_terrains():
    for t in ("clear", "woods", "swamp", "town"):
        assert re.fullmatch(r"#[0-9a-f]{6}", terrain_style(t)["fillColor"])
    assert len({terrain_style(t)["fillColor"] for t in ("clear", "woods", "swamp", "town")}) == 4


def test_counters_front_for_own_units_back_for_face_down_enemies(blue_attack):
    g = blue_attack
    blue, red = g.view("blue"), g.view("red")
    reg = blue.unit("B-1A/2")
    front = str(unit_svg(RULESET, reg, blue, 48))
    assert {"12", "9", "4"} <= set(texts(front))
    assert RULESET.presentation.counter(reg, blue).echelon == "regiment"  # III over the frame
    back_unit = next(u for u in red.units.values() if u.hex == reg.hex)
    back = str(unit_svg(RULESET, back_unit, red, 48))
    assert texts(back) == ["4"]  # only the movement rate (2.1)
    assert "B-1A/2" not in back and "Armored" not in back
    dummy = blue.unit("B-D1")
    assert "D" in texts(str(unit_svg(RULESET, dummy, blue, 48)))  # its owner sees a dummy


def test_tooltips_tell_each_seat_what_it_may_know(blue_attack):
    g = blue_attack
    blue, red = g.view("blue"), g.view("red")
    own = dict(RULESET.presentation.unit_summary(blue.unit("B-E/36"), blue))
    assert own["attack-defense-movement"] == "2-2-3" and own["supply"] == "in supply"
    assert "placeholders" in own["note"]
    seen = next(u for u in red.units.values() if u.side == "blue")
    rows = dict(RULESET.presentation.unit_summary(seen, red))
    assert rows["counter"] == "face down (2.1)" and set(rows) == {
        "counter",
        "type",
        "movement",
        "hex",
    }


def test_reach_and_ranges_hooks(blue_attack):
    g = to_step(blue_attack, "A3")
    view = g.view("blue")
    r = RULESET.presentation.reach(view, "B-Cav/36")
    assert r and max(r.values()) <= 4 and min(r.values()) == 0
    enemy = next(u for u in view.units.values() if u.side == "red")
    assert RULESET.presentation.reach(view, enemy.id) is None
    rings = RULESET.presentation.ranges(view, "B-A1/36")
    assert rings[0]["kind"] == "weapon" and rings[0]["hexes"] == 3 and rings[-1]["kind"] == "zoc"


def test_dashboard_shows_own_secrets_only(red_attack):
    g = red_attack
    d_blue = RULESET.presentation.dashboard(g.view("blue"))
    assert d_blue["cup"]["remaining"] == list(range(1, 11)) and d_blue["cup"]["end_chit"] == "10+"
    assert (
        "reinforcements" in d_blue["forces"]["blue"]
        and "reinforcements" not in d_blue["forces"]["red"]
    )
    assert d_blue["forces"]["blue"]["battalions"] == {"remaining": 11, "baseline": 11}
    ump = RULESET.presentation.dashboard(g.view("umpire"))
    assert "reinforcements" in ump["forces"]["red"]


def test_combat_result_html_is_escaped():
    g = to_step(
        game(
            [
                {"id": "B-<b>", "type": "b-inf-bn-36", "side": "blue", "hex": "D3"},
                {"id": "R-I", "type": "r-inf-bn-49", "side": "red", "hex": "E3"},
            ]
        ),
        "A4",
    )
    res = g.submit("blue: attack E3 with=B-<b>").result
    html = res._repr_html_()
    assert "B-&lt;b&gt;" in html and "<b>B-<b>" not in html and "1-1" in html
