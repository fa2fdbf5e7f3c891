"""Results in words: one renderer for every rule set's results, and the results feed.

A :class:`~owsnb.kernel.result.Result` (what a rule's ``resolve`` returns) is rendered here, once:
its title, the outcome as rows a player reads (labels in words, never Python reprs or
``snake_case``; yes and no; lists and per-unit counts spelled out; correct plurals), its table
when it has one, the dice with what each was for and its rule, its narration and the rule
paragraphs applied — escaped, with a ``<pre>`` text fallback (:func:`result_text`).

The feed (:func:`feed`) tells a seat what happened in words, from the events it may see: each
exchange (a strike, a combat, a detection...) as lines with their rule paragraph.

>>> words({"R-052D-1": 0}), words(False), words(None), words(["B-HF3-1", "B-PGG-619"])
('R-052D-1: 0', 'no', '—', 'B-HF3-1, B-PGG-619')
>>> label("defender_left"), label("mine_hits"), label("steps_lost")
('defender left the hex', 'mine hits', 'steps lost')
>>> plural("2 salvo(s); 1 hit(s); 1 CAP(s); 2 hex(es)")
'2 salvos; 1 hit; 1 CAP; 2 hexes'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from owsnb.display.html import esc, wrap

__all__ = [
    "LABELS",
    "label",
    "words",
    "plural",
    "result_html",
    "result_text",
    "result_rows",
    "event_line",
    "feed",
    "feed_text",
]

LABELS: dict[str, str] = {
    "to": "to",
    "hex": "hex",
    "hexes": "hexes moved",
    "halted": "halted",
    "mine_hits": "mine hits",
    "hits": "hits",
    "steps_lost": "steps lost",
    "salvos": "salvos",
    "pending": "waiting for the defender",
    "defender_left": "defender left the hex",
    "react_left": "reactions left",
    "compromised": "team compromised",
    "failed": "insertion failed",
    "detected": "detected",
    "die": "die",
    "roll": "roll",
    "odds": "odds",
    "column": "column",
    "cell": "result",
    "shield": "shield",
    "token": "token",
    "space": "space dashboard",
    "row": "row",
    "unit": "unit",
    "percent": "probability (%)",
    "success": "succeeded",
    "sub_lost": "submarine lost",
    "sub_detected": "submarine detected",
    "shots": "shots",
    "ship": "ship",
    "card": "card",
    "transports": "transports",
    "escorts": "escorts",
    "intercept": "intercepted",
    "destroyed": "destroyed",
    "defence": "defence",
    "cleared": "cleared",
    "km": "km",
    "mp": "movement points",
    "munitions": "munitions",
    "zone": "zone",
    "security": "security",
    "partisans": "partisans",
    "emitting": "emitting",
    "embark": "embarked",
    "transit": "transit",
    "path": "path",
    "outcome": "outcome",
    "obstacle": "obstacle",
    "events": "changes",
}
"""Words for outcome keys the rule sets use (others: ``snake_case`` and ``kebab-case`` become
spaces)."""

_PLURAL = re.compile(r"\b(\d+)(\s+\w+?)\((e?s)\)")


def label(key: Any) -> str:
    """A field name as a player reads it."""
    k = str(key)
    return LABELS.get(k) or k.replace("_", " ").replace("-", " ").strip()


def plural(text: str) -> str:
    """``"2 salvo(s)"`` -> ``"2 salvos"``, ``"1 hit(s)"`` -> ``"1 hit"`` (the ``(s)`` a text
    leaves to the reader, settled by the number before it)."""
    return _PLURAL.sub(
        lambda m: m.group(1) + m.group(2) + ("" if m.group(1) == "1" else m.group(3)), text
    )


def words(value: Any) -> str:
    """A value as a player reads it: yes/no, an em dash for nothing, lists and mappings spelled
    out, hexes by their printed label when they carry one."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return plural(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{words(k)}: {words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(words(v) for v in items) or "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def result_rows(result: Any) -> list[tuple[str, str]]:
    """The outcome of *result* as (label, words) rows."""
    return [(label(k), words(v)) for k, v in dict(getattr(result, "outcome", {}) or {}).items()]


def _table(columns: list[str], rows: list[Mapping[str, Any]]) -> str:
    head = "".join(f"<th>{esc(label(c))}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(words(r.get(c)))}</td>" for c in columns) + "</tr>"
        for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def result_html(result: Any, *, notebook: bool = True) -> str:
    """A result as HTML (escaped). *notebook*: with the stylesheet and the text fallback (a
    panel that updates drops both: :func:`owsnb.widgets.render.compact`)."""
    title = esc(plural(str(getattr(result, "title", "") or "")))
    rules = ", ".join(getattr(result, "rules", ()) or ())
    head = f"<b>{title}</b>" + (f" <span class='rule'>{esc(rules)}</span>" if rules else "")
    rows = result_rows(result)
    facts = (
        "<table>"
        + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
        + "</table>"
        if rows
        else ""
    )
    charts = dict(getattr(result, "charts", {}) or {})
    if charts:
        from owsnb.kernel.dist import bar_chart_html

        facts += "".join(
            bar_chart_html(list(dict(d).items()), caption=plural(str(c))) for c, d in charts.items()
        )
    columns = list(getattr(result, "columns", ()) or ())
    table = _table(columns, list(getattr(result, "table", ()) or ())) if columns else ""
    rolls = list(getattr(result, "rolls", ()) or ())
    dice = (
        "<table><tr><th>die</th><th>roll</th><th>for</th><th>rule</th></tr>"
        + "".join(
            f"<tr><td>{esc(d)}</td><td><b>{esc(v)}</b></td><td>{esc(plural(str(p)))}</td>"
            f"<td class='rule'>{esc(r)}</td></tr>"
            for d, v, p, r in rolls
        )
        + "</table>"
        if rolls
        else ""
    )
    lines = "".join(f"<li>{esc(plural(str(x)))}</li>" for x in getattr(result, "lines", ()) or ())
    body = head + facts + table + dice + (f"<ul>{lines}</ul>" if lines else "")
    return wrap(body, result_text(result)) if notebook else f"<div class='owsnb'>{body}</div>"


