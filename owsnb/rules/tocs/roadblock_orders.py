"""Roadblocks (WWII 10.10, L292-L295).

A Good Order Company (or engineer unit) spends 1 AP to place a roadblock, secretly, in its own hex
or an adjacent hex of its perimeter that it could enter; never in or into an Engagement (L292).
A roadblock denies the enemy road rate *into* its hex, never out of it (L295): an enemy mover
pays the off-road cost, and one that cannot is sent back (here: it stays where it was and its move
action ends, like an EZOC stop; the roadblock is then known to it). A unit ambushed in the hex
is no road column (L293). Reconnaissance and probes find roadblocks in empty hexes (L293), which
are then announced. Roadblocks are kept in the owner's secret (``private["roadblocks"]``); what a
side has found is in its ``private["roadblocks_known"]``. Placing, finding and knowing are shared
with minefields (:mod:`owsnb.rules.tocs.features`); clearing a known roadblock is the ``clear``
order (10.12, L299; :class:`owsnb.rules.tocs.minefield_orders.Clear`).

Not modelled: a roadblock closing a bridge in its hex to vehicles and LOS (L295), trains.

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel import OrderType, Param
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.features import PlaceFeature, holds, knows, learn
from owsnb.rules.tocs.model import enemy_of, is_company

__all__ = ["Roadblock", "roadblocked", "known_roadblock", "learn_roadblock"]


def roadblocked(state: StateLike, side: str, h: Any) -> bool:
    """Does the enemy of *side* hold a roadblock in *h* (the referee's truth)?"""
    return holds(state, enemy_of(state, side), h, "roadblocks")


def known_roadblock(state: StateLike, side: str, h: Any) -> bool:
    """Does *side* know of an enemy roadblock in *h*?"""
    return knows(state, side, h, "roadblocks")


def learn_roadblock(em: Emitter, side: str, h: Any, *, rule: str) -> None:
    learn(em, side, h, "roadblocks", rule=rule)


class Roadblock(PlaceFeature):
    type = OrderType(
        "roadblock",
        (
            Param("unit", "unit", "a Good Order Company or engineer unit"),
            Param("hex", "hex", "its own hex or an adjacent friendly hex"),
        ),
        rule="10.10",
        doc="1 AP: a secret roadblock that denies the enemy road rate into the hex",
    )
    key, rule, paragraph, most = "roadblocks", "L292", "10.10", 10
    wrong_step = "roadblocks are made in your Operational Impulse"
    engaged_text = "never in or into an Engagement Battle"
    impassable_text = "{unit} could not move to {hex}"
    exists_text = "there is a roadblock in {hex} already"

    def _who(self, u: Any) -> tuple[str, str, str] | None:
        if not (is_company(u) or u.get("engineer")):
            return f"{u.id} is not a Company or engineer unit", "not-company", "L292"
        return None

    def _pay(self, em: Emitter, u: Any) -> None:
        em.data(u.id, rule="L292", ap=int(u.get("ap", 0)) - 1, acted=True)

    def _done(self, em: Emitter, u: Any, lab: str) -> None:
        em.say(f"{u.id} places a roadblock in {lab}", rule="L292", visible_to=u.side)
