"""OWS counters (2.2) and status markers (2.3): the unit payload schema and typed accessors.

A unit's ``data`` (from the catalog, merged with the scenario) is validated by :data:`Payload`
(pydantic). Rule code never reads raw dicts: it asks :func:`counter` for a typed, read-only view
that also knows what has been expended (``data.spent``, 9.5) and which step boxes are crossed
(9.6).

>>> p, problems = validate("naval", {"category": "naval", "red_shield": 5, "signature": 7,
...     "attacks": [{"die": "d10", "count": 3, "targets": ["naval", "ground"], "range": 2}]})
>>> problems, p["attacks"][0]["id"]
([], 'a0')
>>> validate("naval", {"category": "naval", "red_shield": "five"})[1][0][0]
'red_shield'
>>> damage_order(4, columns=2)   # 9.6: top right, bottom right, top left, bottom left
[1, 3, 0, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from owsnb.kernel.errors import key_path, validation_problems
from owsnb.rules.ows.dice import parse_die

__all__ = [
    "CATEGORIES",
    "TARGET_TYPES",
    "FLAGS",
    "MISSIONS",
    "MARKERS",
    "Payload",
    "AttackSpec",
    "ShieldSpec",
    "SensorSpec",
    "BoxSpec",
    "validate",
    "register_fields",
    "counter",
    "Counter",
    "Attack",
    "Shield",
    "damage_order",
    "target_type",
    "BALLISTIC",
    "HYPERSONIC",
]

CATEGORIES = (
    "ground",
    "naval",
    "submarine",
    "air-base",
    "air-mission",
    "sof",
    "hq",
    "artillery",
    "air-defence",
    "asp",
    "css",
    "engineer",
    "transport",
    "infrastructure",
)
"""Counter kinds of 2.2: ground (2.2.7), naval surface (2.2.5), submarine (2.2.6), squadron base and
air missions (2.2.4), SOF (2.2.7.2), HQ (2.2.7.1), artillery/rocket (2.2.7.3), air defence
(2.2.7.4), ASP (2.2.2.6); css/engineer/transport for part 2 (10.13, 5.1)."""

TARGET_TYPES = ("air", "naval", "ground", "sub")
"""Red target silhouettes (2.2.2): aircraft, ship, runway (ground); ``sub`` = the red submarine
silhouette (8.5.2)."""

BALLISTIC = ("SRBM", "MRBM", "IRBM")
HYPERSONIC = ("H", "HGV")
FLAGS = (
    *HYPERSONIC,
    *BALLISTIC,
    "supersonic",
    "subsonic",
    "torpedo",
    "loitering",
    "pgm",
    "nuclear",
)
"""Salvo flags (2.2.2.7): H, HGV, SRBM/MRBM/IRBM; speed class for CAP intercept (9.9.4.1)."""

MISSIONS = (
    "cap",
    "dca",
    "oca",
    "strike",
    "sead",
    "cas",
    "interdiction",
    "sucap",
    "aew",
    "tanker",
    "asw",
    "transport",
    "bomber",
    "ew",
    "isr",
    "air-assault",
)
"""Air mission types (6.5, 6.5.10)."""

MARKERS = {
    "tacsit1": "2.3.3 TACSIT 1: detected and targetable",
    "suppressed": "2.3.2 / 10.15.7 Suppressed",
    "rsoi": "2.3.1 RSO&I",
    "amphibious-assault": "2.3.4 Amphibious Assault",
    "airborne-assault": "2.3.4 Airborne / Air Assault",
    "silent-running": "6.4.2.1 Silent Running",
    "cavitation": "6.4.2.2 Cavitation",
    "emitting": "6.4.3 Active EMCON (face up, detected)",
    "asw": "6.4.4 ASW mode",
    "engaged": "9.7 engaged in air combat this turn",
    "expended": "10.15.5 fired all its missions / interdiction used (6.5.10.4)",
    "disrupted-c2": "7.2.1.1 Disrupted C2",
    "assured-c2": "7.2.1.2 Assure C2 token",
    "sigint": "7.2.1.3 SIGINT/EMSO token",
    "countermeasures": "7.2.1.4 Active & Passive Countermeasures token",
    "reserve": "10.4 Reserve",
    "main-effort": "10.5 Main Effort",
    "defend": "10.6 Defend",
    "fortified": "10.7 Fortified",
    "delay": "10.8 Delay",
    "idf-spt": "2.2.7.3 IDF support",
    "combat": "10.15 Combat",
    "radiation": "7.4 radiation",
    "sr": "8.5.1 special reconnaissance",
    "last-known": "contact lost: shown where last detected",
}
"""Status-marker vocabulary shared by every OWS module (2.3 and the chapters cited)."""


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AttackSpec(_M):
    """One attack-die group: ``count`` salvos of ``die`` (2.2.2, 2.2.2.1)."""

    id: str = ""
    die: str
    count: int = Field(1, ge=0, description="magazine: number of salvos (dice on the counter)")
    targets: list[Literal["air", "naval", "ground", "sub"]] = ["naval", "ground"]
    range: int = Field(0, ge=0, description="range in hexes (superscript; 0 = own hex)")
    flags: list[str] = []
    auto_resupply: bool = Field(False, description="curved arrow (2.2.2.4, 11.8)")
    pool: str = Field("", description="multi-role pool shared with a shield group (2.2.2.8)")
    air_to_air: bool = Field(False, description="organic air-to-air die of an air mission")
    cap_defense: int | None = Field(
        None, description="defence vs CAP intercept if marked (9.9.4.1)"
    )

    @field_validator("die")
    @classmethod
    def _die(cls, v: str) -> str:
        return parse_die(v)

    @field_validator("flags")
    @classmethod
    def _flags(cls, v: list[str]) -> list[str]:
        bad = [f for f in v if f not in FLAGS]
        if bad:
            raise ValueError(f"unknown salvo flag(s) {bad}; known: {', '.join(FLAGS)}")
        return v


class ShieldSpec(_M):
    """A grey-shield group (2.2.2.3.2): consumable first-layer defence."""

    id: str = ""
    value: int = Field(ge=1)
    count: int = Field(1, ge=0)
    regenerates: bool = Field(False, description="circular arrow: back in Regeneration (2.2.2.3.2)")
    auto_resupply: bool = False
    bmd: bool = Field(False, description="may engage ballistic and H salvos (2.2.2.7)")
    red_arrow: bool = Field(False, description="also demotes inbound ballistic salvos (2.2.2.7)")
    range: int = Field(0, ge=0, description="umbrella: may cover units within this range (9.2)")
    pool: str = ""


class SensorSpec(_M):
    """A sensor (6.5.9, 6.4.2, 8.5.2): radar, AEW, sonar/ASW, EO."""

    kind: Literal["radar", "aew", "asw", "sonar", "eo", "sigint"] = "radar"
    die: str = "d8"
    range: int = 0

    @field_validator("die")
    @classmethod
    def _die(cls, v: str) -> str:
        return parse_die(v)


class BoxSpec(_M):
    """One white step box (2.2.3) and what it carries (aircraft sorties 6.5.6, troops 5.1.1.2)."""

    aircraft: int = 0
    infantry: int = 0
    attacks: list[str] = Field([], description="attack groups crossed out with this box")


class TankerSpec(_M):
    capacity: int = Field(1, ge=1, description="black fighter silhouettes (6.5.4)")
    radius: int | None = Field(None, description="operating radius in hexes; None = '*' unlimited")


class Payload(_M):
    """The OWS payload of any counter (2.2). Fields not relevant to a category are left default."""

    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    nation: str = ""
    subtype: str = Field(
        "", description="cvn, surface, auxiliary, patrol, ssn, ssgn, ssbn, ssk, lhd, ..."
    )
    signature: int | None = Field(None, description="detection target number (2.2.1)")
    signature_type: Literal["theater", "local"] = "theater"
    red_shield: int = Field(3, ge=0, description="enduring defence (2.2.2.3.1)")
    grey_shields: list[ShieldSpec] = []
    attacks: list[AttackSpec] = []
    sensors: list[SensorSpec] = []
    boxes: list[BoxSpec] = Field([], description="step boxes in damage order (9.6)")
    box_columns: int = 1
    # air (2.2.4, 6.5)
    mission: str = ""
    base: str = Field("", description="squadron base counter id (or carrier) of an air mission")
    aircraft: Literal["", "fighter", "bomber", "support", "rotary", "uas"] = ""
    combat_radius: int | None = None
    carrier_capable: bool = False
    tanker: TankerSpec | None = None
    munitions_max: int | None = Field(
        None, description="strike salvos carried (6.5.1.1: fighter 2, bomber 6)"
    )
    stealth: bool = False
    long_range_radar: bool = False
    ew: Literal["", "promote-strike", "demote-sam"] = ""
    red_arrow: bool = Field(
        False, description="SEAD red down arrow: demotes the air defence (9.7.3 step 6)"
    )
    cec: bool = Field(False, description="takes part in CEC (6.5.9.3)")
    cec_provider: bool = Field(False, description="E-2D style CEC enabler (6.5.9.3)")
    missions: int = Field(0, ge=0, description="air missions a squadron base / carrier generates")
    # HQ (2.2.7.1)
    command_radius: int = 0
    io_tokens: int = 0
    # ASP (2.2.2.6)
    salvos: int = Field(0, ge=0, description="salvos held by an ASP")
    permanent: bool = Field(False, description="fixed installation (8.3.1)")
    # SOF (2.2.7.2, 6.6)
    sr_promotion: int = 1
    # regeneration (11.7) override
    regen_target: int | None = None
    regen_die: str | None = None
    # bookkeeping written by the rules
    spent: dict[str, int] = Field({}, description="expended salvos/shields by group or pool (9.5)")
    last_known: dict[str, Any] = Field(
        {}, description="side -> [q, r] where it was last detected (11.6)"
    )
    timers: dict[str, int] = Field(
        {}, description="countdowns by marker name, e.g. {'rsoi': 1} (11.5)"
    )
    suppressed_until: int = Field(0, description="turn through which Suppressed stays (C8)")
    back_on_turn: int | None = Field(None, description="SOF back in play on this turn (6.6.1.2)")
    tanker_id: str | None = Field(None, description="supporting tanker of an air mission (6.5.4)")
    escorts: list[str] = Field([], description="escorts of a strike package (6.5.1)")
    munition_die: str = Field("d10", description="die of the munitions an ASP loads (6.5.1.1)")

    @field_validator("regen_die")
    @classmethod
    def _rd(cls, v: str | None) -> str | None:
        return None if v is None else parse_die(v)


_EXTRA: dict[str, tuple[Any, Any]] = {}
_MODEL: type[BaseModel] | None = None


def register_fields(fields: Mapping[str, tuple[Any, Any]]) -> None:
    """Add payload fields from another OWS module (``{"mp": (int, 0)}``: name -> (type, default)).

    Part-2 modules declare ``UNIT_FIELDS`` and the package registers them at import.
    """
    global _MODEL
    for k, v in fields.items():
        if k in Payload.model_fields:
            raise ValueError(f"payload field {k!r} already exists")
        _EXTRA[k] = v
    _MODEL = None


def _model() -> type[BaseModel]:
    global _MODEL
    if _MODEL is None:
        _MODEL = create_model("OWSPayload", __base__=Payload, **_EXTRA) if _EXTRA else Payload
    return _MODEL


def validate(kind: str, data: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Validate and normalise a payload; returns ``(data, [(key path, problem)])``.

    Attack and shield groups get ids (``a0``, ``g0``...) when none is given.
    """
    try:
        m = _model().model_validate(dict(data))
    except ValidationError as exc:
        return dict(data), [(key_path(loc), msg) for loc, msg in validation_problems(exc)]
    out = m.model_dump()
    for i, a in enumerate(out["attacks"]):
        a["id"] = a["id"] or f"a{i}"
    for i, g in enumerate(out["grey_shields"]):
        g["id"] = g["id"] or f"g{i}"
    problems: list[tuple[str, str]] = []
    for key in ("attacks", "grey_shields"):
        ids = [a["id"] for a in out[key]]
        if len(set(ids)) != len(ids):
            problems.append((key, f"{key} group ids must be unique"))
    pools: dict[str, set[int]] = {}
    for g in (*out["attacks"], *out["grey_shields"]):
        if g["pool"]:
            pools.setdefault(g["pool"], set()).add(g["count"])
    for p, counts in pools.items():
        if len(counts) > 1:
            problems.append(
                (
                    "grey_shields",
                    f"multi-role pool {p!r} has different counts {sorted(counts)} (2.2.2.8)",
                )
            )
    if out["category"] == "air-mission" and not out["mission"]:
        problems.append(("mission", "an air mission needs its mission type (6.5.10)"))
    if out["mission"] and out["mission"] not in MISSIONS:
        problems.append(
            ("mission", f"unknown mission {out['mission']!r}; known: {', '.join(MISSIONS)}")
        )
    return out, problems


