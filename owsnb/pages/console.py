"""The umpire's console for a served game: phases, ad hoc adjudication, notes, assessment, seats.

It sits under the umpire's table in ``notebooks/seminar/umpire.ipynb`` and talks to the game only
through the umpire's remote seat (``owsnb.connect``): every button is one call of that handle, so
whatever it does can also be done in one line of a notebook cell.

* **Phase** — the clock, who still has to act, and *Undo* (the step is advanced with the table's
  one step control, *Advance step* on its orders tab);
* **Adjudicate** — the rule set's umpire orders other than advance (OWS: ``adjudicate``, the
  semi-rigid adjudication of 2.1.1.4: state a probability, see the exact odds, roll);
* **Notes** — annotations for everyone, one side, or the umpire alone;
* **Assessment** — the victory standing judged live by the rule set (its ``guide().standing``),
  each side's strength now against the start, assessment notes (tagged ``assessment``) for the
  facilitated discussion (OWS 12.1), and the *Debrief*: one HTML file of the whole game
  (:mod:`owsnb.analysis.debrief`) to download;
* **Seats** — every seat, revoke a token, change an observer's delay or view, add an observer;
  and the link to the umpire's scenario editor (:mod:`owsnb.pages.editor`).
"""

from __future__ import annotations

import html
import os
from typing import Any

import ipywidgets as W

from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.state import UMPIRE

__all__ = ["UmpireConsole"]

_CSS = "font:13px system-ui"


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _error(exc: BaseException) -> str:
    return f"<span style='{_CSS};color:#c0392b'>{_esc(getattr(exc, 'reason', None) or exc)}</span>"


