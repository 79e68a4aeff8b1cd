"""Sending a thousand clubs' announcements (issue 16): clubs side by side, each club's posts in order, a
club whose post failed keeps its later ones back, and no window of time holds more posts than the
platform allows, over the whole bot or in one chat."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.config import Config
from bot.core.running.rate_limit import RateLimits, SendLimits
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from bot.systems import make_core
from bot.core.running.clock import ShiftedClock

NOW = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)


def within(times: list[float], count: int, period: float) -> bool:
    """No ``period`` long window holds more than ``count`` of ``times``."""
    times = sorted(times)
    return all(times[i + count] - times[i] >= period - 1e-6 for i in range(len(times) - count))


async def test_the_limits_hold_over_the_bot_and_per_chat() -> None:
    limits = RateLimits({"tg": SendLimits(per_bot=10, bot_period=0.2, per_chat=3, chat_period=0.3)})
    stamps: dict[str, list[float]] = {}

    async def post(chat: str, delay: float) -> None:
        async with limits.slot("tg", chat):
            await asyncio.sleep(delay)  # on its way
            stamps.setdefault(chat, []).append(time.monotonic())  # arrives
            await asyncio.sleep(delay)  # the answer on its way back

    t0 = time.monotonic()
    await asyncio.gather(*(post(f"c{i % 8}", 0.001 * (i % 5)) for i in range(40)))
    wall = time.monotonic() - t0
    everything = [t for ts in stamps.values() for t in ts]
    assert within(everything, 10, 0.2) and all(within(ts, 3, 0.3) for ts in stamps.values())
    assert wall >= 0.2 * (40 // 10 - 1) - 0.01  # it did have to wait: 40 posts at 10 per 0.2 s
    async with limits.slot("other", "x"):  # a platform without limits never waits
        pass


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.floats(0, 1), st.floats(0, 0.6), st.floats(0, 0.6)), min_size=1, max_size=60))
def test_the_windows_never_overfill_where_the_posts_arrive(events: list[tuple[int, float, float, float]]) -> None:
    """Posts let through at any moments, each on its way for any time and back after any time (a fake
    clock): the moments they arrive at the platform keep within both windows. Counting a post from the
    moment it was let through only, a slow post and a fast one after it arrive closer together than
    they left, and the platform's window overfills."""
    now = [0.0]
    limits = RateLimits({"p": SendLimits(per_bot=4, bot_period=1.0, per_chat=2, chat_period=1.0)}, clock=lambda: now[0])
    arrived: dict[int, list[float]] = {}

    async def run() -> None:
        real_sleep = asyncio.sleep

        async def fake_sleep(delay: float) -> None:
            now[0] += delay
            await real_sleep(0)

        async def post(chat: int, there: float, back: float) -> None:
            async with limits.slot("p", str(chat)):
                await fake_sleep(there)
                arrived.setdefault(chat, []).append(now[0])
                await fake_sleep(back)

        asyncio.sleep = fake_sleep  # type: ignore[assignment]
        try:
            posts = []
            for chat, gap, there, back in events:
                now[0] += gap
                posts.append(asyncio.create_task(post(chat, there, back)))
                await real_sleep(0)
            await asyncio.gather(*posts)
        finally:
            asyncio.sleep = real_sleep  # type: ignore[assignment]

    asyncio.run(run())
    everything = [t for ts in arrived.values() for t in ts]
    assert within(everything, 4, 1.0) and all(within(ts, 2, 1.0) for ts in arrived.values())


async def test_clubs_are_served_side_by_side_in_order_and_a_failure_holds_back_the_rest(config: Config) -> None:
    store = await Store.open(config.db_path)
    core = make_core(store, config, ShiftedClock(NOW))
    clubs = [await store.get_or_create_club("console", f"c{i}", f"C{i}", "nl", "Europe/Amsterdam", NOW) for i in range(6)]
    for club in clubs:
        for n in range(3):
            await store.queue_announcement(club.id, None, f"k{n}", f"{club.name} {n}", NOW)
    posted: list[tuple[int, str]] = []
    in_flight, most = [0], [0]

    async def send(club: Club, announcement: Announcement) -> None:
        in_flight[0] += 1
        most[0] = max(most[0], in_flight[0])
        await asyncio.sleep(0.01)
        in_flight[0] -= 1
        if announcement.body == "C2 1" and not getattr(send, "healed", False):
            raise RuntimeError("the channel is gone")
        posted.append((club.id, announcement.kind))

    alarm = Alarm(core, send, concurrency=4)
    try:
        left = await alarm.dispatch()
        assert left == 2  # C2's second failed, its third waited with it
        assert most[0] == 4  # clubs side by side, at most the concurrency
        for club in clubs:
            kinds = [k for c, k in posted if c == club.id]
            assert kinds == (["k0"] if club.name == "C2" else ["k0", "k1", "k2"])
        send.healed = True  # type: ignore[attr-defined]
        assert await alarm.dispatch() == 0
        assert [k for c, k in posted if c == clubs[2].id] == ["k0", "k1", "k2"]
    finally:
        alarm.shutdown()
        await store.close()


async def test_each_club_without_an_announcement_channel_has_a_chat_window_of_its_own(config: Config) -> None:
    """A Telegram club posts in its own group when it has no channel: the per-chat limit is that group's,
    not one window shared by every club without a channel (20 posts a minute for the whole bot)."""
    store = await Store.open(config.db_path)
    core = make_core(store, config, ShiftedClock(NOW))
    clubs = [await store.get_or_create_club("telegram", f"-100{i}", f"C{i}", "nl", "Europe/Amsterdam", NOW) for i in range(5)]
    for club in clubs:
        await store.queue_announcement(club.id, None, "notice", f"{club.name}", NOW)
    posted: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        posted.append(club.external_id)

    limits = RateLimits({"telegram": SendLimits(per_bot=30, bot_period=1.0, per_chat=1, chat_period=600.0)})
    alarm = Alarm(core, send, limits=limits)
    try:
        assert await asyncio.wait_for(alarm.dispatch(), timeout=30) == 0
        assert sorted(posted) == sorted(c.external_id for c in clubs)
    finally:
        alarm.shutdown()
        await store.close()
