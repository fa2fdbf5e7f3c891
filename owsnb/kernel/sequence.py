"""The sequence of play as data: phases, steps, who acts, simultaneous or sequential.

A rule set declares a :class:`SequenceOfPlay`; the kernel walks it (``first``, ``after``) and the
rule set decides who acts in each step (``Step.actors``).

>>> seq = SequenceOfPlay((
...     Phase("1", "Movement", (Step("1", "Move", actors="initiative"),)),
...     Phase("2", "Combat", (Step("2.A", "Fire", actors="all", mode="simultaneous"),
...                           Step("2.B", "Assess", actors="umpire", optional="assessment"))),
... ))
>>> [s.key for _, s in seq.walk()]
['1', '2.A', '2.B']
>>> seq.after("1", "1"), seq.after("2", "2.A", options={"assessment": False})
(('2', '2.A', False), ('1', '1', True))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Step", "Phase", "SequenceOfPlay"]


@dataclass(frozen=True)
class Step:
    """One step of a phase.

    Attributes:
        key: short key, e.g. ``"3.A"`` (unique in the sequence).
        title: what happens ("Naval movement").
        actors: who acts: ``"initiative"`` (initiative side first, then the others in turn),
            ``"all"`` (every side), ``"umpire"``, ``"none"`` (automatic step), or a tuple of side names.
        mode: ``"sequential"`` (one side at a time) or ``"simultaneous"`` (secret, all at once).
        rule: the paragraph that describes the step.
        verbs: order verbs allowed in the step (besides the generic ``done``/``advance``).
        optional: name of a boolean option that switches the step on (``None``: always played).
        auto: the rule set resolves the step by itself on entering it (no orders).
    """

    key: str
    title: str
    actors: str | tuple[str, ...] = "all"
    mode: str = "sequential"
    rule: str = ""
    verbs: tuple[str, ...] = ()
    optional: str | None = None
    auto: bool = False

    def played(self, options: Mapping[str, Any] | None) -> bool:
        """Is the step played under these options?"""
        return self.optional is None or bool((options or {}).get(self.optional, False))


@dataclass(frozen=True)
class Phase:
    """A phase: a titled group of steps."""

    key: str
    title: str
    steps: tuple[Step, ...]
    rule: str = ""
    optional: str | None = None

    def played(self, options: Mapping[str, Any] | None) -> bool:
        return self.optional is None or bool((options or {}).get(self.optional, False))


@dataclass(frozen=True)
class SequenceOfPlay:
    """An ordered tuple of phases; one pass through it is one turn."""

    phases: tuple[Phase, ...]

    def walk(self, options: Mapping[str, Any] | None = None) -> Iterator[tuple[Phase, Step]]:
        """Every (phase, step) played under *options*, in order (all of them if ``None``)."""
        for ph in self.phases:
            if options is not None and not ph.played(options):
                continue
            for st in ph.steps:
                if options is None or st.played(options):
                    yield ph, st

    def find(self, phase: str, step: str) -> tuple[Phase, Step]:
        """The phase and step with these keys (``KeyError`` if unknown)."""
        for ph in self.phases:
            if ph.key == phase:
                for st in ph.steps:
                    if st.key == step:
                        return ph, st
        raise KeyError(f"no step {phase}/{step} in this sequence of play")

    def first(self, options: Mapping[str, Any] | None = None) -> tuple[Phase, Step]:
        """The first (phase, step) of a turn."""
        for pair in self.walk(options or {}):
            return pair
        raise ValueError("the sequence of play has no step")

    def after(
        self, phase: str, step: str, options: Mapping[str, Any] | None = None
    ) -> tuple[str, str, bool]:
        """Keys of the step after (phase, step), and whether a new turn begins."""
        steps = list(self.walk(options or {}))
        keys = [(p.key, s.key) for p, s in steps]
        try:
            i = keys.index((phase, step))
        except ValueError:
            raise KeyError(f"no step {phase}/{step} in this sequence of play") from None
        if i + 1 < len(keys):
            return (*keys[i + 1], False)
        return (*keys[0], True)

    def table(self) -> list[dict[str, Any]]:
        """One row per step: phase, step, title, actors, mode, rule (for display)."""
        return [
            {
                "phase": f"{p.key} {p.title}",
                "step": s.key,
                "title": s.title,
                "actors": s.actors if isinstance(s.actors, str) else ", ".join(s.actors),
                "mode": s.mode,
                "rule": s.rule,
                "optional": s.optional or "",
            }
            for p, s in self.walk(None)
        ]

    def _repr_html_(self) -> str:
        from owsnb.display.html import table_html

        return table_html(self.table(), caption="Sequence of play")
