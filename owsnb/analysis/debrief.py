"""The debrief: one self-contained HTML file of a whole game, to open anywhere, offline.

For the facilitated discussion after a game (OWS 12.1) and for the record: per turn, a picture of
the map at the end of the turn (SVG: the terrain, every unit where it stood, the moves of the
turn), the events each side saw, and the annotations; across the game, losses and detections by
side (SVG charts) and the final standing as the rule set judges it; for researchers, the history
(NetCDF when h5netcdf is installed, and CSV), the events and the annotations, embedded as download
links. No script, no network: the file is plain HTML and SVG.

It is the umpire's document (written from the truth, after the game): each side's events are those
that side saw, which is what the discussion is about.

>>> import owsnb  # doctest: +SKIP
>>> path = debrief(owsnb.resume("game.owsnb"), "debrief.html")  # doctest: +SKIP

The same from the command line: ``owsnb debrief game.owsnb -o debrief.html``; from the umpire's
console: the *Debrief* button of its Assessment tab.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from owsnb.kernel.state import UMPIRE

__all__ = ["debrief", "debrief_html", "turn_ends", "event_line", "map_svg", "QUIET"]

_SKIP = {"rng", "clock.set"}
QUIET = frozenset({"rng", "clock.set", "state.set", "side.set"})
"""Event kinds the turn's lists leave out: dice states, the clock, and the rules' bookkeeping of
game and side facts (all of them are in the events CSV)."""
_PALETTE = ("#1f5fbf", "#c0392b", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f")


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _holds_truth(game: Any) -> bool:
    return getattr(game, "holds_truth", True) is not False


def _events(game: Any) -> list[Any]:
    """Every event of the game (the umpire's log), in order."""
    return list(game.log(UMPIRE) if _holds_truth(game) else game.log())


def _view_at(game: Any, n: int) -> Any:
    """The umpire's view after *n* events."""
    if _holds_truth(game):
        from owsnb.kernel.view import side_view

        return side_view(game.state_at(n), UMPIRE, game.ruleset)
    return game.view_at(n)


def turn_ends(events: Sequence[Any], first_turn: int = 1) -> list[tuple[int, int, int]]:
    """``(turn, first event, last event)`` of every turn played, from the clock changes."""
    spans = []
    turn, start = first_turn, 1
    for e in events:
        if e.kind == "clock.set":
            t = e.data["clock"].turn
            if t != turn:
                spans.append((turn, start, e.seq - 1))
                turn, start = t, e.seq
    last = events[-1].seq if events else 0
    spans.append((turn, start, last))
    return spans


def event_line(e: Any, view: Any) -> str:
    """An event in words (a note's text, a roll, a move, a change of a unit)."""

    def label(h: Any) -> str:
        try:
            return view.map.label(h)
        except Exception:  # noqa: BLE001 - not a hex of this map
            return str(h)

    d = e.data
    if e.kind in ("note", "die"):
        return str(e)
    if e.kind == "unit.move":
        return f"{d.get('id')} moves to {label(d.get('to'))}"
    if e.kind == "unit.set":
        ch = d.get("changes", {})
        parts = []
        for k, v in ch.items():
            if k == "hex":
                parts.append(f"at {label(v)}" if v is not None else "off the map")
            elif k == "seen_by":
                parts.append(f"seen by {', '.join(sorted(v)) or 'nobody'}")
            elif k == "markers":
                parts.append(f"markers {', '.join(sorted(v)) or 'none'}")
            elif k in ("steps", "box"):
                parts.append(f"{k} {v}")
            elif k != "data":
                parts.append(k)
        return f"{d.get('id')}: {'; '.join(parts) or 'updated'}"
    if e.kind == "hex.set":
        ch = ", ".join(f"{k} {v}" for k, v in d.get("changes", {}).items())
        return f"{label(d.get('hex'))}: {ch}"
    if e.kind in ("unit.add", "unit.remove"):
        return f"{e.kind.split('.')[1]} {d.get('id') or d.get('unit', '')}"
    if e.kind in ("side.set", "state.set"):
        who = d.get("side", "game")
        return f"{who}: {', '.join(map(str, d.get('changes', {}).keys()))} changed"
    return str(e)


def _detected(rs: Any, view: Any, unit: Any, side: str) -> bool:
    try:
        return bool(rs.unit_detected(view, unit, side))
    except Exception:  # noqa: BLE001 - the kernel's default then
        return side in unit.seen_by


def _standing(rs: Any, view: Any) -> dict[str, Any] | None:
    guide = rs.guide() if hasattr(rs, "guide") else None
    fn = getattr(guide, "standing", None)
    if fn is None:
        return None
    try:
        return dict(fn(view))
    except Exception as exc:  # noqa: BLE001 - written in the file, never raised
        return {"text": f"(the standing could not be judged: {exc})", "rows": []}


# -- pictures ---------------------------------------------------------------------------------
def map_svg(rs: Any, view: Any, *, moves: Mapping[str, Any] | None = None, width: int = 760) -> str:
    """The map of *view* as SVG: hexes filled by the rule set's terrain style, each unit on the
    map as a disc of its side's colour with its id (the whole id in its tooltip), and *moves*
    (unit id -> the hex it started the turn in) as lines to where it stands."""
    layout = view.map.layout
    hexes = list(view.map.hexes)
    if layout is None or not hexes:
        return "<p><i>(an abstract board without geometry: no picture)</i></p>"
    polys = layout.polygons(hexes)
    simple = layout.projection == "simple"
    lat0 = 0.0 if simple else float(polys[..., 1].mean())
    kx = 1.0 if simple else math.cos(math.radians(lat0))
    xs, ys = polys[..., 0] * kx, polys[..., 1]
    x0, x1, y0, y1 = float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max())
    scale = (width - 10) / max(x1 - x0, 1e-9)
    height = int((y1 - y0) * scale) + 10

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * scale + 5, (y1 - y) * scale + 5

    def centre(h: Any) -> tuple[float, float]:
        lon, lat = layout.centre(h)
        return px(lon * kx, lat)

    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}' font-family='sans-serif' class='map'>"
    ]
    from owsnb.display.palette import terrain_style
    from owsnb.kernel.presentation import presentation_of

    styles: dict[str, str] = {}
    for h, hx, hy in zip(hexes, xs, ys, strict=True):
        terrain = view.map.hexes[h].terrain
        if terrain not in styles:
            try:
                st = terrain_style(presentation_of(rs), terrain)
            except Exception:  # noqa: BLE001 - a plain fill then
                st = {}
            styles[terrain] = str(st.get("fillColor", "#e5e7eb"))
        pts = " ".join(
            f"{a:.1f},{b:.1f}" for a, b in (px(x, y) for x, y in zip(hx, hy, strict=True))
        )
        out.append(
            f"<polygon points='{pts}' fill='{_esc(styles[terrain])}' stroke='#9ca3af' "
            f"stroke-width='0.4'><title>{_esc(view.map.label(h))} {_esc(terrain)}</title></polygon>"
        )
    hex_px = scale * (layout.size_km if simple else layout.size_km / 111.2)
    if hex_px >= 16:  # place names (the map's named features), small, under everything else
        for h in hexes:
            names = [
                f.get("name")
                for f in view.map.hexes[h].features.values()
                if isinstance(f, Mapping) and f.get("name")
            ]
            if names:
                cx, cy = centre(h)
                out.append(
                    f"<text x='{cx:.1f}' y='{cy - hex_px * 0.28:.1f}' font-size='8' "
                    f"text-anchor='middle' fill='#374151'>{_esc(names[0])}</text>"
                )
    colours = {s: (getattr(v, "color", "") or "") for s, v in view.sides.items()}
    for i, s in enumerate(colours):
        if not colours[s] or colours[s] == "#888888":
            colours[s] = _PALETTE[i % len(_PALETTE)]
    for uid, start in (moves or {}).items():
        u = view.units.get(uid)
        if u is None or u.hex is None or start is None or start == u.hex:
            continue
        (ax, ay), (bx, by) = centre(start), centre(u.hex)
        line = f"x1='{ax:.1f}' y1='{ay:.1f}' x2='{bx:.1f}' y2='{by:.1f}'"
        out.append(
            f"<g class='move'><title>{_esc(u.id)}: {_esc(view.map.label(start))} → "
            f"{_esc(view.map.label(u.hex))}</title>"
            f"<line {line} stroke='#fff' stroke-width='5' opacity='0.9'/>"
            f"<line {line} stroke='{_esc(colours.get(u.side, '#111'))}' stroke-width='2.5' "
            "stroke-dasharray='6 3'/>"
            f"<circle cx='{ax:.1f}' cy='{ay:.1f}' r='3' fill='#fff' "
            f"stroke='{_esc(colours.get(u.side, '#111'))}' stroke-width='1.5'/></g>"
        )
    stacks: dict[Any, list[Any]] = {}
    for u in view.units.values():
        if u.hex is not None and u.hex in view.map.hexes:
            stacks.setdefault(u.hex, []).append(u)
    r = max(3.0, min(hex_px * 0.32, 11.0))
    for h, units in stacks.items():
        cx, cy = centre(h)
        for k, u in enumerate(sorted(units, key=lambda u: (u.side, u.id))):
            ox = (k - (len(units) - 1) / 2) * r * 0.9
            dead = not u.alive
            dash = " stroke-dasharray='2 1'" if dead else ""
            out.append(
                f"<g><title>{_esc(u.id)} — {_esc(u.name)} ({_esc(u.side)}, {u.steps}/"
                f"{u.max_steps} steps) at {_esc(view.map.label(h))}</title>"
                f"<circle cx='{cx + ox:.1f}' cy='{cy:.1f}' r='{r:.1f}' "
                f"fill='{'#fff' if dead else _esc(colours.get(u.side, '#111'))}' stroke='#111' "
                f"stroke-width='0.8'{dash}/></g>"
            )
        if hex_px >= 22:
            ids = ", ".join(u.id for u in units[:2]) + ("…" if len(units) > 2 else "")
            out.append(
                f"<text x='{cx:.1f}' y='{cy + r + 8:.1f}' font-size='8' text-anchor='middle' "
                f"fill='#111'>{_esc(ids)}</text>"
            )
    out.append("</svg>")
    return "".join(out)


