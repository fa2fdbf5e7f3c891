"""Seminar play: an authority server that holds the truth, seats with tokens, a remote client.

* :class:`~owsnb.server.authority.Authority` — owns the games of one event store (SQLite or
  PostgreSQL), validates every order with the rule set, serialises submissions per game, and
  answers each seat with only its side's view;
* :func:`~owsnb.server.app.make_app` — the HTTP JSON API and WebSocket push (Starlette, ASGI);
* :mod:`~owsnb.server.seats` — seats and their hashed tokens (umpire, sides, delayed observers);
* :func:`~owsnb.server.client.connect` — ``owsnb.connect(url, token)``: a handle with the local
  Game's methods (and the widgets' seat surface) on a served game;
* :mod:`~owsnb.server.cli` — ``owsnb serve``: one command that starts the authority and the Voila
  seat dashboards and prints the seat links.

Starlette + uvicorn rather than a Jupyter server extension: the authority must run apart from
every seat's kernel and from Voila (a student's Binder, a JupyterHub or several server processes
reach it over HTTP), ASGI gives WebSockets and an in-process test client, and a small
stand-alone app is also what JupyterHub runs as a managed service.
"""

from owsnb.server.authority import Authority, CreatedGame
from owsnb.server.client import RemoteGame, connect
from owsnb.server.seats import Seat

__all__ = ["Authority", "CreatedGame", "RemoteGame", "Seat", "connect", "make_app", "ServerThread"]


def __getattr__(name: str):  # noqa: ANN202 - lazy: the client must not need starlette/uvicorn
    if name == "make_app":
        from owsnb.server.app import make_app

        return make_app
    if name == "ServerThread":
        from owsnb.server.runner import ServerThread

        return ServerThread
    raise AttributeError(name)
