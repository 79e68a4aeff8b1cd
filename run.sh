#!/usr/bin/env bash
# Install (first time) and start the bot. With no tokens configured it runs the console adapter.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install.sh
exec .venv/bin/clubbot run "$@"
