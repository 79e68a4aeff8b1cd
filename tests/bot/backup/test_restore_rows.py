"""`clubbot restore` checks the rows, not only the schema (issue 33 §4): a backup of the right schema
whose rows the bot cannot read (a deadline that is not a date, settings that are not JSON, two active
seasons, a 1 MB member name, text in an integer column) is refused with what is wrong, and so is a -wal
beside it that SQLite would ignore; the database stays as it was."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

from tests.bot.backup.test_backup import _count, _make_backup, _restore, _restore_here, _tampered

SEASON_COPY = (
    "INSERT INTO seasons (club_id, name, kind, rounds_count, deadline_time, publish_time, timezone, settings_json,"
    " status, created_at, version) SELECT club_id, name || ' bis', kind, rounds_count, deadline_time, publish_time,"
    " timezone, settings_json, 'active', created_at, version FROM seasons;"
)
CASES = {
    "deadline_at is not a date and time": "UPDATE rounds SET deadline_at = 'next thursday' WHERE number = 2;",
    "settings_json is not a JSON object": "UPDATE seasons SET settings_json = '{not json';",
    "2 active main seasons (at most one)": SEASON_COPY,
    "name is not at most 60 characters": "UPDATE members SET name = printf('%.*c', 1000000, 'x') WHERE name = 'Anna';",
    "rating is not integer": "UPDATE members SET rating = 'high' WHERE name = 'Bert';",
    "play_date is not a date": "UPDATE rounds SET play_date = '2026-13-45' WHERE number = 3;",
    "timezone is not a time zone": "UPDATE seasons SET timezone = 'Mars/Olympus';",
    "starts_at is not a time of day": "UPDATE club_venues SET starts_at = 'evening';",
}


def test_restore_refuses_rows_the_bot_cannot_read(tmp_path: Path) -> None:
    db, good = tmp_path / "club.sqlite3", tmp_path / "good.sqlite3"
    asyncio.run(_make_backup(db, good))
    before = db.read_bytes()
    for number, (reason, sql) in enumerate(CASES.items()):
        bad = _tampered(good, tmp_path / f"bad{number}.sqlite3", sql)
        done = _restore_here(str(bad), "--db", str(db))
        assert done.returncode == 2, (reason, done.stdout)
        assert reason in done.stderr and "nothing was changed" in done.stderr, (reason, done.stderr)
        assert len(done.stderr) < 2000  # what is wrong, not the 1 MB name
        assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if ".before-restore-" in p.name] == []
    assert _restore(str(good), "--db", str(db)).returncode == 0  # the untouched backup is accepted


def test_restore_refuses_a_wal_sqlite_would_ignore(tmp_path: Path) -> None:
    db, good = tmp_path / "club.sqlite3", tmp_path / "good.sqlite3"
    asyncio.run(_make_backup(db, good))
    before = _count(db, "SELECT COUNT(*) FROM members")
    backup = tmp_path / "backup.sqlite3"
    shutil.copyfile(good, backup)
    Path(f"{backup}-wal").write_bytes(os.urandom(40_000))
    done = _restore(str(backup), "--db", str(db))
    assert done.returncode == 2, done.stdout
    assert "folded" not in done.stdout and "not a write-ahead log" in done.stderr, done.stderr
    assert _count(db, "SELECT COUNT(*) FROM members") == before
