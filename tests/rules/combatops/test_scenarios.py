"""Scenarios 17.1 Red Attack and 17.2 Blue Attack: forces, Map 1 as data, set-up, victory, play-outs."""

from __future__ import annotations

import pytest
import yaml

from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.game import Game
from owsnb.rules.combatops import RULESET
from owsnb.rules.combatops.orders import in_setup_area, north_of_river, stack_limit
from owsnb.rules.combatops.terrain import hexid, map_info, parse_hex
from owsnb.rules.combatops.units import stacking_value
from owsnb.rules.combatops.victory import Verdict, battalion_count, judge, road_controlled
from owsnb.testing import random_playout

from .conftest import BLUE_ATTACK, CATALOG, RED_ATTACK, at, load, to_step


def ids(g, side, where):
    return sorted(
        u.id
        for u in g.state.units.values()
        if u.side == side and (u.box == where if where != "map" else u.hex is not None)
    )


def test_17_1_forces_and_reinforcements(red_attack):
    g = red_attack
    assert ids(g, "blue", "map") == [
        "B-1I/36",
        "B-2I/36",
        "B-A1/36",
        "B-A2/36",
        "B-A3/36",
        "B-D1",
        "B-E/36",
        "B-HQ/36",
    ]
    assert ids(g, "blue", "pool") == ["B-1A/2", "B-3I/36", "B-D2", "B-D3"]
    assert len(ids(g, "red", "entry")) == 19 and not ids(g, "red", "map")
    rein = g.state.sides["blue"].private["reinforcements"]
    assert {k: v["pass"] for k, v in rein.items()} == {
        "A": 1,
        "B": 1,
        "C": 1,
        "D": 1,
        "E": 2,
        "F": 2,
    }
    assert g.state.units["B-1A/2"].data["supply_division"] == "36"  # attached to the 36th (17.1)
    red = g.state.sides["red"].private["reinforcements"]
    assert {k: (v["pass"], v["replacement"]) for k, v in red.items()} == {
        "A": (2, None),
        "B": (2, None),
        "C": (1, "infantry"),
        "D": (1, "infantry"),
    }
    assert g.state.public["supply_heads"] == {"blue": ("G1", "O1"), "red": ("G12", "O12")}
    art = sorted(
        g.state.units[u].data["art_class"] for u in ("R-A1/49", "R-A2/49", "R-A4/49", "R-A5/49")
    )
    assert art == [
        "H",
        "L",
        "L",
        "M",
    ]  # "1:1, 2:1, 4:1 & 4:1" read as 1:1 L, 2:1 L, 4:1 M, 5:1 H (digest #37)


def test_17_2_forces_and_reinforcements(blue_attack):
    g = blue_attack
    assert len(ids(g, "blue", "map")) == 18 and len(ids(g, "red", "map")) == 10
    assert ids(g, "red", "pool") == ["R-502", "R-D2"]
    assert g.state.public["supply_heads"]["red"] == (
        "A7",
        "A8",
        "A9",
        "A10",
        "A11",
        "A12",
    )  # errata 11.1
    assert g.state.public["victory"] == {
        "type": "road",
        "side": "blue",
        "road": "East-West road",
        "division": "2",
    }
    assert battalion_count(g.state, "blue", "2") == (
        14,
        14,
    )  # 3 regiments of 3, 3 artillery, E/2, HQ/2


def _map_part(path):
    with open(path) as fh:
        return yaml.safe_load(fh)["map"]


def test_both_scenarios_play_on_the_same_map_1():
    assert _map_part(RED_ATTACK) == _map_part(BLUE_ATTACK)


def test_map_1_fits_the_text(red_attack):
    s = red_attack.state
    info = map_info(s.map)
    assert (
        max(info.cols.values()) == 20 and max(info.rows.values()) == 12
    )  # A-T, no row 13 (errata 11.1)
    assert {info.ids[h] for h in info.hexes if info.terrain[h] == "town"} >= {
        "G2",
        "G3",
        "H2",
        "H3",
    }
    roads = set().union(*(set(k) for k in info.roads))
    assert not [h for h in roads if info.terrain[h] == "town"]  # errata 7.2
    ew = info.road_hexes["East-West road"]
    assert {info.cols[h] for h in ew} == set(range(1, 21))  # it crosses the map from A to T
    assert all(k in info.rivers for k in info.bridges)  # bridges stand on the River Wideflow
    north = north_of_river(s)
    assert {parse_hex(s.map, t) for t in ("G2", "G3", "H2", "H3", "G1", "O1")} <= north
    assert (
        not (ew & north) and parse_hex(s.map, "T6") not in north
    )  # road and 17.2 Blue area south of it
    assert {info.terrain[h] for h in info.hexes} == {"clear", "woods", "swamp", "town"}
    assert any(info.elevation[h] for h in ew | set(info.hexes))  # the ridge (errata 14.0)


