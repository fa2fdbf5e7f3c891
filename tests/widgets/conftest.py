"""Fixtures for the widget tests: the skirmish scenario (near Wesel) with presentation hooks."""

from __future__ import annotations

import pytest

from tests.widgets.plus import plus_game


@pytest.fixture
def pgame():
    """A fresh skirmish game (seed 11) played with the SkirmishPlus rule set."""
    return plus_game()


def pytest_collection_modifyitems(config, items):
    """A widget that fails while the game notifies it is a bug: the game only warns, tests fail."""
    here = str(__file__).rsplit("/", 1)[0]
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.filterwarnings("error:owsnb subscriber:RuntimeWarning"))
