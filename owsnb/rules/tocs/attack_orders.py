"""Attack orders of TOCS: declaring an attack into an adjacent hex (10.6; resolved in 3.9).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import close_activation
from owsnb.rules.tocs.artillery_orders import DOWNGRADE
from owsnb.rules.tocs.attack_preview import AttackPreview, attack_preview
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import alive_on_map, owner
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce
from owsnb.rules.tocs.terrain import step_cost
from owsnb.rules.tocs.zoc import engaged

__all__ = ["Attack", "ATTACK_KINDS"]


ATTACK_KINDS = ("intensive", "deliberate", "hasty")


class Attack(OrderHandler):
    type = OrderType(
        "attack",
        (
            Param("unit", "unit"),
            Param("hex", "hex", "adjacent hex to attack"),
            Param(
                "kind",
                "choice",
                "intensive (3 AP), deliberate (2), hasty (1)",
                positional=False,
                optional=True,
                choices=ATTACK_KINDS,
            ),
            Param(
                "pursue",
                "choice",
                "pursue a retreating defender",
                positional=False,
                optional=True,
                choices=("yes", "no"),
            ),
        ),
        rule="10.6",
        doc="declare an attack into an adjacent hex (the activation's last action; a Battle Marker is announced)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if (
                u.side != side
                or not alive_on_map(u)
                or not is_open(u)
                or int(u.get("attack", 0)) <= 0
            ):
                continue
            if u.get("cls") in ("battery", "hq") or engaged(state, u.hex):
                continue
            for n in u.hex.neighbours():
                if n in state.map.hexes and owner(state, n) != side:
                    for k in ATTACK_KINDS:
                        if int(u.get("ap", 0)) >= int(state.tables["attack_types"][k]["ap"]):
                            ex.append(
                                self.type.make(side, unit=u.id, hex=state.map.label(n), kind=k)
                            )
        return spec_from_examples(side, self.type, ex, 30)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "ground attacks are declared in your Operational Impulse only",
                "wrong-step",
                "L79",
                order,
            )
        need_open(u, order)
        kind = args.get("kind", "hasty")
        need = int(state.tables["attack_types"][kind]["ap"])
        if int(u.get("ap", 0)) < need:
            raise refuse(
                f"a {kind} attack needs {need} AP; {u.id} has {u.get('ap', 0)}",
                "no-ap",
                "L281",
                order,
            )
        if u.get("cls") == "battery":
            raise refuse(
                "batteries support battles; they never attack into the enemy perimeter",
                "battery-perimeter",
                "L234",
                order,
            )
        if int(u.get("attack", 0)) <= 0:
            raise refuse(f"{u.id} has no attack strength", "no-attack", "L720", order)
        if engaged(state, u.hex):
            raise refuse(f"{u.id} is in an Engagement Battle", "engaged", "L246", order)
        h = args["hex"]
        if h.distance(u.hex) != 1:
            raise refuse(
                f"{state.map.label(h)} is not adjacent to {u.id}",
                "not-adjacent",
                "L281",
                order,
            )
        if owner(state, h) == u.side:
            raise refuse(f"{state.map.label(h)} is your own hex", "own-hex", "L283", order)
        if engaged(state, h):
            raise refuse(
                f"{state.map.label(h)} is an Engagement Battle: units join it by moving in, they do not attack it",
                "engaged-hex",
                "L246",
                order,
            )
        if step_cost(state, u, u.hex, h) == float("inf"):
            raise refuse(
                f"{u.id} could not enter {state.map.label(h)}",
                "impassable",
                "L281",
                order,
            )
        if state.map.hexes[u.hex].facts.get("interdicted") and DOWNGRADE[kind] is None:
            raise refuse(
                f"{state.map.label(u.hex)} is interdicted: a hasty attack out of it is called off",
                "interdicted",
                "L357",
                order,
            )
        lab = state.map.label(h)
        n = sum(
            1
            for x in state.units.values()
            if x.side == u.side
            and x.get("attack_hex") == lab
            and x.get("cls") in ("company", "hqcompany", "vehicle", "battery")
        )
        if n >= 4 and u.get("cls") in ("company", "hqcompany", "vehicle"):
            raise refuse(
                f"four units already attack {lab} (stacking limit)", "stacking", "L281", order
            )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> AttackPreview:
        """The defender's strength is hidden: one exact distribution per CRT column."""
        return attack_preview(state, args.get("kind", "hasty"))

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        h = args["hex"]
        lab = state.map.label(h)
        kind = args.get("kind", "hasty")
        if state.map.hexes[u.hex].facts.get("interdicted"):  # L357: -1 AP, one attack level lower
            kind = DOWNGRADE[kind]
            em.say(
                f"{u.id} attacks out of an interdicted hex: the attack drops to {kind}",
                rule="L357",
                visible_to=order.side,
            )
        em.data(
            u.id,
            rule="L242",
            attack_hex=lab,
            attack_type=kind,
            attack_from=state.map.label(u.hex),
            pursue=args.get("pursue") == "yes",
            ap=0,
            mp_left=0,
            acted=True,
            ext_dir=None,
        )
        close_activation(em, u.id, rule="L282")
        if not state.map.hexes[h].facts.get("battle"):
            em.hexfact(h, rule="L67", battle=True)
            announce(em, f"Battle Marker placed on {lab}", rule="L67", hex=lab)
        return em.events
