"""Small HTML renderers shared by the panels (every string escaped).

Example:
    >>> from owsnb.kernel.dist import Distribution
    >>> "1/2" in distribution_html(Distribution.bernoulli("1/2", label="hit"))
    True
    >>> refusal_html(None)
    ''
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.display.html import CSS as DISPLAY_CSS
from owsnb.display.html import esc
from owsnb.kernel.dist import Distribution

__all__ = [
    "distribution_html",
    "preview_html",
    "own_html",
    "refusal_html",
    "submission_html",
    "clock_html",
    "prompt_html",
    "feed_html",
    "compact",
    "distribution_of",
    "CSS",
    "style_widget",
]

CSS = (
    "<style>.owsnb-w{font:13px system-ui,sans-serif;line-height:1.35}"
    ".owsnb-w table{border-collapse:collapse}.owsnb-w td,.owsnb-w th{padding:1px 6px;"
    "border-bottom:1px solid #e5e7eb;text-align:left}.owsnb-w .rule{color:#6b7280;font-size:11px}"
    ".owsnb-w .bad{color:#b91c1c}.owsnb-w .ok{color:#047857}.owsnb-w .muted{color:#6b7280}"
    ".owsnb-w .need{color:#b45309;font-weight:600}.owsnb-slots{margin:2px 0}"
    ".owsnb-prompt{background:#fff7ed;border-left:4px solid #ea580c;padding:4px 8px;margin:4px 0}"
    ".owsnb-feed ol{margin:2px 0;padding-left:18px}.owsnb-feed li{margin-bottom:3px}"
    ".owsnb-feed li:first-child{background:#f0f9ff}"
    ".owsnb-orders .muted{color:#6b7280}</style>"
)


def _w(body: str) -> str:
    return f"<div class='owsnb-w'>{body}</div>"


def style_widget() -> Any:
    """A hidden widget carrying the panels' stylesheet — and the notebook renderers' (see
    :func:`compact`) — sent once, not with every update."""
    import ipywidgets as W

    return W.HTML(CSS + DISPLAY_CSS, layout=W.Layout(display="none"))


_FALLBACK = re.compile(r"<pre class='owsnb-fallback'>.*?</pre>", re.S)


def compact(html: str) -> str:
    """A notebook rendering (:mod:`owsnb.display.html`) made fit for a panel that updates: its
    stylesheet (the panel's style widget carries it once) and its hidden text fallback (a live
    widget is never shown as text) are dropped, so each update sends only what is seen.

    Example:
        >>> from owsnb.display.html import table_html
        >>> full = table_html([{"die": "d10", "roll": 7}])
        >>> small = compact(full)
        >>> "<td>7</td>" in small, "<style>" in small, "owsnb-fallback" in small, len(small) < len(full) / 2
        (True, False, False, True)
    """
    return _FALLBACK.sub("", html.replace(DISPLAY_CSS, ""))


def distribution_of(preview: Any) -> Any:
    """The exact distribution inside a preview: the preview itself if it is a mapping of outcome
    to probability, else its ``distribution`` attribute (rich previews), else ``None``."""
    if preview is None:
        return None
    if (
        isinstance(preview, Mapping)
        and preview
        and all(isinstance(v, (Fraction, int, float)) for v in preview.values())
    ):
        return preview
    d = getattr(preview, "distribution", None)
    return d if isinstance(d, Mapping) else None


def distribution_html(dist: Mapping[Any, Any], title: str = "") -> str:
    """Outcome | exact probability | percent | bar."""
    label = getattr(dist, "label", "") or "outcome"
    rows = []
    for k, p in dist.items():
        f = Fraction(p)
        pct = float(f) * 100
        rows.append(
            f"<tr><td>{esc(k)}</td><td>{esc(f)}</td><td>{pct:.1f}%</td>"
            "<td><div style='background:#2563eb;"
            f"height:9px;width:{max(pct, 0.5) * 1.2:.0f}px'></div></td></tr>"
        )
    head = f"<b>{esc(title)}</b><br>" if title else ""
    return _w(
        f"{head}<table><tr><th>{esc(label)}</th><th>P (exact)</th><th>%</th><th></th></tr>"
        f"{''.join(rows)}</table>"
    )


def own_html(obj: Any) -> Any:
    """The object's own ``_repr_html_`` — a rich preview's, or a ``Distribution`` subclass's that
    draws more than the plain table — else ``None`` (plain distributions are drawn here)."""
    meth = getattr(type(obj), "_repr_html_", None)
    if not callable(meth) or meth is Distribution._repr_html_:
        return None
    return obj._repr_html_


def preview_html(preview: Any, problem: Any = None, order: Any = None) -> str:
    """What the order being prepared would do: its refusal, the rule set's own HTML for it when
    the preview has one (a rich object, or a ``Distribution`` subclass such as a forecast with
    per-unit rows), else its exact distribution.

    Example:
        >>> class Forecast(Distribution):
        ...     def _repr_html_(self):
        ...         return "<table><tr><td>per-unit rows</td></tr></table>"
        >>> "per-unit rows" in preview_html(Forecast({0: 1}), order="blue: attack")
        True
        >>> "P (exact)" in preview_html(Distribution({0: 1}), order="blue: attack")
        True
    """
    if problem is not None:
        return refusal_html(problem, prefix="would be refused")
    if order is None:
        return ""
    if preview is None:
        return _w(
            f"<span class='ok'>✓ legal</span> <code>{esc(order)}</code> "
            "<span class='muted'>— no dice: the outcome is certain</span>"
        )
    head = _w(f"<span class='ok'>✓ legal</span> <code>{esc(order)}</code>")
    rich = own_html(preview)
    if rich is not None:
        return head + compact(rich())
    dist = distribution_of(preview)
    if dist is not None:
        return head + distribution_html(dist)
    return head + _w(f"<pre>{esc(preview)}</pre>")


def refusal_html(refusal: Any, prefix: str = "refused") -> str:
    """A refusal with its rule paragraph and code."""
    if refusal is None:
        return ""
    rule = getattr(refusal, "rule", "")
    code = getattr(refusal, "code", "")
    cite = f" <span class='rule'>rule {esc(rule)}</span>" if rule else ""
    tag = f" <span class='rule'>[{esc(code)}]</span>" if code else ""
    return _w(
        f"<span class='bad'><b>{esc(prefix)}:</b> "
        f"{esc(getattr(refusal, 'message', refusal))}</span>{cite}{tag}"
    )


def submission_html(sub: Any) -> str:
    """The last submission: the order, its rolls and the rule set's result, in words."""
    if sub is None:
        return ""
    from owsnb.display.results import plural

    dice = [e for e in sub.events if e.kind == "die"]
    rolls = "".join(
        f"<li>{esc(e.data.get('die'))} rolled <b>{esc(e.data.get('result'))}</b>: "
        f"{esc(plural(str(e.data.get('purpose', ''))))}"
        + (f" <span class='rule'>{esc(e.rule)}</span>" if e.rule else "")
        + "</li>"
        for e in dice
    )
    notes = "".join(
        f"<li>{esc(plural(str(e.data.get('text', ''))))}"
        + (f" <span class='rule'>{esc(e.rule)}</span>" if e.rule else "")
        + "</li>"
        for e in sub.events
        if e.kind == "note"
    )
    result = compact(sub.result._repr_html_()) if hasattr(sub.result, "_repr_html_") else ""
    return _w(
        f"<div class='owsnb-result'><span class='ok'>✓ done:</span> <code>{esc(sub.order)}</code>"
        + (f"<ul style='margin:2px 0'>{rolls}{notes}</ul>" if rolls or notes else "")
        + result
        + "</div>"
    )


