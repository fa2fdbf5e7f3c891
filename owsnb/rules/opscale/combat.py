"""The Operational Engagement Sequence (OES) and the armour-piercing test (AP), as pure functions.

Everything here works on :class:`~owsnb.rules.opscale.units.Card` values and ``(endurance, crew)``
statuses and rolls through a *roller* — ``roll(sides, purpose, rule, actor) -> int`` — so the
same code resolves a real engagement (the game passes the kernel's dice), a scripted worked
example (fixed results) or a fast seeded simulation. The exact forecasts in
:mod:`owsnb.rules.opscale.forecast` enumerate the very same helper functions.

Worked example (digest test 7): Attack Rating 12, DI 4, no AP; target Defense 3, Endurance 14,
Half Endurance 7. D20 13 hits, Intensity 6: net damage 6 + 4 - 3 = 7 and the card flips.

>>> from owsnb.rules.opscale.units import Card, Weapon
>>> gun = Weapon("primary", "gun", attack_rating=12, di=4)
>>> shooter = Card("A", "blue", "vehicle", endurance=10, half=5, weapons=(gun,))
>>> target = Card("T", "red", "vehicle", endurance=14, half=7, defense=3)
>>> shot = resolve_shot(shooter, gun, target, (14, 0), scripted([13, 6]))
>>> shot.kind, shot.net, shot.after, shot.damaged, shot.destroyed
('hit', 7, (7, 0), True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from owsnb.rules.opscale.units import DESTROYED, Card, Weapon

__all__ = [
    "Roller",
    "DEFAULT_RULES",
    "CombatRules",
    "Shot",
    "Fire",
    "EngagementSpec",
    "RoundResult",
    "hit_kind",
    "raw_damage",
    "ap_mode",
    "is_pierced",
    "pierce_weight",
    "net_damage",
    "apply_hit",
    "resolve_shot",
    "weapons_fired",
    "choose_target",
    "firing_plan",
    "decided",
    "can_fire",
    "resolve_round",
    "initiative_bonus",
    "roll_initiative",
    "scripted",
    "weapon_key",
]

Roller = Callable[[int, Any, str, str], int]
"""``roll(sides, purpose, rule, actor) -> result``; *purpose* is text or a callable returning it."""


def scripted(results: Iterable[int]) -> Roller:
    """A roller returning *results* in order (for worked examples).

    >>> r = scripted([3, 7]); r(10, "x", "", ""), r(20, "y", "", "")
    (3, 7)
    """
    it = iter(results)

    def roll(sides: int, purpose: Any = "", rule: str = "", actor: str = "") -> int:
        try:
            v = next(it)
        except StopIteration:
            raise AssertionError(
                f"scripted dice ran out (needed a d{sides} for {_text(purpose)})"
            ) from None
        if not 1 <= v <= sides:
            raise AssertionError(
                f"scripted result {v} is impossible on a d{sides} ({_text(purpose)})"
            )
        return v

    return roll


def _text(purpose: Any) -> str:
    return purpose() if callable(purpose) else str(purpose)


@dataclass(frozen=True)
class CombatRules:
    """The options that change combat (see the rule set's options and README rulings).

    Attributes:
        natural_19: ``"auto-hit"`` (R7: a 19 always hits, doubled) or ``"if-hit"`` (doubles only a
        hit).
        double_intensity: ``"intensity"`` (R7: the D10 is doubled, then DI added) or ``"total"``.
        crew_damage: ``"track"`` (R15: pierced hits also hurt the crew; crew at 0 = unit lost) or
        ``"off"``.
        multiple_secondaries: fire every declared secondary weapon (R12 alternative), not just one.
        retarget: a unit whose target is gone fires at the next legal enemy (R11).
        combat_round: ``"both-sides"`` (R6: a round = both sides fire) or ``"single-volley"``.
    """

    natural_19: str = "auto-hit"
    double_intensity: str = "intensity"
    crew_damage: str = "track"
    multiple_secondaries: bool = False
    retarget: bool = True
    combat_round: str = "both-sides"

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CombatRules:
        """The combat rules in force under a game's options."""
        kw = {f: options[f] for f in cls.__dataclass_fields__ if f in options}
        return cls(**kw)


DEFAULT_RULES = CombatRules()
"""The rules in force with every option at its default."""


# -- one weapon attack (OES.4-OES.9, AP.1-AP.7) -------------------------------------------------
def hit_kind(nat: int, bonus: int, attack_rating: int, rules: CombatRules = DEFAULT_RULES) -> str:
    """OES.5: ``"critical"`` (20), ``"malfunction"`` (1, a miss: R8), ``"double"`` (19), ``"hit"``, ``"miss"``.

    Marksman bonuses add to the roll; the natural results use the bare die (R13).

    >>> [hit_kind(n, 0, 12) for n in (1, 11, 12, 19, 20)]
    ['malfunction', 'miss', 'hit', 'double', 'critical']
    >>> hit_kind(11, 1, 12), hit_kind(19, 0, 20, CombatRules(natural_19="if-hit"))
    ('hit', 'miss')
    """
    if nat == 20:
        return "critical"
    if nat == 1:
        return "malfunction"
    hit = nat + bonus >= attack_rating
    if nat == 19 and (hit or rules.natural_19 == "auto-hit"):
        return "double"
    return "hit" if hit else "miss"


def raw_damage(
    intensity: int,
    di: int,
    *,
    double: bool = False,
    exploit: int = 0,
    rules: CombatRules = DEFAULT_RULES,
) -> int:
    """OES.6-OES.7: Intensity (doubled on a natural 19) + Exploit Weakness + Damage Index.

    >>> raw_damage(4, 3, double=True), raw_damage(4, 3, double=True, rules=CombatRules(double_intensity="total"))
    (11, 14)
    """
    if double and rules.double_intensity == "total":
        return 2 * (intensity + exploit + di)
    return intensity * (2 if double else 1) + exploit + di


def ap_mode(ap: int, defense: int) -> str:
    """AP.1-AP.3: which checks the armour-piercing test needs: ``"none"`` (no AP rating, R14),
    ``"weapon"`` (AP exceeds Defense) or ``"both"`` (AP equal to or less than Defense).

    >>> ap_mode(0, 3), ap_mode(6, 4), ap_mode(3, 5), ap_mode(4, 4)
    ('none', 'weapon', 'both', 'both')
    """
    if ap <= 0:
        return "none"
    return "weapon" if ap > defense else "both"


def is_pierced(ap: int, defense: int, weapon_check: int | None, armor_check: int | None) -> bool:
    """AP.4-AP.5: the Weapon Check passes on a D10 at or under AP; the Armor Check passes on a D10
    at or under Defense; pierced if the Weapon Check passes and (when made) the Armor Check fails.

    >>> is_pierced(6, 4, 6, None), is_pierced(6, 4, 7, None)
    (True, False)
    >>> is_pierced(3, 5, 2, 8), is_pierced(3, 5, 2, 5), is_pierced(3, 5, 4, None)
    (True, False, False)
    """
    mode = ap_mode(ap, defense)
    if mode == "none" or weapon_check is None or weapon_check > ap:
        return False
    if mode == "weapon":
        return True
    return armor_check is not None and armor_check > defense


def pierce_weight(ap: int, defense: int) -> int:
    """Exact chance of piercing, in hundredths (both D10 checks enumerated with :func:`is_pierced`).

    >>> pierce_weight(6, 4), pierce_weight(3, 5), pierce_weight(0, 0), pierce_weight(12, 10)
    (60, 15, 0, 100)
    """
    mode = ap_mode(ap, defense)
    if mode == "none":
        return 0
    n = 0
    for w in range(1, 11):
        for a in range(1, 11):
            n += is_pierced(ap, defense, w, a if mode == "both" and w <= ap else None)
    return n


def net_damage(raw: int, defense: int, pierced: bool) -> int:
    """OES.8: raw damage less Defense (ignored when pierced, AP.6), never below 0 (R9).

    >>> net_damage(10, 3, False), net_damage(10, 3, True), net_damage(2, 5, False)
    (7, 10, 0)
    """
    return max(0, raw - (0 if pierced else defense))


def apply_hit(
    card: Card, status: tuple[int, int], net: int, pierced: bool, rules: CombatRules = DEFAULT_RULES
) -> tuple[int, int]:
    """OES.9: subtract Net Damage from Endurance (and from the crew when pierced, AP.6/R15).

    Returns the new status; :data:`DESTROYED` at Endurance 0 or less (or a lost crew).

    >>> card = Card("T", "red", "vehicle", endurance=14, half=7, crew=5)
    >>> apply_hit(card, (14, 5), 7, False), apply_hit(card, (14, 5), 5, True), apply_hit(card, (7, 5), 7, False)
    ((7, 5), (0, 0), (0, 0))
    """
    end, crew = status
    if end <= 0:
        return DESTROYED
    end -= net
    if pierced and card.crew > 0 and rules.crew_damage == "track":
        crew -= net
        if crew <= 0:
            return DESTROYED
    if end <= 0:
        return DESTROYED
    return (end, crew)


@dataclass(frozen=True)
class Shot:
    """One weapon attack, with every die and what it did (for logs and reports)."""

    shooter: str
    weapon: str
    target: str
    nat: int
    bonus: int
    kind: str
    intensity: int | None = None
    weapon_check: int | None = None
    armor_check: int | None = None
    pierced: bool = False
    raw: int = 0
    net: int = 0
    before: tuple[int, int] = (0, 0)
    after: tuple[int, int] = (0, 0)
    damaged: bool = False
    destroyed: bool = False
    crew_lost: bool = False

    @property
    def rules(self) -> tuple[str, ...]:
        """The paragraphs this attack applied."""
        out = ["OES.4", "OES.5"]
        if self.intensity is not None:
            out += ["OES.6", "OES.7", "OES.8", "OES.9"]
        if self.weapon_check is not None:
            out += ["AP.1", "AP.4"] + (["AP.5"] if self.armor_check is not None else []) + ["AP.6"]
        return tuple(out)

    def text(self) -> str:
        """One log line."""
        head = f"{self.shooter} {self.weapon} → {self.target}: D20 {self.nat}" + (
            f"+{self.bonus}" if self.bonus else ""
        )
        if self.kind == "critical":
            return f"{head} critical hit: {self.target} destroyed (OES.5)"
        if self.kind == "malfunction":
            return f"{head} weapon malfunction: not usable next round (OES.5)"
        if self.kind == "miss":
            return f"{head} miss"
        ap = ""
        if self.weapon_check is not None:
            ap = f", AP weapon check {self.weapon_check}" + (
                f", armor check {self.armor_check}" if self.armor_check is not None else ""
            )
            ap += " — pierced" if self.pierced else " — not pierced"
        dbl = " (double intensity)" if self.kind == "double" else ""
        end = (
            "destroyed"
            if self.destroyed
            else ("damaged" if self.damaged else f"endurance {self.after[0]}")
        )
        return f"{head} hit{dbl}, intensity {self.intensity}{ap}: net damage {self.net} → {self.target} {end}"


def weapon_key(unit_id: str, weapon: Weapon, index: int) -> str:
    """The key of one weapon of one unit (malfunctions are per weapon, OES.5)."""
    return f"{unit_id}/{weapon.slot}{index}"


def marksman(card: Card, weapon: Weapon) -> int:
    """EXP.1 Marksman bonus for this weapon's slot."""
    return card.bonus("marksman-primary" if weapon.slot == "primary" else "marksman-secondary")


def resolve_shot(
    shooter: Card,
    weapon: Weapon,
    target: Card,
    status: tuple[int, int],
    roll: Roller,
    rules: CombatRules = DEFAULT_RULES,
) -> Shot:
    """Resolve one weapon attack (OES.4-OES.9 with the AP test), rolling through *roll*.

    Dice order: D20 attack; on a hit the D10 Intensity; then, for an AP weapon, the D10 Weapon
    Check (attacker) and, if needed and passed, the D10 Armor Check (defender). A roll's
    *purpose* may be given as a zero-argument callable (formatted only by rollers that log it).
    """
    bonus = marksman(shooter, weapon)
    wname = weapon.name or weapon.slot
    nat = roll(
        20,
        lambda: (
            f"{shooter.id} {wname} attacks {target.id} (attack rating {weapon.attack_rating}"
            + (f", +{bonus} marksman" if bonus else "")
            + ")"
        ),
        "OES.4",
        shooter.side,
    )
    kind = hit_kind(nat, bonus, weapon.attack_rating, rules)
    shot = (shooter.id, wname, target.id, nat, bonus, kind)
    if kind == "critical":
        return Shot(*shot, before=status, after=DESTROYED, destroyed=True)
    if kind == "miss" or kind == "malfunction":
        return Shot(*shot, before=status, after=status)
    intensity = roll(
        10, lambda: f"intensity of {shooter.id}'s hit on {target.id}", "OES.6", shooter.side
    )
    damaged_before = target.damaged_at(status[0])
    defense = target.profile(damaged_before).defense
    mode = ap_mode(weapon.ap, defense)
    wcheck = acheck = None
    if mode != "none":
        wcheck = roll(
            10,
            lambda: f"AP weapon check (AP {weapon.ap}: pass on {weapon.ap} or less)",
            "AP.4",
            shooter.side,
        )
        if mode == "both" and wcheck <= weapon.ap:
            acheck = roll(
                10,
                lambda: f"AP armor check (Defense {defense}: pass on {defense} or less)",
                "AP.5",
                target.side,
            )
    pierced = is_pierced(weapon.ap, defense, wcheck, acheck)
    raw = raw_damage(
        intensity,
        weapon.di,
        double=kind == "double",
        exploit=shooter.bonus("exploit-weakness"),
        rules=rules,
    )
    net = net_damage(raw, defense, pierced)
    after = apply_hit(target, status, net, pierced, rules)
    destroyed = after == DESTROYED
    return Shot(
        *shot,
        intensity=intensity,
        weapon_check=wcheck,
        armor_check=acheck,
        pierced=pierced,
        raw=raw,
        net=net,
        before=status,
        after=after,
        destroyed=destroyed,
        crew_lost=destroyed and status[0] - net > 0,
        damaged=not destroyed and target.damaged_at(after[0]) and not damaged_before,
    )


# -- an engagement (OES.1-OES.10) ---------------------------------------------------------------
@dataclass(frozen=True)
class Fire:
    """A declared firing unit: its initial target and the weapon slots it uses (OES.1-OES.2)."""

    unit: str
    target: str
    slots: tuple[str, ...] = ("primary", "secondary")


@dataclass(frozen=True, eq=False)
class EngagementSpec:
    """Everything fixed for the length of one engagement.

    Attributes:
        attacker, defender: the two sides.
        cards: Unit Cards of every unit in it.
        attacks, retaliations: declared firing units of each side, in firing order.
        attacking, defending: the two groups (the engagement ends when one is destroyed, OES.10).
        distance: hex distance between every shooter and every enemy in the engagement.
    """

    attacker: str
    defender: str
    cards: Mapping[str, Card]
    attacks: tuple[Fire, ...]
    retaliations: tuple[Fire, ...]
    attacking: tuple[str, ...]
    defending: tuple[str, ...]
    distance: Mapping[tuple[str, str], int] = field(default_factory=dict)
    rules: CombatRules = DEFAULT_RULES

    def group_of(self, side: str) -> tuple[str, ...]:
        return self.attacking if side == self.attacker else self.defending

    def fires_of(self, side: str) -> tuple[Fire, ...]:
        return self.attacks if side == self.attacker else self.retaliations

    def other(self, side: str) -> str:
        return self.defender if side == self.attacker else self.attacker

    @property
    def order(self) -> tuple[str, ...]:
        """Every unit of the engagement in a fixed order (attacking group, then defending)."""
        seen: dict[str, None] = {}
        for u in (*self.attacking, *self.defending):
            seen.setdefault(u, None)
        return tuple(seen)

    def may_hit(self, shooter: str, weapon: Weapon, target: str) -> bool:
        """Range and domain (ruling R11)."""
        t = self.cards[target]
        if weapon.targets and t.domain not in weapon.targets:
            return False
        return self.distance.get((shooter, target), 0) <= weapon.range


def weapons_fired(
    card: Card, fire: Fire, damaged: bool, rules: CombatRules = DEFAULT_RULES
) -> list[tuple[str, Weapon]]:
    """OES.4: the (key, weapon) pairs a unit fires in a round: its primary and one secondary
    (every secondary under ``multiple_secondaries``), of those declared, on the card side in force."""
    out: list[tuple[str, Weapon]] = []
    if not card.can_fire:
        return out
    seen_secondary = False
    for i, w in enumerate(card.profile(damaged).weapons):
        if w.slot not in fire.slots:
            continue
        if w.slot == "primary" and any(x.slot == "primary" for _, x in out):
            continue
        if w.slot == "secondary":
            if seen_secondary and not rules.multiple_secondaries:
                continue
            seen_secondary = True
        out.append((weapon_key(card.id, w, i), w))
    return out


def choose_target(
    spec: EngagementSpec, fire: Fire, weapon: Weapon, alive: Callable[[str], bool]
) -> str | None:
    """The unit this weapon fires at: the declared target while it lives and can be hit, else the
    first enemy of the engagement it can hit (R11 retargeting), else ``None``."""
    enemy = spec.other(spec.cards[fire.unit].side)
    cands = [fire.target] + (
        [u for u in spec.group_of(enemy) if u != fire.target] if spec.rules.retarget else []
    )
    for t in cands:
        if alive(t) and spec.may_hit(fire.unit, weapon, t):
            return t
    return None


def firing_plan(spec: EngagementSpec, first: str, round_no: int) -> list[str]:
    """The sides that fire in round *round_no*, in order (R6)."""
    second = spec.other(first)
    if spec.rules.combat_round == "single-volley":
        return [first] if round_no % 2 == 1 else [second]
    return [first, second]


def decided(spec: EngagementSpec, alive: Callable[[str], bool]) -> str | None:
    """OES.10: the side left when the other's group is all destroyed (``None`` while both remain)."""
    if not any(alive(u) for u in spec.attacking):
        return spec.defender
    if not any(alive(u) for u in spec.defending):
        return spec.attacker
    return None


def can_fire(spec: EngagementSpec, statuses: Mapping[str, tuple[int, int]]) -> bool:
    """Can any surviving declared unit of either side still fire a weapon at a legal target
    (range, domain, the declared target or, with ``retarget``, another enemy)? When none can, the
    engagement ends (ruling R45): rounds would change nothing. A malfunction (OES.5) only
    silences a weapon for one round, so it does not count here."""

    def alive(u: str) -> bool:
        return statuses[u][0] > 0

    for fire in (*spec.attacks, *spec.retaliations):
        if not alive(fire.unit):
            continue
        card = spec.cards[fire.unit]
        damaged = card.damaged_at(statuses[fire.unit][0])
        if any(
            choose_target(spec, fire, w, alive) is not None
            for _, w in weapons_fired(card, fire, damaged, spec.rules)
        ):
            return True
    return False


@dataclass
class RoundResult:
    """What one combat round did."""

    round: int
    statuses: dict[str, tuple[int, int]]
    disabled_next: frozenset[str]
    shots: list[Shot]
    winner: str | None

    @property
    def destroyed(self) -> list[str]:
        return [s.target for s in self.shots if s.destroyed]


def resolve_round(
    spec: EngagementSpec,
    statuses: Mapping[str, tuple[int, int]],
    disabled: Iterable[str],
    first: str,
    roll: Roller,
    round_no: int = 1,
) -> RoundResult:
    """One combat round (OES.4-OES.9): each side in turn (initiative side first) fires its declared
    units one at a time; damage applies at once, so a destroyed unit fires no more (OES.9).

    Args:
        statuses: (endurance, crew) of every unit in the engagement.
        disabled: weapon keys that malfunctioned last round (not usable this round, OES.5).
        first: the side that won the initiative (OES.3).
    """
    st = dict(statuses)
    disabled = frozenset(disabled)
    nxt: set[str] = set()
    shots: list[Shot] = []

    def alive(u: str) -> bool:
        return st[u][0] > 0

    winner = decided(spec, alive)
    for side in firing_plan(spec, first, round_no):
        if winner:
            break
        for fire in spec.fires_of(side):
            if winner:
                break
            if not alive(fire.unit):
                continue
            card = spec.cards[fire.unit]
            for key, w in weapons_fired(card, fire, card.damaged_at(st[fire.unit][0]), spec.rules):
                if key in disabled:
                    continue
                target = choose_target(spec, fire, w, alive)
                if target is None:
                    continue
                shot = resolve_shot(card, w, spec.cards[target], st[target], roll, spec.rules)
                shots.append(shot)
                st[target] = shot.after
                if shot.kind == "malfunction":
                    nxt.add(key)
                if shot.after == DESTROYED:
                    winner = decided(spec, alive)
                    if winner:
                        break
    return RoundResult(round_no, st, frozenset(nxt), shots, winner)


# -- initiative (OES.3, CN.1-CN.2, EXP.1) -------------------------------------------------------
def initiative_bonus(cards: Sequence[Card], role: str, scope: str = "highest") -> int:
    """A side's experience bonus to initiative (EXP.1): Stealthy (attacking) or Vigilant
    (defending), plus Combat Veteran; combined over the side's declared units by *scope*
    (R5: ``"highest"``, ``"sum"`` or ``"lead"``).

    >>> from owsnb.rules.opscale.units import Card
    >>> a = Card("a", "b", "infantry", experience=("stealthy", "combat-veteran"))
    >>> b = Card("b", "b", "infantry", experience=("vigilant",))
    >>> initiative_bonus([a, b], "attack"), initiative_bonus([a, b], "defense")
    (2, 1)
    >>> initiative_bonus([a, b], "defense", "sum")
    2
    """
    own = "stealthy" if role == "attack" else "vigilant"
    per = [c.bonus(own) + c.bonus("combat-veteran") for c in cards]
    if not per:
        return 0
    if scope == "sum":
        return sum(per)
    if scope == "lead":
        return per[0]
    return max(per)


def roll_initiative(
    attacker: str, defender: str, att_mod: int, def_mod: int, roll: Roller, limit: int = 1000
) -> tuple[str, list[tuple[int, int]]]:
    """OES.3: each side rolls a D10 and adds its modifiers; the highest wins; ties are re-rolled.

    Returns the winner and every pair of rolls.

    >>> roll_initiative("blue", "red", 2, 0, scripted([5, 7, 4, 3]))
    ('blue', [(5, 7), (4, 3)])
    """
    pairs = []
    for _ in range(limit):
        a = roll(10, f"initiative: {attacker} (attacker, {att_mod:+d})", "OES.3", attacker)
        d = roll(10, f"initiative: {defender} (defender, {def_mod:+d})", "OES.3", defender)
        pairs.append((a, d))
        if a + att_mod != d + def_mod:
            return (attacker if a + att_mod > d + def_mod else defender), pairs
    raise RuntimeError("initiative tied too often")  # pragma: no cover - probability ~0
