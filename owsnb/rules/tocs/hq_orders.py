"""HQ-ordered actions of TOCS (1 AP of an activated HQ each): withdraw (10.3), extended deployment
(10.15), reserve (10.21) and rally (10.19), with the morale check they roll (L151).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import Distribution, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import unit_move
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import check_spend, hq_ap, order_hq, spend
from owsnb.rules.tocs.combat import destroy
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import (
    DISRUPTED,
    alive_on_map,
    enemy_of,
    hq_chain,
    improve,
    is_company,
    owner,
    state_of,
    units_in,
)
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    spec_from_examples,
    unit_choice_spec,
    units_spec,
)
from owsnb.rules.tocs.perimeter import announce, take_hex
from owsnb.rules.tocs.supply import trace
from owsnb.rules.tocs.terrain import enterable, step_cost
from owsnb.rules.tocs.zoc import declared_against, engaged

__all__ = ["Withdraw", "Extend", "Reserve", "Rally", "mc_distribution"]


def mc_distribution(ml: int, drm: int = 0) -> Distribution:
    """Exact chance of passing a morale check: 2d6 + DRM <= ML (L151)."""
    two = Distribution.die(6) + Distribution.die(6)
    return two.map(lambda r: r + drm <= ml, label=f"MC vs ML {ml}")


# -- ordered actions ---------------------------------------------------------------------------
class Withdraw(OrderHandler):
    type = OrderType(
        "withdraw",
        (
            Param("unit", "unit"),
            Param("to", "hex", "an adjacent hex"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.3",
        doc="HQ order (1 AP) + 1 OP: leave an Engagement Battle after a morale check",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = [
            self.type.make(side, unit=u.id, to=state.map.label(n))
            for u in state.units.values()
            if u.side == side and alive_on_map(u) and engaged(state, u.hex) and not u.get("act")
            for n in u.hex.neighbours()
            if n in state.map.hexes and enterable(state, u, n)
        ]
        return spec_from_examples(side, self.type, ex, 20)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "withdrawals are ordered in your Operational Impulse", "wrong-step", "L264", order
            )
        if not engaged(state, u.hex):
            raise refuse(f"{u.id} is not in an Engagement Battle", "not-engaged", "L264", order)
        if u.get("act"):
            raise refuse(f"{u.id} has already been activated", "already-activated", "L265", order)
        to = args["to"]
        if to.distance(u.hex) != 1 or step_cost(state, u, u.hex, to) == float("inf"):
            raise refuse(
                f"{state.map.label(to)} is not an adjacent hex {u.id} can enter",
                "not-adjacent",
                "L264",
                order,
            )
        order_hq(state, order, u, args.get("hq"), "10.3")
        check_spend(state, order.side, 1, order, "L265")

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        u = args["unit"]
        if u.get("recon") or u.get("mobility") == "armored":
            return Distribution.point(True, label="no MC (recon/armor)")
        return mc_distribution(int(u.get("ml", 7)))

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = enemy_of(state, side)
        u = args["unit"]
        hq = order_hq(state, order, u, args.get("hq"), "10.3")
        hq_ap(em, hq, "L264")
        frm, to = u.hex, args["to"]
        if not (u.get("recon") or u.get("mobility") == "armored"):
            r = sum(
                dice.roll_many(
                    2,
                    6,
                    purpose=f"withdrawal MC for {u.id} (ML {u.get('ml')})",
                    rule="L264",
                    visible_to=side,
                )
            )
            if r > int(u.get("ml", 7)):
                em.say(
                    f"{u.id} fails its withdrawal MC ({r} > ML {u.get('ml')}): no effect",
                    rule="L265",
                    visible_to=side,
                )
                return em.events
        spend(em, side, 1, rule="L265", what=f"withdraw {u.id}")
        em.data(u.id, rule="L265", act="closed", ap=0, withdrew=True)
        lab = state.map.label(to)
        if units_in(state, to, enemy) and not engaged(state, to):
            announce(em, f"A withdrawing unit is destroyed entering {lab}", rule="L266", hex=lab)
            destroy(em, u.id, rule="L266")
        else:
            em.emit(unit_move(u.id, to, path=(frm, to), visible_to=side, rule="L266"))
            if owner(state, to) not in (side,) and not engaged(state, to):
                take_hex(em, side, to, rule="L266", why="withdrawal")
        if not units_in(em.state, frm, side):
            em.hexfact(frm, rule="L266", engaged=None)
            if owner(em.state, frm) == side:
                em.hexfact(frm, rule="L266", owner=enemy)
            announce(
                em,
                f"The Engagement Battle in {state.map.label(frm)} ends: the hex is {state.sides[enemy].title}'s",
                rule="L266",
                hex=state.map.label(frm),
            )
        return em.events


class Extend(OrderHandler):
    type = OrderType(
        "extend",
        (
            Param("unit", "unit"),
            Param("facing", "hex", "adjacent hex the deployment faces"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.15",
        doc="HQ order (1 AP): a Company's ZOC covers 6 hexes two deep to its front",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = [
            self.type.make(side, unit=u.id, facing=state.map.label(u.hex.neighbours()[0]))
            for u in state.units.values()
            if u.side == side and alive_on_map(u) and is_company(u) and u.get("parent")
        ]
        return (
            OrderSpec(
                side, self.type, FrozenDict(unit=tuple(o.args[0] for o in ex)), tuple(ex[:10])
            )
            if ex
            else None
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse("ordered in your Operational Impulse", "wrong-step", "L309", order)
        if not is_company(u):
            raise refuse(f"{u.id} is not a Company", "not-company", "L309", order)
        f = args["facing"]
        if f not in u.hex.neighbours():
            raise refuse(
                f"{state.map.label(f)} is not adjacent to {u.id}",
                "not-adjacent",
                "L312",
                order,
            )
        order_hq(state, order, u, args.get("hq"), "10.15")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        hq = order_hq(state, order, u, args.get("hq"), "10.15")
        hq_ap(em, hq, "L309")
        d = u.hex.neighbours().index(args["facing"])
        em.data(u.id, rule="L309", ext_dir=d)
        em.say(
            f"{u.id} in Extended Deployment facing {state.map.label(args['facing'])}",
            rule="L312",
            visible_to=order.side,
        )
        return em.events


class Reserve(OrderHandler):
    type = OrderType(
        "reserve",
        (
            Param("unit", "unit"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.21",
        doc="HQ order (1 AP) + 1 prepaid OP: the unit waits to act free in Reserve Commitment/Exploitation",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ids = units_spec(
            state,
            side,
            lambda u: (
                not u.get("act")
                and not u.get("reserve")
                and u.get("parent")
                and u.get("cls") not in ("hq", "aircraft", "naval")
                and not engaged(state, u.hex)
            ),
        )
        return unit_choice_spec(side, self.type, ids)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse("ordered in your Operational Impulse", "wrong-step", "L334", order)
        if u.get("act") or u.get("reserve"):
            raise refuse(
                f"{u.id} is already activated or in reserve", "already-activated", "L334", order
            )
        if engaged(state, u.hex) or state.map.label(u.hex) in declared_against(state, u.side):
            raise refuse(f"{u.id} is in EZOC or engaged", "in-ezoc", "L334", order)
        order_hq(state, order, u, args.get("hq"), "10.21")
        check_spend(state, order.side, 1, order, "L334")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        hq = order_hq(state, order, u, args.get("hq"), "10.21")
        hq_ap(em, hq, "L334")
        spend(em, order.side, 1, rule="L334", what=f"prepay reserve {u.id}")
        em.data(u.id, rule="L334", reserve=True)
        return em.events


class Rally(OrderHandler):
    type = OrderType(
        "rally",
        (
            Param("hex", "hex", "hex of the units to rally"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.19",
        doc="HQ order (1 AP per hex): Disrupted/Demoralized/Dispersed subordinates each take an MC",
    )

    def _targets(self, state: StateLike, side: str, h: Any, hq: Any) -> list[Any]:
        return [
            u
            for u in units_in(state, h, side)
            if state_of(u) >= DISRUPTED
            and hq in hq_chain(state, u)
            and u.get("rallied") != state.public.get("impulse")
        ]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for hq in state.units.values():
            if (
                hq.side == side
                and is_open(hq)
                and hq.get("cls") == "hq"
                and int(hq.get("ap", 0)) >= 1
            ):
                for u in state.units.values():
                    if (
                        u.side == side
                        and alive_on_map(u)
                        and state_of(u) >= DISRUPTED
                        and hq in hq_chain(state, u)
                    ):
                        ex.append(self.type.make(side, hex=state.map.label(u.hex), hq=hq.id))
        return OrderSpec(side, self.type, examples=tuple(ex[:10])) if ex else None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        if clock_step(state) != "3.5":
            raise refuse("ordered in your Operational Impulse", "wrong-step", "L322", order)
        h = args["hex"]
        hqs = [
            x
            for x in state.units.values()
            if x.side == order.side
            and x.get("cls") == "hq"
            and is_open(x)
            and int(x.get("ap", 0)) >= 1
            and (not args.get("hq") or x.id == args["hq"].id)
        ]
        if not hqs:
            raise refuse("no activated HQ with an AP left", "no-hq", "L322", order)
        for hq in hqs:
            if self._targets(state, order.side, h, hq) and trace(
                state, hq, hq.hex, {h}, int(hq.get("radius", 0))
            ):
                return
        raise refuse(
            f"no Disrupted, Demoralized or Dispersed subordinate in {state.map.label(h)} within an "
            "HQ's overland LOC range (or each was rallied this impulse)",
            "nothing-to-rally",
            "L322",
            order,
        )

    def preview(
        self, state: StateLike, order: Any, args: Mapping[str, Any]
    ) -> dict[str, Distribution]:
        h = args["hex"]
        return {
            u.id: mc_distribution(int(u.get("ml", 7)))
            for u in units_in(state, h, order.side)
            if state_of(u) >= DISRUPTED
        }

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        h = args["hex"]
        hq = next(
            x
            for x in state.units.values()
            if x.side == side
            and x.get("cls") == "hq"
            and is_open(x)
            and int(x.get("ap", 0)) >= 1
            and (not args.get("hq") or x.id == args["hq"].id)
            and self._targets(state, side, h, x)
            and trace(state, x, x.hex, {h}, int(x.get("radius", 0)))
        )
        hq_ap(em, hq, "L322")
        best = 2 if state.options.get("rally_step", "capped") == "capped" else 0
        for u in self._targets(state, side, h, hq):
            r = sum(
                dice.roll_many(
                    2,
                    6,
                    purpose=f"rally MC for {u.id} (ML {u.get('ml')})",
                    rule="L323",
                    visible_to=side,
                )
            )
            if r <= int(u.get("ml", 7)):
                new = improve(state_of(u), 2, best=min(best, state_of(u)))
                em.data(u.id, rule="L325", state=new, rallied=state.public.get("impulse"))
                em.say(
                    f"{u.id} rallies ({r} <= ML {u.get('ml')}): now {state.tables['states']['names'][new]}",
                    rule="L325",
                    visible_to=side,
                )
            else:
                em.data(u.id, rule="L326", rallied=None)
                em.say(
                    f"{u.id} fails to rally ({r} > ML {u.get('ml')})", rule="L326", visible_to=side
                )
        return em.events
