"""Reading a strike from the state and planning its salvos (9.5, 9.8–9.9.4.1, 9.9.7).

Paragraphs: 9.5 generating salvos (``SOURCE:GROUP[:TARGET]`` tokens, magazine, range 2.2.2.1,
target silhouettes 2.2.2, no strike by a suppressed ship 9.6.1 or a unit with Disrupted C2
7.2.1.1); 9.9.4 no strike on undetected targets; 9.9.7 infrastructure targets (``port:HEX``);
6.5.3 an air mission strikes up to 3x its combat radius; 9.8/9.9 many-to-one and one-to-many;
9.9.1 long-range vs local (adjacent naval fire is local) and the defender's return fire; the
missile modifiers (7.2.1.3 SIGINT and countermeasures, RSO&I, 8.5.1 SOF target acquisition, 7.5.2
PNT, Disrupted C2 air missions, 6.5.8 EW); 9.2 grey shields within range; 6.5.9.3 CEC; 9.9.4.1 CAP
interceptors and the salvo's defence against them; 9.2.1 the strike waiting for the defender's
shot calculus.

``_read_salvos`` checks a strike's salvos and targets against the state (refusing with the rule
that forbids them); ``_plans`` turns them, with the defender's shields and CAPs, into the
:class:`~owsnb.rules.ows.salvos.SalvoPlan` list that previews and resolution both roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.errors import refuse
from owsnb.kernel.orders import Order, enemy_unit, own_unit
from owsnb.kernel.state import StateLike
from owsnb.rules.ows.common import detected, option, space, table
from owsnb.rules.ows.dice import demote, shift
from owsnb.rules.ows.salvos import SalvoPlan, allocate
from owsnb.rules.ows.units import Attack, counter, target_type

__all__ = ["INFRA"]

INFRA = ("port", "airfield", "rail")
"""Infrastructure targets named ``port:HEX`` (9.9.7)."""


# -- targets (9.9.4, 9.9.7) ------------------------------------------------------------------------
@dataclass
class _Target:
    key: str  # unit id or "port:0203"
    side: str
    hex: Any
    red: int
    steps: int
    ttype: str
    unit: Any = None
    infra: str = ""
    countermeasures: bool = False

    @property
    def label(self) -> str:
        return self.key


def _unit_target(u: Any) -> _Target:
    """A unit as a strike target: its red shield, steps and silhouette."""
    c = counter(u)
    return _Target(
        u.id,
        u.side,
        u.hex,
        c.red_shield,
        u.steps,
        target_type(u),
        u,
        countermeasures="countermeasures" in u.markers,
    )


def _target(state: StateLike, side: str, ref: str, order: Any = None) -> _Target:
    kind, sep, where = ref.partition(":")
    if sep and kind in INFRA:
        try:
            h = state.map.hex(where)
        except Exception:
            raise refuse(f"no hex {where!r}", "bad-hex", "9.9.7", order) from None
        feat = state.map.info(h).features.get(kind if kind != "rail" else "railhead")
        if feat is None:
            raise refuse(f"there is no {kind} in {where}", "no-infrastructure", "9.9.7", order)
        owner = feat.get("side") or state.map.info(h).facts.get("control") or ""
        dmg = int(state.map.info(h).facts.get("damage", {}).get(kind, 0))
        cap = int(feat.get("capacity", 1) or 1)
        d = int(
            feat.get("shield") or table(state, "regeneration")["infrastructure"]["default_defense"]
        )
        return _Target(f"{kind}:{where}", owner, h, d, max(cap - dmg, 0), "ground", infra=kind)
    by = order if order is not None else Order(side, "strike")  # who names it: its side's view
    return _unit_target(enemy_unit(state, by, ref, "9.9.4", detected=detected))


# -- salvos (9.5, 9.8, 9.9, 9.9.1) and their modifiers ---------------------------------------------
def _parse_salvo(tok: str) -> tuple[str, str, str | None]:
    parts = tok.split(":")
    if len(parts) == 2:
        return parts[0], parts[1], None
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    raise ValueError(tok)


def _is_local(state: StateLike, src: Any, grp: Attack, tgt: _Target) -> bool:
    """9.9.1: within one hex, or naval surface-to-surface fire into an adjacent hex."""
    d = src.hex.distance(tgt.hex)
    if d == 0:
        return True
    return d == 1 and counter(src).category == "naval" and tgt.ttype == "naval"


def _air_reach(state: StateLike, src: Any) -> int:
    c = counter(src)
    r = int(c.combat_radius or 0)
    return r * 3  # 6.5.3: strike missions up to 3x with tanker/FARP support


@dataclass
class _Salvo:
    src: Any
    grp: Attack
    tgt: _Target
    local: bool


def _modifiers(
    state: StateLike, side: str, src: Any, grp: Attack, tgt: _Target
) -> tuple[int, list[str]]:
    mods = table(state, "missile_modifiers")["modifiers"]
    shiftn = 0
    notes: list[str] = []

    def add(name: str, why: str) -> None:
        nonlocal shiftn
        m = mods.get(name) or {}
        k = int(m.get("shift", 0))
        if k:
            shiftn += k
            notes.append(f"{why} ({'+' if k > 0 else ''}{k}, {m.get('rule', '')})")

    u = tgt.unit
    if u is not None:
        sig, cm = "sigint" in u.markers, "countermeasures" in u.markers
        if sig and cm:
            notes.append("SIGINT and countermeasures cancel (7.2.1.3)")
        elif sig:
            add("sigint_on_target", "SIGINT/EMSO on the target")
        elif cm:
            add("countermeasures_on_target", "countermeasures on the target")
        if "rsoi" in u.markers:
            add("rsoi_target", "target in RSO&I")
        sr = state.sides[side].private.get("sr_hexes") or ()
        if state.map.label(u.hex) in sr and side in u.seen_by:
            add("sof_target_acquisition", "SOF special reconnaissance on the target")
    if "rsoi" in src.markers:
        add("rsoi_source", "source in RSO&I")
    if space(state, side).get("pnt") == "disrupted" and src.hex.distance(tgt.hex) > 1:
        add("pnt_disrupted_beyond_1_hex", "PNT disrupted, strike beyond one hex")
    if counter(src).is_air and "disrupted-c2" in src.markers:
        add("attacker_disrupted_c2_air", "air mission with Disrupted C2")
    for e in state.units.values():
        if e.side == side and e.hex == tgt.hex and e.alive and counter(e).ew == "promote-strike":
            add("ew_promote_strike", f"EW aircraft {e.id} over the target")
            break
    return shiftn, notes


def _read_salvos(
    state: StateLike, side: str, target_ref: str, tokens: Sequence[str], order: Any = None
) -> tuple[list[_Salvo], dict[str, _Target]]:
    if not tokens:
        raise refuse("a strike needs salvos, e.g. salvos=DDG-1:tlam", "no-salvos", "9.5", order)
    targets: dict[str, _Target] = {}
    main = _target(state, side, target_ref, order)
    targets[main.key] = main
    use: dict[tuple[str, str], int] = {}
    out: list[_Salvo] = []
    for tok in tokens:
        try:
            sid, gref, tref = _parse_salvo(tok)
        except ValueError:
            raise refuse(
                f"salvo {tok!r}: write SOURCE:GROUP or SOURCE:GROUP:TARGET (e.g. DDG-1:tlam)",
                "bad-salvo",
                "9.5",
                order,
            ) from None
        src = own_unit(state, order, sid, "9.5") if order is not None else state.units[sid]
        c = counter(src)
        try:
            grp = c.attack(gref)
        except KeyError:
            raise refuse(
                f"{sid} has no attack {gref!r}; it has {', '.join(a.id + '=' + a.die for a in c.attacks)}",
                "no-such-attack",
                "2.2.2.1",
                order,
            ) from None
        if grp.air_to_air:
            raise refuse(
                f"{sid}:{grp.id} is an air-to-air die (air combat, 9.7)",
                "air-to-air-only",
                "9.7",
                order,
            )
        if tref is not None and tref not in targets:
            targets[tref] = _target(state, side, tref, order)
        tgt = targets[tref] if tref is not None else main
        k = (src.id, grp.key)
        use[k] = use.get(k, 0) + 1
        if use[k] > grp.left:
            raise refuse(
                f"{src.id} has only {grp.left} {grp.die} salvo(s) left in {grp.id} (9.5)",
                "magazine-empty",
                "2.2.2.1",
                order,
            )
        if tgt.ttype == "sub":
            raise refuse(
                "submarines can only be attacked by ASW (red submarine silhouette)",
                "not-asw",
                "8.5.2",
                order,
            )
        if tgt.ttype == "air":
            raise refuse(
                "aircraft are engaged in air combat (9.7), not by strikes",
                "air-target",
                "9.7",
                order,
            )
        if not grp.can_hit(tgt.ttype):
            raise refuse(
                f"{src.id}:{grp.id} cannot engage {tgt.ttype} targets (its silhouettes: {', '.join(grp.targets)})",
                "wrong-target-type",
                "2.2.2",
                order,
            )
        if "suppressed" in src.markers and c.category == "naval":
            raise refuse(
                f"{src.id} is damaged and suppressed this turn: no strikes (9.6.1)",
                "suppressed",
                "9.6.1",
                order,
            )
        if "disrupted-c2" in src.markers and c.category in (
            "naval",
            "artillery",
            "air-defence",
            "submarine",
        ):
            raise refuse(
                f"{src.id} has Disrupted C2 and cannot fire (7.2.1.1)",
                "disrupted-c2",
                "7.2.1.1",
                order,
            )
        dist = src.map_hex.distance(tgt.hex)
        reach = grp.range + (_air_reach(state, src) if c.is_air else 0)
        if dist > reach:
            raise refuse(
                f"{tgt.key} is {dist} hexes from {src.id}; {grp.id} reaches {reach} (2.2.2.1)",
                "out-of-range",
                "2.2.2.1",
                order,
            )
        out.append(_Salvo(src, grp, tgt, _is_local(state, src, grp, tgt)))
    return out, targets


def _check_shape(state: StateLike, salvos: Sequence[_Salvo], order: Any) -> None:
    """9.8 many-to-one (one target hex) or 9.9 one-to-many (one source hex, option)."""
    thexes = {s.tgt.hex for s in salvos}
    if len(thexes) > 1:
        shexes = {s.src.hex for s in salvos}
        if not (option(state, "one_to_many") and len(shexes) == 1):
            raise refuse(
                "a strike action has one target hex (many-to-one, 9.8); one-to-many needs the 9.9 option "
                "and a single source hex",
                "several-target-hexes",
                "9.8",
                order,
            )


# -- the defender's answer: grey shields (9.2), CEC (6.5.9.3), CAP (9.9.4.1) -----------------------
def _available_shields(state: StateLike, tgt: _Target) -> list[dict[str, Any]]:
    """Grey shields of the defender that may cover *tgt* (9.2: within the provider's range)."""
    out: list[dict[str, Any]] = []
    for u in state.units.values():
        if u.side != tgt.side or not u.alive or u.hex is None:
            continue
        if "disrupted-c2" in u.markers or (
            "suppressed" in u.markers and counter(u).category == "air-defence"
        ):
            continue
        for g in counter(u).shields:
            if g.left <= 0:
                continue
            if (
                u.id == (tgt.unit.id if tgt.unit is not None else None)
                or u.hex.distance(tgt.hex) <= g.range
            ):
                out.extend(
                    {
                        "value": g.value,
                        "bmd": g.bmd,
                        "red_arrow": g.red_arrow,
                        "provider": u.id,
                        "key": g.key,
                        "cec": counter(u).cec,
                    }
                    for _ in range(g.left)
                )
    out.sort(key=lambda s: (-(s["provider"] == (tgt.unit.id if tgt.unit else "")), -s["value"]))
    return out


def _cec_active(state: StateLike, tgt: _Target, providers: Iterable[str]) -> bool:
    if not option(state, "cec"):
        return False
    provs = [
        state.units[p]
        for p in providers
        if counter(state.units[p]).cec and counter(state.units[p]).category == "naval"
    ]
    for e in state.units.values():
        if e.side == tgt.side and e.alive and e.hex is not None and counter(e).cec_provider:
            if any(e.hex.distance(p.hex) <= 1 for p in provs):
                return True
    return False


def _cap_candidates(state: StateLike, tgt: _Target) -> list[Any]:
    return [
        u
        for u in state.units.values()
        if u.side == tgt.side
        and u.alive
        and u.hex == tgt.hex
        and counter(u).is_air
        and counter(u).mission in ("cap", "dca")
        and "engaged" not in u.markers
        and any(a.air_to_air for a in counter(u).attacks)
    ]


def _cap_defense(state: StateLike, grp: Attack) -> int | None:
    """Salvo defence against an intercepting CAP (9.9.4.1); ``None`` = cannot be intercepted."""
    if grp.flags & {"H", "HGV", "SRBM", "MRBM", "IRBM"}:
        return None
    if grp.cap_defense:
        return int(grp.cap_defense)
    d = table(state, "missile_modifiers")["cap_intercept"]
    return int(d["supersonic"] if "supersonic" in grp.flags else d["subsonic"])


def _plans(
    state: StateLike,
    side: str,
    salvos: Sequence[_Salvo],
    alloc: Mapping[str, Sequence[Mapping[str, Any]]],
    caps: Sequence[Any] = (),
) -> list[SalvoPlan]:
    crit = option(state, "critical_hits") != "off"
    excess = option(state, "excess_shields")
    by_t: dict[str, list[int]] = {}
    base: list[SalvoPlan] = []
    for i, s in enumerate(salvos):
        k, notes = _modifiers(state, side, s.src, s.grp, s.tgt)
        die = shift(s.grp.die, k)
        base.append(
            SalvoPlan(
                die,
                (),
                s.tgt.red,
                crit,
                None,
                s.src.id,
                s.grp.id,
                s.tgt.key,
                s.grp.die,
                tuple(notes),
                s.grp.flags,
            )
        )
        by_t.setdefault(s.tgt.key, []).append(i)
    out = list(base)
    for tkey, idx in by_t.items():
        shields = list(alloc.get(tkey, ()))
        plans = allocate(
            [base[i] for i in idx],
            shields,
            excess=excess,
            hgv_defendable=option(state, "hgv_defendable"),
        )
        if shields and _cec_active(
            state, salvos[idx[0]].tgt, {s["provider"] for s in shields if "provider" in s}
        ):
            plans = [
                replace(
                    p,
                    die=demote(p.die, 2),
                    notes=(*p.notes, "CEC: cruise missile demoted twice (6.5.9.3)"),
                )
                if p.layers and not (p.flags & {"SRBM", "MRBM", "IRBM", "H", "HGV"})
                else p
                for p in plans
            ]
        for i, p in zip(idx, plans, strict=True):
            out[i] = p
    # CAP interceptors: one CAP per salvo, in order of the interceptable salvos (9.9.4.1)
    caps = list(caps)
    for i, s in enumerate(salvos):
        if not caps:
            break
        d = _cap_defense(state, s.grp)
        if d is None:
            continue
        cap_unit = caps.pop(0)
        aa = next(a for a in counter(cap_unit).attacks if a.air_to_air)
        out[i] = replace(
            out[i],
            cap=(aa.die, d),
            notes=(*out[i].notes, f"intercepted by CAP {cap_unit.id} (9.9.4.1)"),
        )
    return out


# -- the strike waiting for the shot calculus (9.2.1); local strikes and return fire (9.9.1) -------
def _pending(state: StateLike) -> dict[str, Any] | None:
    """The strike waiting for the shot calculus, as the umpire holds it (the truth only)."""
    p = state.secret.get("pending_strike") if hasattr(state, "secret") else None
    return thaw(p) if p else None


def _strike_waiting(state: StateLike) -> bool:
    """Is a strike waiting for the defender's shot calculus? Public (9.2.1: the attacker's
    assignment is declared), so every side knows it (``public["incoming"]``)."""
    return bool(state.public.get("incoming"))


def _incoming_detail(state: StateLike, salvos: Sequence[_Salvo], defender: str) -> dict[str, Any]:
    """What the defender is shown of a declared strike's salvos (9.2.1: the attacker assigns
    salvos to targets, then the defender declares its shot calculus): each salvo's target and die,
    whether a CAP could intercept it (9.9.4.1: never hypersonic or ballistic) and, for a local
    salvo whose firer it has detected, the firer (return fire, 9.9.1)."""
    out = []
    for s in salvos:
        src = s.src.id if s.local and detected(state, s.src, defender) else None
        out.append(
            {
                "target": s.tgt.key,
                "die": s.grp.die,
                "interceptable": _cap_defense(state, s.grp) is not None,
                "local": s.local,
                "source": src,
            }
        )
    return {"salvos": out, "long_range": _long_range(salvos)}


def _long_range(salvos: Sequence[_Salvo]) -> bool:
    return any(not s.local for s in salvos)


def _return_fire_options(state: StateLike, salvos: Sequence[_Salvo]) -> list[str]:
    """Return-fire tokens the defender could use against the local attackers (9.9.1)."""
    out = []
    defender = salvos[0].tgt.side
    srcs = {s.src.id: s.src for s in salvos if s.local}
    for u in state.units.values():
        if u.side != defender or not u.alive or u.hex is None or "disrupted-c2" in u.markers:
            continue
        for a in counter(u).attacks:
            if a.left <= 0 or a.air_to_air:
                continue
            for src in srcs.values():
                if (
                    a.can_hit(target_type(src))
                    and u.hex.distance(src.hex) <= a.range
                    and detected(state, src, defender)
                ):
                    out.append(f"{u.id}:{a.id}:{src.id}")
    return out
