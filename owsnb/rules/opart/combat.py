"""Combat (§14): who may fight whom, combat power, result bands, losses and withdrawal.

Each side's **combat power** is the stand's current combat value, plus the transient effects
that apply, plus one die (D12 German, D10 Russian or Axis ally, §11). The result depends only on
how the defender's power compares with the attacker's:

>>> band(13, 7)        # 6.5 < 7 < 13: the defender stays and loses 1
'defender -1'
>>> band(14, 4), band(14, 3)   # 3.5 < 4 < 7: -2; 3 < 3.5: -2 and withdraw
('defender -2', 'defender -2, withdraws')
>>> band(9, 10), band(10, 10)
('no effect', 'roll-off')

Exactly half or a quarter of the attacker's power is not covered by the text; by default
equality favours the defender (option ``band_boundaries``, ruling R1):

>>> band(12, 6), band(12, 3), band(12, 6, boundaries="attacker")
('defender -1', 'defender -2', 'defender -2')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.events import Event, note, state_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opart.movement import Refusal, withdrawal
from owsnb.rules.opart.stands import (
    can_initiate,
    command_stand,
    die_sides,
    formation_of,
    formations,
    is_artillery,
    is_division,
    weapon_range,
)
from owsnb.rules.opart.terrain import arc, line_of_sight, terrain_index
from owsnb.rules.opart.victory import control_events

__all__ = [
    "Term",
    "BANDS",
    "band",
    "attack_terms",
    "defence_terms",
    "attack_refusal",
    "engagement_key",
    "preview",
    "fight",
    "effect_of",
    "resolve",
    "CombatResult",
    "loss_events",
]

BANDS = ("no effect", "roll-off", "defender -1", "defender -2", "defender -2, withdraws")
"""The result bands of §14, in order of increasing effect."""


@dataclass(frozen=True)
class Term:
    """One term of a combat power: what, how much, which rule."""

    label: str
    value: int
    rule: str


def band(attack: int, defence: int, *, boundaries: str = "defender", rounded: bool = False) -> str:
    """The §14 result band for attacker power *attack* and defender power *defence*.

    Args:
        boundaries: ``"defender"`` (D = A/2 gives -1, D = A/4 gives -2 without withdrawal) or
            ``"attacker"`` (the worse band at both boundaries) (ruling R1).
        rounded: compare with A/2 and A/4 rounded up (footnote ix); changes nothing under
            ``"defender"`` boundaries (digest appendix A2.1).
    """
    if attack < defence:
        return "no effect"
    if attack == defence:
        return "roll-off"
    half: Fraction | int = Fraction(attack, 2)
    quarter: Fraction | int = Fraction(attack, 4)
    if rounded:
        half, quarter = math.ceil(half), math.ceil(quarter)
    if boundaries == "attacker":
        if defence > half:
            return "defender -1"
        if defence > quarter:
            return "defender -2"
        return "defender -2, withdraws"
    if defence >= half:
        return "defender -1"
    if defence >= quarter:
        return "defender -2"
    return "defender -2, withdraws"


def _command_term(state: StateLike, unit: Any, rule: str) -> list[Term]:
    fid = formation_of(unit)
    cmd = command_stand(state, fid)
    if cmd is None or cmd.id == unit.id or unit.hex is None:
        return []
    d = cmd.hex.distance(unit.hex)
    same = bool(state.options.get("command_bonus_same_hex", False))
    if d == 1 or (d == 0 and same):
        return [
            Term(
                f"command stand {cmd.id} adjacent (its current combat value)", int(cmd.steps), rule
            )
        ]
    return []


def attack_terms(state: StateLike, attacker: Any, target: Any) -> list[Term]:
    """The attacker's combat power terms before the die (§14)."""
    terms = [Term(f"{attacker.id} combat value", int(attacker.steps), "14")]
    terms += _command_term(state, attacker, "14")
    if is_artillery(attacker) and attacker.hex.distance(target.hex) == 1:
        terms.append(Term("artillery firing at an adjacent stand", 1, "14"))
    index = terrain_index(state)
    if target.hex in index.cover:
        what = (
            "defence works"
            if "works" in state.map.info(target.hex).features
            else index.terrain.get(target.hex)
        )
        terms.append(Term(f"target inside {str(what).replace('_', '-')}", -2, "14"))
    if state.options.get("flank_attacks", True) and target.hex != attacker.hex:
        facing = int(target.get("facing", 0) or 0)
        where = arc(state, target.hex, facing, attacker.hex)
        if where in ("flank", "rear"):
            terms.append(Term(f"attacking the {where}", 3, "14 fn xii"))
    return terms


