"""Immutable plain data: :class:`FrozenDict` and the :func:`freeze` / :func:`thaw` pair.

The kernel's state is made of frozen dataclasses whose rule-set specific parts are plain JSON-like
data (str, int, float, bool, None, tuples and :class:`FrozenDict`). Freezing makes such data
hashable and safe to share between states.

>>> d = freeze({"shields": [7, 7], "flags": {"H": True}})
>>> d["shields"]
(7, 7)
>>> d.set(steps=2)["steps"], "steps" in d
(2, False)
>>> thaw(d)
{'shields': [7, 7], 'flags': {'H': True}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["FrozenDict", "freeze", "thaw", "EMPTY", "clip"]


def _immutable(self, *args, **kwargs):  # noqa: ANN001
    raise TypeError(f"{type(self).__name__} is immutable; use .set(...) to get a changed copy")


class FrozenDict(dict):
    """A hashable, immutable ``dict``. Changes return copies: :meth:`set`, :meth:`without`.

    It *is* a ``dict`` (so ``json.dumps`` and ``isinstance(x, dict)`` work) with every mutating
    method disabled.
    """

    __slots__ = ("_hash",)

    def __init__(self, *args: Any, **kwargs: Any):
        dict.__init__(self, *args, **kwargs)
        self._hash: int | None = None

    def __hash__(self) -> int:  # type: ignore[override]
        if self._hash is None:
            self._hash = hash(frozenset(self.items()))
        return self._hash

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _immutable  # type: ignore[assignment]
    __ior__ = _immutable  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"

    def __reduce__(self):
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenDict:
        return self

    def set(self, mapping: Mapping | None = None, /, **changes: Any) -> FrozenDict:
        """A copy with keys set (values are frozen)."""
        new = dict(self)
        for k, v in (mapping or {}).items():
            new[k] = freeze(v)
        for k, v in changes.items():
            new[k] = freeze(v)
        return FrozenDict(new)

    def without(self, *keys: Any) -> FrozenDict:
        """A copy without the given keys (missing keys are ignored)."""
        return FrozenDict({k: v for k, v in self.items() if k not in keys})


EMPTY = FrozenDict()


def freeze(obj: Any) -> Any:
    """Recursively turn dicts into :class:`FrozenDict`, lists into tuples, sets into frozensets."""
    if isinstance(obj, FrozenDict):
        return obj
    if isinstance(obj, Mapping):
        return FrozenDict({k: freeze(v) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        return tuple(freeze(v) for v in obj)
    if isinstance(obj, (set, frozenset)):
        return frozenset(freeze(v) for v in obj)
    return obj


def thaw(obj: Any) -> Any:
    """Inverse of :func:`freeze`: plain ``dict``/``list`` (sets become sorted lists)."""
    if isinstance(obj, Mapping):
        return {k: thaw(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        return [thaw(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((thaw(v) for v in obj), key=repr)
    return obj


def merge(base: Mapping, changes: Mapping) -> FrozenDict:
    """Shallow merge; a value of ``None`` in *changes* deletes the key."""
    new = dict(base)
    for k, v in changes.items():
        if v is None:
            new.pop(k, None)
        else:
            new[k] = freeze(v)
    return FrozenDict(new)


def deep_merge(base: Mapping, changes: Mapping) -> dict:
    """Recursive merge of plain mappings (used for catalog type + unit overrides)."""
    out: dict = {k: thaw(v) for k, v in base.items()}
    for k, v in changes.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = thaw(v)
    return out


def iter_strings(obj: Any) -> Iterable[str]:
    """Every string inside nested data (keys included); used by leak scanners."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from iter_strings(k)
            yield from iter_strings(v)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            yield from iter_strings(v)


def clip(text: str, limit: int = 120) -> str:
    """*text* cut to at most *limit* characters, with ``…`` where it was cut (for reprs).

    >>> clip("a" * 10, 6)
    'aaaaa…'
    >>> clip("short")
    'short'
    """
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"
