"""Vectorised Monte Carlo of OWS adjudications: many replications of one engagement at once (numpy).

The per-event rule code rolls one die at a time through the game's :class:`~owsnb.kernel.dice.Dice`
(every roll an event). For research questions — "what are the odds of this plan?" — this module
rolls the *same* adjudication for ``n`` replications at once, as numpy arrays, from the *same* pure
plan objects the rule code uses: the strike's :class:`~owsnb.rules.ows.strike.SalvoPlan` list from
:func:`~owsnb.rules.ows.strike.allocate` or a :class:`~owsnb.rules.ows.strike.StrikePreview`
(9.2-9.2.1.2, 9.9.4.1, 2.1.1.3), and the detection die from :func:`~owsnb.rules.ows.isr.local_die`
or the space dashboard (8.4, 8.5, 8.5.3), and the ground combat's
:class:`~owsnb.rules.ows.ground.Combat` set-up (odds column, shifts, die changes, 10.15.9) read
through the GCAT's own row and cell functions. Hit tables come from
:func:`~owsnb.rules.ows.dice.hits`, so criticals and their cap are defined in one place.

Every engagement has ``sample(n, seed)`` (a dict of ``(n, targets)`` integer arrays: the outcomes of
``n`` independent replications) and ``exact()`` (the rule code's exact distributions of the same
outcomes), so a sample can always be checked against the preview. The same seed gives the same
sample (numpy ``PCG64``).

>>> e = strike_engagement(salvos=["d10"] * 3, grey_shields=5, red_shield=5)
>>> [p.die for p in e.plans]                      # the plans allocate() makes (9.2.1.1)
['d8', 'd8', 'd10']
>>> out = e.sample(100_000, seed=1)
>>> out["hits"].shape
(100000, 1)
>>> exact = float(e.exact()["hits"][0][0])
>>> bool(abs((out["hits"][:, 0] == 0).mean() - exact) < 0.01)
True
>>> bool((e.sample(1000, seed=7)["hits"] == e.sample(1000, seed=7)["hits"]).all())
True

``owsnb.analysis.engagement_sweep`` runs these over parameter grids into an ``xarray.Dataset``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from owsnb.kernel.dist import Distribution
from owsnb.rules.ows.dice import hits as _hits
from owsnb.rules.ows.dice import parse_die, sides, success_probability
from owsnb.rules.ows.tables import load_tables

__all__ = [
    "Engagement",
    "StrikeEngagement",
    "DetectionEngagement",
    "rng_of",
    "roll",
    "hits_table",
    "sample_salvos",
    "steps_lost",
    "strike_engagement",
    "detection_engagement",
    "GcatEngagement",
    "gcat_engagement",
    "GCAT_OUTCOMES",
    "frequencies",
    "exact_array",
]


def rng_of(seed: Any) -> np.random.Generator:
    """A ``numpy.random.Generator`` (PCG64) from an int seed, a ``SeedSequence`` or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(seed))


def roll(rng: np.random.Generator, die: str, shape: int | tuple[int, ...]) -> np.ndarray:
    """Rolls of *die* (faces 1..n, uniform) in an array of *shape* (``uint8``).

    >>> r = roll(rng_of(0), "d6", (4, 3))
    >>> r.shape, int(r.min()) >= 1, int(r.max()) <= 6
    ((4, 3), True, True)
    """
    n = sides(die)
    return rng.integers(1, n + 1, size=shape, dtype=np.uint8)


def hits_table(die: str, red: int, critical: bool = True) -> np.ndarray:
    """Hits by roll (index = roll, 0 unused) against a red shield, from :func:`~owsnb.rules.ows.dice.hits`
    (2.1.1.3); a red shield of 0 or less scores one hit whatever the roll (as ``_roll_salvo``).

    >>> hits_table("d12", 4).tolist()
    [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    """
    n = sides(die)
    return np.array(
        [0] + [(_hits(r, red, critical=critical) if red > 0 else 1) for r in range(1, n + 1)],
        dtype=np.int8,
    )


def _plan_key(p: Any) -> tuple:
    return (
        p.die,
        tuple(p.layers),
        int(p.red),
        bool(p.critical),
        tuple(p.cap) if p.cap is not None else None,
    )


