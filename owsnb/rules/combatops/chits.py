"""Reinforcement chits and variable game length (14.0-14.2, 15.0, errata 10.0).

One cup holds numbered chits 1-10: Blue owns 1-5 and Red 6-10 (counter sheet, errata 10.0). Before
play each player secretly puts each of his reinforcements on one of his own chits; in a double-
length game a reinforcement is marked for the first (``-``) or second (``+``) pass through the cup
(14.0 ¶2) and each pass has its own assignment. In step 2 of his half-turn the phasing player
draws one chit: his own chit brings what he put there in this pass (it arrives in this half-turn's
movement phase); the opponent's chit cancels what the opponent put there for this pass (14.0).
Each game turn both players draw, so the cup is empty after 5 turns and is refilled for the
second pass (15.0). Drawing the end chit ("10+": chit 10 in the second pass) makes the current
player's half-turn the last of the game (15.0; option ``end_chit``).

>>> from fractions import Fraction
>>> d = draw_distribution([3, 6, 7, 10])
>>> d[10], sorted(d)
(Fraction(1, 4), [3, 6, 7, 10])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.events import Event, note, side_set, state_set, unit_set
from owsnb.kernel.state import StateLike

__all__ = [
    "ALL_CHITS",
    "chit_owner",
    "cup_for_draw",
    "draw_distribution",
    "draw_chit",
    "draw_events",
    "assignment",
    "describe",
    "preview",
]

ALL_CHITS = tuple(range(1, 11))


def chit_owner(state: StateLike, chit: int) -> str:
    """The side that owns chit number *chit* (14.0, errata 10.0)."""
    owners = state.public.get("chit_owners", {})
    return owners.get(str(chit)) or next(iter(state.sides))


def cup_for_draw(state: StateLike) -> tuple[tuple[int, ...], int]:
    """The chits in the cup for the next draw and the pass number (refilled when empty, 15.0)."""
    cup = tuple(state.public.get("cup", ALL_CHITS))
    pas = int(state.public.get("pass", 1))
    if not cup:
        return tuple(int(c) for c in state.public.get("chits", ALL_CHITS)), pas + 1
    return cup, pas


def draw_distribution(cup: Sequence[int]) -> Distribution:
    """Exact distribution of the chit drawn blind from *cup*: each equally likely (14.0)."""
    return Distribution.uniform(sorted(cup), label="chit drawn")


def draw_chit(cup: Sequence[int], dice: Any, *, side: str, pas: int) -> int:
    """Draw one chit from *cup* with the game's dice (recorded as a public ``die`` event)."""
    return int(
        dice.choice(
            sorted(cup),
            purpose=f"{side} draws a reinforcement chit (pass {pas})",
            rule="14.0",
            visible_to=None,
        )
    )


def assignment(state: StateLike, side: str, pas: int) -> Mapping[str, str]:
    """*side*'s secret assignment for pass *pas*: chit (as text) -> reinforcement letter."""
    return state.sides[side].private.get("assign", {}).get(str(pas), {})


def _end_chit(state: StateLike, chit: int, pas: int) -> bool:
    end = state.public.get("end_chit")
    if end is None:
        return False
    double = state.public.get("length", "double") == "double"
    return int(chit) == int(end) and (pas == 2 or not double)


def describe(state: StateLike, side: str, chit: int, pas: int) -> str:
    """What drawing *chit* in pass *pas* means, as *side* knows it (its own secrets only)."""
    owner = chit_owner(state, chit)
    parts = []
    if owner == side:
        letter = assignment(state, side, pas).get(str(chit))
        lost = set(state.sides[side].private.get("lost", ()))
        if letter and letter not in lost:
            parts.append(f"your reinforcement {letter} arrives")
        else:
            parts.append("nothing for you")
    else:
        parts.append(f"{owner}'s chit: cancels whatever {owner} put on it")
    if _end_chit(state, chit, pas):
        parts.append("END OF GAME chit (15.0)")
    return "; ".join(parts)


def preview(view: Any, side: str) -> Distribution:
    """Exact distribution of *side*'s next draw: ``(chit, meaning)`` outcomes (14.0, 15.0)."""
    cup, pas = cup_for_draw(view)
    return draw_distribution(cup).map(
        lambda c: (c, describe(view, side, c, pas)), label=f"{side}'s chit draw"
    )


def draw_events(state: StateLike, side: str, dice: Any) -> list[Event]:
    """Draw a chit for *side* and carry out what it means (14.0, 14.1, 15.0)."""
    cup, pas = cup_for_draw(state)
    chit = draw_chit(cup, dice, side=side, pas=pas)
    owner = chit_owner(state, chit)
    rest = tuple(c for c in cup if c != chit)
    drawn = tuple(state.public.get("drawn", ())) + (
        {"turn": state.clock.turn, "side": side, "chit": chit, "pass": pas},
    )
    events: list[Event] = [
        state_set(
            "public", {"cup": rest, "pass": pas, "drawn": drawn, "half_drawn": True}, rule="14.0"
        ),
        note(f"{side} draws chit {chit} (pass {pas}); it belongs to {owner}", rule="14.0"),
    ]
    letter = assignment(state, owner, pas).get(str(chit))
    priv = state.sides[owner].private
    lost = tuple(priv.get("lost", ()))
    if letter and letter not in lost and letter not in priv.get("received", ()):
        if owner == side:
            events += arrival_events(state, side, letter)
        else:
            events += [
                side_set(owner, "private", {"lost": lost + (letter,)}, rule="14.0"),
                note(
                    f"{side} drew your chit {chit}: reinforcement {letter} will never arrive",
                    visible_to=owner,
                    rule="14.0",
                ),
            ]
    if _end_chit(state, chit, pas):
        events += [
            state_set(
                "public",
                {"end": {"turn": state.clock.turn, "side": side, "half": state.clock.phase}},
                rule="15.0",
            ),
            note(
                f"chit {chit} is the end-of-game chit: {side}'s half-turn is the last of the game"
                if state.options.get("end_chit", "half-turn") == "half-turn"
                else f"chit {chit} is the end-of-game chit: this game turn is the last",
                rule="15.0",
            ),
        ]
    return events


def arrival_events(state: StateLike, side: str, letter: str) -> list[Event]:
    """Reinforcement *letter* of *side* arrives (14.0): units to the ``arrived`` box, or a step
    replacement token (14.1). Only the owner sees what it is."""
    priv = state.sides[side].private
    rein = priv.get("reinforcements", {}).get(letter, {})
    events: list[Event] = []
    received = tuple(priv.get("received", ())) + (letter,)
    changes: dict[str, Any] = {"received": received}
    if rein.get("replacement"):
        changes["replacements"] = tuple(priv.get("replacements", ())) + (letter,)
        what = f"a 1-step {rein['replacement']} replacement"
    else:
        from owsnb.rules.combatops.victory import baseline

        units = [state.units[uid] for uid in rein.get("units", ()) if uid in state.units]
        for u in units:
            events.append(unit_set(u.id, box="arrived", visible_to=side, rule="14.0"))
        base = dict(priv.get("baseline", {}))
        for k, v in baseline(units).items():
            base[k] = base.get(k, 0) + v
        changes["baseline"] = base
        what = ", ".join(rein.get("units", ())) or "nothing"
    events.insert(0, side_set(side, "private", changes, rule="14.0"))
    events.append(
        note(
            f"reinforcement {letter} arrives: {what} (enter it in this movement phase)",
            visible_to=side,
            rule="14.0",
        )
    )
    return events
