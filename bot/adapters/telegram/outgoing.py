"""What the Telegram adapter sends: replies in the chat where a command was typed (text, picture, files,
an inline keyboard), and announcements to the club's channel, with what went wrong kept for the next
director who uses a command."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.adapters.problems import Problems, closed_accounts_note
from bot.adapters.telegram.render import MAX_CAPTION, clip, retry_seconds, announcement_chunks, channel_target, html_chunks, reply_chunks, units
from bot.core.i18n import t
from bot.core.commands.replies import Button, Reply
from bot.core.storage.outage import DatabaseDown
from bot.core.storage.store import Announcement, Club

if TYPE_CHECKING:
    from telegram import Chat, User
    from telegram.ext import Application, ExtBot

    from bot.adapters.telegram.inbox import Inbox
    from bot.adapters.telegram.store import TelegramStore
    from bot.core.commands.dispatch import Core

log = logging.getLogger(__name__)

MAX_CALLBACK_DATA = 64  # bytes
TOKEN_PREFIX = "#"
Paced = tuple[str, dict[str, Any], int | None]  # a reply's message waiting for a group's limit: method, arguments, update


class Outgoing:
    """The sending half of ``TelegramAdapter`` (a mixin: it uses the adapter's ``app``, ``config``,
    ``core``, ``tg_store``, ``_tokens``, ``_progress``, ``_owed_pictures``, ``problems``, ``_paced``, ``_pacers`` and
    ``max_retry_wait``)."""

    app: Application[ExtBot[None], Any, Any, Any, Any, Any]
    core: Core
    tg_store: TelegramStore
    max_retry_wait: float
    _tokens: dict[str, str]
    _progress: dict[int, int]
    _owed_pictures: set[int]  # announcements whose text went and whose picture waits for the rights
    problems: Problems
    _paced: dict[str, list[Paced]]  # chat id -> replies waiting for its rate limit
    inbox: Inbox
    _pacers: dict[str, "asyncio.Task[None]"]  # chat id -> the task sending them

    if TYPE_CHECKING:

        def fallback_language(self, user: User | None) -> str: ...

    async def unless_database_down(
        self, work: Awaitable[None], chat: Chat | None, user: User | None, tell: Callable[[str], Awaitable[None]] | None
    ) -> None:
        """``work``: a command typed or pressed in ``chat`` by ``user``. If the database cannot be reached
        meanwhile (PostgreSQL restarting: issue 46 §3), ``tell(language)`` says "try again in a minute" in the
        club's language as last read, or else the user's, where the command would have crashed."""
        try:
            await work
        except DatabaseDown:
            if tell is not None:
                known = self.core.languages.get(("telegram", str(chat.id))) if chat is not None else None
                await tell(known or self.fallback_language(user))

    def keyboard(self, buttons: Sequence[Button]) -> InlineKeyboardMarkup | None:
        """One button a row; the callback_data is the command, or a token for a command over 64 bytes."""
        rows = []
        for button in buttons:
            data = button.command
            if len(data.encode("utf-8")) > MAX_CALLBACK_DATA:
                data = TOKEN_PREFIX + hashlib.sha256(button.command.encode("utf-8")).hexdigest()[:32]
                self._tokens[data] = button.command
            rows.append([InlineKeyboardButton(clip(button.label, 64), callback_data=data)])
        return InlineKeyboardMarkup(rows) if rows else None

    async def send_reply(
        self, chat_id: int, reply: Reply, reply_to: Message | None = None, thread: int | None = None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> None:
        """A reply as messages in a chat (``markup``: a keyboard of the adapter's own, such as a deep
        link, instead of the reply's buttons). Failures are logged: a reply is not kept for later."""
        if reply_to is not None and reply_to.is_topic_message:
            thread = reply_to.message_thread_id
        extra: dict[str, Any] = {}
        if thread:
            extra["message_thread_id"] = thread
        if reply_to is not None:
            extra["reply_parameters"] = ReplyParameters(reply_to.message_id, allow_sending_without_reply=True)
        parts = self.reply_parts(reply)
        if markup is not None and parts:
            parts[-1][1]["reply_markup"] = markup
        try:
            try:
                await self._send_parts(chat_id, parts, extra, paced=True)
            except ChatMigrated as err:  # the group became a supergroup: its club moves with it
                await self.tg_store.migrate_chat(str(chat_id), str(err.new_chat_id))
                extra.pop("reply_parameters", None)
                await self._send_parts(err.new_chat_id, parts, extra, paced=True)
        except TelegramError:
            log.exception("answering in chat %s failed", chat_id)
        await self.inbox.replied()  # the command's update is answered (unless this reply waits for the limit)

    def reply_parts(self, reply: Reply) -> list[tuple[str, dict[str, Any]]]:
        """The API calls that show a reply: (method, arguments); the buttons go with the last."""
        chunks = reply_chunks(reply)
        parts = self._picture_and_text(reply.image, chunks, "clubbot.png")
        if reply.attachment is not None:
            name, content = reply.attachment
            parts.append(("send_document", {"document": InputFile(content, filename=name)}))
        markup = self.keyboard(reply.buttons)
        if markup is not None and parts:
            parts[-1][1]["reply_markup"] = markup
        return parts

    def _picture_and_text(
        self, image: bytes | None, chunks: list[str], filename: str
    ) -> list[tuple[str, dict[str, Any]]]:
        parts: list[tuple[str, dict[str, Any]]] = []
        if image is not None:
            photo = InputFile(image, filename=filename)
            if len(chunks) == 1 and units(chunks[0]) <= MAX_CAPTION:
                return [("send_photo", {"photo": photo, "caption": chunks[0], "parse_mode": ParseMode.HTML})]
            parts.append(("send_photo", {"photo": photo}))
        parts += [("send_message", {"text": c, "parse_mode": ParseMode.HTML}) for c in chunks]
        return parts

    async def _send_parts(
        self, chat_id: int | str, parts: list[tuple[str, dict[str, Any]]], extra: dict[str, Any], paced: bool = False
    ) -> None:
        """The messages of a reply; only the first answers the command message. ``paced`` (a reply): a
        message Telegram refuses for now (429, the group's limit of about 20 a minute) and every later
        one to that chat wait in the chat's queue, sent in order as Telegram allows: never dropped."""
        later = {k: v for k, v in extra.items() if k != "reply_parameters"}
        for index, (method, kwargs) in enumerate(parts):
            args = {**kwargs, **(extra if index == 0 else later)}
            queue = self._paced.get(str(chat_id))
            if paced and queue is not None:
                queue.append((method, args, self.inbox.waiting()))
                continue
            try:
                await self._call(method, chat_id, args, wait_once=not paced)
            except RetryAfter as err:
                if not paced:
                    raise
                self._pace(chat_id, retry_seconds(err)).append((method, args, self.inbox.waiting()))

    def _pace(self, chat_id: int | str, wait: float) -> list[Paced]:
        """The chat's queue of replies waiting for Telegram's limit, with its sender started."""
        key = str(chat_id)
        queue = self._paced.get(key)
        if queue is None:
            queue = self._paced[key] = []
            self._pacers[key] = asyncio.create_task(self._drain(chat_id, queue, wait))
        log.info("chat %s is rate limited by Telegram; replies wait %.1f s in its queue", chat_id, wait)
        return queue

    async def _drain(self, chat_id: int | str, queue: list[Paced], wait: float) -> None:
        """Send a chat's waiting replies in order, waiting as long as each 429 says; an update whose
        replies are all out is answered (``Inbox.sent_later``)."""
        try:
            while queue:
                await asyncio.sleep(wait)
                while queue:
                    method, args, update_id = queue[0]
                    try:
                        await self._call(method, chat_id, args, wait_once=False)
                    except RetryAfter as err:
                        wait = retry_seconds(err)
                        break
                    except TelegramError:
                        log.exception("a waiting reply in chat %s failed", chat_id)
                    queue.pop(0)
                    await self.inbox.sent_later(update_id)
        finally:
            self._paced.pop(str(chat_id), None)
            self._pacers.pop(str(chat_id), None)

    async def replies_out(self, timeout: float = 120.0) -> None:
        """Wait until every reply waiting for Telegram's limit went out."""
        async with asyncio.timeout(timeout):
            while self._pacers:
                await asyncio.gather(*list(self._pacers.values()), return_exceptions=True)

    async def _call(self, method: str, chat_id: int | str, kwargs: dict[str, Any], wait_once: bool = True) -> Message:
        """One Bot API call; a short rate limit is waited out once (unless ``wait_once`` is off)."""
        func: Callable[..., Awaitable[Message]] = getattr(self.app.bot, method)  # send_message, send_photo, ...
        try:
            return await func(chat_id=chat_id, **kwargs)
        except RetryAfter as err:
            wait = retry_seconds(err)
            if wait > self.max_retry_wait or not wait_once:
                raise
            log.info("rate limited by Telegram; waiting %.1f s", wait)
            await asyncio.sleep(wait)
            return await func(chat_id=chat_id, **kwargs)

    # ------------------------------------------------------------------ announcements out
    async def send_announcement(self, club: Club, announcement: Announcement) -> None:
        """Post to the club's channel; raise if it was not (all) posted: it stays pending and is retried,
        and only the messages that did not go out are sent again. A picture refused for missing rights (the
        group does not let the bot send photos) does not hold the text up: the text goes, the picture stays
        owed and follows once the rights are back. A member's private notice goes to their private chat with
        the bot (a member who never started one cannot get it: dropped, logged)."""
        if announcement.recipient is not None:
            await self._send_private(announcement)
            return
        chat_id, thread = channel_target(club.channel_id or club.external_id)
        picture, chunks = announcement.image, announcement_chunks(announcement)
        owed = announcement.id in self._owed_pictures and picture is not None
        if owed and picture is not None:  # the picture after the text (``_progress`` counts in this order)
            photo = InputFile(picture, filename=f"{announcement.kind}.png")
            parts = self._picture_and_text(None, chunks, "") + [("send_photo", {"photo": photo})]
        else:
            parts = self._picture_and_text(picture, chunks, f"{announcement.kind}.png")
        extra: dict[str, Any] = {"message_thread_id": thread} if thread else {}
        done = self._progress.get(announcement.id, 0)
        refused: BadRequest | None = None
        for index, (method, kwargs) in enumerate(parts):
            if index < done:
                continue
            try:
                chat_id = await self._post(club, chat_id, method, {**kwargs, **extra})
            except BadRequest as err:
                if method != "send_photo" or "chat not found" in str(err).lower():
                    raise
                if no_photo_rights(err):  # the picture waits for the right to send photos; the text goes now
                    refused = err
                    log.warning("picture of announcement %s refused (%s); it follows the text", announcement.id, err)
                    if owed:  # the text went already: the picture is all that is left
                        self.problems.note(club.id, "telegram_problem_picture", {"chat": chat_id})
                        raise
                    self._owed_pictures.add(announcement.id)
                else:  # this picture cannot go (too large, ...): the text alone
                    log.warning("picture of announcement %s refused (%s); the text goes alone", announcement.id, err)
                if "caption" in kwargs:
                    text = {"text": kwargs["caption"], "parse_mode": ParseMode.HTML, **extra}
                    chat_id = await self._post(club, chat_id, "send_message", text)
            # from the picture's refusal on, the progress counts the texts of the owed order (texts, picture)
            first_photo_alone = parts[0][0] == "send_photo" and "caption" not in parts[0][1]
            self._progress[announcement.id] = index + (0 if refused is not None and first_photo_alone else 1)
        if refused is not None:
            self.problems.note(club.id, "telegram_problem_picture", {"chat": chat_id})
            raise refused
        self._progress.pop(announcement.id, None)
        self._owed_pictures.discard(announcement.id)
        self.problems.clear(club.id)

    async def _send_private(self, announcement: Announcement) -> None:
        """A member's private notice, several messages when long. Telegram lets a bot write only to a member
        who started a chat with it and did not block it (else 403): the notice is dropped (not retried for
        ever) and the account marked, so the directors learn it once and ``/leden`` shows it."""
        assert announcement.recipient is not None
        store = self.core.store
        markup = None
        if announcement.link is not None:  # a button that opens an address (a game on lichess), on the last part
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(clip(announcement.link[0], 64), url=announcement.link[1])]])
        try:
            chunks = html_chunks(announcement.body.splitlines())
            for number, chunk in enumerate(chunks, start=1):
                await self.app.bot.send_message(int(announcement.recipient), chunk, parse_mode=ParseMode.HTML,
                                                reply_markup=markup if number == len(chunks) else None)  # fmt: skip
        except Forbidden as err:
            await store.private_closed(announcement.club_id, announcement.recipient, self.core.clock.now())
            log.warning("private notice %s not delivered: %s", announcement.id, err)
            return
        except (BadRequest, ValueError) as err:
            log.warning("private notice %s not delivered: %s", announcement.id, err)
            return
        await store.private_open(announcement.club_id, announcement.recipient)

    async def _post(self, club: Club, chat_id: int | str, method: str, kwargs: dict[str, Any]) -> int | str:
        """One message of an announcement; returns the chat id it went to (a group may have become a
        supergroup on the way). Raises, after noting the problem for the directors, when it did not go (a
        refused picture is the caller's to judge)."""
        try:
            try:
                await self._call(method, chat_id, kwargs)
            except ChatMigrated as err:
                new_id = err.new_chat_id
                await self.tg_store.migrate_chat(str(chat_id), str(new_id))
                await self._call(method, new_id, kwargs)
                return new_id
        except TelegramError as err:
            key, values = failure(err, chat_id)
            if method != "send_photo" or not isinstance(err, BadRequest) or key == "telegram_problem_not_found":
                self.problems.note(club.id, key, values)
            log.warning("announcement not posted in chat %s: %s", chat_id, err)
            raise
        return chat_id

    async def tell_problem(self, chat_id: int, club: Club, message: Message | None = None) -> None:
        """Tell a director (once per problem, after the posts failed for a few minutes: ``problems.py``) why
        the club's announcements are not being posted, and (once each) which members cannot get private
        notices because they have no chat with the bot."""
        problem = self.problems.to_tell(club.id)
        closed = await closed_accounts_note(self.core.store, club, "telegram_private_closed", link=self._notices_link())
        lines = ([t(club.language, problem.key, **problem.values)] if problem is not None else []) + ([closed[0]] if closed else [])
        if not lines:
            return
        if problem is not None:
            self.problems.told(club.id)
        if closed:
            await self.core.store.private_closed_told(club.id, closed[1])
        await self.send_reply(chat_id, Reply(lines=tuple(lines), ok=False), reply_to=message)

    if TYPE_CHECKING:

        def _bot_name(self) -> str: ...
        def _notices_link(self) -> str: ...


