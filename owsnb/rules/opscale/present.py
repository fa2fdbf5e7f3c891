"""Presentation hooks: terrain palette, unit counters (own SVG), tooltips, reach, ranges and the
dashboard data the widgets draw. Plain data and strings only; every text is XML-escaped.
"""

from __future__ import annotations

import html
from typing import Any

from owsnb.rules.opscale.board import in_network, mobile, move_reach, network_sources, players
from owsnb.rules.opscale.economy import force_total, supply_cost
from owsnb.rules.opscale.experience import stars
from owsnb.rules.opscale.units import card_of

__all__ = [
    "TERRAIN",
    "terrain_style",
    "counter_svg",
    "unit_summary",
    "reach",
    "ranges",
    "dashboard",
    "dashboard_data",
]

TERRAIN: dict[str, dict[str, Any]] = {
    "sea": {"fillColor": "#5b9bd5", "fillOpacity": 0.6},
    "coastal": {"fillColor": "#e8dcaa", "fillOpacity": 0.55},
    "coastal-poor-lz": {"fillColor": "#e8a0a0", "fillOpacity": 0.6, "color": "#c0392b"},
    "plains": {"fillColor": "#eef2d0", "fillOpacity": 0.45},
    "river": {"fillColor": "#a9d3ef", "fillOpacity": 0.6},
    "swamp": {"fillColor": "#86b38a", "fillOpacity": 0.55},
    "mountain": {"fillColor": "#b08a5e", "fillOpacity": 0.55},
    "impassable-mountain": {"fillColor": "#5e4630", "fillOpacity": 0.65},
    "large-city": {"fillColor": "#7d7d7d", "fillOpacity": 0.6},
    "small-city": {"fillColor": "#ababab", "fillOpacity": 0.55},
}


def terrain_style(terrain: str) -> dict[str, Any]:
    """Leaflet fill style of a terrain key (TI)."""
    return dict(TERRAIN.get(terrain, {"fillColor": "#d9d9d9", "fillOpacity": 0.5}))


def _glyph(cat: str, x: float, y: float, w: float, h: float) -> str:
    """A small NATO-like symbol in a frame (x, y: top-left)."""
    frame = f"<rect x='{x}' y='{y}' width='{w}' height='{h}' fill='none' stroke='#fff' stroke-width='1.2'/>"
    cx, cy = x + w / 2, y + h / 2
    if cat == "infantry":
        body = f"<path d='M{x} {y} L{x + w} {y + h} M{x + w} {y} L{x} {y + h}' stroke='#fff' stroke-width='1.2'/>"
    elif cat == "vehicle":
        body = (
            f"<ellipse cx='{cx}' cy='{cy}' rx='{w * 0.32}' ry='{h * 0.28}' fill='none' stroke='#fff' "
            "stroke-width='1.2'/>"
        )
    elif cat == "artillery":
        body = f"<circle cx='{cx}' cy='{cy}' r='{h * 0.18}' fill='#fff'/>"
    elif cat == "engineer":
        body = (
            f"<path d='M{x + w * 0.2} {cy + 3} L{x + w * 0.2} {cy - 3} L{x + w * 0.8} {cy - 3} "
            f"L{x + w * 0.8} {cy + 3} "
            f"M{cx} {cy - 3} L{cx} {cy + 3}' fill='none' stroke='#fff' stroke-width='1.2'/>"
        )
    elif cat == "aircraft":
        frame = f"<ellipse cx='{cx}' cy='{cy}' rx='{w / 2}' ry='{h / 2}' fill='none' stroke='#fff' stroke-width='1.2'/>"
        body = (
            f"<path d='M{x + w * 0.2} {cy} L{x + w * 0.8} {cy} M{cx} {y + h * 0.2} L{cx} {y + h * 0.8}' "
            "stroke='#fff' stroke-width='1.4'/>"
        )
    elif cat == "naval":
        frame = f"<circle cx='{cx}' cy='{cy}' r='{h / 2}' fill='none' stroke='#fff' stroke-width='1.2'/>"
        body = (
            f"<path d='M{cx} {y + 2} L{cx} {y + h - 2} M{x + w * 0.3} {cy + 2} Q{cx} {y + h} {x + w * 0.7} {cy + 2}' "
            "fill='none' stroke='#fff'/>"
        )
    elif cat == "transport":
        body = (
            f"<circle cx='{x + w * 0.3}' cy='{cy + 2}' r='2' fill='#fff'/><circle "
            f"cx='{x + w * 0.7}' cy='{cy + 2}' r='2' fill='#fff'/>"
            f"<path d='M{x + 2} {cy - 2} L{x + w - 2} {cy - 2}' stroke='#fff'/>"
        )
    elif cat in ("command-post", "forward-hq"):
        frame = ""
        body = (
            f"<path d='M{x + 3} {y + h} L{x + 3} {y}' stroke='#fff' stroke-width='1.4'/>"
            f"<rect x='{x + 3}' y='{y}' width='{w - 6}' height='{h * 0.55}' fill='#fff'/>"
        )
        if cat == "forward-hq":
            body += (
                f"<text x='{x + w / 2 + 1}' y='{y + h * 0.45}' font-size='6' text-anchor='middle' "
                "fill='#333'>F</text>"
            )
    elif cat in ("bunker", "pillbox", "emplacement"):
        frame = ""
        body = f"<path d='M{x} {y + h} L{cx} {y} L{x + w} {y + h} Z' fill='none' stroke='#fff' stroke-width='1.4'/>"
    elif cat.startswith("obstacle"):
        frame = ""
        body = "".join(
            f"<path d='M{x + i * w / 3} {cy - 3} l{w / 3} 6 M{x + i * w / 3} {cy + 3} l{w / 3} "
            "-6' stroke='#fff'/>"
            for i in range(3)
        )
    else:
        body = (
            f"<text x='{cx}' y='{cy + 3}' font-size='8' text-anchor='middle' fill='#fff'>S</text>"
        )
    return frame + body


