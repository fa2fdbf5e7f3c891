"""Ground combat (10.2-10.15): initiative, organize, fires, the GCAT and its results. Each test names
its paragraph; the worked examples of 10.4.1.1.1, 10.8 and 10.15.9.1.3 are here."""

from fractions import Fraction

import pytest

from owsnb.kernel.errors import IllegalOrderError, NotYourTurnError
from owsnb.rules.ows import ground as gr
from owsnb.rules.ows.dice import shift
from owsnb.rules.ows.ground import fires

from .conftest import FastRoller, at, run, with_events, within_3_sigma
from .ground_kit import blank, line, nbrs


def U(i, t, side, hexlab, seen=True, markers=(), **data):
    d = {"id": i, "type": t, "side": side, "hex": hexlab}
    if seen:
        d["seen_by"] = ["red" if side == "blue" else "blue"]
    if markers:
        d["markers"] = list(markers)
    if data:
        d["data"] = data
    return d


A, D = "0404", "0505"  # adjacent hexes of the blank map
assert D in nbrs(A)


def duel(*extra, red_markers=(), red_data=None, **kw):
    """Blue armour brigade (d12 x3) next to a red mech brigade (d10, d10, d8), both detected."""
    units = [
        U("ABCT", "armour-bde", "blue", A),
        U("TR12", "mech-bde", "red", D, markers=red_markers, **(red_data or {})),
        *extra,
    ]
    return at(blank(units, **kw), "6.C.3")


# -- pure helpers: worked examples -------------------------------------------------------------------------
def test_10_15_9_1_1_odds_of_manoeuvre_steps_fractions_down_R7():
    assert [gr.odds(a, d) for a, d in ((3, 1), (7, 3), (3, 3), (2, 3), (1, 3), (2, 5))] == [
        "3:1",
        "2:1",
        "1:1",
        "1:2",
        "1:3",
        "1:3",
    ]
    cols = ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    assert gr.column_index("99:1", cols) == 7 and gr.column_index("1:5", cols) == 0
    assert gr.column_index("2:1", cols, 2) == 5 and gr.column_index("2:1", cols, -9) == 0


def test_10_15_9_1_3_example_1_1abct_d12_d12_d12_vs_12th_tank_d10_d10_d8_scores_3():
    assert gr.quality_points(["d12", "d12", "d12"], ["d10", "d10", "d8"]) == (3, 0)


def test_10_15_9_1_3_example_2_12th_tank_vs_a_lone_d8_battalion_1_plus_2_missing_is_3():
    assert gr.quality_points(["d10", "d10", "d8"], ["d8"]) == (3, 0)
    assert gr.quality_points(["d8"], ["d10", "d10", "d8"]) == (0, 3)
    assert gr.quality_points(["d10", "d8", "d8"], ["d10", "d10", "d6"]) == (1, 1)


@pytest.mark.parametrize(
    "roll, disrupted, n", [(4, False, 2), (2, False, 0), (1, False, 0), (4, True, 0), (6, True, 2)]
)
def test_10_4_1_1_1_us_division_proficiency_2_rolls_4_2_1_and_suppressed_hq_rolls_4(
    roll, disrupted, n
):
    assert gr.reaction_units(roll, 2, disrupted) == n
    d = gr.reaction_preview(2)
    assert d[2] == Fraction(1, 6) and d[0] == Fraction(1, 3)


def test_10_15_9_1_6_result_cells_parse():
    assert gr.parse_result("A1 D2R1 EXP") == {"a": 1, "d": 2, "ar": 0, "dr": 1, "exp": True}
    with pytest.raises(ValueError):
        gr.parse_result("Q3")


def test_gcat_placeholder_is_monotone_for_the_attacker():
    from owsnb.rules.ows.tables import load_tables

    g = load_tables()["gcat"]

    def score(cell):
        r = gr.parse_result(cell)
        return r["d"] - r["a"] + 0.5 * r["dr"] + 0.5 * r["exp"]

    cells = g["cells"]
    for i, row in enumerate(cells):
        assert len(row) == len(g["columns"])
        assert all(score(a) <= score(b) for a, b in zip(row, row[1:], strict=False)), (
            f"row {i} not monotone"
        )
    for j in range(len(g["columns"])):
        col = [score(r[j]) for r in cells]
        assert col == sorted(col), f"column {j} not monotone"


# -- the GCAT set-up (10.15.9) --------------------------------------------------------------------------------
def test_10_15_9_lead_units_quality_and_odds_c11_count_manoeuvre_steps_only():
    g = duel(U("HQ-R", "hq-div", "red", D))
    s = g.state
    cb = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"]])
    assert (cb.att_steps, cb.def_steps, cb.odds) == (3, 3, "1:1")  # the HQ does not count (C11)
    assert (
        cb.quality == (3, 0)
        and (1, "attacker quality advantage 3 points (10.15.9.1.3)") in cb.die_mods
    )
    assert cb.die == "d16" and cb.shield == 4
    assert cb.distribution() == gr.gcat_distribution(cb.gcat, cb.column, "d16", 4)


