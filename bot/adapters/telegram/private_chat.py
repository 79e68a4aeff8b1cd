"""The member's private chat with the bot, and the deep link that opens it.

Telegram lets a bot write to a user only after the user started a chat with it. Where the bot needs that
chat (a file or a code only the asker may see, asked for in the group), the group's answer carries a
button with the deep link ``https://t.me/<bot>?start=<payload>``: it opens the private chat, and pressing
Start there sends ``/start <payload>``. The payload (1-64 characters ``A-Z a-z 0-9 _ -``, as the Bot API
allows) says what for:

- ``again-<token>``: the command that wanted the private chat, kept in memory for a day under a random
  token, is run again for the user who asked, in the club where they asked, and answered in the private
  chat. Anyone else pressing the button, or a token the bot has forgotten (a restart), gets the welcome
  and is told to ask again in the group.
- ``link-<group>-<code>``: a director's one-time link code (``/koppel Anna``) as a link the director hands
  the member: it opens the member's private chat with the bot, and Start there redeems the code in that
  club (``/aanmelden CODE``, as the member would type it in the group): linked in one tap, and the private
  chat for their notices is open. The code is the secret, as when typed; ``<group>`` is the club's chat id
  with ``m`` for its minus sign.
- ``notices``: from the answer to ``/mijn meldingen aan`` in the group: the welcome, which says the
  member's private notices come here (the bot may write to them from now on).
- ``open`` (or nothing): the welcome: what the private chat is for, and ``/help``.

A payload is typed by the user, so it never carries a command: only a token this process handed to that
user, checked against who presses Start.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.adapters.telegram.outgoing import Outgoing
from bot.core.club.linking import LINK_CODE, REDEEM_COMMAND
from bot.core.commands.context import Actor
from bot.core.commands.replies import Reply
from bot.core.i18n import t
from bot.core.storage.store import Club

if TYPE_CHECKING:
    from bot.core.commands.dispatch import Core

log = logging.getLogger(__name__)

PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a start parameter may hold (Bot API, deep linking)
AGAIN = "again-"
LINK = re.compile(r"link-(m?[0-9]{1,20})-([A-Za-z2-9]{8})")  # link-m1001234567890-ABCDEFGH
OPEN = "open"
NOTICES = "notices"
START = "start"
AGAIN_LIFETIME = 24 * 3600.0  # seconds a command waits for its private chat
MAX_WAITING = 10_000  # commands waiting at once; the oldest go first


def deep_link(username: str, payload: str) -> str:
    """The link that opens the private chat with the bot and sends ``/start payload``."""
    if not PAYLOAD.fullmatch(payload):
        raise ValueError(f"not a start payload: {payload!r}")
    return f"https://t.me/{username}?start={payload}"


def link_payload(club_chat: str, code: str) -> str | None:
    """The start payload that redeems ``code`` in the club of group ``club_chat``; None if it cannot be one."""
    payload = f"link-{club_chat.replace('-', 'm', 1)}-{code.replace('-', '')}"
    return payload if LINK.fullmatch(payload) and PAYLOAD.fullmatch(payload) else None


@dataclass(frozen=True)
class Waiting:
    """A command asked for in a group whose answer may only go to the asker's private chat."""

    user_id: int
    club_chat: str  # the club's group (its external id)
    command: str  # the line as the core got it
    until: float  # time.monotonic()


