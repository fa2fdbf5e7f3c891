"""What an OWS position is worth, for bots (``owsnb.bots``): pure functions over a view (or the
truth), in steps.

OWS leaves victory to the scenario and the facilitator (12.1); the bundled scenarios score steps
destroyed and cities held. So:

* ``standing`` — own steps minus the enemy's the state shows, on the map or in a box (2.2.3:
  a step is the unit of damage, lost only to it, 9.6), plus ``CITY`` points per city the side
  holds more than its enemy (a city is held by the side whose ground units stand there alone,
  else by its owner on the map);
* ``order_value`` — ``strike`` (9.2-9.9; less ``SALVO`` per salvo fired: a missile spent is
  one fewer for the next target), ``attack`` (the GCAT read, 10.15.9) and ``prep-fire``
  (10.15.4) are worth the steps their exact previews expect the enemy to lose, minus the
  attacker's (GCAT ``A#``), a retreat a little; ``isr``/``detect`` (8.4) and ``io`` (7.1) the
  chance they succeed, a little (what is seen can be struck); a ground ``move`` into an enemy
  city a share of the city; a defender's ``shields`` (9.2.1) a little per shield committed; an
  air mission's ``fly`` (6.5), a SOF ``insert`` (6.6) or a landing (6.4.6, 6.5.11, 6.5.12)
  how much nearer the goals it goes (and a landing in an enemy city a share of it);
* ``goals`` — enemy cities (to take), own cities (to hold) and enemy units in sight;
* ``candidates`` — a ``move``'s destinations toward the goals: the legal-order spec gives a
  player's panel three examples per ship (the farthest it can sail, 6.4) and per ground unit
  (10.10), which need not lead anywhere; for ground units and ships carrying a landing force
  the ``DESTINATIONS`` reachable hexes (as the side knows, ``naval_reach`` / ``ground_reach``)
  nearest the goals are scored too;
* ``sample_hidden`` — undetected enemy units are not guessed (the bundled briefings give orders
  of battle, not positions); other sides' hands are empty (the bots' default); a ground attack
  waiting for the defender's answer (10.3) — the umpire's secret record of it — is rebuilt from
  the window both sides see.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.rules.ows.ground.gcat import parse_result

__all__ = ["SCALE", "APPROACH", "standing", "order_value", "goals", "candidates", "sample_hidden"]

SCALE = 2.0
APPROACH = 1.0
CITY = 2.0
SEEN = 0.15
SHIELD = 0.2
_LANDINGS = ("amphibious-assault", "airborne-assault", "air-assault")  # 6.4.6, 6.5.11, 6.5.12
SHIELD_CAP = 1.5
DESTINATIONS = 4
SALVO = 0.02


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
        value = -SALVO * _salvos(order)
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


def _salvos(order: Any) -> int:
    """Salvos a strike fires (9.8: one per ``SOURCE:GROUP`` given)."""
    v = order.params.get("salvos")
    vals = v if isinstance(v, (list, tuple)) else str(v or "").split(",")
    return sum(1 for x in vals if x)


def _city(view: Any, order: Any) -> float:
    """A ground unit sent into a city its enemy holds: half the city (it must stand there
    alone to hold it)."""
    u = view.units.get(order.args[0])
    h = view.map.find(order.args[1])
    if h is None:
        return 0.0
    holder = _cities(view).get(h, view.side)
    if u is not None and _ground(u) and holder not in (None, view.side):
        return CITY / 2
    return 0.0


def _sortie(view: Any, order: Any) -> float:
    """An air mission flown (6.5) or SOF inserted (6.6) toward a hex: how near it brings the
    mission to the enemy's cities and units (``APPROACH`` times ``sum(weight / (1 + hexes))``,
    the bots' time-distance pull) — a strike, an intercept or a raid can follow from there; a
    mission left in its base box takes no part (6.5), and aircraft or a team hold no city, so
    the side's own cities do not draw them. A landing (6.4.6, 6.5.11, 6.5.12) is a ground
    force going ashore: the change of the pull over all goals (own cities to hold too) from
    where it sets out (:func:`_origin`)."""
    u = view.units.get(order.args[0])
    dest = view.map.find(order.args[1])
    if dest is None:
        return 0.0
    if u is None:
        return 0.0
    aims = goals(view)
    if order.verb in _LANDINGS:
        return APPROACH * (_pull(dest, aims) - _pull(_origin(view, u), aims))
    foe = {h: w for h, w in aims.items() if _cities(view).get(h) != view.side}
    return APPROACH * _pull(dest, foe)


def _pull(h: Hex | None, aims: dict[Hex, float]) -> float:
    return sum(w / (1 + h.distance(g)) for g, w in aims.items()) if h is not None else 0.0


def _origin(view: Any, u: Any) -> Hex | None:
    """Where a unit off the map sets out from: an air mission from its squadron base (6.5), a
    force aboard from the ship whose hold carries it (6.4.6) — not from nowhere (which made
    every sortie or landing look like a gain, wherever it went: landings on the side's own
    coast). ``None`` if the view does not say."""
    if u.hex is not None:
        return u.hex
    base = view.units.get(u.data.get("base") or "")
    if base is not None and base.hex is not None:
        return base.hex
    hold = u.data.get("aboard")
    if hold:
        for s in view.units.values():
            if s.side == u.side and s.hex is not None and s.data.get("hold") == hold:
                return s.hex
    return None


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


def _carrying(view: Any, ship: Any) -> bool:
    """*ship*'s hold carries a ground force (6.4.6: it lands from there)."""
    hold = ship.data.get("hold")
    return bool(hold) and any(
        u.side == ship.side and u.data.get("aboard") == hold and u.steps > 0
        for u in view.units.values()
    )


