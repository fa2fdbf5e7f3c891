"""Order handlers: the WWII actions (section 10) and the impulse verbs (Basic 3.3-3.4).

The handlers live by concern: :mod:`.impulse_orders` (begin, pass, activate),
:mod:`.movement_orders` (move), :mod:`.recon_orders` (recon, probe, zoc), :mod:`.attack_orders`
(attack) and :mod:`.hq_orders` (withdraw, extend, reserve, rally), :mod:`.position_orders`
(improve), :mod:`.breakthrough_orders` (breakthrough, exploit), :mod:`.artillery_orders` (strike,
bombard, interdict), :mod:`.bridge_orders` (bridge), :mod:`.command_orders` (reassign, refit),
:mod:`.infiltration_orders` (infiltrate), :mod:`.roadblock_orders` (roadblock),
:mod:`.minefield_orders` (minefield, clear), :mod:`.stacking` (eliminate),
:mod:`.reinforcement_orders` (enter), over the shared checks of :mod:`.order_checks` and the
costs of :mod:`.activation`. This module lists them in
:data:`HANDLERS` and keeps their public names importable from here.

Citations: ``B3.x`` are the Basic rules' own paragraph numbers, ``10.x``-``15.x`` the WWII
rules' numbers, and ``Lnnn`` the line of the source text where the book's numbering was lost.

>>> [h.type.verb for h in HANDLERS][:4]
['begin', 'pass', 'activate', 'move']
"""

from __future__ import annotations

from owsnb.rules.tocs.activation import close_activation, spend
from owsnb.rules.tocs.artillery_orders import Bombard, Interdict, Strike
from owsnb.rules.tocs.attack_orders import ATTACK_KINDS, Attack
from owsnb.rules.tocs.breakthrough_orders import Advance, Exploit
from owsnb.rules.tocs.bridge_orders import BridgeWork
from owsnb.rules.tocs.command_orders import Reassign, Refit
from owsnb.rules.tocs.hq_orders import Extend, Rally, Reserve, Withdraw, mc_distribution
from owsnb.rules.tocs.impulse_orders import Activate, Begin, Pass
from owsnb.rules.tocs.infiltration_orders import Infiltrate
from owsnb.rules.tocs.minefield_orders import Clear, Minefield
from owsnb.rules.tocs.movement_orders import Move
from owsnb.rules.tocs.position_orders import Improve
from owsnb.rules.tocs.recon_orders import DeclareZoc, Probe, Recon
from owsnb.rules.tocs.reinforcement_orders import Enter
from owsnb.rules.tocs.roadblock_orders import Roadblock
from owsnb.rules.tocs.stacking import Eliminate

__all__ = [
    "HANDLERS",
    "spend",
    "close_activation",
    "mc_distribution",
    "ATTACK_KINDS",
    "Begin",
    "Pass",
    "Activate",
    "Move",
    "Recon",
    "Probe",
    "Attack",
    "Withdraw",
    "Extend",
    "Reserve",
    "Rally",
    "DeclareZoc",
    "Improve",
    "Advance",
    "Interdict",
    "BridgeWork",
    "Reassign",
    "Refit",
    "Strike",
    "Infiltrate",
    "Exploit",
    "Roadblock",
    "Minefield",
    "Bombard",
    "Clear",
    "Eliminate",
    "Enter",
]

HANDLERS = (
    Begin,
    Pass,
    Activate,
    Move,
    Recon,
    Probe,
    Attack,
    Withdraw,
    Extend,
    Reserve,
    Rally,
    DeclareZoc,
    Improve,
    Advance,
    Interdict,
    BridgeWork,
    Reassign,
    Refit,
    Strike,
    Infiltrate,
    Exploit,
    Roadblock,
    Minefield,
    Bombard,
    Clear,
    Eliminate,
    Enter,
)
