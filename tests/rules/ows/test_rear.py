"""Rear area and partisans (10.15.10, advanced): each test names its paragraph; the worked examples of
10.15.10.3 and 10.15.10.4 are here."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import rear
from owsnb.rules.ows.movement import ground_reach

from .conftest import FastRoller, at, run, within_3_sigma
from .ground_kit import blank


def U(i, t, side, hexlab, seen=(), **data):
    d = {"id": i, "type": t, "side": side, "hex": hexlab}
    if seen:
        d["seen_by"] = list(seen)
    if data:
        d["data"] = data
    return d


@pytest.mark.parametrize(
    "security, partisans, outcome",
    [
        (14, 7, "destroyed"),
        (14, 8, "none"),
        (12, 6, "none"),
        (9, 9, "disrupted"),
        (8, 9, "disrupted"),
    ],
)
def test_10_15_10_3_security_14_vs_7_14_vs_8_12_vs_6_9_vs_9(security, partisans, outcome):
    assert rear.battle_outcome(security, partisans) == outcome


def test_10_15_10_4_partisan_3d4_vs_a_lone_target_1_in_8_vs_a_stacked_target_1_in_64():
    assert rear.partisan_attack_preview(3)[True] == Fraction(1, 8)
    assert rear.partisan_attack_preview(4)[True] == Fraction(1, 64)


def test_10_15_10_4_partisan_attack_preview_matches_100k_seeded_rolls():
    exact = rear.partisan_attack_preview(3)
    roll = FastRoller(9)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = sum(1 for _ in range(3) if roll("d4") >= 3) >= 3
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []


def test_10_15_10_3_battle_preview_matches_100k_seeded_rolls():
    exact = rear.battle_preview("d12", 2, "d10", 1)
    roll = FastRoller(13)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = rear.battle_outcome(roll("d12") + 2, roll("d10") + 1)
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []


def _rear_game():
    units = [
        U("S1", "mech-bde", "blue", "0202"),
        U("S2", "mech-bde", "blue", "0203"),
        U("P1", "mech-bde", "red", "0808"),
        U("P2", "mech-bde", "red", "0807"),
        U("T", "recon-bn", "blue", "0505"),
        U("T2", "light-bn", "blue", "0303"),
    ]
    return blank(units, options={"rear_area": True}, turns=5)


def test_10_15_10_1_security_zone_is_visible_10_15_10_2_partisans_are_secret_until_the_security_battle_step():
    g = at(_rear_game(), "2.2")
    g.submit("blue: security-zone 0505 units=S1")
    assert g.state.units["S1"].box == "security-zone"
    assert "0505" in str(g.view("red").public["rear"]["security"])
    g.submit("blue: done")
    g.submit("red: partisans 0505 units=P1")
    assert not g.view("blue").public.get("rear", {}).get("partisans")
    assert "P1" not in g.view("blue").units and g.state.secret["partisans"]["red"]
    g.submit("umpire: advance 6.C.4")
    parts = g.view("blue").public["rear"]["partisans"]
    assert len(parts) == 1 and list(parts.values())[0]["side"] == "red"
    assert "P1" not in str(g.view("blue").public)  # revealed, but not the card's units


def test_10_15_10_3_uncontested_partisans_are_disrupted_at_once_and_the_zone_slows_and_cuts_supply():
    g = at(_rear_game(), "2.2")
    g.submit("blue: done")
    g.submit("red: partisans 0505 units=P1")
    before = ground_reach(g.state, g.state.units["T"]).cost
    g.submit("umpire: advance 6.C.4")
    dis = g.state.public["rear"]["disrupted"]
    assert len(dis) == 1
    after = ground_reach(g.state, g.state.units["T"]).cost
    zone_hex = [h for h in after if rear.zone_key(g.state, h) == next(iter(dis))]
    assert zone_hex and all(
        after[h] >= before[h] + 2 for h in zone_hex if h != g.state.units["T"].hex
    )
    from owsnb.rules.ows import supply

    cut = blank(
        [U("CSS", "css-bn", "blue", "0101"), U("X", "light-bn", "blue", "0505")],
        options={"rear_area": True},
    )
    s = cut.state.evolve(
        public={
            **cut.state.public,
            "rear": {
                "disrupted": {
                    rear.zone_key(cut.state, cut.hex("0505")): {
                        "side": "red",
                        "zone": list(rear.rear_zone(cut.state, cut.hex("0505"))),
                    }
                }
            },
        }
    )
    assert supply.trace(s, s.units["X"]).status == "out"


def test_10_15_10_3_battle_for_control_with_modifiers_destroys_partisans_and_their_card():
    g = at(_rear_game(), "2.2")
    g.submit("blue: security-zone 0505 units=S1")
    g.submit("blue: security-zone 0505 units=S2")  # a further marker in the zone promotes
    g.submit("blue: done")
    g.submit("red: partisans 0505 units=P1")
    g.submit("umpire: advance 6.C.4")
    assert g.preview("blue: security-battle 0505") == rear.battle_preview("d12", 0, "d10", 0)
    s, res, _ = run(g, "blue: security-battle 0505", [12, 6])  # 12 < 14: no effect (R10)
    assert res.outcome["outcome"] == "none"
    s, res, _ = run(g, "blue: security-battle 0505", [5, 5])  # partisans equal: DISRUPTED
    assert res.outcome["outcome"] == "disrupted" and s.public["rear"]["disrupted"]
    # +1 for infantry on the marker, +1 for a supporting SOF unit: 12 + 2 = 14
    sof = {"id": "SOFB", "type": "sof-team", "side": "blue", "hex": "0404"}
    strong = blank(
        [
            U("S1", "mech-bde", "blue", "0202"),
            U("S2", "mech-bde", "blue", "0203"),
            U("P1", "mech-bde", "red", "0808"),
            U("T2", "light-bn", "blue", "0303"),
            sof,
        ],
        options={"rear_area": True},
        turns=5,
    )
    strong = at(strong, "2.2")
    strong.submit("blue: security-zone 0505 units=S1 support=T2,SOFB")
    strong.submit("blue: security-zone 0505 units=S2")
    strong.submit("blue: done")
    strong.submit("red: partisans 0505 units=P1")
    strong.submit("umpire: advance 6.C.4")
    s, res, _ = run(strong, "blue: security-battle 0505", [12, 7])  # 14 vs 7: destroyed
    assert (res.outcome["security"], res.outcome["partisans"], res.outcome["outcome"]) == (
        14,
        7,
        "destroyed",
    )
    assert not s.units["P1"].alive and not s.secret["partisans"]["red"]
    s, res, _ = run(strong, "blue: security-battle 0505", [12, 8])  # 14 vs 8: not double
    assert res.outcome["outcome"] == "none" and s.units["P1"].box == "partisan-card"
    s2 = at(strong.fork(), "7.I")  # unfought battles are fought when the step ends
    assert s2.state.public["rear"]["battled"]


def test_10_15_10_4_partisan_attack_hits_or_suppresses_through_the_next_turn_C8():
    g = at(_rear_game(), "2.2")
    g.submit("blue: done")
    g.submit("red: partisans 0505 units=P1")
    g.submit("umpire: advance 6.C.4")
    from owsnb.kernel.events import unit_set

    from .conftest import with_events

    g = with_events(g, [unit_set("T", seen_by=frozenset({"red"}))])
    g.submit("blue: done")
    s, res, _ = run(g, "red: partisan-attack T", [3, 4, 3])  # 3 hits: a step
    assert res.outcome["hits"] == 3 and not s.units["T"].alive
    s, res, _ = run(g, "red: partisan-attack T", [3, 2, 4])  # else Suppressed through the next turn
    assert "suppressed" in s.units["T"].markers and s.units["T"].data["suppressed_until"] == 2
    g.submit("red: partisan-attack T")
    with pytest.raises(IllegalOrderError) as e:
        g.check("red: partisan-attack T")
    assert e.value.code == "already"


def test_10_15_10_5_atgm_with_the_partisans_attacks_in_the_zone_and_the_target_fires_back():
    g = blank(
        [
            U("P1", "mech-bde", "red", "0808"),
            U("ATGM", "atgm-co", "red", "0707"),
            U("T", "recon-bn", "blue", "0505"),
        ],
        options={"rear_area": True},
        turns=5,
    )
    g = at(g, "2.2")
    g.submit("blue: done")
    g.submit("red: partisans 0505 units=P1 support=ATGM")
    assert g.state.units["ATGM"].hex == g.hex("0505") and "ATGM" not in g.view("blue").units
    g.submit("umpire: advance 6.C.4")
    from owsnb.kernel.events import unit_set

    from .conftest import with_events

    g = with_events(g, [unit_set("T", seen_by=frozenset({"red"}))])
    g.submit("blue: done")
    s, res, _ = run(
        g, "red: atgm ATGM T", [6, 3]
    )  # d12 6 vs 3: 2 hits; the recon's d8 demoted to d6: 3 vs 3
    assert res.outcome["hits"] == {"T": 2, "ATGM": 1}
    assert not s.units["T"].alive and not s.units["ATGM"].alive  # simultaneous


def test_10_15_10_rear_area_orders_need_the_advanced_option():
    g = at(blank([U("S1", "mech-bde", "blue", "0202")]), "2.1")
    with pytest.raises(IllegalOrderError):
        g.check("blue: security-zone 0505 units=S1")


def test_10_15_10_5_atgm_exchange_preview_matches_100k_seeded_rolls():
    from owsnb.rules.ows.dice import hits

    exact = rear.atgm_preview("d12", 3, "d6", 3)
    assert exact[(2, 1)] == Fraction(3, 12) * Fraction(
        3, 6
    )  # 6-8 on the d12 (2 hits), 3-5 on the d6 (1 hit)
    roll = FastRoller(3)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = (hits(roll("d12"), 3), hits(roll("d6"), 3))
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []
