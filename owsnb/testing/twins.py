"""Non-interference: twin games whose truths differ only in what one side cannot know must look
the same to that side, byte for byte.

For a side X at a point of a game, :func:`twin` builds a second game (the *twin*) from the same
history plus a few commits that X may not see, which change only what X cannot know: the dice
to come (a fresh generator state), the positions and strengths of enemy units X has not detected
(moved to a neighbouring hex of the same terrain, a step more or less), the other sides' private
facts and the umpire's secret facts (a probe key), and a rule set's own secret placements (the
perturbers of :data:`PERTURBERS`: TOCS minefields, roadblocks and positions...). Then everything
X can observe is compared between the two games (:class:`LocalObserver`): its view with its
numbers (the events' ``seq``/``batch``, ``view.seq``) and its revision, its legal orders with their
candidates and examples, and the answers of ``check``, ``preview`` and ``submit`` (on a throwaway
copy) to a sweep of orders (:func:`probe_orders`: every example offered, random orders over X's
units, the enemy units it sees, the true ids of hidden units and a made-up one, and the hexes where
hidden units stand in either game). Any difference is a side channel: :class:`InterferenceError`
names it.

:func:`noninterference` runs this over a seeded random play-out: at every few orders, for each
side, a twin is built and compared, and then both games follow the same course for a few more
orders, compared again after each as long as what X saw of the order is the same in both (once
it differs, X has learnt something — a die it may see, a contact — and the pair ends). The
report counts the twin pairs and the observations compared.

The observations come from an *observer*, one per (game, side): :class:`LocalObserver` asks the
kernel's :class:`~owsnb.kernel.game.Game`; an observer of a served game (every HTTP answer and
push frame of a seat, as bytes) plugs in through the ``observer`` argument.

What this proves and what it does not: every answer X gets is a function of what X knows now,
and hidden commits change none of X's numbers. What X is *told* by events it may see (a
combat result, a die) is the rule set's to decide; the leak scanner
(:mod:`owsnb.testing.leaks`) and the rule tests judge that.

Example:
    >>> from owsnb.rules.skirmish import example
    >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
    >>> report = noninterference(game, orders=12, every=4, follow=2, probes=8, seed=3)
    >>> report.pairs > 0 and report.observations > 10 * report.pairs
    True
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from owsnb.kernel import codec
from owsnb.kernel.data import EMPTY, FrozenDict
from owsnb.kernel.dice import rng_state_for_seed
from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.events import Event, side_set, state_set, unit_add, unit_move, unit_set
from owsnb.kernel.orders import LegalOrders, Order
from owsnb.kernel.reduce import apply
from owsnb.kernel.state import UMPIRE, GameState, Unit
from owsnb.testing.playout import random_playout

__all__ = [
    "InterferenceError",
    "Observer",
    "LocalObserver",
    "TwinReport",
    "twin",
    "probe_orders",
    "compare",
    "noninterference",
    "PERTURBERS",
]

PROBE = "twin-probe"
"""The key a twin writes into facts no side may read of another (private facts, secrets)."""

MADE_UP = "ZZ-made-up-9"
"""A unit id no game uses: a hidden unit's id must get the same answers as this one."""


class InterferenceError(AssertionError):
    """Two games that differ only in what a side cannot know looked different to it."""


class Observer(Protocol):
    """What one side can observe of one game, each observation as text (compared byte for byte).

    A served observer answers the same questions through a seat's HTTP routes and push frames.
    """

    side: str

    def view(self) -> str:
        """The side's view now, with its numbers and revision."""

    def legal(self) -> str:
        """Its legal orders: verbs, candidates, examples."""

    def check(self, order: str) -> str:
        """The answer to checking *order* (its bound arguments, or the refusal)."""

    def preview(self, order: str) -> str:
        """The answer to previewing *order*."""

    def submit(self, order: str) -> str:
        """Whether *order* would be accepted at submit, or its refusal (nothing is changed)."""


def _text(obj: Any) -> str:
    """Plain-data JSON of *obj* in its own order (the order a seat would receive it in)."""
    return json.dumps(_plain(obj), ensure_ascii=False)