def counter_svg(unit: Any, view: Any, size: int = 48) -> str:
    """The unit as a small two-sided card: side colour, symbol, id, an Endurance bar with the
    Half Endurance tick (OES.9), experience stars; the damaged side is striped amber, a staged
    unit dashed, a destroyed one greyed."""
    side = view.sides.get(unit.side) if view is not None else None
    colour = html.escape(getattr(side, "color", "#888888"))
    s = size
    cat = str(unit.data.get("category", ""))
    max_e = max(1, unit.max_steps)
    half = int(unit.data.get("half_endurance", 0))
    frac = max(0.0, min(1.0, unit.steps / max_e))
    damaged = unit.steps > 0 and unit.steps <= half
    destroyed = unit.steps <= 0 or unit.box == "destroyed"
    fill = "#9ca3af" if destroyed else colour
    dash = " stroke-dasharray='4 2'" if unit.box == "staged" else ""
    label = html.escape(unit.id if len(unit.id) <= 10 else unit.id[:9] + "…")
    bar_w = s - 10
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{s}' height='{s}' viewBox='0 0 {s} {s}'>",
        "<defs><pattern id='dmg' width='6' height='6' patternUnits='userSpaceOnUse' "
        "patternTransform='rotate(45)'>"
        "<rect width='3' height='6' fill='#f59e0b' opacity='0.55'/></pattern></defs>",
        f"<rect x='1' y='1' width='{s - 2}' height='{s - 2}' rx='4' fill='{fill}' "
        f"stroke='#222'{dash}/>",
    ]
    if damaged:
        parts.append(
            f"<rect x='1' y='1' width='{s - 2}' height='{s - 2}' rx='4' fill='url(#dmg)'/>"
        )
    parts.append(_glyph(cat, s * 0.28, 5, s * 0.44, s * 0.28))
    parts.append(
        f"<text x='{s / 2}' y='{s * 0.62}' font-size='{max(7, s // 6)}' text-anchor='middle' "
        "fill='#fff' "
        f"font-family='sans-serif' font-weight='bold'>{label}</text>"
    )
    parts.append(
        f"<rect x='5' y='{s - 11}' width='{bar_w}' height='5' fill='#00000055'/>"
        f"<rect x='5' y='{s - 11}' width='{bar_w * frac:.1f}' height='5' "
        f"fill='{'#f59e0b' if damaged else '#fff'}'/>"
        f"<rect x='{5 + bar_w * half / max_e:.1f}' y='{s - 13}' width='1' height='9' fill='#111'/>"
    )
    n = stars(unit.data.get("experience", ()))
    if n:
        parts.append(
            f"<text x='{s - 4}' y='{s * 0.3}' font-size='{max(6, s // 8)}' text-anchor='end' "
            f"fill='#fde047'>{'★' * min(n, 4)}</text>"
        )
    if "sortie" in unit.markers:
        parts.append(f"<text x='4' y='{s * 0.3}' font-size='{max(6, s // 8)}' fill='#fff'>✈</text>")
    if "set-up" in unit.markers:
        parts.append(f"<text x='4' y='{s * 0.3}' font-size='{max(6, s // 8)}' fill='#fff'>▲</text>")
    if destroyed:
        parts.append(
            f"<path d='M4 4 L{s - 4} {s - 4} M{s - 4} 4 L4 {s - 4}' stroke='#7f1d1d' "
            "stroke-width='2'/>"
        )
    parts.append("</svg>")
    return "".join(parts)


