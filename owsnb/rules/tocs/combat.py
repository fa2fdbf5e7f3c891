"""The CRT procedure (Basic L33-L34, L46-L50, L67-L77; WWII L716-L741).

Odds are attacker strength : defender strength, fractions rounded down (L70, L721); odds below
1:1 count as 1:n with n rounded up (a ruling; the CRT's lower columns are lost). The defender's
best terrain gives a column shift (the lost CRT terrain rows, as placeholder shifts), the
attacker shifts right and the defender left (L70-L71), then 2d6 are read on the row of the
attack type (L716, L726). The defender applies losses and retreats first (L727, L732). The first
step loss falls on the unit with most steps and the highest printed strength (the attacker's among
the longest attack, L727); the referee allocates later losses the same way (the owner's choice in
the text; a ruling). Retreat paths are chosen by the referee, each hex farther from the battle hex,
never through enemy units (L729, L735); the attacker "retreats" by staying in the hex it attacked
from (L734). Degradation follows option ``degrade_model`` (appendix E.1). Each enemy step loss
gives the other side a Prisoner Interrogation roll; a defender retreating out of a city, suburb,
town or village gives the attacker a Civilian Interrogation roll (L739-L741).

>>> parse_result("1R1/-"), parse_result("-/2R2"), parse_result("-/-")
(((1, 1), (0, 0)), ((0, 0), (2, 2)), ((0, 0), (0, 0)))
>>> odds_index(7, 3, ["1:3", "1:2", "1:1", "2:1", "3:1"]), odds_index(3, 7, ["1:3", "1:2", "1:1", "2:1"])
(3, 0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import (
    DEAD,
    alive_on_map,
    degrade,
    enemy_of,
    ground_units,
    hq_chain,
    owner,
    state_of,
    strength,
    units_in,
)
from owsnb.rules.tocs.perimeter import announce, take_hex
from owsnb.rules.tocs.positions import defence_bonus, lose_positions
from owsnb.rules.tocs.stacking import within_limit
from owsnb.rules.tocs.supply import in_los
from owsnb.rules.tocs.terrain import can_cross, enterable

__all__ = [
    "parse_result",
    "odds_index",
    "crt_row",
    "result_distribution",
    "Battle",
    "resolve_battle",
    "interrogate",
    "destroy",
]

_URBAN = ("city", "suburb", "town", "village")
_ARMOR_HALF = ("city", "suburb", "forest", "jungle")


def parse_result(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """``"#R#/#R#"`` -> ((attacker SL, hexes), (defender SL, hexes)); ``-`` = no effect (L726)."""

    def one(s: str) -> tuple[int, int]:
        s = s.strip()
        if s in ("-", ""):
            return (0, 0)
        loss, _, ret = s.partition("R")
        return (int(loss or 0), int(ret or 0))

    a, _, d = text.partition("/")
    return one(a), one(d)


def odds_index(att: int, dfn: int, columns: list[str]) -> int:
    """Column index of the basic odds (FRD), clamped to the table."""
    att, dfn = max(1, att), max(1, dfn)
    if att >= dfn:
        label = f"{att // dfn}:1"
    else:
        label = f"1:{math.ceil(dfn / att)}"
    if label in columns:
        return columns.index(label)
    return len(columns) - 1 if att >= dfn else 0


def crt_row(state: StateLike, kind: str, col: int) -> list[str]:
    crt = state.tables["crt"]
    return list(crt["results"][kind][crt["columns"][col]])


def result_distribution(state: StateLike, kind: str, col: int) -> Distribution:
    """Exact distribution of the CRT result for attack *kind* on column index *col*."""
    row = crt_row(state, kind, col)
    two = Distribution.die(6) + Distribution.die(6)
    return two.map(lambda r: row[r - 2], label=f"{kind} at {state.tables['crt']['columns'][col]}")


class Battle:
    """One battle's participants and claims (a plain holder)."""

    def __init__(
        self,
        hex: Hex,
        attacker: str,
        attackers: list[str],
        kind: str,
        *,
        shifts: Sequence[str] = (),
        road_column: bool = False,
        pursue: bool = False,
        engagement: bool = False,
    ):
        self.hex = hex
        self.attacker = attacker
        self.attackers = list(attackers)
        self.kind = kind
        self.shifts = list(shifts)
        self.road_column = road_column
        self.pursue = pursue
        self.engagement = engagement


