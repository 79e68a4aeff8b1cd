"""Where a command points on Telegram: the chat ``/kanaal`` names, the member ``/koppel`` answers.

May a club's announcements go to a chat? (``/kanaal``, ``Core.channel_checks``.)

To the club's own group (or one of its forum topics) always. Anywhere else only to a Telegram channel
where both the bot (allowed to post messages) and the director who types ``/kanaal`` are administrators,
as Telegram itself says (``getChat``, ``getChatAdministrators``): a director cannot make the bot post
into another club's group or a channel they do not run.
"""

from __future__ import annotations

import re

import logging

from telegram import Bot, ChatMemberAdministrator, ChatMemberOwner, Message
from telegram.constants import ChatType, MessageEntityType
from telegram.error import TelegramError

from bot.core.commands.context import Actor, parse_id

log = logging.getLogger(__name__)


def _target(channel: str) -> int | str | None:
    """The chat id Telegram takes: a number or a public ``@name``; None for anything else."""
    if re.fullmatch(r"@[A-Za-z0-9_]{4,32}", channel):  # Telegram's usernames: ASCII letters, digits, _
        return channel
    number = parse_id(channel.removeprefix("-"), 20)
    return None if number is None else (-number if channel.startswith("-") else number)


async def check_channel(bot: Bot, actor: Actor, channel: str) -> str | None:
    """None when ``channel`` may carry the club's announcements; else why not (a message key)."""
    group, _, topic = channel.partition("/")
    if group == actor.club_external_id and (not topic or parse_id(topic, 12) is not None):
        return None
    target = _target(channel)
    if target is None or parse_id(actor.user_id, 20) is None:
        return "error_channel_not_admin"
    try:
        chat = await bot.get_chat(target)
        if chat.type != ChatType.CHANNEL:
            return "error_channel_not_admin"
        admins = await bot.get_chat_administrators(target)
    except TelegramError as err:  # not found, or the bot is not in it
        log.info("/kanaal %s refused: %s", channel, err)
        return "error_channel_not_admin"
    director = any(a.user.id == int(actor.user_id) for a in admins)
    poster = any(
        a.user.id == bot.id
        and (isinstance(a, ChatMemberOwner) or (isinstance(a, ChatMemberAdministrator) and a.can_post_messages))
        for a in admins
    )
    return None if director and poster else "error_channel_not_admin"


def _command(aliases: dict[str, str], text: str) -> tuple[str, str]:
    head, _, rest = text.strip().partition(" ")
    name = head[1:].split("@", 1)[0].lower()
    return aliases.get(name, name), rest


def with_channel(aliases: dict[str, str], text: str, message: Message) -> str:
    """``/kanaal`` typed without an argument in a group means this group, or this forum topic."""
    name, rest = _command(aliases, text)
    if name != "kanaal" or rest.strip() or message.chat.type == ChatType.PRIVATE:
        return text
    here = str(message.chat.id)
    if message.is_topic_message and message.message_thread_id:
        here += f"/{message.message_thread_id}"
    return f"{text.strip()} {here}"


def with_account(aliases: dict[str, str], text: str, message: Message) -> str:
    """``/koppel Anna`` typed as an answer to a member's message links that member's account (Telegram
    has no user picker, and a bot cannot look up an @username); ``/koppel lichess`` is the member's own."""
    name, rest = _command(aliases, text)
    answered = message.reply_to_message.from_user if message.reply_to_message is not None else None
    if name != "koppel" or answered is None or answered.is_bot or "<@" in rest or rest.strip().lower() == "lichess":
        return text
    return f"{text.strip()} <@{answered.id}>"


def with_mentions(text: str, message: Message) -> str:
    """A text mention (a member picked from the list, who has no @username) becomes ``<@id>``, which the
    commands layer reads as the member linked to that account. A plain ``@username`` stays as typed: a
    bot cannot look a username up."""
    entities = [e for e in (message.entities or ()) if e.type == MessageEntityType.TEXT_MENTION and e.user is not None]
    if not entities or text != (message.text or ""):
        return text
    out = text
    for entity in sorted(entities, key=lambda e: e.offset, reverse=True):  # from the end: offsets stay right
        start, end = _utf16_span(text, entity.offset, entity.length)
        out = out[:start] + f"<@{entity.user.id}>" + out[end:]  # type: ignore[union-attr]  # kept: user is not None
    return out


def _utf16_span(text: str, offset: int, length: int) -> tuple[int, int]:
    """Telegram counts in UTF-16 code units; Python in code points."""
    units = 0
    start = end = len(text)
    for index, char in enumerate(text):
        if units == offset:
            start = index
        if units == offset + length:
            end = index
            break
        units += 2 if ord(char) > 0xFFFF else 1
    return start, end
