"""How an owner declares a table to the registry (``Registry.table``): what the core may do with its rows
(remove a member, merge two, check rows a restore or a copy brings in) without naming it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CORE", "AtMostOne", "Table"]


@dataclass(frozen=True)
class AtMostOne:
    """A rule of a table's rows the commands rely on, checked of every row a restore or a copy brings in
    (``bot/core/storage/row_checks.py``): at most one row per value of the ``per`` columns among the rows whose
    ``where`` column holds the ``where`` value. ``problem`` says a breach in words, with the ``per``
    columns' values and ``count`` filled in."""

    per: tuple[str, ...]
    where: tuple[str, Any]
    problem: str


@dataclass(frozen=True)
class Table:
    """A table the migrations make, as its owner declares it (``Registry.table``): the core works on every
    table through these declarations and names none of a system's.

    ``goes_with_member``: its rows that refer to a member are no history: a member who has only such rows
    (chat accounts, sign-offs, a registration) may be removed, and they go too; a row of any other table
    that refers to the member (a game, a grade) keeps them (``/speler X verwijder``).
    In a round (a table with a ``round_id``): ``absent_in_round`` are its member columns that say the
    member was not in that round (signed off); ``clashes_in_round`` whether its other member columns say
    the member was in it (a game, a bye; a sign-on does not): two records of one person both in one
    round are not merged (``/speler A samenvoegen B``).
    ``dates``: its text columns that hold a date (YYYY-MM-DD), checked of every row restored or copied;
    ``times``: likewise a time of day (HH:MM), where the column's name would say otherwise (``starts_at``).
    ``at_most_one``: its rows' rules (``AtMostOne``), likewise checked.
    ``kept_on_copy``: columns its triggers change while rows go in, set back to the source's after
    ``clubbot migrate-db`` copied them (a season's change version).
    ``in_backup``: False for a platform's passing state that belongs to no club (Telegram's updates until
    answered: other clubs' messages): a club's ``/backup`` holds none of its rows."""

    name: str
    owner: str = ""  # the system that declared it ("keizer", ...); "core" for the shared tables
    goes_with_member: bool = False
    absent_in_round: tuple[str, ...] = ()
    clashes_in_round: bool = True
    dates: tuple[str, ...] = ()
    times: tuple[str, ...] = ()
    at_most_one: tuple[AtMostOne, ...] = ()
    kept_on_copy: tuple[str, ...] = ()
    in_backup: bool = True


CORE = "core"  # the owner of the shared tables
