"""Order handlers: the WWII actions (section 10) and the impulse verbs (Basic 3.3-3.4).

Citations: ``B3.x`` are the Basic rules' own paragraph numbers, ``10.x``-``15.x`` the WWII
rules' numbers, and ``Lnnn`` the line of the source text where the book's numbering was lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import Distribution, IllegalOrderError, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.events import unit_move
from owsnb.rules.tocs import economy
from owsnb.rules.tocs.combat import Battle, destroy, resolve_battle, result_distribution
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import (
    DISRUPTED,
    alive_on_map,
    ap_for,
    daypart,
    hq_chain,
    improve,
    is_company,
    is_mech,
    owner,
    state_of,
    unit_types,
    units_in,
)
from owsnb.rules.tocs.perimeter import announce, connected_to_perimeter, take_hex
from owsnb.rules.tocs.supply import facilities, in_loc, trace
from owsnb.rules.tocs.terrain import enterable, is_road_step, step_cost
from owsnb.rules.tocs.zoc import declared_against, engaged, ezoc_at, ezoc_sources, zoc_of

__all__ = ["HANDLERS", "spend", "close_activation", "mc_distribution"]

ATTACK_KINDS = ("intensive", "deliberate", "hasty")


# -- helpers -----------------------------------------------------------------------------------
def _err(msg: str, code: str, rule: str, order: Any) -> IllegalOrderError:
    return IllegalOrderError(msg, code=code, rule=rule, order=order)


def _own(state: Any, order: Any, uid: str, rule: str = "L238") -> Any:
    u = state.units.get(uid)
    if u is None or u.side != order.side:
        raise _err(f"{order.side} has no unit {uid!r}", "not-your-unit", rule, order)
    if not alive_on_map(u):
        raise _err(f"{uid} is not on the map", "off-map", rule, order)
    return u


def _hex(state: Any, order: Any, ref: str, rule: str) -> Any:
    try:
        return state.map.hex(ref)
    except ValueError as exc:
        raise _err(str(exc), "bad-hex", rule, order) from None


def _open(u: Any) -> bool:
    return u.get("act") == "open"


def _need_open(u: Any, order: Any, rule: str = "B3.5") -> None:
    if not _open(u):
        raise _err(f"{u.id} is not activated (activate it first: 1 OP)", "not-activated", rule, order)


def _mp_available(u: Any) -> float:
    return float(u.get("mp_left", 0)) + int(u.get("ap", 0)) * float(u.get("mp", 0))


def mc_distribution(ml: int, drm: int = 0) -> Distribution:
    """Exact chance of passing a morale check: 2d6 + DRM <= ML (L151)."""
    two = Distribution.die(6) + Distribution.die(6)
    return two.map(lambda r: r + drm <= ml, label=f"MC vs ML {ml}")


def spend(em: Emitter, side: str, cost: int, *, rule: str, what: str) -> None:
    """Pay *cost* OP (economy ruling ``deficit_op``); OP spent is disclosed (L786)."""
    s = em.state
    priv = s.sides[side].private
    plan = economy.spend_plan(
        cost=cost, pool=int(priv.get("op_pool", 0)), earned_left=int(priv.get("earned_left", 0)),
        deficit_used=int(priv.get("deficit_used", 0)), mode=s.options.get("deficit_op", "extra"),
        deficit_max=int(s.tables["op"]["deficit_max"]), bank_locked=economy.bank_locked(s, side))
    em.private(side, rule=rule, op_pool=plan["pool_after"],
               earned_left=int(priv.get("earned_left", 0)) - plan["from_earned"],
               deficit_used=int(priv.get("deficit_used", 0)) + plan["deficit"])
    pub = dict(s.public.get("op_spent", {}))
    pub[side] = int(pub.get(side, 0)) + cost
    credit = dict(s.public.get("deficit_credit", {}))
    if plan["deficit"]:
        enemy = next(x for x in s.sides if x != side)
        credit[enemy] = int(credit.get(enemy, 0)) + plan["deficit"]
    from owsnb.kernel.events import state_set

    em.emit(state_set("public", {"op_spent": pub, "deficit_credit": credit}, rule=rule))


def _check_spend(state: Any, side: str, cost: int, order: Any, rule: str) -> None:
    priv = state.sides[side].private
    try:
        economy.spend_plan(cost=cost, pool=int(priv.get("op_pool", 0)), earned_left=int(priv.get("earned_left", 0)),
                           deficit_used=int(priv.get("deficit_used", 0)), mode=state.options.get("deficit_op", "extra"),
                           deficit_max=int(state.tables["op"]["deficit_max"]),
                           bank_locked=economy.bank_locked(state, side))
    except economy.SpendError as exc:
        raise _err(str(exc), "no-op", rule, order) from None


def close_activation(em: Emitter, uid: str, *, rule: str = "L241") -> None:
    """End a unit's activation: it degrades one state if it acted (L155, L241)."""
    u = em.state.units[uid]
    if not _open(u):
        return
    changes: dict[str, Any] = {"act": "closed", "ap": 0, "mp_left": 0}
    if u.get("acted") and not u.get("withdrew") and alive_on_map(u):
        from owsnb.rules.tocs.model import degrade

        changes["state"] = degrade(state_of(u))
    em.data(uid, rule=rule, **changes)