def _att_strength(state: StateLike, u: Any, battle_terrain: str, road_column: bool) -> int:
    s = strength(int(u.get("attack", 0)), u.steps, u.max_steps)
    if u.get("mobility") == "armored" and battle_terrain in _ARMOR_HALF:
        s = math.ceil(s / 2)
    if road_column:
        s = math.ceil(s / 2)  # L252: ambushed at road rate, 1/2 FRU
    if u.get("in_los") is False and not in_los(state, u):  # L216: LOS regained lifts it
        s = math.ceil(s * float(state.tables["supply"].get("out_of_los_attack_factor", 1)))
    return s


def _def_strength(state: StateLike, u: Any, battle_terrain: str) -> int:
    s = strength(int(u.get("defense", 0)), u.steps, u.max_steps)
    if u.get("mobility") == "armored" and battle_terrain in _ARMOR_HALF:
        s = math.ceil(s / 2)
    return s


def destroy(em: Emitter, uid: str, *, rule: str) -> None:
    """A unit with no steps left goes to the dead pile and is revealed to everyone (L9, L728)."""
    u = em.state.units[uid]
    em.unit(
        uid,
        rule=rule,
        visible_to=None,
        steps=0,
        hex=None,
        box=DEAD,
        seen_by=frozenset(em.state.sides),
        data={"activated": False, "ap": 0},
    )
    enemy = enemy_of(em.state, u.side)
    killed = list(em.state.sides[enemy].private.get("killed", ()))
    em.private(enemy, rule=rule, killed=[*killed, uid])


def _take_losses(em: Emitter, ids: list[str], n: int, key: str, rule: str) -> int:
    """Step losses: each falls on the unit with the most steps and the highest printed strength,
    for the attacker among those making the longest attack (L727)."""
    ranks = em.state.tables["attack_types"]
    taken = 0
    for _ in range(n):
        alive = [
            em.state.units[i]
            for i in ids
            if em.state.units[i].alive and em.state.units[i].hex is not None
        ]
        if not alive:
            break

        def longest(x: Any) -> int:
            return (
                int(ranks.get(x.get("attack_type") or "", {}).get("rank", 0))
                if key == "attack"
                else 0
            )

        u = max(alive, key=lambda x: (longest(x), x.steps, int(x.get(key, 0))))
        taken += 1
        if u.steps - 1 <= 0:
            destroy(em, u.id, rule=rule)
        else:
            em.unit(u.id, rule=rule, steps=u.steps - 1)
    return taken


def _retreat_path(state: StateLike, u: Any, battle: Hex, n: int) -> tuple[list[Hex], str]:
    """The referee's retreat path for *u*: safest hexes, each farther from *battle*.

    Returns the path and how it ends: ``"ok"``, ``"blocked"`` (no hex left) or ``"enemy"``
    (forced into an enemy-occupied hex: destroyed, L729).
    """
    side = u.side
    enemy_hexes = {x.hex for x in ground_units(state) if x.side != side}
    path: list[Hex] = []
    cur = u.hex
    for _ in range(n):
        cands = [
            h
            for h in cur.neighbours()
            if h in state.map.hexes
            and h.distance(battle) > cur.distance(battle)
            and can_cross(state, cur, h)
            and enterable(state, u, h)
        ]
        if not cands:
            return path, "blocked"
        safe = sorted(
            cands, key=lambda h: (h in enemy_hexes, owner(state, h) != side, state.map.label(h))
        )
        nxt = safe[0]
        path.append(nxt)
        if nxt in enemy_hexes:
            return path, "enemy"
        cur = nxt
    return path, "ok"


