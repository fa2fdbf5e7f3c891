"""Zones of control: who exerts them, extended deployment, and what a mover meets (L169-L183,
L309-L312).

A Company (or HQ-Company) in Good Order, Fatigued or Disordered, not in an Engagement Battle,
projects ZOC into each adjacent hex it could move into, never across an unbridged river (L171).
In Extended Deployment it projects into its three front hexes and the three beyond them, in the
facing direction, and nowhere else (L176, L309; example L312). Extended ZOC never projects into
a hex the enemy held at the start of the impulse, nor beyond an enemy-owned or enemy-occupied
front hex (L175, L178, L180, L310).

The referee answers with the truth; which hexes count depends on the option
``ezoc_declaration`` (``always``: every real EZOC is declared when tested; ``declared``: only
the owner's standing declarations count, and only while real).
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import (
    DISORDERED,
    enemy_of,
    exerts_zoc_class,
    ground_units,
    owner,
    state_of,
)
from owsnb.rules.tocs.terrain import can_cross, enterable

__all__ = [
    "engaged",
    "extended_hexes",
    "zoc_of",
    "ezoc_sources",
    "ezoc_at",
    "declared_against",
    "learn_ezoc",
]


def engaged(state: StateLike, h: Hex) -> bool:
    return bool(h in state.map.hexes and state.map.hexes[h].facts.get("engaged"))


def _occupied_at_start(state: StateLike, side: str) -> set[Hex]:
    snap = state.secret.get("occupied_at_start", {})
    return set(snap.get(side, ()))


def extended_hexes(company_hex: Hex, direction: int) -> list[tuple[Hex, Hex]]:
    """(front, beyond) pairs of an extended deployment facing *direction* (0-5).

    Example L312: a company in 1105 facing 1004 covers 1004, 0904, 1104, 1003, 1005 and 0905.

    >>> from owsnb.kernel.offset import OffsetSystem
    >>> o = OffsetSystem()
    >>> c = o.from_label("1105")
    >>> d = c.neighbours().index(o.from_label("1004"))
    >>> sorted(o.to_label(h) for pair in extended_hexes(c, d) for h in pair)
    ['0904', '0905', '1003', '1004', '1005', '1104']
    """
    out = []
    for k in (-1, 0, 1):
        front = company_hex.neighbour((direction + k) % 6)
        out.append((front, front.neighbour(direction)))
    return out


def _can_project(state: StateLike, company: Any, a: Hex, b: Hex) -> bool:
    return (
        b in state.map.hexes
        and can_cross(state, a, b)
        and enterable(state, company, b)
        and not engaged(state, b)
    )


def zoc_of(state: StateLike, company: Any) -> dict[Hex, str]:
    """Hexes the company projects ZOC into now: hex -> ``"normal"`` or ``"extended"``."""
    if not exerts_zoc_class(company) or company.hex is None or not company.alive:
        return {}
    if state_of(company) > DISORDERED or engaged(state, company.hex):
        return {}
    if company.get("landed_impulses", 2) < 2:  # L625: paratroopers from their 2nd impulse
        return {}
    enemy = enemy_of(state, company.side)
    ext = company.get("ext_dir")
    if ext is None:
        return {
            n: "normal"
            for n in company.hex.neighbours()
            if _can_project(state, company, company.hex, n)
        }
    held = _occupied_at_start(state, enemy)
    occupied_now = {u.hex for u in ground_units(state, enemy)}
    out: dict[Hex, str] = {}
    for front, beyond in extended_hexes(company.hex, int(ext)):
        if not _can_project(state, company, company.hex, front) or front in held:
            continue
        out[front] = "extended"
        if owner(state, front) == enemy or front in occupied_now:
            continue  # not beyond the first enemy-owned hex, nor through an occupied one (L310, L180)
        if _can_project(state, company, front, beyond) and beyond not in held:
            out[beyond] = "extended"
    return out


def ezoc_sources(state: StateLike, side: str, h: Hex) -> list[str]:
    """Kinds of real EZOC (``normal``/``extended``) that *side*'s enemy projects into *h*."""
    kinds = []
    for u in ground_units(state):
        if u.side != side:
            k = zoc_of(state, u).get(h)
            if k:
                kinds.append(k)
    return kinds


def declared_against(state: StateLike, side: str) -> set[str]:
    """Hex labels *side* has been told are in EZOC and not yet disproved (its intel)."""
    return set(state.sides[side].private.get("ezoc_known", ()))


def ezoc_at(state: StateLike, side: str, h: Hex) -> list[str]:
    """The EZOC that counts against *side* in *h* under the option ``ezoc_declaration``."""
    kinds = ezoc_sources(state, side, h)
    if not kinds:
        return []
    if state.options.get("ezoc_declaration", "always") == "declared":
        enemy = enemy_of(state, side)
        if state.map.label(h) not in set(state.sides[enemy].private.get("zoc_declared", ())):
            return []
    return kinds


def learn_ezoc(em: Emitter, side: str, h: Any, exists: bool, rule: str) -> None:
    """What *side* learns of an EZOC in *h*: marked while it exists, unmarked (and told) once gone."""
    known = set(em.state.sides[side].private.get("ezoc_known", ()))
    lab = em.state.map.label(h)
    if exists and lab not in known:
        em.private(side, rule=rule, ezoc_known=sorted(known | {lab}))
    elif not exists and lab in known:
        em.private(side, rule=rule, ezoc_known=sorted(known - {lab}))
        em.say(f"EZOC in {lab} no longer exists", rule=rule, visible_to=side)
