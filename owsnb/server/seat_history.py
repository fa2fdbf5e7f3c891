"""A remote seat's history as an ``xarray.Dataset``, built from the seat's own views only.

:func:`owsnb.analysis.history` replays the whole event list from the initial truth, which a seat
never holds. Here the authority is asked for the seat's view at each snapshot point
(``RemoteGame.view_at``), and those views are handed to the same dataset builder as ready-made
states, so the columns, coordinates and accessor (``ds.owsnb``) are exactly those of a local
game's side history — holding only what the seat saw (detections by other sides: only as far as
the seat's own view records them, ``seen_by``). ``attrs["seed"]`` is always -1.

Example (against a running server)::

    ds = remote.history()                 # or seat_history(remote, every="turn")
    ds.owsnb.losses().plot()
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.data import freeze
from owsnb.kernel.events import Event
from owsnb.kernel.state import UMPIRE
from owsnb.kernel.view import checkpoints

__all__ = ["seat_history"]

_KIND = "owsnb.seat.view"  # a private event kind: "the state becomes the seat's next view"


class _Rules:
    """The seat's rule set plus one reducer: a private event hands over the next view."""

    def __init__(self, ruleset: Any, views: list[Any]):
        self._rs = ruleset
        self.reducers = {**dict(ruleset.reducers), _KIND: lambda s, e: views[e.data["i"]]}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rs, name)


class _Views:
    """What :func:`owsnb.analysis.history` reads of a game, made of a seat's views."""

    def __init__(self, ruleset: Any, views: list[Any]):
        self.ruleset = _Rules(ruleset, views)
        self.initial = views[0]
        self.state = views[-1]
        self.events = tuple(
            Event(_KIND, freeze({"i": i}), seq=i, batch=i) for i in range(1, len(views))
        )
        self.cursor = len(self.events)
        self.meta: dict[str, Any] = {}


def seat_history(remote: Any, *, every: str = "step") -> Any:
    """The history *remote*'s seat saw, as an ``xarray.Dataset`` (see the module docstring).

    Args:
        remote: a :class:`~owsnb.server.client.RemoteGame` (or anything with ``ruleset``,
            ``side``, ``cursor``, ``log()`` and ``view_at(n)``).
        every: snapshot after every ``"event"``, ``"step"`` (default) or ``"turn"`` the seat saw.
    """
    import numpy as np
    from tqdm.auto import tqdm

    from owsnb.analysis.history import history

    end = remote.cursor
    first = remote.view_at(0)
    points = checkpoints(remote.log(), end, first.clock.turn, every)
    views = [first]
    for p in tqdm(points[1:], desc="seat history", disable=len(points) < 30, leave=False):
        views.append(remote.view_at(p))
    ds = history(_Views(remote.ruleset, views), side=UMPIRE, every="event")
    if remote.side != UMPIRE:
        # other sides' detections: only what the seat's own view records of them
        sides = list(ds["by"].values)
        det = ds["detected"].values.copy()
        for t, v in enumerate(views):
            for j, uid in enumerate(ds["unit"].values):
                u = v.units.get(str(uid))
                for k, sd in enumerate(sides):
                    if sd != remote.side:
                        det[t, j, k] = u is not None and sd in u.seen_by
        ds["detected"] = (ds["detected"].dims, det)
    ds = ds.assign_coords(seq=("time", np.array(points)))
    ds.attrs.update({"side_view": remote.side, "every": every, "events": int(end), "seed": -1})
    return ds
