"""A unit's activation and what orders cost: OP spent by the side (B3.5, L786), AP and MP paid
by the unit (L243), the HQ that issues an order (L240) and the end of an activation (L155, L241).

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.errors import refuse
from owsnb.kernel.events import state_set
from owsnb.kernel.state import StateLike
from owsnb.rules.tocs import economy
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import alive_on_map, degrade, enemy_of, hq_chain, state_of
from owsnb.rules.tocs.order_checks import is_open
from owsnb.rules.tocs.supply import in_loc

__all__ = [
    "spend",
    "check_spend",
    "close_activation",
    "mp_available",
    "pay_mp",
    "pay_move",
    "road_bonus_eligible",
    "order_hq",
    "hq_ap",
]


def mp_available(u: Any, pool: str = "mp_left") -> float:
    """MP *u* can still spend: what is left in *pool* (``mp_left`` for moves, ``recon_mp`` for a
    reconnaissance chain) plus every AP left, each worth its MP (L243, L267)."""
    return float(u.get(pool, 0)) + int(u.get("ap", 0)) * float(u.get("mp", 0))


def spend(em: Emitter, side: str, cost: int, *, rule: str, what: str) -> None:
    """Pay *cost* OP (economy ruling ``deficit_op``); OP spent is disclosed (L786)."""
    s = em.state
    priv = s.sides[side].private
    plan = economy.spend_plan(
        cost=cost,
        pool=int(priv.get("op_pool", 0)),
        earned_left=int(priv.get("earned_left", 0)),
        deficit_used=int(priv.get("deficit_used", 0)),
        mode=s.options.get("deficit_op", "extra"),
        deficit_max=int(s.tables["op"]["deficit_max"]),
        bank_locked=economy.bank_locked(s, side),
    )
    em.private(
        side,
        rule=rule,
        op_pool=plan["pool_after"],
        earned_left=int(priv.get("earned_left", 0)) - plan["from_earned"],
        deficit_used=int(priv.get("deficit_used", 0)) + plan["deficit"],
    )
    pub = dict(s.public.get("op_spent", {}))
    pub[side] = int(pub.get(side, 0)) + cost
    credit = dict(s.public.get("deficit_credit", {}))
    if plan["deficit"]:
        enemy = enemy_of(s, side)
        credit[enemy] = int(credit.get(enemy, 0)) + plan["deficit"]
    em.emit(state_set("public", {"op_spent": pub, "deficit_credit": credit}, rule=rule))


def check_spend(state: StateLike, side: str, cost: int, order: Any, rule: str) -> None:
    """Refuse the order (``no-op``) if *side* cannot pay *cost* OP."""
    priv = state.sides[side].private
    try:
        economy.spend_plan(
            cost=cost,
            pool=int(priv.get("op_pool", 0)),
            earned_left=int(priv.get("earned_left", 0)),
            deficit_used=int(priv.get("deficit_used", 0)),
            mode=state.options.get("deficit_op", "extra"),
            deficit_max=int(state.tables["op"]["deficit_max"]),
            bank_locked=economy.bank_locked(state, side),
        )
    except economy.SpendError as exc:
        raise refuse(str(exc), "no-op", rule, order) from None


def close_activation(em: Emitter, uid: str, *, rule: str = "L241") -> None:
    """End a unit's activation: it degrades one state if it acted (L155, L241)."""
    u = em.state.units[uid]
    if not is_open(u):
        return
    changes: dict[str, Any] = {
        "act": "closed",
        "ap": 0,
        "mp_left": 0,
        "road_bonus": 0,
        "ap_road": None,
    }
    if u.get("acted") and not u.get("withdrew") and alive_on_map(u):
        changes["state"] = degrade(state_of(u))
    em.data(uid, rule=rule, **changes)


def pay_mp(em: Emitter, u: Any, cost: float, rule: str) -> bool:
    """Spend *cost* MP, buying further AP as needed (consecutive Moves pool MP, L243)."""
    mp_left, ap = float(u.get("mp_left", 0)), int(u.get("ap", 0))
    while mp_left + 1e-9 < cost and ap > 0:
        ap -= 1
        mp_left += float(u.get("mp", 0))
    if mp_left + 1e-9 < cost:
        return False
    em.data(u.id, rule=rule, mp_left=mp_left - cost, ap=ap, acted=True)
    return True


def road_bonus_eligible(state: StateLike, u: Any) -> bool:
    """Does *u* earn the road bonus (L245: units on foot, armor and mech; motorized per option
    ``road_bonus_motorized``, digest 6 #15)? Never in fog (L528: "Fog negates the road bonus for
    all unit types")."""
    if state.public.get("weather", {}).get("fog") == "fog":
        return False
    m = u.get("mobility", "foot")
    if m == "motorized":
        return state.options.get("road_bonus_motorized", "no") == "yes"
    return m in ("foot", "mech", "armored")


def pay_move(em: Emitter, u: Any, cost: float, at_road_rate: bool, rule: str) -> bool:
    """Pay one hex of movement (L243) with the road bonus (L245): each AP whose MP all went on
    road-rate hexes earns one more road hex, taken free when the next road hex would need a new AP."""
    s = em.state
    eligible = road_bonus_eligible(s, u)
    bonus = int(u.get("road_bonus", 0))
    if at_road_rate and eligible and bonus > 0 and float(u.get("mp_left", 0)) + 1e-9 < cost:
        em.data(u.id, rule="L245", road_bonus=bonus - 1, acted=True)
        em.say(f"{u.id} uses its road bonus (+1 hex)", rule="L245", visible_to=u.side)
        return True
    ap0 = int(u.get("ap", 0))
    if not pay_mp(em, u, cost, rule):
        return False
    after = em.state.units[u.id]
    clean = (
        at_road_rate if int(after.get("ap", 0)) < ap0 else bool(u.get("ap_road")) and at_road_rate
    )
    changes: dict[str, Any] = {"ap_road": clean}
    if (
        eligible and clean and float(after.get("mp_left", 0)) <= 1e-9
    ):  # an AP spent entirely at road rate
        changes.update(road_bonus=bonus + 1, ap_road=False)
    em.data(u.id, rule="L245", **changes)
    return True


def order_hq(state: StateLike, order: Any, u: Any, named: Any | None, rule: str) -> Any:
    """The activated HQ that issues an order to *u* (L240): its own or a parent formation's HQ
    (the *named* one, a bound unit of the ordering side, if given), with an AP left, and *u* in
    LOC."""
    chain = hq_chain(state, u)
    if named is not None:
        hq = named
        if hq.side != order.side or hq not in chain:
            raise refuse(
                f"{hq.id!r} is not an HQ of {u.id}'s chain of command",
                "not-parent-hq",
                "L240",
                order,
            )
        cands = [hq]
    else:
        cands = chain
    for hq in cands:
        if is_open(hq) and int(hq.get("ap", 0)) >= 1 and alive_on_map(hq):
            if not in_loc(state, u):
                raise refuse(
                    f"{u.id} is out of LOC: it cannot receive orders", "out-of-loc", "L187", order
                )
            return hq
    raise refuse(
        f"no activated HQ of {u.id}'s chain has an AP left to order it ({rule})",
        "no-hq",
        "L240",
        order,
    )


def hq_ap(em: Emitter, hq: Any, rule: str) -> None:
    """The ordering HQ spends one AP (L240)."""
    em.data(hq.id, rule=rule, ap=int(hq.get("ap", 0)) - 1)
