"""PostgreSQL's migrations (migrations/postgresql/): one for each of SQLite's, applied from every earlier
level with the data kept, each in one transaction (a failing one leaves the schema as it was)."""

from __future__ import annotations

from tests.bot.store.climbing import climbed

from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.core.storage.migrations import MIGRATIONS_DIR, MigrationError, migration_files
from bot.core.storage.pg_migrations import postgres_directory, postgres_files
from bot.core.storage.store import open_store

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _partial(tmp_path: Path, level: int) -> Path:
    """A migrations folder holding the first ``level`` migrations (both dialects)."""
    folder = tmp_path / f"m{level}"
    (folder / "postgresql").mkdir(parents=True)
    for _, path in migration_files(MIGRATIONS_DIR)[:level]:
        (folder / path.name).write_text(path.read_text())
        (folder / "postgresql" / path.name).write_text((postgres_directory() / path.name).read_text())
    return folder


def test_every_migration_has_its_postgresql_twin() -> None:
    assert [p.name for _, p in postgres_files()] == [p.name for _, p in migration_files()]


async def test_every_earlier_schema_level_migrates_forward_keeping_its_data(postgres_server, tmp_path: Path) -> None:
    """One database climbs level by level: at each level a club of its own and a member as that level's
    schema holds one are added, and every earlier level's rows must have come through each migration
    since; at the top every level's club is read as a bot reads it."""
    files = migration_files(MIGRATIONS_DIR)
    partial = tmp_path / "migrations"  # the first ``level`` migrations, both dialects
    (partial / "postgresql").mkdir(parents=True)
    name = f"climbing_{tmp_path.name[-12:].lower()}"
    url = postgres_server.create_database(name)
    clubs: list[int] = []
    try:
        for level in range(1, len(files)):
            path = files[level - 1][1]
            (partial / path.name).write_text(path.read_text())
            (partial / "postgresql" / path.name).write_text((postgres_directory() / path.name).read_text())
            store = await open_store(url, partial)
            try:
                await climbed(store, level, clubs, NOW)
            finally:
                await store.close()
        store = await open_store(url)
        try:
            assert await store.schema_version() == len(files)
            for club_id in clubs:  # each level's rows, brought from its level to the top
                assert [m.name for m in await store.members(club_id)] == ["Ánna"]
                assert (await store.member_by_name(club_id, "anna")) is not None  # its name keyed on opening
                assert (await store.club(club_id)).website == "off"
            assert len(clubs) == len(files) - 1
            assert await store.integrity_check() == "ok"
        finally:
            await store.close()
    finally:
        postgres_server.drop_database(name)


async def test_a_failing_migration_leaves_the_schema_as_it_was(pg_url: str, tmp_path: Path) -> None:
    folder = _partial(tmp_path, len(migration_files()))
    highest = max(n for n, _ in migration_files())
    name = f"{highest + 1:04d}_broken.sql"
    (folder / name).write_text("SELECT 1;")
    (folder / "postgresql" / name).write_text("ALTER TABLE clubs ADD COLUMN motto TEXT;\nCREATE TABLE oops (x INTEGER);\nTHIS IS NOT SQL;\n")
    with pytest.raises(MigrationError, match="broken"):
        await open_store(pg_url, folder)
    store = await open_store(pg_url)
    try:
        assert await store.schema_version() == len(migration_files())
        assert "oops" not in await store.tables()
        columns = [r[0] for r in await store.fetch_all(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'clubs'")]
        assert "motto" not in columns
    finally:
        await store.close()


def test_a_migration_missing_on_one_side_is_refused(tmp_path: Path) -> None:
    folder = _partial(tmp_path, 3)
    (folder / "postgresql" / migration_files(folder)[2][1].name).unlink()
    with pytest.raises(MigrationError, match="differ"):
        postgres_files(folder)
