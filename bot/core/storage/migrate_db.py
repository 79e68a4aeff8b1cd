"""``clubbot migrate-db --from sqlite:///data/clubbot.sqlite3 --to postgresql://...`` (and back): every
club's data copied from one database to the other, then checked.

Both databases are migrated to the newest schema first (the same level on both, so every table and column
has its counterpart). The target must be empty (no clubs): a copy never merges into a live database.
Tables are copied parents first (by their foreign keys), each row with its own ids, all in one
transaction of the target: a copy that fails leaves the target as empty as it was. Then:

- every table holds as many rows in the target as in the source, and the same rows (compared as sorted
  digests of each table's content), so nothing was lost or changed on the way;
- the target's own integrity check passes (SQLite: ``PRAGMA integrity_check`` and the foreign keys;
  PostgreSQL enforced them while the rows went in);
- a source with members whose names differ only in case or accents (a SQLite file from before names were
  compared by ``bot/core/club/name_key.py``) is refused, naming them and the command that merges them;
- PostgreSQL's id sequences continue after the highest id copied; the columns a table's triggers change
  while rows go in (``Table.kept_on_copy``, as its owner declared it: a Keizer season's change version)
  are set back to the source's.

Before anything is written, both databases must be clubbot's (or, the target, empty): a SQLite file
without our ``schema_migrations``, at a level this clubbot does not know, or of another schema than our
migrations make at its level is refused, and so is a PostgreSQL database with tables of its own
(``bot/core/storage/schema_check.py``, as ``clubbot restore`` asks of a backup). Every source row must be one
the bot can read (``bot/core/storage/row_checks.py``: column types, dates, JSON, the rules the tables' owners
declared: one active season per club and kind); else the copy is rolled back and the target stays as it
was. The tables' declarations (``Registry.tables``) come from the caller: ``bot/cli.py`` builds them.

Stop the bot first: a SQLite source that a bot has open is refused (its lock file), since changes made
during the copy would not be in it.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sys
from pathlib import Path
from typing import Any, Mapping

from bot.core.commands.command_line import quote_word
from bot.core.storage.database_lock import DatabaseInUse, DatabaseLock
from bot.core.storage.row_checks import expected_columns, row_problems, summary
from bot.core.storage.schema_check import sqlite_file_problem
from bot.core.storage.migrations import MIGRATIONS_DIR
from bot.core.storage.store import is_postgres, open_store, sqlite_path
from bot.core.storage.table_rules import Table

BATCH = 5000


class CopyError(Exception):
    """The copy was refused or did not check out; the message says why (the target is left unchanged)."""


async def copy_database(source: str, target: str, tables: Mapping[str, Table]) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; the rows copied per table. ``tables``: each
    table as its owner declared it (``Registry.tables``)."""
    if source == target:
        raise CopyError("the source and the target are the same database")
    if not is_postgres(source):
        path = Path(sqlite_path(source))
        if not path.exists():
            raise CopyError(f"there is no database at {path}{_relative_hint(source)}")
        try:
            DatabaseLock(path, exclusive=True).release()  # no bot has it open (else stop it first)
        except DatabaseInUse as exc:
            raise CopyError(str(exc)) from None
    if not is_postgres(target) and not Path(sqlite_path(target)).parent.is_dir():  # never made quietly
        raise CopyError(f"--to: the directory {Path(sqlite_path(target)).parent} does not exist{_relative_hint(target)}; "
                        "nothing was written")  # fmt: skip
    for which, url in (("--from", source), ("--to", target)):
        problem = await _foreign(url)
        if problem:
            raise CopyError(f"{which}: {problem}; nothing was written")
    src = await open_store(source)
    try:
        dst = await open_store(target)
        try:
            return await _copy(src, dst, tables)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Any, dst: Any, declared_tables: Mapping[str, Table]) -> dict[str, int]:
    if await src.applied_migrations() != await dst.applied_migrations():
        raise CopyError("the two databases are at different schema levels")
    if (await dst.fetch_one("SELECT COUNT(*) FROM clubs"))[0]:
        raise CopyError("the target already holds clubs: copy only into an empty database")
    alike = await src.alike_names()
    if alike:
        raise CopyError(
            "these members' names differ only in case or accents, which makes them one name: merge each group"
            " first (or rename one), then copy again:\n"
            + "\n".join(f"  {club}: " + ", ".join(f'"{n}"' for n in names) + f" -> /speler {quote_word(names[1])} samenvoegen"
                        f" {quote_word(names[0])}" for club, names in alike)
        )
    tables = _parents_first(await src.tables(), await src.foreign_keys())
    copied: dict[str, tuple[int, str]] = {}  # per table: the rows read from the source, and their digest
    declared = expected_columns()
    async with dst.transaction():  # a problem found on the way rolls back what was copied
        if "installation" in tables:  # the database moves, its installation id with it (calendar UIDs)
            await dst.write("DELETE FROM installation")
        for table in tables:
            rows = await src.fetch_all(f'SELECT * FROM "{table}"')
            problems = row_problems({table: declared.get(table, {})}, lambda _: rows, declared_tables)
            if problems:
                raise CopyError("rows the bot cannot read in the source: " + summary(problems) + "; the target is unchanged")
            copied[table] = (len(rows), _digest(rows))
            if not rows:
                continue
            columns = list(rows[0].keys())
            names = ", ".join(f'"{c}"' for c in columns)
            marks = ", ".join("?" * len(columns))
            sql = f'INSERT INTO "{table}" ({names}) VALUES ({marks})'
            for start in range(0, len(rows), BATCH):
                await dst.execute_many(sql, [tuple(r) for r in rows[start : start + BATCH]])
        for table in tables:  # what the triggers changed while the rows went in, as it was
            kept = declared_tables[table].kept_on_copy if table in declared_tables else ()
            if not kept:
                continue
            kept_columns = ", ".join(f'"{c}"' for c in kept)
            assignments = ", ".join(f'"{c}" = ?' for c in kept)
            for row in await src.fetch_all(f'SELECT id, {kept_columns} FROM "{table}"'):
                await dst.write(f'UPDATE "{table}" SET {assignments} WHERE id = ?', (*(row[c] for c in kept), row["id"]))
    await dst.continue_ids()
    await _check(dst, copied)
    return {table: count for table, (count, _) in copied.items()}


