"""Scripted dice for worked examples: ``fixed_dice([6, 1, 3])``.

>>> d = fixed_dice([3, 8])
>>> d.roll(10, purpose="example"), d.roll("d12", purpose="example")
(3, 8)
>>> d.roll(6, purpose="one too many")
Traceback (most recent call last):
...
AssertionError: fixed_dice ran out of results (2 given)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from owsnb.kernel.dice import Dice, _faces

__all__ = ["fixed_dice", "FixedDice"]


class FixedDice(Dice):
    """Dice that return scripted results in order (and still record roll events)."""

    def __init__(self, results: Iterable[int], *, seed: int = 0, **kwargs: Any):
        from owsnb.kernel.dice import rng_state_for_seed

        super().__init__(rng_state_for_seed(seed), **kwargs)  # shuffles and draws stay reproducible
        self._script = list(results)
        self._given = len(self._script)

    def _draw(self, sides: int, n: int) -> list[int]:
        self._used = True
        out = []
        for _ in range(n):
            if not self._script:
                raise AssertionError(f"fixed_dice ran out of results ({self._given} given)")
            v = self._script.pop(0)
            if not 1 <= v <= sides:
                raise AssertionError(f"scripted result {v} is impossible on a d{sides}")
            out.append(v)
        return out

    @property
    def remaining(self) -> list[int]:
        """Results not used yet."""
        return list(self._script)


def fixed_dice(results: Iterable[int], **kwargs: Any) -> FixedDice:
    """Dice returning *results* in order; running out or an impossible result fails the test.
    Shuffles (which are not scripted) come from a generator seeded with ``seed`` (default 0)."""
    _ = _faces  # keep the validator import visible for rule authors
    return FixedDice(results, **kwargs)
