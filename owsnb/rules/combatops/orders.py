"""Orders of Combat Operations: one handler per verb (validate, adjudicate, candidates, preview).

Every refusal is an :class:`~owsnb.kernel.errors.IllegalOrderError` with a stable code and the
rule paragraph that forbids the order; handlers never change the state they are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.errors import IllegalOrderError, InvalidHexError
from owsnb.kernel.events import Event, note, side_set, state_set, unit_move, unit_set
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import Unit, edge_key
from owsnb.kernel.view import alias_id, unalias
from owsnb.rules.combatops import chits, combat
from owsnb.rules.combatops import units as U
from owsnb.rules.combatops.movement import enemy_of, path_to, reach
from owsnb.rules.combatops.supply import supply_heads, supply_of
from owsnb.rules.combatops.terrain import bridge_kind, edge_id, hexid, map_info, occupied, parse_hex

__all__ = [
    "HANDLERS",
    "step_no",
    "stack_limit",
    "entry_hexes",
    "in_setup_area",
    "soak_off_owed",
    "attack_eligible",
    "north_of_river",
]


# -- helpers --------------------------------------------------------------------------------------
def step_no(state: Any) -> int:
    """The number (2-6) of the current half-turn step, 0 in set-up and supply."""
    s = str(state.clock.step)
    return int(s[1]) if s[:1] in ("A", "D") and s[1:].isdigit() else 0


def stack_limit(state: Any) -> int:
    return int(state.tables.get("unit_types", U.TYPES).get("stacking_limit", 4))


def _types(state: Any) -> Mapping[str, Any]:
    return state.tables.get("unit_types", U.TYPES)


def _hex(state: Any, order: Order, ref: str, rule: str) -> Hex:
    try:
        return parse_hex(state.map, ref)
    except InvalidHexError as exc:
        raise IllegalOrderError(
            f"{exc}; name hexes like 'G13' or '0713'", code="bad-hex", rule=rule, order=order
        ) from None


def _own(state: Any, order: Order, ref: str, rule: str, *, on_map: bool = True) -> Unit:
    uid = unalias(state, order.side, str(ref))
    u = state.units.get(uid)
    if u is None or u.side != order.side:
        raise IllegalOrderError(
            f"{order.side} has no unit {ref!r}", code="not-your-unit", rule=rule, order=order
        )
    if on_map and (u.hex is None or not u.alive):
        raise IllegalOrderError(f"{u.id} is not on the map", code="off-map", rule=rule, order=order)
    return u


def _vis(state: Any, u: Unit) -> frozenset[str] | None:
    return combat.visibility_of(state, u)


def _stack_after(state: Any, side: str, h: Hex, adding: Sequence[Unit]) -> int:
    ids = {u.id for u in adding}
    here = [u for u in occupied(state, side).get(h, ()) if u.id not in ids]
    return sum(U.stacking_value(u) for u in here) + sum(U.stacking_value(u) for u in adding)


def _check_stack(state: Any, order: Order, h: Hex, adding: Sequence[Unit]) -> None:
    n = _stack_after(state, order.side, h, adding)
    if n > stack_limit(state):
        raise IllegalOrderError(
            f"{hexid(state.map, h)} would hold {n} battalions' worth of {order.side} units; the limit is "
            f"{stack_limit(state)} (6.0)",
            code="overstacked",
            rule="6.0",
            order=order,
        )


def _alias_note(state: Any, u: Unit, text: str, rule: str) -> list[Event]:
    """A note telling the enemy what it saw a face-down counter do (its alias, never its id)."""
    foe = enemy_of(state, u.side)
    if foe in u.seen_by:
        return []
    return [note(text.format(unit=alias_id(state, u.id, foe)), visible_to=foe, rule=rule)]


def _rotate(items: list, state: Any, k: int) -> list:
    if not items:
        return items
    i = state.seq % len(items)
    return (items[i:] + items[:i])[:k]


_NORTH: dict[int, tuple[Any, frozenset]] = {}


def north_of_river(state: Any) -> frozenset:
    """Hexes reached from the north edge without crossing a river hexside."""
    m = state.map
    hit = _NORTH.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    info = map_info(m)
    top = min(info.rows.values())
    seen = {h for h in info.hexes if info.rows[h] == top}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in info.neighbours[h]:
            if n not in seen and edge_key(h, n) not in info.rivers:
                seen.add(n)
                todo.append(n)
    out = frozenset(seen)
    _NORTH[id(m)] = (m, out)
    return out


def in_setup_area(state: Any, side: str, h: Hex) -> bool:
    """Is *h* in *side*'s scenario set-up area (3.0, 17.x)?"""
    area = state.public.get("setup_areas", {}).get(side, {})
    river = area.get("river")
    if river == "north" and h not in north_of_river(state):
        return False
    if river == "south" and h in north_of_river(state):
        return False
    cols = area.get("cols")
    if cols:
        lo, _, hi = str(cols).partition("-")
        c = hexid(state.map, h).rstrip("0123456789")
        if not (lo <= c <= (hi or lo)) or len(c) != 1:
            return False
    return bool(area)


