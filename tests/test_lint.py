"""pyflakes' checks (through ruff) on the whole tree: no undefined name, no unused import or variable.
Moving code between modules is where these creep in; this fails on the first one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.paths import REPO


def test_ruff_finds_nothing() -> None:
    ruff = Path(sys.executable).parent / "ruff"
    assert ruff.exists(), "ruff is not installed in the environment (./test.sh installs requirements-test.lock)"
    run = subprocess.run(
        [str(ruff), "check", "--output-format", "concise", "bot", "engine", "tests", "benchmarks"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_would_find_an_undefined_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f() -> int:\n    return missing\n", encoding="utf-8")
    ruff = Path(sys.executable).parent / "ruff"
    run = subprocess.run([str(ruff), "check", "--select", "F", str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "F821" in run.stdout
