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
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.adapters.telegram.render import MAX_CAPTION, clip, retry_seconds, announcement_chunks, channel_target, reply_chunks, units
from bot.core.i18n import t
from bot.core.commands.replies import Button, Reply
from bot.core.storage.store import Announcement, Club

if TYPE_CHECKING:
    from telegram.ext import Application, ExtBot

    from bot.adapters.telegram.store import TelegramStore

log = logging.getLogger(__name__)

MAX_CALLBACK_DATA = 64  # bytes
TOKEN_PREFIX = "#"


class Outgoing:
    """The sending half of ``TelegramAdapter`` (a mixin: it uses the adapter's ``app``, ``config``,
    ``tg_store``, ``_tokens``, ``_progress``, ``_problems``, ``_paced``, ``_pacers`` and ``max_retry_wait``)."""

    app: Application[ExtBot[None], Any, Any, Any, Any, Any]
    tg_store: TelegramStore
    max_retry_wait: float
    _tokens: dict[str, str]
    _progress: dict[int, int]
    _problems: dict[int, tuple[str, dict[str, object], bool]]
    _paced: dict[str, list[tuple[str, dict[str, Any]]]]  # chat id -> replies waiting for its rate limit
    _pacers: dict[str, "asyncio.Task[None]"]  # chat id -> the task sending them

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
        self, chat_id: int, reply: Reply, reply_to: Message | None = None, thread: int | None = None
    ) -> None:
        """A reply as messages in a chat. Failures are logged: a reply is not kept for later."""
        if reply_to is not None and reply_to.is_topic_message:
            thread = reply_to.message_thread_id
        extra: dict[str, Any] = {}
        if thread:
            extra["message_thread_id"] = thread
        if reply_to is not None:
            extra["reply_parameters"] = ReplyParameters(reply_to.message_id, allow_sending_without_reply=True)
        parts = self.reply_parts(reply)
        try:
            try:
                await self._send_parts(chat_id, parts, extra, paced=True)
            except ChatMigrated as err:  # the group became a supergroup: its club moves with it
                await self.tg_store.migrate_chat(str(chat_id), str(err.new_chat_id))
                extra.pop("reply_parameters", None)
                await self._send_parts(err.new_chat_id, parts, extra, paced=True)
        except TelegramError:
            log.exception("answering in chat %s failed", chat_id)

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
                queue.append((method, args))
                continue
            try:
                await self._call(method, chat_id, args, wait_once=not paced)
            except RetryAfter as err:
                if not paced:
                    raise
                self._pace(chat_id, retry_seconds(err)).append((method, args))

    def _pace(self, chat_id: int | str, wait: float) -> list[tuple[str, dict[str, Any]]]:
        """The chat's queue of replies waiting for Telegram's limit, with its sender started."""
        key = str(chat_id)
        queue = self._paced.get(key)
        if queue is None:
            queue = self._paced[key] = []
            self._pacers[key] = asyncio.create_task(self._drain(chat_id, queue, wait))
        log.info("chat %s is rate limited by Telegram; replies wait %.1f s in its queue", chat_id, wait)
        return queue

    async def _drain(self, chat_id: int | str, queue: list[tuple[str, dict[str, Any]]], wait: float) -> None:
        """Send a chat's waiting replies in order, waiting as long as each 429 says."""
        try:
            while queue:
                await asyncio.sleep(wait)
                while queue:
                    method, args = queue[0]
                    try:
                        await self._call(method, chat_id, args, wait_once=False)
                    except RetryAfter as err:
                        wait = retry_seconds(err)
                        break
                    except TelegramError:
                        log.exception("a waiting reply in chat %s failed", chat_id)
                    queue.pop(0)
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
        and only the messages that did not go out are sent again. A member's private notice goes to their
        private chat with the bot (a member who never started one cannot get it: dropped, logged)."""
        if announcement.recipient is not None:
            try:
                markup = None
                if announcement.link is not None:  # a button that opens an address (a game on lichess)
                    markup = InlineKeyboardMarkup([[InlineKeyboardButton(clip(announcement.link[0], 64), url=announcement.link[1])]])
                await self.app.bot.send_message(int(announcement.recipient), announcement.body[:4000], reply_markup=markup)
            except (Forbidden, BadRequest, ValueError) as err:
                log.warning("private notice %s not delivered: %s", announcement.id, err)
            return
        chat_id, thread = channel_target(club.channel_id or club.external_id)
        picture = announcement.image
        parts = self._picture_and_text(picture, announcement_chunks(announcement), f"{announcement.kind}.png")
        extra: dict[str, Any] = {"message_thread_id": thread} if thread else {}
        done = self._progress.get(announcement.id, 0)
        for index, (method, kwargs) in enumerate(parts):
            if index < done:
                continue
            try:
                chat_id = await self._post(club, chat_id, method, {**kwargs, **extra})
            except BadRequest as err:
                if method == "send_photo" and "caption" in kwargs and "chat not found" not in str(err).lower():
                    # the group does not allow pictures (or this one): the text alone
                    log.warning("picture of announcement %s refused (%s); sending the text", announcement.id, err)
                    text = {"text": kwargs["caption"], "parse_mode": ParseMode.HTML, **extra}
                    chat_id = await self._post(club, chat_id, "send_message", text)
                elif method == "send_photo":
                    log.warning("picture of announcement %s refused (%s); the text goes alone", announcement.id, err)
                else:
                    raise
            self._progress[announcement.id] = index + 1
        self._progress.pop(announcement.id, None)
        self._problems.pop(club.id, None)

    async def _post(self, club: Club, chat_id: int | str, method: str, kwargs: dict[str, Any]) -> int | str:
        """One message of an announcement; returns the chat id it went to (a group may have become a
        supergroup on the way). Raises, after noting the problem for the directors, when it did not go."""
        try:
            try:
                await self._call(method, chat_id, kwargs)
            except ChatMigrated as err:
                new_id = err.new_chat_id
                await self.tg_store.migrate_chat(str(chat_id), str(new_id))
                await self._call(method, new_id, kwargs)
                return new_id
        except Forbidden as err:
            self._problem(club, "telegram_problem_forbidden", {"chat": chat_id})
            log.warning("no permission to post in chat %s: %s", chat_id, err)
            raise
        except BadRequest as err:
            if "chat not found" in str(err).lower():
                self._problem(club, "telegram_problem_not_found", {"chat": chat_id})
            elif method != "send_photo":
                self._problem(club, "telegram_problem_other", {"error": str(err)[:200]})
            log.warning("announcement not posted in chat %s: %s", chat_id, err)
            raise
        except TelegramError as err:
            self._problem(club, "telegram_problem_other", {"error": str(err)[:200]})
            log.warning("announcement not posted in chat %s: %s", chat_id, err)
            raise
        return chat_id

    def _problem(self, club: Club, key: str, values: dict[str, object]) -> None:
        old = self._problems.get(club.id)
        told = old is not None and old[0] == key and old[1] == values and old[2]
        self._problems[club.id] = (key, values, told)

    async def tell_problem(self, chat_id: int, club: Club, message: Message | None = None) -> None:
        """Tell a director (once per problem) why the club's announcements are not being posted."""
        problem = self._problems.get(club.id)
        if problem is None or problem[2]:
            return
        key, values, _ = problem
        self._problems[club.id] = (key, values, True)
        await self.send_reply(chat_id, Reply(lines=(t(club.language, key, **values),), ok=False), reply_to=message)
