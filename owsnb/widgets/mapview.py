"""MapView: the hex map (ipyleaflet) — grid drawn once, small overlays for everything that changes.

Layers, bottom to top:

* an optional online basemap (off by default: everything works offline);
* **grid** — one GeoJSON layer sent once: same-terrain hexes dissolved into one feature per
  terrain (styled by the rule set's ``terrain_style``), the hex edges as chained lines, and
  hexside features (rivers, roads) along their edges;
* **hex overlay** — the rule set's own per-hex layer (``hex_overlay(view)``: each hex's owner in
  TOCS, zones of control, supply...), hexes of the same style and label dissolved into one shape;
  sent again only when it changes; a hex's label shows in the status line when it is selected;
* **coast** — the scenario's offline coastline, when :mod:`owsnb.authoring.coast` provides one;
* **labels** — printed hex labels and place names as one SVG image laid over the map, shown only
  when hexes are big enough on screen to read them;
* small overlays, each its own GeoJSON layer: **detections** (contacts), **reach** and **ranges**
  of the selected unit — or of the table's what-if unit — (the rule set's ``reach``/``ranges``
  hooks), **selection**, the **arrow** of the order being prepared, and **others**: what another
  seat (the computer) was seen doing (the table's ``marks``: orange dashed arrows, rings on
  the hexes it acted on);
* **units**: one marker per stack; the counter is the rule set's ``counter_svg`` (face-down
  "unknown" counters are whatever the view policy shows); a stack shows its top counter, its
  depth and a count, and clicking it opens a tray listing the whole stack;
* **notes**: annotation pins.

The map never re-sends the grid: an update changes only the overlay that changed (markers are
matched to stacks so a move only changes a marker's location). Clicks on the map select hexes and
counters (see :meth:`owsnb.widgets.table.Table.pick`). Abstract boards (``projection: simple``)
use Leaflet's ``Simple`` CRS.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> mv = MapView(tiny_game(), seat="blue")
    >>> sorted(mv.overlays)
    ['arrow', 'detections', 'others', 'ranges', 'reach', 'route', 'selection']
    >>> mv.table.pick(hex="0101"); mv.table.unit
    'B-1'
    >>> [f["properties"]["label"] for f in mv.overlays["selection"].data["features"]]
    ['0101']
"""

from __future__ import annotations

import hashlib
import html
import json
import math
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ipyleaflet as L
import ipywidgets as W
import traitlets as T

from owsnb.display.palette import terrain_style
from owsnb.display.symbols import MIN_PX, counter_svg
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import UMPIRE
from owsnb.widgets import geometry as G
from owsnb.widgets.controls import button, checkbox
from owsnb.widgets.measure import RANGE_COLOURS, Measure
from owsnb.widgets.panel import Panel
from owsnb.widgets.params import is_unit
from owsnb.widgets.table import Table
from owsnb.widgets.wire import widget_tree

__all__ = ["MapView", "StaticGeoJSON", "EDGE_STYLES", "RANGE_COLOURS", "COAST_STYLES"]

EDGE_STYLES: dict[str, dict[str, Any]] = {
    "river": {"color": "#2b8cbe", "weight": 3.5, "opacity": 0.9},
    "road": {"color": "#8c6d31", "weight": 2.5, "opacity": 0.9},
    "rail": {"color": "#374151", "weight": 2, "dashArray": "6 3", "opacity": 0.9},
    "border": {"color": "#7c3aed", "weight": 2, "dashArray": "8 4", "opacity": 0.8},
}
"""Line styles of hexside features by type (others: thin grey)."""

COAST_STYLES: dict[str, dict[str, Any]] = {
    "coast": {"color": "#1e3a5f", "weight": 1.3, "opacity": 0.9, "fill": False},
    "border": {
        "color": "#6b21a8",
        "weight": 1.2,
        "opacity": 0.8,
        "dashArray": "5 4",
        "fill": False,
    },
}
"""Styles of the offline background lines by kind."""


SPARE_ICONS = 4
"""Counter icons kept for re-use (a redraw that changes more counters makes new ones)."""

ZOOM_SNAP = 0.1
"""Zoom steps: fine enough that a fitted map fills its panel to within 7%."""

COUNTER_FILL = 0.72
"""A counter's side as a fraction of its hex's height: the largest square inside the hex."""

PROJECTOR = 1.5
"""How much larger counters, badges and texts are in projector mode."""

