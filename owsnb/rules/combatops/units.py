"""Combat Operations counters: the unit payload, unit-type classes, steps and hit markers.

A counter is a :class:`~owsnb.kernel.state.Unit` whose ``data`` holds the printed values
(``atk``, ``dfn``, ``ma``), the unit type (``utype``, one of the 14 types of the rule book's
unit table) and its organisation: a **regiment** counter stands for ``bns`` battalions and already
includes the regimental-integrity bonus (13.1); a **battalion** has 2 steps (errata 8.0).

Steps and hit markers (errata 8.0): a counter of ``n`` battalions has ``2n`` steps; each
battalion can carry one hit marker, so ``hits = 2n - steps``. A regiment carries up to ``n``
markers; the next loss eliminates a battalion and breaks the regiment down (:mod:`.combat`).

>>> from owsnb.kernel.state import Unit
>>> from owsnb.kernel.data import freeze
>>> reg = Unit("R-1I/49", "red", "r-inf-reg-49", steps=3, max_steps=4,
...            data=freeze({"utype": "infantry", "atk": 6, "dfn": 8, "ma": 2, "echelon": "regiment", "bns": 2}))
>>> hits(reg), stacking_value(reg), is_infantry(reg, TYPES)
(1, 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from owsnb.kernel.errors import key_path, validation_problems
from owsnb.kernel.state import Unit
from owsnb.rules.tables import read_table

__all__ = [
    "TABLES_DIR",
    "load_table",
    "TYPES",
    "CounterData",
    "validate_counter",
    "utype",
    "mechanized",
    "classes",
    "is_dummy",
    "is_artillery",
    "is_hq",
    "is_engineer",
    "is_infantry",
    "is_armor",
    "is_priority",
    "bns",
    "hits",
    "stacking_value",
    "movement_class",
    "art_range",
    "printed",
    "counter_label",
]

TABLES_DIR = Path(__file__).parent / "tables"


def load_table(name: str) -> dict[str, Any]:
    """One of the rule set's YAML data tables (``crt``, ``terrain``, ``unit_types``)."""
    return read_table(TABLES_DIR / f"{name}.yaml")


TYPES: dict[str, Any] = load_table("unit_types")
"""The unit-type table as shipped (a game reads ``state.tables['unit_types']``)."""

UTYPES = tuple(TYPES["types"])


class _Values(BaseModel):
    model_config = ConfigDict(extra="forbid")
    atk: int = Field(ge=0)
    dfn: int = Field(ge=0)


class CounterData(BaseModel):
    """The payload of a Combat Operations counter (catalog ``data`` merged with the unit's).

    Runtime keys (``oos``, ``task``, ``control``) are set by the rules during play.
    """

    model_config = ConfigDict(extra="forbid")

    utype: Literal[UTYPES]  # type: ignore[valid-type]
    atk: int | None = Field(None, ge=0, description="printed attack strength (none on a dummy)")
    dfn: int | None = Field(None, ge=0, description="printed defense strength (none on a dummy)")
    ma: int = Field(ge=1, description="printed movement allowance (shown on both faces)")
    echelon: Literal["battalion", "regiment"] = "battalion"
    bns: int = Field(1, ge=1, le=4, description="battalions this counter stands for")
    bn: _Values | None = Field(None, description="a regiment's battalion values (for breakdown)")
    bn_kind: str | None = Field(None, description="catalog type of a regiment's battalions")
    bn_ids: list[str] = Field([], description="ids its battalions get when it breaks down")
    regiment: str | None = Field(None, description="a battalion's regiment (regimental integrity)")
    regiment_size: int | None = Field(None, ge=1, le=4, description="battalions in a full regiment")
    art_class: Literal["L", "M", "H"] | None = None
    division: str = ""
    supply_division: str | None = Field(
        None, description="division whose HQ supplies it (attachments)"
    )
    dummy: bool = False
    from_breakdown: bool = Field(False, description="made when a regiment broke down")
    placeholder: bool = Field(
        False, description="values lost from the counter sheet; owsnb placeholders"
    )
    oos: bool = False
    task: dict[str, Any] | None = None


