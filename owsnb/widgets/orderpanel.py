"""OrderPanel: the orders legal now for this seat, given with the mouse — clicks on the map fill
every unit and hex, lists are edited row by row — an exact preview before submitting, refusals
with their rule paragraph, what this side must answer, the results it is party to, and the step
control.

The panel holds no rule logic: the verbs, parameters and candidate values come from the rule
set's :class:`~owsnb.kernel.orders.OrderSpec` list; legality from ``seat.check``; the preview from
``seat.preview``; what a side must answer from the rule set's presentation (``prompt``).

**Clicks.** A click on a counter (on the map, in a stack's list or in the off-map tray) fills
the first unit parameter that admits it (:mod:`owsnb.widgets.params`: its candidates, else the
values of the rule set's ready-made orders, else what its kind admits) and is still empty — or
adds it to a list (a unit list, a salvo of that unit, a shield allocation for it); a click on a
unit already in a unit list takes it out. A counter that fills no parameter (the enemy you
attack, a friendly stack to move onto) gives its hex to the first empty hex parameter, as a
click on an empty hex does; when no place is wanted either, a click on a unit starts the order
again with it. With no order chosen, a click on a counter chooses the first order that can use
it. A click on a stack of several counters opens its list and gives the order nothing — the
next click, on a unit of the list, says which is meant — unless only a place is wanted: then the
stack's hex. What clicks fill shows in the order line ("unit ... · to: click a hex").

**Lists** (salvos, shield allocations, attackers, supports) are edited in rows: a picker per
item, a spinner for a count (``B-SQ-CCK:2``), a remove button, "add". **Typing** is the visible
alternative: "or type the order" takes the order's text (``shields B-SQ-CCK:2``).

The rule set's ready-made orders are offered for the chosen verb when it needs a value that
neither a click nor a list gives, and for every verb on demand ("suggestions").

The top of the panel keeps an empty slot (:attr:`OrderPanel.coach`) for a line that coaches the
step.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> p = OrderPanel(tiny_game(), seat="blue")
    >>> p.verbs.options, p.done_button.description
    ((), 'Done (blue)')
    >>> p.done_button.click(); p.table.view.clock.done
    frozenset({'blue'})
"""

from __future__ import annotations

import html
import re
from functools import partial
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import TextStyle

from owsnb.kernel.orders import Order, OrderSpec, Param
from owsnb.kernel.state import UMPIRE
from owsnb.widgets import render
from owsnb.widgets.controls import button
from owsnb.widgets.panel import Panel
from owsnb.widgets.params import admits, is_unit
from owsnb.widgets.seat import computer_holds
from owsnb.widgets.table import Pick, Refusal, Table
from owsnb.widgets.wire import widget_tree

__all__ = ["OrderPanel", "ListEditor", "SUGGESTIONS", "FOLLOW"]

SUGGESTIONS = 20
"""At most this many ready-made orders are listed for the chosen verb (pick a value to narrow)."""

FOLLOW = "*"
"""The umpire's "act as" choice that follows whoever acts."""

_GENERIC = ("done", "advance")

_OBSERVER = (
    "<div class='owsnb-w muted'>You are an <b>observer</b>: you watch the game as this seat may "
    "see it and give no orders.</div>"
)
_COUNTED = re.compile(r"^(?P<what>[^:]+):(?P<n>\d+)$")


def _agrees(example: Any, picked: Any) -> bool:
    """Does an example's value fit what was picked (a repeated value: contains every pick)?"""
    if isinstance(picked, tuple):
        return isinstance(example, tuple) and all(p in example for p in picked)
    return example == picked


def _items(spec: OrderSpec, p: Param) -> list[str]:
    """The items a list parameter may hold: its candidates, else every item of the rule set's
    ready-made orders (e.g. each salvo ``SOURCE:GROUP``, each allocation ``TARGET:N``)."""
    cands = spec.candidates.get(p.name)
    if cands:
        return [str(c) for c in cands]
    out: list[str] = []
    for o in spec.examples:
        try:
            v = spec.type.bind(o).get(p.name)
        except Exception:  # noqa: BLE001 - a malformed example gives nothing
            continue
        for x in v if isinstance(v, tuple) else (() if v is None else (v,)):
            if str(x) not in out:
                out.append(str(x))
    return out