def entry_hexes(state: Any, u: Unit) -> list[Hex]:
    """Where *u* may enter the map now (14.2; 17.1 entry from a map edge)."""
    info = map_info(state.map)
    foe = enemy_of(state, u.side)
    enemy_at = set(occupied(state, foe))
    if u.box == "entry":
        return [
            parse_hex(state.map, x)
            for x in state.public.get("entry_hexes", {}).get(u.side, ())
            if parse_hex(state.map, x) not in enemy_at
        ]
    heads = supply_heads(state, u.side)
    free = [h for h in heads if h not in enemy_at]
    if free:
        return free
    anyone = set(occupied(state))
    empty = [h for h in info.edge_hexes if h not in anyone]
    if not empty or not heads:
        return []
    best = min(min(h.distance(s) for s in heads) for h in empty)
    return sorted(
        (h for h in empty if min(h.distance(s) for s in heads) == best), key=lambda h: info.ids[h]
    )


# -- combat eligibility and soak-off (11.9) ---------------------------------------------------------
def attack_eligible(state: Any, u: Unit) -> bool:
    """May *u* attack in this combat step (11.0, 10.0; one attack per unit per phase, ruling #15)?"""
    if (
        u.hex is None
        or not u.alive
        or U.is_dummy(u)
        or U.is_artillery(u, _types(state))
        or u.has("attacked")
    ):
        return False
    return step_no(state) != 6 or u.has("exploit")


def _adjacent_enemy_hexes(state: Any, units: Sequence[Unit]) -> set[Hex]:
    out: set[Hex] = set()
    foe_at = set(occupied(state, enemy_of(state, units[0].side))) if units else set()
    for u in units:
        for n in map_info(state.map).neighbours[u.hex]:
            if n in foe_at:
                out.add(n)
    return out


def _matching(owed: list[Hex], avail: list[Unit]) -> bool:
    """Can each owed hex get its own attacker (Kuhn's augmenting paths)?"""
    match: dict[str, Hex] = {}

    def try_hex(h: Hex, seen: set[str]) -> bool:
        for u in avail:
            if u.id in seen or u.hex.distance(h) != 1:
                continue
            seen.add(u.id)
            if u.id not in match or try_hex(match[u.id], seen):
                match[u.id] = h
                return True
        return False

    return all(try_hex(h, set()) for h in owed)


def _attackers_this_phase(state: Any, side: str) -> list[Unit]:
    return [
        u
        for u in state.units.values()
        if u.side == side
        and u.hex is not None
        and u.alive
        and u.has("attacked")
        and not U.is_artillery(u, _types(state))
    ]


def soak_off_owed(state: Any, side: str) -> list[Hex]:
    """Enemy hexes adjacent to a unit that attacked this phase and not yet attacked (11.9)."""
    done = {parse_hex(state.map, x) for x in state.public.get("attacked", ())}
    attackers = _attackers_this_phase(state, side)
    return sorted(
        (h for h in _adjacent_enemy_hexes(state, attackers) if h not in done),
        key=lambda h: map_info(state.map).ids[h],
    )


