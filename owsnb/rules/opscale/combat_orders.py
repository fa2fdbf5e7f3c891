"""Combat Phase orders (TS.5, the Operational Engagement Sequence): ``engage`` (OES.1),
``retaliate`` (OES.2-OES.3), ``round`` and ``fight`` (OES.4-OES.10), ``clear`` (ENG); at any time in
an engagement ``withdraw`` (R16), ``surrender`` (R35) and ``play`` (Command Cards); the umpire's
``tactical`` records an engagement fought with miniatures (TS.5, R46)."""

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
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.events import hex_set, note, side_set, state_set, unit_move, unit_set
from owsnb.kernel.orders import own_unit
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opscale import decks
from owsnb.rules.opscale.board import (
    alive_on_map,
    beyond_network,
    enemy_units_at,
    is_neutral,
    mobile,
    step_cost,
)
from owsnb.rules.opscale.engagement import (
    Report,
    Tally,
    close_events,
    defending_group,
    initiative_mods,
    open_events,
    record,
    retaliation_events,
    round_events,
    spec_of,
    statuses,
    surrender_events,
)
from owsnb.rules.opscale.engineers import (
    ITEMS,
    attempt_possible,
    check,
    check_number,
    clearing_odds,
    needs_roll,
)
from owsnb.rules.opscale.forecast import (
    ForecastTooLarge,
    forecast_engagement,
    initiative_odds,
    pair_forecast,
    summarise,
)
from owsnb.rules.opscale.orders import (
    SLOTS,
    can_reach,
    label,
    parse_fire,
    require_engagement,
    require_no_engagement,
    shooter_problem,
    targetable,
)

__all__ = [
    "Engage",
    "Retaliate",
    "Round",
    "Fight",
    "Withdraw",
    "Surrender",
    "Play",
    "Clear",
    "Tactical",
]


# -- combat (TS.5, OES) ---------------------------------------------------------------------------
def _declared_shooter(state: StateLike, order: Any, uid: str, seen: set[str], rule: str) -> Unit:
    """The ordering side's unit *uid* declared to fire: declared once (*seen* collects the ids)
    and able to fire (OES.1, OES.2)."""
    u = own_unit(state, order, uid, rule, on_map=False)
    if uid in seen:
        raise refuse(f"{uid} is declared twice", "declared-twice", rule, order)
    seen.add(uid)
    why = shooter_problem(state, u)
    if why:
        raise refuse(why, "cannot-fire", rule, order)
    return u