def defence_terms(state: StateLike, attacker: Any, target: Any) -> list[Term]:
    """The defender's combat power terms before the die (§14; only the command bonus applies)."""
    return [
        Term(f"{target.id} combat value", int(target.steps), "14"),
        *_command_term(state, target, "14"),
    ]


def engagement_key(state: StateLike, attacker: Any, target: Any) -> tuple[str, ...]:
    """What the one-engagement-per-hex limit records (§14, footnote xi; option ``engagement_limit``)."""
    src = state.map.label(attacker.hex)
    mode = state.options.get("engagement_limit", "target_hex")
    if mode == "one_per_hex":
        return (src,)
    if mode == "target_stand":
        return (src, target.id)
    return (src, state.map.label(target.hex))


def attack_refusal(state: StateLike, attacker: Any, target: Any) -> Refusal | None:
    """Why *attacker* may not initiate combat against *target* now (§14), or None.

    Does not check whose activation it is (the order does).
    """
    if attacker.hex is None:
        return Refusal("off-map", f"{attacker.id} is not on the battlefield", "14")
    if attacker.has("fired"):
        return Refusal(
            "initiated",
            f"{attacker.id} has already initiated combat this turn "
            "(a stand may only initiate combat once during a turn)",
            "14",
        )
    if not can_initiate(state, attacker):
        return Refusal(
            "cannot-initiate",
            f"{attacker.id} has no weapon range: transport and command "
            "stands do not initiate combat (ruling R11; ranges table)",
            "R11",
        )
    if target.side == attacker.side:
        return Refusal("not-enemy", f"{target.id} is not an enemy stand", "14")
    if target.hex is None:
        return Refusal("off-map", f"{target.id} is not on the battlefield", "14")
    rng = weapon_range(state, attacker)
    d = attacker.hex.distance(target.hex)
    if d > rng:
        return Refusal(
            "out-of-range", f"{target.id} is {d} hexes away; {attacker.id}'s range is {rng}", "14"
        )
    needs_los = not is_artillery(attacker) or (
        attacker.get("gun") == "anti_tank"
        and bool(state.options.get("anti_tank_needs_sight", False))
    )
    if needs_los and not line_of_sight(terrain_index(state), attacker.hex, target.hex):
        return Refusal(
            "no-sight",
            f"{attacker.id} cannot see {target.id} (only artillery may fire at "
            "stands it cannot see)",
            "14",
        )
    key = list(engagement_key(state, attacker, target))
    for rec in state.public.get("engaged", ()):
        if list(rec[: len(key)]) == key and len(rec) >= len(key):
            return Refusal(
                "hex-engaged",
                f"a stand in {key[0]} has already engaged "
                f"{'that hex' if len(key) > 1 else 'this turn'}; only one stand in a hex may engage "
                "an enemy stand in another hex during a turn (option engagement_limit)",
                "14 fn xi",
            )
    return None


# -- outcome of one combat ------------------------------------------------------------------------
def _rolloff_probability(sa: int, sd: int, ties: str) -> tuple[Fraction, Fraction]:
    """(P attacker loses the roll-off, P defender loses), for dice of *sa* and *sd* faces."""
    lower_a = sum(1 for a in range(1, sa + 1) for d in range(1, sd + 1) if a < d)
    lower_d = sum(1 for a in range(1, sa + 1) for d in range(1, sd + 1) if d < a)
    n = sa * sd
    if ties == "reroll":
        m = lower_a + lower_d
        return Fraction(lower_a, m), Fraction(lower_d, m)
    return Fraction(lower_a, n), Fraction(lower_d, n)


def effect_of(result: str, att_cv: int, def_cv: int, can_withdraw: bool) -> str:
    """The effect label of a band or roll-off result, with destruction spelled out."""
    if result == "attacker -1":
        return "attacker destroyed" if att_cv <= 1 else "attacker -1"
    if result == "defender -1":
        return "defender destroyed" if def_cv <= 1 else "defender -1"
    if result == "defender -2":
        return "defender destroyed" if def_cv <= 2 else "defender -2"
    if result == "defender -2, withdraws":
        if def_cv <= 2:
            return "defender destroyed"
        return (
            "defender -2, withdraws"
            if can_withdraw
            else "defender -2, destroyed (no way to withdraw)"
        )
    return result