# -- handlers -------------------------------------------------------------------------------------
class Assign(OrderHandler):
    type = OrderType(
        "assign",
        (
            Param("letter", "choice", "reinforcement letter (A, B ...)"),
            Param("chit", "int", "one of your chits"),
        ),
        rule="14.0",
        doc="secretly put a reinforcement on one of your chits",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        rein = state.sides[side].private.get("reinforcements", {})
        mine = [c for c in state.public.get("chits", ()) if chits.chit_owner(state, c) == side]
        if not rein or not mine:
            return None
        ex = tuple(self.type.make(side, letter=k, chit=c) for k in sorted(rein) for c in mine[:2])
        return OrderSpec(
            side,
            self.type,
            FrozenDict(letter=tuple(sorted(rein)), chit=tuple(str(c) for c in mine)),
            ex,
        )

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        rein = state.sides[order.side].private.get("reinforcements", {})
        if args["letter"] not in rein:
            raise IllegalOrderError(
                f"{order.side} has no reinforcement {args['letter']!r}; it has "
                f"{', '.join(sorted(rein)) or 'none'}",
                code="no-such-reinforcement",
                rule="14.0",
                order=order,
            )
        try:
            c = int(args["chit"])
        except ValueError:
            raise IllegalOrderError(
                f"chit must be a number, not {args['chit']!r}",
                code="bad-arguments",
                rule="14.0",
                order=order,
            ) from None
        if c not in state.public.get("chits", ()) or chits.chit_owner(state, c) != order.side:
            raise IllegalOrderError(
                f"chit {c} is not one of {order.side}'s chits (errata 10.0)",
                code="not-your-chit",
                rule="14.0",
                order=order,
            )

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        side, letter, chit = order.side, args["letter"], str(int(args["chit"]))
        priv = state.sides[side].private
        pas = str(priv["reinforcements"][letter].get("pass", 1))
        table = {p: dict(m) for p, m in priv.get("assign", {}).items()}
        cur = table.setdefault(pas, {})
        old_chit = next((c for c, held in cur.items() if held == letter), None)
        other = cur.get(chit)
        if old_chit is not None:
            cur.pop(old_chit)
        cur[chit] = letter
        if other is not None and other != letter and old_chit is not None:
            cur[old_chit] = other  # swap: every reinforcement stays on a chit
        return [
            side_set(side, "private", {"assign": table}, rule="14.0"),
            note(
                f"reinforcement {letter} put on chit {chit} (pass {pas})",
                visible_to=side,
                rule="14.0",
            ),
        ]


class Place(OrderHandler):
    type = OrderType(
        "place",
        (Param("unit", "unit"), Param("to", "hex")),
        rule="3.0",
        doc="set a unit up anywhere in your set-up area",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        mine = [u for u in state.units_of(side) if u.hex is not None and u.alive]
        area = [h for h in map_info(state.map).hexes if in_setup_area(state, side, h)]
        if not mine or not area:
            return None
        area.sort(key=lambda h: map_info(state.map).ids[h])
        ex = []
        for u in _rotate(mine, state, 4):
            for h in _rotate(area, state, 3):
                ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in mine)), tuple(ex))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"], "3.0")
        to = _hex(state, order, args["to"], "3.0")
        if not in_setup_area(state, order.side, to):
            raise IllegalOrderError(
                f"{hexid(state.map, to)} is outside {order.side}'s set-up area",
                code="outside-setup-area",
                rule="3.0",
                order=order,
            )
        if to in occupied(state, enemy_of(state, order.side)):
            raise IllegalOrderError(
                f"{hexid(state.map, to)} holds an enemy unit",
                code="enemy-hex",
                rule="8.0",
                order=order,
            )
        _check_stack(state, order, to, [u])

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "3.0")
        to = parse_hex(state.map, args["to"])
        return [unit_move(u.id, to, path=(u.hex, to), visible_to=_vis(state, u), rule="3.0")]