def no_photo_rights(err: BadRequest) -> bool:
    """Telegram's refusal of a picture because the bot may not send photos in the chat ("not enough rights
    to send photos to the chat", CHAT_SEND_PHOTOS_FORBIDDEN)."""
    text = str(err).lower()
    return "rights" in text or "photos_forbidden" in text


def failure(err: TelegramError, chat_id: int | str) -> tuple[str, dict[str, object]]:
    """What a failed post means for the director (``bot/adapters/problems.py``): the bot removed from the
    chat (403 "bot was kicked", "bot is not a member"), not allowed to post (403 otherwise, 400 "not enough
    rights", "need administrator rights", CHAT_WRITE_FORBIDDEN), the chat gone (400 "chat not found"),
    Telegram down (no connection, a server error, a rate limit too long to wait), else another refusal."""
    text = str(err).lower()
    if isinstance(err, Forbidden):
        removed = "kicked" in text or "not a member" in text or "deleted" in text
        return ("telegram_problem_removed" if removed else "telegram_problem_forbidden"), {"chat": chat_id}
    if isinstance(err, BadRequest):
        if "chat not found" in text:
            return "telegram_problem_not_found", {"chat": chat_id}
        if "rights" in text or "forbidden" in text:
            return "telegram_problem_forbidden", {"chat": chat_id}
        return "telegram_problem_other", {}
    if isinstance(err, (NetworkError, RetryAfter)):
        return "telegram_problem_down", {}
    return "telegram_problem_other", {}
