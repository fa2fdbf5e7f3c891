"""Exact forecasts of the Operational Engagement Sequence: computed, never sampled.

Every die is enumerated with the same helper functions that resolve real attacks
(:mod:`owsnb.rules.opscale.combat`), and probabilities are kept as whole-number weights over a
common denominator (a D20 x D10 x D10 x D10 attack has 20,000 equally likely outcomes), turned
into exact :class:`~fractions.Fraction` values at round boundaries.

* :func:`shot_outcomes` — one weapon attack;
* :func:`initiative_odds` — who fires first (OES.3, ties re-rolled);
* :func:`round_outcomes` / :func:`forecast_engagement` — rounds of a whole engagement;
* :func:`kill_chance` — the probability that one unit destroys another within N rounds.

>>> from owsnb.rules.opscale.units import Card, Weapon
>>> gun = Weapon("primary", "gun", attack_rating=12, di=4)
>>> a = Card("A", "blue", "vehicle", endurance=10, half=5, weapons=(gun,))
>>> t = Card("T", "red", "vehicle", endurance=14, half=7, defense=3)
>>> kill_chance(a, t, rounds=1)[1]      # a natural 20, or a 19 with Intensity 7+ (doubled)
Fraction(7, 100)
>>> initiative_odds(2, 0)["attacker"]
Fraction(16, 23)
"""

from __future__ import annotations

import contextvars
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.rules.opscale.combat import (
    DEFAULT_RULES,
    CombatRules,
    EngagementSpec,
    Fire,
    ap_mode,
    apply_hit,
    choose_target,
    decided,
    firing_plan,
    hit_kind,
    marksman,
    net_damage,
    pierce_weight,
    raw_damage,
    weapons_fired,
)
from owsnb.rules.opscale.units import DESTROYED, Card, Weapon

__all__ = [
    "SHOT_DENOMINATOR",
    "shot_outcomes",
    "shot_distribution",
    "initiative_odds",
    "round_outcomes",
    "forecast_engagement",
    "kill_chance",
    "Forecast",
    "ForecastTooLarge",
    "binomial_stars",
    "Layer",
    "summarise",
    "pair_forecast",
]

SHOT_DENOMINATOR = 20 * 10 * 10 * 10
"""Equally likely outcomes of one attack: D20 attack, D10 intensity, D10 weapon check, D10 armor check."""

MAX_STATES = 60_000
WORK_LIMIT = 250_000
"""The most states one forecast may produce, summed over its attack positions and rounds, before
it gives up (a quarter of a second or so; see ``bench/opscale_forecast.py``)."""

_work: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "opscale_forecast_work", default=None
)


class ForecastTooLarge(ValueError):
    """The engagement has too many possible states for an exact forecast."""


def _spend(n: int) -> None:
    w = _work.get()
    if w is None:  # outside forecast_engagement: no budget
        return
    w[0] += n
    if w[0] > w[1]:
        raise ForecastTooLarge(
            f"the exact forecast needs more than {w[1]:,} state updates; forecast fewer rounds or "
            "a smaller group (kill_chance)"
        )


@lru_cache(maxsize=65536)
def shot_outcomes(
    shooter: Card,
    weapon: Weapon,
    target: Card,
    status: tuple[int, int],
    rules: CombatRules = DEFAULT_RULES,
) -> tuple[tuple[tuple[int, int], bool, int], ...]:
    """Every outcome of one weapon attack: ``(target status after, malfunction?, weight)``;
    the weights sum to :data:`SHOT_DENOMINATOR`.

    >>> from owsnb.rules.opscale.units import Card, Weapon
    >>> w = Weapon("primary", attack_rating=12, di=4)
    >>> t = Card("T", "red", "vehicle", endurance=14, half=7, defense=3)
    >>> sum(x[2] for x in shot_outcomes(Card("A", "blue", "vehicle"), w, t, (14, 0)))
    20000
    """
    per_nat = SHOT_DENOMINATOR // 20
    acc: dict[tuple[tuple[int, int], bool], int] = defaultdict(int)
    bonus = marksman(shooter, weapon)
    damaged = target.damaged_at(status[0])
    defense = target.profile(damaged).defense
    pw = pierce_weight(weapon.ap, defense) if ap_mode(weapon.ap, defense) != "none" else 0
    exploit = shooter.bonus("exploit-weakness")
    for nat in range(1, 21):
        kind = hit_kind(nat, bonus, weapon.attack_rating, rules)
        if kind == "critical":
            acc[(DESTROYED, False)] += per_nat
        elif kind == "malfunction":
            acc[(status, True)] += per_nat
        elif kind == "miss":
            acc[(status, False)] += per_nat
        else:
            per_i = per_nat // 10
            for i in range(1, 11):
                raw = raw_damage(
                    i, weapon.di, double=kind == "double", exploit=exploit, rules=rules
                )
                if pw:
                    acc[
                        (
                            apply_hit(target, status, net_damage(raw, defense, True), True, rules),
                            False,
                        )
                    ] += per_i * pw // 100
                if pw < 100:
                    after = apply_hit(target, status, net_damage(raw, defense, False), False, rules)
                    acc[(after, False)] += per_i * (100 - pw) // 100
    return tuple((s, m, w) for (s, m), w in acc.items())


