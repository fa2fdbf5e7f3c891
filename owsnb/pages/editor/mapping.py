"""The editor's map: the globe before there is a grid and the box drawn on it, a new map from the
box or a blank board, and what a click on a hex or a hexside does with each tool (paint terrain,
add or take away a feature or a hexside, place or move a unit); the Map tab that chooses them;
the badges that show the hexes' features."""

from __future__ import annotations

import functools
from typing import Any

import ipyleaflet as L
import ipywidgets as W
import yaml

from owsnb.authoring.document import EditError
from owsnb.pages.editor.base import CSS, MUTED, EditorPart, esc, heading
from owsnb.pages.editor.docseat import DocSeat
from owsnb.widgets import geometry as G
from owsnb.widgets.controls import button
from owsnb.widgets.mapview import COAST_STYLES, MapView, StaticGeoJSON
from owsnb.widgets.table import Table
from owsnb.widgets.wire import widget_tree

HEX_SIZES = ("200nm", "100nm", "50km", "20km", "10km", "5km")
"""Hex sizes offered for a new map (across flats)."""


WORLD_VIEW = (25.0, 125.0, 4)  # lat, lon, zoom of the map shown before there is a grid


FEATURE_COLOURS = {
    "port": "#1d4ed8",
    "airfield": "#111827",
    "airstrip": "#6b7280",
    "airbase": "#111827",
    "city": "#b91c1c",
    "town": "#b91c1c",
    "village": "#f97316",
    "railhead": "#7c2d12",
    "bridge": "#92400e",
    "road": "#8c6d31",
}
"""Badge colours of hex features on the editor's map (others: violet)."""


def _feature_colour(kind: str) -> str:
    return FEATURE_COLOURS.get(kind, "#7c3aed")


@functools.lru_cache(maxsize=1)
def _world_coast() -> list[dict[str, Any]]:
    """The world's coastlines and borders, coarse (25 km), for the map shown before a grid."""
    from owsnb.authoring.coast import background_geojson

    fc = background_geojson((-180, -80, 180, 84), simplify_km=25, precision=2)
    return [
        {
            "type": "Feature",
            "properties": {"style": COAST_STYLES.get(kind, COAST_STYLES["coast"])},
            "geometry": f["geometry"],
        }
        for f in fc["features"]
        for kind in [(f.get("properties") or {}).get("kind", "coast")]
    ]


