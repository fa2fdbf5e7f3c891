"""Bot registry: names -> policy classes, like the rule-set registry (options as data).

The built-in bots are ``random``, ``greedy``, ``search`` and ``paired``; ``register`` adds more (a class or
a ``"module:attribute"`` path, imported on first use).

>>> get("greedy").label
'greedy'
>>> get("search", budget=0.5).label
'search(budget=0.5)'
>>> get({"bot": "search", "budget": 0.5}).options
{'budget': 0.5}
>>> get("chess")
Traceback (most recent call last):
...
KeyError: "no bot 'chess'; known: greedy, paired, random, search"
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from owsnb.bots.policy import Policy

__all__ = ["register", "get", "names", "spec_of"]

_FACTORIES: dict[str, Any] = {
    "random": "owsnb.bots.random:RandomPolicy",
    "greedy": "owsnb.bots.greedy:GreedyPolicy",
    "search": "owsnb.bots.search:SearchPolicy",
    "paired": "owsnb.bots.paired:PairedSearchPolicy",
}


def register(name: str, factory: Any) -> None:
    """Register *name* -> a :class:`Policy` subclass (or any callable taking the options as
    keywords) or its ``"module:attribute"`` path. Registering again replaces it."""
    _FACTORIES[name] = factory


def names() -> list[str]:
    """Every registered bot."""
    return sorted(_FACTORIES)


def spec_of(spec: str | Mapping[str, Any] | Policy) -> tuple[str, dict[str, Any]]:
    """``(name, options)`` of a bot given as a name, ``{"bot": name, **options}`` or a policy."""
    if isinstance(spec, Policy):
        return spec.name, dict(spec.options)
    if isinstance(spec, Mapping):
        opts = dict(spec)
        name = opts.pop("bot", None)
        if not isinstance(name, str):
            raise ValueError(f"a bot given as data names it under 'bot': {dict(spec)!r}")
        return name, opts
    if isinstance(spec, str):
        return spec, {}
    raise TypeError(f"a bot is a name, a mapping or a Policy, not {type(spec).__name__}")


def get(spec: str | Mapping[str, Any] | Policy, **options: Any) -> Policy:
    """A new policy object: ``get("greedy")``, ``get("search", budget=1.0)`` or
    ``get({"bot": "search", "budget": 1.0})``. A policy given is returned as it is.

    Raises:
        KeyError: no bot of that name.
        TypeError: an unknown option.
    """
    if isinstance(spec, Policy) and not options:
        return spec
    name, opts = spec_of(spec)
    opts.update(options)
    factory = _FACTORIES.get(name)
    if factory is None:
        raise KeyError(f"no bot {name!r}; known: {', '.join(names())}")
    if isinstance(factory, str):
        mod, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(mod), attr)
    return factory(**opts)
