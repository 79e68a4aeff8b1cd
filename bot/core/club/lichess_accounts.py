"""Each member's lichess account (migration 0074, issue 43 §1): one lichess username per member of a club,
and one member per lichess account in a club ("two members cannot hold one lichess account").

The director sets it by hand (``/speler Naam lichess=gebruikersnaam``, ``lichess=-`` removes it; the member
import's column 7); a member links their own only by logging in with lichess (``/koppel lichess``,
``bot/core/club/lichess_link.py`` and the website's ``bot/web/lichess_login.py``): a username a member types
is never trusted.

A username is checked as lichess checks the names of existing accounts (the API description names no
pattern; lichess's own rule for existing names, lila's ``UserName.historicalRegex``): 2 to 30 ASCII letters,
digits, ``_`` and ``-``. Lichess compares usernames without regard to case: its user id is the name in lower
case, and that is what is compared here (never ``name_key``, which is for members' names)."""

from __future__ import annotations

import re

from bot.core.commands.context import UserError
from bot.core.club.lichess_tables import LichessAccounts

LICHESS_WORDS = frozenset({"lichess"})  # /speler Naam lichess=...
_USERNAME = re.compile(r"[A-Za-z0-9_-]{2,30}")
REMOVE = "-"  # only "-" removes one: "geen" and "none" are lichess usernames one may have (unlike a KNSB number)


def lichess_username(text: str) -> str | None:
    """A username as a director types it (None: ``-``, removed), or a refusal that names the rule."""
    value = text.strip().removeprefix("@")
    if value == REMOVE:
        return None
    if not _USERNAME.fullmatch(value):
        raise UserError("error_lichess_username", value=value[:40])
    return value


def lichess_arg(args: list[str]) -> tuple[tuple[str | None] | None, list[str]]:
    """The ``lichess=`` word of a command line: ((the username or None: removed),) when given, and the
    other words."""
    found: tuple[str | None] | None = None
    rest: list[str] = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in LICHESS_WORDS:
            found = (lichess_username(value),)
        else:
            rest.append(arg)
    return found, rest


async def refuse_taken(store: LichessAccounts, club_id: int, member_id: int | None, username: str | None) -> None:
    """Refuses a lichess account another member of the club holds, naming that member."""
    if username is None:
        return
    holder = await store.lichess_holder(club_id, username)
    if holder is not None and holder[0] != member_id:
        raise UserError("error_lichess_taken", username=username, name=holder[1])

