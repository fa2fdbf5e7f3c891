"""Public test helpers for rule-set authors and users.

* :func:`random_playout` plays random legal orders and checks invariants and view redaction;
* :func:`hidden_tokens` / :func:`find_leaks` scan any payload for what a side must not know
  (ids and names as whole tokens, the :class:`Position` of units it does not see, and with
  :func:`numbering` any count or sequence number beyond its own); :func:`scan_widget_leaks` scans
  what a table's widgets hold;
* :func:`noninterference` plays twin games that differ only in what a side cannot know and
  compares everything that side observes (:mod:`owsnb.testing.twins`);
* :func:`fixed_dice` scripts die results for worked examples;
* :class:`Transcript` / :func:`random_transcript` record a game as plain text to diff against a
  stored golden copy (:mod:`owsnb.testing.transcript`);
* Hypothesis strategies live in :mod:`owsnb.testing.strategies`;
* :mod:`owsnb.testing.clicks` turns an order into the clicks that give it on a table (decided
  from what the seat's page shows), for tests and benchmarks that play with the mouse alone.
"""

from owsnb.testing.dice import fixed_dice
from owsnb.testing.leaks import (
    Numbers,
    Position,
    find_leaks,
    hidden_tokens,
    numbering,
    scan_widget_leaks,
)
from owsnb.testing.playout import PlayoutReport, random_order, random_playout
from owsnb.testing.transcript import Transcript, fixed_salt, random_transcript
from owsnb.testing.twins import InterferenceError, LocalObserver, TwinReport, noninterference

__all__ = [
    "InterferenceError",
    "LocalObserver",
    "Numbers",
    "PlayoutReport",
    "Position",
    "Transcript",
    "find_leaks",
    "fixed_dice",
    "fixed_salt",
    "hidden_tokens",
    "noninterference",
    "numbering",
    "random_order",
    "random_playout",
    "random_transcript",
    "scan_widget_leaks",
    "TwinReport",
]
