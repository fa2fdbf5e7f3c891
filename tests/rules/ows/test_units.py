"""2.2 counters and 2.3 markers: the payload schema of every counter kind, steps, damage order."""

import yaml

from owsnb.kernel.state import Unit
from owsnb.rules.ows import units
from owsnb.rules.ows.units import counter, damage_order

from .conftest import DATA, at, load, run


def test_2_2_every_counter_kind_in_the_test_catalog_validates():
    cat = yaml.safe_load((DATA / "ows-test-units.yaml").read_text())["types"]
    kinds = set()
    for key, t in cat.items():
        data, problems = units.validate(key, t["data"])
        assert problems == [], (key, problems)
        kinds.add(data["category"])
    assert {
        "naval",
        "submarine",
        "air-base",
        "air-mission",
        "sof",
        "hq",
        "artillery",
        "air-defence",
        "asp",
        "ground",
    } <= kinds


def test_2_2_schema_reports_bad_values_and_unknown_keys():
    _, p = units.validate("x", {"category": "naval", "red_shield": "five", "sheild": 3})
    paths = {k for k, _ in p}
    assert "red_shield" in paths and "sheild" in paths
    _, p = units.validate("x", {"category": "naval", "attacks": [{"die": "d7"}]})
    assert p and p[0][0].startswith("attacks")
    _, p = units.validate(
        "x", {"category": "naval", "attacks": [{"die": "d10", "flags": ["ICBM"]}]}
    )
    assert "unknown salvo flag" in p[0][1]


def test_2_2_2_1_magazine_and_range():
    g = load()
    c = counter(g.unit("DDG-1"))
    tlam = c.attack("tlam")
    assert (tlam.die, tlam.count, tlam.range, tlam.targets) == ("d10", 2, 4, ("ground", "naval"))
    assert c.attack("d12").id == "sm6"


def test_2_2_2_8_multi_role_sm6_attack_consumes_the_shield_too():
    g = load()
    ddg = g.unit("DDG-1")
    used = ddg.evolve(data={"spent": {"sm6": 1}})
    c = counter(used)
    assert c.attack("sm6").left == 1 and {s.id: s.left for s in c.shields}["sm6"] == 1
    assert "H" in c.attack("sm6").flags and {s.id: s.bmd for s in c.shields}["sm6"] is True
    _, p = units.validate(
        "x",
        {
            "category": "naval",
            "grey_shields": [{"value": 7, "count": 2, "pool": "p"}],
            "attacks": [{"die": "d12", "count": 3, "pool": "p"}],
        },
    )
    assert any("multi-role" in m for _, m in p)


def test_2_2_7_battalion_is_one_step_regiment_three():
    bn = Unit("1/7", "blue", steps=1, max_steps=1)
    regt = Unit("7th Marines", "blue", steps=3, max_steps=3)
    assert (bn.max_steps, regt.max_steps) == (1, 3)


def test_2_2_3_squadron_base_hit_twice_flips_then_goes_with_its_missions_to_attrition():
    from owsnb.kernel.reduce import apply_all
    from owsnb.rules.ows.common import apply_hits

    g = load()
    s = g.state
    ev, lost, _ = apply_hits(s, s.units["F35-BASE"], 1, rule="9.6")
    s = apply_all(s, ev)
    assert s.units["F35-BASE"].steps == 1 and s.units["F35-BASE"].hex is not None
    ev, lost, _ = apply_hits(s, s.units["F35-BASE"], 1, rule="9.6")
    s = apply_all(s, ev)
    assert s.units["F35-BASE"].box == "attrition"
    assert {s.units[m].box for m in ("F35-CAP", "F35-STRIKE", "E2D-1")} == {"attrition"}


def test_9_6_damage_order_of_a_2x2_counter():
    # printed row-major: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right
    assert damage_order(4, columns=2) == [1, 3, 0, 2]  # TR, BR, TL, BL
    assert damage_order(3, columns=1) == [0, 1, 2]


def test_9_5_ship_with_three_green_d10_generates_three_salvos_and_crosses_them_out():
    g = at(
        load(
            units={"Type055-1": {"seen_by": ["blue"]}},
            add=[
                {
                    "id": "CG-1",
                    "type": "ddg-flight-iia",
                    "side": "blue",
                    "hex": "0304",
                    "data": {
                        "attacks": [
                            {
                                "id": "hpm",
                                "die": "d10",
                                "count": 3,
                                "targets": ["naval"],
                                "range": 2,
                            }
                        ]
                    },
                }
            ],
        ),
        "6.B.1",
    )
    s, res, _ = run(g, "blue: strike Type055-1 salvos=CG-1:hpm,CG-1:hpm,CG-1:hpm", [])
    assert res.outcome["pending"] and res.outcome["salvos"] == 3
    assert counter(g.unit("CG-1")).attack("hpm").left == 3  # nothing crossed before the roll


def test_2_3_marker_vocabulary_names_its_paragraphs():
    for m in ("tacsit1", "suppressed", "rsoi", "silent-running", "cavitation", "emitting", "asw"):
        assert m in units.MARKERS
    assert units.MARKERS["tacsit1"].startswith("2.3.3")