@pytest.mark.parametrize("path", [RED_ATTACK, BLUE_ATTACK], ids=["17.1", "17.2"])
def test_default_set_up_is_legal(path):
    g = load(path)
    s = g.state
    stacks: dict = {}
    for u in s.units.values():
        if u.hex is not None:
            assert in_setup_area(s, u.side, u.hex), f"{u.id} at {hexid(s.map, u.hex)}"
            stacks[(u.side, u.hex)] = stacks.get((u.side, u.hex), 0) + stacking_value(u)
    assert max(stacks.values()) <= stack_limit(s)


def test_catalog_placeholders_are_labelled():
    with open(CATALOG) as fh:
        types = yaml.safe_load(fh)["types"]
    placeholders = {k for k, t in types.items() if t.get("data", {}).get("placeholder")}
    assert placeholders == {
        "b-eng-36",
        "b-cav-36",
        "b-hq-36",
        "b-meng-2",
        "b-hq-2",
        "r-eng-49",
        "r-hq-49",
        "r-cav-21",
        "r-meng-21",
        "r-hq-21",
        "r-harm-502",
    }
    assert all("PLACEHOLDER" in types[k]["notes"] for k in placeholders)


def test_17_1_red_enters_from_the_south_edge_and_has_no_set_up_step(red_attack):
    g = red_attack
    g.submit("blue: done")
    g.submit("red: done")
    assert g.clock.step == "0.2"
    g.submit("blue: place B-D1 I5")
    g.submit("blue: done")
    assert g.clock.step == "A2"  # 0.3 skipped: Red sets nothing up (17.1)
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: place B-D1 K4")
    assert e.value.code == "not-your-turn"
    g.submit("red: done")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("red: enter R-1I/49 G11")
    assert e.value.code == "bad-entry-hex"
    g.submit("red: enter R-1I/49 G12")
    g.submit("red: move R-1I/49 G10")
    assert at(g, "R-1I/49") == "G10"


def test_3_0_set_up_stays_in_the_area(red_attack):
    g = red_attack
    to_step(g, "0.2")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: place B-E/36 G7")  # south of the river
    assert e.value.code == "outside-setup-area" and e.value.rule == "3.0"


def test_17_2_special_rule_armor_bridge_at_the_start(blue_attack):
    g = to_step(blue_attack, "0.3")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: build B-E/36 R4 kind=infantry")
    assert e.value.code == "not-now"
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: build B-E/2 S11 kind=armor")
    assert e.value.code == "no-river"
    g.submit("blue: build B-E/36 R4 kind=armor")
    assert g.state.public["bridges"]["R4|R5"]["kind"] == "armor"
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: build B-E/36 S4 kind=armor")
    assert e.value.code in ("used", "no-river")


def _set(g: Game, **public) -> Game:
    return Game(RULESET, g.state.evolve(public=g.state.public.set(**public)))


def test_17_1_victory_levels(red_attack):
    s = red_attack.state
    towns = {"G2": "red", "G3": "red", "H2": "red", "H3": "red"}
    all_towns = s.evolve(secret=s.secret.set(control=towns))
    assert (judge(all_towns).winner, judge(all_towns).level) == ("red", "major")
    gone = {
        uid: u.evolve(steps=0, hex=None, box="eliminated")
        for uid, u in s.units.items()
        if uid in ("R-1I/49", "R-2I/49", "R-1A/21", "R-1AI/21")
    }
    weak = all_towns.evolve(units={**s.units, **gone})
    have, base = battalion_count(weak, "red")
    assert (have, base) == (13, 21)  # 13/21 < 2/3
    assert (judge(weak).winner, judge(weak).level) == ("red", "minor")
    three = s.evolve(secret=s.secret.set(control={**towns, "H3": "blue"}))
    assert (judge(three).winner, judge(three).level) == ("blue", "minor")
    weak3 = three.evolve(units={**s.units, **gone})
    assert (judge(weak3).winner, judge(weak3).level) == ("blue", "major")
    assert isinstance(RULESET.outcome(s), Verdict)


