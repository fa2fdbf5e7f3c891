"""SOF (6.6, 6.6.1.1, 6.6.1.2, 8.5.1): each test names its paragraph."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import sof

from .conftest import FastRoller, at, load, run, within_3_sigma


def test_6_6_insertion_into_enemy_hex_d8_fails_only_on_8():
    assert sof.insertion_preview(8)[True] == Fraction(1, 8)
    g = at(load(), "3.C.1")
    s, res, _ = run(g, "blue: insert SOF-B 0703", [8])
    assert res.outcome["failed"] and s.units["SOF-B"].box == "regeneration"
    s, res, _ = run(g, "blue: insert SOF-B 0703", [7])
    assert not res.outcome["failed"] and s.units["SOF-B"].hex == g.hex("0703")
    s, res, _ = run(g, "blue: insert SOF-B 0304", [])  # no enemy control: no roll
    assert not res.outcome["failed"]


def test_6_6_inserted_sof_stays_hidden_from_the_enemy():
    g = at(load(), "3.C.1")
    s, res, ev = run(g, "blue: insert SOF-B 0703", [2])
    assert s.units["SOF-B"].hex is not None and "red" not in s.units["SOF-B"].seen_by
    assert all(e.visible_to == frozenset({"blue"}) for e in ev if e.kind in ("die", "unit.move"))


def _da_game(**units):
    g = at(load(units={"SOF-B": {"hex": "0703", "box": None}, **units}), "3.C.2")
    return g


def test_6_6_1_1_direct_action_one_step_at_defence_two_at_double():
    g = _da_game(**{"HQ9-1": {"seen_by": ["blue"]}})
    s, res, _ = run(
        g, "blue: direct-action SOF-B HQ9-1", [1, 4]
    )  # not compromised; 4 vs defence 4: 1 step
    assert res.outcome["steps_lost"] == 1 and s.units["HQ9-1"].box == "attrition"
    s, res, _ = run(
        g, "blue: direct-action SOF-B port:0703", [1, 6]
    )  # port defence 3: 6 = double: 2 steps
    assert res.outcome["steps_lost"] == 2
    s, res, _ = run(g, "blue: direct-action SOF-B HQ9-1", [8])  # compromised
    assert res.outcome["compromised"] and s.units["SOF-B"].box == "regeneration"


def test_6_6_1_1_ship_at_sea_is_not_a_legal_target():
    g = at(
        load(units={"SOF-B": {"hex": "0504", "box": None}, "Type055-1": {"seen_by": ["blue"]}}),
        "3.C.2",
    )
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: direct-action SOF-B Type055-1")
    assert e.value.rule == "6.6.1.1" and e.value.code == "illegal-da-target"


def test_6_6_1_1_direct_action_preview_matches_100k_seeded_rolls():
    d = sof.direct_action_preview("d10", 4, 8)
    roll = FastRoller(11)
    n = 100_000
    counts: dict[int, int] = {}
    from owsnb.rules.ows.dice import hits

    for _ in range(n):
        k = 0 if roll("d8") >= 8 else hits(roll("d10"), 4, max_hits=2)
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(dict(d), counts, n) == []


def test_6_6_1_2_sof_regeneration_1d4_3_then_1_2_4():
    sofs = [
        {"id": f"SOF-{i}", "type": "sof", "side": "blue", "box": "regeneration", "steps": 1}
        for i in range(3)
    ]
    g = at(load(add=sofs, remove=("SOF-B",)), "6.C.3")
    # 7.H: US air missions none in the box; SOF: 1D4 = 3 missions, then 1, 2, 4 turns; red has none
    s, res, ev = run(g, "umpire: advance 7.I", [3, 1, 2, 4])
    back = {u: s.units[u].data["back_on_turn"] for u in ("SOF-0", "SOF-1", "SOF-2")}
    assert back == {"SOF-0": 2, "SOF-1": 3, "SOF-2": 5}  # next SOF phase, in 2 turns, in 4 turns
    from owsnb.rules.ows.regeneration import sof_regeneration_preview

    assert sof_regeneration_preview(3)[3] == Fraction(1, 2)  # 1D4 of 3 or 4


def test_6_6_1_2_sof_back_in_the_next_turns_sof_phase():
    from owsnb.rules.ows.regeneration import sof_back

    g = load(units={"SOF-B": {"box": "regeneration", "data": {"back_on_turn": 2}}})
    ev = sof_back(g.state, 2, None)
    assert ev and ev[0].data["changes"]["box"] == "base"
    assert sof_back(g.state, 1, None) == []


def test_8_5_1_special_reconnaissance_promotes_detection_and_strikes_in_its_hex():
    g = at(load(units={"SOF-B": {"hex": "0704", "box": None}}), "3.C.2")
    s, res, _ = run(g, "blue: recon SOF-B 0703", [3])
    assert not res.outcome["compromised"] and "0703" in s.sides["blue"].private["sr_hexes"]
    from owsnb.rules.ows import isr

    die, notes = isr.local_die(s, "blue", [s.units["SOF-B"]], s.units["HQ9-1"])
    assert any("8.5.1" in n for n in notes)
