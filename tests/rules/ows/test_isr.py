"""ISR (8) and sensors (6.4.2, 6.5.7, 6.5.9): each test names its paragraph."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import isr
from owsnb.rules.ows.units import counter

from .conftest import FastRoller, at, load, run, within_3_sigma


def test_8_3_1_fixed_installations_are_always_detected():
    g = load()
    red = g.view("red")
    assert (
        "F35-BASE" in red.units and "ASP-B" in red.units
    )  # squadron base at an air base, permanent ASP
    assert "DDG-1" not in red.units


def test_8_4_1_face_down_option_shows_unknown_counters():
    g = load(options={"face_down": True}, remove=("SSK-1",))
    red = g.view("red")
    unknown = [u for u in red.units.values() if u.kind == "unknown"]
    assert unknown and all(u.id.startswith("unknown-") and not u.data for u in unknown)
    assert "DDG-1" not in red.units
    from owsnb.testing import find_leaks, hidden_tokens

    assert (
        find_leaks(
            [[u.id, u.name, dict(u.data)] for u in red.units.values()],
            hidden_tokens(g.state, "red", g.ruleset),
        )
        == []
    )
    g2 = at(g, "6.B.2")
    alias = next(
        u.id
        for u in g2.view("red").units.values()
        if u.kind == "unknown" and u.hex == g2.unit("DDG-1").hex
    )
    g2.submit("blue: done")
    with pytest.raises(IllegalOrderError) as e:  # naming a face-down unit is still refused (9.9.4)
        g2.submit(f"red: strike {alias} salvos=Type055-1:yj18")
    assert e.value.rule == "9.9.4"


def test_8_3_2_naval_and_air_auto_detected_by_enemy_naval_in_the_same_hex():
    g = at(load(units={"DDG-1": {"hex": "0504"}}, remove=("SSK-1",)), "5.2")
    assert "red" in g.unit("DDG-1").seen_by and "blue" in g.unit("Type055-1").seen_by


def test_8_3_3_low_signature_sub_is_not_auto_detected():
    g = at(load(), "5.2")
    assert "blue" not in g.unit("SSK-1").seen_by  # SSK in DDG-1's hex stays hidden
    assert "SSK-1" not in g.view("blue").units


def test_2_2_a_detected_counter_shows_its_dry_erase_marks_unless_the_option_hides_them():
    """2.2: "Players use dry-erase markers on the counters themselves to record combat hits and
    associated capability degradation, as well as the consumption of missiles." (9.5: "they cross
    out the appropriate die symbol"; 2.2.2.3.2: grey shields "are marked out".) A detected counter
    is face up, so by default the other side sees what is crossed out; option
    ``enemy_expenditure: hidden`` shows it only the printed values."""
    spent = {"DDG-1": {"seen_by": ["red"], "data": {"spent": {"tlam": 1, "sm2": 2}}}}
    g = load(units=spent)
    assert counter(g.view("red").units["DDG-1"]).spent == {"tlam": 1, "sm2": 2}
    h = load(units=spent, options={"enemy_expenditure": "hidden"})
    red = counter(h.view("red").units["DDG-1"])
    assert red.spent == {} and red.attack("tlam").left == 2  # the printed magazine
    assert counter(h.view("blue").units["DDG-1"]).spent == {"tlam": 1, "sm2": 2}  # its owner's
    assert h.view("red").units["DDG-1"].steps == g.unit("DDG-1").steps


def test_8_3_2_1_a_ground_unit_in_the_open_is_detected_by_an_isr_asset_without_a_roll():
    """8.3.2.1: "If in the open, and an ISR asset is placed within range to detect, then they are
    automatically detected. If they are in covered terrain (forest, hills, mountain, urban) then a
    die roll is made to determine detection provided a sensor is in range to detect." """
    g = at(load(), "5.1")  # BDE-R on open land (0704), HQ-R in the forest (0804)
    sub = g.submit("blue: isr 0704")
    assert [e for e in sub.events if e.kind == "die"] == []
    assert "blue" in g.unit("BDE-R").seen_by and sub.result.outcome["detected"] == ["BDE-R"]
    sub = g.submit("blue: isr 0804")  # covered: the dashboard die is rolled
    rolls = [e for e in sub.events if e.kind == "die"]
    assert len(rolls) == 1 and "HQ-R" in rolls[0].data["purpose"]
    assert ("blue" in g.unit("HQ-R").seen_by) is (rolls[0].data["result"] >= 7)


