"""Backups of the club database: SQLite's online backup API, and the checks a restore needs.

``StoreBackup(store).club_snapshot(club_id)`` copies the live database with ``sqlite3``'s online backup
on a second connection (one step, so the copy is one consistent snapshot even while the bot keeps
writing), then removes from the copy every row that does not belong to the club, found by following
the foreign keys up to ``clubs``. A director's backup therefore never holds another club's data; on a
bot that serves one club (the console) it is the whole database.

What ``clubbot restore`` asks of a file before it replaces the database is in ``bot/backup/checks.py``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.core.storage.store import Store


class BackupError(Exception):
    """A file that is not a usable clubbot backup; the message says why."""


class StoreBackup:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def database_path(self) -> Path:
        row = await self.store.fetch_one("PRAGMA database_list")
        if row is None or not row["file"]:
            raise BackupError("the database is not a file")
        return Path(row["file"])

    async def club_snapshot(self, club_id: int, left_out: Sequence[str] = ()) -> bytes:
        """A consistent copy of the database holding only ``club_id``'s rows, as the bytes of a SQLite file;
        the tables ``left_out`` (declared ``in_backup=False``) empty."""
        source = await self.database_path()
        return await asyncio.to_thread(_club_snapshot, source, club_id, left_out)


def _club_snapshot(source: Path, club_id: int, left_out: Sequence[str] = ()) -> bytes:
    with tempfile.TemporaryDirectory(prefix="clubbot-backup-") as tmp:
        target = Path(tmp) / "backup.sqlite3"
        online_backup(source, target)
        conn = sqlite3.connect(target, isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute("BEGIN")
            keep = owned_rowids(conn, club_id)
            for table in _tables(conn):
                if table == "schema_migrations" or not (table == "clubs" or _foreign_keys(conn, table)):
                    continue
                ids = keep.get(table, set())
                conn.execute("CREATE TEMP TABLE IF NOT EXISTS keep_ids (rid INTEGER PRIMARY KEY)")
                conn.execute("DELETE FROM keep_ids")
                conn.executemany("INSERT INTO keep_ids (rid) VALUES (?)", ((i,) for i in ids))
                conn.execute(f'DELETE FROM "{table}" WHERE rowid NOT IN (SELECT rid FROM keep_ids)')
            for table in set(left_out) & set(_tables(conn)):
                conn.execute(f'DELETE FROM "{table}"')
            conn.execute("DROP TABLE IF EXISTS temp.keep_ids")
            conn.execute("COMMIT")
            if conn.execute("PRAGMA foreign_key_check").fetchall():
                raise BackupError("the club's rows refer to rows outside the club")
            conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute("VACUUM")
        finally:
            conn.close()
        return target.read_bytes()


def online_backup(source: Path, target: Path) -> None:
    """Copy ``source`` (its WAL included) to ``target`` with SQLite's online backup API, in one step: the
    copy is the database as it was at one moment, whatever other connections write meanwhile."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.execute("PRAGMA busy_timeout = 5000")
        src.backup(dst, pages=-1)
    finally:
        dst.close()
        src.close()


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]


def _foreign_keys(conn: sqlite3.Connection, table: str) -> list[tuple[str, str, str]]:
    """(column, parent table, parent column) of each foreign key of ``table``."""
    return [(r[3], r[2], r[4]) for r in conn.execute(f'PRAGMA foreign_key_list("{table}")')]


def owned_rowids(conn: sqlite3.Connection, club_id: int) -> dict[str, set[int]]:
    """The rowids, per table, of the rows that belong to the club: the club's row in ``clubs``, and every
    row with a foreign key to a row that belongs to it (followed until nothing more is found)."""
    tables = _tables(conn)
    owned: dict[str, set[int]] = {"clubs": {r[0] for r in conn.execute("SELECT rowid FROM clubs WHERE id = ?", (club_id,))}}
    changed = True
    while changed:
        changed = False
        for table in tables:
            for column, parent, to in _foreign_keys(conn, table):
                parents = owned.get(parent)
                if not parents:
                    continue
                marks = ",".join("?" * len(parents))
                values = {
                    r[0]
                    for r in conn.execute(f'SELECT "{to}" FROM "{parent}" WHERE rowid IN ({marks})', tuple(parents))
                }
                if not values:
                    continue
                marks = ",".join("?" * len(values))
                found = {
                    r[0]
                    for r in conn.execute(f'SELECT rowid FROM "{table}" WHERE "{column}" IN ({marks})', tuple(values))
                }
                new = found - owned.get(table, set())
                if new:
                    owned.setdefault(table, set()).update(new)
                    changed = True
    return owned