def collection(features: list[dict]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


class MapPart(EditorPart):
    """The map and the Map tab (see the module docstring)."""

    def make_map(self, bbox: Any = None, hex_size: str | None = None) -> None:
        """A new map over *bbox* (default: the box drawn on the map) at *hex_size* (default:
        the size chosen)."""
        box = tuple(bbox) if bbox is not None else self.bbox
        if box is None:
            self._say("first drag a box on the map (the square button, top left)", error=True)
            return
        size = hex_size or self.hex_size.value
        self._say(f"making a {size} map over {', '.join(f'{v:.2f}' for v in box)}…")
        try:
            self.doc.new_map(box, size)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self.bbox = None
        self.make_button.disabled = True
        self._say(f"new map: {self.doc.data['map']['cols']} x {self.doc.data['map']['rows']} hexes")
        self._after_edit()

    def make_board(self, cols: int | None = None, rows: int | None = None) -> None:
        """A blank abstract board of *cols* x *rows* hexes (default: the sizes chosen)."""
        try:
            self.doc.new_board(cols or self.board_cols.value, rows or self.board_rows.value)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        m = self.doc.data["map"]
        self._say(f"new board: {m['cols']} x {m['rows']} hexes of {m['terrain']['default']}")
        self._after_edit()

    def click_hex(self, label: str) -> None:
        """Act as a click on hex *label* with the current tool."""
        if self.table is None:
            raise EditError("the scenario has no map yet")
        self.table.pick(hex=label)

    def click_hexside(self, a: str, b: str) -> None:
        """Act as a click on the hexside between *a* and *b* with the hexside tool."""
        self._edge(a, b)

    def _refresh_map(self) -> None:
        """Show the document's map: rebuilt when the grid changed (a new map); else the table
        told (the counters and overlays redraw) and the terrain and hexsides re-sent if they
        changed."""
        doc = self.doc
        if doc.shown is None:
            self._show_globe()
            return
        m = doc.data.get("map") or {}
        layout = {k: m.get(k) for k in ("layout", "labels", "cols", "rows", "hexes")}
        if self.mapview is None or layout != self._shown_layout:
            self._build_mapview()
            self._shown_layout = layout
            self._shown_map = m
            return
        self.seat.changed()
        if m != self._shown_map:
            self._shown_map = m
            self.mapview.redraw_grid()

    def _build_mapview(self) -> None:
        old, oldglobe = self.mapview, self.globe
        self.seat = DocSeat(self.doc)
        self.table = Table(self.seat)
        self.table.show_reach = False
        self.mapview = MapView(self.table, height=self.map_height, coast=True)
        self.table.on_pick(self._on_pick)
        self.mapview.map.on_interaction(self._on_map_interaction)
        self.feature_layer = StaticGeoJSON(data=collection([]), name="features")
        self.problem_layer = StaticGeoJSON(data=collection([]), name="problems")
        self.mapview.map.add(self.feature_layer)
        self.mapview.map.add(self.problem_layer)
        if self.mapview.geo.projection != "simple":
            self._add_draw(self.mapview.map)
        self.table.observe(self._on_selected, "unit")
        self.map_box.children = (self.mapview,)
        for w in (old, oldglobe):
            if w is not None:
                for x in widget_tree(w):
                    x.close()
        self.globe = None

    def _show_globe(self) -> None:
        if self.globe is not None:
            return
        lat, lon, zoom = self.world_view
        self.globe = L.Map(
            center=(lat, lon),
            zoom=zoom,
            scroll_wheel_zoom=True,
            attribution_control=False,
            layers=(),
            layout=W.Layout(height=self.map_height, width="100%"),
        )
        feats = _world_coast()
        self.globe.add(StaticGeoJSON(data=collection(feats), name="coast"))
        self._add_draw(self.globe)
        self.map_box.children = (self.globe,)

    def _add_draw(self, m: L.Map) -> None:
        self.draw = L.DrawControl(
            rectangle={"shapeOptions": {"color": "#b45309", "weight": 2, "fillOpacity": 0.08}},
            polyline={},
            polygon={},
            circlemarker={},
            circle={},
            marker={},
            edit=False,
            remove=False,
            position="topleft",
        )
        self.draw.on_draw(self._on_draw)
        m.add(self.draw)

    def _on_draw(self, target: Any = None, action: str = "", geo_json: Any = None) -> None:
        if action != "created" or not geo_json:
            return
        ring = (geo_json.get("geometry") or {}).get("coordinates") or [[]]
        lons = [float(p[0]) for p in ring[0]]
        lats = [float(p[1]) for p in ring[0]]
        if not lons:
            return
        self.bbox = (
            round(min(lons), 2),
            round(min(lats), 2),
            round(max(lons), 2),
            round(max(lats), 2),
        )
        self.make_button.disabled = False
        self.box_html.value = (
            f"<span style='{CSS}'>box <b class='owsnb-bbox'>"
            f"{', '.join(f'{v:.2f}' for v in self.bbox)}</b> (west, south, east, north)</span>"
        )
        self.tabs.selected_index = 0
        self._say("box drawn: choose a hex size and make the map")

    def _on_pick(self, pick: Any) -> None:
        if self._syncing or pick.hex is None:
            return
        tool = self.tool.value
        label = pick.hex
        try:
            if tool == "terrain" and self.terrain.value:
                self.doc.paint(label, self.terrain.value)
                self._say(f"{label}: {self.terrain.value}")
            elif tool == "feature" and self.feature.value:
                ftype = self.feature.value
                if any(f["type"] == ftype for f in self.doc.features_at(label)):
                    self.doc.remove_feature(label, ftype)
                    self._say(f"{ftype} taken out of {label}")
                else:
                    name = self.feature_name.value.strip()
                    self.doc.add_feature(label, ftype, name, **self._facts())
                    self._say(" ".join(x for x in (ftype, name, "in", label) if x))
            elif tool == "unit":
                if not self.armed:
                    self._say("choose a counter under Units first", error=True)
                    return
                uid = self.doc.add_unit(self.armed, self.side.value, hex=label)
                self._say(f"placed {uid} on {label}")
            elif tool == "move":
                if self._moving is None:
                    if pick.unit is None:
                        self._say("click a counter first, then the hex it goes to")
                        return
                    self._moving = pick.unit
                    self._say(f"{pick.unit}: now click the hex it goes to")
                    return
                uid, self._moving = self._moving, None
                self.doc.move_unit(uid, hex=label)
                self._say(f"moved {uid} to {label}")
            else:  # select: a counter's form comes forward
                if pick.unit is not None:
                    self.tabs.selected_index = 1
                return
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._after_edit()

    def _on_map_interaction(self, **event: Any) -> None:
        if event.get("type") != "click" or self.tool.value != "edge" or self.mapview is None:
            return
        lat, lon = event.get("coordinates", (None, None))
        if lat is None:
            return
        geo = self.mapview.geo
        view = self.table.view  # type: ignore[union-attr]
        h = geo.hex_at(lon, lat)
        if h not in view.map.hexes:
            return
        px, py = G.lonlat_to_pixels(geo, [lon], [lat])

        def dist(n: Any) -> float:
            cx, cy = G.lonlat_to_pixels(geo, *[[v] for v in geo.centre(n)])
            return float((cx[0] - px[0]) ** 2 + (cy[0] - py[0]) ** 2)

        n = min(h.neighbours(), key=dist)
        if n not in view.map.hexes:
            return
        self._edge(view.map.label(h), view.map.label(n))

    def _edge(self, a: str, b: str) -> None:
        kind = self.edge.value
        if not kind:
            self._say("choose a hexside feature under Map first", error=True)
            return
        try:
            now = self.doc.toggle_edge(a, b, kind, self.edge_name.value.strip())
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._say(f"{kind} {a}|{b} {'added' if now else 'taken away'}")
        self._after_edit()

    def _facts(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.feature_owner.value:
            out["owner"] = self.feature_owner.value
        text = self.feature_facts.value.strip()
        if text:
            try:
                more = yaml.safe_load(text if text.startswith("{") else "{" + text + "}")
            except yaml.YAMLError:
                more = None
            if not isinstance(more, dict) or any(
                v is None or not str(k).replace("_", "").isalnum() for k, v in more.items()
            ):
                raise EditError(f"facts {text!r}: write them as key: value, key: value")
            out.update(more)
        return out

    def _draw_features(self) -> None:
        """A small badge per hex feature, in its type's colour (the legend: the feature buttons
        under Map), so what the map holds shows where it is."""
        if self.table is None or self.mapview is None:
            return
        geo = self.mapview.geo
        view = self.table.view
        feats = []
        for h, info in view.map.hexes.items():
            kinds = list(info.features)
            if not kinds:
                continue
            cx, cy = geo.centre(h)
            corners = geo.corners(h)
            low = sorted(corners, key=lambda p: p[1])[:2]
            bx, by = (low[0][0] + low[1][0]) / 2, (low[0][1] + low[1][1]) / 2
            span = max(p[0] for p in corners) - min(p[0] for p in corners)
            for i, kind in enumerate(kinds):
                dx = (i - (len(kinds) - 1) / 2) * span * 0.3
                ox, oy = cx + 0.5 * (bx - cx) + dx, cy + 0.5 * (by - cy)
                ring = [[ox + 0.2 * (px - cx), oy + 0.2 * (py - cy)] for px, py in corners]
                style = {
                    "color": "#ffffff",
                    "weight": 1.5,
                    "fillColor": _feature_colour(kind),
                    "fillOpacity": 0.95,
                    "className": "owsnb-feature",
                }
                feats.append(
                    {
                        "type": "Feature",
                        "properties": {"style": style, "kind": kind, "hex": view.map.label(h)},
                        "geometry": {"type": "Polygon", "coordinates": [[*ring, ring[0]]]},
                    }
                )
        data = collection(feats)
        if self.feature_layer.data != data:
            self.feature_layer.data = data

    def _build_map_tab(self) -> W.VBox:
        self.hex_size = W.ToggleButtons(
            options=list(HEX_SIZES),
            value="20km",
            tooltips=[f"hexes {s} across flats" for s in HEX_SIZES],
            style={"button_width": "62px"},
        )
        self.box_html = W.HTML(
            f"<span style='{CSS};{MUTED}'>no box yet: drag one on the map with the square "
            "button (top left of the map)</span>"
        )
        self.make_button = button(
            "Make the map",
            self.make_map,
            icon="globe",
            style="warning",
            tooltip="lay the grid over the box; land, littoral and deep sea from the offline mask",
        )
        self.make_button.disabled = True
        self.board_cols = W.BoundedIntText(value=20, min=1, max=200, description="columns",
                                           layout=W.Layout(width="150px"))  # fmt: skip
        self.board_rows = W.BoundedIntText(value=12, min=1, max=200, description="rows",
                                           layout=W.Layout(width="150px"))  # fmt: skip
        self.board_button = button(
            "Make a board",
            self.make_board,
            icon="th",
            tooltip="an abstract board, not on the Earth, of the first terrain (paint the rest)",
            width="auto",
        )
        self.terrain = W.ToggleButtons(options=[], style={"button_width": "auto"})
        self.terrain.add_class("owsnb-terrain-palette")
        self.terrain.observe(lambda c: self._choose("terrain", c), "value")
        self.terrain_legend = W.HTML()
        self.feature = W.ToggleButtons(options=[], style={"button_width": "auto"})
        self.feature.add_class("owsnb-feature-palette")
        self.feature.observe(lambda c: self._choose("feature", c), "value")
        self.feature_legend = W.HTML()
        self.feature_name = W.Text(description="name", layout=W.Layout(width="200px"))
        self.feature_owner = W.Dropdown(description="owner", layout=W.Layout(width="200px"))
        self.feature_facts = W.Text(
            description="facts",
            placeholder="capacity: 2, shield: 3",
            layout=W.Layout(width="380px"),
        )
        self.edge = W.ToggleButtons(options=[], style={"button_width": "auto"})
        self.edge.observe(lambda c: self._choose("edge", c), "value")
        self.edge_name = W.Text(description="name", layout=W.Layout(width="200px"))
        return W.VBox(
            [
                heading("New map from a box"),
                self.box_html,
                self.hex_size,
                self.make_button,
                W.HTML(
                    f"<span style='{CSS};{MUTED}'>or a blank board, as printed maps are:</span>"
                ),
                W.HBox([self.board_cols, self.board_rows, self.board_button]),
                heading("Terrain"),
                self.terrain_legend,
                self.terrain,
                heading("Features in hexes"),
                self.feature_legend,
                self.feature,
                W.HBox([self.feature_name, self.feature_owner]),
                self.feature_facts,
                heading("Hexsides"),
                self.edge,
                self.edge_name,
            ]
        )

    def _choose(self, tool: str, change: dict) -> None:
        if self._syncing or not change["new"]:
            return
        self.tool.value = tool
        if tool == "feature":
            decl = self.doc.editor.feature(change["new"])
            facts = {k: v for k, v in (decl.facts if decl else {}).items() if k != "owner"}
            self.feature_facts.value = ", ".join(f"{k}: {v}" for k, v in facts.items())

    def _sync_map_tab(self) -> None:
        spec = self.doc.editor
        terrains = self.doc.terrains()
        if list(self.terrain.options) != terrains:
            self.terrain.options = terrains
            self.terrain.value = None
        from owsnb.display.palette import terrain_style
        from owsnb.kernel.presentation import presentation_of

        rs = self.seat.ruleset or self.doc.ruleset
        if rs is not None:  # each terrain's button wears its colour on the map
            self.terrain_legend.value = (
                "<style>"
                + "".join(
                    f".owsnb-terrain-palette button:nth-of-type({i + 1}){{border-left:14px solid "
                    f"{esc(terrain_style(presentation_of(rs), t).get('fillColor', '#ddd'))} "
                    "!important}"
                    for i, t in enumerate(terrains)
                )
                + "</style>"
            )
        feats = [f.type for f in spec.features]
        if list(self.feature.options) != feats:
            self.feature.options = feats
            self.feature.value = None
            self.feature.tooltips = [f.doc for f in spec.features]
            self.feature_legend.value = (
                "<style>"
                + "".join(
                    f".owsnb-feature-palette button:nth-of-type({i + 1}){{border-left:14px solid "
                    f"{_feature_colour(t)} !important}}"
                    for i, t in enumerate(feats)
                )
                + "</style>"
            )
        owners = [("(none)", ""), *((s, s) for s in self.doc.data.get("sides") or {})]
        if list(self.feature_owner.options) != owners:
            self.feature_owner.options = owners
        edges = list(spec.edges)
        if list(self.edge.options) != edges:
            self.edge.options = edges
            self.edge.value = None
