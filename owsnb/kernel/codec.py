"""JSON encoding of kernel data (states, events, orders, units...), exact in both directions.

Plain JSON stays plain; kernel types are tagged (``{"$h": [q, r]}`` for a hex, ``{"$t": "Unit",
...}`` for a dataclass), so a stored history decodes to equal objects.

>>> from owsnb.kernel.hexgrid import Hex
>>> e = unit_move("INF-1", Hex(2, -1))
>>> decode(json.loads(dumps(e))) == e
True
>>> d = loads(dumps({"blue": Distribution.die(4), "p": Fraction(1, 3)}))
>>> d["blue"][2], d["p"]
(Fraction(1, 4), Fraction(1, 3))
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from owsnb.kernel.data import FrozenDict
from owsnb.kernel.dist import Distribution
from owsnb.kernel.events import Event, unit_move  # noqa: F401  (doctest)
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem
from owsnb.kernel.orders import Order
from owsnb.kernel.state import Clock, GameState, HexInfo, MapState, SideState, Unit
from owsnb.kernel.view import SideView

__all__ = ["encode", "decode", "dumps", "loads", "register", "data_fields"]

_TYPES: dict[str, type] = {}


def register(cls: type) -> type:
    """Make a frozen dataclass encodable by name (rule sets may register their own)."""
    _TYPES[cls.__name__] = cls
    return cls


for _cls in (
    Unit,
    Clock,
    HexInfo,
    MapState,
    SideState,
    GameState,
    Event,
    GeoLayout,
    OffsetSystem,
    SideView,
):
    register(_cls)


def data_fields(obj: Any) -> list[dataclasses.Field]:
    """The fields of a kernel dataclass that are its data: all but those marked ``derived`` (such
    as ``Unit.board``, which the holding state sets again), which are neither stored nor sent."""
    return [f for f in dataclasses.fields(obj) if not f.metadata.get("derived")]


def encode(obj: Any) -> Any:
    """Kernel data -> JSON-able data."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, Hex):
        return {"$h": [obj.q, obj.r]}
    if isinstance(obj, Order):
        return {"$o": str(obj)}
    if isinstance(obj, Distribution):
        return {"$d": [[encode(k), str(p)] for k, p in obj.rows()], "label": obj.label}
    if isinstance(obj, Fraction):
        return {"$f": str(obj)}
    if isinstance(obj, Mapping):
        if all(isinstance(k, str) and not k.startswith("$") for k in obj):
            return {k: encode(v) for k, v in obj.items()}
        return {"$m": [[encode(k), encode(v)] for k, v in obj.items()]}
    if isinstance(obj, (frozenset, set)):
        return {"$s": sorted((encode(v) for v in obj), key=lambda x: json.dumps(x, sort_keys=True))}
    if isinstance(obj, (list, tuple)):
        return [encode(v) for v in obj]
    if dataclasses.is_dataclass(obj) and type(obj).__name__ in _TYPES:
        return {
            "$t": type(obj).__name__,
            "f": {f.name: encode(getattr(obj, f.name)) for f in data_fields(obj)},
        }
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalar
        return encode(obj.item())
    raise TypeError(f"cannot encode {type(obj).__name__} {obj!r} as owsnb JSON")


def decode(obj: Any) -> Any:
    """Inverse of :func:`encode` (lists come back as tuples, dicts as FrozenDict)."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, list):
        return tuple(decode(v) for v in obj)
    if isinstance(obj, dict):
        if len(obj) == 1:
            ((k, v),) = obj.items()
            if k == "$h":
                return Hex(int(v[0]), int(v[1]))
            if k == "$o":
                return Order.parse(v)
            if k == "$m":
                return FrozenDict({decode(a): decode(b) for a, b in v})
            if k == "$s":
                return frozenset(decode(x) for x in v)
            if k == "$f":
                return Fraction(v)
        if "$d" in obj and set(obj) <= {"$d", "label"}:
            return Distribution(
                [(decode(k), Fraction(p)) for k, p in obj["$d"]], obj.get("label", "")
            )
        if "$t" in obj:
            name = obj["$t"]
            cls = _TYPES.get(name)
            if cls is None:
                raise ValueError(f"unknown encoded type {name!r}")
            fields = {k: decode(v) for k, v in obj["f"].items()}
            return cls(**fields)
        return FrozenDict({k: decode(v) for k, v in obj.items()})
    raise TypeError(f"cannot decode {type(obj).__name__}")


def dumps(obj: Any) -> str:
    """Compact JSON text of kernel data."""
    return json.dumps(encode(obj), separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    """Kernel data from JSON text."""
    return decode(json.loads(text))
