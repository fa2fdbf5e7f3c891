"""The editor's Scenario tab: title, sides, start clock, turns, initiative, briefing, victory
conditions, special rules, and the rule set's options (with their defaults and rule paragraphs)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as W
import yaml

from owsnb.authoring.document import EditError
from owsnb.pages.editor.base import CSS, MUTED, EditorPart, esc, heading, parse
from owsnb.widgets.controls import button


class ScenarioPart(EditorPart):
    """The Scenario tab (see the module docstring)."""

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
                lambda c, key=key: self._set_field(key, parse(c["new"]) if c["new"] else None),
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
            heading("Scenario"),
            text("id", "id", width="300px"),
            text("title", "title"),
            text("description", "about", area=True, rows=2),
            W.HBox([number("turns", "turns"), number("seed", "dice seed")]),
            W.HBox([number("clock.turn", "first turn"), text("clock.date", "date", width="200px")]),
            self.initiative,
            heading("Sides"),
            self.sides_box,
            W.HBox([self.new_side, button("Add side", self._add_side, icon="plus", width="auto")]),
            heading("Briefing"),
            text("briefing", "briefing", area=True, rows=8),
            text("victory", "victory", area=True, rows=4),
            text("special_rules", "special rules", area=True, rows=4),
            W.HTML(f"<span style='{CSS};{MUTED}'>special rules: one a line</span>"),
            heading("Options"),
            self.options_button,
            self.options_box,
        ]

    def _set_field(self, key: str, value: Any) -> None:
        if self._syncing:
            return
        if key == "special_rules":
            value = [x.strip() for x in str(value).splitlines() if x.strip()] or None
        self._edit(lambda: self.doc.set(key, value))

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
        self._edit(lambda: self.doc.remove_side(name))

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
                f"<div style='{CSS};{MUTED};margin:-2px 0 4px 8px;max-width:400px'>"
                f"{esc(o.doc)} — default <code>{esc(o.default)}</code>"
                f"{' · rule ' + esc(o.rule) if o.rule else ''}</div>"
            )
            rows += [w, note]
        self._replace(self.options_box, rows)

    def _set_option(self, o: Any, value: Any) -> None:
        if self._syncing:
            return
        v = value
        if not o.choices and not isinstance(o.default, bool) and isinstance(value, str):
            v = parse(value)
        self._edit(lambda: self.doc.set_option(o.name, v))
