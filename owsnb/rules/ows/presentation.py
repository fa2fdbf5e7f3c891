"""The OWS rule set's presentation (``RULESET.presentation``): counters as data in OWS style
(attack dice in the ladder colours, red and grey shields, signature, step boxes, the APP-6 symbol
of the category — drawn by :mod:`owsnb.display.symbols`), terrain styles, unit summaries, reach,
range rings, transit, the per-side dashboard and each counter's domain. Plain data; no widget
imports, no SVG.

>>> terrain_style("deep-sea")["fillColor"]
'#2b5d8c'
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.presentation import Counter, Die, Presentation, Shield, short_designation
from owsnb.rules.ows.common import hand, space
from owsnb.rules.ows.dice import COLOURS, TEXT_COLOURS
from owsnb.rules.ows.planning import FIELDS, HAND_KEYS, orders_doc
from owsnb.rules.ows.units import counter

__all__ = [
    "OwsPresentation",
    "PRESENTATION",
    "terrain_style",
    "counter_of",
    "symbol_of",
    "unit_summary",
    "ranges",
    "dashboard",
    "DOMAINS",
    "unit_domain",
    "prompt",
]

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


def symbol_of(unit: Any) -> str:
    """The APP-6 symbol key of an OWS counter (:data:`owsnb.display.symbols.SYMBOLS`), from its
    category (2.2) and its type.

    >>> from owsnb.kernel.state import Unit
    >>> symbol_of(Unit("R-LST-1", "red", "prc-lst-072", data={"category": "naval"}))
    'amphibious-ship'
    """
    c = counter(unit)
    cat, kind = c.category, str(unit.kind).lower()

    def has(*words: str) -> bool:
        return any(w in kind for w in words)

    if cat == "naval":
        if has("lst", "lpd", "lhd", "amphib", "landing"):
            return "amphibious-ship"
        return "patrol-boat" if has("-pg", "pgg", "patrol", "-pb") else "surface-combatant"
    if cat == "submarine":
        return "submarine"
    if cat == "air-mission":
        mission = str(c.mission or "")
        if mission in ("cap", "sweep", "escort") or has("cap", "fighter"):
            return "fighter"
        if mission in ("strike", "cas", "interdiction", "sead", "bomber") or has("strike"):
            return "strike-aircraft"
        return "helicopter" if has("helo", "heli") else "aircraft"
    if cat == "air-base":
        return "air-base"
    if cat == "artillery":
        if has("phl", "mlrs", "himars", "rocket", "mrl"):
            return "rocket-artillery"
        return "missile" if has("hf", "ssm", "df-", "missile", "harpoon") else "artillery"
    if cat == "air-defence":
        return "air-defence"
    if cat == "sof":
        return "special-forces"
    if cat == "hq":
        return "headquarters"
    if cat in ("asp", "css"):
        return "supply"
    if cat == "ground":
        if has("amphib", "marine"):
            return "amphibious"
        if has("armor", "armour", "tank"):
            return "armour"
        if has("mech"):
            return "mechanised-infantry"
        return "airborne-infantry" if has("airborne", "para") else "infantry"
    return "unit"


_ECHELONS = ("team", "platoon", "company", "battalion", "regiment", "brigade", "division", "corps")


def echelon_of(unit: Any) -> str:
    """The echelon named in a counter's payload or name (``"brigade"``...), else ``""``."""
    given = unit.data.get("echelon") if unit.data else None
    if isinstance(given, str) and given:
        return given
    name = str(unit.name or "").lower()
    return next((e for e in _ECHELONS if e in name), "")


