"""Guidance for the people at a Combat Operations table (the briefing, the step coach, the
debrief): the victory standing (16.0, 17.1, 17.2) and how to give each order with the mouse (see
:meth:`owsnb.kernel.ruleset.RuleSet.guide`).

The umpire judges the scenario's conditions on the truth (:func:`victory.judge`). A side sees
only its own counters face up (2.1) and the towns its own units stand in, so its standing lists
what it knows — its battalions against the threshold, the towns or road hexes it holds — and
leaves the verdict to the end of the game.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from owsnb.kernel.ruleset import game_over_note
from owsnb.kernel.state import UMPIRE
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops import victory
from owsnb.rules.combatops.terrain import parse_hex

__all__ = ["standing", "VERBS", "STEPS"]


def standing(view: Any) -> dict[str, Any]:
    """The verdict if the game ended now (umpire), or the side's own facts (a side)."""
    final = bool(view.public.get("over"))
    if view.side == UMPIRE:
        v = victory.judge(view)
        return {
            "text": ("" if final else "if the game ended now: ") + str(v),
            "scores": {},
            "leader": v.winner,
            "final": final,
            "rows": [{"side": "", "what": str(k), "points": str(x)} for k, x in v.facts.items()],
            "notes": [],
            "rule": "16.0",
        }
    spec = view.public.get("victory", {})
    side, me = spec.get("side"), view.side
    have, base = victory.battalion_count(view, me)
    rows = [{"side": me, "what": "your battalions left (ruling #34)", "points": f"{have}/{base}"}]
    if spec.get("type") == "towns":
        towns = list(spec.get("towns", ()))
        mine = [
            t
            for t in towns
            if any(
                u.side == me and not U.is_dummy(u) and u.alive
                for u in view.units_at(parse_hex(view.map, t))
            )
        ]
        rows.append(
            {
                "side": me,
                "what": f"towns your units stand in (of {', '.join(towns)})",
                "points": ", ".join(mine) or "none",
            }
        )
        thr = Fraction(str(spec.get("threshold", "2/3")))
        rows.append(
            {"side": me, "what": "battalions needed for a major result", "points": str(thr)}
        )
    ended = game_over_note(view)
    text = ended or (
        f"{'you attack' if me == side else 'you defend'}: the umpire judges the "
        "victory conditions at the end (16.0); what you know now is below"
    )
    return {
        "text": text,
        "scores": {},
        "leader": None,
        "final": final,
        "rows": rows,
        "notes": ["the enemy's counters are face down until they fight (2.1)"],
        "rule": "16.0",
    }


VERBS: dict[str, str] = {
    "place": "Set up: click a unit (in the list if off the map), then a hex of your set-up area, "
    "Submit",
    "move": "Move: click your unit, then a shaded hex, then Submit (it stops on entering an enemy "
    "ZOC)",
    "attack": "Attack: click the enemy hex, pick your adjacent units (and artillery support), read "
    "the odds, Submit",
    "occupy": "Advance after combat: click the hex the defender left, pick the units, Submit",
    "enter": "Bring a reinforcement on: pick it, click its entry hex, Submit",
    "draw": "Draw a reinforcement chit: draw, Submit",
    "assign": "Put a reinforcement on a chit (secret): pick the letter and the chit, Submit",
    "replace": "Remove a hit marker: pick the letter and the battalion, Submit",
    "build": "Bridge a river: pick the engineer, click the hex across, pick the kind, Submit",
    "demolish": "Blow a bridge: pick the engineer, click the hex across, Submit",
    "breakdown": "Break a regiment into battalions: pick it, Submit",
    "artillery": "Hold an artillery unit back (or let it support): pick it and the mode, Submit",
}
"""How to give each order with the mouse."""

STEPS: dict[str, str] = {
    "0.2": "The defender sets up first, anywhere in its set-up area.",
    "0.3": "The attacker sets up second.",
    "A3": "Move; entering an enemy zone of control stops a unit (8.0).",
    "A4": "Attack enemy hexes next to your units (11.0).",
}
