"""Movement (§13), stacking (§6) and forced withdrawal (§13, §14).

* Allowance: 4 or 2 hexes by mode; 2 for a stand starting within a fortified or built-up area
  (ruling R16); +1 if the whole move is along a road; each hill contour crossed costs a hex.
  A stand may always move one hex if it may enter it (option ``minimum_move``, R16).
* Stands move through friendly stands, never through enemy stands; they end their move only
  where the stacking rule allows (§6: same formation, at most ``stack_capacity`` standard stands).
* Off-road, only infantry on foot and dismounted cavalry enter woods and villages; AFVs,
  cavalry, artillery and transport enter built-up areas only by road; rivers per the
  ``river_crossing`` option (R18).
* Artillery may not move into a hex adjacent to an enemy stand.
* The gap rule: no passing between two enemy stands, or between an enemy stand and a terrain
  obstacle, through a hex adjacent to an enemy stand (ruling R15, see :class:`GapRule`).
* A division at morale 0 may only move to withdraw from the battlefield (§9): each move must end
  nearer its side's home edge (ruling R22).

Forced withdrawal (:func:`withdrawal`): the stand moves until it is at least ``withdraw_distance``
hexes from every enemy stand, by a legal path of at most 4 hexes, or is destroyed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.state import StateLike
from owsnb.rules.opart.stands import formation_of, is_artillery, is_division, on_foot_class
from owsnb.rules.opart.tables import table
from owsnb.rules.opart.terrain import TerrainIndex, terrain_index

__all__ = [
    "Refusal",
    "allowance",
    "enemy_hexes",
    "entry_refusal",
    "stacking_refusal",
    "GapRule",
    "MoveReach",
    "reach",
    "withdrawal",
    "home_edge_distance",
    "morale_zero",
]

ROAD_BOUND = ("afv", "cavalry", "artillery", "transport")


@dataclass(frozen=True)
class Refusal:
    """Why a stand may not do something: a stable code, a message and the rule."""

    code: str
    message: str
    rule: str


def allowance(state: StateLike, unit: Any, index: TerrainIndex | None = None) -> int:
    """The stand's movement allowance in hexes, before road bonus and contours (§13).

    Troops within a fortified or built-up area move 2 hexes; "within" is read as starting the
    move there (ruling R16).
    """
    index = index or terrain_index(state)
    mv = table(state, "movement")
    base = int(mv["allowance"][unit.get("mode")])
    if unit.hex in index.built_up:
        base = min(base, int(mv["built_up_allowance"]))
    return base


def enemy_hexes(state: StateLike, side: str) -> set[Hex]:
    """Hexes holding an enemy stand of *side*."""
    return {u.hex for u in state.units.values() if u.side != side and u.hex is not None}


def entry_refusal(
    state: StateLike, unit: Any, index: TerrainIndex, a: Hex, b: Hex
) -> Refusal | None:
    """Why *unit* may not step from *a* into neighbour *b* because of terrain (§13), or None."""
    cls = index.entry.get(b, "any")
    road = index.on_road(a, b)
    if cls == "foot_only" and not road and not on_foot_class(state, unit):
        what = index.terrain.get(b, "wood")
        return Refusal(
            "terrain-foot-only",
            f"off-road, only infantry on foot and dismounted cavalry may "
            f"enter {'woods' if what == 'wood' else what + 's'}",
            "13",
        )
    if cls == "road_bound" and not road and unit.get("arm") in ROAD_BOUND:
        return Refusal(
            "terrain-built-up-road",
            "AFVs, cavalry, artillery and transport may only enter built-up areas via roads",
            "13",
        )
    river_opt = state.options.get("river_crossing", "bridges")
    for h in (a, b):
        if index.entry.get(h) == "river":
            if river_opt == "impassable":
                return Refusal(
                    "terrain-river", "the river cannot be crossed (option river_crossing)", "R18"
                )
            if river_opt == "bridges" and not road:
                return Refusal(
                    "terrain-river",
                    "rivers are crossed only by road bridges (option river_crossing: bridges)",
                    "R18",
                )
    return None


def stacking_refusal(state: StateLike, unit: Any, h: Hex) -> Refusal | None:
    """Why *unit* may not end its move in *h* (§6), or None."""
    others = [u for u in state.units.values() if u.hex == h and u.id != unit.id]
    if any(u.side != unit.side for u in others):
        return Refusal("enemy-hex", "stands cannot enter a hex held by the enemy", "13")
    fid = formation_of(unit)
    if any(formation_of(u) != fid for u in others):
        return Refusal(
            "stacking-formation",
            "stands may share a hex only with stands of the same division or group of assets",
            "6",
        )
    cap = int(state.options.get("stack_capacity", 3))
    used = sum(int(u.get("size", 1)) for u in others) + int(unit.get("size", 1))
    if used > cap:
        return Refusal(
            "stacking-capacity",
            f"the hex has room for {cap} standard stands (option stack_capacity; ruling R21)",
            "6",
        )
    return None


# -- the gap rule ---------------------------------------------------------------------------------
class GapRule:
    """Ruling R15 on "moving between" enemy stands or an enemy stand and an obstacle (§13).

    For every pair (E, X) — E a hex holding an enemy stand, X another such hex or an obstacle
    hex, ``2 <= distance(E, X) <= gap_span`` — the hexes *between* them are those on a shortest
    path from E to X; those adjacent to an enemy stand are *gap hexes*. A move crosses the pair
    when it passes from one side of the straight line E-X to the other by way of hexes between
    them. Crossing **through** a gap hex (entering and leaving it) is illegal; a mover may stop in
    one. A move that starts in a gap hex may leave it either way.

    Example (E and X enemy stands three hexes apart in a line; H1 and H2 between them):

    >>> from owsnb.kernel.hexgrid import Hex
    >>> g = GapRule({Hex(0, 0), Hex(3, 0)}, set(), span=3)
    >>> g.gap_hexes == {Hex(1, 0), Hex(2, 0)}
    True
    >>> g.step(Hex(1, -1), Hex(1, 0), frozenset(), Hex(1, -1))   # entering H1 from one side
    (frozenset({(0, -1, True)}), False)
    >>> g.step(Hex(1, 0), Hex(0, 1), frozenset({(0, -1, True)}), Hex(1, -1)) is None  # out the far side
    True
    """

    def __init__(self, enemies: Iterable[Hex], obstacles: Iterable[Hex], span: int):
        self.enemies = set(enemies)
        adj_enemy = {n for e in self.enemies for n in e.neighbours()}
        blockers = self.enemies | set(obstacles)
        self.pairs: list[tuple[Hex, Hex]] = []
        self.regions: list[frozenset[Hex]] = []
        self.gaps: list[frozenset[Hex]] = []
        self.region_of: dict[Hex, list[int]] = {}
        for e in sorted(self.enemies):
            for x in sorted(h for h in e.disc(span) if h in blockers):
                d = e.distance(x)
                if d < 2 or (x in self.enemies and x < e):
                    continue  # neighbours leave no gap; each pair of enemies once
                region = frozenset(
                    h for h in e.disc(d) if h not in (e, x) and e.distance(h) + h.distance(x) == d
                )
                gaps = frozenset(h for h in region if h in adj_enemy)
                if not gaps:
                    continue
                k = len(self.pairs)
                self.pairs.append((e, x))
                self.regions.append(region)
                self.gaps.append(gaps)
                for h in region:
                    self.region_of.setdefault(h, []).append(k)
        self.gap_hexes = frozenset().union(*self.gaps) if self.gaps else frozenset()

    def _sign(self, k: int, h: Hex) -> int:
        e, x = self.pairs[k]
        c = (x[0] - e[0]) * (h[1] - e[1]) - (x[1] - e[1]) * (h[0] - e[0])
        return (c > 0) - (c < 0)

    def step(self, u: Hex, v: Hex, pending: frozenset, start: Hex) -> tuple[frozenset, bool] | None:
        """Check the step *u* -> *v* of a move that began at *start*.

        Args:
            pending: crossings in progress (``(pair, side, through_gap)``) from earlier steps.

        Returns:
            ``None`` if the step is illegal, else ``(new pending, stop)`` where ``stop`` means the
            mover has just crossed into a gap hex and may go no further.
        """
        involved = set(self.region_of.get(u, ())) | set(self.region_of.get(v, ()))
        pend = {k: (s, g) for k, s, g in pending}
        involved |= set(pend)
        new: set[tuple[int, int, bool]] = set()
        stop = False
        for k in involved:
            region, gaps = self.regions[k], self.gaps[k]
            su, sv = self._sign(k, u), self._sign(k, v)
            if k in pend:
                s, through_gap = pend[k]
                if sv == 0 and v in region:
                    new.add((k, s, through_gap or v in gaps))
                elif sv == -s:
                    if through_gap:
                        return None
                    if v in gaps:
                        stop = True
            elif su and sv and su == -sv and (u in region or v in region):
                if u in gaps and u != start:
                    return None
                if v in gaps:
                    stop = True
            elif su and not sv and v in region:
                new.add((k, su, v in gaps))
        return frozenset(new), stop


# -- reach ----------------------------------------------------------------------------------------
@dataclass
class MoveReach:
    """Where a stand can move now: ``cost[h]`` (hexes of allowance used) and ``path[h]``.

    ``refused[h]`` explains hexes the search reached but the stand may not end in (stacking,
    morale). Iterate or test membership for the legal destinations (the start excluded).
    """

    unit: str
    start: Hex | None
    allowance: int
    cost: dict[Hex, float] = field(default_factory=dict)
    path: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict)
    road: dict[Hex, bool] = field(default_factory=dict)
    refused: dict[Hex, Refusal] = field(default_factory=dict)

    def __contains__(self, h: object) -> bool:
        return h in self.cost

    def __iter__(self):  # noqa: ANN204
        return iter(self.cost)

    def __len__(self) -> int:
        return len(self.cost)

    def __repr__(self) -> str:
        return f"<MoveReach {self.unit} from {self.start}: {len(self.cost)} hexes, allowance {self.allowance}>"


def morale_zero(state: StateLike, unit: Any) -> bool:
    """Is the stand's division at morale 0 (§9)?"""
    fid = formation_of(unit)
    return is_division(state, fid) and int(state.public.get("morale", {}).get(fid, 1)) <= 0


