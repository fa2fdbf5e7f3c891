"""Dashboard (bqplot): the order being prepared, forces and losses over turns, and the rule set's
own charts.

* **Preview**: the exact outcome distribution of the order being prepared (bars; the exact
  fractions are in the order panel).
* **Forces** and **losses** by side and domain (the rule set's presentation's ``unit_domain``: OWS counts
  air, maritime, land and SOF; by default a ``domain`` payload value) at the end of every turn, computed from the
  seat's own history views — the other side's numbers are
  what this seat has seen of them, never the truth.
* **Rule-set charts** from its ``dashboard(view)``, whatever its nesting. Each value is
  drawn as

  - a number, text or list of them: a row of the figures table (nested keys joined with " · ");
  - ``{label: number, ...}`` under a key: a bar chart (side names get their side's colour);
  - ``{"kind": "track", "value": v, "max": m, "rule": "..."}``: a progress track;
  - ``{"kind": "bars", "values": {label: number}, "colours": {...}}``: a bar chart;
  - a list of mappings: a table;
  - any other mapping: each of its entries, under its key.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> d = Dashboard(tiny_game(), seat="blue")
    >>> d.series()["strength"]
    {'blue': [(0, 2), (1, 2)]}
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import bqplot as bq
import ipywidgets as W

from owsnb.widgets.panel import Panel
from owsnb.widgets.render import distribution_of, style_widget
from owsnb.widgets.table import Table

__all__ = ["Dashboard", "forces_over_turns"]

_PALETTE = ("#1f5fbf", "#c0392b", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f")


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
) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """Strength (steps of units still alive) and losses (steps lost) per group at the end of each
    turn (turn 0 = the start), as the seat has seen them.

    Groups are ``side/domain`` where the rule set's presentation's ``unit_domain(view, unit)`` names a domain,
    else the side. *cache*
    (a dict kept between calls) saves asking the seat again for the past turns' views; its keys
    name the event each point ends at, so an undone and replaced history is not mistaken for
    the old one.
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
    # every series has a value at every turn (0: nothing of that group seen then)
    strength = {g: [(t, s_now.get(g, 0)) for t, s_now, _ in snaps] for g in groups}
    losses = {g: [(t, l_now.get(g, 0)) for t, _, l_now in snaps] for g in groups}
    return {"strength": strength, "losses": losses}


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


def _flatten(title: str, value: Any, stats: list, tracks: list, bars: dict, tables: list) -> None:
    """Sort a ``dashboard`` hook's data into figures, tracks, bar charts and tables."""
    if isinstance(value, Mapping):
        kind = value.get("kind")
        if kind == "track":
            v, m = value.get("value", 0), value.get("max", 1) or 1
            pct = (
                max(0.0, min(100.0, 100.0 * float(v) / float(m)))
                if _number(v) and _number(m)
                else 0.0
            )
            rule = (
                f" <span class='rule'>rule {html.escape(str(value['rule']))}</span>"
                if value.get("rule")
                else ""
            )
            tracks.append(
                f"<div>{html.escape(title)}: <b>{html.escape(_fmt(v))}</b> / "
                f"{html.escape(_fmt(m))}{rule}"
                "<div style='background:#e5e7eb;width:220px;height:8px'>"
                "<div style='background:#2563eb;"
                f"width:{pct * 2.2:.0f}px;height:8px'></div></div></div>"
            )
            return
        if kind == "bars":
            bars[title] = (
                {str(k): float(v) for k, v in dict(value.get("values", {})).items() if _number(v)},
                dict(value.get("colours", {})),
            )
            return
        if title and value and all(_number(v) for v in value.values()):
            bars[title] = ({str(k): float(v) for k, v in value.items()}, {})
            return
        for k, v in value.items():
            sub = f"{title} · {k}" if title else str(k)
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


def _colour(view: Any, key: str, i: int) -> str:
    side = view.sides.get(key.split("/")[0])
    c = getattr(side, "color", None)
    return c if c and c != "#888888" else _PALETTE[i % len(_PALETTE)]


