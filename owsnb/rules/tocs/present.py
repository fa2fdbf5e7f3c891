"""Presentation hooks: plain data the widgets draw (no widget imports, no rule logic).

Counters are drawn here as small SVGs with NATO-style symbols (infantry cross, armour oval,
HQ staff, gun dot) and a state band; every string is XML-escaped.

>>> terrain_style("polder")["fillColor"]
'#d7ecc0'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from owsnb.kernel.hexgrid import reachable
from owsnb.kernel.presentation import Counter, Presentation, short_designation
from owsnb.rules.tocs import economy
from owsnb.rules.tocs.model import STATES, daypart, state_of
from owsnb.rules.tocs.terrain import step_cost

__all__ = [
    "PRESENTATION",
    "terrain_style",
    "counter_of",
    "symbol_of",
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


def symbol_of(unit: Any) -> str:
    """The APP-6 symbol key of a TOCS counter (:data:`owsnb.display.symbols.SYMBOLS`) from its
    class and mobility: infantry cross (mechanised: with the armour oval; parachute: with the
    canopy), armour oval for vehicles, gun dot for batteries, HQ staff."""
    c = unit.get("cls")
    if c == "hq":
        return "headquarters"
    if c in ("company", "hqcompany"):
        if unit.get("mobility") in ("mech", "armored"):
            return "mechanised-infantry"
        return "airborne-infantry" if unit.get("para") else "infantry"
    if c == "vehicle":
        return "armour"
    if c == "battery":
        return "artillery"
    if c == "aircraft":
        return "aircraft"
    return "unit"


def counter_of(unit: Any, view: Any) -> Counter:
    """A TOCS counter as data: side colour, unit symbol, attack-defense-MP, a state band (L157-
    L168: a thick border in the state's colour from Fatigued on), step boxes, crossed out when
    dead."""
    side = view.sides.get(unit.side) if view is not None else None
    st = state_of(unit)
    a, d, mp = unit.get("attack", 0), unit.get("defense", 0), unit.get("mp", 0)
    stats = f"{a}-{d}-{mp:g}" if isinstance(mp, (int, float)) else f"{a}-{d}"
    cls = unit.get("cls")
    return Counter(
        side=unit.side,
        fill=str(getattr(side, "color", "#999999")),
        designation=short_designation(unit),
        symbol=symbol_of(unit),
        echelon="company" if cls in ("company", "hqcompany", "battery") else "",
        factors=stats,
        steps=int(unit.steps),
        max_steps=int(unit.max_steps),
        border=STATE_COLOURS[st] if st else "",
        crossed=unit.box == "dead",
        title=f"{unit.name or unit.id} ({STATES[st]})",
    )


def unit_summary(unit: Any, view: Any) -> list[tuple[str, str]]:
    rows = [
        ("type", f"{unit.get('cls', '?')} ({unit.get('mobility', 'foot')})"),
        ("state", STATES[state_of(unit)]),
        ("steps", f"{unit.steps}/{unit.max_steps}"),
        (
            "attack-defense-MP",
            f"{unit.get('attack', 0)}-{unit.get('defense', 0)}-{unit.get('mp', 0)}",
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


PRESENTATION = Presentation(
    terrain_style=terrain_style,
    counter=counter_of,
    unit_summary=unit_summary,
    reach=reach,
    ranges=ranges,
    dashboard=dashboard,
    hex_overlay=hex_overlay,
)
"""What the table draws of a TOCS game (see the module docstring)."""
