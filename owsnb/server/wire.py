"""What travels between the authority and its seats: JSON built on :mod:`owsnb.kernel.codec`.

* views asked for (``GET .../view``) go whole except the map, which is sent once per version (by
  digest) and cached by the client — a map of a thousand hexes would otherwise ride along with
  every change; pushed views go as a **delta** from the view the client holds
  (:func:`view_delta`, :func:`apply_view_delta`): the units, sides and public facts that changed,
  the events added (and how many of the old ones stay), so a push costs what changed, not the
  game's length;
* events lose the dice state (``rng`` events keep only their kind) before they leave the authority;
* legal orders, previews (exact :class:`~owsnb.kernel.dist.Distribution`, probabilities as
  ``"n/d"`` strings) and submission results round-trip; an object the codec cannot encode
  travels as its text and HTML (:class:`Rich`);
* errors travel as ``{"error": class name, "message": ...}`` and are raised again on the client
  as the same :class:`~owsnb.kernel.errors.OwsnbError` subclass.

>>> from owsnb.kernel.dist import Distribution
>>> d = Distribution.die(6).map(lambda r: int(r >= 5), label="hits")
>>> decode_value(encode_value(d)) == d
True
>>> raise_error(401, {"error": "AuthError", "message": "unknown seat token for this game"})
Traceback (most recent call last):
...
owsnb.kernel.errors.AuthError: unknown seat token for this game
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import weakref
from dataclasses import replace
from fractions import Fraction
from typing import Any

from owsnb.kernel import codec
from owsnb.kernel.data import EMPTY, FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.errors import (
    AuthError,
    HistoryError,
    IllegalOrderError,
    NotYourTurnError,
    OrderSyntaxError,
    OwsnbError,
    StaleStateError,
    StoreError,
    UnknownSideError,
)
from owsnb.kernel.events import Event
from owsnb.kernel.game import Annotation
from owsnb.kernel.orders import LegalOrders, Order, OrderSpec, OrderType, Param
from owsnb.kernel.state import MapState
from owsnb.kernel.view import SideView

__all__ = [
    "Rich",
    "MapCache",
    "encode_view",
    "decode_view",
    "encode_events",
    "decode_events",
    "encode_legal",
    "decode_legal",
    "encode_value",
    "decode_value",
    "encode_annotation",
    "decode_annotation",
    "error_body",
    "raise_error",
    "dumps",
    "encode_view_body",
    "view_delta",
    "apply_view_delta",
    "map_message",
]

_SURROGATES = re.compile(r"[\ud800-\udfff]")


def dumps(obj: Any) -> bytes:
    r"""Compact UTF-8 JSON. Never fails on text: a lone surrogate (which UTF-8 cannot carry, and
    which an older owsnb may have stored) goes as U+FFFD, so what is stored can always be sent.

    >>> dumps({"text": "x \ud83d"}) == '{"text":"x \ufffd"}'.encode()
    True
    """
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", text).encode("utf-8")


# -- events --------------------------------------------------------------------------------------
def _strip(e: Event) -> Event:
    return replace(e, data=EMPTY) if e.kind == "rng" else e


def encode_events(events: Any) -> list[Any]:
    """Events for the wire (the dice state never leaves the authority)."""
    return [codec.encode(_strip(e)) for e in events]


def decode_events(data: Any) -> tuple[Event, ...]:
    return tuple(codec.decode(e) for e in data or ())


# -- views and maps ------------------------------------------------------------------------------
_MAP_DIGESTS: weakref.WeakKeyDictionary[MapState, tuple[str, Any]] = weakref.WeakKeyDictionary()


def _map_entry(m: MapState) -> tuple[str, Any]:
    """(digest, encoded map) of a map, computed once per MapState object."""
    try:
        hit = _MAP_DIGESTS.get(m)
    except TypeError:
        hit = None
    if hit is None:
        enc = codec.encode(m)
        digest = hashlib.sha256(
            json.dumps(enc, sort_keys=True, separators=(",", ":")).encode()
        ).hexdigest()[:16]
        hit = (digest, enc)
        try:
            _MAP_DIGESTS[m] = hit
        except TypeError:
            pass
    return hit


def map_digest(m: MapState) -> str:
    return _map_entry(m)[0]


def encode_view(view: SideView, known_map: str | None = None) -> dict[str, Any]:
    """A view for the wire: ``{"view": ..., "map_id": digest}`` plus ``"map"`` unless the
    receiver already holds the map with that digest (*known_map*)."""
    enc = encode_view_body(view)
    digest, m = _map_entry(view.map)
    out: dict[str, Any] = {"view": enc, "map_id": digest}
    if known_map != digest:
        out["map"] = m
    return out


class MapCache:
    """The client's decoded maps by digest (a game rarely has more than one or two)."""

    def __init__(self, size: int = 4):
        self.size = size
        self.maps: dict[str, MapState] = {}

    def put(self, digest: str, encoded: Any) -> MapState:
        m = codec.decode(encoded)
        if len(self.maps) >= self.size:
            self.maps.pop(next(iter(self.maps)))
        self.maps[digest] = m
        return m

    @property
    def latest(self) -> str | None:
        return next(reversed(self.maps), None)


