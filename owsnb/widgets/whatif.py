"""What-if units: a fresh unit of a catalog type, of the seat's side, standing on a chosen hex.

An instructor asks "how far does a DF-21 battery reach from here? how long would a mech brigade
take to get there?" without such a unit being in play. :func:`catalog_types` lists the types of
the scenario's unit catalogs (reference data every seat may consult, like the rule book's
counter sheet); :func:`what_if_unit` makes a fresh, full-strength unit of one of them for a
side; the kernel's :meth:`~owsnb.kernel.view.SideView.with_unit` puts it on a copy of the seat's
view, on which the rule set's ``reach``, ``ranges`` and ``transit`` hooks run unchanged. Nothing
is stored, submitted or sent to another seat: the game is the same afterwards.

Example:
    >>> import owsnb
    >>> game = owsnb.load("tutorial", seed=1, save=False)
    >>> view = game.view("blue")
    >>> types = catalog_types(view)
    >>> types["us-f35a-strike"].category
    'air-mission'
    >>> probe = what_if_unit(view, game.ruleset, "us-f35a-strike", "0305", types=types)
    >>> probe.id, probe.side, probe.hex is not None
    ('what-if us-f35a-strike', 'blue', True)
    >>> rings = game.ruleset.presentation.ranges(view.with_unit(probe), probe.id)
    >>> [r["hexes"] for r in rings if r["kind"] == "radius"]
    [55, 165]
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from owsnb.kernel.data import FrozenDict, freeze
from owsnb.kernel.state import UMPIRE, Unit

__all__ = ["CatalogType", "catalog_types", "what_if_unit", "WHAT_IF"]

WHAT_IF = "what-if"
"""The stem of every what-if unit's id (a number is added if a unit of the view has it)."""


@dataclass(frozen=True)
class CatalogType:
    """One counter type of the scenario's catalogs: its key, name, category, steps and payload."""

    key: str
    name: str
    category: str
    steps: int
    data: FrozenDict

    @property
    def label(self) -> str:
        """What a list of types shows: the key and the category (catalog names are not shown:
        a face-down unit named after its type must not be named in another seat's browser)."""
        return f"{self.key} · {self.category}" if self.category else self.key


_CACHE: dict[tuple[str, float], dict[str, CatalogType]] = {}


def catalog_types(view: Any, local: str | None = None) -> dict[str, CatalogType]:
    """The types of the catalogs of the scenario *view* comes from, by key: its file here
    (*local*, a local game's own file, else the bundled scenario the view names:
    :func:`~owsnb.scenario.loader.scenario_path`); ``{}`` when the scenario has no file here (a
    dict scenario, a remote seat's own file) or no catalog."""
    from owsnb.scenario.loader import scenario_path

    path = scenario_path(view, local)
    if not path:
        return {}
    key = (path, os.path.getmtime(path))
    if key not in _CACHE:
        from owsnb.scenario.loader import load_scenario

        try:
            scn = load_scenario(path)
        except Exception:  # noqa: BLE001 - a broken file offers no types; the game plays on
            return {}
        _CACHE[key] = {
            k: CatalogType(
                k,
                str(t.get("name", "") or k),
                str(t.get("category", "") or ""),
                int(t.get("steps", 1) or 1),
                freeze(dict(t.get("data", {}) or {})),
            )
            for k, t in sorted(scn.catalogs.items())
        }
    return _CACHE[key]


def what_if_unit(
    view: Any,
    ruleset: Any,
    kind: str,
    at: Any,
    *,
    side: str | None = None,
    types: Mapping[str, CatalogType] | None = None,
) -> Unit:
    """A fresh, full-strength unit of catalog type *kind* for *side* (default: the view's side)
    standing on hex *at* (a label or a Hex), its payload checked by the rule set
    (``validate_unit``) as the scenario loader checks a unit's. Per-unit facts a catalog leaves to
    the scenario (an OpArt unit's formation) come from a unit of that type *side* has, if any.
    Its id is free in *view*.

    Raises:
        KeyError: no such type, or no such hex.
        ValueError: the umpire's view without a *side*, or a payload the rule set refuses (the
            type needs per-unit facts and *side* has no unit of that type to take them from).
    """
    types = catalog_types(view) if types is None else types
    if kind not in types:
        raise KeyError(f"no unit type {kind!r} in this scenario's catalogs")
    t = types[kind]
    side = side or (None if view.side == UMPIRE else view.side)
    if side is None:
        raise ValueError("the umpire's what-if unit needs a side")
    h = view.map.hex(at)
    if h not in view.map.hexes:
        raise KeyError(f"no hex {at!r} on this map")
    data, problems = ruleset.validate_unit(kind, dict(t.data))
    if problems:  # per-unit facts the catalog leaves to the scenario (an OpArt formation...)
        like = next((u for u in view.units_of(side) if u.kind == kind), None)
        if like is not None:  # ... taken from a unit of that type the side has
            data, problems = ruleset.validate_unit(kind, {**dict(like.data), **dict(t.data)})
    if problems:
        why = "; ".join(f"{p}: {m}" if p else m for p, m in problems)
        raise ValueError(f"a fresh {kind} needs facts its catalog type does not give ({why})")
    uid = view.unused_id(f"{WHAT_IF} {kind}")
    return Unit(uid, side, kind, uid, h, steps=t.steps, max_steps=t.steps, data=freeze(data))
