"""Fixtures for the browser tests: one JupyterLab (loopback, token) serving the play notebooks and
one headless Debian Chromium per module; a fresh page per test, whose notebook kernel is shut
down after it. No request may leave the machine."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from owsnb.testing.needs import missing
from tests.widgets.lab import CHROMIUM, CHROMIUM_ARGS, Lab, jupyter_lab

NOTEBOOKS = Path(__file__).parent / "notebooks"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    root = tmp_path_factory.mktemp("lab")
    for nb in NOTEBOOKS.glob("*.ipynb"):
        shutil.copy(nb, root / nb.name)
    # no "news" toast over the page (it asks to fetch from the internet)
    settings = root / ".settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}'
    )
    with jupyter_lab(root) as running:
        yield running


@pytest.fixture(scope="module")
def browser(lab: Lab) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(lab: Lab, browser: Any) -> Iterator[Any]:
    """A page that may reach only the Lab; its kernels are shut down afterwards."""
    import httpx

    pg = browser.new_page(viewport={"width": 1600, "height": 1150})
    outside: list[str] = []

    def only_local(route: Any) -> None:
        url = route.request.url
        if url.startswith(lab.url) or url.startswith("data:"):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    pg.route("**/*", only_local)
    pg.outside = outside  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        pg.close()
        auth = {"token": lab.token}
        for s in httpx.get(f"{lab.url}/api/sessions", params=auth, timeout=10).json():
            httpx.delete(f"{lab.url}/api/sessions/{s['id']}", params=auth, timeout=30)
    assert outside == [], f"requests left the machine: {outside[:5]}"
