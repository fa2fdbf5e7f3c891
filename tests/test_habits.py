"""House habits checked by machine (issue 17): no test skips because owsnb or one of its hard
dependencies fails to import, and the mypy baseline only shrinks."""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _dist_name(requirement: str) -> str:
    """``"dask[distributed]>=2024.6"`` -> ``"dask"``; import names use ``_`` for ``-``."""
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("-", "_")


def _optional_modules() -> set[str]:
    """Top-level import names of the genuinely optional extras (not ``test``: the tests need it)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    return {
        _dist_name(r)
        for name, reqs in extras.items()
        if name not in ("test", "all")
        for r in reqs
        if not r.startswith("owsnb")
    }


def importorskips(root: Path) -> list[tuple[str, int, str]]:
    """``(file, line, module)`` of every ``pytest.importorskip(...)`` under *root*."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "importorskip"
            ):
                arg = node.args[0] if node.args else None
                mod = arg.value if isinstance(arg, ast.Constant) else "<computed>"
                found.append((str(path.relative_to(root)), node.lineno, str(mod)))
    return found


def test_no_importorskip_of_owsnb_or_of_a_hard_dependency():
    """A broken import of owsnb or of what it requires must fail, not skip; only an optional extra
    (``research``, ``postgres``, ``hub``) may be skipped when it is not installed."""
    optional = _optional_modules()
    assert {"dask", "psycopg", "zarr"} <= optional
    bad = [
        f"{root.name}/{f}:{line} importorskip({mod!r})"
        for root in (ROOT / "tests", ROOT / "owsnb")
        for f, line, mod in importorskips(root)
        if mod.split(".")[0] not in optional
    ]
    assert not bad, "\n".join(bad)


def test_the_importorskip_scan_finds_a_call(tmp_path):
    (tmp_path / "t.py").write_text("import pytest\nx = pytest.importorskip('owsnb.rules.ows')\n")
    assert importorskips(tmp_path) == [("t.py", 2, "owsnb.rules.ows")]


# -- mypy: a baseline that only shrinks ------------------------------------------------------------


def _checker():
    spec = importlib.util.spec_from_file_location("mypy_check", ROOT / ".ci" / "mypy_check.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_mypy_errors_are_counted_per_file_and_notes_are_not_errors():
    out = (
        "owsnb/a.py:3: error: Incompatible types  [assignment]\n"
        "owsnb/a.py:3: note: see the docs\n"
        "owsnb/a.py:9:12: error: Item None  [union-attr]\n"
        "owsnb/b/c.py:1: error: Name x  [name-defined]\n"
    )
    assert dict(_checker().count_errors(out)) == {"owsnb/a.py": 2, "owsnb/b/c.py": 1}


def test_the_mypy_baseline_may_only_shrink_and_a_new_file_starts_at_zero():
    compare = _checker().compare
    grown, shrunk = compare({"a.py": 3, "new.py": 1, "b.py": 1}, {"a.py": 3, "b.py": 2})
    assert grown == {"new.py": (0, 1)}
    assert shrunk == {"b.py": (2, 1)}
    assert compare({"a.py": 4}, {"a.py": 3})[0] == {"a.py": (3, 4)}


def test_the_mypy_baseline_lists_only_files_that_exist():
    baseline = _checker().read_baseline()
    assert baseline, "the baseline is empty: the file moved?"
    assert all((ROOT / name).is_file() for name in baseline), [
        n for n in baseline if not (ROOT / n).is_file()
    ]
