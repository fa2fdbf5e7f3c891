"""Command Cards and Event Cards (TS.1). The decks' texts are lost: the cards shipped in
``tables/cards.yaml`` are PLACEHOLDERS (ruling R32) built from a few effects the engine knows.

Decks live in the umpire's secret facts (their order is never shown to a side); a player's hand
is private to that player (its size is public); played and executed cards are public.

>>> deck = build_deck([{"id": "cease-fire", "count": 2}, {"id": "requisition", "count": 1}])
>>> deck
['cease-fire#1', 'cease-fire#2', 'requisition#1']
>>> card_id("cease-fire#2")
'cease-fire'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["build_deck", "card_id", "card_def", "EFFECTS", "find_in_hand"]

EFFECTS = ("end_engagement", "initiative", "currency", "experience", "supply_relief", "none")


def build_deck(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """One card instance per copy: ``"<id>#<n>"`` (unshuffled)."""
    return [f"{e['id']}#{i}" for e in entries for i in range(1, int(e.get("count", 1)) + 1)]


def card_id(instance: str) -> str:
    """The card's id without its copy number."""
    return instance.partition("#")[0]


def card_def(table: Mapping[str, Any], deck: str, instance: str) -> Mapping[str, Any]:
    """The table entry of a card instance (``deck``: ``"command"`` or ``"events"``)."""
    cid = card_id(instance)
    for e in table[deck]:
        if e["id"] == cid:
            return e
    raise KeyError(f"no {deck} card {cid!r}; cards: {', '.join(e['id'] for e in table[deck])}")


def find_in_hand(hand: Iterable[str], ref: str) -> str | None:
    """The hand's card matching *ref* (an instance ``"cease-fire#2"`` or an id ``"cease-fire"``)."""
    hand = list(hand)
    if ref in hand:
        return ref
    for c in hand:
        if card_id(c) == ref:
            return c
    return None
