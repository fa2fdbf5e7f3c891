"""Views: the truth cut down to what one side may know.

:func:`side_view` returns a :class:`SideView` — a different type from
:class:`~owsnb.kernel.state.GameState` with the same read API — holding own units in full, enemy
units only as the rule set's view policy allows (detected, or as "unknown" markers), other sides'
private facts removed, events filtered by ``visible_to``, no secret facts and no dice state.
Widgets accept only views.

A side numbers only what it sees: in its view the events are numbered ``1, 2, ...`` in the order
it saw them (``seq``) and grouped by the submissions it saw (``batch``), and ``view.seq`` counts
them, so a gap or a jump never counts an event it may not see (:func:`renumber`). The umpire's
view keeps the game's own numbers. No view carries the dice's seed or state, nor the authority's
salt (:data:`AUTHORITY_ONLY`), nor the scenario's path on the authority's disk
(:func:`view_scenario`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from owsnb.kernel.data import EMPTY, FrozenDict
from owsnb.kernel.events import Event
from owsnb.kernel.state import (
    UMPIRE,
    Clock,
    GameState,
    MapState,
    StateLike,
    StateReader,
    Unit,
    check_side,
)

__all__ = [
    "SideView",
    "side_view",
    "renumber",
    "checkpoints",
    "seen_positions",
    "view_scenario",
    "alias_id",
    "masked",
    "unalias",
    "AUTHORITY_ONLY",
]

AUTHORITY_ONLY = ("salt", "seed")
"""Keys of ``GameState.secret`` that stay with the authority: not even the umpire's view (which an
observer may watch) carries them — the salt names face-down units, the seed predicts the dice."""


@dataclass(frozen=True)
class SideView(StateReader):
    """What one side (or the umpire) may know at one point of the game.

    Read-only, with the same read API as ``GameState`` (:class:`~owsnb.kernel.state.StateReader`:
    ``unit``, ``units_at``, ``units_of``, ``option``, ``table``, ``side_state``...), so previews
    and reach computations work on either.
    """

    side: str
    ruleset: str
    map: MapState
    sides: FrozenDict
    units: FrozenDict
    clock: Clock
    options: FrozenDict = EMPTY
    scenario: FrozenDict = EMPTY
    public: FrozenDict = EMPTY
    tables: FrozenDict = EMPTY
    events: tuple[Event, ...] = ()
    seq: int = 0  # events this side has seen (the umpire: the game's event count)
    over: bool = False  # the game has ended (public: everyone is told)
    secret: FrozenDict = EMPTY  # only the umpire's view carries it (minus AUTHORITY_ONLY)

    @property
    def viewer(self) -> str:
        return self.side

    @property
    def is_umpire(self) -> bool:
        return self.side == UMPIRE

    @property
    def own_units(self) -> list[Unit]:
        return self.units_of(self.side)

    @property
    def enemy_units(self) -> list[Unit]:
        return [u for u in self.units.values() if u.side != self.side]

    def unused_id(self, stem: str) -> str:
        """*stem*, or *stem* with a number added, naming no unit of this view.

        >>> from owsnb.kernel.state import MapState
        >>> v = SideView("blue", "demo", MapState(FrozenDict()), FrozenDict(blue=None),
        ...              FrozenDict({"what-if": Unit("what-if", "blue")}), Clock())
        >>> v.unused_id("what-if"), v.unused_id("probe")
        ('what-if-2', 'probe')
        """
        uid, n = stem, 1
        while uid in self.units:
            n += 1
            uid = f"{stem}-{n}"
        return uid

    def with_unit(self, unit: Unit) -> SideView:
        """A what-if copy of this view holding one more unit of the viewer's own side (the
        umpire's view: of any side), for questions such as "how far could a unit of this type
        reach from here?": the rule set's read-only hooks (``reach``, ``ranges``, ``transit``,
        previews) run on it unchanged. The unit is never in the game: nothing is stored,
        submitted or shown to another side, and the game is the same afterwards.

        Raises:
            ValueError: the unit is another side's, or its id names a unit of this view (take
                one from :meth:`unused_id`).
            KeyError: no such side.

        >>> from owsnb.kernel.state import MapState
        >>> from owsnb.kernel.hexgrid import Hex
        >>> v = SideView("blue", "demo", MapState(FrozenDict()), FrozenDict(blue=None, red=None),
        ...              FrozenDict(), Clock())
        >>> w = v.with_unit(Unit("what-if", "blue", hex=Hex(0, 0)))
        >>> list(w.units), list(v.units)
        (['what-if'], [])
        >>> v.with_unit(Unit("spy", "red"))
        Traceback (most recent call last):
        ...
        ValueError: a what-if unit of blue's view must be blue's, not red's
        """
        if unit.side not in self.sides:
            raise KeyError(f"no side {unit.side!r}; sides are {list(self.sides)}")
        if not self.is_umpire and unit.side != self.side:
            raise ValueError(
                f"a what-if unit of {self.side}'s view must be {self.side}'s, not {unit.side}'s"
            )
        if unit.id in self.units:
            raise ValueError(
                f"unit id {unit.id!r} is taken in this view; try {self.unused_id(unit.id)!r}"
            )
        return replace(self, units=FrozenDict({**self.units, unit.id: unit}))

    def __repr__(self) -> str:
        return (
            f"<SideView {self.side} seq={self.seq}: {len(self.own_units)} own units, "
            f"{len(self.enemy_units)} enemy seen; {self.clock}>"
        )

    def _repr_html_(self) -> str:
        from owsnb.display.html import view_html

        return view_html(self)


def side_view(
    state: GameState,
    side: str,
    ruleset: Any,
    events: Iterable[Event] = (),
) -> SideView:
    """Cut *state* down to what *side* may know (``"umpire"``: everything but the dice state).

    Args:
        state: the truth.
        side: a side name or ``"umpire"``.
        ruleset: the rule set whose view policy applies (``view_unit``, ``view_public``).
        events: the history to filter by ``visible_to``; the view's events and ``seq`` are
            numbered as *side* saw them (:func:`renumber`; the umpire: the game's numbers).

    >>> from owsnb.kernel.events import note
    >>> from owsnb.kernel.state import SideState
    >>> s = GameState("demo", MapState(FrozenDict()),
    ...               FrozenDict(blue=SideState("blue"), red=SideState("red")), seq=3)
    >>> history = [note("a").at(1, 1), note("b", visible_to="red").at(2, 2), note("c").at(3, 3)]
    >>> v = side_view(s, "blue", _Open(), history)
    >>> v.seq, [(e.seq, e.batch, e.data["text"]) for e in v.events]
    (2, [(1, 1, 'a'), (2, 2, 'c')])
    >>> side_view(s, "umpire", _Open(), history).seq
    3
    """
    check_side(state, side)
    if side == UMPIRE:
        units = state.units
        sides = state.sides
    else:
        shown = {}
        for u in state.units.values():
            v = ruleset.view_unit(state, u, side)
            if v is not None:
                shown[v.id] = v
        units = FrozenDict(shown)
        sides = FrozenDict(
            {
                name: s if name == side else replace(s, private=EMPTY)
                for name, s in state.sides.items()
            }
        )
    if side != UMPIRE:
        visible = renumber(events, side)
        seq = len(visible)
    else:
        visible = tuple(_strip_event(e) for e in events)
        seq = state.seq
    return SideView(
        side=side,
        ruleset=state.ruleset,
        map=state.map,
        sides=sides,
        units=units,
        clock=state.clock,
        options=state.options,
        scenario=view_scenario(state.scenario),
        public=state.public if side == UMPIRE else ruleset.view_public(state, side),
        tables=state.tables,
        events=visible,
        seq=seq,
        over=bool(ruleset.is_over(state)) if hasattr(ruleset, "is_over") else False,
        secret=(
            FrozenDict({k: v for k, v in state.secret.items() if k not in AUTHORITY_ONLY})
            if side == UMPIRE
            else EMPTY
        ),
    )


class _Open:
    """A view policy that shows everything (for the examples)."""

    def view_unit(self, state: Any, unit: Unit, side: str) -> Unit:
        return unit

    def view_public(self, state: Any, side: str) -> FrozenDict:
        return state.public


def checkpoints(events: Iterable[Event], end: int, turn0: int, every: str = "step") -> list[int]:
    """Event counts at which to snapshot a history of *events* (numbered as they were seen, up
    to *end*; *turn0* the turn they start in): after every ``"event"``, at the end of every
    ``"step"`` (a clock change) or of every ``"turn"``; always 0 and *end*.

    >>> evs = [Event("x", seq=3), Event("x", seq=7)]
    >>> checkpoints(evs, 9, 1, "event")
    [0, 3, 7, 9]
    """
    if every not in ("event", "step", "turn"):
        raise ValueError(f"every must be 'event', 'step' or 'turn', not {every!r}")
    points, turn = [0], turn0
    for e in events:
        if e.seq > end:
            break
        if every == "event":
            points.append(e.seq)
        elif e.kind == "clock.set":
            new = e.data["clock"].turn
            if every == "step" or new != turn:
                points.append(e.seq - 1)
            turn = new
    points.append(end)
    return sorted(set(points))


def renumber(events: Iterable[Event], side: str) -> tuple[Event, ...]:
    """The events *side* may see, numbered as it saw them: ``seq`` 1, 2, ... and ``batch`` 1, 2,
    ... over the submissions it saw something of (the umpire: the game's own numbers). The dice
    state never comes along.

    >>> from owsnb.kernel.events import note
    >>> h = [note("x", visible_to="red").at(1, 1), note("a").at(2, 2), note("b").at(3, 2)]
    >>> [(e.seq, e.batch) for e in renumber(h, "blue")], [e.seq for e in renumber(h, "umpire")]
    ([(1, 1), (2, 1)], [1, 2, 3])
    """
    if side == UMPIRE:
        return tuple(_strip_event(e) for e in events)
    out: list[Event] = []
    batch, last = 0, None
    for e in events:
        if e.visible_to is not None and side not in e.visible_to:
            continue
        if e.batch != last:
            batch, last = batch + 1, e.batch
        data = EMPTY if e.kind == "rng" else e.data
        out.append(Event(e.kind, data, e.visible_to, e.rule, len(out) + 1, batch))
    return tuple(out)


def seen_positions(events: Sequence[Event], side: str) -> list[int]:
    """For each event *side* may see, in order, the game's event count just after it: the
    *n*-th event *side* saw (its ``seq`` ``n``) is the game's event ``seen_positions(...)[n-1]``.

    >>> from owsnb.kernel.events import note
    >>> h = [note("x", visible_to="red").at(1, 1), note("a").at(2, 2), note("b").at(3, 2)]
    >>> seen_positions(h, "blue"), seen_positions(h, "red")
    ([2, 3], [1, 2, 3])
    """
    return [i + 1 for i, e in enumerate(events) if e.visible(side)]


def view_scenario(scenario: FrozenDict) -> FrozenDict:
    """The scenario facts a view carries: all but the file's place on the authority's disk, of
    which only the file's name is kept (``source``: ``"tutorial.yaml"``), to find a bundled
    scenario's files again.

    >>> view_scenario(FrozenDict(id="t", file="/srv/owsnb/scenarios/tutorial.yaml"))
    FrozenDict({'id': 't', 'source': 'tutorial.yaml'})
    """
    if "file" not in scenario:
        return scenario
    out = {k: v for k, v in scenario.items() if k != "file"}
    name = str(scenario["file"]).replace("\\", "/").rsplit("/", 1)[-1]
    if name:
        out["source"] = name
    return FrozenDict(out)


def _strip_event(e: Event) -> Event:
    """Views never carry the dice state (not even the umpire's)."""
    if e.kind == "rng":
        return replace(e, data=EMPTY)
    return e


def alias_id(state: StateLike, unit_id: str, side: str) -> str:
    """A stable opaque name for an enemy unit that *side* sees face down ("unknown").

    It is derived from the game's secret salt, so it reveals nothing about the true id, stays the
    same from one view to the next, and differs between sides.
    """
    import hashlib

    salt = str(state.secret.get("salt", ""))
    digest = hashlib.sha256(f"{salt}|{side}|{unit_id}".encode()).hexdigest()[:8]
    return f"unknown-{digest}"


def masked(
    state: GameState,
    unit: Unit,
    side: str,
    *,
    keep: Iterable[str] = (),
    kind: str = "unknown",
    data: dict[str, Any] | None = None,
) -> Unit:
    """A face-down copy of *unit* for *side*: alias id, no name, no payload except *data*.

    Args:
        keep: Unit fields to keep as they are (e.g. ``("kind",)`` for Combat Operations, where the
            counter's type shows; ``hex`` is always kept, ``steps`` only if listed).
        kind: the kind shown when ``"kind"`` is not kept.
        data: payload facts the face-down side shows (e.g. ``{"move": 6}``).
    """
    keep = set(keep)
    return Unit(
        id=alias_id(state, unit.id, side),
        side=unit.side,
        kind=unit.kind if "kind" in keep else kind,
        name="",
        hex=unit.hex,
        box=unit.box if "box" in keep else None,
        steps=unit.steps if "steps" in keep else 1,
        max_steps=unit.max_steps if "steps" in keep else 1,
        markers=unit.markers if "markers" in keep else frozenset(),
        data=FrozenDict(data or {}),
        seen_by=frozenset(),
    )


def unalias(state: StateLike, side: str, ref: str) -> str:
    """The true unit id behind *ref* as *side* names it (an alias from :func:`masked` or an id).

    Returns *ref* unchanged if it is not an alias of any unit.
    """
    if not ref.startswith("unknown-"):
        return ref
    for u in state.units.values():
        if u.side != side and alias_id(state, u.id, side) == ref:
            return u.id
    return ref
