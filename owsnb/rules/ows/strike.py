"""Strike warfare (9.2–9.9): layered air defence, the shot calculus, salvos, damage, strike
sequencing, missile attacks, torpedo attacks and infrastructure.

Paragraphs: 9.2 layered air defence; 9.2.1 shot calculus (defender allocates grey shields after
the attacker assigns salvos, before any roll); 9.2.1.1 excess shields demote (basic, R4
round-robin); 9.2.1.2 layered (advanced, at most two layers); 2.2.2.7 BMD/HGV/H/ballistic;
2.2.2.8 multi-role pools; 6.5.9.3 CEC; 9.5 generating salvos; 9.6/9.6.1 damage; 9.8/9.9/9.9.1
many-to-one, one-to-many, long-range vs local; 9.9.2 C2 value = long-range strike actions; 9.9.3
I-GO-U-GO or chit draw; 9.9.4 no strike on undetected targets; 9.9.4.1 CAP intercept (5/7);
9.9.4.2 TACSIT 1 on launch; 9.9.4.3 submarine launch exposure; 9.9.5 torpedo sequence; 9.9.7
infrastructure and ASPs; 2.1.1.3 criticals; 7.2.1.3/7.2.1.4 SIGINT/countermeasures; 7.5.2 PNT.

A strike is two orders: the attacker's ``strike`` (salvos assigned), then — if the defender has
anything to answer with — the defender's ``shields`` (grey shields, CAP interceptors, and return
fire for local strikes), which resolves it. :func:`resolve` does both in one call.

>>> plan = allocate(["d10", "d10", "d10"], [6, 6, 6, 6, 6], excess="demote")
>>> [(p.die, p.layers) for p in plan]
[('d8', (6,)), ('d8', (6,)), ('d10', (6,))]
>>> [(p.die, p.layers) for p in allocate(["d10"] * 3, [6] * 5, excess="layered")]
[('d10', (6, 6)), ('d10', (6, 6)), ('d10', (6,))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict, thaw
from owsnb.kernel.dist import Distribution, bar_chart_html
from owsnb.kernel.errors import IllegalOrderError
from owsnb.kernel.events import Event, clock_set, hex_set, note, state_set, unit_set
from owsnb.kernel.orders import Order, OrderSpec, OrderType, Param
from owsnb.kernel.ruleset import Adjudication, OrderHandler
from owsnb.kernel.state import UMPIRE
from owsnb.rules.ows.common import (
    Result,
    Roller,
    apply_hits,
    detected,
    enemy_unit,
    legal_examples,
    option,
    own_unit,
    refuse,
    space,
    table,
    watchers,
)
from owsnb.rules.ows.dice import demote, parse_die, shift, success_probability
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.units import Attack, counter, target_type

__all__ = [
    "SalvoPlan", "allocate", "salvo_distribution", "StrikePreview", "preview", "resolve", "torpedo_preview",
    "torpedo", "Strike", "Shields", "Torpedo", "HANDLERS", "STEP_EFFECTS", "INFRA",
]

INFRA = ("port", "airfield", "rail")
"""Infrastructure targets named ``port:HEX`` (9.9.7)."""


# -- pure mechanics --------------------------------------------------------------------------------
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


def allocate(salvos: Sequence[Any], shields: Sequence[Any], *, excess: str = "demote", red: int = 0,
             critical: bool = True, hgv_defendable: bool = False) -> list[SalvoPlan]:
    """Match grey shields to the salvos aimed at one target (9.2.1).

    Args:
        salvos: dice (``"d10"``) or :class:`SalvoPlan` objects (their ``flags`` decide eligibility).
        shields: values (``7``) or dicts ``{"value", "bmd", "red_arrow"}``, best first.
        excess: ``"demote"`` (9.2.1.1, basic: each extra shield demotes a salvo, round-robin R4) or
            ``"layered"`` (9.2.1.2, advanced: a second layer, at most two per salvo, no demotion).

    Ballistic and ``H`` salvos face only BMD shields and skip grey shields when none is BMD;
    HGVs bypass grey shields (2.2.2.7); a BMD shield with a red down arrow demotes ballistic salvos.
    """
    plans = [s if isinstance(s, SalvoPlan) else SalvoPlan(parse_die(s), red=red, critical=critical, base_die=parse_die(s))
             for s in salvos]
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
                notes[i].append("no eligible (BMD) grey shield: goes straight at the red shield (2.2.2.7)")
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
            cands = [i for i, p in enumerate(plans) if _eligible(p.flags, bool(sh_.get("bmd")), hgv_defendable)]
            if not cands:
                continue
            i = min(cands, key=lambda i: (excess_dem[i], i))  # round-robin: each once before any twice (R4)
            excess_dem[i] += 1
            dem[i] += 1
            notes[i].append("excess grey shield: demoted (9.2.1.1)")
    out = []
    for i, p in enumerate(plans):
        out.append(replace(p, die=demote(p.die, dem[i]), layers=tuple(layers[i]), notes=tuple(notes[i])))
    return out


def _sum(dists: Iterable[Distribution]) -> Distribution:
    out = Distribution.point(0)
    for d in dists:
        out = out + d
    return out


# -- reading a strike from the state ---------------------------------------------------------------
@dataclass
class _Target:
    key: str                  # unit id or "port:0203"
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


def _target(state: Any, side: str, ref: str, order: Any = None) -> _Target:
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
        d = int(feat.get("shield") or table(state, "regeneration")["infrastructure"]["default_defence"])
        return _Target(f"{kind}:{where}", owner, h, d, max(cap - dmg, 0), "ground", infra=kind)
    u = enemy_unit(state, side, ref, rule="9.9.4", order=order)
    c = counter(u)
    return _Target(u.id, u.side, u.hex, c.red_shield, u.steps, target_type(u), u,
                   countermeasures="countermeasures" in u.markers)


def _parse_salvo(tok: str) -> tuple[str, str, str | None]:
    parts = tok.split(":")
    if len(parts) == 2:
        return parts[0], parts[1], None
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    raise ValueError(tok)


def _is_local(state: Any, src: Any, grp: Attack, tgt: _Target) -> bool:
    """9.9.1: within one hex, or naval surface-to-surface fire into an adjacent hex."""
    d = src.hex.distance(tgt.hex)
    if d == 0:
        return True
    return d == 1 and counter(src).category == "naval" and tgt.ttype == "naval"


def _air_reach(state: Any, src: Any) -> int:
    c = counter(src)
    r = int(c.combat_radius or 0)
    return r * 3  # 6.5.3: strike missions up to 3x with tanker/FARP support


@dataclass
class _Salvo:
    src: Any
    grp: Attack
    tgt: _Target
    local: bool


def _modifiers(state: Any, side: str, src: Any, grp: Attack, tgt: _Target) -> tuple[int, list[str]]:
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
    if space(state, side).get("pnt") == "disrupted" and src.hex.distance(tgt.hex) > 1:
        add("pnt_disrupted_beyond_1_hex", "PNT disrupted, strike beyond one hex")
    if counter(src).is_air and "disrupted-c2" in src.markers:
        add("attacker_disrupted_c2_air", "air mission with Disrupted C2")
    for e in state.units.values():
        if e.side == side and e.hex == tgt.hex and e.alive and counter(e).ew == "promote-strike":
            add("ew_promote_strike", f"EW aircraft {e.id} over the target")
            break
    return shiftn, notes


def _read_salvos(state: Any, side: str, target_ref: str, tokens: Sequence[str], order: Any = None) -> tuple[list[_Salvo], dict[str, _Target]]:
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
            raise refuse(f"salvo {tok!r}: write SOURCE:GROUP or SOURCE:GROUP:TARGET (e.g. DDG-1:tlam)",
                         "bad-salvo", "9.5", order) from None
        src = own_unit(state, order, sid, "9.5") if order is not None else state.units[sid]
        c = counter(src)
        try:
            grp = c.attack(gref)
        except KeyError:
            raise refuse(f"{sid} has no attack {gref!r}; it has {', '.join(a.id + '=' + a.die for a in c.attacks)}",
                         "no-such-attack", "2.2.2.1", order) from None
        if grp.air_to_air:
            raise refuse(f"{sid}:{grp.id} is an air-to-air die (air combat, 9.7)", "air-to-air-only", "9.7", order)
        if tref is not None and tref not in targets:
            targets[tref] = _target(state, side, tref, order)
        tgt = targets[tref] if tref is not None else main
        k = (src.id, grp.key)
        use[k] = use.get(k, 0) + 1
        if use[k] > grp.left:
            raise refuse(f"{src.id} has only {grp.left} {grp.die} salvo(s) left in {grp.id} (9.5)", "magazine-empty",
                         "2.2.2.1", order)
        if tgt.ttype == "sub":
            raise refuse("submarines can only be attacked by ASW (red submarine silhouette)", "not-asw", "8.5.2", order)
        if tgt.ttype == "air":
            raise refuse("aircraft are engaged in air combat (9.7), not by strikes", "air-target", "9.7", order)
        if not grp.can_hit(tgt.ttype):
            raise refuse(f"{src.id}:{grp.id} cannot engage {tgt.ttype} targets (its silhouettes: {', '.join(grp.targets)})",
                         "wrong-target-type", "2.2.2", order)
        if "suppressed" in src.markers and c.category == "naval":
            raise refuse(f"{src.id} is damaged and suppressed this turn: no strikes (9.6.1)", "suppressed", "9.6.1", order)
        if "disrupted-c2" in src.markers and c.category in ("naval", "artillery", "air-defence", "submarine"):
            raise refuse(f"{src.id} has Disrupted C2 and cannot fire (7.2.1.1)", "disrupted-c2", "7.2.1.1", order)
        dist = src.hex.distance(tgt.hex)
        reach = grp.range + (_air_reach(state, src) if c.is_air else 0)
        if dist > reach:
            raise refuse(f"{tgt.key} is {dist} hexes from {src.id}; {grp.id} reaches {reach} (2.2.2.1)", "out-of-range",
                         "2.2.2.1", order)
        out.append(_Salvo(src, grp, tgt, _is_local(state, src, grp, tgt)))
    return out, targets


def _check_shape(state: Any, salvos: Sequence[_Salvo], order: Any) -> None:
    """9.8 many-to-one (one target hex) or 9.9 one-to-many (one source hex, option)."""
    thexes = {s.tgt.hex for s in salvos}
    if len(thexes) > 1:
        shexes = {s.src.hex for s in salvos}
        if not (option(state, "one_to_many") and len(shexes) == 1):
            raise refuse("a strike action has one target hex (many-to-one, 9.8); one-to-many needs the 9.9 option "
                         "and a single source hex", "several-target-hexes", "9.8", order)


def _available_shields(state: Any, tgt: _Target) -> list[dict[str, Any]]:
    """Grey shields of the defender that may cover *tgt* (9.2: within the provider's range)."""
    out = []
    for u in state.units.values():
        if u.side != tgt.side or not u.alive or u.hex is None:
            continue
        if "disrupted-c2" in u.markers or ("suppressed" in u.markers and counter(u).category == "air-defence"):
            continue
        for g in counter(u).shields:
            if g.left <= 0:
                continue
            if u.id == (tgt.unit.id if tgt.unit is not None else None) or u.hex.distance(tgt.hex) <= g.range:
                out.extend({"value": g.value, "bmd": g.bmd, "red_arrow": g.red_arrow, "provider": u.id, "key": g.key,
                            "cec": counter(u).cec} for _ in range(g.left))
    out.sort(key=lambda s: (-(s["provider"] == (tgt.unit.id if tgt.unit else "")), -s["value"]))
    return out


def _cec_active(state: Any, tgt: _Target, providers: Iterable[str]) -> bool:
    if not option(state, "cec"):
        return False
    provs = [state.units[p] for p in providers if counter(state.units[p]).cec and counter(state.units[p]).category == "naval"]
    for e in state.units.values():
        if e.side == tgt.side and e.alive and e.hex is not None and counter(e).cec_provider:
            if any(e.hex.distance(p.hex) <= 1 for p in provs):
                return True
    return False


def _cap_candidates(state: Any, tgt: _Target) -> list[Any]:
    return [u for u in state.units.values()
            if u.side == tgt.side and u.alive and u.hex == tgt.hex and counter(u).is_air
            and counter(u).mission in ("cap", "dca") and "engaged" not in u.markers
            and any(a.air_to_air for a in counter(u).attacks)]


def _cap_defence(state: Any, grp: Attack) -> int | None:
    """Salvo defence against an intercepting CAP (9.9.4.1); ``None`` = cannot be intercepted."""
    if grp.flags & {"H", "HGV", "SRBM", "MRBM", "IRBM"}:
        return None
    if grp.cap_defence:
        return int(grp.cap_defence)
    d = table(state, "missile_modifiers")["cap_intercept"]
    return int(d["supersonic"] if "supersonic" in grp.flags else d["subsonic"])


def _plans(state: Any, side: str, salvos: Sequence[_Salvo], alloc: Mapping[str, Sequence[Mapping[str, Any]]],
           caps: Sequence[Any] = ()) -> list[SalvoPlan]:
    crit = option(state, "critical_hits") != "off"
    excess = option(state, "excess_shields")
    by_t: dict[str, list[int]] = {}
    base: list[SalvoPlan] = []
    for i, s in enumerate(salvos):
        k, notes = _modifiers(state, side, s.src, s.grp, s.tgt)
        die = shift(s.grp.die, k)
        base.append(SalvoPlan(die, (), s.tgt.red, crit, None, s.src.id, s.grp.id, s.tgt.key, s.grp.die, tuple(notes),
                              s.grp.flags))
        by_t.setdefault(s.tgt.key, []).append(i)
    out = list(base)
    for tkey, idx in by_t.items():
        shields = list(alloc.get(tkey, ()))
        plans = allocate([base[i] for i in idx], shields, excess=excess, hgv_defendable=option(state, "hgv_defendable"))
        if shields and _cec_active(state, salvos[idx[0]].tgt, {s["provider"] for s in shields if "provider" in s}):
            plans = [replace(p, die=demote(p.die, 2), notes=(*p.notes, "CEC: cruise missile demoted twice (6.5.9.3)"))
                     if p.layers and not (p.flags & {"SRBM", "MRBM", "IRBM", "H", "HGV"}) else p for p in plans]
        for i, p in zip(idx, plans, strict=True):
            out[i] = p
    # CAP interceptors: one CAP per salvo, in order of the interceptable salvos (9.9.4.1)
    caps = list(caps)
    for i, s in enumerate(salvos):
        if not caps:
            break
        d = _cap_defence(state, s.grp)
        if d is None:
            continue
        cap_unit = caps.pop(0)
        aa = next(a for a in counter(cap_unit).attacks if a.air_to_air)
        out[i] = replace(out[i], cap=(aa.die, d), notes=(*out[i].notes, f"intercepted by CAP {cap_unit.id} (9.9.4.1)"))
    return out


# -- previews --------------------------------------------------------------------------------------
@dataclass
class StrikePreview:
    """The exact outcome of a strike before it is rolled: hits per target, steps lost, kill odds."""

    plans: list[SalvoPlan]
    targets: dict[str, Distribution]
    steps: dict[str, Distribution]
    rules: list[str] = field(default_factory=list)

    @property
    def hits(self) -> Distribution:
        """Hits on the (first) target."""
        return next(iter(self.targets.values()))

    distribution = hits

    def kill_probability(self, target: str | None = None) -> Fraction:
        """P(the target loses its last step)."""
        key = target or next(iter(self.steps))
        d = self.steps[key]
        top = max(d)
        return d[top] if top > 0 else Fraction(0)

    def __repr__(self) -> str:
        parts = "; ".join(f"{k}: " + ", ".join(f"{h}:{float(p):.1%}" for h, p in d.items()) for k, d in self.targets.items())
        return f"<StrikePreview {len(self.plans)} salvos; hits {parts}; rules {', '.join(self.rules)}>"

    def _repr_html_(self) -> str:
        from owsnb.display.html import esc, wrap

        rows = "".join(
            f"<tr><td>{esc(p.source or '')}</td><td>{esc(p.base_die)}→<b>{esc(p.die)}</b></td>"
            f"<td>{esc(', '.join(map(str, p.layers)) or '–')}</td><td>{esc(p.red)}</td><td>{esc(p.target)}</td>"
            f"<td class='rule'>{esc('; '.join(p.notes))}</td></tr>" for p in self.plans)
        charts = "".join(bar_chart_html(list(d.items()), caption=f"hits on {k}") for k, d in self.targets.items())
        body = (f"<b>Strike preview</b> <span class='rule'>{esc(', '.join(self.rules))}</span>"
                f"<table><tr><th>source</th><th>die</th><th>grey layers</th><th>red</th><th>target</th><th>modifiers</th></tr>"
                f"{rows}</table>{charts}")
        return wrap(body, repr(self))


def _preview_of(state: Any, plans: list[SalvoPlan], targets: Mapping[str, _Target]) -> StrikePreview:
    tdist: dict[str, Distribution] = {}
    sdist: dict[str, Distribution] = {}
    for key in dict.fromkeys(p.target for p in plans):
        t = targets[key]
        d = _sum(p.distribution() for p in plans if p.target == key)
        d.label = f"hits on {key}"
        tdist[key] = d
        cm = 1 if t.countermeasures else 0
        sdist[key] = d.map(lambda h, t=t, cm=cm: min(max(h - cm, 0), t.steps), label=f"steps lost by {key}")
    rules = ["9.2", "9.2.1", "2.1.1.3"] + _note_rules(plans)
    return StrikePreview(plans, tdist, sdist, list(dict.fromkeys(rules)))


def _note_rules(plans: Iterable[SalvoPlan]) -> list[str]:
    import re

    out = set()
    for p in plans:
        for n in p.notes:
            out.update(re.findall(r"\b(\d+(?:\.\d+)+)\b", n))
    return sorted(out)


def _state_of(game_or_state: Any, side: str | None) -> Any:
    if hasattr(game_or_state, "submit"):
        return game_or_state.view(side or UMPIRE)
    return game_or_state


def preview(game: Any, target: str, salvos: Sequence[str], grey_shields: int | Sequence[int] | None = None, *,
            cap: int | Sequence[str] = 0, side: str | None = None, excess: str | None = None,
            red_shield: int | None = None) -> StrikePreview:
    """Exact outcome of a strike on *target* (9.2–9.2.1.2, 2.1.1.3), nothing rolled.

    Args:
        game: a Game (its view of *side*, or the umpire's) or a state/view.
        target: the target's id.
        salvos: dice (``["d10"] * 3``, what-if) or salvo tokens ``"DDG-1:tlam"`` (sources' dice and
            modifiers are then read from the game).
        grey_shields: grey shields the defender commits: a number (the best ones that can cover the
            target; padded with the target's best value if it has fewer) or a list of values;
            ``None`` = every shield that can cover it.
        cap: number of CAP interceptors (what-if) or CAP mission ids.
        side: whose view to compute on (default: the owner of the first salvo source, else umpire).
        excess: override the ``excess_shields`` option (``"demote"`` or ``"layered"``).

    >>> p = preview(None, "T", ["d10"] * 3, grey_shields=[6] * 5, red_shield=5)
    >>> [p.die for p in p.plans], round(float(p.hits[0]), 3)
    (['d8', 'd8', 'd10'], 0.462)
    """
    if game is None:  # pure what-if
        crit = True
        red = int(red_shield or 4)
        vals = list(grey_shields) if isinstance(grey_shields, (list, tuple)) else [6] * int(grey_shields or 0)
        plans = allocate(salvos, vals, excess=excess or "demote", red=red, critical=crit)
        plans = [replace(p, target=target) for p in plans]
        t = _Target(target, "", None, red, 99, "naval")
        return _preview_of(None, plans, {target: t})
    if side is None:
        side = next((game.state.units[s.split(':')[0]].side if hasattr(game, "state") else None
                     for s in salvos if ":" in s and s.split(":")[0] in getattr(game, "state", game).units), None)
    state = _state_of(game, side)
    truth = game.state if hasattr(game, "state") else state
    tunit = state.units.get(target)
    if tunit is None and ":" not in target:
        raise refuse(f"{target!r} is not a detected enemy unit: no attack on targets that have not been detected",
                     "target-not-detected", "9.9.4")
    if side is None:
        side = next((s for s in truth.sides if tunit is None or s != tunit.side), None)
    if all(":" in s for s in salvos):
        sv, tmap = _read_salvos(state, side, target, salvos)
        alloc = {}
        for k, t in tmap.items():
            avail = _available_shields(state, t)
            alloc[k] = _pick_shields(avail, grey_shields, t)
        caps: list[Any] = []
        if isinstance(cap, (list, tuple)):
            caps = [state.units[c] for c in cap]
        plans = _plans(state, side, sv, alloc, caps)
        if isinstance(cap, int) and cap:
            plans = _what_if_caps(state, sv, plans, cap)
        if excess is not None:
            plans = _plans(_with_option(state, "excess_shields", excess), side, sv, alloc, caps)
        return _preview_of(state, plans, tmap)
    # what-if dice against a real target
    t = _target(state, side, target)
    avail = _available_shields(state, t)
    chosen = _pick_shields(avail, grey_shields, t)
    crit = option(state, "critical_hits") != "off"
    base = [SalvoPlan(parse_die(d), (), t.red, crit, None, None, None, t.key, parse_die(d)) for d in salvos]
    plans = allocate(base, chosen, excess=excess or option(state, "excess_shields"),
                     hgv_defendable=option(state, "hgv_defendable"))
    n = int(cap) if isinstance(cap, int) else len(cap)
    plans = [replace(p, cap=("d10", 5), notes=(*p.notes, "CAP intercept (9.9.4.1)")) if i < n else p
             for i, p in enumerate(plans)]
    return _preview_of(state, plans, {t.key: t})


def _with_option(state: Any, name: str, value: Any) -> Any:
    return replace(state, options=state.options.set({name: value}))


def _what_if_caps(state: Any, sv: Sequence[_Salvo], plans: list[SalvoPlan], n: int) -> list[SalvoPlan]:
    out = list(plans)
    for i, s in enumerate(sv):
        if n <= 0:
            break
        d = _cap_defence(state, s.grp)
        if d is not None:
            out[i] = replace(out[i], cap=("d10", d))
            n -= 1
    return out


def _pick_shields(avail: list[dict], grey: Any, t: _Target) -> list[dict]:
    if grey is None:
        return avail
    if isinstance(grey, (list, tuple)):
        return [{"value": int(v)} for v in grey]
    n = int(grey)
    chosen = avail[:n]
    if len(chosen) < n:
        best = max((s["value"] for s in avail), default=6)
        chosen += [{"value": best}] * (n - len(chosen))
    return chosen


# -- resolution ------------------------------------------------------------------------------------
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


def _exposure_events(state: Any, side: str, salvos: Sequence[_Salvo], roll: Roller, defender: str) -> tuple[list[Event], set[str]]:
    """9.9.4.2: ships and ground units that fire go to TACSIT 1; 9.9.4.3: a submarine that fires
    lets airborne ASW in its hex roll once. Returns events and the ids now seen by *defender*."""
    events: list[Event] = []
    seen: set[str] = set()
    for src in {s.src.id: s.src for s in salvos}.values():
        c = counter(src)
        if c.category == "submarine":
            asw = [u for u in state.units.values() if u.side == defender and u.alive and u.hex == src.hex
                   and counter(u).is_air and counter(u).asw is not None]
            if asw and defender not in src.seen_by:
                a = max(asw, key=lambda u: counter(u).asw.die[1:].zfill(2))
                die = counter(a).asw.die
                sig = int(c.signature or 8)
                r = roll(die, f"airborne ASW {a.id} detection of a launching submarine (target {sig})", "9.9.4.3",
                         None)
                if r >= sig:
                    seen.add(src.id)
                    events.append(unit_set(src.id, seen_by=src.seen_by | {defender}, markers=src.markers | {"tacsit1"},
                                           rule="9.9.4.3"))
            continue
        if c.is_air:
            continue
        if defender not in src.seen_by or "tacsit1" not in src.markers:
            seen.add(src.id)
            events.append(unit_set(src.id, seen_by=src.seen_by | {defender}, markers=src.markers | {"tacsit1"},
                                   rule="9.9.4.2"))
    return events, seen


def _execute(state: Any, side: str, salvos: Sequence[_Salvo], targets: Mapping[str, _Target],
             alloc: Mapping[str, list[dict]], caps: Sequence[Any], dice: Any,
             return_fire: Sequence[_Salvo] = ()) -> tuple[list[Event], Result]:
    defender = next(iter(targets.values())).side or next(s for s in state.sides if s != side)
    roll = Roller(dice)
    events, exposed = _exposure_events(state, side, salvos, roll, defender)

    from owsnb.kernel.reduce import apply as _apply

    s_exp = state
    for e in events:
        s_exp = _apply(s_exp, e)

    def vis_of(src: Any) -> Any:
        return None if detected(s_exp, s_exp.units[src.id], defender) else frozenset({side})

    plans = _plans(state, side, salvos, alloc, caps)
    # expenditure: salvos (9.5), shields allocated (9.2.1, 2.2.2.8), CAPs engaged
    spent: dict[str, dict[str, int]] = {}
    for s in salvos:
        spent.setdefault(s.src.id, {})
        spent[s.src.id][s.grp.key] = spent[s.src.id].get(s.grp.key, 0) + 1
    for rf in return_fire:
        spent.setdefault(rf.src.id, {})
        spent[rf.src.id][rf.grp.key] = spent[rf.src.id].get(rf.grp.key, 0) + 1
    for shields in alloc.values():
        for sh in shields:
            if "provider" in sh:
                spent.setdefault(sh["provider"], {})
                spent[sh["provider"]][sh["key"]] = spent[sh["provider"]].get(sh["key"], 0) + 1
    hits_on: dict[str, int] = {}
    lines: list[str] = []
    for p, s in zip(plans, salvos, strict=True):
        label = f"salvo {s.src.id}:{s.grp.id} ({p.die}) at {s.tgt.key}"
        v = vis_of(s.src)
        h = _roll_salvo(roll, p, v, label if v is None else f"salvo ({p.die}) at {s.tgt.key}")
        hits_on[s.tgt.key] = hits_on.get(s.tgt.key, 0) + h
        if v is None:
            lines.append(f"{label}: {h} hit(s)")
    rf_hits: dict[str, int] = {}
    for rf in return_fire:
        crit = option(state, "critical_hits") != "off"
        k, notes = _modifiers(state, defender, rf.src, rf.grp, rf.tgt)
        p = SalvoPlan(shift(rf.grp.die, k), (), rf.tgt.red, crit, None, rf.src.id, rf.grp.id, rf.tgt.key, rf.grp.die)
        h = _roll_salvo(roll, p, None, f"return fire {rf.src.id}:{rf.grp.id} ({p.die}) at {rf.tgt.key}")
        rf_hits[rf.tgt.key] = rf_hits.get(rf.tgt.key, 0) + h
        lines.append(f"return fire {rf.src.id}:{rf.grp.id} at {rf.tgt.key}: {h} hit(s) (9.9.1)")
    # apply, simultaneously (9.9.1): spend first, then damage
    s2 = state
    for uid, keys in spent.items():
        u = state.units[uid]
        sp = dict(counter(u).spent)
        for k, n in keys.items():
            sp[k] = int(sp.get(k, 0)) + n
        events.append(unit_set(uid, data={"spent": sp}, rule="9.5", visible_to=watchers(s_exp, s_exp.units[uid])))
    for c in caps:
        events.append(unit_set(c.id, markers=c.markers | {"engaged"}, rule="9.9.4.1", visible_to=watchers(s_exp, c)))
    for e in events:
        s2 = _apply(s2, e)
    outcome: dict[str, Any] = {"hits": dict(hits_on), "steps_lost": {}}
    for key in dict.fromkeys([*hits_on, *rf_hits]):
        total = hits_on.get(key, 0) + rf_hits.get(key, 0)
        t = targets.get(key) or _rf_target(s2, key)
        if t.infra:
            evs, lost = _infra_damage(s2, t, total)
        elif t.unit is not None and counter(s2.units[t.unit.id]).category == "asp":
            evs, lost = _asp_damage(s2, s2.units[t.unit.id], total, roll)
        else:
            u = s2.units[t.unit.id]
            evs, lost, absorbed = apply_hits(s2, u, total, rule="9.6", cause="missile")
            if absorbed:
                lines.append(f"countermeasures on {u.id} absorb the first hit (7.2.1.4)")
        outcome["steps_lost"][key] = lost
        lines.append(f"{key}: {total} hit(s), {lost} step(s) lost")
        for e in evs:
            s2 = _apply(s2, e)
        events += evs
    if rf_hits:
        outcome["return_fire_hits"] = dict(rf_hits)
    outcome["salvos"] = len(salvos)
    rules = ["9.2.1", "9.5", "9.6", "2.1.1.3"]
    rules += _note_rules(plans)
    if exposed:
        rules.append("9.9.4.2")
    res = Result(f"Strike on {', '.join(targets)}", outcome, list(dict.fromkeys(rules)), roll.rolls, lines)
    events.append(note(f"Strike on {', '.join(targets)}: " + ", ".join(f"{k} {v} hit(s)" for k, v in hits_on.items()),
                       rule="9.8"))
    return events, res


def _rf_target(state: Any, key: str) -> _Target:
    u = state.units[key]
    c = counter(u)
    return _Target(u.id, u.side, u.hex, c.red_shield, u.steps, target_type(u), u, countermeasures="countermeasures" in u.markers)


def _infra_damage(state: Any, t: _Target, n: int) -> tuple[list[Event], int]:
    """9.9.7: each step loss adds one damage; capacity 0 = out of action."""
    if n <= 0:
        return [], 0
    facts = thaw(state.map.info(t.hex).facts)
    dmg = dict(facts.get("damage", {}))
    lost = min(n, t.steps)
    dmg[t.infra] = int(dmg.get(t.infra, 0)) + lost
    return [hex_set(t.hex, {"damage": dmg}, rule="9.9.7")], lost


def _asp_damage(state: Any, u: Any, n: int, roll: Roller) -> tuple[list[Event], int]:
    """2.2.2.6 / 9.9.7: each hit on an ASP destroys 1D6 salvos."""
    if n <= 0:
        return [], 0
    salvos = int(counter(u).salvos)
    lost = 0
    for k in range(n):
        lost += roll("d6", f"salvos destroyed at {u.id} (hit {k + 1})", "2.2.2.6", None)
    left = max(salvos - lost, 0)
    ev = [unit_set(u.id, data={"salvos": left}, rule="9.9.7")]
    if left == 0:
        ev.append(unit_set(u.id, steps=0, hex=None, box="attrition", rule="9.9.7"))
    return ev, min(lost, salvos)


# -- sequencing (9.9.2, 9.9.3) ---------------------------------------------------------------------
def _enter_long_range(state: Any, dice: Any) -> list[Event]:
    """6.B.1: each side gets its C2 value of long-range strike actions (9.9.2); chit cup (9.9.3)."""
    sead = thaw(state.public.get("sead_allocations") or {})  # 9.7.3 step 2: stand-off SEAD used some
    left = {s: max(int(space(state, s)["c2"]) - len(sead.get(s, ())), 0) for s in state.sides}
    events: list[Event] = [state_set("public", {"strikes_left": left, "strike_cup": dict(left)}, rule="9.9.2")]
    if option(state, "strike_order") == "chits":
        events += _draw_next(state, left, dice)
    return events


def _draw_next(state: Any, cup: Mapping[str, int], dice: Any, exclude: Iterable[str] = ()) -> list[Event]:
    ex = set(exclude) | set(state.clock.done)
    chits = [s for s, n in cup.items() for _ in range(int(n)) if s not in ex]
    if not chits:
        return []
    who = dice.choice(chits, purpose="strike chit draw", rule="9.9.3", visible_to=None)
    cup2 = dict(cup)
    cup2[who] = int(cup2[who]) - 1
    clock = state.clock
    active = (who, *[a for a in clock.active if a != who])
    return [state_set("public", {"strike_cup": cup2}, rule="9.9.3"), clock_set(replace(clock, active=active), rule="9.9.3")]


def _after_action(state: Any, side: str, long_range: bool, dice: Any) -> list[Event]:
    """Whose strike action is next (I-GO-U-GO alternates; chits draw), 9.9.3."""
    if state.clock.step != "6.B.1":
        return []
    events: list[Event] = []
    left = dict(thaw(state.public.get("strikes_left") or {}))
    if long_range:
        left[side] = max(int(left.get(side, 0)) - 1, 0)
        events.append(state_set("public", {"strikes_left": left}, rule="9.9.2"))
    clock = state.clock
    if option(state, "strike_order") == "chits":
        cup = dict(thaw(state.public.get("strike_cup") or {}))
        evs = _draw_next(state, cup, dice)
        return events + evs
    others = [a for a in clock.active if a != side and a not in clock.done and int(left.get(a, 0)) > 0]
    if others:
        active = (*others, side, *[a for a in clock.active if a != side and a not in others])
        events.append(clock_set(replace(clock, active=active), rule="9.9.3"))
    return events


# -- handlers --------------------------------------------------------------------------------------
def _pending(state: Any) -> dict[str, Any] | None:
    p = state.secret.get("pending_strike") if hasattr(state, "secret") else None
    return thaw(p) if p else None


def _long_range(salvos: Sequence[_Salvo]) -> bool:
    return any(not s.local for s in salvos)


class Strike(OrderHandler):
    """9.8/9.9: a strike action — one target hex, salvos from any sources in range."""

    type = OrderType("strike", (
        Param("target", "unit", "target unit id (or port:HEX / airfield:HEX)"),
        Param("salvos", "salvo", "SOURCE:GROUP[:TARGET] per salvo, e.g. DDG-1:tlam,DDG-1:tlam", positional=False,
              repeat=True),
    ), rule="9.8", doc="strike a target hex with missile salvos")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        if _pending(state):
            return None
        step = state.clock.step
        ex: list[Order] = []
        targets: list[str] = []
        for t in state.units.values():
            if t.side == side or not t.alive or t.hex is None or not detected(state, t, side):
                continue
            tt = target_type(t)
            if tt in ("air", "sub"):
                continue
            for u in state.units_of(side):
                if not u.alive or u.hex is None:
                    continue
                for a in counter(u).attacks:
                    if a.left <= 0 or a.air_to_air or not a.can_hit(tt):
                        continue
                    reach = a.range + (_air_reach(state, u) if counter(u).is_air else 0)
                    if u.hex.distance(t.hex) > reach:
                        continue
                    o = self.type.make(side, target=t.id, salvos=[f"{u.id}:{a.id}"])
                    try:
                        self.validate(state, o, self.type.bind(o))
                    except IllegalOrderError:
                        continue
                    ex.append(o)
                    targets.append(t.id)
                    if len(ex) >= 30:
                        break
        if not ex:
            return None
        return OrderSpec(side, self.type, FrozenDict(target=tuple(dict.fromkeys(targets))), tuple(ex[:30]),
                         note=f"step {step}")

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if _pending(state):
            raise refuse("a strike is waiting for the defender's shot calculus (9.2.1)", "strike-pending", "9.2.1", order)
        salvos, _ = _read_salvos(state, order.side, args["target"], args.get("salvos", ()), order)
        _check_shape(state, salvos, order)
        lr = _long_range(salvos)
        if state.clock.step == "6.B.2" and lr:
            raise refuse("long-range strikes are resolved in step 6.B.1; only local strikes now (9.9.1)", "not-local",
                         "9.9.1", order)
        if state.clock.step == "6.B.1":
            if not lr:
                raise refuse("step 6.B.1 is for long-range strike actions; local strikes come in 6.B.2 (9.9.1)",
                             "local-strike-later", "9.9.1", order)
            left = int((state.public.get("strikes_left") or {}).get(order.side, 0))
            if left <= 0:
                raise refuse(f"{order.side} has no long-range strike actions left (C2 value, 9.9.2)", "no-strikes-left",
                             "9.9.2", order)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> StrikePreview:
        return preview(state, args["target"], list(args.get("salvos", ())), None, side=order.side)

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        side = order.side
        salvos, targets = _read_salvos(state, side, args["target"], args.get("salvos", ()), order)
        defender = next(iter(targets.values())).side
        lr = _long_range(salvos)
        local = not lr
        caps_possible = option(state, "cap_intercept") and any(
            _cap_candidates(state, t) for t in targets.values() if t.unit is not None)
        can_answer = (any(_available_shields(state, t) for t in targets.values()) or caps_possible
                      or (local and bool(_return_fire_options(state, salvos))))
        if can_answer and defender in state.sides:
            pend = {"attacker": side, "target": args["target"], "salvos": list(args.get("salvos", ())),
                    "long_range": lr, "active": list(state.clock.active), "done": sorted(state.clock.done)}
            summary = {"attacker": side, "defender": defender,
                       "targets": {k: sum(1 for s in salvos if s.tgt.key == k) for k in targets},
                       "dice": [s.grp.die for s in salvos]}
            clock = state.clock
            ev = [state_set("secret", {"pending_strike": pend}, rule="9.2.1"),
                  state_set("public", {"incoming": summary}, rule="9.2.1"),
                  clock_set(replace(clock, active=(defender, *[a for a in clock.active if a != defender]),
                                    done=frozenset(clock.done - {defender})), rule="9.2.1"),
                  note(f"{side} declares a strike on {', '.join(targets)} ({len(salvos)} salvo(s)); "
                       f"{defender} allocates grey shields (9.2.1)", rule="9.2.1")]
            res = Result(f"Strike declared on {', '.join(targets)}", {"pending": True, "salvos": len(salvos)}, ["9.2.1"],
                         [], [f"waiting for {defender}'s shields"])
            return Adjudication(ev, res)
        events, res = _execute(state, side, salvos, targets, {}, [], dice)
        from owsnb.kernel.reduce import apply as _apply

        s2 = state
        for e in events:
            s2 = _apply(s2, e)
        events += _after_action(s2, side, lr, dice)
        return Adjudication(events, res)


def _return_fire_options(state: Any, salvos: Sequence[_Salvo]) -> list[str]:
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
                if a.can_hit(target_type(src)) and u.hex.distance(src.hex) <= a.range and detected(state, src, defender):
                    out.append(f"{u.id}:{a.id}:{src.id}")
    return out


class Shields(OrderHandler):
    """9.2.1 shot calculus: the defender commits grey shields (``TARGET:N``), CAP interceptors
    (9.9.4.1) and, against a local strike, return fire (9.9.1); the strike is then rolled."""

    type = OrderType("shields", (
        Param("alloc", "text", "TARGET:N grey shields per target (none = no shields)", repeat=True, optional=True),
        Param("cap", "unit", "CAP missions intercepting salvos (9.9.4.1)", positional=False, repeat=True, optional=True),
        Param("fire", "salvo", "return fire SOURCE:GROUP:TARGET (local strikes, 9.9.1)", positional=False, repeat=True,
              optional=True),
    ), rule="9.2.1", doc="defender: allocate grey shields and interceptors; the strike is rolled")

    def _pend(self, state: Any, side: str, order: Any = None) -> dict[str, Any]:
        p = _pending(state)
        if not p:
            raise refuse("no strike is waiting for shields", "no-pending-strike", "9.2.1", order)
        summary = thaw(state.public.get("incoming") or {})
        if summary.get("defender") != side:
            raise refuse("only the defender allocates shields against this strike", "not-defender", "9.2.1", order)
        return p

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        try:
            p = self._pend(state, side)
        except IllegalOrderError:
            return None
        salvos, targets = _read_salvos(state, p["attacker"], p["target"], p["salvos"])
        ex = [self.type.make(side)]
        full = [f"{k}:{len(_available_shields(state, t))}" for k, t in targets.items() if _available_shields(state, t)]
        if full:
            ex.append(self.type.make(side, alloc=full))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex))

    def _read(self, state: Any, order: Order, args: Mapping[str, Any]) -> tuple[Any, ...]:
        p = self._pend(state, order.side, order)
        salvos, targets = _read_salvos(state, p["attacker"], p["target"], p["salvos"])
        alloc: dict[str, list[dict]] = {}
        for tok in args.get("alloc", ()):
            if tok in ("none", "0"):
                continue
            key, _, n = tok.rpartition(":")
            if key not in targets or not n.isdigit():
                raise refuse(f"{tok!r}: write TARGET:N for a target of this strike ({', '.join(targets)})", "bad-alloc",
                             "9.2.1", order)
            avail = [s for s in _available_shields(state, targets[key])
                     if not any(s is x for v in alloc.values() for x in v)]
            used = {(s["provider"], s["key"]): 0 for v in alloc.values() for s in v}
            for v in alloc.values():
                for s in v:
                    used[(s["provider"], s["key"])] += 1
            free = []
            seen: dict[tuple[str, str], int] = {}
            for s in avail:
                k = (s["provider"], s["key"])
                seen[k] = seen.get(k, 0) + 1
                if seen[k] > used.get(k, 0):
                    free.append(s)
            if int(n) > len(free):
                raise refuse(f"only {len(free)} grey shield(s) can cover {key} (9.2: within the air defence's range)",
                             "not-enough-shields", "9.2", order)
            alloc[key] = free[: int(n)]
        caps = []
        for cid in args.get("cap", ()):
            u = own_unit(state, order, cid, "9.9.4.1")
            t_hexes = {t.hex for t in targets.values()}
            if u not in [c for t in targets.values() if t.unit is not None for c in _cap_candidates(state, t)] \
                    or u.hex not in t_hexes:
                raise refuse(f"{cid} is not an unengaged CAP in the target hex (9.9.4.1)", "not-cap", "9.9.4.1", order)
            caps.append(u)
        if not option(state, "cap_intercept") and caps:
            raise refuse("CAP intercept of missiles is switched off", "option-off", "9.9.4.1", order)
        interceptable = [s for s in salvos if _cap_defence(state, s.grp) is not None]
        if len(caps) > len(interceptable):
            raise refuse(f"{len(caps)} CAP(s) but only {len(interceptable)} salvo(s) can be intercepted: one CAP per "
                         "salvo, never hypersonic or ballistic (9.9.4.1)", "too-many-caps", "9.9.4.1", order)
        rf: list[_Salvo] = []
        if args.get("fire"):
            if _long_range(salvos):
                raise refuse("return fire answers local strikes only (9.9.1)", "not-local", "9.9.1", order)
            allowed = set(_return_fire_options(state, salvos))
            use: dict[tuple[str, str], int] = {}
            for tok in args["fire"]:
                try:
                    sid, g, tid = _parse_salvo(tok)
                except ValueError:
                    raise refuse(f"return fire {tok!r}: SOURCE:GROUP:TARGET", "bad-salvo", "9.9.1", order) from None
                src = own_unit(state, order, sid, "9.9.1")
                try:
                    grp = counter(src).attack(g)
                except KeyError:
                    raise refuse(f"{sid} has no attack {g!r}", "no-such-attack", "2.2.2.1", order) from None
                if f"{sid}:{grp.id}:{tid}" not in allowed:
                    raise refuse(f"{tok}: not a legal return fire (range, target type, salvos left)", "bad-return-fire",
                                 "9.9.1", order)
                use[(sid, grp.key)] = use.get((sid, grp.key), 0) + 1
                if use[(sid, grp.key)] > grp.left:
                    raise refuse(f"{sid} has only {grp.left} salvo(s) in {grp.id}", "magazine-empty", "2.2.2.1", order)
                rf.append(_Salvo(src, grp, _rf_target(state, tid), True))
        return p, salvos, targets, alloc, caps, rf

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        self._read(state, order, args)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> StrikePreview | None:
        return None  # the defender's view cannot name hidden sources; the attacker previews

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        p, salvos, targets, alloc, caps, rf = self._read(state, order, args)
        events, res = _execute(state, p["attacker"], salvos, targets, alloc, caps, dice, rf)
        clock = state.clock
        restore = replace(clock, active=tuple(p["active"]), done=frozenset(p["done"]))
        events = [state_set("secret", {"pending_strike": None}, rule="9.2.1"),
                  state_set("public", {"incoming": None}, rule="9.2.1"),
                  clock_set(restore, rule="9.2.1"), *events]
        from owsnb.kernel.reduce import apply as _apply

        s2 = state
        for e in events:
            s2 = _apply(s2, e)
        events += _after_action(s2, p["attacker"], p["long_range"], dice)
        res.rules = list(dict.fromkeys(["9.2.1", *res.rules]))
        return Adjudication(events, res)


