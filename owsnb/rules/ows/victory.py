"""Victory in an OWS scenario: the facilitator's score sheet (12.1), judged live.

The series rules leave victory to each scenario and to the facilitator's assessment (12.1). A
scenario may write its conditions as data under ``rules: victory:`` so that the table can show
how the game stands at any moment — to each side as far as it knows, to the umpire in truth:

.. code-block:: yaml

    rules:
      victory:
        turn: 2                  # judged at the end of this turn (default: the scenario's turns)
        objectives:              # a side scores the points of every objective it holds
          - {hex: "0506", name: Kinmen, points: {red: 1}}
          - {hex: "0507", name: north gate, points: {red: 2, blue: 2}, by: naval}
        losses:                  # a side scores enemy losses; the first entry matching a unit counts
          - {side: red, what: Blue carriers mission-killed, subtype: [cvn, lha, cv],
             per: unit, points: 5}
          - {side: red, what: other Blue ship steps lost, category: [naval, submarine]}
          - {side: red, what: Blue steps destroyed, every: 3}       # 1 point per 3 steps
        outright:                # holding any of these hexes wins at once
          - {side: red, holds: ["0606"]}
        lead_needed: {red: 4}    # the lead a side needs to win (default 1)
        otherwise: blue          # who wins when nobody has the lead it needs (default: a draw)
        decisive: 10             # a lead this large is decisive
        costlier_draws: true     # a winner that lost more steps than its enemy only draws
        notes: ["Kaohsiung's port capacity is scored by the facilitator"]

Holding a hex (``by: ground``, the default): a side holds it when its land units are there and
no enemy land unit is; when nobody's are, the side that took it (10.15.8, the hex's ``control``)
or, before anyone did, its owner on the map. ``by: naval``: the side whose surface ships alone
are there. Losses count from a unit's full strength (its step boxes, 2.2): ``per: step`` counts
every step lost (``every`` steps make ``points``), ``per: unit`` each unit mission-killed (all
its steps lost, 9.6).

Judged on a side's view, enemy units count only as far as that side has seen them (a sunk ship it
never detected is not in its tally) and face-down counters, whose category it does not know
(8.4.1), count for nothing: the standing is the side's own estimate. The umpire's view is the
truth.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatch
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from owsnb.kernel.errors import key_path, validation_problems
from owsnb.kernel.state import UMPIRE, StateLike

__all__ = ["Sheet", "problems", "sheet", "holder", "losses", "standing", "RULE"]

RULE = "12.1"
"""The assessment phase: the facilitator's judgement, here written down by the scenario."""

_LAND_OUT = ("naval", "submarine", "air-mission", "air-base", "sof")
_DOMAINS = {
    "naval": "maritime",
    "submarine": "maritime",
    "air-mission": "air",
    "air-base": "air",
    "sof": "sof",
}
"""Domains as the rule set's ``unit_domain`` names them (every other category is ``land``)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Objective(_Strict):
    hex: str
    name: str = ""
    points: dict[str, int]
    by: Literal["ground", "naval"] = "ground"


class LossRule(_Strict):
    side: str = Field(description="the side that scores (for the enemy's losses)")
    what: str = ""
    points: int = 1
    per: Literal["step", "unit"] = "step"
    every: int = Field(1, ge=1)
    category: list[str] = []
    subtype: list[str] = []
    kinds: list[str] = Field([], description="unit type keys (shell patterns: prc-df*)")
    domain: str | None = None


class Outright(_Strict):
    side: str
    holds: list[str]
    by: Literal["ground", "naval"] = "ground"
    text: str = ""


class Sheet(_Strict):
    """A scenario's score sheet (see the module docstring)."""

    turn: int | None = None
    objectives: list[Objective] = []
    losses: list[LossRule] = []
    outright: list[Outright] = []
    lead_needed: dict[str, int] = {}
    otherwise: str | None = None
    decisive: int | None = None
    costlier_draws: bool = False
    notes: list[str] = []


