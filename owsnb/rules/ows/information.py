"""Information operations, cyber and space (7): IO tokens, Disrupt/Assure C2, SIGINT/EMSO,
countermeasures, cyber cards, the tactical nuke, and the space capability dashboard.

Paragraphs: 7.1 tokens regenerate each turn, cyber cards are one-shot; 7.2 secret placement,
revealed for adjudication (3.6); 7.2.1.1 Disrupt C2 (attack die vs an Assure C2 grey shield, then
the red shield; effects by unit type; several tokens demote several times); 7.2.1.2 Assure C2;
7.2.1.3 SIGINT/EMSO; 7.2.1.4 countermeasures (cancel with SIGINT without a roll); 7.3 cyber
cards; 7.4/7.4.1 tactical nuke and plume; 7.5 space dashboard after IO and cyber; 7.5.1 C2 value =
long-range strike actions (9.9.2); 7.5.2 PNT disrupted demotes strikes beyond one hex; 7.6 ISR die
and pawn rows, one token hits one row only; 2.1.3; 2.1.4 hands are secret; 11.2 a card with a
recovery roll leaves an enduring effect (``public.cyber_effects``) that the Regeneration phase rolls
to end (``regeneration.cyber_recovery``).

>>> dict(disrupt_preview("d10", 5, assure=6))
{False: Fraction(7, 10), True: Fraction(3, 10)}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, hex_set, note, side_set, state_set, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param, enemy_unit, own_unit
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    hand,
    option,
    set_space,
    space,
    table,
    watchers,
)
from owsnb.rules.ows.dice import demote, parse_die, success_probability
from owsnb.rules.ows.tables import load_tables
from owsnb.rules.ows.units import counter

__all__ = [
    "TOKENS",
    "ROWS",
    "disrupt_preview",
    "Io",
    "Cyber",
    "Nuke",
    "reveal_and_adjudicate",
    "space_step",
    "HANDLERS",
    "STEP_EFFECTS",
    "preview",
    "resolve",
    "recovery_preview",
    "demote_row",
]

TOKENS = ("disrupt-c2", "assure-c2", "sigint", "countermeasures")
"""IO tokens (7.2.1.1–7.2.1.4)."""
ROWS = ("c2", "pnt", "isr_die", "isr_pawns")
"""Space dashboard rows (7.5.1, 7.5.2, 7.6)."""
OFFENSIVE = ("disrupt-c2", "sigint")


def disrupt_preview(die: str, red_shield: int, assure: int | None = None) -> Distribution:
    """Exact P(Disrupt C2 succeeds): beat the Assure C2 grey shield if present, then the red shield
    (7.2.1.1, 7.2.1.2)."""
    p = success_probability(die, red_shield)
    if assure:
        p *= success_probability(die, assure)
    return Distribution.bernoulli(p, label="disrupted")


def _target_ref(state: StateLike, side: str, ref: str, token: str, order: Any) -> dict[str, Any]:
    if ref.startswith("space:"):
        parts = ref.split(":")
        if len(parts) != 3 or parts[1] not in state.sides or parts[2] not in ROWS:
            raise refuse(
                f"{ref!r}: write space:SIDE:ROW with ROW one of {', '.join(ROWS)}",
                "bad-target",
                "7.5",
                order,
            )
        return {"space": parts[1], "row": parts[2]}
    if token in ("assure-c2", "countermeasures"):
        u = own_unit(state, order, ref, "7.2.1.2" if token == "assure-c2" else "7.2.1.4")
        return {"unit": u.id}
    u = enemy_unit(state, order, ref, "9.9.4", detected=detected)
    return {"unit": u.id}


class Io(OrderHandler):
    """7.2: place an IO token secretly (revealed in step 4.2): ``io disrupt-c2 TARGET``;
    ``TARGET`` is a unit or ``space:SIDE:ROW``."""

    type = OrderType(
        "io",
        (
            Param("token", "choice", "IO token", choices=TOKENS),
            Param("target", "target", "unit, or space:SIDE:ROW"),
        ),
        rule="7.2",
        doc="place an IO token (secret until revealed)",
    )

    def _left(self, state: StateLike, side: str, token: str) -> int:
        h = hand(state, side)
        used = thaw(state.sides[side].private.get("io_used") or {})
        return int((h.get("io") or {}).get(token, 0)) - int(used.get(token, 0))

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ex = []
        for t in TOKENS:
            if self._left(state, side, t) <= 0:
                continue
            if t in ("assure-c2", "countermeasures"):
                ex += [
                    self.type.make(side, token=t, target=u.id)
                    for u in state.units_of(side)
                    if u.hex is not None
                ][:3]
            else:
                ex += [
                    self.type.make(side, token=t, target=f"space:{e}:{r}")
                    for e in state.sides
                    if e != side
                    for r in ROWS[:2]
                ]
                ex += [
                    self.type.make(side, token=t, target=u.id)
                    for u in state.units.values()
                    if u.side != side and u.hex is not None and side in u.seen_by
                ][:3]
        return OrderSpec(side, self.type, FrozenDict(token=TOKENS), tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        tok = args["token"]
        if self._left(state, order.side, tok) <= 0:
            raise refuse(
                f"{order.side} has no {tok} token left in hand this turn (7.1)",
                "no-token",
                "7.2",
                order,
            )
        tgt = _target_ref(state, order.side, args["target"], tok, order)
        if "space" in tgt and tok not in ("disrupt-c2", "assure-c2"):
            raise refuse(
                f"{tok} cannot be placed on the space dashboard", "bad-target", "7.5", order
            )
        if "space" in tgt and (tok == "assure-c2") != (tgt["space"] == order.side):
            raise refuse(
                "Assure C2 protects your own dashboard; Disrupt C2 attacks the enemy's",
                "bad-target",
                "7.6",
                order,
            )
        if state.clock.phase == "6" and tok not in ("sigint",):
            raise refuse(
                "only SIGINT/EMSO may be placed in the Combat phase (7.2.1, 7.2.1.3)",
                "wrong-step",
                "7.2.1",
                order,
            )

    def preview(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> Distribution | None:
        if args["token"] != "disrupt-c2":
            return None
        tgt = _target_ref(state, order.side, args["target"], "disrupt-c2", order)
        io = table(state, "space")["io"]
        red = (
            int(table(state, "space")["row_shields"][tgt["row"]])
            if "space" in tgt
            else counter(state.units[tgt["unit"]]).red_shield
        )
        return disrupt_preview(io["disrupt_die"], red)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side, tok = order.side, args["token"]
        tgt = _target_ref(state, side, args["target"], tok, order)
        used = dict(thaw(state.sides[side].private.get("io_used") or {}))
        used[tok] = int(used.get(tok, 0)) + 1
        placed = list(thaw(state.sides[side].private.get("io_placed") or []))
        placed.append({"token": tok, **tgt})
        events: list[Event] = [
            side_set(side, "private", {"io_used": used, "io_placed": placed}, rule="7.2")
        ]
        if state.clock.phase == "6":  # SIGINT in the Combat phase takes effect at once (7.2.1.3)
            events += _apply_token(state, side, {"token": tok, **tgt}, Roller(dice))[0]
        res = Result(
            f"IO token {tok} placed",
            {"token": tok, **tgt},
            ["7.2"],
            [],
            ["face down until revealed (7.2)"],
        )
        return Adjudication(events, res)


def _apply_token(
    state: StateLike, side: str, p: Mapping[str, Any], roll: Roller, assured: set[str] | None = None
) -> tuple[list[Event], list[str]]:
    tok = p["token"]
    events: list[Event] = []
    lines: list[str] = []
    io = table(state, "space")["io"]
    if "unit" in p:
        u = state.units.get(p["unit"])
        if u is None or u.hex is None:
            return [], []
        vis = watchers(state, u)
        if tok in ("assure-c2", "countermeasures", "sigint"):
            m = {
                "assure-c2": "assured-c2",
                "countermeasures": "countermeasures",
                "sigint": "sigint",
            }[tok]
            events.append(
                unit_set(
                    u.id,
                    markers=u.markers | {m},
                    rule={
                        "assure-c2": "7.2.1.2",
                        "countermeasures": "7.2.1.4",
                        "sigint": "7.2.1.3",
                    }[tok],
                    visible_to=vis,
                )
            )
            lines.append(f"{tok} on {u.id}")
            return events, lines
        # Disrupt C2 (7.2.1.1)
        die = parse_die(io["disrupt_die"])
        if "assured-c2" in u.markers or (assured and u.id in assured):
            r = roll(
                die,
                f"Disrupt C2 vs Assure C2 shield {io['assure_shield']} on {u.id}",
                "7.2.1.2",
                vis,
            )
            if r < int(io["assure_shield"]):
                lines.append(f"Disrupt C2 on {u.id} stopped by Assure C2")
                return events, lines
        red = counter(u).red_shield
        r = roll(die, f"Disrupt C2 vs {u.id} red shield {red}", "7.2.1.1", vis)
        if r >= red:
            extra: dict[str, Any] = {}
            markers = set(u.markers) | {"disrupted-c2"}
            if counter(u).category == "hq":
                markers -= {"main-effort"}
            events.append(
                unit_set(u.id, markers=frozenset(markers), rule="7.2.1.1", visible_to=vis, **extra)
            )
            lines.append(f"{u.id}: Disrupted C2")
        else:
            lines.append(f"Disrupt C2 on {u.id}: no effect")
        return events, lines
    # a space row
    who, row = p["space"], p["row"]
    if tok == "assure-c2":
        return [], [f"Assure C2 on {who}'s {row}"]
    die = parse_die(io["disrupt_die"])
    if assured and f"space:{who}:{row}" in assured:
        r = roll(
            die,
            f"Disrupt C2 vs Assure C2 shield {io['assure_shield']} on {who} {row}",
            "7.2.1.2",
            None,
        )
        if r < int(io["assure_shield"]):
            return [], [f"Disrupt C2 on {who}'s {row} stopped by Assure C2"]
    red = int(table(state, "space")["row_shields"][row])
    r = roll(die, f"Disrupt C2 vs {who}'s {row} (shield {red})", "7.6", None)
    if r < red:
        return [], [f"Disrupt C2 on {who}'s {row}: no effect"]
    return [demote_row(state, who, row, "7.2.1.1")], [f"{who}'s {row} demoted (7.2.1.1, 7.5)"]


def demote_row(state: StateLike, who: str, row: str, rule: str) -> Event:
    """Demote *who*'s space row *row* one step (7.2.1.1, 7.5, 7.6)."""
    d = space(state, who)
    if row == "c2":
        d["c2"] = max(int(d["c2"]) - 1, 0)
    elif row == "pnt":
        d["pnt"] = "disrupted"
    elif row == "isr_die":
        d["isr_die"] = demote(d["isr_die"])
    elif row == "isr_pawns":
        d["isr_pawns"] = max(int(d["isr_pawns"]) - 1, 0)
    return set_space(state, who, d, rule)


