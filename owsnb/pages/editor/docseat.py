"""The editor's seat on the scenario it edits: the map's :class:`~owsnb.widgets.table.Table`
draws the document's state through it, as it draws a game's through a player's seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from owsnb.authoring.document import EditError, ScenarioDocument
from owsnb.kernel.errors import AuthError, HistoryError, IllegalOrderError
from owsnb.kernel.game import Change
from owsnb.kernel.orders import LegalOrders
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import side_view

__all__ = ["DocSeat"]


class DocSeat:
    """The umpire's seat on the scenario being edited: the map's :class:`Table` reads the
    document's drawable state through it. It gives no orders (an editor has no game yet)."""

    side = UMPIRE

    def __init__(self, doc: ScenarioDocument):
        self.doc = doc
        self.ruleset = doc.ruleset
        self._rev = 0
        self._view: Any = None
        self._subs: list[Callable[[Any], Any]] = []

    @property
    def state_id(self) -> int:
        return self._rev

    def view(self) -> Any:
        if self._view is None:
            shown = self.doc.shown
            if shown is None:
                raise EditError("the scenario has no map yet")
            self._view = side_view(shown, UMPIRE, self.ruleset)
        return self._view

    def view_at(self, n: int) -> Any:
        return self.view()

    def legal_orders(self, side: str | None = None) -> LegalOrders:
        return LegalOrders(side or UMPIRE, ())

    def check(self, order: Any) -> dict[str, Any]:
        raise IllegalOrderError("the scenario editor gives no orders", code="editor")

    def preview(self, order: Any) -> Any:
        return None

    def submit(self, order: Any, *, state_id: int | None = None) -> Any:
        raise AuthError("the scenario editor gives no orders: play the scenario to give them")

    def undo(self) -> tuple:
        return ()

    def annotate(self, text: str, **anchors: Any) -> Any:
        raise AuthError("the scenario editor keeps no notes")

    def annotations(self) -> list[Any]:
        return []

    def fork(self, at: int | None = None) -> Any:
        raise HistoryError("the scenario editor has no history to fork")

    def subscribe(self, callback: Callable[[Any], Any]) -> Callable[[], None]:
        self._subs.append(callback)
        return lambda: self._subs.remove(callback) if callback in self._subs else None

    def changed(self) -> None:
        """The document changed: tell the table (the map redraws what changed)."""
        self._rev += 1
        self._view = None
        self.ruleset = self.doc.ruleset or self.ruleset
        for cb in list(self._subs):
            cb(Change("edit", self._rev))
