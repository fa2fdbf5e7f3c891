"""Salvos against shields (9.2): the pure shot mechanics of a strike, with no game state.

Paragraphs: 9.2 layered air defence (beat each grey shield, then the red shield); 9.2.1 the shot
calculus (grey shields matched 1:1 to the salvos aimed at a target); 9.2.1.1 excess shields demote
(basic, R4 round-robin); 9.2.1.2 layered (advanced, at most two layers); 2.2.2.7 BMD/HGV/H/
ballistic salvos and the BMD red down arrow; 2.1.1.3 criticals against the red shield; 9.9.4.1 a
CAP's intercept roll before the shields.

A :class:`SalvoPlan` is one salvo as it will be rolled; :func:`allocate` builds the plans for one
target, :func:`salvo_distribution` gives their exact hits and ``_roll_salvo`` rolls one through the
kernel's dice (the strike, the SUCAP attack of 6.5.10.4 and the Monte Carlo checks all use it).

>>> plan = allocate(["d10", "d10", "d10"], [6, 6, 6, 6, 6], excess="demote")
>>> [(p.die, p.layers) for p in plan]
[('d8', (6,)), ('d8', (6,)), ('d10', (6,))]
>>> [(p.die, p.layers) for p in allocate(["d10"] * 3, [6] * 5, excess="layered")]
[('d10', (6, 6)), ('d10', (6, 6)), ('d10', (6,))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.rules.ows.dice import demote, parse_die, success_probability
from owsnb.rules.ows.dice import hits as _hits

__all__ = ["SalvoPlan", "allocate", "engages", "salvo_distribution"]


@dataclass(frozen=True)
class SalvoPlan:
    """One salvo as it will be rolled: final die, grey layers to beat, red shield, CAP intercept.

    Attributes:
        die: the die rolled (all modifiers and excess-shield demotions applied).
        layers: grey shield values to beat, in order (9.2, 9.2.1.2).
        red: the target's red shield (2.2.2.3.1).
        critical: criticals against the red shield (2.1.1.3, R2).
        cap: ``(cap die, salvo defence)`` if an unengaged CAP intercepts it (9.9.4.1).
        source, group, target: ids (``None`` in what-if plans).
        notes: modifiers applied, with their paragraphs.
    """

    die: str
    layers: tuple[int, ...] = ()
    red: int = 0
    critical: bool = True
    cap: tuple[str, int] | None = None
    source: str | None = None
    group: str | None = None
    target: str | None = None
    base_die: str = ""
    notes: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()

    def distribution(self) -> Distribution:
        """Exact distribution of the hits this salvo scores."""
        return salvo_distribution(self)


def salvo_distribution(p: SalvoPlan) -> Distribution:
    """Hits of one salvo: survive the CAP (9.9.4.1), beat each grey layer (9.2), then the red shield
    with criticals (2.1.1.3).

    >>> dict(salvo_distribution(SalvoPlan("d10", layers=(7,), red=5)))
    {0: Fraction(19, 25), 1: Fraction(1, 5), 2: Fraction(1, 25)}
    """
    survive = Fraction(1)
    if p.cap is not None:
        survive *= 1 - success_probability(p.cap[0], p.cap[1])
    for v in p.layers:
        survive *= success_probability(p.die, v)
    n = int(p.die[1:])
    acc: dict[int, Fraction] = {0: 1 - survive}
    for r in range(1, n + 1):
        h = _hits(r, p.red, critical=p.critical) if p.red > 0 else 1
        acc[h] = acc.get(h, Fraction(0)) + survive * Fraction(1, n)
    return Distribution(acc, label=f"hits, {p.die}")


def _eligible(flags: Iterable[str], bmd: bool, hgv_ok: bool) -> bool:
    fl = set(flags)
    if "HGV" in fl:
        return hgv_ok and bmd
    if fl & {"SRBM", "MRBM", "IRBM", "H"}:
        return bmd
    return True


def engages(shield: Mapping[str, Any], salvos: Iterable[Any], hgv_defendable: bool = False) -> bool:
    """Can grey *shield* (``{"value", "bmd"}``) engage at least one of *salvos* (their ``flags``)?
    2.2.2.7: "Ballistic missiles can only be defended by grey shields with an associated 'BMD'
    notation"; a shield that can engage none of the salvos at its target plays no part and is
    not spent.

    >>> bal = SalvoPlan("d12", flags=frozenset({"MRBM"}))
    >>> engages({"value": 6}, [bal]), engages({"value": 7, "bmd": True}, [bal])
    (False, True)
    """
    return any(
        _eligible(getattr(p, "flags", ()), bool(shield.get("bmd")), hgv_defendable) for p in salvos
    )


def allocate(
    salvos: Sequence[Any],
    shields: Sequence[Any],
    *,
    excess: str = "demote",
    red: int = 0,
    critical: bool = True,
    hgv_defendable: bool = False,
) -> list[SalvoPlan]:
    """Match grey shields to the salvos aimed at one target (9.2.1).

    Args:
        salvos: dice (``"d10"``) or :class:`SalvoPlan` objects (their ``flags`` decide eligibility).
        shields: values (``7``) or dicts ``{"value", "bmd", "red_arrow"}``, best first.
        excess: ``"demote"`` (9.2.1.1, basic: each extra shield demotes a salvo, round-robin R4) or
            ``"layered"`` (9.2.1.2, advanced: a second layer, at most two per salvo, no demotion).

    Ballistic and ``H`` salvos face only BMD shields and skip grey shields when none is BMD;
    HGVs bypass grey shields (2.2.2.7); a BMD shield with a red down arrow demotes ballistic salvos.
    """
    plans = [
        s
        if isinstance(s, SalvoPlan)
        else SalvoPlan(parse_die(s), red=red, critical=critical, base_die=parse_die(s))
        for s in salvos
    ]
    sh = [s if isinstance(s, Mapping) else {"value": int(s)} for s in shields]
    sh = sorted(sh, key=lambda s: -int(s["value"]))
    layers: list[list[int]] = [[] for _ in plans]
    dem = [0] * len(plans)
    notes: list[list[str]] = [list(p.notes) for p in plans]
    # red down arrow: a BMD unit with the arrow demotes inbound ballistic salvos (2.2.2.7)
    if any(s.get("bmd") and s.get("red_arrow") for s in sh):
        for i, p in enumerate(plans):
            if p.flags & {"SRBM", "MRBM", "IRBM"}:
                dem[i] += 1
                notes[i].append("BMD red arrow: ballistic salvo demoted (2.2.2.7)")
    pool = list(sh)
    # first layer, 1:1 (9.2.1)
    for i, p in enumerate(plans):
        for k, s in enumerate(pool):
            if _eligible(p.flags, bool(s.get("bmd")), hgv_defendable):
                layers[i].append(int(s["value"]))
                pool.pop(k)
                break
        else:
            if p.flags & {"SRBM", "MRBM", "IRBM", "H", "HGV"}:
                notes[i].append(
                    "no eligible (BMD) grey shield: goes straight at the red shield (2.2.2.7)"
                )
    # excess shields
    if excess == "layered":
        for i, p in enumerate(plans):
            if len(layers[i]) != 1:
                continue
            for k, s in enumerate(pool):
                if _eligible(p.flags, bool(s.get("bmd")), hgv_defendable):
                    layers[i].append(int(s["value"]))
                    pool.pop(k)
                    notes[i].append("second grey layer (9.2.1.2)")
                    break
    else:
        excess_dem = [0] * len(plans)
        while pool:
            sh_ = pool.pop(0)
            cands = [
                i
                for i, p in enumerate(plans)
                if _eligible(p.flags, bool(sh_.get("bmd")), hgv_defendable)
            ]
            if not cands:
                continue
            i = min(
                cands, key=lambda i: (excess_dem[i], i)
            )  # round-robin: each once before any twice (R4)
            excess_dem[i] += 1
            dem[i] += 1
            notes[i].append("excess grey shield: demoted (9.2.1.1)")
    out = []
    for i, p in enumerate(plans):
        out.append(
            replace(p, die=demote(p.die, dem[i]), layers=tuple(layers[i]), notes=tuple(notes[i]))
        )
    return out


def _sum(dists: Iterable[Distribution]) -> Distribution:
    out = Distribution.point(0)
    for d in dists:
        out = out + d
    return out


def _roll_salvo(roll: Any, p: SalvoPlan, vis: Any, label: str) -> int:
    """Roll one salvo through *roll* (a :class:`Roller` or ``fn(die, purpose, rule, vis)``)."""
    if p.cap is not None:
        r = roll(p.cap[0], f"CAP intercept of {label} (salvo defends {p.cap[1]})", "9.9.4.1", vis)
        if r >= p.cap[1]:
            return 0
    for k, v in enumerate(p.layers, 1):
        r = roll(p.die, f"{label} vs grey shield {v} (layer {k})", "9.2", vis)
        if r < v:
            return 0
    r = roll(p.die, f"{label} vs red shield {p.red}", "2.1.1.3", vis)
    if p.red <= 0:
        return 1
    return _hits(r, p.red, critical=p.critical)