def sample_salvos(plans: Sequence[Any], n: int, seed: Any = None) -> np.ndarray:
    """Hits of every salvo in *n* replications: an ``(n, len(plans))`` ``int8`` array.

    Each salvo is rolled as the rule code rolls it (``strike._roll_salvo``): an intercepting CAP
    first (9.9.4.1: the salvo is lost if the CAP die meets or beats the salvo's defence), then one roll
    of the salvo's die per grey layer (9.2, 9.2.1.2: stopped unless it meets or beats the shield), then
    one roll against the red shield (2.1.1.3, criticals). Identical plans are rolled together.

    Args:
        plans: :class:`~owsnb.rules.ows.strike.SalvoPlan` objects (``allocate`` / a preview's plans).
        n: replications.
        seed: a seed or a numpy Generator.
    """
    rng = rng_of(seed)
    out = np.zeros((n, len(plans)), dtype=np.int8)
    groups: dict[tuple, list[int]] = {}
    for i, p in enumerate(plans):
        groups.setdefault(_plan_key(p), []).append(i)
    for (die, layers, red, critical, cap), idx in groups.items():
        k = len(idx)
        alive = np.ones((n, k), dtype=bool)
        if cap is not None:
            alive &= roll(rng, cap[0], (n, k)) < int(cap[1])
        for v in layers:
            alive &= roll(rng, die, (n, k)) >= int(v)
        h = hits_table(die, red, critical)[roll(rng, die, (n, k))]
        out[:, idx] = np.where(alive, h, 0)
    return out


def steps_lost(
    hits: Any, steps: int, *, countermeasures: bool = False, spare_last_step: bool = False
) -> Any:
    """Steps a unit with *steps* loses to *hits* missile hits (9.6, ``common.apply_hits``): Active &
    Passive Countermeasures absorb the first hit (7.2.1.4); never more than it has; with the 9.4.1
    option missiles cannot take a manoeuvre unit's last step. Works on numbers and numpy arrays.

    >>> steps_lost(3, 2), steps_lost(1, 2, countermeasures=True), steps_lost(2, 2, spare_last_step=True)
    (2, 0, 1)
    """
    h = np.maximum(np.asarray(hits) - (1 if countermeasures else 0), 0)
    top = max(int(steps) - (1 if spare_last_step else 0), 0)
    out = np.minimum(h, top)
    return int(out) if np.ndim(out) == 0 else out


class Engagement:
    """One adjudication, replicable: ``sample(n, seed)`` and its exact ``exact()`` distributions.

    Attributes:
        kind: ``"strike"``, ``"detection"``...
        targets: ids of what the outcomes are about (one column each).
        outcomes: names of the sampled outcomes (``hits``, ``steps_lost``...).
        rules: paragraphs applied.
    """

    kind = "engagement"
    targets: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    def sample(
        self, n: int, seed: Any = None
    ) -> dict[str, np.ndarray]:  # pragma: no cover - interface
        """``{outcome: (n, len(targets)) int array}``."""
        raise NotImplementedError

    def exact(self) -> dict[str, list[Distribution]]:  # pragma: no cover - interface
        """``{outcome: [exact Distribution per target]}``."""
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """Plain parameters (for Dataset attrs)."""
        return {"kind": self.kind, "targets": list(self.targets)}