def reveal_and_adjudicate(state: GameState, dice: Any) -> list[Event]:
    """Step 4.2: every side's placements are revealed and adjudicated (7.2): defensive tokens
    first (Assure C2, countermeasures), then SIGINT, then Disrupt C2 and cyber cards."""
    from owsnb.kernel.reduce import apply

    roll = Roller(dice)
    events: list[Event] = []
    s = state
    placements = [
        (side, p)
        for side in state.sides
        for p in thaw(state.sides[side].private.get("io_placed") or [])
    ]
    assured = {p["unit"] for _, p in placements if p["token"] == "assure-c2" and "unit" in p}
    assured |= {
        f"space:{p['space']}:{p['row']}"
        for _, p in placements
        if p["token"] == "assure-c2" and "space" in p
    }
    order = {"assure-c2": 0, "countermeasures": 1, "sigint": 2, "disrupt-c2": 3}
    lines: list[tuple[str, frozenset[str] | None]] = []  # (text, who sees it)
    for side, p in sorted(placements, key=lambda x: order.get(x[1]["token"], 9)):
        evs, ls = _apply_token(s, side, p, roll, assured)
        for e in evs:
            s = apply(s, e)
        events += evs
        lines += [(x, watchers(state, state.units[p["unit"]]) if "unit" in p else None) for x in ls]
    cards = [
        (side, c)
        for side in state.sides
        for c in thaw(state.sides[side].private.get("cyber_played") or [])
    ]
    for side, c in cards:
        evs, ls = _apply_card(s, side, c, roll)
        for e in evs:
            s = apply(s, e)
        events += evs
        tgt = c.get("target", "")
        lines += [
            (x, watchers(state, state.units[tgt]) if tgt in state.units else None) for x in ls
        ]
    for side in state.sides:
        if state.sides[side].private.get("io_placed") or state.sides[side].private.get(
            "cyber_played"
        ):
            events.append(
                side_set(
                    side,
                    "private",
                    {
                        "io_placed": None,
                        "cyber_played": None,
                        "io_revealed": list(thaw(state.sides[side].private.get("io_placed") or [])),
                    },
                    rule="7.2",
                )
            )
    for text, vis in lines:
        events.append(note(f"IO/cyber: {text}", rule="7.2", visible_to=vis))
    return events


