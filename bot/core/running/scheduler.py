"""The alarm clock: APScheduler wakes the bot when something is due; the database says what is due.

Nothing about the calendar lives in the scheduler: it holds one job, "wake", set for the earliest moment
the systems say needs handling (the Keizer competition's reminders, deadlines and publications, a go
game's reminder to move: each system's ``Timed`` work in the registry) or, while announcements are still
waiting to be sent, a retry a little later. On waking it handles everything due up to now, in order,
then sets the job again. A task of its own re-reads the wall clock every minute (``recheck_every``, timed on
the event loop's monotonic clock) and sets "wake" again from it: APScheduler turns a moment into a wait
once and its own jobs run by the wall clock, so a wall clock that steps forward (NTP after boot) would
make the wake late by the step, and one that steps back and then forward would stall every job of
APScheduler's, a recheck among them, for as long as the step back (issue 46 §3). So a restart, or a wake-up that comes late, catches up once: a round is paired
once (its status moves to 'paired' in the same transaction that stores the games and queues the
announcement), and an announcement marked sent is never sent again. Before its first post an announcement
is marked as attempted (committed), so that after a crash between posting and marking it sent the adapter
knows to look whether the post is already there (Discord can; see docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from contextlib import asynccontextmanager
from typing import AsyncIterator, Awaitable, Callable, Iterable

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.core.running.batched import Batched
from bot.core.running.clock import Clock
from bot.core.commands.context import Actor
from bot.core.running.log_lines import CLUB
from bot.core.running.health import ANNOUNCEMENTS, ANNOUNCEMENTS_QUEUED, SCHEDULER_LAG
from bot.core.output.pictures import render_spec
from bot.core.running.rate_limit import RateLimits
from bot.core.commands.dispatch import Core
from bot.core.storage.outage import DatabaseDown
from bot.core.storage.store import Announcement, Club, Store

log = logging.getLogger(__name__)

# Posts an announcement; returns the platform's reference of the post (None where there is none), raises if
# it was not posted.
Sender = Callable[[Club, Announcement], Awaitable[str | None]]
RETRY_AFTER = timedelta(seconds=60)
# A club's announcements another process is posting (several processes on PostgreSQL): looked at again
# this soon, so that if that process dies in the middle, this one posts the rest within the minute.
CLAIMED_RETRY = timedelta(seconds=15)
SOONEST = 1.0  # seconds: work due but taken by another process is looked at again no sooner than this
CONCURRENCY = 16  # clubs whose announcements are being posted at the same time
# Posts made and not yet recorded as sent, at most: a kill at any moment repeats no more than these (on
# Telegram and the console; Discord finds them in the channel's history). Issue 33 §5.
POSTS_IN_FLIGHT = 4
RECHECK_EVERY = 60.0  # seconds: how often the wall clock is read again to set the wake from it


@asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield


class Alarm:
    def __init__(
        self,
        core: Core,
        send: Sender,
        retry_after: timedelta = RETRY_AFTER,
        limits: RateLimits | None = None,
        concurrency: int = CONCURRENCY,
        recheck_every: float = RECHECK_EVERY,
        posts_in_flight: int = POSTS_IN_FLIGHT,
        platforms: Iterable[str] | None = None,
    ) -> None:
        self.core = core
        self.limits = limits
        self.concurrency = concurrency
        self.store: Store = core.store
        self.clock: Clock = core.clock
        self.send = send
        # The platforms this process can post to (its adapters'): a pass claims only their clubs'
        # announcements (issue 46 §3); None: every club's (one process with every platform, the tests).
        self.platforms: set[str] | None = set(platforms) if platforms is not None else None
        self.retry_after = retry_after
        self.scheduler = AsyncIOScheduler(timezone=timezone.utc)
        self._lock = asyncio.Lock()
        self.wakeups = 0
        self._claimed_elsewhere = False  # the last dispatch left a club to another process
        self.recheck_every = recheck_every
        self._rechecking: asyncio.Task[None] | None = None
        self._in_flight = asyncio.Semaphore(posts_in_flight)  # a post and its record of "sent", together
        self._retry = False  # the last run left announcements pending
        self._wake_at: datetime | None = None  # the moment the wake is set for
        # The clubs served side by side record "attempted" and "sent" together: one statement for many.
        self._attempted: Batched[Announcement, Announcement] = Batched(
            lambda batch: self.store.mark_announcements_attempted(batch, self.clock.now()))
        self._sent: Batched[tuple[int, str | None], None] = Batched(self._mark_sent)
        # One club's outbox is posted by one task at a time: the pass's or a command's (``after_command``);
        # ``_served`` counts a club's posts by commands, so the pass reads again a queue read before one.
        self._outboxes: dict[int, tuple[asyncio.Lock, list[int]]] = {}  # the lock, how many hold or wait
        self._served: dict[int, int] = {}

    async def start(self) -> None:
        """Start the scheduler and catch up on whatever fell due while the bot was down."""
        self.scheduler.start()
        self._rechecking = asyncio.ensure_future(self._recheck_forever())
        await self.run_due()

    def shutdown(self) -> None:
        if self._rechecking is not None:
            self._rechecking.cancel()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    async def _recheck_forever(self) -> None:
        """Every ``recheck_every`` seconds of the monotonic clock (``asyncio.sleep``: a stepped wall clock
        does not move it), the wake set again from the wall clock as it reads then."""
        while True:
            await asyncio.sleep(self.recheck_every)
            try:
                await self._recheck()
            except DatabaseDown as exc:  # PostgreSQL restarting: tried again a minute later, one line each time
                log.warning("event=database_down the alarm is set again once the database answers: %s", exc)
            except Exception:
                log.exception("setting the alarm again failed; tried again in %s s", self.recheck_every)

    async def run_due(self) -> None:
        """Let every system do what is due, send what is pending, set the alarm."""
        async with self._lock:
            self.core.health.woke()
            now = self.clock.now()
            for timed in self.core.registry.timed:  # each system's work: one club's trouble stops no other
                try:
                    if getattr(timed, "claims_its_own", False):
                        await timed.run_due(self.core, now)
                        continue
                    async with self.store.claim(f"due:{type(timed).__name__}") as mine:
                        if mine:  # else another process is doing it right now
                            await timed.run_due(self.core, now)
                except DatabaseDown:
                    raise  # nothing of the pass can be done: said once, by its caller
                except Exception:
                    log.exception("scheduled work of %s failed", type(timed).__name__)
            pending = await self.dispatch()
            await self._set_alarm(retry=pending > 0)

    async def after_command(self, actor: Actor) -> None:
        """What a command may have made due, for its own club only (issue 42 §1): the club's announcements
        are posted, and the alarm is set earlier if the club's next due work comes before it. Work the
        command made due at once (a moment already past) is the scheduler's pass, run now as at its alarm.
        Nothing here reads another club's rows, so a command costs the same with 1 club or 10,000."""
        club = await self.store.club_by_external(actor.platform, actor.club_external_id)
        if club is None:  # a chat the bot accepted nothing in: nothing of it can be due
            return
        now = self.clock.now()
        moments = [await timed.next_due_moment(self.core, club.id) for timed in self.core.registry.timed]
        soonest = min((m for m in moments if m is not None), default=None)
        if soonest is not None and soonest <= now:
            await self.run_due()
            return
        if soonest is not None:
            self._wake_no_later_than(self.clock.real_delay(soonest))
        await self._post_outbox(club)

    async def _post_outbox(self, club: Club) -> None:
        """Post the club's pending announcements now (claimed, with several processes, as the pass does)."""
        if not await self.store.pending_announcements(club_id=club.id):  # most commands: nothing to post
            return
        async with self._outbox(club.id):
            async with self.store.claim(f"outbox:{club.id}") as mine:
                if not mine:  # another process (or this one's pass) is posting them: look again soon
                    self._wake_no_later_than(CLAIMED_RETRY.total_seconds())
                    return
                queue = await self.store.pending_announcements(club_id=club.id)
                try:
                    for announcement in queue:
                        if not await self._post(club, announcement):
                            self._wake_no_later_than(self.retry_after.total_seconds())
                            return
                finally:  # counted once posted: a pass that read the queue before this reads it again
                    if queue:
                        self._served[club.id] = self._served.get(club.id, 0) + 1

    @asynccontextmanager
    async def _outbox(self, club_id: int) -> AsyncIterator[None]:
        """Hold the club's outbox; forgotten when nobody holds or waits for it (no lock per club kept)."""
        lock, users = self._outboxes.setdefault(club_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._outboxes[club_id]

    def _wake_no_later_than(self, delay: float) -> None:
        """Move the wake earlier, to ``delay`` seconds from now, if it is set later (or not at all)."""
        run_at = datetime.now(timezone.utc) + timedelta(seconds=max(delay, 0.0))
        if not self._wake_set_by(run_at):
            self._schedule_wake(run_at)

    def _wake_set_by(self, run_at: datetime) -> bool:
        """Whether the wake is set for ``run_at`` or earlier. Before the scheduler starts, APScheduler keeps
        the job pending without a run time of its own: then the moment it was set for."""
        job = self.scheduler.get_job("wake")
        if job is None:
            return False
        next_run: datetime | None = getattr(job, "next_run_time", self._wake_at)
        return next_run is not None and next_run <= run_at

    async def dispatch(self) -> int:
        """Send the pending announcements; return how many are still pending (kept for a retry).

        Clubs are served side by side (at most ``concurrency`` at a time), each club's announcements in
        the order they were queued; when one of a club's announcements cannot be posted, the club's later
        ones wait with it for the retry, so a club never sees them out of order. Every post waits for the
        platform's rate limits (``bot/core/running/rate_limit.py``). With several processes, one posts a club's
        announcements at a time: the clubs' outboxes are claimed a share at a time (``store.claim_many``,
        one round trip for ``concurrency`` clubs) by two workers, so that one slow club holds up only its
        own share and two processes take turns share by share; a share's queues are read again once claimed
        (one query), as another process may have posted some meanwhile."""
        by_club: dict[int, list[Announcement]] = {}
        served = dict(self._served)  # before the queues are read: a command's posts after this are seen
        pending = await self.store.pending_announcements(platforms=self.platforms)
        ANNOUNCEMENTS_QUEUED.set(len(pending))
        for announcement in pending:
            by_club.setdefault(announcement.club_id, []).append(announcement)
        gate = asyncio.Semaphore(self.concurrency)
        self._claimed_elsewhere = False
        clubs = list(by_club)
        shares = [clubs[start : start + self.concurrency] for start in range(0, len(clubs), self.concurrency)]
        left = 0

        async def serve(club_id: int, queue: list[Announcement]) -> int:
            CLUB.set(club_id)  # the log's club= (each serve runs in a task of its own)
            async with gate, self._outbox(club_id):
                club = await self.store.club(club_id)
                if club is None:
                    return 0
                if self._served.get(club_id, 0) != served.get(club_id, 0):  # a command posted some meanwhile
                    queue = await self.store.pending_announcements(club_id=club_id)
                for done, announcement in enumerate(queue):
                    if not await self._post(club, announcement):
                        return len(queue) - done
                return 0

        async def worker() -> None:
            nonlocal left
            while shares:
                share = shares.pop(0)
                async with self.store.claim_many(f"outbox:{club_id}" for club_id in share) as mine:
                    claimed = [club_id for club_id in share if f"outbox:{club_id}" in mine]
                    if len(claimed) < len(share):
                        self._claimed_elsewhere = True
                        left += sum(len(by_club[club_id]) for club_id in share if club_id not in claimed)
                    queues = {club_id: by_club[club_id] for club_id in claimed}
                    if self.store.dialect != "sqlite" and claimed:  # another process may have posted some meanwhile
                        queues = {club_id: [] for club_id in claimed}
                        for announcement in await self.store.pending_announcements(clubs=claimed):
                            queues[announcement.club_id].append(announcement)
                    unsent = await asyncio.gather(*(serve(club_id, queue) for club_id, queue in queues.items()))
                    left += sum(unsent)  # added after the wait: the other worker adds its own meanwhile

        await asyncio.gather(worker(), worker())
        return left

    async def _post(self, club: Club, announcement: Announcement) -> bool:
        announcement = await self._attempted(announcement)
        if announcement.image is None and announcement.picture is not None:
            try:  # drawn now, off the event loop, not while the round was paired
                image = await asyncio.to_thread(render_spec, announcement.picture)
                announcement = replace(announcement, image=image)
            except Exception:
                log.exception("the picture of announcement %s could not be drawn; its text goes alone", announcement.id)
        chat = announcement.recipient or club.channel_id or club.external_id  # a private notice: that chat
        async with self.limits.slot(club.platform, chat) if self.limits else _nothing(), self._in_flight:
            try:
                ref = await self.send(club, announcement)
            except Exception:
                ANNOUNCEMENTS.labels("failed").inc()
                log.exception("announcement %s to club %s not sent; it stays pending", announcement.id, club.id)
                return False
            await self._sent((announcement.id, ref))  # at once, alone (with the other clubs' that came meanwhile)
            ANNOUNCEMENTS.labels("sent").inc()
        return True

    async def _mark_sent(self, posts: list[tuple[int, str | None]]) -> list[None]:
        await self.store.mark_announcements_sent(posts, self.clock.now())
        return [None] * len(posts)

    async def _recheck(self) -> None:
        """Set the wake again from the clock as it reads now (a stepped wall clock moves it)."""
        async with self._lock:
            await self._set_alarm(retry=self._retry, recheck=True)

    async def _set_alarm(self, retry: bool, recheck: bool = False) -> None:
        """Set the wake for the earliest due work (or the retry). On a ``recheck`` a wake already set no
        later than that is kept, and APScheduler reads the wall clock again: a wake whose moment has come on
        the wall clock runs now (it waited on a wait APScheduler worked out from the wall clock before a
        step), and one whose work is due is not put off by ``SOONEST`` again at every recheck."""
        self._retry = retry
        delays = []
        for timed in self.core.registry.timed:
            moment = await timed.next_due_moment(self.core)
            if moment is not None:  # still due now: another process has it in hand; look again soon
                delay = self.clock.real_delay(moment)
                delays.append(delay if delay > 0 else SOONEST)
        if retry:
            delays.append(min(self.retry_after, CLAIMED_RETRY).total_seconds() if self._claimed_elsewhere
                          else self.retry_after.total_seconds())  # fmt: skip
        if not delays:
            if self.scheduler.get_job("wake"):
                self.scheduler.remove_job("wake")
            return
        run_at = datetime.now(timezone.utc) + timedelta(seconds=min(delays))
        if recheck and self._wake_set_by(run_at):
            self.scheduler.wakeup()
            return
        self._schedule_wake(run_at)

    def _schedule_wake(self, run_at: datetime) -> None:
        self._wake_at = run_at
        self.scheduler.add_job(
            self._wake,
            trigger=DateTrigger(run_date=run_at),
            id="wake",
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    async def _wake(self) -> None:
        self.wakeups += 1
        if self._wake_at is not None:
            SCHEDULER_LAG.set(max(0.0, (datetime.now(timezone.utc) - self._wake_at).total_seconds()))
        try:
            await self.run_due()
        except DatabaseDown as exc:  # its work waits for the database; the minute's recheck sets the alarm again
            log.warning("event=database_down the scheduler's pass waits for the database: %s", exc)
