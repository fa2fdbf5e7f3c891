"""Air tasking (6.5) and air combat (9.7), with air strikes en route (9.9.6).

The chapter in one package, a module per concern:

* :mod:`~owsnb.rules.ows.air.missions` -- mission designations, 6.5.2 fuel source and 6.5.3
  maximum radius, 6.5.4 tankers, 6.5.5 basing capacity, 6.5.6 carrier sorties.
* :mod:`~owsnb.rules.ows.air.tasking` -- the air tasking orders: ``fly`` (6.5, 6.5.2-6.5.6, 6.5.10,
  the 9.9.6.2 route, 10.13.2.1 a squadron's fuel) and ``package`` (6.5.1, 6.5.1.1 munitions).
* :mod:`~owsnb.rules.ows.air.combat` -- 9.7 air combat: 9.7.1 pairing and advantage, 9.7.2 best die
  first (optional), 9.7.3 the seven steps, 9.7.4 hit missions to the Regeneration Box, 2.2.7.4 air
  defence defends or attacks; exact previews; the ``air-combat`` order.
* :mod:`~owsnb.rules.ows.air.routes` -- 9.9.6.1/9.9.6.2 a strike package flies a route (traced with
  ``fly ... route=``, else the straight line from its fuel source) to its release hex when the
  Strike Warfare steps begin, after air combat: in each hex entered where defensive CAP in range
  has a detection opportunity (same hex, or an active radar of its side covering the hex), the CAP
  intercepts — 1:1 against the unengaged escorts, the excess at the striker, and interceptors that
  down their escort go on at the striker; a CAP intercepts once a turn.

Ruling **A1** (6.5.5, 9.9.7): an airfield's capacity counts squadron base counters; damage lowers it,
and the squadrons beyond it (the last by id) generate no missions until it is repaired. A scenario
that bases more squadrons than an airfield holds is refused when it loads.
Ruling **A2** (9.9.6.2): the defender's CAP always intercepts when it may (as the umpire's automatic
pairing of 9.7.1 does); a stealth package it has not detected must first be found, by one roll of
the intercepting CAP and the radars covering the hex against the striker's signature (6.5.7,
6.5.9.5; the escorts fly with it and are found with it); the striker, on an attack mission, fires
back once, demoted, at the first interceptor that engages it (6.5.1.2: it "can defend itself if
attacked"; a bomber without an air-to-air die cannot); the route is secret (an enemy never sees
it); a striker shot down en route goes to the Regeneration Box and makes no strike.

>>> tanker_support("KC-135", capacity=2, radius=None).capacity, max_radius(3, "strike"), max_radius(3, "cap")
(2, 9, 6)
"""

from __future__ import annotations

from typing import Any

from owsnb.rules.ows.air.combat import (
    AirCombat,
    AirPreview,
    Engagement,
    _leave,
    air_preview,
    engagements,
    preview,
    resolve,
)
from owsnb.rules.ows.air.missions import (
    AIR_STEPS,
    ATTACK_MISSIONS,
    CAP_MISSIONS,
    FIGHTER_MISSIONS,
    HVAA,
    ROUTED,
    TankerSupport,
    airbase_capacity,
    grounded_squadrons,
    max_radius,
    tanker_support,
)
from owsnb.rules.ows.air.routes import (
    InterceptRound,
    RoutePlan,
    fly_strike_routes,
    route_of,
    route_plan,
    route_preview,
)
from owsnb.rules.ows.air.tasking import Fly, Package

__all__ = [
    "ATTACK_MISSIONS",
    "HVAA",
    "FIGHTER_MISSIONS",
    "max_radius",
    "tanker_support",
    "Engagement",
    "AirPreview",
    "engagements",
    "air_preview",
    "Fly",
    "Package",
    "AirCombat",
    "HANDLERS",
    "LEAVE_EFFECTS",
    "preview",
    "resolve",
    "airbase_capacity",
    "grounded_squadrons",
    "ROUTED",
    "route_of",
    "route_plan",
    "route_preview",
    "RoutePlan",
    "InterceptRound",
    "fly_strike_routes",
    "CAP_MISSIONS",
    "AIR_STEPS",
    "TankerSupport",
    "STEP_EFFECTS",
    "PRIVATE_KEYS",
    "UNIT_FIELDS",
]

HANDLERS = [Fly(), Package(), AirCombat()]
LEAVE_EFFECTS = {s: _leave(s) for s in AIR_STEPS}
STEP_EFFECTS = {"6.B.1": fly_strike_routes}
PRIVATE_KEYS = ("route",)
UNIT_FIELDS: dict[str, tuple[Any, Any]] = {
    "route": (list[str], []),  # 9.9.6.2 a strike package's traced route (hex labels), secret
    "intercepted": (int, 0),  # 9.9.6.2 turn a defensive CAP last intercepted a package en route
}
