"""Columns of the member list (``/leden importeer``) that a system reads: after the core's seven (name,
rating, chat account, KNSB, FIDE, EGD, lichess), column 8 on, in the order the systems registered them
(``registry.member_column(...)``). The core names no system: the Keizer system's group column is one
(``bot/keizer/group_column.py``). A column's cells are checked with the other lines, before any write
(a refusal is the line's problem, and nothing is read), then written in the import's transaction, each
returning the reply's lines about what it changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable, Callable

if TYPE_CHECKING:
    from bot.core.commands.context import Context
    from bot.core.commands.dispatch import Core
    from bot.core.storage.store import Member


@dataclass(frozen=True)
class MemberColumn:
    """``label``: the message of its name; ``check(core, ctx, cell)``: why the cell cannot be read (a message in the club's language), or None; ``write(core, ctx,
    member, cell)``: the cell written for the member (in the import's transaction), and the lines the
    reply says of it (a change it made)."""

    label: str  # the message key of the column's name ("groep"), said when a line has too many columns
    check: Callable[["Core", "Context", str], Awaitable[str | None]]
    write: Callable[["Core", "Context", "Member", str], Awaitable[list[str]]]
