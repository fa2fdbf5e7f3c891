"""Leak scanning: does a payload meant for one side mention something it has not detected?

``hidden_tokens(state, side, ruleset)`` collects the identifiers and names of every unit the
side's view does not show (as the rule set's view policy decides); ``find_leaks(payload, tokens)``
returns every string in a payload (nested dicts/lists, JSON text, widget state) that contains one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from owsnb.kernel.data import iter_strings
from owsnb.kernel.state import UMPIRE

__all__ = ["hidden_tokens", "find_leaks"]


def hidden_tokens(state: Any, side: str, ruleset: Any, *, min_len: int = 4) -> set[str]:
    """Ids and names of units *side* may not see (face-down units contribute their true id and
    name, since only an alias may be shown). Short tokens (< *min_len*) are skipped as too
    generic to scan for."""
    if side == UMPIRE:
        return set()
    out: set[str] = set()
    for u in state.units.values():
        if u.side == side:
            continue
        v = ruleset.view_unit(state, u, side)
        if v is None or v.id != u.id:
            for tok in (u.id, u.name):
                if tok and len(tok) >= min_len:
                    out.add(tok)
    # tokens that are also visible (own units, detected units with the same name) are not leaks
    for u in state.units.values():
        v = ruleset.view_unit(state, u, side) if u.side != side else u
        if v is not None and v.id == u.id:
            out.discard(u.id)
            out.discard(u.name)
    return out


def find_leaks(payload: Any, tokens: Iterable[str]) -> list[str]:
    """Strings in *payload* (any nesting of dicts/lists/tuples, or JSON/HTML text) containing a token."""
    toks = [t for t in tokens if t]
    if not toks:
        return []
    if isinstance(payload, (bytes, bytearray)):
        payload = payload.decode("utf-8", "replace")
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except ValueError:
            pass
    strings = list(iter_strings(payload))
    blob = "\x00".join(strings)  # one search per token; only hits are traced back to their string
    found = []
    for t in toks:
        if t in blob:
            found += [f"{t!r} in {s[:120]!r}" for s in strings if t in s]
    return found
