"""How a chat account becomes a new member of its club: the name it joins under, and whether it may.
Every system that lets a newcomer in (/aanmelden, /nk inschrijven) asks here; an account becomes an
existing member only through the director (``bot/core/linking.py``)."""

from __future__ import annotations

from bot.core.context import MAX_NAME_LENGTH, Context, UserError


def join_name(ctx: Context) -> str:
    """The member name a newcomer joins under: their display name, tidied (``Actor`` has taken out control
    characters and broken Unicode), or their chat id."""
    return " ".join(ctx.actor.display_name.split())[:MAX_NAME_LENGTH] or ctx.actor.user_id[:MAX_NAME_LENGTH]


async def check_joining(ctx: Context) -> None:
    """Check that a new chat identity can join as a new member: its name is nobody's yet. A display name
    never makes an account an existing member (a stranger calling themselves "Anna" is not Anna): that
    takes the director (``bot/core/linking.py``)."""
    name = join_name(ctx)
    if await ctx.store.member_by_name(ctx.club.id, name) is not None:
        raise UserError("error_name_taken", name=name)
