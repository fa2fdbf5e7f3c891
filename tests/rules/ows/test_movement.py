"""Ground movement (10.9-10.11, 10.15.7), naval movement (6.2-6.4.5) and assault placement (6.4.6,
6.5.11, 6.5.12, 10.15.8): each test names its paragraph."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import movement as mv
from owsnb.rules.ows.timedistance import reach

from .conftest import FastRoller, at, run, within_3_sigma
from .ground_kit import blank, gload, line, nbrs


def U(i, t, side, hexlab, **data):
    d = {"id": i, "type": t, "side": side, "hex": hexlab}
    if data:
        d["data"] = data
    return d


# -- 10.10 modes and the Movement Chart -------------------------------------------------------------
def test_10_10_modes_wheeled_15_tracked_10_foot_2_ski_4_and_mixed_uses_the_least_mobile():
    g = gload()
    s = g.state
    assert [mv.movement_points(s, s.units[u]).mp for u in ("2SBCT", "1ABCT", "1-LI")] == [15, 10, 2]
    g2 = gload(
        units={
            "1-LI": {"data": {"mobility": "ski"}},
            "2SBCT": {"data": {"mobility": "wheeled+foot"}},
        }
    )
    assert mv.movement_points(g2.state, g2.state.units["1-LI"]).mp == 4
    assert mv.movement_points(g2.state, g2.state.units["2SBCT"]).mode == "foot"
    with pytest.raises(ValueError):
        mv.least_mobile("hover")


def test_10_10_1_tracked_unit_with_1_mp_left_stops_before_a_hex_costing_3():
    path = line("0204", 0, 4)  # clear (2 MP tracked) then hills (3 MP tracked)
    g = blank([U("T", "mech-bn", "blue", path[0])], terrain={path[2]: "hills"})
    s = g.state
    r = mv.ground_reach(s, s.units["T"], mp=3)
    assert r.cost[s.map.hex(path[1])] == 2  # 1 MP left after the first hex
    assert s.map.hex(path[2]) not in r.cost  # the next hex costs 3: it must stop (10.10.1)


def test_10_10_1_a_unit_may_always_move_one_hex_unless_np():
    path = line("0204", 0, 3)
    g = blank(
        [U("T", "mech-bn", "blue", path[0]), U("W", "recon-bn", "blue", path[0])],
        terrain={
            path[1]: "mountain",
            "0203": "marsh",
            "0303": "marsh",
            "0304": "marsh",
            "0104": "marsh",
            "0105": "marsh",
            "0205": "marsh",
        },
    )
    s = g.state
    r = mv.ground_reach(s, s.units["T"], mp=1)
    assert (
        r.cost[s.map.hex(path[1])] == 6 and s.map.hex(path[2]) not in r.cost
    )  # 6 MP mountain hex with 1 MP
    w = mv.ground_reach(s, s.units["W"], mp=20)
    assert s.map.hex(path[1]) in w.cost
    np_hex = s.map.hex("0203")
    assert np_hex not in w.cost and w.blocked[np_hex].startswith("NP")  # wheeled into marsh: NP
    with pytest.raises(IllegalOrderError) as e:
        at(g, "6.C.3").submit("blue: move W 0203")
    assert e.value.rule == "10.10.1"


def test_10_10_1_weather_changes_costs_and_roads_replace_terrain():
    path = line("0204", 0, 3)
    g = blank([U("W", "recon-bn", "blue", path[0])], edges=[{"type": "road", "hexes": path}])
    s = g.state
    r = mv.ground_reach(s, s.units["W"])
    assert r.cost[s.map.hex(path[2])] == 2  # road: 1 MP a hex
    from owsnb.kernel.events import state_set
    from owsnb.kernel.reduce import apply

    mud = apply(s, state_set("public", {"weather": "mud"}))
    assert (
        mv.terrain_cost(mud, "clear", "wheeled", "mud") == 8
        and mv.terrain_cost(mud, "clear", "wheeled", "clear") == 3
    )
    rm = mv.ground_reach(mud, mud.units["W"])
    off_road = next(s.map.hex(x) for x in nbrs(path[0]) if x not in path)
    assert rm.cost[s.map.hex(path[2])] == 2  # the road is unaffected
    assert r.cost[off_road] == 3 and rm.cost[off_road] == 8  # off the road: clear 3, in mud 8


def test_M1_costs_scale_with_hex_size_on_operational_maps():
    g = blank([U("W", "recon-bn", "blue", "0404")], size=370.4)
    assert mv.scale_factor(g.state) == pytest.approx(370.4 / 20)
    r = mv.ground_reach(g.state, g.state.units["W"])
    assert max(g.state.units["W"].hex.distance(x) for x in r.cost) == 1  # always one hex, no more


# -- 10.10.3 zones of control -------------------------------------------------------------------------
def test_10_10_3_zoc_20km_mech_two_steps_10km_any_mech_battalion_light_two_battalions_suppressed_none():
    g = blank(
        [
            U("M3", "mech-bde", "red", "0404"),
            U("M1", "mech-bn", "red", "0606"),
            U("L1", "light-bn", "red", "0208"),
            U("L2", "light-bn", "red", "0208"),
        ]
    )
    s = g.state
    z = mv.zoc_hexes(s, [s.units[x] for x in ("M3", "M1", "L1", "L2")])
    assert s.map.hex("0404") in z and s.map.hex("0606") not in z and s.map.hex("0208") not in z
    g10 = blank(
        [
            U("M1", "mech-bn", "red", "0606"),
            U("L1", "light-bn", "red", "0208"),
            U("L2", "light-bn", "red", "0208"),
            U("L3", "light-bn", "red", "0404"),
        ],
        size=10,
    )
    s10 = g10.state
    z10 = mv.zoc_hexes(s10, list(s10.units.values()))
    assert (
        s10.map.hex("0606") in z10 and s10.map.hex("0208") in z10 and s10.map.hex("0404") not in z10
    )
    sup = blank(
        [
            U(
                "M3",
                "mech-bde",
                "red",
                "0404",
            ),
        ],
    )
    u = sup.state.units["M3"].evolve(markers={"suppressed"})
    assert not mv.exerts_zoc(sup.state, u)  # 10.15.7


def _zoc_game(extra=()):
    # red mech brigade at 0606; blue recon one hex out of its ZOC
    return blank(
        [
            U(
                "R",
                "mech-bde",
                "red",
                "0606",
            ),
            U("B", "recon-bn", "blue", "0404"),
            *extra,
        ]
    )


def test_10_10_3_1_entering_an_enemy_zoc_stops_the_mover():
    g = _zoc_game()
    s = g.state.evolve(units={**g.state.units, "R": g.state.units["R"].evolve(seen_by={"blue"})})
    r = mv.ground_reach(s, s.units["B"])
    zoc = mv.zoc_hexes(s, [s.units["R"]])
    entered = [x for x in r.cost if x in zoc]
    assert entered and all(x in r.stops for x in entered)
    assert all(
        r.parent.get(x) not in zoc for x in r.cost if x not in zoc
    )  # nothing reached through a ZOC hex


def test_10_10_3_3_leaving_a_zoc_into_a_non_zoc_hex_costs_2_more():
    path = line("0606", 3, 4)  # away from R: 0606 -> 0506 -> 0406 -> 0307
    g = blank([U("R", "mech-bde", "red", "0606"), U("B", "recon-bn", "blue", path[1])])
    s = g.state
    s = s.evolve(units={**s.units, "R": s.units["R"].evolve(seen_by={"blue"})})
    r = mv.ground_reach(s, s.units["B"])
    zoc = mv.zoc_hexes(s, [s.units["R"]])
    out = s.map.hex(path[2])
    assert out not in zoc
    assert r.cost[out] == 3 + 2  # clear 3 + disengage 2 (10.10.3.3)
    # one hex into another ZOC hex, then stop
    inside = [n for n in s.units["B"].hex.neighbours() if n in zoc and n != s.units["R"].hex]
    assert inside and all(r.cost[x] == 3 and x in r.stops for x in inside)
    o = at(g.__class__(g.ruleset, s), "6.C.3")
    res = o.submit(f"blue: disengage B {path[2]}").result
    assert res.outcome["mp"] == 5


def test_10_10_3_2_bypass_through_a_friendly_held_zoc_hex_costs_2_more():
    from owsnb.kernel.offset import OffsetSystem

    o = OffsetSystem()
    rh = o.from_label("0505")
    held = rh.neighbour(3)  # next to the enemy
    start, nxt = (
        held.neighbour(2),
        held.neighbour(4),
    )  # both two hexes from the enemy, not adjacent to each other
    lab = o.to_label
    corridor = {lab(x) for x in (start, held, nxt, rh)}
    marsh = {
        f"{c:02d}{r:02d}": "marsh"
        for c in range(1, 9)
        for r in range(1, 9)
        if f"{c:02d}{r:02d}" not in corridor
    }
    g = blank(
        [
            U("R", "mech-bde", "red", lab(rh)),
            U("B", "recon-bn", "blue", lab(start)),
            U("F", "light-bn", "blue", lab(held)),
        ],
        terrain=marsh,
    )
    s = g.state
    s = s.evolve(units={**s.units, "R": s.units["R"].evolve(seen_by={"blue"})})
    zoc = mv.zoc_hexes(s, [s.units["R"]])
    assert held in zoc and start not in zoc and nxt not in zoc
    r = mv.ground_reach(s, s.units["B"])
    assert held in r.bypass and held not in r.stops
    assert (
        r.cost[nxt] == r.cost[held] + 3 + 2 and nxt not in r.stops
    )  # terrain + 2 to bypass (10.10.3.2)
    alone = blank(
        [U("R", "mech-bde", "red", lab(rh)), U("B", "recon-bn", "blue", lab(start))], terrain=marsh
    )
    s2 = alone.state
    s2 = s2.evolve(units={**s2.units, "R": s2.units["R"].evolve(seen_by={"blue"})})
    r2 = mv.ground_reach(s2, s2.units["B"])
    assert held in r2.stops and nxt not in r2.cost  # without the friend: stop in the ZOC


# -- 10.9 stacking, 10.15.7, 10.4.1, 11.1.3, 10.10.2 ------------------------------------------------------
def test_10_9_stacking_9_steps_on_20km_5_on_10km_hq_sof_free_light_in_urban_free_engineer_one():
    g = blank([])
    assert mv.stacking_limit(g.state) == 9
    assert mv.stacking_limit(blank([], size=10).state) == 5
    assert mv.stacking_limit(blank([], size=370).state) is None
    g = blank(
        [
            U("A", "mech-bde", "blue", "0404"),
            U("B", "mech-bde", "blue", "0404"),
            U("HQ", "hq-div", "blue", "0404"),
            U("E", "engineer-bn", "blue", "0404"),
            U("L", "light-bn", "blue", "0505"),
        ],
        terrain={"0505": "urban"},
    )
    s = g.state
    assert mv.stack_steps(s, [s.units[x] for x in ("A", "B", "HQ", "E")], s.map.hex("0404")) == 7
    assert mv.stack_steps(s, [s.units["L"]], s.map.hex("0505")) == 0
    assert mv.stack_ok(s, s.units["E"], s.map.hex("0404"))
    third = blank(
        [
            U("A", "mech-bde", "blue", "0404"),
            U("B", "mech-bde", "blue", "0404"),
            U("C", "mech-bde", "blue", "0405"),
            U("D", "mech-bn", "blue", "0404"),
        ]
    )
    r = mv.ground_reach(third.state, third.state.units["C"])
    assert (
        third.state.map.hex("0404") in r.cost and third.state.map.hex("0404") not in r.ends
    )  # 7 + 3 > 9
    with pytest.raises(IllegalOrderError) as e:
        at(third, "6.C.3").submit("blue: move C 0404")
    assert e.value.rule == "10.9"


def test_10_15_7_suppressed_moves_one_hex_10_4_1_reserve_half_11_1_3_out_of_supply_half():
    g = blank([U("W", "recon-bn", "blue", "0404")])
    s = g.state
    w = s.units["W"]
    assert mv.movement_points(s, w.evolve(markers={"reserve"})).mp == 7
    assert mv.movement_points(s, w.evolve(markers={"out-of-supply"})).mp == 7
    assert mv.movement_points(s, w.evolve(markers={"reserve", "out-of-supply"})).mp == 3
    r = mv.ground_reach(s, w.evolve(markers={"suppressed"}))
    assert max(w.hex.distance(x) for x in r.cost) == 1 and len(r.cost) == 7


def test_10_10_2_disorganized_light_infantry_moves_at_the_wheeled_rate_ends_suppressed_and_cannot_attack():
    g = at(
        blank(
            [
                U("L", "light-bn", "blue", "0404"),
                U("R", "light-bn", "red", "0808"),
                U("W", "recon-bn", "blue", "0505"),
            ]
        ),
        "6.C.3",
    )
    far = line("0404", 0, 5)[-1]
    with pytest.raises(IllegalOrderError):
        g.check(f"blue: move L {far}")
    res = g.submit(f"blue: move L {far} disorganized=yes").result
    assert res.outcome["to"] == far and "suppressed" in g.state.units["L"].markers
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: move W 0606 disorganized=yes")
    assert e.value.rule == "10.10.2"


# -- 10.11 bridges -------------------------------------------------------------------------------------------
def _river_game(**kw):
    west = [f"04{r:02d}" for r in range(1, 9)]
    east = [f"05{r:02d}" for r in range(1, 9)]
    edges = []
    for a in west:
        for b in east:
            if b in nbrs(a):
                edges.append({"type": "major-river", "hexes": [a, b]})
    return blank(
        [
            U("E", "engineer-bn", "blue", "0304"),
            U("T", "mech-bde", "blue", "0304"),
            *kw.pop("extra", []),
        ],
        edges=edges,
        **kw,
    )


def test_10_11_major_river_is_np_without_a_bridge_and_an_engineer_bridge_costs_2_to_place_and_2_to_cross():
    g = at(_river_game(), "6.C.3")
    s = g.state
    r = mv.ground_reach(s, s.units["T"])
    assert not any(x.q >= 4 for x in r.cost)  # nothing across the river
    res = g.submit("blue: move E 0404 engineer=bridge").result
    assert (
        "10.11.1" in res.rules and g.state.map.info(g.hex("0404")).facts["bridge"]["side"] == "blue"
    )
    r = mv.ground_reach(g.state, g.state.units["T"])
    across = [x for x in r.cost if x.q == 4 and g.hex("0404").distance(x) == 1]
    assert across and all(
        r.cost[x] == r.cost[g.hex("0404")] + 2 + 2 for x in across
    )  # clear 2 + bridge 2
    red = mv.ground_reach(g.state, g.state.units["T"].evolve(side="red"))
    assert not any(x.q >= 4 for x in red.cost)  # the bridge serves its own side


def test_10_11_1_no_bridge_in_an_enemy_zoc_10_11_2_river_assault_places_it():
    g = at(_river_game(extra=[U("R", "mech-bde", "red", "0504")]), "6.C.3")
    s = g.state
    g2 = g.__class__(
        g.ruleset, s.evolve(units={**s.units, "R": s.units["R"].evolve(seen_by={"blue"})})
    )
    with pytest.raises(IllegalOrderError) as e:
        g2.check("blue: move E 0404 engineer=bridge")
    assert e.value.rule in ("10.11.2", "10.10")


# -- 6.4 naval movement ----------------------------------------------------------------------------------------
def _sea(units, **kw):
    feats = kw.pop(
        "features", [{"hex": "0101", "type": "port", "name": "Home", "capacity": 4, "owner": "red"}]
    )
    return blank(
        units,
        terrain={f"{c:02d}{r:02d}": "deep-sea" for c in range(1, 9) for r in range(1, 9)},
        features=feats,
        size=370.4,
        meta={},
        **kw,
    )


def test_6_4_naval_rates_cvn_4_surface_3_auxiliary_2_subs_3_and_2_on_the_operational_map():
    assert [
        mv.naval_rate(x)
        for x in ("cvn", "surface", "auxiliary", "patrol", "ssn", "ssgn", "ssbn", "ssk")
    ] == [
        4,
        3,
        2,
        2,
        3,
        3,
        3,
        2,
    ]
    assert mv.naval_rate("ssn", normal=True) == 2 and mv.naval_rate("ssk", normal=True) == 1
    assert mv.naval_rate("surface", hex_nm=100) == 6  # M2: regional 100 nm hexes


@pytest.mark.parametrize(
    "sub, hexes, cav", [("ssn", 3, True), ("ssn", 2, False), ("ssk", 2, True), ("ssk", 1, False)]
)
def test_6_4_2_2_cavitation_ssn_moving_3_ssk_moving_2(sub, hexes, cav):
    g = at(
        _sea(
            [
                {
                    "id": "S",
                    "type": "ddg",
                    "side": "blue",
                    "hex": "0404",
                    "data": {"category": "submarine", "subtype": sub, "signature_type": "local"},
                }
            ]
        ),
        "3.A.1",
    )
    to = line("0404", 0, hexes + 1)[-1]
    g.submit(f"blue: move S {to}")
    assert ("cavitation" in g.state.units["S"].markers) is cav


def test_6_4_1_1_houbei_patrol_craft_stays_within_2_hexes_of_a_chinese_controlled_port_6_4_1_2_diesel_subs_do_not():
    g = at(
        _sea(
            [
                {
                    "id": "HOUBEI",
                    "type": "ddg",
                    "side": "red",
                    "hex": "0202",
                    "data": {"subtype": "patrol", "nation": "PRC"},
                },
                {
                    "id": "SSK",
                    "type": "ddg",
                    "side": "red",
                    "hex": "0202",
                    "data": {"category": "submarine", "subtype": "ssk"},
                },
            ]
        ),
        "3.A.1",
    )
    s = g.state
    r = mv.naval_reach(s, s.units["HOUBEI"])
    port = s.map.hex("0101")
    assert r and all(x.distance(port) <= 2 for x in r)
    far = [
        x
        for x in mv.naval_reach(s, s.units["HOUBEI"].evolve(data={"subtype": "surface"}))
        if x.distance(port) > 2
    ]
    assert far
    g.submit("blue: done")
    with pytest.raises(IllegalOrderError) as e:
        g.submit(f"red: move HOUBEI {s.map.label(far[0])}")
    assert e.value.rule == "6.4.1.1"
    assert any(x.distance(port) > 2 for x in mv.naval_reach(s, s.units["SSK"]))


def test_6_4_2_1_silent_running_only_for_a_sub_that_stays_and_removed_when_it_moves():
    g = at(
        _sea(
            [
                {
                    "id": "S",
                    "type": "ddg",
                    "side": "blue",
                    "hex": "0404",
                    "data": {"category": "submarine", "subtype": "ssn"},
                }
            ]
        ),
        "3.A.1",
    )
    g.submit("blue: silent-running S")
    assert "silent-running" in g.state.units["S"].markers
    g.submit("blue: move S 0505")
    assert "silent-running" not in g.state.units["S"].markers
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: silent-running S")
    assert e.value.rule == "6.4.2.1"


def test_6_4_4_asw_mode_is_lost_when_moving_more_than_one_hex():
    g = at(_sea([U("D", "ddg", "blue", "0404"), U("D2", "ddg", "blue", "0404")]), "3.A.1")
    g.submit("blue: asw-mode D")
    g.submit("blue: asw-mode D2")
    g.submit(f"blue: move D {line('0404', 0, 2)[-1]}")
    g.submit(f"blue: move D2 {line('0404', 0, 3)[-1]}")
    assert "asw" in g.state.units["D"].markers and "asw" not in g.state.units["D2"].markers


def test_10_10_a_move_names_a_unit_of_the_side_and_a_hex_of_the_map_else_refused_citing_10_10():
    """10.10 (the move order's paragraph; 6.4 at sea): a side moves its own units to hexes of the
    map. The kernel binds the order's unit and hex: another side's unit and a unit that does not
    exist get the same refusal, a hex off the map is bad-hex, each citing 10.10; nothing changes."""
    g = at(_sea([U("D", "ddg", "blue", "0404"), U("R", "ddg", "red", "0808")]), "3.A.1")
    before = (g.seq, g.state_id)
    got = {}
    for name, text in [
        ("enemy", "blue: move R 0505"),
        ("absent", "blue: move NOPE 0505"),
        ("off-map", "blue: move D 9999"),
    ]:
        with pytest.raises(IllegalOrderError) as e:
            g.submit(text)
        got[name] = e.value
    assert {k: (v.code, v.rule) for k, v in got.items()} == {
        "enemy": ("not-your-unit", "10.10"),
        "absent": ("not-your-unit", "10.10"),
        "off-map": ("bad-hex", "10.10"),
    }
    assert str(got["enemy"]).replace("'R'", "X") == str(got["absent"]).replace("'NOPE'", "X")
    assert (g.seq, g.state_id) == before


def test_6_4_3_active_emcon_turns_the_unit_face_up_and_detected():
    g = at(_sea([U("D", "ddg", "blue", "0404"), U("R", "ddg", "red", "0808")]), "3.A.1")
    assert "D" not in g.view("red").units
    g.submit("blue: emcon D emit")
    assert "D" in g.view("red").units and "tacsit1" in g.state.units["D"].markers
    g.submit("blue: emcon D silent")
    assert "emitting" not in g.state.units["D"].markers


def test_6_2_a_detected_mover_is_halted_by_an_enemy_ship_with_the_intercept_posture():
    path = line("0202", 0, 4)
    g = at(_sea([U("D", "ddg", "blue", path[0]), U("R", "ddg", "red", path[1])]), "3.A.1")
    res = g.submit(f"blue: move D {path[3]}").result
    assert res.outcome["halted"] and g.state.units["D"].hex == g.hex(path[1])
    assert "red" in g.state.units["D"].seen_by and "blue" in g.state.units["R"].seen_by
    g2 = at(
        _sea([U("D", "ddg", "blue", path[0]), U("R", "ddg", "red", path[1], intercept=False)]),
        "3.A.1",
    )
    g2.submit(f"blue: move D {path[3]}")
    assert g2.state.units["D"].hex == g2.hex(path[3])


def test_6_4_5_mines_laid_in_secret_strike_a_ship_entering_with_criticals_and_can_be_swept():
    assert dict(mv.mine_preview("d6", 3)) == {
        0: Fraction(1, 3),
        1: Fraction(1, 2),
        2: Fraction(1, 6),
    }
    path = line("0202", 0, 3)
    g = at(
        _sea(
            [
                U("M", "ddg", "red", path[1], mine_capable=True),
                U("D", "ddg", "blue", path[0]),
                U("SW", "ddg", "red", line(path[1], 0, 2)[1], minesweeper=True),
            ],
            options={"mines": True},
        ),
        "3.A.1",
    )
    g.submit("blue: done")
    g.submit("red: lay-mines M")
    assert path[1] in g.state.secret["minefields"] and not g.view("blue").public.get("minefields")
    assert not g.view("blue").secret
    g.submit(f"red: move M {line(path[1], 3, 2)[1]}")
    g = at(g, "3.A.1") if g.clock.step == "3.A.1" else g
    g.submit("umpire: advance 3.A.1")  # next turn's naval movement
    assert g.clock.turn == 2
    # blue's destroyer sails through the minefield: d6 = 6 vs red shield 5 = 1 hit; halted in the minefield
    s, res, _ = run(g, f"blue: move D {path[2]}", [6])
    assert (
        res.outcome["mine_hits"] == 1
        and s.units["D"].hex == g.hex(path[1])
        and s.units["D"].steps == 1
    )
    assert path[1] in s.public["minefields"] and "6.4.5.2" in res.rules
    s, res, _ = run(g, f"blue: move D {path[2]}", [2])  # d6 = 2 < 5: no hit, it sails on
    assert res.outcome["mine_hits"] == 0 and s.units["D"].hex == g.hex(path[2])
    from .conftest import with_events

    g2 = with_events(g, [])
    g2.submit(f"blue: move D {path[2]}")
    g2.submit("blue: done")
    assert g2.state.public["minefields"]
    sw = g2.state.units["SW"]
    assert sw.hex.distance(g2.hex(path[1])) <= 1
    assert g2.preview(f"red: sweep-mines SW {path[1]}")[True] == Fraction(1, 2)
    s, res, _ = run(g2, f"red: sweep-mines SW {path[1]}", [4])
    assert res.outcome["cleared"] and path[1] not in s.secret["minefields"]
    off = at(_sea([U("M", "ddg", "red", "0404", mine_capable=True)]), "3.A.1")
    off.submit("blue: done")
    with pytest.raises(IllegalOrderError) as e:
        off.check("red: lay-mines M")
    assert e.value.rule == "6.4.5"


def test_6_4_5_2_mine_strike_preview_matches_100k_seeded_rolls():
    exact = mv.mine_preview("d8", 4)
    roll = FastRoller(5)
    from owsnb.rules.ows.dice import hits

    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = hits(roll("d8"), 4)
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []


# -- 6.4.6, 6.5.11, 6.5.12, 10.15.8 assaults -------------------------------------------------------------------------
def test_6_4_6_only_amphibious_units_swim_ashore_others_need_a_landing_ship_and_land_if_the_ship_survives():
    d = gload(
        add=[
            {"id": "MAR-1", "type": "marine-bn", "side": "blue", "hex": "0305"},
            {"id": "LST-1", "type": "lst", "side": "blue", "hex": "0305"},
        ]
    )
    d = at(d, "2.1")
    d.submit("blue: sealift MAR-1 LMSR-1")
    assert d.state.units["MAR-1"].data["aboard"] and d.state.units["MAR-1"].hex is None
    d.submit("umpire: advance 3.A.1")
    d.submit("blue: move LMSR-1 0204")
    d.submit("umpire: advance 3.A.2")
    beach = [x for x in nbrs("0204") if not x.startswith(("01", "02"))][0]
    d.submit(f"blue: amphibious-assault MAR-1 {beach}")
    m = d.state.units["MAR-1"]
    assert m.hex == d.hex(beach) and "amphibious-assault" in m.markers
    assert (
        d.state.units["LMSR-1"].hex == d.hex(beach)
        and "amphibious-assault" in d.state.units["LMSR-1"].markers
    )
    d.submit("umpire: advance 6.C.1")  # the ship survived the Combat phase
    assert (
        d.state.units["LMSR-1"].hex == d.hex("0204") and d.state.units["MAR-1"].data["landed"] == 1
    )
    e = gload(add=[{"id": "AR-1", "type": "mech-bn", "side": "blue", "hex": "0305"}])
    e = at(e, "2.1")
    e.submit("blue: sealift AR-1 LMSR-1")
    e.submit("umpire: advance 3.A.1")
    e.submit("blue: move LMSR-1 0204")
    e.submit("umpire: advance 3.A.2")
    with pytest.raises(IllegalOrderError) as err:
        e.submit(f"blue: amphibious-assault AR-1 {beach}")
    assert err.value.rule == "6.4.6" and err.value.code == "no-landing-means"


def test_6_5_11_airborne_mech_needs_two_transports_a_step_and_R11_lost_with_a_transport_shot_down():
    add = [
        {"id": "PARA", "type": "airborne-bn", "side": "blue", "hex": "0404"},
        {
            "id": "MPARA",
            "type": "mech-bn",
            "side": "blue",
            "hex": "0404",
            "data": {"airborne": True},
        },
        {"id": "C17-3", "type": "c17", "side": "blue", "box": "base", "data": {"base": "AIRLIFT"}},
    ]
    g = at(gload(add=add), "3.B.3")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: airborne-assault MPARA 0707 transports=C17-1")
    assert e.value.code == "too-few-transports" and "two per mechanised step" in str(e.value)
    g.submit("blue: airborne-assault PARA 0707 transports=C17-1")
    assert g.state.units["PARA"].hex == g.hex("0707") and g.state.units["C17-1"].hex == g.hex(
        "0707"
    )
    # the transport survives: back to base, the force is on the ground
    ok = at(g.fork(), "6.C.1")
    assert ok.state.units["C17-1"].box == "base" and ok.state.units["PARA"].data["landed"] == 1
    # the transport is shot down in Air Combat: the battalion aboard is lost with it (R11)
    from owsnb.kernel.events import unit_set

    from .conftest import with_events

    shot = with_events(g, [unit_set("C17-1", steps=0, hex=None, box="regeneration")])
    shot = at(shot, "6.C.1")
    assert not shot.state.units["PARA"].alive


def test_6_5_12_air_assault_from_an_lhd_hex_one_transport_per_step():
    add = [
        {"id": "AA", "type": "airborne-bn", "side": "blue", "hex": "0204"},
        {"id": "LHD", "type": "lst", "side": "blue", "hex": "0204", "data": {"subtype": "lhd"}},
        {
            "id": "MV22",
            "type": "c17",
            "side": "blue",
            "box": "base",
            "data": {"base": "AIRLIFT", "mission": "air-assault"},
        },
    ]
    g = at(gload(add=add), "3.B.3")
    res = g.submit("blue: air-assault AA 0304 transports=MV22").result
    assert "6.5.12" in res.rules and g.state.units["AA"].hex == g.hex("0304")


# -- property tests ----------------------------------------------------------------------------------------------------
_PROP = gload()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    uid=st.sampled_from(["1ABCT", "2SBCT", "1-LI", "1-REC", "ENG-1", "ART-1"]),
    a=st.integers(0, 20),
    b=st.integers(0, 20),
    weather=st.sampled_from(["clear", "storm", "snow", "mud"]),
)
def test_property_reach_is_monotone_in_movement_points(uid, a, b, weather):
    from owsnb.kernel.events import state_set
    from owsnb.kernel.reduce import apply

    s = apply(_PROP.state, state_set("public", {"weather": weather}))
    lo, hi = sorted((a, b))
    u = s.units[uid]
    r1, r2 = mv.ground_reach(s, u, mp=lo), mv.ground_reach(s, u, mp=hi)
    assert set(r1.cost) <= set(r2.cost)
    assert all(r2.cost[x] <= r1.cost[x] + 1e-9 for x in r1.cost)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    uid=st.sampled_from(["1ABCT", "2SBCT", "1-LI", "1-REC", "ENG-1"]),
    mp=st.integers(0, 30),
    weather=st.sampled_from(["clear", "storm", "snow", "mud"]),
)
def test_property_a_path_never_enters_np_terrain(uid, mp, weather):
    from owsnb.kernel.events import state_set
    from owsnb.kernel.reduce import apply

    s = apply(_PROP.state, state_set("public", {"weather": weather}))
    u = s.units[uid]
    r = mv.ground_reach(s, u, mp=mp)
    for x in r.cost:
        p = r.path_to(x)
        assert mv.path_cost(s, u, p) is not None, f"{uid} path {p} crosses NP"
        assert all(not mv.is_water(s, y) for y in p)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    moves=st.lists(
        st.tuples(
            st.sampled_from(
                ["1ABCT", "2SBCT", "1-LI", "1-REC", "ENG-1", "ART-1", "CSS-1", "HQ-1D"]
            ),
            st.integers(0, 200),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_property_stacking_is_never_exceeded_after_any_legal_move(moves):
    g = at(gload(), "6.C.3")
    for uid, k in moves:
        u = g.state.units[uid]
        r = reach(g, uid)
        ends = sorted((x for x in r if x != u.hex), key=lambda x: (x.q, x.r))
        if not ends:
            continue
        to = ends[k % len(ends)]
        try:
            g.submit(f"blue: move {uid} {g.state.map.label(to)}")
        except IllegalOrderError:
            continue
        lim = mv.stacking_limit(g.state)
        for hx in {x.hex for x in g.state.units.values() if x.hex is not None and x.side == "blue"}:
            assert (
                mv.stack_steps(
                    g.state,
                    [x for x in g.state.units.values() if x.hex == hx and x.side == "blue"],
                    hx,
                )
                <= lim
            )


def test_10_11_3_follow_on_the_engineer_leaves_its_bridge_and_moves_on_with_the_mp_left():
    g = at(_river_game(), "6.C.3")
    g.submit("blue: move E 0404 engineer=bridge")  # 3 + 2 MP of 15: it may carry on
    assert g.state.units["E"].data["moved"]["bridge_continue"]
    far = line("0404", 0, 2)[1]
    res = g.submit(f"blue: move E {far}").result
    assert res.outcome["to"] == far and g.state.map.info(g.hex("0404")).facts["bridge"]


def test_10_12_an_engineer_that_stays_places_an_obstacle_and_the_attacker_is_demoted():
    from owsnb.rules.ows import ground as gr

    g = at(
        blank(
            [
                U("E", "engineer-bn", "red", "0505"),
                U("R", "mech-bde", "red", "0505"),
                U("B", "armour-bde", "blue", "0404"),
            ]
        ),
        "6.C.3",
    )
    g.submit("blue: done")
    with pytest.raises(IllegalOrderError) as e:
        g.check("red: move E 0606 engineer=obstacle")
    assert e.value.rule == "10.12"
    g.submit("red: move E 0505 engineer=obstacle")
    s = g.state
    assert s.map.info(g.hex("0505")).facts["obstacle"]["side"] == "red"
    cb = gr.combat(s, "blue", g.hex("0505"), [s.units["B"]])
    assert (-1, "obstacle (10.12)") in cb.die_mods and "E engineer" in cb.def_factors


def test_6_5_10_4_interdiction_attacks_a_ground_unit_moving_through_its_zone_and_halts_it_if_hit():
    path = line("0101", 0, 8)
    g = blank(
        [
            U("W", "recon-bn", "blue", path[0]),
            {"id": "BASE", "type": "airlift-base", "side": "red", "hex": "0808"},
            {
                "id": "INT",
                "type": "cas",
                "side": "red",
                "hex": path[4],
                "data": {"base": "BASE", "mission": "interdiction"},
            },
        ],
        edges=[{"type": "road", "hexes": path}],
    )
    g = at(g, "6.C.3")
    s, res, _ = run(
        g, f"blue: move W {path[7]}", [10, 10]
    )  # two bombs at d10 vs 3: hits, the recon is lost
    assert res.outcome["halted"] and "6.5.10.4" in res.rules and not s.units["W"].alive
    s, res, _ = run(
        g, f"blue: move W {path[7]}", [1, 1]
    )  # missed: it drives on; the mission is expended
    assert (
        res.outcome["halted"] is None
        and s.units["W"].hex == g.hex(path[7])
        and "expended" in s.units["INT"].markers
    )


def test_6_5_10_4_a_move_past_a_known_interdiction_mission_previews_its_fires_exactly():
    path = line("0101", 0, 8)
    g = blank(
        [
            U("W", "recon-bn", "blue", path[0]),
            {"id": "BASE", "type": "airlift-base", "side": "red", "hex": "0808"},
            {
                "id": "INT",
                "type": "cas",
                "side": "red",
                "hex": path[4],
                "seen_by": ["blue"],
                "data": {"base": "BASE", "mission": "interdiction"},
            },
        ],
        edges=[{"type": "road", "hexes": path}],
    )
    g = at(g, "6.C.3")
    d = g.preview(f"blue: move W {path[7]}")
    assert d[(0, False)] == Fraction(2, 10) ** 2  # two d10 bombs both miss the recon's 3
    assert g.preview(f"blue: move W {path[1]}") is None  # the route stays out of its zone


# -- 6.5.10.4 SUCAP against naval movers ----------------------------------------------------------------------
SUCAP = {
    "id": "J20-SUCAP",
    "type": "j20-cap",
    "side": "red",
    "hex": "0504",
    "data": {
        "base": "J20-BASE",
        "mission": "sucap",
        "attacks": [
            {
                "id": "yj12",
                "die": "d10",
                "count": 2,
                "targets": ["naval"],
                "range": 1,
                "flags": ["supersonic"],
            }
        ],
    },
}


def _sucap(**sucap):
    from .conftest import load

    return at(load(add=[{**SUCAP, **sucap}], remove=("Type055-1", "Type054-1", "SSK-1")), "3.A.1")


def test_6_5_10_4_a_sucap_attacks_a_ship_moving_through_its_zone_by_the_naval_combat_rules():
    g = _sucap()
    # 2 d10 salvos vs DDG-1's 5 grey shields (7, 7, 6, 6, 6): one layer each, the 3 excess demote them
    # (R4 round-robin: d6 and d8, 9.2.1.1); a d6 never beats 7; the d8 passes 1 in 4, then hits red 5 half
    # the time
    plans = mv.sucap_plans(g.state, g.unit("J20-SUCAP"), g.unit("DDG-1"))
    assert [(p.die, p.layers) for p in plans] == [("d6", (7,)), ("d8", (7,))]
    assert dict(mv.sucap_preview(g.state, g.unit("J20-SUCAP"), g.unit("DDG-1"))) == {
        0: Fraction(7, 8),
        1: Fraction(1, 8),
    }
    s, res, _ = run(g, "blue: move DDG-1 0504", [6, 7, 5])
    assert (
        res.outcome["halted"].startswith("attacked by SUCAP J20-SUCAP") and "6.5.10.4" in res.rules
    )
    assert (
        s.units["DDG-1"].steps == 1 and "suppressed" in s.units["DDG-1"].markers
    )  # damaged (9.6.1)
    assert "expended" in s.units["J20-SUCAP"].markers and "red" in s.units["DDG-1"].seen_by
    from owsnb.rules.ows.units import counter

    assert counter(s.units["DDG-1"]).grey_left == 0  # every grey shield committed
    s2, res2, _ = run(g, "blue: move DDG-1 0504", [1, 1])  # both stopped by the grey shields
    assert res2.outcome["halted"] is None and s2.units["DDG-1"].steps == 2
    assert "expended" in s2.units["J20-SUCAP"].markers  # it has used its attack for this turn


def test_6_5_10_4_a_move_past_a_known_sucap_previews_its_attack_exactly():
    hidden = _sucap()
    assert hidden.preview("blue: move DDG-1 0504") is None  # Blue knows of no SUCAP
    known = _sucap(seen_by=["blue"])
    assert dict(known.preview("blue: move DDG-1 0504")) == {0: Fraction(7, 8), 1: Fraction(1, 8)}


def test_6_5_10_4_sucap_preview_matches_100k_seeded_rolls():
    from owsnb.rules.ows import strike

    g = _sucap(
        data={
            **SUCAP["data"],
            "attacks": [{"id": "yj12", "die": "d12", "count": 3, "targets": ["naval"], "range": 1}],
        }
    )
    m, ship = g.unit("J20-SUCAP"), g.unit("DDG-1")
    plans = mv.sucap_plans(g.state, m, ship)
    exact = dict(mv.sucap_preview(g.state, m, ship))
    roll = FastRoller(1)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = sum(strike._roll_salvo(roll, p, None, "s") for p in plans)
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(exact, counts, n) == []