def _apply_card(
    state: StateLike, side: str, c: Mapping[str, Any], roll: Roller
) -> tuple[list[Event], list[str]]:
    cards = table(state, "cyber_cards")["cards"]
    spec = cards.get(c["card"], {})
    target = c.get("target", "")
    if spec.get("effect") == "space":
        who = (
            target.split(":")[1]
            if target.startswith("space:")
            else next(s for s in state.sides if s != side)
        )
        row = spec.get("row", "c2")
        ev = [demote_row(state, who, row, spec.get("rule", "7.3"))]
        if spec.get("recovery"):  # 11.2: the effect endures until a recovery roll succeeds
            ev.append(_enduring(state, side, c["card"], f"space:{who}:{row}", spec))
        return ev, [f"cyber card {c['card']}: {who}'s {row} demoted (7.3)"]
    if spec.get("effect") == "disrupt" and target:
        p = {"token": "disrupt-c2"}
        if target.startswith("space:"):
            p.update(space=target.split(":")[1], row=target.split(":")[2])
        else:
            p.update(unit=target)
        ev, lines = _apply_token(state, side, p, roll)
        if ev and spec.get("recovery"):
            ev.append(_enduring(state, side, c["card"], target, spec))
        return ev, lines
    return [], [f"cyber card {c['card']}: effect per scenario rules (7.3)"]