class Engage(OrderHandler):
    type = OrderType(
        "engage",
        (Param("fire", "fire", "UNIT:TARGET pairs (add :p or :s for one weapon)", repeat=True),),
        rule="OES.1",
        doc="declare attacking units and their initial targets",
    )

    def _pairs(self, state: StateLike, side: str) -> list[tuple[Unit, Unit]]:
        out = []
        for u in state.units_of(side):
            if "attacked" in u.markers or shooter_problem(state, u):
                continue
            for t in state.units.values():
                if t.side != side and targetable(t) and can_reach(state, u, t, SLOTS[""]):
                    out.append((u, t))
        return out

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if record(state) is not None:
            return None
        pairs = self._pairs(state, side)
        if not pairs:
            return None
        by_hex: dict[Any, dict[str, str]] = {}
        for u, t in pairs:
            by_hex.setdefault(t.hex, {}).setdefault(u.id, t.id)
        ex = [
            self.type.make(side, fire=[f"{a}:{b}" for a, b in m.items()]) for m in by_hex.values()
        ]
        ex += [self.type.make(side, fire=[f"{u.id}:{t.id}"]) for u, t in pairs[:10]]
        return OrderSpec(
            side, self.type, FrozenDict(fire=tuple(f"{u.id}:{t.id}" for u, t in pairs)), tuple(ex)
        )

    def parse(
        self, state: StateLike, order: Any, args: Mapping[str, Any]
    ) -> tuple[str, Any, list[list[Any]]]:
        require_no_engagement(state, order, "OES.1")
        fires = [parse_fire(x, order, "OES.1") for x in args["fire"]]
        seen: set[str] = set()
        defender = hexes = None
        out = []
        for a, tgt, slots in fires:
            u = _declared_shooter(state, order, a, seen, "OES.1")
            if "attacked" in u.markers:
                raise refuse(
                    f"{a} has already attacked this Combat Phase (ruling R28)",
                    "attacked",
                    "OES.1",
                    order,
                )
            t = state.units.get(tgt)
            if t is None or t.side == order.side or not targetable(t):
                raise refuse(
                    f"{tgt!r} is not an enemy unit that can be engaged",
                    "bad-target",
                    "OES.1",
                    order,
                )
            defender = defender or t.side
            hexes = hexes or t.hex
            if t.side != defender or t.hex != hexes:
                raise refuse(
                    "all initial targets of an engagement must be units of one side in one hex "
                    "(ruling R33)",
                    "targets-split",
                    "OES.1",
                    order,
                )
            if not can_reach(state, u, t, slots):
                raise refuse(
                    f"{tgt} is out of range of {a}'s declared weapons (ruling R11)",
                    "out-of-range",
                    "OES.1",
                    order,
                )
            out.append([a, tgt, list(slots)])
        if defender is None:
            raise refuse(
                "an engagement needs at least one declared fire", "no-fire", "OES.1", order
            )
        return defender, hexes, out

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        self.parse(state, order, args)

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Any:
        defender, h, attacks = self.parse(state, order, args)
        rec = {
            "n": 0,
            "hex": label(state, h),
            "attacker": order.side,
            "defender": defender,
            "attacks": attacks,
            "retaliations": [],
            "attacking": [a[0] for a in attacks],
            "defending": defending_group(state, defender, h),
        }
        from owsnb.rules.opscale.engagement import auto_retaliation

        rec["retaliations"] = auto_retaliation(state, rec)
        rec["defending"] = list(
            dict.fromkeys([*rec["defending"], *(r[0] for r in rec["retaliations"])])
        )
        return _forecast(
            state,
            rec,
            1,
            [
                "assumes the defender retaliates with every unit that can reach an attacker",
                "initiative not yet rolled: both orders of fire weighted by their exact odds",
            ],
        )

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        defender, h, attacks = self.parse(state, order, args)
        auto = is_neutral(state, defender) or bool(state.options.get("auto_retaliate", False))
        events, report = open_events(state, order.side, defender, attacks, h, dice, auto)
        return Adjudication(events, report)


def _forecast(state: StateLike, rec: Mapping[str, Any], rounds: int, notes: list[str]) -> Any:
    """The exact forecast of the next *rounds* rounds (fewer, or attack by attack, when the
    engagement is too large for a joint forecast)."""
    spec = spec_of(state, rec)
    first = rec.get("first")
    a, d, why = initiative_mods(state, rec) if first is None else (0, 0, [])
    if first is None:
        notes = [
            *notes,
            f"P({rec['attacker']} fires first) = {initiative_odds(a, d)['attacker']}",
            *why,
        ]
    st = statuses(state, spec)
    for n in dict.fromkeys((rounds, 1)):
        try:
            layers = forecast_engagement(
                spec,
                st,
                disabled=rec.get("disabled", ()),
                first=first,
                init_mods=(a, d),
                rounds=n,
                start_round=int(rec.get("rounds", 0)) + 1,
                last_malfunctions=False,  # the summary reads no weapon's state after it
            )
        except ForecastTooLarge:
            continue
        return summarise(
            spec, layers[-1], label=f"after {n} round(s) of engagement at {rec['hex']}", notes=notes
        )
    return pair_forecast(
        spec,
        st,
        disabled=rec.get("disabled", ()),
        first=first,
        init_mods=(a, d),
        notes=notes,
        label=f"engagement at {rec['hex']}: attack by attack",
    )


