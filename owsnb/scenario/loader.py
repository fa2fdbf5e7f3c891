"""Load and validate scenario files into an initial :class:`~owsnb.kernel.state.GameState`.

Every problem is collected — YAML syntax, schema, references between parts, the rule set's own
checks of options and unit payloads — and reported at once in one :class:`ScenarioError`, each with
the file, the key path (``units[3].hex``), the line when known, and what was expected.
"""

from __future__ import annotations

import copy
import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

import owsnb.rules  # noqa: F401  (registers the built-in rule sets)
from owsnb.kernel.data import FrozenDict, deep_merge, freeze
from owsnb.kernel.dice import rng_state_for_seed
from owsnb.kernel.errors import (
    InvalidHexError,
    ScenarioError,
    ScenarioProblem,
    UnknownRulesetError,
    key_path,
    split_key_path,
    validation_problems,
)
from owsnb.kernel.geo import GeoLayout
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem
from owsnb.kernel.registry import get_ruleset
from owsnb.kernel.state import Clock, GameState, HexInfo, MapState, SideState, Unit, edge_key
from owsnb.scenario.schema import CatalogSpec, MapSpec, ScenarioSpec

__all__ = [
    "Scenario",
    "load_scenario",
    "find_scenario",
    "scenario_dirs",
    "build_state",
    "read_yaml",
    "parse_yaml",
    "load_text",
    "list_scenarios",
]

RESERVED_SIDES = {"umpire", "all", "none", "initiative"}
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def scenario_dirs() -> list[Path]:
    """Where scenarios are looked up by name: ``$OWSNB_SCENARIOS``, the repository's
    ``scenarios/``, then the copy packaged in the wheel."""
    dirs = [Path(p) for p in os.environ.get("OWSNB_SCENARIOS", "").split(os.pathsep) if p]
    here = Path(__file__).resolve().parent.parent
    dirs += [here.parent / "scenarios", here / "_scenarios"]
    return [d for d in dirs if d.is_dir()]


def list_scenarios() -> list[str]:
    """Names of the scenarios found in :func:`scenario_dirs`."""
    names: dict[str, None] = {}
    for d in scenario_dirs():
        for p in sorted(d.glob("*.y*ml")):
            names.setdefault(p.stem, None)
    return list(names)


def find_scenario(name_or_path: str | os.PathLike) -> Path:
    """A scenario file from a path or a bundled name (``"tutorial"``).

    Raises:
        ScenarioError: no such file or name.
    """
    p = Path(name_or_path).expanduser()
    if p.is_file():
        return p
    name = str(name_or_path)
    for d in scenario_dirs():
        for ext in (".yaml", ".yml"):
            cand = d / f"{name}{ext}"
            if cand.is_file():
                return cand
    known = ", ".join(list_scenarios()) or "none found"
    raise ScenarioError(
        f"no scenario file or bundled scenario named {name!r} (bundled: {known})", file=name
    )


def scenario_path(view: Any, local: str | os.PathLike | None = None) -> str:
    """The scenario file a view (or a state) comes from, as found on this machine: *local* (a
    local game's own file), the ``file`` a state names, else the bundled scenario of the view's
    ``source`` name (views carry only the file's name, never a path on the authority's disk);
    ``""`` if none is here.

    >>> from owsnb.kernel.data import FrozenDict
    >>> class V:
    ...     scenario = FrozenDict(id="tutorial", source="tutorial.yaml")
    >>> scenario_path(V()).endswith("tutorial.yaml")
    True
    """
    for cand in (local, view.scenario.get("file")):
        if cand and os.path.isfile(cand):
            return str(cand)
    name = str(view.scenario.get("source", "") or "")
    if name and "/" not in name and "\\" not in name:
        for d in scenario_dirs():
            if (d / name).is_file():
                return str(d / name)
    return ""


