#!/usr/bin/env bash
# Install (first time) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install.sh --test
exec .venv/bin/python -m pytest "$@"