# -- strike (9.2-9.9) --------------------------------------------------------------------------------
@dataclass(frozen=True)
class StrikeEngagement(Engagement):
    """A strike as planned: the salvo plans (one per salvo, each naming its target) and what the
    targets can lose.

    Outcomes per target: ``hits`` (9.2, 2.1.1.3), ``steps_lost`` (9.6, 7.2.1.4, 9.4.1) and ``killed``
    (1 if it lost its last step).
    """

    plans: tuple[Any, ...]
    steps: Mapping[str, int] = field(default_factory=dict)
    countermeasures: Mapping[str, bool] = field(default_factory=dict)
    spare_last_step: Mapping[str, bool] = field(default_factory=dict)
    preview: Any = None

    kind = "strike"
    outcomes = ("hits", "steps_lost", "killed")

    @property
    def targets(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(dict.fromkeys(p.target or "target" for p in self.plans))

    @property
    def rules(self) -> tuple[str, ...]:  # type: ignore[override]
        if self.preview is not None:
            return tuple(self.preview.rules)
        return ("9.2", "9.2.1", "2.1.1.3")

    def _steps(self, t: str) -> int:
        return int(self.steps.get(t, 99))

    def _lost(self, t: str, h: Any) -> Any:
        return steps_lost(
            h,
            self._steps(t),
            countermeasures=bool(self.countermeasures.get(t)),
            spare_last_step=bool(self.spare_last_step.get(t)),
        )

    def sample(self, n: int, seed: Any = None) -> dict[str, np.ndarray]:
        """Hits, steps lost and kills of *n* replications, one column per target."""
        per_salvo = sample_salvos(self.plans, n, seed)
        tg = self.targets
        hits = np.zeros((n, len(tg)), dtype=np.int16)
        for j, t in enumerate(tg):
            cols = [i for i, p in enumerate(self.plans) if (p.target or "target") == t]
            hits[:, j] = per_salvo[:, cols].sum(axis=1, dtype=np.int16)
        lost = np.stack([self._lost(t, hits[:, j]) for j, t in enumerate(tg)], axis=1).astype(
            np.int16
        )
        killed = np.stack(
            [(lost[:, j] >= self._steps(t)) & (self._steps(t) > 0) for j, t in enumerate(tg)],
            axis=1,
        ).astype(np.int8)
        return {"hits": hits, "steps_lost": lost, "killed": killed}

    def exact(self) -> dict[str, list[Distribution]]:
        """Exact distributions: the preview's hits (``salvo_distribution`` summed per target)."""
        out: dict[str, list[Distribution]] = {"hits": [], "steps_lost": [], "killed": []}
        for t in self.targets:
            if self.preview is not None and t in self.preview.targets:
                h = self.preview.targets[t]
            else:
                h = Distribution.sum(
                    p.distribution() for p in self.plans if (p.target or "target") == t
                )
            lost = h.map(lambda x, t=t: self._lost(t, x), label=f"steps lost by {t}")
            out["hits"].append(h)
            out["steps_lost"].append(lost)
            top = self._steps(t)
            out["killed"].append(
                lost.map(lambda x, top=top: int(x >= top and top > 0), label=f"{t} killed")
            )
        return out

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "salvos": [
                {
                    "die": p.die,
                    "base_die": p.base_die or p.die,
                    "layers": list(p.layers),
                    "red": p.red,
                    "critical": p.critical,
                    "cap": list(p.cap) if p.cap else None,
                    "target": p.target,
                    "source": p.source,
                }
                for p in self.plans
            ],
            "steps": {t: self._steps(t) for t in self.targets},
        }


