"""Events: the history of a game. Every state change and every die roll is an :class:`Event`.

Events are plain data tagged with who may see them (``visible_to``: ``None`` = everyone, else a
set of sides; the umpire always sees all). Replay applies events and never re-rolls, so a saved
game replays identically even after rule code changes.

The constructors below build the kernel's generic event kinds, which every rule set may use:

>>> e = unit_set("DDG-114", visible_to={"blue"}, rule="9.6", steps=1)
>>> e.kind, e.data["changes"]["steps"], sorted(e.visible_to)
('unit.set', 1, ['blue'])
>>> e.visible("blue"), e.visible("red"), e.visible("umpire")
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from owsnb.kernel.data import EMPTY, FrozenDict, clip, freeze
from owsnb.kernel.hexgrid import Hex

__all__ = [
    "Event",
    "visibility",
    "unit_set",
    "unit_move",
    "unit_add",
    "unit_remove",
    "clock_set",
    "side_set",
    "hex_set",
    "state_set",
    "note",
    "die_rolled",
    "GENERIC_KINDS",
]

UMPIRE = "umpire"


def visibility(visible_to: Iterable[str] | str | None) -> frozenset[str] | None:
    """Normalise a ``visible_to`` argument: ``None`` (public), a side name, or several."""
    if visible_to is None:
        return None
    if isinstance(visible_to, str):
        return frozenset([visible_to])
    return frozenset(visible_to)


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the history.

    Attributes:
        kind: the event kind (``"unit.set"``, ``"die"``, or a rule set's own kind).
        data: plain frozen payload.
        visible_to: ``None`` if public, else the sides that may see it (the umpire sees all).
        rule: the rule paragraph that produced it (``"9.2.1.1"``).
        seq: 1-based position in the history (set on commit).
        batch: the submission that produced it (set on commit; undo removes a whole batch).
    """

    kind: str
    data: FrozenDict = EMPTY
    visible_to: frozenset[str] | None = None
    rule: str = ""
    seq: int = 0
    batch: int = 0

    def visible(self, side: str) -> bool:
        """May *side* see this event?"""
        return side == UMPIRE or self.visible_to is None or side in self.visible_to

    def at(self, seq: int, batch: int) -> Event:
        """A copy placed in the history."""
        return replace(self, seq=seq, batch=batch)

    def __str__(self) -> str:
        if self.kind == "die":
            d = self.data
            who = f"{d.get('actor')} " if d.get("actor") else ""
            return f"{who}rolls {d.get('die')} = {d.get('result')} ({d.get('purpose', '')})"
        if self.kind == "note":
            return str(self.data.get("text", ""))
        body = ", ".join(f"{k}={v}" for k, v in self.data.items())
        return f"{self.kind}({body})"

    def __repr__(self) -> str:
        """One line: the payload is cut short (``str(event)`` reads it, ``event.data`` holds it).

        >>> e = Event("note", freeze({"text": "x" * 5000}), rule="8.2", seq=4)
        >>> r = repr(e)
        >>> len(r) < 200, r.endswith("xx… rule='8.2' visible_to=public>")
        (True, True)
        """
        vis = "public" if self.visible_to is None else sorted(self.visible_to)
        data = clip(repr(dict(self.data)), 120)
        return f"<Event #{self.seq} {self.kind} {data} rule={self.rule!r} visible_to={vis}>"


def _event(kind: str, data: Mapping[str, Any], visible_to: Any, rule: str) -> Event:
    return Event(kind, freeze(dict(data)), visibility(visible_to), rule)


def unit_set(unit_id: str, *, visible_to: Any = None, rule: str = "", **changes: Any) -> Event:
    """Change fields of a unit (``hex``, ``box``, ``steps``, ``markers``, ``seen_by``, ``data``...).

    ``data`` is merged shallowly into the unit's payload; other fields are replaced.
    """
    return _event("unit.set", {"id": unit_id, "changes": changes}, visible_to, rule)


def unit_move(
    unit_id: str,
    to: Hex | None,
    *,
    path: Iterable[Hex] = (),
    box: str | None = None,
    visible_to: Any = None,
    rule: str = "",
) -> Event:
    """Move a unit to a hex (``path`` optional, for display) or, with ``to=None``, into a box."""
    return _event(
        "unit.move", {"id": unit_id, "to": to, "path": tuple(path), "box": box}, visible_to, rule
    )


def unit_add(unit: Any, *, visible_to: Any = None, rule: str = "") -> Event:
    """Add a unit (reinforcements, markers that are units...)."""
    return _event("unit.add", {"unit": unit}, visible_to, rule)


def unit_remove(unit_id: str, *, visible_to: Any = None, rule: str = "") -> Event:
    """Remove a unit from the game entirely (a destroyed unit usually goes to a box instead)."""
    return _event("unit.remove", {"id": unit_id}, visible_to, rule)


def clock_set(clock: Any, *, rule: str = "") -> Event:
    """Set the clock (turn, phase, step, who acts). Always public."""
    return _event("clock.set", {"clock": clock}, None, rule)


def side_set(
    side: str, scope: str, changes: Mapping[str, Any], *, visible_to: Any = "owner", rule: str = ""
) -> Event:
    """Merge *changes* into a side's ``public`` or ``private`` facts (``None`` deletes a key).

    By default a ``private`` change is visible to that side only and a ``public`` one to all.
    """
    if scope not in ("public", "private"):
        raise ValueError(f"scope must be 'public' or 'private', not {scope!r}")
    if visible_to == "owner":
        visible_to = side if scope == "private" else None
    return _event(
        "side.set", {"side": side, "scope": scope, "changes": dict(changes)}, visible_to, rule
    )


def hex_set(h: Hex, changes: Mapping[str, Any], *, visible_to: Any = None, rule: str = "") -> Event:
    """Merge *changes* into a hex's public ``facts`` (control, damage...; ``None`` deletes)."""
    return _event("hex.set", {"hex": h, "changes": dict(changes)}, visible_to, rule)


def state_set(
    scope: str, changes: Mapping[str, Any], *, visible_to: Any = None, rule: str = ""
) -> Event:
    """Merge *changes* into the game's ``public`` facts or ``secret`` facts (umpire only)."""
    if scope not in ("public", "secret"):
        raise ValueError(f"scope must be 'public' or 'secret', not {scope!r}")
    if scope == "secret":
        visible_to = ()
    return _event("state.set", {"scope": scope, "changes": dict(changes)}, visible_to, rule)


def note(text: str, *, visible_to: Any = None, rule: str = "", **data: Any) -> Event:
    """A narrative line for the log ("Strike on 0907: 2 hits"); changes nothing."""
    return _event("note", {"text": text, **data}, visible_to, rule)


def die_rolled(
    die: str,
    sides: int,
    result: int | tuple[int, ...],
    *,
    purpose: str,
    rule: str = "",
    actor: str | None = None,
    visible_to: Any = None,
    **data: Any,
) -> Event:
    """A die roll (recorded by :class:`~owsnb.kernel.dice.Dice`); changes nothing but the log."""
    payload = {
        "die": die,
        "sides": sides,
        "result": result,
        "purpose": purpose,
        "actor": actor,
        **data,
    }
    return _event("die", payload, visible_to, rule)


GENERIC_KINDS = (
    "unit.set",
    "unit.move",
    "unit.add",
    "unit.remove",
    "clock.set",
    "side.set",
    "hex.set",
    "state.set",
    "note",
    "die",
    "rng",
)
"""Event kinds the kernel knows how to apply; rule sets may register more."""
