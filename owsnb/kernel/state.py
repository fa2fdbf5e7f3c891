"""The truth of one game as immutable, typed, plain data.

A :class:`GameState` changes only by applying events (see :mod:`owsnb.kernel.reduce`); nothing
mutates it. Rule-set specific facts live in plain-data payloads (``Unit.data``,
``SideState.public``/``private``, ``GameState.public``/``secret``) whose shape the rule set
declares.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from owsnb.kernel.data import EMPTY, FrozenDict, clip, freeze
from owsnb.kernel.errors import InvalidHexError, UnknownSideError
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem

__all__ = [
    "Unit",
    "HexInfo",
    "MapState",
    "SideState",
    "Clock",
    "StateReader",
    "StateLike",
    "GameState",
    "UMPIRE",
    "edge_key",
    "check_side",
]

UMPIRE = "umpire"
"""The seat that sees the whole truth and may act in every step."""


def edge_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The canonical key of the hexside between two adjacent hexes (order does not matter)."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class Unit:
    """A counter on the map or in a box.

    Attributes:
        id: unique identifier (e.g. ``"DDG-114"``).
        side: owning side.
        kind: catalog type key (e.g. ``"ddg-51-flight-iia"``).
        name: display name.
        hex: position on the map, or ``None`` when off-map.
        box: off-map box (``"regeneration"``, ``"attrition"``, a card ...), or ``None``.
        steps: remaining steps; ``max_steps`` the full strength.
        markers: status markers (rule-set vocabulary, e.g. ``"tacsit1"``, ``"suppressed"``).
        data: the rule set's payload (attack dice, shields, signature, ...), plain frozen data.
        seen_by: sides that currently detect this unit; the view policy decides what they see.
        board: the map the unit stands on, set by the state that holds it (not data: it is not
            compared, stored or sent), so that the unit prints its hex as the map prints it.

    >>> from owsnb.kernel.offset import OffsetSystem
    >>> m = MapState(FrozenDict({h: HexInfo("clear") for h in OffsetSystem().rectangle(12, 12)}))
    >>> u = Unit("1-5 MAR", "blue", "infantry", hex=Hex(11, 4))
    >>> u
    <Unit 1-5 MAR (blue) infantry at Hex(11, 4) steps 1/1>
    >>> state = GameState("demo", m, FrozenDict(blue=None), FrozenDict({u.id: u}))
    >>> state.unit("1-5 MAR")
    <Unit 1-5 MAR (blue) infantry at 1210 steps 1/1>
    >>> state.unit("1-5 MAR") == u
    True
    """

    id: str
    side: str
    kind: str = ""
    name: str = ""
    hex: Hex | None = None
    box: str | None = None
    steps: int = 1
    max_steps: int = 1
    markers: frozenset[str] = frozenset()
    data: FrozenDict = EMPTY
    seen_by: frozenset[str] = frozenset()
    board: MapState | None = field(
        default=None, compare=False, repr=False, metadata={"derived": True}
    )

    @property
    def on_map(self) -> bool:
        """True if the unit is on a map hex."""
        return self.hex is not None

    @property
    def map_hex(self) -> Hex:
        """The hex of a unit that rule code knows to be on the map.

        Raises:
            InvalidHexError: the unit is off the map (in a box, or not placed).

        >>> Unit("B-1", "blue", hex=Hex(2, 3)).map_hex
        Hex(2, 3)
        >>> Unit("B-2", "blue", box="reserve").map_hex
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.InvalidHexError: unit B-2 is not on the map (box 'reserve')
        """
        if self.hex is None:
            where = f"box {self.box!r}" if self.box else "not placed"
            raise InvalidHexError(f"unit {self.id} is not on the map ({where})")
        return self.hex

    @property
    def alive(self) -> bool:
        """True while the unit has steps left."""
        return self.steps > 0

    def has(self, marker: str) -> bool:
        """True if the unit carries *marker*."""
        return marker in self.markers

    def get(self, key: str, default: Any = None) -> Any:
        """A payload value: ``unit.get("signature")``."""
        return self.data.get(key, default)

    def evolve(self, **changes: Any) -> Unit:
        """A copy with fields changed (``data`` is merged shallowly)."""
        if "data" in changes:
            changes["data"] = self.data.set(changes["data"])
        if "markers" in changes:
            changes["markers"] = frozenset(changes["markers"])
        if "seen_by" in changes:
            changes["seen_by"] = frozenset(changes["seen_by"])
        return replace(self, **changes)

    @property
    def where(self) -> str:
        """Where the unit is, as a player reads it: the hex's printed label (``"1210"``; its axial
        form until a state places the unit on its map), the box, or ``"off-map"``."""
        if self.hex is None:
            return self.box or "off-map"
        return self.board.label(self.hex) if self.board is not None else repr(self.hex)

    def on(self, board: MapState) -> Unit:
        """This unit as standing on *board* (see ``board``); itself if it already does."""
        return self if self.board is board else replace(self, board=board)

    def __repr__(self) -> str:
        return f"<Unit {self.id} ({self.side}) {self.kind} at {self.where} steps {self.steps}/{self.max_steps}>"

    def _repr_html_(self) -> str:
        from owsnb.display.html import unit_html

        return unit_html(self)


@dataclass(frozen=True, slots=True)
class HexInfo:
    """What the map says about one hex: terrain, fixed features and public, changing facts.

    Attributes:
        terrain: terrain key in the rule set's vocabulary (``"sea"``, ``"littoral"``, ``"urban"``...).
        label: printed label (``"0304"``).
        features: fixed features (ports, airfields, cities...) as plain data.
        facts: public facts that change in play (control, damage...).
    """

    terrain: str
    label: str = ""
    features: FrozenDict = EMPTY
    facts: FrozenDict = EMPTY


@dataclass(frozen=True)
class MapState:
    """The board: hexes, hexsides, printed labels and (optionally) the grid's place on Earth."""

    hexes: FrozenDict  # Hex -> HexInfo
    offset: OffsetSystem = field(default_factory=OffsetSystem)
    layout: GeoLayout | None = None
    edges: FrozenDict = EMPTY  # (Hex, Hex) -> FrozenDict of hexside features (rivers, roads, ...)
    meta: FrozenDict = EMPTY  # scale facts: {"scale": "tactical", "zone_km": 100, ...}

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def info(self, h: Hex) -> HexInfo:
        """The :class:`HexInfo` of *h*; raises :class:`InvalidHexError` if it is off the map."""
        try:
            return self.hexes[h]
        except KeyError:
            raise InvalidHexError(f"{self.label(h)} is not on this map") from None

    def terrain(self, h: Hex) -> str:
        """Terrain key of *h*."""
        return self.info(h).terrain

    def edge(self, a: Hex, b: Hex) -> FrozenDict:
        """Features of the hexside between *a* and *b* (empty if none)."""
        return self.edges.get(edge_key(a, b), EMPTY)

    def label(self, h: Hex) -> str:
        """Printed label of *h* (``"0304"``), or its axial repr when it has none."""
        text = self.printed_label(h)
        return repr(h) if text is None else text

    def printed_label(self, h: Hex) -> str | None:
        """Printed label of *h* (its own, else the grid's numbering), ``None`` when it has none."""
        info = self.hexes.get(h)
        if info is not None and info.label:
            return info.label
        try:
            return self.offset.to_label(h)
        except (InvalidHexError, ValueError):
            return None

    def hex(self, ref: Hex | str | tuple) -> Hex:
        """Resolve a hex reference — a :class:`Hex`, a printed label or ``(q, r)`` — on this map.

        Raises:
            InvalidHexError: malformed reference or a hex not on this map.
        """
        if isinstance(ref, Hex):
            h = ref
        elif isinstance(ref, str):
            h = self.offset.from_label(ref)
        elif isinstance(ref, tuple) and len(ref) == 2:
            h = Hex(*ref)
        else:
            raise InvalidHexError(f"{ref!r} is not a hex reference (use a label such as '0304')")
        if h not in self.hexes:
            raise InvalidHexError(f"hex {ref!r} is not on this map")
        return h

    def find(self, ref: Any) -> Hex | None:
        """The hex *ref* names on this map (as :meth:`hex`), or ``None`` if it names none: for
        weighing an order's text without refusing it.

        >>> from owsnb.kernel.state import HexInfo
        >>> m = MapState(FrozenDict({Hex(0, 0): HexInfo("clear")}))
        >>> m.find(m.label(Hex(0, 0))), m.find("9999"), m.find(None)
        (Hex(0, 0), None, None)
        """
        try:
            return self.hex(ref)
        except (KeyError, ValueError):
            return None

    def km_per_hex(self) -> float | None:
        """Hex size across flats in km, if the map is placed on Earth or has a scale."""
        if self.layout is not None:
            return self.layout.size_km
        v = self.meta.get("hex_km")
        return float(v) if v is not None else None

    def __repr__(self) -> str:
        """One line, whatever the size of the map: hexes, labels, terrain, hexsides, scale.

        >>> from owsnb.kernel.offset import OffsetSystem
        >>> hexes = OffsetSystem().rectangle(3, 2)
        >>> MapState(FrozenDict({h: HexInfo("clear" if h.q else "sea") for h in hexes}))
        <MapState 6 hexes 0101..0302: clear 4, sea 2>
        """
        labels = sorted(self.label(h) for h in self.hexes) if self.hexes else []
        span = f" {labels[0]}..{labels[-1]}" if labels else ""
        terrain = Counter(info.terrain for info in self.hexes.values()).most_common()
        kinds = ", ".join(f"{t} {n}" for t, n in terrain[:6])
        more = f", {len(terrain) - 6} more terrains" if len(terrain) > 6 else ""
        sides = f"; {len(self.edges)} hexsides" if self.edges else ""
        km = self.km_per_hex()
        scale = f"; {km:g} km hexes" if km else ""
        return f"<MapState {len(self.hexes)} hexes{span}: {clip(kinds + more, 120)}{sides}{scale}>"


