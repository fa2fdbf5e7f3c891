"""Reducers: how events change a :class:`~owsnb.kernel.state.GameState`.

``apply(state, event, extra)`` returns the next state. The kernel's generic kinds are handled
here; a rule set may register reducers for kinds of its own (``extra``: kind -> function).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from owsnb.kernel.data import FrozenDict, freeze, merge
from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.events import Event
from owsnb.kernel.state import Clock, GameState, Unit

__all__ = ["apply", "apply_all", "Reducer", "ReplayError"]

Reducer = Callable[[GameState, Event], GameState]


class ReplayError(OwsnbError):
    """An event cannot be applied to the state (corrupt history or a reducer bug)."""


def _units(state: GameState, unit: Unit) -> FrozenDict:
    new = dict(state.units)
    new[unit.id] = unit
    return FrozenDict(new)


def _unit_set(state: GameState, e: Event) -> GameState:
    uid = e.data["id"]
    unit = state.units.get(uid)
    if unit is None:
        raise ReplayError(f"event #{e.seq} changes unknown unit {uid!r}")
    changes = dict(e.data["changes"])
    return replace(state, units=_units(state, unit.evolve(**changes)))


def _unit_move(state: GameState, e: Event) -> GameState:
    uid = e.data["id"]
    unit = state.units.get(uid)
    if unit is None:
        raise ReplayError(f"event #{e.seq} moves unknown unit {uid!r}")
    to = e.data.get("to")
    moved = replace(unit, hex=to, box=None if to is not None else e.data.get("box"))
    return replace(state, units=_units(state, moved))


def _unit_add(state: GameState, e: Event) -> GameState:
    unit = e.data["unit"]
    if not isinstance(unit, Unit):
        raise ReplayError(f"event #{e.seq}: unit.add carries {type(unit).__name__}, not a Unit")
    if unit.id in state.units:
        raise ReplayError(f"event #{e.seq} adds unit {unit.id!r} twice")
    return replace(state, units=_units(state, unit))


def _unit_remove(state: GameState, e: Event) -> GameState:
    uid = e.data["id"]
    if uid not in state.units:
        raise ReplayError(f"event #{e.seq} removes unknown unit {uid!r}")
    return replace(state, units=state.units.without(uid))


def _clock_set(state: GameState, e: Event) -> GameState:
    clock = e.data["clock"]
    if not isinstance(clock, Clock):
        raise ReplayError(f"event #{e.seq}: clock.set carries {type(clock).__name__}")
    return replace(state, clock=clock)


def _side_set(state: GameState, e: Event) -> GameState:
    name = e.data["side"]
    side = state.sides.get(name)
    if side is None:
        raise ReplayError(f"event #{e.seq} changes unknown side {name!r}")
    scope = e.data["scope"]
    side = replace(side, **{scope: merge(getattr(side, scope), e.data["changes"])})
    sides = dict(state.sides)
    sides[name] = side
    return replace(state, sides=FrozenDict(sides))


def _hex_set(state: GameState, e: Event) -> GameState:
    h = e.data["hex"]
    info = state.map.hexes.get(h)
    if info is None:
        raise ReplayError(f"event #{e.seq} changes hex {h!r} that is not on the map")
    hexes = dict(state.map.hexes)
    hexes[h] = replace(info, facts=merge(info.facts, e.data["changes"]))
    return replace(state, map=replace(state.map, hexes=FrozenDict(hexes)))


def _state_set(state: GameState, e: Event) -> GameState:
    scope = e.data["scope"]
    return state.evolve(**{scope: merge(getattr(state, scope), e.data["changes"])})


def _rng(state: GameState, e: Event) -> GameState:
    return replace(state, rng=freeze(e.data["state"]))


def _nothing(state: GameState, e: Event) -> GameState:
    return state


GENERIC: dict[str, Reducer] = {
    "unit.set": _unit_set,
    "unit.move": _unit_move,
    "unit.add": _unit_add,
    "unit.remove": _unit_remove,
    "clock.set": _clock_set,
    "side.set": _side_set,
    "hex.set": _hex_set,
    "state.set": _state_set,
    "rng": _rng,
    "note": _nothing,
    "die": _nothing,
}


def apply(state: GameState, event: Event, extra: Mapping[str, Reducer] | None = None) -> GameState:
    """Apply one event; returns the next state with ``seq`` advanced.

    Raises:
        ReplayError: unknown event kind or an event that does not fit the state.
    """
    fn = GENERIC.get(event.kind) or (extra or {}).get(event.kind)
    if fn is None:
        raise ReplayError(f"event #{event.seq}: no reducer for kind {event.kind!r}")
    try:
        new = fn(state, event)
    except ReplayError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayError(f"event #{event.seq} ({event.kind}) cannot be applied: {exc}") from exc
    return replace(new, seq=state.seq + 1)


def apply_all(
    state: GameState, events: Iterable[Event], extra: Mapping[str, Reducer] | None = None
) -> GameState:
    """Apply events in order."""
    for e in events:
        state = apply(state, e, extra)
    return state
