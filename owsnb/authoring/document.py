"""A scenario being edited: plain data, every change undoable, checked by the game's own loader.

:class:`ScenarioDocument` holds a scenario as its YAML file holds it (a plain dict) and changes it
only through named edits — paint a hex, place a feature, a river, a unit, set an option, a table
value, a new map from a box — each of which is a step of an undo/redo history. After every edit
the document writes the YAML it would save (:func:`~owsnb.authoring.yaml_writer.dump_scenario`)
and checks that text with the loader the game uses (:func:`~owsnb.scenario.loader.load_text`,
then :func:`~owsnb.scenario.loader.build_state`): :attr:`ScenarioDocument.problems` lists what
it found, each with its key path, and :attr:`ScenarioDocument.shown` is the state to draw (the
last one the loader built, with the problem parts set aside).

An edit that cannot apply (no such unit, a hex off the map) raises :class:`EditError` and changes
nothing; an edit that applies but leaves a problem (a squadron over an airfield's capacity) is
kept, listed, and can be undone. Nothing is lost.

The scenario editor (:class:`owsnb.pages.editor.Editor`) is this document behind a map; a
notebook can use it directly.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> doc = ScenarioDocument("tutorial", path=Path(tmp.name) / "tutorial.yaml")
    >>> doc.problems, doc.data["units"][0]["hex"]
    ((), '1210')
    >>> doc.move_unit("B-DDG-1801", hex="1110")
    >>> doc.shown.units["B-DDG-1801"].hex == doc.shown.map.hex("1110")
    True
    >>> doc.move_unit("B-DDG-1801", hex="9999")
    Traceback (most recent call last):
    ...
    owsnb.authoring.document.EditError: hex 9999 is off the map (21 columns x 15 rows)
    >>> doc.undo(); doc.data["units"][0]["hex"]
    '1210'
    >>> path = doc.save()
    >>> import owsnb
    >>> owsnb.load(path, save=False).unit("B-DDG-1801").name
    'ROCS Kee Lung (DDG-1801)'
    >>> tmp.cleanup()
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import yaml

from owsnb.authoring.yaml_writer import dump_scenario, write_background
from owsnb.kernel.data import FrozenDict, deep_merge, freeze
from owsnb.kernel.editing import EditorSpec
from owsnb.kernel.errors import (
    InvalidHexError,
    ScenarioError,
    UnknownRulesetError,
    key_path,
    split_key_path,
)
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import GameState, Unit
from owsnb.scenario.loader import build_state, find_scenario, load_text, scenario_dirs

__all__ = [
    "ScenarioDocument",
    "Problem",
    "EditError",
    "CatalogFile",
    "catalog_files",
    "new_document",
    "HISTORY",
]

HISTORY = 200
"""Edits kept for undo."""

_LINE = re.compile(r"\s*\(line \d+\)$")
_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")


class EditError(ValueError):
    """An edit that cannot apply (the document is left as it was)."""


@dataclass(frozen=True)
class Problem:
    """One problem the loader found: where (key path), what, and what on the map it concerns.

    Attributes:
        where: the key path (``units[3].hex``), with its line in the saved text when known.
        message: what is wrong.
        file: the file it is in (the scenario, or a catalog it names).
        unit: the id of the unit it concerns, if any.
        hex: the printed label of the hex to outline, if any.
    """

    where: str
    message: str
    file: str = ""
    unit: str | None = None
    hex: str | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass(frozen=True)
class CatalogFile:
    """A unit catalog the palette offers: its file, the scale it is for, its counter types."""

    path: Path
    scale: str
    title: str
    types: Mapping[str, Mapping[str, Any]]  # key -> the catalog entry (+ "catalog": its file)


def catalog_files(ruleset: str, extra: Iterable[Path] = ()) -> list[CatalogFile]:
    """The catalogs of *ruleset* in the scenario folders (``catalogs/`` matching its editor
    declaration) plus *extra* files, each once."""
    spec = _spec(ruleset)
    seen: dict[Path, str] = {}
    for d in scenario_dirs():
        for pattern, scale in spec.catalogs.items():
            for p in sorted((d / "catalogs").glob(pattern)):
                seen.setdefault(p.resolve(), scale)
    for p in extra:
        scale = next((s for pat, s in spec.catalogs.items() if fnmatch(p.name, pat)), "")
        seen.setdefault(Path(p).resolve(), scale)
    out = []
    for p, scale in seen.items():
        data = _read_catalog(p)
        if data.get("ruleset") != ruleset:
            continue
        types = {
            str(k): {**v, "catalog": str(p)}
            for k, v in (data.get("types") or {}).items()
            if isinstance(v, Mapping)
        }
        out.append(CatalogFile(p, scale, str(data.get("title") or p.stem), types))
    return out


_CATALOG_CACHE: dict[Path, tuple[float, dict[str, Any]]] = {}


def _read_catalog(path: Path) -> dict[str, Any]:
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    hit = _CATALOG_CACHE.get(path)
    if hit is None or hit[0] != mtime:
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506
        except (OSError, yaml.YAMLError):
            data = {}
        hit = (mtime, data if isinstance(data, dict) else {})
        _CATALOG_CACHE[path] = hit
    return hit[1]


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _spec(ruleset: str) -> EditorSpec:
    try:
        rs = get_ruleset(ruleset)
    except (UnknownRulesetError, ImportError):
        return EditorSpec()
    return rs.editor or EditorSpec()


def new_document(
    id: str = "new-scenario",
    title: str = "New scenario",
    *,
    ruleset: str = "ows",
    path: str | os.PathLike | None = None,
) -> ScenarioDocument:
    """An empty scenario to start from: sides blue and red, no map yet (draw a box, or call
    :meth:`ScenarioDocument.new_map`)."""
    data = {
        "owsnb": 1,
        "id": id,
        "title": title,
        "ruleset": ruleset,
        "sides": {
            "blue": {"title": "Blue", "color": "#1f5fbf"},
            "red": {"title": "Red", "color": "#c0392b"},
        },
        "catalogs": [],
        "units": [],
    }
    return ScenarioDocument(data, path=path or Path.cwd() / f"{id}.yaml")


class ScenarioDocument:
    """A scenario being edited (see the module docstring).

    Args:
        source: a scenario file, a bundled name (``"tutorial"``) or a dict in the file's shape.
        path: where :meth:`save` writes (default: the file it came from; a bundled scenario or a
            dict has none until given). Relative file names in the scenario (catalogs, the
            coastline) resolve next to it.

    Raises:
        ScenarioError: *source* is not a readable YAML mapping.
    """

    def __init__(
        self,
        source: str | os.PathLike | Mapping[str, Any],
        *,
        path: str | os.PathLike | None = None,
    ):
        origin: Path | None = None
        if isinstance(source, Mapping):
            data = copy.deepcopy(dict(source))
        else:
            origin = find_scenario(source)
            try:
                data = yaml.load(origin.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506
            except yaml.YAMLError as exc:
                raise ScenarioError(f"{origin}: not valid YAML: {exc}", file=str(origin)) from None
            if not isinstance(data, dict):
                raise ScenarioError(f"{origin}: a scenario is a mapping", file=str(origin))
        self.origin = origin
        self._path: Path = Path(path) if path is not None else (origin or Path.cwd() / "x.yaml")
        if origin is not None and path is not None and Path(path).parent != origin.parent:
            data = _rebase(data, origin.parent, Path(path).parent)
        self._history: list[tuple[str, dict[str, Any]]] = [("open", data)]
        self._at = 0
        self._saved: dict[str, Any] | None = None
        self.problems: tuple[Problem, ...] = ()
        self.shown: GameState | None = None
        self.ruleset: Any = None
        self.valid = False
        self.text = ""
        self._check()
        if origin is not None and self.path.resolve() == origin.resolve():
            self._saved = self.data  # as opened: nothing to save yet

    # -- reading -------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        """Where :meth:`save` writes; relative file names in the scenario resolve next to it.
        Setting it (another file, same folder) makes the document unsaved."""
        return self._path

    @path.setter
    def path(self, value: str | os.PathLike) -> None:
        if Path(value) != self._path:
            self._path = Path(value)
            self._saved = None

    @property
    def data(self) -> dict[str, Any]:
        """The scenario now, as its file holds it (do not change it in place: use the edits)."""
        return self._history[self._at][1]

    @property
    def editor(self) -> EditorSpec:
        """The rule set's editor declaration (a generic one if it has none)."""
        return _spec(str(self.data.get("ruleset", "")))

    @property
    def dirty(self) -> bool:
        """True when the scenario differs from what was last saved at :attr:`path` (or opened
        from it)."""
        return self.data != self._saved

    @property
    def has_map(self) -> bool:
        return isinstance(self.data.get("map"), Mapping)

    def __repr__(self) -> str:
        n = len(self.problems)
        return (
            f"<ScenarioDocument {self.data.get('id')!r} ({self.data.get('ruleset')}): "
            f"{len(self.data.get('units') or [])} units, "
            f"{'valid' if self.valid else f'{n} problem' + ('s' if n != 1 else '')}>"
        )

    def history(self) -> list[str]:
        """The edits made, oldest first (``*`` marks where the document is now)."""
        return [
            ("* " if i == self._at else "  ") + label for i, (label, _) in enumerate(self._history)
        ]

    @property
    def can_undo(self) -> bool:
        return self._at > 0

    @property
    def can_redo(self) -> bool:
        return self._at < len(self._history) - 1

    def catalogs(self) -> list[CatalogFile]:
        """The catalogs the palette offers: the rule set's, and any the scenario names."""
        extra = [self._resolve(str(c)) for c in self.data.get("catalogs") or []]
        return catalog_files(str(self.data.get("ruleset", "")), [p for p in extra if p.is_file()])

    def counter_types(self) -> dict[str, Mapping[str, Any]]:
        """Every counter type of :meth:`catalogs` by key (the scenario's own catalogs first)."""
        named = {self._resolve(str(c)).resolve() for c in self.data.get("catalogs") or []}
        out: dict[str, Mapping[str, Any]] = {}
        for cat in sorted(self.catalogs(), key=lambda c: c.path not in named):
            for k, t in cat.types.items():
                out.setdefault(k, t)
        return out

    def unit(self, uid: str) -> dict[str, Any]:
        """The scenario entry of unit *uid* (a copy).

        Raises:
            EditError: no such unit.
        """
        return copy.deepcopy(self._units()[self._unit_index(uid)])

    def payload(self, uid: str) -> dict[str, Any]:
        """Unit *uid*'s payload as the game sees it: its catalog type's ``data`` with the unit's
        own ``data`` over it."""
        u = self._units()[self._unit_index(uid)]
        t = self.counter_types().get(str(u.get("type")), {})
        return deep_merge(t.get("data") or {}, u.get("data") or {})

    def table(self, name: str) -> Any:
        """Data table *name* as the game will use it: the rule set's, with the scenario's
        override merged in (as the loader merges it)."""
        default = self.default_tables().get(name)
        if default is None:
            raise EditError(f"{self.data.get('ruleset')} has no data table {name!r}")
        over = (self.data.get("tables") or {}).get(name)
        if over is None:
            return copy.deepcopy(default)
        if isinstance(over, Mapping) and isinstance(default, Mapping):
            return deep_merge(default, over)
        return copy.deepcopy(over)

    def labels(self) -> list[str]:
        """The printed labels of the map's hexes (empty without a map)."""
        st = self.shown
        return [] if st is None else [st.map.label(h) for h in st.map.hexes]

    # -- history -------------------------------------------------------------------------------
    def undo(self) -> None:
        """Go back one edit (nothing happens at the start)."""
        if self._at > 0:
            self._at -= 1
            self._check()

    def redo(self) -> None:
        """Re-apply the edit undone last (nothing happens at the end)."""
        if self._at < len(self._history) - 1:
            self._at += 1
            self._check()

    def _commit(self, label: str, data: dict[str, Any]) -> None:
        if data == self.data:
            return
        del self._history[self._at + 1 :]
        self._history.append((label, data))
        if len(self._history) > HISTORY:
            del self._history[0]
        self._at = len(self._history) - 1
        self._check()

    def _draft(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)

    # -- scenario-level edits ------------------------------------------------------------------
    def set(self, key: str | Sequence[Any], value: Any) -> None:
        """Set a key of the scenario (``"briefing"``, ``"clock.turn"``, ``"sides.blue.title"``);
        ``None`` or ``""`` removes it (so the loader's default applies).

        Raises:
            EditError: the path runs through something that is not a mapping.
        """
        parts = _parts(key)
        d = self._draft()
        node = d
        for p in parts[:-1]:
            nxt = node.get(p) if isinstance(node, dict) else None
            if nxt is None:
                nxt = node[p] = {}
            if not isinstance(nxt, dict):
                raise EditError(f"{'.'.join(map(str, parts))}: {p!r} is not a mapping")
            node = nxt
        if value is None or value == "":
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = copy.deepcopy(value)
        _prune(d, parts[:-1])
        self._commit(f"set {'.'.join(map(str, parts))}", d)

    def set_option(self, name: str, value: Any) -> None:
        """Set rule-set option *name* (back to its default: removed from the file).

        Raises:
            EditError: the rule set has no such option.
        """
        rs = self._ruleset()
        opt = rs.options.get(name) if rs is not None else None
        if opt is None:
            raise EditError(f"no option {name!r} in {self.data.get('ruleset')}")
        d = self._draft()
        opts = dict(d.get("options") or {})
        if value == opt.default and type(value) is type(opt.default):
            opts.pop(name, None)
        else:
            opts[name] = value
        if opts:
            d["options"] = opts
        else:
            d.pop("options", None)
        self._commit(f"option {name} = {value!r}", d)

    def add_side(self, name: str, title: str = "", color: str = "#888888") -> None:
        """Add a side.

        Raises:
            EditError: a bad or taken name.
        """
        if not name or not _KEY.match(name):
            raise EditError(f"{name!r} cannot name a side (letters, digits, - and _)")
        d = self._draft()
        sides = d.setdefault("sides", {})
        if name in sides:
            raise EditError(f"there is already a side {name!r}")
        sides[name] = {"title": title or name.title(), "color": color}
        self._commit(f"add side {name}", d)

    def remove_side(self, name: str) -> None:
        """Remove a side that has no units.

        Raises:
            EditError: no such side, or it still has units.
        """
        d = self._draft()
        if name not in (d.get("sides") or {}):
            raise EditError(f"no side {name!r}")
        used = [u["id"] for u in d.get("units") or [] if u.get("side") == name]
        if used:
            raise EditError(f"side {name!r} still has units: {', '.join(used[:5])}")
        del d["sides"][name]
        self._commit(f"remove side {name}", d)

    def set_table(self, name: str, key: str | Sequence[Any], value: Any) -> None:
        """Set one value of data table *name* (``key`` a path inside it, ``"cells[1][3]"``); the
        scenario keeps only what differs from the rule set's table.

        Raises:
            EditError: no such table or path.
        """
        default = self.default_tables().get(name)
        if default is None:
            raise EditError(f"{self.data.get('ruleset')} has no data table {name!r}")
        table = self.table(name)
        parts = _parts(key)
        node = table
        try:
            for p in parts[:-1]:
                node = node[p]
            if isinstance(node, list):
                node[int(parts[-1])] = value
            elif isinstance(node, dict):
                node[parts[-1]] = value
            else:
                raise TypeError
        except (KeyError, IndexError, TypeError, ValueError):
            raise EditError(f"table {name} has no {'.'.join(map(str, parts))}") from None
        self._set_table_override(
            name, table, default, f"table {name}.{key_path(parts)} = {value!r}"
        )

    def replace_table(self, name: str, value: Any) -> None:
        """Replace data table *name* as a whole (typed in as YAML: only what differs is kept)."""
        default = self.default_tables().get(name)
        if default is None:
            raise EditError(f"{self.data.get('ruleset')} has no data table {name!r}")
        self._set_table_override(name, value, default, f"table {name}")

    def _set_table_override(self, name: str, table: Any, default: Any, label: str) -> None:
        d = self._draft()
        over = _diff(default, table)
        tables = dict(d.get("tables") or {})
        if over is _SAME:
            tables.pop(name, None)
        else:
            tables[name] = over
        if tables:
            d["tables"] = tables
        else:
            d.pop("tables", None)
        self._commit(label, d)

    # -- the map -------------------------------------------------------------------------------
    def new_map(
        self,
        bbox: Sequence[float],
        hex_size: str | float = "20km",
        *,
        orientation: str = "flat",
        land: str | None = None,
        is_land: Any = None,
    ) -> None:
        """Lay a new map over a lon/lat box (classified land, littoral and deep sea offline by
        :func:`~owsnb.authoring.generate.new_scenario`); the rest of the scenario is kept (units
        now off the map are listed as problems, to move or remove).

        Raises:
            EditError: a bad box or hex size, or a map too large to author here.
        """
        from owsnb.authoring.generate import new_scenario

        d = self._draft()
        terrains = self.terrains()
        land = land or ("clear" if "clear" in terrains or not terrains else terrains[0])
        try:
            scn = new_scenario(
                str(d.get("id") or "new"),
                str(d.get("title") or "New"),
                ruleset=str(d.get("ruleset") or "ows"),
                bbox=tuple(float(v) for v in bbox),
                hex_size=hex_size,
                orientation=orientation,  # type: ignore[arg-type]
                land=land,
                is_land=is_land,
            )
        except (ScenarioError, ValueError) as exc:
            raise EditError(str(exc)) from None
        mp = scn["map"]
        n = int(mp["cols"]) * int(mp["rows"])
        if n > 20_000:
            raise EditError(f"{n} hexes is too many for the editor: a smaller box or larger hexes")
        scales = {s for s in self.editor.catalogs.values() if s}
        if scales:
            km = float(mp["layout"]["size"]) * (1.852 if mp["layout"]["unit"] == "nm" else 1.0)
            mp["meta"]["scale"] = "tactical" if km < 100 else "operational"
        d["map"] = mp
        if not d.get("sides"):
            d["sides"] = scn["sides"]
        w, s, e, n_ = (round(float(v), 3) for v in bbox)
        self._commit(f"new map {hex_size} over {w},{s},{e},{n_}", d)

    def new_board(
        self, cols: int, rows: int, terrain: str | None = None, *, size_km: float = 1.0
    ) -> None:
        """An abstract board of *cols* x *rows* hexes of *terrain* (default the rule set's first),
        not on the Earth (as printed boardgame maps are); the rest of the scenario is kept.

        Raises:
            EditError: a size out of 1..200.
        """
        if not (1 <= int(cols) <= 200 and 1 <= int(rows) <= 200):
            raise EditError("a board has 1 to 200 columns and rows")
        d = self._draft()
        terrains = self.terrains()
        d["map"] = {
            "layout": {"orientation": "flat", "size": float(size_km), "unit": "km"},
            "cols": int(cols),
            "rows": int(rows),
            "terrain": {"default": terrain or (terrains[0] if terrains else "clear")},
        }
        if not d.get("sides"):
            d["sides"] = {"blue": {"title": "Blue"}, "red": {"title": "Red"}}
        self._commit(f"new board {cols} x {rows}", d)

    def paint(self, label: str, terrain: str) -> None:
        """Give hex *label* the terrain *terrain* (``map.terrain.hexes``).

        Raises:
            EditError: no map, or the hex is off it.
        """
        self._on_map(label)
        d = self._draft()
        tmap = d["map"].setdefault("terrain", {})
        hexes = dict(tmap.get("hexes") or {})
        if self.shown is not None and self._terrain_of(label) == terrain and label not in hexes:
            return
        hexes[label] = terrain
        tmap["hexes"] = dict(sorted(hexes.items()))
        self._commit(f"paint {label} {terrain}", d)

    def add_feature(self, label: str, type: str, name: str = "", **facts: Any) -> None:
        """Put a feature (port, airfield, city...) in hex *label*; a feature of that type already
        there is replaced. New facts start from the rule set's declared defaults.

        Raises:
            EditError: no map, or the hex is off it.
        """
        self._on_map(label)
        d = self._draft()
        feats = [
            f
            for f in d["map"].setdefault("features", [])
            if not (f.get("hex") == label and f.get("type") == type)
        ]
        decl = self.editor.feature(type)
        entry: dict[str, Any] = {"hex": label, "type": type}
        if name:
            entry["name"] = name
        entry.update({k: v for k, v in (decl.facts if decl else {}).items() if v not in ("", None)})
        entry.update({k: v for k, v in facts.items() if v is not None})
        feats.append(entry)
        d["map"]["features"] = feats
        self._commit(f"{type} in {label}", d)

    def remove_feature(self, label: str, type: str) -> None:
        """Take the feature of *type* out of hex *label* (nothing happens if there is none)."""
        d = self._draft()
        if not self.has_map:
            return
        feats = d["map"].get("features") or []
        d["map"]["features"] = [
            f for f in feats if not (f.get("hex") == label and f.get("type") == type)
        ]
        self._commit(f"remove {type} from {label}", d)

    def features_at(self, label: str) -> list[dict[str, Any]]:
        """The features the scenario puts in hex *label* (copies)."""
        if not self.has_map:
            return []
        return [
            copy.deepcopy(f)
            for f in self.data["map"].get("features") or []
            if f.get("hex") == label
        ]

    def toggle_edge(self, a: str, b: str, type: str, name: str = "") -> bool:
        """Add a hexside feature (river, road, border...) between adjacent hexes *a* and *b*, or
        take it away if it is there. A new one extends a chain of the same type and name that
        ends at *a* or *b*. Returns whether the hexside now has it.

        Raises:
            EditError: the hexes are off the map or not adjacent.
        """
        ha, hb = self._on_map(a), self._on_map(b)
        if ha.distance(hb) != 1:
            raise EditError(f"{a} and {b} are not adjacent: a {type} runs between neighbours")
        d = self._draft()
        edges = d["map"].setdefault("edges", [])
        pair = {a, b}
        for i, e in enumerate(edges):
            if e.get("type") != type:
                continue
            chain = list(e.get("hexes") or [])
            for k in range(len(chain) - 1):
                if {chain[k], chain[k + 1]} == pair:  # there: take it out, split the chain
                    left, right = chain[: k + 1], chain[k + 1 :]
                    parts = [p for p in (left, right) if len(p) >= 2]
                    edges[i : i + 1] = [{**e, "hexes": p} for p in parts]
                    self._commit(f"remove {type} {a}|{b}", d)
                    return False
        for e in edges:
            if e.get("type") != type or (name and e.get("name", "") != name):
                continue
            chain = e["hexes"]
            if chain[-1] in pair:
                chain.append(b if chain[-1] == a else a)
                break
            if chain[0] in pair:
                chain.insert(0, b if chain[0] == a else a)
                break
        else:
            entry: dict[str, Any] = {"type": type}
            if name:
                entry["name"] = name
            entry["hexes"] = [a, b]
            edges.append(entry)
        self._commit(f"{type} {a}|{b}", d)
        return True

    def edges_at(self, a: str, b: str) -> list[str]:
        """The hexside feature types between hexes *a* and *b*."""
        if not self.has_map:
            return []
        out = []
        for e in self.data["map"].get("edges") or []:
            chain = e.get("hexes") or []
            if any({chain[k], chain[k + 1]} == {a, b} for k in range(len(chain) - 1)):
                out.append(str(e.get("type")))
        return out

    # -- units ---------------------------------------------------------------------------------
    def add_unit(
        self,
        type: str,
        side: str,
        *,
        hex: str | None = None,
        box: str | None = None,
        host: str | None = None,
        id: str | None = None,
        name: str = "",
    ) -> str:
        """Place a new unit of counter type *type* for *side* on hex *label* or in box *box*
        (*host*: the unit whose hold or base it is in, when the box needs one). The type's
        catalog is added to the scenario's ``catalogs:`` if it is not there. Returns its id.

        Raises:
            EditError: unknown type, side, hex, box or host, or a taken id.
        """
        types = self.counter_types()
        t = types.get(type)
        if t is None:
            raise EditError(f"no counter type {type!r} in the {self.data.get('ruleset')} catalogs")
        if side not in (self.data.get("sides") or {}):
            raise EditError(
                f"no side {side!r}; sides are {', '.join(self.data.get('sides') or {})}"
            )
        if (hex is None) == (box is None):
            raise EditError("a unit is either on a hex or in a box")
        if hex is not None:
            self._on_map(hex)
        d = self._draft()
        taken = {u.get("id") for u in d.get("units") or []}
        uid = id or _new_id(type, side, taken)
        if uid in taken:
            raise EditError(f"unit id {uid!r} is taken")
        entry: dict[str, Any] = {"id": uid, "type": type, "side": side}
        if name:
            entry["name"] = name
        d.setdefault("units", []).append(entry)
        self._place(d, entry, hex=hex, box=box, host=host)
        cat = self._relative(Path(str(t["catalog"])))
        named = {self._resolve(str(c)).resolve() for c in d.get("catalogs") or []}
        if Path(str(t["catalog"])).resolve() not in named:
            d["catalogs"] = [*(d.get("catalogs") or []), cat]
        self._commit(f"add {uid} ({type})", d)
        return uid

    def move_unit(
        self, uid: str, *, hex: str | None = None, box: str | None = None, host: str | None = None
    ) -> None:
        """Put unit *uid* on hex *hex* or in box *box* (with its *host* when the box needs one).

        Raises:
            EditError: no such unit, hex, box or host.
        """
        if (hex is None) == (box is None):
            raise EditError("a unit is either on a hex or in a box")
        if hex is not None:
            self._on_map(hex)
        d = self._draft()
        entry = d["units"][self._unit_index(uid)]
        self._place(d, entry, hex=hex, box=box, host=host)
        self._commit(f"move {uid} to {hex or box}", d)

    def remove_unit(self, uid: str) -> None:
        """Take unit *uid* out of the scenario.

        Raises:
            EditError: no such unit.
        """
        d = self._draft()
        del d["units"][self._unit_index(uid)]
        self._commit(f"remove {uid}", d)

    def set_unit(self, uid: str, **fields: Any) -> None:
        """Set fields of unit *uid* (``name``, ``steps``, ``markers``, ``seen_by``, ``side``,
        ``id``); ``None`` or ``""`` removes one (the catalog's value applies).

        Raises:
            EditError: no such unit, a field that is not a unit's, or a taken id.
        """
        allowed = {"id", "name", "steps", "markers", "seen_by", "side", "type"}
        bad = set(fields) - allowed
        if bad:
            raise EditError(f"not a unit field: {', '.join(sorted(bad))} (use set_payload)")
        d = self._draft()
        entry = d["units"][self._unit_index(uid)]
        if "id" in fields and fields["id"] != uid:
            if not fields["id"] or any(u.get("id") == fields["id"] for u in d["units"]):
                raise EditError(f"unit id {fields['id']!r} is empty or taken")
        for k, v in fields.items():
            if v is None or v == "" or v == []:
                if k in ("id", "type", "side"):
                    raise EditError(f"a unit needs its {k}")
                entry.pop(k, None)
            else:
                entry[k] = v
        self._commit(f"{uid}: {', '.join(f'{k}={v!r}' for k, v in fields.items())}", d)

    def set_payload(self, uid: str, key: str | Sequence[Any], value: Any) -> None:
        """Set one key of unit *uid*'s payload; a value equal to its catalog type's is removed
        from the unit (the catalog applies); ``None`` removes it too.

        Raises:
            EditError: no such unit.
        """
        d = self._draft()
        entry = d["units"][self._unit_index(uid)]
        t = self.counter_types().get(str(entry.get("type")), {})
        parts = _parts(key)
        base: Any = t.get("data") or {}
        for p in parts:
            base = base.get(p) if isinstance(base, Mapping) else None
        data = entry.setdefault("data", {})
        node = data
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        if value is None or value == base:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = copy.deepcopy(value)
        _prune(entry, ["data", *parts[:-1]])
        self._commit(f"{uid}.data.{key_path(parts)} = {value!r}", d)

    def unit_ids(self) -> list[str]:
        """The ids of the scenario's units, in file order."""
        return [str(u.get("id")) for u in self._units()]

    def units_at(self, label: str) -> list[str]:
        """The ids of the units the scenario puts on hex *label*."""
        return [str(u.get("id")) for u in self._units() if u.get("hex") == label]

    def hosts(self, side: str, box: str) -> list[str]:
        """The units of *side* that may host a unit in *box* (its declared ``hosts`` tests)."""
        decl = self.editor.box(box)
        if decl is None or not decl.link:
            return []
        out = []
        for u in self._units():
            if u.get("side") != side:
                continue
            if decl.may_host(self.payload(str(u["id"]))):
                out.append(str(u["id"]))
        return out

    def _place(
        self,
        d: dict[str, Any],
        entry: dict[str, Any],
        *,
        hex: str | None,
        box: str | None,
        host: str | None,
    ) -> None:
        entry.pop("hex", None)
        entry.pop("box", None)
        spec = self.editor
        for b in spec.boxes:  # leaving a box with a host: forget the host
            if b.link and isinstance(entry.get("data"), dict):
                entry["data"].pop(b.link, None)
        if hex is not None:
            entry["hex"] = hex
        else:
            entry["box"] = box
            decl = spec.box(str(box))
            if host and (decl is None or not decl.link):
                raise EditError(f"box {box!r} takes no host")
            if host and decl is not None:
                units = d.get("units") or []
                target = next((u for u in units if u.get("id") == host), None)
                if target is None:
                    raise EditError(f"no unit {host!r} to host it")
                value: Any  # the host's id, or its payload value (any YAML scalar)
                if decl.host == "id":
                    value = host
                else:  # the host's own payload key: give it one if it has none
                    merged = (
                        self.payload(host)
                        if any(u.get("id") == host for u in self._units())
                        else {}
                    )
                    value = (target.get("data") or {}).get(decl.host) or merged.get(decl.host)
                    if not value:
                        value = f"{decl.host}-{host.lower()}"
                        target.setdefault("data", {})[decl.host] = value
                entry.setdefault("data", {})[decl.link] = value
        _prune(entry, ["data"])

    def _units(self) -> list[dict[str, Any]]:
        return list(self.data.get("units") or [])

    def _unit_index(self, uid: str) -> int:
        for i, u in enumerate(self.data.get("units") or []):
            if u.get("id") == uid:
                return i
        raise EditError(f"no unit {uid!r} in the scenario")

    # -- saving --------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike | None = None) -> Path:
        """Write the scenario (YAML that :func:`owsnb.load` and ``owsnb validate`` read
        unchanged, in a stable order that diffs cleanly) and, for a map on real geography without
        one yet, its coastline layer beside it. Saving with problems is allowed (they are the
        loader's to report), so nothing is ever lost. Returns the path written.

        Args:
            path: save elsewhere (relative file names are rewritten for the new folder); it
                becomes the document's path.
        """
        if path is not None and Path(path).resolve() != self.path.resolve():
            target = Path(path)
            rebased = _rebase(self.data, self.path.parent, target.parent)
            self._path = target
            if rebased != self.data:
                self._commit(f"save as {target.name}", rebased)
        target = self.path
        target.parent.mkdir(parents=True, exist_ok=True)
        mp = self.data.get("map")
        if isinstance(mp, Mapping) and "extent" in (mp.get("meta") or {}):
            coast = (mp.get("meta") or {}).get("coast")
            if not coast or not (target.parent / str(coast)).is_file():
                rel = write_background(self.data, target)
                if rel is not None and rel != coast:
                    self.set("map.meta.coast", rel)
        target.write_text(self.text, encoding="utf-8")
        self._saved = self.data
        return target

    # -- checking ------------------------------------------------------------------------------
    def check(self) -> tuple[GameState, Any]:
        """The scenario as the game loads it now: ``(initial state, rule set)``.

        Raises:
            ScenarioError: every problem (what :attr:`problems` lists).
        """
        scn = load_text(self.text, self.path)
        return build_state(scn, self._seed())

    def _check(self) -> None:
        data = self.data
        self.text = dump_scenario(data)
        problems: list[Problem] = []
        state = rs = None
        try:
            state, rs = self.check()
        except ScenarioError as exc:
            problems = [self._problem(p.path, p.message, p.file, data) for p in exc.problems]
        self.problems = tuple(problems)
        self.valid = state is not None
        if state is None and self.has_map:
            drawn = self._drawable(data, problems)
            if drawn is not None:
                state, rs = drawn
        if state is not None:
            self.shown, self.ruleset = state, rs
        elif not self.has_map:
            self.shown = None
        if self.ruleset is None:
            self.ruleset = self._ruleset()

    def _seed(self) -> int:
        seed = self.data.get("seed")
        return seed if isinstance(seed, int) and not isinstance(seed, bool) else 0

    def _problem(self, where: str, message: str, file: str, data: Mapping[str, Any]) -> Problem:
        parts = split_key_path(_LINE.sub("", where))
        unit = label = None
        units = data.get("units") or []
        if len(parts) >= 2 and parts[0] == "units" and isinstance(parts[1], int):
            if 0 <= parts[1] < len(units) and isinstance(units[parts[1]], Mapping):
                u = units[parts[1]]
                unit = str(u.get("id", "")) or None
                label = u.get("hex") if isinstance(u.get("hex"), str) else None
        given = data.get("map")
        mp = given if isinstance(given, Mapping) else {}
        if len(parts) >= 3 and parts[:2] == ["map", "features"] and isinstance(parts[2], int):
            feats = mp.get("features") or []
            if 0 <= parts[2] < len(feats):
                label = feats[parts[2]].get("hex")
        if len(parts) >= 4 and parts[:3] == ["map", "terrain", "hexes"]:
            label = str(parts[3])
        if unit is None and label is None:  # a rule set's check may name the unit in its words
            named = [
                u
                for u in units
                if isinstance(u, Mapping)
                and isinstance(u.get("id"), str)
                and re.search(rf"(?<![\w-]){re.escape(u['id'])}(?![\w-])", message)
            ]
            if len(named) == 1:
                unit = named[0]["id"]
                label = named[0].get("hex") if isinstance(named[0].get("hex"), str) else None
        if file and file != str(self.path):
            where = f"{Path(file).name}: {where}"
        return Problem(where, message, file, unit, label)

    def _drawable(
        self, data: Mapping[str, Any], problems: Sequence[Problem]
    ) -> tuple[GameState, Any] | None:
        """The state to draw while there are problems: the scenario with every part a problem
        points at set aside, built by the loader (again, setting aside what it then finds, a few
        times); then the set-aside units whose type and hex are known put back on the map (so the
        map shows them, outlined)."""
        d = copy.deepcopy(dict(data))
        found = list(problems)
        aside: list[Any] = []
        for attempt in range(6):
            before = dump_scenario(d)
            aside += _set_aside(d, found)
            text = dump_scenario(d)
            if attempt and text == before:
                return None  # nothing more to set aside: the map itself cannot be built
            try:
                state, rs = build_state(load_text(text, self.path), self._seed())
                break
            except ScenarioError as exc:
                found = [self._problem(p.path, p.message, p.file, d) for p in exc.problems]
            except Exception:  # noqa: BLE001 - a rule set's setup may trip on half-made data
                return None
        else:
            return None
        types = self.counter_types()
        extra = {}
        for u in aside:
            t = types.get(str(u.get("type")))
            try:
                h = state.map.hex(str(u.get("hex"))) if u.get("hex") is not None else None
            except (InvalidHexError, KeyError, ValueError):
                h = None
            if (
                t is None
                or h is None
                or h not in state.map.hexes
                or not isinstance(u.get("id"), str)
                or u.get("side") not in state.sides
            ):
                continue
            steps = int(t.get("steps", 1) or 1)
            merged = deep_merge(t.get("data") or {}, u.get("data") or {})
            data = rs.validate_unit(str(u["type"]), merged)[0]
            extra[u["id"]] = Unit(
                id=u["id"],
                side=str(u.get("side", "")),
                kind=str(u["type"]),
                name=str(u.get("name") or t.get("name") or u["id"]),
                hex=h,
                steps=steps,
                max_steps=steps,
                data=freeze(data),
            )
        if extra:
            state = replace(state, units=FrozenDict({**state.units, **extra}))
        return state, rs

    # -- helpers -------------------------------------------------------------------------------
    def _ruleset(self) -> Any:
        try:
            return get_ruleset(str(self.data.get("ruleset", "")))
        except (UnknownRulesetError, ImportError):
            return None

    def default_tables(self) -> dict[str, Any]:
        """The rule set's data tables (before the scenario's overrides)."""
        rs = self._ruleset()
        return rs.default_tables() if rs is not None else {}

    def terrains(self) -> list[str]:
        """The terrain names a hex may be painted with (the rule set's editor declaration)."""
        try:
            return list(self.editor.terrains(self.default_tables()))
        except (KeyError, TypeError):
            return []

    def _terrain_of(self, label: str) -> str | None:
        st = self.shown
        try:
            return st.map.hexes[st.map.hex(label)].terrain if st is not None else None
        except (InvalidHexError, KeyError, ValueError):
            return None

    def _on_map(self, label: str) -> Hex:
        if not self.has_map:
            raise EditError("the scenario has no map yet: draw a box and make one")
        st = self.shown
        m = self.data["map"]
        extent = (
            f"{m.get('cols')} columns x {m.get('rows')} rows"
            if m.get("hexes") is None
            else f"{len(m['hexes'])} listed hexes"
        )
        if st is None:
            raise EditError("the map cannot be drawn: fix its problems first")
        try:
            h = st.map.hex(str(label))
        except (InvalidHexError, KeyError, ValueError):
            raise EditError(f"hex {label} is off the map ({extent})") from None
        if h not in st.map.hexes:
            raise EditError(f"hex {label} is off the map ({extent})")
        return h

    def _resolve(self, rel: str) -> Path:
        p = Path(rel).expanduser()
        return p if p.is_absolute() else self.path.parent / p

    def _relative(self, target: Path) -> str:
        return _relpath(target, self.path.parent)