def test_8_4_theater_isr_rolls_the_dashboard_die_against_the_signature():
    g = at(load(), "5.1")
    s, res, ev = run(
        g, "blue: isr 0504", [7, 6]
    )  # d10 vs Type055-1 (7): detected; Type054-1 (7): not
    assert res.outcome["detected"] == ["Type055-1"]
    assert "blue" in s.units["Type055-1"].seen_by and "tacsit1" in s.units["Type055-1"].markers
    rolls = [e for e in ev if e.kind == "die"]
    assert [e.visible_to for e in rolls] == [
        frozenset({"blue", "red"}),
        frozenset({"red"}),
    ]  # success shown to Blue
    assert all(
        "Type054-1" not in str(x) for x in res.rolls
    )  # failed attempts are not reported to the searcher
    assert isr.theater_preview(g, "blue", 7)[True] == Fraction(2, 5)


def _blue_sees(g, s, ev):
    """Blue's view after *ev* (state *s*): its dice log and any hidden unit named anywhere in it."""
    from owsnb.kernel.view import side_view
    from owsnb.testing import find_leaks, hidden_tokens

    v = side_view(s, "blue", g.ruleset, ev)
    dice = [str(e) for e in v.events if e.kind == "die"]
    leaks = find_leaks(
        [[e.kind, dict(e.data)] for e in v.events], hidden_tokens(s, "blue", g.ruleset)
    )
    return dice, leaks


def test_8_4_the_searching_side_sees_its_own_successful_theater_isr_roll():
    g = at(load(remove=("Type054-1",)), "5.1")
    s, res, ev = run(g, "blue: isr 0504", [8])  # d10 8 >= 7: Type055-1 detected
    dice, leaks = _blue_sees(g, s, ev)
    assert dice == ["blue rolls d10 = 8 (theater ISR vs Type055-1 (signature 7))"] and leaks == []
    assert [e.rule for e in ev if e.kind == "die"] == ["8.4"]
    from owsnb.kernel.view import side_view

    red = [str(e) for e in side_view(s, "red", g.ruleset, ev).events if e.kind == "die"]
    assert red == dice  # the target's owner sees the same roll


def test_8_4_a_failed_theater_isr_roll_names_no_hidden_unit_in_the_searchers_view():
    g = at(load(remove=("Type054-1",)), "5.1")
    s, res, ev = run(g, "blue: isr 0504", [6])  # 6 < 7: not detected
    dice, leaks = _blue_sees(g, s, ev)
    assert "blue" not in s.units["Type055-1"].seen_by and res.outcome["detected"] == []
    assert (
        dice == [] and leaks == []
    )  # not even a roll naming the hex: its count would reveal hidden units (8.3)
    assert [str(e) for e in ev if e.kind == "note" and e.visible("blue")] == [
        "blue theater ISR on 0504: nothing detected"
    ]
    assert any(e.kind == "die" and e.visible("red") for e in ev)  # the target's owner still sees it


def test_8_2_theater_isr_pawns_are_limited_by_the_dashboard():
    g = at(load(rules={"space": {"blue": {"isr_pawns": 1}}}), "5.1")
    g.submit("blue: isr 0504")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: isr 0703")
    assert e.value.rule == "8.2"


def test_8_5_3_cooperative_sensing_best_die_promoted_n_minus_1_capped_d12():
    assert isr.cooperative_die(["d8", "d10", "d8"], limit="d12") == "d12"
    assert isr.cooperative_die(["d8", "d8"]) == "d10"
    assert (
        isr.cooperative_die(["d8", "d8"], rule="per-asset") == "d12"
    )  # R3 option: the literal 6.4.4


