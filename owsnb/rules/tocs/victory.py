"""Victory points (Basic L86-L89; OMG-N VP table L854-L865).

Each side's victory conditions and tally are secret until the game ends (L87-L88): the tally
lives in the side's private facts and the outcome reveals both. VP come from objectives the side
owns at the end (scenario ``rules.objectives``: hex + VP key) and enemy units destroyed or
disbanded (by class and echelon).

>>> vp_key_for_loss({"cls": "hq", "echelon": "division"}), vp_key_for_loss({"cls": "vehicle"})
('division_hq_destroyed', 'company_destroyed')
"""

from __future__ import annotations

from typing import Any

__all__ = ["vp_key_for_loss", "score"]


def vp_key_for_loss(data: Any) -> str:
    c = data.get("cls")
    if c == "hq":
        e = data.get("echelon", "battalion")
        if e in ("division", "corps", "army"):
            return "division_hq_destroyed"
        if e in ("regiment", "brigade"):
            return "regiment_hq_destroyed"
        return "battalion_hq_destroyed"
    if c in ("company", "hqcompany", "vehicle"):
        return "company_destroyed"
    return "battery_destroyed"


def score(state: Any, side: str, units: Any = None) -> dict[str, Any]:
    """VP of *side* now: objectives it owns and enemy units it destroyed (its own knowledge)."""
    table = dict(state.tables.get("victory_points", {}).get(side, {}))
    lines: list[tuple[str, int]] = []
    for obj in state.public.get("objectives", ()):
        h = state.map.hex(obj["hex"])
        if state.map.hexes[h].facts.get("owner") == side:
            lines.append(
                (f"{obj.get('name') or obj['hex']} ({obj['key']})", int(table.get(obj["key"], 0)))
            )
    units = state.units if units is None else units
    for uid in state.sides[side].private.get("killed", ()):
        u = units.get(uid)
        if u is not None:
            key = vp_key_for_loss(u.data)
            lines.append((f"{u.name or uid} destroyed", int(table.get(key, 0))))
    return {"side": side, "lines": lines, "total": sum(v for _, v in lines)}
