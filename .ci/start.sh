#!/usr/bin/env bash
# The main job: set up, then start the seminar server on the bundled tutorial (embedded SQLite
# store, no other server needed) and print the seat links. Arguments go to `owsnb serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
exec .venv/bin/owsnb serve "$@"