def test_8_5_3_cooperative_sensing_is_capped_at_d12_only_for_asw_and_stealth_aircraft():
    """8.5.3: "combine them into one detection roll by promoting the highest sensor. For ASW
    operations and when sensing stealth aircraft, do not promote the detection roll higher than a
    D12." Three D10 radars searching surface ships roll D16 (two promotions, R3)."""
    units = {
        "E2D-1": {"hex": "0404", "box": None},  # AEW d12, one hex away: d10 (6.5.9)
        "F35-CAP": {"hex": "0404", "box": None, "markers": ["emitting"]},  # radar d10 (6.5.9.6)
    }
    g = at(load(units=units, remove=("SSK-1",)), "5.2")
    sub = g.submit("blue: detect 0504 sensors=DDG-1,E2D-1,F35-CAP")
    rolls = [e for e in sub.events if e.kind == "die"]
    assert len(rolls) == 2 and {e.data["sides"] for e in rolls} == {16}  # Type055-1, Type054-1
    asw = [
        {"id": f"DDG-{i}", "type": "ddg-flight-iia", "side": "blue", "hex": "0404"}
        for i in (2, 3, 4)
    ]
    a = load(units={"DDG-1": {"markers": ["asw"]}, "SSK-1": {"markers": []}}, add=asw)
    hunters = [a.unit(f"DDG-{i}").evolve(markers=frozenset({"asw"})) for i in (1, 2, 3, 4)]
    die, notes = isr.local_die(a.state, "blue", hunters, a.unit("SSK-1"))  # d8 + 3 = d16
    assert die == "d12" and any("6.4.4" in n for n in notes)


def test_6_5_7_stealth_aircraft_detection_at_most_d12():
    g = load(
        units={
            "F35-CAP": {"hex": "0504", "box": None},
            "Type055-1": {"data": {"sensors": [{"kind": "radar", "die": "d16", "range": 1}]}},
        }
    )
    die, notes = isr.local_die(g.state, "red", [g.unit("Type055-1")], g.unit("F35-CAP"))
    assert die == "d12" and any("6.5.7" in n for n in notes)


def test_6_5_9_e3_vs_stealth_aircraft_at_range_0_1_2_3():
    assert [isr.aew_die("d12", d) for d in range(4)] == ["d12", "d10", "d8", "d6"]


def test_6_5_9_6_long_range_fighter_radar_searches_adjacent_hexes_only_when_emitting():
    units = {"F35-CAP": {"hex": "0404", "box": None}, "J20-CAP": {"hex": "0504", "box": None}}
    g = load(units=units, remove=("Type054-1",))
    f35, j20, ship = g.unit("F35-CAP"), g.unit("J20-CAP"), g.unit("Type055-1")
    assert f35.hex.distance(j20.hex) == 1 and ship.hex == j20.hex
    assert (
        isr.sensor_die(g.state, f35, j20) is None and isr.sensor_die(g.state, f35, ship) is None
    )  # EMCON
    g2 = load(
        units={**units, "F35-CAP": {**units["F35-CAP"], "markers": ["emitting"]}},
        remove=("Type054-1",),
    )
    f35 = g2.unit("F35-CAP")
    assert isr.sensor_die(g2.state, f35, g2.unit("J20-CAP")) == isr.FIGHTER_RADAR_DIE == "d10"
    assert (
        isr.sensor_die(g2.state, f35, g2.unit("Type055-1")) == "d10"
    )  # "threat aircraft and ships"
    far = load(
        units={
            "F35-CAP": {"hex": "0304", "box": None, "markers": ["emitting"]},
            "J20-CAP": units["J20-CAP"],
        }
    )
    assert far.unit("F35-CAP").hex.distance(far.unit("J20-CAP").hex) == 2
    assert (
        isr.sensor_die(far.state, far.unit("F35-CAP"), far.unit("J20-CAP")) is None
    )  # adjacent hexes only
    same = load(
        units={
            "F35-CAP": {"hex": "0504", "box": None, "markers": ["emitting"]},
            "J20-CAP": units["J20-CAP"],
        }
    )
    assert (
        isr.sensor_die(same.state, same.unit("F35-CAP"), same.unit("J20-CAP")) == "d12"
    )  # its air-to-air die in the hex
    seen = [e for e in isr.auto_detections(g2.state) if e.data["id"] == "F35-CAP"]
    assert (
        seen and "red" in seen[0].data["changes"]["seen_by"]
    )  # emitting: visible to the other side (6.4.3)


def test_6_5_9_2_aew_vs_ship_one_hex_d10_two_hexes_no_attempt():
    g = load(units={"E2D-1": {"hex": "0404", "box": None}})
    e2d = g.unit("E2D-1")
    t055 = g.unit("Type055-1")  # one hex away
    assert isr.sensor_die(g.state, e2d, t055) == "d10"
    far = t055.evolve(hex=g.hex("0704"))
    assert isr.sensor_die(g.state, e2d, far) is None


