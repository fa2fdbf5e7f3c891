"""Golden playthrough transcripts: a plain-text record of a game, to diff against a stored copy.

A transcript is a header (``#`` lines: rule set, scenario, seeds, options), then one entry per
order (or undo) given through :class:`Transcript`:

* ``== N. <order>`` — the order's text; then ``accepted: K events, state S`` or
  ``refused: code=<code> rule=<rule> | <reason>`` (a refused order changes nothing);
* one line per committed event: ``#seq kind [rule] who {data}`` — *who* may see it (``all``,
  ``umpire`` for nobody else, or the sides), the data as canonical JSON (:func:`canonical`:
  sorted keys, hexes as ``"#0304"``, dataclasses by their non-default fields, never a ``repr``);
* ``obs <viewer>: <observation>`` — :meth:`RuleSet.observation_string` of every side and the
  umpire, whole at the start and at each new turn; afterwards only when it changed, as
  ``obs <viewer> ~ <fields>``: each `` | ``-field that did not change is ``=``, a long list
  that changed little is ``Δ[-old item, +new item]``;
* ``legal <side>: <verbs>`` — what a side may order when its part of a step begins (a new step,
  or its turn in a sequential one);
* ``game over: <outcome>`` once it ends, and a last ``== end`` line.

Rule-set authors keep such files next to their tests: a change of play shows as a readable diff.

>>> from owsnb.rules.skirmish import example
>>> game = example()  # the kernel's example: skirmish, seed 11, in memory
>>> t = Transcript(game, "skirmish, three entries")
>>> _ = t.submit("blue: move B-INF-1 0805")
>>> _ = t.submit("blue: move B-INF-1 0303")
>>> _ = t.undo()
>>> print(t.text())
# owsnb transcript 1: skirmish, three entries
# ruleset: skirmish; scenario: skirmish-test
# options: {"sudden_death":false}
== start
obs blue: blue | Turn 1 · Phase 1 Movement · Blue acts | B-INF-1@0203:2, B-ARM-1@0204:3, B-REC-1@0302:1
obs red: red | Turn 1 · Phase 1 Movement · Blue acts | R-INF-1@0803:2, R-ARM-1@0805:3, R-REC-1@0706:1
obs umpire: umpire | Turn 1 · Phase 1 Movement · Blue acts | B-INF-1@0203:2, B-ARM-1@0204:3, B-REC-1@0302:1,
R-INF-1@0803:2, R-ARM-1@0805:3, R-REC-1@0706:1
legal blue: done, move
== 1. blue: move B-INF-1 0805
refused: code=out-of-reach rule=S2 | 0805 is out of B-INF-1's reach (1 hexes)
== 2. blue: move B-INF-1 0303
accepted: 2 events, state 1
  #1 unit.move [S2] blue {"box":null,"id":"B-INF-1","path":["#0203","#0303"],"to":"#0303"}
  #2 unit.set [S2] blue {"changes":{"markers":{"$s":["moved"]}},"id":"B-INF-1"}
obs blue ~ = | = | B-INF-1@0303:2, B-ARM-1@0204:3, B-REC-1@0302:1
obs umpire ~ = | = | B-INF-1@0303:2, B-ARM-1@0204:3, B-REC-1@0302:1,
R-INF-1@0803:2, R-ARM-1@0805:3, R-REC-1@0706:1
== 3. undo
undone: 2 events (#1-#2), state 2
obs blue ~ = | = | B-INF-1@0203:2, B-ARM-1@0204:3, B-REC-1@0302:1
obs umpire ~ = | = | B-INF-1@0203:2, B-ARM-1@0204:3, B-REC-1@0302:1,
R-INF-1@0803:2, R-ARM-1@0805:3, R-REC-1@0706:1
== end: 3 entries, 0 events, turn 1
<BLANKLINE>
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from difflib import SequenceMatcher
from fractions import Fraction
from typing import Any

import numpy as np

from owsnb.kernel.codec import data_fields
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order
from owsnb.kernel.state import UMPIRE, StateLike
from owsnb.testing.playout import random_order

__all__ = ["Transcript", "canonical", "event_line", "fixed_salt", "random_transcript"]

FORMAT = "owsnb transcript 1"
"""Names the layout below; bump it if the layout changes (every stored transcript then changes)."""


def _hex_text(h: Hex, label: Callable[[Hex], str | None] | None) -> str:
    text = label(h) if label is not None else None
    return f"#{text}" if text else f"#{h.q},{h.r}"


def map_label(state: StateLike) -> Callable[[Hex], str | None]:
    """*state*'s printed hex labels (``None`` for a hex that has none, never a ``repr``)."""
    return state.map.printed_label