def preview(state: StateLike, attacker: Any, target: Any) -> Distribution:
    """The exact distribution of the effect of *attacker* attacking *target* (§14).

    Outcomes: ``no effect``, ``attacker -1``, ``defender -1``, ``defender -2``,
    ``defender -2, withdraws`` (or the ``destroyed`` variants). Ties of the roll-off are re-rolled
    (option ``rolloff_ties``, ruling R2).
    """
    a0 = sum(t.value for t in attack_terms(state, attacker, target))
    d0 = sum(t.value for t in defence_terms(state, attacker, target))
    sa, sd = die_sides(state, attacker), die_sides(state, target)
    bnd = state.options.get("band_boundaries", "defender")
    rnd = bool(state.options.get("round_thresholds", False))
    p_att, p_def = _rolloff_probability(sa, sd, state.options.get("rolloff_ties", "reroll"))
    can_wd = _can_withdraw(state, target, attacker)
    acc: dict[str, Fraction] = {}
    unit = Fraction(1, sa * sd)
    for ra in range(1, sa + 1):
        for rd in range(1, sd + 1):
            b = band(a0 + ra, d0 + rd, boundaries=bnd, rounded=rnd)
            if b == "roll-off":
                parts = [
                    ("attacker -1", p_att),
                    ("defender -1", p_def),
                    ("no effect", 1 - p_att - p_def),
                ]
            else:
                parts = [(b, Fraction(1))]
            for r, p in parts:
                if p:
                    e = effect_of(r, int(attacker.steps), int(target.steps), can_wd)
                    acc[e] = acc.get(e, Fraction(0)) + unit * p
    return Distribution(acc, label=f"{attacker.id} attacks {target.id} (§14)")


def _can_withdraw(state: StateLike, target: Any, attacker: Any) -> bool:
    return withdrawal(state, target, attacker.hex) is not None


Roller = Callable[[int, str, str], int]
"""``roll(sides, who, purpose)`` -> a die result (who is ``"attacker"`` or ``"defender"``)."""


def fight(
    a0: int,
    d0: int,
    sa: int,
    sd: int,
    roll: Roller,
    *,
    boundaries: str = "defender",
    rounded: bool = False,
    ties: str = "reroll",
) -> dict[str, Any]:
    """Roll one combat: both powers, the band and any roll-off (§14). Pure but for *roll*.

    Returns:
        ``{"att_roll", "def_roll", "attack", "defence", "band", "rolloff": [(a, d), ...], "result"}``
        where ``result`` is ``no effect``, ``attacker -1`` or one of the defender bands.

    >>> rolls = iter([3, 7])
    >>> fight(8, 5, 12, 10, lambda s, w, p: next(rolls))["result"]   # 11 vs 12
    'no effect'
    """
    ra = roll(sa, "attacker", "combat power")
    rd = roll(sd, "defender", "combat power")
    attack, defence = a0 + ra, d0 + rd
    b = band(attack, defence, boundaries=boundaries, rounded=rounded)
    out: dict[str, Any] = {
        "att_roll": ra,
        "def_roll": rd,
        "attack": attack,
        "defence": defence,
        "band": b,
        "rolloff": [],
    }
    if b != "roll-off":
        out["result"] = b
        return out
    for _ in range(1000):
        xa = roll(sa, "attacker", "roll-off")
        xd = roll(sd, "defender", "roll-off")
        out["rolloff"].append((xa, xd))
        if xa != xd:
            out["result"] = "attacker -1" if xa < xd else "defender -1"
            return out
        if ties != "reroll":
            break
    out["result"] = "no effect"
    return out


