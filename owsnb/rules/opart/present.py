"""What the widgets draw for this rule set (``RULESET.presentation``): terrain colours, counters as
data (drawn by :mod:`owsnb.display.symbols`), tooltips, reach, ranges, the dashboard, and a static
picture of the battlefield for places without widgets.

Everything here is plain data, but for that picture's SVG text; every scenario-supplied string is
escaped.
"""

from __future__ import annotations

import html
import math
from typing import Any

from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.presentation import Counter, Presentation
from owsnb.kernel.state import StateLike
from owsnb.rules.opart import movement, victory
from owsnb.rules.opart.activation import TURNS_PER_DAY, day_and_turn
from owsnb.rules.opart.stands import (
    arm_label,
    die_sides,
    formation_of,
    formation_stands,
    formations,
    is_division,
    weapon_range,
)
from owsnb.rules.opart.tables import table
from owsnb.rules.opart.terrain import direction_names

__all__ = [
    "PRESENTATION",
    "terrain_style",
    "counter_of",
    "symbol_of",
    "unit_summary",
    "reach",
    "ranges",
    "dashboard",
    "board_svg",
]

_ARM_COLOURS = {"german": "#5d6b57", "soviet": "#8a3324", "axis_ally": "#7a6a3a"}


def terrain_style(terrain: str, state: StateLike | None = None) -> dict[str, Any]:
    """Leaflet path style of a terrain key (from the ``terrain`` table)."""
    row = table(state, "terrain").get(terrain)
    style = dict(row.get("style", {})) if row else {"fillColor": "#dddddd", "fillOpacity": 0.5}
    style.setdefault("color", "#8a8a7a")
    style.setdefault("weight", 1)
    return style


def symbol_of(unit: Any) -> str:
    """The APP-6 symbol key of a stand (:data:`owsnb.display.symbols.SYMBOLS`): its arm, with
    its mode of movement (motorised, self-propelled) and gun (rocket, anti-tank)."""
    arm, mode = str(unit.get("arm")), unit.get("mode")
    moving = mode in ("vehicles", "motorised", "self_propelled")
    if arm == "infantry":
        return "motorised-infantry" if moving else "infantry"
    if arm == "cavalry":
        return "reconnaissance"
    if arm == "afv":
        return "armour"
    if arm == "artillery":
        gun = unit.get("gun")
        if gun == "rocket":
            return "rocket-artillery"
        if gun == "anti_tank":
            return "anti-tank"
        if mode == "self_propelled":
            return "self-propelled-artillery"
        return "motorised-artillery" if moving else "artillery"
    if arm == "transport":
        return "transport"
    if arm in ("command", "hq"):
        return "headquarters"
    return "unit"


def counter_of(unit: Any, state: Any) -> Counter:
    """A stand's counter as data: side colour, arm symbol, label, combat value (§8), facing,
    morale on divisional command stands (§9), dots for "moved" and "fired" this turn."""
    side = state.sides.get(unit.side) if state is not None else None
    colour = getattr(side, "color", None) or _ARM_COLOURS.get(unit.get("nation"), "#777777")
    facing = unit.get("facing")
    deg = None
    if facing is not None and state is not None:
        base = 0.0 if state.map.offset.orientation == "pointy" else -30.0
        deg = base + 60.0 * int(facing)
    morale = ""
    fid = formation_of(unit)
    if unit.get("arm") == "command" and state is not None and is_division(state, fid):
        m = state.public.get("morale", {}).get(fid)
        morale = "" if m is None else str(int(m))
    afv = {"light": "L", "medium": "M", "heavy": "H", "very_heavy": "VH"}.get(unit.get("afv"), "")
    return Counter(
        side=unit.side,
        fill=str(colour),
        designation=str(unit.get("label") or unit.id),
        symbol=symbol_of(unit),
        left=morale,
        right=afv,
        factors=str(int(unit.steps)),
        marks=tuple(m for m in ("moved", "fired") if unit.has(m)),
        facing=deg,
        title=unit.name or unit.id,
    )


