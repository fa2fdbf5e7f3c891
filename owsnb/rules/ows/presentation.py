"""Presentation hooks of the OWS rule set: counters in OWS style (attack dice in the ladder colours
with range superscripts, grey and red shields, step boxes, a NATO frame), terrain styles, unit
summaries, range rings and the per-side dashboard. Plain data and SVG text; no widget imports.

>>> terrain_style("deep-sea")["fillColor"]
'#2b5d8c'
"""

from __future__ import annotations

import html
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.rules.ows.common import hand, space
from owsnb.rules.ows.dice import COLOURS, TEXT_COLOURS
from owsnb.rules.ows.planning import FIELDS, HAND_KEYS, orders_doc
from owsnb.rules.ows.units import counter

__all__ = ["terrain_style", "counter_svg", "unit_summary", "ranges", "dashboard", "nato_symbol"]

TERRAIN = {
    "deep-sea": {"fillColor": "#2b5d8c", "fillOpacity": 0.6},  # 2.1.8 dark blue
    "sea": {"fillColor": "#2b5d8c", "fillOpacity": 0.6},
    "littoral": {"fillColor": "#8ec5e8", "fillOpacity": 0.6},  # 2.1.9 light blue
    "land": {"fillColor": "#efe6c8", "fillOpacity": 0.5},
    "clear": {"fillColor": "#efe6c8", "fillOpacity": 0.5},
    "urban": {"fillColor": "#9e9e9e", "fillOpacity": 0.6},
    "forest": {"fillColor": "#5f9e5f", "fillOpacity": 0.55},
    "hills": {"fillColor": "#c8a165", "fillOpacity": 0.55},
    "mountain": {"fillColor": "#8d6e4c", "fillOpacity": 0.6},
    "marsh": {"fillColor": "#8fbc8f", "fillOpacity": 0.5},
    "desert": {"fillColor": "#f3e0a8", "fillOpacity": 0.5},
}
SIDE_FILL = {"blue": "#9cc3e6", "red": "#f2a6a0"}


def terrain_style(terrain: str) -> dict[str, Any]:
    """Leaflet path style of an OWS terrain key (deep sea, littoral, land, urban...)."""
    return dict(TERRAIN.get(terrain, {"fillColor": "#d9d9d9", "fillOpacity": 0.5}))


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def nato_symbol(category: str, x: float, y: float, w: float, h: float, colour: str = "#000") -> str:
    """A small NATO/APP-6 style frame with the function glyph for an OWS category (drawn here)."""
    frame = f"<rect x='{x}' y='{y}' width='{w}' height='{h}' fill='none' stroke='{colour}' stroke-width='1'/>"
    cx, cy = x + w / 2, y + h / 2
    g = ""
    if category in ("ground", "sof"):
        g = f"<path d='M{x},{y} L{x + w},{y + h} M{x + w},{y} L{x},{y + h}' stroke='{colour}' stroke-width='1'/>"
    elif category == "artillery":
        g = f"<circle cx='{cx}' cy='{cy}' r='{h / 5}' fill='{colour}'/>"
    elif category == "air-defence":
        g = f"<path d='M{x},{y + h} Q{cx},{y} {x + w},{y + h}' fill='none' stroke='{colour}'/>"
    elif category == "hq":
        g = f"<line x1='{x}' y1='{y + h}' x2='{x}' y2='{y + h + 6}' stroke='{colour}'/>"
    elif category in ("naval", "submarine"):
        frame = f"<ellipse cx='{cx}' cy='{cy}' rx='{w / 2}' ry='{h / 2}' fill='none' stroke='{colour}'/>"
        if category == "submarine":
            g = f"<line x1='{x}' y1='{cy}' x2='{x + w}' y2='{cy}' stroke='{colour}'/>"
    elif category in ("air-mission", "air-base"):
        frame = (
            f"<path d='M{x},{y + h} L{x},{cy} Q{cx},{y - h / 3} {x + w},{cy} L{x + w},{y + h}' fill='none' "
            f"stroke='{colour}'/>"
        )
        g = f"<text x='{cx}' y='{y + h - 2}' font-size='{h * 0.6:.0f}' text-anchor='middle' fill='{colour}'>✈</text>"
    elif category == "asp":
        g = f"<text x='{cx}' y='{y + h - 2}' font-size='{h * 0.55:.0f}' text-anchor='middle' fill='{colour}'>ASP</text>"
    return frame + g


