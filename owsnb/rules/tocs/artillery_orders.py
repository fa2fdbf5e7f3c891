"""Artillery strike (WWII 10.24, L344-L345) and interdiction (10.26, L351-L359).

**Strike** (L344): an activated HQ spends 1 AP to order a Good Order battery (not an asset) in LOC
and LOS to fire on a hex within range, harassing or targeted; one roll on the Artillery Strike
Table (a labelled placeholder: 2d6 + DRMs on the row of the battery's fire strength; ``-`` no
effect, ``D`` the target degrades a state, ``1`` it loses a step); no OP; the battery spends all
its AP and becomes Fatigued, the HQ does not degrade. Rulings: the target is drawn at random
among the enemy units in the hex (harassing, L344) or is the one with the most steps (targeted:
the firer picks among what its observer sees; here the referee picks for it); targeted fire needs
a friendly Forward Observer (``fo: true``) within observation range of the hex (L134, L344, 4 hexes
by day), and earns the FO DRM; facilities and bridges as targets are not modelled; the result line
is announced (like a battle's, appendix A.4), never the unit hit; the fire strength is the
counter's ``fire`` or the placeholder ``artillery.default_fire``. In a battle a battery's support
(full strength, L345) is not modelled.

An activated HQ spends 1 AP to order a Good Order or Fatigued battery in LOC and LOS to interdict
a hex within its range; the battery spends all its AP and degrades (L351). The hex gets a public
Interdiction marker (the fact ``interdicted``: the firing side) until the start of the firer's
next Operational Impulse, even on the next turn (L351). While it stands:

* every unit, of either side, moving into or out of the hex pays +1 MP and has no road rate
  (L353, L355; :func:`owsnb.rules.tocs.terrain.step_cost`);
* a unit forced to retreat into it degrades one more state (L353; :mod:`.combat`);
* units attacking out of it, or into a battle hex it hit, lose 1 AP: Intensive becomes
  Deliberate, Deliberate Hasty, and a Hasty attack is called off (L357-L359);
* no pursuit through it (L737; :mod:`.combat`).

Rulings: the non-phasing player's batteries in reserve fire in Reserve Commitment (3.8) once
activated (free), without a further HQ order (L335, L358: the reserve order was the order);
a battery in an Engagement never fires (L77, L733); range: the counter's ``range`` or the
placeholder ``artillery.default_range`` (counter values are lost).

>>> t = {"strength_bands": [2, 4], "drm": {"fo": 1, "harassing": -1, "target_in_city": -1},
...      "results": {"2": ["-"] * 10 + ["D"], "4": ["-"] * 9 + ["D", 1]}}
>>> strike_distribution(t, 3, 0)[1], strike_distribution(t, 3, 1)[1]
(Fraction(1, 36), Fraction(1, 12))

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from owsnb.kernel import Distribution, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import hq_ap, order_hq
from owsnb.rules.tocs.combat import destroy
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import (
    FATIGUED,
    GOOD_ORDER,
    alive_on_map,
    daypart,
    degrade,
    enemy_of,
    ground_units,
    state_of,
    units_in,
)
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce
from owsnb.rules.tocs.supply import in_loc, in_los
from owsnb.rules.tocs.zoc import engaged

__all__ = [
    "Interdict",
    "Strike",
    "Bombard",
    "bombardment_distribution",
    "battery_range",
    "DOWNGRADE",
    "clear_interdictions",
    "reduce_attacks",
    "strike_distribution",
    "strike_drm",
]

#: one attack level lower (L357); ``None``: the attack is called off
DOWNGRADE = {"intensive": "deliberate", "deliberate": "hasty", "hasty": None}


def battery_range(state: StateLike, u: Any) -> int:
    """A battery's range in hexes: its counter's ``range``, else the placeholder default."""
    return int(u.get("range") or state.tables["artillery"]["default_range"])


def _why_not(
    state: StateLike, u: Any, step: str, worst: int = FATIGUED
) -> tuple[str, str, str] | None:
    if u.get("cls") != "battery":
        return f"{u.id} is not an artillery battery", "not-battery", "L351"
    if state_of(u) > worst:
        return (
            f"{u.id} is not in {'Good Order' if worst == GOOD_ORDER else 'Good Order or Fatigued'}",
            "not-good-order",
            "L351",
        )
    if engaged(state, u.hex):
        return f"{u.id} is in an Engagement Battle: no artillery fire out of it", "engaged", "L733"
    if not in_los(state, u):
        return f"{u.id} is out of supply (LOS)", "out-of-los", "L351"
    if step == "3.8":
        if not is_open(u) or not u.get("reserve_used"):
            return f"{u.id} is not a battery activated from reserve", "not-reserve", "L358"
        if not in_loc(state, u):
            return f"{u.id} is out of LOC", "out-of-loc", "L187"
    elif u.get("act") == "closed":
        return f"{u.id} has already acted this impulse", "already-activated", "L239"
    return None


def _batteries(
    state: StateLike, side: str, make: Any, paragraph: str, worst: int
) -> list[Any] | None:
    """*side*'s batteries that may fire now (in 3.5 with an HQ to order them); None: not now."""
    step = clock_step(state)
    if step not in ("3.5", "3.8"):
        return None
    out = []
    for u in state.units.values():
        if u.side != side or not alive_on_map(u) or _why_not(state, u, step, worst):
            continue
        if step == "3.5":
            try:
                order_hq(state, make(side, unit=u.id, hex="x"), u, None, paragraph)
            except Exception:
                continue
        out.append(u)
    return out