def home_edge_distance(state: StateLike, side: str, h: Hex) -> int | None:
    """Hexes from *h* to its side's home edge (scenario ``rules.home_edges``), or None."""
    edge = state.public.get("home_edges", {}).get(side)
    if not edge:
        return None
    c0, c1, r0, r1 = terrain_index(state).extent
    c, r = state.map.offset.to_offset(h)
    if edge == "north":
        return r - r0
    if edge == "south":
        return r1 - r
    if edge == "west":
        return c - c0
    return c1 - c


def _search(
    state: StateLike,
    unit: Any,
    index: TerrainIndex,
    budget: float,
    *,
    road_only: bool,
    gap: GapRule,
    enemies: set[Hex],
    voluntary: bool,
    contours: bool,
    min_move: bool,
) -> tuple[dict[Hex, float], dict[Hex, tuple[Hex, ...]]]:
    start = unit.hex
    hexes = state.map.hexes
    mv = table(state, "movement")
    contour_cost = float(mv.get("contour_cost", 1)) if contours else 0.0
    ford = state.options.get("river_crossing", "bridges") == "fordable"
    adj_enemy = (
        {n for e in enemies for n in e.neighbours()} if voluntary and is_artillery(unit) else set()
    )
    # A search state is (hex, gap crossings in progress, must stop here): the gap rule and the
    # one-hex move (R16) make where a stand may go next depend on how it got where it is.
    cost: dict[Hex, float] = {}
    where: dict[Hex, tuple[Hex, frozenset, bool]] = {}

    def moves(
        st: tuple[Hex, frozenset, bool], c: float
    ) -> Iterator[tuple[tuple[Hex, frozenset, bool], float]]:
        u, pending, terminal = st
        if u != start and (u not in cost or c < cost[u]):
            cost[u], where[u] = c, st
        if terminal:
            return
        for v in u.neighbours():
            if v not in hexes or v in enemies or v == start:
                continue
            if road_only and not index.on_road(u, v):
                continue
            if v in adj_enemy:
                continue
            if entry_refusal(state, unit, index, u, v) is not None:
                continue
            step = 1.0 + contour_cost * index.contours(u, v)
            if ford and index.entry.get(v) == "river" and not index.on_road(u, v):
                step += 1.0
            nc = c + step
            stop = False
            if nc > budget + 1e-9:
                if not (min_move and u == start):
                    continue
                stop = True  # R16: one hex is always allowed, and ends the move
            g = gap.step(u, v, pending, start)
            if g is None:
                continue
            new_pending, gap_stop = g
            yield (v, new_pending, stop or gap_stop), nc

    begin: tuple[Hex, frozenset, bool] = (start, frozenset(), False)
    found = search(begin, moves, zero=0.0, fifo=True)
    paths = {h: tuple(x[0] for x in found.path_to(st)) for h, st in where.items()}
    return cost, paths