def test_R8_defender_shield_is_the_strongest_unit_with_defend_or_fortified_10_6_10_7():
    g = duel(U("LI", "light-bn", "red", D, markers=["fortified"]))
    s = g.state
    cb = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"]])
    assert cb.lead_def.id == "LI" and cb.shield == 3 + 2  # Fortified +2, not +3
    g2 = duel(U("LI", "light-bn", "red", D, markers=["defend"]))
    cb2 = gr.combat(g2.state, "blue", g2.state.map.hex(D), [g2.state.units["ABCT"]])
    assert cb2.lead_def.id == "TR12" and cb2.shield == 4  # 4 beats 3 + 1 on the tie-break


def test_10_15_9_1_2_supporting_arms_thresholds_2_4_6_per_side_then_netted_R5():
    arts = [U(f"ART{i}", "artillery-bn", "blue", "0403") for i in range(3)]
    g = duel(*arts)
    s = g.state
    h = s.map.hex(D)
    one = gr.combat(s, "blue", h, [s.units["ABCT"]], support=[s.units["ART0"]])
    assert (
        len(one.att_factors) == 2 and sum(n for n, _ in one.shifts) == 1 and one.die == "d16"
    )  # 2 dice: one column
    two = gr.combat(s, "blue", h, [s.units["ABCT"]], support=[s.units["ART0"], s.units["ART1"]])
    assert (
        len(two.att_factors) == 4 and sum(n for n, _ in two.shifts) == 1 and two.die == "d20"
    )  # 4+: die promotion
    three = gr.combat(
        s, "blue", h, [s.units["ABCT"]], support=[s.units[f"ART{i}"] for i in range(3)]
    )
    assert sum(n for n, _ in three.shifts) == 2  # 6+: another column
    red = [U(f"RA{i}", "artillery-bn", "red", "0606") for i in range(2)]
    g2 = duel(*arts, *red)
    s2 = g2.state
    net = gr.combat(
        s2,
        "blue",
        h,
        [s2.units["ABCT"]],
        support=[s2.units[f"ART{i}"] for i in range(3)],
        def_support=[s2.units["RA0"], s2.units["RA1"]],
    )
    assert sum(n for n, _ in net.shifts) == 1 and net.die == "d16"  # +2 -1 columns; +1 -1 die


def test_10_5_main_effort_is_the_lead_unit_and_a_supporting_arm():
    g = duel(U("LI", "light-bn", "blue", A, markers=["main-effort"]))
    s = g.state
    cb = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"], s.units["LI"]], lead=s.units["ABCT"])
    assert cb.lead_att.id == "LI" and "Main Effort" in cb.att_factors


def test_11_1_2_low_supply_one_column_11_1_3_out_of_supply_two_and_10_8_delay_demotes():
    g = duel(U("TR2", "mech-bde", "red", "0606"))
    s = g.state
    base = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"]])
    low = s.evolve(units={**s.units, "ABCT": s.units["ABCT"].evolve(markers={"low-supply"})})
    out = s.evolve(
        units={**s.units, "TR12": s.units["TR12"].evolve(markers={"out-of-supply", "delay"})}
    )
    assert gr.combat(low, "blue", s.map.hex(D), [low.units["ABCT"]]).column == base.column - 1
    cb = gr.combat(out, "blue", s.map.hex(D), [out.units["ABCT"]])
    assert cb.column == base.column + 2 and cb.die == shift(base.die, -1)


# -- results (10.15.9.1.6, 10.8) ------------------------------------------------------------------------------
def _apply(g, cell, **choices):
    s = g.state
    cb = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"]])
    ev, lines = gr.apply_result(s, cell, cb, def_choice=choices)
    return with_events(g, ev).state, lines


@pytest.mark.parametrize("cell, steps_left", [("D1", 3), ("D2", 2), ("D3", 2)])
def test_10_8_delay_unit_takes_d1_d2_d3_no_loss_then_one_step_and_always_retreats_1(
    cell, steps_left
):
    g = duel()
    g = with_events(
        g,
        [
            __import__("owsnb.kernel.events", fromlist=["unit_set"]).unit_set(
                "TR12", markers=frozenset({"delay"})
            )
        ],
    )
    s, lines = _apply(g, cell)
    t = s.units["TR12"]
    assert (
        t.steps == steps_left
        and t.hex.distance(s.map.hex(D)) == 1
        and t.hex.distance(s.map.hex(A)) == 2
    )


def test_10_15_9_1_6_first_loss_always_applies_retreat_cancelled_by_a_step_extra_losses_to_retreat_fortified_r1():
    s, _ = _apply(duel(), "D1R1")
    assert s.units["TR12"].steps == 2 and s.units["TR12"].hex != s.map.hex(D)
    s, _ = _apply(duel(), "D1R1", hold="yes")
    assert s.units["TR12"].steps == 1 and s.units["TR12"].hex == s.map.hex(D)
    s, _ = _apply(duel(), "D3R1", trade="yes")
    t = s.units["TR12"]
    assert t.steps == 2 and t.hex.distance(s.map.hex(A)) == 4  # 1 step, retreat 1 + 2
    fort = duel(red_markers=["fortified"])
    s, lines = _apply(fort, "D1R1")
    assert s.units["TR12"].hex == s.map.hex(D) and any("R1" in x for x in lines)


