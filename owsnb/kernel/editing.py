"""What a rule set tells the scenario editor (:class:`EditorSpec`): one small declaration each.

The editor (:mod:`owsnb.pages.editor`) is generic; everything that differs between rule sets —
which counter catalogs exist and at what scale, whose forces a counter type belongs to, the schema
of a unit's payload, the boxes a unit may start in, the terrain and map features a map may hold,
and which data tables an instructor types in from their own printed edition — comes from the rule
set's ``editor`` attribute. Options need no entry: the editor reads the rule set's
``option_list`` (name, default, choices, rule paragraph).

Plain data and callables only (the kernel imports no pydantic or YAML): the payload schema is a
function returning a JSON schema, so the rule set builds it from its own model on demand.

Example:
    >>> spec = EditorSpec(
    ...     catalogs={"skirmish-*.yaml": ""}, terrains=lambda tables: ("clear", "woods"),
    ...     boxes=(Box("reserve", "arrives later"),), edges=("river",))
    >>> spec.box("reserve").doc, spec.box("nowhere") is None
    ('arrives later', True)
    >>> spec.terrains({})
    ('clear', 'woods')
    >>> spec.faction("inf", {"catalog": "/x/skirmish-units.yaml"})
    'skirmish-units'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["EditorSpec", "Box", "Feature", "catalog_faction"]


def catalog_faction(key: str, counter: Mapping[str, Any]) -> str:
    """The default faction of a counter type: the stem of the catalog file it comes from."""
    return Path(str(counter.get("catalog", ""))).stem


@dataclass(frozen=True)
class Box:
    """An off-map box a unit may start in (``unit.box``).

    Attributes:
        name: the box as the scenario writes it (``aboard``, ``base``, ``reserve``...).
        doc: what being there means, for the palette's tooltip.
        rule: the paragraph that defines it.
        link: the payload key naming the unit's host, if the box needs one (``aboard``: the
            ship's hold tag; ``base``: the squadron base's id); empty when none.
        host: what *link* holds: ``"id"`` (the host's unit id) or the host's own payload key whose
            value it must equal (``"hold"``: the editor gives the host one if it has none).
        hosts: which units may host, as payload ``key=value`` tests any of which suffices
            (``("category=naval",)``); empty: any unit of the same side.
    """

    name: str
    doc: str = ""
    rule: str = ""
    link: str = ""
    host: str = "id"
    hosts: tuple[str, ...] = ()

    def may_host(self, data: Mapping[str, Any]) -> bool:
        """Whether a unit with payload *data* may host a unit in this box."""
        if not self.hosts:
            return True
        for test in self.hosts:
            key, _, value = test.partition("=")
            got = data.get(key)
            if str(got if got is not None else "").lower() == value.lower():
                return True
        return False


@dataclass(frozen=True)
class Feature:
    """A hex feature the map may hold (port, airfield, city...) and the facts it carries.

    Attributes:
        type: the feature type as the scenario writes it.
        facts: its keys besides ``hex``, ``type`` and ``name``, with the value a new one starts
            with (``{"owner": "", "capacity": 2}``).
        doc: what it does in the rules (with the paragraph).
    """

    type: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    doc: str = ""


@dataclass(frozen=True)
class EditorSpec:
    """What a rule set's scenarios are made of, for the scenario editor (see the module docstring).

    Attributes:
        catalogs: catalog file patterns (in a scenario folder's ``catalogs/``) -> the map scale
            their values are for (``"tactical"``, ``"operational"``; ``""`` any scale).
        faction: a counter type's faction (``(type key, catalog entry with its "catalog" file)``
            -> a short name): the palette shows one side's factions at a time.
        payload_schema: a JSON schema (``{"properties": ...}``) of a unit's ``data``, for the
            unit form; ``None``: the payload is edited as YAML text.
        boxes: the boxes a unit may start in.
        terrains: the terrain names a hex may be painted with, from the rule set's data tables
            (its terrain table: one list, no copy to drift).
        features: the hex features a map may hold.
        edges: the hexside features (rivers, roads, borders...) a map may hold.
        tables: the data tables an instructor may override under ``tables:`` -> what they are
            (placeholders first: the tables the rule book lost, typed in from a printed edition).
        notes: anything else an author should know, shown in the editor.
    """

    catalogs: Mapping[str, str] = field(default_factory=dict)
    faction: Callable[[str, Mapping[str, Any]], str] = catalog_faction
    payload_schema: Callable[[], Mapping[str, Any]] | None = None
    boxes: tuple[Box, ...] = ()
    terrains: Callable[[Mapping[str, Any]], Sequence[str]] = lambda tables: ()
    features: tuple[Feature, ...] = ()
    edges: tuple[str, ...] = ()
    tables: Mapping[str, str] = field(default_factory=dict)
    notes: str = ""

    def box(self, name: str) -> Box | None:
        """The declared box *name* (``None`` if the rule set declares none of that name)."""
        return next((b for b in self.boxes if b.name == name), None)

    def feature(self, type: str) -> Feature | None:
        """The declared feature *type* (``None`` if none)."""
        return next((f for f in self.features if f.type == type), None)
