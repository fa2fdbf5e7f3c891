"""Air readiness boxes (Basic L56-L60; WWII sections 14-15) and naval sea-zone boxes (L635-L696).

Aircraft sit in boxes ``landed -> refuel -> ready -> in-flight -> on-station`` (``unit.box`` is
``air:<box>``) and move one box toward Ready at the start of each friendly impulse (L57).
A mission is fixed at launch (L583) and costs 1 OP (L575): off-board aircraft fly In-Flight and
arrive On-Station at the next friendly impulse; on-board ones arrive at once (L57). Implemented
missions: aerial ``recon`` (a 7-hex area, types reported, interior forest hides, L586-L592) and
tactical ground ``support`` (+1 column to the attacker of a battle in the hex, L605). No launch in
fog, rain, snow, blizzard or high wind (L567); at night only the listed missions (L508).

Naval units sit in a sea zone's boxes [0]-[3] (``unit.box`` is ``sea:<zone>:<box>``); every
action moves a unit down one box and units in [0] cannot act (L638); at the end of the turn all
move up one box (L644). Every sea-zone entry is announced to the opponent (appendix E2); the zone's
contents stay secret. An opponent with units in the zone outside [0] intercepts if d6 <= its best
box (ruling #13, L660). The zone-move and naval combat tables are placeholders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from owsnb.kernel import Distribution, IllegalOrderError, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import daypart, enemy_of, owner, unit_types, units_in
from owsnb.rules.tocs.perimeter import announce

__all__ = [
    "AIR_NAVAL_HANDLERS",
    "advance_aircraft",
    "end_of_turn_air_naval",
    "sea_box",
    "intercept_chance",
]

_NEXT = {"landed": "refuel", "refuel": "ready"}


def _air(u: Any) -> str | None:
    return u.box[4:] if u.box and u.box.startswith("air:") else None


def sea_box(u: Any) -> tuple[str, int] | None:
    if not u.box or not u.box.startswith("sea:"):
        return None
    _, zone, box = u.box.split(":")
    return zone, int(box)


def at_sea(u: Any) -> tuple[str, int]:
    """The (zone, box) of a naval unit known to be at sea (``ValueError`` if it is not)."""
    where = sea_box(u)
    if where is None:
        raise ValueError(f"{u.id} is not in a sea zone's box (L638)")
    return where


def intercept_chance(box: int) -> Distribution:
    """Exact chance that an interception roll succeeds: d6 <= box (ruling #13)."""
    return Distribution.die(6).map(lambda r: r <= box, label=f"interception from box [{box}]")


def _execute(em: Emitter, u: Any, dice: Any) -> None:
    s = em.state
    mission, lab = u.get("mission"), u.get("target")
    h = s.map.hex(lab)
    side = u.side
    enemy = enemy_of(s, side)
    if mission == "recon":
        r = int(s.tables["air"].get("recon_radius", 1))
        found = []
        for x in sorted(
            (x for x in h.disc(r) if x in s.map.hexes and owner(s, x) != side), key=s.map.label
        ):
            if s.map.terrain(x) in ("forest", "jungle"):
                found.append(f"{s.map.label(x)}: nothing seen")
                continue
            occ = units_in(s, x, enemy)
            found.append(
                f"{s.map.label(x)}: "
                + (("occupied by " + ", ".join(unit_types(occ))) if occ else "empty")
            )
        announce(
            em,
            f"Aerial reconnaissance over {lab}: " + ("; ".join(found) or "nothing to report"),
            rule="15.2",
            hex=lab,
        )
        marks = set(s.sides[side].private.get("recon_marks", ()))
        em.private(side, rule="L588", recon_marks=sorted(marks | {lab}))
    elif mission == "support":
        em.hexfact(h, rule="L605", air_support=side)
        announce(em, f"Tactical air support on station over {lab}", rule="L605", hex=lab)
    em.unit(u.id, rule="L57", box="air:on-station")


def _land(em: Emitter, u: Any) -> None:
    """The mission is over: the aircraft lands and its support station ends (L583, L605)."""
    if u.get("mission") == "support" and u.get("target"):
        h = em.state.map.hex(u.get("target"))
        if em.state.map.hexes[h].facts.get("air_support") == u.side:
            em.hexfact(h, rule="L605", air_support=None)
    em.unit(u.id, rule="L57", box="air:landed", data={"mission": None, "target": None})


def advance_aircraft(em: Emitter, side: str, dice: Any) -> None:
    """L57: at the start of each friendly impulse aircraft move one box toward Ready; In-Flight
    missions arrive On-Station; aircraft that were On-Station land."""
    for u in list(em.state.units.values()):
        if u.side != side or not u.alive:
            continue
        box = _air(u)
        if box in _NEXT:
            em.unit(u.id, rule="L57", box=f"air:{_NEXT[box]}")
        elif box == "on-station":
            _land(em, u)
        elif box == "in-flight":
            _execute(em, em.state.units[u.id], dice)


def end_of_turn_air_naval(em: Emitter) -> None:
    """L644 (ruled per appendix C.5): aircraft on station land, In-Flight missions carry over
    (L58); naval units move up one box and may sail again."""
    for u in list(em.state.units.values()):
        if not u.alive:
            continue
        if _air(u) == "on-station":
            _land(em, u)
        sb = sea_box(u)
        if sb:
            zone, box = sb
            em.unit(
                u.id,
                rule="L644",
                box=f"sea:{zone}:{min(int(em.state.tables['naval']['boxes']), box + 1)}",
                data={"sailed": False},
            )


class Fly(OrderHandler):
    type = OrderType(
        "fly",
        (
            Param("unit", "unit", "a Ready aircraft", on_map=False),
            Param("mission", "choice", "recon or support", choices=("recon", "support")),
            Param("hex", "hex", "target hex"),
        ),
        rule="15.0",
        doc="launch an air mission (1 OP): aerial recon or tactical ground support",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        ids = tuple(
            u.id for u in state.units.values() if u.side == side and u.alive and _air(u) == "ready"
        )
        if not ids:
            return None
        targets = tuple(
            sorted(
                {
                    state.map.label(h)
                    for h, i in state.map.hexes.items()
                    if i.facts.get("owner") != side
                }
            )
        )[:40]
        return OrderSpec(
            side, self.type, FrozenDict(unit=ids, mission=("recon", "support"), hex=targets)
        )

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if _air(u) != "ready":
            raise IllegalOrderError(
                f"{u.id} is not Ready (it is {_air(u) or 'not an aircraft'})",
                code="not-ready",
                rule="L57",
                order=order,
            )
        w = state.public.get("weather", {})
        bans = set(state.tables["air"]["no_launch"])
        bad = [c for c in (w.get("precipitation"), w.get("fog"), w.get("wind")) if c in bans]
        if bad:
            raise IllegalOrderError(
                f"no launches in {', '.join(bad)}", code="weather", rule="L567", order=order
            )
        if (
            daypart(state) == "night"
            and args["mission"] not in state.tables["air"]["night_missions"]
        ):
            raise IllegalOrderError(
                f"a {args['mission']} mission cannot fly at night",
                code="night",
                rule="L508",
                order=order,
            )
        from owsnb.rules.tocs.activation import check_spend

        check_spend(
            state,
            order.side,
            int(state.tables["air"]["missions"][args["mission"]]["op"]),
            order,
            "L575",
        )

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        from owsnb.rules.tocs.activation import spend

        em = Emitter(state)
        u = args["unit"]
        spend(
            em,
            order.side,
            int(state.tables["air"]["missions"][args["mission"]]["op"]),
            rule="L575",
            what="air mission",
        )
        em.unit(
            u.id,
            rule="L583",
            box="air:in-flight",
            data={
                "mission": args["mission"],
                "target": state.map.label(args["hex"]),
            },
        )
        em.say(
            f"{u.id} launched: {args['mission']} over {state.map.label(args['hex'])}",
            rule="L583",
            visible_to=order.side,
        )
        if not u.get("offboard"):
            _execute(em, em.state.units[u.id], dice)
        return em.events


class Sail(OrderHandler):
    type = OrderType(
        "sail",
        (
            Param("unit", "unit", "a naval unit", on_map=False),
            Param("zone", "text", "sea zone to enter"),
        ),
        rule="17.0",
        doc="move a naval unit to another sea zone (once per turn; announced)",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        zones = tuple(state.public.get("sea_zones", ()))
        ids = tuple(
            u.id
            for u in state.units.values()
            if u.side == side
            and u.alive
            and (where := sea_box(u)) is not None
            and where[1] > 0
            and not u.get("sailed")
        )
        if not ids or not zones:
            return None
        return OrderSpec(side, self.type, FrozenDict(unit=ids, zone=zones))

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if not sea_box(u):
            raise IllegalOrderError(
                f"{order.side} has no naval unit {u.id!r} at sea",
                code="not-your-unit",
                rule="L638",
                order=order,
            )
        zone, box = at_sea(u)
        if box <= 0:
            raise IllegalOrderError(
                f"{u.id} is in box [0]: it cannot act", code="box-zero", rule="L638", order=order
            )
        if u.get("sailed"):
            raise IllegalOrderError(
                f"{u.id} already changed zone this turn", code="sailed", rule="L639", order=order
            )
        if args["zone"] not in state.public.get("sea_zones", ()) or args["zone"] == zone:
            raise IllegalOrderError(
                f"{args['zone']!r} is not another sea zone",
                code="bad-zone",
                rule="L639",
                order=order,
            )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution:
        _, box = at_sea(args["unit"])
        need = int(
            state.tables["naval"]["move_success"].get(
                box, state.tables["naval"]["move_success"].get(str(box), 0)
            )
        )
        return Distribution.die(6).map(lambda r: r <= need, label="zone move succeeds")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        u = args["unit"]
        zone, box = at_sea(u)
        need = int(
            state.tables["naval"]["move_success"].get(
                box, state.tables["naval"]["move_success"].get(str(box), 0)
            )
        )
        r = dice.roll(
            6, purpose=f"{u.id} zone move (needs <= {need})", rule="L640", visible_to=order.side
        )
        if r > need:
            em.unit(u.id, rule="L638", box=f"sea:{zone}:{box - 1}")
            em.say(f"{u.id} fails to leave {zone}", rule="L640", visible_to=order.side)
            return em.events
        new = args["zone"]
        em.unit(u.id, rule="L641", box=f"sea:{new}:{box - 1}", data={"sailed": True})
        announce(em, f"A naval unit enters sea zone {new}", rule="L635", zone=new)
        enemy = enemy_of(state, order.side)
        boxes = [
            where[1]
            for x in state.units.values()
            if x.side == enemy
            and x.alive
            and (where := sea_box(x)) is not None
            and where[0] == new
            and where[1] > 0
        ]
        if boxes:
            best = max(boxes)
            ri = dice.roll(
                6, purpose=f"interception in {new} (box [{best}])", rule="L656", visible_to=enemy
            )
            if ri <= best:
                rc = dice.roll(6, purpose="naval combat", rule="L667", visible_to=None)
                hits = int(
                    state.tables["naval"]["combat_hits"].get(
                        rc, state.tables["naval"]["combat_hits"].get(str(rc), 0)
                    )
                )
                announce(
                    em,
                    f"Interception and naval battle in {new}: {hits} hit(s) on the intruder",
                    rule="L667",
                    zone=new,
                )
                if hits:
                    left = em.state.units[u.id].steps - hits
                    if left <= 0:
                        from owsnb.rules.tocs.combat import destroy

                        destroy(em, u.id, rule="L669")
                    else:
                        em.unit(u.id, rule="L669", steps=left)
        return em.events


AIR_NAVAL_HANDLERS = (Fly, Sail)
