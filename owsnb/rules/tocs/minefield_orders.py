"""Minefields (WWII 10.11, L296-L298).

A Good Order engineer unit in LOS spends all its AP to lay a secret minefield in its hex or an
adjacent hex of its perimeter it could enter, never in an Engagement (L296). In combat the field
adds +2 to the defender's strength (L296). An enemy unit that moves into the hex (not an attack)
stops, losing that AP's remaining MP, and takes a morale check (engineers entering a known field
are exempt); failing it degrades the unit and forfeits its AP (L297). An enemy unit leaving the hex
pays 1 extra AP and takes a morale check (engineers exempt); failing it degrades and stays,
forfeiting its AP (L297). The owner's own units only lose road rate into the hex (L297).
Reconnaissance and probes find minefields (L298). A field struck or found is announced (the hex
only) and known to the finder (``private["minefields_known"]``); the owner's fields are its secret
(``private["minefields"]``).

**Clear** (10.12, L299): a GO Company or engineer unit removes a known roadblock in its hex or an
adjacent hex of its perimeter for 1 AP; a GO engineer removes a known minefield there, or in an
adjacent empty enemy hex not under interdiction, for all its AP. Dozers, flails and rollers are not
modelled. The work is the clearing side's secret; the other side learns of it only when its
feature is gone (it is no longer in its lists).

Whether an enemy hex is empty is the enemy's secret: the order is given on what the clearing side
knows (the field it found, the hex's owner and interdiction), and the referee tests the hex when
the engineer sets to work (L299): in an occupied enemy hex the engineer spends its AP for nothing
and its side is told the hex is occupied (only it, as a recon answer is told, L272).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import close_activation
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.features import PlaceFeature, holds, knows, learn, remove_everywhere
from owsnb.rules.tocs.model import (
    GOOD_ORDER,
    alive_on_map,
    degrade,
    enemy_of,
    is_company,
    owner,
    state_of,
    units_in,
)
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce
from owsnb.rules.tocs.supply import in_los
from owsnb.rules.tocs.zoc import engaged

__all__ = ["Minefield", "Clear", "mined_by", "known_mines", "learn_mines", "morale_check"]


def mined_by(state: StateLike, side: str, h: Any) -> bool:
    """Has *side* a minefield in *h* (the referee's truth)?"""
    return holds(state, side, h, "minefields")


def known_mines(state: StateLike, side: str, h: Any) -> bool:
    """Does *side* know of an enemy minefield in *h*?"""
    return knows(state, side, h, "minefields")


def learn_mines(em: Emitter, side: str, h: Any, *, rule: str) -> None:
    learn(em, side, h, "minefields", rule=rule)


def morale_check(em: Emitter, dice: Any, uid: str, *, why: str, rule: str) -> bool:
    """A morale check (2d6 <= ML, L151) for a mine; failing it degrades the unit and ends its AP."""
    u = em.state.units[uid]
    r = sum(
        dice.roll_many(
            2,
            6,
            purpose=f"minefield MC for {uid} ({why}, ML {u.get('ml', 7)})",
            rule=rule,
            visible_to=u.side,
        )
    )
    if r <= int(u.get("ml", 7)):
        em.say(f"{uid} passes its minefield MC ({r})", rule=rule, visible_to=u.side)
        return True
    em.data(uid, rule=rule, state=degrade(state_of(u)), ap=0, mp_left=0, acted=True)
    em.say(
        f"{uid} fails its minefield MC ({r} > ML {u.get('ml', 7)}): it degrades and loses its AP",
        rule=rule,
        visible_to=u.side,
    )
    return False


class Minefield(PlaceFeature):
    type = OrderType(
        "minefield",
        (
            Param("unit", "unit", "a Good Order engineer unit"),
            Param("hex", "hex", "its own hex or an adjacent friendly hex"),
        ),
        rule="10.11",
        doc="all AP: a secret minefield (+2 defence; enemy movers stop and test morale)",
    )

    key, rule, paragraph, most = "minefields", "L296", "10.11", 8
    wrong_step = "minefields are laid in your Operational Impulse"
    engaged_text = "never in an Engagement Battle"
    impassable_text = "{unit} could not move into {hex}"
    exists_text = "{hex} is mined already"

    def _who(self, u: Any) -> tuple[str, str, str] | None:
        if not u.get("engineer"):
            return f"{u.id} is not an engineer unit", "not-engineer", "L296"
        return None

    def _more(self, state: StateLike, u: Any) -> tuple[str, str, str] | None:
        if not in_los(state, u):
            return f"{u.id} is out of supply (LOS)", "out-of-los", "L296"
        return None

    def _pay(self, em: Emitter, u: Any) -> None:
        em.data(u.id, rule="L296", ap=0, mp_left=0, acted=True)

    def _done(self, em: Emitter, u: Any, lab: str) -> None:
        em.say(f"{u.id} lays a minefield in {lab}", rule="L296", visible_to=u.side)
        close_activation(em, u.id, rule="L296")


def struck(em: Emitter, dice: Any, uid: str, h: Any) -> None:
    """An enemy mover entered mined hex *h* (L297): it stops, learns the field, tests its morale."""
    u = em.state.units[uid]
    lab = em.state.map.label(h)
    known = known_mines(em.state, u.side, h)
    learn_mines(em, u.side, h, rule="L297")
    em.data(uid, rule="L297", mp_left=0)
    announce(em, f"A minefield is struck in {lab}", rule="L297", hex=lab)
    if not (u.get("engineer") and known):
        morale_check(em, dice, uid, why="entering", rule="L297")


def leave_mined(em: Emitter, dice: Any, uid: str) -> bool:
    """An enemy unit leaves a mined hex (L297): 1 more AP and an MC (engineers exempt); False if it stays."""
    u = em.state.units[uid]
    em.data(uid, rule="L297", ap=max(0, int(u.get("ap", 0)) - 1))
    if u.get("engineer"):
        return True
    return morale_check(em, dice, uid, why="leaving", rule="L297")


def enemy_mines(state: StateLike, side: str, h: Any) -> bool:
    """Is *h* mined by the enemy of *side*?"""
    return mined_by(state, enemy_of(state, side), h)


class Clear(OrderHandler):
    type = OrderType(
        "clear",
        (
            Param("unit", "unit"),
            Param("hex", "hex", "its own hex or an adjacent hex"),
            Param(
                "what",
                "choice",
                "roadblock (1 AP) or mines (engineers, all AP)",
                choices=("roadblock", "mines"),
            ),
        ),
        rule="10.12",
        doc="remove a known roadblock (GO Company, 1 AP) or a known minefield (GO engineer, "
        "all AP)",
    )

    def _why_not(self, state: StateLike, u: Any, h: Any, what: str) -> tuple[str, str, str] | None:
        side = u.side
        lab = state.map.label(h)
        if state_of(u) != GOOD_ORDER or int(u.get("ap", 0)) < 1:
            return f"{u.id} is not in Good Order with an AP left", "not-good-order", "L299"
        if h.distance(u.hex) > 1:
            return f"{lab} is not {u.id}'s hex or an adjacent hex", "not-adjacent", "L299"
        if engaged(state, h):
            return "never in an Engagement Battle", "engaged", "L296"
        if what == "roadblock":
            if not (is_company(u) or u.get("engineer")):
                return f"{u.id} is not a Company or engineer unit", "not-company", "L299"
            if owner(state, h) != side:
                return f"{lab} is not within your perimeter", "not-friendly", "L299"
            mine = holds(state, side, h, "roadblocks")
            theirs = knows(state, side, h, "roadblocks")  # found, and still there (L299)
            if not (mine or theirs):
                return f"no known roadblock in {lab}", "unknown", "L299"
            return None
        if not u.get("engineer"):
            return f"{u.id} is not an engineer unit", "not-engineer", "L299"
        mine = mined_by(state, side, h)
        theirs = known_mines(state, side, h)  # found, and still there (L299)
        if not (mine or theirs):
            return f"no known minefield in {lab}", "unknown", "L299"
        if owner(state, h) != side and state.map.hexes[h].facts.get("interdicted"):
            return f"{lab} is an interdicted enemy hex", "not-clearable", "L299"
        return None  # an occupied enemy hex is found out when the engineer sets to work

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = [
            self.type.make(side, unit=u.id, hex=state.map.label(h), what=w)
            for u in state.units.values()
            if u.side == side and alive_on_map(u) and is_open(u)
            for h in (u.hex, *u.hex.neighbours())
            if h in state.map.hexes
            for w in ("roadblock", "mines")
            if self._why_not(state, u, h, w) is None
        ]
        return spec_from_examples(side, self.type, ex, 8)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "clearing is done in your Operational Impulse", "wrong-step", "L299", order
            )
        need_open(u, order)
        why = self._why_not(state, u, args["hex"], args["what"])
        if why:
            raise refuse(why[0], why[1], why[2], order)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        h = args["hex"]
        lab = state.map.label(h)
        if (
            args["what"] == "mines"
            and owner(state, h) != side
            and units_in(state, h, enemy_of(state, side))
        ):
            em.data(u.id, rule="L299", acted=True, ap=0, mp_left=0)
            em.say(
                f"{lab} is occupied: {u.id} cannot clear the minefield there (an empty enemy hex "
                "only)",
                rule="L299",
                visible_to=side,
            )
            close_activation(em, u.id, rule="L299")
            return em.events
        remove_everywhere(
            em, lab, "roadblocks" if args["what"] == "roadblock" else "minefields", rule="L299"
        )
        em.data(
            u.id,
            rule="L299",
            acted=True,
            ap=int(u.get("ap", 0)) - 1 if args["what"] == "roadblock" else 0,
            mp_left=0,
        )
        em.say(f"{u.id} clears the {args['what']} in {lab}", rule="L299", visible_to=side)
        if args["what"] == "mines":
            close_activation(em, u.id, rule="L299")
        return em.events