def test_R9_a_unit_that_cannot_retreat_loses_a_step_instead():
    ring = [x for x in nbrs(D) if x != A]
    boxed = duel(*[U(f"B{i}", "light-bn", "blue", x) for i, x in enumerate(ring)])
    s, lines = _apply(boxed, "D1R1")
    assert s.units["TR12"].steps == 1 and s.units["TR12"].hex == s.map.hex(D)


# -- the attack as played (10.3 3.C-3.H) ------------------------------------------------------------------------
def test_10_3_attack_waits_for_the_defenders_fires_then_rolls_the_gcat():
    g = duel(U("RART", "artillery-bn", "red", "0606"))
    res = g.submit(f"blue: attack {D} with=ABCT").result
    assert res.outcome["pending"] and g.state.clock.acting == ("red",)
    with pytest.raises((IllegalOrderError, NotYourTurnError)):
        g.submit("blue: move ABCT 0303")
    with pytest.raises(IllegalOrderError) as e:
        g.check("red: move TR12 0606")
    assert e.value.code == "defender-answers"
    cb = gr.combat(
        g.state, "blue", g.hex(D), [g.state.units["ABCT"]], def_support=[g.state.units["RART"]]
    )
    # d16 (quality) demoted by the defender's 2 IDF dice at 4? no: 2 dice = one column left only
    assert cb.die == "d16" and cb.columns[cb.column] == "1:2"
    s, res, ev = run(
        g, "red: defensive-fire support=RART", [12]
    )  # 12 - 4 = 8: row "beat by 5+" on 1:2: D1R1
    assert res.outcome["cell"] == gr.gcat_cell(cb.gcat, cb.column, 12, 4) == "D1R1"
    assert s.units["TR12"].steps == 2 and s.units["TR12"].hex != g.hex(D)
    assert s.clock.acting == ("blue",) and "idf-spt" in s.units["RART"].markers
    assert any(e.kind == "die" and e.visible_to is None for e in ev)


def test_10_3_a_defender_who_passes_gets_the_gcat_rolled_and_the_attacker_resumes():
    g = duel()
    g.submit(f"blue: attack {D} with=ABCT")
    g.submit("red: done")
    assert g.clock.step == "6.C.3" and g.state.clock.acting == ("blue",)
    assert not g.state.secret.get("ground_pending") and any(
        "Ground combat" in str(e.data) or e.rule == "10.15.9" for e in g.events if e.kind == "die"
    )


def test_10_15_1_at_most_3_steps_across_one_hexside_multi_axis_allowed():
    other = next(x for x in nbrs(D) if x != A and x in nbrs(A))
    g = duel(U("LI", "light-bn", "blue", A), U("M2", "mech-bde", "blue", other))
    with pytest.raises(IllegalOrderError) as e:
        g.check(f"blue: attack {D} with=ABCT,LI")
    assert e.value.rule == "10.15.1"
    g.check(f"blue: attack {D} with=ABCT,M2")


def test_10_4_1_reserves_do_not_attack_and_lose_the_marker_when_attacked_10_4_1_1_exploit_at_half_mp():
    g = duel(U("RES", "mech-bde", "blue", "0403", markers=["reserve"]))
    with pytest.raises(IllegalOrderError) as e:
        g.check(f"blue: attack {D} with=RES")
    assert e.value.rule == "10.4.1"
    g2 = duel(red_markers=["reserve"])
    g2.submit(f"blue: attack {D} with=ABCT")
    g2.submit("red: done")
    assert "reserve" not in g2.state.units["TR12"].markers
    g3 = duel(U("RES", "mech-bde", "blue", "0403", markers=["reserve"]))
    far = [x for x in g3.state.map.hexes if g3.state.units["RES"].hex.distance(x) == 3][0]
    res = g3.submit("blue: exploit RES").result
    assert "reserve" not in g3.state.units["RES"].markers and res.outcome["to"] == "0403"
    from owsnb.rules.ows.movement import ground_reach

    assert ground_reach(g3.state, g3.state.units["RES"], exploit=True).allowance.mp == 5
    assert far is not None


