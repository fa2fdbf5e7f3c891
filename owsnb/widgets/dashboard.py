"""Dashboard (bqplot): the order being prepared, forces and losses over turns, and the rule set's
own charts — drawn so that they tell the truth at a glance.

* **Preview**: the exact outcome distribution of the order being prepared (bars; the exact
  fractions are in the order panel).
* **Forces** and **losses** by side and domain (the rule set's presentation's ``unit_domain``: OWS counts
  air, maritime, land and SOF; by default a ``domain`` payload value) at the end of every turn,
  computed from the seat's own history views — the other side's numbers are what this seat has
  seen of them, never the truth. One colour per domain, one line style (and marker) per side;
  turns on the x-axis, whole numbers on the y-axis; the legend sits under the chart, outside
  the plot. An enemy group the seat had not seen at a turn is **unknown** there (a gap in its
  line, "not seen" in the legend), never a 0.
* **Rule-set charts** from its presentation's ``dashboard(view)``, whatever its nesting. Each value is
  drawn as

  - a number, text or list of them: a row of the figures table (nested keys joined with " · ",
    underscores read as spaces);
  - ``{label: number, ...}`` under a key: a bar chart (side names get their side's colour,
    other labels one neutral colour);
  - ``{"kind": "track", "value": v, "max": m, "rule": "..."}``: a progress track;
  - ``{"kind": "tracks", "title": ..., "rows": [{"label", "steps": [...], "value", "start",
    "rule"}]}``: a row of boxes per track with a marker on the value (the OWS space dashboard:
    C2, PNT, ISR);
  - ``{"kind": "bars", "values": {label: number}, "colours": {...}}``: a bar chart;
  - a list of mappings: a table;
  - any other mapping: each of its entries, under its key.

Charts are only in the page while their tab is in sight: bqplot cannot lay out a figure in a
hidden tab (the browser would log "attribute width: A negative value"), so a hidden dashboard
holds its figures' models but not their views, and puts them back when its tab is chosen.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> d = Dashboard(tiny_game(), seat="blue")
    >>> d.series()["strength"]
    {'blue': [(0, 2), (1, 2)]}
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import bqplot as bq
import ipywidgets as W
import numpy as np

from owsnb.kernel.state import UMPIRE
from owsnb.widgets.panel import Panel
from owsnb.widgets.render import distribution_of, style_widget
from owsnb.widgets.table import Table

__all__ = ["Dashboard", "forces_over_turns", "integer_ticks", "DOMAIN_COLOURS", "SIDE_STYLES"]

DOMAIN_COLOURS: dict[str, str] = {
    "land": "#8d6e63",
    "ground": "#8d6e63",
    "maritime": "#1565c0",
    "naval": "#1565c0",
    "air": "#00acc1",
    "sof": "#7b1fa2",
    "space": "#f9a825",
    "cyber": "#43a047",
}
"""One colour per domain (rule sets name them ``land``/``ground``, ``maritime``/``naval``...)."""

_OTHER_COLOURS = ("#546e7a", "#d81b60", "#6d4c41", "#3949ab", "#00897b", "#fb8c00")
SIDE_STYLES: tuple[tuple[str, str, str], ...] = (
    ("solid", "circle", "0"),
    ("dashed", "square", "7 4"),
    ("dotted", "triangle-up", "2 3"),
    ("dash_dotted", "diamond", "7 3 2 3"),
)
"""Line style, marker and SVG dash pattern of each side, in the order of the game's sides."""
_NEUTRAL = "#64748b"


def _tally(view: Any, presentation: Any) -> tuple[dict[str, int], dict[str, int]]:
    strength: dict[str, int] = {}
    lost: dict[str, int] = {}
    for u in view.units.values():
        dom = presentation.unit_domain(view, u)
        key = f"{u.side}/{dom}" if isinstance(dom, str) and dom else u.side
        strength[key] = strength.get(key, 0) + (u.steps if u.alive else 0)
        lost[key] = lost.get(key, 0) + max(u.max_steps - u.steps, 0)
    return strength, lost


