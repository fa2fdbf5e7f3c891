"""Infiltration (WWII 10.2, L258-L263): secret until Combat Resolution, the table's shift."""

from __future__ import annotations

import pytest

from owsnb.kernel import IllegalOrderError
from owsnb.rules.tocs.infiltration_orders import success_distribution

from .conftest import begin, board, lab, set_owner, set_unit, submit
from .test_previews import _rolls, _within_3_sigma


def _board():
    g = board()
    for h in ("0706", "0606", "0605"):  # a corridor of Allied hexes back to the HQ (LOC)
        set_owner(g, h, "allied")
    set_unit(g, "A-1", hex=g.hex("0706"))  # next to G-1 (0806): in EZOC
    set_unit(g, "A-HQ", hex=g.hex("0505"))
    begin(g)
    submit(g, "allied: activate A-HQ")
    return g


def _public(sub):
    return [e.data["text"] for e in sub.events if e.kind == "note" and e.visible_to is None]


def test_l258_l259_an_infiltration_is_secret_until_combat_resolution():
    g = _board()
    ap = g.unit("A-HQ").get("ap")
    sub = submit(g, "allied: infiltrate A-1 0806")
    assert [
        e for e in sub.events if e.visible("german")
    ] == []  # no Battle Marker, nothing announced (L259)
    assert not g.state.map.hexes[g.hex("0806")].facts.get("battle")
    assert g.unit("A-HQ").get("ap") == ap - 1 and g.unit("A-1").get("attack_type") == "infiltration"
    assert g.unit("A-1").get("state") == 1  # it activated and acted


def test_l262_l263_a_successful_infiltration_gives_the_attacker_the_shift():
    g = _board()
    submit(g, "allied: infiltrate A-1 0806")
    # DRM: A-1 ELR 1 (-1), ML 9 (-1) = -2; 2d6 6 - 2 = 4 <= 7: success; 4 v 3 = 1:1 +1 -> 2:1; 2d6 9 -> '-/1R1';
    # one prisoner roll; turn-end 2d6
    sub = submit(g, "allied: done", [3, 3, 4, 5, 1, 6, 6])
    pub = _public(sub)
    assert "Infiltration into 0806: 2d6=6-2, success (attacker shift)" in pub
    assert any(t.startswith("Battle at 0806: infiltration, column 2:1, 2d6=9: -/1R1") for t in pub)
    assert g.unit("G-1").steps == 3 and g.state.map.hexes[g.hex("0806")].facts["owner"] == "allied"


def test_l263_a_detected_infiltration_gives_the_defender_the_shift():
    g = _board()
    submit(g, "allied: infiltrate A-1 0806")
    sub = submit(
        g, "allied: done", [6, 6, 4, 5, 6, 6]
    )  # 12 - 2 = 10 > 7: 1:1 -1 -> 1:2; 2d6 9 -> '-/-'
    pub = _public(sub)
    assert "Infiltration into 0806: 2d6=12-2, detected (defender shift)" in pub
    assert any(t.startswith("Battle at 0806: infiltration, column 1:2, 2d6=9: -/-") for t in pub)


def test_l260_an_empty_hex_is_entered_and_taken():
    g = _board()
    submit(g, "allied: infiltrate A-1 0707")
    sub = submit(g, "allied: done", [6, 6])
    assert lab(g, "A-1") == "0707" and g.state.map.hexes[g.hex("0707")].facts["owner"] == "allied"
    assert not any("Infiltration" in t for t in _public(sub))  # no battle, no table roll


@pytest.mark.parametrize(
    "order, code, rule",
    [
        ("allied: infiltrate A-2 0505", "not-in-ezoc", "L258"),
        ("allied: infiltrate A-HQ 0605", "not-company", "L258"),
        ("allied: infiltrate A-1 0706", "not-adjacent", "L258"),
    ],
)
def test_l258_infiltration_refusals_change_nothing(order, code, rule):
    g = _board()
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit(order)
    assert (e.value.code, e.value.rule) == (code, rule) and g.state is before


