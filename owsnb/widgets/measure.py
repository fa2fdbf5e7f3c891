"""Time and distance drawn on the map: labelled range rings with a legend, and the route of a
measurement from A to B with the time of each leg.

* **Rings** — the rule set's ``ranges(view, unit)`` as hex rings around the unit (or around the
  range's own ``centre``: an air mission's radius is counted from its fuel source). Ranges of the
  same radius share one ring. Each ring carries a numbered badge on the map; the legend (a control
  in the corner of the map) says what each number is, how far in hexes, km and nm, and whether it
  is a range per shot, per turn or per mission. A ring that would enclose the whole map is not
  drawn: the legend says it reaches past every edge.
* **Route** — while the time & distance panel is in sight (``Table.measuring``), a click on a
  hex measures the way from the selected unit (or what-if unit) to it: inside this turn's reach,
  the cheapest way through the reach (the rule set's costs); farther, the straight line of hexes,
  cut into legs of one turn each by the rule set's ``transit`` (the first way that gets there),
  each leg's end labelled with its turn and day.

Everything is computed from the seat's view (the rule set's hooks answer from it), so nothing here
shows a seat what it may not know.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> from owsnb.widgets.mapview import MapView
    >>> mv = MapView(tiny_game(), seat="blue")
    >>> mv.table.measuring = True
    >>> mv.table.pick(unit="B-1"); mv.table.pick(hex="0302")
    >>> [f["properties"]["kind"] for f in mv.overlays["route"].data["features"]]
    ['route']
    >>> mv.measure.route_text
    '0101 → 0302: 2 hexes, 20 km (10.8 nm) in a straight line'
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipyleaflet as L
import ipywidgets as W

from owsnb.kernel.geo import NM_KM
from owsnb.widgets import geometry as G

__all__ = ["Measure", "KIND_WORDS", "BADGES", "ring_groups", "route_hexes", "RANGE_COLOURS"]

RANGE_COLOURS: dict[str, str] = {
    "weapon": "#dc2626",
    "sensor": "#2563eb",
    "radius": "#059669",
    "command": "#7c3aed",
    "move": "#d97706",
    "umbrella": "#475569",
    "zoc": "#b45309",
}
"""Ring colours by range kind (a range's own ``colour`` wins)."""

KIND_WORDS: dict[str, str] = {
    "weapon": "weapon range, per shot",
    "sensor": "sensor range, to detect",
    "umbrella": "air-defence umbrella, covers units within",
    "radius": "combat radius, per mission (out and back)",
    "command": "command radius",
    "move": "movement, per turn",
    "zoc": "zone of control",
}
"""What a range of each kind measures, in words (the legend)."""

BADGES = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
"""The numbers of the rings on the map and in the panel's table of ranges."""

_LABEL_CSS = (
    "<style>.leaflet-marker-icon:has(> .owsnb-measure-label){background:none;border:none;"
    "pointer-events:none}.owsnb-measure-label{pointer-events:none;display:inline-block;"
    "font:600 13px system-ui,sans-serif;color:#111827;padding:1px 6px;border-radius:4px;"
    "background:rgba(255,255,255,.94);white-space:nowrap;border:3px solid #111827;"
    "transform:translate(-50%,-50%)}"
    ".owsnb-legend-box{font:12.5px system-ui,sans-serif;line-height:1.35;background:rgba(255,"
    "255,255,.94);padding:4px 8px;border-radius:5px;max-width:360px;max-height:190px;"
    "overflow:auto;box-shadow:0 1px 4px #0003}.owsnb-legend-box .muted{color:#4b5563}"
    ".owsnb-legend-box .badge{border-left:5px solid;padding-left:3px;font-weight:700}</style>"
)


def _dist(hexes: float, km: float) -> str:
    """``6 hexes (120 km, 65 nm)``."""
    n = f"{hexes:g} hex{'es' if hexes != 1 else ''}"
    if not km:
        return n
    return f"{n} ({hexes * km:,.0f} km, {hexes * km / NM_KM:,.0f} nm)"


def ring_groups(view: Any, unit: Any, ranges: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rings to draw for *unit*'s *ranges*: one per (centre, radius), each with its ranges
    (``items``: ``(badge number, range)``), colour, and whether it encloses the whole map
    (``beyond``). Ranges of 0 hexes (own hex only) are listed, not drawn."""
    groups: dict[tuple[Any, int], dict[str, Any]] = {}
    for n, rng in enumerate(ranges, 1):  # numbered as the panel's table lists them
        r = int(rng.get("hexes", 0) or 0)
        centre = unit.hex
        if rng.get("centre"):
            try:
                centre = view.map.hex(rng["centre"])
            except Exception:  # noqa: BLE001 - an unknown label: the unit's own hex
                centre = unit.hex
        if centre is None:
            continue
        key = (centre, r)
        if key not in groups:
            far = max((centre.distance(h) for h in view.map.hexes), default=0)
            colour = rng.get("colour") or RANGE_COLOURS.get(str(rng.get("kind", "")), "#6b7280")
            groups[key] = {
                "centre": centre,
                "hexes": r,
                "colour": colour,
                "items": [],
                "beyond": r > far,
            }
        groups[key]["items"].append((n, rng))
    return sorted(groups.values(), key=lambda g: (g["hexes"] <= 0, g["hexes"], g["items"][0][0]))


def route_hexes(start: Any, end: Any, reach: Any) -> tuple[list[Any], bool]:
    """The hexes from *start* to *end*: through the reach's costs when *end* is in reach (the
    cheapest way this turn: ``True``), else the straight line (``False``)."""
    if isinstance(reach, Mapping) and end in reach and start in reach:
        path = [end]
        cur = end
        for _ in range(len(reach) + 1):
            if cur == start:
                return path[::-1], True
            prev = min(
                (n for n in cur.neighbours() if n in reach and reach[n] < reach[cur]),
                key=lambda n: (reach[n], n),
                default=None,
            )
            if prev is None:
                break
            path.append(prev)
            cur = prev
    return start.line(end), False


def _label_point(geo: Any, h: Any, up: float = 0.42) -> list[float]:
    """``[lat, lon]`` a little north of *h*'s centre (by *up* of a hex): a label stands on the
    hex's upper edge, never on its centre, where a counter would stand."""
    lon, lat = geo.centre(h)
    if geo.projection == "simple":
        lat += up * geo.size_km
    else:
        lat += up * geo.size_km / 111.2
    d = G.digits(geo)
    return [round(lat, d), round(lon, d)]


def _feature(geometry: dict, style: Mapping[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": {**props, "style": dict(style)}, "geometry": geometry}


class Measure:
    """The map's time-and-distance layers (see the module docstring): the rings go into the
    map's ``ranges`` overlay, the route into its ``route`` overlay, the badges and leg labels
    into one layer of labels, and the legend into a control in the map's corner.

    Args:
        mapview: the :class:`~owsnb.widgets.mapview.MapView` to draw on.
    """

    def __init__(self, mapview: Any):
        self.mv = mapview
        self.labels = L.LayerGroup(name="measure labels")
        self.legend = W.HTML()
        self.legend_control = L.WidgetControl(widget=self.legend, position="bottomleft")
        self._ring_lines: list[str] = []
        self._route_lines: list[str] = []
        self._ring_marks: list[tuple[list[float], str, str]] = []
        self._route_marks: list[tuple[list[float], str, str]] = []
        self._shown_marks: list[tuple[list[float], str, str]] = []
        self.route_text = ""

    @property
    def table(self) -> Any:
        return self.mv.table

    # -- rings ---------------------------------------------------------------------------------
    def rings(self, view: Any, unit: Any) -> list[dict[str, Any]]:
        """Features of *unit*'s range rings (for the map's ``ranges`` overlay); the badges and
        the legend follow."""
        rs = self.table.presentation
        km = view.map.km_per_hex() or 0.0
        groups = ring_groups(view, unit, list(rs.ranges(view, unit.id) or ()))
        feats: list[dict[str, Any]] = []
        marks: list[tuple[list[float], str, str]] = []
        lines: list[str] = []
        geo = self.mv.geo
        for i, g in enumerate(groups):
            badges = "".join(BADGES[(n - 1) % len(BADGES)] for n, _ in g["items"])
            r = g["hexes"]
            kinds = dict.fromkeys(
                str(rng.get("per") or KIND_WORDS.get(str(rng.get("kind", "")), rng.get("kind")))
                for _, rng in g["items"]
            )
            where = (
                ""
                if g["centre"] == unit.hex
                else f", from {html.escape(view.map.label(g['centre']))}"
            )
            if r <= 0:
                far = "own hex only"
            elif g["beyond"]:
                far = f"{_dist(r, km)} — past every edge of this map"
            else:
                far = _dist(r, km)
            names = "; ".join(str(rng.get("label", "")) for _, rng in g["items"])
            lines.append(
                f"<div><span class='badge' style='border-color:{html.escape(g['colour'])}'>"
                f"{badges}</span> <b>{far}</b>{where}: {html.escape(names)} "
                f"<span class='muted'>({html.escape('; '.join(kinds))})</span></div>"
            )
            if r <= 0 or g["beyond"]:
                continue
            ring = G.dissolve(geo, g["centre"].ring(r))
            ring["coordinates"] = [[poly[0]] for poly in ring["coordinates"]]  # outer edge only
            props = {
                "label": " / ".join(str(rng.get("label", "")) for _, rng in g["items"]),
                "kind": str(g["items"][0][1].get("kind", "")),
                "hexes": r,
            }
            casing = {"color": "#111827", "weight": 5, "opacity": 0.3, "fill": False}
            feats.append(_feature(ring, {**casing, "className": "owsnb-range-casing"}, **props))
            feats.append(
                _feature(
                    ring,
                    {
                        "color": g["colour"],
                        "weight": 3,
                        "fill": False,
                        "opacity": 1.0,
                        "dashArray": "1 0" if i % 2 == 0 else "9 5",
                        "className": "owsnb-range",
                    },
                    **props,
                )
            )
            # the badge on the ring's northernmost hex on the map (else its northernmost)
            on_map = [h for h in g["centre"].ring(r) if h in view.map.hexes]
            spot = max(on_map or g["centre"].ring(r), key=lambda h: (geo.centre(h)[1], h))
            text = f"{badges} {r} hex" + (f" · {r * km:,.0f} km" if km else "")
            marks.append((_label_point(geo, spot), text, g["colour"]))
        self._ring_lines = lines
        self._ring_marks = marks
        return feats

    def clear_rings(self) -> None:
        self._ring_lines, self._ring_marks = [], []

    # -- route ---------------------------------------------------------------------------------
    def draw_route(self, change: Any = None) -> None:
        """Draw (or clear) the measured route from the focused unit to the hex picked."""
        t = self.table
        feats: list[dict[str, Any]] = []
        marks: list[tuple[list[float], str, str]] = []
        lines: list[str] = []
        self.route_text = ""
        view, uid = t.focus
        u = view.units.get(uid) if uid else None
        if getattr(t, "measuring", False) and u is not None and u.hex is not None and t.hex:
            to = view.map.hex(t.hex)
            if to != u.hex and to in view.map.hexes:
                feats, marks, lines = self._route(view, u, to)
        self._route_lines, self._route_marks = lines, marks
        self.mv._set("route", feats)
        self.refresh()

    def _route(self, view: Any, u: Any, to: Any) -> tuple[list, list, list]:
        rs = self.table.presentation
        geo = self.mv.geo
        km = view.map.km_per_hex() or 0.0
        reach = rs.reach(view, u.id)
        path, in_reach = route_hexes(u.hex, to, reach)
        rows: list[Mapping[str, Any]] = []
        transit = getattr(rs, "transit", None)
        if callable(transit) and not in_reach:
            try:
                rows = list(transit(view, u.id, to) or ())
            except Exception:  # noqa: BLE001 - no transit: no legs
                rows = []
        way = next((r for r in rows if r.get("feasible", True) and r.get("turns")), None)
        d = u.hex.distance(to)
        straight = geo.distance_km(u.hex, to) if km else 0.0
        a, b = view.map.label(u.hex), view.map.label(to)
        text = f"{a} → {b}: {_dist(d, km)}"
        if straight:
            text = f"{a} → {b}: {d} hexes, {straight:,.0f} km ({straight / NM_KM:,.1f} nm)"
        legs: list[tuple[int, str]] = []  # (index in path, label)
        if in_reach:
            cost = reach.get(to) if isinstance(reach, Mapping) else None
            unit_of_cost = getattr(reach, "unit_of_cost", "")
            spent = f" for {cost:g} {unit_of_cost}".rstrip() if cost is not None else ""
            text += f" — in reach this turn{spent}"
            legs.append((len(path) - 1, "this turn"))
        elif way is not None:
            turns = int(way["turns"])
            per_day = (float(way["days"]) / turns) if way.get("days") else None
            text += f" in a straight line; by {way.get('mode', 'its way')}: {turns} turn"
            text += "s" if turns != 1 else ""
            if way.get("days") is not None:
                text += f" ({float(way['days']):g} days)"
            # one leg a turn, spread evenly along the line drawn (the way itself may be longer)
            last = len(path) - 1
            for k in range(1, turns + 1):
                i = round(k * last / turns)
                day = f" · day {k * per_day:g}" if per_day else ""
                if legs and legs[-1][0] == i:  # more turns than hexes: one label says the last
                    legs[-1] = (i, f"end of turn {k}{day}")
                else:
                    legs.append((i, f"end of turn {k}{day}"))
            if way.get("overheads"):
                text += f"; {way['overheads']}"
        else:
            text += " in a straight line"
            if rows:
                text += " — " + "; ".join(
                    f"{r.get('mode')}: {r.get('notes') or 'no way'}" for r in rows[:2]
                )
        self.route_text = text
        coords = [[*reversed(G.point(geo, h))] for h in path]
        style = {
            "color": "#111827",
            "weight": 3.5,
            "opacity": 0.9,
            "dashArray": "1 0" if in_reach else "10 6",
            "className": "owsnb-route",
        }
        feats = [
            _feature({"type": "LineString", "coordinates": coords}, style, kind="route", hexes=d)
        ]
        for i, label in legs:
            h = path[i]
            feats.append(
                _feature(
                    G.hex_outline(geo, h),
                    {"color": "#111827", "weight": 2, "fill": False, "className": "owsnb-leg"},
                    kind="leg",
                    label=label,
                )
            )
        marks = [(_label_point(geo, path[i]), lab, "#111827") for i, lab in legs]
        return feats, marks, [f"<div style='margin-top:2px'><b>⟶ {html.escape(text)}</b></div>"]

    # -- labels and legend ---------------------------------------------------------------------
    def refresh(self) -> None:
        """Put the badges, leg labels and legend of the rings and route drawn now on the map."""
        marks = self._ring_marks + self._route_marks
        if marks != self._shown_marks:
            old = list(self.labels.layers)
            new = []
            for loc, text, colour in marks:
                icon = L.DivIcon(
                    html=(
                        "<div class='owsnb-measure-label' style='border-color:"
                        f"{html.escape(colour)}'>{html.escape(text)}</div>"
                    ),
                    icon_size=[0, 0],
                    icon_anchor=[0, 0],
                )
                new.append(L.Marker(location=loc, icon=icon, draggable=False, keyboard=False))
            self.labels.layers = tuple(new)
            for m in old:
                icon = m.icon
                m.close()
                if icon is not None:
                    icon.close()
            self._shown_marks = marks
        lines = self._ring_lines + self._route_lines
        value = f"{_LABEL_CSS}<div class='owsnb-legend-box'>{''.join(lines)}</div>" if lines else ""
        if self.legend.value != value:
            self.legend.value = value
        m = self.mv.map
        if lines and self.legend_control not in m.controls:
            m.add(self.legend_control)
        elif not lines and self.legend_control in m.controls:
            m.remove(self.legend_control)

    def widgets(self) -> list[Any]:
        """What the measure made (closed with the map)."""
        return [self.legend_control, self.labels]
