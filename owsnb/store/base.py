"""The event-store interface shared by the SQLite and PostgreSQL backends.

A store holds many games. Each game has a header (rule set, scenario, the encoded initial state,
free metadata) and an append-only **log** of revisions: revision *n* either appends one batch of
events or truncates the history (an undo). Revisions are unique per game, so two writers racing
for the same revision cannot both succeed: the loser gets :class:`StaleStateError`.

Both backends use one schema (:data:`TABLES`): ``owsnb_meta`` (format and schema version),
``owsnb_games``, ``owsnb_log`` and ``owsnb_annotations``; a store written before the names were
shared (schema 1: SQLite's ``games``/``log``/``annotations``) is migrated when it is opened.
Every failure of the database (disk full, read-only, locked, lost connection, a value the
database refuses) is a :class:`StoreError` and changes nothing; text that cannot be stored
(a lone UTF-16 surrogate, a NUL character) is refused with ``ValueError`` before it is written,
and a note stored by an older owsnb with such text is repaired when it is read
(:func:`repair_text`).
"""

from __future__ import annotations

import abc
import datetime as _dt
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from owsnb.kernel import codec
from owsnb.kernel.errors import StoreError
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation
from owsnb.kernel.state import GameState

__all__ = [
    "EventStore",
    "GameRecord",
    "StoreSink",
    "NoSuchGame",
    "open_store",
    "storable",
    "repair_text",
    "annotation_from_json",
    "FORMAT",
    "SCHEMA_VERSION",
    "TABLES",
]

FORMAT = "owsnb-event-store"
SCHEMA_VERSION = 2
"""1: SQLite's tables were ``games``/``log``/``annotations``; 2: both backends ``owsnb_*``."""

TABLES = ("owsnb_meta", "owsnb_games", "owsnb_log", "owsnb_annotations")
"""The tables of a store, the same names in SQLite and PostgreSQL."""


def schema(meta_type: str) -> str:
    """The ``CREATE TABLE`` script of :data:`TABLES`, one for both backends but for the column
    type of a game's metadata (*meta_type*: SQLite ``TEXT``, PostgreSQL ``JSONB``)."""
    return f"""
CREATE TABLE IF NOT EXISTS owsnb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS owsnb_games (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, created TEXT NOT NULL,
    initial TEXT NOT NULL, meta {meta_type} NOT NULL);
CREATE TABLE IF NOT EXISTS owsnb_log (
    game_id TEXT NOT NULL REFERENCES owsnb_games(id), rev INTEGER NOT NULL, op TEXT NOT NULL,
    seq INTEGER NOT NULL, events TEXT, created TEXT NOT NULL, PRIMARY KEY (game_id, rev));
CREATE TABLE IF NOT EXISTS owsnb_annotations (
    game_id TEXT NOT NULL REFERENCES owsnb_games(id), id INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (game_id, id));
"""


class NoSuchGame(StoreError):
    """The store holds no game of that id (a :class:`StoreError`, so callers that catch store
    errors keep working; the server answers it exactly like a bad token)."""


_SURROGATES = re.compile("[\ud800-\udfff]")


def storable(value: Any, what: str = "text") -> Any:
    r"""*value* unchanged if every string in it can be stored and sent (UTF-8 without lone
    surrogates, no NUL character), else ``ValueError``.

    >>> storable({"label": "Blue HQ", "tags": ["a"]})
    {'label': 'Blue HQ', 'tags': ['a']}
    >>> storable("x \ud83d")
    Traceback (most recent call last):
    ...
    ValueError: text contains a lone UTF-16 surrogate (U+D83D), which cannot be stored
    """
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if "\x00" in v:
                raise ValueError(f"{what} contains a NUL character, which cannot be stored")
            m = _SURROGATES.search(v)
            if m:
                raise ValueError(
                    f"{what} contains a lone UTF-16 surrogate (U+{ord(m.group()):04X}), "
                    "which cannot be stored"
                )
        elif isinstance(v, Mapping):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(v)
    return value


def repair_text(text: str) -> str:
    r"""*text* made storable: lone surrogates become U+FFFD, NUL characters are dropped.

    >>> repair_text("x \ud83d") == "x \ufffd"
    True
    """
    return _SURROGATES.sub("\ufffd", text).replace("\x00", "")


def annotation_from_json(data: str) -> Annotation:
    """An annotation as stored (JSON), its text repaired if an older owsnb stored text that
    cannot be sent (a lone surrogate): the note is served with U+FFFD in its place."""
    d = json.loads(data)
    for k in ("text", "author", "unit", "side"):
        if isinstance(d.get(k), str):
            d[k] = repair_text(d[k])
    if isinstance(d.get("tags"), list):
        d["tags"] = [repair_text(t) if isinstance(t, str) else t for t in d["tags"]]
    return Annotation.from_dict(d)


