"""Guidance for the people at an Operational Art table (the briefing, the step coach, the
debrief): the victory standing of ruling R20 and how to give each order with the mouse (see
:meth:`owsnb.kernel.ruleset.RuleSet.guide`). The table is open (§4): every side's view holds the
whole battlefield, so the standing is the same on every seat.
"""

from __future__ import annotations

from typing import Any

from owsnb.rules.opart import victory

__all__ = ["standing", "VERBS", "STEPS"]


def standing(view: Any) -> dict[str, Any]:
    """Scores now (objectives held, enemy divisions broken, stands destroyed: R20) and who
    leads; at the end, the verdict."""
    from owsnb.rules.opart import RULESET

    out = victory.outcome(view)
    final = bool(RULESET.is_over(view))
    rows = []
    for side, sc in out["scores"].items():
        for key, what in (
            ("objectives", "objectives held"),
            ("broken", "enemy divisions broken (§9)"),
            ("destroyed", "enemy stands destroyed"),
        ):
            if sc.get(key):
                rows.append({"side": side, "what": what, "points": sc[key]})
    return {
        "text": out["text"] if final else out["standing"],
        "scores": {s: v["total"] for s, v in out["scores"].items()},
        "leader": out["winner"],
        "final": final,
        "rows": rows,
        "notes": [],
        "rule": "R20",
    }


VERBS: dict[str, str] = {
    "move": "Move a stand of the active formation: click it, then a shaded hex, then Submit",
    "face": "Turn a stand: face, click it, pick the hexside it faces, Submit (uses its move)",
    "mode": "Mount, dismount, embark or debus: mode, click the stand, pick the mode, Submit",
    "attack": "Attack: click your stand, then the enemy stand it engages, read the odds, Submit",
    "exit": "Withdraw a stand from its home edge: exit, click it, Submit",
}
"""How to give each order with the mouse."""

STEPS: dict[str, str] = {
    "12.2": "The card drawn names the formation that acts: move, face and attack with its stands, "
    "then Done to draw the next card.",
}
