"""The OWS turn sequence (3, turn-sequence chart v2.1 of Feb 2023; the v2.3 prose governs) as data.

Eight phases (and an optional second Ground phase, option ``ground_phases``); every step of the chart is a
:class:`~owsnb.kernel.sequence.Step` whose ``verbs``
are the orders it allows. Steps whose handlers live in part 2 of the rule set (strategic and
tactical movement, ground combat, supply) already list their verbs here, so a module only has
to supply the handlers.

>>> [p.key for p in SEQUENCE.phases]
['1', '2', '3', '4', '5', '6', '7', '8']
>>> step("6.B.1").verbs[:2]
('strike', 'shields')
>>> len([s for _, s in SEQUENCE.walk()])  # with the optional second Ground phase (6.C.1b-6.C.4b)
46
>>> "card" in step("3.A.1").verbs and "card" not in step("6.A.4").verbs
True
"""

from __future__ import annotations

from owsnb.kernel.sequence import Phase, SequenceOfPlay, Step

__all__ = [
    "SEQUENCE",
    "step",
    "phase_of",
    "DEFER_STEPS",
    "PART2_VERBS",
    "ANYTIME_VERBS",
    "base_step",
    "ground_block",
    "ground_round",
]

I, ALL, UMP, NONE, SIM = "initiative", "all", "umpire", "none", "simultaneous"  # noqa: E741


def _second_ground_phase() -> tuple[Step, ...]:
    """10.3 design note: "two back-to-back 3.5 day Ground Phases" — a second 6.C block (steps
    ``6.C.1b``-``6.C.4b``) played when the option ``ground_phases`` is 2."""
    first = (
        ("6.C.1", "decision cards & initiative", None, ("card", "initiative")),
        (
            "6.C.2",
            "organize (reserves, main effort, IO)",
            None,
            ("reserve", "main-effort", "defend", "fortify", "delay", "task-organize", "io"),
        ),
        (
            "6.C.3",
            "movement & combat by actioning unit",
            None,
            (
                "move",
                "attack",
                "prep-fire",
                "defensive-fire",
                "react",
                "exploit",
                "bypass",
                "disengage",
            ),
        ),
        (
            "6.C.4",
            "security force battles & partisan attacks (ADV)",
            "rear_area",
            ("security-battle", "partisan-attack", "atgm"),
        ),
    )
    out = []
    for key, title, opt, verbs in first:
        out.append(
            Step(
                f"{key}b",
                f"Second Ground phase: {title}",
                actors=I,
                rule="10.3",
                optional="second_ground_phase" if opt is None else f"second_ground_phase_{opt}",
                verbs=verbs,
            )
        )
    return tuple(out)