def counter_of(unit: Any, view: Any) -> Counter:
    """An OWS counter as data (2.2): the side's colour, the APP-6 symbol of its category, its
    attack dice in the ladder colours (2.1; faded when no salvo is left), its red shield and grey
    shields (2.2.2.8), its signature, steps and markers."""
    fill = SIDE_FILL.get(unit.side, "#dddddd")
    if unit.kind == "unknown":
        return Counter(unit.side, fill, "", face_down=True, title="unknown contact")
    c = counter(unit)
    dice = tuple(
        Die(a.die, COLOURS[a.die], TEXT_COLOURS[a.die], spent=a.left == 0) for a in c.attacks
    )
    shields = (Shield(str(c.red_shield), "#c62828"),) + tuple(
        Shield(str(g.value), "#757575", spent=g.left == 0) for g in c.shields
    )
    return Counter(
        side=unit.side,
        fill=fill,
        designation=short_designation(unit),
        symbol=symbol_of(unit),
        echelon=echelon_of(unit),
        right=str(c.signature) if c.signature is not None else "",
        dice=dice,
        shields=shields,
        steps=int(unit.steps),
        max_steps=int(unit.max_steps),
        marks=tuple(sorted(m for m in unit.markers if m != "last-known")),
        dashed="last-known" in unit.markers,
        title=unit.name or unit.id,
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


DOMAINS = {
    "naval": "maritime",
    "submarine": "maritime",
    "air-mission": "air",
    "air-base": "air",
    "sof": "sof",
}
"""Domain of each counter category (2.2) for forces and losses by domain; every other category
(ground, HQ, artillery, air defence, ASP, CSS...) is ``land``. Space and cyber are dashboards
and cards in OWS (2.1.3, 2.1.4), not counters, so no counter is in those domains."""


def unit_domain(unit: Any) -> str | None:
    """The domain of *unit* by its category (2.2; :data:`DOMAINS`); ``None`` for a face-down
    counter, whose category the viewer does not know (8.4.1)."""
    if "category" not in unit.data:
        return None
    return DOMAINS.get(counter(unit).category, "land")


def _n(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def prompt(view: Any, side: str) -> list[tuple[str, str]]:
    """What *side* must answer now, from the public record of what is coming: a strike's
    targets, the number of salvos at each and their dice (9.2.1: the defender allocates grey
    shields — the attacker's firing units stay unnamed), or an attack's hex and attackers (10.3:
    the defender may answer with defensive fire, 3.E)."""
    out: list[tuple[str, str]] = []
    inc = thaw(view.public.get("incoming") or {})
    if inc and inc.get("defender") == side:
        targets = ", ".join(f"{t} ({_n(int(n), 'salvo')})" for t, n in inc["targets"].items())
        dice = ", ".join(str(d).upper() for d in inc.get("dice", ()))
        out.append(
            (
                f"{inc['attacker'].capitalize()} strikes {targets}"
                + (f" with {dice}" if dice else "")
                + ": allocate grey shields to each target (shields), or none",
                "9.2.1",
            )
        )
    win = thaw(view.public.get("ground_window") or {})
    if win and win.get("defender") == side:
        who = ", ".join(win.get("attackers", ()))
        out.append(
            (
                f"{win['attacker'].capitalize()} attacks {win['hex']} with {who}: answer with "
                "defensive fire (defensive-fire), or Done",
                "10.3",
            )
        )
    return out


class OwsPresentation(Presentation):
    """What the table draws of an OWS game (see the module docstring)."""

    terrain_styles = TERRAIN

    def counter(self, unit: Any, view: Any) -> Counter:
        return counter_of(unit, view)

    def unit_summary(self, unit: Any, view: Any) -> list[tuple[str, str]]:
        return unit_summary(unit, view)

    def ranges(self, view: Any, unit_id: str) -> list[dict[str, Any]]:
        from owsnb.rules.ows.timedistance import rings

        return rings(view, unit_id) if unit_id in view.units else []

    def reach(self, view: Any, unit_id: str) -> Any:
        from owsnb.rules.ows.timedistance import reach

        return reach(view, unit_id) if unit_id in view.units else None

    def transit(self, view: Any, unit_id: str, to: Any) -> list[dict[str, Any]]:
        from owsnb.rules.ows.timedistance import transit

        return transit(view, unit_id, to) if unit_id in view.units else []

    def dashboard(self, view: Any) -> dict[str, Any]:
        return dashboard(view)

    def unit_domain(self, view: Any, unit: Any) -> str | None:
        return unit_domain(unit)

    def prompt(self, view: Any, side: str) -> list[tuple[str, str]]:
        return prompt(view, side)


PRESENTATION = OwsPresentation()
