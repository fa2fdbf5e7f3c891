"""Infiltration (WWII 10.2, L258-L263).

An activated HQ spends 1 AP to order a Good Order subordinate Company in LOC, not yet activated
this impulse, to activate (no OP: the HQ's AP is the order, the actions table's cost) and spend
all its AP infiltrating from a hex in EZOC into an adjacent enemy-owned hex (L258). Nothing is
announced until Combat Resolution (L259): the enemy cannot react with reserves. There, an empty
hex is entered and taken (L260); an occupied one is attacked with the infiltrator leading
(attack type ``infiltration``, the highest, L718): 2d6 + DRMs on the placeholder Infiltration
Table decides whether the attacker or the defender gets the infiltration column shift (L262-L263).

Rulings: the infiltration must be the first attack on the hex (L260), so a hex under a Battle
Marker is refused; other attackers of the hex are "delayed 1 AP" (L260): their attack drops one
level as under interdiction (a Hasty one is called off); the defender's ELR DRM uses the best
defender (hidden: the preview gives one exact distribution per defender ELR).

What the ordering side knows decides what it is offered and refused: whether the enemy projects ZOC
into the infiltrator's hex is the enemy's secret until tested (L30: the opponent announces EZOC).
Under ``ezoc_declaration: declared`` only a declared EZOC the side knows of (its
``ezoc_known``) counts, so the order needs one; under ``always`` the EZOC is tested when the
order is given. Either way the referee tests the real EZOC at adjudication (L258): if there is
none, the HQ's order is spent, nothing infiltrates, and the side is told (only it: the hex is
inside its own perimeter), as a move is told an EZOC no longer exists (L172).

>>> t = {"succeeds_at_most": 7}
>>> success_distribution(t, 0)[True], success_distribution(t, -2)[True]
(Fraction(7, 12), Fraction(5, 6))

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import Distribution, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import close_activation, hq_ap, order_hq
from owsnb.rules.tocs.artillery_orders import DOWNGRADE
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import GOOD_ORDER, alive_on_map, daypart, is_company, owner, state_of
from owsnb.rules.tocs.order_checks import (
    clock_step,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce
from owsnb.rules.tocs.terrain import step_cost
from owsnb.rules.tocs.zoc import declared_against, engaged, ezoc_at, learn_ezoc

__all__ = [
    "Infiltrate",
    "success_distribution",
    "attacker_drm",
    "defender_drm",
    "infiltration_shift",
]


def success_distribution(table: Mapping[str, Any], drm: int) -> Distribution:
    """Exact chance that 2d6 + *drm* is at most the table's success number."""
    need = int(table["succeeds_at_most"])
    return (Distribution.die(6) + Distribution.die(6)).map(
        lambda r: r + drm <= need, label="infiltration succeeds"
    )


def attacker_drm(state: StateLike, u: Any) -> int:
    """DRMs the infiltrator's side knows: its ELR and ML, night and weather (L262; placeholder sizes)."""
    d = state.tables["infiltration"]["drm"]
    out = int(d.get("attacker_elr_per_point", 0)) * int(u.get("elr", 0))
    if int(u.get("ml", 7)) > 7:
        out += int(d.get("attacker_ml_above_7", 0))
    if daypart(state) == "night":
        out += int(d.get("night", 0))
    w = state.public.get("weather", {})
    if w.get("fog") == "fog":
        out += int(d.get("fog", 0))
    if w.get("precipitation") == "rain":
        out += int(d.get("rain", 0))
    return out


def defender_drm(state: StateLike, defenders: list[Any]) -> int:
    """The defender's DRM: its best ELR (hidden from the infiltrator)."""
    per = int(state.tables["infiltration"]["drm"].get("defender_elr_per_point", 0))
    return per * max((int(x.get("elr", 0)) for x in defenders), default=0)


def _maybe_in_ezoc(state: Any, u: Any) -> bool:
    """Could *u*'s hex be in EZOC, as its side knows (the real EZOC is tested at adjudication):
    under ``ezoc_declaration: declared`` only a declared EZOC it knows of counts; under
    ``always`` any hex next to an enemy-owned hex may be (L258, L30)."""
    if state.options.get("ezoc_declaration", "always") == "declared":
        return state.map.label(u.hex) in declared_against(state, u.side)
    return any(
        n in state.map.hexes and owner(state, n) not in (u.side, "none") for n in u.hex.neighbours()
    )


def infiltration_shift(em: Emitter, dice: Any, h: Any, leader: Any, defenders: list[Any]) -> str:
    """Roll the Infiltration Table at Combat Resolution; announce it; return the CRT shift's name."""
    drm = attacker_drm(em.state, leader) + defender_drm(em.state, defenders)
    r = sum(
        dice.roll_many(2, 6, purpose=f"infiltration (DRM {drm:+d})", rule="L262", visible_to=None)
    )
    ok = r + drm <= int(em.state.tables["infiltration"]["succeeds_at_most"])
    lab = em.state.map.label(h)
    announce(
        em,
        f"Infiltration into {lab}: 2d6={r}{drm:+d}, "
        + ("success (attacker shift)" if ok else "detected (defender shift)"),
        rule="L263",
        hex=lab,
        roll=r,
    )
    return "infiltration_success" if ok else "infiltration_failure"


