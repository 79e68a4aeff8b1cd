"""Staying within a chat platform's limits while a thousand clubs' announcements go out at one minute.

A platform declares its limits (``SendLimits``: so many posts per period over the whole bot, and so many per
chat); ``async with RateLimits.slot(platform, chat):`` enters when one more post keeps within both, by a
sliding window of the posts' real (monotonic) times. A post counts from the moment it is let through until
one period after its answer came back: the platform counts a post when it arrives, somewhere in between,
so however the network delays posts, no window at the platform's end holds more than the limit (counting
from the start only, the local fake of Discord saw 58 posts in one second where 50 were let through). Telegram: about 30 messages a second per bot and 20 a
minute per group; Discord: 50 requests a second per bot and 5 messages per 5 seconds per channel
(discord.py also waits out a 429 itself; this keeps the bot from meeting one)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class SendLimits:
    per_bot: int
    bot_period: float  # seconds
    per_chat: int
    chat_period: float


TELEGRAM = SendLimits(per_bot=30, bot_period=1.0, per_chat=20, chat_period=60.0)
DISCORD = SendLimits(per_bot=50, bot_period=1.0, per_chat=5, chat_period=5.0)


IN_FLIGHT = float("inf")  # the moment of a post still on its way: it counts until it is back
IN_FLIGHT_PAUSE = 0.01  # how long to wait when the window is full of posts still on their way
SWEEP_EVERY = 1000  # posts between two sweeps of the windows of chats with nothing in them


class _Window:
    def __init__(self, count: int, period: float) -> None:
        self.count = count
        self.period = period
        self.posts: list[list[float]] = []  # one cell per post: its moment (IN_FLIGHT until it is back)

    def wait_time(self, now: float) -> float:
        self.posts = [p for p in self.posts if p[0] + self.period > now]
        if len(self.posts) < self.count:
            return 0.0
        oldest = min(p[0] for p in self.posts)
        return IN_FLIGHT_PAUSE if oldest == IN_FLIGHT else oldest + self.period - now


class RateLimits:
    def __init__(self, limits: dict[str, SendLimits], clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._windows: dict[tuple[str, str | None], _Window] = {}
        self._lock = asyncio.Lock()
        self._admitted = 0

    def _window(self, platform: str, chat: str | None, count: int, period: float) -> _Window:
        key = (platform, chat)
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(count, period)
        return window

    @asynccontextmanager
    async def slot(self, platform: str, chat: str) -> AsyncIterator[None]:
        """Wait until one more post on ``platform`` in ``chat`` keeps within its limits; the post is
        made inside, and counts until one period after it is back (also when it failed)."""
        cells = await self._admit(platform, chat)
        try:
            yield
        finally:
            back = self.clock()
            for cell in cells:
                cell[0] = back

    async def _admit(self, platform: str, chat: str) -> list[list[float]]:
        limits = self.limits.get(platform)
        if limits is None:
            return []
        async with self._lock:  # one at a time through the windows, so two posts never take one slot
            bot = self._window(platform, None, limits.per_bot, limits.bot_period)
            own = self._window(platform, chat, limits.per_chat, limits.chat_period)
            while True:
                now = self.clock()
                delay = max(bot.wait_time(now), own.wait_time(now))
                if delay <= 0:
                    break
                await asyncio.sleep(delay)
            cells = [[IN_FLIGHT], [IN_FLIGHT]]
            bot.posts.append(cells[0])
            own.posts.append(cells[1])
            self._admitted += 1
            if self._admitted % SWEEP_EVERY == 0:
                self._sweep(now)
            return cells

    def _sweep(self, now: float) -> None:
        """Forget the windows of chats with nothing in them (a bot of thousands of chats keeps few)."""
        for key in [k for k, w in self._windows.items() if k[1] is not None and w.wait_time(now) == 0 and not w.posts]:
            del self._windows[key]

    def chats_kept(self) -> int:
        return sum(1 for key in self._windows if key[1] is not None)
