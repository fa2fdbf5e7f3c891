"""Stands, formations, combat values and divisional morale (§7, §8, §9, §11).

A *stand* is a kernel :class:`~owsnb.kernel.state.Unit` whose payload says what it is (arm,
quality, equipment, mode of movement, nationality) and which *formation* (a division, or a
group of assets under a higher-level command stand) it belongs to. Its current combat value is
the unit's ``steps`` and its starting combat value ``max_steps``.

Footnote viii: a conscript Russian rifle regiment has combat value 2.

>>> combat_value({"arm": "infantry", "quality": "conscript"})
2
>>> combat_value({"arm": "infantry", "quality": "elite"})  # footnote viii's "+4" is a typo for +3
4

Footnote x: a rifle division under an Average General.

>>> division_morale([2, 2, 2, 3, 2])
6
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from owsnb.kernel.errors import key_path, validation_problems
from owsnb.kernel.state import StateLike
from owsnb.rules.opart.tables import table

__all__ = [
    "ARMS",
    "MODES",
    "StandData",
    "validate_stand",
    "primary_addition",
    "cv_breakdown",
    "combat_value",
    "division_morale",
    "die_sides",
    "weapon_class",
    "weapon_range",
    "formation_of",
    "formations",
    "formation_stands",
    "command_stand",
    "is_division",
    "can_initiate",
    "is_artillery",
    "on_foot_class",
    "arm_label",
]

ARMS = ("infantry", "cavalry", "afv", "artillery", "transport", "command", "hq")
"""Stand arms: combat stands, divisional command stands (``command``) and higher-level command
stands (``hq``) (§7)."""

MODES: dict[str, tuple[str, ...]] = {
    "infantry": ("foot", "vehicles"),
    "cavalry": ("mounted", "dismounted"),
    "afv": ("tracked",),
    "artillery": ("towed", "self_propelled"),
    "transport": ("motorised", "horse_drawn"),
    "command": ("foot", "vehicles"),
    "hq": ("foot", "vehicles"),
}
"""Modes of movement each arm may use (§13), the first being the default."""

QUALITIES: dict[str, tuple[str, ...]] = {
    "infantry": ("poor", "conscript", "regular", "elite"),
    "cavalry": ("poor", "conscript", "regular"),
    "command": ("poor", "average", "good", "exceptional"),
    "hq": ("poor", "average", "good", "exceptional"),
}

GUNS = ("anti_tank", "field", "medium", "heavy", "rocket")
AFVS = ("light", "medium", "heavy", "very_heavy")


class StandData(BaseModel):
    """The payload of a stand (catalog ``data`` merged with the unit's own ``data``).

    Attributes:
        formation: id of its division or asset group (§7).
        nation: ``german`` (D12), ``soviet`` or ``axis_ally`` (D10) (§11).
        arm: one of :data:`ARMS`.
        quality: training/experience for infantry, cavalry and Generals (§8).
        afv: AFV class for AFV stands (§8).
        gun: artillery type: anti_tank, field, medium, heavy or rocket (§14 ranges).
        mode: mode of movement (§13); defaults to the arm's first mode.
        remount: may change mode (mount/dismount, embark/debus) (ruling R17).
        additions: further §8 rows, counted only under the ``cv_additions: sum`` option.
        facing: starting facing (compass name or 0-5); else the side's default.
        size: stacking footprint in standard stands (ruling R21).
        label: short counter label ("360 RR").
    """

    model_config = ConfigDict(extra="forbid")

    formation: str = Field(min_length=1)
    nation: Literal["german", "soviet", "axis_ally"]
    arm: Literal["infantry", "cavalry", "afv", "artillery", "transport", "command", "hq"]
    quality: str | None = None
    afv: Literal["light", "medium", "heavy", "very_heavy"] | None = None
    gun: Literal["anti_tank", "field", "medium", "heavy", "rocket"] | None = None
    mode: str | None = None
    remount: bool = False
    additions: list[str] = []
    facing: str | int | None = None
    size: int = Field(1, ge=1, le=3)
    label: str = ""
    notes: str = ""

    @model_validator(mode="after")
    def _by_arm(self) -> StandData:
        arm = self.arm
        quals = QUALITIES.get(arm)
        if quals is not None:
            if self.quality is None:
                raise ValueError(f"a {arm} stand needs a quality: one of {', '.join(quals)} (§8)")
            if self.quality not in quals:
                raise ValueError(
                    f"quality of a {arm} stand must be one of {', '.join(quals)}, "
                    f"not {self.quality!r} (§8)"
                )
        elif self.quality is not None:
            raise ValueError(f"a {arm} stand has no quality rating in §8")
        if arm == "afv" and self.afv is None:
            raise ValueError(f"an AFV stand needs afv: one of {', '.join(AFVS)} (§8)")
        if arm != "afv" and self.afv is not None:
            raise ValueError("only AFV stands have an afv class")
        if arm == "artillery" and self.gun is None:
            raise ValueError(f"an artillery stand needs gun: one of {', '.join(GUNS)} (§14)")
        if arm != "artillery" and self.gun is not None:
            raise ValueError("only artillery stands have a gun type")
        modes = MODES[arm]
        if self.mode is None:
            self.mode = modes[0]
        elif self.mode not in modes:
            raise ValueError(f"a {arm} stand moves {' or '.join(modes)}, not {self.mode!r} (§13)")
        return self


def validate_stand(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Check and normalise a stand payload; returns ``(payload, [(key, problem)])``.

    >>> validate_stand({"formation": "74rd", "nation": "soviet", "arm": "infantry"})[1]
    [('', 'a infantry stand needs a quality: one of poor, conscript, regular, elite (§8)')]
    """
    try:
        model = StandData.model_validate(dict(data))
    except ValidationError as exc:
        return dict(data), [(key_path(loc), msg) for loc, msg in validation_problems(exc)]
    return model.model_dump(exclude_defaults=False), []


def primary_addition(stand: Mapping[str, Any]) -> str:
    """The §8 row a stand is rated by (ruling R12: one addition per stand, by arm).

    >>> primary_addition({"arm": "afv", "afv": "heavy"}), primary_addition({"arm": "hq", "quality": "good"})
    ('heavy_afv', 'good_general')
    """
    arm = stand["arm"]
    if arm in ("infantry", "cavalry"):
        return f"{stand['quality']}_infantry"
    if arm in ("command", "hq"):
        return f"{stand['quality']}_general"
    if arm == "afv":
        return f"{stand['afv']}_afv"
    return arm  # artillery, transport


def cv_breakdown(
    stand: Mapping[str, Any], state: StateLike | None = None, rule: str = "single"
) -> list[tuple[str, int, str]]:
    """The terms of a stand's combat value: ``(row, value, text)``, the basic value first.

    Args:
        stand: the stand's payload.
        state: a game state or view whose tables are in force (``None``: shipped tables).
        rule: ``"single"`` (one addition, ruling R12) or ``"sum"`` (also its listed ``additions``).

    >>> [v for _, v, _ in cv_breakdown({"arm": "artillery", "gun": "field"})]
    [1, 2]
    """
    t = table(state, "combat_values")
    rows = t["additions"]
    out = [("basic", int(t["basic"]), "Basic combat value for all stands")]
    keys = [primary_addition(stand)]
    if rule == "sum":
        keys += [k for k in stand.get("additions", ()) if k not in keys]
    for k in keys:
        row = rows.get(k)
        if row is None:
            raise ValueError(f"no row {k!r} in the §8 combat value table")
        if row.get("general") and stand["arm"] not in ("command", "hq"):
            raise ValueError(f"{row['text']} applies only to command stands (§8)")
        out.append((k, int(row["value"]), str(row["text"])))
    return out


def combat_value(
    stand: Mapping[str, Any], state: StateLike | None = None, rule: str | None = None
) -> int:
    """A stand's starting combat value (§8): the basic value plus its additions.

    >>> combat_value({"arm": "command", "quality": "exceptional"}), combat_value({"arm": "afv", "afv": "very_heavy"})
    (4, 6)
    """
    if rule is None:
        rule = (getattr(state, "options", None) or {}).get("cv_additions", "single")
    return sum(v for _, v, _ in cv_breakdown(stand, state, rule))


def division_morale(values: Iterable[int]) -> int:
    """Starting divisional morale (§9): half the total combat value, fractions rounded up
    (footnote ix).

    >>> division_morale([4, 3, 3, 3])
    7
    """
    total = sum(int(v) for v in values)
    return (total + 1) // 2


def die_sides(state: StateLike, unit: Any) -> int:
    """Faces of the die the stand throws (§11): D12 for Germans, D10 for Russians and Axis allies."""
    return int(table(state, "dice")[unit.get("nation")])


def weapon_class(unit: Any) -> str:
    """The stand's row of the §14 weapon range table."""
    arm = unit.get("arm")
    if arm == "artillery":
        return unit.get("gun")
    if arm in ("command", "hq"):
        return "command"
    return arm


def weapon_range(state: StateLike, unit: Any) -> int:
    """Weapon range in hexes (§14); 0 means the stand may not initiate combat (ruling R11)."""
    return int(table(state, "ranges")["weapons"].get(weapon_class(unit), 0))


def can_initiate(state: StateLike, unit: Any) -> bool:
    """May the stand initiate combat at all (its weapon class has a range)?"""
    return weapon_range(state, unit) > 0


def is_artillery(unit: Any) -> bool:
    """Artillery stands (any gun type, self-propelled or towed, rockets included)."""
    return unit.get("arm") == "artillery"


def on_foot_class(state: StateLike, unit: Any) -> bool:
    """Infantry on foot and dismounted cavalry: the only stands that may go off-road into woods
    and villages (§13); Generals on foot too when the ``generals_in_woods`` option is on."""
    arm, mode = unit.get("arm"), unit.get("mode")
    if arm == "infantry" and mode == "foot":
        return True
    if arm == "cavalry" and mode == "dismounted":
        return True
    return (
        arm in ("command", "hq")
        and mode == "foot"
        and bool(state.options.get("generals_in_woods", False))
    )


def arm_label(unit: Any) -> str:
    """A short description: "conscript infantry (foot)", "medium AFV", "field artillery"."""
    arm = unit.get("arm")
    if arm == "afv":
        return f"{unit.get('afv').replace('_', ' ')} AFV"
    if arm == "artillery":
        sp = " (self-propelled)" if unit.get("mode") == "self_propelled" else ""
        return f"{unit.get('gun').replace('_', '-')} artillery{sp}"
    if arm in ("command", "hq"):
        what = "divisional command" if arm == "command" else "higher-level command"
        return f"{what} ({unit.get('quality')} General)"
    if arm == "transport":
        return f"transport ({unit.get('mode').replace('_', '-')})"
    return f"{unit.get('quality')} {arm} ({unit.get('mode')})"


# -- formations ---------------------------------------------------------------------------------
def formations(state: StateLike) -> Mapping[str, Any]:
    """Formation facts set up at load: id -> {title, short, side, kind, command}."""
    return state.public.get("formations", {})


def formation_of(unit: Any) -> str:
    """The formation id of a stand."""
    return unit.get("formation")


def formation_stands(state: StateLike, fid: str, *, on_map: bool = True) -> list[Any]:
    """Stands of formation *fid* (by default only those on the battlefield)."""
    return [
        u
        for u in state.units.values()
        if u.get("formation") == fid and (u.hex is not None or not on_map)
    ]


def command_stand(state: StateLike, fid: str) -> Any:
    """The formation's command stand if it is on the battlefield, else ``None``."""
    cid = formations(state).get(fid, {}).get("command")
    u = state.units.get(cid) if cid else None
    return u if u is not None and u.hex is not None else None


def is_division(state: StateLike, fid: str) -> bool:
    """Divisions have morale (§9); groups of assets under a higher-level command do not (R13)."""
    return formations(state).get(fid, {}).get("kind") == "division"
