"""Planning & readiness decisions (4): orders documentation and decision cards.

Paragraphs: 4.1 planning is informal or formal (nothing to adjudicate); 4.3 orders documentation:
the fields of the rule book's example form — commander's intent (purpose, method, end state) or
operational directive, PIRs, FFIRs, objectives, decisions, tasks, priority targets, priority IW
effects — written with ``intent FIELD TEXT`` in the Planning phase and kept as the side's private
facts (the umpire sees them, the other side never does; they appear in the side's dashboard and
event history); 4.2 decision cards: a side's hand is scenario data (``rules.hands.SIDE.cards``, and
the ground-initiative cards ``rules.hands.SIDE.decision``), a card is played with ``card NAME`` in
the steps its row of ``tables/decision_cards.yaml`` allows ("some Decision Cards can be played in
other phases"), and its effects are data in that table; 10.2.5 a card that seizes the ground
initiative (Planned Offensive) — ``initiative seize=CARD`` plays it too.

Rulings of this module:

* **PL1** a card's effects are the table's (``seize-initiative``, ``readiness``, ``space``,
  ``facilitator``); the text gives only 10.2.5's, so the other named cards of 4.2 say the
  facilitator applies them, and a scenario gives its own cards' effects under ``tables:``.
* **PL2** a card not in the table is a scenario decision played in step 1.2 (``cards``) or a
  ground-initiative card played in step 6.C.1 (``decision``); a played card is discarded unless
  its row says ``keep: true``; a play is announced to every side unless its row says
  ``public: false``.
* **PL3** orders documentation stands until the side rewrites it (the history keeps every version).

>>> FIELDS["pir"], card_spec({}, "planned-offensive", "decision")["rule"]
('PIR', '10.2.5')
>>> card_spec({}, "my-card", "cards")["steps"]
['1.2']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import Event, note, side_set, state_set, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import Result, hand, set_space, space, watchers
from owsnb.rules.ows.dice import shift
from owsnb.rules.ows.sequence import base_step, ground_round
from owsnb.rules.ows.tables import load_tables
from owsnb.rules.ows.units import MARKERS

__all__ = [
    "FIELDS",
    "HAND_KEYS",
    "card_spec",
    "playable",
    "check_card",
    "play_card",
    "seized",
    "orders_doc",
    "OrdersDoc",
    "Intent",
    "Card",
    "HANDLERS",
]

FIELDS: dict[str, str] = {
    "intent": "Commander's intent",
    "pir": "PIR",
    "ffir": "FFIR",
    "objective": "Objectives",
    "decision": "Decisions",
    "task": "Tasks",
    "target": "Priority targets",
    "iw": "Priority IW effects",
}
"""The fields of the 4.3 orders form (key -> label)."""

HAND_KEYS = ("cards", "decision")
"""Hand lists holding decision cards: scenario decisions (4.2), ground-initiative cards (10.2.5)."""

MAX_TEXT = 1000


# -- orders documentation (4.3) ----------------------------------------------------------------
def orders_doc(state: StateLike, side: str) -> dict[str, list[str]]:
    """A side's documented orders (4.3) as ``{field: [entries]}`` — only what *state* may show
    (a side's view holds its own orders only)."""
    s = state.sides.get(side)
    raw = thaw(s.private.get("orders_doc") or {}) if s is not None else {}
    return {k: list(raw.get(k) or []) for k in FIELDS if raw.get(k)}


class OrdersDoc:
    """A side's orders in the 4.3 form, with a rich HTML view."""

    def __init__(self, side: str, fields: Mapping[str, list[str]], turn: int | None = None):
        self.side, self.fields, self.turn = side, dict(fields), turn

    def __repr__(self) -> str:
        return (
            f"<OrdersDoc {self.side}: "
            + ", ".join(f"{k} {len(v)}" for k, v in self.fields.items())
            + ">"
        )

    def record(self) -> Any:
        """The orders form as a result (4.3): each field with its numbered entries."""
        from owsnb.kernel.result import Result

        return Result(
            f"{self.side}: orders",
            {
                label: "; ".join(f"{i}. {x}" for i, x in enumerate(self.fields.get(k) or [], 1))
                or None
                for k, label in FIELDS.items()
            },
            ["4.3"],
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def orders(game: Any, side: str) -> OrdersDoc:
    """The orders *side* has documented (4.3), read from *game*'s view of *side*."""
    view = game.view(side) if hasattr(game, "view") else game
    return OrdersDoc(side, orders_doc(view, side), view.clock.turn)


class Intent(OrderHandler):
    """4.3: write one entry of the orders form: ``intent pir "Where is the carrier group?"``;
    ``slot=N`` rewrites entry N, and ``slot=N`` without text deletes it."""

    type = OrderType(
        "intent",
        (
            Param("field", "choice", "field of the orders form (4.3)", choices=tuple(FIELDS)),
            Param("text", "text", "what you write", optional=True),
            Param(
                "slot",
                "int",
                "entry to rewrite or delete (1 = first)",
                positional=False,
                optional=True,
            ),
        ),
        rule="4.3",
        doc="document your orders (commander's intent, PIRs, FFIRs, objectives...)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        # free text: no example is offered (a bot has nothing to write)
        return OrderSpec(side, self.type, FrozenDict(field=tuple(FIELDS)))

    def _new(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[list[str], str]:
        field = args["field"]
        if field not in FIELDS:
            raise refuse(
                f"no field {field!r} on the orders form; fields: {', '.join(FIELDS)}",
                "bad-field",
                "4.3",
                order,
            )
        entries = orders_doc(state, order.side).get(field, [])
        text = str(args.get("text") or "").strip()
        if len(text) > MAX_TEXT:
            raise refuse(f"an entry is at most {MAX_TEXT} characters", "too-long", "4.3", order)
        slot = args.get("slot")
        if slot is None:
            if not text:
                raise refuse(
                    "write some text (or slot=N to delete entry N)", "nothing", "4.3", order
                )
            return [*entries, text], f"{FIELDS[field]} {len(entries) + 1}: {text}"
        if not str(slot).isdigit() or not 1 <= int(slot) <= len(entries) + (1 if text else 0):
            raise refuse(
                f"{FIELDS[field]} has {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}: "
                f"no slot {slot}",
                "bad-slot",
                "4.3",
                order,
            )
        i = int(slot) - 1
        if not text:
            return entries[:i] + entries[i + 1 :], f"{FIELDS[field]} {i + 1} deleted"
        return entries[:i] + [text] + entries[i + 1 :], f"{FIELDS[field]} {i + 1}: {text}"

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._new(state, order, args)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        side = order.side
        entries, line = self._new(state, order, args)
        raw = dict(thaw(state.sides[side].private.get("orders_doc") or {}))
        raw[args["field"]] = entries
        raw["turn"] = state.clock.turn
        ev = [
            side_set(side, "private", {"orders_doc": raw}, rule="4.3"),
            note(f"{side} orders — {line}", rule="4.3", visible_to=side),
        ]
        return Adjudication(
            ev,
            Result(
                f"{side} orders: {FIELDS[args['field']]}",
                {args["field"]: entries},
                ["4.3"],
                [],
                [line],
            ),
        )


# -- decision cards (4.2, 10.2.5) ---------------------------------------------------------------
def card_spec(tables: Any, card: str, key: str = "cards") -> dict[str, Any]:
    """The row of *card* (PL1, PL2): the table's, else the default of its hand list *key*; with
    ``title``, ``rule``, ``steps``, ``turns``, ``public``, ``keep`` and ``effects`` filled in."""
    t = thaw(tables["decision_cards"]) if tables and "decision_cards" in tables else None
    if t is None:
        t = load_tables()["decision_cards"]
    base = dict((t.get("defaults") or {}).get(key) or (t.get("defaults") or {}).get("cards") or {})
    row = {**base, **dict((t.get("cards") or {}).get(card) or {})}
    return {
        "title": row.get("title") or card,
        "rule": str(row.get("rule") or "4.2"),
        "steps": [str(s) for s in (row.get("steps") or ["1.2"])],
        "turns": [int(x) for x in (row.get("turns") or [])],
        "public": bool(row.get("public", True)),
        "keep": bool(row.get("keep", False)),
        "effects": [dict(e) for e in (row.get("effects") or [])],
    }


def _held(state: StateLike, side: str) -> dict[str, str]:
    """Decision cards in *side*'s hand -> the hand list holding them."""
    h = hand(state, side)
    return {c: k for k in reversed(HAND_KEYS) for c in (h.get(k) or [])}


def _tables(state: StateLike) -> Any:
    return getattr(state, "tables", None)


def seized(state: StateLike) -> list[str]:
    """Sides that have played a card seizing the initiative for the Ground phase now (10.2.5)."""
    g = thaw(state.public.get("ground") or {})
    return list((g.get("seize") or {}).get(ground_round(state), []))


def _seizes(spec: Mapping[str, Any]) -> bool:
    return any(e.get("seize-initiative") for e in spec["effects"])


def playable(state: StateLike, side: str, card: str) -> str | None:
    """Why *side* may not play *card* now (``None`` if it may)."""
    held = _held(state, side)
    if card not in held:
        return f"{side} holds no decision card {card!r}"
    spec = card_spec(_tables(state), card, held[card])
    steps = spec["steps"]
    if "any" not in steps and base_step(state.clock.step) not in steps:
        where = ", ".join(steps)
        return f"{spec['title']} is played in step {where}, not {state.clock.step} ({spec['rule']})"
    if spec["turns"] and state.clock.turn not in spec["turns"]:
        return f"{spec['title']} may be played on turn {', '.join(map(str, spec['turns']))} only"
    if _seizes(spec) and side in seized(state):
        return "you have already played a card for the initiative this Ground phase (10.2.5)"
    return None


def check_card(state: StateLike, order: Any, card: str, *, seize: bool = False) -> dict[str, Any]:
    """Refuse *card* if *order*'s side may not play it now (with ``seize``: unless it seizes the
    ground initiative, 10.2.5); returns its row."""
    held = _held(state, order.side)
    if seize and card in held and not _seizes(spec := card_spec(_tables(state), card, held[card])):
        raise refuse(
            f"{spec['title']} does not seize the ground initiative",
            "not-initiative-card",
            "10.2.5",
            order,
        )
    why = playable(state, order.side, card)
    if why is not None:
        code = "no-card" if "holds no" in why else "already" if "already" in why else "wrong-step"
        rule = "10.2.5" if "initiative" in why else "4.2"
        raise refuse(why, code, rule, order)
    return card_spec(_tables(state), card, held[card])


def _space_effect(
    state: StateLike, side: str, eff: Mapping[str, Any], rule: str
) -> tuple[list[Event], list[str]]:
    target = eff.get("target", "self")
    who = side if target == "self" else next((s for s in state.sides if s != side), side)
    d = space(state, who)
    for row, v in eff.items():
        if row == "target":
            continue
        if row in ("c2", "isr_pawns"):
            d[row] = max(int(d[row]) + int(v), 0)
        elif row == "isr_die":
            d[row] = shift(d[row], int(v))
        elif row == "pnt":
            d[row] = str(v)
    return [set_space(state, who, d, rule)], [
        f"{who}'s space dashboard: C2 {d['c2']}, PNT {d['pnt']}, "
        f"ISR {d['isr_die']} x {d['isr_pawns']} (2.1.3; until the 11.3 reset)"
    ]


def _readiness_effect(
    state: StateLike, side: str, eff: Mapping[str, Any], rule: str
) -> tuple[list[Event], list[str]]:
    events: list[Event] = []
    lines: list[str] = []
    add = set(eff.get("add") or ()) & set(MARKERS)
    drop = set(eff.get("remove") or ())
    timers = dict(eff.get("timers") or {})
    for uid in eff.get("units") or ():
        u = state.units.get(uid)
        if u is None or u.side != side:
            continue
        markers = (u.markers - drop) | add
        changes: dict[str, Any] = {}
        if markers != u.markers:
            changes["markers"] = markers
        if timers:
            changes["data"] = {
                "timers": {
                    **thaw(u.data.get("timers") or {}),
                    **{k: int(v) for k, v in timers.items()},
                }
            }
            changes["markers"] = markers | set(timers) & set(MARKERS)
        if changes:
            events.append(unit_set(u.id, rule=rule, visible_to=watchers(state, u), **changes))
            lines.append(f"{u.id}: readiness changed (4.2)")
    return events, lines


def play_card(
    state: StateLike, side: str, card: str, *, rule: str | None = None
) -> tuple[list[Event], list[str]]:
    """Events that play *card* from *side*'s hand (check it with :func:`check_card`): it leaves
    the hand (unless ``keep``), the play is recorded and announced, and its effects apply (PL1)."""
    key = _held(state, side)[card]
    spec = card_spec(_tables(state), card, key)
    rule = rule or spec["rule"]
    vis = None if spec["public"] else side
    events: list[Event] = []
    lines: list[str] = [f"{side} plays {spec['title']} ({rule})"]
    if not spec["keep"]:
        h = hand(state, side)
        left = list(h.get(key) or [])
        left.remove(card)
        events.append(side_set(side, "private", {"hand": {**h, key: left}}, rule=rule))
    played = list(thaw(state.sides[side].private.get("cards_played") or []))
    played.append({"card": card, "turn": state.clock.turn, "step": state.clock.step})
    events.append(side_set(side, "private", {"cards_played": played}, rule=rule))
    if spec["public"]:
        shown = list(thaw(state.sides[side].public.get("cards_played") or []))
        shown.append({"card": spec["title"], "turn": state.clock.turn, "step": state.clock.step})
        events.append(side_set(side, "public", {"cards_played": shown}, rule=rule, visible_to=None))
    for eff in spec["effects"]:
        if eff.get("seize-initiative"):
            g = dict(thaw(state.public.get("ground") or {}))
            sz = dict(g.get("seize") or {})
            key_r = ground_round(state)
            sz[key_r] = [*sz.get(key_r, []), side]
            g["seize"] = sz
            events.append(state_set("public", {"ground": g}, rule="10.2.5"))
            lines.append(f"{side} seizes the ground initiative (10.2.5)")
        if eff.get("space"):
            ev, ls = _space_effect(state, side, eff["space"], rule)
            events += ev
            lines += ls
        if eff.get("readiness"):
            ev, ls = _readiness_effect(state, side, eff["readiness"], rule)
            events += ev
            lines += ls
        if eff.get("facilitator"):
            lines.append(f"facilitator: {eff['facilitator']} (2.1.1.4)")
    events.append(note("; ".join(lines), rule=rule, visible_to=vis))
    return events, lines


class Card(OrderHandler):
    """4.2: play a decision card from your hand (its row of ``tables/decision_cards.yaml`` says in
    which steps, and what it does); 10.2.5 a ground-initiative card in step 6.C.1."""

    type = OrderType(
        "card",
        (Param("card", "card", "decision card in hand"),),
        rule="4.2",
        doc="play a decision card",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        cards = [c for c in _held(state, side) if playable(state, side, c) is None]
        if not cards:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(card=tuple(cards)),
            tuple(self.type.make(side, card=c) for c in cards),
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        check_card(state, order, args["card"])

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        spec = check_card(state, order, args["card"])
        events, lines = play_card(state, order.side, args["card"])
        return Adjudication(
            events,
            Result(
                f"Decision card {spec['title']}",
                {"card": args["card"]},
                sorted({"4.2", spec["rule"]}),
                [],
                lines,
            ),
        )


HANDLERS = [Intent(), Card()]
