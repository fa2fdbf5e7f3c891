#!/usr/bin/env bash
# Set up everything the tests need, then run every test (the README's test command; CI runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh --test
export OWSNB_HOME="${OWSNB_HOME:-$(mktemp -d)}"
# house style: formatted and linted (pyproject.toml [tool.ruff])
.venv/bin/ruff format --check -q owsnb tests bench
.venv/bin/ruff check -q owsnb tests bench
# type checked: mypy (pyproject.toml [tool.mypy]) against a per-file baseline that only shrinks
.venv/bin/python .ci/mypy_check.py
if ls scenarios/*.yaml >/dev/null 2>&1; then .venv/bin/owsnb validate scenarios/*.yaml; fi
exec .venv/bin/python -m pytest -p no:cacheprovider -q "$@"
