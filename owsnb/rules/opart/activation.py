"""Activation cards and the turn (§10, §12).

Each division or group of assets on the battlefield has an activation card in the pack. At the
start of every turn the pack is shuffled face down; cards are turned one at a time and the
formation named is activated (its stands may move and fight). When every card has been turned
the turn ends. A day of battle is 12 turns.

The order of the cards still face down is the only hidden information of the game: it lives in
the umpire's ``secret`` facts and the shuffle is recorded visible to nobody but the umpire.
Formations whose every stand has left the battlefield lose their card (ruling R23).

§10: "When a division or group of assets is deployed onto the tabletop, its activation card is
added to the pack". A scenario's ``rules.arrivals`` (formation -> turn) holds formations back:
their stands wait off the table (box ``arriving``) and are deployed at the start of that turn,
before the shuffle, at their scenario hexes (ruling R30: a hex held by the enemy or full, the
nearest hex free of enemy stands where the stand may stack); from then on the card is in the pack.

>>> day_and_turn(1), day_and_turn(12), day_and_turn(13)
((1, 1), (1, 12), (2, 1))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.events import Event, note, state_set, unit_set
from owsnb.kernel.state import GameState, StateLike
from owsnb.rules.opart.stands import formation_stands, formations

__all__ = [
    "TURNS_PER_DAY",
    "day_and_turn",
    "deployed",
    "arrival_events",
    "new_turn_events",
    "turn_card_events",
    "current_side",
    "face_down",
    "next_card",
]

TURNS_PER_DAY = 12
"""§12: a day of battle lasts for 12 turns."""


def day_and_turn(turn: int) -> tuple[int, int]:
    """(day, turn of the day) of game turn *turn* (§12)."""
    d, t = divmod(int(turn) - 1, TURNS_PER_DAY)
    return d + 1, t + 1


def deployed(state: StateLike) -> list[str]:
    """Formations with at least one stand on the battlefield, in id order (§10)."""
    return [fid for fid in sorted(formations(state)) if formation_stands(state, fid)]


def arrival_events(state: GameState, turn: int) -> list[Event]:
    """Formations due on *turn* (``public["arrivals"]``) are deployed onto the tabletop (§10, R30)."""
    from owsnb.kernel.reduce import apply_all
    from owsnb.rules.opart.movement import stacking_refusal

    due = sorted(f for f, t in (state.public.get("arrivals") or {}).items() if int(t) == turn)
    events: list[Event] = []
    for fid in due:
        for u in sorted(formation_stands(state, fid, on_map=False), key=lambda x: x.id):
            if u.box != "arriving":
                continue
            entry = state.map.hex(u.get("entry"))
            spot = next(
                (
                    h
                    for h in sorted(state.map.hexes, key=lambda h: (h.distance(entry), h))
                    if stacking_refusal(state, u, h) is None
                ),
                None,
            )
            if spot is None:  # no room anywhere: it waits another turn
                continue
            ev = [
                unit_set(u.id, hex=spot, box=None, rule="10"),
                note(
                    f"{u.id} ({_title(state, fid)}) arrives at {state.map.label(spot)}", rule="10"
                ),
            ]
            events += ev
            state = apply_all(state, ev)
    return events


def current_side(state: StateLike) -> str | None:
    """The side of the formation whose card is face up, if any."""
    card = state.public.get("card")
    if not card:
        return None
    return formations(state).get(card, {}).get("side")


def _title(state: StateLike, fid: str) -> str:
    return str(formations(state).get(fid, {}).get("title", fid))


def new_turn_events(state: StateLike, turn: int, dice: Any) -> list[Event]:
    """A new turn: per-turn markers cleared, the pack shuffled and its first card turned (§12.1-2).

    The shuffle is visible only to the umpire; only the face-up card is public.
    """
    events: list[Event] = []
    for u in state.units.values():
        if u.markers & {"moved", "fired"}:
            events.append(unit_set(u.id, markers=u.markers - {"moved", "fired"}, rule="12.5"))
    pack = deployed(state)
    order = (
        dice.shuffle(pack, purpose=f"activation cards, turn {turn}", rule="12.1", visible_to=())
        if pack
        else []
    )
    d, t = day_and_turn(turn)
    events.append(
        state_set(
            "public", {"engaged": [], "turned": [], "card": None, "pack": len(order)}, rule="12.1"
        )
    )
    events.append(state_set("secret", {"deck": list(order)}, rule="12.1"))
    events.append(
        note(
            f"Day {d}, turn {t}: the pack of {len(order)} activation cards is shuffled", rule="12.1"
        )
    )
    return events + turn_card_events(state, list(order), [])


def turn_card_events(state: StateLike, deck: list[str], turned: list[str]) -> list[Event]:
    """Turn the next card of *deck* whose formation is still on the battlefield (§12.2-3).

    Returns no events if the pack is exhausted (the turn ends, §12.4).
    """
    deck = list(deck)
    turned = list(turned)
    while deck:
        fid = deck.pop(0)
        if not formation_stands(state, fid):
            continue
        turned.append(fid)
        return [
            state_set("secret", {"deck": deck}, rule="12.2"),
            state_set("public", {"card": fid, "turned": turned}, rule="12.2"),
            note(f"Card {len(turned)}: {_title(state, fid)} is activated", rule="12.2"),
        ]
    return []


def face_down(state: StateLike) -> list[str]:
    """Formations whose cards are still face down this turn, as anyone at the table can tell
    (the pack's formations not yet turned and still on the battlefield), in id order."""
    turned = set(state.public.get("turned", ()))
    return [fid for fid in deployed(state) if fid not in turned]


def next_card(state: StateLike) -> Distribution:
    """The exact distribution of the next card turned (§12.2-3), from public facts only.

    Every face-down card is equally likely to be next; when none is left the turn ends and the
    first card of the next turn comes from a fresh shuffle of every formation on the battlefield.

    >>> from types import SimpleNamespace as NS
    >>> st = NS(public={"formations": {"a": {}, "b": {}, "c": {}}, "turned": ["b"]}, units={
    ...     k: NS(hex=(0, 0), get=lambda key, f=k: f) for k in "abc"})
    >>> dict(next_card(st))
    {'a': Fraction(1, 2), 'c': Fraction(1, 2)}
    """
    pack = face_down(state) or deployed(state)
    if not pack:
        return Distribution.point(None, label="next card (§12)")
    return Distribution(
        {fid: Fraction(1, len(pack)) for fid in pack}, label="next activation card (§12)"
    )