def _fire_candidates(
    state: StateLike,
    side: str,
    type_: OrderType,
    paragraph: str,
    worst: int,
    targets: Callable[[Any, int], list[str]],
) -> OrderSpec | None:
    """Example *type_* orders of *side*'s batteries that may fire now (:func:`_batteries`): the
    first six of each one's *targets(battery, range)*, twelve in all; None: not now."""
    bats = _batteries(state, side, type_.make, paragraph, worst)
    if bats is None:
        return None
    ex = []
    for u in bats:
        ex += [type_.make(side, unit=u.id, hex=x) for x in targets(u, battery_range(state, u))[:6]]
    return spec_from_examples(side, type_, ex, 12)


def _enemy_held_near(
    state: StateLike, side: str, u: Any, rng: int, *, uninterdicted: bool = False
) -> list[str]:
    """Labels, in order, of the hexes the enemy holds within *rng* (at most 3) of battery *u*
    (only those not yet interdicted if *uninterdicted*): example targets, a sample, not the rule."""
    return sorted(
        state.map.label(h)
        for h in u.hex.disc(min(rng, 3))
        if h in state.map.hexes
        and state.map.hexes[h].facts.get("owner") == enemy_of(state, side)
        and not (uninterdicted and state.map.hexes[h].facts.get("interdicted"))
    )


def _check_fire(
    state: StateLike,
    order: Any,
    args: Mapping[str, Any],
    *,
    worst: int,
    when: str,
    when_rule: str,
    rule: str,
    paragraph: str,
) -> tuple[Any, str, Any]:
    """Refuse a battery that may not fire now or at a hex beyond its range; its unit, step and target hex."""
    u = args["unit"]
    step = clock_step(state)
    if step not in ("3.5", "3.8"):
        raise refuse(when, "wrong-step", when_rule, order)
    why = _why_not(state, u, step, worst)
    if why:
        raise refuse(why[0], why[1], rule if why[2] == "L351" else why[2], order)
    h = args["hex"]
    if h.distance(u.hex) > battery_range(state, u):
        raise refuse(
            f"{state.map.label(h)} is beyond {u.id}'s range ({battery_range(state, u)} hexes)",
            "out-of-range",
            rule,
            order,
        )
    return u, step, h


def _spend(
    em: Emitter,
    state: StateLike,
    order: Any,
    args: Mapping[str, Any],
    u: Any,
    *,
    rule: str,
    paragraph: str,
    state_after: int,
) -> None:
    """The ordering HQ pays its AP (in 3.5); the battery spends all its AP and closes (*state_after*)."""
    if clock_step(state) == "3.5":
        hq_ap(em, order_hq(state, order, u, args.get("hq"), paragraph), rule)
    em.data(u.id, rule=rule, act="closed", ap=0, mp_left=0, acted=True, state=state_after)
    if state.sides[order.side].private.get("active") == u.id:
        em.private(order.side, rule=rule, active=None)


