"""A local fake of the Telegram Bot API, enough for python-telegram-bot: aiohttp.web on 127.0.0.1 at a random
port. It records every call (method, parameters, uploaded files) and answers like Telegram does: getMe,
deleteWebhook, setMyCommands, getUpdates (a long poll that returns as soon as an update is queued; an
update is sent again until the offset confirms it, never after: ``telegram_updates.py``),
getChatAdministrators, sendMessage / sendPhoto / sendDocument (each makes a message with a new id), answerCallbackQuery, editMessageReplyMarkup, getFile and the file download.
Failures can be queued per chat: 403 (the bot was removed), 400 (chat not found) or 429 (too many
requests, with ``retry_after``); a chat in ``no_photos`` refuses pictures (400, not enough rights).

Point PTB at it with ``base_url=fake.base_url`` and ``base_file_url=fake.base_file_url``. Below the fake:
a harness with the real ``TelegramAdapter`` polling it, the real commands layer on a SQLite file, the real
``Alarm`` on a shifted clock, and builders of the updates users' messages and button presses make.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web

from bot.adapters.telegram.adapter import TelegramAdapter
from bot.core.running.clock import ShiftedClock
from bot.systems import make_core
from bot.config import Config
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from tests.bot.conftest import START
from tests.bot.adapters.local_server import serve_locally
from tests.bot.adapters.refusals import RefusalLog
from tests.bot.adapters.telegram_rules import SPEC, GroupLimit, Refused, check_answer, check_request
from tests.bot.adapters.telegram_updates import Updates

TOKEN = "123456:TEST-token"
BOT_ID = 123456
BOT_USERNAME = "clubbot"
GROUP = -1001000000001  # the club's supergroup
GROUP_TITLE = "Schaakclub De Toren"
NOW = 1796131200  # a Unix time for the messages' dates
SEND_METHODS = ("sendMessage", "sendPhoto", "sendDocument")
QUERY_TIMEOUT = 15.0  # seconds after which answerCallbackQuery says "query is too old"
NOT_MODIFIED = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"
# Telegram numbers a bot's updates once and for all: a fake started again (on the same database) goes on
# from where the last one stopped, as the bot's inbox (telegram_inbox) would see it
UPDATE_IDS = itertools.count(1)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # field -> (filename, content)
    status: int = 200
    result: Any = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> str:
        return str(self.params.get("chat_id"))

    @property
    def text(self) -> str:
        return str(self.params.get("text") or self.params.get("caption") or "")


def _value(raw: str) -> Any:
    """PTB sends every parameter as a form field; objects and lists JSON-encoded, plain strings as-is."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw


FULL_INFO = {"accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": {"unlimited_gifts": False, "limited_gifts": False,
             "unique_gifts": False, "premium_subscription": False, "gifts_from_channels": False}}  # fmt: skip  # what every getChat answer carries


class FakeError(Exception):
    """An API error the fake answers (``{"ok": false}`` with this status and description)."""

    def __init__(self, status: int, description: str, arranged: bool = False) -> None:
        super().__init__(description)
        self.status, self.description, self.arranged = status, description, arranged  # arranged: by the test