# -- plain-data helpers ------------------------------------------------------------------------
_SAME = object()


def _set_aside(d: dict[str, Any], problems: Iterable[Problem]) -> list[Any]:
    """Take out of scenario data *d* (in place) what *problems* point at: the units they concern
    (returned), else the features, edges, terrain entries, options, tables and ``rules`` keys at
    their key paths."""
    drop_units: set[int] = set()
    units = list(d.get("units") or [])
    ids = {u.get("id"): i for i, u in enumerate(units) if isinstance(u, Mapping)}
    mp = d.get("map") if isinstance(d.get("map"), dict) else None
    for p in problems:
        parts = split_key_path(_LINE.sub("", p.where))
        if p.unit in ids:  # a unit at fault (a rule set's check may name it under rules:)
            drop_units.add(ids[p.unit])
            continue
        if not parts:
            continue
        head = parts[0]
        if head == "units" and len(parts) >= 2 and isinstance(parts[1], int):
            drop_units.add(parts[1])
        elif head == "units":
            drop_units |= set(range(len(units)))
        elif head in ("options", "tables", "rules", "initiative", "catalogs", "briefing_file"):
            if len(parts) >= 2 and isinstance(d.get(head), dict):
                d[head].pop(parts[1], None)
            else:
                d.pop(head, None)
        elif mp is not None and head == "map" and len(parts) >= 3:
            if parts[1] in ("features", "edges") and isinstance(parts[2], int):
                lst = mp.get(parts[1]) or []
                if 0 <= parts[2] < len(lst):
                    lst[parts[2]] = None
            elif parts[1] == "terrain" and len(parts) >= 4 and parts[2] == "hexes":
                (mp["terrain"].get("hexes") or {}).pop(parts[3], None)
            elif parts[1] == "terrain" and len(parts) >= 4 and parts[2] == "regions":
                regions = mp["terrain"].get("regions") or []
                if isinstance(parts[3], int) and 0 <= parts[3] < len(regions):
                    regions[parts[3]] = None
    if mp is not None:
        for key in ("features", "edges"):
            if isinstance(mp.get(key), list):
                mp[key] = [x for x in mp[key] if x is not None]
        terr = mp.get("terrain")
        if isinstance(terr, dict) and isinstance(terr.get("regions"), list):
            terr["regions"] = [x for x in terr["regions"] if x is not None]
    if "units" in d:
        d["units"] = [u for i, u in enumerate(units) if i not in drop_units]
    return [u for i, u in enumerate(units) if i in drop_units]


