"""OrderPanel: the orders legal now for this seat, parameters picked on the map or from lists,
an exact preview before submitting, refusals with their rule paragraph, and the step control.

The panel holds no rule logic: the verbs, parameters and candidate values come from the rule
set's :class:`~owsnb.kernel.orders.OrderSpec` list; legality from ``seat.check``; the preview from
``seat.preview``. A click on the map fills a parameter: a unit fills the first unit parameter
that admits it — its candidates when the rule set lists them, else what its kind admits (own
units; another side's for a target: :mod:`owsnb.widgets.params`) — choosing the verb first if
none is chosen; an empty hex fills the first hex parameter.

The rule set's ready-made orders are offered for the chosen verb when it needs a value that
neither a click nor a list gives (salvos, text...), and for every verb on demand ("suggestions").

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> p = OrderPanel(tiny_game(), seat="blue")
    >>> p.verbs.options, p.done_button.description
    ((), 'Done (blue)')
    >>> p.done_button.click(); p.table.view.clock.done
    frozenset({'blue'})
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import TextStyle

from owsnb.kernel.orders import Order, OrderSpec, Param
from owsnb.kernel.state import UMPIRE
from owsnb.widgets import render
from owsnb.widgets.controls import button
from owsnb.widgets.panel import Panel
from owsnb.widgets.params import admits, clickable
from owsnb.widgets.table import Pick, Refusal, Table
from owsnb.widgets.wire import widget_tree

__all__ = ["OrderPanel", "SUGGESTIONS"]

SUGGESTIONS = 20
"""At most this many ready-made orders are listed for the chosen verb (pick a value to narrow)."""


def _agrees(example: Any, picked: Any) -> bool:
    """Does an example's value fit what was picked (a repeated value: contains every pick)?"""
    if isinstance(picked, tuple):
        return isinstance(example, tuple) and all(p in example for p in picked)
    return example == picked


_GENERIC = ("done", "advance")