def delay_others(em: Emitter, lab: str, attackers: list[Any]) -> None:
    """Other attackers of an infiltrated hex are delayed 1 AP (L260): one attack level lower."""
    for u in attackers:
        if u.get("attack_type") == "infiltration":
            continue
        new = DOWNGRADE.get(u.get("attack_type") or "hasty")
        if new is None:
            em.data(
                u.id, rule="L260", attack_hex=None, attack_type=None, attack_from=None, pursue=None
            )
            em.say(
                f"{u.id}'s hasty attack on {lab} is called off: the infiltration goes first",
                rule="L260",
                visible_to=u.side,
            )
        else:
            em.data(u.id, rule="L260", attack_type=new)


class Infiltrate(OrderHandler):
    type = OrderType(
        "infiltrate",
        (
            Param("unit", "unit", "a Good Order Company in EZOC"),
            Param("hex", "hex", "adjacent enemy hex"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.2",
        doc="HQ order (1 AP): a Company in EZOC secretly infiltrates an adjacent enemy hex "
        "(revealed at Combat Resolution)",
    )

    def _why_not(self, state: StateLike, u: Any, h: Any) -> tuple[str, str, str] | None:
        if not is_company(u):
            return f"{u.id} is not a Company", "not-company", "L258"
        if state_of(u) != GOOD_ORDER:
            return f"{u.id} is not in Good Order", "not-good-order", "L258"
        if u.get("act"):
            return f"{u.id} has already been activated this impulse", "already-activated", "L258"
        if engaged(state, u.hex) or not _maybe_in_ezoc(state, u):
            return (
                f"{u.id} is not in EZOC (infiltration starts from an EZOC hex)",
                "not-in-ezoc",
                "L258",
            )
        if h.distance(u.hex) != 1 or owner(state, h) == u.side:
            return f"{state.map.label(h)} is not an adjacent enemy hex", "not-adjacent", "L258"
        if engaged(state, h) or state.map.hexes[h].facts.get("battle"):
            return (
                f"{state.map.label(h)} is already attacked: the infiltration must come first",
                "not-first",
                "L260",
            )
        if step_cost(state, u, u.hex, h) == float("inf"):
            return f"{u.id} could not enter {state.map.label(h)}", "impassable", "L258"
        return None

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if (
                u.side != side
                or not alive_on_map(u)
                or not is_company(u)
                or u.get("act")
                or state_of(u) != GOOD_ORDER
                or not _maybe_in_ezoc(state, u)
            ):
                continue
            for n in u.hex.neighbours():
                if n in state.map.hexes and self._why_not(state, u, n) is None:
                    o = self.type.make(side, unit=u.id, hex=state.map.label(n))
                    try:
                        order_hq(state, o, u, None, "10.2")
                    except Exception:
                        break
                    ex.append(o)
        return spec_from_examples(side, self.type, ex, 12)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "infiltrations are ordered in your Operational Impulse", "wrong-step", "L258", order
            )
        h = args["hex"]
        why = self._why_not(state, u, h)
        if why:
            raise refuse(why[0], why[1], why[2], order)
        order_hq(state, order, u, args.get("hq"), "10.2")

    def preview(
        self, state: StateLike, order: Any, args: Mapping[str, Any]
    ) -> dict[str, Distribution]:
        """Exact chance of success for each defender ELR (the defender is hidden)."""
        u = args["unit"]
        per = int(state.tables["infiltration"]["drm"].get("defender_elr_per_point", 0))
        base = attacker_drm(state, u)
        return {
            f"defender ELR {e:+d}": success_distribution(
                state.tables["infiltration"], base + per * e
            )
            for e in range(-1, 3)
        }

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        hq_ap(em, order_hq(state, order, u, args.get("hq"), "10.2"), "L258")
        lab = state.map.label(args["hex"])
        real = bool(ezoc_at(state, u.side, u.hex))  # the referee tests the EZOC (L258, L30)
        learn_ezoc(em, u.side, u.hex, real, "L258")
        if not real:
            em.say(
                f"{state.map.label(u.hex)} is not in EZOC: {u.id} cannot infiltrate {lab}; the "
                "HQ's order is spent",
                rule="L258",
                visible_to=order.side,
            )
            return em.events
        em.data(
            u.id,
            rule="L258",
            act="open",
            acted=True,
            ap=0,
            mp_left=0,
            attack_hex=lab,
            attack_type="infiltration",
            attack_from=state.map.label(u.hex),
            pursue=True,
            ext_dir=None,
        )
        close_activation(em, u.id, rule="L258")
        em.say(
            f"{u.id} infiltrates toward {lab} (secret until Combat Resolution)",
            rule="L259",
            visible_to=order.side,
        )
        return em.events