def test_10_15_9_1_6_exp_result_lets_the_attackers_exploit_at_half_mp_and_attack_again():
    r2 = next(x for x in nbrs(D) if x not in nbrs(A) and x != A)
    g = at(
        blank(
            [
                U("ABCT", "armour-bde", "blue", A),
                U("LI", "light-bn", "red", D),
                U("R2", "light-bn", "red", r2),
            ]
        ),
        "6.C.3",
    )
    g.submit(f"blue: attack {D} with=ABCT")
    res = run(g, "red: defensive-fire", [16])[1]
    assert res.outcome["cell"] == "D3R2 EXP"  # 3:1, d16 (quality) 16 vs 3
    from owsnb.kernel.orders import Order
    from owsnb.testing import fixed_dice

    o = Order.parse("red: defensive-fire")
    adj = g.ruleset.adjudicate(
        g.state, o, g.ruleset.check(g.state, o), fixed_dice([16], actor="red")
    )
    g = with_events(g, [*adj.events])
    assert not g.state.units["LI"].alive and g.state.units["ABCT"].data["exp"] == 1
    with pytest.raises(IllegalOrderError):
        g.check(f"blue: move ABCT {D}")  # normal movement is over (G1)
    g.submit(f"blue: exploit ABCT {D}")
    assert g.state.units["ABCT"].hex == g.hex(D)
    g.submit(f"blue: attack {r2} with=ABCT")  # exploitation combat (3.H)
    assert g.state.clock.acting == ("red",)


def test_10_3_prep_fire_on_the_fet_expends_the_artillery_and_comes_before_moves():
    g = duel(U("ART", "artillery-bn", "blue", "0403"))
    d = g.preview("blue: prep-fire TR12 with=ART")
    assert d[(0, False)] == Fraction(9, 100) and d[(1, True)] == Fraction(
        49, 100
    )  # two d10 vs 4; 2 hits a step
    s, res, _ = run(g, "blue: prep-fire TR12 with=ART", [4, 9])
    assert res.outcome["hits"] == 2 and res.outcome["steps"] == 1 and res.outcome["suppressed"]
    assert "expended" in s.units["ART"].markers and s.units["TR12"].steps == 2
    g.submit("blue: move ART 0303")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: prep-fire TR12 with=ART")
    assert e.value.rule in ("10.3", "10.15.5")


def test_2_3_1_artillery_in_rsoi_fires_demoted_on_the_fet():
    """2.3.1: "Units in an RSO&I status are demoted in combat": the battalion's two d10 fire
    missions roll d8 (P(no hit) vs 4 = 3/8 * 3/8) while it is in RSO&I."""
    g = duel(U("ART", "artillery-bn", "blue", "0403", markers=("rsoi",)))
    assert g.preview("blue: prep-fire TR12 with=ART")[(0, False)] == Fraction(9, 64)


def test_10_15_3_span_of_control_two_battalions_or_one_bag():
    arts = [U(f"ART{i}", "artillery-bn", "blue", "0403") for i in range(3)]
    g = duel(*arts)
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: prep-fire TR12 with=ART0,ART1,ART2")
    assert e.value.rule == "10.15.3"
    g.check("blue: prep-fire TR12 with=ART0,ART1")