def _retreat(em: Emitter, ids: list[str], battle: Hex, n: int, *, rule: str) -> list[Hex]:
    """Retreat every listed unit *n* hexes; returns the first hex retreated into (for pursuit)."""
    first: list[Hex] = []
    for uid in ids:
        u = em.state.units[uid]
        if not alive_on_map(u):
            continue
        path, how = _retreat_path(em.state, u, battle, n)
        if path:
            first.append(path[0])
        for h in path:
            if how == "enemy" and h == path[-1]:
                announce(
                    em,
                    f"A retreating unit is destroyed entering {em.state.map.label(h)}",
                    rule="L729",
                    hex=em.state.map.label(h),
                )
                destroy(em, uid, rule="L729")
                break
            if owner(em.state, h) != u.side and not units_in(
                em.state, h, enemy_of(em.state, u.side)
            ):
                take_hex(em, u.side, h, rule="L729", why="retreat")
        else:
            if path:
                em.unit(uid, rule=rule, hex=path[-1])
                em.data(uid, rule="L146", retreated=True)  # may over stack until its next impulse
            if any(em.state.map.hexes[h].facts.get("interdicted") for h in path):
                _degrade(em, uid, 1, "L353")  # retreating into an interdicted hex: one more state
            short = n - len(path)
            if how == "blocked" and short > 0:  # ruling: one step lost per hex it cannot retreat
                u2 = em.state.units[uid]
                if u2.steps - short <= 0:
                    destroy(em, uid, rule=rule)
                else:
                    em.unit(uid, rule=rule, steps=u2.steps - short)
    return first


def _degrade(em: Emitter, uid: str, n: int, rule: str) -> None:
    u = em.state.units[uid]
    if n and alive_on_map(u):
        em.data(uid, rule=rule, state=degrade(state_of(u), n))


def interrogate(
    em: Emitter, dice: Any, side: str, table: str, battle: Hex, about: list[Any], *, rule: str
) -> None:
    """One roll on the Prisoner or Civilian Interrogation Table for *side*; the referee answers
    truthfully (L740-L741). Only *side* sees the roll and the answer."""
    s = em.state
    r = dice.roll(
        6,
        purpose=f"{table} interrogation after the battle at {s.map.label(battle)}",
        rule=rule,
        visible_to=side,
    )
    kind = str(
        s.tables["interrogation"][table].get(
            r, s.tables["interrogation"][table].get(str(r), "nothing")
        )
    )
    enemy = enemy_of(s, side)
    if kind == "adjacent":
        hexes = sorted(s.map.label(h) for h in battle.neighbours() if units_in(s, h, enemy))
        answer = "enemy units adjacent to the battle in: " + (", ".join(hexes) or "none")
    elif kind == "within2":
        hexes = sorted(
            s.map.label(h)
            for h in battle.disc(2)
            if h in s.map.hexes and h != battle and units_in(s, h, enemy)
        )
        answer = "enemy units within 2 hexes in: " + (", ".join(hexes) or "none")
    elif kind == "hq":
        hq = next((c for u in about for c in hq_chain(s, u) if alive_on_map(c)), None)
        answer = (
            f"the prisoners' HQ is in {s.map.label(hq.hex)}"
            if hq is not None
            else "the prisoners' HQ is off the map"
        )
    elif kind == "reserves":
        n = sum(
            1 for u in ground_units(s, enemy) if u.get("reserve") and u.hex.distance(battle) <= 3
        )
        answer = f"{n} enemy unit(s) in reserve within 3 hexes"
    else:
        answer = "nothing useful"
    intel = list(s.sides[side].private.get("interrogations", ()))
    em.private(
        side,
        rule=rule,
        interrogations=[
            *intel,
            {
                "turn": s.clock.turn,
                "hex": s.map.label(battle),
                "table": table,
                "roll": r,
                "answer": answer,
            },
        ],
    )
    em.say(
        f"{table.title()} interrogation ({s.map.label(battle)}, d6={r}): {answer}",
        rule=rule,
        visible_to=side,
    )


