"""The code is typed: `mypy --strict engine bot` passes (the convention in docs/developing.md, kept by a
test); pyproject.toml's [tool.mypy] names the same folders and the libraries without type information."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import REPO


def test_engine_and_bot_pass_mypy_strict() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "engine", "bot"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