_SEQUENCE = SequenceOfPlay(
    (
        Phase(
            "1",
            "Planning & Readiness Decisions",
            (
                Step(
                    "1.1",
                    "Player planning & unit readiness",
                    actors=ALL,
                    mode=SIM,
                    rule="4.1",
                    verbs=("intent",),
                ),
                Step(
                    "1.2",
                    "Issue orders; play decision cards",
                    actors=I,
                    rule="4.2",
                    verbs=("card", "intent"),
                ),
                Step(
                    "1.3",
                    "Reserve & main effort intent (applied in Ground Organize, C2)",
                    actors=ALL,
                    mode=SIM,
                    rule="4.3",
                    verbs=("intent",),
                ),
            ),
            rule="3.3",
        ),
        Phase(
            "2",
            "Strategic Movement",
            (
                Step(
                    "2.1",
                    "Stratlift, sealift, rail & road movement",
                    actors=I,
                    rule="5.1",
                    verbs=("sealift", "airlift", "rail", "het", "embark", "disembark"),
                ),
                Step(
                    "2.2",
                    "Security Zones and Partisans (ADV)",
                    actors=I,
                    rule="10.15.10",
                    optional="rear_area",
                    verbs=("security-zone", "partisans"),
                ),
            ),
            rule="3.4",
        ),
        Phase(
            "3",
            "Tactical Movement",
            (
                Step(
                    "3.A.1",
                    "Naval movement: surface and subs",
                    actors=I,
                    rule="6.3",
                    verbs=(
                        "defer",
                        "move",
                        "silent-running",
                        "emcon",
                        "asw-mode",
                        "lay-mines",
                        "sweep-mines",
                        "intercept",
                    ),
                ),
                Step(
                    "3.A.2",
                    "Initiate amphibious assaults",
                    actors=I,
                    rule="6.4.6",
                    verbs=("amphibious-assault",),
                ),
                Step(
                    "3.B.1",
                    "Air tasking order: place air missions",
                    actors=I,
                    rule="6.5",
                    verbs=("defer", "fly", "emcon", "intercept"),
                ),
                Step(
                    "3.B.2", "Prepare strike packages", actors=I, rule="6.5.1", verbs=("package",)
                ),
                Step(
                    "3.B.3",
                    "Initiate airborne & air assaults",
                    actors=I,
                    rule="6.5.11",
                    verbs=("airborne-assault", "air-assault"),
                ),
                Step(
                    "3.C.1",
                    "SOF: insert and roll for insertion",
                    actors=I,
                    rule="6.6",
                    verbs=("defer", "insert"),
                ),
                Step(
                    "3.C.2",
                    "SOF: adjudicate missions",
                    actors=I,
                    rule="6.6.1",
                    verbs=("direct-action", "recon", "sof-support"),
                ),
            ),
            rule="3.5",
        ),
        Phase(
            "4",
            "IO / Cyber / Space",
            (
                Step(
                    "4.1",
                    "Place IO tokens & cyber attacks (secret)",
                    actors=ALL,
                    mode=SIM,
                    rule="7.2",
                    verbs=("io", "cyber"),
                ),
                Step(
                    "4.2",
                    "Adjudicate cyber attacks & IO tokens",
                    actors=NONE,
                    auto=True,
                    rule="7.2.1",
                ),
                Step(
                    "4.3",
                    "Adjudicate the space capability dashboard",
                    actors=NONE,
                    auto=True,
                    rule="7.5",
                ),
            ),
            rule="3.6",
        ),
        Phase(
            "5",
            "Theater ISR & Local Detections",
            (
                Step("5.1", "Place & resolve theater ISR", actors=I, rule="8.4", verbs=("isr",)),
                Step(
                    "5.2",
                    "Resolve local detections by hex (contested air ISR first, 8.5.4, 8.6)",
                    actors=I,
                    rule="8.5",
                    verbs=("detect",),
                ),
                Step(
                    "5.3",
                    "Finalize strike plans",
                    actors=ALL,
                    mode=SIM,
                    rule="8.7",
                    verbs=("plan",),
                ),
            ),
            rule="3.7",
        ),
        Phase(
            "6",
            "Combat",
            (
                Step(
                    "6.A.1",
                    "Air combat 1: stand-off air-to-air",
                    actors=UMP,
                    rule="9.7.3",
                    verbs=("air-combat",),
                ),
                Step(
                    "6.A.2",
                    "Air combat 2: stand-off SEAD",
                    actors=UMP,
                    rule="9.7.3",
                    verbs=("air-combat",),
                ),
                Step(
                    "6.A.3",
                    "Air combat 3: long-range air defence",
                    actors=UMP,
                    rule="9.7.3",
                    verbs=("air-combat",),
                ),
                Step(
                    "6.A.4",
                    "Air combat 4: in-hex air-to-air",
                    actors=UMP,
                    rule="9.7.3",
                    verbs=("air-combat",),
                ),
                Step(
                    "6.A.5",
                    "Air combat 5: transition air to the tactical map",
                    actors=NONE,
                    auto=True,
                    rule="9.7.3",
                    optional="tactical_map",
                ),
                Step(
                    "6.A.6",
                    "Air combat 6: in-hex SEAD",
                    actors=UMP,
                    rule="9.7.3",
                    verbs=("air-combat",),
                ),
                Step(
                    "6.A.7",
                    "Air combat 7: in-hex air defence",
                    actors=UMP,
                    rule="9.7.3",
                    verbs=("air-combat",),
                ),
                Step(
                    "6.B.1",
                    "Strike warfare: long-range strike actions",
                    actors=ALL,
                    rule="9.9.1",
                    verbs=("strike", "shields", "torpedo", "nuke", "io"),
                ),
                Step(
                    "6.B.2",
                    "Strike warfare: local strikes by initiative and hex",
                    actors=I,
                    rule="9.9.1",
                    verbs=("strike", "shields", "torpedo", "io"),
                ),
                Step(
                    "6.C.1",
                    "Ground: decision cards & initiative",
                    actors=I,
                    rule="10.3",
                    verbs=("card", "initiative"),
                ),
                Step(
                    "6.C.2",
                    "Ground: organize (reserves, main effort, IO)",
                    actors=I,
                    rule="10.3",
                    verbs=(
                        "reserve",
                        "main-effort",
                        "defend",
                        "fortify",
                        "delay",
                        "task-organize",
                        "io",
                    ),
                ),
                Step(
                    "6.C.3",
                    "Ground: movement & combat by actioning unit",
                    actors=I,
                    rule="10.3",
                    verbs=(
                        "move",
                        "attack",
                        "prep-fire",
                        "defensive-fire",
                        "react",
                        "exploit",
                        "bypass",
                        "disengage",
                    ),
                ),
                Step(
                    "6.C.4",
                    "Security force battles & partisan attacks (ADV)",
                    actors=I,
                    rule="10.15.10",
                    optional="rear_area",
                    verbs=("security-battle", "partisan-attack", "atgm"),
                ),
                *_second_ground_phase(),
            ),
            rule="3.8",
        ),
        Phase(
            "7",
            "Regeneration & Logistics",
            (
                Step("7.A", "Check supply", actors=NONE, auto=True, rule="11.1"),
                Step("7.B", "Reset IO/cyber tokens", actors=NONE, auto=True, rule="11.2"),
                Step(
                    "7.C",
                    "Reset the space dashboard (verify theater ISR)",
                    actors=NONE,
                    auto=True,
                    rule="11.3",
                ),
                Step("7.D", "Reset aviation missions", actors=NONE, auto=True, rule="11.4"),
                Step("7.E", "Advance timers", actors=NONE, auto=True, rule="11.5"),
                Step("7.F", "Remove status markers", actors=NONE, auto=True, rule="11.6"),
                Step("7.G", "Repair infrastructure", actors=NONE, auto=True, rule="11.6.1"),
                Step("7.H", "Regenerate SOF & air", actors=NONE, auto=True, rule="11.7"),
                Step(
                    "7.I",
                    "Reset fires/air defence; resupply missiles",
                    actors=ALL,
                    mode=SIM,
                    rule="11.8",
                    verbs=("resupply",),
                ),
                Step(
                    "7.J",
                    "Advance the turn marker; weather; reinforcements",
                    actors=NONE,
                    auto=True,
                    rule="11.10",
                ),
            ),
            rule="3.9",
        ),
        Phase(
            "8",
            "Assessment",
            (
                Step(
                    "8",
                    "Facilitated assessment",
                    actors=ALL,
                    mode=SIM,
                    rule="12.1",
                    optional="assessment_phase",
                ),
            ),
            rule="3.10",
            optional="assessment_phase",
        ),
    )
)


