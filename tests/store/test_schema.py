"""One schema for both backends (issue 17), stores that fail safely and text that can always be
sent (issue 19).

* SQLite and PostgreSQL hold the same tables (``owsnb_meta``, ``owsnb_games``, ``owsnb_log``,
  ``owsnb_annotations``); a SQLite file of schema 1 (``games``/``log``/``annotations``) is
  migrated when it is opened, losing nothing.
* Every database failure (disk full, read-only, a value the database refuses) is a
  ``StoreError`` and leaves the game as it was; text that cannot be stored (a lone surrogate, a
  NUL) is refused before it is written; a note an older owsnb stored with a lone surrogate is
  repaired when read.
* A new store file is the owner's only (0600), and so are its WAL files.
"""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

import pytest

import owsnb
from owsnb.kernel import codec
from owsnb.kernel.errors import StoreError
from owsnb.kernel.events import note
from owsnb.kernel.game import Annotation, Game
from owsnb.store import SQLiteStore, open_store
from owsnb.store.base import SCHEMA_VERSION, TABLES, NoSuchGame
from tests.store import test_postgres as contract

DATA = contract.DATA
store_url = contract.store_url  # the fixtures of the store contract: SQLite and PostgreSQL
initial = contract.initial

OLD_SCHEMA = """
CREATE TABLE owsnb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, created TEXT NOT NULL,
    initial TEXT NOT NULL, meta TEXT NOT NULL);
CREATE TABLE log (
    game_id TEXT NOT NULL REFERENCES games(id), rev INTEGER NOT NULL, op TEXT NOT NULL,
    seq INTEGER NOT NULL, events TEXT, created TEXT NOT NULL, PRIMARY KEY (game_id, rev));
CREATE TABLE annotations (
    game_id TEXT NOT NULL REFERENCES games(id), id INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (game_id, id));
"""


