"""Scenario YAML out: block layout, one-line entries, hex labels always quoted, and the
coastline/borders layer written beside the file.

:func:`dump_yaml` writes a mapping in the order given; :func:`dump_scenario` writes a whole
scenario as the editor saves it, so that it diffs cleanly in git: keys in the schema's order
(:data:`SCENARIO_KEYS`), one unit a line, one feature or edge a line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from owsnb.kernel.geo import NM_KM

__all__ = ["dump_yaml", "dump_scenario", "write_scenario", "write_background", "SCENARIO_KEYS"]


class _Label(str):
    """A printed hex label: always written quoted ("0304"), never read back as a number."""


class _Flow(list):
    """A list written on one line."""


class _FlowMap(dict):
    """A mapping written on one line."""


class _Block(list):
    """A list written one item a line (a scenario's special rules)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(
    _Label, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", str(s), style='"')
)
_Dumper.add_representer(
    _Flow, lambda d, s: d.represent_sequence("tag:yaml.org,2002:seq", list(s), flow_style=True)
)
_Dumper.add_representer(
    _FlowMap, lambda d, s: d.represent_mapping("tag:yaml.org,2002:map", dict(s), flow_style=True)
)
_Dumper.add_representer(
    str,
    lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None),
)

_LABEL_KEYS = {"hexes", "hex", "rect", "around"}


def _styled(obj: Any, key: str = "", depth: int = 0) -> Any:
    if isinstance(obj, Mapping):
        out = {k: _styled(v, str(k), depth + 1) for k, v in obj.items()}
        if key in ("hexes",) and depth > 0 and all(isinstance(v, str) for v in obj.values()):
            return _FlowMap({_Label(k): v for k, v in out.items()})
        small = all(
            not isinstance(v, (Mapping, list)) or isinstance(v, (_Flow, _FlowMap))
            for v in out.values()
        )
        if small and depth >= 3 and len(str(obj)) < 400 and "briefing" not in obj:
            return _FlowMap(out)
        return out
    if isinstance(obj, _Block):
        return [_styled(v, key, depth + 1) for v in obj]
    if isinstance(obj, (list, tuple)):
        items = [_styled(v, key, depth + 1) for v in obj]
        if key in _LABEL_KEYS:
            items = [_Label(v) if isinstance(v, str) else v for v in items]
        prose = any(isinstance(v, str) and len(v) > 60 for v in items)  # sentences: a block list
        rows = bool(items) and all(isinstance(v, _Flow) for v in items)  # a table: a row a line
        if (
            not prose
            and not rows
            and all(
                not isinstance(v, (Mapping, list, tuple)) or isinstance(v, _Flow) for v in items
            )
        ):
            return _Flow(items)
        return items
    if key in ("hex", "anchor") and isinstance(obj, str):
        return _Label(obj)
    return obj


def dump_yaml(scenario: Mapping[str, Any]) -> str:
    """The scenario as YAML: block layout, one-line entries, labels always quoted.

    Example:
        >>> print(dump_yaml({"id": "x", "map": {"terrain": {"hexes": {"0304": "urban"}},
        ...                  "edges": [{"type": "road", "hexes": ["0101", "0102"]}]}}), end="")
        id: x
        map:
          terrain:
            hexes: {"0304": urban}
          edges:
          - {type: road, hexes: ["0101", "0102"]}
    """
    return yaml.dump(
        _styled(scenario),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
    )


SCENARIO_KEYS = (
    "owsnb",
    "id",
    "title",
    "ruleset",
    "description",
    "turns",
    "seed",
    "initiative",
    "clock",
    "options",
    "briefing",
    "briefing_file",
    "victory",
    "special_rules",
    "map",
    "coach",
    "sides",
    "catalogs",
    "tables",
    "rules",
    "units",
)
"""The order of a scenario's top-level keys as :func:`dump_scenario` writes them (the bundled
scenarios' order; keys it does not know follow, in their own order)."""

_FIRST = {
    "map": ("layout", "labels", "cols", "rows", "hexes", "terrain", "features", "edges", "meta"),
    "unit": ("id", "type", "side", "hex", "box", "name", "steps", "markers", "seen_by", "data"),
    "feature": ("hex", "type", "name"),
    "edge": ("type", "name", "hexes"),
}


def _ordered(obj: Mapping[str, Any], first: tuple[str, ...]) -> dict[str, Any]:
    out = {k: obj[k] for k in first if k in obj}
    out.update((k, v) for k, v in obj.items() if k not in out)
    return out