def reduce_attacks(em: Emitter, h: Any, *, rule: str = "L357") -> None:
    """Declared attacks into or out of interdicted hex *h* drop one level; Hasty ones are called off."""
    lab = em.state.map.label(h)
    for u in ground_units(em.state):
        if u.get("attack_hex") and (u.get("attack_hex") == lab or u.get("attack_from") == lab):
            new = DOWNGRADE.get(u.get("attack_type") or "hasty")
            if new is None:
                em.data(
                    u.id,
                    rule=rule,
                    attack_hex=None,
                    attack_type=None,
                    attack_from=None,
                    pursue=None,
                )
                em.say(
                    f"{u.id}'s hasty attack on {u.get('attack_hex')} is called off by interdiction",
                    rule=rule,
                    visible_to=u.side,
                )
            else:
                em.data(u.id, rule=rule, attack_type=new)
                em.say(
                    f"{u.id}'s attack on {u.get('attack_hex')} drops to {new} (interdiction: -1 AP)",
                    rule=rule,
                    visible_to=u.side,
                )


def clear_interdictions(em: Emitter, side: str) -> None:
    """At the start of *side*'s impulse its Interdiction markers lift (L351)."""
    for h, info in sorted(em.state.map.hexes.items(), key=lambda kv: em.state.map.label(kv[0])):
        if info.facts.get("interdicted") == side:
            em.hexfact(h, rule="L351", interdicted=None)
            announce(
                em,
                f"The interdiction of {em.state.map.label(h)} lifts",
                rule="L351",
                hex=em.state.map.label(h),
            )