def counter_svg(unit: Any, view: Any, size: int = 48) -> str:
    """The unit's counter in OWS style (SVG text; every string escaped)."""
    c = counter(unit)
    s = float(size)
    fill = SIDE_FILL.get(unit.side, "#dddddd")
    if unit.kind == "unknown":
        return (
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}' viewBox='0 0 {s} {s}'>"
            f"<rect x='1' y='1' width='{s - 2}' height='{s - 2}' rx='3' fill='{fill}' stroke='#222'/>"
            f"<text x='{s / 2}' y='{s / 2 + 4}' font-size='{s / 5:.0f}' text-anchor='middle' "
            f"font-family='sans-serif'>Unknown</text></svg>"
        )
    parts = [
        f"<rect x='1' y='1' width='{s - 2}' height='{s - 2}' rx='{3 if c.category != 'air-mission' else s / 2}' "
        f"fill='{fill}' stroke='#222'/>"
    ]
    name = unit.name or unit.id
    parts.append(
        f"<text x='{s / 2}' y='{s * 0.2:.1f}' font-size='{s * 0.16:.1f}' text-anchor='middle' "
        f"font-family='sans-serif' font-weight='bold'>{_e(name[:11])}</text>"
    )
    parts.append(nato_symbol(c.category, s * 0.34, s * 0.26, s * 0.32, s * 0.2))
    # attack dice: a die symbol per group, coloured by the ladder, range superscript, count
    x = s * 0.06
    for a in c.attacks[:4]:
        col = COLOURS[a.die]
        txt = TEXT_COLOURS[a.die]
        d = s * 0.17
        op = "0.35" if a.left == 0 else "1"
        flags = "".join(sorted(f for f in a.flags if f.isupper()))[:4]
        parts.append(
            f"<g opacity='{op}'><rect x='{x:.1f}' y='{s * 0.52:.1f}' width='{d:.1f}' height='{d:.1f}' rx='2' "
            f"fill='{col}' stroke='#222' stroke-width='0.6'/><text x='{x + d / 2:.1f}' y='{s * 0.52 + d * 0.72:.1f}' "
            f"font-size='{d * 0.55:.1f}' text-anchor='middle' fill='{txt}' font-family='sans-serif'>"
            f"{a.die[1:]}</text><text x='{x + d:.1f}' y='{s * 0.53:.1f}' font-size='{d * 0.45:.1f}' "
            f"font-family='sans-serif'>{a.range}</text>"
            f"<text x='{x + d / 2:.1f}' y='{s * 0.52 + d * 1.45:.1f}' font-size='{d * 0.45:.1f}' text-anchor='middle' "
            f"font-family='sans-serif'>{a.left}/{a.count}{flags}</text></g>"
        )
        x += d * 1.45

    # shields: red (enduring), grey (consumable)
    def shield(cx: float, val: Any, colour: str) -> str:
        w = s * 0.16
        return (
            f"<path d='M{cx - w / 2:.1f},{s * 0.78:.1f} h{w:.1f} v{w * 0.6:.1f} q0,{w * 0.5:.1f} "
            f"{-w / 2:.1f},{w * 0.7:.1f} "
            f"q{-w / 2:.1f},{-w * 0.2:.1f} {-w / 2:.1f},{-w * 0.7:.1f} z' fill='{colour}' stroke='#222' "
            "stroke-width='0.5'/>"
            f"<text x='{cx:.1f}' y='{s * 0.78 + w * 0.75:.1f}' font-size='{w * 0.6:.1f}' text-anchor='middle' "
            "fill='#fff' "
            f"font-family='sans-serif'>{_e(val)}</text>"
        )

    parts.append(shield(s * 0.14, c.red_shield, "#c62828"))
    gx = s * 0.32
    for g in c.shields[:2]:
        parts.append(shield(gx, f"{g.value}", "#757575"))
        parts.append(
            f"<text x='{gx + s * 0.09:.1f}' y='{s * 0.8:.1f}' font-size='{s * 0.09:.1f}' "
            f"font-family='sans-serif'>{g.left}</text>"
        )
        gx += s * 0.2
    # signature
    if c.signature is not None:
        sym = "◉" if c.low_signature else "✦"
        parts.append(
            f"<text x='{s * 0.94:.1f}' y='{s * 0.2:.1f}' font-size='{s * 0.13:.1f}' text-anchor='end' "
            f"font-family='sans-serif'>{sym}{_e(c.signature)}</text>"
        )
    # step boxes
    for i in range(min(unit.max_steps, 6)):
        bx = s * 0.94 - (i + 1) * s * 0.1
        crossed = i >= unit.steps
        parts.append(
            f"<rect x='{bx:.1f}' y='{s * 0.82:.1f}' width='{s * 0.08:.1f}' height='{s * 0.08:.1f}' fill='#fff' "
            "stroke='#222' stroke-width='0.5'/>"
        )
        if crossed:
            parts.append(
                f"<path d='M{bx:.1f},{s * 0.82:.1f} l{s * 0.08:.1f},{s * 0.08:.1f}' stroke='#c00'/>"
            )
    for k, m in enumerate(sorted(unit.markers)[:3]):
        parts.append(
            f"<text x='{s * 0.96:.1f}' y='{s * (0.34 + 0.1 * k):.1f}' font-size='{s * 0.08:.1f}' text-anchor='end' "
            f"fill='#900' font-family='sans-serif'>{_e(m[:10])}</text>"
        )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}' viewBox='0 0 {s} {s}'>"
        + "".join(parts)
        + "</svg>"
    )


