"""A chat platform that ended the bot's session for good while it ran (issue 46 §3): a Telegram token
revoked (getUpdates answers 401 Unauthorized), another process polling with the same token for longer
than a restart takes (409 Conflict), Discord's gateway closing with 4004 (authentication failed) or
another code it does not reconnect after. The adapter says so once (``Lost``); ``bot/app.py`` logs the
reason in one line, ``/healthz`` turns bad, and the process exits with status 1 so that its supervisor
starts it again (a new token in place: it runs; still refused: the start says so)."""

from __future__ import annotations

import asyncio


class Lost:
    """Set once, with the one line that says what ended and what to do."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.reason = ""

    def __call__(self, reason: str) -> None:
        if not self.event.is_set():
            self.reason = reason
            self.event.set()

    def __bool__(self) -> bool:
        return self.event.is_set()


# Discord's gateway close codes after which discord.py does not reconnect, and what the operator does
GATEWAY_CLOSED = {
    4004: "authentication failed: the bot's token was reset or revoked in Discord's Developer Portal; put the new "
          "token in CLUBBOT_DISCORD_TOKEN and start the bot again",
    4010: "an invalid shard was sent: check --shards and --shard-count",
    4011: "the bot is in too many servers for one connection: run it sharded (--shard-count)",
    4012: "an invalid gateway version: update clubbot (discord.py)",
    4013: "invalid intents: update clubbot (discord.py)",
    4014: "disallowed intents: enable them for the bot in Discord's Developer Portal",
}  # fmt: skip


def gateway_lost(exc: BaseException) -> str:
    """The one line for the Discord gateway connection that ended with ``exc`` and is not reconnected."""
    code = getattr(exc, "code", None)
    if code in GATEWAY_CLOSED:
        return f"Discord closed the gateway connection with {code}, {GATEWAY_CLOSED[code]}"
    return f"the Discord gateway connection ended and is not reconnected: {exc!r}"
