"""The presentation (``RULESET.presentation``): terrain palette, unit counters as data (drawn by
:mod:`owsnb.display.symbols`), tooltips, reach, ranges and the dashboard data the widgets draw.
Plain data and strings only.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.presentation import Counter, Presentation, short_designation
from owsnb.rules.opscale.board import in_network, mobile, move_reach, network_sources, players
from owsnb.rules.opscale.economy import force_total, supply_cost
from owsnb.rules.opscale.experience import stars
from owsnb.rules.opscale.units import card_of

__all__ = [
    "PRESENTATION",
    "TERRAIN",
    "terrain_style",
    "counter_of",
    "symbol_of",
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


def symbol_of(unit: Any) -> str:
    """The APP-6 symbol key of a unit card's category (:data:`owsnb.display.symbols.SYMBOLS`)."""
    cat = str(unit.data.get("category", ""))
    if cat.startswith("obstacle"):
        return "obstacle"
    return {
        "infantry": "infantry",
        "vehicle": "armour",
        "artillery": "artillery",
        "engineer": "engineer",
        "aircraft": "helicopter" if "helo" in unit.id.lower() else "aircraft",
        "naval": "surface-combatant",
        "transport": "transport",
        "command-post": "command-post",
        "forward-hq": "command-post",
        "bunker": "fortification",
        "pillbox": "fortification",
        "emplacement": "fortification",
    }.get(cat, "supply")


def counter_of(unit: Any, view: Any) -> Counter:
    """A unit card as data: side colour, symbol, id, Endurance left of its full value (OES.9;
    the damaged side — at or below Half Endurance — hatched amber), experience stars; a staged
    unit dashed, a destroyed one greyed and crossed out."""
    side = view.sides.get(unit.side) if view is not None else None
    colour = str(getattr(side, "color", "#888888"))
    half = int(unit.data.get("half_endurance", 0))
    damaged = unit.steps > 0 and unit.steps <= half
    destroyed = unit.steps <= 0 or unit.box == "destroyed"
    n = stars(unit.data.get("experience", ()))
    return Counter(
        side=unit.side,
        fill="#9ca3af" if destroyed else colour,
        designation=short_designation(unit),
        symbol=symbol_of(unit),
        right="★" * min(n, 2) if n else "",
        steps=int(max(unit.steps, 0)),
        max_steps=int(max(1, unit.max_steps)),
        marks=tuple(m for m in ("sortie", "set-up") if m in unit.markers),
        dashed=unit.box == "staged",
        damaged=damaged,
        crossed=destroyed,
        title=unit.name or unit.id,
    )


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


def unit_domain(view: Any, unit: Any) -> str | None:
    """Forces and losses by domain: ``ground``, ``air`` or ``naval`` (a card's category and
    domain stay on its face, so an enemy's closed card still gives it)."""
    from owsnb.rules.opscale.board import domain

    return domain(unit)


PRESENTATION = Presentation(
    terrain_styles=TERRAIN,
    counter=counter_of,
    unit_summary=unit_summary,
    reach=reach,
    ranges=ranges,
    dashboard=dashboard,
    unit_domain=unit_domain,
)
"""What the table draws of an operational-scale game (see the module docstring)."""