class ListEditor(W.VBox):
    """A list parameter edited row by row: a picker per item (and a spinner when the items are
    counts, ``TARGET:N``), a remove button per row, and "add"; free text rows when the rule set
    names no items. ``value`` is the tuple of items; ``on_change(value)`` is called on every
    edit by the user.

    Example:
        >>> ed = ListEditor("alloc", ["B-SQ-CCK:2", "B-PAT-1:1"], lambda v: None)
        >>> ed.set_value(("B-SQ-CCK:2",)); ed.value
        ('B-SQ-CCK:2',)
        >>> ed.rows[0].children[1].value  # the spinner
        2
    """

    def __init__(self, name: str, items: list[str], on_change: Any, hint: str = ""):
        self.name = name
        self.on_change = on_change
        self._quiet = False
        self.value: tuple[str, ...] = ()
        self.items: list[str] = []
        self.counted = False
        self.choices: list[str] = []
        self.label = W.HTML()
        self.rows: list[W.HBox] = []
        self.rows_box = W.VBox()
        self.add_button = button("add", self._add, icon="plus", width="auto")
        self.hint = hint
        super().__init__([W.HBox([self.label, self.add_button]), self.rows_box])
        self.add_class("owsnb-list")
        self.set_items(items)

    def set_items(self, items: list[str]) -> None:
        """The items the rows may pick from (the counted form when every item is ``X:N``)."""
        counted = bool(items) and all(_COUNTED.match(i) for i in items)
        choices = (
            list(dict.fromkeys(_COUNTED.match(i).group("what") for i in items))  # type: ignore[union-attr]
            if counted
            else list(items)
        )
        if (choices, counted) != (self.choices, self.counted):
            self.items, self.counted, self.choices = list(items), counted, choices
            self._rebuild()
        text = f"<b>{self.name}</b>" + (
            f" <span style='color:#6b7280'>{render.esc(self.hint)}</span>" if self.hint else ""
        )
        if self.label.value != text:
            self.label.value = text

    def default(self, what: str) -> str:
        """The item a click on *what* adds (``what:N`` with the rule set's count for it)."""
        if self.counted:
            for i in self.items:
                m = _COUNTED.match(i)
                if m and m.group("what") == what:
                    return i
            return f"{what}:1"
        return next((i for i in self.items if i == what or i.startswith(f"{what}:")), what)

    def set_value(self, value: tuple[str, ...]) -> None:
        value = tuple(value)
        if value != self.value:
            self.value = value
            self._rebuild()

    def _rebuild(self) -> None:
        old = self.rows
        self.rows = [self._row(i, item) for i, item in enumerate(self.value)]
        self.rows_box.children = tuple(self.rows)
        for row in old:
            for w in widget_tree(row):
                w.close()

    def _row(self, i: int, item: str) -> W.HBox:
        parts: list[W.Widget] = []
        m = _COUNTED.match(item) if self.counted else None
        what = m.group("what") if m else item
        if self.choices:
            opts = list(self.choices) if what in self.choices else [*self.choices, what]
            pick = W.Dropdown(options=opts, value=what, layout=W.Layout(width="auto"))
        else:
            pick = W.Text(value=item, continuous_update=False, layout=W.Layout(width="auto"))
        pick.observe(lambda ch, i=i: self._edit(i), "value")
        parts.append(pick)
        if self.counted:
            n = W.BoundedIntText(
                value=int(m.group("n")) if m else 1,
                min=0,
                max=99,
                layout=W.Layout(width="64px"),
            )
            n.observe(lambda ch, i=i: self._edit(i), "value")
            parts.append(n)
        parts.append(button("", partial(self._remove, i), icon="times", width="36px"))
        return W.HBox(parts)

    def _read(self, row: W.HBox) -> str:
        kids = row.children
        if self.counted:
            return f"{kids[0].value}:{kids[1].value}"
        return str(kids[0].value).strip()

    def _edit(self, i: int) -> None:
        if self._quiet:
            return
        self.value = tuple(self._read(r) for r in self.rows)
        self.on_change(self.value)

    def _remove(self, i: int) -> None:
        self.set_value(self.value[:i] + self.value[i + 1 :])
        self.on_change(self.value)

    def _add(self) -> None:
        first = (
            self.default(self.choices[0])
            if self.counted and self.choices
            else (self.items[0] if self.items else "")
        )
        self.set_value((*self.value, first))
        self.on_change(self.value)


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
        self._drop_style = DescriptionStyle(description_width="90px")
        self._text_style = TextStyle(description_width="90px")
        self._wide = W.Layout(width="98%")
        self._quiet = False
        self._result_at: Any = None  # the moment (turn, step, who acts) the result shown is of
        self._result_seq = 0  # the last event of the submission shown
        self.coach = W.HTML(layout=W.Layout(display="none"))
        """An empty slot at the top, for a line that coaches the step (set its value and show
        it); nothing here writes it."""
        self.clock = W.HTML()
        self.prompt = W.HTML()
        self.actor = W.Dropdown(description="act as", layout=W.Layout(width="260px"))
        self.actor.observe(self._on_actor, "value")
        self._verb_style = W.ToggleButtonsStyle(button_width="auto")  # shared by each new row
        # shown and hidden, shared by every row: a new row of verbs opens no layout model
        self._verb_layouts = {True: W.Layout(display=""), False: W.Layout(display="none")}
        self.verbs = self._verb_buttons([], [], None)
        self._verbs_box = W.Box([self.verbs])  # a new row replaces it here, nowhere else
        self.doc = W.HTML()
        self.params = W.VBox()
        self.more = W.ToggleButton(
            value=False,
            description="options",
            icon="sliders",
            tooltip="the order's optional settings",
            layout=W.Layout(width="auto", display="none"),
        )
        self.more.observe(lambda _: self._build_params(), "value")
        self.optional = W.VBox(layout=W.Layout(display="none"))
        # the order (what clicks filled), its preview or refusal, the last result: one widget
        self.info = W.HTML()
        self.sections: dict[str, str] = {"order": "", "preview": "", "refusal": "", "result": ""}
        self.typed = W.Text(
            placeholder="or type the order, e.g. move B-1 0304 — then Enter",
            continuous_update=False,
            layout=W.Layout(width="98%"),
        )
        self.typed.observe(self._on_typed, "value")
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
            tooltip="umpire: end the current step now (resolving what the umpire resolves)",
        )
        self.feed = W.HTML()
        self.read_only = getattr(self.table.seat, "role", None) == "observer"
        self.giving = W.VBox(
            [
                self.actor,
                self._verbs_box,
                self.doc,
                self.params,
                self.more,
                self.optional,
                self.info,
                self.typed,
                W.HBox([self.submit_button, self.clear_button, self.undo_button]),
                W.HBox([self.suggest, self.quick_row], layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.done_button, self.advance_button]),
            ],
            layout=W.Layout(width="100%", display="none" if self.read_only else ""),
        )
        self.watching = W.HTML(
            _OBSERVER if self.read_only else "",
            layout=W.Layout(display="" if self.read_only else "none"),
        )
        self.handed: str | None = None  # the bot the umpire handed this seat's side to
        super().__init__(
            [
                render.style_widget(),
                self.coach,
                self.clock,
                self.prompt,
                self.watching,
                self.giving,
                self.feed,
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

    def candidates(self, p: Param, spec: OrderSpec | None = None) -> tuple[str, ...]:
        """Candidate values of parameter *p* now: the spec's, else the parameter's fixed
        choices, else the values the rule set's ready-made orders give it."""
        spec = spec or self.spec
        c = spec.candidates.get(p.name) if spec is not None else None
        if c:
            return tuple(c)
        if p.choices:
            return tuple(p.choices)
        return tuple(_items(spec, p)) if spec is not None else ()

    def clicked(self, p: Param, spec: OrderSpec | None = None) -> bool:
        """Is *p* given by clicks alone (a single unit or hex, every candidate on the map or in
        a tray)? Its value shows in the order line; other parameters get an editor."""
        if p.repeat:
            return False
        if p.kind == "hex":
            return True
        if not is_unit(p):
            return False
        spec = spec or self.spec
        cands = self.candidates(p, spec)
        units = self.table.view.units
        return not cands or all(c in units for c in cands)

    # -- redraw --------------------------------------------------------------------------------
    def _draw_handed(self) -> None:
        """While the umpire has handed this seat's side to the computer, the order controls are
        hidden and say why: the authority refuses the seat's orders meanwhile (the bot gives
        them through the umpire's seat)."""
        if self.read_only:
            return
        bot = self.handed = computer_holds(self.table.seat)
        side = html.escape(self.table.seat.side)
        text = (
            ""
            if bot is None
            else f"<div class='owsnb-w muted'>The umpire has handed <b>{side}</b> to the "
            f"computer ({html.escape(bot)}): it gives {side}'s orders, and the server refuses "
            f"yours meanwhile. You watch; your orders open again when the umpire takes {side} "
            "back.</div>"
        )
        if self.watching.value != text:
            self.watching.value = text
        shown, hidden = ("", "none") if bot else ("none", "")
        if self.watching.layout.display != shown:
            self.watching.layout.display = shown
        if self.giving.layout.display != hidden:
            self.giving.layout.display = hidden

    def _on_view(self, change: Any = None) -> None:
        t = self.table
        self._draw_handed()
        if t.seat is not self._cache_seat:
            self._drop_editors()
        view = t.view
        seat = t.seat.side
        actor = t.actor or seat
        you = getattr(self, "_you", None)
        if you is None:
            from owsnb.widgets.app import seat_label

            you = self._you = seat_label(t.seat)
        clock = render.clock_html(view, actor, you)
        if self.clock.value != clock:
            self.clock.value = clock
        self._draw_prompt()
        self._draw_feed()
        umpire = seat == UMPIRE and not self.read_only
        self._quiet = True
        try:
            options = (
                [
                    ("whoever acts", FOLLOW),
                    *((s, s) for s in view.sides),
                    ("umpire", UMPIRE),
                ]
                if umpire
                else [(seat, seat)]
            )
            if list(self.actor.options) != options:
                self.actor.options = options
            value = FOLLOW if umpire and t.follow else actor
            if self.actor.value != value:
                self.actor.value = value
        finally:
            self._quiet = False
        shown = "" if umpire else "none"
        if self.actor.layout.display != shown:
            self.actor.layout.display = shown
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
        self._step_controls(umpire, actor, verbs_all)
        self.undo_button.disabled = not t.live
        if self.sections["result"] and self._moved_on(view):
            self._section("result", "")  # the game moved on: the feed tells what came of it
        self._build_params()
        self._update_order()

    def _step_controls(self, umpire: bool, actor: str, verbs_all: list[str]) -> None:
        """One step control for each seat: a side's Done; the umpire's Done for the side acted
        for, and a single "Advance step" (the umpire's own Done when the umpire acts, else
        ``umpire: advance``)."""
        own = actor == UMPIRE
        desc = f"Done ({actor})"
        if self.done_button.description != desc:
            self.done_button.description = desc
        done_shown = "none" if (umpire and own) else ""
        if self.done_button.layout.display != done_shown:
            self.done_button.layout.display = done_shown
        self.done_button.disabled = "done" not in verbs_all
        adv = "" if umpire else "none"
        if self.advance_button.layout.display != adv:
            self.advance_button.layout.display = adv
        if umpire:
            ump = self._umpire_verbs() or verbs_all
            self.advance_button.disabled = not ("advance" in ump or "done" in ump)

    def _umpire_verbs(self) -> list[str]:
        """The umpire's own orders now (``[]`` in the past, or when the rule set lists none)."""
        t = self.table
        if not t.live:
            return []
        if t.actor == UMPIRE and t.legal is not None:
            return list(t.legal.verbs)
        try:
            return list(t.seat.legal_orders(UMPIRE).verbs)
        except (KeyError, ValueError):  # a rule set that lists orders for sides only
            return ["advance"] if UMPIRE not in t.view.clock.acting else []

    def _draw_prompt(self) -> None:
        t = self.table
        side = t.actor or t.seat.side
        lines = []
        if t.live and side in t.view.clock.acting:
            lines = list(t.presentation.prompt(t.view, side) or ())
        value = render.prompt_html(lines)
        if self.prompt.value != value:
            self.prompt.value = value

    def _draw_feed(self) -> None:
        value = render.feed_html(self.table.view)
        if self.feed.value != value:
            self.feed.value = value

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
            hint = (
                "the table shows the past"
                if not self.table.live
                else "click one of your counters, or choose an order"
            )
            doc = f"<span style='color:#6b7280'>{hint}</span>"
            if self.doc.value != doc:
                self.doc.value = doc
            self._set_editors({})
            if self.more.layout.display != "none":
                self.more.layout.display = "none"
            return
        ot = spec.type
        rule = f" <span style='color:#6b7280'>rule {ot.rule}</span>" if ot.rule else ""
        note = f"<br><i>{render.esc(spec.note)}</i>" if spec.note else ""
        doc = f"<b>{render.esc(ot.verb)}</b>: {render.esc(ot.doc)}{rule}{note}"
        if self.doc.value != doc:
            self.doc.value = doc
        edited = [p for p in ot.params if not self.clicked(p, spec)]
        # optional settings (not lists) wait behind "options": the order is complete without
        optional = [p for p in edited if p.optional and not p.repeat]
        self._set_editors(
            {p.name: self._editor(spec, p) for p in edited if p not in optional},
            {p.name: self._editor(spec, p) for p in optional} if self.more.value else {},
        )
        shown = "" if optional else "none"
        if self.more.layout.display != shown:
            self.more.layout.display = shown
        self._show_values()

    def _drop_editors(self) -> None:
        """Close the kept editors (a new seat: their lists name the last seat's units)."""
        self._set_editors({})
        shared = {id(x) for x in (self._wide, self._drop_style, self._text_style)}
        for box in self._cache.values():
            for w in reversed(widget_tree(box)):
                if id(w) not in shared:
                    w.close()
        self._cache = {}
        self._cache_seat = self.table.seat

    def _set_editors(
        self, editors: dict[str, W.Widget], optional: dict[str, W.Widget] | None = None
    ) -> None:
        optional = optional or {}
        self._editors = {**editors, **optional}
        for box, eds in ((self.params, editors), (self.optional, optional)):
            children = tuple(eds.values())
            if box.children != children:
                box.children = children
        shown = "" if optional else "none"
        if self.optional.layout.display != shown:
            self.optional.layout.display = shown

    def _label(self, v: str) -> str:
        u = self.table.view.units.get(v)
        return f"{v} — {u.name}" if u is not None and u.name and u.name != v else v

    def _editor(self, spec: OrderSpec, p: Param) -> W.Widget:
        """The editor of parameter *p* of the chosen order: made once, then kept and updated in
        place (a new widget costs a browser model; new candidates only cost their labels)."""
        verb = spec.verb
        cands = self.candidates(p, spec)
        desc = p.name + ("" if not p.optional else " (optional)")
        tip = f"{p.kind}: {p.doc}" if p.doc else p.kind
        if p.repeat:
            key: tuple[str, str, Any] = (verb, p.name, "list")
            ed = self._cache.get(key)
            items = _items(spec, p)
            hint = (
                "click a counter to add it, or add a row"
                if is_unit(p) or p.kind == "salvo" or items
                else "add a row per item"
            ) + (" (optional)" if p.optional else "")
            if ed is None:
                ed = ListEditor(p.name, items, lambda v, n=p.name: self._edited(n, v), hint)
                ed._owsnb_input = ed  # type: ignore[attr-defined]
                self._cache[key] = ed
                return self.adopt(ed)
            ed.hint = hint
            ed.set_items(items)
            return ed
        key = (verb, p.name, bool(cands))
        box = self._cache.get(key)
        if box is not None:
            ed = box._owsnb_input  # type: ignore[attr-defined]
            if isinstance(ed, W.Dropdown):
                options = [("—", "")] + [(self._label(c), c) for c in cands]
                if list(ed.options) != options:
                    self._quiet = True
                    try:
                        keep = ed.value if ed.value in cands else ""
                        ed.options = options
                        ed.value = keep
                    finally:
                        self._quiet = False
            return box
        if cands:
            ed = W.Dropdown(
                options=[("—", "")] + [(self._label(c), c) for c in cands],
                value="",
                description=desc,
                style=self._drop_style,
                layout=self._wide,
                tooltip=tip,
            )
        else:
            ed = W.Text(
                placeholder=p.doc or p.kind,
                description=desc,
                style=self._text_style,
                layout=self._wide,
                tooltip=tip,
                continuous_update=False,
            )
        ed._owsnb_input = ed  # type: ignore[attr-defined]
        ed.observe(lambda ch, n=p.name: self._edited(n, ch["new"]), "value")
        self._cache[key] = ed
        return self.adopt(ed)

    def _show_values(self) -> None:
        self._quiet = True
        try:
            for name, box in self._editors.items():
                ed = box._owsnb_input  # type: ignore[attr-defined]
                v = self.values.get(name)
                if isinstance(ed, ListEditor):
                    ed.set_value(tuple(v or ()))
                    continue
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
        spec = self.spec
        p = next((q for q in spec.type.params if q.name == name), None) if spec else None
        if p is not None and p.repeat and isinstance(value, str):
            value = tuple(x.strip() for x in value.split(",") if x.strip())  # one item per comma
        if value in ("", None, [], ()):
            self.values.pop(name, None)
        else:
            self.values[name] = tuple(value) if isinstance(value, list) else value
        self._update_order()

    def _slots_html(self, spec: OrderSpec) -> str:
        """The order line: each parameter clicks fill, with its value or what to click."""
        parts = []
        for p in spec.type.params:
            if not self.clicked(p, spec):
                continue
            v = self.values.get(p.name)
            if v is not None:
                parts.append(f"{render.esc(p.name)} <b>{render.esc(v)}</b>")
            elif not p.optional:
                what = "click a hex" if p.kind == "hex" else "click a counter"
                parts.append(f"{render.esc(p.name)}: <span class='need'>{what}</span>")
        return " · ".join(parts)

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
            slots = self._slots_html(spec)
            text = (
                f"<code>{render.esc(order)}</code>"
                if order is not None
                else (
                    f"<span class='muted'>still needed: {render.esc(', '.join(missing))}</span>"
                    if missing
                    else ""
                )
            )
            self._section(
                "order", f"<div class='owsnb-slots'>{slots}</div>{text}" if slots else text
            )
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
        """Does *spec* need a value that neither a click, a list of choices nor a list editor's
        items give (free text the rule set can fill)?"""
        return any(
            not p.optional
            and not self.clicked(p, spec)
            and not (spec.candidates.get(p.name) or p.choices)
            and not (p.repeat and _items(spec, p))
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

    def _moment(self, clock: Any = None) -> tuple:
        c = clock or self.table.view.clock
        return (c.turn, c.phase, c.step, tuple(c.acting))

    def _moved_on(self, view: Any) -> bool:
        """Has the game moved on since the result shown: a later event this seat sees (another
        order's), or — when the events carry no numbers — another moment of the turn?"""
        seqs = [e.seq for e in getattr(view, "events", ()) if e.seq]
        if self._result_seq and seqs:
            return max(seqs) > self._result_seq
        return self._result_at != self._moment()

    def _on_last(self, change: Any = None) -> None:
        sub = self.table.last
        seqs = [e.seq for e in getattr(sub, "events", ()) if getattr(e, "seq", 0)]
        self._result_seq = max(seqs) if seqs else 0
        # the moment the submission left the game in (a seat's view may hear of it later)
        clocks = [
            e.data.get("clock")
            for e in getattr(sub, "events", ())
            if e.kind == "clock.set" and hasattr(e.data.get("clock"), "acting")
        ]
        self._result_at = self._moment(clocks[-1] if clocks else None)
        self._section("result", render.submission_html(sub))

    def _section(self, name: str, body: str) -> None:
        self.sections[name] = body
        value = "".join(f"<div>{v}</div>" for v in self.sections.values() if v)
        if self.info.value != value:
            self.info.value = value

    # -- acting --------------------------------------------------------------------------------
    def _on_actor(self, change: dict) -> None:
        if self._quiet or change["new"] is None:
            return
        self.values = {}
        self.table.act_as(None if change["new"] == FOLLOW else change["new"])
        self._on_view()

    def act_as(self, side: str | None) -> None:
        """Umpire: give *side*'s orders (``None``: whoever acts now), as the "act as" list does."""
        self.actor.value = FOLLOW if side is None else side

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

    def _accepts(self, spec: OrderSpec, p: Param, unit: str) -> bool:
        """May a click on *unit* fill *p*: a unit parameter that admits it (its candidates,
        else its kind), or a list whose items are that unit's (a salvo, an allocation)?"""
        if is_unit(p):
            listed = spec.candidates.get(p.name)
            # the rule set's ready-made orders widen what a click may give (an own unit as the
            # target of an assure-C2 token), never narrow it
            return admits(self.table.view, spec.side, p, unit, listed) or (
                not listed and unit in _items(spec, p)
            )
        if p.repeat:
            return any(i == unit or i.startswith(f"{unit}:") for i in _items(spec, p))
        return False

    def _click_item(self, spec: OrderSpec, p: Param, unit: str) -> str:
        if is_unit(p):
            return unit
        ed = self._cache.get((spec.verb, p.name, "list"))
        if isinstance(ed, ListEditor):
            return ed.default(unit)
        return next(i for i in _items(spec, p) if i == unit or i.startswith(f"{unit}:"))

    def _on_pick(self, pick: Pick) -> None:
        t = self.table
        if not t.live or t.legal is None or self.read_only or self.handed:
            return
        if self.spec is None and pick.unit is not None and not pick.stack:
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
        hexes = [p for p in params if p.kind == "hex" and not p.repeat]
        done = False
        empty_hexes = [p for p in hexes if p.name not in self.values]
        if pick.stack:  # which unit of the stack is meant, its list (the next click) says
            wanted = [
                p
                for p in params
                if not p.optional and p.name not in self.values and (is_unit(p) or p.repeat)
            ]
            if wanted or not empty_hexes:
                return
            pick = Pick(pick.hex)  # a place is all that is wanted: the stack's hex
        if pick.unit is not None:
            taking = [p for p in params if self._accepts(spec, p, pick.unit)]
            if any(not p.repeat and self.values.get(p.name) == pick.unit for p in taking):
                return  # the unit already chosen, clicked again: nothing changes
            for p in taking:
                if p.repeat:
                    old = tuple(self.values.get(p.name, ()))
                    if is_unit(p) and pick.unit in old:  # a unit already listed: out again
                        self.values[p.name] = tuple(x for x in old if x != pick.unit)
                        if not self.values[p.name]:
                            del self.values[p.name]
                    else:
                        self.values[p.name] = (*old, self._click_item(spec, p, pick.unit))
                    done = True
                    break
                if p.name not in self.values:
                    self.values[p.name] = pick.unit
                    done = True
                    break
            if not done and taking and not (empty_hexes and pick.hex is not None):
                # every slot it fits is full and no place is wanted: start again with this unit
                self.values = {taking[0].name: pick.unit}
                done = True
        if not done and hexes and pick.hex is not None:
            # an empty hex, or a counter no parameter takes (the enemy attacked, a stack to
            # move onto): its hex
            self.values[(empty_hexes or hexes[-1:])[0].name] = pick.hex
            done = True
        if done:
            self._show_values()
            self._update_order()

    def _on_typed(self, change: dict) -> None:
        text = str(change["new"]).strip()
        if self._quiet or not text:
            return
        side = self.table.actor or self.table.seat.side
        try:
            o = Order.parse(text, side=side)
            self.choose(o.verb)
            spec = self.spec
            self.values = dict(spec.type.bind(o)) if spec is not None else {}
        except Exception as exc:  # noqa: BLE001 - shown, not raised
            self.table.refusal = Refusal.of(exc)
            return
        self.table.refusal = None
        self._show_values()
        self._update_order()

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
                if self.typed.value:
                    self._quiet = True
                    try:
                        self.typed.value = ""
                    finally:
                        self._quiet = False
                self._on_view()
        return sub

    def done(self) -> Any:
        """The acting side has finished the current step."""
        return self.table.submit(Order(self.table.actor or self.table.seat.side, "done"))

    def advance(self) -> Any:
        """Umpire: end the current step — the umpire's own Done when the umpire acts now (it
        resolves what is left to resolve), else ``umpire: advance``."""
        legal = self._umpire_verbs()
        verb = "done" if "done" in legal and UMPIRE in self.table.view.clock.acting else "advance"
        return self.table.submit(Order(UMPIRE, verb))

    def reset(self) -> None:
        """Clear the order being prepared."""
        self.values = {}
        self._quiet = True
        try:
            self.verbs.value = None
            self.typed.value = ""
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
