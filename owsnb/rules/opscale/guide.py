"""Guidance for the people at an Operational Scale table (the briefing, the step coach, the
debrief): the score (public, SC) and how to give each order with the mouse (see
:meth:`owsnb.kernel.ruleset.RuleSet.guide`).
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.ruleset import game_over_note

__all__ = ["standing", "VERBS", "STEPS"]


def _over(view: Any) -> bool:
    last = view.scenario.get("turns")
    if last and view.clock.turn > int(last):
        return True
    return game_over_note(view) is not None


def standing(view: Any) -> dict[str, Any]:
    """Each player's score (units destroyed, cities taken, objectives held: SC); scores are
    public, so every seat sees the same standing."""
    from owsnb.rules.opscale.board import players

    scores = {s: int(view.sides[s].public.get("score", 0)) for s in players(view)}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    final = _over(view)
    title = {s: view.sides[s].title for s in scores}
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        leader, text = None, "level"
    else:
        leader = ranked[0][0] if ranked else None
        text = f"{title[leader]} {'wins' if final else 'leads'}" if leader else "no score"
    pts = ", ".join(f"{title[s]} {v}" for s, v in ranked)
    return {
        "text": f"{text} ({pts}; victory by score)",
        "scores": scores,
        "leader": leader,
        "final": final,
        "rows": [{"side": s, "what": "score", "points": v} for s, v in ranked],
        "notes": ["objectives held are scored at the end of the last turn (SC)"],
        "rule": "SC",
    }


VERBS: dict[str, str] = {
    "buy": "Buy: pick a unit type in the list, Submit (it is staged, deployed in step 6)",
    "move": "Move: click your unit, then a hex, then Submit (terrain checks may stop it short)",
    "sortie": "Sortie: click the aircraft, then the hex it flies over, Submit",
    "embark": "Embark: pick the unit and the transport in its hex, Submit",
    "disembark": "Disembark: pick the carried unit, Submit",
    "setup": "Set up artillery: pick it, Submit (it may then fire, not move)",
    "pack": "Pack artillery: pick it, Submit (it may then move, not fire)",
    "recon": "Reconnoitre: pick the engineer, click the hex, Submit",
    "engage": "Engage: add attacking units and their targets in the list, read the odds, Submit",
    "retaliate": "Retaliate: add your units and their targets (or none), Submit",
    "round": "Fight one combat round: round, Submit",
    "fight": "Fight it out: fight, Submit",
    "deploy": "Deploy a staged unit: pick it, click a hex next to a Command Post or city, Submit",
}
"""How to give each order with the mouse."""

STEPS: dict[str, str] = {
    "2": "Spend your currency on units; they arrive four turns later.",
    "4": "Move, fly sorties, load transports, set up or pack artillery.",
    "5": "Declare engagements and fight them round by round.",
}
