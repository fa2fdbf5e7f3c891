"""Air missions (6.5): mission designations, radius, tankers, basing and carrier sorties.

Paragraphs: 6.5.1.2 attack missions (defend demoted, cannot initiate); 6.5.2 the fuel source rule
and 6.5.3 the maximum radius, 3x (Strike) or 2x (CAP, CAS, Interdiction) with a tanker or FARP;
6.5.4 tanker capacity and radius ("*" unlimited); 6.5.5 basing (airfield capacity less damage,
9.9.7, ruling A1); 6.5.6 carrier sorties (one per aircraft box; tanker and AEW not counted); 6.5.10
fighter mission designations; 9.7.1 high-value airborne assets; 9.9.6.1 routed strike packages.

>>> tanker_support("KC-135", capacity=2, radius=None).capacity, max_radius(3, "strike"), max_radius(3, "cap")
(2, 9, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from owsnb.kernel.state import StateLike
from owsnb.rules.ows.units import counter

__all__ = [
    "ATTACK_MISSIONS",
    "HVAA",
    "FIGHTER_MISSIONS",
    "ROUTED",
    "CAP_MISSIONS",
    "AIR_STEPS",
    "max_radius",
    "TankerSupport",
    "tanker_support",
    "airbase_capacity",
    "grounded_squadrons",
]

ATTACK_MISSIONS = ("strike", "sead", "cas", "interdiction", "sucap", "bomber")
"""Missions that only defend in air-to-air, demoted (6.5.1.2)."""
HVAA = ("aew", "tanker", "bomber", "transport", "isr", "asw", "ew")
"""High-value airborne assets CAP may engage once fighters are matched (9.7.1)."""
FIGHTER_MISSIONS = ("cap", "dca", "oca", "strike", "sead", "cas", "interdiction", "sucap")
ROUTED = ("strike", "sead", "bomber")
"""Strike packages, which fly a route to their release hex past defensive CAP (9.9.6.1, 9.9.6.2)."""
CAP_MISSIONS = ("cap", "dca", "oca")
AIR_STEPS = ("6.A.1", "6.A.2", "6.A.3", "6.A.4", "6.A.6", "6.A.7")


def max_radius(combat_radius: int, mission: str, tanker: bool = True) -> int:
    """6.5.3: with tanker or FARP support a Strike may go to 3x its combat radius, CAP/CAS/
    Interdiction to 2x; without support, 1x (6.5.2)."""
    if not tanker:
        return combat_radius
    return combat_radius * (3 if mission in ("strike", "sead", "bomber") else 2)


@dataclass(frozen=True)
class TankerSupport:
    name: str
    capacity: int
    radius: int | None

    @property
    def unlimited(self) -> bool:
        return self.radius is None


def tanker_support(name: str, capacity: int, radius: int | None) -> TankerSupport:
    """6.5.4: a tanker supports *capacity* missions (black silhouettes); radius ``None`` = "*"."""
    return TankerSupport(name, capacity, radius)


# -- basing (6.5.5) and carrier sorties (6.5.6) ----------------------------------------------------
def airbase_capacity(state: StateLike, h: Any) -> int | None:
    """6.5.5: squadrons the airfield in *h* can base, less damage (9.9.7); ``None`` off an airfield
    (a carrier is its own base, 6.5.6)."""
    info = state.map.hexes.get(h)
    if info is None:
        return None
    f = info.features.get("airfield")
    if not f:
        return None
    dmg = int((info.facts.get("damage") or {}).get("airfield", 0) or 0)
    return max(int(f.get("capacity", 0) or 0) - dmg, 0)


def grounded_squadrons(state: StateLike, h: Any) -> list[str]:
    """Squadron bases in *h* beyond its airfield's capacity (ruling A1: the last by id), which
    generate no missions until repaired (6.5.5, 9.9.7)."""
    cap = airbase_capacity(state, h)
    if cap is None:
        return []
    based = sorted(
        u.id
        for u in state.units.values()
        if u.hex == h and u.alive and counter(u).category == "air-base"
    )
    return based[cap:]


def _base_unit(state: StateLike, m: Any) -> Any | None:
    b = counter(m).base
    return state.units.get(b) if b else None


def _sorties_used(state: StateLike, carrier: Any, support: bool = False) -> int:
    """Missions from *carrier* in the air: combat sorties, or (*support*) its tanker and AEW
    missions, which 6.5.6 provides "on a one-to-one basis to this air sortie generation number"."""
    return sum(
        1
        for u in state.units.values()
        if counter(u).base == carrier.id
        and u.hex is not None
        and (counter(u).mission in ("tanker", "aew")) == support
    )


def _tanker_load(state: StateLike, tanker: Any) -> int:
    return sum(
        1
        for u in state.units.values()
        if u.hex is not None and u.data.get("tanker_id") == tanker.id
    )
