"""Improved positions (WWII 10.9, L287-L291): Entrenched, Strongpoint, Fortified Area.

A side's improved positions are its secret (side ``private["positions"]``: hex label -> level
1..3), like everything else inside its perimeter; an enemy reconnaissance or probe of the hex finds
the marker (L269-L270). Each Company of the owner in the hex adds the level's bonus to the
defence on the CRT, whatever its printed strength or steps (L289: Entrenched +2, Strongpoint +4,
Fortified +6). The marker is lost for good when the hex becomes enemy occupied (L290).

>>> company_bonus({"names": ["entrenched", "strongpoint", "fortified"], "bonus": [2, 4, 6]}, [2, 3])
10
>>> company_bonus({"names": ["entrenched", "strongpoint", "fortified"], "bonus": [2, 4, 6]}, [0, 1])
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import is_company

__all__ = [
    "level_at",
    "level_name",
    "company_bonus",
    "defence_bonus",
    "lose_positions",
    "set_level",
]


def level_at(state: StateLike, side: str, h: Hex) -> int:
    """The level (0 none, 1 Entrenched, 2 Strongpoint, 3 Fortified) of *side*'s position in *h*."""
    return int(state.sides[side].private.get("positions", {}).get(state.map.label(h), 0))


def level_name(state: StateLike, level: int) -> str:
    return "none" if level <= 0 else str(state.tables["improved_positions"]["names"][level - 1])


def company_bonus(table: Mapping[str, Any], levels: Iterable[int]) -> int:
    """Defence bonus of Companies each under a marker of the given level (0 = none), L289."""
    bonus = list(table["bonus"])
    return sum(int(bonus[lv - 1]) for lv in levels if lv > 0)


def defence_bonus(state: StateLike, side: str, h: Hex, defenders: Iterable[Any]) -> int:
    """What *side*'s improved position in *h* adds to its defenders there (each Company, L289)."""
    lv = level_at(state, side, h)
    return company_bonus(
        state.tables["improved_positions"], [lv for u in defenders if is_company(u) and u.hex == h]
    )


def set_level(em: Emitter, side: str, h: Hex, level: int, *, rule: str) -> None:
    """Record *side*'s position level in *h* (secret to *side*)."""
    pos = dict(em.state.sides[side].private.get("positions", {}))
    lab = em.state.map.label(h)
    if level > 0:
        pos[lab] = level
    else:
        pos.pop(lab, None)
    em.private(side, rule=rule, positions=pos)


def lose_positions(em: Emitter, entering: str, h: Hex, *, rule: str = "L290") -> None:
    """*entering* occupies *h*: any other side's position there is removed for good (L290)."""
    for side in em.state.sides:
        if side != entering and level_at(em.state, side, h):
            set_level(em, side, h, 0, rule=rule)
            em.say(
                f"The improved position in {em.state.map.label(h)} is lost: the enemy occupies the hex",
                rule=rule,
                visible_to=side,
            )
