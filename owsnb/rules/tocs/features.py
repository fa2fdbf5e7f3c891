"""Secret battlefield features: roadblocks (WWII 10.10, L292-L295), minefields (10.11, L296-L298).

Both are placed the same way, by a Good Order unit in its own hex or an adjacent hex of its
perimeter that it could enter, never in an Engagement, in its Operational Impulse; both are the
owner's secret (``private[key]``, e.g. ``"roadblocks"``) and what a side has found of the enemy's
is in its ``private[key + "_known"]``. :class:`PlaceFeature` is the shared order; the rule sets'
orders (:class:`~owsnb.rules.tocs.roadblock_orders.Roadblock`,
:class:`~owsnb.rules.tocs.minefield_orders.Minefield`) give its texts, rule and cost.

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import GOOD_ORDER, alive_on_map, owner, state_of
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    spec_from_examples,
)
from owsnb.rules.tocs.terrain import step_cost
from owsnb.rules.tocs.zoc import engaged

__all__ = ["PlaceFeature", "holds", "knows", "learn", "add", "remove_everywhere"]


def holds(state: StateLike, side: str, h: Any, key: str) -> bool:
    """Has *side* a feature *key* (``"roadblocks"``, ``"minefields"``) in *h* (referee's truth)?"""
    return state.map.label(h) in set(state.sides[side].private.get(key, ()))


def knows(state: StateLike, side: str, h: Any, key: str) -> bool:
    """Does *side* know of an enemy feature *key* in *h*?"""
    return state.map.label(h) in set(state.sides[side].private.get(f"{key}_known", ()))


def learn(em: Emitter, side: str, h: Any, key: str, *, rule: str) -> None:
    """*side* now knows of the enemy feature *key* in *h* (no event if it knew already)."""
    known = set(em.state.sides[side].private.get(f"{key}_known", ()))
    lab = em.state.map.label(h)
    if lab not in known:
        em.private(side, rule=rule, **{f"{key}_known": sorted(known | {lab})})


def add(em: Emitter, side: str, lab: str, key: str, *, rule: str) -> None:
    """*side* secretly places a feature *key* in the hex labelled *lab*."""
    have = set(em.state.sides[side].private.get(key, ()))
    em.private(side, rule=rule, **{key: sorted(have | {lab})})


def remove_everywhere(em: Emitter, lab: str, key: str, *, rule: str) -> None:
    """The feature *key* in *lab* is gone: from its owner's secret and every side's knowledge."""
    for s in em.state.sides:
        for k in (key, f"{key}_known"):
            have = set(em.state.sides[s].private.get(k, ()))
            if lab in have:
                em.private(s, rule=rule, **{k: sorted(have - {lab})})


class PlaceFeature(OrderHandler):
    """Place a secret feature (roadblocks, minefields); subclasses set the attributes below."""

    key: str  # the owner's private list, e.g. "roadblocks"
    rule: str  # the paragraph cited by every refusal and event, e.g. "L292"
    paragraph: str  # the order's section, e.g. "10.10"
    most: int  # how many examples :meth:`candidates` lists
    wrong_step: str  # refusal text outside the Operational Impulse
    engaged_text: str  # refusal text in or into an Engagement
    impassable_text: str  # "{unit} could not move to {hex}"
    exists_text: str  # "there is a roadblock in {hex} already"

    def _who(self, u: Any) -> tuple[str, str, str] | None:
        """Why *u* is not the kind of unit that places this feature, or None."""
        raise NotImplementedError

    def _more(self, state: StateLike, u: Any) -> tuple[str, str, str] | None:
        """A further check after the shared ones (None: none)."""
        return None

    def _pay(self, em: Emitter, u: Any) -> None:
        """Charge *u* for the work."""
        raise NotImplementedError

    def _done(self, em: Emitter, u: Any, lab: str) -> None:
        """Tell the owner, and whatever follows the work."""
        raise NotImplementedError

    def _why_not(self, state: StateLike, u: Any, h: Any) -> tuple[str, str, str] | None:
        who = self._who(u)
        if who:
            return who
        lab = state.map.label(h)
        if state_of(u) != GOOD_ORDER:
            return f"{u.id} is not in Good Order", "not-good-order", self.rule
        if int(u.get("ap", 0)) < 1:
            return f"{u.id} has no AP left", "no-ap", self.rule
        if h.distance(u.hex) > 1 or owner(state, h) != u.side:
            why = f"{lab} is not {u.id}'s hex or an adjacent friendly hex"
            return why, "not-friendly", self.rule
        if engaged(state, u.hex) or engaged(state, h):
            return self.engaged_text, "engaged", self.rule
        if h != u.hex and step_cost(state, u, u.hex, h) == float("inf"):
            return self.impassable_text.format(unit=u.id, hex=lab), "impassable", self.rule
        if holds(state, u.side, h, self.key):
            return self.exists_text.format(hex=lab), "exists", self.rule
        return self._more(state, u)

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if u.side == side and alive_on_map(u) and is_open(u) and self._who(u) is None:
                for h in (u.hex, *u.hex.neighbours()):
                    if h in state.map.hexes and self._why_not(state, u, h) is None:
                        ex.append(self.type.make(side, unit=u.id, hex=state.map.label(h)))
        return spec_from_examples(side, self.type, ex, self.most)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(self.wrong_step, "wrong-step", self.rule, order)
        need_open(u, order)
        why = self._why_not(state, u, args["hex"])
        if why:
            raise refuse(why[0], why[1], why[2], order)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        lab = state.map.label(args["hex"])
        self._pay(em, u)
        add(em, order.side, lab, self.key, rule=self.rule)
        self._done(em, u, lab)
        return em.events
