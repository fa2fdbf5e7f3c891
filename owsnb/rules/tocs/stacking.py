"""Stacking (L107, L143-L147): limits, the end-of-impulse check and the owner's elimination.

"Any combination of up to four (4) Companies or Vehicle Platoons or Batteries, plus up to four
(4) assets, plus any number of HQs can stack in a single hex. Battalion HQ-Companies are counted
as Companies" (L144; the limits are table ``stacking``). Units "may temporarily over stack while
moving, attacking, or withdrawing, as long as at the end of the current friendly Operational
Impulse the hex is not over stacked" (L145); units that retreated from combat have until the end
of their side's next Operational Impulse or the end of the turn (L146). "Each over stacked hex
must be reduced ... by either eliminating units (owners choice), or by moving units, or by
attacking out of the hex" (L147): the owner may ``eliminate`` a unit of an over-stacked hex
itself; what is still over-stacked when the impulse ends the referee eliminates (a ruling: the
units with the fewest steps, then the weakest defence, go first). "Individual combats within hexes
must adhere to stacking limits" (L143): a defending hex counts at most the limit's worth of units
(the strongest; :func:`within_limit`).

Rulings: the non-phasing player's moves in Reserve Commitment are checked at the end of the
impulse they happen in (it is the only impulse they have then); an eliminated unit goes to the
dead pile like a destroyed one (L112), so the enemy scores it.

>>> bucket({"cls": "hqcompany"}), bucket({"cls": "asset"}), bucket({"cls": "hq"})
('units', 'assets', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import alive_on_map, ground_units
from owsnb.rules.tocs.order_checks import clock_step, unit_choice_spec

__all__ = [
    "bucket",
    "limits",
    "excess",
    "within_limit",
    "overstacked",
    "congested",
    "enforce",
    "Eliminate",
]

_BUCKETS = {
    "company": "units",
    "hqcompany": "units",
    "vehicle": "units",
    "battery": "units",
    "asset": "assets",
}


def bucket(data: Any) -> str | None:
    """Which stacking limit a unit counts against: ``units``, ``assets`` or ``None`` (HQs, L144)."""
    return _BUCKETS.get(data.get("cls"))


def limits(state: StateLike) -> dict[str, int]:
    t = state.tables.get("stacking") or {}
    return {"units": int(t.get("units", 4)), "assets": int(t.get("assets", 4))}


def _elimination_order(u: Any) -> tuple:
    """Ruling: the referee eliminates the units with the fewest steps, then the weakest defence."""
    return (u.steps, int(u.get("defense", 0)), int(u.get("attack", 0)), u.id)


def excess(state: StateLike, units: list[Any]) -> list[Any]:
    """The units of one side's stack beyond the limits, in the order the referee eliminates them."""
    lim = limits(state)
    out = []
    for b, n in lim.items():
        group = sorted((u for u in units if bucket(u) == b), key=_elimination_order)
        if len(group) > n:
            out += group[: len(group) - n]
    return out


def within_limit(state: StateLike, units: list[Any], key: str = "defense") -> list[Any]:
    """The units of a stack that count in a battle (L143): HQs, and the strongest by *key* up to
    each limit."""
    lim = limits(state)
    out = [u for u in units if bucket(u) is None]
    for b, n in lim.items():
        group = sorted(
            (u for u in units if bucket(u) == b),
            key=lambda u: (-int(u.get(key, 0)) * u.steps / max(1, u.max_steps), u.id),
        )
        out += group[:n]
    return out


def overstacked(state: StateLike, side: str, *, exempt: bool = False) -> dict[Any, list[Any]]:
    """Hexes where *side* is over stacked -> the units the referee would eliminate; with
    *exempt*, units that retreated since their side's last impulse ended do not count (L146)."""
    by_hex: dict[Any, list[Any]] = {}
    for u in ground_units(state, side):
        if exempt and u.get("retreated"):
            continue
        by_hex.setdefault(u.hex, []).append(u)
    out = {}
    for h, units in by_hex.items():
        extra = excess(state, units)
        if extra:
            out[h] = extra
    return out


def congested(state: StateLike, side: str, h: Any) -> bool:
    """L365: "Any hex that exceeds the stacking limit will restrict the use of its roads, causing
    any unit entering a congested road network to pay the COT to enter as if the road did not
    exist." Is *side* over stacked in *h* now (its own units: a mover knows them)?"""
    return bool(excess(state, [u for u in ground_units(state, side) if u.hex == h]))


def enforce(em: Emitter, side: str, *, exempt: bool, rule: str) -> None:
    """Eliminate what is still over stacked in *side*'s hexes (L145-L147)."""
    from owsnb.rules.tocs.combat import destroy
    from owsnb.rules.tocs.perimeter import announce

    found = overstacked(em.state, side, exempt=exempt)
    for h in sorted(found, key=em.state.map.label):
        lab = em.state.map.label(h)
        for u in found[h]:
            em.say(
                f"{u.id} is eliminated: {lab} is over stacked at the end of the impulse",
                rule=rule,
                visible_to=side,
            )
            destroy(em, u.id, rule=rule)
            announce(  # the dead pile is public (L9); the hex is not told
                em, f"{em.state.sides[side].title} loses a unit to over stacking", rule=rule
            )


class Eliminate(OrderHandler):
    type = OrderType(
        "eliminate",
        (Param("unit", "unit", "a unit of an over-stacked hex"),),
        rule="L147",
        doc="eliminate one of your units in an over-stacked hex (the owner's choice)",
    )

    def _choices(self, state: StateLike, side: str) -> tuple[str, ...]:
        out = []
        for h, extra in overstacked(state, side).items():
            kinds = {bucket(u) for u in extra}
            out += [u.id for u in ground_units(state, side) if u.hex == h and bucket(u) in kinds]
        return tuple(sorted(out))

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ids = self._choices(state, side)
        return unit_choice_spec(side, self.type, ids)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if u.id not in self._choices(state, order.side):
            raise refuse(
                f"{u.id} is not in an over-stacked hex (or does not count against its limit)",
                "not-overstacked",
                "L147",
                order,
            )
        if clock_step(state) not in ("3.5", "3.8", "3.10"):
            raise refuse("eliminate in your own part of an impulse", "wrong-step", "L147", order)

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        from owsnb.rules.tocs.combat import destroy
        from owsnb.rules.tocs.perimeter import announce

        em = Emitter(state)
        u = args["unit"]
        em.say(
            f"{u.id} is eliminated to reduce the stack in {state.map.label(u.hex)}",
            rule="L147",
            visible_to=order.side,
        )
        destroy(em, u.id, rule="L147")
        announce(  # the dead pile is public (L9); the hex is not told
            em, f"{state.sides[order.side].title} eliminates a unit (over stacked)", rule="L147"
        )
        return em.events


def clear_retreated(em: Emitter, side: str | None) -> None:
    """The grace of L146 ends: *side*'s (every side's with ``None``) retreat marks are cleared."""
    for u in ground_units(em.state, side):
        if u.get("retreated") and alive_on_map(u):
            em.data(u.id, rule="L146", retreated=None)
