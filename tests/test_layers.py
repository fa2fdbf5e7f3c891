"""Layering (ARCHITECTURE.md, "Layers: imports point down only"):

    pages/                        Voila pages
    widgets/  display/            draw views, send orders; symbols, results, reprs
    server/   analysis/  bots/    authority; xarray history, sweeps; policies that play a side
    store/                        persistence of events
    scenario/ (+ authoring/)      load + validate scenario files; map generation for authors
    rules/<ruleset>/              rule sets
    kernel/                       stdlib + numpy

checked two ways: statically, from every module's imports (module-level imports must point down or
sideways; a few constraints hold for lazy imports inside functions too), and by importing layers in
a subprocess and looking at what got loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = (
    "ipywidgets",
    "ipyleaflet",
    "bqplot",
    "IPython",
    "traitlets",
    "voila",
    "jupyter_server",
    "owsnb.widgets",
    "owsnb.server",
    "xarray",
    "pandas",
    "yaml",
    "pydantic",
)


@pytest.mark.parametrize(
    "module, forbidden",
    [
        ("owsnb.kernel", FORBIDDEN),
        ("owsnb.rules", FORBIDDEN[:9]),
        # the authority renders nothing: its pages live in owsnb.pages
        ("owsnb.server", (*FORBIDDEN[:8], "owsnb.pages")),
        # the notebook entry point stays light: the rest loads on first use
        ("owsnb", FORBIDDEN),
        ("owsnb.scenario", FORBIDDEN[:9]),
        ("owsnb.store", FORBIDDEN[:9]),
        ("owsnb.analysis", FORBIDDEN[:9]),
        # reprs of the kernel and the rule sets load it lazily: no widget library
        ("owsnb.display", FORBIDDEN),
    ],
)
def test_import_loads_no_ui_module(module, forbidden):
    code = (
        f"import sys, {module}\n"
        f"bad = sorted(m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in {list(forbidden)!r}))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "", f"importing {module} loaded: {out.stdout.strip()}"


def test_the_loader_never_imports_map_authoring():
    """Loading and building a scenario needs neither the authoring package nor its land/sea mask
    (map authoring lives beside the loader, in ``owsnb.authoring``)."""
    code = (
        "import sys\n"
        "from owsnb.scenario import build_state, load_scenario\n"
        "for name in ('tutorial', 'western-pacific'):\n"
        "    build_state(load_scenario(name), seed=1)\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('owsnb.authoring', 'global_land_mask')))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "", f"the loader loaded: {out.stdout.strip()}"


def test_every_rule_set_loads_without_ui_modules():
    code = (
        "import sys, owsnb.rules\n"
        "from owsnb.kernel.registry import ruleset_names, get_ruleset\n"
        "[get_ruleset(n) for n in ruleset_names()]\n"
        "bad = sorted(m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in "
        f"{list(FORBIDDEN[:9])!r}))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == ""


def test_kernel_source_imports_only_stdlib_and_numpy():
    """Module-level imports: stdlib, numpy, the kernel. Inside functions, conveniences may reach
    the display and analysis layers lazily (a repr, ``game.history()``); the subprocess test above
    proves importing the kernel never loads them."""
    stdlib = set(sys.stdlib_module_names)
    for path in (ROOT / "owsnb" / "kernel").glob("*.py"):
        tree = ast.parse(path.read_text())
        lazy = {
            id(n)
            for f in ast.walk(tree)
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(f)
        }
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for n in names:
                top = n.split(".")[0]
                ok = (
                    top in stdlib
                    or top == "numpy"
                    or n.startswith("owsnb.kernel")
                    or (id(node) in lazy and n.startswith(("owsnb.display", "owsnb.analysis")))
                )
                assert ok, f"{path.name} imports {n}"


# -- the whole package, statically -------------------------------------------------------------

PACKAGE = ROOT / "owsnb"

# A module may import (at module level) its own layer and any layer with a lower rank.
RANK = {
    "kernel": 0,
    "rules": 1,
    "scenario": 2,
    "authoring": 2,
    "store": 3,
    "server": 4,
    "analysis": 4,
    "bots": 4,
    "api": 4,  # owsnb.load & co.: wires scenario, store and kernel (beside the server)
    "display": 5,
    "widgets": 5,
    "pages": 6,
    "testing": 6,  # test support: may drive widgets; nothing imports it (see below)
    "cli": 7,
    "__main__": 7,
    "owsnb": 7,  # the package's __init__: the notebook entry points, loaded on first use
}
UI_LIBRARIES = (
    "ipywidgets",
    "ipyleaflet",
    "bqplot",
    "traitlets",
    "IPython",
    "voila",
    "comm",
    "jupyter_client",
    "jupyter_server",
)


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, e.g. "owsnb.rules.ows.strike"
    name: str  # what it imports, e.g. "owsnb.kernel.state" or "numpy"
    lazy: bool  # inside a function or an ``if TYPE_CHECKING`` block
    line: int

    def __str__(self) -> str:
        where = "lazily " if self.lazy else ""
        return f"{self.module} {where}imports {self.name} (line {self.line})"


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def ruleset_of(module: str) -> str | None:
    """The rule set a module belongs to (a package under ``owsnb/rules/``); ``None`` for the rules
    layer's shared modules (``owsnb.rules.tables``) and everything else."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "rules" and (PACKAGE / "rules" / parts[2]).is_dir():
        return parts[2]
    return None


