"""Several members' names in one unquoted line (``/indeling wissel Anna de Vries Bert Jansen``), read
by the club's member list; names compare by ``bot/core/club/name_key.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from bot.core.commands.context import MAX_NAME_LENGTH, UserError
from bot.core.club.name_key import name_key

if TYPE_CHECKING:
    from bot.core.commands.context import Context
    from bot.core.storage.store import Member


def readings(words: Sequence[str], known: set[str], count: int) -> list[list[str]]:
    """Every way to read ``words`` as ``count`` known names, each name one or more words in a row; a
    word with spaces in it (typed in quotes) is never split."""
    if count == 0:
        return [[]] if not words else []
    found: list[list[str]] = []
    for end in range(len(words) - count + 1, 0, -1):  # the longest first name first
        name = " ".join(words[:end])
        if name_key(name) in known:
            found.extend([name, *rest] for rest in readings(words[end:], known, count - 1))
    return found


def longest_name(words: Sequence[str], known: set[str]) -> int:
    """How many of the first ``words`` make the longest known name (0: none)."""
    return next((end for end in range(len(words), 0, -1) if name_key(" ".join(words[:end])) in known), 0)


async def members_named(ctx: Context, words: Sequence[str], count: int) -> list[Member]:
    """The ``count`` members an unquoted line of words names, the longest names first; refused when no
    reading finds them all, or when more than one does (the message lists the members it could be and
    shows how to quote)."""
    members = {name_key(m.name): m for m in await ctx.store.members(ctx.club.id)}
    if len(words) == count:  # one word each, or quoted: no reading to choose
        found = [members.get(name_key(w)) for w in words]
        missing = next((w for w, m in zip(words, found) if m is None), None)
        if missing is not None:
            raise UserError("error_unknown_player", name=missing[:MAX_NAME_LENGTH])
        return [m for m in found if m is not None]
    options = readings(words, set(members), count)
    if not options:
        start = longest_name(words, set(members))
        unknown = " ".join(words[start:]) if start else " ".join(words)
        raise UserError("error_unknown_player", name=unknown[:MAX_NAME_LENGTH])
    if len(options) > 1:
        candidates = sorted({members[name_key(n)].name for option in options for n in option}, key=name_key)
        example = " ".join(f'"{members[name_key(n)].name}"' for n in options[0])
        raise UserError("error_names_ambiguous", words=" ".join(words)[:200], members=", ".join(candidates), example=example)
    return [members[name_key(n)] for n in options[0]]
