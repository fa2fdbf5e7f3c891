"""The owsnb command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import owsnb
from owsnb.cli import main
from tests.conftest import DATA
from tests.properties.test_replay_properties import play

ROOT = Path(__file__).resolve().parents[1]


def test_validate_ok_and_broken(tmp_path, capsys):
    assert main(["validate", str(DATA / "skirmish.yaml")]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and "80 hexes, 6 units" in out
    broken = tmp_path / "broken.yaml"
    broken.write_text((DATA / "skirmish.yaml").read_text().replace('hex: "0203"', 'hex: "9999"'))
    (tmp_path / "skirmish-units.yaml").write_text((DATA / "skirmish-units.yaml").read_text())
    assert main(["validate", str(DATA / "skirmish.yaml"), str(broken)]) == 1
    err = capsys.readouterr().err
    assert "FAIL" in err and "units[0].hex" in err and "off the map" in err and str(broken) in err


def test_info(capsys):
    assert main(["info", str(DATA / "skirmish.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Skirmish on the Rhine" in out and "blue: Blue — 3 units" in out and "10 km" in out


def test_replay_prints_history_per_side_and_verifies(tmp_path, capsys):
    path = tmp_path / "g.owsnb"
    g = owsnb.load(DATA / "skirmish.yaml", seed=4, save=path)
    play(g, 4, 25)
    assert main(["replay", str(path), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "replay matches the stored state" in out
    assert main(["replay", str(path), "--side", "red"]) == 0
    red = capsys.readouterr().out
    hidden = [u.id for u in g.units.values() if u.side == "blue" and "red" not in u.seen_by]
    moved_hidden = [e for e in g.events if e.kind == "unit.move" and e.data["id"] in hidden]
    if moved_hidden:
        assert f"id={moved_hidden[0].data['id']}" not in red


def test_errors_exit_nonzero_with_a_message(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.owsnb")]) == 1
    assert "no such game file" in capsys.readouterr().err


def test_console_script_help():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "owsnb", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "validate" in out.stdout and "replay" in out.stdout
