"""The migrations runner for PostgreSQL: ``migrations/postgresql/NNNN_name.sql``, one for each file of
``migrations/`` with the same name (the same change in PostgreSQL's words), applied in order.

As with SQLite (``bot/core/storage/migrations.py``) each file runs in one transaction with its record in
``schema_migrations`` (PostgreSQL's DDL is transactional: a failing migration leaves the schema as it
was), and what has been applied is recorded by name. Processes starting together take turns on an
advisory lock, so a migration is applied once.
"""

from __future__ import annotations

from pathlib import Path

import asyncpg

from bot.core.storage.migrations import MIGRATIONS_DIR, MigrationError, migration_files

_MIGRATING = 0x636C7562626F74  # the advisory lock all processes migrate under ("clubbot")


def postgres_directory(directory: Path = MIGRATIONS_DIR) -> Path:
    return directory / "postgresql"


def postgres_files(directory: Path = MIGRATIONS_DIR, only: set[str] | None = None) -> list[tuple[int, Path]]:
    """PostgreSQL's migration files, each beside SQLite's of the same name (a file missing on one side
    is an error: the two schemas would part)."""
    sqlite_names = [path.name for _, path in migration_files(directory)]
    found = migration_files(postgres_directory(directory))
    names = [path.name for _, path in found]
    if names != sqlite_names:
        missing = sorted(set(sqlite_names) ^ set(names))
        raise MigrationError(f"migrations/ and migrations/postgresql/ differ: {missing}")
    return [(n, path) for n, path in found if only is None or path.name in only]


async def applied_migrations(conn: asyncpg.Connection) -> list[str]:
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return []
    return [str(r[0]) for r in await conn.fetch("SELECT name FROM schema_migrations ORDER BY name")]


async def migrate(conn: asyncpg.Connection, directory: Path = MIGRATIONS_DIR, only: set[str] | None = None) -> int:
    """Apply every migration not yet recorded, in file order, each in its own transaction."""
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATING)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        applied = set(await applied_migrations(conn))
        for _, path in postgres_files(directory, only):
            if path.name in applied:
                continue
            try:
                async with conn.transaction():
                    await conn.execute(path.read_text(encoding="utf-8"))
                    await conn.execute(
                        "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, to_char(now() AT TIME ZONE 'UTC',"
                        " 'YYYY-MM-DD HH24:MI:SS'))",
                        path.name,
                    )
            except asyncpg.PostgresError as exc:
                raise MigrationError(f"migration {path.name} failed: {exc}") from exc
            applied.add(path.name)
        return len(applied)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATING)
