"""Where things are: players and neutrals, unit positions, the Command Network (CN), movement
costs and checks (TS.4, TI), deployment locations (TS.6). Pure functions over a game state or a
side's view (both have the same read API).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.hexgrid import Hex, Reach, reachable
from owsnb.kernel.state import StateLike
from owsnb.rules.opscale.economy import city_of, control_of
from owsnb.rules.opscale.units import FORTIFICATIONS, OBSTACLES, STRUCTURES, domain_of

__all__ = [
    "players",
    "neutrals",
    "is_neutral",
    "position",
    "alive_on_map",
    "enemy_units_at",
    "mobile",
    "move_allowance",
    "network_sources",
    "in_network",
    "beyond_network",
    "step_cost",
    "move_reach",
    "checks_on",
    "move_odds",
    "deploy_hexes",
    "domain",
    "IMMOBILE",
]

IMMOBILE = STRUCTURES + FORTIFICATIONS + OBSTACLES


def neutrals(state: StateLike) -> tuple[str, ...]:
    """Sides that are neutral forces (no player acts for them)."""
    return tuple(state.public.get("neutral", ()) or ())


def is_neutral(state: StateLike, side: str) -> bool:
    return side in neutrals(state)


def players(state: StateLike) -> tuple[str, ...]:
    """The player sides, in play order (R1: each phase runs for all players in this order)."""
    n = set(neutrals(state))
    return tuple(s for s in state.sides if s not in n)


def domain(unit: Any) -> str:
    return domain_of(unit.data.get("category", ""), unit.data.get("domain"))


def position(state: StateLike, unit: Any) -> Hex | None:
    """The hex a unit is in (a carried unit is where its transport is)."""
    if unit.hex is not None:
        return unit.hex
    if unit.box == "carried":
        t = state.units.get(unit.data.get("carried_by", ""))
        return t.hex if t is not None else None
    return None


def alive_on_map(unit: Any) -> bool:
    return unit.steps > 0 and unit.hex is not None


def enemy_units_at(state: StateLike, h: Hex, side: str, *, include_air: bool = False) -> list[Any]:
    """Living enemy units in *h* (aircraft on a sortie only with *include_air*)."""
    return [
        u
        for u in state.units.values()
        if u.side != side and alive_on_map(u) and u.hex == h and (include_air or domain(u) != "air")
    ]


def move_allowance(unit: Any) -> float:
    """The unit's movement (PLACEHOLDER card value; the damaged side may lower it)."""
    d = unit.data
    if (
        unit.steps <= int(d.get("half_endurance", 0))
        and (d.get("damaged") or {}).get("move") is not None
    ):
        return float(d["damaged"]["move"])
    return float(d.get("move", 0) or 0)


def mobile(unit: Any) -> bool:
    """Can the unit use ``move`` (structures, fortifications, obstacles and aircraft cannot)?"""
    return (
        unit.data.get("category") not in IMMOBILE
        and domain(unit) != "air"
        and move_allowance(unit) > 0
    )


# -- Command Network (CN, ruling R20) ------------------------------------------------------------
def network_sources(state: StateLike, side: str) -> list[tuple[Hex, int]]:
    """Friendly deployed Command Posts and Forward HQs with their radius (PLACEHOLDER table)."""
    radius = state.table("command")["radius"]
    out = []
    for u in state.units.values():
        cat = u.data.get("category")
        if u.side == side and alive_on_map(u) and cat in ("command-post", "forward-hq"):
            r = u.data.get("command_radius")
            out.append((u.hex, int(radius.get(cat, 0) if r is None else r)))
    return out


def in_network(state: StateLike, unit: Any) -> bool:
    """Is *unit* inside its side's Command Network? Neutral forces are never penalised."""
    if is_neutral(state, unit.side):
        return True
    h = position(state, unit)
    if h is None:
        return False
    return any(h.distance(src) <= r for src, r in network_sources(state, unit.side))


def beyond_network(state: StateLike, units: Iterable[Any], scope: str = "majority") -> bool:
    """Does the Command Network penalty apply to a side whose declared units are *units*?
    (ruling B2.2, option ``network_scope``: ``"majority"``, ``"any"`` or ``"lead"``)."""
    flags = [not in_network(state, u) for u in units]
    if not flags:
        return False
    if scope == "any":
        return any(flags)
    if scope == "lead":
        return flags[0]
    return sum(flags) * 2 > len(flags)


# -- movement (TS.4, TI; PLACEHOLDER costs and checks) ---------------------------------------------
def _bridge(state: StateLike, h: Hex) -> bool:
    info = state.map.hexes[h]
    if "bridge" in info.features and not info.facts.get("bridge_destroyed"):
        return True
    return any(
        u.data.get("category") == "engineered-bridge" and alive_on_map(u) and u.hex == h
        for u in state.units.values()
    )


