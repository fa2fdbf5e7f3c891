"""How Combat Operations looks (``RULESET.presentation``): terrain colours, counters as data (drawn
by :mod:`owsnb.display.symbols`), tooltips, reach, ranges, dashboard.

Everything here reads a side's view (or the truth) and returns plain data or strings; widgets
draw them. A face-down enemy counter shows what its back shows (2.1): the unit-type symbol and the
movement rate, nothing else.

>>> terrain_style("swamp")["fillColor"]
'#9cc5a1'
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.presentation import Counter, Presentation, short_designation
from owsnb.kernel.state import UMPIRE, Unit
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.terrain import hexid

__all__ = [
    "PRESENTATION",
    "terrain_style",
    "counter_of",
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


_SYMBOLS = {
    "infantry": "infantry",
    "armored-infantry": "mechanised-infantry",
    "motorized-infantry": "motorised-infantry",
    "armor": "armour",
    "armored-cavalry": "armoured-reconnaissance",
    "artillery": "artillery",
    "mechanized-artillery": "self-propelled-artillery",
    "motorized-artillery": "motorised-artillery",
    "engineer": "engineer",
    "motorized-engineer": "motorised-engineer",
    "hq": "headquarters",
    "motorized-hq": "motorised-headquarters",
    "anti-tank": "anti-tank",
    "anti-aircraft": "air-defence",
}
"""Combat Operations unit types -> APP-6 symbol keys (:data:`owsnb.display.symbols.SYMBOLS`)."""


def counter_of(unit: Unit, view: Any) -> Counter:
    """The counter as data: front (attack, defense, echelon, movement, artillery class, hit
    markers, out of supply) for own and revealed units; the back — type and movement only (2.1)
    — for a face-down enemy counter; an own dummy shows ``D``."""
    side = view.sides.get(unit.side) if view is not None and hasattr(view, "sides") else None
    colour = getattr(side, "color", None) or SIDE_COLOURS.get(unit.side, "#777777")
    ma = int(unit.data.get("ma", 1))
    utype = str(unit.data.get("utype", unit.kind))
    symbol = _SYMBOLS.get(utype, "unit")
    if _face_down(unit):
        return Counter(unit.side, colour, "", symbol=symbol, factors=f"{ma}", title=utype)
    if unit.data.get("dummy"):
        return Counter(unit.side, colour, short_designation(unit), symbol="dummy", factors=f"{ma}")
    a, d, _ = U.printed(unit)
    art = str(unit.data.get("art_class") or "")
    return Counter(
        side=unit.side,
        fill=colour,
        designation=unit.id.split("-", 1)[-1],
        symbol=symbol,
        echelon="regiment" if unit.data.get("echelon") == "regiment" else "battalion",
        left=str(a),
        right=str(d),
        factors=f"{ma} {art}".strip() if art else str(ma),
        marks=("hit",) * U.hits(unit),
        border="#ffd23f" if unit.data.get("oos") else "",
        title=f"{unit.name or unit.id}: {utype} {U.counter_label(unit)}",
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


PRESENTATION = Presentation(
    terrain_style=terrain_style,
    counter=counter_of,
    unit_summary=unit_summary,
    reach=reach,
    ranges=ranges,
    dashboard=dashboard,
)
"""What the table draws of a Combat Operations game (see the module docstring)."""