# -- torpedoes (9.9.5) -------------------------------------------------------------------------------
def _asw_assets(state: Any, sub: Any, all_capable: bool = False) -> list[Any]:
    """ASW assets of the other side in the sub's hex: in ASW mode (or any ASW-capable one after a
    hit, 9.9.5.5); subs in Silent Running count (C4)."""
    out = []
    for u in state.units.values():
        if u.side == sub.side or not u.alive or u.hex != sub.hex:
            continue
        c = counter(u)
        if c.asw is None:
            continue
        if c.category == "submarine":
            if "silent-running" in u.markers and option(state, "sub_detectors") == "asw-and-silent":
                out.append(u)
            continue
        if all_capable or "asw" in u.markers:
            out.append(u)
    return out


def _asw_die(state: Any, sub: Any, assets: Sequence[Any], bonus: int = 0) -> str:
    """Cooperative ASW detection die (8.5.3, R3, 6.4.4): best die promoted per extra asset, then
    littoral demotion (2.1.9), cavitation (6.4.2.2), the D12 cap (D16 by the exception clause)."""
    from owsnb.rules.ows.dice import net_die, rung

    best = max((counter(a).asw.die for a in assets), key=rung)
    n = len(assets)
    prom = (n - 1) if option(state, "cooperative_sensing") == "n-1" else n
    prom += bonus
    dem = 0
    if state.map.info(sub.hex).terrain == "littoral":
        dem += 1
    if "silent-running" in sub.markers:
        dem += 1
    if "cavitation" in sub.markers:
        prom += 1
    cap = "d16" if option(state, "asw_d16_exception") else "d12"
    return net_die(best, prom, dem, limit=cap)


