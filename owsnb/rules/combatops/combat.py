"""Combat (11.0-13.5): strengths, odds, the combat results table, losses, retreats and advances.

Combat rolls no die. The attacker reveals the units attacking one hex and any supporting
artillery; the defender reveals every unit in the hex and commits artillery in range; modified
strengths are summed, the ratio is rounded down to a column of the CRT (1-4 ... 4-1), column shifts
apply (Armor Bonus 13.2, Armor Vulnerability 13.3, Engineers in towns 13.5), and the column gives
the losses as fractions of the defender's steps ``S`` (rounded down) and who retreats.

>>> [odds_column(a, d) for a, d in [(7, 3), (5, 12), (3, 2), (2, 10), (25, 5)]]
['2-1', '1-3', '1-1', '1-4', '4-1']
>>> crt_row(load_crt(), "1-3", 6)
(3, 0, 1, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import freeze
from owsnb.kernel.events import Event, note, unit_add, unit_move, unit_remove, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.reduce import apply
from owsnb.kernel.result import Result
from owsnb.kernel.state import GameState, StateLike, Unit, edge_key
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.movement import enemy_of, step_cost
from owsnb.rules.combatops.supply import supply_heads
from owsnb.rules.combatops.terrain import hexid, map_info, occupied, zoc

__all__ = [
    "COLUMNS",
    "load_crt",
    "odds_column",
    "shift_column",
    "crt_row",
    "Contribution",
    "attack_value",
    "defense_value",
    "support_value",
    "column_shifts",
    "defense_band",
    "allocate_losses",
    "loss_events",
    "retreat_events",
    "survivors",
    "resolve",
    "CombatResult",
    "CombatPreview",
    "preview",
    "visibility_of",
    "defensive_artillery",
]

COLUMNS = ("1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1")


def load_crt() -> dict[str, Any]:
    """The CRT as shipped (a game reads ``state.tables['crt']``)."""
    return U.load_table("crt")


def odds_column(attack: int, defense: int, columns: Sequence[str] = COLUMNS) -> str:
    """The CRT column of *attack* : *defense*, rounded down; below 1-4 is 1-4 and above 4-1 is
    4-1 (11.0)."""
    if defense <= 0:
        return columns[-1]
    r = Fraction(attack, defense)
    best = columns[0]
    for col in columns:
        a, d = (int(x) for x in col.split("-"))
        if r >= Fraction(a, d):
            best = col
    return best


def shift_column(col: str, shift: int, columns: Sequence[str] = COLUMNS) -> str:
    """Shift a column by *shift* levels, clamped to the table (digest #23: clamp, shift, clamp)."""
    i = min(max(columns.index(col) + shift, 0), len(columns) - 1)
    return columns[i]


def crt_row(crt: Mapping[str, Any], col: str, steps: int) -> tuple[int, int | str, int, int]:
    """(attacker loss, defender loss or ``"eliminated"``, attacker retreat, defender retreat)
    for column *col* against a defender with *steps* steps (fractions round down, 11.2)."""
    row = crt["results"][col]

    def loss(part: Mapping[str, Any]) -> int | str:
        if part.get("eliminated"):
            return "eliminated"
        if "steps" in part:
            return int(part["steps"])
        return int(Fraction(str(part.get("fraction", "0"))) * steps)

    att, dfn = row.get("attacker", {}), row.get("defender", {})
    return loss(att), loss(dfn), int(att.get("retreat", 0)), int(dfn.get("retreat", 0))


# -- strengths ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Contribution:
    """One unit's part in a combat: its printed value, the modifiers applied and the result."""

    unit: str
    role: str
    printed: int
    value: int
    notes: tuple[str, ...] = ()


def _opt(state: StateLike, name: str, default: Any) -> Any:
    return state.options.get(name, default)


def _n(state: StateLike, u: Unit) -> int:
    """How many times a per-battalion modifier applies to *u* (digest #44)."""
    return U.bns(u) if _opt(state, "regiment_modifiers", "per-battalion") == "per-battalion" else 1


def _integrity(u: Unit, group: Iterable[Unit]) -> bool:
    """13.1: every battalion of u's regiment is in *group* (battalion counters only)."""
    reg, size = u.data.get("regiment"), u.data.get("regiment_size")
    if not reg or not size or u.data.get("echelon") == "regiment":
        return False
    return sum(1 for x in group if x.data.get("regiment") == reg) >= int(size)


def _div(v: int, d: int) -> int:
    return max(1, v // d)


def _supplied(state: StateLike, printed: int, terr: int, oos: bool, divisor: int) -> int:
    """*printed* strength plus terrain *terr*, at least 1, divided by *divisor* when out of supply
    (7.2); option ``modifier_order`` says whether terrain or supply applies first."""
    if _opt(state, "modifier_order", "terrain-then-supply") == "terrain-then-supply":
        v = max(1, printed + terr)
        if oos:
            v = _div(v, divisor)
    else:
        v = _div(printed, divisor) if oos else printed
        v = max(1, v + terr)
    return v


def attack_value(
    state: StateLike, u: Unit, target: Hex, group: Sequence[Unit] = ()
) -> Contribution:
    """Attack strength of *u* attacking *target* alongside *group* (11.0, 9.x, 7.2, 13.1)."""
    info = map_info(state.map)
    tec = state.tables["terrain"]
    types = state.tables.get("unit_types", U.TYPES)
    a = int(u.data.get("atk") or 0)
    notes: list[str] = []
    if _integrity(u, group):
        a += 1
        notes.append("+1 regimental integrity (13.1)")
    n = _n(state, u)
    terr = 0
    cb = tec.get("clear_bonus", {})
    where = u.hex if _opt(state, "clear_bonus_hex", "own") == "own" else target
    if U.utype(u) in cb.get("types", ()) and info.terrain.get(where) == "clear":
        terr += n * int(cb.get("attack", 1))
        notes.append(f"+{n * int(cb.get('attack', 1))} clear terrain (9.1)")
    t = info.terrain.get(target, "clear")
    into = tec["terrain"].get(t, {}).get("attack_into", {})
    if "mechanized-non-infantry" in into and U.mechanized(u, types) and not U.is_infantry(u, types):
        terr += n * int(into["mechanized-non-infantry"])
        notes.append(f"{n * int(into['mechanized-non-infantry'])} attacking into {t} (9.2)")
    if "non-infantry" in into and not U.is_infantry(u, types):
        terr += n * int(into["non-infantry"])
        notes.append(f"{n * int(into['non-infantry'])} attacking into {t} (9.4)")
    if info.elevation.get(target, 0) > info.elevation.get(u.hex, 0):
        up = int(tec.get("elevation", {}).get("uphill_attack", -1))
        terr += n * up
        notes.append(f"{n * up} attacking uphill (9.5)")
    oos = bool(u.data.get("oos"))
    v = _supplied(state, a, terr, oos, 4)
    if oos:
        notes.append("quartered: out of supply (7.2)")
    if u.hex is not None and edge_key(u.hex, target) in info.rivers:
        v = _div(v, int(tec.get("river", {}).get("attack_divisor", 2)))
        notes.append("halved: across a river or bridge (9.6, 9.7)")
    sw = tec["terrain"].get(t, {}).get("attack_divisor")
    if sw and (not U.is_infantry(u, types) or _opt(state, "swamp_attack", "non-infantry") == "all"):
        v = _div(v, int(sw))
        notes.append(f"÷{sw}: attacking into swamp (9.3)")
    return Contribution(u.id, "attack", int(u.data.get("atk") or 0), v, tuple(notes))


def defense_value(state: StateLike, u: Unit, group: Sequence[Unit] = ()) -> Contribution:
    """Defense strength of *u* in its hex alongside *group* (11.0, 9.x, 7.2, 13.1, 13.4)."""
    info = map_info(state.map)
    tec = state.tables["terrain"]
    types = state.tables.get("unit_types", U.TYPES)
    d = int(u.data.get("dfn") or 0)
    notes: list[str] = []
    art = U.is_artillery(u, types)
    terr = 0
    if not art or _opt(state, "artillery_terrain_defense", False):
        if _integrity(u, group):
            d += 1
            notes.append("+1 regimental integrity (13.1)")
        n = _n(state, u)
        t = info.terrain.get(u.hex, "clear")
        bonus = int(tec["terrain"].get(t, {}).get("defense", 0))
        if bonus:
            terr += n * bonus
            notes.append(f"+{n * bonus} defending in {t} (9.x)")
        cb = tec.get("clear_bonus", {})
        if U.utype(u) in cb.get("types", ()) and t == "clear":
            terr += n * int(cb.get("defense", 1))
            notes.append(f"+{n * int(cb.get('defense', 1))} clear terrain (9.1)")
    else:
        notes.append("printed defense, no terrain (13.4, errata 7.0/9.1)")
    oos = bool(u.data.get("oos"))
    v = _supplied(state, d, terr, oos, 2)
    if oos:
        notes.append("halved: out of supply (7.2)")
    return Contribution(u.id, "defense", int(u.data.get("dfn") or 0), v, tuple(notes))


def support_value(state: StateLike, art: Unit, role: str) -> Contribution:
    """Artillery support points: its attack strength, never modified by terrain (13.4, errata 7.0);
    quartered when out of supply unless option ``artillery_supply`` is off (digest omission 2)."""
    a = int(art.data.get("atk") or 0)
    notes = []
    v = a
    if art.data.get("oos") and _opt(state, "artillery_supply", True):
        v = _div(a, 4)
        notes.append("quartered: out of supply (7.2)")
    return Contribution(art.id, role, a, v, tuple(notes))


def column_shifts(
    state: StateLike, attackers: Sequence[Unit], defenders: Sequence[Unit], target: Hex
) -> list[tuple[int, str]]:
    """Column shifts with their reasons (13.2, 13.3, 13.5)."""
    types = state.tables.get("unit_types", U.TYPES)
    info = map_info(state.map)
    att_armor = any(U.is_armor(a, types) for a in attackers)
    att_inf = any(U.is_infantry(a, types) for a in attackers)
    out: list[tuple[int, str]] = []
    vuln = att_armor and not att_inf and any(U.is_infantry(d, types) for d in defenders)
    bonus = (
        att_armor
        and bool(defenders)
        and not any(U.is_priority(d, types) or U.is_engineer(d, types) for d in defenders)
    )
    if (
        vuln
        and _opt(state, "armor_shifts", "vulnerability-replaces-bonus")
        == "vulnerability-replaces-bonus"
    ):
        bonus = False
    if bonus:
        out.append(
            (1, "Armor Bonus: armor against a stack without armor, engineer, AT or AA (13.2)")
        )
    if vuln:
        out.append(
            (-1, "Armor Vulnerability: armor against infantry with no infantry of its own (13.3)")
        )
    non_art = [a for a in attackers if not U.is_artillery(a, types)]
    if (
        info.terrain.get(target) == "town"
        and len(non_art) >= 2
        and any(U.is_engineer(a, types) for a in non_art)
    ):
        out.append((1, "engineer attacking into a town with another unit (13.5)"))
    return out


# -- losses ---------------------------------------------------------------------------------------
def allocate_losses(
    groups: Sequence[Sequence[Unit]], losses: int, mode: str = "exhaust-priority"
) -> dict[str, list[int]]:
    """Spread *losses* over battalion "slots" (12.0, 13.3, errata 8.0).

    Each counter is its battalions; a slot holds 0 (full), 1 (hit marker) or 2 (eliminated).
    Every slot takes a hit before any takes a second (12.0), round-robin over counters in the
    given order. ``groups[0]`` (13.3 priority units, possibly empty) absorbs losses first: until
    it is wiped out (``exhaust-priority``, the text) or only for first hits (``first-hit``).
    Losses beyond what the units can take are ignored.

    >>> from owsnb.kernel.data import freeze
    >>> bn = lambda i: Unit(f"B{i}", "blue", steps=2, max_steps=2, data=freeze({"bns": 1}))
    >>> allocate_losses([[], [bn(1), bn(2), bn(3), bn(4)]], 5)  # 12.0 example
    {'B1': [2], 'B2': [1], 'B3': [1], 'B4': [1]}
    """
    slots = {
        u.id: sorted([1] * U.hits(u) + [0] * (U.bns(u) - U.hits(u)), reverse=True)
        for g in groups
        for u in g
    }
    plan = []
    gs = [list(g) for g in groups]
    if mode == "first-hit":
        plan = [(g, lvl) for lvl in (0, 1) for g in gs]
    else:
        plan = [(g, lvl) for g in gs for lvl in (0, 1)]
    left = losses
    for group, lvl in plan:
        progressed = True
        while left > 0 and progressed:
            progressed = False
            for u in group:
                if left <= 0:
                    break
                s = slots[u.id]
                if lvl in s:
                    s[s.index(lvl)] += 1
                    left -= 1
                    progressed = True
    return slots


def visibility_of(state: StateLike, u: Unit) -> frozenset[str] | None:
    """Who may see events about *u*: everyone once the enemy has seen it, else its owner."""
    return None if enemy_of(state, u.side) in u.seen_by else frozenset([u.side])


def loss_events(state: StateLike, u: Unit, slots: Sequence[int], *, rule: str) -> list[Event]:
    """Events that put the battalion slots *slots* on counter *u* (hit markers, eliminations and
    the breakdown of a regiment that loses a battalion, errata 8.0)."""
    vis = visibility_of(state, u)
    alive = [s for s in slots if s < 2]
    n = U.bns(u)
    if not alive:
        return [
            unit_set(u.id, steps=0, hex=None, box="eliminated", visible_to=vis, rule=rule),
            note(f"{u.id} eliminated", visible_to=vis, rule=rule),
        ]
    new_hits = sum(1 for s in alive if s == 1)
    if len(alive) == n:
        steps = 2 * n - new_hits
        if steps == u.steps:
            return []
        return [unit_set(u.id, steps=steps, visible_to=vis, rule=rule)]
    return breakdown_events(state, u, sorted(alive, reverse=True), rule=rule)


def breakdown_events(
    state: StateLike, reg: Unit, bn_hits: Sequence[int] | None = None, *, rule: str
) -> list[Event]:
    """Replace regiment *reg* by battalion counters carrying *bn_hits* (one entry per battalion
    left; default: all its battalions, hit markers on the first ones). Errata 8.0, 17.0."""
    n = U.bns(reg)
    if bn_hits is None:
        h = U.hits(reg)
        bn_hits = [1] * h + [0] * (n - h)
    vis = visibility_of(state, reg)
    ids = list(reg.data.get("bn_ids") or [])
    base = reg.id
    pre, _, rest = base.partition("-")
    while len(ids) < n:
        ids.append(f"{pre}-{len(ids) + 1}:{rest}" if rest else f"{len(ids) + 1}:{base}")
    vals = reg.data.get("bn") or {"atk": reg.data.get("atk"), "dfn": reg.data.get("dfn")}
    keep = {
        k: reg.data[k]
        for k in ("utype", "ma", "division", "supply_division", "oos", "art_class")
        if reg.data.get(k) is not None
    }
    events: list[Event] = [unit_remove(reg.id, visible_to=vis, rule=rule)]
    made = []
    for i, hit in enumerate(bn_hits):
        uid = ids[i]
        while uid in state.units:
            uid = f"{uid}'"
        data = {
            **keep,
            "atk": vals.get("atk"),
            "dfn": vals.get("dfn"),
            "echelon": "battalion",
            "bns": 1,
            "regiment": reg.id,
            "regiment_size": n,
            "from_breakdown": True,
        }
        if reg.data.get("dummy"):
            data["dummy"] = True
        bn = Unit(
            id=uid,
            side=reg.side,
            kind=str(reg.data.get("bn_kind") or reg.kind),
            name=f"{_ordinal(i + 1)} Bn, {reg.name}",
            hex=reg.hex,
            steps=2 - hit,
            max_steps=2,
            markers=reg.markers,
            data=freeze(data),
            seen_by=reg.seen_by,
        )
        events.append(unit_add(bn, visible_to=vis, rule=rule))
        made.append(uid)
    events.append(note(f"{reg.id} breaks down into {', '.join(made)}", visible_to=vis, rule=rule))
    return events


def _ordinal(i: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(i, f"{i}th")


# -- retreat --------------------------------------------------------------------------------------
def _apply(state: GameState, events: Iterable[Event]) -> Any:
    for e in events:
        state = apply(state, e)
    return state


def stack_count(state: StateLike, side: str, h: Hex) -> int:
    """Battalions' worth of *side*'s units on *h* (6.0)."""
    return sum(U.stacking_value(u) for u in occupied(state, side).get(h, ()))


def retreat_events(
    state: GameState, unit_ids: Sequence[str], away_from: Iterable[Hex], *, rule: str = "11.10"
) -> tuple[Any, list[Event], list[str]]:
    """Retreat each unit 1 hex (11.8, errata 11.10, 5.2); returns (new state, events, notes).

    The hex must take the unit farther from every hex in *away_from* and be one it could enter
    (terrain, rivers and bridges; no enemy unit). Among those the retreat goes, in order of
    preference, where stacking stays legal, where no unoccupied enemy ZOC costs a step, and
    nearest to a friendly supply head (owsnb ruling, digest #24). With no legal hex, or only
    overstacked ones, the unit is eliminated (11.10).
    """
    info = map_info(state.map)
    types = state.tables.get("unit_types", U.TYPES)
    limit = int(state.tables.get("unit_types", U.TYPES).get("stacking_limit", 4))
    away = list(away_from)
    events: list[Event] = []
    lines: list[str] = []
    for uid in unit_ids:
        u = state.units[uid]
        if u.hex is None or not u.alive:
            continue
        foe = enemy_of(state, u.side)
        enemy_at = set(occupied(state, foe))
        friendly_at = set(occupied(state, u.side))
        ezoc = zoc(state, foe)
        heads = supply_heads(state, u.side) or [u.hex]
        cls = U.movement_class(u, types)
        best = None
        for n in info.neighbours[u.hex]:
            if n in enemy_at or step_cost(state, u.hex, n, cls, int(u.data.get("ma", 1))) is None:
                continue
            if any(n.distance(a) <= u.hex.distance(a) for a in away):
                continue
            stack_ok = stack_count(state, u.side, n) + U.stacking_value(u) <= limit
            zoc_loss = n in ezoc and n not in friendly_at
            key = (not stack_ok, zoc_loss, min(h.distance(n) for h in heads), info.ids[n])
            if best is None or key < best[0]:
                best = (key, n)
        vis = visibility_of(state, u)
        if best is None or best[0][0]:
            why = (
                "no hex to retreat to" if best is None else "retreat would break the stacking limit"
            )
            evs = [
                unit_set(uid, steps=0, hex=None, box="eliminated", visible_to=vis, rule=rule),
                note(f"{uid} eliminated: {why} (11.10)", visible_to=vis, rule=rule),
            ]
            lines.append(f"{uid} eliminated ({why})")
        else:
            (_, zoc_loss, _, label), dest = best
            evs = [unit_move(uid, dest, path=(u.hex, dest), visible_to=vis, rule=rule)]
            lines.append(f"{uid} retreats to {label}")
            if zoc_loss:
                moved = _apply(state, evs).units[uid]
                slots = allocate_losses([[], [moved]], 1)[uid]
                evs += loss_events(_apply(state, evs), moved, slots, rule="5.2")
                lines.append(f"{uid} loses a step retreating into enemy ZOC (5.2)")
        events += evs
        state = _apply(state, evs)
    return state, events, lines


def survivors(state: StateLike, ids: Sequence[str]) -> list[Unit]:
    """The units among *ids* still on the map, a regiment that broke down replaced by its
    battalions (errata 8.0)."""
    out = []
    for i in ids:
        u = state.units.get(i)
        if u is None:
            out += [
                b
                for b in state.units.values()
                if b.data.get("regiment") == i
                and b.data.get("from_breakdown")
                and b.alive
                and b.hex is not None
            ]
        elif u.alive and u.hex is not None:
            out.append(u)
    return out


# -- resolution -----------------------------------------------------------------------------------
@dataclass
class CombatResult:
    """What one attack did: contributions, odds, shifts, the CRT line, losses and retreats."""

    hex: str
    attacker: str
    attack: list[Contribution] = field(default_factory=list)
    defense: list[Contribution] = field(default_factory=list)
    dummies: list[str] = field(default_factory=list)
    attack_total: int = 0
    defense_total: int = 0
    raw_column: str = ""
    shifts: list[tuple[int, str]] = field(default_factory=list)
    column: str = ""
    steps: int = 0
    attacker_loss: int = 0
    defender_loss: int | str = 0
    lines: list[str] = field(default_factory=list)
    vacated: bool = False
    rules: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if not self.column:
            return f"{self.attacker} attacks {self.hex}: " + "; ".join(self.lines)
        sh = "".join(f" {'+' if s > 0 else ''}{s}" for s, _ in self.shifts)
        return (
            f"{self.attacker} attacks {self.hex}: {self.attack_total} vs {self.defense_total} = "
            f"{self.raw_column}{sh} -> {self.column}; S={self.steps}: attacker loses "
            f"{self.attacker_loss}, defender loses {self.defender_loss}"
        )

    def __repr__(self) -> str:
        return f"<CombatResult {self.summary()}>"

    def record(self) -> Result:
        """The attack as a result: every unit's value, the odds, column shifts, the losses."""
        column = f"{self.raw_column} → {self.column}" if self.shifts else self.raw_column
        return Result(
            f"Attack on {self.hex}",
            {
                "strength": f"{self.attack_total} : {self.defense_total}",
                "column": column,
                "defender steps (S)": self.steps,
                "attacker loses": self.attacker_loss,
                "defender loses": self.defender_loss,
            },
            list(self.rules),
            columns=["role", "unit", "printed", "value", "modifiers"],
            table=[
                {
                    "role": c.role,
                    "unit": c.unit,
                    "printed": c.printed,
                    "value": c.value,
                    "modifiers": "; ".join(c.notes),
                }
                for c in self.attack + self.defense
            ],
            lines=[
                *(f"{'+' if s > 0 else ''}{s} column: {why}" for s, why in self.shifts),
                *self.lines,
            ],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def defensive_artillery(state: StateLike, defender: str, target: Hex) -> list[Unit]:
    """Defender artillery that supports the defense of *target* (13.4): real, on the map, not in
    the hex itself, within range, not yet used this phase, not held back by its owner (option
    ``defensive_artillery``: ``auto`` commits all of them, ``none`` never)."""
    if _opt(state, "defensive_artillery", "auto") == "none":
        return []
    types = state.tables.get("unit_types", U.TYPES)
    held = set(state.sides[defender].private.get("artillery_hold", ()))
    out = []
    for u in state.units.values():
        if (
            u.side == defender
            and u.hex is not None
            and u.alive
            and U.is_artillery(u, types)
            and not U.is_dummy(u)
            and u.hex != target
            and not u.has("supported")
            and u.id not in held
            and u.hex.distance(target) <= U.art_range(u, types)
        ):
            out.append(u)
    return out


def resolve(
    state: GameState,
    side: str,
    target: Hex,
    attacker_ids: Sequence[str],
    support_ids: Sequence[str] = (),
    *,
    rule: str = "11.0",
) -> tuple[CombatResult, list[Event]]:
    """Resolve *side*'s attack on *target* (already validated). Returns the result and events."""
    types = state.tables.get("unit_types", U.TYPES)
    foe = enemy_of(state, side)
    label = hexid(state.map, target)
    res = CombatResult(label, side, rules=["11.0"])
    events: list[Event] = []
    attackers = [state.units[i] for i in attacker_ids]
    support = [state.units[i] for i in support_ids]
    in_hex = [u for u in state.units.values() if u.hex == target and u.side == foe and u.alive]
    dsupport = defensive_artillery(state, foe, target)
    # 11.0: both sides reveal the units taking part
    for u in [*attackers, *support, *in_hex, *dsupport]:
        other = enemy_of(state, u.side)
        if other not in u.seen_by:
            events.append(unit_set(u.id, seen_by=u.seen_by | {other}, visible_to=None, rule="11.0"))
    state = _apply(state, events)
    # dummies are revealed and removed (owsnb ruling, digest #19/#42)
    for u in in_hex:
        if U.is_dummy(u):
            ev = [
                unit_set(u.id, steps=0, hex=None, box="removed", visible_to=None, rule="11.0"),
                note(f"{u.id} in {label} is a dummy and is removed", rule="11.0"),
            ]
            events += ev
            state = _apply(state, ev)
            res.dummies.append(u.id)
    defenders = [state.units[u.id] for u in in_hex if not U.is_dummy(u)]
    marks = [
        unit_set(a.id, markers=state.units[a.id].markers | {"attacked"}, visible_to=None, rule=rule)
        for a in attackers
    ]
    marks += [
        unit_set(
            a.id, markers=state.units[a.id].markers | {"supported"}, visible_to=None, rule="13.4"
        )
        for a in [*support, *dsupport]
    ]
    events += marks
    state = _apply(state, marks)
    attackers = [state.units[a.id] for a in attackers]
    if not defenders:
        res.lines.append(f"{label} held only dummies: the attack counts and the hex is vacated")
        res.vacated = True
        res.rules.append("ruling #19")
        return res, events
    res.attack = [attack_value(state, a, target, attackers) for a in attackers]
    res.attack += [support_value(state, a, "support") for a in support]
    res.defense = [defense_value(state, d, defenders) for d in defenders]
    res.defense += [support_value(state, a, "defensive support") for a in dsupport]
    res.attack_total = sum(c.value for c in res.attack)
    res.defense_total = sum(c.value for c in res.defense)
    crt = state.tables["crt"]
    cols = tuple(crt.get("columns", COLUMNS))
    res.raw_column = odds_column(res.attack_total, res.defense_total, cols)
    res.shifts = column_shifts(state, attackers, defenders, target)
    res.column = shift_column(res.raw_column, sum(s for s, _ in res.shifts), cols)
    res.rules += [why.rsplit("(", 1)[-1].rstrip(")") for _, why in res.shifts]
    res.steps = sum(d.steps for d in defenders)
    a_loss, d_loss, a_ret, d_ret = crt_row(crt, res.column, res.steps)
    res.attacker_loss, res.defender_loss = a_loss, d_loss
    row_rule = str(crt["results"][res.column].get("rule", "11.0"))
    res.rules.append(row_rule)
    mode = _opt(state, "loss_priority", "exhaust-priority")
    att_armor = any(U.is_armor(a, types) for a in attackers)
    def_prio = any(U.is_priority(d, types) for d in defenders)
    # 13.3: armor takes the attacker's losses first against AT/AA/armor; and vice versa
    a_groups = (
        (
            [a for a in attackers if U.is_armor(a, types)],
            [a for a in attackers if not U.is_armor(a, types)],
        )
        if att_armor and def_prio
        else ([], attackers)
    )
    d_groups = (
        (
            [d for d in defenders if U.is_priority(d, types)],
            [d for d in defenders if not U.is_priority(d, types)],
        )
        if att_armor and def_prio
        else ([], defenders)
    )
    if att_armor and def_prio:
        res.rules.append("13.3")
    # losses (12.0): attacker first, then defender
    for who, groups, loss in (("attacker", a_groups, a_loss), ("defender", d_groups, d_loss)):
        units = [*groups[0], *groups[1]]
        if loss == "eliminated":
            ev = []
            for d in units:
                ev += loss_events(state, d, [2] * U.bns(d), rule=row_rule)
            res.lines.append(f"defender eliminated ({row_rule})")
        elif loss:
            slots = allocate_losses(groups, int(loss), mode)
            ev = []
            for u in units:
                ev += loss_events(state, u, slots[u.id], rule=row_rule)
            res.lines.append(f"{who} takes {loss} step loss{'es' if loss != 1 else ''} (12.0)")
        else:
            ev = []
        events += ev
        state = _apply(state, ev)
    # retreats (11.8, errata 11.10): defender survivors in the hex; attacker survivors
    if d_ret:
        left = [u.id for u in state.units.values() if u.hex == target and u.side == foe and u.alive]
        away = {a.hex for a in attackers if a.hex is not None}
        state, ev, lines = retreat_events(state, left, away)
        events += ev
        res.lines += lines
        res.rules.append("11.10")
    if a_ret:
        alive = [u.id for u in survivors(state, [a.id for a in attackers])]
        state, ev, lines = retreat_events(state, alive, {target})
        events += ev
        res.lines += lines
        res.rules.append("11.10")
    res.vacated = not any(
        u.hex == target and u.side == foe and u.alive for u in state.units.values()
    )
    events.append(note(res.summary(), rule=rule, column=res.column))
    return res, events


# -- preview --------------------------------------------------------------------------------------
def defense_band(lo: int, hi: int | None) -> str:
    """A band of defense strengths as printed: one value, a range, or open-ended.

    >>> defense_band(7, 7), defense_band(7, 12), defense_band(19, None)
    ('7', '7–12', '19+')
    """
    if hi is None:
        return f"{lo}+"
    return str(lo) if hi == lo else f"{lo}–{hi}"


@dataclass
class CombatPreview:
    """What the attacker can know before attacking: its own strength, the visible shifts, and
    the CRT column for every defense strength (face-down defenders hide theirs)."""

    hex: str
    attack: list[Contribution]
    attack_total: int
    shifts: list[tuple[int, str]]
    bands: list[tuple[str, int, int | None]]
    known_defense: int | None = None
    result: CombatResult | None = None

    def __repr__(self) -> str:
        if self.result is not None:
            return f"<CombatPreview exact: {self.result.summary()}>"
        bands = ", ".join(f"{c} if defense {defense_band(lo, hi)}" for c, lo, hi in self.bands)
        return f"<CombatPreview {self.hex}: attack {self.attack_total}; {bands}>"

    def record(self) -> Result:
        """The preview as a result: the exact result when the defense is known, else the
        attack's strength and the final column for each band of the defense."""
        if self.result is not None:
            return self.result.record()
        return Result(
            f"Attack on {self.hex}",
            {"strength": self.attack_total},
            [],
            columns=["defense", "final column"],
            table=[
                {"defense": defense_band(lo, hi), "final column": c} for c, lo, hi in self.bands
            ],
            lines=[
                *(
                    f"{c.unit}: {c.value}" + (f" ({'; '.join(c.notes)})" if c.notes else "")
                    for c in self.attack
                ),
                *(f"{'+' if s > 0 else ''}{s}: {w}" for s, w in self.shifts),
            ],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def preview(
    view: Any, side: str, target: Hex, attacker_ids: Sequence[str], support_ids: Sequence[str] = ()
) -> CombatPreview:
    """The attacker's preview of an attack, computed on its view (or the truth for the umpire)."""
    attackers = [view.units[i] for i in attacker_ids]
    support = [view.units[i] for i in support_ids]
    contrib = [attack_value(view, a, target, attackers) for a in attackers]
    contrib += [support_value(view, a, "support") for a in support]
    total = sum(c.value for c in contrib)
    foe = enemy_of(view, side)
    shown = [u for u in view.units.values() if u.hex == target and u.side == foe and u.alive]
    shifts = column_shifts(view, attackers, [u for u in shown if not U.is_dummy(u)], target)
    shift = sum(s for s, _ in shifts)
    crt = view.tables["crt"]
    cols = tuple(crt.get("columns", COLUMNS))
    bands: list[tuple[str, int, int | None]] = []
    for d in range(1, 4 * total + 2):
        col = shift_column(odds_column(total, d, cols), shift, cols)
        if bands and bands[-1][0] == col:
            bands[-1] = (col, bands[-1][1], d)
        else:
            bands.append((col, d, d))
    bands[-1] = (bands[-1][0], bands[-1][1], None)
    out = CombatPreview(hexid(view.map, target), contrib, total, shifts, bands)
    if getattr(view, "viewer", side) == "umpire":
        out.result, _ = resolve(view, side, target, attacker_ids, support_ids)
    return out
