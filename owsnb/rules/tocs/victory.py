"""Victory points (Basic L86-L89; OMG-N VP table L854-L865).

Each side's victory conditions and tally are secret until the game ends (L87-L88): the tally
lives in the side's private facts and the outcome reveals both. VP come from objectives the side
owns at the end (scenario ``rules.objectives``: hex + VP key) and enemy units destroyed or
disbanded (by class and echelon). Objectives whose key a side's ``victory_owned_or_destroyed``
table lists also score for it once a bridge of their hex is destroyed (OMG-N L859: "Each Bridge
Owned or Destroyed").

>>> vp_key_for_loss({"cls": "hq", "echelon": "division"}), vp_key_for_loss({"cls": "vehicle"})
('division_hq_destroyed', 'company_destroyed')
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.state import StateLike

__all__ = ["vp_key_for_loss", "bridge_destroyed", "score"]


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


def bridge_destroyed(state: StateLike, label: str) -> bool:
    """Is a bridge on a hexside of hex *label* destroyed (public ``bridges``, L859)?"""
    lab = state.map.label(state.map.hex(label))
    return any(
        info.get("status") == "destroyed" and lab in key.split("-")
        for key, info in (state.public.get("bridges") or {}).items()
    )


def score(state: StateLike, side: str, units: Any = None) -> dict[str, Any]:
    """VP of *side* now: objectives it owns and enemy units it destroyed (its own knowledge)."""
    table = dict(state.tables.get("victory_points", {}).get(side, {}))
    or_destroyed = set(state.tables.get("victory_owned_or_destroyed", {}).get(side, ()))
    lines: list[tuple[str, int]] = []
    for obj in state.public.get("objectives", ()):
        h = state.map.hex(obj["hex"])
        name = f"{obj.get('name') or obj['hex']} ({obj['key']})"
        if state.map.hexes[h].facts.get("owner") == side:
            lines.append((name, int(table.get(obj["key"], 0))))
        elif obj["key"] in or_destroyed and bridge_destroyed(state, obj["hex"]):
            lines.append((f"{name}, destroyed", int(table.get(obj["key"], 0))))  # L859
    units = state.units if units is None else units
    for uid in state.sides[side].private.get("killed", ()):
        u = units.get(uid)
        if u is not None:
            key = vp_key_for_loss(u.data)
            lines.append((f"{u.name or uid} destroyed", int(table.get(key, 0))))
    return {"side": side, "lines": lines, "total": sum(v for _, v in lines)}
