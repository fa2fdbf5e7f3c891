"""What the parts of the scenario editor share: the page's look (:data:`CSS`, :func:`heading`), how
a typed-in value is read (:func:`parse`), and :class:`EditorPart`, the base of each part — the
state the :class:`~owsnb.pages.editor.page.Editor` sets up and every part reads."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W
import yaml

from owsnb.authoring.document import EditError
from owsnb.widgets.wire import widget_tree

if TYPE_CHECKING:
    import ipyleaflet as L

    from owsnb.authoring.document import ScenarioDocument
    from owsnb.pages.editor.docseat import DocSeat
    from owsnb.pages.editor.play import Seminar
    from owsnb.widgets.mapview import MapView, StaticGeoJSON
    from owsnb.widgets.table import Table

CSS = "font:13px system-ui,sans-serif"


MUTED = "color:#6b7280"


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def heading(text: str) -> W.HTML:
    return W.HTML(
        f"<div style='{CSS};font-weight:600;margin-top:8px;border-bottom:1px solid #e5e7eb'>{esc(text)}</div>"
    )


def parse(text: str) -> Any:
    """A typed value: YAML's reading of *text* (``3`` -> 3, ``true`` -> True, ``A1`` -> 'A1')."""
    try:
        return yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError:
        return text


def dump_inline(value: Any) -> str:
    if value is None:
        return ""
    return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=80).strip()


class EditorPart(W.VBox):
    """A part of the editor (the map, the units, the scenario, the tables, the problems, save and
    play): its methods and widgets, on the one widget :class:`~owsnb.pages.editor.page.Editor`
    that combines them all. The state below is set up by the editor and shared by the parts; a
    part edits the document through :meth:`_edit` (or calls ``self._after_edit()`` after an edit:
    the editor redraws the map and the panels)."""

    doc: ScenarioDocument  # the scenario being edited
    seat: DocSeat  # the map's table reads the document through it
    map_height: str
    world_view: tuple[float, float, float]  # what the globe shows before there is a grid
    table: Table | None  # the map's table (``None`` before there is a map)
    mapview: MapView | None
    globe: L.Map | None  # the map before there is a grid
    draw: L.DrawControl | None  # the box-drawing control
    feature_layer: StaticGeoJSON
    problem_layer: StaticGeoJSON | None
    bbox: tuple[float, float, float, float] | None  # the box drawn for a new map
    tool: W.ToggleButtons  # the map tool a click uses
    tabs: W.Tab  # the side panel: Map, Units, Scenario, Tables, Problems
    armed: str | None  # the counter type the "place unit" tool places
    palette_items: dict[str, W.Widget]  # the palette's counters by type
    app: Any  # the table opened by Play solo (``None`` while editing)
    seminar: Seminar | None  # the seminar started by Serve
    _moving: str | None  # the unit the "move" tool moves
    _syncing: bool  # the panels are being redrawn from the document: their events are no edits
    _shown_layout: Any  # the map's grid as drawn (a new grid: a new map view)
    _shown_map: Any  # the map's section of the document as drawn
    _game: Any  # the game Play solo opened

    def _edit(self, change: Callable[[], Any], done: str = "") -> bool:
        """Make one edit of the document: refused (an :class:`EditError`), the refusal is said and
        nothing changes; made, *done* is said (if any) and the map and the panels are redrawn.
        Returns whether it was made."""
        try:
            change()
        except EditError as exc:
            self._say(str(exc), error=True)
            return False
        if done:
            self._say(done)
        self._after_edit()
        return True

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#b91c1c" if error else "#374151"
        self.message.value = (
            f"<span class='owsnb-editor-message' style='{CSS};color:{colour}'>{esc(text)}</span>"
        )

    @staticmethod
    def _replace(box: W.Box, children: list[W.Widget]) -> None:
        old = box.children
        box.children = tuple(children)
        keep = {id(w) for c in children for w in widget_tree(c)}
        for c in old:
            for w in widget_tree(c):
                if id(w) not in keep:
                    w.close()
