"""The Telegram adapter (python-telegram-bot 22.x): messages in, replies and announcements out. No rules here.

A Telegram group (or supergroup) is a club. Every command of the commands layer, Dutch names and English
aliases, is a ``CommandHandler``; the message text goes as typed to ``Core.handle`` (which understands
``/afmelden@clubbot 3``) as the user who sent it. The command menu is registered per language: Dutch
names for everyone (and explicitly for ``nl``), English names for ``en`` users, with the director commands
added in the group administrators' scope.

Directors are the group's administrators (``getChatAdministrators``, cached for a minute) and the users a
group administrator allow-lists by answering one of their messages with ``/wedstrijdleider``
(``/director``; table ``telegram_directors``). A private message to the bot works for a member of one club.

A ``Reply`` comes back in the chat where the command was typed, as an answer to the command message (in
the same forum topic): HTML with the table in a ``<pre>`` block, split at 4096 characters; a picture with
``sendPhoto`` (the text as its caption when it fits in 1024 characters, else the text after it); files
with ``sendDocument``; buttons as an inline keyboard whose ``callback_data`` is the command the button
runs (a token kept in memory when the command is longer than 64 bytes). Pressing a button runs its
command as the presser: a refusal or a short private answer shows only to them (``answerCallbackQuery``),
a public answer goes to the chat and the keyboard is removed. A file or code only the asker may see goes
to their private chat with the bot; when they have none yet, the group's answer has a deep-link button
that opens it, and Start there brings what they asked for (``private_chat.py``).

Announcements go to the club's channel (``/kanaal``: the group itself, a forum topic, or a channel the bot
may post in). A failure (a rate limit longer than ``max_retry_wait``, the bot removed or muted, a deleted
chat) is logged and raised, so the announcement stays pending and the alarm retries it; the next director
who uses a command in the group is told what is wrong. An announcement of several messages remembers which
of them went out, so a retry sends only the rest.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from contextlib import suppress
from datetime import timedelta
from typing import Any, Awaitable, Sequence

from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeDefault,
    Chat,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
    MessageHandler,
    filters,
)

from bot.adapters.inflight import InFlight
from bot.adapters.lost import Lost
from bot.adapters.problems import Problems
from bot.adapters.telegram.polling import Polling
from bot.adapters.telegram.channels import check_channel, with_account, with_channel, with_mentions
from bot.core.club.linking import LINK_CODE
from bot.core.commands.limits import MAX_FILE_BYTES
from bot.adapters.telegram.http_clients import telegram_requests
from bot.core.commands.context import Actor, AfterReply
from bot.core.commands.dispatch import UNAVAILABLE, Core
from bot.config import Config
from bot.core.i18n import DEFAULT_LANGUAGE, catalogue, t
from bot.core.commands.replies import PRIVATE_NOTICES, Reply
from bot.core.storage.store import Club
from bot.adapters.telegram.inbox import Inbox, InboxProcessor
from bot.adapters.telegram.outgoing import Paced
from bot.adapters.telegram.private_chat import NOTICES, START, PrivateChat, Waiting
from bot.adapters.telegram.render import clip, language_of, units
from bot.adapters.telegram.store import TelegramStore

log = logging.getLogger(__name__)

PLATFORM = "telegram"
MAX_ALERT = 200  # characters of an answerCallbackQuery text
MAX_MENU_DESCRIPTION = 256
MAX_MENU_COMMANDS = 100
MAX_IMPORT_BYTES = MAX_FILE_BYTES
COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
ADMIN_CACHE_SECONDS = 60.0
MAX_RETRY_WAIT = 5.0  # a rate limit up to this long is waited out once; a longer one leaves it for the alarm
STOP_WAIT = 65.0  # seconds a stop waits for replies queued behind a group's rate limit (about 20 a minute)
DIRECTOR_COMMAND = "wedstrijdleider"  # the allow-list, kept by the group's administrators
DIRECTOR_ALIAS = "director"
REMOVE_WORDS = {"weg", "uit", "verwijder", "remove", "off", "delete"}
ENGLISH_MENU_NAMES = {"help": "help"}  # the English menu name where the first English alias is not English

# ---------------------------------------------------------------------------------------------- the adapter
class TelegramAdapter(PrivateChat):
    platform = PLATFORM

    def __init__(
        self,
        core: Core,
        config: Config,
        after_command: AfterReply,
        *,
        base_url: str | None = None,
        base_file_url: str | None = None,
        poll_timeout: float = 30.0,
        max_retry_wait: float = MAX_RETRY_WAIT,
        admin_cache_seconds: float = ADMIN_CACHE_SECONDS,
    ) -> None:
        if not config.telegram_token:
            raise RuntimeError("no Telegram token configured")
        self.core = core
        core.channel_checks[PLATFORM] = lambda actor, channel: check_channel(self.app.bot, actor, channel)
        self.config = config
        self.after_command = after_command
        self.poll_timeout = poll_timeout
        self.lost = Lost()  # Telegram ended the polling for good (a revoked token): the process exits
        self.polling = Polling(self.lost)
        self.max_retry_wait = max_retry_wait
        self.stop_wait = STOP_WAIT
        self.admin_cache_seconds = admin_cache_seconds
        self.tg_store = TelegramStore(core.store)
        self.inbox = Inbox(core.store, core.clock)  # the updates, kept before Telegram is told they came
        # a local Bot API server (or the tests' fake): the keyword, else the config's telegram_base_url if any
        base_url = base_url or config.telegram_base_url
        base_file_url, requests = base_file_url or config.telegram_base_file_url, telegram_requests()  # one TLS context
        builder = Application.builder().token(config.telegram_token).job_queue(None).request(requests[0]).get_updates_request(requests[1])
        builder = builder.update_queue(self.inbox).concurrent_updates(InboxProcessor(self.inbox))
        if base_url:
            builder = builder.base_url(base_url)
        if base_file_url:
            builder = builder.base_file_url(base_file_url)
        self.app: Application[ExtBot[None], Any, Any, Any, Any, Any] = builder.build()
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}
        self._tokens: dict[str, str] = {}  # callback_data token -> command, for commands over 64 bytes
        self._waiting: dict[str, Waiting] = {}  # deep-link token -> a command waiting for its private chat
        self._progress: dict[int, int] = {}  # announcement id -> how many of its messages went out
        self._owed_pictures: set[int] = set()  # announcements whose picture waits for the right to send photos
        self.problems = Problems(core.clock)  # why a club's announcements are not posted, for its directors
        self._paced: dict[str, list[Paced]] = {}
        self._pacers: dict[str, asyncio.Task[None]] = {}
        self.in_flight = InFlight()
        self.director_command = self._director_command_names()
        self._add_handlers()

    # ------------------------------------------------------------------ lifecycle
    def command_names(self) -> list[str]:
        """Every name the commands layer answers to (Dutch names and English aliases) that Telegram
        allows as a command."""
        names = list(self.core.registry.commands) + list(self.core.registry.aliases)
        valid = [n for n in names if COMMAND_NAME.fullmatch(n)]
        for name in sorted(set(names) - set(valid)):
            log.warning("/%s cannot be a Telegram command; left out", name)
        return valid

    def _director_command_names(self) -> list[str]:
        taken = set(self.core.registry.commands) | set(self.core.registry.aliases)
        names = [n for n in (DIRECTOR_COMMAND, DIRECTOR_ALIAS) if n not in taken]
        taken_names = (DIRECTOR_COMMAND, DIRECTOR_ALIAS)
        if len(names) < 2:
            log.warning("the commands layer has /%s or /%s itself; the allow-list command yields", *taken_names)
        return names

    def _add_handlers(self) -> None:
        only_new = filters.UpdateType.MESSAGE  # an edited command is not run again
        self.app.add_handler(CommandHandler(self.command_names(), self.on_command, filters=only_new))
        if START not in self.core.registry.commands and START not in self.core.registry.aliases:
            self.app.add_handler(CommandHandler(START, self.on_start, filters=only_new & filters.ChatType.PRIVATE))
        if self.director_command:
            self.app.add_handler(CommandHandler(self.director_command, self.on_director_command, filters=only_new))
        self.app.add_handler(
            MessageHandler((filters.Document.ALL | filters.PHOTO) & filters.CaptionRegex(r"^/") & only_new, self.on_document)
        )
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        self.app.add_handler(CallbackQueryHandler(self.on_callback))
        self.app.add_error_handler(self.on_error)

    async def start(self) -> None:
        """Log in (getMe), register the command menus, and poll for updates in the background."""
        try:
            await self.app.initialize()
        except BaseException:
            await self.app.bot.shutdown()  # close its HTTP clients: a half-done initialize leaves them open
            raise
        try:
            await self.inbox.open(self.app.bot)  # the updates not answered before a restart go first
            try:
                await self.register_menus()
            except TelegramError:
                log.exception("registering the command menus with Telegram failed; the old ones stay")
            await self.app.start()
            assert self.app.updater is not None
            await self.app.updater.start_polling(
                timeout=timedelta(seconds=self.poll_timeout),
                allowed_updates=["message", "callback_query"],
                error_callback=self.polling.error,
            )
            self.polling.watch(self.app.updater)
        except BaseException:
            await self.stop()
            raise

    def connected(self) -> bool:
        """Initialised and fetching updates (``/healthz``)."""
        return not self.lost and self.app.running and self.app.updater is not None and self.app.updater.running

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no update is being handled."""
        await self.in_flight.idle(timeout)

    @property
    def handled(self) -> int:
        """Updates handled so far (tests wait on it)."""
        return self.in_flight.handled

    async def stop(self) -> None:
        try:
            await self.idle()
        except TimeoutError:
            log.warning("stopping with commands still running")
        try:
            await self.replies_out(timeout=self.stop_wait)
        except TimeoutError:
            log.warning("stopping with replies still waiting for Telegram's rate limit: %s", sorted(self._paced))
            for task in list(self._pacers.values()):
                task.cancel()
        if self.app.updater is not None and self.app.updater.running:
            with suppress(TelegramError):  # its polling had ended on a refused token: said already (``self.lost``)
                await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    # ------------------------------------------------------------------ the command menus
    def _menu(self, names: Sequence[str], lang: str) -> list[BotCommand]:
        english = self.core.registry.english_names()
        texts = catalogue(lang)
        menu = []
        for name in names:
            shown = name
            if lang == "en":
                shown = ENGLISH_MENU_NAMES.get(name) or english.get(name, name)
            if not COMMAND_NAME.fullmatch(shown):
                shown = name
            if not COMMAND_NAME.fullmatch(shown):
                continue
            description = texts.get(f"help_{name}") or texts.get(f"telegram_menu_{name}") or name
            menu.append(BotCommand(shown, clip(description, MAX_MENU_DESCRIPTION)))
        return menu[:MAX_MENU_COMMANDS]

    async def register_menus(self) -> None:
        """Players' commands for everyone; with the director commands for the groups' administrators.
        Dutch by default and for ``nl``, English names for ``en``."""
        players = self.core.registry.player_commands()
        directors = players + self.core.registry.director_commands() + self.director_command[:1]
        bot = self.app.bot
        default = self.config.default_language or DEFAULT_LANGUAGE
        scopes = ((BotCommandScopeDefault(), players), (BotCommandScopeAllChatAdministrators(), directors))
        for scope, names in scopes:
            await bot.set_my_commands(self._menu(names, default), scope=scope)
            for lang in ("nl", "en"):
                await bot.set_my_commands(self._menu(names, lang), scope=scope, language_code=lang)

    # ------------------------------------------------------------------ who and where
    async def admins(self, chat_id: int) -> frozenset[int]:
        """The user ids of a group's administrators (and creator), cached briefly."""
        now = time.monotonic()
        cached = self._admins.get(chat_id)
        if cached is not None and cached[0] > now:
            return cached[1]
        try:
            members = await self.app.bot.get_chat_administrators(chat_id)
        except TelegramError as err:
            log.warning("could not read the administrators of chat %s: %s", chat_id, err)
            return cached[1] if cached is not None else frozenset()
        ids = frozenset(m.user.id for m in members)
        self._admins[chat_id] = (now + self.admin_cache_seconds, ids)
        return ids

    async def is_director(self, club_chat_id: str, user_id: int, club: Club | None = None) -> bool:
        """An administrator of the club's group, or on the club's allow-list."""
        try:
            if user_id in await self.admins(int(club_chat_id)):
                return True
        except ValueError:
            pass
        club = club or await self.core.store.club_by_external(PLATFORM, club_chat_id)
        return club is not None and await self.tg_store.is_listed_director(club.id, str(user_id))

    async def actor_for(self, chat: Chat, user: User | None, sender_chat: Chat | None = None) -> Actor | str:
        """Who is asking, in which club; or the key of the reason there is no club (a private message
        from someone who is not a member of exactly one club)."""
        if chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
            title = chat.title or str(chat.id)
            if sender_chat is not None and sender_chat.id == chat.id:  # an anonymous administrator
                return Actor(PLATFORM, str(chat.id), title, f"anonymous:{chat.id}", title, True)
            if user is None:
                return "telegram_dm_unknown"
            director = await self.is_director(str(chat.id), user.id)
            return Actor(PLATFORM, str(chat.id), title, str(user.id), user.full_name, director)
        if chat.type != ChatType.PRIVATE or user is None:
            return "telegram_dm_unknown"
        clubs = await self.core.store.clubs_of_identity(PLATFORM, str(user.id))
        if not clubs:
            return "telegram_dm_unknown"
        if len(clubs) > 1:
            return "telegram_dm_several"
        club = clubs[0]
        director = await self.is_director(club.external_id, user.id, club)
        return Actor(PLATFORM, club.external_id, club.name, str(user.id), user.full_name, director)

    def fallback_language(self, user: User | None) -> str:
        return language_of(user, self.config.default_language or DEFAULT_LANGUAGE)

    # ------------------------------------------------------------------ updates in
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or message.text is None:
            return
        await self._counted(self._run_message(message, message.text, None), message)

    async def on_document(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command with a file, typed as the file's caption (``/importeer start=...``), or with a photo
        (``/website stijl logo``: its largest size)."""
        message = update.effective_message
        if message is None or (message.document is None and not message.photo) or not message.caption:
            return
        await self._counted(self._run_document(message), message)

    async def _run_document(self, message: Message) -> None:
        document = message.document or message.photo[-1]
        assert message.caption is not None
        lang = await self._chat_language(message.chat, message.from_user)
        if (document.file_size or 0) > MAX_IMPORT_BYTES:
            await self._refuse(message, lang, "telegram_file_too_large", limit=MAX_IMPORT_BYTES // (1024 * 1024))
            return
        try:
            file = await document.get_file()
            content = bytes(await file.download_as_bytearray())
        except TelegramError as err:
            log.warning("downloading a file failed: %s", err)
            await self._refuse(message, lang, "telegram_file_unreadable")
            return
        await self._run_message(message, message.caption, content)

    async def _chat_language(self, chat: Chat, user: User | None) -> str:
        club = await self.core.store.club_by_external(PLATFORM, str(chat.id))
        return club.language if club is not None else self.fallback_language(user)

    async def _counted(self, work: Awaitable[None], message: Message | None = None) -> None:
        if message is not None:  # while the database cannot be reached, the reply says so
            work = self.unless_database_down(work, message.chat, message.from_user, lambda lang: self._refuse(message, lang, "error_database_down"))
        await self.in_flight.run(work)

    async def _run_message(self, message: Message, text: str, attachment: bytes | None) -> None:
        actor = await self.actor_for(message.chat, message.from_user, message.sender_chat)
        if isinstance(actor, str):
            lang = self.fallback_language(message.from_user)
            await self._refuse(message, lang, actor)
            return
        text = with_mentions(text, message)
        text = with_account(self.core.registry.aliases, with_channel(self.core.registry.aliases, text, message), message)
        reply = await self.inbox.handle(self.core, actor, text, attachment)
        if LINK_CODE in reply.extra:  # a link code: with the link that redeems it
            reply = self.with_link(reply, actor.club_external_id, (await self.core.club_of(actor)).language)
        privately = reply.attachment is not None or reply.secret
        markup = None
        if reply.ok and reply.private and privately and message.chat.type != ChatType.PRIVATE:
            lang = await self._chat_language(message.chat, message.from_user)
            reply, markup = await self.file_privately(message, reply, lang, text, attachment is not None)
        elif PRIVATE_NOTICES in reply.extra and message.chat.type != ChatType.PRIVATE:  # the way to the private chat
            markup = self.open_private_button(await self._chat_language(message.chat, message.from_user), NOTICES)
        await self.send_reply(message.chat.id, reply, reply_to=message, markup=markup)
        if actor.is_director and UNAVAILABLE not in reply.extra:  # the database out of reach: nothing to tell
            club = await self.core.club_of(actor)
            await self.tell_problem(message.chat.id, club, message)
        await self.after(actor)

    async def _refuse(self, message: Message, lang: str, key: str, **values: object) -> None:
        await self.send_reply(message.chat.id, Reply(lines=(t(lang, key, **values),), ok=False), reply_to=message)

    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query  # while the database cannot be reached, an alert says so (not a spinner)
        chat = query.message.chat if query is not None and query.message is not None else None
        tell = (lambda lang: self._answer_callback(query, t(lang, "error_database_down"))) if query is not None else None
        await self._counted(self.unless_database_down(self._run_callback(update), chat, query.from_user if query else None, tell))

    async def _run_callback(self, update: Update) -> None:
        """A button: run its command as whoever pressed it."""
        query = update.callback_query
        if query is None:
            return
        data = query.data or ""
        command = data if data.startswith("/") else self._tokens.get(data)
        message = query.message
        lang = self.fallback_language(query.from_user)
        if command is None or message is None:
            await self._answer_callback(query, t(lang, "telegram_button_expired"))
            return
        actor = await self.actor_for(message.chat, query.from_user)
        if isinstance(actor, str):
            await self._answer_callback(query, t(lang, actor))
            return
        reply = await self.inbox.handle(self.core, actor, command)
        text = reply.text
        quiet = not reply.ok or (
            reply.private and units(text) <= MAX_ALERT and reply.image is None and reply.attachment is None and not reply.buttons
        )
        if quiet:  # only the presser sees it
            await self._answer_callback(query, clip(text, MAX_ALERT))
        else:
            await self._answer_callback(query, None)
            if not reply.private and isinstance(message, Message):
                try:  # the button has done its work
                    await message.edit_reply_markup(reply_markup=None)
                except TelegramError as err:
                    log.info("removing the buttons of a message failed: %s", err)
            thread = message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None
            await self.send_reply(message.chat.id, reply, thread=thread)
        await self.after(actor)

    async def _answer_callback(self, query: Any, text: str | None) -> None:
        try:
            if text:
                await query.answer(text=text, show_alert=True)
            else:
                await query.answer()
        except TelegramError as err:
            log.info("answering a button press failed: %s", err)

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup: its club moves to the new chat id."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        if await self.tg_store.migrate_chat(str(old), str(new)):
            log.info("club of group %s moved to supergroup %s", old, new)

    async def on_director_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        await self._counted(self._run_director_command(message), message)

    async def _run_director_command(self, message: Message) -> None:
        """The allow-list of directors besides the administrators: an administrator answers a member's
        message with ``/wedstrijdleider`` (add) or ``/wedstrijdleider weg`` (remove); without an answer it
        lists who is on it."""
        chat, user = message.chat, message.from_user
        if chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP) or user is None:
            lang = self.fallback_language(user)
            await self._refuse(message, lang, "telegram_director_group_only")
            return
        lang = await self._chat_language(chat, user)
        anonymous = message.sender_chat is not None and message.sender_chat.id == chat.id
        if not anonymous and user.id not in await self.admins(chat.id):
            await self._refuse(message, lang, "telegram_director_admins_only")
            return
        club = await self.core.store.get_or_create_club(  # only now: a refusal leaves no trace
            PLATFORM, str(chat.id), chat.title or str(chat.id), self.config.default_language,
            self.config.default_timezone, self.core.clock.now(),
        )  # fmt: skip
        words = (message.text or "").split()[1:]
        target = message.reply_to_message.from_user if message.reply_to_message is not None else None
        if target is None:
            listed = await self.tg_store.listed_directors(club.id)
            lines = [t(lang, "telegram_director_list" if listed else "telegram_director_list_empty")]
            lines += [f"- {name}" for _, name in listed]
            await self.send_reply(chat.id, Reply(lines=tuple(lines)), reply_to=message)
            return
        if target.is_bot:
            await self._refuse(message, lang, "telegram_director_is_bot")
            return
        if words and words[0].lower() in REMOVE_WORDS:
            removed = await self.tg_store.remove_director(club.id, str(target.id))
            key = "telegram_director_removed" if removed else "telegram_director_not_listed"
        else:
            by = str(user.id) if not anonymous else f"anonymous:{chat.id}"
            await self.tg_store.add_director(club.id, str(target.id), target.full_name, by, self.core.clock.now())
            key = "telegram_director_added"
        await self.send_reply(chat.id, Reply(lines=(t(lang, key, name=target.full_name),)), reply_to=message)

    async def after(self, actor: Actor) -> None:
        try:
            await self.after_command(actor)
        except Exception:
            log.exception("the work after a command failed")

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("handling a Telegram update failed", exc_info=context.error)