class PrivateChat(Outgoing):
    """The private-chat half of ``TelegramAdapter`` (a mixin: it uses the adapter's ``core``,
    ``is_director``, ``actor_for``, ``fallback_language``, ``after`` and ``_counted``)."""

    _waiting: dict[str, Waiting]
    if TYPE_CHECKING:
        core: Core

        async def is_director(self, club_chat_id: str, user_id: int, club: Club | None = None) -> bool: ...
        async def actor_for(self, chat: Chat, user: User | None, sender_chat: Chat | None = None) -> Actor | str: ...
        def fallback_language(self, user: User | None) -> str: ...
        async def after(self, actor: Actor) -> None: ...
        async def _counted(self, work: Awaitable[None]) -> None: ...

    def _bot_name(self) -> str:
        """The bot's @name for a sentence ("open a chat with @clubbot"); @bot before it is known."""
        try:
            return "@" + self.app.bot.username
        except RuntimeError:  # not initialised (never after start): the name is unknown
            return "@bot"

    def _notices_link(self) -> str:
        """The deep link that opens a member's private chat for their notices (``/start notices``); the bot's
        @name before its own name is known (never after start)."""
        try:
            return deep_link(self.app.bot.username, "notices")
        except RuntimeError:
            return self._bot_name()

    def open_private_button(self, lang: str, payload: str) -> InlineKeyboardMarkup | None:
        """A button that opens the private chat with ``/start payload``; None while the bot's name is unknown."""
        try:
            username = self.app.bot.username
        except RuntimeError:
            return None
        url = deep_link(username, payload)
        return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "telegram_button_open_private"), url=url)]])

    def with_link(self, reply: Reply, club_chat: str, lang: str) -> Reply:
        """A reply handing out a link code gets the link that redeems it in one tap."""
        code = reply.extra.get(LINK_CODE)
        payload = link_payload(club_chat, code) if code else None
        if payload is None:
            return reply
        try:
            url = deep_link(self.app.bot.username, payload)
        except RuntimeError:  # not initialised: no name to link to
            return reply
        return dataclasses.replace(reply, lines=(*reply.lines, t(lang, "telegram_link_code_link", url=url)))

    def wait_for_private_chat(self, user_id: int, club_chat: str, command: str) -> str:
        """Keep a command until its asker opens the private chat; the payload that runs it there."""
        now = time.monotonic()
        for token in [k for k, w in self._waiting.items() if w.until <= now][:MAX_WAITING]:
            del self._waiting[token]
        while len(self._waiting) >= MAX_WAITING:
            del self._waiting[next(iter(self._waiting))]
        token = secrets.token_urlsafe(12)  # 16 characters of A-Z a-z 0-9 _ -
        self._waiting[token] = Waiting(user_id, club_chat, command, now + AGAIN_LIFETIME)
        return AGAIN + token

    async def file_privately(
        self, message: Message, reply: Reply, lang: str, command: str, attachment: bool
    ) -> tuple[Reply, InlineKeyboardMarkup | None]:
        """A file only the asker should have (a backup, a code), asked for in a group, goes to their
        private chat with the bot; the group is told it went there. When the bot may not write to them
        yet, the group's answer has a button that opens the private chat and gets it there."""
        user = message.from_user
        if user is None or message.sender_chat is not None:  # an anonymous administrator has no private chat
            return Reply(lines=(t(lang, "telegram_file_needs_account"),), ok=False), None
        try:
            await self._send_parts(user.id, self.reply_parts(reply), {})
        except (Forbidden, BadRequest) as err:
            log.info("a private file for user %s could not go to their private chat: %s", user.id, err)
            if attachment:  # a command with a file of its own is not kept: the button only opens the chat
                return Reply(lines=(t(lang, "telegram_file_needs_private_chat_ask_again"),), ok=False), self.open_private_button(lang, OPEN)
            payload = self.wait_for_private_chat(user.id, str(message.chat.id), command)
            return Reply(lines=(t(lang, "telegram_file_needs_private_chat"),), ok=False), self.open_private_button(lang, payload)
        except TelegramError:
            log.exception("sending a private file to user %s failed", user.id)
            return Reply(lines=(t(lang, "error_internal"),), ok=False), None
        return Reply(lines=(t(lang, "telegram_file_sent_privately"),), private=True), None

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or message.chat.type != ChatType.PRIVATE:
            return
        await self._counted(self._run_start(message, list(context.args or [])))

    async def _run_start(self, message: Message, args: list[str]) -> None:
        """``/start [payload]`` in the private chat: where a deep link was meant to take the user."""
        user = message.from_user
        payload = args[0] if args else OPEN
        if payload.startswith(AGAIN) and user is not None and await self._run_waiting(message, user, payload[len(AGAIN):]):
            return
        link = LINK.fullmatch(payload)
        if link is not None and user is not None:
            chat, code = link.group(1).replace("m", "-", 1), link.group(2)
            await self._run_as(message, user, chat, f"/{REDEEM_COMMAND} {code[:4]}-{code[4:]}")
            return
        lang = self.fallback_language(user)
        lines = [t(lang, "telegram_start_again_gone")] if payload.startswith(AGAIN) else []
        found = await self.actor_for(message.chat, user)
        if isinstance(found, Actor):
            lang = (await self.core.club_of(found)).language
            lines.append(t(lang, "telegram_start_welcome", club=found.club_name))
        elif found == "telegram_dm_unknown":  # no member (yet), or a director who is none: what the chat is for
            lines.append(t(lang, "telegram_start_welcome_stranger"))
        else:
            lines.append(t(lang, found))
        await self.send_reply(message.chat.id, Reply(lines=tuple(lines)), reply_to=message)

    async def _run_waiting(self, message: Message, user: User, token: str) -> bool:
        """Run the command kept under ``token`` if it is this user's and still good; whether it ran."""
        waiting = self._waiting.get(token)
        if waiting is None or waiting.user_id != user.id or waiting.until <= time.monotonic():
            return False
        if await self.core.store.club_by_external("telegram", waiting.club_chat) is None:
            return False
        del self._waiting[token]
        await self._run_as(message, user, waiting.club_chat, waiting.command)
        return True

    async def _run_as(self, message: Message, user: User, club_chat: str, command: str) -> None:
        """Run ``command`` as ``user`` in the club of group ``club_chat``, answered in the private chat."""
        club = await self.core.store.club_by_external("telegram", club_chat)
        if club is None:
            lang = self.fallback_language(user)
            await self.send_reply(message.chat.id, Reply(lines=(t(lang, "error_link_code_unknown"),), ok=False), reply_to=message)
            return
        director = await self.is_director(club.external_id, user.id, club)
        actor = Actor("telegram", club.external_id, club.name, str(user.id), user.full_name, director)
        reply = self.with_link(await self.inbox.handle(self.core, actor, command), club.external_id, club.language)
        await self.send_reply(message.chat.id, reply, reply_to=message)
        await self.after(actor)
