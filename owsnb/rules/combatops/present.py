"""How Combat Operations looks: terrain colours, counters (SVG), tooltips, reach, ranges, dashboard.

Everything here reads a side's view (or the truth) and returns plain data or strings; widgets
draw them. A face-down enemy counter shows what its back shows (2.1): the unit-type symbol and the
movement rate, nothing else.

>>> terrain_style("swamp")["fillColor"]
'#9cc5a1'
"""

from __future__ import annotations

import html
from typing import Any

from owsnb.kernel.state import UMPIRE, Unit
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.terrain import hexid

__all__ = [
    "terrain_style",
    "counter_svg",
    "unit_summary",
    "reach",
    "ranges",
    "dashboard",
    "observation_string",
    "SIDE_COLOURS",
]

TERRAIN = {
    "clear": {"fillColor": "#f4efd8", "fillOpacity": 0.55},
    "woods": {"fillColor": "#4f9a55", "fillOpacity": 0.55},
    "swamp": {"fillColor": "#9cc5a1", "fillOpacity": 0.6},
    "town": {"fillColor": "#8c8c8c", "fillOpacity": 0.65},
}
SIDE_COLOURS = {"blue": "#2f5ea8", "red": "#b33a2e"}


def terrain_style(terrain: str) -> dict[str, Any]:
    """Leaflet path style of a terrain key (clear, woods, swamp, town)."""
    return dict(TERRAIN.get(terrain, {"fillColor": "#dddddd", "fillOpacity": 0.5}))


def _face_down(unit: Unit) -> bool:
    return unit.id.startswith("unknown-") or ("atk" not in unit.data and not unit.data.get("dummy"))