def test_6_5_9_4_maya_ship_radar_range_equals_its_anti_air_missile_range():
    g = load(units={"J20-CAP": {"hex": "0304", "box": None}})
    ddg = g.unit("DDG-1")  # radar range 1 (AA missiles range 1)
    assert isr.sensor_die(g.state, ddg, g.unit("J20-CAP")) is not None
    assert isr.sensor_die(g.state, ddg, g.unit("J20-CAP").evolve(hex=g.hex("0604"))) is None


def test_8_5_2_only_asw_die_in_asw_mode_senses_subs():
    g = load()
    ddg, ssk = g.unit("DDG-1"), g.unit("SSK-1")
    assert isr.sensor_die(g.state, ddg, ssk) is None
    assert isr.sensor_die(g.state, ddg.evolve(markers={"asw"}), ssk) == "d8"
    assert isr.sensor_die(g.state, g.unit("PATRIOT-1"), ssk) is None


def test_6_4_2_1_silent_running_demotes_and_2_1_9_littoral_demotes_asw():
    g = load(units={"DDG-1": {"markers": ["asw"]}, "PATRIOT-1": {}})
    die, notes = isr.local_die(g.state, "blue", [g.unit("DDG-1")], g.unit("SSK-1"))
    assert die == "d6" and any("6.4.2.1" in n for n in notes)  # d8 demoted by silent running
    lit = g.unit("SSK-1").evolve(hex=g.hex("0304"), markers=frozenset())
    die, notes = isr.local_die(g.state, "blue", [g.unit("DDG-1").evolve(hex=g.hex("0304"))], lit)
    assert die == "d6" and any("2.1.9" in n for n in notes)


def test_6_4_2_2_cavitation_promotes_detection():
    g = load(units={"DDG-1": {"markers": ["asw"]}})
    cav = g.unit("SSK-1").evolve(markers={"cavitation"})
    die, _ = isr.local_die(g.state, "blue", [g.unit("DDG-1")], cav)
    assert die == "d10"


def test_6_4_2_sub_detects_surface_with_its_torpedo_die_promoted_in_silent_running():
    g = load()
    ssk = g.unit("SSK-1")  # silent running, torpedo d10
    assert isr.sensor_die(g.state, ssk, g.unit("DDG-1")) == "d12"
    assert isr.sensor_die(g.state, ssk.evolve(markers=frozenset()), g.unit("DDG-1")) == "d10"


def test_6_4_2_a_submarine_must_roll_its_torpedo_die_to_detect_a_surface_ship_and_stays_unseen():
    """6.4.2: "Submarines can detect surface platforms in the same hex but must roll for detection
    using their torpedo attack die roll as the sensing die roll. Submarines attempting to detect
    surface platforms remain undetected unless detected by ASW missions (6.4.4)." """
    g = at(load(), "5.2")  # SSK-1 (Silent Running, torpedo d10) shares 0404 with DDG-1
    assert "red" not in g.unit("DDG-1").seen_by  # no automatic detection by the submarine (8.3.2)
    assert "tacsit1" not in g.unit("DDG-1").markers
    assert not [e for e in g.view("blue").events if e.kind == "unit.set" and "DDG-1" in str(e)]
    g.submit("blue: done")
    sub = g.submit("red: detect 0404 sensors=SSK-1")  # the torpedo die, promoted: d12
    rolls = [e for e in sub.events if e.kind == "die"]
    assert len(rolls) == 1 and rolls[0].data["sides"] == 12
    found = rolls[0].data["result"] >= 7  # DDG-1's signature
    assert ("red" in g.unit("DDG-1").seen_by) is found
    assert not [e for e in g.view("blue").events if e.kind == "die"]  # the boat's roll stays hidden
    assert "red" not in g.unit("SSK-1").seen_by and "SSK-1" not in g.view("blue").units
    g2 = at(load(), "5.2")
    g2.submit("blue: done")
    s, res, _ = run(g2, "red: detect 0404 sensors=SSK-1", [6])  # 6 < 7: not found
    assert res.outcome["detected"] == [] and "red" not in s.units["DDG-1"].seen_by


def test_8_3_3_sof_only_detected_by_sof():
    g = load(units={"SOF-B": {"hex": "0704", "box": None}, "SOF-R": {"hex": "0704", "box": None}})
    assert isr.sensor_die(g.state, g.unit("BDE-R"), g.unit("SOF-B")) is None
    assert isr.sensor_die(g.state, g.unit("SOF-R"), g.unit("SOF-B")) == "d10"


