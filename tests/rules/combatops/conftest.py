"""Helpers for Combat Operations tests: small boards built from the real counter catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import owsnb
from owsnb.kernel.game import Game
from owsnb.rules.combatops import RULESET
from owsnb.rules.combatops.terrain import hexid, parse_hex
from owsnb.scenario.loader import Scenario, load_scenario
from owsnb.scenario.schema import ScenarioSpec

ROOT = Path(__file__).resolve().parents[3]
CATALOG = ROOT / "scenarios" / "catalogs" / "combatops-counters.yaml"
RED_ATTACK = ROOT / "scenarios" / "combatops-red-attack.yaml"
BLUE_ATTACK = ROOT / "scenarios" / "combatops-blue-attack.yaml"


def lab(ref: str) -> str:
    """Kernel label of a rule-book hex id: ``lab("C4") == "0304"``."""
    col = ord(ref[0].upper()) - 64
    return f"{col:02d}{int(ref[1:]):02d}"


def scenario(
    units: list[dict[str, Any]],
    *,
    cols: int = 8,
    rows: int = 6,
    terrain: dict[str, str] | None = None,
    edges: list[dict[str, Any]] | None = None,
    elevation: dict[str, int] | None = None,
    rules: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A scenario dict on a small clear board; hexes are given as rule-book ids (``C4``)."""
    r = {
        "attacker": "blue",
        "defender": "red",
        "supply_heads": {"blue": ["A3"], "red": [f"{chr(64 + cols)}3"]},
        "setup_areas": {"blue": {"cols": "A-D"}, "red": {"cols": "E-Z"}},
    }
    r.update(rules or {})
    us = []
    for u in units:
        u = dict(u)
        if "hex" in u:
            u["hex"] = lab(u["hex"])
        us.append(u)
    return {
        "owsnb": 1,
        "id": "combatops-test",
        "title": "test board",
        "ruleset": "combatops",
        "seed": 5,
        "map": {
            "layout": {"orientation": "flat", "size": 10},
            "cols": cols,
            "rows": rows,
            "terrain": {
                "default": "clear",
                "hexes": {lab(k): v for k, v in (terrain or {}).items()},
            },
            "features": [
                {"hex": lab(k), "type": "elevation", "level": v}
                for k, v in (elevation or {}).items()
            ],
            "edges": [{**e, "hexes": [lab(x) for x in e["hexes"]]} for e in (edges or [])],
        },
        "sides": {"blue": {"color": "#2f5ea8"}, "red": {"color": "#b33a2e"}},
        "catalogs": [str(CATALOG)],
        "units": us,
        "rules": r,
        "options": options or {},
    }


_TYPES: dict[str, Any] = {}


def game(units: list[dict[str, Any]], seed: int = 5, **kw: Any) -> Game:
    """A fresh in-memory game on a small board (the counter catalog is parsed once)."""
    if not _TYPES:
        _TYPES.update(load_scenario(scenario([])).catalogs)
    spec = ScenarioSpec.model_validate(scenario(units, **kw))
    return owsnb.load(Scenario(spec, None, dict(_TYPES)), seed=seed, save=False)


def to_step(g: Game, key: str, limit: int = 200) -> Game:
    """Submit ``done`` for whoever acts until the clock reaches step *key*."""
    for _ in range(limit):
        if g.clock.step == key:
            return g
        g.submit(f"{g.clock.acting[0]}: done")
    raise AssertionError(f"never reached step {key}; at {g.clock}")


def edit(g: Game, uid: str, **changes: Any) -> Game:
    """A new game whose *current* state has unit *uid* changed (hex as rule-book id; data merged)."""
    s = g.state
    if "hex" in changes and isinstance(changes["hex"], str):
        changes["hex"] = parse_hex(s.map, changes["hex"])
    u = s.units[uid].evolve(**changes)
    return Game(RULESET, s.evolve(units={**s.units, uid: u}))


def at(g: Any, uid: str) -> str:
    """Where a unit is (rule-book id, box name, or 'gone')."""
    u = g.state.units.get(uid) if hasattr(g, "state") else g.units.get(uid)
    if u is None:
        return "gone"
    m = g.state.map if hasattr(g, "state") else g.map
    return hexid(m, u.hex) if u.hex is not None else str(u.box)


_SCENARIOS: dict[Path, Scenario] = {}


def load(path: Path, seed: int = 17, **options: Any) -> Game:
    """A bundled scenario (parsed once per test session) as a fresh in-memory game."""
    if path not in _SCENARIOS:
        _SCENARIOS[path] = load_scenario(path)
    return owsnb.load(_SCENARIOS[path], seed=seed, save=False, options=options or None)


@pytest.fixture
def red_attack() -> Game:
    return load(RED_ATTACK, seed=17)


@pytest.fixture
def blue_attack() -> Game:
    return load(BLUE_ATTACK, seed=23)
