"""How a chat account becomes a member of its club: the name it joins under, and which existing member
(if any) it may take. Every system that lets a newcomer in (/aanmelden, /nk inschrijven) asks here."""

from __future__ import annotations

from bot.core.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.store import Member


def join_name(ctx: Context) -> str:
    """The member name a newcomer joins under: their display name, tidied, or their chat id."""
    return " ".join(ctx.actor.display_name.split())[:MAX_NAME_LENGTH] or ctx.actor.user_id[:MAX_NAME_LENGTH]


async def joining(ctx: Context) -> Member | None:
    """Check that a new chat identity can join; the unlinked member of the same name, if any."""
    name = join_name(ctx)
    existing = await ctx.store.member_by_name(ctx.club.id, name)
    if existing is not None and await ctx.store.member_is_linked(existing.id):
        raise UserError("error_name_taken", name=name)
    return existing
