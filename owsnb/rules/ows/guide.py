"""Guidance for the people at an OWS table (the briefing, the step coach, the debrief): pure
functions and data over a view (see :meth:`owsnb.kernel.ruleset.RuleSet.guide`).

* :func:`standing` — the scenario's score sheet judged now (:mod:`owsnb.rules.ows.victory`);
* :data:`VERBS` — how to give each order with the mouse (``"verb@step"`` for one step only);
* :data:`STEPS` — what matters in a step, in a line;
* :func:`briefing` — the side's hand of IO tokens, cyber and decision cards (2.1.4).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from owsnb.rules.ows import victory

__all__ = ["standing", "VERBS", "STEPS", "briefing"]


def standing(view: Any) -> dict[str, Any]:
    """How the game stands by the scenario's score sheet (12.1), as *view* knows it."""
    turns = view.scenario.get("turns")
    return victory.standing(view, is_over=bool(turns) and view.clock.turn > int(turns))


VERBS: dict[str, str] = {
    "move@3.A.1": "Move your ships: click a ship, then a shaded hex (its reach), then Submit",
    "move": "Move a unit: click it, then a shaded hex (its reach), then Submit",
    "defer": "or let the enemy move first in this step: defer, then Submit (3.5)",
    "intent": "Write your intent if you wish: intent, pick the field, type it, Submit",
    "card": "Play a decision card if the moment is right: card, pick it, Submit",
    "fly": "Fly an air mission: fly, pick the mission in the list, click the hex to patrol or "
    "strike, then Submit",
    "package": "Prepare a strike package: package, pick the lead mission, then Submit",
    "insert": "Insert a SOF team: insert, pick the team, click the hex, then Submit",
    "recon": "Reconnoitre with a SOF team: recon, pick the team, click its hex or the next one, "
    "Submit",
    "direct-action": "Raid with a SOF team: direct-action, pick the team, click the target in its "
    "hex, Submit",
    "io": "Place an IO token (secret): io, pick the token, then its target (a unit, or a space "
    "track in the list), Submit",
    "cyber": "Play a cyber card (secret): cyber, pick the card and its target, Submit",
    "isr": "Search with a theater ISR pawn: isr, click the hex to search, Submit — nothing can "
    "be struck until it is detected (8.4)",
    "detect": "Look with your own sensors: detect, click the hex, pick the sensors, Submit",
    "plan": "Finalise your strike plans, then Done",
    "air-combat": "Resolve air combat: air-combat, click the hex where fighters meet, Submit — "
    "or Done to resolve the rest",
    "strike": "Strike: click a detected enemy counter, pick the salvos (shooters in range), read "
    "the odds, Submit",
    "shields": "Defend against the strike: commit grey shields in the list (or none), Submit — "
    "the strike is rolled",
    "torpedo": "Torpedo attack: torpedo, pick the submarine, click the target in its hex, Submit",
    "amphibious-assault": "Land: amphibious-assault, pick the landing force (aboard its ships "
    "next to the beach), click the beach hex, Submit",
    "airborne-assault": "Airborne assault: pick the unit and its transports, click the drop "
    "hex, Submit",
    "air-assault": "Air assault: pick the unit and its helicopters, click the hex, Submit",
    "sealift": "Sealift: pick the unit and the ship in port, Submit",
    "embark": "Embark: pick the unit and the ship in port, Submit",
    "disembark": "Offload in port: pick the unit, Submit",
    "airlift": "Airlift: pick the unit, click the destination airfield, pick the transports, "
    "Submit",
    "rail": "Rail: pick the unit, click the destination railhead, Submit",
    "het": "HET: pick the heavy unit, click the destination on the road, Submit",
    "initiative": "Ground initiative: list your activation order, or seize it with a card, Submit",
    "reserve": "Designate a reserve: pick the unit, Submit (half movement, attacks in "
    "exploitation)",
    "main-effort": "Designate your Main Effort: pick the unit, Submit",
    "defend": "Defend: pick the unit, Submit (+1 red shield)",
    "fortify": "Fortify: pick a defending unit with an engineer, Submit",
    "delay": "Delay: pick the unit, Submit",
    "attack": "Attack: click the enemy hex, pick the attacking units next to it, read the odds, "
    "Submit",
    "prep-fire": "Prep fire: click the enemy counter, pick the firing units, Submit",
    "defensive-fire": "Defend: add defensive and supporting fires in the lists (or none), Submit "
    "— the attack is rolled",
    "exploit": "Exploit: pick the unit, click the hex (half MP), Submit",
    "resupply": "Reload missiles: pick the unit and the ASP beside it, Submit",
}
"""How to give each order with the mouse (the order panel: a verb button, the lists, the map)."""

STEPS: dict[str, str] = {
    "1.1": "Plan: what must you find, what must you protect?",
    "3.A.1": "Ships and submarines move; a ship that ends next to an enemy may be detected (6.2).",
    "3.A.2": "Landing forces aboard ships next to a beach may land this turn (6.4.6).",
    "3.B.1": "Air missions take off: CAP over a hex, strikes against a target within radius.",
    "3.C.1": "SOF teams go in; where no enemy stands, insertion needs no roll (6.6).",
    "4.1": "Secret IO tokens and cyber cards against the enemy's C2, PNT and ISR (7.2).",
    "5.1": "Theater ISR: each pawn searches a hex; nothing is struck until detected (8.4).",
    "6.B.1": "Long-range strikes: salvos against shields; the defender answers (9.2.1).",
    "6.B.2": "Local strikes, hex by hex, by initiative (9.9.1).",
    "6.C.3": "Ground units move and attack; preview every attack (10.15).",
    "8": "Talk it over: what did you see, what did it cost? Write a note (12.1).",
}
"""What matters in a step, in a line (the coach shows it under the step's title)."""


def briefing(view: Any) -> list[tuple[str, str]]:
    """The side's own hand (2.1.4): IO tokens, cyber and decision cards (the umpire's view:
    every side's)."""
    out = []
    sides = [view.side] if view.side in view.sides else list(view.sides)
    for s in sides:
        hand = view.sides[s].private.get("hand") or {}
        if not isinstance(hand, Mapping) or not hand:
            continue
        items = []
        for kind, cards in hand.items():
            if isinstance(cards, Mapping):
                txt = ", ".join(f"{k} ×{v}" for k, v in cards.items())
            else:
                txt = ", ".join(str(c) for c in cards)
            items.append(f"<li><b>{html.escape(str(kind))}</b>: {html.escape(txt)}</li>")
        title = "Your hand" if s == view.side else f"{view.sides[s].title}'s hand"
        out.append((f"{title} (2.1.4)", f"<ul>{''.join(items)}</ul>"))
    return out