class Retaliate(OrderHandler):
    type = OrderType(
        "retaliate",
        (
            Param(
                "fire",
                "fire",
                "UNIT:ATTACKER pairs (none: no retaliation)",
                repeat=True,
                optional=True,
            ),
        ),
        rule="OES.2",
        doc="declare retaliating units and their targets",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        rec = record(state)
        if rec is None or rec["stage"] != "retaliate" or rec["defender"] != side:
            return None
        pairs = [
            (u.id, a)
            for u in state.units_of(side)
            if not shooter_problem(state, u)
            for a in rec["attacking"]
            if can_reach(state, u, state.units[a], SLOTS[""])
        ]
        first: dict[str, str] = {}
        for u, a in pairs:
            first.setdefault(u, a)
        ex = (
            self.type.make(side, fire=[f"{u}:{a}" for u, a in first.items()])
            if first
            else self.type.make(side),
        )
        return OrderSpec(side, self.type, FrozenDict(fire=tuple(f"{u}:{a}" for u, a in pairs)), ex)

    def parse(
        self, state: StateLike, order: Any, args: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[list[Any]]]:
        rec = require_engagement(state, order, "OES.2", "retaliate")
        if order.side != rec["defender"]:
            raise refuse(
                f"only {rec['defender']} (the defender) declares retaliating units",
                "not-defender",
                "OES.2",
                order,
            )
        out = []
        seen: set[str] = set()
        for text in args.get("fire", ()):
            d, a, slots = parse_fire(text, order, "OES.2")
            u = _declared_shooter(state, order, d, seen, "OES.2")
            if a not in rec["attacking"]:
                raise refuse(
                    f"{a} is not an attacking unit of this engagement", "bad-target", "OES.2", order
                )
            if not can_reach(state, u, state.units[a], slots):
                raise refuse(
                    f"{a} is out of range of {d}'s declared weapons (ruling R11)",
                    "out-of-range",
                    "OES.2",
                    order,
                )
            out.append([d, a, list(slots)])
        return rec, out

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        self.parse(state, order, args)

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Any:
        rec, rets = self.parse(state, order, args)
        rec = {
            **rec,
            "retaliations": rets,
            "defending": list(dict.fromkeys([*rec["defending"], *(r[0] for r in rets)])),
        }
        return _forecast(
            state,
            rec,
            1,
            ["initiative not yet rolled: both orders of fire weighted by their exact odds"],
        )

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        rec, rets = self.parse(state, order, args)
        events, report = retaliation_events(state, rec, rets, dice)
        return Adjudication(events, report)


class Round(OrderHandler):
    type = OrderType("round", (), rule="OES.4", doc="fight one combat round of the open engagement")

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        rec = record(state)
        if rec is None or rec["stage"] != "rounds" or rec["attacker"] != side:
            return None
        return OrderSpec(side, self.type, examples=(self.type.make(side),))

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        rec = require_engagement(state, order, "OES.4", "rounds")
        if order.side != rec["attacker"]:
            raise refuse(
                f"{rec['attacker']} (the attacker) calls the rounds", "not-attacker", "OES.4", order
            )

    def rounds(self, state: StateLike, args: Mapping[str, Any]) -> int:
        return 1

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Any:
        rec = require_engagement(state, order, "OES.4", "rounds")
        return _forecast(
            state, rec, self.rounds(state, args), [f"{rec['first']} has the initiative"]
        )

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        rec = require_engagement(state, order, self.type.rule)
        events, report = round_events(state, rec, dice, self.rounds(state, args))
        return Adjudication(events, report)


class Fight(Round):
    type = OrderType(
        "fight",
        (Param("rounds", "int", "at most this many rounds", positional=False, optional=True),),
        rule="OES.10",
        doc="fight combat rounds until one side is destroyed (or the round limit)",
    )

    def rounds(self, state: StateLike, args: Mapping[str, Any]) -> int:
        limit = int(state.options.get("max_fight_rounds", 20))
        return max(1, min(args.get("rounds", limit), limit))

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        super().validate(state, order, args)
        if args.get("rounds", 1) < 1:
            raise refuse(
                f"rounds must be a whole number of at least 1, not {args['rounds']}",
                "bad-arguments",
                "OES.10",
                order,
            )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Any:
        rec = require_engagement(state, order, "OES.4", "rounds")
        n = min(self.rounds(state, args), 6)
        return _forecast(
            state,
            rec,
            n,
            [
                f"{rec['first']} has the initiative",
                f"forecast over {n} rounds (the order fights up to {self.rounds(state, args)})",
            ],
        )


def _party_record(state: StateLike, side: str, option: str) -> dict[str, Any] | None:
    """The open engagement if *side* fights in it and *option* (withdrawal, surrender) is on."""
    rec = record(state)
    if rec is None or side not in (rec["attacker"], rec["defender"]):
        return None
    return rec if state.options.get(option, True) else None


def _require_party(
    state: StateLike, order: Any, rule: str, option: str, stage: str | None = None
) -> dict[str, Any]:
    """The open engagement (at *stage*), or the refusal of an order that needs the ordering side
    to fight in it with *option* (withdrawal, surrender) on."""
    rec = require_engagement(state, order, rule, stage)
    if not state.options.get(option, True):
        raise refuse(
            f"{option} is switched off in this scenario (option {option})",
            f"no-{option}",
            rule,
            order,
        )
    if order.side not in (rec["attacker"], rec["defender"]):
        raise refuse(f"{order.side} is not in the engagement", "not-engaged", rule, order)
    return rec


class Withdraw(OrderHandler):
    type = OrderType(
        "withdraw",
        (
            Param(
                "to", "hex", "where the defending units withdraw to", positional=True, optional=True
            ),
        ),
        rule="R16",
        doc="withdraw from the open engagement (the enemy earns experience)",
        actors="any",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        rec = _party_record(state, side, "withdrawal")
        if rec is None:
            return None
        if side == rec["attacker"]:
            return OrderSpec(side, self.type, examples=(self.type.make(side),))
        h = state.map.hex(rec["hex"])
        spots = [
            label(state, n)
            for n in h.neighbours()
            if n in state.map.hexes and not enemy_units_at(state, n, side)
        ]
        return (
            OrderSpec(
                side,
                self.type,
                FrozenDict(to=tuple(spots)),
                tuple(self.type.make(side, to=s) for s in spots[:3]),
            )
            if spots
            else None
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        rec = _require_party(state, order, "R16", "withdrawal")
        if order.side == rec["defender"]:
            if "to" not in args:
                raise refuse(
                    "say where the defending units withdraw to: withdraw <hex>",
                    "bad-arguments",
                    "R16",
                    order,
                )
            h, to = state.map.hex(rec["hex"]), args["to"]
            if to.distance(h) != 1 or enemy_units_at(state, to, order.side):
                raise refuse(
                    f"{label(state, to)} is not a hex next to {rec['hex']} free of enemy units",
                    "bad-retreat",
                    "R16",
                    order,
                )

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        rec = require_engagement(state, order, self.type.rule)
        t = Tally(state, dice)
        report = Report(f"{order.side} withdraws from engagement {rec['n']}", rules=["R16"])
        if order.side == rec["defender"]:
            to = args["to"]
            for uid in rec["defending"]:
                u = t.state.units[uid]
                if (
                    u.steps > 0
                    and u.hex == state.map.hex(rec["hex"])
                    and mobile(u)
                    and step_cost(state, u, to) is not None
                ):
                    t.add(unit_move(uid, to, path=(u.hex, to), rule="R16"))
                    report.lines.append(f"{uid} withdraws to {label(state, to)}")
        other = rec["defender"] if order.side == rec["attacker"] else rec["attacker"]
        close_events(t, rec, report, f"{order.side} withdrew", forced_by=other)
        return Adjudication(t.events, report)


class Surrender(OrderHandler):
    type = OrderType(
        "surrender",
        (
            Param(
                "terms",
                "choice",
                "conditional or unconditional",
                choices=("conditional", "unconditional"),
            ),
        ),
        rule="R35",
        doc="surrender the engaged units (the enemy captures them)",
        actors="any",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        rec = _party_record(state, side, "surrender")
        if rec is None or rec["stage"] != "rounds":
            return None
        return OrderSpec(side, self.type)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        _require_party(state, order, "R35", "surrender", "rounds")

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        rec = require_engagement(state, order, self.type.rule)
        t = Tally(state, dice)
        report = Report(
            f"{order.side} surrenders ({args['terms']}) in engagement {rec['n']}", rules=["R35"]
        )
        surrender_events(t, rec, order.side, args["terms"] == "conditional", report)
        close_events(t, rec, report, f"{order.side} surrendered ({args['terms']})")
        return Adjudication(t.events, report)


class Play(OrderHandler):
    type = OrderType(
        "play",
        (Param("card", "card", "a Command Card in hand"),),
        rule="OES.10",
        doc="play a Command Card",
        actors="any",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        hand = [
            c
            for c in state.sides[side].private.get("hand", ())
            if self._problem(state, side, c) is None
        ]
        return OrderSpec(side, self.type, FrozenDict(card=tuple(hand))) if hand else None

    def _problem(self, state: StateLike, side: str, card: str) -> tuple[str, str, str] | None:
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
                return (
                    f"{d['title']} is played in an engagement {side} fights",
                    "no-engagement",
                    "OES.10",
                )
            if eff == "initiative" and rec["stage"] != "retaliate":
                return (
                    f"{d['title']} is played before the initiative is rolled",
                    "too-late",
                    "OES.3",
                )
        if d.get("decision") and rec is not None and side in (rec["attacker"], rec["defender"]):
            group = rec["attacking"] if side == rec["attacker"] else rec["defending"]
            units = [state.units[u] for u in group if state.units[u].steps > 0]
            if beyond_network(state, units, state.options.get("network_scope", "majority")):
                return (
                    "Command Decisions may not be played for units beyond the Command Network",
                    "beyond-network",
                    "CN.3",
                )
        return None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        p = self._problem(state, order.side, args["card"])
        if p is not None:
            raise refuse(p[0], p[1], p[2], order)

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        hand = list(state.sides[side].private.get("hand", ()))
        c = decks.find_in_hand(hand, args["card"])
        if c is None:  # validated: the card is in the hand
            raise refuse(
                f"{side} holds no Command Card {args['card']!r}", "not-in-hand", "TS.1", order
            )
        hand.remove(c)
        d = decks.card_def(state.table("cards"), "command", c)
        t = Tally(state, dice)
        t.add(
            side_set(side, "private", {"hand": hand}, rule="TS.1"),
            side_set(side, "public", {"hand_size": len(hand)}, rule="TS.1"),
            note(f"{side} plays Command Card {d['title']}", rule="TS.1", card=c),
        )
        report = Report(f"{side} plays {d['title']}", rules=["TS.1"])
        eff, value = d.get("effect"), int(d.get("value", 0) or 0)
        if eff == "end_engagement":
            report.rules.append("OES.10")
            rec = require_engagement(state, order, "OES.10")
            close_events(t, rec, report, f"{side} played {d['title']}")
        elif eff == "initiative":
            rec = require_engagement(state, order, "OES.10")
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
    type = OrderType(
        "clear",
        (
            Param("unit", "unit", "a combat engineer"),
            Param("hex", "hex"),
            Param(
                "item", "choice", "what to clear", positional=False, optional=True, choices=ITEMS
            ),
        ),
        rule="ENG.1",
        doc="combat engineers detonate or clear a bridge, obstacle, emplacement or facility",
    )

    def items_at(self, state: StateLike, h: Any) -> dict[str, Any]:
        """Clearable items in a hex: item -> ("unit", id) or ("feature", name)."""
        info = state.map.hexes[h]
        out: dict[str, Any] = {}
        if "bridge" in info.features and not info.facts.get("bridge_destroyed"):
            out["existing-bridge"] = ("feature", "bridge")
        if "airfield" in info.features and not info.facts.get("airfield_destroyed"):
            out["airfield"] = ("feature", "airfield")
        if "port" in info.features and not info.facts.get("port_destroyed"):
            out["shipping-facility"] = ("feature", "port")
        kinds = {
            "engineered-bridge": "engineered-bridge",
            "obstacle-infantry": "obstacle-infantry",
            "obstacle-vehicle": "obstacle-vehicle",
            "emplacement": "emplacement",
            "bunker": "emplacement",
            "pillbox": "emplacement",
            "airfield": "airfield",
            "shipping-facility": "shipping-facility",
        }
        for u in state.units.values():
            item = kinds.get(u.data.get("category", ""))
            if item and alive_on_map(u) and u.hex == h and item not in out:
                out[item] = ("unit", u.id)
        return out

    def _engineers(self, state: StateLike, side: str) -> list[Unit]:
        return [
            u
            for u in state.units_of(side)
            if u.data.get("category") == "engineer"
            and alive_on_map(u)
            and "attacked" not in u.markers
        ]

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if record(state) is not None:
            return None
        ex = []
        for u in self._engineers(state, side):
            for h in [u.map_hex, *u.map_hex.neighbours()]:
                if h in state.map.hexes:
                    for item, (kind, ref) in self.items_at(state, h).items():
                        if kind == "feature" or state.units[ref].side != side:
                            ex.append(
                                self.type.make(side, unit=u.id, hex=label(state, h), item=item)
                            )
        return OrderSpec(side, self.type, examples=tuple(ex[:10])) if ex else None

    def parse(
        self, state: StateLike, order: Any, args: Mapping[str, Any]
    ) -> tuple[Unit, Any, str, Any, int]:
        require_no_engagement(state, order, "ENG.1")
        u, h = args["unit"], args["hex"]
        if u.data.get("category") != "engineer":
            raise refuse(
                f"{u.id} is not a combat engineer on the map", "not-engineer", "ENG.1", order
            )
        if "attacked" in u.markers:
            raise refuse(
                f"{u.id} has already acted this Combat Phase (ruling R28)",
                "attacked",
                "ENG.1",
                order,
            )
        if h.distance(u.map_hex) > 1:
            raise refuse(
                f"{label(state, h)} is not in or next to {u.id}'s hex", "too-far", "ENG.1", order
            )
        items = self.items_at(state, h)
        item = args.get("item") or (next(iter(items)) if items else None)
        if item not in items:
            raise refuse(
                f"nothing to clear in {label(state, h)}"
                + (f" called {item}" if item else "")
                + (f"; there: {', '.join(items)}" if items else ""),
                "nothing-to-clear",
                "ENG.1",
                order,
            )
        kind, ref = items[item]
        attempt = 1 + (
            int(state.units[ref].data.get("clearing_attempts", 0))
            if kind == "unit"
            else int(state.map.hexes[h].facts.get(f"{ref}_attempts", 0))
        )
        reading = state.options.get("engineer_reading", "at-or-above")
        if not attempt_possible(item, attempt, state.table("engineers"), reading):
            raise refuse(
                f"no further attempt is possible on this {item} (ENG.1, reading {reading})",
                "no-attempt",
                "ENG.1",
                order,
            )
        return u, h, item, (kind, ref), attempt

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        self.parse(state, order, args)

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        u, h, item, _, attempt = self.parse(state, order, args)
        recon = (
            label(state, h) in state.sides[order.side].private.get("recon", ())
            if order.side in state.sides
            else False
        )
        return clearing_odds(
            item,
            attempt,
            state.table("engineers"),
            recon=recon,
            reading=state.options.get("engineer_reading", "at-or-above"),
        )

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, h, item, (kind, ref), attempt = self.parse(state, order, args)
        table = state.table("engineers")
        reading = state.options.get("engineer_reading", "at-or-above")
        recon = label(state, h) in state.sides[order.side].private.get("recon", ())
        n = check_number(item, attempt, table)
        roll = None
        if needs_roll(item, attempt, table, reading):
            roll = dice.roll(
                int(table.get("die", 10)),
                purpose=f"{u.id} clears {item} at {label(state, h)}, attempt {attempt} "
                f"(number {n}{', recon +2' if recon else ''})",
                rule="ENG.1",
                actor=order.side,
                visible_to=None,
            )
        ok = check(item, attempt, roll, table, recon=recon, reading=reading)
        t = Tally(state, dice)
        t.add(unit_set(u.id, markers=u.markers | {"attacked"}, rule="ENG.1"))
        text = (
            f"{u.id} {'clears' if ok else 'fails to clear'} the {item} at {label(state, h)} "
            f"(attempt {attempt}"
            + (
                f", roll {roll}{'+2' if recon else ''} vs {n})"
                if roll is not None
                else ", no roll)"
            )
        )
        if kind == "unit":
            if ok:
                t.add(
                    unit_set(
                        ref,
                        steps=0,
                        hex=None,
                        box="destroyed",
                        markers=state.units[ref].markers | {"destroyed"},
                        rule="ENG.1",
                    )
                )
            else:
                t.add(unit_set(ref, data={"clearing_attempts": attempt}, rule="ENG.1"))
        else:
            t.add(
                hex_set(
                    h,
                    {f"{ref}_destroyed": True} if ok else {f"{ref}_attempts": attempt},
                    rule="ENG.1",
                )
            )
        t.add(note(text, rule="ENG.1"))
        return Adjudication(t.events, Report(text, rules=["ENG.1"] + (["ENG.2"] if recon else [])))


# -- the tactical scale (TS.5) --------------------------------------------------------------------
class Tactical(OrderHandler):
    """TS.5 offers to "Resolve Combat Engagements using the Operational Engagement Sequence, or
    Resolve by Miniatures at the Tactical Scale." The tactical game is not in the aid: the table
    fights the open engagement with miniatures and the umpire records what it left, unit by unit
    (ruling R46). Each unit named gets that Endurance (never more than it has: R10); 0 destroys it
    and scores it for the other side (SC.1); the engagement then ends as any fought one does
    (experience rolls, OES.11)."""

    type = OrderType(
        "tactical",
        (
            Param(
                "result",
                "text",
                "UNIT:ENDURANCE for each unit of the engagement whose Endurance changed (0: destroyed)",
                repeat=True,
                optional=True,
            ),
        ),
        rule="TS.5",
        doc="umpire: record the open engagement's result, fought with miniatures at the tactical scale",
        actors="umpire",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        return OrderSpec(side, self.type) if record(state) is not None else None

    @staticmethod
    def _results(
        state: StateLike, order: Any, args: Mapping[str, Any], rec: Mapping[str, Any]
    ) -> dict[str, int]:
        members = set(rec["attacking"]) | set(rec["defending"])
        out: dict[str, int] = {}
        for token in args.get("result") or ():
            uid, sep, value = str(token).rpartition(":")
            if not sep or not value.strip().lstrip("-").isdigit():
                raise refuse(
                    f"{token!r}: write UNIT:ENDURANCE (e.g. B-TANK-1:9)",
                    "bad-arguments",
                    "R46",
                    order,
                )
            if uid not in members or state.units[uid].steps <= 0:
                raise refuse(
                    f"{uid} is not a surviving unit of engagement {rec['n']}",
                    "not-engaged",
                    "R46",
                    order,
                )
            n = int(value)
            if not 0 <= n <= state.units[uid].steps:
                raise refuse(
                    f"{uid} has Endurance {state.units[uid].steps}: give 0..{state.units[uid].steps} "
                    "(Endurance lost stays lost, R10)",
                    "bad-endurance",
                    "R10",
                    order,
                )
            out[uid] = n
        return out

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        self._results(state, order, args, require_engagement(state, order, "TS.5"))

    def adjudicate(
        self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        rec = dict(require_engagement(state, order, self.type.rule))
        t = Tally(state, dice)
        report = Report(
            f"Engagement {rec['n']} at {rec['hex']} resolved at the tactical scale",
            rules=["TS.5", "R46"],
        )
        other = {rec["attacker"]: rec["defender"], rec["defender"]: rec["attacker"]}
        from owsnb.rules.opscale.engagement import destroy
        from owsnb.rules.opscale.units import card_of

        for uid, n in self._results(state, order, args, rec).items():
            u = t.state.units[uid]
            report.lines.append(f"{uid}: Endurance {u.steps} -> {n}")
            if n == 0:
                destroy(t, uid, other.get(u.side), "TS.5", report)
                continue
            changes: dict[str, Any] = {"steps": n}
            if card_of(u).damaged_at(n) and "damaged" not in u.markers:
                changes["markers"] = u.markers | {"damaged"}
            t.add(unit_set(uid, rule="TS.5", **changes))
        rec["rounds"] = max(1, int(rec.get("rounds", 0)))  # it was fought: a Combat Action
        close_events(t, rec, report, "resolved with miniatures at the tactical scale (TS.5)")
        return Adjudication(t.events, report)
