"""Shared helpers of the OWS modules: detection and visibility, damage (9.6), expenditure
(9.5), the space dashboard (2.1.3), and the rich :class:`Result` every ``resolve`` returns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import thaw
from owsnb.kernel.errors import IllegalOrderError, refuse
from owsnb.kernel.events import Event, side_set, unit_set
from owsnb.kernel.result import Result
from owsnb.kernel.state import UMPIRE, StateLike
from owsnb.rules.ows.dice import parse_die
from owsnb.rules.ows.tables import load_tables
from owsnb.rules.ows.units import counter

__all__ = [
    "detects",
    "shot_down",
    "near_own",
    "detected",
    "watchers",
    "apply_hits",
    "spend",
    "space",
    "Roller",
    "Result",
    "option",
    "table",
    "side_of_game",
    "submit",
    "hand",
    "dist_summary",
    "legal_examples",
]

MANOEUVRE = ("ground",)


def option(state: StateLike, name: str) -> Any:
    """An OWS option in force (defaults when the state predates the option)."""
    from owsnb.rules.ows.options import OPTIONS_BY_NAME

    o = OPTIONS_BY_NAME.get(name)
    return state.options.get(name, o.default if o is not None else None)


def table(state: StateLike, name: str) -> Any:
    """A data table in force, thawed to plain dicts."""
    try:
        return thaw(state.tables[name])
    except KeyError:
        return load_tables()[name]


def detected(state: StateLike, unit: Any, side: str) -> bool:
    """Is *unit* detected by *side* now? Own units, TACSIT 1 / detection (``seen_by``), fixed
    installations (8.3.1) and emitting units (6.4.3) are."""
    if side == UMPIRE or unit.side == side:
        return True
    if side in unit.seen_by:
        return True
    c = counter(unit)
    return c.is_fixed or "emitting" in unit.markers


def watchers(state: StateLike, *units: Any) -> frozenset[str] | None:
    """Sides that may see an event naming all of *units* (``None`` = everyone).

    A unit is seen by its owner, by sides that detected it, and by everyone if fixed or emitting.
    """
    sides = set(state.sides)
    allowed = set(sides)
    for u in units:
        if u is None:
            continue
        allowed &= {s for s in sides if detected(state, u, s)}
    return None if allowed == sides else frozenset(allowed)


def legal_examples(
    handler: Any,
    state: StateLike,
    side: str,
    values: Iterable[Mapping[str, Any]],
    limit: int | None = None,
) -> list[Any]:
    """Orders of *handler* for *side*, one per mapping of parameter values in *values*, kept only
    if its validator accepts them now (the examples of a legal-order spec); at most *limit*.
    *values* may be a lazy generator: it is read only until *limit* orders are found."""
    out: list[Any] = []
    for v in values:
        o = handler.type.make(side, **v)
        try:
            handler.validate(state, o, handler.type.bind(o, state, detected=detected))
        except (IllegalOrderError, KeyError, ValueError):
            continue
        out.append(o)
        if limit is not None and len(out) >= limit:
            break
    return out


def spend(unit: Any, key: str, n: int = 1, *, rule: str = "9.5", visible_to: Any = None) -> Event:
    """Mark *n* salvos/shields of group or pool *key* expended (9.5, 2.2.2.8)."""
    sp = dict(counter(unit).spent)
    sp[key] = int(sp.get(key, 0)) + int(n)
    return unit_set(unit.id, data={"spent": sp}, rule=rule, visible_to=visible_to)


def apply_hits(
    state: StateLike,
    unit: Any,
    n: int,
    *,
    rule: str,
    cause: str = "missile",
    visible_to: Any = "auto",
) -> tuple[list[Event], int, bool]:
    """Events for *n* hits on *unit* (9.6, 2.2.3, 9.6.1, 7.2.1.4, 9.4.1).

    Returns ``(events, steps lost, countermeasures absorbed a hit)``. A unit losing its last step
    goes to the Regeneration Box (air missions, SOF) or the Attrition Box; a squadron base flips on
    its first hit and goes with its missions to the Attrition Box on the second (2.2.3); a
    multi-step ship damaged but not sunk is suppressed and its carrier missions go to the
    Regeneration Box (9.6.1).
    """
    vis = watchers(state, unit) if visible_to == "auto" else visible_to
    events: list[Event] = []
    absorbed = False
    if n <= 0 or not unit.alive:
        return events, 0, absorbed
    markers = set(unit.markers)
    if "countermeasures" in markers and cause in ("missile", "air", "artillery"):
        markers.discard("countermeasures")
        n -= 1
        absorbed = True
        events.append(unit_set(unit.id, markers=frozenset(markers), rule="7.2.1.4", visible_to=vis))
        if n <= 0:
            return events, 0, absorbed
    c = counter(unit)
    lost = min(n, unit.steps)
    if (
        cause == "missile"
        and c.category in MANOEUVRE
        and option(state, "missiles_spare_last_step")
        and lost >= unit.steps
    ):
        lost = unit.steps - 1
        if lost <= 0:
            return events, 0, absorbed
    left = unit.steps - lost
    if left <= 0:
        box = "regeneration" if c.category in ("air-mission", "sof") else "attrition"
        seers = frozenset(
            unit.seen_by | {s for s in state.sides if s != unit.side and detected(state, unit, s)}
        )
        events.append(
            unit_set(
                unit.id,
                steps=0,
                hex=None,
                box=box,
                markers=frozenset(),
                seen_by=seers,
                rule="9.6",
                visible_to=vis,
            )
        )
        if c.category == "air-base":
            for m in state.units.values():
                if m.get("base") == unit.id and m.box != "attrition":
                    events.append(
                        unit_set(
                            m.id,
                            steps=0,
                            hex=None,
                            box="attrition",
                            markers=frozenset(),
                            rule="2.2.3",
                            visible_to=m.side,
                        )
                    )
    else:
        changes: dict[str, Any] = {"steps": left}
        if c.category in ("naval",):
            changes["markers"] = frozenset(markers | {"suppressed"})
            for m in state.units.values():
                if m.get("base") == unit.id and m.hex is not None:
                    events.append(
                        unit_set(
                            m.id,
                            hex=None,
                            box="regeneration",
                            markers=frozenset(),
                            rule="9.6.1",
                            visible_to=watchers(state, m),
                        )
                    )
        elif markers != set(unit.markers):
            changes["markers"] = frozenset(markers)
        events.append(
            unit_set(
                unit.id, rule="9.6.1" if c.category == "naval" else "9.6", visible_to=vis, **changes
            )
        )
    return events, lost, absorbed


def space(state: StateLike, side: str) -> dict[str, Any]:
    """A side's space dashboard now: ``{"c2", "pnt", "isr_die", "isr_pawns"}`` (2.1.3, 7.5, 7.6)."""
    s = state.sides[side].public.get("space") or {}
    base = {"c2": 4, "pnt": "normal", "isr_die": "d10", "isr_pawns": 3}
    return {**base, **thaw(s)}