@dataclass
class _TorpState:
    alive: bool = True
    over: bool = False


def torpedo_preview(game: Any, sub: str, target: str, reattack: Sequence[str] = ()) -> Distribution:
    """Exact distribution of ``(hits per target..., sub lost)`` for a torpedo attack sequence
    (9.9.5.1–9.9.5.5), as the umpire knows it.

    Outcomes are tuples ``(total hits on targets, sub lost)``.
    """
    state = game.state if hasattr(game, "state") else game
    s = state.units[sub]
    s = s.evolve(markers=s.markers - {"silent-running"})
    seq = [target, *reattack]
    tgt_units = [state.units[t] for t in seq]
    sig = int(counter(s).signature or 8)
    sub_red = counter(s).red_shield
    torp = next(a for a in counter(s).attacks if "torpedo" in a.flags or a.can_hit("naval"))
    crit = option(state, "critical_hits") != "off"

    def asw_round(assets: Sequence[Any], bonus: int) -> Distribution:
        """P over 'free' (undetected), 'abort' (detected, survived), 'dead'."""
        if not assets:
            return Distribution.point("free")
        die = _asw_die(state, s, assets, bonus)
        pdet = success_probability(die, sig)
        best = max(assets, key=lambda a: int(counter(a).asw.die[1:]))
        pk = success_probability(counter(best).asw.die, sub_red)
        return Distribution({"free": 1 - pdet, "abort": pdet * (1 - pk), "dead": pdet * pk})

    def step(k: int, hits: int) -> Distribution:
        t = tgt_units[k]
        th = counter(t).red_shield
        hit_d = Distribution.die(int(torp.die[1:])).map(lambda r: _hits(r, th, critical=crit))
        if k == 0:
            assets = _asw_assets(state, s)
            screen = len(assets) >= 2
            if screen:
                first = asw_round(assets, 0)
                return first.bind(lambda o: Distribution.point((hits, o == "dead")) if o != "free"
                                  else hit_d.bind(lambda h: cont(k, hits + h, h)))
            single = asw_round(assets[:1], 0) if assets else Distribution.point("free")
            return single.bind(lambda o: hit_d.bind(lambda h: (Distribution.point((hits + h, o == "dead"))
                                                                if o != "free" else cont(k, hits + h, h))))
        assets = _asw_assets(state, s, all_capable=True)
        first = asw_round(assets, k)
        return first.bind(lambda o: Distribution.point((hits, o == "dead")) if o != "free"
                          else hit_d.bind(lambda h: cont(k, hits + h, h)))

    def cont(k: int, hits: int, last: int) -> Distribution:
        if last == 0 or k + 1 >= len(seq):
            return Distribution.point((hits, False))
        return step(k + 1, hits)

    d = step(0, 0)
    d.label = "(torpedo hits, sub lost)"
    return d