def strike_engagement(
    game: Any = None,
    target: str = "target",
    salvos: Sequence[str] = ("d10",),
    grey_shields: int | Sequence[int] | None = 0,
    *,
    red_shield: int = 4,
    cap: int | Sequence[str] = 0,
    excess: str | None = None,
    critical: bool = True,
    steps: int | None = None,
    countermeasures: bool = False,
    side: str | None = None,
    cap_die: str = "d10",
    salvo_defence: int = 5,
) -> StrikeEngagement:
    """A strike to replicate: what-if dice (``game=None``) or a strike read from a game (through the
    view of the side that strikes, as its preview is).

    Args:
        game: ``None`` for a what-if; else a Game (or a state/view) read exactly as
            :func:`owsnb.rules.ows.strike.preview` reads it (sources, modifiers, shields, CEC, CAP).
        target: the target id (what-if: any label).
        salvos: dice (``["d10"] * 3``) or, with a game, salvo tokens ``"DDG-1:tlam"``.
        grey_shields: what-if: a number of grey shields of value 6, or a list of values; with a game:
            as in ``strike.preview`` (``None`` = every shield that can cover the target).
        red_shield: what-if red shield (2.2.2.3.1).
        cap: what-if: number of CAP interceptors (the first salvos, *cap_die* vs *salvo_defence*,
            9.9.4.1); with a game: a number or CAP mission ids.
        excess: ``"demote"`` (9.2.1.1) or ``"layered"`` (9.2.1.2); default the game's option / demote.
        critical: what-if criticals (R2).
        steps: what-if steps of the target (default: unlimited, so steps lost = hits).
        countermeasures: what-if Active & Passive Countermeasures on the target (7.2.1.4).

    >>> e = strike_engagement(salvos=["d10"] * 3, grey_shields=[6] * 5, excess="layered", steps=2)
    >>> [p.layers for p in e.plans], e.outcomes
    ([(6, 6), (6, 6), (6,)], ('hits', 'steps_lost', 'killed'))
    """
    from owsnb.rules.ows import strike

    salvos = [salvos] if isinstance(salvos, str) else list(salvos)
    if game is None:
        vals = [6] * grey_shields if isinstance(grey_shields, int) else list(grey_shields or ())
        if not isinstance(cap, int):
            raise ValueError(f"a what-if takes a number of CAP interceptors, not {cap!r} (9.9.4.1)")
        plans = strike.allocate(
            [parse_die(d) for d in salvos],
            vals,
            excess=excess or "demote",
            red=int(red_shield),
            critical=critical,
        )
        plans = [
            replace(p, target=target, cap=(cap_die, int(salvo_defence)) if i < int(cap) else None)
            for i, p in enumerate(plans)
        ]
        return StrikeEngagement(
            tuple(plans),
            {target: int(steps) if steps is not None else 99},
            {target: bool(countermeasures)},
        )
    from owsnb.rules.ows.common import option
    from owsnb.rules.ows.units import counter

    pv = strike.preview(game, target, list(salvos), grey_shields, cap=cap, side=side, excess=excess)
    truth = game.state if hasattr(game, "state") else game
    if (
        side is None
    ):  # whose view the preview used: the first salvo source's owner (else the umpire's)
        side = next(
            (
                truth.units[t.split(":")[0]].side
                for t in salvos
                if ":" in t and t.split(":")[0] in truth.units
            ),
            None,
        )
    seen = strike._state_of(game, side)
    st, cm, spare = {}, {}, {}
    for t in pv.targets:
        u = seen.units.get(t)
        if u is not None:
            st[t], cm[t] = int(u.steps), "countermeasures" in u.markers
            spare[t] = (
                bool(option(seen, "missiles_spare_last_step")) and counter(u).category == "ground"
            )
        else:  # infrastructure (9.9.7): capacity left, as the preview reads it
            tg = strike._target(seen, side or next(iter(seen.sides)), t)
            st[t], cm[t] = int(tg.steps), False
    return StrikeEngagement(tuple(pv.plans), st, cm, spare, pv)


# -- detection (8.4, 8.5) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DetectionEngagement(Engagement):
    """Detection rolls: one roll of a die against each target's signature (meet or beat, 2.2.1).

    Theater ISR (8.4) rolls the side's dashboard ISR die against every unit with a theater signature
    in the hex; local detection (8.5) rolls one cooperative die per target (8.5.3, R3: best die
    promoted once per extra sensor, the D12 cap; ASW and stealth caps, target modifiers) as
    :func:`~owsnb.rules.ows.isr.local_die` computes it. Outcome per target: ``detected`` (0/1).
    A signature of 0 is a detection without a roll (8.3.2.1: a ground unit in the open).
    """

    rolls: tuple[tuple[str, str, int], ...]  # (target, die, signature)
    mode: str = "local"

    kind = "detection"
    outcomes = ("detected",)

    @property
    def targets(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(t for t, _, _ in self.rolls)

    @property
    def rules(self) -> tuple[str, ...]:  # type: ignore[override]
        return ("8.4", "8.4.1", "2.2.1") if self.mode == "theater" else ("8.5", "8.5.3", "2.2.1")

    def sample(self, n: int, seed: Any = None) -> dict[str, np.ndarray]:
        rng = rng_of(seed)
        out = np.zeros((n, len(self.rolls)), dtype=np.int8)
        for j, (_, die, sig) in enumerate(self.rolls):
            out[:, j] = roll(rng, die, n) >= int(sig)
        return {"detected": out}

    def exact(self) -> dict[str, list[Distribution]]:
        return {
            "detected": [
                Distribution.bernoulli(
                    success_probability(die, sig), label=f"{t} detected ({die} vs {sig})"
                ).map(int)
                for t, die, sig in self.rolls
            ]
        }

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "mode": self.mode, "rolls": [list(r) for r in self.rolls]}