@dataclass(frozen=True, slots=True)
class SideState:
    """One side: its identity, public facts (dashboards, score) and private ones (hand, secrets)."""

    name: str
    title: str = ""
    color: str = "#888888"
    public: FrozenDict = EMPTY
    private: FrozenDict = EMPTY


@dataclass(frozen=True, slots=True)
class Clock:
    """Where the game is in its sequence of play.

    ``phase``/``step`` are keys into the rule set's :class:`~owsnb.kernel.sequence.SequenceOfPlay`;
    the titles are copied in so that histories stay readable even if rule code changes.
    ``active`` lists who acts now; ``done`` who has finished a simultaneous step.
    """

    turn: int = 1
    phase: str = ""
    step: str = ""
    phase_title: str = ""
    step_title: str = ""
    active: tuple[str, ...] = ()
    done: frozenset[str] = frozenset()
    mode: str = "sequential"
    date: str = ""

    @property
    def acting(self) -> tuple[str, ...]:
        """Who may act right now: in a sequential step the first actor not yet done; in a
        simultaneous step every actor not yet done."""
        waiting = tuple(a for a in self.active if a not in self.done)
        if self.mode == "sequential":
            return waiting[:1]
        return waiting

    def __str__(self) -> str:
        parts = [f"Turn {self.turn}"]
        if self.phase:
            parts.append(f"Phase {self.phase} {self.phase_title}".rstrip())
        if self.step and self.step != self.phase:
            parts.append(f"step {self.step} {self.step_title}".rstrip())
        acting = self.acting
        if acting:
            who = ", ".join(a.title() for a in acting)
            verb = "act" if len(acting) > 1 else "acts"
            parts.append(
                f"{who} {verb}" + (" (simultaneous)" if self.mode == "simultaneous" else "")
            )
        return " · ".join(parts)

    def __repr__(self) -> str:
        """The readable line, not the fields.

        >>> Clock(2, "1", "1", "Movement", "Move", ("blue",))
        <Clock Turn 2 · Phase 1 Movement · Blue acts>
        """
        return f"<Clock {self}>"

    def _repr_html_(self) -> str:
        import html

        return f"<span class='owsnb-clock'><b>{html.escape(str(self))}</b></span>"