def map_message(m: MapState) -> tuple[str, bytes]:
    """``(digest, the encoded {"type": "map"} push)`` of a map, encoded once per map object."""
    digest, enc = _map_entry(m)
    hit = _MAP_MESSAGES.get(digest)
    if hit is None:
        hit = dumps({"type": "map", "map_id": digest, "map": enc})
        if len(_MAP_MESSAGES) > 16:
            _MAP_MESSAGES.clear()
        _MAP_MESSAGES[digest] = hit
    return digest, hit


_MAP_MESSAGES: dict[str, bytes] = {}


def encode_view_body(view: SideView) -> Any:
    """A view without its map (that goes apart, by digest), dice state stripped."""
    body = replace(view, map=None, events=tuple(_strip(e) for e in view.events))  # type: ignore[arg-type]
    return codec.encode(body)  # (the map is None on the wire: a seat caches it by digest)


_DICTS = ("sides", "units", "options", "scenario", "public", "tables", "secret")


def _dict_delta(old: Any, new: Any) -> Any:
    """What turns FrozenDict *old* into *new*: ``{"set": [[k, v]...], "del": [k...]}``, or the
    whole of *new* (``{"all": ...}``) when that is shorter or the key order would differ."""
    if old is new:
        return None
    put = [(k, v) for k, v in new.items() if k not in old or not (old[k] is v or old[k] == v)]
    gone = [k for k in old if k not in new]
    if not put and not gone:
        return None
    kept = [k for k in old if k in new]
    order = kept + [k for k in new if k not in old]
    if order != list(new) or len(put) > len(new) // 2 + 1:
        return {"all": codec.encode(new)}
    out: dict[str, Any] = {}
    if put:
        out["set"] = [[codec.encode(k), codec.encode(v)] for k, v in put]
    if gone:
        out["del"] = [codec.encode(k) for k in gone]
    return out


def view_delta(old: SideView, new: SideView) -> dict[str, Any] | None:
    """What turns the view *old* (the one a client holds) into *new*: changed scalar fields whole
    (``"f"``), dictionaries key by key (``"d"``), events as ``{"keep": n, "add": [...]}``; the map
    goes apart. ``None`` if nothing changed.

    >>> from owsnb.kernel.data import FrozenDict
    >>> from owsnb.kernel.state import Clock, MapState, Unit
    >>> v0 = SideView("blue", "demo", MapState(FrozenDict()), FrozenDict(blue=None),
    ...               FrozenDict({"a": Unit("a", "blue"), "b": Unit("b", "blue")}), Clock())
    >>> v1 = replace(v0, units=v0.units.without("b"), clock=Clock(turn=2))
    >>> d = view_delta(v0, v1)
    >>> sorted(d["f"]), d["d"]["units"]
    (['clock'], {'del': ['b']})
    >>> apply_view_delta(v0, d) == v1, view_delta(v1, v1)
    (True, None)
    """
    out: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    dicts: dict[str, Any] = {}
    for f in dataclasses.fields(SideView):
        name = f.name
        if name == "map":
            continue
        a, b = getattr(old, name), getattr(new, name)
        if a is b:
            continue
        if name == "events":
            keep = _common_prefix(a, b)
            if keep != len(a) or keep != len(b):
                out["ev"] = {"keep": keep, "add": [codec.encode(_strip(e)) for e in b[keep:]]}
        elif name in _DICTS and isinstance(a, FrozenDict) and isinstance(b, FrozenDict):
            d = _dict_delta(a, b)
            if d is not None:
                dicts[name] = d
        elif a != b:
            fields[name] = codec.encode(b)
    if fields:
        out["f"] = fields
    if dicts:
        out["d"] = dicts
    return out or None


