"""The store: migrations applied in order and recorded, one transaction each, WAL and foreign keys."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.store import MIGRATIONS_DIR, MigrationError, Store, iso, migration_files

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
    bad = migrations / f"{count + 1:04d}_broken.sql"
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


def test_migration_names_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError):
        migration_files(tmp_path)


def test_stored_moments_are_utc_text() -> None:
    from zoneinfo import ZoneInfo

    local = datetime(2026, 12, 3, 17, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))
    assert iso(local) == "2026-12-03T16:00:00+00:00"
    with pytest.raises(ValueError):
        iso(datetime(2026, 12, 3, 17, 0))


async def test_every_earlier_schema_level_migrates_forward_keeping_its_data(tmp_path: Path) -> None:
    """A database left at each earlier migration level is brought up to date with its rows intact."""
    files = migration_files(MIGRATIONS_DIR)
    for level in range(1, len(files)):
        partial = tmp_path / f"m{level}"
        partial.mkdir()
        for number, path in files[:level]:
            (partial / path.name).write_text(path.read_text())
        db = tmp_path / f"level{level}.sqlite3"
        store = await Store.open(db, partial)
        club = await store.get_or_create_club("console", "x", "Club", "nl", "Europe/Amsterdam", NOW)
        await store.add_member(club.id, "Anna", 1800, NOW)
        await store.close()
        store = await Store.open(db)
        try:
            assert await store.schema_version() == len(files)
            assert [m.name for m in await store.members(club.id)] == ["Anna"]
            assert await store.integrity_check() == "ok"
        finally:
            await store.close()