# -- typed read access ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Attack:
    """An attack group as rule code sees it: spec plus salvos left (9.5)."""

    id: str
    die: str
    count: int
    left: int
    targets: tuple[str, ...]
    range: int
    flags: frozenset[str]
    auto_resupply: bool
    pool: str
    air_to_air: bool
    cap_defense: int | None

    @property
    def key(self) -> str:
        """Expenditure key: the multi-role pool if any, else the group id (2.2.2.8)."""
        return self.pool or self.id

    @property
    def ballistic(self) -> bool:
        return bool(self.flags & set(BALLISTIC))

    @property
    def hgv(self) -> bool:
        return "HGV" in self.flags

    @property
    def hypersonic(self) -> bool:
        return bool(self.flags & set(HYPERSONIC))

    def can_hit(self, ttype: str) -> bool:
        return ttype in self.targets


@dataclass(frozen=True)
class Shield:
    """A grey-shield group: spec plus shields left."""

    id: str
    value: int
    count: int
    left: int
    regenerates: bool
    auto_resupply: bool
    bmd: bool
    red_arrow: bool
    range: int
    pool: str

    @property
    def key(self) -> str:
        return self.pool or self.id


class Counter:
    """A typed, read-only view of an OWS unit.

    >>> from owsnb.kernel.state import Unit
    >>> from owsnb.kernel.data import freeze
    >>> data, _ = validate("ddg", {"category": "naval", "red_shield": 5, "grey_shields": [
    ...     {"value": 7, "count": 2, "pool": "sm6", "bmd": True}], "attacks": [
    ...     {"die": "d12", "count": 2, "targets": ["air", "naval"], "range": 1, "flags": ["H"], "pool": "sm6"}]})
    >>> c = counter(Unit("DDG-1", "blue", data=freeze({**data, "spent": {"sm6": 1}})))
    >>> c.attacks[0].left, c.shields[0].left, c.grey_left
    (1, 1, 1)
    """

    __slots__ = ("unit", "d")

    def __init__(self, unit: Any):
        self.unit = unit
        self.d = unit.data

    def __getattr__(self, name: str) -> Any:
        try:
            return self.d[name]
        except KeyError:
            f = Payload.model_fields.get(name)
            if f is not None:
                return f.default
            raise AttributeError(name) from None

    @property
    def category(self) -> str:
        return self.d.get("category", "ground")

    @property
    def spent(self) -> Mapping[str, int]:
        return self.d.get("spent", {}) or {}

    @property
    def attacks(self) -> list[Attack]:
        out = []
        sp = self.spent
        lost = self.lost_attack_groups
        for a in self.d.get("attacks", ()):
            key = a.get("pool") or a["id"]
            left = 0 if a["id"] in lost else max(int(a["count"]) - int(sp.get(key, 0)), 0)
            out.append(
                Attack(
                    a["id"],
                    a["die"],
                    int(a["count"]),
                    left,
                    tuple(a.get("targets", ())),
                    int(a.get("range", 0)),
                    frozenset(a.get("flags", ())),
                    bool(a.get("auto_resupply")),
                    a.get("pool", ""),
                    bool(a.get("air_to_air")),
                    a.get("cap_defense"),
                )
            )
        return out

    @property
    def shields(self) -> list[Shield]:
        sp = self.spent
        return [
            Shield(
                g["id"],
                int(g["value"]),
                int(g["count"]),
                max(int(g["count"]) - int(sp.get(g.get("pool") or g["id"], 0)), 0),
                bool(g.get("regenerates")),
                bool(g.get("auto_resupply")),
                bool(g.get("bmd")),
                bool(g.get("red_arrow")),
                int(g.get("range", 0)),
                g.get("pool", ""),
            )
            for g in self.d.get("grey_shields", ())
        ]

    def attack(self, ref: str) -> Attack:
        """An attack group by id or by die (``"a0"``, ``"d12"``; the first with salvos left)."""
        ref = ref.lower()
        for a in self.attacks:
            if a.id.lower() == ref:
                return a
        cands = [a for a in self.attacks if a.die == ref]
        for a in cands:
            if a.left > 0:
                return a
        if cands:
            return cands[0]
        raise KeyError(ref)

    @property
    def grey_left(self) -> int:
        return sum(s.left for s in self.shields)

    @property
    def red_shield(self) -> int:
        return int(self.d.get("red_shield", 3))

    @property
    def signature(self) -> int | None:
        return self.d.get("signature")

    @property
    def low_signature(self) -> bool:
        """8.3.3: sensor-symbol (local) signature."""
        return self.d.get("signature_type") == "local" or bool(self.d.get("stealth"))

    @property
    def crossed_boxes(self) -> list[int]:
        """Indices of crossed boxes (damage order is the listed order, 9.6)."""
        u = self.unit
        return list(range(max(u.max_steps - u.steps, 0)))

    @property
    def lost_attack_groups(self) -> set[str]:
        boxes = self.d.get("boxes", ())
        out: set[str] = set()
        for i in self.crossed_boxes:
            if i < len(boxes):
                out.update(boxes[i].get("attacks", ()))
        return out

    def box_total(self, what: str) -> int:
        """Sum of *what* (``aircraft``, ``infantry``) over uncrossed boxes (6.5.6, 5.1.1.2)."""
        boxes = self.d.get("boxes", ())
        crossed = set(self.crossed_boxes)
        return sum(int(b.get(what, 0)) for i, b in enumerate(boxes) if i not in crossed)

    def sensor(self, kind: str) -> dict | None:
        for s in self.d.get("sensors", ()):
            if s.get("kind") == kind:
                return s
        return None

    @property
    def anti_air(self) -> list[Attack]:
        return [a for a in self.attacks if a.can_hit("air") and a.left > 0]

    @property
    def asw(self) -> Attack | None:
        """The ASW die (red submarine silhouette, 8.5.2)."""
        for a in self.attacks:
            if a.can_hit("sub"):
                return a
        return None

    @property
    def asw_die(self) -> str:
        """The die of the ASW attack (8.5.2) of a unit known to have one (``ValueError`` if not)."""
        a = self.asw
        if a is None:
            raise ValueError(f"{self.unit.id} has no ASW attack (8.5.2)")
        return a.die

    @property
    def is_air(self) -> bool:
        return self.category == "air-mission"

    @property
    def is_naval(self) -> bool:
        return self.category in ("naval", "submarine")

    @property
    def is_fixed(self) -> bool:
        """8.3.1: squadron bases (units at air bases) and permanent ASPs are always detected."""
        return self.category == "air-base" or (
            self.category == "asp" and bool(self.d.get("permanent"))
        )


def counter(unit: Any) -> Counter:
    """A typed view of *unit*'s OWS payload."""
    return Counter(unit)


def target_type(unit: Any) -> str:
    """The target silhouette a salvo needs to engage *unit* (2.2.2): air, naval, sub or ground."""
    cat = unit.data.get("category", "ground")
    if cat == "air-mission":
        return "air"
    if cat == "naval":
        return "naval"
    if cat == "submarine":
        return "sub"
    return "ground"


def damage_order(n: int, columns: int = 1) -> list[int]:
    """The order in which a counter's *n* printed boxes (row-major, *columns* wide) are crossed
    (9.6): top to bottom in the rightmost column, then the next column to the left."""
    columns = max(1, int(columns))
    rows = -(-n // columns)
    order = []
    for c in range(columns - 1, -1, -1):
        for r in range(rows):
            i = r * columns + c
            if i < n:
                order.append(i)
    return order


def markers_of(units: Iterable[Any], marker: str) -> list[Any]:
    """Units carrying *marker*."""
    return [u for u in units if marker in u.markers]
