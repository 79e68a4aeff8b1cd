"""Issue 44 §3: the console's conversation is not interleaved with the log. The log goes to clubbot.log beside
the database (said once at start); only warnings and errors also show on the terminal."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from pathlib import Path

from bot.core.running.log_lines import configure_console_logging
from tests.paths import REPO

EXE = Path(sys.executable).parent / "clubbot"
ENV = {**os.environ, "CLUBBOT_DISCORD_TOKEN": "", "CLUBBOT_TELEGRAM_TOKEN": ""}


def test_the_console_keeps_its_log_in_a_file_beside_the_database(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    done = subprocess.run([str(EXE), "run", "--db", str(db), "--clock", "2026-12-01T12:00"],
                          input="/leden importeer examples/club-21.csv\n/stop\n", capture_output=True, text=True,
                          timeout=60, env=ENV, cwd=REPO)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "level=INFO" not in done.stdout + done.stderr
    assert "bot> 21 leden ingelezen" in done.stdout
    log = tmp_path / "clubbot.log"
    assert done.stderr.count(str(log)) == 1, done.stderr  # said once, at start
    assert "event=command command=leden outcome=ok" in log.read_text(encoding="utf-8")


def test_warnings_show_on_the_terminal_and_info_only_in_the_file(tmp_path: Path) -> None:
    root = logging.getLogger()
    level = root.level
    terminal = io.StringIO()
    handlers = configure_console_logging("INFO", "keyvalue", tmp_path / "clubbot.log", terminal)
    try:
        logging.getLogger("clubbot").info("event=command command=stand")
        logging.getLogger("clubbot").warning("the clock jumped")
    finally:
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)
    assert "the clock jumped" in terminal.getvalue() and "command=stand" not in terminal.getvalue()
    written = (tmp_path / "clubbot.log").read_text(encoding="utf-8")
    assert "command=stand" in written and "the clock jumped" in written


def test_a_start_that_stops_early_leaves_no_log_file(tmp_path: Path) -> None:
    root = logging.getLogger()
    handlers = configure_console_logging("INFO", "keyvalue", tmp_path / "clubbot.log", io.StringIO())
    for handler in handlers:
        root.removeHandler(handler)
        handler.close()
    assert not (tmp_path / "clubbot.log").exists()


def test_files_go_beside_the_db_file_where_the_readme_says(tmp_path: Path) -> None:
    """Issue 44 §3: ``--db elsewhere`` puts /exporteer's file in ``exports/`` beside that database, says so at
    start and when saved, and the README says the same."""
    db = tmp_path / "elsewhere" / "club.sqlite3"
    db.parent.mkdir()
    script = "/leden importeer examples/club-21.csv\n/seizoen naam=S start=2026-12-03\n/exporteer csv\n/stop\n"
    done = subprocess.run([str(EXE), "run", "--db", str(db), "--clock", "2026-12-01T12:00"], input=script,
                          capture_output=True, text=True, timeout=60, env=ENV, cwd=REPO)  # fmt: skip
    assert done.returncode == 0, done.stderr
    exports = tmp_path / "elsewhere" / "exports"
    assert f"are saved in {exports}" in done.stderr, done.stderr
    (saved,) = exports.iterdir()
    assert f"Bestand opgeslagen: {saved}" in done.stdout, done.stdout
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert "are saved in `exports/` beside the database, as the log is" in readme