def detection_engagement(
    game: Any = None,
    side: str | None = None,
    hex: str | None = None,
    sensors: Sequence[str] | None = None,
    *,
    dice: Sequence[str] = ("d8",),
    signature: int = 7,
    sensing: str = "n-1",
    limit: str | None = "auto",
    targets: int = 1,
) -> DetectionEngagement:
    """Detection rolls to replicate.

    With a *game*: theater ISR of *side* on *hex* (``sensors=None``, 8.4: the dashboard die against
    every undetected enemy unit there with a theater signature) or a local detection by *sensors*
    (8.5: one cooperative roll per undetected enemy unit they can sense) — the targets and dice the
    rule code would roll. What-if (``game=None``): sensors with *dice* cooperating against *targets*
    units of *signature* (8.5.3: ``isr.cooperative_die``; *limit* ``"auto"`` = no cap, as against a
    surface or ground target; pass ``"d12"`` for ASW or stealth aircraft, 8.5.3). A detection read
    from a game names undetected units: it is the umpire's analysis (as ``isr.local_preview``
    is), not something to show the searching side.

    >>> detection_engagement(dice=["d8", "d10", "d8"], signature=8).rolls
    (('target', 'd16', 8),)
    >>> detection_engagement(dice=["d8", "d10", "d8"], signature=8, limit="d12").rolls
    (('target', 'd12', 8),)
    """
    from owsnb.rules.ows import isr

    dice = [dice] if isinstance(dice, str) else list(dice)
    if game is None:
        lim = None if limit == "auto" else limit  # 8.5.3: the D12 cap is for ASW and stealth
        die = isr.cooperative_die([parse_die(d) for d in dice], rule=sensing, limit=lim)
        names = ["target"] if targets == 1 else [f"target-{i + 1}" for i in range(int(targets))]
        return DetectionEngagement(tuple((t, die, int(signature)) for t in names), "local")
    from owsnb.rules.ows.common import space

    if side is None or hex is None:
        raise ValueError("a detection read from a game needs the searching side= and the hex=")
    state = game.state if hasattr(game, "state") else game
    h = state.map.hex(hex)
    rolls = []
    if sensors is None:
        die = parse_die(space(state, side)["isr_die"])
        for u in isr.theater_targets(state, side, h):
            rolls.append((u.id, die, 0 if isr.in_the_open(state, u) else isr._signature(u)))
        return DetectionEngagement(tuple(rolls), "theater")
    sens = [state.units[s] for s in sensors]
    for u in isr.local_targets(state, side, h):
        local, _ = isr.local_die(state, side, sens, u)
        if local is not None:
            auto = isr.in_the_open(state, u) and any(isr._isr_asset(x, u) for x in sens)
            rolls.append((u.id, local, 0 if auto else isr._signature(u)))
    return DetectionEngagement(tuple(rolls), "local")


# -- ground combat: the GCAT (10.15.9) ------------------------------------------------------------------
GCAT_OUTCOMES = (
    "row",
    "attacker_steps",
    "defender_steps",
    "attacker_retreat",
    "defender_retreat",
    "exploit",
)
"""What a GCAT read gives (10.15.9.1.6): the row, A#, D#, the R# of each side, EXP (0/1)."""
_RESULT_KEYS = {
    "attacker_steps": "a",
    "defender_steps": "d",
    "attacker_retreat": "ar",
    "defender_retreat": "dr",
    "exploit": "exp",
}


