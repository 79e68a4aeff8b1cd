"""Is a database clubbot's, and of exactly the schema our migrations make at its level? Asked by
``clubbot restore`` of a backup (``bot/backup/checks.py``) and by ``clubbot migrate-db`` of both databases
before it writes anything (a foreign file would otherwise get clubbot's tables written into it, or
receive every club).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Callable, TypeVar

from bot.core.storage.migrations import migrate, migration_files

T = TypeVar("T")

SQLITE_MAGIC = b"SQLite format 3\x00"


class NotClubbot(Exception):
    """A database that is not a clubbot database (of a schema we know); the message says why."""


def sqlite_file_problem(path: Path) -> str | None:
    """Why the SQLite file at ``path`` is not a clubbot database, or None: it is one (or it is missing or
    empty, and becomes one). Read only: the file is not changed."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return None
    if not path.is_file():
        return f"{path} is not a file"
    with open(path, "rb") as fh:
        if fh.read(16) != SQLITE_MAGIC:
            return f"{path} is not a SQLite database"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return clubbot_problem(conn, str(path))
    except sqlite3.DatabaseError as exc:
        return f"{path}: {exc}"
    finally:
        conn.close()


def clubbot_problem(conn: sqlite3.Connection, name: str) -> str | None:
    """Why the database on ``conn`` is not a clubbot database at a level we know, of exactly the schema
    the migrations make at that level; None when it is one."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not names:
        return None  # an empty database: it becomes one
    if "schema_migrations" not in names:
        return f"{name} has no schema_migrations table: not a clubbot database"
    migrations = {str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations")}
    known = {path.name for _, path in migration_files()}
    unknown = sorted(migrations - known)
    if unknown:
        return f"{name} was made by a newer clubbot (migration {unknown[0]} is unknown here)"
    differences = schema_differences(sqlite_schema(conn), expected_schema(migrations))
    if differences:
        return f"the schema of {name} is not what the migrations make: " + "; ".join(differences[:5])
    return None


def migrated_in_memory(migrations: set[str] | None, read: Callable[[sqlite3.Connection], T]) -> T:
    """What ``read`` finds in a database migrated to exactly ``migrations`` (None: all), built in memory."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(conn, only=migrations)
        return read(conn)
    finally:
        conn.close()


def expected_schema(migrations: set[str]) -> dict[tuple[str, str], str]:
    """The schema a database migrated to exactly ``migrations`` has."""
    return migrated_in_memory(migrations, sqlite_schema)


def sqlite_schema(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
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
