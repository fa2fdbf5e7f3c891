"""Advances after combat, chosen in Exploitation (3.10): breakthrough (Basic L76) and exploitation
(WWII L736-L737).

**Exploitation** (L736): units that pursued after an Intensive (or infiltration) attack into an
empty hex may go on into one adjacent hex for each further hex the defender retreated, any hexes
they choose; never out of or into an interdicted hex (L737); a unit that tries to enter an
enemy-occupied hex stops where it is and its exploitation ends (L737, announced). Empty enemy hexes
entered are taken (announced); ZOC is ignored (L183). Unused hexes lapse with the impulse.

**Breakthrough** (Basic L76; WWII L729): when every enemy unit in a battle hex is destroyed,
the attackers that took the hex may each advance one hex from it, even into an enemy-occupied hex,
which then becomes an Engagement Battle (L76). ZOC is ignored (L183).

Rulings: the advance is chosen after the result, in the Exploitation step (3.10), which the
sequence enters whenever the phasing side has a breakthrough to use (or reserves); the right
lapses when the impulse ends. It follows declared attacks resolved in Combat Resolution (3.9),
not ambushes met while moving. Entering an empty enemy hex takes it (announced, L229-L231);
entering one's own hex is secret.

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import alive_on_map, enemy_of, owner, units_in
from owsnb.rules.tocs.order_checks import (
    clock_step,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce, take_hex
from owsnb.rules.tocs.positions import lose_positions
from owsnb.rules.tocs.terrain import step_cost
from owsnb.rules.tocs.zoc import engaged

__all__ = [
    "Advance",
    "Exploit",
    "pending",
    "grant",
    "grant_exploit",
    "exploits",
]  # verb ``breakthrough`` (the kernel owns ``advance``)


def pending(state: StateLike, side: str) -> dict[str, list[str]]:
    """*side*'s unused breakthroughs: battle hex label -> ids of units that may still advance."""
    return {k: list(v) for k, v in state.sides[side].private.get("breakthroughs", {}).items() if v}


def grant(em: Emitter, side: str, battle_hex: str, ids: list[str]) -> None:
    """Record a breakthrough won at *battle_hex* by units *ids* (secret to *side*)."""
    b = pending(em.state, side)
    b[battle_hex] = list(ids)
    em.private(side, rule="L76", breakthroughs=b)
    em.say(
        f"Breakthrough at {battle_hex}: {', '.join(ids)} may advance one hex",
        rule="L76",
        visible_to=side,
    )


def exploits(state: StateLike, side: str) -> dict[str, int]:
    """*side*'s unused exploitation: unit id -> hexes it may still enter."""
    return {
        k: int(v) for k, v in state.sides[side].private.get("exploits", {}).items() if int(v) > 0
    }


def grant_exploit(em: Emitter, side: str, hexes: Mapping[str, int]) -> None:
    """Record exploitation rights won in a battle (secret to *side*)."""
    ex = exploits(em.state, side)
    ex.update({k: int(v) for k, v in hexes.items()})
    em.private(side, rule="L736", exploits=ex)
    em.say(
        "Exploitation: " + ", ".join(f"{k} up to {v} hex(es)" for k, v in sorted(hexes.items())),
        rule="L736",
        visible_to=side,
    )


def _battle_of(state: StateLike, side: str, uid: str) -> str | None:
    return next((k for k, v in pending(state, side).items() if uid in v), None)


def _need_enterable(state: StateLike, order: Any, u: Any, to: Any) -> None:
    """Refuse (``impassable``, 11.0) an advance of *u* into *to* that its terrain or a river
    forbids."""
    if step_cost(state, u, u.hex, to) == float("inf"):
        raise refuse(
            f"{u.id} cannot enter {state.map.label(to)} (terrain or river)",
            "impassable",
            "11.0",
            order,
        )