def result_text(result: Any) -> str:
    """A result as plain text (the fallback of :func:`result_html`)."""
    out = [plural(str(getattr(result, "title", "") or ""))]
    rules = ", ".join(getattr(result, "rules", ()) or ())
    if rules:
        out[0] += f" ({rules})"
    out += [f"  {k}: {v}" for k, v in result_rows(result)]
    for c, d in dict(getattr(result, "charts", {}) or {}).items():
        out.append(f"  {c}: " + ", ".join(f"{words(k)} {float(p):.1%}" for k, p in dict(d).items()))
    columns = list(getattr(result, "columns", ()) or ())
    for r in getattr(result, "table", ()) or ():
        out.append("  " + " | ".join(f"{label(c)} {words(r.get(c))}" for c in columns))
    for d, v, p, r in getattr(result, "rolls", ()) or ():
        out.append(f"  {d} -> {v}: {plural(str(p))} [{r}]")
    out += [f"  - {plural(str(x))}" for x in getattr(result, "lines", ()) or ()]
    return "\n".join(out)


# -- the feed -------------------------------------------------------------------------------------
def event_line(
    e: Any, view: Any, before: Mapping[str, Any] | None = None
) -> tuple[str, str] | None:
    """An event as a line a player reads, with its rule paragraph, or ``None`` for bookkeeping
    (markers, clocks, who has seen whom, dice state). *before*: unit id -> steps just before
    the event (to say how many steps a unit lost)."""
    d = e.data
    rule = str(e.rule or "")
    if e.kind == "note":
        return plural(str(d.get("text", ""))), rule
    if e.kind == "die":
        purpose = plural(str(d.get("purpose", "") or "a roll"))
        return f"{d.get('die')} rolled {d.get('result')}: {purpose}", rule
    if e.kind == "unit.set":
        ch = d.get("changes", {}) or {}
        uid = d.get("id")
        if "steps" in ch:
            was = (before or {}).get(uid)
            now = int(ch["steps"])
            if was is not None and int(was) != now:
                n = abs(int(was) - now)
                what = "loses" if int(was) > now else "regains"
                return f"{uid} {what} {n} step{'s' if n != 1 else ''} ({now} left)", rule
            return f"{uid} now has {now} step{'s' if now != 1 else ''}", rule
        if ch.get("alive") is False:
            return f"{uid} is destroyed", rule
        return None
    if e.kind == "unit.remove":
        return f"{d.get('id')} is removed from play", rule
    if e.kind == "hex.set":
        ch = d.get("changes", {}) or {}
        h = d.get("hex")
        where = view.map.label(h) if h is not None and hasattr(view, "map") else str(h)
        if "control" in ch:
            return f"{where} is now held by {ch['control']}", rule
        return None
    return None


_MOVES = ("unit.move",)


def feed(view: Any, limit: int = 6) -> list[list[tuple[str, str]]]:
    """What happened, as *view*'s seat may know it: the latest *limit* exchanges, newest first,
    each a list of (line, rule). An exchange is the events of one submission that say something
    (a note, a die, a loss of steps, a change of hands); moves alone are the map's to show, but a
    unit pushed back in an exchange (a retreat) is told."""
    groups: dict[int, list[Any]] = {}
    for e in view.events:
        groups.setdefault(e.batch, []).append(e)
    steps: dict[str, Any] = {}  # a unit's steps after the last change this seat saw
    out: list[list[tuple[str, str]]] = []
    for _, events in sorted(groups.items()):
        lines: list[tuple[str, str]] = []
        said = any(e.kind in ("note", "die") for e in events)
        for e in events:
            line = event_line(e, view, steps)
            ch = e.data.get("changes") if e.kind == "unit.set" else None
            if ch and "steps" in ch:
                steps[e.data.get("id")] = ch["steps"]
            if e.kind in _MOVES and said and e.data.get("to") is not None:
                to = view.map.label(e.data["to"])
                line = (f"{e.data.get('id')} moves to {to}", str(e.rule or ""))
            if line is not None and line[0]:
                lines.append(line)
        if lines and said:
            out.append(lines)
    return list(reversed(out))[:limit]


def feed_text(view: Any, limit: int = 6) -> str:
    """The feed as text, one exchange per paragraph."""
    return "\n\n".join("\n".join(f"{t} [{r}]" if r else t for t, r in g) for g in feed(view, limit))