def _symbol(utype: str, x: float, y: float, w: float, h: float) -> str:
    """NATO-style unit-type symbol inside the box (x, y, w, h), white strokes."""
    s = "stroke='#fff' stroke-width='1.4' fill='none'"
    cx, cy = x + w / 2, y + h / 2
    parts = [f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' {s}/>"]
    cross = f"<path d='M{x:.1f},{y:.1f}L{x + w:.1f},{y + h:.1f}M{x:.1f},{y + h:.1f}L{x + w:.1f},{y:.1f}' {s}/>"
    oval = f"<ellipse cx='{cx:.1f}' cy='{cy:.1f}' rx='{w * 0.32:.1f}' ry='{h * 0.28:.1f}' {s}/>"
    wheel = f"<path d='M{cx:.1f},{y:.1f}L{cx:.1f},{y + h:.1f}' {s}/>"
    dot = f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{h * 0.18:.1f}' fill='#fff'/>"
    bar = f"<path d='M{x + w * 0.1:.1f},{y:.1f}L{x + w * 0.1:.1f},{y + h:.1f}' {s}/>"
    base = utype.split("-")[-1]
    if base == "infantry":
        parts.append(cross)
        if utype == "armored-infantry":
            parts.append(oval)
        elif utype == "motorized-infantry":
            parts.append(wheel)
    elif utype == "armor":
        parts.append(oval)
    elif utype == "armored-cavalry":
        parts += [oval, f"<path d='M{x:.1f},{y + h:.1f}L{x + w:.1f},{y:.1f}' {s}/>"]
    elif base == "artillery":
        parts.append(dot)
        if utype == "mechanized-artillery":
            parts.append(oval)
        elif utype == "motorized-artillery":
            parts.append(wheel)
    elif base == "engineer":
        parts.append(
            f"<path d='M{x + w * 0.25:.1f},{cy + h * 0.2:.1f}L{x + w * 0.25:.1f},{cy - h * 0.2:.1f}"
            f"L{x + w * 0.75:.1f},{cy - h * 0.2:.1f}L{x + w * 0.75:.1f},{cy + h * 0.2:.1f}"
            f"M{cx:.1f},{cy - h * 0.2:.1f}L{cx:.1f},{cy + h * 0.2:.1f}' {s}/>"
        )
        if utype == "motorized-engineer":
            parts.append(bar)
    elif base == "hq":
        parts.append(
            f"<text x='{cx:.1f}' y='{cy + h * 0.18:.1f}' font-size='{h * 0.55:.1f}' text-anchor='middle' "
            f"fill='#fff' font-family='sans-serif'>HQ</text>"
        )
        if utype == "motorized-hq":
            parts.append(bar)
    elif utype == "anti-tank":
        parts.append(
            f"<path d='M{x:.1f},{y + h:.1f}L{cx:.1f},{y:.1f}L{x + w:.1f},{y + h:.1f}' {s}/>"
        )
    elif utype == "anti-aircraft":
        parts.append(
            f"<path d='M{x:.1f},{y + h:.1f}Q{cx:.1f},{y - h * 0.3:.1f} {x + w:.1f},{y + h:.1f}' {s}/>"
        )
    return "".join(parts)


def counter_svg(unit: Unit, view: Any, size: int = 48) -> str:
    """The counter as an SVG string: front (values) for own and revealed units, back (type and
    movement only) for face-down enemy counters. Every string is XML-escaped."""
    side = view.sides.get(unit.side) if view is not None and hasattr(view, "sides") else None
    colour = html.escape(getattr(side, "color", None) or SIDE_COLOURS.get(unit.side, "#777777"))
    s = float(size)
    ma = int(unit.data.get("ma", 1))
    utype = str(unit.data.get("utype", unit.kind))
    font = "font-family='sans-serif' fill='#fff'"
    body = [
        f"<rect x='1' y='1' width='{s - 2:.0f}' height='{s - 2:.0f}' rx='3' fill='{colour}' stroke='#111'/>"
    ]
    own_dummy = unit.data.get("dummy") and not _face_down(unit)
    if own_dummy:
        body.append(
            f"<text x='{s / 2:.1f}' y='{s * 0.62:.1f}' font-size='{s * 0.42:.1f}' text-anchor='middle' "
            f"font-weight='bold' {font}>D</text>"
        )
    else:
        body.append(_symbol(utype, s * 0.25, s * 0.30, s * 0.5, s * 0.32))
    body.append(
        f"<text x='{s - 4:.1f}' y='{s - 4:.1f}' font-size='{s * 0.22:.1f}' text-anchor='end' {font}>{ma}</text>"
    )
    if not _face_down(unit) and not own_dummy:
        a, d, _ = U.printed(unit)
        body.append(
            f"<text x='4' y='{s * 0.24:.1f}' font-size='{s * 0.22:.1f}' {font} font-weight='bold'>{a}</text>"
        )
        body.append(
            f"<text x='{s - 4:.1f}' y='{s * 0.24:.1f}' font-size='{s * 0.22:.1f}' text-anchor='end' {font} "
            f"font-weight='bold'>{d}</text>"
        )
        ech = "III" if unit.data.get("echelon") == "regiment" else "II"
        body.append(
            f"<text x='{s / 2:.1f}' y='{s * 0.26:.1f}' font-size='{s * 0.15:.1f}' text-anchor='middle' {font}>"
            f"{ech}</text>"
        )
        label = unit.id.split("-", 1)[-1]
        label = label if len(label) <= 8 else label[:7] + "…"
        body.append(
            f"<text x='4' y='{s - 4:.1f}' font-size='{s * 0.15:.1f}' {font}>{html.escape(label)}</text>"
        )
        if unit.data.get("art_class"):
            body.append(
                f"<text x='{s * 0.78:.1f}' y='{s * 0.52:.1f}' font-size='{s * 0.15:.1f}' {font}>"
                f"{html.escape(str(unit.data['art_class']))}</text>"
            )
        for i in range(U.hits(unit)):
            body.append(
                f"<circle cx='{s * 0.15 + i * s * 0.12:.1f}' cy='{s * 0.76:.1f}' r='{s * 0.05:.1f}' fill='#ffd23f' "
                "stroke='#111'/>"
            )
        if unit.data.get("oos"):
            body.append(
                f"<rect x='2.5' y='2.5' width='{s - 5:.0f}' height='{s - 5:.0f}' rx='2' fill='none' "
                "stroke='#ffd23f' stroke-dasharray='3,2' stroke-width='1.5'/>"
            )
    title = html.escape(
        f"{unit.id}: {utype} {U.counter_label(unit) if not _face_down(unit) else 'face down'}"
    )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}' viewBox='0 0 {size} {size}'>"
        f"<title>{title}</title>{''.join(body)}</svg>"
    )


def unit_summary(unit: Unit, view: Any) -> list[tuple[str, str]]:
    """(label, value) rows for a tooltip: what the viewer may know of the counter."""
    where = hexid(view.map, unit.hex) if unit.hex is not None else (unit.box or "off map")
    utype = str(unit.data.get("utype", unit.kind))
    if _face_down(unit):
        return [
            ("counter", "face down (2.1)"),
            ("type", utype),
            ("movement", str(unit.data.get("ma", "?"))),
            ("hex", where),
        ]
    rows = [("unit", unit.id), ("name", unit.name), ("type", utype), ("hex", where)]
    if unit.data.get("dummy"):
        rows.append(("dummy", f"yes (shows movement {unit.data.get('ma')})"))
        return rows
    a, d, m = U.printed(unit)
    rows += [
        ("attack-defense-movement", f"{a}-{d}-{m}"),
        (
            "organisation",
            f"regiment of {U.bns(unit)} battalions"
            if unit.data.get("echelon") == "regiment"
            else "battalion",
        ),
        (
            "steps",
            f"{unit.steps}/{unit.max_steps} ({U.hits(unit)} hit marker{'s' if U.hits(unit) != 1 else ''})",
        ),
    ]
    if unit.data.get("art_class"):
        rows.append(
            (
                "artillery",
                f"{unit.data['art_class']}, range {U.art_range(unit, view.tables.get('unit_types', U.TYPES))}",
            )
        )
    if getattr(view, "viewer", UMPIRE) in (unit.side, UMPIRE):
        rows.append(("supply", "OUT OF SUPPLY (7.2)" if unit.data.get("oos") else "in supply"))
        foe = [s for s in view.sides if s != unit.side]
        rows.append(
            ("seen by the enemy", "yes" if set(foe) & set(unit.seen_by) else "no (face down)")
        )
        if unit.data.get("task"):
            rows.append(
                ("engineering", f"{unit.data['task'].get('kind')} {unit.data['task'].get('edge')}")
            )
    if unit.markers:
        rows.append(("this half-turn", ", ".join(sorted(unit.markers))))
    if unit.data.get("placeholder"):
        rows.append(("note", "values are owsnb placeholders (lost from the counter sheet)"))
    return rows