def gap_rule_for(state: StateLike, unit: Any, index: TerrainIndex) -> GapRule:
    """The :class:`GapRule` a stand of *unit*'s side moves under (enemy stands as they stand now)."""
    return _gap_rule(
        frozenset(enemy_hexes(state, unit.side)),
        index.obstacle,
        int(state.options.get("gap_span", 3)),
    )


@lru_cache(maxsize=64)
def _gap_rule(enemies: frozenset[Hex], obstacles: frozenset[Hex], span: int) -> GapRule:
    return GapRule(enemies, obstacles, span)


def reach(state: StateLike, unit: Any) -> MoveReach:
    """Every hex *unit* may legally end a move in now, with cost and path (§13).

    Does not look at whose activation it is or whether the stand has moved already (the order
    checks those); it does apply the morale-0 restriction (§9).
    """
    if unit.hex is None:
        return MoveReach(unit.id, None, 0)
    index = terrain_index(state)
    base = allowance(state, unit, index)
    mv = table(state, "movement")
    bonus = int(mv.get("road_bonus", 1))
    gap = gap_rule_for(state, unit, index)
    enemies = enemy_hexes(state, unit.side)
    min_move = bool(state.options.get("minimum_move", True))
    out = MoveReach(unit.id, unit.hex, base)
    common = dict(gap=gap, enemies=enemies, voluntary=True, contours=True, min_move=min_move)
    cost, paths = _search(state, unit, index, base, road_only=False, **common)
    rcost, rpaths = (
        _search(state, unit, index, base + bonus, road_only=True, **common) if bonus else ({}, {})
    )
    candidates: dict[Hex, tuple[float, tuple[Hex, ...], bool]] = {}
    for h, c in cost.items():
        candidates[h] = (c, paths[h], False)
    for h, c in rcost.items():
        if h not in candidates:
            candidates[h] = (c, rpaths[h], True)
    zero = morale_zero(state, unit)
    d0 = home_edge_distance(state, unit.side, unit.hex) if zero else None
    for h, (c, p, road) in candidates.items():
        why = stacking_refusal(state, unit, h)
        if why is None and zero:
            d = home_edge_distance(state, unit.side, h)
            if d0 is None or d is None or d >= d0:
                why = Refusal(
                    "morale-zero",
                    "the division's morale is 0: it may only move to withdraw from "
                    "the battlefield (toward its home edge)",
                    "9",
                )
        if why is not None:
            out.refused[h] = why
            continue
        out.cost[h] = c
        out.path[h] = p
        out.road[h] = road
    return out


