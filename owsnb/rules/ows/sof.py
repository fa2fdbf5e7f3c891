"""Special operations forces (6.6, 6.6.1, 8.5.1; regeneration 6.6.1.2 lives in regeneration.py).

Paragraphs: 6.6 placement in the SOF step, insertion into an enemy-controlled hex rolls a D8 and
fails on a roll >= the SOF's local signature (usually 8), failures to the Regeneration Box;
6.6.1 missions adjudicated once both sides have placed; 6.6.1.1 Direct Action: a compromise D8,
then the SOF attack die vs the target's defence, 1 step, 2 steps at double (R2: at most 2); legal
targets only; 8.5.1 special reconnaissance: a compromise check, then promotion of detection in
(and strikes on detected targets in) one designated hex this turn; 2.2.7.2.

>>> dict(insertion_preview(8))
{False: Fraction(7, 8), True: Fraction(1, 8)}
>>> dict(direct_action_preview(sof_die="d10", defence=4, signature=8))
{0: Fraction(31, 80), 1: Fraction(7, 20), 2: Fraction(21, 80)}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, side_set, unit_move, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param, enemy_unit
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import Result, Roller, apply_hits, detected, near_own, option, table
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import parse_die, success_probability
from owsnb.rules.ows.units import counter

__all__ = [
    "insertion_preview",
    "direct_action_preview",
    "legal_da_target",
    "Insert",
    "DirectAction",
    "Recon",
    "HANDLERS",
    "preview",
    "resolve",
    "insert",
    "recon",
]

DA_CATEGORIES = ("air-base", "air-mission", "hq", "air-defence", "artillery", "asp")


def insertion_preview(signature: int = 8, die: str = "d8") -> Distribution:
    """P(insertion fails): the D8 meets or beats the SOF's signature (6.6); ``True`` = failed."""
    return Distribution.bernoulli(success_probability(die, signature), label="insertion failed")


def direct_action_preview(
    sof_die: str, defence: int, signature: int = 8, compromise_die: str = "d8", max_hits: int = 2
) -> Distribution:
    """Steps a Direct Action takes: compromise check (fails on >= signature), then the attack die vs
    the defence: 1 step, 2 at double (6.6.1.1, R2)."""
    ok = 1 - success_probability(compromise_die, signature)
    atk = Distribution.die(int(parse_die(sof_die)[1:])).map(
        lambda r: _hits(r, defence, max_hits=max_hits)
    )
    return Distribution.mixture(
        [(1 - ok, Distribution.point(0)), (ok, atk)], label="steps lost by the target"
    )


def _enemy_controlled(state: StateLike, side: str, h: Any) -> bool:
    ctl = state.map.info(h).facts.get("control")
    if ctl:
        return ctl != side
    feats = state.map.info(h).features
    for f in feats.values():
        if f.get("side") and f.get("side") != side:
            return True
    return any(
        u.side != side and u.alive and counter(u).category not in ("air-mission",)
        for u in state.units_at(h)
    )


def legal_da_target(state: StateLike, target: Any) -> bool:
    """6.6.1.1: ports, airfields, air units, HQs, air defence, artillery, missile units, ammunition
    depots, and ships in port."""
    c = counter(target)
    if c.category in DA_CATEGORIES:
        return True
    if c.category == "naval":
        return "port" in state.map.info(target.hex).features
    return False


