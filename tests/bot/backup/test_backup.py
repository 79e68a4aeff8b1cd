"""/backup and `clubbot restore`: a consistent snapshot taken while the bot writes, only the club's own
rows, and a restore that checks the file, keeps the old database aside and loses nothing."""

from __future__ import annotations

from tests.paths import REPO

import asyncio
import contextlib
import io
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main as cli_main
from bot.core.storage.database_lock import DatabaseInUse, DatabaseLock
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from bot.core.storage.store import Store
from tests.bot.conftest import DIRECTOR, START, actor

OTHER = actor("Baas", director=True, club="club-2")


async def _season(commands: Core, who=DIRECTOR, names=("Anna", "Bert", "Carla")) -> None:
    assert (await commands.handle(who, "/seizoen naam=S start=2026-12-03 rondes=5")).ok
    for i, name in enumerate(names):
        assert (await commands.handle(who, f"/speler {name} {2000 - i * 100}")).ok


def _count(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


async def test_backup_is_a_consistent_snapshot_of_the_club_taken_while_members_write(
    commands: Core, tmp_path: Path
) -> None:
    await _season(commands)
    await _season(commands, OTHER, ("Xander", "Yara"))
    people = [actor(f"Lid{i:02d}") for i in range(30)]
    for p in people:
        assert (await commands.handle(p, "/aanmelden")).ok
    # thirty sign-offs and the backup at the same moment: each sign-off is one transaction, so the
    # snapshot holds each one whole (its sign-off row) or not at all, and never a broken reference
    replies = await asyncio.gather(
        *(commands.handle(p, "/afmelden") for p in people[:15]),
        commands.handle(DIRECTOR, "/backup"),
        *(commands.handle(p, "/afmelden") for p in people[15:]),
    )
    assert all(r.ok for r in replies), [r.text for r in replies if not r.ok]
    backup = replies[15]
    assert backup.attachment is not None and backup.private
    name, content = backup.attachment
    assert name.startswith("clubbot-") and name.endswith(".sqlite3")
    path = tmp_path / name
    path.write_bytes(content)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] >= 7
        assert conn.execute("SELECT external_id FROM clubs").fetchall() == [("club-1",)]
        names = {r[0] for r in conn.execute("SELECT name FROM members")}
        assert {"Anna", "Bert", "Carla"} <= names and not names & {"Xander", "Yara", "Baas"}
        assert conn.execute("SELECT COUNT(*) FROM seasons").fetchone()[0] == 1
        # whole sign-offs only: each one in the snapshot has its member and its round (foreign_key_check)
        assert 0 <= conn.execute("SELECT COUNT(*) FROM signoffs").fetchone()[0] <= 30
    finally:
        conn.close()
    assert _count(commands.config.db_path, "SELECT COUNT(*) FROM signoffs") == 30


async def test_backup_refuses_arguments_and_members(commands: Core) -> None:
    await _season(commands)
    assert not (await commands.handle(DIRECTOR, "/backup alles")).ok
    assert not (await commands.handle(actor("Anna"), "/backup")).ok


def _restore(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "restore", *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )


def _restore_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``clubbot restore`` run in this process: the same code, its status and what it printed, without the
    second of starting Python and importing the bot that each of a test's many refusals would cost
    (each test still runs the command once as its own process, ``_restore``)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli_main(["restore", *args])
    return subprocess.CompletedProcess(["clubbot", "restore", *args], status, out.getvalue(), err.getvalue())


async def _make_backup(db: Path, out: Path) -> None:
    from bot.core.running.clock import ShiftedClock
    from bot.config import Config, load_config

    base = load_config(REPO / "config.example.toml", env={})
    store = await Store.open(db)
    try:
        commands = make_core(store, Config(**{**base.__dict__, "db_path": db}), ShiftedClock(START))
        await _season(commands)
        # the club's evening: its times of day are no moments (starts_at '19:30'), and a restore takes them
        assert (await commands.handle(DIRECTOR, "/speelavond locatie=De Ster tijd=19:30-23:30")).ok
        reply = await commands.handle(DIRECTOR, "/backup")
        assert reply.attachment is not None
        out.write_bytes(reply.attachment[1])
        assert (await commands.handle(DIRECTOR, "/speler Daan 1500")).ok  # after the backup
    finally:
        await store.close()


