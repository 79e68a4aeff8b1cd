"""Names the bot can tell apart from the words around them (issue 44 §2).

A member's name is read among a command's other words, so a name that is one of those words, is a
number, or looks like a mention would be read as that instead: ``/afmelden 3`` reads round 3, ``/stand A``
group A, and ``<@club-1-m0>`` stands for the account it mentions. Such a name is refused wherever a name
is given (``name_refusal``): joining under a display name, the member import, a season file's import,
``/speler``, a rename, the director's NK registration. A name already in the club is still reached in quotes: a quoted word is always a name
(``/afmelden "3"``; ``bot/core/commands/context.py`` ``Quoted``).

Two names that differ only by letters that look alike (a Cyrillic ``ѕ`` in ``Vrieѕ``) are near-duplicates
(``skeleton``): ``/leden`` lists them and the reply that adds one says so. A name nobody has that is part of
members' names (``/afmelden jan`` with Jan de Boer and Jan Smit) is answered with those members
(``bot/core/club/name_key.py`` ``partly_named``, asked by ``Context.find_member``).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from bot.core.club.name_key import name_key, skeleton
from bot.core.commands.command_line import quote_word
from bot.core.commands.context import MAX_NAME_LENGTH, MENTION, Context, UserError, parse_int
from bot.core.storage.store import Member

NEW_WORDS = frozenset({"nieuw", "new"})  # /aanmelden nieuw: "I am not that member, I am someone new"
# the core's own words beside a name; each system adds its own (``Registry.reserve``) and its routes' words
CORE_WORDS = NEW_WORDS | {"toch", "anyway"}


def name_refusal(name: str, reserved: Iterable[str]) -> UserError | None:
    """Why ``name`` cannot be a member's name, or None: it looks like a mention, it is a number, or it is
    a word commands read beside a name (``reserved``, lower case)."""
    shown = name[:MAX_NAME_LENGTH]
    if MENTION.search(name) or "<@" in name:
        return UserError("error_name_mention", name=shown)
    if parse_int(name) is not None:  # "3": /afmelden 3 reads round 3 ("Speler 3" is a name: its first word is none)
        return UserError("error_name_number", name=shown)
    if name_key(name) in reserved or name.strip().lower() in reserved:
        return UserError("error_name_keyword", name=shown)
    return None


def reserved_words(ctx: Context) -> frozenset[str]:
    """Every word a command of this bot reads beside a name."""
    assert ctx.core is not None, "a Context made outside the dispatcher has no registry"
    return CORE_WORDS | ctx.core.registry.name_words()


def check_name(ctx: Context, name: str) -> None:
    """Refuse ``name`` for a new member (or a rename) with its reason (``name_refusal``)."""
    refusal = name_refusal(name, reserved_words(ctx))
    if refusal is not None:
        raise refusal


def look_alikes(name: str, members: Iterable[Member]) -> list[str]:
    """The members whose name looks like ``name`` but is another name (a Cyrillic ``ѕ``)."""
    key, looks = name_key(name), skeleton(name)
    return [m.name for m in members if skeleton(m.name) == looks and name_key(m.name) != key]


def near_duplicates(members: Sequence[Member]) -> list[tuple[str, str]]:
    """Pairs of members whose names look the same (``skeleton``) but are different names."""
    first: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for m in members:
        looks = skeleton(m.name)
        if looks in first:
            pairs.append((first[looks], m.name))
        else:
            first[looks] = m.name
    return pairs


def merge_hint(ctx: Context, name: str, other: str) -> str:
    """The command that merges ``name`` into ``other`` (``/speler "Vrieѕ" samenvoegen Vries``)."""
    return ctx.t("merge_command", a=quote_word(name), b=quote_word(other))
