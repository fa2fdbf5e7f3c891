"""Tactical movement: naval (6.2-6.4), amphibious/airborne/air assault placement (6.4.6, 6.5.11,
6.5.12) and ground movement (10.9-10.11, 10.15.1).

Paragraphs: 6.2 moving through detected enemy naval units lets the non-mover halt the move (an
*intercept* posture, on by default); 6.4 naval rates (CVN 4, surface 3, auxiliary 2, patrol craft
2, SSN/SSGN/SSBN 3, SSK 2 operational hexes); 6.4.1.1 patrol craft stay within 2 hexes of a
friendly port or mother ship (6.4.1.2: diesel subs are not limited); 6.4.2 subs move 2/1 without
cavitating; 6.4.2.1 Silent Running (a sub that stays; removed when it moves); 6.4.2.2 Cavitation
(moving 3/2); 6.4.3 Active EMCON (emitting = face up, detected); 6.4.4 ASW mode (lost when moving
more than 1 hex); 6.4.5 mines [optional]: secret laying, detection, mine strikes (D6/D8 vs the red
shield, criticals), sweeping; 6.4.6 amphibious assault placement; 6.5.11 airborne and 6.5.12 air
assault placement (one transport per step, two for mechanised airborne steps); 10.15.8 delivery
of the landing force when the Ground phase begins (R11: a unit aboard a transport shot down is
lost with it); 10.10 ground modes wheeled 15, tracked 10, foot 2, ski 4 MP, the least mobile mode
of a mixed unit; 10.10.1 Movement Chart costs by terrain and weather, a unit may always move one
hex unless NP, it stops when the next hex costs more than it has left; 10.10.2 disorganized
movement; 10.10.3 zones of control; 10.10.3.1 entering a ZOC stops; 10.10.3.2 bypass through a
ZOC hex held by a friendly unit (+2 MP); 10.10.3.3 leaving a ZOC (one hex into another ZOC, or +2
MP to disengage); 10.4.1 reserves move half; 10.15.7 suppressed units move one hex; 11.1.3 out of
supply halves MP; 10.11 bridges across major rivers (+2 MP to place and to cross, 10 steps a
turn); 10.9 stacking; 10.15.1 hexside limit (used by ground.py); 6.5.10.4 Interdiction attacks a
ground mover on the Fires Effects Table, SUCAP a ship moving through its zone by the naval combat
rules (its salvos against the ship's own grey shields, then the red shield); either halts a unit it
damages or suppresses and is then expended for the turn.

Rulings of this module (options and table entries, defaults in brackets):

* **M1** the Movement Chart is for tactical hexes (10-20 km); on maps with larger hexes every cost
  is multiplied by ``hex_km / reference_hex_km`` [20] and the always-one-hex rule still applies.
* **M2** naval rates are in 200 nm operational hexes (6.4); on other maps they convert to
  ``rate * 200 nm / hex size`` hexes (at least the operational number on larger hexes).
* **M3** moves are planned on what the side knows; an undetected enemy unit or ZOC met on the way
  halts the move where it is met (the enemy unit in the way becomes detected).
* **M4** a road along a hexside replaces the terrain cost of the hex entered; a road across a
  major river is a permanent bridge.

The package, one module a concern (the names below are its public API):

* :mod:`.basics` movement modes (10.10), the Movement Chart and hex scaling (M1, M2), 100 km zones
  (2.1.2.3), what a side knows (M3), ship cargo (5.1.1.2);
* :mod:`.ground` ZOC, stacking, terrain costs, movement points, ground reach and the walk of a ground
  move (10.9-10.12, 10.15.7, 11.1.3), Interdiction (6.5.10.4);
* :mod:`.naval` naval reach and the walk of a naval move (6.2-6.4.4), SUCAP (6.5.10.4), postures
  (6.4.2.1, 6.4.3, 6.4.4, 6.2) and mines (6.4.5);
* :mod:`.move` the ``move``, ``bypass`` and ``disengage`` orders (6.3, 10.10, 10.10.3.2, 10.10.3.3);
* :mod:`.assaults` amphibious, airborne and air assault placement and delivery (6.4.6, 6.5.11,
  6.5.12, 10.15.8).

>>> least_mobile("tracked+foot")
'foot'
>>> naval_rate("ssk", hex_nm=200), naval_rate("cvn", hex_nm=100)
(2, 8)
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.ruleset import Option
from owsnb.rules.ows.movement.assaults import (
    AirAssault,
    AirborneAssault,
    AmphibiousAssault,
    deliver_landings,
)
from owsnb.rules.ows.movement.basics import (
    GROUND_CATEGORIES,
    NAVAL_CATEGORIES,
    SUBS,
    cargo_of,
    carrier_of,
    friendly_port,
    is_mech,
    is_water,
    known_enemies,
    least_mobile,
    lift_tag,
    mobility,
    moved_this_turn,
    naval_rate,
    ptable,
    rear_zone,
    scale_factor,
    zone_distance,
    zone_of,
)
from owsnb.rules.ows.movement.ground import (
    GroundReach,
    exerts_zoc,
    ground_reach,
    movement_points,
    path_cost,
    stack_ok,
    stack_steps,
    stacking_limit,
    terrain_cost,
    zoc_hexes,
)
from owsnb.rules.ows.movement.move import Bypass, Disengage, Move
from owsnb.rules.ows.movement.naval import (
    AswMode,
    Emcon,
    Intercept,
    LayMines,
    SilentRunning,
    SweepMines,
    mine_preview,
    naval_reach,
    sucap_plans,
    sucap_preview,
)

__all__ = [
    "GROUND_CATEGORIES",
    "NAVAL_CATEGORIES",
    "least_mobile",
    "mobility",
    "movement_points",
    "naval_rate",
    "scale_factor",
    "zone_of",
    "zone_distance",
    "zoc_hexes",
    "exerts_zoc",
    "stacking_limit",
    "stack_steps",
    "stack_ok",
    "ground_reach",
    "naval_reach",
    "GroundReach",
    "known_enemies",
    "Move",
    "Bypass",
    "Disengage",
    "SilentRunning",
    "Emcon",
    "AswMode",
    "Intercept",
    "LayMines",
    "SweepMines",
    "AmphibiousAssault",
    "AirborneAssault",
    "AirAssault",
    "mine_preview",
    "deliver_landings",
    "HANDLERS",
    "STEP_EFFECTS",
    "UNIT_FIELDS",
    "OPTIONS",
    "moved_this_turn",
    "is_water",
    "friendly_port",
    "terrain_cost",
    "path_cost",
    "SUBS",
    "is_mech",
    "ptable",
    "rear_zone",
    "lift_tag",
    "cargo_of",
    "carrier_of",
    "sucap_plans",
    "sucap_preview",
]

UNIT_FIELDS: dict[str, tuple[Any, Any]] = {
    "mobility": (str, ""),  # 10.10: wheeled / tracked / foot / ski; "tracked+foot" = mixed
    "hq": (str, ""),  # parent HQ (task organisation, 10.3 2.A)
    "formation": (bool, False),  # a Div/Corps/Group Army/Front HQ that activates (10.2)
    "proficiency": (int, 0),  # 10.4.1.1.1 HQ proficiency 1 (best) - 6 (worst); 0 = table
    "step_dice": (list[str], []),  # 10.15.9.1.3 the die of each step, in damage order
    "bridging": (bool, False),  # 10.11 engineer with the bridge symbol
    "amphibious": (bool, False),  # 6.4.6 may swim ashore
    "airborne": (bool, False),  # 6.5.11
    "air_assault": (bool, False),  # 6.5.12 (units; and transports able to carry them)
    "landing_craft": (bool, False),  # 6.4.6 LST/LSM/LCAC/causeway
    "heavy_lift": (bool, False),  # 5.1.1.3 tank symbol
    "mother_ship": (bool, False),  # 6.4.1.1
    "mine_capable": (bool, False),  # 6.4.5.1
    "minesweeper": (bool, False),  # 6.4.5.3
    "mine_die": (str, ""),  # 6.4.5.2 D6 or D8 of the mines a ship lays
    "intercept": (bool, True),  # 6.2 posture: halt detected enemy movers in its hex
    "bag": (bool, False),  # 10.15.3 Brigade Artillery Group
    "me_by": (str, ""),  # 10.5 the HQ whose Main Effort the unit is
    "bridges": (list[str], []),  # 10.11 crossing sites where this engineer has placed its bridges
    "cars": (int, 1),  # 5.1.1.4 rail cars a rail-car counter holds (one step each)
    "hold": (str, ""),  # 5.1.1.2 a ship's cargo tag (units aboard carry it in ``aboard``)
    "aboard": (str, ""),  # the cargo tag of the ship a unit is aboard (no unit ids, so no leaks)
    "moved": (dict, {}),  # bookkeeping: {"turn": t, "step": key, "hexes": n}
    "rsoi_rule": (str, ""),  # 5.1.1.2-5.1.1.5: the strategic move whose RSO&I the unit is in
    "assault": (dict, {}),  # bookkeeping of 6.4.6/6.5.11/6.5.12 placements
    "landed": (int, 0),  # turn a landing force came ashore (10.15.8)
    "fuel": (int, -1),  # 10.13.2.1 FP per day (-1 = from the table)
    "fuel_points": (int, 0),  # CSS stocks (10.13.2)
    "fuel_capacity": (int, 0),
    "munitions": (list[str], []),  # 10.13.2.2 munitions counters: "full" / "low"
    "munitions_capacity": (int, 0),
    "css_radius": (int, -1),  # 10.13.2.4 distribution radius in hexes (-1 = table)
    "echelon": (str, ""),  # 10.13.1 tactical / depot
    "supply_source": (str, ""),  # 11.1 the CSS unit (or hex label) this unit draws supply from
}
"""Payload fields this part of the rule set adds to every OWS counter."""

PRIVATE_KEYS = (
    "moved",
    "rsoi_rule",
    "assault",
    "attacked",
    "exp",
    "aboard",
    "hold",
    "rail",
    "airlifted",
    "lift_tag",
    "assault_tag",
    "assault_from",
    "fuel_paid",
    "me_by",
    "me_turn",
    "defend_turn",
    "cargo_boxes_seen",
    "supply",
    "partisan_zone",
    "mines_laid_turn",
    "landed",
    "intercept",
    "hq",
    "fuel_points",
    "munitions",
    "supply_source",
    "suppressed_until",
)
"""Bookkeeping of parts 2 an enemy never sees of a detected counter (it may name hidden units)."""

OPTIONS = (
    Option(
        "reaction_move",
        False,
        "10.4.1.1.1 [Optional]: defender reserves may react in the Defensive Fires impulse",
        (),
        "10.4.1.1.1",
    ),
    Option(
        "bombardment",
        False,
        "10.15.3.1 [Optional]: a Div/Corps Main Effort may mass up to 4 artillery units in one Prep Fire",
        (),
        "10.15.3.1",
    ),
    Option(
        "fire_splitting",
        False,
        "10.15.5: a counter may split its fire missions over several steps (never one twice)",
        (),
        "10.15.5",
    ),
    Option(
        "movement_scaling",
        True,
        "M1: scale Movement Chart costs by hex size on maps with hexes larger than 20 km",
        (),
        "M1",
    ),
)

HANDLERS = [
    Move(),
    Bypass(),
    Disengage(),
    SilentRunning(),
    Emcon(),
    AswMode(),
    Intercept(),
    LayMines(),
    SweepMines(),
    AmphibiousAssault(),
    AirborneAssault(),
    AirAssault(),
]
STEP_EFFECTS = {"6.C.1": deliver_landings}
