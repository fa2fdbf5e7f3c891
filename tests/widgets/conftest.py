"""Fixtures for the widget tests: the skirmish scenario (near Wesel) with presentation hooks."""

from __future__ import annotations

import pytest

from tests.widgets.plus import plus_game


@pytest.fixture
def pgame():
    """A fresh skirmish game (seed 11) played with the SkirmishPlus rule set."""
    return plus_game()
