"""Seats and their tokens: who may do what in a served game.

A **seat** is a place at the table: the ``umpire``, one per **side** (``blue``, ``red``...), or an
**observer** that watches one side's view (or the umpire's) some events behind. Each seat has an
unguessable token (``secrets.token_urlsafe``) shown once, when the seat is created; the store
keeps only its SHA-256 (in the game's metadata under ``seat:<id>``, one key per seat so that
changes by different server processes never overwrite each other). Revoking a seat keeps its
record (for the log) and refuses its token from then on.

>>> seat, token = Seat.new("side", side="blue")
>>> seat.matches(token), seat.matches(token + "x")
(True, False)
>>> seat.may_order("blue"), seat.may_order("red"), seat.view_side, seat.label
(True, False, 'blue', 'blue')
>>> Seat.from_meta(seat.seat_id, seat.to_meta()) == seat
True
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from owsnb.kernel.errors import AuthError
from owsnb.kernel.state import UMPIRE

__all__ = ["Seat", "SeatTable", "ROLES", "META_PREFIX", "hash_token", "auth_error"]

ROLES = ("umpire", "side", "observer")
META_PREFIX = "seat:"


def hash_token(token: str) -> str:
    """The stored form of a token (tokens are random 192-bit strings, so a plain hash suffices)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def auth_error(message: str, status: int = 401) -> AuthError:
    """An :class:`AuthError` carrying its HTTP status: 401 (no valid token) or 403 (valid token,
    not this seat's right)."""
    err = AuthError(message)
    err.status = status  # type: ignore[attr-defined]
    return err


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Seat:
    """One seat of a served game.

    Attributes:
        seat_id: short public id (``"s-3f9a1c"``), used to manage the seat; not a secret.
        role: ``"umpire"``, ``"side"`` or ``"observer"``.
        side: the side a ``side`` seat plays; the side (or ``"umpire"``) an observer watches.
        delay: an observer sees the game this many events behind (0 for other seats).
        label: a name for lists and links (``"blue"``, ``"observer 2"``).
        token_sha256: hash of the token.
        created: when it was issued; ``revoked``: when it was revoked (``""`` if valid).
    """

    seat_id: str
    role: str
    side: str
    delay: int = 0
    label: str = ""
    token_sha256: str = ""
    created: str = ""
    revoked: str = ""

    @classmethod
    def new(
        cls, role: str, *, side: str = UMPIRE, delay: int = 0, label: str = ""
    ) -> tuple[Seat, str]:
        """A fresh seat and its token (the only time the token exists in clear)."""
        if role not in ROLES:
            raise ValueError(f"a seat's role is one of {', '.join(ROLES)}, not {role!r}")
        if role == "umpire":
            side = UMPIRE
        if isinstance(delay, bool) or not isinstance(delay, int) or delay < 0:
            raise ValueError(f"an observer's delay is a whole number of events >= 0, not {delay!r}")
        if role != "observer":
            delay = 0
        token = secrets.token_urlsafe(24)
        seat = cls(
            f"s-{secrets.token_hex(4)}",
            role,
            side,
            delay,
            label or (side if role != "observer" else f"observer ({side})"),
            hash_token(token),
            _now(),
        )
        return seat, token

    # -- what the seat may do ------------------------------------------------------------------
    @property
    def is_umpire(self) -> bool:
        return self.role == "umpire"

    @property
    def view_side(self) -> str:
        """Whose view the seat gets (``"umpire"`` for the umpire: the whole truth)."""
        return self.side

    def may_order(self, side: str) -> bool:
        """May this seat submit orders as *side*? (The umpire may act for anyone.)"""
        return self.is_umpire or (self.role == "side" and side == self.side)

    def matches(self, token: str) -> bool:
        return bool(token) and hmac.compare_digest(self.token_sha256, hash_token(token))

    # -- storage -------------------------------------------------------------------------------
    def to_meta(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("seat_id")
        return d

    @classmethod
    def from_meta(cls, seat_id: str, d: Mapping[str, Any]) -> Seat:
        return cls(
            seat_id=seat_id,
            **{
                k: d[k]
                for k in ("role", "side", "delay", "label", "token_sha256", "created", "revoked")
                if k in d
            },
        )

    def public(self) -> dict[str, Any]:
        """What a seat list shows (no hash)."""
        return {
            "seat": self.seat_id,
            "role": self.role,
            "side": self.side,
            "delay": self.delay,
            "label": self.label,
            "created": self.created,
            "revoked": self.revoked,
        }


class SeatTable:
    """The seats of one game, read from and written back to its store metadata.

    >>> table = SeatTable({})
    >>> seat, token = table.issue("umpire")
    >>> table.authenticate(token).role
    'umpire'
    >>> _ = table.revoke(seat.seat_id)
    >>> table.authenticate(token)
    Traceback (most recent call last):
    ...
    owsnb.kernel.errors.AuthError: this seat's token was revoked; ask the umpire for a new link
    """

    def __init__(self, meta: Mapping[str, Any]):
        self.seats: dict[str, Seat] = {}
        self.load(meta)

    def load(self, meta: Mapping[str, Any]) -> None:
        """Replace the table with the seats recorded in *meta*."""
        self.seats = {
            k[len(META_PREFIX) :]: Seat.from_meta(k[len(META_PREFIX) :], v)
            for k, v in meta.items()
            if k.startswith(META_PREFIX) and isinstance(v, Mapping)
        }

    def authenticate(self, token: str | None) -> Seat:
        """The seat holding *token*.

        Raises:
            AuthError: no token, an unknown token, or a revoked one.
        """
        if not token:
            raise auth_error(
                "no seat token: send 'Authorization: Bearer <token>' "
                "(the token from your seat link)"
            )
        for seat in self.seats.values():
            if seat.matches(token):
                if seat.revoked:
                    raise auth_error("this seat's token was revoked; ask the umpire for a new link")
                return seat
        raise auth_error("unknown seat token for this game")

    def issue(
        self,
        role: str,
        *,
        side: str = UMPIRE,
        delay: int = 0,
        label: str = "",
        sides: Iterable[str] | None = None,
    ) -> tuple[Seat, str]:
        """Create a seat (checking *side* against the game's *sides* if given)."""
        if sides is not None:
            known = list(sides)
            if role == "side" and side not in known:
                raise ValueError(f"no side {side!r}; sides are {', '.join(known)}")
            if role == "observer" and side not in (*known, UMPIRE):
                raise ValueError(
                    f"an observer watches a side ({', '.join(known)}) or 'umpire', not {side!r}"
                )
        seat, token = Seat.new(role, side=side, delay=delay, label=label)
        self.seats[seat.seat_id] = seat
        return seat, token

    def get(self, seat_id: str) -> Seat:
        try:
            return self.seats[seat_id]
        except KeyError:
            raise KeyError(f"no seat {seat_id!r}") from None

    def revoke(self, seat_id: str) -> Seat:
        seat = replace(self.get(seat_id), revoked=self.get(seat_id).revoked or _now())
        self.seats[seat_id] = seat
        return seat

    def change(
        self,
        seat_id: str,
        *,
        delay: int | None = None,
        side: str | None = None,
        label: str | None = None,
        sides: Iterable[str] | None = None,
    ) -> Seat:
        """Change an observer's delay or watched view, or any seat's label."""
        seat = self.get(seat_id)
        if (delay is not None or side is not None) and seat.role != "observer":
            raise ValueError("only an observer's delay and view can change")
        if delay is not None and (
            isinstance(delay, bool) or not isinstance(delay, int) or delay < 0
        ):
            raise ValueError(f"delay is a whole number of events >= 0, not {delay!r}")
        if side is not None and sides is not None and side not in (*sides, UMPIRE):
            raise ValueError(f"an observer watches a side or 'umpire', not {side!r}")
        seat = replace(
            seat,
            delay=seat.delay if delay is None else delay,
            side=seat.side if side is None else side,
            label=seat.label if label is None else label,
        )
        self.seats[seat_id] = seat
        return seat

    def meta_for(self, seat: Seat) -> dict[str, Any]:
        """The metadata change that records *seat*."""
        return {META_PREFIX + seat.seat_id: seat.to_meta()}

    def __iter__(self):  # noqa: ANN204
        return iter(self.seats.values())

    def __len__(self) -> int:
        return len(self.seats)
