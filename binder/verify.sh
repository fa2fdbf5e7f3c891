#!/usr/bin/env bash
# Verify that the pinned Binder environment installs and works, as Binder would build it:
# a fresh virtual environment, `pip install -r binder/requirements.txt`, then `binder/postBuild`
# from the repository root. Then: the package imports with every pinned version in place, Voila's
# server extension is enabled (the dashboard badge opens voila/render/...), and every top-level
# notebook (notebooks/0*.ipynb) and the seat dashboard execute top to bottom (the dashboard explains
# itself without a seat link) at the notebook tests' small sizes (OWSNB_TESTING=1), each cell
# within a timeout. Needs the package index (CI has it); takes a few minutes.
#   usage: bash binder/verify.sh            (PYTHON=python3.11 to choose the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "binder/verify: fresh venv with $($PY --version)"
"$PY" -m venv "$work/venv"
VPY="$work/venv/bin/python"
"$VPY" -m pip install -q --upgrade pip
"$VPY" -m pip install -q -r binder/requirements.txt
PATH="$work/venv/bin:$PATH" bash binder/postBuild >/dev/null
"$VPY" -m pip check
"$VPY" - <<'PYEOF'
import re
from importlib.metadata import version
from pathlib import Path

pins = {}
for line in Path("binder/requirements.txt").read_text().splitlines():
    line = line.split("#")[0].strip()
    if line:
        name, _, v = line.partition("==")
        pins[name] = v
wrong = {n: (v, version(n)) for n, v in pins.items() if version(n) != v}
assert not wrong, f"pinned versions not installed: {wrong}"
import owsnb, owsnb.widgets, owsnb.server.client, owsnb.pages.seat, owsnb.pages.demo, voila  # noqa: E401,F401
# every runtime dependency of the package is pinned
import tomllib
deps = tomllib.loads(Path("pyproject.toml").read_text())["project"]["dependencies"]
names = {re.split(r"[<>=!~\[; ]", d)[0].lower().replace("_", "-") for d in deps}
pinned = {n.lower().replace("_", "-") for n in pins}
assert names <= pinned, f"dependencies of owsnb not pinned in binder/requirements.txt: {sorted(names - pinned)}"
print(f"binder/verify: owsnb {owsnb.__version__} with {len(pins)} pinned packages")
PYEOF
extensions=$("$work/venv/bin/jupyter" server extension list 2>&1 || true)
if ! grep -Eq "voila.*enabled" <<<"$extensions"; then
  echo "binder/verify: Voila's server extension is not enabled" >&2
  exit 1
fi
echo "binder/verify: Voila's server extension is enabled"
"$VPY" - <<'PYEOF'
import os
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

names = [*sorted(str(p) for p in Path("notebooks").glob("0*.ipynb")), "notebooks/seminar/seat.ipynb"]
assert len(names) > 1, "no top-level notebooks found"
for name in names:
    nb = nbformat.read(name, as_version=4)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="owsnb-binder-") as home:
        NotebookClient(nb, timeout=300, kernel_name="python3",  # seconds per cell
                       resources={"metadata": {"path": str(Path(name).parent)}}).execute(
            env={**os.environ, "OWSNB_HOME": home, "OWSNB_TESTING": "1"})
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{name}: {errors[0]['ename']}: {errors[0]['evalue']}"
    print(f"binder/verify: {name} runs ({time.monotonic() - started:.0f} s)")
PYEOF
echo "binder/verify: OK"
