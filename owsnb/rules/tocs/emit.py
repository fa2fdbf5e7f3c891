"""A tiny helper: build a list of events while keeping the state they lead to."""

from __future__ import annotations

from typing import Any

from owsnb.kernel.events import Event, hex_set, note, side_set, unit_set
from owsnb.kernel.reduce import apply
from owsnb.kernel.state import GameState

__all__ = ["Emitter"]


class Emitter:
    """Collects events and applies each one, so later rules see earlier effects."""

    def __init__(self, state: GameState):
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for e in events:
            self.state = apply(self.state, e)
            self.events.append(e)

    # shorthands ------------------------------------------------------------------------------
    def unit(self, uid: str, *, rule: str, visible_to: Any = "owner", **changes: Any) -> None:
        u = self.state.units[uid]
        vis = u.side if visible_to == "owner" else visible_to
        if "data" in changes:
            changes["data"] = dict(changes["data"])
        self.emit(unit_set(uid, visible_to=vis, rule=rule, **changes))

    def data(self, uid: str, *, rule: str, **data: Any) -> None:
        self.unit(uid, rule=rule, data=data)

    def private(self, side: str, *, rule: str, **changes: Any) -> None:
        self.emit(side_set(side, "private", changes, rule=rule))

    def hexfact(self, h: Any, *, rule: str, **changes: Any) -> None:
        self.emit(hex_set(h, changes, rule=rule))

    def say(self, text: str, *, rule: str, visible_to: Any = None, **data: Any) -> None:
        self.emit(note(text, visible_to=visible_to, rule=rule, **data))