def _common_prefix(a: tuple, b: tuple) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    k = 0
    while k < n and (a[k] is b[k] or a[k] == b[k]):
        k += 1
    return k


def apply_view_delta(old: SideView, delta: dict[str, Any] | None) -> SideView:
    """The view *delta* (from :func:`view_delta`) makes of *old*."""
    if not delta:
        return old
    changes: dict[str, Any] = {k: codec.decode(v) for k, v in delta.get("f", {}).items()}
    for name, d in delta.get("d", {}).items():
        if "all" in d:
            changes[name] = codec.decode(d["all"])
            continue
        cur = dict(getattr(old, name))
        for k in d.get("del", ()):
            cur.pop(codec.decode(k), None)
        for k, v in d.get("set", ()):
            cur[codec.decode(k)] = codec.decode(v)
        changes[name] = FrozenDict(cur)
    ev = delta.get("ev")
    if ev is not None:
        changes["events"] = old.events[: ev["keep"]] + tuple(codec.decode(e) for e in ev["add"])
    return replace(old, **changes)


def decode_view(msg: dict[str, Any], maps: MapCache) -> SideView:
    """Inverse of :func:`encode_view` (``KeyError`` if the map is neither sent nor cached)."""
    digest = msg["map_id"]
    m = maps.put(digest, msg["map"]) if "map" in msg else maps.maps[digest]
    v = codec.decode(msg["view"])
    return replace(v, map=m)


# -- legal orders --------------------------------------------------------------------------------
def _encode_param(p: Param) -> dict[str, Any]:
    return {
        "name": p.name,
        "kind": p.kind,
        "doc": p.doc,
        "positional": p.positional,
        "repeat": p.repeat,
        "optional": p.optional,
        "choices": list(p.choices),
    }


def _encode_type(t: OrderType) -> dict[str, Any]:
    return {
        "verb": t.verb,
        "params": [_encode_param(p) for p in t.params],
        "rule": t.rule,
        "doc": t.doc,
        "actors": t.actors,
    }


def encode_legal(legal: LegalOrders) -> dict[str, Any]:
    """Legal orders for the wire (the validity check stays on the authority)."""
    return {
        "side": legal.side,
        "specs": [
            {
                "side": s.side,
                "type": _encode_type(s.type),
                "candidates": codec.encode(s.candidates),
                "examples": [str(o) for o in s.examples],
                "note": s.note,
            }
            for s in legal.specs
        ],
    }


def decode_legal(data: dict[str, Any], check: Any = None) -> LegalOrders:
    """Inverse of :func:`encode_legal`; *check(order) -> bool* answers ``order in legal``."""
    specs = []
    for s in data["specs"]:
        t = s["type"]
        otype = OrderType(
            t["verb"],
            tuple(
                Param(
                    p["name"],
                    p["kind"],
                    p["doc"],
                    p["positional"],
                    p["repeat"],
                    p["optional"],
                    tuple(p["choices"]),
                )
                for p in t["params"]
            ),
            t["rule"],
            t["doc"],
            t["actors"],
        )
        cands = codec.decode(s["candidates"])
        specs.append(
            OrderSpec(
                s["side"],
                otype,
                cands if isinstance(cands, FrozenDict) else FrozenDict(cands or {}),
                tuple(Order.parse(o) for o in s["examples"]),
                s["note"],
            )
        )
    return LegalOrders(data["side"], tuple(specs), check)


# -- previews and results ------------------------------------------------------------------------
class Rich:
    """A value the codec cannot carry, as its text and HTML (a rule set's rich result object)."""

    def __init__(self, text: str, html: str | None = None):
        self.text = text
        self.html = html

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str | None:
        return self.html

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rich) and (self.text, self.html) == (other.text, other.html)

    __hash__ = None  # type: ignore[assignment]


