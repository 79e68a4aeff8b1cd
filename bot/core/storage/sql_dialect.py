"""The store's SQL is written once, in SQLite's words; on PostgreSQL it is rewritten by these few rules.

The systems' stores keep their SQL (``bot/keizer/store.py``, ...). What differs between the two
dialects in that SQL is small and fixed, so it is translated here, once per statement (cached), not
abstracted away:

- ``?`` placeholders become ``$1, $2, ...``;
- ``INSERT OR IGNORE INTO t ...`` becomes ``INSERT INTO t ... ON CONFLICT DO NOTHING``;
- ``a = ? COLLATE NOCASE`` becomes ``lower(a) = lower($n)``, and ``ORDER BY a COLLATE NOCASE`` becomes
  ``ORDER BY lower(a)`` (the PostgreSQL schema has a unique index on ``lower(name)`` where SQLite's
  has ``name COLLATE NOCASE``);
- ``x IS ?`` (a comparison that treats NULL as a value) becomes ``x IS NOT DISTINCT FROM $n``;
- ``rowid`` becomes ``ctid`` (neither is the insertion order after DELETE and VACUUM: order by a real
  column, as ``web_links.seq``);
- an ``INSERT`` into a table with an ``id`` column returns it (``RETURNING id``), which is SQLite's
  ``lastrowid``: what ``write`` returns.

A statement with a ``?`` inside a string literal would be rewritten wrongly: the stores pass every value
as a parameter, and ``tests/bot/store`` runs every store on both databases.
"""

from __future__ import annotations

import functools
import re

_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+\"?(\w+)\"?", re.IGNORECASE)
_EQUALS_NOCASE = re.compile(r"([\w.]+)\s*=\s*\?\s+COLLATE\s+NOCASE", re.IGNORECASE)
_NOCASE = re.compile(r"([\w.]+)\s+COLLATE\s+NOCASE", re.IGNORECASE)
_IS_PARAMETER = re.compile(r"\bIS\s+\?", re.IGNORECASE)
_ROWID = re.compile(r"\browid\b", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def postgres_sql(sql: str, id_tables: frozenset[str] = frozenset()) -> str:
    """``sql`` (SQLite's words) as PostgreSQL says it; ``id_tables``: the tables with an ``id`` column."""
    ignore = bool(_INSERT_OR_IGNORE.match(sql))
    if ignore:
        sql = _INSERT_OR_IGNORE.sub("INSERT INTO", sql, count=1)
    sql = _EQUALS_NOCASE.sub(r"lower(\1) = lower(?)", sql)
    sql = _NOCASE.sub(r"lower(\1)", sql)
    sql = _IS_PARAMETER.sub("IS NOT DISTINCT FROM ?", sql)
    sql = _ROWID.sub("ctid", sql)
    insert = _INSERT_INTO.match(sql)
    if insert is not None and not _RETURNING.search(sql):
        if ignore:
            sql += " ON CONFLICT DO NOTHING"
        if insert.group(1) in id_tables:
            sql += " RETURNING id"
    elif ignore:
        raise ValueError(f"INSERT OR IGNORE with RETURNING is not translated: {sql[:60]!r}")
    return _numbered(sql)


def _numbered(sql: str) -> str:
    parts = sql.split("?")
    if len(parts) == 1:
        return sql
    out = [parts[0]]
    for number, rest in enumerate(parts[1:], start=1):
        out.append(f"${number}{rest}")
    return "".join(out)
