#!/usr/bin/env bash
# The main job: set up, then open the table. (Offline once installed.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
if .venv/bin/python -c "import owsnb.server.cli" 2>/dev/null; then
  exec .venv/bin/owsnb serve "$@"
fi
exec .venv/bin/jupyter lab notebooks/00-quickstart.ipynb --ServerApp.ip=127.0.0.1 "$@"
