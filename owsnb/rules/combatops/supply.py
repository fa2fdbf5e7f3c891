"""Supply (7.0-7.3, 5.1, 9.3, 9.6): tracing lines of supply to supply heads and headquarters.

A unit is in supply if it can trace an unblocked line to a scenario supply head, or to its
division's HQ (under the default ruling, E4) when that HQ is itself in supply (7.1). The line may
not enter an enemy-occupied hex, an enemy-ZOC hex without a friendly unit in it (5.1, errata 3.1),
a swamp hex except along a road (9.3), or cross a river except at a bridge (9.6). It must run
"towards the permissible supply points" (7.1): each step may not increase the distance to the
source (option ``supply_path``: ``toward``; ``strictly-toward``; ``any``). A supply head occupied
by an enemy unit supplies nobody. There is no length limit.

Out of supply (7.2): attack quartered, defense and movement halved, rounding down to a minimum of
1; out-of-supply units still exert ZOC (7.3). Status is determined once per game turn, in step 1
(7.0), and checked live for exploitation moves (10.0).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.state import StateLike, Unit, edge_key
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.terrain import bridges_now, map_info, occupied, parse_hex, zoc

__all__ = ["Supply", "supply_heads", "supply_of"]


def supply_heads(state: StateLike, side: str) -> list[Hex]:
    """The scenario's supply-head hexes of *side* (whether or not they supply now)."""
    return [parse_hex(state.map, x) for x in state.public.get("supply_heads", {}).get(side, ())]


class Supply:
    """Supply of one side in one position (work it out once, ask many times).

    Args:
        state: the truth or a view (it uses positions only).
        side: whose supply.
    """

    def __init__(self, state: StateLike, side: str):
        self.state = state
        self.side = side
        self.info = map_info(state.map)
        self.bridges = bridges_now(state)
        foe = next(s for s in state.sides if s != side)
        self.enemy_at = set(occupied(state, foe))
        self.friendly_at = set(occupied(state, side))
        self.enemy_zoc = zoc(state, foe)
        self.mode = state.options.get("supply_path", "toward")
        self.any_hq = state.options.get("supply_hq", "own-division") == "any"
        self._by_source: dict[Hex, set[Hex]] = {}
        self._supplied: dict[str | None, set[Hex]] = {}
        types = state.tables.get("unit_types", U.TYPES)
        self.heads = [h for h in supply_heads(state, side) if h not in self.enemy_at]
        head_set = self._union(self.heads)
        # 7.1: an HQ supplies only if it is itself in supply (traced to a supply head)
        self.hqs: dict[str, list[Hex]] = {}
        for u in state.units.values():
            if (
                u.side == side
                and u.hex is not None
                and u.alive
                and U.is_hq(u, types)
                and not U.is_dummy(u)
                and u.hex in head_set
            ):
                self.hqs.setdefault(str(u.data.get("division", "")), []).append(u.hex)
        self._supplied[None] = head_set

    # -- path rules ----------------------------------------------------------------------------
    def _open(self, h: Hex) -> bool:
        if h in self.enemy_at:
            return False
        return h not in self.enemy_zoc or h in self.friendly_at

    def _step_ok(self, a: Hex, b: Hex, src: Hex, *, a_is_start: bool) -> bool:
        """May a supply line step from *a* to *b* on its way to *src*?"""
        key = edge_key(a, b)
        if key in self.info.rivers and self.bridges.get(key) is None:
            return False
        on_road = key in self.info.roads
        terrain = self.info.terrain
        if not on_road and (
            terrain.get(b) == "swamp" or (terrain.get(a) == "swamp" and not a_is_start)
        ):
            return False
        if self.mode == "any":
            return True
        da, db = a.distance(src), b.distance(src)
        return db < da if self.mode == "strictly-toward" else db <= da

    def _from_source(self, src: Hex) -> set[Hex]:
        """Hexes a unit standing there could trace supply from to *src*."""
        got = self._by_source.get(src)
        if got is not None:
            return got
        inner: set[Hex] = set()
        if self._open(src):
            reached: dict[Hex, int] = {}

            def moves(cur: Hex, d: int) -> Iterator[tuple[Hex, int]]:
                for n in self.info.neighbours[cur]:
                    if (
                        n not in reached
                        and self._open(n)
                        and self._step_ok(n, cur, src, a_is_start=False)
                    ):
                        yield n, d + 1

            for h in search(src, moves, zero=0, fifo=True, labels=reached):
                inner.add(h)  # one by one, in the order reached: the set iterates as before
        out = set(inner)
        for y in inner:
            for x in self.info.neighbours[y]:
                if (
                    x not in out
                    and x not in self.enemy_at
                    and self._step_ok(x, y, src, a_is_start=True)
                ):
                    out.add(x)
        self._by_source[src] = out
        return out

    def _union(self, sources: list[Hex]) -> set[Hex]:
        out: set[Hex] = set()
        for s in sources:
            out |= self._from_source(s)
        return out

    # -- questions -----------------------------------------------------------------------------
    def hexes(self, division: str | None = None) -> set[Hex]:
        """Hexes where a unit of *division* would be in supply."""
        key = None if division is None else str(division)
        got = self._supplied.get(key)
        if got is None:
            srcs = list(self.heads)
            if self.any_hq:
                srcs += [h for hs in self.hqs.values() for h in hs]
            else:
                srcs += self.hqs.get(key, [])
            got = self._supplied[key] = self._union(srcs)
        return got

    def division_of(self, u: Unit) -> str:
        """The division whose HQ supplies *u* (its own, or the one it is attached to)."""
        return str(u.data.get("supply_division") or u.data.get("division", ""))

    def in_supply(self, u: Unit, at: Hex | None = None) -> bool:
        """Would *u* be in supply at *at* (default: where it is)?"""
        h = u.hex if at is None else at
        if h is None:
            return True
        return h in self.hexes(self.division_of(u))

    def status(self) -> dict[str, bool]:
        """Unit id -> in supply, for every on-map unit of the side."""
        return {
            u.id: self.in_supply(u)
            for u in self.state.units.values()
            if u.side == self.side and u.hex is not None and u.alive
        }


_CACHE: dict[tuple[int, str], tuple[Any, Supply]] = {}


def supply_of(state: StateLike, side: str) -> Supply:
    """The :class:`Supply` of *side* in *state*, worked out once per (immutable) state."""
    key = (id(state), side)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is state:
        return hit[1]
    if len(_CACHE) > 16:
        _CACHE.clear()
    sup = Supply(state, side)
    _CACHE[key] = (state, sup)
    return sup