def test_restore_puts_the_backup_in_place_and_keeps_the_old_database_aside(tmp_path: Path) -> None:
    db, backup = tmp_path / "data" / "club.sqlite3", tmp_path / "backup.sqlite3"
    asyncio.run(_make_backup(db, backup))
    assert _count(db, "SELECT COUNT(*) FROM members WHERE name = 'Daan'") == 1
    done = _restore(str(backup), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert _count(db, "SELECT COUNT(*) FROM members WHERE name = 'Daan'") == 0
    assert _count(db, "SELECT COUNT(*) FROM members WHERE name = 'Anna'") == 1
    aside = [p for p in db.parent.iterdir() if ".before-restore-" in p.name]
    assert len(aside) == 1 and _count(aside[0], "SELECT COUNT(*) FROM members WHERE name = 'Daan'") == 1

    async def reopen() -> None:  # the bot starts on the restored file: migrations check out, data is there
        store = await Store.open(db)
        try:
            assert await store.integrity_check() == "ok"
            club = await store.club_by_external("console", "club-1")
            assert club is not None and await store.member_by_name(club.id, "Carla") is not None
        finally:
            await store.close()

    asyncio.run(reopen())


def test_restore_refuses_what_is_not_a_sound_clubbot_database(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE keep (x)")
    conn.execute("INSERT INTO keep VALUES ('mine')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    foreign = tmp_path / "foreign.sqlite3"
    other = sqlite3.connect(foreign)
    other.execute("CREATE TABLE clubs (id INTEGER PRIMARY KEY)")
    other.commit()
    other.close()
    good = tmp_path / "good.sqlite3"
    asyncio.run(_make_backup(tmp_path / "live.sqlite3", good))
    broken = tmp_path / "broken.sqlite3"
    data = bytearray(good.read_bytes())
    page = 4096
    data[page * 2 : page * 2 + 200] = b"\xff" * 200  # a damaged page in the middle
    broken.write_bytes(bytes(data))
    for bad in (junk, foreign, broken, tmp_path / "missing.sqlite3"):
        done = (_restore if bad == junk else _restore_here)(str(bad), "--db", str(db))  # one as its own process
        assert done.returncode == 2, (bad, done.stdout, done.stderr)
        assert "nothing was changed" in done.stderr
        assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if ".before-restore-" in p.name] == []


def test_restore_keeps_what_a_killed_bot_left_in_its_wal(tmp_path: Path) -> None:
    """A bot killed with SIGKILL leaves committed changes in the -wal file; moving only the main file
    aside would lose them. The restore folds the WAL in first."""
    db, backup = tmp_path / "club.sqlite3", tmp_path / "backup.sqlite3"
    asyncio.run(_make_backup(db, backup))
    script = (
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None);"
        "c.execute('PRAGMA journal_mode=WAL'); c.execute(\"UPDATE members SET rating = 1234 WHERE name = 'Anna'\");"
        "os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", script, str(db)], check=True, timeout=30)
    assert Path(f"{db}-wal").exists()
    assert cli_main(["restore", str(backup), "--db", str(db)]) == 0
    aside = next(p for p in tmp_path.iterdir() if p.name.startswith("club.sqlite3.before-restore-") and p.suffix != ".sqlite3-wal")
    assert _count(aside, "SELECT rating FROM members WHERE name = 'Anna'") == 1234
    assert _count(db, "SELECT rating FROM members WHERE name = 'Anna'") == 2000


def _tampered(good: Path, out: Path, sql: str) -> Path:
    shutil.copyfile(good, out)
    conn = sqlite3.connect(str(out), isolation_level=None)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.executescript(sql)
    conn.close()
    return out