def reach(view: Any, unit_id: str) -> dict[Any, float] | None:
    """Hexes the unit can move to now (hex -> MP), as its side knows the map (8.0, 10.0)."""
    from owsnb.rules.combatops.movement import reach as _reach
    from owsnb.rules.combatops.orders import exploit_filter, step_no

    u = view.units.get(unit_id)
    if (
        u is None
        or u.hex is None
        or _face_down(u)
        or (getattr(view, "viewer", UMPIRE) not in (u.side, UMPIRE))
    ):
        return None
    allowed, ends = exploit_filter(view, u) if step_no(view) == 5 else (None, None)
    cost, _ = _reach(view, u, allowed=allowed)
    return {h: float(c) for h, c in cost.items() if ends is None or h in ends}


def ranges(view: Any, unit_id: str) -> list[dict[str, Any]]:
    """Rings: artillery range (13.4) and the zone of control (5.0)."""
    u = view.units.get(unit_id)
    if u is None:
        return []
    out = [{"label": "zone of control", "kind": "zoc", "hexes": 1, "colour": "#555555"}]
    if not _face_down(u):
        r = U.art_range(u, view.tables.get("unit_types", U.TYPES))
        if r:
            out.insert(
                0,
                {
                    "label": f"{u.data.get('art_class')} artillery range",
                    "kind": "weapon",
                    "hexes": r,
                    "colour": "#d62728",
                },
            )
    return out


def dashboard(view: Any) -> dict[str, Any]:
    """The game's tracks as the viewer knows them: turn, cup, forces, reinforcements, victory."""
    from owsnb.rules.combatops.victory import battalion_count

    pub = view.public
    me = getattr(view, "viewer", UMPIRE)
    att, dfn = pub.get("attacker"), pub.get("defender")
    out: dict[str, Any] = {
        "title": "Combat Operations",
        "turn": view.clock.turn,
        "max_turns": pub.get("max_turns"),
        "half": {"A": f"{att} (attacker)", "D": f"{dfn} (defender)"}.get(
            str(view.clock.phase)[:1], str(view.clock.phase_title)
        ),
        "step": f"{view.clock.step} {view.clock.step_title}",
        "cup": {
            "remaining": list(pub.get("cup", ())),
            "pass": pub.get("pass", 1),
            "drawn": [dict(d) for d in pub.get("drawn", ())],
            "end_chit": f"{pub.get('end_chit')}{'+' if pub.get('length') == 'double' else ''}",
            "end_drawn": bool(pub.get("end")),
        },
        "bridges": {k: dict(v) for k, v in pub.get("bridges", {}).items()},
        "over": bool(pub.get("over")),
        "over_reason": pub.get("over_reason", ""),
        "forces": {},
    }
    for side in view.sides:
        on_map = sum(
            1 for u in view.units.values() if u.side == side and u.hex is not None and u.alive
        )
        row: dict[str, Any] = {"counters_on_map": on_map}
        if me in (side, UMPIRE):
            have, base = battalion_count(view, side)
            row["battalions"] = {"remaining": have, "baseline": base}
            row["out_of_supply"] = sorted(
                u.id
                for u in view.units.values()
                if u.side == side and u.hex is not None and u.data.get("oos")
            )
            priv = view.sides[side].private
            rein = priv.get("reinforcements", {})
            row["reinforcements"] = [
                {
                    "letter": k,
                    "pass": v.get("pass"),
                    "what": ", ".join(v.get("units", ())) or f"{v.get('replacement')} replacement",
                    "status": "lost"
                    if k in priv.get("lost", ())
                    else "received"
                    if k in priv.get("received", ())
                    else "pending",
                }
                for k, v in sorted(rein.items())
            ]
        out["forces"][side] = row
    vic = pub.get("victory", {})
    out["victory"] = {
        "type": vic.get("type"),
        "side": vic.get("side"),
        "towns": list(vic.get("towns", ())),
        "road": vic.get("road"),
        "division": vic.get("division"),
    }
    return out


def observation_string(view: Any) -> str:
    """One line: side, clock, and every counter it sees (ids as it may name them)."""
    units = ", ".join(
        f"{u.id}@{hexid(view.map, u.hex)}" for u in view.units.values() if u.hex is not None
    )
    return f"{getattr(view, 'viewer', UMPIRE)} | {view.clock} | {units}"
