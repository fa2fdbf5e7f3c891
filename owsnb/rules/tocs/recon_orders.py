"""Orders that find things out in TOCS: reconnaissance chains (10.4), probes (10.5) and ZOC
declarations (L170-L173).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import mp_available
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.minefield_orders import learn_mines
from owsnb.rules.tocs.model import alive_on_map, enemy_of, owner, unit_types, units_in
from owsnb.rules.tocs.order_checks import (
    is_open,
    need_open,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce, connected_to_perimeter, take_hex
from owsnb.rules.tocs.positions import level_at, level_name
from owsnb.rules.tocs.roadblock_orders import learn_roadblock
from owsnb.rules.tocs.supply import facilities
from owsnb.rules.tocs.terrain import step_cost
from owsnb.rules.tocs.zoc import (
    declared_against,
    engaged,
    ezoc_at,
    ezoc_sources,
    learn_ezoc,
    zoc_of,
)

__all__ = ["Recon", "Probe", "DeclareZoc", "can_reconnoitre"]


_RECON_CLS = ("company", "hqcompany", "hq", "vehicle")


def can_reconnoitre(u: Any) -> bool:
    """May *u* reconnoitre or probe (L267, L277)? Batteries, dozers and gun assets never do."""
    return u.get("cls") in _RECON_CLS or (
        u.get("cls") == "asset" and (u.get("recon") or u.get("mobility") == "armored")
    )


def _chain_base(state: StateLike, u: Any) -> Any:
    """The hex *u*'s reconnaissance chain goes on from: its last hex, else the unit's own (L271)."""
    last = u.get("recon_last")
    return state.map.hex(last) if last else u.hex


def _add_mark(em: Emitter, side: str, key: str, lab: str, rule: str) -> None:
    """Add hex *lab* to *side*'s secret recon or probe marks (*key*)."""
    marks = set(em.state.sides[side].private.get(key, ()))
    em.private(side, rule=rule, **{key: sorted(marks | {lab})})


