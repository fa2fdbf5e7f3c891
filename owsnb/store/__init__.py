"""Persistence of events: an append-only store per game, SQLite embedded by default.

``open_store(url)`` accepts a file path (``game.owsnb``), ``sqlite:///path`` or
``postgresql://...`` (needs the ``postgres`` extra).
"""

from owsnb.store.base import EventStore, GameRecord, StoreSink, open_store
from owsnb.store.sqlite import SQLiteStore

__all__ = ["EventStore", "GameRecord", "SQLiteStore", "StoreSink", "open_store"]
