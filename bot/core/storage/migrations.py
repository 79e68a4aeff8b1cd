"""The migrations runner: ``migrations/NNNN_name.sql`` applied in order at start-up.

Each file runs in one transaction together with its record in ``schema_migrations`` and
``PRAGMA user_version`` (the number applied), so a failing migration leaves the previous schema intact.
The functions take a plain ``sqlite3`` connection; the store runs them on its database thread.
What has been applied is recorded by name: work on two migrations can land in either order. A landed
migration is never edited; a change is a new file.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

MIGRATIONS_DIR = Path(__file__).resolve().parents[3] / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    pass


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """The migration files in order. Numbers must be unique; a gap is allowed (work on two migrations
    can land in either order), since what has been applied is recorded by name."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file name not understood: {path.name}")
        found.append((int(match.group(1)), path))
    numbers = [n for n, _ in found]
    if len(set(numbers)) != len(numbers):
        raise MigrationError(f"two migrations share a number: {numbers}")
    return found


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]


def schema_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection, directory: Path = MIGRATIONS_DIR, only: set[str] | None = None) -> int:
    """Apply every migration not yet recorded in ``schema_migrations``, in file order, each in its own
    transaction together with its record and ``PRAGMA user_version`` (the number applied). ``only``
    limits them to those names (``clubbot restore`` builds the schema a backup's level should have)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    files = [(n, path) for n, path in migration_files(directory) if only is None or path.name in only]
    applied = set(applied_migrations(conn))
    version = schema_version(conn)
    if not applied and version > 0:  # a database from before migrations were recorded by name
        for _, path in files[:version]:
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, 'before-record')", (path.name,)
            )
        applied = {path.name for _, path in files[:version]}
    for _, path in files:
        if path.name in applied:
            continue
        sql = path.read_text(encoding="utf-8")
        version = len(applied) + 1
        record = path.name.replace("'", "''")
        script = (
            f"BEGIN IMMEDIATE;\n{sql}\n"
            f"INSERT INTO schema_migrations (name, applied_at) VALUES ('{record}', datetime('now'));\n"
            f"PRAGMA user_version = {version};\nCOMMIT;"
        )
        try:
            conn.executescript(script)
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise MigrationError(f"migration {path.name} failed: {exc}") from exc
        applied.add(path.name)
    return len(applied)