def annotation_to_json(annotation: Annotation) -> str:
    """The stored form of an annotation (``ValueError`` if its text cannot be stored)."""
    d = annotation.to_dict()
    storable(d, "the annotation")
    return json.dumps(d, ensure_ascii=False)


@dataclass
class GameRecord:
    """Everything a store knows about one game, enough to rebuild it exactly."""

    game_id: str
    ruleset: str
    initial: GameState
    events: list[Event]
    rev: int
    annotations: list[Annotation] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    created: str = ""
    side_revs: dict[str, int] = field(default_factory=dict)  # each side's revision


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def game_row(
    game_id: str, initial: GameState, meta: Mapping[str, Any] | None
) -> tuple[str, str, str, str, str]:
    """A new game's ``owsnb_games`` row: id, rule set, created, the encoded initial state, the
    metadata as JSON (``ValueError`` for text that cannot be stored, before anything is written)."""
    return (
        game_id,
        initial.ruleset,
        now(),
        storable(codec.dumps(initial), "the initial state"),
        json.dumps(storable(dict(meta or {}), "the game's metadata")),
    )


def only_game(ids: Sequence[str], where: str) -> str:
    """The id of the one game a store holds (*ids*, the store's games), for ``load()`` without
    an id; ``StoreError`` naming *where* when it holds none or several.

    >>> only_game(["g1"], "owsnb.db")
    'g1'
    >>> only_game(["g1", "g2"], "owsnb.db")
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.StoreError: owsnb.db holds 2 games (g1, g2); say which
    """
    if not ids:
        raise StoreError(f"{where} holds no game")
    if len(ids) > 1:
        raise StoreError(f"{where} holds {len(ids)} games ({', '.join(ids)}); say which")
    return ids[0]


def game_record(
    where: str,
    game_id: str,
    game: Sequence[Any],
    meta: dict[str, Any],
    log: Iterable[Sequence[Any]],
    annotations: Iterable[str],
) -> GameRecord:
    """Decode a game as a store read it: *game* its ``owsnb_games`` row (rule set, created, the
    encoded initial state, ...), *meta* its decoded metadata, *log* its ``owsnb_log`` rows
    ``(rev, op, seq, events)`` in order, *annotations* their JSON texts. Anything that does not
    decode is ``StoreError``: game *game_id* at *where* is damaged."""
    try:
        initial = codec.loads(game[2])
        anns = [annotation_from_json(a) for a in annotations]
        events, rev, side_revs = fold_log(
            ((r, op, seq, list(codec.loads(ev)) if ev else None) for r, op, seq, ev in log),
            initial.sides,
        )
    except (ValueError, TypeError, KeyError) as exc:
        raise StoreError(f"{where}: game {game_id!r} is damaged ({exc})") from None
    return GameRecord(game_id, game[0], initial, events, rev, anns, meta, game[1], side_revs)


class EventStore(abc.ABC):
    """A place that keeps games' histories. Subclasses: SQLite, PostgreSQL."""

    url: str

    @abc.abstractmethod
    def create_game(
        self, game_id: str, initial: GameState, meta: Mapping[str, Any] | None = None
    ) -> None:
        """Create a game with its initial state (``StoreError`` if the id exists)."""

    @abc.abstractmethod
    def append(self, game_id: str, rev: int, events: Sequence[Event]) -> None:
        """Write one batch as revision *rev* atomically (``StaleStateError`` if *rev* is taken
        or not the next one)."""

    @abc.abstractmethod
    def truncate(self, game_id: str, rev: int, seq: int) -> None:
        """Write revision *rev*: the history keeps its first *seq* events."""

    @abc.abstractmethod
    def annotate(self, game_id: str, annotation: Annotation) -> None:
        """Store an annotation."""

    @abc.abstractmethod
    def load(self, game_id: str | None = None) -> GameRecord:
        """Rebuild a game's record (the only game if *game_id* is ``None``)."""

    @abc.abstractmethod
    def games(self) -> list[dict[str, Any]]:
        """One summary row per game."""

    @abc.abstractmethod
    def set_meta(self, game_id: str, changes: Mapping[str, Any]) -> None:
        """Merge *changes* into a game's metadata (tokens, status...)."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release connections."""

    def check(self) -> None:
        """Refuse a store that cannot be served (``StoreError``, one line): every game loads.
        Backends add their own checks (read-only, damaged)."""
        for g in self.games():
            self.load(g["id"])

    def revision(self, game_id: str) -> int:
        """The game's last revision."""
        return self.load(game_id).rev

    def sink(self, game_id: str) -> StoreSink:
        """An event sink writing this game's commits (give it to a :class:`~owsnb.Game`)."""
        return StoreSink(self, game_id)

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class StoreSink:
    """Adapts a store to the kernel's event-sink protocol for one game."""

    def __init__(self, store: EventStore, game_id: str):
        self.store = store
        self.game_id = game_id

    def append(self, rev: int, events: Sequence[Event]) -> None:
        self.store.append(self.game_id, rev, events)

    def truncate(self, rev: int, seq: int) -> None:
        self.store.truncate(self.game_id, rev, seq)

    def annotate(self, annotation: Annotation) -> None:
        self.store.annotate(self.game_id, annotation)


