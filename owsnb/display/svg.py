"""Static SVG drawings of hex grids (for notebooks, reports and places without widgets).

>>> from owsnb.kernel import GeoLayout, Hex
>>> lay = GeoLayout.from_size(20, "km", origin=(119.5, 24.0))
>>> svg = grid_svg(lay, Hex(0, 0).disc(2), labels={Hex(0, 0): "0101"})
>>> svg.startswith("<svg") and svg.count("<polygon") == 19
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["grid_svg", "SVG"]


class SVG(str):
    """A string of SVG that notebooks display as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


def grid_svg(
    layout: Any,
    hexes: Iterable[Any],
    *,
    fills: Mapping[Any, str] | None = None,
    labels: Mapping[Any, str] | None = None,
    marks: Mapping[Any, str] | None = None,
    width: int = 640,
    stroke: str = "#777",
    title: str = "",
) -> SVG:
    """Draw *hexes* of *layout* (lon/lat projected equirectangularly at the map's latitude).

    Args:
        layout: a :class:`~owsnb.kernel.geo.GeoLayout`.
        hexes: the hexes to draw.
        fills: hex -> fill colour (default light grey).
        labels: hex -> small text (e.g. printed labels).
        marks: hex -> a larger text drawn in the hex (unit ids, symbols).
        width: picture width in pixels (height follows the map's shape).
    """
    hexes = list(hexes)
    if not hexes:
        return SVG("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>")
    polys = layout.polygons(hexes)
    lat0 = float(polys[..., 1].mean()) if layout.projection != "simple" else 0.0
    kx = math.cos(math.radians(lat0)) if layout.projection != "simple" else 1.0
    xs, ys = polys[..., 0] * kx, polys[..., 1]
    x0, x1, y0, y1 = float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max())
    scale = (width - 8) / max(x1 - x0, 1e-9)
    height = int((y1 - y0) * scale) + 8

    def px(x: float, y: float) -> str:
        return f"{(x - x0) * scale + 4:.1f},{(y1 - y) * scale + 4:.1f}"

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}' font-family='sans-serif'>"
    ]
    if title:
        parts.append(f"<title>{html.escape(title)}</title>")
    size = scale * (layout.size_km / 111.0 if layout.projection != "simple" else layout.size_km)
    for h, pxs, pys in zip(hexes, xs, ys, strict=True):
        pts = " ".join(px(a, b) for a, b in zip(pxs, pys, strict=True))
        fill = html.escape((fills or {}).get(h, "#eeeeee"))
        parts.append(
            f"<polygon points='{pts}' fill='{fill}' stroke='{stroke}' stroke-width='0.6'/>"
        )
        cx, cy = float(pxs.mean()), float(pys.mean())
        c = px(cx, cy).split(",")
        if labels and h in labels and size > 14:
            parts.append(
                f"<text x='{c[0]}' y='{float(c[1]) - size * 0.25:.1f}' font-size='{max(6, size * 0.18):.1f}' "
                f"text-anchor='middle' fill='#555'>{html.escape(str(labels[h]))}</text>"
            )
        if marks and h in marks:
            parts.append(
                f"<text x='{c[0]}' y='{float(c[1]) + size * 0.12:.1f}' font-size='{max(7, size * 0.25):.1f}' "
                f"text-anchor='middle' font-weight='bold'>{html.escape(str(marks[h]))}</text>"
            )
    parts.append("</svg>")
    return SVG("".join(parts))
