"""Guidance for the people at a TOCS table (the briefing, the step coach, the debrief): the
victory points (L86-L89) and how to give each order with the mouse (see
:meth:`owsnb.kernel.ruleset.RuleSet.guide`).

Each side's victory conditions and tally are secret until the game ends (L87-L88): a side's
standing is its own VP as it knows them; the umpire's is both sides'; at the end, the outcome
(announced to both) is shown.
"""

from __future__ import annotations

import html
from typing import Any

from owsnb.kernel.ruleset import game_over_note
from owsnb.kernel.state import UMPIRE
from owsnb.rules.tocs.victory import score

__all__ = ["standing", "VERBS", "STEPS", "briefing"]


def standing(view: Any) -> dict[str, Any]:
    """VP as *view* knows them: the umpire both sides', a side its own (L87-L88)."""
    last = view.scenario.get("turns")
    final = bool(last) and view.clock.turn > int(last)
    sides = list(view.sides) if view.side == UMPIRE else [view.side]
    tallies = {s: score(view, s) for s in sides}
    scores = {s: t["total"] for s, t in tallies.items()}
    rows = [
        {"side": s, "what": what, "points": pts}
        for s, t in tallies.items()
        for what, pts in t["lines"]
    ]
    title = {s: view.sides[s].title for s in sides}
    pts = ", ".join(f"{title[s]} {v} VP" for s, v in scores.items())
    leader = None
    if view.side == UMPIRE:
        best = max(scores.values(), default=0)
        top = [s for s, v in scores.items() if v == best]
        leader = top[0] if len(top) == 1 else None
        text = (
            f"{title[leader]} {'wins' if final else 'leads'}" if leader else "level"
        ) + f" ({pts})"
    else:
        text = f"your VP: {scores[view.side]} — the enemy's are secret until the end (L87-L88)"
    ended = game_over_note(view)
    if ended and view.side != UMPIRE:
        text = ended
    return {
        "text": text,
        "scores": scores,
        "leader": leader,
        "final": final,
        "rows": rows,
        "notes": [],
        "rule": "L86",
    }


def briefing(view: Any) -> list[tuple[str, str]]:
    """The side's orders from the module (``rules.briefs``; the umpire: every side's)."""
    sides = [view.side] if view.side in view.sides else list(view.sides)
    out = []
    for s in sides:
        brief = view.sides[s].private.get("brief")
        if brief:
            title = "Your orders" if s == view.side else f"{view.sides[s].title}'s orders"
            out.append((title, f"<p>{html.escape(str(brief))}</p>"))
    return out


VERBS: dict[str, str] = {
    "begin": "Begin your impulse: begin, Submit (weather, then OP: minimum + d10)",
    "pass": "Pass: bank your OP (pass, Submit)",
    "activate": "Activate a unit (1 OP): click it, Submit; then move it or act with it",
    "move": "Move the activated unit one hex: click the next hex, Submit (again for each hex)",
    "recon": "Reconnoitre: pick the unit, click the hex to look into, Submit",
    "probe": "Probe an adjacent hex: pick the unit, click the hex, Submit",
    "attack": "Attack: pick the unit, click the adjacent hex, pick the kind, Submit (its last action)",
    "fly": "Fly an air mission (1 OP): pick the aircraft, the mission, click the hex, Submit",
    "strike": "Artillery strike: pick the battery, click the hex, Submit",
    "bombard": "Bombard: click the hex, pick three or more batteries, Submit",
    "roadblock": "Roadblock (secret): pick the unit, click the hex, Submit",
    "minefield": "Minefield (secret): pick the unit, click the hex, Submit",
    "breakthrough": "Break through: pick the unit, click the hex, Submit",
    "exploit": "Exploit: pick the unit, click the next hex, Submit",
}
"""How to give each order with the mouse."""

STEPS: dict[str, str] = {
    "3.3": "Start your impulse: the weather and your OP for it.",
    "3.5": "Spend OP: activate units, move them hex by hex, recon, probe, attack; then Done.",
    "3.8": "The non-phasing side may commit reserves.",
    "3.10": "Exploit the battles won.",
}
