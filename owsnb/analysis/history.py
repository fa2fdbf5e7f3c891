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
from owsnb.kernel.state import UMPIRE, GameState
from owsnb.kernel.view import checkpoints, renumber, seen_positions

__all__ = [
    "history",
    "events_table",
    "annotations_table",
    "compare",
    "snapshot_points",
    "VARIABLES",
    "describe",
]

VARIABLES: dict[str, dict[str, str]] = {
    # coordinates
    "time": {"long_name": "snapshot number (see seq, turn, phase, step)", "units": "1"},
    "seq": {"long_name": "events applied when the snapshot was taken (event number)", "units": "1"},
    "turn": {"long_name": "game turn", "units": "1"},
    "phase": {"long_name": "phase of the sequence of play"},
    "step": {"long_name": "step of the sequence of play"},
    "unit": {"long_name": "unit id (as the recorded side knows it: face-down counters by alias)"},
    "unit_side": {"long_name": "side owning the unit"},
    "unit_kind": {"long_name": "unit type (catalog key)"},
    "side": {"long_name": "side"},
    "by": {"long_name": "detecting side"},
    "marker": {"long_name": "status marker"},
    # per unit and time
    "q": {
        "long_name": "axial hex coordinate q of the unit's hex",
        "units": "1",
        "description": "Red Blob Games axial coordinates (q, r); NaN when not on the map",
    },
    "r": {
        "long_name": "axial hex coordinate r of the unit's hex",
        "units": "1",
        "description": "Red Blob Games axial coordinates (q, r); NaN when not on the map",
    },
    "lon": {"long_name": "longitude of the hex centre", "units": "degrees_east"},
    "lat": {"long_name": "latitude of the hex centre", "units": "degrees_north"},
    "x_km": {"long_name": "planar x of the hex centre (east)", "units": "km"},
    "y_km": {"long_name": "planar y of the hex centre (north)", "units": "km"},
    "hex": {"long_name": "printed hex label (empty when not on the map)"},
    "box": {
        "long_name": "off-map box holding the unit",
        "description": "e.g. base, aboard, regeneration, attrition; empty when on the map",
    },
    "steps": {"long_name": "steps the unit has", "units": "1"},
    "present": {
        "long_name": "unit known to the recorded side at this time",
        "description": "False before a side first sees an enemy unit (and for units never seen)",
    },
    "markers": {"long_name": "status marker on the unit"},
    "detected": {"long_name": "unit detected by the side 'by' (the rule set's definition)"},
    "steps_initial": {
        "long_name": "steps when first in the history (losses count from here)",
        "units": "1",
    },
    "steps_total": {"long_name": "steps of each side's units known", "units": "1"},
    "units_alive": {"long_name": "units of each side known and with steps left", "units": "1"},
}
"""CF-style ``long_name``/``units`` (and a ``description`` where the name says too little) of
the variables of :func:`history`; the rule set's unit facts (``unit_*``) and side facts
(``side_*``) get generic ones."""


def describe(ds: xr.Dataset) -> xr.Dataset:
    """*ds* with the attributes of :data:`VARIABLES` (and generic ones for ``unit_*`` and
    ``side_*`` facts) on every variable and coordinate it has. Returns *ds* (changed in place)."""
    for name in list(ds.variables):
        attrs = dict(VARIABLES.get(str(name), {}))
        if not attrs and str(name).startswith("unit_"):
            attrs = {"long_name": f"unit fact '{str(name)[5:]}' (from the rule set's unit_facts)"}
        elif not attrs and str(name).startswith("side_"):
            attrs = {"long_name": f"side fact '{str(name)[5:]}' (the side's public numbers)"}
        for k, v in attrs.items():
            ds[name].attrs.setdefault(k, v)
    return ds


def snapshot_points(game: Any, every: str = "step", side: str = UMPIRE) -> list[int]:
    """Event counts at which to take snapshots: after every ``"event"``, at the end of every
    ``"step"`` (a clock change) or of every ``"turn"``; always 0 and the last event. A side's
    points count the events it saw (:func:`~owsnb.kernel.view.renumber`)."""
    events = renumber(game.events[: game.cursor], side)
    return checkpoints(events, len(events), game.initial.clock.turn, every)


def _unit_facts(rs: Any, unit: Any) -> dict[str, Any]:
    return dict(rs.unit_facts(unit))


def _detected_by(rs: Any, state: GameState, unit: Any, side: str) -> bool:
    """Has *side* detected the enemy *unit*? (the rule set's ``unit_detected`` hook)."""
    return unit.side != side and bool(rs.unit_detected(state, unit, side))


