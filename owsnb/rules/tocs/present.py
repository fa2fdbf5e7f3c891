"""Presentation hooks: plain data the widgets draw (no widget imports, no rule logic).

Counters are drawn here as small SVGs with NATO-style symbols (infantry cross, armour oval,
HQ staff, gun dot) and a state band; every string is XML-escaped.

>>> terrain_style("polder")["fillColor"]
'#d7ecc0'
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

from owsnb.kernel.hexgrid import reachable
from owsnb.rules.tocs import economy
from owsnb.rules.tocs.model import STATES, daypart, state_of
from owsnb.rules.tocs.terrain import step_cost

__all__ = [
    "terrain_style",
    "counter_svg",
    "unit_summary",
    "reach",
    "ranges",
    "dashboard",
    "hex_overlay",
    "perimeter_geojson",
    "STATE_COLOURS",
]

_PALETTE = {
    "clear": "#f4efd8",
    "farmland": "#ece5b8",
    "heath": "#e6d9b0",
    "polder": "#d7ecc0",
    "village": "#c9b79c",
    "town": "#b39b82",
    "suburb": "#a89583",
    "city": "#8c7b6b",
    "woods": "#8cc084",
    "forest": "#4f9a5b",
    "hills": "#d6b77e",
    "water": "#8fc1e3",
}
STATE_COLOURS = ("#2e7d32", "#f9a825", "#ef6c00", "#c62828", "#6a1b9a", "#212121")


def terrain_style(terrain: str) -> dict[str, Any]:
    return {
        "fillColor": _PALETTE.get(terrain, "#dddddd"),
        "fillOpacity": 0.55 if terrain != "water" else 0.7,
    }


def _symbol(u: Any, w: int, h: int, x0: int, y0: int) -> str:
    c = u.get("cls")
    box = f"<rect x='{x0}' y='{y0}' width='{w}' height='{h}' fill='none' stroke='#111' stroke-width='1.2'/>"
    if c == "hq":
        return (
            box
            + f"<line x1='{x0}' y1='{y0 + h}' x2='{x0}' y2='{y0 + h + 6}' stroke='#111' stroke-width='1.5'/>"
        )
    if c in ("company", "hqcompany"):
        inner = (
            f"<line x1='{x0}' y1='{y0}' x2='{x0 + w}' y2='{y0 + h}' stroke='#111'/>"
            f"<line x1='{x0 + w}' y1='{y0}' x2='{x0}' y2='{y0 + h}' stroke='#111'/>"
        )
        if u.get("mobility") in ("mech", "armored"):
            inner += (
                f"<ellipse cx='{x0 + w / 2}' cy='{y0 + h / 2}' rx='{w / 3}' ry='{h / 4}' fill='none' "
                "stroke='#111'/>"
            )
        if u.get("para"):
            inner += f"<path d='M{x0 + w / 2 - 5},{y0 + h - 2} q2.5,-4 5,0 q2.5,-4 5,0' fill='none' stroke='#111'/>"
        return box + inner
    if c == "vehicle":
        return (
            box
            + f"<ellipse cx='{x0 + w / 2}' cy='{y0 + h / 2}' rx='{w / 3}' ry='{h / 4}' fill='none' stroke='#111'/>"
        )
    if c == "battery":
        return box + f"<circle cx='{x0 + w / 2}' cy='{y0 + h / 2}' r='3' fill='#111'/>"
    if c == "aircraft":
        return (
            f"<path d='M{x0},{y0 + h / 2} L{x0 + w},{y0 + h / 2} M{x0 + w / 2},{y0} L{x0 + w / 2},{y0 + h}' "
            "stroke='#111' stroke-width='2'/>"
        )
    return box


def counter_svg(unit: Any, view: Any, size: int = 48) -> str:
    """A TOCS counter: side colour, unit symbol, strengths, a state band (red band when
    Fatigued, marker colours for Disordered and worse, L157-L168) and step boxes."""
    side = view.sides.get(unit.side) if view is not None else None
    colour = html.escape(getattr(side, "color", "#999999"))
    st = state_of(unit)
    band = STATE_COLOURS[st]
    label = html.escape(unit.id if len(unit.id) <= 10 else unit.id[:9] + "…")
    a, d, mp = unit.get("attack", 0), unit.get("defence", 0), unit.get("mp", 0)
    stats = html.escape(f"{a}-{d}-{mp:g}" if isinstance(mp, (int, float)) else f"{a}-{d}")
    boxes = "".join(
        f"<rect x='{4 + i * 7}' y='{size - 8}' width='5' height='5' fill='{'#111' if i < unit.steps else 'none'}' "
        "stroke='#111'/>"
        for i in range(min(unit.max_steps, 6))
    )
    dead = unit.box == "dead"
    cross = (
        (
            f"<line x1='2' y1='2' x2='{size - 2}' y2='{size - 2}' stroke='#b00' stroke-width='3'/>"
            f"<line x1='{size - 2}' y1='2' x2='2' y2='{size - 2}' stroke='#b00' stroke-width='3'/>"
        )
        if dead
        else ""
    )
    title = html.escape(f"{unit.id} ({STATES[st]})")
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}' viewBox='0 0 {size} {size}'>"
        f"<title>{title}</title>"
        f"<rect x='1' y='1' width='{size - 2}' height='{size - 2}' rx='3' fill='{colour}' stroke='{band}' "
        f"stroke-width='{3 if st else 1}'/>"
        f"<text x='{size / 2}' y='10' font-size='8' text-anchor='middle' font-family='sans-serif' "
        f"fill='#111'>{label}</text>"
        f"{_symbol(unit, size // 2, size // 4, size // 4, 13)}"
        f"<text x='{size / 2}' y='{size - 11}' font-size='8' text-anchor='middle' font-family='sans-serif' "
        f"fill='#111'>{stats}</text>"
        f"{boxes}{cross}</svg>"
    )


def unit_summary(unit: Any, view: Any) -> list[tuple[str, str]]:
    rows = [
        ("type", f"{unit.get('cls', '?')} ({unit.get('mobility', 'foot')})"),
        ("state", STATES[state_of(unit)]),
        ("steps", f"{unit.steps}/{unit.max_steps}"),
        (
            "attack-defence-MP",
            f"{unit.get('attack', 0)}-{unit.get('defence', 0)}-{unit.get('mp', 0)}",
        ),
        ("ML / ELR", f"{unit.get('ml', '?')} / {unit.get('elr', 0)}"),
    ]
    if unit.get("parent"):
        rows.append(("reports to", str(unit.get("parent"))))
    if unit.get("act") == "open":
        rows.append(("AP / MP left", f"{unit.get('ap', 0)} / {unit.get('mp_left', 0):g}"))
    for flag, text in (("reserve", "in reserve"), ("ext_dir", "extended deployment")):
        if unit.get(flag) not in (None, False):
            rows.append(("status", text))
    if unit.get("in_loc") is False:
        rows.append(("LOC", "out of LOC (-1 AP)"))
    if unit.get("in_los") is False:
        rows.append(("LOS", "out of supply"))
    if unit.get("attack_hex"):
        rows.append(("attacking", f"{unit.get('attack_hex')} ({unit.get('attack_type')})"))
    return [(k, str(v)) for k, v in rows]


def reach(view: Any, unit_id: str) -> dict[Any, float] | None:
    """Hexes the unit can still reach this activation (as its side knows the map: terrain,
    weather and the EZOC it has been told of, where a mover stops)."""
    u = view.units.get(unit_id)
    if u is None or u.hex is None or u.side != view.side and view.side != "umpire":
        return None
    budget = (
        float(u.get("mp_left", 0)) + int(u.get("ap", 0)) * float(u.get("mp", 0))
        if u.get("act") == "open"
        else float(u.get("mp", 0)) * 3
    )
    known = (
        set(view.sides[u.side].private.get("ezoc_known", ())) if view.side != "umpire" else set()
    )
    r = reachable(
        u.hex,
        budget,
        cost=lambda a, b: step_cost(view, u, a, b),
        stops=lambda h: view.map.label(h) in known,
    )
    return dict(r.cost)


def ranges(view: Any, unit_id: str) -> list[dict[str, Any]]:
    u = view.units.get(unit_id)
    if u is None:
        return []
    out = []
    if u.get("cls") == "hq" and u.get("radius"):
        out.append(
            {
                "label": "command radius (LOC)",
                "kind": "command",
                "hexes": int(u.get("radius")),
                "colour": "#1565c0",
            }
        )
    from owsnb.rules.tocs.weather import observation_range

    obs = observation_range(
        view.tables["observation"],
        daypart(view),
        view.public.get("moon", "quarter"),
        view.public.get("weather", {}),
    )
    out.append({"label": "observation", "kind": "sensor", "hexes": obs, "colour": "#6d4c41"})
    return out


def dashboard(view: Any) -> dict[str, Any]:
    """Tracks for the side's dashboard: OP, turn-end track, weather, perimeter, own VP so far."""
    from owsnb.rules.tocs.victory import score

    pub = view.public
    box = economy.turn_end_box(view)
    out: dict[str, Any] = {
        "date": view.clock.date,
        "daypart": daypart(view),
        "impulse": pub.get("impulse", 0),
        "phasing": pub.get("phasing"),
        "initiative": pub.get("initiative"),
        "weather": dict(pub.get("weather", {})),
        "turn_end_box": box,
        "turn_end_chance": float(
            economy.turn_end_chance(box, False, view.options.get("pass_bonus", "toward-end"))
        ),
        "op_spent": dict(pub.get("op_spent", {})),
        "deficit_credit": dict(pub.get("deficit_credit", {})),
        "perimeter": {
            s: sum(1 for i in view.map.hexes.values() if i.facts.get("owner") == s)
            for s in view.sides
        },
        "battles": sorted(
            view.map.label(h) for h, i in view.map.hexes.items() if i.facts.get("battle")
        ),
        "engagements": sorted(
            view.map.label(h) for h, i in view.map.hexes.items() if i.facts.get("engaged")
        ),
    }
    sides = list(view.sides) if view.side == "umpire" else [view.side]
    for s in sides:
        priv = view.sides[s].private
        out.setdefault("sides", {})[s] = {
            "op_pool": priv.get("op_pool", 0),
            "earned_left": priv.get("earned_left", 0),
            "deficit_used": priv.get("deficit_used", 0),
            "ezoc_known": list(priv.get("ezoc_known", ())),
            "interrogations": [dict(x) for x in list(priv.get("interrogations", ()))[-5:]],
            "vp_so_far": score(view, s, view.units)["total"],
        }
    return out


