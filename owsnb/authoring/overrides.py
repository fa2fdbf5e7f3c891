"""A recipe's overrides on a grid: places (labels, lon/lat, boxes, rings) resolved to hexes, then
the features, terrain regions and edges they name, each bad one a located problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from owsnb.authoring.grid_fit import Grid
from owsnb.authoring.recipe import EdgeRecipe, FeatureRecipe, Problems, RegionRecipe
from owsnb.authoring.tracing import HEXSIDE_EDGES, HexCorners, trace_hexes, trace_hexsides
from owsnb.kernel.errors import InvalidHexError
from owsnb.kernel.hexgrid import Hex

__all__ = ["PlaceResolver", "feature_entries", "terrain_overrides", "edge_entries"]


class PlaceResolver:
    """Turns labels and lon/lat into hexes of one grid, collecting located problems."""

    def __init__(self, grid: Grid, problems: Problems):
        self.grid = grid
        self.problems = problems
        self.hexes = grid.hexes
        self.centres = grid.layout.centres(self.hexes)

    def label(self, lab: str, path: str) -> Hex | None:
        try:
            h = self.grid.offset.from_label(str(lab))
        except InvalidHexError as exc:
            self.problems.add(path, str(exc))
            return None
        if not self.grid.on_map(h):
            self.problems.add(
                path, f"hex {lab} is off the map ({self.grid.cols} columns x {self.grid.rows} rows)"
            )
            return None
        return h

    def point(self, lonlat: Sequence[float], path: str) -> Hex | None:
        lon, lat = float(lonlat[0]), float(lonlat[1])
        h = self.grid.hex_at(lon, lat)
        if h is None:
            self.problems.add(
                path, f"[{lon}, {lat}] is off the map (its extent is {self.grid.extent()})"
            )
        return h

    def place(self, ref: str | Sequence[float], path: str) -> Hex | None:
        return self.label(ref, path) if isinstance(ref, str) else self.point(ref, path)

    def region(self, reg: RegionRecipe, path: str) -> list[Hex]:
        out: list[Hex] = []
        for k, lab in enumerate(reg.hexes):
            h = self.label(lab, f"{path}.hexes[{k}]")
            if h is not None:
                out.append(h)
        if reg.rect:
            a, b = (
                self.label(reg.rect[0], f"{path}.rect[0]"),
                self.label(reg.rect[1], f"{path}.rect[1]"),
            )
            if a is not None and b is not None:
                (c0, r0), (c1, r1) = self.grid.offset.to_offset(a), self.grid.offset.to_offset(b)
                out += [
                    h
                    for h in self.hexes
                    if min(c0, c1) <= self.grid.offset.to_offset(h)[0] <= max(c0, c1)
                    and min(r0, r1) <= self.grid.offset.to_offset(h)[1] <= max(r0, r1)
                ]
        if reg.bbox:
            x0, y0, x1, y1 = reg.bbox
            lon, lat = self.centres[:, 0], self.centres[:, 1]
            out += [
                self.hexes[i]
                for i in np.nonzero((lon >= x0) & (lon <= x1) & (lat >= y0) & (lat <= y1))[0]
            ]
        if reg.around:
            c = self.place(reg.around[0], f"{path}.around[0]")
            if c is not None:
                out += [h for h in self.hexes if c.distance(h) <= int(reg.around[1])]
        if reg.at:
            h = self.point(reg.at, f"{path}.at")
            if h is not None:
                out.append(h)
        if reg.polygon:
            inside = _in_polygon(self.centres, np.asarray(reg.polygon, dtype=float))
            out += [self.hexes[i] for i in np.nonzero(inside)[0]]
        return list(dict.fromkeys(out))


def _in_polygon(pts: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """Even-odd rule: which points lie inside a lon/lat ring."""
    x, y = pts[:, 0], pts[:, 1]
    inside = np.zeros(len(pts), dtype=bool)
    xs, ys = ring[:, 0], ring[:, 1]
    for i in range(len(ring)):
        xa, ya, xb, yb = xs[i - 1], ys[i - 1], xs[i], ys[i]
        if ya == yb:
            continue
        cross = ((ya > y) != (yb > y)) & (x < xa + (y - ya) * (xb - xa) / (yb - ya))
        inside ^= cross
    return inside


def feature_entries(
    res: PlaceResolver, features: Sequence[FeatureRecipe], forcing: set[str]
) -> tuple[list[dict[str, Any]], set[Hex]]:
    """The map's feature entries, and the hexes a feature of a *forcing* type makes land (rule 2)."""
    grid, problems = res.grid, res.problems
    out_features: list[dict[str, Any]] = []
    forced: set[Hex] = set()
    seen: dict[tuple[Hex, str], int] = {}
    for j, f in enumerate(features):
        facts = f.model_dump(exclude_none=True)
        where = f"map.features[{j}].hex" if f.hex is not None else f"map.features[{j}].at"
        h = res.label(f.hex, where) if f.hex is not None else res.point(f.at, where)
        if h is None:
            continue
        if (h, f.type) in seen:
            k = seen[h, f.type]
            other = features[k].name or f"features[{k}]"
            problems.add(
                where,
                f"hex {grid.label(h)} already has a {f.type} ({other!r}, features[{k}]): a hex holds "
                "one feature of each type, so merge them into one entry (e.g. add the capacities)",
            )
            continue
        seen[h, f.type] = j
        if f.type in forcing:
            forced.add(h)
        entry: dict[str, Any] = {"hex": grid.label(h), "type": f.type}
        if f.name:
            entry["name"] = f.name
        entry.update(
            {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in facts.items()
                if k not in ("hex", "type", "name")
            }
        )
        out_features.append(entry)
    return out_features, forced


