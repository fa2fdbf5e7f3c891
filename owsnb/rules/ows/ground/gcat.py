"""The Ground Combat Adjudication Table (10.15.9): a combat's set-up and its results.

Paragraphs: 10.15.9 the GCAT; 10.15.9.1.1 odds of manoeuvre steps, fractions down (C11, R7);
10.15.9.1 lead units (a Main Effort leads; the defender's highest red shield with Defend +1,
Fortified +2, ACE +1, R8); 10.15.9.1.2 supporting arms 2+/4+/6+ per side, then netted (R5;
10.15.6, C3 IDF SPT and CAS); 10.15.9.1.3 quality, three best steps (R6); 10.15.9.1.4 the
alternative quality rule; 10.15.9.1.5 net shifts and die changes, one roll of the attacker lead
unit's die against the shield picks the row (suppression 10.15.7, Delay 10.8, obstacles 10.12,
RSO&I 2.3.1, radiation 7.4, supply 11.1.2-11.1.3: one column low, two out); 10.15.9.1.6 results
A#, D#, R# (R9), EXP, cancelling a retreat with a step, turning extra losses into retreat, the
first loss always applies except in Delay (10.8), Fortified ignores R1 (10.7); losses and
retreats by ruling G2 (see :mod:`owsnb.rules.ows.ground`).

>>> odds(7, 3), odds(2, 5), odds(4, 0)
('2:1', '1:3', '99:1')
>>> quality_points(["d12", "d12", "d12"], ["d10", "d10", "d8"])
(3, 0)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.events import (
    Event,
    hex_set,
    unit_move,
    unit_set,
)
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import (
    apply_hits,
    detected,
    option,
    watchers,
)
from owsnb.rules.ows.dice import parse_die, rung, shift, sides
from owsnb.rules.ows.movement import (
    GROUND_CATEGORIES,
    is_water,
    mobility,
    ptable,
    stack_ok,
    zoc_hexes,
)
from owsnb.rules.ows.units import counter

DEFENDERS = GROUND_CATEGORIES + ("sof",)


def odds(att_steps: int, def_steps: int) -> str:
    """10.15.9.1.1, R7, C11: attacker:defender manoeuvre steps, fractions down; at or above 1:1
    ``floor(A/D):1``, below ``1:ceil(D/A)``; no defending manoeuvre steps reads as ``99:1`` (the
    table clamps to its last column)."""
    a, d = int(att_steps), int(def_steps)
    if d <= 0:
        return "99:1"
    if a <= 0:
        return "1:99"
    if a >= d:
        return f"{a // d}:1"
    return f"1:{-(-d // a)}"


def _ratio(label: str) -> float:
    a, b = label.split(":")
    return int(a) / int(b)


def column_index(odds_label: str, columns: Sequence[str], shift_by: int = 0) -> int:
    """The GCAT column for an odds ratio (the best column not better than it, clamped, R7), then
    shifted by *shift_by* columns and clamped again."""
    r = _ratio(odds_label)
    vals = [_ratio(c) for c in columns]
    i = 0
    for k, v in enumerate(vals):
        if v <= r + 1e-9:
            i = k
    return min(max(i + int(shift_by), 0), len(columns) - 1)


def row_index(roll: int, shield: int, rows: Sequence[Mapping[str, Any]]) -> int:
    """The GCAT row of a roll against the defender's shield (bands of ``roll - shield``)."""
    diff = int(roll) - int(shield)
    for i, r in enumerate(rows):
        if r.get("max") is None or diff <= int(r["max"]):
            return i
    return len(rows) - 1


_TOKEN = re.compile(r"^([AD])(\d+)(?:R(\d+))?$")