def forces_over_turns(
    seat: Any, view: Any | None = None, cache: dict | None = None
) -> dict[str, dict[str, list[tuple[int, int | None]]]]:
    """Strength (steps of units still alive) and losses (steps lost) per group at the end of each
    turn (turn 0 = the start), as the seat has seen them.

    Groups are ``side/domain`` where the rule set's presentation's ``unit_domain(view, unit)`` names a domain,
    else the side. A group of another side that the seat had not seen at a turn is ``None``
    there (unknown, not nothing); its own groups are always known. *cache* (a dict kept between
    calls) saves asking the seat again for the past turns' views; its keys name the event each
    point ends at, so an undone and replaced history is not mistaken for the old one.
    """
    view = seat.view() if view is None else view
    cache = {} if cache is None else cache
    from owsnb.kernel.presentation import presentation_of

    ruleset = presentation_of(getattr(seat, "ruleset", None))
    # the first event of every new turn, as this seat saw it
    marks: list[
        tuple[int, int, str]
    ] = []  # (turn that ended, seq just before the next turn began, key)
    turn = None
    last = "start"
    for e in view.events:
        if e.kind == "clock.set":
            t = e.data["clock"].turn
            if turn is not None and t != turn:
                marks.append((turn, e.seq - 1, last))
            turn = t
        last = f"{e.seq}:{e.batch}:{e.kind}:{hash(repr(e.data))}"
    snaps: list[tuple[int, dict[str, int], dict[str, int]]] = []
    for t, seq, key in [(0, 0, "start"), *marks]:
        k = (seat.side, seq, key)
        if k not in cache:
            cache[k] = _tally(seat.view_at(seq), ruleset)
        snaps.append((t, *cache[k]))
    if snaps[-1][0] == view.clock.turn:
        snaps.pop()
    snaps.append((view.clock.turn, *_tally(view, ruleset)))
    groups = sorted({k for _, s_now, l_now in snaps for k in (*s_now, *l_now)})
    me = seat.side

    def known(g: str) -> bool:
        return me == UMPIRE or g.split("/")[0] == me

    # own groups have a value at every turn (0: none left); others only where they were seen
    strength = {
        g: [(t, s_now.get(g, 0) if known(g) else s_now.get(g)) for t, s_now, _ in snaps]
        for g in groups
    }
    losses = {
        g: [(t, l_now.get(g, 0) if known(g) else l_now.get(g)) for t, _, l_now in snaps]
        for g in groups
    }
    return {"strength": strength, "losses": losses}


def integer_ticks(top: float, most: int = 6) -> list[int]:
    """Whole-number ticks from 0 to at least *top*, at most about *most* of them, at steps of
    1, 2, 5, 10, 20, 50...

    >>> integer_ticks(0), integer_ticks(4), integer_ticks(13), integer_ticks(180)
    ([0, 1], [0, 1, 2, 3, 4], [0, 5, 10, 15], [0, 50, 100, 150, 200])
    """
    top = max(float(top), 1.0)
    step = 1
    for mult in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000):
        step = mult
        if math.ceil(top / mult) <= most - 1:
            break
    n = math.ceil(top / step)
    return [i * step for i in range(n + 1)]


def _number(v: Any) -> bool:
    return isinstance(v, (int, float, Fraction)) and not isinstance(v, bool)


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.3g}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_fmt(x) for x in v)
    return str(v)


def _words(key: Any) -> str:
    """A data key as words: ``salvos_left`` -> ``salvos left``."""
    return str(key).replace("_", " ")


def _track_html(title: str, value: Mapping[str, Any]) -> str:
    v, m = value.get("value", 0), value.get("max", 1) or 1
    pct = max(0.0, min(100.0, 100.0 * float(v) / float(m))) if _number(v) and _number(m) else 0.0
    rule = (
        f" <span class='rule'>rule {html.escape(str(value['rule']))}</span>"
        if value.get("rule")
        else ""
    )
    return (
        f"<div>{html.escape(title)}: <b>{html.escape(_fmt(v))}</b> of "
        f"{html.escape(_fmt(m))}{rule}"
        "<div style='background:#e5e7eb;width:220px;height:8px'>"
        "<div style='background:#2563eb;"
        f"width:{pct * 2.2:.0f}px;height:8px'></div></div></div>"
    )


