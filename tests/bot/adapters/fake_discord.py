"""A local fake of the Discord REST API, enough for discord.py's HTTP client: aiohttp.web on 127.0.0.1 at a
random port. It records every request (method, path, JSON body, uploaded files) and answers like Discord
does: the bot user and application at login, the command sync, interaction callbacks and webhook
follow-ups, messages posted to channels (with ``enforce_nonce`` de-duplication for ``nonce_window``
seconds, "the past few minutes" on Discord), a channel's history as ``GET .../messages`` pages it
(``limit``, ``before``, ``after``), and attachment downloads. Failures can be queued per channel: 403 (missing access), 404 (unknown channel) or 429
(rate limited, with ``retry_after``).

It also has a gateway (``/gateway``, a websocket with plain-text JSON frames, which discord.py accepts next
to its zlib stream): HELLO, IDENTIFY answered with READY and the guild's GUILD_CREATE, heartbeats, RESUME;
``interaction()`` delivers INTERACTION_CREATE to the connected bot. So a real ``clubbot run`` process can
run against it (``tests/bot/adapters/discord_process.py``).

Point discord.py at it with ``discord.http.Route.BASE = fake.base`` (the webhook client uses the same
Route class), and restore the old value afterwards: the ``fake`` fixture does. Below the fake: a harness
with the real adapter logged in against it (no gateway), and interaction payloads as the gateway
delivers them, run through the real command tree and discord.py's component dispatch.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, AsyncIterator

import discord
import pytest
from aiohttp import web

from bot.adapters.discord.adapter import DiscordAdapter
from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from bot.config import Config
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from tests.bot.conftest import START
from tests.bot.adapters.discord_world import (  # noqa: F401 - the tests take the world from here too
    ANNOUNCE, APP_ID, BOT_ID, BOT_ROLE, DIRECTOR_ROLE, DM_CHANNEL, EPHEMERAL, GENERAL, GUILD, MANAGE_GUILD, OWNER_ID,
    READ_ONLY, TIMESTAMP, USERS, bot_member, guild_payload, ids, interaction_payload, role, slash_payload, text_channel, user_payload,
)
from tests.bot.adapters.discord_gateway import FakeGateway
from tests.bot.adapters.discord_rules import DiscordRules
from tests.bot.adapters.discord_spec import report_count
from tests.bot.adapters.local_server import serve_locally
from tests.bot.adapters.refusals import RefusalLog



def discord_file_name(name: str) -> str:
    """The name Discord gives an uploaded file back: as werkzeug's ``secure_filename`` (ASCII only, path
    separators and spaces to ``_``, nothing but ``[A-Za-z0-9_.-]``, no leading or trailing ``.`` or ``_``)."""
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    for separator in ("/", "\\"):
        name = name.replace(separator, " ")
    return re.sub(r"[^A-Za-z0-9_.-]", "", "_".join(name.split())).strip("._")


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord gives them back: each with its number in the message (1, 2, ...)."""
    count = itertools.count(1)

    def number(component: dict[str, Any]) -> dict[str, Any]:
        own = next(count)
        inner = [number(c) for c in component.get("components") or []]
        return {**component, "id": own, **({"components": inner} if "components" in component else {})}

    return [number(c) for c in components]


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: dict[str, tuple[str, bytes, str]] = field(default_factory=dict)  # field -> (filename, bytes, type)
    status: int = 200
    created: bool = False  # a channel post that made a new message (not a failure, not a de-duplicated repeat)
    headers: dict[str, str] = field(default_factory=dict)  # the answer's rate limit headers
    arranged: bool = False  # refused as the test arranged (``fail_channel``, ``closed_dms``)

    @property
    def content(self) -> str:
        return (self.json or {}).get("content") or "" if isinstance(self.json, dict) else ""