@runtime_checkable
class StateLike(Protocol):
    """A state or a view: what rule code may read, satisfied by both :class:`GameState` (the
    truth) and :class:`~owsnb.kernel.view.SideView` (one side's knowledge).

    Annotate with it what only reads — checks, previews, reach, candidates — so the same code
    runs on the truth and on a view; annotate with :class:`GameState` what needs the truth alone
    (the dice's state, ``evolve``).
    """

    @property
    def ruleset(self) -> str: ...
    @property
    def map(self) -> MapState: ...
    @property
    def sides(self) -> FrozenDict: ...
    @property
    def units(self) -> FrozenDict: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def options(self) -> FrozenDict: ...
    @property
    def scenario(self) -> FrozenDict: ...
    @property
    def public(self) -> FrozenDict: ...
    @property
    def secret(self) -> FrozenDict: ...
    @property
    def tables(self) -> FrozenDict: ...
    @property
    def seq(self) -> int: ...
    @property
    def viewer(self) -> str: ...
    def unit(self, unit_id: str) -> Unit: ...
    def units_at(self, h: Hex) -> list[Unit]: ...
    def units_of(self, side: str) -> list[Unit]: ...
    def option(self, name: str, default: Any = None) -> Any: ...
    def table(self, name: str) -> Any: ...
    def side_state(self, name: str) -> SideState: ...
    def enemies_of(self, side: str) -> list[str]: ...


