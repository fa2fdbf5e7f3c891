"""A quick static picture of a scenario map: hexes coloured by terrain, coast, features, edges.

Pure SVG written by hand (no plotting library), for notebooks and for checking a generated map
before the live ``MapView`` widget is at hand. Every name from the scenario is escaped.

Example:
    >>> from owsnb.authoring.generate import new_scenario
    >>> scn = new_scenario("demo", "Demo", ruleset="skirmish", bbox=(127.6, 26.1, 128.0, 26.4),
    ...                    hex_size=10, is_land=lambda lon, lat: lon > 127.8,
    ...                    features=[{"type": "port", "at": [127.9, 26.2], "name": "Naha <port>"}])
    >>> pic = map_picture(scn, coast=False)
    >>> pic
    <MapPicture 'demo': 25 hexes, 1 features, 0 edges>
    >>> pic.svg.startswith("<svg") and "Naha &lt;port&gt;" in pic.svg
    True
"""

from __future__ import annotations

import html
import json
import math
import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from owsnb.kernel.errors import InvalidHexError
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem

__all__ = ["MapPicture", "map_picture", "TERRAIN_COLOURS"]

#: Fill colour per terrain (others get a colour derived from the name).
TERRAIN_COLOURS = {
    "deep-sea": "#2f5f9e",
    "littoral": "#9cc9ec",
    "clear": "#ece6c8",
    "forest": "#6f9a57",
    "hills": "#c9ad78",
    "mountain": "#9b8872",
    "urban": "#a3a3a3",
    "marsh": "#8db5a4",
    "rough": "#bfa98f",
    "desert": "#f1dca0",
    "jungle": "#3f7a3a",
}
_EDGE_STYLE = {
    "river": 'stroke="#1f6fd1" stroke-width="2.2"',
    "major-river": 'stroke="#1f6fd1" stroke-width="3.2"',
    "minor-river": 'stroke="#1f6fd1" stroke-width="1.4"',
    "canal": 'stroke="#1f6fd1" stroke-width="1.6"',
    "road": 'stroke="#8a4b16" stroke-width="1.6"',
    "highway": 'stroke="#c0392b" stroke-width="2.2"',
    "rail": 'stroke="#222" stroke-width="1.4" stroke-dasharray="4 2"',
}
_SIDE_EDGES = {"river", "major-river", "minor-river", "canal"}


def _colour(terrain: str) -> str:
    if terrain in TERRAIN_COLOURS:
        return TERRAIN_COLOURS[terrain]
    h = sum(ord(c) * (i + 1) for i, c in enumerate(terrain)) % 360
    return f"hsl({h},35%,65%)"


class MapPicture:
    """An SVG picture of a map; shows itself in Jupyter, ``save(path)`` writes it."""

    def __init__(
        self, svg: str, title: str, counts: Mapping[str, int], n_features: int, n_edges: int
    ):
        self.svg = svg
        self.title = title
        self.counts = dict(counts)
        self.n_features = n_features
        self.n_edges = n_edges

    def __repr__(self) -> str:
        return (
            f"<MapPicture {self.title!r}: {sum(self.counts.values())} hexes, {self.n_features} features, "
            f"{self.n_edges} edges>"
        )

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | os.PathLike) -> Path:
        """Write the SVG file."""
        p = Path(path)
        p.write_text(self.svg, encoding="utf-8")
        return p


def _map_parts(source: Any) -> tuple[str, Any, Path | None]:
    """(title, map object or dict, scenario file folder) from whatever was given."""
    from owsnb.scenario.loader import Scenario, load_scenario

    if hasattr(source, "state") and hasattr(source.state, "map"):  # a Game
        source = source.state
    if hasattr(source, "map") and hasattr(source.map, "hexes") and hasattr(source.map, "layout"):
        meta = source.scenario if hasattr(source, "scenario") else {}
        file = meta.get("file") if isinstance(meta, Mapping) else None
        return (
            str(meta.get("id", "map")) if isinstance(meta, Mapping) else "map",
            source.map,
            Path(file).parent if file else None,
        )
    if isinstance(source, (str, os.PathLike)):
        source = load_scenario(source)
    if isinstance(source, Scenario):
        return (
            source.spec.id,
            source.spec.map.model_dump(),
            source.path.parent if source.path else None,
        )
    if isinstance(source, Mapping):
        if "map" in source:
            return str(source.get("id", "map")), source["map"], None
        return "map", source, None
    raise TypeError(
        f"cannot draw {type(source).__name__}: give a scenario dict, path, Scenario, Game or state"
    )