class Torpedo(OrderHandler):
    """9.9.5: a submarine's torpedo attack on a detected surface ship, with ASW screen and re-attacks."""

    type = OrderType("torpedo", (
        Param("sub", "unit", "the attacking submarine"),
        Param("target", "unit", "a detected surface ship in its hex"),
        Param("reattack", "unit", "targets of further attacks after each hit (9.9.5.5)", positional=False,
              repeat=True, optional=True),
    ), rule="9.9.5", doc="submarine torpedo attack")

    def candidates(self, state: Any, side: str) -> OrderSpec | None:
        subs = [u for u in state.units_of(side) if counter(u).category == "submarine" and u.alive and u.hex is not None]
        ex = legal_examples(self, state, side, (
            {"sub": u.id, "target": t.id} for u in subs for t in state.units_at(u.hex)
            if t.side != side and t.alive and counter(t).category == "naval" and detected(state, t, side)))
        return OrderSpec(side, self.type, FrozenDict(), tuple(ex)) if ex else None

    def validate(self, state: Any, order: Order, args: Mapping[str, Any]) -> None:
        if _pending(state):
            raise refuse("a strike is waiting for the defender's shot calculus", "strike-pending", "9.2.1", order)
        s = own_unit(state, order, args["sub"], "9.9.5")
        c = counter(s)
        if c.category != "submarine":
            raise refuse(f"{s.id} is not a submarine", "not-a-sub", "9.9.5", order)
        torp = [a for a in c.attacks if "torpedo" in a.flags and a.left > 0]
        if not torp:
            raise refuse(f"{s.id} has no torpedo salvo left", "magazine-empty", "9.9.5", order)
        if c.subtype == "ssk" and "silent-running" not in s.markers:
            raise refuse("an SSK may only attack if it began the Combat phase in Silent Running", "ssk-not-silent",
                         "9.9.5.6", order)
        if state.clock.step == "6.B.1":
            raise refuse("torpedo attacks are local strikes: step 6.B.2 (9.9.1)", "local-strike-later", "9.9.1", order)
        for tid in (args["target"], *args.get("reattack", ())):
            t = enemy_unit(state, order.side, tid, "9.9.4", order)
            if counter(t).category != "naval" or t.hex != s.hex:
                raise refuse(f"{tid} is not a surface ship in {s.id}'s hex", "bad-torpedo-target", "9.9.5", order)

    def preview(self, state: Any, order: Order, args: Mapping[str, Any]) -> Distribution:
        return torpedo_preview(state, args["sub"], args["target"], args.get("reattack", ()))

    def adjudicate(self, state: Any, order: Order, args: Mapping[str, Any], dice: Any) -> Adjudication:
        side = order.side
        s = state.units[args["sub"]]
        c = counter(s)
        torp = next(a for a in c.attacks if "torpedo" in a.flags and a.left > 0)
        roll = Roller(dice)
        seq = [args["target"], *args.get("reattack", ())]
        events: list[Event] = [unit_set(s.id, markers=s.markers - {"silent-running"}, rule="9.9.5.1",
                                        visible_to=watchers(state, s))]
        s = s.evolve(markers=s.markers - {"silent-running"})
        sig = int(c.signature or 8)
        crit = option(state, "critical_hits") != "off"
        defender = state.units[seq[0]].side
        hidden = frozenset({side})
        total: dict[str, int] = {}
        lines: list[str] = []
        sub_lost = False
        detected_sub = False
        used = 0

        def asw(assets: Sequence[Any], bonus: int) -> str:
            nonlocal sub_lost, detected_sub
            if not assets:
                return "free"
            die = _asw_die(state, s, assets, bonus)
            r = roll(die, f"ASW detection of a submarine ({len(assets)} asset(s), target {sig})", "9.9.5.2", None)
            if r < sig:
                return "free"
            detected_sub = True
            best = max(assets, key=lambda a: int(counter(a).asw.die[1:]))
            r2 = roll(counter(best).asw.die, f"ASW attack by {best.id} on {s.id} (red {c.red_shield})", "8.5.2", None)
            if _hits(r2, c.red_shield, critical=crit) > 0:
                sub_lost = True
                return "dead"
            return "abort"

        for k, tid in enumerate(seq):
            t = state.units[tid]
            if k == 0:
                assets = _asw_assets(state, s)
                if len(assets) >= 2:
                    o = asw(assets, 0)
                    lines.append(f"ASW screen ({len(assets)} assets): {o} (6.4.4.1, 9.9.5.2)")
                    if o != "free":
                        break
                    o_single = "free"
                else:
                    o_single = asw(assets, 0) if assets else "free"
            else:
                o = asw(_asw_assets(state, s, all_capable=True), k)
                lines.append(f"re-attack {k}: ASW {o} (9.9.5.5)")
                if o != "free":
                    break
                o_single = "free"
            vis = None if detected_sub else hidden
            r = roll(torp.die, f"torpedo {torp.die} at {tid} (red {counter(t).red_shield})" if vis is None
                     else f"torpedo at {tid}", "9.9.5.4", vis)
            h = _hits(r, counter(t).red_shield, critical=crit)
            used += 1
            total[tid] = total.get(tid, 0) + h
            lines.append(f"torpedo at {tid}: roll {r}, {h} hit(s) (9.9.5.4)")
            if k == 0 and o_single != "free":
                lines.append(f"single ASW asset: sub {o_single} (simultaneous, 9.9.5.3)")
                break
            if h == 0:
                break
        sp = dict(c.spent)
        sp[torp.key] = int(sp.get(torp.key, 0)) + min(used, torp.left) if used else int(sp.get(torp.key, 0))
        from owsnb.kernel.reduce import apply as _apply

        vis_sub = None if detected_sub else watchers(state, s)
        events.append(unit_set(s.id, data={"spent": sp}, rule="9.5", visible_to=vis_sub))
        if detected_sub:
            events.append(unit_set(s.id, seen_by=s.seen_by | {defender}, markers=s.markers - {"silent-running"} | {"tacsit1"},
                                   rule="9.9.5.2"))
        s2 = state
        for e in events:
            s2 = _apply(s2, e)
        steps_lost = {}
        for tid, n in total.items():
            evs, lost, _ = apply_hits(s2, s2.units[tid], n, rule="9.9.5.4", cause="torpedo")
            steps_lost[tid] = lost
            for e in evs:
                s2 = _apply(s2, e)
            events += evs
        if sub_lost:
            evs, _, _ = apply_hits(s2, s2.units[s.id], 1, rule="8.5.2", cause="asw")
            events += evs
        events.append(note("Torpedo attack: " + ", ".join(f"{k} {v} hit(s)" for k, v in total.items())
                           if total else "Torpedo attack aborted", rule="9.9.5", visible_to=None))
        res = Result(f"Torpedo attack by {s.id}", {"hits": total, "steps_lost": steps_lost, "sub_lost": sub_lost,
                                                    "sub_detected": detected_sub}, ["9.9.5", "2.1.1.3"], roll.rolls, lines)
        return Adjudication(events, res)


