"""The Voila seat dashboards: read the seat link, connect to the authority, show the table.

A seat link opens ``notebooks/seminar/seat.ipynb`` (or ``umpire.ipynb``) in Voila with the seat in
the query string: ``?game=<id>&token=<token>`` (the authority's address then comes from
``$OWSNB_SERVER``, which ``owsnb serve`` sets for its Voila) or ``?url=<game URL>&token=<token>``
(any Voila, e.g. a Binder session). A link that names a seat but cannot be used (a bad token, no
server, an incomplete link) shows a clear message.

Without any seat in the link — README's Binder badge, or the notebook run outside Voila, as CI
does — the seat dashboard offers a **solo demo** instead (:class:`owsnb.pages.demo.DemoPage`).
Pages talk to the authority only through the seat client, as a student's notebook does.

>>> seat_query("game=tutorial&token=abc", server="http://127.0.0.1:8765")
('http://127.0.0.1:8765/games/tutorial', 'abc')
>>> seat_query("url=http%3A%2F%2Fh%3A1%2Fgames%2Fg&token=t")
('http://h:1/games/g', 't')
>>> seat_query("") is None
True
>>> seat_asked(""), seat_asked("game=g"), seat_asked("token=forged")
(False, True, True)
"""

from __future__ import annotations

import html
import os
from typing import Any
from urllib.parse import parse_qs, quote

import ipywidgets as W

__all__ = [
    "PAGE_MAP_HEIGHT",
    "seat_asked",
    "seat_query",
    "wait_for_voila",
    "connect_from_query",
    "seat_page",
    "umpire_page",
    "message",
]

PAGE_MAP_HEIGHT = "max(420px, calc(100vh - 118px))"
"""The map's height on a page: the window less the header line and the map's own bar, so the
whole map is in view (a click on a map partly out of view scrolls the page before it lands)."""

HELP = (
    "Open this dashboard from a seat link: <code>owsnb serve</code> prints one per seat "
    "(umpire, each side, observers). A link ends in <code>?game=…&amp;token=…</code> or "
    "<code>?url=…&amp;token=…</code>."
)


def _query(query: str | None) -> dict[str, list[str]]:
    return parse_qs(os.environ.get("QUERY_STRING", "") if query is None else query)


def seat_asked(query: str | None = None) -> bool:
    """Whether the link names a seat at all (a ``token``, ``game`` or ``url``), usable or not:
    only a link that names none opens the demo; a broken seat link shows its error."""
    q = _query(query)
    return any(v.strip() for k in ("token", "game", "url") for v in q.get(k, []))


def seat_query(query: str | None = None, *, server: str | None = None) -> tuple[str, str] | None:
    """(game URL, token) from a query string (default: Voila's ``$QUERY_STRING``), or ``None``."""
    q = _query(query)
    token = (q.get("token") or [""])[0].strip()
    if not token:
        return None
    if q.get("url"):
        return q["url"][0].rstrip("/"), token
    game = (q.get("game") or [""])[0].strip()
    server = server or os.environ.get("OWSNB_SERVER", "")
    if not game or not server:
        return None
    return f"{server.rstrip('/')}/games/{quote(game)}", token


def wait_for_voila() -> None:
    """In a pre-heated Voila kernel, wait for the page request (and its query string)."""
    try:
        from voila.utils import wait_for_request
    except ImportError:  # not under Voila
        return
    wait_for_request()


def message(title: str, body: str, colour: str = "#1f5fbf") -> Any:
    """A plain message panel (an ``ipywidgets.HTML``; *body* is HTML, *title* is escaped)."""
    return W.HTML(_panel(title, body, colour))


def _panel(title: str, body: str, colour: str = "#1f5fbf") -> str:
    return (
        f"<div style='font:14px system-ui;border-left:4px solid {colour};padding:8px 14px;"
        f"background:#f8fafc;max-width:760px'><b>{html.escape(title)}</b><br>{body}</div>"
    )


def connect_from_query(query: str | None = None) -> tuple[Any, Any]:
    """``(remote seat, None)`` or ``(None, message widget)`` when there is no usable seat link."""
    from owsnb.kernel.errors import AuthError, OwsnbError
    from owsnb.server.client import connect

    found = seat_query(query)
    if found is None:
        if seat_asked(query):
            return None, message(
                "This seat link is incomplete",
                HELP + " On a server started without <code>owsnb serve</code>, use the "
                "<code>?url=…</code> form.",
                "#c0392b",
            )
        return None, message("No seat in this link", HELP)
    url, token = found
    try:
        return connect(url, token), None
    except AuthError as exc:
        return None, message(
            "This seat link is not valid",
            html.escape(str(exc)) + "<br>Ask the umpire for a new link.",
            "#c0392b",
        )
    except (OwsnbError, OSError) as exc:
        return None, message(
            "The game server does not answer",
            f"{html.escape(url)}: {html.escape(str(exc))}"
            "<br>It may be restarting: reload this page in a moment.",
            "#c0392b",
        )


def seat_page(query: str | None = None, *, demo: bool = True, **app_options: Any) -> Any:
    """The side (or observer) dashboard: the seat's live table, or a message; with no seat in
    the link at all (and *demo*), the solo :class:`DemoPage`."""
    app_options.setdefault("map_height", PAGE_MAP_HEIGHT)
    if demo and not seat_asked(query):
        from owsnb.pages.demo import DemoPage

        return DemoPage(**app_options)
    remote, problem = connect_from_query(query)
    if remote is None:
        return problem
    from owsnb.widgets import App

    app = App(remote, **app_options)
    app.remote = remote  # keeps the connection alive with the page
    return app


def umpire_page(query: str | None = None, **app_options: Any) -> Any:
    """The umpire's dashboard: the full table plus the umpire's console (phases, ad hoc
    adjudication, annotations, assessment, seats)."""
    remote, problem = connect_from_query(query)
    if remote is None:
        return problem
    app_options.setdefault("map_height", PAGE_MAP_HEIGHT)
    if remote.role != "umpire":
        return message(
            "This is not the umpire's link",
            "This link opens a player's seat: use the seat dashboard (seat.ipynb) instead.",
            "#c0392b",
        )
    from owsnb.pages.console import UmpireConsole
    from owsnb.widgets import App

    app = App(remote, **app_options)
    console = UmpireConsole(remote)
    page = W.VBox([app, console], layout=W.Layout(width="100%"))
    page.app, page.console, page.remote = app, console, remote
    return page
