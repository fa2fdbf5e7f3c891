"""``owsnb serve``: one command starts the authority on the tutorial and prints the seat links."""

from __future__ import annotations

import argparse
import json
import signal
import stat
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from owsnb.server.cli import _observers, add_serve_command, seat_links
from owsnb.server.runner import bind
from tests.server.conftest import PYTHON, REPO, SKIRMISH, subprocess_env


def run_until_serving(
    args: list[str], env: dict[str, str], timeout: float = 60
) -> tuple[subprocess.Popen, list[str]]:
    proc = subprocess.Popen(
        [PYTHON, "-m", "owsnb", "serve", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip())
        if line.startswith("authority "):
            return proc, lines
    proc.kill()
    raise AssertionError("\n".join(lines))


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_serve_with_no_arguments_starts_the_tutorial_and_prints_seat_links(tmp_path: Path) -> None:
    env = subprocess_env(OWSNB_HOME=str(tmp_path))
    proc, lines = run_until_serving(["--no-voila", "--port", "0"], env)
    try:
        text = "\n".join(lines)
        assert "new game 'tutorial'" in text, text
        seats = [ln.split()[0] for ln in lines if ln.startswith("  ")]
        assert seats == ["umpire", "blue", "red", "observer"], text
        api = lines[-1].split()[1]
        token = next(ln for ln in lines if ln.startswith("  blue")).split("token ")[1].split()[0]
        info = httpx.get(
            f"{api}/games/tutorial", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert info["seat"]["side"] == "blue" and info["ruleset"] == "ows"
        assert (tmp_path / "games" / "seminar.owsnb").exists()
    finally:
        stop(proc)
    assert proc.returncode == 0


def test_serve_a_scenario_then_resume_it(tmp_path: Path) -> None:
    env = subprocess_env(OWSNB_HOME=str(tmp_path))
    store = f"sqlite:///{tmp_path / 'class.owsnb'}"
    links = tmp_path / "links.json"
    proc, lines = run_until_serving(
        [
            str(SKIRMISH),
            "--store",
            store,
            "--port",
            "0",
            "--no-voila",
            "--observer",
            "red:5",
            "--observer",
            "umpire",
            "--links-file",
            str(links),
        ],
        env,
    )
    try:
        data = json.loads(links.read_text())
        assert set(data["seats"]) == {"umpire", "blue", "red", "observer-1", "observer-2"}
        # every token is in the links file, the truth in the store: both the owner's only
        assert stat.S_IMODE(links.stat().st_mode) == 0o600
        assert stat.S_IMODE((tmp_path / "class.owsnb").stat().st_mode) == 0o600
        assert "(red view, 5 events behind)" in "\n".join(lines)
        blue = data["seats"]["blue"]
        r = httpx.post(
            f"{blue['api']}/orders",
            json={"order": "move B-INF-1 0303"},
            headers={"Authorization": f"Bearer {blue['token']}"},
        )
        assert r.status_code == 200 and r.json()["state_id"] == 1
    finally:
        stop(proc)
    proc, lines = run_until_serving(
        ["--resume", "--store", store, "--port", "0", "--no-voila"], env
    )
    try:
        assert "also serving 1 earlier game(s): skirmish-test" in "\n".join(lines)
        api = lines[-1].split()[1]
        r = httpx.get(
            f"{api}/games/skirmish-test", headers={"Authorization": f"Bearer {blue['token']}"}
        )
        assert r.json()["state_id"] == 1  # the same game, the same tokens
    finally:
        stop(proc)


def test_serve_refuses_a_busy_port_clearly(tmp_path: Path) -> None:
    sock = bind("127.0.0.1", 0)
    try:
        out = subprocess.run(
            [
                PYTHON,
                "-m",
                "owsnb",
                "serve",
                str(SKIRMISH),
                "--no-voila",
                "--port",
                str(sock.getsockname()[1]),
            ],
            cwd=REPO,
            env=subprocess_env(OWSNB_HOME=str(tmp_path)),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        sock.close()
    assert (
        out.returncode == 1
        and "cannot listen on 127.0.0.1" in out.stderr
        and "try --port" in out.stderr
    )


def test_parser_and_helpers() -> None:
    p = argparse.ArgumentParser()
    add_serve_command(p.add_subparsers(dest="command"))
    a = p.parse_args(
        [
            "serve",
            "tutorial",
            "--store",
            "postgresql://x@h/db",
            "--port",
            "9000",
            "--observer",
            "blue:3",
        ]
    )
    assert (a.scenario, a.store, a.port, a.observer) == (
        "tutorial",
        "postgresql://x@h/db",
        9000,
        ["blue:3"],
    )
    assert _observers(["blue:3", "umpire"]) == [("blue", 3), ("umpire", 0)]
    assert _observers(["none"]) == [] and _observers(None) == [("umpire", 20)]
    with pytest.raises(SystemExit):
        _observers(["blue:soon"])
    from owsnb.server.seats import Seat

    seat, _ = Seat.new("side", side="blue")
    out = seat_links("http://h:1", "g 1", {"blue": "tok"}, {"blue": seat}, "http://h:2")
    assert out["blue"]["api"] == "http://h:1/games/g%201"
    assert out["blue"]["link"] == "http://h:2/voila/render/seat.ipynb?game=g+1&token=tok"


def test_resume_refuses_a_store_it_cannot_serve_in_one_line(tmp_path: Path) -> None:
    """``--resume`` on a read-only store started without a warning, on a zero-length store served
    nothing silently (old links 404), on a damaged one printed a traceback."""
    env = subprocess_env(OWSNB_HOME=str(tmp_path))
    good = tmp_path / "good.owsnb"
    from owsnb.kernel.events import note
    from owsnb.server.authority import Authority
    from owsnb.store import open_store

    with open_store(good) as st:
        gid = Authority(st).create_game(SKIRMISH, seed=1).game_id
        st.append(gid, 1, [note(f"event {i}" * 40).at(i + 1, 1) for i in range(300)])
    read_only = tmp_path / "ro.owsnb"
    read_only.write_bytes(good.read_bytes())
    read_only.chmod(0o444)
    empty = tmp_path / "empty.owsnb"
    empty.touch()
    damaged = tmp_path / "damaged.owsnb"
    data = bytearray(good.read_bytes())
    data[3 * 4096 : 8 * 4096] = b"\x5a" * (5 * 4096)
    damaged.write_bytes(bytes(data))
    cases = {
        read_only: "read-only",
        empty: "empty",
        damaged: "",
        tmp_path / "missing.owsnb": "no such game file",
    }
    for path, says in cases.items():
        out = subprocess.run(
            [PYTHON, "-m", "owsnb", "serve", "--resume", "--store", str(path), "--port", "0"]
            + ["--no-voila"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 1, (path.name, out.stdout, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("owsnb serve: "), out.stderr
        assert says in lines[0] and "Traceback" not in out.stderr, lines
    assert not (tmp_path / "missing.owsnb").exists()  # --resume creates nothing
    assert empty.stat().st_size == 0


def test_the_umpire_gets_a_link_to_the_scenario_editor() -> None:
    """Issue 23: ``owsnb serve`` links the umpire (only) to the editor page, with the umpire's
    own game and token (the page refuses any other seat's)."""
    from owsnb.server.seats import Seat

    umpire, _ = Seat.new("umpire", side="umpire")
    blue, _ = Seat.new("side", side="blue")
    out = seat_links(
        "http://h:1",
        "g",
        {"umpire": "u", "blue": "b"},
        {"umpire": umpire, "blue": blue},
        "http://h:2",
    )
    assert out["umpire"]["editor"] == "http://h:2/voila/render/editor.ipynb?game=g&token=u"
    assert "editor" not in out["blue"]
    assert (
        "editor"
        not in seat_links("http://h:1", "g", {"umpire": "u"}, {"umpire": umpire}, None)["umpire"]
    )