class Breakdown(OrderHandler):
    type = OrderType(
        "breakdown",
        (Param("unit", "unit", "a regiment counter"),),
        rule="17.0",
        doc="replace a regiment counter by its battalions",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        regs = [
            u
            for u in state.units_of(side)
            if u.hex is not None
            and u.alive
            and u.data.get("echelon") == "regiment"
            and not U.is_dummy(u)
        ]
        if not regs:
            return None
        return OrderSpec(
            side,
            self.type,
            FrozenDict(unit=tuple(u.id for u in regs)),
            tuple(self.type.make(side, unit=u.id) for u in regs[:3]),
        )

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"], "17.0")
        if u.data.get("echelon") != "regiment" or U.bns(u) < 2:
            raise IllegalOrderError(
                f"{u.id} is not a regiment counter", code="not-a-regiment", rule="17.0", order=order
            )
        if U.is_dummy(u):
            raise IllegalOrderError(
                f"{u.id} is a dummy: it has no battalions", code="dummy", rule="17.0", order=order
            )

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "17.0")
        events = combat.breakdown_events(state, u, rule="17.0")
        events += _alias_note(
            state, u, "the counter {unit} is replaced by several counters", "17.0"
        )
        return events


class Draw(OrderHandler):
    type = OrderType("draw", (), rule="14.0", doc="draw a reinforcement chit from the cup")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if state.public.get("half_drawn"):
            return None
        return OrderSpec(side, self.type, examples=(Order(side, "draw"),))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if state.public.get("half_drawn"):
            raise IllegalOrderError(
                "you have drawn your chit for this half-turn", code="drawn", rule="4.0", order=order
            )

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Any:
        return chits.preview(state, order.side)

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        return chits.draw_events(state, order.side, dice)


def _movers(state: Any, side: str) -> list[Unit]:
    n = step_no(state)
    out = []
    for u in state.units_of(side):
        if u.hex is None or not u.alive or u.has("moved"):
            continue
        if n == 5 and not u.has("exploit"):
            continue
        out.append(u)
    return out


def _exploit_filter(state: Any, u: Unit):  # noqa: ANN202
    """10.0: no unit may move out of supply during exploitation (option ``exploit_supply``)."""
    if step_no(state) != 5:
        return None, None
    sup = supply_of(state, u.side)
    ok = sup.hexes(sup.division_of(u))
    if state.options.get("exploit_supply", "every-hex") == "every-hex":
        return ok.__contains__, None
    return None, ok


class Move(OrderHandler):
    type = OrderType(
        "move",
        (Param("unit", "unit"), Param("to", "hex")),
        rule="8.0",
        doc="move a unit (cheapest legal path; stops on entering enemy ZOC)",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        movers = _movers(state, side)
        if not movers:
            return None
        ex = []
        for u in _rotate(movers, state, 5):
            allowed, ends = _exploit_filter(state, u)
            cost, _ = reach(state, u, allowed=allowed)
            dests = sorted(
                (
                    h
                    for h in cost
                    if h != u.hex
                    and (ends is None or h in ends)
                    and _stack_after(state, side, h, [u]) <= stack_limit(state)
                ),
                key=lambda h: (-cost[h], map_info(state.map).ids[h]),
            )
            for h in dests[:2] + dests[len(dests) // 2 : len(dests) // 2 + 1]:
                ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in movers)), tuple(ex))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        rule = "10.0" if step_no(state) == 5 else "8.0"
        u = _own(state, order, args["unit"], rule)
        to = _hex(state, order, args["to"], rule)
        if u.has("moved"):
            raise IllegalOrderError(
                f"{u.id} has already moved this half-turn", code="moved", rule=rule, order=order
            )
        if step_no(state) == 5 and not u.has("exploit"):
            raise IllegalOrderError(
                f"{u.id} may not exploit: only motorized units that neither moved nor "
                "attacked this half-turn may (10.0)",
                code="not-exploiting",
                rule="10.0",
                order=order,
            )
        if to == u.hex:
            raise IllegalOrderError(
                f"{u.id} is already in {hexid(state.map, to)}",
                code="no-move",
                rule=rule,
                order=order,
            )
        allowed, ends = _exploit_filter(state, u)
        cost, _ = reach(state, u, allowed=allowed)
        if to not in cost:
            raise IllegalOrderError(
                f"{hexid(state.map, to)} is beyond {u.id}'s reach this phase ({movement_note(state, u)})"
                + (" or out of supply (10.0)" if allowed is not None else ""),
                code="out-of-reach",
                rule=rule,
                order=order,
            )
        if ends is not None and to not in ends:
            raise IllegalOrderError(
                f"{u.id} would end out of supply in {hexid(state.map, to)} (10.0)",
                code="out-of-supply",
                rule="10.0",
                order=order,
            )
        _check_stack(state, order, to, [u])

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "8.0")
        to = parse_hex(state.map, args["to"])
        allowed, _ = _exploit_filter(state, u)
        cost, parent = reach(state, u, allowed=allowed)
        path = path_to(parent, u.hex, to)
        vis = _vis(state, u)
        data = {"task": None} if u.data.get("task") else {}
        ev = [
            unit_move(u.id, to, path=path, visible_to=vis, rule="8.0"),
            unit_set(
                u.id,
                markers=u.markers | {"moved"},
                visible_to=vis,
                rule="8.0",
                **({"data": data} if data else {}),
            ),
        ]
        ev += _alias_note(
            state, u, f"{{unit}} moves {hexid(state.map, u.hex)} -> {hexid(state.map, to)}", "8.0"
        )
        return ev


