"""One running bot per SQLite file (issue 33 §2): a second `clubbot run` on the file a bot is running on
exits at once with a message naming the first one, instead of announcing every round a second time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO

EXE = Path(sys.executable).parent / "clubbot"
ENV = {**os.environ, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": ""}


def test_a_second_bot_on_the_same_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    first = subprocess.Popen(
        [str(EXE), "run", "--db", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=ENV, cwd=REPO,
    )  # fmt: skip
    try:
        assert first.stdout is not None and first.stdin is not None
        banner = first.stdout.readline()  # the console is up and waits for its next line
        assert "clubbot" in banner, banner
        second = subprocess.run(
            [str(EXE), "run", "--db", str(db)], input="/seizoen naam=S start=2026-12-03 rondes=2\n",
            capture_output=True, text=True, timeout=60, env=ENV, cwd=REPO,
        )  # fmt: skip
        assert second.returncode == 2
        assert f"another clubbot is running on {db} (process {first.pid})" in second.stderr
        assert "Traceback" not in second.stderr and second.stdout == ""
        first.stdin.write("/stop\n")
        first.stdin.flush()
        assert first.wait(timeout=60) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    # once the first has stopped, the file is free again; another file never was taken
    for path in (db, tmp_path / "other.sqlite3"):
        again = subprocess.run([str(EXE), "run", "--db", str(path)], input="/stop\n", capture_output=True, text=True,
                               timeout=60, env=ENV, cwd=REPO)  # fmt: skip
        assert again.returncode == 0, again.stderr
