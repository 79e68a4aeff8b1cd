"""Suggestions a platform offers while a parameter is typed (Discord autocomplete), shared by the systems."""

from __future__ import annotations

from typing import Any

from bot.core.commands.dispatch import Core
from bot.core.storage.store import Club

MAX_SUGGESTIONS = 25


async def member_names(core: Core, club: Club, typed: str, given: dict[str, Any]) -> list[tuple[str, Any]]:
    """The club's members whose name starts with what is typed, then those whose name contains it."""
    text = (typed or "").casefold().strip()
    names = sorted({m.name for m in await core.store.members(club.id)}, key=str.casefold)
    starts = [n for n in names if n.casefold().startswith(text)]
    inside = [n for n in names if text in n.casefold() and n not in starts]
    return [(n[:100], n[:100]) for n in (starts + inside)[:MAX_SUGGESTIONS]]