def _resolve(
    m: Any,
) -> tuple[
    GeoLayout,
    OffsetSystem,
    dict[Hex, str],
    list[tuple[Hex, str, str]],
    list[tuple[Hex, Hex, str]],
    dict[str, Any],
]:
    """Layout, offsets, terrain per hex, features and edges of a map (MapState or map dict)."""
    if not isinstance(m, Mapping):  # a kernel MapState
        terrain = {h: info.terrain for h, info in m.hexes.items()}
        feats = [
            (h, t, str((facts or {}).get("name", "")))
            for h, info in m.hexes.items()
            for t, facts in info.features.items()
        ]
        edges = [(a, b, t) for (a, b), facts in m.edges.items() for t in facts]
        return m.layout, m.offset, terrain, feats, edges, dict(m.meta)
    from owsnb.scenario.loader import _region_hexes
    from owsnb.scenario.schema import MapSpec

    spec = MapSpec.model_validate(m)
    lay = spec.layout
    lab = spec.labels
    offset = OffsetSystem(lay.orientation, lab.parity, lab.first_col, lab.first_row, lab.digits)
    anchor = Hex(0, 0)  # as the loader reads layout.anchor
    if lay.anchor == "centre" and spec.cols and spec.rows:
        anchor = offset.from_offset(
            lab.first_col + (spec.cols - 1) // 2, lab.first_row + (spec.rows - 1) // 2
        )
    elif lay.anchor:
        anchor = offset.from_label(lay.anchor)
    layout = GeoLayout.from_size(
        lay.size,
        unit=lay.unit,
        origin=lay.origin or (0.0, 0.0),
        orientation=lay.orientation,
        projection=lay.projection if lay.origin is not None else "simple",
        anchor=(anchor.q, anchor.r),
    )
    cells = (
        [offset.from_label(x) for x in spec.hexes]
        if spec.hexes is not None
        else offset.rectangle(spec.cols, spec.rows)
    )
    on_map = set(cells)

    def hex_of(label: str, path: Any) -> Hex | None:
        try:
            h = offset.from_label(str(label))
        except InvalidHexError:
            return None
        return h if h in on_map else None

    terrain = {h: spec.terrain.default for h in cells}
    for reg in spec.terrain.regions:
        for rh in _region_hexes(reg, offset, layout, cells, hex_of, []):
            terrain[rh] = reg.terrain
    for label, t in spec.terrain.hexes.items():
        h = hex_of(label, None)
        if h is not None:
            terrain[h] = t
    feats = [(h, f.type, f.name) for f in spec.features if (h := hex_of(f.hex, None)) is not None]
    edges = []
    for e in spec.edges:
        chain = [hex_of(x, None) for x in e.hexes]
        edges += [
            (a, b, e.type)
            for a, b in zip(chain[:-1], chain[1:], strict=True)
            if a is not None and b is not None and a.distance(b) == 1
        ]
    return layout, offset, terrain, feats, edges, dict(spec.meta)