def encode_value(obj: Any) -> Any:
    """A preview or a result for the wire: a Distribution exactly, codec data as is, else Rich."""
    if obj is None:
        return None
    if isinstance(obj, Distribution):
        return {"$dist": [[codec.encode(k), str(p)] for k, p in obj.rows()], "label": obj.label}
    if isinstance(obj, Rich):
        return {"$rich": obj.text, "html": obj.html}
    try:
        return {"$v": codec.encode(obj)}
    except TypeError:
        html = None
        if hasattr(obj, "_repr_html_"):
            try:
                html = obj._repr_html_()
            except Exception:  # noqa: BLE001 - a broken repr must not break the answer
                html = None
        return {"$rich": repr(obj), "html": html}


def decode_value(data: Any) -> Any:
    if data is None:
        return None
    if "$dist" in data:
        return Distribution(
            [(codec.decode(k), Fraction(p)) for k, p in data["$dist"]], data.get("label", "")
        )
    if "$rich" in data:
        return Rich(data["$rich"], data.get("html"))
    return codec.decode(data["$v"])


# -- annotations ---------------------------------------------------------------------------------
def encode_annotation(a: Annotation) -> dict[str, Any]:
    return a.to_dict()


def decode_annotation(d: dict[str, Any]) -> Annotation:
    return Annotation.from_dict(d)


# -- errors --------------------------------------------------------------------------------------
_STATUS = [
    (AuthError, 403),
    (StaleStateError, 409),
    (HistoryError, 409),
    (IllegalOrderError, 422),
    (StoreError, 503),
]


def error_body(exc: BaseException) -> tuple[int, dict[str, Any]]:
    """HTTP status and JSON body for an error raised while serving a request."""
    if isinstance(exc, IllegalOrderError):
        body = exc.to_dict()
    else:
        body = {"error": type(exc).__name__, "message": str(exc)}
    if isinstance(exc, StaleStateError):
        body.update(expected=exc.expected, actual=exc.actual)
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            if isinstance(exc, AuthError) and getattr(exc, "status", None):
                status = exc.status  # type: ignore[attr-defined]
            if isinstance(exc, StoreError) and "no game" in str(exc):
                status = 404
            return status, body
    if isinstance(exc, (KeyError, ValueError, TypeError)):
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return 422, {"error": "BadRequest", "message": str(msg)}
    return 500, {"error": "InternalError", "message": f"{type(exc).__name__}: {exc}"}


class RemoteError(OwsnbError):
    """The authority answered with an error that has no closer match (HTTP status in ``status``)."""

    def __init__(self, message: str, status: int = 0, body: dict[str, Any] | None = None):
        super().__init__(message)
        self.status = status
        self.body = body or {}


class BadRequestError(RemoteError, ValueError):
    """The authority refused a request as malformed (bad JSON, unknown field, too large...)."""


class TooManyConnections(RemoteError):
    """The seat was opened in more places than the authority allows; this, the oldest
    connection, was closed (the handle stops listening rather than take another's place)."""


def raise_error(status: int, body: Any) -> None:
    """Raise the error an authority's answer describes, as the matching owsnb exception."""
    if not isinstance(body, dict):
        body = {"message": str(body)}
    kind = body.get("error", "")
    msg = str(body.get("message") or f"HTTP {status}")
    if kind in ("IllegalOrderError", "OrderSyntaxError", "NotYourTurnError", "UnknownSideError"):
        order = body.get("order")
        if kind == "UnknownSideError":
            raise UnknownSideError(msg, order=order)
        if kind == "OrderSyntaxError":
            raise OrderSyntaxError(msg, order=order)
        if kind == "NotYourTurnError":
            raise NotYourTurnError(msg, rule=body.get("rule", ""), order=order)
        raise IllegalOrderError(
            msg, code=body.get("code", "illegal"), rule=body.get("rule", ""), order=order
        )
    if kind == "StaleStateError":
        raise StaleStateError(int(body.get("expected", -1)), int(body.get("actual", -1)))
    if kind == "AuthError" or status in (401, 403):
        err = AuthError(msg)
        err.status = status  # type: ignore[attr-defined]
        raise err
    if kind == "HistoryError":
        raise HistoryError(msg)
    if kind == "StoreError" or status == 503:
        raise StoreError(msg)
    if kind == "TooManyConnections" or status == 429:
        raise TooManyConnections(msg, status, body)
    if status in (400, 413, 422):
        raise BadRequestError(msg, status, body)
    raise RemoteError(f"the server answered {status}: {msg}", status, body)
