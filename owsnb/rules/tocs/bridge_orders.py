"""Bridges (WWII 10.13-10.14, L301-L308): building, repairing and destroying them.

A bridge is a hexside feature of the scenario (``edges: - {type: bridge, hexes: [a, b],
material: stone|metal|wood}``; stone by default, the paved-road default of L375) or one built
in play. What has happened to bridges since setup is public (``public["bridges"]``, keyed
``"aaaa-bbbb"``): a destroyed, damaged, repaired or newly built bridge is a fixed feature
(L269-L270) and the engine announces it when it happens (a ruling: the table-top answers it
only when asked). A damaged or destroyed bridge cannot be crossed (a ruling: the text gives
repair rolls for both, L303). Bridge jobs under way are the referee's secret.

* **Build** (L301-L302): a Good Order engineer or bridging Company in LOC and LOS spends all its
  AP to start; engineers build footbridges (2 turns) and 1-lane pontoons (4), bridging companies
  also 2-lane bridges (4). Progress is checked at the end of each turn, before recovery: a turn
  counts if the builder is still at the site, Disordered or better, in LOC and LOS.
* **Repair** (L303): all AP; destroyed d6 <= 1 (a bridging company rolls twice), damaged d6 <= 4;
  rolled at once (the timing is unstated: appendix, case 16).
* **Destroy** (L306-L308): all AP; only bridges built in play unless the ruling
  ``printed_bridges_destroyable`` allows more (a module rule, L308); wood d6 <= 5, stone or metal
  d6 <= 4; bridges built in play count as wood (a ruling). Dismantling is not implemented.

>>> from fractions import Fraction
>>> t = {"repair": {"destroyed": 1, "damaged": 4}, "destroy": {"wood": 5, "stone": 4, "metal": 4},
...      "bridging_repair_rolls": 2}
>>> success_chance(t, "repair", "destroyed", bridging=True), success_chance(t, "destroy", "wood")
(Fraction(11, 36), Fraction(5, 6))

Citations (``B3.x``, ``10.x``, ``Lnnn``) as explained in :mod:`owsnb.rules.tocs.orders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel import Distribution, OrderHandler, OrderSpec, OrderType, Param
from owsnb.kernel.errors import refuse
from owsnb.kernel.events import state_set
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.tocs.activation import close_activation
from owsnb.rules.tocs.emit import Emitter
from owsnb.rules.tocs.model import DISORDERED, GOOD_ORDER, alive_on_map, is_company, state_of
from owsnb.rules.tocs.order_checks import (
    clock_step,
    is_open,
    need_open,
    spec_from_examples,
)
from owsnb.rules.tocs.perimeter import announce
from owsnb.rules.tocs.supply import in_loc, in_los

__all__ = [
    "BridgeWork",
    "bridge_key",
    "bridge_at",
    "success_chance",
    "progress_bridges",
    "WORKS",
    "KINDS",
]

WORKS = ("build", "repair", "destroy")
KINDS = ("footbridge", "pontoon1", "pontoon2")
_WATER = ("river", "canal", "stream")


def bridge_key(state: StateLike, a: Any, b: Any) -> str:
    """The public key of the hexside between *a* and *b*: both labels, sorted, joined by ``-``."""
    return "-".join(sorted((state.map.label(a), state.map.label(b))))


def bridge_at(state: StateLike, a: Any, b: Any) -> dict[str, Any] | None:
    """The bridge on the hexside *a*-*b* now: ``{"status", "material", "built"}``, or ``None``."""
    dyn = state.public.get("bridges", {}).get(bridge_key(state, a, b))
    if dyn is not None:
        return dict(dyn)
    edge = state.map.edge(a, b)
    if "bridge" in edge:
        return {
            "status": "intact",
            "material": str((edge["bridge"] or {}).get("material", "stone")),
            "built": False,
        }
    return None


def success_chance(
    table: Mapping[str, Any], work: str, what: str, *, bridging: bool = False
) -> Fraction:
    """Exact chance that a repair (*what*: destroyed/damaged) or destruction (*what*: material) succeeds."""
    p = Fraction(int(table[work][what]), 6)
    if work == "repair" and what == "destroyed" and bridging:
        n = int(table.get("bridging_repair_rolls", 2))
        return 1 - (1 - p) ** n
    return p


def _is_builder(u: Any) -> bool:
    return bool(u.get("bridging")) or (is_company(u) and bool(u.get("engineer")))


def _set_bridge(em: Emitter, key: str, **info: Any) -> None:
    bridges = {k: dict(v) for k, v in em.state.public.get("bridges", {}).items()}
    bridges[key] = {**bridges.get(key, {}), **info}
    em.emit(state_set("public", {"bridges": bridges}, rule="L301"))


class BridgeWork(OrderHandler):
    type = OrderType(
        "bridge",
        (
            Param("unit", "unit", "engineer or bridging company"),
            Param("hex", "hex", "the hex across the hexside"),
            Param("work", "choice", "build, repair or destroy", choices=WORKS),
            Param(
                "kind", "choice", "what to build", positional=False, optional=True, choices=KINDS
            ),
        ),
        rule="10.13",
        doc="all AP: build (footbridge 2 turns, pontoon 4), repair (destroyed d6<=1, damaged "
        "d6<=4) or destroy (wood d6<=5, stone/metal d6<=4) the bridge to an adjacent hex",
    )

    def candidates(self, state: StateLike, side: str) -> OrderSpec | None:
        if clock_step(state) != "3.5":
            return None
        ex = []
        for u in state.units.values():
            if u.side != side or not alive_on_map(u) or not is_open(u) or not _is_builder(u):
                continue
            for n in u.hex.neighbours():
                if n not in state.map.hexes:
                    continue
                for work in WORKS:
                    o = self.type.make(side, unit=u.id, hex=state.map.label(n), work=work)
                    if self._why_not(state, u, n, work, "footbridge") is None:
                        ex.append(o)
        return spec_from_examples(side, self.type, ex, 12)

    def _why_not(
        self, state: StateLike, u: Any, to: Any, work: str, kind: str
    ) -> tuple[str, str, str] | None:
        t = state.tables["bridging"]
        if not _is_builder(u):
            return f"{u.id} is not an engineer or bridging Company", "not-engineer", "L301"
        if state_of(u) != GOOD_ORDER:
            return f"{u.id} is not in Good Order", "not-good-order", "L302"
        if int(u.get("ap", 0)) < 1:
            return f"{u.id} has no AP left", "no-ap", "L302"
        if to.distance(u.hex) != 1:
            return f"{state.map.label(to)} is not adjacent to {u.id}", "not-adjacent", "L301"
        br = bridge_at(state, u.hex, to)
        if work in ("build", "repair") and not (in_loc(state, u) and in_los(state, u)):
            return f"{u.id} must be in LOC and LOS", "out-of-los", "L301"
        if work == "build":
            if br is not None:
                return (
                    "there is a bridge on that hexside already (repair it instead)",
                    "bridge-exists",
                    "L301",
                )
            if not any(w in state.map.edge(u.hex, to) for w in _WATER):
                return "no river, canal or stream to bridge on that hexside", "no-water", "L301"
            if kind == "pontoon2" and not u.get("bridging"):
                return "only Bridging Companies build two-lane bridges", "not-bridging", "L301"
            key = bridge_key(state, u.hex, to)
            if any(j["key"] == key for j in state.secret.get("bridge_jobs", ())):
                return "a bridge is already under construction there", "job-exists", "L302"
            if kind not in t["build_turns"]:
                return f"unknown bridge kind {kind!r}", "bad-kind", "L301"
        elif work == "repair":
            if br is None or br["status"] not in ("damaged", "destroyed"):
                return "no damaged or destroyed bridge on that hexside", "nothing-to-repair", "L303"
        else:
            if br is None or br["status"] == "destroyed":
                return "no standing bridge on that hexside", "no-bridge", "L306"
            if not br.get("built") and not state.tables["rulings"].get(
                "printed_bridges_destroyable", False
            ):
                return (
                    "only bridges built during play can be destroyed (unless the module allows more)",
                    "printed-bridge",
                    "L308",
                )
        return None

    def validate(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> None:
        u = args["unit"]
        if clock_step(state) != "3.5":
            raise refuse(
                "bridging is done in your Operational Impulse", "wrong-step", "L302", order
            )
        need_open(u, order)
        to = args["hex"]
        why = self._why_not(state, u, to, args["work"], args.get("kind") or "footbridge")
        if why:
            raise refuse(why[0], why[1], why[2], order)

    def _chance(self, state: StateLike, u: Any, to: Any, work: str) -> Fraction:
        br = bridge_at(state, u.hex, to) or {}
        t = state.tables["bridging"]
        if work == "repair":
            return success_chance(t, "repair", br["status"], bridging=bool(u.get("bridging")))
        return success_chance(
            t, "destroy", "wood" if br.get("built") else br.get("material", "stone")
        )

    def preview(self, state: StateLike, order: Any, args: Mapping[str, Any]) -> Distribution | None:
        """Exact chance of success of a repair or destruction (a build does not roll)."""
        if args["work"] == "build":
            return None
        u, to = args["unit"], args["hex"]
        p = self._chance(state, u, to, args["work"])
        return Distribution({True: p, False: 1 - p}, label=f"{args['work']} the bridge")

    def adjudicate(self, state: GameState, order: Any, args: Mapping[str, Any], dice: Any) -> list:
        em = Emitter(state)
        side = order.side
        u = args["unit"]
        to = args["hex"]
        key = bridge_key(state, u.hex, to)
        work = args["work"]
        t = state.tables["bridging"]
        em.data(u.id, rule="L302", ap=0, mp_left=0, acted=True)
        if work == "build":
            kind = args.get("kind") or "footbridge"
            jobs = [dict(j) for j in state.secret.get("bridge_jobs", ())]
            jobs.append(
                {
                    "key": key,
                    "kind": kind,
                    "unit": u.id,
                    "side": side,
                    "done": 0,
                    "need": int(t["build_turns"][kind]),
                }
            )
            em.emit(state_set("secret", {"bridge_jobs": jobs}, rule="L302"))
            em.say(
                f"{u.id} starts a {kind} across {key} ({t['build_turns'][kind]} turns)",
                rule="L302",
                visible_to=side,
            )
        else:
            br = bridge_at(state, u.hex, to) or {}
            if work == "repair":
                need = int(t["repair"][br["status"]])
                n = (
                    int(t.get("bridging_repair_rolls", 2))
                    if br["status"] == "destroyed" and u.get("bridging")
                    else 1
                )
                rule = "L303"
            else:
                need = int(t["destroy"]["wood" if br.get("built") else br.get("material", "stone")])
                n, rule = 1, "L308"
            rolls = dice.roll_many(
                n, 6, purpose=f"{work} the bridge {key} (d6 <= {need})", rule=rule, visible_to=side
            )
            ok = any(r <= need for r in rolls)
            if ok:
                _set_bridge(
                    em,
                    key,
                    status="intact" if work == "repair" else "destroyed",
                    material=br.get("material", "stone"),
                    built=bool(br.get("built")),
                )
                announce(
                    em,
                    f"The bridge {key} is {'repaired' if work == 'repair' else 'destroyed'}",
                    rule=rule,
                    hex=key,
                )
            else:
                em.say(
                    f"{u.id} fails to {work} the bridge {key} (d6 {', '.join(map(str, rolls))} > {need})",
                    rule=rule,
                    visible_to=side,
                )
        close_activation(em, u.id, rule="L302")
        return em.events


def progress_bridges(em: Emitter) -> None:
    """End of turn, before recovery (L302): each job whose builder is still at the site, Disordered
    or better, in LOC and LOS, makes one turn of progress; a finished bridge is usable at once (L305)."""
    s = em.state
    left = []
    for job in (dict(j) for j in s.secret.get("bridge_jobs", ())):
        u = s.units.get(job["unit"])
        ends = job["key"].split("-")
        if u is None or not alive_on_map(u) or s.map.label(u.hex) not in ends:
            em.say(
                f"The {job['kind']} across {job['key']} is abandoned",
                rule="L302",
                visible_to=job["side"],
            )
            continue
        if state_of(u) <= DISORDERED and in_loc(s, u) and in_los(s, u):
            job["done"] += 1
        else:
            em.say(
                f"No progress on the {job['kind']} across {job['key']}: {u.id} does not qualify",
                rule="L302",
                visible_to=job["side"],
            )
        if job["done"] >= job["need"]:
            _set_bridge(
                em, job["key"], status="intact", material="wood", built=True, kind=job["kind"]
            )
            announce(
                em, f"A {job['kind']} is completed across {job['key']}", rule="L305", hex=job["key"]
            )
        else:
            left.append(job)
            em.say(
                f"The {job['kind']} across {job['key']}: {job['done']} of {job['need']} turns",
                rule="L302",
                visible_to=job["side"],
            )
    if left or s.secret.get("bridge_jobs"):
        em.emit(state_set("secret", {"bridge_jobs": left}, rule="L302"))
