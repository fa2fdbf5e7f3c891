"""The scenario editor: build and change a scenario on the map, with the mouse, checked as you go.

``owsnb.Editor(scenario_or_new)`` in JupyterLab; the same page in Voila from ``owsnb edit FILE``
or the umpire's editor link of ``owsnb serve`` (:func:`editor_page`). Everything it does is an
edit of a :class:`~owsnb.authoring.document.ScenarioDocument` — the scenario as its YAML file
holds it, checked after every edit by the loader the game uses, every edit undoable — drawn on
the table's own :class:`~owsnb.widgets.mapview.MapView`:

* **Map**: drag a box on the map (the square button at the top left), choose a hex size, *Make
  the map* (land, littoral and deep sea from the offline land/sea mask and coastline); paint
  terrain, toggle features (ports, airfields, cities...) and hexside features (rivers, roads,
  borders...) by clicking hexes and hexsides.
* **Units**: a palette of the rule set's counters, filtered by side, faction and map scale; click
  one, then a hex — or a box (aboard a ship, at a base, in reserve...: a box that needs a host
  offers the side's units that may host). Click a counter on the map to edit it: its fields and
  its payload in a form made from the rule set's schema (what differs from the catalog is kept).
* **Scenario**: title, sides, start clock, turns, initiative, the rule set's options (with their
  defaults and rule paragraphs), briefing, victory conditions and special rules.
* **Tables**: the tables an instructor may type in from their own printed edition (the rule
  set's placeholders first); the scenario keeps only what differs.
* **Problems**: what the loader says, each with its key path; the map outlines the hexes
  concerned (a unit on an illegal hex, a feature off the map...).

Undo and Redo walk every edit; Save writes YAML that ``owsnb.load`` and ``owsnb validate`` read
unchanged (one unit a line, stable key order); *Play solo* opens the table on it; *Serve as
seminar* runs ``owsnb serve`` on it and shows the seat links.

What a rule set offers (catalogs, payload schema, boxes, terrain, features, tables) comes from its
editor declaration (:class:`~owsnb.kernel.editing.EditorSpec`, ``RuleSet.editor``).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> ed = Editor("tutorial", path=Path(tmp.name) / "tutorial.yaml")
    >>> ed.tool.value, ed.doc.valid, len(ed.palette_items) > 0
    ('select', True, True)
    >>> ed.side.value = "blue"; ed.pick_counter("tw-sof")
    >>> ed.click_hex("1807"); ed.doc.units_at("1807")
    ['B-PAT-1', 'B-SQ-CCK', 'B-SOF-2']
    >>> ed.undo(); ed.doc.units_at("1807")
    ['B-PAT-1', 'B-SQ-CCK']
    >>> tmp.cleanup()
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipyleaflet as L
import ipywidgets as W
import yaml

from owsnb.authoring.document import EditError, ScenarioDocument, new_document
from owsnb.kernel.data import freeze
from owsnb.kernel.errors import AuthError, HistoryError, IllegalOrderError, OwsnbError
from owsnb.kernel.game import Change
from owsnb.kernel.orders import LegalOrders
from owsnb.kernel.state import UMPIRE, Unit
from owsnb.kernel.view import side_view
from owsnb.widgets import geometry as G
from owsnb.widgets.controls import button
from owsnb.widgets.mapview import COAST_STYLES, MapView, StaticGeoJSON
from owsnb.widgets.table import Table
from owsnb.widgets.wire import widget_tree

__all__ = ["Editor", "editor_page", "HEX_SIZES", "TOOLS"]

HEX_SIZES = ("200nm", "100nm", "50km", "20km", "10km", "5km")
"""Hex sizes offered for a new map (across flats)."""

TOOLS = {
    "select": ("select", "mouse-pointer", "click a counter to edit it, a hex to see what it holds"),
    "move": ("move", "arrows", "click a counter, then the hex it goes to"),
    "terrain": ("terrain", "paint-brush", "click hexes to paint the terrain chosen under Map"),
    "feature": ("feature", "map-marker", "click a hex to add or take away the feature chosen"),
    "edge": ("hexside", "road", "click near a hexside to add or take away the one chosen"),
    "unit": ("place unit", "plus-square", "click a hex to place the counter chosen under Units"),
}
"""The map tools: value -> (label, icon, what a click does)."""

_CSS = "font:13px system-ui,sans-serif"
_MUTED = "color:#6b7280"
_PROBLEM_STYLE = {
    "color": "#dc2626",
    "weight": 3.5,
    "fill": True,
    "fillColor": "#dc2626",
    "fillOpacity": 0.15,
    "dashArray": "6 3",
    "className": "owsnb-problem",
}
_WORLD_VIEW = (25.0, 125.0, 4)  # lat, lon, zoom of the map shown before there is a grid


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


class _DocSeat:
    """The umpire's seat on the scenario being edited: the map's :class:`Table` reads the
    document's drawable state through it. It gives no orders (an editor has no game yet)."""

    side = UMPIRE

    def __init__(self, doc: ScenarioDocument):
        self.doc = doc
        self.ruleset = doc.ruleset
        self._rev = 0
        self._view: Any = None
        self._subs: list[Callable[[Any], Any]] = []

    @property
    def state_id(self) -> int:
        return self._rev

    def view(self) -> Any:
        if self._view is None:
            shown = self.doc.shown
            if shown is None:
                raise EditError("the scenario has no map yet")
            self._view = side_view(shown, UMPIRE, self.ruleset)
        return self._view

    def view_at(self, n: int) -> Any:
        return self.view()

    def legal_orders(self, side: str | None = None) -> LegalOrders:
        return LegalOrders(side or UMPIRE, ())

    def check(self, order: Any) -> dict[str, Any]:
        raise IllegalOrderError("the scenario editor gives no orders", code="editor")

    def preview(self, order: Any) -> Any:
        return None

    def submit(self, order: Any, *, state_id: int | None = None) -> Any:
        raise AuthError("the scenario editor gives no orders: play the scenario to give them")

    def undo(self) -> tuple:
        return ()

    def annotate(self, text: str, **anchors: Any) -> Any:
        raise AuthError("the scenario editor keeps no notes")

    def annotations(self) -> list[Any]:
        return []

    def fork(self, at: int | None = None) -> Any:
        raise HistoryError("the scenario editor has no history to fork")

    def subscribe(self, callback: Callable[[Any], Any]) -> Callable[[], None]:
        self._subs.append(callback)
        return lambda: self._subs.remove(callback) if callback in self._subs else None

    def changed(self) -> None:
        """The document changed: tell the table (the map redraws what changed)."""
        self._rev += 1
        self._view = None
        self.ruleset = self.doc.ruleset or self.ruleset
        for cb in list(self._subs):
            cb(Change("edit", self._rev))


