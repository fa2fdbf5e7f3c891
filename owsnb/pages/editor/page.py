"""The editor's page: :class:`Editor` lays out the header (title, status, Undo, Redo, Save, Play,
Serve), the map with its tools and the side panel's tabs, and combines the parts — the map
(:mod:`~owsnb.pages.editor.mapping`), the units (:mod:`~owsnb.pages.editor.units`), the scenario
(:mod:`~owsnb.pages.editor.scenario`), the tables (:mod:`~owsnb.pages.editor.tables`), the
problems (:mod:`~owsnb.pages.editor.problems`), save and play (:mod:`~owsnb.pages.editor.play`);
after every edit it redraws them from the document. :func:`editor_page` is the page Voila serves."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import ipywidgets as W

from owsnb.authoring.document import ScenarioDocument, new_document
from owsnb.kernel.errors import OwsnbError
from owsnb.pages.editor.base import CSS, MUTED, esc
from owsnb.pages.editor.docseat import DocSeat
from owsnb.pages.editor.mapping import WORLD_VIEW, MapPart
from owsnb.pages.editor.play import PlayPart
from owsnb.pages.editor.problems import ProblemsPart
from owsnb.pages.editor.scenario import ScenarioPart
from owsnb.pages.editor.tables import TablesPart
from owsnb.pages.editor.units import UnitsPart
from owsnb.widgets.controls import button
from owsnb.widgets.wire import widget_tree

__all__ = ["Editor", "editor_page", "TOOLS"]

TOOLS = {
    "select": ("select", "mouse-pointer", "click a counter to edit it, a hex to see what it holds"),
    "move": ("move", "arrows", "click a counter, then the hex it goes to"),
    "terrain": ("terrain", "paint-brush", "click hexes to paint the terrain chosen under Map"),
    "feature": ("feature", "map-marker", "click a hex to add or take away the feature chosen"),
    "edge": ("hexside", "road", "click near a hexside to add or take away the one chosen"),
    "unit": ("place unit", "plus-square", "click a hex to place the counter chosen under Units"),
}
"""The map tools: value -> (label, icon, what a click does)."""


class Editor(MapPart, UnitsPart, ScenarioPart, TablesPart, ProblemsPart, PlayPart):
    """The scenario editor (see :mod:`owsnb.pages.editor`).

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
        world_view: tuple[float, float, float] = WORLD_VIEW,
        chooser: bool = False,
    ):
        self.doc = _document(scenario_or_new, path, ruleset)
        self.map_height = map_height
        self.world_view = world_view
        self.seat = DocSeat(self.doc)
        self.table = None
        self.mapview = None
        self.globe = None
        self.draw = None
        self.problem_layer = None
        self.bbox = None
        self.armed = None
        self._moving = None
        self._syncing = False
        self._shown_layout = None
        self._shown_map = None
        self._game = None
        self.app = None
        self.seminar = None
        self.palette_items = {}

        header = self._build_header(serve, chooser)
        left = self._build_map_column()
        side = self._build_side_panel()
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

    def _build_header(self, serve: bool, chooser: bool) -> W.HBox:
        """The title and status, the file and the buttons (Undo... Serve), and the chooser of
        the scenario to start from."""
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
        return header

    def _build_map_column(self) -> W.VBox:
        """The map tools, the map (a globe until there is a grid) and the hint of the tool."""
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
        return left

    def _build_side_panel(self) -> W.Box:
        """The tabs: Map, Units, Scenario, Tables, Problems."""
        # the side panel's tabs scroll: their rows keep their height instead of shrinking
        self.style = W.HTML("<style>.owsnb-editor-side .widget-box > * {flex-shrink: 0}</style>")
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
            tab.layout.max_height = self.map_height
            tab.layout.overflow = "auto"
        side = W.Box(
            [self.tabs], layout=W.Layout(width="36%", min_width="420px", max_width="640px")
        )
        side.add_class("owsnb-editor-side")
        return side

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
        self.seat = DocSeat(doc)
        self._refresh_map()
        self._refresh()
        self._say(f"editing {doc.data.get('title') or doc.data.get('id')}; Save writes {doc.path}")
        return True

    def _open_chosen(self) -> None:
        self.open_scenario(self.start_from.value)

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
                f"<span style='font:15px system-ui'><b>{esc(title)}</b> "
                f"<span style='{MUTED}'>· scenario editor · {esc(getattr(rs, 'name', '') or d.get('ruleset', ''))}"
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
                f"<span class='owsnb-editor-status' style='{CSS}'>{badge}{dirty}</span>"
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
            f"<span style='{CSS};{MUTED}'><b>{esc(label)}</b>{esc(extra)} — {esc(tip)}</span>"
        )

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

    def close(self) -> None:
        self.stop_serving()
        self._close_play()
        if self.table is not None:
            self.table.close()
        super().close()


def _document(
    scenario_or_new: Any, path: str | os.PathLike | None, ruleset: str
) -> ScenarioDocument:
    """The document the editor edits (see :class:`Editor`'s arguments)."""
    if isinstance(scenario_or_new, ScenarioDocument):
        doc = scenario_or_new
    elif scenario_or_new is None or scenario_or_new == "new":
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(path).stem) if path else ""
        doc = new_document(
            stem or "new-scenario",
            stem.replace("-", " ").replace("_", " ").capitalize() or "New scenario",
            ruleset=ruleset,
            path=path,
        )
    else:
        doc = ScenarioDocument(scenario_or_new, path=path)
    if path is not None and doc.path != Path(path):
        doc.path = Path(path)
    return doc


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