class Interdict(OrderHandler):
    type = OrderType(
        "interdict",
        (
            Param("unit", "unit", "battery"),
            Param("hex", "hex", "target hex in range"),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.26",
        doc="HQ order (1 AP): a battery interdicts a hex (+1 MP in or out, no road rate, "
        "attacks out of or into it drop a level) until your next impulse",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        def targets(u: Any, rng: int) -> list[str]:
            battles = sorted(
                state.map.label(h)
                for h, i in state.map.hexes.items()
                if i.facts.get("battle")
                and h.distance(u.hex) <= rng
                and not i.facts.get("interdicted")
            )
            return battles + _enemy_held_near(state, side, u, rng, uninterdicted=True)

        return _fire_candidates(state, side, self.type, "10.26", FATIGUED, targets)

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, step, h = _check_fire(
            state,
            order,
            args,
            worst=FATIGUED,
            when="interdiction is fired in your Operational "
            "Impulse or, by reserve batteries, in Reserve Commitment",
            when_rule="L358",
            rule="L351",
            paragraph="10.26",
        )
        if state.map.hexes[h].facts.get("interdicted"):
            raise refuse(
                f"{state.map.label(h)} is already interdicted", "already-interdicted", "L351", order
            )
        if step == "3.5":
            order_hq(state, order, u, args.get("hq"), "10.26")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        _spend(
            em,
            state,
            order,
            args,
            u,
            rule="L351",
            paragraph="10.26",
            state_after=degrade(state_of(u)),
        )
        h = args["hex"]
        lab = state.map.label(h)
        em.hexfact(h, rule="L351", interdicted=side)
        announce(
            em,
            f"Interdiction marker on {lab} (until the firer's next impulse)",
            rule="L351",
            hex=lab,
        )
        reduce_attacks(em, h)
        return em.events


# -- artillery strike (10.24) --------------------------------------------------------------------
def _row(table: Mapping[str, Any], fire: int) -> list[Any]:
    band = next((b for b in table["strength_bands"] if fire <= int(b)), table["strength_bands"][-1])
    return list(table["results"][str(band)])


def strike_distribution(table: Mapping[str, Any], fire: int, drm: int) -> Distribution:
    """Exact distribution of the Artillery Strike Table result: 2d6 + *drm*, clamped to 2..12."""
    row = _row(table, fire)
    two = Distribution.die(6) + Distribution.die(6)
    return two.map(
        lambda r: row[min(12, max(2, r + drm)) - 2],
        label=f"artillery strike (fire {fire}, DRM {drm:+d})",
    )


def _fire(state: StateLike, u: Any) -> int:
    return int(u.get("fire") or state.tables["artillery"].get("default_fire", 4))


def _observer(state: StateLike, side: str, h: Any) -> Any:
    """A friendly Forward Observer that sees *h* (observation range by daylight, L134, L505)."""
    obs = state.tables["observation"]
    rng = (
        int(obs["base"].get(daypart(state), 0))
        if daypart(state) != "night"
        else int(obs["night_moon"].get(state.public.get("moon", "quarter"), 0))
    )
    return next(
        (u for u in ground_units(state, side) if u.get("fo") and u.hex.distance(h) <= rng), None
    )


def strike_drm(state: StateLike, side: str, h: Any, fire: str) -> int:
    """DRMs of a strike on *h*: FO (targeted) or harassing, and the target's terrain (placeholders)."""
    drm = state.tables["artillery_strike"]["drm"]
    out = (
        int(drm.get("harassing", 0))
        if fire == "harassing"
        else int(drm.get("fo", 0)) + int(drm.get("targeted", 0))
    )
    terrain = state.map.terrain(h)
    if terrain in ("forest", "jungle"):
        out += int(drm.get("target_in_forest", 0))
    if terrain in ("city", "suburb"):
        out += int(drm.get("target_in_city", 0))
    return out


class Strike(OrderHandler):
    type = OrderType(
        "strike",
        (
            Param("unit", "unit", "battery"),
            Param("hex", "hex", "target hex in range"),
            Param(
                "fire",
                "choice",
                "harassing (random target) or targeted (needs an FO)",
                positional=False,
                optional=True,
                choices=("harassing", "targeted"),
            ),
            Param("hq", "unit", "ordering HQ", positional=False, optional=True),
        ),
        rule="10.24",
        doc="HQ order (1 AP): a Good Order battery fires one roll on the Artillery Strike "
        "Table at a hex in range; it becomes Fatigued",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        return _fire_candidates(
            state,
            side,
            self.type,
            "10.24",
            GOOD_ORDER,
            lambda u, rng: _enemy_held_near(state, side, u, rng),
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u, step, h = _check_fire(
            state,
            order,
            args,
            worst=GOOD_ORDER,
            when="a strike is fired in your Operational "
            "Impulse or, by reserve batteries, in Reserve Commitment",
            when_rule="L344",
            rule="L344",
            paragraph="10.24",
        )
        if args.get("fire") == "targeted" and _observer(state, order.side, h) is None:
            raise refuse(
                f"targeted fire needs a Forward Observer that sees {state.map.label(h)}",
                "no-observer",
                "L344",
                order,
            )
        if step == "3.5":
            order_hq(state, order, u, args.get("hq"), "10.24")

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        """The exact result distribution (whether a unit is there to be hit is hidden)."""
        u, h = args["unit"], args["hex"]
        fire = args.get("fire") or "harassing"
        return strike_distribution(
            state.tables["artillery_strike"],
            _fire(state, u),
            strike_drm(state, order.side, h, fire),
        )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        _spend(
            em,
            state,
            order,
            args,
            u,
            rule="L344",
            paragraph="10.24",
            state_after=max(state_of(u), FATIGUED),
        )
        h = args["hex"]
        lab = state.map.label(h)
        fire = args.get("fire") or "harassing"
        drm = strike_drm(state, side, h, fire)
        r = sum(
            dice.roll_many(
                2,
                6,
                purpose=f"artillery strike on {lab} (DRM {drm:+d})",
                rule="L344",
                visible_to=None,
            )
        )
        result = _row(state.tables["artillery_strike"], _fire(state, u))[
            min(12, max(2, r + drm)) - 2
        ]
        targets = sorted(units_in(state, h, enemy_of(state, side)), key=lambda x: x.id)
        hit = None
        if result != "-" and targets:
            if fire == "targeted":
                hit = max(targets, key=lambda x: (x.steps, x.id))
            else:
                hit = (
                    targets[
                        dice.roll(
                            len(targets),
                            purpose=f"random target in {lab}",
                            rule="L344",
                            visible_to=enemy_of(state, side),
                        )
                        - 1
                    ]
                    if len(targets) > 1
                    else targets[0]
                )
            if result == "D":
                em.data(hit.id, rule="L344", state=degrade(state_of(hit)))
            elif hit.steps - 1 <= 0:
                destroy(em, hit.id, rule="L344")
            else:
                em.unit(hit.id, rule="L344", steps=hit.steps - 1)
            em.say(
                f"{hit.id} is hit by artillery in {lab}: {'degraded' if result == 'D' else 'a step lost'}",
                rule="L344",
                visible_to=hit.side,
            )
        announce(
            em,
            f"Artillery strike on {lab} ({fire}), 2d6={r}{drm:+d}: "
            + (
                "no effect"
                if result == "-" or not targets
                else ("a unit is degraded" if result == "D" else "a step is lost")
            ),
            rule="L344",
            hex=lab,
            roll=r,
            result=str(result),
        )
        return em.events


# -- bombardment (10.25) -------------------------------------------------------------------------
def bombardment_distribution(table: Mapping[str, Any], strength: int) -> Distribution:
    """Exact distribution of the number of hits on the Bombardment Table for a combined *strength*."""
    band = next(
        (b for b in table["strength_bands"] if strength <= int(b)), table["strength_bands"][-1]
    )
    row = list(table["hits"][str(band)])
    two = Distribution.die(6) + Distribution.die(6)
    return two.map(lambda r: int(row[r - 2]), label=f"bombardment hits (strength {strength})")


def _named(args: Mapping[str, Any]) -> list[Any]:
    """The batteries a bombardment names (bound units), each once."""
    return list({b.id: b for b in args.get("with", ())}.values())


class Bombard(OrderHandler):
    type = OrderType(
        "bombard",
        (
            Param("hex", "hex", "target hex in range of every battery"),
            Param("with", "unit", "three or more batteries", positional=False, repeat=True),
            Param(
                "tot",
                "choice",
                "Time On Target (US, +1 OP, double strength)",
                positional=False,
                optional=True,
                choices=("yes", "no"),
            ),
            Param("hq", "unit", "ordering HQ (Brigade or higher)", positional=False, optional=True),
        ),
        rule="10.25",
        doc="Brigade+ HQ order (1 AP): three or more Good Order batteries fire one roll on "
        "the Bombardment Table with their combined strength; hits fall at random",
    )

    def _hq(self, state: StateLike, side: str, batteries: list[Any], named: Any | None) -> Any:
        """The HQ that orders the bombardment (the *named* one, a bound unit, if given)."""
        from owsnb.rules.tocs.model import ECHELONS, hq_chain
        from owsnb.rules.tocs.supply import in_loc as _in_loc

        for hq in state.units.values():
            if (
                hq.side != side
                or hq.get("cls") != "hq"
                or (named is not None and hq.id != named.id)
                or not alive_on_map(hq)
            ):
                continue
            if (
                is_open(hq)
                and int(hq.get("ap", 0)) >= 1
                and _in_loc(state, hq)
                and ECHELONS.index(hq.get("echelon") or "battalion") >= ECHELONS.index("regiment")
                and all(hq in hq_chain(state, b) for b in batteries)
            ):
                return hq
        return None

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        bats = [
            u
            for u in state.units.values()
            if u.side == side and alive_on_map(u) and _why_not(state, u, "3.5", GOOD_ORDER) is None
        ]
        if len(bats) < 3 or self._hq(state, side, bats[:3], None) is None:
            return None
        rng = min(battery_range(state, b) for b in bats[:3])
        hexes = sorted(
            state.map.label(h)
            for h in state.map.hexes
            if all(h.distance(b.hex) <= rng for b in bats[:3])
            and state.map.hexes[h].facts.get("owner") == enemy_of(state, side)
        )
        ex = [
            self.type.make(side, hex=x, **{"with": tuple(b.id for b in bats[:3])})
            for x in hexes[:6]
        ]
        return OrderSpec(side, self.type, examples=tuple(ex)) if ex else None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        if clock_step(state) != "3.5":
            raise refuse(
                "bombardments are ordered in your Operational Impulse", "wrong-step", "L348", order
            )
        bats = _named(args)
        if len(bats) < 3:
            raise refuse("a bombardment needs at least three batteries", "too-few", "L348", order)
        h = args["hex"]
        for b in bats:
            why = _why_not(state, b, "3.5", GOOD_ORDER)
            if why:
                raise refuse(why[0], why[1], "L348", order)
            if h.distance(b.hex) > battery_range(state, b):
                raise refuse(
                    f"{state.map.label(h)} is beyond {b.id}'s range", "out-of-range", "L348", order
                )
        if args.get("tot") == "yes":
            if order.side not in set(state.public.get("tot_sides", ())):
                raise refuse(
                    "Time On Target is an American capability (scenario rules.tot_sides)",
                    "no-tot",
                    "L350",
                    order,
                )
            from owsnb.rules.tocs.activation import check_spend

            check_spend(state, order.side, 1, order, "L350")
        if self._hq(state, order.side, bats, args.get("hq")) is None:
            raise refuse(
                "no activated Brigade-level or higher HQ in LOC, over every battery, has an AP left",
                "no-hq",
                "L348",
                order,
            )

    def _strength(self, state: StateLike, args: Mapping[str, Any]) -> int:
        s = sum(_fire(state, b) for b in _named(args))
        return s * (
            int(state.tables["bombardment"].get("tot_factor", 2)) if args.get("tot") == "yes" else 1
        )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        """Exact distribution of the hits (whether units are there to take them is hidden)."""
        return bombardment_distribution(state.tables["bombardment"], self._strength(state, args))

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        from owsnb.rules.tocs.activation import spend

        em = Emitter(state)
        side = order.side
        bats = _named(args)
        hq_ap(em, self._hq(state, side, bats, args.get("hq")), "L348")
        tot = args.get("tot") == "yes"
        if tot:
            spend(em, side, 1, rule="L350", what="Time On Target")
        us = side in set(state.public.get("tot_sides", ()))
        new_state = (
            2 if (tot or not us) else FATIGUED
        )  # L348, L350: Disordered; US normal fire Fatigued
        for b in bats:
            em.data(
                b.id,
                rule="L348",
                act="closed",
                ap=0,
                mp_left=0,
                acted=True,
                state=max(state_of(b), new_state),
            )
        h = args["hex"]
        lab = state.map.label(h)
        strength = self._strength(state, args)
        band = next(
            (x for x in state.tables["bombardment"]["strength_bands"] if strength <= int(x)),
            state.tables["bombardment"]["strength_bands"][-1],
        )
        r = sum(
            dice.roll_many(
                2,
                6,
                purpose=f"bombardment of {lab} (strength {strength})",
                rule="L348",
                visible_to=None,
            )
        )
        hits = int(state.tables["bombardment"]["hits"][str(band)][r - 2])
        lost = 0
        for _ in range(hits):  # L348: every hit on a target drawn at random
            targets = sorted(units_in(em.state, h, enemy_of(state, side)), key=lambda x: x.id)
            if not targets:
                break
            t = (
                targets[0]
                if len(targets) == 1
                else targets[
                    dice.roll(
                        len(targets),
                        purpose=f"random target in {lab}",
                        rule="L348",
                        visible_to=t_side(state, side),
                    )
                    - 1
                ]
            )
            lost += 1
            if t.steps - 1 <= 0:
                destroy(em, t.id, rule="L348")
            else:
                em.unit(t.id, rule="L348", steps=t.steps - 1)
        announce(
            em,
            f"Bombardment of {lab}{' (TOT)' if tot else ''}, strength {strength}, 2d6={r}: {hits} hit(s), "
            f"{lost} step(s) lost",
            rule="L348",
            hex=lab,
            roll=r,
            hits=hits,
        )
        return em.events


def t_side(state: StateLike, side: str) -> str:
    """The side whose units a random target is drawn from (the enemy of the firer)."""
    return enemy_of(state, side)
