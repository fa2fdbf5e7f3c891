"""Helpers for the OWS part-2 tests: the small tactical ground map of ``tests/data/ows-ground``."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

import owsnb

DATA = Path(__file__).parents[2] / "data" / "ows-ground"
BASE = yaml.safe_load((DATA / "ows-ground.yaml").read_text())


def scenario(
    units: dict[str, dict[str, Any]] | None = None,
    add: list[dict] | None = None,
    remove: tuple[str, ...] = (),
    keep: tuple[str, ...] | None = None,
    options: dict | None = None,
    tables: dict | None = None,
    map_: dict | None = None,
    **top: Any,
) -> dict:
    """The ground test scenario as a dict with per-unit overrides; ``keep`` keeps only these units."""
    d = copy.deepcopy(BASE)
    d["catalogs"] = [str(DATA / "ows-ground-units.yaml")]
    out = []
    for u in d["units"]:
        if u["id"] in remove or (keep is not None and u["id"] not in keep):
            continue
        ov = (units or {}).get(u["id"], {})
        if "data" in ov:
            u.setdefault("data", {}).update(ov["data"])
            ov = {k: v for k, v in ov.items() if k != "data"}
        u.update(ov)
        if u.get("box") is not None:
            u.pop("hex", None)
        out.append(u)
    d["units"] = out + list(add or [])
    if options:
        d["options"] = {**d.get("options", {}), **options}
    if tables:
        d["tables"] = tables
    if map_:
        for k, v in map_.items():
            d["map"][k] = v
    d.update(top)
    return d


def gload(seed: int = 3, **kw: Any) -> owsnb.Game:
    return owsnb.load(scenario(**kw), seed=seed, save=False)


def unit(**kw: Any) -> dict[str, Any]:
    """A unit entry: ``unit(id="X", type="mech-bn", side="red", hex="0805")``."""
    return dict(kw)


def h(game: Any, label: str) -> Any:
    return game.state.map.hex(label)


def blank(
    units: list[dict[str, Any]],
    *,
    terrain: dict[str, str] | None = None,
    edges: list[dict] | None = None,
    size: float = 20,
    cols: int = 8,
    rows: int = 8,
    options: dict | None = None,
    tables: dict | None = None,
    features: list[dict] | None = None,
    meta: dict | None = None,
    **top: Any,
) -> owsnb.Game:
    """A clear cols x rows map of *size* km hexes with just these units (catalog of the ground tests)."""
    d = {
        "owsnb": 1,
        "id": "ows-blank",
        "title": "blank test map",
        "ruleset": "ows",
        "initiative": "blue",
        "map": {
            "layout": {"orientation": "flat", "size": size, "unit": "km"},
            "cols": cols,
            "rows": rows,
            "terrain": {"default": "clear", "hexes": dict(terrain or {})},
            "features": list(features or []),
            "edges": list(edges or []),
            "meta": {"scale": "tactical", **(meta if meta is not None else {"zone_km": 100})},
        },
        "sides": {"blue": {"title": "Blue"}, "red": {"title": "Red"}},
        "catalogs": [str(DATA / "ows-ground-units.yaml")],
        "units": units,
    }
    if options:
        d["options"] = options
    if tables:
        d["tables"] = tables
    d.update(top)
    return owsnb.load(d, seed=top.pop("seed", 3) if "seed" in top else 3, save=False)


def nbrs(label: str) -> list[str]:
    """Labels of the on-board neighbours of a hex (flat, odd columns shifted, from 0101)."""
    from owsnb.kernel.offset import OffsetSystem

    o = OffsetSystem()
    out = []
    for n in o.from_label(label).neighbours():
        try:
            lab = o.to_label(n)
        except Exception:
            continue
        if int(lab[:2]) >= 1 and int(lab[2:]) >= 1:
            out.append(lab)
    return out


def line(start: str, direction: int, n: int) -> list[str]:
    """*n* hexes from *start* in one of the six directions (start included)."""
    from owsnb.kernel.offset import OffsetSystem

    o = OffsetSystem()
    hx = o.from_label(start)
    out = [start]
    for _ in range(n - 1):
        hx = hx.neighbour(direction)
        out.append(o.to_label(hx))
    return out
