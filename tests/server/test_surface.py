"""The Game surface (issue 17): the local :class:`~owsnb.kernel.game.Game` and the seat client
:class:`~owsnb.server.client.RemoteGame` offer the same methods (ARCHITECTURE.md, "Persistence and
seats": "the client handle offers the same methods as the local Game"), and the truth and a
view offer the same read API (:class:`~owsnb.kernel.state.StateLike`). mypy checks the same
promise statically (``owsnb/kernel/surface.py``, ``owsnb/server/client.py``)."""

from __future__ import annotations

import inspect

from owsnb.kernel.game import Game
from owsnb.kernel.state import GameState, StateLike
from owsnb.kernel.surface import GameSurface
from owsnb.kernel.view import SideView
from owsnb.server.client import RemoteGame


def _members(proto: type) -> dict[str, object]:
    return {
        n: v
        for n, v in vars(proto).items()
        if not n.startswith("_") and (callable(v) or isinstance(v, property))
    }


def _accepts(impl: object, name: str, param: inspect.Parameter) -> bool:
    params = inspect.signature(impl).parameters  # type: ignore[arg-type]
    if name in params:
        return params[name].kind in (param.kind, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    kinds = {p.kind for p in params.values()}
    return param.kind == inspect.Parameter.KEYWORD_ONLY and inspect.Parameter.VAR_KEYWORD in kinds


def test_game_and_remote_game_offer_every_method_of_the_game_surface_with_its_parameters():
    members = _members(GameSurface)
    assert {"submit", "legal_orders", "view", "undo", "step_to", "subscribe"} <= set(members)
    for cls in (Game, RemoteGame):
        for name, proto in members.items():
            impl = getattr(cls, name, None)
            if isinstance(proto, property):
                # a property, or (ruleset) an attribute each instance sets
                assert impl is None or isinstance(impl, property), f"{cls.__name__}.{name}"
                continue
            assert callable(impl), f"{cls.__name__} has no method {name}"
            for pname, p in inspect.signature(proto).parameters.items():
                if pname == "self":
                    continue
                assert _accepts(impl, pname, p), f"{cls.__name__}.{name} does not take {pname}"


def test_a_local_game_and_a_seat_on_a_served_game_are_both_game_surfaces(served, game):
    seat = served.connect("blue")
    assert isinstance(game, GameSurface) and isinstance(seat, GameSurface)
    assert not isinstance(object(), GameSurface)
    # the same call reads the same kind of thing through either
    assert isinstance(game.state, StateLike) and isinstance(seat.state, StateLike)
    assert isinstance(game.state, GameState) and isinstance(seat.state, SideView)
    assert game.legal_orders("blue").side == seat.legal_orders("blue").side == "blue"


def test_the_truth_and_a_view_are_both_state_like(game):
    view = game.view("red")
    assert isinstance(game.state, StateLike) and isinstance(view, StateLike)
    assert not isinstance(game, StateLike)  # a Game is a handle, not a state
    assert game.state.units_of("red") and view.units_of("red")