def _perimeter(
    view: Any, sides_colour: dict[str, str] | None = None
) -> Iterator[tuple[Any, str, str, dict[str, Any]]]:
    """(hex, owner, marker, style) of every hex: each side's hexes in its colour, no man's land
    grey, Battle and Engagement markers outlined in red, Interdiction markers (10.26) dashed orange."""
    colours = sides_colour or {s: getattr(x, "color", "#888") for s, x in view.sides.items()}
    for h, info in view.map.hexes.items():
        own = info.facts.get("owner", "none")
        marker = (
            "engagement"
            if info.facts.get("engaged")
            else ("battle" if info.facts.get("battle") else "")
        )
        interdicted = bool(info.facts.get("interdicted"))
        if interdicted:
            marker = f"{marker} · interdicted" if marker else "interdicted"
        style = {
            "fillColor": colours.get(own, "#bbbbbb"),
            "fillOpacity": 0.25,
            "color": "#b71c1c"
            if marker and marker != "interdicted"
            else ("#e65100" if interdicted else colours.get(own, "#bbbbbb")),
            "weight": 3 if marker else 0.5,
        }
        if interdicted:
            style["dashArray"] = "4 3"
        yield h, own, marker, style


def hex_overlay(view: Any) -> dict[Any, dict[str, Any]]:
    """The shared perimeter as the map's hex overlay (the ``hex_overlay`` hook): each hex in its
    owner's colour, labelled with its owner and marker. Only public facts (ownership is known to
    both sides, L229).

    >>> import owsnb
    >>> g = owsnb.load("tocs-nijmegen", seed=2, save=False)
    >>> sorted({s["label"] for s in hex_overlay(g.view("allied")).values()})[:2]
    ['allied', 'german']
    """
    return {
        h: {**style, "label": own + (f" · {marker}" if marker else "")}
        for h, own, marker, style in _perimeter(view)
    }


def perimeter_geojson(view: Any, sides_colour: dict[str, str] | None = None) -> dict[str, Any]:
    """The shared perimeter (hex owners) as a GeoJSON FeatureCollection, one feature per hex
    (the live map draws :func:`hex_overlay`). Only public facts (L229)."""
    feats = []
    for h, own, marker, style in _perimeter(view, sides_colour):
        ring = [list(map(float, c)) for c in view.map.layout.corners(h)]
        ring.append(ring[0])
        feats.append(
            {
                "type": "Feature",
                "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": {
                    "hex": view.map.label(h),
                    "owner": own,
                    "marker": marker,
                    "style": style,
                },
            }
        )
    return {"type": "FeatureCollection", "features": feats}
