"""Artillery strike (WWII 10.24, L344-L345): refusals, results, the exact preview and 100k rolls."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs.artillery_orders import strike_distribution, strike_drm
from owsnb.testing import find_leaks

from .conftest import begin, board, set_data, set_unit, submit
from .test_previews import _rolls, _within_3_sigma


def _board():
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0505"},
        {"id": "A-1", "type": "para-company", "side": "allied", "hex": "0403"},
        {"id": "A-B", "type": "pack-howitzer-battery", "side": "allied", "hex": "0504"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0806"},
    ]
    g = board(units=units)
    begin(g)
    submit(g, "allied: activate A-HQ")
    return g


def test_l344_harassing_strike_one_roll_the_battery_becomes_fatigued_the_result_is_announced():
    g = _board()
    ap = g.unit("A-HQ").get("ap")
    # fire 4 (placeholder default) row, harassing DRM -1: 2d6 12 - 1 = 11 -> '1': the only unit there loses a step
    sub = submit(g, "allied: strike A-B 0806", [6, 6])
    assert (
        g.unit("G-1").steps == 3
        and g.unit("A-B").get("state") == 1
        and g.unit("A-HQ").get("ap") == ap - 1
    )
    public = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert public == ["Artillery strike on 0806 (harassing), 2d6=12-1: a step is lost"]
    assert not find_leaks(
        [dict(e.data) for e in sub.events if e.visible("allied")], {"G-1", "G-HQ"}
    )


def test_l344_a_low_roll_has_no_effect():
    g = _board()
    submit(g, "allied: strike A-B 0806", [3, 3])  # 6 - 1 = 5 -> '-'
    assert g.unit("G-1").steps == 4 and g.unit("G-1").get("state") == 0


def test_l344_harassing_fire_picks_its_target_at_random():
    g = _board()
    from owsnb.kernel.events import unit_add

    from .conftest import poke

    poke(g, unit_add(g.unit("G-1").evolve(id="G-2"), visible_to="german"))
    submit(g, "allied: strike A-B 0806", [6, 6, 2])  # '1'; d2 = 2 -> the second of (G-1, G-2)
    assert (g.unit("G-1").steps, g.unit("G-2").steps) == (4, 3)


def test_l344_targeted_fire_needs_an_observer_and_earns_its_drm():
    g = _board()
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: strike A-B 0806 fire=targeted")
    assert (e.value.code, e.value.rule) == ("no-observer", "L344") and g.state is before
    set_data(g, "A-1", fo=True)
    set_unit(g, "A-1", hex=g.hex("0505"))
    assert strike_drm(g.state, "allied", g.hex("0806"), "targeted") == 1
    submit(g, "allied: strike A-B 0806 fire=targeted", [4, 4])  # 8 + 1 = 9 -> 'D'
    assert g.unit("G-1").get("state") == 1 and g.unit("G-1").steps == 4


@pytest.mark.parametrize(
    "setup, code",
    [
        (lambda g: set_data(g, "A-B", state=1), "not-good-order"),
        (lambda g: set_unit(g, "A-B", hex=g.hex("0101")), "out-of-range"),
    ],
)
def test_l344_strike_refusals_change_nothing(setup, code):
    g = _board()
    setup(g)
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: strike A-B 1209" if code == "out-of-range" else "allied: strike A-B 0806")
    assert (e.value.code, e.value.rule) == (code, "L344") and g.state is before


@pytest.mark.parametrize("fire, drm, seed", [(4, -1, 31), (6, 0, 32), (2, 1, 33)])
def test_l344_strike_preview_is_exact_and_matches_100k_seeded_rolls(fire, drm, seed):
    g = _board()
    t = g.state.tables["artillery_strike"]
    set_data(g, "A-B", fire=fire)
    if drm == -1:
        assert g.preview("allied: strike A-B 0806") == strike_distribution(t, fire, -1)
    pv = strike_distribution(t, fire, drm)
    band = next(b for b in t["strength_bands"] if fire <= b)
    row = list(t["results"][str(band)])
    _within_3_sigma(pv, [row[min(12, max(2, r + drm)) - 2] for r in _rolls(seed, 6, 2)])


def _three_batteries(**kw):
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0505"},
        *(
            {"id": f"A-B{i}", "type": "pack-howitzer-battery", "side": "allied", "hex": h}
            for i, h in enumerate(("0504", "0503", "0404"), 1)
        ),
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {"id": "G-1", "type": "ger-infantry-company", "side": "german", "hex": "0806"},
    ]
    g = board(units=units, **kw)
    begin(g)
    submit(g, "allied: activate A-HQ")
    return g


def test_l348_bombardment_three_batteries_combined_strength_hits_at_random_batteries_disordered():
    from owsnb.rules.tocs.artillery_orders import bombardment_distribution

    g = _three_batteries()
    order = "allied: bombard 0806 with=A-B1,A-B2,A-B3"
    t = g.state.tables["bombardment"]
    assert g.preview(order) == bombardment_distribution(t, 12)  # 3 x 4 (placeholder fire)
    ap = g.unit("A-HQ").get("ap")
    sub = submit(g, order, [6, 6])  # strength 12 row, 2d6 12 -> 3 hits on the only unit there
    assert g.unit("G-1").steps == 1 and g.unit("A-HQ").get("ap") == ap - 1
    assert all(g.unit(f"A-B{i}").get("state") == 2 for i in (1, 2, 3))  # Disordered (L348)
    public = [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert public == ["Bombardment of 0806, strength 12, 2d6=12: 3 hit(s), 3 step(s) lost"]


def test_l350_us_time_on_target_doubles_strength_costs_an_op_and_us_normal_fire_only_fatigues():
    g = _three_batteries(rules={"tot_sides": ["allied"], "op_minimum": {"allied": 10, "german": 6}})
    pool = g.state.sides["allied"].private["op_pool"]
    from owsnb.rules.tocs.artillery_orders import bombardment_distribution

    assert g.preview(
        "allied: bombard 0806 with=A-B1,A-B2,A-B3 tot=yes"
    ) == bombardment_distribution(g.state.tables["bombardment"], 24)
    submit(
        g, "allied: bombard 0806 with=A-B1,A-B2,A-B3 tot=yes", [1, 2]
    )  # 2d6 3 on the top row: 1 hit
    assert g.unit("G-1").steps == 3 and g.state.sides["allied"].private["op_pool"] == pool - 1
    assert g.unit("A-B1").get("state") == 2
    g2 = _three_batteries(
        rules={"tot_sides": ["allied"], "op_minimum": {"allied": 10, "german": 6}}
    )
    submit(g2, "allied: bombard 0806 with=A-B1,A-B2,A-B3", [1, 1])
    assert g2.unit("A-B1").get("state") == 1  # US normal bombardment: Fatigued (L350)


@pytest.mark.parametrize(
    "order, code, rule",
    [
        ("allied: bombard 0806 with=A-B1,A-B2", "too-few", "L348"),
        ("allied: bombard 0806 with=A-B1,A-B2,A-B3 tot=yes", "no-tot", "L350"),
    ],
)
def test_l348_bombardment_refusals_change_nothing(order, code, rule):
    g = _three_batteries()
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(order)
    assert (e.value.code, e.value.rule) == (code, rule) and g.state is before


@pytest.mark.parametrize("strength, seed", [(12, 51), (24, 52)])
def test_l348_bombardment_preview_matches_100k_seeded_rolls(strength, seed):
    from owsnb.rules.tocs.artillery_orders import bombardment_distribution

    t = board().state.tables["bombardment"]
    band = next(b for b in t["strength_bands"] if strength <= b)
    row = list(t["hits"][str(band)])
    _within_3_sigma(
        bombardment_distribution(t, strength), [int(row[r - 2]) for r in _rolls(seed, 6, 2)]
    )
