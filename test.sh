#!/usr/bin/env bash
# Install (first time) and run the whole test suite, in parallel: one pytest-xdist worker per core
# (CLUBBOT_TEST_WORKERS overrides; 0 runs in this one process). Extra arguments go to pytest, after ours.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install.sh --test
exec .venv/bin/python -m pytest -n "${CLUBBOT_TEST_WORKERS:-auto}" --dist worksteal "$@"
