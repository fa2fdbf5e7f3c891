"""COVERAGE.md cannot go stale: every test it cites exists in ``tests/`` and every module (and
attribute) it names exists in ``owsnb/rules/ows``."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).parents[3]
DOC = ROOT / "owsnb" / "rules" / "ows" / "COVERAGE.md"
PACKAGE = "owsnb.rules.ows"


def _rows() -> list[tuple[int, str, str, str]]:
    """(line number, paragraph, module column, test column) of every table row."""
    rows = []
    for n, line in enumerate(DOC.read_text().splitlines(), 1):
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, f"COVERAGE.md:{n}: a row needs 4 columns, found {len(cells)}"
        if cells[0] == "paragraph":
            continue
        rows.append((n, cells[0], cells[2], cells[3]))
    return rows


def _tests() -> dict[str, set[str]]:
    """Test function name -> stems of the files defining it, over all of ``tests/``."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                "test_"
            ):
                out.setdefault(node.name, set()).add(path.stem)
    return out


def _resolve(dotted: str) -> tuple[str | None, str | None]:
    """(module, problem): the longest module prefix of ``owsnb.rules.ows.<dotted>`` and ``None`` if
    the rest names an attribute of that module (or of a class it defines, e.g. the rule set's
    methods); else the problem."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            mod = importlib.import_module(".".join([PACKAGE, *parts[:i]]))
        except ModuleNotFoundError:
            continue
        rest = parts[i:]
        here = ".".join(parts[:i])
        if not rest:
            return here, None
        owners = [
            mod,
            *(
                c
                for _, c in inspect.getmembers(mod, inspect.isclass)
                if c.__module__ == mod.__name__
            ),
        ]
        for owner in owners:
            obj = owner
            for name in rest:
                obj = getattr(obj, name, None)
                if obj is None:
                    break
            if obj is not None:
                return here, None
        return here, f"{mod.__name__} has no {'.'.join(rest)}"
    return None, f"no module {PACKAGE}.{parts[0]}"


def test_coverage_doc_has_both_parts_tables():
    rows = _rows()
    assert len(rows) > 150  # parts 1 and 2: a parsing slip must not make the checks below vacuous
    assert {"8.4", "10.15.9.1.4", "6.5.9.6", "9.3", "4.1"} <= {p for _, p, _, _ in rows}


def test_every_cited_test_exists():
    tests = _tests()
    missing = []
    cited = 0
    for n, para, _, col in _rows():
        for tok in re.findall(r"`([^`]+)`", col):
            if "::" in tok:
                stem, name = tok.split("::", 1)
            elif tok.startswith("test_"):
                stem, name = None, tok
            elif re.fullmatch(r"\d\d-[\w-]+", tok):  # a notebook
                if not (ROOT / "notebooks" / f"{tok}.ipynb").exists():
                    missing.append(f"COVERAGE.md:{n} ({para}): no notebook {tok}")
                continue
            else:
                missing.append(
                    f"COVERAGE.md:{n} ({para}): {tok!r} is neither a test nor a notebook"
                )
                continue
            cited += 1
            if name not in tests or (stem is not None and stem not in tests[name]):
                where = f" in {stem}.py" if stem else ""
                missing.append(f"COVERAGE.md:{n} ({para}): no test {name}{where}")
    assert cited > 200
    assert missing == [], "\n".join(missing)


def test_every_cited_module_exists():
    problems = []
    cited = 0
    for n, para, col, _ in _rows():
        outside = re.sub(
            r"\([^)]*\)", "", col
        )  # order verbs, options and tables are in parentheses
        last = None
        for tok in re.findall(r"`([^`]+)`", outside):
            cited += 1
            mod, why = _resolve(tok)
            if (
                why and last and "." not in tok
            ):  # `ground.gcat.odds`, `column_index`: the same module
                mod, why = _resolve(f"{last}.{tok}")
            if why:
                problems.append(f"COVERAGE.md:{n} ({para}): `{tok}`: {why}")
            last = mod or last
    assert cited > 150
    assert problems == [], "\n".join(problems)
