"""Fixtures for the bots: a skirmish game served by an authority on loopback (SQLite store)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import SKIRMISH, Served


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A new skirmish game (seed 11) on a server of its own."""
    from owsnb.server.authority import Authority
    from owsnb.server.runner import ServerThread
    from owsnb.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'seminar.owsnb'}")
    auth = Authority(store)
    srv = ServerThread(auth).start()
    s = Served(auth, srv, auth.create_game(SKIRMISH, seed=11))
    try:
        yield s
    finally:
        s.server.stop()
        s.close_seats()
        store.close()
