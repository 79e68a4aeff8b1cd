#!/usr/bin/env bash
# Install (first time) and run the whole test suite, in parallel (pytest-xdist): two workers more than the
# machine has cores, as many tests spend seconds waiting on a subprocess, a browser or a platform's pace
# (on 2 cores: 4 min 0 s with 4 workers against 4 min 17 s with 3; CLUBBOT_TEST_WORKERS sets the number;
# 0 runs everything in this one process). Extra arguments go to
# pytest after ours, so they can override them (-n 0, -p no:xdist).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install.sh --test
# Every Python process of the suite (the workers, and the bots, CLIs and workers the tests start) reads its
# compiled bytecode from .venv/pycache instead of compiling the bot again: an environment that forbids
# writing bytecode next to the sources (PYTHONDONTWRITEBYTECODE) made each of them do that.
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
unset PYTHONDONTWRITEBYTECODE
workers="${CLUBBOT_TEST_WORKERS:-$(( $(.venv/bin/python -c 'import os; print(os.cpu_count() or 1)') + 2 ))}"
exec .venv/bin/python -m pytest -n "$workers" --dist worksteal "$@"
