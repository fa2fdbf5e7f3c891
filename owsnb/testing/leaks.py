"""Leak scanning: does a payload meant for one side mention something it has not detected?

``hidden_tokens(state, side, ruleset)`` collects what the side's view does not show (as the rule
set's view policy decides); ``find_leaks(payload, tokens)`` returns every place in a payload
(nested dicts/lists, JSON text, widget state) that mentions one. Two kinds of token:

* **names** — the id and name of every unit the side may not see (face-down units contribute
  their true id and name, since only an alias may be shown), minus those also visible (a
  detected unit of the same name) and those the scenario's texts name (a teaching briefing may
  announce the enemy's order of battle: every side's view carries it). A name is matched as a
  *whole token*: not glued to a letter or digit on either side, nor to one through ``-`` or
  ``/`` — so ``G-1`` is found in ``"G-1 moved"`` or ``"unit G-1"`` but not in ``"G-10"``,
  ``"AG-1"`` or ``"G-1-2"``. Short ids are scanned too (``G-1``); names shorter than *min_len*
  are not (too generic: ``"HQ"``). Any string a caller adds (a secret note) is matched the
  same way.
* **positions** — a :class:`Position` for the hex of each unit the side's view does not show
  at all, unless that hex is known to the side otherwise: one of its own units, a detected
  enemy or a face-down counter stands there, or the caller names it in *known_hexes* (the
  side's own notes and orders). A position is matched only where a payload *places a unit*,
  never in free text (every hex of the grid, its labels and overlays legitimately reach every
  side):

  - a Leaflet marker's ``location`` (``[lat, lon]`` rounded as the map sends it,
    :func:`owsnb.widgets.geometry.point`: 5 decimals on the globe, 3 on a flat board);
  - the ``hex`` of a unit record, a mapping with a string ``id`` and a ``hex`` (kernel units,
    coded as on the wire; a note's id is a number), given as the hex's label, ``[q, r]`` or
    ``{"$h": [q, r]}``.

  Events are history (a unit stood there once) and are not scanned for positions: a hex
  holding a hidden unit now may have held a visible one when the event was written.

A third kind, **numbers** (:class:`Numbers`, from :func:`numbering`), catches counts of what the
side may not see: a side numbers only the events it saw, so a sequence number (``seq``), a batch
(``batch``), a count of events (``events``) or a revision (``state_id``, ``revision``) larger than
its own can only count hidden events or commits. Every mapping entry of those names holding a
whole number is checked, events included.

Example:
    >>> from owsnb.kernel.geo import GeoLayout
    >>> from owsnb.kernel.hexgrid import Hex
    >>> p = Position("0803", Hex(7, -1), GeoLayout("flat", 10.0, projection="simple"))
    >>> p, p.point
    ('0803', (-25.0, 60.622))
    >>> find_leaks(["G-10 moved", "AG-1", "G-1-2"], {"G-1"})
    []
    >>> find_leaks({"log": "G-1 moved to 0803"}, {"G-1", p})    # a label in text is no position
    ["'G-1' in 'G-1 moved to 0803'"]
    >>> find_leaks({"location": [-25.0, 60.622]}, {p})            # a marker on the hidden unit
    ["position '0803' in location [-25.0, 60.622]"]
    >>> find_leaks({"units": {"X": {"id": "X", "hex": {"$h": [7, -1]}}}}, {p})
    ["position '0803' in hex {'$h': [7, -1]}"]
    >>> find_leaks({"events": [{"id": "X", "hex": "0803"}]}, {p})  # history: not scanned
    []
    >>> n = Numbers(seq=4, batch=2, revision=3)
    >>> find_leaks({"state_id": 3, "events": [{"seq": 4, "batch": 2}, {"seq": 7, "batch": 5}]}, {n})
    ['number seq=7 beyond the 4 the side saw', 'number batch=5 beyond the 2 the side saw']
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.state import UMPIRE, GameState

__all__ = ["Position", "Numbers", "hidden_tokens", "numbering", "find_leaks"]

_BEFORE = r"(?<!\w)(?<!\w[-/])"
_AFTER = r"(?!\w|[-/]\w)"


class Position(str):
    """The position of a hidden unit: a hex label (the string) with its hex and map point.

    ``point`` is ``(lat, lon)`` of the hex centre rounded as the map sends it; ``None`` when the
    hex has no layout (a board with no geometry draws nothing). Equal to, and hashed as, its
    label, so token sets can be combined with ``|``, ``-`` and ``&`` as before.
    """

    hex: tuple[int, int]
    point: tuple[float, float] | None
    digits: int

    def __new__(cls, label: str, hex: Any, layout: Any = None) -> Position:  # noqa: A002
        self = super().__new__(cls, label)
        self.hex = (int(hex[0]), int(hex[1]))
        self.digits = 3 if layout is None or layout.projection == "simple" else 5
        if layout is not None:
            lon, lat = layout.centre(hex)
            self.point = (round(float(lat), self.digits), round(float(lon), self.digits))
        else:
            self.point = None
        return self

    def at(self, value: Any) -> bool:
        """Is *value* this hex: its label, ``[q, r]``, ``{"$h": [q, r]}``?"""
        if isinstance(value, str):
            return value == str(self)
        if isinstance(value, Mapping) and set(value) == {"$h"}:
            value = value["$h"]
        return _pair(value) == self.hex

    def near(self, value: Any) -> bool:
        """Is *value* this hex's centre ``[lat, lon]`` (as rounded by the map)?"""
        p = _pair(value, float)
        if p is None or self.point is None:
            return False
        tol = 0.5 * 10.0**-self.digits
        return abs(p[0] - self.point[0]) <= tol and abs(p[1] - self.point[1]) <= tol