class Advance(OrderHandler):
    type = OrderType(
        "breakthrough",
        (Param("unit", "unit"), Param("to", "hex", "a hex adjacent to the battle hex")),
        rule="L76",
        doc="breakthrough: advance one hex from the battle hex, even into an enemy-occupied "
        "hex (an Engagement Battle)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.10" or side not in state.sides:
            return None
        ex = []
        for lab, ids in pending(state, side).items():
            h = state.map.hex(lab)
            for uid in ids:
                u = state.units.get(uid)
                if u is None or not alive_on_map(u) or u.hex != h:
                    continue
                for n in h.neighbours():
                    if n in state.map.hexes and step_cost(state, u, h, n) < float("inf"):
                        ex.append(self.type.make(side, unit=uid, to=state.map.label(n)))
        return spec_from_examples(side, self.type, ex, 20)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.10":
            raise refuse(
                "a breakthrough advance is made after Combat Resolution, in Exploitation",
                "wrong-step",
                "L76",
                order,
            )
        lab = _battle_of(state, order.side, u.id)
        if lab is None or u.hex != state.map.hex(lab):
            raise refuse(
                f"{u.id} has no breakthrough to use (every defender of its battle hex must be destroyed)",
                "no-breakthrough",
                "L76",
                order,
            )
        to = args["to"]
        if to.distance(u.hex) != 1:
            raise refuse(
                f"{state.map.label(to)} is not adjacent to the battle hex {lab}: the advance is one hex",
                "not-adjacent",
                "L76",
                order,
            )
        _need_enterable(state, order, u, to)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        frm, to = u.hex, args["to"]
        lab = state.map.label(to)
        b = pending(state, side)
        battle = _battle_of(state, side, u.id)
        b[battle] = [x for x in b[battle] if x != u.id]
        em.private(side, rule="L76", breakthroughs=b)
        em.unit(u.id, rule="L76", hex=to)
        enemy = enemy_of(state, side)
        if units_in(state, to, enemy) and not engaged(state, to):
            em.hexfact(to, rule="L76", engaged=True)
            lose_positions(em, side, to)
            announce(em, f"Breakthrough advance into {lab}: Engagement Battle", rule="L76", hex=lab)
        elif engaged(state, to):
            em.say(f"{u.id} joins the Engagement Battle in {lab}", rule="L246", visible_to=side)
        elif owner(state, to) != side:
            take_hex(em, side, to, rule="L76", why="breakthrough advance")
        else:
            em.say(
                f"{u.id} advances from {state.map.label(frm)} to {lab}", rule="L76", visible_to=side
            )
        return em.events


class Exploit(OrderHandler):
    type = OrderType(
        "exploit",
        (Param("unit", "unit"), Param("to", "hex", "an adjacent hex")),
        rule="L736",
        doc="exploitation after an Intensive attack's pursuit: one more hex (stops short of enemy units)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.10" or side not in state.sides:
            return None
        ex = []
        for uid in exploits(state, side):
            u = state.units.get(uid)
            if u is None or not alive_on_map(u) or state.map.hexes[u.hex].facts.get("interdicted"):
                continue
            for n in u.hex.neighbours():
                if (
                    n in state.map.hexes
                    and step_cost(state, u, u.hex, n) < float("inf")
                    and not state.map.hexes[n].facts.get("interdicted")
                ):
                    ex.append(self.type.make(side, unit=uid, to=state.map.label(n)))
        return spec_from_examples(side, self.type, ex, 20)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.10":
            raise refuse(
                "exploitation happens after Combat Resolution, in Exploitation",
                "wrong-step",
                "L736",
                order,
            )
        if u.id not in exploits(state, order.side):
            raise refuse(
                f"{u.id} has no exploitation left (only pursuers of an Intensive attack exploit, one hex per "
                "further hex the defender retreated)",
                "no-exploitation",
                "L736",
                order,
            )
        to = args["to"]
        if to.distance(u.hex) != 1:
            raise refuse(
                f"{state.map.label(to)} is not adjacent to {u.id}",
                "not-adjacent",
                "L736",
                order,
            )
        if state.map.hexes[u.hex].facts.get("interdicted") or state.map.hexes[to].facts.get(
            "interdicted"
        ):
            raise refuse(
                "no exploitation out of or through an interdicted hex", "interdicted", "L737", order
            )
        if engaged(state, to):
            raise refuse(
                f"{state.map.label(to)} is an Engagement Battle",
                "engaged-hex",
                "L737",
                order,
            )
        _need_enterable(state, order, u, to)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        to = args["to"]
        lab = state.map.label(to)
        ex = exploits(state, side)
        if units_in(state, to, enemy_of(state, side)):  # L737: it stops where it is
            ex.pop(u.id, None)
            em.private(side, rule="L737", exploits=ex)
            announce(
                em, f"Entry into {lab} is blocked: the hex is enemy occupied", rule="L737", hex=lab
            )
            return em.events
        ex[u.id] -= 1
        em.private(side, rule="L736", exploits={k: v for k, v in ex.items() if v > 0})
        em.unit(u.id, rule="L736", hex=to)
        if owner(state, to) != side:
            take_hex(em, side, to, rule="L736", why="exploitation")
        else:
            em.say(f"{u.id} exploits into {lab}", rule="L736", visible_to=side)
        return em.events