def unit_summary(unit: Any, view: Any) -> list[tuple[str, str]]:
    """Tooltip rows: the Unit Card as the viewer may see it."""
    d = unit.data
    rows = [("card", f"{unit.name or unit.kind} ({d.get('category', '?')})")]
    if "cost" in d:
        rows.append(("cost", str(d.get("cost"))))
    half = d.get("half_endurance")
    state = (
        "destroyed"
        if unit.steps <= 0
        else ("damaged side" if half is not None and unit.steps <= int(half) else "full side")
    )
    rows.append(("endurance", f"{unit.steps}/{unit.max_steps} (half {half}) — {state}"))
    if "defense" in d:
        card = card_of(unit)
        rows.append(("defense", str(card.profile(card.damaged_at(unit.steps)).defense)))
        for w in card.profile(card.damaged_at(unit.steps)).weapons:
            rows.append((w.slot, w.label()))
    if d.get("crew"):
        rows.append(("crew", f"{d.get('crew_now', d.get('crew'))}/{d.get('crew')}"))
    if d.get("experience"):
        rows.append(("experience", ", ".join(d["experience"]) + f" ({stars(d['experience'])}★)"))
    if d.get("move"):
        rows.append(("move", f"{float(d['move']):g}"))
    status = sorted(unit.markers - {"damaged"})
    if unit.box:
        status.insert(0, unit.box)
    if d.get("captured"):
        status.append("captured" + ("" if d.get("used") else ", unused"))
    if status:
        rows.append(("status", ", ".join(status)))
    if view is not None and unit.side == getattr(view, "side", None) and unit.hex is not None:
        try:
            rows.append(
                ("command network", "inside" if in_network(view, unit) else "BEYOND (CN.1-CN.3)")
            )
        except KeyError:
            pass
    return [(k, str(v)) for k, v in rows]


def reach(view: Any, unit_id: str) -> dict[Any, float] | None:
    """Hexes an own unit can reach in this Movement Phase (hex -> movement cost)."""
    u = view.units.get(unit_id)
    if u is None or u.hex is None or not mobile(u) or "moved" in u.markers or "set-up" in u.markers:
        return None
    if getattr(view, "side", None) not in (u.side, "umpire"):
        return None
    r = move_reach(view, u)
    return dict(r.cost)


def ranges(view: Any, unit_id: str) -> list[dict[str, Any]]:
    """Weapon ranges, sortie range and command radius of a unit."""
    u = view.units.get(unit_id)
    if u is None or not u.data:
        return []
    out = []
    card = card_of(u)
    for w in card.profile(card.damaged_at(u.steps)).weapons:
        out.append(
            {
                "label": w.label(),
                "kind": "weapon",
                "hexes": w.range,
                "colour": "#dc2626" if w.slot == "primary" else "#f97316",
            }
        )
    if u.data.get("sortie_range"):
        out.append(
            {
                "label": "sortie range",
                "kind": "radius",
                "hexes": int(u.data["sortie_range"]),
                "colour": "#2563eb",
            }
        )
    if u.data.get("category") in ("command-post", "forward-hq"):
        r = [r for h, r in network_sources(view, u.side) if h == u.hex]
        if r:
            out.append(
                {"label": "Command Network", "kind": "command", "hexes": r[0], "colour": "#16a34a"}
            )
    return out


