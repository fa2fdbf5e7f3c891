"""Orders shared by every phase (firing declarations, unit checks, refusals) and the orders of
Production (TS.2: ``buy``), Deployment (TS.6: ``deploy``) and the umpire (``award``).

Movement orders are in :mod:`~owsnb.rules.opscale.movement_orders`, Combat orders in
:mod:`~owsnb.rules.opscale.combat_orders`. A firing declaration is ``UNIT:TARGET`` (both weapons)
or ``UNIT:TARGET:p`` / ``:s`` (primary or secondary only), e.g.
``blue: engage B-TANK:R-INF B-ART:R-INF:p``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import (
    Adjudication,
    Distribution,
    OrderHandler,
    OrderSpec,
    OrderType,
    Param,
    Unit,
    refuse,
)
from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.events import note, side_set, unit_add, unit_set
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opscale.board import (
    alive_on_map,
    deploy_hexes,
    domain,
    position,
    step_cost,
)
from owsnb.rules.opscale.engagement import (
    Report,
    Tally,
    record,
)
from owsnb.rules.opscale.experience import bonus_for, purchase_price
from owsnb.rules.opscale.forecast import (
    binomial_stars,
)
from owsnb.rules.opscale.scoring import action_points
from owsnb.rules.opscale.units import OBSTACLES, card_of

__all__ = ["Buy", "Deploy", "Award", "parse_fire", "can_reach", "SLOTS"]


SLOTS = {
    "p": ("primary",),
    "s": ("secondary",),
    "ps": ("primary", "secondary"),
    "": ("primary", "secondary"),
}


def label(state: StateLike, h: Any) -> str:
    return state.map.label(h)


def parse_fire(text: str, order: Any, rule: str) -> tuple[str, str, tuple[str, ...]]:
    parts = text.split(":")
    if (
        len(parts) not in (2, 3)
        or not parts[0]
        or not parts[1]
        or (len(parts) == 3 and parts[2] not in SLOTS)
    ):
        raise refuse(
            f"{text!r} is not a firing declaration: write UNIT:TARGET, or UNIT:TARGET:p / :s for "
            "the primary "
            "or secondary weapon only",
            "bad-declaration",
            rule,
            order,
        )
    return parts[0], parts[1], SLOTS[parts[2] if len(parts) == 3 else ""]


def can_reach(state: StateLike, shooter: Unit, target: Unit, slots: tuple[str, ...]) -> bool:
    """Can one declared weapon of *shooter* hit *target* (range and domain, ruling R11/R33)?"""
    card, tcard = card_of(shooter), card_of(target)
    ps, pt = position(state, shooter), position(state, target)
    if ps is None or pt is None:
        return False
    d = ps.distance(pt)
    prof = card.profile(card.damaged_at(shooter.steps))
    return any(
        w.slot in slots and w.range >= d and (not w.targets or tcard.domain in w.targets)
        for w in prof.weapons
    )


def shooter_problem(state: StateLike, u: Unit) -> str | None:
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


def require_no_engagement(state: StateLike, order: Any, rule: str) -> None:
    rec = record(state)
    if rec is not None:
        raise refuse(
            f"engagement {rec['n']} at {rec['hex']} is still open: fight it out (round, fight), "
            "withdraw, "
            "surrender or end it with a Command Card first",
            "engagement-open",
            "OES.10",
            order,
        )


def require_engagement(
    state: StateLike, order: Any, rule: str, stage: str | None = None
) -> dict[str, Any]:
    rec = record(state)
    if rec is None:
        raise refuse("no engagement is open", "no-engagement", rule, order)
    if stage is not None and rec["stage"] != stage:
        what = (
            "the defender is still declaring retaliating units (OES.2)"
            if rec["stage"] == "retaliate"
            else "the initiative is already rolled"
        )
        raise refuse(f"not now: {what}", "wrong-stage", rule, order)
    return rec


# -- production (TS.2) --------------------------------------------------------------------------
class Buy(OrderHandler):
    type = OrderType(
        "buy",
        (
            Param("type", "choice", "unit, fortification or structure type"),
            Param(
                "xp",
                "int",
                "experience rolls bought with it (0-3, 5 each)",
                positional=False,
                optional=True,
            ),
        ),
        rule="TS.2",
        doc="purchase and stage a new unit, fortification or structure",
    )

    def _types(self, state: StateLike, side: str) -> dict[str, Any]:
        allowed = (state.table("production") or {}).get(side, ())
        types = state.table("unit_types")
        return {k: types[k] for k in allowed if k in types}

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        cash = int(state.sides[side].private.get("currency", 0))
        types = [
            k for k, t in self._types(state, side).items() if int(t["data"].get("cost", 0)) <= cash
        ]
        if not types:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(type=tuple(types), xp=("0", "1", "2", "3")),
            tuple(self.type.make(side, type=k) for k in types),
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        types = self._types(state, order.side)
        if args["type"] not in types:
            raise refuse(
                f"{order.side} cannot buy {args['type']!r}; may buy: "
                f"{', '.join(types) or 'nothing'}",
                "not-purchasable",
                "TS.2",
                order,
            )
        try:
            xp = args.get("xp", 0)
            price = purchase_price(
                int(types[args["type"]]["data"].get("cost", 0)), xp, state.table("experience")
            )
        except ValueError as exc:
            raise refuse(str(exc), "bad-experience", "EXP.2", order) from None
        if xp and not _eligible_type(types[args["type"]], state):
            raise refuse(
                f"{args['type']} has no crew and is not infantry: only crews and infantry earn "
                "experience "
                "(EXP.2)",
                "not-eligible",
                "EXP.2",
                order,
            )
        cash = int(state.sides[order.side].private.get("currency", 0))
        if price > cash:
            raise refuse(
                f"{args['type']} costs {price} and {order.side} has {cash} currency",
                "cannot-afford",
                "TS.2",
                order,
            )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        return binomial_stars(args.get("xp", 0))

    def adjudicate(
        self, state: StateLike, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        t = state.table("unit_types")[args["type"]]
        xp = args.get("xp", 0)
        price = purchase_price(int(t["data"].get("cost", 0)), xp, state.table("experience"))
        # ids count each side's own purchases, so they reveal nothing of the other side's (R41)
        n = int(state.sides[side].private.get("purchases", 0)) + 1
        while f"{side}-new-{n:03d}" in state.units:
            n += 1
        uid = f"{side}-new-{n:03d}"
        gained = list(t["data"].get("experience", ()))
        lines = []
        for i in range(xp):
            r = dice.roll(
                10,
                purpose=f"purchased experience roll {i + 1} for {uid} (EXP.1)",
                rule="EXP.2",
                actor=side,
                visible_to=side,
            )
            b = bonus_for(r, state.table("experience"))
            lines.append(f"experience roll {r}: {b}")
            if b != "none":
                gained.append(b)
        data = dict(t["data"])
        data.update(experience=gained, purchased_turn=state.clock.turn)
        unit = Unit(
            id=uid,
            side=side,
            kind=args["type"],
            name=f"{t.get('name') or args['type']} ({side} #{n:03d})",
            hex=None,
            box="staged",
            steps=int(t.get("steps", 1)),
            max_steps=int(t.get("steps", 1)),
            data=freeze(data),
        )
        cash = int(state.sides[side].private.get("currency", 0)) - price
        events = [
            unit_add(unit, visible_to=side, rule="TS.2"),
            side_set(side, "private", {"currency": cash, "purchases": n}, rule="TS.2"),
            note(
                f"{side} buys {unit.name} ({uid}) for {price}; {cash} currency left",
                visible_to=side,
                rule="TS.2",
            ),
        ]
        return Adjudication(
            events, Report(f"{side} buys {unit.name}", lines=lines, rules=["TS.2", "EXP.2"])
        )


def _eligible_type(t: Mapping[str, Any], state: StateLike) -> bool:
    d = t["data"]
    return (
        d.get("category") in state.table("experience").get("eligible_categories", ())
        or int(d.get("crew", 0) or 0) > 0
    )


# -- deployment (TS.6) -----------------------------------------------------------------------------
class Deploy(OrderHandler):
    type = OrderType(
        "deploy",
        (Param("unit", "unit", "a staged unit", on_map=False), Param("to", "hex")),
        rule="TS.6",
        doc="place a unit or structure staged in an earlier Production Phase",
    )

    def _staged(self, state: StateLike, side: str) -> list[Unit]:
        return [
            u
            for u in state.units_of(side)
            if u.box == "staged" and int(u.data.get("purchased_turn", 0)) < state.clock.turn
        ]

    def _hexes(self, state: StateLike, side: str, u: Unit | None = None) -> list[Any]:
        zones = {
            s: [state.map.hex(x) for x in v]
            for s, v in (state.public.get("deployment_zones") or {}).items()
        }
        hexes = deploy_hexes(state, side, int(state.options.get("deployment_radius", 1)), zones)
        if u is not None:
            hexes = {h for h in hexes if step_cost(state, u, h) is not None or domain(u) == "air"}
        return sorted(hexes)

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        staged = self._staged(state, side)
        if not staged:
            return None
        ex = []
        for u in staged:
            hs = self._hexes(state, side, u)
            if hs:
                ex.append(self.type.make(side, unit=u.id, to=label(state, hs[0])))
        return OrderSpec(
            side,
            self.type,
            FrozenDict(
                unit=tuple(u.id for u in staged),
                to=tuple(label(state, h) for h in self._hexes(state, side)),
            ),
            tuple(ex),
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, to = args["unit"], args["to"]
        if u.box != "staged":
            raise refuse(f"{u.id} is not staged", "not-staged", "TS.6", order)
        if int(u.data.get("purchased_turn", 0)) >= state.clock.turn:
            raise refuse(
                f"{u.id} was staged this turn: units deploy after a prior Production Phase",
                "too-soon",
                "TS.6",
                order,
            )
        if to not in self._hexes(state, order.side, u):
            raise refuse(
                f"{label(state, to)} is not a legal deployment location for {u.id}: within "
                f"{state.options.get('deployment_radius', 1)} hex(es) of a friendly Command "
                "Post, Forward HQ or "
                "controlled city (or a scenario deployment zone), free of enemy units, terrain "
                "it may enter "
                "(ruling R30)",
                "bad-location",
                "TS.6",
                order,
            )

    def adjudicate(self, state: StateLike, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        u, to = args["unit"], args["to"]
        return [
            unit_set(u.id, hex=to, box=None, rule="TS.6"),
            note(f"{order.side} deploys {u.id} ({u.name}) at {label(state, to)}", rule="TS.6"),
        ]


# -- umpire -------------------------------------------------------------------------------------------
class Award(OrderHandler):
    type = OrderType(
        "award",
        (Param("side", "side"), Param("action", "choice", "a fixed-value scoring action")),
        rule="SC",
        doc="umpire: award a scoring action the rules cannot detect (objectives, surrenders...)",
        actors="umpire",
    )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        if args["side"] not in state.sides:
            raise refuse(f"no side {args['side']!r}", "unknown-side", "SC", order)
        try:
            action_points(args["action"], state.table("scoring"))
        except KeyError as exc:
            raise refuse(str(exc.args[0]), "unknown-action", "SC", order) from None

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        t = Tally(state, dice)
        table = state.table("scoring")
        t.score(
            args["side"],
            action_points(args["action"], table),
            f"umpire award: {args['action']}",
            table[args["action"]].get("rule", "SC"),
        )
        return t.events