class Dashboard(Panel):
    """Charts for one seat (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is charted when *source* is a Game.
    """

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
            layout=W.Layout(height=height, width="100%"),
            fig_margin={"top": 40, "bottom": 40, "left": 50, "right": 10},
        )
        self.preview_note = W.HTML()
        # forces and losses
        self.figs: dict[str, bq.Figure] = {}
        self.lines: dict[str, bq.Lines] = {}
        for what in ("strength", "losses"):
            xs, ys = bq.LinearScale(), bq.LinearScale(min=0.0)
            line = bq.Lines(
                x=[],
                y=[],
                scales={"x": xs, "y": ys},
                marker="circle",
                display_legend=True,
                labels=[],
                colors=list(_PALETTE),
            )
            self.lines[what] = line
            self.figs[what] = bq.Figure(
                marks=[line],
                title=f"{what} (steps) at the end of each turn",
                axes=[
                    bq.Axis(scale=xs, label="turn", tick_format="d"),
                    bq.Axis(scale=ys, side="left", tick_format="d"),
                ],
                legend_location="bottom-right",
                layout=W.Layout(height=height, width="100%"),
                fig_margin={"top": 40, "bottom": 40, "left": 45, "right": 10},
            )
        # rule-set charts
        self.stats = W.HTML()
        self.hook_box = W.VBox()
        self._hook_figs: dict[str, tuple[bq.Figure, bq.Bars]] = {}
        super().__init__(
            [
                style_widget(),
                self.preview_fig,
                self.preview_note,
                self.figs["strength"],
                self.figs["losses"],
                self.stats,
                self.hook_box,
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-dashboard")
        self.table.hold(self)
        self.watch(self._on_preview, ["preview", "order", "problem"])
        self.watch(self._on_view, ["revision"])
        self._on_preview()
        self._on_view()

    def series(self) -> dict[str, dict[str, list[tuple[int, int]]]]:
        """Strength and losses per group over turns (cached per revision)."""
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

    # -- history and hook ----------------------------------------------------------------------
    def _on_view(self, change: Any = None) -> None:
        view = self.table.view
        data = self.series()
        for what, line in self.lines.items():
            groups = sorted(data[what])
            xs = [[p[0] for p in data[what][g]] for g in groups]
            ys = [[p[1] for p in data[what][g]] for g in groups]
            colours = [_colour(view, g, i) for i, g in enumerate(groups)]
            with line.hold_sync():
                line.x = xs if groups else []
                line.y = ys if groups else []
                line.labels = groups
                line.colors = colours or list(_PALETTE)
            turns = sorted({x for row in xs for x in row})
            axis = self.figs[what].axes[0]
            if axis.tick_values is None or list(axis.tick_values) != turns:
                axis.tick_values = turns
        self._draw_hook(view)

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
        _flatten("", entries, stats, tracks, bars, tables)
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
                + "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
                + f"</tr>{body}</table>"
            )
        self.stats.value = f"<div class='owsnb-w'>{''.join(parts)}</div>" if parts else ""
        bars = dict(list(bars.items())[:16])
        for title in [k for k in self._hook_figs if k not in bars]:
            fig, _ = self._hook_figs.pop(title)
            fig.close()
        for title, (values, colours) in bars.items():
            labels = [str(k) for k in values]
            ys = [float(v) for v in values.values()]
            cols = [colours.get(k) or _colour(view, str(k), i) for i, k in enumerate(values)]
            if title not in self._hook_figs:
                xs, yscale = bq.OrdinalScale(), bq.LinearScale(min=0.0)
                mark = bq.Bars(
                    x=labels, y=ys, scales={"x": xs, "y": yscale}, colors=cols, padding=0.3
                )
                fig = bq.Figure(
                    marks=[mark],
                    title=title,
                    axes=[bq.Axis(scale=xs), bq.Axis(scale=yscale, side="left")],
                    layout=W.Layout(height=self._height, width="100%"),
                    fig_margin={"top": 40, "bottom": 30, "left": 45, "right": 10},
                )
                self._hook_figs[title] = (fig, mark)
            else:
                fig, mark = self._hook_figs[title]
                with mark.hold_sync():
                    mark.x, mark.y, mark.colors = labels, ys, cols
        self.hook_box.children = tuple(f for f, _ in self._hook_figs.values())