def test_8_5_local_detection_order_and_one_attempt_per_sensor():
    g = at(load(units={"DDG-1": {"markers": ["asw"]}, "SSK-1": {"markers": []}}), "5.2")
    s, res, ev = run(g, "blue: detect 0404 sensors=DDG-1", [8])  # ASW d8 vs signature 8
    assert res.outcome["detected"] == ["SSK-1"] and "blue" in s.units["SSK-1"].seen_by
    g.submit("blue: detect 0404 sensors=DDG-1")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: detect 0404 sensors=DDG-1")
    assert e.value.rule == "8.5" and e.value.code == "sensed"


def test_8_5_local_detection_roll_is_shown_to_the_searcher_only_when_it_succeeds():
    g = at(load(units={"DDG-1": {"markers": ["asw"]}, "SSK-1": {"markers": []}}), "5.2")
    s, _, ev = run(g, "blue: detect 0404 sensors=DDG-1", [8])  # ASW d8 vs 8: found
    dice, leaks = _blue_sees(g, s, ev)
    assert len(dice) == 1 and "local detection of SSK-1" in dice[0] and leaks == []
    s, _, ev = run(g, "blue: detect 0404 sensors=DDG-1", [7])  # 7 < 8: not found
    dice, leaks = _blue_sees(g, s, ev)
    assert dice == [] and leaks == [] and "blue" not in s.units["SSK-1"].seen_by


def test_8_5_detection_preview_matches_100k_seeded_rolls():
    g = load(
        units={
            "Type055-1": {"hex": "0503", "markers": ["asw"]},
            "Type054-1": {"hex": "0503", "markers": ["asw"]},
        }
    )
    d = isr.local_preview(g, "red", ["Type055-1", "Type054-1"], "SSN-1")
    die, _ = isr.local_die(
        g.state, "red", [g.unit("Type055-1"), g.unit("Type054-1")], g.unit("SSN-1")
    )
    assert die == "d10"  # two ASW assets: d8 promoted once (R3)
    roll = FastRoller(4)
    n = 100_000
    hits = sum(1 for _ in range(n) if roll(die) >= 8)
    assert within_3_sigma(dict(d), {True: hits, False: n - hits}, n) == []


def test_8_4_a_detected_counter_shows_its_printed_values_not_its_owners_notes():
    g = load(
        units={
            "F35-STRIKE": {
                "hex": "0504",
                "box": None,
                "seen_by": ["red"],
                "data": {"escorts": ["F35-CAP"]},
            }
        }
    )
    seen = g.view("red").units["F35-STRIKE"]
    assert "escorts" not in seen.data and "base" not in seen.data and seen.data["red_shield"] == 6
    assert g.view("blue").units["F35-STRIKE"].data["escorts"] == ("F35-CAP",)


# -- contested air ISR (8.5.4, 8.6) --------------------------------------------------------------------------
DRONE = {
    "id": "MQ-9",
    "type": "e2d",
    "side": "blue",
    "hex": "0704",
    "data": {
        "base": "F35-BASE",
        "mission": "isr",
        "stealth": True,
        "signature": 9,
        "signature_type": "local",
        "sensors": [{"kind": "eo", "die": "d10", "range": 0}],
    },
}


def _contested(drone=None, **units):
    """Blue's stealthy ISR drone over 0704 (Red brigade), Red's J-20 CAP in the hex, HQ-9 next door."""
    return at(
        load(
            add=[{**DRONE, **(drone or {})}],
            units={"J20-CAP": {"hex": "0704", "box": None}, "HQ9-1": {"hex": "0703"}, **units},
        ),
        "5.2",
    )


def test_8_5_4_the_defender_detects_the_drone_then_engages_it_at_once_and_it_survives_to_sense():
    g = _contested()
    c = isr.contest(g.state, "MQ-9")
    assert (c.detect_die, c.signature, [e.shooter for e in c.shots]) == (
        "d10",
        9,
        ["HQ9-1", "J20-CAP"],
    )
    s, res, ev = run(
        g, "blue: detect 0704 sensors=MQ-9", [9, 3, 2]
    )  # found; both miss (vs 4); BDE-R in the open: its EO detects it without a roll (8.3.2.1)
    assert "red" in s.units["MQ-9"].seen_by and s.units["MQ-9"].hex is not None
    assert res.outcome["detected"] == ["BDE-R"] and "8.5.4" in res.rules
    assert (
        s.units["HQ9-1"].data["spent"]["hq9"] == 1 and "engaged" in s.units["J20-CAP"].markers
    )  # 2.2.7.4, 9.7
    assert "blue" not in s.units["J20-CAP"].seen_by  # surviving reveals nothing of the shooters
    shots = [e for e in ev if e.kind == "die" and "engages" in e.data["purpose"]]
    assert shots and all(e.visible_to == frozenset({"red"}) for e in shots)
    search = next(e for e in ev if e.kind == "die" and "searches for MQ-9" in e.data["purpose"])
    assert search.visible_to == frozenset(
        {"blue", "red"}
    )  # Red found the drone: it sees its own search roll (8.5.4)
    assert all(
        "J20-CAP" not in str(r) for r in res.rolls
    )  # Blue's result shows none of the hidden shooters


