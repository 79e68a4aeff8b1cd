"""What ``clubbot restore`` asks of a backup before it may replace the database.

``checked_copy(backup, into)`` copies the file (and a ``-wal`` lying beside it, folded into the copy: a
backup taken with SQLite's own tools while a process wrote can leave committed pages there) to ``into``
and checks the copy, never the original: what is checked is exactly what is put in place. Names are
paths, never URIs (a ``#`` or ``?`` in a file name is part of the name). The copy must be

- a SQLite database whose ``integrity_check`` is ok and whose foreign keys all point somewhere;
- at a level this clubbot knows: every migration recorded in ``schema_migrations`` is one of ours;
- of exactly the schema the migrations make at that level: a database migrated to the same migrations
  is built beside it and the two are compared (every table, column, index, trigger and view, by its
  SQL). An extra trigger would fire inside the running bot; a missing table or column would fail the
  first command that needs it. Either is refused with what differs.

On its next start the bot applies the migrations the backup is missing.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

from bot.core.migrations import migrate, migration_files

SQLITE_MAGIC = b"SQLite format 3\x00"


class BackupError(Exception):
    """A file that is not a usable clubbot backup; the message says why."""


def checked_copy(backup: Path, into: Path) -> tuple[int, list[str], bool]:
    """Copy ``backup`` to ``into`` (a path in a private directory), fold a ``-wal`` beside it in, and
    check the copy. Returns (clubs, migrations, whether a WAL was folded in); ``BackupError`` if unusable."""
    if not backup.is_file():
        raise BackupError(f"{backup} is not a file")
    with open(backup, "rb") as fh:
        if fh.read(16) != SQLITE_MAGIC:
            raise BackupError(f"{backup} is not a SQLite database")
    shutil.copyfile(backup, into)
    wal = backup.with_name(f"{backup.name}-wal")
    folded = wal.is_file() and wal.stat().st_size > 0
    if folded:
        shutil.copyfile(wal, into.with_name(f"{into.name}-wal"))
    try:
        conn = sqlite3.connect(str(into), isolation_level=None)  # a path: uri=False, '#' and '?' are names
    except sqlite3.Error as exc:
        raise BackupError(f"{backup}: {exc}") from exc
    try:
        if folded:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")  # the copy is one file, whatever the backup's mode
        result = conn.execute("PRAGMA integrity_check").fetchall()
        if result != [("ok",)]:
            raise BackupError(f"integrity_check failed: {'; '.join(str(r[0]) for r in result[:5])}")
        if conn.execute("PRAGMA foreign_key_check").fetchall():
            raise BackupError("foreign_key_check found rows that refer to missing rows")
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_migrations" not in names:
            raise BackupError("no schema_migrations table: not a clubbot database")
        migrations = [str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
        known = {path.name for _, path in migration_files()}
        unknown = [name for name in migrations if name not in known]
        if unknown:
            raise BackupError(f"made by a newer clubbot (migration {unknown[0]} is unknown here)")
        differences = schema_differences(_schema(conn), expected_schema(set(migrations)))
        if differences:
            raise BackupError("its schema is not what the migrations make: " + "; ".join(differences[:5]))
        clubs = int(conn.execute("SELECT COUNT(*) FROM clubs").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{backup}: {exc}") from exc
    finally:
        conn.close()
    return clubs, migrations, folded


def expected_schema(migrations: set[str]) -> dict[tuple[str, str], str]:
    """The schema a database migrated to exactly ``migrations`` has (built in memory)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(conn, only=migrations)
        return _schema(conn)
    finally:
        conn.close()


def _schema(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """(type, name) -> SQL with its white space made one, of every object but SQLite's own."""
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {(str(kind), str(name)): re.sub(r"\s+", " ", str(sql or "")).strip() for kind, name, sql in rows}


def schema_differences(found: dict[tuple[str, str], str], expected: dict[tuple[str, str], str]) -> list[str]:
    """What ``found`` has that ``expected`` lacks, lacks that it has, or has otherwise, in words."""
    out = [f"extra {kind} {name}" for kind, name in sorted(found.keys() - expected.keys())]
    out += [f"missing {kind} {name}" for kind, name in sorted(expected.keys() - found.keys())]
    out += [
        f"{kind} {name} differs" for kind, name in sorted(found.keys() & expected.keys())
        if found[(kind, name)] != expected[(kind, name)]
    ]
    return out
