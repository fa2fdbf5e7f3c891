"""A JupyterLab started by a test (loopback, a free port, a temporary root, token auth) and a
headless Debian Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    url: str
    token: str
    root: Path
    process: subprocess.Popen

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}"


NOTIFICATION_SETTINGS = "@jupyterlab/apputils-extension/notification.jupyterlab-settings"


def quiet_notifications(settings_dir: Path) -> Path:
    """Answer JupyterLab 4's news question in advance (``fetchNews: "false"``, no update check)
    in the lab's own user settings, so the toast "Would you like to get notified about official
    Jupyter news?" never covers the page (``--LabApp.news_url=`` alone still asks)."""
    path = settings_dir / NOTIFICATION_SETTINGS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8")
    return path


@contextlib.contextmanager
def jupyter_lab(root: Path, timeout: float = 90.0) -> Iterator[Lab]:
    """Start JupyterLab serving *root*; stop it (and its kernels) on exit."""
    import httpx

    port = free_port()
    token = secrets.token_hex(16)
    for d in ("runtime", "config", "ipython", "workspaces", "settings", "home"):
        (root / f".{d}").mkdir(parents=True, exist_ok=True)
    quiet_notifications(root / ".settings")
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(root / ".runtime"),
        "JUPYTER_CONFIG_DIR": str(root / ".config"),
        "IPYTHONDIR": str(root / ".ipython"),
        "OWSNB_HOME": str(root / ".home"),
        "OWSNB_TESTING": "1",
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={token}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.workspaces_dir={root / '.workspaces'}",
        f"--LabApp.user_settings_dir={root / '.settings'}",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(root / ".lab.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited: {(root / '.lab.log').read_text()[-2000:]}")
            try:
                if (
                    httpx.get(f"{url}/api/status", params={"token": token}, timeout=2).status_code
                    == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"JupyterLab did not start in {timeout}s")
            time.sleep(0.5)
        yield Lab(url, token, root, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def copy_notebook(src: Path, root: Path) -> str:
    shutil.copy(src, root / src.name)
    return src.name


@contextlib.contextmanager
def chromium(width: int = 1600, height: int = 1100) -> Iterator[object]:
    """A headless Debian Chromium page (Playwright's Python API, ``executable_path`` only)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            yield page
        finally:
            browser.close()