class FakeDiscord(DiscordRules, FakeGateway):
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self._failures: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self._nonces: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}
        self.nonce_window = 300.0  # seconds a nonce is remembered
        self.history: dict[str, list[dict[str, Any]]] = {}  # channel id -> its messages, oldest first
        self.closed_dms: set[int] = set()  # members who do not accept direct messages
        # awaited with each channel post that made a message, before it is answered (a crash test kills the
        # bot there: the message is in the channel, the bot never hears so)
        self.before_answer: Any = None
        self.cdn: dict[str, bytes] = {}
        self.changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        # the gateway: the connected bot's socket once it identified (or resumed), its session and sequence
        self._socket: web.WebSocketResponse | None = None
        self.session_id = ""
        self._seq = 0
        self.ready = asyncio.Event()  # set while a bot is connected and has its READY and GUILD_CREATE
        self.identified = 0  # IDENTIFY count
        self.resumed = 0  # successful RESUME count
        # the checks (discord_spec.py): the rules requests broke, answers of the fake's own the spec would
        # refuse; how many requests were checked
        self.problems: list[str] = []
        self.refusals = RefusalLog("Discord")  # every refusal (refusals.py)
        self.checked = 0
        # interactions delivered: id -> [delivered at, token, acknowledged]; Discord wants the first answer
        # within 3 s (else 10062), one only (else 40060); follow-ups with the token for 15 minutes
        self.interactions: dict[str, list[Any]] = {}
        self.interaction_window = 3.0
        self.token_lifetime = 15 * 60.0
        self.time_shift = 0.0  # seconds added to the fake's clock: a test lets time pass
        # per channel: at most channel_limit posts per channel_period seconds, then 429 (Discord: 5 per 5 s)
        self.channel_limit = 5
        self.channel_period = 5.0
        self._posted: dict[str, list[float]] = {}

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> "FakeDiscord":
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/api/v10/gateway/bot", self._gateway_bot)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner, self.port = await serve_locally(app)
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        return f"{self.url}/api/v10"

    def _record(self, request: web.Request) -> None:
        self.requests.append(Request(request.method, request.path, dict(request.query), None))

    # ------------------------------------------------------------------ test controls
    def fail_channel(self, channel_id: int | str, status: int, times: int = 1, retry_after: float = 0.0) -> None:
        """The next ``times`` posts to the channel fail with ``status``."""
        body: dict[str, Any] = {
            403: {"code": 50001, "message": "Missing Access"},
            404: {"code": 10003, "message": "Unknown Channel"},
            429: {"code": 0, "message": "You are being rate limited.", "retry_after": retry_after, "global": False},
        }.get(status, {"code": 0, "message": "error"})
        self._failures.setdefault(str(channel_id), []).extend([(status, body)] * times)

    def add_file(self, name: str, content: bytes) -> str:
        """Serve ``content`` as an attachment; returns its URL."""
        self.cdn[name] = content
        return f"{self.url}/attachments/{name}"

    def of(self, method: str, prefix: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and r.path.startswith(prefix)]

    def channel_posts(self, channel_id: int | str, created_only: bool = True) -> list[Request]:
        """The posts to a channel: by default only those that made a new message."""
        posts = self.of("POST", f"/api/v10/channels/{channel_id}/messages")
        return [p for p in posts if p.created] if created_only else posts

    def callbacks(self, interaction_id: int | str | None = None) -> list[Request]:
        prefix = "/api/v10/interactions/" + (f"{interaction_id}/" if interaction_id is not None else "")
        return self.of("POST", prefix)

    async def wait_for(self, predicate: Any, timeout: float = 5.0) -> None:
        async def loop() -> None:
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(loop(), timeout)

    # ------------------------------------------------------------------ payloads
    def message(self, channel_id: str, body: dict[str, Any], files: dict[str, tuple[str, bytes, str]]) -> dict[str, Any]:
        attachments = [
            {"id": str(next(self._ids)), "filename": kept, "size": len(data), "url": f"{self.url}/attachments/{kept}",
             "proxy_url": f"{self.url}/attachments/{kept}", "content_type": ctype}
            for kept, data, ctype in ((discord_file_name(name), data, ctype) for name, data, ctype in files.values())
        ]  # fmt: skip
        return {
            "id": str(next(self._ids)), "channel_id": channel_id, "author": user_payload(BOT_ID, "clubbot", bot=True),
            "content": body.get("content") or "", "timestamp": TIMESTAMP, "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
            "embeds": body.get("embeds") or [], "pinned": False, "type": 0, "flags": body.get("flags", 0),
            "components": numbered(body.get("components") or []), "application_id": str(APP_ID),
        }  # fmt: skip

    # ------------------------------------------------------------------ the API
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body: Any = None
        files: dict[str, tuple[str, bytes, str]] = {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(data)
                else:
                    files[str(part.name)] = (  # type: ignore[union-attr]
                        str(part.filename), bytes(data), part.headers.get("Content-Type", ""),  # type: ignore[union-attr]
                    )
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        record = Request(request.method, request.path, dict(request.query), body, files)
        self.requests.append(record)
        try:
            status, answer = self._checked(record, request.content_type.startswith("multipart/"))
        finally:
            self.changed.set()
        record.status = status
        if record.created and self.before_answer is not None:
            await self.before_answer(record)
        if status == 204:
            return web.Response(status=204)
        headers = {**record.headers, "Via": "1.1 google"} if status == 429 else dict(record.headers)
        if isinstance(answer, bytes):
            return web.Response(status=status, body=answer, content_type="application/octet-stream")
        # discord.py parses JSON only under exactly "application/json" (no charset), as Discord sends it
        headers["Content-Type"] = "application/json"
        return web.Response(status=status, body=json.dumps(answer).encode("utf-8"), headers=headers)

    def _answer(self, r: Request) -> tuple[int, Any]:
        parts = r.path.strip("/").split("/")
        if parts[0] == "attachments" and len(parts) == 2 and parts[1] in self.cdn:
            return 200, self.cdn[parts[1]]
        if parts[:2] != ["api", "v10"]:
            return 404, {"code": 0, "message": "404: Not Found"}
        p = parts[2:]
        if r.method == "GET" and p == ["users", "@me"]:
            return 200, {**user_payload(BOT_ID, "clubbot", bot=True), "mfa_enabled": False, "locale": "nl"}
        if r.method == "GET" and p == ["oauth2", "applications", "@me"]:
            return 200, {
                "id": str(APP_ID), "name": "clubbot", "description": "", "icon": None, "bot_public": False,
                "bot_require_code_grant": False, "owner": user_payload(OWNER_ID, "owner"), "verify_key": "0" * 64,
                "flags": 0, "type": None, "flags_new": "0", "redirect_uris": [], "interactions_endpoint_url": None,
                "role_connections_verification_url": None, "approximate_guild_count": 1,
                "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0, "team": None, "eligible_oauth2_scopes": [],
            }  # fmt: skip
        if r.method == "PUT" and len(p) >= 3 and p[0] == "applications" and p[-1] == "commands":
            commands = [self._command(c) for c in r.json]
            return 200, commands
        if r.method == "GET" and p[0] == "users" and len(p) == 2 and p[1] != "@me":
            name = next((n for n, uid in USERS.items() if str(uid) == p[1]), None)
            return (200, user_payload(int(p[1]), name)) if name else (404, {"code": 10013, "message": "Unknown User"})
        if r.method == "POST" and p == ["users", "@me", "channels"]:  # open a DM channel with a member
            uid = int((r.json or {}).get("recipient_id", 0))
            name = next((n for n, u in USERS.items() if u == uid), "?")
            return 200, {"id": str(DM_CHANNEL + uid % 1000), "type": 1, "flags": 0, "recipients": [user_payload(uid, name)]}
        if r.method == "GET" and p[0] == "guilds" and len(p) == 4 and p[2] == "members":
            if p[1] == str(GUILD) and p[3] == str(BOT_ID):
                return 200, bot_member()
            return 404, {"code": 10007, "message": "Unknown Member"}
        if r.method == "POST" and p[0] == "interactions" and p[-1] == "callback":
            return self._callback(r, p[1], p[2])
        if p[0] == "webhooks" and len(p) >= 3:
            refused = self._token(p[2])
            if refused is not None:
                return refused
            if r.method == "DELETE":
                return 204, None
            return 200, self.message("0", r.json or {}, r.files)
        if r.method == "POST" and p[0] == "channels" and p[-1] == "messages":
            return self._post(r, p[1])
        if r.method == "GET" and p[0] == "channels" and len(p) == 3 and p[2] == "messages":
            return self._history(r, p[1])
        return 404, {"code": 0, "message": f"404: no fake for {r.method} {r.path}"}

    def _command(self, command: dict[str, Any]) -> dict[str, Any]:
        """A registered command as Discord gives it back (permissions as a string)."""
        permissions = command.get("default_member_permissions")
        return {
            **command, "id": str(next(self._ids)), "application_id": str(APP_ID), "version": "1",
            "default_member_permissions": None if permissions is None else str(permissions),
        }  # fmt: skip

    def _callback(self, r: Request, interaction_id: str, token: str) -> tuple[int, Any]:
        known = self.interactions.get(interaction_id)
        if known is None or known[1] != token or (not known[2] and self.now() - known[0] > self.interaction_window):
            return 404, {"code": 10062, "message": "Unknown interaction"}
        if known[2]:
            return 400, {"code": 40060, "message": "Interaction has already been acknowledged."}
        known[2] = True
        body = r.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        message = self.message("0", data, r.files) if kind in (4, 5, 7) else None
        answer: dict[str, Any] = {
            "interaction": {
                "id": interaction_id, "type": 2, "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(data.get("flags", 0) & 64),
            },
        }  # fmt: skip
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
        if kind in (4, 7):  # the description has no resource for a deferred answer (5)
            answer["resource"] = {"type": kind, "message": message}
        return 200, answer

    def _post(self, r: Request, channel_id: str) -> tuple[int, Any]:
        if any(str(DM_CHANNEL + uid % 1000) == channel_id for uid in self.closed_dms):  # as Discord: the DM opens, no message goes
            r.arranged = True
            return 403, {"code": 50007, "message": "Cannot send messages to this user"}
        queue = self._failures.get(channel_id)
        if queue:
            r.arranged = True
            return queue.pop(0)
        limited = self._rate_limit(r, channel_id)
        if limited is not None:
            return limited
        body = r.json or {}
        nonce = body.get("nonce")
        seen = self._nonces.get((channel_id, nonce)) if nonce else None
        if seen is not None and body.get("enforce_nonce") and time.monotonic() - seen[0] < self.nonce_window:
            return 200, seen[1]
        message = self.message(channel_id, body, r.files)
        r.created = True
        self.history.setdefault(channel_id, []).append(message)
        if nonce:
            self._nonces[(channel_id, nonce)] = (time.monotonic(), message)
        return 200, message

    def say(self, channel_id: int | str, user: str, content: str) -> dict[str, Any]:
        """A member's message in a channel's history."""
        message = self.message(str(channel_id), {"content": content}, {})
        message["author"] = user_payload(USERS[user], user)
        self.history.setdefault(str(channel_id), []).append(message)
        return message

    def _history(self, r: Request, channel_id: str) -> tuple[int, Any]:
        """Newest first, like Discord: the ``limit`` messages just before ``before`` (or the newest), or the
        ``limit`` messages just after ``after``."""
        messages = self.history.get(channel_id, [])
        limit = min(100, int(r.query.get("limit", 50)))
        if "after" in r.query:
            after = int(r.query["after"])
            page = [m for m in messages if int(m["id"]) > after][:limit]
        else:
            before = int(r.query["before"]) if "before" in r.query else None
            page = [m for m in messages if before is None or int(m["id"]) < before][-limit:]
        return 200, list(reversed(page))


# -------------------------------------------------------------------------------------------------- driving the real client

def press_payload(fake: FakeDiscord, answer: Request, label_part: str, user: str, **kw: Any) -> dict[str, Any]:
    """Pressing the button whose label contains ``label_part`` on the message an earlier answer made."""
    body = answer.json["data"]
    buttons = [c for row in body["components"] for c in row["components"]]
    (button,) = [b for b in buttons if label_part in b["label"]]
    message = fake.message(str(GENERAL), body, answer.files)
    message["components"] = body["components"]
    data = {"custom_id": button["custom_id"], "component_type": 2}
    return interaction_payload(3, data, user, message=message, **kw)


@dataclass
class Harness:
    fake: FakeDiscord
    store: Store
    clock: ShiftedClock
    commands: Core
    alarm: Alarm
    adapter: DiscordAdapter

    @property
    def client(self) -> discord.Client:
        return self.adapter.client

    # ------------------------------------------------------------------ payloads
    def payload(self, kind: int, data: dict[str, Any], user: str, **kw: Any) -> dict[str, Any]:
        """An interaction Discord delivers now (it may be answered within 3 s)."""
        payload = interaction_payload(kind, data, user, **kw)
        self.fake.delivered(payload)
        return payload

    def slash(self, name: str, user: str, options: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        payload = slash_payload(name, user, options, **kw)
        self.fake.delivered(payload)
        return payload

    # ------------------------------------------------------------------ driving
    async def command(self, name: str, user: str, options: dict[str, Any] | None = None, **kw: Any) -> Request:
        """Run a slash command through the real tree and callbacks; the interaction's answer."""
        payload = self.slash(name, user, options, **kw)
        interaction = discord.Interaction(data=payload, state=self.client._connection)  # type: ignore[arg-type]
        await self.client.tree._call(interaction)  # type: ignore[attr-defined]
        answers = self.fake.callbacks(payload["id"])
        assert len(answers) == 1, (name, user, answers)
        return answers[0]

    async def autocomplete(
        self, name: str, user: str, focused: str, value: Any, others: dict[str, Any] | None = None, **kw: Any
    ) -> list[dict[str, Any]]:
        """The choices offered for option ``focused`` while ``value`` is typed (``others``: options already set)."""
        kinds = {bool: 5, int: 4, str: 3}
        options = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in (others or {}).items()]
        options.append({"name": focused, "type": kinds[type(value)], "value": value, "focused": True})
        data = {"id": str(next(ids)), "name": name, "type": 1, "options": options}
        payload = self.payload(4, data, user, **kw)
        interaction = discord.Interaction(data=payload, state=self.client._connection)  # type: ignore[arg-type]
        await self.client.tree._call(interaction)  # type: ignore[attr-defined]
        (answer,) = self.fake.callbacks(payload["id"])
        assert answer.json["type"] == 8
        return list(answer.json["data"]["choices"])

    async def press(self, answer: Request, label_part: str, user: str, **kw: Any) -> Request:
        """Press a button of an earlier answer, as the gateway would deliver it: through discord.py's
        interaction dispatch (the component's custom_id finds the dynamic button)."""
        payload = press_payload(self.fake, answer, label_part, user, **kw)
        self.fake.delivered(payload)
        self.client._connection.parse_interaction_create(payload)  # type: ignore[attr-defined]
        await self.fake.wait_for(lambda: self.fake.callbacks(payload["id"]))
        await self.adapter.idle()
        (reply,) = self.fake.callbacks(payload["id"])
        return reply


def content(request: Request) -> str:
    return str(request.json["data"].get("content") or "")


def flags(request: Request) -> int:
    return int(request.json["data"].get("flags") or 0)


async def harness(
    config: Config, fake: FakeDiscord, retry_after: timedelta = timedelta(seconds=60), store: Store | None = None
) -> Harness:
    """The real adapter on ``store`` (else a SQLite file at the config's path), logged in to the fake."""
    config = Config(**{**config.__dict__, "discord_token": "test-token", "discord_director_role": "wedstrijdleider"})
    store = store or await Store.open(config.db_path)
    clock = ShiftedClock(START)
    commands = make_core(store, config, clock)
    box: list[DiscordAdapter] = []

    async def send(club: Club, announcement: Announcement) -> str | None:
        return await box[0].send_announcement(club, announcement)

    alarm = Alarm(commands, send, retry_after=retry_after)
    adapter = DiscordAdapter(commands, config, alarm.after_command)
    box.append(adapter)
    await adapter.start(connect=False)  # logs in over REST and syncs the commands; no gateway
    adapter.client._connection._add_guild_from_data(guild_payload())  # type: ignore[attr-defined]
    await alarm.start()  # the real APScheduler: it wakes the bot when something falls due
    return Harness(fake, store, clock, commands, alarm, adapter)


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """The fake, with discord.py pointed at it; the test fails at its end if an answer of the fake's lacked what
    the spec requires (and, through ``refusals.py``, if the fake refused a request the test did not expect it to)."""
    report_count(request.config)
    server = await FakeDiscord().start()
    old = discord.http.Route.BASE
    discord.http.Route.BASE = server.base
    try:
        yield server
    finally:
        discord.http.Route.BASE = old
        await server.close()
    broken = list(dict.fromkeys(server.problems))
    assert not broken, f"{len(broken)} rule(s) of Discord's API broken:\n" + "\n".join(broken[:40])


@pytest.fixture
async def bot(config: Config, fake: FakeDiscord) -> AsyncIterator[Harness]:
    h = await harness(config, fake)
    try:
        yield h
    finally:
        h.alarm.shutdown()
        await h.adapter.stop()
        await h.store.close()
