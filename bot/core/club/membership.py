"""How a chat account becomes a new member of its club: the name it joins under, and whether it may.
Every system that lets a newcomer in (/aanmelden, /nk inschrijven) asks here; an account becomes an
existing member only through the director (``bot/core/club/linking.py``)."""

from __future__ import annotations

from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.club.name_key import name_key


def join_name(ctx: Context) -> str:
    """The member name a newcomer joins under: their display name, tidied (``Actor`` has taken out control
    characters and broken Unicode), or their chat id."""
    return " ".join(ctx.actor.display_name.split())[:MAX_NAME_LENGTH] or ctx.actor.user_id[:MAX_NAME_LENGTH]


NEW_WORDS = frozenset({"nieuw", "new"})  # /aanmelden nieuw: "I am not that member, I am someone new"


async def check_joining(ctx: Context, someone_new: bool = False) -> None:
    """Check that a new chat identity can join as a new member: its name is nobody's yet. A display name
    never makes an account an existing member (a stranger calling themselves "Anna" is not Anna): that
    takes the director (``bot/core/club/linking.py``). A name that looks like a member's ("Anna" when the
    director added "Anna de Vries") is asked about first, so one person does not become two members who
    get paired against each other; ``someone_new`` (``/aanmelden nieuw``) says they are someone else."""
    name = join_name(ctx)
    if await ctx.store.member_by_name(ctx.club.id, name) is not None:
        raise UserError("error_name_taken", name=name)
    if someone_new:
        return
    similar = [m.name for m in await ctx.store.members(ctx.club.id) if _alike(name, m.name)]
    if similar:
        raise UserError("error_name_alike", name=name, member=similar[0])


def _alike(a: str, b: str) -> bool:
    """One name is the other's first words ("Anna" and "Anna de Vries"), case and accents aside."""
    x, y = _words(a), _words(b)
    short, long = (x, y) if len(x) <= len(y) else (y, x)
    return bool(short) and long[: len(short)] == short


def _words(name: str) -> list[str]:
    return name_key(name).split()
