"""What ``clubbot restore`` asks of a backup before it may replace the database.

``checked_copy(backup, into, tables)`` copies the file (and a ``-wal`` lying beside it, folded into the copy: a
backup taken with SQLite's own tools while a process wrote can leave committed pages there) to ``into``
and checks the copy, never the original: what is checked is exactly what is put in place. Names are
paths, never URIs (a ``#`` or ``?`` in a file name is part of the name). The copy must be

- a SQLite database whose ``integrity_check`` is ok and whose foreign keys all point somewhere;
- at a level this clubbot knows: every migration recorded in ``schema_migrations`` is one of ours;
- of exactly the schema the migrations make at that level: a database migrated to the same migrations
  is built beside it and the two are compared (every table, column, index, trigger and view, by its
  SQL). An extra trigger would fire inside the running bot; a missing table or column would fail the
  first command that needs it. Either is refused with what differs;
- of rows the bot can read (``bot/core/storage/row_checks.py``: every column's type, dates, times, JSON, time
  zones, names' lengths, the rules the tables' owners declared: one active season per club and kind);
- and a ``-wal`` beside it must be a WAL SQLite reads: one it would ignore (a wrong header or checksum:
  random bytes, another database's) is refused, not reported as folded in.

On its next start the bot applies the migrations the backup is missing.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Mapping

from bot.core.storage.row_checks import row_problems, sqlite_columns, summary
from bot.core.storage.schema_check import SQLITE_MAGIC, clubbot_problem
from bot.core.storage.table_rules import Table


class BackupError(Exception):
    """A file that is not a usable clubbot backup; the message says why."""


def checked_copy(backup: Path, into: Path, tables: Mapping[str, Table]) -> tuple[int, list[str], bool]:
    """Copy ``backup`` to ``into`` (a path in a private directory), fold a ``-wal`` beside it in, and
    check the copy (its rows by the tables' declarations, ``Registry.tables``). Returns (clubs,
    migrations, whether a WAL was folded in); ``BackupError`` if unusable."""
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
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens the WAL, if SQLite reads it
            _, frames, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()  # the frames SQLite read
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if frames <= 0:  # SQLite ignored it: not a WAL of this database
                raise BackupError(f"{wal} is not a write-ahead log of this database (SQLite would ignore it)")
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
        problem = clubbot_problem(conn, str(backup))
        if problem:
            raise BackupError(problem)
        conn.row_factory = sqlite3.Row
        problems = row_problems(sqlite_columns(conn), lambda table: conn.execute(f'SELECT * FROM "{table}"'), tables)
        if problems:
            raise BackupError("rows the bot cannot read: " + summary(problems))
        clubs = int(conn.execute("SELECT COUNT(*) FROM clubs").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{backup}: {exc}") from exc
    finally:
        conn.close()
    return clubs, migrations, folded