class OrderPanel(Panel):
    """Give orders with the mouse (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side giving orders when *source* is a Game.
    """

    lazy = False  # map clicks keep preparing orders while the panel is hidden (messages held)

    def __init__(self, source: Any, seat: str | None = None):
        self.table = Table.of(source, seat)
        self.values: dict[str, Any] = {}
        self._editors: dict[str, W.Widget] = {}
        self._cache: dict[tuple, W.Widget] = {}
        self._cache_seat: Any = self.table.seat  # the seat the kept editors were made for
        # shared by every parameter editor: one browser model each instead of one per editor
        self._wide = W.Layout(width="98%")
        self._label_layout = W.Layout(width="94px")
        self._drop_style = DescriptionStyle(description_width="90px")
        self._text_style = TextStyle(description_width="90px")
        self._quiet = False
        self.clock = W.HTML()
        self.actor = W.Dropdown(description="act as", layout=W.Layout(width="220px"))
        self.actor.observe(self._on_actor, "value")
        self._verb_style = W.ToggleButtonsStyle(button_width="auto")  # shared by each new row
        # shown and hidden, shared by every row: a new row of verbs opens no layout model
        self._verb_layouts = {True: W.Layout(display=""), False: W.Layout(display="none")}
        self.verbs = self._verb_buttons([], [], None)
        self._verbs_box = W.Box([self.verbs])  # a new row replaces it here, nowhere else
        self.doc = W.HTML()
        self.params = W.VBox()
        self.info = (
            W.HTML()
        )  # the order, its preview or refusal, the last result: one widget, one message
        self.sections: dict[str, str] = {"order": "", "preview": "", "refusal": "", "result": ""}
        self.submit_button = button(
            "Submit",
            self.submit,
            icon="check",
            style="primary",
            tooltip="submit the order (an incomplete one is explained, not sent)",
        )
        self.clear_button = button("Clear", self.reset, icon="times")
        self.undo_button = button(
            "Undo", self.table.undo, icon="undo", tooltip="take back the last submission"
        )
        self.suggest = W.ToggleButton(
            value=False,
            description="suggestions",
            icon="lightbulb-o",
            tooltip="list the ready-made orders the rule set offers now: those of the chosen "
            "order that fit what is already picked, or every one when no order is chosen",
        )
        self.suggest.observe(lambda _: self._on_view(), "value")
        # the list takes the room the panel has (never less than 120 px), "Use" keeps its size,
        # and the row goes under the suggestions button when the panel is narrower still
        self.quick = W.Dropdown(
            layout=W.Layout(width="auto", flex="1 1 120px", min_width="120px"),
            tooltip="ready-made orders offered by the rule set",
        )
        self.quick_button = button("Use", self._use_quick, width="60px")
        self.quick_button.layout.flex = "0 0 auto"
        self.quick_row = W.HBox(
            [self.quick, self.quick_button],
            layout=W.Layout(display="none", flex="1 1 200px", min_width="190px"),
        )
        self.done_button = button(
            "Done", self.done, icon="forward", style="success", tooltip="finished with this step"
        )
        self.advance_button = button(
            "Advance step",
            self.advance,
            icon="fast-forward",
            style="warning",
            tooltip="umpire: end the current step now",
        )
        super().__init__(
            [
                render.style_widget(),
                self.clock,
                self.actor,
                self._verbs_box,
                self.doc,
                self.params,
                self.info,
                W.HBox([self.submit_button, self.clear_button, self.undo_button]),
                W.HBox([self.suggest, self.quick_row], layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.done_button, self.advance_button]),
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-orders")
        self.table.hold(self)
        t = self.table
        self.watch(self._on_view, ["revision"])
        self.watch(self._on_eval, ["preview", "problem", "order"])
        self.watch(self._on_refusal, ["refusal"])
        self.watch(self._on_last, ["last"])
        t.on_pick(self._on_pick)
        self._on_view()

    # -- reading -------------------------------------------------------------------------------
    @property
    def spec(self) -> OrderSpec | None:
        """The spec of the chosen verb (``None`` if none is chosen or it is no longer legal)."""
        legal = self.table.legal
        if legal is None or self.verbs.value is None:
            return None
        for s in legal:
            if s.verb == self.verbs.value:
                return s
        return None

    def candidates(self, p: Param) -> tuple[str, ...]:
        """Candidate values of parameter *p* now (the spec's, else the parameter's fixed
        choices)."""
        spec = self.spec
        c = spec.candidates.get(p.name) if spec is not None else None
        return tuple(c) if c else tuple(p.choices)

    # -- redraw --------------------------------------------------------------------------------
    def _on_view(self, change: Any = None) -> None:
        t = self.table
        if t.seat is not self._cache_seat:
            self._drop_editors()
        view = t.view
        seat = t.seat.side
        actor = t.actor or seat
        self.clock.value = render.clock_html(view, actor, seat)
        umpire = seat == UMPIRE
        self._quiet = True
        try:
            options = (
                [*view.clock.acting, *(s for s in view.sides if s not in view.clock.acting), UMPIRE]
                if umpire
                else [seat]
            )
            self.actor.options = list(dict.fromkeys(options))
            self.actor.value = actor
        finally:
            self._quiet = False
        self.actor.layout.display = "" if umpire else "none"
        legal = t.legal
        verbs = [s.verb for s in legal if s.verb not in _GENERIC] if legal is not None else []
        tips = [
            f"{s.type.doc} (rule {s.type.rule})" if s.type.rule else s.type.doc
            for s in (legal or ())
            if s.verb not in _GENERIC
        ]
        keep = self.verbs.value if self.verbs.value in verbs else None
        old = tuple(self.verbs.options)
        if tuple(verbs) != old:
            self._quiet = True
            try:
                if len(verbs) < len(old) and tuple(verbs) == old[: len(verbs)]:
                    self._replace_verbs(verbs, tips, keep)  # a prefix: the browser would not redraw
                else:
                    self.verbs.options = verbs
                    self.verbs.tooltips = tips
                    self.verbs.value = keep
                    self.verbs.layout = self._verb_layouts[bool(verbs)]
            finally:
                self._quiet = False
            if keep is None:
                self.values = {}
        verbs_all = legal.verbs if legal is not None else []
        self.done_button.description = f"Done ({actor})"
        self.done_button.disabled = "done" not in verbs_all
        self.advance_button.layout.display = "" if umpire else "none"
        self.advance_button.disabled = "advance" not in verbs_all
        self.undo_button.disabled = not t.live
        self._build_params()
        self._update_order()

    def _verb_buttons(self, verbs: list[str], tips: list[str], value: Any) -> W.ToggleButtons:
        """A row of verb buttons (hidden when there is no verb)."""
        w = W.ToggleButtons(
            options=verbs,
            tooltips=tips,
            value=value,
            style=self._verb_style,
            layout=self._verb_layouts[bool(verbs)],  # shared: a new row opens no layout model
        )
        w.observe(self._on_verb, "value")
        return w

    def _replace_verbs(self, verbs: list[str], tips: list[str], value: Any) -> None:
        """Put a new row of verb buttons in place of the old one (closed): the browser's
        ToggleButtons redraws only when a label among the new options changes, so a list that
        shrinks to nothing or to a prefix of the old one would keep showing the old buttons (any
        other change is redrawn in place, one message).
        The row sits alone in its box: a browser redraws every child of a box after the first
        one that changed, so the panel's other controls are left alone."""
        old, self.verbs = self.verbs, self.adopt(self._verb_buttons(verbs, tips, value))
        self._verbs_box.children = (self.verbs,)
        shared = (self._verb_style, *self._verb_layouts.values())
        for w in widget_tree(old):
            if not any(w is x for x in shared):
                w.close()

    def _build_params(self) -> None:
        spec = self.spec
        if spec is None:
            self.doc.value = (
                "<span style='color:#6b7280'>"
                + (
                    "the table shows the past"
                    if not self.table.live
                    else "click one of your counters, or choose an order"
                )
                + "</span>"
            )
            self._set_editors({})
            return
        ot = spec.type
        rule = f" <span style='color:#6b7280'>rule {ot.rule}</span>" if ot.rule else ""
        note = f"<br><i>{render.esc(spec.note)}</i>" if spec.note else ""
        self.doc.value = f"<b>{render.esc(ot.verb)}</b>: {render.esc(ot.doc)}{rule}{note}"
        self._set_editors({p.name: self._editor(ot.verb, p) for p in ot.params})
        self._show_values()

    def _drop_editors(self) -> None:
        """Close the kept editors (a new seat: their lists name the last seat's units)."""
        self._set_editors({})
        shared = {
            id(x) for x in (self._wide, self._label_layout, self._drop_style, self._text_style)
        }
        for box in self._cache.values():
            for w in reversed(widget_tree(box)):
                if id(w) not in shared:
                    w.close()
        self._cache = {}
        self._cache_seat = self.table.seat

    def _set_editors(self, editors: dict[str, W.Widget]) -> None:
        self._editors = editors
        children = tuple(editors.values())
        if self.params.children != children:
            self.params.children = children

    def _editor(self, verb: str, p: Param) -> W.Widget:
        """The editor of parameter *p* of *verb*: made once, then kept and updated in place (a
        new widget costs a browser model; new candidates only cost their labels)."""
        cands = self.candidates(p)
        view = self.table.view

        def label(v: str) -> str:
            u = view.units.get(v) if p.kind == "unit" else None
            return f"{v} — {u.name}" if u is not None and u.name and u.name != v else v

        key = (verb, p.name, bool(cands), p.repeat)
        box = self._cache.get(key)
        if box is not None:
            ed = box._owsnb_input  # type: ignore[attr-defined]
            if isinstance(ed, W.Dropdown):
                options = [("—", "")] + [(label(c), c) for c in cands]
                if list(ed.options) != options:
                    self._quiet = True
                    try:
                        keep = ed.value if ed.value in cands else ""
                        ed.options = options
                        ed.value = keep
                    finally:
                        self._quiet = False
            elif isinstance(ed, W.TagsInput) and list(ed.allowed_tags) != list(cands):
                ed.allowed_tags = list(cands)
            return box
        desc = p.name + ("" if not p.optional else " (optional)")
        tip = f"{p.kind}: {p.doc}" if p.doc else p.kind
        if p.repeat and cands:
            ed = W.TagsInput(
                allowed_tags=list(cands), allow_duplicates=True, layout=self._wide, tooltip=tip
            )
            box = W.HBox([W.Label(desc, layout=self._label_layout), ed])
        elif cands:
            ed = W.Dropdown(
                options=[("—", "")] + [(label(c), c) for c in cands],
                value="",
                description=desc,
                style=self._drop_style,
                layout=self._wide,
                tooltip=tip,
            )
            box = ed
        else:
            hint = (
                "a,b,c"
                if p.repeat
                else "click the map"
                if p.kind == "hex"
                else "click a counter"
                if p.kind == "unit"
                else p.kind
            )
            ed = W.Text(
                placeholder=hint,
                description=desc,
                style=self._text_style,
                layout=self._wide,
                tooltip=tip,
                continuous_update=False,
            )
            box = ed
        box._owsnb_input = ed  # type: ignore[attr-defined]
        ed.observe(lambda ch, n=p.name: self._edited(n, ch["new"]), "value")
        self._cache[key] = box
        return self.adopt(box)

    def _show_values(self) -> None:
        self._quiet = True
        try:
            for name, box in self._editors.items():
                ed = box._owsnb_input  # type: ignore[attr-defined]
                v = self.values.get(name)
                want: list[Any] | str
                if isinstance(ed, W.TagsInput):
                    want = list(v or [])
                elif isinstance(ed, W.Text) and isinstance(v, (list, tuple)):
                    want = ",".join(v)
                else:
                    want = "" if v is None else str(v)
                if isinstance(ed, W.Dropdown) and want not in [o[1] for o in ed.options]:
                    ed.options = [*ed.options, (want, want)]
                if ed.value != want:
                    ed.value = want
        finally:
            self._quiet = False

    def _edited(self, name: str, value: Any) -> None:
        if self._quiet:
            return
        if isinstance(value, str) and "," in value:
            value = tuple(x.strip() for x in value.split(",") if x.strip())
        if value in ("", None, [], ()):
            self.values.pop(name, None)
        else:
            self.values[name] = tuple(value) if isinstance(value, list) else value
        self._update_order()

    def _update_order(self) -> None:
        spec = self.spec
        order = None
        if spec is not None:
            missing = [
                p.name for p in spec.type.params if not p.optional and p.name not in self.values
            ]
            if not missing:
                try:
                    order = spec.type.make(self.table.actor or self.table.seat.side, **self.values)
                except Exception as exc:  # noqa: BLE001 - a bad value is shown, not raised
                    self.table.problem = Refusal.of(exc)
            text = (
                f"<code>{render.esc(order)}</code>"
                if order is not None
                else (
                    "<span style='color:#6b7280'>still needed: "
                    f"{render.esc(', '.join(missing))}</span>"
                    if missing
                    else ""
                )
            )
            self._section("order", text)
        else:
            self._section("order", "")
        if self.table.order != order:
            self.table.order = order
        else:
            self._on_eval()
        self._update_quick()

    def suggestions(self) -> list[str]:
        """Ready-made orders offered by the rule set: those of the chosen verb that agree with
        the values picked so far — offered unasked only when the verb needs a value no click and
        no list gives — or, with "suggestions" on and no verb chosen, every one."""
        legal = self.table.legal
        spec = self.spec
        if legal is None:
            return []
        if spec is None:
            everything = [str(o) for s in legal for o in s.examples]
            return everything[: 10 * SUGGESTIONS] if self.suggest.value else []
        if not self.suggest.value and not self.needs_suggestions(spec):
            return []
        out = []
        for o in spec.examples:
            try:
                args = spec.type.bind(o)
            except Exception:  # noqa: BLE001 - a malformed example is simply not offered
                continue
            if all(_agrees(args.get(k), v) for k, v in self.values.items()):
                out.append(str(o))
        return out[:SUGGESTIONS]

    def needs_suggestions(self, spec: OrderSpec) -> bool:
        """Does *spec* need a value that neither a map click nor a list of choices gives?"""
        return any(
            not p.optional and not clickable(p) and not (spec.candidates.get(p.name) or p.choices)
            for p in spec.type.params
        )

    def _update_quick(self) -> None:
        examples = self.suggestions()
        options = [("—", "")] + [(e.partition(": ")[2], e) for e in examples]
        if list(self.quick.options) != options:
            self.quick.options = options
        shown = "" if examples else "none"
        if self.quick_row.layout.display != shown:
            self.quick_row.layout.display = shown

    def _on_eval(self, change: Any = None) -> None:
        t = self.table
        self._section(
            "preview",
            render.preview_html(t.preview, t.problem, t.order) if self.spec is not None else "",
        )

    def _on_refusal(self, change: Any = None) -> None:
        self._section("refusal", render.refusal_html(self.table.refusal))

    def _on_last(self, change: Any = None) -> None:
        self._section("result", render.submission_html(self.table.last))

    def _section(self, name: str, body: str) -> None:
        self.sections[name] = body
        value = "".join(f"<div>{v}</div>" for v in self.sections.values() if v)
        if self.info.value != value:
            self.info.value = value

    # -- acting --------------------------------------------------------------------------------
    def _on_actor(self, change: dict) -> None:
        if self._quiet or change["new"] is None:
            return
        self.table.actor = change["new"]
        self.values = {}
        self._on_view()

    def _on_verb(self, change: dict) -> None:
        if self._quiet:
            return
        self.values = {}
        self._build_params()
        self._update_order()

    def choose(self, verb: str | None) -> None:
        """Choose the order verb (``None``: none)."""
        if verb is not None and verb not in self.verbs.options:
            raise KeyError(
                f"{verb!r} is not an order {self.table.actor} may give now; "
                f"legal: {list(self.verbs.options)}"
            )
        self.verbs.value = verb

    def set(self, **values: Any) -> None:
        """Set parameter values of the chosen order (as if picked)."""
        for k, v in values.items():
            if v is None:
                self.values.pop(k, None)
            else:
                self.values[k] = v
        self._show_values()
        self._update_order()

    def _on_pick(self, pick: Pick) -> None:
        t = self.table
        if not t.live or t.legal is None:
            return
        if self.spec is None and pick.unit is not None:
            for s in t.legal:
                if s.verb in _GENERIC:
                    continue
                if any(self._accepts(s, p, pick.unit) for p in s.type.params):
                    self.choose(s.verb)
                    break
        spec = self.spec
        if spec is None:
            return
        params = spec.type.params
        units = [p for p in params if pick.unit is not None and self._accepts(spec, p, pick.unit)]
        hexes = [p for p in params if p.kind == "hex"]
        target = None
        if units:
            empty = [p for p in units if p.name not in self.values]
            target = (empty or units)[0]
            if not empty:  # switching the acting unit drops what was picked for the old one
                self.values = {}
            value: Any = pick.unit
        elif hexes and pick.hex is not None:
            empty = [p for p in hexes if p.name not in self.values]
            target = (empty or hexes)[0] if empty else hexes[-1]
            value = pick.hex
        if target is None:
            return
        if target.repeat:
            old = tuple(self.values.get(target.name, ()))
            value = old if value in old else (*old, value)
        self.values[target.name] = value
        self._show_values()
        self._update_order()

    def _accepts(self, spec: OrderSpec, p: Param, unit: str) -> bool:
        """May a click on *unit* fill *p* (the spec's candidates, else what its kind admits)?"""
        return admits(self.table.view, spec.side, p, unit, spec.candidates.get(p.name))

    def submit(self) -> Any:
        """Submit the order being prepared (a refusal shows in the panel)."""
        order = self.table.order
        if order is None:
            spec = self.spec
            missing = (
                [p.name for p in spec.type.params if not p.optional and p.name not in self.values]
                if spec
                else []
            )
            why = f"still needed: {', '.join(missing)}" if missing else "choose an order first"
            self.table.refusal = Refusal(f"the order is not complete ({why})", "incomplete")
            return None
        with self.table.batch():
            sub = self.table.submit(order)
            if sub is not None:  # done with that unit: its reach goes, the panel awaits the next
                self.values = {}
                self.table.unit = None
                self._on_view()
        return sub

    def done(self) -> Any:
        """The acting side has finished the current step."""
        return self.table.submit(Order(self.table.actor or self.table.seat.side, "done"))

    def advance(self) -> Any:
        """Umpire: end the current step now."""
        return self.table.submit(Order(UMPIRE, "advance"))

    def reset(self) -> None:
        """Clear the order being prepared."""
        self.values = {}
        self._quiet = True
        try:
            self.verbs.value = None
        finally:
            self._quiet = False
        self._build_params()
        self._update_order()

    def _use_quick(self) -> None:
        text = self.quick.value
        if not text:
            return
        o = Order.parse(text)
        self.choose(o.verb)
        spec = self.spec
        if spec is not None:
            try:
                self.values = dict(spec.type.bind(o))
            except Exception as exc:  # noqa: BLE001
                self.table.refusal = Refusal.of(exc)
                return
        self._show_values()
        self._update_order()

    def extra_widgets(self) -> list[Any]:
        return list(self._cache.values())

    def close(self) -> None:
        try:
            self.table.on_pick(self._on_pick, remove=True)
        except ValueError:
            pass
        super().close()
        for layout in getattr(self, "_verb_layouts", {}).values():  # the one out of the tree too
            layout.close()
