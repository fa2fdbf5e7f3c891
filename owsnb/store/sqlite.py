"""The embedded SQLite event store (the default; one file, no server).

Writes are transactions in WAL mode with ``synchronous=FULL``: a crash mid-write loses nothing
committed and corrupts nothing. A new file is created readable by its owner only (0600: it holds
the truth and the seats' token hashes). Every ``sqlite3`` failure (disk full, read-only file,
locked, damaged pages) is a :class:`~owsnb.kernel.errors.StoreError`; a failed write is rolled
back whole. A file of schema 1 (tables ``games``/``log``/``annotations``) is migrated to the
shared names (``owsnb_games``...) when it is opened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

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

__all__ = ["SQLiteStore"]

SCHEMA = schema("TEXT")

OLD_NAMES = {"games": "owsnb_games", "log": "owsnb_log", "annotations": "owsnb_annotations"}
"""Schema 1's table names and their shared names (schema 2)."""


class SQLiteStore(EventStore):
    """An event store in one SQLite file.

    Args:
        path: the file (created if missing and *create* is true).
        create: create a new store if the file does not exist.

    Raises:
        StoreError: the file is missing (and ``create=False``), unreadable, or not an owsnb store.

    Example:
        >>> import pathlib, tempfile
        >>> import owsnb
        >>> from owsnb.kernel.registry import register_ruleset
        >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
        >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
        >>> game = owsnb.load(SCENARIO, seed=11, save=False)
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = pathlib.Path(tmp.name) / "duel.owsnb"
        >>> with SQLiteStore(path) as store:
        ...     store.create_game("duel", game.initial, {"seed": 11})
        ...     _ = game.submit("blue: move B-INF-1 0303")
        ...     store.append("duel", 1, game.events)
        >>> with SQLiteStore(path, create=False) as again:  # reopened: the same history
        ...     rec = again.load()
        ...     [g["id"] for g in again.games()], rec.rev, rec.events == list(game.events)
        (['duel'], 1, True)
        >>> SQLiteStore(pathlib.Path(tmp.name) / "missing.owsnb", create=False)
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.StoreError: .../missing.owsnb: no such game file
        >>> tmp.cleanup()
    """

    def __init__(self, path: str | os.PathLike, *, create: bool = True):
        self.path = Path(path).expanduser()
        self.url = f"sqlite:///{self.path}"
        exists = self.path.exists()
        if not exists and not create:
            raise StoreError(f"{self.path}: no such game file")
        if exists and self.path.is_dir():
            raise StoreError(f"{self.path} is a directory, not an owsnb game file")
        if exists and not create and self.path.stat().st_size == 0:
            raise StoreError(f"{self.path} is empty (0 bytes): not an owsnb game file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not exists:  # the truth and the token hashes: the owner's only (WAL files follow)
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass
        except OSError as exc:
            raise StoreError(f"cannot create {self.path}: {exc.strerror}") from None
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                str(self.path), timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            tables = {
                r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        except sqlite3.DatabaseError as exc:
            if "readonly" in str(exc):
                raise StoreError(f"{self.path} is read-only ({exc})") from None
            raise StoreError(f"{self.path} is not an owsnb game file ({exc})") from None
        if tables and "owsnb_meta" not in tables:
            self._db.close()
            raise StoreError(f"{self.path} is a SQLite database but not an owsnb game file")
        if not tables:
            with self._tx():
                for stmt in _statements(SCHEMA):
                    self._db.execute(stmt)
                self._db.execute(
                    "INSERT INTO owsnb_meta VALUES ('format', ?), ('schema', ?)",
                    (FORMAT, str(SCHEMA_VERSION)),
                )
        try:
            meta = dict(self._db.execute("SELECT key, value FROM owsnb_meta"))
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} cannot be read ({exc})") from None
        if meta.get("format") != FORMAT:
            raise StoreError(
                f"{self.path} is not an owsnb game file (format {meta.get('format')!r})"
            )
        if int(meta.get("schema", 0)) > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer owsnb (schema {meta['schema']}); upgrade owsnb"
            )
        if int(meta.get("schema", 0)) < SCHEMA_VERSION:
            self._migrate(tables)

    def _migrate(self, tables: set[str]) -> None:
        """Schema 1 -> 2: rename ``games``/``log``/``annotations`` to the names both backends
        share, in one transaction (the rows are untouched; foreign keys follow the rename)."""
        try:
            with self._tx():
                for old, new in OLD_NAMES.items():
                    if old in tables and new not in tables:
                        self._db.execute(f"ALTER TABLE {old} RENAME TO {new}")
                for stmt in _statements(SCHEMA):  # any table schema 1 lacked
                    self._db.execute(stmt)
                self._db.execute(
                    "UPDATE owsnb_meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),)
                )
        except StoreError as exc:
            raise StoreError(
                f"{self.path} needs an upgrade of its tables, which failed: {exc}"
            ) from None

    def check(self) -> None:
        """Refuse a store that cannot be served: read-only, damaged, or holding a game that does
        not load (``StoreError`` with one line saying which). ``owsnb serve --resume`` calls it."""
        if not os.access(self.path, os.W_OK) or not self.path.stat().st_mode & 0o200:
            raise StoreError(f"{self.path} is read-only: the server could not save any order")
        with self._tx():  # a write lock: fails on a read-only file system or a locked file
            row = self._db.execute("PRAGMA quick_check").fetchone()
        if row is None or row[0] != "ok":
            raise StoreError(f"{self.path} is damaged ({row[0] if row else 'no answer'})")
        for g in self.games():
            self.load(g["id"])

    def __repr__(self) -> str:
        return f"<SQLiteStore {self.path}>"

    def _tx(self) -> _Tx:
        return _Tx(self._db, self._lock, self.path)

    # -- writing -------------------------------------------------------------------------------
    def create_game(
        self, game_id: str, initial: GameState, meta: Mapping[str, Any] | None = None
    ) -> None:
        with self._tx():
            if self._db.execute("SELECT 1 FROM owsnb_games WHERE id=?", (game_id,)).fetchone():
                raise StoreError(f"{self.path}: a game {game_id!r} already exists")
            self._db.execute(
                "INSERT INTO owsnb_games VALUES (?, ?, ?, ?, ?)",
                game_row(game_id, initial, meta),
            )

    def _last_rev(self, game_id: str) -> int:
        if not self._db.execute("SELECT 1 FROM owsnb_games WHERE id=?", (game_id,)).fetchone():
            raise NoSuchGame(f"{self.path}: no game {game_id!r}")
        row = self._db.execute(
            "SELECT MAX(rev) FROM owsnb_log WHERE game_id=?", (game_id,)
        ).fetchone()
        return int(row[0] or 0)

    def append(self, game_id: str, rev: int, events: Sequence[Event]) -> None:
        payload = storable(codec.dumps(list(events)), "an event")
        seq = events[-1].seq if events else 0
        with self._tx():
            last = self._last_rev(game_id)
            if rev != last + 1:
                raise StaleStateError(rev - 1, last)
            try:
                self._db.execute(
                    "INSERT INTO owsnb_log VALUES (?, ?, 'append', ?, ?, ?)",
                    (game_id, rev, seq, payload, now()),
                )
            except sqlite3.IntegrityError:
                raise StaleStateError(rev - 1, self._last_rev(game_id)) from None

    def truncate(self, game_id: str, rev: int, seq: int) -> None:
        with self._tx():
            last = self._last_rev(game_id)
            if rev != last + 1:
                raise StaleStateError(rev - 1, last)
            self._db.execute(
                "INSERT INTO owsnb_log VALUES (?, ?, 'truncate', ?, NULL, ?)",
                (game_id, rev, seq, now()),
            )

    def annotate(self, game_id: str, annotation: Annotation) -> None:
        with self._tx():
            self._db.execute(
                "INSERT OR REPLACE INTO owsnb_annotations VALUES (?, ?, ?)",
                (game_id, annotation.id, annotation_to_json(annotation)),
            )

    def set_meta(self, game_id: str, changes: Mapping[str, Any]) -> None:
        storable(dict(changes), "the game's metadata")
        with self._tx():
            row = self._db.execute("SELECT meta FROM owsnb_games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                raise NoSuchGame(f"{self.path}: no game {game_id!r}")
            meta = json.loads(row[0])
            for k, v in changes.items():
                if v is None:
                    meta.pop(k, None)
                else:
                    meta[k] = v
            self._db.execute(
                "UPDATE owsnb_games SET meta=? WHERE id=?", (json.dumps(meta), game_id)
            )

    # -- reading -------------------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        with self._reading():
            rows = self._db.execute(
                "SELECT g.id, g.ruleset, g.created, g.meta, COALESCE(MAX(l.rev), 0) "
                "FROM owsnb_games g LEFT JOIN owsnb_log l ON l.game_id = g.id GROUP BY g.id ORDER BY g.created"
            ).fetchall()
        return [
            {"id": r[0], "ruleset": r[1], "created": r[2], "meta": json.loads(r[3]), "rev": r[4]}
            for r in rows
        ]

    def load(self, game_id: str | None = None) -> GameRecord:
        with self._reading():
            if game_id is None:
                ids = [
                    r[0] for r in self._db.execute("SELECT id FROM owsnb_games ORDER BY created")
                ]
                game_id = only_game(ids, str(self.path))
            row = self._db.execute(
                "SELECT ruleset, created, initial, meta FROM owsnb_games WHERE id=?", (game_id,)
            ).fetchone()
            if row is None:
                raise NoSuchGame(f"{self.path}: no game {game_id!r}")
            log = self._db.execute(
                "SELECT rev, op, seq, events FROM owsnb_log WHERE game_id=? ORDER BY rev",
                (game_id,),
            ).fetchall()
            anns = [
                r[0]
                for r in self._db.execute(
                    "SELECT data FROM owsnb_annotations WHERE game_id=? ORDER BY id", (game_id,)
                )
            ]
        return game_record(str(self.path), game_id, row, json.loads(row[3]), log, anns)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Reads under the store's lock; a database failure is a StoreError."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path} cannot be read ({exc})") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _Tx:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (or ``ROLLBACK`` on error), under the store's lock.

    Any ``sqlite3`` failure (disk full, read-only, locked, damaged) becomes a ``StoreError`` after
    the transaction is rolled back, so nothing of a failed write remains.
    """

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock, path: Path):
        self.db, self.lock, self.path = db, lock, path

    def __enter__(self) -> None:
        self.lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            self.lock.release()
            raise StoreError(f"{self.path} cannot be written ({exc})") from None
        except BaseException:
            self.lock.release()
            raise

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Literal[False]:
        try:
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                    return False
                except sqlite3.Error as err:
                    exc_type, exc = type(err), err
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"{self.path} cannot be written ({exc})") from None
            return False
        finally:
            self.lock.release()


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
