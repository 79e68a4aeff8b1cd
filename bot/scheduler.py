"""The alarm clock: APScheduler wakes the bot when something is due; the database says what is due.

Nothing about the calendar lives in the scheduler: it holds one job, "wake", set for the earliest moment
the database says needs handling (a reminder of the sign-off deadline, the deadline, a publication, a
feature's own timed work such as a go game's reminder to move) or, while announcements are still
waiting to be sent, a retry a little later. On waking it handles everything due up to now, in order,
then sets the job again. So a restart, or a wake-up that comes late, catches up once: a round is paired
once (its status moves to 'paired' in the same transaction that stores the games and queues the
announcement), and an announcement marked sent is never sent again. Before its first post an announcement
is marked as attempted (committed), so that after a crash between posting and marking it sent the adapter
knows to look whether the post is already there (Discord can; see docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta, timezone
from types import ModuleType
from typing import Awaitable, Callable

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.clock import Clock
from bot.commands import Commands
from bot.store import Announcement, Club, Store

log = logging.getLogger(__name__)

# Posts an announcement; returns the platform's reference of the post (None where there is none), raises if
# it was not posted.
Sender = Callable[[Club, Announcement], Awaitable[str | None]]
RETRY_AFTER = timedelta(seconds=60)


class Alarm:
    def __init__(
        self, store: Store, commands: Commands, clock: Clock, send: Sender, retry_after: timedelta = RETRY_AFTER
    ) -> None:
        self.store = store
        self.commands = commands
        self.clock = clock
        self.send = send
        self.retry_after = retry_after
        hours = commands.config.reminder_hours if commands.config is not None else 0
        self.remind_before = timedelta(hours=hours) if hours > 0 else None
        self.scheduler = AsyncIOScheduler(timezone=timezone.utc)
        self._lock = asyncio.Lock()
        self.wakeups = 0

    async def start(self) -> None:
        """Start the scheduler and catch up on whatever fell due while the bot was down."""
        self.scheduler.start()
        await self.run_due()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    async def run_due(self) -> None:
        """Handle every deadline and publication that is due, send what is pending, set the alarm."""
        async with self._lock:
            now = self.clock.now()
            async with self.store.transaction():
                if self.remind_before:
                    for row in await self.store.rounds_to_remind(now, self.remind_before):
                        await self.commands.queue_reminder(row, now)
                for row in await self.store.rounds_to_close(now):
                    await self.store.set_round_status(row.id, "closed", ("open",))
            for row in await self.store.rounds_to_pair(now):
                season = await self.store.season(row.season_id)
                if season is None:
                    continue
                try:  # each round in a transaction of its own: one club's trouble does not stop the others
                    async with self.store.transaction():
                        await self.commands.pair_and_queue(season, row, now)
                except Exception:
                    log.exception("pairing round %s of season %s failed", row.number, season.id)
            for feature in self._timed_features():  # e.g. go: reminders to move, losses on time
                try:
                    await feature.run_due(self.commands, now)
                except Exception:
                    log.exception("scheduled work of %s failed", feature.__name__)
            pending = await self.dispatch()
            await self._set_alarm(retry=pending > 0)

    async def dispatch(self) -> int:
        """Send the pending announcements; return how many are still pending (kept for a retry)."""
        still_pending = 0
        for announcement in await self.store.pending_announcements():
            club = await self.store.club(announcement.club_id)
            if club is None:
                continue
            announcement = await self.store.mark_announcement_attempted(announcement, self.clock.now())
            try:
                ref = await self.send(club, announcement)
            except Exception:
                log.exception("announcement %s to club %s not sent; it stays pending", announcement.id, club.id)
                still_pending += 1
                continue
            await self.store.mark_announcement_sent(announcement.id, self.clock.now(), ref)
        return still_pending

    async def _set_alarm(self, retry: bool) -> None:
        due = await self.store.next_due_moment()
        delays = []
        if due is not None:
            delays.append(self.clock.real_delay(due))
        if self.remind_before is not None:
            deadline = await self.store.next_reminder_deadline()
            if deadline is not None:
                delays.append(self.clock.real_delay(deadline - self.remind_before))
        for feature in self._timed_features():
            moment = await feature.next_due_moment(self.commands)
            if moment is not None:
                delays.append(self.clock.real_delay(moment))
        if retry:
            delays.append(self.retry_after.total_seconds())
        if not delays:
            if self.scheduler.get_job("wake"):
                self.scheduler.remove_job("wake")
            return
        run_at = datetime.now(timezone.utc) + timedelta(seconds=min(delays))
        self.scheduler.add_job(
            self._wake,
            trigger=DateTrigger(run_date=run_at),
            id="wake",
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    def _timed_features(self) -> list[ModuleType]:
        """Feature modules with timed work of their own: ``run_due(commands, now)`` and
        ``next_due_moment(commands)``."""
        return [m for m in getattr(self.commands, "features", []) if hasattr(m, "run_due") and hasattr(m, "next_due_moment")]

    async def _wake(self) -> None:
        self.wakeups += 1
        await self.run_due()
