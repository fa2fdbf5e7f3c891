"""Time and distance, the instructors' API (design notes' first learning outcome, p. 47).

Three questions about one unit, answered from what its side knows, in hexes and in km/nm at the
map's scale, as plain data the widgets draw exactly:

* :func:`reach` — the hexes it can reach this turn and what each costs (10.10 ground movement with
  terrain, weather, ZOC and stacking; 6.4 naval rates; the combat radius of an air mission);
* :func:`transit` — turns and days to a hex by every mode it can use, with the embark, transit and
  offload overheads of strategic movement (5.1.1.2-5.1.1.5, C1);
* :func:`rings` — its range rings: weapons (2.2.2.1), sensors and ship radar (6.5.9.4), the
  air-defence umbrella (2.2.7.4), combat radius 1x/2x/3x with its fuel source (6.5.2, 6.5.3), the
  HQ command radius (2.2.7.1).

``game_or_view`` is a :class:`~owsnb.kernel.game.Game` (the unit's side's knowledge of the truth),
a side's :class:`~owsnb.kernel.view.SideView` or a ``GameState``.

>>> from owsnb.rules.ows.examples import example
>>> g = example()
>>> r = rings(g, "DDG-1")
>>> [(x["kind"], x["hexes"]) for x in r][:2]
[('weapon', 1), ('weapon', 4)]
>>> round(r[1]["nm"])
800
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from owsnb.kernel.geo import NM_KM
from owsnb.kernel.hexgrid import Hex, search
from owsnb.kernel.result import Result
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.dice import COLOURS
from owsnb.rules.ows.units import counter

__all__ = [
    "reach",
    "transit",
    "rings",
    "Reach",
    "Transit",
    "command_radius_hexes",
    "turns_by_road",
    "sea_hexes",
    "RING_COLOURS",
]

RING_COLOURS = {
    "weapon": "#c62828",
    "sensor": "#6a1b9a",
    "umbrella": "#757575",
    "radius": "#444444",
    "command": "#000000",
}


def _state_and_unit(game_or_view: Any, unit: Any) -> tuple[Any, Any]:
    state = game_or_view.state if hasattr(game_or_view, "submit") else game_or_view
    uid = unit if isinstance(unit, str) else unit.id
    try:
        return state, state.units[uid]
    except KeyError:
        raise KeyError(f"no unit {uid!r} visible here") from None


def _km(state: StateLike) -> float:
    return float(state.map.km_per_hex() or 20.0)


def _label(state: StateLike, h: Hex) -> str:
    return state.map.label(h)


def command_radius_hexes(state: StateLike, hq: Any) -> int:
    """2.2.7.1: the HQ's command radius in map hexes — TAC numbers count 100 km zones on tactical
    maps (``meta.zone_km``), OP numbers 200 nm hexes."""
    r = int(counter(hq).command_radius or 0)
    zkm = state.map.meta.get("zone_km")
    if zkm and r:
        return max(int(round(r * float(zkm) / _km(state))), 1)
    return r


# -- reach ---------------------------------------------------------------------------------------------
class Reach(Mapping):
    """Hexes a unit can reach this turn -> cost (MP for ground units, hexes for ships and air).

    A mapping ``Hex -> float`` (what the widgets draw) with the allowance, the reasons and the
    scale; ``_repr_html_`` summarises it for a notebook.
    """

    def __init__(
        self,
        unit: str,
        kind: str,
        start: Hex | None,
        costs: Mapping[Hex, float],
        *,
        budget: float = 0.0,
        unit_of_cost: str = "MP",
        reasons: tuple[str, ...] = (),
        km_per_hex: float = 20.0,
        labels: Mapping[Hex, str] | None = None,
    ):
        self.unit = unit
        self.kind = kind
        self.start = start
        self.costs = dict(costs)
        self.budget = budget
        self.unit_of_cost = unit_of_cost
        self.reasons = reasons
        self.km_per_hex = km_per_hex
        self._labels = dict(labels or {})

    def __getitem__(self, h: Hex) -> float:
        return self.costs[h]

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.costs)

    def __len__(self) -> int:
        return len(self.costs)

    @property
    def farthest(self) -> int:
        """Hexes from the start to the farthest hex in reach."""
        if self.start is None or not self.costs:
            return 0
        return max(self.start.distance(h) for h in self.costs)

    def summary(self) -> dict[str, Any]:
        """Plain figures: hexes in reach, farthest in hexes/km/nm, allowance."""
        far = self.farthest
        return {
            "unit": self.unit,
            "kind": self.kind,
            "hexes": len(self),
            "farthest": far,
            "km": round(far * self.km_per_hex, 1),
            "nm": round(far * self.km_per_hex / NM_KM, 1),
            "allowance": f"{self.budget:g} {self.unit_of_cost}",
            "why": "; ".join(self.reasons),
        }

    def by_label(self) -> dict[str, float]:
        return {
            self._labels.get(h, repr(h)): c
            for h, c in sorted(self.costs.items(), key=lambda x: (x[1], x[0]))
        }

    def __repr__(self) -> str:
        s = self.summary()
        return f"<Reach {self.unit}: {s['hexes']} hexes, up to {s['farthest']} ({s['km']} km / {s['nm']} nm)>"

    def record(self) -> Result:
        """The reach as a result: its summary, and the nearest 40 hexes with their cost."""
        cost = str(self.unit_of_cost)
        return Result(
            f"Reach of {self.unit} this turn",
            dict(self.summary()),
            ["10.10", "6.4"],
            columns=["hex", cost],
            table=[{"hex": k, cost: v} for k, v in list(self.by_label().items())[:40]],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def reach(game_or_view: Any, unit: Any, **kw: Any) -> Reach:
    """The hexes *unit* can reach this turn as its side knows (see the module docstring)."""
    from owsnb.rules.ows import movement as mv
    from owsnb.rules.ows.common import table

    state, u = _state_and_unit(game_or_view, unit)
    km = _km(state)
    c = counter(u)

    def made(
        mode: str, costs: Mapping[Hex, float], budget: float, unit_of_cost: str, reasons: Any
    ) -> Reach:
        return Reach(
            u.id,
            mode,
            u.hex,
            dict(costs),
            budget=budget,
            unit_of_cost=unit_of_cost,
            reasons=tuple(reasons),
            km_per_hex=km,
            labels={h: state.map.label(h) for h in costs},
        )

    if c.is_air:
        base = _fuel_source(state, u)
        r = int(c.combat_radius or 0)
        if base is None:
            return Reach(u.id, "air", u.hex, {}, km_per_hex=km)
        costs = {h: float(base.distance(h)) for h in base.disc(r) if h in state.map.hexes}
        return made("air", costs, r, "hexes", (f"combat radius {r} from its fuel source (6.5.2)",))
    if u.hex is None:
        return Reach(u.id, "none", None, {}, km_per_hex=km)
    if c.category in mv.NAVAL_CATEGORIES:
        d = mv.naval_reach(state, u, flank=kw.get("flank"))
        nt = table(state, "movement")["naval"]
        sub = c.subtype or nt.get("default", "surface")
        normal = kw.get("flank") is False and c.subtype in mv.SUBS
        rate = mv.naval_rate(sub, hex_nm=_km(state) / NM_KM, normal=normal, table_=nt)
        return made(  # the allowance is the 6.4 rate in this map's hexes, as transit says
            "naval",
            {h: float(v) for h, v in d.items()},
            rate,
            "hexes",
            (f"6.4 rate for {c.subtype or 'surface'}: {rate} hexes a turn",),
        )
    if c.category in mv.GROUND_CATEGORIES and mv.mobility(u):
        r = mv.ground_reach(
            state,
            u,
            **{k: v for k, v in kw.items() if k in ("mp", "exploit", "disorganized", "react")},
        )
        return made("ground", r.costs(), r.allowance.mp, "MP", r.allowance.reasons)
    return Reach(u.id, "none", u.hex, {}, km_per_hex=km)


def _fuel_source(state: StateLike, m: Any) -> Hex | None:
    b = state.units.get(counter(m).base) if counter(m).base else None
    if b is not None and b.hex is not None:
        return b.hex
    return m.hex


# -- transit ---------------------------------------------------------------------------------------------
def turns_by_road(
    state: StateLike, u: Any, to: Hex, *, max_turns: int = 60
) -> tuple[int, list[Hex]] | None:
    """Turns of tactical movement from *u*'s hex to *to* (10.10): each turn spends the unit's MP,
    entering a known enemy ZOC ends the turn, the always-one-hex rule applies; ``None`` if *to*
    cannot be reached (NP, enemy units)."""
    from owsnb.rules.ows import movement as mv
    from owsnb.rules.ows.movement.ground import _cost_model, _step

    if u.hex == to:
        return 0, [to]
    allow = mv.movement_points(state, u)
    if not allow.mode:
        return None
    mp = allow.mp if allow.max_hexes is None else 0.0
    model = _cost_model(state, allow.mode)
    foes = mv.known_enemies(state, u.side)
    blocked = {e.hex for e in foes if counter(e).category in mv.GROUND_CATEGORIES}
    zoc = mv.zoc_hexes(state, foes)
    start = u.hex

    # a label is (turn, MP spent in it): a hex is reached best in the earliest turn, then for
    # the fewest MP spent in that turn
    def moves(h: Hex, label: tuple[int, float]) -> Iterator[tuple[Hex, tuple[int, float]]]:
        t, sp = label
        for n in h.neighbours():
            if n not in state.map.hexes or n in blocked:
                continue
            c = _step(model, h, n, u.side)
            if c is None:
                continue
            if h in zoc and h != start:
                c += 2.0
            if sp + c <= mp + 1e-9:
                nt, nsp = t, sp + c
            else:
                nt, nsp = t + 1, min(c, mp) if mp else 0.0
                if mp and c > mp:
                    nsp = mp  # always one hex, then stop (10.10.1)
            if n in zoc:
                nsp = mp  # entering a ZOC stops the unit for the turn (10.10.3.1)
            yield n, (nt, nsp)

    found = search(
        start, moves, zero=(1, 0.0), goal=lambda h, label: h == to or label[0] > max_turns
    )
    if found.found != to:
        return None
    return found.labels[to][0], list(found.path_to(to))


def sea_hexes(state: StateLike, a: Hex, b: Hex) -> list[Hex] | None:
    """A shortest sea route (sea and port hexes) from *a* to *b* (6.4)."""
    from owsnb.rules.ows import movement as mv

    hexes = state.map.hexes
    seen: dict[Hex, int] = {}

    def moves(h: Hex, d: int) -> Iterator[tuple[Hex, int]]:
        for n in h.neighbours():
            if (
                n not in seen
                and n in hexes
                and (mv.is_water(state, n) or "port" in hexes[n].features)
            ):
                yield n, d + 1

    found = search(a, moves, zero=0, goal=lambda h, d: h == b, fifo=True, labels=seen)
    return None if found.found is None else list(found.path_to(b))


class Transit(list):
    """Rows of :func:`transit`, one per mode: a list of plain dicts with ``_repr_html_``."""

    title: str = ""

    def record(self) -> Result:
        """The rows as a result table, one row per mode."""
        cols = ["mode", "feasible", "turns", "days", "hexes", "km", "nm", "overheads", "notes"]
        return Result(self.title, {}, ["5.1", "6.4", "10.10"], columns=cols, table=list(self))

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def _row(
    state: StateLike,
    mode: str,
    turns: int | None,
    hexes: int | None,
    *,
    overheads: str = "",
    notes: str = "",
    rule: str = "",
) -> dict[str, Any]:
    from owsnb.rules.ows.common import option

    hours = float(option(state, "turn_hours") or 24)
    km = _km(state)
    d = None if hexes is None else hexes * km
    return {
        "mode": mode,
        "feasible": turns is not None,
        "turns": turns,
        "days": None if turns is None else round(turns * hours / 24.0, 2),
        "hexes": hexes,
        "km": None if d is None else round(d, 1),
        "nm": None if d is None else round(d / NM_KM, 1),
        "overheads": overheads,
        "notes": notes,
        "rule": rule,
    }


def _facilities(state: StateLike, kind: str, side: str) -> list[Hex]:
    """Hexes with a *kind* feature (port, airfield, railhead) that are *side*'s or nobody's (2.1.7)."""
    out = []
    for h, info in state.map.hexes.items():
        f = info.features.get(kind)
        if f is None:
            continue
        owner = info.facts.get("control") or f.get("owner") or f.get("side")
        if owner in (None, side):
            out.append(h)
    return out


def _nearest(state: StateLike, frm: Hex, hexes: list[Hex]) -> list[Hex]:
    return sorted(hexes, key=lambda h: (h.distance(frm), h))


def transit(game_or_view: Any, unit: Any, to: Any) -> Transit:
    """Turns and days for *unit* to reach *to* by each mode it can use (see the module docstring).

    ``turns`` counts turns until the unit stands at *to* free to act (the current turn is 1):
    tactical moves count the turn it arrives; strategic moves add their embark and offload
    overheads and RSO&I (C1): sealift arriving in turn k is free in turn k+2 (5.1.1.2), airlift in
    the next turn, rail after embark + transit + offload turns (5.1.1.4), HET after a full turn of
    RSO&I (5.1.1.5). One row per mode, each from its own function below.
    """
    from owsnb.rules.ows import movement as mv

    state, u = _state_and_unit(game_or_view, unit)
    to = state.map.hex(to) if not isinstance(to, Hex) else to
    out = Transit()
    out.title = f"{u.id} to {state.map.label(to)}"
    c = counter(u)
    if c.is_air:
        out.extend(_by_air(state, u, to))
    elif u.hex is None:
        pass
    elif c.category in mv.NAVAL_CATEGORIES:
        out.extend(_by_sea(state, u, to))
    elif c.category in mv.GROUND_CATEGORIES and mv.mobility(u):
        for mode in (_by_ground, _by_rail, _by_het, _by_airlift, _by_sealift):
            out.extend(mode(state, u, to))
    return out


def _by_air(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """An aircraft: within its combat radius of its fuel source, or the extended radius with a
    tanker or FARP (6.5.2, 6.5.3); placed in the ATO step."""
    from owsnb.rules.ows.air import max_radius

    c = counter(u)
    src = _fuel_source(state, u)
    if src is None:
        return []
    d = src.distance(to)
    r = int(c.combat_radius or 0)
    times = "3" if c.mission in ("strike", "sead", "bomber") else "2"
    return [
        _row(
            state,
            label,
            1 if d <= lim else None,
            d,
            overheads="placed in the ATO step (3.B.1)",
            notes=f"radius {lim} from {state.map.label(src)}; {note}",
            rule="6.5.2",
        )
        for label, lim, note in (
            ("air: combat radius", r, "no tanker or FARP (6.5.2)"),
            (f"air: with tanker/FARP ({times}x)", max_radius(r, c.mission or "cap"), "6.5.3"),
        )
    ]


def _by_sea(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """A ship: sea hexes at its normal rate, and a submarine's flank (cavitating) rate (6.4)."""
    from owsnb.rules.ows import movement as mv
    from owsnb.rules.ows.common import table

    c = counter(u)
    path = sea_hexes(state, u.map_hex, to)
    n = None if path is None else len(path) - 1
    nt = table(state, "movement")["naval"]
    hex_nm = _km(state) / NM_KM
    subtype = c.subtype or "surface"
    speeds = [("sea: normal", mv.naval_rate(subtype, hex_nm=hex_nm, normal=True, table_=nt))]
    if c.subtype in mv.SUBS:
        speeds.append(
            ("sea: flank (cavitating)", mv.naval_rate(c.subtype, hex_nm=hex_nm, table_=nt))
        )
    rows = []
    for label, rate in speeds:
        t = None if n is None or rate <= 0 else max(1, math.ceil(n / rate)) if n else 0
        rows.append(_row(state, label, t, n, notes=f"{rate} hexes a turn (6.4)", rule="6.4"))
    return rows