class Insert(OrderHandler):
    """6.6: place a SOF mission in a hex; into an enemy-controlled hex it rolls for insertion."""

    type = OrderType(
        "insert",
        (Param("sof", "unit", "SOF mission", on_map=False), Param("hex", "hex", "target hex")),
        rule="6.6",
        doc="insert a SOF mission",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        sofs = [
            u
            for u in state.units_of(side)
            if counter(u).category == "sof"
            and u.box not in ("regeneration", "attrition")
            and not u.has("inserted")
        ]
        if not sofs:
            return None
        near = near_own(state, side)
        ex = tuple(self.type.make(side, sof=s.id, hex=h) for s in sofs for h in near[:8])
        return OrderSpec(side, self.type, FrozenDict(sof=tuple(s.id for s in sofs)), ex)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["sof"]  # bound: the side's unit, alive
        if counter(u).category != "sof":
            raise refuse(f"{u.id} is not a SOF mission", "not-sof", "6.6", order)
        if u.box in ("regeneration", "attrition") or u.has("inserted"):
            raise refuse(
                f"{u.id} is not available (in {u.box} or already inserted this turn)",
                "not-available",
                "6.6",
                order,
            )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        return insertion_preview(int(counter(args["sof"]).signature or 8))

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, h = args["sof"], args["hex"]
        sig = int(counter(u).signature or 8)
        roll = Roller(dice)
        own = frozenset({u.side})
        events: list[Event] = []
        failed = False
        if _enemy_controlled(state, u.side, h):
            die = parse_die(table(state, "sof_missions")["insertion"]["die"])
            r = roll(die, f"SOF insertion of {u.id} (fails on {sig}+)", "6.6", own)
            failed = r >= sig
        enemy = [s for s in state.sides if s != u.side]
        if failed:
            events.append(
                unit_set(
                    u.id,
                    hex=None,
                    box="regeneration",
                    steps=0,
                    markers=frozenset({"inserted"}),
                    seen_by=u.seen_by | set(enemy),
                    rule="6.6",
                    visible_to=None,
                )
            )
            events.append(
                note(
                    f"SOF {u.id} detected on insertion into {state.map.label(h)}: to the Regeneration Box",
                    rule="6.6",
                    visible_to=None,
                )
            )
        else:
            events.append(unit_move(u.id, h, rule="6.6", visible_to=own))
            events.append(
                unit_set(u.id, markers=u.markers | {"inserted"}, rule="6.6", visible_to=own)
            )
        res = Result(
            f"SOF {u.id} inserted into {state.map.label(h)}",
            {"failed": failed},
            ["6.6"],
            roll.rolls,
            ["insertion failed: Regeneration Box" if failed else "inserted"],
        )
        return Adjudication(events, res)


def _compromise(state: StateLike, u: Any, roll: Roller, rule: str) -> bool:
    sig = int(counter(u).signature or 8)
    die = parse_die(table(state, "sof_missions")["compromise"]["die"])
    r = roll(die, f"compromise check for {u.id} (compromised on {sig}+)", rule, frozenset({u.side}))
    return r >= sig


def _to_regen(u: Any, state: StateLike, rule: str) -> list[Event]:
    enemy = [s for s in state.sides if s != u.side]
    return [
        unit_set(
            u.id,
            hex=None,
            box="regeneration",
            steps=0,
            seen_by=u.seen_by | set(enemy),
            rule=rule,
            visible_to=None,
        ),
        note(f"SOF {u.id} compromised: to the Regeneration Box", rule=rule, visible_to=None),
    ]


class DirectAction(OrderHandler):
    """6.6.1.1: SOF direct action against a legal target in its hex."""

    type = OrderType(
        "direct-action",
        (
            Param("sof", "unit", "SOF mission on the map"),
            Param("target", "target", "target unit, or port:HEX / airfield:HEX"),
        ),
        rule="6.6.1.1",
        doc="SOF direct action",
    )

    def _target(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> tuple[Any, Any]:
        u = args["sof"]  # bound: the side's unit alive on the map
        if counter(u).category != "sof":
            raise refuse(f"{u.id} is not a SOF mission", "not-sof", "6.6.1.1", order)
        if u.has("sof-mission"):
            raise refuse(
                f"{u.id} has already conducted its mission this turn", "used", "6.6.1", order
            )
        ref = args["target"]
        if ref.split(":")[0] in ("port", "airfield"):
            kind, _, lab = ref.partition(":")
            h = state.map.hex(lab)
            if kind not in state.map.info(h).features or h != u.hex:
                raise refuse(f"no {kind} in {u.id}'s hex", "bad-target", "6.6.1.1", order)
            return u, ref
        t = enemy_unit(state, order, ref, "9.9.4", detected=detected)
        if t.hex != u.hex:
            raise refuse(f"{t.id} is not in {u.id}'s hex", "bad-target", "6.6.1.1", order)
        if not legal_da_target(state, t):
            raise refuse(
                f"{t.id} is not a legal direct-action target (ports, airfields, air units, HQs, air defence, "
                "artillery, missile units, ammunition depots, ships in port)",
                "illegal-da-target",
                "6.6.1.1",
                order,
            )
        return u, t

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._target(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        u, t = self._target(state, order, args)
        d = _defence(state, t)
        return direct_action_preview(
            max((a.die for a in counter(u).attacks), default="d8"),
            d,
            int(counter(u).signature or 8),
            max_hits=int(option(state, "sof_da_max_hits")),
        )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u, t = self._target(state, order, args)
        roll = Roller(dice)
        if _compromise(state, u, roll, "6.6.1.1"):
            return Adjudication(
                _to_regen(u, state, "6.6.1.1"),
                Result(
                    f"Direct action by {u.id}",
                    {"compromised": True, "steps_lost": 0},
                    ["6.6.1.1"],
                    roll.rolls,
                    ["compromised: Regeneration Box"],
                ),
            )
        d = _defence(state, t)
        die = max((a.die for a in counter(u).attacks), key=lambda x: int(x[1:]), default="d8")
        r = roll(
            die,
            f"direct action vs defence {d}",
            "6.6.1.1",
            frozenset({u.side}) if not isinstance(t, str) else None,
        )
        n = _hits(r, d, max_hits=int(option(state, "sof_da_max_hits")))
        events: list[Event] = [
            unit_set(
                u.id,
                markers=u.markers | {"sof-mission"},
                rule="6.6.1",
                visible_to=frozenset({u.side}),
            )
        ]
        lost = 0
        if isinstance(t, str):
            from owsnb.rules.ows.strike import _infra_damage
            from owsnb.rules.ows.targeting import _target

            tt = _target(state, u.side, t)
            evs, lost = _infra_damage(state, tt, n)
            events += evs
        else:
            evs, lost, _ = apply_hits(state, t, n, rule="6.6.1.1", cause="sof")
            events += evs
        tid = t if isinstance(t, str) else t.id
        events.append(
            note(f"Direct action on {tid}: {lost} step(s) lost", rule="6.6.1.1", visible_to=None)
        )
        return Adjudication(
            events,
            Result(
                f"Direct action by {u.id} on {tid}",
                {"compromised": False, "roll": r, "steps_lost": lost},
                ["6.6.1.1", "2.1.1.2"],
                roll.rolls,
            ),
        )


def _defence(state: StateLike, t: Any) -> int:
    if isinstance(t, str):
        kind, _, lab = t.partition(":")
        f = state.map.info(state.map.hex(lab)).features.get(kind, {})
        return int(
            f.get("shield") or table(state, "regeneration")["infrastructure"]["default_defense"]
        )
    return counter(t).red_shield


class Recon(OrderHandler):
    """8.5.1: special reconnaissance on one hex this turn (after a compromise check): detection there
    is promoted in the ISR phase, and strikes on units detected there in the Combat phase."""

    type = OrderType(
        "recon",
        (Param("sof", "unit", "SOF mission on the map"), Param("hex", "hex", "hex observed")),
        rule="8.5.1",
        doc="SOF special reconnaissance",
    )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        u = args["sof"]  # bound: the side's unit alive on the map
        if counter(u).category != "sof":
            raise refuse(f"{u.id} is not a SOF mission", "not-sof", "8.5.1", order)
        if u.has("sof-mission"):
            raise refuse(
                f"{u.id} has already used its mission this turn (one target per turn)",
                "used",
                "8.5.1",
                order,
            )
        h = args["hex"]
        if h.distance(u.hex) > 1:
            raise refuse(
                "special reconnaissance observes the SOF's own or an adjacent hex",
                "too-far",
                "8.5.1",
                order,
            )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = tuple(
            self.type.make(side, sof=u.id, hex=state.map.label(u.hex))
            for u in state.units_of(side)
            if counter(u).category == "sof" and u.hex is not None and not u.has("sof-mission")
        )
        return OrderSpec(side, self.type, FrozenDict(), ex) if ex else None

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        return Distribution.bernoulli(
            1 - success_probability("d8", int(counter(args["sof"]).signature or 8)),
            label="not compromised",
        )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        u = args["sof"]
        roll = Roller(dice)
        if _compromise(state, u, roll, "8.5.1"):
            return Adjudication(
                _to_regen(u, state, "8.5.1"),
                Result(
                    f"Special reconnaissance by {u.id}",
                    {"compromised": True},
                    ["8.5.1"],
                    roll.rolls,
                ),
            )
        hexes = list(thaw(state.sides[u.side].private.get("sr_hexes") or []))
        lab = state.map.label(args["hex"])
        hexes.append(lab)
        ev = [
            side_set(u.side, "private", {"sr_hexes": hexes}, rule="8.5.1"),
            unit_set(
                u.id,
                markers=u.markers | {"sof-mission"},
                rule="8.5.1",
                visible_to=frozenset({u.side}),
            ),
        ]
        return Adjudication(
            ev,
            Result(
                f"Special reconnaissance by {u.id} on {lab}",
                {"compromised": False, "hex": lab},
                ["8.5.1"],
                roll.rolls,
                [f"detection and strikes promoted in {lab} this turn"],
            ),
        )


preview = direct_action_preview


def resolve(game: Any, sof: str, target: str) -> Result:
    """A Direct Action (6.6.1.1) by submitting ``direct-action``."""
    from owsnb.rules.ows.common import submit

    return submit(game, DirectAction.type.make(game.state.units[sof].side, sof=sof, target=target))


def insert(game: Any, sof: str, hex: str) -> Result:
    """Insert a SOF mission (6.6) by submitting ``insert``."""
    from owsnb.rules.ows.common import submit

    return submit(game, Insert.type.make(game.state.units[sof].side, sof=sof, hex=hex))


def recon(game: Any, sof: str, hex: str) -> Result:
    """Special reconnaissance (8.5.1) by submitting ``recon``."""
    from owsnb.rules.ows.common import submit

    return submit(game, Recon.type.make(game.state.units[sof].side, sof=sof, hex=hex))


HANDLERS = [Insert(), DirectAction(), Recon()]