async def _check(dst: Any, copied: dict[str, tuple[int, str]]) -> None:
    """The target against what was read from the source: each table's count and content."""
    for table, (count, digest) in copied.items():
        rows = await dst.fetch_all(f'SELECT * FROM "{table}"')
        if len(rows) != count:
            raise CopyError(f"{table}: {count} rows in the source, {len(rows)} in the target")
        if _digest(rows) != digest:
            raise CopyError(f"{table}: the rows in the target differ from the source's")
    verdict = await dst.integrity_check()
    if verdict != "ok":
        raise CopyError(f"the target's integrity check says: {verdict}")


def _relative_hint(url: str) -> str:
    """``sqlite:///srv/x.sqlite3`` is the relative path ``srv/x.sqlite3``, as SQLAlchemy reads it too."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        return f" (sqlite:/// with three slashes is relative to {Path.cwd()}; an absolute path takes four: sqlite:////{url[10:]})"
    return ""


async def _foreign(url: str) -> str | None:
    """Why the database at ``url`` is not clubbot's (nor empty), read without writing; None if it is."""
    if not is_postgres(url):
        return sqlite_file_problem(Path(sqlite_path(url)))
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        )
        found: dict[str, set[str]] = {}
        for r in rows:
            found.setdefault(str(r[0]), set()).add(str(r[1]))
        if not found:
            return None
        if "schema_migrations" not in found:
            return "it has tables but no schema_migrations: not a clubbot database"
        migrations = {str(r[0]) for r in await conn.fetch("SELECT name FROM schema_migrations")}
    finally:
        await conn.close()
    known = {p.name for p in (MIGRATIONS_DIR / "postgresql").glob("*.sql")}
    if migrations - known:
        return f"made by a newer clubbot (migration {sorted(migrations - known)[0]} is unknown here)"
    expected = {t: set(c) for t, c in expected_columns(migrations).items()}
    expected["schema_migrations"] = found["schema_migrations"]
    differs = sorted(t for t in found.keys() | expected.keys() if found.get(t) != expected.get(t))
    if differs:
        return f"its schema is not what the migrations make (tables {', '.join(differs[:5])} differ)"
    return None


def _digest(rows: list[Any]) -> str:
    """A table's content, whatever the database: each row's values by column name, sorted."""
    lines = sorted(repr(sorted((k, _plain(v)) for k, v in dict(r).items())) for r in rows)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _plain(value: Any) -> Any:
    return bytes(value) if isinstance(value, (bytes, bytearray, memoryview)) else value


def _parents_first(tables: list[str], keys: list[tuple[str, str, str]]) -> list[str]:
    """The tables in an order where every table comes after the tables it refers to."""
    wanted = [t for t in tables if t != "schema_migrations"]
    parents = {t: {target for table, _, target in keys if table == t and target != t} for t in wanted}
    ordered: list[str] = []
    while len(ordered) < len(wanted):
        ready = [t for t in sorted(wanted) if t not in ordered and parents[t] <= set(ordered)]
        if not ready:
            raise CopyError(f"the foreign keys between {sorted(set(wanted) - set(ordered))} go round in a circle")
        ordered += ready
    return ordered


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "migrate-db",
        help="copy every club's data to another database (SQLite file <-> PostgreSQL) and check it",
        description="Copies every row from --from into the empty database --to (both migrated to the newest "
        "schema first), in one transaction, then checks counts, contents and integrity. Stop the bot first.",
    )
    p.add_argument("--from", dest="source", required=True, metavar="URL", help="sqlite:///path/to/file.sqlite3 or postgresql://...")
    p.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql://... or sqlite:///path/to/new.sqlite3")
    p.set_defaults(handler=cmd_migrate_db)


def cmd_migrate_db(args: argparse.Namespace) -> int:
    try:
        copied = asyncio.run(copy_database(args.source, args.target, args.tables))
    except CopyError as exc:
        print(f"clubbot migrate-db: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a database that cannot be reached, a row the target refuses
        print(f"clubbot migrate-db: the copy failed and the target is unchanged: {exc}", file=sys.stderr)
        return 1
    total = sum(copied.values())
    print(f"copied {total} rows in {len(copied)} tables ({copied.get('clubs', 0)} clubs); counts, contents and integrity checked")
    return 0