def _enduring(
    state: StateLike, side: str, card: str, target: str, spec: Mapping[str, Any]
) -> Event:
    """Record a cyber effect that stays in play until its recovery roll (11.2, 11.3)."""
    rec = dict(spec["recovery"])
    now = list(thaw(state.public.get("cyber_effects") or []))
    now.append(
        {"card": card, "by": side, "target": target, "die": rec["die"], "needs": int(rec["target"])}
    )
    return state_set("public", {"cyber_effects": now}, rule="11.2")


def recovery_preview(card: str, tables: Any = None) -> Distribution:
    """11.2: exact P(the victim recovers from *card*'s enduring effect) on its recovery roll
    (the card's ``recovery`` die meets or beats its target; one-shot cards have none).

    >>> recovery_preview("gps-spoofing")[True]
    Fraction(1, 2)
    """
    if tables and "cyber_cards" in tables:
        cards = thaw(tables["cyber_cards"])["cards"]
    else:
        cards = load_tables()["cyber_cards"]["cards"]
    rec = (cards.get(card) or {}).get("recovery")
    if not rec:
        raise ValueError(f"cyber card {card!r} is one-shot: no recovery roll (11.2)")
    return Distribution.bernoulli(
        success_probability(rec["die"], int(rec["target"])), label="recovered"
    )


