"""The unit payload schema (pydantic), checked when a scenario loads.

>>> validate_payload({"cls": "company", "mobility": "foot", "attack": 4, "defense": 4, "mp": 3, "ml": 8})[1]
[]
>>> validate_payload({"cls": "tank", "attack": -1})[1][0][0]
'cls'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from owsnb.kernel.errors import key_path, validation_problems

__all__ = ["UnitPayload", "validate_payload"]


class UnitPayload(BaseModel):
    model_config = ConfigDict(extra="allow")

    cls: Literal["company", "hqcompany", "vehicle", "battery", "asset", "hq", "aircraft", "naval"]
    mobility: Literal["foot", "motorized", "mech", "armored", "towed", "air", "sea"] = "foot"
    attack: int = Field(0, ge=0)
    defense: int = Field(0, ge=0)
    mp: float = Field(0, ge=0)
    ml: int = Field(7, ge=2, le=12)
    elr: int = Field(0, ge=-3, le=3)
    echelon: Literal["battalion", "regiment", "brigade", "division", "corps", "army"] | None = None
    radius: int = Field(0, ge=0)
    parent: str | None = None
    state: int = Field(0, ge=0, le=5)
    recon: bool = False
    engineer: bool = False
    independent: bool = False
    para: bool = False
    offboard: bool = False


def validate_payload(data: Any) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Normalised payload and ``(key, problem)`` pairs."""
    try:
        m = UnitPayload.model_validate(dict(data))
    except ValidationError as exc:
        return dict(data), [(key_path(loc), msg) for loc, msg in validation_problems(exc)]
    out = m.model_dump(exclude_none=True)
    return out, []