def imports(path: Path, root: Path = ROOT) -> Iterator[Import]:
    """Every import in *path*, absolute or relative, marked lazy when it runs only on a call
    (inside a function) or only for the type checker (``if TYPE_CHECKING:``)."""
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    is_pkg = parts[-1] == "__init__"
    if is_pkg:
        parts = parts[:-1]
    module = ".".join(parts)
    tree = ast.parse(path.read_text(), str(path))
    lazy: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
            isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        ):
            lazy |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts if is_pkg else parts[:-1]
                base = base[: len(base) - (node.level - 1)]
                names = [".".join([*base, *([node.module] if node.module else [])])]
            elif node.module:
                names = [node.module]
        for name in names:
            yield Import(module, name, id(node) in lazy, node.lineno)


def all_imports() -> list[Import]:
    return [i for path in sorted(PACKAGE.rglob("*.py")) for i in imports(path)]


def test_every_layer_of_the_package_is_placed():
    """A new sub-package must be given its place in the house plan before it can be checked."""
    layers = {
        layer_of(".".join(p.relative_to(ROOT).with_suffix("").parts)) for p in PACKAGE.rglob("*.py")
    }
    assert layers - {"__init__"} <= set(RANK), f"not in RANK: {sorted(layers - set(RANK))}"


def test_module_level_imports_point_down():
    bad = [
        str(i)
        for i in all_imports()
        if not i.lazy
        and i.name.startswith("owsnb.")
        and RANK[layer_of(i.name)] > RANK[layer_of(i.module)]
    ]
    assert not bad, "imports that point up:\n" + "\n".join(bad)


def test_a_rule_set_never_imports_another():
    bad = [
        str(i)
        for i in all_imports()
        if ruleset_of(i.module)
        and ruleset_of(i.name)
        and ruleset_of(i.name) != ruleset_of(i.module)
    ]
    assert not bad, "\n".join(bad)


def test_server_and_bots_never_import_widgets_or_pages():
    """The authority renders nothing and a bot sees what a side sees: neither touches the UI,
    not even lazily (ARCHITECTURE.md: "server/ renders nothing")."""
    bad = [
        str(i)
        for i in all_imports()
        if layer_of(i.module) in ("server", "bots")
        and (layer_of(i.name) in ("widgets", "pages") or i.name.split(".")[0] in UI_LIBRARIES)
    ]
    assert not bad, "\n".join(bad)


def test_only_widgets_and_pages_import_ui_libraries():
    bad = [
        str(i)
        for i in all_imports()
        if i.name.split(".")[0] in UI_LIBRARIES and layer_of(i.module) not in ("widgets", "pages")
    ]
    assert not bad, "\n".join(bad)


def test_display_imports_no_widget_layer():
    """The kernel's and the rule sets' reprs load ``owsnb.display`` lazily; it must stay light."""
    bad = [
        str(i)
        for i in all_imports()
        if layer_of(i.module) == "display" and layer_of(i.name) in ("widgets", "pages")
    ]
    assert not bad, "\n".join(bad)


def test_nothing_in_the_package_imports_the_test_support():
    """``owsnb.testing`` (play-outs, leak scans, transcripts) needs pytest and Hypothesis: the
    product must run without them."""
    bad = [
        str(i)
        for i in all_imports()
        if i.name.startswith("owsnb.testing") and layer_of(i.module) != "testing"
    ]
    assert not bad, "\n".join(bad)


def test_the_static_check_sees_a_violation(tmp_path):
    """The analysis finds module-level, relative and lazy imports (so the tests above can fail)."""
    pkg = tmp_path / "owsnb" / "rules" / "demo"
    pkg.mkdir(parents=True)
    src = pkg / "mod.py"
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "from owsnb.widgets import App\n"
        "from ..ows import strike\n"
        "if TYPE_CHECKING:\n    from owsnb.pages import seat\n"
        "def f():\n    import ipywidgets\n"
    )
    found = {(i.name, i.lazy) for i in imports(src, root=tmp_path)}
    assert found == {
        ("typing", False),
        ("owsnb.widgets", False),
        ("owsnb.rules.ows", False),
        ("owsnb.pages", True),
        ("ipywidgets", True),
    }