def parse_result(cell: str) -> dict[str, Any]:
    """A GCAT cell as data: ``{"a": steps, "d": steps, "ar": hexes, "dr": hexes, "exp": bool}``.

    >>> parse_result("D2R1 EXP")
    {'a': 0, 'd': 2, 'ar': 0, 'dr': 1, 'exp': True}
    """
    out = {"a": 0, "d": 0, "ar": 0, "dr": 0, "exp": False}
    for tok in str(cell).split():
        if tok == "-":
            continue
        if tok.upper() == "EXP":
            out["exp"] = True
            continue
        m = _TOKEN.match(tok.upper())
        if not m:
            raise ValueError(
                f"GCAT cell {cell!r}: unknown result {tok!r} (A#, D#, A#R#, D#R#, EXP)"
            )
        side = m.group(1).lower()
        out[side] += int(m.group(2))
        if m.group(3):
            out[side + "r"] += int(m.group(3))
    return out


def gcat_cell(gcat: Mapping[str, Any], col: int, roll: int, shield: int) -> str:
    return gcat["cells"][row_index(roll, shield, gcat["rows"])][col]


def quality_points(att_dice: Sequence[str], def_dice: Sequence[str]) -> tuple[int, int]:
    """10.15.9.1.3: compare the lead units' three best steps, best against best; one point per pair
    to the side with the larger die; a step a side cannot field scores for the other side."""
    a = sorted((parse_die(x) for x in att_dice), key=rung, reverse=True)[:3]
    d = sorted((parse_die(x) for x in def_dice), key=rung, reverse=True)[:3]
    pa = pd = 0
    for i in range(3):
        x = a[i] if i < len(a) else None
        y = d[i] if i < len(d) else None
        if x is None and y is None:
            continue
        if y is None:
            pa += 1
        elif x is None:
            pd += 1
        elif rung(x) > rung(y):
            pa += 1
        elif rung(y) > rung(x):
            pd += 1
    return pa, pd


def gcat_distribution(gcat: Mapping[str, Any], column: int, die: str, shield: int) -> Distribution:
    """The exact distribution of GCAT cells for one roll of *die* on *column* against *shield*."""
    return Distribution.die(sides(die)).map(
        lambda r: gcat_cell(gcat, column, r, shield),
        label=f"GCAT {gcat['columns'][column]}, {parse_die(die)} vs {shield}",
    )


def unit_dice(unit: Any) -> list[str]:
    """The dice of a unit's remaining steps (10.15.9.1.3): ``step_dice`` minus crossed boxes in
    damage order, else its ground attack die once per step."""
    sd = [parse_die(x) for x in (unit.data.get("step_dice") or ())]
    if sd:
        from owsnb.rules.ows.units import damage_order

        lost = max(unit.max_steps - unit.steps, 0)
        crossed = set(damage_order(len(sd))[:lost])
        return [d for i, d in enumerate(sd) if i not in crossed][: max(unit.steps, 0)]
    die = None
    for a in counter(unit).attacks:
        if a.can_hit("ground") and not a.air_to_air:
            if die is None or rung(a.die) > rung(die):
                die = a.die
    return [die or "d6"] * max(unit.steps, 0)


def lead_die(unit: Any) -> str:
    ds = unit_dice(unit)
    return max(ds, key=rung) if ds else "d4"


def _fortified(state: StateLike, unit: Any) -> bool:
    if "fortified" in unit.markers:
        return True
    fp = state.map.hexes[unit.hex].facts.get("fortified") if unit.hex is not None else None
    from owsnb.rules.ows.movement import moved_this_turn

    return (
        fp is not None
        and bool(fp)
        and fp.get("side") == unit.side
        and not moved_this_turn(state, unit)
    )


def defence(state: StateLike, unit: Any) -> tuple[int, list[str]]:
    """The red shield with Defend +1 / Fortified +2 (not +3, 10.7) / ACE +1 (R8)."""
    mods = ptable(state, "gcat")["modifiers"]
    v = counter(unit).red_shield
    why = [f"red shield {v}"]
    if _fortified(state, unit):
        v += int(mods["fortified_shield"])
        why.append(f"Fortified +{mods['fortified_shield']} (10.7)")
    elif "defend" in unit.markers:
        v += int(mods["defend_shield"])
        why.append(f"Defend +{mods['defend_shield']} (10.6)")
    if "ace" in unit.markers:
        v += int(mods["ace_shield"])
        why.append(f"ACE Defense +{mods['ace_shield']} (6.5.13)")
    return v, why