def test_8_5_4_shot_down_only_the_engaging_assets_are_detected():
    g = _contested()
    s, res, _ = run(g, "blue: detect 0704 sensors=MQ-9", [10, 5, 1])  # found; HQ-9 hits
    assert s.units["MQ-9"].box == "regeneration" and s.units["MQ-9"].hex is None  # 9.7.4
    assert {"HQ9-1", "J20-CAP"} <= {u for u in s.units if "blue" in s.units[u].seen_by}
    assert "blue" not in s.units["BDE-R"].seen_by and res.outcome["detected"] == []


def test_8_5_4_undetected_drone_senses_normally_and_an_already_detected_one_is_not_searched_for():
    g = _contested()
    s, res, ev = run(g, "blue: detect 0704 sensors=MQ-9", [8])  # 8 < 9: not found
    assert "red" not in s.units["MQ-9"].seen_by
    assert res.outcome["detected"] == ["BDE-R"]  # in the open: its EO detects it, no roll (8.3.2.1)
    from owsnb.kernel.view import side_view
    from owsnb.testing import find_leaks, hidden_tokens

    red = side_view(
        s, "red", g.ruleset, ev
    )  # Red's failed search names the drone it did not find: hidden from Red
    assert [e.data["purpose"] for e in red.events if e.kind == "die"] == []
    assert find_leaks([dict(e.data) for e in red.events], hidden_tokens(s, "red", g.ruleset)) == []
    g2 = _contested(drone={"seen_by": ["red"]})
    assert isr.contest(g2.state, "MQ-9").already
    s2, _, _ = run(
        g2, "blue: detect 0704 sensors=MQ-9", [3, 5]
    )  # no search roll; HQ-9 misses, the J-20 hits
    assert s2.units["MQ-9"].box == "regeneration"


def test_8_6_contested_air_isr_goes_before_the_sides_other_local_detections():
    g = _contested(**{"PATRIOT-1": {"hex": "0604"}})
    g.submit("blue: detect 0604 sensors=PATRIOT-1")
    with pytest.raises(IllegalOrderError) as e:
        g.submit("blue: detect 0704 sensors=MQ-9")
    assert (e.value.code, e.value.rule) == ("contested-first", "8.6")
    assert not any("MQ-9" in str(o) for s in g.legal_orders("blue") for o in s.examples)


def test_8_5_4_preview_is_exact_on_what_the_side_knows():
    g = _contested()
    assert dict(g.preview("blue: detect 0704 sensors=MQ-9")) == {
        "not detected": 1
    }  # Blue knows no defender
    d = isr.contest_preview(g, "MQ-9")  # the umpire's: P(found) 2/10, P(kill | found) 1 - (3/10)^2
    assert d["shot down"] == Fraction(2, 10) * Fraction(91, 100) and d["survives"] == Fraction(
        2, 10
    ) * Fraction(9, 100)
    known = _contested(drone={"seen_by": ["red"]}, **{"HQ9-1": {"seen_by": ["blue"]}})
    p = known.preview(
        "blue: detect 0704 sensors=MQ-9"
    )  # Blue knows it is found and the HQ-9 it has detected
    assert dict(p) == {"shot down": Fraction(7, 10), "survives": Fraction(3, 10)}


def test_8_5_4_contest_preview_matches_100k_seeded_rolls():
    g = _contested()
    c = isr.contest(g.state, "MQ-9")
    exact = dict(c.distribution())
    roll = FastRoller(854)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        o, _ = c.resolve(roll)
        counts[o] = counts.get(o, 0) + 1
    assert within_3_sigma(exact, counts, n) == []