def _road(state: StateLike, h: Hex) -> bool:
    return "road" in state.map.hexes[h].features


def step_cost(state: StateLike, unit: Any, h: Hex) -> float | None:
    """Movement cost for *unit* to enter *h* (``None``: may not enter)."""
    info = state.map.hexes.get(h)
    if info is None:
        return None
    table = state.table("terrain")
    row = table["types"].get(info.terrain, {})
    if domain(unit) == "naval":
        c = row.get("naval_cost")
        return None if c is None else float(c)
    if row.get("cost") is None:
        return None
    if _road(state, h):
        return float(table.get("road_cost", 1))
    return float(row["cost"])


def _stops(state: StateLike, unit: Any, h: Hex) -> bool:
    """Enemy obstacles stop a mover of their class (ruling R29)."""
    cat = unit.data.get("category")
    for u in state.units.values():
        if u.side == unit.side or not alive_on_map(u) or u.hex != h:
            continue
        oc = u.data.get("category")
        if oc == "obstacle-infantry" and cat in ("infantry", "engineer"):
            return True
        if oc == "obstacle-vehicle" and cat not in ("infantry", "engineer"):
            return True
    return False


def move_reach(state: StateLike, unit: Any) -> Reach:
    """Hexes *unit* may move to this Movement Phase (never into enemy-occupied hexes, ruling R29)."""
    enemy = {
        u.hex
        for u in state.units.values()
        if u.side != unit.side
        and alive_on_map(u)
        and domain(u) != "air"
        and u.data.get("category") not in OBSTACLES
    }
    return reachable(
        unit.hex,
        move_allowance(unit),
        cost=lambda a, b: step_cost(state, unit, b),
        passable=lambda h: h in state.map.hexes and h not in enemy,
        stops=lambda h: _stops(state, unit, h),
    )


def checks_on(state: StateLike, unit: Any, path: Iterable[Hex]) -> list[tuple[Hex, int, str]]:
    """The terrain checks (TI: river ford, swamp cross, mountain enter) on a path, in order
    (the start hex excluded; a road or an intact bridge needs none)."""
    table = state.table("terrain")
    out: list[tuple[Hex, int, str]] = []
    hexes = list(path)[1:]
    if domain(unit) != "ground":
        return out
    for h in hexes:
        info = state.map.hexes[h]
        row = table["types"].get(info.terrain, {})
        n = row.get("check")
        if n is None or _road(state, h) or (info.terrain == "river" and _bridge(state, h)):
            continue
        out.append((h, int(n), str(row.get("check_name", "check"))))
    return out


def move_odds(state: StateLike, unit: Any, path: Iterable[Hex]) -> Distribution:
    """The exact distribution of where a move along *path* ends (a failed check stops the mover
    in the hex before it; PLACEHOLDER D10 >= number, ruling R22)."""
    path = list(path)
    die = int(state.table("terrain").get("check_die", 10))
    checks = {h: n for h, n, _ in checks_on(state, unit, path)}
    out: dict[str, Fraction] = {}
    p_here = Fraction(1)
    for i, h in enumerate(path[1:], start=1):
        n = checks.get(h)
        if n is None:
            continue
        p_pass = Fraction(max(0, min(die, die - n + 1)), die)
        stop = state.map.label(path[i - 1])
        out[stop] = out.get(stop, Fraction(0)) + p_here * (1 - p_pass)
        p_here *= p_pass
    end = state.map.label(path[-1])
    out[end] = out.get(end, Fraction(0)) + p_here
    return Distribution(out, label=f"where {unit.id} ends its move (TS.4)")


# -- deployment (TS.6, ruling R30) -----------------------------------------------------------------
def deploy_hexes(
    state: StateLike, side: str, radius: int = 1, zones: Mapping[str, Iterable[Hex]] | None = None
) -> set[Hex]:
    """Legal deployment locations (the aid's are lost; ruling R30): hexes within *radius* of a
    friendly deployed Command Post or Forward HQ or of a city the side controls, plus any
    scenario deployment zone, that hold no enemy unit."""
    anchors = [src for src, _ in network_sources(state, side)]
    for h, info in state.map.hexes.items():
        if city_of(info) is not None and control_of(info) == side:
            anchors.append(h)
    out = {h for a in anchors for h in a.disc(radius) if h in state.map.hexes}
    out |= set((zones or {}).get(side, ()))
    return {h for h in out if not enemy_units_at(state, h, side)}
