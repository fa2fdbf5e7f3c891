"""A game's history as an ``xarray.Dataset``.

One snapshot per step of play (or per event, or per turn), with dims ``time``, ``unit`` and
``side``: positions (axial, label, lon/lat), steps, markers, detections, the rule set's numeric
unit facts, side totals and numeric side facts (dashboards, scores). ``attrs`` carry the scenario,
rule set, options and seed. Events and annotations come as companion pandas tables.

>>> import owsnb, owsnb.analysis  # doctest: +SKIP
>>> ds = game.history()           # doctest: +SKIP
>>> ds.owsnb.losses().plot()      # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from owsnb.kernel.reduce import apply
from owsnb.kernel.state import UMPIRE

__all__ = ["history", "events_table", "annotations_table", "compare", "snapshot_points"]


def snapshot_points(game: Any, every: str = "step") -> list[int]:
    """Event counts at which to take snapshots: after every ``"event"``, at the end of every
    ``"step"`` (a clock change) or of every ``"turn"``; always 0 and the last event."""
    if every not in ("event", "step", "turn"):
        raise ValueError(f"every must be 'event', 'step' or 'turn', not {every!r}")
    events = game.events[: game.cursor]
    points = [0]
    prev_turn = game.initial.clock.turn
    for e in events:
        if every == "event":
            points.append(e.seq)
        elif e.kind == "clock.set":
            turn = e.data["clock"].turn
            if every == "step" or turn != prev_turn:
                points.append(e.seq - 1)
            prev_turn = turn
    if points[-1] != len(events):
        points.append(len(events))
    return sorted(set(points))


def _unit_facts(rs: Any, unit: Any) -> dict[str, Any]:
    fn = getattr(rs, "unit_facts", None)
    if fn is not None:
        return dict(fn(unit))
    return {k: v for k, v in unit.data.items() if isinstance(v, (int, float, str, bool)) and not isinstance(v, bool)}


def history(game: Any, *, side: str = UMPIRE, every: str = "step") -> xr.Dataset:
    """The history of *game* as seen by *side* (default the umpire), as an ``xarray.Dataset``.

    Args:
        game: a :class:`~owsnb.kernel.game.Game`.
        side: whose knowledge to record (a side's dataset only holds what it detected).
        every: snapshot after every ``"event"``, ``"step"`` (default) or ``"turn"``.

    Returns:
        a Dataset with dims ``time``, ``unit``, ``side`` (and ``marker``); coordinates ``seq``,
        ``turn``, ``phase``, ``step`` along ``time``.
    """
    rs = game.ruleset
    points = snapshot_points(game, every)
    states = []
    s = game.initial
    n = 0
    events = game.events
    for p in points:
        while n < p:
            s = apply(s, events[n], rs.reducers)
            n += 1
        states.append(s)
    sides = list(game.initial.sides)
    unit_ids: dict[str, None] = {}
    for st in states:
        for uid in st.units:
            unit_ids.setdefault(uid, None)
    units = list(unit_ids)
    markers = sorted({m for st in states for u in st.units.values() for m in u.markers})
    T, U, S, M = len(states), len(units), len(sides), len(markers)
    q = np.full((T, U), np.nan)
    r = np.full((T, U), np.nan)
    lon = np.full((T, U), np.nan)
    lat = np.full((T, U), np.nan)
    steps = np.zeros((T, U), dtype=np.int16)
    present = np.zeros((T, U), dtype=bool)
    label = np.full((T, U), "", dtype=object)
    box = np.full((T, U), "", dtype=object)
    mark = np.zeros((T, U, M), dtype=bool)
    detected = np.zeros((T, U, S), dtype=bool)
    facts: dict[str, np.ndarray] = {}
    side_facts: dict[str, np.ndarray] = {}
    layout = game.initial.map.layout
    midx = {m: i for i, m in enumerate(markers)}
    for t, st in enumerate(states):
        for j, uid in enumerate(units):
            u = st.units.get(uid)
            if u is None:
                continue
            if side != UMPIRE and u.side != side and rs.view_unit(st, u, side) is None:
                continue
            present[t, j] = True
            steps[t, j] = u.steps
            if u.hex is not None:
                q[t, j], r[t, j] = u.hex.q, u.hex.r
                label[t, j] = st.map.label(u.hex)
                if layout is not None:
                    lon[t, j], lat[t, j] = layout.centre(u.hex)
            box[t, j] = u.box or ""
            for m in u.markers:
                mark[t, j, midx[m]] = True
            for k, sd in enumerate(sides):
                detected[t, j, k] = sd in u.seen_by
            for key, val in _unit_facts(rs, u).items():
                arr = facts.get(key)
                if arr is None:
                    arr = facts[key] = (np.full((T, U), np.nan) if isinstance(val, (int, float))
                                        else np.full((T, U), "", dtype=object))
                if isinstance(val, (int, float)) and arr.dtype != object:
                    arr[t, j] = val
                elif arr.dtype == object:
                    arr[t, j] = str(val)
        for k, sd in enumerate(sides):
            pub = st.sides[sd].public
            for key, val in pub.items():
                if isinstance(val, (int, float)) and not isinstance(val, bool):
                    arr = side_facts.setdefault(key, np.full((T, S), np.nan))
                    arr[t, k] = val
    unit_side = [game.initial.units[u].side if u in game.initial.units else states[-1].units[u].side for u in units]
    unit_kind = [(game.initial.units.get(u) or states[-1].units[u]).kind for u in units]
    ds = xr.Dataset(
        {
            "q": (("time", "unit"), q), "r": (("time", "unit"), r),
            "lon": (("time", "unit"), lon), "lat": (("time", "unit"), lat),
            "hex": (("time", "unit"), label.astype(str)), "box": (("time", "unit"), box.astype(str)),
            "steps": (("time", "unit"), steps), "present": (("time", "unit"), present),
            "markers": (("time", "unit", "marker"), mark),
            "detected": (("time", "unit", "by"), detected),
        },
        coords={
            "time": np.arange(T), "unit": units, "side": sides, "marker": markers, "by": sides,
            "seq": ("time", np.array(points)), "turn": ("time", np.array([st.clock.turn for st in states])),
            "phase": ("time", np.array([st.clock.phase for st in states], dtype=str)),
            "step": ("time", np.array([st.clock.step for st in states], dtype=str)),
            "unit_side": ("unit", np.array(unit_side, dtype=str)),
            "unit_kind": ("unit", np.array(unit_kind, dtype=str)),
        },
    )
    for key, arr in facts.items():
        ds[f"unit_{key}"] = (("time", "unit"), arr.astype(str) if arr.dtype == object else arr)
    for key, arr in side_facts.items():
        ds[f"side_{key}"] = (("time", "side"), arr)
    alive = ds["present"] & (ds["steps"] > 0)
    ds["steps_total"] = (ds["steps"].where(ds["present"], 0)).groupby("unit_side").sum("unit").rename(unit_side="side")
    ds["units_alive"] = alive.groupby("unit_side").sum("unit").rename(unit_side="side")
    sc = game.initial.scenario
    ds.attrs.update({
        "title": f"owsnb history: {sc.get('title', '')}", "scenario": str(sc.get("id", "")),
        "ruleset": game.initial.ruleset, "options": json.dumps(dict(game.initial.options), default=str),
        "seed": int(game.meta["seed"]) if game.meta.get("seed") is not None else -1,
        "side_view": side, "every": every, "events": int(game.cursor), "owsnb_version": _version(),
    })
    return ds


def _version() -> str:
    import owsnb

    return owsnb.__version__


def events_table(game: Any, side: str = UMPIRE) -> pd.DataFrame:
    """The events *side* may see, one row each (seq, batch, turn, kind, rule, text, visibility, data)."""
    rows = []
    turn = game.initial.clock.turn
    for e in game.log(side):
        if e.kind == "clock.set":
            turn = e.data["clock"].turn
        if e.kind == "rng":
            continue
        rows.append({
            "seq": e.seq, "batch": e.batch, "turn": turn, "kind": e.kind, "rule": e.rule, "text": str(e),
            "visible_to": "all" if e.visible_to is None else ",".join(sorted(e.visible_to)),
            "data": json.dumps(_plain(e.data), default=str),
        })
    return pd.DataFrame(rows, columns=["seq", "batch", "turn", "kind", "rule", "text", "visible_to", "data"])


def annotations_table(game: Any) -> pd.DataFrame:
    """The game's annotations, one row each."""
    rows = [a.to_dict() for a in game.annotations]
    for row in rows:
        row["hex"] = game.state.map.label(game.state.map.hex(tuple(row["hex"]))) if row["hex"] else ""
        row["tags"] = ",".join(row["tags"])
    return pd.DataFrame(rows, columns=["id", "seq", "turn", "hex", "unit", "side", "author", "tags", "text", "created"])


def _plain(obj: Any) -> Any:
    from owsnb.kernel.codec import encode

    try:
        return encode(obj)
    except TypeError:
        return str(obj)


def compare(branches: Mapping[str, Any] | Iterable[Any], *, side: str = UMPIRE) -> xr.Dataset:
    """Histories of several games (e.g. a game and its forks) in one Dataset with a ``branch``
    dimension, aligned on turns (the last snapshot of each turn)."""
    items = branches.items() if isinstance(branches, Mapping) else ((f"branch-{i}", g) for i, g in enumerate(branches))
    parts = []
    names = []
    for name, g in items:
        ds = history(g, side=side, every="step").owsnb.by_turn()
        parts.append(ds)
        names.append(name)
    out = xr.concat(parts, dim=pd.Index(names, name="branch"), join="outer", fill_value={"steps": 0, "present": False})
    out.attrs = dict(parts[0].attrs)
    out.attrs["title"] = "owsnb branch comparison"
    return out