def _plain(obj: Any) -> Any:
    try:
        return codec.encode(obj)
    except TypeError:
        pass
    if isinstance(obj, Mapping):
        return {"$m": [[_plain(k), _plain(v)] for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if hasattr(obj, "to_dict"):
        return _plain(obj.to_dict())
    if hasattr(obj, "__dataclass_fields__"):
        return {
            "$t": type(obj).__name__,
            "f": {k: _plain(getattr(obj, k)) for k in obj.__dataclass_fields__},
        }
    if hasattr(obj, "__dict__"):
        return {"$t": type(obj).__name__, "f": _plain(dict(vars(obj)))}
    return {"$r": str(obj)}


def _answer(fn: Callable[[], Any]) -> str:
    """An answer as text: the result, or the refusal (class, code, rule and message)."""
    try:
        return "ok " + _text(fn())
    except OwsnbError as exc:
        code = getattr(exc, "code", "")
        rule = getattr(exc, "rule", "")
        return f"refused {type(exc).__name__} {code} {rule}: {exc}"
    except Exception as exc:  # noqa: BLE001 - a crash is an answer too (and must not differ)
        return f"error {type(exc).__name__}: {exc}"


def encode_legal(legal: LegalOrders) -> list[Any]:
    """A side's legal orders as plain data: per verb, its candidates, examples and note."""
    return [
        {
            "verb": s.verb,
            "candidates": _plain(s.candidates),
            "examples": [str(o) for o in s.examples],
            "note": s.note,
        }
        for s in legal.specs
    ]


class LocalObserver:
    """What *side* observes of a local :class:`~owsnb.kernel.game.Game` (its own numbers)."""

    def __init__(self, game: Any, side: str):
        self.game = game
        self.side = side

    def view(self) -> str:
        g = self.game
        v = g.view(self.side)
        facts = [[[h.q, h.r], _plain(i.facts)] for h, i in v.map.hexes.items() if i.facts]
        body = codec.encode(replace(v, map=None, tables=EMPTY))
        return _text({"revision": g.revision(self.side), "view": body, "map_facts": facts})

    def legal(self) -> str:
        return _text(encode_legal(self.game.legal_orders(self.side)))

    def check(self, order: str) -> str:
        return _answer(lambda: self.game.check(Order.parse(order, side=self.side)))

    def preview(self, order: str) -> str:
        return _answer(lambda: self.game.preview(Order.parse(order, side=self.side)))

    def submit(self, order: str) -> str:
        def go() -> str:
            copy = self.game.fork(self.game.seq)
            copy.submit(Order.parse(order, side=self.side), state_id=copy.revision(self.side))
            return "accepted"

        return _answer(go)


# -- twins ------------------------------------------------------------------------------------
Perturber = Callable[[GameState, str, Any], list[Event]]
"""``perturb(state, side, rng) -> events`` that change only what *side* cannot know."""

PERTURBERS: dict[str, Perturber] = {}
"""Rule-set perturbers by rule-set name (secret placements a generic twin cannot know of)."""


def perturber(name: str) -> Callable[[Perturber], Perturber]:
    """Register a rule set's perturber (a decorator)."""

    def deco(fn: Perturber) -> Perturber:
        PERTURBERS[name] = fn
        return fn

    return deco


def _enemy(state: GameState, side: str, rng: Any) -> str | None:
    others = [s for s in state.sides if s != side]
    return others[int(rng.integers(len(others)))] if others else None


@perturber("tocs")
def _tocs(state: GameState, side: str, rng: Any) -> list[Event]:
    """TOCS secret placements (10.9-10.11): a minefield, a roadblock and an improved position of
    the enemy in a hex of its perimeter (its ``private`` lists: known only to it)."""
    enemy = _enemy(state, side, rng)
    if enemy is None:
        return []
    theirs = [
        state.map.label(h) for h, i in state.map.hexes.items() if i.facts.get("owner") == enemy
    ]
    if not theirs:
        return []
    priv = state.sides[enemy].private
    out = []
    for key in ("minefields", "roadblocks"):
        lab = theirs[int(rng.integers(len(theirs)))]
        have = sorted({*priv.get(key, ()), lab})
        out.append(side_set(enemy, "private", {key: have}, rule="twin"))
    lab = theirs[int(rng.integers(len(theirs)))]
    pos = {**dict(priv.get("positions", {})), lab: int(rng.integers(1, 4))}
    out.append(side_set(enemy, "private", {"positions": pos}, rule="twin"))
    return out


@perturber("opscale")
def _opscale(state: GameState, side: str, rng: Any) -> list[Event]:
    """Operational Scale secrets (R41): the enemy's currency and a purchase it holds staged."""
    enemy = _enemy(state, side, rng)
    if enemy is None:
        return []
    priv = state.sides[enemy].private
    out = []
    if isinstance(priv.get("currency"), int):
        cur = int(priv["currency"]) + int(rng.integers(1, 6))
        out.append(side_set(enemy, "private", {"currency": cur}, rule="twin"))
    mine = [u for u in state.units.values() if u.side == enemy and u.max_steps > 0]
    if mine:
        u = mine[int(rng.integers(len(mine)))]
        n = 900
        while f"{enemy}-new-{n:03d}" in state.units:
            n += 1
        bought = replace(
            u,
            id=f"{enemy}-new-{n:03d}",
            name="",
            hex=None,
            box="staged",
            steps=u.max_steps,
            markers=frozenset(),
            seen_by=frozenset(),
            data=u.data.set({"purchased_turn": state.clock.turn}),
        )
        out.append(unit_add(bought, visible_to={enemy}, rule="twin"))
    return out


@perturber("opart")
def _opart(state: GameState, side: str, rng: Any) -> list[Event]:
    """Operational Art: the order of the activation chits still in the cup (the umpire's)."""
    deck = list(state.secret.get("deck", ()))
    if len(deck) < 2:
        return []
    order = [deck[int(i)] for i in rng.permutation(len(deck))]
    return [state_set("secret", {"deck": order}, rule="twin")]


def _hidden_units(state: GameState, side: str, ruleset: Any) -> list[tuple[Unit, Unit | None]]:
    """Enemy units *side* does not see as they are — not at all, face down, or with closed values
    (an Operational Scale closed card): (unit, what it sees of it or None)."""
    out = []
    for u in state.units.values():
        if u.side == side:
            continue
        v = ruleset.view_unit(state, u, side)
        if v is None or v != u:
            out.append((u, v))
    return out


def _unit_perturbations(state: GameState, side: str, ruleset: Any, rng: Any) -> list[Event]:
    """Moves and step changes of enemy units *side* has not detected (face-down units: only what
    the face-down counter does not show)."""
    events: list[Event] = []
    seen_hexes = {
        u.hex
        for u in state.units.values()
        if u.hex is not None and (u.side == side or ruleset.view_unit(state, u, side) is not None)
    }
    for u, shown in _hidden_units(state, side, ruleset):
        if rng.random() < 0.5:
            continue
        if u.hex is not None and shown is None:
            terrain = state.map.hexes[u.hex].terrain
            near = [
                n
                for n in u.hex.neighbours()
                if n in state.map.hexes
                and state.map.hexes[n].terrain == terrain
                and n not in seen_hexes
            ]
            if near:
                to = near[int(rng.integers(len(near)))]
                events.append(unit_move(u.id, to, visible_to={u.side}, rule="twin"))
        if u.max_steps > 1 and u.steps > 0:
            k = int(rng.integers(1, u.max_steps + 1))
            if k != u.steps:
                events.append(unit_set(u.id, steps=k, visible_to={u.side}, rule="twin"))
    return events


def _keeps_hidden(before: GameState, after: GameState, side: str, ruleset: Any) -> bool:
    """Does *side* see every unit of *after* as it saw it in *before* (nothing revealed)?"""
    for uid, u in after.units.items():
        if u.side == side:
            continue
        was = before.units.get(uid)
        a = ruleset.view_unit(after, u, side)
        b = ruleset.view_unit(before, was, side) if was is not None else None
        if a != b:
            return False
    return True


def twin(
    game: Any, side: str, rng: Any, *, commits: int = 2
) -> tuple[Any, list[str]] | tuple[None, list[str]]:
    """A copy of *game* (at its end) whose truth differs from it only in what *side* cannot
    know, reached through *commits* or so submissions *side* may not see; and what was changed.

    ``(None, reasons)`` when nothing could be changed without *side* noticing.
    """
    state = game.state
    rs = game.ruleset
    candidates: list[list[Event]] = []
    candidates.append(
        [Event("rng", FrozenDict(state=rng_state_for_seed(int(rng.integers(2**62)))), frozenset())]
    )
    for e in _unit_perturbations(state, side, rs, rng):
        candidates.append([e])
    for other in state.sides:
        if other != side:
            candidates.append(
                [side_set(other, "private", {PROBE: int(rng.integers(1000))}, rule="twin")]
            )
    candidates.append([state_set("secret", {PROBE: int(rng.integers(1000))}, rule="twin")])
    extra = PERTURBERS.get(rs.name)
    if extra is not None:
        for e in extra(state, side, rng):
            candidates.append([e])
    kept: list[Event] = []
    what: list[str] = []
    s = state
    for evs in candidates:
        t = s
        try:
            for e in evs:
                t = apply(t, e, rs.reducers)
        except OwsnbError:
            continue
        if any(e.visible(side) and e.kind != "rng" for e in evs):
            continue
        if not _keeps_hidden(s, t, side, rs):
            continue
        kept += evs
        what += [_describe(e) for e in evs]
        s = t
    if not kept:
        return None, what
    b = game.fork(game.seq)
    n = max(1, min(commits, len(kept)))
    cuts = np.array_split(np.arange(len(kept)), n)
    for part in cuts:
        evs = [kept[i] for i in part]
        if evs:
            b._commit(Order(UMPIRE, "twin"), evs, None)
    return b, what


def _describe(e: Event) -> str:
    d = e.data
    if e.kind == "rng":
        return "dice to come"
    if e.kind == "unit.move":
        return f"move hidden {d['id']}"
    if e.kind == "unit.set":
        return f"change hidden {d['id']} {sorted(d['changes'])}"
    if e.kind == "unit.add":
        return f"hidden purchase {d['unit'].id}"
    if e.kind == "side.set":
        return f"{d['side']}'s {d['scope']} facts {sorted(d['changes'])}"
    if e.kind == "state.set":
        return f"{d['scope']} facts {sorted(d['changes'])}"
    return e.kind


# -- probes -----------------------------------------------------------------------------------
def _labels(state: GameState, hexes: Iterable[Any]) -> list[str]:
    out = []
    for h in hexes:
        if h is not None and h in state.map.hexes:
            lab = state.map.label(h)
            if lab not in out:
                out.append(lab)
    return out


def probe_orders(a: Any, b: Any, side: str, rng: Any, n: int = 24) -> list[str]:
    """Orders of *side* to ask both games about: every example its legal orders offer in *a*,
    and *n* random orders of the verbs it may use, whose units are its own, the enemy units it
    sees, the true ids of units it does not see (in either game) and a made-up id, and whose hexes
    are where hidden units stand in either game, their neighbours and its own units' hexes."""
    legal = a.legal_orders(side)
    out: list[str] = []
    for spec in legal.specs:
        out += [str(o) for o in spec.examples[:6]]
    view = a.view(side)
    own = [u.id for u in view.units.values() if u.side == side]
    seen = [u.id for u in view.units.values() if u.side != side]
    hidden: list[str] = []
    spots: list[Any] = []
    for g in (a, b):
        for u, _ in _hidden_units(g.state, side, g.ruleset):
            if u.id not in hidden:
                hidden.append(u.id)
            if u.hex is not None:
                spots.append(u.hex)
                spots += list(u.hex.neighbours())
    spots += [u.hex for u in view.units.values() if u.hex is not None]
    hexes = _labels(a.state, spots) or _labels(a.state, list(a.state.map.hexes)[:5])
    units = own + seen + hidden + [MADE_UP]
    verbs = [s.verb for s in legal.specs if s.verb != "done"]
    types = a.ruleset.order_types
    for _ in range(n if verbs else 0):
        verb = verbs[int(rng.integers(len(verbs)))]
        spec = legal[verb]
        values: dict[str, Any] = {}
        for p in types[verb].params:
            cands = list(spec.candidates.get(p.name, ()) or p.choices)
            if p.kind in ("unit", "enemy", "target"):  # any unit, hidden and made-up ones too
                pool = units
            elif p.kind == "hex":
                pool = hexes
            else:
                pool = cands
            if not pool:
                if p.optional:
                    continue
                pool = ["x"]
            if p.optional and rng.random() < 0.3:
                continue
            pick = [str(pool[int(rng.integers(len(pool)))]) for _ in range(1 + int(p.repeat))]
            values[p.name] = pick if p.repeat else pick[0]
        try:
            out.append(str(types[verb].make(side, **values)))
        except OwsnbError:
            continue
    return list(dict.fromkeys(out))


# -- comparing ----------------------------------------------------------------------------------
def _diff(x: str, y: str) -> str:
    if len(x) > 2000 or len(y) > 2000:
        xs, ys = x.replace(",", ",\n").splitlines(), y.replace(",", ",\n").splitlines()
    else:
        xs, ys = [x], [y]
    lines = list(difflib.unified_diff(xs, ys, "game", "twin", n=2, lineterm=""))
    return "\n".join(lines[:40])


def compare(
    a: Observer, b: Observer, orders: Sequence[str], *, submits: int = 3, where: str = ""
) -> int:
    """Ask *a* and *b* everything (view, legal orders, check/preview of each order, submit of a
    few); raise :class:`InterferenceError` at the first difference. Returns the number of
    observations compared."""
    asked: list[tuple[str, str, str]] = [("view", "view", ""), ("legal orders", "legal", "")]
    asked += [(f"{q} {o!r}", q, o) for o in orders for q in ("check", "preview")]
    asked += [(f"submit {o!r}", "submit", o) for o in orders[:submits]]
    for what, question, order in asked:
        if order:
            x, y = getattr(a, question)(order), getattr(b, question)(order)
        else:
            x, y = getattr(a, question)(), getattr(b, question)()
        if x != y:
            raise InterferenceError(
                f"{where}: {a.side} can tell the twins apart by {what}:\n{_diff(x, y)}"
            )
    return len(asked)


@dataclass
class TwinReport:
    """What :func:`noninterference` compared."""

    pairs: int = 0
    observations: int = 0
    followed: int = 0
    resolved_hidden: int = 0
    skipped: int = 0
    changes: dict[str, int] = field(default_factory=dict)

    def __iadd__(self, other: TwinReport) -> TwinReport:
        self.pairs += other.pairs
        self.observations += other.observations
        self.followed += other.followed
        self.resolved_hidden += other.resolved_hidden
        self.skipped += other.skipped
        for k, v in other.changes.items():
            self.changes[k] = self.changes.get(k, 0) + v
        return self

    def __repr__(self) -> str:
        return (
            f"<TwinReport {self.pairs} twin pairs, {self.observations} observations compared "
            f"({self.followed} after following the course), {self.resolved_hidden} orders "
            f"resolved on a hidden fact>"
        )


def _units(game: Any, side: str) -> str:
    """The units *side* sees (as the rule set's view policy shows them)."""
    return _text(game.view(side).units)


def _submit(game: Any, order: str) -> str:
    return _answer(lambda: game.submit(order))


def _seen(events: Sequence[Event], side: str) -> list[tuple[Any, ...]]:
    """What *side* sees of *events*, without their numbers."""
    return [
        (e.kind, _text(e.data), e.rule, None if e.visible_to is None else sorted(e.visible_to))
        for e in events
        if e.visible(side) and e.kind != "rng"
    ]


def noninterference(
    game: Any,
    *,
    orders: int = 40,
    every: int = 4,
    follow: int = 3,
    probes: int = 24,
    seed: int = 0,
    sides: Iterable[str] | None = None,
    observer: Callable[[Any, str], Observer] = LocalObserver,
) -> TwinReport:
    """Play a seeded random course of *orders* on *game* (mutating it) and, every *every*
    orders, for each side, compare the game with a twin that differs only in what that side
    cannot know (:func:`twin`): now, and after each of the next *follow* orders of the course as
    long as that side saw the same of them in both.

    Raises:
        InterferenceError: a side could tell a pair apart (which observation, how, and what
            the twin changed).
    """
    name = f"{game.ruleset.name}:{game.state.scenario.get('id', '')}"
    start = game.seq
    course = random_playout(game, max_orders=orders, seed=seed, check_views=False)
    marks = [start, *course.marks]
    rng = np.random.default_rng(seed + 7919)
    report = TwinReport()
    report.resolved_hidden = sum(
        1 for e in game.events[start:] if e.kind == "note" and e.data.get("hidden_fact")
    )
    who = list(sides) if sides is not None else list(game.state.sides)
    for t in range(0, len(course.orders), max(1, every)):
        for side in who:
            a = game.fork(marks[t])
            b, what = twin(a, side, rng)
            if b is None:
                report.skipped += 1
                continue
            for w in what:
                k = w.split(" ")[0] if not w.startswith("dice") else "dice"
                report.changes[k] = report.changes.get(k, 0) + 1
            where = f"{name} after {t} orders (event {marks[t]}), twin: {'; '.join(what)}"
            probe = probe_orders(a, b, side, rng, probes)
            report.observations += compare(observer(a, side), observer(b, side), probe, where=where)
            report.pairs += 1
            for i in range(t, min(t + follow, len(course.orders))):
                order = course.orders[i]
                na, nb = a.seq, b.seq
                ra, rb = _submit(a, order), _submit(b, order)
                if ra.startswith("refused") or rb.startswith("refused"):
                    if Order.parse(order).side == side and ra.split(":")[0] != rb.split(":")[0]:
                        raise InterferenceError(
                            f"{where}: {side}'s own order {order!r} got {ra[:200]!r} in the game "
                            f"and {rb[:200]!r} in the twin"
                        )
                    break
                if _seen(a.events[na:], side) != _seen(b.events[nb:], side) or _units(
                    a, side
                ) != _units(b, side):
                    break  # the side learnt something that tells them apart: the pair ends
                probe = probe_orders(a, b, side, rng, max(4, probes // 3))
                n = compare(
                    observer(a, side),
                    observer(b, side),
                    probe,
                    submits=1,
                    where=f"{where}, then {order!r}",
                )
                report.observations += n
                report.followed += n
    return report
