"""Type-check owsnb with mypy (settings: pyproject.toml [tool.mypy]) against a baseline that only
shrinks.

The baseline, ``.ci/mypy-baseline.txt``, holds the number of mypy errors per file. The check fails
when a file has more errors than its baseline (a file not listed starts at 0); when files have
fewer, it says so, and ``--update`` writes the lower counts (it never raises one).

    python .ci/mypy_check.py            # check (CI)
    python .ci/mypy_check.py --update   # after fixing errors: lower the baseline
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / ".ci" / "mypy-baseline.txt"
_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+(?::\d+)?: error: ")


def count_errors(output: str) -> Counter[str]:
    """Errors per file in mypy's output (notes are not errors)."""
    return Counter(m["path"] for line in output.splitlines() if (m := _ERROR.match(line)))


def read_baseline(path: Path = BASELINE) -> dict[str, int]:
    """``path count`` per line; blank lines and ``#`` comments are ignored."""
    out: dict[str, int] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, n = line.rsplit(maxsplit=1)
            out[name] = int(n)
    return out


def compare(
    current: dict[str, int], baseline: dict[str, int]
) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """(grown, shrunk): files whose count went up / down, as ``{path: (baseline, now)}``."""
    grown, shrunk = {}, {}
    for name in sorted(set(current) | set(baseline)):
        before, now = baseline.get(name, 0), current.get(name, 0)
        if now > before:
            grown[name] = (before, now)
        elif now < before:
            shrunk[name] = (before, now)
    return grown, shrunk


def write_baseline(counts: dict[str, int], path: Path = BASELINE) -> None:
    lines = [
        "# mypy errors per file; may only shrink (.ci/mypy_check.py --update lowers it)",
        f"# total {sum(counts.values())}",
        *(f"{name} {n}" for name, n in sorted(counts.items()) if n),
    ]
    path.write_text("\n".join(lines) + "\n")


def run_mypy() -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--no-pretty"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if proc.returncode not in (0, 1) or proc.stderr.strip():
        sys.exit(f"mypy did not run:\n{proc.stderr}{proc.stdout}")
    return proc.stdout


def main(argv: list[str]) -> int:
    output = run_mypy()
    current = dict(count_errors(output))
    baseline = read_baseline()
    grown, shrunk = compare(current, baseline)
    total, before = sum(current.values()), sum(baseline.values())
    if grown:
        print(output, end="")
        print(f"mypy: {total} errors (baseline {before}); more than the baseline in:")
        for name, (b, n) in grown.items():
            print(f"  {name}: {b} -> {n}")
        print("fix them (the baseline only shrinks)")
        return 1
    if "--update" in argv:
        write_baseline({k: min(v, baseline.get(k, 0)) for k, v in current.items()})
        print(f"mypy: baseline lowered from {before} to {total} errors")
    elif shrunk:
        print(
            f"mypy: {total} errors, baseline {before}: fewer in {len(shrunk)} files "
            "(run .ci/mypy_check.py --update to lower the baseline)"
        )
    else:
        print(f"mypy: {total} errors (baseline {before})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