def dashboard_data(view: Any) -> dict[str, Any]:
    """Per player: score, Force Total and supply due (GS), hand size, deficit; own currency, hand
    and staged units; the open engagement; the turn schedule (TS). Plain numbers and lists."""
    from owsnb.rules.opscale.economy import is_deployment_turn, is_production_turn

    sides = {}
    for s in players(view):
        st = view.sides[s]
        total, _ = force_total(view.units.values(), s)
        row: dict[str, Any] = {
            "score": int(st.public.get("score", 0)),
            "force_total": total,
            "supply_due": supply_cost(
                total, rounding=view.options.get("supply_rounding", "half-up")
            ),
            "hand_size": int(st.public.get("hand_size", 0)),
            "deficit": int(st.public.get("deficit", 0)),
        }
        if "currency" in st.private:
            row["currency"] = int(st.private["currency"])
            row["staged"] = [u.id for u in view.units.values() if u.side == s and u.box == "staged"]
            row["hand"] = list(st.private.get("hand", ()))
        sides[s] = row
    turn = view.clock.turn
    eng = view.public.get("engagement")
    return {
        "sides": sides,
        "engagement": None
        if not eng
        else {
            k: eng[k]
            for k in ("n", "hex", "attacker", "defender", "stage", "first", "rounds")
            if k in eng
        },
        "schedule": {
            "turn": turn,
            "income": turn > 1,
            "production": is_production_turn(turn),
            "deployment": is_deployment_turn(turn),
        },
    }


def dashboard(view: Any) -> dict[str, Any]:
    """The dashboard entries in the widgets' format (bars, tracks, lines of figures)."""
    data = dashboard_data(view)
    sides = data["sides"]
    colours = {s: getattr(view.sides.get(s), "color", None) for s in sides}
    out: dict[str, Any] = {
        "Score (SC)": {
            "kind": "bars",
            "values": {s: r["score"] for s, r in sides.items()},
            "rule": "SC",
            "colours": colours,
        },
        "Force Total (GS.1)": {
            "kind": "bars",
            "values": {s: r["force_total"] for s, r in sides.items()},
            "rule": "GS.1",
            "colours": colours,
        },
        "Supply due (10% of Force Total, GS.1)": " · ".join(
            f"{s} {r['supply_due']}" for s, r in sides.items()
        ),
        "Command Cards in hand": " · ".join(f"{s} {r['hand_size']}" for s, r in sides.items()),
    }
    deficits = {s: r["deficit"] for s, r in sides.items() if r["deficit"]}
    if deficits:
        out["Supply deficit (R3)"] = " · ".join(f"{s} {v}" for s, v in deficits.items())
    for s, r in sides.items():
        if "currency" in r:
            out[f"{s} currency"] = r["currency"]
            out[f"{s} staged units"] = ", ".join(r["staged"]) or "none"
            out[f"{s} hand"] = ", ".join(r["hand"]) or "empty"
    e = data["engagement"]
    out["Engagement"] = (
        "none open"
        if e is None
        else (
            f"#{e['n']} at {e['hex']}: {e['attacker']} attacks {e['defender']} — "
            + (
                "defender declaring (OES.2)"
                if e["stage"] == "retaliate"
                else f"{e['first']} fires first, {e['rounds']} round(s) fought"
            )
        )
    )
    sch = data["schedule"]
    out["Turn schedule (TS)"] = (
        f"turn {sch['turn']}: "
        + ", ".join(
            x
            for x, on in (
                ("income", sch["income"]),
                ("production", sch["production"]),
                ("deployment", sch["deployment"]),
            )
            if on
        )
        + "; production on turns 1, 6, 11…, deployment on 5, 10, 15…"
    )
    return out