@dataclass
class CombatResult:
    """What one combat did: powers, dice, band, effect, the rules applied (rich display)."""

    attacker: str
    target: str
    attack_terms: list[Term]
    defence_terms: list[Term]
    att_roll: int
    def_roll: int
    attack: int
    defence: int
    band: str
    rolloff: list[tuple[int, int]]
    effect: str
    withdrawal: tuple[Hex, ...] = ()
    destroyed: list[str] = field(default_factory=list)
    rules: tuple[str, ...] = ("14",)

    def __repr__(self) -> str:
        return (
            f"<CombatResult {self.attacker} {self.attack} vs {self.target} {self.defence}: "
            f"{self.band} -> {self.effect}>"
        )

    def record(self) -> Any:
        """The combat as a result (§14): each side's terms, die (11) and combat power, the band
        and its effect."""
        from owsnb.kernel.result import Result

        def rows(side: str, terms: list[Term], die: int, total: int) -> list[dict[str, Any]]:
            return [
                *(
                    {"side": side, "term": t.label, "value": f"{t.value:+d}", "rule": t.rule}
                    for t in terms
                ),
                {"side": side, "term": "die", "value": f"{die:+d}", "rule": "11"},
                {"side": side, "term": "combat power", "value": str(total), "rule": ""},
            ]

        ro = "".join(f" roll-off {a} v {d};" for a, d in self.rolloff)
        return Result(
            f"{self.attacker} attacks {self.target}",
            {"effect": self.effect},
            list(self.rules),
            columns=["side", "term", "value", "rule"],
            table=[
                *rows("attacker", self.attack_terms, self.att_roll, self.attack),
                *rows("defender", self.defence_terms, self.def_roll, self.defence),
            ],
            lines=[f"{self.band}{ro} → {self.effect}"],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def loss_events(
    state: StateLike, unit: Any, loss: int, rule: str = "14"
) -> tuple[list[Event], int, bool]:
    """Events for *unit* losing *loss* combat value, and its division's morale with it (§9).

    Returns ``(events, combat value actually lost, destroyed)``. A stand reduced to 0 is destroyed
    (ruling R5); morale falls by the combat value actually lost and never below 0.
    """
    lost = min(int(loss), int(unit.steps))
    left = int(unit.steps) - lost
    events: list[Event] = []
    if left <= 0:
        events.append(unit_set(unit.id, steps=0, hex=None, box="destroyed", rule=rule))
        events.append(note(f"{unit.id} is destroyed", rule=rule))
    else:
        events.append(unit_set(unit.id, steps=left, rule=rule))
    fid = formation_of(unit)
    if is_division(state, fid) and lost:
        morale = dict(state.public.get("morale", {}))
        before = int(morale.get(fid, 0))
        morale[fid] = max(0, before - lost)
        events.append(state_set("public", {"morale": morale}, rule="9"))
        if before > 0 and morale[fid] == 0:
            title = formations(state).get(fid, {}).get("title", fid)
            events.append(
                note(
                    f"{title}'s morale is 0: it must not advance and may only move to "
                    "withdraw from the battlefield",
                    rule="9",
                )
            )
    return events, lost, left <= 0


def resolve(
    state: GameState, attacker: Any, target: Any, roll: Roller
) -> tuple[list[Event], CombatResult]:
    """Resolve one combat: events and the :class:`CombatResult` (§14).

    *roll* draws the dice (the rule set passes the game's :class:`~owsnb.kernel.dice.Dice`).
    """
    from owsnb.kernel.reduce import apply_all

    at, dt = attack_terms(state, attacker, target), defence_terms(state, attacker, target)
    out = fight(
        sum(t.value for t in at),
        sum(t.value for t in dt),
        die_sides(state, attacker),
        die_sides(state, target),
        roll,
        boundaries=state.options.get("band_boundaries", "defender"),
        rounded=bool(state.options.get("round_thresholds", False)),
        ties=state.options.get("rolloff_ties", "reroll"),
    )
    events: list[Event] = [unit_set(attacker.id, markers=attacker.markers | {"fired"}, rule="14")]
    engaged = [list(r) for r in state.public.get("engaged", ())]
    engaged.append([*engagement_key(state, attacker, target), attacker.id])
    events.append(state_set("public", {"engaged": engaged}, rule="14 fn xi"))
    result = out["result"]
    destroyed: list[str] = []
    path: tuple[Hex, ...] = ()
    if result == "attacker -1":
        ev, _, dead = loss_events(state, attacker, 1)
        events += ev
        if dead:
            destroyed.append(attacker.id)
        effect = "attacker destroyed" if dead else "attacker -1"
    elif result.startswith("defender"):
        loss = 1 if result == "defender -1" else 2
        ev, _, dead = loss_events(state, target, loss)
        events += ev
        effect = "defender destroyed" if dead else f"defender -{loss}"
        if dead:
            destroyed.append(target.id)
        elif result == "defender -2, withdraws":
            after = apply_all(state, events)
            path = withdrawal(after, after.unit(target.id), attacker.hex) or ()
            if path:
                events.append(unit_move(target.id, path[-1], path=path, rule="13"))
                events += control_events(after, after.unit(target.id), path[-1])
                effect = "defender -2, withdraws"
            else:
                events += _destroy_in_withdrawal(after, after.unit(target.id))
                destroyed.append(target.id)
                effect = "defender -2, destroyed (no way to withdraw)"
    else:
        effect = "no effect"
    res = CombatResult(
        attacker.id,
        target.id,
        at,
        dt,
        out["att_roll"],
        out["def_roll"],
        out["attack"],
        out["defence"],
        out["band"],
        out["rolloff"],
        effect,
        path,
        destroyed,
    )
    events.append(
        note(
            f"{attacker.id} ({out['attack']}) attacks {target.id} ({out['defence']}): "
            f"{out['band']} → {effect}",
            rule="14",
        )
    )
    return events, res


def _destroy_in_withdrawal(state: StateLike, unit: Any) -> list[Event]:
    """A stand that cannot withdraw is destroyed and removed (§13, §14); its remaining combat
    value comes off its division's morale (ruling R5)."""
    ev, _, _ = loss_events(state, unit, int(unit.steps), rule="13")
    return [note(f"{unit.id} cannot withdraw 4 hexes clear of the enemy", rule="13"), *ev]
