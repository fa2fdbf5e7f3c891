"""The orders of the Operational Scale rule set, one handler per verb.

Production (TS.2): ``buy``. Movement (TS.4): ``move``, ``sortie``, ``embark``, ``disembark``,
``setup``, ``pack``, ``recon``. Combat (TS.5): ``engage``, ``retaliate``, ``round``, ``fight``,
``clear``; at any time in an engagement: ``withdraw``, ``surrender``, ``play`` (Command Cards).
Deployment (TS.6): ``deploy``. Umpire: ``award``.

A firing declaration is ``UNIT:TARGET`` (both weapons) or ``UNIT:TARGET:p`` / ``:s`` (primary or
secondary only), e.g. ``blue: engage B-TANK-1:R-INF-1 B-ART-1:R-INF-1:p``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel import Adjudication, Distribution, IllegalOrderError, OrderHandler, OrderSpec, OrderType, Param, Unit
from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.events import hex_set, note, side_set, state_set, unit_add, unit_move, unit_set
from owsnb.rules.opscale import decks
from owsnb.rules.opscale.board import (
    alive_on_map, beyond_network, checks_on, deploy_hexes, domain, enemy_units_at, is_neutral, mobile, move_odds,
    move_reach, players, position, step_cost,
)
from owsnb.rules.opscale.combat import Fire
from owsnb.rules.opscale.economy import city_of, control_of, is_deployment_turn
from owsnb.rules.opscale.engagement import (
    Report, Tally, close_events, defending_group, initiative_mods, open_events, record, retaliation_events, round_events,
    spec_of, statuses, surrender_events,
)
from owsnb.rules.opscale.engineers import ITEMS, attempt_possible, check, check_number, clearing_odds, needs_roll
from owsnb.rules.opscale.experience import bonus_for, purchase_price
from owsnb.rules.opscale.forecast import (
    ForecastTooLarge, binomial_stars, forecast_engagement, initiative_odds, pair_forecast, summarise,
)
from owsnb.rules.opscale.scoring import action_points
from owsnb.rules.opscale.units import OBSTACLES, card_of

__all__ = ["HANDLERS"]

SLOTS = {"p": ("primary",), "s": ("secondary",), "ps": ("primary", "secondary"), "": ("primary", "secondary")}


def refuse(msg: str, code: str, rule: str, order: Any) -> IllegalOrderError:
    return IllegalOrderError(msg, code=code, rule=rule, order=order)


def own_unit(state: Any, order: Any, uid: str, rule: str) -> Unit:
    u = state.units.get(uid)
    if u is None or u.side != order.side:
        raise refuse(f"{order.side} has no unit {uid!r}", "not-your-unit", rule, order)
    if u.steps <= 0:
        raise refuse(f"{uid} is destroyed", "destroyed", rule, order)
    return u


def label(state: Any, h: Any) -> str:
    return state.map.label(h)


def parse_fire(text: str, order: Any, rule: str) -> tuple[str, str, tuple[str, ...]]:
    parts = text.split(":")
    if len(parts) not in (2, 3) or not parts[0] or not parts[1] or (len(parts) == 3 and parts[2] not in SLOTS):
        raise refuse(f"{text!r} is not a firing declaration: write UNIT:TARGET, or UNIT:TARGET:p / :s for the primary "
                     "or secondary weapon only", "bad-declaration", rule, order)
    return parts[0], parts[1], SLOTS[parts[2] if len(parts) == 3 else ""]


def can_reach(state: Any, shooter: Unit, target: Unit, slots: tuple[str, ...]) -> bool:
    """Can one declared weapon of *shooter* hit *target* (range and domain, ruling R11/R33)?"""
    card, tcard = card_of(shooter), card_of(target)
    ps, pt = position(state, shooter), position(state, target)
    if ps is None or pt is None:
        return False
    d = ps.distance(pt)
    prof = card.profile(card.damaged_at(shooter.steps))
    return any(w.slot in slots and w.range >= d and (not w.targets or tcard.domain in w.targets) for w in prof.weapons)


def shooter_problem(state: Any, u: Unit) -> str | None:
    """Why *u* cannot fire now (``None`` if it can)."""
    if not alive_on_map(u):
        return f"{u.id} is not deployed on the map"
    card = card_of(u)
    if not card.weapons:
        return f"{u.id} has no weapons"
    if card.setup_required and not card.set_up:
        return f"{u.id} is packed: artillery fires only when set up (TS.4)"
    if card.domain == "air" and not card.on_sortie:
        return f"{u.id} is not on a sortie: aircraft fight only on sorties declared in the Movement Phase (TS.4)"
    return None


def targetable(u: Unit) -> bool:
    return alive_on_map(u) and u.data.get("category") not in OBSTACLES


def require_no_engagement(state: Any, order: Any, rule: str) -> None:
    rec = record(state)
    if rec is not None:
        raise refuse(f"engagement {rec['n']} at {rec['hex']} is still open: fight it out (round, fight), withdraw, "
                     "surrender or end it with a Command Card first", "engagement-open", "OES.10", order)


def require_engagement(state: Any, order: Any, rule: str, stage: str | None = None) -> dict[str, Any]:
    rec = record(state)
    if rec is None:
        raise refuse("no engagement is open", "no-engagement", rule, order)
    if stage is not None and rec["stage"] != stage:
        what = "the defender is still declaring retaliating units (OES.2)" if rec["stage"] == "retaliate" else \
            "the initiative is already rolled"
        raise refuse(f"not now: {what}", "wrong-stage", rule, order)
    return rec


# -- production (TS.2) --------------------------------------------------------------------------
class Buy(OrderHandler):
    type = OrderType("buy", (Param("type", "choice", "unit, fortification or structure type"),
                             Param("xp", "int", "experience rolls bought with it (0-3, 5 each)", positional=False, optional=True)),
                     rule="TS.2", doc="purchase and stage a new unit, fortification or structure")

    def _types(self, state: Any, side: str) -> dict[str, Any]:
        allowed = (state.table("production") or {}).get(side, ())
        types = state.table("unit_types")
        return {k: types[k] for k in allowed if k in types}

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        cash = int(state.sides[side].private.get("currency", 0))
        types = [k for k, t in self._types(state, side).items() if int(t["data"].get("cost", 0)) <= cash]
        if not types:
            return None
        return OrderSpec(side, self.type, FrozenDict(type=tuple(types), xp=("0", "1", "2", "3")),
                         tuple(self.type.make(side, type=k) for k in types))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        types = self._types(state, order.side)
        if args["type"] not in types:
            raise refuse(f"{order.side} cannot buy {args['type']!r}; may buy: {', '.join(types) or 'nothing'}",
                         "not-purchasable", "TS.2", order)
        try:
            xp = int(args.get("xp", 0))
            price = purchase_price(int(types[args["type"]]["data"].get("cost", 0)), xp, state.table("experience"))
        except ValueError as exc:
            raise refuse(str(exc), "bad-experience", "EXP.2", order) from None
        if xp and not _eligible_type(types[args["type"]], state):
            raise refuse(f"{args['type']} has no crew and is not infantry: only crews and infantry earn experience "
                         "(EXP.2)", "not-eligible", "EXP.2", order)
        cash = int(state.sides[order.side].private.get("currency", 0))
        if price > cash:
            raise refuse(f"{args['type']} costs {price} and {order.side} has {cash} currency", "cannot-afford", "TS.2", order)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Distribution:
        return binomial_stars(int(args.get("xp", 0)))

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        side = order.side
        t = state.table("unit_types")[args["type"]]
        xp = int(args.get("xp", 0))
        price = purchase_price(int(t["data"].get("cost", 0)), xp, state.table("experience"))
        n = int(state.secret.get("purchases", 0)) + 1
        uid = f"{side}-new-{n:03d}"
        gained = list(t["data"].get("experience", ()))
        lines = []
        for i in range(xp):
            r = dice.roll(10, purpose=f"purchased experience roll {i + 1} for {uid} (EXP.1)", rule="EXP.2", actor=side,
                          visible_to=side)
            b = bonus_for(r, state.table("experience"))
            lines.append(f"experience roll {r}: {b}")
            if b != "none":
                gained.append(b)
        data = dict(t["data"])
        data.update(experience=gained, purchased_turn=state.clock.turn)
        unit = Unit(id=uid, side=side, kind=args["type"], name=f"{t.get('name') or args['type']} #{n:03d}", hex=None,
                    box="staged", steps=int(t.get("steps", 1)), max_steps=int(t.get("steps", 1)), data=freeze(data))
        cash = int(state.sides[side].private.get("currency", 0)) - price
        events = [unit_add(unit, visible_to=side, rule="TS.2"),
                  state_set("secret", {"purchases": n}, rule="TS.2"),
                  side_set(side, "private", {"currency": cash}, rule="TS.2"),
                  note(f"{side} buys {unit.name} ({uid}) for {price}; {cash} currency left", visible_to=side, rule="TS.2")]
        return Adjudication(events, Report(f"{side} buys {unit.name}", lines=lines, rules=["TS.2", "EXP.2"]))


def _eligible_type(t: Mapping[str, Any], state: Any) -> bool:
    d = t["data"]
    return d.get("category") in state.table("experience").get("eligible_categories", ()) or int(d.get("crew", 0) or 0) > 0


# -- movement (TS.4) ------------------------------------------------------------------------------
class Move(OrderHandler):
    type = OrderType("move", (Param("unit", "unit"), Param("to", "hex")), rule="TS.4",
                     doc="move a unit (terrain checks may stop it short)")

    def _movers(self, state: Any, side: str) -> list[Unit]:
        return [u for u in state.units_of(side) if alive_on_map(u) and mobile(u) and "moved" not in u.markers
                and "set-up" not in u.markers]

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        movers = self._movers(state, side)
        if not movers:
            return None
        ex = []
        for u in movers[:12]:
            r = move_reach(state, u)
            for h in sorted(r.cost, key=lambda x: -r.cost[x])[:3]:
                if h != u.hex:
                    ex.append(self.type.make(side, unit=u.id, to=label(state, h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in movers)), tuple(ex))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "TS.4")
        if not alive_on_map(u):
            raise refuse(f"{u.id} is not on the map (staged or carried)", "off-map", "TS.4", order)
        if not mobile(u):
            raise refuse(f"{u.id} cannot move ({u.data.get('category')})" + (
                "; aircraft fly sorties" if domain(u) == "air" else ""), "immobile", "TS.4", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "TS.4", order)
        if "set-up" in u.markers:
            raise refuse(f"{u.id} is set up: pack it before it moves (TS.4)", "set-up", "TS.4", order)
        to = state.map.hex(args["to"])
        if to == u.hex:
            raise refuse(f"{u.id} is already in {args['to']}", "no-move", "TS.4", order)
        if to not in move_reach(state, u):
            raise refuse(f"{args['to']} is out of {u.id}'s reach this turn (movement {float(u.data.get('move', 0)):g}; "
                         "enemy-occupied and impassable hexes cannot be entered)", "out-of-reach", "TS.4", order)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Distribution:
        u = state.unit(args["unit"])
        to = state.map.hex(args["to"])
        return move_odds(state, u, move_reach(state, u).path_to(to))

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u = state.unit(args["unit"])
        path = list(move_reach(state, u).path_to(state.map.hex(args["to"])))
        die = int(state.table("terrain").get("check_die", 10))
        end = len(path) - 1
        lines = []
        for h, n, name in checks_on(state, u, path):
            r = dice.roll(die, purpose=f"{u.id}: check to {name} {label(state, h)} ({n}+)", rule="TI", actor=u.side, visible_to=None)
            lines.append(f"check to {name} {label(state, h)}: {r} vs {n}+ — {'pass' if r >= n else 'fail'}")
            if r < n:
                end = path.index(h) - 1
                break
        final = path[end]
        t = Tally(state, dice)
        markers = u.markers | {"moved"}
        if final != u.hex:
            t.add(unit_move(u.id, final, path=path[: end + 1], rule="TS.4"))
        t.add(unit_set(u.id, markers=markers, data={"used": True} if u.data.get("captured") else {}, rule="TS.4"))
        capture_city(t, u.side, final, u)
        text = f"{u.id} moves to {label(state, final)}" + ("" if end == len(path) - 1 else f" (stopped short of {args['to']})")
        t.add(note(text, rule="TS.4"))
        return Adjudication(t.events, Report(text, lines=lines, rules=["TS.4", "TI"]))


def capture_city(t: Tally, side: str, h: Any, unit: Unit) -> None:
    """A ground unit entering a city it does not control captures it (SC.7 key city 25, SC.8 ruined
    city 20; ruling R34: any city not already held, once per change of hands)."""
    info = t.state.map.hexes[h]
    city = city_of(info)
    if city is None or domain(unit) != "ground" or control_of(info) == side or is_neutral(t.state, side):
        return
    t.add(hex_set(h, {"control": side}, rule="TS.4"),
          note(f"{side} captures {city.get('name') or label(t.state, h)}", rule="TS.4"))
    table = t.state.table("scoring")
    if city.get("ruined"):
        t.score(side, action_points("capture_ruined_city", table), f"captured ruined city {city.get('name', '')}", "SC.8")
    elif city.get("key"):
        t.score(side, action_points("capture_key_city", table), f"captured key city {city.get('name', '')}", "SC.7")


class Sortie(OrderHandler):
    type = OrderType("sortie", (Param("unit", "unit"), Param("to", "hex")), rule="TS.4",
                     doc="declare an aircraft sortie over a hex (it returns to base at the end of the turn)")

    def _aircraft(self, state: Any, side: str) -> list[Unit]:
        return [u for u in state.units_of(side) if alive_on_map(u) and domain(u) == "air" and "moved" not in u.markers]

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ac = self._aircraft(state, side)
        if not ac:
            return None
        ex = []
        for u in ac:
            for e in state.units.values():
                if e.side != side and alive_on_map(e) and e.hex.distance(u.hex) <= int(u.data.get("sortie_range", 0)):
                    ex.append(self.type.make(side, unit=u.id, to=label(state, e.hex)))
                    break
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in ac)), tuple(ex))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "TS.4")
        if domain(u) != "air" or not alive_on_map(u):
            raise refuse(f"{u.id} is not an aircraft on the map", "not-aircraft", "TS.4", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already flown this turn", "moved", "TS.4", order)
        to = state.map.hex(args["to"])
        rng = int(u.data.get("sortie_range", 0))
        if to.distance(u.hex) > rng:
            raise refuse(f"{args['to']} is beyond {u.id}'s sortie range ({rng} hexes)", "out-of-range", "TS.4", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = state.unit(args["unit"])
        to = state.map.hex(args["to"])
        return [unit_move(u.id, to, path=(u.hex, to), rule="TS.4"),
                unit_set(u.id, markers=u.markers | {"moved", "sortie"}, data={"base": label(state, u.hex)}, rule="TS.4"),
                note(f"{u.id} flies a sortie over {args['to']}", rule="TS.4")]


class Embark(OrderHandler):
    type = OrderType("embark", (Param("unit", "unit"), Param("transport", "unit")), rule="TS.4",
                     doc="load a unit into a transport in its hex")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ex = []
        for t in state.units_of(side):
            if t.data.get("category") != "transport" or not alive_on_map(t):
                continue
            for u in state.units_of(side):
                if u.hex == t.hex and u.id != t.id and "moved" not in u.markers and u.data.get("category") in _carries(t):
                    ex.append(self.type.make(side, unit=u.id, transport=t.id))
        return OrderSpec(side, self.type, examples=tuple(ex)) if ex else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "TS.4")
        t = own_unit(state, order, args["transport"], "TS.4")
        if t.data.get("category") != "transport" or not alive_on_map(t):
            raise refuse(f"{t.id} is not a transport on the map", "not-transport", "TS.4", order)
        if not alive_on_map(u) or u.hex != t.hex:
            raise refuse(f"{u.id} is not in {t.id}'s hex", "not-together", "TS.4", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "TS.4", order)
        if u.data.get("category") not in _carries(t):
            raise refuse(f"{t.id} carries only {', '.join(_carries(t))}", "cannot-carry", "TS.4", order)
        load = sum(1 for x in state.units.values() if x.box == "carried" and x.data.get("carried_by") == t.id)
        if load >= int(t.data.get("capacity", 0)):
            raise refuse(f"{t.id} is full (capacity {t.data.get('capacity', 0)})", "full", "TS.4", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = state.unit(args["unit"])
        return [unit_set(u.id, hex=None, box="carried", markers=u.markers | {"moved"}, data={"carried_by": args["transport"]},
                         rule="TS.4"), note(f"{u.id} embarks in {args['transport']}", rule="TS.4")]


def _carries(t: Unit) -> tuple[str, ...]:
    return tuple(t.data.get("carries", ("infantry", "engineer")))


class Disembark(OrderHandler):
    type = OrderType("disembark", (Param("unit", "unit"),), rule="TS.4", doc="unload a carried unit into its transport's hex")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        units = [u.id for u in state.units_of(side) if u.box == "carried" and u.steps > 0]
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(units))) if units else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "TS.4")
        if u.box != "carried":
            raise refuse(f"{u.id} is not in a transport", "not-carried", "TS.4", order)
        h = position(state, u)
        if h is None or step_cost(state, u, h) is None:
            raise refuse(f"{u.id} cannot disembark here ({state.map.terrain(h) if h else 'no hex'})", "cannot-land", "TS.4", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = state.unit(args["unit"])
        h = position(state, u)
        t = Tally(state, dice)
        t.add(unit_set(u.id, hex=h, box=None, markers=u.markers | {"moved"}, data={"carried_by": None}, rule="TS.4"),
              note(f"{u.id} disembarks at {label(state, h)}", rule="TS.4"))
        capture_city(t, u.side, h, u)
        return t.events


class SetUp(OrderHandler):
    type = OrderType("setup", (Param("unit", "unit"),), rule="TS.4", doc="set up artillery (it may then fire, not move)")
    marker_wanted = False

    def _arty(self, state: Any, side: str) -> list[Unit]:
        return [u for u in state.units_of(side) if alive_on_map(u) and u.data.get("setup_required")
                and ("set-up" in u.markers) == self.marker_wanted and "moved" not in u.markers]

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        a = self._arty(state, side)
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in a))) if a else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "TS.4")
        if not u.data.get("setup_required") or not alive_on_map(u):
            raise refuse(f"{u.id} is not artillery on the map", "not-artillery", "TS.4", order)
        if ("set-up" in u.markers) != self.marker_wanted:
            raise refuse(f"{u.id} is already {'set up' if not self.marker_wanted else 'packed'}", "already", "TS.4", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "TS.4", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = state.unit(args["unit"])
        m = (u.markers - {"set-up"}) if self.marker_wanted else (u.markers | {"set-up"})
        return [unit_set(u.id, markers=m | {"moved"}, rule="TS.4"),
                note(f"{u.id} {'packs' if self.marker_wanted else 'sets up'}", rule="TS.4")]


class Pack(SetUp):
    type = OrderType("pack", (Param("unit", "unit"),), rule="TS.4", doc="pack artillery (it may then move, not fire)")
    marker_wanted = True


class Recon(OrderHandler):
    type = OrderType("recon", (Param("unit", "unit"), Param("hex", "hex")), rule="ENG.2",
                     doc="reconnoitre a hex (engineers then get +2 on clearing checks there)")

    def _scouts(self, state: Any, side: str) -> list[Unit]:
        return [u for u in state.units_of(side) if alive_on_map(u) and "moved" not in u.markers
                and (u.data.get("recon") or u.data.get("category") == "engineer")]

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        s = self._scouts(state, side)
        if not s:
            return None
        ex = tuple(self.type.make(side, unit=u.id, hex=label(state, h)) for u in s for h in u.hex.neighbours()
                   if h in state.map.hexes and enemy_units_at(state, h, side))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in s)), ex)

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "ENG.2")
        if not (u.data.get("recon") or u.data.get("category") == "engineer") or not alive_on_map(u):
            raise refuse(f"{u.id} cannot reconnoitre (recon units and engineers only, ruling R21)", "not-recon", "ENG.2", order)
        if "moved" in u.markers:
            raise refuse(f"{u.id} has already moved this turn", "moved", "ENG.2", order)
        if state.map.hex(args["hex"]).distance(u.hex) > 1:
            raise refuse(f"{args['hex']} is not in or next to {u.id}'s hex", "too-far", "ENG.2", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = state.unit(args["unit"])
        h = label(state, state.map.hex(args["hex"]))
        known = list(state.sides[order.side].private.get("recon", ()))
        return [unit_set(u.id, markers=u.markers | {"moved"}, rule="ENG.2"),
                side_set(order.side, "private", {"recon": sorted(set(known) | {h})}, rule="ENG.2"),
                note(f"{u.id} reconnoitres {h}", visible_to=order.side, rule="ENG.2")]


# -- combat (TS.5, OES) ---------------------------------------------------------------------------
class Engage(OrderHandler):
    type = OrderType("engage", (Param("fire", "fire", "UNIT:TARGET pairs (add :p or :s for one weapon)", repeat=True),),
                     rule="OES.1", doc="declare attacking units and their initial targets")

    def _pairs(self, state: Any, side: str) -> list[tuple[Unit, Unit]]:
        out = []
        for u in state.units_of(side):
            if "attacked" in u.markers or shooter_problem(state, u):
                continue
            for t in state.units.values():
                if t.side != side and targetable(t) and can_reach(state, u, t, SLOTS[""]):
                    out.append((u, t))
        return out

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if record(state) is not None:
            return None
        pairs = self._pairs(state, side)
        if not pairs:
            return None
        by_hex: dict[Any, dict[str, str]] = {}
        for u, t in pairs:
            by_hex.setdefault(t.hex, {}).setdefault(u.id, t.id)
        ex = [self.type.make(side, fire=[f"{a}:{b}" for a, b in m.items()]) for m in by_hex.values()]
        ex += [self.type.make(side, fire=[f"{u.id}:{t.id}"]) for u, t in pairs[:10]]
        return OrderSpec(side, self.type, FrozenDict(fire=tuple(f"{u.id}:{t.id}" for u, t in pairs)), tuple(ex))

    def parse(self, state: Any, order: Any, args: Mapping[str, Any]) -> tuple[str, Any, list[list[Any]]]:
        require_no_engagement(state, order, "OES.1")
        fires = [parse_fire(x, order, "OES.1") for x in args["fire"]]
        seen: set[str] = set()
        defender = hexes = None
        out = []
        for a, tgt, slots in fires:
            u = own_unit(state, order, a, "OES.1")
            if a in seen:
                raise refuse(f"{a} is declared twice", "declared-twice", "OES.1", order)
            seen.add(a)
            why = shooter_problem(state, u)
            if why:
                raise refuse(why, "cannot-fire", "OES.1", order)
            if "attacked" in u.markers:
                raise refuse(f"{a} has already attacked this Combat Phase (ruling R28)", "attacked", "OES.1", order)
            t = state.units.get(tgt)
            if t is None or t.side == order.side or not targetable(t):
                raise refuse(f"{tgt!r} is not an enemy unit that can be engaged", "bad-target", "OES.1", order)
            defender = defender or t.side
            hexes = hexes or t.hex
            if t.side != defender or t.hex != hexes:
                raise refuse("all initial targets of an engagement must be units of one side in one hex (ruling R33)",
                             "targets-split", "OES.1", order)
            if not can_reach(state, u, t, slots):
                raise refuse(f"{tgt} is out of range of {a}'s declared weapons (ruling R11)", "out-of-range", "OES.1", order)
            out.append([a, tgt, list(slots)])
        return defender, hexes, out

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        self.parse(state, order, args)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Any:
        defender, h, attacks = self.parse(state, order, args)
        rec = {"n": 0, "hex": label(state, h), "attacker": order.side, "defender": defender, "attacks": attacks,
               "retaliations": [], "attacking": [a[0] for a in attacks], "defending": defending_group(state, defender, h)}
        from owsnb.rules.opscale.engagement import auto_retaliation

        rec["retaliations"] = auto_retaliation(state, rec)
        rec["defending"] = list(dict.fromkeys([*rec["defending"], *(r[0] for r in rec["retaliations"])]))
        return _forecast(state, rec, 1, ["assumes the defender retaliates with every unit that can reach an attacker",
                                         "initiative not yet rolled: both orders of fire weighted by their exact odds"])

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        defender, h, attacks = self.parse(state, order, args)
        auto = is_neutral(state, defender) or bool(state.options.get("auto_retaliate", False))
        events, report = open_events(state, order.side, defender, attacks, h, dice, auto)
        return Adjudication(events, report)


def _forecast(state: Any, rec: Mapping[str, Any], rounds: int, notes: list[str]) -> Any:
    """The exact forecast of the next *rounds* rounds (fewer, or attack by attack, when the
    engagement is too large for a joint forecast)."""
    spec = spec_of(state, rec)
    first = rec.get("first")
    a, d, why = initiative_mods(state, rec) if first is None else (0, 0, [])
    if first is None:
        notes = [*notes, f"P({rec['attacker']} fires first) = {initiative_odds(a, d)['attacker']}", *why]
    st = statuses(state, spec)
    for n in dict.fromkeys((rounds, 1)):
        try:
            layers = forecast_engagement(spec, st, disabled=rec.get("disabled", ()), first=first, init_mods=(a, d),
                                         rounds=n, start_round=int(rec.get("rounds", 0)) + 1)
        except ForecastTooLarge:
            continue
        return summarise(spec, layers[-1], label=f"after {n} round(s) of engagement at {rec['hex']}", notes=notes)
    return pair_forecast(spec, st, disabled=rec.get("disabled", ()), first=first, init_mods=(a, d), notes=notes,
                         label=f"engagement at {rec['hex']}: attack by attack")


class Retaliate(OrderHandler):
    type = OrderType("retaliate", (Param("fire", "fire", "UNIT:ATTACKER pairs (none: no retaliation)", repeat=True,
                                         optional=True),), rule="OES.2", doc="declare retaliating units and their targets")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        rec = record(state)
        if rec is None or rec["stage"] != "retaliate" or rec["defender"] != side:
            return None
        pairs = [(u.id, a) for u in state.units_of(side) if not shooter_problem(state, u)
                 for a in rec["attacking"] if can_reach(state, u, state.units[a], SLOTS[""])]
        first: dict[str, str] = {}
        for u, a in pairs:
            first.setdefault(u, a)
        ex = (self.type.make(side, fire=[f"{u}:{a}" for u, a in first.items()]) if first else self.type.make(side),)
        return OrderSpec(side, self.type, FrozenDict(fire=tuple(f"{u}:{a}" for u, a in pairs)), ex)

    def parse(self, state: Any, order: Any, args: Mapping[str, Any]) -> tuple[dict[str, Any], list[list[Any]]]:
        rec = require_engagement(state, order, "OES.2", "retaliate")
        if order.side != rec["defender"]:
            raise refuse(f"only {rec['defender']} (the defender) declares retaliating units", "not-defender", "OES.2", order)
        out = []
        seen: set[str] = set()
        for text in args.get("fire", ()):
            d, a, slots = parse_fire(text, order, "OES.2")
            u = own_unit(state, order, d, "OES.2")
            if d in seen:
                raise refuse(f"{d} is declared twice", "declared-twice", "OES.2", order)
            seen.add(d)
            why = shooter_problem(state, u)
            if why:
                raise refuse(why, "cannot-fire", "OES.2", order)
            if a not in rec["attacking"]:
                raise refuse(f"{a} is not an attacking unit of this engagement", "bad-target", "OES.2", order)
            if not can_reach(state, u, state.units[a], slots):
                raise refuse(f"{a} is out of range of {d}'s declared weapons (ruling R11)", "out-of-range", "OES.2", order)
            out.append([d, a, list(slots)])
        return rec, out

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        self.parse(state, order, args)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Any:
        rec, rets = self.parse(state, order, args)
        rec = {**rec, "retaliations": rets, "defending": list(dict.fromkeys([*rec["defending"], *(r[0] for r in rets)]))}
        return _forecast(state, rec, 1, ["initiative not yet rolled: both orders of fire weighted by their exact odds"])

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        rec, rets = self.parse(state, order, args)
        events, report = retaliation_events(state, rec, rets, dice)
        return Adjudication(events, report)


class Round(OrderHandler):
    type = OrderType("round", (), rule="OES.4", doc="fight one combat round of the open engagement")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        rec = record(state)
        if rec is None or rec["stage"] != "rounds" or rec["attacker"] != side:
            return None
        return OrderSpec(side, self.type, examples=(self.type.make(side),))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        rec = require_engagement(state, order, "OES.4", "rounds")
        if order.side != rec["attacker"]:
            raise refuse(f"{rec['attacker']} (the attacker) calls the rounds", "not-attacker", "OES.4", order)

    def rounds(self, state: Any, args: Mapping[str, Any]) -> int:
        return 1

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Any:
        rec = require_engagement(state, order, "OES.4", "rounds")
        return _forecast(state, rec, self.rounds(state, args), [f"{rec['first']} has the initiative"])

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        rec = record(state)
        events, report = round_events(state, rec, dice, self.rounds(state, args))
        return Adjudication(events, report)


class Fight(Round):
    type = OrderType("fight", (Param("rounds", "int", "at most this many rounds", positional=False, optional=True),),
                     rule="OES.10", doc="fight combat rounds until one side is destroyed (or the round limit)")

    def rounds(self, state: Any, args: Mapping[str, Any]) -> int:
        limit = int(state.options.get("max_fight_rounds", 20))
        try:
            n = int(args.get("rounds", limit))
        except ValueError:
            n = 0
        return max(1, min(n, limit))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        super().validate(state, order, args)
        if "rounds" in args and (not str(args["rounds"]).isdigit() or int(args["rounds"]) < 1):
            raise refuse(f"rounds must be a whole number of at least 1, not {args['rounds']!r}", "bad-arguments", "OES.10", order)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Any:
        rec = require_engagement(state, order, "OES.4", "rounds")
        n = min(self.rounds(state, args), 6)
        return _forecast(state, rec, n, [f"{rec['first']} has the initiative",
                                          f"forecast over {n} rounds (the order fights up to {self.rounds(state, args)})"])


class Withdraw(OrderHandler):
    type = OrderType("withdraw", (Param("to", "hex", "where the defending units withdraw to", positional=True, optional=True),),
                     rule="R16", doc="withdraw from the open engagement (the enemy earns experience)", actors="any")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        rec = record(state)
        if rec is None or side not in (rec["attacker"], rec["defender"]) or not state.options.get("withdrawal", True):
            return None
        if side == rec["attacker"]:
            return OrderSpec(side, self.type, examples=(self.type.make(side),))
        h = state.map.hex(rec["hex"])
        spots = [label(state, n) for n in h.neighbours() if n in state.map.hexes and not enemy_units_at(state, n, side)]
        return OrderSpec(side, self.type, FrozenDict(to=tuple(spots)), tuple(self.type.make(side, to=s) for s in spots[:3])) if spots else None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        rec = require_engagement(state, order, "R16")
        if not state.options.get("withdrawal", True):
            raise refuse("withdrawal is switched off in this scenario (option withdrawal)", "no-withdrawal", "R16", order)
        if order.side not in (rec["attacker"], rec["defender"]):
            raise refuse(f"{order.side} is not in the engagement", "not-engaged", "R16", order)
        if order.side == rec["defender"]:
            if "to" not in args:
                raise refuse("say where the defending units withdraw to: withdraw <hex>", "bad-arguments", "R16", order)
            h, to = state.map.hex(rec["hex"]), state.map.hex(args["to"])
            if to.distance(h) != 1 or enemy_units_at(state, to, order.side):
                raise refuse(f"{args['to']} is not a hex next to {rec['hex']} free of enemy units", "bad-retreat", "R16", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        rec = record(state)
        t = Tally(state, dice)
        report = Report(f"{order.side} withdraws from engagement {rec['n']}", rules=["R16"])
        if order.side == rec["defender"]:
            to = state.map.hex(args["to"])
            for uid in rec["defending"]:
                u = t.state.units[uid]
                if u.steps > 0 and u.hex == state.map.hex(rec["hex"]) and mobile(u) and step_cost(state, u, to) is not None:
                    t.add(unit_move(uid, to, path=(u.hex, to), rule="R16"))
                    report.lines.append(f"{uid} withdraws to {args['to']}")
        other = rec["defender"] if order.side == rec["attacker"] else rec["attacker"]
        close_events(t, rec, report, f"{order.side} withdrew", forced_by=other)
        return Adjudication(t.events, report)


class Surrender(OrderHandler):
    type = OrderType("surrender", (Param("terms", "choice", "conditional or unconditional", choices=("conditional", "unconditional")),),
                     rule="R35", doc="surrender the engaged units (the enemy captures them)", actors="any")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        rec = record(state)
        if rec is None or rec["stage"] != "rounds" or side not in (rec["attacker"], rec["defender"]) or \
                not state.options.get("surrender", True):
            return None
        return OrderSpec(side, self.type)

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        rec = require_engagement(state, order, "R35", "rounds")
        if not state.options.get("surrender", True):
            raise refuse("surrender is switched off in this scenario (option surrender)", "no-surrender", "R35", order)
        if order.side not in (rec["attacker"], rec["defender"]):
            raise refuse(f"{order.side} is not in the engagement", "not-engaged", "R35", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        rec = record(state)
        t = Tally(state, dice)
        report = Report(f"{order.side} surrenders ({args['terms']}) in engagement {rec['n']}", rules=["R35"])
        surrender_events(t, rec, order.side, args["terms"] == "conditional", report)
        close_events(t, rec, report, f"{order.side} surrendered ({args['terms']})")
        return Adjudication(t.events, report)


class Play(OrderHandler):
    type = OrderType("play", (Param("card", "card", "a Command Card in hand"),), rule="OES.10",
                     doc="play a Command Card", actors="any")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        hand = [c for c in state.sides[side].private.get("hand", ()) if self._problem(state, side, c) is None]
        return OrderSpec(side, self.type, FrozenDict(card=tuple(hand))) if hand else None

    def _problem(self, state: Any, side: str, card: str) -> tuple[str, str, str] | None:
        if side not in state.sides or side == "umpire":
            return ("only a player plays Command Cards", "not-a-player", "TS.1")
        c = decks.find_in_hand(state.sides[side].private.get("hand", ()), card)
        if c is None:
            return (f"{side} holds no Command Card {card!r}", "not-in-hand", "TS.1")
        d = decks.card_def(state.table("cards"), "command", c)
        eff = d.get("effect")
        rec = record(state)
        if eff in ("end_engagement", "initiative"):
            if rec is None or side not in (rec["attacker"], rec["defender"]):
                return (f"{d['title']} is played in an engagement {side} fights", "no-engagement", "OES.10")
            if eff == "initiative" and rec["stage"] != "retaliate":
                return (f"{d['title']} is played before the initiative is rolled", "too-late", "OES.3")
        if d.get("decision") and rec is not None and side in (rec["attacker"], rec["defender"]):
            group = rec["attacking"] if side == rec["attacker"] else rec["defending"]
            units = [state.units[u] for u in group if state.units[u].steps > 0]
            if beyond_network(state, units, state.options.get("network_scope", "majority")):
                return ("Command Decisions may not be played for units beyond the Command Network", "beyond-network", "CN.3")
        return None

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        p = self._problem(state, order.side, args["card"])
        if p is not None:
            raise refuse(p[0], p[1], p[2], order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        side = order.side
        hand = list(state.sides[side].private.get("hand", ()))
        c = decks.find_in_hand(hand, args["card"])
        hand.remove(c)
        d = decks.card_def(state.table("cards"), "command", c)
        t = Tally(state, dice)
        t.add(side_set(side, "private", {"hand": hand}, rule="TS.1"),
              side_set(side, "public", {"hand_size": len(hand)}, rule="TS.1"),
              note(f"{side} plays Command Card {d['title']}", rule="TS.1", card=c))
        report = Report(f"{side} plays {d['title']}", rules=["TS.1"])
        eff, value = d.get("effect"), int(d.get("value", 0) or 0)
        rec = record(state)
        if eff == "end_engagement":
            report.rules.append("OES.10")
            close_events(t, rec, report, f"{side} played {d['title']}")
        elif eff == "initiative":
            bonus = dict(rec.get("init_bonus") or {})
            bonus[side] = int(bonus.get(side, 0)) + value
            t.add(state_set_engagement(rec, init_bonus=bonus))
        elif eff == "currency":
            cash = int(t.state.sides[side].private.get("currency", 0)) + value
            t.add(side_set(side, "private", {"currency": cash}, rule="TS.1"))
        return Adjudication(t.events, report)


def state_set_engagement(rec: Mapping[str, Any], **changes: Any) -> Any:
    return state_set("public", {"engagement": {**rec, **changes}}, rule="OES.3")


class Clear(OrderHandler):
    type = OrderType("clear", (Param("unit", "unit", "a combat engineer"), Param("hex", "hex"),
                               Param("item", "choice", "what to clear", positional=False, optional=True, choices=ITEMS)),
                     rule="ENG.1", doc="combat engineers detonate or clear a bridge, obstacle, emplacement or facility")

    def items_at(self, state: Any, h: Any) -> dict[str, Any]:
        """Clearable items in a hex: item -> ("unit", id) or ("feature", name)."""
        info = state.map.hexes[h]
        out: dict[str, Any] = {}
        if "bridge" in info.features and not info.facts.get("bridge_destroyed"):
            out["existing-bridge"] = ("feature", "bridge")
        if "airfield" in info.features and not info.facts.get("airfield_destroyed"):
            out["airfield"] = ("feature", "airfield")
        if "port" in info.features and not info.facts.get("port_destroyed"):
            out["shipping-facility"] = ("feature", "port")
        kinds = {"engineered-bridge": "engineered-bridge", "obstacle-infantry": "obstacle-infantry",
                 "obstacle-vehicle": "obstacle-vehicle", "emplacement": "emplacement", "bunker": "emplacement",
                 "pillbox": "emplacement", "airfield": "airfield", "shipping-facility": "shipping-facility"}
        for u in state.units.values():
            item = kinds.get(u.data.get("category", ""))
            if item and alive_on_map(u) and u.hex == h and item not in out:
                out[item] = ("unit", u.id)
        return out

    def _engineers(self, state: Any, side: str) -> list[Unit]:
        return [u for u in state.units_of(side) if u.data.get("category") == "engineer" and alive_on_map(u)
                and "attacked" not in u.markers]

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if record(state) is not None:
            return None
        ex = []
        for u in self._engineers(state, side):
            for h in [u.hex, *u.hex.neighbours()]:
                if h in state.map.hexes:
                    for item, (kind, ref) in self.items_at(state, h).items():
                        if kind == "feature" or state.units[ref].side != side:
                            ex.append(self.type.make(side, unit=u.id, hex=label(state, h), item=item))
        return OrderSpec(side, self.type, examples=tuple(ex[:10])) if ex else None

    def parse(self, state: Any, order: Any, args: Mapping[str, Any]) -> tuple[Unit, Any, str, Any, int]:
        require_no_engagement(state, order, "ENG.1")
        u = own_unit(state, order, args["unit"], "ENG.1")
        if u.data.get("category") != "engineer" or not alive_on_map(u):
            raise refuse(f"{u.id} is not a combat engineer on the map", "not-engineer", "ENG.1", order)
        if "attacked" in u.markers:
            raise refuse(f"{u.id} has already acted this Combat Phase (ruling R28)", "attacked", "ENG.1", order)
        h = state.map.hex(args["hex"])
        if h.distance(u.hex) > 1:
            raise refuse(f"{args['hex']} is not in or next to {u.id}'s hex", "too-far", "ENG.1", order)
        items = self.items_at(state, h)
        item = args.get("item") or (next(iter(items)) if items else None)
        if item not in items:
            raise refuse(f"nothing to clear in {args['hex']}" + (f" called {item}" if item else "") +
                         (f"; there: {', '.join(items)}" if items else ""), "nothing-to-clear", "ENG.1", order)
        kind, ref = items[item]
        attempt = 1 + (int(state.units[ref].data.get("clearing_attempts", 0)) if kind == "unit"
                       else int(state.map.hexes[h].facts.get(f"{ref}_attempts", 0)))
        reading = state.options.get("engineer_reading", "at-or-above")
        if not attempt_possible(item, attempt, state.table("engineers"), reading):
            raise refuse(f"no further attempt is possible on this {item} (ENG.1, reading {reading})", "no-attempt", "ENG.1", order)
        return u, h, item, (kind, ref), attempt

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        self.parse(state, order, args)

    def preview(self, state: Any, order: Any, args: Mapping[str, Any]) -> Distribution:
        u, h, item, _, attempt = self.parse(state, order, args)
        recon = label(state, h) in state.sides[order.side].private.get("recon", ()) if order.side in state.sides else False
        return clearing_odds(item, attempt, state.table("engineers"), recon=recon,
                             reading=state.options.get("engineer_reading", "at-or-above"))

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> Adjudication:
        u, h, item, (kind, ref), attempt = self.parse(state, order, args)
        table = state.table("engineers")
        reading = state.options.get("engineer_reading", "at-or-above")
        recon = label(state, h) in state.sides[order.side].private.get("recon", ())
        n = check_number(item, attempt, table)
        roll = None
        if needs_roll(item, attempt, table, reading):
            roll = dice.roll(int(table.get("die", 10)), purpose=f"{u.id} clears {item} at {label(state, h)}, attempt {attempt} "
                             f"(number {n}{', recon +2' if recon else ''})", rule="ENG.1", actor=order.side, visible_to=None)
        ok = check(item, attempt, roll, table, recon=recon, reading=reading)
        t = Tally(state, dice)
        t.add(unit_set(u.id, markers=u.markers | {"attacked"}, rule="ENG.1"))
        text = f"{u.id} {'clears' if ok else 'fails to clear'} the {item} at {label(state, h)} (attempt {attempt}" + \
            (f", roll {roll}{'+2' if recon else ''} vs {n})" if roll is not None else ", no roll)")
        if kind == "unit":
            if ok:
                t.add(unit_set(ref, steps=0, hex=None, box="destroyed", markers=state.units[ref].markers | {"destroyed"}, rule="ENG.1"))
            else:
                t.add(unit_set(ref, data={"clearing_attempts": attempt}, rule="ENG.1"))
        else:
            t.add(hex_set(h, {f"{ref}_destroyed": True} if ok else {f"{ref}_attempts": attempt}, rule="ENG.1"))
        t.add(note(text, rule="ENG.1"))
        return Adjudication(t.events, Report(text, rules=["ENG.1"] + (["ENG.2"] if recon else [])))


# -- deployment (TS.6) -----------------------------------------------------------------------------
class Deploy(OrderHandler):
    type = OrderType("deploy", (Param("unit", "unit", "a staged unit"), Param("to", "hex")), rule="TS.6",
                     doc="place a unit or structure staged in an earlier Production Phase")

    def _staged(self, state: Any, side: str) -> list[Unit]:
        return [u for u in state.units_of(side) if u.box == "staged" and int(u.data.get("purchased_turn", 0)) < state.clock.turn]

    def _hexes(self, state: Any, side: str, u: Unit | None = None) -> list[Any]:
        zones = {s: [state.map.hex(x) for x in v] for s, v in (state.public.get("deployment_zones") or {}).items()}
        hexes = deploy_hexes(state, side, int(state.options.get("deployment_radius", 1)), zones)
        if u is not None:
            hexes = {h for h in hexes if step_cost(state, u, h) is not None or domain(u) == "air"}
        return sorted(hexes)

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        staged = self._staged(state, side)
        if not staged:
            return None
        ex = []
        for u in staged:
            hs = self._hexes(state, side, u)
            if hs:
                ex.append(self.type.make(side, unit=u.id, to=label(state, hs[0])))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in staged),
                                                     to=tuple(label(state, h) for h in self._hexes(state, side))), tuple(ex))

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        u = own_unit(state, order, args["unit"], "TS.6")
        if u.box != "staged":
            raise refuse(f"{u.id} is not staged", "not-staged", "TS.6", order)
        if int(u.data.get("purchased_turn", 0)) >= state.clock.turn:
            raise refuse(f"{u.id} was staged this turn: units deploy after a prior Production Phase", "too-soon", "TS.6", order)
        to = state.map.hex(args["to"])
        if to not in self._hexes(state, order.side, u):
            raise refuse(f"{args['to']} is not a legal deployment location for {u.id}: within "
                         f"{state.options.get('deployment_radius', 1)} hex(es) of a friendly Command Post, Forward HQ or "
                         "controlled city (or a scenario deployment zone), free of enemy units, terrain it may enter "
                         "(ruling R30)", "bad-location", "TS.6", order)

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u = state.unit(args["unit"])
        to = state.map.hex(args["to"])
        return [unit_set(u.id, hex=to, box=None, rule="TS.6"), note(f"{order.side} deploys {u.id} ({u.name}) at {args['to']}", rule="TS.6")]


# -- umpire -------------------------------------------------------------------------------------------
class Award(OrderHandler):
    type = OrderType("award", (Param("side", "side"), Param("action", "choice", "a fixed-value scoring action")), rule="SC",
                     doc="umpire: award a scoring action the rules cannot detect (objectives, surrenders...)", actors="umpire")

    def validate(self, state: Any, order: Any, args: Mapping[str, Any]) -> None:
        if args["side"] not in state.sides:
            raise refuse(f"no side {args['side']!r}", "unknown-side", "SC", order)
        try:
            action_points(args["action"], state.table("scoring"))
        except KeyError as exc:
            raise refuse(str(exc.args[0]), "unknown-action", "SC", order) from None

    def adjudicate(self, state: Any, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        t = Tally(state, dice)
        table = state.table("scoring")
        t.score(args["side"], action_points(args["action"], table), f"umpire award: {args['action']}",
                table[args["action"]].get("rule", "SC"))
        return t.events


HANDLERS = (Buy(), Move(), Sortie(), Embark(), Disembark(), SetUp(), Pack(), Recon(), Engage(), Retaliate(), Round(),
            Fight(), Withdraw(), Surrender(), Play(), Clear(), Deploy(), Award())