def movement_note(state: Any, u: Unit) -> str:
    from owsnb.rules.combatops.movement import movement_allowance

    ma = movement_allowance(state, u)
    return f"MA {ma}{' (halved: out of supply, 7.2)' if u.data.get('oos') else ''}"


class Enter(OrderHandler):
    type = OrderType(
        "enter",
        (Param("unit", "unit", "a unit waiting off the map"), Param("to", "hex")),
        rule="14.2",
        doc="bring a reinforcement (or a unit entering from the map edge) onto the map",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        waiting = [
            u
            for u in state.units_of(side)
            if u.hex is None and u.box in ("arrived", "entry") and u.alive
        ]
        if not waiting:
            return None
        ex = []
        for u in _rotate(waiting, state, 6):
            hexes = [
                h
                for h in entry_hexes(state, u)
                if _stack_after(state, side, h, [u]) <= stack_limit(state)
            ]
            for h in _rotate(hexes, state, 2):
                ex.append(self.type.make(side, unit=u.id, to=state.map.label(h)))
        return OrderSpec(side, self.type, FrozenDict(unit=tuple(u.id for u in waiting)), tuple(ex))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"], "14.2", on_map=False)
        if u.hex is not None or u.box not in ("arrived", "entry") or not u.alive:
            raise IllegalOrderError(
                f"{u.id} is not waiting to enter the map",
                code="not-waiting",
                rule="14.0",
                order=order,
            )
        to = _hex(state, order, args["to"], "14.2")
        allowed = entry_hexes(state, u)
        if to not in allowed:
            names = ", ".join(hexid(state.map, h) for h in allowed) or "none free"
            raise IllegalOrderError(
                f"{u.id} may enter only at {names} (14.2)",
                code="bad-entry-hex",
                rule="14.2",
                order=order,
            )
        _check_stack(state, order, to, [u])

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "14.2", on_map=False)
        to = parse_hex(state.map, args["to"])
        vis = _vis(state, u)
        ev = [
            unit_move(u.id, to, visible_to=vis, rule="14.2"),
            unit_set(
                u.id,
                markers=u.markers | {"entered"},
                data={"oos": False},
                visible_to=vis,
                rule="14.2",
            ),
        ]
        ev += _alias_note(state, u, f"a counter {{unit}} enters at {hexid(state.map, to)}", "14.2")
        return ev


