"""Who asks, where, and what they typed: ``Actor`` (from the platform), ``Context`` (what a handler gets),
``UserError`` (a refusal), and the small lookups every system's handlers share."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Awaitable, Callable

from bot.core.club.name_key import partly_named
from bot.core.output.calendar import local_text
from bot.core.i18n import t
from bot.core.storage.store import Club, Member, Store

if TYPE_CHECKING:
    from bot.core.commands.dispatch import Core

MAX_NAME_LENGTH = 60
MENTION = re.compile(r"<@!?([^<>\s]{1,64})>")  # a Discord mention, a Telegram text mention: <@123>


@dataclass(frozen=True)
class Actor:
    """Who typed the command, where: a platform user in a club (a Discord server, a Telegram group)."""

    platform: str
    club_external_id: str
    club_name: str
    user_id: str
    display_name: str
    is_director: bool = False  # from the platform: the director role, a group administrator
    member_id: int | None = None  # the website: the member whose personal link was shown (no chat account)

    def __post_init__(self) -> None:
        # Names and ids come from the platform as the user's client sent them: a lone surrogate (JSON may
        # carry one) or a control character is made harmless here, once, for every use after.
        for name in ("club_external_id", "club_name", "user_id", "display_name"):
            object.__setattr__(self, name, printable(getattr(self, name)))


# What an adapter calls once a command's reply is out, with the command's actor: the scheduler's
# ``Alarm.after_command``, which does what the command may have made due for that actor's club only.
AfterReply = Callable[[Actor], Awaitable[None]]


def printable(text: str) -> str:
    """``text`` without what cannot be stored or shown: broken Unicode becomes U+FFFD, control characters go."""
    if not storable(text):
        text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text if text.isprintable() else "".join(c for c in text if c.isprintable() or c == " ")


def storable(text: str) -> bool:
    """Whether ``text`` can be stored as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class UserError(Exception):
    """A refused command: the message key and its values. Raised before anything is changed."""

    def __init__(self, key: str, /, **values: object) -> None:  # a value may be called key too
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass
class Context:
    """One command as a handler sees it: who, in which club, as which member, when, and its arguments."""

    actor: Actor
    club: Club
    member: Member | None
    now: datetime
    args: list[str]
    attachment: bytes | None = None
    core: "Core | None" = None

    @property
    def lang(self) -> str:
        return self.club.language

    @property
    def is_director(self) -> bool:
        return self.actor.is_director or (self.member is not None and self.member.is_director)

    @property
    def store(self) -> Store:
        assert self.core is not None, "a Context made outside the dispatcher has no store"
        return self.core.store

    def t(self, key: str, **values: object) -> str:
        return t(self.lang, key, **values)

    def with_args(self, args: list[str]) -> "Context":
        return replace(self, args=args)

    def with_club(self, club: Club) -> "Context":
        return replace(self, club=club)

    def local(self, moment: datetime) -> str:
        """A moment as the club reads it: ``2026-12-03 17:00`` in the club's timezone."""
        return local_text(moment, self.club.timezone)

    def require_member(self) -> Member:
        if self.member is None:
            raise UserError("error_not_a_member")
        return self.member

    async def find_member(self, name: str) -> Member:
        """The club's member of that name (case does not matter), or a refusal naming it, and the members
        it may mean when it is part of their names (``/afmelden jan``: Jan de Boer, Jan Smit)."""
        member = await self.store.member_by_name(self.club.id, name)
        if member is None:
            meant = partly_named(name, await self.store.members(self.club.id))
            if meant:
                raise UserError("error_unknown_player_which", name=name[:MAX_NAME_LENGTH], members=", ".join(meant[:10]))
            raise UserError("error_unknown_player", name=name[:MAX_NAME_LENGTH])
        return member


class Quoted(str):
    """A word typed in quotes (``"3"``, ``"Teamwedstrijd"``, ``"Jan de Vries"``; ``command_line.split_words``),
    or a mention made a member's name: a name, never a keyword or a number (issue 44)."""


def keyword(word: str) -> str:
    """``word`` as a keyword is read (lower case), or "" for a quoted word, which is never one."""
    return "" if isinstance(word, Quoted) else word.lower()


def parse_int(text: str | None) -> int | None:
    """A whole number as typed (``3``, ``+3``, ``-3``; at most 9 digits), else None. Only ASCII digits
    are digits: ``str.isdigit`` and ``\\d`` also take ``²`` and ``٣`` (issue 30). A quoted word
    (``"3"``) is a name, never a number."""
    if text is None or isinstance(text, Quoted) or not re.fullmatch(r"[+-]?[0-9]{1,9}", text.strip()):
        return None
    return int(text)


def parse_id(text: str, most: int = 9) -> int | None:
    """A number such as an id in a link or a button (``12``): ASCII digits only, at most ``most``, else None."""
    return int(text) if re.fullmatch(f"[0-9]{{1,{most}}}", text) else None
