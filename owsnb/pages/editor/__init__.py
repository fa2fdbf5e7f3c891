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

The package holds one module a concern: :mod:`~owsnb.pages.editor.page` (the :class:`Editor`
widget that lays the page out and combines the parts, and :func:`editor_page`),
:mod:`~owsnb.pages.editor.mapping`, :mod:`~owsnb.pages.editor.units`,
:mod:`~owsnb.pages.editor.scenario`, :mod:`~owsnb.pages.editor.tables`,
:mod:`~owsnb.pages.editor.problems`, :mod:`~owsnb.pages.editor.play` (one part each: its tab, its
widgets and what they do), :mod:`~owsnb.pages.editor.docseat` (the map's seat on the document) and
:mod:`~owsnb.pages.editor.base` (what the parts share).

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

from owsnb.pages.editor.mapping import HEX_SIZES
from owsnb.pages.editor.page import TOOLS, Editor, editor_page

__all__ = ["Editor", "editor_page", "HEX_SIZES", "TOOLS"]