def space_step(state: StateLike, dice: Any) -> list[Event]:
    """Step 4.3: the facilitator adjudicates the dashboard; its values now hold for the turn (7.5)."""
    lines = [
        f"{s}: C2 {d['c2']}, PNT {d['pnt']}, ISR {d['isr_die']} x {d['isr_pawns']}"
        for s, d in ((s, space(state, s)) for s in state.sides)
    ]
    return [note("Space dashboard: " + "; ".join(lines), rule="7.5", visible_to=None)]


class Cyber(OrderHandler):
    """7.3: play a cyber card from hand (one-shot; revealed and adjudicated in step 4.2)."""

    type = OrderType(
        "cyber",
        (
            Param("card", "card", "cyber card in hand"),
            Param(
                "target",
                "target",
                "unit or space:SIDE:ROW (if the card needs one)",
                positional=False,
                optional=True,
            ),
        ),
        rule="7.3",
        doc="play a cyber card",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        cards = list(hand(state, side).get("cyber") or [])
        if not cards:
            return None
        enemy = next(s for s in state.sides if s != side)
        ex = tuple(self.type.make(side, card=c, target=f"space:{enemy}:c2") for c in cards)
        return OrderSpec(side, self.type, FrozenDict(card=tuple(cards)), ex)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if args["card"] not in (hand(state, order.side).get("cyber") or []):
            raise refuse(
                f"{order.side} holds no cyber card {args['card']!r}", "no-card", "7.3", order
            )
        t = args.get("target")
        if t:
            _target_ref(state, order.side, t, "disrupt-c2", order)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        h = hand(state, side)
        cards = list(h.get("cyber") or [])
        cards.remove(args["card"])
        played = list(thaw(state.sides[side].private.get("cyber_played") or []))
        played.append({"card": args["card"], "target": args.get("target", "")})
        h["cyber"] = cards
        ev = [side_set(side, "private", {"hand": h, "cyber_played": played}, rule="7.3")]
        return Adjudication(
            ev, Result(f"Cyber card {args['card']} played", {"card": args["card"]}, ["7.3"])
        )


class Nuke(OrderHandler):
    """7.4: a tactical nuclear strike (if the scenario authorises it): destroys the targeted counter;
    the hex becomes radioactive; on tactical maps a plume goes downwind (7.4.1)."""

    type = OrderType(
        "nuke",
        (Param("target", "enemy", "detected enemy counter"),),
        rule="7.4",
        doc="tactical nuke",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if not option(state, "nukes") or not hand(state, side).get("nuke"):
            return None
        return OrderSpec(side, self.type)

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if not option(state, "nukes"):
            raise refuse(
                "the scenario does not authorise nuclear strikes", "not-authorised", "7.4", order
            )
        if not hand(state, order.side).get("nuke") or state.sides[order.side].private.get(
            "nuke_used"
        ):
            raise refuse(
                "no tactical nuke token in hand for this Combat step", "no-token", "7.4", order
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        t = args["target"]  # bound: a detected enemy unit
        h = t.hex
        events, lost, _ = apply_hits(state, t, t.steps, rule="7.4", cause="nuclear")
        events.append(hex_set(h, {"radiation": True}, rule="7.4"))
        roll = Roller(dice)
        if (state.map.km_per_hex() or 370) <= 20:
            r = roll("d6", "wind direction for the fallout plume", "7.4.1", None)
            n = h.neighbours()[r - 1]
            if n in state.map.hexes:
                events.append(hex_set(n, {"plume": state.clock.turn}, rule="7.4.1"))
        events.append(side_set(order.side, "private", {"nuke_used": True}, rule="7.4"))
        return Adjudication(
            events,
            Result(f"Nuclear strike on {t.id}", {"destroyed": t.id}, ["7.4", "7.4.1"], roll.rolls),
        )


preview = disrupt_preview


def resolve(game: Any, side: str, token: str, target: str) -> Result:
    """Place an IO token by submitting ``io`` (adjudicated when revealed in step 4.2)."""
    from owsnb.rules.ows.common import submit

    return submit(game, Io.type.make(side, token=token, target=target))


HANDLERS = [Io(), Cyber(), Nuke()]
STEP_EFFECTS = {"4.2": reveal_and_adjudicate, "4.3": space_step}