def _ground_attacks(u: Any) -> list[Any]:
    return [
        a for a in counter(u).attacks if a.can_hit("ground") and not a.air_to_air and a.left > 0
    ]


def defenders(state: StateLike, h: Hex, attacker: str) -> list[Any]:
    """The units an attack by *attacker* on *h* fights: the other sides' live ground units and SOF
    there (10.15.9)."""
    return [
        u
        for u in state.units.values()
        if u.hex == h and u.side != attacker and u.alive and counter(u).category in DEFENDERS
    ]


def _manoeuvre(u: Any) -> bool:
    return counter(u).category == "ground" and counter(u).subtype not in (
        "partisan",
        "security-zone",
    )


@dataclass
class Combat:
    """One ground combat set up for the GCAT, with every modifier named (10.15.9)."""

    attacker: str
    defender: str
    hex: Hex
    label: str
    attackers: list[Any]
    defenders: list[Any]
    lead_att: Any
    lead_def: Any | None
    att_steps: int
    def_steps: int
    odds: str
    base_column: int
    column: int
    columns: list[str]
    base_die: str
    die: str
    shield: int
    shield_why: list[str]
    att_factors: list[str] = field(default_factory=list)
    def_factors: list[str] = field(default_factory=list)
    shifts: list[tuple[int, str]] = field(default_factory=list)
    die_mods: list[tuple[int, str]] = field(default_factory=list)
    quality: tuple[int, int] = (0, 0)
    gcat: Mapping[str, Any] = field(default_factory=dict)

    def distribution(self) -> Distribution:
        """Exact distribution of the GCAT cell read (computed with Fractions)."""
        return gcat_distribution(self.gcat, self.column, self.die, self.shield)

    def rows(self, public: bool = False) -> list[tuple[str, str]]:
        """(label, value) lines; ``public`` names supporting arms by kind only (no unit ids the other
        side may not have seen)."""

        def arms(fs: list[str]) -> str:
            if not public:
                return ", ".join(fs) or "none"
            from collections import Counter

            kinds = Counter(_factor_kind(f) for f in fs)
            return ", ".join(f"{n} {k}" for k, n in kinds.items()) or "none"

        out = [
            (
                "odds",
                f"{self.att_steps}:{self.def_steps} manoeuvre steps -> {self.odds} (column "
                f"{self.columns[self.base_column]})",
            ),
            (
                "lead units",
                f"{self.lead_att.id} ({self.base_die}) vs {self.lead_def.id if self.lead_def else '-'} "
                f"(shield {self.shield}: {', '.join(self.shield_why)})",
            ),
            ("attacker supporting arms", f"{len(self.att_factors)}: {arms(self.att_factors)}"),
            ("defender supporting arms", f"{len(self.def_factors)}: {arms(self.def_factors)}"),
            ("quality points", f"attacker {self.quality[0]}, defender {self.quality[1]}"),
        ]
        out += [("column shift", f"{n:+d}: {why}") for n, why in self.shifts]
        out += [("die change", f"{n:+d}: {why}") for n, why in self.die_mods]
        out.append(
            (
                "roll",
                f"{self.die.upper()} on column {self.columns[self.column]} vs shield {self.shield}",
            )
        )
        return out

    def __repr__(self) -> str:
        return (
            f"<Combat {self.attacker} on {self.label}: {self.odds} -> {self.columns[self.column]}, "
            f"{self.die} vs {self.shield}>"
        )

    def record(self) -> Any:
        """The combat as a result: its factors, and each outcome with its probability."""
        from owsnb.kernel.result import Result

        return Result(
            f"Ground combat on {self.label}",
            {str(k): v for k, v in self.rows()},
            ["10.15.9"],
            columns=["result", "probability"],
            table=[
                {"result": k, "probability": f"{float(p):.1%}"}
                for k, p in self.distribution().items()
            ],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def _factor_kind(f: str) -> str:
    for kind in ("IDF SPT die", "CAS", "NGFS", "SOF", "engineer"):
        if f.endswith(" " + kind):
            return kind
    for kind in ("SIGINT/EMSO", "Disrupt C2"):
        if f.startswith(kind):
            return kind
    return f


def _supply_cols(units: Iterable[Any], mods: Mapping[str, Any]) -> tuple[int, str]:
    worst = 0
    for u in units:
        if "out-of-supply" in u.markers:
            worst = max(worst, int(mods["out_of_supply_columns"]))
        elif "low-supply" in u.markers:
            worst = max(worst, int(mods["low_supply_columns"]))
    return worst, (
        "out of supply (11.1.3)"
        if worst == int(mods["out_of_supply_columns"]) and worst
        else "low supply (11.1.2)"
        if worst
        else ""
    )


def _factors(
    state: StateLike,
    side: str,
    h: Hex,
    units: Sequence[Any],
    support: Sequence[Any],
    enemy_units: Sequence[Any],
    attacking: bool,
) -> tuple[list[str], int]:
    """Supporting-arms factors of one side (10.15.9.1.2): artillery per die (C3), CAS per mission,
    NGFS per ship, engineer or SOF each, SIGINT/EMSO/Disrupt C2 each, Main Effort; plus direct die
    changes when IDF support promotes directly (option ``idf_support``)."""
    out: list[str] = []
    direct = 0
    promote = option(state, "idf_support") == "promote"
    for s in support:
        c = counter(s)
        if c.category == "artillery":
            n = sum(a.left for a in _ground_attacks(s))
            if promote:
                direct += n
            else:
                out += [f"{s.id} IDF SPT die"] * n
        elif c.is_air:
            out.append(f"{s.id} CAS")
        elif c.category == "naval":
            out.append(f"{s.id} NGFS")
        elif c.category in ("sof",):
            out.append(f"{s.id} SOF")
        elif c.category == "engineer":
            out.append(f"{s.id} engineer")
    for u in units:
        if (
            counter(u).category in ("engineer", "sof")
            and f"{u.id} engineer" not in out
            and f"{u.id} SOF" not in out
        ):
            out.append(f"{u.id} {'engineer' if counter(u).category == 'engineer' else 'SOF'}")
    if not attacking:
        for u in state.units.values():
            if (
                u.side == side
                and u.hex == h
                and u.alive
                and counter(u).category in ("engineer", "sof")
                and not any(x.startswith(u.id + " ") for x in out)
            ):
                out.append(f"{u.id} {'engineer' if counter(u).category == 'engineer' else 'SOF'}")
    for e in enemy_units:
        if "sigint" in e.markers:
            out.append(f"SIGINT/EMSO on {e.id}")
        if "disrupted-c2" in e.markers:
            out.append(f"Disrupt C2 on {e.id}")
    if any("main-effort" in u.markers for u in units):
        out.append("Main Effort")
    return out, direct


def _thresholds(n: int, mods: Mapping[str, Any]) -> tuple[int, int]:
    sa = mods["supporting_arms"]
    cols = sum(1 for t in sa["column_shift_at"] if n >= int(t))
    die = 1 if n >= int(sa["die_change_at"]) else 0
    return cols, die


def combat(
    state: StateLike,
    attacker: str,
    target_hex: Hex,
    attackers: Sequence[Any],
    *,
    lead: Any | None = None,
    support: Sequence[Any] = (),
    def_support: Sequence[Any] = (),
    defender_side: str | None = None,
    side_knows: bool = False,
) -> Combat:
    """Set up a ground combat (10.15.9): odds, lead units, supporting arms, quality, supply and every
    die and column modifier. With ``side_knows`` only what the attacker has detected is counted."""
    gcat = ptable(state, "gcat")
    mods = gcat["modifiers"]
    defs = defenders(state, target_hex, attacker)
    if side_knows:
        defs = [u for u in defs if detected(state, u, attacker)]
    dside = defender_side or (
        defs[0].side if defs else next(s for s in state.sides if s != attacker)
    )
    att = [u for u in attackers if u.alive]
    att_m = [u for u in att if _manoeuvre(u)]
    def_m = [u for u in defs if _manoeuvre(u)]
    a_steps = sum(u.steps for u in att_m)
    d_steps = sum(u.steps for u in def_m)
    o = odds(a_steps, d_steps)
    cols = list(gcat["columns"])
    base_col = column_index(o, cols)
    # lead units (10.15.9.1, R8)
    me = [u for u in att_m if "main-effort" in u.markers]
    la = (
        me[0]
        if me
        else (
            lead
            if lead is not None and lead in att_m
            else max(att_m or att, key=lambda u: (rung(lead_die(u)), u.steps, u.id))
        )
    )
    ld = (
        max(defs, key=lambda u: (defence(state, u)[0], _manoeuvre(u), u.steps, u.id))
        if defs
        else None
    )
    shield, shield_why = defence(state, ld) if ld is not None else (0, ["no defender"])
    base_die = lead_die(la)
    shifts: list[tuple[int, str]] = []
    die_mods: list[tuple[int, str]] = []
    # supporting arms (R5)
    af, a_direct = _factors(state, attacker, target_hex, att, support, defs, True)
    df, d_direct = _factors(state, dside, target_hex, defs, def_support, att, False)
    ac, ad = _thresholds(len(af), mods)
    dc, dd = _thresholds(len(df), mods)
    if ac:
        shifts.append((ac, f"attacker supporting arms {len(af)} (10.15.9.1.2)"))
    if dc:
        shifts.append((-dc, f"defender supporting arms {len(df)} (10.15.9.1.2)"))
    if ad:
        die_mods.append(
            (1, f"attacker supporting arms {len(af)} >= {mods['supporting_arms']['die_change_at']}")
        )
    if dd:
        die_mods.append(
            (
                -1,
                f"defender supporting arms {len(df)} >= {mods['supporting_arms']['die_change_at']}",
            )
        )
    if a_direct:
        die_mods.append((a_direct, "attacker IDF support promotes directly (C3 option)"))
    if d_direct:
        die_mods.append((-d_direct, "defender IDF support demotes directly (C3 option)"))
    # quality (10.15.9.1.3, R6; 10.15.9.1.4)
    q = quality_points(unit_dice(la), unit_dice(ld) if ld is not None and _manoeuvre(ld) else [])
    qn = int(mods["quality_points"])
    if option(state, "quality_alternative"):
        qs = mods.get("quality_side")
        if qs == attacker:
            die_mods.append((1, f"{attacker} always has quality (10.15.9.1.4)"))
        elif qs == dside:
            die_mods.append((-1, f"{dside} always has quality (10.15.9.1.4)"))
    elif q[0] >= qn:
        die_mods.append((1, f"attacker quality advantage {q[0]} points (10.15.9.1.3)"))
    elif q[1] >= qn:
        die_mods.append((-1, f"defender quality advantage {q[1]} points (10.15.9.1.3)"))
    # supply (11.1.2, 11.1.3)
    n, why = _supply_cols(att_m, mods)
    if n:
        shifts.append((-n, f"attacker {why}"))
    n, why = _supply_cols(def_m, mods)
    if n:
        shifts.append((n, f"defender {why}"))
    # suppressed manoeuvre units (10.15.7)
    if any("suppressed" in u.markers for u in att_m):
        shifts.append(
            (-int(mods["suppressed_columns"]), "suppressed attacking manoeuvre unit (10.15.7)")
        )
    if any("suppressed" in u.markers for u in def_m):
        shifts.append(
            (int(mods["suppressed_columns"]), "suppressed defending manoeuvre unit (10.15.7)")
        )
    # die changes
    if any("delay" in u.markers for u in defs):
        die_mods.append((-int(mods["delay_demotions"]), "defender in Delay (10.8)"))
    ob = state.map.hexes[target_hex].facts.get("obstacle")
    if ob and ob.get("side") == dside:
        die_mods.append((-int(mods["obstacle_demotions"]), "obstacle (10.12)"))
    if "rsoi" in la.markers:
        die_mods.append((-int(mods["rsoi_demotions"]), f"{la.id} in RSO&I (2.3.1)"))
    if ld is not None and "rsoi" in ld.markers:
        die_mods.append(
            (int(mods["rsoi_demotions"]), f"{ld.id} in RSO&I: attacks on it promoted (2.3.1)")
        )
    rad_hexes = {target_hex} | {u.hex for u in att if u.hex is not None}
    if any(
        state.map.hexes[h].facts.get("radiation") or state.map.hexes[h].facts.get("plume")
        for h in rad_hexes
    ):
        die_mods.append(
            (-int(mods["radiation_demotions"]), "combat into or out of a radiation/plume hex (7.4)")
        )
    net_shift = sum(n for n, _ in shifts)
    col = min(max(base_col + net_shift, 0), len(cols) - 1)
    net = sum(n for n, _ in die_mods)
    die = shift(base_die, net)
    return Combat(
        attacker,
        dside,
        target_hex,
        state.map.label(target_hex),
        att,
        defs,
        la,
        ld,
        a_steps,
        d_steps,
        o,
        base_col,
        col,
        cols,
        base_die,
        die,
        shield,
        shield_why,
        af,
        df,
        shifts,
        die_mods,
        q,
        gcat,
    )


def _loss_order(units: Sequence[Any], lead: Any | None) -> list[Any]:
    man = [u for u in units if _manoeuvre(u)]
    rest = [u for u in units if not _manoeuvre(u)]
    man.sort(key=lambda u: (u is not lead, -u.steps, u.id))
    rest.sort(key=lambda u: (-u.steps, u.id))
    return man + rest


def _retreat_path(state: StateLike, u: Any, n: int, away: Hex) -> list[Hex] | None:
    """R9/G2: *n* hexes away from *away*, never into enemy units, preferring hexes out of enemy ZOC,
    ending within stacking; ``None`` if it cannot."""
    enemies = [
        e
        for e in state.units.values()
        if e.side != u.side and e.hex is not None and e.alive and counter(e).category in DEFENDERS
    ]
    e_hexes = {e.hex for e in enemies}
    zoc = zoc_hexes(state, enemies)
    path = [u.hex]
    from owsnb.rules.ows.movement import terrain_cost

    mode = mobility(u) or "foot"
    for _ in range(n):
        cur = path[-1]
        opts = []
        for nb in cur.neighbours():
            if nb not in state.map.hexes or nb in e_hexes or nb in path or is_water(state, nb):
                continue
            if (
                terrain_cost(
                    state,
                    state.map.hexes[nb].terrain,
                    mode,
                    str(state.public.get("weather") or "clear"),
                )
                is None
            ):
                continue
            e = state.map.edge(cur, nb)
            if (
                "major-river" in e
                and "road" not in e
                and not (
                    state.map.hexes[cur].facts.get("bridge")
                    or state.map.hexes[nb].facts.get("bridge")
                )
            ):
                continue
            if nb.distance(away) <= cur.distance(away):
                continue
            opts.append(nb)
        if not opts:
            return None
        opts.sort(key=lambda h: (h in zoc, -h.distance(away), state.map.label(h)))
        path.append(opts[0])
    final = path[-1]
    if not stack_ok(state, u, final):
        return None
    return path


def apply_result(
    state: GameState,
    cell: str,
    cb: Combat,
    *,
    att_choice: Mapping[str, Any] | None = None,
    def_choice: Mapping[str, Any] | None = None,
    rule: str = "10.15.9.1.6",
) -> tuple[list[Event], list[str]]:
    """Apply a GCAT cell (10.15.9.1.6): step losses, retreats with their cancellations, Delay
    (10.8), Fortified R1 (10.7), EXP. Returns events and narration."""
    r = parse_result(cell)
    events: list[Event] = []
    lines: list[str] = []
    cur = state
    att_choice = dict(att_choice or {})
    def_choice = dict(def_choice or {})
    for who, loss, ret, units, lead, away, choice in (
        ("defender", r["d"], r["dr"], cb.defenders, cb.lead_def, cb.lead_att.hex, def_choice),
        ("attacker", r["a"], r["ar"], cb.attackers, cb.lead_att, cb.hex, att_choice),
    ):
        units = [
            cur.units[u.id]
            for u in units
            if cur.units[u.id].alive and cur.units[u.id].hex is not None
        ]
        if not units:
            continue
        man = [u for u in units if _manoeuvre(u)] or units
        delay = who == "defender" and all(
            "delay" in u.markers for u in man
        )  # the whole defence delays (10.8)
        delayers = {u.id for u in units if who == "defender" and "delay" in u.markers}
        fort = who == "defender" and any(_fortified(cur, u) for u in units)
        retreat = ret
        if delay and loss >= 1:
            # 10.8: ignore a 1-step loss; with 2+ losses one step is taken, the rest cancelled by the retreat
            lines.append(
                f"{who} in Delay: {'the 1-step loss is ignored' if loss == 1 else f'{loss} losses -> 1 step'}, "
                "retreat 1 (10.8)"
            )
            loss = 0 if loss == 1 else 1
            retreat = max(retreat, 1)
        elif loss > 1 and choice.get("trade") == "yes":
            retreat += loss - 1
            lines.append(f"{who} turns {loss - 1} extra step loss(es) into retreat (10.15.9.1.6)")
            loss = 1
        if retreat == 1 and fort:
            lines.append(f"{who} Fortified: ignores R1 (10.7)")
            retreat = 0
        if retreat and choice.get("hold") == "yes":
            loss += 1
            lines.append(f"{who} cancels the retreat with an additional step loss (10.15.9.1.6)")
            retreat = 0
        left = loss
        for u in _loss_order(units, lead):
            if left <= 0:
                break
            u = cur.units[u.id]
            n = min(left, u.steps)
            ev, lost, _ = apply_hits(
                cur, u, n, rule=rule, cause="ground", visible_to=watchers(cur, u)
            )
            events += ev
            cur = apply_all(cur, ev)
            left -= lost
            lines.append(f"{u.id} loses {lost} step(s)")
        for u in units:
            u = cur.units[u.id]
            n_ret = (
                max(retreat, 1) if u.id in delayers else retreat
            )  # 10.8: a delaying unit always retreats 1
            if n_ret and u.alive and u.hex is not None:
                path = _retreat_path(cur, u, n_ret, away)
                if path is None:
                    ev, lost, _ = apply_hits(
                        cur, u, 1, rule="R9", cause="ground", visible_to=watchers(cur, u)
                    )
                    events += ev
                    cur = apply_all(cur, ev)
                    lines.append(f"{u.id} cannot retreat {n_ret}: loses a step instead (G2)")
                    continue
                vis = watchers(cur, u)
                ev = [
                    unit_move(u.id, path[-1], path=tuple(path), rule="R9", visible_to=vis),
                    unit_set(
                        u.id,
                        markers=u.markers - {"defend", "fortified", "reserve"},
                        rule="R9",
                        visible_to=vis,
                    ),
                ]
                if "fortified" in u.markers:
                    ev.append(
                        hex_set(
                            u.hex,
                            {"fortified": {"side": u.side, "turn": cur.clock.turn}},
                            rule="10.7",
                        )
                    )
                events += ev
                cur = apply_all(cur, ev)
                lines.append(f"{u.id} retreats {n_ret} to {cur.map.label(path[-1])}")
    if r["exp"]:
        for u in cb.attackers:
            x = cur.units[u.id]
            if x.alive and x.hex is not None:
                ev = [
                    unit_set(
                        x.id,
                        data={"exp": cur.clock.turn},
                        rule="10.15.9.1.6",
                        visible_to=watchers(cur, x),
                    )
                ]
                events += ev
                cur = apply_all(cur, ev)
        lines.append("EXP: the attackers may exploit (3.G, 3.H)")
    return events, lines