def shot_distribution(
    shooter: Card,
    weapon: Weapon,
    target: Card,
    status: tuple[int, int] | None = None,
    rules: CombatRules = DEFAULT_RULES,
) -> Distribution:
    """The exact distribution of one weapon attack, by result: ``"destroyed"``, ``"damaged"``
    (card flipped by this hit), ``"hurt"`` (Endurance lost), ``"no effect"`` or ``"malfunction"``.

    >>> from owsnb.rules.opscale.units import Card, Weapon
    >>> w = Weapon("primary", attack_rating=12, di=4)
    >>> t = Card("T", "red", "vehicle", endurance=14, half=7, defense=3)
    >>> d = shot_distribution(Card("A", "blue", "vehicle"), w, t)
    >>> d["malfunction"], d["destroyed"]       # a 20, or a 19 with Intensity 7+ (doubled: 15+)
    (Fraction(1, 20), Fraction(7, 100))
    """
    status = status or (target.endurance, target.crew)
    was = target.damaged_at(status[0])

    def label(after: tuple[int, int], malf: bool) -> str:
        if malf:
            return "malfunction"
        if after == DESTROYED:
            return "destroyed"
        if after == status:
            return "no effect"
        return "damaged" if target.damaged_at(after[0]) and not was else "hurt"

    return Distribution(
        (
            (label(s, m), Fraction(w, SHOT_DENOMINATOR))
            for s, m, w in shot_outcomes(shooter, weapon, target, status, rules)
        ),
        label=f"{shooter.id} {weapon.name or weapon.slot} → {target.id}",
    )


def initiative_odds(att_mod: int, def_mod: int) -> Distribution:
    """OES.3: who wins the initiative, each side rolling a D10 plus its modifiers, ties re-rolled.

    >>> initiative_odds(0, 0)["attacker"], initiative_odds(2, -1)["defender"]
    (Fraction(1, 2), Fraction(7, 31))
    """
    win = lose = 0
    for a in range(1, 11):
        for d in range(1, 11):
            if a + att_mod > d + def_mod:
                win += 1
            elif a + att_mod < d + def_mod:
                lose += 1
    return Distribution(
        {"attacker": Fraction(win, win + lose), "defender": Fraction(lose, win + lose)},
        label="initiative (OES.3)",
    )


# -- rounds -------------------------------------------------------------------------------------
State = tuple[tuple[tuple[int, int], ...], frozenset, Any]


def _positions(spec: EngagementSpec, sides: Sequence[str]) -> list[tuple[Fire, int]]:
    out = []
    for side in sides:
        for fire in spec.fires_of(side):
            card = spec.cards[fire.unit]
            n = max(
                len(weapons_fired(card, fire, False, spec.rules)),
                len(weapons_fired(card, fire, True, spec.rules)),
            )
            out += [(fire, p) for p in range(n)]
    return out


def round_outcomes(
    spec: EngagementSpec,
    statuses: tuple[tuple[int, int], ...],
    disabled: frozenset,
    first: str,
    round_no: int = 1,
) -> tuple[dict[State, int], int]:
    """Every outcome of one combat round as ``{(statuses, disabled next, winner): weight}`` and
    the number *S* of possible attacks: weights sum to ``SHOT_DENOMINATOR ** S``.

    *statuses* follow ``spec.order``.
    """
    eng = _Engine(spec)
    out, n = eng.round(eng.starts({eng.encode(statuses, disabled): 1}), first, round_no)
    return {eng.decode(k & ~eng.dis_mask): w for k, w in out.items()}, n


