"""The top-level entry points: ``owsnb.load``, ``owsnb.resume``, ``owsnb.load_ruleset``."""

from __future__ import annotations

import datetime as _dt
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import owsnb.rules  # noqa: F401  (registers the built-in rule sets)
from owsnb.kernel.errors import StoreError
from owsnb.kernel.game import Game
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import GameState
from owsnb.scenario.loader import Scenario, build_state, load_scenario
from owsnb.store.base import open_store

__all__ = ["load", "resume", "load_ruleset", "games_dir", "new_game"]


def games_dir() -> Path:
    """Where autosaved games go: ``$OWSNB_HOME/games`` (default ``~/.owsnb/games``)."""
    return Path(os.environ.get("OWSNB_HOME", Path.home() / ".owsnb")).expanduser() / "games"


def load_ruleset(name: str) -> Any:
    """The rule set registered as *name* (``"ows"``, ``"opart"``, ...).

    Example:
        >>> load_ruleset("ows").name
        'ows'
    """
    return get_ruleset(name)


def load(
    scenario: str | os.PathLike | Mapping[str, Any] | Scenario,
    seed: int | None = None,
    *,
    save: bool | str | os.PathLike = True,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Start a game from a scenario file, a bundled scenario name, or a scenario dict.

    Args:
        scenario: ``"tutorial"``, ``"path/to/file.yaml"``, a dict, or a loaded :class:`Scenario`.
        seed: dice seed; if omitted the scenario's seed, else a fresh one (recorded in
            ``game.meta["seed"]`` so the game can be reproduced).
        save: ``True`` autosaves every committed event to a new file under :func:`games_dir`;
            a path autosaves there; ``False`` keeps the game in memory only.
        options: rule-set option overrides.

    Returns:
        a :class:`~owsnb.kernel.game.Game`.

    Raises:
        ScenarioError: the scenario is broken (every problem listed, each located).

    Example:
        >>> from owsnb.kernel.registry import register_ruleset
        >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
        >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
        >>> game = load(SCENARIO, seed=11, save=False)  # in memory only
        >>> game.meta["seed"], game.sides, str(game.clock)
        (11, ['blue', 'red'], 'Turn 1 · Phase 1 Movement · Blue acts')
        >>> import pathlib, tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = pathlib.Path(tmp.name) / "g.owsnb"
        >>> saved = load(SCENARIO, seed=11, save=path)
        >>> _ = saved.submit("blue: move B-INF-1 0303")  # autosaved
        >>> resume(path).state_id
        1
        >>> tmp.cleanup()
    """
    scn = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    if seed is None:
        seed = scn.spec.seed if scn.spec.seed is not None else secrets.randbits(32)
    state, rs = build_state(scn, seed, options=options)
    meta: dict[str, Any] = {
        "seed": seed,
        "scenario": scn.spec.id,
        "scenario_file": str(scn.path) if scn.path else None,
    }
    if save is False:
        return Game(rs, state, meta=meta)
    if save is True:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = games_dir() / f"{scn.spec.id}-{stamp}-{seed}.owsnb"
        n = 1
        while path.exists():
            path = path.with_name(f"{scn.spec.id}-{stamp}-{seed}-{n}.owsnb")
            n += 1
    else:
        path = Path(save).expanduser()
        if path.exists():
            raise StoreError(
                f"{path} already exists; use owsnb.resume({str(path)!r}) to continue it, "
                "or choose another file"
            )
    store = open_store(str(path))
    game_id = scn.spec.id
    store.create_game(game_id, state, meta)
    return Game(rs, state, sink=store.sink(game_id), meta={**meta, "store": str(path)})


def new_game(
    ruleset: Any,
    state: GameState,
    *,
    save: str | os.PathLike | None = None,
    meta: Mapping[str, Any] | None = None,
) -> Game:
    """A game from an initial state built in code (optionally autosaved to *save*).

    Example:
        >>> import pathlib, tempfile
        >>> from owsnb.kernel.registry import register_ruleset
        >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
        >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
        >>> state = load(SCENARIO, seed=11, save=False).initial
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = pathlib.Path(tmp.name) / "g.owsnb"
        >>> game = new_game(load_ruleset("skirmish"), state, save=path, meta={"note": "in code"})
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> again = resume(path)
        >>> again.meta["note"], again.unit("B-INF-1").hex == game.unit("B-INF-1").hex
        ('in code', True)
        >>> tmp.cleanup()
    """
    if save is None:
        return Game(ruleset, state, meta=meta)
    store = open_store(str(save))
    gid = str(state.scenario.get("id", "game"))
    store.create_game(gid, state, dict(meta or {}))
    return Game(ruleset, state, sink=store.sink(gid), meta={**(meta or {}), "store": str(save)})


def resume(path: str | os.PathLike | None = None, game_id: str | None = None) -> Game:
    """Rebuild a saved game exactly as it was after its last committed order.

    Args:
        path: the game file (default: the most recently changed file in :func:`games_dir`).
        game_id: which game, if the file holds several.

    Raises:
        StoreError: no such file, not an owsnb game file, or damaged.

    Example:
        >>> import pathlib, tempfile
        >>> from owsnb.kernel.registry import register_ruleset
        >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
        >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = pathlib.Path(tmp.name) / "g.owsnb"
        >>> game = load(SCENARIO, seed=11, save=path)
        >>> _ = game.submit("blue: move B-INF-1 0303")
        >>> _ = game.annotate("across the ford")
        >>> again = resume(path)  # exactly as it was after its last order
        >>> again.state == game.state, [a.text for a in again.annotations], again.meta["seed"]
        (True, ['across the ford'], 11)
        >>> resume(pathlib.Path(tmp.name) / "missing.owsnb")
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.StoreError: .../missing.owsnb: no such game file
        >>> tmp.cleanup()
    """
    if path is None:
        files = sorted(games_dir().glob("*.owsnb"), key=lambda p: p.stat().st_mtime)
        if not files:
            raise StoreError(f"no saved games in {games_dir()}")
        path = files[-1]
    url = str(path)
    store = open_store(url, create=False)
    rec = store.load(game_id)
    rs = get_ruleset(rec.ruleset)
    meta = {**rec.meta, "store": url}
    return Game(
        rs,
        rec.initial,
        rec.events,
        sink=store.sink(rec.game_id),
        rev=rec.rev,
        annotations=rec.annotations,
        meta=meta,
    )
