"""The editor's units: the palette of the rule set's counters (filtered by side, forces and map
scale) that arms the *place unit* tool, the boxes a unit may go in (aboard, at a base, in
reserve...), the units off the map, and the form of the unit selected — its fields and its
payload, made from the rule set's schema (what differs from the catalog is kept)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as W
import yaml

from owsnb.authoring.document import EditError
from owsnb.kernel.data import freeze
from owsnb.kernel.state import Unit
from owsnb.pages.editor.base import CSS, MUTED, EditorPart, dump_inline, esc, heading, parse
from owsnb.widgets.controls import button


class UnitsPart(EditorPart):
    """The Units tab (see the module docstring)."""

    def pick_counter(self, type_key: str) -> None:
        """Arm the *place unit* tool with counter type *type_key* (as a click on the palette)."""
        if type_key not in self.doc.counter_types():
            raise EditError(f"no counter type {type_key!r}")
        self.armed = type_key
        self.tool.value = "unit"
        self._draw_palette()
        self._show_boxes()
        self._on_tool()

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
                heading("Selected unit"),
                self.unit_form,
                heading("Counters"),
                W.HBox([W.HTML(f"<span style='{CSS}'>side</span>"), self.side]),
                W.HBox([W.HTML(f"<span style='{CSS}'>forces</span>"), self.faction]),
                W.HBox([W.HTML(f"<span style='{CSS}'>scale</span>"), self.scale]),
                self.palette,
                self.boxes,
                self.hosts_box,
                heading("Off the map (in boxes)"),
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
            items: list[W.Widget] = [W.HTML(f"<span style='{CSS}'><b>{esc(box)}</b></span>")]
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
            rows = [W.HTML(f"<span style='{CSS};{MUTED}'>none</span>")]
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
                self.palette, [W.HTML(f"<span style='{CSS};{MUTED}'>make a map first</span>")]
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
                    f"<span style='{CSS};{MUTED}'>no counter of these forces at this scale</span>"
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
        items: list[W.Widget] = [W.HTML(f"<span style='{CSS}'>or put {esc(what)} in a box:</span>")]
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
                W.HTML(f"<span style='{CSS}'>{esc(box)}: whose? ({esc(decl.doc)})</span>")
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
                        f"<span style='{CSS};{MUTED}'>click a counter on the map (tool select)</span>"
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
            f"<div style='{CSS};display:flex;gap:8px;align-items:center'>{svg}<div><b>{esc(uid)}</b> "
            f"{esc(t.get('name', ''))}<br><span style='{MUTED}'>{esc(entry.get('type'))} · "
            f"{esc(where)}</span></div></div>"
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
        fields += [remove, heading("Payload (catalog values unless changed)")]
        fields += self._payload_fields(uid, t)
        self._replace(self.unit_form, fields)

    def _set_unit_field(self, uid: str, key: str, value: Any) -> None:
        if self._syncing:
            return
        v: Any = value
        if key == "steps":
            v = None if str(value).strip() == "" else parse(str(value))
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
        self._edit(lambda: self.doc.remove_unit(uid), f"removed {uid}")

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
            out.append(W.HTML(f"<span style='{CSS};{MUTED}'>this rule set's payload is free: "
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
            text = ("" if value is None else str(value)) if compact else dump_inline(value)
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


# -- payload fields from the rule set's JSON schema ------------------------------------------
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
