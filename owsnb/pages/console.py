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
  and the link to the umpire's scenario editor (:mod:`owsnb.pages.editor`);
* **Computer** — hand any side to a bot of :mod:`owsnb.bots` (and take it back): an
  :class:`owsnb.bots.Autopilot` plays it through that side's eyes only (``remote.as_side``), at
  most the seconds given per order, then a safe pass — it never stalls the game; the console
  says which sides the computer plays, what it did (every order, pass and late answer) and its
  decision times. The authority is told too (``remote.set_computer``): meanwhile it refuses that
  side's orders from the side's own seats, whose pages say so in a banner (the side's note
  and seat only: the other sides learn nothing).
"""

from __future__ import annotations

import html
import os
from functools import partial
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
        # the computer
        import owsnb.bots

        self.pilots: dict[str, Any] = {}  # side -> owsnb.bots.Autopilot
        self.bot_info: dict[str, tuple[str, float]] = {}  # side -> (bot label, seconds)
        self.bot_log: list[str] = []  # what the computer did, newest first (HTML lines)
        self.bot_side = W.Dropdown(options=list(remote.sides), description="side")
        self.bot_name = W.Dropdown(
            options=owsnb.bots.names(),
            value="greedy" if "greedy" in owsnb.bots.names() else None,
            description="bot",
        )
        self.bot_budget = W.BoundedFloatText(
            value=2.0,
            min=0.2,
            max=60.0,
            step=0.5,
            description="seconds per order",
            style={"description_width": "initial"},
            layout=W.Layout(width="200px"),
        )
        self.hand_button = W.Button(
            description="Hand to the computer",
            icon="desktop",
            button_style="info",
            layout=W.Layout(width="auto"),
            tooltip="a bot plays this side through its eyes only, whenever it is to act",
        )
        self.hand_button.on_click(
            lambda _: self._do(
                lambda: self.hand_to_bot(
                    self.bot_side.value, self.bot_name.value, float(self.bot_budget.value)
                )
            )
        )
        self.take_button = W.Button(
            description="Take back", icon="user", layout=W.Layout(width="auto")
        )
        self.take_button.on_click(lambda _: self._do(lambda: self.take_back(self.bot_side.value)))
        self.bot_table = W.HTML()
        self.bot_feed = W.HTML()
        computer = W.VBox(
            [
                W.HBox([self.bot_side, self.bot_name, self.bot_budget]),
                W.HBox([self.hand_button, self.take_button]),
                self.bot_table,
                self.bot_feed,
            ]
        )
        self.tabs = W.Tab(
            children=[phase, adjudicate, notes, assess, seats, computer],
            titles=["Phase", "Adjudicate", "Notes", "Assessment", "Seats", "Computer"],
        )
        super().__init__(
            [W.HTML(f"<b style='{_CSS}'>Umpire</b>"), self.tabs, self.status],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-umpire-console")
        self._build_params()
        self._unsubscribe = remote.subscribe(lambda change: self.refresh())
        self.refresh()
        self._draw_bots()

    # -- the computer ----------------------------------------------------------------------------
    def hand_to_bot(self, side: str, bot: str = "greedy", seconds: float = 2.0) -> Any:
        """Hand *side* to *bot* (a name of :func:`owsnb.bots.names`), at most *seconds* per
        order: it plays through *side*'s eyes only, whenever that side is to act. A side handed
        again changes bot. Returns the :class:`owsnb.bots.Autopilot`.

        Raises:
            KeyError: no such side or bot.
        """
        from owsnb.bots import Autopilot, get

        if side not in self.remote.sides:
            raise KeyError(f"no side {side!r}; sides: {', '.join(self.remote.sides)}")
        spec: dict[str, Any] = {"bot": bot}
        if bot == "search":
            spec["budget"] = round(max(0.1, seconds * 0.8), 2)  # it uses all it has
        label = get(spec).label  # KeyError for an unknown bot, before anything changes
        if side in self.pilots:
            self.pilots.pop(side).stop()
        # the authority first: the side's own seats give none of its orders from now on (a
        # refusal here changes nothing)
        self.remote.set_computer(side, label)
        pilot = Autopilot(
            self.remote.as_side(side),
            spec,
            side,
            budget=float(seconds),
            listener=partial(self._heard, side),
        )
        self.pilots[side] = pilot
        self.bot_info[side] = (label, float(seconds))
        self._log(
            side, f"<b>handed to the computer</b> ({_esc(label)}, at most {seconds:g} s an order)"
        )
        return pilot

    def take_back(self, side: str) -> None:
        """The computer stops playing *side* (a person's seat gives its orders again) — also a
        side the authority still holds for a bot of an earlier console (a reloaded page)."""
        pilot = self.pilots.pop(side, None)
        if pilot is None and side not in self.remote.computer:
            raise KeyError(f"the computer does not play {side}")
        if pilot is not None:
            pilot.stop()
        self.remote.set_computer(side, None)
        self._log(side, "<b>taken back</b>: a person plays it again")

    def _heard(self, side: str, what: str, sub: Any) -> None:
        """An Autopilot's news, in its thread: the order it gave (or its safe pass)."""
        pilot = self.pilots.get(side)
        if pilot is None:
            return
        b = pilot.bot
        if what == "thinking":
            self._counts = (b.orders, b.passes, b.timeouts, len(b.failures))
            self._draw_bots()
            return
        orders, passes, late, failed = getattr(self, "_counts", (0, 0, 0, 0))
        took = f"{b.times[-1]:.2f} s" if b.times else ""
        if sub is None:
            text = "the game moved on while it thought: it looks again"
        elif b.orders > orders:
            text = f"<code>{_esc(sub.order)}</code>"
        elif b.timeouts > late:
            text = (
                f"late (over {self.bot_info[side][1]:g} s): passed safely with "
                f"<code>{_esc(sub.order)}</code>"
            )
        elif len(b.failures) > failed:
            text = f"failed ({_esc(b.failures[-1])}): passed safely with <code>{_esc(sub.order)}</code>"
        else:
            text = f"passed: <code>{_esc(sub.order)}</code>"
        self._log(side, f"{text} <span style='color:#6b7280'>{took}</span>")

    def _log(self, side: str, text: str) -> None:
        try:
            clock = self.remote.view().clock
            when = f"turn {clock.turn} · step {clock.step}"
        except OwsnbError:
            when = ""
        self.bot_log.insert(
            0,
            f"<li><b>{_esc(side)}</b> <span style='color:#6b7280'>{_esc(when)}</span> {text}</li>",
        )
        del self.bot_log[40:]
        self._draw_bots()

    def _draw_bots(self) -> None:
        rows = []
        for side in self.remote.sides:
            pilot = self.pilots.get(side)
            if pilot is None:
                held = self.remote.computer.get(side)
                who = (
                    f"<span style='color:#c0392b'>handed to the computer ({_esc(held)}) but no "
                    "bot plays it here: hand it again or take it back</span>"
                    if held
                    else "a person"
                )
                rows.append(f"<tr><td>{_esc(side)}</td><td>{who}</td><td colspan=5></td></tr>")
                continue
            b = pilot.bot
            label, seconds = self.bot_info[side]
            t = b.decision_times()
            state = "thinking…" if pilot.thinking else ("playing" if pilot.running else "stopped")
            times = f"{t['p50']:.2f} / {t['p95']:.2f} s" if b.times else "–"
            problems = "; ".join(_esc(e) for e in pilot.errors[-2:])
            rows.append(
                f"<tr><td>{_esc(side)}</td><td>the computer: <b>{_esc(label)}</b> "
                f"(≤ {seconds:g} s), {state}</td><td>{b.orders}</td><td>{b.passes}</td>"
                f"<td>{b.timeouts}</td><td>{len(b.refusals)}</td><td>{times}</td></tr>"
                + (
                    f"<tr><td></td><td colspan=6 style='color:#c0392b'>{problems}</td></tr>"
                    if problems
                    else ""
                )
            )
        self.bot_table.value = (
            f"<table style='{_CSS}'><tr><th>side</th><th>played by</th><th>orders</th>"
            "<th>passes</th><th>late</th><th>refused</th><th>decision p50 / p95</th></tr>"
            f"{''.join(rows)}</table>"
        )
        self.bot_feed.value = (
            f"<div style='{_CSS}'><b>What the computer did</b> (latest first)"
            f"<ol style='margin:2px 0'>{''.join(self.bot_log[:12])}</ol></div>"
            if self.bot_log
            else ""
        )

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
        bots = getattr(self, "pilots", {})
        named = [f"{s} (computer)" if s in bots else s for s in waiting]
        self.clock.value = (
            f"<div style='{_CSS}'><b>{_esc(c)}</b><br>state {r.state_id}, event {view.seq}"
            f"<br>still to act: {_esc(', '.join(named) or 'nobody')}"
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
        for pilot in self.pilots.values():
            pilot.stop()
        self.pilots = {}
        self._unsubscribe()
        super().close()