def terrain_overrides(
    res: PlaceResolver,
    terrain: Sequence[RegionRecipe],
    is_land_hex: dict[Hex, bool],
) -> tuple[dict[Hex, str], list[tuple[RegionRecipe, list[Hex]]]]:
    """The terrain each region overrides (later wins, rule 3) and the hexes each region found."""
    problems = res.problems
    override: dict[Hex, str] = {}
    regions: list[tuple[RegionRecipe, list[Hex]]] = []
    for j, reg in enumerate(terrain):
        path = f"map.terrain[{j}]"
        found = res.region(reg, path)
        if reg.only != "any":
            found = [h for h in found if is_land_hex[h] == (reg.only == "land")]
        if not found and not any(p.path.startswith(path) for p in problems.items):
            problems.add(
                path,
                f"region {reg.name or reg.terrain!r} matches no hex"
                + (f" that is {reg.only}" if reg.only != "any" else ""),
            )
        for h in found:
            override[h] = reg.terrain
        regions.append((reg, found))
    return override, regions


def edge_entries(res: PlaceResolver, edges: Sequence[EdgeRecipe]) -> list[dict[str, Any]]:
    """The map's edge entries: chains of hexes from labels, or traced from lon/lat lines."""
    grid, problems = res.grid, res.problems
    corners: HexCorners | None = None
    out_edges: list[dict[str, Any]] = []
    for j, e in enumerate(edges):
        facts = {
            k: v
            for k, v in e.model_dump(exclude_none=True).items()
            if k not in ("hexes", "line", "trace", "type", "name")
        }
        if e.hexes is not None:
            given = [res.label(lab, f"map.edges[{j}].hexes[{k}]") for k, lab in enumerate(e.hexes)]
            for k in range(len(given) - 1):
                a, b = given[k], given[k + 1]
                if a is not None and b is not None and a.distance(b) != 1:
                    problems.add(
                        f"map.edges[{j}].hexes[{k + 1}]",
                        f"{e.hexes[k]} and {e.hexes[k + 1]} are not adjacent",
                    )
            chains = [[h for h in given if h is not None]]
        else:
            along = e.trace == "hexsides" or (e.trace is None and e.type in HEXSIDE_EDGES)
            if along:
                corners = corners or HexCorners(grid)
                chains = trace_hexsides(grid, corners, e.line)
            else:
                chains = trace_hexes(grid, e.line)
            if not chains:
                problems.add(f"map.edges[{j}].line", f"{e.type} {e.name!r} does not cross the map")
        for chain in chains:
            entry = {
                "type": e.type,
                **({"name": e.name} if e.name else {}),
                "hexes": [grid.label(h) for h in chain],
                **facts,
            }
            out_edges.append(entry)
    return out_edges
