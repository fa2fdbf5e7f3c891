"""Briefing: what a seat needs to know before it plays — and how the game stands now.

The panel shows, from the seat's view only (so a side never reads what it may not know):

* **how it stands** — the victory standing judged live by the rule set (its ``guide().standing``
  hook: scores, who leads, where the points come from; the final result once the game is over);
* **situation** — the scenario's public briefing (Markdown), and the seat's own briefing
  (``sides.<side>.briefing`` in the scenario file: only that side's view carries it; the umpire
  reads every side's);
* **scale** — hex size in km and nm, zones, the length of a turn, turns;
* **victory conditions** — the public ones and the side's own secret ones;
* **special rules**;
* **order of battle** — the seat's own units by domain, and the enemy as far as it has seen it;
* the rule set's own sections (``guide().briefing(view)``: the side's hand, its orders...).

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> b = Briefing(tiny_game(), seat="blue")
    >>> "B-1" in b.html.value, "R-1" in b.html.value  # the red unit is undetected
    (True, False)
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from owsnb.kernel.geo import NM_KM
from owsnb.kernel.presentation import presentation_of
from owsnb.kernel.state import UMPIRE
from owsnb.widgets.panel import Panel
from owsnb.widgets.render import style_widget
from owsnb.widgets.table import Table

__all__ = ["Briefing", "standing_of", "standing_html", "markdown_html", "briefing_html"]

_CSS = (
    "<style>.owsnb-brief{font:14px system-ui,sans-serif;line-height:1.45;max-width:900px}"
    ".owsnb-brief h3{font-size:16px;margin:14px 0 4px}.owsnb-brief h1,.owsnb-brief h2{"
    "font-size:15px;margin:10px 0 4px}.owsnb-brief h4{font-size:14px;"
    "margin:10px 0 2px}.owsnb-brief table{border-collapse:collapse;margin:4px 0}"
    ".owsnb-brief td,.owsnb-brief th{padding:2px 8px;border-bottom:1px solid #e5e7eb;"
    "text-align:left;vertical-align:top}.owsnb-brief .muted{color:#6b7280}"
    ".owsnb-brief pre{background:#f3f4f6;padding:6px 8px;white-space:pre-wrap}"
    ".owsnb-brief .secret{border-left:4px solid #7c3aed;background:#f5f3ff;padding:4px 10px}"
    "</style>"
)


def _esc(x: Any) -> str:
    return html.escape(str(x))


def markdown_html(text: str) -> str:
    """Markdown to HTML, raw HTML escaped (mistune, which Jupyter's nbconvert brings; without
    it, the text as preformatted)."""
    if not text:
        return ""
    try:
        import mistune
    except ImportError:  # pragma: no cover - nbconvert (a Voila dependency) brings it
        return f"<pre>{_esc(text)}</pre>"
    md = mistune.create_markdown(escape=True, plugins=["table", "strikethrough"])
    return str(md(text))


def standing_of(ruleset: Any, view: Any) -> dict[str, Any] | None:
    """The rule set's victory standing on *view* (its ``guide().standing``), or ``None`` when
    the rule set judges none. A failing hook gives its error as the text (never raised)."""
    guide = ruleset.guide() if hasattr(ruleset, "guide") else None
    fn = getattr(guide, "standing", None)
    if fn is None:
        return None
    try:
        return dict(fn(view))
    except Exception as exc:  # noqa: BLE001 - a broken hook must not break the table
        return {"text": f"(the standing could not be judged: {exc})", "rows": [], "final": False}


def _side_title(view: Any, side: str) -> str:
    s = view.sides.get(side)
    return getattr(s, "title", None) or str(side)


def standing_html(st: Mapping[str, Any] | None, view: Any) -> str:
    """The standing as a box: the line, where the points come from, what is left to judge."""
    box = (
        "border-left:5px solid {c};background:{b};padding:6px 12px;margin:4px 0 8px;"
        "font:14px system-ui,sans-serif"
    )
    if st is None:
        return (
            f"<div class='owsnb-standing' style='{box.format(c='#2563eb', b='#eff6ff')}'>"
            "<b>How it stands:</b> this rule set judges no victory conditions; the umpire "
            "decides.</div>"
        )
    final = bool(st.get("final"))
    head = "Result" if final else "How it stands now"
    style = box.format(c="#047857", b="#ecfdf5") if final else box.format(c="#2563eb", b="#eff6ff")
    rule = (
        f" <span style='color:#6b7280'>(rule {_esc(st['rule'])})</span>" if st.get("rule") else ""
    )
    rows = "".join(
        f"<tr><td>{_esc(_side_title(view, r.get('side', '')) if r.get('side') else '')}</td>"
        f"<td>{_esc(r.get('what', ''))}</td><td><b>{_esc(r.get('points', ''))}</b></td></tr>"
        for r in st.get("rows", ())
    )
    notes = "".join(f"<li>{_esc(n)}</li>" for n in st.get("notes", ()))
    return (
        f"<div class='owsnb-standing{' final' if final else ''}' style='{style}'><b>{head}:</b> "
        f"{_esc(st.get('text', ''))}{rule}"
        + (f"<table>{rows}</table>" if rows else "")
        + (f"<ul style='color:#6b7280;margin:2px 0'>{notes}</ul>" if notes else "")
        + "</div>"
    )


def _scale_html(view: Any) -> str:
    km = view.map.km_per_hex() or 0.0
    bits = []
    if km:
        if abs(km - round(km)) > 0.05 and abs(km / NM_KM - round(km / NM_KM)) < 0.05:
            bits.append(f"one hex is <b>{km / NM_KM:.0f} nm</b> ({km:.0f} km) across")
        else:
            bits.append(f"one hex is <b>{km:g} km</b> ({km / NM_KM:.1f} nm) across")
    zone = view.map.meta.get("zone_km")
    if zone:
        bits.append(f"zones are {zone:g} km")
    hours = view.options.get("turn_hours")
    if hours:
        bits.append(
            f"one turn is <b>{'a day' if int(hours) == 24 else f'{hours} hours'}</b> ({hours} h)"
        )
    turns = view.scenario.get("turns")
    if turns:
        bits.append(f"<b>{turns} turns</b> (now turn {view.clock.turn})")
    bits.append(f"{len(view.map.hexes)} hexes on the map")
    return "; ".join(bits) + "."


def _domain(ruleset: Any, view: Any, u: Any) -> str:
    try:
        d = presentation_of(ruleset).unit_domain(view, u)
    except Exception:  # noqa: BLE001 - grouping only
        d = None
    return str(d or u.get("domain") or "units")


def _where(view: Any, u: Any) -> str:
    if u.hex is not None:
        return view.map.label(u.hex)
    return f"box {u.box}" if u.box else ""


def _oob_html(ruleset: Any, view: Any, side: str, own: bool) -> str:
    units = sorted(
        (u for u in view.units.values() if u.side == side), key=lambda u: (u.hex is None, u.id)
    )
    if not units:
        return "<p class='muted'>none seen</p>" if not own else "<p class='muted'>no units</p>"
    groups: dict[str, list[Any]] = {}
    for u in units:
        groups.setdefault(_domain(ruleset, view, u), []).append(u)
    parts = []
    for dom, us in sorted(groups.items()):
        rows = "".join(
            f"<tr><td><code>{_esc(u.id)}</code></td><td>{_esc(u.name if u.name != u.id else '')}"
            f"</td><td>{_esc(u.kind)}</td><td>{_esc(_where(view, u))}</td>"
            f"<td>{u.steps}/{u.max_steps}</td></tr>"
            for u in us
        )
        parts.append(
            f"<details{' open' if len(units) <= 14 else ''}><summary><b>{_esc(dom)}</b>: "
            f"{len(us)}</summary><table><tr><th>id</th><th>name</th><th>type</th><th>where</th>"
            f"<th>steps</th></tr>{rows}</table></details>"
        )
    return "".join(parts)


def briefing_html(ruleset: Any, view: Any) -> str:
    """The whole briefing of *view*'s seat as HTML (see the module docstring)."""
    sc = view.scenario
    me = view.side
    umpire = me == UMPIRE
    title = sc.get("title") or sc.get("id") or "the game"
    who = (
        "the <b>umpire</b>: you see every side"
        if umpire
        else f"<b>{_esc(_side_title(view, me))}</b>"
        if me in view.sides
        else f"<b>{_esc(me)}</b>"
    )
    out = [
        _CSS,
        "<div class='owsnb-brief'>",
        f"<h3>Briefing — {_esc(title)}</h3><p>You are {who}. "
        f"<span class='muted'>{_esc(getattr(ruleset, 'title', '') or ruleset.name)}</span></p>",
        standing_html(standing_of(ruleset, view), view),
    ]
    if sc.get("description"):
        out.append(f"<p>{_esc(sc['description'])}</p>")
    secret_sides = list(view.sides) if umpire else [me] if me in view.sides else []
    mine = {
        s: dict(view.sides[s].private.get("briefing") or {})
        for s in secret_sides
        if isinstance(view.sides[s].private.get("briefing"), Mapping)
    }
    for s, b in mine.items():
        if b.get("text"):
            head = "Your briefing" if s == me else f"{_esc(_side_title(view, s))}'s briefing"
            out.append(
                f"<div class='secret'><h4>{head} <span class='muted'>(only "
                f"{'you' if s == me else _esc(_side_title(view, s))} can read this)</span></h4>"
                f"{markdown_html(b['text'])}</div>"
            )
    if sc.get("briefing"):
        out.append(f"<h3>Situation</h3>{markdown_html(str(sc['briefing']))}")
    out.append(f"<h3>Scale</h3><p>{_scale_html(view)}</p>")
    vic = sc.get("victory")
    if vic or any(b.get("victory") for b in mine.values()):
        out.append("<h3>Victory conditions</h3>")
        if isinstance(vic, str) and vic:
            out.append(markdown_html(vic))
        for s, b in mine.items():
            if b.get("victory"):
                head = "Yours" if s == me else f"{_esc(_side_title(view, s))}'s"
                out.append(
                    f"<div class='secret'><h4>{head} <span class='muted'>(secret)</span></h4>"
                    f"{markdown_html(b['victory'])}</div>"
                )
    rules = list(sc.get("special_rules") or ())
    if rules:
        out.append(
            "<h3>Special rules</h3><ul>"
            + "".join(f"<li>{markdown_html(str(r))}</li>" for r in rules)
            + "</ul>"
        )
    guide = ruleset.guide() if hasattr(ruleset, "guide") else None
    extra = getattr(guide, "briefing", None)
    if extra is not None:
        try:
            for head, body in extra(view):
                out.append(f"<h3>{_esc(head)}</h3>{body}")
        except Exception as exc:  # noqa: BLE001 - shown, never raised
            out.append(f"<p class='muted'>(the rule set's briefing failed: {_esc(exc)})</p>")
    out.append("<h3>Order of battle</h3>")
    for s in view.sides:
        own = umpire or s == me
        label = "Yours" if s == me else _esc(_side_title(view, s))
        note = "" if own else " <span class='muted'>(only what you have seen)</span>"
        out.append(f"<h4>{label}{note}</h4>{_oob_html(ruleset, view, s, own)}")
    out.append("</div>")
    return "".join(out)


class Briefing(Panel):
    """The seat's briefing and the live standing (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is used when *source* is a Game.
    """

    def __init__(self, source: Any, seat: str | None = None):
        self.table = Table.of(source, seat)
        self.html = W.HTML()
        super().__init__([style_widget(), self.html], layout=W.Layout(width="100%"))
        self.add_class("owsnb-briefing")
        self.table.hold(self)
        self.watch(self._redraw, ["revision"])
        self._redraw()

    def standing(self) -> dict[str, Any] | None:
        """The standing shown (the rule set's ``guide().standing`` on the seat's view)."""
        return standing_of(self.table.seat.ruleset, self.table.view)

    def _redraw(self, change: Any = None) -> None:
        value = briefing_html(self.table.seat.ruleset, self.table.view)
        if self.html.value != value:
            self.html.value = value