def unit_summary(unit: Any, view: Any) -> list[tuple[str, str]]:
    """(label, value) rows for a tooltip."""
    c = counter(unit)
    rows = [
        ("type", f"{unit.kind} ({c.category})"),
        ("steps", f"{unit.steps}/{unit.max_steps}"),
        ("red shield", str(c.red_shield)),
    ]
    if c.signature is not None:
        rows.append(("signature", f"{c.signature} ({'local' if c.low_signature else 'theater'})"))
    for a in c.attacks:
        flags = " ".join(sorted(a.flags))
        rows.append(
            (
                f"attack {a.id}",
                f"{a.left}/{a.count} x {a.die.upper()} range {a.range} vs "
                f"{'/'.join(a.targets)} {flags}".rstrip(),
            )
        )
    for g in c.shields:
        rows.append(
            (
                f"grey {g.id}",
                f"{g.left}/{g.count} x {g.value}{' BMD' if g.bmd else ''} range {g.range}",
            )
        )
    if c.mission:
        rows.append(("mission", c.mission))
    if unit.markers:
        rows.append(("markers", ", ".join(sorted(unit.markers))))
    return rows


def ranges(view: Any, unit_id: str) -> list[dict[str, Any]]:
    """Range rings: weapons, sensors/AEW, air-defence umbrella, combat radius 1x/2x/3x (6.5.3)."""
    try:
        u = view.units[unit_id]
    except KeyError:
        return []
    c = counter(u)
    out: list[dict[str, Any]] = []
    for a in c.attacks:
        out.append(
            {
                "label": f"{a.die.upper()} {'/'.join(a.targets)} ({a.id})",
                "kind": "weapon",
                "hexes": a.range,
                "colour": COLOURS[a.die],
            }
        )
    for g in c.shields:
        if g.range:
            out.append(
                {
                    "label": f"air-defence umbrella, grey {g.value}",
                    "kind": "umbrella",
                    "hexes": g.range,
                    "colour": "#757575",
                }
            )
    for sn in c.d.get("sensors", ()):
        out.append(
            {
                "label": f"{sn['kind']} sensor {sn['die'].upper()}",
                "kind": "sensor",
                "hexes": sn["range"],
                "colour": "#6a1b9a",
            }
        )
    if c.combat_radius:
        for k, what in (
            (1, "combat radius"),
            (2, "2x: CAP/CAS/Interdiction with tanker"),
            (3, "3x: Strike with tanker"),
        ):
            out.append(
                {"label": what, "kind": "radius", "hexes": c.combat_radius * k, "colour": "#444"}
            )
    if c.command_radius:
        out.append(
            {
                "label": "command radius",
                "kind": "command",
                "hexes": c.command_radius,
                "colour": "#000",
            }
        )
    return out