class Replace(OrderHandler):
    type = OrderType(
        "replace",
        (Param("letter", "choice", "a replacement that has arrived"), Param("unit", "unit")),
        rule="14.1",
        doc="remove a hit marker from a battalion in supply",
    )

    def _fits(self, state: Any, kind: str, u: Unit) -> bool:
        t = _types(state)
        return (
            U.is_infantry(u, t)
            if kind == "infantry"
            else U.is_armor(u, t)
            if kind == "armor"
            else True
        )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        priv = state.sides[side].private
        toks = list(priv.get("replacements", ()))
        if not toks:
            return None
        ex = []
        for t in toks:
            kind = priv["reinforcements"][t].get("replacement")
            for u in state.units_of(side):
                if (
                    u.hex is not None
                    and U.hits(u)
                    and not u.data.get("oos")
                    and self._fits(state, kind, u)
                ):
                    ex.append(self.type.make(side, letter=t, unit=u.id))
        if not ex:
            return None
        units = tuple(dict.fromkeys(o.args[1] for o in ex))
        return OrderSpec(side, self.type, FrozenDict(letter=tuple(toks), unit=units), tuple(ex[:8]))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        priv = state.sides[order.side].private
        if args["letter"] not in priv.get("replacements", ()):
            raise IllegalOrderError(
                f"replacement {args['letter']!r} has not arrived or was used",
                code="no-replacement",
                rule="14.1",
                order=order,
            )
        u = _own(state, order, args["unit"], "14.1")
        kind = priv["reinforcements"][args["letter"]].get("replacement")
        if not U.hits(u):
            raise IllegalOrderError(
                f"{u.id} carries no hit marker", code="no-hit", rule="14.1", order=order
            )
        if u.data.get("oos"):
            raise IllegalOrderError(
                f"{u.id} is out of supply", code="out-of-supply", rule="14.1", order=order
            )
        if not self._fits(state, kind, u):
            raise IllegalOrderError(
                f"a {kind} replacement cannot go to {U.utype(u)} {u.id} (owsnb ruling, "
                "digest omission 12)",
                code="wrong-type",
                rule="14.1",
                order=order,
            )

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "14.1")
        toks = tuple(
            t
            for t in state.sides[order.side].private.get("replacements", ())
            if t != args["letter"]
        )
        return [
            side_set(order.side, "private", {"replacements": toks}, rule="14.1"),
            unit_set(u.id, steps=u.steps + 1, visible_to=_vis(state, u), rule="14.1"),
            note(
                f"{u.id} takes replacement {args['letter']}: one hit marker removed",
                visible_to=_vis(state, u),
                rule="14.1",
            ),
        ]


def _river_sides(state: Any, u: Unit) -> list[Hex]:
    info = map_info(state.map)
    return [n for n in info.neighbours[u.hex] if edge_key(u.hex, n) in info.rivers]


class Build(OrderHandler):
    type = OrderType(
        "build",
        (
            Param("unit", "unit", "an engineer"),
            Param("across", "hex", "the hex across the river"),
            Param("kind", "choice", "bridge type", positional=False, choices=("infantry", "armor")),
        ),
        rule="9.7",
        doc="start (or, by a scenario's set-up rule, place) a bridge across a river hexside",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units_of(side):
            if (
                u.hex is not None
                and u.alive
                and U.is_engineer(u, _types(state))
                and not U.is_dummy(u)
            ):
                for n in _river_sides(state, u):
                    if bridge_kind(state, u.hex, n) != "armor":
                        for k in ("infantry", "armor"):
                            ex.append(
                                self.type.make(side, unit=u.id, across=state.map.label(n), kind=k)
                            )
        if not ex:
            return None
        units = tuple(dict.fromkeys(o.args[0] for o in ex))
        return OrderSpec(
            side, self.type, FrozenDict(unit=units, kind=("infantry", "armor")), tuple(ex[:8])
        )

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"], "9.7")
        if not U.is_engineer(u, _types(state)) or U.is_dummy(u):
            raise IllegalOrderError(
                f"{u.id} is not an engineer", code="not-an-engineer", rule="9.7", order=order
            )
        n = _hex(state, order, args["across"], "9.7")
        if n.distance(u.hex) != 1 or edge_key(u.hex, n) not in map_info(state.map).rivers:
            raise IllegalOrderError(
                f"{u.id} is not beside a river hexside facing {hexid(state.map, n)}",
                code="no-river",
                rule="9.7",
                order=order,
            )
        kind = args.get("kind", "infantry")
        have = bridge_kind(state, u.hex, n)
        if have == "armor" or have == kind:
            raise IllegalOrderError(
                f"there is already an {have} bridge there", code="bridged", rule="9.7", order=order
            )
        if step_no(state) == 0:
            sb = state.public.get("setup_bridge", {})
            if sb.get("side") != order.side or kind != "armor":
                raise IllegalOrderError(
                    "bridges are built during the movement phase; only a scenario set-up rule "
                    "places one at the start",
                    code="not-now",
                    rule="9.7",
                    order=order,
                )
            if u.id in state.sides[order.side].private.get("setup_bridges", ()):
                raise IllegalOrderError(
                    f"{u.id} has already placed its set-up bridge",
                    code="used",
                    rule=str(sb.get("rule", "17.2")),
                    order=order,
                )
        elif u.has("moved") or u.has("attacked"):
            raise IllegalOrderError(
                f"{u.id} has moved or attacked this half-turn",
                code="moved",
                rule="9.7",
                order=order,
            )

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "9.7")
        n = parse_hex(state.map, args["across"])
        kind = args.get("kind", "infantry")
        eid = edge_id(state.map, u.hex, n)
        if step_no(state) == 0:
            rule = str(state.public.get("setup_bridge", {}).get("rule", "17.2"))
            bridges = dict(state.public.get("bridges", {}))
            bridges[eid] = {"kind": "armor", "side": order.side}
            used = tuple(state.sides[order.side].private.get("setup_bridges", ())) + (u.id,)
            return [
                state_set("public", {"bridges": bridges}, rule=rule),
                side_set(order.side, "private", {"setup_bridges": used}, rule=rule),
                note(f"{order.side} places an armor bridge across {eid} ({rule})", rule=rule),
            ]
        return [
            unit_set(
                u.id, data={"task": {"kind": kind, "edge": eid}}, visible_to=u.side, rule="9.7"
            ),
            note(f"{u.id} starts an {kind} bridge across {eid}", visible_to=u.side, rule="9.7"),
        ]