def problems(state: StateLike, data: Any) -> list[tuple[str, str]]:
    """What is wrong with a scenario's ``rules.victory`` (key path, problem)."""
    if not data:
        return []
    try:
        sh = Sheet.model_validate(data)
    except ValidationError as exc:
        return [(key_path(loc), msg) for loc, msg in validation_problems(exc, ["rules", "victory"])]
    out = []
    sides = set(state.sides)

    def side(path: str, s: str | None) -> None:
        if s is not None and s not in sides:
            out.append((path, f"no side {s!r}; sides are {', '.join(state.sides)}"))

    def hex_(path: str, label: str) -> None:
        try:
            h = state.map.hex(label)
        except Exception:  # noqa: BLE001 - any bad label is reported the same way
            h = None
        if h is None or h not in state.map.hexes:
            out.append((path, f"no hex {label!r} on this map"))

    for i, o in enumerate(sh.objectives):
        hex_(f"rules.victory.objectives.{i}.hex", o.hex)
        for s in o.points:
            side(f"rules.victory.objectives.{i}.points.{s}", s)
    for i, rule in enumerate(sh.losses):
        side(f"rules.victory.losses.{i}.side", rule.side)
    for i, won in enumerate(sh.outright):
        side(f"rules.victory.outright.{i}.side", won.side)
        for j, lab in enumerate(won.holds):
            hex_(f"rules.victory.outright.{i}.holds.{j}", lab)
    for s in sh.lead_needed:
        side(f"rules.victory.lead_needed.{s}", s)
    side("rules.victory.otherwise", sh.otherwise)
    return out


def sheet(view: Any) -> Sheet | None:
    """The scenario's score sheet (``None`` if it has none)."""
    data = view.public.get("victory")
    return Sheet.model_validate(_plain(data)) if data else None