def _pay_mp(em: Emitter, u: Any, cost: float, rule: str) -> bool:
    """Spend *cost* MP, buying further AP as needed (consecutive Moves pool MP, L243)."""
    mp_left, ap = float(u.get("mp_left", 0)), int(u.get("ap", 0))
    while mp_left + 1e-9 < cost and ap > 0:
        ap -= 1
        mp_left += float(u.get("mp", 0))
    if mp_left + 1e-9 < cost:
        return False
    em.data(u.id, rule=rule, mp_left=mp_left - cost, ap=ap, acted=True)
    return True


def _order_hq(state: Any, order: Any, u: Any, hq_id: str | None, rule: str) -> Any:
    """The activated HQ that issues an order to *u* (L240): its own or a parent formation's HQ,
    with an AP left, and *u* in LOC."""
    chain = hq_chain(state, u)
    if hq_id:
        hq = state.units.get(hq_id)
        if hq is None or hq.side != order.side or hq not in chain:
            raise _err(f"{hq_id!r} is not an HQ of {u.id}'s chain of command", "not-parent-hq", "L240", order)
        cands = [hq]
    else:
        cands = chain
    for hq in cands:
        if _open(hq) and int(hq.get("ap", 0)) >= 1 and alive_on_map(hq):
            if not in_loc(state, u):
                raise _err(f"{u.id} is out of LOC: it cannot receive orders", "out-of-loc", "L187", order)
            return hq
    raise _err(f"no activated HQ of {u.id}'s chain has an AP left to order it ({rule})", "no-hq", "L240", order)


def _hq_ap(em: Emitter, hq: Any, rule: str) -> None:
    em.data(hq.id, rule=rule, ap=int(hq.get("ap", 0)) - 1)


def _learn_ezoc(em: Emitter, side: str, h: Any, exists: bool, rule: str) -> None:
    known = set(em.state.sides[side].private.get("ezoc_known", ()))
    lab = em.state.map.label(h)
    if exists and lab not in known:
        em.private(side, rule=rule, ezoc_known=sorted(known | {lab}))
    elif not exists and lab in known:
        em.private(side, rule=rule, ezoc_known=sorted(known - {lab}))
        em.say(f"EZOC in {lab} no longer exists", rule=rule, visible_to=side)


def _step(state: Any) -> str:
    return state.clock.step


def _units_spec(state: Any, side: str, pred: Any) -> tuple[str, ...]:
    return tuple(u.id for u in state.units.values() if u.side == side and alive_on_map(u) and pred(u))


# -- impulse verbs -----------------------------------------------------------------------------
class Begin(OrderHandler):
    """Start the Operational Impulse: impulse weather, aircraft boxes, supply check, earn OP."""

    type = OrderType("begin", (), rule="B3.3",
                     doc="start your impulse: roll weather and OP (minimum + d10 + deficit OP granted)")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        return OrderSpec(side, self.type, examples=(self.type.make(side),))

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Distribution:
        side = order.side
        minimum = int(state.public.get("op_minimum", {}).get(side, 0))
        credit = int(state.public.get("deficit_credit", {}).get(side, 0))
        return economy.op_earned_distribution(minimum, credit)


class Pass(OrderHandler):
    type = OrderType("pass", (), rule="B3.4", doc="perform no activations or actions: bank your OP; +pass on the turn-end roll")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if state.public.get("spent_this_impulse"):
            return None
        return OrderSpec(side, self.type, examples=(self.type.make(side),))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        if int(state.public.get("op_spent", {}).get(order.side, 0)) or state.public.get("spent_this_impulse"):
            raise _err("you have already activated or spent OP this impulse; say 'done' instead", "not-a-pass", "L63", order)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Distribution:
        box = economy.turn_end_box(state)
        p = economy.turn_end_chance(box, True, state.options.get("pass_bonus", "toward-end"))
        if state.public.get("last_passed") and state.public.get("last_passed") != order.side:
            p = 1  # two consecutive passes end the turn (L83)
        return Distribution.bernoulli(p, label="turn ends after this pass")