def test_restore_accepts_only_the_schema_the_migrations_make_at_the_files_level(tmp_path: Path) -> None:
    """A trigger in a backup would fire inside the running bot (here: every sign-off empties the club);
    a view, a missing table or column, a changed index or a migration from a newer clubbot are refused
    too, each with what differs, and the database stays as it was."""
    db, good = tmp_path / "club.sqlite3", tmp_path / "good.sqlite3"
    asyncio.run(_make_backup(db, good))
    before = _count(db, "SELECT COUNT(*) FROM members")
    cases = {
        "extra trigger wipe": "CREATE TRIGGER wipe AFTER INSERT ON signoffs BEGIN DELETE FROM members; END;",
        "extra view": "CREATE VIEW everyone AS SELECT * FROM members;",
        "missing table link_codes": "DROP TABLE link_codes;",
        "table members differs": "ALTER TABLE members DROP COLUMN rating;",
        "extra index": "CREATE INDEX nosy ON members(name);",
        "newer clubbot": "INSERT INTO schema_migrations VALUES ('9999_from_the_future.sql', 'now');",
    }
    for number, (reason, sql) in enumerate(cases.items()):
        bad = _tampered(good, tmp_path / f"bad{number}.sqlite3", sql)
        done = _restore_here(str(bad), "--db", str(db))
        assert done.returncode == 2, (reason, done.stdout)
        assert reason in done.stderr and "nothing was changed" in done.stderr, (reason, done.stderr)
        assert _count(db, "SELECT COUNT(*) FROM members") == before
    assert [p.name for p in tmp_path.iterdir() if ".before-restore-" in p.name] == []
    # the untouched backup of an earlier level (fewer migrations) is accepted: the bot migrates it on start
    old = _tampered(good, tmp_path / "old.sqlite3", "DROP TABLE link_codes; DELETE FROM schema_migrations WHERE name = '0024_link_codes.sql';")
    done = _restore(str(old), "--db", str(db))
    assert done.returncode == 0, done.stderr


def test_restore_reads_names_as_paths_and_folds_in_a_wal_beside_the_backup(tmp_path: Path) -> None:
    """'#' and '?' are part of a file name, not a URI's fragment or query; the changes a writer left in
    the backup's -wal file are restored with it, not silently dropped."""
    db, made = tmp_path / "club.sqlite3", tmp_path / "made.sqlite3"
    asyncio.run(_make_backup(db, made))
    odd = tmp_path / "club#1?mode=memory.sqlite3"
    shutil.copyfile(made, odd)
    script = (
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None);"
        "c.execute('PRAGMA journal_mode=WAL'); c.execute(\"UPDATE members SET rating = 1777 WHERE name = 'Carla'\");"
        "os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", script, str(odd)], check=True, timeout=30)
    assert Path(f"{odd}-wal").stat().st_size > 0
    done = _restore(str(odd), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "-wal file" in done.stdout
    assert _count(db, "SELECT rating FROM members WHERE name = 'Carla'") == 1777
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0


def test_restore_refuses_while_a_bot_has_the_database_open_and_a_bot_waits_for_a_restore(tmp_path: Path) -> None:
    db, backup = tmp_path / "club.sqlite3", tmp_path / "backup.sqlite3"
    asyncio.run(_make_backup(db, backup))

    async def restore_while_open() -> None:
        store = await Store.open(db)
        try:
            done = await asyncio.to_thread(_restore, str(backup), "--db", str(db))
            assert done.returncode == 2 and "a bot has" in done.stderr and "nothing was changed" in done.stderr
            club = await store.club_by_external("console", "club-1")
            assert club is not None and await store.member_by_name(club.id, "Daan") is not None
        finally:
            await store.close()

    asyncio.run(restore_while_open())
    with DatabaseLock(db, exclusive=True):  # what a restore holds while it runs

        async def start() -> None:
            await Store.open(db)

        with pytest.raises(DatabaseInUse, match="being restored"):
            asyncio.run(start())
    assert _restore(str(backup), "--db", str(db)).returncode == 0  # the bot stopped: the restore goes ahead