def _diff(base: Any, new: Any) -> Any:
    """What a scenario writes under ``tables:`` so that the loader's merge of *base* with it gives
    *new*: mappings key by key, anything else whole; :data:`_SAME` when nothing differs."""
    if isinstance(base, Mapping) and isinstance(new, Mapping):
        out = {}
        for k, v in new.items():
            if k not in base:
                out[k] = copy.deepcopy(v)
                continue
            sub = _diff(base[k], v)
            if sub is not _SAME:
                out[k] = sub
        return out if out else _SAME
    return _SAME if base == new else copy.deepcopy(new)


def _parts(key: str | Sequence[Any]) -> list[Any]:
    if isinstance(key, str):
        parts = split_key_path(key)
    else:
        parts = list(key)
    if not parts:
        raise EditError("an empty key path")
    return parts


def _prune(d: dict[str, Any], parts: Sequence[Any]) -> None:
    """Remove the empty mappings left along *parts* (deepest first)."""
    for n in range(len(parts), 0, -1):
        node: Any = d
        for p in parts[: n - 1]:
            node = node.get(p) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get(parts[n - 1]) == {}:
            del node[parts[n - 1]]


def _new_id(type: str, side: str, taken: set[Any]) -> str:
    tokens = [t for t in re.split(r"[^A-Za-z0-9]+", type) if t]
    core = (tokens[1] if len(tokens) > 1 else tokens[0] if tokens else "U").upper()
    prefix = f"{side[:1].upper()}-{core}"
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def _relpath(target: Path, folder: Path) -> str:
    """*target* relative to *folder* when it is near (at most two folders up), else absolute."""
    try:
        rel = Path(os.path.relpath(target.resolve(), folder.resolve()))
    except ValueError:  # another drive
        return str(target.resolve())
    return rel.as_posix() if rel.parts[:3].count("..") < 3 else str(target.resolve())


def _rebase(data: dict[str, Any], old: Path, new: Path) -> dict[str, Any]:
    """*data* with its relative file names (catalogs, briefing file, coastline, and file names
    under ``rules:`` that exist next to the old file) rewritten for folder *new*."""
    if old.resolve() == new.resolve():
        return data
    d = copy.deepcopy(data)

    def move(rel: Any) -> Any:
        if not isinstance(rel, str) or Path(rel).is_absolute() or not (old / rel).exists():
            return rel
        return _relpath(old / rel, new)

    d["catalogs"] = [move(c) for c in d.get("catalogs") or []]
    if "briefing_file" in d:
        d["briefing_file"] = move(d["briefing_file"])
    meta = (d.get("map") or {}).get("meta") if isinstance(d.get("map"), dict) else None
    if isinstance(meta, dict) and "coast" in meta:
        meta["coast"] = move(meta["coast"])
    if isinstance(d.get("rules"), dict):
        for k, v in d["rules"].items():
            if isinstance(v, str) and v.endswith((".yaml", ".yml", ".json", ".geojson")):
                d["rules"][k] = move(v)
    return d