def column_for(
    state: StateLike, battle: Battle, defenders: list[Any]
) -> tuple[int, int, int, list[str]]:
    """(final column index, attack strength, defence strength, shift descriptions)."""
    terrain = state.map.terrain(battle.hex)
    att = sum(
        _att_strength(state, state.units[i], terrain, battle.road_column)
        for i in battle.attackers
        if state.units[i].alive
    )
    counted = within_limit(state, defenders)  # L143: combats adhere to the stacking limits
    dfn = sum(_def_strength(state, u, terrain) for u in counted)
    holder = next((u.side for u in defenders), None)
    bonus = defence_bonus(state, holder, battle.hex, counted) if holder else 0
    dfn += bonus  # L289: each Company under an improved position, whatever its strength or steps
    mines = (
        2
        if holder
        and battle.hex is not None
        and state.map.label(battle.hex) in set(state.sides[holder].private.get("minefields", ()))
        else 0
    )
    dfn += mines  # L296: a minefield adds +2 to the defender
    att, dfn = max(1, att), max(1, dfn)  # L720: no side below 1
    cols = list(state.tables["crt"]["columns"])
    idx = odds_index(att, dfn, cols)
    notes = (
        [f"odds {att}:{dfn} -> {cols[idx]}"]
        + ([f"improved position +{bonus}"] if bonus else [])
        + (["minefield +2"] if mines else [])
    )
    tshift = int(state.tables["crt_terrain"]["shift"].get(terrain, 0))
    if tshift:
        notes.append(f"terrain {terrain} {tshift:+d}")
    idx += tshift
    shifts = state.tables["crt_shifts"]
    red = set(shifts.get("red_in_engagement", ()))
    for name in battle.shifts:
        spec = shifts.get(name)
        if not spec or (battle.engagement and name in red):
            continue
        size = int(spec["size"])
        idx += size if spec["to"] == "attacker" else -size
        notes.append(f"{name} {'+' if spec['to'] == 'attacker' else '-'}{size}")
    return max(0, min(len(cols) - 1, idx)), att, dfn, notes


def resolve_battle(em: Emitter, dice: Any, battle: Battle, *, rule: str = "L716") -> dict[str, Any]:
    """Resolve one battle on the CRT; returns a summary (public facts only)."""
    s = em.state
    defender_side = enemy_of(s, battle.attacker)
    h = battle.hex
    lab = s.map.label(h)
    defenders = units_in(s, h, defender_side)
    attackers = [i for i in battle.attackers if alive_on_map(s.units[i])]
    col, att, dfn, notes = column_for(s, battle, defenders)
    roll = sum(
        dice.roll_many(2, 6, purpose=f"CRT {battle.kind} at {lab}", rule=rule, visible_to=None)
    )
    text = crt_row(s, battle.kind, col)[roll - 2]
    (a_loss, a_ret), (d_loss, d_ret) = parse_result(text)
    column = s.tables["crt"]["columns"][col]
    announce(
        em,
        f"Battle at {lab}: {battle.kind}, column {column}, 2d6={roll}: {text}",
        rule=rule,
        hex=lab,
        kind=battle.kind,
        column=column,
        roll=roll,
        result=text,
    )
    # defender first (L727, L732)
    d_ids = [u.id for u in defenders]
    for uid in (
        d_ids
    ):  # attacked by ground forces: reserve, refit and extended deployment end (L312, L337-338)
        u = em.state.units[uid]
        if u.get("reserve") or u.get("refit") or u.get("ext_dir") is not None:
            em.data(uid, rule="L337", reserve=False, refit=False, ext_dir=None)
    d_taken = _take_losses(em, d_ids, d_loss, "defense", rule)
    model = s.options.get("degrade_model", "appendix")
    d_retreat_to: list[Hex] = []
    if d_ret and any(alive_on_map(em.state.units[i]) for i in d_ids):
        d_retreat_to = _retreat(
            em, [i for i in d_ids if alive_on_map(em.state.units[i])], h, d_ret, rule="L735"
        )
    for uid in d_ids:  # L155, L734: reconnaissance units do not degrade for retreating
        ret = 1 if d_ret and not em.state.units[uid].get("recon") else 0
        _degrade(em, uid, ret if battle.engagement else 1 + ret, "L730")
    # attacker second
    a_taken = _take_losses(em, attackers, a_loss, "attack", rule)
    for uid in attackers:
        extra = 1 if model == "literal" and not battle.engagement else 0
        ret = 1 if a_ret and not em.state.units[uid].get("recon") else 0  # L734 [EXC: recon]
        _degrade(em, uid, ret + extra, "L734")
    a_alive = [i for i in attackers if alive_on_map(em.state.units[i])]
    if a_ret and battle.engagement:
        _retreat(em, a_alive, h, a_ret, rule="L734")
        a_alive = []
    elif a_ret:
        a_alive = []  # the attacker stays in (returns to) the hex it attacked from (L734)
    d_alive = [i for i in d_ids if alive_on_map(em.state.units[i]) and em.state.units[i].hex == h]
    outcome = "engagement"
    exploit: dict[str, int] = {}
    if not d_alive and a_alive:
        outcome = "taken"
        for uid in a_alive:
            em.unit(uid, rule="L282", hex=h)
        em.hexfact(h, rule="L282", engaged=None, battle=None)
        take_hex(em, battle.attacker, h, rule="L282", why="battle won")
        tab = s.tables["attack_types"].get(battle.kind, {})
        if battle.pursue and tab.get("pursue") and d_retreat_to:
            if _pursue(em, battle, a_alive, d_retreat_to[0]) and tab.get("exploit") and d_ret > 1:
                exploit = {
                    uid: d_ret - 1 for uid in a_alive if alive_on_map(em.state.units[uid])
                }  # L736
    elif not a_alive:
        outcome = "held"
        em.hexfact(h, rule=rule, battle=None, engaged=None)
    else:
        for uid in a_alive:  # L733: everyone ends up in the hex under an Engagement marker
            em.unit(uid, rule="L733", hex=h)
        em.hexfact(h, rule="L733", engaged=True, battle=None)
        lose_positions(em, battle.attacker, h)
        announce(em, f"{lab} is an Engagement Battle", rule="L733", hex=lab)
    # interrogation (L740-741)
    lost_def = [em.state.units[i] for i in d_ids]
    lost_att = [em.state.units[i] for i in attackers]
    for _ in range(d_taken):
        interrogate(em, dice, battle.attacker, "prisoner", h, lost_def, rule="L740")
    for _ in range(a_taken):
        interrogate(em, dice, defender_side, "prisoner", h, lost_att, rule="L740")
    if d_ret and s.map.terrain(h) in _URBAN:
        interrogate(em, dice, battle.attacker, "civilian", h, lost_def, rule="L741")
    wiped_out = bool(d_ids) and not any(em.state.units[i].alive for i in d_ids)
    return {
        "hex": lab,
        "kind": battle.kind,
        "column": column,
        "roll": roll,
        "result": text,
        "outcome": outcome,
        "wiped_out": wiped_out,
        "winners": a_alive if outcome == "taken" else [],
        "exploit": exploit,
        "odds": f"{att}:{dfn}",
        "notes": notes,
    }


