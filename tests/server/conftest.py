"""Fixtures for the seminar server: a store on SQLite or a real PostgreSQL, an authority serving
the skirmish test scenario on loopback, and remote seats connected to it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from owsnb.server.authority import Authority, CreatedGame
from owsnb.store import open_store
from owsnb.testing.needs import missing
from tests.server import pgserver

REPO = Path(__file__).resolve().parents[2]
SKIRMISH = REPO / "tests" / "data" / "skirmish.yaml"
RULESETS = "skirmish=tests.rulesets.skirmish:RULESET"


def subprocess_env(**extra: str) -> dict[str, str]:
    """Environment for a server subprocess: skirmish registered, the repository importable."""
    env = dict(os.environ)
    env["OWSNB_RULESETS"] = RULESETS
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


PYTHON = sys.executable


STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _store_url(kind: str, folder: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'seminar.owsnb'}"
    reason = pgserver.available()
    if reason:
        missing(reason)
    return pgserver.fresh_url()


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store: a SQLite file, or a new database on the test PostgreSQL."""
    return _store_url(request.param, tmp_path)


@dataclass
class Served:
    """A running authority with one skirmish game."""

    authority: Authority
    server: Any
    created: CreatedGame
    seats: list[Any] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def game_url(self) -> str:
        return f"{self.server.url}/games/{self.created.game_id}"

    def token(self, label: str) -> str:
        return self.created.tokens[label]

    def connect(self, label: str, **kw: Any) -> Any:
        from owsnb.server.client import connect

        seat = connect(self.game_url, self.token(label), **kw)
        self.seats.append(seat)
        return seat

    @property
    def game(self) -> Any:
        """The authority's kernel Game (the truth; tests only)."""
        return self.authority.served(self.created.game_id).game

    def headers(self, label: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(label)}"} if label else {}

    def close_seats(self) -> None:
        for seat in self.seats:
            seat.close()
        self.seats.clear()


@pytest.fixture(scope="module", params=STORES)
def shared_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Authority, Any]]:
    """One authority + server per test module and store kind; each test gets its own game on it."""
    from owsnb.server.runner import ServerThread

    store = open_store(_store_url(request.param, tmp_path_factory.mktemp("store")))
    auth = Authority(store)
    srv = ServerThread(auth).start()
    try:
        yield auth, srv
    finally:
        srv.stop()
        store.close()


@pytest.fixture
def served(shared_server: tuple[Authority, Any]) -> Iterator[Served]:
    """A new skirmish game (seed 11) on the module's running server."""
    auth, srv = shared_server
    s = Served(auth, srv, auth.create_game(SKIRMISH, seed=11))
    try:
        yield s
    finally:
        s.close_seats()


@pytest.fixture
def private_server(store_url: str) -> Iterator[Served]:
    """A server of its own (for tests that stop or restart it)."""
    from owsnb.server.runner import ServerThread

    store = open_store(store_url)
    auth = Authority(store)
    srv = ServerThread(auth).start()
    s = Served(auth, srv, auth.create_game(SKIRMISH, seed=11))
    try:
        yield s
    finally:
        s.server.stop()  # first: long-polls in flight are answered at once
        s.close_seats()
        store.close()
