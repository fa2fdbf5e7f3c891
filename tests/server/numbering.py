"""What the wire numbers today: the game's own event numbers and revision.

The kernel numbers per side (a side's view, log and history count only the events it saw, and its
revision moves only when it sees something: issue 18); the authority still sends the game's numbers
to every seat until it numbers per seat (the follow-up of issue 18, which removes this module).
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import SideView, side_view


def wire_view(game: Any, side: str, n: int | None = None) -> SideView:
    """The view a seat of *side* is sent now (``seq``: the game's event count), or after the
    game's event *n* rounded down to an event it saw (``view_at``), with the game's numbers."""
    events = game.events
    if n is None:
        n = game.seq
    elif side != UMPIRE:
        while n > 0 and not events[n - 1].visible(side):
            n -= 1
    return side_view(game.state_at(n), side, game.ruleset, events[:n], numbering="game")