def _tracks_html(title: str, value: Mapping[str, Any]) -> str:
    """A dashboard of tracks: one row of boxes per track, the value marked, the start ringed."""
    rows = []
    for row in value.get("rows", ()):
        cells = []
        for step in row.get("steps", ()):
            here = str(step) == str(row.get("value"))
            start = str(step) == str(row.get("start", row.get("value")))
            style = (
                "display:inline-block;min-width:30px;padding:2px 4px;margin:1px;text-align:center;"
                "border-radius:3px;font-size:12px;"
                + (
                    "background:#1d4ed8;color:white;font-weight:700;"
                    if here
                    else "background:#f1f5f9;color:#475569;"
                )
                + ("outline:2px dashed #94a3b8;" if start and not here else "")
            )
            mark = "● " if here else ""
            cells.append(f"<span style='{style}'>{mark}{html.escape(_fmt(step))}</span>")
        rule = (
            f" <span class='rule'>{html.escape(str(row['rule']))}</span>" if row.get("rule") else ""
        )
        rows.append(
            f"<tr><td style='white-space:nowrap'><b>{html.escape(str(row.get('label', '')))}"
            f"</b>{rule}</td><td>{''.join(cells)}</td></tr>"
        )
    note = value.get("note")
    return (
        f"<div style='margin:6px 0'><b>{html.escape(value.get('title') or title)}</b>"
        f"<table>{''.join(rows)}</table>"
        + (f"<div class='muted'>{html.escape(str(note))}</div>" if note else "")
        + "</div>"
    )


def _flatten(title: str, value: Any, stats: list, tracks: list, bars: dict, tables: list) -> None:
    """Sort a ``dashboard`` hook's data into figures, tracks, bar charts and tables."""
    if isinstance(value, Mapping):
        kind = value.get("kind")
        if kind == "track":
            tracks.append(_track_html(title, value))
            return
        if kind == "tracks":
            tracks.append(_tracks_html(title, value))
            return
        if kind == "bars":
            bars[title] = (
                {str(k): float(v) for k, v in dict(value.get("values", {})).items() if _number(v)},
                dict(value.get("colours", {})),
            )
            return
        if title and value and all(_number(v) for v in value.values()):
            if any(float(v) for v in value.values()):
                bars[title] = ({str(k): float(v) for k, v in value.items()}, {})
            else:  # all nought: a line of figures, not a chart of empty bars
                stats.append((title, ", ".join(f"{_words(k)} 0" for k in value)))
            return
        for k, v in value.items():
            sub = f"{title} · {_words(k)}" if title else _words(k)
            if isinstance(v, (Mapping, list, tuple)) and not (
                isinstance(v, (list, tuple))
                and all(not isinstance(x, (Mapping, list, tuple)) for x in v)
            ):
                _flatten(sub, v, stats, tracks, bars, tables)
            else:
                stats.append((sub, v))
    elif isinstance(value, (list, tuple)):
        rows = [x for x in value if isinstance(x, Mapping)]
        if rows:
            tables.append((title, rows))
        else:
            stats.append((title, value))
    else:
        stats.append((title, value))


def _side_colour(view: Any, key: str) -> str | None:
    side = view.sides.get(key)
    c = getattr(side, "color", None)
    return c if c and c != "#888888" else None


def _domain_colour(group: str, i: int) -> str:
    dom = group.split("/", 1)[1] if "/" in group else ""
    return DOMAIN_COLOURS.get(dom, _OTHER_COLOURS[i % len(_OTHER_COLOURS)] if dom else "#374151")


def _legend_html(entries: list[tuple[str, str, str, str]]) -> str:
    """The legend under a chart: (colour, dash pattern, label, note) per line."""
    items = []
    for colour, dash, label, note in entries:
        sample = (
            "<svg width='30' height='10' style='vertical-align:middle'>"
            f"<line x1='1' y1='5' x2='29' y2='5' stroke='{html.escape(colour)}' stroke-width='2.5'"
            f" stroke-dasharray='{dash}'/></svg>"
        )
        extra = f" <span class='muted'>({html.escape(note)})</span>" if note else ""
        items.append(
            f"<span style='display:inline-block;margin:0 12px 2px 0;white-space:nowrap'>"
            f"{sample} {html.escape(label)}{extra}</span>"
        )
    return f"<div class='owsnb-w owsnb-legend'>{''.join(items)}</div>"


