"""One error hierarchy for owsnb: everything raised on purpose is an :class:`OwsnbError`.

Catch ``OwsnbError`` to catch them all, or a narrow subclass. Errors that concern bad values also
subclass :class:`ValueError` so generic code keeps working.
"""

from __future__ import annotations

__all__ = [
    "OwsnbError",
    "InvalidHexError",
    "ScenarioError",
    "ScenarioProblem",
    "IllegalOrderError",
    "OrderSyntaxError",
    "NotYourTurnError",
    "UnknownSideError",
    "StaleStateError",
    "HistoryError",
    "StoreError",
    "AuthError",
    "UnknownRulesetError",
    "InvalidSeedError",
]

from collections.abc import Iterable
from dataclasses import dataclass


class OwsnbError(Exception):
    """Base class of every error owsnb raises on purpose."""


class InvalidHexError(OwsnbError, ValueError):
    """A hex coordinate or printed hex label is malformed or off the map."""


class InvalidSeedError(OwsnbError, ValueError):
    """A dice seed that is not a whole number from 0 up (``None`` draws a fresh one)."""


@dataclass(frozen=True)
class ScenarioProblem:
    """One problem found in a scenario file: where it is and what was expected."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


class ScenarioError(OwsnbError, ValueError):
    """A scenario (or catalog) file is broken. Lists **every** problem found, each located.

    Attributes:
        problems: the :class:`ScenarioProblem` list (file, key path, message).
    """

    def __init__(self, problems: list[ScenarioProblem] | ScenarioProblem | str, file: str = ""):
        if isinstance(problems, str):
            problems = [ScenarioProblem(file, "", problems)]
        elif isinstance(problems, ScenarioProblem):
            problems = [problems]
        self.problems: list[ScenarioProblem] = list(problems)
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} in scenario"
        super().__init__(head + ":\n" + "\n".join(f"  - {p}" for p in self.problems))


class IllegalOrderError(OwsnbError, ValueError):
    """An order was refused. The game is left exactly as it was.

    Attributes:
        code: a stable machine-readable code such as ``"target-not-detected"``.
        rule: the rule paragraph that forbids the order, e.g. ``"9.9.4"`` (may be empty).
        order: the refused order (or its text), if known.
    """

    def __init__(
        self, message: str, *, code: str = "illegal", rule: str = "", order: object = None
    ):
        self.code = code
        self.rule = rule
        self.order = order
        self.reason = message
        prefix = f"[{rule}] " if rule else ""
        super().__init__(f"{prefix}{message}")

    def to_dict(self) -> dict:
        """JSON-able form, as sent by the seminar server."""
        return {
            "error": type(self).__name__,
            "code": self.code,
            "rule": self.rule,
            "message": self.reason,
            "order": None if self.order is None else str(self.order),
        }


class OrderSyntaxError(IllegalOrderError):
    """An order's text could not be parsed."""

    def __init__(self, message: str, *, order: object = None):
        super().__init__(message, code="syntax", order=order)


class NotYourTurnError(IllegalOrderError):
    """The side (or seat) may not act in the current step."""

    def __init__(self, message: str, *, rule: str = "", order: object = None):
        super().__init__(message, code="not-your-turn", rule=rule, order=order)


class UnknownSideError(IllegalOrderError, KeyError):
    """A side that is not in the game (nor the umpire): the one answer of ``view``,
    ``legal_orders``, ``check``, ``preview`` and ``submit`` (code ``"unknown-side"``; a
    ``KeyError`` too, as a lookup that failed).

    >>> str(UnknownSideError.of("purple", ["blue", "red"]))
    "unknown side 'purple'; the sides are blue, red (and umpire)"
    """

    def __init__(self, message: str, *, order: object = None):
        super().__init__(message, code="unknown-side", order=order)

    @classmethod
    def of(cls, side: str, sides: Iterable[str], order: object = None) -> UnknownSideError:
        """The error for *side*, naming the game's *sides* (the same words everywhere)."""
        return cls(
            f"unknown side {side!r}; the sides are {', '.join(sides)} (and umpire)", order=order
        )

    def __str__(self) -> str:  # the message, not KeyError's quoted form
        return Exception.__str__(self)


class StaleStateError(OwsnbError):
    """A submission named a ``state_id`` that is no longer current (someone else acted first)."""

    def __init__(self, expected: int, actual: int):
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"stale state: order was prepared against state {expected}, the game is at {actual}; "
            "refresh and resubmit"
        )


class HistoryError(OwsnbError):
    """An operation on the history is impossible (undo past the start, submit while rewound, ...)."""


class StoreError(OwsnbError):
    """An event store file or database cannot be read, written or is not an owsnb store."""


class AuthError(OwsnbError):
    """A seat token is missing, wrong, revoked, or not valid for the requested seat."""


class UnknownRulesetError(OwsnbError, LookupError):
    """No rule set is registered under that name."""