class Demolish(OrderHandler):
    type = OrderType(
        "demolish",
        (Param("unit", "unit", "an engineer"), Param("across", "hex", "the hex across the bridge")),
        rule="9.7",
        doc="destroy a bridge (the engineer spends the half-turn in the bridge hex)",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        ex = []
        for u in state.units_of(side):
            if (
                u.hex is not None
                and u.alive
                and U.is_engineer(u, _types(state))
                and not U.is_dummy(u)
            ):
                for n in _river_sides(state, u):
                    if bridge_kind(state, u.hex, n):
                        ex.append(self.type.make(side, unit=u.id, across=state.map.label(n)))
        if not ex:
            return None
        units = tuple(dict.fromkeys(o.args[0] for o in ex))
        return OrderSpec(side, self.type, FrozenDict(unit=units), tuple(ex[:4]))

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        u = _own(state, order, args["unit"], "9.7")
        if not U.is_engineer(u, _types(state)) or U.is_dummy(u):
            raise IllegalOrderError(
                f"{u.id} is not an engineer", code="not-an-engineer", rule="9.7", order=order
            )
        n = _hex(state, order, args["across"], "9.7")
        if n.distance(u.hex) != 1 or not bridge_kind(state, u.hex, n):
            raise IllegalOrderError(
                f"no bridge between {hexid(state.map, u.hex)} and {hexid(state.map, n)}",
                code="no-bridge",
                rule="9.7",
                order=order,
            )
        if u.has("moved") or u.has("attacked"):
            raise IllegalOrderError(
                f"{u.id} must spend the whole half-turn in the bridge hex (9.7)",
                code="moved",
                rule="9.7",
                order=order,
            )

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        u = _own(state, order, args["unit"], "9.7")
        n = parse_hex(state.map, args["across"])
        eid = edge_id(state.map, u.hex, n)
        return [
            unit_set(
                u.id, data={"task": {"kind": "destroy", "edge": eid}}, visible_to=u.side, rule="9.7"
            ),
            note(
                f"{u.id} prepares to destroy the bridge across {eid}", visible_to=u.side, rule="9.7"
            ),
        ]


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

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
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
                for n in info.neighbours[u.hex]
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
            and U.is_artillery(u, _types(state))
            and not U.is_dummy(u)
            and not u.has("supported")
        ]
        ex = []
        for t in targets:
            adj = [u.id for u in elig if u.hex.distance(t) == 1]
            sup = [a.id for a in arts if a.hex.distance(t) <= U.art_range(a, _types(state))]
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

    def _parse(
        self, state: Any, order: Order, args: Mapping[str, Any]
    ) -> tuple[Hex, list[Unit], list[Unit]]:
        target = _hex(state, order, args["hex"], "11.0")
        with_ = [_own(state, order, x, "11.0") for x in args.get("with", ())]
        sup = [_own(state, order, x, "13.4") for x in args.get("support", ()) or ()]
        return target, with_, sup

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        target, with_, sup = self._parse(state, order, args)
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
        types = _types(state)
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
            if u.hex.distance(target) != 1:
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
            if a.hex.distance(target) > rng:
                raise IllegalOrderError(
                    f"{a.id} ({a.data.get('art_class')}, range {rng}) is "
                    f"{a.hex.distance(target)} hexes from {label}",
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

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Any:
        target, with_, sup = self._parse(state, order, args)
        return combat.preview(state, order.side, target, [u.id for u in with_], [u.id for u in sup])

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        target, with_, sup = self._parse(state, order, args)
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
                if u.hex.distance(target) == 1
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

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
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

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        p = state.public.get("pending_advance")
        target = _hex(state, order, args["hex"], "11.8")
        if not p or parse_hex(state.map, p["hex"]) != target:
            raise IllegalOrderError(
                f"no defender has just left {hexid(state.map, target)}: an advance follows "
                "the attack at once (11.8)",
                code="no-advance",
                rule="11.8",
                order=order,
            )
        units = [_own(state, order, x, "11.8") for x in args.get("with", ())]
        if not units:
            raise IllegalOrderError(
                "name the units that advance (with=...)", code="no-units", rule="11.8", order=order
            )
        types = _types(state)
        for u in units:
            if u.id not in p["units"]:
                raise IllegalOrderError(
                    f"{u.id} did not take part in that attack",
                    code="not-attacker",
                    rule="11.8",
                    order=order,
                )
            from owsnb.rules.combatops.movement import step_cost

            if (
                step_cost(
                    state, u.hex, target, U.movement_class(u, types), int(u.data.get("ma", 1))
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
        _check_stack(state, order, target, units)

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        target = parse_hex(state.map, args["hex"])
        ev: list[Event] = []
        for x in args["with"]:
            u = _own(state, order, x, "11.8")
            ev.append(
                unit_move(
                    u.id, target, path=(u.hex, target), visible_to=_vis(state, u), rule="11.8"
                )
            )
        ev.append(state_set("public", {"pending_advance": None}, rule="11.8"))
        ev.append(
            note(f"{', '.join(args['with'])} advance into {hexid(state.map, target)}", rule="11.8")
        )
        return ev


class ArtilleryPolicy(OrderHandler):
    type = OrderType(
        "artillery",
        (
            Param("unit", "unit", "one of your artillery units"),
            Param("mode", "choice", "support or hold", choices=("support", "hold")),
        ),
        rule="13.4",
        doc="let an artillery unit support the defense automatically, or hold it back",
        actors="any",
    )

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if side not in state.sides:
            return None
        arts = [
            u
            for u in state.units_of(side)
            if U.is_artillery(u, _types(state)) and u.alive and not U.is_dummy(u)
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

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if order.side not in state.sides:
            raise IllegalOrderError(
                "only a side commands artillery", code="not-a-side", rule="13.4", order=order
            )
        u = _own(state, order, args["unit"], "13.4", on_map=False)
        if not U.is_artillery(u, _types(state)):
            raise IllegalOrderError(
                f"{u.id} is not artillery", code="not-artillery", rule="13.4", order=order
            )

    def adjudicate(
        self, state: Any, order: Order, args: Mapping[str, Any], dice: Any
    ) -> list[Event]:
        uid = unalias(state, order.side, args["unit"])
        held = [x for x in state.sides[order.side].private.get("artillery_hold", ()) if x != uid]
        if args["mode"] == "hold":
            held.append(uid)
        return [side_set(order.side, "private", {"artillery_hold": tuple(held)}, rule="13.4")]


# order matters: a click on a counter in the order panel picks the first verb that takes it
HANDLERS = (
    Move(),
    Attack(),
    Occupy(),
    Enter(),
    Draw(),
    Place(),
    Assign(),
    Replace(),
    Build(),
    Demolish(),
    Breakdown(),
    ArtilleryPolicy(),
)