class Activate(OrderHandler):
    type = OrderType("activate", (Param("unit", "unit"),), rule="B3.5",
                     doc="spend 1 OP to activate a unit (reserves activate free in Reserve Commitment and Exploitation)")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        step = _step(state)
        col = state.tables["daypart"]["ap_column"][daypart(state)]
        def ok(u: Any) -> bool:
            if u.get("act") or u.get("cls") in ("aircraft", "naval"):
                return False
            if step in ("3.8", "3.10") and not u.get("reserve"):
                return False
            return ap_for(state_of(u), col) > 0
        ids = _units_spec(state, side, ok)
        if not ids:
            return None
        return OrderSpec(side, self.type, FrozenDict(unit=ids), tuple(self.type.make(side, unit=i) for i in ids[:8]))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        if u.get("cls") in ("aircraft", "naval"):
            raise _err(f"{u.id} is an {u.get('cls')} unit: use 'fly'", "wrong-verb", "L56", order)
        if u.get("act"):
            raise _err(f"{u.id} has already been activated this impulse", "already-activated", "L239", order)
        col = state.tables["daypart"]["ap_column"][daypart(state)]
        if ap_for(state_of(u), col) <= 0:
            raise _err(f"{u.id} is {state.tables['states']['names'][state_of(u)]}: no AP, it cannot activate",
                       "no-ap", "L156", order)
        step = _step(state)
        if step in ("3.8", "3.10"):
            if not u.get("reserve"):
                raise _err("only units in reserve activate in this phase", "not-reserve", "L68" if step == "3.8" else "L79", order)
        else:
            _check_spend(state, order.side, int(state.tables["op"]["activation"]), order, "L65")

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        cur = state.sides[side].private.get("active")
        if cur and cur in state.units and state.units[cur].get("cls") != "hq":
            close_activation(em, cur, rule="L239")
        u = em.state.units[args["unit"]]
        step = _step(state)
        free = step in ("3.8", "3.10") and u.get("reserve")
        if not free:
            spend(em, side, int(state.tables["op"]["activation"]), rule="L65", what=f"activate {u.id}")
        col = state.tables["daypart"]["ap_column"][daypart(state)]
        ap = ap_for(state_of(u), col, state.tables["states"])
        loc = in_loc(em.state, u)
        if not loc:
            ap = max(0, ap - 1)  # L187
        em.data(u.id, rule="L65", act="open", ap=ap, mp_left=0, acted=False, in_loc=loc,
                reserve=False, reserve_used=bool(free))  # L336: a reserve activates once, then it is spent
        em.private(side, rule="L239", active=u.id)
        from owsnb.kernel.events import state_set

        em.emit(state_set("public", {"spent_this_impulse": True}, rule="L63"))
        em.say(f"{u.id} activated: {ap} AP" + ("" if loc else " (out of LOC: -1 AP)"), rule="L65", visible_to=side)
        return em.events


