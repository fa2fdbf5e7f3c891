"""The editor's Tables tab: the tables a scenario may override, typed in from the instructor's
own printed edition (the rule set's placeholders first); the scenario keeps only what differs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as W
import yaml

from owsnb.authoring.document import EditError
from owsnb.kernel.errors import key_path
from owsnb.pages.editor.base import CSS, MUTED, EditorPart, dump_inline, esc, parse
from owsnb.widgets.controls import button


class TablesPart(EditorPart):
    """The Tables tab (see the module docstring)."""

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
                    f"<div style='{CSS};{MUTED};max-width:400px'>Type in the values of your own "
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
            self._replace(self.table_box, [W.HTML(esc(exc))])
            return
        over = (self.doc.data.get("tables") or {}).get(name)
        self.table_about.value = (
            f"<span style='{CSS};{MUTED}'>{esc(self.doc.editor.tables.get(name, ''))}"
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
        value = parse(text)
        self._edit(
            lambda: self.doc.set_table(name, path, value),
            f"table {name}: {key_path(path)} = {value!r}",
        )

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
        self._edit(lambda: self.doc.replace_table(name, value))

    def _reset_table(self) -> None:
        name = self.table_pick.value
        if not name:
            return
        self.doc.replace_table(name, self.doc.default_tables()[name])
        self._after_edit()

    def _on_tab(self, change: Any = None) -> None:
        if self.tabs.selected_index == 3:
            self._draw_table()


# -- a table's widgets -------------------------------------------------------------------------

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
                        f"<div style='{CSS};font-weight:600;margin-top:4px'>{esc(key_path([*path, k]))}</div>"
                    )
                )
                _table_widgets(v, [*path, k], sub, rows, on_set)
            else:
                rows.append(_cell(v, [*path, k], v != sub, on_set, key_path([k])))
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
        dump_inline(value)
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