ANYTIME_VERBS = ("card",)
"""Verbs offered in every step a side acts in: decision cards, which "can be played in other phases
of the turn" (4.2); the card's row of ``tables/decision_cards.yaml`` says where it may be played."""


def _with_anytime_verbs(seq: SequenceOfPlay) -> SequenceOfPlay:
    from dataclasses import replace

    def fix(st: Step) -> Step:
        if st.actors in (UMP, NONE) or st.auto:
            return st
        return replace(st, verbs=(*st.verbs, *(v for v in ANYTIME_VERBS if v not in st.verbs)))

    return SequenceOfPlay(
        tuple(replace(p, steps=tuple(fix(st) for st in p.steps)) for p in seq.phases)
    )


SEQUENCE = _with_anytime_verbs(_SEQUENCE)
"""The whole turn (3.3–3.10)."""

DEFER_STEPS = ("3.A.1", "3.B.1", "3.C.1")
"""Steps where the initiative side may move first or defer (3.5, 6.3)."""

PART2_VERBS = {
    "2.1": "strategic.py: sealift, airlift, rail, het, embark, disembark (5.1)",
    "2.2": "rear.py: security-zone, partisans (10.15.10, ADV)",
    "3.A.1": "movement/move.py, movement/naval.py: move, silent-running, emcon, asw-mode, lay-mines, sweep-mines, "
    "intercept (6.2-6.4)",
    "3.A.2": "movement/assaults.py: amphibious-assault (6.4.6)",
    "3.B.3": "movement/assaults.py: airborne-assault, air-assault (6.5.11, 6.5.12)",
    "6.C.1": "ground/phase.py: card, initiative (10.2, 10.3)",
    "6.C.2": "ground/organize.py: reserve, main-effort, defend, fortify, delay, task-organize (10.3-10.8)",
    "6.C.3": "movement/move.py, ground/attack.py, ground/fires.py, ground/reserves.py: move, attack, prep-fire, "
    "defensive-fire, react, exploit, bypass, disengage (10.9-10.15)",
    "6.C.4": "rear.py: security-battle, partisan-attack, atgm (10.15.10)",
    "7.A": "supply.py: STEP_EFFECTS['7.A'] (11.1)",
}
"""Verbs and step effects that part 2 (issue 4) supplies, by step."""


def step(key: str) -> Step:
    """The step with this key (``KeyError`` if none)."""
    for _, s in SEQUENCE.walk():
        if s.key == key:
            return s
    raise KeyError(f"no OWS step {key!r}")


def phase_of(key: str) -> Phase:
    """The phase holding step *key*."""
    for p, s in SEQUENCE.walk():
        if s.key == key:
            return p
    raise KeyError(f"no OWS step {key!r}")


def base_step(key: str) -> str:
    """The chart step a key stands for: the second Ground phase's ``6.C.3b`` is ``6.C.3``.

    >>> base_step("6.C.3b"), base_step("6.C.3"), base_step("5.2")
    ('6.C.3', '6.C.3', '5.2')
    """
    return key[:-1] if key.startswith("6.C.") and key.endswith("b") else key


def ground_block(key: str) -> int:
    """1 for the (first) Ground phase and every other step, 2 for the second one (``6.C.xb``)."""
    return 2 if key.startswith("6.C.") and key.endswith("b") else 1


def ground_round(state: object) -> str:
    """Key of the Ground phase now (``"3"`` in turn 3, ``"3b"`` in its second Ground phase): per-phase
    bookkeeping (activation queue, seized initiative) is kept under it."""
    clock = state.clock  # type: ignore[attr-defined]
    return f"{clock.turn}{'b' if ground_block(clock.step) == 2 else ''}"