def validate_counter(
    kind: str, data: Mapping[str, Any]
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Check a counter payload; returns (normalised payload, [(key, problem)]).

    >>> validate_counter("x", {"utype": "armor", "atk": 4, "dfn": 2, "ma": 4})[1]
    []
    >>> validate_counter("x", {"utype": "tank", "ma": 0})[1][0][0]
    'utype'
    """
    try:
        model = CounterData.model_validate(dict(data))
    except ValidationError as exc:
        return dict(data), [(key_path(loc), msg) for loc, msg in validation_problems(exc)]
    problems: list[tuple[str, str]] = []
    if not model.dummy and (model.atk is None or model.dfn is None):
        problems.append(
            ("atk", "a combat counter needs printed atk and dfn (only dummies have none)")
        )
    if model.echelon == "regiment" and not model.dummy and model.bns < 2:
        problems.append(("bns", "a regiment counter stands for at least 2 battalions"))
    if (
        model.utype in ("artillery", "motorized-artillery", "mechanized-artillery")
        and not model.dummy
        and model.art_class is None
    ):
        problems.append(("art_class", "an artillery counter needs art_class L, M or H (13.4)"))
    norm = model.model_dump(exclude_defaults=True)
    norm["utype"], norm["ma"] = model.utype, model.ma
    return norm, problems


# -- classes --------------------------------------------------------------------------------------
def utype(u: Unit) -> str:
    """The unit type (``infantry``, ``armor``...)."""
    return str(u.data.get("utype", "infantry"))


def _type_row(u: Unit, types: Mapping[str, Any]) -> Mapping[str, Any]:
    return types["types"].get(utype(u), {})


def mechanized(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    """Mechanized (= motorized) per the unit table."""
    return bool(_type_row(u, types).get("mechanized", False))


def classes(u: Unit, types: Mapping[str, Any] = TYPES) -> tuple[str, ...]:
    """The owsnb classes of the unit's type (``infantry``, ``armor``, ``priority``...)."""
    return tuple(_type_row(u, types).get("classes", ()))


def is_dummy(u: Unit) -> bool:
    return bool(u.data.get("dummy", False))


def is_artillery(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    return "artillery" in classes(u, types)


def is_hq(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    return "hq" in classes(u, types)


def is_engineer(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    return "engineer" in classes(u, types)


def is_infantry(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    return "infantry" in classes(u, types)


def is_armor(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    """Armor or armored cavalry (13.2, 13.3)."""
    return "armor" in classes(u, types)


def is_priority(u: Unit, types: Mapping[str, Any] = TYPES) -> bool:
    """Armor, armored cavalry, anti-tank or anti-aircraft (13.2 exclusions, 13.3 losses first)."""
    return "priority" in classes(u, types)


def movement_class(u: Unit, types: Mapping[str, Any] = TYPES) -> str:
    """``mech`` (mechanized/motorized), ``artillery`` (non-motorized artillery) or ``foot``."""
    if mechanized(u, types):
        return "mech"
    return "artillery" if is_artillery(u, types) else "foot"


# -- organisation and steps ----------------------------------------------------------------------
def bns(u: Unit) -> int:
    """Battalions the counter stands for (1 for a battalion, HQ, artillery...)."""
    return int(u.data.get("bns", 1))


def hits(u: Unit) -> int:
    """Hit markers on the counter (errata 8.0): ``2 * bns - steps`` (a dummy never has any)."""
    if is_dummy(u):
        return 0
    return max(0, 2 * bns(u) - u.steps)


def stacking_value(u: Unit) -> int:
    """Battalions' worth for stacking (6.0, errata 4.1): a regiment counts its battalions; an HQ,
    artillery or other battalion counts 1; a dummy counts what it pretends to be."""
    return bns(u)


def art_range(u: Unit, types: Mapping[str, Any] = TYPES) -> int:
    """Artillery range in hexes (13.4): L 2, M 3, H 4 (0 for non-artillery)."""
    if not is_artillery(u, types):
        return 0
    return int(types.get("artillery_range", {}).get(u.data.get("art_class") or "L", 0))


def printed(u: Unit) -> tuple[int, int, int]:
    """(attack, defense, movement) as printed (dummies: 0, 0, MA)."""
    return int(u.data.get("atk") or 0), int(u.data.get("dfn") or 0), int(u.data.get("ma", 1))


def counter_label(u: Unit) -> str:
    """``6-8-2`` for a combat counter, ``D-2`` for a dummy's owner-side label."""
    a, d, m = printed(u)
    return f"D-{m}" if is_dummy(u) else f"{a}-{d}-{m}"