def replay_log(rows: Iterator[tuple[int, str, int, list[Event] | None]]) -> tuple[list[Event], int]:
    """Fold log rows ``(rev, op, seq, events)`` into the surviving history and the last revision."""
    events, rev, _ = fold_log(rows)
    return events, rev


def fold_log(
    rows: Iterable[tuple[int, str, int, list[Event] | None]], sides: Iterable[str] = ()
) -> tuple[list[Event], int, dict[str, int]]:
    """Fold log rows ``(rev, op, seq, events)`` into the surviving history, the last revision and
    each of *sides*' revision (:meth:`~owsnb.kernel.game.Game.revision`: the revisions that added
    or removed an event the side may see).

    >>> from owsnb.kernel.events import note
    >>> rows = [(1, "append", 0, [note("a").at(1, 1)]),
    ...         (2, "append", 1, [note("b", visible_to="red").at(2, 2)]),
    ...         (3, "truncate", 1, None)]
    >>> events, rev, revs = fold_log(rows, ["blue", "red"])
    >>> len(events), rev, revs
    (1, 3, {'blue': 1, 'red': 3})
    """
    events: list[Event] = []
    rev = 0
    side_revs = {side: 0 for side in sides}
    for r, op, seq, evs in rows:
        if r != rev + 1:
            raise StoreError(f"event log has a gap: revision {r} after {rev}")
        rev = r
        if op == "append":
            touched = list(evs or [])
            events.extend(touched)
        elif op == "truncate":
            touched = events[seq:]
            del events[seq:]
        else:
            raise StoreError(f"unknown log operation {op!r} at revision {r}")
        for side in side_revs:
            if any(e.visible(side) for e in touched):
                side_revs[side] += 1
    return events, rev, side_revs


def open_store(url: str, *, create: bool = True) -> EventStore:
    """Open a store by URL or path: ``game.owsnb``, ``sqlite:///game.owsnb``, ``postgresql://…``.

    Raises:
        StoreError: unknown scheme, unreadable or foreign file.

    Example:
        >>> import pathlib, tempfile
        >>> import owsnb
        >>> from owsnb.kernel.events import note
        >>> from owsnb.kernel.registry import register_ruleset
        >>> from owsnb.rules.skirmish import SCENARIO  # the kernel's example
        >>> register_ruleset("skirmish", "owsnb.rules.skirmish:RULESET")  # its rule set
        >>> initial = owsnb.load(SCENARIO, seed=11, save=False).initial
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = open_store(pathlib.Path(tmp.name) / "games.owsnb")
        >>> store.create_game("g1", initial, {"seed": 11})
        >>> store.append("g1", 1, [note("first").at(1, 1)])  # revision 1: one batch
        >>> rec = store.load("g1")
        >>> rec.ruleset, rec.rev, [e.kind for e in rec.events], rec.meta, rec.initial == initial
        ('skirmish', 1, ['note'], {'seed': 11}, True)
        >>> store.append("g1", 1, [note("late").at(2, 2)])  # revision 1 is taken
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.StaleStateError: stale state: ...
        >>> store.close(); tmp.cleanup()
        >>> open_store("ftp://host/games")
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.StoreError: unknown store URL 'ftp://host/games': use a file path, ...
    """
    u = str(url)
    if u.startswith(("postgresql://", "postgres://")):
        from owsnb.store.postgres import PostgresStore

        return PostgresStore(u)
    if u.startswith("sqlite:///"):
        u = u[len("sqlite:///") :]
    elif "://" in u:
        raise StoreError(
            f"unknown store URL {url!r}: use a file path, sqlite:///path or postgresql://…"
        )
    from owsnb.store.sqlite import SQLiteStore

    return SQLiteStore(u, create=create)