class _Engine:
    """The exact round-by-round enumeration of one engagement (OES.4-OES.10), on packed states.

    A state — every unit's (Endurance, crew) status, which units live, the weapons disabled this
    round (a malfunction last round, OES.5), the malfunctions so far this round and the winner
    (OES.10) — is one integer: a small index per unit's status (``_BITS`` bits each), then one
    bit per unit alive, one bit per weapon malfunctioned, one per weapon disabled, and the
    winner. A round is a fixed list of attack positions (each firing unit's weapons in order,
    :func:`firing_plan`); each position maps every state of the whole distribution to its
    outcomes (:func:`shot_outcomes`, the same enumeration that resolves play), and equal states
    are merged as they arise, so a state reached in many ways is enumerated once. What a
    position does to a state depends only on few of its facts (the shooter's status, who lives)
    and is memoised per engagement. Weights stay whole numbers over one denominator: this is
    the same exact distribution as enumerating each state on its own (the old way, and the
    test's reference), only without the repeats.
    """

    _BITS = 16

    def __init__(self, spec: EngagementSpec):
        self.spec = spec
        order = spec.order
        self.index = {u: i for i, u in enumerate(order)}
        self.n = n = len(order)
        # the weapon keys any position may fire (both card sides): one bit each
        keys: dict[str, int] = {}
        for fire in (*spec.attacks, *spec.retaliations):
            card = spec.cards[fire.unit]
            for damaged in (False, True):
                for k, _ in weapons_fired(card, fire, damaged, spec.rules):
                    keys.setdefault(k, len(keys))
        self.keys = keys
        self.key_names = list(keys)
        self.a0 = self._BITS * n  # alive bits
        self.m0 = self.a0 + n  # malfunctions this round
        self.d0 = self.m0 + len(keys)  # disabled this round
        self.w0 = self.d0 + len(keys)  # the winner: 0 none, 1 attacker, 2 defender
        self.malf_mask = ((1 << len(keys)) - 1) << self.m0
        self.dis_mask = ((1 << len(keys)) - 1) << self.d0
        self.won_mask = 3 << self.w0
        self.winners = (None, spec.attacker, spec.defender)
        self.statuses: list[list[tuple[int, int]]] = [[] for _ in order]
        self.status_ix: list[dict[tuple[int, int], int]] = [{} for _ in order]
        self._decided: dict[int, int] = {}
        self._plans: dict[tuple[int, int, int], Any] = {}
        self._pids: dict[tuple[Fire, int], int] = {}
        self._malf_sets: dict[int, frozenset] = {}

    # -- packing
    def ix(self, u: int, status: tuple[int, int]) -> int:
        """The index of *status* among unit *u*'s (registered on first sight)."""
        table = self.status_ix[u]
        i = table.get(status)
        if i is None:
            i = table[status] = len(self.statuses[u])
            if i >= 1 << self._BITS:
                raise ForecastTooLarge("too many statuses of one unit for an exact forecast")
            self.statuses[u].append(status)
        return i

    def alive_of(self, statuses: Sequence[tuple[int, int]]) -> int:
        return sum(1 << i for i, s in enumerate(statuses) if s[0] > 0)

    def decided(self, alive: int) -> int:
        """OES.10 on the alive bits: 0 (both groups remain), 1 (attacker won), 2 (defender)."""
        won = self._decided.get(alive)
        if won is None:
            index = self.index
            side = decided(self.spec, lambda u: bool(alive >> index[u] & 1))
            won = self._decided[alive] = self.winners.index(side)
        return won

    def encode(self, statuses: Sequence[tuple[int, int]], disabled: Iterable[str]) -> int:
        """A layer's state: *statuses*, the weapons *disabled* next round (in the malfunction
        bits, where a round leaves them) and the winner."""
        key = 0
        for u, s in enumerate(statuses):
            key |= self.ix(u, s) << (self._BITS * u)
        alive = self.alive_of(statuses)
        key |= alive << self.a0
        for k in disabled:
            if k in self.keys:  # a key no position fires changes nothing
                key |= 1 << (self.m0 + self.keys[k])
        return key | self.decided(alive) << self.w0

    def starts(self, layer: Mapping[int, int]) -> dict[int, int]:
        """A layer's undecided states as a round starts: last round's malfunctions disable their
        weapons now (OES.5), none yet this round."""
        out: dict[int, int] = defaultdict(int)
        clear, shift, a0, amask = (
            self.malf_mask | self.dis_mask,
            self.d0 - self.m0,
            self.a0,
            (1 << self.n) - 1,
        )
        for key, w in layer.items():
            won = self.decided(key >> a0 & amask)
            if won:
                out[(key & ~clear & ~self.won_mask) | won << self.w0] += w
            else:
                out[(key & ~clear) | (key & self.malf_mask) << shift] += w
        return out

    def decode(self, key: int) -> State:
        """``(statuses, malfunctions this round, winner)``: a layer's state."""
        b, m = self._BITS, (1 << self._BITS) - 1
        st = tuple(self.statuses[u][key >> (b * u) & m] for u in range(self.n))
        malf = (key & self.malf_mask) >> self.m0
        ms = self._malf_sets.get(malf)
        if ms is None:
            ms = self._malf_sets[malf] = frozenset(
                k for i, k in enumerate(self.key_names) if malf >> i & 1
            )
        return (st, ms, self.winners[key >> self.w0])

    # -- one attack position
    def _plan(self, fire: Fire, p: int, s: int, alive: int) -> Any:
        """What position (*fire*, *p*) does with the shooter at status index *s* and these alive
        bits: ``None`` (no attack) or ``(the weapon's disabled bit, its malfunction bit, shooter
        card, weapon, target, outcomes by target status, the same without malfunctions)``."""
        spec, index = self.spec, self.index
        si = index[fire.unit]
        card = spec.cards[fire.unit]
        end = self.statuses[si][s][0]
        if end <= 0:
            return None
        wf = weapons_fired(card, fire, card.damaged_at(end), spec.rules)
        if p >= len(wf):
            return None
        key, weapon = wf[p]
        target = choose_target(spec, fire, weapon, lambda u: bool(alive >> index[u] & 1))
        if target is None:
            return None
        bit = self.keys[key]
        return (1 << (self.d0 + bit), 1 << (self.m0 + bit), card, weapon, target, {}, {})

    def _outcomes(
        self, plan: Any, t: int, alive: int, malfunctions: bool
    ) -> list[tuple[int, int, int]]:
        """``(key change, malfunction bit or 0, weight)`` of the planned attack on a target at
        status index *t*."""
        _, mbit, card, weapon, target, _, _ = plan
        ti = self.index[target]
        shift = self._BITS * ti
        status = self.statuses[ti][t]
        out: dict[tuple[int, int], int] = defaultdict(int)
        for after, m, sw in shot_outcomes(
            card, weapon, self.spec.cards[target], status, self.spec.rules
        ):
            delta = (self.ix(ti, after) - t) << shift
            if after[0] <= 0:
                delta -= 1 << (self.a0 + ti)
            if after == DESTROYED:
                delta += self.decided(alive & ~(1 << ti)) << self.w0
            out[(delta, mbit if m and malfunctions else 0)] += sw
        return [(delta, mb, sw) for (delta, mb), sw in out.items()]

    def round(
        self, cur: Mapping[int, int], first: str, round_no: int = 1, malfunctions: bool = True
    ) -> tuple[dict[int, int], int]:
        """One round from packed states *cur* (``{state: weight}``, no malfunctions yet, as
        :meth:`starts` gives them): every outcome's weight times ``SHOT_DENOMINATOR ** S``, and
        *S*. ``malfunctions=False`` forgets which weapons malfunction this round (they matter
        only to the next round): the same distribution of everything else, on far fewer
        states."""
        spec = self.spec
        if spec.rules.combat_round != "single-volley":
            round_no = 1
        positions = _positions(spec, firing_plan(spec, first, round_no))
        D = SHOT_DENOMINATOR
        b, smask = self._BITS, (1 << self._BITS) - 1
        a0, amask, w0 = self.a0, (1 << self.n) - 1, self.w0
        plans, pids = self._plans, self._pids
        mi = 5 if malfunctions else 6  # the plan's outcome memo, with or without them
        spent = self._spent(positions)
        cur = self._forget(cur, spent[-1])
        for j, (fire, p) in enumerate(positions):
            pi = pids.setdefault((fire, p), len(pids))  # the memo's name for the position
            nxt: dict[int, int] = defaultdict(int)
            sshift = b * self.index[fire.unit]
            keep = ~spent[j]  # the disabled bits read for the last time here are dropped
            for key, w in cur.items():
                if key >> w0:  # decided (OES.10): nothing more happens
                    nxt[key & keep] += w * D
                    continue
                s = key >> sshift & smask
                alive = key >> a0 & amask
                pk = (pi, s, alive)
                plan = plans.get(pk, False)
                if plan is False:
                    plan = plans[pk] = self._plan(fire, p, s, alive)
                if plan is None or key & plan[0]:  # no attack, or the weapon is disabled
                    nxt[key & keep] += w * D
                    continue
                memo = plan[mi]
                tshift = b * self.index[plan[4]]
                t = key >> tshift & smask
                outs = memo.get(t)
                if outs is None:
                    outs = memo[t] = self._outcomes(plan, t, alive, malfunctions)
                for delta, mbit, sw in outs:
                    nxt[((key + delta) | mbit) & keep] += w * sw
            _spend(len(nxt))
            if len(nxt) > MAX_STATES:
                raise ForecastTooLarge(
                    f"more than {MAX_STATES} possible states in one round: too large for an "
                    "exact forecast; forecast a smaller group (kill_chance) instead"
                )
            cur = nxt
        return dict(cur), len(positions)

    def _spent(self, positions: Sequence[tuple[Fire, int]]) -> list[int]:
        """The disabled bits no longer read after each position of the round (the last entry:
        those no position reads). A weapon disabled this round (OES.5) is read only at its own
        position, and the round's outcome does not carry them (only this round's
        malfunctions): forgetting them once read merges states that differ in nothing to come."""
        last: dict[int, int] = {}
        for j, (fire, p) in enumerate(positions):
            card = self.spec.cards[fire.unit]
            for damaged in (False, True):
                wf = weapons_fired(card, fire, damaged, self.spec.rules)
                if p < len(wf):
                    last[self.keys[wf[p][0]]] = j
        spent = [0] * (len(positions) + 1)
        for bit in range(len(self.keys)):
            spent[last.get(bit, -1)] |= 1 << (self.d0 + bit)
        return spent

    @staticmethod
    def _forget(states: dict[int, int], bits: int) -> dict[int, int]:
        """*states* with *bits* cleared (equal states merged)."""
        if not bits:
            return states
        out: dict[int, int] = defaultdict(int)
        for k, w in states.items():
            out[k & ~bits] += w
        return out