class Recon(OrderHandler):
    type = OrderType(
        "recon",
        (Param("unit", "unit"), Param("hex", "hex", "next hex of the reconnaissance chain")),
        rule="10.4",
        doc="project reconnaissance into a chain of adjacent hexes (1 AP starts or extends the chain)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units.values():
            if (
                u.side != side
                or not alive_on_map(u)
                or not is_open(u)
                or not can_reconnoitre(u)
                or engaged(state, u.hex)
            ):
                continue
            base = _chain_base(state, u)
            for n in base.neighbours():
                if (
                    n in state.map.hexes
                    and owner(state, n) != side
                    and step_cost(state, u, base, n, road=False) < float("inf")
                ):
                    ex.append(self.type.make(side, unit=u.id, hex=state.map.label(n)))
        return spec_from_examples(side, self.type, ex, 30)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        need_open(u, order)
        if not can_reconnoitre(u):
            raise refuse(
                f"{u.id} cannot perform reconnaissance (batteries, dozers and gun assets never do)",
                "no-recon",
                "L267",
                order,
            )
        if engaged(state, u.hex):
            raise refuse(f"{u.id} is in an Engagement Battle", "engaged", "L246", order)
        h = args["hex"]
        base = _chain_base(state, u)
        if h.distance(base) != 1:
            raise refuse(
                f"{state.map.label(h)} is not adjacent to {state.map.label(base)} (the chain goes hex by hex)",
                "not-adjacent",
                "L271",
                order,
            )
        if owner(state, h) == u.side:
            raise refuse(
                f"{state.map.label(h)} is inside your own perimeter",
                "own-hex",
                "L268",
                order,
            )
        cost = step_cost(state, u, base, h, road=False)
        if cost == float("inf"):
            raise refuse(
                f"reconnaissance cannot enter {state.map.label(h)} (a Move could not)",
                "impassable",
                "L267",
                order,
            )
        have = mp_available(u, "recon_mp")
        if have + 1e-9 < cost:
            raise refuse(
                f"{u.id} needs {cost:g} MP of reconnaissance for {state.map.label(h)}; it has {have:g}",
                "no-mp",
                "L267",
                order,
            )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = enemy_of(state, side)
        u = args["unit"]
        h = args["hex"]
        lab = state.map.label(h)
        base = _chain_base(state, u)
        cost = step_cost(state, u, base, h, road=False)
        mp, ap = float(u.get("recon_mp", 0)), int(u.get("ap", 0))
        while mp + 1e-9 < cost:
            ap -= 1
            mp += float(u.get("mp", 0))
        occupied = bool(units_in(state, h, enemy))
        _add_mark(em, side, "recon_marks", lab, "L273")
        em.data(
            u.id,
            rule="10.4",
            ap=ap,
            recon_mp=0 if occupied else mp - cost,
            recon_last=None if occupied else lab,
            acted=True,
            scouted=sorted(
                {*(u.get("scouted") or ()), lab}
            ),  # L274-L275: it sets the battle's length
        )
        _reveal_fixed(em, side, h)
        if occupied:
            announce(
                em,
                f"Reconnaissance into {lab}: enemy occupied",
                rule="L270",
                hex=lab,
                answer="occupied",
            )
            return em.events
        kinds = ezoc_at(state, side, h)
        if kinds:
            learn_ezoc(em, side, h, True, "L272")
            announce(
                em,
                f"Reconnaissance into {lab}: empty, in EZOC",
                rule="L272",
                hex=lab,
                answer="empty, EZOC",
            )
        else:
            if lab in declared_against(state, side):
                learn_ezoc(em, side, h, False, "L172")
            announce(em, f"Reconnaissance into {lab}: empty", rule="L272", hex=lab, answer="empty")
            if connected_to_perimeter(em.state, side, h):
                take_hex(em, side, h, rule="L272", why="reconnaissance found it empty")
        return em.events


def _reveal_fixed(em: Emitter, side: str, h: Any) -> None:
    """Fixed features of a reconnoitred hex are announced (L269-L270): facilities and improved
    positions (10.9)."""
    s = em.state
    lab = s.map.label(h)
    enemy = enemy_of(s, side)
    if lab in set(s.sides[enemy].private.get("roadblocks", ())) and not units_in(
        s, h, enemy
    ):  # L293: empty hexes
        learn_roadblock(em, side, h, rule="L293")
        em.say(
            f"A roadblock is found in {lab}",
            rule="L293",
            visible_to=None,
            hex=lab,
            announcement=True,
        )
    if lab in set(s.sides[enemy].private.get("minefields", ())):  # L298
        learn_mines(em, side, h, rule="L298")
        em.say(
            f"A minefield is found in {lab}",
            rule="L298",
            visible_to=None,
            hex=lab,
            announcement=True,
        )
    lv = level_at(s, enemy, h)
    if lv:
        em.say(
            f"An improved position ({level_name(s, lv)}) is found in {lab}",
            rule="L269",
            visible_to=None,
            hex=lab,
            announcement=True,
        )
    known = [dict(f) for f in s.sides[side].private.get("facilities_known", ())]
    for f in facilities(s):
        if (
            f["hex"] == lab
            and f.get("side") != side
            and not any(k["hex"] == lab and k["type"] == f["type"] for k in known)
        ):
            known.append({"hex": lab, "type": f["type"], "name": f.get("name", "")})
            em.private(side, rule="L269", facilities_known=known)
            em.say(f"A {f['type']} is found in {lab}", rule="L269", visible_to=None, hex=lab)


class Probe(OrderHandler):
    type = OrderType(
        "probe",
        (Param("unit", "unit"), Param("hex", "hex", "an adjacent enemy hex")),
        rule="10.5",
        doc="1 AP: learn whether an adjacent enemy hex is empty, occupied (and by what types) or in EZOC",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = [
            self.type.make(side, unit=u.id, hex=state.map.label(n))
            for u in state.units.values()
            if u.side == side
            and alive_on_map(u)
            and is_open(u)
            and int(u.get("ap", 0)) >= 1
            and can_reconnoitre(u)
            and not engaged(state, u.hex)
            for n in u.hex.neighbours()
            if n in state.map.hexes and owner(state, n) != side
        ]
        return spec_from_examples(side, self.type, ex, 30)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        need_open(u, order)
        if not can_reconnoitre(u):
            raise refuse(f"{u.id} cannot probe", "no-recon", "L277", order)
        h = args["hex"]
        if h.distance(u.hex) != 1 or owner(state, h) == u.side:
            raise refuse(
                f"{state.map.label(h)} is not an adjacent enemy hex",
                "not-adjacent",
                "L277",
                order,
            )
        if int(u.get("ap", 0)) < 1:
            raise refuse(f"{u.id} has no AP left", "no-ap", "L277", order)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = enemy_of(state, side)
        u = args["unit"]
        h = args["hex"]
        lab = state.map.label(h)
        em.data(
            u.id,
            rule="10.5",
            ap=int(u.get("ap", 0)) - 1,
            acted=True,
            scouted=sorted({*(u.get("scouted") or ()), lab}),  # L280: it sets the battle's length
        )
        _add_mark(em, side, "probe_marks", lab, "L278")
        _reveal_fixed(em, side, h)
        occ = units_in(state, h, enemy)
        for x in occ:  # L337-338: a probe cancels reserve and refit
            if x.get("reserve") or x.get("refit"):
                em.data(x.id, rule="L337", reserve=False, refit=False)
        kinds = ezoc_at(state, side, h)
        if kinds:
            learn_ezoc(em, side, h, True, "L277")
        if occ:
            types = ", ".join(unit_types(occ))
            size = state.options.get("probe_reveals", "types") == "size"  # L276 v L278
            extra = {"units": len(occ)} if size else {}
            announce(
                em,
                f"Probe into {lab}: occupied by {types}"
                + (f" ({len(occ)} units)" if size else "")
                + ("; in EZOC" if kinds else ""),
                rule="L276" if size else "L277",
                hex=lab,
                answer="occupied",
                types=unit_types(occ),
                **extra,
            )
        else:
            announce(
                em,
                f"Probe into {lab}: empty" + (", in EZOC" if kinds else ""),
                rule="L277",
                hex=lab,
                answer="empty",
            )
            if not kinds:
                take_hex(em, side, h, rule="L278", why="probe found it empty")
        return em.events


class DeclareZoc(OrderHandler):
    type = OrderType(
        "zoc",
        (Param("hex", "hex", "hex your Company projects ZOC into"),),
        rule="L170",
        doc="declare ZOC in a hex (any time); it stands until disproved",
        actors="any",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if side not in state.sides:
            return None
        hexes = sorted(
            {
                state.map.label(h)
                for u in state.units.values()
                if u.side == side
                for h in zoc_of(state, u)
            }
            - set(state.sides[side].private.get("zoc_declared", ()))
        )
        return (
            OrderSpec(
                side,
                self.type,
                FrozenDict(hex=tuple(hexes)),
                tuple(self.type.make(side, hex=x) for x in hexes[:6]),
            )
            if hexes
            else None
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        if order.side not in state.sides:
            raise refuse("only a side declares ZOC", "not-a-side", "L170", order)
        h = args["hex"]
        enemy = enemy_of(state, order.side)
        if not ezoc_sources(state, enemy, h):
            raise refuse(
                f"none of your Companies can exert ZOC into {state.map.label(h)} (a false EZOC is a rules breach)",
                "no-zoc",
                "L173",
                order,
            )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = enemy_of(state, side)
        lab = state.map.label(args["hex"])
        mine = set(state.sides[side].private.get("zoc_declared", ()))
        em.private(side, rule="L170", zoc_declared=sorted(mine | {lab}))
        learn_ezoc(em, enemy, state.map.hex(lab), True, "L170")
        announce(em, f"{state.sides[side].title} declares ZOC in {lab}", rule="L170", hex=lab)
        return em.events