def _flow(obj: Any, key: str = "") -> Any:
    """*obj* written on one line (nested mappings and lists too; hex labels quoted)."""
    if isinstance(obj, Mapping):
        return _FlowMap({k: _flow(v, str(k)) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        items = [_flow(v, key) for v in obj]
        if key in _LABEL_KEYS:
            items = [_Label(v) if isinstance(v, str) else v for v in items]
        return _Flow(items)
    if key in ("hex", "anchor") and isinstance(obj, str):
        return _Label(obj)
    return obj


_LINES: dict[str, str] = {}


def _line(obj: Any) -> str:
    """*obj* as one line of YAML (remembered: a scenario's units rarely change between saves)."""
    key = repr(obj)  # types kept apart: 1, 1.0, True, "1", a date
    text = _LINES.get(key)
    if text is None:
        text = yaml.dump(
            _flow(obj), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000
        ).strip()
        if len(_LINES) > 50_000:
            _LINES.clear()
        _LINES[key] = text
    return text


def dump_scenario(scenario: Mapping[str, Any]) -> str:
    """A whole scenario as YAML that diffs cleanly: top-level keys in :data:`SCENARIO_KEYS`
    order, the map's keys in the schema's order, each unit and each map feature on one line (a
    unit's ``id, type, side, hex|box`` first), sentences as block lists. The same data always
    gives the same text.

    Example:
        >>> print(dump_scenario({"units": [{"side": "blue", "hex": "0101", "id": "B-1",
        ...                                  "type": "inf", "data": {"hq": "B-HQ"}}],
        ...                      "title": "Demo", "id": "demo", "special_rules": ["one", "two"]}),
        ...       end="")
        id: demo
        title: Demo
        special_rules:
        - one
        - two
        units:
        - {id: B-1, type: inf, side: blue, hex: "0101", data: {hq: B-HQ}}
    """
    top = _ordered(scenario, SCENARIO_KEYS)
    units = top.pop("units", None)
    if isinstance(top.get("special_rules"), list):
        top["special_rules"] = _Block(top["special_rules"])
    mp = top.get("map")
    lines: dict[str, list[str]] = {}
    if isinstance(mp, Mapping):
        mp = _ordered(mp, _FIRST["map"])
        if isinstance(mp.get("features"), list) and mp["features"]:
            lines["features"] = [_line(_ordered(x, _FIRST["feature"])) for x in mp["features"]]
            mp["features"] = "@@features@@"  # a mark, replaced by the lines below
        if isinstance(mp.get("edges"), list):
            mp["edges"] = [_ordered(x, _FIRST["edge"]) for x in mp["edges"]]
        top["map"] = mp
    parts = [dump_yaml(top) if top else ""]
    for key, rows in lines.items():
        block = "".join(f"  - {r}\n" for r in rows)
        parts[0] = parts[0].replace(f"  {key}: '@@{key}@@'\n", f"  {key}:\n{block}")
    if units is not None:
        body = "".join(f"- {_line(_ordered(u, _FIRST['unit']))}\n" for u in units)
        parts.append(f"units:\n{body}" if units else "units: []\n")
    return "".join(parts)


def write_background(
    scenario: Mapping[str, Any], path: str | Path, *, simplify_km: float | None = None
) -> str | None:
    """Write the offline coastline/borders layer of *scenario*'s map beside the scenario file
    *path* (``maps/<id>-coast.geojson``, cut from Natural Earth over ``map.meta.extent``, see
    :mod:`owsnb.authoring.coast`). Returns that relative path (``None``: the map has no extent,
    an abstract board)."""
    mp = scenario["map"]
    meta = mp.get("meta") or {}
    if "extent" not in meta:
        return None
    from owsnb.authoring.coast import background_geojson

    lay = mp["layout"]
    hex_km = float(lay["size"]) * (NM_KM if lay.get("unit") == "nm" else 1.0)
    tol = simplify_km if simplify_km is not None else round(hex_km / 40, 3)
    fc = background_geojson(meta["extent"], simplify_km=tol, precision=3 if hex_km >= 5 else 4)
    rel = f"maps/{scenario['id']}-coast.geojson"
    target = Path(path).parent / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(fc, separators=(",", ":")) + "\n", encoding="utf-8")
    return rel


def write_scenario(
    scenario: Mapping[str, Any],
    path: str | Path,
    *,
    background: bool = True,
    simplify_km: float | None = None,
    keep_existing: bool = False,
) -> Path:
    """Save a scenario as YAML, with its coastline/borders layer beside it.

    Args:
        scenario: a dict from :func:`new_scenario` (or any scenario dict).
        path: the ``.yaml`` file to write (folders are created).
        background: also write ``maps/<id>-coast.geojson`` next to the file (Natural Earth coast
            and borders over the map's extent, see :mod:`owsnb.authoring.coast`) and record it
            as ``map.meta.coast``.
        simplify_km: tolerance of that layer (default a fortieth of a hex).
        keep_existing: if *path* exists, replace only its ``map`` (keeping units, briefing and
            every other key of the file; comments are not kept).

    Returns:
        the path written.
    """
    path = Path(path)
    scn = dict(scenario)
    if keep_existing and path.is_file():
        old = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if isinstance(old, Mapping):
            scn = {**old, "map": scn["map"]}
    mp = dict(scn["map"])
    meta = dict(mp.get("meta") or {})
    path.parent.mkdir(parents=True, exist_ok=True)
    if background:
        rel = write_background(scn, path, simplify_km=simplify_km)
        if rel is not None:
            meta["coast"] = rel
    mp["meta"] = meta
    scn["map"] = mp
    path.write_text(dump_yaml(scn), encoding="utf-8")
    return path
