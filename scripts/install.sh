#!/usr/bin/env bash
# Creates .venv in the repository and installs the pinned dependencies (and, with --test, the test ones).
# Re-running is cheap: it reinstalls only when a lock file changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for cand in python3.11 python3.12 python3.13 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      PY="$cand"; break
    fi
  done
fi
[ -n "$PY" ] || { echo "clubbot needs Python 3.11 or newer" >&2; exit 1; }
[ -x .venv/bin/python ] || "$PY" -m venv .venv
locks="requirements.lock pyproject.toml"
[ "${1:-}" = "--test" ] && locks="$locks requirements-test.lock"
stamp=".venv/.installed-$(cat $locks | sha256sum | cut -c1-16)"
# pip's own warnings about mirror folders this machine may not have are noise; errors still show.
pipq() { .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@" 2> >(grep -v "^WARNING: Location" >&2); }
if [ ! -f "$stamp" ]; then
  pipq --quiet --disable-pip-version-check -r requirements.lock
  if [ "${1:-}" = "--test" ]; then pipq -r requirements-test.lock; fi
  pipq --quiet --disable-pip-version-check --no-deps -e .
  touch "$stamp"
fi
