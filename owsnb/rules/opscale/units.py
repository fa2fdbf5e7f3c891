"""Unit Cards: the values a unit's card carries (full side and damaged side) and its schema.

The aid refers to Unit Card values it never prints (Cost, Defense, Endurance, Half Endurance,
Crew; per weapon the Attack Rating, Damage Index and AP rating); a scenario's catalog supplies
them. In owsnb a unit's **Endurance** is its ``steps`` (``max_steps`` is the full Endurance
printed on the card, ``steps`` what is left); everything else lives in ``Unit.data``.

>>> w = Weapon("primary", "Main gun", attack_rating=12, di=4, ap=6)
>>> card = Card("T-1", "blue", "vehicle", endurance=14, half=7, defense=3, weapons=(w,))
>>> card.damaged_at(8), card.damaged_at(7)
(False, True)
>>> card.profile(True).defense     # no damaged-side values given: the full side's apply
3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from owsnb.kernel.errors import key_path, validation_problems

__all__ = [
    "Weapon",
    "Profile",
    "Card",
    "card_of",
    "status_of",
    "DESTROYED",
    "validate_unit_data",
    "UNIT_CATEGORIES",
    "STRUCTURES",
    "FORTIFICATIONS",
    "OBSTACLES",
    "CATEGORIES",
    "domain_of",
]

UNIT_CATEGORIES = ("infantry", "vehicle", "artillery", "aircraft", "naval", "transport", "engineer")
STRUCTURES = (
    "command-post",
    "forward-hq",
    "airfield",
    "engineered-bridge",
    "shipping-facility",
    "building",
)
FORTIFICATIONS = ("bunker", "pillbox", "emplacement")
OBSTACLES = ("obstacle-infantry", "obstacle-vehicle")
CATEGORIES = UNIT_CATEGORIES + STRUCTURES + FORTIFICATIONS + OBSTACLES

DESTROYED = (0, 0)
"""The canonical status of a destroyed unit: (endurance, crew)."""


def domain_of(category: str, given: str | None = None) -> str:
    """The unit's domain (``ground``, ``air`` or ``naval``)."""
    if given:
        return given
    return {"aircraft": "air", "naval": "naval"}.get(category, "ground")


@dataclass(frozen=True)
class Weapon:
    """One weapon of a Unit Card.

    Attributes:
        slot: ``"primary"`` or ``"secondary"`` (OES.4: a unit fires 1 primary and 1 secondary).
        name: what it is called.
        attack_rating: hit on a D20 result equal to or greater than this (OES.5).
        di: Damage Index, added to the Intensity roll (OES.7).
        ap: armour-piercing rating, 0 for none (AP.1).
        range: reach in hexes (placeholder data: legal targets are lost, ruling R11).
        targets: domains it may fire at (empty: any).
    """

    slot: str
    name: str = ""
    attack_rating: int = 11
    di: int = 0
    ap: int = 0
    range: int = 1
    targets: tuple[str, ...] = ()

    def label(self) -> str:
        """Short text: ``Main gun AR12 DI4 AP6 R1``."""
        ap = f" AP{self.ap}" if self.ap else ""
        return f"{self.name or self.slot} AR{self.attack_rating} DI{self.di}{ap} R{self.range}"


@dataclass(frozen=True)
class Profile:
    """One side of a Unit Card: the Defense and weapons in force."""

    defense: int
    weapons: tuple[Weapon, ...]


@dataclass(frozen=True)
class Card:
    """The combat values of one unit, both sides of its card (immutable).

    Attributes:
        endurance: full Endurance; ``half``: the Half Endurance printed on the damaged side.
        crew: the crew track (0: the unit has no crew track).
        experience: earned bonuses (EXP.1), one entry per bonus (they stack, ruling R17).
    """

    id: str
    side: str
    category: str
    endurance: int = 1
    half: int = 0
    defense: int = 0
    weapons: tuple[Weapon, ...] = ()
    damaged_defense: int | None = None
    damaged_weapons: tuple[Weapon, ...] | None = None
    crew: int = 0
    cost: int = 0
    domain: str = "ground"
    experience: tuple[str, ...] = ()
    setup_required: bool = False
    set_up: bool = True
    on_sortie: bool = False
    name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def damaged_at(self, endurance: int) -> bool:
        """OES.9: Damaged once Endurance is at or below Half Endurance."""
        return endurance <= self.half

    def profile(self, damaged: bool) -> Profile:
        """The card side in force (B2.4: the damaged side applies at once, within the round)."""
        if not damaged:
            return Profile(self.defense, self.weapons)
        return Profile(
            self.defense if self.damaged_defense is None else self.damaged_defense,
            self.weapons if self.damaged_weapons is None else self.damaged_weapons,
        )

    def bonus(self, name: str) -> int:
        """How many times the unit holds experience bonus *name*."""
        return self.experience.count(name) if self.experience else 0

    @property
    def stars(self) -> int:
        """Experience stars: one per bonus held (ruling R18)."""
        return sum(1 for b in self.experience if b != "none")

    @property
    def can_fire(self) -> bool:
        """Artillery must be set up (TS.4) and aircraft on a sortie (TS.4) to fire."""
        if self.setup_required and not self.set_up:
            return False
        return not (self.domain == "air" and not self.on_sortie)


