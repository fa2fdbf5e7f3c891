"""OWS options: optional and advanced rules, and owsnb's rulings (digest §12) as named choices.

Every ruling where the text is silent or contradicts itself is an option here with owsnb's
default; scenarios set them under ``options:``.

>>> OPTIONS_BY_NAME["excess_shields"].choices
('demote', 'layered')
>>> OPTIONS_BY_NAME["strike_order"].default
'igougo'
"""

from __future__ import annotations

from owsnb.kernel.ruleset import Option

__all__ = ["OPTIONS", "OPTIONS_BY_NAME", "DERIVED"]

OPTIONS: tuple[Option, ...] = (
    # -- rulings (digest §12) ------------------------------------------------------------------
    Option(
        "below_d4",
        "d4",
        "R1: a die demoted below D4 still rolls D4 ('d4') or cannot roll ('no-roll')",
        ("d4", "no-roll"),
        "R1",
    ),
    Option(
        "asw_d16_exception",
        False,
        "R1/6.4.4: the 'D16 exception clause for high-risk ASW detections'",
        (),
        "6.4.4",
    ),
    Option(
        "critical_hits",
        "red-shield",
        "R2/C10: criticals (min(4, roll // shield)) against red shields, or off",
        ("red-shield", "off"),
        "R2",
    ),
    Option(
        "sof_da_max_hits",
        2,
        "R2/6.6.1.1: SOF direct action scores at most this many steps",
        (),
        "6.6.1.1",
    ),
    Option(
        "cooperative_sensing",
        "n-1",
        "R3: N cooperating sensors give N-1 promotions ('n-1') or N ('per-asset')",
        ("n-1", "per-asset"),
        "R3",
    ),
    Option(
        "excess_shields",
        "demote",
        "R4: excess grey shields demote salvos (basic 9.2.1.1) or add a layer "
        "(advanced 9.2.1.2, at most 2 per salvo)",
        ("demote", "layered"),
        "9.2.1",
    ),
    Option(
        "supporting_arms",
        "per-side",
        "R5: supporting-arms thresholds per side then netted",
        ("per-side", "net-first"),
        "R5",
    ),
    Option(
        "quality_alternative",
        False,
        "R6/10.15.9.1.4: one side always has quality",
        (),
        "10.15.9.1.4",
    ),
    Option(
        "odds_rounding", "floor", "R7: odds A:D rounded down to the table columns", ("floor",), "R7"
    ),
    Option(
        "defender_shield",
        "lead-unit",
        "R8: the defender's shield is the lead unit's red shield with Defend/Fortified",
        ("lead-unit", "highest"),
        "R8",
    ),
    Option("retreat_hexes", "hexes", "R9: R# means # hexes", ("hexes",), "R9"),
    Option(
        "battle_for_control",
        "owsnb",
        "R10: +1 per supporting SOF/ATGM; 'double' = at least twice",
        ("owsnb",),
        "R10",
    ),
    Option(
        "airborne_lost_with_transport",
        True,
        "R11: a unit aboard a transport shot down is destroyed",
        (),
        "R11",
    ),
    Option(
        "rsoi_turns",
        "by-mode",
        "C1: RSO&I countdown by mode (airlift this turn; sealift/HET one more turn; rail)",
        ("by-mode", "this-turn"),
        "C1",
    ),
    Option(
        "reserve_designation",
        "organize",
        "C2: reserves and main effort designated in the Ground Organize step",
        ("organize", "planning"),
        "C2",
    ),
    Option(
        "idf_support",
        "supporting-arm",
        "C3: each IDF SPT die is a supporting-arms factor, or promotes/demotes directly",
        ("supporting-arm", "promote"),
        "C3",
    ),
    Option(
        "sub_detectors",
        "asw-and-silent",
        "C4: who may detect subs: ASW-mode counters and subs in Silent Running",
        ("asw-and-silent", "asw-only"),
        "C4",
    ),
    Option(
        "sof_regeneration",
        "6.6.1.2",
        "C5: SOF regenerate by 1D4 missions / 1D4 turns (6.6.1.2) or by the 11.7 probability",
        ("6.6.1.2", "11.7"),
        "C5",
    ),
    Option(
        "assault_markers",
        "until-taken",
        "C6: assault markers removed when the hex is taken, else they stay",
        ("until-taken", "regeneration"),
        "C6",
    ),
    Option(
        "landing_overstack", True, "C7: up to 12 steps may land above the stacking limit", (), "C7"
    ),
    Option(
        "partisan_suppression_next_turn",
        True,
        "C8: partisan suppression lasts through the next turn",
        (),
        "C8",
    ),
    Option(
        "odds_steps",
        "manoeuvre",
        "C11: odds count manoeuvre steps only",
        ("manoeuvre", "all"),
        "C11",
    ),
    # -- optional and advanced rules -----------------------------------------------------------
    Option(
        "strike_order",
        "igougo",
        "9.9.3: long-range strike actions alternate (I-GO-U-GO) or by chit draw",
        ("igougo", "chits"),
        "9.9.3",
    ),
    Option(
        "one_to_many",
        False,
        "9.9 [Optional]: all fires from one source hex at many hexes = one action",
        (),
        "9.9",
    ),
    Option(
        "best_die",
        False,
        "9.7.2 [Optional]: air-to-air by best die first, effects applied before lower dice",
        (),
        "9.7.2",
    ),
    Option(
        "aew_air_to_air",
        False,
        "6.5.9.1 [Advanced]: AEW promotes friendly air-to-air in its sensing range",
        (),
        "6.5.9.1",
    ),
    Option(
        "missiles_spare_last_step",
        False,
        "9.4.1 [Optional]: missiles cannot take a manoeuvre unit's last step",
        (),
        "9.4.1",
    ),
    Option(
        "face_down",
        False,
        "8.4.1: undetected counters show face down ('Unknown') instead of not at all",
        (),
        "8.4.1",
    ),
    Option(
        "enemy_expenditure",
        "marked",
        "2.2/9.5/2.2.2.3.2: a detected enemy counter shows the salvos and grey shields its owner "
        "has marked off with the dry-erase marker ('marked', the table's face-up counter) or only "
        "its printed values ('hidden', double-blind play)",
        ("marked", "hidden"),
        "2.2",
    ),
    Option(
        "cap_intercept",
        True,
        "9.9.4.1: unengaged in-hex CAP may intercept missile salvos",
        (),
        "9.9.4.1",
    ),
    Option("cec", True, "6.5.9.3: Cooperative Engagement Capability", (), "6.5.9.3"),
    Option(
        "hgv_defendable",
        False,
        "2.2.2.7: HGV salvos may be engaged by BMD shields (scenario rule)",
        (),
        "2.2.2.7",
    ),
    Option("nukes", False, "7.4: tactical nuclear strikes authorised", (), "7.4"),
    Option(
        "missile_resupply",
        False,
        "2.2.2.5/11.9: critical munitions may be resupplied from ASPs",
        (),
        "2.2.2.5",
    ),
    Option(
        "leave_missions_in_place",
        True,
        "11.4: CAP/OCA/DCA/Interdiction/SUCAP/CAS and their tankers stay in place",
        (),
        "11.4",
    ),
    Option("mines", False, "6.4.5 [Optional]: mine warfare", (), "6.4.5"),
    Option("ace", False, "6.5.13 [Optional]: expeditionary aviation (ACE)", (), "6.5.13"),
    Option(
        "sof_insertion_constraints",
        False,
        "6.6 [Advanced]: SOF insertion needs a declared means",
        (),
        "6.6",
    ),
    Option("rear_area", False, "10.15.10 [Advanced]: security zones and partisans", (), "10.15.10"),
    Option(
        "action_points", False, "10.14 [Advanced]: action points and orders markers", (), "10.14"
    ),
    Option("css", False, "10.13 [Advanced]: fuel points and munitions counters", (), "10.13"),
    Option(
        "ground_initiative",
        "side",
        "10.2: ground initiative by side, formation, chit draw or planned activation",
        ("side", "formation", "chits", "planned"),
        "10.2",
    ),
    Option(
        "tactical_map",
        False,
        "9.7.3 step 5: a tactical map is played with the operational map",
        (),
        "9.7.3",
    ),
    Option(
        "assessment_phase", False, "12.1: play the optional Assessment phase each turn", (), "12.1"
    ),
    Option("turn_hours", 24, "3.1: hours per turn (6.6.1.2 SOF timing scales with it)", (), "3.1"),
    Option(
        "ground_phases",
        1,
        "10.3 design note: Ground phases a turn (2: two back-to-back 6.C blocks, e.g. "
        "3.5-day phases of a one-week turn)",
        (1, 2),
        "10.3",
    ),
    Option(
        "first_ground_phase_free",
        False,
        "10.14 [Advanced]: with two Ground phases, every unit may move and "
        "fight in the first without an Orders marker",
        (),
        "10.14",
    ),
)
"""Every OWS option, with its default."""

DERIVED = {
    "second_ground_phase": lambda o: o.get("ground_phases") == 2,
    "second_ground_phase_rear_area": lambda o: (
        o.get("ground_phases") == 2 and bool(o.get("rear_area"))
    ),
}
"""Switches the sequence of play reads (``Step.optional``), computed from the options above; a
scenario sets ``ground_phases``, never these."""

OPTIONS_BY_NAME = {o.name: o for o in OPTIONS}