class Move(OrderHandler):
    type = OrderType("move", (Param("unit", "unit"), Param("to", "hex", "an adjacent hex")), rule="10.1",
                     doc="move one hex (COT; extra AP are spent as needed, MP pool across consecutive moves)")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        movers = [u for u in state.units.values() if u.side == side and alive_on_map(u) and _open(u)]
        ex = []
        for u in movers:
            if not alive_on_map(u) or engaged(state, u.hex):
                continue
            for n in u.hex.neighbours():
                if n in state.map.hexes and step_cost(state, u, u.hex, n) <= _mp_available(u):
                    if u.get("cls") == "battery" and owner(state, n) != side:
                        continue
                    ex.append(self.type.make(side, unit=u.id, to=state.map.label(n)))
        if not ex:
            return None
        return OrderSpec(side, self.type, FrozenDict(unit=tuple({o.args[0]: 0 for o in ex})), tuple(ex[:40]))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        _need_open(u, order)
        to = _hex(state, order, args["to"], "10.1")
        if to.distance(u.hex) != 1:
            raise _err(f"{args['to']} is not adjacent to {u.id} ({state.map.label(u.hex)}); move one hex at a time",
                       "not-adjacent", "10.1", order)
        if engaged(state, u.hex):
            raise _err(f"{u.id} is in an Engagement Battle: it may only Withdraw", "engaged", "L246", order)
        if owner(state, to) != u.side:
            if u.get("cls") == "battery":
                raise _err("batteries never enter the enemy perimeter", "battery-perimeter", "L234", order)
            if u.get("cls") == "asset" and not u.get("recon"):
                raise _err("only recon assets enter the enemy perimeter alone", "asset-perimeter", "L234", order)
        if _step(state) == "3.8" and owner(state, to) != u.side:
            raise _err("reserves committed by the non-phasing player stay inside their perimeter (ruling E.6)",
                       "reserve-no-attack", "L68", order)
        cost = step_cost(state, u, u.hex, to)
        if cost == float("inf"):
            raise _err(f"{u.id} cannot enter {args['to']} from {state.map.label(u.hex)} (terrain or river)",
                       "impassable", "11.0", order)
        if _mp_available(u) + 1e-9 < cost:
            raise _err(f"{u.id} needs {cost:g} MP to enter {args['to']}; it has {_mp_available(u):g}",
                       "no-mp", "10.1", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = state.units[args["unit"]]
        frm, to = u.hex, state.map.hex(args["to"])
        enemy = next(x for x in state.sides if x != side)
        cost = step_cost(state, u, frm, to)
        road = is_road_step(state, frm, to)
        lab = state.map.label(to)
        # EZOC -> EZOC (L174; extended-deployment hexes per option ext_ezoc_to_ezoc, L176 v L178)
        here = ezoc_at(state, side, frm)
        if here and state.options.get("ext_ezoc_to_ezoc", "text") == "text" and set(here) == {"extended"}:
            here = []
        there = ezoc_at(state, side, to)
        if here and there:
            if not is_mech(u):
                _learn_ezoc(em, side, to, True, "L174")
                em.data(u.id, rule="L174", mp_left=0, acted=True, ap=max(0, int(u.get("ap", 0)) - (1 if float(u.get("mp_left", 0)) <= 0 else 0)))
                em.say(f"{u.id} is blocked: {lab} is in EZOC and it may not move EZOC to EZOC", rule="L174", visible_to=side)
                return em.events
            cost *= 2  # L174: mech/armor pay 2xCOT
        if not _pay_mp(em, em.state.units[u.id], cost, "10.1"):
            em.data(u.id, rule="L174", mp_left=0, acted=True)
            em.say(f"{u.id} lacks the MP for 2xCOT into EZOC hex {lab}: it stops", rule="L174", visible_to=side)
            return em.events
        if u.get("ext_dir") is not None:
            em.data(u.id, rule="L310", ext_dir=None)
        if engaged(state, to):  # L246: join the battle, in secret
            em.emit(unit_move(u.id, to, path=(frm, to), visible_to=side, rule="L246"))
            em.data(u.id, rule="L246", mp_left=0, ap=0)
            em.say(f"{u.id} joins the Engagement Battle in {lab}", rule="L246", visible_to=side)
            return em.events
        if units_in(state, to, enemy):
            if _step(state) == "3.10":  # L80: exploitation stops short
                em.data(u.id, rule="L80", mp_left=0, ap=0)
                announce(em, f"Entry into {lab} is blocked: the hex is enemy occupied", rule="L80", hex=lab)
                return em.events
            announce(em, f"Ambush in {lab}!", rule="10.1.2", hex=lab)
            em.data(u.id, rule="L251", mp_left=0, ap=0)
            b = Battle(to, side, [u.id], "ambush", shifts=["ambush"], road_column=road and not u.get("recon"))
            summary = resolve_battle(em, dice, b, rule="10.1.2")
            em.say(f"{u.id} was ambushed in {lab}: {summary['result']} ({summary['outcome']})", rule="10.1.2", visible_to=side)
            return em.events
        em.emit(unit_move(u.id, to, path=(frm, to), visible_to=side, rule="10.1"))
        if owner(state, to) != side:
            take_hex(em, side, to, rule="L247", why="a unit enters it")
        kinds = ezoc_at(em.state, side, to)
        if kinds:
            _learn_ezoc(em, side, to, True, "L173")
            stops = "normal" in kinds or not is_mech(u)
            msg = f"{lab} is in EZOC" + ("; the move action ends (remaining MP of this AP lost)" if stops else "; armor/mech is not stopped by extended EZOC")
            em.say(msg, rule="L173" if "normal" in kinds else "L310", visible_to=side if owner(state, to) == side else None, hex=lab)
            if stops:
                em.data(u.id, rule="L173", mp_left=0)
        elif lab in declared_against(state, side):
            _learn_ezoc(em, side, to, False, "L172")
        return em.events


class Recon(OrderHandler):
    type = OrderType("recon", (Param("unit", "unit"), Param("hex", "hex", "next hex of the reconnaissance chain")),
                     rule="10.4", doc="project reconnaissance into a chain of adjacent hexes (1 AP starts or extends the chain)")
    _CLS = ("company", "hqcompany", "hq", "vehicle")

    def _can(self, u: Any) -> bool:
        return u.get("cls") in self._CLS or (u.get("cls") == "asset" and (u.get("recon") or u.get("mobility") == "armored"))

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units.values():
            if u.side != side or not alive_on_map(u) or not _open(u) or not self._can(u) or engaged(state, u.hex):
                continue
            last = u.get("recon_last")
            base = state.map.hex(last) if last else u.hex
            for n in base.neighbours():
                if n in state.map.hexes and owner(state, n) != side and step_cost(state, u, base, n, road=False) < float("inf"):
                    ex.append(self.type.make(side, unit=u.id, hex=state.map.label(n)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple({o.args[0]: 0 for o in ex})), tuple(ex[:30])) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        _need_open(u, order)
        if not self._can(u):
            raise _err(f"{u.id} cannot perform reconnaissance (batteries, dozers and gun assets never do)", "no-recon", "L267", order)
        if engaged(state, u.hex):
            raise _err(f"{u.id} is in an Engagement Battle", "engaged", "L246", order)
        h = _hex(state, order, args["hex"], "10.4")
        last = u.get("recon_last")
        base = state.map.hex(last) if last else u.hex
        if h.distance(base) != 1:
            raise _err(f"{args['hex']} is not adjacent to {state.map.label(base)} (the chain goes hex by hex)", "not-adjacent", "L271", order)
        if owner(state, h) == u.side:
            raise _err(f"{args['hex']} is inside your own perimeter", "own-hex", "L268", order)
        cost = step_cost(state, u, base, h, road=False)
        if cost == float("inf"):
            raise _err(f"reconnaissance cannot enter {args['hex']} (a Move could not)", "impassable", "L267", order)
        have = float(u.get("recon_mp", 0)) + int(u.get("ap", 0)) * float(u.get("mp", 0))
        if have + 1e-9 < cost:
            raise _err(f"{u.id} needs {cost:g} MP of reconnaissance for {args['hex']}; it has {have:g}", "no-mp", "L267", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = next(x for x in state.sides if x != side)
        u = state.units[args["unit"]]
        h = state.map.hex(args["hex"])
        lab = state.map.label(h)
        last = u.get("recon_last")
        base = state.map.hex(last) if last else u.hex
        cost = step_cost(state, u, base, h, road=False)
        mp, ap = float(u.get("recon_mp", 0)), int(u.get("ap", 0))
        while mp + 1e-9 < cost:
            ap -= 1
            mp += float(u.get("mp", 0))
        occupied = bool(units_in(state, h, enemy))
        marks = set(state.sides[side].private.get("recon_marks", ()))
        em.private(side, rule="L273", recon_marks=sorted(marks | {lab}))
        em.data(u.id, rule="10.4", ap=ap, recon_mp=0 if occupied else mp - cost,
                recon_last=None if occupied else lab, acted=True)
        _reveal_fixed(em, side, h)
        if occupied:
            announce(em, f"Reconnaissance into {lab}: enemy occupied", rule="L270", hex=lab, answer="occupied")
            return em.events
        kinds = ezoc_at(state, side, h)
        if kinds:
            _learn_ezoc(em, side, h, True, "L272")
            announce(em, f"Reconnaissance into {lab}: empty, in EZOC", rule="L272", hex=lab, answer="empty, EZOC")
        else:
            if lab in declared_against(state, side):
                _learn_ezoc(em, side, h, False, "L172")
            announce(em, f"Reconnaissance into {lab}: empty", rule="L272", hex=lab, answer="empty")
            if connected_to_perimeter(em.state, side, h):
                take_hex(em, side, h, rule="L272", why="reconnaissance found it empty")
        return em.events


def _reveal_fixed(em: Emitter, side: str, h: Any) -> None:
    """Fixed features of a reconnoitred hex are announced (L269-L270): here, facilities."""
    s = em.state
    lab = s.map.label(h)
    known = [dict(f) for f in s.sides[side].private.get("facilities_known", ())]
    for f in facilities(s):
        if f["hex"] == lab and f.get("side") != side and not any(k["hex"] == lab and k["type"] == f["type"] for k in known):
            known.append({"hex": lab, "type": f["type"], "name": f.get("name", "")})
            em.private(side, rule="L269", facilities_known=known)
            em.say(f"A {f['type']} is found in {lab}", rule="L269", visible_to=None, hex=lab)


class Probe(OrderHandler):
    type = OrderType("probe", (Param("unit", "unit"), Param("hex", "hex", "an adjacent enemy hex")), rule="10.5",
                     doc="1 AP: learn whether an adjacent enemy hex is empty, occupied (and by what types) or in EZOC")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ex = [self.type.make(side, unit=u.id, hex=state.map.label(n))
              for u in state.units.values() if u.side == side and alive_on_map(u) and _open(u) and int(u.get("ap", 0)) >= 1
              and Recon._can(Recon, u) and not engaged(state, u.hex)
              for n in u.hex.neighbours() if n in state.map.hexes and owner(state, n) != side]
        return OrderSpec(side, self.type, FrozenDict(unit=tuple({o.args[0]: 0 for o in ex})), tuple(ex[:30])) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        _need_open(u, order)
        if not Recon._can(Recon, u):
            raise _err(f"{u.id} cannot probe", "no-recon", "L277", order)
        h = _hex(state, order, args["hex"], "10.5")
        if h.distance(u.hex) != 1 or owner(state, h) == u.side:
            raise _err(f"{args['hex']} is not an adjacent enemy hex", "not-adjacent", "L277", order)
        if int(u.get("ap", 0)) < 1:
            raise _err(f"{u.id} has no AP left", "no-ap", "L277", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = next(x for x in state.sides if x != side)
        u = state.units[args["unit"]]
        h = state.map.hex(args["hex"])
        lab = state.map.label(h)
        em.data(u.id, rule="10.5", ap=int(u.get("ap", 0)) - 1, acted=True)
        marks = set(state.sides[side].private.get("probe_marks", ()))
        em.private(side, rule="L278", probe_marks=sorted(marks | {lab}))
        _reveal_fixed(em, side, h)
        occ = units_in(state, h, enemy)
        for x in occ:  # L337-338: a probe cancels reserve and refit
            if x.get("reserve") or x.get("refit"):
                em.data(x.id, rule="L337", reserve=False, refit=False)
        kinds = ezoc_at(state, side, h)
        if kinds:
            _learn_ezoc(em, side, h, True, "L277")
        if occ:
            types = ", ".join(unit_types(occ))
            announce(em, f"Probe into {lab}: occupied by {types}" + ("; in EZOC" if kinds else ""), rule="L277",
                     hex=lab, answer="occupied", types=unit_types(occ))
        else:
            announce(em, f"Probe into {lab}: empty" + (", in EZOC" if kinds else ""), rule="L277", hex=lab,
                     answer="empty")
            if not kinds:
                take_hex(em, side, h, rule="L278", why="probe found it empty")
        return em.events


class Attack(OrderHandler):
    type = OrderType("attack", (Param("unit", "unit"), Param("hex", "hex", "adjacent hex to attack"),
                                Param("kind", "choice", "intensive (3 AP), deliberate (2), hasty (1)", positional=False,
                                      optional=True, choices=ATTACK_KINDS),
                                Param("pursue", "choice", "pursue a retreating defender", positional=False,
                                      optional=True, choices=("yes", "no"))),
                     rule="10.6", doc="declare an attack into an adjacent hex (the activation's last action; a Battle Marker is announced)")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if _step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if u.side != side or not alive_on_map(u) or not _open(u) or int(u.get("attack", 0)) <= 0:
                continue
            if u.get("cls") in ("battery", "hq") or engaged(state, u.hex):
                continue
            for n in u.hex.neighbours():
                if n in state.map.hexes and owner(state, n) != side:
                    for k in ATTACK_KINDS:
                        if int(u.get("ap", 0)) >= int(state.tables["attack_types"][k]["ap"]):
                            ex.append(self.type.make(side, unit=u.id, hex=state.map.label(n), kind=k))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple({o.args[0]: 0 for o in ex})), tuple(ex[:30])) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        if _step(state) != "3.5":
            raise _err("ground attacks are declared in your Operational Impulse only", "wrong-step", "L79", order)
        _need_open(u, order)
        kind = args.get("kind", "hasty")
        need = int(state.tables["attack_types"][kind]["ap"])
        if int(u.get("ap", 0)) < need:
            raise _err(f"a {kind} attack needs {need} AP; {u.id} has {u.get('ap', 0)}", "no-ap", "L281", order)
        if u.get("cls") == "battery":
            raise _err("batteries support battles; they never attack into the enemy perimeter", "battery-perimeter", "L234", order)
        if int(u.get("attack", 0)) <= 0:
            raise _err(f"{u.id} has no attack strength", "no-attack", "L720", order)
        if engaged(state, u.hex):
            raise _err(f"{u.id} is in an Engagement Battle", "engaged", "L246", order)
        h = _hex(state, order, args["hex"], "10.6")
        if h.distance(u.hex) != 1:
            raise _err(f"{args['hex']} is not adjacent to {u.id}", "not-adjacent", "L281", order)
        if owner(state, h) == u.side:
            raise _err(f"{args['hex']} is your own hex", "own-hex", "L283", order)
        if engaged(state, h):
            raise _err(f"{args['hex']} is an Engagement Battle: units join it by moving in, they do not attack it",
                       "engaged-hex", "L246", order)
        if step_cost(state, u, u.hex, h) == float("inf"):
            raise _err(f"{u.id} could not enter {args['hex']}", "impassable", "L281", order)
        lab = state.map.label(h)
        n = sum(1 for x in state.units.values() if x.side == u.side and x.get("attack_hex") == lab
                and x.get("cls") in ("company", "hqcompany", "vehicle", "battery"))
        if n >= 4 and u.get("cls") in ("company", "hqcompany", "vehicle"):
            raise _err(f"four units already attack {lab} (stacking limit)", "stacking", "L281", order)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> dict[str, Distribution]:
        """The defender's strength is hidden: one exact distribution per CRT column."""
        kind = args.get("kind", "hasty")
        return {c: result_distribution(state, kind, i) for i, c in enumerate(state.tables["crt"]["columns"])}

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = state.units[args["unit"]]
        h = state.map.hex(args["hex"])
        lab = state.map.label(h)
        kind = args.get("kind", "hasty")
        em.data(u.id, rule="L242", attack_hex=lab, attack_type=kind, attack_from=state.map.label(u.hex),
                pursue=args.get("pursue") == "yes", ap=0, mp_left=0, acted=True, ext_dir=None)
        close_activation(em, u.id, rule="L282")
        if not state.map.hexes[h].facts.get("battle"):
            em.hexfact(h, rule="L67", battle=True)
            announce(em, f"Battle Marker placed on {lab}", rule="L67", hex=lab)
        return em.events


# -- ordered actions ---------------------------------------------------------------------------
class Withdraw(OrderHandler):
    type = OrderType("withdraw", (Param("unit", "unit"), Param("to", "hex", "an adjacent hex"),
                                  Param("hq", "unit", "ordering HQ", positional=False, optional=True)),
                     rule="10.3", doc="HQ order (1 AP) + 1 OP: leave an Engagement Battle after a morale check")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if _step(state) != "3.5":
            return None
        ex = [self.type.make(side, unit=u.id, to=state.map.label(n))
              for u in state.units.values() if u.side == side and alive_on_map(u) and engaged(state, u.hex) and not u.get("act")
              for n in u.hex.neighbours() if n in state.map.hexes and enterable(state, u, n)]
        return OrderSpec(side, self.type, FrozenDict(unit=tuple({o.args[0]: 0 for o in ex})), tuple(ex[:20])) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        if _step(state) != "3.5":
            raise _err("withdrawals are ordered in your Operational Impulse", "wrong-step", "L264", order)
        if not engaged(state, u.hex):
            raise _err(f"{u.id} is not in an Engagement Battle", "not-engaged", "L264", order)
        if u.get("act"):
            raise _err(f"{u.id} has already been activated", "already-activated", "L265", order)
        to = _hex(state, order, args["to"], "10.3")
        if to.distance(u.hex) != 1 or step_cost(state, u, u.hex, to) == float("inf"):
            raise _err(f"{args['to']} is not an adjacent hex {u.id} can enter", "not-adjacent", "L264", order)
        _order_hq(state, order, u, args.get("hq"), "10.3")
        _check_spend(state, order.side, 1, order, "L265")

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Distribution:
        u = state.unit(args["unit"])
        if u.get("recon") or u.get("mobility") == "armored":
            return Distribution.point(True, label="no MC (recon/armor)")
        return mc_distribution(int(u.get("ml", 7)))

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = next(x for x in state.sides if x != side)
        u = state.units[args["unit"]]
        hq = _order_hq(state, order, u, args.get("hq"), "10.3")
        _hq_ap(em, hq, "L264")
        frm, to = u.hex, state.map.hex(args["to"])
        if not (u.get("recon") or u.get("mobility") == "armored"):
            r = sum(dice.roll_many(2, 6, purpose=f"withdrawal MC for {u.id} (ML {u.get('ml')})", rule="L264", visible_to=side))
            if r > int(u.get("ml", 7)):
                em.say(f"{u.id} fails its withdrawal MC ({r} > ML {u.get('ml')}): no effect", rule="L265", visible_to=side)
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
            announce(em, f"The Engagement Battle in {state.map.label(frm)} ends: the hex is {state.sides[enemy].title}'s",
                     rule="L266", hex=state.map.label(frm))
        return em.events


class Extend(OrderHandler):
    type = OrderType("extend", (Param("unit", "unit"), Param("facing", "hex", "adjacent hex the deployment faces"),
                                Param("hq", "unit", "ordering HQ", positional=False, optional=True)),
                     rule="10.15", doc="HQ order (1 AP): a Company's ZOC covers 6 hexes two deep to its front")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if _step(state) != "3.5":
            return None
        ex = [self.type.make(side, unit=u.id, facing=state.map.label(u.hex.neighbours()[0]))
              for u in state.units.values() if u.side == side and alive_on_map(u) and is_company(u) and u.get("parent")]
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(o.args[0] for o in ex)), tuple(ex[:10])) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        if _step(state) != "3.5":
            raise _err("ordered in your Operational Impulse", "wrong-step", "L309", order)
        if not is_company(u):
            raise _err(f"{u.id} is not a Company", "not-company", "L309", order)
        f = _hex(state, order, args["facing"], "10.15")
        if f not in u.hex.neighbours():
            raise _err(f"{args['facing']} is not adjacent to {u.id}", "not-adjacent", "L312", order)
        _order_hq(state, order, u, args.get("hq"), "10.15")

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = state.units[args["unit"]]
        hq = _order_hq(state, order, u, args.get("hq"), "10.15")
        _hq_ap(em, hq, "L309")
        d = u.hex.neighbours().index(state.map.hex(args["facing"]))
        em.data(u.id, rule="L309", ext_dir=d)
        em.say(f"{u.id} in Extended Deployment facing {args['facing']}", rule="L312", visible_to=order.side)
        return em.events