def prompt_html(lines: Any) -> str:
    """What the side acting must answer now (the rule set's presentation says it: what is
    coming, as far as the side may know it), each line with its rule paragraph."""
    lines = list(lines or ())
    if not lines:
        return ""
    body = "<br>".join(
        f"<b>{esc(t)}</b>" + (f" <span class='rule'>rule {esc(r)}</span>" if r else "")
        for t, r in lines
    )
    return _w(f"<div class='owsnb-prompt'>{body}</div>")


def feed_html(view: Any, limit: int = 6) -> str:
    """The results feed: the latest exchanges this seat may know of, newest first, each line
    with its rule paragraph (:func:`owsnb.display.results.feed`)."""
    from owsnb.display.results import feed

    groups = feed(view, limit)
    if not groups:
        return ""
    items = "".join(
        "<li>"
        + "<br>".join(esc(t) + (f" <span class='rule'>{esc(r)}</span>" if r else "") for t, r in g)
        + "</li>"
        for g in groups
    )
    return _w(
        f"<div class='owsnb-feed'><b>What happened</b> <span class='muted'>(latest first)</span><ol>{items}</ol></div>"
    )


def clock_html(view: Any, actor: str, seat: str) -> str:
    """Turn, phase, step, who acts and who is still pending; *seat* says who sits here (as
    :func:`owsnb.widgets.app.seat_label` words it)."""
    c = view.clock
    acting = ", ".join(c.acting) or "nobody"
    pending = [a for a in c.active if a not in c.done]
    you = seat
    date = f" · {esc(c.date)}" if c.date else ""
    who = (
        f"<span class='ok'><b>{esc(actor)} acts</b></span>"
        if actor in c.acting
        else f"<span class='muted'>waiting for {esc(acting)}</span>"
    )
    return _w(
        f"<b>Turn {esc(c.turn)}</b>{date} · Phase {esc(c.phase)} {esc(c.phase_title)} · "
        f"step {esc(c.step)} "
        f"{esc(c.step_title)} <span class='muted'>({esc(c.mode)})</span><br>{who} · pending: "
        f"{esc(', '.join(pending) or 'nobody')} · <span class='muted'>seat: {esc(you)}</span>"
    )
