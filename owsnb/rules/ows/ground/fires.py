"""Fires on the Fires Effects Table (10.15.2-10.15.7) and the Prep Fire order (10.3 3.A).

Paragraphs: 10.15.2 fires declared by hex; 10.15.3 span of control (2 battalions or 1 BAG;
10.15.3.1 bombardment up to 4, option); 10.15.4 the Fires Effects Table; 10.15.4.1 PGM promotions
(air munitions counters, attack helicopters); 10.15.5 each artillery die is one fire mission, a
counter fires all at once and is marked Expended (option: split); 10.15.6 who may give IDF SPT
and CAS; 10.15.7 suppression (suppressed artillery demoted and giving no IDF support, a
suppressed HQ's Main Effort removed); 10.15.8.4 landed artillery cannot contribute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import (
    Event,
    unit_set,
)
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.reduce import apply_all
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.ows.common import Result, Roller, apply_hits, legal_examples, option, watchers
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import shift, sides
from owsnb.rules.ows.ground.gcat import DEFENDERS, _ground_attacks, defence
from owsnb.rules.ows.ground.phase import _set_stage, _stage, check_may_act
from owsnb.rules.ows.movement import (
    GROUND_CATEGORIES,
    known_enemies,
    mobility,
    ptable,
)
from owsnb.rules.ows.sequence import base_step
from owsnb.rules.ows.units import counter


def _target_type(unit: Any) -> str:
    c = counter(unit)
    if c.category == "ground":
        m = mobility(unit)
        return "armour" if m == "tracked" else "soft" if m == "wheeled" else "infantry"
    return "soft"


def _fet_row(state: StateLike, target: Any) -> dict[str, int]:
    fet = ptable(state, "fet")
    terr = state.map.hexes[target.hex].terrain
    terr = fet.get("aliases", {}).get(terr, terr)
    row = fet["hits"].get(terr) or fet["hits"]["clear"]
    return {k: int(v) for k, v in row[_target_type(target)].items()}


def _is_pgm(u: Any, a: Any) -> bool:
    c = counter(u)
    return (c.is_air and a.id == "munitions") or c.aircraft == "rotary"


def _missions(
    state: StateLike, firer: Any, target: Any, limit: int | None = None
) -> list[tuple[str, str, list[str]]]:
    """(group key, die, modifier notes) for each fire mission *firer* puts on *target* (FET)."""
    fet = ptable(state, "fet")
    out = []
    for a in _ground_attacks(firer):
        for _ in range(a.left):
            prom = dem = 0
            notes = []
            if "suppressed" in firer.markers and counter(firer).category == "artillery":
                dem += int(fet.get("suppressed_firer_demotions", 1))
                notes.append("suppressed artillery fires demoted (10.15.7)")
            if "rsoi" in target.markers:
                prom += int(fet.get("rsoi_target_promotions", 1))
                notes.append("target in RSO&I (2.3.1)")
            if "rsoi" in firer.markers:
                dem += int(fet.get("rsoi_firer_demotions", 1))
                notes.append("firing unit in RSO&I (2.3.1)")
            if "sigint" in target.markers and "countermeasures" not in target.markers:
                prom += 1
                notes.append("SIGINT/EMSO on the target (7.2.1.3)")
            elif "countermeasures" in target.markers and "sigint" not in target.markers:
                dem += 1
                notes.append("countermeasures (7.2.1.4)")
            if _is_pgm(firer, a):
                terr = state.map.hexes[target.hex].terrain
                terr = fet.get("aliases", {}).get(terr, terr)
                p = int((fet.get("pgm", {}).get(terr) or {}).get(_target_type(target), 0))
                if p:
                    prom += p
                    notes.append(f"PGM +{p} (10.15.4.1)")
            out.append((a.key, shift(a.die, prom - dem), notes))
            if limit is not None and len(out) >= limit:
                return out
    return out


def fire_preview(
    dice_: Sequence[str],
    shield: int,
    suppress: int,
    step: int,
    criticals: bool = False,
    max_steps: int = 99,
) -> Distribution:
    """Exact outcome of fire missions on the FET: ``(steps lost, suppressed)`` for dice rolled
    against *shield* needing *suppress* hits to suppress and *step* hits per step (10.15.4)."""
    total = Distribution.point(0)
    for d in dice_:
        total = total + Distribution.die(sides(d)).map(
            lambda r: _hits(r, shield, critical=criticals)
        )
    return total.map(
        lambda h: (min(h // max(step, 1), max_steps), h >= suppress),
        label=f"(steps lost, suppressed) vs defence {shield}",
    )


def fire_on(
    state: GameState,
    firers: Sequence[Any],
    target: Any,
    roll: Roller,
    rule: str = "10.15.4",
    reveal: bool = False,
    limit: int | None = None,
) -> tuple[list[Event], dict[str, Any]]:
    """Resolve *firers*' missions on *target* with the FET (10.15.4): each mission rolls against
    the target's defence, hits are counted, then suppression and step losses; the firers' missions
    are spent and artillery is marked Expended (10.15.5)."""
    fet = ptable(state, "fet")
    shield, _ = defence(state, target)
    row = _fet_row(state, target)
    crit = bool(fet.get("criticals"))
    hits = 0
    events: list[Event] = []
    lines = []
    vis_t = watchers(state, target)
    for f in firers:
        ms = _missions(state, f, target, limit)
        spent = dict(counter(f).spent)
        for key, die, notes in ms:
            r = roll(
                die,
                f"fire mission on {target.id} vs defence {shield}"
                + (f" ({'; '.join(notes)})" if notes else ""),
                rule,
                None if reveal else frozenset({f.side}) | (vis_t or frozenset(state.sides)),
            )
            h = _hits(r, shield, critical=crit)
            hits += h
            spent[key] = int(spent.get(key, 0)) + 1
        vis_f = watchers(state, f)
        left = sum(
            max(a.count - int(spent.get(a.key, 0)), 0)
            for a in counter(f).attacks
            if a.can_hit("ground") and not a.air_to_air
        )
        done_firing = not option(state, "fire_splitting") or left <= 0
        kinds = counter(f).category in ("artillery",) or counter(f).is_air
        mk = f.markers | ({"expended"} if kinds and done_firing else set())
        events.append(
            unit_set(f.id, data={"spent": spent}, markers=mk, rule="10.15.5", visible_to=vis_f)
        )
        lines.append(f"{f.id}: {len(ms)} fire mission(s)")
    steps = min(hits // max(row["step"], 1), target.steps)
    supp = hits >= row["suppress"]
    res = {"hits": hits, "steps": steps, "suppressed": supp, "defence": shield, "needed": row}
    after = state
    if steps:
        cause = "air" if any(counter(f).is_air for f in firers) else "artillery"
        ev, lost, absorbed = apply_hits(
            state, target, steps, rule="10.15.4", cause=cause, visible_to=vis_t
        )
        events += ev
        res["steps"] = lost
        res["absorbed"] = absorbed
        after = apply_all(state, ev)
    t2 = after.units[target.id]
    if supp and t2.alive and t2.hex is not None:
        mk = set(t2.markers) | {"suppressed"}
        extra = []
        if counter(t2).category == "hq":  # 10.15.7: HQ effects come off at once
            for x in after.units.values():
                if x.data.get("me_by") == t2.id and "main-effort" in x.markers:
                    extra.append(
                        unit_set(
                            x.id,
                            markers=x.markers - {"main-effort"},
                            rule="10.15.7",
                            visible_to=watchers(after, x),
                        )
                    )
        events.append(unit_set(t2.id, markers=frozenset(mk), rule="10.15.7", visible_to=vis_t))
        events += extra
    res["lines"] = lines + [
        f"{hits} hit(s) on {target.id} (needs {row['suppress']} to suppress, {row['step']} per step): "
        f"{res['steps']} step(s) lost" + (", suppressed" if supp else "")
    ]
    return events, res


def _in_range(state: StateLike, u: Any, h: Hex) -> bool:
    if u.hex is None:
        return False
    d = u.hex.distance(h)
    return any(d <= a.range for a in _ground_attacks(u))


def _span_of_control(
    state: StateLike, order: Order | None, arts: Sequence[Any], bombardment: bool = False
) -> None:
    """10.15.3: one fires action employs at most 2 artillery/rocket battalions or 1 BAG (up to 4
    in a Division/Corps Bombardment, 10.15.3.1)."""
    soc = ptable(state, "ground")["span_of_control"]
    arts = [a for a in arts if counter(a).category == "artillery"]
    if not arts:
        return
    if any(a.data.get("bag") for a in arts) and len(arts) > int(soc["bag"]):
        raise refuse(
            "a Brigade Artillery Group fires alone (10.15.3)", "span-of-control", "10.15.3", order
        )
    cap = int(soc["bombardment"]) if bombardment else int(soc["battalions"])
    if len(arts) > cap:
        raise refuse(
            f"one fires action employs at most {cap} artillery/rocket units (10.15.3"
            + (".1)" if bombardment else ")"),
            "span-of-control",
            "10.15.3",
            order,
        )


def _can_fire(
    state: StateLike, order: Order | None, f: Any, h: Hex, rule: str, idf: bool = False
) -> None:
    c = counter(f)
    if (
        c.category not in ("artillery", "air-mission", "naval", "ground", "air-defence")
        or f.hex is None
        or not f.alive
    ):
        raise refuse(f"{f.id} cannot deliver fires", "not-a-firer", rule, order)
    if (
        c.is_air
        and c.mission not in ("strike", "cas", "interdiction", "sucap", "sead", "bomber")
        and c.aircraft != "rotary"
    ):
        raise refuse(f"{f.id} is not on an attack mission (6.5.10)", "not-a-firer", rule, order)
    if "expended" in f.markers or "idf-spt" in f.markers and not option(state, "fire_splitting"):
        raise refuse(f"{f.id} has already fired this turn (10.15.5)", "expended", "10.15.5", order)
    if "disrupted-c2" in f.markers and c.category in ("artillery", "naval", "air-defence"):
        raise refuse(
            f"{f.id} is under Disrupt C2 and cannot fire (7.2.1.1)", "disrupted", "7.2.1.1", order
        )
    if idf and "suppressed" in f.markers and c.category == "artillery":
        raise refuse(
            f"{f.id} is suppressed: no IDF support (10.15.7)", "suppressed", "10.15.7", order
        )
    if int(f.data.get("landed", 0) or 0) == state.clock.turn and c.category == "artillery":
        raise refuse(
            f"{f.id} landed this turn and cannot contribute (10.15.8.4)",
            "landed",
            "10.15.8.4",
            order,
        )
    if not _ground_attacks(f):
        raise refuse(f"{f.id} has no fire missions left", "expended", "10.15.5", order)
    if not _in_range(state, f, h):
        raise refuse(
            f"{state.map.label(h)} is out of {f.id}'s range", "out-of-range", "2.2.7.3", order
        )


class PrepFire(OrderHandler):
    """10.3 3.A / 10.15.4: the actioning side fires artillery and air at a detected ground unit on
    the FET; artillery that fires is Expended (10.15.5)."""

    type = OrderType(
        "prep-fire",
        (
            Param("target", "enemy", "detected enemy ground unit"),
            Param(
                "with",
                "unit",
                "artillery, attack helicopters or air missions firing",
                positional=False,
                repeat=True,
            ),
            Param(
                "missions",
                "int",
                "fire missions to use (option fire_splitting)",
                positional=False,
                optional=True,
            ),
        ),
        rule="10.15.4",
        doc="Prep Fire on the Fires Effects Table",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if base_step(state.clock.step) != "6.C.3" or _stage(state, side) != "prep":
            return None
        fs = [
            u
            for u in state.units_of(side)
            if u.hex is not None
            and counter(u).category in ("artillery",)
            and _ground_attacks(u)
            and "expended" not in u.markers
        ]
        ts = [e for e in known_enemies(state, side) if counter(e).category in GROUND_CATEGORIES]
        vals = [
            {"target": t.id, "with": [f.id]} for f in fs for t in ts if _in_range(state, f, t.hex)
        ]
        ex = legal_examples(self, state, side, vals, 6)
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def _read(
        self, state: StateLike, order: Order, args: Mapping[str, Any]
    ) -> tuple[Any, list[Any], int | None]:
        if base_step(state.clock.step) != "6.C.3":
            raise refuse(
                "Prep Fire is part of the Ground phase (6.C.3)", "wrong-step", "10.3", order
            )
        t = args["target"]  # bound: a detected enemy; the firers: the side's units on the map
        if counter(t).category not in DEFENDERS:
            raise refuse(
                f"{t.id} is not a ground unit: use a strike (9.9)", "not-ground", "10.15.4", order
            )
        firers = list({f.id: f for f in args["with"]}.values())
        for f in firers:
            check_may_act(state, order, f, "prep-fire")
            _can_fire(state, order, f, t.hex, "10.15.2")
        bomb = option(state, "bombardment") and any("main-effort" in f.markers for f in firers)
        _span_of_control(state, order, firers, bomb)
        lim = None
        if args.get("missions") is not None:
            if not option(state, "fire_splitting"):
                raise refuse(
                    "a counter fires all its missions at once (10.15.5); splitting is a scenario option",
                    "no-splitting",
                    "10.15.5",
                    order,
                )
            lim = args["missions"]
        from owsnb.rules.ows import css as _css

        for f in firers:
            _css.check_munitions(state, order, f, len(_missions(state, f, t, lim)))
        return t, firers, lim

    def validate(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> None:
        self._read(state, order, args)

    def preview(self, state: StateLike, order: Order, args: Mapping[str, Any]) -> Distribution:
        t, firers, lim = self._read(state, order, args)
        shield, _ = defence(state, t)
        row = _fet_row(state, t)
        ds = [d for f in firers for _, d, _ in _missions(state, f, t, lim)]
        return fire_preview(
            ds,
            shield,
            row["suppress"],
            row["step"],
            bool(ptable(state, "fet").get("criticals")),
            t.steps,
        )

    def adjudicate(
        self, state: GameState, order: Order, args: Mapping[str, Any], dice: Any
    ) -> Adjudication:
        t, firers, lim = self._read(state, order, args)
        roll = Roller(dice)
        from owsnb.rules.ows import css as _css

        ev: list[Event] = []
        for f in firers:
            ev += _css.pay_munitions(state, f, len(_missions(state, f, t, lim)))
        fe, res = fire_on(state, firers, t, roll, rule="10.15.4", limit=lim)
        ev += fe + _set_stage(state, order.side, "prep")
        r = Result(
            f"Prep Fire on {t.id}",
            {k: v for k, v in res.items() if k != "lines"},
            ["10.3", "10.15.4", "10.15.5"],
            roll.rolls,
            res["lines"],
        )
        return Adjudication(ev, r)
