"""Shared fixtures: the kernel test rule set is registered and games are never saved in $HOME."""

from __future__ import annotations

from pathlib import Path

import pytest

from owsnb.kernel.registry import register_ruleset

DATA = Path(__file__).parent / "data"
register_ruleset("skirmish", "tests.rulesets.skirmish:RULESET")


@pytest.fixture(autouse=True)
def _owsnb_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("owsnb-home")
    monkeypatch.setenv("OWSNB_HOME", str(home))
    return home


@pytest.fixture
def skirmish_file() -> Path:
    return DATA / "skirmish.yaml"


@pytest.fixture
def game(skirmish_file: Path):
    import owsnb

    return owsnb.load(skirmish_file, seed=11, save=False)