class Layer:
    """An exact distribution over engagement states as whole-number weights over one denominator.

    Attributes:
        weights: ``{(statuses, disabled, winner): weight}``.
        denom: the common denominator (the weights sum to it).
    """

    __slots__ = ("_weights", "denom", "_packed")

    def __init__(self, weights: Mapping[State, int], denom: int):
        self._weights: dict[State, int] | None = dict(weights)
        self.denom = denom
        self._packed: Any = None

    @classmethod
    def _lazy(cls, packed: dict[int, int], denom: int, decode: Any) -> Layer:
        """A layer of the forecast's packed states, decoded when first read (a preview reads
        the last layer only)."""
        layer = cls.__new__(cls)
        layer._weights, layer.denom, layer._packed = None, denom, (packed, decode)
        return layer

    @property
    def weights(self) -> dict[State, int]:
        if self._weights is None:
            packed, decode = self._packed
            self._weights, self._packed = {decode(k): w for k, w in packed.items()}, None
        return self._weights

    def prob(self, pred: Any) -> Fraction:
        """P(pred(state))."""
        return Fraction(sum(w for k, w in self.weights.items() if pred(k)), self.denom)

    def mean(self, fn: Any) -> Fraction:
        """E[fn(state)]."""
        return Fraction(sum(w * fn(k) for k, w in self.weights.items()), self.denom)

    def items(self) -> Any:
        """(state, probability) pairs (Fractions; for small layers)."""
        return ((k, Fraction(w, self.denom)) for k, w in self.weights.items())

    def __len__(self) -> int:
        return len(self._packed[0] if self._weights is None else self._weights)