def candidates(view: Any, legal: Any, rng: Any) -> list[Any]:
    """More ``move`` orders than the spec's examples: for each ground unit the spec lists
    (10.10), and each ship carrying a landing force (6.4, 6.4.6), the ``DESTINATIONS`` hexes it
    can reach (as its side knows) nearest the goals (the bots' time-distance pull): those are
    the units that take and hold cities. A warship keeps the spec's examples — where it should
    sail is a matter of weapon ranges and detection (6.2, 9.9), which the pull does not weigh
    (sent toward the enemy it only got sunk sooner). Unchecked: ``order in legal`` decides."""
    from owsnb.rules.ows.movement.basics import NAVAL_CATEGORIES
    from owsnb.rules.ows.movement.ground import ground_reach
    from owsnb.rules.ows.movement.naval import naval_reach
    from owsnb.rules.ows.units import counter

    out = _massed_strikes(legal)
    spec = next((sp for sp in legal.specs if sp.verb == "move"), None)
    if spec is None:
        return out
    aims = goals(view)
    if not aims:
        return out
    for uid in spec.candidates.get("unit", ()):
        u = view.units.get(uid)
        if u is None or u.hex is None:
            continue
        try:
            if counter(u).category in NAVAL_CATEGORIES:
                if not _carrying(view, u):
                    continue  # a warship's place is weapon ranges and detection, not the pull
                ends = set(naval_reach(view, u))
            else:
                ends = set(ground_reach(view, u).ends)
        except Exception:  # noqa: BLE001 - a unit whose reach cannot be read keeps the examples
            continue
        ends.discard(u.hex)
        best = sorted(ends, key=lambda h: (-_pull(h, aims), h))[:DESTINATIONS]
        out += [spec.type.make(view.side, unit=uid, to=view.map.label(h)) for h in best]
    return out


def _massed_strikes(legal: Any) -> list[Any]:
    """A strike action is one target hex and all the salvos from any sources in range (9.8,
    9.9) — and a side has only its C2 value of long-range actions a turn (9.9.2), while each
    salvo must get through the defender's shields (9.2.1): the spec's examples fire one salvo
    each, so for each target the example salvos at it are also offered massed: 2, 4, 8, 16 of
    them and all (``SALVO`` per salvo fired in :func:`order_value` picks the smallest that does
    the work)."""
    spec = next((sp for sp in legal.specs if sp.verb == "strike"), None)
    if spec is None:
        return []
    by_target: dict[str, list[str]] = {}
    for ex in spec.examples:
        target = ex.args[0] if ex.args else None
        salvos = ex.params.get("salvos")
        if target is None or salvos is None:
            continue
        vals = salvos if isinstance(salvos, (list, tuple)) else str(salvos).split(",")
        for v in vals:
            if v and v not in by_target.setdefault(target, []):
                by_target[target].append(v)
    out = []
    for t, vs in by_target.items():
        sizes = [k for k in (2, 4, 8, 16) if k < len(vs)] + ([len(vs)] if len(vs) > 1 else [])
        out += [spec.type.make(spec.side, target=t, salvos=vs[:k]) for k in sizes]
    return out


def sample_hidden(view: Any, rng: Any) -> dict[str, Any]:
    """What *view*'s side cannot see, for a bot's sampled worlds (``owsnb.bots.determinise``).

    A ground attack waiting for the defender's answer (10.3: defensive fires, reserves' reaction
    10.4.1.1.1) lives in the umpire's secret record (``ground_pending``: the attacker's hidden
    supporting fires, exploitation and choices), without which a sampled world could neither
    resolve the attack nor take the answer. The window both sides see (``ground_window``) names
    the attacker, the defender, the hex and the attacking units; the record is rebuilt from it:
    no supporting fires, no exploitation, no lead unit, no reserves, and afterwards the
    activation resumed as it began (10.2: the public record of who acts). Undetected enemy
    units are not guessed; other sides' hands stay empty.
    """
    w = view.public.get("ground_window")
    if not w:
        return {}
    h = view.map.hex(w["hex"])
    acting = list((view.public.get("ground") or {}).get("acting") or [w["attacker"]])
    others = [x for x in view.sides if x not in acting]
    pending = {
        "attacker": w["attacker"],
        "defender": w["defender"],
        "hex": [h.q, h.r],
        "with": [x for x in w.get("attackers", ()) if x in view.units],
        "lead": None,
        "support": [],
        "exploit": False,
        "att_choice": {},
        "reserves": [],
        "clock": {"active": [*acting, *others], "done": others},  # as the activation began
        "react_left": w.get("react_left"),
    }
    return {"secret": {"ground_pending": pending}}