class FakeTelegram:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.updates = Updates()  # as Telegram keeps them: sent again until confirmed, never after
        self.admins: dict[str, list[int]] = {}
        self.channels: dict[str, int] = {}  # chat id (or @name) -> numeric id, of the chats that are channels
        self.files: dict[str, bytes] = {}
        self._failures: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self._message_ids = itertools.count(5000)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.max_poll_wait = 1.0
        self.revoked = False  # True: the token revoked at @BotFather, every request answers 401 Unauthorized
        self.group_limit = GroupLimit()  # Telegram's 20 messages a minute to one group, then 429
        self.messages: dict[tuple[str, int], dict[str, Any]] = {}  # (chat id, message id) -> the bot's message
        self.queries: dict[str, float] = {}  # callback query id -> when it was pushed (on ``clock``)
        self.answered: set[str] = set()
        self.query_timeout = QUERY_TIMEOUT
        self.blocked: set[int] = set()  # users who blocked the bot: 403 on a message to their private chat
        self.no_photos: set[str] = set()  # chats whose permissions do not let the bot send photos
        self.checked = 0  # requests checked against the Bot API description
        self.violations: list[str] = []  # what the fake's own answers lack (the fixture fails the test on any)
        self.refusals = RefusalLog("Telegram")  # every refusal (refusals.py)
        self.before_answer: Callable[[Call], Awaitable[None]] | None = None  # awaited before a sent message's answer

    # ------------------------------------------------------------------ lifecycle
    async def start(self, port: int = 0) -> "FakeTelegram":
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._api)
        app.router.add_route("GET", "/file/bot{token}/{path:.*}", self._file)
        self._runner, self.port = await serve_locally(app, port, shutdown_timeout=1.0)
        return self

    async def close(self) -> None:
        self.updates.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    # ------------------------------------------------------------------ test controls
    def push(self, update: dict[str, Any]) -> int:
        """Queue an update for the bot's next getUpdates; returns its update_id."""
        update = {"update_id": next(UPDATE_IDS), **update}
        if "callback_query" in update:
            self.queries[update["callback_query"]["id"]] = self.clock()
        self.updates.push(update)
        return int(update["update_id"])

    def fail_chat(
        self, chat_id: int | str, status: int, times: int = 1, retry_after: int = 30, after: int = 0,
        migrate_to: int | None = None, description: str | None = None,
    ) -> None:
        """The next ``times`` messages to the chat fail with ``status`` (after ``after`` that succeed): 403 (the
        bot was removed), 400 (chat not found; ``migrate_to``: the group became that supergroup) or 429."""
        body: dict[str, Any] = {
            403: {"ok": False, "error_code": 403, "description": "Forbidden: bot was kicked from the supergroup chat"},
            400: {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
            429: {
                "ok": False, "error_code": 429, "description": f"Too Many Requests: retry after {retry_after}",
                "parameters": {"retry_after": retry_after},
            },
        }[status]  # fmt: skip
        if migrate_to is not None:
            body = {"ok": False, "error_code": 400, "description": "Bad Request: group chat was upgraded to a supergroup chat",
                    "parameters": {"migrate_to_chat_id": migrate_to}}  # fmt: skip
        if description is not None:  # e.g. 403 "Forbidden: bot can't initiate conversation with a user"
            body = {**body, "description": description}
        queue = self._failures.setdefault(str(chat_id), [])
        queue.extend([(200, {})] * after + [(status, body)] * times)

    def group_limit_window(self, seconds: float, clock: Callable[[], float] | None = None) -> None:
        """The per-group limit counted over ``seconds`` (Telegram: 60) on ``clock`` (default the real
        monotonic one; also the clock of button presses), from now on."""
        self.group_limit.reset(seconds, clock or time.monotonic)

    @property
    def clock(self) -> Callable[[], float]:
        return self.group_limit.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.group_limit.clock = clock

    def allow(self, chat_id: int | str) -> None:
        """No more failures for the chat."""
        self._failures.pop(str(chat_id), None)

    def of(self, *methods: str) -> list[Call]:
        return [c for c in self.calls if c.method in methods]

    def sent(self, chat_id: int | str | None = None, ok_only: bool = True) -> list[Call]:
        """The messages sent (text, photo, document), optionally to one chat; by default only those that
        went out."""
        return [
            c
            for c in self.of("sendMessage", "sendPhoto", "sendDocument")
            if (chat_id is None or c.chat_id == str(chat_id)) and (c.ok or not ok_only)
        ]

    # ------------------------------------------------------------------ the API
    async def _file(self, request: web.Request) -> web.StreamResponse:
        content = self.files.get(request.match_info["path"])
        if content is None:
            raise web.HTTPNotFound()
        return web.Response(body=content)

    async def _api(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != TOKEN or self.revoked:  # a revoked token: the test arranged it
            return self._refuse(Call(request.match_info["method"], {}), 401, {"description": "Unauthorized"}, self.revoked)
        method = request.match_info["method"]
        params: dict[str, Any] = {}
        files: dict[str, tuple[str, bytes]] = {}
        if request.content_type == "application/json":
            params = await request.json()
        elif request.can_read_body:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = (value.filename, value.file.read())
                else:
                    params[key] = _value(str(value))
        call = Call(method, params, files)
        self.checked += 1
        if method != "getUpdates":
            self.calls.append(call)
        try:
            check_request(method, params, files)
        except Refused as err:
            return self._refuse(call, 400, {"description": f"Bad Request: {err}"})
        handler = getattr(self, "api_" + method, None)
        if handler is None:
            return self._refuse(call, 404, {"description": "Not Found"})
        failures = self._failures.get(str(params.get("chat_id")))
        if method.startswith("send") and failures:
            status, body = failures.pop(0)
            if status != 200:
                return self._refuse(call, status, body, arranged=True)
        if method in SEND_METHODS and str(params.get("chat_id")).isdigit() and int(params["chat_id"]) in self.blocked:
            return self._refuse(call, 403, {"description": "Forbidden: bot was blocked by the user"}, arranged=True)
        if method in SEND_METHODS:
            limited = self.group_limit.refuse(str(params.get("chat_id")))
            if limited is not None:
                return self._refuse(call, 429, limited)
        try:
            result = await handler(params, files)
        except FakeError as err:
            return self._refuse(call, err.status, {"description": err.description}, err.arranged)
        try:
            check_answer(method, result)
        except Refused as err:
            self.violations.append(str(err))
        call.result = result
        if method in SEND_METHODS:
            self.updates.answered(params)
            if self.before_answer is not None:  # the message exists; the bot has not heard so yet
                await self.before_answer(call)
        return web.json_response({"ok": True, "result": result})

    def _refuse(self, call: Call, status: int, body: dict[str, Any], arranged: bool = False) -> web.Response:
        """Telegram's error answer; kept in ``refusals`` (refusals.py: it fails the test unless expected)."""
        call.status = status
        self.refusals.record(call.method, status, str(body.get("description")), arranged)
        return web.json_response({"ok": False, "error_code": status, **body}, status=status)

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": BOT_ID, "is_bot": True, "first_name": "Clubbot", "username": BOT_USERNAME,
            "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": False,
        }  # fmt: skip

    async def api_getMe(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return self._bot_user()

    async def api_deleteWebhook(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return True

    async def api_setMyCommands(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return True

    async def api_getUpdates(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return await self.updates.get(params, self.max_poll_wait)

    def channel(self, chat_id: int | str, admins: list[int], bot_posts: bool = True) -> None:
        """A Telegram channel: its administrators (the first its creator), the bot among them when it may post."""
        self.channels[str(chat_id)] = -1009000000000 - len(self.channels) if str(chat_id).startswith("@") else int(chat_id)
        self.admins[str(chat_id)] = admins + ([BOT_ID] if bot_posts else [])

    async def api_getChat(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        chat_id = str(params.get("chat_id"))
        if chat_id in self.channels:
            return {"id": self.channels[chat_id], "type": "channel", "title": f"Kanaal {chat_id}", **FULL_INFO}
        if chat_id in self.admins:
            return {"id": int(chat_id), "type": "supergroup", "title": GROUP_TITLE, **FULL_INFO}
        raise FakeError(400, "Bad Request: chat not found")

    async def api_getChatAdministrators(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        chat_id = str(params.get("chat_id"))
        ids = self.admins.get(chat_id, [])
        rights = {**ADMIN_RIGHTS, "can_post_messages": True, "can_edit_messages": True} if chat_id in self.channels else ADMIN_RIGHTS
        return [
            {"status": "creator" if i == 0 else "administrator", "user": self._bot_user() if uid == BOT_ID else user(uid, f"Admin {uid}"),
             "is_anonymous": False, **({} if i == 0 else rights)}
            for i, uid in enumerate(ids)
        ]  # fmt: skip

    def _message(self, params: dict[str, Any], **content: Any) -> dict[str, Any]:
        chat_id = params.get("chat_id")
        chat: dict[str, Any] = {"id": int(chat_id), "type": "supergroup", "title": GROUP_TITLE}
        if int(chat_id) > 0:
            chat = {"id": int(chat_id), "type": "private", "first_name": "someone"}
        message = {"message_id": next(self._message_ids), "date": NOW, "chat": chat, "from": self._bot_user(), **content}
        if "reply_markup" in params:
            message["reply_markup"] = params["reply_markup"]
        if params.get("message_thread_id"):
            message["message_thread_id"] = int(params["message_thread_id"])
            message["is_topic_message"] = True
        self.messages[(str(chat_id), message["message_id"])] = message
        return message

    async def api_sendMessage(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return self._message(params, text=params["text"])

    async def api_sendPhoto(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        if str(params["chat_id"]) in self.no_photos:  # as Telegram answers: the text would go, the photo does not
            raise FakeError(400, "Bad Request: not enough rights to send photos to the chat", arranged=True)
        photo = [{"file_id": "photo-1", "file_unique_id": "p1", "width": 800, "height": 600}]
        extra = {"caption": params["caption"]} if params.get("caption") else {}
        return self._message(params, photo=photo, **extra)

    async def api_sendDocument(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        name = files["document"][0] if "document" in files else "file"
        return self._message(params, document={"file_id": "doc-1", "file_unique_id": "d1", "file_name": name})

    async def api_answerCallbackQuery(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        """Once per press, within ``query_timeout`` of it; else Telegram's "query is too old"."""
        query_id = str(params["callback_query_id"])
        pressed = self.queries.get(query_id)
        if pressed is None or query_id in self.answered or self.clock() - pressed > self.query_timeout:
            raise FakeError(400, QUERY_TOO_OLD)
        self.answered.add(query_id)
        return True

    async def api_editMessageReplyMarkup(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        """The bot's message with the new keyboard; the same keyboard again is "message is not modified"."""
        message = self.messages.get((str(params.get("chat_id")), int(params.get("message_id") or 0)))
        if message is None:
            raise FakeError(400, "Bad Request: message to edit not found")
        markup = params.get("reply_markup") or None
        if markup == (message.get("reply_markup") or None) or markup == {"inline_keyboard": []} and "reply_markup" not in message:
            raise FakeError(400, NOT_MODIFIED)
        if markup is None:
            message.pop("reply_markup", None)
        else:
            message["reply_markup"] = markup
        return message

    async def api_getFile(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        file_id = str(params["file_id"])
        path = f"documents/{file_id}"
        return {"file_id": file_id, "file_unique_id": file_id, "file_size": len(self.files[path]), "file_path": path}


ADMIN_RIGHTS = {
    "can_be_edited": False, "can_manage_chat": True, "can_change_info": True, "can_delete_messages": True,
    "can_invite_users": True, "can_restrict_members": True, "can_pin_messages": True, "can_promote_members": False,
    "can_manage_video_chats": True, "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
}  # fmt: skip


# ---------------------------------------------------------------------------------------------- updates
def user(user_id: int, name: str, language: str = "nl") -> dict[str, Any]:
    first, _, last = name.partition(" ")
    data: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first, "language_code": language}
    if last:
        data["last_name"] = last
    return data


GROUP_CHAT = {"id": GROUP, "type": "supergroup", "title": GROUP_TITLE}


def message(
    sender: dict[str, Any], text: str, chat: dict[str, Any] | None = None, message_id: int = 1, **extra: Any
) -> dict[str, Any]:
    """A user's message; a leading /command gets its bot_command entity, as Telegram does."""
    chat = chat or GROUP_CHAT
    body: dict[str, Any] = {"message_id": message_id, "date": NOW, "chat": chat, "from": sender, "text": text, **extra}
    if text.startswith("/"):
        body["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
    return {"message": body}


def private_chat(sender: dict[str, Any]) -> dict[str, Any]:
    return {"id": sender["id"], "type": "private", "first_name": sender["first_name"]}


def callback(sender: dict[str, Any], on: dict[str, Any], data: str) -> dict[str, Any]:
    """A press of the button with ``data`` under the bot's message ``on`` (a recorded call's result)."""
    return {"callback_query": {"id": f"cq-{sender['id']}-{on['message_id']}", "from": sender,
                               "chat_instance": "ci-1", "message": on, "data": data}}  # fmt: skip


def buttons(call: Call) -> list[dict[str, Any]]:
    markup = call.params.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


# ---------------------------------------------------------------------------------------------- harness
class Harness:
    """The real adapter polling the fake, with the real commands layer, store and alarm."""

    def __init__(self, fake: FakeTelegram, store: Store, config: Config) -> None:
        self.fake = fake
        self.store = store
        self.clock = ShiftedClock(START)
        self.commands = make_core(store, config, self.clock)
        self.sent_announcements: list[int] = []
        self.adapter: TelegramAdapter | None = None
        self.wait_for_queued = True  # send() also waits for replies queued behind a group's rate limit

        async def send(club: Club, announcement: Announcement) -> None:
            assert self.adapter is not None and club.platform == "telegram"
            await self.adapter.send_announcement(club, announcement)
            self.sent_announcements.append(announcement.id)

        self.alarm = Alarm(self.commands, send)
        config = Config(**{**config.__dict__, "telegram_token": TOKEN})
        self.adapter = TelegramAdapter(
            self.commands, config, self.alarm.after_command,
            base_url=fake.base_url, base_file_url=fake.base_file_url, poll_timeout=10, max_retry_wait=1.0,
        )  # fmt: skip

    async def start(self) -> None:
        assert self.adapter is not None
        await self.adapter.start()
        await self.alarm.start()

    async def stop(self) -> None:
        assert self.adapter is not None
        self.alarm.shutdown()
        await self.adapter.stop()

    async def send(self, update: dict[str, Any], timeout: float = 10.0) -> list[Call]:
        """Push an update, wait until the adapter has handled it; the calls it made."""
        assert self.adapter is not None
        before_calls = len(self.fake.calls)
        before = self.adapter.handled
        self.fake.push(update)
        async with asyncio.timeout(timeout):
            while self.adapter.handled == before:
                await asyncio.sleep(0.005)
            if self.wait_for_queued:
                await self.adapter.replies_out()
        return self.fake.calls[before_calls:]

    async def say(self, sender: dict[str, Any], text: str, chat: dict[str, Any] | None = None, **extra: Any) -> list[Call]:
        return await self.send(message(sender, text, chat, **extra))


class CheckedCount:
    """The requests the fakes checked in this pytest run, shown in the terminal summary."""

    total = 0

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.write_line(
            f"Telegram fake: {self.total} requests checked against the {SPEC['version']} description ({SPEC['commit'][:12]})"
        )


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    server = await FakeTelegram().start()
    yield server
    await server.close()
    counter = request.config.pluginmanager.get_plugin("telegram-checked")
    if counter is None:
        counter = CheckedCount()
        request.config.pluginmanager.register(counter, "telegram-checked")
    counter.total += server.checked
    assert not server.violations, "the fake's answers lack what the Bot API requires:\n" + "\n".join(server.violations)


@pytest.fixture
async def tg(fake: FakeTelegram, store: Store, config: Config) -> AsyncIterator[Harness]:
    harness = Harness(fake, store, config)
    await harness.start()
    yield harness
    await harness.stop()