def _by_ground(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """Tactical movement at the unit's movement points a turn (10.10)."""
    from owsnb.rules.ows import movement as mv

    road = turns_by_road(state, u, to)
    mp = mv.movement_points(state, u)
    more = "; " + "; ".join(mp.reasons[1:]) if len(mp.reasons) > 1 else ""
    return [
        _row(
            state,
            f"ground: {mp.mode} movement",
            None if road is None else road[0],
            None if road is None else len(road[1]) - 1,
            notes=f"{mp.mp:g} MP a turn (10.10){more}",
            rule="10.10",
        )
    ]


def _leg(state: StateLike, u: Any, a: Hex, b: Hex) -> tuple[int, int] | None:
    """Turns and hexes for *u* to move by road from *a* to *b* (a strategic move's first or last
    leg), ``None`` if it cannot."""
    r = turns_by_road(state, u.evolve(hex=a), b)
    return None if r is None else (r[0], len(r[1]) - 1)


def _strategic(state: StateLike) -> Any:
    from owsnb.rules.ows.common import table

    return table(state, "movement")["strategic"]


def _by_rail(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """Rail between the best pair of the three railheads nearest each end (5.1.1.4)."""
    from owsnb.rules.ows import strategic as st

    start = u.map_hex
    km_per_turn = float(_strategic(state)["rail_km_per_turn"])
    heads = _facilities(state, "railhead", u.side)
    best = None
    for a in _nearest(state, start, heads)[:3]:
        for b in _nearest(state, to, heads)[:3]:
            if a == b:
                continue
            rr = st.rail_route(state, a, b, u.side)
            l1, l2 = _leg(state, u, start, a), _leg(state, u, b, to)
            if rr is None or l1 is None or l2 is None:
                continue
            total = l1[0] + st.rail_turns(rr[1], km_per_turn) + l2[0]
            if best is None or total < best[0]:
                best = (total, l1, rr, l2, a, b)
    if best is None:
        return [
            _row(
                state,
                "rail",
                None,
                None,
                notes="no rail line between railheads near the unit and the target",
                rule="5.1.1.4",
            )
        ]
    total, l1, rr, l2, a, b = best
    return [
        _row(
            state,
            "rail",
            total,
            l1[1] + len(rr[0]) - 1 + l2[1],
            overheads=f"embark 1 turn, transit {st.rail_turns(rr[1], km_per_turn) - 2}, "
            "offload 1 (5.1.1.4)",
            notes=f"{state.map.label(a)} -> {state.map.label(b)}, {rr[1]:.0f} km of rail; one rail car per step",
            rule="5.1.1.4",
        )
    ]


def _by_het(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """Heavy equipment transporters along one road net free of the enemy (5.1.1.5)."""
    from owsnb.rules.ows import strategic as st

    rd = st.road_route(state, u.map_hex, to, u.side)
    if rd is None:
        return [
            _row(
                state,
                "HET",
                None,
                None,
                notes="the unit and the target are not on one road net free of the enemy",
                rule="5.1.1.5",
            )
        ]
    per = float(_strategic(state)["het_road_mp"])
    moves = max(1, math.ceil(rd[1] / per - 1e-9))
    return [
        _row(
            state,
            "HET",
            moves + 1,
            len(rd[0]) - 1,
            overheads="a full turn disembarking in RSO&I (5.1.1.5)",
            notes=f"{rd[1]:g} road MP at {per:g} a turn; one HET per step",
            rule="5.1.1.5",
        )
    ]


def _by_airlift(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """Airlift between the side's airfields nearest each end (5.1.1.3)."""
    from owsnb.rules.ows import strategic as st

    owned = _facilities(state, "airfield", u.side)
    if len(owned) < 2:
        return []
    start = u.map_hex
    a = _nearest(state, start, owned)[0]
    b = _nearest(state, to, [h for h in owned if h != a] or owned)[0]
    l1, l2 = _leg(state, u, start, a), _leg(state, u, b, to)
    heavy = st._mech(u)
    need = int(_strategic(state).get("heavy_lift_per_mech_step", 2)) if heavy else st.lift_steps(u)
    if heavy and u.steps > 1:
        return [
            _row(
                state,
                "airlift",
                None,
                None,
                notes=f"a mechanised or armoured unit flies one step at a time: {u.id} has {u.steps} (5.1.1.3)",
                rule="5.1.1.3",
            )
        ]
    if l1 is None or l2 is None or a == b:
        return []
    return [
        _row(
            state,
            "airlift",
            l1[0] + 1 + l2[0],
            l1[1] + a.distance(b) + l2[1],
            overheads="RSO&I until this turn's Regeneration (C1)",
            notes=f"{state.map.label(a)} -> {state.map.label(b)}; {need} transport mission(s)"
            + (", heavy lift" if heavy else ""),
            rule="5.1.1.3",
        )
    ]


def _by_sealift(state: StateLike, u: Any, to: Hex) -> list[dict[str, Any]]:
    """Sealift between the side's ports nearest each end, at its fastest sealift ship's rate
    (an auxiliary's while it has none) (5.1.1.2)."""
    from owsnb.rules.ows import movement as mv
    from owsnb.rules.ows.common import table

    ports = _facilities(state, "port", u.side)
    if len(ports) < 2:
        return []
    start = u.map_hex
    a = _nearest(state, start, ports)[0]
    b = _nearest(state, to, [p for p in ports if p != a] or ports)[0]
    sea = sea_hexes(state, a, b) if a != b else None
    l1, l2 = _leg(state, u, start, a), _leg(state, u, b, to)
    ships = [
        s for s in state.units.values() if s.side == u.side and counter(s).box_total("infantry") > 0
    ]
    hex_nm = _km(state) / NM_KM
    nt = table(state, "movement")["naval"]
    rate = max(
        (mv.naval_rate(counter(s).subtype or "auxiliary", hex_nm=hex_nm, table_=nt) for s in ships),
        default=mv.naval_rate("auxiliary", hex_nm=hex_nm, table_=nt),
    )
    if sea is None or l1 is None or l2 is None:
        return []
    sail = max(1, math.ceil((len(sea) - 1) / rate))
    return [
        _row(
            state,
            "sealift",
            l1[0] + sail + 1 + l2[0],
            l1[1] + len(sea) - 1 + l2[1],
            overheads="embark in port at the start of a turn; offload + one full turn in RSO&I (5.1.1.2)",
            notes=f"{state.map.label(a)} -> {state.map.label(b)} at {rate} hexes a turn"
            + ("" if ships else " (no sealift ship yet: auxiliary rate)"),
            rule="5.1.1.2",
        )
    ]


# -- rings ----------------------------------------------------------------------------------------------
def _ring(
    state: StateLike, label: str, kind: str, hexes: int, colour: str, **extra: Any
) -> dict[str, Any]:
    km = hexes * _km(state)
    return {
        "label": label,
        "kind": kind,
        "hexes": int(hexes),
        "km": round(km, 1),
        "nm": round(km / NM_KM, 1),
        "colour": colour,
        **extra,
    }


def rings(game_or_view: Any, unit: Any) -> list[dict[str, Any]]:
    """Range rings of *unit*: dicts with ``label``, ``kind`` (weapon, sensor, umbrella, radius,
    command), ``hexes`` (radius), ``km``, ``nm``, ``colour``, and ``centre`` (a hex label: the
    fuel source for combat radius rings)."""
    state, u = _state_and_unit(game_or_view, unit)
    c = counter(u)
    centre = state.map.label(u.hex) if u.hex is not None else None
    out: list[dict[str, Any]] = []
    for a in c.attacks:
        flags = " ".join(sorted(a.flags))
        out.append(
            _ring(
                state,
                f"{a.die.upper()} vs {'/'.join(a.targets)} ({a.id}, {a.left}/{a.count})"
                + (f" {flags}" if flags else ""),
                "weapon",
                a.range,
                COLOURS[a.die],
                centre=centre,
                rule="2.2.2.1",
            )
        )
    for g in c.shields:
        if g.range:
            out.append(
                _ring(
                    state,
                    f"air-defence umbrella, grey {g.value}{' BMD' if g.bmd else ''}",
                    "umbrella",
                    g.range,
                    RING_COLOURS["umbrella"],
                    centre=centre,
                    rule="2.2.7.4",
                )
            )
    for sn in c.d.get("sensors", ()):
        out.append(
            _ring(
                state,
                f"{sn['kind']} sensor {sn['die'].upper()}",
                "sensor",
                int(sn["range"]),
                RING_COLOURS["sensor"],
                centre=centre,
                rule="6.5.9",
            )
        )
    if c.category == "naval" and not c.d.get("sensors") and c.anti_air:
        out.append(
            _ring(
                state,
                "radar (anti-air missile range)",
                "sensor",
                max(a.range for a in c.anti_air),
                RING_COLOURS["sensor"],
                centre=centre,
                rule="6.5.9.4",
            )
        )
    if (
        c.combat_radius
        and c.tanker is None
        and (c.aircraft in ("fighter", "bomber") or c.mission in ("strike", "bomber"))
    ):
        src = _fuel_source(state, u)
        from owsnb.rules.ows.air import max_radius

        r = int(c.combat_radius)
        mult = 3 if (c.mission or "") in ("strike", "sead", "bomber") else 2
        sc = state.map.label(src) if src is not None else centre
        out.append(
            _ring(
                state,
                "combat radius (no tanker)",
                "radius",
                r,
                RING_COLOURS["radius"],
                centre=sc,
                source=c.base or "",
                rule="6.5.2",
            )
        )
        out.append(
            _ring(
                state,
                f"{mult}x with tanker or FARP",
                "radius",
                max_radius(r, c.mission or "cap"),
                RING_COLOURS["radius"],
                centre=sc,
                source=c.base or "",
                rule="6.5.3",
            )
        )
        if mult == 2 and c.aircraft == "fighter":
            out.append(
                _ring(
                    state,
                    "3x (a Strike mission) with tanker",
                    "radius",
                    3 * r,
                    RING_COLOURS["radius"],
                    centre=sc,
                    source=c.base or "",
                    rule="6.5.3",
                )
            )
    elif c.combat_radius:
        src = _fuel_source(state, u)
        out.append(
            _ring(
                state,
                "combat radius",
                "radius",
                int(c.combat_radius),
                RING_COLOURS["radius"],
                centre=state.map.label(src) if src is not None else centre,
                source=c.base or "",
                rule="6.5.2",
            )
        )
    if c.tanker is not None and c.tanker.get("radius") is not None:
        out.append(
            _ring(
                state,
                "tanker operating radius",
                "radius",
                int(c.tanker["radius"]),
                RING_COLOURS["radius"],
                centre=centre,
                rule="6.5.4",
            )
        )
    if c.category == "hq" and c.command_radius:
        out.append(
            _ring(
                state,
                "command radius (HQ effects)",
                "command",
                command_radius_hexes(state, u),
                RING_COLOURS["command"],
                centre=centre,
                rule="2.2.7.1",
            )
        )
    return out