def space_tracks(view: Any, side: str) -> dict[str, Any]:
    """A side's space capability dashboard as its tracks (2.1.3): C2 constellation (7.5.1), PNT
    (7.5.2), ISR capability die and ISR pawns (7.6); the marker on the value now, the start of
    the scenario ringed (the 7.C reset returns to it, 11.3). Public, like the paper dashboard."""
    from owsnb.rules.ows.dice import LADDER

    now = space(view, side)
    start = {**now, **thaw(view.sides[side].public.get("space_default") or {})}
    c2_top = max(int(now["c2"]), int(start["c2"]), 4)
    pawns_top = max(int(now["isr_pawns"]), int(start["isr_pawns"]), 3)
    return {
        "kind": "tracks",
        "title": f"Space dashboard of {view.sides[side].title} (2.1.3)",
        "rows": [
            {
                "label": "C2",
                "steps": list(range(c2_top + 1)),
                "value": int(now["c2"]),
                "start": int(start["c2"]),
                "rule": "7.5.1: long-range strike actions",
            },
            {
                "label": "PNT",
                "steps": ["normal", "disrupted"],
                "value": now["pnt"],
                "start": start["pnt"],
                "rule": "7.5.2",
            },
            {
                "label": "ISR die",
                "steps": list(LADDER[:5]),
                "value": now["isr_die"],
                "start": start["isr_die"],
                "rule": "7.6: theater detection",
            },
            {
                "label": "ISR pawns",
                "steps": list(range(pawns_top + 1)),
                "value": int(now["isr_pawns"]),
                "start": int(start["isr_pawns"]),
                "rule": "7.6",
            },
        ],
        "note": "marker: now; dashed: at the start (the 7.C reset returns to it, 11.3)",
    }


def dashboard(view: Any) -> dict[str, Any]:
    """Per side: space dashboard tracks (C2/PNT/ISR, 2.1.3), munitions left of full load, forces
    by category — another side's only as far as this view has seen its units."""
    out: dict[str, Any] = {}
    for side in view.sides:
        units = [u for u in view.units.values() if u.side == side]
        doms: dict[str, int] = {}
        salvos = 0
        salvos_max = 0
        for u in units:
            if "category" not in u.data:  # a face-down counter (8.4.1): nothing to count
                continue
            c = counter(u)
            if u.alive and u.hex is not None:
                doms[c.category] = doms.get(c.category, 0) + u.steps
            for a in c.attacks:
                if not a.air_to_air:
                    salvos += a.left
                    salvos_max += a.count
        seen = view.side in ("umpire", side)
        munitions = {"kind": "track", "value": salvos, "max": salvos_max, "rule": "9.5"}
        out[side] = {
            "space": space_tracks(view, side),
            (
                "salvos left of a full load" if seen else "salvos left (of the units seen)"
            ): munitions,
            ("forces (steps by category)" if seen else "forces seen (steps by category)"): doms
            or "none seen",
            "boxes": {
                b: sum(1 for u in units if u.box == b) for b in ("regeneration", "attrition")
            },
        }
        played = thaw(view.sides[side].public.get("cards_played") or [])
        if played:
            out[side]["decision cards played"] = list(played)
        own = view.sides[side].private
        if own:  # the viewer's own side (the umpire sees every side's): orders (4.3) and hand (4.2)
            doc = orders_doc(view, side)
            if doc:
                out[side]["orders"] = {FIELDS[k]: v for k, v in doc.items()}
            held = [c for k in HAND_KEYS for c in (hand(view, side).get(k) or [])]
            if held:
                out[side]["decision cards in hand"] = held
    return out