class Reserve(OrderHandler):
    type = OrderType("reserve", (Param("unit", "unit"), Param("hq", "unit", "ordering HQ", positional=False, optional=True)),
                     rule="10.21", doc="HQ order (1 AP) + 1 prepaid OP: the unit waits to act free in Reserve Commitment/Exploitation")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if _step(state) != "3.5":
            return None
        ids = _units_spec(state, side, lambda u: not u.get("act") and not u.get("reserve") and u.get("parent")
                          and u.get("cls") not in ("hq", "aircraft", "naval") and not engaged(state, u.hex))
        return OrderSpec(side, self.type, FrozenDict(unit=ids), tuple(self.type.make(side, unit=i) for i in ids[:8])) if ids else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"])
        if _step(state) != "3.5":
            raise _err("ordered in your Operational Impulse", "wrong-step", "L334", order)
        if u.get("act") or u.get("reserve"):
            raise _err(f"{u.id} is already activated or in reserve", "already-activated", "L334", order)
        if engaged(state, u.hex) or state.map.label(u.hex) in declared_against(state, u.side):
            raise _err(f"{u.id} is in EZOC or engaged", "in-ezoc", "L334", order)
        _order_hq(state, order, u, args.get("hq"), "10.21")
        _check_spend(state, order.side, 1, order, "L334")

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = state.units[args["unit"]]
        hq = _order_hq(state, order, u, args.get("hq"), "10.21")
        _hq_ap(em, hq, "L334")
        spend(em, order.side, 1, rule="L334", what=f"prepay reserve {u.id}")
        em.data(u.id, rule="L334", reserve=True)
        return em.events


