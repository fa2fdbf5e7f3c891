"""Winning the game (16.0, 17.1, 17.2): victory conditions judged at the end of the game.

Two kinds of condition, named in a scenario's ``rules: victory:`` block:

* ``towns`` (17.1 Red Attack): the attacker captures every listed town hex and keeps at least
  2/3 of its battalions (major), or captures them all with fewer (minor); failing the towns, the
  defender wins (minor if the attacker kept 2/3, major otherwise).
* ``road`` (17.2 Blue Attack): the attacker controls the road — no enemy unit in supply exerts a
  zone of control on any of its hexes — and keeps more than 2/3 of one division (major), 1/2 to
  2/3 (minor); under 1/2 the defender wins a minor victory; without the road, a major one
  (ordering of the overlapping text: digest #35).

Battalions are counted as the digest's ruling #34: every non-dummy counter counts the battalions
it stands for (a battalion with a hit marker counts 1); the baseline is the starting force plus
reinforcements received.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from owsnb.kernel.state import StateLike
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.supply import Supply
from owsnb.rules.combatops.terrain import map_info, parse_hex, zoc

__all__ = ["Verdict", "battalion_count", "baseline", "town_control", "road_controlled", "judge"]

GONE = ("eliminated", "removed")


@dataclass
class Verdict:
    """Who wins and why (or how the game stands if it ended now)."""

    winner: str | None
    level: str
    text: str
    facts: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        who = f"{self.winner} {self.level} victory" if self.winner else "no decision"
        return f"{who}: {self.text}"

    def __repr__(self) -> str:
        return f"<Verdict {self}>"

    def record(self) -> Any:
        """The verdict as a result: who wins and why, and the facts it rests on."""
        from owsnb.kernel.result import Result

        return Result(str(self), dict(self.facts))

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def battalion_count(state: StateLike, side: str, division: str | None = None) -> tuple[int, int]:
    """(battalions remaining, baseline) of *side* (optionally one division), digest #34.

    The baseline (``private['baseline']``) is the starting force plus reinforcements received.
    """
    have = 0
    for u in state.units.values():
        if (
            u.side != side
            or U.is_dummy(u)
            or not u.alive
            or u.box in GONE
            or u.box in ("pool", "lost")
        ):
            continue
        if division is not None and str(u.data.get("division", "")) != str(division):
            continue
        have += U.bns(u)
    base = (
        state.sides[side]
        .private.get("baseline", {})
        .get("*" if division is None else str(division), 0)
    )
    return have, int(base)


def baseline(units: Any) -> dict[str, int]:
    """Battalions per division (and ``"*"`` for all) of the non-dummy *units*."""
    out: dict[str, int] = {}
    for u in units:
        if U.is_dummy(u):
            continue
        for key in ("*", str(u.data.get("division", ""))):
            out[key] = out.get(key, 0) + U.bns(u)
    return out


def town_control(state: StateLike) -> dict[str, str]:
    """Rule-book hex id -> side that captured it (the umpire's record, ``state.secret``)."""
    return dict(state.secret.get("control", {}))


def road_controlled(state: StateLike, side: str, road: str) -> tuple[bool, list[str]]:
    """Does *side* control the road named *road* (17.2)? Returns (controlled, contested hexes):
    contested hexes lie in the ZOC of an enemy unit that is in supply now."""
    info = map_info(state.map)
    hexes = info.road_hexes.get(road, frozenset())
    foe = next(s for s in state.sides if s != side)
    sup = Supply(state, foe)
    live = [
        u
        for u in state.units.values()
        if u.side == foe and u.hex is not None and u.alive and sup.in_supply(u)
    ]
    z = zoc(state, foe, live)
    bad = sorted(info.ids[h] for h in hexes if h in z)
    return not bad, bad


def judge(state: StateLike) -> Verdict:
    """The verdict of the scenario's victory conditions on *state* (the truth)."""
    spec = state.public.get("victory", {})
    kind = spec.get("type")
    side = spec.get("side")
    if not kind or not side:
        return Verdict(None, "", "the scenario names no victory conditions")
    foe = next(s for s in state.sides if s != side)
    if kind == "towns":
        have, base = battalion_count(state, side)
        frac = Fraction(have, base) if base else Fraction(0)
        thr = Fraction(str(spec.get("threshold", "2/3")))
        towns = list(spec.get("towns", ()))
        if state.options.get("town_capture", "last-entered") == "occupy":
            held = {
                t
                for t in towns
                if any(
                    u.side == side and not U.is_dummy(u) and u.alive
                    for u in state.units_at(parse_hex(state.map, t))
                )
            }
        else:
            ctl = town_control(state)
            held = {t for t in towns if ctl.get(t) == side}
        facts = {
            "towns held": ", ".join(sorted(held)) or "none",
            "towns needed": ", ".join(towns),
            f"{side} battalions": f"{have}/{base}",
            "fraction": f"{frac} (threshold {thr})",
        }
        if len(held) == len(towns):
            if frac >= thr:
                return Verdict(
                    side, "major", f"{side} holds every town with {have}/{base} battalions", facts
                )
            return Verdict(
                side,
                "minor",
                f"{side} holds every town but kept only {have}/{base} battalions",
                facts,
            )
        if frac >= thr:
            return Verdict(
                foe,
                "minor",
                f"{side} failed to take every town but kept {have}/{base} battalions",
                facts,
            )
        return Verdict(
            foe, "major", f"{side} failed to take every town and kept only {have}/{base}", facts
        )
    if kind == "road":
        road = str(spec.get("road", "East-West road"))
        ok, bad = road_controlled(state, side, road)
        div = spec.get("division")
        have, base = battalion_count(state, side, div)
        frac = Fraction(have, base) if base else Fraction(0)
        facts = {
            "road": road,
            "contested road hexes": ", ".join(bad) or "none",
            f"division {div} battalions": f"{have}/{base}",
            "fraction": str(frac),
        }
        if not ok:
            return Verdict(foe, "major", f"{side} does not control the {road}", facts)
        if frac < Fraction(1, 2):
            return Verdict(
                foe,
                "minor",
                f"{side} controls the road but under 1/2 of division {div} is left",
                facts,
            )
        if frac <= Fraction(2, 3):
            return Verdict(
                side,
                "minor",
                f"{side} controls the road with {have}/{base} of division {div}",
                facts,
            )
        return Verdict(
            side, "major", f"{side} controls the road with {have}/{base} of division {div}", facts
        )
    return Verdict(None, "", f"unknown victory condition {kind!r}")
