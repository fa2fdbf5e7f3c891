"""HTML renderers for kernel objects. Every scenario-supplied string is escaped; every block
carries a ``<pre>`` text fallback for untrusted notebooks."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from owsnb.display.options import OPTIONS

__all__ = [
    "esc",
    "cell",
    "NONE",
    "table_html",
    "unit_html",
    "legal_orders_html",
    "view_html",
    "submission_html",
    "game_html",
    "wrap",
]

CSS = """<style>
.owsnb {font-family: system-ui, sans-serif; font-size: 13px; line-height: 1.35}
.owsnb table {border-collapse: collapse; margin: 2px 0}
.owsnb th, .owsnb td {padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top}
.owsnb th {background: #f3f4f6}
.owsnb .rule {color: #6b7280; font-size: 11px}
.owsnb .muted {color: #6b7280}
.owsnb-fallback {display: none}
</style>"""


NONE = "—"
"""What a missing value (``None``) reads as in a table: an em dash, never the word ``None``."""


def cell(x: Any) -> str:
    """The text of a table cell: ``str(x)``, an em dash for ``None``.

    >>> cell(None), cell(0), cell("halted")
    ('—', '0', 'halted')
    """
    return NONE if x is None else str(x)


def esc(x: Any) -> str:
    """HTML-escape anything's ``str`` (``None`` reads as an em dash: a blank cell, not a word).

    >>> esc("<b>"), esc(None)
    ('&lt;b&gt;', '—')
    """
    return html.escape(cell(x), quote=True)


def wrap(body: str, text: str) -> str:
    """Wrap *body* with the stylesheet and a hidden text fallback; honours ``display_style``."""
    if OPTIONS.get("display_style") == "text":
        return f"<pre>{esc(text)}</pre>"
    return f"{CSS}<div class='owsnb'>{body}<pre class='owsnb-fallback'>{esc(text)}</pre></div>"


def table_html(
    rows: Sequence[Mapping[str, Any]], caption: str = "", columns: Iterable[str] | None = None
) -> str:
    """A table from dict rows (at most ``OPTIONS['max_rows']`` shown)."""
    rows = list(rows)
    cols = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    limit = int(OPTIONS.get("max_rows", 40))
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(r.get(c, ''))}</td>" for c in cols) + "</tr>"
        for r in rows[:limit]
    )
    more = (
        f"<tr><td colspan='{len(cols)}' class='muted'>… {len(rows) - limit} more</td></tr>"
        if len(rows) > limit
        else ""
    )
    cap = f"<caption style='text-align:left'><b>{esc(caption)}</b></caption>" if caption else ""
    text = "\n".join(" | ".join(cell(r.get(c, "")) for c in cols) for r in rows[:limit])
    return wrap(f"<table>{cap}<tr>{head}</tr>{body}{more}</table>", f"{caption}\n{text}")


def unit_html(unit: Any) -> str:
    """A unit as a small card (rule sets may render richer counters)."""
    rows = [
        ("side", unit.side),
        ("type", unit.kind),
        ("at", unit.where),
        ("steps", f"{unit.steps}/{unit.max_steps}"),
    ]
    if unit.markers:
        rows.append(("markers", ", ".join(sorted(unit.markers))))
    for k, v in list(unit.data.items())[:12]:
        rows.append((k, v))
    body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
    title = f"{unit.id}" + (f" — {unit.name}" if unit.name else "")
    return wrap(
        f"<table><caption style='text-align:left'><b>{esc(title)}</b></caption>{body}</table>",
        repr(unit),
    )


def legal_orders_html(legal: Any) -> str:
    rows = []
    for spec in legal:
        params = " ".join(p.name if p.positional else f"{p.name}=…" for p in spec.type.params)
        cands = "; ".join(
            f"{k}: {', '.join(map(str, list(v)[:8]))}{' …' if len(v) > 8 else ''}"
            for k, v in spec.candidates.items()
        )
        rows.append(
            {
                "order": f"{spec.side}: {spec.verb} {params}".strip(),
                "rule": spec.type.rule,
                "what": spec.type.doc,
                "choices": cands,
            }
        )
    return table_html(
        rows,
        caption=f"Orders legal now for {legal.side}",
        columns=["order", "what", "choices", "rule"],
    )


def view_html(view: Any) -> str:
    rows = [
        {
            "unit": u.id,
            "side": u.side,
            "type": u.kind,
            "at": u.hex if u.hex is not None else (u.box or ""),
            "steps": f"{u.steps}/{u.max_steps}",
            "markers": ", ".join(sorted(u.markers)),
        }
        for u in view.units.values()
    ]
    return table_html(rows, caption=f"{view.side} view — {view.clock}")


def submission_html(sub: Any) -> str:
    rows = [{"#": e.seq, "event": str(e), "rule": e.rule} for e in sub.events if e.kind != "rng"]
    return table_html(rows, caption=f"{sub.order}")


def game_html(game: Any) -> str:
    s = game.state
    title = s.scenario.get("title") or s.scenario.get("id") or "game"
    facts = [
        ("rule set", f"{game.ruleset.title} ({game.ruleset.name})"),
        ("clock", str(s.clock)),
        ("map", f"{len(s.map)} hexes"),
        ("units", str(len(s.units))),
        ("events", str(game.seq)),
        ("state id", str(game.state_id)),
    ]
    if game.meta.get("store"):
        facts.append(("autosave", str(game.meta["store"])))
    body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts)
    return wrap(
        f"<table><caption style='text-align:left'><b>{esc(title)}</b></caption>{body}</table>",
        repr(game),
    )
