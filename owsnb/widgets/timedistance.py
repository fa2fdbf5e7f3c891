"""TimeDistancePanel: how far a unit can go and reach, and how long it takes to get somewhere.

Pick a unit (click its counter, or choose it in the list) and see, at this map's scale:

* its **reach** this turn (the rule set's ``reach`` hook): how many hexes, how far, drawn on the
  map;
* its **ranges** (``ranges`` hook: weapon, sensor, command, combat radius 1x/2x/3x...) in hexes,
  km and nm, drawn as rings;
* to the last hex clicked: the distance in hexes, km and nm, whether it is in reach this turn and
  at what cost, and — when the rule set offers the ``transit(view, unit_id, to_hex)`` hook —
  turns and days by each mode of travel.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> td = TimeDistancePanel(tiny_game(), seat="blue")
    >>> td.table.pick(hex="0101"); td.table.pick(hex="0302")
    >>> td.rows()["distance"]
    {'hexes': 2, 'km': 20.0, 'nm': 10.8}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from owsnb.display.html import esc
from owsnb.kernel.geo import NM_KM
from owsnb.widgets.controls import checkbox
from owsnb.widgets.panel import Panel
from owsnb.widgets.render import style_widget
from owsnb.widgets.table import Table

__all__ = ["TimeDistancePanel"]


def _num(v: Any) -> Any:
    return f"{v:.4g}" if isinstance(v, float) else v


def _table(rows: list[Mapping[str, Any]], cols: list[str]) -> str:
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(_num(r.get(c, '')))}</td>" for c in cols) + "</tr>"
        for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


class TimeDistancePanel(Panel):
    """Reach, ranges and transit of the selected unit (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is used when *source* is a Game.
    """

    def __init__(self, source: Any, seat: str | None = None):
        self.table = Table.of(source, seat)
        self.unit = W.Dropdown(
            description="unit", layout=W.Layout(width="98%"), style={"description_width": "60px"}
        )
        self.unit.observe(self._on_unit_choice, "value")
        self.show_reach = checkbox("reach on map", self.table.show_reach)
        self.show_ranges = checkbox("ranges on map", self.table.show_ranges)
        self._links = [
            W.link((self.show_reach, "value"), (self.table, "show_reach")),
            W.link((self.show_ranges, "value"), (self.table, "show_ranges")),
        ]
        self.out = W.HTML()
        self._quiet = False
        super().__init__(
            [style_widget(), self.unit, W.HBox([self.show_reach, self.show_ranges]), self.out],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-timedistance")
        self.table.hold(self)
        self.watch(self._redraw, ["revision", "unit", "hex"])
        self._redraw()

    def _on_unit_choice(self, change: dict) -> None:
        if self._quiet or not change["new"]:
            return
        self.table.pick(unit=change["new"])

    def rows(self) -> dict[str, Any]:
        """The figures shown, as data: ``scale``, ``reach``, ``ranges``, ``distance``,
        ``transit``."""
        t = self.table
        view = t.view
        rs = t.seat.ruleset
        km = view.map.km_per_hex() or 0.0
        out: dict[str, Any] = {"scale": {"km": round(km, 3), "nm": round(km / NM_KM, 3)}}
        u = view.units.get(t.unit) if t.unit else None
        if u is None or u.hex is None:
            return out
        out["unit"] = u.id
        reach = rs.reach(view, u.id)
        if reach:
            far = max(u.hex.distance(h) for h in reach)
            out["reach"] = {
                "hexes": len(reach),
                "farthest": far,
                "km": round(far * km, 1),
                "nm": round(far * km / NM_KM, 1),
            }
            rich = getattr(reach, "_repr_html_", None)
            if callable(rich):
                out["reach_html"] = rich()
        out["ranges"] = [
            {
                "range": r.get("label", ""),
                "kind": r.get("kind", ""),
                "hexes": r.get("hexes", 0),
                "km": round(float(r.get("hexes", 0) or 0) * km, 1),
                "nm": round(float(r.get("hexes", 0) or 0) * km / NM_KM, 1),
            }
            for r in (rs.ranges(view, u.id) or ())
        ]
        if t.hex is not None:
            to = view.map.hex(t.hex)
            if to != u.hex:
                layout = view.map.layout
                d_km = (
                    layout.distance_km(u.hex, to) if layout is not None else u.hex.distance(to) * km
                )
                out["to"] = t.hex
                out["distance"] = {
                    "hexes": u.hex.distance(to),
                    "km": round(d_km, 1),
                    "nm": round(d_km / NM_KM, 1),
                }
                if reach is not None:
                    cost = reach.get(to) if isinstance(reach, Mapping) else None
                    out["in_reach"] = cost is not None or (
                        not isinstance(reach, Mapping) and to in reach
                    )
                    if cost is not None:
                        out["cost"] = cost
                transit = getattr(rs, "transit", None)
                if callable(transit):
                    try:
                        out["transit"] = list(transit(view, u.id, to) or ())
                    except Exception as exc:  # noqa: BLE001 - shown, not raised
                        out["transit_error"] = str(exc)
        return out

    def _redraw(self, change: Any = None) -> None:
        t = self.table
        view = t.view
        opts = [("—", "")] + [
            (f"{u.id}" + (f" — {u.name}" if u.name and u.name != u.id else ""), u.id)
            for u in sorted(view.units.values(), key=lambda u: (u.side != t.seat.side, u.id))
            if u.hex is not None
        ]
        self._quiet = True
        try:
            if list(self.unit.options) != opts:
                self.unit.options = opts
            want = t.unit if t.unit in {v for _, v in opts} else ""  # off-map units are not listed
            if self.unit.value != want:
                self.unit.value = want
        finally:
            self._quiet = False
        r = self.rows()
        parts = [f"<div class='muted'>1 hex = {r['scale']['km']} km = {r['scale']['nm']} nm</div>"]
        if "unit" not in r:
            parts.append(
                "<div class='muted'>click a counter to see its reach and ranges; then click a hex "
                "to measure the way there</div>"
            )
        else:
            if "reach" in r:
                rr = r["reach"]
                parts.append(
                    f"<div><b>reach this turn</b>: {rr['hexes']} hexes, "
                    f"up to {rr['farthest']} hexes "
                    f"({rr['km']} km / {rr['nm']} nm)</div>"
                )
                if r.get("reach_html"):  # the rule set's own account (allowance, reasons, costs)
                    parts.append(f"<details><summary>details</summary>{r['reach_html']}</details>")
            else:
                parts.append("<div class='muted'>the rule set gives no reach for this unit</div>")
            if r["ranges"]:
                parts.append(
                    "<b>ranges</b>" + _table(r["ranges"], ["range", "kind", "hexes", "km", "nm"])
                )
            if "distance" in r:
                d = r["distance"]
                reach_txt = ""
                if "in_reach" in r:
                    reach_txt = (
                        " · <span class='ok'>in reach this turn</span>"
                        + (f" (cost {esc(_num(r['cost']))})" if "cost" in r else "")
                        if r["in_reach"]
                        else " · <span class='bad'>out of reach this turn</span>"
                    )
                by_hex = d["hexes"] * r["scale"]["km"]
                parts.append(
                    f"<div><b>to {esc(r['to'])}</b>: {d['hexes']} hexes "
                    f"({by_hex:.1f} km / {by_hex / NM_KM:.1f} nm by hexes; {d['km']} km / "
                    f"{d['nm']} nm in a straight line){reach_txt}</div>"
                )
            if r.get("transit"):
                cols = list(dict.fromkeys(k for row in r["transit"] for k in row))
                parts.append("<b>transit</b>" + _table(r["transit"], cols))
            if r.get("transit_error"):
                parts.append(f"<div class='bad'>transit: {esc(r['transit_error'])}</div>")
        self.out.value = f"<div class='owsnb-w'>{''.join(parts)}</div>"

    def close(self) -> None:
        for link in getattr(self, "_links", []):
            link.unlink()
        self._links = []
        super().close()
