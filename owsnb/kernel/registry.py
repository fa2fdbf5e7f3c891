"""Rule-set registry: names -> rule-set objects, loaded lazily.

Built-in rule sets are registered by ``owsnb.rules`` (as dotted paths, imported on first use);
third-party packages may register theirs under the ``owsnb.rulesets`` entry-point group, and
``$OWSNB_RULESETS`` (``name=module:attribute`` pairs separated by ``;``) adds more without
packaging — handy for a rule set under development or in tests.

Example:
    >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # imported on first use
    >>> "skirmish" in ruleset_names()
    True
    >>> get_ruleset("skirmish").name, get_ruleset("skirmish") is get_ruleset("skirmish")
    ('skirmish', True)
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

from owsnb.kernel.errors import UnknownRulesetError

__all__ = ["register_ruleset", "get_ruleset", "ruleset_names"]

_FACTORIES: dict[str, str | Callable[[], Any]] = {}
_LOADED: dict[str, Any] = {}


def register_ruleset(name: str, factory: str | Callable[[], Any]) -> None:
    """Register *name* -> a zero-argument factory or a ``"module:attribute"`` path.

    Registering a name again replaces it (the next :func:`get_ruleset` builds it afresh).

    Example:
        >>> from owsnb.rules.skirmish import RULESET
        >>> register_ruleset("skirmish", lambda: RULESET)  # a zero-argument factory
        >>> get_ruleset("skirmish") is RULESET
        True
    """
    _FACTORIES[name] = factory
    _LOADED.pop(name, None)


def _entry_points() -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group="owsnb.rulesets"):
        _FACTORIES.setdefault(ep.name, ep.value)
    for pair in os.environ.get("OWSNB_RULESETS", "").split(";"):
        name, eq, path = pair.strip().partition("=")
        if eq and name and path:
            _FACTORIES.setdefault(name.strip(), path.strip())


def get_ruleset(name: str) -> Any:
    """The rule set registered as *name* (created once).

    Raises:
        UnknownRulesetError: nothing is registered under *name*.

    Example:
        >>> get_ruleset("no-such-rules")
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.UnknownRulesetError: no rule set 'no-such-rules'; known: ...
    """
    if name in _LOADED:
        return _LOADED[name]
    if name not in _FACTORIES:
        _entry_points()
    factory = _FACTORIES.get(name)
    if factory is None:
        raise UnknownRulesetError(
            f"no rule set {name!r}; known: {', '.join(ruleset_names()) or 'none'}"
        )
    if isinstance(factory, str):
        mod, _, attr = factory.partition(":")
        obj = getattr(importlib.import_module(mod), attr or "RULESET")
        rs = obj() if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "name")) else obj
    else:
        rs = factory()
    _LOADED[name] = rs
    return rs


def ruleset_names() -> list[str]:
    """Names of every registered rule set."""
    _entry_points()
    return sorted(_FACTORIES)