@dataclass(frozen=True)
class GcatEngagement(Engagement):
    """One GCAT read: the attacker lead unit's *die* (after every die change) rolled against the
    defender's *shield*, on odds *column* (after every column shift) of the table *gcat*.

    The row and cell come from :func:`~owsnb.rules.ows.ground.row_index` and the table's cells, the
    result from :func:`~owsnb.rules.ows.ground.parse_result` — the rule code's own functions — so
    the outcomes are the cell *as read*: the losses and retreats the table orders, before Delay,
    retreat cancelling or trading (10.8, 10.15.9.1.6), which depend on the players' choices.
    """

    gcat: Mapping[str, Any]
    column: int
    die: str
    shield: int
    hex: str = "hex"
    combat: Any = None

    kind = "gcat"
    outcomes = GCAT_OUTCOMES
    rules = ("10.15.9", "10.15.9.1.6")

    @property
    def targets(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.hex,)

    def _cells(self) -> list[str]:
        from owsnb.rules.ows import ground

        n = sides(self.die)
        return [ground.gcat_cell(self.gcat, self.column, r, self.shield) for r in range(1, n + 1)]

    def _tables(self) -> dict[str, np.ndarray]:
        from owsnb.rules.ows import ground

        n = sides(self.die)
        rows = [ground.row_index(r, self.shield, self.gcat["rows"]) for r in range(1, n + 1)]
        cells = [ground.parse_result(c) for c in self._cells()]
        out = {"row": np.array([0, *rows], dtype=np.int16)}
        for name, key in _RESULT_KEYS.items():
            out[name] = np.array([0, *(int(c[key]) for c in cells)], dtype=np.int16)
        return out

    def sample(self, n: int, seed: Any = None) -> dict[str, np.ndarray]:
        r = roll(rng_of(seed), self.die, n)
        return {k: t[r][:, None] for k, t in self._tables().items()}

    def exact(self) -> dict[str, list[Distribution]]:
        """Exact distributions: the rule code's ``gcat_distribution`` of cells, read through ``parse_result``."""
        from owsnb.rules.ows import ground

        cells = (
            self.combat.distribution()
            if self.combat is not None
            else ground.gcat_distribution(self.gcat, self.column, self.die, self.shield)
        )
        out = {
            "row": [
                Distribution.die(sides(self.die)).map(
                    lambda r: ground.row_index(r, self.shield, self.gcat["rows"]), label="GCAT row"
                )
            ]
        }
        for name, key in _RESULT_KEYS.items():
            out[name] = [cells.map(_result_part(key), label=name)]
        return out

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "column": self.gcat["columns"][self.column],
            "die": self.die,
            "shield": self.shield,
            "rows": [r.get("name", str(i)) for i, r in enumerate(self.gcat["rows"])],
            "cells": list(dict.fromkeys(self._cells())),
        }


def _ground() -> Any:
    try:
        from owsnb.rules.ows import ground
    except ImportError as e:
        raise ImportError(
            "OWS ground combat (10.15, owsnb.rules.ows.ground) is not available in this installation"
        ) from e
    return ground


def _result_part(key: str) -> Callable[[Any], int]:
    """One number of a GCAT result cell (10.15.9.1.6), e.g. the defender's step losses."""
    parse = _ground().parse_result
    return lambda cell: int(parse(cell)[key])


def gcat_engagement(
    game: Any = None,
    hex: str | None = None,
    with_: Sequence[str] = (),
    *,
    lead: str | None = None,
    support: Sequence[str] = (),
    def_support: Sequence[str] = (),
    odds: str = "1:1",
    shift: int = 0,
    die: str = "d10",
    die_change: int = 0,
    shield: int = 4,
    gcat: Mapping[str, Any] | None = None,
    **kw: Any,
) -> GcatEngagement:
    """A GCAT read to replicate (10.15.9).

    With a *game*: the attack on *hex* by the units *with_* set up exactly as
    :func:`owsnb.rules.ows.ground.preview` sets it up (odds, lead units, supporting arms, quality,
    supply, every shift and die change). What-if (``game=None``): *odds* (``"3:1"``) shifted *shift*
    columns (``ground.column_index``), the attacker's *die* changed *die_change* rungs, against
    *shield*, on the rule set's GCAT (or *gcat*).

    >>> e = gcat_engagement(odds="2:1", die="d10", shield=4)
    >>> e.describe()["column"], e.exact()["defender_steps"][0].mean() > 0
    ('2:1', True)
    """
    from owsnb.rules.ows.dice import shift as _shift

    ground = _ground()
    if game is not None:
        cb = ground.preview(
            game,
            hex,
            list(with_ or kw.get("with", ())),
            lead=lead,
            support=support,
            def_support=def_support,
        )
        return GcatEngagement(cb.gcat, cb.column, cb.die, int(cb.shield), cb.label, cb)
    if gcat is None:
        gcat = load_tables()["gcat"]
    col = ground.column_index(odds, list(gcat["columns"]), int(shift))
    return GcatEngagement(
        gcat, col, _shift(parse_die(die), int(die_change)), int(shield), str(hex or "hex")
    )


def frequencies(sample: np.ndarray, values: Sequence[int]) -> np.ndarray:
    """Relative frequency of each of *values* in every column of an ``(n, k)`` sample: ``(k, len(values))``."""
    n = sample.shape[0]
    return np.stack([(sample == v).sum(axis=0) / n for v in values], axis=-1)


def exact_array(dists: Sequence[Distribution], values: Sequence[int]) -> np.ndarray:
    """Exact probabilities of *values* per distribution: ``(len(dists), len(values))`` floats."""
    return np.array([[float(d.get(v, Fraction(0))) for v in values] for d in dists])