def _weapons(raw: Any) -> tuple[Weapon, ...]:
    out = []
    for w in raw or ():
        out.append(
            Weapon(
                slot=w.get("slot", "primary"),
                name=w.get("name", ""),
                attack_rating=int(w.get("attack_rating", 11)),
                di=int(w.get("di", 0)),
                ap=int(w.get("ap", 0) or 0),
                range=int(w.get("range", 1)),
                targets=tuple(w.get("targets", ()) or ()),
            )
        )
    return tuple(out)


def card_of(unit: Any) -> Card:
    """The :class:`Card` of a kernel ``Unit`` (its payload read as Unit Card values)."""
    d = unit.data
    dmg = d.get("damaged") or {}
    return Card(
        id=unit.id,
        side=unit.side,
        category=d.get("category", "infantry"),
        endurance=unit.max_steps,
        half=int(d.get("half_endurance", 0)),
        defense=int(d.get("defense", 0)),
        weapons=_weapons(d.get("weapons")),
        damaged_defense=dmg.get("defense"),
        damaged_weapons=_weapons(dmg["weapons"]) if "weapons" in dmg else None,
        crew=int(d.get("crew", 0) or 0),
        cost=int(d.get("cost", 0)),
        domain=domain_of(d.get("category", "infantry"), d.get("domain")),
        experience=tuple(d.get("experience", ()) or ()),
        setup_required=bool(d.get("setup_required", False)),
        set_up="set-up" in unit.markers,
        on_sortie="sortie" in unit.markers,
        name=unit.name,
        extra=d,
    )


def status_of(unit: Any) -> tuple[int, int]:
    """A unit's (Endurance left, crew left); destroyed units are :data:`DESTROYED`."""
    if unit.steps <= 0:
        return DESTROYED
    crew = unit.data.get("crew_now", unit.data.get("crew", 0)) or 0
    return (int(unit.steps), int(crew))


# -- schema ------------------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WeaponSpec(_Strict):
    slot: Literal["primary", "secondary"] = "primary"
    name: str = ""
    attack_rating: int = Field(ge=1, le=20, description="hit on a D20 >= this (OES.5)")
    di: int = Field(ge=-20, le=50, description="Damage Index (OES.7)")
    ap: int = Field(0, ge=0, le=20, description="armour-piercing rating, 0 = none (AP.1)")
    range: int = Field(1, ge=0, le=50, description="hexes (placeholder)")
    targets: list[Literal["ground", "air", "naval"]] = []


class DamagedSpec(_Strict):
    defense: int | None = Field(None, ge=0)
    weapons: list[WeaponSpec] | None = None
    move: float | None = Field(None, ge=0)


class UnitDataSpec(_Strict):
    """The payload of an opscale unit (catalog ``data:`` merged with the scenario's)."""

    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    domain: Literal["ground", "air", "naval"] | None = None
    cost: int = Field(0, ge=0)
    defense: int = Field(0, ge=0)
    half_endurance: int = Field(0, ge=0)
    crew: int = Field(0, ge=0)
    crew_now: int | None = Field(None, ge=0)
    move: float = Field(0, ge=0)
    weapons: list[WeaponSpec] = []
    damaged: DamagedSpec = DamagedSpec()
    command_radius: int | None = Field(None, ge=0)
    capacity: int = Field(0, ge=0)
    carries: list[str] = ["infantry", "engineer"]
    recon: bool = False
    setup_required: bool = False
    sortie_range: int = Field(0, ge=0)
    experience: list[str] = []
    captured: bool = False
    used: bool = False
    carried_by: str | None = None
    base: str | None = None
    purchased_turn: int | None = None
    clearing_attempts: int = Field(0, ge=0)
    notes: str = ""


def validate_unit_data(
    data: Mapping[str, Any], bonuses: tuple[str, ...] = ()
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Check an opscale unit payload; returns the normalised payload and ``(path, problem)`` pairs.

    >>> validate_unit_data({"category": "tank"})[1][0][0]
    'category'
    >>> validate_unit_data({"category": "infantry", "weapons": [{"attack_rating": 11, "di": 2}]})[1]
    []
    """
    try:
        spec = UnitDataSpec.model_validate(dict(data))
    except ValidationError as exc:
        return dict(data), [(key_path(loc), msg) for loc, msg in validation_problems(exc)]
    problems: list[tuple[str, str]] = []
    slots = [w.slot for w in spec.weapons]
    if slots.count("primary") > 1:
        problems.append(("weapons", "a Unit Card has at most one primary weapon (OES.4)"))
    if bonuses:
        for i, b in enumerate(spec.experience):
            if b not in bonuses:
                problems.append(
                    (
                        f"experience.{i}",
                        f"unknown experience bonus {b!r}; known: {', '.join(bonuses)}",
                    )
                )
    norm = spec.model_dump(exclude_defaults=True)
    norm["category"] = spec.category
    return norm, problems
