"""Movement (8.0, 9.1-9.8, 5.1): terrain costs, roads, bridges, elevation, ZOC stops and reach.

Cost to enter a hex (the Terrain Effects Chart, ``tables['terrain']``): clear 1; woods and town 2
(foot) or 3 (mechanized); swamp the entire movement allowance for foot units and prohibited to
mechanized units and artillery off-road (9.3); +1 moving uphill (9.5); +2 crossing a bridge
(9.7); no crossing a river hexside without a bridge (9.6), and an infantry bridge carries only
non-motorized units. Along a road (9.8) a hex costs half its base cost or 2, whichever is less,
rounded down with a minimum of 1; uphill and bridge costs still apply. Every hex costs at least
1 MP, and a unit may always spend its whole allowance to enter one adjacent hex it may enter
(8.0). A unit must stop on entering an enemy zone of control (5.1); leaving one is free.

The functions work on the truth or on a side's view (enemy positions are public).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from owsnb.kernel.hexgrid import ALL, Hex, reachable
from owsnb.kernel.state import StateLike, Unit, edge_key
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.terrain import bridge_kind, map_info, occupied, zoc

__all__ = ["ALL", "step_cost", "movement_allowance", "reach", "enemy_of"]

# ALL (the kernel's): step cost meaning "the unit's entire movement allowance" (swamp, 9.3)


def enemy_of(state: StateLike, side: str) -> str:
    """The other side of a two-player game."""
    return next(s for s in state.sides if s != side)


def movement_allowance(state: StateLike, u: Unit) -> int:
    """Printed MA, halved (round down, minimum 1) when out of supply (7.2)."""
    ma = int(u.data.get("ma", 1))
    if u.data.get("oos"):
        ma = max(1, ma // 2)
    return ma


def step_cost(state: StateLike, a: Hex, b: Hex, cls: str, ma: int) -> int | str | None:
    """MP to move from *a* into the adjacent hex *b* for movement class *cls* (``foot``,
    ``mech``, ``artillery``): an int, :data:`ALL`, or ``None`` if prohibited.

    Enemy units and zones of control are not considered here (see :func:`reach`).
    """
    info = map_info(state.map)
    tec = state.tables["terrain"]
    key = edge_key(a, b)
    bridge = False
    if key in info.rivers:
        kind = bridge_kind(state, a, b)
        if kind is None or (kind == "infantry" and cls == "mech"):
            return None
        bridge = True
    t = info.terrain.get(b, "clear")
    row = tec["terrain"].get(t, tec["terrain"]["clear"])
    base = row["move"].get(cls, row["move"].get("foot"))
    on_road = key in info.roads
    if on_road:
        if base is None or base == ALL:
            base = ma  # swamp along a road: the entire MA as base cost (9.3 + 9.8; digest #5)
        road = tec.get("road", {})
        cost = min(
            int(road.get("max", 2)), int(Fraction(str(road.get("fraction", "1/2"))) * int(base))
        )
        cost = max(1, cost)
    else:
        if base is None:
            return None
        if base == ALL:
            return ALL
        cost = int(base)
    if info.elevation.get(b, 0) > info.elevation.get(a, 0):
        cost += int(tec.get("elevation", {}).get("uphill_move", 1))
    if bridge:
        cost += int(tec.get("bridge", {}).get("move", 2))
    return max(1, cost)


def reach(
    state: StateLike,
    u: Unit,
    *,
    budget: int | None = None,
    allowed: Callable[[Hex], bool] | None = None,
) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    """Hexes *u* can reach this phase: ``(cost, parent)`` maps (start at cost 0), searched by the
    kernel's :func:`~owsnb.kernel.hexgrid.reachable`.

    Args:
        budget: MP to spend (default: :func:`movement_allowance`).
        allowed: extra test every entered hex must pass (exploitation supply, 10.0).
    """
    start = u.hex
    if start is None:
        return {}, {}
    info = map_info(state.map)
    types = state.tables.get("unit_types", U.TYPES)
    cls = U.movement_class(u, types)
    ma = movement_allowance(state, u) if budget is None else budget
    foe = enemy_of(state, u.side)
    enemy_at = set(occupied(state, foe))
    swamp_full = state.options.get("swamp_entry", "full-ma") == "full-ma"

    def cost(a: Hex, b: Hex) -> int | str | None:
        c = step_cost(state, a, b, cls, ma)
        if c == ALL and swamp_full and a != start:
            return None  # 9.3: a swamp only as the whole move
        return c

    r = reachable(
        start,
        ma,
        cost=cost,
        passable=lambda h: h not in enemy_at and (allowed is None or allowed(h)),
        stops=zoc(state, foe).__contains__,  # 5.1: entering an enemy ZOC ends the move
        one_hex=True,  # 8.0: always one hex for the whole allowance
        neighbours=info.neighbours.__getitem__,
    )
    return {h: int(c) for h, c in r.cost.items()}, r.parent


def path_to(parent: dict[Hex, Hex], start: Hex, goal: Hex) -> tuple[Hex, ...]:
    """The path from *start* to *goal* recorded in a :func:`reach` parent map."""
    out = [goal]
    while out[-1] != start:
        out.append(parent[out[-1]])
    return tuple(reversed(out))
