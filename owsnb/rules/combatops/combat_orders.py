"""Combat orders of Combat Operations: attacks with artillery support and the soak-off duty (11.0,
11.9, 13.4, 10.0), advance after combat (11.8) and the artillery's defensive policy (13.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, note, side_set, state_set, unit_move
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike, Unit
from owsnb.rules.combatops import combat
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.combat import visibility_of
from owsnb.rules.combatops.movement import enemy_of, step_cost
from owsnb.rules.combatops.order_checks import check_stack, step_no, unit_types
from owsnb.rules.combatops.terrain import hexid, map_info, occupied, parse_hex

__all__ = ["Attack", "Occupy", "ArtilleryPolicy", "attack_eligible", "soak_off_owed"]


# -- combat eligibility and soak-off (11.9) ---------------------------------------------------------
def attack_eligible(state: StateLike, u: Unit) -> bool:
    """May *u* attack in this combat step (11.0, 10.0; one attack per unit per phase, ruling #15)?"""
    if (
        u.hex is None
        or not u.alive
        or U.is_dummy(u)
        or U.is_artillery(u, unit_types(state))
        or u.has("attacked")
    ):
        return False
    return step_no(state) != 6 or u.has("exploit")


def _adjacent_enemy_hexes(state: StateLike, units: Sequence[Unit]) -> set[Hex]:
    out: set[Hex] = set()
    foe_at = set(occupied(state, enemy_of(state, units[0].side))) if units else set()
    for u in units:
        for n in map_info(state.map).neighbours[u.map_hex]:
            if n in foe_at:
                out.add(n)
    return out


def _matching(owed: list[Hex], avail: list[Unit]) -> bool:
    """Can each owed hex get its own attacker (Kuhn's augmenting paths)?"""
    match: dict[str, Hex] = {}

    def try_hex(h: Hex, seen: set[str]) -> bool:
        for u in avail:
            if u.id in seen or u.map_hex.distance(h) != 1:
                continue
            seen.add(u.id)
            if u.id not in match or try_hex(match[u.id], seen):
                match[u.id] = h
                return True
        return False

    return all(try_hex(h, set()) for h in owed)


def _attackers_this_phase(state: StateLike, side: str) -> list[Unit]:
    return [
        u
        for u in state.units.values()
        if u.side == side
        and u.hex is not None
        and u.alive
        and u.has("attacked")
        and not U.is_artillery(u, unit_types(state))
    ]


def soak_off_owed(state: StateLike, side: str) -> list[Hex]:
    """Enemy hexes adjacent to a unit that attacked this phase and not yet attacked (11.9)."""
    done = {parse_hex(state.map, x) for x in state.public.get("attacked", ())}
    attackers = _attackers_this_phase(state, side)
    return sorted(
        (h for h in _adjacent_enemy_hexes(state, attackers) if h not in done),
        key=lambda h: map_info(state.map).ids[h],
    )


# -- handlers -------------------------------------------------------------------------------------
class Attack(OrderHandler):
    type = OrderType(
        "attack",
        (
            Param("hex", "hex", "the enemy hex attacked"),
            Param("with", "unit", "attacking units (adjacent)", positional=False, repeat=True),
            Param(
                "support",
                "unit",
                "supporting artillery in range",
                positional=False,
                repeat=True,
                optional=True,
            ),
        ),
        rule="11.0",
        doc="attack one enemy hex with adjacent units and artillery support",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        elig = [u for u in state.units_of(side) if attack_eligible(state, u)]
        if not elig:
            return None
        done = set(state.public.get("attacked", ()))
        foe_at = occupied(state, enemy_of(state, side))
        info = map_info(state.map)
        targets = sorted(
            {
                n
                for u in elig
                for n in info.neighbours[u.map_hex]
                if n in foe_at and info.ids[n] not in done
            },
            key=lambda h: info.ids[h],
        )
        if not targets:
            return None
        arts = [
            u
            for u in state.units_of(side)
            if u.hex is not None
            and u.alive
            and U.is_artillery(u, unit_types(state))
            and not U.is_dummy(u)
            and not u.has("supported")
        ]
        ex = []
        for t in targets:
            adj = [u.id for u in elig if u.map_hex.distance(t) == 1]
            sup = [a.id for a in arts if a.map_hex.distance(t) <= U.art_range(a, unit_types(state))]
            ex.append(
                self.type.make(side, hex=state.map.label(t), **{"with": adj}, support=sup or None)
            )
            ex.append(self.type.make(side, hex=state.map.label(t), **{"with": adj[:1]}))
        return OrderSpec(
            side,
            self.type,
            FrozenDict(
                hex=tuple(state.map.label(t) for t in targets),
                support=tuple(a.id for a in arts),
                **{"with": tuple(u.id for u in elig)},
            ),
            tuple(ex),
        )

    @staticmethod
    def _parse(args: Mapping[str, Any]) -> tuple[Hex, list[Unit], list[Unit]]:
        """The bound hex attacked, attackers and supporting artillery."""
        return args["hex"], list(args.get("with", ())), list(args.get("support", ()))

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        target, with_, sup = self._parse(args)
        side = order.side
        label = hexid(state.map, target)
        if not with_:
            raise IllegalOrderError(
                "an attack needs at least one attacking unit (with=...)",
                code="no-attackers",
                rule="13.4",
                order=order,
            )
        if len({u.id for u in with_}) != len(with_) or len({u.id for u in sup}) != len(sup):
            raise IllegalOrderError(
                "a unit is listed twice", code="duplicate", rule="11.0", order=order
            )
        foe = enemy_of(state, side)
        if target not in occupied(state, foe):
            raise IllegalOrderError(
                f"{label} holds no enemy unit", code="no-enemy", rule="11.0", order=order
            )
        if label in state.public.get("attacked", ()):
            raise IllegalOrderError(
                f"{label} has already been attacked this phase (owsnb ruling #15)",
                code="hex-attacked",
                rule="11.0",
                order=order,
            )
        types = unit_types(state)
        for u in with_:
            if U.is_artillery(u, types):
                raise IllegalOrderError(
                    f"{u.id} is artillery: it can only support (support=...)",
                    code="artillery-attacks",
                    rule="13.4",
                    order=order,
                )
            if U.is_dummy(u):
                raise IllegalOrderError(
                    f"{u.id} is a dummy and cannot attack (owsnb ruling #42)",
                    code="dummy",
                    rule="11.0",
                    order=order,
                )
            if u.has("attacked"):
                raise IllegalOrderError(
                    f"{u.id} has already attacked this phase",
                    code="attacked",
                    rule="11.0",
                    order=order,
                )
            if step_no(state) == 6 and not u.has("exploit"):
                raise IllegalOrderError(
                    f"{u.id} was not eligible for exploitation: only those units fight in "
                    "step 6 (10.0)",
                    code="not-exploiting",
                    rule="10.0",
                    order=order,
                )
            if u.map_hex.distance(target) != 1:
                raise IllegalOrderError(
                    f"{u.id} is not adjacent to {label}",
                    code="not-adjacent",
                    rule="11.0",
                    order=order,
                )
        for a in sup:
            if not U.is_artillery(a, types) or U.is_dummy(a):
                raise IllegalOrderError(
                    f"{a.id} is not artillery", code="not-artillery", rule="13.4", order=order
                )
            if a.has("supported"):
                raise IllegalOrderError(
                    f"{a.id} has already supported a combat this phase",
                    code="supported",
                    rule="13.4",
                    order=order,
                )
            rng = U.art_range(a, types)
            if a.map_hex.distance(target) > rng:
                raise IllegalOrderError(
                    f"{a.id} ({a.data.get('art_class')}, range {rng}) is "
                    f"{a.map_hex.distance(target)} hexes from {label}",
                    code="out-of-range",
                    rule="13.4",
                    order=order,
                )
        # 11.9 soak-off: every enemy adjacent to an attacker must still be attackable by someone else
        done = {parse_hex(state.map, x) for x in state.public.get("attacked", ())} | {target}
        attackers = _attackers_this_phase(state, side) + with_
        owed = [h for h in _adjacent_enemy_hexes(state, attackers) if h not in done]
        ids = {u.id for u in with_}
        avail = [u for u in state.units_of(side) if attack_eligible(state, u) and u.id not in ids]
        if owed and not _matching(owed, avail):
            names = ", ".join(sorted(hexid(state.map, h) for h in owed))
            raise IllegalOrderError(
                f"soak-off: every enemy adjacent to an attacking unit must also be attacked, and "
                f"not enough units are left to attack {names} (11.9)",
                code="soak-off",
                rule="11.9",
                order=order,
            )

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Any:
        target, with_, sup = self._parse(args)
        return combat.preview(state, order.side, target, [u.id for u in with_], [u.id for u in sup])

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        target, with_, sup = self._parse(args)
        step = step_no(state)
        res, events = combat.resolve(
            state,
            order.side,
            target,
            [u.id for u in with_],
            [u.id for u in sup],
            rule="10.0" if step == 6 else "11.0",
        )
        attacked = tuple(state.public.get("attacked", ())) + (res.hex,)
        after = combat._apply(state, events)
        pending = None
        if res.vacated:
            movers = [
                u.id
                for u in combat.survivors(after, [u.id for u in with_])
                if u.map_hex.distance(target) == 1
            ]
            if movers:
                pending = {"hex": res.hex, "units": movers}
        events.append(
            state_set("public", {"attacked": attacked, "pending_advance": pending}, rule="11.8")
        )
        return Adjudication(events, res)


class Occupy(OrderHandler):
    type = OrderType(
        "occupy",
        (
            Param("hex", "hex", "the vacated hex"),
            Param("with", "unit", "attackers that advance", positional=False, repeat=True),
        ),
        rule="11.8",
        doc="advance after combat into the hex the defender left",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        p = state.public.get("pending_advance")
        if not p:
            return None
        h = parse_hex(state.map, p["hex"])
        units = list(p["units"])
        ex = [
            self.type.make(side, hex=state.map.label(h), **{"with": units[:k]})
            for k in range(1, len(units) + 1)
        ]
        return OrderSpec(
            side,
            self.type,
            FrozenDict(hex=(state.map.label(h),), **{"with": tuple(units)}),
            tuple(ex),
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        p = state.public.get("pending_advance")
        target = args["hex"]
        if not p or parse_hex(state.map, p["hex"]) != target:
            raise IllegalOrderError(
                f"no defender has just left {hexid(state.map, target)}: an advance follows "
                "the attack at once (11.8)",
                code="no-advance",
                rule="11.8",
                order=order,
            )
        units = list(args.get("with", ()))
        if not units:
            raise IllegalOrderError(
                "name the units that advance (with=...)", code="no-units", rule="11.8", order=order
            )
        types = unit_types(state)
        for u in units:
            if u.id not in p["units"]:
                raise IllegalOrderError(
                    f"{u.id} did not take part in that attack",
                    code="not-attacker",
                    rule="11.8",
                    order=order,
                )
            if (
                step_cost(
                    state, u.map_hex, target, U.movement_class(u, types), int(u.data.get("ma", 1))
                )
                is None
            ):
                raise IllegalOrderError(
                    f"{u.id} could not move into {hexid(state.map, target)} (terrain, river or "
                    "bridge; owsnb ruling, digest omission 6)",
                    code="prohibited",
                    rule="11.8",
                    order=order,
                )
        if target in occupied(state, enemy_of(state, order.side)):
            raise IllegalOrderError(
                f"{hexid(state.map, target)} is occupied by the enemy",
                code="enemy-hex",
                rule="11.8",
                order=order,
            )
        check_stack(state, order, target, units)

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        target = args["hex"]
        ev: list[Event] = []
        for u in args["with"]:
            ev.append(
                unit_move(
                    u.id,
                    target,
                    path=(u.map_hex, target),
                    visible_to=visibility_of(state, u),
                    rule="11.8",
                )
            )
        ev.append(state_set("public", {"pending_advance": None}, rule="11.8"))
        ev.append(
            note(
                f"{', '.join(u.id for u in args['with'])} advance into {hexid(state.map, target)}",
                rule="11.8",
            )
        )
        return ev


class ArtilleryPolicy(OrderHandler):
    type = OrderType(
        "artillery",
        (
            Param("unit", "unit", "one of your artillery units", on_map=False),
            Param("mode", "choice", "support or hold", choices=("support", "hold")),
        ),
        rule="13.4",
        doc="let an artillery unit support the defense automatically, or hold it back",
        actors="any",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if side not in state.sides:
            return None
        arts = [
            u
            for u in state.units_of(side)
            if U.is_artillery(u, unit_types(state)) and u.alive and not U.is_dummy(u)
        ]
        if not arts:
            return None
        if side in state.clock.acting:
            # a defensive standing order: offered while the enemy acts; on one's own turn it may
            # still be given as text (map clicks and random play-outs leave it alone)
            return None
        return OrderSpec(
            side, self.type, FrozenDict(unit=tuple(u.id for u in arts), mode=("support", "hold"))
        )

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        if order.side not in state.sides:
            raise IllegalOrderError(
                "only a side commands artillery", code="not-a-side", rule="13.4", order=order
            )
        u = args["unit"]
        if not U.is_artillery(u, unit_types(state)):
            raise IllegalOrderError(
                f"{u.id} is not artillery", code="not-artillery", rule="13.4", order=order
            )

    def adjudicate(
        self, state: StateLike, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        uid = args["unit"].id
        held = [x for x in state.sides[order.side].private.get("artillery_hold", ()) if x != uid]
        if args["mode"] == "hold":
            held.append(uid)
        return [side_set(order.side, "private", {"artillery_hold": tuple(held)}, rule="13.4")]
