"""The embedded SQLite event store: exact resume, undo persisted, crash safety, clear errors."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import owsnb
from owsnb.kernel import StaleStateError, StoreError
from owsnb.store import SQLiteStore, open_store
from tests.conftest import DATA
from tests.properties.test_replay_properties import play

ROOT = Path(__file__).resolve().parents[2]


def test_resume_rebuilds_the_game_exactly(tmp_path):
    path = tmp_path / "g.owsnb"
    g = owsnb.load(DATA / "skirmish.yaml", seed=5, save=path)
    play(g, 5, 30)
    g.annotate("first contact", hex="0503")
    g.undo()
    r = owsnb.resume(path)
    assert r.state == g.state and r.events == g.events and r.state_id == g.state_id
    assert r.annotations == g.annotations
    assert r.meta["seed"] == 5
    # play on from the resumed game: the dice continue exactly as they would have
    a = g.fork()
    o = play(r, 99, 10)
    for order in o:
        a.submit(order)
    assert a.events == r.events


def test_autosave_default_location_and_resume_latest(tmp_path, monkeypatch):
    monkeypatch.setenv("OWSNB_HOME", str(tmp_path))
    g = owsnb.load(DATA / "skirmish.yaml", seed=3)
    assert Path(g.meta["store"]).parent == tmp_path / "games"
    g.submit("blue: done")
    assert owsnb.resume().events == g.events


def test_second_writer_with_a_stale_revision_is_refused(tmp_path):
    path = tmp_path / "g.owsnb"
    g1 = owsnb.load(DATA / "skirmish.yaml", seed=5, save=path)
    g2 = owsnb.resume(path)
    g1.submit("blue: done")
    before = g2.state
    with pytest.raises(StaleStateError):
        g2.submit("blue: done")
    assert g2.state == before and g2.seq == 0  # nothing changed in the loser's memory
    assert owsnb.resume(path).events == g1.events


def test_existing_file_is_never_overwritten(tmp_path):
    path = tmp_path / "g.owsnb"
    owsnb.load(DATA / "skirmish.yaml", seed=5, save=path)
    with pytest.raises(StoreError, match="already exists"):
        owsnb.load(DATA / "skirmish.yaml", seed=5, save=path)


def test_foreign_and_missing_files_give_clear_errors(tmp_path):
    text = tmp_path / "notes.owsnb"
    text.write_text("these are my notes, not a game\n" * 100)
    with pytest.raises(StoreError, match="not an owsnb game file"):
        owsnb.resume(text)
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="SQLite database but not an owsnb game file"):
        owsnb.resume(other)
    with pytest.raises(StoreError, match="no such game file"):
        owsnb.resume(tmp_path / "missing.owsnb")
    with pytest.raises(StoreError, match="unknown store URL"):
        open_store("ftp://example.org/game")
    assert text.read_text().startswith("these are my notes")  # untouched


def test_store_lists_games_and_refuses_duplicates(tmp_path):
    g = owsnb.load(DATA / "skirmish.yaml", seed=5, save=False)
    with SQLiteStore(tmp_path / "many.owsnb") as s:
        s.create_game("a", g.initial)
        s.create_game("b", g.initial, {"title": "second"})
        with pytest.raises(StoreError, match="already exists"):
            s.create_game("a", g.initial)
        assert [r["id"] for r in s.games()] == ["a", "b"]
        with pytest.raises(StoreError, match="holds 2 games"):
            s.load()
        assert s.load("b").meta == {"title": "second"}


WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    import tests.conftest
    import owsnb
    from tests.properties.test_replay_properties import play
    g = owsnb.load({scenario!r}, seed=7, save={path!r})
    import numpy as np
    rng = np.random.default_rng(7)
    n = 0
    while True:
        side = g.clock.acting[0] if g.clock.acting else None
        if side is None or g.is_over():
            break
        order = g.legal_orders(side).sample(rng) or f"{{side}}: done"
        g.submit(order)
        n += 1
        print("committed", g.seq, flush=True)
""")


@pytest.mark.parametrize("kill_after", [3, 17, 40])
def test_killed_writer_loses_nothing_committed(tmp_path, kill_after):
    path = tmp_path / "crash.owsnb"
    script = WRITER.format(root=str(ROOT), scenario=str(DATA / "skirmish.yaml"), path=str(path))
    env = {**os.environ, "OWSNB_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    committed = 0
    deadline = time.time() + 60
    assert proc.stdout is not None
    for line in proc.stdout:
        committed = int(line.split()[1])
        if committed >= kill_after or time.time() > deadline:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    g = owsnb.resume(path)
    assert g.seq >= committed > 0
    from owsnb.kernel.reduce import apply_all

    assert apply_all(g.initial, g.events) == g.state