# -- YAML with locations ------------------------------------------------------------------------
class _Locator:
    """Maps key paths to line numbers using the YAML node tree."""

    def __init__(self, text: str):
        self._text: str | None = text
        self._root: Any = None

    @property
    def root(self) -> Any:
        """The YAML node tree, composed on first use (only when there is a problem to locate)."""
        if self._text is not None:
            try:
                self._root = yaml.compose(self._text, Loader=_LOADER)
            except yaml.YAMLError:
                self._root = None
            self._text = None
        return self._root

    def line(self, path: Iterable[Any]) -> int | None:
        node = self.root
        last = node
        for part in path:
            if node is None:
                break
            if isinstance(node, yaml.MappingNode):
                nxt = None
                for k, v in node.value:
                    if str(k.value) == str(part):
                        nxt = v
                        last = k
                        break
                node = nxt
            elif (
                isinstance(node, yaml.SequenceNode)
                and isinstance(part, int)
                and 0 <= part < len(node.value)
            ):
                node = node.value[part]
                last = node
            else:
                break
        target = node if node is not None else last
        return None if target is None else target.start_mark.line + 1


@dataclass
class _Problems:
    file: str
    locator: _Locator | None = None
    items: list[ScenarioProblem] = field(default_factory=list)

    def add(self, path: Iterable[Any] | str, message: str) -> None:
        parts = list(path) if not isinstance(path, str) else split_key_path(path)
        where = key_path(parts)
        line = self.locator.line(parts) if self.locator is not None and parts else None
        if line is not None:
            where = f"{where} (line {line})" if where else f"line {line}"
        self.items.append(ScenarioProblem(self.file, where, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise ScenarioError(self.items)


def _parse(text: str) -> Any:
    """Safe YAML, C-accelerated when available; on a syntax error the pure-Python parser re-reads
    the text so the error is worded (and located) the same everywhere."""
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506  (safe loaders only)
    except yaml.YAMLError:
        return yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506


def read_yaml(path: Path, problems: _Problems) -> Any:
    """Parse a YAML file, recording syntax errors with their line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.add([], f"cannot be read: {exc.strerror or exc}")
        return None
    except UnicodeDecodeError:
        problems.add([], "is not UTF-8 text")
        return None
    return parse_yaml(text, problems)


def parse_yaml(text: str, problems: _Problems) -> Any:
    """Parse YAML *text*, recording a syntax error with its line (``None`` then)."""
    try:
        data = _parse(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problems.items.append(
            ScenarioProblem(
                problems.file, "", f"{where}YAML syntax error: {getattr(exc, 'problem', exc)}"
            )
        )
        return None
    problems.locator = _Locator(text)
    return data


def _pydantic_problems(
    exc: ValidationError, problems: _Problems, prefix: Iterable[Any] = ()
) -> None:
    for loc, msg in validation_problems(exc, prefix):
        problems.add(loc, msg)


# -- the loaded scenario -------------------------------------------------------------------------
@dataclass
class Scenario:
    """A validated scenario: its spec, the catalogs it uses, and the file it came from."""

    spec: ScenarioSpec
    path: Path | None
    catalogs: dict[str, dict[str, Any]]  # type key -> CatalogType as dict (+ "catalog": file)
    briefing: str = ""
    text: str | None = field(default=None, repr=False)  # the YAML the spec was read from

    @property
    def id(self) -> str:
        return self.spec.id

    def __repr__(self) -> str:
        return (
            f"<Scenario {self.spec.id!r} ({self.spec.ruleset}): {len(self.spec.units)} units, "
            f"{len(self.spec.sides)} sides>"
        )

    def _repr_html_(self) -> str:
        from owsnb.display.html import esc, wrap

        body = f"<h3>{esc(self.spec.title)}</h3><p class='muted'>{esc(self.spec.ruleset)} · {esc(self.spec.id)}</p>"
        if self.briefing:
            body += f"<pre style='white-space:pre-wrap'>{esc(self.briefing)}</pre>"
        return wrap(body, repr(self))


def load_scenario(
    path_or_name: str | os.PathLike | Mapping[str, Any], *, base: Path | None = None
) -> Scenario:
    """Read and validate a scenario file (or a dict in the same shape).

    Raises:
        ScenarioError: listing every problem found, each with file, key path and line.

    Example:
        >>> load_scenario("tutorial")
        <Scenario 'tutorial' (ows): ...>
        >>> load_scenario({"id": "demo", "title": "Demo", "ruleset": "skirmish",
        ...                "map": {"cols": 4, "rows": 3}, "sides": {"blue": {}, "red": {}},
        ...                "units": [{"id": "B1", "side": "blue", "hex": "0101", "steps": "many"}]})
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.ScenarioError: 3 problems in scenario:
          - <scenario dict>: map.layout: required key is missing
          - <scenario dict>: units[0].type: required key is missing
          - <scenario dict>: units[0].steps: Input should be a valid integer, ... (got 'many')
    """
    if isinstance(path_or_name, Mapping):
        data, path = dict(path_or_name), None
        problems = _Problems("<scenario dict>")
        return _validate(data, None, None, problems, base)
    path = find_scenario(path_or_name)
    problems = _Problems(str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.add([], f"cannot be read: {exc.strerror or exc}")
        problems.raise_if_any()
    except UnicodeDecodeError:
        problems.add([], "is not UTF-8 text")
        problems.raise_if_any()
    return load_text(text, path, base=base)


def load_text(text: str, path: str | os.PathLike, *, base: Path | None = None) -> Scenario:
    r"""Read and validate scenario YAML *text* as if it were the file *path* (which need not exist):
    catalogs, briefing files and the rule set's own files resolve next to *path*, and problems name
    it with the lines of *text*. The scenario editor checks what it is about to save so.

    Raises:
        ScenarioError: listing every problem found, each with file, key path and line.

    Example:
        >>> text = "id: demo\ntitle: Demo\nruleset: skirmish\nmap: {cols: 4}\nsides: {blue: {}}\n"
        >>> load_text(text, "/tmp/demo.yaml")
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.ScenarioError: 1 problem in scenario:
          - /tmp/demo.yaml: map.layout (line 4): required key is missing
    """
    path = Path(path)
    problems = _Problems(str(path))
    data = parse_yaml(text, problems)
    problems.raise_if_any()
    return _validate(data, path, text, problems, base)


def _validate(
    data: Any, path: Path | None, text: str | None, problems: _Problems, base: Path | None
) -> Scenario:
    if not isinstance(data, Mapping):
        problems.add(
            [],
            f"must be a mapping of keys (id, title, ruleset, map, sides, units...), not {type(data).__name__}",
        )
        problems.raise_if_any()
    rs_name = data.get("ruleset")
    _misspelled(data, rs_name if isinstance(rs_name, str) else None, problems)
    problems.raise_if_any()
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        _pydantic_problems(exc, problems)
        raise ScenarioError(problems.items) from None
    root = base or (path.parent if path is not None else Path.cwd())
    catalogs = _load_catalogs(spec, root, problems)
    briefing = spec.briefing
    if spec.briefing_file:
        bpath = root / spec.briefing_file
        try:
            briefing = (briefing + "\n\n" if briefing else "") + bpath.read_text(encoding="utf-8")
        except OSError as exc:
            problems.add(["briefing_file"], f"cannot read {bpath}: {exc.strerror or exc}")
    problems.raise_if_any()
    return Scenario(spec, path, catalogs, briefing, text)


def _load_catalogs(
    spec: ScenarioSpec, root: Path, problems: _Problems
) -> dict[str, dict[str, Any]]:
    types: dict[str, dict[str, Any]] = {}
    for i, rel in enumerate(spec.catalogs):
        cpath = (root / rel).resolve()
        if not cpath.is_file():
            problems.add(["catalogs", i], f"catalog file {rel!r} not found (looked in {root})")
            continue
        ruleset, dumped, found, locator = _read_catalog(cpath)
        cprob = _Problems(str(cpath), locator)
        cprob.items.extend(found)
        _misspelled({"types": dumped}, ruleset, cprob)
        if ruleset is not None:
            if ruleset != spec.ruleset:
                cprob.add(
                    ["ruleset"],
                    f"catalog is for rule set {ruleset!r} but the scenario plays {spec.ruleset!r}",
                )
            for key, t in dumped.items():
                if key in types:
                    cprob.add(
                        ["types", key],
                        f"type {key!r} is also defined in {types[key]['catalog']}",
                    )
                    continue
                types[key] = {**copy.deepcopy(t), "catalog": str(cpath)}
        problems.items.extend(cprob.items)
    return types


_CATALOGS: dict[Path, tuple[tuple[int, int], Any]] = {}


def _read_catalog(
    path: Path,
) -> tuple[str | None, dict[str, dict[str, Any]], list[ScenarioProblem], _Locator | None]:
    """A catalog file read and validated: its rule set (``None`` if it is broken), its types as
    plain dicts, its problems and where its keys are (lines). Kept while the file is unchanged
    (size and modification time): the scenario editor checks a scenario on every click."""
    st = path.stat()
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _CATALOGS.get(path)
    if hit is None or hit[0] != stamp:
        cprob = _Problems(str(path))
        data = read_yaml(path, cprob)
        ruleset, dumped = None, {}
        if data is not None:
            try:
                cat = CatalogSpec.model_validate(data)
            except ValidationError as exc:
                _pydantic_problems(exc, cprob)
            else:
                ruleset = cat.ruleset
                dumped = {key: t.model_dump() for key, t in cat.types.items()}
        hit = (stamp, (ruleset, dumped, list(cprob.items), cprob.locator))
        _CATALOGS[path] = hit
    ruleset, dumped, found, locator = hit[1]
    return ruleset, dumped, list(found), locator


def _misspelled(data: Any, ruleset: str | None, problems: _Problems) -> None:
    """Record every key of *data* (a scenario or catalog of *ruleset*) spelled as the rule set's
    data keys are not (``RuleSet.spelling``: one spelling, the rule book's), naming the key path
    and the right key. A rule set not known here is reported elsewhere."""
    try:
        wrong = dict(get_ruleset(ruleset).spelling) if ruleset else {}
    except UnknownRulesetError:
        return
    if not wrong:
        return

    def walk(node: Any, path: list[Any]) -> None:
        if isinstance(node, Mapping):
            for k, v in node.items():
                key = str(k)
                for bad, good in wrong.items():
                    if bad in key:
                        problems.add(
                            [*path, k],
                            f"{key!r} is spelled {key.replace(bad, good)!r} in {ruleset} data "
                            f"(the rule book's spelling, {good!r})",
                        )
                walk(v, [*path, k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, [*path, i])

    walk(data, [])


# -- building the initial state ------------------------------------------------------------------
HexOf = Callable[[str, list[Any]], Hex | None]
"""Reads a hex label of the scenario: the hex, or ``None`` (and a problem at the path)."""


def build_state(
    scn: Scenario, seed: int | None, *, options: Mapping[str, Any] | None = None
) -> tuple[GameState, Any]:
    """The initial state of *scn* and its rule set.

    Args:
        scn: a loaded :class:`Scenario`.
        seed: dice seed (required: draw one if the user gave none).
        options: option overrides on top of the scenario's.

    Raises:
        ScenarioError: every reference or rule-set problem found.
    """
    spec = scn.spec
    problems = _Problems(str(scn.path) if scn.path else "<scenario dict>")
    if scn.text is not None:
        problems.locator = _Locator(scn.text)
    elif scn.path is not None:
        problems.locator = _Locator(scn.path.read_text(encoding="utf-8"))
    try:
        rs = get_ruleset(spec.ruleset)
    except UnknownRulesetError as exc:
        problems.add(["ruleset"], str(exc))
        problems.raise_if_any()
    except ImportError as exc:
        problems.add(["ruleset"], f"rule set {spec.ruleset!r} could not be imported: {exc}")
        problems.raise_if_any()

    opts, opt_problems = rs.resolve_options({**spec.options, **(options or {})})
    for msg in opt_problems:
        problems.add(["options"], msg)

    mstate, hex_of = _build_map(spec.map, problems)
    sides = _build_sides(spec, problems)
    units = _build_units(scn, rs, hex_of, problems)
    tables = _build_tables(spec, rs, problems)
    problems.raise_if_any()

    public = {"initiative": spec.initiative} if spec.initiative else {}
    scenario_meta = {
        "id": spec.id,
        "title": spec.title,
        "description": spec.description,
        "briefing": scn.briefing,
        "victory": spec.victory,
        "special_rules": list(spec.special_rules),
        "coach": dict(spec.coach),
        "turns": spec.turns,
        "file": str(scn.path) if scn.path else "",
    }
    state = GameState(
        ruleset=spec.ruleset,
        map=mstate,
        sides=sides,
        units=FrozenDict(units),
        clock=Clock(turn=spec.clock.turn, date=spec.clock.date),
        options=freeze(opts),
        scenario=freeze({k: v for k, v in scenario_meta.items() if v not in (None, "", [], {})}),
        public=freeze(public),
        secret=freeze({"salt": secrets.token_hex(8)}),  # the seed stays in the game's meta
        tables=freeze(tables),
        rng=rng_state_for_seed(seed),
    )
    for p, msg in rs.validate_scenario(state, spec.rules):
        problems.add(split_key_path(p), msg)
    problems.raise_if_any()
    try:
        state = rs.setup(state, spec.rules)
    except (ValueError, KeyError, TypeError) as exc:
        problems.add(["rules"], f"rule set setup failed: {exc}")
        problems.raise_if_any()
    return state, rs


def _build_map(m: MapSpec, problems: _Problems) -> tuple[MapState, HexOf]:
    """The map of a scenario and how its hex labels are read (``hex_of``: the hex, or ``None``
    and a problem at *path* for a label that is not one or is off the map)."""
    lay = m.layout
    offset = OffsetSystem(
        orientation=lay.orientation,
        parity=m.labels.parity,
        first_col=m.labels.first_col,
        first_row=m.labels.first_row,
        digits=m.labels.digits,
    )
    anchor = Hex(0, 0)
    if lay.anchor == "centre" and m.cols and m.rows:
        anchor = offset.from_offset(
            m.labels.first_col + (m.cols - 1) // 2, m.labels.first_row + (m.rows - 1) // 2
        )
    elif lay.anchor:
        try:
            anchor = offset.from_label(lay.anchor)
        except InvalidHexError as exc:
            problems.add(["map", "layout", "anchor"], str(exc))
    projection = "simple" if lay.origin is None else lay.projection
    layout = GeoLayout.from_size(
        lay.size,
        unit=lay.unit,
        origin=lay.origin or (0.0, 0.0),
        orientation=lay.orientation,
        projection=projection,
        anchor=(anchor.q, anchor.r),
    )
    cells: list[Hex] = []
    if m.hexes is not None:
        for i, lab in enumerate(m.hexes):
            try:
                cells.append(offset.from_label(lab))
            except InvalidHexError as exc:
                problems.add(["map", "hexes", i], str(exc))
    else:
        try:
            cells = offset.rectangle(m.cols, m.rows)
        except (InvalidHexError, ValueError) as exc:
            problems.add(["map"], str(exc))
    on_map = set(cells)

    def hex_of(label: str, path: list[Any]) -> Hex | None:
        try:
            h = offset.from_label(str(label))
        except InvalidHexError as exc:
            problems.add(path, str(exc))
            return None
        if h not in on_map:
            problems.add(path, f"hex {label} is off the map ({_extent(m)})")
            return None
        return h

    terrain = {h: m.terrain.default for h in cells}
    for j, reg in enumerate(m.terrain.regions):
        base = ["map", "terrain", "regions", j]
        for rh in _region_hexes(reg, offset, layout, cells, hex_of, base):
            terrain[rh] = reg.terrain
    for lab, t in m.terrain.hexes.items():
        h = hex_of(lab, ["map", "terrain", "hexes", lab])
        if h is not None:
            terrain[h] = t
    features: dict[Hex, dict[str, Any]] = {}
    for j, f in enumerate(m.features):
        h = hex_of(f.hex, ["map", "features", j, "hex"])
        if h is None:
            continue
        facts = {k: v for k, v in f.model_dump().items() if k not in ("hex", "type")}
        if f.type in features.setdefault(h, {}):
            problems.add(["map", "features", j], f"hex {f.hex} already has a {f.type}")
        features[h][f.type] = facts
    edges: dict[tuple[Hex, Hex], dict[str, Any]] = {}
    for j, e in enumerate(m.edges):
        chain = [hex_of(lab, ["map", "edges", j, "hexes", k]) for k, lab in enumerate(e.hexes)]
        facts = {k: v for k, v in e.model_dump().items() if k not in ("hexes", "type")}
        for k in range(len(chain) - 1):
            a, b = chain[k], chain[k + 1]
            if a is None or b is None:
                continue
            if a.distance(b) != 1:
                problems.add(
                    ["map", "edges", j, "hexes", k + 1],
                    f"{e.hexes[k]} and {e.hexes[k + 1]} are not adjacent: a {e.type} runs between neighbours",
                )
                continue
            edges.setdefault(edge_key(a, b), {})[e.type] = facts
    hexes = FrozenDict(
        {
            h: HexInfo(
                terrain[h],
                offset.to_label(h) if _labelable(offset, h) else "",
                freeze(features.get(h, {})),
            )
            for h in cells
        }
    )
    meta = {"hex_km": layout.size_km, **m.meta}
    mstate = MapState(
        hexes, offset, layout, FrozenDict({k: freeze(v) for k, v in edges.items()}), freeze(meta)
    )
    return mstate, hex_of


def _build_sides(spec: ScenarioSpec, problems: _Problems) -> FrozenDict:
    """The sides of a scenario (and the side with the initiative checked)."""
    for name in spec.sides:
        if name in RESERVED_SIDES or not name.replace("-", "").replace("_", "").isalnum():
            problems.add(
                ["sides", name], f"{name!r} cannot name a side (reserved or not a simple word)"
            )
    sides = FrozenDict(
        {
            name: SideState(
                name, s.title or name.title(), s.color, freeze(s.public), freeze(_private(s))
            )
            for name, s in spec.sides.items()
        }
    )
    if spec.initiative is not None and spec.initiative not in spec.sides:
        problems.add(
            ["initiative"], f"no side {spec.initiative!r}; sides are {', '.join(spec.sides)}"
        )
    return sides


def _build_units(scn: Scenario, rs: Any, hex_of: HexOf, problems: _Problems) -> dict[str, Unit]:
    """The units of a scenario: each from its catalog type, its payload checked by the rule set."""
    spec = scn.spec
    units: dict[str, Unit] = {}
    for i, u in enumerate(spec.units):
        base = ["units", i]
        if u.id in units:
            problems.add([*base, "id"], f"unit id {u.id!r} is used twice")
        if u.side not in spec.sides:
            problems.add([*base, "side"], f"no side {u.side!r}; sides are {', '.join(spec.sides)}")
        for k, s in enumerate(u.seen_by):
            if s not in spec.sides:
                problems.add([*base, "seen_by", k], f"no side {s!r}")
        cat = scn.catalogs.get(u.type)
        if cat is None:
            hint = "; add its catalog under 'catalogs:'" if not spec.catalogs else ""
            problems.add([*base, "type"], f"unknown unit type {u.type!r}{hint}")
            continue
        at = hex_of(u.hex, [*base, "hex"]) if u.hex is not None else None
        data = deep_merge(cat.get("data", {}), u.data)
        norm, data_problems = rs.validate_unit(u.type, data)
        for p, msg in data_problems:
            problems.add(
                [*base, "data", *split_key_path(p)] if p else [*base, "data"],
                f"{msg} (type {u.type})",
            )
        max_steps = int(cat.get("steps", 1))
        steps = u.steps if u.steps is not None else max_steps
        if steps > max_steps:
            problems.add(
                [*base, "steps"], f"{steps} steps is more than type {u.type} has ({max_steps})"
            )
        units[u.id] = Unit(
            id=u.id,
            side=u.side,
            kind=u.type,
            name=u.name or cat.get("name", "") or u.id,
            hex=at,
            box=u.box,
            steps=steps,
            max_steps=max_steps,
            markers=frozenset(u.markers),
            data=freeze(norm),
            seen_by=frozenset(u.seen_by),
        )
    return units


def _build_tables(spec: ScenarioSpec, rs: Any, problems: _Problems) -> dict[str, Any]:
    """The rule set's data tables with the scenario's overrides merged in."""
    tables = rs.default_tables()
    for name, override in spec.tables.items():
        if name not in tables:
            problems.add(
                ["tables", name],
                f"{spec.ruleset} has no data table {name!r}; tables: {', '.join(sorted(tables)) or 'none'}",
            )
        else:
            tables[name] = (
                deep_merge(tables[name], override)
                if isinstance(override, Mapping) and isinstance(tables[name], Mapping)
                else override
            )
    return tables


def _private(side: Any) -> dict[str, Any]:
    """A side's private facts from its spec: ``private:`` plus, when the scenario gives any, its
    own ``briefing`` (``text``, ``victory``, ``coach``), which only that side's views carry."""
    out = dict(side.private)
    brief = {
        k: v
        for k, v in (
            ("text", side.briefing),
            ("victory", side.victory),
            ("coach", dict(side.coach)),
        )
        if v
    }
    if brief:
        out["briefing"] = brief
    return out


def _extent(m: Any) -> str:
    return (
        f"{m.cols} columns x {m.rows} rows" if m.hexes is None else f"{len(m.hexes)} listed hexes"
    )


def _labelable(offset: OffsetSystem, h: Hex) -> bool:
    try:
        offset.to_label(h)
        return True
    except (InvalidHexError, ValueError):
        return False


def _region_hexes(
    reg: Any,
    offset: OffsetSystem,
    layout: GeoLayout,
    cells: list[Hex],
    hex_of: Any,
    base: list[Any],
) -> list[Hex]:
    out: list[Hex] = []
    for k, lab in enumerate(reg.hexes):
        h = hex_of(lab, [*base, "hexes", k])
        if h is not None:
            out.append(h)
    if reg.rect:
        a, b = hex_of(reg.rect[0], [*base, "rect", 0]), hex_of(reg.rect[1], [*base, "rect", 1])
        if a is not None and b is not None:
            (c0, r0), (c1, r1) = offset.to_offset(a), offset.to_offset(b)
            cmin, cmax, rmin, rmax = min(c0, c1), max(c0, c1), min(r0, r1), max(r0, r1)
            out += [
                h
                for h in cells
                if cmin <= offset.to_offset(h)[0] <= cmax and rmin <= offset.to_offset(h)[1] <= rmax
            ]
    if reg.bbox:
        x0, y0, x1, y1 = reg.bbox
        for h in cells:
            lon, lat = layout.centre(h)
            if x0 <= lon <= x1 and y0 <= lat <= y1:
                out.append(h)
    if reg.around:
        c = hex_of(reg.around[0], [*base, "around", 0])
        if c is not None:
            out += [h for h in cells if c.distance(h) <= int(reg.around[1])]
    return out