class Numbers:
    """The largest numbers a side may be shown: the events it saw (``seq``, ``events``), the
    submissions it saw something of (``batch``) and its revision (``state_id``, ``revision``)."""

    def __init__(self, seq: int, batch: int, revision: int):
        self.limits = {
            "seq": int(seq),
            "events": int(seq),
            "batch": int(batch),
            "state_id": int(revision),
            "revision": int(revision),
        }

    def __repr__(self) -> str:
        return f"Numbers({self.limits['seq']} events, {self.limits['batch']} batches, rev {self.limits['state_id']})"

    def check(self, key: Any, value: Any) -> str | None:
        """The leak if *value* under *key* is a number beyond the side's own, else None."""
        limit = self.limits.get(key) if isinstance(key, str) else None
        if limit is None or isinstance(value, bool) or not isinstance(value, int):
            return None
        if value > limit:
            return f"number {key}={value} beyond the {limit} the side saw"
        return None


def numbering(game: Any, side: str) -> Numbers:
    """The :class:`Numbers` *side* may be shown now: the events it saw, the submissions it saw
    something of, and its revision (``game.revision(side)``).

    >>> from owsnb.rules.skirmish import example
    >>> game = example()  # the kernel's example: skirmish, seed 11, in memory
    >>> _ = game.submit("blue: move B-INF-1 0303")  # out of Red's sight
    >>> numbering(game, "red"), numbering(game, "blue")
    (Numbers(0 events, 0 batches, rev 0), Numbers(2 events, 1 batches, rev 1))
    """
    seen = [e for e in game.events[: game.cursor] if e.visible(side)]
    return Numbers(len(seen), len({e.batch for e in seen}), game.revision(side))


def _numbers(obj: Any, limits: list[Numbers], found: list[str]) -> None:
    if isinstance(obj, str):
        if obj[:1] in "{[":
            try:
                _numbers(json.loads(obj), limits, found)
            except ValueError:
                pass
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            for n in limits:
                hit = n.check(k, v)
                if hit:
                    found.append(hit)
            _numbers(v, limits, found)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            _numbers(v, limits, found)


def _pair(value: Any, typ: type = int) -> tuple[Any, Any] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        a, b = value
        ok = (int, float) if typ is float else (int,)
        if all(isinstance(x, ok) and not isinstance(x, bool) for x in (a, b)):
            return (typ(a), typ(b))
    return None