MAP_CSS = (
    "<style>.owsnb-map .leaflet-div-icon{background:none;border:none}"
    ".owsnb-stack{position:absolute;left:50%;top:50%;width:var(--owsnb-cs,46px);"
    "height:var(--owsnb-cs,46px);transform:translate(-50%,-50%);line-height:0;cursor:pointer}"
    ".owsnb-stack>div,.owsnb-stack>i{position:absolute;left:0;top:0;width:100%;height:100%;"
    "box-sizing:border-box}"
    ".owsnb-stack>i{background:#e5e7eb;border:1.5px solid #374151;border-radius:7%}"
    ".owsnb-stack>i.owsnb-sh1{transform:translate(4px,-4px)}"
    ".owsnb-stack>i.owsnb-sh2{transform:translate(8px,-8px)}"
    ".owsnb-badge{position:absolute;right:-10px;bottom:-10px;min-width:14px;text-align:center;"
    "background:#111827;color:#fff;border:1.5px solid #fff;border-radius:10px;"
    "font:bold var(--owsnb-badge,12px)/1 system-ui,sans-serif;padding:2px 5px}"
    ".owsnb-chip.widget-button{height:auto;min-width:calc(var(--owsnb-cm,46px) + 12px);"
    "padding:calc(var(--owsnb-cm,46px) + 4px) 4px 2px 4px;margin:2px 3px;line-height:1.1;"
    "background-repeat:no-repeat;background-position:center 3px;"
    "background-size:var(--owsnb-cm,46px) var(--owsnb-cm,46px);"
    "font-size:var(--owsnb-chip-font,12px)}"
    ".owsnb-boxes{font:13px system-ui,sans-serif}.owsnb-boxes b{margin-right:4px}</style>"
)
"""The map's stylesheet (sent once): counters centred on their hex at the size the map sets."""

_MERCATOR_EQUATOR_M = 2 * math.pi * 6378137.0


class StaticGeoJSON(L.GeoJSON):
    """A GeoJSON layer whose shapes ignore the mouse: clicks fall through to the map (which picks
    the hex under the pointer), and hovering never sends a feature back to the kernel."""

    interactive = T.Bool(False).tag(sync=True, o=True)


