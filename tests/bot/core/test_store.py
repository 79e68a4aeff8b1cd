"""The store: migrations applied in order and recorded, one transaction each, WAL and foreign keys."""

from __future__ import annotations

from tests.bot.store.climbing import climbed

import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.core.storage.migrations import MIGRATIONS_DIR, MigrationError, migration_files
from bot.core.storage.store import Store, iso

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "a.sqlite3")
    try:
        assert await store.schema_version() == len(migration_files())
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    conn = sqlite3.connect(tmp_path / "a.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"clubs", "members", "identities", "seasons", "rounds", "signoffs", "games", "announcements"} <= tables


async def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    store = await Store.open(path)
    club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    await store.close()
    store = await Store.open(path)
    try:
        again = await store.club_by_external("console", "x")
        assert again == club
    finally:
        await store.close()


async def test_failing_migration_leaves_old_schema_intact(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    for _, path in migration_files(MIGRATIONS_DIR):
        (migrations / path.name).write_text(path.read_text())
    count = len(migration_files(MIGRATIONS_DIR))
    highest = max(n for n, _ in migration_files(MIGRATIONS_DIR))
    bad = migrations / f"{highest + 1:04d}_broken.sql"
    bad.write_text("ALTER TABLE clubs ADD COLUMN motto TEXT;\nCREATE TABLE oops (x INTEGER);\nTHIS IS NOT SQL;\n")
    path = tmp_path / "b.sqlite3"
    store = await Store.open(path)
    await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
    await store.close()
    with pytest.raises(MigrationError, match="broken"):
        await Store.open(path, migrations)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == count
    columns = [r[1] for r in conn.execute("PRAGMA table_info(clubs)")]
    assert "motto" not in columns
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'oops'").fetchone() is None
    assert conn.execute("SELECT COUNT(*) FROM clubs").fetchone()[0] == 1


async def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        with pytest.raises(sqlite3.IntegrityError):
            await store.link_identity(club_id=999, user_id="u", member_id=999)
    finally:
        await store.close()


async def test_transaction_rolls_back_everything_on_error(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "d.sqlite3")
    try:
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        with pytest.raises(RuntimeError):
            async with store.transaction():
                await store.add_member(club.id, "Anna", 1800, NOW)
                raise RuntimeError("boom")
        assert await store.members(club.id) == []
    finally:
        await store.close()


def test_migration_numbers_must_be_unique(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0001_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError):
        migration_files(tmp_path)
    (tmp_path / "0001_b.sql").unlink()
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    assert [n for n, _ in migration_files(tmp_path)] == [1, 3]


async def test_a_migration_that_lands_later_with_a_lower_number_is_still_applied(tmp_path: Path) -> None:
    """Two branches add 0003 and 0004; 0004 lands first. 0003, landing later, is applied all the same."""
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    for _, path in migration_files(MIGRATIONS_DIR):
        (migrations / path.name).write_text(path.read_text())
    (migrations / "0904_later.sql").write_text("CREATE TABLE later (x INTEGER);")
    db = tmp_path / "x.sqlite3"
    store = await Store.open(db, migrations)
    await store.close()
    (migrations / "0903_earlier.sql").write_text("CREATE TABLE earlier (x INTEGER);")
    store = await Store.open(db, migrations)
    try:
        assert {"0903_earlier.sql", "0904_later.sql"} <= set(await store.applied_migrations())
    finally:
        await store.close()
    tables = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"earlier", "later"} <= tables


async def test_a_database_from_before_the_record_is_recognised(tmp_path: Path) -> None:
    """A database whose migrations were only counted in user_version gets them recorded, not re-run."""
    db = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(db)
    conn.executescript(migration_files(MIGRATIONS_DIR)[0][1].read_text() + "\nPRAGMA user_version = 1;")
    conn.close()
    store = await Store.open(db)
    try:
        assert len(await store.applied_migrations()) == len(migration_files(MIGRATIONS_DIR))
    finally:
        await store.close()


def test_stored_moments_are_utc_text() -> None:
    from zoneinfo import ZoneInfo

    local = datetime(2026, 12, 3, 17, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))
    assert iso(local) == "2026-12-03T16:00:00+00:00"
    with pytest.raises(ValueError):
        iso(datetime(2026, 12, 3, 17, 0))


async def test_every_earlier_schema_level_migrates_forward_keeping_its_data(tmp_path: Path) -> None:
    """A database left at each earlier migration level is brought up to date with its rows intact.

    One database climbs level by level: at each level a club of its own and a member as that level's
    schema holds one are added, and every earlier level's rows must have come through each migration
    since; at the top every level's club is read as a bot reads it."""
    files = migration_files(MIGRATIONS_DIR)
    partial = tmp_path / "migrations"  # the first ``level`` migrations
    partial.mkdir()
    db = tmp_path / "climbing.sqlite3"
    clubs: list[int] = []
    for level in range(1, len(files)):
        (partial / files[level - 1][1].name).write_text(files[level - 1][1].read_text())
        store = await Store.open(db, partial)
        try:
            await climbed(store, level, clubs, NOW)
        finally:
            await store.close()
    store = await Store.open(db)
    try:
        assert await store.schema_version() == len(files)
        for club_id in clubs:  # each level's rows, brought from its level to the top
            assert [m.name for m in await store.members(club_id)] == ["Ánna"]
            assert (await store.member_by_name(club_id, "anna")) is not None  # its name keyed on opening
        assert len(clubs) == len(files) - 1
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def _fifty_clubs_then_look(path: Path, every: float, seconds: float) -> bool:
    """Write 50 clubs in 50 commits; whether the last one reaches the database file itself (checkpointed),
    not only its write-ahead log, within ``seconds`` (looked at every 20 ms)."""
    import asyncio

    store = await Store.open(path, checkpoint_every=every)
    try:
        for i in range(50):
            async with store.transaction():
                await store.get_or_create_club("console", f"club-{i}", f"Checkpoint club {i:02d}", "nl", "Europe/Amsterdam", NOW)
        end = asyncio.get_running_loop().time() + seconds
        while b"Checkpoint club 49" not in path.read_bytes():
            if asyncio.get_running_loop().time() > end:
                return False
            await asyncio.sleep(0.02)
        return True
    finally:
        await store.close()


async def test_the_log_is_checkpointed_by_its_own_thread_not_by_a_commit(tmp_path: Path) -> None:
    """Commits no longer copy the write-ahead log back into the database file (the automatic checkpoint
    waits for a much larger log); the checkpointer thread does, within its interval, and stops on close."""
    import threading

    from bot.core.storage.checkpoints import SAFETY_NET_PAGES

    assert not await _fifty_clubs_then_look(tmp_path / "slow.sqlite3", every=60.0, seconds=0.5)  # no commit checkpointed
    assert await _fifty_clubs_then_look(tmp_path / "fast.sqlite3", every=0.05, seconds=30.0)  # the thread did, however busy the machine
    store = await Store.open(tmp_path / "fast.sqlite3")
    try:
        assert (await store.fetch_one("PRAGMA wal_autocheckpoint"))[0] == SAFETY_NET_PAGES
    finally:
        await store.close()
    assert not any(t.name.startswith("wal-checkpoints") for t in threading.enumerate())
