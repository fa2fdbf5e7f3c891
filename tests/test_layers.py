"""Layering: the kernel and the rule sets load no widget, IPython or server module; the kernel
imports only the standard library and numpy."""

from __future__ import annotations

import ast
import subprocess
import sys
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