def map_picture(
    source: Any,
    *,
    coast: bool | str | os.PathLike | Mapping[str, Any] | None = None,
    width: int = 720,
    labels: bool | None = None,
) -> MapPicture:
    """Draw a map as SVG.

    Args:
        source: a scenario dict (e.g. from :func:`~owsnb.authoring.generate.new_scenario`), a
            scenario file or name, a loaded ``Scenario``, a ``Game`` or a game state.
        coast: the coastline/borders layer: ``None`` uses ``map.meta.coast`` if the file is
            found, ``True`` computes it from Natural Earth (:mod:`owsnb.authoring.coast`),
            ``False`` draws none; a path or a GeoJSON dict is used as given.
        width: picture width in pixels.
        labels: print hex labels (default: when the map has at most 600 hexes).
    """
    title, m, folder = _map_parts(source)
    layout, offset, terrain, feats, edges, meta = _resolve(m)
    hexes = list(terrain)
    polys = layout.polygons(hexes)
    lon0, lat0 = float(polys[..., 0].min()), float(polys[..., 1].max())
    k = (
        math.cos(math.radians(float(polys[..., 1].mean())))
        if layout.projection != "simple"
        else 1.0
    )
    w_deg = (float(polys[..., 0].max()) - lon0) * k
    h_deg = lat0 - float(polys[..., 1].min())
    scale = (width - 20) / max(w_deg, 1e-9)
    height = int(h_deg * scale) + 20
    legend_h = 22

    def xy(lon: Any, lat: Any) -> tuple[Any, Any]:
        return 10 + (np.asarray(lon) - lon0) * k * scale, 10 + (lat0 - np.asarray(lat)) * scale

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + legend_h}" '
        f'viewBox="0 0 {width} {height + legend_h}" font-family="system-ui,sans-serif">',
        f"<title>{html.escape(title)}</title>",
        f'<rect width="{width}" height="{height + legend_h}" fill="#fff"/>',
    ]
    for h, poly in zip(hexes, polys, strict=True):
        px, py = xy(poly[:, 0], poly[:, 1])
        pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in zip(px, py, strict=True))
        out.append(
            f'<polygon points="{pts}" fill="{_colour(terrain[h])}" stroke="#fff" stroke-width="0.4"/>'
        )
    fc = _coast(coast, meta, folder)
    if fc:
        for f in fc.get("features", []):
            kind = (f.get("properties") or {}).get("kind", "coast")
            style = (
                'stroke="#333" stroke-width="0.8"'
                if kind == "coast"
                else 'stroke="#7a2e8e" stroke-width="0.9" stroke-dasharray="5 3"'
            )
            geom = f.get("geometry") or {}
            lines = (
                geom.get("coordinates", [])
                if geom.get("type") == "MultiLineString"
                else [geom.get("coordinates", [])]
            )
            for line in lines:
                if len(line) < 2:
                    continue
                arr = np.asarray(line, dtype=float)
                px, py = xy(arr[:, 0], arr[:, 1])
                d = "M" + " L".join(f"{a:.1f},{b:.1f}" for a, b in zip(px, py, strict=True))
                out.append(f'<path d="{d}" fill="none" {style}/>')
    index = {h: i for i, h in enumerate(hexes)}
    for a, b, t in edges:
        style = _EDGE_STYLE.get(t, 'stroke="#555" stroke-width="1.2"')
        if t in _SIDE_EDGES:
            pa = {tuple(p) for p in polys[index[a]].tolist()}
            shared = [p for p in polys[index[b]].tolist() if tuple(p) in pa]
            if len(shared) != 2:
                continue
            (x1, y1), (x2, y2) = (xy(*p) for p in shared)
        else:
            (x1, y1), (x2, y2) = xy(*layout.centre(a)), xy(*layout.centre(b))
        out.append(
            f'<line x1="{float(x1):.1f}" y1="{float(y1):.1f}" x2="{float(x2):.1f}" y2="{float(y2):.1f}" '
            f'{style} stroke-linecap="round"/>'
        )
    show_labels = labels if labels is not None else len(hexes) <= 600
    if show_labels:
        fs = max(
            5.0,
            min(
                10.0,
                layout.size_km * k * scale / 111.2 / 4.5 if layout.projection != "simple" else 8,
            ),
        )
        for h in hexes:
            try:
                lab = offset.to_label(h)
            except (InvalidHexError, ValueError):
                continue
            cx, cy = xy(*layout.centre(h))
            out.append(
                f'<text x="{float(cx):.1f}" y="{float(cy) - fs * 0.6:.1f}" font-size="{fs:.1f}" '
                f'text-anchor="middle" fill="#0008">{lab}</text>'
            )
    by_hex: dict[Hex, list[tuple[str, str]]] = {}
    for h, t, name in feats:
        by_hex.setdefault(h, []).append((t, name))
    for h, items in by_hex.items():
        cx0, cy = (float(v) for v in xy(*layout.centre(h)))
        for i, (t, name) in enumerate(items):
            cx = cx0 + (i - (len(items) - 1) / 2) * 9
            if t == "port":
                shape = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#fff" stroke="#0b3d91" stroke-width="2"/>'
            elif t in ("airfield", "airbase", "airstrip"):
                shape = (
                    f'<path d="M{cx - 5:.1f},{cy:.1f} L{cx + 5:.1f},{cy:.1f} M{cx:.1f},{cy - 5:.1f} '
                    f'L{cx:.1f},{cy + 5:.1f}" stroke="#111" stroke-width="2.2"/>'
                )
            else:
                shape = f'<rect x="{cx - 3:.1f}" y="{cy - 3:.1f}" width="6" height="6" fill="#c0392b" stroke="#fff"/>'
            out.append(f"<g><title>{html.escape(t)}: {html.escape(name)}</title>{shape}</g>")
        names = " · ".join(dict.fromkeys(n for _, n in items if n))
        if names:
            out.append(
                f'<text x="{cx0 + 4.5 * len(items) + 2:.1f}" y="{cy + 10:.1f}" font-size="9" fill="#111" '
                f'stroke="#fff" stroke-width="2.5" paint-order="stroke">{html.escape(names)}</text>'
            )
    counts = Counter(terrain.values())
    x = 10
    for t, n in counts.most_common():
        out.append(
            f'<rect x="{x}" y="{height + 5}" width="12" height="12" fill="{_colour(t)}" stroke="#666"/>'
        )
        label = f"{html.escape(t)} {n}"
        out.append(f'<text x="{x + 16}" y="{height + 15}" font-size="11">{label}</text>')
        x += 16 + 7 * len(f"{t} {n}") + 12
    out.append("</svg>")
    return MapPicture("\n".join(out), title, counts, len(feats), len(edges))


def _coast(coast: Any, meta: Mapping[str, Any], folder: Path | None) -> dict[str, Any] | None:
    if coast is False:
        return None
    if isinstance(coast, Mapping):
        return dict(coast)
    if isinstance(coast, (str, os.PathLike)):
        return json.loads(Path(coast).read_text(encoding="utf-8"))
    rel = meta.get("coast")
    if coast is None and rel and folder is not None and (folder / str(rel)).is_file():
        return json.loads((folder / str(rel)).read_text(encoding="utf-8"))
    box = meta.get("extent") or meta.get("bbox")
    if (coast is True or coast is None) and box:
        from owsnb.authoring.coast import background_geojson

        return background_geojson(box, simplify_km=1.0, precision=3)
    return None