def torpedo(game: Any, sub: str, target: str, reattack: Sequence[str] = ()) -> Result:
    """Resolve a torpedo attack (9.9.5) by submitting ``torpedo``; returns the rich result."""
    from owsnb.rules.ows.common import submit

    side = game.state.units[sub].side
    o = Torpedo.type.make(side, sub=sub, target=target, reattack=list(reattack) or None)
    return submit(game, o)


def resolve(game: Any, target: str, salvos: Sequence[str], grey_shields: int | Mapping[str, int] | None = None, *,
            cap: Sequence[str] = (), fire: Sequence[str] = (), side: str | None = None) -> Result:
    """Strike *target*: submits ``strike`` (and the defender's ``shields``), rolls, commits.

    Args:
        salvos: salvo tokens ``"DDG-1:tlam"``; plain dice (``"d10"``) pick the attacker's first
            sources in range with an unexpended group of that die.
        grey_shields: the defender's commitment: a number for the main target, ``{target: n}``, or
            ``None`` for every shield that can cover the targets.
        cap: the defender's CAP interceptors; fire: the defender's return fire (local strikes).
    """
    from owsnb.rules.ows.common import submit

    state = game.state
    if side is None:
        side = next((state.units[s.split(":")[0]].side for s in salvos if ":" in s and s.split(":")[0] in state.units),
                    None) or next(s for s in state.sides if s != state.units[target].side)
    toks = [s if ":" in s else None for s in salvos]
    if None in toks:
        toks = _pick_sources(state, side, target, salvos)
    r = submit(game, Strike.type.make(side, target=target, salvos=toks))
    if r.outcome.get("pending"):
        inc = thaw(game.state.public.get("incoming") or {})
        d = inc.get("defender")
        if isinstance(grey_shields, Mapping):
            alloc = [f"{k}:{v}" for k, v in grey_shields.items() if v]
        else:
            alloc = []
            pend = _pending(game.state)
            _, tmap = _read_salvos(game.state, side, pend["target"], pend["salvos"])
            for k, t in tmap.items():
                n = len(_available_shields(game.state, t))
                if grey_shields is not None and k == target:
                    n = min(int(grey_shields), n)
                elif grey_shields is not None:
                    n = 0
                if n:
                    alloc.append(f"{k}:{n}")
        r = submit(game, Shields.type.make(d, alloc=alloc or None, cap=list(cap) or None, fire=list(fire) or None))
    return r


