"""TimeDistancePanel: how far a unit can go and reach, and how long it takes to get somewhere.

Pick a unit (click its counter, or choose it in the list) and see, at this map's scale:

* its **reach** this turn (the rule set's ``reach`` hook): how many hexes, how far, drawn on the
  map;
* its **ranges** (``ranges`` hook: weapon, sensor, command, combat radius 1x/2x/3x...) in hexes,
  km and nm, drawn as rings;
* to the last hex clicked: the distance in hexes, km and nm, whether it is in reach this turn and
  at what cost, and — when the rule set offers the ``transit(view, unit_id, to_hex)`` hook —
  turns and days by each mode of travel.

**A platform type instead of a unit** ("what if"): choose a type of the scenario's catalogs (an
F-35 squadron, a DF-21 battery, a mech brigade) and click a hex — or call :meth:`study` — and the
same figures and rings are those of a fresh, full-strength unit of that type, of the seat's side
(the umpire: of the side acting), standing there. It lives only on a copy of the seat's view
(:mod:`owsnb.widgets.whatif`, :meth:`~owsnb.kernel.view.SideView.with_unit`): never stored,
submitted or shown to another seat; the game is unchanged. Later clicks measure the way from it;
*stand here* moves it to the last hex clicked; choosing a unit (or "—") ends the study. The list
is hidden when the scenario has no catalog here.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> td = TimeDistancePanel(tiny_game(), seat="blue")
    >>> td.table.pick(hex="0101"); td.table.pick(hex="0302")
    >>> td.rows()["distance"]
    {'hexes': 2, 'km': 20.0, 'nm': 10.8}
    >>> td.study_box.layout.display  # the tiny game has no catalog: no types to study
    'none'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from owsnb.display.html import esc
from owsnb.kernel.geo import NM_KM
from owsnb.kernel.state import UMPIRE
from owsnb.widgets.controls import button, checkbox
from owsnb.widgets.measure import BADGES, KIND_WORDS
from owsnb.widgets.panel import Panel
from owsnb.widgets.render import compact, style_widget
from owsnb.widgets.table import Pick, Table
from owsnb.widgets.whatif import catalog_types, what_if_unit

__all__ = ["TimeDistancePanel"]


def _num(v: Any) -> Any:
    return f"{v:.4g}" if isinstance(v, float) else v


def _movement_html(rr: Mapping[str, Any], km: float) -> str:
    """One statement of a unit's movement this turn: its allowance, then what it reaches on
    this map (fewer hexes where terrain, the enemy or the map's edge stop it sooner)."""
    far = (
        f"the farthest hex it can reach here is {rr['farthest']} hexes away "
        f"({rr['km']:g} km / {rr['nm']:g} nm), {rr['hexes']} hexes in all"
    )
    allowance, per = rr.get("allowance"), rr.get("per", "")
    if not allowance:
        return f"<b>reach this turn</b>: {far}"
    if per == "hexes":
        km_a = allowance * km
        why = (
            " — the map's edge, the coast or the enemy stop it sooner"
            if rr["farthest"] < allowance
            else ""
        )
        return (
            f"<b>reach this turn</b>: moves up to <b>{allowance:g} hexes a turn</b> "
            f"({km_a:,.0f} km / {km_a / NM_KM:,.0f} nm); {far}{why}"
        )
    return (
        f"<b>reach this turn</b>: <b>{allowance:g} {esc(per)} a turn</b> (terrain costs "
        f"decide how far); {far}"
    )


def _table(rows: list[Mapping[str, Any]], cols: list[str]) -> str:
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(_num(r.get(c, '')))}</td>" for c in cols) + "</tr>"
        for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


