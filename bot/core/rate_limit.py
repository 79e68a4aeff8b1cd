"""Staying within a chat platform's limits while a thousand clubs' announcements go out at one minute.

A platform declares its limits (``SendLimits``: so many posts per period over the whole bot, and so many per
chat); ``RateLimits.wait(platform, chat)`` returns when one more post keeps within both, by a sliding
window of the posts' real (monotonic) times. Telegram: about 30 messages a second per bot and 20 a
minute per group; Discord: 50 requests a second per bot and 5 messages per 5 seconds per channel
(discord.py also waits out a 429 itself; this keeps the bot from meeting one)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SendLimits:
    per_bot: int
    bot_period: float  # seconds
    per_chat: int
    chat_period: float


TELEGRAM = SendLimits(per_bot=30, bot_period=1.0, per_chat=20, chat_period=60.0)
DISCORD = SendLimits(per_bot=50, bot_period=1.0, per_chat=5, chat_period=5.0)


class _Window:
    def __init__(self, count: int, period: float) -> None:
        self.count = count
        self.period = period
        self.times: deque[float] = deque()

    def wait_time(self, now: float) -> float:
        while self.times and self.times[0] + self.period <= now:  # the same sum as the wait below
            self.times.popleft()
        return 0.0 if len(self.times) < self.count else self.times[0] + self.period - now


class RateLimits:
    def __init__(self, limits: dict[str, SendLimits], clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._windows: dict[tuple[str, str | None], _Window] = {}
        self._lock = asyncio.Lock()

    def _window(self, platform: str, chat: str | None, count: int, period: float) -> _Window:
        key = (platform, chat)
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(count, period)
        return window

    async def wait(self, platform: str, chat: str | None) -> None:
        """Wait until one more post on ``platform`` in ``chat`` keeps within its limits, and count it."""
        limits = self.limits.get(platform)
        if limits is None:
            return
        async with self._lock:  # one at a time through the windows, so two posts never take one slot
            bot = self._window(platform, None, limits.per_bot, limits.bot_period)
            own = self._window(platform, chat or "", limits.per_chat, limits.chat_period)
            while True:
                now = self.clock()
                delay = max(bot.wait_time(now), own.wait_time(now))
                if delay <= 0:
                    break
                await asyncio.sleep(delay)
            now = self.clock()
            bot.times.append(now)
            own.times.append(now)