def _numeric(
    prefix: str, mapping: Mapping[str, Any], out: dict[str, float], depth: int = 1
) -> dict[str, float]:
    """Numeric entries of a side's public facts, nested dashboards flattened one level
    (``{"space": {"c2": 3}}`` -> ``space_c2``)."""
    for key, val in mapping.items():
        if isinstance(val, bool):
            continue
        if isinstance(val, (int, float)):
            out[f"{prefix}{key}"] = val
        elif isinstance(val, Mapping) and depth > 0:
            _numeric(f"{prefix}{key}_", val, out, depth - 1)
    return out


def history(game: Any, *, side: str = UMPIRE, every: str = "step") -> xr.Dataset:
    """The history of *game* as seen by *side* (default the umpire), as an ``xarray.Dataset``.

    Args:
        game: a :class:`~owsnb.kernel.game.Game`, or a seat's remote handle
            (:func:`owsnb.connect`), whose history is built from that seat's views.
        side: whose knowledge to record (a side's dataset only holds what it detected).
        every: snapshot after every ``"event"``, ``"step"`` (default) or ``"turn"``.

    Returns:
        a Dataset with dims ``time``, ``unit``, ``side`` (and ``marker``); coordinates ``seq``,
        ``turn``, ``phase``, ``step`` along ``time``. A side's history is built from its views:
        enemy units appear as that side sees them (last-known positions, face-down aliases), its
        ``seq`` and ``attrs["events"]`` count the events it saw, and the dice seed is left out
        (``attrs["seed"] == -1``). ``lon``/``lat`` are filled on
        geographic maps; ``x_km``/``y_km`` are the planar hex centres on every map.
    """
    if getattr(game, "holds_truth", True) is False:  # a remote seat: built from its own views
        return game.history(side=None if side == UMPIRE else side, every=every)
    rs = game.ruleset
    points = snapshot_points(game, every, side)
    events = game.events
    at = points
    if side != UMPIRE:  # the side's n-th event is the game's seen[n - 1]-th
        seen_at = seen_positions(events[: game.cursor], side)
        at = [seen_at[p - 1] if p else 0 for p in points]
    states = []
    s = game.initial
    n = 0
    for p in at:
        while n < p:
            s = apply(s, events[n], rs.reducers)
            n += 1
        states.append(s)
    sides = list(game.initial.sides)
    # what the viewer sees at each snapshot, keyed by the id it sees (aliases for face-down units)
    seen: list[dict[str, Any]] = []
    for st in states:
        if side == UMPIRE:
            seen.append(dict(st.units))
            continue
        shown = {}
        for u in st.units.values():
            v = u if u.side == side else rs.view_unit(st, u, side)
            if v is not None:
                shown[v.id] = v
        seen.append(shown)
    unit_ids: dict[str, Any] = {}
    for shown in seen:
        for uid, u in shown.items():
            unit_ids.setdefault(uid, u)
    units = list(unit_ids)
    markers = sorted({m for shown in seen for u in shown.values() for m in u.markers})
    T, U, S, M = len(states), len(units), len(sides), len(markers)
    q = np.full((T, U), np.nan)
    r = np.full((T, U), np.nan)
    lon = np.full((T, U), np.nan)
    lat = np.full((T, U), np.nan)
    x_km = np.full((T, U), np.nan)
    y_km = np.full((T, U), np.nan)
    steps = np.zeros((T, U), dtype=np.int16)
    present = np.zeros((T, U), dtype=bool)
    label = np.full((T, U), "", dtype=object)
    box = np.full((T, U), "", dtype=object)
    mark = np.zeros((T, U, M), dtype=bool)
    detected = np.zeros((T, U, S), dtype=bool)
    facts: dict[str, np.ndarray] = {}
    side_facts: dict[str, np.ndarray] = {}
    layout = game.initial.map.layout
    geographic = layout is not None and getattr(layout, "projection", "") != "simple"
    midx = {m: i for i, m in enumerate(markers)}
    for t, st in enumerate(states):
        for j, uid in enumerate(units):
            u = seen[t].get(uid)
            if u is None:
                continue
            present[t, j] = True
            steps[t, j] = u.steps
            if u.hex is not None:
                q[t, j], r[t, j] = u.hex.q, u.hex.r
                label[t, j] = st.map.label(u.hex)
                if layout is not None:
                    x_km[t, j], y_km[t, j] = layout.hex_to_xy(u.hex)
                    if geographic:
                        lon[t, j], lat[t, j] = layout.centre(u.hex)
            box[t, j] = u.box or ""
            for m in u.markers:
                mark[t, j, midx[m]] = True
            for k, sd in enumerate(sides):
                detected[t, j, k] = (
                    _detected_by(rs, st, u, sd) if side == UMPIRE or sd == side else sd in u.seen_by
                )
            for key, val in _unit_facts(rs, u).items():
                arr = facts.get(key)
                if arr is None:
                    arr = facts[key] = (
                        np.full((T, U), np.nan)
                        if isinstance(val, (int, float))
                        else np.full((T, U), "", dtype=object)
                    )
                if isinstance(val, (int, float)) and arr.dtype != object:
                    arr[t, j] = val
                elif arr.dtype == object:
                    arr[t, j] = str(val)
        for k, sd in enumerate(sides):
            for key, val in _numeric("", st.sides[sd].public, {}).items():
                arr = side_facts.setdefault(key, np.full((T, S), np.nan))
                arr[t, k] = val
    unit_side = [unit_ids[u].side for u in units]
    unit_kind = [unit_ids[u].kind for u in units]
    ds = xr.Dataset(
        {
            "q": (("time", "unit"), q),
            "r": (("time", "unit"), r),
            "lon": (("time", "unit"), lon),
            "lat": (("time", "unit"), lat),
            "x_km": (("time", "unit"), x_km),
            "y_km": (("time", "unit"), y_km),
            "hex": (("time", "unit"), label.astype(str)),
            "box": (("time", "unit"), box.astype(str)),
            "steps": (("time", "unit"), steps),
            "present": (("time", "unit"), present),
            "markers": (("time", "unit", "marker"), mark),
            "detected": (("time", "unit", "by"), detected),
        },
        coords={
            "time": np.arange(T),
            "unit": units,
            "side": sides,
            "marker": markers,
            "by": sides,
            "seq": ("time", np.array(points)),
            "turn": ("time", np.array([st.clock.turn for st in states])),
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
    first_seen = present.argmax(axis=0)
    ds["steps_initial"] = (
        "unit",
        np.where(present.any(axis=0), steps[first_seen, np.arange(U)], 0).astype(np.int16),
    )
    alive = ds["present"] & (ds["steps"] > 0)
    ds["steps_total"] = (
        (ds["steps"].where(ds["present"], 0))
        .groupby("unit_side")
        .sum("unit")
        .rename(unit_side="side")
    )
    ds["units_alive"] = alive.groupby("unit_side").sum("unit").rename(unit_side="side")
    describe(ds)
    sc = game.initial.scenario
    ds.attrs.update(
        {
            "title": f"owsnb history: {sc.get('title', '')}",
            "Conventions": "CF-1.8 (attributes only: long_name, units)",
            "scenario": str(sc.get("id", "")),
            "ruleset": game.initial.ruleset,
            "options": json.dumps(dict(game.initial.options), default=str),
            "seed": int(game.meta["seed"])
            if game.meta.get("seed") is not None and side == UMPIRE
            else -1,
            "side_view": side,
            "every": every,
            "events": int(points[-1]) if side != UMPIRE else int(game.cursor),
            "owsnb_version": _version(),
        }
    )
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
        rows.append(
            {
                "seq": e.seq,
                "batch": e.batch,
                "turn": turn,
                "kind": e.kind,
                "rule": e.rule,
                "text": str(e),
                "visible_to": "all" if e.visible_to is None else ",".join(sorted(e.visible_to)),
                "data": json.dumps(_plain(e.data), default=str),
            }
        )
    return pd.DataFrame(
        rows, columns=["seq", "batch", "turn", "kind", "rule", "text", "visible_to", "data"]
    )


def annotations_table(game: Any) -> pd.DataFrame:
    """The game's annotations, one row each."""
    rows = [a.to_dict() for a in game.annotations]
    for row in rows:
        row["hex"] = (
            game.state.map.label(game.state.map.hex(tuple(row["hex"]))) if row["hex"] else ""
        )
        row["tags"] = ",".join(row["tags"])
    return pd.DataFrame(
        rows,
        columns=["id", "seq", "turn", "hex", "unit", "side", "author", "tags", "text", "created"],
    )


def _plain(obj: Any) -> Any:
    from owsnb.kernel.codec import encode

    try:
        return encode(obj)
    except TypeError:
        return str(obj)


def compare(branches: Mapping[str, Any] | Iterable[Any], *, side: str = UMPIRE) -> xr.Dataset:
    """Histories of several games (e.g. a game and its forks) in one Dataset with a ``branch``
    dimension, aligned on turns (the last snapshot of each turn)."""
    items = (
        branches.items()
        if isinstance(branches, Mapping)
        else ((f"branch-{i}", g) for i, g in enumerate(branches))
    )
    parts = []
    names = []
    for name, g in items:
        ds = history(g, side=side, every="step").owsnb.by_turn()
        parts.append(ds)
        names.append(name)
    out = xr.concat(
        parts,
        dim=pd.Index(names, name="branch"),
        join="outer",
        fill_value={"steps": 0, "present": False},
    )
    out.attrs = dict(parts[0].attrs)
    out.attrs["title"] = "owsnb branch comparison"
    return out