def test_17_2_road_control_and_victory_levels(blue_attack):
    s = blue_attack.state
    ok, bad = road_controlled(s, "blue", "East-West road")
    assert not ok and bad  # Red in supply sits on the road at the start
    assert (judge(s).winner, judge(s).level) == ("red", "major")
    red_gone = {
        uid: u.evolve(steps=0, hex=None, box="eliminated")
        for uid, u in s.units.items()
        if u.side == "red" and u.hex is not None
    }
    clear = s.evolve(units={**s.units, **red_gone})
    assert road_controlled(clear, "blue", "East-West road") == (True, [])
    assert (judge(clear).winner, judge(clear).level) == ("blue", "major")
    lost = {"B-1A/2": 0, "B-2A/2": 0}  # 8 of 14 left: 1/2 <= 4/7 <= 2/3
    minor = clear.evolve(
        units={
            **clear.units,
            **{k: clear.units[k].evolve(steps=0, box="eliminated", hex=None) for k in lost},
        }
    )
    assert (judge(minor).winner, judge(minor).level) == ("blue", "minor")
    worse = minor.evolve(
        units={
            **minor.units,
            "B-1AI/2": minor.units["B-1AI/2"].evolve(steps=0, box="eliminated", hex=None),
        }
    )
    assert (judge(worse).winner, judge(worse).level) == ("red", "minor")  # 5/14 < 1/2
    # a dummy in supply next to the road is enough to deny control (errata 14.0's Origins game)
    dummy = {"R-D1": s.units["R-D1"].evolve(hex=parse_hex(s.map, "J8"))}
    denied = clear.evolve(units={**clear.units, **dummy})
    assert not road_controlled(denied, "blue", "East-West road")[0]


@pytest.mark.parametrize("path", [RED_ATTACK, BLUE_ATTACK], ids=["17.1", "17.2"])
def test_passing_players_reach_the_end_between_turn_6_and_10(path):
    g = load(path, seed=11)
    for _ in range(400):
        if g.is_over():
            break
        g.submit(f"{g.clock.acting[0]}: done")
    assert g.is_over() and 6 <= g.clock.turn <= 10
    assert any(d["chit"] == 10 and d["pass"] == 2 for d in g.state.public["drawn"])
    assert isinstance(g.outcome(), Verdict) and g.outcome().winner in ("blue", "red")


@pytest.mark.parametrize("path, seed", [(RED_ATTACK, 1), (BLUE_ATTACK, 2)], ids=["17.1", "17.2"])
def test_random_playout_with_view_checks(path, seed):
    g = load(path, seed=seed)
    report = random_playout(g, max_orders=100, seed=seed)
    assert len(report.orders) == 100 and not report.refused


@pytest.mark.parametrize("path, seed", [(RED_ATTACK, 3), (BLUE_ATTACK, 4)], ids=["17.1", "17.2"])
def test_random_playout_to_the_end(path, seed):
    g = load(path, seed=seed)
    report = random_playout(g, max_orders=3000, seed=seed, check_views=False, pass_weight=0.1)
    assert report.over and 6 <= report.turns <= 10
    kinds = {o.split(": ")[1].split()[0] for o in report.orders}
    assert (
        {"move", "enter", "draw", "done"} <= kinds
        if path == RED_ATTACK
        else {"move", "draw", "done"} <= kinds
    )
    verdict = g.outcome()
    assert verdict.winner in ("blue", "red") and verdict.level in ("major", "minor")


def test_a_broken_scenario_lists_every_problem_with_its_place():
    from owsnb.kernel.errors import ScenarioError

    from .conftest import game

    with pytest.raises(ScenarioError) as exc:
        game(
            [
                {
                    "id": "B-1",
                    "type": "b-inf-bn-36",
                    "side": "blue",
                    "hex": "C3",
                    "data": {"utype": "tank", "ma": 0},
                }
            ]
        )
    assert "units[0].data.utype" in str(exc.value) and "units[0].data.ma" in str(exc.value)
    with pytest.raises(ScenarioError) as exc:
        game(
            [{"id": "R-1", "type": "r-inf-bn-49", "side": "red", "hex": "E3"}],
            rules={
                "attacker": "green",
                "reinforcements": {"blue": {"A": {"pass": 3, "units": ["B-9"]}}},
                "victory": {"type": "towns", "side": "red", "towns": ["Z99"]},
            },
        )
    text = str(exc.value)
    for needle in (
        "rules.attacker",
        "rules.reinforcements.blue.A.pass",
        "no unit 'B-9'",
        "rules.victory.towns[0]",
    ):
        assert needle in text, (needle, text)