class StateReader:
    """The read API shared by :class:`GameState` (the truth) and
    :class:`~owsnb.kernel.view.SideView` (one side's knowledge), so rule code that only reads —
    previews, reach, rings — runs on either."""

    units: FrozenDict
    sides: FrozenDict
    options: FrozenDict
    tables: FrozenDict
    map: MapState

    def __post_init__(self) -> None:
        """Place every unit on this state's map (``Unit.board``), for its labels. Units already
        there are kept as they are, so this costs one identity check per unit."""
        board = self.map
        units = self.units
        if isinstance(board, MapState) and any(u.board is not board for u in units.values()):
            placed = FrozenDict({k: u.on(board) for k, u in units.items()})
            object.__setattr__(self, "units", placed)

    @property
    def viewer(self) -> str:
        """Who this is the view of (the umpire for the truth)."""
        raise NotImplementedError

    def unit(self, unit_id: str) -> Unit:
        """The unit with that id (``KeyError`` if unknown — or, in a view, not visible: the two
        are deliberately indistinguishable)."""
        try:
            return self.units[unit_id]
        except KeyError:
            where = "in this game" if self.viewer == UMPIRE else f"visible to {self.viewer}"
            err = KeyError(f"no unit {unit_id!r} {where}")
            err.key = unit_id  # type: ignore[attr-defined]  # what was looked up (for refusals)
            raise err from None

    def units_at(self, h: Hex) -> list[Unit]:
        """Units on hex *h*, in order of insertion."""
        return [u for u in self.units.values() if u.hex == h]

    def units_of(self, side: str) -> list[Unit]:
        """Units of *side*."""
        return [u for u in self.units.values() if u.side == side]

    def option(self, name: str, default: Any = None) -> Any:
        """An option value."""
        return self.options.get(name, default)

    def table(self, name: str) -> Any:
        """A data table in force (``KeyError`` if the rule set has none by that name)."""
        try:
            return self.tables[name]
        except KeyError:
            raise KeyError(f"no data table {name!r}; known: {sorted(self.tables)}") from None

    def side_state(self, name: str) -> SideState:
        """The :class:`SideState` of *name*."""
        try:
            return self.sides[name]
        except KeyError:
            raise KeyError(f"no side {name!r}; sides are {list(self.sides)}") from None

    def enemies_of(self, side: str) -> list[str]:
        """Every other side."""
        return [s for s in self.sides if s != side]


@dataclass(frozen=True)
class GameState(StateReader):
    """The whole truth of a game at one point of its history.

    Attributes:
        ruleset: name of the rule set (``"ows"``).
        options: the rule set's options in force (validated at load).
        scenario: scenario metadata (id, title, briefing, victory text...).
        map: the :class:`MapState`.
        sides: side name -> :class:`SideState` (in play order).
        units: unit id -> :class:`Unit`.
        clock: the :class:`Clock`.
        public: rule-set facts everyone may know (weather, shared tracks...).
        secret: facts only the umpire may know (secret placements until revealed...).
        tables: data tables in force (rule-set defaults merged with scenario overrides).
        rng: the dice's bit-generator state (never shown to a side).
        seq: number of events applied since the initial state.
    """

    ruleset: str
    map: MapState
    sides: FrozenDict
    units: FrozenDict = EMPTY
    clock: Clock = field(default_factory=Clock)
    options: FrozenDict = EMPTY
    scenario: FrozenDict = EMPTY
    public: FrozenDict = EMPTY
    secret: FrozenDict = EMPTY
    tables: FrozenDict = EMPTY
    rng: FrozenDict = EMPTY
    seq: int = 0

    @property
    def viewer(self) -> str:
        """Who this is the view of: the truth is the umpire's."""
        return UMPIRE

    def side(self, name: str) -> SideState:
        """The :class:`SideState` of *name* (``side_state`` on views, whose ``side`` is the viewer)."""
        return self.side_state(name)

    def evolve(self, **changes: Any) -> GameState:
        """A copy with fields replaced (mappings are frozen)."""
        for k in ("options", "scenario", "public", "secret", "tables", "rng", "units", "sides"):
            if k in changes and not isinstance(changes[k], FrozenDict):
                changes[k] = (
                    freeze(changes[k]) if k not in ("units", "sides") else FrozenDict(changes[k])
                )
        return replace(self, **changes)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.ruleset} {self.scenario.get('id', '')} seq={self.seq} "
            f"{len(self.units)} units, {len(self.map)} hexes; {self.clock}>"
        )


def as_mapping(obj: Mapping | None) -> FrozenDict:
    """Freeze an optional mapping."""
    return freeze(dict(obj or {}))


def check_side(state: StateLike, side: str, order: object = None) -> None:
    """Raise :class:`~owsnb.kernel.errors.UnknownSideError` unless *side* is one of the game's
    sides or the umpire: the same answer wherever a side is named.

    >>> from owsnb.kernel.offset import OffsetSystem
    >>> s = GameState("demo", MapState(FrozenDict()), FrozenDict(blue=None, red=None))
    >>> check_side(s, "red"), check_side(s, UMPIRE)
    (None, None)
    >>> check_side(s, "purple")
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.UnknownSideError: unknown side 'purple'; the sides are blue, red (and umpire)
    """
    if side != UMPIRE and side not in state.sides:
        raise UnknownSideError.of(side, state.sides, order)
