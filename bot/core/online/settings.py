"""This bot's online play (``core.online``): on only with a lichess token in the environment (``[lichess]
token_env``), and then one client of lichess for the whole process, made at its first use.

- ``core.online.on``: what a command asks before offering ``online=lichess`` (off: it says so and changes
  nothing). With online play off there is no client at all: ``client()`` raises ``OnlineOff``, so no code
  path can make a request to lichess.
- ``core.online.client()``: the process's one ``Lichess`` (``lichess.py``), so that its lock and its pause
  after a 429 hold for every request the process makes.
- ``core.online.turn``: on PostgreSQL with several processes, whether this process does the lichess work
  (``LichessTurn``); lichess's rules are a client's, and only one process's client may be talking to it.
- ``log_at_start(config)``: the one line in the log at start saying whether online play is on.
"""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING

from bot.core.online.lichess import Lichess, Timing

if TYPE_CHECKING:
    from bot.config import Config
    from bot.core.storage.store import Store

log = logging.getLogger(__name__)

LICHESS_CLAIM = "online:lichess"  # the store's claim the process doing the lichess work holds


class OnlineOff(RuntimeError):
    """Online play is off (no lichess token): nothing may ask lichess anything."""


class LichessTurn:
    """Whether this process does the lichess work. It holds the store's claim ``LICHESS_CLAIM`` from the first
    time it gets it until ``release()`` (the process stops; or its connection drops, and PostgreSQL lets the
    advisory lock go), so one process at a time talks to lichess and keeps its pause after a 429; the others
    skip the lichess work and ask again at their next pass, taking over when the holder is gone. On SQLite
    one process has the file: it is always this one's turn."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._stack: AsyncExitStack | None = None

    async def mine(self) -> bool:
        if self._stack is not None:
            return True
        stack = AsyncExitStack()
        held = await stack.enter_async_context(self.store.claim(LICHESS_CLAIM))
        if not held:
            await stack.aclose()
            return False
        self._stack = stack
        return True

    async def release(self) -> None:
        if self._stack is not None:
            stack, self._stack = self._stack, None
            await stack.aclose()


class Online:
    def __init__(self, config: Config | None, store: Store, timing: Timing | None = None) -> None:
        # None: a Core built only for its registry (tests' make_core(None, None, None)): online play off
        self.url = config.lichess_url if config is not None else ""
        self._token = config.lichess_token if config is not None else None
        self.timing = timing  # the client's clock (tests: the fake lichess's), set before its first use
        self._client: Lichess | None = None
        self.turn = LichessTurn(store)

    @property
    def on(self) -> bool:
        return self._token is not None

    def client(self) -> Lichess:
        if self._token is None:
            raise OnlineOff("online play is off: no lichess token ([lichess] token_env)")
        if self._client is None:
            self._client = Lichess(self.url, self._token, timing=self.timing)
        return self._client

    async def close(self) -> None:
        """At the end of the process: the client's connections closed, the claim let go."""
        if self._client is not None:
            await self._client.close()
        await self.turn.release()


def log_at_start(config: Config) -> None:
    """Said once, at start: whether this bot plays online, and where (never the token)."""
    if config.online_play:
        log.info("online play on: lichess at %s, with the token from %s", config.lichess_url, config.lichess_token_env)
    else:
        log.info("online play off: no lichess token in the environment variable %s ([lichess] token_env); "
                 "seasons cannot be played online until it is set", config.lichess_token_env or "(none named)")  # fmt: skip
