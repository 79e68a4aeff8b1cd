"""Which chat account is which member, decided by the director, never by a display name.

A newcomer joins as a new member under their display name (``/aanmelden``). A chat account becomes an
*existing* member (one the director added with ``/speler``, or one who moved to a new account) only
through the director: ``/koppel Anna @account`` links the account at once (a mention, a Discord user
option, or on Telegram an answer to the member's message); ``/koppel Anna`` gives the director a one-time
code, shown only to them, that the member redeems with ``/aanmelden CODE``. A code is good for seven
days and one use, and only its hash is kept. Either way the member's earlier account stops acting as
them. A stranger whose display name is a member's name is told to ask the director; nothing changes.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from bot.core.commands.completers import member_names
from bot.core.commands.context import Context, UserError
from bot.core.commands.dispatch import Core
from bot.core.club.lichess_link import LOGIN_WORDS, cmd_koppel_lichess
from bot.core.commands.registry import FLAG, Command, Param, Registry
from bot.core.commands.replies import Reply
from bot.core.storage.store import Member

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to mix up
CODE_LENGTH = 8
CODE_LIFETIME = timedelta(days=7)
_CODE = re.compile(r"^[A-Za-z2-9]{4}-?[A-Za-z2-9]{4}$")
REDEEM_COMMAND = "aanmelden"  # what the member types with the code: /aanmelden CODE
LINK_CODE = "link_code"  # Reply.extra: the code a reply hands out, for a platform that can make a link of it
# A chat account as a command argument: what a Discord mention and the adapters' user options look like.
_ACCOUNT = re.compile(r"^<@!?([^<>@\s]{1,80})>$")


def register(registry: Registry) -> None:
    # /koppel Naam [@account] is the director's (cmd_koppel says so); /koppel lichess is every member's own
    # (bot/core/club/lichess_link.py), so the command itself is open to all
    registry.add(Command("koppel", cmd_koppel, english="link",
                         params=(Param("lichess", "bool", style=FLAG), Param("speler", complete=member_names),
                                 Param("account", "user"))))  # fmt: skip
    registry.route("koppel", LOGIN_WORDS, cmd_koppel_lichess, writes=True)


def looks_like_code(word: str) -> bool:
    return bool(_CODE.match(word)) and not word.isdigit()


def _hash(club_id: int, code: str) -> str:
    plain = code.replace("-", "").upper()
    return hashlib.sha256(f"{club_id}:{plain}".encode()).hexdigest()


def new_code() -> str:
    plain = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{plain[:4]}-{plain[4:]}"


def account_of(word: str) -> str | None:
    """The chat account a ``<@id>`` argument names."""
    match = _ACCOUNT.match(word.strip())
    return match.group(1) if match else None


async def cmd_koppel(core: Core, ctx: Context) -> Reply:
    """Link a chat account to an existing member: ``/koppel Anna @account``, or ``/koppel Anna`` for a
    one-time code the member redeems with ``/aanmelden CODE``."""
    if not ctx.is_director:
        raise UserError("error_director_only", command="koppel" if ctx.lang == "nl" else "link")
    args = list(ctx.args)
    account = account_of(args[-1]) if args else None
    if account is not None:
        args = args[:-1]
    name = " ".join(args).strip()
    if not name:
        raise UserError("error_usage", usage=ctx.t("usage_koppel"))
    member = await ctx.find_member(name)  # not known: the members it may mean, as every command names them
    if account is None:
        code = new_code()
        by = ctx.actor.user_id
        await core.store.set_link_code(ctx.club.id, member.id, _hash(ctx.club.id, code), ctx.now + CODE_LIFETIME, by)
        until = ctx.local(ctx.now + CODE_LIFETIME)
        lines = (ctx.t("link_code", name=member.name, code=code, until=until),)
        return Reply(lines=lines, private=True, secret=True, extra={LINK_CODE: code})
    current = await core.store.member_by_identity(ctx.club.id, account)
    if current is not None and current.id != member.id:
        raise UserError("error_account_is_other_member", name=current.name)
    await core.store.move_member_to(ctx.club.id, account, member.id)
    return Reply(lines=(ctx.t("linked", name=member.name),), private=True)


async def member_of_code(ctx: Context, code: str) -> Member:
    """The member a one-time code lets this chat account become; checked before any write."""
    if ctx.member is not None:
        raise UserError("error_already_member", name=ctx.member.name)
    member = await ctx.store.member_of_link_code(ctx.club.id, _hash(ctx.club.id, code), ctx.now)
    if member is None:
        raise UserError("error_link_code_unknown")
    return member


async def redeem(ctx: Context, member: Member) -> None:
    """This chat account becomes ``member`` (the code is used up)."""
    await ctx.store.move_member_to(ctx.club.id, ctx.actor.user_id, member.id)