def hidden_tokens(
    state: GameState, side: str, ruleset: Any, *, min_len: int = 4, known_hexes: Iterable[Any] = ()
) -> set[str]:
    """What *side* may not know: ids and names of the units its view does not show, and the
    :class:`Position` of each unit it does not see at all (see the module docstring).

    Positions are those of *state*: scan a payload showing a past point of the history (a
    history slider, a view at ``n``) with the tokens of ``game.state_at(n)``.

    Args:
        state: the truth (at the point of the history the payload shows).
        side: a side (the umpire knows everything: no token).
        ruleset: the rule set whose ``view_unit`` decides.
        min_len: names shorter than this are not scanned (ids always are).
        known_hexes: hexes (or labels) the side knows of otherwise (its notes, its orders).
    """
    if side == UMPIRE:
        return set()
    out: set[str] = set()
    shown: list[Any] = []
    unseen: list[Any] = []
    for u in state.units.values():
        v = u if u.side == side else ruleset.view_unit(state, u, side)
        if v is not None:
            shown.append(v)
        if v is None or v.id != u.id:
            out.add(u.id)
            if u.name and len(u.name) >= min_len:
                out.add(u.name)
            if v is None and u.hex is not None:
                unseen.append(u)
    # tokens that are also visible (own units, detected units with the same name) are not leaks,
    # nor those the scenario's own texts name (its briefing is part of every side's view)
    for v in shown:
        out.discard(v.id)
        out.discard(v.name)
    out -= _named_in(getattr(state, "scenario", None), out)
    if unseen:
        m = state.map
        known = {v.hex for v in shown if v.hex is not None}
        known_labels = {h for h in known_hexes if isinstance(h, str)}
        known |= {h for h in known_hexes if not isinstance(h, str)}
        layout = m.layout
        if layout is None:
            # a board with no geometry is drawn flat (as owsnb.widgets.mapview does)
            layout = GeoLayout(m.offset.orientation, 10.0, projection="simple")
        for u in unseen:
            if u.hex not in known and m.label(u.hex) not in known_labels:
                out.add(Position(m.label(u.hex), u.hex, layout))
    return out


def _named_in(texts: Any, tokens: set[str]) -> set[str]:
    """The *tokens* that *texts* (any nesting) mention as whole tokens."""
    strings: list[str] = []
    _walk(texts, strings, [], [], history=True)
    blob = "\x00".join(strings)
    return {t for t in tokens if t in blob and re.search(_BEFORE + re.escape(t) + _AFTER, blob)}


def find_leaks(payload: Any, tokens: Iterable[str]) -> list[str]:
    """Places in *payload* (any nesting of dicts/lists/tuples, or JSON/HTML text) that mention a
    token: strings containing a name as a whole token, and unit fields at a :class:`Position`.

    One walk over the payload collects its strings and checks its unit fields; the strings are
    then searched once (a fast substring pre-filter, then one regular expression for the
    tokens present)."""
    toks = {t for t in tokens if t}
    if not toks:
        return []
    if isinstance(payload, (bytes, bytearray)):
        payload = payload.decode("utf-8", "replace")
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except ValueError:
            pass
    found: list[str] = []
    strings: list[str] = []
    limits: list[Numbers] = [t for t in tokens if isinstance(t, Numbers)]
    if limits:
        _numbers(payload, limits, found)
    toks = {t for t in toks if isinstance(t, str)}
    positions = [t for t in toks if isinstance(t, Position)]
    _walk(payload, strings, positions, found, history=False)
    blob = "\x00".join(strings)
    names = [t for t in toks if not isinstance(t, Position) and t in blob]  # a fast pre-filter
    names.sort(key=len, reverse=True)
    if names:
        starts, at = [], 0
        for s in strings:
            starts.append(at)
            at += len(s) + 1
        pattern = re.compile(_BEFORE + "(?:" + "|".join(map(re.escape, names)) + ")" + _AFTER)
        for hit in pattern.finditer(blob):
            s = strings[bisect.bisect_right(starts, hit.start()) - 1]
            found.append(f"{hit.group()!r} in {s[:120]!r}")
    return found


def _walk(
    obj: Any, strings: list[str], positions: list[Position], found: list[str], history: bool
) -> None:
    """Collect every string (keys included); check unit fields, outside history, for positions."""
    if isinstance(obj, str):
        strings.append(obj)
        if positions and not history and obj[:1] in "{[":  # JSON text inside a payload
            try:
                inner = json.loads(obj)
            except ValueError:
                return
            _walk(inner, [], positions, found, history)
    elif isinstance(obj, Mapping):
        if positions and not history:
            history = obj.get("$t") == "Event"
            if not history and "location" in obj:
                loc = obj["location"]
                found += [f"position {p!r} in location {loc!r}" for p in positions if p.near(loc)]
            if not history and isinstance(obj.get("id"), str) and "hex" in obj:
                h = obj["hex"]
                found += [f"position {p!r} in hex {h!r}" for p in positions if p.at(h)]
        for k, v in obj.items():
            _walk(k, strings, positions, found, history)
            _walk(v, strings, positions, found, history or k == "events")
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            _walk(v, strings, positions, found, history)


def scan_widget_leaks(root: Any, tokens: Iterable[Any]) -> list[str]:
    """Strings in the synced state of the widgets under *root* (what a browser holds,
    :func:`owsnb.widgets.wire.synced_state`) that mention a hidden token (see
    :func:`hidden_tokens`)."""
    from owsnb.widgets.wire import synced_state

    return find_leaks(synced_state(root), tokens)
