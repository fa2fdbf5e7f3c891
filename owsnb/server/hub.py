"""Behind JupyterHub: ``owsnb serve`` as a ``jupyter-server-proxy`` server.

A hub user (the umpire) finds **owsnb seminar** in the JupyterLab launcher; clicking it starts
``owsnb serve --hub <prefix>`` inside the user's server, proxied at ``<base_url>owsnb/`` (the
authority sees paths without the prefix). The entry point is declared in ``pyproject.toml``::

    [project.entry-points.jupyter_serverproxy_servers]
    owsnb = "owsnb.server.hub:setup_owsnb"

In hub mode the server resumes the games of its store (``$OWSNB_HOME/games/seminar.owsnb``) or,
if there are none, creates the tutorial; writes the seat links to
``$OWSNB_HOME/seminar-links.json`` (0600: only the user reads it, in JupyterLab); builds the links
on ``$OWSNB_PUBLIC_URL`` (the hub's address as students reach it, set by the hub's admin) plus the
proxy prefix; and runs no Voila (students use their own notebooks or Voila). Requests through the
proxy carry Jupyter's own credential in ``Authorization``, so a seat's token travels in the
``X-Owsnb-Seat`` header instead: ``owsnb.connect(link, token, headers={"Authorization": "token
…"})`` does that by itself.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

__all__ = ["setup_owsnb", "PREFIX"]

PREFIX = "owsnb"
"""Where jupyter-server-proxy serves the authority, under the Jupyter server's base URL."""


def setup_owsnb() -> dict[str, Any]:
    """The ``jupyter-server-proxy`` configuration of the owsnb authority (``{port}`` and
    ``{base_url}`` are filled in by the proxy)."""
    icon = Path(__file__).with_name("owsnb.svg")
    return {
        "command": [
            sys.executable,
            "-m",
            "owsnb",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "{port}",
            "--hub",
            "{base_url}" + PREFIX,
        ],
        "timeout": 120,
        "absolute_url": False,
        "new_browser_tab": True,
        "launcher_entry": {
            "enabled": True,
            "title": "owsnb seminar",
            **({"icon_path": str(icon)} if icon.exists() else {}),
        },
    }