def withdrawal(state: StateLike, unit: Any, away_from: Hex | None = None) -> tuple[Hex, ...] | None:
    """The path of a forced withdrawal (§13, §14), or ``None`` if the stand is destroyed.

    The stand must end at least ``withdraw_distance`` hexes (default 2: "one hex away", ruling
    R4) from every enemy stand, moving at least one and at most 4 hexes whatever its allowance;
    each hex counts one (roads and contours do not apply); it may not enter enemy hexes or
    terrain it may not enter (the "terrain obstacle" of §13), obeys the gap rule and must end
    where it may stack. Among the shortest such withdrawals it takes the one nearest its home
    edge, then farthest from *away_from*, then the first by hex order (ruling R4b).
    """
    if unit.hex is None:
        return None
    index = terrain_index(state)
    limit = int(table(state, "movement").get("withdrawal_limit", 4))
    need = int(state.options.get("withdraw_distance", 2))
    enemies = enemy_hexes(state, unit.side)
    gap = gap_rule_for(state, unit, index)
    cost, paths = _search(
        state,
        unit,
        index,
        limit,
        road_only=False,
        gap=gap,
        enemies=enemies,
        voluntary=False,
        contours=False,
        min_move=False,
    )
    ok = []
    for h, c in cost.items():
        if enemies and min(h.distance(e) for e in enemies) < need:
            continue
        if stacking_refusal(state, unit, h) is not None:
            continue
        edge = home_edge_distance(state, unit.side, h)
        away = -h.distance(away_from) if away_from is not None else 0
        ok.append((c, edge if edge is not None else 0, away, tuple(h), h))
    if not ok:
        return None
    return paths[min(ok)[-1]]
