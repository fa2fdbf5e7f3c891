"""The base of the table's panels: a box bound to a :class:`~owsnb.widgets.table.Table` that
stops listening and closes every widget it made (browser models included) when closed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W

from owsnb.widgets.wire import widget_tree

__all__ = ["Panel"]


class Panel(W.VBox):
    """A VBox with a ``table``; ``watch`` observes table traits and ``close`` undoes it all."""

    table: Any

    def watch(self, fn: Callable[..., Any], names: list[str]) -> None:
        """Observe *names* of the table with *fn* until the panel is closed."""
        if not hasattr(self, "_watches"):
            self._watches: list[tuple[Callable[..., Any], list[str]]] = []
        self.table.observe(fn, names)
        self._watches.append((fn, names))

    def extra_widgets(self) -> list[Any]:
        """Widgets the panel made that are not shown right now (closed with it)."""
        return []

    def close(self) -> None:
        try:
            for fn, names in getattr(self, "_watches", []):
                self.table.unobserve(fn, names)
            self.table.unhold(self)
            self._watches = []
            for w in reversed(
                [*widget_tree(self)[1:], *(x for e in self.extra_widgets() for x in widget_tree(e))]
            ):
                w.close()
        except Exception:  # noqa: BLE001 - closing at interpreter exit must not raise
            pass
        super().close()