def forecast_engagement(
    spec: EngagementSpec,
    statuses: Mapping[str, tuple[int, int]],
    *,
    disabled: Iterable[str] = (),
    first: str | Mapping[str, Any] | None = None,
    init_mods: tuple[int, int] = (2, 0),
    rounds: int = 1,
    start_round: int = 1,
    work_limit: int = WORK_LIMIT,
    last_malfunctions: bool = True,
) -> list[Layer]:
    """The exact distribution of the engagement's state after each of the next *rounds* rounds.

    Args:
        statuses: (endurance, crew) of every unit in ``spec.order``.
        disabled: weapon keys not usable in the first forecast round (malfunctions).
        first: the side with the initiative, or a mapping side -> probability; ``None``: from
            :func:`initiative_odds` with *init_mods* (attacker, defender).
        rounds: how many rounds; a decided engagement stays decided.
        work_limit: the most state updates allowed (a guard for large engagements).
        last_malfunctions: ``False``: the last layer does not tell which weapons malfunctioned
            in its round (its states' middle part is empty) — they matter only to a round after
            it. Everything else in it is the same, on far fewer states: what a forecast that
            summarises the last round (:func:`summarise`) needs.

    Returns:
        one :class:`Layer` per round.

    Raises:
        ForecastTooLarge: more than :data:`MAX_STATES` states.
    """
    token = _work.set([0, work_limit])
    try:
        return _forecast_layers(
            spec, statuses, disabled, first, init_mods, rounds, start_round, last_malfunctions
        )
    finally:
        _work.reset(token)