def _feature(geometry: dict, style: Mapping[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": {**props, "style": dict(style)}, "geometry": geometry}


def _halo(layout: GeoLayout, h: Hex, k: float) -> dict[str, Any]:
    """Hex *h*'s outline scaled *k* times about its centre (a GeoJSON ``Polygon``)."""
    cx, cy = layout.centre(h)
    ring = G.hex_outline(layout, h)["coordinates"][0]
    return {
        "type": "Polygon",
        "coordinates": [[[cx + (x - cx) * k, cy + (y - cy) * k] for x, y in ring]],
    }


def _collection(features: list[dict]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


class MapView(Panel):
    """The live hex map of one seat (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is drawn when *source* is a Game.
        basemap: start with the online basemap on (needs internet; off by default).
        coast: cut a coastline from the vendored world file when the scenario has none of its own.
        counter_size: the smallest on-screen size of a counter (px); counters fill their hex
            at every zoom and never get smaller (every text on them is then >= 9 px).
        height: the map's CSS height (any CSS length: ``"560px"``, ``"calc(100vh - 140px)"``).
        label_px: hex numbers show when a hex is at least this many pixels across (and the
            "hex numbers" box is ticked).
        projector: start in projector mode (larger counters and badges, for a class).
        tray: show the units off the map under it (``False``: the caller places
            :attr:`boxes` elsewhere, as the App does beside the map).
    """

    def __init__(
        self,
        source: Any,
        seat: str | None = None,
        *,
        basemap: bool = False,
        coast: bool = False,
        counter_size: int = MIN_PX,
        height: str = "540px",
        label_px: float = 26.0,
        projector: bool = False,
        tray: bool = True,
    ):
        self.table = Table.of(source, seat)
        view = self.table.view
        self.geo: GeoLayout = view.map.layout or GeoLayout(
            view.map.offset.orientation, 10.0, projection="simple"
        )
        self.counter_size = counter_size
        self.label_px = label_px
        self.scale = PROJECTOR if projector else 1.0
        self.hexes = list(view.map.hexes)
        self._markers: dict[tuple[str, ...], L.Marker] = {}
        self._spares: list[L.DivIcon] = []  # counter icons given up, re-filled for the next change
        self._spares_seat: Any = self.table.seat
        self._pins: dict[int, L.Marker] = {}
        self._basemap: L.TileLayer | None = None

        simple = self.geo.projection == "simple"
        px = height[:-2] if height.endswith("px") else ""
        center, zoom = self._home(int(float(px)) if px.replace(".", "").isdigit() else 560)
        self.map = L.Map(
            layers=(),
            crs=L.projections.Simple if simple else L.projections.EPSG3857,
            center=center,
            zoom=zoom,
            zoom_snap=ZOOM_SNAP,
            zoom_delta=0.5,
            scroll_wheel_zoom=True,
            attribution_control=False,
            min_zoom=zoom - 4,
            max_zoom=zoom + 6,
            layout=W.Layout(height=height, width="100%"),
        )
        self.home = (center, zoom)
        self._fitted: tuple[Any, ...] = (center, zoom, None)  # the view the map was last fitted to
        self._arrow_of: Any = None  # the order whose arrow is drawn
        self.grid = StaticGeoJSON(data=self._grid_data(), name="grid")
        self.hex_overlay = StaticGeoJSON(data=_collection([]), name="hex overlay")
        self._hex_labels: dict[Hex, str] = {}
        self._hex_styles: Any = None  # the hook's last answer: redrawn when it differs
        layers: list[Any] = [self.grid, self.hex_overlay]
        self.coast = self._coast_layer(compute=coast)
        if self.coast is not None:
            layers.append(self.coast)
        url, bounds = G.labels_image(
            self.geo, {h: view.map.label(h) for h in self.hexes}, self._place_names()
        )
        self.labels = L.ImageOverlay(
            url=url, bounds=bounds, name="labels", visible=self._labels_visible(zoom)
        )
        layers.append(self.labels)
        self.overlays: dict[str, StaticGeoJSON] = {
            name: StaticGeoJSON(data=_collection([]), name=name)
            for name in ("detections", "reach", "ranges", "route", "selection", "arrow", "others")
        }
        layers += self.overlays.values()
        self.measure = Measure(self)  # ring badges, leg labels and their legend (measure.py)
        layers.append(self.measure.labels)
        self.units = L.LayerGroup(name="units")
        self.notes = L.LayerGroup(name="notes")
        layers += [self.units, self.notes]
        with self.map.hold_sync():
            for layer in layers:
                self.map.add(layer)
        self.map.on_interaction(self._on_interaction)
        self.map.observe(self._on_zoom, "zoom")
        self.map.observe(self._on_size, "pixel_bounds")
        self.key = f"owsnb-map-{id(self):x}"
        self.css = W.HTML(MAP_CSS, layout=W.Layout(display="none"))
        self.sizes = W.HTML(self._sizes_css(zoom), layout=W.Layout(display="none"))

        self.tray = W.HBox(layout=W.Layout(flex_flow="row wrap", max_width="420px"))
        self.tray_control = L.WidgetControl(widget=self.tray, position="topright")
        self.status = W.HTML(layout=W.Layout(min_height="22px"))
        self.labels_toggle = checkbox(
            "hex numbers", value=True, tooltip="show each hex's number (when hexes are big enough)"
        )
        self.labels_toggle.observe(lambda _: self._on_zoom({"new": self.map.zoom}), "value")
        self.boxes = W.HBox(layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.boxes.add_class("owsnb-boxes")
        self.boxes.add_class(f"{self.key}-boxes")
        self._box_key: Any = None
        self._box_items: dict[str, W.Button] = {}
        self._tray_items: dict[str, W.Button] = {}
        self.basemap_toggle = checkbox(
            "online basemap",
            tooltip="draws OpenStreetMap tiles under the grid (needs internet)",
            disabled=simple,
        )
        self.basemap_toggle.observe(self._on_basemap, "value")
        self.home_button = button(
            "", self.reset_view, icon="home", tooltip="back to the whole map", width="36px"
        )
        bar = W.HBox(
            [self.home_button, self.labels_toggle, self.basemap_toggle, self.status],
            layout=W.Layout(align_items="center", flex_flow="row wrap"),
        )
        self._tray_outside = not tray
        super().__init__(
            [self.css, self.sizes, self.map, *([self.boxes] if tray else []), bar],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-map")
        self.add_class(self.key)
        self.table.hold(self)
        self.watch(self._on_view, ["revision"])
        self.watch(self._on_selection, ["hex", "stack"])
        self.watch(self._on_unit, ["unit", "show_reach", "show_ranges", "what_if"])
        self.watch(self._on_order, ["order"])
        self.watch(lambda _: self._draw_others(), ["marks"])
        self.watch(self.measure.draw_route, ["hex", "measuring"])
        self.redraw()
        if basemap:
            self.basemap_toggle.value = True

    # -- geometry ------------------------------------------------------------------------------
    def _home(self, height_px: int, width_px: int = 760) -> tuple[list[float], float]:
        w, s, e, n = self.geo.bounds(self.hexes)
        (x0, x1), (y0, y1) = [G.lonlat_to_pixels(self.geo, [w, e], [s, n])[i] for i in (0, 1)]
        dx, dy = max(float(x1 - x0), 1e-9), max(float(y1 - y0), 1e-9)
        if self.geo.projection != "simple":  # Web Mercator: the world is 256 px wide at zoom 0
            dx, dy = dx * 256 / _MERCATOR_EQUATOR_M, dy * 256 / _MERCATOR_EQUATOR_M
        fit = math.log2(0.97 * min(width_px / dx, height_px / dy))  # a margin of 1.5% a side
        zoom = round(math.floor(fit / ZOOM_SNAP) * ZOOM_SNAP, 4)
        return [(s + n) / 2, (w + e) / 2], zoom

    def hex_px(self, zoom: float | None = None) -> float:
        """How many screen pixels a hex measures across at *zoom* (default: the map's zoom)."""
        z = self.map.zoom if zoom is None else zoom
        if self.geo.projection == "simple":
            return self.geo.size_km * 2**z
        lat = math.radians(self.geo.origin[1])
        return self.geo.size_km * 1000 / (_MERCATOR_EQUATOR_M * math.cos(lat)) * 256 * 2**z

    def _labels_visible(self, zoom: float) -> bool:
        shown = getattr(self, "labels_toggle", None)
        return (shown is None or shown.value) and self.hex_px(zoom) >= self.label_px

    def counter_px(self, zoom: float | None = None) -> float:
        """A counter's on-screen size at *zoom*: it fills its hex, never below ``counter_size``
        (times 1.5 in projector mode)."""
        low = self.counter_size * self.scale
        return max(low, min(self.hex_px(zoom) * COUNTER_FILL, 4 * low))

    def _sizes_css(self, zoom: float) -> str:
        cs = self.counter_px(zoom)
        return (
            f"<style>.{self.key},.{self.key}-boxes{{--owsnb-cs:{cs:.0f}px;"
            f"--owsnb-cm:{self.counter_size * self.scale:.0f}px;"
            f"--owsnb-badge:{12 * self.scale:.0f}px;--owsnb-chip-font:{12 * self.scale:.0f}px}}"
            "</style>"
        )

    def set_projector(self, on: bool = True) -> None:
        """Projector mode: counters, badges and trays 1.5 times larger (for a class)."""
        self.scale = PROJECTOR if on else 1.0
        self._on_zoom({"new": self.map.zoom})

    def fit(self, width_px: float, height_px: float) -> None:
        """Fit the whole scenario to a map panel of this size (what the browser reports on first
        paint, and again when the panel changes size before anyone moved the map)."""
        center, zoom = self._home(int(height_px), int(width_px))
        self.home = (center, zoom)
        with self.map.hold_sync():
            self.map.min_zoom = min(self.map.min_zoom, zoom - 4)
            self.map.center = center
            self.map.zoom = zoom
        self._fitted = (tuple(self.map.center), self.map.zoom, (width_px, height_px))

    def _on_size(self, change: dict) -> None:
        try:
            (left, top), (right, bottom) = change["new"]
        except (TypeError, ValueError):
            return
        w, h = right - left, bottom - top
        if w < 50 or h < 50 or w > 1e6:  # not laid out yet (a hidden tab, the curtain)
            return
        center, zoom, size = self._fitted
        if size is not None and abs(size[0] - w) < 8 and abs(size[1] - h) < 8:
            return
        # the browser reports the centre back rounded to its pixels: a pan moves it more than
        # three pixels (in degrees, or in the units of an abstract board)
        per_px = self.geo.size_km / max(self.hex_px(), 1e-9)
        tol = 3 * per_px / (1.0 if self.geo.projection == "simple" else 111.0)
        moved = size is not None and (
            abs(self.map.zoom - zoom) > 1e-3
            or any(abs(a - b) > tol for a, b in zip(self.map.center, center, strict=False))
        )
        if not moved:  # nobody zoomed or panned since the last fit: fill the panel again
            self.fit(w, h)

    def _place_names(self) -> dict[Hex, str]:
        out = {}
        for h, info in self.table.view.map.hexes.items():
            for facts in info.features.values():
                name = facts.get("name") if isinstance(facts, Mapping) else None
                if name:
                    out[h] = str(name)
                    break
        return out

    def _grid_data(self) -> dict[str, Any]:
        view = self.table.view
        rs = self.table.presentation
        by_terrain: dict[str, list[Hex]] = {}
        for h, info in view.map.hexes.items():
            by_terrain.setdefault(info.terrain, []).append(h)
        feats = []
        for terrain, hs in sorted(by_terrain.items(), key=lambda kv: -len(kv[1])):
            style = {**terrain_style(rs, terrain), "stroke": False}
            feats.append(_feature(G.dissolve(self.geo, hs), style, terrain=terrain))
        feats.append(
            _feature(
                G.grid_lines(self.geo, self.hexes),
                {
                    "color": "#6b7280",
                    "weight": 0.7,
                    "opacity": 0.8,
                    "fill": False,
                    "className": "owsnb-grid",
                },
                kind="grid",
            )
        )
        by_edge: dict[str, list[tuple[Hex, Hex]]] = {}
        for (a, b), facts in view.map.edges.items():
            for kind in facts:
                by_edge.setdefault(str(kind), []).append((a, b))
        for kind, pairs in sorted(by_edge.items()):
            style = EDGE_STYLES.get(kind, {"color": "#4b5563", "weight": 2, "opacity": 0.8})
            feats.append(
                _feature(G.hexside_lines(self.geo, pairs), {**style, "fill": False}, kind=kind)
            )
        return _collection(feats)

    def _coast_layer(self, compute: bool = False) -> Any:
        """The offline coastline and borders: the scenario's own file (``map.meta.coast``, next to
        the scenario), or — with ``coast=True`` — cut from the vendored world file by
        :mod:`owsnb.authoring.coast` (guarded: a map without one simply has none)."""
        view = self.table.view
        data = None
        from owsnb.scenario.loader import scenario_path

        rel = view.map.meta.get("coast")
        where = scenario_path(view, getattr(self.table.seat, "scenario_file", None))
        if rel and where:
            path = Path(str(where)).parent / str(rel)
            if path.is_file():
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    data = None
        if data is None and compute and self.geo.projection != "simple":
            try:
                from owsnb.authoring.coast import background_geojson
            except ImportError:
                return None
            data = background_geojson(
                self.geo.bounds(self.hexes), simplify_km=self.geo.size_km / 40
            )
        if not data or not data.get("features"):
            return None
        feats = []
        for f in data["features"]:
            kind = (f.get("properties") or {}).get("kind", "coast")
            style = COAST_STYLES.get(kind, COAST_STYLES["coast"])
            feats.append(
                {
                    "type": "Feature",
                    "properties": {"kind": kind, "style": dict(style)},
                    "geometry": f["geometry"],
                }
            )
        return StaticGeoJSON(data=_collection(feats), name="coast")

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        """Bring every overlay up to date with the table (only changed layers send anything)."""
        self._draw_hex_overlay()
        self._draw_units()
        self._draw_boxes()
        self._draw_pins()
        self._draw_detections()
        self._draw_selection()
        self._draw_unit_overlays()
        self._draw_arrow()
        self._draw_others()

    def redraw_grid(self) -> None:
        """Send the grid (terrain, hexsides) and the labels image again if they changed: a game's
        map never does, a scenario being edited does (:mod:`owsnb.pages.editor`)."""
        data = self._grid_data()
        if self.grid.data != data:
            self.grid.data = data
        view = self.table.view
        url, bounds = G.labels_image(
            self.geo, {h: view.map.label(h) for h in self.hexes}, self._place_names()
        )
        if self.labels.url != url:
            self.labels.url = url

    def _set(self, name: str, features: list[dict]) -> None:
        layer = self.overlays[name]
        data = _collection(features)
        if layer.data != data:
            with layer.hold_sync():
                layer.data = data

    def _draw_hex_overlay(self) -> None:
        view = self.table.view
        styles = dict(self.table.presentation.hex_overlay(view) or {})
        if styles == self._hex_styles:
            return
        self._hex_styles = styles
        groups: dict[tuple[str, str], list[Hex]] = {}
        labels: dict[Hex, str] = {}
        for h, st in styles.items():
            if h not in view.map.hexes:
                continue
            style = {k: v for k, v in st.items() if k != "label"}
            label = str(st.get("label", "") or "")
            if label:
                labels[h] = label
            groups.setdefault((json.dumps(style, sort_keys=True), label), []).append(h)
        feats = [
            _feature(
                G.dissolve(self.geo, sorted(hs)),
                {"className": "owsnb-hex-overlay", **json.loads(style)},
                label=label,
                hexes=len(hs),
            )
            for (style, label), hs in sorted(groups.items())
        ]
        self._hex_labels = labels
        data = _collection(feats)
        if self.hex_overlay.data != data:
            self.hex_overlay.data = data

    def _draw_units(self) -> None:
        """One marker per stack. Leaflet redraws neither a DivIcon whose ``html`` changes nor a
        marker's ``title``, so the tooltip lives inside the icon's HTML and a changed counter gets
        another icon (an old label could otherwise keep showing a unit the seat no longer sees).

        The icon given up goes to a small pool of spares: the next changed counter re-fills a
        spare (its new html reaches the browser before the marker that shows it, which Leaflet
        then draws afresh), so a change costs the html, not a new widget and a closed one. A spare
        only ever holds a counter this seat was shown; a change of seat closes them all."""
        new_seat = self._spares_seat is not self.table.seat
        if new_seat:
            self._close_spares()
            self._spares_seat = self.table.seat
        view = self.table.view
        wanted: dict[tuple[str, ...], tuple[Hex, str]] = {}
        for h in {u.hex for u in view.units.values() if u.hex is not None}:
            us = [view.units[uid] for uid in self.table.stack_ids(view.map.label(h))]
            title = html.escape(self._stack_title(us), quote=True)
            wanted[tuple(u.id for u in us)] = (
                h,
                f'<div title="{title}">{self._stack_html(us)}</div>',
            )
        fresh: dict[tuple[str, ...], L.Marker] = {}
        given_up: list[L.DivIcon] = []
        # a stack that formed or split takes a marker whose stack is gone (moved and re-filled:
        # no marker opened, none closed) before a new one is made — within one seat only (the
        # icon it gives up becomes a spare, and a spare holds only what this seat was shown)
        unmatched = [m for key, m in self._markers.items() if key not in wanted]
        for key in [k for k in self._markers if k not in wanted]:
            del self._markers[key]
        reusable = [] if new_seat else unmatched
        for key, (h, body) in wanted.items():
            m = self._markers.pop(key, None)
            if m is None and reusable:
                m = reusable.pop()
            loc = G.point(self.geo, h)
            if m is None:
                m = L.Marker(
                    location=loc,
                    icon=self._icon(body),
                    draggable=False,
                    rise_on_hover=True,
                    keyboard=False,
                )
                m.on_click(self._marker_clicked(m))
                self.units.add(m)
            else:
                with m.hold_sync():
                    if m.location != loc:
                        m.location = loc
                    if m.icon.html != body:
                        given_up.append(m.icon)
                        m.icon = self._icon(body)
            m._owsnb_hex = view.map.label(h)  # type: ignore[attr-defined]
            fresh[key] = m
        for m in unmatched:
            self._retire(m, self.units)
        self._markers = fresh
        self._spares += given_up  # reused from the next redraw on, never in the one that freed them
        while len(self._spares) > SPARE_ICONS:
            self._spares.pop(0).close()

    def _icon(self, body: str) -> L.DivIcon:
        """A counter icon showing *body*: a spare re-filled, or a new one. Icons are never held by
        :meth:`Table.batch`, so a re-filled spare's html is sent before the marker taking it."""
        if self._spares:
            icon = self._spares.pop()
            icon.html = body
            return icon
        s = self.counter_size
        icon = L.DivIcon(html=body, icon_size=[s, s], icon_anchor=[s // 2, s // 2])
        return self.table.unbatched(icon)

    @staticmethod
    def _retire(m: L.Marker, group: L.LayerGroup) -> None:
        """Take marker *m* off the map and close it and its icon."""
        group.remove(m)
        icon = m.icon
        m.close()
        if icon is not None:
            icon.close()

    def _close_spares(self) -> None:
        for icon in self._spares:
            icon.close()
        self._spares = []

    def _marker_clicked(self, marker: L.Marker) -> Any:
        def clicked(**_: Any) -> None:
            self.table.pick(hex=marker._owsnb_hex)  # type: ignore[attr-defined]

        return clicked

    def counter(self, unit: Any) -> str:
        """The SVG of *unit*'s counter as this seat sees it (the rule set's presentation's
        counter, drawn by :mod:`owsnb.display.symbols`)."""
        view = self.table.view
        c = self.table.presentation.counter(unit, view)
        return counter_svg(c, self.table.seat.side, list(view.sides))

    def _stack_html(self, units: list[Any]) -> str:
        depth = min(len(units) - 1, 2)
        shadows = "".join(f"<i class='owsnb-sh{i + 1}'></i>" for i in reversed(range(depth)))
        badge = f"<b class='owsnb-badge'>{len(units)}</b>" if len(units) > 1 else ""
        ids = html.escape(" ".join(u.id for u in units), quote=True)
        return (
            f"<div class='owsnb-stack' data-units='{ids}'>"
            f"{shadows}<div>{self.counter(units[0])}</div>{badge}</div>"
        )

    def _stack_title(self, units: list[Any]) -> str:
        """The tooltip of a counter: each unit's id, full name, side and the rule set's summary
        (type, factors, state); a stack says how to list it."""
        view = self.table.view
        pres = self.table.presentation
        lines = []
        for u in units:
            name = f" — {u.name}" if u.name and u.name != u.id else ""
            rows = "; ".join(f"{k} {v}" for k, v in pres.unit_summary(u, view))
            lines.append(f"{u.id}{name} ({u.side}): {rows}")
        if len(units) > 1:
            lines.append(f"{len(units)} units here: click to list them")
        return "\n".join(lines)

    def _draw_pins(self) -> None:
        view = self.table.view
        wanted: dict[int, tuple[Hex, str]] = {}
        for a in self.table.seat.annotations():
            h = a.hex
            if h is None and a.unit is not None and a.unit in view.units:
                h = view.units[a.unit].hex
            if h is not None and h in view.map.hexes:
                wanted[a.id] = (h, a.text)
        for aid in [k for k in self._pins if k not in wanted]:
            self._retire(self._pins.pop(aid), self.notes)
        for aid, (h, text) in wanted.items():
            loc = G.point(self.geo, h)
            title = f"note {aid}: {text}"
            m = self._pins.get(aid)
            if m is None:
                pin = (
                    "<svg xmlns='http://www.w3.org/2000/svg' width='18' height='24' "
                    "viewBox='0 0 18 24'>"
                    "<path d='M9 23 C9 23 1 13 1 8 a8 8 0 0 1 16 0 c0 5 -8 15 -8 15z' "
                    "fill='#f59e0b' "
                    "stroke='#78350f'/><circle cx='9' cy='8' r='3' fill='#fff'/></svg>"
                )
                m = L.Marker(
                    location=loc,
                    title=title,
                    draggable=False,
                    keyboard=False,
                    icon=L.DivIcon(
                        html=pin, icon_size=[18, 24], icon_anchor=[9 - self.counter_size // 2, 24]
                    ),
                )
                label = self.table.label(h)
                m.on_click(lambda label=label, **_: self.table.pick(hex=label))
                self.notes.add(m)
                self._pins[aid] = m
            else:
                with m.hold_sync():
                    m.location = loc
                    m.title = title

    def _draw_detections(self) -> None:
        view = self.table.view
        side = self.table.seat.side
        if side == UMPIRE:
            contacts = {u.hex for u in view.units.values() if u.hex is not None and u.seen_by}
        else:
            contacts = {u.hex for u in view.units.values() if u.hex is not None and u.side != side}
        style = {
            "color": "#dc2626",
            "weight": 2.5,
            "dashArray": "3 4",
            "fill": False,
            "className": "owsnb-detection",
        }
        self._set(
            "detections",
            [_feature(G.dissolve(self.geo, sorted(contacts)), style)] if contacts else [],
        )

    def _draw_selection(self) -> None:
        t = self.table
        feats = []
        if t.hex is not None:
            h = t.hex_of(t.hex)
            feats.append(
                _feature(
                    G.hex_outline(self.geo, h),
                    {
                        "color": "#f59e0b",
                        "weight": 4,
                        "fill": False,
                        "className": "owsnb-selection",
                    },
                    label=t.hex,
                )
            )
        self._set("selection", feats)
        self._draw_tray()
        self._draw_status()

    def _draw_unit_overlays(self) -> None:
        t = self.table
        view, uid = t.focus  # the selected unit, or the what-if unit on a copy of the view
        rs = t.presentation
        u = view.units.get(uid) if uid else None
        reach_feats: list[dict] = []
        range_feats: list[dict] = []
        if u is not None and u.hex is not None:
            if t.show_reach:
                reach = rs.reach(view, u.id)
                if reach:
                    hs = [h for h in reach if h in view.map.hexes]
                    reach_feats.append(
                        _feature(
                            G.dissolve(self.geo, hs),
                            {  # a light wash with a solid amber edge (contacts are red and dotted)
                                "color": "#b45309",
                                "weight": 2.5,
                                "fillColor": "#fef08a",
                                "fillOpacity": 0.35,
                                "className": "owsnb-reach",
                            },
                            unit=u.id,
                            hexes=len(hs),
                        )
                    )
        if u is not None and t.show_ranges:
            range_feats = self.measure.rings(view, u)  # labelled, with a legend (measure.py)
        else:
            self.measure.clear_rings()
        self._set("reach", reach_feats)
        self._set("ranges", range_feats)
        self.measure.draw_route()

    def _draw_arrow(self) -> None:
        """The arrow of the order being prepared; once it is given, the arrow stays (it shows
        where the order went) until the next order is prepared or the table changes seat."""
        t = self.table
        order = t.order
        last = getattr(t.last, "order", None)
        if order is not None and order == self._arrow_of:
            return  # the same order: the same arrow (its unit may have moved since: it was given)
        if order is None and last is not None and last == self._arrow_of:
            return
        self._arrow_of = order
        feats: list[dict] = []
        ends = self._order_ends(order) if order is not None else None
        if ends is not None and ends[0] != ends[1]:
            colour = "#b91c1c" if ends[2] else "#1d4ed8"
            for g in G.arrow(self.geo, ends[0], ends[1]):
                feats.append(
                    _feature(
                        g,
                        {
                            "color": colour,
                            "weight": 3,
                            "opacity": 0.9,
                            "fillColor": colour,
                            "fillOpacity": 0.9,
                            "className": "owsnb-arrow",
                        },
                    )
                )
        self._set("arrow", feats)

    def _draw_others(self) -> None:
        """What another seat was seen doing (the table's ``marks``), in the computer's orange:
        a dashed arrow per move, a bolder one per attack, a shaded ring on a hex acted on."""
        view = self.table.view
        feats: list[dict] = []
        for m in self.table.marks:
            try:
                to = view.map.hex(m["to"])
                start = view.map.hex(m["from"]) if m.get("from") else None
            except Exception:  # noqa: BLE001 - a label this map does not know: nothing to draw
                continue
            attack = m.get("kind") != "move"
            style = {
                "color": "#c2410c" if attack else "#ea580c",
                "weight": 5 if attack else 4,
                "opacity": 0.95,
                "dashArray": "10 6",
                "fillColor": "#ea580c",
                "fillOpacity": 0.9,
                "className": "owsnb-other",
            }
            title = str(m.get("title", ""))
            if start is not None and start != to:
                for g in G.arrow(self.geo, start, to):
                    feats.append(_feature(g, style, title=title))
            if attack or start is None or start == to:
                # a halo a third larger than the hex: it shows around the counter standing there
                ring = {**style, "fillOpacity": 0.18, "dashArray": "5 4", "weight": 5}
                feats.append(_feature(_halo(self.geo, to, 1.35), ring, title=title))
        self._set("others", feats)

    def _order_ends(self, order: Any) -> tuple[Hex, Hex, bool] | None:
        """From the first unit parameter's hex to the last hex or unit parameter's hex; the flag
        says whether the end is an enemy unit (a strike) rather than a place."""
        view = self.table.view
        ot = self.table.seat.ruleset.order_types.get(order.verb)
        if ot is None:
            return None
        try:
            args = ot.bind(order)
        except Exception:  # noqa: BLE001 - an unfinished order has no arrow
            return None
        start = end = None
        hostile = False
        for p in ot.params:
            vals = args.get(p.name)
            if vals is None:
                continue
            for v in vals if isinstance(vals, tuple) else (vals,):
                h = None
                enemy = False
                if is_unit(p) and v in view.units:  # own, enemy or target
                    unit = view.units[v]
                    h = unit.hex
                    enemy = unit.side != order.side
                elif p.kind == "hex":
                    try:
                        h = view.map.hex(v)
                    except Exception:  # noqa: BLE001
                        h = None
                if h is None:
                    continue
                if start is None and p.kind == "unit":
                    start = h
                else:
                    end, hostile = h, enemy
        if start is None or end is None:
            return None
        return start, end, hostile

    def _chips(self, units: list[Any]) -> tuple[W.HTML, dict[str, W.Button]]:
        """Counters as buttons for a tray: each button shows its counter (a picture in the
        tray's own stylesheet, one rule per distinct counter) over its unit id; a click picks
        the unit, as a click on its counter on the map does."""
        t = self.table
        rules: dict[str, str] = {}
        buttons: dict[str, W.Button] = {}
        for u in units:
            svg = self.counter(u)
            cls = "owsnb-c-" + hashlib.sha1(svg.encode()).hexdigest()[:10]
            rules[cls] = svg
            b = button(
                u.id,
                partial(t.pick, unit=u.id),
                tooltip=self._stack_title([u]),
                style="warning" if u.id == t.unit else "",
                width="auto",
            )
            b.add_class("owsnb-chip")
            b.add_class(cls)
            buttons[u.id] = b
        css = "".join(
            f'.{cls}{{background-image:url("data:image/svg+xml,{quote(svg)}")}}'
            for cls, svg in rules.items()
        )
        return W.HTML(f"<style>{css}</style>", layout=W.Layout(display="none")), buttons

    def _draw_tray(self) -> None:
        """The stack list: every unit of the hex picked, when it holds more than one."""
        t = self.table
        view = t.view
        if len(t.stack) < 2:
            if self.tray_control in self.map.controls:
                self.map.remove(self.tray_control)
            self.tray.children = ()
            self._tray_items = {}
            return
        style, chips = self._chips([view.units[u] for u in t.stack if u in view.units])
        self._tray_items = chips
        old = self.tray.children
        self.tray.children = (style, *chips.values())
        for box in old:
            for w in widget_tree(box):
                w.close()
        if self.tray_control not in self.map.controls:
            self.map.add(self.tray_control)

    def _draw_boxes(self) -> None:
        """The units off the map (aboard a ship, at their base, in reserve or any other box) in a
        tray beside the map, grouped by box; a click picks one, as a click on a counter does."""
        t = self.table
        view = t.view
        off = [u for u in view.units.values() if u.hex is None and u.alive]
        groups: dict[str, list[Any]] = {}
        for u in sorted(off, key=lambda u: (u.side != (t.actor or t.seat.side), u.id)):
            where = str(u.box or "off the map")
            base = u.data.get("base") if u.data else None
            if where == "base" and isinstance(base, str) and base:
                where = f"base {base}"
            groups.setdefault(where, []).append(u)
        key = tuple((g, tuple((u.id, self.counter(u)) for u in us)) for g, us in groups.items())
        if key != self._box_key:
            self._box_key = key
            old = self.boxes.children
            style, self._box_items = self._chips([u for us in groups.values() for u in us])
            items: list[W.Widget] = [style]
            for where, us in groups.items():  # a group wraps as one: its label with its chips
                label = W.HTML(f"<b>{html.escape(where)}</b>")
                group = W.HBox(
                    [label, *(self._box_items[u.id] for u in us)],
                    layout=W.Layout(align_items="center", margin="0 8px 0 0"),
                )
                items.append(group)
            self.boxes.children = tuple(items)
            for box in old:
                for w in widget_tree(box):
                    w.close()
        self._mark_boxes()

    def _mark_boxes(self) -> None:
        """Highlight the unit picked in the trays (the stack's list, the off-map units)."""
        for uid, b in (*self._box_items.items(), *self._tray_items.items()):
            style = "warning" if uid == self.table.unit else ""
            if b.button_style != style:
                b.button_style = style

    def _draw_status(self) -> None:
        """The line under the map: the hex picked (number, terrain, features, the rule set's
        overlay label). The units are the counters (a stack's in its tray, each unit's card in
        its tooltip), so a move into or out of the hex picked leaves the line as it is."""
        t = self.table
        if t.hex is None:
            value = "<span style='color:#6b7280'>click a hex or a counter</span>"
        else:
            view = t.view
            h = t.hex_of(t.hex)
            info = view.map.hexes[h]
            feats = ", ".join(
                f"{k}{' ' + str(v.get('name')) if isinstance(v, Mapping) and v.get('name') else ''}"
                for k, v in info.features.items()
            )
            mark = self._hex_labels.get(h)
            value = (
                f"<b>{html.escape(t.hex)}</b> · {html.escape(info.terrain)}"
                + (f" · {html.escape(feats)}" if feats else "")
                + (f" · <i>{html.escape(mark)}</i>" if mark else "")
            )
        if self.status.value != value:
            self.status.value = value

    # -- events --------------------------------------------------------------------------------
    def _on_view(self, change: dict) -> None:
        self.redraw()

    def _on_selection(self, change: dict) -> None:
        self._draw_selection()

    def _on_unit(self, change: dict) -> None:
        self._draw_unit_overlays()
        self._mark_boxes()

    def _on_order(self, change: dict) -> None:
        self._draw_arrow()

    def _on_interaction(self, **event: Any) -> None:
        if event.get("type") != "click":
            return
        lat, lon = event.get("coordinates", (None, None))
        if lat is None:
            return
        self.click(lon, lat)

    def click(self, lon: float, lat: float) -> str | None:
        """Act as a click at (*lon*, *lat*): pick the hex there. Returns its label (``None`` off
        the map)."""
        h = self.geo.hex_at(lon, lat)
        if h not in self.table.view.map.hexes:
            return None
        label = self.table.label(h)
        self.table.pick(hex=label)
        return label

    def _on_zoom(self, change: dict) -> None:
        visible = self._labels_visible(change["new"])
        if self.labels.visible != visible:
            self.labels.visible = visible
        sizes = self._sizes_css(change["new"])
        if self.sizes.value != sizes:
            self.sizes.value = sizes

    def _on_basemap(self, change: dict) -> None:
        if change["new"] and self._basemap is None:
            self._basemap = L.basemap_to_tiles(L.basemaps.OpenStreetMap.Mapnik)
            self._basemap.base = True
            self.map.layers = (self._basemap, *self.map.layers)
        elif not change["new"] and self._basemap is not None:
            self.map.remove(self._basemap)
            self._basemap.close()
            self._basemap = None

    def reset_view(self) -> None:
        """Show the whole map again."""
        center, zoom = self.home
        with self.map.hold_sync():
            self.map.center = center
            self.map.zoom = zoom

    def extra_widgets(self) -> list[Any]:
        """The stack tray (shown only for stacks) and the spare counter icons."""
        return [
            self.tray_control,
            *self._spares,
            *self.measure.widgets(),
            *([self.boxes] if self._tray_outside else []),
        ]
