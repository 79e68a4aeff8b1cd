"""The real APScheduler as the alarm clock: it fires at the publication, the round is announced once,
a failed send is retried, and a restart neither repeats nor loses an announcement."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from bot.core.running.clock import ShiftedClock
from bot.core.commands.dispatch import Core
from bot.systems import make_core
from bot.config import Config
from bot.core.running.scheduler import Alarm
from bot.core.storage.store import Announcement, Club, Store
from tests.bot.conftest import DIRECTOR, actor

PUBLISH = datetime(2026, 12, 3, 17, 0, tzinfo=timezone.utc)  # 18:00 in Amsterdam


async def setup_season(commands: Core) -> None:
    for text in ("/seizoen naam=S start=2026-12-03 rondes=4", "/speler Anna 2000", "/speler Bert 1900", "/speler Carla 1800"):
        reply = await commands.handle(DIRECTOR, text)
        assert reply.ok, reply.text


async def wait_for(predicate, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)


async def test_the_alarm_fires_at_publication_and_announces_once(config: Config) -> None:
    store = await Store.open(config.db_path)
    clock = ShiftedClock(PUBLISH - timedelta(hours=2))
    commands = make_core(store, config, clock)
    await setup_season(commands)
    # move the clock to 1.5 real seconds before the publication, then let the scheduler do the rest
    clock.set(PUBLISH - timedelta(seconds=1.5))
    sent: list[tuple[str, str]] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append((announcement.kind, announcement.body))

    alarm = Alarm(commands, send)
    await alarm.start()
    try:
        assert sent == []  # not yet due
        assert alarm.scheduler.get_job("wake") is not None
        await wait_for(lambda: len(sent) >= 1)
        await asyncio.sleep(0.5)
        assert [kind for kind, _ in sent] == ["pairing"]
        assert sent[0][1].splitlines()[0] == "Indeling ronde 1 (2026-12-03)"
        assert alarm.wakeups >= 1
        # the next alarm is set for the day after the round (its missing results are reminded of privately,
        # issue 34 §2), then round 2's reminder and deadline, a week on
        job = alarm.scheduler.get_job("wake")
        day = timedelta(days=1)
        assert job is not None and day - timedelta(minutes=1) < job.next_run_time - datetime.now(timezone.utc) <= day
    finally:
        alarm.shutdown()
    # a restart: nothing is sent again
    again: list[str] = []

    async def send_again(club: Club, announcement: Announcement) -> None:
        again.append(announcement.kind)

    alarm2 = Alarm(commands, send_again)
    await alarm2.start()
    alarm2.shutdown()
    assert again == []
    await store.close()


async def test_a_failed_send_stays_pending_and_is_retried(config: Config) -> None:
    store = await Store.open(config.db_path)
    clock = ShiftedClock(PUBLISH - timedelta(hours=2))
    commands = make_core(store, config, clock)
    await setup_season(commands)
    clock.set(PUBLISH + timedelta(minutes=1))
    attempts: list[int] = []

    async def flaky(club: Club, announcement: Announcement) -> None:
        attempts.append(announcement.id)
        if len(attempts) == 1:
            raise ConnectionError("platform down")

    alarm = Alarm(commands, flaky, retry_after=timedelta(seconds=0.3))
    await alarm.start()
    try:
        assert len(attempts) == 1
        assert len(await store.pending_announcements()) == 1
        await wait_for(lambda: len(attempts) >= 2)
        await asyncio.sleep(0.5)
        assert len(attempts) == 2 and attempts[0] == attempts[1]
        assert await store.pending_announcements() == []
    finally:
        alarm.shutdown()
        await store.close()


async def test_catch_up_after_weeks_down_pairs_each_round_once_in_order(config: Config) -> None:
    store = await Store.open(config.db_path)
    clock = ShiftedClock(PUBLISH - timedelta(hours=2))
    commands = make_core(store, config, clock)
    await setup_season(commands)
    clock.set(PUBLISH + timedelta(weeks=2, hours=1))  # three publications passed while down
    sent: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement.body.splitlines()[0])

    alarm = Alarm(commands, send)
    await alarm.start()
    alarm.shutdown()
    assert sent == [
        "Indeling ronde 1 (2026-12-03)",
        "Indeling ronde 2 (2026-12-10)",
        "Indeling ronde 3 (2026-12-17)",
    ]
    await alarm.run_due()
    assert len(sent) == 3
    await store.close()


async def test_the_deadline_reminder_is_posted_once_hours_before(config: Config) -> None:
    store = await Store.open(config.db_path)
    clock = ShiftedClock(datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc))
    commands = make_core(store, config, clock)
    await setup_season(commands)
    sent: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement.kind + ": " + announcement.body)

    alarm = Alarm(commands, send)
    assert config.reminder_hours == 5
    clock.set(datetime(2026, 12, 3, 10, 59, tzinfo=timezone.utc))  # 11:59 in Amsterdam, deadline 17:00
    await alarm.start()
    try:
        assert sent == []
        job = alarm.scheduler.get_job("wake")
        assert job is not None
        assert abs((job.next_run_time - datetime.now(timezone.utc)).total_seconds() - 60) < 5  # at 12:00
        clock.set(datetime(2026, 12, 3, 11, 30, tzinfo=timezone.utc))
        await alarm.run_due()
        await alarm.run_due()
        assert len(sent) == 1 and sent[0].startswith("reminder: Herinnering: ronde 1 is op 2026-12-03")
        assert "17:00" in sent[0]
    finally:
        alarm.shutdown()
        await store.close()


async def test_the_alarm_runs_a_features_timed_work(config: Config) -> None:
    """The go feature's reminder to move comes from the same alarm: set for its moment, sent once."""
    store = await Store.open(config.db_path)
    clock = ShiftedClock(datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc))
    commands = make_core(store, config, clock)
    for who, text in ((DIRECTOR, "/go herinnering 24u"), (actor("Anna"), "/aanmelden"), (actor("Bert"), "/aanmelden"),
                      (actor("Anna"), "/go uitdagen @Bert 9"), (actor("Bert"), "/go accepteren")):
        reply = await commands.handle(who, text)
        assert reply.ok, reply.text
    sent: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement.body)

    alarm = Alarm(commands, send)
    await alarm.start()
    try:
        job = alarm.scheduler.get_job("wake")
        assert job is not None
        assert abs((job.next_run_time - datetime.now(timezone.utc)).total_seconds() - 24 * 3600) < 60
        clock.advance(timedelta(hours=25))
        await alarm.run_due()
        await alarm.run_due()
        moves = [body for body in sent if "aan zet" in body]
        assert len(moves) == 1  # besides the director's notices of the two newcomers (issue 44)
        assert len([body for body in sent if body.startswith("Nieuw lid via de chat")]) == 2 and len(sent) == 3
    finally:
        alarm.shutdown()
        await store.close()