def hand(state: StateLike, side: str) -> dict[str, Any]:
    """A side's secret Player Hand (2.1.4): IO tokens, cyber cards, nuke."""
    return thaw(state.sides[side].private.get("hand") or {})


class Roller:
    """Rolls through the game's :class:`~owsnb.kernel.dice.Dice` and remembers every roll for the
    result (die, value, purpose, rule).

    A roll whose audience depends on its own result (a detection roll names a unit the roller may
    only learn of by succeeding, 8.4/8.5) is rolled for the sides that may know it already and
    widened with :meth:`reveal` once the result is known:

    >>> from owsnb.testing import fixed_dice
    >>> roll = Roller(fixed_dice([7]))
    >>> roll("d10", "theater ISR vs RED-1 (signature 7)", "8.4", frozenset({"red"}))
    7
    >>> roll.reveal({"blue"})
    >>> sorted(roll.dice.events[-1].visible_to)
    ['blue', 'red']
    """

    def __init__(self, dice: Any):
        self.dice = dice
        self.rolls: list[tuple[str, int, str, str]] = []
        self._events: list[int | None] = []  # index in dice.events of each roll's event

    def __call__(self, die: str, purpose: str, rule: str, visible_to: Any = None) -> int:
        d = parse_die(die)
        recorded = getattr(self.dice, "events", None)
        v = self.dice.roll(d, purpose=purpose, rule=rule, visible_to=visible_to)
        self.rolls.append((d, v, purpose, rule))
        self._events.append(len(recorded) - 1 if recorded is not None else None)
        return v

    def reveal(self, sides: Iterable[str], which: int = -1) -> None:
        """Let *sides* see roll *which* too (default the last); a public roll stays public."""
        i = self._events[which]
        if i is None:
            return
        self.dice.reveal(i, sides)