def _chart_svg(
    title: str,
    series: Mapping[str, Sequence[tuple[float, float]]],
    colours: Mapping[str, str],
    ylabel: str,
    width: int = 420,
    height: int = 200,
) -> str:
    """A small line chart: turns on x, whole numbers on y, the legend beside it."""
    pts = [p for s in series.values() for p in s]
    if not pts:
        return ""
    xs = sorted({p[0] for p in pts})
    top = max(1.0, max(p[1] for p in pts))
    step = next(m for m in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if top / m <= 5)
    ymax = step * math.ceil(top / step)
    left, right, t, b = 36, 110, 24, 30
    w, h = width - left - right, height - t - b

    def X(v: float) -> float:
        return left + (0.5 if len(xs) == 1 else (v - xs[0]) / (xs[-1] - xs[0])) * w

    def Y(v: float) -> float:
        return t + h - v / ymax * h

    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"font-family='sans-serif' font-size='11' class='chart'>"
        f"<text x='{left}' y='14' font-size='13' font-weight='bold'>{_esc(title)}</text>"
    ]
    v = 0
    while v <= ymax:
        out.append(
            f"<line x1='{left}' x2='{left + w}' y1='{Y(v):.1f}' y2='{Y(v):.1f}' stroke='#e5e7eb'/>"
            f"<text x='{left - 4}' y='{Y(v) + 4:.1f}' text-anchor='end'>{v}</text>"
        )
        v += step
    for x in xs:
        out.append(f"<text x='{X(x):.1f}' y='{t + h + 14}' text-anchor='middle'>{int(x)}</text>")
    out.append(
        f"<text x='{left + w / 2:.1f}' y='{height - 2}' text-anchor='middle'>"
        "end of turn (0: the start)</text>"
        f"<text x='10' y='{t + h / 2:.1f}' transform='rotate(-90 10 {t + h / 2:.1f})' "
        f"text-anchor='middle'>{_esc(ylabel)}</text>"
    )
    for i, (name, s) in enumerate(series.items()):
        c = colours.get(name, _PALETTE[i % len(_PALETTE)])
        path = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in s)
        out.append(
            f"<polyline points='{path}' fill='none' stroke='{_esc(c)}' stroke-width='2.5'/>"
            + "".join(
                f"<circle cx='{X(x):.1f}' cy='{Y(y):.1f}' r='3' fill='{_esc(c)}'/>" for x, y in s
            )
            + f"<line x1='{left + w + 10}' x2='{left + w + 28}' y1='{t + 10 + 16 * i}' "
            f"y2='{t + 10 + 16 * i}' stroke='{_esc(c)}' stroke-width='3'/>"
            f"<text x='{left + w + 32}' y='{t + 14 + 16 * i}'>{_esc(name)}</text>"
        )
    out.append("</svg>")
    return "".join(out)


