"""Issue 7.3: notebooks run unchanged against a remote game.

Each notebook below is executed top to bottom (fresh kernel, no network beyond loopback) with its
game coming from a real ``owsnb serve`` subprocess: the test starts the server with the scenario
and seed the notebook loads, and the kernel starts with an IPython startup file (in a private
``IPYTHONDIR``, so nothing of the notebook changes) that makes ``owsnb.load`` connect to that
game's umpire seat and ``owsnb.resume`` reconnect to it. Every cell then talks to a
:class:`~owsnb.server.client.RemoteGame`; the test checks that it did (the kernel's game is
remote) and that the served game's history holds what the notebook played.

Not run this way: notebooks that fork the game (``06`` forks a day of play; a seat cannot fork:
``RemoteGame.fork``) or build one in memory rather than loading it.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from owsnb.server.runner import bind
from tests.server.conftest import PYTHON, REPO, subprocess_env

pytestmark = pytest.mark.slow

#: notebook -> (scenario, seed) it loads with ``owsnb.load``
NOTEBOOKS = {
    "00-quickstart": ("tutorial", 1),
    "01-play": ("tutorial", 7),
}

STARTUP = '''\
"""owsnb test: this kernel's owsnb.load / owsnb.resume connect to a served game."""
import json as _json
import os as _os

import owsnb as _owsnb

_LINKS = _json.loads(open(_os.environ["OWSNB_REMOTE_LINKS"]).read())
_WANT = tuple(_json.loads(_os.environ["OWSNB_REMOTE_WANTS"]))
_SEAT = _LINKS["seats"]["umpire"]
_owsnb.remote_games = []


def _connect():
    game = _owsnb.connect(_SEAT["api"], token=_SEAT["token"])
    _owsnb.remote_games.append(game)
    return game


def _load(scenario, seed=None, **_kw):
    if (str(scenario), seed) != _WANT:
        raise AssertionError(f"the server holds {_WANT}, the notebook loads {(scenario, seed)}")
    return _connect()


def _resume(*_a, **_kw):
    return _connect()


_owsnb.load = _load
_owsnb.resume = _resume
'''


def _free_port() -> int:
    s = bind("127.0.0.1", 0)
    port = s.getsockname()[1]
    s.close()
    return port


def _serve(tmp: Path, scenario: str, seed: int) -> tuple[subprocess.Popen, dict[str, Any]]:
    links = tmp / "links.json"
    log = open(tmp / "serve.log", "w")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "owsnb",
            "serve",
            scenario,
            "--seed",
            str(seed),
            "--no-voila",
            "--observer",
            "none",
            "--port",
            str(_free_port()),
            "--store",
            f"sqlite:///{tmp / 'seminar.owsnb'}",
            "--links-file",
            str(links),
        ],
        cwd=REPO,
        env=subprocess_env(OWSNB_HOME=str(tmp / "home")),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError((tmp / "serve.log").read_text()[-3000:])
        if links.exists() and "authority" in (tmp / "serve.log").read_text():
            return proc, json.loads(links.read_text())
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("owsnb serve did not start: " + (tmp / "serve.log").read_text()[-3000:])


@pytest.mark.parametrize(
    "name",
    [
        "00-quickstart",
        "01-play",
    ],
)
def test_notebook_runs_against_a_served_game(name: str, tmp_path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    from owsnb.server.client import connect

    scenario, seed = NOTEBOOKS[name]
    proc, links = _serve(tmp_path, scenario, seed)
    try:
        ipython = tmp_path / "ipython"
        (ipython / "profile_default" / "startup").mkdir(parents=True)
        (ipython / "profile_default" / "startup" / "00-owsnb-remote.py").write_text(STARTUP)
        (tmp_path / "links-kernel.json").write_text(json.dumps(links))
        path = REPO / "notebooks" / f"{name}.ipynb"
        nb = nbformat.read(path, as_version=4)
        nb.cells.append(
            nbformat.v4.new_code_cell(
                "import owsnb as _o\n"
                "print('REMOTE', [type(g).__name__ for g in _o.remote_games], "
                "max(g.state_id for g in _o.remote_games))"
            )
        )
        client = NotebookClient(
            nb,
            timeout=300,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        client.execute(
            env={
                **os.environ,
                "IPYTHONDIR": str(ipython),
                "OWSNB_HOME": str(tmp_path / "home"),
                "OWSNB_TESTING": "1",
                "OWSNB_REMOTE_LINKS": str(tmp_path / "links-kernel.json"),
                "OWSNB_REMOTE_WANTS": json.dumps([scenario, seed]),
            }
        )
        errors = [
            o
            for c in nb.cells
            if c.cell_type == "code"
            for o in c.get("outputs", [])
            if o.get("output_type") == "error"
        ]
        assert not errors, f"{name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
        last = "".join(o.get("text", "") for o in nb.cells[-1].get("outputs", []))
        assert last.startswith("REMOTE ['RemoteGame'"), last
        played = int(last.split()[-1])
        # the served game holds what the notebook played, and no notebook game was local
        umpire = links["seats"]["umpire"]
        with connect(umpire["api"], umpire["token"], listen=False) as seat:
            assert seat.state_id == played
            assert seat.seq > 0 or name == "01-play"
        assert not list((tmp_path / "home").rglob("*.owsnb"))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