def _pursue(em: Emitter, battle: Battle, ids: list[str], into: Hex) -> bool:
    """Pursuit into the first hex the defender retreated through (L74, L731, L737-L738); True if the
    pursuers entered an empty hex (and may go on exploiting, L736)."""
    s = em.state
    if s.map.hexes[into].facts.get("interdicted") or s.map.hexes[battle.hex].facts.get(
        "interdicted"
    ):
        return False  # L737: not out of or through an interdicted hex
    enemy = enemy_of(s, battle.attacker)
    occupied = bool(units_in(s, into, enemy))
    if occupied and s.tables["rulings"].get("pursuit_into_occupied") != "engagement":
        return False  # Basic L74: only into unoccupied hexes
    for uid in ids:
        em.unit(uid, rule="L737", hex=into)
    lab = s.map.label(into)
    if occupied:
        em.hexfact(into, rule="L738", engaged=True)
        lose_positions(em, battle.attacker, into)
        announce(em, f"Pursuit into {lab}: Engagement Battle", rule="L738", hex=lab)
        return False
    take_hex(em, battle.attacker, into, rule="L737", why="pursuit")
    return True


def interrogation_distribution(state: StateLike, table: str) -> Distribution:
    """Exact distribution of the answer kind on an interrogation table (d6)."""
    t = state.tables["interrogation"][table]
    return Distribution.die(6).map(
        lambda r: str(t.get(r, t.get(str(r), "nothing"))), label=f"{table} interrogation"
    )


def initiative_distribution(drm: dict[str, int], sides: list[str], holder: str) -> Distribution:
    """Exact distribution of who wins the initiative: d10 + DRM each, ties to last turn's holder (L51)."""
    a, b = sides
    d = Distribution.die(10)

    def win(x: int, y: int) -> str:
        va, vb = x + int(drm.get(a, 0)), y + int(drm.get(b, 0))
        return a if va > vb else b if vb > va else holder

    return d.combine(d, win, label="initiative")
