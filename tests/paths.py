"""Where the repository's files are, for tests in any folder."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
