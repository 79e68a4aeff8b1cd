"""How a chat account becomes a new member of its club: the name it joins under, and whether it may.
Every system that lets a newcomer in (/aanmelden, /nk inschrijven) asks here; an account becomes an
existing member only through the director (``bot/core/club/linking.py``)."""

from __future__ import annotations

from bot.core.commands.command_line import quote_word
from bot.core.commands.context import MAX_NAME_LENGTH, Context, UserError
from bot.core.storage.store import Member
from bot.core.club.name_key import skeleton
from bot.core.club.name_rules import NEW_WORDS, check_name


def join_name(ctx: Context) -> str:
    """The member name a newcomer joins under: their display name, tidied (``Actor`` has taken out control
    characters and broken Unicode), or their chat id."""
    return " ".join(ctx.actor.display_name.split())[:MAX_NAME_LENGTH] or ctx.actor.user_id[:MAX_NAME_LENGTH]


__all__ = ["NEW_WORDS", "check_joining", "join_name", "tell_directors_of_newcomer"]  # NEW_WORDS: kept in name_rules


async def check_joining(ctx: Context, someone_new: bool = False) -> None:
    """Check that a new chat identity can join as a new member: its name is nobody's yet. A display name
    never makes an account an existing member (a stranger calling themselves "Anna" is not Anna): that
    takes the director (``bot/core/club/linking.py``). A name that looks like a member's ("Anna" when the
    director added "Anna de Vries") is asked about first, so one person does not become two members who
    get paired against each other; ``someone_new`` (``/aanmelden nieuw``) says they are someone else. A
    display name that cannot be a member's name (``check_name``: a mention, a number, a command's word)
    is refused with the reason."""
    name = join_name(ctx)
    check_name(ctx, name)
    if await ctx.store.member_by_name(ctx.club.id, name) is not None:
        raise UserError("error_name_taken", name=name)
    if someone_new:
        return
    similar = [m.name for m in await ctx.store.members(ctx.club.id) if _alike(name, m.name)]
    if similar:
        raise UserError("error_name_alike", name=name, member=similar[0])


def _alike(a: str, b: str) -> bool:
    """One name is the other's first words ("Anna" and "Anna de Vries"), case and accents aside, and
    letters of other scripts that look Latin read as Latin ("Vrieѕ" with a Cyrillic ѕ and "Vries")."""
    x, y = _words(a), _words(b)
    short, long = (x, y) if len(x) <= len(y) else (y, x)
    return bool(short) and long[: len(short)] == short


def _words(name: str) -> list[str]:
    return skeleton(name).split()


async def tell_directors_of_newcomer(ctx: Context, member: Member) -> None:
    """A chat account joined as a new member (issue 44 §2): each director gets a private notice with the
    name and what they may want to do (set the rating; merge with a member the club already had)."""
    body = ctx.t("notice_new_member", name=member.name, quoted=quote_word(member.name))
    for account in await ctx.store.director_accounts(ctx.club.id):
        await ctx.store.queue_announcement(ctx.club.id, None, f"new_member:{member.id}:{account}", body, ctx.now,
                                           recipient=account)  # fmt: skip