def _forecast_layers(
    spec: EngagementSpec,
    statuses: Mapping[str, tuple[int, int]],
    disabled: Iterable[str],
    first: Any,
    init_mods: tuple[int, int],
    rounds: int,
    start_round: int,
    last_malfunctions: bool = True,
) -> list[Layer]:
    if first is None:
        odds = initiative_odds(*init_mods)
        firsts = {spec.attacker: odds["attacker"], spec.defender: odds["defender"]}
    elif isinstance(first, str):
        firsts = {first: Fraction(1)}
    else:
        firsts = {k: Fraction(v) for k, v in first.items()}
    eng = _Engine(spec)
    D = SHOT_DENOMINATOR
    start = eng.encode(tuple(statuses[u] for u in spec.order), disabled)
    layers = {f: ({start: 1}, 1) for f, p in firsts.items() if p}
    clear = eng.malf_mask | eng.dis_mask
    out: list[Layer] = []
    for r in range(rounds):
        for f, (layer, denom) in list(layers.items()):
            # a decided engagement stays decided (its malfunctions no longer matter); the others
            # fight the round together, every weight scaled by the round's D ** S
            done: dict[int, int] = defaultdict(int)
            undecided: dict[int, int] = {}
            for key, w in layer.items():
                if key & eng.won_mask:
                    done[key & ~clear] += w
                else:
                    undecided[key] = w
            if undecided:
                res, n = eng.round(
                    eng.starts(undecided),
                    f,
                    start_round + r,
                    malfunctions=last_malfunctions or r < rounds - 1,
                )
                nl: dict[int, int] = defaultdict(int)
                for key, w in res.items():
                    nl[key & ~eng.dis_mask] += w
                scale = D**n
                for key, w in done.items():
                    nl[key] += w * scale
            else:
                nl, n = done, 0
            _spend(len(nl))
            if len(nl) > MAX_STATES:
                raise ForecastTooLarge(
                    f"more than {MAX_STATES} states after round {r + 1}; forecast fewer rounds"
                )
            layers[f] = (dict(nl), denom * D**n)
        # merge the initiative branches over one common denominator
        lcm = 1
        for f, (_, denom) in layers.items():
            lcm = math.lcm(lcm, firsts[f].denominator * denom)
        merged: dict[int, int] = defaultdict(int)
        for f, (layer, denom) in layers.items():
            k = firsts[f].numerator * (lcm // (firsts[f].denominator * denom))
            for state, w in layer.items():
                merged[state] += w * k
        out.append(Layer._lazy(dict(merged), lcm, eng.decode))
    return out


class Forecast(Distribution):
    """An exact :class:`~owsnb.kernel.Distribution` of an engagement's outcome, with per-unit detail.

    Attributes:
        details: one dict per unit: P(destroyed), P(damaged or worse), expected Endurance.
        notes: assumptions the forecast makes (shown with it).
    """

    __slots__ = ("details", "notes", "rules")

    def __init__(
        self,
        probs: Any,
        label: str = "",
        details: Sequence[Mapping[str, Any]] = (),
        notes: Sequence[str] = (),
        rules: Sequence[str] = (),
    ):
        super().__init__(probs, label)
        self.details = [dict(r) for r in details]
        self.notes = list(notes)
        self.rules = tuple(rules)

    def unit(self, unit_id: str) -> dict[str, Any]:
        """The detail row of one unit."""
        for r in self.details:
            if r["unit"] == unit_id:
                return r
        raise KeyError(f"no unit {unit_id!r} in this forecast")

    def record(self) -> Any:
        """The forecast as a result: the exact distribution, one row per unit, its notes."""
        from owsnb.kernel.result import Result

        cols = [
            "unit",
            "side",
            *(["by"] if any("by" in r for r in self.details) else []),
            "P(destroyed)",
            "P(damaged or worse)",
            "E[endurance]",
        ]
        return Result(
            self.label or "forecast",
            {},
            list(self.rules),
            lines=list(self.notes),
            columns=cols if self.details else [],
            table=[{c: _fmt(r.get(c, "")) for c in cols} for r in self.details],
            charts={self.label or "outcome": dict(self.rows())},
        )

    def _repr_html_(self) -> str:
        return self.record()._repr_html_()


def _fmt(v: Any) -> str:
    if isinstance(v, Fraction):
        return f"{float(v):.1%}" if v <= 1 else f"{float(v):.2f}"
    return str(v)


def summarise(
    spec: EngagementSpec, final: Layer, *, label: str, notes: Sequence[str] = ()
) -> Forecast:
    """A :class:`Forecast` from a final layer: outcome classes and per-unit rows."""
    outcome: dict[str, int] = defaultdict(int)
    for (_, _, winner), w in final.weights.items():
        key = (
            "engagement continues"
            if winner is None
            else (
                f"{winner} wins (attacker)"
                if winner == spec.attacker
                else f"{winner} wins (defender)"
            )
        )
        outcome[key] += w
    rows = []
    for i, u in enumerate(spec.order):
        card = spec.cards[u]
        rows.append(
            {
                "unit": u,
                "side": card.side,
                "P(destroyed)": final.prob(lambda k, i=i: k[0][i][0] <= 0),
                "P(damaged or worse)": final.prob(lambda k, i=i, c=card: c.damaged_at(k[0][i][0])),
                "E[endurance]": final.mean(lambda k, i=i: max(k[0][i][0], 0)),
            }
        )
    return Forecast(
        {k: Fraction(w, final.denom) for k, w in outcome.items()},
        label=label,
        details=rows,
        notes=notes,
        rules=(
            "OES.3",
            "OES.4",
            "OES.5",
            "OES.6",
            "OES.7",
            "OES.8",
            "OES.9",
            "OES.10",
            "AP.1-AP.6",
        ),
    )


def pair_forecast(
    spec: EngagementSpec,
    statuses: Mapping[str, tuple[int, int]],
    *,
    disabled: Iterable[str] = (),
    first: str | None = None,
    init_mods: tuple[int, int] = (2, 0),
    label: str = "",
    notes: Sequence[str] = (),
) -> Forecast:
    """Exact odds of every declared attack on its declared target in the next round, each taken
    alone (both units as they are now, the shooter firing): the fallback when the whole
    engagement is too large for a joint forecast. The distribution is the initiative (when not
    yet rolled) or the first attack of the round."""
    disabled = frozenset(disabled)
    rows = []
    first_dist = None
    order = firing_plan(spec, first or spec.attacker, 1)
    for side in order + [spec.other(s) for s in order if spec.other(s) not in order]:
        for fire in spec.fires_of(side):
            card, target = spec.cards[fire.unit], spec.cards[fire.target]
            if statuses[fire.unit][0] <= 0 or statuses[fire.target][0] <= 0:
                continue
            dist: dict[tuple[int, int], int] = {statuses[fire.target]: 1}
            denom = 1
            for key, w in weapons_fired(
                card, fire, card.damaged_at(statuses[fire.unit][0]), spec.rules
            ):
                if key in disabled or not spec.may_hit(fire.unit, w, fire.target):
                    continue
                nd: dict[tuple[int, int], int] = defaultdict(int)
                for st, pw in dist.items():
                    if st == DESTROYED:
                        nd[st] += pw * SHOT_DENOMINATOR
                        continue
                    for after, _, sw in shot_outcomes(card, w, target, st, spec.rules):
                        nd[after] += pw * sw
                dist, denom = dict(nd), denom * SHOT_DENOMINATOR
                if first_dist is None and side == (first or spec.attacker):
                    first_dist = shot_distribution(
                        card, w, target, statuses[fire.target], spec.rules
                    )
            rows.append(
                {
                    "unit": fire.target,
                    "side": target.side,
                    "by": fire.unit,
                    "P(destroyed)": Fraction(sum(w for st, w in dist.items() if st[0] <= 0), denom),
                    "P(damaged or worse)": Fraction(
                        sum(w for st, w in dist.items() if target.damaged_at(st[0])), denom
                    ),
                    "E[endurance]": Fraction(
                        sum(w * max(st[0], 0) for st, w in dist.items()), denom
                    ),
                }
            )
    if first is None:
        odds = initiative_odds(*init_mods)
        main: Any = {
            f"{spec.attacker} fires first": odds["attacker"],
            f"{spec.defender} fires first": odds["defender"],
        }
        what = "initiative odds"
    elif first_dist is not None:
        main, what = dict(first_dist), f"first attack: {first_dist.label}"
    else:
        main, what = {"no attack possible": 1}, "no attack possible"
    return Forecast(
        main,
        label=label or what,
        details=rows,
        notes=[
            *notes,
            "too many possible states for an exact joint forecast: each row is the exact odds "
            "of one "
            "declared attack on its declared target this round, taken alone",
        ],
        rules=("OES.3", "OES.4", "OES.5", "OES.6", "OES.7", "OES.8", "OES.9", "AP.1-AP.6"),
    )


def kill_chance(
    shooter: Card,
    target: Card,
    rounds: int = 3,
    *,
    retaliate: bool = False,
    shooter_status: tuple[int, int] | None = None,
    target_status: tuple[int, int] | None = None,
    slots: tuple[str, ...] = ("primary", "secondary"),
    first: str | None = None,
    init_mods: tuple[int, int] = (2, 0),
    distance: int = 1,
    rules: CombatRules = DEFAULT_RULES,
) -> Distribution:
    """The exact probability that *shooter* destroys *target* in each of the next *rounds* rounds.

    Returns a Distribution over the round of destruction (1..rounds) and ``"survives"``; its
    ``sum`` over 1..N is the chance of a kill within N rounds.

    Args:
        retaliate: the target fires back at the shooter (then the shooter may die first).
        first: who fires first (``None``: attacker, or the initiative odds when retaliating).
        distance: hexes between them (weapons reach as far as their range).

    >>> from owsnb.rules.opscale.units import Card, Weapon
    >>> gun = Weapon("primary", attack_rating=11, di=5, ap=4)
    >>> tank = Card("A", "blue", "vehicle", endurance=16, half=8, defense=4, weapons=(gun,), crew=8)
    >>> from dataclasses import replace
    >>> d = kill_chance(tank, replace(tank, id="B", side="red"), rounds=2)
    >>> float(d[1] + d[2]) > float(d[1])
    True
    """
    spec = EngagementSpec(
        attacker=shooter.side,
        defender=target.side,
        cards={shooter.id: shooter, target.id: target},
        attacks=(Fire(shooter.id, target.id, slots),),
        retaliations=(Fire(target.id, shooter.id),) if retaliate else (),
        attacking=(shooter.id,),
        defending=(target.id,),
        distance={(shooter.id, target.id): distance, (target.id, shooter.id): distance},
        rules=rules,
    )
    statuses = {
        shooter.id: shooter_status or (shooter.endurance, shooter.crew),
        target.id: target_status or (target.endurance, target.crew),
    }
    if first is None and not retaliate:
        first = shooter.side
    layers = forecast_engagement(spec, statuses, first=first, init_mods=init_mods, rounds=rounds)
    ti = spec.order.index(target.id)
    out: dict[Any, Fraction] = {}
    prev = Fraction(0)
    for r, layer in enumerate(layers, start=1):
        dead = layer.prob(lambda k: k[0][ti][0] <= 0)
        out[r] = dead - prev
        prev = dead
    out["survives"] = 1 - prev
    return Distribution(out, label=f"round in which {shooter.id} destroys {target.id}")


def binomial_stars(rolls: int, p_bonus: Fraction = Fraction(6, 10)) -> Distribution:
    """Stars earned from *rolls* experience rolls (EXP.1: a D10 of 5-10 gives a bonus).

    >>> binomial_stars(3)[3]
    Fraction(27, 125)
    """
    from math import comb

    return Distribution(
        {k: comb(rolls, k) * p_bonus**k * (1 - p_bonus) ** (rolls - k) for k in range(rolls + 1)},
        label=f"stars from {rolls} experience roll(s) (EXP.1)",
    )
