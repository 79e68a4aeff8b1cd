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
# System packages the bot needs from Debian: fonts that draw every name (Latin with accents, Greek,
# Cyrillic, Hebrew, Arabic: DejaVu; Indic scripts, Thai, Lao, Khmer, Tibetan, Ethiopic, ...: Noto; Chinese,
# Japanese, Korean: Noto CJK; Droid Sans Fallback last), fontconfig (how the bot finds them) and FriBiDi, with
# which Pillow lays out right-to-left names. Installed when missing and this runs as root with apt-get;
# otherwise said once, and the pictures fall back to Pillow's own font.
if command -v dpkg >/dev/null 2>&1; then
  need=()
  packages="fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-droid-fallback fontconfig libfribidi0"
  # the website's tests drive a real browser: Debian's Chromium and its driver; the store's tests run a
  # real PostgreSQL server, and axe-core (from npm) checks the pages' accessibility (only for --test)
  # libfaketime steps the wall clock of a bot process in the scheduler's tests (faketime)
  [ "${1:-}" = "--test" ] && packages="$packages chromium chromium-driver postgresql faketime"
  # npm from Debian only where there is none (a NodeSource nodejs brings its own, and conflicts with it)
  [ "${1:-}" = "--test" ] && ! command -v npm >/dev/null 2>&1 && packages="$packages nodejs npm"
  for pkg in $packages; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "clubbot: installing ${need[*]}" >&2
      apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
      echo "clubbot: missing Debian packages ${need[*]} (fonts for names in every script; chromium, postgresql, faketime, nodejs and npm for the tests): apt-get install them" >&2
    fi
  fi
fi
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
# axe-core, which the website's browser tests run in each page: the version pinned in the lock file,
# installed again only when it changes (no browser is downloaded: the tests use Debian's Chromium)
axe=tests/bot/web/axe
if [ "${1:-}" = "--test" ] && command -v npm >/dev/null 2>&1; then
  axe_stamp="$axe/node_modules/.installed-$(sha256sum <"$axe/package-lock.json" | cut -c1-16)"
  if [ ! -f "$axe_stamp" ]; then
    npm ci --prefix "$axe" --no-audit --no-fund --loglevel=error >/dev/null && touch "$axe_stamp"
  fi
fi