def _plain(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _category(u: Any) -> str | None:
    return u.data.get("category")  # None: a face-down counter (8.4.1)


def _is_land(u: Any) -> bool:
    c = _category(u)
    return c is not None and c not in _LAND_OUT and u.alive


def _is_surface(u: Any) -> bool:
    return _category(u) == "naval" and u.alive


def holder(view: Any, label: str, by: str = "ground") -> str | None:
    """The side holding hex *label* as *view* knows it (see the module docstring)."""
    h = view.map.hex(label)
    test = _is_land if by == "ground" else _is_surface
    here = {u.side for u in view.units.values() if u.hex == h and test(u)}
    if len(here) == 1:
        return next(iter(here))
    if here or by != "ground":
        return None  # contested, or no ship there
    info = view.map.hexes[h]
    owner = info.facts.get("control")
    if owner is None:
        owner = next(
            (
                f.get("owner")
                for f in info.features.values()
                if isinstance(f, Mapping) and f.get("owner")
            ),
            None,
        )
    return owner if owner in view.sides else None


def _matches(rule: LossRule, u: Any) -> bool:
    if rule.category and _category(u) not in rule.category:
        return False
    if rule.subtype and u.data.get("subtype") not in rule.subtype:
        return False
    if rule.kinds and not any(fnmatch(u.kind, k) for k in rule.kinds):
        return False
    if rule.domain is not None and _DOMAINS.get(str(_category(u)), "land") != rule.domain:
        return False
    return _category(u) is not None


def steps_lost(view: Any, side: str) -> int:
    """Steps *side* has lost, as *view* knows (each unit from its full strength, 2.2)."""
    return sum(max(u.max_steps - u.steps, 0) for u in view.units.values() if u.side == side)


def losses(view: Any, sh: Sheet, scorer: str) -> list[dict[str, Any]]:
    """Rows of the points *scorer* earns from enemy losses, one per loss rule that scored."""
    rules = [r for r in sh.losses if r.side == scorer]
    counts = [0] * len(rules)
    for u in view.units.values():
        if u.side == scorer:
            continue
        for i, r in enumerate(rules):
            if _matches(r, u):
                lost = max(u.max_steps - u.steps, 0)
                counts[i] += (1 if u.steps <= 0 else 0) if r.per == "unit" else lost
                break
    rows = []
    for r, n in zip(rules, counts, strict=True):
        pts = (n // r.every) * r.points
        if n:
            what = r.what or ("enemy units mission-killed" if r.per == "unit" else "enemy steps")
            rows.append({"side": scorer, "what": f"{what}: {n}", "points": pts})
    return rows


def standing(view: Any, is_over: bool = False) -> dict[str, Any]:
    """How the game stands by the scenario's score sheet, as *view* knows it (see
    :meth:`owsnb.kernel.ruleset.RuleSet.guide`); on a side's view, the enemy's losses are those
    it has seen."""
    sh = sheet(view)
    sides = list(view.sides)
    judged = sh.turn if sh is not None and sh.turn else view.scenario.get("turns")
    when = f"judged at the end of turn {judged}" if judged else "judged by the facilitator"
    if sh is None:
        return {
            "text": "this scenario scores nothing by itself: the facilitator judges (12.1)",
            "scores": {},
            "leader": None,
            "final": False,
            "rows": [],
            "notes": ["write a score sheet under rules: victory: to have it judged live"],
            "rule": RULE,
        }
    rows: list[dict[str, Any]] = []
    for o in sh.objectives:
        who = holder(view, o.hex, o.by)
        name = o.name or o.hex
        if who is not None and o.points.get(who):
            rows.append({"side": who, "what": f"holds {name} ({o.hex})", "points": o.points[who]})
    for s in sides:
        rows += losses(view, sh, s)
    scores = {s: sum(r["points"] for r in rows if r["side"] == s) for s in sides}
    lost = {s: steps_lost(view, s) for s in sides}
    outright = next(
        (o for o in sh.outright if any(holder(view, h, o.by) == o.side for h in o.holds)), None
    )
    final = bool(is_over)
    leader, result = _verdict(view, sh, scores, lost, outright, final)
    pts = ", ".join(f"{_title(view, s)} {scores[s]}" for s in sides)
    known = "" if view.side == UMPIRE else " — as far as you know"
    text = f"{result} ({pts}; {when}){known}"
    notes = list(sh.notes)
    if view.side != UMPIRE:
        notes.append("enemy losses count only as far as you have seen them")
    return {
        "text": text,
        "scores": scores,
        "leader": leader,
        "final": final,
        "rows": rows,
        "lost": lost,
        "notes": notes,
        "rule": RULE,
    }


def _verdict(
    view: Any,
    sh: Sheet,
    scores: dict[str, int],
    lost: dict[str, int],
    outright: Outright | None,
    final: bool,
) -> tuple[str | None, str]:
    """(leader or None, the standing in words)."""
    if outright is not None:
        what = outright.text or f"{_title(view, outright.side)} holds {', '.join(outright.holds)}"
        now = "wins outright" if final else "would win outright now"
        return outright.side, f"{_title(view, outright.side)} {now}: {what}"
    sides = list(scores)
    ranked = sorted(sides, key=lambda s: -scores[s])
    top = ranked[0] if ranked else None
    lead = scores[top] - max((scores[s] for s in ranked[1:]), default=0) if top else 0
    if top is not None and lead >= sh.lead_needed.get(top, 1):
        leader = top
    elif sh.otherwise is not None:
        short = [s for s in sides if s != sh.otherwise and s in sh.lead_needed]
        need = "; ".join(
            f"{_title(view, s)} needs to lead by {sh.lead_needed[s]} point"
            f"{'s' if sh.lead_needed[s] != 1 else ''} to win"
            for s in short
        )
        verb = "wins" if final else "is winning"
        return sh.otherwise, f"{_title(view, sh.otherwise)} {verb}" + (f" ({need})" if need else "")
    else:
        return None, "level: a draw"
    if sh.costlier_draws and lost[leader] > max((lost[s] for s in sides if s != leader), default=0):
        return None, f"a draw: {_title(view, leader)} is ahead but has lost more steps"
    margin = scores[leader] - max((scores[s] for s in sides if s != leader), default=0)
    kind = " (decisive)" if sh.decisive and margin >= sh.decisive else ""
    return leader, f"{_title(view, leader)} {'wins' if final else 'leads'}{kind}"


def _title(view: Any, side: str) -> str:
    """A side's title without its gloss: "Blue (Taiwan)" -> "Blue"."""
    s = view.sides.get(side)
    return (getattr(s, "title", None) or side).split(" (")[0]
