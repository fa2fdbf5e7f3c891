#!/usr/bin/env bash
# Set up owsnb in ./.venv (idempotent). With --test, also install what the tests drive:
# Debian's chromium (real-browser tests) and postgresql (shared-store tests).
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

if [ "$want_test" = 1 ]; then
  missing=()
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
      echo "owsnb setup: installing Debian packages: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq "${missing[@]}" >/dev/null
    else
      echo "owsnb setup: please install Debian packages: ${missing[*]} (browser and PostgreSQL tests need them)" >&2
    fi
  fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "owsnb setup: creating .venv"
  "$PY" -m venv .venv
fi
# Skip the install on a re-run (so start-up works offline): .venv exists, owsnb imports, and the
# stamp written by the last install holds the same pyproject.toml hash and covers the extras wanted.
extras=base
[ "$want_test" = 1 ] && extras=all
stamp=.venv/.owsnb-install-stamp
hash=$(sha256sum pyproject.toml | cut -d' ' -f1)
installed() {
  [ -f "$stamp" ] || return 1
  read -r old_hash old_extras <"$stamp" || return 1
  [ "$old_hash" = "$hash" ] || return 1
  [ "$old_extras" = all ] || [ "$extras" = base ] || return 1
  .venv/bin/python -c 'import owsnb' >/dev/null 2>&1
}
if installed; then
  echo "owsnb setup: already installed (pyproject.toml unchanged; delete $stamp to reinstall)"
else
  if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install -q --upgrade pip  # first install only
  fi
  rm -f "$stamp"
  if [ "$want_test" = 1 ]; then
    .venv/bin/python -m pip install -q -e ".[all]"
  else
    .venv/bin/python -m pip install -q -e .
  fi
  echo "$hash $extras" >"$stamp"
fi
echo "owsnb setup: ready ($(.venv/bin/python -c 'import owsnb; print("owsnb", owsnb.__version__)'))"