# -- exports ----------------------------------------------------------------------------------
def _download(name: str, mime: str, data: bytes, what: str) -> str:
    b64 = base64.b64encode(data).decode("ascii")
    return (
        f"<a class='button' download='{_esc(name)}' href='data:{mime};base64,{b64}'>"
        f"⬇ {_esc(what)} <span class='muted'>({_esc(name)}, {len(data) / 1024:,.0f} KB)</span></a>"
    )


def _exports(game: Any, ds: Any, stem: str) -> list[str]:
    from owsnb.analysis.history import annotations_table, events_table

    links = []
    try:
        import h5netcdf  # noqa: F401 - the engine owsnb.analysis.io writes NetCDF with

        buf = io.BytesIO()
        ds.to_netcdf(buf, engine="h5netcdf")
        links.append(
            _download(
                f"{stem}-history.nc", "application/x-netcdf", buf.getvalue(), "history, NetCDF"
            )
        )
    except ImportError:
        links.append(
            "<span class='muted'>(NetCDF needs h5netcdf: pip install owsnb[research])</span>"
        )
    table = ds.drop_vars([v for v in ds.data_vars if "marker" in ds[v].dims or "by" in ds[v].dims])
    frame = table[[v for v in table.data_vars if set(table[v].dims) == {"time", "unit"}]]
    csv = frame.to_dataframe().reset_index().to_csv(index=False).encode()
    links.append(
        _download(f"{stem}-history.csv", "text/csv", csv, "history, CSV (unit by snapshot)")
    )
    if _holds_truth(game):
        ev = events_table(game).to_csv(index=False).encode()
        an = annotations_table(game).to_csv(index=False).encode()
    else:
        import pandas as pd

        ev = (
            pd.DataFrame(
                [
                    {"seq": e.seq, "kind": e.kind, "rule": e.rule, "text": str(e)}
                    for e in _events(game)
                    if e.kind != "rng"
                ]
            )
            .to_csv(index=False)
            .encode()
        )
        an = (
            pd.DataFrame(
                [
                    {k: v for k, v in a.to_dict().items() if k != "hex"}
                    for a in list(game.annotations)
                ]
            )
            .to_csv(index=False)
            .encode()
        )
    links.append(_download(f"{stem}-events.csv", "text/csv", ev, "events, CSV"))
    links.append(_download(f"{stem}-annotations.csv", "text/csv", an, "annotations, CSV"))
    return links


