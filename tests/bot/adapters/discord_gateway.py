"""The fake Discord's gateway (``/gateway``, a websocket with plain-text JSON frames, which discord.py accepts
next to its zlib stream): HELLO, IDENTIFY answered with READY and the guild's GUILD_CREATE, heartbeats,
RESUME; ``interaction()`` delivers INTERACTION_CREATE to the connected bot."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

from aiohttp import WSMsgType, web

from tests.bot.adapters.discord_world import APP_ID, BOT_ID, GUILD, guild_payload, user_payload


class FakeGateway:
    """The gateway half of ``FakeDiscord`` (which sets the attributes it uses)."""

    port: int
    requests: list[Any]
    changed: asyncio.Event
    _socket: web.WebSocketResponse | None
    session_id: str
    _seq: int
    ready: asyncio.Event
    identified: int
    resumed: int
    revoked = False  # the token reset in the Developer Portal (``revoke``): the gateway closes with 4004

    def _record(self, request: web.Request) -> None:
        raise NotImplementedError

    def delivered(self, payload: dict[str, Any]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ the gateway
    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def _gateway_bot(self, request: web.Request) -> web.StreamResponse:
        self._record(request)
        self.changed.set()
        return web.json_response({
            "url": self.gateway_url, "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })  # fmt: skip

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        """One bot's connection: HELLO, then IDENTIFY (READY, GUILD_CREATE) or RESUME, and heartbeats."""
        self._record(request)
        self.changed.set()
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": 41250}}))
        try:
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op, data = message.get("op"), message.get("d") or {}
                if op == 1:  # heartbeat
                    await ws.send_str(json.dumps({"op": 11, "s": None, "t": None, "d": None}))
                if op in (2, 6) and self.revoked:  # identify or resume with a revoked token
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                if op == 2:  # identify: a new session
                    self.identified += 1
                    self.session_id, self._seq = uuid.uuid4().hex, 0
                    self._socket = ws
                    await self._dispatch("READY", {
                        "v": 10, "user": user_payload(BOT_ID, "clubbot", bot=True), "session_id": self.session_id,
                        "resume_gateway_url": self.gateway_url, "guilds": [{"id": str(GUILD), "unavailable": True}],
                        "shard": [0, 1], "application": {"id": str(APP_ID), "flags": 0},
                    })  # fmt: skip
                    await self._dispatch("GUILD_CREATE", {**guild_payload(), "unavailable": False})
                    self.ready.set()
                elif op == 6:  # resume the session (nothing was missed: the fake sends only on request)
                    if data.get("session_id") != self.session_id:
                        await ws.send_str(json.dumps({"op": 9, "s": None, "t": None, "d": False}))
                        continue
                    self.resumed += 1
                    self._socket = ws
                    await self._dispatch("RESUMED", {})
                    self.ready.set()
                self.changed.set()
        finally:
            if self._socket is ws:
                self._socket = None
                self.ready.clear()
            self.changed.set()
        return ws

    async def revoke(self) -> None:
        """The bot's token reset in the Developer Portal: Discord closes its gateway connection with 4004
        (authentication failed), and closes so any that identifies or resumes with it."""
        self.revoked = True
        if self._socket is not None:
            await self._socket.close(code=4004, message=b"Authentication failed.")

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        if self._socket is None:
            raise RuntimeError(f"no bot connected to the gateway for {event}")
        self._seq += 1
        await self._socket.send_str(json.dumps({"op": 0, "s": self._seq, "t": event, "d": data}))

    async def interaction(self, payload: dict[str, Any], timeout: float = 30.0) -> None:
        """Deliver an interaction (``interaction_payload``, ``slash_payload``, ``press_payload``) to the bot
        as Discord does: INTERACTION_CREATE over the gateway, once a bot is connected."""
        await asyncio.wait_for(self.ready.wait(), timeout)
        self.delivered(payload)
        await self._dispatch("INTERACTION_CREATE", payload)


