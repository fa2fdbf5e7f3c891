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
    "refuse",
    "validation_problems",
    "key_path",
    "split_key_path",
]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


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


def refuse(message: str, code: str, rule: str, order: object = None) -> IllegalOrderError:
    """The refusal of *order*: an :class:`IllegalOrderError` with its stable *code*, citing *rule*
    (raise it). The one refusal factory of the kernel and every rule set.

    >>> err = refuse("B-1 has already moved", "moved", "S2", "blue: move B-1 0303")
    >>> str(err), err.code, err.rule
    ('[S2] B-1 has already moved', 'moved', 'S2')
    """
    return IllegalOrderError(message, code=code, rule=rule, order=order)


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


def validation_problems(
    exc: Any, prefix: Iterable[str | int] = ()
) -> list[tuple[list[str | int], str]]:
    """A pydantic ``ValidationError`` (anything with ``errors()``) as ``(key path, problem)``
    pairs in the house's words, for scenario files, catalogs and rule-set payloads alike: an
    unknown key "(check spelling)", a "required key is missing", a plain value quoted back
    (except by a rule's own check, whose message says what it needs).

    >>> class Err:  # what pydantic's ValidationError.errors() gives
    ...     def errors(self):
    ...         return [{"type": "extra_forbidden", "loc": ("units", 0, "strenght"), "msg": "x"},
    ...                 {"type": "greater_than", "loc": ("size",), "msg": "Input should be greater than 0",
    ...                  "input": -10}]
    >>> for loc, msg in validation_problems(Err(), ["map"]):
    ...     print(key_path(loc), "-", msg)
    map.units[0].strenght - unknown key (check spelling)
    map.size - Input should be greater than 0 (got -10)
    """
    out: list[tuple[list[str | int], str]] = []
    for err in exc.errors():
        loc = [*prefix, *err["loc"]]
        kind = err.get("type", "")
        msg = str(err.get("msg", "")).removeprefix("Value error, ")
        if kind == "extra_forbidden":
            msg = "unknown key (check spelling)"
        elif kind == "missing":
            msg = "required key is missing"
        elif "input" in err and kind not in ("model_type", "dict_type", "value_error"):
            given = err["input"]
            if isinstance(given, (str, int, float, bool)) or given is None:
                msg = f"{msg} (got {given!r})"
        out.append((loc, msg))
    return out


def key_path(parts: Sequence[str | int]) -> str:
    """``["units", 0, "hex"]`` -> ``"units[0].hex"`` (how problems name a key)."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")


def split_key_path(path: str) -> list[Any]:
    """``"units[0].hex"`` -> ``["units", 0, "hex"]``: the parts of a key path (the inverse of
    :func:`key_path`; an index may be negative, ``"units[-1]"``).

    >>> split_key_path("map.edges[2].hexes[-1]")
    ['map', 'edges', 2, 'hexes', -1]
    """
    parts: list[Any] = []
    for chunk in path.replace("]", "").split("."):
        if not chunk:
            continue
        name, *idx = chunk.split("[")
        if name:
            parts.append(name)
        parts += [int(i) if i.lstrip("-").isdigit() else i for i in idx]
    return parts