def unit_summary(unit: Any, state: StateLike) -> list[tuple[str, str]]:
    """(label, value) rows describing a stand for tooltips and detail panels."""
    fid = formation_of(unit)
    f = formations(state).get(fid, {})
    rows = [
        ("stand", unit.name or unit.id),
        ("formation", str(f.get("title", fid))),
        ("arm", arm_label(unit)),
        ("combat value", f"{unit.steps} of {unit.max_steps} (§8)"),
    ]
    if is_division(state, fid):
        m = state.public.get("morale", {}).get(fid)
        m0 = state.public.get("morale_start", {}).get(fid)
        rows.append(("division morale", f"{m} of {m0} (§9)"))
    mv = table(state, "movement")["allowance"].get(unit.get("mode"))
    rows.append(("move", f"{mv} hexes ({str(unit.get('mode')).replace('_', ' ')}) (§13)"))
    rng = weapon_range(state, unit)
    rows.append(("range", f"{rng} hexes (§14)" if rng else "does not initiate combat (R11)"))
    rows.append(("die", f"D{die_sides(state, unit)} (§11)"))
    if unit.get("facing") is not None:
        rows.append(
            ("facing", direction_names(state.map.offset.orientation)[int(unit.get("facing"))])
        )
    flags = [w for w, m in (("moved", "moved"), ("initiated combat", "fired")) if unit.has(m)]
    if flags:
        rows.append(("this turn", ", ".join(flags)))
    if unit.hex is None:
        rows.append(("where", str(unit.box or "off the battlefield")))
    return rows


def reach(state: StateLike, unit_id: str) -> dict[Hex, float] | None:
    """Hexes the stand could move to with one move from where it stands (hex -> hexes used)."""
    u = state.units.get(unit_id)
    if u is None or u.hex is None:
        return None
    return dict(movement.reach(state, u).cost)


def ranges(state: StateLike, unit_id: str) -> list[dict[str, Any]]:
    """Range rings: weapon range (§14) and, for command stands, the adjacent command bonus."""
    u = state.units.get(unit_id)
    if u is None:
        return []
    out = []
    rng = weapon_range(state, u)
    if rng:
        wc = u.get("gun") or u.get("arm")
        out.append(
            {
                "label": f"{str(wc).replace('_', '-')} weapons, {rng} hexes (§14)",
                "kind": "weapon",
                "hexes": rng,
                "colour": "#c0392b",
            }
        )
    if u.get("arm") in ("command", "hq"):
        out.append(
            {
                "label": "command bonus to adjacent stands (§14)",
                "kind": "command",
                "hexes": 1,
                "colour": "#2c7fb8",
            }
        )
    return out


def dashboard(state: StateLike) -> dict[str, Any]:
    """The battle at a glance, in the shapes the dashboard widget draws: figures (day, turn, the
    card face up), a morale track per division (§9), victory points by side (bars), and tables
    of formations and objectives.

    Everything here is public: the order of the cards still face down is not.
    """
    day, t = day_and_turn(state.clock.turn)
    fs = formations(state)
    card = state.public.get("card")
    morale = state.public.get("morale", {})
    start = state.public.get("morale_start", {})
    tracks = {
        f"{f.get('title', fid)}": {
            "kind": "track",
            "value": int(morale.get(fid, 0)),
            "max": int(start.get(fid, 0)) or 1,
            "rule": "9",
        }
        for fid, f in fs.items()
        if is_division(state, fid)
    }
    rows = []
    for fid, f in fs.items():
        stands = formation_stands(state, fid, on_map=False)
        rows.append(
            {
                "formation": f.get("title", fid),
                "side": state.sides[f["side"]].title if f["side"] in state.sides else f["side"],
                "morale": f"{morale.get(fid)} of {start.get(fid)}"
                if is_division(state, fid)
                else "none (assets)",
                "combat value": f"{sum(int(u.steps) for u in stands if u.hex is not None)} of "
                f"{sum(int(u.max_steps) for u in stands)}",
                "stands": f"{sum(1 for u in stands if u.hex is not None)} of {len(stands)}"
                + "".join(
                    f", {n} {what}"
                    for what, n in (
                        ("destroyed", sum(1 for u in stands if u.box == "destroyed")),
                        ("withdrawn", sum(1 for u in stands if u.box == "withdrawn")),
                    )
                    if n
                ),
                "this turn": "acting"
                if fid == card
                else ("done" if fid in state.public.get("turned", ()) else "waiting"),
            }
        )
    standing = victory.outcome(state)
    objectives = [
        {
            "objective": o["name"],
            "hex": o["hex"],
            "points": o["points"],
            "held by": state.sides[o["control"]].title if o["control"] in state.sides else "nobody",
        }
        for o in victory.objectives(state)
    ]
    return {
        "battle": {
            "day": day,
            "turn": f"{t} of {TURNS_PER_DAY}",
            "card": f"{fs.get(card, {}).get('title', card)}" if card else "none",
            "cards turned": f"{len(state.public.get('turned', ()))} of {state.public.get('pack', 0)}",
            "standing": standing["standing"],
        },
        "morale": tracks,
        "victory points": {s: sc["total"] for s, sc in standing["scores"].items()},
        "formations": rows,
        "objectives": objectives,
    }


