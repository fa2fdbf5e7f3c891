"""The double-blind perimeter (Basic L2, L9, L18-L19, L28-L31; WWII L226-L237, L246-L247).

Every hex has exactly one owner known to both sides (``HexInfo.facts["owner"]``: a side name,
or ``"none"`` for a meeting engagement's no man's land, L19, L31). Ownership changes only by
enemy action (L28): a unit that enters an empty hex it does not own takes it (appendix A.1),
an Engagement hex stays the defender's (L235). Enemy units are never shown unless destroyed
(L9); what happens inside a side's own perimeter is secret, what enters or touches the enemy
perimeter is announced to both sides as a public event that names the hex, never the unit.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import DEAD, owner

__all__ = ["take_hex", "announce", "visible_unit", "perimeter_of", "connected_to_perimeter"]


def announce(em: Emitter, text: str, *, rule: str, **data: Any) -> None:
    """A public announcement (both sides see it; it names hexes, never hidden units)."""
    em.say(text, rule=rule, announcement=True, **data)


def take_hex(em: Emitter, side: str, h: Hex, *, rule: str, why: str) -> None:
    """*side* takes empty hex *h*: its owner changes on both maps, announced (L229-L230)."""
    if owner(em.state, h) == side:
        return
    from owsnb.rules.tocs.positions import lose_positions

    lose_positions(em, side, h)
    em.hexfact(h, rule=rule, owner=side)
    announce(
        em,
        f"{em.state.sides[side].title} takes {em.state.map.label(h)} ({why})",
        rule=rule,
        hex=em.state.map.label(h),
        side=side,
    )


def visible_unit(state: StateLike, unit: Any, side: str) -> Any:
    """The view policy: own units in full; enemy units only once destroyed (L9, L18)."""
    if side == "umpire" or unit.side == side:
        return unit
    if unit.box == DEAD:  # its counter, not its chain of command or orders (they name hidden units)
        data = {k: v for k, v in unit.data.items() if k not in _DEAD_SECRET}
        return replace(unit, data=FrozenDict(data))
    return None


_DEAD_SECRET = (
    "parent",
    "attached_to",
    "original_parent",
    "attack_hex",
    "attack_from",
    "recon_last",
)


def perimeter_of(state: StateLike, side: str) -> set[Hex]:
    return {h for h, info in state.map.hexes.items() if info.facts.get("owner") == side}


def connected_to_perimeter(
    state: StateLike, side: str, h: Hex, extra: AbstractSet[Hex] = frozenset()
) -> bool:
    """Is *h* adjacent to a hex *side* owns (recon only extends a connected perimeter, L272)?"""
    return any(
        n in state.map.hexes and (owner(state, n) == side or n in extra) for n in h.neighbours()
    )
