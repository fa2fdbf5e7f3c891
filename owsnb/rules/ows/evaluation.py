"""What an OWS position is worth, for bots (``owsnb.bots``): pure functions over a view (or the
truth), in steps.

OWS leaves victory to the scenario and the facilitator (12.1); the bundled scenarios score steps
destroyed and cities held. So:

* ``standing`` — own steps minus the enemy's the state shows, on the map or in a box (2.2.3:
  a step is the unit of damage, lost only to it, 9.6), plus ``CITY`` points per city the side
  holds more than its enemy (a city is held by the side whose ground units stand there alone,
  else by its owner on the map);
* ``order_value`` — ``strike`` (9.2-9.9), ``attack`` (the GCAT read, 10.15.9) and ``prep-fire``
  (10.15.4) are worth the steps their exact previews expect the enemy to lose, minus the
  attacker's (GCAT ``A#``), a retreat a little; ``isr``/``detect`` (8.4) and ``io`` (7.1) the
  chance they succeed, a little (what is seen can be struck); a ground ``move`` into an enemy
  city a share of the city; a defender's ``shields`` (9.2.1) a little per shield committed; an
  air mission's ``fly`` (6.5), a SOF ``insert`` (6.6) or a landing (6.4.6, 6.5.11, 6.5.12)
  how much nearer the goals it goes (and a landing in an enemy city a share of it);
* ``goals`` — enemy cities (to take), own cities (to hold) and enemy units in sight;
* ``sample_hidden`` — undetected enemy units are not guessed (the bundled briefings give orders
  of battle, not positions); other sides' hands are empty (the bots' default).
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.rules.ows.ground.gcat import parse_result

__all__ = ["SCALE", "APPROACH", "standing", "order_value", "goals"]

SCALE = 2.0
APPROACH = 1.0
CITY = 2.0
SEEN = 0.15
SHIELD = 0.2
_LANDINGS = ("amphibious-assault", "airborne-assault", "air-assault")  # 6.4.6, 6.5.11, 6.5.12
SHIELD_CAP = 1.5


def _ground(u: Any) -> bool:
    return u.data.get("category", "ground") == "ground"


def _cities(state: Any) -> dict[Hex, str | None]:
    """City hex -> the side holding it now (ground units alone there, else its owner)."""
    out: dict[Hex, str | None] = {}
    for h, info in state.map.hexes.items():
        city = info.features.get("city") if info.features else None
        if not city:
            continue
        here = {u.side for u in state.units.values() if u.hex == h and u.steps > 0 and _ground(u)}
        out[h] = next(iter(here)) if len(here) == 1 else city.get("owner")
    return out


def standing(state: Any, side: str) -> float:
    """Steps and cities of *side* minus its enemies' (see the module docstring).

    A step is lost only to damage (9.6: the unit then goes to the attrition or regeneration box
    with no steps left), so every unit's steps count wherever it is — on the map, or in a box:
    an air mission at its base (6.5), a landing force aboard its ships (6.4.6), a SOF team
    waiting (6.6), a unit on the rails (5.1.1.4). Counting the map only made flying a mission,
    landing or inserting look like a gain, and a mission's return to base (11.4) like a loss."""
    own = sum(u.steps for u in state.units.values() if u.side == side)
    foe = sum(u.steps for u in state.units.values() if u.side != side)
    held = list(_cities(state).values())
    mine = held.count(side)
    theirs = sum(1 for s in held if s not in (None, side))
    return float(own - foe) + CITY * (mine - theirs)


def _expected(d: Any) -> float:
    return sum(float(p) * float(k) for k, p in d.items() if isinstance(k, (int, float)))


def order_value(view: Any, order: Any, preview: Any) -> float:
    """Expected worth of *order* to ``view.side`` in steps (see the module docstring)."""
    if order.verb in ("fly", "insert") and len(order.args) > 1:
        return _sortie(view, order)
    if order.verb in _LANDINGS and len(order.args) > 1:
        return _sortie(view, order) + _city(view, order)
    if preview is None:
        if order.verb == "shields":
            return _shields(order)
        if order.verb == "move" and len(order.args) > 1:
            return _city(view, order)
        return 0.0
    if order.verb == "strike" and hasattr(preview, "steps"):
        value = 0.0
        for target, d in preview.steps.items():
            t = view.units.get(target)
            sign = -1.0 if t is not None and t.side == view.side else 1.0
            value += sign * _expected(d)
        return value
    if order.verb == "attack" and hasattr(preview, "distribution"):
        value = 0.0
        for cell, p in preview.distribution().items():
            r = parse_result(cell)
            value += float(p) * ((r["d"] - r["a"]) + 0.25 * (r["dr"] - r["ar"]))
        return value
    if order.verb == "prep-fire":
        value = 0.0
        for (lost, suppressed), p in preview.items():
            value += float(p) * (float(lost) + 0.25 * bool(suppressed))
        return value
    if order.verb in ("isr", "detect", "io") and hasattr(preview, "items"):
        return SEEN * sum(float(p) for k, p in preview.items() if k is True)
    return 0.0


def _city(view: Any, order: Any) -> float:
    """A ground unit sent into a city its enemy holds: half the city (it must stand there
    alone to hold it)."""
    u = view.units.get(order.args[0])
    try:
        h = view.map.hex(order.args[1])
    except (KeyError, ValueError):
        return 0.0
    holder = _cities(view).get(h, view.side)
    if u is not None and _ground(u) and holder not in (None, view.side):
        return CITY / 2
    return 0.0


def _sortie(view: Any, order: Any) -> float:
    """An air mission flown (6.5) or SOF inserted (6.6) toward a hex: what it brings nearer the
    side's goals (``APPROACH`` times the change of ``sum(weight / (1 + hexes))``, the bots'
    time-distance term) — a strike or a raid can follow from there."""
    u = view.units.get(order.args[0])
    try:
        dest = view.map.hex(order.args[1])
    except (KeyError, ValueError):
        return 0.0
    if u is None:
        return 0.0
    aims = goals(view)

    def pull(h: Hex | None) -> float:
        return sum(w / (1 + h.distance(g)) for g, w in aims.items()) if h is not None else 0.0

    return APPROACH * (pull(dest) - pull(u.hex))


def _shields(order: Any) -> float:
    """A defender's shot calculus (9.2.1): each grey shield committed stops a salvo's chance of
    a hit (2.2.2.7) — worth ``SHIELD`` steps, up to ``SHIELD_CAP`` in all; CAP interceptors and
    return fire a little more."""
    committed = 0
    for token in ",".join(order.args).split(","):
        _, _, n = token.rpartition(":")
        committed += int(n) if n.isdigit() else 0
    extra = sum(
        len(str(order.params.get(k, "")).split(",")) for k in ("cap", "fire") if order.params.get(k)
    )
    return min(SHIELD_CAP, SHIELD * committed) + 0.1 * extra


def goals(view: Any) -> dict[Hex, float]:
    """Enemy cities (2), own cities (1) and enemy units in sight (0.5 each)."""
    out: dict[Hex, float] = {}
    for h, holder in _cities(view).items():
        out[h] = 1.0 if holder == view.side else 2.0
    for u in view.units.values():
        if u.side != view.side and u.hex is not None and u.steps > 0:
            out[u.hex] = out.get(u.hex, 0.0) + 0.5
    return out