_CSS = """
body{font:14px system-ui,sans-serif;line-height:1.45;margin:0 auto;max-width:1180px;padding:12px 24px;color:#111827}
h1{font-size:22px}h2{font-size:18px;border-bottom:2px solid #e5e7eb;padding-bottom:2px;margin-top:28px}
h3{font-size:15px}.muted{color:#6b7280}table{border-collapse:collapse}
td,th{padding:2px 8px;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top}
.standing{border-left:5px solid #047857;background:#ecfdf5;padding:6px 12px}
.turn{display:grid;grid-template-columns:minmax(420px,1fr) minmax(320px,1fr);gap:14px}
.button{display:inline-block;margin:3px 8px 3px 0;padding:4px 10px;border:1px solid #1d4ed8;
border-radius:5px;color:#1d4ed8;text-decoration:none}
details{margin:3px 0}summary{cursor:pointer}.map{max-width:100%;height:auto;border:1px solid #d1d5db}
.charts{display:flex;flex-wrap:wrap;gap:12px}ol.events{margin:2px 0;padding-left:22px;font-size:13px}
.note{background:#fef9c3;padding:2px 6px;margin:2px 0}
"""


def debrief_html(game: Any, *, title: str | None = None) -> str:
    """The debrief of *game* (a Game, or the umpire's remote seat) as one HTML document."""
    from owsnb.analysis.history import history

    rs = game.ruleset
    events = _events(game)
    final = _view_at(game, events[-1].seq if events else 0)
    sides = list(final.sides)
    first = _view_at(game, 0)
    spans = turn_ends(events, first.clock.turn)
    if len(spans) > 1:  # a last "turn" that is only the clock moving on as the game ends
        turn, a, b = spans[-1]
        if all(e.kind in _SKIP or e.kind == "note" for e in events if a <= e.seq <= b):
            spans = spans[:-1]
    sc = final.scenario
    name = title or str(sc.get("title") or sc.get("id") or "game")
    colours = {
        s: (getattr(final.sides[s], "color", "") or _PALETTE[i % 6]) for i, s in enumerate(sides)
    }
    st = _standing(rs, final)
    ds = history(game, every="turn")
    # losses and detections at the start (turn 0) and at the end of every turn: the truth
    ends = [(0, first)] + [(turn, _view_at(game, b)) for turn, _, b in spans]
    loss_series: dict[str, list[tuple[float, float]]] = {}
    det_series: dict[str, list[tuple[float, float]]] = {}
    for s in sides:
        title_s = final.sides[s].title
        loss_series[title_s] = [
            (t, float(sum(max(u.max_steps - u.steps, 0) for u in v.units.values() if u.side == s)))
            for t, v in ends
        ]
        det_series[title_s] = [
            (t, float(sum(1 for u in v.units.values() if u.side != s and _detected(rs, v, u, s))))
            for t, v in ends
        ]
    titled = {final.sides[s].title: colours[s] for s in sides}
    anns = list(game.annotations() if callable(game.annotations) else game.annotations)
    stem = str(sc.get("id") or "game")
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Debrief — {_esc(name)}</title><style>{_CSS}</style></head><body>",
        f"<h1>Debrief — {_esc(name)}</h1>",
        f"<p class='muted'>{_esc(getattr(rs, 'title', rs.name))} · {len(spans)} turn"
        f"{'s' if len(spans) != 1 else ''} played, {len(events)} events · "
        f"{'the game is over' if st and st.get('final') else 'now: ' + _esc(final.clock)}"
        f" · written {dt.datetime.now().strftime('%Y-%m-%d %H:%M')}</p>",
        "<h2>Final standing</h2>",
    ]
    if st is None:
        out.append("<p class='standing'>This rule set judges no victory conditions.</p>")
    else:
        rows = "".join(
            f"<tr><td>{_esc(final.sides[r['side']].title if r.get('side') in final.sides else r.get('side', ''))}"
            f"</td><td>{_esc(r.get('what', ''))}</td><td><b>{_esc(r.get('points', ''))}</b></td></tr>"
            for r in st.get("rows", ())
        )
        notes = "".join(f"<li>{_esc(n)}</li>" for n in st.get("notes", ()))
        rule = f" <span class='muted'>(rule {_esc(st['rule'])})</span>" if st.get("rule") else ""
        out.append(
            f"<div class='standing'><b>{'Result' if st.get('final') else 'How it stands'}:</b> "
            f"{_esc(st.get('text', ''))}{rule}{'<table>' + rows + '</table>' if rows else ''}"
            f"{'<ul class=muted>' + notes + '</ul>' if notes else ''}</div>"
        )
    out.append("<h2>Losses and detections</h2><div class='charts'>")
    out.append(_chart_svg("Steps lost", loss_series, titled, "steps"))
    out.append(_chart_svg("Enemy units detected", det_series, titled, "units"))
    out.append("</div>")
    out.append("<h2>Turn by turn</h2>")
    for turn, a, b in spans:
        start = _view_at(game, max(a - 1, 0))
        end = _view_at(game, b)
        moves = {uid: u.hex for uid, u in start.units.items()}
        out.append(
            f"<h3 id='turn-{turn}'>Turn {turn} <span class='muted'>(events {a}–{b})</span></h3>"
        )
        out.append("<div class='turn'><div>")
        out.append(map_svg(rs, end, moves=moves))
        out.append(
            "<p class='muted'>Where every unit stood at the end of the turn (discs in each "
            "side's colour, white: destroyed; dashed lines: moves of the turn). Hover for names."
            "</p></div><div>"
        )
        marked = [x for x in anns if getattr(x, "turn", None) == turn]
        if marked:
            out.append("<b>Annotations</b>")
            for x in marked:
                who = x.side or "everyone"
                tags = f" [{', '.join(x.tags)}]" if x.tags else ""
                where = ""
                if x.hex is not None:
                    where = f" at {_esc(end.map.label(x.hex))}"
                out.append(
                    f"<div class='note'>{_esc(x.text)} <span class='muted'>— for {_esc(who)}"
                    f"{where}{_esc(tags)}{' · ' + _esc(x.author) if x.author else ''}</span></div>"
                )
        in_turn = [e for e in events if a <= e.seq <= b and e.kind not in QUIET]
        for s in sides:
            seen = [e for e in in_turn if e.visible(s)]
            lines = "".join(
                f"<li>{_esc(event_line(e, end))}"
                f"{' <span class=muted>[' + _esc(e.rule) + ']</span>' if e.rule else ''}</li>"
                for e in seen
            )
            out.append(
                f"<details><summary><b>What {_esc(final.sides[s].title)} saw</b>: {len(seen)} "
                f"events</summary><ol class='events'>{lines}</ol></details>"
            )
        out.append("</div></div>")
    out.append("<h2>Annotations</h2>")
    if anns:
        out.append(
            "<table><tr><th>turn</th><th>event</th><th>for</th><th>tags</th><th>note</th></tr>"
            + "".join(
                f"<tr><td>{_esc(x.turn)}</td><td>{_esc(x.seq)}</td><td>{_esc(x.side or 'everyone')}"
                f"</td><td>{_esc(', '.join(x.tags))}</td><td>{_esc(x.text)}</td></tr>"
                for x in anns
            )
            + "</table>"
        )
    else:
        out.append("<p class='muted'>No annotations.</p>")
    out.append("<h2>For researchers</h2><p>" + "".join(_exports(game, ds, stem)) + "</p>")
    out.append(
        "<p class='muted'>The history's variables carry CF-style long_name and units; "
        "open it with <code>xarray.open_dataset(path)</code> or "
        "<code>owsnb.analysis.open_dataset(path)</code>.</p></body></html>"
    )
    return "".join(out)


def debrief(
    game: Any, path: str | os.PathLike | None = None, *, title: str | None = None
) -> str | Path:
    """Write the debrief of *game* to *path* (returns the path), or return it as HTML text when
    *path* is ``None``."""
    text = debrief_html(game, title=title)
    if path is None:
        return text
    p = Path(path)
    p.write_text(text, encoding="utf-8")
    return p