class Editor(W.VBox):
    """The scenario editor (see the module docstring).

    Args:
        scenario_or_new: a scenario file, a bundled name (``"tutorial"``), a dict, a
            :class:`ScenarioDocument`, or ``None``/``"new"`` for a new scenario (draw its map).
        path: where Save writes (default: the scenario's own file; a new or bundled one:
            ``<id>.yaml`` in the current folder).
        ruleset: the rule set of a new scenario.
        map_height: the map's height (CSS pixels).
        serve: offer *Serve as seminar* (runs ``owsnb serve`` on the saved file).
        world_view: ``(lat, lon, zoom)`` the map shows before there is a grid.
        chooser: offer to start from a bundled scenario or a new one (saved in the file's folder
            under the scenario's id): the page served for the umpire, which is bound to no file.
    """

    def __init__(
        self,
        scenario_or_new: Any = None,
        *,
        path: str | os.PathLike | None = None,
        ruleset: str = "ows",
        map_height: str = "560px",
        serve: bool = True,
        world_view: tuple[float, float, float] = _WORLD_VIEW,
        chooser: bool = False,
    ):
        if isinstance(scenario_or_new, ScenarioDocument):
            self.doc = scenario_or_new
        elif scenario_or_new is None or scenario_or_new == "new":
            stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(path).stem) if path else ""
            self.doc = new_document(
                stem or "new-scenario",
                stem.replace("-", " ").replace("_", " ").capitalize() or "New scenario",
                ruleset=ruleset,
                path=path,
            )
        else:
            self.doc = ScenarioDocument(scenario_or_new, path=path)
        if path is not None and self.doc.path != Path(path):
            self.doc.path = Path(path)
        self.map_height = map_height
        self.world_view = world_view
        self.seat = _DocSeat(self.doc)
        self.table: Table | None = None
        self.mapview: MapView | None = None
        self.globe: L.Map | None = None
        self.draw: L.DrawControl | None = None
        self.problem_layer: StaticGeoJSON | None = None
        self.bbox: tuple[float, float, float, float] | None = None
        self.armed: str | None = None  # the counter type the "place unit" tool places
        self._moving: str | None = None
        self._syncing = False
        self._shown_layout: Any = None
        self._shown_map: Any = None
        self._game: Any = None
        self.app: Any = None
        self.seminar: Any = None
        self.palette_items: dict[str, W.Widget] = {}

        # -- header ----------------------------------------------------------------------------
        self.title = W.HTML()
        self.status = W.HTML()
        self.message = W.HTML(layout=W.Layout(min_height="20px"))
        small = {"width": "auto"}
        self.undo_button = button(
            "Undo", self.undo, icon="undo", tooltip="take back the last edit", **small
        )
        self.redo_button = button("Redo", self.redo, icon="repeat", tooltip="re-apply it", **small)
        self.save_button = button(
            "Save", self.save, icon="save", style="primary", tooltip="write the YAML file", **small
        )
        self.play_button = button(
            "Play solo",
            self.play,
            icon="play",
            tooltip="save, then open the table on it here",
            **small,
        )
        self.serve_button = button(
            "Serve as seminar",
            self.serve,
            icon="users",
            tooltip="save, then run owsnb serve on it and show the seat links",
            **small,
        )
        self.serve_button.layout.display = "" if serve else "none"
        self.path_text = W.Text(
            value=str(self.doc.path),
            layout=W.Layout(width="300px"),
            continuous_update=False,
            tooltip="the file Save writes (press Enter to change it)",
        )
        self.path_text.add_class("owsnb-editor-path")
        buttons = W.HBox(
            [
                self.path_text,
                self.undo_button,
                self.redo_button,
                self.save_button,
                self.play_button,
                self.serve_button,
            ],
            layout=W.Layout(align_items="center"),
        )
        from owsnb.scenario import list_scenarios

        self.start_from = W.Dropdown(
            options=[("a new scenario", "new"), *((n, n) for n in list_scenarios())],
            value="new",
            layout=W.Layout(width="220px"),
        )
        self.open_button = button("Open", self._open_chosen, icon="folder-open", width="auto")
        opener = W.HBox([self.start_from, self.open_button])
        opener.layout.display = "" if chooser else "none"
        header = W.HBox(
            [W.VBox([self.title, self.status, opener]), buttons],
            layout=W.Layout(justify_content="space-between", align_items="center", width="100%"),
        )
        # -- map and tools ---------------------------------------------------------------------
        self.tool = W.ToggleButtons(
            options=[(label, key) for key, (label, _, _) in TOOLS.items()],
            value="select",
            icons=[icon for _, icon, _ in TOOLS.values()],
            tooltips=[tip for _, _, tip in TOOLS.values()],
            style={"button_width": "auto"},
        )
        self.tool.observe(self._on_tool, "value")
        self.hint = W.HTML()
        self.hint.add_class("owsnb-editor-hint")
        self.problem_css = W.HTML()  # outlines the counters of units with a problem
        # the side panel's tabs scroll: their rows keep their height instead of shrinking
        self.style = W.HTML("<style>.owsnb-editor-side .widget-box > * {flex-shrink: 0}</style>")
        self.map_box = W.Box(layout=W.Layout(width="100%"))
        left = W.VBox(
            [
                W.HBox([self.tool], layout=W.Layout(flex_flow="row wrap")),
                self.map_box,
                self.hint,
                self.problem_css,
            ],
            layout=W.Layout(flex="1 1 0%", min_width="480px"),
        )
        # -- the side panel --------------------------------------------------------------------
        self.map_tab = self._build_map_tab()
        self.units_tab = self._build_units_tab()
        self.scenario_tab = W.VBox()
        self.tables_tab = self._build_tables_tab()
        self.problems_html = W.HTML()
        self.tabs = W.Tab(
            children=[
                self.map_tab,
                self.units_tab,
                self.scenario_tab,
                self.tables_tab,
                W.VBox([self.problems_html]),
            ],
            titles=["Map", "Units", "Scenario", "Tables", "Problems"],
            layout=W.Layout(width="100%"),
        )
        self.tabs.observe(self._on_tab, "selected_index")
        for tab in self.tabs.children:  # each tab scrolls within the map's height
            tab.layout.max_height = map_height
            tab.layout.overflow = "auto"
        side = W.Box(
            [self.tabs], layout=W.Layout(width="36%", min_width="420px", max_width="640px")
        )
        side.add_class("owsnb-editor-side")
        self.body = W.HBox([left, side], layout=W.Layout(width="100%", align_items="flex-start"))
        self.play_box = W.VBox(layout=W.Layout(width="100%", display="none"))
        super().__init__(
            [self.style, header, self.message, self.body, self.play_box],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-editor")
        self.path_text.observe(self._on_path, "value")
        self._build_scenario_tab()
        self._refresh_map()
        self._refresh()

    # -- public actions (the buttons call these; a notebook may too) ---------------------------
    def undo(self) -> None:
        """Take back the last edit."""
        self.doc.undo()
        self._say(f"undone; {len(self.doc.history()) - 1} edit(s) in the history")
        self._after_edit()

    def redo(self) -> None:
        """Re-apply the edit undone last."""
        self.doc.redo()
        self._say("redone")
        self._after_edit()

    def save(self) -> Path | None:
        """Write the scenario file (and its coastline beside it, for a new map); ``None`` if it
        could not be written (the message says why; nothing is lost)."""
        try:
            path = self.doc.save()
        except OSError as exc:
            self._say(f"could not save to {self.doc.path}: {exc.strerror or exc}", error=True)
            return None
        n = len(self.doc.problems)
        self._say(
            f"saved {path}"
            + (
                f" — with {n} problem(s): the game will not load it until they are fixed"
                if n
                else ""
            )
        )
        self._after_edit()
        return path

    def play(self, seed: int | None = None) -> Any:
        """Save, then open the table on the saved file here (the umpire's seat: solo study);
        ``Back to the editor`` returns. Returns the game (``None`` if it cannot load)."""
        import owsnb
        from owsnb.api import games_dir
        from owsnb.widgets import App

        path = self.save()
        if path is None:
            return None
        if not self.doc.valid:
            self._say("fix the problems first: the game cannot load this scenario", error=True)
            self.tabs.selected_index = 4
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = games_dir() / "editor"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            game = owsnb.load(path, seed=seed, save=folder / f"{self.doc.data['id']}-{stamp}.owsnb")
        except OwsnbError as exc:
            self._say(str(exc), error=True)
            return None
        self._close_play()
        self._game = game
        self.app = App(game, seat=UMPIRE, map_height=self.map_height)
        back = button("Back to the editor", self._stop_play, icon="arrow-left", style="info")
        note = W.HTML(
            f"<span style='{_CSS};{_MUTED}'>playing {_esc(path.name)} (seed "
            f"{_esc(game.meta.get('seed'))}), autosaved: {_esc(game.meta.get('store', ''))}</span>"
        )
        self.play_box.children = (
            W.HBox([back, note], layout=W.Layout(align_items="center")),
            self.app,
        )
        self.body.layout.display = "none"
        self.play_box.layout.display = "flex"
        return game

    def serve(self) -> dict[str, Any] | None:
        """Save, then run ``owsnb serve`` on the file (a child of this kernel: it stops with it)
        and show the umpire's and the seats' links. Returns the links (``None`` on failure)."""
        path = self.save()
        if path is None or not self.doc.valid:
            if path is not None:
                self._say("fix the problems first: the server cannot load this scenario", True)
            return None
        self.stop_serving()
        self.seminar = _Seminar(path)
        try:
            links = self.seminar.wait()
        except RuntimeError as exc:
            self._say(str(exc), error=True)
            self.stop_serving()
            return None
        rows = "".join(
            f"<tr><td><b>{_esc(k)}</b></td><td><a href='{_esc(v.get('link') or v['api'])}' "
            f"target='_blank'>{_esc(v.get('link') or v['api'])}</a></td></tr>"
            for k, v in links["seats"].items()
        )
        stop = button("Stop the seminar", self.stop_serving, icon="stop", style="danger")
        self.play_box.children = (
            W.HTML(
                f"<div style='{_CSS}'><b>Seminar: {_esc(self.doc.data.get('title', ''))}</b> "
                f"({_esc(path.name)}) — give each player "
                f"their link; it runs as long as this page's kernel (for a lasting one: "
                f"<code>owsnb serve {_esc(path)}</code>).<table>{rows}</table></div>"
            ),
            stop,
        )
        self.play_box.layout.display = "flex"
        return links

    def stop_serving(self) -> None:
        """Stop the seminar started by :meth:`serve`."""
        if self.seminar is not None:
            self.seminar.stop()
            self.seminar = None
            self.play_box.children = ()
            self.play_box.layout.display = "none"

    def open_scenario(self, source: Any, path: str | os.PathLike | None = None) -> bool:
        """Edit *source* instead (a bundled name, a file, ``"new"``), saved at *path* (default:
        ``<id>.yaml`` in the current file's folder). Refused while there are unsaved changes
        (Save or Undo them first): nothing is lost. Returns whether it opened."""
        if self.doc.dirty and self.doc.can_undo:
            self._say("save (or undo) your changes first: opening another would lose them", True)
            return False
        folder = self.doc.path.parent
        try:
            if source in (None, "new"):
                doc = new_document(ruleset=str(self.doc.data.get("ruleset") or "ows"),
                                   path=path or folder / "new-scenario.yaml")  # fmt: skip
            else:
                from owsnb.scenario import find_scenario

                stem = find_scenario(source).stem
                doc = ScenarioDocument(source, path=path or folder / f"{stem}.yaml")
        except OwsnbError as exc:
            self._say(str(exc), error=True)
            return False
        self._close_play()
        self.doc = doc
        self.armed = self._moving = None
        self._shown_layout = None
        for key in ("_palette_key", "_boxes_key", "_form_key", "_off_key", "_options_key",
                    "_sides_key", "_meta_scale"):  # fmt: skip
            self.__dict__.pop(key, None)
        self.options_box.children = ()
        self.options_button.layout.display = ""
        if doc.shown is None and self.mapview is not None:
            old, self.mapview, self.table = self.mapview, None, None
            for w in widget_tree(old):
                w.close()
        self.seat = _DocSeat(doc)
        self._refresh_map()
        self._refresh()
        self._say(f"editing {doc.data.get('title') or doc.data.get('id')}; Save writes {doc.path}")
        return True

    def _open_chosen(self) -> None:
        self.open_scenario(self.start_from.value)

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

    def pick_counter(self, type_key: str) -> None:
        """Arm the *place unit* tool with counter type *type_key* (as a click on the palette)."""
        if type_key not in self.doc.counter_types():
            raise EditError(f"no counter type {type_key!r}")
        self.armed = type_key
        self.tool.value = "unit"
        self._draw_palette()
        self._show_boxes()
        self._on_tool()

    def click_hex(self, label: str) -> None:
        """Act as a click on hex *label* with the current tool."""
        if self.table is None:
            raise EditError("the scenario has no map yet")
        self.table.pick(hex=label)

    def click_hexside(self, a: str, b: str) -> None:
        """Act as a click on the hexside between *a* and *b* with the hexside tool."""
        self._edge(a, b)

    # -- map -----------------------------------------------------------------------------------
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
        self.seat = _DocSeat(self.doc)
        self.table = Table(self.seat)
        self.table.show_reach = False
        self.mapview = MapView(self.table, height=self.map_height, coast=True)
        self.table.on_pick(self._on_pick)
        self.mapview.map.on_interaction(self._on_map_interaction)
        self.feature_layer = StaticGeoJSON(data=_collection([]), name="features")
        self.problem_layer = StaticGeoJSON(data=_collection([]), name="problems")
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
        self.globe.add(StaticGeoJSON(data=_collection(feats), name="coast"))
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
            f"<span style='{_CSS}'>box <b class='owsnb-bbox'>"
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
        data = _collection(feats)
        if self.feature_layer.data != data:
            self.feature_layer.data = data

    def _draw_problems(self) -> None:
        if self.problem_layer is None or self.table is None:
            return
        view = self.table.view
        feats = []
        for p in self.doc.problems:
            label = p.hex
            if label is None:
                continue
            try:
                h = view.map.hex(label)
            except Exception:  # noqa: BLE001 - a hex off the map has nothing to outline
                continue
            if h not in view.map.hexes:
                continue
            feats.append(
                {
                    "type": "Feature",
                    "properties": {"style": _PROBLEM_STYLE, "where": p.where, "unit": p.unit},
                    "geometry": G.hex_outline(self.mapview.geo, h),  # type: ignore[union-attr]
                }
            )
        data = _collection(feats)
        if self.problem_layer.data != data:
            self.problem_layer.data = data
        units = sorted({p.unit for p in self.doc.problems if p.unit})
        css = "".join(
            f".owsnb-editor .owsnb-stack[data-units~='{_css_string(u)}']"
            "{outline:3px dashed #dc2626;outline-offset:3px;border-radius:4px}"
            for u in units
        )
        value = f"<style>{css}</style>" if css else ""
        if self.problem_css.value != value:
            self.problem_css.value = value

    # -- the Map tab -----------------------------------------------------------------------------
    def _build_map_tab(self) -> W.VBox:
        self.hex_size = W.ToggleButtons(
            options=list(HEX_SIZES),
            value="20km",
            tooltips=[f"hexes {s} across flats" for s in HEX_SIZES],
            style={"button_width": "62px"},
        )
        self.box_html = W.HTML(
            f"<span style='{_CSS};{_MUTED}'>no box yet: drag one on the map with the square "
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
                _head("New map from a box"),
                self.box_html,
                self.hex_size,
                self.make_button,
                W.HTML(
                    f"<span style='{_CSS};{_MUTED}'>or a blank board, as printed maps are:</span>"
                ),
                W.HBox([self.board_cols, self.board_rows, self.board_button]),
                _head("Terrain"),
                self.terrain_legend,
                self.terrain,
                _head("Features in hexes"),
                self.feature_legend,
                self.feature,
                W.HBox([self.feature_name, self.feature_owner]),
                self.feature_facts,
                _head("Hexsides"),
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
                    f"{_esc(terrain_style(presentation_of(rs), t).get('fillColor', '#ddd'))} "
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

    # -- the Units tab ---------------------------------------------------------------------------
    def _build_units_tab(self) -> W.VBox:
        self.side = W.ToggleButtons(options=[], style={"button_width": "auto"})
        self.faction = W.ToggleButtons(options=[], style={"button_width": "auto"})
        self.scale = W.ToggleButtons(options=[], style={"button_width": "auto"})
        for w in (self.side, self.faction, self.scale):
            w.observe(self._on_filter, "value")
        self.palette = W.HBox(
            layout=W.Layout(
                flex_flow="row wrap", max_height="300px", overflow="auto", flex="0 0 auto"
            )
        )
        self.palette.add_class("owsnb-palette")
        self.boxes = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.hosts_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.unit_form = W.VBox()
        self.off_map = W.VBox()
        return W.VBox(
            [
                _head("Selected unit"),
                self.unit_form,
                _head("Counters"),
                W.HBox([W.HTML(f"<span style='{_CSS}'>side</span>"), self.side]),
                W.HBox([W.HTML(f"<span style='{_CSS}'>forces</span>"), self.faction]),
                W.HBox([W.HTML(f"<span style='{_CSS}'>scale</span>"), self.scale]),
                self.palette,
                self.boxes,
                self.hosts_box,
                _head("Off the map (in boxes)"),
                self.off_map,
            ]
        )

    def _counter(self, key: str, t: Mapping[str, Any], side: str) -> Unit:
        rs = self.seat.ruleset
        data = dict(t.get("data") or {})
        if rs is not None:
            norm, _ = rs.validate_unit(key, data)
            data = norm
        steps = int(t.get("steps", 1) or 1)
        return Unit(
            id=key, side=side, kind=key, name=str(t.get("name") or key), steps=steps,
            max_steps=steps, data=freeze(data),
        )  # fmt: skip

    def _counter_svg(self, unit: Unit, size: int = 40) -> str:
        from owsnb.display.symbols import counter_svg
        from owsnb.kernel.presentation import DEFAULT, presentation_of

        rs = self.seat.ruleset
        view = self.seat.view() if self.doc.shown is not None else None
        side = getattr(view, "side", None)
        sides = list(getattr(view, "sides", ()) or ())
        try:
            c = presentation_of(rs).counter(unit, view)
        except Exception:  # noqa: BLE001 - a half-made payload still gets a counter
            c = DEFAULT.counter(unit, view)
        return counter_svg(c, side, sides, size)

    def _on_filter(self, change: Any = None) -> None:
        if self._syncing:
            return
        if change is not None and change.get("owner") is self.side:
            self._syncing = True
            try:
                self.faction.value = self._default_faction()
            finally:
                self._syncing = False
        self._draw_palette()
        self._show_boxes()

    def _factions(self) -> dict[str, str]:
        spec = self.doc.editor
        return {k: spec.faction(k, t) for k, t in self.doc.counter_types().items()}

    def _default_faction(self) -> str:
        side = self.side.value
        mine = [u.get("type") for u in self.doc.data.get("units") or [] if u.get("side") == side]
        factions = self._factions()
        used = [factions.get(str(t), "") for t in mine if factions.get(str(t))]
        return max(set(used), key=used.count) if used else "all"

    def _sync_units_tab(self) -> None:
        sides = list(self.doc.data.get("sides") or {})
        if list(self.side.options) != sides:
            self.side.options = sides
            self.side.value = sides[0] if sides else None
            self.faction.value = None
        factions = ["all", *sorted({f for f in self._factions().values() if f})]
        if list(self.faction.options) != factions:
            self.faction.options = factions
        if self.faction.value not in factions:
            self.faction.value = self._default_faction()
        scales = sorted({c.scale for c in self.doc.catalogs() if c.scale})
        opts = ["all", *scales] if scales else []
        meta_scale = ((self.doc.data.get("map") or {}).get("meta") or {}).get("scale")
        if list(self.scale.options) != opts or meta_scale != getattr(self, "_meta_scale", None):
            self._meta_scale = meta_scale  # a new map: its scale's counters
            self.scale.options = opts
            self.scale.value = meta_scale if meta_scale in scales else ("all" if opts else None)
        self.scale.layout.display = "" if opts else "none"
        self._draw_palette()
        self._show_boxes()
        self._draw_unit_form()
        self._draw_off_map()

    def _draw_off_map(self) -> None:
        """The units in boxes (not on the map), each a button that selects it."""
        boxed = [u for u in self.doc.data.get("units") or [] if u.get("box")]
        key = json.dumps(boxed, default=str)
        if key == getattr(self, "_off_key", None):
            return
        self._off_key = key
        rows: list[W.Widget] = []
        spec = self.doc.editor
        for box in sorted({str(u["box"]) for u in boxed}):
            decl = spec.box(box)
            items: list[W.Widget] = [W.HTML(f"<span style='{_CSS}'><b>{_esc(box)}</b></span>")]
            for u in (u for u in boxed if u["box"] == box):
                host = (u.get("data") or {}).get(decl.link) if decl and decl.link else None
                b = button(
                    str(u["id"]) + (f" ({host})" if host else ""),
                    functools.partial(self._select, str(u["id"])),
                    tooltip=f"{u.get('type')}: click to edit it",
                    width="auto",
                )
                items.append(b)
            rows.append(W.HBox(items, layout=W.Layout(flex_flow="row wrap", align_items="center")))
        if not rows:
            rows = [W.HTML(f"<span style='{_CSS};{_MUTED}'>none</span>")]
        self._replace(self.off_map, rows)

    def _select(self, uid: str) -> None:
        """Select unit *uid* (on the map or in a box) for the unit form."""
        if self.table is None:
            return
        self.tool.value = "select"
        self.table.pick(unit=uid)
        self.tabs.selected_index = 1
        self._draw_unit_form()
        self._show_boxes()

    def _palette_types(self) -> list[tuple[str, Mapping[str, Any]]]:
        scale = self.scale.value
        faction = self.faction.value
        spec = self.doc.editor
        out = []
        for cat in self.doc.catalogs():
            if scale not in (None, "all") and cat.scale and cat.scale != scale:
                continue
            for key, t in cat.types.items():
                if faction not in (None, "all") and spec.faction(key, t) != faction:
                    continue
                out.append((key, t))
        uniq = list({k: (k, t) for k, t in reversed(out)}.values())[::-1]  # first of each key
        return sorted(
            uniq, key=lambda kt: (str(kt[1].get("category", "")), str(kt[1].get("name", kt[0])))
        )

    def _draw_palette(self) -> None:
        memo = (
            self.side.value,
            self.faction.value,
            self.scale.value,
            self.armed,
            self.doc.shown is None,
            json.dumps([self.doc.data.get("catalogs"), self.doc.data.get("sides")], default=str),
        )
        if memo == getattr(self, "_palette_key", None):
            return
        self._palette_key = memo
        if self.doc.shown is None or self.side.value is None:
            self._replace(
                self.palette, [W.HTML(f"<span style='{_CSS};{_MUTED}'>make a map first</span>")]
            )
            self.palette_items = {}
            return
        items = []
        self.palette_items = {}
        for key, t in self._palette_types():
            unit = self._counter(key, t, self.side.value)
            name = str(t.get("name") or key)
            b = button(
                name[:22],
                functools.partial(self.pick_counter, key),
                tooltip=f"{name} ({key}) — {t.get('notes', '')}"[:300],
                style="warning" if key == self.armed else "",
                width="104px",
            )
            b.add_class("owsnb-counter-button")
            item = W.VBox(
                [W.HTML(self._counter_svg(unit)), b],
                layout=W.Layout(align_items="center", margin="2px", width="108px"),
            )
            self.palette_items[key] = item
            items.append(item)
        if not items:
            items = [
                W.HTML(
                    f"<span style='{_CSS};{_MUTED}'>no counter of these forces at this scale</span>"
                )
            ]
        self._replace(self.palette, items)

    def _show_boxes(self) -> None:
        spec = self.doc.editor
        target = self.armed or self.table_unit()
        if (target, spec.boxes) == getattr(self, "_boxes_key", None):
            return
        self._boxes_key = (target, spec.boxes)
        if not spec.boxes or target is None:
            self._replace(self.boxes, [])
            self._replace(self.hosts_box, [])
            return
        name = self.doc.counter_types().get(self.armed or "", {}).get("name", self.armed)
        what = f"a new {name}" if self.armed else str(target)
        items: list[W.Widget] = [
            W.HTML(f"<span style='{_CSS}'>or put {_esc(what)} in a box:</span>")
        ]
        for b in spec.boxes:
            w = button(
                f"→ {b.name}",
                functools.partial(self._into_box, b.name),
                tooltip=f"{b.doc} ({b.rule})",
                width="auto",
            )
            w.add_class("owsnb-box-button")
            items.append(w)
        self._replace(self.boxes, items)
        self._replace(self.hosts_box, [])

    def _into_box(self, box: str, host: str | None = None, ask: bool = True) -> None:
        decl = self.doc.editor.box(box)
        if not self.armed and self.table_unit() is None:
            self._say("choose a counter under Units, or select a unit on the map", error=True)
            return
        side = self.side.value if self.armed else self.doc.unit(str(self.table_unit())).get("side")
        if ask and decl is not None and decl.link:
            hosts = [
                h for h in self.doc.hosts(str(side), box) if h != self.table_unit() or self.armed
            ]
            items: list[W.Widget] = [
                W.HTML(f"<span style='{_CSS}'>{_esc(box)}: whose? ({_esc(decl.doc)})</span>")
            ]
            for h in hosts:
                w = button(
                    h,
                    functools.partial(self._into_box, box, h, ask=False),
                    width="auto",
                    style="info",
                )
                w.add_class("owsnb-host-button")
                items.append(w)
            items.append(button("none", lambda: self._into_box(box, None, ask=False), width="auto"))
            self._replace(self.hosts_box, items)
            return
        try:
            if self.armed:
                uid = self.doc.add_unit(self.armed, str(side), box=box, host=host)
                self._say(f"placed {uid} in {box}" + (f" ({host})" if host else ""))
            else:
                uid = str(self.table_unit())
                self.doc.move_unit(uid, box=box, host=host)
                self._say(f"moved {uid} to {box}" + (f" ({host})" if host else ""))
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._replace(self.hosts_box, [])
        self._after_edit()

    def table_unit(self) -> str | None:
        """The unit selected on the map (if it is one of the scenario's)."""
        uid = self.table.unit if self.table is not None else None
        return uid if uid in self.doc.unit_ids() else None

    def _on_selected(self, change: Any = None) -> None:
        self._draw_unit_form()
        self._show_boxes()

    def _draw_unit_form(self) -> None:
        uid = self.table_unit()
        key = (uid, json.dumps(self.doc.unit(uid), default=str) if uid else None)
        if key == getattr(self, "_form_key", None):
            return
        self._form_key = key
        if uid is None:
            self._replace(
                self.unit_form,
                [
                    W.HTML(
                        f"<span style='{_CSS};{_MUTED}'>click a counter on the map (tool select)</span>"
                    )
                ],
            )
            return
        entry = self.doc.unit(uid)
        types = self.doc.counter_types()
        t = types.get(str(entry.get("type")), {})
        sides = list(self.doc.data.get("sides") or {})
        where = f"on hex {entry['hex']}" if entry.get("hex") else f"in box {entry.get('box')}"
        st = self.doc.shown
        shown = st.units.get(uid) if st is not None else None
        svg = self._counter_svg(shown, 48) if shown is not None else ""
        head = W.HTML(
            f"<div style='{_CSS};display:flex;gap:8px;align-items:center'>{svg}<div><b>{_esc(uid)}</b> "
            f"{_esc(t.get('name', ''))}<br><span style='{_MUTED}'>{_esc(entry.get('type'))} · "
            f"{_esc(where)}</span></div></div>"
        )
        fields: list[W.Widget] = [head]

        def text(key: str, value: Any, width: str = "300px") -> W.Text:
            w = W.Text(value=str(value or ""), description=key, continuous_update=False,
                       layout=W.Layout(width=width), style={"description_width": "70px"})  # fmt: skip
            w.observe(lambda c, key=key: self._set_unit_field(uid, key, c["new"]), "value")
            return w

        fields.append(text("id", uid))
        fields.append(text("name", entry.get("name", "")))
        side_w = W.Dropdown(options=sides, value=entry.get("side") if entry.get("side") in sides else None,
                            description="side", style={"description_width": "70px"})  # fmt: skip
        side_w.observe(lambda c: self._set_unit_field(uid, "side", c["new"]), "value")
        fields.append(side_w)
        fields.append(text("steps", entry.get("steps", ""), "160px"))
        fields.append(text("markers", ", ".join(entry.get("markers") or [])))
        remove = button(
            "Remove this unit", lambda: self._remove_unit(uid), icon="trash", style="danger"
        )
        fields += [remove, _head("Payload (catalog values unless changed)")]
        fields += self._payload_fields(uid, t)
        self._replace(self.unit_form, fields)

    def _set_unit_field(self, uid: str, key: str, value: Any) -> None:
        if self._syncing:
            return
        v: Any = value
        if key == "steps":
            v = None if str(value).strip() == "" else _parse(str(value))
        elif key == "markers":
            v = [m.strip() for m in str(value).split(",") if m.strip()]
        try:
            self.doc.set_unit(uid, **{key: v})
        except EditError as exc:
            self._say(str(exc), error=True)
            self._draw_unit_form()
            return
        if key == "id" and self.table is not None:
            self._after_edit()
            if str(v) in self.doc.unit_ids():
                self.table.pick(unit=str(v))
            return
        self._after_edit()

    def _remove_unit(self, uid: str) -> None:
        try:
            self.doc.remove_unit(uid)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._say(f"removed {uid}")
        self._after_edit()

    def _payload_fields(self, uid: str, t: Mapping[str, Any]) -> list[W.Widget]:
        spec = self.doc.editor
        payload = self.doc.payload(uid)
        own = self.doc.unit(uid).get("data") or {}
        schema = spec.payload_schema() if spec.payload_schema is not None else {}
        props: dict[str, Any] = dict(schema.get("properties") or {})
        required = set(schema.get("required") or ())
        keys = [k for k in props if k in (t.get("data") or {}) or k in own or k in required]
        keys += [k for k in own if k not in keys]
        out = [
            self._payload_field(uid, k, props.get(k, {}), payload.get(k), k in own) for k in keys
        ]
        rest = [k for k in props if k not in keys]
        if rest:
            more = W.VBox()

            def show_more() -> None:
                more.children = [
                    self._payload_field(uid, k, props[k], payload.get(k), False) for k in rest
                ]
                more_button.layout.display = "none"

            more_button = button(f"all {len(props)} fields…", show_more, width="auto")
            out += [more_button, more]
        if not props:
            out.append(W.HTML(f"<span style='{_CSS};{_MUTED}'>this rule set's payload is free: "
                              "edit it as YAML</span>"))  # fmt: skip
            out.append(self._payload_field(uid, "", {}, own, bool(own)))
        return out

    def _payload_field(
        self, uid: str, key: str, prop: Mapping[str, Any], value: Any, own: bool
    ) -> W.Widget:
        desc = str(prop.get("description", "")) or str(prop.get("title", ""))
        kind = _kind(prop)
        style = {"description_width": "120px"}
        label = key + (" *" if own else "")
        w: W.Widget
        if kind == "bool":
            w = W.Checkbox(value=bool(value), description=label, indent=False)
        elif kind == "enum":
            opts = [*_enum(prop)]
            if value not in opts:
                opts.append(value)
            w = W.Dropdown(options=[(str(o), o) for o in opts], value=value, description=label,
                           style=style, layout=W.Layout(width="320px"))  # fmt: skip
        else:
            compact = kind in ("int", "number", "str") and not isinstance(value, (list, dict))
            text = ("" if value is None else str(value)) if compact else _dump_inline(value)
            w = (W.Text if compact else W.Textarea)(
                value=text, description=label, continuous_update=False, style=style,
                layout=W.Layout(width="380px", height="auto" if compact else "52px"),
            )  # fmt: skip
        w.tooltip = desc or None
        w.observe(lambda c: self._set_payload(uid, key, c["new"], kind, w), "value")
        return w

    def _set_payload(self, uid: str, key: str, value: Any, kind: str, w: W.Widget) -> None:
        if self._syncing:
            return
        v = value
        if kind not in ("bool", "enum"):
            try:
                v = None if str(value).strip() == "" else yaml.safe_load(str(value))
            except yaml.YAMLError as exc:
                self._say(f"{key}: not valid YAML ({exc.__class__.__name__}); the text is kept, "
                          "nothing changed", error=True)  # fmt: skip
                return
        try:
            if key:
                self.doc.set_payload(uid, key, v)
            else:
                entry = self.doc.unit(uid)
                for k in list(entry.get("data") or {}):
                    self.doc.set_payload(uid, k, None)
                for k, x in (v or {}).items():
                    self.doc.set_payload(uid, k, x)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._after_edit()

    # -- the Scenario tab ------------------------------------------------------------------------
    def _build_scenario_tab(self) -> None:
        self._fields: dict[str, W.Widget] = {}

        def text(
            key: str, desc: str, area: bool = False, rows: int = 6, width: str = "400px"
        ) -> W.Widget:
            cls = W.Textarea if area else W.Text
            kw = {"rows": rows} if area else {}
            w = cls(description=desc, continuous_update=False, layout=W.Layout(width=width),
                    style={"description_width": "70px"}, **kw)  # fmt: skip
            w.observe(lambda c, key=key: self._set_field(key, c["new"]), "value")
            w.add_class(f"owsnb-field-{key.replace('.', '-')}")
            self._fields[key] = w
            return w

        def number(key: str, desc: str) -> W.Widget:
            w = W.Text(description=desc, continuous_update=False, layout=W.Layout(width="200px"),
                       style={"description_width": "70px"})  # fmt: skip
            w.observe(
                lambda c, key=key: self._set_field(key, _parse(c["new"]) if c["new"] else None),
                "value",
            )
            self._fields[key] = w
            return w

        self.initiative = W.Dropdown(description="initiative", style={"description_width": "70px"})
        self.initiative.observe(lambda c: self._set_field("initiative", c["new"] or None), "value")
        self.sides_box = W.VBox()
        self.new_side = W.Text(placeholder="new side name", layout=W.Layout(width="160px"))
        self.options_box = W.VBox()
        self.options_button = button("show the options", self._draw_options, width="auto")
        self.scenario_tab.children = [
            _head("Scenario"),
            text("id", "id", width="300px"),
            text("title", "title"),
            text("description", "about", area=True, rows=2),
            W.HBox([number("turns", "turns"), number("seed", "dice seed")]),
            W.HBox([number("clock.turn", "first turn"), text("clock.date", "date", width="200px")]),
            self.initiative,
            _head("Sides"),
            self.sides_box,
            W.HBox([self.new_side, button("Add side", self._add_side, icon="plus", width="auto")]),
            _head("Briefing"),
            text("briefing", "briefing", area=True, rows=8),
            text("victory", "victory", area=True, rows=4),
            text("special_rules", "special rules", area=True, rows=4),
            W.HTML(f"<span style='{_CSS};{_MUTED}'>special rules: one a line</span>"),
            _head("Options"),
            self.options_button,
            self.options_box,
        ]

    def _set_field(self, key: str, value: Any) -> None:
        if self._syncing:
            return
        if key == "special_rules":
            value = [x.strip() for x in str(value).splitlines() if x.strip()] or None
        try:
            self.doc.set(key, value)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._after_edit()

    def _add_side(self) -> None:
        try:
            self.doc.add_side(self.new_side.value.strip())
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self.new_side.value = ""
        self._after_edit()

    def _sync_scenario_tab(self) -> None:
        d = self.doc.data
        for key, w in self._fields.items():
            v: Any = d
            for p in key.split("."):
                v = v.get(p) if isinstance(v, Mapping) else None
            if key == "special_rules":
                text = "\n".join(str(x) for x in v or [])
            elif isinstance(v, (dict, list)):
                text = yaml.safe_dump(v, sort_keys=False).strip()
            else:
                text = "" if v is None else str(v)
            if w.value != text:
                w.value = text
        sides = list(d.get("sides") or {})
        opts = [("(none)", None), *((s, s) for s in sides)]
        if list(self.initiative.options) != opts:
            self.initiative.options = opts
        if self.initiative.value != d.get("initiative"):
            self.initiative.value = d.get("initiative") if d.get("initiative") in sides else None
        rows = []
        for name, s in (d.get("sides") or {}).items():
            t = W.Text(value=str(s.get("title", "")), description=name, continuous_update=False,
                       layout=W.Layout(width="260px"), style={"description_width": "60px"})  # fmt: skip
            t.observe(
                lambda c, name=name: self._set_field(f"sides.{name}.title", c["new"]), "value"
            )
            c = W.ColorPicker(value=str(s.get("color", "#888888")), concise=True,
                              layout=W.Layout(width="40px"))  # fmt: skip
            c.observe(
                lambda ch, name=name: self._set_field(f"sides.{name}.color", ch["new"]), "value"
            )
            rm = button("", functools.partial(self._remove_side, name), icon="trash", width="36px",
                        tooltip=f"remove side {name} (only without units)")  # fmt: skip
            rows.append(W.HBox([t, c, rm]))
        old_key = getattr(self, "_sides_key", None)
        key = json.dumps(d.get("sides") or {}, sort_keys=True)
        if key != old_key:
            self._sides_key = key
            self._replace(self.sides_box, rows)
        if self.options_box.children:
            self._draw_options()

    def _remove_side(self, name: str) -> None:
        try:
            self.doc.remove_side(name)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._after_edit()

    def _draw_options(self) -> None:
        rs = self.doc.ruleset
        if rs is None:
            return
        self.options_button.layout.display = "none"
        given = self.doc.data.get("options") or {}
        key = json.dumps(given, sort_keys=True, default=str)
        if key == getattr(self, "_options_key", None):
            return
        self._options_key = key
        rows = []
        for o in rs.option_list:
            value = given.get(o.name, o.default)
            label = o.name + (" *" if o.name in given else "")
            if o.choices:
                opts = list(o.choices) + ([value] if value not in o.choices else [])
                w: W.Widget = W.Dropdown(options=[(str(x), x) for x in opts], value=value,
                                         description=label)  # fmt: skip
            elif isinstance(o.default, bool):
                w = W.Checkbox(value=bool(value), description=label, indent=False)
            else:
                w = W.Text(value=str(value), description=label, continuous_update=False)
            w.style.description_width = "200px"
            w.layout.width = "400px"
            w.tooltip = o.doc
            w.observe(lambda c, o=o: self._set_option(o, c["new"]), "value")
            note = W.HTML(
                f"<div style='{_CSS};{_MUTED};margin:-2px 0 4px 8px;max-width:400px'>"
                f"{_esc(o.doc)} — default <code>{_esc(o.default)}</code>"
                f"{' · rule ' + _esc(o.rule) if o.rule else ''}</div>"
            )
            rows += [w, note]
        self._replace(self.options_box, rows)

    def _set_option(self, o: Any, value: Any) -> None:
        if self._syncing:
            return
        v = value
        if not o.choices and not isinstance(o.default, bool) and isinstance(value, str):
            v = _parse(value)
        try:
            self.doc.set_option(o.name, v)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._after_edit()

    # -- the Tables tab ----------------------------------------------------------------------------
    def _build_tables_tab(self) -> W.VBox:
        self.table_pick = W.Dropdown(description="table", style={"description_width": "50px"},
                                     layout=W.Layout(width="400px"))  # fmt: skip
        self.table_pick.observe(lambda c: self._draw_table(), "value")
        self.table_about = W.HTML()
        self.table_box = W.VBox()
        self.table_reset = button(
            "Back to the rule set's values", self._reset_table, icon="eraser", width="auto"
        )
        return W.VBox(
            [
                W.HTML(
                    f"<div style='{_CSS};{_MUTED};max-width:400px'>Type in the values of your own "
                    "printed edition: the scenario keeps only what differs (changed values are "
                    "marked *).</div>"
                ),
                self.table_pick,
                self.table_about,
                self.table_box,
                self.table_reset,
            ]
        )

    def _sync_tables_tab(self) -> None:
        spec = self.doc.editor
        names = [(f"{k} — {v}", k) for k, v in spec.tables.items()]
        if list(self.table_pick.options) != names:
            self.table_pick.options = names
        if self.tabs.selected_index == 3:
            self._draw_table()

    def _draw_table(self) -> None:
        name = self.table_pick.value
        if not name:
            self._replace(self.table_box, [])
            return
        try:
            table = self.doc.table(name)
        except EditError as exc:
            self._replace(self.table_box, [W.HTML(_esc(exc))])
            return
        over = (self.doc.data.get("tables") or {}).get(name)
        self.table_about.value = (
            f"<span style='{_CSS};{_MUTED}'>{_esc(self.doc.editor.tables.get(name, ''))}"
            f"{' — changed in this scenario' if over is not None else ''}</span>"
        )
        rows: list[W.Widget] = []
        default = self.doc.default_tables().get(name)
        _table_widgets(table, [], default, rows, lambda path, v: self._set_table(name, path, v))
        if len(rows) > 400:
            area = W.Textarea(value=yaml.safe_dump(table, sort_keys=False), rows=20,
                              continuous_update=False, layout=W.Layout(width="420px"))  # fmt: skip
            area.observe(lambda c: self._replace_table(name, c["new"]), "value")
            rows = [area]
        self._replace(self.table_box, rows)

    def _set_table(self, name: str, path: list[Any], text: str) -> None:
        if self._syncing:
            return
        value = _parse(text)
        try:
            self.doc.set_table(name, path, value)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._say(f"table {name}: {_path(path)} = {value!r}")
        self._after_edit()

    def _replace_table(self, name: str, text: str) -> None:
        if self._syncing:
            return
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            self._say(
                f"table {name}: not valid YAML ({exc}); the text is kept, nothing changed", True
            )
            return
        try:
            self.doc.replace_table(name, value)
        except EditError as exc:
            self._say(str(exc), error=True)
            return
        self._after_edit()

    def _reset_table(self) -> None:
        name = self.table_pick.value
        if not name:
            return
        self.doc.replace_table(name, self.doc.default_tables()[name])
        self._after_edit()

    # -- refreshing ------------------------------------------------------------------------------
    def _after_edit(self) -> None:
        """After any edit: redraw the map (what changed), the panels and the problems."""
        if self.app is not None:
            return
        self._refresh_map()
        self._refresh()

    def _refresh(self) -> None:
        self._syncing = True
        try:
            d = self.doc.data
            title = d.get("title") or d.get("id") or "new scenario"
            rs = self.seat.ruleset or self.doc.ruleset
            self.title.value = (
                f"<span style='font:15px system-ui'><b>{_esc(title)}</b> "
                f"<span style='{_MUTED}'>· scenario editor · {_esc(getattr(rs, 'name', '') or d.get('ruleset', ''))}"
                f"</span></span>"
            )
            n = len(self.doc.problems)
            if self.doc.valid:
                badge = "<span style='color:#15803d'>✓ the game loads it</span>"
            elif not self.doc.has_map:
                badge = "<span style='color:#b45309'>no map yet: drag a box on the map, then Make the map</span>"
            else:
                badge = f"<span style='color:#b91c1c'>⚠ {n} problem{'s' if n != 1 else ''} (tab Problems)</span>"
            dirty = " · <i>unsaved changes</i>" if self.doc.dirty else " · saved"
            self.status.value = (
                f"<span class='owsnb-editor-status' style='{_CSS}'>{badge}{dirty}</span>"
            )
            self.undo_button.disabled = not self.doc.can_undo
            self.redo_button.disabled = not self.doc.can_redo
            self.tabs.set_title(4, f"Problems ({n})" if n else "Problems")
            self.problems_html.value = self._problems_html()
            if str(self.doc.path) != self.path_text.value:
                self.path_text.value = str(self.doc.path)
            self._sync_map_tab()
            self._sync_units_tab()
            self._sync_scenario_tab()
            self._sync_tables_tab()
            self._draw_features()
            self._draw_problems()
            self._on_tool()
        finally:
            self._syncing = False

    def _problems_html(self) -> str:
        if not self.doc.problems:
            return f"<div style='{_CSS};color:#15803d'>No problems: the game loads this scenario.</div>"
        items = "".join(
            f"<li><code>{_esc(p.where or '(file)')}</code> {_esc(p.message)}"
            + (
                f" <span style='{_MUTED}'>(unit {_esc(p.unit)}"
                + (f", hex {_esc(p.hex)}" if p.hex else "")
                + ")</span>"
                if p.unit
                else (f" <span style='{_MUTED}'>(hex {_esc(p.hex)})</span>" if p.hex else "")
            )
            + "</li>"
            for p in self.doc.problems
        )
        return (
            f"<div class='owsnb-problems' style='{_CSS}'>The loader the game uses says "
            f"(outlined in red on the map where it concerns a hex):<ul>{items}</ul></div>"
        )

    def _on_tool(self, change: Any = None) -> None:
        tool = self.tool.value
        label, _, tip = TOOLS[tool]
        extra = ""
        if tool == "terrain":
            extra = f": {self.terrain.value}" if self.terrain.value else ": choose one under Map"
        elif tool == "feature":
            extra = f": {self.feature.value}" if self.feature.value else ": choose one under Map"
        elif tool == "edge":
            extra = f": {self.edge.value}" if self.edge.value else ": choose one under Map"
        elif tool == "unit":
            extra = (
                f": {self.armed} for {self.side.value}"
                if self.armed
                else ": choose a counter under Units"
            )
        elif tool == "move" and self._moving:
            extra = f": {self._moving} → click its new hex"
        if tool != "move":
            self._moving = None
        if tool != "unit" and self.armed and change is not None:
            self.armed = None
            self._draw_palette()
            self._show_boxes()
        self.hint.value = (
            f"<span style='{_CSS};{_MUTED}'><b>{_esc(label)}</b>{_esc(extra)} — {_esc(tip)}</span>"
        )

    def _on_tab(self, change: Any = None) -> None:
        if self.tabs.selected_index == 3:
            self._draw_table()

    def _on_path(self, change: dict) -> None:
        if self._syncing:
            return
        new = Path(str(change["new"])).expanduser()
        if new.suffix not in (".yaml", ".yml"):
            self._say("the file name should end in .yaml", error=True)
            return
        self.doc.path = new
        self._say(f"Save now writes {new}")
        self._refresh()

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#b91c1c" if error else "#374151"
        self.message.value = (
            f"<span class='owsnb-editor-message' style='{_CSS};color:{colour}'>{_esc(text)}</span>"
        )

    def _stop_play(self) -> None:
        self._close_play()
        self.body.layout.display = "flex"
        self.play_box.layout.display = "none"

    def _close_play(self) -> None:
        if self.app is not None:
            self.app.close()
            self.app = None
        self._game = None
        self.play_box.children = ()

    @staticmethod
    def _replace(box: W.Box, children: list[W.Widget]) -> None:
        old = box.children
        box.children = tuple(children)
        keep = {id(w) for c in children for w in widget_tree(c)}
        for c in old:
            for w in widget_tree(c):
                if id(w) not in keep:
                    w.close()

    def close(self) -> None:
        self.stop_serving()
        self._close_play()
        if self.table is not None:
            self.table.close()
        super().close()


# -- helpers -------------------------------------------------------------------------------------
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


def _css_string(text: str) -> str:
    """*text* inside a quoted CSS attribute selector (quotes, backslashes and markup escaped)."""
    return re.sub(r"[^A-Za-z0-9_.:-]", lambda m: f"\\{ord(m.group()):x} ", text)


def _collection(features: list[dict]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def _head(text: str) -> W.HTML:
    return W.HTML(
        f"<div style='{_CSS};font-weight:600;margin-top:8px;border-bottom:1px solid #e5e7eb'>{_esc(text)}</div>"
    )


def _parse(text: str) -> Any:
    """A typed value: YAML's reading of *text* (``3`` -> 3, ``true`` -> True, ``A1`` -> 'A1')."""
    try:
        return yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError:
        return text


def _dump_inline(value: Any) -> str:
    if value is None:
        return ""
    return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=80).strip()


def _kind(prop: Mapping[str, Any]) -> str:
    options = [prop, *(prop.get("anyOf") or [])]
    types = {o.get("type") for o in options if o.get("type") not in (None, "null")}
    if any("enum" in o or "const" in o for o in options):
        return "enum"
    if types == {"boolean"}:
        return "bool"
    if types == {"integer"}:
        return "int"
    if types <= {"integer", "number"} and types:
        return "number"
    if types == {"string"}:
        return "str"
    return "yaml"


def _enum(prop: Mapping[str, Any]) -> list[Any]:
    out: list[Any] = []
    for o in [prop, *(prop.get("anyOf") or [])]:
        out += list(o.get("enum") or [])
        if "const" in o:
            out.append(o["const"])
        if o.get("type") == "null":
            out.append(None)
    return out


def _path(parts: list[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else ("." if out else "") + str(p)
    return out


_MISSING = object()


def _at(obj: Any, key: Any) -> Any:
    """*obj*[*key*] when there is one (else a marker that equals nothing)."""
    if isinstance(obj, Mapping):
        return obj.get(key, _MISSING)
    if isinstance(obj, list) and isinstance(key, int) and 0 <= key < len(obj):
        return obj[key]
    return _MISSING


def _table_widgets(
    value: Any,
    path: list[Any],
    default: Any,
    rows: list[W.Widget],
    on_set: Callable[[list[Any], str], Any],
) -> None:
    """Widgets editing *value* (a data table or a part of it): mappings as headed sections, a
    list of lists as a grid, every other value a text box (typed as YAML reads it); a value that
    differs from the rule set's (*default*) is marked."""
    if isinstance(value, Mapping) or (
        isinstance(value, list) and not all(isinstance(r, list) and _scalars(r) for r in value)
    ):
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        for k, v in items:
            if k in ("placeholder", "note", "notes"):
                continue
            sub = _at(default, k)
            if isinstance(v, (Mapping, list)) and not _scalars(v):
                rows.append(
                    W.HTML(
                        f"<div style='{_CSS};font-weight:600;margin-top:4px'>{_esc(_path([*path, k]))}</div>"
                    )
                )
                _table_widgets(v, [*path, k], sub, rows, on_set)
            else:
                rows.append(_cell(v, [*path, k], v != sub, on_set, _path([k])))
        return
    if isinstance(value, list) and value:
        width = max(len(r) for r in value)
        cells = []
        for i, r in enumerate(value):
            for j in range(width):
                v = r[j] if j < len(r) else ""
                changed = v != _at(_at(default, i), j)
                cells.append(_cell(v, [*path, i, j], changed, on_set, "", width="64px"))
        grid = W.GridBox(
            cells,
            layout=W.Layout(
                grid_template_columns=f"repeat({width}, 66px)", grid_gap="1px", flex="0 0 auto"
            ),
        )
        grid.add_class("owsnb-table-grid")
        rows.append(grid)
        return
    rows.append(_cell(value, path, value != default, on_set, str(path[-1]) if path else "value"))


def _scalars(v: Any) -> bool:
    items = v.values() if isinstance(v, Mapping) else v
    return all(not isinstance(x, (Mapping, list)) for x in items)


def _cell(value: Any, path: list[Any], changed: bool, on_set: Callable[[list[Any], str], Any],
          label: str, width: str = "380px") -> W.Text:  # fmt: skip
    text = (
        _dump_inline(value)
        if isinstance(value, (Mapping, list))
        else ("null" if value is None else str(value))
    )
    w = W.Text(value=text, description=(label + (" *" if changed else "")) if label else "",
               continuous_update=False, layout=W.Layout(width=width),
               style={"description_width": "180px"} if label else {})  # fmt: skip
    if changed:
        w.add_class("owsnb-changed")
    w.observe(lambda c: on_set(path, c["new"]), "value")
    w.add_class("owsnb-cell")
    return w


class _Seminar:
    """``owsnb serve FILE`` as a child process (stopped with this kernel)."""

    def __init__(self, path: Path):
        import socket
        import tempfile

        from owsnb.api import games_dir

        def free() -> int:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                return int(s.getsockname()[1])

        self.tmp = Path(tempfile.mkdtemp(prefix="owsnb-seminar-"))
        self.links = self.tmp / "links.json"
        store = games_dir() / "seminars" / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}.owsnb"
        store.parent.mkdir(parents=True, exist_ok=True)
        from owsnb.server.cli import _die_with_parent

        self.log = open(self.tmp / "serve.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "owsnb", "serve", str(path), "--store", str(store),
             "--port", str(free()), "--voila-port", str(free()), "--voila-pool", "1",
             "--links-file", str(self.links)],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=_die_with_parent,
        )  # fmt: skip

    def wait(self, timeout: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    "owsnb serve stopped: "
                    + (self.tmp / "serve.log").read_text(errors="replace")[-600:]
                )
            if self.links.is_file():
                try:
                    return json.loads(self.links.read_text())
                except ValueError:
                    pass
            time.sleep(0.2)
        raise RuntimeError("owsnb serve did not start in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()


# -- the Voila page ------------------------------------------------------------------------------
def editor_page(query: str | None = None, **options: Any) -> Any:
    """The editor as Voila serves it (``notebooks/seminar/editor.ipynb``):

    * from ``owsnb edit FILE`` (``$OWSNB_EDIT_FILE``): that file (a new scenario if it does not
      exist yet, or a copy of ``--from``'s), saved there;
    * from ``owsnb serve`` (``$OWSNB_SERVER``): only with the umpire's link (its ``game`` and
      ``token``); scenarios are saved under ``$OWSNB_HOME/scenarios``;
    * anywhere else (a notebook, Binder): a new scenario saved under ``$OWSNB_HOME/scenarios``.
    """
    from owsnb.api import games_dir
    from owsnb.pages.seat import connect_from_query, message, seat_asked

    edit = os.environ.get("OWSNB_EDIT_FILE", "")
    if edit:
        path = Path(edit).expanduser()
        source: Any = path if path.is_file() else (os.environ.get("OWSNB_EDIT_FROM") or None)
        ruleset = os.environ.get("OWSNB_EDIT_RULESET") or "ows"
        return Editor(source, path=path, ruleset=ruleset, **options)
    folder = games_dir().parent / "scenarios"
    if os.environ.get("OWSNB_SERVER") or seat_asked(query):
        remote, problem = connect_from_query(query)
        if remote is None:
            return problem
        if getattr(remote, "role", "") != "umpire":
            return message(
                "The scenario editor is the umpire's",
                "Open it from the umpire's editor link (<code>owsnb serve</code> prints it).",
                "#c0392b",
            )
        remote.close() if hasattr(remote, "close") else None
    return Editor(None, path=folder / "new-scenario.yaml", chooser=True, **options)