class TimeDistancePanel(Panel):
    """Reach, ranges and transit of the selected unit, or of a what-if unit of a catalog type
    (see the module docstring).

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
        self._types = catalog_types(
            self.table.view, getattr(self.table.seat, "scenario_file", None)
        )
        self.kind = W.Dropdown(
            description="what if",
            options=[("—", "")] + [(t.label, k) for k, t in self._types.items()],
            tooltip="a fresh unit of a catalog type, of your side, on the hex you click next",
            layout=W.Layout(width="70%"),
            style={"description_width": "60px"},
        )
        self.kind.observe(self._on_kind_choice, "value")
        self.here = button(
            "stand here",
            self._stand_here,
            icon="map-marker",
            tooltip="move the what-if unit to the last hex clicked",
            width="28%",
        )
        self.study_box = W.HBox(
            [self.kind, self.here],
            layout=W.Layout(width="100%", display=None if self._types else "none"),
        )
        self.show_reach = checkbox("reach on map", self.table.show_reach)
        self.show_ranges = checkbox("ranges on map", self.table.show_ranges)
        self._links = [
            W.link((self.show_reach, "value"), (self.table, "show_reach")),
            W.link((self.show_ranges, "value"), (self.table, "show_ranges")),
        ]
        self.out = W.HTML()
        self._quiet = False
        self._pending: str | None = None  # a type chosen, waiting for the hex it stands on
        super().__init__(
            [
                style_widget(),
                self.unit,
                self.study_box,
                W.HBox([self.show_reach, self.show_ranges]),
                self.out,
            ],
            layout=W.Layout(width="100%"),
        )
        self.add_class("owsnb-timedistance")
        self.table.hold(self)
        self.table.on_pick(self._on_pick)
        self.watch(self._redraw, ["revision", "unit", "hex", "what_if"])
        self.table.measuring = True  # in sight: the map draws the route of a measurement
        self._redraw()

    def show(self, shown: bool = True) -> None:
        """In sight, a hex picked is measured on the map too (the route and its legs)."""
        super().show(shown)
        self.table.measuring = shown

    # -- what if -------------------------------------------------------------------------------
    def study(self, kind: str | None, at: Any = None) -> None:
        """Show the figures of a fresh unit of catalog type *kind* standing on hex *at* (a
        label; default: where the what-if unit stands, else the last hex clicked, else the next
        hex clicked). ``None`` or ``""`` ends the study.

        Raises:
            KeyError: no such type or hex. ValueError: the rule set refuses the type's payload.
        """
        t = self.table
        if not kind:
            waiting, self._pending = self._pending, None
            if t.what_if is not None:
                t.what_if = None  # the watches redraw
            elif waiting:
                self._redraw()  # no longer waiting for a hex
            return
        if kind not in self._types:
            raise KeyError(f"no unit type {kind!r} in this scenario's catalogs")
        if at is None:
            old = t.what_if
            at = t.view.map.label(old.hex) if old is not None else t.hex
        if at is None:
            self._pending = kind
            t.what_if = None
            self._redraw()
            return
        self._pending = None
        view = t.view
        side = None
        if view.side == UMPIRE:  # the umpire studies a unit of the side acting (else the first)
            side = t.actor if t.actor in view.sides else next(iter(view.sides))
        with t.batch():
            t.what_if = what_if_unit(view, t.seat.ruleset, kind, at, side=side, types=self._types)

    def _on_kind_choice(self, change: dict) -> None:
        if self._quiet:
            return
        try:
            self.study(change["new"] or None)
        except (KeyError, ValueError) as exc:
            self.out.value = f"<div class='owsnb-w bad'>{esc(exc)}</div>"

    def _on_pick(self, pick: Pick) -> None:
        if self._pending and pick.hex is not None:
            try:
                self.study(self._pending, at=pick.hex)
            except (KeyError, ValueError) as exc:  # shown, never raised into the map's click
                self._pending = None
                self.out.value = f"<div class='owsnb-w bad'>{esc(exc)}</div>"

    def _stand_here(self) -> None:
        t = self.table
        if t.what_if is not None and t.hex is not None:
            self.study(t.what_if.kind, at=t.hex)

    def _on_unit_choice(self, change: dict) -> None:
        if self._quiet or not change["new"]:
            return
        with self.table.batch():
            self._pending = None
            self.table.what_if = None  # a unit chosen by hand ends the study
            self.table.pick(unit=change["new"])

    def rows(self) -> dict[str, Any]:
        """The figures shown, as data: ``scale``, ``unit``, ``what_if`` (type, side and hex of a
        what-if unit), ``reach``, ``ranges``, ``distance``, ``transit``."""
        t = self.table
        view, uid = t.focus  # the what-if unit stands on a copy of the view, never in the game
        rs = t.presentation
        km = view.map.km_per_hex() or 0.0
        out: dict[str, Any] = {"scale": {"km": round(km, 3), "nm": round(km / NM_KM, 3)}}
        u = view.units.get(uid) if uid else None
        if u is None or u.hex is None:
            return out
        out["unit"] = u.id
        if t.what_if is not None and u.id == t.what_if.id:
            out["what_if"] = {"type": u.kind, "side": u.side, "at": view.map.label(u.hex)}
        reach = rs.reach(view, u.id)
        if reach:
            far = max(u.hex.distance(h) for h in reach)
            out["reach"] = {
                "hexes": len(reach),
                "farthest": far,
                "km": round(far * km, 1),
                "nm": round(far * km / NM_KM, 1),
            }
            budget, per = getattr(reach, "budget", None), getattr(reach, "unit_of_cost", "")
            if budget:  # the allowance a turn, as the rule set counts it (hexes, MP...)
                out["reach"]["allowance"] = float(budget)
                out["reach"]["per"] = str(per or "")
            rich = getattr(reach, "_repr_html_", None)
            if callable(rich):
                out["reach_html"] = compact(rich())
        out["ranges"] = [
            {
                "#": BADGES[i % len(BADGES)],  # the ring's badge on the map
                "range": r.get("label", ""),
                "kind": r.get("kind", ""),
                "what": r.get("per") or KIND_WORDS.get(str(r.get("kind", "")), r.get("kind", "")),
                "hexes": r.get("hexes", 0),
                "km": round(float(r.get("hexes", 0) or 0) * km, 1),
                "nm": round(float(r.get("hexes", 0) or 0) * km / NM_KM, 1),
            }
            for i, r in enumerate(rs.ranges(view, u.id) or ())
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
                try:
                    out["transit"] = list(rs.transit(view, u.id, to) or ())
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
        studying = t.what_if is not None
        self._quiet = True
        try:
            if list(self.unit.options) != opts:
                self.unit.options = opts
            want = t.unit if t.unit in {v for _, v in opts} else ""  # off-map units are not listed
            if studying:
                want = ""
            if self.unit.value != want:
                self.unit.value = want
            kind = t.what_if.kind if studying else (self._pending or "")
            if (kind in self._types or not kind) and self.kind.value != kind:
                self.kind.value = kind
            self.here.disabled = not (
                studying and t.hex is not None and t.hex != t.view.map.label(t.what_if.hex)
            )
        finally:
            self._quiet = False
        r = self.rows()
        parts = [f"<div class='muted'>1 hex = {r['scale']['km']} km = {r['scale']['nm']} nm</div>"]
        if "what_if" in r:
            w = r["what_if"]
            parts.append(
                f"<div><b>what if</b> a fresh <b>{esc(w['type'])}</b> of {esc(w['side'])} stood "
                f"at <b>{esc(w['at'])}</b> <span class='muted'>(not in the game; click a hex to "
                "measure the way there)</span></div>"
            )
        if self._pending and not studying:
            parts.append(
                f"<div class='muted'>click the hex a fresh {esc(self._pending)} stands on</div>"
            )
        elif "unit" not in r:
            parts.append(
                "<div class='muted'>click a counter to see its reach and ranges; then click a hex "
                "to measure the way there</div>"
            )
        else:
            if "reach" in r:
                parts.append(f"<div>{_movement_html(r['reach'], r['scale']['km'])}</div>")
                if r.get("reach_html"):  # the rule set's own account (allowance, reasons, costs)
                    parts.append(f"<details><summary>details</summary>{r['reach_html']}</details>")
            else:
                parts.append("<div class='muted'>the rule set gives no reach for this unit</div>")
            if r["ranges"]:
                parts.append(
                    "<b>ranges</b> <span class='muted'>(tick <i>ranges on map</i> to see them "
                    "as numbered rings)</span>"
                    + _table(r["ranges"], ["#", "range", "what", "hexes", "km", "nm"])
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
        if hasattr(self, "table"):
            try:
                self.table.on_pick(self._on_pick, remove=True)
            except ValueError:
                pass
        for link in getattr(self, "_links", []):
            link.unlink()
        self._links = []
        super().close()
