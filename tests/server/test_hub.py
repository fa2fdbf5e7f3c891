"""Behind JupyterHub: a real Jupyter server with jupyter-server-proxy on loopback starts
``owsnb serve --hub`` from its launcher entry, and the seat links work through the proxied URL
(HTTP and WebSocket pushes), with Jupyter's own credential in front of the seat token."""

from __future__ import annotations

import json
import secrets
import stat
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest

from owsnb.server.client import connect
from owsnb.server.hub import PREFIX, setup_owsnb
from owsnb.server.runner import bind
from tests.server.conftest import PYTHON, REPO, subprocess_env


def test_the_entry_point_names_the_proxy_setup() -> None:
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())
    target = meta["project"]["entry-points"]["jupyter_serverproxy_servers"]["owsnb"]
    assert target == "owsnb.server.hub:setup_owsnb"
    cfg = setup_owsnb()
    assert cfg["command"][:4] == [sys.executable, "-m", "owsnb", "serve"]
    assert "{port}" in cfg["command"] and "{base_url}owsnb" in cfg["command"]
    assert cfg["launcher_entry"]["title"] == "owsnb seminar" and cfg["absolute_url"] is False
    assert Path(cfg["launcher_entry"]["icon_path"]).exists()


@pytest.mark.slow
def test_a_hub_user_starts_the_seminar_from_the_launcher(tmp_path: Path) -> None:
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sock.close()
    jtoken = secrets.token_hex(16)
    conf = tmp_path / "jupyter"
    conf.mkdir()
    # what the entry point gives jupyter-server-proxy (the installed package registers it by
    # itself; the test runs from a source tree, so the configuration names it)
    (conf / "jupyter_server_config.py").write_text(
        "from owsnb.server.hub import setup_owsnb\n"
        "c.ServerProxy.servers = {'owsnb': setup_owsnb()}\n"
        "c.ServerApp.jpserver_extensions = {'jupyter_server_proxy': True}\n"
    )
    home = tmp_path / "home"
    public = f"http://127.0.0.1:{port}"
    env = subprocess_env(
        JUPYTER_CONFIG_DIR=str(conf),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_DATA_DIR=str(tmp_path / "data"),
        OWSNB_HOME=str(home),
        OWSNB_PUBLIC_URL=public,  # the hub's address as students reach it (set by the admin)
    )
    env["OWSNB_RULESETS"] = ""
    log = open(tmp_path / "jupyter.log", "w")  # noqa: SIM115
    jupyter = subprocess.Popen(
        [PYTHON, "-m", "jupyter_server", "--no-browser", "--allow-root", f"--port={port}"]
        + [
            "--ip=127.0.0.1",
            f"--IdentityProvider.token={jtoken}",
            f"--ServerApp.root_dir={tmp_path}",
        ],
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    auth = {"Authorization": f"token {jtoken}"}
    seats = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{public}/api/status", headers=auth, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        info = httpx.get(f"{public}/server-proxy/servers-info", headers=auth, timeout=10).json()
        entry = next(s for s in info["server_processes"] if s["name"] == PREFIX)
        assert entry["launcher_entry"]["title"] == "owsnb seminar"
        # the launcher opens <base_url>owsnb/: the proxy starts owsnb serve and shows its page
        page = httpx.get(f"{public}/{PREFIX}/", headers=auth, timeout=150)
        assert page.status_code == 200 and "owsnb seminar server" in page.text, page.text[:300]
        links_file = home / "seminar-links.json"
        assert stat.S_IMODE(links_file.stat().st_mode) == 0o600
        links = json.loads(links_file.read_text())
        umpire, blue = links["seats"]["umpire"], links["seats"]["blue"]
        assert umpire["api"] == f"{public}/{PREFIX}/games/{links['game']}"
        # without Jupyter's credential the proxy lets nobody through
        assert httpx.get(umpire["api"], timeout=10).status_code in (302, 403)
        ump = connect(umpire["api"], umpire["token"], headers=auth)
        side = connect(blue["api"], blue["token"], headers=auth)
        seats += [ump, side]
        deadline = time.monotonic() + 30
        while not (ump.connected and side.connected) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ump.connected and side.connected, (ump.error, side.error)
        assert ump.title and ump.view().side == "umpire" and side.view().side == "blue"
        acting = ump.view().clock.acting
        order = f"{acting[0]}: done" if acting else "umpire: advance"
        sub = ump.submit(order, state_id=ump.state_id)
        assert side.wait(sub.state_id, 20), "blue heard nothing through the proxy"
        assert side.view() == ump.view("blue")
        # a wrong seat token is refused by the authority behind the proxy
        r = httpx.get(umpire["api"], headers={**auth, "X-Owsnb-Seat": "nope"}, timeout=10)
        assert r.status_code == 401 and r.json()["error"] == "AuthError"
    finally:
        for s in seats:
            s.close()
        jupyter.terminate()
        try:
            jupyter.wait(20)
        except subprocess.TimeoutExpired:
            jupyter.kill()
        log.close()
