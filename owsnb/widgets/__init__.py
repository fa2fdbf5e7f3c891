"""Live widgets for JupyterLab: the game table.

Every widget draws one seat's view and changes the game only through the seat's ``submit``; none
holds rule logic (verbs, parameters, candidates, previews, reach, ranges and counters come from
the rule set). The parts share one :class:`Table` (seat, moment shown, selection, order being
prepared):

* :class:`App` — the whole table (``App(game, seat="blue")``; hot-seat switch; ``seat="umpire"``
  for solo study);
* :class:`MapView` (ipyleaflet), :class:`OrderPanel`, :class:`TimeDistancePanel`,
  :class:`Dashboard` (bqplot), :class:`DiceLog`, :class:`AnnotationPanel`, :class:`History`;
* :class:`Seat` / :func:`as_seat` — what widgets may ask of a game (local or remote);
* :mod:`owsnb.widgets.wire` — synced-state scans and comm-message measurements.
"""

from owsnb.widgets.annotations import AnnotationPanel
from owsnb.widgets.app import App
from owsnb.widgets.dashboard import Dashboard
from owsnb.widgets.dicelog import DiceLog
from owsnb.widgets.history import History
from owsnb.widgets.mapview import MapView
from owsnb.widgets.orderpanel import OrderPanel
from owsnb.widgets.seat import LocalSeat, Seat, as_seat
from owsnb.widgets.table import Pick, Refusal, Table
from owsnb.widgets.timedistance import TimeDistancePanel

__all__ = [
    "AnnotationPanel",
    "App",
    "Dashboard",
    "DiceLog",
    "History",
    "LocalSeat",
    "MapView",
    "OrderPanel",
    "Pick",
    "Refusal",
    "Seat",
    "Table",
    "TimeDistancePanel",
    "as_seat",
]
