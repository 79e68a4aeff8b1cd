"""The shape of a schema, read from the database itself, in a form both dialects share: what
``test_one_schema.py`` compares after every migration.

A shape is ``{table: Table}``. A column is (name, type family, NOT NULL, place in the primary key,
generated id, default); an index is (columns, unique, partial predicate); a foreign key is (columns,
target table, target columns, ON DELETE, ON UPDATE). Names of tables and columns are compared; the
names of the indexes a migration creates are compared too, not those of UNIQUE constraints (SQLite names
them ``sqlite_autoindex_<table>_<n>``, PostgreSQL ``<table>_<columns>_key``). CHECK constraints and
triggers are not compared (PostgreSQL's triggers call functions; what they do is compared by
tests/bot/store/test_same_on_both.py).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field, replace

import asyncpg

# The declared type, as each dialect reports it, to one family: an unknown type fails loudly, so a new
# type is a decision made here.
TYPE_FAMILY = {
    "INTEGER": "integer", "INT": "integer", "BIGINT": "integer", "SMALLINT": "integer",  # SQLite
    "integer": "integer", "bigint": "integer", "smallint": "integer",  # PostgreSQL (SERIAL is integer + a default)
    "TEXT": "text", "VARCHAR": "text",
    "text": "text", "character varying": "text",
    "REAL": "real", "DOUBLE PRECISION": "real", "DOUBLE": "real",
    "real": "real", "double precision": "real",
    "BLOB": "blob", "bytea": "blob",
}  # fmt: skip


@dataclass(frozen=True, order=True)
class Column:
    name: str
    family: str
    not_null: bool
    primary_key: int  # its place in the primary key, 1-based; 0 when not in it
    generated_id: bool  # the database gives the next id (SQLite's INTEGER PRIMARY KEY, PostgreSQL's IDENTITY)
    default: str | None


@dataclass(frozen=True, order=True)
class Index:
    columns: tuple[str, ...]  # a column's name, "name nocase" for SQLite's COLLATE NOCASE, or an expression
    unique: bool
    where: str | None
    name: str | None  # a CREATE INDEX's name; None for a UNIQUE constraint's (each dialect names those its way)


@dataclass(frozen=True, order=True)
class ForeignKey:
    columns: tuple[str, ...]
    target: str
    target_columns: tuple[str, ...]
    on_delete: str
    on_update: str


@dataclass
class Table:
    columns: dict[str, Column] = field(default_factory=dict)
    indexes: set[Index] = field(default_factory=set)
    foreign_keys: set[ForeignKey] = field(default_factory=set)


def family(declared: str) -> str:
    base = re.sub(r"\s*\(.*\)$", "", declared.strip())  # VARCHAR(20) -> VARCHAR
    if base not in TYPE_FAMILY:
        raise AssertionError(f"column type {declared!r} has no family in TYPE_FAMILY: add it there")
    return TYPE_FAMILY[base]


def sql_text(text: str | None) -> str | None:
    """An expression (a default, an index's predicate) as both dialects would write it: PostgreSQL's
    casts to text and the parentheses it adds dropped, spacing and case of keywords aside."""
    if text is None:
        return None
    text = re.sub(r"::(text|integer|bigint|character varying)\b", "", text)
    text = text.replace("(", " ").replace(")", " ").replace('"', "")
    words = re.findall(r"'(?:[^']|'')*'|[^\s']+", text)
    return " ".join(w if w.startswith("'") else w.lower() for w in words)


# ---------------------------------------------------------------------------------------------- SQLite
def sqlite_shape(conn: sqlite3.Connection) -> dict[str, Table]:
    names = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]  # fmt: skip
    shape = {name: Table() for name in names}
    for name, table in shape.items():
        info = conn.execute(f'PRAGMA table_info("{name}")').fetchall()
        key = [r for r in info if r[5]]
        for _, column, declared, not_null, default, pk in info:
            rowid = len(key) == 1 and pk == 1 and declared.upper() == "INTEGER"  # an alias of the rowid
            table.columns[column] = Column(
                column, family(declared), bool(not_null) or rowid, pk, rowid, sql_text(default))
        for _, index, unique, origin, partial in conn.execute(f'PRAGMA index_list("{name}")'):
            if origin == "pk":
                continue  # the primary key is compared column by column
            sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (index,)).fetchone()[0]
            parts = []
            for _, cid, column, _, collation, is_key in conn.execute(f'PRAGMA index_xinfo("{index}")'):
                if not is_key:
                    continue
                if cid == -2:  # an expression: as written in the CREATE INDEX
                    parts.append(str(sql_text(_index_terms(sql)[len(parts)])))
                else:
                    parts.append(column + (" nocase" if collation == "NOCASE" else ""))
            where = None
            if partial:
                where = sql_text(re.split(r"\bWHERE\b", sql, maxsplit=1, flags=re.IGNORECASE)[1])
            table.indexes.add(Index(tuple(parts), bool(unique), where, index if origin == "c" else None))
        keys: dict[int, list[tuple]] = {}
        for row in conn.execute(f'PRAGMA foreign_key_list("{name}")'):
            keys.setdefault(row[0], []).append(row)
        for rows in keys.values():
            rows.sort(key=lambda r: r[1])
            target = rows[0][2]
            to = [r[4] for r in rows]
            if any(t is None for t in to):  # REFERENCES t: t's primary key
                target_info = conn.execute(f'PRAGMA table_info("{target}")').fetchall()
                to = [r[1] for r in sorted((r for r in target_info if r[5]), key=lambda r: r[5])]
            table.foreign_keys.add(ForeignKey(
                tuple(r[3] for r in rows), target, tuple(to), rows[0][6].upper(), rows[0][5].upper()))
        for key in table.foreign_keys:  # a key that is another row's id (go_settings.club_id) is given, not made
            column = table.columns[key.columns[0]]
            if len(key.columns) == 1 and column.generated_id:
                table.columns[column.name] = replace(column, generated_id=False)
    return shape


def _index_terms(sql: str) -> list[str]:
    """The terms of ``CREATE INDEX name ON table (a, lower(b)) ...``: ``["a", "lower(b)"]``."""
    start = sql.index("(")
    terms, depth, term = [], 0, ""
    for char in sql[start + 1 :]:
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            terms.append(term.strip())
            term = ""
        else:
            term += char
    return [*terms, term.strip()]


# ------------------------------------------------------------------------------------------ PostgreSQL
_ACTIONS = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}


async def postgres_shape(conn: asyncpg.Connection) -> dict[str, Table]:
    names = [r[0] for r in await conn.fetch(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        " AND table_type = 'BASE TABLE' ORDER BY table_name")]  # fmt: skip
    shape = {name: Table() for name in names}
    primary: dict[tuple[str, str], int] = {}
    for r in await conn.fetch(
        "SELECT c.relname, a.attname, array_position(k.conkey, a.attnum) AS place"
        " FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid"
        " JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)"
        " WHERE k.contype = 'p' AND c.relnamespace = current_schema()::regnamespace"
    ):
        primary[(r[0], r[1])] = int(r[2])
    for r in await conn.fetch(
        "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity"
        " FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    ):
        if r[0] not in shape:
            continue
        default = r[4]
        generated = r[5] == "YES" or (default or "").startswith("nextval(")
        shape[r[0]].columns[r[1]] = Column(
            r[1], family(r[2]), r[3] == "NO", primary.get((r[0], r[1]), 0), generated,
            None if generated else sql_text(default))  # fmt: skip
    for r in await conn.fetch(
        "SELECT t.relname, i.indisunique, pg_get_expr(i.indpred, i.indrelid),"
        " ARRAY(SELECT pg_get_indexdef(i.indexrelid, n, true) FROM generate_series(1, i.indnkeyatts) AS n),"
        " x.relname, EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = i.indexrelid)"
        " FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class x ON x.oid = i.indexrelid"
        " WHERE t.relnamespace = current_schema()::regnamespace AND NOT i.indisprimary"
    ):
        if r[0] in shape:
            columns = tuple(str(sql_text(c)) for c in r[3])
            shape[r[0]].indexes.add(Index(columns, bool(r[1]), sql_text(r[2]), None if r[5] else r[4]))
    for r in await conn.fetch(
        "SELECT c.relname, f.relname,"
        " ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY AS x(n, i)"
        "       JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.n ORDER BY x.i),"
        " ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY AS x(n, i)"
        "       JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.n ORDER BY x.i),"
        " k.confdeltype::text, k.confupdtype::text"
        " FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid"
        " WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace"
    ):
        if r[0] in shape:
            shape[r[0]].foreign_keys.add(ForeignKey(
                tuple(r[2]), r[1], tuple(r[3]), _ACTIONS[r[4]], _ACTIONS[r[5]]))
    return shape


# ------------------------------------------------------------------------------------------ comparing
Part = Column | Index | ForeignKey | str  # a column, an index, a foreign key, or "the whole table"
WHOLE_TABLE = "the whole table"


def parts(shape: dict[str, Table]) -> set[tuple[str, Part]]:
    """Everything a schema holds as (table, part): two schemas are one when these sets are equal."""
    found: set[tuple[str, Part]] = set()
    for name, table in shape.items():
        found.add((name, WHOLE_TABLE))
        found.update((name, part) for part in (*table.columns.values(), *table.indexes, *table.foreign_keys))
    return found


def differences(sqlite: dict[str, Table], postgresql: dict[str, Table]) -> tuple[set, set]:
    """What only SQLite's schema holds and what only PostgreSQL's does, as (table, part); of a table
    only one side has, just the table."""
    lite, pg = parts(sqlite), parts(postgresql)
    only_lite = {(t, p) for t, p in lite - pg if t in postgresql}
    only_pg = {(t, p) for t, p in pg - lite if t in sqlite}
    only_lite |= {(t, WHOLE_TABLE) for t in sqlite.keys() - postgresql.keys()}
    only_pg |= {(t, WHOLE_TABLE) for t in postgresql.keys() - sqlite.keys()}
    return only_lite, only_pg