def _pick_sources(state: Any, side: str, target: str, salvos: Sequence[str]) -> list[str]:
    t = state.units[target]
    tt = target_type(t)
    used: dict[tuple[str, str], int] = {}
    out = []
    for s in salvos:
        if ":" in s:
            out.append(s)
            continue
        die = parse_die(s)
        found = None
        for u in sorted(state.units_of(side), key=lambda u: (u.hex.distance(t.hex) if u.hex else 99, u.id)):
            if not u.alive or u.hex is None:
                continue
            for a in counter(u).attacks:
                if a.die != die or a.air_to_air or not a.can_hit(tt):
                    continue
                if used.get((u.id, a.key), 0) >= a.left:
                    continue
                if u.hex.distance(t.hex) > a.range + (_air_reach(state, u) if counter(u).is_air else 0):
                    continue
                found = (u.id, a)
                break
            if found:
                break
        if found is None:
            raise refuse(f"no {side} source in range has a {die} salvo left for {target}", "no-source", "9.5")
        used[(found[0], found[1].key)] = used.get((found[0], found[1].key), 0) + 1
        out.append(f"{found[0]}:{found[1].id}")
    return out


HANDLERS = [Strike(), Shields(), Torpedo()]
STEP_EFFECTS = {"6.B.1": _enter_long_range}