def old_layout_store(path: Path, initial, *, note_text: str = "a note") -> dict:
    """A store file exactly as owsnb wrote it before the schema was shared (schema 1): two
    batches, an undo and a note. Returns what it holds."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO owsnb_meta VALUES ('format', 'owsnb-event-store'), ('schema', '1')")
    meta = {"seed": 11, "seat:s-1": {"role": "umpire", "side": "umpire", "token_sha256": "ab"}}
    db.execute(
        "INSERT INTO games VALUES (?, ?, ?, ?, ?)",
        (
            "old",
            initial.ruleset,
            "2026-01-01T00:00:00+00:00",
            codec.dumps(initial),
            json.dumps(meta),
        ),
    )
    b1 = [note("first").at(1, 1), note("second").at(2, 1)]
    b2 = [note("third").at(3, 2)]
    db.execute("INSERT INTO log VALUES ('old', 1, 'append', 2, ?, 'x')", (codec.dumps(b1),))
    db.execute("INSERT INTO log VALUES ('old', 2, 'append', 3, ?, 'x')", (codec.dumps(b2),))
    db.execute("INSERT INTO log VALUES ('old', 3, 'truncate', 2, NULL, 'x')")
    ann = Annotation(1, note_text, 2, turn=1, side="blue", author="blue")
    # json.dumps escapes a lone surrogate, so schema-1 owsnb stored such a note without error
    db.execute("INSERT INTO annotations VALUES ('old', 1, ?)", (json.dumps(ann.to_dict()),))
    db.commit()
    db.close()
    return {"events": b1, "rev": 3, "meta": meta, "annotation": ann}


def test_both_backends_have_the_same_tables(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g", initial, {})
        if store_url.startswith("sqlite"):
            rows = st._db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        else:
            with st._tx() as cur:
                cur.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = current_schema()"
                )
                rows = cur.fetchall()
        assert {r[0] for r in rows} == set(TABLES)


def test_a_schema_1_sqlite_store_is_migrated_on_open_losing_nothing(tmp_path, initial) -> None:
    path = tmp_path / "old.owsnb"
    held = old_layout_store(path, initial)
    with SQLiteStore(path, create=False) as st:
        rec = st.load("old")
        tables = {r[0] for r in st._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        schema = dict(st._db.execute("SELECT key, value FROM owsnb_meta"))["schema"]
        fks = st._db.execute("PRAGMA foreign_key_check").fetchall()
        assert rec.events == held["events"] and rec.rev == held["rev"]
        assert rec.meta == held["meta"] and rec.annotations == [held["annotation"]]
        assert rec.initial == initial
        assert tables == set(TABLES) and schema == str(SCHEMA_VERSION) and fks == []
        # and it goes on: the next revision is written into the renamed log
        st.append("old", 4, [note("after").at(3, 3)])
    with SQLiteStore(path, create=False) as again:  # reopened: already migrated, nothing redone
        rec = again.load("old")
        assert [e.data for e in rec.events][-1] == note("after").data and rec.rev == 4
        assert [g["id"] for g in again.games()] == ["old"]


def test_a_store_file_is_private(tmp_path, initial) -> None:
    path = tmp_path / "private.owsnb"
    with SQLiteStore(path) as st:
        st.create_game("g", initial, {"seat:x": {"token_sha256": "..."}})
        files = [p for p in tmp_path.iterdir() if p.name.startswith("private.owsnb")]
        assert len(files) >= 2  # the store and its write-ahead log
        for p in files:
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name


def test_a_full_disk_is_a_store_error_and_loses_nothing(tmp_path, initial) -> None:
    path = tmp_path / "full.owsnb"
    with SQLiteStore(path) as st:
        st.create_game("g", initial, {})
        rs = owsnb.load(DATA / "skirmish.yaml", seed=11, save=False).ruleset
        game = Game(rs, initial, sink=st.sink("g"))
        game.submit("blue: move B-INF-1 0303")
        before = (game.state_id, game.events, st.load("g").rev)
        pages = st._db.execute("PRAGMA page_count").fetchone()[0]
        st._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
        with pytest.raises(StoreError, match="full"):
            game.annotate("x" * 100_000)
        with pytest.raises(StoreError, match="full"):
            st.append("g", 2, [note("y" * 100_000).at(3, 2)])
        assert (game.state_id, game.events, st.load("g").rev) == before
        assert game.annotations == []


def test_a_read_only_database_is_a_store_error(store_url: str, initial) -> None:
    with open_store(store_url) as st:
        st.create_game("g", initial, {})
        if store_url.startswith("sqlite"):
            st._db.execute("PRAGMA query_only = ON")
        else:
            st._db.execute("SET default_transaction_read_only = on")
        for write in (
            lambda: st.append("g", 1, [note("x").at(1, 1)]),
            lambda: st.set_meta("g", {"k": 1}),
            lambda: st.annotate("g", Annotation(1, "x", 0)),
            lambda: st.check(),
        ):
            with pytest.raises(StoreError):
                write()
        assert st.load("g").rev == 0


def test_text_that_cannot_be_stored_is_refused_before_it_is_written(
    store_url: str,
    initial,
) -> None:
    with open_store(store_url) as st:
        st.create_game("g", initial, {})
        for bad in ("x \ud83d", "nul \x00 here"):
            with pytest.raises(ValueError, match="cannot be stored"):
                st.annotate("g", Annotation(1, bad, 0))
            with pytest.raises(ValueError, match="cannot be stored"):
                st.set_meta("g", {"seat:s-1": {"label": bad}})
        with pytest.raises(ValueError, match="cannot be stored"):
            st.append("g", 1, [note("x \ud83d").at(1, 1)])
        rec = st.load("g")
        assert (rec.rev, rec.annotations, rec.meta) == (0, [], {})


def test_a_note_stored_with_a_lone_surrogate_is_repaired_when_read(tmp_path, initial) -> None:
    path = tmp_path / "bad-note.owsnb"
    old_layout_store(path, initial, note_text="x \ud83d")
    with SQLiteStore(path, create=False) as st:
        (ann,) = st.load("old").annotations
    assert ann.text == "x \ufffd"
    ann.text.encode("utf-8")  # can be sent


def test_an_unknown_game_is_its_own_store_error(store_url: str) -> None:
    with open_store(store_url) as st:
        with pytest.raises(NoSuchGame):
            st.load("nope")
        with pytest.raises(NoSuchGame):
            st.set_meta("nope", {"a": 1})


def test_check_refuses_read_only_empty_and_damaged_files(tmp_path, initial) -> None:
    good = tmp_path / "good.owsnb"
    with SQLiteStore(good) as st:
        st.create_game("g", initial, {})
        st.append("g", 1, [note(f"event {i}" * 50).at(i + 1, 1) for i in range(200)])
        st.check()
    ro = tmp_path / "ro.owsnb"
    ro.write_bytes(good.read_bytes())
    ro.chmod(0o444)
    with SQLiteStore(ro, create=False) as st, pytest.raises(StoreError, match="read-only"):
        st.check()
    empty = tmp_path / "empty.owsnb"
    empty.touch()
    with pytest.raises(StoreError, match="empty"):
        SQLiteStore(empty, create=False)
    damaged = tmp_path / "damaged.owsnb"
    data = bytearray(good.read_bytes())
    assert len(data) > 6 * 4096
    data[2 * 4096 : 5 * 4096] = b"\xa5" * (3 * 4096)  # pages 3 to 5 overwritten
    damaged.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged|cannot be read|not an owsnb"):
        with SQLiteStore(damaged, create=False) as st:
            st.check()
