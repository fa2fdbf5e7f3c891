"""Views: the truth cut down to what one side may know.

:func:`side_view` returns a :class:`SideView` — a different type from
:class:`~owsnb.kernel.state.GameState` with the same read API — holding own units in full, enemy
units only as the rule set's view policy allows (detected, or as "unknown" markers), other sides'
private facts removed, events filtered by ``visible_to``, no secret facts and no dice state.
Widgets accept only views.
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

__all__ = ["SideView", "side_view", "alias_id", "masked", "unalias"]


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
    seq: int = 0
    secret: FrozenDict = EMPTY  # only the umpire's view carries it

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


def side_view(state: GameState, side: str, ruleset: Any, events: Iterable[Event] = ()) -> SideView:
    """Cut *state* down to what *side* may know (``"umpire"``: everything but the dice state).

    Args:
        state: the truth.
        side: a side name or ``"umpire"``.
        ruleset: the rule set whose view policy applies (``view_unit``, ``view_public``).
        events: the history to filter by ``visible_to``.
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
    visible: Sequence[Event] = tuple(_strip_event(e) for e in events if e.visible(side))
    return SideView(
        side=side,
        ruleset=state.ruleset,
        map=state.map,
        sides=sides,
        units=units,
        clock=state.clock,
        options=state.options,
        scenario=state.scenario,
        public=state.public if side == UMPIRE else ruleset.view_public(state, side),
        tables=state.tables,
        events=tuple(visible),
        seq=state.seq,
        secret=state.secret if side == UMPIRE else EMPTY,
    )


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