class Rally(OrderHandler):
    type = OrderType("rally", (Param("hex", "hex", "hex of the units to rally"),
                               Param("hq", "unit", "ordering HQ", positional=False, optional=True)),
                     rule="10.19", doc="HQ order (1 AP per hex): Disrupted/Demoralized/Dispersed subordinates each take an MC")

    def _targets(self, state: Any, side: str, h: Any, hq: Any) -> list[Any]:
        return [u for u in units_in(state, h, side) if state_of(u) >= DISRUPTED and hq in hq_chain(state, u)
                and u.get("rallied") != state.public.get("impulse")]

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if _step(state) != "3.5":
            return None
        ex = []
        for hq in state.units.values():
            if hq.side == side and _open(hq) and hq.get("cls") == "hq" and int(hq.get("ap", 0)) >= 1:
                for u in state.units.values():
                    if u.side == side and alive_on_map(u) and state_of(u) >= DISRUPTED and hq in hq_chain(state, u):
                        ex.append(self.type.make(side, hex=state.map.label(u.hex), hq=hq.id))
        return OrderSpec(side, self.type, examples=tuple(ex[:10])) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        if _step(state) != "3.5":
            raise _err("ordered in your Operational Impulse", "wrong-step", "L322", order)
        h = _hex(state, order, args["hex"], "10.19")
        hqs = [x for x in state.units.values() if x.side == order.side and x.get("cls") == "hq" and _open(x)
               and int(x.get("ap", 0)) >= 1 and (not args.get("hq") or x.id == args["hq"])]
        if not hqs:
            raise _err("no activated HQ with an AP left", "no-hq", "L322", order)
        for hq in hqs:
            if self._targets(state, order.side, h, hq) and trace(state, hq, hq.hex, {h}, int(hq.get("radius", 0))):
                return
        raise _err(f"no Disrupted, Demoralized or Dispersed subordinate in {args['hex']} within an HQ's overland LOC range "
                   "(or each was rallied this impulse)", "nothing-to-rally", "L322", order)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> dict[str, Distribution]:
        h = state.map.hex(args["hex"])
        return {u.id: mc_distribution(int(u.get("ml", 7))) for u in units_in(state, h, order.side) if state_of(u) >= DISRUPTED}

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        h = state.map.hex(args["hex"])
        hq = next(x for x in state.units.values() if x.side == side and x.get("cls") == "hq" and _open(x)
                  and int(x.get("ap", 0)) >= 1 and (not args.get("hq") or x.id == args["hq"])
                  and self._targets(state, side, h, x) and trace(state, x, x.hex, {h}, int(x.get("radius", 0))))
        _hq_ap(em, hq, "L322")
        best = 2 if state.options.get("rally_step", "capped") == "capped" else 0
        for u in self._targets(state, side, h, hq):
            r = sum(dice.roll_many(2, 6, purpose=f"rally MC for {u.id} (ML {u.get('ml')})", rule="L323", visible_to=side))
            if r <= int(u.get("ml", 7)):
                new = improve(state_of(u), 2, best=min(best, state_of(u)))
                em.data(u.id, rule="L325", state=new, rallied=state.public.get("impulse"))
                em.say(f"{u.id} rallies ({r} <= ML {u.get('ml')}): now {state.tables['states']['names'][new]}", rule="L325", visible_to=side)
            else:
                em.data(u.id, rule="L326", rallied=None)
                em.say(f"{u.id} fails to rally ({r} > ML {u.get('ml')})", rule="L326", visible_to=side)
        return em.events


