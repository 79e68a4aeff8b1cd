"""Rows the bot can read: what ``clubbot restore`` and ``clubbot migrate-db`` ask of every row of a
database before they accept it (issue 33 §4). A schema that matches is not enough: a deadline that is
not a date or a ``settings_json`` that is not JSON fails most of a club's commands later, two active
seasons of one kind fail every command that looks for "the" season.

``row_problems(columns, rows_of, tables)`` checks every column's value against its declared type (INTEGER
an integer, TEXT text, BLOB bytes) and, by the column's name, what the code parses out of it: ``*_json``
is JSON (``settings_json`` an object), ``*_at`` a date and time, a column its table's owner declared a
date (``Table.dates``) a date, ``*_time`` a time of day, ``timezone`` a known time zone, ``language`` one
of ours, a member's name at most ``MAX_NAME_LENGTH`` characters and other names at most
``OTHER_NAME_LENGTH``. Then the rules the owners declared of their rows (``Table.at_most_one``: the
Keizer system's one active season per club and kind). ``tables`` are the registry's declarations
(``Registry.tables``): the core names no system's table or rule.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date, datetime, time
from typing import Any, Callable, Iterable, Mapping
from zoneinfo import ZoneInfo

from bot.core.commands.context import MAX_NAME_LENGTH
from bot.core.i18n import LANGUAGES
from bot.core.storage.schema_check import migrated_in_memory
from bot.core.storage.table_rules import AtMostOne, Table

OTHER_NAME_LENGTH = 256  # a club's, a season's, a director's name (chat titles are at most 128)
SHOWN = 5  # problems listed in the message

Rows = Iterable[Mapping[str, Any]]


def _is_json(text: str, column: str) -> bool:
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, dict) if column == "settings_json" else True


def _is_zone(text: str) -> bool:
    try:
        ZoneInfo(text)
    except (ValueError, KeyError, OSError):
        return False
    return True


def _parses(parse: Callable[[str], object]) -> Callable[[str, str], bool]:
    def check(text: str, column: str) -> bool:
        try:
            parse(text)
        except ValueError:
            return False
        return True

    return check


def _text_rule(
    table: str, column: str, dates: tuple[str, ...], times: tuple[str, ...] = ()
) -> tuple[str, Callable[[str, str], bool]] | None:
    """What the code reads out of a text column, by its name or as its owner declared it: (what it must
    be, the check)."""
    if column in times:
        return "a time of day", _parses(time.fromisoformat)
    if column.endswith("_json"):
        return ("a JSON object" if column == "settings_json" else "JSON"), _is_json
    if column.endswith("_at"):
        return "a date and time", _parses(datetime.fromisoformat)
    if column in dates:
        return "a date", _parses(date.fromisoformat)
    if column.endswith("_time"):
        return "a time of day", _parses(time.fromisoformat)
    if column == "timezone":
        return "a time zone", lambda text, _: _is_zone(text)
    if column == "language":
        return f"one of {', '.join(LANGUAGES)}", lambda text, _: text in LANGUAGES
    if column == "name" or column.endswith("_name"):
        most = MAX_NAME_LENGTH if table == "members" else OTHER_NAME_LENGTH
        return f"at most {most} characters", lambda text, _: len(text) <= most
    return None


KINDS: dict[str, tuple[type, ...]] = {"INTEGER": (int,), "TEXT": (str,), "BLOB": (bytes, bytearray, memoryview),
                                      "REAL": (int, float)}  # fmt: skip


def row_problems(
    columns: Mapping[str, Mapping[str, str]], rows_of: Callable[[str], Rows], tables: Mapping[str, Table]
) -> list[str]:
    """Every problem found, in words (``table.column`` of row ``id``), the owners' rules last. ``columns``:
    table -> column -> declared type (as the SQLite migrations declare it); ``rows_of(table)``: its rows;
    ``tables``: each table as its owner declared it (``Registry.tables``)."""
    problems: list[str] = []
    counted: dict[AtMostOne, Counter[tuple[Any, ...]]] = {}
    for table, declared in sorted(columns.items()):
        owned = tables.get(table) or Table(table)
        rules = {c: _text_rule(table, c, owned.dates, owned.times) for c, kind in declared.items() if kind.upper() == "TEXT"}
        for row in rows_of(table):
            where = f"{table} row {row['id']}" if "id" in row.keys() else f"a row of {table}"
            for column, kind in declared.items():
                value = row[column]
                if value is None:
                    continue
                wanted = KINDS.get(kind.upper())
                if wanted is not None and (not isinstance(value, wanted) or (kind.upper() == "INTEGER" and
                                                                            isinstance(value, bool))):  # fmt: skip
                    problems.append(f"{where}: {column} is not {kind.lower()} ({str(value)[:40]!r})")
                    continue
                rule = rules.get(column)
                if rule is not None and not rule[1](value, column):
                    problems.append(f"{where}: {column} is not {rule[0]} ({str(value)[:40]!r})")
            for at_most in owned.at_most_one:
                if row[at_most.where[0]] == at_most.where[1]:
                    counted.setdefault(at_most, Counter())[tuple(row[c] for c in at_most.per)] += 1
    for at_most, counts in counted.items():
        problems += [
            at_most.problem.format(count=count, **dict(zip(at_most.per, key)))
            for key, count in sorted(counts.items(), key=str) if count > 1
        ]
    return problems


def sqlite_columns(conn: Any) -> dict[str, dict[str, str]]:
    """table -> column -> declared type, of a ``sqlite3`` connection (schema_migrations left out)."""
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " AND name != 'schema_migrations'")]  # fmt: skip
    return {t: {str(r[1]): str(r[2]) for r in conn.execute(f'PRAGMA table_info("{t}")')} for t in tables}


def expected_columns(migrations: set[str] | None = None) -> dict[str, dict[str, str]]:
    """table -> column -> declared type of a SQLite database migrated to ``migrations`` (None: all), the
    declarations the PostgreSQL migrations follow too."""
    return migrated_in_memory(migrations, sqlite_columns)


def summary(problems: list[str]) -> str:
    """The first problems and how many more, for one message."""
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "; ".join(problems[:SHOWN]) + more
