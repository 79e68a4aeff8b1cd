"""One schema (issue 42): SQLite's migrations (``migrations/*.sql``) and PostgreSQL's
(``migrations/postgresql/*.sql``) are written twice, by hand, so this test holds them together. One SQLite
database and one PostgreSQL database are migrated forward side by side, one migration at a time (the way
a bot that misses several releases catches up), and after every migration the two schemas, read back from
the databases themselves (``schema_shape.py``), are compared table by table: the columns (name, type
family, NOT NULL, place in the primary key, an id the database gives, default), the indexes (columns,
unique, partial predicate, name) and the foreign keys (columns, target, ON DELETE, ON UPDATE).

Levels: ``bot/core/storage/pg_migrations.py`` refuses a folder where a file lacks its twin of the same name in the
other dialect, so the two sets correspond one to one, and level n is the first n files in name order on
both sides (numbers may have gaps; they are the same gaps on both sides).

What differs on purpose is in ``DELIBERATE``, each entry with why, and must still be true of the last
level (an entry nothing needs any more fails). What differed by accident and was mended by a later
migration is in ``MENDED``: allowed before that migration, refused from it on (landed migrations are
never edited, so the levels before it keep the difference).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot.core.storage import migrations as sqlite_migrations
from bot.core.storage import pg_migrations
from bot.core.storage.migrations import MIGRATIONS_DIR, migration_files
from bot.core.storage.pg_migrations import postgres_directory
from tests.bot.store.schema_shape import (
    WHOLE_TABLE, Column, Index, Part, Table, differences, postgres_shape, sqlite_shape,
)  # fmt: skip


@dataclass(frozen=True)
class Known:
    """A difference known and allowed: what SQLite's schema holds in ``table`` where PostgreSQL's holds
    ``postgresql`` (None: nothing in its place)."""

    table: str
    sqlite: Part | None
    postgresql: Part | None
    why: str
    until: str | None = None  # the migration that mended it: allowed only at the levels before


DELIBERATE = (
    Known("schema_migrations",
          Column("name", "text", False, 1, False, None), Column("name", "text", True, 1, False, None),
          "the runners' own record, made by the same CREATE TABLE IF NOT EXISTS in bot/core/storage/migrations.py and"
          " pg_migrations.py before any migration: SQLite's PRIMARY KEY on a TEXT column lets a NULL in,"
          " PostgreSQL's does not; the runner always writes the file's name"),
    Known("installation",
          Column("one", "integer", True, 1, True, None), Column("one", "integer", True, 1, False, None),
          "SQLite's INTEGER PRIMARY KEY is always the rowid, which gives an id when none is given; the one row"
          " is written with one = 1 (0050) and CHECK (one = 1) allows no other"),
    Known("members",
          Index(("club_id", "name nocase"), True, None, None),
          Index(("club_id", "lower name"), True, None, "members_club_name"),
          "SQLite's UNIQUE (club_id, name COLLATE NOCASE) in PostgreSQL's words (postgresql/0001_initial.sql);"
          " the store compares names by members.name_key (0041) on both"),
    Known("announcements",
          Index(("sent_at",), False, "sent_at is null", "announcements_pending"),
          Index(("id",), False, "sent_at is null", "announcements_pending"),
          "the outbox's pending rows, read in id order: each entry of a SQLite index carries its rowid (the"
          " id), so SQLite's index on sent_at is in id order already; PostgreSQL's needs id as its column"),
)  # fmt: skip

_MENDED_BY = "0071_one_schema.sql"
MENDED = (
    *(Known(table, None, Index((column,), False, None, name),
            "made beside PostgreSQL's tables in postgresql/0001_initial.sql, missing in SQLite's", _MENDED_BY)
      for table, column, name in (("identities", "member_id", "identities_member"),
                                  ("announcements", "club_id", "announcements_club"),
                                  ("members", "club_id", "members_club"),
                                  ("seasons", "club_id", "seasons_club"),
                                  ("rounds", "season_id", "rounds_season"))),
    Known("web_links",
          Column("token_hash", "text", False, 1, False, None), Column("token_hash", "text", True, 1, False, None),
          "SQLite's PRIMARY KEY on a TEXT column lets a NULL in (0030); 0071 makes the table again with NOT NULL",
          _MENDED_BY),
)  # fmt: skip


def unexplained(only_sqlite: set, only_pg: set, level: int, names: list[str]) -> tuple[list[str], set[Known]]:
    """The differences no entry of DELIBERATE or MENDED allows at ``level`` (a line each), and the entries
    that allowed some."""
    used = set()
    for known in (*DELIBERATE, *MENDED):
        assert known.until is None or known.until in names, f"{known.until} is not a migration"
        if known.until is not None and level >= names.index(known.until):
            continue  # mended: from that migration on the difference is an error again
        lite, pg = (known.table, known.sqlite), (known.table, known.postgresql)
        if (known.sqlite is None or lite in only_sqlite) and (known.postgresql is None or pg in only_pg):
            only_sqlite.discard(lite)
            only_pg.discard(pg)
            used.add(known)
    lines = [f"{table}: only SQLite has {part}" for table, part in only_sqlite]
    lines += [f"{table}: only PostgreSQL has {part}" for table, part in only_pg]
    return sorted(lines), used


async def _compare_every_level(directory: Path, sqlite_path: Path, url: str) -> tuple[list[str], list[set[Known]]]:
    """Both databases migrated forward one file at a time from ``directory``; after each file what no
    entry explains (prefixed with the file) and the entries used, level by level."""
    names = [path.name for _, path in migration_files(directory)]
    lite = sqlite3.connect(sqlite_path)
    pg = await asyncpg.connect(url)
    problems: list[str] = []
    used: list[set[Known]] = []
    try:
        for level, name in enumerate(names):
            applied = set(names[: level + 1])
            assert sqlite_migrations.migrate(lite, directory, only=applied) == level + 1
            assert await pg_migrations.migrate(pg, directory, only=applied) == level + 1
            only_sqlite, only_pg = differences(sqlite_shape(lite), await postgres_shape(pg))
            lines, known = unexplained(only_sqlite, only_pg, level, names)
            problems += [f"after {name}: {line}" for line in lines]
            used.append(known)
    finally:
        lite.close()
        await pg.close()
    return problems, used


async def test_sqlite_and_postgresql_have_one_schema_after_every_migration(postgres_server, tmp_path: Path) -> None:
    url = postgres_server.create_database(f"one_schema_{tmp_path.name[-12:].lower()}")
    problems, used = await _compare_every_level(MIGRATIONS_DIR, tmp_path / "one.sqlite3", url)
    assert not problems, "the two schemas part (mend it with a new migration, or explain it in DELIBERATE):\n" + (
        "\n".join(problems))
    assert len(used) == len(migration_files()) > 30
    stale = [k for k in DELIBERATE if k not in used[-1]] + [k for k in MENDED if not any(k in u for u in used)]
    assert not stale, f"entries that no longer describe any difference: {stale}"


async def test_a_column_or_an_index_that_parts_is_found(postgres_server, tmp_path: Path) -> None:
    """The comparison can fail: a scratch migration that gives a column another type on PostgreSQL and
    an index only on SQLite is caught at its level, and only those."""
    folder = tmp_path / "migrations"
    (folder / "postgresql").mkdir(parents=True)
    for _, path in migration_files():
        (folder / path.name).write_text(path.read_text())
        (folder / "postgresql" / path.name).write_text((postgres_directory() / path.name).read_text())
    scratch = f"{max(n for n, _ in migration_files()) + 1:04d}_scratch.sql"
    (folder / scratch).write_text("ALTER TABLE clubs ADD COLUMN motto TEXT;\nCREATE INDEX clubs_motto ON clubs (motto);\n")
    (folder / "postgresql" / scratch).write_text("ALTER TABLE clubs ADD COLUMN motto INTEGER;\n")
    url = postgres_server.create_database(f"one_schema_scratch_{tmp_path.name[-12:].lower()}")
    problems, _ = await _compare_every_level(folder, tmp_path / "scratch.sqlite3", url)
    assert problems == [
        f"after {scratch}: clubs: only PostgreSQL has {Column('motto', 'integer', False, 0, False, None)}",
        f"after {scratch}: clubs: only SQLite has {Column('motto', 'text', False, 0, False, None)}",
        f"after {scratch}: clubs: only SQLite has {Index(('motto',), False, None, 'clubs_motto')}",
    ]


def test_a_table_on_one_side_only_is_named_once() -> None:
    only_sqlite, only_pg = differences({}, {"oops": Table()})
    assert (only_sqlite, only_pg) == (set(), {("oops", WHOLE_TABLE)})


def test_sqlite_keeps_the_personal_links_when_0071_makes_their_table_again(tmp_path: Path) -> None:
    """0071 rebuilds web_links on SQLite (token_hash NOT NULL): the links are kept with their order, the
    cascade from a removed member still works, and a link without a hash is refused from then on."""
    conn = sqlite3.connect(tmp_path / "links.sqlite3", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")  # as the store opens its file
    names = [path.name for _, path in migration_files()]
    sqlite_migrations.migrate(conn, only=set(names[: names.index(_MENDED_BY)]))
    conn.execute("INSERT INTO clubs (id, platform, external_id, name, created_at) VALUES (1, 'console', 'x', 'C', 't')")
    for member in (1, 2):
        conn.execute("INSERT INTO members (id, club_id, name, rating, is_director, created_at)"
                     " VALUES (?, 1, ?, 0, 0, 't')", (member, f"M{member}"))  # fmt: skip
    links = [("h1", 1, 1, "2026-12-01", 1), ("h2", 1, 1, "2026-12-02", 2), ("h3", 2, 1, "2026-12-01", 3)]
    conn.executemany("INSERT INTO web_links (token_hash, member_id, club_id, created_at, seq) VALUES (?, ?, ?, ?, ?)", links)
    conn.execute("INSERT INTO web_links (token_hash, member_id, club_id, created_at) VALUES (NULL, 1, 1, 'x')")
    assert sqlite_migrations.migrate(conn) == len(names)
    assert conn.execute("SELECT * FROM web_links ORDER BY seq").fetchall() == links
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.execute("DELETE FROM members WHERE id = 2")
    assert [r[0] for r in conn.execute("SELECT token_hash FROM web_links ORDER BY seq")] == ["h1", "h2"]
    with pytest.raises(sqlite3.IntegrityError, match="NOT NULL"):
        conn.execute("INSERT INTO web_links (token_hash, member_id, club_id, created_at) VALUES (NULL, 1, 1, 'x')")
    conn.close()