def test_l260_the_infiltration_must_be_the_first_attack_on_the_hex():
    g = _board()
    set_unit(g, "A-2", hex=g.hex("0706"))
    submit(g, "allied: activate A-2")
    submit(g, "allied: attack A-2 0806 kind=hasty")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: infiltrate A-1 0806")
    assert (e.value.code, e.value.rule) == ("not-first", "L260") and g.state is before


def test_l262_preview_is_exact_per_defender_elr_and_matches_100k_rolls():
    g = _board()
    pv = g.preview("allied: infiltrate A-1 0806")
    t = g.state.tables["infiltration"]
    assert pv["defender ELR +0"] == success_distribution(t, -2)
    assert pv["defender ELR +1"] == success_distribution(t, -1)
    _within_3_sigma(
        pv["defender ELR +0"], [r - 2 <= int(t["succeeds_at_most"]) for r in _rolls(41, 6, 2)]
    )


def _told(g, side="allied"):
    """What *side*'s legal orders tell it: each verb's candidates and examples."""
    return repr(
        [(s.verb, dict(s.candidates), [str(o) for o in s.examples]) for s in g.legal_orders(side)]
    )


def _answer(g, order, side="allied"):
    """The answer to checking *order*: its arguments, or the refusal's code, rule and text."""
    try:
        return ("ok", g.check(f"{side}: {order}"))
    except IllegalOrderError as e:
        return (e.code, e.rule, str(e))


def _twin_without_g1():
    """The same board, except that the hidden German G-1 stands far from A-1 (nothing announced)."""
    g = _board()
    set_unit(g, "G-1", hex=g.hex("1006"))
    return g


def test_l258_infiltrate_is_offered_and_answered_alike_whether_a_hidden_company_is_adjacent():
    """L258: "An activated HQ can spend 1 AP to order a good order subordinate Company in LOC to
    ... perform an infiltration from a hex in EZOC" — whether the hex is in EZOC is the German's
    secret until tested (L30), so the Allied offers and answers never depend on it."""
    near, far = _board(), _twin_without_g1()
    assert _told(near) == _told(far) and "allied: infiltrate A-1 0806" in _told(near)
    for order in ("infiltrate A-1 0806", "infiltrate A-1 0807", "infiltrate A-1 0806 hq=A-1"):
        assert _answer(near, order) == _answer(far, order)
        assert near.preview("allied: " + order) == far.preview("allied: " + order)
    # the HQ is not yet activated: the same refusal (no-hq) with or without a German next door
    fresh, away = board(), board()
    set_unit(away, "G-1", hex=away.hex("1006"))
    for g in (fresh, away):
        for h in ("0706", "0606", "0605"):
            set_owner(g, h, "allied")
        set_unit(g, "A-1", hex=g.hex("0706"))
        set_unit(g, "A-HQ", hex=g.hex("0505"))
        begin(g)
    x = _answer(fresh, "infiltrate A-1 0806")
    assert x == _answer(away, "infiltrate A-1 0806") and x[0] == "no-hq"


def test_l258_an_infiltration_from_a_hex_not_in_ezoc_is_called_off_and_told_only_to_its_side():
    """L258: an infiltration starts "from a hex in EZOC"; the referee tests the EZOC when the
    order is given: without one the HQ's order is spent, nothing infiltrates, and only the
    infiltrating side is told (its own perimeter, like an EZOC that no longer exists, L172)."""
    g = _twin_without_g1()
    ap = g.unit("A-HQ").get("ap")
    sub = submit(g, "allied: infiltrate A-1 0806")
    assert g.unit("A-HQ").get("ap") == ap - 1  # the order was given
    assert g.unit("A-1").get("attack_type") is None and g.unit("A-1").get("act") != "open"
    told = [e.data["text"] for e in sub.events if e.kind == "note"]
    assert any("not in EZOC" in t for t in told)
    assert [e for e in sub.events if e.visible("german")] == []
