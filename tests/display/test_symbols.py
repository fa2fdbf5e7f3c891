"""Counters of every rule set drawn from one table of symbols (issue 17: presentation out of the
kernel's ``RuleSet``; issue 20: counters people can read)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import owsnb
from owsnb.display.symbols import FRAMES, MIN_PX, SYMBOLS, TEXT_MIN, counter_svg, min_text
from owsnb.kernel.presentation import Counter, presentation_of
from owsnb.kernel.ruleset import RuleSet

SVG = "{http://www.w3.org/2000/svg}"
SCENARIOS = [
    "tutorial",
    "western-pacific",
    "baltic-ground",
    "opart-kalinovka",
    "combatops-blue-attack",
    "tocs-nijmegen",
    "opscale-river-valley",
]


def test_the_kernels_rule_set_draws_nothing():
    """The kernel's ``RuleSet`` holds no palette and no SVG: a rule set's presentation object
    does (``presentation``; ``None`` gives the defaults)."""
    for name in (
        "terrain_style",
        "counter_svg",
        "unit_summary",
        "reach",
        "ranges",
        "transit",
        "hex_overlay",
        "dashboard",
        "unit_domain",
    ):
        assert not hasattr(RuleSet, name), name
    assert RuleSet.presentation is None
    import inspect

    src = inspect.getsource(__import__("owsnb.kernel.ruleset", fromlist=["x"]))
    assert "<svg" not in src and "fillColor" not in src


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_counter_is_drawn_from_the_table_and_legible(scenario):
    """Every unit of every bundled scenario, as each side and the umpire see it: a known symbol,
    a designation shown whole (never cut), and no text under 9 px at the smallest size."""
    g = owsnb.load(scenario, seed=1, save=False)
    pres = presentation_of(g.ruleset)
    for seat in (*g.state.sides, "umpire"):
        view = g.view(seat)
        for u in view.units.values():
            c = pres.counter(u, view)
            assert isinstance(c, Counter)
            assert c.face_down or c.symbol in SYMBOLS, (u.id, c.symbol)
            svg = counter_svg(c, seat, list(view.sides))
            root = ET.fromstring(svg)
            texts = [t.text for t in root.iter(f"{SVG}text")]
            if c.designation:
                assert c.designation in texts  # whole, never cut
            assert min_text(svg) * MIN_PX / 100 >= 9, (u.id, min_text(svg))


def test_frames_follow_app6_affiliation():
    """APP-6: a friendly land unit in a rectangle, a hostile one in a diamond; the umpire sees
    the first side as friend."""
    c = Counter("red", "#f2a6a0", "CAB-1", symbol="infantry")
    assert FRAMES[("land", "friend")] in counter_svg(c, "red")
    assert FRAMES[("land", "hostile")] in counter_svg(c, "blue")
    assert FRAMES[("land", "hostile")] in counter_svg(c, "umpire", ["blue", "red"])


def test_text_on_counters_is_never_smaller_than_the_minimum():
    long = Counter(
        "blue",
        "#1f5fbf",
        "Kinmen Defence Command",
        symbol="headquarters",
        echelon="brigade",
        factors="12-10-6",
        left="12",
        right="10",
    )
    svg = counter_svg(long, "red")
    assert min_text(svg) >= TEXT_MIN
    assert ">Kinmen Defence Command</text>" in svg and "textLength" in svg  # narrowed, not cut
