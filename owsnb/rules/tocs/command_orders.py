"""Orders that change a unit's command or strength: reassignment (10.17, L315-L318) and refit
(10.22, L338-L340).

* **Reassign** (L315): an activated Brigade-level or higher HQ (a Regiment counts as a Brigade,
  the counter classes' "Brigade/Regiment", digest 1.1) in LOC spends 1 AP to put a unit or a
  formation (an HQ with its subordinates) of its chain under another HQ of its side, even of
  another formation. From then on the unit takes orders and LOC only from the new chain (L316),
  and draws LOS through the new chain or its original parent's (L315). It does not degrade.
* **Refit** (L338): an activated HQ spends 1 AP to order a subordinate in LOC and LOS, short of
  steps, to refit. At the End of Turn, after bridge progress and before recovery, it gains one
  step if it is out of EZOC and was neither attacked by ground forces nor probed (both cancel
  the order, L337). The step comes from the side's Replacement Pool (units on foot) or Motor
  Pool (tracked/wheeled), ``rules.pools`` of the scenario; a side without a pool listed has
  unlimited replacements (a ruling: the module sets the limits, L339). Hospital and Field
  Repair Center draws are not modelled (their rules are lost, L340).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import hq_ap, order_hq
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import ECHELONS, alive_on_map, hq_chain, is_tw
from owsnb.rules.tocs.order_checks import clock_step, is_open, spec_from_examples
from owsnb.rules.tocs.supply import in_loc, in_los
from owsnb.rules.tocs.zoc import engaged, ezoc_at

__all__ = ["Reassign", "Refit", "refit_at_end_of_turn"]

_SENIOR = ECHELONS.index("regiment")
_REASSIGNABLE = ("company", "hqcompany", "vehicle", "battery", "hq")


def _senior_hq(state: StateLike, side: str, u: Any, named: Any | None) -> Any | None:
    """The activated Brigade-level or higher HQ of *u*'s chain (the *named* one, a bound unit, if
    given), in LOC, with an AP (L315)."""
    for hq in hq_chain(state, u):
        if named is not None and hq.id != named.id:
            continue
        if (
            is_open(hq)
            and int(hq.get("ap", 0)) >= 1
            and alive_on_map(hq)
            and in_loc(state, hq)
            and ECHELONS.index(hq.get("echelon") or "battalion") >= _SENIOR
        ):
            return hq
    return None


class Reassign(OrderHandler):
    type = OrderType(
        "reassign",
        (
            Param("unit", "unit", "unit or formation HQ"),
            Param("to", "unit", "its new HQ"),
            Param("hq", "unit", "ordering HQ (Brigade or higher)", positional=False, optional=True),
        ),
        rule="10.17",
        doc="HQ order (1 AP, Brigade or higher): put a unit or formation under another HQ",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        hqs = [
            h
            for h in state.units.values()
            if h.side == side and h.get("cls") == "hq" and alive_on_map(h)
        ]
        for u in state.units.values():
            if (
                u.side != side
                or not alive_on_map(u)
                or u.get("cls") not in _REASSIGNABLE
                or not u.get("parent")
            ):
                continue
            if _senior_hq(state, side, u, None) is None:
                continue
            ex += [
                self.type.make(side, unit=u.id, to=h.id)
                for h in hqs
                if h.id not in (u.id, u.get("parent")) and u not in hq_chain(state, h)
            ][:2]
        return spec_from_examples(side, self.type, ex, 12)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "reassignment is ordered in your Operational Impulse", "wrong-step", "L315", order
            )
        if u.get("cls") not in _REASSIGNABLE:
            raise refuse(
                f"{u.id} cannot be reassigned (assets are attached, 10.16)",
                "not-reassignable",
                "L315",
                order,
            )
        new = args["to"]
        if new.get("cls") != "hq":
            raise refuse(f"{new.id!r} is not an HQ of yours on the map", "not-an-hq", "L315", order)
        if new.id == u.id or u in hq_chain(state, new):
            raise refuse(
                f"{u.id} cannot report to itself or to one of its own subordinates",
                "cycle",
                "L316",
                order,
            )
        if new.id == u.get("parent"):
            raise refuse(f"{u.id} already reports to {new.id}", "same-hq", "L316", order)
        if _senior_hq(state, order.side, u, args.get("hq")) is None:
            raise refuse(
                f"no activated Brigade-level or higher HQ of {u.id}'s chain in LOC has an AP left",
                "no-hq",
                "L315",
                order,
            )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u, new = args["unit"], args["to"].id
        hq = _senior_hq(state, order.side, u, args.get("hq"))
        hq_ap(em, hq, "L315")
        orig = u.get("original_parent") or u.get("parent")
        em.data(
            u.id,
            rule="L315",
            parent=new,
            original_parent=None if orig == new else orig,
        )
        em.say(
            f"{u.id} now reports to {new} (LOS also via {orig})"
            if orig != new
            else f"{u.id} returns to {new}",
            rule="L316",
            visible_to=order.side,
        )
        return em.events


class Refit(OrderHandler):
    type = OrderType(
        "refit",
        (
            Param("unit", "unit"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.22",
        doc="HQ order (1 AP): the unit gains a step at the End of Turn if it stays out of EZOC "
        "and is neither attacked nor probed",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if u.side == side and alive_on_map(u) and self._why_not(state, u) is None:
                try:
                    order_hq(state, self.type.make(side, unit=u.id), u, None, "10.22")
                except Exception:
                    continue
                ex.append(self.type.make(side, unit=u.id))
        return spec_from_examples(side, self.type, ex, 8)

    def _why_not(self, state: StateLike, u: Any) -> tuple[str, str, str] | None:
        if u.get("cls") in ("hq", "aircraft", "naval") or not u.get("parent"):
            return f"{u.id} is not a subordinate unit", "not-subordinate", "L338"
        if u.steps >= u.max_steps:
            return f"{u.id} has no step losses", "full-strength", "L338"
        if u.get("refit"):
            return f"{u.id} is already refitting", "already-refitting", "L338"
        if engaged(state, u.hex):
            return f"{u.id} is in an Engagement Battle", "engaged", "L338"
        if not in_los(state, u):
            return f"{u.id} is out of supply (LOS)", "out-of-los", "L338"
        return None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "refit is ordered in your Operational Impulse", "wrong-step", "L338", order
            )
        why = self._why_not(state, u)
        if why:
            raise refuse(why[0], why[1], why[2], order)
        order_hq(state, order, u, args.get("hq"), "10.22")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        hq_ap(em, order_hq(state, order, u, args.get("hq"), "10.22"), "L338")
        em.data(u.id, rule="L338", refit=True)
        em.say(
            f"{u.id} is ordered to refit (a step at the End of Turn)",
            rule="L338",
            visible_to=order.side,
        )
        return em.events


def refit_at_end_of_turn(em: Emitter) -> None:
    """End of Turn: every unit still refitting and out of EZOC gains a step from its pool (L338-L339)."""
    s = em.state
    pools = {side: dict(s.sides[side].private.get("pools") or {}) for side in s.sides}
    for u in sorted((x for x in s.units.values() if x.get("refit")), key=lambda x: x.id):
        em.data(u.id, rule="L338", refit=False)
        if not alive_on_map(u) or u.steps >= u.max_steps:
            continue
        if ezoc_at(em.state, u.side, u.hex):
            em.say(f"{u.id} cannot refit: it is in EZOC", rule="L338", visible_to=u.side)
            continue
        pool = "motor" if is_tw(u) else "replacement"
        left = pools[u.side].get(pool)
        if left is not None and int(left) <= 0:
            em.say(f"{u.id} cannot refit: the {pool} pool is empty", rule="L339", visible_to=u.side)
            continue
        if left is not None:
            pools[u.side][pool] = int(left) - 1
            em.private(u.side, rule="L339", pools=pools[u.side])
        em.unit(u.id, rule="L338", steps=u.steps + 1)
        em.say(f"{u.id} refits: {u.steps + 1} steps", rule="L338", visible_to=u.side)