class Dashboard(Panel):
    """Charts for one seat (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is charted when *source* is a Game.
    """

    children: tuple[Any, ...]  # the box's widgets (a trait; ipywidgets ships no type information)

    def __init__(self, source: Any, seat: str | None = None, *, height: str = "210px"):
        self.table = Table.of(source, seat)
        self._height = height
        self._cache: tuple[Any, dict] | None = None
        self._points: dict = {}  # past turns' tallies, kept across refreshes
        # preview
        self.px, self.py = bq.OrdinalScale(), bq.LinearScale(min=0.0, max=1.0)
        self.preview_bars = bq.Bars(
            x=[],
            y=[],
            scales={"x": self.px, "y": self.py},
            colors=["#2563eb"],
            padding=0.3,
            tooltip=bq.Tooltip(fields=["x", "y"], formats=["", ".3f"]),
        )
        self.preview_fig = bq.Figure(
            marks=[self.preview_bars],
            title="order being prepared",
            axes=[
                bq.Axis(scale=self.px, label="outcome"),
                bq.Axis(scale=self.py, side="left", label="P", tick_format=".0%"),
            ],
            layout=W.Layout(height=height, width="100%", display="none"),
            fig_margin={"top": 40, "bottom": 40, "left": 50, "right": 10},
        )
        self.preview_note = W.HTML()
        # forces and losses: one Lines mark per side (its line style), a colour per domain
        self.figs: dict[str, bq.Figure] = {}
        self.lines: dict[str, dict[str, bq.Lines]] = {}
        self.legends: dict[str, W.HTML] = {}
        self._scales: dict[str, tuple[Any, Any]] = {}
        sides = list(self.table.view.sides)
        for what in ("strength", "losses"):
            xs, ys = bq.LinearScale(), bq.LinearScale(min=0.0, max=1.0)
            self._scales[what] = (xs, ys)
            marks = {}
            for i, side in enumerate(sides):
                style, marker, _ = SIDE_STYLES[i % len(SIDE_STYLES)]
                marks[side] = bq.Lines(
                    x=[],
                    y=[],
                    scales={"x": xs, "y": ys},
                    marker=marker,
                    marker_size=36,
                    line_style=style,
                    stroke_width=2.5,
                    labels=[],
                    colors=[_NEUTRAL],
                )
            self.lines[what] = marks
            self.figs[what] = bq.Figure(
                marks=list(marks.values()),
                title=f"{what} (steps) at the end of each turn",
                axes=[
                    bq.Axis(
                        scale=xs, label="turn (0: the start)", tick_format="d", tick_values=[0]
                    ),
                    bq.Axis(scale=ys, side="left", tick_format="d", tick_values=[0, 1]),
                ],
                layout=W.Layout(height=height, width="100%"),
                fig_margin={"top": 36, "bottom": 40, "left": 45, "right": 12},
            )
            self.legends[what] = W.HTML()
        # rule-set charts
        self.stats = W.HTML()
        self.hook_box = W.VBox()
        self._hook_figs: dict[str, tuple[bq.Figure, bq.Bars, bq.Axis]] = {}
        self._style = style_widget()
        super().__init__([self._style], layout=W.Layout(width="100%"))
        self.add_class("owsnb-dashboard")
        self.table.hold(self)
        self.watch(self._on_preview, ["preview", "order", "problem"])
        self.watch(self._on_view, ["revision"])
        self._on_preview()
        self._on_view()

    # -- in sight or not -----------------------------------------------------------------------
    def show(self, shown: bool = True) -> None:
        """In sight, the charts are in the page; out of sight only their models are kept (a
        figure laid out in a hidden tab fails in the browser)."""
        super().show(shown)
        self._mount()

    def _mount(self) -> None:
        """Put the figures in the page while the panel is in sight, take them out when not."""
        if self._shown:
            figs = [
                *([self.preview_fig] if self.preview_fig.layout.display != "none" else []),
                self.preview_note,
                self.figs["strength"],
                self.legends["strength"],
                self.figs["losses"],
                self.legends["losses"],
                self.stats,
                self.hook_box,
            ]
            hooks = tuple(f for f, _, _ in self._hook_figs.values())
        else:
            figs = [self.preview_note, self.stats]
            hooks = ()
        shown = (self._style, *figs)
        if tuple(self.children) != shown:
            self.children = shown
        if tuple(self.hook_box.children) != hooks:
            self.hook_box.children = hooks

    def extra_widgets(self) -> list[Any]:
        """The figures and legends out of the page while the panel is hidden (closed with it)."""
        return [
            self.preview_fig,
            *self.figs.values(),
            *self.legends.values(),
            self.hook_box,
            *(f for f, _, _ in self._hook_figs.values()),
        ]

    def series(self) -> dict[str, dict[str, list[tuple[int, int | None]]]]:
        """Strength and losses per group over turns (cached per revision; ``None`` where the
        group was not seen)."""
        t = self.table
        key = (t.seat.side, t.seat.state_id, t.at)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, forces_over_turns(t.seat, t.view, self._points))
        return self._cache[1]

    # -- preview -------------------------------------------------------------------------------
    def _on_preview(self, change: Any = None) -> None:
        t = self.table
        dist = distribution_of(t.preview)
        if dist is None:
            self.preview_fig.layout.display = "none"
            self.preview_note.value = (
                "<i style='color:#6b7280'>no order with dice being prepared</i>"
                if t.order is None or t.preview is None
                else ""
            )
            self._mount()
            return
        labels = [str(k) for k in dist]
        probs = [float(Fraction(p)) for p in dist.values()]
        with self.preview_bars.hold_sync():
            self.preview_bars.x = labels
            self.preview_bars.y = probs
        self.preview_fig.title = f"{t.order}" if t.order is not None else "preview"
        label = getattr(dist, "label", "")
        self.preview_note.value = (
            f"<span style='color:#6b7280'>{html.escape(str(label))}: exact probabilities; "
            f"mean {float(sum(Fraction(p) * k for k, p in dist.items())):.3g}</span>"
            if all(isinstance(k, (int, float)) for k in dist)
            else ""
        )
        self.preview_fig.layout.display = ""
        self._mount()

    # -- history and hook ----------------------------------------------------------------------
    def _on_view(self, change: Any = None) -> None:
        view = self.table.view
        data = self.series()
        sides = list(self.lines["strength"])
        me = self.table.seat.side
        for what, marks in self.lines.items():
            groups = sorted(data[what])
            turns = sorted({t for g in groups for t, _ in data[what][g]}) or [0]
            top = 0.0
            entries: list[tuple[str, str, str, str]] = []
            for i, side in enumerate(sides):
                mine = [g for g in groups if g.split("/")[0] == side]
                shown = [g for g in mine if any(v is not None for _, v in data[what][g])]
                ys = [[np.nan if v is None else float(v) for _, v in data[what][g]] for g in shown]
                top = max([top, *(y for row in ys for y in row if not math.isnan(y))])
                colours = [_domain_colour(g, j) for j, g in enumerate(shown)]
                mark = marks[side]
                with mark.hold_sync():
                    mark.x = np.asarray(turns, dtype=float)
                    mark.y = np.asarray(ys, dtype=float) if ys else []
                    mark.labels = shown
                    mark.colors = colours or [_NEUTRAL]
                dash = SIDE_STYLES[i % len(SIDE_STYLES)][2]
                title = view.sides[side].title if side in view.sides else side
                enemy = me not in (UMPIRE, side)
                for g, colour in zip(shown, colours, strict=True):
                    dom = g.split("/", 1)[1] if "/" in g else ""
                    gaps = sum(v is None for _, v in data[what][g])
                    note = "as seen" if enemy else ""
                    if enemy and gaps:
                        note = f"as seen; unknown at {gaps} of {len(turns)} turns"
                    entries.append((colour, dash, f"{title}{' · ' + dom if dom else ''}", note))
                if enemy and not shown:
                    entries.append(("#9ca3af", dash, title, "unknown: nothing seen"))
            xs, ys_scale = self._scales[what]
            ticks = integer_ticks(top)
            with ys_scale.hold_sync():
                ys_scale.min, ys_scale.max = 0.0, float(ticks[-1])
            with xs.hold_sync():
                xs.min, xs.max = float(turns[0]) - 0.2, float(turns[-1]) + 0.2
            xaxis, yaxis = self.figs[what].axes
            if list(xaxis.tick_values) != turns:
                xaxis.tick_values = turns
            if list(yaxis.tick_values) != ticks:
                yaxis.tick_values = ticks
            legend = _legend_html(entries)
            if self.legends[what].value != legend:
                self.legends[what].value = legend
        self._draw_hook(view)
        self._mount()

    def _draw_hook(self, view: Any) -> None:
        try:
            entries = self.table.presentation.dashboard(view) or {}
        except Exception as exc:  # noqa: BLE001 - a broken chart must not break the table
            self.stats.value = (
                "<span style='color:#b91c1c'>dashboard hook failed: "
                f"{html.escape(repr(exc))}</span>"
            )
            return
        stats: list[tuple[str, Any]] = []
        tracks: list[str] = []
        bars: dict[str, tuple[dict, dict]] = {}
        tables: list[tuple[str, list[Mapping]]] = []
        titles = {k: v.title for k, v in view.sides.items()}
        named = (
            {titles.get(k, k): v for k, v in entries.items()}
            if isinstance(entries, Mapping)
            else entries
        )
        _flatten("", named, stats, tracks, bars, tables)
        parts = list(tracks)
        if stats:
            parts.append(
                "<table>"
                + "".join(
                    f"<tr><td>{html.escape(k)}</td><td><b>{html.escape(_fmt(v))}</b></td></tr>"
                    for k, v in stats
                )
                + "</table>"
            )
        for title, rows in tables[:8]:
            cols = list(
                dict.fromkeys(
                    k for r in rows for k, v in r.items() if not isinstance(v, (Mapping, list))
                )
            )
            body = "".join(
                "<tr>"
                + "".join(f"<td>{html.escape(_fmt(r.get(c, '')))}</td>" for c in cols)
                + "</tr>"
                for r in rows[:20]
            )
            parts.append(
                f"<b>{html.escape(title)}</b><table><tr>"
                + "".join(f"<th>{html.escape(_words(c))}</th>" for c in cols)
                + f"</tr>{body}</table>"
            )
        value = f"<div class='owsnb-w'>{''.join(parts)}</div>" if parts else ""
        if self.stats.value != value:
            self.stats.value = value
        bars = dict(list(bars.items())[:16])
        for title in [k for k in self._hook_figs if k not in bars]:
            fig, _, _ = self._hook_figs.pop(title)
            fig.close()
        by_title = {v: k for k, v in titles.items()}
        for title, (values, colours) in bars.items():
            labels = [_words(k) for k in values]
            ys = [float(v) for v in values.values()]
            cols = [
                colours.get(k) or _side_colour(view, by_title.get(str(k), str(k))) or _NEUTRAL
                for k in values
            ]
            whole = all(float(v).is_integer() for v in ys)
            ticks = integer_ticks(max(ys, default=0)) if whole else None
            if title not in self._hook_figs:
                xs, yscale = bq.OrdinalScale(), bq.LinearScale(min=0.0)
                mark = bq.Bars(
                    x=labels, y=ys, scales={"x": xs, "y": yscale}, colors=cols, padding=0.3
                )
                yaxis = bq.Axis(
                    scale=yscale, side="left", tick_format="d" if whole else "", tick_values=ticks
                )
                fig = bq.Figure(
                    marks=[mark],
                    title=title,
                    axes=[bq.Axis(scale=xs), yaxis],
                    layout=W.Layout(height=self._height, width="100%"),
                    fig_margin={"top": 40, "bottom": 30, "left": 45, "right": 10},
                )
                self._hook_figs[title] = (fig, mark, yaxis)
            else:
                fig, mark, yaxis = self._hook_figs[title]
                with mark.hold_sync():
                    mark.x, mark.y, mark.colors = labels, ys, cols
            if ticks is not None:
                if yaxis.tick_values is None or list(yaxis.tick_values) != ticks:
                    yaxis.tick_values = ticks
                if mark.scales["y"].max != float(ticks[-1]):
                    mark.scales["y"].max = float(ticks[-1])