def dist_summary(d: Any) -> str:
    """``'0: 12.5%, 1: 50.0%, ...'`` for a Distribution."""
    return ", ".join(f"{k}: {float(p):.1%}" for k, p in d.items())


def side_of_game(game: Any, *ids: str) -> str | None:
    """The side owning the first known unit id among *ids* (for notebook helpers)."""
    for i in ids:
        u = game.state.units.get(i)
        if u is not None:
            return u.side
    return None


def submit(game: Any, order: Any) -> Result:
    """Submit *order* and return its :class:`Result` (committed, undoable, autosaved)."""
    sub = game.submit(order)
    r = sub.result
    if isinstance(r, Result):
        r.order = str(sub.order)
        return r
    return Result(str(sub.order), {"events": len(sub.events)}, [])


def prob_text(p: Fraction) -> str:
    return f"{float(p):.1%} ({p})"


def ids_text(units: Iterable[Any]) -> str:
    return ", ".join(u.id for u in units)


def set_space(state: StateLike, side: str, changes: Mapping[str, Any], rule: str) -> Event:
    """Change entries of a side's public space dashboard (2.1.3; the rest is kept)."""
    return side_set(side, "public", {"space": {**space(state, side), **dict(changes)}}, rule=rule)


def unit_of(view: Any, uid: str) -> Any:
    try:
        return view.units[uid]
    except KeyError:
        raise refuse(f"{uid!r} is not a unit this side can see", "unknown-unit", "9.9.4") from None


def seq(x: Any) -> Sequence[Any]:
    if x is None:
        return ()
    if isinstance(x, (list, tuple)):
        return x
    return (x,)


def shot_down(uid: str, visible_to: Any = None) -> Event:
    """9.7.4: an aircraft shot down goes to the Regeneration Box, its steps and markers gone
    (*visible_to*: who sees it go; ``None``, everyone)."""
    return unit_set(
        uid,
        steps=0,
        hex=None,
        box="regeneration",
        markers=frozenset(),
        rule="9.7.4",
        visible_to=visible_to,
    )


def near_own(state: StateLike, side: str) -> list[str]:
    """Labels, in order, of the hexes *side*'s units stand in or next to: example targets drawn
    from what the side knows (its own positions), never from hidden enemy ones."""
    return sorted(
        {
            state.map.label(n)
            for u in state.units_of(side)
            if u.hex is not None
            for n in (u.hex, *u.hex.neighbours())
            if n in state.map.hexes
        }
    )


def detects(side: str, u: Any, rule: str, visible_to: Any = None) -> Event:
    """*side* detects *u*: it is seen by *side* and placed at TACSIT 1 (8.4.1), by *rule*
    (*visible_to*: who learns it; ``None``, everyone)."""
    return unit_set(
        u.id,
        seen_by=u.seen_by | {side},
        markers=u.markers | {"tacsit1"},
        rule=rule,
        visible_to=visible_to,
    )