def test_10_15_4_fet_preview_matches_100k_seeded_rolls():
    exact = gr.fire_preview(["d10", "d10", "d12"], 4, 1, 2)
    roll = FastRoller(21)
    from owsnb.rules.ows.dice import hits

    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = sum(hits(roll(d), 4, critical=False) for d in ("d10", "d10", "d12"))
        key = (min(k // 2, 99), k >= 1)
        counts[key] = counts.get(key, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []


def test_10_15_9_gcat_preview_matches_100k_seeded_rolls():
    g = duel(U("ART", "artillery-bn", "blue", "0403"))
    s = g.state
    cb = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"]], support=[s.units["ART"]])
    exact = cb.distribution()
    roll = FastRoller(17)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        c = gr.gcat_cell(cb.gcat, cb.column, roll(cb.die), cb.shield)
        counts[c] = counts.get(c, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []
    assert g.preview(f"blue: attack {D} with=ABCT support=ART").distribution() == exact


def test_10_15_7_suppressed_artillery_gives_no_idf_support_and_a_suppressed_hq_loses_its_main_effort():
    g = duel(U("ART", "artillery-bn", "blue", "0403", markers=["suppressed"]))
    with pytest.raises(IllegalOrderError) as e:
        g.check(f"blue: attack {D} with=ABCT support=ART")
    assert e.value.rule == "10.15.7"
    h = at(
        blank(
            [
                U("HQ", "hq-div", "red", D),
                U("M", "mech-bde", "red", "0606", markers=["main-effort"], me_by="HQ", hq="HQ"),
                U("ART", "artillery-bn", "blue", "0403"),
                U("ART2", "artillery-bn", "blue", "0403"),
            ],
            terrain={D: "urban"},
        ),
        "6.C.3",
    )
    s, res, _ = run(
        h, "blue: prep-fire HQ with=ART,ART2", [1, 3, 1, 3]
    )  # 2 hits on an HQ in a city: suppressed
    assert (
        res.outcome["suppressed"]
        and res.outcome["steps"] == 0
        and "main-effort" not in s.units["M"].markers
    )


def test_10_7_fortify_needs_defend_from_the_start_of_the_phase_and_an_engineer():
    g = at(blank([U("T", "mech-bde", "blue", A), U("E", "engineer-bn", "blue", A)]), "6.C.2")
    g.submit("blue: defend T")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: fortify T")
    assert e.value.code == "not-in-defend"
    g.submit("umpire: advance 6.C.2")  # next turn's Organize step: T started it in Defend
    assert g.clock.turn == 2
    g.submit("blue: fortify T")
    assert "fortified" in g.state.units["T"].markers and "defend" not in g.state.units["T"].markers
    g.submit("umpire: advance 6.C.3")
    g.submit("blue: move T 0303")
    assert (
        g.state.map.info(g.hex(A)).facts["fortified"]["side"] == "blue"
    )  # the marker stays in the hex


def test_10_5_one_main_effort_per_hq_and_none_from_a_disrupted_hq():
    g = at(
        blank(
            [
                U("HQ", "hq-div", "blue", A),
                U("T", "mech-bde", "blue", A, hq="HQ"),
                U("T2", "mech-bde", "blue", A, hq="HQ"),
            ]
        ),
        "6.C.2",
    )
    g.submit("blue: main-effort T")
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: main-effort T2")
    assert e.value.rule == "10.5"
    d = at(
        blank(
            [
                U("HQ", "hq-div", "blue", A, markers=["disrupted-c2"]),
                U("T", "mech-bde", "blue", A, hq="HQ"),
            ]
        ),
        "6.C.2",
    )
    with pytest.raises(IllegalOrderError) as e:
        d.check("blue: main-effort T")
    assert e.value.rule == "7.2.1.1"


def test_10_4_1_1_1_reaction_move_rolls_once_for_the_formation():
    g = duel(
        U("HQ", "hq-div", "red", "0707", proficiency=2),
        U("RES", "mech-bn", "red", "0607", markers=["reserve"], hq="HQ"),
        red_data={"hq": "HQ"},
        options={"reaction_move": True},
    )
    g.submit(f"blue: attack {D} with=ABCT")
    assert g.preview("red: react RES 0606")[2] == Fraction(1, 6)
    s, res, _ = run(g, "red: react RES 0606", [4])  # 4 - 2 = 2 counters may react
    assert res.outcome["react_left"] == 1 and "reserve" not in s.units["RES"].markers
    s, res, _ = run(g, "red: react RES 0606", [2])
    assert res.outcome["react_left"] == 0 and s.units["RES"].hex == g.hex("0607")


# -- initiative (10.2) ------------------------------------------------------------------------------------------
def _formations(method, **kw):
    units = [
        U("HQA", "hq-div", "blue", "0101", seen=False),
        U("HQB", "hq-div", "blue", "0102", seen=False),
        U("A1", "mech-bn", "blue", "0201", seen=False, hq="HQA"),
        U("B1", "mech-bn", "blue", "0202", seen=False, hq="HQB"),
        U("HQR", "hq-div", "red", "0808", seen=False),
        U("R1", "mech-bn", "red", "0708", seen=False, hq="HQR"),
    ]
    return blank(units, options={"ground_initiative": method}, **kw)


def test_10_2_1_by_side_one_pass_blue_then_red():
    g = at(_formations("side"), "6.C.3")
    assert g.state.clock.acting == ("blue",)
    g.submit("blue: move A1 0301")
    g.submit("blue: done")
    assert g.state.clock.acting == ("red",)
    g.submit("red: done")
    assert g.clock.step != "6.C.3"


def test_10_2_2_igougo_by_formation_sides_alternate_one_formation_at_a_time():
    g = at(_formations("formation"), "6.C.1")
    g.submit("blue: initiative order=HQB,HQA")
    g.submit("umpire: advance 6.C.3")
    assert (
        g.state.clock.acting == ("blue",) and g.state.sides["blue"].private["activation"] == "HQB"
    )
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: move A1 0301")
    assert e.value.rule == "10.2"
    g.submit("blue: move B1 0302")
    g.submit("blue: done")
    assert g.state.clock.acting == ("red",) and g.state.sides["red"].private["activation"] == "HQR"
    g.submit("red: done")
    assert (
        g.clock.step == "6.C.3" and g.state.sides["blue"].private["activation"] == "HQA"
    )  # the next pass
    g.submit("blue: move A1 0301")
    g.submit("blue: done")
    assert g.clock.step != "6.C.3"
    assert "HQA" not in str(g.view("red").public) and "HQB" not in str(g.view("red").public)


def test_10_2_3_chit_draw_activates_formations_in_random_order():
    g = at(_formations("chits"), "6.C.2")
    s, res, ev = run(
        g, "umpire: advance 6.C.3", [3, 1, 1]
    )  # cup: HQA, HQB, HQR -> draw HQR, HQA, HQB
    q = [s.sides[x].private.get("activation") for x in ("blue", "red")]
    assert q == ["HQA", "HQR"] and s.clock.acting == ("red",)  # red first, then blue's HQA
    assert s.secret["ground_queue"] == (("blue", "HQB"),)


def test_10_2_4_planned_activation_disrupted_hq_goes_last():
    g = _formations("planned")
    g = with_events(
        g,
        [
            __import__("owsnb.kernel.events", fromlist=["unit_set"]).unit_set(
                "HQA", markers=frozenset({"disrupted-c2"})
            )
        ],
    )
    g = at(g, "6.C.2")
    s, _, _ = run(
        g, "umpire: advance 6.C.3", [1, 1, 1]
    )  # side chits: blue (HQB), red (HQR); then HQA
    assert (
        s.sides["blue"].private["activation"] == "HQB"
        and s.sides["red"].private["activation"] == "HQR"
    )
    assert s.secret["ground_queue"] == (("blue", "HQA"),)


def test_10_2_5_a_decision_card_seizes_the_initiative_and_both_cards_mean_an_opposed_roll():
    g = at(
        _formations(
            "side",
            rules={
                "hands": {
                    "red": {"decision": ["planned-offensive"]},
                    "blue": {"decision": ["planned-offensive"]},
                }
            },
        ),
        "6.C.1",
    )
    g.submit("blue: done")
    g.submit("red: initiative seize=planned-offensive")
    g.submit("umpire: advance 6.C.3")
    assert g.state.clock.acting == ("red",)
    g2 = at(
        _formations(
            "side",
            rules={
                "hands": {
                    "red": {"decision": ["planned-offensive"]},
                    "blue": {"decision": ["planned-offensive"]},
                }
            },
        ),
        "6.C.1",
    )
    g2.submit("blue: initiative seize=planned-offensive")
    g2.submit("blue: done")
    g2.submit("red: initiative seize=planned-offensive")
    g2.submit("umpire: advance 6.C.2")
    s, res, _ = run(g2, "umpire: advance 6.C.3", [2, 5])  # blue 2, red 5: red first
    assert s.clock.acting == ("red",)
    assert "planned-offensive" not in g2.state.sides["blue"].private["hand"]["decision"]


# -- landings (10.15.8) -------------------------------------------------------------------------------------------
def test_10_15_8_1_unopposed_landing_mech_may_advance_then_attack_others_may_not():
    g = at(
        blank(
            [
                U("M", "mech-bn", "blue", A, landed=1, assault={"mode": "air", "delivered": True}),
                U("L", "light-bn", "blue", A, landed=1, assault={"mode": "air", "delivered": True}),
                U("R", "light-bn", "red", line(A, 0, 3)[2]),
            ]
        ),
        "6.C.3",
    )
    step = line(A, 0, 2)[1]
    g.submit(f"blue: move M {step}")
    g.submit(f"blue: move L {step}")
    g.check(f"blue: attack {line(A, 0, 3)[2]} with=M")
    with pytest.raises(IllegalOrderError) as e:
        g.check(f"blue: attack {line(A, 0, 3)[2]} with=L")
    assert e.value.rule == "10.15.8.1"


def test_10_15_8_3_opposed_landing_assaults_its_own_hex_with_an_immediate_second_round():
    g = at(
        blank(
            [
                U(
                    "M1",
                    "marine-bn",
                    "blue",
                    D,
                    landed=1,
                    assault={"mode": "sea", "delivered": True},
                ),
                U(
                    "M2",
                    "marine-bn",
                    "blue",
                    D,
                    landed=1,
                    assault={"mode": "sea", "delivered": True},
                ),
                U("R", "mech-bde", "red", D, markers=["fortified"]),
            ]
        ),
        "6.C.3",
    )
    g.submit(f"blue: attack {D} with=M1,M2")
    s, res, ev = run(
        g, "red: defensive-fire", [4, 1]
    )  # 1:2, 4 vs 6: A1, inconclusive; at once 1:3, 1 vs 6: A2
    assert "10.15.8.3" in res.rules and len([e for e in ev if e.kind == "die"]) == 2
    assert not s.units["M1"].alive and not s.units["M2"].alive and s.units["R"].steps == 3


def test_10_15_5_a_counter_fires_all_its_missions_at_once_unless_splitting_is_allowed():
    g = duel(U("ART", "artillery-bn", "blue", "0403"))
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: prep-fire TR12 with=ART missions=1")
    assert e.value.rule == "10.15.5"
    sp = duel(U("ART", "artillery-bn", "blue", "0403"), options={"fire_splitting": True})
    s, res, _ = run(sp, "blue: prep-fire TR12 with=ART missions=1", [1])
    art = s.units["ART"]
    assert (
        "expended" not in art.markers and art.data["spent"]["fires"] == 1
    )  # one mission left, never twice
    from owsnb.rules.ows.units import counter

    assert counter(art).attacks[0].left == 1


def test_10_8_1_a_recon_unit_may_switch_to_delay_when_attacked():
    g = duel(U("REC", "recon-bn", "red", D))
    g.submit(f"blue: attack {D} with=ABCT")
    s, res, _ = run(g, "red: defensive-fire delay=REC", [1])
    rec = s.units["REC"]
    assert "10.8.1" in res.rules and "delay" in rec.markers
    assert rec.hex.distance(g.hex(D)) == 1 and s.units["TR12"].hex == g.hex(
        D
    )  # only the delaying unit falls back
    alone = duel(U("REC", "recon-bn", "red", "0606"))
    cb = gr.combat(alone.state, "blue", alone.hex(D), [alone.state.units["ABCT"]])
    both = with_events(
        alone,
        [
            __import__("owsnb.kernel.events", fromlist=["unit_set"]).unit_set(
                "TR12", markers=frozenset({"delay"})
            )
        ],
    )
    cb2 = gr.combat(both.state, "blue", both.hex(D), [both.state.units["ABCT"]])
    assert (-1, "defender in Delay (10.8)") in cb2.die_mods and cb2.die == shift(cb.die, -1)
    with pytest.raises(IllegalOrderError) as e:
        g.check("red: defensive-fire delay=TR12")
    assert e.value.rule == "10.8.1"


def test_10_15_3_1_a_division_bombardment_masses_up_to_4_artillery_units():
    arts = [U(f"ART{i}", "artillery-bn", "blue", "0403") for i in range(4)]
    me = [U("ARTME", "artillery-bn", "blue", "0403", markers=["main-effort"])]
    g = duel(*arts[:3], *me, options={"bombardment": True})
    g.check("blue: prep-fire TR12 with=ART0,ART1,ART2,ARTME")
    with pytest.raises(IllegalOrderError):
        g.check("blue: prep-fire TR12 with=ART0,ART1,ART2")  # without the Main Effort: 2 battalions


def test_10_15_4_1_pgm_promotion_only_for_attack_helicopters_and_air_munitions():
    g = duel(
        {"id": "BASE", "type": "airlift-base", "side": "blue", "hex": "0101"},
        {
            "id": "AH",
            "type": "cas",
            "side": "blue",
            "hex": D,
            "data": {"base": "BASE", "aircraft": "rotary"},
        },
        {"id": "JET", "type": "cas", "side": "blue", "hex": D, "data": {"base": "BASE"}},
    )
    s = g.state
    t = s.units["TR12"]
    assert [d for _, d, _ in fires._missions(s, s.units["AH"], t)] == [
        "d12",
        "d12",
    ]  # clear, armour: +1
    assert [d for _, d, _ in fires._missions(s, s.units["JET"], t)] == [
        "d10",
        "d10",
    ]  # no munitions counter


def test_10_15_6_cas_and_idf_support_are_supporting_arms_C3():
    g = duel(
        {"id": "BASE", "type": "airlift-base", "side": "blue", "hex": "0101"},
        {"id": "CAS", "type": "cas", "side": "blue", "hex": D, "data": {"base": "BASE"}},
        U("ART", "artillery-bn", "blue", "0403"),
    )
    s = g.state
    cb = gr.combat(
        s, "blue", s.map.hex(D), [s.units["ABCT"]], support=[s.units["CAS"], s.units["ART"]]
    )
    assert cb.att_factors == ["CAS CAS", "ART IDF SPT die", "ART IDF SPT die"]
    g.check(f"blue: attack {D} with=ABCT support=CAS,ART")
    promote = duel(U("ART", "artillery-bn", "blue", "0403"), options={"idf_support": "promote"})
    p = gr.combat(
        promote.state,
        "blue",
        promote.hex(D),
        [promote.state.units["ABCT"]],
        support=[promote.state.units["ART"]],
    )
    assert (
        p.att_factors == []
        and (2, "attacker IDF support promotes directly (C3 option)") in p.die_mods
    )


def _fighter(mission):
    base = {"id": "BASE", "type": "airlift-base", "side": "blue", "hex": "0101"}
    return duel(
        base,
        {
            "id": "JET",
            "type": "cas",
            "side": "blue",
            "hex": D,
            "data": {"base": "BASE", "mission": mission},
        },
    )


def test_6_5_10_2_a_fighter_on_a_strike_mission_fires_on_a_ground_unit_by_the_fet_a_cap_may_not():
    g = _fighter("strike")
    d = g.preview("blue: prep-fire TR12 with=JET")  # two d10 bombs on the Fires Effects Table (9.4)
    assert sum(d.values()) == 1 and d[(0, False)] == Fraction(9, 100)
    with pytest.raises(IllegalOrderError) as e:
        _fighter("cap").check("blue: prep-fire TR12 with=JET")
    assert e.value.code == "not-a-firer" and "(6.5.10)" in str(e.value)
    assert _fighter("cap").state.units["TR12"] == g.state.units["TR12"]  # nothing changed


def test_6_5_10_3_only_a_fighter_flying_cas_supports_a_ground_attack():
    g = _fighter("cas")
    g.check(f"blue: attack {D} with=ABCT support=JET")
    with pytest.raises(IllegalOrderError) as e:
        _fighter("strike").check(f"blue: attack {D} with=ABCT support=JET")
    assert (e.value.code, e.value.rule) == ("not-cas", "6.5.10.3")


def test_10_15_8_2_combined_assault_waves_of_6_from_the_sea_and_6_from_the_air_10_15_8_4_landed_artillery_idle():
    sea = [
        U(f"M{i}", "marine-bn", "blue", D, landed=1, assault={"mode": "sea", "delivered": True})
        for i in range(7)
    ]
    g = at(blank([*sea, U("R", "mech-bde", "red", D)]), "6.C.3")
    with pytest.raises(IllegalOrderError) as e:
        g.check(f"blue: attack {D} with={','.join(f'M{i}' for i in range(7))}")
    assert e.value.rule == "10.15.8.3"
    g.check(f"blue: attack {D} with={','.join(f'M{i}' for i in range(6))}")
    art = at(
        blank(
            [
                U("M", "marine-bn", "blue", A),
                U("ART", "artillery-bn", "blue", A, landed=1),
                U("R", "mech-bde", "red", D),
            ]
        ),
        "6.C.3",
    )
    with pytest.raises(IllegalOrderError) as e:
        art.check(f"blue: attack {D} with=M support=ART")
    assert e.value.rule == "10.15.8.4"


def test_10_15_9_1_4_the_alternative_rule_gives_one_side_quality_always():
    g = duel(
        options={"quality_alternative": True},
        tables={"gcat": {"modifiers": {"quality_side": "red"}}},
    )
    s = g.state
    cb = gr.combat(s, "blue", s.map.hex(D), [s.units["ABCT"]])
    assert cb.die == "d10" and (-1, "red always has quality (10.15.9.1.4)") in cb.die_mods


def test_10_3_the_defenders_result_names_no_hidden_attacking_unit():
    g = duel(U("ART7", "artillery-bn", "blue", "0403", seen=False))
    g.submit(f"blue: attack {D} with=ABCT support=ART7")
    assert "ART7" not in str(g.view("red").public) and "ART7" not in str(
        [e.data for e in g.view("red").events]
    )
    s, res, ev = run(g, "red: defensive-fire", [5])
    text = " ".join(res.lines) + str(res.outcome)
    assert "ART7" not in text and "IDF SPT die" in text
    assert all(
        "ART7" not in str(e.data) for e in ev if e.visible_to is None or "red" in e.visible_to
    )


def test_10_4_1_1_1_reaction_preview_matches_100k_seeded_rolls():
    exact = gr.reaction_preview(2, disrupted=False)
    roll = FastRoller(29)
    n = 100_000
    counts: dict = {}
    for _ in range(n):
        k = gr.reaction_units(roll("d6"), 2)
        counts[k] = counts.get(k, 0) + 1
    assert within_3_sigma(dict(exact), counts, n) == []


def test_10_15_8_3_the_second_wave_is_topped_up_with_landing_force_reserves_up_to_the_wave_limit():
    def landing(*extra):
        return at(
            blank(
                [
                    U(
                        "M1",
                        "marine-bn",
                        "blue",
                        D,
                        landed=1,
                        assault={"mode": "sea", "delivered": True},
                    ),
                    U(
                        "M2",
                        "marine-bn",
                        "blue",
                        D,
                        landed=1,
                        assault={"mode": "sea", "delivered": True},
                    ),
                    U(
                        "M3",
                        "marine-bn",
                        "blue",
                        D,
                        markers=["reserve"],
                        landed=1,
                        assault={"mode": "sea", "delivered": True},
                    ),
                    U("R", "mech-bde", "red", D, markers=["fortified"]),
                    *extra,
                ]
            ),
            "6.C.3",
        )

    g = landing()
    g.submit(f"blue: attack {D} with=M1,M2 reserves=M3")
    s, res, ev = run(
        g, "red: defensive-fire", [4, 1]
    )  # 1:2 A1 inconclusive; M3 joins: 2 steps vs 3, 1:2 again
    assert "M3 (reserve) joins the second wave (10.15.8.3)" in res.lines
    assert (
        "reserve" not in s.units["M3"].markers and "red" in s.units["M3"].seen_by
    )  # committed and revealed
    assert [x for x in res.lines if x.startswith("odds")][-1].startswith(
        "odds: 2:3 manoeuvre steps"
    )
    g2 = landing()
    with pytest.raises(
        IllegalOrderError
    ) as e:  # only an opposed landing is topped up, only with reserves
        g2.check(f"blue: attack {D} with=M1 reserves=M2")
    assert (e.value.code, e.value.rule) == ("not-a-reserve", "10.15.8.3")
    full = landing(
        U(
            "BIG",
            "mech-bde",
            "blue",
            D,
            markers=["reserve"],
            landed=1,
            assault={"mode": "sea", "delivered": True},
        ),
        *[
            U(f"W{i}", "marine-bn", "blue", D, landed=1, assault={"mode": "sea", "delivered": True})
            for i in range(4)
        ],
    )
    full.submit(f"blue: attack {D} with=M1,M2,W0,W1,W2,W3 reserves=BIG,M3")  # 6 steps from the sea
    s3, res3, _ = run(
        full, "red: defensive-fire", [4, 1]
    )  # A1 D1: 5 steps left; BIG (3) would exceed 6, M3 (1) fits
    assert (
        "reserve" in s3.units["BIG"].markers
        and "M3 (reserve) joins the second wave (10.15.8.3)" in res3.lines
    )