class DeclareZoc(OrderHandler):
    type = OrderType("zoc", (Param("hex", "hex", "hex your Company projects ZOC into"),), rule="L170",
                     doc="declare ZOC in a hex (any time); it stands until disproved", actors="any")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if side not in state.sides:
            return None
        hexes = sorted({state.map.label(h) for u in state.units.values() if u.side == side for h in zoc_of(state, u)}
                       - set(state.sides[side].private.get("zoc_declared", ())))
        return OrderSpec(side, self.type, FrozenDict(hex=tuple(hexes)), tuple(self.type.make(side, hex=x) for x in hexes[:6])) if hexes else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        if order.side not in state.sides:
            raise _err("only a side declares ZOC", "not-a-side", "L170", order)
        h = _hex(state, order, args["hex"], "L170")
        enemy = next(x for x in state.sides if x != order.side)
        if not ezoc_sources(state, enemy, h):
            raise _err(f"none of your Companies can exert ZOC into {args['hex']} (a false EZOC is a rules breach)",
                       "no-zoc", "L173", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        enemy = next(x for x in state.sides if x != side)
        lab = state.map.label(state.map.hex(args["hex"]))
        mine = set(state.sides[side].private.get("zoc_declared", ()))
        em.private(side, rule="L170", zoc_declared=sorted(mine | {lab}))
        _learn_ezoc(em, enemy, state.map.hex(lab), True, "L170")
        announce(em, f"{state.sides[side].title} declares ZOC in {lab}", rule="L170", hex=lab)
        return em.events


HANDLERS = (Begin, Pass, Activate, Move, Recon, Probe, Attack, Withdraw, Extend, Reserve, Rally, DeclareZoc)
