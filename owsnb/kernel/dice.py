"""Seeded dice whose state lives in the game state; every roll becomes an event.

Rules never use module-level ``random``: they receive a :class:`Dice` (built by the
:class:`~owsnb.kernel.game.Game` from ``state.rng``), roll through it, and the game commits the
recorded ``die`` events together with the new generator state.

>>> d = Dice.from_seed(7)
>>> first = d.roll(10, purpose="salvo 1 vs grey shield 7", rule="9.2", actor="blue")
>>> 1 <= first <= 10, d.events[0].kind, d.events[0].data["die"]
(True, 'die', 'd10')
>>> Dice.from_seed(7).roll(10, purpose="same seed, same roll") == first
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from owsnb.kernel.data import FrozenDict, freeze, thaw
from owsnb.kernel.errors import InvalidSeedError
from owsnb.kernel.events import Event, die_rolled, visibility

__all__ = ["Dice", "rng_state_for_seed"]

T = TypeVar("T")


def rng_state_for_seed(seed: int | None) -> FrozenDict:
    """The frozen PCG64 state for *seed* (``None`` draws fresh OS entropy).

    Raises:
        InvalidSeedError: *seed* is not a whole number from 0 up.

    >>> rng_state_for_seed("abc")
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.InvalidSeedError: the dice seed must be a whole number from 0 up ..., not 'abc'
    """
    ok = seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool))
    if not ok or (seed is not None and seed < 0):
        raise InvalidSeedError(
            f"the dice seed must be a whole number from 0 up (or None for a fresh one), not {seed!r}"
        )
    return freeze(np.random.Generator(np.random.PCG64(seed)).bit_generator.state)


class Dice:
    """Dice rolled through a ``numpy.random.Generator(PCG64)``, recording every roll as an event.

    Args:
        state: a bit-generator state as stored in ``GameState.rng``.
        actor: default side credited with the rolls (who rolls).
        visible_to: default visibility of roll events (``None`` = public).
    """

    def __init__(
        self, state: Mapping | None = None, *, actor: str | None = None, visible_to: Any = None
    ):
        bg = np.random.PCG64()
        if state:
            bg.state = thaw(state)
        self._gen = np.random.Generator(bg)
        self.events: list[Event] = []
        self.actor = actor
        self.visible_to = visible_to
        self._used = False

    @classmethod
    def from_seed(cls, seed: int | None, **kwargs: Any) -> Dice:
        """Fresh dice from an integer seed."""
        return cls(rng_state_for_seed(seed), **kwargs)

    @property
    def used(self) -> bool:
        """True once anything has been drawn."""
        return self._used

    @property
    def state(self) -> FrozenDict:
        """The generator state now (to store back into ``GameState.rng``)."""
        return freeze(self._gen.bit_generator.state)

    def _draw(self, sides: int, n: int) -> list[int]:
        self._used = True
        return [int(x) for x in self._gen.integers(1, sides + 1, size=n)]

    def _record(
        self,
        label: str,
        sides: int,
        result: Any,
        purpose: str,
        rule: str,
        actor: Any,
        visible_to: Any,
        **data: Any,
    ) -> None:
        vis = self.visible_to if visible_to == "default" else visible_to
        self.events.append(
            die_rolled(
                label,
                sides,
                result,
                purpose=purpose,
                rule=rule,
                actor=self.actor if actor == "default" else actor,
                visible_to=visibility(vis),
                **data,
            )
        )

    def roll(
        self,
        sides: int | str,
        *,
        purpose: str,
        rule: str = "",
        actor: Any = "default",
        visible_to: Any = "default",
        **data: Any,
    ) -> int:
        """Roll one die (``10`` or ``"d10"``) and record it.

        Args:
            sides: number of faces, or a die name such as ``"d12"``.
            purpose: what the roll decides, in words ("salvo 2 vs red shield 4").
            rule: the rule paragraph that calls for the roll.
            actor: who rolls (defaults to the dice's actor).
            visible_to: who may see the roll (defaults to the dice's default).
            **data: extra facts to keep with the roll (target number, modifiers...).
        """
        n = _faces(sides)
        (result,) = self._draw(n, 1)
        self._record(f"d{n}", n, result, purpose, rule, actor, visible_to, **data)
        return result

    def roll_many(
        self,
        count: int,
        sides: int | str,
        *,
        purpose: str,
        rule: str = "",
        actor: Any = "default",
        visible_to: Any = "default",
        **data: Any,
    ) -> tuple[int, ...]:
        """Roll *count* dice of one kind as one recorded throw (e.g. ``3d4``)."""
        n = _faces(sides)
        results = tuple(self._draw(n, count))
        self._record(f"{count}d{n}", n, results, purpose, rule, actor, visible_to, **data)
        return results

    def choice(
        self,
        items: Sequence[T],
        *,
        purpose: str,
        rule: str = "",
        actor: Any = "default",
        visible_to: Any = "default",
    ) -> T:
        """Draw one item uniformly (a chit from a cup); recorded as a ``die`` event of kind draw."""
        if not items:
            raise ValueError("cannot draw from an empty cup")
        (i,) = self._draw(len(items), 1)
        item = items[i - 1]
        self._record(
            f"draw/{len(items)}", len(items), i, purpose, rule, actor, visible_to, item=str(item)
        )
        return item

    def shuffle(
        self,
        items: Iterable[T],
        *,
        purpose: str,
        rule: str = "",
        actor: Any = "default",
        visible_to: Any = "default",
    ) -> list[T]:
        """A shuffled copy of *items* (a deck); the new order is recorded."""
        seq = list(items)
        self._used = True
        order = [int(i) for i in self._gen.permutation(len(seq))]
        out = [seq[i] for i in order]
        self._record(
            f"shuffle/{len(seq)}", len(seq), tuple(order), purpose, rule, actor, visible_to
        )
        return out

    def reveal(self, index: int, sides: Iterable[str]) -> None:
        """Let *sides* see the recorded roll at *index* too, once its result is known (a roll that
        found something may be shown to the searcher; one that found nothing stays hidden). A
        public roll stays public.

        >>> d = Dice.from_seed(1)
        >>> _ = d.roll(10, purpose="search hex 0304", visible_to={"red"})
        >>> d.reveal(-1, {"blue"})
        >>> sorted(d.events[-1].visible_to)
        ['blue', 'red']
        """
        ev = self.events[index]
        if ev.visible_to is not None:
            self.events[index] = dataclasses.replace(
                ev, visible_to=ev.visible_to | frozenset(sides)
            )

    def take_events(self) -> list[Event]:
        """The recorded roll events, clearing the record."""
        out, self.events = self.events, []
        return out


def _faces(sides: int | str) -> int:
    if isinstance(sides, str):
        s = sides.strip().lower()
        if not s.startswith("d") or not s[1:].isdigit():
            raise ValueError(f"{sides!r} is not a die name (expected e.g. 'd10')")
        sides = int(s[1:])
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise ValueError(f"a die needs a positive whole number of faces, not {sides!r}")
    return sides