def board_svg(state: StateLike, width: int = 720, *, reach_of: str | None = None) -> str:
    """A static picture of the battlefield: terrain, roads, objectives and counters.

    Args:
        state: a game state or a side's view.
        width: picture width in pixels.
        reach_of: a stand id whose reach to outline.
    """
    hexes = list(state.map.hexes)
    orient = state.map.offset.orientation
    pos = {}
    for h in hexes:
        q, r = h
        if orient == "pointy":
            pos[h] = (math.sqrt(3) * (q + r / 2), 1.5 * r)
        else:
            pos[h] = (1.5 * q, math.sqrt(3) * (r + q / 2))
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    k = width / (x1 - x0)
    height = int((y1 - y0) * k)

    def pt(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * k, (y - y0) * k

    corners = [
        (
            math.cos(math.radians(60 * i + (30 if orient == "pointy" else 0))),
            math.sin(math.radians(60 * i + (30 if orient == "pointy" else 0))),
        )
        for i in range(6)
    ]
    from owsnb.display.symbols import counter_svg  # the one counter drawer (lazily: a picture)

    reach_hexes = set(reach(state, reach_of) or {}) if reach_of else set()
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}' font-family='sans-serif'>"
    ]
    for h in hexes:
        info = state.map.info(h)
        st = terrain_style(info.terrain, state)
        cx, cy = pos[h]
        pts = " ".join(
            f"{pt(cx + a, cy + b)[0]:.1f},{pt(cx + a, cy + b)[1]:.1f}" for a, b in corners
        )
        stroke = "#1f6feb' stroke-width='2.5" if h in reach_hexes else "#9a9a8a' stroke-width='0.6"
        out.append(
            f"<polygon points='{pts}' fill='{html.escape(st.get('fillColor', '#ddd'))}' stroke='{stroke}'/>"
        )
        px, py = pt(cx, cy - 0.62)
        out.append(
            f"<text x='{px:.1f}' y='{py:.1f}' font-size='{k * 0.22:.1f}' text-anchor='middle' "
            f"fill='#666'>{html.escape(state.map.label(h))}</text>"
        )
    for key, feats in state.map.edges.items():
        if "road" in feats:
            (a, b) = tuple(key)
            pa, pb = pt(*pos[a]), pt(*pos[b])
            out.append(
                f"<line x1='{pa[0]:.1f}' y1='{pa[1]:.1f}' x2='{pb[0]:.1f}' y2='{pb[1]:.1f}' "
                f"stroke='#7a5230' stroke-width='{k * 0.12:.1f}' stroke-linecap='round'/>"
            )
    for o in victory.objectives(state):
        h = state.map.hex(o["hex"])
        px, py = pt(*pos[h])
        ctl = o["control"]
        colour = state.sides[ctl].color if ctl in state.sides else "#444"
        out.append(
            f"<circle cx='{px:.1f}' cy='{py:.1f}' r='{k * 0.78:.1f}' fill='none' stroke='{html.escape(colour)}' "
            f"stroke-width='2.5' stroke-dasharray='5,3'><title>{html.escape(o['name'])} "
            f"({o['points']} points)</title></circle>"
        )
    by_hex: dict[Hex, list[Any]] = {}
    for u in state.units.values():
        if u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u)
    c = int(k * 0.9)
    for h, us in by_hex.items():
        cx, cy = pt(*pos[h])
        for i, u in enumerate(us):
            ox = (i - (len(us) - 1) / 2) * c * 0.45
            svg = counter_svg(counter_of(u, state), None, (), c)
            out.append(
                f"<g transform='translate({cx - c / 2 + ox:.1f},{cy - c / 2 + i * c * 0.12:.1f})'>{svg}</g>"
            )
    out.append("</svg>")
    return "".join(out)


PRESENTATION = Presentation(
    terrain_style=terrain_style,
    counter=counter_of,
    unit_summary=unit_summary,
    reach=reach,
    ranges=ranges,
    dashboard=dashboard,
)
"""What the table draws of an Operational Art game (see the module docstring)."""
