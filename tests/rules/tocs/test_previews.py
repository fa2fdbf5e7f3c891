"""Every rolling rule's exact preview against 100k seeded rolls of the kernel's Dice (3 sigma)."""

from __future__ import annotations

import html
import math
from collections import Counter

import pytest

from owsnb.kernel import Dice, Distribution
from owsnb.rules.tocs import economy
from owsnb.rules.tocs.airnaval import intercept_chance
from owsnb.rules.tocs.attack_preview import AttackPreview
from owsnb.rules.tocs.combat import (
    crt_row,
    initiative_distribution,
    interrogation_distribution,
    result_distribution,
)
from owsnb.rules.tocs.orders import mc_distribution
from owsnb.rules.tocs.weather import cloud_distribution, lookup

from .conftest import board

N = 100_000


def _rolls(seed: int, sides: int, dice: int = 1) -> list[int]:
    d = Dice.from_seed(seed)
    flat = d.roll_many(N * dice, sides, purpose="preview check")
    return [sum(flat[i * dice : (i + 1) * dice]) for i in range(N)] if dice > 1 else list(flat)


def _within_3_sigma(dist: Distribution, samples: list) -> None:
    counts = Counter(samples)
    assert set(counts) <= set(dist), (
        f"sampled outcomes outside the preview: {set(counts) - set(dist)}"
    )
    for k, p in dist.items():
        p = float(p)
        sigma = math.sqrt(p * (1 - p) / N)
        assert abs(counts.get(k, 0) / N - p) <= 3 * sigma + 1e-12, (k, counts.get(k, 0) / N, p)


def test_b3_3_op_earned_preview():
    g = board()
    pv = g.preview("allied: begin")
    assert pv == economy.op_earned_distribution(10, 0)
    _within_3_sigma(pv, [10 + r for r in _rolls(1, 10)])


def test_b3_11_turn_end_preview_after_a_pass():
    g = board()
    from .conftest import begin

    begin(g)
    pv = g.preview("allied: pass")
    box = economy.turn_end_box(g.state)
    _within_3_sigma(pv, [economy.turn_ends(r, box, True) for r in _rolls(2, 6, 2)])
    assert pv[True] == economy.turn_end_chance(box, True)


@pytest.mark.parametrize("kind,col", [("deliberate", 2), ("intensive", 4), ("ambush", 0)])
def test_crt_result_preview(kind, col):
    s = board().state
    pv = result_distribution(s, kind, col)
    row = crt_row(s, kind, col)
    _within_3_sigma(pv, [row[r - 2] for r in _rolls(3 + col, 6, 2)])


def test_attack_preview_gives_each_column_exactly():
    g = board()
    pv = g.ruleset.handler("attack").preview(g.state, None, {"kind": "intensive"})
    assert isinstance(pv, AttackPreview) and pv.kind == "intensive"
    assert list(pv) == list(g.state.tables["crt"]["columns"])
    assert pv["3:1"] == result_distribution(g.state, "intensive", 4)


def test_10_6_attack_preview_html_has_one_row_per_column_with_exact_probabilities():
    import re

    g = board()
    pv = g.ruleset.handler("attack").preview(g.state, None, {"kind": "hasty"})
    shown = pv._repr_html_()
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td></tr>", shown)
    assert [c for c, _ in rows] == [html.escape(c) for c in g.state.tables["crt"]["columns"]]
    for (_, cells), d in zip(rows, pv.columns.values(), strict=True):
        got = [tuple(x.rsplit(" ", 1)) for x in cells.split(" · ")]
        assert got == [(html.escape(r), str(p)) for r, p in d.rows()]
    assert sum(d[r] for d in pv.columns.values() for r in d) == len(rows)  # each row sums to 1
    evil = AttackPreview("<b>x</b>", {"<i>": Distribution({"<s>": 1})})._repr_html_()
    assert "<i>" not in evil and "<s>" not in evil and "&lt;b&gt;x&lt;/b&gt;" in evil


def test_attack_preview_travels_exactly_through_the_codec_and_the_server_wire():
    from owsnb.kernel import codec
    from owsnb.server.wire import decode_value, encode_value

    g = board()
    pv = g.ruleset.handler("attack").preview(g.state, None, {"kind": "deliberate"})
    assert codec.loads(codec.dumps(pv)) == pv
    back = decode_value(encode_value(pv))
    assert type(back) is AttackPreview and back == pv and back._repr_html_() == pv._repr_html_()


def test_l151_morale_check_preview():
    pv = mc_distribution(9)
    assert pv[True] == Distribution.sum([Distribution.die(6), Distribution.die(6)]).prob(
        lambda r: r <= 9
    )
    _within_3_sigma(pv, [r <= 9 for r in _rolls(4, 6, 2)])


def test_l54_cloud_cover_preview_with_hysteresis():
    t = board().state.tables["weather"]
    pv = cloud_distribution(t, "overcast")
    _within_3_sigma(pv, [lookup(t["cloud"], r + 1) for r in _rolls(5, 10)])


def test_l740_interrogation_table_preview():
    s = board().state
    pv = interrogation_distribution(s, "prisoner")
    t = s.tables["interrogation"]["prisoner"]
    _within_3_sigma(pv, [t[r] for r in _rolls(6, 6)])


def test_l51_initiative_preview_ties_to_the_holder():
    pv = initiative_distribution({"allied": 1}, ["allied", "german"], "german")
    d1, d2 = _rolls(7, 10), _rolls(8, 10)
    wins = ["allied" if a + 1 > b else "german" for a, b in zip(d1, d2, strict=True)]
    _within_3_sigma(pv, wins)


def test_ruling_13_naval_interception_preview():
    pv = intercept_chance(3)
    assert pv[True] == Distribution.die(6).prob(lambda r: r <= 3)
    _within_3_sigma(pv, [r <= 3 for r in _rolls(9, 6)])
