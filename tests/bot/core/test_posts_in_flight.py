"""After a crash, as few repeats as the docs say (issue 33 §5): at any moment at most ``POSTS_IN_FLIGHT``
announcements have been posted without "sent" committed to the file, so a kill at any moment repeats no
more than that many. Checked on a real SQLite file, read by a second connection as the next start would
read it, while sixteen clubs post at once."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone

from bot.config import Config
from bot.core.running.clock import ShiftedClock
from bot.core.running.scheduler import POSTS_IN_FLIGHT, Alarm
from bot.core.storage.store import Announcement, Club, Store
from bot.systems import make_core

NOW = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)


async def test_a_kill_at_any_moment_repeats_at_most_the_posts_in_flight(config: Config) -> None:
    store = await Store.open(config.db_path)
    core = make_core(store, config, ShiftedClock(NOW))
    clubs = [await store.get_or_create_club("console", f"c{i}", f"C{i}", "nl", "Europe/Amsterdam", NOW) for i in range(16)]
    for club in clubs:
        for n in range(3):
            await store.queue_announcement(club.id, None, f"k{n}", f"{club.name} {n}", NOW)
    made: set[int] = set()
    worst = [0]
    disk = sqlite3.connect(config.db_path)  # what a bot started after a kill now would read

    async def send(club: Club, announcement: Announcement) -> str:
        made.add(announcement.id)  # the platform has the post from here on
        recorded = {r[0] for r in disk.execute("SELECT id FROM announcements WHERE sent_at IS NOT NULL")}
        worst[0] = max(worst[0], len(made - recorded))  # a kill now: these would be posted again
        await asyncio.sleep(0.005)  # the platform's answer
        return f"m{announcement.id}"

    alarm = Alarm(core, send)
    try:
        assert await alarm.dispatch() == 0
        assert len(made) == 48
        assert worst[0] <= POSTS_IN_FLIGHT, worst[0]
    finally:
        alarm.shutdown()
        disk.close()
        await store.close()
