"""The PostgreSQL event store: games shared by several server processes (and a JupyterHub).

Same tables (:data:`~owsnb.store.base.TABLES`, prefixed ``owsnb_`` so they can live in a database
shared with other software) and guarantees as the SQLite store (:mod:`owsnb.store.sqlite`).
Every psycopg failure (lost connection, read-only transaction, a value the server refuses) is a
:class:`~owsnb.kernel.errors.StoreError`, and the transaction is rolled back. Every write is one transaction; the
primary key ``(game_id, rev)`` of the log is the final guard between processes racing for the
same revision (the loser gets :class:`~owsnb.kernel.errors.StaleStateError`), and the game's row
is locked (``SELECT ... FOR UPDATE``) while a revision is written, so the check is exact.

Every write also sends ``NOTIFY owsnb, '<game id>'`` (delivered on commit), so other processes
learn at once that a game moved on: see :meth:`PostgresStore.listen`.

Needs psycopg 3 (``pip install 'owsnb[postgres]'``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from owsnb.kernel import codec
from owsnb.kernel.errors import StaleStateError, StoreError
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation
from owsnb.kernel.state import GameState
from owsnb.store.base import (
    FORMAT,
    SCHEMA_VERSION,
    EventStore,
    GameRecord,
    NoSuchGame,
    annotation_to_json,
    game_record,
    game_row,
    now,
    only_game,
    schema,
    storable,
)

__all__ = ["PostgresStore", "CHANNEL"]

CHANNEL = "owsnb"
"""The ``LISTEN``/``NOTIFY`` channel on which every write names its game."""

_SCHEMA_LOCK = 0x6F77736E62  # advisory lock key ("owsnb"): one process creates the tables

SCHEMA = schema("JSONB")


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            "a postgresql:// store needs psycopg 3: pip install 'owsnb[postgres]'"
        ) from None
    return psycopg


class PostgresStore(EventStore):
    """An event store in a PostgreSQL database.

    Args:
        url: a libpq URL, ``postgresql://user:password@host:port/database`` (query parameters
            such as ``?sslmode=require`` or ``?options=-csearch_path%3Dseminar`` pass through).

    Raises:
        StoreError: the server cannot be reached, or the database holds a foreign or newer store.
    """

    def __init__(self, url: str):
        self._pg = _psycopg()
        self.url = url
        self._lock = threading.RLock()
        self._db: Any = None
        self._pid = 0
        self._connect()
        with self._tx() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for stmt in (s.strip() for s in SCHEMA.split(";")):
                if stmt:
                    cur.execute(stmt)
            cur.execute("SELECT key, value FROM owsnb_meta")
            meta = dict(cur.fetchall())
            if not meta:
                cur.execute(
                    "INSERT INTO owsnb_meta VALUES ('format', %s), ('schema', %s)",
                    (FORMAT, str(SCHEMA_VERSION)),
                )
                meta = {"format": FORMAT, "schema": str(SCHEMA_VERSION)}
            elif meta.get("format") == FORMAT and int(meta.get("schema", 0)) < SCHEMA_VERSION:
                # schema 1 had these very tables (only SQLite's names changed): record the version
                cur.execute(
                    "UPDATE owsnb_meta SET value=%s WHERE key='schema'", (str(SCHEMA_VERSION),)
                )
        if meta.get("format") != FORMAT:
            raise StoreError(
                f"{self._where()} holds owsnb_meta of another format ({meta.get('format')!r})"
            )
        if int(meta.get("schema", 0)) > SCHEMA_VERSION:
            raise StoreError(
                f"{self._where()} was written by a newer owsnb (schema {meta['schema']}); "
                "upgrade owsnb"
            )

    def __repr__(self) -> str:
        return f"<PostgresStore {self._where()}>"

    def _where(self) -> str:
        """The URL without its password (for messages)."""
        try:
            from psycopg.conninfo import conninfo_to_dict

            d = conninfo_to_dict(self.url)
            user, host, port = d.get("user", ""), d.get("host", ""), d.get("port", "5432")
            return f"postgresql://{user}@{host}:{port}/{d.get('dbname', '')}"
        except Exception:  # noqa: BLE001 - a message helper never fails
            return "postgresql://…"

    def _connect(self) -> None:
        try:
            self._db = self._pg.connect(self.url, autocommit=True, connect_timeout=10)
            self._pid = self._db.info.backend_pid
        except self._pg.Error as exc:
            raise StoreError(f"cannot connect to {self._where()}: {str(exc).strip()}") from None

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """One transaction under the store's lock; reconnects once if the connection was lost."""
        with self._lock:
            if self._db is None or self._db.closed or self._db.broken:
                self._connect()
            try:
                with self._db.transaction(), self._db.cursor() as cur:
                    yield cur
            except (StaleStateError, StoreError, self._pg.errors.UniqueViolation):
                raise
            except self._pg.Error as exc:  # lost connection, read-only, a refused value...
                raise StoreError(f"{self._where()}: {str(exc).strip()}") from None

    def _notify(self, cur: Any, game_id: str) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, game_id))

    def _lock_game(self, cur: Any, game_id: str) -> int:
        """Lock the game's row for this transaction and return its last revision."""
        cur.execute("SELECT 1 FROM owsnb_games WHERE id=%s FOR UPDATE", (game_id,))
        if cur.fetchone() is None:
            raise NoSuchGame(f"{self._where()}: no game {game_id!r}")
        cur.execute("SELECT COALESCE(MAX(rev), 0) FROM owsnb_log WHERE game_id=%s", (game_id,))
        return int(cur.fetchone()[0])

    # -- writing -------------------------------------------------------------------------------
    def create_game(
        self, game_id: str, initial: GameState, meta: Mapping[str, Any] | None = None
    ) -> None:
        try:
            with self._tx() as cur:
                cur.execute(
                    "INSERT INTO owsnb_games VALUES (%s, %s, %s, %s, %s::jsonb)",
                    game_row(game_id, initial, meta),
                )
        except self._pg.errors.UniqueViolation:
            raise StoreError(f"{self._where()}: a game {game_id!r} already exists") from None

    def _write(self, game_id: str, rev: int, op: str, seq: int, payload: str | None) -> None:
        try:
            with self._tx() as cur:
                last = self._lock_game(cur, game_id)
                if rev != last + 1:
                    raise StaleStateError(rev - 1, last)
                cur.execute(
                    "INSERT INTO owsnb_log VALUES (%s, %s, %s, %s, %s, %s)",
                    (game_id, rev, op, seq, payload, now()),
                )
                self._notify(cur, game_id)
        except self._pg.errors.UniqueViolation:
            raise StaleStateError(rev - 1, self.revision(game_id)) from None

    def append(self, game_id: str, rev: int, events: Sequence[Event]) -> None:
        payload = storable(codec.dumps(list(events)), "an event")
        self._write(game_id, rev, "append", events[-1].seq if events else 0, payload)

    def truncate(self, game_id: str, rev: int, seq: int) -> None:
        self._write(game_id, rev, "truncate", seq, None)

    def annotate(self, game_id: str, annotation: Annotation) -> None:
        with self._tx() as cur:
            cur.execute(
                "INSERT INTO owsnb_annotations VALUES (%s, %s, %s) "
                "ON CONFLICT (game_id, id) DO UPDATE SET data = EXCLUDED.data",
                (game_id, annotation.id, annotation_to_json(annotation)),
            )
            self._notify(cur, game_id)

    def set_meta(self, game_id: str, changes: Mapping[str, Any]) -> None:
        storable(dict(changes), "the game's metadata")
        put = {k: v for k, v in changes.items() if v is not None}
        drop = [k for k, v in changes.items() if v is None]
        with self._tx() as cur:
            cur.execute(
                "UPDATE owsnb_games SET meta = (meta || %s::jsonb) - %s::text[] WHERE id=%s",
                (json.dumps(put), drop, game_id),
            )
            if cur.rowcount == 0:
                raise NoSuchGame(f"{self._where()}: no game {game_id!r}")
            self._notify(cur, game_id)

    # -- reading -------------------------------------------------------------------------------
    def revision(self, game_id: str) -> int:
        """The game's last revision (one query, without loading the history)."""
        with self._tx() as cur:
            cur.execute(
                "SELECT (SELECT COALESCE(MAX(rev), 0) FROM owsnb_log WHERE game_id=%s), "
                "EXISTS (SELECT 1 FROM owsnb_games WHERE id=%s)",
                (game_id, game_id),
            )
            rev, exists = cur.fetchone()
        if not exists:
            raise NoSuchGame(f"{self._where()}: no game {game_id!r}")
        return int(rev)

    def head(self, game_id: str) -> tuple[int, dict[str, Any]]:
        """The game's last revision and its metadata (one query)."""
        with self._tx() as cur:
            cur.execute(
                "SELECT (SELECT COALESCE(MAX(rev), 0) FROM owsnb_log WHERE game_id=%s), meta "
                "FROM owsnb_games WHERE id=%s",
                (game_id, game_id),
            )
            row = cur.fetchone()
        if row is None:
            raise NoSuchGame(f"{self._where()}: no game {game_id!r}")
        return int(row[0]), dict(row[1])

    def games(self) -> list[dict[str, Any]]:
        with self._tx() as cur:
            cur.execute(
                "SELECT g.id, g.ruleset, g.created, g.meta, COALESCE(MAX(l.rev), 0) "
                "FROM owsnb_games g "
                "LEFT JOIN owsnb_log l ON l.game_id = g.id GROUP BY g.id ORDER BY g.created, g.id"
            )
            rows = cur.fetchall()
        return [
            {"id": r[0], "ruleset": r[1], "created": r[2], "meta": dict(r[3]), "rev": int(r[4])}
            for r in rows
        ]

    def load(self, game_id: str | None = None) -> GameRecord:
        with self._tx() as cur:
            if game_id is None:
                cur.execute("SELECT id FROM owsnb_games ORDER BY created, id")
                game_id = only_game([r[0] for r in cur.fetchall()], self._where())
            cur.execute(
                "SELECT ruleset, created, initial, meta FROM owsnb_games WHERE id=%s", (game_id,)
            )
            row = cur.fetchone()
            if row is None:
                raise NoSuchGame(f"{self._where()}: no game {game_id!r}")
            cur.execute(
                "SELECT rev, op, seq, events FROM owsnb_log WHERE game_id=%s ORDER BY rev",
                (game_id,),
            )
            log = cur.fetchall()
            cur.execute(
                "SELECT data FROM owsnb_annotations WHERE game_id=%s ORDER BY id", (game_id,)
            )
            anns = [r[0] for r in cur.fetchall()]
        return game_record(self._where(), game_id, row, dict(row[3]), log, anns)

    def check(self) -> None:
        """Refuse a store that cannot be served (read-only database, a game that does not load):
        ``StoreError`` with one line. ``owsnb serve --resume`` calls it."""
        with self._tx() as cur:
            cur.execute("SELECT current_setting('transaction_read_only'), pg_is_in_recovery()")
            ro, recovery = cur.fetchone()
        if ro == "on" or recovery:
            raise StoreError(f"{self._where()} is read-only: the server could not save any order")
        for g in self.games():
            self.load(g["id"])

    # -- change notifications ------------------------------------------------------------------
    def listen(
        self, callback: Callable[[str], Any], stop: threading.Event, *, poll: float = 1.0
    ) -> None:
        """Call ``callback(game_id)`` whenever another connection writes to a game, until *stop*
        is set (this store's own writes are not reported).

        Blocks: run it in a thread. Uses its own connection (``LISTEN owsnb``); reconnects with a
        pause if the server goes away, calling ``callback("*")`` after a reconnect because
        notifications may have been missed meanwhile.
        """
        missed = False
        while not stop.is_set():
            try:
                with self._pg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if missed:
                        callback("*")
                    while not stop.is_set():
                        for n in conn.notifies(timeout=poll):
                            if n.pid != self._pid:
                                callback(n.payload)
            except self._pg.Error:
                missed = True
                stop.wait(poll)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
