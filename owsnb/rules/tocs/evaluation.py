"""What a TOCS position is worth, for bots (``owsnb.bots``): pure functions over a view (or the
truth), in victory points (Basic L86-L89; OMG-N VP table L854-L865).

* ``standing`` — the side's VP minus its enemy's as the state shows them: objectives owned (the
  perimeter is public, L18) and enemy units in the dead pile (revealed to both, L9), each by the
  side's VP table; plus ``MATERIAL`` points per own step alive more than the enemy's *in the
  state* (a view shows no live enemy unit) and ``PERIMETER`` points per hex owned more;
* ``order_value`` — an ``attack`` is worth its expected CRT result (steps and retreats) on the
  column its strength would get against ``GUESS_DEFENCE`` (the defender's strength is hidden:
  the preview gives every column, 10.6); a ``move`` into a hex the side does not own takes it
  (10.1, L247): the hex and, on an objective, its VP; ``activate`` is worth a little for a unit
  that can still act (B3.5) — the moves it opens are scored when they are offered;
* ``goals`` — objectives the side does not own (half their VP) and those it owns (a quarter:
  stay to hold them);
* ``sample_hidden`` — enemy units are never seen (L9): a "ghost" company (the enemy's typical
  foot company) is put in each enemy hex next to the side's perimeter with chance ``GHOST``;
  the referee's facilities are those the side knows.
"""

from __future__ import annotations

import re
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import Unit
from owsnb.rules.tocs.model import DEAD
from owsnb.rules.tocs.victory import vp_key_for_loss

__all__ = ["SCALE", "APPROACH", "standing", "order_value", "goals", "sample_hidden"]

SCALE = 3.0
APPROACH = 1.0
MATERIAL = 0.5
PERIMETER = 0.05
GUESS_DEFENCE = 3
GHOST = 0.35
ACTIVATE = 0.05

_RESULT = re.compile(r"^(\d*)(?:R(\d+))?$")


def _table(state: Any, side: str) -> dict[str, int]:
    t = state.tables.get("victory_points", {}).get(side, {})
    return {k: int(v) for k, v in t.items() if not isinstance(v, bool)}


def _owner(state: Any, h: Hex) -> Any:
    info = state.map.hexes.get(h)
    return info.facts.get("owner") if info is not None else None


def _vp(state: Any, side: str) -> int:
    table = _table(state, side)
    vp = 0
    for obj in state.public.get("objectives", ()):
        if _owner(state, state.map.hex(obj["hex"])) == side:
            vp += table.get(obj["key"], 0)
    for u in state.units.values():
        if u.side != side and u.box == DEAD:
            vp += table.get(vp_key_for_loss(u.data), 0)
    return vp


def standing(state: Any, side: str) -> float:
    """VP of *side* minus its enemy's, plus material and perimeter (see the module docstring)."""
    foes = [s for s in state.sides if s != side]
    foe = foes[0] if foes else side
    own_steps = sum(u.steps for u in state.units.values() if u.side == side and u.hex is not None)
    foe_steps = sum(u.steps for u in state.units.values() if u.side != side and u.hex is not None)
    hexes = [info.facts.get("owner") for info in state.map.hexes.values()]
    return (
        float(_vp(state, side) - _vp(state, foe))
        + MATERIAL * (own_steps - foe_steps)
        + PERIMETER * (hexes.count(side) - hexes.count(foe))
    )


def _part(text: str) -> tuple[int, int]:
    m = _RESULT.match(text.strip()) if text.strip() != "-" else None
    if m is None:
        return 0, 0
    return int(m.group(1) or 0), int(m.group(2) or 0)


def _column(columns: list[str], attack: float, defence: float) -> str:
    """The CRT column of *attack* against *defence* (odds rounded down, clamped)."""
    best = columns[0]
    for c in columns:
        a, _, d = c.partition(":")
        if attack * int(d) >= defence * int(a):
            best = c
    return best


def order_value(view: Any, order: Any, preview: Any) -> float:
    """Expected worth of *order* to ``view.side`` (see the module docstring)."""
    side = view.side
    if order.verb == "attack" and preview is not None and hasattr(preview, "columns"):
        u = view.units.get(order.args[0]) if order.args else None
        cols = list(preview.columns)
        if u is None or not cols:
            return 0.0
        strength = float(u.data.get("attack", 1)) * max(1, u.steps) / max(1, u.max_steps)
        dist = preview.columns[_column(cols, strength, GUESS_DEFENCE)]
        value = 0.0
        for result, p in dist.items():
            att, _, dfn = str(result).partition("/")
            a_loss, a_ret = _part(att)
            d_loss, d_ret = _part(dfn)
            value += float(p) * (MATERIAL * (d_loss - a_loss) + 0.1 * (d_ret - a_ret))
        return value
    if order.verb == "move" and len(order.args) > 1:
        h = view.map.find(order.args[1])
        if h is None:
            return 0.0
        if _owner(view, h) == side:
            return 0.0
        value = PERIMETER * (2 if _owner(view, h) not in (None, "none") else 1)
        table = _table(view, side)
        for obj in view.public.get("objectives", ()):
            if view.map.hex(obj["hex"]) == h:
                value += table.get(obj["key"], 0)
        return value
    if order.verb == "activate" and order.args:
        u = view.units.get(order.args[0])
        if u is not None and u.get("cls") in ("company", "vehicle") and u.hex is not None:
            return ACTIVATE
    return 0.0


def goals(view: Any) -> dict[Hex, float]:
    """Objectives not owned (half their VP), and owned ones (a quarter, to hold them)."""
    table = _table(view, view.side)
    out: dict[Hex, float] = {}
    for obj in view.public.get("objectives", ()):
        h = view.map.hex(obj["hex"])
        vp = table.get(obj["key"], 1)
        out[h] = out.get(h, 0.0) + (vp / 4 if _owner(view, h) == view.side else vp / 2)
    return out


def sample_hidden(view: Any, rng: Any) -> dict[str, Any]:
    """Ghost companies in enemy hexes next to the side's perimeter; known facilities only."""
    side = view.side
    foes = [s for s in view.sides if s != side]
    if not foes:
        return {}
    foe = foes[0]
    own = {h for h, info in view.map.hexes.items() if info.facts.get("owner") == side}
    front = sorted(
        {n for h in own for n in h.neighbours() if _owner(view, n) == foe},
        key=lambda h: (h.q, h.r),
    )
    units = []
    for i, h in enumerate(front):
        if rng.random() < GHOST:
            data = {
                "cls": "company",
                "mobility": "foot",
                "attack": 3,
                "defense": 3,
                "mp": 2.0,
                "ml": 7,
                "elr": 0,
                "radius": 0,
                "state": 0,
                "recon": False,
                "engineer": False,
                "independent": True,
                "para": False,
                "offboard": False,
            }
            units.append(
                Unit(
                    f"ghost-{i}", foe, "company", hex=h, steps=4, max_steps=4, data=FrozenDict(data)
                )
            )
    known = view.sides[side].private.get("facilities_known", ())
    return {"units": units, "secret": {"facilities": [dict(f) for f in known]}}
