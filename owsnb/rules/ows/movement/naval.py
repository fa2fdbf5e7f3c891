"""Naval movement (6.2-6.4.5, 6.5.10.4): where ships and submarines may go, how a naval move is
walked, naval postures and mine warfare.

Paragraphs: 6.2 moving through detected enemy naval units lets the non-mover halt the move (an
*intercept* posture, on by default); 6.4 naval rates (CVN 4, surface 3, auxiliary 2, patrol craft
2, SSN/SSGN/SSBN 3, SSK 2 operational hexes); 6.4.1.1 patrol craft stay within 2 hexes of a
friendly port or mother ship (6.4.1.2: diesel subs are not limited); 6.4.2 subs move 2/1 without
cavitating; 6.4.2.1 Silent Running (a sub that stays; removed when it moves); 6.4.2.2 Cavitation
(moving 3/2); 6.4.3 Active EMCON (emitting = face up, detected); 6.4.4 ASW mode (lost when moving
more than 1 hex); 6.4.5 mines [optional]: secret laying (6.4.5.1), detection, mine strikes (D6/D8
vs the red shield, criticals, 6.4.5.2), sweeping (6.4.5.3); 5.1.1.2 cargo moves with its ship and
offloads at a friendly port; 6.5.10.4 SUCAP attacks a ship moving through its zone by the naval
combat rules (its salvos against the ship's own grey shields, then the red shield), halts it if it
hits and is then expended for the turn.

>>> dict(mine_preview("d8", 5))[0]
Fraction(1, 2)"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, state_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex, reachable, search
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows import salvos
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    legal_examples,
    option,
    table,
    watchers,
)
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import parse_die, sides
from owsnb.rules.ows.movement.basics import (
    NAVAL_CATEGORIES,
    SUBS,
    _hex_nm,
    _moved,
    _movement_table,
    _naval_hexes_moved,
    _watching,
    cargo_of,
    friendly_port,
    is_water,
    naval_rate,
)
from owsnb.rules.ows.units import counter


# -- naval reach (6.4, 6.4.1.1) ----------------------------------------------------------------------
def naval_reach(
    state: StateLike, unit: Any, *, side: str | None = None, flank: bool | None = None
) -> dict[Hex, int]:
    """Hexes a ship or submarine can reach this turn (6.4): sea and port hexes within its rate;
    patrol craft within 2 hexes of a friendly port or mother ship (6.4.1.1). ``flank`` for subs:
    ``False`` = without cavitating (6.4.2), ``None``/``True`` = up to the flank rate."""
    if unit.hex is None:
        return {}
    c = counter(unit)
    nt = _movement_table(state)["naval"]
    normal = flank is False and c.subtype in SUBS
    rate = naval_rate(
        c.subtype or nt.get("default", "surface"), hex_nm=_hex_nm(state), normal=normal, table_=nt
    )
    hexes = state.map.hexes
    r = reachable(
        unit.hex,
        rate,
        passable=lambda n: n in hexes and (is_water(state, n) or "port" in hexes[n].features),
    )
    dist = {h: int(d) for h, d in r.cost.items()}
    if c.subtype == "patrol":
        leash = int(nt.get("patrol_leash", 2))
        anchors = _patrol_anchors(state, unit)
        dist = {h: d for h, d in dist.items() if any(h.distance(a) <= leash for a in anchors)}
    return dist


def _patrol_anchors(state: StateLike, unit: Any) -> list[Hex]:
    out = [h for h in state.map.hexes if friendly_port(state, h, unit.side)]
    out += [
        u.hex
        for u in state.units.values()
        if u.side == unit.side
        and u.hex is not None
        and u.id != unit.id
        and u.data.get("mother_ship")
    ]
    return out


def _sea_path(state: StateLike, unit: Any, to: Hex, reach: Mapping[Hex, int]) -> list[Hex] | None:
    """A shortest path inside *reach* (breadth first, deterministic); ``None`` if none stays
    inside it (a patrol craft's leash keeps *to* but can cut the ways there, 6.4.1.1)."""

    def moves(h: Hex, d: int) -> Iterator[tuple[Hex, int]]:
        for n in h.neighbours():
            if n in reach and reach[n] == reach[h] + 1:
                yield n, d + 1

    found = search(unit.hex, moves, zero=0, goal=lambda h, d: h == to, fifo=True)
    return list(found.path_to(to)) if to in found else None


# -- adjudication (6.2, 6.4, 6.4.2, 6.4.4, 6.4.5.2, 5.1.1.2) ---------------------------------------
def _naval_move(
    state: GameState, plan: Mapping[str, Any], dice: Any, args: Mapping[str, Any]
) -> Adjudication:
    u = plan["unit"]
    c = counter(u)
    path: list[Hex] = plan["path"]
    roll = Roller(dice)
    own = frozenset({u.side})
    events: list[Event] = []
    lines: list[str] = []
    rules = ["6.3", "6.4"]
    walked = [path[0]]
    mines = _minefields(state)
    visible = _visible_minefields(state)
    halted = None
    hits_taken = 0
    for h in path[1:]:
        walked.append(h)
        lab = state.map.label(h)
        # 6.2: detected by enemy naval units with the intercept posture in the hex
        interceptors = [
            e
            for e in state.units.values()
            if e.side != u.side
            and e.hex == h
            and e.alive
            and counter(e).category in NAVAL_CATEGORIES
            and e.data.get("intercept", True)
        ]
        if interceptors and (
            c.category == "naval" or any(x.side in u.seen_by for x in interceptors)
        ):
            halted = f"intercepted in {lab} by {interceptors[0].side} (6.2)"
            foes = {x.side for x in interceptors}
            events.append(unit_set(u.id, seen_by=u.seen_by | foes, rule="6.2", visible_to=None))
            for x in interceptors:
                if counter(x).category == "naval":
                    events.append(
                        unit_set(x.id, seen_by=x.seen_by | {u.side}, rule="8.3.2", visible_to=None)
                    )
            rules.append("6.2")
            break
        sev, n, sucap = _sucap(
            state, u, h, roll
        )  # 6.5.10.4: SUCAP attacks a ship moving through its zone
        if sucap is not None:
            events += sev
            rules.append("6.5.10.4")
            hits_taken += n
            if n:
                halted = f"attacked by SUCAP {sucap.id} in {lab}: {n} hit(s)"
                break
            lines.append(f"SUCAP {sucap.id} attacks in {lab}: no hit")
        mf = mines.get(lab)
        if mf and mf.get("side") != u.side and option(state, "mines"):
            die = parse_die(mf.get("die") or table(state, "movement")["mines"]["die"])
            r = roll(
                die,
                f"mine strike on {u.id} entering {lab} vs red shield {c.red_shield}",
                "6.4.5.2",
                None,
            )
            n = _hits(r, c.red_shield)
            rules.append("6.4.5.2")
            if lab not in visible:
                visible[lab] = {"side": mf.get("side"), "die": die}
                events.append(state_set("public", {"minefields": visible}, rule="6.4.5.2"))
            events.append(
                unit_set(
                    u.id, seen_by=u.seen_by | {mf.get("side")}, rule="6.4.5.2", visible_to=None
                )
            )
            if n:
                hev, lost, _ = apply_hits(
                    state, u, n, rule="6.4.5.2", cause="mine", visible_to=None
                )
                events += hev
                hits_taken += n
                halted = f"mine strike in {lab}: {n} hit(s)"
                break
            lines.append(f"mine attack in {lab}: d{sides(die)} = {r}, no hit")
    final = walked[-1]
    moved_hexes = len(walked) - 1
    markers = set(u.markers)
    gone = []
    if moved_hexes and "silent-running" in markers:
        markers.discard("silent-running")
        gone.append("Silent Running removed (6.4.2.1)")
    nt = _movement_table(state)["naval"]
    if c.subtype in SUBS:
        normal = naval_rate(c.subtype, hex_nm=_hex_nm(state), normal=True, table_=nt)
        if moved_hexes > normal:
            markers.add("cavitation")
            gone.append("flank speed: Cavitation (6.4.2.2)")
            rules.append("6.4.2.2")
    total = _naval_hexes_moved(state, u) + moved_hexes
    if "asw" in markers and total > int(nt.get("asw_max_hexes", 1)):
        markers.discard("asw")
        gone.append("moved more than 1 hex: ASW mode lost (6.4.4)")
        rules.append("6.4.4")
    revealed = any(
        e.kind == "unit.set" and e.data.get("id") == u.id and "seen_by" in e.data["changes"]
        for e in events
    )
    vis = None if revealed else watchers(state, u)
    mv = [
        unit_move(u.id, final, path=tuple(walked), rule="6.4", visible_to=vis),
        unit_set(
            u.id,
            markers=frozenset(markers),
            data={"moved": _moved(state, u, moved_hexes, "3.A.1")},
            rule="6.4",
            visible_to=vis,
        ),
    ]
    # cargo moves with its ship (5.1.1.2)
    cargo = cargo_of(state, u)
    for x in cargo:
        mv.append(
            unit_set(
                x.id,
                data={"moved": _moved(state, x, moved_hexes, "3.A.1")},
                rule="5.1.1.2",
                visible_to=own,
            )
        )
    events = mv + events
    lines = [f"{u.id} moves {moved_hexes} hex(es) to {state.map.label(final)}", *gone, *lines]
    if halted:
        lines.append(f"halted: {halted}")
    # offload at a friendly port (5.1.1.2)
    from owsnb.rules.ows import strategic as _s

    if cargo and friendly_port(state, final, u.side) and not halted:
        from owsnb.kernel.reduce import apply_all

        s2 = apply_all(state, events)
        off, more = _s.offload(s2, s2.units[u.id], dice, rule="5.1.1.2")
        events += off
        lines += more
        rules.append("5.1.1.2")
    res = Result(
        f"{u.id} moves to {state.map.label(final)}",
        {
            "to": state.map.label(final),
            "hexes": moved_hexes,
            "halted": halted,
            "mine_hits": hits_taken,
        },
        list(dict.fromkeys(rules)),
        roll.rolls,
        lines,
    )
    return Adjudication(events, res)


# -- SUCAP on a naval mover (6.5.10.4) ----------------------------------------------------------------
def sucap_plans(state: StateLike, sucap: Any, ship: Any) -> list[Any]:
    """6.5.10.4 / 6.5.10.2: a SUCAP mission's attack on a ship moving through its zone, resolved by
    the naval combat rules: its anti-ship salvos against the ship's own grey shields (9.2.1, every
    shield committed) and then its red shield (criticals, 2.1.1.3)."""
    dice_ = [
        a.die
        for a in counter(sucap).attacks
        if not a.air_to_air and a.can_hit("naval")
        for _ in range(a.left)
    ]
    shields = [
        {"value": g.value, "bmd": g.bmd} for g in counter(ship).shields for _ in range(g.left)
    ]
    return salvos.allocate(
        dice_,
        shields,
        excess=option(state, "excess_shields"),
        red=counter(ship).red_shield,
        critical=option(state, "critical_hits") == "red-shield",
        hgv_defendable=option(state, "hgv_defendable"),
    )


def sucap_preview(state: StateLike, sucap: Any, ship: Any) -> Distribution:
    """Exact hits a SUCAP mission scores on a ship moving through its zone (6.5.10.4)."""
    return salvos._sum(p.distribution() for p in sucap_plans(state, sucap, ship)).map(
        lambda x: x, label=f"hits on {ship.id} by {sucap.id} (6.5.10.4)"
    )


def _sucap(state: GameState, u: Any, h: Hex, roll: Roller) -> tuple[list[Event], int, Any]:
    """6.5.10.4: a ship entering an enemy SUCAP mission's zone is attacked once by it; the mission
    is then expended; the ship's grey shields are spent. Returns events, hits and the mission."""
    m = _watching(state, u, h, "sucap")
    if m is None:
        return [], 0, None
    hits = sum(
        salvos._roll_salvo(roll, p, None, f"{m.id} salvo at {u.id}")
        for p in sucap_plans(state, m, u)
    )
    cu, cm = counter(u), counter(m)
    ev = [
        unit_set(
            u.id,
            seen_by=u.seen_by | {m.side},
            data={"spent": {**cu.spent, **{g.key: g.count for g in cu.shields}}},
            rule="6.5.10.4",
            visible_to=None,
        ),
        unit_set(
            m.id,
            seen_by=m.seen_by | {u.side},
            markers=m.markers | {"expended"},
            data={
                "spent": {**cm.spent, **{a.key: a.count for a in cm.attacks if not a.air_to_air}}
            },
            rule="6.5.10.4",
            visible_to=None,
        ),
    ]
    if hits:
        from owsnb.kernel.reduce import apply_all

        after = apply_all(state, ev)
        ev += apply_hits(
            after, after.units[u.id], hits, rule="6.5.10.4", cause="air", visible_to=None
        )[0]
    return ev, hits, m


# -- naval postures (6.4.2.1, 6.4.3, 6.4.4, 6.2) ------------------------------------------------------
class _UnitPosture(OrderHandler):
    """A posture order on one unit, offered in :attr:`steps`; by default it places :attr:`marker`."""

    steps: tuple[str, ...] = ("3.A.1",)
    marker = ""
    title = ""
    effect = ""

    def _units(self, state: StateLike, side: str) -> list[Any]:
        return []

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u = args["unit"]
        rule = self.type.rule
        ev = [
            unit_set(
                u.id, markers=u.markers | {self.marker}, rule=rule, visible_to=watchers(state, u)
            )
        ]
        return Adjudication(
            ev, Result(f"{u.id} {self.title}", {"unit": u.id}, [rule], [], [self.effect])
        )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if state.clock.step not in self.steps:
            return None
        ex = legal_examples(self, state, side, ({"unit": u.id} for u in self._units(state, side)))
        return (
            OrderSpec(
                side, self.type, FrozenDict(unit=tuple(o.args[0] for o in ex)), tuple(ex[:10])
            )
            if ex
            else None
        )


class SilentRunning(_UnitPosture):
    """6.4.2.1: a submarine that stays in its hex may go to Silent Running."""

    type = OrderType(
        "silent-running",
        (Param("unit", "unit", "submarine that stays in its hex"),),
        rule="6.4.2.1",
        doc="place a submarine in Silent Running",
    )
    marker, title = "silent-running", "in Silent Running"
    effect = "detection against it demoted; its own sensing promoted (6.4.2.1)"

    def _units(self, state: StateLike, side: str) -> list[Any]:
        return [
            u
            for u in state.units_of(side)
            if counter(u).category == "submarine" and u.hex is not None
        ]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["unit"]  # bound: the side's unit alive on the map
        if counter(u).category != "submarine":
            raise refuse(f"{u.id} is not a submarine", "not-sub", "6.4.2.1", order)
        if _naval_hexes_moved(state, u) > 0:
            raise refuse(
                f"{u.id} has moved this turn: Silent Running is for a submarine that stays in its hex",
                "moved",
                "6.4.2.1",
                order,
            )
        if "silent-running" in u.markers:
            raise refuse(f"{u.id} is already in Silent Running", "already", "6.4.2.1", order)


class Emcon(_UnitPosture):
    """6.4.3: decide per counter whether it emits (face up, detected, TACSIT 1) or stays silent."""

    type = OrderType(
        "emcon",
        (
            Param("unit", "unit", "ship, ground unit or aircraft"),
            Param(
                "state",
                "choice",
                "emit (active) or silent",
                optional=True,
                choices=("emit", "silent"),
            ),
        ),
        rule="6.4.3",
        doc="active EMCON: emit (face up, detected) or go silent",
    )
    steps = ("3.A.1", "3.B.1")

    def _units(self, state: StateLike, side: str) -> list[Any]:
        return [
            u
            for u in state.units_of(side)
            if u.hex is not None and (counter(u).sensors or counter(u).shields)
        ][:10]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["unit"]  # bound: the side's unit alive on the map
        if counter(u).category in ("sof", "air-base", "asp", "infrastructure"):
            raise refuse(f"{u.id} has no emitter to switch", "no-emitter", "6.4.3", order)

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u = args["unit"]
        emit = (args.get("state") or ("silent" if "emitting" in u.markers else "emit")) == "emit"
        if emit:
            ev = [
                unit_set(
                    u.id, markers=u.markers | {"emitting", "tacsit1"}, rule="6.4.3", visible_to=None
                )
            ]
            line = f"{u.id} emits: face up, detected and targetable (TACSIT 1)"
        else:
            after = u.evolve(markers=u.markers - {"emitting"})
            from owsnb.kernel.reduce import apply as _apply

            s2 = _apply(state, unit_set(u.id, markers=after.markers))
            ev = [
                unit_set(
                    u.id,
                    markers=after.markers,
                    rule="6.4.3",
                    visible_to=watchers(s2, s2.units[u.id]),
                )
            ]
            line = f"{u.id} goes silent (EMCON)"
        return Adjudication(
            ev, Result(line, {"unit": u.id, "emitting": emit}, ["6.4.3"], [], [line])
        )


class AswMode(_UnitPosture):
    """6.4.4: place a unit with an ASW die in ASW mode (lost if it moves more than 1 hex)."""

    type = OrderType(
        "asw-mode",
        (Param("unit", "unit", "unit with an ASW (submarine) die"),),
        rule="6.4.4",
        doc="place a unit in ASW mode",
    )
    marker, title = "asw", "in ASW mode"
    effect = "may roll to detect submarines in its hex in the ISR phase (6.4.4)"

    def _units(self, state: StateLike, side: str) -> list[Any]:
        return [
            u
            for u in state.units_of(side)
            if u.hex is not None and counter(u).asw is not None and "asw" not in u.markers
        ]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["unit"]  # bound: the side's unit alive on the map
        if counter(u).asw is None:
            raise refuse(
                f"{u.id} has no ASW capability (red submarine silhouette, 8.5.2)",
                "no-asw",
                "6.4.4",
                order,
            )
        if "asw" in u.markers:
            raise refuse(f"{u.id} is already in ASW mode", "already", "6.4.4", order)
        nt = _movement_table(state)["naval"]
        if _naval_hexes_moved(state, u) > int(nt.get("asw_max_hexes", 1)):
            raise refuse(
                f"{u.id} moved more than {nt.get('asw_max_hexes', 1)} hex this turn: no ASW mode (6.4.4)",
                "moved",
                "6.4.4",
                order,
            )


class Intercept(_UnitPosture):
    """6.2: set whether a unit halts detected enemy naval movers entering its hex (default: yes)."""

    type = OrderType(
        "intercept",
        (
            Param("unit", "unit", "own naval unit"),
            Param(
                "posture", "choice", "on (halt movers) or off", optional=True, choices=("on", "off")
            ),
        ),
        rule="6.2",
        doc="intercept posture: halt detected enemy movers in this unit's hex",
    )
    steps = ("3.A.1", "3.B.1")

    def _units(self, state: StateLike, side: str) -> list[Any]:
        return [
            u
            for u in state.units_of(side)
            if u.hex is not None and counter(u).category in NAVAL_CATEGORIES
        ][:6]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["unit"]  # bound: the side's unit alive on the map
        if counter(u).category not in NAVAL_CATEGORIES:
            raise refuse(f"{u.id} is not a naval unit", "not-naval", "6.2", order)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u = args["unit"]
        on = (args.get("posture") or ("off" if u.data.get("intercept", True) else "on")) == "on"
        ev = [unit_set(u.id, data={"intercept": on}, rule="6.2", visible_to=frozenset({u.side}))]
        return Adjudication(
            ev, Result(f"{u.id} intercept {'on' if on else 'off'}", {"intercept": on}, ["6.2"])
        )


# -- mines (6.4.5, optional) ------------------------------------------------------------------------


def mine_preview(die: str, red_shield: int) -> Distribution:
    """6.4.5.2: hits a mine attack scores against a red shield, criticals apply (R2).

    >>> dict(mine_preview("d6", 3))
    {0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}
    """
    n = sides(die)
    return Distribution.die(n).map(
        lambda r: _hits(r, red_shield), label=f"mine hits ({parse_die(die)} vs {red_shield})"
    )


def _mines_in_play(state: StateLike, order: Order) -> None:
    """Refuse a mine order when the scenario does not use the optional mine rules (6.4.5)."""
    if not option(state, "mines"):
        raise refuse(
            "mine warfare is an optional rule this scenario does not use (6.4.5)",
            "option-off",
            "6.4.5",
            order,
        )


def _minefields(state: StateLike) -> dict[str, dict]:
    return dict(thaw(state.secret.get("minefields") or {})) if hasattr(state, "secret") else {}


def _visible_minefields(state: StateLike) -> dict[str, dict]:
    return dict(thaw(state.public.get("minefields") or {}))


class LayMines(_UnitPosture):
    """6.4.5.1: a mine-capable ship lays mines in its hex (noted secretly); an adversary detection
    asset in the hex rolls to see it."""

    type = OrderType(
        "lay-mines",
        (Param("unit", "unit", "mine-capable ship"),),
        rule="6.4.5.1",
        doc="lay a minefield in the ship's hex (secret)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        return super().candidates(state, side) if option(state, "mines") else None

    def _units(self, state: StateLike, side: str) -> list[Any]:
        return [u for u in state.units_of(side) if u.hex is not None and u.data.get("mine_capable")]

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        _mines_in_play(state, order)
        u = args["unit"]  # bound: the side's unit alive on the map
        if not u.data.get("mine_capable"):
            raise refuse(f"{u.id} cannot lay mines", "not-mine-capable", "6.4.5.1", order)
        if int(u.data.get("mines_laid_turn", 0) or 0) == state.clock.turn:
            raise refuse(f"{u.id} has already laid mines this turn", "already", "6.4.5.1", order)
        if not is_water(state, u.hex):
            raise refuse("mines are laid at sea", "not-sea", "6.4.5.1", order)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u = args["unit"]
        lab = state.map.label(u.hex)
        mt = _movement_table(state)["mines"]
        die = parse_die(u.data.get("mine_die") or mt["die"])
        fields = _minefields(state)
        fields[lab] = {"side": u.side, "die": die}
        ev: list[Event] = [
            state_set("secret", {"minefields": fields}, rule="6.4.5.1"),
            unit_set(
                u.id,
                data={"mines_laid_turn": state.clock.turn},
                rule="6.4.5.1",
                visible_to=watchers(state, u),
            ),
        ]
        roll = Roller(dice)
        seen = False
        for foe in sorted(
            {
                e.side
                for e in state.units.values()
                if e.side != u.side
                and e.hex == u.hex
                and e.alive
                and (counter(e).sensors or counter(e).asw is not None)
            }
        ):
            r = roll(
                mt["detection_die"],
                f"{foe} detection of mine laying in {lab}",
                "6.4.5.1",
                frozenset({foe, u.side}),
            )
            if r >= int(mt["detection_target"]):
                seen = True
        if seen:
            vis = _visible_minefields(state)
            vis[lab] = {"side": u.side, "die": die}
            ev.append(state_set("public", {"minefields": vis}, rule="6.4.5.1"))
        return Adjudication(
            ev,
            Result(
                f"mines laid in {lab}",
                {"hex": lab, "detected": seen},
                ["6.4.5.1"],
                roll.rolls,
                ["the minefield is visible" if seen else "laid in secret"],
            ),
        )


class SweepMines(OrderHandler):
    """6.4.5.3: a minesweeper in or next to a known minefield rolls to clear it."""

    type = OrderType(
        "sweep-mines",
        (Param("unit", "unit", "minesweeper"), Param("hex", "hex", "minefield hex")),
        rule="6.4.5.3",
        doc="sweep a known minefield",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not option(state, "mines") or state.clock.step != "3.A.1":
            return None
        vis = _visible_minefields(state)
        ex = [
            self.type.make(side, unit=u.id, hex=lab)
            for u in state.units_of(side)
            if u.hex is not None and u.data.get("minesweeper")
            for lab, f in vis.items()
            if f.get("side") != side and state.map.hex(lab).distance(u.hex) <= 1
        ]
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _check(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Any, Hex]:
        _mines_in_play(state, order)
        u = args["unit"]  # bound: the side's unit alive on the map
        if not u.data.get("minesweeper"):
            raise refuse(f"{u.id} is not a minesweeper", "not-sweeper", "6.4.5.3", order)
        h = args["hex"]
        lab = state.map.label(h)
        if lab not in _visible_minefields(state):
            raise refuse(f"no known minefield in {lab}", "no-minefield", "6.4.5.3", order)
        if h.distance(u.hex) > 1:
            raise refuse(f"{u.id} must be in or next to {lab}", "too-far", "6.4.5.3", order)
        return u, h

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._check(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        mt = _movement_table(state)["mines"]
        from owsnb.rules.ows.dice import success_probability

        return Distribution.bernoulli(
            success_probability(mt["sweep_die"], int(mt["sweep_target"])), label="minefield cleared"
        )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, h = self._check(state, order, args)
        lab = state.map.label(h)
        mt = _movement_table(state)["mines"]
        roll = Roller(dice)
        r = roll(
            mt["sweep_die"], f"mine clearance in {lab} ({mt['sweep_target']}+)", "6.4.5.3", None
        )
        ok = r >= int(mt["sweep_target"])
        ev: list[Event] = []
        if ok:
            f = _minefields(state)
            f.pop(lab, None)
            v = _visible_minefields(state)
            v.pop(lab, None)
            ev = [
                state_set("secret", {"minefields": f}, rule="6.4.5.3"),
                state_set("public", {"minefields": v}, rule="6.4.5.3"),
            ]
        return Adjudication(
            ev,
            Result(
                f"sweep {lab}",
                {"cleared": ok},
                ["6.4.5.3"],
                roll.rolls,
                ["minefield cleared" if ok else "not cleared"],
            ),
        )