class UmpireConsole(W.VBox):
    """The umpire's controls (see the module docstring).

    Args:
        remote: the umpire's seat (``owsnb.connect(url, umpire_token)``).
    """

    def __init__(self, remote: Any):
        self.remote = remote
        self.status = W.HTML()
        # phase
        self.clock = W.HTML()
        self.undo_button = W.Button(
            description="Undo last",
            icon="undo",
            button_style="warning",
            tooltip="take back the last submission",
        )
        self.undo_button.on_click(lambda _: self._do(self.remote.undo))
        phase = W.VBox(
            [
                self.clock,
                W.HTML(
                    f"<span style='{_CSS};color:#6b7280'>The step ends with <b>Advance step</b> "
                    "on the table's orders tab (the one step control).</span>"
                ),
                W.HBox([self.undo_button]),
            ]
        )
        # adjudication
        verbs = [
            v
            for v, t in remote.ruleset.order_types.items()
            if t.actors == "umpire" and v != "advance"
        ]
        self.verb = W.Dropdown(options=verbs, description="order", layout=W.Layout(width="320px"))
        self.params = W.VBox()
        self.odds = W.HTML()
        self.roll_button = W.Button(
            description="Roll / apply", icon="dice", button_style="danger", disabled=not verbs
        )
        self.verb.observe(lambda _: self._build_params(), "value")
        self.roll_button.on_click(lambda _: self._adjudicate())
        self._editors: dict[str, W.Widget] = {}
        adjudicate = W.VBox(
            [self.verb, self.params, self.odds, self.roll_button]
            if verbs
            else [
                W.HTML(f"<i>{_esc(remote.ruleset.name)} has no umpire orders besides advance.</i>")
            ]
        )
        # notes
        self.note = W.Textarea(
            placeholder="what happened, why it matters…",
            layout=W.Layout(width="98%", height="70px"),
        )
        self.audience = W.Dropdown(
            options=[("everyone", None), *[(s, s) for s in remote.sides], ("umpire only", UMPIRE)],
            description="for",
        )
        self.note_hex = W.Text(placeholder="hex (optional)", layout=W.Layout(width="140px"))
        self.note_button = W.Button(description="Add note", icon="sticky-note")
        self.note_button.on_click(lambda _: self._add_note())
        self.notes = W.HTML()
        notes = W.VBox(
            [self.note, W.HBox([self.audience, self.note_hex, self.note_button]), self.notes]
        )
        # assessment
        self.assessment = W.HTML()
        self.assess_note = W.Textarea(
            placeholder="assessment for the discussion (OWS 12.1)…",
            layout=W.Layout(width="98%", height="60px"),
        )
        self.assess_button = W.Button(
            description="Record assessment", icon="check", layout=W.Layout(width="auto")
        )
        self.assess_button.on_click(lambda _: self._add_note(assessment=True))
        self.debrief_button = W.Button(
            description="Debrief",
            icon="file-text",
            layout=W.Layout(width="auto"),
            tooltip="one HTML file of the whole game to open anywhere, offline: maps per turn, "
            "what each side saw, notes, losses and detections, the standing, exports",
        )
        self.debrief_button.on_click(lambda _: self.make_debrief())
        self.debrief_link = W.HTML()
        assess = W.VBox(
            [
                self.assessment,
                self.assess_note,
                W.HBox([self.assess_button, self.debrief_button]),
                self.debrief_link,
            ]
        )
        # seats
        self.seat_table = W.HTML()
        self.seat_pick = W.Dropdown(description="seat", layout=W.Layout(width="300px"))
        self.revoke_button = W.Button(description="Revoke", icon="ban", button_style="danger")
        self.revoke_button.on_click(
            lambda _: self._do(lambda: self.remote.revoke(self.seat_pick.value))
        )
        self.obs_view = W.Dropdown(
            options=[*remote.sides, UMPIRE], value=UMPIRE, description="view"
        )
        self.obs_delay = W.BoundedIntText(value=20, min=0, max=100000, description="delay")
        self.obs_apply = W.Button(description="Set observer", icon="eye")
        self.obs_apply.on_click(
            lambda _: self._do(
                lambda: self.remote.set_observer(
                    self.seat_pick.value, delay=int(self.obs_delay.value), side=self.obs_view.value
                )
            )
        )
        self.obs_new = W.Button(description="New observer", icon="plus")
        self.obs_new.on_click(lambda _: self._new_observer())
        self.new_link = W.HTML()
        query = os.environ.get("QUERY_STRING", "")  # the umpire's own link (Voila)
        self.editor_link = W.HTML(
            f"<div style='{_CSS}'>Build or change a scenario on the map: "
            f"<a href='editor.ipynb?{_esc(query)}' target='_blank'>the scenario editor</a></div>"
            if "token=" in query
            else ""
        )
        seats = W.VBox(
            [
                self.seat_table,
                W.HBox([self.seat_pick, self.revoke_button]),
                W.HBox([self.obs_view, self.obs_delay, self.obs_apply, self.obs_new]),
                self.new_link,
                self.editor_link,
            ]
        )
        self.tabs = W.Tab(
            children=[phase, adjudicate, notes, assess, seats],
            titles=["Phase", "Adjudicate", "Notes", "Assessment", "Seats"],
        )
        super().__init__(
            [W.HTML(f"<b style='{_CSS}'>Umpire</b>"), self.tabs, self.status],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-umpire-console")
        self._build_params()
        self._unsubscribe = remote.subscribe(lambda change: self.refresh())
        self.refresh()

    # -- actions -------------------------------------------------------------------------------
    def _do(self, fn: Any) -> Any:
        try:
            out = fn()
        except (OwsnbError, ValueError, KeyError) as exc:
            self.status.value = _error(exc)
            return None
        self.status.value = ""
        self.refresh()
        return out

    def _build_params(self) -> None:
        verb = self.verb.value
        self._editors = {}
        if not verb:
            return
        otype = self.remote.ruleset.order_types[verb]
        for p in otype.params:
            if p.choices:
                ed: W.Widget = W.Dropdown(options=list(p.choices), description=p.name)
            else:
                ed = W.Text(description=p.name, placeholder=p.doc or p.kind)
            ed.observe(lambda _: self._preview(), "value")
            self._editors[p.name] = ed
        self.params.children = list(self._editors.values())
        self._preview()

    def order(self) -> str | None:
        """The umpire order being prepared in the Adjudicate tab (``None`` if incomplete)."""
        verb = self.verb.value
        if not verb:
            return None
        otype = self.remote.ruleset.order_types[verb]
        values = {k: ed.value for k, ed in self._editors.items() if str(ed.value).strip()}
        if any(not p.optional and p.name not in values for p in otype.params):
            return None
        return str(otype.make(UMPIRE, **values))

    def _preview(self) -> None:
        order = self.order()
        if order is None:
            self.odds.value = ""
            return
        try:
            dist = self.remote.preview(order)
        except (OwsnbError, ValueError) as exc:
            self.odds.value = _error(exc)
            return
        body = (
            dist._repr_html_()
            if hasattr(dist, "_repr_html_") and dist._repr_html_()
            else _esc(dist)
        )
        self.odds.value = f"<div style='{_CSS}'><code>{_esc(order)}</code>{body}</div>"

    def _adjudicate(self) -> None:
        order = self.order()
        if order is None:
            self.status.value = (
                f"<span style='{_CSS};color:#c0392b'>fill in the order's parameters first</span>"
            )
            return
        sub = self._do(lambda: self.remote.submit(order, state_id=self.remote.state_id))
        if sub is not None:
            dice = ", ".join(str(e) for e in sub.dice) or "no roll"
            self.status.value = f"<span style='{_CSS}'><b>{_esc(order)}</b>: {_esc(dice)}</span>"

    def _add_note(self, assessment: bool = False) -> None:
        box = self.assess_note if assessment else self.note
        text = box.value.strip()
        if not text:
            return
        anchors: dict[str, Any] = {"side": self.audience.value}
        if self.note_hex.value.strip() and not assessment:
            anchors["hex"] = self.note_hex.value.strip()
        if assessment:
            anchors["tags"] = ["assessment"]
        if self._do(lambda: self.remote.annotate(text, **anchors)) is not None:
            box.value = ""

    def make_debrief(self) -> str | None:
        """Build the debrief of the game so far (:func:`owsnb.analysis.debrief.debrief`) and
        offer it as a download link; returns its HTML (``None`` if it failed, said on the page)."""
        from owsnb.analysis.debrief import debrief

        self.debrief_link.value = f"<span style='{_CSS}'>writing the debrief…</span>"
        text = self._do(lambda: debrief(self.remote))
        if text is None:
            self.debrief_link.value = ""
            return None
        import base64

        name = f"{getattr(self.remote, 'game_id', None) or 'game'}-debrief.html"
        b64 = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.debrief_link.value = (
            f"<div style='{_CSS}'><a download='{_esc(name)}' "
            f"href='data:text/html;base64,{b64}' style='font-weight:600'>⬇ {_esc(name)}</a> "
            f"<span style='color:#6b7280'>({len(text) / 1024:,.0f} KB: one file, opens in any "
            "browser without a network)</span></div>"
        )
        return text

    def _new_observer(self) -> None:
        out = self._do(
            lambda: self.remote.add_seat(
                "observer", self.obs_view.value, delay=int(self.obs_delay.value)
            )
        )
        if out is not None:
            self.new_link.value = (
                f"<div style='{_CSS}'>New observer <b>{_esc(out['label'])}</b> — "
                f"token (shown once): <code>{_esc(out['token'])}</code><br>"
                f"game: <code>{_esc(self.remote.url)}</code></div>"
            )

    # -- display -------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw from the umpire's view (called on every change)."""
        r = self.remote
        try:
            view = r.view()
        except OwsnbError as exc:
            self.status.value = f"<span style='{_CSS};color:#c0392b'>{_esc(exc)}</span>"
            return
        c = view.clock
        waiting = [s for s in c.active if s not in c.done]
        self.clock.value = (
            f"<div style='{_CSS}'><b>{_esc(c)}</b><br>state {r.state_id}, event {view.seq}"
            f"<br>still to act: {_esc(', '.join(waiting) or 'nobody')}"
            f"{'; done: ' + _esc(', '.join(sorted(c.done))) if c.done else ''}</div>"
        )
        try:
            anns = r.annotations()
        except OwsnbError:
            anns = []
        rows = "".join(
            f"<li>{_esc(a.text)} <span style='color:#6b7280'>— turn {_esc(a.turn)}, for "
            f"{_esc(a.side or 'everyone')}"
            f"{', ' + _esc(', '.join(a.tags)) if a.tags else ''}</span></li>"
            for a in anns[-12:]
        )
        self.notes.value = f"<ul style='{_CSS}'>{rows}</ul>" if rows else ""
        self.assessment.value = self._assessment_html(view, anns)
        try:
            seats = r.seats()
        except OwsnbError:
            seats = []
        self.seat_pick.options = [
            (f"{s['label']} ({s['role']})", s["seat"]) for s in seats if not s["revoked"]
        ]
        trs = "".join(
            f"<tr><td>{_esc(s['label'])}</td><td>{_esc(s['role'])}</td><td>{_esc(s['side'])}</td>"
            f"<td>{_esc(s['delay']) if s['role'] == 'observer' else ''}</td>"
            f"<td>{'revoked' if s['revoked'] else 'valid'}</td></tr>"
            for s in seats
        )
        self.seat_table.value = (
            f"<table style='{_CSS}'><tr><th>seat</th><th>role</th><th>view</th><th>delay</th>"
            f"<th>token</th></tr>{trs}</table>"
        )

    def _assessment_html(self, view: Any, anns: list[Any]) -> str:
        try:
            start = self.remote.view_at(0)
        except OwsnbError:
            start = view
        rows = []
        for side in self.remote.sides:
            now = [u for u in view.units.values() if u.side == side]
            then = [u for u in start.units.values() if u.side == side]
            steps, steps0 = sum(u.steps for u in now), sum(u.steps for u in then)
            alive = sum(1 for u in now if u.alive)
            rows.append(
                f"<tr><td>{_esc(side)}</td><td>{alive}/{len(then)}</td><td>{steps}/{steps0}</td></tr>"
            )
        from owsnb.widgets.briefing import standing_html, standing_of

        standing = standing_html(standing_of(self.remote.ruleset, view), view)
        notes = "".join(f"<li>{_esc(a.text)}</li>" for a in anns if "assessment" in a.tags)
        return (
            f"<div style='{_CSS}'>{standing}"
            "<table><tr><th>side</th><th>units</th><th>steps</th></tr>"
            f"{''.join(rows)}</table>{'<ul>' + notes + '</ul>' if notes else ''}</div>"
        )

    def close(self) -> None:
        self._unsubscribe()
        super().close()