async def test_a_pairing_picture_is_kept_as_what_it_shows_drawn_when_sent_and_dropped_once_sent(config: Config) -> None:
    """Pairing a round draws nothing (a thousand clubs at one minute): the outbox keeps the picture's table
    as JSON, a few hundred bytes; the sender gets the PNG, drawn at send time. Once the post is recorded as
    sent, the picture goes (a five-year club kept 42 MB of them); its text and message reference stay."""
    import json
    import sqlite3

    store = await Store.open(config.db_path)
    clock = ShiftedClock(PUBLISH - timedelta(hours=2))
    commands = make_core(store, config, clock)
    await setup_season(commands)
    sent: list[Announcement] = []
    conn = sqlite3.connect(config.db_path)

    def row() -> tuple:
        return conn.execute("SELECT image, picture, body, message_ref FROM announcements WHERE kind = 'pairing'").fetchone()

    async def send(club: Club, announcement: Announcement) -> str:
        if announcement.kind == "pairing":
            image, picture, _, _ = row()  # as queued, before the post is recorded
            assert image is None and len(picture) < 1000
        sent.append(announcement)
        return "message-7"

    alarm = Alarm(commands, send)
    try:
        clock.set(PUBLISH + timedelta(seconds=5))
        await alarm.run_due()
        (pairing,) = [a for a in sent if a.kind == "pairing"]
        shown = json.loads(pairing.picture or "")
        assert shown["title"] == "Indeling ronde 1 (2026-12-03)" and len(shown["rows"]) == 1  # 3 players: 1 board
        assert pairing.image is not None and pairing.image.startswith(b"\x89PNG")
        image, picture, body, ref = row()
        assert (image, picture, ref) == (None, None, "message-7")
        assert body.splitlines()[0] == "Indeling ronde 1 (2026-12-03)"
        # an NK announcement queued with its PNG keeps it only until it is sent too
        club = await store.club_by_external(DIRECTOR.platform, DIRECTOR.club_external_id)
        async with store.transaction():
            await store.queue_announcement(club.id, None, "nk:1:standings:1", "Stand", clock.now(), image=b"\x89PNG-big")
        await alarm.run_due()
        assert conn.execute("SELECT image FROM announcements WHERE kind = 'nk:1:standings:1'").fetchone() == (None,)
    finally:
        conn.close()
        alarm.shutdown()
        await store.close()


class SteppedClock(ShiftedClock):
    """The bot's clock with a step in it, as NTP gives a wall clock after boot."""

    def step(self, delta: timedelta) -> None:
        self.advance(delta)


async def test_a_wall_clock_that_steps_forward_does_not_delay_the_publication(config: Config) -> None:
    """Issue 33 §2: the publication is due 40 s on; the wall clock then steps 38 s forward. APScheduler
    turned the 40 s into a wait once, so it would wake 38 s late; the alarm reads the clock again (here
    every 0.5 s, in a bot every minute) and the round is announced within about a second of the step."""
    store = await Store.open(config.db_path)
    clock = SteppedClock(PUBLISH - timedelta(hours=2))
    commands = make_core(store, config, clock)
    await setup_season(commands)
    clock.set(PUBLISH - timedelta(seconds=40))
    sent: list[str] = []

    async def send(club: Club, announcement: Announcement) -> None:
        sent.append(announcement.kind)

    alarm = Alarm(commands, send, recheck_every=0.5)
    await alarm.start()
    try:
        assert sent == []
        clock.step(timedelta(seconds=38))
        await wait_for(lambda: "pairing" in sent, seconds=4.0)
    finally:
        alarm.shutdown()
        await store.close()