def _plain(obj: Any, label: Callable[[Hex], str | None] | None) -> Any:
    """JSON-able form of kernel data, after the codec's tags (:mod:`owsnb.kernel.codec`) but for
    reading: hexes by printed label, dataclasses as ``{"$t": name, field: value...}`` without
    the fields at their default, sets sorted."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, Hex):
        return _hex_text(obj, label)
    if isinstance(obj, Order):
        return {"$o": str(obj)}
    if isinstance(obj, Fraction):
        return {"$f": str(obj)}
    if isinstance(obj, Distribution):
        return {"$d": [[_plain(k, label), str(p)] for k, p in obj.rows()], "label": obj.label}
    if isinstance(obj, Mapping):
        pairs = [(_plain(k, label), _plain(v, label)) for k, v in obj.items()]
        if all(isinstance(k, str) and not k.startswith("$") for k, _ in pairs) and len(
            {k for k, _ in pairs}
        ) == len(pairs):
            return dict(pairs)
        return {"$m": sorted(([k, v] for k, v in pairs), key=_dump)}
    if isinstance(obj, (set, frozenset)):
        return {"$s": sorted((_plain(v, label) for v in obj), key=_dump)}
    if isinstance(obj, (list, tuple)):
        return [_plain(v, label) for v in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {"$t": type(obj).__name__}
        for f in data_fields(obj):
            v = getattr(obj, f.name)
            if f.default is not dataclasses.MISSING and v == f.default:
                continue
            if f.default_factory is not dataclasses.MISSING and v == f.default_factory():
                continue
            out[f.name] = _plain(v, label)
        return out
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalar
        return _plain(obj.item(), label)
    raise TypeError(f"cannot render {type(obj).__name__} in a transcript")


def _dump(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def canonical(obj: Any, label: Callable[[Hex], str | None] | None = None) -> str:
    """One-line canonical JSON of kernel data, independent of every ``repr``: sorted keys, the
    codec's tags (``$s`` set, ``$f`` fraction, ``$o`` order, ``$m`` mapping with other keys),
    hexes as ``"#0304"`` (their printed label through *label*, else ``"#q,r"``), dataclasses as
    ``{"$t": "Clock", <fields not at their default>}`` (so a new field with a default changes no
    transcript).

    >>> from owsnb.kernel.state import Clock
    >>> canonical({"at": Hex(1, 2), "clock": Clock(turn=2, active=("red",))})
    '{"at":"#1,2","clock":{"$t":"Clock","active":["red"],"turn":2}}'
    """
    return _dump(_plain(obj, label))


def _who(e: Event) -> str:
    if e.visible_to is None:
        return "all"
    return ",".join(sorted(e.visible_to)) or UMPIRE


def event_line(e: Event, label: Callable[[Hex], str | None] | None = None) -> str:
    """``#seq kind [rule] who {data}`` — *who* is ``all``, ``umpire`` (nobody else) or the
    sides that may see it. The dice state an ``rng`` event stores is shown as a short digest."""
    if e.kind == "rng":
        digest = hashlib.sha256(canonical(e.data).encode()).hexdigest()[:16]
        data = f"state sha256:{digest}"
    else:
        data = canonical(e.data, label)
    return f"#{e.seq} {e.kind} [{e.rule}] {_who(e)} {data}"


def _field_delta(new: str, old: str) -> str:
    """One `` | ``-field of an observation against the same field before: ``=`` if equal; for a
    long ``, ``-separated list (units), ``Δ[-old item, +new item, ...]`` when that is much
    shorter; else the field whole."""
    if new == old:
        return "="
    a, b = old.split(", "), new.split(", ")
    if len(b) < 8:
        return new
    ops: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            ops += ["-" + x for x in a[i1:i2]] + ["+" + x for x in b[j1:j2]]
    delta = "Δ[" + ", ".join(ops) + "]"
    return delta if 2 * len(delta) < len(new) else new


def _obs_delta(obs: str, before: str) -> str:
    new, old = obs.split(" | "), before.split(" | ")
    if len(new) != len(old):
        return obs
    return " | ".join(_field_delta(a, b) for a, b in zip(new, old, strict=True))


class Transcript:
    """Records what happens to *game* through it: call :meth:`submit` (and :meth:`undo`) instead
    of the game's own, then :meth:`text`.

    Args:
        game: the :class:`~owsnb.kernel.game.Game` (mutated by the orders).
        title: the first line.
        header: extra ``key: value`` lines for the header (scenario, seed, policy...).
    """

    def __init__(self, game: Any, title: str, header: Iterable[tuple[str, Any]] = ()):
        self.game = game
        self.count = 0
        self.lines: list[str] = [f"# {FORMAT}: {title}"]
        scn = game.state.scenario
        self.lines.append(f"# ruleset: {game.ruleset.name}; scenario: {scn.get('id', '')}")
        for k, v in header:
            self.lines.append(f"# {k}: {v}")
        opts = canonical(dict(game.state.options)) if game.state.options else "{}"
        self.lines.append(f"# options: {opts}")
        self.lines.append("== start")
        self._obs: dict[str, str] = {}
        self._step: tuple | None = None
        self._listed: set[str] = set()
        self._turn: int | None = None
        self._record_state()

    # -- recording ------------------------------------------------------------------------------
    def _label(self, h: Hex) -> str | None:
        return map_label(self.game.state)(h)

    def _record_state(self) -> None:
        g = self.game
        c = g.state.clock
        whole = c.turn != self._turn  # each side's whole observation at each turn's start
        self._turn = c.turn
        for who in [*g.state.sides, UMPIRE]:
            obs = g.ruleset.observation_string(g.view(who))
            before = self._obs.get(who)
            if whole or before is None:
                self.lines.append(f"obs {who}: {obs}")
            elif before != obs:
                self.lines.append(f"obs {who} ~ {_obs_delta(obs, before)}")
            self._obs[who] = obs
        step = (c.turn, c.phase, c.step)
        if step != self._step:
            self._step, self._listed = step, set()
        for who in c.acting:  # what each side may order when its part of a step begins
            if who not in self._listed:
                self._listed.add(who)
                verbs = ", ".join(g.legal_orders(who).verbs) or "nothing"
                self.lines.append(f"legal {who}: {verbs}")
        if g.is_over():
            self.lines.append(f"game over: {canonical(g.outcome(), self._label)}")

    def submit(self, order: Order | str) -> Any:
        """Submit *order* and record its outcome; returns the submission, or ``None`` if the
        order was refused (the refusal is recorded, not raised)."""
        self.count += 1
        self.lines.append(f"== {self.count}. {order}")
        try:
            sub = self.game.submit(order)
        except IllegalOrderError as exc:
            msg = " ".join(str(exc.reason).split())
            self.lines.append(f"refused: code={exc.code} rule={exc.rule or '-'} | {msg}")
            return None
        n = len(sub.events)
        self.lines.append(f"accepted: {n} event{'s' * (n != 1)}, state {sub.state_id}")
        self.lines.extend("  " + event_line(e, self._label) for e in sub.events)
        self._record_state()
        return sub

    def undo(self) -> tuple[Event, ...]:
        """Take back the last submission and record which events went."""
        self.count += 1
        removed = self.game.undo()
        seqs = f"#{removed[0].seq}-#{removed[-1].seq}" if removed else "nothing"
        self.lines.append(f"== {self.count}. undo")
        self.lines.append(f"undone: {len(removed)} events ({seqs}), state {self.game.state_id}")
        self._record_state()
        return removed

    def text(self) -> str:
        """The transcript so far (ends with a newline)."""
        c = self.game.state.clock
        tail = [f"== end: {self.count} entries, {self.game.seq} events, turn {c.turn}"]
        return "\n".join([*self.lines, *tail]) + "\n"


def fixed_salt(game: Any, salt: str = "transcript") -> Any:
    """A fresh copy of an unplayed *game* whose secret salt is *salt*.

    A loaded game draws a random secret salt (``state.secret["salt"]``) from which the
    ``unknown-…`` names of face-down enemy counters are derived
    (:func:`~owsnb.kernel.view.alias_id`): it must not follow from the dice seed, which a
    scenario file may publish, or players could unmask them. A transcript that shows such names
    must fix it to be reproducible.

    >>> import owsnb
    >>> from owsnb.kernel.view import alias_id
    >>> a, b = (fixed_salt(owsnb.load("combatops-red-attack", seed=1, save=False)) for _ in "ab")
    >>> alias_id(a.state, "B-D1", "red") == alias_id(b.state, "B-D1", "red")
    True
    """
    from owsnb.kernel.game import Game

    if game.seq:
        raise ValueError("fixed_salt needs an unplayed game (the salt names what was seen)")
    initial = replace(game.initial, secret=game.initial.secret.set(salt=salt))
    return Game(game.ruleset, initial, meta={**game.meta, "store": None})


def random_transcript(
    game: Any,
    title: str,
    *,
    orders: int,
    seed: int = 0,
    pass_weight: float = 0.15,
    header: Iterable[tuple[str, Any]] = (),
) -> Transcript:
    """Record *orders* orders of the play-out policy of :func:`~owsnb.testing.random_playout`
    (:func:`~owsnb.testing.playout.random_order`, seeded with *seed*), or fewer if the game ends.
    Pass a game whose salt is fixed (:func:`fixed_salt`) for the same text every time.

    >>> from owsnb.rules.skirmish import example
    >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
    >>> t = random_transcript(game, "skirmish", orders=20, seed=1)
    >>> t.count, t.text().splitlines()[-1]
    (20, '== end: 20 entries, ... events, turn ...')
    """
    rng = np.random.default_rng(seed)
    policy = f"random legal orders (seed {seed}, pass weight {pass_weight}), at most {orders}"
    t = Transcript(game, title, [*header, ("policy", policy)])
    while t.count < orders and not game.is_over():
        t.submit(random_order(game, rng, pass_weight))
    return t
