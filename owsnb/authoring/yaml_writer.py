"""Scenario YAML out: block layout, one-line entries, hex labels always quoted, and the
coastline/borders layer written beside the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from owsnb.kernel.geo import NM_KM

__all__ = ["dump_yaml", "write_scenario"]


class _Label(str):
    """A printed hex label: always written quoted ("0304"), never read back as a number."""


class _Flow(list):
    """A list written on one line."""


class _FlowMap(dict):
    """A mapping written on one line."""


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
    if isinstance(obj, (list, tuple)):
        items = [_styled(v, key, depth + 1) for v in obj]
        if key in _LABEL_KEYS:
            items = [_Label(v) if isinstance(v, str) else v for v in items]
        if all(not isinstance(v, (Mapping, list, tuple)) or isinstance(v, _Flow) for v in items):
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
    if background and "extent" in meta:
        from owsnb.authoring.coast import background_geojson

        lay = mp["layout"]
        hex_km = float(lay["size"]) * (NM_KM if lay.get("unit") == "nm" else 1.0)
        tol = simplify_km if simplify_km is not None else round(hex_km / 40, 3)
        fc = background_geojson(meta["extent"], simplify_km=tol, precision=3 if hex_km >= 5 else 4)
        rel = f"maps/{scn['id']}-coast.geojson"
        target = path.parent / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        import json

        target.write_text(json.dumps(fc, separators=(",", ":")) + "\n", encoding="utf-8")
        meta["coast"] = rel
    mp["meta"] = meta
    scn["map"] = mp
    path.write_text(dump_yaml(scn), encoding="utf-8")
    return path
